"""A fact said to be over, or changed, in words that share little with the fact it ends.

"User is a heavy gamer" -> "User doesn't play video games anymore"; "User is learning the
piano" -> "User stopped taking piano lessons"; "User has a driving licence" -> "User's driving
licence was revoked". The reader reads both facts but not as one predicate, so
``reverie.extract.merge_verdict`` asks here, and acts only on a close enough cosine as well.

What makes two facts one: the same owner (the user, or one named person; a thing of the owner
may be named in one subject only: "User's driving licence"), nobody else named, nothing said to
be one more ("also"), and a topic they share: a word of the same stem ("gamer" / "games",
"cycling" / "cycles", "piano" / "piano") that names no person and no time. What keeps them two:
another thing denied ("User speaks French" / "User doesn't speak German" share only the verb),
two different doings ("plays squash at the leisure centre" / "no longer swims at the leisure
centre"), two kinds of one thing ("oat milk" / "cow's milk"), a name or number only the new
fact has.
"""

from __future__ import annotations

import re

from reverie.extract.claim_words import DETERMINERS, LIGHT_VERBS, PARTY_WORDS, VERBS
from reverie.extract.claims_compare import other_kinds
from reverie.extract.claims_fallback import entities, other_party, other_thing_moved, says_another
from reverie.extract.claims_text import _TOKEN, Claim, _lemma, _normalise
from reverie.extract.claims_things import modifies, other_doings
from reverie.text import STOPWORDS

# A state said to be over, by a negation or an event that ends it (more than the reader's CEASE).
_OVER = re.compile(
    r"(?<![\w-])(?:not|never|no longer|anymore|no|stopped|quit|gave up|given up|dropped|ditched|"
    r"cancell?ed|deleted|sold|rehomed|revoked|expired|lapsed|laid off|fired|made redundant|"
    r"separated|divorced|split up|broke up|moved out|got rid of|came off|come off|kicked|"
    r"lost (?:all |any )?interest|retired|closed|shut down|abandoned|left|unemployed|sober|died|"
    r"passed away|put down)(?![\w-])"
)
_TIMES = frozenset(
    "year month week day time today now morning afternoon evening night weekend weekday every daily "
    "weekly monthly once twice always often ago since last next hour minute".split()
)
_NOT_DOINGS = LIGHT_VERBS | {"be", "like", "dislike", "want", "need", "stop", "quit", "give"}


def _stem(word: str) -> str:
    """A rough stem: "gamer" / "games" -> "game", "cycling" / "cycles" -> "cycl"."""
    for suffix in ("ings", "ing", "ers", "er", "ists", "ist", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word.removesuffix("e")[:5]


def _stems(claim: Claim, text: str, both: set[str]) -> dict[str, str]:
    """The words of ``text`` (the fact, or a clause of it) outside the subject the two facts
    share (``both``), times, light verbs and words of ending, by stem, each with its verb lemma
    (``_lemma``); a word with a negative prefix by its stem too ("unemployed" -> "emplo")."""
    found: dict[str, str] = {}
    for word in _TOKEN.findall(text):
        lemma = _lemma(word)
        if (
            word in STOPWORDS
            or word in DETERMINERS
            or word.removesuffix("'s") in both
            or word == "user"
            or word in _TIMES
            or word.removesuffix("s") in _TIMES
            or word[:1].isdigit()
            or lemma in _NOT_DOINGS
        ):
            continue
        over = bool(_OVER.fullmatch(word)) or word in _OVER_WORDS
        if not over:
            found.setdefault(_stem(word), lemma)
        for prefix in ("un", "non-", "non", "dis", "in"):
            if word.startswith(prefix) and len(word) - len(prefix) >= 5:
                found.setdefault(_stem(word[len(prefix) :]), lemma)
        for topic in _ENDS_TOPICS.get(word, ()):
            found.setdefault(topic, "")
    return found


# States that end a topic without naming it: "has been sober for six months" ends drinking.
_ENDS_TOPICS = {
    "sober": ("drink", "alcoh"),
    "teetotal": ("drink", "alcoh"),
    "unemployed": ("emplo", "job", "work"),
    "retired": ("emplo", "job", "work"),
    "divorced": ("marri", "wife", "husba", "partn", "spous"),
    "separated": ("marri", "wife", "husba", "partn", "spous"),
}


def _over_clause(text: str) -> str:
    """The clause of ``text`` that says something is over ("doesn't drive" in "doesn't drive;
    they take the bus"), or the whole text."""
    for clause in re.split(r"[;,:]| and | but | so ", text):
        if _OVER.search(clause):
            return clause
    return text


def _verbs(claim: Claim) -> set[str]:
    return {_lemma(w) for w in _TOKEN.findall(_normalise(claim.text))} & VERBS


def _same_owner(old: Claim, new: Claim) -> bool:
    """One owner: the same subject, or one holding the other with a thing added ("User" /
    "User's driving licence"), no person, pet or name added."""
    if old.subject == new.subject:
        return True
    short, longer = sorted((old, new), key=lambda claim: len(claim.subject))
    if not short.subject or not set(short.subject) < set(longer.subject):
        return False
    added = set(longer.subject) - set(short.subject)
    if added <= short.value | short.subject_names:
        return True  # "User's parrot Rio lives with the user" / "User rehomed Rio the parrot"
    return not added & (PARTY_WORDS | longer.subject_names | short.subject_names)


def said_over(old: Claim, new: Claim) -> bool:
    """Whether ``new`` says the state ``old`` states is over, in other words (module docstring)."""
    if not (old.parsed and new.parsed) or old.negated:
        return False
    old_text, new_text = _normalise(old.text), _normalise(new.text)
    if not (new.negated or new.ceased or _OVER.search(new_text)) or _OVER.search(old_text):
        return False
    if not _same_owner(old, new) or other_party(old.text, new.text) or says_another(new.text):
        return False
    if other_kinds(old, new) or other_doings(old, new):
        return False
    if _new_entity(new_text, entities(new.text) - entities(old.text) - new.dates):
        return False  # a name or number the old fact does not have: "... after LASIK"
    both = set(old.subject) & set(new.subject)
    before = {**_stems(old, old_text, both), **_stems(old, old.text.lower(), both)}
    after = _stems(new, new_text, both)
    shared = before.keys() & after.keys()
    things = {stem for stem in shared if after[stem] not in VERBS or before[stem] not in VERBS}
    if not shared:
        return False
    doings = _verbs(old) - _NOT_DOINGS, _verbs(new) - _NOT_DOINGS
    if all(doings) and not doings[0] & doings[1]:
        return False  # "plays squash" / "no longer swims" at the same place: two doings
    # what else the new fact denies: nothing, or only what the old one says ("speaks French" /
    # "doesn't speak German" share only the verb, and German is denied)
    said = _stems(new, _over_clause(new_text), both)
    denied = {stem for stem in set(said) - shared if said[stem] and said[stem] not in VERBS}
    return bool(things) or not denied


def _new_entity(new_text: str, added: frozenset[str]) -> bool:
    """Whether a name or number of ``added`` is more than a length of time ("for six months")."""
    for entity in added:
        if re.search(rf"\b{re.escape(entity)} (?:\w+ )?(?:years?|months?|weeks?|days?)\b", new_text):
            continue
        return True
    return False


_OVER_WORDS = frozenset("anymore longer sober unemployed retired habit".split())


# Words announcing a new value of the thing named: more than the reader's CHANGE ("extended to",
# "has become", "was reassigned to").
_NOW = re.compile(
    r"\b(?:now|reached|became|become|becomes|extended|postponed|delayed|brought forward|"
    r"pushed back|reassigned|transferred|turned(?: [\w'-]+){0,3} (?:up|down)|moved on|set a new|"
    r"(?:raised|increased|decreased|lowered|reduced|cut|changed|switched|upgraded|moved|"
    r"rescheduled|promoted|bumped|dropped|rose|fell|grew|went (?:up|down))(?: [\w'-]+){0,3} to)\b"
)
_PAST = re.compile(r"\b(?:old|former|previous|ex|used to)\b")


def value_replaced(old: Claim, new: Claim) -> bool:
    """Whether ``new`` gives the thing ``old`` is about a new value, in other words.

    "User's thesis deadline is 30 April" -> "... was extended to 31 May"; "User's frequent flyer
    status is Silver" -> "User reached Gold status with the airline"; "User's favourite board
    game is Catan" -> "Wingspan has become User's favourite board game". The old fact is said of a
    thing of its owner (no person, pet or name), the new one names that thing, not as a kind of
    another ("car" in "car insurance"), announces a change, and replaces a name, number or date
    of the old fact by one of its own; nobody else is named, neither is negated or said of an
    old thing, and nothing is one more. The merge asks for a close enough cosine as well.
    """
    if not old.parsed or old.negated or new.negated or len(old.subject) < 2 or says_another(new.text):
        return False
    thing = old.subject[-1]
    if thing in PARTY_WORDS or thing in old.subject_names or old.subject[0] != "user":
        return False
    old_text, new_text = _normalise(old.text), _normalise(new.text)
    if not _NOW.search(new_text) or _NOW.search(old_text) or _PAST.search(old_text + " " + new_text):
        return False
    if other_party(old.text, new.text) or modifies({thing}, new) or other_thing_moved(old_text, new_text):
        return False
    if _stem(thing) not in {_stem(w) for w in _TOKEN.findall(new_text)}:
        return False
    before, after = entities(old.text), entities(new.text)
    first = re.match(r"^([A-Z][\w-]*)\b", new.text.strip())  # "Wingspan has become ...": a name first
    if first and first.group(1).lower() not in STOPWORDS | {"user", "i", "my"}:
        after = after | {first.group(1).lower()}
    return bool(before - after) and bool(after - before)


__all__ = ["said_over", "value_replaced"]
