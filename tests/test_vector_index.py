"""The vector index grows in place, masks what goes away and follows other processes' writes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from conftest import Clock

from reverie import Memory, Settings
from reverie.embed.index import VectorIndex
from reverie.store.base import NewMemory, UserStore, VectorChanges, VectorKind

MODEL, DIMS = "test-unit", 8


def _unit(seed: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    vector = np.random.default_rng(seed).standard_normal(DIMS).astype(np.float32)
    return vector / np.linalg.norm(vector)


class Spy:
    """A UserStore that records how the index catches up (complete loads vs. changes)."""

    def __init__(self, scope: UserStore) -> None:
        self._scope = scope
        self.user_id = scope.user_id
        self.complete = 0
        self.partial = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._scope, name)

    def vector_changes(
        self, kind: VectorKind, model_id: str, after: int | None, also: Sequence[int] = ()
    ) -> VectorChanges:
        delta = self._scope.vector_changes(kind, model_id, after, also)
        if delta.complete:
            self.complete += 1
        else:
            self.partial += 1
        return delta


@pytest.fixture
def plain(settings: Settings, clock: Clock) -> Iterator[Memory]:
    """A memory without embeddings: the tests write their own small vectors."""
    settings.embeddings.enabled = False
    mem = Memory(settings, clock=clock)
    yield mem
    mem.close()


def _add_facts(scope: UserStore, seeds: Sequence[int], now: float) -> list[int]:
    ids = []
    with scope.transaction():
        for seed in seeds:
            row = scope.insert_memory(NewMemory(kind="fact", text=f"fact {seed}", source="explicit",
                                                confidence=1.0), now)
            scope.put_vectors("memory", [(row.id, _unit(seed).tobytes())], MODEL, DIMS)
            ids.append(row.id)
    return ids


def _found(index: VectorIndex, scope: Any, seed: int, k: int = 1000) -> list[int]:
    return [item for item, _ in index.search(scope, "memory", MODEL, _unit(seed), k=k)]


def _matrix(index: VectorIndex, scope: UserStore, kind: str = "memory") -> Any:
    return index._cache[(scope.user_id, kind, MODEL)]


def test_appends_in_place_into_reserved_capacity(plain: Memory, clock: Clock) -> None:
    scope, index = Spy(plain.scope), VectorIndex()
    ids = _add_facts(plain.scope, range(10), clock())
    assert _found(index, scope, 3, k=1) == [ids[3]]
    matrix = _matrix(index, plain.scope)
    storage, capacity = matrix.vectors, len(matrix.ids)
    assert capacity >= 256 and scope.complete == 1
    for seed in range(10, 60):  # one write at a time, as remember does
        (new,) = _add_facts(plain.scope, [seed], clock())
        assert _found(index, scope, seed, k=1) == [new]
    assert matrix.vectors is storage, "appends must not copy the matrix"
    assert scope.complete == 1 and scope.partial == 50
    more = _add_facts(plain.scope, range(60, 60 + capacity), clock())  # beyond the capacity: doubles
    assert _found(index, scope, 60 + capacity - 1, k=1) == [more[-1]]
    assert len(matrix.ids) >= 2 * capacity and matrix.count == 60 + capacity
    assert scope.complete == 1
    assert sorted(_found(index, scope, 0)) == sorted(ids + list(range(ids[-1] + 1, ids[-1] + 51)) + more)


def test_masks_superseded_deleted_and_edited(plain: Memory, clock: Clock) -> None:
    scope, index = Spy(plain.scope), VectorIndex()
    ids = _add_facts(plain.scope, range(20), clock())
    assert len(_found(index, scope, 0)) == 20
    plain.scope.supersede(ids[1], ids[2], clock())
    plain.delete(ids[3])
    plain.scope.update_memory(ids[4], clock(), text="changed text")  # its vector goes with the old text
    found = _found(index, scope, 0)
    assert set(found) == set(ids) - {ids[1], ids[3], ids[4]}
    matrix = _matrix(index, plain.scope)
    assert matrix.masked == 3 and scope.complete == 1
    plain.scope.update_memory(ids[1], clock(), status="active")  # back: appended again
    plain.scope.put_vectors("memory", [(ids[4], _unit(99).tobytes())], MODEL, DIMS)
    assert _found(index, scope, 99, k=1) == [ids[4]]
    assert set(_found(index, scope, 0)) == set(ids) - {ids[3]}
    ids_sorted, scores = index.scores(scope, "memory", MODEL, _unit(0))
    assert list(ids_sorted) == sorted(set(ids) - {ids[3]}) and len(scores) == len(ids_sorted)
    assert scope.complete == 1


def test_compacts_when_masked_rows_pile_up(plain: Memory, clock: Clock) -> None:
    scope, index = Spy(plain.scope), VectorIndex()
    ids = _add_facts(plain.scope, range(300), clock())
    _found(index, scope, 0)
    plain.scope.delete_memories(ids[:100])
    assert set(_found(index, scope, 0)) == set(ids[100:])
    matrix = _matrix(index, plain.scope)
    assert matrix.masked == 0 and matrix.count == 200, "a third masked: compacted"
    assert list(matrix.ids[:200]) == ids[100:] and scope.complete == 1


def test_private_conversation_turns_leave_the_index(plain: Memory, clock: Clock) -> None:
    scope, index = Spy(plain.scope), VectorIndex()
    store = plain.scope
    public = store.start_conversation("test", clock())
    hidden = store.start_conversation("test", clock())
    turns = {}
    for conversation in (public, hidden):
        for n in range(3):
            message = store.add_message(conversation.id, "user", f"turn {n}", clock())
            store.put_vectors("message", [(message.id, _unit(message.id).tobytes())], MODEL, DIMS)
            turns[message.id] = conversation.id
    ids, _ = index.scores(scope, "message", MODEL, _unit(0))
    assert list(ids) == sorted(turns)
    store.set_private(hidden.id, True)
    ids, _ = index.scores(scope, "message", MODEL, _unit(0))
    assert list(ids) == sorted(m for m, c in turns.items() if c == public.id)
    store.set_private(hidden.id, False)
    ids, _ = index.scores(scope, "message", MODEL, _unit(0))
    assert list(ids) == sorted(turns)
    assert scope.complete == 1


def test_another_process_writes_are_seen(settings: Settings, clock: Clock) -> None:
    settings.embeddings.enabled = False
    with Memory(settings, clock=clock) as first, Memory(settings, clock=clock) as second:
        index = VectorIndex()
        scope = Spy(first.scope)
        ids = _add_facts(first.scope, range(5), clock())
        assert len(_found(index, scope, 0)) == 5
        (new,) = _add_facts(second.scope, [50], clock())  # written through the other store
        assert _found(index, scope, 50, k=1) == [new]
        second.delete(ids[0])
        second.scope.supersede(ids[1], new, clock())
        assert set(_found(index, scope, 0)) == {new, *ids[2:]}
        assert scope.complete == 1


def test_reloads_everything_once_the_log_is_pruned_past_its_mark(plain: Memory, clock: Clock) -> None:
    scope, index = Spy(plain.scope), VectorIndex()
    ids = _add_facts(plain.scope, range(5), clock())
    assert len(_found(index, scope, 0)) == 5
    more = _add_facts(plain.scope, range(5, 8), clock())
    plain.delete(ids[0])
    assert plain.scope.prune_vector_changes(keep=0) > 0
    assert set(_found(index, scope, 0)) == set(ids[1:] + more)
    assert scope.complete == 2, "the changes since the mark are gone: a full load"
    (last,) = _add_facts(plain.scope, [9], clock())
    assert _found(index, scope, 9, k=1) == [last] and scope.complete == 2


def test_rolled_back_writes_do_not_stay_in_the_cache(plain: Memory, clock: Clock) -> None:
    scope, index = Spy(plain.scope), VectorIndex()
    ids = _add_facts(plain.scope, range(5), clock())
    assert len(_found(index, scope, 0)) == 5

    class Abort(Exception):
        pass

    with pytest.raises(Abort), plain.scope.transaction():
        (ghost,) = _add_facts(plain.scope, [70], clock())
        plain.delete(ids[0])
        _found(index, scope, 70, k=1)  # SQLite shows the transaction its own writes; they are undone
        assert ghost
        raise Abort
    (kept,) = _add_facts(plain.scope, [71], clock())  # may reuse the rolled-back version number
    found = set(_found(index, scope, 0))
    assert found == set(ids) | {kept}


def test_maintenance_prunes_the_change_log(plain: Memory, clock: Clock) -> None:
    from reverie.maintain.nightly import VECTOR_CHANGES_KEPT

    scope = plain.scope
    for seed in range(3):  # three transactions, three versions
        _add_facts(scope, [seed], clock())
    assert scope.prune_vector_changes(keep=VECTOR_CHANGES_KEPT) == 0
    assert scope.prune_vector_changes(keep=1) == 2


@pytest.mark.postgres_only
def test_a_transaction_committing_late_is_not_skipped(settings: Settings, clock: Clock) -> None:
    import threading

    settings.embeddings.enabled = False
    with Memory(settings, clock=clock) as first, Memory(settings, clock=clock) as second:
        index, scope = VectorIndex(), Spy(first.scope)
        ids = _add_facts(first.scope, range(3), clock())
        assert len(_found(index, scope, 0)) == 3
        started, finish = threading.Event(), threading.Event()
        late: list[int] = []

        def late_writer() -> None:
            with second.scope.transaction():
                late.extend(_add_facts(second.scope, [80], clock()))
                started.set()
                finish.wait(10)

        thread = threading.Thread(target=late_writer)
        thread.start()
        assert started.wait(10)
        (early,) = _add_facts(first.scope, [81], clock())  # began later, commits first
        assert set(_found(index, scope, 0)) == {*ids, early}
        finish.set()
        thread.join()
        assert set(_found(index, scope, 0)) == {*ids, early, *late}
        assert scope.complete == 1
