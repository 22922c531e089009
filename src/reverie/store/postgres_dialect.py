"""How the shared statements run on PostgreSQL: psycopg's placeholders, RETURNING and arrays."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Any

import psycopg

from reverie.store.dialect import Dialect, Params, Row

Conn = psycopg.Connection[dict[str, Any]]
# psycopg reads every % as a placeholder, even in quoted text; ? and :name in quoted text stay.
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|::|\?|%|:([A-Za-z_]\w*)")


@lru_cache(maxsize=1024)
def pyformat(sql: str) -> str:
    """A statement written with ``?`` and ``:name`` placeholders, in psycopg's ``%s`` and ``%(name)s``."""

    def swap(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        if match.group(1):
            return f"%({match.group(1)})s"
        return token.replace("%", "%%")

    return _TOKENS.sub(swap, sql)


class PgDialect(Dialect):
    """Runs statements on this thread's transaction connection of a PostgreSQL store, or a pooled one."""

    name = "postgres"

    def __init__(
        self,
        connection: Callable[[], AbstractContextManager[Conn]],
        transaction: Callable[[], AbstractContextManager[Conn]],
    ) -> None:
        self._connection = connection
        self._transaction = transaction

    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query; every row, as a dict by column name."""
        with self._connection() as conn:
            return conn.execute(pyformat(sql), params).fetchall()

    def run(self, sql: str, params: Params = ()) -> int:
        """Run one write; outside a transaction it runs alone in autocommit, just as atomic."""
        with self._connection() as conn:
            return conn.execute(pyformat(sql), params).rowcount

    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        """Run one write once per parameter set, in one transaction."""
        if not params:
            return
        with self._transaction() as conn, conn.cursor() as cur:
            cur.executemany(pyformat(sql), params)

    def insert(self, sql: str, params: Params = ()) -> int | None:
        """Run an INSERT of one row; the new row's id by ``RETURNING id``, or None if it inserted nothing."""
        with self._connection() as conn:
            row = conn.execute(pyformat(sql + " RETURNING id"), params).fetchone()
        return int(row["id"]) if row else None

    def transaction(self) -> AbstractContextManager[object]:
        """A transaction on a pooled connection held by this thread; nested calls join the outer one."""
        return self._transaction()

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column = ANY(?)`` with the values as one array."""
        return f"{column} = ANY(?)", [list(values)]

    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """All values in one batch (an array parameter has no length limit)."""
        if values:
            yield values


__all__ = ["PgDialect", "pyformat"]
