"""What the statements written once for both engines run on: a :class:`Dialect` per engine.

A statement is written once, with ``?`` for positional and ``:name`` for named parameters
(SQLite's own styles); the PostgreSQL dialect turns them into psycopg's. Each dialect runs a
statement on its engine's connection of this thread (joining its transaction, if any), returns
rows as dicts, and says how the two engines spell the few things they spell differently. Booleans
go in as Python ``bool`` (SQLite keeps 1 and 0), so rows read back wrap them in ``bool()``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

Params = Sequence[Any] | Mapping[str, Any]
Row = dict[str, Any]


class Dialect(ABC):
    """One engine's way to run the shared statements."""

    name: str  # "sqlite" or "postgres", as the migrations folders are named
    greatest: str  # the larger of two values: GREATEST, or MAX(a, b) on SQLite
    least: str  # the smaller of two values: LEAST, or MIN(a, b) on SQLite

    @abstractmethod
    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query; every row, as a dict by column name."""

    def row(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query; its first row, or None."""
        found = self.rows(sql, params)
        return found[0] if found else None

    @abstractmethod
    def run(self, sql: str, params: Params = ()) -> int:
        """Run one write atomically (in this thread's transaction, if any); how many rows it changed."""

    @abstractmethod
    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        """Run one write once per parameter set, in one transaction."""

    @abstractmethod
    def insert(self, sql: str, params: Params = ()) -> int | None:
        """Run an INSERT of one row into a table with an ``id`` key; the new row's id.

        None when it inserted nothing (``ON CONFLICT DO NOTHING`` met an existing row).
        """

    @abstractmethod
    def transaction(self) -> AbstractContextManager[object]:
        """Group the statements run inside into one transaction (nested calls join the outer one)."""

    @abstractmethod
    def lock(self, key: int) -> None:
        """Hold the lock ``key`` until this thread's transaction ends; other processes taking it wait."""

    @abstractmethod
    def vector(self, blob: bytes) -> Any:
        """A vector (little-endian float32 bytes) as this engine takes it as a parameter."""

    @abstractmethod
    def id_vectors(self, sql: str, params: Params = ()) -> tuple[list[int], list[bytes]]:
        """Run a query of (id, vector) rows; the ids and the vectors as float32 bytes."""

    @abstractmethod
    def rank_chunks(self, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Document chunks matching any term, (id, BM25 score) best first; the text weighs most."""

    @abstractmethod
    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """A condition that ``column`` is one of ``values`` (a batch), and its parameters."""

    @abstractmethod
    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """``values`` cut into batches that fit one statement (none when there are no values)."""

    def run_among(self, sql: str, column: str, values: Sequence[Any], params: Sequence[Any] = ()) -> int:
        """Run a write whose ``{among}`` stands for ``column`` being one of ``values``; rows changed.

        ``params`` fill the placeholders before ``{among}``; it runs once a batch, in one transaction.
        """
        changed = 0
        with self.transaction():
            for batch in self.batches(values):
                among, listed = self.one_of(column, batch)
                changed += self.run(sql.replace("{among}", among), (*params, *listed))
        return changed


__all__ = ["Dialect", "Params", "Row"]
