"""The PostgreSQL engine: pgvector, tsvector + BM25, a connection pool, numbered migrations.

Any number of Reverie processes on any number of machines may share one database: jobs are
claimed with ``FOR UPDATE SKIP LOCKED`` under leases, nightly maintenance under an advisory
lock, and every statement a user's scope runs carries its user's id.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from reverie.errors import ConfigError, MigrationError
from reverie.store.base import Store
from reverie.store.dialect import Dialect
from reverie.store.postgres_dialect import PgDialect, register_vector
from reverie.store.schema import pending_migrations, shipped_migrations

Conn = psycopg.Connection[dict[str, Any]]
# Advisory lock keys (any constants, the same in every process).
MIGRATION_LOCK = 7_301_001
_POOL_OPTIONS = {"pool_min_size": 1, "pool_max_size": 10, "connect_timeout": 10}


def split_url(url: str) -> tuple[str, dict[str, int]]:
    """The libpq URL without Reverie's own query options, and those options (pool sizes)."""
    parts = urlsplit(url)
    options = dict(_POOL_OPTIONS)
    kept = []
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name in ("pool_min_size", "pool_max_size"):
            try:
                options[name] = int(value)
            except ValueError:
                raise ConfigError(f"store.url: {name} must be a whole number, got '{value}'") from None
        else:
            kept.append((name, value))
            if name == "connect_timeout":
                options[name] = int(value)
    scheme = "postgresql" if parts.scheme in ("postgres", "postgresql") else parts.scheme
    return urlunsplit((scheme, parts.netloc, parts.path, urlencode(kept), parts.fragment)), options


def redact(url: str) -> str:
    """The URL with its password masked, for messages."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


class PgStore(Store):
    """A Reverie database in PostgreSQL (with the pgvector extension)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conninfo, self._options = split_url(url)
        self._local = threading.local()
        self._pool_lock = threading.Lock()
        self._claims: dict[str, tuple[ConnectionPool[Conn], Conn]] = {}
        self.db: Dialect = PgDialect(self.connection, self.transaction)
        self._migrate(self._options["connect_timeout"])
        self._pool: ConnectionPool[Conn] | None = None
        self._open_pool()

    def _open_pool(self) -> ConnectionPool[Conn]:
        with self._pool_lock:
            if self._pool is not None:
                return self._pool
            options = self._options
            pool: ConnectionPool[Conn] = ConnectionPool(
                self._conninfo,
                min_size=min(options["pool_min_size"], options["pool_max_size"]),
                max_size=max(options["pool_max_size"], 1),
                kwargs={"autocommit": True, "row_factory": dict_row},
                configure=register_vector,
                open=False,
                name="reverie",
                timeout=60.0,
                num_workers=2,
            )
            try:
                pool.open(wait=True, timeout=float(options["connect_timeout"]) + 5)
            except PoolTimeout as exc:
                pool.close()
                raise ConfigError(f"Cannot connect to PostgreSQL at {redact(self.url)}: {exc}") from exc
            self._pool = pool
            return pool

    # connections -------------------------------------------------------------------
    @contextmanager
    def connection(self) -> Iterator[Conn]:
        """This thread's transaction connection, or one borrowed from the pool for a statement."""
        held: Conn | None = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        with (self._pool or self._open_pool()).connection() as conn:
            yield conn

    @contextmanager
    def transaction(self) -> Iterator[Conn]:
        """A transaction on a pooled connection held by this thread; nested calls join the outer one."""
        held: Conn | None = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        with (self._pool or self._open_pool()).connection() as conn, conn.transaction():
            self._local.conn = conn
            try:
                yield conn
            finally:
                self._local.conn = None

    def close(self) -> None:
        """Close every pooled connection (a later call opens a new pool, as SQLite reopens its file)."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    # migrations --------------------------------------------------------------------
    def _migrate(self, timeout: int) -> None:
        try:
            conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=timeout)
        except psycopg.OperationalError as exc:
            raise ConfigError(
                f"Cannot connect to PostgreSQL at {redact(self.url)}: {str(exc).strip()}; "
                "start the server or fix [store] url"
            ) from exc
        with conn:
            if self._up_to_date(conn):
                return
            # Several processes may start at once: one migrates, the others wait and find it done.
            conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
            try:
                self._apply_migrations(conn)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))

    @staticmethod
    def _up_to_date(conn: psycopg.Connection[Any]) -> bool:
        """True when every shipped migration is applied and no other (the common case: no lock)."""
        exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
        if not (exists and exists[0]):
            return False
        applied = {int(row[0]) for row in conn.execute("SELECT version FROM schema_migrations")}
        return applied == {version for version, _, _ in shipped_migrations("postgres")}

    def _apply_migrations(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL, applied_at double precision NOT NULL)"
        )
        applied = {int(row[0]) for row in conn.execute("SELECT version FROM schema_migrations")}
        for version, name, sql in pending_migrations("postgres", applied, redact(self.url)):
            try:
                with conn.transaction():
                    conn.execute(sql.encode())  # several statements: simple query protocol
                    conn.execute(
                        "INSERT INTO schema_migrations VALUES (%s, %s, extract(epoch FROM now()))",
                        (version, name),
                    )
            except psycopg.Error as exc:
                raise MigrationError(
                    f"Migration {name} failed on {redact(self.url)}: {str(exc).strip()}"
                ) from exc

    def database_size(self) -> int:
        """Bytes the database occupies."""
        return int(self.db.value("SELECT pg_database_size(current_database())"))

    # document claims ---------------------------------------------------------------
    def claim_document(self, path: str) -> bool:
        """Take the indexing of one file under a session advisory lock; False if another process has it.

        The lock lives as long as the connection that took it: a worker that dies mid-file
        loses it with its connection, and the next scan takes the file over.
        """
        pool = self._pool or self._open_pool()
        conn = pool.getconn()
        try:
            row = conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 0)) AS got", ("reverie-document:" + path,)
            ).fetchone()
        except BaseException:
            pool.putconn(conn)
            raise
        if not (row and row["got"]):
            pool.putconn(conn)
            return False
        with self._pool_lock:
            self._claims[path] = (pool, conn)
        return True

    def release_document(self, path: str) -> None:
        """Give a claimed file back."""
        with self._pool_lock:
            held = self._claims.pop(path, None)
        if held is None:
            return
        pool, conn = held
        try:
            conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", ("reverie-document:" + path,))
        finally:
            pool.putconn(conn)


__all__ = ["PgStore", "redact", "split_url"]
