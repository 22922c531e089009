"""The store both engines extend, and what the layers above import from the store.

A :class:`Store` knows users, interface mappings, documents, the work queue and the embedding
cache; everything else goes through a :class:`UserStore` obtained from ``store.scope(user_id)``,
which is bound to one user and has no way to name another: every statement it runs carries that
user's id. Each statement is written once, in the module named for what it holds; an engine
(``sqlite.py``, ``postgres.py``) adds its connections and migrations, and its dialect module
what it spells differently. Keyword queries arrive as plain terms; how they become FTS5 or
tsquery syntax is the dialect's business. The row types (:mod:`rows`) are re-exported here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol, runtime_checkable

from reverie.store import rows
from reverie.store.accounts import Accounts
from reverie.store.cache import EmbeddingCache
from reverie.store.conversations import Conversations
from reverie.store.dialect import Dialect
from reverie.store.documents import Documents
from reverie.store.maintenance import Maintenance, MaintenanceRuns
from reverie.store.memories import Memories
from reverie.store.rows import *  # noqa: F403  (the row types are re-exported; rows.__all__ lists them)
from reverie.store.summaries import Summaries
from reverie.store.topics import Topics
from reverie.store.vectors import Vectors
from reverie.store.work_queue import WorkQueue


class UserStore(Memories, Summaries, Conversations, Vectors, Topics, Maintenance):
    """One user's view of the store (``store.scope(user_id)``): every statement it runs carries their id."""

    def __init__(self, db: Dialect, user_id: int) -> None:
        self.db = db
        self.user_id = user_id

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group the calls inside into one atomic transaction (re-entrant)."""
        with self.db.transaction():
            yield


class Store(Documents, Accounts, MaintenanceRuns, WorkQueue, EmbeddingCache, ABC):
    """A database holding many users' memories; ``db`` runs the statements on its engine."""

    db: Dialect

    @abstractmethod
    def close(self) -> None:
        """Release connections."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Any]:
        """One write transaction of this thread, spanning users (nested calls join it)."""

    def schema_version(self) -> int:
        """The newest migration applied."""
        return int(self.db.value("SELECT MAX(version) FROM schema_migrations") or 0)

    @abstractmethod
    def database_size(self) -> int:
        """Bytes the database occupies."""

    def scope(self, user_id: int) -> UserStore:
        """A view of the store bound to one user."""
        return UserStore(self.db, user_id)


@runtime_checkable
class DocumentClaims(Protocol):
    """A store on which several processes index documents: each file is taken by one at a time."""

    def claim_document(self, path: str) -> bool:
        """Take the indexing of one file; False if another process has it."""
        ...

    def release_document(self, path: str) -> None:
        """Give a claimed file back."""
        ...


__all__ = ["DocumentClaims", "Store", "UserStore"]
__all__ += rows.__all__
