"""A fact the user says of themself, in the memory's voice: "I walk the dog" -> "User walks the dog".

The power phrases (``reverie.extract.phrases``), the rules extractor and ``Memory.remember``
keep a first-person fact in the third person, as every other fact is kept; this module does
the rewording, pronouns and verb agreement only (the words are the user's).
"""

from __future__ import annotations

import re

from reverie.extract.claim_words import VERBS

_I = re.IGNORECASE
APOSTROPHES = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'", "\u201c": '"', "\u201d": '"'}
)
_TRAILING = re.compile(r"(?:[\s.!?\u2026]+|[\s,]+(?:please|thanks|thank you)|\s*,\s*(?:ok|okay))$", _I)
_SPACES = re.compile(r"\s+")
_CONSONANT_Y = re.compile(r"[^aeiou]y$")
_SIBILANT = re.compile(r"(?:s|sh|ch|x|z|o)$")
_CALL_ME = re.compile(r"^(?:(?:you\s+(?:can|may|should)\s+)?call\s+me)\s+(.+)$", _I)
_TOKEN = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*|[^A-Za-z]+")
_SENTENCE_END = re.compile(r"[.!?]")
_CLAUSE_BREAK = re.compile(r"[.!?,;:]")

_ADVERBS = frozenset(
    "always usually often never sometimes rarely seldom also just only still really generally "
    "normally typically mostly actually occasionally frequently hardly definitely absolutely "
    "totally truly honestly literally already even ever barely mainly personally currently now "
    "regularly constantly strongly secretly too myself kinda much certainly probably almost "
    "nearly simply basically especially particularly no longer all both".split()
)
_NOT_VERBS = frozenset(
    "and or nor but to the a an my your his her our their this that in on at for "
    "with of from by as than".split()
)
_LY_VERBS = frozenset(
    "fly rely apply reply supply imply comply multiply ally tally rally bully sully dally".split()
)
_UNCHANGED = frozenset(
    # modals, third-person and past forms, and present/past look-alikes left as written
    "can could will would shall should may might must cannot ought is was were has had did does "
    "went saw made got took came knew thought bought brought ate drank drove flew found gave grew "
    "heard kept left lost met paid ran rode said sang sat slept sold sent spent spoke stood swam "
    "taught told understood woke wore won wrote began became broke chose fell felt fought forgot "
    "forgave froze hid held led lent meant rang rose sought shook shot sank stole struck swore "
    "threw tore caught dug drew dreamt learnt burnt built bent bit fed fled hung knelt "
    "put cut set hit let read quit cost hurt shut spread bet cast burst ain't".split()
)
_IRREGULAR = {
    "am": "is",
    "are": "is",
    "be": "is",
    "have": "has",
    "do": "does",
    "go": "goes",
    "don't": "doesn't",
    "dont": "doesn't",
    "haven't": "hasn't",
    "havent": "hasn't",
    "aren't": "isn't",
}
_ED_PRESENT = frozenset("need feed succeed proceed exceed bleed speed breed heed embed shred".split())
_PARTICIPLES = frozenset("been had gone done seen known heard forgotten eaten never already just".split())
_CONTRACTIONS = {"i'm": "is", "im": "is", "i've": "has", "ive": "has", "i'll": "will"}


def to_third_person(clause: str) -> str:
    """Rewrite a first-person clause as a self-describing fact ("I walk" -> "User walks")."""
    clause = strip_trailing(_SPACES.sub(" ", clause.translate(APOSTROPHES)).strip())
    called = _CALL_ME.match(clause)
    if called:
        return f"User wants to be called {called.group(1)}"
    tokens = _TOKEN.findall(clause)
    out = list(tokens)
    kept = _in_addresses(clause, tokens)
    words = [k for k, tok in enumerate(tokens) if tok[0].isalpha() and k not in kept]
    speaking = False  # the clause's subject is the user alone ("I ...", not "my wife and I")
    for n, k in enumerate(words):
        low = tokens[k].lower()
        at_start = n == 0 or bool(_SENTENCE_END.search(tokens[k - 1]))
        subject = "User" if at_start else "the user"
        if at_start or low in _OTHER_SUBJECTS:
            speaking = False
        if low == "i" and not _is_ie(tokens, k):
            out[k] = subject
            speaking = not _is_compound_subject(tokens, words, n)
            if speaking:
                _agree(tokens, out, words, n + 1)
        elif low in _CONTRACTIONS:
            out[k] = f"{subject} {_CONTRACTIONS[low]}"
            speaking = True
        elif low in ("and", "but") and speaking and n + 1 < len(words):
            _agree_second(tokens, out, words, n + 1)  # "I sold the car and don't have one now"
        elif low == "i'd":
            nxt = tokens[words[n + 1]].lower() if n + 1 < len(words) else ""
            out[k] = f"{subject} {'had' if nxt in _PARTICIPLES else 'would'}"
        elif low == "my":
            out[k] = "User's" if at_start else "the user's"
        elif low == "mine":
            out[k] = "The user's" if at_start else "the user's"
        elif low == "me":
            out[k] = "The user" if at_start else "the user"
        elif low == "myself":
            out[k] = "themselves"
    result = "".join(out).strip()
    return result[:1].upper() + result[1:]


# A run with no space that holds "@", "://", "_" or a dot before a small letter or digit: an email
# address, a link, a handle or a file name ("anna@proton.me", "my_notes.txt"), kept as written.
# Each run is matched once and then searched (a pattern with \S* on both sides of the mark backtracks
# over every start in a long run: 1 MB of letters took minutes).
_RUN = re.compile(r"\S+")
_ADDRESS_MARK = re.compile(r"@|://|_|[A-Za-z0-9]\.[a-z0-9]")


def _in_addresses(clause: str, tokens: list[str]) -> set[int]:
    """The indices of the tokens inside an address, which no pronoun rewording touches."""
    spans = [run.span() for run in _RUN.finditer(clause) if _ADDRESS_MARK.search(run.group())]
    kept: set[int] = set()
    at = span = 0
    for k, token in enumerate(tokens):
        while span < len(spans) and spans[span][1] <= at:
            span += 1
        if span < len(spans) and spans[span][0] <= at and not _is_ie(tokens, k):
            kept.add(k)
        at += len(token)
    return kept


def strip_trailing(text: str) -> str:
    """Drop trailing punctuation and closing politeness ("..., please!")."""
    previous = None
    while previous != text:
        previous, text = text, _TRAILING.sub("", text)
    return text.strip()


def _is_ie(tokens: list[str], k: int) -> bool:
    """Tell whether the "i" at ``k`` starts the abbreviation "i.e."."""
    return k + 2 < len(tokens) and tokens[k + 1] == "." and tokens[k + 2].lower() == "e"


def _is_compound_subject(tokens: list[str], words: list[int], n: int) -> bool:
    """Tell whether the words before the "I" at ``words[n]`` make a subject like "my wife and I"."""
    if n == 0 or tokens[words[n - 1]].lower() not in ("and", "or", "nor"):
        return False
    phrase: list[str] = []
    # At most four words back: a longer phrase is not a compound subject, and the walk stays linear.
    for k in (words[i] for i in range(n - 2, max(-1, n - 6), -1)):
        phrase.append(tokens[k].lower())
        if k == 0 or _CLAUSE_BREAK.search(tokens[k - 1]):
            break
    # "my wife and I go" is compound; "I fix bikes and I watch birds" is two clauses.
    return 0 < len(phrase) <= 3 and "i" not in phrase


def _agree(tokens: list[str], out: list[str], words: list[int], start: int) -> None:
    """Put the verb after a plain "I" (words from ``words[start]`` on) in the third person, past adverbs."""
    for j in (words[i] for i in range(start, len(words))):
        if tokens[j - 1].strip():  # punctuation between subject and verb: leave the clause alone
            return
        word = tokens[j]
        low = word.lower()
        if low in _ADVERBS or (low.endswith("ly") and len(low) >= 4 and low not in _LY_VERBS):
            continue
        if low not in _NOT_VERBS:
            out[j] = _third_person_verb(word)
        return


# Words that open a clause of another subject: a verb after "and" is no longer the user's.
_OTHER_SUBJECTS = frozenset("he she it they we you that which who there".split())
# Verbs of the first person that follow "and" ("I'm sober and don't drink"); other words after
# "and" are often nouns ("I like cats and dogs"), so they are agreed only after an adverb ("and
# now see Dr. Brooks") or when a verb the reader knows takes an object ("and manage the money").
_SECOND_VERBS = frozenset("am have do don't dont haven't havent aren't go".split())
_OBJECT_OPENERS = frozenset("a an the my his her their our it them this that to in at on with for".split())


def _agree_second(tokens: list[str], out: list[str], words: list[int], start: int) -> None:
    """Put the verb of a second clause of the user's ("... and do not drink") in the third person."""
    adverb = False
    for i in range(start, len(words)):
        j = words[i]
        if tokens[j - 1].strip():  # punctuation between: another clause
            return
        low = tokens[j].lower()
        if low in _ADVERBS or (low.endswith("ly") and len(low) >= 4 and low not in _LY_VERBS):
            adverb = True
            continue
        after = tokens[words[i + 1]].lower() if i + 1 < len(words) else ""
        known = low in VERBS and after in _OBJECT_OPENERS
        if low in _SECOND_VERBS or ((adverb or known) and low not in _NOT_VERBS and "'" not in low):
            out[j] = _third_person_verb(tokens[j])
        return


_FIRST_PERSON_WORD = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b")
_THE_USER = re.compile(r"\buser\b", _I)


def said_by_user(text: str) -> str:
    """A fact said by the user of themself in the memory's voice: "I moved to Lisbon" -> "User
    moved to Lisbon", "Lately my favourite cuisine is Ethiopian" -> "Lately the user's favourite
    cuisine is Ethiopian". Text with no first-person singular word, or naming the user already
    (a third-person fact that quotes someone), is returned as written; so is "we" / "our", which
    is the user with others (the merge reads it as the user's, see ``reverie.extract.claims``)."""
    if not _FIRST_PERSON_WORD.search(text.translate(APOSTROPHES)) or _THE_USER.search(text):
        return text
    said = to_third_person(text)
    if said.startswith("User "):  # as extraction writes it: "User sold their car"
        said = re.sub(r"\bthe user's\b", "their", said)
    ending = text.rstrip()[-1:]
    return said + ending if ending in ".!" and said and not said.endswith(ending) else said


def _third_person_verb(word: str) -> str:
    """Return the third-person singular of a present-tense verb; other forms unchanged."""
    low = word.lower()
    if low in _IRREGULAR:
        conjugated = _IRREGULAR[low]
    elif low in _UNCHANGED or "'" in low or (low.endswith("ed") and low not in _ED_PRESENT):
        return word
    elif _CONSONANT_Y.search(low):
        conjugated = low[:-1] + "ies"
    elif _SIBILANT.search(low):
        conjugated = low + "es"
    else:
        conjugated = low + "s"
    return conjugated.capitalize() if word[:1].isupper() else conjugated


__all__ = ["APOSTROPHES", "said_by_user", "strip_trailing", "to_third_person"]
