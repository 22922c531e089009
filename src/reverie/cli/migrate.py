"""``reverie migrate``: copy a SQLite store into PostgreSQL, verified, re-runnable."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from reverie.cli.main import _emit, _json_option, _state, cli
from reverie.store.transfer import migrate as copy_store


@cli.command()
@click.option(
    "--from",
    "source",
    metavar="sqlite:///PATH",
    help="The SQLite database to copy (default: this home's, or [store] url when it is one).",
)
@click.option(
    "--to", "target", required=True, metavar="postgresql://...", help="An empty PostgreSQL database."
)
@_json_option
def migrate(source: str | None, target: str, as_json: bool) -> None:
    """Copy everything from SQLite into PostgreSQL, then verify counts and checksums.

    Re-running replaces a previous copy of the same file; any other non-empty target is refused.
    """
    if source is None:
        settings = _state().settings
        source = f"sqlite:///{settings.database_path}"
    bars: dict[str, Any] = {}
    show = not as_json and sys.stderr.isatty()

    def progress(table: str, done: int, total: int) -> None:
        if not show:
            return
        bar = bars.get(table)
        if bar is None:
            for old in bars.values():
                old.render_finish()
            bar = click.progressbar(length=max(total, 1), label=table.ljust(22), file=sys.stderr)
            bars[table] = bar
        bar.update(done - bar.pos)

    report = copy_store(source, target, now=time.time(), progress=progress)
    for bar in bars.values():
        bar.render_finish()
    if as_json:
        _emit(report.as_dict())
    else:
        for name, table in report.tables.items():
            mark = "ok" if table.ok else "MISMATCH"
            click.echo(f"{name:<22} {table.rows:>9} rows  {table.target_sha256[:12]}  {mark}")
        verb = "replaced the previous copy" if report.replaced_previous else "copied"
        total = sum(t.rows for t in report.tables.values())
        click.echo(f"{verb}: {total} rows in {len(report.tables)} tables, {report.seconds:.1f}s")
    if not report.ok:
        bad = ", ".join(name for name, t in report.tables.items() if not t.ok)
        raise click.ClickException(f"the copy does not match the source in: {bad}")
