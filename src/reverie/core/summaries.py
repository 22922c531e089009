"""Conversation summaries and the base memory (the distilled profile) of one user."""

from __future__ import annotations

from reverie.conversations import check_paging
from reverie.core.parts import CoreParts
from reverie.errors import NotFound
from reverie.extract.fact_vectors import embed_or_none, store_vector
from reverie.extract.guard import ensure_memory_text
from reverie.store.base import NewSummary, SummaryRow


class Summaries(CoreParts):
    """Summary and base memory methods: a part of :class:`MemoryCore`."""

    def add_summary(
        self,
        text: str,
        *,
        topics: list[str] | None = None,
        sentiment: str = "",
        conversation_id: int | None = None,
        at: float | None = None,
        message_count: int = 0,
        duration_seconds: float = 0.0,
        first_message_id: int | None = None,
        last_message_id: int | None = None,
    ) -> SummaryRow:
        """Keep a summary of a conversation."""
        text = ensure_memory_text(text, max_bytes=4 * self.settings.memory.max_memory_bytes)
        scope, vector = self.scope, embed_or_none(self.embeddings, text)
        with scope.transaction():
            row = scope.insert_summary(
                NewSummary(
                    text=text,
                    topics=[t.strip() for t in topics or [] if t.strip()][:5],
                    sentiment=sentiment,
                    conversation_id=conversation_id,
                    created_at=at,
                    message_count=message_count,
                    first_message_id=first_message_id,
                    last_message_id=last_message_id,
                    duration_seconds=duration_seconds,
                ),
                self.clock(),
            )
            store_vector(scope, self.embeddings, "summary", row.id, vector)
        return row

    def set_base_memory(self, text: str) -> None:
        """Replace the user's base memory document (the distilled profile)."""
        text = text.strip()
        if text:
            text = ensure_memory_text(text, max_bytes=16 * self.settings.memory.max_memory_bytes)
        self.scope.set_base_memory(text, self.clock())

    def base_memory(self) -> str:
        """The user's base memory document, or ''."""
        if self.is_guest:
            return ""
        found = self.scope.get_base_memory()
        return found[0] if found else ""

    def summaries(self, *, limit: int = 50, offset: int = 0) -> list[SummaryRow]:
        """Conversation summaries, newest first."""
        check_paging(limit, offset)
        return [] if self.is_guest else self.scope.list_summaries(limit=limit, offset=offset)

    def delete_summary(self, summary_id: int) -> SummaryRow:
        """Delete one conversation summary for good and return what it was."""
        scope, now = self.scope, self.clock()
        found = scope.get_summaries([summary_id])
        if not found:
            raise NotFound(f"No summary with id {summary_id}")
        with scope.transaction():
            scope.delete_summaries([summary_id])
            scope.audit("delete", now, target_kind="summary", target_id=summary_id, reason="deleted by user")
        return found[0]


__all__ = ["Summaries"]
