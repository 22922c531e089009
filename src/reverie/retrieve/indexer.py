"""Vectors of new conversation turns, computed in background batches shortly after they are recorded.

Recording a turn is a plain insert: its keyword rows are written in the same transaction, so
it is searchable by keywords at once. Its two vectors (the dated turn, and its window: the mean
of the previous, this and the next turn's vectors, see :mod:`reverie.retrieve.episodes`) cost
an embedding, which a spoken reply must not wait for. They are made here, on one thread, a
batch at a time: a turn becomes searchable by meaning as soon as its batch lands (tens of
milliseconds later when the machine is idle). Each turn's text is embedded once; a window
only adds up vectors.

A window is written once it is whole: a turn's window takes in the next turn, so it waits
(an *open* window) until that turn is recorded, or for :data:`OPEN_WINDOW_SECONDS` when none
comes (the conversation's last turn); only a window that waited that long and then got a next
turn is written again. Until its window lands a turn is found by its own vector.
:meth:`MessageIndexer.wait` and :meth:`MessageIndexer.close` write open windows at once.

Nothing is lost in a crash: a turn without its vectors stays in the database and
:meth:`MessageIndexer.recover` (run when a server starts) finds every such turn and indexes it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from datetime import tzinfo

import numpy as np
import numpy.typing as npt

from reverie.embed.service import EmbeddingService, to_blob
from reverie.errors import ReverieError
from reverie.retrieve.episodes import turn_vector_text, window_vector
from reverie.store.base import MessageRow, Store, UserStore, VectorKind

log = logging.getLogger(__name__)
BATCH = 64
#: How long the indexer lets more turns arrive before it embeds (a user turn and its reply
#: usually land in one batch, one ONNX run instead of two).
GATHER_SECONDS = 0.05
#: How long a turn's window waits for the next turn before it is embedded without it.
OPEN_WINDOW_SECONDS = 60.0
#: The indexer's thread runs at a lower CPU priority (Linux nice): under load the turns being
#: answered go first and the batches catch up when the load drops.
NICENESS = 10
#: Texts whose vectors the indexer remembers: a short reply said again on the same day ("Okay.",
#: "Done.") has the very same dated turn text, and is not embedded again.
RECENT_TEXTS = 256


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
        open_seconds: float = OPEN_WINDOW_SECONDS,
    ) -> None:
        self.store = store
        self.service = service
        self.tz = tz
        self.gather_seconds = gather_seconds
        self.batch = batch
        self.open_seconds = open_seconds
        self._ready = threading.Condition()
        self._queued: dict[int, set[int]] = {}
        self._open: dict[int, dict[int, float]] = {}  # user -> {turn: when its window is due}
        self._scan = False
        self._busy = False
        self._waiters = 0
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._recent: OrderedDict[str, bytes] = OrderedDict()  # text -> vector, used on the thread only

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

    def wait(self, timeout: float | None = None, *, windows: bool = True) -> bool:
        """Block until everything recorded so far has landed; False if ``timeout`` passed first.

        Open windows are embedded at once too, unless ``windows`` is False (then they keep
        waiting for their next turn, and only the queued turns are waited for).
        """
        with self._ready:
            if not windows:
                return self._ready.wait_for(self._drained, timeout)
            self._waiters += 1
            try:
                self._ready.notify_all()
                return self._ready.wait_for(self._idle, timeout)
            finally:
                self._waiters -= 1

    @property
    def pending(self) -> int:
        """Turns queued and not embedded yet (not counting the batch in progress)."""
        with self._ready:
            return sum(len(ids) for ids in self._queued.values())

    @property
    def open_windows(self) -> int:
        """Turns whose window waits for the next turn (see the module docstring)."""
        with self._ready:
            return sum(len(ids) for ids in self._open.values())

    def close(self) -> None:
        """Index what is queued and the open windows, then stop the thread."""
        self._closing.set()
        with self._ready:
            self._ready.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
        self._closing.clear()

    # the thread -------------------------------------------------------------------------
    def _drained(self) -> bool:
        return not self._queued and not self._scan and not self._busy

    def _idle(self) -> bool:
        return self._drained() and not self._open

    def _hurry(self) -> bool:
        """Open windows are embedded at once: someone waits, or the indexer closes."""
        return self._waiters > 0 or self._closing.is_set()

    def _due_in(self) -> float | None:
        """Seconds until the first open window is due (0: now), None when none is open."""
        if not self._open:
            return None
        if self._hurry():
            return 0.0
        first = min(due for windows in self._open.values() for due in windows.values())
        return max(0.0, first - time.monotonic())

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="reverie-indexer", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        _lower_priority()
        while True:
            with self._ready:
                while not (self._queued or self._scan) and (due := self._due_in()) != 0.0:
                    if self._closing.is_set():
                        return  # closing, nothing left
                    self._ready.wait(due)
                self._busy = True
            try:
                if self._queued and not self._hurry():
                    self._closing.wait(self.gather_seconds)  # let the turn's reply join the batch
                with self._ready:
                    work, self._queued = self._queued, {}
                    scan, self._scan = self._scan, False
                if scan:
                    self._scan_all()
                for user_id, turns in work.items():
                    self._index_user(user_id, sorted(turns), ())
                for user_id, windows in self._take_due().items():
                    self._index_user(user_id, (), sorted(windows))
            finally:
                with self._ready:
                    self._busy = False
                    self._ready.notify_all()

    def _take_due(self) -> dict[int, list[int]]:
        """The open windows due now (all of them when hurried), taken out of the open set."""
        with self._ready:
            hurry, now = self._hurry(), time.monotonic()
            due: dict[int, list[int]] = {}
            for user_id, windows in list(self._open.items()):
                ready = [item for item, when in windows.items() if hurry or when <= now]
                for item in ready:
                    del windows[item]
                if not windows:
                    del self._open[user_id]
                if ready:
                    due[user_id] = ready
            return due

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
                    if kind == "message":
                        self._index_user(user.id, fresh, (), defer=False)
                    else:
                        self._index_user(user.id, (), fresh)
            if done:
                log.info("Indexed %d turns left without vectors (user %d)", len(done), user.id)

    def _index_user(
        self, user_id: int, turns: Sequence[int], windows: Sequence[int], *, defer: bool = True
    ) -> None:
        """Embed these turns (turn and window vectors) and these windows alone, a batch at a time."""
        scope = self.store.scope(user_id)
        items = [(item, True) for item in turns] + [(item, False) for item in windows]
        for start in range(0, len(items), self.batch):
            part = items[start : start + self.batch]
            try:
                self._index_batch(
                    scope,
                    [item for item, whole in part if whole],
                    [item for item, whole in part if not whole],
                    defer=defer and not self._hurry(),
                )
            except ReverieError as exc:  # the turns stay without vectors; recover() or reindex finds them
                log.warning("Turns of user %d stored without vectors for now: %s", user_id, exc)
                return

    def _index_batch(
        self, scope: UserStore, turns: Sequence[int], windows: Collection[int], *, defer: bool
    ) -> None:
        rows = scope.get_messages([*turns, *windows])
        chosen = {row.id for row in rows}
        whole = set(turns)
        spans: list[tuple[int, list[MessageRow]]] = []  # a window: its turn and the turns it spans
        left_open: list[int] = []
        closed: set[int] = set()
        for row in rows:
            before, after = scope.message_neighbours(row.id)
            if after is None and defer and row.id in whole:
                left_open.append(row.id)  # its window waits for the next turn
            else:
                spans.append((row.id, [m for m in (before, row, after) if m is not None]))
            if row.id in whole and before is not None and before.id not in chosen and before.id not in closed:
                # The turn before now has a next turn: its window is whole.
                earlier, _ = scope.message_neighbours(before.id)
                spans.append((before.id, [m for m in (earlier, before, row) if m is not None]))
                closed.add(before.id)
        # Each turn is embedded once (a turn embedded lately comes from memory); windows are
        # the mean of their turns' vectors, with no embedding of their own.
        texts = {m.id: turn_vector_text(m, self.tz) for m in rows if m.id in whole}
        for _, span in spans:
            texts.update((m.id, turn_vector_text(m, self.tz)) for m in span if m.id not in texts)
        ids = list(texts)
        vectors = dict(zip(ids, self._embed([texts[item] for item in ids]), strict=True))
        found: dict[VectorKind, list[tuple[int, bytes]]] = {
            "message": [(row.id, vectors[row.id]) for row in rows if row.id in whole],
            "message_window": [
                (item, to_blob(window_vector((texts[m.id], _unpacked(vectors[m.id])) for m in span)))
                for item, span in spans
            ],
        }
        service = self.service
        if any(found.values()):
            with scope.transaction():
                for kind, vectors_of in found.items():
                    scope.put_vectors(kind, vectors_of, service.model_id, service.dimensions)
        self._note_open(scope.user_id, left_open, closed)

    def _embed(self, texts: list[str]) -> list[bytes]:
        """Stored vectors of ``texts``; a text embedded lately ("Okay." again that day) is not run again."""
        known = self._recent
        todo = list(dict.fromkeys(text for text in texts if text not in known))
        if todo:
            for text, vector in zip(todo, self.service.embed(todo), strict=True):
                known[text] = to_blob(vector)
        for text in texts:
            known.move_to_end(text)
        blobs = [known[text] for text in texts]
        while len(known) > RECENT_TEXTS:
            known.popitem(last=False)
        return blobs

    def _note_open(self, user_id: int, opened: Sequence[int], closed: Collection[int]) -> None:
        with self._ready:
            windows = self._open.setdefault(user_id, {})
            for item in closed:
                windows.pop(item, None)
            due = time.monotonic() + self.open_seconds
            for item in opened:
                windows[item] = due
            if not windows:
                del self._open[user_id]


def _unpacked(blob: bytes) -> npt.NDArray[np.float32]:
    return np.frombuffer(blob, dtype="<f4")


def _lower_priority() -> None:
    """Lower this thread's CPU priority where the OS allows it per thread (Linux); else leave it."""
    if not hasattr(os, "setpriority") or not hasattr(threading, "get_native_id"):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)
    except OSError as exc:  # not permitted here: indexing still works, at normal priority
        log.debug("Indexer priority unchanged: %s", exc)


__all__ = ["BATCH", "GATHER_SECONDS", "OPEN_WINDOW_SECONDS", "MessageIndexer"]
