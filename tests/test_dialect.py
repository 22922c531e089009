"""The dialect layer: statements written once run alike on SQLite and PostgreSQL."""

from __future__ import annotations

import numpy as np
import pytest

from reverie import Settings
from reverie.store import open_store
from reverie.store.base import DocumentFile, NewChunk
from reverie.store.dialect import Dialect
from reverie.store.postgres import PgStore
from reverie.store.postgres_dialect import pyformat
from reverie.store.sqlite import SqliteStore


@pytest.mark.parametrize(
    ("written", "psycopg"),
    [
        ("SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = %s AND b = %s"),
        ("UPDATE t SET a = :now WHERE b < :now", "UPDATE t SET a = %(now)s WHERE b < %(now)s"),
        ("SELECT x::float8, 'a?b :c' FROM t", "SELECT x::float8, 'a?b :c' FROM t"),
        ("SELECT a % 2 FROM t WHERE b LIKE 'x%'", "SELECT a %% 2 FROM t WHERE b LIKE 'x%%'"),
        ("SELECT 'it''s ?' FROM t WHERE a = ?", "SELECT 'it''s ?' FROM t WHERE a = %s"),
    ],
)
def test_placeholders_become_psycopgs(written: str, psycopg: str) -> None:
    assert pyformat(written) == psycopg


def _dialect(settings: Settings) -> tuple[SqliteStore | PgStore, Dialect]:
    store = open_store(settings)
    assert isinstance(store, SqliteStore | PgStore)
    return store, store.db


def test_rows_inserts_and_writes_alike(settings: Settings) -> None:
    store, db = _dialect(settings)
    try:
        new_id = db.insert(
            "INSERT INTO users (name, display_name, is_admin, created_at) VALUES (?, ?, ?, ?)",
            ("ada", "Ada", True, 10.0),
        )
        assert new_id is not None
        row = db.row("SELECT id, name, is_admin FROM users WHERE id = :id", {"id": new_id})
        assert row is not None
        assert (row["id"], row["name"], bool(row["is_admin"])) == (new_id, "ada", True)
        assert db.row("SELECT id FROM users WHERE name = ?", ("nobody",)) is None
        again = "INSERT INTO users (name, display_name, is_admin, created_at) VALUES (?, '', ?, ?)"
        assert db.insert(again + " ON CONFLICT (name) DO NOTHING", ("ada", False, 11.0)) is None
        assert db.run("UPDATE users SET display_name = ? WHERE name LIKE 'a%'", ("A",)) == 1
        assert db.rows("SELECT display_name AS shown FROM users WHERE id = ?", (new_id,)) == [{"shown": "A"}]
    finally:
        store.close()


def test_one_of_covers_every_batch(settings: Settings) -> None:
    store, db = _dialect(settings)
    try:
        db.run_many(
            "INSERT INTO users (name, display_name, is_admin, created_at) VALUES (?, '', ?, ?)",
            [(f"user{n}", False, float(n)) for n in range(1200)],
        )
        ids = [int(row["id"]) for row in db.rows("SELECT id FROM users ORDER BY id")]
        found = 0
        for batch in db.batches(ids):
            condition, params = db.one_of("id", batch)
            found += len(db.rows(f"SELECT id FROM users WHERE {condition}", params))
        assert found == len(ids) == 1200
        assert list(db.batches([])) == []
    finally:
        store.close()


def test_a_failed_transaction_leaves_nothing(settings: Settings) -> None:
    store, db = _dialect(settings)
    try:
        with pytest.raises(RuntimeError), db.transaction():
            db.insert(
                "INSERT INTO users (name, display_name, is_admin, created_at) VALUES (?, '', ?, ?)",
                ("ghost", False, 1.0),
            )
            raise RuntimeError("abandon")
        assert db.row("SELECT id FROM users WHERE name = ?", ("ghost",)) is None
    finally:
        store.close()


def test_a_document_saved_twice_keeps_its_id_and_its_vectors(settings: Settings) -> None:
    store, db = _dialect(settings)
    vectors = [np.array([n, 0.5, -1.0], dtype="<f4").tobytes() for n in range(3)]
    chunks = [NewChunk(n, f"bomba rice {n}", "Paella", "Notes", None, 3, vectors[n]) for n in range(3)]
    file = DocumentFile("notes/paella.md", "paella.md", "md", "h1", 120)
    try:
        first = store.save_document(file, status="indexed", reason="", chunks=chunks, model_id="m", now=5.0)
        again = store.save_document(
            file, status="indexed", reason="", chunks=chunks[:2], model_id="m", now=6.0
        )
        assert (again.id, again.chunk_count, again.updated_at) == (first.id, 2, 6.0)
        ids, blobs = store.chunk_vectors("m")
        assert blobs == vectors[:2] and len(ids) == 2
        assert [row.index for row in sorted(store.get_chunks(ids), key=lambda row: row.id)] == [0, 1]
        assert [chunk_id for chunk_id, _ in store.search_chunks(["bomba"], 5)] != []
        assert store.document_totals()["chunks"] == 2
    finally:
        store.close()


def test_one_maintenance_run_at_a_time(settings: Settings) -> None:
    store, _ = _dialect(settings)
    try:
        assert store.last_maintenance() is None
        first = store.claim_maintenance(100.0, "a", min_gap_seconds=60)
        assert first is not None
        assert store.claim_maintenance(130.0, "b", min_gap_seconds=60) is None
        store.finish_maintenance(first, 140.0, "failed", {"pruned": 0})
        second = store.claim_maintenance(150.0, "b", min_gap_seconds=60)
        assert second is not None and second != first
        assert store.last_maintenance() == (150.0, "running")
    finally:
        store.close()


def test_a_written_row_comes_back_alike(settings: Settings) -> None:
    store, db = _dialect(settings)
    insert = "INSERT INTO users (name, display_name, is_admin, created_at) VALUES (?, ?, ?, ?)"
    try:
        row = db.write_row(insert, ("ada", "Ada", True, 1.0), "id, name, is_admin")
        assert row is not None and row["name"] == "ada" and bool(row["is_admin"]) is True
        changed = db.write_row(
            "UPDATE users SET is_admin = ? WHERE id = ?", (False, row["id"]), "id, is_admin"
        )
        assert changed is not None and changed["id"] == row["id"] and bool(changed["is_admin"]) is False
        missing = db.write_row("UPDATE users SET is_admin = ? WHERE id = ?", (True, -1), "id")
        assert missing is None
        assert db.row(f"SELECT COUNT(*) AS n FROM users WHERE {db.is_false('is_admin')}") == {"n": 1}
    finally:
        store.close()


def test_a_write_over_ids_changes_every_batch(settings: Settings) -> None:
    store, db = _dialect(settings)
    try:
        db.run_many(
            "INSERT INTO users (name, display_name, is_admin, created_at) VALUES (?, '', ?, ?)",
            [(f"user{n}", False, float(n)) for n in range(1200)],
        )
        ids = [int(row["id"]) for row in db.rows("SELECT id FROM users ORDER BY id")]
        assert db.run_among("UPDATE users SET is_admin = ? WHERE {among}", "id", ids[:3], (True,)) == 3
        assert db.run_among("UPDATE users SET display_name = ? WHERE {among}", "id", ids, ("x",)) == 1200
        assert db.run_among("DELETE FROM users WHERE {among}", "id", []) == 0
    finally:
        store.close()
