"""A date said with a shortened month is the same date (SQLite and PostgreSQL).

"Aug 20", "20 Aug." and "20 August" name one day: the reader folds a month shortened beside its
day to the month's name, so the same fact said with either is one fact, and another day stays
another fact. The sentences were written for these tests, not taken from the merge corpora.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims_fallback import entities
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's wedding anniversary is 20 August", "User's wedding anniversary is on Aug 20"),
        ("User flies to Oslo on 14 Sept", "User flies to Oslo on 14 September"),
        ("User's passport expires on 9 Nov. 2031", "User's passport expires on 9 November 2031"),
    ],
)
def test_one_date_with_a_short_month_is_one_fact(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert len(texts) == 1 and status in ("reinforced", "superseded")


def test_another_day_of_the_month_is_another_date() -> None:
    assert entities("User's exam is on Jun 3") != entities("User's exam is on 13 June")


def test_a_short_month_without_a_day_is_left_as_said() -> None:
    # "Jan" alone may be a name, and "may" a verb: only a day beside it makes it a month
    assert "jan" in entities("User met Jan in Lisbon")
