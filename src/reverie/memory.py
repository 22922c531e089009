"""The :class:`Memory` object: Reverie's one Python entry point, and the composition root.

The CLI, the HTTP server, MCP and the tests all build from it. It is the memory core
(:class:`reverie.core.MemoryCore`: remember, prefer, search, recent, forget, context) with the
features wired in above it: the documents, topic files, working state, consolidation and
nightly maintenance, the memory tool, observe, and import/export. A ``Memory`` is bound to one
user (or is a guest, which neither loads nor stores anything); ``for_user`` and
``for_interface`` give views of the same database for other people.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from reverie import working
from reverie.config import Settings
from reverie.consolidation import Consolidator
from reverie.core import FORGET_ALL_CONFIRMATION, ContextExtras, MemoryCore
from reverie.docs.library import DocumentHit, DocumentLibrary, looks_like_question
from reverie.errors import Conflict, ReverieError
from reverie.extract.merge import RememberResult
from reverie.maintain.nightly import Maintainer
from reverie.observe import Observation, observe
from reverie.portability import export_user, import_user
from reverie.retrieve.context import DocumentExcerpt
from reverie.store.base import Store, User
from reverie.tools.memory_tool import run_tool
from reverie.topics import TopicBook
from reverie.working import Proposal, WorkingState

_T = TypeVar("_T")
log = logging.getLogger(__name__)


class Memory(MemoryCore):
    """Long-term memory for one user: the memory core with every feature wired in."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: Store | None = None,
        user: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        super().__init__(settings, store=store, user=user, clock=clock)
        self.documents = DocumentLibrary(self.store, self.settings.rag, self.semantic, clock=self.clock)

    def close(self) -> None:
        """Close the database (and stop the document scans) if this object opened it."""
        if self._owns_store:
            self.documents.close()
        super().close()

    def retune_search(self) -> None:
        """Apply the current [embeddings.hybrid] settings to searches from now on (same embedder)."""
        super().retune_search()
        self.documents.semantic = self.semantic

    # consolidation and maintenance ---------------------------------------------------
    def consolidator(self, *, worker: str | None = None) -> Consolidator:
        """A worker that consolidates ended conversations (of every user in this database)."""
        return Consolidator(self, worker=worker)

    def maintainer(self) -> Maintainer:
        """Nightly maintenance over every user of this database (consolidation leftovers first)."""
        worker = self.consolidator()
        return Maintainer(
            self.store,
            self.settings.memory.decay,
            clock=self.clock,
            tz=self.tz,
            before=lambda: len(worker.run_pending()),
            after=self._rescan_documents,
        )

    def _rescan_documents(self) -> int:
        """Nightly: the documents folder scanned again (DAWN §5.4); how many deleted files left the index."""
        if not self.settings.rag.enabled:
            return 0
        try:
            return self.documents.scan().removed
        except ReverieError as exc:  # no folder, or the embedder is down: maintenance goes on
            log.warning("Nightly document scan skipped: %s", exc)
            return 0

    # what the features add to the core -----------------------------------------------
    def _before_user_removed(self, user: User) -> None:
        """Their uploaded documents (files included) and their topic files go with them."""
        book = TopicBook(self._view(user, None))
        self.documents.forget_user(user.id)
        book.delete_files()

    def forget_all(self, confirm: str) -> dict[str, int]:
        """Delete everything kept about the user, uploads and topic files too; ``confirm`` must be DELETE."""
        counts = super().forget_all(confirm)
        counts["documents"] = self.documents.forget_user(self.scope.user_id)  # their uploads, files too
        self.topics.delete_files()
        return counts

    def _before_search(self) -> None:
        if self.settings.memory.topics.enabled:
            self.topics.sync()  # a person's edit of a topic file shows in search at once

    def _context_extras(self, query: str, conversation_id: int | None, now: float) -> ContextExtras:
        slug, state = None, None
        if conversation_id is not None:  # its topic and working state: one statement
            slug, state = self.scope.conversation_state(conversation_id)
        topic, recent = self._topic_context(slug)
        lines = WorkingState.loads(state).lines(now, self.tz) if conversation_id is not None else []
        return ContextExtras(topic, recent, lines, self._excerpts(query))

    def _topic_context(self, slug: str | None) -> tuple[tuple[str, list[str]] | None, list[str]]:
        """The topic file (title, lines) of the conversation's ``slug``, else the recent-topics index."""
        if not self.settings.memory.topics.enabled:
            return None, []
        book = self.topics
        if slug:
            try:
                found = book.read(slug)
                return (found.title, [line.text for line in reversed(found.lines)]), []
            except ReverieError as exc:
                log.warning("Topic %s not loaded into the context: %s", slug, exc)
        return None, book.recent()

    @property
    def topics(self) -> TopicBook:
        """This user's topic files (Rostro)."""
        return TopicBook(self)

    def _detect_topic_later(self, conversation_id: int, text: str) -> None:
        """Detect the conversation's topic from a user message, in the background (no added latency).

        Whether there is anything to detect (no topic yet, some topic files) is read there too:
        the turn's own thread sends no statement for it.
        """
        if not self.settings.memory.topics.enabled or self.is_guest:
            return
        scope = self.scope

        def run() -> None:
            if scope.conversation_topic(conversation_id) or not scope.list_topics():
                return
            slug = self.topics.detect(text)
            if slug and not scope.conversation_topic(conversation_id):
                scope.set_conversation_topic(conversation_id, slug)

        self.background.submit(run)

    # working state (Saga's active context) and observations to confirm (Rostro) ------------
    def working_state(self, conversation_id: int) -> WorkingState:
        """A conversation's timers, reminders, tasks and summary (NotFound for another user's)."""
        return working.working_state(self, conversation_id)

    def change_working_state(self, conversation_id: int, change: Callable[[WorkingState], _T]) -> _T:
        """Apply ``change`` to a conversation's working state and save it, atomically."""
        return working.change_working_state(self, conversation_id, change)

    def propose(self, conversation_id: int, text: str) -> Proposal:
        """Keep an observation the assistant offered to remember until the user says yes or no."""
        return working.propose(self, conversation_id, text)

    def answer_proposals(
        self, conversation_id: int, *, confirm: bool, item: int | None = None
    ) -> list[RememberResult]:
        """The user's answer to the proposals (one by id, or all): yes remembers them, no drops them."""
        return working.answer_proposals(self, conversation_id, confirm=confirm, item=item)

    def pending_proposals(self) -> list[tuple[int, Proposal]]:
        """Every observation awaiting the user's answer, in the user's open conversations."""
        return working.pending_proposals(self)

    # documents -----------------------------------------------------------------------
    def _excerpts(self, message: str) -> list[DocumentExcerpt]:
        """Document chunks for the context when the message asks something (DAWN §9.2)."""
        if not (
            self.settings.rag.enabled and self.settings.rag.context_tokens and looks_like_question(message)
        ):
            return []
        try:
            hits = self.documents.search(message, limit=3, user_id=self._viewer_id)
        except ReverieError as exc:  # memory never breaks the reply
            log.warning("Document search for the context failed: %s", exc)
            return []
        return [
            DocumentExcerpt(
                hit.chunk_id, f"{hit.file_name}, {hit.location}" if hit.location else hit.file_name, hit.text
            )
            for hit in hits
        ]

    def search_documents(self, query: str, *, limit: int | None = None) -> list[DocumentHit]:
        """Search the shared documents and the user's own (every signed-in user may; guests may not)."""
        if not self.settings.rag.enabled:
            raise Conflict("The document knowledge base is off ([rag] enabled = false)")
        if self.is_guest:
            raise Conflict(
                f"Interface '{self.interface}' is a guest session; only known users may search documents"
            )
        return self.documents.search(query, limit=limit, user_id=self._viewer_id)

    @property
    def _viewer_id(self) -> int | None:
        """Whose own documents this memory sees besides the shared ones (none for a guest)."""
        return self.user.id if self.user is not None else None

    # protocol adapters -------------------------------------------------------------
    def tool(self, command: str | dict[str, Any]) -> str:
        """Run one memory-tool command (DAWN JSON) and return the text for the LLM."""
        return run_tool(self, command).render()

    def observe(self, utterance: str) -> Observation:
        """Act on a power phrase in what the user said ("remember that ...", "I prefer ...")."""
        return observe(self, utterance)

    def export(self) -> dict[str, Any]:
        """Everything kept about the user, as one JSON-ready document."""
        return export_user(self)

    def import_(self, document: dict[str, Any]) -> dict[str, int]:
        """Load an export document into this user's memory (atomic; returns counts)."""
        return import_user(self, document)


__all__ = ["FORGET_ALL_CONFIRMATION", "Memory", "RememberResult"]
