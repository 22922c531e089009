"""One user's view of a store, on either engine: every statement it runs carries that user's id."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from reverie.store.conversations import Conversations
from reverie.store.dialect import Dialect
from reverie.store.maintenance import Maintenance
from reverie.store.memories import Memories
from reverie.store.preferences import Preferences
from reverie.store.summaries import Summaries
from reverie.store.topics import Topics
from reverie.store.user_rows import UserRows
from reverie.store.vectors import Vectors


class UserStore(Memories, Preferences, Summaries, Conversations, UserRows, Vectors, Topics, Maintenance):
    """What ``store.scope(user_id)`` returns on both engines: the statements of each part, for one user."""

    def __init__(self, db: Dialect, user_id: int) -> None:
        self.db = db
        self.user_id = user_id

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group the calls inside into one atomic transaction (re-entrant)."""
        with self.db.transaction():
            yield


__all__ = ["UserStore"]
