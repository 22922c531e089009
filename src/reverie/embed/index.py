"""Cosine search over one user's vectors, held as numpy matrices between queries.

Measured on this 2-core machine (FACTS.md): numpy brute force answers k=10 in 0.4 ms at 10k
vectors and 3.7 ms at 100k, against 5 ms and 55 ms for sqlite-vec. Below ``ANN_ROWS`` (32k)
live rows every search is that exact scan. A remember at 90k facts spent most of its time in it
(16 ms CPU of 48), so from 32k rows on a search probes the nearest lists of an inverted file
(k-means over the rows, about a twentieth of them scanned; built on the first such search, kept
up to date with every change, rebuilt when the matrix doubled). The matrix then holds each
list's rows side by side, so a probe scans contiguous blocks (gathering the same rows cost four
times the CPU); rows appended since are filed by row number until they are an eighth of the
rest, and the matrix is laid out in list order again. One probed search in fifty is also
answered by the exact scan, which wins, and a recall under 0.95 over the last checks doubles
the lists probed.

A matrix is loaded from the database on first use and then kept up to date in place. Every
change of an item's vector or loadability is logged per user with the user's vector version
(store migration 0010), in commit order, so several processes stay consistent: when the version
moved, a refresh reads the ids changed since its mark, fetches their current loadable vectors,
overwrites those rows, appends new items into capacity reserved ahead (doubling when full, a
quarter more once large: amortised O(1)) and masks items that are gone. Masked rows are
compacted away once they are a quarter of the matrix. A cache older than the log's pruned floor
reloads everything. With a snapshot folder, matrices of a few thousand rows or more are saved at close
(``reverie.embed.snapshot``) and a new process maps them instead of reading every vector.

Chat turns' vectors (``QUANTISED_KINDS``) are held as int8 codes with a scale per row
(:mod:`reverie.embed.quantised`): a quarter of the memory, scanned in about 1.6 times the time.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np
import numpy.typing as npt

from reverie.embed.inverted_file import InvertedFile
from reverie.embed.quantised import dequantise, quantise, scan
from reverie.embed.service import FloatMatrix, from_blobs
from reverie.embed.snapshot import Snapshot, read_snapshot, snapshot_path, write_snapshot
from reverie.store.base import UserStore, VectorChanges, VectorKind

log = logging.getLogger(__name__)
DEFAULT_CACHE_BYTES = 512 * 1024 * 1024
_MIN_CAPACITY = 256
#: A full matrix doubles its capacity below this many rows and grows by a quarter from there on:
#: a big one's spare rows (up to as many as in use when doubling) and the copy made while it grows
#: (old and new held at once) are memory the user sees, and a quarter more still copies each row
#: only a few times over (amortised O(1)).
_GROW_ROWS = 4096
_COMPACT_SHARE = 0.25  # compact when masked rows exceed this share of the rows in use
_COMPACT_MIN = 64
#: From this many live rows on, a search probes the nearest lists of an inverted file (built
#: lazily) instead of scanning every row; below it every search is exact.
ANN_ROWS = 32_768
_MIN_PROBES = 8
_VERIFY_IDS = 8
_SNAPSHOT_ROWS = 4096  # smaller matrices load from the database in a few milliseconds
#: A snapshot is rewritten once this many changes were applied since it was read or written:
#: fewer are replayed from the change log in milliseconds at load, and a CLI call that adds one
#: fact to a large store does not rewrite the whole file.
SNAPSHOT_STALE = 1024
_CHECK_EVERY = 50  # one search in this many in a large matrix is also scanned exactly (recall check)
#: The lists probed double when the recall of the last checks (at least _RECALL_CHECKS of them,
#: up to twice as many) averages under _RECALL_TARGET, or at once when one check finds under half.
#: Doubling on any single miss ran away: at 90k facts 15 lists of 300 found 99.1% of the eight
#: nearest on average, but one check in 18 missed one, so the probes doubled every ~900 searches
#: (15, 30, 60 within 3,000 remembers, 4x the rows scanned) towards the exact scan.
_RECALL_TARGET = 0.95
_RECALL_CHECKS = 10
#: The matrix is laid out in list order again once rows appended since (the lists' tails) are
#: more than this share of the rows in the runs, and at least _TAIL_MIN.
_TAIL_SHARE = 8
_TAIL_MIN = 1024
#: Kinds held as int8 codes with a scale per row (:mod:`reverie.embed.quantised`): every chat turn
#: adds one vector of each, and a search ranks them all, so a long chat history must not sit in
#: float32. Memories stay float32: fewer, and the merge compares their cosines with thresholds.
QUANTISED_KINDS: frozenset[str] = frozenset({"message", "message_window"})


class _Matrix:
    """One user's vectors of one kind and model: rows in use, a live mask and spare capacity."""

    def __init__(self, dims: int, quantised: bool = False) -> None:
        self.lock = threading.Lock()
        self.dims = dims
        # Quantised: ``vectors`` holds int8 codes and ``scales`` each row's scale; else float32 rows.
        self.scales: FloatMatrix | None = np.zeros(0, dtype=np.float32) if quantised else None
        self.mark: int | None = None  # the store's vector version this reflects; None: not loaded
        self.pending: set[int] = set()  # ids applied from uncommitted writes: fetch them again
        self.reload = False  # a full load saw uncommitted writes: load again once they are over
        self.count = 0
        self.masked = 0
        self.ordered = True  # ids[:count] ascending
        self.ids: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self.vectors: npt.NDArray[np.float32 | np.int8] = self._empty(0)
        self.live: npt.NDArray[np.bool_] = np.zeros(0, dtype=bool)
        # id -> row of the live rows, made when first needed once ids[:count] no longer ascend (while
        # they do, a binary search finds a row, so a snapshot's 100k rows need no dictionary to search).
        self.rows: dict[int, int] | None = None
        self.lists: InvertedFile | None = None  # built on the first search at ANN size
        self.probes = 0  # lists a search probes; doubled when the recall checks fall short
        self.searches = self.checks = self.misses = 0  # misses: checks that missed a neighbour
        self.recalls: list[float] = []  # the last checks' recall, since the probes last changed
        self.unsaved = 0  # changes applied since the snapshot on disk was read or written
        self.verify: list[int] = []  # ids of an adopted snapshot to compare with the store's vectors

    @property
    def nbytes(self) -> int:
        scales = 0 if self.scales is None else self.scales.nbytes
        return int(self.vectors.nbytes + scales + self.ids.nbytes + self.live.nbytes)

    def _empty(self, capacity: int) -> npt.NDArray[np.float32 | np.int8]:
        return np.zeros((capacity, self.dims), dtype=np.float32 if self.scales is None else np.int8)

    def _allocate(self, capacity: int) -> None:
        ids = np.zeros(capacity, dtype=np.int64)
        vectors = self._empty(capacity)
        live = np.zeros(capacity, dtype=bool)
        n = self.count
        ids[:n], vectors[:n], live[:n] = self.ids[:n], self.vectors[:n], self.live[:n]
        if self.scales is not None:
            scales = np.zeros(capacity, dtype=np.float32)
            scales[:n] = self.scales[:n]
            self.scales = scales
        self.ids, self.vectors, self.live = ids, vectors, live

    def _store(self, vectors: FloatMatrix) -> None:
        """Hold these rows (and nothing else): as they are, or as codes and scales."""
        if self.scales is None:
            self.vectors = vectors
        else:
            self.vectors, self.scales = quantise(vectors)

    def _put(self, row: int, vector: npt.NDArray[np.float32]) -> None:
        if self.scales is None:
            self.vectors[row] = vector
        else:
            codes, scales = quantise(vector[None, :])
            self.vectors[row], self.scales[row] = codes[0], scales[0]

    def dense(self, rows: slice | npt.NDArray[np.int64]) -> FloatMatrix:
        """These rows as float32 (a view of float32 rows; a copy of quantised ones)."""
        if self.scales is None:
            return np.asarray(self.vectors[rows], dtype=np.float32)
        return dequantise(np.asarray(self.vectors[rows], dtype=np.int8), self.scales[rows])

    def _dot(self, first: int, end: int, query: npt.NDArray[np.float32], out: FloatMatrix) -> None:
        """``out[i - first]`` = row i · query for rows ``first:end`` (numpy's own loop: one core)."""
        if self.scales is None:
            np.einsum("ij,j->i", self.vectors[first:end], query, out=out)
        else:
            scan(np.asarray(self.vectors[first:end], dtype=np.int8), self.scales[first:end], query, out)

    def adopt(self, snapshot: Snapshot) -> None:
        """Start from a snapshot: its vectors stay memory-mapped until the first append."""
        n = len(snapshot.ids)
        self.ids, self.live = snapshot.ids, np.ones(n, dtype=bool)
        self._store(snapshot.vectors)  # quantised: read once into codes, the mapping let go
        self.count, self.masked = n, 0
        self.ordered = n < 2 or bool(np.all(snapshot.ids[1:] > snapshot.ids[:-1]))
        self.rows = None
        self.mark, self.reload = snapshot.mark, False
        self.unsaved = 0
        spread = np.linspace(0, n - 1, min(n, _VERIFY_IDS)).astype(np.int64)
        self.verify = self.ids[spread].tolist() if n else []
        if snapshot.centroids is not None and snapshot.assigned is not None:
            self.lists = InvertedFile(snapshot.centroids, snapshot.assigned.astype(np.int64), np.arange(n), n)
            self.probes = snapshot.probes

    def snapshot(self) -> Snapshot | None:
        """The committed state to save (lock held), or None while it is not known to be committed.

        Every row live: by id, or with lists in list order (the runs, ids ascending in each).
        """
        if self.mark is None or self.pending or self.reload:
            return None
        lists = self.lists
        if self.masked or (lists.tail if lists is not None else not self.ordered):
            self.compact()
        n = self.count
        return Snapshot(
            self.mark,
            self.ids[:n],
            self.dense(slice(0, n)),
            None if lists is None else lists.centroids,
            None if lists is None else lists.assignment(n),
            self.probes,
        )

    def fill(self, rows: list[tuple[int, bytes]]) -> None:
        """Replace everything with these rows, leaving room to grow."""
        matrix = from_blobs([blob for _, blob in rows], self.dims)
        n = len(rows)
        ids = np.array([item_id for item_id, _ in rows], dtype=np.int64)
        if n > 1 and not bool(np.all(ids[1:] > ids[:-1])):
            order = np.argsort(ids, kind="stable")
            ids, matrix = ids[order], matrix[order]
        self._store(matrix)
        self.ids, self.live, self.count, self.masked = ids, np.ones(n, dtype=bool), n, 0
        self._allocate(max(_MIN_CAPACITY, n + n // (2 if n < _GROW_ROWS else 4)))
        self.ordered = True
        self.rows = None
        self.lists = None
        self.unsaved = SNAPSHOT_STALE  # read from the database: worth a snapshot

    def apply(self, changed: list[int], rows: list[tuple[int, bytes]]) -> None:
        """Write the current vectors of changed items in place; mask the ones no longer loadable."""
        fresh = dict(
            zip((item_id for item_id, _ in rows), from_blobs([b for _, b in rows], self.dims), strict=True)
        )
        self.unsaved += len(changed)
        lists = self.lists
        for item_id in changed:
            row = self._row(item_id)
            vector = fresh.get(item_id)
            if vector is None:
                if row is not None:
                    self._mask(item_id, row)
            elif row is None:
                self._append(item_id, vector)
            elif lists is not None and not lists.stays(row, vector):
                self._mask(item_id, row)  # it leaves its list's run: masked there, appended anew
                self._append(item_id, vector)
            else:
                if lists is not None:
                    lists.move(row, self.dense(slice(row, row + 1))[0], vector)
                self._put(row, vector)
        if self.masked > max(_COMPACT_MIN, _COMPACT_SHARE * self.count):
            self.compact()

    def _mask(self, item_id: int, row: int) -> None:
        self.live[row] = False
        if self.rows is not None:
            del self.rows[item_id]
        self.masked += 1

    def _append(self, item_id: int, vector: npt.NDArray[np.float32]) -> None:
        n = self.count
        if n == len(self.ids):
            self._allocate(max(_MIN_CAPACITY, 2 * n if n < _GROW_ROWS else n + n // 4))
        if self.ordered and n and item_id < self.ids[n - 1]:
            self._row_index()  # the binary search ends here: made from the rows before this one
            self.ordered = False
        self.ids[n], self.live[n] = item_id, True
        self._put(n, vector)
        if self.rows is not None:
            self.rows[item_id] = n
        self.count = n + 1
        if self.lists is not None:
            self.lists.add(n, vector)

    def _same_as(self, rows: list[tuple[int, bytes]]) -> bool:
        """Whether the store's current vectors of the ``verify`` ids are the ones held here."""
        fetched = dict(rows)
        for item_id in self.verify:
            row, blob = self._row(item_id), fetched.get(item_id)
            if row is None or blob is None:
                return False
            if self.scales is None:
                if np.asarray(self.vectors[row], dtype="<f4").tobytes() != blob:
                    return False
            elif not np.allclose(self.dense(slice(row, row + 1))[0], from_blobs([blob], self.dims)[0],
                                 rtol=0, atol=float(self.scales[row])):
                return False  # codes stand for the vector within half a step: a different vector
        return True

    def _row_index(self) -> dict[int, int]:
        """id -> row of the live rows (made once, then kept up to date)."""
        if self.rows is None:
            live = np.flatnonzero(self.live[: self.count])
            self.rows = dict(zip(self.ids[live].tolist(), live.tolist(), strict=True))
        return self.rows

    def _row(self, item_id: int) -> int | None:
        """The live row holding an item, if any."""
        if self.rows is not None or not self.ordered:
            return self._row_index().get(item_id)
        # Ascending ids; a masked row may repeat the id of the newest one just after it.
        row = int(np.searchsorted(self.ids[: self.count], item_id, side="right")) - 1
        return row if row >= 0 and self.ids[row] == item_id and self.live[row] else None

    def compact(self) -> None:
        """Drop masked rows; order the others by id, or with lists by list and then id (the runs)."""
        n = self.count
        keep = np.flatnonzero(self.live[:n])
        lists = self.lists
        listed = None
        if lists is not None:
            listed = lists.assignment(n)[keep]
            order = np.lexsort((self.ids[keep], listed))
            keep, listed = keep[order], listed[order]
        elif not self.ordered:
            keep = keep[np.argsort(self.ids[keep], kind="stable")]
        m = len(keep)
        self.ids[:m], self.vectors[:m] = self.ids[keep], self.vectors[keep]
        if self.scales is not None:
            self.scales[:m] = self.scales[keep]
        self.live[:m], self.live[m:n] = True, False
        self.count, self.masked = m, 0
        self.ordered = m < 2 or bool(np.all(self.ids[1:m] > self.ids[: m - 1]))
        self.rows = None
        if lists is not None and listed is not None:
            lists.lay_out(listed.astype(np.int64))

    def catch_up(self, scope: UserStore, kind: VectorKind, model_id: str) -> None:
        """Bring the matrix to the store's current version (call with the lock held)."""
        if self.mark is not None and not self.pending and not self.reload and not self.verify:
            if scope.vectors_version() == self.mark:
                return
        after = None if self.mark is None or self.reload else self.mark
        also = sorted(self.pending.union(self.verify))
        delta: VectorChanges = scope.vector_changes(kind, model_id, after, also)
        if self.verify:
            # A snapshot of another database at the same path (deleted and made again) can carry a
            # version the new one has reached: a few of its vectors must be the store's.
            if not delta.complete and not self._same_as(delta.rows):
                delta = scope.vector_changes(kind, model_id, None, sorted(self.pending))
            self.verify = []
        if delta.complete:
            self.fill(delta.rows)
        else:
            self.apply(delta.changed, delta.rows)
        if delta.own:  # seen before commit: it may still roll back, so look again afterwards
            self.reload = self.reload or delta.complete
            self.pending.update(delta.changed)
            if self.mark is None:
                self.mark, self.reload = delta.version, True
        else:
            self.mark, self.reload = delta.version, False
            self.pending.clear()

    def nearest(
        self, query: npt.NDArray[np.float32], k: int, floor: float, ann_rows: int
    ) -> list[tuple[int, float]]:
        """The ``k`` most similar live rows (id, cosine) at least ``floor``, best first (lock held).

        Exact below ``ann_rows`` live rows. From there on, the lists nearest the query are probed
        (about a twentieth of the rows); one search in ``_CHECK_EVERY`` is also answered by the
        exact scan, which wins, and a recall of the last checks under 0.95 on average (or of one
        check under 0.5) doubles the lists probed from then on; once they would be half of the
        lists, every search is the exact scan again.
        """
        n = self.count
        if n == 0 or k <= 0:
            return []
        if n - self.masked < ann_rows:
            return self._found(np.arange(n), self.scores(query), k, floor)
        if self.lists is None or n - self.masked > 2 * self.lists.built_for:
            self.lists = InvertedFile.build(self.dense(slice(0, n)), self.live[:n])
            self.probes = max(self.probes, _MIN_PROBES, len(self.lists.centroids) // 20)
            self.compact()  # lay the rows out in list order
        elif self.lists.tail > max(_TAIL_MIN, self.lists.laid // _TAIL_SHARE):
            self.compact()  # the tails join the runs
        lists = self.lists
        if 2 * self.probes >= len(lists.centroids):  # probing would cost more than the scan
            return self._found(np.arange(self.count), self.scores(query), k, floor)
        runs, tail = lists.probe(query, self.probes)
        size = sum(end - first for first, end in runs)
        rows = np.empty(size + len(tail), dtype=np.int64)
        scores: FloatMatrix = np.empty(size + len(tail), dtype=np.float32)
        at = 0
        for first, end in runs:  # contiguous blocks, read forwards; one core
            rows[at : at + end - first] = np.arange(first, end)
            self._dot(first, end, query, scores[at : at + end - first])
            at += end - first
        if len(tail):
            rows[at:] = tail
            scores[at:] = np.einsum("ij,j->i", self.dense(tail), query)
        scores[~self.live[rows]] = -np.inf
        found = self._found(rows, scores, k, floor)
        self.searches += 1
        if self.searches % _CHECK_EVERY:
            return found
        exact = self._found(np.arange(self.count), self.scores(query), k, floor)
        self.checks += 1
        missing = {item_id for item_id, _ in exact} - {item_id for item_id, _ in found}
        recall = 1.0 - len(missing) / len(exact) if exact else 1.0
        self.misses += bool(missing)
        self.recalls = [*self.recalls[1 - 2 * _RECALL_CHECKS :], recall]
        mean = sum(self.recalls) / len(self.recalls)
        if recall < 0.5 or (len(self.recalls) >= _RECALL_CHECKS and mean < _RECALL_TARGET):
            self.probes = min(2 * self.probes, len(lists.centroids))
            self.recalls = []
        return exact

    def _found(
        self, rows: npt.NDArray[np.int64], scores: FloatMatrix, k: int, floor: float
    ) -> list[tuple[int, float]]:
        """(id, score) of the ``k`` best ``scores`` at least ``floor`` (of ``rows``), best first."""
        # Only the few rows over the floor are ranked: no negated copy, no partition of them all.
        over = np.flatnonzero(scores >= floor)
        if len(over) > k:
            over = over[np.argpartition(-scores[over], k - 1)[:k]]
        over = over[np.argsort(-scores[over], kind="stable")]
        return [(int(self.ids[rows[i]]), float(scores[i])) for i in over]

    def scores(self, query: npt.NDArray[np.float32]) -> FloatMatrix:
        """Cosine of the query with every row in use; masked rows score -inf."""
        n = self.count
        # One core (numpy's own loop), at any size: the scan is bound by memory, and BLAS's two
        # threads took more wall time as well as twice the CPU (32k rows: 4.9 ms wall, 5.8 CPU,
        # against 2.4 and 3.9; 131k: 20.0 and 19.3 against 17.3 and 16.1), and on a busy machine
        # (ONNX threads, other requests) a threaded product over 3k rows took tens of milliseconds.
        scores: FloatMatrix = np.empty(n, dtype=np.float32)
        self._dot(0, n, query, scores)
        if self.masked:
            scores[~self.live[:n]] = -np.inf
        return scores


class VectorIndex:
    """Per-process cache of per-user vector matrices with exact top-k search."""

    def __init__(
        self, max_bytes: int = DEFAULT_CACHE_BYTES, *, ann_rows: int = ANN_ROWS, snapshots: Path | None = None
    ) -> None:
        self.max_bytes = max_bytes
        self.ann_rows = ann_rows
        self.snapshots = snapshots  # a folder for this database's snapshots, or None for none
        self._cache: OrderedDict[tuple[int, str, str], _Matrix] = OrderedDict()
        self._sizes: dict[tuple[int, str, str], int] = {}
        self._lock = threading.Lock()

    def _entry(self, scope: UserStore, kind: VectorKind, model_id: str, dims: int) -> _Matrix:
        key = (scope.user_id, kind, model_id)
        with self._lock:
            found = self._cache.get(key)
            if found is None or found.dims != dims:
                found = self._cache[key] = _Matrix(dims, quantised=kind in QUANTISED_KINDS)
                self._sizes[key] = 0
                if self.snapshots is not None:
                    saved = read_snapshot(snapshot_path(self.snapshots, *key), dims)
                    if saved is not None:
                        found.adopt(saved)
            self._cache.move_to_end(key)
            return found

    def _account(self, scope: UserStore, kind: VectorKind, model_id: str, matrix: _Matrix) -> None:
        key = (scope.user_id, kind, model_id)
        with self._lock:
            if self._cache.get(key) is not matrix:
                return  # evicted or cleared meanwhile
            self._sizes[key] = matrix.nbytes
            while sum(self._sizes.values()) > self.max_bytes and len(self._cache) > 1:
                old, _ = self._cache.popitem(last=False)
                self._sizes.pop(old, None)

    def search(
        self,
        scope: UserStore,
        kind: VectorKind,
        model_id: str,
        query: npt.NDArray[np.float32],
        *,
        k: int,
        min_similarity: float = -1.0,
    ) -> list[tuple[int, float]]:
        """The ``k`` most similar items (id, cosine), best first, at least ``min_similarity``."""
        matrix = self._entry(scope, kind, model_id, int(query.shape[0]))
        with matrix.lock:
            matrix.catch_up(scope, kind, model_id)
            found = matrix.nearest(query, k, min_similarity, self.ann_rows)
        self._account(scope, kind, model_id, matrix)
        return found

    def prepare(self, scope: UserStore, kind: VectorKind, model_id: str) -> None:
        """Bring a cached matrix up to date now, while the query's vector is still being computed:
        the search that follows, in the same write transaction, then finds nothing new to fetch.
        A matrix not loaded yet is left to that search (its dimensions come with the query)."""
        key = (scope.user_id, kind, model_id)
        with self._lock:
            matrix = self._cache.get(key)
        if matrix is None:
            return
        with matrix.lock:
            matrix.catch_up(scope, kind, model_id)
        self._account(scope, kind, model_id, matrix)

    def scores(
        self, scope: UserStore, kind: VectorKind, model_id: str, query: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.int64], FloatMatrix]:
        """(ids ascending, cosine of the query with each) over every item of one kind."""
        matrix = self._entry(scope, kind, model_id, int(query.shape[0]))
        with matrix.lock:
            matrix.catch_up(scope, kind, model_id)
            if not matrix.ordered and matrix.lists is None:
                matrix.compact()
            scores = matrix.scores(query)
            n = matrix.count
            if matrix.masked:
                keep = matrix.live[:n]
                ids, scores = matrix.ids[:n][keep], scores[keep]
            else:
                ids = matrix.ids[:n].copy()
            if not matrix.ordered:  # laid out in list order (lists of a search at ANN size)
                order = np.argsort(ids, kind="stable")
                ids, scores = ids[order], scores[order]
        self._account(scope, kind, model_id, matrix)
        return ids, scores

    def save(self) -> int:
        """Snapshot each cached matrix of a few thousand rows or more that changed enough; how many."""
        if self.snapshots is None:
            return 0
        with self._lock:
            cached = list(self._cache.items())
        written = 0
        for (user_id, kind, model_id), matrix in cached:
            with matrix.lock:
                if matrix.count < _SNAPSHOT_ROWS or matrix.unsaved < SNAPSHOT_STALE:
                    continue
                snapshot = matrix.snapshot()
                if snapshot is None:
                    continue
                path = snapshot_path(self.snapshots, user_id, kind, model_id)
                try:
                    write_snapshot(path, snapshot)
                except OSError as exc:  # a cache: the next process reads the database instead
                    log.warning("Could not write the vector snapshot %s: %s", path, exc)
                    continue
                matrix.unsaved = 0
                written += 1
        return written

    def clear(self) -> None:
        """Forget every cached matrix."""
        with self._lock:
            self._cache.clear()
            self._sizes.clear()


__all__ = ["VectorIndex"]
