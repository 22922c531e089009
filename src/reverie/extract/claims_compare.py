"""Comparing two readings of facts: the same, a refinement, an update, a contradiction, distinct.

:func:`compare_claims` gives the verdict the merge (``reverie.extract.merge``) acts on; the
text-level helpers (:func:`polarity_flip`, :func:`other_party`, :func:`entities`) are its
fallback for facts the rules could not read and live in ``reverie.extract.claims_fallback``.
"""

from __future__ import annotations

import dataclasses
import re

from reverie.extract.claim_opposites import ANTONYM, OPPOSITE
from reverie.extract.claim_words import (
    BE_FAMILY,
    CURRENCIES,
    ENDS,
    HOLDING,
    KINDS,
    KNOWN,
    LIGHT_VERBS,
    MONTHS,
    NEUTRAL_MODIFIERS,
    NUMBER_WORDS,
    PARTY_WORDS,
    PERIODS,
    QUANTITY_UNITS,
    SWAP_VERBS,
    VERBS,
)
from reverie.extract.claims_text import (
    Claim,
    Verdict,
    _is_year,
    _lemma,
    _normalise,
)
from reverie.extract.claims_things import modifies


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
        and w not in _FREQUENCY
    )


_CLOCK = re.compile(r"\b\d\d?:\d\d\b")
# How often: "every day" and "every evening" share no thing done.
_FREQUENCY = frozenset("every daily weekly monthly nightly twice once always often".split())


def compare_claims(old: Claim, new: Claim) -> Verdict:
    """How ``new`` relates to ``old``: the same, a refinement, an update, a contradiction, distinct.

    ``unsure`` when either fact could not be read: the caller decides by other evidence.
    """
    if not (old.parsed and new.parsed):
        return "unsure"
    old, new = _by_name(old, new), _by_name(new, old)
    if _swaps(old, new):
        return "update"  # "User's laptop is a Dell" -> "User replaced the Dell with a MacBook"
    if _gave_up(old, new):  # "... and does not have one now": gone, not replaced
        return (
            "contradiction" if new.negated else "update"
        )  # "User's VPN is NordVPN" -> "User cancelled NordVPN and uses Mullvad now"
    if new.dropped and new.changed and not new.dropped & (old.value | set(old.subject) | old.subject_names):
        # the change is explained by what was given up, which is not this fact: "User uses Slack"
        # stays beside "User cancelled Netflix and uses Disney+ now"
        new = dataclasses.replace(new, changed=False)
    if _denies_having(old, new) or _denies_having(new, old):
        return "contradiction"  # "User's son is named Tomas" -> "User does not have a son"
    if _rescheduled(old, new):
        return "update"  # "plays tennis on Wednesdays" -> "moved tennis to Fridays"
    if _partnered(old, new):
        return "update"  # "User is single" -> "User has a girlfriend now"
    if _named_alike(old, new) or _named_alike(new, old):
        return "same"  # "User has a dog named Biscuit" = "User's dog is called Biscuit"
    if _owned_alike(old, new) or _owned_alike(new, old):
        return "same"  # "User drives a Volvo" = "User's car is a Volvo"
    if new.changed and old.predicate in HOLDING and _moved_to_subject(old, new):
        return "update"  # "User drives a Toyota" -> "User's new car is a Volvo"
    if _favourite_alike(old, new) or _favourite_alike(new, old):
        return "same"  # "User's favourite cuisine is Thai" = "User likes Thai food best"
    if _renewed(old, new):
        return "update"  # "User's gym is Fitness First" -> "User joined a new gym, Anytime Fitness"
    if not _same_subject(old, new):
        return "distinct"
    # "now meets on Thursdays": a recurring time moved (a year would date another event)
    moved = (
        new.changed
        and old.predicate == new.predicate
        and (not any(map(_is_year, old.dates | new.dates)) or _verb(new.predicate) in _DATED)
    )
    if old.dates and new.dates and old.dates != new.dates and not moved:
        return "distinct"  # the same kind of event at another time: another event
    if _liked_doing(old, new) or _liked_doing(new, old):
        return "contradiction"  # "is into running" -> "gave up running"
    if new.predicate.startswith(("go_up", "go_down")) and old.numbers and new.numbers and not new.negated:
        if old.predicate in BE_FAMILY or _plain(new.value) <= _plain(old.value):
            return "update"  # "User's credit score was 680" -> "went up to 742"
    if _diet_alike(old, new) or _diet_alike(new, old):
        return "same"  # "User is vegetarian" = "User does not eat meat"
    avoided = _avoided(old, new) or _avoided(new, old)
    if avoided:
        return avoided  # "won't eat pork" = "avoids pork"; "eats pork" -> "avoids pork"
    ceased = old.ceased or new.ceased
    same_verb = _verb(old.predicate) == _verb(new.predicate) or (
        old.negated != new.negated and {_verb(old.predicate), _verb(new.predicate)} <= _WANTING
    )
    predicate_match = old.predicate == new.predicate or ceased or (same_verb and (old.negated != new.negated))
    antonyms = _antonyms(old.predicate, new.predicate)
    old_plain, new_plain = _plain(old.value), _plain(new.value)
    if (
        old.predicate in ENDS.get(new.predicate, ())
        and (not new_plain or old_plain & new_plain)
        and not other_kinds(old, new)
    ):
        return "update"  # "graduated from law school" ends "studies law"
    if (
        old.past
        and new.past
        and old.predicate == new.predicate
        and not (new.changed or old.negated or new.negated)
        and old_plain
        and new_plain
        and not old_plain & new_plain
    ):
        return "distinct"  # "studied history at Durham" / "studied law at Leeds": two episodes
    if not predicate_match and not antonyms:
        # "User takes sertraline" / "User's sertraline dose": the thing moved into the subject
        moved_words = set(old.subject) ^ set(new.subject)
        if new.changed and not new.negated and not old.negated:
            # "has 8 engineers" -> "has grown to 12 engineers"
            if same_verb or (old_plain & new_plain) or moved_words & (old_plain | new_plain):
                return "update"  # "lives alone" -> "now lives with a roommate"
            if old.numbers and new.numbers and old.value & new.value & QUANTITY_UNITS:
                return "update"  # "works 40 hours a week" -> "cut back to 30 hours a week"
            if old.predicate in BE_FAMILY and (new.predicate in BE_FAMILY or old.value & new.value):
                return "update"  # "is at 7 pm" -> "moved to 6 pm"; "is Comcast" -> "is now AT&T"
        if old.predicate in BE_FAMILY and new.predicate in BE_FAMILY and not (old.negated or new.negated):
            if _opposed(old, new):
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
        if other_kinds(old, new):
            return "distinct"  # "drinks oat milk" / "does not drink cow's milk": two kinds of milk
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
    if _CLOCK.sub("", " ".join(sorted(old_plain))) == _CLOCK.sub("", " ".join(sorted(new_plain))) and (
        old.numbers != new.numbers and old.predicate == new.predicate
    ):
        return "update"  # "wakes up at 06:30 on weekdays" -> "wakes up at 05:45 on weekdays"
    if _requantified(old, new, old_plain, new_plain):
        return "update"  # "sleeps 7 hours" -> "sleeps 5 hours since the baby arrived"
    if new.changed and not old.negated:
        return "update"  # "meets on Thursdays" -> "now meets on Tuesdays"
    if _opposed(old, new):
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


# States whose value is a date: "expires in 2025" -> "now expires in 2035" is one passport, renewed.
_DATED = frozenset({"expire", "end", "renew", "due", "finish", "run"})
# Verbs of having and using something, which giving it up ends.
_KEPT = frozenset(
    "have use rent drive ride wear own keep store track subscribe pay bank eat drink take buy invest".split()
)
_GENERIC = frozenset({"app", "service", "account", "provider", "plan", "subscription", "system", "device"})
_WANTING = frozenset({"like", "want", "prefer"})  # "prefers window seats" / "never wants a window seat"
_RESCHEDULE = frozenset({"move", "reschedule", "shift", "push", "postpone", "change", "bring"})
_SESSION = frozenset({"session", "meeting", "class", "lesson", "appointment", "practice", "training", "it"})


def _gave_up(old: Claim, new: Claim) -> bool:
    """Whether ``new`` says its subject gave up or replaced what ``old`` says it has or is.

    "User cancelled NordVPN and uses Mullvad now" after "User's VPN is NordVPN"; "moved all
    accounts from Barclays to Monzo" after "User banks with Barclays". The new fact's subject owns
    the old one's; a person in the old subject ("User's sister lives with Marco") only when the
    old fact says who that person is ("User's boyfriend is Marco").
    """
    if not new.dropped or old.negated:
        return False
    if new.negated and _plain(new.value) - {"now", "it"}:
        return False  # "sold the car and has none now" says it is gone; "... and has no garden" says more
    if not new.dropped & (_plain(old.value) | old.subject_names):
        return False
    owner, owned = set(new.subject), set(old.subject)
    if not owner <= owned:
        return False
    extra = owned - owner
    if extra & (PARTY_WORDS | old.subject_names):
        return old.predicate in BE_FAMILY | {"marry", "name"} and bool(new.dropped & old.value)
    # what the subject has, uses or is, not what it does with someone ("plays chess with Marco")
    return bool(extra) or old.single or old.predicate in BE_FAMILY or _verb(old.predicate) in _KEPT


# What a diet leaves out: "is vegan" says "does not eat animal products".
_DIETS = {
    "vegetarian": frozenset({"meat", "fish"}),
    "vegan": frozenset({"meat", "fish", "animal", "product", "dairy", "egg", "honey"}),
    "pescatarian": frozenset({"meat"}),
}


def _diet_alike(diet: Claim, eats: Claim) -> bool:
    """ "User is vegan" and "User doesn't eat any animal products": the diet said by what it leaves out."""
    if diet.predicate not in ("be", "be_a") or diet.negated or len(diet.value) != 1:
        return False
    (name,) = diet.value
    left_out = _DIETS.get(name)
    if left_out is None or eats.predicate != "eat" or not eats.negated or diet.subject != eats.subject:
        return False
    return bool(eats.value) and eats.value <= left_out


def _liked_doing(liked: Claim, done: Claim) -> bool:
    """ "likes running" and "does not run anymore": the liked doing, no longer done."""
    if liked.predicate != "like" or liked.negated or not done.negated or done.predicate in BE_FAMILY:
        return False
    return _verb(done.predicate) in liked.value and not _plain(done.value) - liked.value


def _partnered(old: Claim, new: Claim) -> bool:
    """ "User is single" then "User has a girlfriend now": a partner is a new relationship status."""
    if old.predicate != "marry" or new.predicate != "have" or old.negated or new.negated:
        return False
    return old.subject == new.subject and any(KINDS.get(w, w) == "partner" for w in new.value)


def _denies_having(has: Claim, denies: Claim) -> bool:
    """ "User's son is named Tomas" and "User does not have a son": the thing the one is about, denied."""
    if denies.predicate != "have" or not denies.negated or has.negated or len(has.subject) < 2:
        return False
    return has.subject[:-1] == denies.subject and _plain(denies.value) == {has.subject[-1]}


def _rescheduled(old: Claim, new: Claim) -> bool:
    """Whether ``new`` moves what ``old`` does to another time ("moved tennis to Friday evenings")."""
    if _verb(new.predicate) not in _RESCHEDULE or not new.changed or new.negated or old.negated:
        return False
    if not (old.dates and new.dates) or old.dates == new.dates or any(map(_is_year, old.dates | new.dates)):
        return False
    if not _same_subject(old, new) and not set(new.subject) <= set(old.subject) | old.value:
        return False
    if set(old.subject) - set(new.subject) & (PARTY_WORDS | old.subject_names):
        return False
    what = _plain(new.value) - _SESSION - new.dates
    return what <= _plain(old.value) | set(old.subject) | {_verb(old.predicate)}  # "swims" / "swimming"


def _avoided(avoids: Claim, other: Claim) -> Verdict | None:
    """ "avoids pork" says "does not eat pork" (the same) and the opposite of "eats pork"."""
    if _verb(avoids.predicate) != "avoid" or avoids.negated or _verb(other.predicate) in ("avoid", "like"):
        return None
    said, done = _plain(avoids.value), _plain(other.value)
    if not said or not done or not (said <= done or done <= said) or other.predicate in BE_FAMILY:
        return None  # "won't eat anything spicy" = "avoids spicy food"
    return "same" if other.negated else "contradiction"


def _by_name(bare: Claim, full: Claim) -> Claim:
    """``bare`` with ``full``'s subject when it names that subject's person by name alone.

    "Kofi turned 3" after "User's youngest, Kofi, is 2": the name says who, the other fact says
    whose. A name said first in a sentence is not read as one (it is capitalised anyway), so it
    counts when the other fact has it as a name in its subject.
    """
    if "user" in bare.subject or len(full.subject) <= len(bare.subject):
        return bare  # "Grandma Esperanza moved" after "User's grandmother Esperanza lives alone"
    if not set(bare.subject) < set(full.subject) or not (set(bare.subject) & full.subject_names):
        return bare
    return dataclasses.replace(bare, subject=full.subject, subject_names=full.subject_names)


def favourite_replaced(old: Claim, new: Claim) -> bool:
    """ "User's favourite tea is Earl Grey" -> "User prefers oolong now": a new liking said with "now".

    Only meaning can tell that oolong is a tea, so the merge asks for a close cosine as well.
    """
    if not (old.parsed and new.parsed) or old.negated or new.negated or old.predicate != "be_attr":
        return False
    if "favorite" not in old.subject or new.predicate != "like" or not new.changed:
        return False
    return new.subject == old.subject[: old.subject.index("favorite")] and not old.value & new.value


def switched_to(old: Claim, new: Claim) -> bool:
    """Whether ``new`` says its subject switched to a new thing without naming what it replaces.

    "User switched to Chrome" after "User uses Firefox": only meaning can tell that Chrome is
    another browser, so the merge asks for a close cosine as well (``reverie.extract.merge``).
    """
    if not (old.parsed and new.parsed) or old.negated or new.negated:
        return False
    swap = _verb(new.predicate) in SWAP_VERBS and new.predicate.endswith("_to")
    if not (swap or new.predicate.startswith("move_over")) or not new.value:  # "moved over to Linux"
        return False
    extra = set(old.subject) - set(new.subject)
    return (
        set(new.subject) <= set(old.subject)
        and not extra & (PARTY_WORDS | old.subject_names)
        and not _plain(old.value) & _plain(new.value)
    )


def _antonyms(one: str, other: str) -> bool:
    """Whether two predicates say the opposite ("like"/"dislike", "agree_with"/"disagree_with")."""
    verb, _, rest = one.partition("_")
    other_verb, _, other_rest = other.partition("_")
    if rest != other_rest or verb == other_verb:
        return False
    return other_verb in ANTONYM.get(verb, frozenset()) or any(
        other_verb == prefix + verb or verb == prefix + other_verb for prefix in ("dis", "mis", "un")
    )


def _two_doings(old: Claim, new: Claim) -> bool:
    """Whether the facts do two different known things to the same object.

    Their sentence vectors lie close ("User grows tomatoes" / "User eats tomatoes"), so meaning
    cannot merge them; two verbs that mean the same are folded by the synonyms first. A verb
    with a particle says where or whence ("comes from Accra"), not what is done to a thing.
    """
    verbs = {_verb(old.predicate), _verb(new.predicate)}
    return (
        len(verbs) == 2
        and "_" not in old.predicate + new.predicate
        and verbs <= VERBS - LIGHT_VERBS
        and not (old.changed or new.changed or old.negated or new.negated)
    )


def other_kinds(old: Claim, new: Claim) -> bool:
    """Whether the values name two kinds of one thing: "oat milk" / "cow's milk", "tennis club" /
    "book club" (each value opens with a word of its own, then the first word they share)."""
    first = next((word for word in old.order if word in new.value), None)
    if first is None or old.order.index(first) != 1 or new.order.index(first) != 1:
        return False
    if old.order[0][:1].isdigit() or new.order[0][:1].isdigit():
        return False  # "06:30 on weekdays" / "05:45 on weekdays": a quantity, not a kind
    return old.order[0] not in new.value and new.order[0] not in old.value


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
    moved = _verb(new.predicate) == "move" and new.changed  # "moved their email to Fastmail"
    if (_verb(new.predicate) not in SWAP_VERBS and not moved) or new.negated or old.negated:
        return False
    owner, owned = set(new.subject), set(old.subject)
    extra = owned - owner - NEUTRAL_MODIFIERS - _GENERIC  # "User's home router" is "the router"
    if not owner <= owned:
        return False
    if extra and extra <= new.value:
        return True  # "User's dentist is Dr. Patel" -> "User switched dentists to Dr. Kim"
    if moved:
        return False
    if extra & PARTY_WORDS or extra & old.subject_names:
        return False
    named = _plain(old.value) & new.value
    return bool(named or (extra and extra <= new.value) or _verb(old.predicate) in new.value)


def _named_alike(has: Claim, named: Claim) -> bool:
    """ "User has a dog named Biscuit" and "User's dog is called Biscuit": the thing moved to the subject."""
    if has.predicate != "have" or named.predicate not in ("be_attr", "name") or has.negated or named.negated:
        return False
    extra = set(named.subject) - set(has.subject)
    if not extra or not set(has.subject) < set(named.subject) or not extra <= has.value:
        return False
    # "User has two guinea pigs, Salt and Pepper" = "Salt and Pepper are User's guinea pigs"
    return bool(named.value) and has.value - extra - {"named", "called"} - has.numbers == named.value


def _owned_alike(one: Claim, other: Claim) -> bool:
    """ "User drives a Volvo" and "User's car is a Volvo": what the subject has, said of the thing."""
    moved = _moved_to_subject(one, other)
    return bool(moved and one.predicate in HOLDING and other.value and one.value - moved == other.value)


def _renewed(old: Claim, new: Claim) -> bool:
    """ "User's gym is Fitness First" -> "User joined a new gym, Anytime Fitness": a new one of the thing.

    A role is renewed too: "User's dentist is Dr. Shah" -> "User has a new dentist, Dr. Moreno".
    """
    if old.subject[-1] not in new.fresh or old.negated or new.negated:
        return False
    if bool(_moved_to_subject(new, old)):
        return True
    extra = set(old.subject) - set(new.subject)
    return (
        old.predicate in ("be_attr", "be_a", "name")
        # "has a new dentist"; "registered with a new GP": a role no person word names is one
        and (new.predicate in HOLDING or not extra & PARTY_WORDS)
        and set(new.subject) < set(old.subject)
        and extra == {old.subject[-1]}
        and not extra & old.subject_names
    )


def _favourite_alike(best: Claim, liked: Claim) -> bool:
    """ "User's favourite X is V" and "User likes V best": the same liking, said of the thing or the user."""
    if best.predicate != "be_attr" or "favorite" not in best.subject or liked.predicate != "like":
        return False
    owner = tuple(w for w in best.subject[: best.subject.index("favorite")])
    if owner != liked.subject or best.negated or liked.negated or not best.value:
        return False
    most = re.search(r"\b(?:best|most|more than any|above all)\b", _normalise(liked.text))
    return bool(most) and best.value <= liked.value


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


def _opposed(old: Claim, new: Claim) -> bool:
    """Whether the values say opposite things of the same thing: "is shy" / "is outgoing", "is
    good at maths" / "is bad at maths"; not "good at maths" / "bad at spelling"."""
    for word in old.value - new.value:
        opposite = {other for other in new.value if _opposite(word, frozenset({other}))}
        if opposite and _plain(old.value - {word}) <= _plain(new.value - opposite) | _plain(
            old.value & new.value
        ):
            return True
        if opposite and not _plain(new.value - opposite) - _plain(old.value):
            return True
    return False


def _opposite(word: str, others: frozenset[str]) -> bool:
    """Whether ``others`` holds the opposite of ``word`` ("shy"/"outgoing", "productive"/"unproductive")."""
    if OPPOSITE.get(word, frozenset()) & others:
        return True
    return any(
        other == prefix + word or word == prefix + other
        for other in others
        for prefix in ("un", "in", "im", "ir", "il", "dis", "non", "non-")
    )


def _verb(predicate: str) -> str:
    return predicate.split("_", 1)[0]


def _lemma_set(claim: Claim) -> set[str]:
    """The fact's words as verbs ("teacher" -> "teach"), with its predicate's verb."""
    found = {claim.predicate, _verb(claim.predicate)}
    for word in claim.words - set(claim.subject):  # "User's son quit piano": "son" is who, not what
        found.add(_lemma(word))
        for suffix in ("er", "or", "r"):
            stem = word[: -len(suffix)]
            if word.endswith(suffix) and (stem in VERBS or stem[:-1] in VERBS and stem[-1:] == stem[-2:-1]):
                found.add(stem if stem in VERBS else stem[:-1])
    return found


_MEASURES = frozenset(
    "dose dosage amount price cost rent fee budget limit size weight height balance total level payment "
    "bill reading read measurement time".split()
)


def _same_subject(old: Claim, new: Claim) -> bool:
    if set(old.subject) == set(new.subject):
        return True
    # "User's sister" against "User's sister Maria": the same only if no other name differs.
    a, b = set(old.subject), set(new.subject)
    if a ^ b <= _MEASURES and len(a & b) >= 2:
        return True  # "User's glucose level" and "User's glucose reading": two words for one measure
    if (a < b or b < a) and not (old.subject_names and new.subject_names):
        extra = (b - a) | (a - b)
        if extra <= (old.subject_names | new.subject_names):
            return True
        # "User's phone is a Pixel 8" and "User uses a Pixel 8 phone": the thing moved from the
        # subject to the object. Not for people or pets ("User plays tennis with his sister").
        shorter = new if len(b) < len(a) else old
        # "User's sertraline dose was increased" and "User takes sertraline": a measure of it.
        # "User's blood pressure reading" is a measure of "User's blood pressure"
        measured = not extra - _MEASURES and len(shorter.subject) >= 2
        return (
            not (extra & PARTY_WORDS)
            and (
                measured
                or extra <= shorter.value
                or bool(extra - _MEASURES)
                and extra - _MEASURES <= shorter.value
            )
            and not (extra & shorter.subject_names)
            and not modifies(extra, shorter)
        )
    return False


__all__ = ["compare_claims", "favourite_replaced", "other_kinds", "switched_to"]
