"""Writers of one process take turns on a Python lock, not in SQLite's busy handler."""

from __future__ import annotations

import threading
from pathlib import Path

from reverie.store.sqlite import SqliteStore


def test_a_second_writer_waits_for_the_first_without_sqlite_busy_waits(tmp_path: Path) -> None:
    """SQLite's busy handler sleeps 1, 2, 5, 10 ms... between tries; a writer of the same process
    instead waits on the store's lock, and gets it as soon as the first commits.

    The second writer's connection has no busy timeout at all: had it reached SQLite while the
    first held the write lock, it would fail at once with "database is locked".
    """
    store = SqliteStore(tmp_path / "writers.db")
    with store.transaction() as conn:
        conn.execute("CREATE TABLE t (v INTEGER)")
    holding, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def first() -> None:
        try:
            with store.transaction() as conn:
                conn.execute("INSERT INTO t VALUES (1)")
                holding.set()
                release.wait(30)
        except BaseException as exc:  # reported below, in the test's thread
            failures.append(exc)

    writer = threading.Thread(target=first)
    writer.start()
    assert holding.wait(30)
    store.connection().execute("PRAGMA busy_timeout = 0")
    timer = threading.Timer(0.05, release.set)  # the first commits while the second waits
    timer.start()
    try:
        with store.transaction() as conn:
            conn.execute("INSERT INTO t VALUES (2)")
    finally:
        release.set()
        writer.join(30)
        timer.cancel()
    assert not failures
    assert [row[0] for row in store.connection().execute("SELECT v FROM t ORDER BY v")] == [1, 2]
    store.close()
