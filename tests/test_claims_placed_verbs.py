"""A verb the reader's list does not have, read from its place: right after a bare subject.

"User remortgaged ...", "User swallows ...": the word after "User" is its verb when inflected as
one; "does" before a thing ("User does aikido") is the verb itself. The sentences were written
for these tests, not taken from the labelled merge corpora.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims import parse_claim
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("User remortgaged the cottage", {"cottage"}),
        ("User upcycles old furniture", {"furniture"}),
        ("User journals every night", {"every", "night"}),
        ("User purchased a tandem", {"tandem"}),
    ],
)
def test_an_inflected_word_after_the_user_is_read_as_the_verb(text: str, value: set[str]) -> None:
    claim = parse_claim(text)
    assert claim.parsed and claim.subject == ("user",)
    assert value <= claim.value


def test_every_form_of_an_unlisted_verb_reads_one_predicate() -> None:
    forms = ("User upcycles old furniture", "User upcycled old furniture")
    assert len({parse_claim(text).predicate for text in forms}) == 1


@pytest.mark.parametrize("text", ["User does aikido", "User did a diploma in horticulture"])
def test_do_before_a_thing_is_the_verb(text: str) -> None:
    claim = parse_claim(text)
    assert claim.parsed and claim.predicate == "do" and not claim.negated


@pytest.mark.parametrize(
    ("text", "predicate"),
    [
        ("User does not eat pork", "eat"),  # "does" an auxiliary before a verb
        ("User doesn't play chess", "play"),
    ],
)
def test_do_before_a_verb_or_a_negation_stays_an_auxiliary(text: str, predicate: str) -> None:
    claim = parse_claim(text)
    assert claim.predicate == predicate and claim.negated


def test_a_word_after_the_users_is_not_taken_for_a_verb() -> None:
    # "User's sketches hang ...": a noun after the possessive, not "User sketches ..."
    claim = parse_claim("User's sketches hang in the hallway")
    assert not claim.parsed or claim.subject[:2] == ("user", "sketch")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User does judo", "User does fencing"),
        ("User upcycles old furniture", "User upcycles old bicycles"),
    ],
)
def test_two_things_done_with_an_unlisted_verb_stay_two_facts(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "stored" and texts == sorted([old, new])


def test_a_thing_done_said_to_be_over_supersedes_it(memory: Memory) -> None:
    status, texts = remember_pair(memory, "User does judo", "User doesn't do judo anymore")
    assert status == "superseded" and texts == ["User doesn't do judo anymore"]


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("User can't digest gluten", True),  # the word after a modal is a verb, listed or not
        ("User's parrot can whistle the anthem", False),
        ("User could sublet the spare room", False),
    ],
)
def test_the_word_after_a_modal_is_read_as_the_verb(text: str, negated: bool) -> None:
    claim = parse_claim(text)
    assert claim.parsed and claim.negated == negated and claim.value
