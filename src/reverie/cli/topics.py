"""``reverie topics``: the user's topic files (Rostro) and the recent-topics index."""

from __future__ import annotations

import click

from reverie.cli.main import _emit, _json_option, _state, cli


@cli.group()
def topics() -> None:
    """Topic files: one Markdown file of conclusions per topic, and the recent-topics index."""


@topics.command(name="list")
@_json_option
def topics_list(as_json: bool) -> None:
    """The user's topics with their line counts (and any problem reading a file)."""
    memory = _state().memory
    book = memory.topics
    rows = book.topics()
    if as_json:
        _emit([{"slug": r.slug, "title": r.title, "lines": r.line_count, "error": r.error} for r in rows])
        return
    if not rows:
        click.echo(f"No topics yet; they appear in {book.folder} as conversations reach conclusions")
    for row in rows:
        problem = f"  [malformed: {row.error}]" if row.error else ""
        click.echo(f"{row.slug}  {row.title}  ({row.line_count} lines){problem}")
    recent = book.recent()
    if recent:
        click.echo("\nRecent topics:")
        for line in recent:
            click.echo(f"  {line}")


@topics.command(name="show")
@click.argument("slug")
def topics_show(slug: str) -> None:
    """Print one topic file."""
    click.echo(_state().memory.topics.read(slug).render(), nl=False)


@topics.command(name="split")
@click.argument("slug")
def topics_split(slug: str) -> None:
    """Split a topic into subtopics now (every line kept exactly once)."""
    made = _state().memory.topics.split(slug)
    click.echo(f"{slug} split into: {', '.join(made)}")


__all__ = ["topics"]
