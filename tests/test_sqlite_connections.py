"""A thread's SQLite connection is closed when the thread ends: threads that come and go leak none."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from reverie.store.sqlite import SqliteStore


def _open_handles(path: Path) -> int:
    """File handles of this process on the database file itself."""
    handles = 0
    for entry in Path("/proc/self/fd").iterdir():
        try:
            handles += Path(entry).resolve() == path.resolve()
        except OSError:
            continue
    return handles


def test_connections_of_ended_threads_are_closed(tmp_path: Path) -> None:
    """A server's request threads exit when idle and new ones start under the next load: each
    opens its own connection (page cache and statements, about 2.5 MB once used), so keeping
    those of ended threads made resident memory grow from one load to the next."""
    path = tmp_path / "threads.db"
    store = SqliteStore(path)
    with store.transaction() as conn:
        conn.execute("CREATE TABLE t (v INTEGER)")
    kept: list[sqlite3.Connection] = []

    def request(value: int) -> None:
        with store.transaction() as conn:
            conn.execute("INSERT INTO t VALUES (?)", (value,))
        kept.append(store.connection())

    for value in range(20):  # one after another, as a pool's threads come and go
        thread = threading.Thread(target=request, args=(value,))
        thread.start()
        thread.join()
    deadline = time.monotonic() + 10
    while len(store._connections) > 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(store._connections) == 1, "only the test thread's connection is left"
    if Path("/proc/self/fd").is_dir():  # SQLite may keep a closed connection's handle for reuse: closing
        assert _open_handles(path) <= 2  # it would drop the POSIX locks of the file's other connections
    for conn in kept:
        with pytest.raises(sqlite3.ProgrammingError):
            conn.execute("SELECT 1")
    assert store.connection().execute("SELECT count(*) FROM t").fetchone()[0] == 20
    store.close()


def test_closing_the_store_still_closes_the_connections_of_live_threads(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "live.db")
    opened, finish = threading.Event(), threading.Event()
    held: list[sqlite3.Connection] = []

    def worker() -> None:
        held.append(store.connection())
        opened.set()
        finish.wait(30)

    thread = threading.Thread(target=worker)
    thread.start()
    assert opened.wait(30)
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):
        held[0].execute("SELECT 1")
    finish.set()
    thread.join()
    assert store._connections == []
