"""Time helpers shared across Reverie: periods, dates, day bounds and human-friendly ages.

Timestamps are float epoch seconds (UTC). Functions that deal in calendar days take a
``tzinfo`` (normally a ``zoneinfo.ZoneInfo``) so that day bounds follow local midnight,
daylight-saving changes included.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time, timedelta, tzinfo

from reverie.errors import InvalidInput

_PERIOD = re.compile(
    r"^\s*([+-]?\d+(?:\.\d+)?)\s*"
    r"(m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?)\s*$",
    re.IGNORECASE,
)
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}
_MAX_PERIOD = timedelta(days=3653)  # ten years, leap days included
_PERIOD_FORMS = "use a number and a unit: m (minutes), h (hours), d (days) or w (weeks), e.g. 24h or 7d"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

_MINUTE = 60
_HOUR = 3600
_DAY = 86400

# What a caller may give as a point in time (a message's `at`, a reminder's due time):
# 2000-01-01T00:00Z up to (not including) 2100-01-01T00:00Z.
EARLIEST = 946_684_800.0
LATEST = 4_102_444_800.0
# What datetime can show, a day inside its range so that any time zone fits.
_LAST_DAY = date.max
_SHOWABLE = (-62_135_596_800.0 + _DAY, 253_402_300_799.0 - _DAY)


def check_timestamp(ts: float, field: str = "time") -> float:
    """``ts`` when it is a finite epoch second from 2000 to 2099 (UTC); InvalidInput naming ``field``."""
    if isinstance(ts, bool) or not isinstance(ts, int | float):
        raise InvalidInput(f"{field} must be a number of epoch seconds, got {ts!r}")
    if not math.isfinite(ts) or not EARLIEST <= ts < LATEST:
        raise InvalidInput(
            f"{field} must be epoch seconds from {EARLIEST:.0f} (2000-01-01) to before "
            f"{LATEST:.0f} (2100-01-01), got {ts!r}"
        )
    return float(ts)


def local_datetime(ts: float, tz: tzinfo) -> datetime:
    """``ts`` as an aware datetime in ``tz``; a stored value out of datetime's range shows as its limit."""
    if not math.isfinite(ts):
        ts = 0.0
    return datetime.fromtimestamp(min(max(ts, _SHOWABLE[0]), _SHOWABLE[1]), tz)


def parse_period(period: str) -> timedelta:
    """Read a period such as "30m", "24h", "7d", "2w" or "3 days" as a positive timedelta."""
    match = _PERIOD.match(period)
    if not match:
        raise InvalidInput(f"Cannot read period {period!r}: {_PERIOD_FORMS}")
    amount = float(match.group(1))
    unit = match.group(2)[0].lower()
    if amount <= 0:
        raise InvalidInput(f"Period {period!r} must be greater than zero; {_PERIOD_FORMS}")
    seconds = amount * _UNIT_SECONDS[unit]
    if seconds > _MAX_PERIOD.total_seconds():
        raise InvalidInput(f"Period {period!r} is too long: the most is 10 years (3653d)")
    return timedelta(seconds=seconds)


def parse_date(value: str, field: str = "date") -> date:
    """Read a strict YYYY-MM-DD date; the error names ``field``."""
    if not _DATE.match(value):
        raise InvalidInput(f"{field} must be YYYY-MM-DD, got {value!r}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidInput(f"{field} must be a real calendar day as YYYY-MM-DD, got {value!r}") from None


def date_bounds(
    date: str | None, date_from: str | None, date_to: str | None, tz: tzinfo
) -> tuple[float | None, float | None]:
    """Return epoch-second bounds [start, end) for a day or an inclusive day range in ``tz``.

    Empty strings count as not given. ``date`` excludes ``date_from``/``date_to``; an open
    side of a range is ``None``.
    """
    day = date or None
    first = date_from or None
    last = date_to or None
    if day is not None:
        if first is not None or last is not None:
            raise InvalidInput("Give either date or date_from/date_to, not both")
        first = last = day
        first_field = last_field = "date"
    else:
        first_field, last_field = "date_from", "date_to"
    start_day = parse_date(first, first_field) if first is not None else None
    end_day = parse_date(last, last_field) if last is not None else None
    if start_day is not None and end_day is not None and start_day > end_day:
        raise InvalidInput(
            f"date_from ({start_day.isoformat()}) is after date_to ({end_day.isoformat()}); swap them"
        )
    start = _midnight(start_day, tz) if start_day is not None else None
    # The last representable day has no next midnight: the range is open at that end.
    end = _midnight(end_day + timedelta(days=1), tz) if end_day is not None and end_day < _LAST_DAY else None
    return start, end


def humanize_ago(then: float, now: float) -> str:
    """Say how long ago ``then`` was: "just now", "5 minutes ago", ..., "2 years ago"."""
    elapsed = now - then
    if not math.isfinite(elapsed) or elapsed < _MINUTE:
        return "just now"
    if elapsed < _HOUR:
        return _ago(int(elapsed // _MINUTE), "minute")
    if elapsed < _DAY:
        return _ago(int(elapsed // _HOUR), "hour")
    days = int(elapsed // _DAY)
    if days < 7:
        return _ago(days, "day")
    if days < 30:
        return _ago(days // 7, "week")
    if days < 365:
        return _ago(days // 30, "month")
    return _ago(days // 365, "year")


def relative_day(then: float, now: float, tz: tzinfo) -> str:
    """Name the calendar day of ``then`` relative to ``now`` in ``tz`` ("Today", "Last week")."""
    then_day = local_datetime(then, tz).date()
    days = (local_datetime(now, tz).date() - then_day).days
    if days == 0:
        return "Today"
    if days == 1:
        return "Yesterday"
    if 2 <= days < 7:
        return f"{days} days ago"
    if 7 <= days < 14:
        return "Last week"
    if 14 <= days < 35:
        return f"{days // 7} weeks ago"
    return f"On {then_day.isoformat()}"


def to_iso(ts: float, tz: tzinfo) -> str:
    """Format ``ts`` as ISO-8601 with its UTC offset, to the second."""
    return local_datetime(ts, tz).isoformat(timespec="seconds")


def to_day(ts: float, tz: tzinfo) -> str:
    """Format the calendar day of ``ts`` in ``tz`` as YYYY-MM-DD."""
    return local_datetime(ts, tz).date().isoformat()


def _midnight(day: date, tz: tzinfo) -> float:
    """Return the epoch seconds of local midnight starting ``day`` in ``tz``."""
    try:
        return datetime.combine(day, time(0), tzinfo=tz).timestamp()
    except (OverflowError, ValueError):  # year 1 east of UTC: before the earliest representable time
        return _SHOWABLE[0]


def _ago(count: int, unit: str) -> str:
    """Format "1 day ago" / "3 days ago"."""
    return f"{count} {unit}{'' if count == 1 else 's'} ago"


__all__ = [
    "EARLIEST",
    "LATEST",
    "check_timestamp",
    "date_bounds",
    "humanize_ago",
    "local_datetime",
    "parse_date",
    "parse_period",
    "relative_day",
    "to_day",
    "to_iso",
]
