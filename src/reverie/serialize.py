"""Plain-data views of memories and summaries, shared by the CLI, the HTTP API and the UI."""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from reverie.retrieve.search import RecentResults, SearchResults
from reverie.retrieve.timeutil import to_iso
from reverie.store.base import MemoryRow, MessageRow, SummaryRow


def _iso(ts: float | None, tz: tzinfo) -> str | None:
    return None if ts is None else to_iso(ts, tz)


def memory_dict(row: MemoryRow, tz: tzinfo, score: float | None = None) -> dict[str, Any]:
    """One memory as JSON-ready data (times ISO-8601 in ``tz``)."""
    data: dict[str, Any] = {
        "id": row.id,
        "kind": row.kind,
        "type": row.type,
        "key": row.key,
        "text": row.text,
        "source": row.source,
        "confidence": round(row.confidence, 4),
        "status": row.status,
        "superseded_by": row.superseded_by,
        "created_at": _iso(row.created_at, tz),
        "updated_at": _iso(row.updated_at, tz),
        "last_accessed": _iso(row.last_accessed, tz),
        "access_count": row.access_count,
        "reinforcement_count": row.reinforcement_count,
        "sensitive": row.sensitive,
        "category": row.category,  # a preference's (Saga): lights, climate, global; None for a fact
        "scope": row.scope if row.kind == "preference" else None,
        "source_message_id": row.source_message_id,  # the user turn it was learnt from (mem.db)
    }
    if score is not None:
        data["score"] = round(score, 4)
    return data


def summary_dict(row: SummaryRow, tz: tzinfo, score: float | None = None) -> dict[str, Any]:
    """One conversation summary as JSON-ready data."""
    data: dict[str, Any] = {
        "id": row.id,
        "conversation_id": row.conversation_id,
        "text": row.text,
        "topics": row.topics,
        "sentiment": row.sentiment,
        "created_at": to_iso(row.created_at, tz),
        "message_count": row.message_count,
    }
    if score is not None:
        data["score"] = round(score, 4)
    return data


def message_dict(row: MessageRow, tz: tzinfo, score: float | None = None) -> dict[str, Any]:
    """One conversation turn as JSON-ready data."""
    data: dict[str, Any] = {
        "id": row.id,
        "conversation_id": row.conversation_id,
        "role": row.role,
        "speaker": row.speaker,
        "content": row.content,
        "ref": row.ref,
        "created_at": to_iso(row.created_at, tz),
        "intent": row.intent,  # a user turn's, as the per-exchange gate read it
        "memory_created": row.memory_created,
    }
    if score is not None:
        data["score"] = round(score, 4)
    return data


def search_dict(results: SearchResults, tz: tzinfo) -> dict[str, Any]:
    """Search results grouped as facts, preferences, summaries and messages, with scores."""
    return {
        "query": results.query,
        "terms": results.terms,
        "facts": [memory_dict(hit.memory, tz, hit.score) for hit in results.facts],
        "preferences": [memory_dict(hit.memory, tz, hit.score) for hit in results.preferences],
        "summaries": [summary_dict(hit.summary, tz, hit.score) for hit in results.summaries],
        "messages": [message_dict(hit.message, tz, hit.score) for hit in results.messages],
    }


def recent_dict(results: RecentResults, tz: tzinfo) -> dict[str, Any]:
    """Recent memories and summaries as JSON-ready data."""
    return {
        "period": results.period,
        "since": to_iso(results.since, tz),
        "facts": [memory_dict(row, tz) for row in results.facts],
        "preferences": [memory_dict(row, tz) for row in results.preferences],
        "summaries": [summary_dict(row, tz) for row in results.summaries],
    }


__all__ = ["message_dict", "memory_dict", "recent_dict", "search_dict", "summary_dict"]
