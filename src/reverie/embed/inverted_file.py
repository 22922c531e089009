"""The inverted file of a large vector matrix: k-means lists whose nearest few a search probes.

:mod:`reverie.embed.index` builds one over a matrix of ``ANN_ROWS`` live rows or more and keeps
it up to date with every change; this module only knows the lists, not the matrix's items.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from reverie.embed.service import FloatMatrix

_KMEANS_ROUNDS = 4
_ASSIGN_CHUNK = 8192


class InvertedFile:
    """An inverted-file partition of a matrix's rows: a centroid per list, each row in its nearest list.

    The matrix keeps each list's rows side by side, its *run* (rows ``starts[i]`` up to
    ``starts[i + 1]``), so a search scans a few contiguous blocks of the matrix and gathers
    nothing: four times less CPU than gathering the same rows (about a tenth of 90k rows). A row
    appended since the matrix was last laid out is filed by its row number in its list's *tail*,
    until the tails hold an eighth of the runs' rows and the matrix is laid out again (a copy in
    list order, no new k-means).
    """

    def __init__(
        self,
        centroids: FloatMatrix,
        assigned: npt.NDArray[np.int64],
        rows: npt.NDArray[np.int64],
        built_for: int,
    ) -> None:
        self.centroids = centroids
        self.built_for = built_for  # rows in use when built: rebuilt once the matrix doubled
        self.twins = False  # a tail row was filed again (its vector changed): probes may repeat it
        count = len(centroids)
        self.members: list[npt.NDArray[np.int64]] = [np.zeros(8, dtype=np.int64) for _ in range(count)]
        self.sizes = np.zeros(count, dtype=np.int64)
        self.starts = np.zeros(count + 1, dtype=np.int64)
        self.tail = 0  # rows filed in the tails
        in_order = bool(np.all(rows == np.arange(len(rows)))) and bool(np.all(assigned[1:] >= assigned[:-1]))
        if len(rows) and in_order:
            self.lay_out(assigned)  # rows already in list order (a snapshot): they are the runs
            return
        order = np.argsort(assigned, kind="stable")
        bounds = np.searchsorted(assigned[order], np.arange(count + 1))
        for index in range(count):
            part = rows[order[bounds[index] : bounds[index + 1]]]
            store = np.zeros(max(8, 2 * len(part)), dtype=np.int64)
            store[: len(part)] = part
            self.members[index] = store
            self.sizes[index] = len(part)
        self.tail = len(rows)

    @classmethod
    def build(cls, vectors: FloatMatrix, live: npt.NDArray[np.bool_]) -> InvertedFile:
        """Cluster the live rows (k-means on a sample, seeded: the same rows give the same lists)."""
        rows = np.flatnonzero(live)
        count = int(np.clip(np.sqrt(len(rows)), 16, 1024))
        rng = np.random.default_rng(len(rows))
        sample = vectors[np.sort(rng.choice(rows, min(len(rows), 32 * count), replace=False))]
        centroids = sample[rng.choice(len(sample), count, replace=False)].copy()
        for _ in range(_KMEANS_ROUNDS):
            nearest = np.argmax(sample @ centroids.T, axis=1)
            sums = np.zeros_like(centroids)
            np.add.at(sums, nearest, sample)
            norms = np.linalg.norm(sums, axis=1)
            filled = norms > 0
            centroids[filled] = sums[filled] / norms[filled, None]
        assigned = (
            np.concatenate(
                [
                    np.argmax(vectors[rows[first : first + _ASSIGN_CHUNK]] @ centroids.T, axis=1)
                    for first in range(0, len(rows), _ASSIGN_CHUNK)
                ]
            )
            if len(rows)
            else np.zeros(0, dtype=np.int64)
        )
        return cls(centroids, assigned.astype(np.int64), rows.astype(np.int64), len(rows))

    @property
    def laid(self) -> int:
        """Rows in the runs: the rows before this one."""
        return int(self.starts[-1])

    def lay_out(self, assigned: npt.NDArray[np.int64]) -> None:
        """The matrix holds its rows in list order now (``assigned[row]`` non-decreasing): the runs."""
        self.starts = np.searchsorted(assigned, np.arange(len(self.centroids) + 1)).astype(np.int64)
        self.sizes[:] = 0
        self.tail = 0
        self.twins = False

    def stays(self, row: int, vector: npt.NDArray[np.float32]) -> bool:
        """Whether a row can take this vector where it is: a tail row always can (it is filed again),
        a run's row only if the vector's nearest list is that run's."""
        if row >= self.laid:
            return True
        run = int(np.searchsorted(self.starts, row, side="right")) - 1
        return run == int(np.argmax(self.centroids @ vector))

    def move(self, row: int, old: npt.NDArray[np.float32], new: npt.NDArray[np.float32]) -> None:
        """A tail row's vector changes from ``old`` to ``new``: file it where the new one belongs."""
        if row < self.laid:
            return  # a run's row stays in its run (see ``stays``)
        was, goes = int(np.argmax(self.centroids @ old)), int(np.argmax(self.centroids @ new))
        if was == goes:
            return
        size, store = int(self.sizes[was]), self.members[was]
        found = np.flatnonzero(store[:size] == row)
        if len(found):
            store[found[0]] = store[size - 1]
            self.sizes[was] = size - 1
            self.tail -= 1
        else:  # not where its vector says (a tie): it stays there too, and probes drop the twin
            self.twins = True
        self.add(row, new)

    def add(self, row: int, vector: npt.NDArray[np.float32]) -> None:
        """File an appended row in the tail of its nearest list."""
        index = int(np.argmax(self.centroids @ vector))
        size = int(self.sizes[index])
        store = self.members[index]
        if size == len(store):
            store = self.members[index] = np.concatenate([store, np.zeros(size, dtype=np.int64)])
        store[size] = row
        self.sizes[index] = size + 1
        self.tail += 1

    def assignment(self, count: int) -> npt.NDArray[np.int32]:
        """Each of ``count`` rows' list (a row filed twice: its later list)."""
        found = np.zeros(count, dtype=np.int32)
        laid = self.laid
        found[:laid] = np.repeat(np.arange(len(self.centroids), dtype=np.int32), np.diff(self.starts))
        for index, store in enumerate(self.members):
            found[store[: self.sizes[index]]] = index
        return found

    def probe(
        self, query: npt.NDArray[np.float32], lists: int
    ) -> tuple[list[tuple[int, int]], npt.NDArray[np.int64]]:
        """The runs (first row, end) and tail rows of the ``lists`` lists nearest the query, in row order."""
        near = self.centroids @ query
        if lists < len(near):
            chosen = np.sort(np.argpartition(-near, lists - 1)[:lists])
        else:
            chosen = np.arange(len(near))
        runs: list[tuple[int, int]] = []
        for first, end in zip(self.starts[chosen].tolist(), self.starts[chosen + 1].tolist(), strict=True):
            if end == first:
                continue
            if runs and runs[-1][1] == first:  # neighbouring runs: one block
                runs[-1] = (runs[-1][0], end)
            else:
                runs.append((first, end))
        if not self.tail:
            return runs, np.zeros(0, dtype=np.int64)
        tail = np.concatenate([self.members[index][: self.sizes[index]] for index in chosen.tolist()])
        return runs, np.unique(tail) if self.twins else np.sort(tail)


__all__ = ["InvertedFile"]
