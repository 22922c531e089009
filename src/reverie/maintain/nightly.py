"""Nightly maintenance (DAWN §10): decay, pruning with an audit trail, retention.

Retention covers summaries (``summary_retention_days``) and the transcripts of consolidated
conversations (``transcript_retention_days``; 0 keeps none once consolidated).

A run happens at ``[memory.decay] hour`` local time when enabled, at most once per 20 hours:
the run is claimed by writing its row in the database, so two processes (or a restart) never
run it twice. Users are processed one by one, each in one transaction; only aggregate totals
are logged. Decay is set-based SQL (no Python loop over rows): a memory's confidence is
``max(floor, base * rate ** weeks)``, where ``base`` is its confidence right after it was last
used, so the result depends on how long it went unused, not on how often maintenance ran.
The job never reinforces anything; reinforcement happens when the context builder loads a fact.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo

from reverie.config import DecaySettings
from reverie.errors import ReverieError
from reverie.store.base import DecayRates, PruneReport, Store

log = logging.getLogger(__name__)
DAY = 86400.0
MIN_GAP_SECONDS = 20 * 3600.0
# Vector change log rows kept per user (by version); a vector cache further behind reloads fully,
# which costs about what catching up on that many changes would.
VECTOR_CHANGES_KEPT = 20_000


@dataclass
class MaintenanceReport:
    """Totals of one maintenance run (or of what a dry run would do)."""

    ran: bool
    reason: str = ""
    dry_run: bool = False
    users: int = 0
    decayed: int = 0
    pruned_low_confidence: int = 0
    pruned_superseded: int = 0
    pruned_summaries: int = 0
    pruned_messages: int = 0  # turns of consolidated conversations past the transcript retention
    audit_trimmed: int = 0
    consolidated: int = 0
    documents_removed: int = 0  # indexed documents whose file was deleted from the folder
    failed: int = 0  # users whose maintenance failed (each has a maintenance_failed audit entry)
    details: list[dict[str, object]] = field(default_factory=list)
    errors: list[dict[str, str]] = field(default_factory=list)

    def totals(self) -> dict[str, int]:
        """The counters, for the run's row and the log."""
        return {
            "users": self.users,
            "decayed": self.decayed,
            "pruned_low_confidence": self.pruned_low_confidence,
            "pruned_superseded": self.pruned_superseded,
            "pruned_summaries": self.pruned_summaries,
            "pruned_messages": self.pruned_messages,
            "audit_trimmed": self.audit_trimmed,
            "consolidated": self.consolidated,
            "failed": self.failed,
            "documents_removed": self.documents_removed,
        }


class _DryRun(Exception):
    """Raised inside a user's transaction to roll a dry run back."""


def rates(decay: DecaySettings) -> DecayRates:
    """The store's decay parameters from ``[memory.decay]``."""
    return DecayRates(
        explicit_rate=decay.explicit_weekly,
        explicit_floor=decay.explicit_floor,
        inferred_rate=decay.inferred_weekly,
        inferred_floor=decay.inferred_floor,
        preference_rate=decay.preference_weekly,
        preference_floor=decay.preference_floor,
    )


def maintain_user(store: Store, user_id: int, now: float, decay: DecaySettings) -> tuple[int, PruneReport]:
    """Decay then prune one user's memories, in one transaction."""
    scope = store.scope(user_id)
    with scope.transaction():
        decayed = scope.decay(now, rates(decay))
        report = scope.prune(
            now,
            threshold=decay.prune_threshold,
            superseded_before=now - decay.prune_superseded_days * DAY,
            summaries_before=now - decay.summary_retention_days * DAY,
            audit_before=now - decay.audit_retention_days * DAY,
        )
    return decayed, report


def prune_transcripts(store: Store, user_id: int, now: float, decay: DecaySettings) -> int:
    """Delete one user's turns of consolidated conversations older than the transcript retention."""
    return store.scope(user_id).prune_transcripts(now, before=now - decay.transcript_retention_days * DAY)


class Maintainer:
    """Runs nightly maintenance over every user of a store."""

    def __init__(
        self,
        store: Store,
        decay: DecaySettings,
        *,
        clock: Callable[[], float],
        tz: tzinfo,
        before: Callable[[], int] | None = None,
        after: Callable[[], int] | None = None,
        worker: str | None = None,
    ) -> None:
        self.store, self.decay, self.clock, self.tz = store, decay, clock, tz
        self.before = before  # crash recovery: consolidate leftovers first; returns jobs done
        self.after = after  # the documents folder re-scanned (DAWN §5.4); returns documents removed
        self.worker = worker or f"{socket.gethostname()}:{os.getpid()}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def due(self) -> str:
        """Why a scheduled run would not happen now ('' when it is due)."""
        if not self.decay.enabled:
            return "disabled ([memory.decay] enabled = false)"
        hour = datetime.fromtimestamp(self.clock(), self.tz).hour
        if hour != self.decay.hour:
            return f"not the maintenance hour ({self.decay.hour}:00, now {hour}:00)"
        last = self.store.last_maintenance()
        if last is not None and self.clock() - last[0] < MIN_GAP_SECONDS:
            return "already ran in the last 20 hours"
        return ""

    def run(self, *, force: bool = False, dry_run: bool = False) -> MaintenanceReport:
        """Run now if due (or ``force``); a dry run changes nothing and reports what would change."""
        if not force and not dry_run:
            reason = self.due()
            if reason:
                return MaintenanceReport(False, reason)
        now = self.clock()
        run_id = None
        if not dry_run:
            run_id = self.store.claim_maintenance(now, self.worker, 0.0 if force else MIN_GAP_SECONDS)
            if run_id is None:
                return MaintenanceReport(False, "another process ran it in the last 20 hours")
        report = MaintenanceReport(True, dry_run=dry_run)
        try:
            if self.before is not None and not dry_run:
                report.consolidated = self.before()
            for user in self.store.list_users():
                try:
                    self._one(report, user.id, user.name, now, dry_run)
                except Exception as exc:  # noqa: BLE001 - one user's bad row must not stop the others'
                    self._failed(report, user.id, user.name, now, exc, dry_run)
            if self.after is not None and not dry_run:
                report.documents_removed = self.after()
        except ReverieError:
            if run_id is not None:
                self.store.finish_maintenance(run_id, self.clock(), "failed", report.totals())
            raise
        if run_id is not None:
            self.store.finish_maintenance(run_id, self.clock(), "done", report.totals())
        log.info("Maintenance %s: %s", "dry run" if dry_run else "done", report.totals())
        return report

    def _failed(
        self, report: MaintenanceReport, user_id: int, name: str, now: float, exc: Exception, dry_run: bool
    ) -> None:
        """Record one user's failed maintenance in that user's audit trail; the run goes on."""
        error = f"{type(exc).__name__}: {exc}"[:500]
        log.exception("Maintenance of user %s failed; going on with the others", user_id)
        report.failed += 1
        report.errors.append({"user": name, "error": error})
        if not dry_run:
            self.store.scope(user_id).audit("maintenance_failed", now, reason=error)

    def _one(self, report: MaintenanceReport, user_id: int, name: str, now: float, dry_run: bool) -> None:
        outcome: dict[str, tuple[int, PruneReport]] = {}
        turns: dict[str, int] = {}
        scope = self.store.scope(user_id)
        try:
            with scope.transaction():
                outcome["r"] = maintain_user(self.store, user_id, now, self.decay)
                turns["r"] = prune_transcripts(self.store, user_id, now, self.decay)
                if dry_run:
                    raise _DryRun
        except _DryRun:
            pass
        if not dry_run:
            # Separately, after the user's transaction: on PostgreSQL it locks the version row.
            scope.prune_vector_changes(VECTOR_CHANGES_KEPT)
        decayed, pruned = outcome["r"]
        report.users += 1
        report.decayed += decayed
        report.pruned_low_confidence += pruned.low_confidence
        report.pruned_superseded += pruned.superseded
        report.pruned_summaries += pruned.summaries
        report.pruned_messages += turns["r"]
        report.audit_trimmed += pruned.audit_trimmed
        if dry_run:
            report.details.append(
                {"user": name, "decayed": decayed, **pruned.__dict__, "messages": turns["r"]}
            )

    # scheduler -------------------------------------------------------------------------
    def start(self, check_every_seconds: float = 900.0) -> None:
        """Check every 15 minutes (by default) in a daemon thread and run when due."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._loop, args=(check_every_seconds,), daemon=True, name="reverie-maintenance"
        )
        self._thread.start()

    def _loop(self, every: float) -> None:
        while not self._stop.is_set():
            try:
                self.run()
            except ReverieError as exc:
                log.error("Maintenance: %s", exc)
            except Exception:  # noqa: BLE001 - the scheduler must outlive an unexpected error
                log.exception("Maintenance: unexpected error; trying again in %s s", every)
            self._stop.wait(every)

    @property
    def running(self) -> bool:
        """True while the background thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the scheduler thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None


__all__ = [
    "MIN_GAP_SECONDS",
    "MaintenanceReport",
    "Maintainer",
    "maintain_user",
    "prune_transcripts",
    "rates",
]
