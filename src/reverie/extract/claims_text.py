"""Reading the words of a fact: normal spelling, tokens, verb lemmas, nouns, names, numbers, dates.

The token-level half of reading a fact (``reverie.extract.claims`` reads the sentence with
it, ``reverie.extract.claims_compare`` compares two readings), and the :class:`Claim` both share.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from reverie.extract.claim_words import (
    AUX,
    COMMON_ACRONYMS,
    DETERMINERS,
    HEDGES,
    IRREGULAR,
    MONTHS,
    NEG_WORDS,
    NOT_GUESSED,
    NOUN_SYNONYMS,
    NUMBER_WORDS,
    PERIODS_OF_YEAR,
    PRE_VERB,
    PREPOSITIONS,
    RELATIVES_PLURAL,
    SINGLE,
    TIMES_OF_DAY,
    TITLES,
    VERBS,
)
from reverie.text import STOPWORDS, fold, number_words_as_digits

Verdict = Literal["same", "refines", "update", "contradiction", "distinct", "unsure"]

_CONTRACTIONS = [
    (re.compile(r"\bi'm\b"), "i am"),
    (re.compile(r"\b(he|she|it|that|there)'s\b"), r"\1 is"),
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
    past: bool = False  # the verb is in the simple past ("studied law at Leeds"): an episode
    ranked: bool = False  # the value orders its words ("prefers tea to coffee")
    order: tuple[str, ...] = ()  # the value's content words in their order
    words: frozenset[str] = field(default=frozenset())
    fresh: frozenset[str] = frozenset()  # nouns the value calls new ("joined a new gym")
    dropped: frozenset[str] = frozenset()  # what it says was given up ("cancelled X and ...", "from X to Y")

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


_ORDINALS = {
    word: f"{number}{'st' if number == 1 else 'nd' if number == 2 else 'rd' if number == 3 else 'th'}"
    for number, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), 1
    )
}


def _half_past(match: re.Match[str]) -> str:
    return f"{int(match.group(1)):02d}:30"


def _ordinal(match: re.Match[str]) -> str:
    return _ORDINALS[match.group(1)]


def _thousands(match: re.Match[str]) -> str:
    return match.group(1) + "000"


_R = re.compile
# Rewrites in order: one spelling per number ("1,100" = "1100", "85k" = "85000", "11 p.m." =
# "23:00", "6 in the morning" = "06:00"), per attribute, per time of week ("during the week" is
# "on weekdays", a time that sets a fact apart), per kind of person ("an early riser" is "a
# morning person", the opposite of "a night owl"), per way of getting somewhere and of going to
# bed; and "Radiohead is the band User loves most" says "User loves Radiohead most".
_WHEN = (
    "(?:usually|normally|generally|typically|occasionally|rarely|frequently|regularly|mostly|mainly|"
    "daily|weekly|monthly|yearly|nightly|hourly|early|only|hardly|barely|scarcely|"
    "lately|recently|currently|formerly|previously|originally|newly)"
)
_USER_SAYS = r"(?=(?:the )?user\b(?!'))"  # the user the subject, not an owner of it
_USER_OWNS = r"(?=(?:the )?user\b(?!'s [\w' -]+,))"  # not an apposition: "Kelly, the user's friend, ..."
_MONTH = {
    month[:3]: month
    for month in "january february march april june july august september october november december".split()
} | {"sept": "september"}
_SHORT_MONTHS = "|".join(sorted(_MONTH, key=len, reverse=True))
_REWRITES: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (_R(r"(?<=\d),(?=\d{3}\b)"), ""),
    (_R(r"\b(\d+)k\b"), _thousands),
    (_R(r"\b(\d{1,2}) (?:o'clock )?in the morning\b"), r"\1 am"),
    (_R(r"\b(\d{1,2}) (?:o'clock )?(?:in the (?:afternoon|evening)|at night)\b"), r"\1 pm"),
    (_CLOCK, _clock),
    (_R(r"\b(\d):(\d{2})\b"), r"0\1:\2"),
    # a month shortened beside its day is the month: "Aug 20" is "20 August"
    (_R(rf"\b(\d{{1,2}}(?:st|nd|rd|th)? )({_SHORT_MONTHS})\b\.?"), lambda m: m.group(1) + _MONTH[m.group(2)]),
    (_R(rf"\b({_SHORT_MONTHS})\b\.? (?=\d{{1,2}}(?:st|nd|rd|th)?\b)"), lambda m: _MONTH[m.group(1)] + " "),
    # ordinals in words as in digits: "the third floor" is "the 3rd floor"
    (_R(rf"\b({'|'.join(_ORDINALS)})\b(?= (?:floor|grade|year|child|son|daughter))"), _ordinal),
]
_WORDINGS: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # a comment on the fact before it says nothing of it: "Honestly the user prefers tea", "Sadly, the
    # user's ..."; how often, when and names stay ("Usually ...", "Holly the user's cat ...", "Kelly,
    # the user's friend, ...")
    (_R(rf"^(?!{_WHEN}\b)[a-z]{{3,}}ly(?: enough)?(?: {_USER_SAYS}|, {_USER_OWNS})"), ""),
    # a fact said in the first person is a fact about the user ("I'm a big fan of opera")
    (_R(r"\bi am\b"), "user is"),
    (_R(r"\bmy\b"), "user's"),
    (_R(r"\b(?:i|me|myself)\b(?!\.)"), "user"),
    # "we" and "our" are the user with others (a household, a couple): what they have or do, the
    # user has or does ("Our cat Mochi" is the user's cat, "We moved to Rotterdam" moves the user)
    (_R(r"^we are\b"), "user is"),
    (_R(r"^we\b"), "user"),
    (_R(r"\bour\b"), "user's"),
    # a correction says what is true now: "Sven isn't Norwegian, he's Danish" = "Sven is now Danish"
    (_R(r"^(?:actually|in fact),? "), ""),
    (
        _R(r"\b(is|are|was|were) not (?:[^,]+?)(?: at all)?, (?:he|she|they|it|that) (?:is|are|was|were) "),
        r"\1 now ",
    ),
    # quantities in one unit: "three quarters of an hour" = "45 minutes", "1.82 m" = "182 cm"
    (_R(r"\b3 quarters of an hour\b"), "45 minutes"),
    (_R(r"\b(?:a |1 )?quarter of an hour\b"), "15 minutes"),
    (_R(r"\b(?:half an hour|a half hour|half hour)\b"), "30 minutes"),
    (_R(r"\b(?:an|1) hour and a half\b"), "90 minutes"),
    (_R(r"\b(\d)\.(\d\d) ?(?:m|metres|meters)\b"), r"\1\2 cm"),
    (_R(r"\b(\d)\.(\d) ?(?:m|metres|meters)\b"), r"\1\g<2>0 cm"),
    (_R(r"^(.+?) (?:is|are|stands) (\d+ cm) tall\b"), r"\1's height is \2"),
    # "It takes the user 45 minutes to get to work" = "User's commute takes 45 minutes"
    (
        _R(r"^it takes ((?:the )?user) (.+?) to (?:get|go|travel|commute) to (?:work|the office)\b"),
        r"\1's commute takes \2",
    ),
    # "is a parent of two kids" = "has two children"; "is an only child" = "has no siblings"
    (_R(r"\b(?:is|are) (?:a |the )?(?:parent|mother|father|mum|mom|dad)s? (?:of|to) "), "has "),
    (_R(r"\bhas (\d+) boys\b"), r"has \1 sons"),
    (_R(r"\bhas (\d+) girls\b"), r"has \1 daughters"),
    (_R(r"\b(?:is|are) not an only child\b"), "has siblings"),
    (_R(r"\b(?:is|are) an only child\b"), "has no siblings"),
    # who provides a service: "banks with Nubank" = "User's bank is Nubank" = "Nubank holds the
    # user's bank account"; "gets broadband from Vodafone" = "User's internet provider is Vodafone"
    (_R(r"\b(?:family doctor|general practitioner|family physician)\b"), "gp"),
    (_R(r"\b(?:broadband|wi-?fi|internet service)\b"), "internet"),
    (
        _R(
            r"\b(internet|phone|mobile|energy|electricity|gas|water|bank|mortgage|insurance|pension) "
            r"(?:provider|company|supplier|carrier|account|lender)\b"
        ),
        r"\1",
    ),
    (_R(r"^((?:the )?user) banks with "), r"\1's bank is "),
    (_R(r"^((?:the )?user)'s ([\w-]+(?: [\w-]+)?) (?:is|are) with "), r"\1's \2 is "),
    (
        _R(
            r"^((?:the )?user) gets (?:(?:its|their|his|her) )?"
            r"(internet|bank|mortgage|insurance|energy|electricity|gas|phone|mobile) (?:from|through|with) "
        ),
        r"\1's \2 is ",
    ),
    (
        _R(r"^(.+?) (?:holds|provides|supplies|insures) ((?:the )?user)'s ([\w-]+(?: [\w-]+)?)(\.?)$"),
        r"\2's \3 is \1\4",
    ),
    (_R(r"\bwork ?days\b"), "weekdays"),
    (_R(r"\b(?:brothers or sisters|brothers and sisters)\b"), "siblings"),
    (_R(r"\b(is|are) expecting\b"), r"\1 pregnant with"),
    # "can eat eggs without any reaction" = "is not allergic to eggs"
    (
        _R(r"\bcan (?:eat|drink|have|tolerate) (.+?) without (?:any |a )?(?:reaction|problem|issue)s?\b"),
        r"is not allergic to \1",
    ),
    # "User renewed their passport, and it now expires in 2035" = "User's passport now expires in 2035"
    (
        _R(
            r"^((?:the )?user) (?:renewed|replaced|changed|extended) "
            r"(?:their|his|her|the) ([\w-]+(?: [\w-]+)?),? and it "
        ),
        r"\1's \2 ",
    ),
    # a school year started is the year one is in now: "has started year 5" = "is now in year 5"
    (
        _R(
            r"\b(?:has |have )?(?:started|moved up to|gone into|went into|entered) "
            r"((?:year|grade|form|class) \d+|\d+(?:st|nd|rd|th) grade)\b"
        ),
        r"is now in \1",
    ),
    # "User's wedding anniversary is on 17 September" = "User got married on 17 September"
    (_R(r"^((?:the )?user)'s wedding anniversary (?:is|was) (now )?(?:on |in )?"), r"\1 \2got married on "),
    # who one lives with: "shares a flat with two roommates" = "lives with two roommates"
    (
        _R(
            r"\bshar(es|e|ed|ing) (?:a |an |the |their |his |her )?(?:flat|house|home|apartment|place) with\b"
        ),
        r"lives with",
    ),
    # "User got a raise; salary is 62k now" = "User's salary is 62k now"
    (
        _R(r"^((?:the )?user) [^;,]+[;,] (?:and )?(?:their |his |her |the )?([a-z]+) (is|are) (?=\S*\d)"),
        r"\1's \2 \3 ",
    ),
    (_R(r"\bon (\d+) occasions\b"), r"\1 times"),
    (_R(r"\bhalf past (\d{1,2})\b"), _half_past),
    (_R(r"\b(is|are) up at (?=\d)"), "wakes up at "),
    (_R(r"\b(?:is|are) an? ([\w-]+) student (at|in)\b"), r"studies \1 \2"),  # "a law student at Leiden"
    # what a test showed, and a cause, add nothing to the fact
    (_R(r"^(?:tests?|results?|a test|the tests) (?:showed|show|confirmed|revealed) (?:that )?"), ""),
    (_R(r",? (?:because of|because|due to) .*$"), ""),
    (_R(r",? after all\b"), ""),
    # "There's no dishwasher in the user's flat" = "User's flat has no dishwasher"
    (_R(r"^there (?:is|are) no (.+?) (?:in|at|on) ((?:the )?user's [\w-]+)"), r"\2 has no \1"),
    # "User lost their dad in 2015" = "User's father died in 2015" (a person or pet, not a thing)
    (
        _R(
            r"^((?:the )?user) lost (?:their|his|her) (mother|father|dad|mum|mom|wife|husband|partner|"
            r"brother|sister|son|daughter|grandmother|grandfather|grandma|grandpa|dog|cat)\b"
        ),
        r"\1's \2 died",
    ),
    # "User's flat is on the 3rd floor" = "User lives on the 3rd floor"
    (_R(r"^((?:the )?user)'s (?:flat|apartment|house|home|place) (?:is|are) (on|in) "), r"\1 lives \2 "),
    (_R(r"\b(?:remotely|from home)\b"), "from home"),
    # "tends to stay up late" = "is a night person"; "is teetotal" = "does not drink alcohol"
    (_R(r"\b(?:tends? to |likes? to )?stays? up late\b"), "is a night person"),
    (_R(r"\b(?:is|are) (?:a )?(?:teetotal|teetotaller|teetotaler|non-drinker)\b"), "does not drink alcohol"),
    (_R(r"\bgo-to\b"), "favorite"),
    # reported speech is the fact: "Amara says she wants to be a vet" = "Amara wants to be a vet"
    (_R(r"\b(?:says|said|thinks|claims) (?:that )?(?:he|she|they) (?=\w)"), ""),
    # "X raised the user's dose to 100 mg" = "User's dose was raised to 100 mg": the agent does not matter
    (
        _R(
            r"^(?:(?:the )?user(?:'s [\w-]+)?) (raised|increased|lowered|reduced|cut|upped|doubled|halved|"
            r"adjusted|changed) (?!(?:down|back|up|off)\b)"
            r"(?:the |their |his |her |(?:the )?user's )?(.+?) to ([$\u20ac\u00a3]?\d.*)$"
        ),
        r"user's \2 was \1 to \3",
    ),
    # a reason, then the state: "User started eating fish again, so is pescatarian now"
    (_R(r"^((?:the )?user) [^,]+?,? so (?:he |she |they )?(is|are|has|have) "), r"\1 \2 "),
    (_R(r"\bno more\b"), "no longer"),
    (_R(r"\b(?:is|are|was|were) (?:unable|not able) to\b"), "can not"),  # "is unable to drive"
    (_R(r"\b(?:is|are|was|were) able to\b"), "can"),
    (_R(r"\bout of work\b"), "unemployed"),
    (_R(r"\b(?:a lot of|lots of|plenty of|loads of|a great deal of)\b"), "much"),
    (_R(r"\b(?:birth ?date|date of birth)\b"), "birthday"),
    (_R(r"\b(?:birth ?place|place of birth)\b"), "birthplace"),
    (_R(r"\b(?:birth ?year|year of birth)\b"), "birthyear"),
    (_R(r"\b(?:these days|nowadays|at the moment|right now|at present|lately|of late)\b"), "now"),
    # "User says X is their favourite book" = "User's favourite book is X"
    (
        _R(
            r"^(now,? )?((?:the )?user) (?:says|said|thinks|feels|considers) (?:that )?(.+?) (?:is|are) "
            r"(?:their|his|her) (.+?)(\.?)$"
        ),
        r"\1\2's \4 is \3\5",
    ),
    (_R(r"\b(?:during|in) the (?:working |work )?week\b"), "on weekdays"),
    (_R(r"\b(?:at|on|over) the weekends?\b"), "at weekends"),
    (_R(r"\bearly (?:riser|bird)\b"), "morning person"),
    (_R(r"\b(?:night owl|late riser)\b"), "night person"),
    (_R(r"\bclose by\b|\bnear by\b"), "nearby"),
    (_R(r"\btak(es|e|ing|en) the (train|bus|tube|subway|metro|ferry|tram)\b"), r"commut\1 by \2"),
    (_R(r"\brid(es|e|ing) (?:a|an|her|his|their|my) (?:bike|bicycle)\b"), r"cycl\1"),
    (_R(r"\bturns in\b"), "goes to bed"),
    (_R(r"\bturning in\b"), "going to bed"),
    (_R(r"\bturned in\b"), "went to bed"),
    (_R(r"^(.+?) (?:is|are) the \w+ (?:that )?((?:the )?user) (\w+) (most|best)\b"), r"\2 \3 \1 \4"),
    (_R(r"\b(?:any ?more|any longer)\b"), " anymore"),
    # one word for the same thing across British and American English and common synonyms
    (_R(r"\bapartments?\b"), "flat"),
    (_R(r"\bkids\b"), "children"),
    (_R(r"\bkid\b"), "child"),
    (_R(r"\b(?:mom|mum|mother) and (?:dad|father)\b"), "parents"),
    (_R(r"\bsailing boat\b"), "sailboat"),
    (_R(r"\bcilantro\b"), "coriander"),
    (_R(r"\bsoccer\b"), "football"),
    (_R(r"\bdriver'?s licen[cs]e\b|\bdriving licen[cs]e\b"), "driving licence"),
    (_R(r"'s boy\b"), "'s son"),
    (_R(r"\b(?:resid|reside)(es|e|ed|ing)? in\b"), "lives in"),
    (_R(r"\bis based in\b"), "lives in"),
    (_R(r"\b(?:are) based in\b"), "live in"),
    (_R(r"\bget(s|ting)? up\b"), r"wake\1 up"),
    (_R(r"\bgot up\b"), "woke up"),
    (_R(r"\bnap(s|ped|ping)?\b"), r"sleep\1"),
    # "does not have a balcony" is "has no balcony"
    (_R(r"\b(?:does|do) not have (?:a |an |any )?"), "has no "),
    # what the user's home has, the user has ("User's flat has no garden" = "User has no garden")
    (_R(r"^((?:the )?user)'s (?:flat|apartment|house|home) (has|have|had) "), r"\1 \2 "),
    # the way to work: "cycles to work" = "commutes by bike"; "works remotely" = "works from home"
    (_R(r"\b(?:cycl|bik)(es|e|ed|ing) to (?:work|the office)\b"), r"commut\1 by bike"),
    (_R(r"\bdriv(es|e|ing) to (?:work|the office)\b"), r"commut\1 by car"),
    (_R(r"\bdrove to (?:work|the office)\b"), "commuted by car"),
    (_R(r"\bwalk(s|ed|ing)? to (?:work|the office)\b"), r"commute\1 on foot"),
]


# "one" standing for a thing named before ("doesn't have one now", "bought a new one"), not a number
_PRONOUN_ONE = _R(
    r"\b(?<!-)one\b(?=\s*(?:[.,;:!?)]|$|now\b|anymore\b|any more\b|any longer\b|either\b|again\b|"
    r"yet\b|too\b|at all\b|since\b|like it\b|instead\b))"
)


@functools.lru_cache(maxsize=8192)
def _normalise(text: str) -> str:
    """The text in one spelling (see ``_REWRITES``); read again and again for the same facts, so cached."""
    out = fold(text).replace("\u2019", "'")
    for pattern, repl in _CONTRACTIONS:
        out = pattern.sub(repl, out)
    out = _PRONOUN_ONE.sub("it", out)  # "sold the car and has no one now": not a number
    out = number_words_as_digits(out)  # first: "six in the morning" is "6 in the morning", then "06:00"
    for number, spelled in _REWRITES:
        out = number.sub(spelled, out)
    for wording, reworded in _WORDINGS:
        out = wording.sub(reworded, out)
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


def _placed_verb(token: str) -> str | None:
    """A verb the list does not have, read from its place and shape: the word right after a bare
    subject ("User remortgaged at 4.6%", "User swallows a tablet") is its verb when it is inflected
    as one (-s, -ed). The base form is a stem, the same for every form ("purchased" / "purchases")."""
    if len(token) < 4 or not token.isalpha() or token in STOPWORDS or token in NOT_GUESSED:
        return None
    if token.endswith(("ss", "us", "is")) or not token.endswith(("s", "ed")):
        return None
    if token.endswith("ied") or token.endswith("ies"):
        return token[:-3] + "y"
    return token.removesuffix("ed").removesuffix("es").removesuffix("s").removesuffix("e")


MODALS = frozenset("can could will would should may might must shall".split())


def _verb_at(tokens: list[str], i: int, start: int) -> bool:
    """Whether ``tokens[i]``, a word the verb list lacks, is the verb that ends the subject: a
    third-person form before a preposition ("User's tortoise hibernates in ..."), or an inflected
    word right after a bare subject ("User remortgaged ..."; not after "User's", where a noun comes)."""
    previous = tokens[i - 1] if i - 1 >= start else None
    if previous is None or previous.endswith("'s"):
        return False
    if _guessed_verb(tokens[i], _at(tokens, i + 1)):
        return True
    return previous == "user" and i == start + 1 and _placed_verb(tokens[i]) is not None


def _do_done(words: list[str]) -> bool:
    """Whether "do / does / did" is the verb itself ("User does CrossFit", "did a master's"), not an
    auxiliary before another ("does not eat", "did move")."""
    if words[0] not in ("do", "does", "did") or len(words) < 2:
        return False
    after = words[1]
    return after not in NEG_WORDS and after not in PRE_VERB and _lemma(after) not in VERBS


def _is_verb(token: str, previous: str | None) -> bool:
    if token in AUX or token in IRREGULAR:
        return token not in ("read",) or previous is not None
    lemma = _lemma(token)
    if token.endswith("ing"):  # "blood pressure reading", "running shoes": a noun until "is running"
        return False
    if lemma == token:  # a base form: a verb only after a plural subject ("parents live")
        # "parents live", "I live" (read "user live")
        return token in VERBS and (previous in RELATIVES_PLURAL or previous in ("and", "user"))
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
        if (
            word not in ("user", "i")
            and word not in STOPWORDS
            and word.removesuffix("s") not in MONTHS
            and word.removesuffix("s") not in COMMON_ACRONYMS
        ):
            found.add(word.removesuffix("'s"))
    return found


def _content(tokens: list[str], keep: frozenset[str] = frozenset()) -> list[str]:
    """The content words of ``tokens`` (``keep``: determiners that count here)."""
    return [
        _noun(t.removesuffix("'s"))
        for t in tokens
        if t not in STOPWORDS
        and (t not in DETERMINERS or t in keep)
        and t not in HEDGES
        and t not in TITLES
        and t != "'s"
        and t not in ("anymore", "longer")
    ]


def _noun(word: str) -> str:
    """One spelling per noun: synonyms folded, plural -s dropped ("tattoos" = "tattoo"), an activity
    named by its verb ("while commuting" = "on the commute")."""
    word = NOUN_SYNONYMS.get(word, word)
    if word.endswith("ing") and _lemma(word) != word:
        return _lemma(word)
    if len(word) > 6 and word.endswith("oes"):
        return NOUN_SYNONYMS.get(word[:-2], word[:-2])  # "mangoes", "potatoes"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) and not word.isdigit():
        word = word[:-1]
    return NOUN_SYNONYMS.get(word, word)


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
    # "in the mornings", "every evening"; not "the night shift", where the time names a kind of thing
    for i, token in enumerate(tokens):
        before, after = tokens[i - 1] if i else "", tokens[i + 1] if i + 1 < len(tokens) else ""
        part = token.removesuffix("s")
        timely = before in ("the", "every", "each", "in", "at") or token != part
        if part in TIMES_OF_DAY and timely and (after == "" or after in STOPWORDS):
            found.add(part)
    for i, token in enumerate(tokens):  # "2 may", "may 2", "2nd of may": the day makes the date
        if token in MONTHS:
            for near in tokens[max(0, i - 2) : i] + tokens[i + 1 : i + 2]:
                day = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", near)
                if day and 1 <= int(day.group(1)) <= 31:
                    found.add(f"{int(day.group(1))} {token}")
    return frozenset(found)
