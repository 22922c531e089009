"""How the shared statements run on SQLite: its own placeholders, rowids and bounded IN lists."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from reverie.store.dialect import Dialect, Params, Row

_BATCH = 500  # values per IN list, well under SQLite's limit on variables


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


class SqliteDialect(Dialect):
    """Runs statements on the calling thread's connection of a SQLite store."""

    name = "sqlite"
    greatest = "MAX"
    least = "MIN"

    def __init__(
        self,
        connection: Callable[[], sqlite3.Connection],
        transaction: Callable[[], AbstractContextManager[sqlite3.Connection]],
    ) -> None:
        self._connection = connection
        self._transaction = transaction

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query; every row, as a dict by column name."""
        return [dict(row) for row in self._connection().execute(sql, params)]

    def run(self, sql: str, params: Params = ()) -> int:
        """Run one write in a transaction (this thread's, if open); how many rows it changed."""
        with self._transaction() as conn:
            return conn.execute(sql, params).rowcount

    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        """Run one write once per parameter set, in one transaction."""
        with self._transaction() as conn:
            conn.executemany(sql, params)

    def insert(self, sql: str, params: Params = ()) -> int | None:
        """Run an INSERT of one row; the new row's id, or None if it inserted nothing."""
        with self._transaction() as conn:
            cur = conn.execute(sql, params)
        return int(cur.lastrowid or 0) if cur.rowcount == 1 else None

    def transaction(self) -> AbstractContextManager[object]:
        """This thread's write transaction (BEGIN IMMEDIATE); nested calls join the outer one."""
        return self._transaction()

    def lock(self, key: int) -> None:
        """Nothing to take: a SQLite write transaction (BEGIN IMMEDIATE) already excludes every other."""

    def vector(self, blob: bytes) -> Any:
        """The bytes as they are (a BLOB)."""
        return blob

    def id_vectors(self, sql: str, params: Params = ()) -> tuple[list[int], list[bytes]]:
        """Run a query of (id, vector BLOB) rows; the ids and the vectors."""
        ids: list[int] = []
        blobs: list[bytes] = []
        for row in self._connection().execute(sql, params):
            ids.append(int(row[0]))
            blobs.append(bytes(row[1]))
        return ids, blobs

    def rank_chunks(self, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """FTS5 over chunks_fts, BM25 weights 1.0, 0.6 and 0.4."""
        match = "{text heading title}: (" + " OR ".join(_quote(term) for term in terms) + ")"
        rows = self._connection().execute(
            "SELECT rowid, -bm25(chunks_fts, 1.0, 0.6, 0.4) AS score FROM chunks_fts"
            " WHERE chunks_fts MATCH ? ORDER BY score DESC LIMIT ?",
            (match, max(limit, 1)),
        )
        return [(int(row[0]), float(row[1])) for row in rows]

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column IN (?, ...)``, one placeholder a value."""
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)

    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """At most 500 values a batch."""
        for start in range(0, len(values), _BATCH):
            yield values[start : start + _BATCH]


__all__ = ["SqliteDialect"]
