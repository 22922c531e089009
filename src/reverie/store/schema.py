"""The shipped SQL migrations of each engine, in order."""

from __future__ import annotations

from functools import cache
from importlib import resources

from reverie.errors import MigrationError


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


def pending_migrations(backend: str, applied: set[int], where: str) -> list[tuple[int, str, str]]:
    """Shipped migrations not applied yet, in order; MigrationError if the database at ``where`` is newer."""
    shipped = shipped_migrations(backend)
    newest = max((v for v, _, _ in shipped), default=0)
    if applied and max(applied) > newest:
        raise MigrationError(
            f"{where} has schema version {max(applied)}, newer than this Reverie "
            f"knows ({newest}); upgrade Reverie before opening it"
        )
    return [migration for migration in shipped if migration[0] not in applied]


__all__ = ["pending_migrations", "shipped_migrations"]
