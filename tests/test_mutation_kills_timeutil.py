"""Times a user gives or sees at the edges: the last calendar day, values out of range, odd input.

Written for the mutants of retrieve/timeutil.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from reverie.errors import InvalidInput
from reverie.retrieve.timeutil import (
    check_timestamp,
    date_bounds,
    humanize_ago,
    relative_day,
    to_day,
    to_iso,
)

UTC_ZONE = ZoneInfo("UTC")
NOW = 1_768_500_000.0
RANGE = "epoch seconds from 946684800 (2000-01-01) to before 4102444800 (2100-01-01)"


def test_a_time_from_2000_to_2099_is_taken_and_anything_else_refused_with_the_range() -> None:
    assert check_timestamp(946_684_800) == 946_684_800.0
    assert check_timestamp(4_102_444_799.5) == 4_102_444_799.5
    for wrong in (946_684_799.9, 4_102_444_800, float("nan"), float("inf")):
        with pytest.raises(InvalidInput) as refused:
            check_timestamp(wrong, "A message's time (at)")
        assert str(refused.value) == f"A message's time (at) must be {RANGE}, got {wrong!r}"
    for wrong in (True, "1768500000"):
        with pytest.raises(InvalidInput) as refused:
            check_timestamp(wrong)  # type: ignore[arg-type]
        assert str(refused.value) == f"time must be a number of epoch seconds, got {wrong!r}"


def test_a_stored_time_out_of_range_shows_as_the_nearest_day_that_can_be_shown() -> None:
    assert to_iso(float("nan"), UTC_ZONE) == "1970-01-01T00:00:00+00:00"
    assert to_day(1e20, UTC_ZONE) == "9999-12-30"
    assert to_day(-1e20, UTC_ZONE) == "0001-01-02"


def test_a_range_up_to_the_last_calendar_day_is_open_at_its_end() -> None:
    start, end = date_bounds(None, "9999-12-30", "9999-12-31", UTC_ZONE)
    assert end is None
    assert start is not None and to_day(start, UTC_ZONE) == "9999-12-30"


def test_an_age_that_is_not_a_number_is_just_now() -> None:
    assert humanize_ago(float("nan"), NOW) == "just now"
    assert humanize_ago(NOW, float("inf")) == "just now"


def test_today_is_the_user_s_local_day_even_when_utc_has_moved_on() -> None:
    new_york = ZoneInfo("America/New_York")
    now = datetime(2026, 1, 21, 3, 0, tzinfo=UTC).timestamp()  # 22:00 on the 20th in New York
    then = datetime(2026, 1, 20, 15, 0, tzinfo=UTC).timestamp()  # 10:00 the same day there
    assert relative_day(then, now, new_york) == "Today"
