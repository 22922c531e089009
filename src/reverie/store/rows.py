"""The rows the store speaks in: what the engines read and write, as plain dataclasses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["fact", "preference"]
VectorKind = Literal["memory", "summary", "message", "message_window"]
Source = Literal["explicit", "inferred"]
Status = Literal["active", "superseded", "deleted"]

KINDS: tuple[Kind, ...] = ("fact", "preference")
SOURCES: tuple[Source, ...] = ("explicit", "inferred")
STATUSES: tuple[Status, ...] = ("active", "superseded", "deleted")
CONSOLIDATION_STATES = ("open", "pending", "running", "done", "failed", "skipped")  # a conversation's


@dataclass(frozen=True)
class User:
    """A person whose memories Reverie keeps."""

    id: int
    name: str
    display_name: str
    is_admin: bool
    created_at: float
    kind: str = "person"  # person, or thread: a conversation whose person is not known yet
    label: str = ""


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
    sensitive: bool = False  # personal-sensitive (health, finances, identity numbers)
    category: str | None = None  # a preference's category (lights, climate, global); None for a fact
    scope: str = "default"  # a preference's scope (Saga): default, specific or always
    source_message_id: int | None = None  # the user turn it was learnt from (mem.db)


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
    sensitive: bool = False
    category: str | None = None
    scope: str = "default"
    source_message_id: int | None = None


@dataclass(frozen=True)
class VectorChanges:
    """What a vector cache needs to catch up with one kind of a user's vectors.

    ``complete``: ``rows`` is every loadable vector (the mark was unknown, ahead of the store or
    older than the pruned change log). Otherwise ``changed`` lists the items whose vector or
    loadability changed since the mark and ``rows`` their current loadable vectors; the others
    are no longer loadable. ``own``: this includes the caller's uncommitted writes, so the same
    items must be fetched again after the transaction ends (it may roll back).
    """

    version: int
    complete: bool
    changed: list[int]
    rows: list[tuple[int, bytes]]
    own: bool = False


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
    duration_seconds: float = 0.0


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
    duration_seconds: float = 0.0


@dataclass(frozen=True)
class ConversationRow:
    """One conversation (a session) of a user on an interface."""

    id: int
    interface: str
    title: str
    started_at: float
    last_activity: float
    ended_at: float | None
    is_private: bool
    consolidation_state: str
    attempts: int
    last_error: str | None


@dataclass(frozen=True)
class MessageRow:
    """One turn of a conversation."""

    id: int
    conversation_id: int
    role: str
    content: str
    speaker: str | None
    ref: str | None
    created_at: float
    intent: str | None = None  # a user turn's, as the per-exchange gate read it (mem.db)
    memory_created: bool = False  # a memory was stored from this user turn


@dataclass(frozen=True)
class DecayRates:
    """Weekly decay rates and floors (``[memory.decay]``)."""

    explicit_rate: float = 0.98
    explicit_floor: float = 0.50
    inferred_rate: float = 0.95
    inferred_floor: float = 0.0
    preference_rate: float = 0.97
    preference_floor: float = 0.40


@dataclass(frozen=True)
class PruneReport:
    """What one user's pruning deleted."""

    low_confidence: int = 0
    superseded: int = 0
    summaries: int = 0
    audit_trimmed: int = 0


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


DocumentStatus = Literal["pending", "indexed", "skipped", "excluded"]


@dataclass(frozen=True)
class DocumentRow:
    """One file of the knowledge base and how its indexing went."""

    id: int
    owner_id: int | None  # None: household-wide (every user may search it)
    path: str
    file_name: str
    file_type: str
    file_hash: str
    size_bytes: int
    pages: int | None
    status: DocumentStatus
    reason: str
    chunk_count: int
    token_count: int
    model_id: str
    indexed_at: float | None
    updated_at: float


@dataclass(frozen=True)
class DocumentFile:
    """What a scan knows about a file before (re)indexing it."""

    path: str
    file_name: str
    file_type: str
    file_hash: str
    size_bytes: int
    pages: int | None = None
    owner_id: int | None = None


@dataclass(frozen=True)
class NewChunk:
    """A chunk ready to store, its vector already computed (None without embeddings)."""

    index: int
    text: str
    heading: str
    title: str
    page: int | None
    token_count: int
    embedding: bytes | None = None


@dataclass(frozen=True)
class ChunkRow:
    """A stored chunk with the file it came from."""

    id: int
    document_id: int
    index: int
    text: str
    heading: str
    page: int | None
    token_count: int
    file_name: str
    path: str


@dataclass(frozen=True)
class TokenRow:
    """An API token as kept: never the secret, only its hash and first characters."""

    id: int
    user_id: int
    interface: str | None
    name: str
    prefix: str
    created_at: float
    last_used_at: float | None
    revoked_at: float | None


@dataclass(frozen=True)
class SessionRow:
    """A signed-in browser session."""

    user_id: int
    csrf_token: str
    created_at: float
    expires_at: float


@dataclass(frozen=True)
class TopicRow:
    """A topic of one user: its file's slug and title, and how the last read of the file went."""

    id: int
    slug: str
    title: str
    line_count: int
    file_hash: str
    error: str
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class TopicIndexRow:
    """One line of the recent-topics index: a session, its topic ('' if none) and a summary."""

    id: int
    conversation_id: int | None
    at: float
    topic: str
    summary: str


__all__ = [
    "CONSOLIDATION_STATES",
    "KINDS",
    "SOURCES",
    "STATUSES",
    "AuditEntry",
    "ChunkRow",
    "ConversationRow",
    "DecayRates",
    "DocumentFile",
    "DocumentRow",
    "DocumentStatus",
    "Kind",
    "MemoryFilter",
    "MemoryRow",
    "MessageRow",
    "NewChunk",
    "NewMemory",
    "NewSummary",
    "PruneReport",
    "SessionRow",
    "Source",
    "Status",
    "SummaryRow",
    "TokenRow",
    "TopicIndexRow",
    "TopicRow",
    "User",
    "VectorChanges",
    "VectorKind",
]
