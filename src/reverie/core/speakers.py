"""Who is speaking on each shared voice interface now ("This is Alice", Saga), kept in the store.

Every door a device speaks through (the live session, ``/chat/text``, ``/chat/audio``, the
OpenAI-compatible proxy) asks :meth:`reverie.core.people.People.switch_speaker` about a user
turn; the switch is kept with the interface in the database (``interface_speakers``), so that
the device's next request, whichever door and whichever process it comes through, and after a
restart, acts as the new speaker until the interface has been silent for
``session_timeout_minutes`` (then it is its mapped user's again).
"""

from __future__ import annotations

import re

from reverie.store.base import Store, User

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

    def __init__(self, store: Store) -> None:
        self.store = store

    def set(self, interface: str, user_id: int, at: float) -> None:
        """``user_id`` speaks on ``interface`` from ``at`` on."""
        self.store.set_speaker(interface, user_id, at)

    def current(self, interface: str, now: float, idle_seconds: float) -> int | None:
        """Who speaks on ``interface`` (None: nobody switched, or silent longer than ``idle_seconds``).

        Asking counts as hearing the interface: the speaker stays while it keeps talking.
        """
        return self.store.heard_speaker(interface, now, now - idle_seconds)

    def clear(self, interface: str) -> None:
        """The interface is its mapped user's again."""
        self.store.clear_speaker(interface)


__all__ = ["SpeakerBoard", "greeting", "speaker_named"]
