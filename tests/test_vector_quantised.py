"""A long chat history stays small in the index: turns' vectors are held as int8 with a scale per row."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import Clock
from test_vector_index import Spy

from reverie import Memory, Settings
from reverie.embed.index import VectorIndex
from reverie.store.base import UserStore

MODEL, DIMS = "test-turns", 384
#: What one recorded turn may cost in the index, its own vector and its window's together, spare
#: capacity included. Held as float32 the two vectors alone take 3,072 bytes; as int8 codes with
#: a scale, an id and a live flag, 794 bytes, and the capacity reserved ahead adds up to a half.
MOST_BYTES_PER_TURN = 1_600


def _units(count: int, seed: int = 0) -> np.ndarray[Any, np.dtype[np.float32]]:
    vectors = np.random.default_rng(seed).standard_normal((count, DIMS)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@pytest.fixture
def plain(settings: Settings, clock: Clock) -> Iterator[Memory]:
    """A memory without embeddings: the tests write the turns' vectors themselves."""
    settings.embeddings.enabled = False
    mem = Memory(settings, clock=clock)
    yield mem
    mem.close()


def _record_turns(scope: UserStore, count: int, now: float, seed: int = 0) -> dict[int, np.ndarray[Any, Any]]:
    """``count`` turns with a turn vector and a window vector each: id -> turn vector."""
    turns, windows = _units(count, seed), _units(count, seed + 1)
    vectors = {}
    with scope.transaction():
        conversation = scope.start_conversation("test", now)
        for n in range(count):
            message = scope.add_message(conversation.id, "user" if n % 2 else "assistant", f"turn {n}", now)
            scope.put_vectors("message", [(message.id, turns[n].tobytes())], MODEL, DIMS)
            scope.put_vectors("message_window", [(message.id, windows[n].tobytes())], MODEL, DIMS)
            vectors[message.id] = turns[n]
    return vectors


def _turn_bytes(index: VectorIndex, scope: UserStore) -> int:
    return sum(
        matrix.nbytes
        for (user, kind, _), matrix in index._cache.items()
        if user == scope.user_id and kind in ("message", "message_window")
    )


def test_a_users_turns_cost_at_most_1600_bytes_each_in_the_index(plain: Memory, clock: Clock) -> None:
    scope, index = plain.scope, VectorIndex()
    _record_turns(scope, 1_000, clock())
    query = _units(1, seed=99)[0]
    for kind in ("message", "message_window"):
        ids, _ = index.scores(scope, kind, MODEL, query)  # loaded at once, as a search loads them
        assert len(ids) == 1_000
    assert _turn_bytes(index, scope) <= 1_000 * MOST_BYTES_PER_TURN
    more = _record_turns(scope, 3_000, clock(), seed=7)  # then turn by turn, as a chat adds them
    for kind in ("message", "message_window"):
        ids, _ = index.scores(scope, kind, MODEL, query)
        assert len(ids) == 4_000 and int(ids[-1]) == max(more)
    assert _turn_bytes(index, scope) <= 4_000 * MOST_BYTES_PER_TURN


def test_held_turn_vectors_score_within_a_few_thousandths_of_the_cosine(plain: Memory, clock: Clock) -> None:
    scope, index = plain.scope, VectorIndex()
    vectors = _record_turns(scope, 2_000, clock())
    ids = sorted(vectors)
    exact = np.stack([vectors[i] for i in ids])
    for seed in range(5):
        near = exact[seed * 300] + 0.5 * _units(1, seed=100 + seed)[0]
        query = near / np.linalg.norm(near)
        found, scores = index.scores(scope, "message", MODEL, query)
        assert list(found) == ids
        cosines = exact @ query
        assert float(np.abs(scores - cosines).max()) < 0.005
        assert int(found[np.argmax(scores)]) == ids[seed * 300], "the nearest turn stays first"
        best = np.argsort(-cosines)[:10]
        assert len(set(np.argsort(-scores)[:10].tolist()) & set(best.tolist())) >= 9


def test_a_restart_reads_the_turns_snapshot_and_follows_later_turns(
    settings: Settings, clock: Clock, tmp_path: Path
) -> None:
    settings.embeddings.enabled = False
    folder = tmp_path / "snapshots"
    with Memory(settings, clock=clock) as mem:
        vectors = _record_turns(mem.scope, 4_200, clock())
        query = _units(1, seed=5)[0]
        first = VectorIndex(snapshots=folder)
        before = first.scores(mem.scope, "message", MODEL, query)
        assert first.save() == 1
        later = _record_turns(mem.scope, 10, clock(), seed=3)
        scope = Spy(mem.scope)
        restarted = VectorIndex(snapshots=folder)
        ids, scores = restarted.scores(scope, "message", MODEL, query)
        assert scope.complete == 0, "the snapshot is trusted: only the later turns are read"
        assert list(ids) == sorted([*vectors, *later])
        saved = scores[: len(before[1])]
        assert np.allclose(saved, before[1], rtol=0, atol=1e-6), "saved and read back: the same codes"
        assert float(np.abs(scores[-10:] - np.stack(list(later.values())) @ query).max()) < 0.005
