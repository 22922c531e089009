"""What two facts do and which thing they name: a walk is no run, a kitchen table is no kitchen.

Helpers of ``reverie.extract.claims_compare`` and ``reverie.extract.merge_verdict``: the doing a
fact tells of, said by its verb or named by its subject ("User's daily walk"), and whether a
word of a fact only says what kind of thing another word is ("kitchen" in "a new kitchen table").
"""

from __future__ import annotations

import re

from reverie.extract.claim_opposites import OPPOSITE
from reverie.extract.claim_words import LIGHT_VERBS, SYNONYMS, VERBS
from reverie.extract.claims_text import Claim, _lemma, _names, _normalise, _noun
from reverie.text import STOPWORDS


def _verb(predicate: str) -> str:
    return predicate.split("_", 1)[0]


_NOT_DOINGS = LIGHT_VERBS | {"be", "like", "dislike", "want", "need", "feel", "know", "become"}


def _doings(claim: Claim) -> frozenset[str]:
    """What the fact says its owner does: its verb, and an activity its subject names ("User's
    daily walk is 5 km" -> walk)."""
    verb = _verb(claim.predicate)
    found = {verb} if verb in VERBS and verb not in _NOT_DOINGS else set()
    if len(claim.subject) > 1 and claim.subject[-1] in _ACTIVITY_NOUNS:
        found.add(SYNONYMS.get(claim.subject[-1], claim.subject[-1]))
    return frozenset(found)


# Doings named as a thing ("User's daily walk", "User's commute"); "garden" or "drink" are things too.
_ACTIVITY_NOUNS = frozenset(
    "walk run jog swim ride hike climb commute cycle drive row skate ski surf dance".split()
)


def other_doings(old: Claim, new: Claim) -> bool:
    """Whether the facts tell of two different things done, one of them named by its subject:
    "User runs 5 km every day" / "User's daily walk is 5 km" (close in meaning, and the same
    number, but a run is no walk). Neither names the other's doing."""
    if not (old.parsed and new.parsed):
        return False
    one, other = _doings(old), _doings(new)
    if not one or not other or one & other:
        return False
    named = {w for c in (old, new) for w in c.subject[1:]}
    if not (one | other) & named:
        return False  # two verbs: _two_doings and the predicates decide
    return not (one & {_lemma(w) for w in new.words} or other & {_lemma(w) for w in old.words})


def modifies(words: set[str], claim: Claim) -> bool:
    """Whether one of ``words`` is said in ``claim`` before another noun, as what kind of thing it
    is: "kitchen" in "bought a new kitchen table" (a table, not the kitchen), "car" in "pays for
    car insurance"; not in "drives a red car" or "has a dog named Rex"."""
    norm = _normalise(claim.text)
    names = _names(claim.text)
    for word in words:
        if word in names:
            continue  # "The Gym Group": a name
        for match in re.finditer(rf"\b{re.escape(word)}(?:s|es)? ([a-z][a-z-]*)\b", norm):
            after = match.group(1)
            if (
                after not in STOPWORDS
                and after not in _NOT_HEADS
                and after not in names  # "the dentist Maria Lopez": the thing's name
                and _noun(after) not in words  # "car insurance" moved as a whole
                and after not in OPPOSITE  # "cut their hair short": what it is now, no kind of hair
                and not after.endswith(_ADJECTIVE_ENDINGS)
                and _lemma(after) not in VERBS
            ):
                return True
    return False


# Words after a noun that do not make it a modifier: a participle or a name follows.
# ... or one of the words that name the thing itself as held ("gym membership", "bank account").
_NOT_HEADS = frozenset(
    "named called now anymore too again membership account plan subscription contract service "
    "provider app".split()
)
_ADJECTIVE_ENDINGS = ("ful", "ous", "ive", "able", "ible", "ic", "ish", "less", "ly", "er", "est")


def _plain_words(claim: Claim) -> frozenset[str]:
    return frozenset(
        w for w in claim.value if not w[:1].isdigit() and w not in _TIMELY and w not in ("now", "it")
    )


_TIMELY = frozenset(
    "every daily weekly monthly nightly twice once always often day week month year morning "
    "afternoon evening night weekend weekday monday tuesday wednesday thursday friday saturday "
    "sunday".split()
)
_RECURRING = frozenset("morning afternoon evening night weekend weekday".split()) | frozenset(
    "monday tuesday wednesday thursday friday saturday sunday".split()
)


# Verbs of things one may have, use or do many of at once: a new one is not the old one changed.
_MANY = frozenset(
    "have own rent keep use wear play ride eat drink read watch listen buy collect grow learn take "
    "subscribe follow support".split()
)


_SWAPPED = re.compile(
    r"\b(?:switch|swapp?|replac|upgrad|downgrad|trad|chang|exchang)(?:e|es|ed|ing)?"
    r" (?:to|for|it|them|the|their)\b"
)


def changed_only(old: Claim, new: Claim) -> bool:
    """Whether ``new`` is read as an update of ``old`` on a change word alone: the same verb of a
    thing one may have many of ("rents", "uses"), now with another thing, no word of the value
    shared, no number or time moved. "User rents a flat" -> "User now rents a garage for the
    car" is a second thing; "User uses Firefox" -> "User now uses Chrome" a new browser, which
    only meaning can tell (the merge asks for a close cosine)."""
    if not (old.parsed and new.parsed) or old.single or old.predicate != new.predicate:
        return False
    if old.predicate not in _MANY:
        return False  # "commutes by car" -> "now commutes by bike", "is vegan" -> "is now pescatarian"
    if old.negated or new.negated or new.dropped or not new.changed:
        return False
    if _SWAPPED.search(_normalise(new.text)):
        return False  # "switched to riding a Honda" says what it replaces
    if old.numbers != new.numbers or old.dates != new.dates:
        return False
    return not _plain_words(old) & _plain_words(new)


def part_time(old: Claim, new: Claim) -> bool:
    """Whether ``new`` gives a value of a one-value attribute for some times only, which ``old``
    does not ("User studies law" / "User now studies Spanish in the evenings"): a second value."""
    return old.single and bool(_RECURRING & (new.dates | new.value) - (old.dates | old.value))


__all__ = ["changed_only", "modifies", "other_doings", "part_time"]
