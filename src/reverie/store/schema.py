"""The shipped SQL migrations of each engine, in order."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def shipped_migrations(backend: str) -> list[tuple[int, str, str]]:
    """(version, file name, sql) for every migration of a backend ("sqlite", "postgres"); read once."""
    folder = resources.files("reverie.store") / "migrations" / backend
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number, _, _ = entry.name.partition("_")
            found.append((int(number), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


__all__ = ["shipped_migrations"]
