"""PostgreSQL statements of nightly maintenance for one user: decay, pruning with audit, retention."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from reverie.store.base import DecayRates, PruneReport

if TYPE_CHECKING:
    from reverie.store.postgres import PgStore

WEEK = 604800.0

# The same statements as the SQLite engine's: decay_base is the confidence right after the last
# access (facts) or update (preferences); a floor never raises a confidence already below it.
_DECAY_FACTS = f"""
UPDATE memories SET confidence = CASE WHEN source = 'explicit'
    THEN GREATEST(LEAST(COALESCE(decay_base, confidence), %(explicit_floor)s),
             COALESCE(decay_base, confidence)
             * safe_pow(%(explicit_rate)s, GREATEST(0.0, %(now)s - last_accessed) / {WEEK}))
    ELSE GREATEST(LEAST(COALESCE(decay_base, confidence), %(inferred_floor)s),
             COALESCE(decay_base, confidence)
             * safe_pow(%(inferred_rate)s, GREATEST(0.0, %(now)s - last_accessed) / {WEEK}))
    END,
    decay_base = COALESCE(decay_base, confidence)
WHERE user_id = %(user)s AND kind = 'fact' AND status = 'active' AND last_accessed IS NOT NULL
"""
_DECAY_PREFERENCES = f"""
UPDATE memories SET confidence =
    GREATEST(LEAST(COALESCE(decay_base, confidence), %(preference_floor)s),
        COALESCE(decay_base, confidence)
        * safe_pow(%(preference_rate)s, GREATEST(0.0, %(now)s - updated_at) / {WEEK})),
    decay_base = COALESCE(decay_base, confidence)
WHERE user_id = %(user)s AND kind = 'preference' AND status = 'active'
"""
_AUDIT_INSERT = (
    "INSERT INTO audit_log (user_id, at, action, target_kind, target_id, reason, detail)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s)"
)


class PgMaintenanceStatements:
    """Decay and pruning for one user (mixed into the PostgreSQL user store)."""

    _store: PgStore
    user_id: int

    def decay(self, now: float, rates: DecayRates) -> int:
        """Recompute every active fact's and preference's confidence from the time since its last use."""
        params = {**{k: float(v) for k, v in rates.__dict__.items()}, "now": float(now), "user": self.user_id}
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
                " WHERE user_id = %s AND status = 'active' AND confidence < %s ORDER BY id",
                (self.user_id, threshold),
            ).fetchall()
            old = conn.execute(
                "SELECT id, kind, text, confidence, source FROM memories"
                " WHERE user_id = %s AND status = 'superseded' AND updated_at < %s ORDER BY id",
                (self.user_id, superseded_before),
            ).fetchall()
            summaries = conn.execute(
                "SELECT id, text, created_at FROM summaries WHERE user_id = %s AND created_at < %s ORDER BY"
                " id",
                (self.user_id, summaries_before),
            ).fetchall()
            audit: list[tuple[Any, ...]] = []
            for rows, reason in ((low, f"confidence under {threshold}"), (old, "superseded long ago")):
                audit += [
                    (
                        self.user_id,
                        now,
                        "prune",
                        r["kind"],
                        r["id"],
                        reason,
                        json.dumps(
                            {
                                "text": r["text"],
                                "confidence": round(r["confidence"], 4),
                                "source": r["source"],
                            }
                        ),
                    )
                    for r in rows
                ]
            audit += [
                (
                    self.user_id,
                    now,
                    "prune",
                    "summary",
                    r["id"],
                    "older than the retention period",
                    json.dumps({"text": r["text"], "created_at": r["created_at"]}),
                )
                for r in summaries
            ]
            if audit:
                with conn.cursor() as cur:
                    cur.executemany(_AUDIT_INSERT, audit)
            ids = [r["id"] for r in [*low, *old]]
            if ids:
                conn.execute("DELETE FROM memories WHERE user_id = %s AND id = ANY(%s)", (self.user_id, ids))
            if summaries:
                conn.execute(
                    "DELETE FROM summaries WHERE user_id = %s AND id = ANY(%s)",
                    (self.user_id, [r["id"] for r in summaries]),
                )
            trimmed = conn.execute(
                "DELETE FROM audit_log WHERE user_id = %s AND at < %s", (self.user_id, audit_before)
            ).rowcount
        return PruneReport(
            low_confidence=len(low), superseded=len(old), summaries=len(summaries), audit_trimmed=trimmed
        )


__all__ = ["PgMaintenanceStatements"]
