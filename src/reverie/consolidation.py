"""Sleep consolidation: ended conversations become facts, preferences and a summary (DAWN §4.1).

A :class:`Consolidator` claims one queued conversation at a time from the database under a
lease, asks the extraction model (or the rules, without one) what is worth keeping,
validates it, and applies everything in one transaction together with marking the
conversation done, so a crash anywhere leaves it queued and nothing is applied twice. After
each job it runs the cascades (Lo-Bug §7) for that user.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reverie.errors import GuardRejected, ProviderError, ReverieError
from reverie.extract import prompts
from reverie.extract.extraction import Extraction, Rejection, extract_conversation, validate
from reverie.extract.guard import ensure_memory_text
from reverie.extract.llm_merge import resolve_open_pairs
from reverie.extract.merge import correct_fact, remember_fact, set_preference
from reverie.extract.phrases import preference_slot
from reverie.extract.rules import PROFILE_HEADER, ProfileItem, build_profile
from reverie.llm import ChatMessage, ChatModel
from reverie.retrieve.context import preference_label
from reverie.store.base import MemoryFilter, MemoryRow, MessageRow
from reverie.topics import TopicBook
from reverie.working import WorkingState

if TYPE_CHECKING:
    from reverie.core import MemoryCore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class JobResult:
    """What one consolidation job did."""

    conversation_id: int
    user_id: int
    state: str  # done | skipped | failed | lost
    stored: int = 0
    reinforced: int = 0
    superseded: int = 0
    preferences: int = 0
    rejected: list[Rejection] = field(default_factory=list)
    summary_id: int | None = None
    error: str = ""

    def as_dict(self) -> dict[str, object]:
        """The outcome as plain data (CLI and HTTP)."""
        return {
            "conversation_id": self.conversation_id,
            "state": self.state,
            "stored": self.stored,
            "reinforced": self.reinforced,
            "superseded": self.superseded,
            "preferences": self.preferences,
            "rejected": len(self.rejected),
            "error": self.error,
        }


@dataclass(frozen=True)
class CascadeResult:
    """What the cascades did for one user."""

    summarized_messages: int = 0
    distilled_summaries: int = 0
    profile_built: bool = False  # without an LLM: the base memory rebuilt from facts and preferences


class Consolidator:
    """Claims queued conversations and consolidates them; safe to run in several processes."""

    def __init__(self, memory: MemoryCore, *, worker: str | None = None) -> None:
        self.memory = memory
        self.settings = memory.settings.memory.extraction
        self.model: ChatModel | None = memory.extraction_model
        self.worker = worker or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._current: int | None = None

    # one job ---------------------------------------------------------------------------
    def run_once(self) -> JobResult | None:
        """Claim and consolidate the next due conversation; None when the queue is empty."""
        store, now = self.memory.store, self.memory.clock()
        claimed = store.claim_consolidation(
            now, self.worker, self.settings.lease_minutes * 60, self.settings.max_attempts
        )
        if claimed is None:
            return None
        user_id, conversation_id = claimed
        self._current = conversation_id
        try:
            return self._consolidate(user_id, conversation_id, now)
        except Exception as exc:  # noqa: BLE001 - one bad row must not stop the worker for everyone
            return self._crashed(user_id, conversation_id, exc)
        finally:
            self._current = None

    def _crashed(self, user_id: int, conversation_id: int, exc: Exception) -> JobResult:
        """Record an unexpected failure of one job as that conversation's failed attempt."""
        error = f"internal error: {type(exc).__name__}: {exc}"[:500]
        log.exception("Consolidation of conversation %s crashed; the worker goes on", conversation_id)
        row = self.memory.view_of(user_id).scope.get_conversation(conversation_id)
        attempts = row.attempts if row is not None else 1
        delay = self.settings.retry_after_minutes * 60 * 2 ** max(0, attempts - 1)
        self.memory.store.fail_consolidation(conversation_id, self.worker, error, self.memory.clock() + delay)
        return JobResult(conversation_id, user_id, "failed", error=error)

    def _consolidate(self, user_id: int, conversation_id: int, now: float) -> JobResult:
        store = self.memory.store
        view = self.memory.view_of(user_id)
        scope = view.scope
        conversation = scope.get_conversation(conversation_id)
        if conversation is None or conversation.is_private:
            store.complete_consolidation(conversation_id, self.worker, now, state="skipped")
            return JobResult(conversation_id, user_id, "skipped")
        messages = scope.list_messages(conversation_id, limit=100_000)
        try:
            extraction = self._extract(view, messages) if messages else Extraction()
            kept, rejected = validate(
                extraction,
                confidence_min=self.settings.confidence_min,
                max_bytes=self.memory.settings.memory.max_memory_bytes,
            )
            if view.embeddings is not None:  # embed outside the write transaction (the cache keeps them)
                texts = (
                    [f.text for f in kept.facts] + [c.new_fact for c in kept.corrections] + kept.conclusions
                )
                texts += [p.value for p in kept.preferences] + ([kept.summary] if kept.summary else [])
                if texts:
                    view.embeddings.embed(texts)
            result = self._apply(view, conversation_id, messages, kept, rejected)
            self._settle_unsure(view)
            return result
        except (ProviderError, ReverieError) as exc:
            attempts = conversation.attempts  # counted by the claim
            delay = self.settings.retry_after_minutes * 60 * 2 ** (attempts - 1)
            store.fail_consolidation(conversation_id, self.worker, str(exc), self.memory.clock() + delay)
            log.warning(
                "Consolidation of conversation %s failed (attempt %s): %s", conversation_id, attempts, exc
            )
            return JobResult(conversation_id, user_id, "failed", error=str(exc))

    def _settle_unsure(self, view: MemoryCore) -> None:
        """With an LLM, settle the pairs of facts the merge rules kept both of (extract/llm_merge.py)."""
        if self.model is None:
            return
        try:
            settled = resolve_open_pairs(
                view.scope, self.model, view.clock, temperature=self.settings.temperature
            )
        except ReverieError as exc:  # the conversation is consolidated; the pairs wait for the next run
            log.warning("Could not settle undecided pairs of facts: %s", exc)
            return
        if any(settled.values()):
            log.info("Undecided pairs of facts settled by the LLM: %s", settled)

    def _extract(self, view: MemoryCore, messages: Sequence[MessageRow]) -> Extraction:
        scope = view.scope
        facts = scope.list_memories(MemoryFilter(kinds=("fact",), limit=60, order="confidence"))
        prefs = scope.list_memories(MemoryFilter(kinds=("preference",), limit=30, order="confidence"))
        profile = prompts.profile_text(facts, prefs, view.base_memory())
        return extract_conversation(self.model, messages, profile, temperature=self.settings.temperature)

    def _apply(
        self,
        view: MemoryCore,
        conversation_id: int,
        messages: Sequence[MessageRow],
        kept: Extraction,
        rejected: list[Rejection],
    ) -> JobResult:
        scope, now, policy = view.scope, view.clock(), view.policy
        service = view.embeddings
        index = view.semantic.index if view.semantic else None
        counts = {"stored": 0, "reinforced": 0, "superseded": 0, "updated": 0}
        summary_id: int | None = None
        conclusions: list[MemoryRow] = []
        assert view.user is not None
        with scope.transaction():
            if not view.store.complete_consolidation(conversation_id, self.worker, now):
                log.warning("Lost the lease on conversation %s; another worker took it over", conversation_id)
                return JobResult(conversation_id, view.user.id, "lost")
            for fact in kept.facts:
                result = remember_fact(
                    scope,
                    fact.text,
                    now,
                    key=None,
                    type_=fact.type or "general",
                    source="explicit" if fact.source == "explicit" else "inferred",
                    confidence=fact.confidence,
                    conversation_id=conversation_id,
                    policy=policy,
                    service=service,
                    index=index,
                )
                counts[result.status] += 1
            for text in kept.conclusions:
                result = remember_fact(
                    scope,
                    text,
                    now,
                    key=None,
                    type_="conclusion",
                    source="inferred",
                    confidence=0.9,
                    conversation_id=conversation_id,
                    policy=policy,
                    service=service,
                    index=index,
                )
                counts[result.status] += 1
                conclusions.append(result.memory)
            state = WorkingState.loads(scope.get_working_state(conversation_id))
            for text in state.carry_over(now, view.tz):
                try:
                    text = ensure_memory_text(text, max_bytes=view.settings.memory.max_memory_bytes)
                except GuardRejected as exc:
                    log.warning("Working-state item not carried over: %s", exc)
                    continue
                result = remember_fact(
                    scope,
                    text,
                    now,
                    key=None,
                    type_="task",
                    source="explicit",
                    confidence=1.0,
                    conversation_id=conversation_id,
                    policy=policy,
                    service=service,
                    index=index,
                )
                counts[result.status] += 1
            for corr in kept.corrections:
                result = correct_fact(
                    scope,
                    corr.old_fact,
                    corr.new_fact,
                    now,
                    conversation_id=conversation_id,
                    policy=policy,
                    service=service,
                    index=index,
                    reason=corr.reason,
                )
                counts[result.status] += 1
            for pref in kept.preferences:
                category, key, pref_scope = preference_slot(pref.value, pref.category)
                set_preference(
                    scope,
                    category,
                    pref.key or key,
                    pref.value,
                    now,
                    pref_scope=pref_scope,
                    source="explicit" if pref.source == "explicit" else "inferred",
                    confidence=pref.confidence,
                    policy=policy,
                    service=service,
                )
            if kept.summary and messages:
                row = view.add_summary(
                    kept.summary,
                    topics=kept.topics,
                    sentiment=kept.sentiment,
                    conversation_id=conversation_id,
                    at=messages[-1].created_at,
                    message_count=len(messages),
                    duration_seconds=messages[-1].created_at - messages[0].created_at,
                    first_message_id=messages[0].id,
                    last_message_id=messages[-1].id,
                )
                summary_id = row.id
            scope.mark_summarized([m.id for m in messages])
            scope.audit(
                "consolidate",
                now,
                target_kind="conversation",
                target_id=conversation_id,
                reason="session ended",
                detail={**counts, "rejected": len(rejected)},
            )
        if messages and view.settings.memory.topics.enabled:
            try:  # the files follow the committed rows; a file error never undoes the job
                TopicBook(view).digest(
                    conversation_id,
                    conclusions,
                    suggested=kept.topic,
                    summary=kept.summary,
                    at=messages[-1].created_at,
                )
            except (OSError, ReverieError) as exc:
                log.error("Topic files of conversation %s not updated: %s", conversation_id, exc)
        return JobResult(
            conversation_id,
            view.user.id,
            "done",
            stored=counts["stored"],
            reinforced=counts["reinforced"],
            superseded=counts["superseded"],
            preferences=len(kept.preferences),
            rejected=rejected,
            summary_id=summary_id,
        )

    # many jobs -------------------------------------------------------------------------
    def expire_idle(self) -> int:
        """End conversations idle past ``session_timeout_minutes`` so they get consolidated."""
        timeout = self.memory.settings.memory.session_timeout_minutes * 60
        return self.memory.store.expire_conversations(self.memory.clock(), timeout)

    def run_pending(self, limit: int | None = None) -> list[JobResult]:
        """Consolidate due conversations until the queue is empty (or ``limit`` jobs), then cascade."""
        results: list[JobResult] = []
        while (limit is None or len(results) < limit) and not self._stop.is_set():
            result = self.run_once()
            if result is None:
                break
            results.append(result)
        for user_id in sorted({r.user_id for r in results if r.state == "done"}):
            try:
                self.run_cascades(self.memory.view_of(user_id))
            except Exception:  # noqa: BLE001 - one user's cascade must not stop the others'
                log.exception("Cascade for user %s crashed; the worker goes on", user_id)
        return results

    # cascades (Lo-Bug §7) ----------------------------------------------------------------
    def run_cascades(self, view: MemoryCore) -> CascadeResult:
        """Summarize old unsummarized turns and distil old summaries into the base memory."""
        if self.model is None:  # both steps need an LLM; the profile is built from the rules' memories
            return CascadeResult(profile_built=self._offline_profile(view))
        summarized = distilled = 0
        try:
            summarized = self._short_term(view)
            distilled = self._long_term(view)
        except (ProviderError, ReverieError) as exc:
            log.warning("Cascade skipped for now: %s", exc)
        return CascadeResult(summarized, distilled)

    def _offline_profile(self, view: MemoryCore) -> bool:
        """Build the base memory from the strongest facts and preferences; True when it changed.

        A profile an LLM distilled is left alone: only an empty one or one built this way is rebuilt.
        """
        current = view.base_memory()
        if current and not current.startswith(PROFILE_HEADER):
            return False
        scope = view.scope
        facts = scope.list_memories(MemoryFilter(kinds=("fact",), limit=60, order="confidence"))
        items = [
            ProfileItem(row.text, row.confidence, row.type)
            for row in facts
            if row.type not in ("conclusion", "task", "note") and not row.sensitive
        ]
        items += [
            ProfileItem(row.text, row.confidence, "preference", preference_label(row))
            for row in scope.list_preferences(limit=20)
        ]
        text = build_profile(items, max(0.5, self.settings.confidence_min))
        if text == current:
            return False
        view.set_base_memory(text)
        return True

    def _short_term(self, view: MemoryCore) -> int:
        assert self.model is not None
        scope = view.scope
        pending = scope.unsummarized_messages()
        if len(pending) < self.settings.short_term_threshold:
            return 0
        older = pending[: len(pending) - self.settings.short_term_keep]
        reply = self.model.chat(
            [
                ChatMessage("system", prompts.SUMMARY_PROMPT),
                ChatMessage("user", "<data>\n" + prompts.transcript(older) + "\n</data>"),
            ],
            temperature=self.settings.temperature,
        )
        with scope.transaction():
            view.add_summary(
                reply.content.strip(),
                at=older[-1].created_at,
                message_count=len(older),
                duration_seconds=older[-1].created_at - older[0].created_at,
                first_message_id=older[0].id,
                last_message_id=older[-1].id,
            )
            scope.mark_summarized([m.id for m in older])
        return len(older)

    def _long_term(self, view: MemoryCore) -> int:
        assert self.model is not None
        scope = view.scope
        pending = scope.unincorporated_summaries()
        if len(pending) < self.settings.long_term_threshold:
            return 0
        older = pending[: len(pending) - self.settings.long_term_keep]
        facts = scope.list_memories(MemoryFilter(kinds=("fact",), limit=10, order="recent"))
        reply = self.model.chat(
            [
                ChatMessage("system", prompts.DISTILL_PROMPT),
                ChatMessage("user", prompts.distill_input(view.base_memory(), older, facts)),
            ],
            temperature=self.settings.temperature,
        )
        with scope.transaction():
            view.set_base_memory(reply.content.strip())
            scope.mark_incorporated([s.id for s in older])
        return len(older)

    # background ------------------------------------------------------------------------
    def start(self, interval_seconds: float = 5.0) -> None:
        """Run in a daemon thread: expire idle sessions, consolidate, cascade; every ``interval``."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._loop, args=(interval_seconds,), daemon=True, name="reverie-consolidator"
        )
        self._thread.start()

    def _loop(self, interval: float) -> None:
        while not self._stop.is_set():
            try:
                self.expire_idle()
                self.run_pending()
            except ReverieError as exc:  # never let the worker thread die on an expected error
                log.error("Consolidation worker: %s", exc)
            except Exception:  # noqa: BLE001 - nor on an unexpected one: log it and try again later
                log.exception("Consolidation worker: unexpected error; retrying in %s s", interval)
            self._stop.wait(interval)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the background thread: a job under way may finish within ``timeout``, else it is re-queued.

        A re-queued job keeps its attempt count; if the old call finishes later, its result is
        discarded because the job is no longer leased to it, and the next worker redoes it.
        """
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            current = self._current
            if self._thread.is_alive() and current is not None:
                if self.memory.store.release_consolidation(current, self.worker):
                    log.warning("Shutting down: conversation %s re-queued for consolidation", current)
            self._thread = None

    @property
    def running(self) -> bool:
        """True while the background thread is alive."""
        return self._thread is not None and self._thread.is_alive()


__all__ = ["CascadeResult", "Consolidator", "JobResult"]
