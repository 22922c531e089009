"""Time expressions ("last Thursday", "in May", "two weeks ago", "the week before 9 June") as date windows.

``find_time_window(text, reference, tz)`` returns the window the first expression names,
relative to ``reference`` (epoch seconds), or None. Search uses it as a boost, not a filter:
people misremember dates, and a turn from the day before is still a good answer.
``find_time_windows`` returns every expression of a text, so a turn said on 8 May that
mentions "yesterday" is known to be about 7 May (its event date), and ``mentions_time``
also counts expressions whose day cannot be told ("the week after the trip").
``asks_when`` tells a question that asks for a time ("When did ...", "what year ...").
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
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
    ("next_weekday", re.compile(rf"\bnext ({_DAY_RE})\b", re.I)),
    ("next_unit", re.compile(r"\bnext (week|month|year|weekend)\b", re.I)),
    (
        "shift",
        re.compile(rf"\b({_NUM_RE}) (day|week|month|year)s? (before|earlier|after|later|from now)\b", re.I),
    ),
]
_SPAN_DAYS = {"day": 1, "week": 7, "weekend": 7, "month": 30, "year": 365}
# "the week before 9 June 2023": the expression that follows is moved by the unit.
_ANCHORED = re.compile(rf"\b(?:the|({_NUM_RE})) (day|week|weekend|month|year)s? (before|after|of)\s+$", re.I)
# A time the text names without a day we can tell: "the week after the trip", "the other day".
_VAGUE = re.compile(
    r"\b(?:the (?:day|week|weekend|month|year) (?:before|after)|the other day"
    r"|(?:days|weeks|months|years) ago)\b",
    re.I,
)
_WHEN = re.compile(
    r"\b(?:when|what (?:year|month|date|day|time)|which (?:year|month|day)|how long ago|since what)\b", re.I
)


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
    if kind == "tomorrow":
        return _days(today + timedelta(days=1), 1, tz)
    if kind == "next_weekday":
        ahead = (_WEEKDAYS[groups[0].lower()] - today.weekday()) % 7 or 7
        return _days(today + timedelta(days=ahead), 1, tz)
    if kind == "next_unit":
        return _next_unit(groups[0].lower(), today, tz)
    if kind == "shift":
        count = int(groups[0]) if groups[0].isdigit() else _NUMBERS[groups[0].lower()]
        span = _SPAN_DAYS[groups[1].lower()]
        sign = -1 if groups[2].lower() in ("before", "earlier") else 1
        centre = today + timedelta(days=sign * count * span)
        half = max(1, span // 2)
        return _days(centre - timedelta(days=half), 2 * half + 1, tz)
    return None


def _next_unit(unit: str, today: date, tz: tzinfo) -> tuple[float, float]:
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
        return _days(monday + timedelta(days=5), 2, tz) if unit == "weekend" else _days(monday, 7, tz)
    if unit == "month":
        year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return _month(year, month, tz)
    return _midnight(date(today.year + 1, 1, 1), tz), _midnight(date(today.year + 2, 1, 1), tz)


def _anchored(text: str, start: int, window: tuple[float, float]) -> tuple[float, float, int] | None:
    """``window`` moved by "the week before" / "the day after" written just before it, and where it starts."""
    match = _ANCHORED.search(text, max(0, start - 40), start)
    if match is None:
        return None
    count_text, unit, direction = match.group(1), match.group(2).lower(), match.group(3).lower()
    if direction == "of":
        return None
    count = (
        1 if count_text is None else int(count_text) if count_text.isdigit() else _NUMBERS[count_text.lower()]
    )
    span = count * _SPAN_DAYS[unit] * 86400.0
    if direction == "before":
        return window[0] - span, window[0], match.start()
    return window[1], window[1] + span, match.start()


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


def find_time_windows(text: str, reference: float, tz: tzinfo) -> list[TimeWindow]:
    """The windows of every time expression in ``text``, in order, relative to ``reference``.

    Overlapping matches keep the one that starts first ("in May 2023" is one month, not a
    month and a year); "the week before" / "the day after" move the expression that follows.
    """
    today = datetime.fromtimestamp(reference, tz).date()
    found: list[tuple[int, int, re.Match[str]]] = []
    for order, (_kind, pattern) in enumerate(_PATTERNS):
        found.extend((match.start(), order, match) for match in pattern.finditer(text))
    windows: list[TimeWindow] = []
    taken_to = -1
    starts = {start for start, _, _ in found}
    for start, order, match in sorted(found, key=lambda item: (item[0], item[1])):
        if start < taken_to:
            continue
        if _PATTERNS[order][0] == "shift" and match.end() + 1 in starts:
            continue  # "two weeks before August 11": the date that follows is moved instead
        try:
            window = _window(_PATTERNS[order][0], match, today, tz)
        except (ValueError, KeyError, OverflowError):
            continue  # "31 February", "in 0000", "99999 years ago" and the like name no day
        if window is None:
            continue
        taken_to = match.end()
        moved = _anchored(text, start, window)
        if moved is not None:
            windows.append(TimeWindow(moved[0], moved[1], text[moved[2] : match.end()]))
        else:
            windows.append(TimeWindow(window[0], window[1], match.group(0)))
    return windows


def find_time_window(text: str, reference: float, tz: tzinfo) -> TimeWindow | None:
    """The window named by the first time expression in ``text``, relative to ``reference``."""
    windows = find_time_windows(text, reference, tz)
    return windows[0] if windows else None


_ANY_TIME = re.compile("|".join(f"(?:{p.pattern})" for p in [_VAGUE, *(p for _, p in _PATTERNS)]), re.I)


def mentions_time(text: str) -> bool:
    """Whether ``text`` names a time, even one whose day cannot be told ("the week after the trip")."""
    return _ANY_TIME.search(text) is not None


def asks_when(question: str) -> bool:
    """Whether a question asks for a time: "When did ...", "what year ...", "how long ago ..."."""
    return _WHEN.search(question) is not None


__all__ = ["MONTHS", "TimeWindow", "asks_when", "find_time_window", "find_time_windows", "mentions_time"]
