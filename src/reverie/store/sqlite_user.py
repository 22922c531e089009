"""SQLite statements for one user's memories, summaries and audit trail."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from reverie.store.base import (
    KINDS,
    AuditEntry,
    Kind,
    MemoryFilter,
    MemoryRow,
    NewMemory,
    NewSummary,
    SummaryRow,
    iter_batches,
)
from reverie.store.maintenance import Maintenance
from reverie.store.sqlite_more import ConversationStatements
from reverie.store.topics import Topics

if TYPE_CHECKING:
    from reverie.store.sqlite import SqliteStore

_MEMORY_COLUMNS = (
    "id, kind, type, key, text, source, confidence, status, superseded_by, created_at, "
    "updated_at, last_accessed, access_count, reinforcement_count, conversation_id, sensitive"
)
_UPDATABLE = {
    "decay_base",
    "text",
    "key",
    "type",
    "confidence",
    "status",
    "superseded_by",
    "source",
    "last_accessed",
    "access_count",
    "reinforcement_count",
}
_WINDOW = 200  # best keyword matches ranked before joining to the rows
_COMMON_MIN_ROWS = 20_000  # below this many of a user's rows, ranking every match is cheap enough
_ORDERS = {
    "recent": "created_at DESC, id DESC",
    "confidence": "confidence DESC, updated_at DESC, id DESC",
    "id": "id",
}


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def fts_terms(terms: Sequence[str], min_match: int | None = None) -> str:
    """FTS5 text matching any term, or at least ``min_match`` of them.

    "All but one" is written as an OR of AND-groups; needing fewer than all but one falls
    back to any term (the caller filters).
    """
    quoted = [_quote(term) for term in terms]
    missing = len(quoted) - (min_match if min_match is not None else 1)
    if min_match is None or missing >= len(quoted) - 1 or missing > 1:
        return " OR ".join(quoted)
    if missing <= 0:
        return " AND ".join(quoted)
    groups = [" AND ".join(q for j, q in enumerate(quoted) if j != skip) for skip in range(len(quoted))]
    return " OR ".join(f"({group})" for group in groups)


def _fts_query(owner: str | None, terms: Sequence[str], columns: str, min_match: int | None = None) -> str:
    """FTS5 MATCH text over some columns, limited to one owner's rows when several users share the file."""
    match = f"{{{columns}}}: ({fts_terms(terms, min_match)})"
    return f"owner:{owner} AND {match}" if owner else match


def _memory(row: sqlite3.Row) -> MemoryRow:
    return MemoryRow(
        id=row["id"],
        kind=row["kind"],
        type=row["type"],
        key=row["key"],
        text=row["text"],
        source=row["source"],
        confidence=row["confidence"],
        status=row["status"],
        superseded_by=row["superseded_by"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        last_accessed=row["last_accessed"],
        access_count=row["access_count"],
        reinforcement_count=row["reinforcement_count"],
        conversation_id=row["conversation_id"],
        sensitive=bool(row["sensitive"]),
    )


def _summary(row: sqlite3.Row) -> SummaryRow:
    return SummaryRow(
        id=row["id"],
        conversation_id=row["conversation_id"],
        text=row["text"],
        topics=list(json.loads(row["topics"] or "[]")),
        sentiment=row["sentiment"],
        created_at=row["created_at"],
        message_count=row["message_count"],
        incorporated=bool(row["incorporated"]),
        duration_seconds=row["duration_seconds"],
    )


def _placeholders(count: int) -> str:
    return ", ".join("?" * count)


class SqliteUserStore(ConversationStatements, Maintenance, Topics):
    """One user's view of a :class:`SqliteStore`; every statement carries ``user_id``."""

    def __init__(self, store: SqliteStore, user_id: int) -> None:
        self._store = store
        self.db = store.db
        self.user_id = user_id
        self._owner = f"u{user_id}"

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group the calls inside into one atomic transaction (re-entrant)."""
        with self._store.transaction():
            yield

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._store.connection().execute(sql, params).fetchall()

    def _write(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        with self._store.transaction() as conn:
            return conn.execute(sql, params)

    # memories ----------------------------------------------------------------------
    def insert_memory(self, memory: NewMemory, now: float) -> MemoryRow:
        """Insert a memory and return it with its id."""
        created = memory.created_at if memory.created_at is not None else now
        updated = memory.updated_at if memory.updated_at is not None else created
        cur = self._write(
            "INSERT INTO memories (user_id, kind, type, key, text, source, confidence, status,"
            " created_at, updated_at, last_accessed, access_count, reinforcement_count,"
            " conversation_id, decay_base, sensitive)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.user_id,
                memory.kind,
                memory.type,
                memory.key,
                memory.text,
                memory.source,
                memory.confidence,
                memory.status,
                created,
                updated,
                memory.last_accessed,
                memory.access_count,
                memory.reinforcement_count,
                memory.conversation_id,
                memory.confidence,
                int(memory.sensitive),
            ),
        )
        row = self.get_memory(int(cur.lastrowid or 0))
        assert row is not None
        return row

    def get_memory(self, memory_id: int) -> MemoryRow | None:
        """The memory with that id, if it belongs to this user."""
        rows = self._read(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE id = ? AND user_id = ?",
            (memory_id, self.user_id),
        )
        return _memory(rows[0]) if rows else None

    def _filter_sql(self, where: MemoryFilter) -> tuple[str, list[Any]]:
        clauses = ["user_id = ?"]
        params: list[Any] = [self.user_id]
        clauses.append(f"kind IN ({_placeholders(len(where.kinds))})")
        params.extend(where.kinds)
        clauses.append(f"status IN ({_placeholders(len(where.statuses))})")
        params.extend(where.statuses)
        if where.source:
            clauses.append("source = ?")
            params.append(where.source)
        if where.created_from is not None:
            clauses.append("created_at >= ?")
            params.append(where.created_from)
        if where.created_to is not None:
            clauses.append("created_at < ?")
            params.append(where.created_to)
        return " AND ".join(clauses), params

    def list_memories(self, where: MemoryFilter) -> list[MemoryRow]:
        """Memories matching the filter."""
        clause, params = self._filter_sql(where)
        rows = self._read(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE {clause}"
            f" ORDER BY {_ORDERS[where.order]} LIMIT ? OFFSET ?",
            [*params, where.limit, where.offset],
        )
        return [_memory(row) for row in rows]

    def count_memories(self, where: MemoryFilter) -> int:
        """How many memories match the filter."""
        clause, params = self._filter_sql(where)
        return int(self._read(f"SELECT COUNT(*) FROM memories WHERE {clause}", params)[0][0])

    def find_active_by_key(self, kind: Kind, key: str) -> MemoryRow | None:
        """The active memory of this kind with this normalized key."""
        rows = self._read(
            f"SELECT {_MEMORY_COLUMNS} FROM memories"
            " WHERE user_id = ? AND kind = ? AND key = ? AND status = 'active'",
            (self.user_id, kind, key),
        )
        return _memory(rows[0]) if rows else None

    def update_memory(self, memory_id: int, now: float, **changes: Any) -> MemoryRow | None:
        """Change columns of one memory."""
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        if "confidence" in changes:  # decay starts again from a confidence set on purpose
            changes = {**changes, "decay_base": changes["confidence"]}
        assignments = ", ".join(f"{name} = ?" for name in changes)
        cur = self._write(
            f"UPDATE memories SET {assignments}, updated_at = ? WHERE id = ? AND user_id = ?",
            [*changes.values(), now, memory_id, self.user_id],
        )
        return self.get_memory(memory_id) if cur.rowcount else None

    def supersede(self, old_id: int, new_id: int, now: float) -> None:
        """Mark ``old_id`` superseded by ``new_id``."""
        self._write(
            "UPDATE memories SET status = 'superseded', superseded_by = ?, updated_at = ?"
            " WHERE id = ? AND user_id = ?",
            (new_id, now, old_id, self.user_id),
        )

    def reinforce(self, memory_id: int, now: float, confidence: float) -> MemoryRow | None:
        """Count one more mention and raise confidence to at least ``confidence``."""
        self._write(
            "UPDATE memories SET reinforcement_count = reinforcement_count + 1,"
            " confidence = MAX(confidence, ?), decay_base = MAX(confidence, ?), updated_at = ?"
            " WHERE id = ? AND user_id = ?",
            (confidence, confidence, now, memory_id, self.user_id),
        )
        return self.get_memory(memory_id)

    def touch_memories(self, memory_ids: Sequence[int], now: float, boost: float) -> None:
        """Record an access; boost confidence only when the last access is over an hour old."""
        with self._store.transaction() as conn:
            for batch in iter_batches(memory_ids):
                conn.execute(
                    "UPDATE memories SET access_count = access_count + 1, last_accessed = ?,"
                    " confidence = CASE WHEN last_accessed IS NOT NULL AND ? - last_accessed > 3600"
                    " THEN MIN(1.0, confidence + ?) ELSE confidence END,"
                    " decay_base = CASE WHEN last_accessed IS NOT NULL AND ? - last_accessed > 3600"
                    " THEN MIN(1.0, confidence + ?) ELSE confidence END"
                    f" WHERE +user_id = ? AND id IN ({_placeholders(len(batch))})",
                    [now, now, boost, now, boost, self.user_id, *batch],
                )

    def delete_memories(self, memory_ids: Sequence[int]) -> int:
        """Delete rows for good and return how many went."""
        deleted = 0
        with self._store.transaction() as conn:
            for batch in iter_batches(memory_ids):
                cur = conn.execute(
                    f"DELETE FROM memories WHERE +user_id = ? AND id IN ({_placeholders(len(batch))})",
                    [self.user_id, *batch],
                )
                deleted += cur.rowcount
        return deleted

    def search_memories(
        self,
        terms: Sequence[str],
        *,
        kinds: Sequence[Kind] = KINDS,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 10,
        min_match: int | None = None,
    ) -> list[tuple[MemoryRow, float]]:
        """Active memories matching any term (or ``min_match`` of them), best BM25 first.

        BM25 is ranked inside the full-text index over a window of the best matches, and only
        that window is joined to the rows; if filters leave too few, the whole match is ranked.
        """
        if not terms:
            return []
        shared = self._store.shared()
        if min_match is None and len(terms) > 1:
            terms = self._without_common(terms, shared)
        query = _fts_query(self._owner if shared else None, terms, "text key", min_match)
        filters = f"m.user_id = ? AND m.status = 'active' AND m.kind IN ({_placeholders(len(kinds))})"
        params: list[Any] = [self.user_id, *kinds]
        if created_from is not None:
            filters += " AND m.created_at >= ?"
            params.append(created_from)
        if created_to is not None:
            filters += " AND m.created_at < ?"
            params.append(created_to)
        names = [c.strip() for c in _MEMORY_COLUMNS.split(",")]
        columns = ", ".join("m." + c for c in names)
        window = max(_WINDOW, 10 * limit)
        ranked = (
            "SELECT rowid AS id, -bm25(memories_fts, 1.0, 0.5, 0.0) AS score FROM memories_fts"
            " WHERE memories_fts MATCH ?"
        )
        # One more row counts the window's hits (in "hits"): a window that was not full held
        # every match, so ranking the whole match again would give the same rows.
        blanks = ", ".join(f"NULL AS {name}" for name in names)
        found = self._read(
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
            rows = self._read(
                f"WITH hits AS MATERIALIZED ({ranked})"
                f" SELECT {columns}, hits.score AS score FROM hits JOIN memories m ON m.id = hits.id"
                f" WHERE {filters} ORDER BY hits.score DESC, m.confidence DESC LIMIT ?",
                [query, *params, limit],
            )
        return [(_memory(row), float(row["score"])) for row in rows]

    def _without_common(self, terms: Sequence[str], shared: bool) -> list[str]:
        """Drop terms found in over 5% of this user's rows, keeping at least the rarest one.

        Ranking every row a very common word matches costs ~2-3 us a row at 100k facts, and such
        a word adds almost nothing to BM25 (its IDF is near zero). Only worth it for large
        stores; counting stops at the cap, so checking a term stays cheap.
        """
        conn = self._store.connection()
        if shared:
            rows = conn.execute(
                "SELECT COUNT(*) FROM memories WHERE user_id = ?", (self.user_id,)
            ).fetchone()[0]
        else:
            rows = conn.execute("SELECT MAX(id) FROM memories").fetchone()[0] or 0
        if rows <= _COMMON_MIN_ROWS:
            return list(terms)
        cap = int(rows * 0.05)
        owner = f"owner:{self._owner} AND " if shared else ""
        counts = {
            term: conn.execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
                (f"{owner}{{text key}}: {_quote(term)}", cap),
            ).fetchone()[0]
            for term in terms
        }
        kept = [term for term in terms if counts[term] < cap]
        return kept or [min(terms, key=lambda term: counts[term])]

    # summaries ---------------------------------------------------------------------
    def insert_summary(self, summary: NewSummary, now: float) -> SummaryRow:
        """Insert a conversation summary."""
        created = summary.created_at if summary.created_at is not None else now
        cur = self._write(
            "INSERT INTO summaries (user_id, conversation_id, text, topics, sentiment, created_at,"
            " message_count, first_message_id, last_message_id, duration_seconds)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.user_id,
                summary.conversation_id,
                summary.text,
                json.dumps(summary.topics),
                summary.sentiment,
                created,
                summary.message_count,
                summary.first_message_id,
                summary.last_message_id,
                summary.duration_seconds,
            ),
        )
        rows = self._read("SELECT * FROM summaries WHERE id = ?", (cur.lastrowid,))
        return _summary(rows[0])

    def _range(self, created_from: float | None, created_to: float | None) -> tuple[str, list[Any]]:
        sql, params = "", []
        if created_from is not None:
            sql += " AND s.created_at >= ?"
            params.append(created_from)
        if created_to is not None:
            sql += " AND s.created_at < ?"
            params.append(created_to)
        return sql, params

    def list_summaries(
        self,
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[SummaryRow]:
        """Summaries, newest first."""
        extra, params = self._range(created_from, created_to)
        rows = self._read(
            f"SELECT * FROM summaries s WHERE s.user_id = ?{extra}"
            " ORDER BY s.created_at DESC, s.id DESC LIMIT ? OFFSET ?",
            [self.user_id, *params, limit, offset],
        )
        return [_summary(row) for row in rows]

    def search_summaries(
        self,
        terms: Sequence[str],
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 10,
    ) -> list[tuple[SummaryRow, float]]:
        """Summaries matching any term in text or topics, best first."""
        if not terms:
            return []
        extra, params = self._range(created_from, created_to)
        rows = self._read(
            "SELECT s.*, -bm25(summaries_fts, 1.0, 1.0, 0.0) AS score"
            " FROM summaries_fts JOIN summaries s ON s.id = summaries_fts.rowid"
            f" WHERE summaries_fts MATCH ? AND s.user_id = ?{extra}"
            " ORDER BY score DESC, s.created_at DESC LIMIT ?",
            [_fts_query(self._owner, terms, "text topics"), self.user_id, *params, limit],
        )
        return [(_summary(row), float(row["score"])) for row in rows]

    def delete_summaries(self, summary_ids: Sequence[int]) -> int:
        """Delete summaries for good."""
        deleted = 0
        with self._store.transaction() as conn:
            for batch in iter_batches(summary_ids):
                cur = conn.execute(
                    f"DELETE FROM summaries WHERE +user_id = ? AND id IN ({_placeholders(len(batch))})",
                    [self.user_id, *batch],
                )
                deleted += cur.rowcount
        return deleted

    def unincorporated_summaries(self) -> list[SummaryRow]:
        """Summaries not yet distilled into the base memory, oldest first."""
        rows = self._read(
            "SELECT * FROM summaries WHERE user_id = ? AND incorporated = 0 ORDER BY created_at, id",
            (self.user_id,),
        )
        return [_summary(row) for row in rows]

    def mark_incorporated(self, summary_ids: Sequence[int]) -> None:
        """Record that these summaries are part of the base memory now."""
        with self._store.transaction() as conn:
            for batch in iter_batches(summary_ids):
                conn.execute(
                    "UPDATE summaries SET incorporated = 1"
                    f" WHERE +user_id = ? AND id IN ({_placeholders(len(batch))})",
                    [self.user_id, *batch],
                )

    def count_summaries(self) -> int:
        """How many summaries this user has."""
        return int(self._read("SELECT COUNT(*) FROM summaries WHERE user_id = ?", (self.user_id,))[0][0])

    # base memory, confirmations, audit ----------------------------------------------
    def get_base_memory(self) -> tuple[str, float] | None:
        """The base memory document and when it was written."""
        rows = self._read("SELECT text, updated_at FROM base_memory WHERE user_id = ?", (self.user_id,))
        return (rows[0]["text"], rows[0]["updated_at"]) if rows else None

    def set_base_memory(self, text: str, now: float) -> None:
        """Replace the base memory document ('' removes it)."""
        with self._store.transaction() as conn:
            conn.execute("DELETE FROM base_memory WHERE user_id = ?", (self.user_id,))
            if text:
                conn.execute(
                    "INSERT INTO base_memory (user_id, text, updated_at) VALUES (?, ?, ?)",
                    (self.user_id, text, now),
                )

    def set_pending(self, action: str, expires_at: float) -> None:
        """Remember that ``action`` awaits the user's confirmation."""
        self._write(
            "INSERT INTO pending_confirmations (user_id, action, expires_at) VALUES (?, ?, ?)"
            " ON CONFLICT(user_id) DO UPDATE SET action = excluded.action,"
            " expires_at = excluded.expires_at",
            (self.user_id, action, expires_at),
        )

    def take_pending(self, now: float) -> str | None:
        """Remove and return the pending action if it has not expired."""
        if not self._read("SELECT 1 FROM pending_confirmations WHERE user_id = ?", (self.user_id,)):
            return None  # the common case: no write transaction for nothing
        with self._store.transaction() as conn:
            row = conn.execute(
                "SELECT action, expires_at FROM pending_confirmations WHERE user_id = ?",
                (self.user_id,),
            ).fetchone()
            conn.execute("DELETE FROM pending_confirmations WHERE user_id = ?", (self.user_id,))
        if row is None or row["expires_at"] < now:
            return None
        return str(row["action"])

    def audit(
        self,
        action: str,
        now: float,
        *,
        target_kind: str = "",
        target_id: int | None = None,
        reason: str = "",
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Append to this user's audit trail."""
        self._write(
            "INSERT INTO audit_log (user_id, at, action, target_kind, target_id, reason, detail)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self.user_id, now, action, target_kind, target_id, reason, json.dumps(detail or {})),
        )

    def list_audit(self, limit: int = 100) -> list[AuditEntry]:
        """This user's audit trail, newest first."""
        rows = self._read(
            "SELECT * FROM audit_log WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?",
            (self.user_id, limit),
        )
        return [
            AuditEntry(
                row["id"],
                row["at"],
                row["action"],
                row["target_kind"],
                row["target_id"],
                row["reason"],
                json.loads(row["detail"]),
            )
            for row in rows
        ]

    def get_memories(self, memory_ids: Sequence[int]) -> list[MemoryRow]:
        """The memories with these ids that belong to this user."""
        found: list[MemoryRow] = []
        for batch in iter_batches(memory_ids):
            rows = self._read(
                f"SELECT {_MEMORY_COLUMNS} FROM memories"
                f" WHERE +user_id = ? AND id IN ({_placeholders(len(batch))})",
                [self.user_id, *batch],
            )
            found += [_memory(row) for row in rows]
        return found

    def get_summaries(self, summary_ids: Sequence[int]) -> list[SummaryRow]:
        """The summaries with these ids that belong to this user."""
        found: list[SummaryRow] = []
        for batch in iter_batches(summary_ids):
            rows = self._read(
                f"SELECT * FROM summaries WHERE +user_id = ? AND id IN ({_placeholders(len(batch))})",
                [self.user_id, *batch],
            )
            found += [_summary(row) for row in rows]
        return found

    def delete_everything(self) -> dict[str, int]:
        """Delete every memory, summary, conversation and the base memory; return counts."""
        counts: dict[str, int] = {}
        with self._store.transaction() as conn:
            for kind in KINDS:
                cur = conn.execute(
                    "DELETE FROM memories WHERE user_id = ? AND kind = ?", (self.user_id, kind)
                )
                counts[kind] = cur.rowcount
            cur = conn.execute("DELETE FROM summaries WHERE user_id = ?", (self.user_id,))
            counts["summary"] = cur.rowcount
            cur = conn.execute("DELETE FROM base_memory WHERE user_id = ?", (self.user_id,))
            counts["base_memory"] = cur.rowcount
            cur = conn.execute("DELETE FROM conversations WHERE user_id = ?", (self.user_id,))
            counts["conversation"] = cur.rowcount
            cur = conn.execute("DELETE FROM topics WHERE user_id = ?", (self.user_id,))
            counts["topic"] = cur.rowcount
            conn.execute("DELETE FROM topic_index WHERE user_id = ?", (self.user_id,))
        return counts


__all__ = ["SqliteUserStore"]
