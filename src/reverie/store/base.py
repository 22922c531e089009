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
from typing import Any, Literal, Protocol, runtime_checkable

Kind = Literal["fact", "preference"]
VectorKind = Literal["memory", "summary", "message", "message_window"]
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
        min_match: int | None = None,
    ) -> list[tuple[MemoryRow, float]]:
        """Active memories matching any term (or ``min_match`` of them), best BM25 first."""
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

    def get_memories(self, memory_ids: Sequence[int]) -> list[MemoryRow]:
        """The memories with these ids that belong to this user (any order)."""
        ...

    def get_summaries(self, summary_ids: Sequence[int]) -> list[SummaryRow]:
        """The summaries with these ids that belong to this user."""
        ...

    # conversations and messages
    def start_conversation(self, interface: str, now: float, *, is_private: bool = False) -> ConversationRow:
        """Open a new conversation."""
        ...

    def get_conversation(self, conversation_id: int) -> ConversationRow | None:
        """One of this user's conversations."""
        ...

    def end_conversation(self, conversation_id: int, now: float) -> ConversationRow | None:
        """Close an open conversation and queue it (private ones are skipped)."""
        ...

    def set_private(self, conversation_id: int, private: bool) -> ConversationRow | None:
        """Mark a conversation private or not."""
        ...

    def list_conversations(self, *, limit: int = 50, offset: int = 0) -> list[ConversationRow]:
        """Conversations, most recently active first."""
        ...

    def open_conversations(self, interface: str | None = None) -> list[ConversationRow]:
        """Conversations not ended yet, most recent first."""
        ...

    def unsummarized_messages(self, limit: int = 10_000) -> list[MessageRow]:
        """Turns not yet folded into a summary, oldest first."""
        ...

    def mark_summarized(self, message_ids: Sequence[int]) -> None:
        """Record that these turns are covered by a summary."""
        ...

    def unincorporated_summaries(self) -> list[SummaryRow]:
        """Summaries not yet distilled into the base memory, oldest first."""
        ...

    def mark_incorporated(self, summary_ids: Sequence[int]) -> None:
        """Record that these summaries are part of the base memory."""
        ...

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        now: float,
        *,
        speaker: str | None = None,
        ref: str | None = None,
        index_text: str | None = None,
        window_text: str | None = None,
    ) -> MessageRow:
        """Append a turn; ``index_text`` and ``window_text`` are what keyword search sees."""
        ...

    def list_messages(self, conversation_id: int, *, limit: int = 50) -> list[MessageRow]:
        """The last ``limit`` turns of a conversation, oldest first."""
        ...

    def get_messages(self, message_ids: Sequence[int]) -> list[MessageRow]:
        """The messages with these ids that belong to this user."""
        ...

    def search_messages(
        self,
        terms: Sequence[str],
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 10,
        windows: bool = False,
    ) -> list[tuple[MessageRow, float]]:
        """Messages (or, with ``windows``, their windows) matching any term, best BM25 first."""
        ...

    def message_neighbours(self, message_id: int) -> tuple[MessageRow | None, MessageRow | None]:
        """The turns just before and just after one message in its conversation."""
        ...

    def message_speakers(self) -> list[str]:
        """The distinct speaker names in this user's conversations."""
        ...

    # vectors
    def put_vectors(
        self, kind: VectorKind, items: Sequence[tuple[int, bytes]], model_id: str, dims: int
    ) -> None:
        """Store (or replace) the vector of each item; items are (id, float32 bytes)."""
        ...

    def load_vectors(
        self, kind: VectorKind, model_id: str, after: int = 0
    ) -> tuple[list[tuple[int, bytes]], int]:
        """Vectors of one model written after the mark ``after`` (active memories, public turns); new mark."""
        ...

    def count_loadable(self, kind: VectorKind, model_id: str) -> int:
        """How many vectors load_vectors returns in all."""
        ...

    def vectors_version(self) -> int:
        """A number that changes whenever this user's searchable vectors change."""
        ...

    def vector_changes(
        self, kind: VectorKind, model_id: str, after: int | None, also: Sequence[int] = ()
    ) -> VectorChanges:
        """Changes of one kind's loadable vectors since version ``after`` (None: load all), plus ``also``."""
        ...

    def prune_vector_changes(self, keep: int) -> int:
        """Forget the change log but for its last ``keep`` versions; how many rows went."""
        ...

    def missing_vectors(self, kind: VectorKind, model_id: str, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` (id, text) items with no vector of this model yet (messages: content)."""
        ...

    def count_vectors(self, kind: VectorKind, model_id: str) -> tuple[int, int]:
        """(items with a vector of this model, items in all) for one kind."""
        ...

    # relevant memories accumulated during a conversation
    def add_relevant(self, conversation_id: int, memory_ids: Sequence[int], now: float) -> None:
        """Remember that these memories were relevant in this conversation."""
        ...

    def list_relevant(self, conversation_id: int) -> list[int]:
        """Memories found relevant so far in this conversation, earliest first."""
        ...

    # topics (Rostro) ---------------------------------------------------------------
    def list_topics(self) -> list[TopicRow]:
        """The user's topics, by slug."""
        ...

    def get_topic(self, slug: str) -> TopicRow | None:
        """One topic."""
        ...

    def save_topic(
        self, slug: str, title: str, now: float, *, line_count: int, file_hash: str, error: str = ""
    ) -> TopicRow:
        """Create or update a topic row."""
        ...

    def delete_topic(self, slug: str) -> bool:
        """Forget a topic (its memories stay, untagged)."""
        ...

    def topic_memory_ids(self, topic_id: int) -> list[int]:
        """Ids of the memories that are the topic's lines."""
        ...

    def tag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Tag memories with a topic."""
        ...

    def untag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Remove the topic tag from memories."""
        ...

    def set_conversation_topic(self, conversation_id: int, slug: str | None) -> None:
        """Record the topic a conversation was found to be about."""
        ...

    def conversation_topic(self, conversation_id: int) -> str | None:
        """The topic a conversation was found to be about."""
        ...

    def add_topic_index(
        self, conversation_id: int | None, at: float, topic: str, summary: str, *, keep: int
    ) -> None:
        """Add a line to the recent-topics index, keeping only the newest ``keep``."""
        ...

    def list_topic_index(self, limit: int = 20) -> list[TopicIndexRow]:
        """The recent-topics index, newest first."""
        ...

    def rename_topic_in_index(self, old: str, new: str) -> None:
        """Point index lines of one topic at another (after a split)."""
        ...

    # working state (Saga's active context) --------------------------------------------
    def get_working_state(self, conversation_id: int) -> str | None:
        """A conversation's working state (JSON text), if any."""
        ...

    def put_working_state(self, conversation_id: int, state: str, now: float) -> None:
        """Replace a conversation's working state (JSON text)."""
        ...

    def delete_everything(self) -> dict[str, int]:
        """Delete every memory, summary, conversation and the base memory; return counts."""
        ...

    # nightly maintenance
    def decay(self, now: float, rates: DecayRates) -> int:
        """Set each active fact's and preference's confidence from the time since it was last used."""
        ...

    def prune(
        self,
        now: float,
        *,
        threshold: float,
        superseded_before: float,
        summaries_before: float,
        audit_before: float,
    ) -> PruneReport:
        """Delete low-confidence, old superseded and old summarized items (audited); trim the audit."""
        ...


class DocumentStore(Protocol):
    """The knowledge base's files and chunks; household-wide, so not bound to a user."""

    def list_documents(self) -> list[DocumentRow]:
        """Every document, by path."""
        ...

    def get_document(self, document_id: int) -> DocumentRow | None:
        """One document."""
        ...

    def document_by_path(self, path: str, owner_id: int | None = None) -> DocumentRow | None:
        """The document kept for a path."""
        ...

    def save_document(
        self,
        file: DocumentFile,
        *,
        status: DocumentStatus,
        reason: str,
        chunks: Sequence[NewChunk],
        model_id: str,
        now: float,
    ) -> DocumentRow:
        """Create or update a document and replace all its chunks in one transaction."""
        ...

    def delete_document(self, document_id: int) -> bool:
        """Remove a document and its chunks; False if there was none."""
        ...

    def search_chunks(self, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Chunks matching any term, (id, BM25 score) best first."""
        ...

    def get_chunks(self, chunk_ids: Sequence[int]) -> list[ChunkRow]:
        """Chunks by id, with their file (any order)."""
        ...

    def chunk_vectors(self, model_id: str) -> tuple[list[int], list[bytes]]:
        """Ids (ascending) and vectors of every chunk embedded by this model."""
        ...

    def documents_version(self) -> int:
        """A number that changes whenever chunks change."""
        ...

    def document_totals(self) -> dict[str, Any]:
        """documents, indexed, skipped, excluded, chunks, tokens and last_indexed."""
        ...


@runtime_checkable
class DocumentClaims(Protocol):
    """Optional: engines shared by several processes let one of them index a file at a time."""

    def claim_document(self, path: str) -> bool:
        """Take the indexing of one file; False while another process is indexing it."""
        ...

    def release_document(self, path: str) -> None:
        """Give a claimed file back (its indexing is over, or failed)."""
        ...


class AccountStore(Protocol):
    """Passwords, API tokens and web sessions; every statement names the user it concerns."""

    def get_user_by_id(self, user_id: int) -> User | None:
        """The user with this id."""
        ...

    def set_admin(self, user_id: int, is_admin: bool) -> None:
        """Grant or take away the admin role."""
        ...

    def count_admins(self) -> int:
        """How many users are admins."""
        ...

    def set_password_hash(self, user_id: int, password_hash: str | None) -> None:
        """Store a user's password hash (None removes the password)."""
        ...

    def password_hash(self, user_id: int) -> str | None:
        """A user's password hash, if they have one."""
        ...

    def add_token(
        self, user_id: int, *, name: str, token_hash: str, prefix: str, interface: str | None, now: float
    ) -> TokenRow:
        """Keep a new token of a user."""
        ...

    def list_tokens(self, user_id: int) -> list[TokenRow]:
        """A user's tokens, newest first (revoked ones included)."""
        ...

    def revoke_token(self, user_id: int, token_id: int, now: float) -> TokenRow | None:
        """Revoke one of the user's tokens; None if the user has no such token."""
        ...

    def token_by_hash(self, token_hash: str) -> TokenRow | None:
        """The token with this hash (revoked or not)."""
        ...

    def touch_token(self, token_id: int, now: float) -> None:
        """Record that a token was used."""
        ...

    def add_session(self, id_hash: str, user_id: int, csrf_token: str, now: float, expires_at: float) -> None:
        """Keep a new web session."""
        ...

    def get_session(self, id_hash: str, now: float) -> SessionRow | None:
        """A session that has not expired."""
        ...

    def delete_session(self, id_hash: str) -> None:
        """End a session."""
        ...

    def delete_sessions(self, user_id: int, now: float) -> int:
        """End every session of a user (after a password change) and drop expired ones."""
        ...


class Store(DocumentStore, AccountStore, Protocol):
    """A database holding many users' memories."""

    def close(self) -> None:
        """Release connections."""
        ...

    def scope(self, user_id: int) -> UserStore:
        """A view of the store bound to one user."""
        ...

    def transaction(self) -> AbstractContextManager[Any]:
        """One write transaction of this thread, spanning users (nested calls join it)."""
        ...

    def add_user(self, name: str, now: float, *, display_name: str = "", is_admin: bool = False) -> User:
        """Create a user; Conflict if the name is taken."""
        ...

    def get_user(self, name: str) -> User | None:
        """The user with this name."""
        ...

    def list_users(self) -> list[User]:
        """All users (people, not threads), by name."""
        ...

    def add_thread(self, name: str, label: str, now: float) -> User:
        """Create the owner of a thread's memories."""
        ...

    def list_threads(self) -> list[User]:
        """Threads not merged into a user yet, newest first."""
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

    def list_interfaces(self) -> list[tuple[str, int]]:
        """Every interface mapped in the database, with its user's id."""
        ...

    def schema_version(self) -> int:
        """The newest migration applied."""
        ...

    def database_size(self) -> int:
        """Bytes the database occupies."""
        ...

    # the consolidation queue spans users
    def expire_conversations(self, now: float, idle_seconds: float) -> int:
        """End and queue every open conversation idle for longer than ``idle_seconds``."""
        ...

    def claim_consolidation(
        self, now: float, worker: str, lease_seconds: float, max_attempts: int
    ) -> tuple[int, int] | None:
        """Take the next due conversation under a lease: (user id, conversation id)."""
        ...

    def complete_consolidation(
        self, conversation_id: int, worker: str, now: float, state: str = "done"
    ) -> bool:
        """Mark a claimed job finished; False if the lease was lost to another worker."""
        ...

    def fail_consolidation(self, conversation_id: int, worker: str, error: str, retry_at: float) -> None:
        """Record a failed attempt and when to retry."""
        ...

    def reschedule_failed(self, now: float) -> int:
        """Make every failed consolidation due now, attempts reset."""
        ...

    def release_consolidation(self, conversation_id: int, worker: str) -> bool:
        """Give a claimed job back to the queue without counting the attempt; False if not ours."""
        ...

    def consolidation_counts(self) -> dict[str, int]:
        """Conversations per consolidation state."""
        ...

    def claim_maintenance(self, now: float, worker: str, min_gap_seconds: float) -> int | None:
        """Start a maintenance run unless one started less than ``min_gap_seconds`` ago; its id."""
        ...

    def finish_maintenance(self, run_id: int, now: float, status: str, totals: dict[str, int]) -> None:
        """Record how a maintenance run ended."""
        ...

    def last_maintenance(self) -> tuple[float, str] | None:
        """When the latest maintenance run started, and its status."""
        ...

    # the embedding cache is shared by all users: it maps text hashes to vectors
    def cache_get(self, model_id: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """Cached vectors of this model for these content hashes."""
        ...

    def cache_put(self, model_id: str, dims: int, items: Sequence[tuple[str, bytes]], now: float) -> None:
        """Add vectors to the cache."""
        ...

    def cache_prune(self, max_entries: int) -> int:
        """Drop the oldest entries beyond ``max_entries``; return how many went."""
        ...

    def cache_record(self, model_id: str, hits: int, misses: int) -> None:
        """Add to the hit and miss counters of a model."""
        ...

    def cache_stats(self) -> dict[str, int]:
        """entries, hits and misses over all models."""
        ...


def iter_batches(items: Sequence[int], size: int = 500) -> Iterator[Sequence[int]]:
    """Split ids into chunks that fit in one statement."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


__all__ = [
    "KINDS",
    "SOURCES",
    "STATUSES",
    "AccountStore",
    "AuditEntry",
    "ChunkRow",
    "DocumentClaims",
    "DocumentFile",
    "DocumentRow",
    "DocumentStatus",
    "DocumentStore",
    "NewChunk",
    "DecayRates",
    "PruneReport",
    "ConversationRow",
    "MessageRow",
    "VectorChanges",
    "VectorKind",
    "Kind",
    "MemoryFilter",
    "MemoryRow",
    "NewMemory",
    "NewSummary",
    "Source",
    "Status",
    "SessionRow",
    "Store",
    "SummaryRow",
    "TopicIndexRow",
    "TopicRow",
    "TokenRow",
    "User",
    "UserStore",
    "iter_batches",
]
