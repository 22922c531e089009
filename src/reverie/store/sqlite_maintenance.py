"""SQLite statements of nightly maintenance for one user: decay, pruning with audit, retention."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from reverie.store.base import DecayRates, PruneReport

if TYPE_CHECKING:
    from reverie.store.sqlite import SqliteStore

WEEK = 604800.0

# decay_base is the confidence right after the last access (facts) or update (preferences);
# a floor never raises a confidence that was already below it.
_DECAY_FACTS = f"""
UPDATE memories SET confidence = CASE WHEN source = 'explicit'
    THEN MAX(MIN(COALESCE(decay_base, confidence), :explicit_floor),
             COALESCE(decay_base, confidence)
             * safe_pow(:explicit_rate, MAX(0.0, :now - last_accessed) / {WEEK}))
    ELSE MAX(MIN(COALESCE(decay_base, confidence), :inferred_floor),
             COALESCE(decay_base, confidence)
             * safe_pow(:inferred_rate, MAX(0.0, :now - last_accessed) / {WEEK}))
    END,
    decay_base = COALESCE(decay_base, confidence)
WHERE user_id = :user AND kind = 'fact' AND status = 'active' AND last_accessed IS NOT NULL
"""
_DECAY_PREFERENCES = f"""
UPDATE memories SET confidence =
    MAX(MIN(COALESCE(decay_base, confidence), :preference_floor),
        COALESCE(decay_base, confidence) * safe_pow(:preference_rate, MAX(0.0, :now - updated_at) / {WEEK})),
    decay_base = COALESCE(decay_base, confidence)
WHERE user_id = :user AND kind = 'preference' AND status = 'active'
"""


class MaintenanceStatements:
    """Decay and pruning for one user (mixed into the SQLite user store)."""

    _store: SqliteStore
    user_id: int

    def decay(self, now: float, rates: DecayRates) -> int:
        """Recompute every active fact's and preference's confidence from the time since its last use."""
        params = {**rates.__dict__, "now": now, "user": self.user_id}
        with self._store.transaction() as conn:
            changed = conn.execute(_DECAY_FACTS, params).rowcount
            changed += conn.execute(_DECAY_PREFERENCES, params).rowcount
        return changed

    def prune(
        self,
        now: float,
        *,
        threshold: float,
        superseded_before: float,
        summaries_before: float,
        audit_before: float,
    ) -> PruneReport:
        """Delete what fell under the threshold, old superseded facts and old summaries, audited."""
        with self._store.transaction() as conn:
            low = conn.execute(
                "SELECT id, kind, text, confidence, source FROM memories"
                " WHERE user_id = ? AND status = 'active' AND confidence < ?",
                (self.user_id, threshold),
            ).fetchall()
            old = conn.execute(
                "SELECT id, kind, text, confidence, source FROM memories"
                " WHERE user_id = ? AND status = 'superseded' AND updated_at < ?",
                (self.user_id, superseded_before),
            ).fetchall()
            summaries = conn.execute(
                "SELECT id, text, created_at FROM summaries WHERE user_id = ? AND created_at < ?",
                (self.user_id, summaries_before),
            ).fetchall()
            self._audit_rows(conn, now, "prune", low, f"confidence under {threshold}")
            self._audit_rows(conn, now, "prune", old, "superseded long ago")
            conn.executemany(
                "INSERT INTO audit_log (user_id, at, action, target_kind, target_id, reason, detail)"
                " VALUES (?, ?, 'prune', 'summary', ?, 'older than the retention period', ?)",
                [
                    (
                        self.user_id,
                        now,
                        r["id"],
                        json.dumps({"text": r["text"], "created_at": r["created_at"]}),
                    )
                    for r in summaries
                ],
            )
            ids = [r["id"] for r in [*low, *old]]
            conn.executemany(
                "DELETE FROM memories WHERE id = ? AND user_id = ?", [(i, self.user_id) for i in ids]
            )
            conn.executemany(
                "DELETE FROM summaries WHERE id = ? AND user_id = ?",
                [(r["id"], self.user_id) for r in summaries],
            )
            trimmed = conn.execute(
                "DELETE FROM audit_log WHERE user_id = ? AND at < ?", (self.user_id, audit_before)
            ).rowcount
        return PruneReport(
            low_confidence=len(low), superseded=len(old), summaries=len(summaries), audit_trimmed=trimmed
        )

    def _audit_rows(
        self, conn: sqlite3.Connection, now: float, action: str, rows: list[Any], reason: str
    ) -> None:
        conn.executemany(
            "INSERT INTO audit_log (user_id, at, action, target_kind, target_id, reason, detail)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    self.user_id,
                    now,
                    action,
                    r["kind"],
                    r["id"],
                    reason,
                    json.dumps(
                        {"text": r["text"], "confidence": round(r["confidence"], 4), "source": r["source"]}
                    ),
                )
                for r in rows
            ],
        )


__all__ = ["MaintenanceStatements"]
