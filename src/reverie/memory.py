"""The :class:`Memory` object: Reverie's one Python entry point.

The CLI, the HTTP server and the memory tool are thin layers over it. A ``Memory`` is bound
to one user (or is a guest, which neither loads nor stores anything); ``for_user`` and
``for_interface`` give views of the same database for other people.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import tzinfo
from typing import Any, Literal, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reverie.accounts import Accounts
from reverie.config import Settings
from reverie.consolidation import Consolidator
from reverie.conversations import MAX_OFFSET, VECTOR_KINDS, BackgroundTasks, Conversations, check_paging
from reverie.docs.library import DocumentHit, DocumentLibrary, looks_like_question
from reverie.embed.index import VectorIndex
from reverie.embed.service import EmbeddingService, PendingVectors, content_hash, embedder_from_settings
from reverie.errors import ConfigError, Conflict, InvalidInput, NotFound, ReverieError
from reverie.extract.guard import ensure_memory_text
from reverie.extract.merge import (
    MergePolicy,
    RememberResult,
    ScopeMerge,
    embed_or_none,
    merge_memories,
    remember_fact,
    set_preference,
    store_vector,
)
from reverie.extract.phrases import (
    GLOBAL,
    STYLE_KEYS,
    detect_phrase,
    infer_category,
    normalize_category,
    preference_slot,
    to_third_person,
)
from reverie.extract.rules import fact_type
from reverie.llm import chat_model_from_settings
from reverie.maintain.nightly import Maintainer
from reverie.observe import Observation, observe
from reverie.portability import export_user, import_user
from reverie.retrieve.context import ContextBlock, DocumentExcerpt, build_context
from reverie.retrieve.episodes import search_messages
from reverie.retrieve.hybrid import Semantic
from reverie.retrieve.indexer import MessageIndexer
from reverie.retrieve.relevant import relevant_facts
from reverie.retrieve.search import RecentResults, SearchResults, recent_memory, search_memory
from reverie.retrieve.timeutil import date_bounds, parse_period
from reverie.sensors import SensorBoard
from reverie.store import open_store
from reverie.store.base import (
    KINDS,
    SOURCES,
    STATUSES,
    Kind,
    MemoryFilter,
    MemoryRow,
    NewSummary,
    Source,
    Status,
    Store,
    SummaryRow,
    User,
    UserStore,
)
from reverie.text import check_query, count_tokens, keyword_terms, normalize_key
from reverie.tools.memory_tool import run_tool
from reverie.topics import TopicBook
from reverie.working import Proposal, WorkingState

FORGET_ALL_CONFIRMATION = "DELETE"
PREFERENCE_SCOPES = ("default", "specific", "always")
PREFERENCES_IN_CONTEXT = 10  # Saga's allocation: the top 10 relevant preferences
_FIRST_PERSON = re.compile(r"^\s*(?:i|i'm|i've|i'd|my|me)\b", re.IGNORECASE)
_T = TypeVar("_T")
log = logging.getLogger(__name__)
_USER_NAME_MAX = 64


def build_semantic(settings: Settings, store: Store, clock: Callable[[], float]) -> Semantic | None:
    """The embedding service, vector index and fusion settings, or None when embeddings are off."""
    conf = settings.embeddings
    if not conf.enabled:
        return None
    service = EmbeddingService(
        embedder_from_settings(settings),
        store,
        cache_entries=conf.cache.max_entries if conf.cache.enabled else 0,
        clock=clock,
        pause_after_failure=conf.pause_after_failure_seconds,
    )
    hybrid = conf.hybrid
    database = settings.store.url or str(settings.database_path)
    return Semantic(
        service=service,
        # Snapshots per database, so a restart's first search maps the vectors instead of reading them.
        index=VectorIndex(
            conf.index_cache_mb * 1024 * 1024,
            snapshots=settings.home / "vectors" / content_hash(database)[:16],
        ),
        keyword_weight=hybrid.keyword_weight if hybrid.enabled else 1.0,
        vector_weight=hybrid.vector_weight if hybrid.enabled else 0.0,
        min_similarity=hybrid.min_similarity,
        fusion=hybrid.fusion,
    )


def build_indexer(
    settings: Settings, store: Store, tz: tzinfo, clock: Callable[[], float]
) -> MessageIndexer | None:
    """The background indexer of new turns, or None when embeddings are off.

    It has an embedder of its own on one thread and no cache: a local model then runs on the
    indexer's own low-priority thread alone, so its batches never slow the turns being
    answered, and window texts, which never repeat, do not churn the cache.
    """
    if not settings.embeddings.enabled:
        return None
    own = settings.model_copy(deep=True)
    own.embeddings.threads = 1
    service = EmbeddingService(
        embedder_from_settings(own),
        None,
        cache_entries=0,
        clock=clock,
        pause_after_failure=settings.embeddings.pause_after_failure_seconds,
    )
    return MessageIndexer(store, service, tz)


def _local_zone(name: str) -> tzinfo:
    if not name:
        local = time.localtime().tm_zone
        try:
            return ZoneInfo("localtime") if local else ZoneInfo("UTC")
        except ZoneInfoNotFoundError:
            return ZoneInfo("UTC")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"memory.timezone '{name}' is not a known time zone (e.g. Europe/Paris)") from exc


def _check_user_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > _USER_NAME_MAX or not all(c.isalnum() or c in "._-@" for c in name):
        raise InvalidInput(
            f"User name {name!r} is not valid: use 1-{_USER_NAME_MAX} letters, digits, '.', '_', '-' or '@'"
        )
    if not name.strip("."):  # "." and ".." name folders (the user's topics) that are not the user's own
        raise InvalidInput(f"User name {name!r} is not valid: it needs a letter, digit, '_', '-' or '@'")
    return name


class Memory(Conversations):
    """Long-term memory for one user: remember, prefer, search, recent, forget, context, tool."""

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
        self.tz = _local_zone(self.settings.memory.timezone)
        self.semantic = build_semantic(self.settings, self.store, self.clock)
        self.policy = MergePolicy(
            self.settings.memory.duplicate_similarity,
            paraphrase_similarity=1.0 - self.settings.memory.duplicate_distance_threshold,
        )
        self.extraction_model = chat_model_from_settings(self.settings, "extraction")
        self.background = BackgroundTasks()
        self.indexer = build_indexer(self.settings, self.store, self.tz, self.clock)
        self.documents = DocumentLibrary(self.store, self.settings.rag, self.semantic, clock=self.clock)
        self.accounts = Accounts(
            self.store, clock=self.clock, session_hours=self.settings.server.session_hours
        )
        self.sensors = SensorBoard()  # live readings, in this process only (reverie.sensors)
        self.user: User | None = self._resolve_user(user or self.settings.default_user)
        self.interface: str | None = None

    # construction ------------------------------------------------------------------
    def _resolve_user(self, name: str) -> User:
        user = self.store.get_user(name)
        if user is not None:
            return user
        if name == self.settings.default_user:
            return self.store.add_user(_check_user_name(name), self.clock())
        raise NotFound(f"No user named '{name}'; add one with `reverie users add {name}`")

    def _view(self, user: User | None, interface: str | None) -> Memory:
        view = object.__new__(Memory)
        view.settings, view.store, view.clock, view.tz = self.settings, self.store, self.clock, self.tz
        view.semantic, view.policy = self.semantic, self.policy
        view.extraction_model, view.background = self.extraction_model, self.background
        view.indexer = self.indexer
        view.documents, view.accounts, view.sensors = self.documents, self.accounts, self.sensors
        view._owns_store = False
        view.user, view.interface = user, interface
        return view

    def for_user(self, name: str) -> Memory:
        """The same database seen as another user (NotFound if there is no such user)."""
        return self._view(self._resolve_user(name), None)

    def view_of(self, user_id: int) -> Memory:
        """The same database seen as the user with this id."""
        user = next((u for u in self.store.list_users() if u.id == user_id), None)
        if user is None:
            raise NotFound(f"No user with id {user_id}")
        return self._view(user, None)

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

    def for_interface(self, interface: str) -> Memory:
        """The memory of whoever an interface is mapped to; unmapped: a guest, or its thread.

        With ``[memory] unmapped_interfaces = "thread"`` an unmapped interface keeps memories in
        a thread of its own (used only there) until a person claims it with :meth:`merge_thread`.
        """
        name = self.settings.memory.voice_mapping.get(interface)
        if name is not None:
            return self._view(self._resolve_user(name), interface)
        user_id = self.store.interface_user(interface)
        user = self.store.get_user_by_id(user_id) if user_id else None
        if user is None and self.settings.memory.unmapped_interfaces == "thread":
            thread = f"thread-{normalize_key(interface).replace('_', '-')[:40] or 'device'}"
            user = self.store.get_user(thread) or self.store.add_thread(
                thread, f"interface {interface}", self.clock()
            )
        return self._view(user, interface)

    def for_speaker(self, interface: str, name: str) -> Memory | None:
        """The memory of ``name`` speaking on ``interface`` ("This is Alice", Saga), or None.

        Only the interface's users may: the one it is mapped to (config or database) and those
        of ``[memory.voice_speakers]``. ``name`` is a user name or display name, in any case.
        """
        allowed = [*self.settings.memory.voice_speakers.get(interface, ())]
        allowed.append(self.settings.memory.voice_mapping.get(interface, ""))
        mapped = self.store.interface_user(interface)
        users = [u for u in (self.store.get_user(n) for n in allowed if n) if u is not None]
        users += [u for u in [self.store.get_user_by_id(mapped)] if u is not None] if mapped else []
        wanted = name.strip().casefold()
        for user in users:
            if wanted in (user.name.casefold(), (user.display_name or "").casefold()):
                return self._view(user, interface)
        return None

    # threads (mem.db scopes) ---------------------------------------------------------
    def start_thread(self, label: str = "") -> Memory:
        """A new thread: memories kept for a conversation whose person is not known yet."""
        name = f"thread-{uuid.uuid4().hex[:12]}"
        return self._view(self.store.add_thread(name, label.strip()[:100], self.clock()), None)

    def for_thread(self, name: str) -> Memory:
        """The memory of a thread (NotFound if there is no such thread)."""
        thread = self.store.get_user(name)
        if thread is None or thread.kind != "thread":
            raise NotFound(f"No thread named '{name}'")
        return self._view(thread, None)

    def threads(self) -> list[User]:
        """Threads not merged into a user yet."""
        return self.store.list_threads()

    def merge_thread(self, thread: str, into: str) -> ScopeMerge:
        """Move a thread's memories to a user in one transaction; duplicates: the newest wins.

        The thread then ends: its conversations and their turns go with it to the user.
        """
        source = self.for_thread(thread)
        target = self.for_user(into)
        assert source.user is not None and target.user is not None
        if target.user.kind != "person":
            raise InvalidInput(f"'{into}' is a thread; merge into a person")
        now = self.clock()
        with self.store.transaction():
            report = merge_memories(
                source.scope,
                target.scope,
                now,
                reason=f"merged thread {thread}",
                policy=self.policy,
                service=self.embeddings,
                index=self.semantic.index if self.semantic else None,
            )
            target.scope.audit(
                "merge_thread",
                now,
                target_kind="thread",
                reason=f"thread {thread} merged into {into}",
                detail={"moved": report.moved, "superseded": report.superseded},
            )
            self.store.delete_user(source.user.id)
        return report

    @property
    def is_guest(self) -> bool:
        """True for an unmapped interface: nothing is loaded or stored."""
        return self.user is None

    def close(self) -> None:
        """Close the database if this object opened it."""
        if self._owns_store:
            self.documents.close()
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
        self.documents.semantic = self.semantic

    def __enter__(self) -> Memory:
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

    # users -------------------------------------------------------------------------
    def add_user(self, name: str, *, display_name: str = "", is_admin: bool = False) -> User:
        """Create a user."""
        return self.store.add_user(
            _check_user_name(name), self.clock(), display_name=display_name, is_admin=is_admin
        )

    def list_users(self) -> list[User]:
        """Every user in the database."""
        return self.store.list_users()

    def remove_user(self, name: str) -> User:
        """Delete a user and everything kept about them, topic files included (never the last admin)."""
        user = self.store.get_user(name)
        if user is None:
            raise NotFound(f"No user named '{name}'; `reverie users list` shows who there is")
        if user.is_admin and self.store.count_admins() <= 1:
            raise Conflict(
                f"'{name}' is the only admin: make someone else an admin first "
                "(`reverie users admin NAME` or the Users page)"
            )
        book = self._view(user, None).topics
        self.documents.forget_user(user.id)  # their uploads, files included
        self.store.delete_user(user.id)
        with book.lock:
            for path in book.folder.glob("*") if book.folder.is_dir() else []:
                if path.is_file() and (path.suffix == ".md" or path.name == "index.txt"):
                    path.unlink()
        return user

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

        ``sensitive=True`` is the user's explicit request to keep a secret (a password, an ID number).
        """
        if source not in SOURCES:
            raise InvalidInput(f"source must be one of {', '.join(SOURCES)}, got {source!r}")
        if not 0.0 <= confidence <= 1.0:
            raise InvalidInput(f"confidence must be between 0 and 1, got {confidence}")
        ahead = text.replace("\r\n", "\n").strip()  # what the guard returns if it lets the text through
        pending = self._embed_ahead(ahead)
        try:
            text = self._guard(text, source, sensitive)
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

    def prefer(
        self,
        category: str,
        value: str,
        *,
        source: Source = "explicit",
        confidence: float | None = None,
    ) -> RememberResult:
        """Set a preference of a category; its key (color, brightness, verbosity) is read from the value.

        A way of answering ("verbosity", "formality") is a key of the "global" category.
        """
        if not normalize_key(category):
            raise InvalidInput("A preference needs a category (e.g. verbosity, units, lights)")
        found, key, scope = preference_slot(value, category)
        return self.save_preference(found, key, value, scope=scope, source=source, confidence=confidence)

    def save_preference(
        self,
        category: str,
        key: str,
        value: str,
        *,
        scope: str = "default",
        source: Source = "explicit",
        confidence: float | None = None,
    ) -> RememberResult:
        """Set the preference ``category``/``key`` (Saga): one value per key, a new value replaces the old.

        The same value again reinforces it; the replaced value is kept as its history.
        """
        name, slot = normalize_category(category), normalize_key(key)
        if not normalize_key(category) or not slot:
            raise InvalidInput("A preference needs a category and a key (e.g. lights and color)")
        if scope not in PREFERENCE_SCOPES:
            raise InvalidInput(f"scope must be one of {', '.join(PREFERENCE_SCOPES)}, got {scope!r}")
        if source not in SOURCES:
            raise InvalidInput(f"source must be one of {', '.join(SOURCES)}, got {source!r}")
        value = self._guard(value, source)
        level = confidence if confidence is not None else (1.0 if source == "explicit" else 0.5)
        if not 0.0 <= level <= 1.0:
            raise InvalidInput(f"confidence must be between 0 and 1, got {level}")
        return set_preference(
            self.scope,
            name,
            slot,
            value,
            self.clock(),
            source=source,
            confidence=level,
            policy=self.policy,
            service=self.embeddings,
            pref_scope=scope,
        )

    def preferences(self, category: str | None = None, *, limit: int = 50) -> list[MemoryRow]:
        """Active preferences, strongest first: all, or one category's and the global ones."""
        if category is None:
            return self.scope.list_preferences(limit=limit)
        return self.scope.list_preferences([normalize_category(category), GLOBAL], limit=limit)

    def preferences_for(
        self, utterance: str | None, *, limit: int = PREFERENCES_IN_CONTEXT
    ) -> list[MemoryRow]:
        """The preferences for a context (Saga): the utterance's category, then "global", at most ``limit``.

        With no utterance (a context asked for without a message) the strongest of all.
        """
        if not utterance:
            return self.scope.list_preferences(limit=limit)
        found = infer_category(utterance)
        chosen = (
            []
            if found in (GLOBAL, "general") or found in STYLE_KEYS
            else self.scope.list_preferences([found], limit=limit)
        )
        return chosen + self.scope.list_preferences([GLOBAL], limit=limit - len(chosen))

    def preference_history(self, category: str, key: str) -> list[MemoryRow]:
        """Every value the preference ``category``/``key`` had, oldest first (the last is current)."""
        return self.scope.preference_history(normalize_category(category), normalize_key(key))

    def forget_preference(self, what: str = "") -> list[MemoryRow]:
        """Delete a preference: the one set last, or the one ``what`` names ("lights color", "verbosity")."""
        prefs = self.scope.list_preferences(limit=1000)
        if what.strip():
            wanted = set(keyword_terms(what))
            prefs = [
                p
                for p in prefs
                if wanted <= set(keyword_terms(f"{p.category or ''} {(p.key or '').replace('_', ' ')}"))
                or wanted <= set(keyword_terms(p.text))
            ]
        else:
            prefs = sorted(prefs, key=lambda p: (p.updated_at, p.id))[-1:]
        if not prefs:
            return []
        scope, now = self.scope, self.clock()
        with scope.transaction():
            scope.delete_memories([p.id for p in prefs])
            scope.audit(
                "forget",
                now,
                target_kind="preference",
                reason="preference removed on request",
                detail={"ids": [p.id for p in prefs]},
            )
        return prefs

    def add_summary(
        self,
        text: str,
        *,
        topics: list[str] | None = None,
        sentiment: str = "",
        conversation_id: int | None = None,
        at: float | None = None,
        message_count: int = 0,
        duration_seconds: float = 0.0,
        first_message_id: int | None = None,
        last_message_id: int | None = None,
    ) -> SummaryRow:
        """Keep a summary of a conversation."""
        text = ensure_memory_text(text, max_bytes=4 * self.settings.memory.max_memory_bytes)
        scope, vector = self.scope, embed_or_none(self.embeddings, text)
        with scope.transaction():
            row = scope.insert_summary(
                NewSummary(
                    text=text,
                    topics=[t.strip() for t in topics or [] if t.strip()][:5],
                    sentiment=sentiment,
                    conversation_id=conversation_id,
                    created_at=at,
                    message_count=message_count,
                    first_message_id=first_message_id,
                    last_message_id=last_message_id,
                    duration_seconds=duration_seconds,
                ),
                self.clock(),
            )
            store_vector(scope, self.embeddings, "summary", row.id, vector)
        return row

    def set_base_memory(self, text: str) -> None:
        """Replace the user's base memory document (the distilled profile)."""
        text = text.strip()
        if text:
            text = ensure_memory_text(text, max_bytes=16 * self.settings.memory.max_memory_bytes)
        self.scope.set_base_memory(text, self.clock())

    def base_memory(self) -> str:
        """The user's base memory document, or ''."""
        if self.is_guest:
            return ""
        found = self.scope.get_base_memory()
        return found[0] if found else ""

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

    def summaries(self, *, limit: int = 50, offset: int = 0) -> list[SummaryRow]:
        """Conversation summaries, newest first."""
        check_paging(limit, offset)
        return [] if self.is_guest else self.scope.list_summaries(limit=limit, offset=offset)

    def delete_summary(self, summary_id: int) -> SummaryRow:
        """Delete one conversation summary for good and return what it was."""
        scope, now = self.scope, self.clock()
        found = scope.get_summaries([summary_id])
        if not found:
            raise NotFound(f"No summary with id {summary_id}")
        with scope.transaction():
            scope.delete_summaries([summary_id])
            scope.audit("delete", now, target_kind="summary", target_id=summary_id, reason="deleted by user")
        return found[0]

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
        if self.settings.memory.topics.enabled:
            self.topics.sync()  # a person's edit of a topic file shows in search at once
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
        self, query: str | None = None, *, conversation_id: int | None = None, touch: bool = True
    ) -> ContextBlock:
        """The remembered-data block for a system prompt, within the token budget.

        With ``query`` (the current user message) the facts relevant to it come first; with
        ``conversation_id`` the facts found relevant earlier in that conversation stay in too.
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
        if conversation_id is not None:
            if scope.get_conversation(conversation_id) is None:
                raise NotFound(f"No conversation with id {conversation_id}")
            ids = list(reversed(scope.list_relevant(conversation_id)))
        topic, recent = self._topic_context(conversation_id)
        working = (  # the conversation is known to be the user's (checked above)
            WorkingState.loads(scope.get_working_state(conversation_id)).lines(now, self.tz)
            if conversation_id is not None
            else []
        )
        relevant = relevant_facts(
            scope,
            text,
            semantic=self.semantic,
            top_k=conf.relevant_top_k,
            min_similarity=conf.relevant_min_similarity,
            pending=pending,
        )
        # Only ids not yet kept for the conversation are written (the insert skips the others anyway).
        known = set(ids)
        fresh = [row.id for row in relevant if row.id not in known] if conversation_id is not None else []
        if topic is not None:
            relevant, ids = [], []  # Rostro: the topic file replaces the accumulated relevant memories
        block = build_context(
            scope,
            budget=budget,
            now=now,
            tz=self.tz,
            relevant=relevant,
            earlier=ids,
            topic=topic,
            recent_topics=recent,
            working=working,
            max_facts=self.settings.memory.context_max_facts,
            max_summaries=self.settings.memory.context_max_summaries,
            documents=self._excerpts(query or ""),
            document_tokens=self.settings.rag.context_tokens,
            count=self.count_tokens,
            min_confidence=conf.extraction.confidence_min,
            preferences=self.preferences_for(query),
        )
        touched = block.fact_ids if touch else []
        if fresh or touched:
            with scope.transaction():  # the turn's two writes, one commit
                if fresh and conversation_id is not None:
                    scope.add_relevant(conversation_id, fresh, now)
                if touched:
                    scope.touch_memories(touched, now, self.settings.memory.decay.access_reinforcement_boost)
        return block

    # working state (Saga's active context) ---------------------------------------------
    def working_state(self, conversation_id: int) -> WorkingState:
        """A conversation's timers, reminders, tasks and summary (NotFound for another user's)."""
        scope = self.scope
        if scope.get_conversation(conversation_id) is None:
            raise NotFound(f"No conversation with id {conversation_id}")
        return WorkingState.loads(scope.get_working_state(conversation_id))

    def change_working_state(self, conversation_id: int, change: Callable[[WorkingState], _T]) -> _T:
        """Apply ``change`` to a conversation's working state and save it, atomically."""
        scope = self.scope
        with scope.transaction():
            state = self.working_state(conversation_id)
            result = change(state)
            scope.put_working_state(conversation_id, state.dumps(), self.clock())
        return result

    # observations to confirm (Rostro) ---------------------------------------------------------
    def propose(self, conversation_id: int, text: str) -> Proposal:
        """Keep an observation the assistant offered to remember until the user says yes or no."""
        return self.change_working_state(conversation_id, lambda state: state.propose(text, self.clock()))

    def answer_proposals(
        self, conversation_id: int, *, confirm: bool, item: int | None = None
    ) -> list[RememberResult]:
        """The user's answer to the proposals (one by id, or all): yes remembers them, no drops them.

        Each confirmed observation goes through :meth:`remember` like anything the user said
        (the guard, the merge policy); it is remembered as the user's own words, since the
        user confirmed it.
        """
        taken = self.change_working_state(conversation_id, lambda state: state.take_proposals(item))
        if not confirm:
            return []
        return [self.remember(proposal.text, conversation_id=conversation_id) for proposal in taken]

    def pending_proposals(self) -> list[tuple[int, Proposal]]:
        """Every observation awaiting the user's answer, in the user's open conversations."""
        scope = self.scope
        found = []
        for conversation in scope.open_conversations():
            state = WorkingState.loads(scope.get_working_state(conversation.id))
            found += [(conversation.id, proposal) for proposal in state.proposals]
        return sorted(found, key=lambda pair: pair[1].proposed_at)

    def _topic_context(self, conversation_id: int | None) -> tuple[tuple[str, list[str]] | None, list[str]]:
        """The conversation's topic file (title, lines) once detected, else the recent-topics index."""
        if not self.settings.memory.topics.enabled:
            return None, []
        book = self.topics
        slug = self.scope.conversation_topic(conversation_id) if conversation_id is not None else None
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
        """Detect the conversation's topic from a user message, in the background (no added latency)."""
        if not self.settings.memory.topics.enabled or self.is_guest:
            return
        scope = self.scope
        if scope.conversation_topic(conversation_id) or not scope.list_topics():
            return
        book = self.topics

        def run() -> None:
            slug = book.detect(text)
            if slug and not scope.conversation_topic(conversation_id):
                scope.set_conversation_topic(conversation_id, slug)

        self.background.submit(run)

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
        counts["documents"] = self.documents.forget_user(scope.user_id)  # their uploads, files too
        book = self.topics
        with book.lock:
            for path in book.folder.glob("*") if book.folder.is_dir() else []:
                if path.is_file() and (path.suffix == ".md" or path.name == "index.txt"):
                    path.unlink()
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
