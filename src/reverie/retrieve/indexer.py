"""Vectors of new conversation turns, computed in background batches shortly after they are recorded.

Recording a turn is a plain insert: its keyword rows are written in the same transaction, so
it is searchable by keywords at once. Its two vectors (the dated turn and its dated window,
see :mod:`reverie.retrieve.episodes`) and the refreshed window of the turn before it (which now
has a next turn) cost several embeddings, which a spoken reply must not wait for. They are
made here, on one thread, a batch at a time: a turn becomes searchable by meaning as soon as
its batch lands (tens of milliseconds later when the machine is idle).

Nothing is lost in a crash: a turn without its vectors stays in the database and
:meth:`MessageIndexer.recover` (run when a server starts) finds every such turn and indexes it.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Sequence
from datetime import tzinfo

from reverie.embed.service import EmbeddingService, to_blob
from reverie.errors import ReverieError
from reverie.retrieve.episodes import turn_vector_text, window_vector_text
from reverie.store.base import MessageRow, Store, UserStore, VectorKind

log = logging.getLogger(__name__)
BATCH = 64
#: How long the indexer lets more turns arrive before it embeds (a user turn and its reply
#: usually land in one batch, one ONNX run instead of two).
GATHER_SECONDS = 0.05
#: The indexer's thread runs at a lower CPU priority (Linux nice): under load the turns being
#: answered go first and the batches catch up when the load drops.
NICENESS = 10


class MessageIndexer:
    """One background thread that embeds recorded turns in batches (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        service: EmbeddingService,
        tz: tzinfo,
        *,
        gather_seconds: float = GATHER_SECONDS,
        batch: int = BATCH,
    ) -> None:
        self.store = store
        self.service = service
        self.tz = tz
        self.gather_seconds = gather_seconds
        self.batch = batch
        self._ready = threading.Condition()
        self._queued: dict[int, set[int]] = {}
        self._scan = False
        self._busy = False
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None

    # the public side --------------------------------------------------------------------
    def add(self, user_id: int, message_ids: Iterable[int]) -> None:
        """Queue recorded turns of one user for their vectors."""
        with self._ready:
            self._queued.setdefault(user_id, set()).update(message_ids)
            self._start()
            self._ready.notify_all()

    def recover(self) -> None:
        """Queue every turn of every user that has no vector yet (after a crash or a stop)."""
        with self._ready:
            self._scan = True
            self._start()
            self._ready.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued so far has landed; False if ``timeout`` passed first."""
        with self._ready:
            return self._ready.wait_for(self._idle, timeout)

    @property
    def pending(self) -> int:
        """Turns queued and not embedded yet (not counting the batch in progress)."""
        with self._ready:
            return sum(len(ids) for ids in self._queued.values())

    def close(self) -> None:
        """Index what is queued, then stop the thread."""
        self._closing.set()
        with self._ready:
            self._ready.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
        self._closing.clear()

    # the thread -------------------------------------------------------------------------
    def _idle(self) -> bool:
        return not self._queued and not self._scan and not self._busy

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="reverie-indexer", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        _lower_priority()
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._queued or self._scan or self._closing.is_set())
                if not self._queued and not self._scan:
                    return  # closing, nothing left
                self._busy = True
            try:
                if not self._closing.is_set():
                    self._closing.wait(self.gather_seconds)  # let the turn's reply join the batch
                with self._ready:
                    work, self._queued = self._queued, {}
                    scan, self._scan = self._scan, False
                if scan:
                    self._scan_all()
                for user_id, ids in work.items():
                    self._index_user(user_id, sorted(ids))
            finally:
                with self._ready:
                    self._busy = False
                    self._ready.notify_all()

    def _scan_all(self) -> None:
        try:  # load the model now, at start, rather than with the first turn's batch
            self.service.embed(["warm up"])
        except ReverieError as exc:
            log.warning("The indexer's embedder is not available yet: %s", exc)
        model = self.service.model_id
        for user in [*self.store.list_users(), *self.store.list_threads()]:
            scope = self.store.scope(user.id)
            for kind in ("message", "message_window"):
                done: set[int] = set()
                while True:
                    batch = [item for item, _ in scope.missing_vectors(kind, model, self.batch)]
                    fresh = [item for item in batch if item not in done]
                    if not fresh:
                        break
                    done.update(fresh)
                    self._index_user(user.id, fresh)
            if done:
                log.info("Indexed %d turns left without vectors (user %d)", len(done), user.id)

    def _index_user(self, user_id: int, message_ids: Sequence[int]) -> None:
        scope = self.store.scope(user_id)
        for start in range(0, len(message_ids), self.batch):
            try:
                self._index_batch(scope, message_ids[start : start + self.batch])
            except ReverieError as exc:  # the turns stay without vectors; recover() or reindex finds them
                log.warning("Turns of user %d stored without vectors for now: %s", user_id, exc)
                return

    def _index_batch(self, scope: UserStore, message_ids: Sequence[int]) -> None:
        rows = scope.get_messages(message_ids)
        chosen = {row.id for row in rows}
        texts: list[str] = []
        items: list[tuple[VectorKind, int]] = []
        refreshed: set[int] = set()
        for row in rows:
            before, after = scope.message_neighbours(row.id)
            texts += [turn_vector_text(row, self.tz), window_vector_text(before, row, after, self.tz)]
            items += [("message", row.id), ("message_window", row.id)]
            if before is not None and before.id not in chosen and before.id not in refreshed:
                # The turn before now has a next turn: its window changes.
                texts.append(self._window_before(scope, before, row))
                items.append(("message_window", before.id))
                refreshed.add(before.id)
        if not texts:
            return
        vectors = self.service.embed(texts)
        service = self.service
        with scope.transaction():
            for kind in ("message", "message_window"):
                chosen_items = [
                    (item_id, to_blob(vectors[i])) for i, (k, item_id) in enumerate(items) if k == kind
                ]
                if chosen_items:
                    scope.put_vectors(kind, chosen_items, service.model_id, service.dimensions)

    def _window_before(self, scope: UserStore, before: MessageRow, row: MessageRow) -> str:
        earlier, _ = scope.message_neighbours(before.id)
        return window_vector_text(earlier, before, row, self.tz)


def _lower_priority() -> None:
    """Lower this thread's CPU priority where the OS allows it per thread (Linux); else leave it."""
    if not hasattr(os, "setpriority") or not hasattr(threading, "get_native_id"):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)
    except OSError as exc:  # not permitted here: indexing still works, at normal priority
        log.debug("Indexer priority unchanged: %s", exc)


__all__ = ["BATCH", "GATHER_SECONDS", "MessageIndexer"]
