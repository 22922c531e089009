"""Conversations and their turns, and re-embedding: the episodic half of :class:`reverie.Memory`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from typing import TYPE_CHECKING

from reverie.embed.service import to_blob
from reverie.errors import InvalidInput, NotFound
from reverie.extract.merge import embed_all_or_none, store_vector
from reverie.retrieve.episodes import turn_line, turn_vector_text, window_keyword_text, window_vector_text
from reverie.store.base import MessageRow, VectorKind

if TYPE_CHECKING:
    from reverie.embed.service import EmbeddingService
    from reverie.retrieve.hybrid import Semantic
    from reverie.store.base import ConversationRow, UserStore

ROLES = ("user", "assistant", "system", "tool")
MAX_MESSAGE_BYTES = 64 * 1024
REINDEX_BATCH = 64
VECTOR_KINDS: tuple[VectorKind, ...] = ("memory", "summary", "message", "message_window")


@dataclass(frozen=True)
class Turn:
    """One turn to add: role, content, and optionally its time, speaker and external reference."""

    role: str
    content: str
    at: float | None = None
    speaker: str | None = None
    ref: str | None = None


def _check_turn(turn: Turn) -> None:
    """Refuse a turn with an unknown role, bad text, too many bytes or an odd speaker."""
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
        """Store several turns at once (one embedding batch, one transaction), e.g. an imported transcript.

        Each turn is indexed with its window (see :mod:`reverie.retrieve.episodes`); the window
        vector of the turn before the first new one is refreshed, since it now has a next turn.
        """
        conversation_id = conversation if isinstance(conversation, int) else conversation.id
        self.conversation(conversation_id)
        now = self.clock()
        for turn in turns:
            _check_turn(turn)
        scope = self.scope
        prior = scope.list_messages(conversation_id, limit=2)
        pending = [
            MessageRow(0, conversation_id, t.role, t.content, t.speaker, t.ref, now if t.at is None else t.at)
            for t in turns
        ]
        seq = [*prior, *pending]
        offset = len(prior)

        def neighbours(position: int) -> tuple[MessageRow | None, MessageRow | None]:
            before = seq[position - 1] if position > 0 else None
            after = seq[position + 1] if position + 1 < len(seq) else None
            return before, after

        texts = [turn_vector_text(row, self.tz) for row in pending]
        texts += [
            window_vector_text(*_around(neighbours(offset + i), row), self.tz)
            for i, row in enumerate(pending)
        ]
        if prior and pending:
            texts.append(window_vector_text(*_around(neighbours(offset - 1), prior[-1]), self.tz))
        service = self.embeddings
        vectors = embed_all_or_none(service, texts)
        count = len(pending)
        rows = []
        with scope.transaction():
            for i, draft in enumerate(pending):
                before, _ = neighbours(offset + i)
                row = scope.add_message(
                    conversation_id,
                    draft.role,
                    draft.content,
                    draft.created_at,
                    speaker=draft.speaker,
                    ref=draft.ref,
                    index_text=turn_line(draft.content, draft.speaker, draft.role),
                    window_text=window_keyword_text(before, draft),
                )
                seq[offset + i] = row
                if vectors is not None:
                    store_vector(scope, service, "message", row.id, vectors[i])
                    store_vector(scope, service, "message_window", row.id, vectors[count + i])
                rows.append(row)
            if vectors is not None and prior and pending:
                store_vector(scope, service, "message_window", prior[-1].id, vectors[2 * count])
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
        service.resume()
        scope = self.scope
        counts: dict[str, int] = {kind: 0 for kind in VECTOR_KINDS}
        totals = {kind: scope.count_vectors(kind, service.model_id) for kind in VECTOR_KINDS}
        total = sum(all_ for _, all_ in totals.values())
        done = sum(have for have, _ in totals.values())
        for kind in VECTOR_KINDS:
            while batch := scope.missing_vectors(kind, service.model_id, REINDEX_BATCH):
                vectors = service.embed(self._vector_texts(kind, batch))
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

    def _vector_texts(self, kind: VectorKind, batch: list[tuple[int, str]]) -> list[str]:
        """What is embedded for each item; messages are dated and windowed as in add_messages."""
        if kind in ("memory", "summary"):
            return [text for _, text in batch]
        scope = self.scope
        rows = {row.id: row for row in scope.get_messages([item_id for item_id, _ in batch])}
        if kind == "message":
            return [turn_vector_text(rows[item_id], self.tz) for item_id, _ in batch]
        return [
            window_vector_text(*_around(scope.message_neighbours(item_id), rows[item_id]), self.tz)
            for item_id, _ in batch
        ]


def _around(
    pair: tuple[MessageRow | None, MessageRow | None], row: MessageRow
) -> tuple[MessageRow | None, MessageRow, MessageRow | None]:
    return pair[0], row, pair[1]


__all__ = ["MAX_MESSAGE_BYTES", "ROLES", "Conversations", "Turn"]
