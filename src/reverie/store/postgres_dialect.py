"""How the shared statements run on PostgreSQL: psycopg's placeholders, RETURNING, arrays, BM25, pgvector.

Keyword search ranks tsvector matches by the BM25 of :mod:`postgres_search` (the same scores as
SQLite's FTS5). Vectors are pgvector columns read in binary; a reader's mark is the oldest
transaction still running when it read, since rows carry the id of the transaction that wrote them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Any

import numpy as np
import psycopg

from reverie.store.dialect import Dialect, KeywordIndex, Params, Row
from reverie.store.postgres_search import ranked
from reverie.store.postgres_vectors import Vector
from reverie.store.rows import VectorKind

Conn = psycopg.Connection[dict[str, Any]]
# psycopg reads every % as a placeholder, even in quoted text; ? and :name in quoted text stay.
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
    no_limit = "LIMIT ALL"
    skip_locked = " FOR UPDATE OF c SKIP LOCKED"

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

    def ranked(
        self, index: KeywordIndex, owner: int, terms: Sequence[str], min_match: int | None = None
    ) -> tuple[str, list[Any]]:
        """BM25 over the index's tsvector, computed as FTS5 does (see postgres_search), in scope only."""
        return ranked(index, owner, terms, min_match)

    def is_false(self, column: str) -> str:
        """``NOT column``, as the partial indexes say it."""
        return f"NOT {column}"

    def write_row(self, sql: str, params: Params, columns: str) -> Row | None:
        """Run the write with ``RETURNING columns``: one round trip."""
        with self._connection() as conn:
            return conn.execute(pyformat(f"{sql} RETURNING {columns}"), params).fetchone()

    def insert_message(
        self, user_id: int, conversation_id: int, values: Sequence[Any], text: str | None, window: str | None
    ) -> int | None:
        """Insert the turn with its search and window texts (only where they differ); triggers index them."""
        content = values[1]
        own = text if text is not None and text != content else None
        window = window if window is not None and window != (own or content) else None
        with self._connection() as conn:
            row = conn.execute(
                "INSERT INTO messages (conversation_id, user_id, role, content, speaker, ref, created_at,"
                " intent, search_text, window_text)"
                " SELECT id, user_id, %s, %s, %s, %s, %s, %s, %s, %s FROM conversations"
                " WHERE id = %s AND user_id = %s RETURNING id",
                (*values, own, window, conversation_id, user_id),
            ).fetchone()
        return int(row["id"]) if row else None

    def put_vectors(
        self, user_id: int, kind: VectorKind, items: Sequence[tuple[int, bytes]], model_id: str, dims: int
    ) -> None:
        """Upsert, stamping each row with the id of the transaction that wrote it."""
        with self._transaction() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO vectors (item_kind, item_id, user_id, model_id, dimensions, embedding)"
                " VALUES (%s, %s, %s, %s, %s, %b) ON CONFLICT (item_kind, item_id) DO UPDATE"
                " SET user_id = excluded.user_id, model_id = excluded.model_id,"
                " dimensions = excluded.dimensions, embedding = excluded.embedding,"
                " xid = pg_current_xact_id()::text::bigint",
                [(kind, item_id, user_id, model_id, dims, Vector(blob)) for item_id, blob in items],
            )

    def load_vectors(
        self, user_id: int, kind: VectorKind, model_id: str, after: int, join: str
    ) -> tuple[list[tuple[int, bytes]], int]:
        """Rows written by transaction ``after`` or later; the mark is the oldest transaction still running.

        A row committed late is never skipped, and one seen twice simply replaces itself. The
        rows come as one row of packed ids and floats, in binary: decoding a thousand rows one
        by one costs more than the query.
        """
        with self._connection() as conn:
            row = conn.execute(
                "SELECT COUNT(*) AS n, pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS mark,"
                " COALESCE(string_agg(int8send(v.item_id), ''::bytea), ''::bytea) AS ids,"
                " COALESCE(string_agg(substring(vector_send(v.embedding) FROM 5), ''::bytea), ''::bytea)"
                " AS vectors"
                f" FROM vectors v{pyformat(join)} WHERE v.user_id = %s AND v.item_kind = %s"
                " AND v.model_id = %s AND v.xid >= %s",
                (user_id, kind, model_id, after),
                binary=True,
            ).fetchone()
        assert row is not None
        count = int(row["n"])
        mark = max(after, int(row["mark"]))
        if not count:
            return [], mark
        ids = np.frombuffer(bytes(row["ids"]), dtype=">i8")
        vectors = np.frombuffer(bytes(row["vectors"]), dtype=">f4").astype("<f4").reshape(count, -1)
        order = np.argsort(ids, kind="stable")  # both aggregates saw the rows in one order
        ids, vectors = ids[order], vectors[order]
        return [(int(item), vector.tobytes()) for item, vector in zip(ids, vectors, strict=True)], mark

    def vectors_of(
        self, user_id: int, kind: VectorKind, model_id: str, ids: Sequence[int], join: str
    ) -> list[tuple[int, bytes]]:
        """One query, the ids as an array, vectors read in binary."""
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT v.item_id, v.embedding FROM vectors v{pyformat(join)} WHERE v.user_id = %s"
                " AND v.item_kind = %s AND v.model_id = %s AND v.item_id = ANY(%s)",
                (user_id, kind, model_id, list(ids)),
                binary=True,
            ).fetchall()
        return [(int(row["item_id"]), bytes(row["embedding"])) for row in rows]

    def changed_vectors(self, user_id: int, kind: VectorKind, after: int) -> tuple[set[int], bool]:
        """Rows get their version when their transaction commits; unstamped ones visible here are ours."""
        rows = self.rows(
            "SELECT item_id, bool_or(version IS NULL) AS own FROM vector_changes WHERE user_id = ?"
            " AND item_kind = ? AND (version > ? OR version IS NULL) GROUP BY item_id",
            (user_id, kind, after),
        )
        return {int(row["item_id"]) for row in rows}, any(row["own"] for row in rows)

    def own_vector_writes(self, user_id: int) -> bool:
        """True if the change log holds unstamped rows of this user visible here (this transaction's)."""
        return bool(
            self.rows(
                "SELECT 1 AS own FROM vector_changes WHERE user_id = ? AND version IS NULL LIMIT 1",
                (user_id,),
            )
        )

    def cache_put(self, model_id: str, dims: int, items: Sequence[tuple[str, bytes]], now: float) -> None:
        """One statement over arrays; one row a hash, as ON CONFLICT cannot touch a row twice."""
        items = list(dict(items).items())
        self.run(
            "INSERT INTO embedding_cache (content_hash, model_id, dimensions, vector, created_at)"
            " SELECT * FROM unnest(?::text[], ?::text[], ?::integer[], ?::bytea[], ?::float8[])"
            " ON CONFLICT (content_hash, model_id) DO UPDATE SET dimensions = excluded.dimensions,"
            " vector = excluded.vector, created_at = excluded.created_at",
            (
                [digest for digest, _ in items],
                [model_id] * len(items),
                [dims] * len(items),
                [blob for _, blob in items],
                [now] * len(items),
            ),
        )

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column = ANY(?)`` with the values as one array."""
        return f"{column} = ANY(?)", [list(values)]

    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """All values in one batch (an array parameter has no length limit)."""
        if values:
            yield values


__all__ = ["PgDialect", "pyformat"]
