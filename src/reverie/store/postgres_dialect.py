"""How the shared statements run on PostgreSQL: psycopg's placeholders, RETURNING, arrays, BM25, pgvector.

Keyword search ranks tsvector matches by BM25 as SQLite's FTS5 does: Okapi BM25 (k1 1.2, b
0.75) with per-column weights and an IDF of ``ln((N - n + 0.5) / (n + 0.5))`` floored at 1e-6,
run in SQL over the rows that match, with weighted term frequencies read from the tsvector
positions (weights A-D stand for the columns) and N, n and the average length taken over the
rows in scope (one user's, for per-user tables), so scores and orderings match the SQLite engine.

Vectors are pgvector columns read in binary; a reader's mark is the oldest transaction still
running when it read, since rows carry the id of the transaction that wrote them. The upper
layers speak little-endian float32 blobs (as SQLite stores them); pgvector's binary form is a
16-bit dimension count, 16 unused bits and big-endian float4s. Converting here keeps numpy out
of row loops and the optional ``pgvector`` package out of the dependencies.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Any

import numpy as np
import psycopg
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from reverie.store.dialect import Clause, Dialect, IdVector, KeywordIndex, Params, Row, match_groups
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


K1 = 1.2
B = 0.75
_TERM = "phraseto_tsquery('reverie', ?)"
_OWN = "t.user_id = ?"
_SHARED_OR_OWN = "t.document_id IN (SELECT id FROM documents WHERE owner_id IS NULL OR owner_id = ?)"


def match_query(terms: Sequence[str], min_match: int | None = None) -> Clause:
    """A tsquery expression matching any term, or at least ``min_match`` of them (as the SQLite engine)."""
    groups = match_groups(terms, min_match)
    parts = [" && ".join([_TERM] * len(group)) for group in groups]
    if len(groups) > 1 and len(groups[0]) > 1:  # all but one: an OR of AND-groups
        parts = [f"({part})" for part in parts]
    return "(" + " || ".join(parts) + ")", [term for group in groups for term in group]


# index: table, tsvector column, its length, weights (A-D) as FTS5 weighs the columns, the rows in
# scope (a condition on ``t`` taking the owner), tokens added to every length (FTS5 counts the
# owner column's too; chunks_fts has none)
_INDEXES: dict[KeywordIndex, tuple[str, str, str, tuple[float, float, float, float], str, int]] = {
    "memories": ("memories", "tsv", "doclen", (1.0, 0.5, 0.0, 0.0), _OWN, 1),  # text, key
    "summaries": ("summaries", "tsv", "doclen", (1.0, 1.0, 0.0, 0.0), _OWN, 1),  # text, topics
    "messages": ("messages", "search_tsv", "search_len", (1.0, 1.0, 1.0, 1.0), _OWN, 1),
    "message_windows": ("messages", "window_tsv", "window_len", (1.0, 1.0, 1.0, 1.0), _OWN, 1),
    # text, heading, file title; shared documents and the viewer's own
    "chunks": ("chunks", "tsv", "doclen", (1.0, 0.6, 0.4, 0.0), _SHARED_OR_OWN, 0),
}


def ranked(index: KeywordIndex, owner: int, terms: Sequence[str], min_match: int | None = None) -> Clause:
    """``WITH`` clauses ending in ``ranked(id, score)``: rows of ``index`` matching, BM25 score.

    The rows in scope (the owner's; for chunks the shared ones and the owner's) bound both the
    matches and the statistics.
    """
    table, tsv, length, weights, scope, extra = _INDEXES[index]
    match_params: list[Any] = []
    if min_match is None:  # any term: built from q below, so the statement text never varies
        match = "(SELECT reverie_or(q.tq) FROM q WHERE numnode(q.tq) > 0)"
    else:
        match, match_params = match_query(terms, min_match)
    sql = (
        "WITH q AS MATERIALIZED (SELECT u.i, phraseto_tsquery('reverie', u.t) AS tq,"
        " tsvector_to_array(to_tsvector('reverie', u.t)) AS lex"
        " FROM unnest(?::text[]) WITH ORDINALITY AS u(t, i)),"
        f" hits AS MATERIALIZED (SELECT t.id, t.{tsv} AS tsv, t.{length} + {extra} AS len"
        f" FROM {table} t WHERE {scope} AND t.{tsv} @@ {match}),"
        f" stats AS MATERIALIZED (SELECT COUNT(*)::float8 AS n,"
        f" COALESCE(AVG(t.{length} + {extra}), 0)::float8 AS avgdl FROM {table} t WHERE {scope}),"
        " idf AS MATERIALIZED (SELECT q.i, q.tq, q.lex,"
        " GREATEST(LN((s.n - c.hits + 0.5) / (c.hits + 0.5)), 1e-6) AS idf"
        " FROM q CROSS JOIN stats s CROSS JOIN LATERAL"
        " (SELECT COUNT(*)::float8 AS hits FROM hits h WHERE h.tsv @@ q.tq) c),"
        " ranked AS (SELECT h.id, SUM(idf.idf * f.tf * ?::float8"
        " / (f.tf + ?::float8 * (1 - ?::float8 + ?::float8 * h.len / GREATEST(s.avgdl, 1e-9)))) AS score"
        " FROM hits h CROSS JOIN stats s JOIN idf ON h.tsv @@ idf.tq"
        " CROSS JOIN LATERAL (SELECT COALESCE(SUM(CASE w WHEN 'A' THEN ?::float8 WHEN 'B' THEN ?::float8"
        " WHEN 'C' THEN ?::float8 ELSE ?::float8 END), 0) / GREATEST(cardinality(idf.lex), 1) AS tf"
        " FROM unnest(h.tsv) AS x(lexeme, positions, weights), unnest(x.weights) AS w"
        " WHERE x.lexeme = ANY(idf.lex)) f"
        " GROUP BY h.id)"
    )
    return sql, [list(terms), owner, *match_params, owner, K1 + 1, K1, B, B, *weights]


class PgDialect(Dialect):
    """Runs statements on this thread's transaction connection of a PostgreSQL store, or a pooled one."""

    name = "postgres"
    greatest = "GREATEST"
    least = "LEAST"
    no_limit = "LIMIT ALL"
    skip_locked = " FOR UPDATE OF c SKIP LOCKED"
    false = "NOT {}"  # as the partial indexes say it

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
    ) -> Clause:
        """BM25 over the index's tsvector, computed as FTS5 does, in scope only."""
        return ranked(index, owner, terms, min_match)

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
        self, user_id: int, kind: VectorKind, items: Sequence[IdVector], model_id: str, dims: int
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
    ) -> tuple[list[IdVector], int]:
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
    ) -> list[IdVector]:
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
        vectors = dict(items)
        n = len(vectors)
        self.run(
            "INSERT INTO embedding_cache (content_hash, model_id, dimensions, vector, created_at)"
            " SELECT * FROM unnest(?::text[], ?::text[], ?::integer[], ?::bytea[], ?::float8[])"
            " ON CONFLICT (content_hash, model_id) DO UPDATE SET dimensions = excluded.dimensions,"
            " vector = excluded.vector, created_at = excluded.created_at",
            (list(vectors), [model_id] * n, [dims] * n, list(vectors.values()), [now] * n),
        )

    def one_of(self, column: str, values: Sequence[Any]) -> Clause:
        """``column = ANY(?)`` with the values as one array."""
        return f"{column} = ANY(?)", [list(values)]

    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """All values in one batch (an array parameter has no length limit)."""
        if values:
            yield values


__all__ = ["PgDialect", "Vector", "match_query", "pyformat", "ranked", "register_vector"]
