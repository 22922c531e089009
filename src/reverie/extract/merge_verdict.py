"""The merge verdict for one new fact against one stored fact, and the thresholds it uses.

``reverie.extract.merge`` (whose docstring is the written merge policy) acts on the verdict:
reinforce, supersede with history, or keep both. The verdict reads both facts
(``reverie.extract.claims``) and, where the reading does not settle it, weighs the words
(``reverie.extract.claims_fallback``) and the cosine of the two texts.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from reverie.extract.claim_words import LIGHT_VERBS, VERBS
from reverie.extract.claims import (
    Claim,
    Verdict,
    compare_claims,
    content_sequence,
    entities,
    favourite_replaced,
    normal_wording,
    other_party,
    parse_claim,
    polarity_flip,
    switched_to,
)
from reverie.extract.claims_compare import other_kinds
from reverie.extract.claims_fallback import (
    ended,
    names_kept,
    one_word_swapped,
    other_thing_moved,
    says_another,
    shared_words,
    slots_swapped,
    subject_grown,
    substituted_value,
    thing_changed,
    thing_moved,
    user_first,
)
from reverie.extract.claims_over import said_over, value_replaced
from reverie.extract.claims_text import _lemma
from reverie.extract.claims_things import changed_only, other_doings, part_time
from reverie.text import token_similarity


@dataclass(frozen=True)
class MergePolicy:
    """Thresholds of the merge, from ``[memory]``."""

    duplicate_similarity: float = 0.85
    paraphrase_similarity: float = 0.80  # 1 - [memory] duplicate_distance_threshold
    # Only brings candidates to the rules (a neighbour no rule reads is kept beside the new
    # fact), so it may be low. 0.45 lost "early riser" / "night owl" (cosine 0.44 with integer
    # products); 0.40 kept every merge corpus's figures or raised them (corpus 1 update 89.6 ->
    # 90.6%, contradiction 98.5 -> 100%; corpora 3-5 held out: unchanged), crowded: 0 lost.
    neighbour_similarity: float = 0.40
    # Two facts the reader reads about the same subject, with the same names and numbers, whose
    # predicates it words differently ("is afraid of flying" / "gets anxious on planes"). Tuned on
    # corpora 1, heldout, 3, 4 and 6 (the closest distinct pair there: 0.67, "allergic to peanuts" /
    # "lactose intolerant"); corpora 5 and 7 scored after, as held out.
    same_subject_similarity: float = 0.70
    # One fact said of a thing of its owner, the other of the owner ("User's car is a red
    # Octavia" / "User drives a red Octavia"). Tuned on corpora 1, heldout, 3, 4 and 6: the
    # closest distinct pair there 0.80 ("User's birthday" / "User's anniversary is on 14 July").
    moved_thing_similarity: float = 0.85
    # A state said to be over in words the reader does not read ("gave the chickens away").
    # Tuned on corpora 1, heldout, 3, 4, 6 and 7: no distinct pair there; own negated distinct
    # pairs reached 0.53 ("plays squash at" / "no longer swims at the leisure centre").
    ended_similarity: float = 0.60
    # One fact said again in other words ("User's daughter Zoe is shy" / "Zoe, User's daughter, is
    # very timid around strangers"): close in meaning, sharing at most ``reworded_overlap`` of their
    # content words, in another frame of words (not one frame with slots filled otherwise: "User's
    # car is blue" / "User's bike is blue"), with the same names, numbers, persons and polarity.
    # Tuned on corpora 1, heldout, 3, 4, 6 and 7 (no distinct pair there merged; without the frame
    # check 14 were at 0.70 / 0.5); corpora 5 and 8 held out.
    # A change announced of the thing a fact is about, in other words ("User's laptop runs
    # Windows" -> "User's laptop operating system is now Linux"; claims_fallback.thing_changed).
    # Tuned on corpora 1, heldout, 3, 4, 6 and 7 (no distinct pair there); 5 and 8 held out.
    changed_thing_similarity: float = 0.70
    reworded_similarity: float = 0.70
    reworded_overlap: float = 0.5


# A new thing of a verb one may do with many ("now uses Chrome" after "uses Firefox"): tuned on
# own distinct probes (0.53, "rents a flat" / "now rents a garage") and corpora 1, heldout, 3-6.
_CHANGED_ONLY_SIMILARITY = 0.6
# A state said to be over in other words, on a shared topic (extract/claims_over.py).
_OVER_SIMILARITY = 0.45
_SWITCH_SIMILARITY = 0.45  # "switched to X" replaces a fact about the same subject at least this close

# Reading a text is pure in the text, and the same stored facts come up as candidates again and
# again (and the new fact's words are compared with each): read once per process. 16k readings
# (about 3 kB each, 48 MB when full) hold a 10k-fact store: at 8-10k facts a remember's verdicts
# took 0.75 ms with 4k, 0.38 with 16k.
_read_claim = functools.lru_cache(maxsize=16384)(parse_claim)
_read_sequence = functools.lru_cache(maxsize=16384)(content_sequence)


def read_claim(text: str) -> Claim:
    """A new fact's reading, kept for when it is a stored fact the next facts are compared with."""
    return _read_claim(text)


def judge(old: str, new: Claim, policy: MergePolicy, similarity: float | None = None) -> Verdict:
    """The merge verdict for a new fact (already read) against one stored fact's text."""
    if _read_sequence(old) == _read_sequence(new.text) and not polarity_flip(old, new.text):
        return "same"
    if (
        similarity is not None
        and similarity >= _SWITCH_SIMILARITY
        and favourite_replaced(_read_claim(old), new)
    ):
        return "update"  # "User's favourite tea is Earl Grey" -> "User prefers oolong now", close in meaning
    verdict = compare_claims(_read_claim(old), new)
    if verdict == "update" and _one_more(old, new):
        return "distinct"  # "User's garden has roses" / "User's garden now has a vegetable patch too"
    if verdict in ("distinct", "unsure") and other_doings(_read_claim(old), new):
        return "distinct"  # "User runs 5 km every day" / "User's daily walk is 5 km"
    if verdict == "update" and (
        part_time(_read_claim(old), new)  # "User studies law" / "... now studies Spanish in the evenings"
        or changed_only(_read_claim(old), new)
        and (similarity is None or similarity < _CHANGED_ONLY_SIMILARITY)
    ):
        return "distinct"  # "User rents a flat" / "User now rents a garage" (not "now uses Chrome")
    if (
        verdict == "distinct"
        and similarity is not None
        and similarity >= policy.moved_thing_similarity
        and thing_moved(_read_claim(old), new)
    ):
        return "refines"  # "User's car is a red Octavia" -> "User drives a red Octavia"
    if (
        verdict in ("distinct", "unsure")
        and similarity is not None
        and similarity >= policy.ended_similarity
        and ended(old, new.text)
        and not other_kinds(_read_claim(old), new)  # "drinks oat milk" / "doesn't drink cow's milk"
    ):
        return "contradiction"  # "User keeps chickens" -> "User gave the chickens away"
    if (
        verdict in ("distinct", "unsure")
        and similarity is not None
        and similarity >= _OVER_SIMILARITY
        and said_over(_read_claim(old), new)
    ):
        return "contradiction"  # "User is a heavy gamer" -> "User doesn't play video games anymore"
    if (
        verdict in ("distinct", "unsure")
        and similarity is not None
        and similarity >= _OVER_SIMILARITY
        and value_replaced(_read_claim(old), new)
    ):
        return "update"  # "User's thesis deadline is 30 April" -> "... was extended to 31 May"
    if (
        verdict in ("distinct", "unsure")
        and substituted_value(old, new.text)
        and not subject_grown(_read_claim(old), new)  # "User's car is X" / "User's car insurance is now Y"
        and not (  # "User's GP is Dr. X" / "User's GP moved the practice to Elm Street", unless close
            (similarity is None or similarity < _SWITCH_SIMILARITY)
            and other_thing_moved(normal_wording(old), normal_wording(new.text))
        )
    ):
        return "update"  # "User's car is a 2012 Corolla" -> "User's car is now a 2022 Tesla"
    if (
        verdict in ("distinct", "unsure")
        and similarity is not None
        and similarity >= policy.changed_thing_similarity
        and thing_changed(_read_claim(old), new)
    ):
        return "update"  # "User's laptop runs Windows" -> "User's laptop operating system is now Linux"
    if verdict in ("distinct", "unsure") and _reworded(old, new, policy, similarity):
        return "refines"  # "User's daughter Zoe is shy" -> "Zoe, User's daughter, is very timid"
    if verdict in ("distinct", "unsure") and _reordered(old, new, policy, similarity):
        return "refines"  # "User married Daniel in 2015" -> "User and Daniel got married in 2015"
    if (
        verdict in ("distinct", "unsure")
        and similarity is not None
        and similarity >= _SWITCH_SIMILARITY
        and switched_to(_read_claim(old), new)
    ):
        return "update"  # "User switched to Chrome" after "User uses Firefox", close in meaning
    if verdict != "unsure":
        return verdict
    # The rules could not read one of the facts, or read the same subject with two wordings of
    # the predicate. Merge only on strong evidence, and then keep the newer wording: if the two
    # are a paraphrase nothing is lost, if they were an update or a contradiction it is right.
    if other_party(old, new.text) or entities(old) != entities(new.text):
        return "distinct"
    if polarity_flip(old, new.text):
        return "contradiction"
    if token_similarity(old, new.text) >= policy.duplicate_similarity:
        return "same" if set(_read_sequence(new.text)) <= set(_read_sequence(old)) else "refines"
    if similarity is not None and similarity >= policy.paraphrase_similarity:
        return "refines"
    if (
        similarity is not None
        and similarity >= policy.same_subject_similarity
        and _read_claim(old).parsed
        and new.parsed  # and so compare_claims read one subject (its other "unsure")
        and not says_another(new.text)
        and (similarity >= policy.paraphrase_similarity or not _other_verb(_read_claim(old), new))
    ):
        return "refines"
    return "unsure"  # both are kept; an LLM can settle it at consolidation (extract/llm_merge.py)


def _one_more(old: str, new: Claim) -> bool:
    """Whether ``new`` says it is one more value ("also", "as well", "too", "another") beside the
    old one's, with no number that a new quantity would replace."""
    return says_another(new.text) and not (_read_claim(old).numbers and new.numbers)


_REORDERED_OVERLAP = 0.8  # nearly every content word of one fact in the other


def _reordered(old: str, new: Claim, policy: MergePolicy, similarity: float | None) -> bool:
    """Whether ``new`` says ``old`` again with nearly the same words in another order or shape,
    very close in meaning: the same names, numbers and persons, polarity and owner-first order of
    every name ("User owes Tom 50 euros" / "Tom owes User 50 euros" are two facts)."""
    if similarity is None or similarity < policy.duplicate_similarity:
        return False
    if shared_words(old, new.text) < _REORDERED_OVERLAP or says_another(new.text):
        return False
    if other_party(old, new.text) or polarity_flip(old, new.text) or _read_claim(old).negated != new.negated:
        return False
    if not names_kept(old, new.text, added=False) or not names_kept(new.text, old, added=False):
        return False
    return user_first(old) == user_first(new.text)


def _other_verb(old: Claim, new: Claim) -> bool:
    """Whether one fact does something with what the other has, by a verb of its own that the
    other does not say ("repairs bikes" after "owns a bike"): one verb of having, the thing shared."""
    if not (old.parsed and new.parsed) or not old.value & new.value:
        return False
    if not any(claim.predicate in _HAVING and _HOLDS.search(claim.text.lower()) for claim in (old, new)):
        return False  # "gets nervous" reads "have" too
    pairs = ((old.predicate.split("_", 1)[0], new), (new.predicate.split("_", 1)[0], old))
    if pairs[0][0] == pairs[1][0] or not all(verb in VERBS for verb, _ in pairs):
        return False
    return any(
        verb not in _NOT_DOINGS and verb not in {_lemma(w) for w in other.words} for verb, other in pairs
    )


_HAVING = frozenset({"have", "own", "rent", "keep", "use", "buy"})
_HOLDS = re.compile(r"\b(?:has|have|had|owns?|owned|rents?|rented|keeps?|kept|uses?|used|bought|buys?)\b")
# Verbs that say how one holds or sees a thing rather than do something with it.
_NOT_DOINGS = LIGHT_VERBS | {
    "like", "dislike", "love", "hate", "be", "prefer", "enjoy", "find", "think", "consider", "feel",
    "seem", "buy", "sell", "own", "rent", "avoid",
}  # fmt: skip


def _reworded(old: str, new: Claim, policy: MergePolicy, similarity: float | None) -> bool:
    """Whether ``new`` says ``old`` again in other words: close in meaning, few words shared, and
    nothing that tells two facts apart (a person, negation or "also"; a name, number or date of
    the old fact missing from the new one, or one the new fact adds below ``paraphrase_similarity``:
    "User plays the piano" / "User's piano is a Yamaha upright" are two facts)."""
    if similarity is None or similarity < policy.reworded_similarity:
        return False
    if shared_words(old, new.text) > policy.reworded_overlap:
        return False
    if slots_swapped(old, new.text) and (
        similarity < policy.paraphrase_similarity or one_word_swapped(old, new.text)
    ):
        return False  # one frame, a slot filled otherwise; a phrase reworded only when very close
    before = _read_claim(old)
    if before.parsed and new.parsed and before.negated != new.negated:
        return False
    if similarity < policy.paraphrase_similarity and _other_verb(before, new):
        return False  # "User owns a bike" / "User repairs bikes as a hobby": something else done with it
    return not (
        other_party(old, new.text)
        or not names_kept(old, new.text, added=similarity >= policy.paraphrase_similarity)
        or polarity_flip(old, new.text)
        or says_another(new.text)
    )


__all__ = ["MergePolicy", "judge"]
