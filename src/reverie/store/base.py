"""The storage interface every engine implements, and the rows it speaks in.

A :class:`Store` knows users and interface mappings; everything else goes through a
:class:`UserStore` obtained from ``store.scope(user_id)``, which is bound to one user and
has no way to name another: every statement an engine runs for it carries that user's id.
Keyword queries arrive as plain terms; how they become FTS5 or tsquery syntax is the
engine's business.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Kind = Literal["fact", "preference"]
Source = Literal["explicit", "inferred"]
Status = Literal["active", "superseded", "deleted"]

KINDS: tuple[Kind, ...] = ("fact", "preference")
SOURCES: tuple[Source, ...] = ("explicit", "inferred")
STATUSES: tuple[Status, ...] = ("active", "superseded", "deleted")


@dataclass(frozen=True)
class User:
    """A person whose memories Reverie keeps."""

    id: int
    name: str
    display_name: str
    is_admin: bool
    created_at: float


@dataclass(frozen=True)
class MemoryRow:
    """One fact or preference as stored."""

    id: int
    kind: Kind
    type: str
    key: str | None
    text: str
    source: Source
    confidence: float
    status: Status
    superseded_by: int | None
    created_at: float
    updated_at: float
    last_accessed: float | None
    access_count: int
    reinforcement_count: int
    conversation_id: int | None


@dataclass(frozen=True)
class NewMemory:
    """What a caller supplies to insert a memory."""

    kind: Kind
    text: str
    source: Source
    confidence: float
    type: str = "general"
    key: str | None = None
    conversation_id: int | None = None
    created_at: float | None = None
    updated_at: float | None = None
    last_accessed: float | None = None
    access_count: int = 0
    reinforcement_count: int = 1
    status: Status = "active"


@dataclass(frozen=True)
class SummaryRow:
    """A summary of one conversation (or part of one)."""

    id: int
    conversation_id: int | None
    text: str
    topics: list[str]
    sentiment: str
    created_at: float
    message_count: int
    incorporated: bool


@dataclass(frozen=True)
class NewSummary:
    """What a caller supplies to insert a summary."""

    text: str
    topics: list[str] = field(default_factory=list)
    sentiment: str = ""
    conversation_id: int | None = None
    created_at: float | None = None
    message_count: int = 0
    first_message_id: int | None = None
    last_message_id: int | None = None


@dataclass(frozen=True)
class AuditEntry:
    """One line of the audit trail: what happened to what, why and when."""

    id: int
    at: float
    action: str
    target_kind: str
    target_id: int | None
    reason: str
    detail: dict[str, Any]


@dataclass(frozen=True)
class MemoryFilter:
    """Which memories a listing returns."""

    kinds: Sequence[Kind] = KINDS
    statuses: Sequence[Status] = ("active",)
    source: Source | None = None
    created_from: float | None = None
    created_to: float | None = None
    limit: int = 50
    offset: int = 0
    order: Literal["confidence", "recent", "id"] = "recent"


class UserStore(Protocol):
    """Every read and write for one user; engines bind the user id into each statement."""

    user_id: int

    def transaction(self) -> AbstractContextManager[None]:
        """Group the calls inside into one atomic transaction (re-entrant)."""
        ...

    # memories
    def insert_memory(self, memory: NewMemory, now: float) -> MemoryRow:
        """Insert a memory and return it with its id."""
        ...

    def get_memory(self, memory_id: int) -> MemoryRow | None:
        """The memory with that id, if it belongs to this user."""
        ...

    def list_memories(self, where: MemoryFilter) -> list[MemoryRow]:
        """Memories matching the filter."""
        ...

    def count_memories(self, where: MemoryFilter) -> int:
        """How many memories match the filter (limit and offset ignored)."""
        ...

    def find_active_by_key(self, kind: Kind, key: str) -> MemoryRow | None:
        """The active memory of this kind with this normalized key."""
        ...

    def update_memory(self, memory_id: int, now: float, **changes: Any) -> MemoryRow | None:
        """Change columns of one memory (text, key, type, confidence, status, ...)."""
        ...

    def supersede(self, old_id: int, new_id: int, now: float) -> None:
        """Mark ``old_id`` superseded by ``new_id``."""
        ...

    def reinforce(self, memory_id: int, now: float, confidence: float) -> MemoryRow | None:
        """Count one more mention: reinforcement_count + 1, confidence raised to at least this."""
        ...

    def touch_memories(self, memory_ids: Sequence[int], now: float, boost: float) -> None:
        """Record an access; boost confidence only for rows last accessed over an hour ago."""
        ...

    def delete_memories(self, memory_ids: Sequence[int]) -> int:
        """Delete rows for good (text included) and return how many went."""
        ...

    def search_memories(
        self,
        terms: Sequence[str],
        *,
        kinds: Sequence[Kind] = KINDS,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 10,
        match_all: bool = False,
    ) -> list[tuple[MemoryRow, float]]:
        """Active memories matching any (or all) terms, best BM25 first, score higher = better."""
        ...

    # summaries
    def insert_summary(self, summary: NewSummary, now: float) -> SummaryRow:
        """Insert a conversation summary."""
        ...

    def list_summaries(
        self,
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[SummaryRow]:
        """Summaries, newest first."""
        ...

    def search_summaries(
        self,
        terms: Sequence[str],
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 10,
    ) -> list[tuple[SummaryRow, float]]:
        """Summaries matching any term in text or topics, best first."""
        ...

    def delete_summaries(self, summary_ids: Sequence[int]) -> int:
        """Delete summaries for good."""
        ...

    def count_summaries(self) -> int:
        """How many summaries this user has."""
        ...

    # base memory, confirmations, audit
    def get_base_memory(self) -> tuple[str, float] | None:
        """The base memory document and when it was written."""
        ...

    def set_base_memory(self, text: str, now: float) -> None:
        """Replace the base memory document ('' removes it)."""
        ...

    def set_pending(self, action: str, expires_at: float) -> None:
        """Remember that ``action`` awaits the user's confirmation."""
        ...

    def take_pending(self, now: float) -> str | None:
        """Remove and return the pending action if it has not expired."""
        ...

    def audit(
        self,
        action: str,
        now: float,
        *,
        target_kind: str = "",
        target_id: int | None = None,
        reason: str = "",
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Append to this user's audit trail."""
        ...

    def list_audit(self, limit: int = 100) -> list[AuditEntry]:
        """This user's audit trail, newest first."""
        ...

    def delete_everything(self) -> dict[str, int]:
        """Delete every memory, summary, conversation and the base memory; return counts."""
        ...


class Store(Protocol):
    """A database holding many users' memories."""

    def close(self) -> None:
        """Release connections."""
        ...

    def scope(self, user_id: int) -> UserStore:
        """A view of the store bound to one user."""
        ...

    def add_user(self, name: str, now: float, *, display_name: str = "", is_admin: bool = False) -> User:
        """Create a user; Conflict if the name is taken."""
        ...

    def get_user(self, name: str) -> User | None:
        """The user with this name."""
        ...

    def list_users(self) -> list[User]:
        """All users, by name."""
        ...

    def delete_user(self, user_id: int) -> None:
        """Remove a user and everything kept about them."""
        ...

    def map_interface(self, interface: str, user_id: int | None, now: float) -> None:
        """Map a voice interface to a user (None removes the mapping)."""
        ...

    def interface_user(self, interface: str) -> int | None:
        """The user an interface is mapped to in the database."""
        ...

    def schema_version(self) -> int:
        """The newest migration applied."""
        ...

    def database_size(self) -> int:
        """Bytes the database occupies."""
        ...


def iter_batches(items: Sequence[int], size: int = 500) -> Iterator[Sequence[int]]:
    """Split ids into chunks that fit in one statement."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


__all__ = [
    "KINDS",
    "SOURCES",
    "STATUSES",
    "AuditEntry",
    "Kind",
    "MemoryFilter",
    "MemoryRow",
    "NewMemory",
    "NewSummary",
    "Source",
    "Status",
    "Store",
    "SummaryRow",
    "User",
    "UserStore",
    "iter_batches",
]
