"""Copy a SQLite store into PostgreSQL, table by table, and prove the copy with counts and checksums.

Rows keep their ids (so references, exports and audit lines stay valid), identity sequences are
moved past them, and every table is read back and hashed in a canonical form on both sides.
The target must be empty or a previous copy of the same source (recorded in ``copied_from``);
a previous copy is emptied and copied again, so the command can be re-run until the switch-over.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reverie.errors import Conflict, InvalidInput, NotFound
from reverie.store.postgres import PgStore, redact
from reverie.store.postgres_dialect import Vector
from reverie.store.sqlite import SqliteStore

# Not copied: the migrations' bookkeeping, this copy's record, and vector_versions and the
# vector_changes log, which the target's triggers keep (cache keys, not data). The full-text
# tables are SQLite's alone: PostgreSQL computes its own from the rows (the messages' indexed
# texts travel as columns).
_NOT_COPIED = ("schema_migrations", "copied_from", "vector_versions", "vector_changes")
_SOURCE_SQL = {
    # The indexed texts of a turn live in SQLite's FTS tables; NULL stands for "same as the content".
    "messages": (
        "SELECT m.*, NULLIF(f.text, m.content) AS search_text,"
        " NULLIF(w.text, COALESCE(f.text, m.content)) AS window_text"
        " FROM messages m LEFT JOIN messages_fts f ON f.rowid = m.id"
        " LEFT JOIN message_windows_fts w ON w.rowid = m.id"
    ),
    "vectors": "SELECT v.*, v.vector AS embedding FROM vectors v",
}
BATCH = 2000


def _source_sql(table: Table) -> str:
    return _SOURCE_SQL.get(table.name, f"SELECT * FROM {table.name}")


@dataclass(frozen=True)
class Table:
    """A table of the target to copy, as its catalog describes it."""

    name: str
    keys: str  # its primary key's columns: the order rows are read and hashed in on both sides
    parents: list[str]  # the other tables it references
    self_refs: list[str]  # columns referencing rows of its own: set once every row is in


def copied_tables(target: PgStore) -> list[Table]:
    """The target's tables to copy, each after those it references (otherwise as they were created)."""
    rows = target.db.rows(
        "SELECT c.relname::text AS name, array_to_string(ARRAY(SELECT a.attname FROM pg_index i"
        " CROSS JOIN unnest(i.indkey) WITH ORDINALITY AS k(num, n) JOIN pg_attribute a"
        " ON a.attrelid = c.oid AND a.attnum = k.num WHERE i.indrelid = c.oid AND i.indisprimary"
        " ORDER BY k.n), ', ') AS keys, ARRAY(SELECT f.confrelid::regclass::text FROM pg_constraint f"
        " WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS parents,"
        " ARRAY(SELECT a.attname::text FROM pg_constraint f JOIN pg_attribute a ON a.attrelid = c.oid"
        " AND a.attnum = ANY(f.conkey) WHERE f.conrelid = c.oid AND f.contype = 'f'"
        " AND f.confrelid = c.oid) AS self_refs FROM pg_class c WHERE c.relkind = 'r'"
        " AND c.relnamespace = to_regnamespace(current_schema()) AND c.relname <> ALL(?) ORDER BY c.oid",
        (list(_NOT_COPIED),),
    )
    pending = [Table(**row) for row in rows]
    names = {table.name for table in pending}
    ordered: list[Table] = []
    while pending:
        done = {table.name for table in ordered}
        ordered.append(next(t for t in pending if names.intersection(t.parents) <= done))
        pending.remove(ordered[-1])
    return ordered


Progress = Callable[[str, int, int], None]


@dataclass
class TableReport:
    """How one table went: rows on each side and their checksums."""

    rows: int
    copied: int
    source_sha256: str = ""
    target_sha256: str = ""

    @property
    def ok(self) -> bool:
        """Same count and same checksum."""
        return self.rows == self.copied and self.source_sha256 == self.target_sha256


@dataclass
class CopyReport:
    """A whole copy: per-table reports and whether the target was a previous copy."""

    source: str
    replaced_previous: bool
    tables: dict[str, TableReport] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Every table matches."""
        return all(table.ok for table in self.tables.values())

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "source": self.source,
            "replaced_previous": self.replaced_previous,
            "ok": self.ok,
            "seconds": round(self.seconds, 2),
            "tables": {
                name: {"rows": t.rows, "copied": t.copied, "sha256": t.target_sha256, "ok": t.ok}
                for name, t in self.tables.items()
            },
        }


@dataclass(frozen=True)
class _Column:
    name: str
    kind: str  # boolean, vector or plain


def _canonical(value: Any, kind: str) -> Any:
    """A value as both engines agree on it, for hashing."""
    if value is None:
        return None
    if kind == "boolean":
        return int(bool(value))
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, float):
        return repr(value)
    return value


def _row_hash(digest: Any, values: Sequence[Any], columns: Sequence[_Column]) -> None:
    canonical = [_canonical(v, c.kind) for v, c in zip(values, columns, strict=True)]
    digest.update(json.dumps(canonical, separators=(",", ":"), default=str).encode())
    digest.update(b"\n")


def _to_target(value: Any, column: _Column) -> Any:
    """A source value as the target's column takes it."""
    if value is None or column.kind not in ("boolean", "vector"):
        return value
    return bool(value) if column.kind == "boolean" else Vector(bytes(value))


class _Copier:
    def __init__(self, source: SqliteStore, target: PgStore, progress: Progress | None) -> None:
        self.source = source
        self.target = target
        self.progress = progress or (lambda table, done, total: None)

    def source_tables(self) -> set[str]:
        rows = self.source.connection().execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(row[0]) for row in rows}

    def columns(self, table: Table) -> list[_Column]:
        """The target's columns that the source has too (not the generated ones, nor xid)."""
        cursor = self.source.connection().execute(f"SELECT * FROM ({_source_sql(table)}) LIMIT 0")
        present = {str(d[0]) for d in cursor.description}
        rows = self.target.db.rows(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? AND is_generated = 'NEVER'"
            " AND column_name <> 'xid' ORDER BY ordinal_position",
            (table.name,),
        )
        kinds = {"boolean": "boolean", "USER-DEFINED": "vector"}
        found = [_Column(row["column_name"], kinds.get(row["data_type"], "plain")) for row in rows]
        return [column for column in found if column.name in present]

    def copy_table(self, table: Table) -> TableReport:
        columns = self.columns(table)
        names = [c.name for c in columns]
        conn = self.source.connection()
        total = int(conn.execute(f"SELECT COUNT(*) FROM ({_source_sql(table)})").fetchone()[0])
        rows = conn.execute(f"SELECT {', '.join(names)} FROM ({_source_sql(table)}) ORDER BY {table.keys}")
        digest = hashlib.sha256()
        # A row may point at a later one of its table (a memory at a newer one): linked once all are in.
        later = [names.index(name) for name in table.self_refs]
        keys = [names.index(name) for name in table.keys.split(", ")]
        deferred: list[list[Any]] = []
        placeholders = ", ".join("%b" if c.kind == "vector" else "%s" for c in columns)
        insert = f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({placeholders})"
        done = 0
        self.progress(table.name, 0, total)
        while batch := [tuple(row) for _, row in zip(range(BATCH), rows, strict=False)]:
            prepared = []
            for values in batch:
                _row_hash(digest, values, columns)
                row = [_to_target(v, c) for v, c in zip(values, columns, strict=True)]
                if any(row[i] is not None for i in later):
                    deferred.append([*(row[i] for i in later), *(row[i] for i in keys)])
                    row = [None if i in later else value for i, value in enumerate(row)]
                prepared.append(row)
            with self.target.transaction() as target, target.cursor() as cur:
                cur.executemany(insert, prepared)
            done += len(batch)
            self.progress(table.name, done, total)
        if deferred:
            links = ", ".join(f"{name} = ?" for name in table.self_refs)
            where = f"({table.keys}) = ({', '.join('?' * len(keys))})"
            self.target.db.run_many(f"UPDATE {table.name} SET {links} WHERE {where}", deferred)
        return TableReport(rows=total, copied=0, source_sha256=digest.hexdigest())

    def target_hash(self, table: Table) -> tuple[int, str]:
        """Rows in the target table and their checksum, computed like the source's."""
        columns = self.columns(table)
        names = [c.name for c in columns]
        digest = hashlib.sha256()
        count = 0
        with self.target.connection() as conn, conn.cursor(binary=True) as cur:
            cur.execute(f"SELECT {', '.join(names)} FROM {table.name} ORDER BY {table.keys}")
            for row in cur:
                _row_hash(digest, [row[name] for name in names], columns)
                count += 1
        return count, digest.hexdigest()


def _is_empty(target: PgStore) -> bool:
    """True when the target holds no user, document or cached vector."""
    return not target.db.value(
        "SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM documents)"
        " OR EXISTS (SELECT 1 FROM embedding_cache)"
    )


def copy_sqlite_to_postgres(
    source: SqliteStore, target: PgStore, *, source_name: str, now: float, progress: Progress | None = None
) -> CopyReport:
    """Copy every table; refuse a non-empty target unless it is a previous copy of this source."""
    started = time.perf_counter()
    previous = target.db.rows("SELECT source FROM copied_from")
    replaced = False
    if not _is_empty(target) or previous:
        sources = [row["source"] for row in previous]
        if sources != [source_name]:
            what = f"a copy of {sources[0]}" if sources else "data that reverie migrate did not copy there"
            raise Conflict(
                f"The target database is not empty: it holds {what}. Copy into an empty database "
                "(createdb NAME), or drop this one first if it is a copy you no longer need"
            )
        replaced = True
    copier = _Copier(source, target, progress)
    present = copier.source_tables()
    every = copied_tables(target)
    tables = [table for table in every if table.name in present]
    with target.transaction() as conn:
        truncated = ", ".join(table.name for table in every)
        conn.execute(f"TRUNCATE {truncated}, copied_from RESTART IDENTITY CASCADE")
        conn.execute("INSERT INTO copied_from (source, started_at) VALUES (%s, %s)", (source_name, now))
    report = CopyReport(source_name, replaced)
    snapshot = source.connection()
    snapshot.execute("BEGIN")  # one consistent read of the source; writers are not blocked (WAL)
    try:
        for table in tables:
            report.tables[table.name] = copier.copy_table(table)
        for table in tables:
            copied = report.tables[table.name]
            copied.copied, copied.target_sha256 = copier.target_hash(table)
    finally:
        snapshot.execute("COMMIT")
    with target.transaction() as conn:
        for name in [table.name for table in tables if table.keys == "id"]:
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                f" GREATEST((SELECT MAX(id) FROM {name}), 1), (SELECT MAX(id) FROM {name}) IS NOT NULL)"
            )
    checksums = {name: t.target_sha256 for name, t in report.tables.items()}
    target.db.run(
        "UPDATE copied_from SET finished_at = ?, checksums = ? WHERE source = ?",
        (now, json.dumps(checksums), source_name),
    )
    report.seconds = time.perf_counter() - started
    return report


def migrate(source_url: str, target_url: str, *, now: float, progress: Progress | None = None) -> CopyReport:
    """Copy the SQLite store at ``sqlite:///PATH`` into the PostgreSQL database at ``target_url``."""
    if not source_url.startswith("sqlite:///"):
        raise InvalidInput(f"--from must be a sqlite:///PATH URL, got '{source_url}'")
    if not target_url.startswith(("postgresql://", "postgres://")):
        raise InvalidInput(f"--to must be a postgresql:// URL, got '{redact(target_url)}'")
    path = Path(source_url.removeprefix("sqlite:///")).expanduser()
    if not path.is_file():
        raise NotFound(
            f"No SQLite database at {path}; check --from (sqlite:///PATH, e.g. sqlite:///~/.local/share/reverie/reverie.db)"
        )
    source = SqliteStore(path)
    try:
        target = PgStore(target_url)
        try:
            return copy_sqlite_to_postgres(
                source, target, source_name=str(path.resolve()), now=now, progress=progress
            )
        finally:
            target.close()
    finally:
        source.close()


__all__ = ["CopyReport", "Table", "TableReport", "copied_tables", "copy_sqlite_to_postgres", "migrate"]
