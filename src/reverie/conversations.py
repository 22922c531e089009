"""Conversations and their turns, and re-embedding: the episodic half of :class:`reverie.Memory`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import tzinfo
from typing import TYPE_CHECKING

from reverie.embed.service import to_blob
from reverie.errors import InvalidInput, NotFound
from reverie.extract.merge import embed_or_none, store_vector
from reverie.retrieve.episodes import message_index_text
from reverie.store.base import VectorKind

if TYPE_CHECKING:
    from reverie.embed.service import EmbeddingService
    from reverie.retrieve.hybrid import Semantic
    from reverie.store.base import ConversationRow, MessageRow, UserStore

ROLES = ("user", "assistant", "system", "tool")
MAX_MESSAGE_BYTES = 64 * 1024
REINDEX_BATCH = 64
VECTOR_KINDS: tuple[VectorKind, ...] = ("memory", "summary", "message")


class Conversations:
    """Conversation methods mixed into Memory (which provides the attributes below)."""

    clock: Callable[[], float]
    tz: tzinfo
    semantic: Semantic | None

    @property
    def scope(self) -> UserStore:  # provided by Memory
        raise NotImplementedError

    @property
    def embeddings(self) -> EmbeddingService | None:  # provided by Memory
        raise NotImplementedError

    def start_conversation(
        self, interface: str = "api", *, private: bool = False, at: float | None = None
    ) -> ConversationRow:
        """Open a conversation (a session) on an interface."""
        return self.scope.start_conversation(
            interface, self.clock() if at is None else at, is_private=private
        )

    def conversation(self, conversation_id: int) -> ConversationRow:
        """One of the user's conversations (NotFound otherwise)."""
        found = self.scope.get_conversation(conversation_id)
        if found is None:
            raise NotFound(f"No conversation with id {conversation_id}")
        return found

    def add_message(
        self,
        conversation: int | ConversationRow,
        role: str,
        content: str,
        *,
        at: float | None = None,
        speaker: str | None = None,
        ref: str | None = None,
    ) -> MessageRow:
        """Store one turn; it becomes searchable (keywords and meaning) at once."""
        conversation_id = conversation if isinstance(conversation, int) else conversation.id
        if role not in ROLES:
            raise InvalidInput(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        try:
            size = len(content.encode("utf-8"))
        except UnicodeEncodeError as exc:
            raise InvalidInput("The message is not valid Unicode (lone surrogates)") from exc
        if size > MAX_MESSAGE_BYTES:
            raise InvalidInput(f"The message is {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
        if speaker is not None and (not speaker.strip() or len(speaker) > 100):
            raise InvalidInput("speaker must be a name of 1-100 characters")
        scope, when = self.scope, self.clock() if at is None else at
        index_text = message_index_text(content, when, self.tz, speaker, role)
        service = self.embeddings
        vector = embed_or_none(service, index_text)
        with scope.transaction():
            row = scope.add_message(
                conversation_id, role, content, when, speaker=speaker, ref=ref, index_text=index_text
            )
            store_vector(scope, service, "message", row.id, vector)
        return row

    def messages(self, conversation_id: int, *, limit: int = 50) -> list[MessageRow]:
        """The last turns of a conversation, oldest first (an assistant reloads these on restart)."""
        self.conversation(conversation_id)
        return self.scope.list_messages(conversation_id, limit=limit)

    def reindex(self, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Embed every memory, summary and message that has no vector of the current model.

        Resumable: each batch is committed, so an interrupted run continues where it stopped.
        ``progress(done, total)`` is called after each batch.
        """
        service = self.embeddings
        if service is None:
            raise InvalidInput("Embeddings are off ([embeddings] enabled = false); nothing to re-index")
        scope = self.scope
        counts: dict[str, int] = {kind: 0 for kind in VECTOR_KINDS}
        totals = {kind: scope.count_vectors(kind, service.model_id) for kind in VECTOR_KINDS}
        total = sum(all_ for _, all_ in totals.values())
        done = sum(have for have, _ in totals.values())
        for kind in VECTOR_KINDS:
            while batch := scope.missing_vectors(kind, service.model_id, REINDEX_BATCH):
                vectors = service.embed([text for _, text in batch])
                scope.put_vectors(
                    kind,
                    [(item_id, to_blob(v)) for (item_id, _), v in zip(batch, vectors, strict=True)],
                    service.model_id,
                    service.dimensions,
                )
                counts[kind] += len(batch)
                done += len(batch)
                if progress is not None:
                    progress(done, total)
        return counts


__all__ = ["MAX_MESSAGE_BYTES", "ROLES", "Conversations"]
