"""Export everything kept about a user as one JSON document, and import it back.

The document (version 2) holds the memories with their history, preferences, summaries, the
base memory, every conversation with its turns and working state, the topics (their Markdown
files and the memories they hold), the recent-topics index, and the user's settings (display
name, kind and label, the voice interfaces mapped to them). A thread (a user of kind "thread")
exports the same way. Version 1 documents (memories, summaries, base memory) still import.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from reverie.conversations import MAX_MESSAGE_BYTES, ROLES
from reverie.errors import InvalidInput, TooLarge
from reverie.extract.guard import ensure_memory_text
from reverie.extract.merge import find_twin, supersede_fact
from reverie.retrieve.episodes import turn_line, window_keyword_text
from reverie.retrieve.timeutil import LATEST, local_datetime
from reverie.store.base import (
    KINDS,
    SOURCES,
    STATUSES,
    MemoryFilter,
    MemoryRow,
    MessageRow,
    NewMemory,
    NewSummary,
    UserStore,
)
from reverie.store.user_rows import (
    CONSOLIDATION_STATES,
    conversation_rows,
    message_rows,
    restore_conversation,
)
from reverie.text import normalize_key
from reverie.topics import parse_topic, slugify, write_atomic

if TYPE_CHECKING:
    from reverie.memory import Memory

FORMAT = "reverie-export"
VERSION = 2
READS = (1, 2)
_PAGE = 1000
_EARLIEST = 0.0  # exports of stores moved from other tools may hold times before 2000
_MAX_INDEX = 1_000_000


_PREFERENCE_SCOPES = ("default", "specific", "always")
_MAX_COUNT = 2**31 - 1  # a count beyond this is not a count: refused, it would not fit a column
# A document with more items than this is refused as a whole (413) before anything is read.
MAX_ITEMS = 100_000


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return local_datetime(ts, UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _ts(value: Any, field: str, required: bool = True) -> float | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be an ISO-8601 time string, got {value!r}")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise InvalidInput(f"{field} is not an ISO-8601 time: {value!r}") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        stamp = parsed.timestamp()
    except (OverflowError, ValueError):
        stamp = math.nan  # year 1 east of UTC: refused just below
    if not _EARLIEST <= stamp < LATEST:
        raise InvalidInput(f"{field} must be a time from 1970 to 2099, got {value!r}")
    return stamp


def _pages(read: Any) -> list[Any]:
    rows: list[Any] = []
    offset = 0
    while True:
        page = read(offset)
        rows += page
        offset += _PAGE
        if len(page) < _PAGE:
            return rows


def export_user(memory: Memory) -> dict[str, Any]:
    """Everything kept about ``memory``'s user, as one JSON-ready document.

    Ids in the document are the document's own (1, 2, 3 ... in store order) and references
    (a memory's conversation, a topic's memories) use them, so that an export imported into an
    empty store exports to the same document.
    """
    scope = memory.scope
    rows = _pages(
        lambda offset: scope.list_memories(
            MemoryFilter(statuses=STATUSES, limit=_PAGE, offset=offset, order="id")
        )
    )
    local = {row.id: index for index, row in enumerate(rows, start=1)}
    summaries = _pages(lambda offset: scope.list_summaries(limit=_PAGE, offset=offset))
    conversations = conversation_rows(scope)
    local_conv = {row["id"]: index for index, row in enumerate(conversations, start=1)}
    turns: dict[int, list[dict[str, Any]]] = {}
    local_msg: dict[int, int] = {}
    for message in message_rows(scope):
        local_msg[message["id"]] = len(local_msg) + 1
        turns.setdefault(message["conversation_id"], []).append(
            {
                "id": local_msg[message["id"]],
                "role": message["role"],
                "content": message["content"],
                "speaker": message["speaker"],
                "ref": message["ref"],
                "created_at": _iso(message["created_at"]),
                "summarized": message["summarized"],
                "intent": message["intent"],
                "memory_created": message["memory_created"],
            }
        )
    base = scope.get_base_memory()
    return {
        "format": FORMAT,
        "version": VERSION,
        "user": memory.user.name if memory.user else None,
        "settings": _settings(memory),
        "memories": [
            {
                "id": local[row.id],
                "kind": row.kind,
                "type": row.type,
                "key": row.key,
                "category": row.category,
                "scope": row.scope,
                "text": row.text,
                "source": row.source,
                "confidence": row.confidence,
                "status": row.status,
                "superseded_by": local.get(row.superseded_by) if row.superseded_by else None,
                "created_at": _iso(row.created_at),
                "updated_at": _iso(row.updated_at),
                "last_accessed": _iso(row.last_accessed),
                "access_count": row.access_count,
                "reinforcement_count": row.reinforcement_count,
                "sensitive": row.sensitive,
                "conversation": local_conv.get(row.conversation_id) if row.conversation_id else None,
                "source_message": local_msg.get(row.source_message_id) if row.source_message_id else None,
            }
            for row in rows
        ],
        "summaries": [
            {
                "text": s.text,
                "topics": s.topics,
                "sentiment": s.sentiment,
                "created_at": _iso(s.created_at),
                "message_count": s.message_count,
                "duration_seconds": s.duration_seconds,
                "incorporated": s.incorporated,
                "conversation": local_conv.get(s.conversation_id) if s.conversation_id else None,
            }
            for s in sorted(summaries, key=lambda s: (s.created_at, s.id))
        ],
        "base_memory": {"text": base[0], "updated_at": _iso(base[1])} if base else None,
        "conversations": [
            {
                "id": local_conv[row["id"]],
                "interface": row["interface"],
                "title": row["title"],
                "started_at": _iso(row["started_at"]),
                "last_activity": _iso(row["last_activity"]),
                "ended_at": _iso(row["ended_at"]),
                "is_private": row["is_private"],
                "consolidation_state": row["consolidation_state"],
                "consolidated_at": _iso(row["consolidated_at"]),
                "topic": row["topic"],
                "working_state": _working_state(scope.get_working_state(row["id"])),
                "messages": turns.get(row["id"], []),
            }
            for row in conversations
        ],
        "topics": _topics(memory, local),
        "topic_index": [
            {
                "at": _iso(row.at),
                "topic": row.topic,
                "summary": row.summary,
                "conversation": local_conv.get(row.conversation_id) if row.conversation_id else None,
            }
            for row in sorted(scope.list_topic_index(_MAX_INDEX), key=lambda r: (r.at, r.id))
        ],
    }


def _settings(memory: Memory) -> dict[str, Any]:
    user = memory.user
    if user is None:
        return {}
    interfaces = sorted(name for name, owner in memory.store.list_interfaces() if owner == user.id)
    return {
        "display_name": user.display_name,
        "kind": user.kind,
        "label": user.label,
        "interfaces": interfaces,
    }


def _working_state(stored: str | None) -> Any:
    if not stored:
        return None
    try:
        return json.loads(stored)
    except ValueError:
        return None  # a damaged state reads as empty everywhere else too


def _topics(memory: Memory, local: Mapping[int, int]) -> list[dict[str, Any]]:
    if memory.user is None:
        return []
    scope, book = memory.scope, memory.topics
    found = []
    for row in sorted(scope.list_topics(), key=lambda r: r.slug):
        path = book.folder / f"{row.slug}.md"
        try:
            markdown = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the file is gone or unreadable: the topic has nothing to carry
        ids = sorted(local[i] for i in scope.topic_memory_ids(row.id) if i in local)
        found.append({"slug": row.slug, "title": row.title, "markdown": markdown, "memories": ids})
    return found


# The guard's limits for imported prose: summaries and the base memory are longer than facts.
_MAX_SUMMARY_BYTES = 16 * 1024
_MAX_BASE_BYTES = 64 * 1024
_HINT = 'mark it "sensitive": true (the user asked to keep it as sensitive)'


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_COUNT


def _memory(item: Any, index: int) -> NewMemory:
    where = f"memories[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object")
    kind, source, status = item.get("kind"), item.get("source"), item.get("status", "active")
    if kind not in KINDS:
        raise InvalidInput(f"{where}.kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if source not in SOURCES:
        raise InvalidInput(f"{where}.source must be one of {', '.join(SOURCES)}, got {source!r}")
    if status not in STATUSES:
        raise InvalidInput(f"{where}.status must be one of {', '.join(STATUSES)}, got {status!r}")
    confidence = item.get("confidence")
    if not isinstance(confidence, int | float) or not 0.0 <= confidence <= 1.0:
        raise InvalidInput(f"{where}.confidence must be a number between 0 and 1")
    text = item.get("text")
    if not isinstance(text, str):
        raise InvalidInput(f"{where}.text must be a string")
    try:
        # A secret comes back only if it was kept as sensitive on the user's explicit request.
        sensitive = source == "explicit" and item.get("sensitive") is True
        text = ensure_memory_text(text, allow_sensitive=sensitive, max_bytes=4096, hint=_HINT)
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc}") from exc
    key = item.get("key")
    if key is not None and not isinstance(key, str):
        raise InvalidInput(f"{where}.key must be a string or null")
    category = item.get("category")
    if category is not None and (not isinstance(category, str) or not normalize_key(category)):
        raise InvalidInput(f"{where}.category must be a name (lights, global ...) or null")
    pref_scope = item.get("scope", "default")
    if pref_scope not in _PREFERENCE_SCOPES:
        raise InvalidInput(f"{where}.scope must be one of {', '.join(_PREFERENCE_SCOPES)}")
    counts = [item.get("access_count", 0), item.get("reinforcement_count", 1)]
    if not all(_is_count(c) for c in counts):
        raise InvalidInput(
            f"{where}: access_count and reinforcement_count must be whole numbers from 0 to {_MAX_COUNT}"
        )
    return NewMemory(
        kind=kind,
        text=text,
        source=source,
        confidence=float(confidence),
        type=str(item.get("type") or "general"),
        key=_stored_key(key) if key else None,
        category=normalize_key(category) if kind == "preference" and category else None,
        scope=pref_scope if kind == "preference" else "default",
        created_at=_ts(item.get("created_at"), f"{where}.created_at"),
        updated_at=_ts(item.get("updated_at"), f"{where}.updated_at"),
        last_accessed=_ts(item.get("last_accessed"), f"{where}.last_accessed", required=False),
        access_count=counts[0],
        reinforcement_count=counts[1],
        status=status,
        sensitive=bool(item.get("sensitive", False)),
    )


def _clash(scope: UserStore, new: NewMemory) -> MemoryRow | None:
    """The active memory an imported one replaces: a preference by category and key, else by key."""
    if not new.key or new.status != "active":
        return None
    if new.kind == "preference" and new.category:
        return scope.find_preference(new.category, new.key)
    return scope.find_active_by_key(new.kind, new.key)


def _stored_key(key: str) -> str | None:
    """A key as the store keeps it: snake_case words, or a claim's "owner.attribute" (dot kept)."""
    parts = [normalize_key(part) for part in key.split(".")]
    return ".".join(part for part in parts if part) or None


def _summary(item: Any, index: int) -> NewSummary:
    where = f"summaries[{index}]"
    if not isinstance(item, dict) or not isinstance(item.get("text"), str) or not item["text"].strip():
        raise InvalidInput(f"{where} must be an object with a non-empty text")
    topics = item.get("topics", [])
    if not isinstance(topics, list) or not all(isinstance(t, str) for t in topics):
        raise InvalidInput(f"{where}.topics must be a list of strings")
    try:
        text = ensure_memory_text(item["text"], max_bytes=_MAX_SUMMARY_BYTES)
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc}") from exc
    message_count = item.get("message_count") or 0
    if not _is_count(message_count):
        raise InvalidInput(f"{where}.message_count must be a whole number from 0 to {_MAX_COUNT}")
    return NewSummary(
        text=text,
        topics=topics,
        sentiment=str(item.get("sentiment") or ""),
        created_at=_ts(item.get("created_at"), f"{where}.created_at"),
        message_count=message_count,
    )


def _optional_text(value: Any, where: str, limit: int = 200) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > limit:
        raise InvalidInput(f"{where} must be a string of at most {limit} characters")
    return value


def _guarded(text: str, where: str, max_bytes: int = 4096) -> str:
    """Text that goes into a prompt passes the same guard as a remembered fact."""
    try:
        return ensure_memory_text(text, max_bytes=max_bytes)
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc}") from exc


def _turn(item: Any, where: str) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object")
    role, content, speaker, ref = item.get("role"), item.get("content"), item.get("speaker"), item.get("ref")
    if role not in ROLES:
        raise InvalidInput(f"{where}.role must be one of {', '.join(ROLES)}, got {role!r}")
    if not isinstance(content, str):
        raise InvalidInput(f"{where}.content must be a string")
    try:
        size = len(content.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise InvalidInput(f"{where}.content is not valid Unicode (lone surrogates)") from exc
    if size > MAX_MESSAGE_BYTES:
        raise TooLarge(f"{where}.content is {size} bytes; the limit is {MAX_MESSAGE_BYTES}")
    if speaker is not None and (not isinstance(speaker, str) or not speaker.strip() or len(speaker) > 100):
        raise InvalidInput(f"{where}.speaker must be null or a name of 1-100 characters")
    if ref is not None and (not isinstance(ref, str) or len(ref) > 200):
        raise InvalidInput(f"{where}.ref must be null or a string of at most 200 characters")
    return {
        "role": role,
        "content": content,
        "speaker": speaker,
        "ref": ref,
        "created_at": _ts(item.get("created_at"), f"{where}.created_at"),
        "summarized": item.get("summarized") is True,
        "id": item.get("id"),
        "intent": _intent(item.get("intent"), where),
        "memory_created": item.get("memory_created") is True,
    }


def _intent(value: Any, where: str) -> str | None:
    """A turn's intent as the gate names it (snake_case, at most 40 characters), or None."""
    if value is None:
        return None
    if not isinstance(value, str) or not re.fullmatch(r"[a-z_]{1,40}", value):
        raise InvalidInput(f"{where}.intent must be null or a lower-case name (statement, remember ...)")
    return value


def _state(value: Any, where: str) -> dict[str, Any] | None:
    """A working state: its labels, reminders, tasks and summary reach the prompt, so they are guarded."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidInput(f"{where} must be null or an object")
    for part, field in (("timers", "label"), ("reminders", "text"), ("tasks", "text")):
        items = value.get(part, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise InvalidInput(f"{where}.{part} must be a list of objects")
        for n, entry in enumerate(items):
            text = entry.get(field)
            if not isinstance(text, str):
                raise InvalidInput(f"{where}.{part}[{n}].{field} must be a string")
            _guarded(text, f"{where}.{part}[{n}]")
    summary = value.get("summary", "")
    if not isinstance(summary, str):
        raise InvalidInput(f"{where}.summary must be a string")
    if summary.strip():
        _guarded(summary, f"{where}.summary", _MAX_SUMMARY_BYTES)
    return value


def _conversation(item: Any, index: int) -> dict[str, Any]:
    where = f"conversations[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object")
    interface = item.get("interface")
    if not isinstance(interface, str) or not interface.strip() or len(interface) > 100:
        raise InvalidInput(f"{where}.interface must be a name of 1-100 characters")
    state = item.get("consolidation_state", "done")
    if state not in CONSOLIDATION_STATES:
        raise InvalidInput(f"{where}.consolidation_state must be one of {', '.join(CONSOLIDATION_STATES)}")
    messages = item.get("messages", [])
    if not isinstance(messages, list):
        raise InvalidInput(f"{where}.messages must be a list")
    title = _optional_text(item.get("title"), f"{where}.title")
    if title.strip():
        _guarded(title, f"{where}.title")
    started = _ts(item.get("started_at"), f"{where}.started_at")
    return {
        "id": item.get("id", index + 1),
        "interface": interface,
        "title": title,
        "started_at": started,
        "last_activity": _ts(item.get("last_activity", item.get("started_at")), f"{where}.last_activity"),
        "ended_at": _ts(item.get("ended_at"), f"{where}.ended_at", required=False),
        "is_private": item.get("is_private") is True,
        # A lease held by a worker of the exporting machine means nothing here: queued again.
        "consolidation_state": "pending" if state == "running" else state,
        "consolidated_at": _ts(item.get("consolidated_at"), f"{where}.consolidated_at", required=False),
        "topic": _optional_text(item.get("topic"), f"{where}.topic") or None,
        "working_state": _state(item.get("working_state"), f"{where}.working_state"),
        "messages": [_turn(turn, f"{where}.messages[{n}]") for n, turn in enumerate(messages)],
    }


def _topic(item: Any, index: int) -> dict[str, Any]:
    where = f"topics[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object")
    slug, markdown, ids = item.get("slug"), item.get("markdown"), item.get("memories", [])
    if not isinstance(slug, str) or not slug or slugify(slug) != slug:
        raise InvalidInput(
            f"{where}.slug must be a topic slug (lower-case words joined by '-'), got {slug!r}"
        )
    if not isinstance(markdown, str) or len(markdown.encode("utf-8", "replace")) > _MAX_BASE_BYTES:
        raise InvalidInput(
            f"{where}.markdown must be the topic file's text (at most {_MAX_BASE_BYTES} bytes)"
        )
    if not isinstance(ids, list) or not all(_is_count(i) for i in ids):
        raise InvalidInput(f"{where}.memories must be a list of memory ids of this document")
    try:
        title, lines = parse_topic(markdown)
    except InvalidInput as exc:
        raise InvalidInput(f"{where}.markdown: {exc}") from exc
    _guarded(title, f"{where} title")
    for n, line in enumerate(lines):
        _guarded(line.text, f"{where} line {n + 1}")
    return {"slug": slug, "title": title, "markdown": markdown, "lines": len(lines), "memories": ids}


def _index_line(item: Any, index: int) -> dict[str, Any]:
    where = f"topic_index[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object")
    topic = _optional_text(item.get("topic"), f"{where}.topic")
    summary = _optional_text(item.get("summary"), f"{where}.summary", _MAX_SUMMARY_BYTES)
    for text, part in ((topic, "topic"), (summary, "summary")):
        if text.strip():
            _guarded(text, f"{where}.{part}", _MAX_SUMMARY_BYTES)
    return {
        "at": _ts(item.get("at"), f"{where}.at"),
        "topic": topic,
        "summary": summary,
        "conversation": item.get("conversation"),
    }


def _list(document: Mapping[str, Any], name: str) -> list[Any]:
    value = document.get(name, [])
    if not isinstance(value, list):
        raise InvalidInput(f"{name} must be a list")
    return value


def import_user(memory: Memory, document: Any) -> dict[str, int]:
    """Validate a whole export document, then load it in one transaction (nothing on error).

    Memories already present with the same kind, key, text and status are skipped, so
    importing the same document twice adds nothing. An imported active memory whose key is
    already active is kept, but as superseded by the current one. An imported active fact that
    the merge policy finds repeated by a kept fact is skipped; one that updates or contradicts a
    kept fact is kept too, the newer of the two (by last update) active and the other superseded.
    A conversation already present (same interface and start) is skipped with its turns, and
    so are a topic whose slug exists and an index line already there. Interfaces in the
    settings are mapped to this user when no one else has them. Text that reaches a prompt
    (memories, summaries, base memory, topic lines and titles, working state, index lines)
    passes the guard a remembered fact passes; turns are checked as a recorded turn is.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f'Not a Reverie export: expected an object with "format": "{FORMAT}"')
    if document.get("version") not in READS:
        raise InvalidInput(
            f"Unsupported export version {document.get('version')!r}; this Reverie reads "
            + " and ".join(str(v) for v in READS)
        )
    raw_memories, raw_summaries = document.get("memories", []), document.get("summaries", [])
    if not isinstance(raw_memories, list) or not isinstance(raw_summaries, list):
        raise InvalidInput("memories and summaries must be lists")
    raw_conversations, raw_topics = _list(document, "conversations"), _list(document, "topics")
    raw_index = _list(document, "topic_index")
    items = len(raw_memories) + len(raw_summaries) + len(raw_topics) + len(raw_index)
    items += sum(len(c.get("messages", [])) + 1 for c in raw_conversations if isinstance(c, dict))
    if items > MAX_ITEMS:
        raise TooLarge(f"The document holds more than {MAX_ITEMS} items; import it in parts")
    memories = [_memory(item, i) for i, item in enumerate(raw_memories)]
    links = [item.get("superseded_by") for item in raw_memories]
    local_ids = [item.get("id", i + 1) for i, item in enumerate(raw_memories)]
    memory_convs = [item.get("conversation") for item in raw_memories]
    memory_sources = [item.get("source_message") for item in raw_memories]
    summaries = [_summary(item, i) for i, item in enumerate(raw_summaries)]
    summary_extra = [
        (item.get("conversation"), item.get("incorporated") is True, item.get("duration_seconds", 0.0))
        for item in raw_summaries
    ]
    conversations = [_conversation(item, i) for i, item in enumerate(raw_conversations)]
    topics = [_topic(item, i) for i, item in enumerate(raw_topics)]
    index_lines = [_index_line(item, i) for i, item in enumerate(raw_index)]
    settings = document.get("settings") or {}
    interfaces = settings.get("interfaces", []) if isinstance(settings, dict) else None
    if not isinstance(interfaces, list) or not all(isinstance(i, str) and i.strip() for i in interfaces):
        raise InvalidInput("settings.interfaces must be a list of interface names")
    base = document.get("base_memory")
    if base is not None and (not isinstance(base, dict) or not isinstance(base.get("text"), str)):
        raise InvalidInput("base_memory must be null or an object with a text")
    if base is not None and base["text"].strip():
        try:
            base = {**base, "text": ensure_memory_text(base["text"], max_bytes=_MAX_BASE_BYTES)}
        except InvalidInput as exc:
            raise InvalidInput(f"base_memory: {exc}") from exc
    scope, now = memory.scope, memory.clock()
    counts = {
        "memories": 0,
        "skipped": 0,
        "summaries": 0,
        "base_memory": 0,
        "conversations": 0,
        "messages": 0,
        "topics": 0,
    }
    files: list[tuple[str, str]] = []
    with scope.transaction():
        conv_ids, msg_ids = _import_conversations(memory, conversations, counts, now)
        existing = scope.list_memories(MemoryFilter(statuses=STATUSES, limit=1_000_000, order="id"))
        seen = {(m.kind, m.category, m.key, m.text, m.status) for m in existing}
        new_ids: dict[Any, int] = {}
        for local_id, new, conv, source in zip(
            local_ids, memories, memory_convs, memory_sources, strict=True
        ):
            if conv in conv_ids:
                new = NewMemory(**{**new.__dict__, "conversation_id": conv_ids[conv]})
            if _hashable(source) and source in msg_ids:
                new = NewMemory(**{**new.__dict__, "source_message_id": msg_ids[source]})
            if (new.kind, new.category, new.key, new.text, new.status) in seen:
                counts["skipped"] += 1
                continue
            clash = _clash(scope, new)
            twin = None
            if new.kind == "fact" and new.status == "active" and existing:
                # The merge policy, as for a remember: a repeat is not added again; an update or a
                # contradiction of a kept fact is resolved by time, the newer one staying active.
                found = find_twin(scope, new.text, memory.policy, key=new.key)
                if found is not None and found[1] == "same":
                    new_ids[local_id] = found[0].id
                    counts["skipped"] += 1
                    continue
                twin = found[0] if found is not None else None
            if clash is not None:
                twin = None  # the key decides, as it always did: the current one stays active
            newer = twin is not None and (new.updated_at or now) > twin.updated_at
            keep_active = clash is None and (twin is None or newer)
            row = scope.insert_memory(new if keep_active else _as_superseded(new), now)
            if clash is not None:
                scope.supersede(row.id, clash.id, now)
            elif twin is not None:
                old, kept = (twin, row) if newer else (row, twin)
                supersede_fact(scope, old, kept, now, "import: the newer of two versions of a fact stays")
            new_ids[local_id] = row.id
            counts["memories"] += 1
        for local_id, link in zip(local_ids, links, strict=True):
            if link is not None and local_id in new_ids and link in new_ids:
                scope.update_memory(
                    new_ids[local_id], _updated_at(memories, local_ids, local_id), superseded_by=new_ids[link]
                )
        known_summaries = {(s.text, s.created_at) for s in scope.list_summaries(limit=1_000_000)}
        for summary, (conv, incorporated, duration) in zip(summaries, summary_extra, strict=True):
            if (summary.text, summary.created_at) in known_summaries:
                continue
            seconds = float(duration) if isinstance(duration, int | float) and duration >= 0 else 0.0
            row_s = scope.insert_summary(
                NewSummary(
                    **{**summary.__dict__, "conversation_id": conv_ids.get(conv), "duration_seconds": seconds}
                ),
                now,
            )
            if incorporated:
                scope.mark_incorporated([row_s.id])
            counts["summaries"] += 1
        if base is not None and not scope.get_base_memory():
            scope.set_base_memory(base["text"], _ts(base.get("updated_at"), "base_memory.updated_at") or now)
            counts["base_memory"] = 1
        folder = memory.topics.folder if memory.user is not None else None
        for topic in topics:
            if folder is None:
                break
            if scope.get_topic(topic["slug"]) is not None and (folder / f"{topic['slug']}.md").exists():
                continue  # a row without its file (a person deleted it) is restored from the document
            saved = scope.save_topic(
                topic["slug"],
                topic["title"],
                now,
                line_count=topic["lines"],
                file_hash=hashlib.sha256(topic["markdown"].encode("utf-8")).hexdigest(),
            )
            scope.tag_topic(saved.id, sorted({new_ids[i] for i in topic["memories"] if i in new_ids}))
            files.append((topic["slug"], topic["markdown"]))
            counts["topics"] += 1
        known_index = {(r.at, r.topic, r.summary) for r in scope.list_topic_index(_MAX_INDEX)}
        fresh = [
            line for line in index_lines if (line["at"], line["topic"], line["summary"]) not in known_index
        ]
        keep = max(memory.settings.memory.topics.index_max_entries, len(known_index) + len(fresh))
        for line in fresh:
            scope.add_topic_index(
                conv_ids.get(line["conversation"]), line["at"], line["topic"], line["summary"], keep=keep
            )
        if memory.user is not None:
            for interface in interfaces:
                if memory.store.interface_user(interface) is None:
                    memory.store.map_interface(interface, memory.user.id, now)
        scope.audit("import", now, reason="import of an export document", detail=counts)
    if files and memory.user is not None:
        book = memory.topics
        with book.lock:
            for slug, markdown in files:
                write_atomic(book.folder / f"{slug}.md", markdown)
    if counts["messages"]:
        memory.recover_index()  # the imported turns are indexed by meaning in the background
    return counts


def _import_conversations(
    memory: Memory, conversations: list[dict[str, Any]], counts: dict[str, int], now: float
) -> tuple[dict[Any, int], dict[Any, int]]:
    """Create the document's conversations with their turns; document id -> store id, of both."""
    scope = memory.scope
    present = {(row["interface"], row["started_at"]): row["id"] for row in conversation_rows(scope)}
    ids: dict[Any, int] = {}
    msg_ids: dict[Any, int] = {}
    for conv in conversations:
        key = (conv["interface"], conv["started_at"])
        if key in present:
            ids[conv["id"]] = present[key]
            kept = scope.list_messages(present[key], limit=100_000)
            if len(kept) == len(conv["messages"]):  # the same turns: a memory's source is found again
                msg_ids.update(
                    (t["id"], m.id) for t, m in zip(conv["messages"], kept, strict=True) if _hashable(t["id"])
                )
            continue
        row = scope.start_conversation(conv["interface"], conv["started_at"], is_private=conv["is_private"])
        before: MessageRow | None = None
        summarized = []
        for turn in conv["messages"]:
            draft = MessageRow(
                0, row.id, turn["role"], turn["content"], turn["speaker"], turn["ref"], turn["created_at"]
            )
            before = scope.add_message(
                row.id,
                draft.role,
                draft.content,
                draft.created_at,
                speaker=draft.speaker,
                ref=draft.ref,
                index_text=turn_line(draft.content, draft.speaker, draft.role),
                window_text=window_keyword_text(before, draft),
            )
            if turn["summarized"]:
                summarized.append(before.id)
            if turn["intent"] is not None or turn["memory_created"]:
                scope.note_turn(
                    before.id, intent=turn["intent"], memory_created=turn["memory_created"] or None
                )
            if _hashable(turn["id"]):
                msg_ids[turn["id"]] = before.id
        if summarized:
            scope.mark_summarized(summarized)
        restore_conversation(scope, row.id, conv)
        if conv["working_state"] is not None:
            scope.put_working_state(row.id, json.dumps(conv["working_state"], ensure_ascii=False), now)
        ids[conv["id"]] = row.id
        present[key] = row.id
        counts["conversations"] += 1
        counts["messages"] += len(conv["messages"])
    return ids, msg_ids


def _hashable(value: Any) -> bool:
    """A document id usable as a reference: a whole number or a string."""
    return isinstance(value, int | str) and not isinstance(value, bool)


def _as_superseded(new: NewMemory) -> NewMemory:
    return NewMemory(**{**new.__dict__, "status": "superseded"})


def _updated_at(memories: list[NewMemory], local_ids: list[Any], local_id: Any) -> float:
    stamp = memories[local_ids.index(local_id)].updated_at
    assert stamp is not None
    return stamp


__all__ = ["FORMAT", "MAX_ITEMS", "VERSION", "export_user", "import_user"]
