"""One fact said again with other words, order or shape; and the pairs that only look alike.

A frame is a word kept in place besides the user ("User's car is blue" / "User's bike is blue"
keep "blue"); every word said otherwise is no frame. Nearly the same words in another order are
one fact when very close in meaning and the user comes before the same names in both ("User
owes Tom 50 euros" / "Tom owes User 50 euros" are two). A person or pet word one fact adds to a
name both give names nobody else ("Biscuit, User's dog"). A name kept by its stem ("Catholic" /
"Catholicism"), a club's tag ("Liverpool FC") adds nothing.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims import parse_claim
from reverie.extract.claims_fallback import names_kept, other_party, slots_swapped
from reverie.extract.merge_verdict import MergePolicy, judge
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User married Daniel in 2015", "User and Daniel got married in 2015"),
        (
            "User's office is a 20-minute walk from home",
            "It takes User twenty minutes to walk from home to the office",
        ),
        ("User's twin brother is named Arjun.", "Arjun is User's twin."),
        ("User's grandfather was born in Naples.", "Naples is the birthplace of User's grandad."),
        ("User hates long-haul flights.", "User really dislikes flying long distances."),
        ("User is Catholic.", "User's religion is Catholicism."),
    ],
)
def test_one_fact_in_other_words_order_or_shape_is_one_fact(memory: Memory, old: str, new: str) -> None:
    status, active = remember_pair(memory, old, new)
    assert status in ("reinforced", "superseded") and len(active) == 1


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User owes Tom 50 euros.", "Tom owes User 50 euros."),  # who owes whom
        ("User lent Tom 50 euros.", "Tom lent User 50 euros."),
        ("User's son is good at maths.", "User's son is bad at spelling."),  # opposite words, other things
        ("User owns a bike.", "User repairs bikes as a hobby."),  # something else done with it
        ("User's brother Karim lives in Leeds.", "User's cousin Karim lives in Leeds."),
    ],
)
def test_pairs_that_only_look_alike_keep_both(memory: Memory, old: str, new: str) -> None:
    _, active = remember_pair(memory, old, new)
    assert len(active) == 2


def test_a_frame_is_a_word_kept_in_place_besides_the_user() -> None:
    assert slots_swapped("User's car is blue", "User's bike is blue")
    assert not slots_swapped("User hates long-haul flights", "User really dislikes flying long distances")


def test_a_person_word_added_to_a_shared_name_names_nobody_else() -> None:
    assert not other_party(
        "User has a golden retriever named Biscuit", "Biscuit, User's dog, is a golden retriever"
    )
    assert not other_party("User's twin brother is named Arjun", "Arjun is User's twin")
    assert other_party("User's brother Karim lives in Leeds", "Karim is User's cousin")
    assert other_party("User's dog Rex is old", "Rex, User's cat, is old")


def test_a_name_is_kept_by_its_stem_and_a_tag_adds_nothing() -> None:
    assert names_kept("User is Catholic", "User's religion is Catholicism", added=False)
    assert names_kept("User is a big Liverpool fan", "User supports Liverpool FC", added=False)
    assert not names_kept("User supports Liverpool", "User supports Everton", added=False)


def test_opposite_words_contradict_only_of_the_same_thing() -> None:
    same = parse_claim("User's son is bad at maths")
    assert judge("User's son is good at maths", same, MergePolicy()) == "contradiction"
    other = parse_claim("User's son is bad at spelling")
    assert judge("User's son is good at maths", other, MergePolicy()) != "contradiction"


def test_anymore_adds_no_second_negation(memory: Memory) -> None:
    """ "can't stand jazz anymore" says the user dislikes jazz now, not that the dislike is over."""
    status, active = remember_pair(memory, "User likes jazz.", "I can't stand jazz anymore.")
    assert status == "superseded" and active == ["User can't stand jazz anymore."]
    assert parse_claim("User doesn't drink coffee anymore").negated
