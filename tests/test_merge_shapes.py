"""The merge through the memory for shapes the reader folds to one wording (SQLite and PostgreSQL).

The sentences were written for these tests, not taken from the labelled merge corpora.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims import compare_claims, parse_claim
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I never drink alcohol", "I'm teetotal"),  # found by its words in one wording, not by meaning
        ("User is a father of three kids", "User has three children"),
    ],
)
def test_a_paraphrase_found_by_its_normal_wording_is_one_fact(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert len(texts) == 1 and status in ("reinforced", "superseded")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's nephew Tariq is 6", "Tariq turned 7 in June"),
        ("User's music service is Spotify", "User cancelled Spotify and uses Tidal now"),
        ("User swims on Tuesday mornings", "User moved swimming to Thursday mornings"),
    ],
)
def test_an_update_in_another_shape_supersedes_with_history(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "superseded" and texts == [new]
    assert memory.count(status="superseded") == 1  # the old fact is kept as history


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's nephew Tariq is 6", "Omar turned 7 in June"),
        ("User's sister lives with Rafa", "User broke up with Rafa and is now dating Joel"),
        ("User swims on Tuesday mornings", "User moved yoga to Thursday mornings"),
    ],
)
def test_another_subject_in_those_shapes_keeps_both(memory: Memory, old: str, new: str) -> None:
    _, texts = remember_pair(memory, old, new)
    assert texts == sorted([old, new])


def test_a_contradiction_in_another_shape_is_never_reinforced(memory: Memory) -> None:
    status, texts = remember_pair(memory, "User owns a kayak", "User has never owned a kayak")
    assert status == "superseded" and texts == ["User has never owned a kayak"]


def test_plural_nouns_in_oes_and_named_pets_are_read() -> None:
    assert "mango" in parse_claim("User loves mangoes more than any other fruit").value
    has = parse_claim("User has two rabbits, Fig and Date")
    named = parse_claim("Fig and Date are User's rabbits")
    assert compare_claims(has, named) == "same"
