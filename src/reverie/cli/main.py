"""The ``reverie`` command: a thin layer over :class:`reverie.Memory`.

Expected errors print one line to stderr and exit 1 (bad input, not found, conflicts) or
2 (usage); nothing prints a traceback for them.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from reverie.config import Settings, check_home, load_settings
from reverie.errors import ReverieError
from reverie.memory import FORGET_ALL_CONFIRMATION, Memory
from reverie.retrieve.timeutil import humanize_ago, to_day
from reverie.serialize import memory_dict, recent_dict, search_dict
from reverie.store import open_store
from reverie.store.base import MemoryRow
from reverie.tools.memory_tool import recent_text, run_tool

F = TypeVar("F", bound=Callable[..., Any])


class _State:
    """What the global options chose; opens the memory on first use."""

    def __init__(self, home: str | None, config: str | None, user: str | None) -> None:
        self.home, self.config, self.user_name = home, config, user
        self._settings: Settings | None = None
        self._memory: Memory | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.config, home=self.home, environ=os.environ)
            check_home(self._settings)
        return self._settings

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            base = Memory(self.settings, user=self.user_name or cli_user(self.settings))
            self._memory = base
            self._base = base
        return self._memory

    def close(self) -> None:
        if self._memory is not None:
            self._base.close()


def cli_user(settings: Settings) -> str:
    """Whose memory the CLI and MCP use without --user: see "Who is who" in the README.

    ``default_user`` when it is set (reverie.toml or REVERIE_DEFAULT_USER); else the first admin
    (the account made on /setup or with `reverie users add NAME --admin`), so that the CLI and the
    web UI's first account are the same person; else "default".
    """
    if "default_user" in settings.model_fields_set:
        return settings.default_user
    store = open_store(settings)
    try:
        admins = [user for user in store.list_users() if user.is_admin]
    finally:
        store.close()
    return min(admins, key=lambda user: user.id).name if admins else settings.default_user


def _state() -> _State:
    return click.get_current_context().find_object(_State)  # type: ignore[return-value]


def _emit(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def _line(row: MemoryRow, memory: Memory) -> str:
    label = f"{row.key}: " if row.kind == "preference" and row.key else ""
    status = "" if row.status == "active" else f" [{row.status}]"
    when = humanize_ago(row.created_at, memory.clock())
    return f"#{row.id} {label}{row.text}  ({row.kind}, {row.source}, {row.confidence:.2f}, {when}){status}"


class _Group(click.Group):
    """Translates Reverie's errors into one line on stderr and an exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ReverieError as exc:
            click.echo(f"reverie: {exc}", err=True)
            ctx.exit(1)
        finally:
            state = ctx.find_object(_State)
            if state is not None:
                state.close()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--home", type=click.Path(file_okay=False), help="Data folder (default: $REVERIE_HOME).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Path of reverie.toml.")
@click.option("--user", "-u", help="Whose memory (default: the configured default user).")
@click.version_option(package_name="reverie")
@click.pass_context
def cli(ctx: click.Context, home: str | None, config_path: str | None, user: str | None) -> None:
    """Reverie: long-term memory for your AI assistant."""
    ctx.obj = _State(home, config_path, user)


@cli.command()
@click.argument("text")
@click.option("--key", help="Normalized key (timezone, home_city ...): replaces the older memory with it.")
@click.option("--type", "type_", default="general", show_default=True, help="Memory type.")
@click.option(
    "--sensitive", is_flag=True, help="Keep it as sensitive even if it looks like a secret (password, ID)."
)
def remember(text: str, key: str | None, type_: str, sensitive: bool) -> None:
    """Remember a fact (explicit, full confidence)."""
    result = _state().memory.remember_words(text, key, type=type_, sensitive=sensitive)
    click.echo(f"{result.status}: #{result.memory.id} {result.memory.text}")
    for old in result.replaced:
        click.echo(f"  replaces #{old.id} {old.text}")


@cli.command()
@click.argument("category")
@click.argument("value")
@click.option("--key", default=None, help="What it sets (color, temperature); read from VALUE if left out.")
@click.option(
    "--scope",
    "pref_scope",
    default="default",
    show_default=True,
    type=click.Choice(["default", "specific", "always"]),
    help="With --key; specific: it holds at a time or place of its own.",
)
def prefer(category: str, value: str, key: str | None, pref_scope: str) -> None:
    """Set a preference: reverie prefer verbosity "concise answers" (or lights pink --key color)."""
    memory = _state().memory
    if key:
        result = memory.save_preference(category, key, value, scope=pref_scope)
    else:
        result = memory.prefer(category, value)
    row = result.memory
    click.echo(f"{result.status}: {row.category} / {row.key}: {row.text}")


@cli.command()
@click.argument("query", default="")
@click.option("--date", help="One day, YYYY-MM-DD.")
@click.option("--from", "date_from", help="Start day, YYYY-MM-DD.")
@click.option("--to", "date_to", help="End day (inclusive), YYYY-MM-DD.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200))
@click.option(
    "--scope",
    default="memories",
    show_default=True,
    type=click.Choice(["memories", "messages", "all"]),
    help="Memories, past conversation turns, or both.",
)
@_json_option
def search(
    query: str,
    date: str | None,
    date_from: str | None,
    date_to: str | None,
    limit: int,
    scope: Any,
    as_json: bool,
) -> None:
    """Search memories (and past conversations) by keywords, meaning and dates."""
    memory = _state().memory
    results = memory.search(query, date=date, date_from=date_from, date_to=date_to, limit=limit, scope=scope)
    if as_json:
        _emit(search_dict(results, memory.tz))
        return
    if not results.total:
        click.echo("Nothing found.")
    for hit in [*results.facts, *results.preferences]:
        click.echo(_line(hit.memory, memory))
    for summary_hit in results.summaries:
        s = summary_hit.summary
        click.echo(f"[summary #{s.id}, {humanize_ago(s.created_at, memory.clock())}] {s.text}")
    for message_hit in results.messages:
        m = message_hit.message
        who = m.speaker or m.role
        ref = f" ({m.ref})" if m.ref else ""
        click.echo(
            f"[message #{m.id}{ref}, conversation {m.conversation_id}, {to_day(m.created_at, memory.tz)}] "
            f"{who}: {m.content}"
        )


@cli.command()
@click.argument("period", default="7d")
@_json_option
def recent(period: str, as_json: bool) -> None:
    """What was learned lately: 30m, 24h, 7d, 2w ..."""
    memory = _state().memory
    results = memory.recent(period)
    if as_json:
        _emit(recent_dict(results, memory.tz))
    else:
        click.echo(recent_text(results, memory.clock()))


@cli.command()
@click.argument("query")
def forget(query: str) -> None:
    """Delete the memories matching every keyword of QUERY."""
    gone = _state().memory.forget(query)
    click.echo(f"Forgot {len(gone)} memor{'y' if len(gone) == 1 else 'ies'}.")
    for row in gone:
        click.echo(f"  #{row.id} {row.text}")


@cli.command(name="list")
@click.option("--kind", type=click.Choice(["fact", "preference"]))
@click.option(
    "--status",
    default="active",
    show_default=True,
    type=click.Choice(["active", "superseded", "deleted", "all"]),
)
@click.option("--source", type=click.Choice(["explicit", "inferred"]))
@click.option(
    "--order", default="recent", show_default=True, type=click.Choice(["recent", "confidence", "id"])
)
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 1000))
@click.option("--offset", default=0, show_default=True, type=click.IntRange(0))
@_json_option
def list_(kind: Any, status: Any, source: Any, order: Any, limit: int, offset: int, as_json: bool) -> None:
    """List memories."""
    memory = _state().memory
    rows = memory.list_memories(
        kind=kind, status=status, source=source, order=order, limit=limit, offset=offset
    )
    if as_json:
        _emit([memory_dict(row, memory.tz) for row in rows])
        return
    if not rows:
        click.echo("No memories yet.")
    for row in rows:
        click.echo(_line(row, memory))


@cli.command()
@click.argument("memory_id", type=int)
@_json_option
def show(memory_id: int, as_json: bool) -> None:
    """Show one memory in full."""
    memory = _state().memory
    data = memory_dict(memory.get(memory_id), memory.tz)
    if as_json:
        _emit(data)
    else:
        for name, value in data.items():
            click.echo(f"{name:>20}: {value}")


@cli.command()
@click.argument("memory_id", type=int)
@click.argument("text")
def edit(memory_id: int, text: str) -> None:
    """Correct a memory's text."""
    row = _state().memory.edit(memory_id, text)
    click.echo(f"edited: #{row.id} {row.text}")


@cli.command()
@click.argument("memory_id", type=int)
def delete(memory_id: int) -> None:
    """Delete one memory."""
    row = _state().memory.delete(memory_id)
    click.echo(f"deleted: #{row.id} {row.text}")


@cli.command(name="forget-all")
@click.option("--yes", is_flag=True, help="Do not ask (for scripts).")
def forget_all(yes: bool) -> None:
    """Delete everything kept about the user (asks you to type DELETE)."""
    memory = _state().memory
    if not yes:
        typed = click.prompt(
            "This deletes every fact, preference, summary, conversation (chat history), topic file "
            f"and the base memory of "
            f"'{memory.user.name if memory.user else '?'}'. Type {FORGET_ALL_CONFIRMATION} to confirm",
            default="",
            show_default=False,
        )
        if typed != FORGET_ALL_CONFIRMATION:
            click.echo("reverie: nothing deleted", err=True)
            sys.exit(1)
    counts = memory.forget_all(FORGET_ALL_CONFIRMATION)
    names = {"summary": "summaries", "base_memory": "base memories"}
    click.echo(
        "Deleted "
        + ", ".join(plural(n, kind.replace("_", " "), names.get(kind)) for kind, n in counts.items())
        + "."
    )


@cli.command()
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, writable=True), help="File (default: stdout)."
)
def export(output: str | None) -> None:
    """Export everything kept about the user as JSON."""
    document = json.dumps(_state().memory.export(), indent=2, ensure_ascii=False)
    if output:
        Path(output).write_text(document + "\n", encoding="utf-8")
        click.echo(f"Exported to {output}", err=True)
    else:
        click.echo(document)


@cli.command(name="import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
def import_(path: str) -> None:
    """Import an export document (PATH or - for stdin)."""
    raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReverieError(f"{path} is not a JSON export document: {exc}") from exc
    counts = _state().memory.import_(document)
    click.echo("Imported " + ", ".join(f"{n} {kind}" for kind, n in counts.items()) + ".")


@cli.command()
@click.argument("query", required=False)
@_json_option
def context(query: str | None, as_json: bool) -> None:
    """Print the memory block for a system prompt (optionally for a user message)."""
    block = _state().memory.context(query)
    if as_json:
        _emit({"text": block.text, "tokens": block.tokens, "budget": block.budget})
    else:
        click.echo(block.text or "(no memories yet)")


@cli.command()
@click.argument("command")
def tool(command: str) -> None:
    """Run one memory-tool command: reverie tool '{"action":"search","value":"dog"}'."""
    response = run_tool(_state().memory, command)
    click.echo(response.render())
    if not response.ok:
        sys.exit(1)


@cli.command()
@click.argument("utterance")
@_json_option
def say(utterance: str, as_json: bool) -> None:
    """Act on a power phrase ("remember that ...", "I prefer ...", "forget ...")."""
    memory = _state().memory
    seen = memory.observe(utterance)
    if as_json:
        _emit(
            {
                "action": seen.action,
                "reply": seen.reply,
                "handled": seen.handled,
                "memories": [memory_dict(row, memory.tz) for row in seen.memories],
            }
        )
    else:
        click.echo(seen.reply or "(no memory command recognised)")


@cli.command()
@_json_option
def stats(as_json: bool) -> None:
    """Counts of facts, preferences and summaries, and the context budget used."""
    data = _state().memory.stats()
    if as_json:
        _emit(data)
    else:
        click.echo("\n".join(stats_lines(data)))


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 chunk', '2 chunks', '0 summaries' (with ``many``)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def _size(size: int) -> str:
    if size < 1024:
        return plural(size, "byte")
    value = size / 1024
    for unit in ("KB", "MB"):
        if value < 1024:
            return f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def stats_lines(data: dict[str, Any]) -> list[str]:
    """``reverie stats`` as sentences a person reads."""
    lines = [f"Memory of {data['user']}" + (" (guest: nothing is kept)" if data.get("guest") else "")]
    if "facts" in data:
        lines.append(
            f"  {plural(data['facts'], 'fact')} ({data['explicit']} explicit, {data['inferred']} inferred), "
            f"{plural(data['preferences'], 'preference')}, "
            f"{plural(data['summaries'], 'summary', 'summaries')}, {data['superseded']} superseded"
        )
        lines.append(f"  Base memory: {'written' if data['base_memory'] else 'none yet'}")
    lines.append(f"  Context: {data['context_tokens']} of {data['context_budget']} tokens used")
    if "database_bytes" in data:
        lines.append(f"  Database: {_size(int(data['database_bytes']))}")
    if data.get("embedding_model"):
        embedded = data.get("embedded") or {}
        parts = ", ".join(
            plural(n, kind.replace("_", " "), "summaries" if kind == "summary" else None)
            for kind, n in embedded.items()
        )
        rate = data.get("embedding_cache_hit_rate")
        lines.append(f"  Embeddings: {data['embedding_model']}; embedded: {parts or 'nothing yet'}")
        lines.append(
            f"  Embedding cache: {plural(data.get('embedding_cache_entries', 0), 'entry', 'entries')}, "
            f"hit rate {'-' if rate is None else f'{rate:.0%}'}"
        )
    elif "facts" in data:
        lines.append("  Embeddings: off (keyword search only)")
    return lines


@cli.command()
def reindex() -> None:
    """Embed everything that has no vector of the current model (after a model change); resumable."""
    memory = _state().memory
    with click.progressbar(length=1, label="Embedding", file=sys.stderr) as bar:

        def progress(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        counts = memory.reindex(progress)
    service = memory.embeddings
    model = service.model_id if service else "?"
    click.echo(f"Embedded {sum(counts.values())} items with {model} " + json.dumps(counts))


@cli.group()
def config() -> None:
    """Inspect the configuration."""


@config.command(name="show")
@_json_option
def config_show(as_json: bool) -> None:
    """Print the effective configuration (file + REVERIE_* overrides)."""
    data = _state().settings.dump()
    if as_json:
        _emit(data)
        return
    _print_toml(data)


def _print_toml(data: dict[str, Any], prefix: str = "") -> None:
    scalars = {k: v for k, v in data.items() if not isinstance(v, dict) or k == "voice_mapping"}
    for key, value in scalars.items():
        if isinstance(value, dict):
            inline = ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in value.items())
            click.echo(f"{key} = {{{inline}}}")
        else:
            click.echo(f"{key} = {json.dumps(value)}")
    for key, value in data.items():
        if isinstance(value, dict) and key != "voice_mapping":
            name = f"{prefix}{key}"
            click.echo(f"\n[{name}]")
            _print_toml(value, name + ".")


@cli.command()
@click.option("--host", help="Address to listen on (default from [server]).")
@click.option("--port", type=click.IntRange(1, 65535), help="Port (default from [server]).")
def serve(host: str | None, port: int | None) -> None:
    """Run the HTTP server (API, docs at /docs)."""
    from reverie.server import run_server

    settings = _state().settings
    if host:
        settings.server.host = host
    if port:
        settings.server.port = port
    run_server(settings)


def main() -> None:
    """Entry point of the ``reverie`` command."""
    cli(prog_name="reverie")


__all__ = ["cli", "main"]
