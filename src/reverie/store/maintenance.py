"""Nightly maintenance of both engines: claimed runs, decay, pruning with audit, retention."""

from __future__ import annotations

import json
from typing import Any

from reverie.store.dialect import StorePart, UserPart
from reverie.store.memories import AUDIT_INSERT
from reverie.store.rows import DecayRates, PruneReport

WEEK = 604800.0
MAINTENANCE_LOCK = 7_301_002  # any constant, the same in every process


def _decay(greatest: str, least: str) -> tuple[str, str]:
    """The statements that decay one user's active facts, then preferences."""

    # decay_base is the confidence right after the last access (facts) or update (preferences);
    # a floor never raises a confidence that was already below it.
    def decayed(rates: str, since: str) -> str:
        base = "COALESCE(decay_base, confidence)"
        elapsed = f"{greatest}(0.0, :now - {since}) / {WEEK}"
        return f"{greatest}({least}({base}, :{rates}_floor), {base} * safe_pow(:{rates}_rate, {elapsed}))"

    keep = "decay_base = COALESCE(decay_base, confidence) WHERE user_id = :user AND status = 'active'"
    explicit, inferred = decayed("explicit", "last_accessed"), decayed("inferred", "last_accessed")
    facts = (
        f"UPDATE memories SET confidence = CASE WHEN source = 'explicit' THEN {explicit} ELSE {inferred} END,"
        f" {keep} AND kind = 'fact' AND last_accessed IS NOT NULL"
    )
    preferences = f"UPDATE memories SET confidence = {decayed('preference', 'updated_at')}, {keep}"
    preferences += " AND kind = 'preference'"
    return facts, preferences


class MaintenanceRuns(StorePart):
    """Nightly maintenance runs of the whole store: one run at a time over all processes."""

    def claim_maintenance(self, now: float, worker: str, min_gap_seconds: float) -> int | None:
        """Start a run unless one started within ``min_gap_seconds`` (atomic across processes)."""
        with self.db.transaction():
            self.db.lock(MAINTENANCE_LOCK)
            recent = self.db.row(
                "SELECT 1 AS found FROM maintenance_runs WHERE started_at > ? AND status != 'failed' LIMIT 1",
                (now - min_gap_seconds,),
            )
            if recent is not None:
                return None
            return self.db.insert(
                "INSERT INTO maintenance_runs (started_at, worker) VALUES (?, ?)", (now, worker)
            )

    def finish_maintenance(self, run_id: int, now: float, status: str, totals: dict[str, int]) -> None:
        """Record how a maintenance run ended."""
        self.db.run(
            "UPDATE maintenance_runs SET finished_at = ?, status = ?, totals = ? WHERE id = ?",
            (now, status, json.dumps(totals), run_id),
        )

    def last_maintenance(self) -> tuple[float, str] | None:
        """When the latest run started, and its status."""
        row = self.db.row(
            "SELECT started_at, status FROM maintenance_runs ORDER BY started_at DESC, id DESC LIMIT 1"
        )
        return (float(row["started_at"]), str(row["status"])) if row else None


class Maintenance(UserPart):
    """Decay and pruning for one user."""

    def decay(self, now: float, rates: DecayRates) -> int:
        """Recompute every active fact's and preference's confidence from the time since its last use."""
        params = {**{k: float(v) for k, v in rates.__dict__.items()}, "now": float(now), "user": self.user_id}
        with self.db.transaction():
            return sum(self.db.run(sql, params) for sql in _decay(self.db.greatest, self.db.least))

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
        with self.db.transaction():
            memories = (
                "SELECT id, kind, text, confidence, source FROM memories WHERE user_id = ? AND status ="
            )
            low = self.db.rows(
                f"{memories} 'active' AND confidence < ? ORDER BY id", (self.user_id, threshold)
            )
            old = self.db.rows(
                f"{memories} 'superseded' AND updated_at < ? ORDER BY id", (self.user_id, superseded_before)
            )
            summaries = self.db.rows(
                "SELECT id, text, created_at FROM summaries WHERE user_id = ? AND created_at < ? ORDER BY id",
                (self.user_id, summaries_before),
            )
            audit: list[tuple[Any, ...]] = []
            for rows, reason in ((low, f"confidence under {threshold}"), (old, "superseded long ago")):
                for r in rows:
                    detail = {
                        "text": r["text"],
                        "confidence": round(r["confidence"], 4),
                        "source": r["source"],
                    }
                    audit.append(self._pruned(now, r["kind"], r["id"], reason, detail))
            for r in summaries:
                detail = {"text": r["text"], "created_at": r["created_at"]}
                audit.append(self._pruned(now, "summary", r["id"], "older than the retention period", detail))
            self.db.run_many(AUDIT_INSERT, audit)
            for table, ids in (("memories", [*low, *old]), ("summaries", summaries)):
                self.db.run_among(
                    f"DELETE FROM {table} WHERE user_id = ? AND {{among}}",
                    "id",
                    [r["id"] for r in ids],
                    (self.user_id,),
                )
            trimmed = self.db.run(
                "DELETE FROM audit_log WHERE user_id = ? AND at < ?", (self.user_id, audit_before)
            )
        return PruneReport(
            low_confidence=len(low), superseded=len(old), summaries=len(summaries), audit_trimmed=trimmed
        )

    def prune_transcripts(self, now: float, *, before: float) -> int:
        """Delete the turns older than ``before`` of conversations that consolidation is done with.

        A conversation still open, queued, running or failed keeps every turn: nothing has been
        learnt from it yet. One audit entry says how many turns of which conversations went
        (never their text: keeping it there would defeat the retention).
        """
        with self.db.transaction():
            found = self.db.rows(
                "SELECT m.conversation_id, COUNT(*) AS turns FROM messages m"
                " JOIN conversations c ON c.id = m.conversation_id"
                " WHERE m.user_id = ? AND c.user_id = ? AND m.created_at < ?"
                " AND c.consolidation_state IN ('done', 'skipped')"
                " GROUP BY m.conversation_id ORDER BY m.conversation_id",
                (self.user_id, self.user_id, before),
            )
            if not found:
                return 0
            conversations = [int(r["conversation_id"]) for r in found]
            deleted = self.db.run_among(
                "DELETE FROM messages WHERE user_id = ? AND created_at < ? AND {among}",
                "conversation_id",
                conversations,
                (self.user_id, before),
            )
            detail = {"messages": deleted, "conversations": conversations, "before": before}
            why = "transcripts older than the retention period"
            self.db.run(AUDIT_INSERT, self._pruned(now, "messages", None, why, detail))
        return deleted

    def _pruned(
        self, now: float, kind: str, target: int | None, reason: str, detail: dict[str, Any]
    ) -> tuple[Any, ...]:
        """An audit_log row (AUDIT_INSERT's parameters) saying what pruning deleted and why."""
        return (self.user_id, now, "prune", kind, target, reason, json.dumps(detail))


__all__ = ["Maintenance", "MaintenanceRuns"]
