"""Vector matrix snapshots on disk, so the first search after a restart reads no vectors from the database.

A snapshot is one file per (user, kind, model): a JSON header (the user's vector version it
reflects, the row count, the inverted file's centroids and probes), the item ids (ascending, or
with an inverted file in list order: each list's rows side by side), the inverted-file list of
each row and the float32 vectors. It is written whole to a temporary file
and renamed over the old one, so a reader sees one complete snapshot or the previous one. The
vectors are memory-mapped copy-on-write: a search touches only the pages of the rows it scans,
and changes stay in the process. A snapshot is trusted no further than the store's change log:
the loader replays the changes since its version, and reloads everything when the log no longer
reaches back that far or the version is ahead of the store.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]

_MAGIC = b"RVSNAP01"
_ALIGN = 64


@dataclass(frozen=True)
class Snapshot:
    """One matrix as saved: every row live; ids ascending, or in list order when it has lists."""

    mark: int
    ids: npt.NDArray[np.int64]
    vectors: FloatMatrix
    centroids: FloatMatrix | None = None  # the inverted file, when the matrix had one
    assigned: npt.NDArray[np.int32] | None = None  # each row's list
    probes: int = 0


def snapshot_path(folder: Path, user_id: int, kind: str, model_id: str) -> Path:
    """Where one user's matrix of one kind and model is kept."""
    model = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in model_id)
    return folder / f"user{user_id}-{kind}-{model}.snap"


def _aligned(size: int) -> int:
    return -(-size // _ALIGN) * _ALIGN


def write_snapshot(path: Path, snapshot: Snapshot) -> None:
    """Write a snapshot atomically (temporary file, then rename)."""
    count, dims = snapshot.vectors.shape
    header: dict[str, object] = {"mark": snapshot.mark, "count": count, "dims": dims}
    header["probes"] = snapshot.probes
    parts: list[npt.NDArray[np.generic]] = [np.ascontiguousarray(snapshot.ids, dtype="<i8")]
    if snapshot.centroids is not None and snapshot.assigned is not None:
        header["lists"] = len(snapshot.centroids)
        parts += [np.ascontiguousarray(snapshot.centroids, dtype="<f4"),
                  np.ascontiguousarray(snapshot.assigned, dtype="<i4")]
    parts.append(np.ascontiguousarray(snapshot.vectors, dtype="<f4"))
    raw = json.dumps(header).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_MAGIC + struct.pack("<I", len(raw)) + raw)
            for part in parts:
                out.write(b"\0" * (_aligned(out.tell()) - out.tell()))
                out.write(part.tobytes())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def read_snapshot(path: Path, dims: int) -> Snapshot | None:
    """The snapshot at ``path`` (vectors memory-mapped), or None if there is none or it does not fit."""
    try:
        with open(path, "rb") as src:
            head = src.read(len(_MAGIC) + 4)
            if len(head) < len(_MAGIC) + 4 or head[: len(_MAGIC)] != _MAGIC:
                return None
            header = json.loads(src.read(struct.unpack("<I", head[len(_MAGIC):])[0]))
            count, lists = int(header["count"]), int(header.get("lists", 0))
            if int(header["dims"]) != dims:
                return None
            offset = _aligned(src.tell())
            src.seek(offset)
            ids = np.fromfile(src, dtype="<i8", count=count).astype(np.int64, copy=False)
            centroids = assigned = None
            offset = _aligned(offset + 8 * count)
            if lists:
                src.seek(offset)
                centroids = np.fromfile(src, dtype="<f4", count=lists * dims).reshape(lists, dims)
                offset = _aligned(offset + 4 * lists * dims)
                src.seek(offset)
                assigned = np.fromfile(src, dtype="<i4", count=count)
                offset = _aligned(offset + 4 * count)
            if len(ids) != count or os.fstat(src.fileno()).st_size < offset + 4 * count * dims:
                return None
        vectors: FloatMatrix = (
            np.memmap(path, dtype="<f4", mode="c", offset=offset, shape=(count, dims))
            if count
            else np.zeros((0, dims), dtype=np.float32)
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return Snapshot(int(header["mark"]), ids, vectors, centroids, assigned, int(header.get("probes", 0)))


__all__ = ["Snapshot", "read_snapshot", "snapshot_path", "write_snapshot"]
