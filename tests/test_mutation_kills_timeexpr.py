"""The exact days each time expression names, so a question about "last weekend" searches last weekend.

Written for the mutants of retrieve/timeexpr.py that survived `make mutation` (see tests/MUTATION.md):
every kind of expression, each month and year boundary, and a time zone away from UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone, tzinfo

import pytest

from reverie.retrieve.timeexpr import find_time_window

THURSDAY = datetime(2026, 1, 15, 12, 0, tzinfo=UTC).timestamp()  # a Thursday in January
MIDYEAR = datetime(2026, 6, 17, 12, 0, tzinfo=UTC).timestamp()  # a Wednesday in June
DECEMBER = datetime(2026, 12, 10, 12, 0, tzinfo=UTC).timestamp()


def _days(text: str, reference: float = THURSDAY, tz: tzinfo = UTC) -> tuple[date, date, str]:
    """The window as (first day, day after the last, phrase), checking both ends are local midnights."""
    window = find_time_window(text, reference, tz)
    assert window is not None, text
    start = datetime.fromtimestamp(window.start, tz)
    end = datetime.fromtimestamp(window.end, tz)
    assert (start.time(), end.time()) == (datetime.min.time(), datetime.min.time()), text
    return start.date(), end.date(), window.phrase


@pytest.mark.parametrize(
    ("text", "first", "after", "phrase"),
    [
        ("what did we plan last week?", date(2026, 1, 5), date(2026, 1, 12), "last week"),
        ("anything this week", date(2026, 1, 12), date(2026, 1, 19), "this week"),
        ("the hike last weekend", date(2026, 1, 10), date(2026, 1, 12), "last weekend"),
        ("plans for this weekend", date(2026, 1, 17), date(2026, 1, 19), "this weekend"),
        ("what did I buy last month", date(2025, 12, 1), date(2026, 1, 1), "last month"),
        ("bills this month", date(2026, 1, 1), date(2026, 2, 1), "this month"),
        ("trips last year", date(2025, 1, 1), date(2026, 1, 1), "last year"),
        ("goals this year", date(2026, 1, 1), date(2027, 1, 1), "this year"),
        ("the move in 2024", date(2024, 1, 1), date(2025, 1, 1), "in 2024"),
        ("dinner yesterday", date(2026, 1, 14), date(2026, 1, 15), "yesterday"),
        ("the film last night", date(2026, 1, 14), date(2026, 1, 15), "last night"),
        ("what I ate today", date(2026, 1, 15), date(2026, 1, 16), "today"),
        ("the call last Thursday", date(2026, 1, 8), date(2026, 1, 9), "last Thursday"),
        ("the call on Monday", date(2026, 1, 12), date(2026, 1, 13), "on Monday"),
        ("this past friday", date(2026, 1, 9), date(2026, 1, 10), "this past friday"),
        ("5 days ago", date(2026, 1, 9), date(2026, 1, 12), "5 days ago"),
        ("two weeks ago", date(2025, 12, 29), date(2026, 1, 5), "two weeks ago"),
        ("a couple of months ago", date(2025, 11, 1), date(2025, 12, 2), "a couple of months ago"),
        ("a year ago", date(2024, 7, 17), date(2025, 7, 17), "a year ago"),
        ("in May", date(2025, 5, 1), date(2025, 6, 1), "in May"),
        ("in January", date(2026, 1, 1), date(2026, 2, 1), "in January"),
        ("in December", date(2025, 12, 1), date(2026, 1, 1), "in December"),
        ("during sept", date(2025, 9, 1), date(2025, 10, 1), "during sept"),
        ("December 2024", date(2024, 12, 1), date(2025, 1, 1), "December 2024"),
        ("on the 3rd of March", date(2025, 3, 3), date(2025, 3, 4), "3rd of March"),
        ("March 3rd, 2024", date(2024, 3, 3), date(2024, 3, 4), "March 3rd, 2024"),
        ("on 2025-11-30", date(2025, 11, 30), date(2025, 12, 1), "2025-11-30"),
    ],
)
def test_each_expression_names_these_days(text: str, first: date, after: date, phrase: str) -> None:
    assert _days(text) == (first, after, phrase)


@pytest.mark.parametrize(
    ("text", "reference", "first", "after"),
    [
        ("last month", MIDYEAR, date(2026, 5, 1), date(2026, 6, 1)),
        ("this month", MIDYEAR, date(2026, 6, 1), date(2026, 7, 1)),
        ("this month", DECEMBER, date(2026, 12, 1), date(2027, 1, 1)),
        ("last month", DECEMBER, date(2026, 11, 1), date(2026, 12, 1)),
        ("last week", MIDYEAR, date(2026, 6, 8), date(2026, 6, 15)),
        ("last weekend", MIDYEAR, date(2026, 6, 13), date(2026, 6, 15)),
        ("this weekend", MIDYEAR, date(2026, 6, 20), date(2026, 6, 22)),
        ("last year", MIDYEAR, date(2025, 1, 1), date(2026, 1, 1)),
        ("in May", MIDYEAR, date(2026, 5, 1), date(2026, 6, 1)),
        ("in June", MIDYEAR, date(2026, 6, 1), date(2026, 7, 1)),
        ("in July", MIDYEAR, date(2025, 7, 1), date(2025, 8, 1)),
        ("last Wednesday", MIDYEAR, date(2026, 6, 10), date(2026, 6, 11)),
        ("last Tuesday", MIDYEAR, date(2026, 6, 16), date(2026, 6, 17)),
        ("a week ago", MIDYEAR, date(2026, 6, 7), date(2026, 6, 14)),
    ],
)
def test_windows_move_with_the_day_asked(text: str, reference: float, first: date, after: date) -> None:
    assert _days(text, reference)[:2] == (first, after)


def test_days_are_the_asker_s_days_in_their_time_zone() -> None:
    new_york_winter = timezone(timedelta(hours=-5))
    evening = datetime(2026, 1, 15, 3, 0, tzinfo=UTC).timestamp()  # still Wednesday the 14th there
    assert _days("yesterday", evening, new_york_winter)[:2] == (date(2026, 1, 13), date(2026, 1, 14))
    window = find_time_window("yesterday", evening, new_york_winter)
    assert window is not None
    assert window.start == datetime(2026, 1, 13, 5, 0, tzinfo=UTC).timestamp()
    assert _days("this month", evening, new_york_winter)[:2] == (date(2026, 1, 1), date(2026, 2, 1))
    assert _days("last year", evening, new_york_winter)[:2] == (date(2025, 1, 1), date(2026, 1, 1))
    assert _days("last week", evening, new_york_winter)[:2] == (date(2026, 1, 5), date(2026, 1, 12))
    assert _days("last weekend", evening, new_york_winter)[:2] == (date(2026, 1, 10), date(2026, 1, 12))
    assert _days("in 2024", evening, new_york_winter)[:2] == (date(2024, 1, 1), date(2025, 1, 1))
    assert _days("5 days ago", evening, new_york_winter)[:2] == (date(2026, 1, 8), date(2026, 1, 11))
    assert _days("today", evening, new_york_winter)[:2] == (date(2026, 1, 14), date(2026, 1, 15))
    assert _days("last Monday", evening, new_york_winter)[:2] == (date(2026, 1, 12), date(2026, 1, 13))
    assert _days("the 3rd of March", evening, new_york_winter)[:2] == (date(2025, 3, 3), date(2025, 3, 4))
    assert _days("on 2025-11-30", evening, new_york_winter)[:2] == (date(2025, 11, 30), date(2025, 12, 1))
    assert _days("in May", evening, new_york_winter)[:2] == (date(2025, 5, 1), date(2025, 6, 1))


def test_the_first_expression_in_the_question_wins() -> None:
    assert _days("yesterday, or was it last week?")[2] == "yesterday"
    assert _days("last week, or was it yesterday?")[2] == "last week"
    assert _days("in May, 3 days ago")[2] == "in May"


def test_an_impossible_date_gives_way_to_the_next_expression() -> None:
    assert _days("on 31 February, or last week")[:2] == (date(2026, 1, 5), date(2026, 1, 12))
    assert find_time_window("on 31 February", THURSDAY, UTC) is None
    assert find_time_window("nothing about time here", THURSDAY, UTC) is None
