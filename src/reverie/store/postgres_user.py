"""PostgreSQL statements for one user's memories, summaries, base memory and audit trail."""

from __future__ import annotations

import json
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
)
from reverie.store.maintenance import Maintenance
from reverie.store.postgres_more import PgConversationStatements
from reverie.store.postgres_search import ranked
from reverie.store.topics import Topics

if TYPE_CHECKING:
    from reverie.store.postgres import PgStore

MEMORY_COLUMNS = (
    "id, kind, type, key, text, source, confidence, status, superseded_by, created_at, "
    "updated_at, last_accessed, access_count, reinforcement_count, conversation_id, sensitive"
)
SUMMARY_COLUMNS = (
    "id, conversation_id, text, topics, sentiment, created_at, message_count, incorporated, duration_seconds"
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
_ORDERS = {
    "recent": "created_at DESC, id DESC",
    "confidence": "confidence DESC, updated_at DESC, id DESC",
    "id": "id",
}
# Column weights of BM25, as the SQLite engine gives FTS5: memories text 1.0 and key 0.5,
# summaries text and topics 1.0 each.
MEMORY_WEIGHTS = (1.0, 0.5, 0.0, 0.0)
SUMMARY_WEIGHTS = (1.0, 1.0, 0.0, 0.0)


def memory_row(row: dict[str, Any]) -> MemoryRow:
    """A MemoryRow from a row holding at least MEMORY_COLUMNS."""
    return MemoryRow(**{name: row[name] for name in MemoryRow.__dataclass_fields__})


def summary_row(row: dict[str, Any]) -> SummaryRow:
    """A SummaryRow from a row holding at least SUMMARY_COLUMNS."""
    values = {name: row[name] for name in SummaryRow.__dataclass_fields__}
    values["topics"] = list(json.loads(row["topics"] or "[]"))
    return SummaryRow(**values)


def _prefixed(columns: str, alias: str) -> str:
    return ", ".join(f"{alias}.{name.strip()}" for name in columns.split(","))


class PgUserStore(PgConversationStatements, Maintenance, Topics):
    """One user's view of a :class:`PgStore`; every statement carries ``user_id``."""

    def __init__(self, store: PgStore, user_id: int) -> None:
        self._store = store
        self.db = store.db
        self.user_id = user_id

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group the calls inside into one atomic transaction (re-entrant)."""
        with self._store.transaction():
            yield

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        return self._store.read(sql, params)

    # memories ----------------------------------------------------------------------
    def insert_memory(self, memory: NewMemory, now: float) -> MemoryRow:
        """Insert a memory and return it with its id."""
        created = memory.created_at if memory.created_at is not None else now
        updated = memory.updated_at if memory.updated_at is not None else created
        cur = self._store.write(
            "INSERT INTO memories (user_id, kind, type, key, text, source, confidence, status,"
            " created_at, updated_at, last_accessed, access_count, reinforcement_count,"
            " conversation_id, decay_base, sensitive)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            f" RETURNING {MEMORY_COLUMNS}",
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
                memory.sensitive,
            ),
        )
        row = cur.fetchone()
        assert row is not None
        return memory_row(row)

    def get_memory(self, memory_id: int) -> MemoryRow | None:
        """The memory with that id, if it belongs to this user."""
        rows = self._read(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id = %s AND user_id = %s", (memory_id, self.user_id)
        )
        return memory_row(rows[0]) if rows else None

    def _filter_sql(self, where: MemoryFilter) -> tuple[str, list[Any]]:
        clauses = ["user_id = %s", "kind = ANY(%s)", "status = ANY(%s)"]
        params: list[Any] = [self.user_id, list(where.kinds), list(where.statuses)]
        if where.source:
            clauses.append("source = %s")
            params.append(where.source)
        if where.created_from is not None:
            clauses.append("created_at >= %s")
            params.append(where.created_from)
        if where.created_to is not None:
            clauses.append("created_at < %s")
            params.append(where.created_to)
        return " AND ".join(clauses), params

    def list_memories(self, where: MemoryFilter) -> list[MemoryRow]:
        """Memories matching the filter."""
        clause, params = self._filter_sql(where)
        rows = self._read(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE {clause}"
            f" ORDER BY {_ORDERS[where.order]} LIMIT %s OFFSET %s",
            [*params, where.limit, where.offset],
        )
        return [memory_row(row) for row in rows]

    def count_memories(self, where: MemoryFilter) -> int:
        """How many memories match the filter."""
        clause, params = self._filter_sql(where)
        return int(self._read(f"SELECT COUNT(*) AS n FROM memories WHERE {clause}", params)[0]["n"])

    def find_active_by_key(self, kind: Kind, key: str) -> MemoryRow | None:
        """The active memory of this kind with this normalized key."""
        rows = self._read(
            f"SELECT {MEMORY_COLUMNS} FROM memories"
            " WHERE user_id = %s AND kind = %s AND key = %s AND status = 'active'",
            (self.user_id, kind, key),
        )
        return memory_row(rows[0]) if rows else None

    def update_memory(self, memory_id: int, now: float, **changes: Any) -> MemoryRow | None:
        """Change columns of one memory."""
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        if "confidence" in changes:  # decay starts again from a confidence set on purpose
            changes = {**changes, "decay_base": changes["confidence"]}
        assignments = ", ".join(f"{name} = %s" for name in changes)
        cur = self._store.write(
            f"UPDATE memories SET {assignments}, updated_at = %s WHERE id = %s AND user_id = %s"
            f" RETURNING {MEMORY_COLUMNS}",
            [*changes.values(), now, memory_id, self.user_id],
        )
        row = cur.fetchone()
        return memory_row(row) if row else None

    def supersede(self, old_id: int, new_id: int, now: float) -> None:
        """Mark ``old_id`` superseded by ``new_id``."""
        self._store.write(
            "UPDATE memories SET status = 'superseded', superseded_by = %s, updated_at = %s"
            " WHERE id = %s AND user_id = %s",
            (new_id, now, old_id, self.user_id),
        )

    def reinforce(self, memory_id: int, now: float, confidence: float) -> MemoryRow | None:
        """Count one more mention and raise confidence to at least ``confidence``."""
        cur = self._store.write(
            "UPDATE memories SET reinforcement_count = reinforcement_count + 1,"
            " confidence = GREATEST(confidence, %s), decay_base = GREATEST(confidence, %s), updated_at = %s"
            f" WHERE id = %s AND user_id = %s RETURNING {MEMORY_COLUMNS}",
            (confidence, confidence, now, memory_id, self.user_id),
        )
        row = cur.fetchone()
        return memory_row(row) if row else None

    def touch_memories(self, memory_ids: Sequence[int], now: float, boost: float) -> None:
        """Record an access; boost confidence only when the last access is over an hour old."""
        if not memory_ids:
            return
        self._store.write(
            "UPDATE memories SET access_count = access_count + 1, last_accessed = %(now)s,"
            " confidence = CASE WHEN last_accessed IS NOT NULL AND %(now)s - last_accessed > 3600"
            " THEN LEAST(1.0, confidence + %(boost)s) ELSE confidence END,"
            " decay_base = CASE WHEN last_accessed IS NOT NULL AND %(now)s - last_accessed > 3600"
            " THEN LEAST(1.0, confidence + %(boost)s) ELSE confidence END"
            " WHERE user_id = %(user)s AND id = ANY(%(ids)s)",
            {"now": now, "boost": boost, "user": self.user_id, "ids": list(memory_ids)},
        )

    def delete_memories(self, memory_ids: Sequence[int]) -> int:
        """Delete rows for good and return how many went."""
        if not memory_ids:
            return 0
        cur = self._store.write(
            "DELETE FROM memories WHERE user_id = %s AND id = ANY(%s)", (self.user_id, list(memory_ids))
        )
        return cur.rowcount

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
        """Active memories matching any term (or ``min_match`` of them), best BM25 first."""
        if not terms:
            return []
        ctes, params = ranked(
            table="memories",
            tsv="tsv",
            length="doclen",
            scope="t.user_id = %s",
            scope_params=[self.user_id],
            terms=terms,
            weights=MEMORY_WEIGHTS,
            min_match=min_match,
        )
        filters = "m.user_id = %s AND m.status = 'active' AND m.kind = ANY(%s)"
        params += [self.user_id, list(kinds)]
        if created_from is not None:
            filters += " AND m.created_at >= %s"
            params.append(created_from)
        if created_to is not None:
            filters += " AND m.created_at < %s"
            params.append(created_to)
        rows = self._read(
            f"{ctes} SELECT {_prefixed(MEMORY_COLUMNS, 'm')}, r.score FROM ranked r JOIN memories m ON m.id"
            " = r.id"
            f" WHERE {filters} ORDER BY r.score DESC, m.confidence DESC, m.id LIMIT %s",
            [*params, limit],
        )
        return [(memory_row(row), float(row["score"])) for row in rows]

    # summaries ---------------------------------------------------------------------
    def insert_summary(self, summary: NewSummary, now: float) -> SummaryRow:
        """Insert a conversation summary."""
        created = summary.created_at if summary.created_at is not None else now
        cur = self._store.write(
            "INSERT INTO summaries (user_id, conversation_id, text, topics, sentiment, created_at,"
            " message_count, first_message_id, last_message_id, duration_seconds)"
            f" VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING {SUMMARY_COLUMNS}",
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
        row = cur.fetchone()
        assert row is not None
        return summary_row(row)

    @staticmethod
    def _range(created_from: float | None, created_to: float | None) -> tuple[str, list[Any]]:
        sql, params = "", []
        if created_from is not None:
            sql += " AND s.created_at >= %s"
            params.append(created_from)
        if created_to is not None:
            sql += " AND s.created_at < %s"
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
            f"SELECT {_prefixed(SUMMARY_COLUMNS, 's')} FROM summaries s WHERE s.user_id = %s{extra}"
            " ORDER BY s.created_at DESC, s.id DESC LIMIT %s OFFSET %s",
            [self.user_id, *params, limit, offset],
        )
        return [summary_row(row) for row in rows]

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
        ctes, params = ranked(
            table="summaries",
            tsv="tsv",
            length="doclen",
            scope="t.user_id = %s",
            scope_params=[self.user_id],
            terms=terms,
            weights=SUMMARY_WEIGHTS,
        )
        extra, more = self._range(created_from, created_to)
        rows = self._read(
            f"{ctes} SELECT {_prefixed(SUMMARY_COLUMNS, 's')}, r.score FROM ranked r JOIN summaries s ON"
            " s.id = r.id"
            f" WHERE s.user_id = %s{extra} ORDER BY r.score DESC, s.created_at DESC, s.id DESC LIMIT %s",
            [*params, self.user_id, *more, limit],
        )
        return [(summary_row(row), float(row["score"])) for row in rows]

    def delete_summaries(self, summary_ids: Sequence[int]) -> int:
        """Delete summaries for good."""
        if not summary_ids:
            return 0
        cur = self._store.write(
            "DELETE FROM summaries WHERE user_id = %s AND id = ANY(%s)", (self.user_id, list(summary_ids))
        )
        return cur.rowcount

    def unincorporated_summaries(self) -> list[SummaryRow]:
        """Summaries not yet distilled into the base memory, oldest first."""
        rows = self._read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE user_id = %s AND NOT incorporated"
            " ORDER BY created_at, id",
            (self.user_id,),
        )
        return [summary_row(row) for row in rows]

    def mark_incorporated(self, summary_ids: Sequence[int]) -> None:
        """Record that these summaries are part of the base memory now."""
        if summary_ids:
            self._store.write(
                "UPDATE summaries SET incorporated = true WHERE user_id = %s AND id = ANY(%s)",
                (self.user_id, list(summary_ids)),
            )

    def count_summaries(self) -> int:
        """How many summaries this user has."""
        return int(
            self._read("SELECT COUNT(*) AS n FROM summaries WHERE user_id = %s", (self.user_id,))[0]["n"]
        )

    # base memory, confirmations, audit ----------------------------------------------
    def get_base_memory(self) -> tuple[str, float] | None:
        """The base memory document and when it was written."""
        rows = self._read("SELECT text, updated_at FROM base_memory WHERE user_id = %s", (self.user_id,))
        return (rows[0]["text"], rows[0]["updated_at"]) if rows else None

    def set_base_memory(self, text: str, now: float) -> None:
        """Replace the base memory document ('' removes it)."""
        with self._store.transaction() as conn:
            conn.execute("DELETE FROM base_memory WHERE user_id = %s", (self.user_id,))
            if text:
                conn.execute(
                    "INSERT INTO base_memory (user_id, text, updated_at) VALUES (%s, %s, %s)",
                    (self.user_id, text, now),
                )

    def set_pending(self, action: str, expires_at: float) -> None:
        """Remember that ``action`` awaits the user's confirmation."""
        self._store.write(
            "INSERT INTO pending_confirmations (user_id, action, expires_at) VALUES (%s, %s, %s)"
            " ON CONFLICT (user_id) DO UPDATE SET action = excluded.action, expires_at = excluded.expires_at",
            (self.user_id, action, expires_at),
        )

    def take_pending(self, now: float) -> str | None:
        """Remove and return the pending action if it has not expired."""
        if not self._read("SELECT 1 FROM pending_confirmations WHERE user_id = %s", (self.user_id,)):
            return None  # the common case: no write for nothing
        cur = self._store.write(
            "DELETE FROM pending_confirmations WHERE user_id = %s RETURNING action, expires_at",
            (self.user_id,),
        )
        row = cur.fetchone()
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
        self._store.write(
            "INSERT INTO audit_log (user_id, at, action, target_kind, target_id, reason, detail)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (self.user_id, now, action, target_kind, target_id, reason, json.dumps(detail or {})),
        )

    def list_audit(self, limit: int = 100) -> list[AuditEntry]:
        """This user's audit trail, newest first."""
        rows = self._read(
            "SELECT id, at, action, target_kind, target_id, reason, detail FROM audit_log WHERE user_id = %s"
            " ORDER BY at DESC, id DESC LIMIT %s",
            (self.user_id, limit),
        )
        return [AuditEntry(**{**row, "detail": json.loads(row["detail"])}) for row in rows]

    def get_memories(self, memory_ids: Sequence[int]) -> list[MemoryRow]:
        """The memories with these ids that belong to this user."""
        if not memory_ids:
            return []
        rows = self._read(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE user_id = %s AND id = ANY(%s)",
            (self.user_id, list(memory_ids)),
        )
        return [memory_row(row) for row in rows]

    def get_summaries(self, summary_ids: Sequence[int]) -> list[SummaryRow]:
        """The summaries with these ids that belong to this user."""
        if not summary_ids:
            return []
        rows = self._read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE user_id = %s AND id = ANY(%s)",
            (self.user_id, list(summary_ids)),
        )
        return [summary_row(row) for row in rows]

    def delete_everything(self) -> dict[str, int]:
        """Delete every memory, summary, conversation and the base memory; return counts."""
        counts: dict[str, int] = {}
        with self._store.transaction() as conn:
            for kind in KINDS:
                cur = conn.execute(
                    "DELETE FROM memories WHERE user_id = %s AND kind = %s", (self.user_id, kind)
                )
                counts[kind] = cur.rowcount
            counts["summary"] = conn.execute(
                "DELETE FROM summaries WHERE user_id = %s", (self.user_id,)
            ).rowcount
            counts["base_memory"] = conn.execute(
                "DELETE FROM base_memory WHERE user_id = %s", (self.user_id,)
            ).rowcount
            counts["conversation"] = conn.execute(
                "DELETE FROM conversations WHERE user_id = %s", (self.user_id,)
            ).rowcount
        return counts


__all__ = ["MEMORY_COLUMNS", "SUMMARY_COLUMNS", "PgUserStore", "memory_row", "summary_row"]
