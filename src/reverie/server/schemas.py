"""Request and response models of the HTTP API, and the serializers routes answer with.

Every route that returns a memory, a summary or a user goes through :func:`memory_out`,
:func:`summary_out` or :func:`user_out`. The first two wrap :mod:`reverie.serialize`, which
the CLI uses too, so both speak the same fields and timestamps (ISO-8601 in the memory's
time zone, with its UTC offset).
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from reverie.retrieve.search import RecentResults, SearchResults
from reverie.retrieve.timeutil import to_iso
from reverie.serialize import memory_dict, recent_dict, search_dict, summary_dict
from reverie.store.base import MemoryRow, SummaryRow, User

_WHEN = "2026-01-15T18:00:00+00:00"


class _In(BaseModel):
    """A request body: unknown fields are refused so typos do not pass silently."""

    model_config = ConfigDict(extra="forbid")


# responses -----------------------------------------------------------------------------
class ErrorOut(BaseModel):
    """Every error answer: a machine code and a sentence saying what to do."""

    error: str = Field(examples=["not_found"])
    detail: str = Field(examples=["No memory with id 42"])
    reason: str | None = Field(
        default=None,
        description="Which guardrail refused the text (only for error 'rejected')",
        examples=["instruction"],
    )


class MemoryOut(BaseModel):
    """One fact or preference as stored."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": 7,
                    "kind": "fact",
                    "type": "general",
                    "key": None,
                    "text": "User is vegetarian",
                    "source": "explicit",
                    "confidence": 1.0,
                    "status": "active",
                    "superseded_by": None,
                    "created_at": _WHEN,
                    "updated_at": _WHEN,
                    "last_accessed": None,
                    "access_count": 0,
                    "reinforcement_count": 1,
                    "score": None,
                }
            ]
        }
    )

    id: int
    kind: Literal["fact", "preference"]
    type: str
    key: str | None = Field(description="Normalized key; a new fact with the same key replaces the old one")
    text: str
    source: Literal["explicit", "inferred"]
    confidence: float
    status: Literal["active", "superseded", "deleted"]
    superseded_by: int | None
    created_at: str = Field(description="ISO-8601 in the memory's time zone")
    updated_at: str
    last_accessed: str | None
    access_count: int
    reinforcement_count: int
    category: str | None = Field(
        default=None, description="a preference's category (lights, climate, global); null for a fact"
    )
    scope: str | None = Field(
        default=None, description="a preference's scope: default, specific (a time of its own) or always"
    )
    source_message_id: int | None = Field(
        default=None, description="the user turn this memory was learnt from, while that turn is kept"
    )
    sensitive: bool = Field(
        default=False, description="a personal-sensitive detail (health, finances, identity number)"
    )
    score: float | None = Field(
        default=None, description="Search relevance (higher is better); null outside search"
    )


class SummaryOut(BaseModel):
    """A summary of one past conversation."""

    id: int
    conversation_id: int | None
    text: str = Field(examples=["Planned a trip to Lisbon in May"])
    topics: list[str] = Field(examples=[["travel", "lisbon"]])
    sentiment: str
    created_at: str = Field(examples=[_WHEN])
    message_count: int
    score: float | None = None


class UserOut(BaseModel):
    """A person whose memories Reverie keeps."""

    id: int
    name: str = Field(examples=["alice"])
    display_name: str = Field(examples=["Alice"])
    is_admin: bool
    created_at: str = Field(examples=[_WHEN])


class HealthOut(BaseModel):
    """The server is up, which version it runs and which schema its database has."""

    status: Literal["ok", "degraded"] = "ok"
    version: str = Field(examples=["0.1.0"])
    schema_version: int = Field(examples=[1])
    checks: dict[str, Any] = Field(
        default_factory=dict,
        description="store, embedder, llm (upstream reachable?), extractor (which one learns: "
        "'llm: provider/model (from [llm])' or 'rules (offline)') and workers (alive?); admins only",
    )


class MemoryListOut(BaseModel):
    """One page of memories."""

    memories: list[MemoryOut]
    limit: int
    offset: int


class PreferenceListOut(BaseModel):
    """The user's preferences, one per category."""

    preferences: list[MemoryOut]


class RememberOut(BaseModel):
    """What a remember or prefer did, the memory it left, and any rows it replaced."""

    status: Literal["stored", "reinforced", "updated", "superseded"] = Field(examples=["stored"])
    memory: MemoryOut
    replaced: list[MemoryOut] = Field(default_factory=list)


class ForgetOut(BaseModel):
    """The memories deleted for good."""

    forgotten: list[MemoryOut]


class MessageOut(BaseModel):
    """One turn of a past conversation."""

    id: int
    conversation_id: int
    role: str = Field(examples=["user"])
    speaker: str | None = Field(examples=["Caroline"])
    content: str = Field(examples=["I went to the LGBTQ support group yesterday."])
    ref: str | None = Field(examples=["D1:3"])
    created_at: str = Field(examples=[_WHEN])
    intent: str | None = Field(
        default=None,
        description="a user turn's intent as read when recorded: a power phrase's action (remember, prefer,"
        " forget ...), or statement, question, command, greeting, chat",
        examples=["statement"],
    )
    memory_created: bool = Field(default=False, description="a memory was learnt from this user turn")
    score: float | None = None


class SearchOut(BaseModel):
    """What a search found, grouped by kind, best first."""

    query: str = Field(examples=["daughter name"])
    terms: list[str] = Field(examples=[["daughter", "name"]])
    facts: list[MemoryOut]
    preferences: list[MemoryOut]
    summaries: list[SummaryOut]
    messages: list[MessageOut] = Field(default_factory=list)
    total: int


class RecentOut(BaseModel):
    """What was learned or discussed within a period, plus the memory tool's text."""

    period: str = Field(examples=["24h"])
    since: str = Field(examples=[_WHEN])
    facts: list[MemoryOut]
    preferences: list[MemoryOut]
    summaries: list[SummaryOut]
    text: str = Field(examples=["RECENT FACTS:\n- User is vegetarian (explicit, 2 hours ago)"])


class ContextOut(BaseModel):
    """The remembered-data block for a system prompt and its size against the budget."""

    text: str
    tokens: int = Field(examples=[120])
    budget: int = Field(examples=[800])


class ToolOut(BaseModel):
    """The memory tool's answer: ``result`` is JSON data, or text for ``recent``."""

    ok: bool
    action: str = Field(examples=["remember"])
    result: dict[str, Any] | str | None = Field(examples=[{"status": "stored", "fact": "User is vegetarian"}])


class ToolSchemaOut(BaseModel):
    """OpenAI-style function schemas and the DAWN prompt text for the memory tool."""

    functions: list[dict[str, Any]]
    prompt: str


class ObserveOut(BaseModel):
    """What a power phrase in an utterance did, and a sentence the assistant can say."""

    action: str = Field(examples=["remembered"])
    reply: str = Field(examples=["I'll remember that."])
    handled: bool
    memories: list[MemoryOut]


class ImportOut(BaseModel):
    """How much an import added (and skipped as already present)."""

    memories: int
    skipped: int
    summaries: int
    base_memory: int
    conversations: int = 0
    messages: int = 0
    topics: int = 0
    documents: int = 0


class UserListOut(BaseModel):
    """Every user in the database."""

    users: list[UserOut]


# requests ------------------------------------------------------------------------------
class RememberIn(_In):
    """A fact to keep."""

    text: str = Field(examples=["User's daughter is called Mia"])
    key: str | None = Field(
        default=None,
        description="Optional key: setting it again replaces the fact",
        examples=["daughter_name"],
    )
    type: str = Field(default="general", examples=["family"])
    sensitive: bool = Field(
        default=False,
        description="The user explicitly asks to keep it as sensitive (a password, an ID number): "
        "the guard then lets a secret through and the memory is flagged sensitive",
    )


class EditIn(_In):
    """The corrected text of a memory."""

    text: str = Field(examples=["User's daughter is called Mia Rose"])


class PreferIn(_In):
    """The value of a preference, and optionally its key and scope (Saga)."""

    value: str = Field(examples=["short answers"])
    key: str | None = Field(
        default=None,
        examples=["color"],
        description="what it sets in the category (color, temperature); read from the value when left out",
    )
    scope: Literal["default", "specific", "always"] = Field(
        default="default", description="specific: it holds at a time or place of its own (with key)"
    )


class ForgetIn(_In):
    """Keywords naming what to forget; memories matching all of them are deleted."""

    query: str = Field(examples=["vegetarian"])


class ForgetAllIn(_In):
    """Forget everything: ``confirm`` must be the word DELETE."""

    confirm: str = Field(default="", examples=["DELETE"])


class ObserveIn(_In):
    """Something the user said."""

    utterance: str = Field(examples=["Remember that my sister lives in Porto"])


class UserIn(_In):
    """A new user."""

    name: str = Field(examples=["alice"], description="1-64 letters, digits, '.', '_', '-' or '@'")
    display_name: str = Field(default="", examples=["Alice"])


class ToolCommand(BaseModel):
    """A DAWN memory command (documentation only: the route reads the raw JSON itself)."""

    model_config = ConfigDict(extra="allow")

    device: Literal["memory"] = "memory"
    action: Literal["search", "recent", "remember", "forget"]
    value: str = ""
    date: str | None = Field(default=None, description="search only: one day, YYYY-MM-DD")
    date_from: str | None = Field(default=None, description="search only: YYYY-MM-DD")
    date_to: str | None = Field(default=None, description="search only: YYYY-MM-DD (inclusive)")


# serializers ---------------------------------------------------------------------------
def memory_out(row: MemoryRow, tz: tzinfo, score: float | None = None) -> MemoryOut:
    """Serialize one memory row, timestamps in ``tz``."""
    return MemoryOut.model_validate(memory_dict(row, tz, score))


def summary_out(row: SummaryRow, tz: tzinfo, score: float | None = None) -> SummaryOut:
    """Serialize one conversation summary, timestamps in ``tz``."""
    return SummaryOut.model_validate(summary_dict(row, tz, score))


def search_out(results: SearchResults, tz: tzinfo) -> SearchOut:
    """Serialize search results, grouped, each item with its score."""
    return SearchOut.model_validate({**search_dict(results, tz), "total": results.total})


def recent_out(results: RecentResults, tz: tzinfo, text: str) -> RecentOut:
    """Serialize a recent listing together with its text rendering."""
    return RecentOut.model_validate({**recent_dict(results, tz), "text": text})


def user_out(user: User, tz: tzinfo) -> UserOut:
    """Serialize one user."""
    return UserOut(
        id=user.id,
        name=user.name,
        display_name=user.display_name,
        is_admin=user.is_admin,
        created_at=to_iso(user.created_at, tz),
    )


__all__ = [
    "ContextOut",
    "EditIn",
    "ErrorOut",
    "ForgetAllIn",
    "ForgetIn",
    "ForgetOut",
    "HealthOut",
    "ImportOut",
    "MemoryListOut",
    "MemoryOut",
    "ObserveIn",
    "ObserveOut",
    "PreferIn",
    "PreferenceListOut",
    "RecentOut",
    "RememberIn",
    "RememberOut",
    "SearchOut",
    "SummaryOut",
    "ToolCommand",
    "ToolOut",
    "ToolSchemaOut",
    "UserIn",
    "UserListOut",
    "UserOut",
    "memory_out",
    "recent_out",
    "search_out",
    "summary_out",
    "user_out",
]
