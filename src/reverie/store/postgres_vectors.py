"""pgvector's ``vector`` type in psycopg, in binary: float32 bytes in, float32 bytes out.

The upper layers speak little-endian float32 blobs (as SQLite stores them); pgvector's binary
form is a 16-bit dimension count, 16 unused bits and big-endian float4s. Converting here keeps
numpy out of row loops and the optional ``pgvector`` package out of the dependencies.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import psycopg
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo


class Vector(bytes):
    """Little-endian float32 bytes to be sent as a pgvector ``vector`` (use ``%b``)."""


class _VectorBinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: Any) -> Buffer:
        data = np.frombuffer(obj, dtype="<f4")
        return struct.pack(">HH", len(data), 0) + data.astype(">f4").tobytes()


class _VectorBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data: Buffer) -> bytes:
        return np.frombuffer(bytes(data)[4:], dtype=">f4").astype("<f4").tobytes()


class _VectorTextLoader(Loader):
    format = Format.TEXT

    def load(self, data: Buffer) -> bytes:
        text = bytes(data).decode("ascii").strip("[]")
        values = [float(part) for part in text.split(",")] if text else []
        return np.asarray(values, dtype="<f4").tobytes()


def register_vector(conn: psycopg.Connection[Any]) -> None:
    """Teach one connection the ``vector`` type (nothing to teach while the extension is not installed)."""
    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        return
    dumper = type("VectorDumper", (_VectorBinaryDumper,), {"oid": info.oid})
    conn.adapters.register_dumper(Vector, dumper)
    conn.adapters.register_loader(info.oid, _VectorBinaryLoader)
    conn.adapters.register_loader(info.oid, _VectorTextLoader)


__all__ = ["Vector", "register_vector"]
