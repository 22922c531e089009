"""The SQLite engine: one database file, WAL, numbered migrations, one connection per thread."""

from __future__ import annotations

import math
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reverie.errors import MigrationError
from reverie.store.base import Store
from reverie.store.dialect import Dialect
from reverie.store.schema import pending_migrations
from reverie.store.sqlite_dialect import SqliteDialect

BUSY_TIMEOUT_MS = 5000
_NOW_SQL = "(julianday('now') - 2440587.5) * 86400.0"


def _safe_pow(base: float | None, exponent: float | None) -> float | None:
    """SQL power() that never returns NaN or infinity (decay must not poison rows)."""
    if base is None or exponent is None:
        return None
    try:
        value = math.pow(base, exponent)
    except (OverflowError, ValueError):
        return 0.0
    return value if math.isfinite(value) else 0.0


class _Owner:
    """Kept in a thread's local data: when the thread ends it goes, and its connection is closed."""


def _release(connections: list[sqlite3.Connection], lock: threading.Lock, conn: sqlite3.Connection) -> None:
    """Close the connection of a thread that ended, unless the store closed it already.

    Request threads come and go (a pool's idle thread exits, a new one starts under the next
    load); each opened its own connection, with its own page cache (up to 2 MB) and statements,
    and the store kept every one open, so the server's memory grew from one load to the next.
    """
    with lock:
        if not any(held is conn for held in connections):
            return
        connections[:] = [held for held in connections if held is not conn]
    conn.close()


class SqliteStore(Store):
    """A Reverie database in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._lock = threading.Lock()
        # Writers of this process take turns here: SQLite's busy handler would make a thread
        # that finds the write lock taken sleep 1, 2, 5, 10 ms... before trying again, however
        # soon the lock frees (threads then idle while requests queue). Other processes still
        # meet the busy timeout.
        self._writer = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self.db: Dialect = SqliteDialect(self.connection, self.transaction, self.uncommitted_writes)
        self._migrate()

    # connections -------------------------------------------------------------------
    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened and configured on first use."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
            )
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.create_function("safe_pow", 2, _safe_pow, deterministic=True)
            self._local.conn = conn
            self._local.depth = 0
            owner = self._local.owner = _Owner()
            weakref.finalize(owner, _release, self._connections, self._lock, conn)
            with self._lock:
                self._connections.append(conn)
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction on this thread's connection; nested calls join the outer one."""
        conn = self.connection()
        if self._local.depth:
            self._local.depth += 1
            try:
                yield conn
            finally:
                self._local.depth -= 1
            return
        # Past the busy timeout, SQLite's own wait (and its "database is locked") takes over.
        mine = self._writer.acquire(timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            conn.execute("BEGIN IMMEDIATE")
            self._local.depth = 1
            self._local.changes_at_begin = conn.total_changes
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            else:
                conn.execute("COMMIT")
            finally:
                self._local.depth = 0
        finally:
            if mine:
                self._writer.release()

    def uncommitted_writes(self) -> bool:
        """True inside a transaction of this thread that has already changed rows."""
        conn = self.connection()
        return bool(self._local.depth) and conn.total_changes != self._local.changes_at_begin

    def close(self) -> None:
        """Close every connection this store opened."""
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()

    # migrations --------------------------------------------------------------------
    def _migrate(self) -> None:
        conn = self.connection()
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        applied = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        for version, name, sql in pending_migrations("sqlite", applied, str(self.path)):
            try:
                # executescript commits on its own, so the migration carries its own BEGIN.
                conn.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\n"
                    f"INSERT INTO schema_migrations VALUES ({version}, '{name}', {_NOW_SQL});\n"
                    "COMMIT;"
                )
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise MigrationError(f"Migration {name} failed on {self.path}: {exc}") from exc

    def database_size(self) -> int:
        """Bytes of the database file plus its write-ahead log."""
        total = 0
        for suffix in ("", "-wal"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                total += part.stat().st_size
        return total


__all__ = ["SqliteStore"]
