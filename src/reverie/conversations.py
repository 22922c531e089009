"""Conversations and their turns, and re-embedding: the episodic half of :class:`reverie.Memory`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from typing import TYPE_CHECKING

from reverie.embed.service import to_blob
from reverie.errors import InvalidInput, NotFound
from reverie.extract.merge import embed_all_or_none, store_vector
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


@dataclass(frozen=True)
class Turn:
    """One turn to add: role, content, and optionally its time, speaker and external reference."""

    role: str
    content: str
    at: float | None = None
    speaker: str | None = None
    ref: str | None = None


def _check_turn(turn: Turn) -> int:
    """Validate a turn; return its size in bytes."""
    if turn.role not in ROLES:
        raise InvalidInput(f"role must be one of {', '.join(ROLES)}, got {turn.role!r}")
    try:
        size = len(turn.content.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidInput("The message is not valid Unicode (lone surrogates)") from exc
    if size > MAX_MESSAGE_BYTES:
        raise InvalidInput(f"The message is {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
    if turn.speaker is not None and (not turn.speaker.strip() or len(turn.speaker) > 100):
        raise InvalidInput("speaker must be a name of 1-100 characters")
    return size


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
        return self.add_messages(conversation, [Turn(role, content, at, speaker, ref)])[0]

    def add_messages(self, conversation: int | ConversationRow, turns: Sequence[Turn]) -> list[MessageRow]:
        """Store several turns at once (one embedding batch, one transaction), e.g. an imported transcript."""
        conversation_id = conversation if isinstance(conversation, int) else conversation.id
        now = self.clock()
        prepared = [(turn, _check_turn(turn), now if turn.at is None else turn.at) for turn in turns]
        texts = [message_index_text(t.content, when, self.tz, t.speaker, t.role) for t, _, when in prepared]
        service = self.embeddings
        vectors = embed_all_or_none(service, texts)
        scope = self.scope
        rows = []
        with scope.transaction():
            for index, (turn, _, when) in enumerate(prepared):
                row = scope.add_message(
                    conversation_id,
                    turn.role,
                    turn.content,
                    when,
                    speaker=turn.speaker,
                    ref=turn.ref,
                    index_text=texts[index],
                )
                store_vector(scope, service, "message", row.id, None if vectors is None else vectors[index])
                rows.append(row)
        return rows

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


__all__ = ["MAX_MESSAGE_BYTES", "ROLES", "Conversations", "Turn"]
