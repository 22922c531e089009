"""An export document's items, each checked and refused with where it stands before anything is written."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from reverie.conversations import MAX_MESSAGE_BYTES, ROLES
from reverie.errors import InvalidInput, TooLarge
from reverie.extract.guard import ensure_memory_text
from reverie.retrieve.timeutil import LATEST
from reverie.store.base import KINDS, SOURCES, STATUSES, NewMemory, NewSummary
from reverie.store.rows import CONSOLIDATION_STATES
from reverie.text import normalize_key
from reverie.topics import parse_topic, slugify

_EARLIEST = 0.0  # exports of stores moved from other tools may hold times before 2000
_PREFERENCE_SCOPES = ("default", "specific", "always")
_MAX_COUNT = 2**31 - 1  # a count beyond this is not a count: refused, it would not fit a column


def check_time(value: Any, field: str, required: bool = True) -> float | None:
    """An ISO-8601 time string as a timestamp (1970 to 2099); None only where not required."""
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


# The guard's limits for imported prose: summaries and the base memory are longer than facts.
_MAX_SUMMARY_BYTES = 16 * 1024
MAX_BASE_BYTES = 64 * 1024
_HINT = 'mark it "sensitive": true (the user asked to keep it as sensitive)'


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_COUNT


def check_memory(item: Any, index: int) -> NewMemory:
    """One item of "memories" as a memory to insert."""
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
        created_at=check_time(item.get("created_at"), f"{where}.created_at"),
        updated_at=check_time(item.get("updated_at"), f"{where}.updated_at"),
        last_accessed=check_time(item.get("last_accessed"), f"{where}.last_accessed", required=False),
        access_count=counts[0],
        reinforcement_count=counts[1],
        status=status,
        sensitive=bool(item.get("sensitive", False)),
    )


def _stored_key(key: str) -> str | None:
    """A key as the store keeps it: snake_case words, or a claim's "owner.attribute" (dot kept)."""
    parts = [normalize_key(part) for part in key.split(".")]
    return ".".join(part for part in parts if part) or None


def check_summary(item: Any, index: int) -> NewSummary:
    """One item of "summaries" as a summary to insert."""
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
        created_at=check_time(item.get("created_at"), f"{where}.created_at"),
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
        "created_at": check_time(item.get("created_at"), f"{where}.created_at"),
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


def check_conversation(item: Any, index: int) -> dict[str, Any]:
    """One item of "conversations", its turns and working state checked."""
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
    started = check_time(item.get("started_at"), f"{where}.started_at")
    return {
        "id": item.get("id", index + 1),
        "interface": interface,
        "title": title,
        "started_at": started,
        "last_activity": check_time(
            item.get("last_activity", item.get("started_at")), f"{where}.last_activity"
        ),
        "ended_at": check_time(item.get("ended_at"), f"{where}.ended_at", required=False),
        "is_private": item.get("is_private") is True,
        # A lease held by a worker of the exporting machine means nothing here: queued again.
        "consolidation_state": "pending" if state == "running" else state,
        "consolidated_at": check_time(
            item.get("consolidated_at"), f"{where}.consolidated_at", required=False
        ),
        "topic": _optional_text(item.get("topic"), f"{where}.topic") or None,
        "working_state": _state(item.get("working_state"), f"{where}.working_state"),
        "messages": [_turn(turn, f"{where}.messages[{n}]") for n, turn in enumerate(messages)],
    }


def check_topic(item: Any, index: int) -> dict[str, Any]:
    """One item of "topics": a slug, its Markdown file and the memories it holds."""
    where = f"topics[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object")
    slug, markdown, ids = item.get("slug"), item.get("markdown"), item.get("memories", [])
    if not isinstance(slug, str) or not slug or slugify(slug) != slug:
        raise InvalidInput(
            f"{where}.slug must be a topic slug (lower-case words joined by '-'), got {slug!r}"
        )
    if not isinstance(markdown, str) or len(markdown.encode("utf-8", "replace")) > MAX_BASE_BYTES:
        raise InvalidInput(f"{where}.markdown must be the topic file's text (at most {MAX_BASE_BYTES} bytes)")
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


def check_index_line(item: Any, index: int) -> dict[str, Any]:
    """One line of the recent-topics index."""
    where = f"topic_index[{index}]"
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object")
    topic = _optional_text(item.get("topic"), f"{where}.topic")
    summary = _optional_text(item.get("summary"), f"{where}.summary", _MAX_SUMMARY_BYTES)
    for text, part in ((topic, "topic"), (summary, "summary")):
        if text.strip():
            _guarded(text, f"{where}.{part}", _MAX_SUMMARY_BYTES)
    return {
        "at": check_time(item.get("at"), f"{where}.at"),
        "topic": topic,
        "summary": summary,
        "conversation": item.get("conversation"),
    }


def check_list(document: Mapping[str, Any], name: str) -> list[Any]:
    """The document's list under ``name`` (empty where absent)."""
    value = document.get(name, [])
    if not isinstance(value, list):
        raise InvalidInput(f"{name} must be a list")
    return value


__all__ = [
    "MAX_BASE_BYTES",
    "check_conversation",
    "check_index_line",
    "check_list",
    "check_memory",
    "check_summary",
    "check_time",
    "check_topic",
]
