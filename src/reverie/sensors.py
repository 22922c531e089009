"""Short-lived sensor readings (Lo-Bug's ``/context/sensors``): the user's physical state, right now.

A device posts what its sensors read ("orientation": "face_up", "battery": "82%") with a time
to live; while a reading lives, the chat prompt ends with a line such as ``[Current physical
state: Orientation: face_up; Battery: 82%]`` after the memory sections (Lo-Bug §2.3). Readings
are kept in this process only and never written to the store: a restart or the time to live
forgets them, as it should for a state that changes by the minute. Each reading passes the
memory guard as it arrives, like every other text that reaches a prompt.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from reverie.errors import InvalidInput
from reverie.extract.guard import ensure_memory_text

DEFAULT_TTL_SECONDS = 300.0
MAX_TTL_SECONDS = 86_400.0
MAX_READINGS = 20
MAX_NAME = 40
MAX_VALUE = 120


@dataclass(frozen=True)
class Reading:
    """One sensor value and when it stops being true."""

    name: str
    value: str
    expires_at: float


def _label(name: str) -> str:
    words = name.replace("_", " ").replace("-", " ").split()
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def check_readings(readings: Mapping[str, object]) -> dict[str, str]:
    """The readings as name -> text, or InvalidInput / GuardRejected saying which one is wrong."""
    if not readings:
        raise InvalidInput("Send at least one reading, e.g. {\"readings\": {\"orientation\": \"face_up\"}}")
    if len(readings) > MAX_READINGS:
        raise InvalidInput(f"At most {MAX_READINGS} readings at a time ({len(readings)} sent)")
    checked: dict[str, str] = {}
    for raw_name, raw_value in readings.items():
        name = str(raw_name).strip()
        if not name or len(name) > MAX_NAME:
            raise InvalidInput(f"A reading's name needs 1-{MAX_NAME} characters: {name[:60]!r}")
        if not isinstance(raw_value, (str, int, float)):
            raise InvalidInput(f"Reading {name!r} must be a string, a number or true/false")
        value = str(raw_value).lower() if isinstance(raw_value, bool) else str(raw_value).strip()
        if not value or len(value) > MAX_VALUE:
            raise InvalidInput(f"Reading {name!r} needs a value of 1-{MAX_VALUE} characters")
        ensure_memory_text(f"{_label(name)}: {value}", max_bytes=4 * (MAX_NAME + MAX_VALUE))
        checked[name] = value
    return checked


class SensorBoard:
    """Every user's live readings, in this process (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._readings: dict[int, dict[str, Reading]] = {}

    def put(
        self,
        user_id: int,
        readings: Mapping[str, object],
        now: float,
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
    ) -> list[Reading]:
        """Set readings (a name sent again replaces its value); returns the user's live readings."""
        if not 1 <= ttl_seconds <= MAX_TTL_SECONDS:
            raise InvalidInput(f"ttl_seconds must be between 1 and {MAX_TTL_SECONDS:.0f}")
        checked = check_readings(readings)
        with self._lock:
            board = self._readings.setdefault(user_id, {})
            for name, value in checked.items():
                board[name] = Reading(name, value, now + ttl_seconds)
            return self._live(user_id, now)

    def live(self, user_id: int, now: float) -> list[Reading]:
        """The user's readings that have not expired, in the order they were first sent."""
        with self._lock:
            return self._live(user_id, now)

    def clear(self, user_id: int) -> None:
        """Forget every reading of the user."""
        with self._lock:
            self._readings.pop(user_id, None)

    def _live(self, user_id: int, now: float) -> list[Reading]:
        board = self._readings.get(user_id)
        if board is None:
            return []
        for name in [n for n, r in board.items() if r.expires_at <= now]:
            del board[name]
        if not board:
            del self._readings[user_id]
        return list(board.values())

    def prompt_line(self, user_id: int, now: float) -> str:
        """``[Current physical state: Orientation: face_up; ...]``, or "" with nothing live."""
        readings = self.live(user_id, now)
        if not readings:
            return ""
        return "[Current physical state: " + "; ".join(f"{_label(r.name)}: {r.value}" for r in readings) + "]"


__all__ = [
    "DEFAULT_TTL_SECONDS",
    "MAX_READINGS",
    "MAX_TTL_SECONDS",
    "Reading",
    "SensorBoard",
    "check_readings",
]
