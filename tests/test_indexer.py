"""Turn vectors come in background batches: keywords at once, meaning once the batch lands, none lost."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
from conftest import Clock

from reverie import Memory, Settings, load_settings
from reverie.retrieve.episodes import turn_vector_text, window_vector
from reverie.retrieve.indexer import MessageIndexer
from reverie.store.base import MessageRow

WAIT = 60.0  # a deadline, not a delay: every wait returns as soon as the batch landed


def _vector(memory: Memory, kind: str, item_id: int) -> np.ndarray | None:
    service = memory.embeddings
    assert service is not None
    rows, _ = memory.scope.load_vectors(kind, service.model_id)  # type: ignore[arg-type]
    found = dict(rows)
    return np.frombuffer(found[item_id], dtype="<f4") if item_id in found else None


def test_a_turn_is_found_by_meaning_once_its_batch_landed(memory: Memory) -> None:
    conv = memory.start_conversation("chat")
    row = memory.add_message(conv, "user", "We adopted a greyhound from the shelter last weekend")
    memory.add_message(conv, "assistant", "Congratulations on the new family member!")
    # Keywords find it at once, whatever the batch is doing.
    assert memory.search("greyhound", scope="messages").messages[0].message.id == row.id
    assert memory.wait_indexed(WAIT)
    hits = memory.search("puppy dog", scope="messages").messages
    assert hits and hits[0].message.id == row.id
    assert memory.indexer is not None and memory.indexer.pending == 0


def test_recording_waits_for_no_embedding(settings: Settings, clock: Clock) -> None:
    """While the indexer is held inside a batch, turns are still recorded and found by keywords."""
    with Memory(settings, clock=clock) as memory:
        assert memory.indexer is not None
        service = memory.indexer.service  # the indexer's own embedder
        entered, release = threading.Event(), threading.Event()
        embed = service.embedder.embed_batch

        def held(texts: list[str]) -> list[list[float]]:
            entered.set()
            assert release.wait(WAIT)
            return embed(texts)

        service.embedder.embed_batch = held  # type: ignore[method-assign]
        conv = memory.start_conversation("chat")
        memory.add_message(conv, "user", "The plumber comes on Friday")
        assert entered.wait(WAIT)  # the indexer is now stuck in its batch
        second = memory.add_message(conv, "user", "Bring the spare key for the plumber")
        assert second.id in [h.message.id for h in memory.search("spare key", scope="messages").messages]
        assert _vector(memory, "message", second.id) is None
        release.set()
        assert memory.wait_indexed(WAIT)
        assert _vector(memory, "message", second.id) is not None


def test_the_window_before_a_new_turn_is_refreshed(memory: Memory) -> None:
    conv = memory.start_conversation("chat")
    first = memory.add_message(conv, "user", "What should I plant in March?")
    assert memory.wait_indexed(WAIT)
    alone = _vector(memory, "message_window", first.id)
    second = memory.add_message(conv, "assistant", "Peas and broad beans do well then")
    assert memory.wait_indexed(WAIT)
    refreshed = _vector(memory, "message_window", first.id)
    service = memory.embeddings
    assert service is not None and alone is not None and refreshed is not None
    expected = _window(memory, first, second)
    assert float(np.dot(refreshed, expected)) > 0.999
    assert float(np.dot(alone, expected)) < 0.99


def _window(memory: Memory, *turns: MessageRow) -> np.ndarray:
    """A window's vector as the indexer makes it: the mean of its turns' own vectors."""
    service = memory.embeddings  # not the indexer's own (maybe counted) embedder
    assert service is not None
    texts = [turn_vector_text(turn, memory.tz) for turn in turns]
    return window_vector(zip(texts, service.embed(texts), strict=True))


def test_turns_left_without_vectors_are_indexed_on_start(tmp_path: Path, clock: Clock) -> None:
    """A crash before the batch: the turns are in the database, and the next start indexes them."""
    home = tmp_path / "home"
    base = {"REVERIE_MEMORY__TIMEZONE": "UTC"}
    with Memory(
        load_settings(home=home, environ={**base, "REVERIE_EMBEDDINGS__ENABLED": "false"}), clock=clock
    ) as off:
        conv = off.start_conversation("chat")
        rows = [
            off.add_message(conv, "user", "My sister Ines is getting married in Porto"),
            off.add_message(conv, "assistant", "How lovely, a wedding by the river"),
        ]
        guest_thread = off.start_thread("kitchen speaker")
        other = guest_thread.add_message(
            guest_thread.start_conversation("kitchen"), "user", "Timer for pasta"
        )
    with Memory(load_settings(home=home, environ=base), clock=clock) as memory:
        assert _vector(memory, "message", rows[0].id) is None
        memory.recover_index()
        assert memory.wait_indexed(WAIT)
        for row in rows:
            assert _vector(memory, "message", row.id) is not None
            assert _vector(memory, "message_window", row.id) is not None
        thread = memory.for_thread(guest_thread.user.name if guest_thread.user else "")
        assert _vector(thread, "message", other.id) is not None
        hits = memory.search("a family celebration", scope="messages").messages
        assert hits and hits[0].message.id in {r.id for r in rows}


def test_closing_lands_what_is_queued(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        conv = memory.start_conversation("cli")
        row = memory.add_message(conv, "user", "Water the tomatoes every morning")
    with Memory(settings, clock=clock) as memory:
        assert _vector(memory, "message", row.id) is not None


def test_indexer_waits_report_a_deadline(memory: Memory) -> None:
    service = memory.embeddings
    assert service is not None
    indexer = MessageIndexer(memory.store, service, memory.tz, gather_seconds=0.0)
    try:
        assert indexer.wait(0)  # nothing queued: idle at once
        conv = memory.start_conversation("chat")
        row = memory.add_message(conv, "user", "Book the vet for the cat")
        assert memory.wait_indexed(WAIT)
        indexer.add(memory.scope.user_id, [row.id])
        assert indexer.wait(WAIT) and indexer.pending == 0
    finally:
        indexer.close()


class _Counting:
    """Wraps an embedder's embed_batch and keeps every text it was given."""

    def __init__(self, memory: Memory) -> None:
        assert memory.indexer is not None
        self.embedder = memory.indexer.service.embedder
        self.texts: list[str] = []
        self._embed = self.embedder.embed_batch

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.texts += texts
        return self._embed(texts)


def test_each_turn_is_embedded_once_and_its_window_written_when_its_next_turn_comes(memory: Memory) -> None:
    """A turn's window waits for the next turn; windows are made of the turns' vectors, never embedded."""
    indexer = memory.indexer
    assert indexer is not None
    counting = _Counting(memory)
    counting.embedder.embed_batch = counting  # type: ignore[method-assign]
    conv = memory.start_conversation("chat")
    first = memory.add_message(conv, "user", "Where did we put the camping stove?")
    second = memory.add_message(conv, "assistant", "In the garage, on the top shelf")
    assert indexer.wait(WAIT, windows=False)
    assert _vector(memory, "message", first.id) is not None
    assert _vector(memory, "message", second.id) is not None
    assert _vector(memory, "message_window", first.id) is not None  # whole: it has its next turn
    assert _vector(memory, "message_window", second.id) is None  # open: waits for the next turn
    assert indexer.open_windows == 1
    third = memory.add_message(conv, "user", "Thanks, and the tent?")
    assert indexer.wait(WAIT, windows=False)
    window = _vector(memory, "message_window", second.id)
    assert window is not None
    assert float(np.dot(window, _window(memory, first, second, third))) > 0.999
    assert len(counting.texts) == 3  # three turns, each once; a window costs no embedding
    # Waiting for everything writes the last turn's open window as it is.
    assert memory.wait_indexed(WAIT)
    last = _vector(memory, "message_window", third.id)
    assert last is not None and float(np.dot(last, _window(memory, second, third))) > 0.999
    assert indexer.open_windows == 0 and len(counting.texts) == 3


def test_an_open_window_is_embedded_when_no_next_turn_comes(memory: Memory) -> None:
    service = memory.embeddings
    assert service is not None
    indexer = MessageIndexer(memory.store, service, memory.tz, gather_seconds=0.0, open_seconds=0.0)
    try:
        conv = memory.start_conversation("chat")
        text = "Call the garage about the winter tyres"
        row = memory.scope.add_message(  # recorded past Memory's own indexer
            conv.id, "user", text, memory.clock(), index_text=text, window_text=text
        )
        indexer.add(memory.scope.user_id, [row.id])
        deadline = time.monotonic() + WAIT  # a deadline, not a delay
        while indexer.open_windows or not indexer.wait(0, windows=False):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert _vector(memory, "message_window", row.id) is not None
    finally:
        indexer.close()


def test_reindex_makes_windows_as_the_indexer_does(tmp_path: Path, clock: Clock) -> None:
    """`reverie reindex` gives a turn left without vectors the same window: its turns' mean vector."""
    home = tmp_path / "home"
    base = {"REVERIE_MEMORY__TIMEZONE": "UTC"}
    with Memory(
        load_settings(home=home, environ={**base, "REVERIE_EMBEDDINGS__ENABLED": "false"}), clock=clock
    ) as off:
        conv = off.start_conversation("chat")
        rows = [
            off.add_message(conv, "user", "Is the bakery on Rue Cler open on Sundays?"),
            off.add_message(conv, "assistant", "Yes, until one in the afternoon"),
            off.add_message(conv, "user", "Then croissants it is"),
        ]
    with Memory(load_settings(home=home, environ=base), clock=clock) as memory:
        counts = memory.reindex()
        assert counts["message"] == 3 and counts["message_window"] == 3
        for index, row in enumerate(rows):
            window = _vector(memory, "message_window", row.id)
            assert window is not None
            expected = _window(memory, *rows[max(0, index - 1) : index + 2])
            assert float(np.dot(window, expected)) > 0.999
