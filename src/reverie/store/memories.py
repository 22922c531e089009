"""One user's memories, confirmations awaiting an answer and audit trail, written once for both engines.

A structured preference (Saga) is a memory of kind ``preference`` whose ``category`` column says
what it is about ("lights", "climate", "global") and whose ``key`` what it sets ("color",
"brightness"); the value is the memory's text. The unique index ``idx_memories_active_key`` keeps
one active row per (user, category, key); a replaced value stays as a superseded row, its history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any

from reverie.store.dialect import Clause, RowReader, UserPart, insert_sql, time_range
from reverie.store.rows import KINDS, AuditEntry, Kind, MemoryFilter, MemoryRow, NewMemory

memory_row = RowReader(MemoryRow)
_audit_entry = RowReader(AuditEntry, detail=json.loads)
_PREFIXED = RowReader(MemoryRow, "m.").columns
# A new memory's fields are its columns; decay starts from the confidence it is given.
_GIVEN = tuple(column.name for column in fields(NewMemory) if column.name not in ("created_at", "updated_at"))
_INSERT = insert_sql("memories", (*_GIVEN, "created_at", "updated_at", "user_id", "decay_base"))
_given = attrgetter(*_GIVEN)
AUDIT_INSERT = (
    "INSERT INTO audit_log (user_id, at, action, target_kind, target_id, reason, detail)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
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


class Memories(UserPart):
    """One user's memories, structured preferences, confirmations awaiting an answer and audit trail."""

    # memories ----------------------------------------------------------------------
    def insert_memory(self, memory: NewMemory, now: float) -> MemoryRow:
        """Insert a memory and return it with its id."""
        created = memory.created_at if memory.created_at is not None else now
        updated = memory.updated_at if memory.updated_at is not None else created
        values = (*_given(memory), created, updated, self.user_id, memory.confidence)
        row = self.db.write_one(memory_row, _INSERT, values)
        assert row is not None
        return row

    def get_memory(self, memory_id: int) -> MemoryRow | None:
        """The memory with that id, if it belongs to this user."""
        return self.db.select_one(
            memory_row, "FROM memories WHERE id = ? AND user_id = ?", (memory_id, self.user_id)
        )

    def _filter_sql(self, where: MemoryFilter) -> Clause:
        kinds, kind_params = self.db.one_of("kind", where.kinds)
        statuses, status_params = self.db.one_of("status", where.statuses)
        clauses = ["user_id = ?", kinds, statuses]
        params: list[Any] = [self.user_id, *kind_params, *status_params]
        if where.source:
            clauses.append("source = ?")
            params.append(where.source)
        dates, date_params = time_range("created_at", where.created_from, where.created_to)
        return " AND ".join(clauses) + dates, [*params, *date_params]

    def list_memories(self, where: MemoryFilter) -> list[MemoryRow]:
        """Memories matching the filter."""
        clause, params = self._filter_sql(where)
        return self.db.select(
            memory_row,
            f"FROM memories WHERE {clause} ORDER BY {_ORDERS[where.order]} LIMIT ? OFFSET ?",
            [*params, where.limit, where.offset],
        )

    def count_memories(self, where: MemoryFilter) -> int:
        """How many memories match the filter."""
        clause, params = self._filter_sql(where)
        return int(self.db.value(f"SELECT COUNT(*) FROM memories WHERE {clause}", params))

    def find_active_by_key(self, kind: Kind, key: str) -> MemoryRow | None:
        """The active memory of this kind with this normalized key."""
        return self.db.select_one(
            memory_row,
            "FROM memories WHERE user_id = ? AND kind = ? AND key = ? AND status = 'active'",
            (self.user_id, kind, key),
        )

    def update_memory(self, memory_id: int, now: float, **changes: Any) -> MemoryRow | None:
        """Change columns of one memory."""
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        if "confidence" in changes:  # decay starts again from a confidence set on purpose
            changes = {**changes, "decay_base": changes["confidence"]}
        assignments = ", ".join(f"{name} = ?" for name in changes)
        return self.db.write_one(
            memory_row,
            f"UPDATE memories SET {assignments}, updated_at = ? WHERE id = ? AND user_id = ?",
            [*changes.values(), now, memory_id, self.user_id],
        )

    def supersede(self, old_id: int, new_id: int, now: float) -> None:
        """Mark ``old_id`` superseded by ``new_id``."""
        self.db.run(
            "UPDATE memories SET status = 'superseded', superseded_by = ?, updated_at = ?"
            " WHERE id = ? AND user_id = ?",
            (new_id, now, old_id, self.user_id),
        )

    def reinforce(self, memory_id: int, now: float, confidence: float) -> MemoryRow | None:
        """Count one more mention and raise confidence to at least ``confidence``."""
        greatest = self.db.greatest
        return self.db.write_one(
            memory_row,
            "UPDATE memories SET reinforcement_count = reinforcement_count + 1,"
            f" confidence = {greatest}(confidence, ?), decay_base = {greatest}(confidence, ?), updated_at = ?"
            " WHERE id = ? AND user_id = ?",
            (confidence, confidence, now, memory_id, self.user_id),
        )

    def touch_memories(self, memory_ids: Sequence[int], now: float, boost: float) -> None:
        """Record an access; boost confidence only when the last access is over an hour old."""
        least = self.db.least
        self.db.run_among(
            "UPDATE memories SET access_count = access_count + 1, last_accessed = ?,"
            " confidence = CASE WHEN last_accessed IS NOT NULL AND ? - last_accessed > 3600"
            f" THEN {least}(1.0, confidence + ?) ELSE confidence END,"
            " decay_base = CASE WHEN last_accessed IS NOT NULL AND ? - last_accessed > 3600"
            f" THEN {least}(1.0, confidence + ?) ELSE confidence END"
            " WHERE +user_id = ? AND {among}",
            "id",
            memory_ids,
            (now, now, boost, now, boost, self.user_id),
        )

    def delete_memories(self, memory_ids: Sequence[int]) -> int:
        """Delete rows for good and return how many went."""
        return self.db.run_among(
            "DELETE FROM memories WHERE +user_id = ? AND {among}", "id", memory_ids, (self.user_id,)
        )

    def get_memories(self, memory_ids: Sequence[int]) -> list[MemoryRow]:
        """The memories with these ids that belong to this user."""
        return self._owned(memory_row, "memories", memory_ids)

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
        among, params = self.db.one_of("m.kind", kinds)
        filters = f"m.user_id = ? AND m.status = 'active' AND {among}"
        dates, date_params = time_range("m.created_at", created_from, created_to)
        filters += dates
        params = [self.user_id, *params, *date_params]
        rows = self.db.search_memories(self.user_id, terms, _PREFIXED, filters, params, limit, min_match)
        return [(memory_row(row), float(row["score"])) for row in rows]

    # structured preferences (memories of kind preference) --------------------------
    def find_preference(self, category: str, key: str) -> MemoryRow | None:
        """The active preference with this category and key."""
        return self.db.select_one(
            memory_row,
            "FROM memories WHERE user_id = ? AND kind = 'preference'"
            " AND status = 'active' AND category = ? AND key = ?",
            (self.user_id, category, key),
        )

    def list_preferences(
        self, categories: Sequence[str] | None = None, *, limit: int = 50
    ) -> list[MemoryRow]:
        """Active preferences (of these categories, or all), strongest first."""
        clause, params = "", []
        if categories is not None:
            if not categories:
                return []
            among, listed = self.db.one_of("category", list(categories))
            clause, params = f" AND {among}", listed
        return self.db.select(
            memory_row,
            "FROM memories WHERE user_id = ? AND kind = 'preference'"
            f" AND status = 'active'{clause} ORDER BY confidence DESC, updated_at DESC, id DESC LIMIT ?",
            [self.user_id, *params, limit],
        )

    def preference_history(self, category: str, key: str) -> list[MemoryRow]:
        """Every value this preference had (active and superseded), oldest first."""
        return self.db.select(
            memory_row,
            "FROM memories WHERE user_id = ? AND kind = 'preference'"
            " AND status IN ('active', 'superseded') AND category = ? AND key = ? ORDER BY created_at, id",
            (self.user_id, category, key),
        )

    # confirmations and audit -------------------------------------------------------
    def set_pending(self, action: str, expires_at: float) -> None:
        """Remember that ``action`` awaits the user's confirmation."""
        self.db.run(
            "INSERT INTO pending_confirmations (user_id, action, expires_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET action = excluded.action, expires_at = excluded.expires_at",
            (self.user_id, action, expires_at),
        )

    def take_pending(self, now: float) -> str | None:
        """Remove and return the pending action if it has not expired."""
        if not self.db.row("SELECT 1 AS found FROM pending_confirmations WHERE user_id = ?", (self.user_id,)):
            return None  # the common case: no write for nothing
        with self.db.transaction():
            row = self.db.row(
                "SELECT action, expires_at FROM pending_confirmations WHERE user_id = ?", (self.user_id,)
            )
            self.db.run("DELETE FROM pending_confirmations WHERE user_id = ?", (self.user_id,))
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
        self.db.run(
            AUDIT_INSERT,
            (self.user_id, now, action, target_kind, target_id, reason, json.dumps(detail or {})),
        )

    def list_audit(self, limit: int = 100) -> list[AuditEntry]:
        """This user's audit trail, newest first."""
        return self.db.select(
            _audit_entry,
            "FROM audit_log WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?",
            (self.user_id, limit),
        )

    def delete_everything(self) -> dict[str, int]:
        """Delete every memory, summary, conversation, topic and the base memory; return counts."""
        counts: dict[str, int] = {}
        with self.db.transaction():
            for kind in KINDS:
                counts[kind] = self.db.run(
                    "DELETE FROM memories WHERE user_id = ? AND kind = ?", (self.user_id, kind)
                )
            for table, name in (
                ("summaries", "summary"),
                ("base_memory", "base_memory"),
                ("conversations", "conversation"),
                ("topics", "topic"),
            ):
                counts[name] = self.db.run(f"DELETE FROM {table} WHERE user_id = ?", (self.user_id,))
            self.db.run("DELETE FROM topic_index WHERE user_id = ?", (self.user_id,))
        return counts


__all__ = ["AUDIT_INSERT", "Memories", "memory_row"]
