"""The SQLite engine: one database file, WAL, numbered migrations, one connection per thread."""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from reverie.errors import MigrationError
from reverie.store.accounts import Accounts
from reverie.store.dialect import Dialect
from reverie.store.documents import Documents
from reverie.store.maintenance import MaintenanceRuns
from reverie.store.schema import shipped_migrations
from reverie.store.sqlite_dialect import SqliteDialect
from reverie.store.sqlite_user import SqliteUserStore

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


class SqliteStore(Documents, Accounts, MaintenanceRuns):
    """A Reverie database in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self.db: Dialect = SqliteDialect(self.connection, self.transaction)
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
        shipped = shipped_migrations("sqlite")
        newest = max((v for v, _, _ in shipped), default=0)
        if applied and max(applied) > newest:
            raise MigrationError(
                f"{self.path} has schema version {max(applied)}, newer than this Reverie "
                f"knows ({newest}); upgrade Reverie before opening it"
            )
        for version, name, sql in shipped:
            if version in applied:
                continue
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

    def shared(self) -> bool:
        """True when the file holds more than one user (keyword queries then filter by owner first)."""
        return self.connection().execute("SELECT 1 FROM users LIMIT 1 OFFSET 1").fetchone() is not None

    def schema_version(self) -> int:
        """The newest migration applied."""
        row = self.connection().execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        return int(row[0] or 0)

    def database_size(self) -> int:
        """Bytes of the database file plus its write-ahead log."""
        total = 0
        for suffix in ("", "-wal"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                total += part.stat().st_size
        return total

    # embedding cache ---------------------------------------------------------------
    def cache_get(self, model_id: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """Cached vectors of this model for these content hashes."""
        found: dict[str, bytes] = {}
        conn = self.connection()
        for start in range(0, len(hashes), 500):
            batch = list(hashes[start : start + 500])
            rows = conn.execute(
                f"SELECT content_hash, vector FROM embedding_cache WHERE model_id = ?"
                f" AND content_hash IN ({', '.join('?' * len(batch))})",
                [model_id, *batch],
            ).fetchall()
            found.update((row[0], bytes(row[1])) for row in rows)
        return found

    def cache_put(self, model_id: str, dims: int, items: Sequence[tuple[str, bytes]], now: float) -> None:
        """Add vectors to the cache."""
        with self.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO embedding_cache"
                " (content_hash, model_id, dimensions, vector, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(digest, model_id, dims, blob, now) for digest, blob in items],
            )

    def cache_prune(self, max_entries: int) -> int:
        """Drop the oldest entries beyond ``max_entries``."""
        with self.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM embedding_cache WHERE rowid IN (SELECT rowid FROM embedding_cache"
                " ORDER BY created_at DESC LIMIT -1 OFFSET ?)",
                (max_entries,),
            )
        return cur.rowcount

    def cache_record(self, model_id: str, hits: int, misses: int) -> None:
        """Add to the hit and miss counters of a model."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO embedding_cache_stats (model_id, hits, misses) VALUES (?, ?, ?)"
                " ON CONFLICT(model_id) DO UPDATE"
                " SET hits = hits + excluded.hits, misses = misses + excluded.misses",
                (model_id, hits, misses),
            )

    def cache_stats(self) -> dict[str, int]:
        """entries, hits and misses over all models."""
        conn = self.connection()
        entries = conn.execute("SELECT COUNT(*) FROM embedding_cache").fetchone()[0]
        hits, misses = conn.execute(
            "SELECT COALESCE(SUM(hits), 0), COALESCE(SUM(misses), 0) FROM embedding_cache_stats"
        ).fetchone()
        return {"entries": int(entries), "hits": int(hits), "misses": int(misses)}

    # consolidation queue --------------------------------------------------------------
    def expire_conversations(self, now: float, idle_seconds: float) -> int:
        """End every open conversation idle for longer than ``idle_seconds``; queue it."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE conversations SET ended_at = last_activity, consolidation_state ="
                " CASE WHEN is_private THEN 'skipped' ELSE 'pending' END"
                " WHERE ended_at IS NULL AND last_activity < ?",
                (now - idle_seconds,),
            )
        return cur.rowcount

    def claim_consolidation(
        self, now: float, worker: str, lease_seconds: float, max_attempts: int
    ) -> tuple[int, int] | None:
        """Take the next conversation to consolidate: (user id, conversation id), or None.

        Pending ones, running ones whose lease has expired (their worker died) and failed ones
        whose retry time has come qualify; a user's conversations go strictly in order, so a
        later session waits while an earlier one is still queued.
        """
        due = (
            "(c.consolidation_state = 'pending'"
            " OR (c.consolidation_state = 'running' AND c.lease_until < :now)"
            " OR (c.consolidation_state = 'failed' AND c.attempts < :max AND c.next_attempt_at <= :now))"
        )
        waiting = (
            "(e.consolidation_state IN ('pending', 'running')"
            " OR (e.consolidation_state = 'failed' AND e.attempts < :max))"
        )
        with self.transaction() as conn:
            row = conn.execute(
                f"SELECT c.id, c.user_id FROM conversations c WHERE {due} AND NOT EXISTS ("
                f"SELECT 1 FROM conversations e WHERE e.user_id = c.user_id AND e.id < c.id AND {waiting})"
                " ORDER BY c.ended_at, c.id LIMIT 1",
                {"now": now, "max": max_attempts},
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE conversations SET consolidation_state = 'running', worker = ?, lease_until = ?,"
                " attempts = attempts + 1 WHERE id = ?",
                (worker, now + lease_seconds, row["id"]),
            )
        return int(row["user_id"]), int(row["id"])

    def complete_consolidation(
        self, conversation_id: int, worker: str, now: float, state: str = "done"
    ) -> bool:
        """Mark a claimed job done (in the caller's transaction); False if this worker lost its lease."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE conversations SET consolidation_state = ?, consolidated_at = ?, lease_until = NULL,"
                " last_error = NULL WHERE id = ? AND worker = ? AND consolidation_state = 'running'",
                (state, now, conversation_id, worker),
            )
        return cur.rowcount == 1

    def fail_consolidation(self, conversation_id: int, worker: str, error: str, retry_at: float) -> None:
        """Record a failed attempt; the job is retried at ``retry_at`` while attempts remain."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET consolidation_state = 'failed', last_error = ?,"
                " next_attempt_at = ?,"
                " lease_until = NULL WHERE id = ? AND worker = ? AND consolidation_state = 'running'",
                (error[:2000], retry_at, conversation_id, worker),
            )

    def release_consolidation(self, conversation_id: int, worker: str) -> bool:
        """Give a claimed job back to the queue (shutdown), without counting the attempt."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE conversations SET consolidation_state = 'pending', worker = NULL, lease_until = NULL,"
                " attempts = MAX(attempts - 1, 0)"
                " WHERE id = ? AND worker = ? AND consolidation_state = 'running'",
                (conversation_id, worker),
            )
        return cur.rowcount == 1

    def reschedule_failed(self, now: float) -> int:
        """Make every failed consolidation due now, with its attempts reset."""
        with self.transaction() as conn:
            cur = conn.execute(
                "UPDATE conversations SET next_attempt_at = ?, attempts = 0"
                " WHERE consolidation_state = 'failed'",
                (now,),
            )
        return cur.rowcount

    def consolidation_counts(self) -> dict[str, int]:
        """How many conversations are in each consolidation state."""
        rows = (
            self.connection()
            .execute("SELECT consolidation_state, COUNT(*) FROM conversations GROUP BY consolidation_state")
            .fetchall()
        )
        return {str(row[0]): int(row[1]) for row in rows}

    # users -------------------------------------------------------------------------
    def scope(self, user_id: int) -> SqliteUserStore:
        """A view bound to one user."""
        return SqliteUserStore(self, user_id)


__all__ = ["SqliteStore"]
