"""Export: everything kept about a user as one JSON document (the format is told in the package)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC
from typing import TYPE_CHECKING, Any

from reverie.portability.documents import export_documents
from reverie.retrieve.timeutil import local_datetime
from reverie.store.base import STATUSES, MemoryFilter
from reverie.topics import TopicBook

if TYPE_CHECKING:
    from reverie.core import MemoryCore

FORMAT = "reverie-export"
VERSION = 2
_PAGE = 1000
_MAX_INDEX = 1_000_000


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return local_datetime(ts, UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _pages(read: Any) -> list[Any]:
    rows: list[Any] = []
    offset = 0
    while True:
        page = read(offset)
        rows += page
        offset += _PAGE
        if len(page) < _PAGE:
            return rows


def export_user(memory: MemoryCore) -> dict[str, Any]:
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
    conversations = scope.conversation_rows()
    local_conv = {row["id"]: index for index, row in enumerate(conversations, start=1)}
    turns: dict[int, list[dict[str, Any]]] = {}
    local_msg: dict[int, int] = {}
    for message in scope.message_rows():
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
        "documents": export_documents(memory),
    }


def _settings(memory: MemoryCore) -> dict[str, Any]:
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


def _topics(memory: MemoryCore, local: Mapping[int, int]) -> list[dict[str, Any]]:
    if memory.user is None:
        return []
    scope, book = memory.scope, TopicBook(memory)
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


__all__ = ["FORMAT", "VERSION", "export_user"]
