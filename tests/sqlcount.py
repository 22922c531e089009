"""Count the SQL statements a store sends, on either engine, with the thread that sent each.

``StatementLog.attach(store)`` hooks the store's connections (SQLite: the connection's trace
callback; PostgreSQL: a counting cursor class, plus BEGIN and COMMIT of each outermost
transaction, which psycopg sends without a cursor). Statements are kept only inside
``with log.recording():``, so setup costs nothing. FTS5's own statements (``-- ...``) and the
PRAGMAs of a new connection are not counted. Used by tests/test_turn_statements.py and
bench/chat_statements.py.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reverie.store.base import Store

#: Threads whose work never delays a reply: the turn indexer, extraction and topic detection, upkeep.
DEFERRED = (
    "reverie-indexer",
    "reverie-background",
    "reverie-maintenance",
    "reverie-consolidator",
    "reverie-docs",
)


class StatementLog:
    """The statements a store ran while recording: (thread name, SQL) in order."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self._on = False
        self._lock = threading.Lock()
        self._local = threading.local()

    def note(self, sql: str) -> None:
        """Keep one statement (while recording)."""
        if self._on and not sql.startswith("--"):
            with self._lock:
                self.seen.append((threading.current_thread().name, " ".join(sql.split())))

    @contextmanager
    def recording(self) -> Iterator[StatementLog]:
        """Keep the statements run inside."""
        self._on = True
        try:
            yield self
        finally:
            self._on = False

    def clear(self) -> None:
        """Forget what was kept."""
        with self._lock:
            self.seen.clear()

    def statements(self, *, deferred: bool = False) -> list[str]:
        """The request's statements (``deferred``: those of the background threads instead)."""
        return [sql for name, sql in self.seen if name.startswith(DEFERRED) == deferred]

    def repeated(self) -> Counter[str]:
        """The request's statements run more than once, by count."""
        counts = Counter(self.statements())
        return Counter({sql: n for sql, n in counts.items() if n > 1})

    # hooks -------------------------------------------------------------------------
    def attach(self, store: Store) -> StatementLog:
        """Hook ``store``'s connections (its dialect is rebuilt over the hooked ones)."""
        from reverie.store.sqlite import SqliteStore

        if isinstance(store, SqliteStore):
            self._attach_sqlite(store)
        else:
            self._attach_postgres(store)
        return self

    def _attach_sqlite(self, store: Any) -> None:
        from reverie.store.sqlite_dialect import SqliteDialect

        opened = store.connection
        traced: set[int] = set()

        def connection() -> sqlite3.Connection:
            conn: sqlite3.Connection = opened()
            if id(conn) not in traced:
                traced.add(id(conn))
                conn.set_trace_callback(self.note)  # BEGIN and COMMIT included
            return conn

        store.connection = connection
        store.db = SqliteDialect(store.connection, store.transaction, store.uncommitted_writes)

    def _attach_postgres(self, store: Any) -> None:
        import psycopg

        from reverie.store.postgres_dialect import PgDialect

        log = self

        class Counting(psycopg.Cursor[Any]):
            def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
                log.note(str(query))
                return super().execute(query, params, **kwargs)

            def executemany(self, query: Any, params_seq: Any, **kwargs: Any) -> None:
                params_seq = list(params_seq)
                for _ in params_seq:
                    log.note(str(query))
                super().executemany(query, params_seq, **kwargs)

        borrow, begin = store.connection, store.transaction

        @contextmanager
        def connection() -> Iterator[Any]:
            with borrow() as conn:
                conn.cursor_factory = Counting
                yield conn

        @contextmanager
        def transaction() -> Iterator[Any]:
            depth = getattr(self._local, "depth", 0)
            self._local.depth = depth + 1
            try:
                with begin() as conn:
                    conn.cursor_factory = Counting
                    if not depth:
                        self.note("BEGIN")
                    yield conn
            finally:
                self._local.depth = depth
                if not depth:
                    self.note("COMMIT")

        store.connection, store.transaction = connection, transaction
        store.db = PgDialect(store.connection, store.transaction)


__all__ = ["DEFERRED", "StatementLog"]
