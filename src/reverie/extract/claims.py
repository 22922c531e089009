"""What a fact says: who it is about, which attribute, what value, and whether it is negated.

The merge (``reverie.extract.merge``) must tell a paraphrase ("User resides in Lisbon" after
"User lives in Lisbon") from a new value for the same attribute ("User lives in Porto"), from
a contradiction ("User no longer drinks coffee" after "User drinks coffee every morning") and
from a fact about someone or something else in the same shape ("User's cousin Ana lives in
Quito" beside "User's aunt Rosa lives in Quito"). A sentence embedding alone cannot: all of
these lie close together. So a fact is read, by rules and without an LLM, into a
:class:`Claim` and two claims are compared by :func:`compare_claims`.

The reading is shallow on purpose: a subject noun phrase ("user", "user's cousin hugo",
"the user's car"), a predicate (a verb with its particle, or a copula with the kind of its
complement), the value's content words, its numbers and dates, and its polarity (not, never,
no longer, stopped, quit, gave up, anymore, dislikes ...). A fact it cannot read yields a
claim with ``parsed=False``; the caller then falls back to word overlap and meaning, and keeps
both facts when those do not settle it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from reverie.extract.claim_words import (
    ANTONYM,
    ATTRIBUTE_PREDICATES,
    ATTRIBUTE_SHAPES,
    AUX,
    BE_FAMILY,
    CEASE,
    CHANGE,
    COPULA,
    CURRENCIES,
    DETERMINERS,
    ENDS,
    HEDGES,
    HOLDING,
    INTEREST_DETERMINERS,
    IRREGULAR,
    JOB_DETERMINERS,
    JOBS,
    KINDS,
    KNOWN,
    LIGHT_VERBS,
    MARITAL,
    MONTHS,
    NEG_WORDS,
    NEUTRAL_MODIFIERS,
    NOT_GUESSED,
    NOUN_SYNONYMS,
    NUMBER_WORDS,
    OCCUPATIONS,
    OPPOSITE,
    PARTY_WORDS,
    PERIODS,
    PERIODS_OF_YEAR,
    PRE_VERB,
    PREPOSITIONS,
    QUANTITY_UNITS,
    RELATIVES_PLURAL,
    SINGLE,
    SWAP_VERBS,
    SYNONYMS,
    TITLES,
    VERBS,
)
from reverie.text import STOPWORDS, fold, number_words_as_digits

Verdict = Literal["same", "refines", "update", "contradiction", "distinct", "unsure"]

_CONTRACTIONS = [
    (re.compile(r"\bcan't\b"), "can not"),
    (re.compile(r"\bcannot\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bain't\b"), "is not"),
    (re.compile(r"(\w)n't\b"), r"\1 not"),
    (re.compile(r"(\w)'re\b"), r"\1 are"),
    (re.compile(r"(\w)'ve\b"), r"\1 have"),
    (re.compile(r"(\w)'ll\b"), r"\1 will"),
    (re.compile(r"(\w)'d\b"), r"\1 would"),
]
_TOKEN = re.compile(r"[a-z]+(?:-[a-z]+)+(?:'s)?|[a-z0-9]+(?:[.:][0-9]+)*(?:'s)?|'s")


@dataclass(frozen=True)
class Claim:
    """One fact read as subject, predicate, value and polarity; ``parsed`` is False if unread."""

    text: str
    parsed: bool
    subject: tuple[str, ...] = ()
    subject_names: frozenset[str] = frozenset()
    predicate: str = ""
    value: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    negated: bool = False
    ceased: bool = False  # "stopped / quit / gave up": the predicate is open, the value decides
    changed: bool = False  # "now", "changed to", "moved to": announces a new state
    ranked: bool = False  # the value orders its words ("prefers tea to coffee")
    order: tuple[str, ...] = ()  # the value's content words in their order
    words: frozenset[str] = field(default=frozenset())
    fresh: frozenset[str] = frozenset()  # nouns the value calls new ("joined a new gym")

    @property
    def single(self) -> bool:
        """Whether the predicate has one current value per subject."""
        return self.predicate in SINGLE

    @property
    def key(self) -> str | None:
        """A normalized key for a single-valued attribute ("cousin_hugo.live_in"), else None."""
        if not self.parsed or not self.single or self.negated or self.ceased:
            return None
        owner = "_".join(w for w in self.subject if w != "user") or "user"
        return f"{owner}.{self.predicate}"


_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\b\.?|p\.?m\b\.?)")


def _clock(match: re.Match[str]) -> str:
    hour, minutes = int(match.group(1)) % 12, match.group(2) or "00"
    return f"{hour + 12 if match.group(3).startswith('p') else hour:02d}:{minutes}"


def _normalise(text: str) -> str:
    out = fold(text).replace("\u2019", "'")
    for pattern, repl in _CONTRACTIONS:
        out = pattern.sub(repl, out)
    # One spelling per number: "1,100" = "1100", "85k" = "85000", "11 p.m." = "23:00", "twenty" = "20".
    out = re.sub(r"(?<=\d),(?=\d{3}\b)", "", out)
    out = re.sub(r"\b(\d+)k\b", lambda m: m.group(1) + "000", out)
    out = _CLOCK.sub(_clock, out)
    out = re.sub(r"\b(\d):(\d{2})\b", r"0\1:\2", out)
    out = number_words_as_digits(out)
    out = re.sub(r"\bno more\b", "no longer", out)
    out = re.sub(r"\b(?:birth ?date|date of birth)\b", "birthday", out)
    out = re.sub(r"\b(?:birth ?place|place of birth)\b", "birthplace", out)
    out = re.sub(r"\b(?:birth ?year|year of birth)\b", "birthyear", out)
    out = re.sub(r"\b(?:these days|nowadays|at the moment|right now|at present)\b", "now", out)
    out = re.sub(r"\b(?:any ?more|any longer)\b", " anymore", out)
    return out


def _lemma(word: str) -> str:
    if word in IRREGULAR:
        return IRREGULAR[word]
    for suffix, repl in (
        ("ied", "ie"),
        ("ies", "ie"),
        ("ies", "y"),
        ("ied", "y"),
        ("ying", "y"),
        ("ying", "ie"),
    ):
        if word.endswith(suffix) and len(word) > len(suffix) + 1 and word[: -len(suffix)] + repl in VERBS:
            return word[: -len(suffix)] + repl
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            for candidate in (
                stem,
                stem + "e",
                stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem,
            ):
                if candidate in VERBS:
                    return candidate
    return word


def _is_verb(token: str, previous: str | None) -> bool:
    if token in AUX or token in IRREGULAR:
        return token not in ("read",) or previous is not None
    lemma = _lemma(token)
    if token.endswith("ing"):  # "blood pressure reading", "running shoes": a noun until "is running"
        return False
    if lemma == token:  # a base form: a verb only after a plural subject ("parents live")
        return token in VERBS and previous is not None and (previous in RELATIVES_PLURAL or previous == "and")
    return lemma in VERBS


def _guessed_verb(token: str, following: str | None) -> str | None:
    """The base form of a verb not in the list, from its shape: "-s" followed by a preposition.

    "The user's tortoise hibernates in the garage": a third-person verb reads as such only when
    a preposition follows, which a plural noun rarely has ("User's glasses" is followed by a verb).
    """
    if following not in PREPOSITIONS or len(token) < 5 or not token.endswith("s"):
        return None
    if token.endswith(("ss", "us", "is", "'s")) or token in STOPWORDS or token in NOT_GUESSED:
        return None
    if token.endswith("ies"):
        return token[:-3] + "y"
    if token.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return token[:-2]
    return token[:-1]


def _at(tokens: list[str], i: int) -> str | None:
    return tokens[i] if i < len(tokens) else None


def _numeric(token: str) -> bool:
    return bool(re.fullmatch(r"\d[\d.:,]*\w*", token)) or token in NUMBER_WORDS


def _strip(words: list[str], leading: frozenset[str]) -> list[str]:
    """``words`` without the leading ones in ``leading``."""
    i = 0
    while i < len(words) and words[i] in leading:
        i += 1
    return words[i:]


def _is_participle(word: str) -> bool:
    return (word.endswith("ed") or word in IRREGULAR) and _lemma(word) in VERBS | {"get", "go"}


_TITLE_DOT = re.compile(r"\b(Dr|Mr|Mrs|Ms|Prof|St)\.")


def _names(original: str) -> set[str]:
    """Capitalised words past the first that are not 'User' (proper names, brands, places)."""
    found = set()
    first = re.match(r"^([A-Z][\w-]*),", original.strip())  # "Maria, the user's sister, ..."
    if first and fold(first.group(1)) not in STOPWORDS:
        found.add(fold(first.group(1)))
    untitled = _TITLE_DOT.sub(r"\1", original.strip())  # "Dr. Chen": no sentence ends there
    for match in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w-]*)", untitled):
        word = fold(match.group(1))
        if word not in ("user", "i") and word not in STOPWORDS and word not in MONTHS:
            found.add(word.removesuffix("'s"))
    return found


def _content(tokens: list[str]) -> list[str]:
    return [
        _noun(t.removesuffix("'s"))
        for t in tokens
        if t not in STOPWORDS
        and t not in DETERMINERS
        and t not in HEDGES
        and t not in TITLES
        and t != "'s"
        and t not in ("anymore", "longer")
    ]


def _noun(word: str) -> str:
    """One spelling per noun: synonyms folded, plural -s dropped ("tattoos" = "tattoo")."""
    word = NOUN_SYNONYMS.get(word, word)
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) and not word.isdigit():
        word = word[:-1]
    return NOUN_SYNONYMS.get(word, word)


_LEAD_CLAUSE = re.compile(r"^[^,]{1,40},\s*(?:and |but |so )?(?=(?:the )?user\b)")
# A time or place said first ("Every Sunday User calls ...", "On Fridays, User's kids ..."): it
# belongs to the value, so it is moved to the end rather than dropped.
_LEAD_WORDS = (
    r"(?:on|every|each|most|in|during|since|at|after|before|when|while|from|by|this|last|next|"
    r"these|nowadays|usually|often|sometimes)\b"
)
_LEAD_ADVERBIAL = re.compile(
    rf"^({_LEAD_WORDS}[^,]{{0,40}}?),?\s+(?=(?:the )?user\b)(.*)$"
    rf"|^({_LEAD_WORDS}[^,]{{0,40}}),\s+(?=[\w'-]+(?: [\w'-]+)?, (?:the )?user's)(.*)$"
)
_APPOSITIVE = re.compile(r"^([\w'-]+(?: [\w'-]+)?), (?:the )?(user's [\w' -]+?),\s*")
_INVERTED = re.compile(r"^(?!(?:the )?user\b)(.+?) (is|are|was|were) ((?:the )?user's .+)$")


def parse_claim(text: str) -> Claim:
    """Read one fact into a :class:`Claim` (see the module docstring)."""
    norm = _normalise(text).strip().rstrip(".!?;:")
    lead = _LEAD_ADVERBIAL.match(norm)
    if lead:  # "Every night, User's cat sleeps on the bed" -> "User's cat sleeps on the bed every night"
        norm = f"{lead.group(2) or lead.group(4)} {lead.group(1) or lead.group(3)}"
    norm = _APPOSITIVE.sub(lambda m: f"{m.group(2)} {m.group(1)} ", norm)  # "Maria, the user's sister, ..."
    norm = _LEAD_CLAUSE.sub("", norm)  # "Maria left, and User's coach is ..." -> "User's coach is ..."
    inverted = _INVERTED.match(norm)  # "Green is User's favorite color" -> "User's favorite color is green"
    if inverted:
        norm = f"{inverted.group(3)} {inverted.group(2)} {inverted.group(1)}"
    tokens = _TOKEN.findall(norm)
    every = frozenset(_content(tokens))
    names = _names(text)
    unread = Claim(text=text, parsed=False, words=every, numbers=_numbers(tokens), dates=_dates(tokens))
    if not tokens:
        return unread
    # Subject: everything before the first verb, auxiliary or pre-verb adverb.
    start = 1 if tokens[0] == "the" else 0
    end = None
    for i in range(start + 1, min(len(tokens), start + 8)):
        previous = tokens[i - 1] if i - 1 >= start else None
        if tokens[i] in PRE_VERB or _is_verb(tokens[i], previous):
            end = i
            break
        if previous and not previous.endswith("'s") and _guessed_verb(tokens[i], _at(tokens, i + 1)):
            end = i
            break
    if end is None:
        return unread
    subject_tokens = [t.removesuffix("'s") for t in tokens[start:end] if t != "'s"]
    subject = tuple(_noun(t) for t in subject_tokens if t not in DETERMINERS)
    if not subject:
        return unread
    rest = tokens[end:]
    negated = False
    ceased = False
    # Adverbs, negation and auxiliaries before the main verb.
    i = 0
    while i < len(rest) and (rest[i] in PRE_VERB or rest[i] == "longer"):
        if rest[i] in NEG_WORDS:
            negated = True
        i += 1
    predicate, value_tokens, negated2, ceased = _predicate(rest[i:])
    negated = negated or negated2 or "anymore" in rest
    if "used" in rest[i : i + 1] and rest[i + 1 : i + 2] == ["to"]:
        negated = True  # "used to play" = no longer plays
    if not predicate:
        return unread
    changed = any(t in CHANGE for t in rest[: i + 3]) or predicate.startswith(("go_up", "go_down"))
    if value_tokens[:1] == ["no"] and value_tokens[1:2] != ["longer"]:
        negated, value_tokens = True, value_tokens[1:]  # "has no tattoos"
    while value_tokens[:1] and value_tokens[0] in CHANGE:
        changed = True  # "was changed to amlodipine", "was raised to 72,000"
        value_tokens = value_tokens[2:] if value_tokens[1:2] in (["to"], ["into"]) else value_tokens[1:]
    value_words = _content(value_tokens)
    if (
        2 <= len(subject) <= 3
        and subject[0] == "user"
        and subject[-1] in ATTRIBUTE_PREDICATES
        and not set(subject[1:-1]) & (PARTY_WORDS | names)
        and predicate in ATTRIBUTE_SHAPES
    ):
        # "User's birthplace is X", "User's annual salary is X" (a modifier, not another person);
        # "User's work address" is not "User's home address"
        predicate = ATTRIBUTE_PREDICATES[subject[-1]]
        subject = ("user", *(w for w in subject[1:-1] if w not in NEUTRAL_MODIFIERS))
    elif len(subject) >= 3 and subject[-1] in ATTRIBUTE_PREDICATES and predicate in ATTRIBUTE_SHAPES:
        # "User's son's name is Oliver" = "User's son is named Oliver"; "User's sister's job is ..."
        attribute = ATTRIBUTE_PREDICATES[subject[-1]]
        predicate, subject = "be_attr" if attribute == "name" else attribute, subject[:-1]
    elif (
        predicate == "age"
        and len(subject) >= 2
        and not {subject[-1]} & (PARTY_WORDS | names)
        and "year" not in value_words
    ):
        predicate = "be_attr"  # "User's mortgage payment is 1100": a number, not an age
    elif len(subject) >= 2 and predicate == "name" and len(value_words) <= 2:
        predicate = "be_attr"  # "User's boss is named Henrik" = "User's boss is Henrik"
    elif len(subject) >= 2 and predicate in ("be", "be_a", "be_identity"):
        predicate = _attribute_predicate(subject, predicate, value_tokens, names)
    return Claim(
        text=text,
        parsed=True,
        subject=subject,
        subject_names=frozenset(n for n in names if n in subject),
        predicate=predicate,
        value=frozenset(value_words),
        numbers=_numbers(value_tokens) - names,  # "Fitness First" is a name
        dates=_dates(value_tokens),
        negated=negated,
        ceased=ceased,
        changed=changed,
        ranked=any(t in ("to", "over", "than", "instead", "rather") for t in value_tokens),
        order=tuple(value_words),
        words=every,
        fresh=frozenset(
            _noun(w) for i, t in enumerate(value_tokens) if t == "new" for w in value_tokens[i + 1 : i + 3]
        ),
    )


def _predicate(tokens: list[str]) -> tuple[str, list[str], bool, bool]:
    """(predicate, value tokens, negated, ceased) of the words from the verb on."""
    if not tokens:
        return "", [], False, False
    negated = False
    words = list(tokens)
    if words[:3] in (["can", "not", "stand"], ["could", "not", "stand"]):
        return "dislike", words[3:], False, False  # "can't stand cilantro" = dislikes cilantro
    # "does not drink", "has never been", "will no longer": auxiliaries and negation first.
    while len(words) > 1 and (
        words[0] in AUX - COPULA - {"has", "have", "had", "got", "gets"}
        or words[0] in NEG_WORDS
        or words[0] in PRE_VERB
        or words[0] == "longer"
    ):
        if words[0] in NEG_WORDS:
            negated = True
        words = words[1:]
    head = words[0]
    lemma = _lemma(head)
    if len(words) > 1 and (lemma == "become" or (lemma == "get" and words[1].endswith("ed"))):
        return _copula(words[1:], negated)  # "became a midwife", "got married to Alex"
    job = _strip(words[1:], JOB_DETERMINERS)
    if lemma in ("get", "have", "start", "land", "take", "find", "accept") and job[:1] and job[0] in JOBS:
        # "got a new job at Microsoft" = works at Microsoft; "has a job as a nurse" = works as one
        after = job[1:]
        if after[:1] == ["as"]:
            return "work_as", after[1:], negated, False
        return "work_at", after[1:] if after[:1] and after[0] in PREPOSITIONS else after, negated, False
    if lemma == "have" and any(w in ("allergy", "intolerance") for w in words[1:5]):
        at = next(i for i, w in enumerate(words) if w in ("allergy", "intolerance"))
        if at > 1:  # "has a peanut allergy" = is allergic to peanuts
            return "allergic_to", [w for w in words[1:at] if w not in DETERMINERS], negated, False
    # "stopped playing tennis", "quit smoking", "gave up coffee", "no longer plays"
    if lemma in CEASE and len(words) > 1:
        after = words[1:]
        if after and after[0] in ("up", "on", "out", "off", "from"):
            after = after[1:]
        if after and after[0].endswith("ing") and _lemma(after[0]) != after[0]:
            inner, value, _, _ = _predicate(after)
            return inner, value, True, False
        if lemma in ("stop", "quit", "give", "drop", "kick", "abandon", "retire"):
            return "*", after, True, True
    if head in ("has", "have", "had") and len(words) > 1 and words[1] != "been" and _is_participle(words[1]):
        return _predicate(words[1:])  # "has relocated to Santiago" = relocated to Santiago
    if head in COPULA or (head in ("has", "have", "had") and words[1:2] == ["been"]):
        return _copula(words[2:] if words[1:2] == ["been"] else words[1:], negated)
    if lemma == "have" and _strip(words[1:], INTEREST_DETERMINERS)[:2] == ["interest", "in"]:
        # "has an interest in", "has no interest in" = (not) interested in
        after = _strip(words[1:], INTEREST_DETERMINERS)
        return "like", after[2:], negated or "no" in words[1:3], False
    if lemma == "have" and words[1:2] in (["an"], ["a"]) and words[2:3] == ["allergy"]:
        return "allergic_to", words[4:] if words[3:4] in (["to"], ["for"]) else words[3:], negated, False
    if lemma == "use" and words[1:2] == ["to"]:  # "used to play" = no longer plays
        inner, value, _, _ = _predicate(words[2:])
        return inner, value, True, False
    if lemma in ("turn", "turned") and any(t.isdigit() for t in words[1:3]):
        return "age", words[1:], negated, False
    rest = words[1:]
    name = lemma
    if rest[:1] and rest[0] in HEDGES and rest[1:2] and _numeric(rest[1]):
        rest = rest[1:]  # "earns about 85000": a hedge on the number, not a particle
    if rest[:1] and rest[0] in ("in", "on") and rest[1:2] and (_is_year(rest[1]) or rest[1] in MONTHS):
        rest = rest[1:]  # "died in 2019" = "passed away in 2019": a time, not a particle
    if rest and rest[0] in PREPOSITIONS:
        name = f"{lemma}_{rest[0]}"
        rest = rest[1:]
    elif len(rest) > 1 and rest[0] in ("up", "out", "back", "off", "down") and rest[1] in PREPOSITIONS:
        name = f"{lemma}_{rest[0]}_{rest[1]}"
        rest = rest[2:]
    elif rest and rest[0] in ("away", "up", "out", "back", "off", "down", "over"):
        name, rest = f"{lemma}_{rest[0]}", rest[1:]  # "passed away", "gave up", "took over"
    if lemma in ("go", "come") and rest[:1] and rest[0].endswith("ing"):
        name, rest = _lemma(rest[0]), rest[1:]  # "goes running" = runs
    if (
        lemma in ("dislike", "like", "love", "enjoy", "hate", "prefer", "adore")
        and rest[:1]
        and rest[0].endswith("ing")
    ):
        # "likes playing chess" = "likes chess" for the value
        rest = [_lemma(rest[0]), *rest[1:]]
    if name not in SYNONYMS and name != lemma and "_" not in SYNONYMS.get(lemma, "_"):
        name = SYNONYMS[lemma] + name[len(lemma) :]  # "bikes to work" = "cycles to work"
    name = SYNONYMS.get(name, name)
    if lemma not in VERBS and lemma not in ("have", "do", "get") and head not in IRREGULAR:
        guessed = _guessed_verb(head, words[1] if len(words) > 1 else None)
        if guessed is None:
            return "", [], False, False
        name = name.replace(lemma, guessed, 1)
    return name, rest, negated, False
    return name, rest, negated, False


def _copula(after: list[str], negated: bool) -> tuple[str, list[str], bool, bool]:
    words = list(after)
    while words and (words[0] in NEG_WORDS or words[0] in PRE_VERB or words[0] == "longer"):
        if words[0] in NEG_WORDS:
            negated = True
        words = words[1:]
    if not words:
        return "", [], negated, False
    text = " ".join(words).removesuffix(" now")  # "is 13 now"
    if re.match(r"^\d+(?:\s+(?:years?|yrs?)(?:\s+old)?)?$", text) or re.search(
        r"\b\d+\s+years?\s+old\b", text
    ):
        return "age", words, negated, False
    if words[0] in ("born",):
        rest = words[1:]
        prep = rest[0] if rest and rest[0] in ("in", "on", "at") else ""
        if prep == "on" or (rest[1:2] and rest[1] in MONTHS):
            return "be_born_on", rest[1:], negated, False
        if prep == "in" and rest[1:2] and (rest[1].isdigit() or rest[1] in MONTHS):
            return "be_born_on", rest[1:], negated, False
        return "be_born_in", rest[1:] if prep else rest, negated, False
    if words[0] in ("retired", "unemployed", "jobless"):
        return "retire", words[1:], negated, False  # "is retired now" ends "works as an engineer"
    if words == ["employed"]:
        return "work_at", [], negated, False
    if words[0] in MARITAL and words[1:2] != ["to"]:
        return "marry", words, negated, False  # "is single" -> "is married to Alex": one status
    for phrase in ("allergic to", "intolerant to", "intolerant of", "sensitive to"):
        if text.startswith(phrase):
            return "allergic_to", words[len(phrase.split()) :], negated, False
    for phrase, name in (
        ("married to", "marry"),
        ("in a relationship with", "marry"),
        ("engaged to", "marry"),
        ("called", "name"),
        ("named", "name"),
        ("employed at", "work_at"),
        ("employed by", "work_at"),
        ("based in", "live_in"),
        ("living in", "live_in"),
        ("from", "come_from"),
        ("a fan of", "like"),
        ("a big fan of", "like"),
        ("a huge fan of", "like"),
        ("fond of", "like"),
        ("interested in", "like"),
        ("fluent in", "speak"),
        ("employed as", "work_as"),
        ("working at", "work_at"),
        ("a member of", "belong_to"),
        ("promoted to", "work_as"),
        ("passionate about", "like"),
        ("into", "like"),
        ("afraid of", "fear"),
        ("scared of", "fear"),
        ("in grade", "be_in_grade"),
        ("in the", "be_in"),
        ("in", "be_in"),
        ("at", "be_at"),
        ("working as", "work_as"),
        ("studying", "study"),
        ("learning", "learn"),
    ):
        if text == phrase or text.startswith(phrase + " "):
            return name, words[len(phrase.split()) :], negated, False
    if words[0] in ("a", "an") and len(words) >= 2:
        nouns = [w for w in words[1:] if w not in STOPWORDS]
        if "student" in nouns[:3] or "pupil" in nouns[:3]:
            return "attend", words[1:], negated, False  # "is a student at MIT" = attends MIT
        if nouns and nouns[-1] in OCCUPATIONS or any(w in OCCUPATIONS for w in nouns[:3]):
            return "work_as", words[1:], negated, False  # "is a nurse" = works as a nurse
        return "be_a", words[1:], negated, False
    if words[0] == "the":
        return "be_identity", words[1:], negated, False
    if len(words) >= 2 and words[0].endswith("ing") and _lemma(words[0]) in VERBS:
        # progressive: "is learning Spanish" = learns Spanish
        inner, value, neg, ceased = _predicate(words)
        return inner, value, negated or neg, ceased
    return "be", words, negated, False


_ATTRIBUTE_MARKS = frozenset(
    "favorite favourite preferred usual main best current name nickname birthday age job title "
    "role employer manager boss partner wife husband spouse address email number phone team "
    "model brand color colour size".split()
)
_INTENSIFIERS = frozenset("very really quite so too pretty extremely rather super incredibly".split())
_ADJECTIVE_ENDINGS = ("ful", "ous", "ive", "able", "ible", "ic", "ish", "less", "ant", "ent", "al")


def _attribute_predicate(subject: tuple[str, ...], predicate: str, value: list[str], names: set[str]) -> str:
    """ "User's manager is Dana": an attribute with one value; "User's dog is playful": a trait."""
    if predicate in ("be_a", "be_identity") or any(w in _ATTRIBUTE_MARKS for w in subject[1:]):
        return "be_attr"
    content = _content(value)
    if not content or content[0] in _INTENSIFIERS or value[:1] and value[0] in _INTENSIFIERS:
        return predicate
    if any(w in names or w in {_noun(n) for n in names} for w in content) or any(
        re.fullmatch(r"\d+\w*", w) for w in content
    ):
        return "be_attr"
    if len(content) == 1 and content[0].endswith(_ADJECTIVE_ENDINGS):
        return predicate
    return predicate


def _numbers(tokens: list[str]) -> frozenset[str]:
    found = set()
    for i, token in enumerate(tokens):
        if token in MONTHS:
            continue
        if re.fullmatch(r"\d+(?:[.:]\d+)*", token) and not _is_year(token):
            found.add(token)
        elif token in NUMBER_WORDS:
            found.add(token)
        elif re.fullmatch(r"\d+(?:am|pm|k|kg|km|st|nd|rd|th)", token):
            found.add(token)
        _ = i
    return frozenset(found)


def _is_year(token: str) -> bool:
    return len(token) == 4 and token.isdigit() and token[:2] in ("19", "20")


def _dates(tokens: list[str]) -> frozenset[str]:
    tokens = [t[:-1] if t.endswith(("days", "ends")) else t for t in tokens]  # "on tuesdays", "weekends"
    found = {t for t in tokens if _is_year(t) or t in MONTHS or t in PERIODS_OF_YEAR}
    for i, token in enumerate(tokens):  # "2 may", "may 2", "2nd of may": the day makes the date
        if token in MONTHS:
            for near in tokens[max(0, i - 2) : i] + tokens[i + 1 : i + 2]:
                day = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", near)
                if day and 1 <= int(day.group(1)) <= 31:
                    found.add(f"{int(day.group(1))} {token}")
    return frozenset(found)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 1.0 if a == b else 0.0
    return len(a & b) / min(len(a), len(b))


def _plain(words: frozenset[str]) -> frozenset[str]:
    """The value's words without numbers, units and dates (what the value is *of*)."""
    return frozenset(
        w
        for w in words
        if not re.fullmatch(r"\d+\w*", w)
        and w not in NUMBER_WORDS
        and w not in QUANTITY_UNITS
        and w not in MONTHS
    )


def compare_claims(old: Claim, new: Claim) -> Verdict:
    """How ``new`` relates to ``old``: the same, a refinement, an update, a contradiction, distinct.

    ``unsure`` when either fact could not be read: the caller decides by other evidence.
    """
    if not (old.parsed and new.parsed):
        return "unsure"
    if _swaps(old, new):
        return "update"  # "User's laptop is a Dell" -> "User replaced the Dell with a MacBook"
    if _named_alike(old, new) or _named_alike(new, old):
        return "same"  # "User has a dog named Biscuit" = "User's dog is called Biscuit"
    if _owned_alike(old, new) or _owned_alike(new, old):
        return "same"  # "User drives a Volvo" = "User's car is a Volvo"
    if _renewed(old, new):
        return "update"  # "User's gym is Fitness First" -> "User joined a new gym, Anytime Fitness"
    if not _same_subject(old, new):
        return "distinct"
    # "now meets on Thursdays": a recurring time moved (a year would date another event)
    moved = new.changed and old.predicate == new.predicate and not any(map(_is_year, old.dates | new.dates))
    if old.dates and new.dates and old.dates != new.dates and not moved:
        return "distinct"  # the same kind of event at another time: another event
    ceased = old.ceased or new.ceased
    same_verb = _verb(old.predicate) == _verb(new.predicate)
    predicate_match = old.predicate == new.predicate or ceased or (same_verb and (old.negated != new.negated))
    antonyms = ANTONYM.get(old.predicate) == new.predicate
    old_plain, new_plain = _plain(old.value), _plain(new.value)
    if old.predicate in ENDS.get(new.predicate, ()) and (not new_plain or old_plain & new_plain):
        return "update"  # "graduated from law school" ends "studies law"
    if not predicate_match and not antonyms:
        # "User takes sertraline" / "User's sertraline dose": the thing moved into the subject
        moved_words = set(old.subject) ^ set(new.subject)
        if new.changed and not new.negated and not old.negated:
            # "has 8 engineers" -> "has grown to 12 engineers"
            if same_verb or (old_plain & new_plain) or moved_words & (old_plain | new_plain):
                return "update"  # "lives alone" -> "now lives with a roommate"
            if old.predicate in BE_FAMILY and (new.predicate in BE_FAMILY or old.value & new.value):
                return "update"  # "is at 7 pm" -> "moved to 6 pm"; "is Comcast" -> "is now AT&T"
        if old.predicate in BE_FAMILY and new.predicate in BE_FAMILY and not (old.negated or new.negated):
            if any(_opposite(word, new.value) for word in old.value):
                return "contradiction"  # "is religious" -> "is an atheist"
        if old.predicate in KNOWN and new.predicate in KNOWN:
            return "distinct"  # "is from Gothenburg" and "works in Gothenburg": two facts
        if moved_words and old.numbers and old.numbers == new.numbers and not (old.negated or new.negated):
            return "same"  # "User's rent is 1200" = "User pays 1200 in rent": the amount decides
        if _two_doings(old, new):
            return (
                "distinct"  # "collects vinyl records" / "sells vinyl records": meaning is too close to tell
            )
        return "unsure"  # same subject, other words for the predicate: meaning decides
    negated_differs = (old.negated != new.negated) != antonyms
    if negated_differs:
        if ceased and not (old_plain & new_plain) and old.predicate != new.predicate:
            # "quit smoking" (predicate open, no value) against "smokes": the verb is the value
            if _lemma_set(old) & _lemma_set(new):
                return "contradiction"
            return "distinct"
        if not old_plain or not new_plain or _overlap(old_plain, new_plain) >= 0.5:
            return "contradiction"
        negative, positive = (old, new) if old.negated else (new, old)
        if _plain(negative.value) <= {KINDS.get(w) for w in _plain(positive.value)}:
            return "contradiction"  # "has no siblings" -> "has a younger brother"
        return "distinct"
    if ceased and old.predicate != new.predicate:
        return "distinct"
    if old.value == new.value and old.numbers == new.numbers:
        if (old.ranked or new.ranked) and old.order != new.order:
            return "contradiction"  # "prefers tea to coffee" -> "prefers coffee to tea"
        return "same"
    if old_plain == new_plain and old.numbers == new.numbers and old.numbers and _units_agree(old, new):
        return "same"  # "85000 a year" = "85000 dollars": each names another unit of one amount
    if old.dates != new.dates and old.dates and new.dates and not old.single and not moved:
        return "distinct"  # the same kind of event at another time: another event
    if old_plain == new_plain and old.numbers != new.numbers:
        return "update"  # the same thing in another quantity ("two cups" -> "three cups")
    if _requantified(old, new, old_plain, new_plain):
        return "update"  # "sleeps 7 hours" -> "sleeps 5 hours since the baby arrived"
    if new.changed and not old.negated:
        return "update"  # "meets on Thursdays" -> "now meets on Tuesdays"
    if any(_opposite(word, new.value) for word in old.value - new.value):
        return "contradiction"  # "is shy" -> "is outgoing"
    if old.single:
        if new.value and old.value and (new.value > old.value) and new.numbers >= old.numbers:
            return "refines"
        if new.value and new.value < old.value and new.numbers <= old.numbers:
            return "same"
        return "update"
    if new.value > old.value and new.numbers >= old.numbers and old.dates <= new.dates:
        return "refines"  # "has a cat" -> "has a cat named Tofu": the newer says more
    if new.value < old.value and new.numbers <= old.numbers and new.dates <= old.dates:
        return "same"  # the newer says less: nothing new
    return "distinct"


def _two_doings(old: Claim, new: Claim) -> bool:
    """Whether the facts do two different known things to the same object.

    Their sentence vectors lie close ("User grows tomatoes" / "User eats tomatoes"), so meaning
    cannot merge them; two verbs that mean the same are folded by the synonyms first.
    """
    verbs = {_verb(old.predicate), _verb(new.predicate)}
    return (
        len(verbs) == 2
        and verbs <= VERBS - LIGHT_VERBS
        and not (old.changed or new.changed or old.negated or new.negated)
    )


def _requantified(old: Claim, new: Claim, old_plain: frozenset[str], new_plain: frozenset[str]) -> bool:
    """The same predicate and unit with another number, one value adding words to the other."""
    if old.predicate != new.predicate or not old.numbers or not new.numbers or old.numbers & new.numbers:
        return False
    return bool(old.value & new.value & QUANTITY_UNITS) and (old_plain <= new_plain or new_plain <= old_plain)


def _units_agree(old: Claim, new: Claim) -> bool:
    """Whether the words the two values do not share are units that do not conflict.

    "a year" and "dollars" say different things about one amount; "km" and "miles", or "a
    week" and "a month", would be two amounts.
    """
    differ = old.value ^ new.value
    if not differ <= PERIODS | CURRENCIES:
        return False
    return all(len(family & old.value) + len(family & new.value) <= 1 for family in (PERIODS, CURRENCIES))


def _swaps(old: Claim, new: Claim) -> bool:
    """Whether ``new`` swaps out what ``old`` says its subject has ("replaced the Dell with a MacBook").

    The new fact's subject owns the old one's ("User" and "User's laptop", not "User's sister"),
    and its value names the old value, the old subject's attribute ("switched car insurance to
    Admiral") or the old verb as a noun ("banks with Wells Fargo" -> "switched banks to Ally").
    """
    if _verb(new.predicate) not in SWAP_VERBS or new.negated or old.negated:
        return False
    owner, owned = set(new.subject), set(old.subject)
    extra = owned - owner
    if not owner <= owned:
        return False
    if extra and extra <= new.value:
        return True  # "User's dentist is Dr. Patel" -> "User switched dentists to Dr. Kim"
    if extra & PARTY_WORDS or extra & old.subject_names:
        return False
    named = _plain(old.value) & new.value
    return bool(named or (extra and extra <= new.value) or _verb(old.predicate) in new.value)


def _named_alike(has: Claim, named: Claim) -> bool:
    """ "User has a dog named Biscuit" and "User's dog is called Biscuit": the thing moved to the subject."""
    if has.predicate != "have" or named.predicate not in ("be_attr", "name") or has.negated or named.negated:
        return False
    extra = set(named.subject) - set(has.subject)
    if len(extra) != 1 or not set(has.subject) < set(named.subject) or not extra <= has.value:
        return False
    return bool(named.value) and has.value - extra - {"named", "called"} == named.value


def _owned_alike(one: Claim, other: Claim) -> bool:
    """ "User drives a Volvo" and "User's car is a Volvo": what the subject has, said of the thing."""
    moved = _moved_to_subject(one, other)
    return bool(moved and one.predicate in HOLDING and other.value and one.value - moved == other.value)


def _renewed(old: Claim, new: Claim) -> bool:
    """ "User's gym is Fitness First" -> "User joined a new gym, Anytime Fitness": a new one of the thing."""
    return bool(_moved_to_subject(new, old)) and old.subject[-1] in new.fresh


def _moved_to_subject(one: Claim, other: Claim) -> frozenset[str]:
    """The words of ``one``'s value that ``other`` says its subject with ("car" in "User's car is a
    Volvo" against "User drives a Volvo car"), or nothing when the two are not so related."""
    if (
        other.predicate not in ("be_attr", "be_a")
        or one.negated
        or other.negated
        or one.predicate in BE_FAMILY
    ):
        return frozenset()
    extra = frozenset(other.subject) - set(one.subject)
    if not extra or not set(one.subject) < set(other.subject) or extra & other.subject_names:
        return frozenset()
    thing = other.subject[-1]
    if thing in PARTY_WORDS and KINDS.get(thing) != "pet":
        return frozenset()  # "User's sister is a nurse" says nothing of what User has
    return extra if extra <= one.value | {thing} else frozenset()


def _opposite(word: str, others: frozenset[str]) -> bool:
    """Whether ``others`` holds the opposite of ``word`` ("shy"/"outgoing", "productive"/"unproductive")."""
    if OPPOSITE.get(word, frozenset()) & others:
        return True
    return any(
        other == prefix + word or word == prefix + other
        for other in others
        for prefix in ("un", "in", "im", "ir", "il", "dis", "non")
    )


def _verb(predicate: str) -> str:
    return predicate.split("_", 1)[0]


def _lemma_set(claim: Claim) -> set[str]:
    """The fact's words as verbs ("teacher" -> "teach"), with its predicate's verb."""
    found = {claim.predicate, _verb(claim.predicate)}
    for word in claim.words:
        found.add(_lemma(word))
        for suffix in ("er", "or", "r"):
            stem = word[: -len(suffix)]
            if word.endswith(suffix) and (stem in VERBS or stem[:-1] in VERBS and stem[-1:] == stem[-2:-1]):
                found.add(stem if stem in VERBS else stem[:-1])
    return found


_MEASURES = frozenset(
    "dose dosage amount price cost rent fee budget limit size weight height balance total level payment "
    "bill".split()
)


def _same_subject(old: Claim, new: Claim) -> bool:
    if set(old.subject) == set(new.subject):
        return True
    # "User's sister" against "User's sister Maria": the same only if no other name differs.
    a, b = set(old.subject), set(new.subject)
    if (a < b or b < a) and not (old.subject_names and new.subject_names):
        extra = (b - a) | (a - b)
        if extra <= (old.subject_names | new.subject_names):
            return True
        # "User's phone is a Pixel 8" and "User uses a Pixel 8 phone": the thing moved from the
        # subject to the object. Not for people or pets ("User plays tennis with his sister").
        shorter = new if len(b) < len(a) else old
        # "User's sertraline dose was increased" and "User takes sertraline": a measure of it.
        return (
            not (extra & PARTY_WORDS)
            and (extra <= shorter.value or bool(extra - _MEASURES) and extra - _MEASURES <= shorter.value)
            and not (extra & shorter.subject_names)
        )
    return False


_NEGATION = re.compile(r"\b(?:not|never|no longer|anymore|stopped|quit|no)\b")


def _without_negation(text: str) -> frozenset[str]:
    return frozenset(_content(_TOKEN.findall(_NEGATION.sub(" ", text))))


def polarity_flip(old: str, new: str) -> bool:
    """Whether two texts differ by a negation and little else (for facts that cannot be read)."""
    a, b = _normalise(old), _normalise(new)
    if bool(_NEGATION.search(a)) == bool(_NEGATION.search(b)):
        return False
    left, right = _without_negation(a), _without_negation(b)
    return bool(left and right) and len(left & right) / len(left | right) >= 0.6


def content_sequence(text: str) -> tuple[str, ...]:
    """A text's content words in order: equal sequences say the same thing in the same way."""
    return tuple(_content(_TOKEN.findall(_normalise(text))))


def other_party(old: str, new: str) -> bool:
    """Whether the two texts differ in a word naming a person, pet or party (see PARTY_WORDS)."""
    a = {w.removesuffix("'s") for w in _TOKEN.findall(_normalise(old))}
    b = {w.removesuffix("'s") for w in _TOKEN.findall(_normalise(new))}
    return bool((a ^ b) & PARTY_WORDS)


def entities(text: str) -> frozenset[str]:
    """Names and numbers a fact mentions: facts that differ in them are about different things."""
    tokens = _TOKEN.findall(_normalise(text))
    return frozenset(_names(text)) | _numbers(tokens) | _dates(tokens)


__all__ = [
    "PARTY_WORDS",
    "Claim",
    "Verdict",
    "compare_claims",
    "content_sequence",
    "entities",
    "other_party",
    "parse_claim",
    "polarity_flip",
]
