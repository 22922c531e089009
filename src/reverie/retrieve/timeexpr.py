"""Time expressions in questions ("last Thursday", "in May", "two weeks ago") as date windows.

``find_time_window(text, reference, tz)`` returns the window the first expression names,
relative to ``reference`` (epoch seconds), or None. Search uses it as a boost, not a filter:
people misremember dates, and a turn from the day before is still a good answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from reverie.text import WORD_NUMBERS

MONTHS = {
    name: index
    for index, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_WEEKDAYS = {
    name: i
    for i, name in enumerate(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
}
_NUMBERS = {
    "a": 1,
    "an": 1,
    **{word: value for word, value in WORD_NUMBERS.items() if value},
    "a couple of": 2,
    "a few": 3,
    "several": 3,
}
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY_RE = "|".join(_WEEKDAYS)
_NUM_RE = r"\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True))

_PATTERNS = [
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    (
        "day_month",
        re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({_MONTH_RE})\b\.?(?:,? (\d{{4}}))?", re.I),
    ),
    ("month_day", re.compile(rf"\b({_MONTH_RE})\.? (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?", re.I)),
    ("month", re.compile(rf"\b(?:in|during|since|of|last) ({_MONTH_RE})\b(?:,? (\d{{4}}))?", re.I)),
    ("month_year", re.compile(rf"\b({_MONTH_RE}),? (\d{{4}})\b", re.I)),
    ("ago", re.compile(rf"\b({_NUM_RE}) (day|week|month|year)s? ago\b", re.I)),
    ("yesterday", re.compile(r"\b(?:yesterday|last night)\b", re.I)),
    ("today", re.compile(r"\b(?:today|this morning|this afternoon|this evening|tonight)\b", re.I)),
    ("weekday", re.compile(rf"\b(?:last|on|this past) ({_DAY_RE})\b", re.I)),
    ("last_unit", re.compile(r"\blast (week|month|year|weekend)\b", re.I)),
    ("this_unit", re.compile(r"\bthis (week|month|year|weekend)\b", re.I)),
    ("year", re.compile(r"\bin (\d{4})\b", re.I)),
]


@dataclass(frozen=True)
class TimeWindow:
    """A [start, end) range of epoch seconds and the words that named it."""

    start: float
    end: float
    phrase: str


def _midnight(day: date, tz: tzinfo) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=tz).timestamp()


def _days(first: date, count: int, tz: tzinfo) -> tuple[float, float]:
    return _midnight(first, tz), _midnight(first + timedelta(days=count), tz)


def _month(year: int, month: int, tz: tzinfo) -> tuple[float, float]:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return _midnight(date(year, month, 1), tz), _midnight(nxt, tz)


def _past_year(month: int, today: date) -> int:
    """The year of the most recent ``month`` not after today."""
    return today.year if month <= today.month else today.year - 1


def _window(kind: str, match: re.Match[str], today: date, tz: tzinfo) -> tuple[float, float] | None:
    groups = match.groups()
    if kind == "iso":
        return _days(date(int(groups[0]), int(groups[1]), int(groups[2])), 1, tz)
    if kind in ("day_month", "month_day"):
        day_text, month_text = (groups[0], groups[1]) if kind == "day_month" else (groups[1], groups[0])
        month = MONTHS[month_text.lower()]
        year = int(groups[2]) if groups[2] else _past_year(month, today)
        return _days(date(year, month, int(day_text)), 1, tz)
    if kind in ("month", "month_year"):
        month = MONTHS[groups[0].lower()]
        year = int(groups[1]) if groups[1] else _past_year(month, today)
        return _month(year, month, tz)
    if kind == "ago":
        count = int(groups[0]) if groups[0].isdigit() else _NUMBERS[groups[0].lower()]
        unit = groups[1].lower()
        span = {"day": 1, "week": 7, "month": 30, "year": 365}[unit]
        centre = today - timedelta(days=count * span)
        half = max(1, span // 2)
        return _days(centre - timedelta(days=half), 2 * half + 1, tz)
    if kind == "yesterday":
        return _days(today - timedelta(days=1), 1, tz)
    if kind == "today":
        return _days(today, 1, tz)
    if kind == "weekday":
        back = (today.weekday() - _WEEKDAYS[groups[0].lower()]) % 7 or 7
        return _days(today - timedelta(days=back), 1, tz)
    if kind in ("last_unit", "this_unit"):
        return _unit(groups[0].lower(), kind == "last_unit", today, tz)
    if kind == "year":
        return _midnight(date(int(groups[0]), 1, 1), tz), _midnight(date(int(groups[0]) + 1, 1, 1), tz)
    return None


def _unit(unit: str, last: bool, today: date, tz: tzinfo) -> tuple[float, float]:
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) - timedelta(days=7 if last else 0)
        if unit == "weekend":
            return _days(monday + timedelta(days=5), 2, tz)
        return _days(monday, 7, tz)
    if unit == "month":
        year, month = (today.year, today.month - 1) if last else (today.year, today.month)
        if month == 0:
            year, month = year - 1, 12
        return _month(year, month, tz)
    year = today.year - 1 if last else today.year
    return _midnight(date(year, 1, 1), tz), _midnight(date(year + 1, 1, 1), tz)


def find_time_window(text: str, reference: float, tz: tzinfo) -> TimeWindow | None:
    """The window named by the first time expression in ``text``, relative to ``reference``."""
    today = datetime.fromtimestamp(reference, tz).date()
    found: list[tuple[int, str, re.Match[str]]] = []
    for kind, pattern in _PATTERNS:
        match = pattern.search(text)
        if match:
            found.append((match.start(), kind, match))
    for _, kind, match in sorted(found, key=lambda item: item[0]):
        try:
            window = _window(kind, match, today, tz)
        except (ValueError, KeyError, OverflowError):
            continue  # "31 February", "in 0000", "99999 years ago" and the like name no day
        if window is not None:
            return TimeWindow(window[0], window[1], match.group(0))
    return None


__all__ = ["MONTHS", "TimeWindow", "find_time_window"]
