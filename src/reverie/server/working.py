"""Working state and threads over HTTP: a conversation's timers, reminders and tasks; thread merges."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path
from pydantic import BaseModel, Field

from reverie.errors import InvalidInput
from reverie.retrieve.timeutil import to_iso
from reverie.server.deps import AdminDep, MemoryDep, RootMemory
from reverie.server.schemas import ErrorOut
from reverie.tools.verbs import STATE_ACTIONS, run_state

working_router = APIRouter(
    prefix="/api/v1",
    responses={
        400: {"model": ErrorOut, "description": "Invalid input"},
        403: {"model": ErrorOut, "description": "Admin only"},
        404: {"model": ErrorOut, "description": "No such conversation, thread or user"},
        409: {"model": ErrorOut, "description": "A guest session has no working state"},
    },
)
ConversationId = Annotated[int, Path(ge=1, le=2**63 - 1, description="The conversation's id")]


class StateOut(BaseModel):
    """A conversation's working state: every item, and the live lines the context shows."""

    conversation: int
    state: dict[str, Any]
    lines: list[str] = Field(description="what the context block shows while it is live")


class ThreadIn(BaseModel):
    """A new thread."""

    label: str = Field(default="", max_length=100, examples=["web chat before sign-in"])


class ThreadOut(BaseModel):
    """A thread: memories of a conversation whose person is not known yet."""

    name: str
    label: str
    created_at: str
    memories: int


class MergeIn(BaseModel):
    """Whose memories a thread becomes."""

    user: str = Field(min_length=1, max_length=64)


class MergeOut(BaseModel):
    """What a merge did."""

    thread: str
    user: str
    moved: int
    superseded: int = Field(description="duplicates of which the older one was superseded")
    ids: list[int]


@working_router.get("/conversations/{conversation_id}/state", response_model=StateOut, tags=["conversations"])
def get_state(memory: MemoryDep, conversation_id: ConversationId) -> StateOut:
    """A conversation's timers, reminders, tasks and summary."""
    state = memory.working_state(conversation_id)
    now = memory.clock()
    return StateOut(conversation=conversation_id, state=state.to_dict(now), lines=state.lines(now, memory.tz))


@working_router.post(
    "/conversations/{conversation_id}/state", response_model=StateOut, tags=["conversations"]
)
def change_state(
    memory: MemoryDep,
    conversation_id: ConversationId,
    command: Annotated[
        dict[str, Any],
        Body(
            examples=[{"action": "timer", "value": "pasta", "seconds": 600}],
            description=f"action: {', '.join(STATE_ACTIONS)}; value; seconds (timer); due or in (reminder)",
        ),
    ],
) -> StateOut:
    """Change the working state: start a timer, add a reminder or task, finish a task, set the summary."""
    try:
        run_state(memory, {**command, "conversation": conversation_id})
    except ValueError as exc:
        raise InvalidInput(str(exc)) from exc
    return get_state(memory, conversation_id)


class ProposalOut(BaseModel):
    """An observation the assistant offered to remember, awaiting the user's yes or no."""

    conversation: int
    id: int
    text: str
    proposed_at: str


@working_router.get("/observations", response_model=list[ProposalOut], tags=["conversations"])
def pending_observations(memory: MemoryDep) -> list[ProposalOut]:
    """What the assistant offered to remember and the user has not answered yet, oldest first.

    Answer one with ``POST /conversations/{conversation}/state`` and ``{"action": "confirm"}``
    (remember it) or ``"decline"``, with its id as ``value`` (none: every one of that conversation).
    """
    return [
        ProposalOut(
            conversation=conversation, id=p.id, text=p.text, proposed_at=to_iso(p.proposed_at, memory.tz)
        )
        for conversation, p in memory.pending_proposals()
    ]


@working_router.get("/threads", response_model=list[ThreadOut], tags=["users"])
def list_threads(root: RootMemory, admin: AdminDep) -> list[ThreadOut]:
    """Threads not merged into a user yet (admin)."""
    return [
        ThreadOut(
            name=t.name,
            label=t.label,
            created_at=to_iso(t.created_at, root.tz),
            memories=root.for_thread(t.name).count(),
        )
        for t in root.threads()
    ]


@working_router.post("/threads", response_model=ThreadOut, status_code=201, tags=["users"])
def create_thread(root: RootMemory, admin: AdminDep, body: ThreadIn) -> ThreadOut:
    """Start a thread (admin); a device on an unmapped interface gets one itself in thread mode."""
    view = root.start_thread(body.label)
    assert view.user is not None
    return ThreadOut(
        name=view.user.name,
        label=view.user.label,
        created_at=to_iso(view.user.created_at, root.tz),
        memories=0,
    )


@working_router.post("/threads/{thread}/merge", response_model=MergeOut, tags=["users"])
def merge_thread(root: RootMemory, admin: AdminDep, thread: str, body: MergeIn) -> MergeOut:
    """Move a thread's memories into a user, in one transaction; duplicates: the newest wins (admin)."""
    report = root.merge_thread(thread, body.user)
    return MergeOut(
        thread=thread, user=body.user, moved=report.moved, superseded=report.superseded, ids=list(report.ids)
    )


__all__ = ["working_router"]
