"""Working state (Saga's "active context"): what is going on right now in one conversation.

Timers with due times, reminders, ongoing tasks with a status, a one-line summary of the
conversation so far, and observations the assistant proposed to remember that await the
user's yes or no (Rostro). An assistant sets and reads it through the API, the CLI and the memory
tool; it is stored with the conversation, so a restart loses nothing, and shown in the
context block while it is live: expired timers and finished tasks drop out. When the session
ends, unfinished tasks and reminders still ahead become task memories of the user.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import tzinfo
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from reverie.errors import InvalidInput, NotFound
from reverie.extract.guard import ensure_memory_text, guard_prompt_text
from reverie.retrieve.timeutil import check_timestamp, humanize_ago, local_datetime

if TYPE_CHECKING:
    from reverie.core import MemoryCore
    from reverie.extract.merge import RememberResult

_T = TypeVar("_T")

TaskStatus = Literal["open", "in_progress", "blocked", "done"]
TASK_STATUSES: tuple[TaskStatus, ...] = ("open", "in_progress", "blocked", "done")
MAX_ITEMS = 50
MAX_TEXT = 200
MAX_PROPOSALS = 5


@dataclass
class Timer:
    """A countdown: what it is for and when it goes off."""

    id: int
    label: str
    due_at: float


@dataclass
class Reminder:
    """Something to bring up at a time."""

    id: int
    text: str
    due_at: float


@dataclass
class Task:
    """Something under way in this conversation."""

    id: int
    text: str
    status: TaskStatus = "open"


@dataclass
class Proposal:
    """Something the assistant noticed and offered to remember, until the user answers."""

    id: int
    text: str
    proposed_at: float


@dataclass
class WorkingState:
    """One conversation's working state."""

    timers: list[Timer] = field(default_factory=list)
    reminders: list[Reminder] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    summary: str = ""
    next_id: int = 1
    proposals: list[Proposal] = field(default_factory=list)

    # storage ---------------------------------------------------------------------------
    @classmethod
    def loads(cls, text: str | None) -> WorkingState:
        """Read the stored JSON (an empty state for None or a damaged value)."""
        if not text:
            return cls()
        try:
            data = json.loads(text)
            return cls(
                timers=[Timer(**item) for item in data.get("timers", [])],
                reminders=[Reminder(**item) for item in data.get("reminders", [])],
                tasks=[Task(**item) for item in data.get("tasks", [])],
                summary=str(data.get("summary", "")),
                next_id=int(data.get("next_id", 1)),
                proposals=[Proposal(**item) for item in data.get("proposals", [])],
            )
        except (ValueError, TypeError, AttributeError):
            return cls()

    def dumps(self) -> str:
        """The JSON that is stored."""
        return json.dumps(asdict(self), ensure_ascii=False)

    # changes -----------------------------------------------------------------------------
    def _new_id(self) -> int:
        if len(self.timers) + len(self.reminders) + len(self.tasks) + len(self.proposals) >= MAX_ITEMS:
            raise InvalidInput(f"The working state holds at most {MAX_ITEMS} items; finish or remove some")
        self.next_id += 1
        return self.next_id - 1

    def add_timer(self, label: str, seconds: float, now: float) -> Timer:
        """Start a timer that goes off in ``seconds``."""
        if not 0 < seconds <= 366 * 86400:
            raise InvalidInput("A timer needs a duration between 1 second and a year")
        timer = Timer(self._new_id(), _text(label, "timer label"), now + seconds)
        self.timers.append(timer)
        return timer

    def add_reminder(self, text: str, due_at: float) -> Reminder:
        """Remember to bring something up at ``due_at``."""
        due_at = check_timestamp(due_at, "A reminder's due time")
        reminder = Reminder(self._new_id(), _text(text, "reminder"), due_at)
        self.reminders.append(reminder)
        return reminder

    def add_task(self, text: str, status: str = "open") -> Task:
        """Track a task."""
        task = Task(self._new_id(), _text(text, "task"), _status(status))
        self.tasks.append(task)
        return task

    def set_task_status(self, item: int | str, status: str) -> Task:
        """Change a task's status (by id, or by its exact text)."""
        task = next((t for t in self.tasks if t.id == item or t.text == item), None)
        if task is None:
            raise NotFound(f"No task {item!r} in this conversation's working state")
        task.status = _status(status)
        return task

    def propose(self, text: str, now: float) -> Proposal:
        """Keep an observation the assistant offered to remember until the user answers (Rostro)."""
        clean = _text(text, "observation")
        if len(self.proposals) >= MAX_PROPOSALS:
            raise InvalidInput(f"At most {MAX_PROPOSALS} observations wait for an answer; settle those first")
        proposal = Proposal(self._new_id(), clean, now)
        self.proposals.append(proposal)
        return proposal

    def take_proposals(self, item: int | None = None) -> list[Proposal]:
        """Remove and return the proposals the user answered: one by id, or every one (None)."""
        if item is None:
            taken, self.proposals = self.proposals, []
            return taken
        taken = [p for p in self.proposals if p.id == item]
        if not taken:
            raise NotFound(f"No observation {item} awaits an answer in this conversation")
        self.proposals = [p for p in self.proposals if p.id != item]
        return taken

    def set_summary(self, text: str) -> None:
        """The one-line summary of the conversation so far ('' clears it)."""
        self.summary = _text(text, "summary", allow_empty=True)

    def remove(self, item_id: int) -> None:
        """Drop a timer, reminder or task by id."""
        before = len(self.timers) + len(self.reminders) + len(self.tasks)
        self.timers = [t for t in self.timers if t.id != item_id]
        self.reminders = [r for r in self.reminders if r.id != item_id]
        self.tasks = [t for t in self.tasks if t.id != item_id]
        if len(self.timers) + len(self.reminders) + len(self.tasks) == before:
            raise NotFound(f"No item {item_id} in this conversation's working state")

    # reading -----------------------------------------------------------------------------
    def live(self, now: float) -> WorkingState:
        """What is still live: timers not yet gone off, reminders, tasks not done."""
        return WorkingState(
            timers=[t for t in self.timers if t.due_at > now],
            reminders=list(self.reminders),
            tasks=[t for t in self.tasks if t.status != "done"],
            summary=self.summary,
            next_id=self.next_id,
            proposals=list(self.proposals),
        )

    def lines(self, now: float, tz: tzinfo) -> list[str]:
        """The live state as context lines, most urgent first."""
        state = self.live(now)
        # State saved before the guard covered it is withheld, never shown verbatim, if it reads as an order.
        safe = guard_prompt_text
        out = [f"Conversation so far: {safe(state.summary, label='summary')}"] if state.summary else []
        for timer in sorted(state.timers, key=lambda t: t.due_at):
            label = safe(timer.label, label="label")
            out.append(f"Timer '{label}' goes off in {_duration(timer.due_at - now)}")
        for reminder in sorted(state.reminders, key=lambda r: r.due_at):
            when = (
                f"due {humanize_ago(reminder.due_at, now)}"
                if reminder.due_at <= now
                else f"due {_when(reminder.due_at, tz)}"
            )
            out.append(f"Reminder: {safe(reminder.text, label='reminder')} ({when})")
        for task in state.tasks:
            out.append(f"Task ({task.status.replace('_', ' ')}): {safe(task.text, label='task')}")
        for proposal in state.proposals:
            said = safe(proposal.text, label="observation")
            out.append(f"You offered to remember (the user has not answered yet): {said}")
        return out

    def carry_over(self, now: float, tz: tzinfo) -> list[str]:
        """Facts to keep when the session ends: unfinished tasks and reminders still ahead."""
        facts = [f"User has an unfinished task: {task.text}" for task in self.tasks if task.status != "done"]
        facts += [
            f"User has a reminder: {reminder.text} (due {_when(reminder.due_at, tz)})"
            for reminder in self.reminders
            if reminder.due_at > now
        ]
        return facts

    def to_dict(self, now: float) -> dict[str, Any]:
        """A JSON-ready view with the live state and every item."""
        live = self.live(now)
        return {
            "summary": self.summary,
            "timers": [asdict(t) | {"live": t.due_at > now} for t in self.timers],
            "reminders": [asdict(r) | {"due": r.due_at <= now} for r in self.reminders],
            "tasks": [asdict(t) for t in self.tasks],
            "proposals": [asdict(p) for p in self.proposals],
            "live": {"timers": len(live.timers), "reminders": len(live.reminders), "tasks": len(live.tasks)},
        }


def working_state(memory: MemoryCore, conversation_id: int) -> WorkingState:
    """A conversation's timers, reminders, tasks and summary (NotFound for another user's)."""
    scope = memory.scope
    if scope.get_conversation(conversation_id) is None:
        raise NotFound(f"No conversation with id {conversation_id}")
    return WorkingState.loads(scope.get_working_state(conversation_id))


def change_working_state(
    memory: MemoryCore, conversation_id: int, change: Callable[[WorkingState], _T]
) -> _T:
    """Apply ``change`` to a conversation's working state and save it, atomically."""
    scope = memory.scope
    with scope.transaction():
        state = working_state(memory, conversation_id)
        result = change(state)
        scope.put_working_state(conversation_id, state.dumps(), memory.clock())
    return result


def propose(memory: MemoryCore, conversation_id: int, text: str) -> Proposal:
    """Keep an observation the assistant offered to remember until the user says yes or no."""
    return change_working_state(memory, conversation_id, lambda state: state.propose(text, memory.clock()))


def answer_proposals(
    memory: MemoryCore, conversation_id: int, *, confirm: bool, item: int | None = None
) -> list[RememberResult]:
    """The user's answer to the proposals (one by id, or all): yes remembers them, no drops them.

    Each confirmed observation goes through ``remember`` like anything the user said (the
    guard, the merge policy); it is remembered as the user's own words, since the user
    confirmed it.
    """
    taken = change_working_state(memory, conversation_id, lambda state: state.take_proposals(item))
    if not confirm:
        return []
    return [memory.remember(proposal.text, conversation_id=conversation_id) for proposal in taken]


def pending_proposals(memory: MemoryCore) -> list[tuple[int, Proposal]]:
    """Every observation awaiting the user's answer, in the user's open conversations."""
    scope = memory.scope
    found = []
    for conversation in scope.open_conversations():
        state = WorkingState.loads(scope.get_working_state(conversation.id))
        found += [(conversation.id, proposal) for proposal in state.proposals]
    return sorted(found, key=lambda pair: pair[1].proposed_at)


def _text(value: str, what: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"The {what} must be text")
    clean = " ".join(value.split())
    if not clean and not allow_empty:
        raise InvalidInput(f"The {what} is empty")
    if len(clean) > MAX_TEXT:
        raise InvalidInput(f"The {what} is {len(clean)} characters; at most {MAX_TEXT}")
    # Live state goes into the prompt and unfinished items become memories: the same guard applies.
    hint = "remember it as a sensitive memory, not as live state,"  # a secret has no place in the prompt
    return ensure_memory_text(clean, max_bytes=4 * MAX_TEXT, hint=hint) if clean else clean


def _status(value: str) -> TaskStatus:
    for status in TASK_STATUSES:
        if value == status:
            return status
    raise InvalidInput(f"A task status is one of {', '.join(TASK_STATUSES)}, not {value!r}")


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


def _when(ts: float, tz: tzinfo) -> str:
    return local_datetime(ts, tz).strftime("%Y-%m-%d %H:%M")


__all__ = [
    "MAX_PROPOSALS",
    "TASK_STATUSES",
    "Proposal",
    "Reminder",
    "Task",
    "Timer",
    "WorkingState",
    "answer_proposals",
    "change_working_state",
    "pending_proposals",
    "propose",
    "working_state",
]
