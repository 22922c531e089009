"""Conversations over HTTP: start, post turns, end, mark private, list, consolidate now."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from reverie.conversations import Turn
from reverie.memory import Memory
from reverie.retrieve.timeutil import EARLIEST, LATEST, to_iso
from reverie.serialize import message_dict
from reverie.server.deps import AdminDep, MemoryDep, RootMemory
from reverie.server.schemas import ErrorOut, MessageOut
from reverie.store.base import ConversationRow

conversations_router = APIRouter(
    prefix="/api/v1",
    tags=["conversations"],
    responses={
        400: {"model": ErrorOut, "description": "Invalid input"},
        404: {"model": ErrorOut, "description": "No such conversation (for this user)"},
        409: {"model": ErrorOut, "description": "A guest session stores nothing"},
    },
)
ConversationId = Annotated[int, Path(ge=1, le=2**63 - 1, description="The conversation's id")]


class ConversationIn(BaseModel):
    """A conversation to start."""

    interface: str = Field(default="api", min_length=1, max_length=100, examples=["kitchen_speaker"])
    private: bool = Field(default=False, description="Private: never extracted, out of episodic search")


class ConversationOut(BaseModel):
    """A conversation and its consolidation state."""

    id: int
    interface: str
    started_at: str
    last_activity: str
    ended_at: str | None
    private: bool
    state: str = Field(description="open, pending, running, done, failed or skipped")
    attempts: int
    last_error: str | None


class ConversationDetailOut(ConversationOut):
    """A conversation with its latest turns."""

    messages: list[MessageOut]


class MessageIn(BaseModel):
    """One turn to store."""

    role: str = Field(examples=["user"], description="user, assistant, system or tool")
    content: str = Field(examples=["I'm allergic to peanuts"])
    speaker: str | None = Field(default=None, max_length=100, examples=["Ana"])
    ref: str | None = Field(default=None, max_length=200, description="Your own reference for the turn")
    at: float | None = Field(
        default=None, ge=EARLIEST, lt=LATEST, description="When it was said (epoch seconds, 2000-2099)"
    )


class MessagesIn(BaseModel):
    """Turns to store in order."""

    messages: list[MessageIn] = Field(min_length=1, max_length=1000)


class PrivateIn(BaseModel):
    """The private flag."""

    private: bool


class JobOut(BaseModel):
    """One consolidation job's outcome."""

    conversation_id: int
    state: str
    stored: int
    reinforced: int
    superseded: int
    preferences: int
    rejected: int
    error: str


class ConsolidateOut(BaseModel):
    """What a consolidation run did."""

    ended_idle: int
    jobs: list[JobOut]


def _out(row: ConversationRow, memory: Memory) -> dict[str, Any]:
    return {
        "id": row.id,
        "interface": row.interface,
        "started_at": to_iso(row.started_at, memory.tz),
        "last_activity": to_iso(row.last_activity, memory.tz),
        "ended_at": to_iso(row.ended_at, memory.tz) if row.ended_at else None,
        "private": row.is_private,
        "state": row.consolidation_state,
        "attempts": row.attempts,
        "last_error": row.last_error,
    }


@conversations_router.post("/conversations", response_model=ConversationOut, status_code=201)
def start_conversation(memory: MemoryDep, body: ConversationIn) -> dict[str, Any]:
    """Start a conversation (a session) on an interface; it may start private."""
    return _out(memory.start_conversation(body.interface, private=body.private), memory)


@conversations_router.get("/conversations", response_model=list[ConversationOut])
def list_conversations(
    memory: MemoryDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0,
) -> list[dict[str, Any]]:
    """The user's conversations, most recent first, with state and private flag."""
    return [_out(row, memory) for row in memory.conversations(limit=limit, offset=offset)]


@conversations_router.get("/conversations/{conversation_id}", response_model=ConversationDetailOut)
def get_conversation(
    memory: MemoryDep, conversation_id: ConversationId, limit: Annotated[int, Query(ge=1, le=1000)] = 50
) -> dict[str, Any]:
    """One conversation and its last turns (oldest first), e.g. to reload after a restart."""
    row = memory.conversation(conversation_id)
    turns = memory.messages(conversation_id, limit=limit)
    return {**_out(row, memory), "messages": [message_dict(m, memory.tz) for m in turns]}


@conversations_router.post(
    "/conversations/{conversation_id}/messages", response_model=list[MessageOut], status_code=201
)
def post_messages(
    memory: MemoryDep, conversation_id: ConversationId, body: MessagesIn
) -> list[dict[str, Any]]:
    """Store turns; if the conversation ended or went idle they open a new one (see conversation_id)."""
    turns = [Turn(m.role, m.content, m.at, m.speaker, m.ref) for m in body.messages]
    return [message_dict(row, memory.tz) for row in memory.add_messages(conversation_id, turns)]


@conversations_router.post("/conversations/{conversation_id}/end", response_model=ConversationOut)
def end_conversation(memory: MemoryDep, conversation_id: ConversationId) -> dict[str, Any]:
    """End a conversation: it is queued for consolidation (private ones are skipped)."""
    return _out(memory.end_conversation(conversation_id), memory)


@conversations_router.put("/conversations/{conversation_id}/private", response_model=ConversationOut)
def set_private(memory: MemoryDep, conversation_id: ConversationId, body: PrivateIn) -> dict[str, Any]:
    """Mark a conversation private or not, before or during it."""
    return _out(memory.set_private(conversation_id, body.private), memory)


@conversations_router.post("/consolidate", response_model=ConsolidateOut)
def consolidate(root: RootMemory, admin: AdminDep) -> dict[str, Any]:
    """Consolidate every user's ended conversations now (admin; the worker also does it every few seconds)."""
    worker = root.consolidator()
    expired = worker.expire_idle()
    jobs = [r.as_dict() for r in worker.run_pending()]
    return {"ended_idle": expired, "jobs": jobs}


__all__ = ["conversations_router"]
