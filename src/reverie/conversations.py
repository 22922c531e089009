"""Conversations and their turns, and re-embedding: the episodic half of :class:`reverie.Memory`."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import tzinfo
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from reverie.embed.service import to_blob
from reverie.errors import InvalidInput, NotFound, ReverieError, TooLarge
from reverie.extract.extraction import Extraction, extract_exchange, validate
from reverie.extract.gate import TurnReading, read_turn
from reverie.extract.merge import MergePolicy, remember_fact
from reverie.retrieve.episodes import turn_line, turn_vector_text, window_keyword_text, window_vector
from reverie.retrieve.timeutil import check_timestamp
from reverie.store.base import MessageRow, VectorKind

if TYPE_CHECKING:
    from reverie.config import Settings
    from reverie.embed.service import EmbeddingService
    from reverie.llm import ChatModel
    from reverie.retrieve.hybrid import Semantic
    from reverie.retrieve.indexer import MessageIndexer
    from reverie.store.base import ConversationRow, UserStore

log = logging.getLogger(__name__)
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


@dataclass(frozen=True)
class Recorded:
    """Turns just stored, and their conversation as it stands after them (a new one when the old was idle)."""

    conversation: ConversationRow
    messages: list[MessageRow]


MAX_OFFSET = 1_000_000_000  # paging stops here: a larger offset overflows a database integer


def check_paging(limit: int, offset: int) -> None:
    """InvalidInput unless ``limit`` is 1-100000 and ``offset`` 0-MAX_OFFSET."""
    if not 1 <= limit <= 100_000 or not 0 <= offset <= MAX_OFFSET:
        raise InvalidInput(f"limit must be 1-100000 and offset 0-{MAX_OFFSET}, got {limit} and {offset}")


def _check_turn(turn: Turn) -> None:
    """Refuse a turn with an unknown role, bad text, too many bytes or an odd speaker."""
    if turn.role not in ROLES:
        raise InvalidInput(f"role must be one of {', '.join(ROLES)}, got {turn.role!r}")
    try:
        size = len(turn.content.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidInput("The message is not valid Unicode (lone surrogates)") from exc
    if size > MAX_MESSAGE_BYTES:
        raise TooLarge(f"The message is {size} bytes; the limit is {MAX_MESSAGE_BYTES}. Send it in parts")
    if turn.speaker is not None and (not turn.speaker.strip() or len(turn.speaker) > 100):
        raise InvalidInput("speaker must be a name of 1-100 characters")
    if turn.at is not None:
        check_timestamp(turn.at, "A message's time (at)")


class BackgroundTasks:
    """One worker thread for work that must never delay a reply (per-exchange extraction)."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._pending: list[Future[None]] = []

    def submit(self, task: Callable[[], None]) -> None:
        """Run ``task`` later; expected errors are logged, never raised into the caller."""

        def guarded() -> None:
            try:
                task()
            except ReverieError as exc:
                log.warning("Background memory task failed: %s", exc)

        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reverie-background")
            self._pending = [f for f in self._pending if not f.done()]
            self._pending.append(self._pool.submit(guarded))

    def wait(self, timeout: float | None = None) -> None:
        """Block until the tasks submitted so far have run."""
        with self._lock:
            pending = list(self._pending)
        wait(pending, timeout=timeout)

    def close(self) -> None:
        """Finish queued tasks and stop the thread."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)


class Conversations:
    """Conversation methods mixed into Memory (which provides the attributes below)."""

    clock: Callable[[], float]
    tz: tzinfo
    semantic: Semantic | None
    settings: Settings
    policy: MergePolicy
    extraction_model: ChatModel | None
    background: BackgroundTasks
    indexer: MessageIndexer | None

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
        if at is not None:
            check_timestamp(at, "A conversation's start time (at)")
        return self.scope.start_conversation(
            interface, self.clock() if at is None else at, is_private=private
        )

    def current_conversation(self, interface: str = "api", *, private: bool = False) -> ConversationRow:
        """The open conversation on this interface, or a new one (an idle one is ended first)."""
        scope, now = self.scope, self.clock()
        for open_ in scope.open_conversations(interface):
            if now - open_.last_activity <= self._timeout:
                return open_
            scope.end_conversation(open_.id, open_.last_activity)
        return self.start_conversation(interface, private=private)

    def end_conversation(self, conversation_id: int) -> ConversationRow:
        """End a conversation and queue it for consolidation (private ones are skipped)."""
        self.conversation(conversation_id)
        ended = self.scope.end_conversation(conversation_id, self.clock())
        assert ended is not None
        return ended

    def set_private(self, conversation_id: int, private: bool = True) -> ConversationRow:
        """Mark a conversation private (never extracted, out of episodic search), before or during it."""
        self.conversation(conversation_id)
        changed = self.scope.set_private(conversation_id, private)
        assert changed is not None
        return changed

    def conversations(self, *, limit: int = 50, offset: int = 0) -> list[ConversationRow]:
        """The user's conversations with their consolidation state, most recent first."""
        check_paging(limit, offset)
        return self.scope.list_conversations(limit=limit, offset=offset)

    @property
    def _timeout(self) -> float:
        return self.settings.memory.session_timeout_minutes * 60.0

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
        """Store one turn: found by keywords at once, by meaning once its batch lands (see wait_indexed)."""
        return self.add_messages(conversation, [Turn(role, content, at, speaker, ref)])[0]

    def add_messages(self, conversation: int | ConversationRow, turns: Sequence[Turn]) -> list[MessageRow]:
        """Store several turns at once (one transaction), e.g. an imported transcript.

        Recording is plain inserts; each turn's vectors (the turn and its window, see
        :mod:`reverie.retrieve.episodes`) and the refreshed window of the turn before the first
        new one are computed in the background (:mod:`reverie.retrieve.indexer`).
        """
        return self.record_turns(conversation, turns).messages

    def record_turns(
        self,
        conversation: int | ConversationRow,
        turns: Sequence[Turn],
        *,
        last: Sequence[MessageRow] | None = None,
    ) -> Recorded:
        """:meth:`add_messages`, with the conversation the turns went to as it stands after them.

        ``last`` is the conversation's last turn as the caller just read it (``[]``: it has
        none), which spares reading it again. The conversation is checked and its activity
        noted by one statement; an ended or idle one is only then read, to start its successor.
        """
        conversation_id = conversation if isinstance(conversation, int) else conversation.id
        now = self.clock()
        scope = self.scope
        first_at = next((t.at for t in turns if t.at is not None), now)
        latest = max((now if t.at is None else t.at for t in turns), default=None)
        rows: list[MessageRow] = []
        readings: dict[int, TurnReading] = {}
        with scope.transaction():  # rolled back when a turn is refused: nothing is noted then
            current = scope.continue_conversation(conversation_id, first_at, latest, self._timeout)
            prior: Sequence[MessageRow] = []
            if current is None:
                current = self._successor(conversation_id, turns, first_at, latest)
            else:
                for turn in turns:
                    _check_turn(turn)
                prior = scope.list_messages(current.id, limit=1) if last is None else last[-1:]
            pending = [
                MessageRow(0, current.id, t.role, t.content, t.speaker, t.ref, now if t.at is None else t.at)
                for t in turns
            ]
            seq = [*prior, *pending]
            offset = len(prior)
            for i, draft in enumerate(pending):
                before = seq[offset + i - 1] if offset + i > 0 else None
                # What a user turn was understood as (mem.db's intent_detected), kept with it.
                reading = read_turn(draft.content) if draft.role == "user" else None
                row = scope.add_message(
                    current.id,
                    draft.role,
                    draft.content,
                    draft.created_at,
                    speaker=draft.speaker,
                    ref=draft.ref,
                    index_text=turn_line(draft.content, draft.speaker, draft.role),
                    window_text=window_keyword_text(before, draft),
                    intent=reading.intent if reading is not None else None,
                    activity=False,  # continue_conversation noted it
                )
                if reading is not None:
                    readings[row.id] = reading
                seq[offset + i] = row
                rows.append(row)
        if self.indexer is not None and rows:
            # Vectors of the turns (and the refreshed window before them) come in background batches.
            self.indexer.add(scope.user_id, [row.id for row in rows])
        user_turns = [row for row in rows if row.role == "user"]
        if user_turns and not current.is_private:
            self._detect_topic_later(current.id, user_turns[-1].content)
        if self.settings.memory.extraction.auto_extract and not current.is_private:
            for index, row in enumerate(rows):
                if row.role == "assistant":
                    before = seq[offset + index - 1] if offset + index > 0 else None
                    if before is not None and before.role == "user":
                        reading = readings.get(before.id) or read_turn(before.content)
                        self._extract_later(before, row.content, current.id, reading.learn)
        return Recorded(current, rows)

    def _successor(
        self, conversation_id: int, turns: Sequence[Turn], first_at: float, latest: float | None
    ) -> ConversationRow:
        """The conversation that takes the turns of an ended or idle one (NotFound if there is none).

        DAWN §3.7.1: an idle session ends on the next message, which starts a new one.
        """
        scope = self.scope
        found = self.conversation(conversation_id)  # NotFound comes before a refused turn, as it always did
        for turn in turns:
            _check_turn(turn)
        if found.ended_at is None:
            scope.end_conversation(found.id, found.last_activity)
        started = scope.start_conversation(found.interface, first_at, is_private=found.is_private)
        return scope.continue_conversation(started.id, first_at, latest, self._timeout) or started

    def _detect_topic_later(self, conversation_id: int, text: str) -> None:
        """Hook: topic detection from a user message (Memory runs it in the background)."""

    def _extract_later(
        self, user_turn: MessageRow, assistant_text: str, conversation_id: int, learn: bool
    ) -> None:
        """Per-exchange extraction (Lo-Bug §4.4) in the background: the reply is never delayed.

        With an extraction model, the rule gate (``learn``, :mod:`reverie.extract.gate`) decides
        first: a turn that cannot hold a stable fact costs no model call. The facts keep the
        model's confidence and key and the user turn they came from; the turn records whether
        a memory was created.
        """
        scope, model = self.scope, self.extraction_model
        if model is not None and not learn:
            return
        conf = self.settings.memory.extraction
        limit = self.settings.memory.max_memory_bytes
        service, policy, clock = self.embeddings, self.policy, self.clock
        index = self.semantic.index if self.semantic else None

        def run() -> None:
            found = extract_exchange(
                model,
                user_turn.content,
                assistant_text,
                max_items=conf.max_per_turn,
                temperature=conf.temperature,
            )
            kept, _ = validate(Extraction(facts=found), confidence_min=conf.confidence_min, max_bytes=limit)
            created = False
            for fact in kept.facts:
                result = remember_fact(
                    scope,
                    fact.text,
                    clock(),
                    key=fact.key or None,
                    type_=fact.type,
                    source="inferred",
                    confidence=fact.confidence,
                    conversation_id=conversation_id,
                    policy=policy,
                    service=service,
                    index=index,
                    source_message_id=user_turn.id,
                )
                created = created or result.status != "reinforced"
            if created:
                scope.note_turn(user_turn.id, memory_created=True)

        self.background.submit(run)

    def messages(self, conversation_id: int, *, limit: int = 50) -> list[MessageRow]:
        """The last turns of a conversation, oldest first (an assistant reloads these on restart)."""
        self.conversation(conversation_id)
        return self.scope.list_messages(conversation_id, limit=limit)

    def wait_indexed(self, timeout: float | None = None) -> bool:
        """Block until the turns recorded so far are searchable by meaning; False on timeout."""
        return self.indexer.wait(timeout) if self.indexer is not None else True

    def reindex(self, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Embed every memory, summary and message that has no vector of the current model.

        Resumable: each batch is committed, so an interrupted run continues where it stopped.
        ``progress(done, total)`` is called after each batch.
        """
        service = self.embeddings
        if service is None:
            raise InvalidInput("Embeddings are off ([embeddings] enabled = false); nothing to re-index")
        service.resume()
        self.wait_indexed()  # turns still in a background batch are not counted twice
        scope = self.scope
        counts: dict[str, int] = {kind: 0 for kind in VECTOR_KINDS}
        totals = {kind: scope.count_vectors(kind, service.model_id) for kind in VECTOR_KINDS}
        total = sum(all_ for _, all_ in totals.values())
        done = sum(have for have, _ in totals.values())
        for kind in VECTOR_KINDS:
            while batch := scope.missing_vectors(kind, service.model_id, REINDEX_BATCH):
                vectors = (
                    self._window_vectors(batch)
                    if kind == "message_window"
                    else service.embed(self._vector_texts(kind, batch))
                )
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
        """What is embedded for each item; messages are dated as in add_messages."""
        if kind in ("memory", "summary"):
            return [text for _, text in batch]
        rows = self.scope.get_messages([item_id for item_id, _ in batch])
        found = {row.id: row for row in rows}
        return [turn_vector_text(found[item_id], self.tz) for item_id, _ in batch]

    def _window_vectors(self, batch: list[tuple[int, str]]) -> list[npt.NDArray[np.float32]]:
        """Each turn's window as the indexer makes it: the mean of its turns' vectors."""
        service, scope = self.embeddings, self.scope
        assert service is not None
        rows = {row.id: row for row in scope.get_messages([item_id for item_id, _ in batch])}
        spans = []
        for item_id, _ in batch:
            before, after = scope.message_neighbours(item_id)
            spans.append([m for m in (before, rows[item_id], after) if m is not None])
        texts = list(dict.fromkeys(turn_vector_text(m, self.tz) for span in spans for m in span))
        vectors = dict(zip(texts, service.embed(texts), strict=True))
        return [
            window_vector((text, vectors[text]) for text in (turn_vector_text(m, self.tz) for m in span))
            for span in spans
        ]


__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_OFFSET",
    "ROLES",
    "BackgroundTasks",
    "Conversations",
    "Recorded",
    "Turn",
    "check_paging",
]
