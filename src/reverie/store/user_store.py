"""The interface of one user's view of a store: what ``store.scope(user_id)`` returns on every engine."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from reverie.store.rows import (
    KINDS,
    AuditEntry,
    ConversationRow,
    DecayRates,
    Kind,
    MemoryFilter,
    MemoryRow,
    MessageRow,
    NewMemory,
    NewSummary,
    PruneReport,
    SummaryRow,
    TopicIndexRow,
    TopicRow,
    VectorChanges,
    VectorKind,
)


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

    # preferences (store/preferences.py)
    def find_preference(self, category: str, key: str) -> MemoryRow | None:
        """The active preference with this category and key."""
        ...

    def list_preferences(
        self, categories: Sequence[str] | None = None, *, limit: int = 50
    ) -> list[MemoryRow]:
        """Active preferences (of these categories, or all), strongest first."""
        ...

    def preference_history(self, category: str, key: str) -> list[MemoryRow]:
        """Every value this preference had (active and superseded), oldest first."""
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


__all__ = ["UserStore"]
