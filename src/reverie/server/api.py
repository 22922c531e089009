"""The REST API under ``/api/v1``: one thin route per :class:`~reverie.memory.Memory` call."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import JSONResponse

from reverie.memory import Memory, RememberResult
from reverie.server.deps import MemoryDep, json_body
from reverie.server.schemas import (
    ContextOut,
    EditIn,
    ErrorOut,
    ForgetAllIn,
    ForgetIn,
    ForgetOut,
    ImportOut,
    MemoryListOut,
    MemoryOut,
    ObserveIn,
    ObserveOut,
    PreferenceListOut,
    PreferIn,
    RecentOut,
    RememberIn,
    RememberOut,
    SearchOut,
    ToolCommand,
    ToolOut,
    ToolSchemaOut,
    memory_out,
    recent_out,
    search_out,
)
from reverie.store.base import Kind, Source, Status
from reverie.tools.memory_tool import ALL_FUNCTION_SCHEMAS, TOOL_PROMPT, recent_text, run_tool

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "Invalid input (bad date, empty text, malformed JSON ...)"},
    404: {"model": ErrorOut, "description": "No such user or memory (for this user)"},
    409: {"model": ErrorOut, "description": "Conflict, e.g. a guest session cannot store anything"},
    413: {"model": ErrorOut, "description": "Request body over 1 MiB"},
    422: {"model": ErrorOut, "description": "Refused by a guardrail (error 'rejected') or invalid fields"},
}
_SQLITE_MAX_ID = 2**63 - 1

api_router = APIRouter(prefix="/api/v1", responses=_ERRORS)

MemoryId = Annotated[int, Path(ge=1, le=_SQLITE_MAX_ID, description="The memory's id")]


def _remember_out(memory: Memory, result: RememberResult) -> RememberOut:
    return RememberOut(
        status=result.status,
        memory=memory_out(result.memory, memory.tz),
        replaced=[memory_out(old, memory.tz) for old in result.replaced],
    )


# memories ------------------------------------------------------------------------------
@api_router.get("/memories", response_model=MemoryListOut, tags=["memories"])
def list_memories(
    memory: MemoryDep,
    kind: Kind | None = None,
    status: Status | Literal["all"] = "active",
    source: Source | None = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0,
    order: Literal["confidence", "recent", "id"] = "recent",
) -> MemoryListOut:
    """List facts and preferences, filtered by kind, status and source, one page at a time."""
    rows = memory.list_memories(
        kind=kind, status=status, source=source, limit=limit, offset=offset, order=order
    )
    return MemoryListOut(memories=[memory_out(row, memory.tz) for row in rows], limit=limit, offset=offset)


@api_router.post("/memories", response_model=RememberOut, status_code=201, tags=["memories"])
def remember(memory: MemoryDep, body: RememberIn) -> RememberOut:
    """Keep a fact. A near-identical fact is reinforced; a fact with a known key supersedes the old one."""
    result = memory.remember_words(body.text, body.key, type=body.type, sensitive=body.sensitive)
    return _remember_out(memory, result)


@api_router.get("/memories/{memory_id}", response_model=MemoryOut, tags=["memories"])
def get_memory(memory: MemoryDep, memory_id: MemoryId) -> MemoryOut:
    """One memory by id (404 if it is not this user's)."""
    return memory_out(memory.get(memory_id), memory.tz)


@api_router.patch("/memories/{memory_id}", response_model=MemoryOut, tags=["memories"])
def edit_memory(memory: MemoryDep, memory_id: MemoryId, body: EditIn) -> MemoryOut:
    """Correct a memory's text; a user's correction makes it explicit."""
    return memory_out(memory.edit(memory_id, body.text), memory.tz)


@api_router.delete("/memories/{memory_id}", response_model=MemoryOut, tags=["memories"])
def delete_memory(memory: MemoryDep, memory_id: MemoryId) -> MemoryOut:
    """Delete one memory for good and return what it was."""
    return memory_out(memory.delete(memory_id), memory.tz)


# preferences ---------------------------------------------------------------------------
@api_router.put("/preferences/{category}", response_model=RememberOut, tags=["preferences"])
def prefer(
    memory: MemoryDep,
    category: Annotated[str, Path(description="e.g. verbosity, units, lights", examples=["verbosity"])],
    body: PreferIn,
) -> RememberOut:
    """Set a preference of a category (its key given or read from the value); a new value replaces it."""
    if body.key:
        result = memory.save_preference(category, body.key, body.value, scope=body.scope)
    else:
        result = memory.prefer(category, body.value)
    return _remember_out(memory, result)


@api_router.get("/preferences", response_model=PreferenceListOut, tags=["preferences"])
def list_preferences(
    memory: MemoryDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
    offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0,
) -> PreferenceListOut:
    """The user's active preferences, strongest first."""
    rows = memory.list_memories(kind="preference", order="confidence", limit=limit, offset=offset)
    return PreferenceListOut(preferences=[memory_out(row, memory.tz) for row in rows])


# forgetting ----------------------------------------------------------------------------
@api_router.post("/forget", response_model=ForgetOut, tags=["forgetting"])
def forget(memory: MemoryDep, body: ForgetIn) -> ForgetOut:
    """Delete the facts and preferences that match every keyword of the query."""
    return ForgetOut(forgotten=[memory_out(row, memory.tz) for row in memory.forget(body.query)])


@api_router.post("/forget-all", response_model=dict[str, int], tags=["forgetting"])
def forget_all(memory: MemoryDep, body: ForgetAllIn) -> dict[str, int]:
    """Delete everything kept about the user; ``confirm`` must be exactly DELETE (else 400, nothing goes)."""
    return memory.forget_all(body.confirm)


# reading -------------------------------------------------------------------------------
@api_router.get("/search", response_model=SearchOut, tags=["reading"])
def search(
    memory: MemoryDep,
    q: Annotated[str, Query(description="Keywords; may be empty when a date is given")] = "",
    date: Annotated[str | None, Query(description="One day, YYYY-MM-DD", examples=["2026-01-15"])] = None,
    date_from: Annotated[str | None, Query(description="Start of a range, YYYY-MM-DD")] = None,
    date_to: Annotated[str | None, Query(description="End of a range (inclusive), YYYY-MM-DD")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 10,
    scope: Annotated[
        Literal["memories", "messages", "all"],
        Query(description="memories (facts, preferences, summaries), messages (past turns), or all"),
    ] = "memories",
) -> SearchOut:
    """Search memories (and past conversation turns) by keywords, meaning and dates, best first."""
    found = memory.search(q, date=date, date_from=date_from, date_to=date_to, limit=limit, scope=scope)
    return search_out(found, memory.tz)


@api_router.get("/recent", response_model=RecentOut, tags=["reading"])
def recent(
    memory: MemoryDep,
    period: Annotated[str, Query(description="30m, 24h, 7d, 2w ...", examples=["24h"])] = "7d",
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> RecentOut:
    """What was learned or discussed within a period, with the memory tool's text rendering."""
    found = memory.recent(period, limit=limit)
    return recent_out(found, memory.tz, recent_text(found, memory.clock()))


@api_router.get("/context", response_model=ContextOut, tags=["reading"])
def context(
    memory: MemoryDep,
    q: Annotated[str | None, Query(description="The user's message, to add the facts relevant to it")] = None,
) -> ContextOut:
    """The remembered-data block for an assistant's system prompt, within the token budget."""
    block = memory.context(q or None)
    return ContextOut(text=block.text, tokens=block.tokens, budget=block.budget)


@api_router.get("/stats", response_model=dict[str, Any], tags=["reading"])
def stats(memory: MemoryDep) -> dict[str, Any]:
    """Counts per kind and source, and the context tokens used against the budget."""
    return memory.stats()


# assistant protocols -------------------------------------------------------------------
_TOOL_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": ToolCommand.model_json_schema(),
                "examples": {
                    "remember": {
                        "value": {"device": "memory", "action": "remember", "value": "User is vegetarian"}
                    },
                    "search": {"value": {"device": "memory", "action": "search", "value": "diet"}},
                    "search by date": {
                        "value": {"device": "memory", "action": "search", "value": "", "date": "2026-01-15"}
                    },
                    "recent": {"value": {"device": "memory", "action": "recent", "value": "24h"}},
                    "forget": {"value": {"device": "memory", "action": "forget", "value": "vegetarian"}},
                },
            }
        },
    }
}


@api_router.post("/tool", response_model=ToolOut, tags=["assistant"], openapi_extra=_TOOL_BODY)
def tool(memory: MemoryDep, command: Annotated[Any, Depends(json_body)]) -> ToolOut:
    """Run one DAWN memory command. Always 200: a bad command gives ``ok: false`` and a structured error."""
    # A JSON value that is not an object goes through run_tool's own check for its error message.
    parsed = command if isinstance(command, dict) else json.dumps(command)
    return ToolOut(**run_tool(memory, parsed).to_dict())


@api_router.get("/tool/schema", response_model=ToolSchemaOut, tags=["assistant"])
def tool_schema() -> ToolSchemaOut:
    """OpenAI-style function schemas for the memory tool, and the DAWN prompt text that explains it."""
    return ToolSchemaOut(functions=ALL_FUNCTION_SCHEMAS, prompt=TOOL_PROMPT)


@api_router.post("/observe", response_model=ObserveOut, tags=["assistant"])
def observe(memory: MemoryDep, body: ObserveIn) -> ObserveOut:
    """Act on a power phrase ("remember that ...", "I prefer ...", "forget ...") in what the user said."""
    seen = memory.observe(body.utterance)
    return ObserveOut(
        action=seen.action,
        reply=seen.reply,
        handled=seen.handled,
        memories=[memory_out(row, memory.tz) for row in seen.memories],
    )


# portability ---------------------------------------------------------------------------
def _attachment(filename: str) -> str:
    if filename.isascii() and '"' not in filename:
        return f'attachment; filename="{filename}"'
    fallback = "".join(c if c.isascii() and c not in '"\\' else "_" for c in filename)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename)}"


@api_router.get(
    "/export",
    tags=["portability"],
    response_class=JSONResponse,
    responses={
        200: {
            "description": "The export document, as a file download",
            "content": {
                "application/json": {
                    "example": {
                        "format": "reverie-export",
                        "version": 1,
                        "user": "alice",
                        "memories": [],
                        "summaries": [],
                        "base_memory": None,
                    }
                }
            },
        }
    },
)
def export(memory: MemoryDep) -> JSONResponse:
    """Everything kept about the user as one JSON document (all statuses, summaries, base memory)."""
    document = memory.export()
    name = document.get("user") or "guest"
    headers = {
        "Content-Disposition": _attachment(f"reverie-export-{name}.json"),
        "Cache-Control": "no-store",  # a whole life's memories: no copy in any browser or proxy cache
    }
    return JSONResponse(document, headers=headers)


@api_router.post("/import", response_model=ImportOut, tags=["portability"])
def import_(
    memory: MemoryDep,
    document: Annotated[
        dict[str, Any],
        Body(
            description="An export document, as GET /api/v1/export returns it",
            examples=[
                {
                    "format": "reverie-export",
                    "version": 2,
                    "user": "alice",
                    "settings": {"display_name": "Alice", "kind": "person", "label": "", "interfaces": []},
                    "memories": [],
                    "summaries": [],
                    "base_memory": None,
                    "conversations": [],
                    "topics": [],
                    "topic_index": [],
                    "documents": [],
                }
            ],
        ),
    ],
) -> ImportOut:
    """Load an export document into this user's memory: all or nothing; rows already present are skipped.

    The body may be 1 MiB plus the user's document quota in base64; documents past
    ``rag.user_quota_mb`` or ``rag.max_document_size_mb`` refuse the whole import (413).
    """
    return ImportOut(**memory.import_(document))


__all__ = ["api_router"]
