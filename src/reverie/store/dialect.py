"""What the statements written once for both engines run on: a :class:`Dialect` per engine.

A statement is written once, with ``?`` for positional and ``:name`` for named parameters
(SQLite's own styles); the PostgreSQL dialect turns them into psycopg's. Each dialect runs a
statement on its engine's connection of this thread (joining its transaction, if any), returns
rows as dicts, and says how the two engines spell the few things they spell differently. Booleans
go in as Python ``bool`` (SQLite keeps 1 and 0), so rows read back wrap them in ``bool()``.

What truly differs lives in the engine's dialect module only: keyword search (FTS5 against a
tsvector ranked by the same BM25), how a turn is indexed, how vectors are written and read back
(rowids against transaction ids), claiming work under locks, and the upsert of the cache.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import fields
from typing import Any, Generic, Literal, TypeVar, cast

from reverie.store.rows import VectorKind

Params = Sequence[Any] | Mapping[str, Any]
Row = dict[str, Any]
KeywordIndex = Literal["memories", "summaries", "messages", "message_windows", "chunks"]
Clause = tuple[str, list[Any]]  # a piece of a statement and its parameters
IdVector = tuple[int, bytes]  # an item's id and its vector as float32 bytes
T = TypeVar("T")


def column_list(row_type: type, prefix: str = "") -> str:
    """A row type's fields as the columns to select (each after ``prefix``, e.g. ``m.``), in order."""
    return ", ".join(prefix + field.name for field in fields(row_type))


def insert_sql(table: str, names: Sequence[str]) -> str:
    """``INSERT INTO table (names) VALUES (?, ...)``: a positional parameter a column, in order.

    (Named parameters would read better, but SQLite binds them slower: 6 us more a memory inserted.)
    """
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"


class RowReader(Generic[T]):
    """Reads a row type from a row holding its fields' columns; ``columns`` selects them (after ``prefix``).

    A field typed ``bool`` goes through ``bool()`` (SQLite keeps 1 and 0); ``convert`` adds others.
    """

    def __init__(self, row_type: Callable[..., T], prefix: str = "", **convert: Callable[[Any], Any]) -> None:
        self.columns = column_list(cast(type, row_type), prefix)
        self._type = row_type
        self._names = [field.name for field in fields(cast(Any, row_type))]
        flags = {f.name: bool for f in fields(cast(Any, row_type)) if f.type == "bool"}
        self._converted: dict[str, Callable[[Any], Any]] = flags | convert

    def __call__(self, row: Row) -> T:
        values = {name: row[name] for name in self._names}
        for name, change in self._converted.items():
            values[name] = change(values[name])
        return self._type(**values)


def time_range(column: str, start: float | None, end: float | None) -> Clause:
    """`` AND column >= ? AND column < ?`` for the bounds given (none: ''), and their parameters."""
    bounds = [(f" AND {column} >= ?", start), (f" AND {column} < ?", end)]
    return "".join(sql for sql, value in bounds if value is not None), [v for _, v in bounds if v is not None]


def match_groups(terms: Sequence[str], min_match: int | None) -> list[list[str]]:
    """Groups of terms, all of one group to be found, matching any term or at least ``min_match``.

    "All but one" is a group a term left out; needing fewer than all but one falls back to any
    term (the caller filters).
    """
    missing = len(terms) - (min_match if min_match is not None else 1)
    if min_match is None or missing >= len(terms) - 1 or missing > 1:
        return [[term] for term in terms]
    if missing <= 0:
        return [list(terms)]
    return [[term for j, term in enumerate(terms) if j != skip] for skip in range(len(terms))]


class Dialect(ABC):
    """One engine's way to run the shared statements."""

    name: str  # "sqlite" or "postgres", as the migrations folders are named
    greatest: str  # the larger of two values: GREATEST, or MAX(a, b) on SQLite
    least: str  # the smaller of two values: LEAST, or MIN(a, b) on SQLite
    no_limit: str  # a LIMIT that keeps every row (SQLite needs one before OFFSET)
    skip_locked: str  # ends a claiming SELECT so racing workers each get another row
    false: str  # a boolean column ``{}`` is false: NOT {}, or {} = 0 on SQLite

    @abstractmethod
    def rows(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query; every row, as a dict by column name."""

    def row(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query; its first row, or None."""
        found = self.rows(sql, params)
        return found[0] if found else None

    def select(self, read: RowReader[T], sql: str, params: Params = ()) -> list[T]:
        """Run ``SELECT <read's columns> sql``; every row, made by ``read``."""
        return [read(row) for row in self.rows(f"SELECT {read.columns} {sql}", params)]

    def select_one(self, read: RowReader[T], sql: str, params: Params = ()) -> T | None:
        """Run ``SELECT <read's columns> sql``; its first row made by ``read``, or None."""
        found = self.row(f"SELECT {read.columns} {sql}", params)
        return read(found) if found else None

    def value(self, sql: str, params: Params = ()) -> Any:
        """Run a query; the first column of its first row, or None."""
        found = self.row(sql, params)
        return next(iter(found.values())) if found else None

    @abstractmethod
    def run(self, sql: str, params: Params = ()) -> int:
        """Run one write atomically (in this thread's transaction, if any); how many rows it changed."""

    @abstractmethod
    def run_many(self, sql: str, params: Sequence[Params]) -> None:
        """Run one write once per parameter set, in one transaction."""

    def insert(self, sql: str, params: Params = ()) -> int | None:
        """Run an INSERT of one row into a table with an ``id`` key; its id (None: ON CONFLICT DO NOTHING)."""
        row = self.write_row(sql, params, "id")
        return int(row["id"]) if row else None

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
    def ranked(
        self, index: KeywordIndex, owner: int, terms: Sequence[str], min_match: int | None = None
    ) -> Clause:
        """``WITH ranked(id, score)``: rows of ``index`` matching any term (or ``min_match``), by BM25.

        ``owner`` bounds the rows: the user's, or for chunks the shared ones and viewer ``owner``'s.
        """

    @abstractmethod
    def one_of(self, column: str, values: Sequence[Any]) -> Clause:
        """A condition that ``column`` is one of ``values`` (a batch), and its parameters."""

    @abstractmethod
    def batches(self, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """``values`` cut into batches that fit one statement (none when there are no values)."""

    def is_false(self, column: str) -> str:
        """A condition that a boolean column is false, spelled as the engine's partial indexes are."""
        return self.false.format(column)

    @abstractmethod
    def write_row(self, sql: str, params: Params, columns: str) -> Row | None:
        """Run an INSERT or UPDATE of one row with ``RETURNING columns``; the row, None if none changed."""

    def write_one(self, read: RowReader[T], sql: str, params: Params) -> T | None:
        """Run an INSERT or UPDATE of one row; the row as it is now made by ``read``, None if none changed."""
        found = self.write_row(sql, params, read.columns)
        return read(found) if found else None

    def search_memories(
        self,
        user_id: int,
        terms: Sequence[str],
        columns: str,
        filters: str,
        params: Sequence[Any],
        limit: int,
        min_match: int | None,
    ) -> list[Row]:
        """Memories ``m`` matching any term (or ``min_match``) and ``filters``, with ``score``, best first."""
        ctes, ranked_params = self.ranked("memories", user_id, terms, min_match)
        return self.rows(
            f"{ctes} SELECT {columns}, r.score FROM ranked r JOIN memories m ON m.id = r.id"
            f" WHERE {filters} ORDER BY r.score DESC, m.confidence DESC, m.id LIMIT ?",
            [*ranked_params, *params, limit],
        )

    @abstractmethod
    def insert_message(
        self, user_id: int, conversation_id: int, values: Sequence[Any], text: str | None, window: str | None
    ) -> int | None:
        """Insert and index a turn (role, content, speaker, ref, created_at, intent); its id, or None.

        ``text`` is what keyword search finds the turn by, ``window`` what its window is found by
        (None: the content, the text).
        """

    @abstractmethod
    def put_vectors(
        self, user_id: int, kind: VectorKind, items: Sequence[IdVector], model_id: str, dims: int
    ) -> None:
        """Store (or replace) the vector of each item."""

    @abstractmethod
    def load_vectors(
        self, user_id: int, kind: VectorKind, model_id: str, after: int, join: str
    ) -> tuple[list[IdVector], int]:
        """The user's vectors (``v``, with ``join``) written after the mark ``after``, and the new mark."""

    @abstractmethod
    def vectors_of(
        self, user_id: int, kind: VectorKind, model_id: str, ids: Sequence[int], join: str
    ) -> list[IdVector]:
        """The loadable vectors of these items."""

    @abstractmethod
    def changed_vectors(self, user_id: int, kind: VectorKind, after: int) -> tuple[set[int], bool]:
        """Items changed since version ``after``, and whether this transaction wrote vectors of its own."""

    @abstractmethod
    def own_vector_writes(self, user_id: int) -> bool:
        """Whether this thread's transaction has written vectors not yet committed."""

    @abstractmethod
    def cache_put(self, model_id: str, dims: int, items: Sequence[tuple[str, bytes]], now: float) -> None:
        """Add vectors to the embedding cache (replacing those of the same hash and model)."""

    def _among(self, sql: str, column: str, values: Sequence[Any], params: Sequence[Any]) -> list[Clause]:
        """``sql`` (``params`` filling the placeholders before its ``{among}``) once a batch of ``values``."""
        batches = [self.one_of(column, batch) for batch in self.batches(values)]
        return [(sql.replace("{among}", among), [*params, *listed]) for among, listed in batches]

    def rows_among(
        self, sql: str, column: str, values: Sequence[Any], params: Sequence[Any] = ()
    ) -> list[Row]:
        """Run a query whose ``{among}`` stands for ``column`` being one of ``values``; every row."""
        found: list[Row] = []
        for statement in self._among(sql, column, values, params):
            found += self.rows(*statement)
        return found

    def run_among(self, sql: str, column: str, values: Sequence[Any], params: Sequence[Any] = ()) -> int:
        """Run a write whose ``{among}`` stands for ``column`` in ``values``, atomically; rows changed."""
        statements = self._among(sql, column, values, params)
        if len(statements) == 1:  # one statement is atomic alone
            return self.run(*statements[0])
        with self.transaction():
            return sum(self.run(*statement) for statement in statements)


class StorePart:
    """A part of an engine's store, mixed into it: its statements run on the store's ``db``."""

    db: Dialect


class UserPart(StorePart):
    """A part of the user store (``store.scope(user_id)``): every statement it runs carries ``user_id``."""

    user_id: int

    def _owned(self, read: RowReader[T], table: str, ids: Sequence[int]) -> list[T]:
        """The rows of ``table`` with these ids that belong to this user."""
        sql = f"SELECT {read.columns} FROM {table} WHERE +user_id = ? AND {{among}}"
        return [read(row) for row in self.db.rows_among(sql, "id", ids, (self.user_id,))]


__all__ = [
    "Clause",
    "Dialect",
    "IdVector",
    "KeywordIndex",
    "Params",
    "Row",
    "RowReader",
    "StorePart",
    "UserPart",
    "column_list",
    "insert_sql",
    "match_groups",
    "time_range",
]
