"""The README documents every CLI command and every HTTP route."""

from __future__ import annotations

from pathlib import Path

import click

from reverie import load_settings
from reverie.cli import cli
from reverie.server import create_app

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def _commands(group: click.Group, prefix: str = "reverie") -> list[str]:
    found = []
    for name, command in group.commands.items():
        found.append(f"{prefix} {name}")
        if isinstance(command, click.Group):
            found += _commands(command, f"{prefix} {name}")
    return found


def test_every_cli_command_is_documented() -> None:
    missing = [c for c in _commands(cli) if f"`{c}" not in README]
    assert missing == []


def test_every_http_route_is_documented(tmp_path: Path) -> None:
    spec = create_app(load_settings(home=tmp_path, environ={})).openapi()
    missing = [
        f"{method.upper()} {path}"
        for path, operations in spec["paths"].items()
        for method in operations
        if f"`{method.upper()} {path}`" not in README
    ]
    assert missing == []


def test_quick_start_is_the_two_commands() -> None:
    quick = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in quick.strip().splitlines()] == ["make serve", "make test"]
