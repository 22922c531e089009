"""The merge through the memory for one fact said again in other words, and for pairs that only look so.

A fact reworded (its frame of words changed, close in meaning, the same names, numbers, persons
and polarity) is one fact: the newer wording stays active and the older one is kept as history.
Two facts in one frame with some slots filled otherwise are two facts, however close their
vectors. The sentences were written for these tests, not taken from the labelled merge corpora.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims_fallback import one_word_swapped, shared_words, slots_swapped
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's favourite season is autumn", "Autumn is the time of year User loves most"),
        ("User's daughter Zoe is shy", "Zoe, User's daughter, is very timid around strangers"),
        # a name opening the sentence is read as a word there, and it is the same name
        ("User's go-to pizza place is Franco's", "Franco's is where User usually orders pizza"),
    ],
)
def test_a_fact_said_again_in_other_words_is_one_fact(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "superseded" and texts == [new]
    assert memory.count(status="superseded") == 1  # the older wording is kept as history


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's savings account is with Monzo", "User's mortgage is with Monzo"),
        ("User's landlord Bo's favourite film is Alien", "User's teammate Bo's favourite film is Heat"),
        # the new fact names a thing the old one does not, and is not that close in meaning
        ("User plays the piano", "User's piano is a Yamaha upright"),
        # one word for one word in one frame, however close (cosine 0.85)
        ("User's savings account is with Monzo", "User's current account is with Monzo"),
        ("User keeps bees at home", "User keeps bees in the back garden"),  # 0.87, one word for two
    ],
)
def test_one_frame_with_other_words_in_its_slots_keeps_both(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "stored" and texts == sorted([old, new])


def test_people_of_one_name_in_one_shape_are_all_kept(memory: Memory) -> None:
    facts = [
        "User's landlord Bo's favourite film is Alien",
        "User's teammate Bo's favourite film is Heat",
        "User's dentist Bo's favourite film is Jaws",
        "User's tutor Bo's favourite film is Up",
    ]
    for fact in facts:
        memory.remember(fact)
    assert sorted(m.text for m in memory.list_memories(kind="fact")) == sorted(facts)


def test_words_shared_and_slots_swapped_read_the_words_in_order() -> None:
    assert slots_swapped("User's car is blue", "User's bike is blue")
    reworded = "Autumn is the time of year User loves most"
    assert not slots_swapped("User's favourite season is autumn", reworded)
    assert shared_words("User's car is blue", "User's bike is blue") == pytest.approx(1 / 3)
    assert one_word_swapped("User's car is blue", "User's bike is blue")
    assert one_word_swapped("User's mortgage is with Monzo", "User's home loan is with Monzo")
    assert not one_word_swapped("User is a software engineer", "User is a computer programmer")
    assert shared_words("User is here", "User") == 1.0  # nothing to compare: no evidence of rewording
