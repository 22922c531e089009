"""Normalized keys for facts that have one current value (mem.db §5): home city, employer, age ...

A fact about the user whose shape names such an attribute gets its key, so a later fact with
the same key supersedes it ("User moved to Seattle" replaces "User lives in Portland"). Only
facts whose subject is the user qualify: "User's sister lives in Boston" keeps no key.
"""

from __future__ import annotations

import re

_SUBJECT = r"^(?:the )?user (?:now |currently |recently |just |has )?"
_RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "home_city",
        re.compile(
            _SUBJECT + r"(?:lives|is living|resides|moved|has moved|relocated|is based)\b.*\b(?:in|to)\b",
            re.I,
        ),
    ),
    ("home_city", re.compile(r"^(?:the )?user's (?:home ?town|home city|city) is\b", re.I)),
    (
        "employer",
        re.compile(
            _SUBJECT + r"(?:works|is working|is employed|started (?:a new job|working))\b.*\b(?:at|for|by)\b",
            re.I,
        ),
    ),
    ("employer", re.compile(r"^(?:the )?user's (?:employer|company|workplace) is\b", re.I)),
    ("age", re.compile(_SUBJECT + r"(?:is \d{1,3} years old|turned \d{1,3})\b", re.I)),
    ("age", re.compile(r"^(?:the )?user's age is\b", re.I)),
    ("birthday", re.compile(r"^(?:the )?user's (?:birthday|date of birth|birth date) is\b", re.I)),
    ("birthday", re.compile(_SUBJECT + r"was born on\b", re.I)),
    ("timezone", re.compile(r"^(?:the )?user's time ?zone is\b", re.I)),
    ("timezone", re.compile(_SUBJECT + r"is in the .* time ?zone\b", re.I)),
    ("preferred_name", re.compile(r"^(?:the )?user's (?:name|first name|nickname) is\b", re.I)),
    ("preferred_name", re.compile(_SUBJECT + r"(?:wants|prefers|likes) to be called\b", re.I)),
    (
        "native_language",
        re.compile(r"^(?:the )?user's (?:native|first|mother) (?:language|tongue) is\b", re.I),
    ),
    (
        "diet",
        re.compile(
            _SUBJECT + r"(?:is|became|went) (?:a |an )?(?:vegetarian|vegan|pescatarian|omnivore)\b", re.I
        ),
    ),
    (
        "relationship_status",
        re.compile(_SUBJECT + r"(?:is|got) (?:single|married|divorced|engaged|widowed)\b", re.I),
    ),
]


def infer_key(text: str) -> str | None:
    """The key of a single-valued attribute the fact states about the user, if any."""
    statement = text.strip()
    for key, pattern in _RULES:
        if pattern.search(statement):
            return key
    return None


__all__ = ["infer_key"]
