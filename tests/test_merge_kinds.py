"""The merge through the memory for two kinds of one thing, and for an attribute said to have changed.

"drinks soy milk" beside "does not drink goat's milk" are two facts about two milks, not a
contradiction; leaving one club does not end another; "User's surname changed to X" is a new
value of the surname, found by its key however far its vector lies. Sentences written for these
tests, not taken from the labelled merge corpora.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims import compare_claims, parse_claim
from reverie.extract.claims_compare import other_kinds
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User drinks soy milk", "User doesn't drink goat's milk"),
        ("User joined a chess club", "User left the running club"),
        ("User eats dark chocolate", "User no longer eats milk chocolate"),
    ],
)
def test_two_kinds_of_one_thing_keep_both(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "stored" and texts == sorted([old, new])


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User drinks soy milk", "User doesn't drink milk anymore"),
        ("User is in the chess club", "User left the chess club"),
    ],
)
def test_the_same_thing_ended_still_replaces(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "superseded" and texts == [new]


def test_an_attribute_changed_to_a_new_value_supersedes_with_history(memory: Memory) -> None:
    status, texts = remember_pair(
        memory, "User's surname is Novak", "User's surname changed to Ferreira after the wedding"
    )
    assert status == "superseded" and texts == ["User's surname changed to Ferreira after the wedding"]
    assert memory.count(status="superseded") == 1


def test_other_kinds_reads_the_word_before_the_shared_one() -> None:
    assert other_kinds(parse_claim("User drinks soy milk"), parse_claim("User drinks goat's milk"))
    # "law" is shared first: a law student and a law school are not two kinds of one thing
    student = parse_claim("User is a law student at the University of Ghana")
    assert not other_kinds(student, parse_claim("User graduated from law school"))
    changed = parse_claim("User's surname changed to Ferreira")
    assert changed.predicate == "be_attr" and changed.changed
    assert compare_claims(parse_claim("User's surname is Novak"), changed) == "update"


def test_a_change_announced_of_the_thing_itself_supersedes(memory: Memory) -> None:
    old, new = "User's laptop runs Windows", "User's laptop operating system is now Linux"
    status, texts = remember_pair(memory, old, new)
    assert status == "superseded" and texts == [new]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a thing of the thing is another thing, even after a change word
        ("User's car is a blue Golf", "User's car insurance is now with Admiral"),
        ("User's phone is a Pixel 7", "User's phone plan is now with Vodafone"),
        ("User's office is in Leeds", "User's office hours are now 8 to 4"),
        # one more, said as such
        ("User's garden has roses", "User's garden now has a vegetable patch too"),
    ],
)
def test_a_thing_of_the_thing_or_one_more_keeps_both(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "stored" and texts == sorted([old, new])


def test_where_one_grew_up_is_not_where_one_lives(memory: Memory) -> None:
    status, texts = remember_pair(memory, "User lives in Porto", "User grew up in Porto")
    assert status == "stored" and texts == ["User grew up in Porto", "User lives in Porto"]
    grew = parse_claim("User grew up in Porto")
    assert grew.predicate == "come_from" and not grew.changed  # "grew up" announces no change


def test_where_one_grew_up_said_again_is_one_fact(memory: Memory) -> None:
    status, texts = remember_pair(memory, "User grew up in Accra", "User spent their early years in Accra")
    assert status == "superseded" and texts == ["User spent their early years in Accra"]


def test_a_new_thing_is_read_by_its_head_noun() -> None:
    # "a new kitchen table" is a new table, not a new kitchen; a name after the noun is its name
    assert parse_claim("User now has a new kitchen table").fresh == {"table"}
    assert parse_claim("User has a new dentist, Dr. Moreno").fresh == {"dentist"}
