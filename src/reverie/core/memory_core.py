"""The memory core: remember, search, recent, forget and context for one user, over the store.

It knows the store, the embeddings, extraction and retrieval, and nothing of the features built
on it (consolidation, topics, tools, import/export, observe, documents, maintenance, working
state). Those are wired in by the composition root, :class:`reverie.Memory`, through the hooks
at the end of the class; a feature that needs the core takes it as an argument.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Self

from reverie.accounts import Accounts
from reverie.config import Settings
from reverie.conversations import MAX_OFFSET, VECTOR_KINDS, BackgroundTasks, Conversations
from reverie.core.build import build_indexer, build_semantic, local_zone
from reverie.core.people import People
from reverie.core.preferences import Preferences
from reverie.core.speakers import SpeakerBoard
from reverie.core.summaries import Summaries
from reverie.embed.service import EmbeddingService, PendingVectors
from reverie.errors import Conflict, InvalidInput, NotFound, ReverieError
from reverie.extract.fact_vectors import embed_or_none, store_vector
from reverie.extract.guard import ensure_memory_text
from reverie.extract.merge import MergePolicy, RememberResult, remember_fact
from reverie.extract.phrases import detect_phrase
from reverie.extract.rules import fact_type
from reverie.extract.third_person import said_by_user, to_third_person
from reverie.llm import chat_model_from_settings
from reverie.retrieve.context import ContextBlock, DocumentExcerpt, build_context
from reverie.retrieve.episodes import search_messages
from reverie.retrieve.relevant import relevant_facts
from reverie.retrieve.search import RecentResults, SearchResults, recent_memory, search_memory
from reverie.retrieve.timeutil import date_bounds, parse_period
from reverie.sensors import SensorBoard
from reverie.store import open_store
from reverie.store.base import (
    KINDS,
    SOURCES,
    STATUSES,
    ConversationRow,
    Kind,
    MemoryFilter,
    MemoryRow,
    Source,
    Status,
    Store,
    User,
    UserStore,
)
from reverie.text import check_query, count_tokens, keyword_terms, normalize_key

FORGET_ALL_CONFIRMATION = "DELETE"
# The facts found relevant earlier in a conversation that a turn reads, most recent first: the
# facts section has room for a few dozen (``context_max_facts`` others besides), and a long
# conversation gathers thousands, whose reading grew every turn's cost with its length.
_EARLIER_KEPT = 256
_FIRST_PERSON = re.compile(r"^\s*(?:i|i'm|i've|i'd|my|me)\b", re.IGNORECASE)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ContextExtras:
    """What the features add to a context: a topic file, the recent topics, working state, documents."""

    topic: tuple[str, list[str]] | None = None
    recent_topics: list[str] = field(default_factory=list)
    working: list[str] = field(default_factory=list)
    documents: list[DocumentExcerpt] = field(default_factory=list)


class MemoryCore(People, Preferences, Summaries, Conversations):
    """Long-term memory for one user: remember, prefer, search, recent, forget, context."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: Store | None = None,
        user: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.settings = settings if settings is not None else Settings()
        self.store = store if store is not None else open_store(self.settings)
        self._owns_store = store is None
        self.clock = clock or time.time
        self.tz = local_zone(self.settings.memory.timezone)
        self.semantic = build_semantic(self.settings, self.store, self.clock)
        self.policy = MergePolicy(
            self.settings.memory.duplicate_similarity,
            paraphrase_similarity=1.0 - self.settings.memory.duplicate_distance_threshold,
        )
        self.extraction_model = chat_model_from_settings(self.settings, "extraction")
        self.background = BackgroundTasks()
        self.indexer = build_indexer(self.settings, self.store, self.tz, self.clock)
        self.accounts = Accounts(
            self.store, clock=self.clock, session_hours=self.settings.server.session_hours
        )
        self.sensors = SensorBoard()  # live readings, in this process only (reverie.sensors)
        self.speakers = SpeakerBoard(self.store)  # who said "This is ..." on an interface (core.speakers)
        self.user: User | None = self._resolve_user(user or self.settings.default_user)
        self.interface: str | None = None

    @property
    def is_guest(self) -> bool:
        """True for an unmapped interface: nothing is loaded or stored."""
        return self.user is None

    def close(self) -> None:
        """Close the database if this object opened it."""
        if self._owns_store:
            self.background.close()
            if self.indexer is not None:
                self.indexer.close()
            if self.semantic is not None:
                self.semantic.service.flush()
                self.semantic.index.save()
            self.store.close()

    def recover_index(self) -> None:
        """Index, in the background, the turns a crash or a stop left without vectors (every user)."""
        if self.indexer is not None:
            self.indexer.recover()

    @property
    def embeddings(self) -> EmbeddingService | None:
        """The embedding service, when embeddings are on."""
        return self.semantic.service if self.semantic is not None else None

    def count_tokens(self, text: str) -> int:
        """Tokens in ``text``: exact with the embedder's own tokenizer (the local model's WordPiece),
        else the documented estimate of :func:`reverie.text.count_tokens` (remote models)."""
        service = self.embeddings
        counted = service.count_tokens(text) if service is not None else None
        return count_tokens(text) if counted is None else counted

    def retune_search(self) -> None:
        """Apply the current [embeddings.hybrid] settings to searches from now on (same embedder)."""
        if self.semantic is None:
            return
        hybrid = self.settings.embeddings.hybrid
        self.semantic = replace(
            self.semantic,
            keyword_weight=hybrid.keyword_weight if hybrid.enabled else 1.0,
            vector_weight=hybrid.vector_weight if hybrid.enabled else 0.0,
            min_similarity=hybrid.min_similarity,
            fusion=hybrid.fusion,
        )

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def scope(self) -> UserStore:
        """The store bound to this user; guests have none."""
        if self.user is None:
            raise Conflict(
                f"Interface '{self.interface}' is not mapped to a user, so this is a guest session "
                "and memory is off; map it under [memory.voice_mapping]"
            )
        return self.store.scope(self.user.id)

    # writing -----------------------------------------------------------------------
    def _guard(self, text: str, source: Source, sensitive: bool = False) -> str:
        # A secret is kept only on the user's explicit request: ``sensitive=True`` on an explicit
        # remember, or every explicit remember when allow_sensitive_on_request is on.
        explicit = source == "explicit"
        allow = explicit and (sensitive or self.settings.memory.allow_sensitive_on_request)
        return ensure_memory_text(
            text,
            allow_sensitive=allow,
            allow_personal=explicit,
            max_bytes=self.settings.memory.max_memory_bytes,
        )

    def remember(
        self,
        text: str,
        key: str | None = None,
        *,
        type: str = "general",  # noqa: A002 - the column is called type
        source: Source = "explicit",
        confidence: float = 1.0,
        conversation_id: int | None = None,
        sensitive: bool = False,
    ) -> RememberResult:
        """Keep a fact. Near-identical facts are reinforced; a fact with a key replaces the old one.

        A fact the user says of themself in the first person is kept in the memory's voice, as
        every other fact: "I moved to Lisbon" as "User moved to Lisbon" (the guard reads the words
        as said). "We" and "our" are kept as said: the merge reads them as the user's.

        ``sensitive=True`` is the user's explicit request to keep a secret (a password, an ID number).
        """
        if source not in SOURCES:
            raise InvalidInput(f"source must be one of {', '.join(SOURCES)}, got {source!r}")
        if not 0.0 <= confidence <= 1.0:
            raise InvalidInput(f"confidence must be between 0 and 1, got {confidence}")
        # what the guard returns if it lets the text through, in the memory's voice
        ahead = said_by_user(text.replace("\r\n", "\n").strip())
        pending = self._embed_ahead(ahead)
        try:
            text = said_by_user(self._guard(text, source, sensitive))
            norm_key = normalize_key(key) if key else None
            if key is not None and not norm_key:
                raise InvalidInput(f"key {key!r} has no letters or digits")
        except ReverieError:
            if pending is not None:
                pending.cancel()
            raise
        if pending is not None and text != ahead:
            pending.cancel()
            pending = None
        return remember_fact(
            self.scope,
            text,
            self.clock(),
            key=norm_key,
            type_=type,
            source=source,
            confidence=confidence,
            conversation_id=conversation_id,
            policy=self.policy,
            service=self.embeddings,
            index=self.semantic.index if self.semantic else None,
            pending=pending,
        )

    def _embed_ahead(self, text: str) -> PendingVectors | None:
        """Start the vector of a text to remember while the guard reads it, with the local model only.

        A refused text is dropped unseen by the cache; a remote provider is not sent words the
        guard may refuse.
        """
        if self.embeddings is None or self.settings.embeddings.provider != "local":
            return None
        if not text or len(text) > self.settings.memory.max_memory_bytes:
            return None  # refused as empty or too long
        return self.embeddings.embed_ahead([text])

    def remember_words(
        self,
        text: str,
        key: str | None = None,
        *,
        type: str = "general",  # noqa: A002 - the column is called type
        sensitive: bool = False,
        conversation_id: int | None = None,
    ) -> RememberResult:
        """Keep what the user asked to keep, in their own words: one utterance, one memory.

        Every door that takes a user's words to remember (CLI, REST and the web UI, the memory
        tool, the verb tools and MCP) comes here: "remember that I moved to Seattle" is kept as
        "User moved to Seattle", "I prefer concise answers" as the verbosity preference, "My
        sister Ana is a nurse" as "User's sister Ana is a nurse"; a third-person fact as written.
        """
        self._guard(text, "explicit", sensitive)  # the words as said, before any rewording hides a disguise
        intent = detect_phrase(text) if key is None else None
        if intent is not None and intent.action == "prefer":
            return self.save_preference(intent.category, intent.key, intent.text, scope=intent.scope)
        if intent is not None and intent.action == "remember":
            text = intent.text
        elif _FIRST_PERSON.match(text):
            text = to_third_person(text)
        if type == "general":  # typed from its words: person, routine, room_mapping, profile, ...
            type = fact_type(text)  # noqa: A001
        return self.remember(text, key, type=type, sensitive=sensitive, conversation_id=conversation_id)

    # reading -----------------------------------------------------------------------
    def get(self, memory_id: int) -> MemoryRow:
        """One memory by id (NotFound if it is not this user's)."""
        row = self.scope.get_memory(memory_id)
        if row is None:
            raise NotFound(f"No memory with id {memory_id}")
        return row

    def list_memories(
        self,
        *,
        kind: Kind | None = None,
        status: Status | Literal["all"] = "active",
        source: Source | None = None,
        limit: int = 50,
        offset: int = 0,
        order: Literal["confidence", "recent", "id"] = "recent",
    ) -> list[MemoryRow]:
        """Memories, filtered by kind, status and source, a page at a time."""
        if self.is_guest:
            return []
        return self.scope.list_memories(self._filter(kind, status, source, limit, offset, order))

    def count(self, *, kind: Kind | None = None, status: Status | Literal["all"] = "active") -> int:
        """How many memories match."""
        if self.is_guest:
            return 0
        return self.scope.count_memories(self._filter(kind, status, None, 1, 0, "id"))

    @staticmethod
    def _filter(
        kind: Kind | None,
        status: Status | Literal["all"],
        source: Source | None,
        limit: int,
        offset: int,
        order: Literal["confidence", "recent", "id"],
    ) -> MemoryFilter:
        if kind is not None and kind not in KINDS:
            raise InvalidInput(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if status != "all" and status not in STATUSES:
            raise InvalidInput(f"status must be one of {', '.join(STATUSES)} or all, got {status!r}")
        if source is not None and source not in SOURCES:
            raise InvalidInput(f"source must be one of {', '.join(SOURCES)}, got {source!r}")
        if not 1 <= limit <= 1000 or not 0 <= offset <= MAX_OFFSET:
            raise InvalidInput(f"limit must be 1-1000 and offset 0-{MAX_OFFSET}")
        return MemoryFilter(
            kinds=KINDS if kind is None else (kind,),
            statuses=STATUSES if status == "all" else (status,),
            source=source,
            limit=limit,
            offset=offset,
            order=order,
        )

    def search(
        self,
        query: str,
        *,
        date: str | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        limit: int = 10,
        scope: Literal["memories", "messages", "all"] = "memories",
        reference_time: float | None = None,
    ) -> SearchResults:
        """Search by keywords (and meaning, when embeddings are on) and dates (YYYY-MM-DD).

        ``scope`` picks facts, preferences and summaries (``memories``), the turns of past
        conversations (``messages``), or both (``all``). Time words in the query ("last
        Thursday") boost messages of that day, relative to ``reference_time`` (default: now).
        """
        if scope not in ("memories", "messages", "all"):
            raise InvalidInput(f"scope must be memories, messages or all, got {scope!r}")
        check_query(query)
        if self.is_guest:
            return SearchResults(query, [])
        store = self.scope
        self._before_search()
        if scope == "messages":
            results = SearchResults(query, keyword_terms(query))
        else:
            results = search_memory(
                store,
                query,
                tz=self.tz,
                date=date,
                date_from=date_from,
                date_to=date_to,
                limit=limit,
                semantic=self.semantic,
            )
        if scope == "memories":
            return results
        start, end = date_bounds(date, date_from, date_to, self.tz)
        if not query.strip():
            raise InvalidInput("Give words to search the conversations for")
        messages = search_messages(
            store,
            query,
            semantic=self.semantic,
            tz=self.tz,
            reference_time=self.clock() if reference_time is None else reference_time,
            created_from=start,
            created_to=end,
            limit=limit,
        )
        return replace(results, messages=messages)

    def recent(self, period: str = "7d", *, limit: int = 50) -> RecentResults:
        """What was learned or discussed within a period such as 30m, 24h, 7d or 2w."""
        if self.is_guest:
            now = self.clock()
            return RecentResults(period, now - parse_period(period).total_seconds(), [], [], [])
        return recent_memory(self.scope, period, now=self.clock(), limit=limit)

    def context(
        self,
        query: str | None = None,
        *,
        conversation_id: int | ConversationRow | None = None,
        touch: bool = True,
    ) -> ContextBlock:
        """The remembered-data block for a system prompt, within the token budget.

        With ``query`` (the current user message) the facts relevant to it come first; with
        ``conversation_id`` the facts found relevant earlier in that conversation stay in too.
        A caller that has just read the conversation (its row: it is the user's) passes the row,
        which is then not read again.
        """
        budget = self.settings.memory.context_budget_tokens
        if self.is_guest or not self.settings.memory.enabled:
            return ContextBlock("", 0, budget)
        scope, now = self.scope, self.clock()
        conf = self.settings.memory
        text = query or ""
        # The query's one vector is embedded on another core while this thread reads the rest.
        pending = (
            self.semantic.start_query(text)
            if self.semantic is not None and conf.relevant_top_k > 0 and text.strip()
            else None
        )
        ids: list[int] = []  # found relevant earlier in the conversation, most recent first
        if isinstance(conversation_id, ConversationRow):
            conversation_id = conversation_id.id
        elif conversation_id is not None and scope.get_conversation(conversation_id) is None:
            raise NotFound(f"No conversation with id {conversation_id}")
        if conversation_id is not None:
            ids = scope.list_relevant(conversation_id, _EARLIER_KEPT)
        relevant = relevant_facts(
            scope,
            text,
            semantic=self.semantic,
            top_k=conf.relevant_top_k,
            min_similarity=conf.relevant_min_similarity,
            pending=pending,
        )
        # A topic file, working state and documents, from the features (the conversation is the user's);
        # after the ranking above, so a document search finds the query's vector already made.
        extras = self._context_extras(text, conversation_id, now)
        # Found relevant again moves a fact to the front of the conversation's list; already at the
        # front (the last turn found it too), it is not written again.
        front = set(ids[: len(relevant)])
        fresh = [row.id for row in relevant if row.id not in front] if conversation_id is not None else []
        if extras.topic is not None:
            relevant, ids = [], []  # Rostro: the topic file replaces the accumulated relevant memories
        block = build_context(
            scope,
            budget=budget,
            now=now,
            tz=self.tz,
            relevant=relevant,
            earlier=ids,
            topic=extras.topic,
            recent_topics=extras.recent_topics,
            working=extras.working,
            max_facts=self.settings.memory.context_max_facts,
            max_summaries=self.settings.memory.context_max_summaries,
            documents=extras.documents,
            document_tokens=self.settings.rag.context_tokens,
            count=self.count_tokens,
            min_confidence=conf.extraction.confidence_min,
            preferences=self.preferences_for(query),
        )
        touched = block.fact_ids if touch else []
        # The turn's two writes, one commit; one write alone is atomic without a transaction of its own
        # (PostgreSQL: no BEGIN and COMMIT round trips around it).
        with scope.transaction() if fresh and touched else nullcontext():
            if fresh and conversation_id is not None:
                scope.add_relevant(conversation_id, fresh, now)
            if touched:
                scope.touch_memories(touched, now, self.settings.memory.decay.access_reinforcement_boost)
        return block

    # changing and forgetting -------------------------------------------------------
    def edit(self, memory_id: int, text: str) -> MemoryRow:
        """Correct a memory's text (a user's correction makes it explicit)."""
        current = self.get(memory_id)
        text = self._guard(text, "explicit", current.sensitive)
        scope, now = self.scope, self.clock()
        vector = embed_or_none(self.embeddings, text)
        with scope.transaction():
            row = scope.update_memory(
                current.id,
                now,
                text=text,
                source="explicit",
                confidence=max(current.confidence, 1.0 if current.kind == "fact" else 0.9),
            )
            store_vector(scope, self.embeddings, "memory", current.id, vector)
            scope.audit("edit", now, target_kind=current.kind, target_id=current.id, reason="edited by user")
        assert row is not None
        return row

    def delete(self, memory_id: int) -> MemoryRow:
        """Delete one memory for good and return what it was."""
        row = self.get(memory_id)
        scope, now = self.scope, self.clock()
        with scope.transaction():
            scope.delete_memories([row.id])
            scope.audit("delete", now, target_kind=row.kind, target_id=row.id, reason="deleted by user")
        return row

    def forget(self, query: str) -> list[MemoryRow]:
        """Delete the facts and preferences that match every keyword of ``query``."""
        terms = keyword_terms(check_query(query, "What to forget"))
        if not terms:
            raise InvalidInput(
                "Say what to forget with at least one meaningful word, e.g. 'forget vegetarian'"
            )
        scope, now = self.scope, self.clock()
        with scope.transaction():
            matches = [row for row, _ in scope.search_memories(terms, limit=100, min_match=len(terms))]
            if matches:
                scope.delete_memories([row.id for row in matches])
                scope.audit(
                    "forget",
                    now,
                    reason="forgotten on request",
                    detail={"ids": [row.id for row in matches], "terms": len(terms)},
                )
        return matches

    def forget_all(self, confirm: str) -> dict[str, int]:
        """Delete everything kept about the user; ``confirm`` must be the word DELETE."""
        if confirm != FORGET_ALL_CONFIRMATION:
            raise InvalidInput(
                f"Nothing deleted: to forget everything, confirm with the word {FORGET_ALL_CONFIRMATION}"
            )
        scope, now = self.scope, self.clock()
        with scope.transaction():
            counts = scope.delete_everything()
            scope.audit("forget_all", now, reason="forget everything on request", detail=counts)
        return counts

    def stats(self) -> dict[str, Any]:
        """Counts per kind and source, and the context tokens used against the budget."""
        block = self.context(touch=False)
        result: dict[str, Any] = {
            "user": self.user.name if self.user else None,
            "guest": self.is_guest,
            "context_tokens": block.tokens,
            "context_budget": block.budget,
        }
        if self.is_guest:
            return result
        scope = self.scope
        for kind in KINDS:
            result[f"{kind}s"] = scope.count_memories(MemoryFilter(kinds=(kind,)))
        for source in SOURCES:
            result[source] = scope.count_memories(MemoryFilter(source=source))
        result["superseded"] = scope.count_memories(MemoryFilter(statuses=("superseded",)))
        result["summaries"] = scope.count_summaries()
        result["base_memory"] = bool(self.base_memory())
        result["database_bytes"] = self.store.database_size()
        service = self.embeddings
        if service is not None:
            service.flush()
            cache = self.store.cache_stats()
            lookups = cache["hits"] + cache["misses"]
            result["embedding_model"] = service.model_id
            result["embedded"] = {
                kind: scope.count_vectors(kind, service.model_id)[0] for kind in VECTOR_KINDS
            }
            result["embedding_cache_entries"] = cache["entries"]
            result["embedding_cache_hit_rate"] = round(cache["hits"] / lookups, 3) if lookups else None
        return result

    # what the composition root adds ------------------------------------------------
    def _before_search(self) -> None:
        """Hook: bring in what changed outside the database before a search reads it."""

    def _context_extras(self, query: str, conversation_id: int | None, now: float) -> ContextExtras:
        """Hook: what the features add to a context; nothing here."""
        return ContextExtras()


__all__ = ["FORGET_ALL_CONFIRMATION", "ContextExtras", "MemoryCore", "RememberResult"]
