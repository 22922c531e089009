"""Storage engines behind one interface; :func:`open_store` picks one from the settings."""

from __future__ import annotations

from collections.abc import Callable

from reverie.config import Settings
from reverie.errors import ConfigError
from reverie.store import base
from reverie.store.base import *  # noqa: F403  (what base exports, the row types included, is the package's)
from reverie.store.base import Store

StoreFactory = Callable[[Settings], Store]
_ENGINES: dict[str, StoreFactory] = {}


def register_engine(scheme: str, factory: StoreFactory) -> None:
    """Make a store engine available for URLs starting with ``scheme://``."""
    _ENGINES[scheme] = factory


def _open_sqlite(settings: Settings) -> Store:
    from reverie.store.sqlite import SqliteStore

    return SqliteStore(settings.database_path)


register_engine("sqlite", _open_sqlite)


def _open_postgres(settings: Settings) -> Store:
    from reverie.store.postgres import PgStore

    return PgStore(settings.store.url)


register_engine("postgresql", _open_postgres)
register_engine("postgres", _open_postgres)


def open_store(settings: Settings) -> Store:
    """Open the database the settings name (the home folder's SQLite file by default)."""
    scheme = settings.store.url.partition("://")[0] if settings.store.url else "sqlite"
    try:
        factory = _ENGINES[scheme]
    except KeyError:
        known = ", ".join(sorted(_ENGINES))
        raise ConfigError(
            f"store.url '{settings.store.url}' uses an unknown engine '{scheme}'; known: {known}"
        ) from None
    return factory(settings)


__all__ = [*base.__all__, "open_store", "register_engine"]
