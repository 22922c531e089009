"""How the shared statements run on PostgreSQL: psycopg's placeholders, RETURNING and arrays."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Any

import psycopg

from reverie.store.dialect import Dialect, Params, Row
from reverie.store.postgres_search import ranked
from reverie.store.postgres_vectors import Vector

Conn = psycopg.Connection[dict[str, Any]]
# psycopg reads every % as a placeholder, even in quoted text; ? and :name in quoted text stay.
# Chunk text, heading and file title weigh 1.0, 0.6 and 0.4, as in the SQLite engine.
_CHUNK_WEIGHTS = (1.0, 0.6, 0.4, 0.0)
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|::|\?|%|:([A-Za-z_]\w*)")


@lru_cache(maxsize=1024)
def pyformat(sql: str) -> str:
    """A statement written with ``?`` and ``:name`` placeholders, in psycopg's ``%s`` and ``%(name)s``."""

    def swap(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        if match.group(1):
            return f"%({match.group(1)})s"
        return token.replace("%", "%%")

    return _TOKENS.sub(swap, sql)


class PgDialect(Dialect):
    """Runs statements on this thread's transaction connection of a PostgreSQL store, or a pooled one."""

    name = "postgres"
    greatest = "GREATEST"
    least = "LEAST"

    def __init__(
        self,
        connection: Callable[[], AbstractContextManager[Conn]],
        transaction: Callable[[], AbstractContextManager[Conn]],
    ) -> None:
        self._connection = connection
        self._transaction = transaction

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query; every row, as a dict by column name."""
        with self._connection() as conn:
            return conn.execute(pyformat(sql), params).fetchall()

    def run(self, sql: str, params: Params = ()) -> int:
        """Run one write; outside a transaction it runs alone in autocommit, just as atomic."""
        with self._connection() as conn:
            return conn.execute(pyformat(sql), params).rowcount

    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        """Run one write once per parameter set, in one transaction."""
        if not params:
            return
        with self._transaction() as conn, conn.cursor() as cur:
            cur.executemany(pyformat(sql), params)

    def insert(self, sql: str, params: Params = ()) -> int | None:
        """Run an INSERT of one row; the new row's id by ``RETURNING id``, or None if it inserted nothing."""
        with self._connection() as conn:
            row = conn.execute(pyformat(sql + " RETURNING id"), params).fetchone()
        return int(row["id"]) if row else None

    def transaction(self) -> AbstractContextManager[object]:
        """A transaction on a pooled connection held by this thread; nested calls join the outer one."""
        return self._transaction()

    def lock(self, key: int) -> None:
        """A transaction-level advisory lock (``pg_advisory_xact_lock``)."""
        with self._connection() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (key,))

    def vector(self, blob: bytes) -> Any:
        """A pgvector ``vector``, sent in binary."""
        return Vector(blob)

    def id_vectors(self, sql: str, params: Params = ()) -> tuple[list[int], list[bytes]]:
        """Run a query of (id, vector) rows, read in binary; the ids and the vectors."""
        with self._connection() as conn:
            rows = conn.execute(pyformat(sql), params, binary=True).fetchall()
        ids: list[int] = []
        blobs: list[bytes] = []
        for row in rows:
            key, blob = row.values()
            ids.append(int(key))
            blobs.append(blob)
        return ids, blobs

    def rank_chunks(self, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """BM25 over the chunks' tsvector, computed as FTS5 does (see postgres_search)."""
        ctes, params = ranked(
            table="chunks",
            tsv="tsv",
            length="doclen",
            scope="TRUE",
            scope_params=[],
            terms=terms,
            weights=_CHUNK_WEIGHTS,
            extra_tokens=0,
        )
        with self._connection() as conn:
            rows = conn.execute(
                f"{ctes} SELECT id, score FROM ranked ORDER BY score DESC, id LIMIT %s",
                [*params, max(limit, 1)],
            ).fetchall()
        return [(int(row["id"]), float(row["score"])) for row in rows]

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column = ANY(?)`` with the values as one array."""
        return f"{column} = ANY(?)", [list(values)]

    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """All values in one batch (an array parameter has no length limit)."""
        if values:
            yield values


__all__ = ["PgDialect", "pyformat"]
