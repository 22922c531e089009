"""The consolidation queue over every user's ended conversations, written once for both engines.

Jobs are claimed under leases; the dialect says how a claim keeps racing workers apart
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL; SQLite's write transaction already excludes them).
"""

from __future__ import annotations

from reverie.store.dialect import StorePart


class WorkQueue(StorePart):
    """The consolidation queue over every user's ended conversations."""

    def expire_conversations(self, now: float, idle_seconds: float) -> int:
        """End every open conversation idle for longer than ``idle_seconds``; queue it."""
        return self.db.run(
            "UPDATE conversations SET ended_at = last_activity, consolidation_state ="
            " CASE WHEN is_private THEN 'skipped' ELSE 'pending' END"
            " WHERE ended_at IS NULL AND last_activity < ?",
            (now - idle_seconds,),
        )

    def claim_consolidation(
        self, now: float, worker: str, lease_seconds: float, max_attempts: int
    ) -> tuple[int, int] | None:
        """Take the next conversation to consolidate under a lease: (user id, conversation id), or None.

        Pending ones, running ones whose lease has expired (their worker died) and failed ones
        whose retry time has come qualify; a user's conversations go strictly in order, so a
        later session waits while an earlier one is still queued.
        """
        due = (
            "(c.consolidation_state = 'pending'"
            " OR (c.consolidation_state = 'running' AND c.lease_until < :now)"
            " OR (c.consolidation_state = 'failed' AND c.attempts < :max AND c.next_attempt_at <= :now))"
        )
        waiting = (
            "(e.consolidation_state IN ('pending', 'running')"
            " OR (e.consolidation_state = 'failed' AND e.attempts < :max))"
        )
        with self.db.transaction():
            row = self.db.row(
                f"SELECT c.id, c.user_id FROM conversations c WHERE {due} AND NOT EXISTS ("
                f"SELECT 1 FROM conversations e WHERE e.user_id = c.user_id AND e.id < c.id AND {waiting})"
                f" ORDER BY c.ended_at, c.id LIMIT 1{self.db.skip_locked}",
                {"now": now, "max": max_attempts},
            )
            if row is None:
                return None
            self.db.run(
                "UPDATE conversations SET consolidation_state = 'running', worker = ?, lease_until = ?,"
                " attempts = attempts + 1 WHERE id = ?",
                (worker, now + lease_seconds, row["id"]),
            )
        return int(row["user_id"]), int(row["id"])

    def complete_consolidation(
        self, conversation_id: int, worker: str, now: float, state: str = "done"
    ) -> bool:
        """Mark a claimed job done (in the caller's transaction); False if this worker lost its lease."""
        changed = self.db.run(
            "UPDATE conversations SET consolidation_state = ?, consolidated_at = ?, lease_until = NULL,"
            " last_error = NULL WHERE id = ? AND worker = ? AND consolidation_state = 'running'",
            (state, now, conversation_id, worker),
        )
        return changed == 1

    def fail_consolidation(self, conversation_id: int, worker: str, error: str, retry_at: float) -> None:
        """Record a failed attempt; the job is retried at ``retry_at`` while attempts remain."""
        self.db.run(
            "UPDATE conversations SET consolidation_state = 'failed', last_error = ?, next_attempt_at = ?,"
            " lease_until = NULL WHERE id = ? AND worker = ? AND consolidation_state = 'running'",
            (error[:2000], retry_at, conversation_id, worker),
        )

    def release_consolidation(self, conversation_id: int, worker: str) -> bool:
        """Give a claimed job back to the queue (shutdown), without counting the attempt."""
        changed = self.db.run(
            "UPDATE conversations SET consolidation_state = 'pending', worker = NULL, lease_until = NULL,"
            f" attempts = {self.db.greatest}(attempts - 1, 0)"
            " WHERE id = ? AND worker = ? AND consolidation_state = 'running'",
            (conversation_id, worker),
        )
        return changed == 1

    def reschedule_failed(self, now: float) -> int:
        """Make every failed consolidation due now, with its attempts reset."""
        return self.db.run(
            "UPDATE conversations SET next_attempt_at = ?, attempts = 0 WHERE consolidation_state = 'failed'",
            (now,),
        )

    def consolidation_counts(self) -> dict[str, int]:
        """How many conversations are in each consolidation state."""
        rows = self.db.rows(
            "SELECT consolidation_state AS state, COUNT(*) AS n FROM conversations"
            " GROUP BY consolidation_state"
        )
        return {str(row["state"]): int(row["n"]) for row in rows}


__all__ = ["WorkQueue"]
