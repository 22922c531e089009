"""``reverie state`` (a conversation's working state) and ``reverie threads`` (thread scopes)."""

from __future__ import annotations

from typing import Any

import click

from reverie.cli.main import _emit, _json_option, _state, cli
from reverie.errors import InvalidInput
from reverie.tools.verbs import run_state


def _run(command: dict[str, Any], as_json: bool) -> None:
    memory = _state().memory
    try:
        answer = run_state(memory, command)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from exc
    if as_json:
        _emit(answer)
        return
    state = memory.working_state(answer["conversation"])
    lines = state.lines(memory.clock(), memory.tz)
    click.echo("\n".join(lines) if lines else "Nothing live in this conversation's working state.")


@cli.group(name="state")
def state_group() -> None:
    """A conversation's working state: timers, reminders, tasks and a one-line summary."""


@state_group.command(name="show")
@click.argument("conversation", type=int)
@_json_option
def state_show(conversation: int, as_json: bool) -> None:
    """Show what is live in a conversation."""
    _run({"action": "show", "conversation": conversation}, as_json)


@state_group.command(name="timer")
@click.argument("conversation", type=int)
@click.argument("label")
@click.argument("seconds", type=float)
@_json_option
def state_timer(conversation: int, label: str, seconds: float, as_json: bool) -> None:
    """Start a timer that goes off in SECONDS."""
    _run({"action": "timer", "conversation": conversation, "value": label, "seconds": seconds}, as_json)


@state_group.command(name="reminder")
@click.argument("conversation", type=int)
@click.argument("text")
@click.option("--due", help="When, YYYY-MM-DDTHH:MM in the configured time zone.")
@click.option("--in", "in_seconds", type=float, help="In this many seconds.")
@_json_option
def state_reminder(
    conversation: int, text: str, due: str | None, in_seconds: float | None, as_json: bool
) -> None:
    """Add a reminder."""
    command: dict[str, Any] = {"action": "reminder", "conversation": conversation, "value": text}
    if in_seconds is not None:
        command["in"] = in_seconds
    if due is not None:
        command["due"] = due
    _run(command, as_json)


@state_group.command(name="task")
@click.argument("conversation", type=int)
@click.argument("text")
@_json_option
def state_task(conversation: int, text: str, as_json: bool) -> None:
    """Track a task."""
    _run({"action": "task", "conversation": conversation, "value": text}, as_json)


@state_group.command(name="done")
@click.argument("conversation", type=int)
@click.argument("task")
@_json_option
def state_done(conversation: int, task: str, as_json: bool) -> None:
    """Mark a task done (by id or text)."""
    _run({"action": "done", "conversation": conversation, "value": task}, as_json)


@state_group.command(name="summary")
@click.argument("conversation", type=int)
@click.argument("text")
@_json_option
def state_summary(conversation: int, text: str, as_json: bool) -> None:
    """Set the one-line summary of the conversation so far."""
    _run({"action": "summary", "conversation": conversation, "value": text}, as_json)


@cli.group()
def threads() -> None:
    """Threads: memories of conversations whose person is not known yet."""


@threads.command(name="list")
@_json_option
def threads_list(as_json: bool) -> None:
    """Threads not merged into a user yet."""
    memory = _state().memory
    rows = [(t, memory.for_thread(t.name).count()) for t in memory.threads()]
    if as_json:
        _emit([{"name": t.name, "label": t.label, "memories": n} for t, n in rows])
        return
    if not rows:
        click.echo("No threads.")
    for thread, count in rows:
        click.echo(f"{thread.name}  {thread.label}  ({count} memories)")


@threads.command(name="start")
@click.argument("label", default="")
def threads_start(label: str) -> None:
    """Start a thread; its name is printed (use it with --user to add memories)."""
    view = _state().memory.start_thread(label)
    assert view.user is not None
    click.echo(view.user.name)


@threads.command(name="merge")
@click.argument("thread")
@click.argument("user")
def threads_merge(thread: str, user: str) -> None:
    """Move a thread's memories into USER (duplicates: the newest wins, the other superseded)."""
    report = _state().memory.merge_thread(thread, user)
    click.echo(f"merged {thread} into {user}: {report.moved} memories moved, {report.superseded} superseded")


__all__ = ["state_group", "threads"]
