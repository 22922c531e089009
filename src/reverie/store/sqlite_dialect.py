"""How the shared statements run on SQLite: placeholders, rowids, bounded IN lists, FTS5 and vector rows.

Keyword search is FTS5's ``bm25()``: ``memories_fts``, ``summaries_fts``, ``messages_fts`` and
``message_windows_fts`` hold an ``owner`` column (``u<id>``) so a file shared by several users
filters by owner inside the index. Vectors are BLOBs, and a reader's mark is the highest rowid.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from reverie.store.dialect import Clause, Dialect, IdVector, KeywordIndex, Params, Row, match_groups
from reverie.store.rows import VectorKind

_BATCH = 500  # values per IN list, well under SQLite's limit on variables
_WINDOW = 200  # best keyword matches ranked before joining to the rows
_COMMON_MIN_ROWS = 20_000  # below this many of a user's rows, ranking every match is cheap enough


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _fts_query(owner: str | None, terms: Sequence[str], columns: str, min_match: int | None = None) -> str:
    """FTS5 MATCH text over some columns, limited to one owner's rows when several users share the file."""
    groups = match_groups(terms, min_match)
    parts = [" AND ".join(_quote(term) for term in group) for group in groups]
    if len(groups) > 1 and len(groups[0]) > 1:  # all but one: an OR of AND-groups
        parts = [f"({part})" for part in parts]
    match = f"{{{columns}}}: ({' OR '.join(parts)})"
    return f"owner:{owner} AND {match}" if owner else match


# index: FTS5 table, the columns matched, their BM25 weights, and whether rows carry an owner
_FTS = {
    "memories": ("memories_fts", "text key", "1.0, 0.5, 0.0", True),
    "summaries": ("summaries_fts", "text topics", "1.0, 1.0, 0.0", True),
    "messages": ("messages_fts", "text", "1.0, 0.0", True),
    "message_windows": ("message_windows_fts", "text", "1.0, 0.0", True),
    "chunks": ("chunks_fts", "text heading title", "1.0, 0.6, 0.4", False),
}


class SqliteDialect(Dialect):
    """Runs statements on the calling thread's connection of a SQLite store."""

    name = "sqlite"
    greatest = "MAX"
    least = "MIN"
    no_limit = "LIMIT -1"
    skip_locked = ""  # BEGIN IMMEDIATE already keeps every other writer out
    false = "{} = 0"  # as the partial indexes say it

    def __init__(
        self,
        connection: Callable[[], sqlite3.Connection],
        transaction: Callable[[], AbstractContextManager[sqlite3.Connection]],
        uncommitted: Callable[[], bool] = lambda: False,
    ) -> None:
        self._connection = connection
        self._transaction = transaction
        self._uncommitted = uncommitted

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query; every row, as a dict by column name."""
        # Plain tuples zipped with the column names: half the cost of dict(sqlite3.Row) a row.
        cur = self._connection().cursor()
        cur.row_factory = None
        cur.execute(sql, params)
        names = [column[0] for column in cur.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cur]

    def row(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query; its first row, or None (only that row is read)."""
        cur = self._connection().cursor()
        cur.row_factory = None
        found = cur.execute(sql, params).fetchone()
        return dict(zip([column[0] for column in cur.description], found, strict=True)) if found else None

    def run(self, sql: str, params: Params = ()) -> int:
        """Run one write in a transaction (this thread's, if open); how many rows it changed."""
        with self._transaction() as conn:
            return conn.execute(sql, params).rowcount

    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        """Run one write once per parameter set, in one transaction."""
        with self._transaction() as conn:
            conn.executemany(sql, params)

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

    def ranked(
        self, index: KeywordIndex, owner: int, terms: Sequence[str], min_match: int | None = None
    ) -> Clause:
        """FTS5's ``bm25()`` over the index, filtered by the owner column (chunks: by their document's)."""
        table, columns, weights, owned = _FTS[index]
        score = f"SELECT f.rowid AS id, -bm25({table}, {weights}) AS score FROM {table} f"
        if owned:
            query = _fts_query(f"u{owner}", terms, columns, min_match)
            return f"WITH ranked AS ({score} WHERE {table} MATCH ?)", [query]
        return (
            f"WITH ranked AS ({score} JOIN chunks c ON c.id = f.rowid"
            f" JOIN documents d ON d.id = c.document_id"
            f" WHERE {table} MATCH ? AND (d.owner_id IS NULL OR d.owner_id = ?))",
            [_fts_query(None, terms, columns, min_match), owner],
        )

    def write_row(self, sql: str, params: Params, columns: str) -> Row | None:
        """Run the write with ``RETURNING columns`` in a transaction (this thread's, if open)."""
        with self._transaction() as conn:
            cur = conn.cursor()
            cur.row_factory = None
            found = cur.execute(f"{sql} RETURNING {columns}", params).fetchall()
        return dict(zip([column[0] for column in cur.description], found[0], strict=True)) if found else None

    def shared(self) -> bool:
        """True when the file holds more than one user (keyword queries then filter by owner first)."""
        return self._connection().execute("SELECT 1 FROM users LIMIT 1 OFFSET 1").fetchone() is not None

    def search_memories(
        self,
        user_id: int,
        terms: Sequence[str],
        columns: str,
        filters: str,
        params: Sequence[Any],
        limit: int,
        min_match: int | None,
    ) -> list[Row]:
        """BM25 ranked inside the index over a window of the best matches; only that window meets the rows.

        If filters leave too few of a full window, the whole match is ranked.
        """
        shared = self.shared()
        if min_match is None and len(terms) > 1:
            terms = self._without_common(user_id, terms, shared)
        query = _fts_query(f"u{user_id}" if shared else None, terms, "text key", min_match)
        window = max(_WINDOW, 10 * limit)
        ranked = (
            "SELECT rowid AS id, -bm25(memories_fts, 1.0, 0.5, 0.0) AS score FROM memories_fts"
            " WHERE memories_fts MATCH ?"
        )
        # One more row counts the window's hits (in "hits"): a window that was not full held
        # every match, so ranking the whole match again would give the same rows.
        blanks = ", ".join(f"NULL AS {name.removeprefix('m.')}" for name in columns.split(", "))
        found = self.rows(
            f"WITH hits AS MATERIALIZED ({ranked} ORDER BY score DESC LIMIT ?)"
            f" SELECT * FROM (SELECT {columns}, hits.score AS score, NULL AS hits FROM hits"
            f" JOIN memories m ON m.id = hits.id"
            f" WHERE {filters} ORDER BY hits.score DESC, m.confidence DESC LIMIT ?)"
            f" UNION ALL SELECT {blanks}, NULL, COUNT(*) FROM hits",
            [query, window, *params, limit],
        )
        rows = [row for row in found if row["hits"] is None]
        full = any(row["hits"] is not None and row["hits"] >= window for row in found)
        if len(rows) < limit and full:
            rows = self.rows(
                f"WITH hits AS MATERIALIZED ({ranked})"
                f" SELECT {columns}, hits.score AS score FROM hits JOIN memories m ON m.id = hits.id"
                f" WHERE {filters} ORDER BY hits.score DESC, m.confidence DESC LIMIT ?",
                [query, *params, limit],
            )
        return rows

    def _without_common(self, user_id: int, terms: Sequence[str], shared: bool) -> list[str]:
        """Drop terms found in over 5% of this user's rows, keeping at least the rarest one.

        Ranking every row a very common word matches costs ~2-3 us a row at 100k facts, and such
        a word adds almost nothing to BM25 (its IDF is near zero). Only worth it for large
        stores; counting stops at the cap, so checking a term stays cheap.
        """
        conn = self._connection()
        if shared:
            rows = conn.execute("SELECT COUNT(*) FROM memories WHERE user_id = ?", (user_id,)).fetchone()[0]
        else:
            rows = conn.execute("SELECT MAX(id) FROM memories").fetchone()[0] or 0
        if rows <= _COMMON_MIN_ROWS:
            return list(terms)
        cap = int(rows * 0.05)
        owner = f"owner:u{user_id} AND " if shared else ""
        counts = {
            term: conn.execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
                (f"{owner}{{text key}}: {_quote(term)}", cap),
            ).fetchone()[0]
            for term in terms
        }
        kept = [term for term in terms if counts[term] < cap]
        return kept or [min(terms, key=lambda term: counts[term])]

    def insert_message(
        self, user_id: int, conversation_id: int, values: Sequence[Any], text: str | None, window: str | None
    ) -> int | None:
        """Insert the turn, then its text and window into the two FTS5 tables."""
        with self._transaction() as conn:
            cur = conn.execute(
                "INSERT INTO messages (conversation_id, user_id, role, content, speaker, ref, created_at,"
                " intent) SELECT id, user_id, ?, ?, ?, ?, ?, ?"
                " FROM conversations WHERE id = ? AND user_id = ?",
                (*values, conversation_id, user_id),
            )
            if cur.rowcount == 0:
                return None
            message_id = int(cur.lastrowid or 0)
            own = text if text is not None else values[1]
            conn.execute(
                "INSERT INTO messages_fts (rowid, text, owner) VALUES (?, ?, ?)",
                (message_id, own, f"u{user_id}"),
            )
            conn.execute(
                "INSERT INTO message_windows_fts (rowid, text, owner) VALUES (?, ?, ?)",
                (message_id, window if window is not None else own, f"u{user_id}"),
            )
        return message_id

    def put_vectors(
        self, user_id: int, kind: VectorKind, items: Sequence[IdVector], model_id: str, dims: int
    ) -> None:
        """INSERT OR REPLACE: a replaced row gets a new rowid, so readers past the old mark see it."""
        self.run_many(
            "INSERT OR REPLACE INTO vectors (item_kind, item_id, user_id, model_id, dimensions, vector)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(kind, item_id, user_id, model_id, dims, blob) for item_id, blob in items],
        )

    def load_vectors(
        self, user_id: int, kind: VectorKind, model_id: str, after: int, join: str
    ) -> tuple[list[IdVector], int]:
        """Rows past the rowid ``after``; the mark is the highest rowid read."""
        cursor = self._connection().execute(
            f"SELECT v.item_id, v.vector, v.rowid FROM vectors v{join}"
            " WHERE v.user_id = ? AND v.item_kind = ? AND v.model_id = ? AND v.rowid > ? ORDER BY +v.item_id",
            (user_id, kind, model_id, after),
        )
        rows = cursor.fetchall()
        mark = max((int(row[2]) for row in rows), default=after)
        return [(int(row[0]), bytes(row[1])) for row in rows], mark

    def vectors_of(
        self, user_id: int, kind: VectorKind, model_id: str, ids: Sequence[int], join: str
    ) -> list[IdVector]:
        """By primary key: with ten ids or so the planner otherwise walks every vector of the user
        by idx_vectors_user (100+ ms at 20k vectors, seen in the tail bench)."""
        rows = self.rows_among(
            f"SELECT v.item_id, v.vector FROM vectors v{join} WHERE +v.user_id = ?"
            " AND v.item_kind = ? AND +v.model_id = ? AND {among}",
            "v.item_id",
            ids,
            (user_id, kind, model_id),
        )
        return [(int(row["item_id"]), bytes(row["vector"])) for row in rows]

    def changed_vectors(self, user_id: int, kind: VectorKind, after: int) -> tuple[set[int], bool]:
        """The change log past ``after``; this thread's transaction has its own writes if it changed rows."""
        rows = self._connection().execute(
            "SELECT item_id FROM vector_changes WHERE user_id = ? AND item_kind = ? AND version > ?",
            (user_id, kind, after),
        )
        return {int(row[0]) for row in rows}, self._uncommitted()

    def own_vector_writes(self, user_id: int) -> bool:
        """True inside a transaction of this thread that has already changed rows."""
        return self._uncommitted()

    def cache_put(self, model_id: str, dims: int, items: Sequence[tuple[str, bytes]], now: float) -> None:
        """INSERT OR REPLACE, one row a hash."""
        self.run_many(
            "INSERT OR REPLACE INTO embedding_cache (content_hash, model_id, dimensions, vector, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            [(digest, model_id, dims, blob, now) for digest, blob in items],
        )

    def one_of(self, column: str, values: Sequence[Any]) -> Clause:
        """``column IN (?, ...)``, one placeholder a value."""
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)

    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """At most 500 values a batch."""
        for start in range(0, len(values), _BATCH):
            yield values[start : start + _BATCH]


__all__ = ["SqliteDialect"]
