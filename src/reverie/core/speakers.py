"""Who is speaking on each shared voice interface now ("This is Alice", Saga), in this process only.

Every door a device speaks through (the live session, ``/chat/text``, ``/chat/audio``, the
OpenAI-compatible proxy) asks :meth:`reverie.core.people.People.switch_speaker` about a user
turn; the switch is kept here, so that the device's next request, whichever door it comes
through, acts as the new speaker until the interface has been silent for
``session_timeout_minutes`` (then it is its mapped user's again).
"""

from __future__ import annotations

import re
import threading

from reverie.store.base import User

# "This is Alice", "it's Alice here", "hi, this is Alice speaking".
_THIS_IS = re.compile(
    r"^\W*(?:(?:hi|hello|hey)[\s,]+)?(?:this\s+is|it'?s|it\s+is)\s+(\w[\w'-]*(?:\s+\w[\w'-]*){0,2}?)"
    r"(?:\s+(?:here|speaking))?\W*$",
    re.IGNORECASE,
)


def speaker_named(text: str) -> str | None:
    """The name a turn introduces its speaker by ("This is Alice": "Alice"), else None."""
    found = _THIS_IS.match(text)
    return found.group(1) if found else None


def greeting(user: User) -> str:
    """The answer to "This is Alice": "Hi Alice." (the display name when there is one)."""
    return f"Hi {user.display_name or user.name}."


class SpeakerBoard:
    """Each interface's current speaker (a user id) and when the interface was last heard."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._speaking: dict[str, tuple[int, float]] = {}

    def set(self, interface: str, user_id: int, at: float) -> None:
        """``user_id`` speaks on ``interface`` from ``at`` on."""
        with self._lock:
            self._speaking[interface] = (user_id, at)

    def current(self, interface: str, now: float, idle_seconds: float) -> int | None:
        """Who speaks on ``interface`` (None: nobody switched, or silent longer than ``idle_seconds``).

        Asking counts as hearing the interface: the speaker stays while it keeps talking.
        """
        with self._lock:
            entry = self._speaking.get(interface)
            if entry is None:
                return None
            if now - entry[1] > idle_seconds:
                del self._speaking[interface]
                return None
            self._speaking[interface] = (entry[0], max(now, entry[1]))
            return entry[0]

    def clear(self, interface: str) -> None:
        """The interface is its mapped user's again."""
        with self._lock:
            self._speaking.pop(interface, None)


__all__ = ["SpeakerBoard", "greeting", "speaker_named"]
