"""Tests for the shared time helpers."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from reverie.errors import InvalidInput
from reverie.retrieve.timeutil import (
    date_bounds,
    humanize_ago,
    parse_date,
    parse_period,
    relative_day,
    to_day,
    to_iso,
)

NEW_YORK = ZoneInfo("America/New_York")
UTC_ZONE = ZoneInfo("UTC")
FORMS = "use a number and a unit: m (minutes), h (hours), d (days) or w (weeks), e.g. 24h or 7d"


def _utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> float:
    """Epoch seconds of a UTC wall-clock time."""
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("period", "expected"),
    [
        ("30m", timedelta(minutes=30)),
        ("60m", timedelta(minutes=60)),
        ("1h", timedelta(hours=1)),
        ("24h", timedelta(hours=24)),
        ("48h", timedelta(hours=48)),
        ("1d", timedelta(days=1)),
        ("7d", timedelta(days=7)),
        ("30d", timedelta(days=30)),
        ("1w", timedelta(weeks=1)),
        ("2w", timedelta(weeks=2)),
        ("3 days", timedelta(days=3)),
        ("1 day", timedelta(days=1)),
        ("1 week", timedelta(weeks=1)),
        ("2 weeks", timedelta(weeks=2)),
        ("90 minutes", timedelta(minutes=90)),
        ("1 minute", timedelta(minutes=1)),
        ("5 min", timedelta(minutes=5)),
        ("2 hours", timedelta(hours=2)),
        ("3hrs", timedelta(hours=3)),
        ("24H", timedelta(hours=24)),
        (" 7D ", timedelta(days=7)),
        ("1.5h", timedelta(minutes=90)),
        ("3653d", timedelta(days=3653)),
    ],
)
def test_parse_period_forms(period: str, expected: timedelta) -> None:
    assert parse_period(period) == expected


@pytest.mark.parametrize("period", ["5y", "", "h", "24", "1 fortnight", "3 months", "7d ago", "1h30m", "abc"])
def test_parse_period_unreadable(period: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_period(period)
    assert str(caught.value) == f"Cannot read period {period!r}: {FORMS}"


def test_parse_period_message_matches_the_documented_text() -> None:
    with pytest.raises(
        InvalidInput,
        match=r"^Cannot read period '5y': use a number and a unit: "
        r"m \(minutes\), h \(hours\), d \(days\) or w \(weeks\), e\.g\. 24h or 7d$",
    ):
        parse_period("5y")


@pytest.mark.parametrize("period", ["0h", "0d", "-1h", "-3 days", "0.0w"])
def test_parse_period_refuses_zero_and_negative(period: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_period(period)
    assert str(caught.value) == f"Period {period!r} must be greater than zero; {FORMS}"


@pytest.mark.parametrize("period", ["3654d", "600w", "99999999999999999999999h"])
def test_parse_period_refuses_absurd_lengths(period: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_period(period)
    assert str(caught.value) == f"Period {period!r} is too long: the most is 10 years (3653d)"


def test_parse_date_strict() -> None:
    assert parse_date("2026-01-13") == date(2026, 1, 13)
    assert parse_date("2024-02-29", "date_to") == date(2024, 2, 29)


@pytest.mark.parametrize(
    "value",
    ["2026/01/13", "2026-1-13", "13-01-2026", "2026-01-13T00:00", "20260113", "", " 2026-01-13", "yesterday"],
)
def test_parse_date_wrong_shape_names_the_field(value: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_date(value, "date_from")
    assert str(caught.value) == f"date_from must be YYYY-MM-DD, got {value!r}"


def test_parse_date_documented_message() -> None:
    with pytest.raises(InvalidInput, match=r"^date_from must be YYYY-MM-DD, got '2026/01/13'$"):
        parse_date("2026/01/13", "date_from")
    with pytest.raises(InvalidInput, match=r"^date must be YYYY-MM-DD"):
        parse_date("tomorrow")


@pytest.mark.parametrize("value", ["2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10"])
def test_parse_date_impossible_day(value: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_date(value, "date_to")
    assert str(caught.value) == f"date_to must be a real calendar day as YYYY-MM-DD, got {value!r}"


def test_date_bounds_single_day_utc() -> None:
    assert date_bounds("2026-01-13", None, None, UTC_ZONE) == (_utc(2026, 1, 13), _utc(2026, 1, 14))


def test_date_bounds_single_day_new_york() -> None:
    assert date_bounds("2026-01-13", None, None, NEW_YORK) == (_utc(2026, 1, 13, 5), _utc(2026, 1, 14, 5))


def test_date_bounds_spring_forward_day_is_23_hours() -> None:
    start, end = date_bounds("2026-03-08", None, None, NEW_YORK)
    assert (start, end) == (_utc(2026, 3, 8, 5), _utc(2026, 3, 9, 4))
    assert end is not None and start is not None and end - start == 23 * 3600


def test_date_bounds_fall_back_day_is_25_hours() -> None:
    start, end = date_bounds("2026-11-01", None, None, NEW_YORK)
    assert (start, end) == (_utc(2026, 11, 1, 4), _utc(2026, 11, 2, 5))
    assert end is not None and start is not None and end - start == 25 * 3600


def test_date_bounds_range_is_inclusive_of_date_to() -> None:
    assert date_bounds(None, "2026-03-07", "2026-03-09", NEW_YORK) == (
        _utc(2026, 3, 7, 5),
        _utc(2026, 3, 10, 4),
    )
    assert date_bounds(None, "2026-01-13", "2026-01-13", UTC_ZONE) == (_utc(2026, 1, 13), _utc(2026, 1, 14))


def test_date_bounds_open_ends() -> None:
    assert date_bounds(None, "2026-01-13", None, UTC_ZONE) == (_utc(2026, 1, 13), None)
    assert date_bounds(None, None, "2026-01-13", UTC_ZONE) == (None, _utc(2026, 1, 14))
    assert date_bounds(None, None, None, UTC_ZONE) == (None, None)
    assert date_bounds("", "", "", UTC_ZONE) == (None, None)


@pytest.mark.parametrize(
    ("date_from", "date_to"), [("2026-01-01", None), (None, "2026-01-31"), ("2026-01-01", "2026-01-31")]
)
def test_date_bounds_refuses_date_with_a_range(date_from: str | None, date_to: str | None) -> None:
    with pytest.raises(InvalidInput, match=r"^Give either date or date_from/date_to, not both$"):
        date_bounds("2026-01-13", date_from, date_to, UTC_ZONE)


def test_date_bounds_refuses_reversed_range() -> None:
    with pytest.raises(InvalidInput) as caught:
        date_bounds(None, "2026-01-14", "2026-01-13", UTC_ZONE)
    assert str(caught.value) == "date_from (2026-01-14) is after date_to (2026-01-13); swap them"


@pytest.mark.parametrize(
    ("date", "date_from", "date_to", "message"),
    [
        ("2026/01/13", None, None, "date must be YYYY-MM-DD, got '2026/01/13'"),
        (None, "2026/01/13", None, "date_from must be YYYY-MM-DD, got '2026/01/13'"),
        (None, "2026-01-01", "Jan 3", "date_to must be YYYY-MM-DD, got 'Jan 3'"),
    ],
)
def test_date_bounds_names_the_bad_field(
    date: str | None, date_from: str | None, date_to: str | None, message: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        date_bounds(date, date_from, date_to, UTC_ZONE)
    assert str(caught.value) == message


NOW = _utc(2026, 1, 20, 12)


@pytest.mark.parametrize(
    ("seconds_ago", "expected"),
    [
        (0, "just now"),
        (59, "just now"),
        (-30, "just now"),
        (60, "1 minute ago"),
        (5 * 60, "5 minutes ago"),
        (59 * 60 + 59, "59 minutes ago"),
        (3600, "1 hour ago"),
        (12 * 3600, "12 hours ago"),
        (23 * 3600 + 59 * 60, "23 hours ago"),
        (86400, "1 day ago"),
        (2 * 86400, "2 days ago"),
        (6 * 86400, "6 days ago"),
        (7 * 86400, "1 week ago"),
        (21 * 86400, "3 weeks ago"),
        (29 * 86400, "4 weeks ago"),
        (30 * 86400, "1 month ago"),
        (4 * 30 * 86400, "4 months ago"),
        (364 * 86400, "12 months ago"),
        (365 * 86400, "1 year ago"),
        (2 * 365 * 86400, "2 years ago"),
    ],
)
def test_humanize_ago(seconds_ago: float, expected: str) -> None:
    assert humanize_ago(NOW - seconds_ago, NOW) == expected


@pytest.mark.parametrize(
    ("then", "expected"),
    [
        (_utc(2026, 1, 20, 0, 1), "Today"),
        (_utc(2026, 1, 19, 23, 59), "Yesterday"),
        (_utc(2026, 1, 18, 12), "2 days ago"),
        (_utc(2026, 1, 14, 12), "6 days ago"),
        (_utc(2026, 1, 13, 12), "Last week"),
        (_utc(2026, 1, 7, 12), "Last week"),
        (_utc(2026, 1, 6, 12), "2 weeks ago"),
        (_utc(2025, 12, 17, 12), "4 weeks ago"),
        (_utc(2025, 12, 16, 12), "On 2025-12-16"),
        (_utc(2024, 6, 1, 9), "On 2024-06-01"),
        (_utc(2026, 1, 22, 9), "On 2026-01-22"),
    ],
)
def test_relative_day_utc(then: float, expected: str) -> None:
    assert relative_day(then, NOW, UTC_ZONE) == expected


def test_relative_day_follows_the_local_calendar() -> None:
    now = _utc(2026, 1, 20, 5, 30)  # 00:30 in New York
    then = _utc(2026, 1, 20, 4, 30)  # 23:30 the evening before in New York
    assert relative_day(then, now, UTC_ZONE) == "Today"
    assert relative_day(then, now, NEW_YORK) == "Yesterday"


def test_relative_day_across_dst() -> None:
    now = _utc(2026, 3, 9, 4, 30)  # 00:30 EDT on 2026-03-09
    assert relative_day(_utc(2026, 3, 8, 5, 0), now, NEW_YORK) == "Yesterday"
    assert relative_day(_utc(2026, 3, 8, 4, 59), now, NEW_YORK) == "2 days ago"


def test_to_iso() -> None:
    ts = _utc(2026, 1, 13, 17, 5, 9) + 0.75
    assert to_iso(ts, UTC_ZONE) == "2026-01-13T17:05:09+00:00"
    assert to_iso(ts, NEW_YORK) == "2026-01-13T12:05:09-05:00"
    assert to_iso(_utc(2026, 7, 4, 16), NEW_YORK) == "2026-07-04T12:00:00-04:00"


def test_to_day() -> None:
    assert to_day(_utc(2026, 1, 14, 3), UTC_ZONE) == "2026-01-14"
    assert to_day(_utc(2026, 1, 14, 3), NEW_YORK) == "2026-01-13"


def test_to_day_round_trips_through_date_bounds() -> None:
    start, end = date_bounds("2026-11-01", None, None, NEW_YORK)
    assert start is not None and end is not None
    assert to_day(start, NEW_YORK) == "2026-11-01"
    assert to_day(end - 1, NEW_YORK) == "2026-11-01"
    assert to_day(end, NEW_YORK) == "2026-11-02"
