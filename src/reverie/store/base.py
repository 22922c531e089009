"""The storage interface every engine implements (the rows it speaks in are in :mod:`rows`).

A :class:`Store` knows users and interface mappings; everything else goes through a
:class:`UserStore` obtained from ``store.scope(user_id)``, which is bound to one user and
has no way to name another: every statement an engine runs for it carries that user's id.
Keyword queries arrive as plain terms; how they become FTS5 or tsquery syntax is the
engine's business. The row types are re-exported here, where the layers above import them.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from reverie.store.rows import (
    KINDS,
    SOURCES,
    STATUSES,
    AuditEntry,
    ChunkRow,
    ConversationRow,
    DecayRates,
    DocumentFile,
    DocumentRow,
    DocumentStatus,
    Kind,
    MemoryFilter,
    MemoryRow,
    MessageRow,
    NewChunk,
    NewMemory,
    NewSummary,
    PruneReport,
    SessionRow,
    Source,
    Status,
    SummaryRow,
    TokenRow,
    TopicIndexRow,
    TopicRow,
    User,
    VectorChanges,
    VectorKind,
)
from reverie.store.user_store import UserStore


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


__all__ = [
    "KINDS",
    "SOURCES",
    "STATUSES",
    "AccountStore",
    "AuditEntry",
    "ChunkRow",
    "ConversationRow",
    "DecayRates",
    "DocumentClaims",
    "DocumentFile",
    "DocumentRow",
    "DocumentStatus",
    "DocumentStore",
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
    "Store",
    "SummaryRow",
    "TokenRow",
    "TopicIndexRow",
    "TopicRow",
    "User",
    "UserStore",
    "VectorChanges",
    "VectorKind",
]
