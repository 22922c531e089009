"""Export everything kept about a user as one JSON document, and import it back."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from reverie.errors import InvalidInput, TooLarge
from reverie.extract.guard import ensure_memory_text
from reverie.extract.merge import find_twin, supersede_fact
from reverie.retrieve.timeutil import LATEST, local_datetime
from reverie.store.base import KINDS, SOURCES, STATUSES, MemoryFilter, NewMemory, NewSummary
from reverie.text import normalize_key

if TYPE_CHECKING:
    from reverie.memory import Memory

FORMAT = "reverie-export"
VERSION = 1
_PAGE = 1000
_EARLIEST = 0.0  # exports of stores moved from other tools may hold times before 2000


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


def export_user(memory: Memory) -> dict[str, Any]:
    """All memories (every status), summaries and the base memory of ``memory``'s user.

    Ids in the document are the document's own (1, 2, 3 ... in store order), so that an
    export imported into an empty store exports to the same document.
    """
    scope = memory.scope
    rows = []
    offset = 0
    while True:
        page = scope.list_memories(MemoryFilter(statuses=STATUSES, limit=_PAGE, offset=offset, order="id"))
        rows += page
        offset += _PAGE
        if len(page) < _PAGE:
            break
    local = {row.id: index for index, row in enumerate(rows, start=1)}
    summaries = []
    offset = 0
    while True:
        page_s = scope.list_summaries(limit=_PAGE, offset=offset)
        summaries += page_s
        offset += _PAGE
        if len(page_s) < _PAGE:
            break
    base = scope.get_base_memory()
    return {
        "format": FORMAT,
        "version": VERSION,
        "user": memory.user.name if memory.user else None,
        "memories": [
            {
                "id": local[row.id],
                "kind": row.kind,
                "type": row.type,
                "key": row.key,
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
            }
            for s in sorted(summaries, key=lambda s: (s.created_at, s.id))
        ],
        "base_memory": {"text": base[0], "updated_at": _iso(base[1])} if base else None,
    }


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
        key=normalize_key(key) or None if key else None,
        created_at=_ts(item.get("created_at"), f"{where}.created_at"),
        updated_at=_ts(item.get("updated_at"), f"{where}.updated_at"),
        last_accessed=_ts(item.get("last_accessed"), f"{where}.last_accessed", required=False),
        access_count=counts[0],
        reinforcement_count=counts[1],
        status=status,
        sensitive=bool(item.get("sensitive", False)),
    )


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


def import_user(memory: Memory, document: Any) -> dict[str, int]:
    """Validate a whole export document, then load it in one transaction (nothing on error).

    Memories already present with the same kind, key, text and status are skipped, so
    importing the same document twice adds nothing. An imported active memory whose key is
    already active is kept, but as superseded by the current one. An imported active fact that
    the merge policy finds repeated by a kept fact is skipped; one that updates or contradicts a
    kept fact is kept too, the newer of the two (by last update) active and the other superseded.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f'Not a Reverie export: expected an object with "format": "{FORMAT}"')
    if document.get("version") != VERSION:
        raise InvalidInput(
            f"Unsupported export version {document.get('version')!r}; this Reverie reads {VERSION}"
        )
    raw_memories, raw_summaries = document.get("memories", []), document.get("summaries", [])
    if not isinstance(raw_memories, list) or not isinstance(raw_summaries, list):
        raise InvalidInput("memories and summaries must be lists")
    if len(raw_memories) + len(raw_summaries) > MAX_ITEMS:
        raise TooLarge(f"The document holds more than {MAX_ITEMS} memories and summaries; import it in parts")
    memories = [_memory(item, i) for i, item in enumerate(raw_memories)]
    links = [item.get("superseded_by") for item in raw_memories]
    local_ids = [item.get("id", i + 1) for i, item in enumerate(raw_memories)]
    summaries = [_summary(item, i) for i, item in enumerate(raw_summaries)]
    base = document.get("base_memory")
    if base is not None and (not isinstance(base, dict) or not isinstance(base.get("text"), str)):
        raise InvalidInput("base_memory must be null or an object with a text")
    if base is not None and base["text"].strip():
        try:
            base = {**base, "text": ensure_memory_text(base["text"], max_bytes=_MAX_BASE_BYTES)}
        except InvalidInput as exc:
            raise InvalidInput(f"base_memory: {exc}") from exc
    scope, now = memory.scope, memory.clock()
    counts = {"memories": 0, "skipped": 0, "summaries": 0, "base_memory": 0}
    with scope.transaction():
        existing = scope.list_memories(MemoryFilter(statuses=STATUSES, limit=1_000_000, order="id"))
        seen = {(m.kind, m.key, m.text, m.status) for m in existing}
        new_ids: dict[Any, int] = {}
        for local_id, new in zip(local_ids, memories, strict=True):
            if (new.kind, new.key, new.text, new.status) in seen:
                counts["skipped"] += 1
                continue
            clash = (
                scope.find_active_by_key(new.kind, new.key) if new.key and new.status == "active" else None
            )
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
        for summary in summaries:
            if (summary.text, summary.created_at) not in known_summaries:
                scope.insert_summary(summary, now)
                counts["summaries"] += 1
        if base is not None and not scope.get_base_memory():
            scope.set_base_memory(base["text"], _ts(base.get("updated_at"), "base_memory.updated_at") or now)
            counts["base_memory"] = 1
        scope.audit("import", now, reason="import of an export document", detail=counts)
    return counts


def _as_superseded(new: NewMemory) -> NewMemory:
    return NewMemory(**{**new.__dict__, "status": "superseded"})


def _updated_at(memories: list[NewMemory], local_ids: list[Any], local_id: Any) -> float:
    stamp = memories[local_ids.index(local_id)].updated_at
    assert stamp is not None
    return stamp


__all__ = ["FORMAT", "MAX_ITEMS", "VERSION", "export_user", "import_user"]
