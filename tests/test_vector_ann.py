"""Large matrices: inverted-file probes that agree with the exact scan, and snapshots read after a restart."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import Clock

from reverie import Memory, Settings
from reverie.config import load_settings
from reverie.embed.index import VectorIndex
from reverie.embed.snapshot import read_snapshot, snapshot_path
from reverie.store.base import NewMemory, UserStore, VectorChanges, VectorKind

MODEL, DIMS = "test-unit", 32
_CENTRES = np.random.default_rng(7).standard_normal((12, DIMS)).astype(np.float32)


def _unit(seed: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """A vector near one of a dozen centres, as sentence vectors gather by topic."""
    rng = np.random.default_rng(seed)
    vector = _CENTRES[seed % len(_CENTRES)] + 0.6 * rng.standard_normal(DIMS).astype(np.float32)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


class Spy:
    """A UserStore that counts complete loads."""

    def __init__(self, scope: UserStore) -> None:
        self._scope = scope
        self.user_id = scope.user_id
        self.complete = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._scope, name)

    def vector_changes(
        self, kind: VectorKind, model_id: str, after: int | None, also: Sequence[int] = ()
    ) -> VectorChanges:
        delta = self._scope.vector_changes(kind, model_id, after, also)
        self.complete += delta.complete
        return delta


def _plain(settings: Settings, clock: Clock) -> Memory:
    settings.embeddings.enabled = False
    return Memory(settings, clock=clock)


def _add(scope: UserStore, seeds: Sequence[int], now: float) -> list[int]:
    ids = []
    with scope.transaction():
        for seed in seeds:
            row = scope.insert_memory(NewMemory(kind="fact", text=f"fact {seed}", source="explicit",
                                                confidence=1.0), now)
            scope.put_vectors("memory", [(row.id, _unit(seed).tobytes())], MODEL, DIMS)
            ids.append(row.id)
    return ids


def _search(index: VectorIndex, scope: Any, seed: int, k: int = 10) -> list[tuple[int, float]]:
    return index.search(scope, "memory", MODEL, _unit(seed), k=k, min_similarity=-1.0)


def _exact(scope: UserStore, seed: int, k: int = 10) -> list[tuple[int, float]]:
    """The answer of a full load and a scan of every row."""
    return _search(VectorIndex(ann_rows=10**9), scope, seed, k)


def _matrix(index: VectorIndex, scope: Any) -> Any:
    return index._cache[(scope.user_id, "memory", MODEL)]


def _ids(found: list[tuple[int, float]]) -> list[int]:
    return [item for item, _ in found]


def test_small_matrices_are_scanned_exactly(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(300), clock())
        index = VectorIndex()
        for seed in range(1000, 1020):
            assert _search(index, mem.scope, seed) == _exact(mem.scope, seed)
        assert _matrix(index, mem.scope).lists is None


def test_probes_find_what_the_exact_scan_finds(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(2000), clock())
        index = VectorIndex(ann_rows=500)
        hits = total = 0
        for seed in range(5000, 5200):
            found, exact = _ids(_search(index, mem.scope, seed)), _ids(_exact(mem.scope, seed))
            hits += len(set(found) & set(exact))
            total += len(exact)
        matrix = _matrix(index, mem.scope)
        assert matrix.lists is not None and matrix.probes < len(matrix.lists.centroids)
        assert hits / total >= 0.95
        assert matrix.checks == 200 // 50, "one search in fifty is checked against the exact scan"


def test_recall_checks_that_fall_short_widen_the_probes(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(1000), clock())
        index = VectorIndex(ann_rows=500)
        _search(index, mem.scope, 0)
        matrix = _matrix(index, mem.scope)
        matrix.probes = 1
        for seed in range(3000, 3600):
            found = _search(index, mem.scope, seed)
            if matrix.searches % 50 == 0:
                assert found == _exact(mem.scope, seed), "a checked search answers exactly"
        assert matrix.misses >= 1 and matrix.probes >= 2


def test_a_miss_now_and_then_does_not_widen_the_probes(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(2000), clock())
        index = VectorIndex(ann_rows=500)
        _search(index, mem.scope, 0)
        matrix = _matrix(index, mem.scope)
        probes = matrix.probes
        matrix.recalls = [1.0] * 8 + [0.875]  # one neighbour of eight missed in nine checks
        matrix.searches = 49
        _search(index, mem.scope, 1)  # the tenth check, of a stored vector: its lists hold its neighbours
        assert matrix.checks == 1 and matrix.probes == probes, "a miss now and then: the probes stay"
        matrix.recalls = [0.875] * 9
        matrix.searches = 99
        _search(index, mem.scope, 5000)  # whatever this check finds, the mean is 0.8875 or less
        assert matrix.probes == 2 * probes and matrix.recalls == [], "recall under 0.95: doubled"


def test_lists_follow_appends_edits_and_removals_of_two_processes(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as first, _plain(settings, clock) as second:
        ids = _add(first.scope, range(800), clock())
        index = VectorIndex(ann_rows=400)
        _search(index, first.scope, 0)
        matrix = _matrix(index, first.scope)
        rng = np.random.default_rng(3)
        for round_ in range(12):
            writer = (first, second)[round_ % 2]
            ids += _add(writer.scope, range(10_000 + 100 * round_, 10_000 + 100 * round_ + 60), clock())
            for item in rng.choice(ids, 40, replace=False).tolist():
                if writer.scope.get_memory(item) is not None:
                    writer.delete(item)
            edited = int(rng.choice(ids))
            with writer.scope.transaction():
                if writer.scope.get_memory(edited) is not None:
                    vector = _unit(99_000 + round_).tobytes()
                    writer.scope.put_vectors("memory", [(edited, vector)], MODEL, DIMS)
            _check_lists(matrix)
            matrix.probes = 10**6  # every list: whatever is missing from the lists shows
            for seed in (round_, 99_000 + round_, 20_000 + round_):
                assert _search(index, first.scope, seed) == _exact(first.scope, seed)
        assert matrix.lists is not None, "the inverted file was kept up to date, not rebuilt from scratch"


def test_appended_rows_join_the_runs_once_the_tails_grow(
    settings: Settings, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("reverie.embed.index._TAIL_MIN", 50)
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(800), clock())
        index = VectorIndex(ann_rows=400)
        _search(index, mem.scope, 0)
        matrix = _matrix(index, mem.scope)
        assert matrix.lists.laid == 800 and matrix.lists.tail == 0, "built: every row in its list's run"
        added = _add(mem.scope, range(20_000, 20_090), clock())
        assert _search(index, mem.scope, 20_005, k=1)[0][0] == added[5], "a tail row is probed"
        assert matrix.lists.laid == 800 and matrix.lists.tail == 90
        _check_lists(matrix)
        more = _add(mem.scope, range(21_000, 21_020), clock())
        assert _search(index, mem.scope, 21_003, k=1)[0][0] == more[3]
        assert matrix.lists.laid == 910 and matrix.lists.tail == 0, "over an eighth: laid out again"
        _check_lists(matrix)
        assert not matrix.ordered and _search(index, mem.scope, 20_042, k=1)[0][0] == added[42]


def _check_lists(matrix: Any) -> None:
    """Every live row is filed once, in the list nearest its current vector: in its list's run
    (the matrix holds each list's rows side by side) or, appended since, in its list's tail."""
    lists = matrix.lists
    filed = {}
    starts = lists.starts.tolist()
    for index, (first, end) in enumerate(zip(starts[:-1], starts[1:], strict=True)):
        filed.update(dict.fromkeys(range(first, end), index))
    for index, store in enumerate(lists.members):
        for row in store[: lists.sizes[index]].tolist():
            assert row not in filed or lists.twins, f"row {row} filed twice"
            filed[row] = index
    for row in np.flatnonzero(matrix.live[: matrix.count]).tolist():
        assert filed.get(row) == int(np.argmax(lists.centroids @ matrix.vectors[row])), f"row {row} misfiled"


def test_a_restart_maps_the_snapshot_and_replays_later_changes(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        ids = _add(mem.scope, range(6000), clock())
        folder = Path(settings.home) / "snapshots"
        index = VectorIndex(ann_rows=4000, snapshots=folder)
        before = _search(index, mem.scope, 1)
        assert index.save() == 1
        saved = read_snapshot(snapshot_path(folder, mem.scope.user_id, "memory", MODEL), DIMS)
        assert saved is not None and isinstance(saved.vectors, np.memmap) and saved.centroids is not None
        later = _add(mem.scope, [70_001, 70_002], clock())  # written after the snapshot
        mem.delete(ids[5])
        restarted, scope = VectorIndex(ann_rows=4000, snapshots=folder), Spy(mem.scope)
        matrix = _matrix_after(restarted, scope)
        assert scope.complete == 0, "no full load of the user's vectors"
        assert matrix.lists is not None, "the inverted file came with the snapshot"
        assert _search(restarted, scope, 70_001, k=1)[0][0] == later[0]
        assert ids[5] not in _ids(_search(restarted, scope, 5, k=50))
        assert _search(restarted, scope, 1) == [hit for hit in before if hit[0] != ids[5]][:10]


def _matrix_after(index: VectorIndex, scope: Spy) -> Any:
    _search(index, scope, 0)
    return _matrix(index, scope)


def test_a_snapshot_of_another_database_is_not_trusted(
    settings: Settings, clock: Clock, tmp_path: Path
) -> None:
    folder = tmp_path / "snapshots"
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(5000), clock())
        index = VectorIndex(snapshots=folder)
        _search(index, mem.scope, 0)
        assert index.save() == 1
    # Another database where the first one was (deleted and made again): the same user id, ids and
    # vector version as the snapshot's, other vectors.
    other = load_settings(home=tmp_path / "other", environ={})
    with _plain(other, clock) as fresh:
        ids = _add(fresh.scope, range(100_000, 105_000), clock())
        scope = Spy(fresh.scope)
        assert fresh.scope.user_id == mem.scope.user_id
        assert _search(VectorIndex(snapshots=folder), scope, 100_042) == _exact(fresh.scope, 100_042)
        assert _search(VectorIndex(snapshots=folder), scope, 100_042, k=1)[0][0] == ids[42]
        assert scope.complete == 2, "each index read everything from the database"


def test_a_snapshot_is_rewritten_only_once_enough_changed(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(5000), clock())
        folder = Path(settings.home) / "snapshots"
        first = VectorIndex(snapshots=folder)
        _search(first, mem.scope, 0)
        assert first.save() == 1 and first.save() == 0, "nothing changed since"
        restarted = VectorIndex(snapshots=folder)
        _add(mem.scope, range(8000, 8003), clock())
        _search(restarted, mem.scope, 0)
        assert restarted.save() == 0, "three changes replay from the log: the file is not rewritten"
        added = _add(mem.scope, range(9000, 9000 + 1100), clock())
        _search(restarted, mem.scope, 0)
        assert restarted.save() == 1
        again = Spy(mem.scope)
        assert _search(VectorIndex(snapshots=folder), again, 9005, k=1)[0][0] == added[5]
        assert again.complete == 0


_CHILD = """
import sys
sys.path.insert(0, {tests!r})
import numpy as np
from reverie import Memory
from reverie.config import load_settings
from test_vector_ann import MODEL, DIMS, _add, _unit
settings = load_settings(home={home!r}, environ={{"REVERIE_STORE__URL": {url!r}}})
settings.embeddings.enabled = False
with Memory(settings) as mem:
    ids = _add(mem.scope, range({first}, {first} + 60), 1_768_500_000.0)
    for item in np.random.default_rng({first}).choice(ids + {older}, 40, replace=False).tolist():
        if mem.scope.get_memory(item) is not None:
            mem.delete(item)
    with mem.scope.transaction():
        mem.scope.put_vectors("memory", [({older}[0], _unit({first} + 500).tobytes())], MODEL, DIMS)
"""


def test_another_process_appends_edits_and_removes(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        ids = _add(mem.scope, range(900), clock())
        index = VectorIndex(ann_rows=400)
        _search(index, mem.scope, 0)
        matrix = _matrix(index, mem.scope)
        for first in (30_000, 31_000, 32_000):
            alive = [item for item in ids if mem.scope.get_memory(item) is not None]
            code = _CHILD.format(tests=str(Path(__file__).parent), home=str(settings.home),
                                 url=settings.store.url, first=first, older=alive[first % 97:][:30])
            subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
            matrix.probes = 10**6
            for seed in (first, first + 500, first + 59, 5):
                assert _search(index, mem.scope, seed) == _exact(mem.scope, seed)
            _check_lists(matrix)
        assert matrix.lists is not None


def test_a_snapshot_that_cannot_be_written_is_skipped(
    settings: Settings, clock: Clock, tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(4200), clock())
        index = VectorIndex(snapshots=blocked / "snapshots")
        _search(index, mem.scope, 0)
        assert index.save() == 0, "closing goes on; the next process reads the database"


def test_probing_half_the_lists_falls_back_to_the_exact_scan(settings: Settings, clock: Clock) -> None:
    with _plain(settings, clock) as mem:
        _add(mem.scope, range(1000), clock())
        index = VectorIndex(ann_rows=500)
        _search(index, mem.scope, 0)
        matrix = _matrix(index, mem.scope)
        matrix.probes, probed = (len(matrix.lists.centroids) + 1) // 2, matrix.searches
        for seed in range(4000, 4030):
            assert _search(index, mem.scope, seed, k=50) == _exact(mem.scope, seed, k=50)
        assert matrix.searches == probed, "no list was probed"
