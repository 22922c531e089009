"""The statements of a remember use an index: their cost must not grow with the user's store."""

from __future__ import annotations

import pytest
from conftest import Clock

from reverie import Memory, Settings
from reverie.store.base import NewMemory
from reverie.store.sqlite import SqliteStore


@pytest.mark.sqlite_only("reads SQLite query plans")
def test_a_facts_key_is_found_through_an_index(settings: Settings, clock: Clock) -> None:
    settings.embeddings.enabled = False
    with Memory(settings, clock=clock) as mem:
        with mem.scope.transaction():
            for number in range(200):
                mem.scope.insert_memory(NewMemory(kind="fact", text=f"fact {number}", source="explicit",
                                                  confidence=1.0, key=f"key_{number}"), clock())
        store = mem.store
        assert isinstance(store, SqliteStore)
        conn = store.connection()
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        try:
            assert mem.scope.find_active_by_key("fact", "key_7") is not None
        finally:
            conn.set_trace_callback(None)
        (statement,) = [sql for sql in seen if "key" in sql and sql.lstrip().upper().startswith("SELECT")]
        plan = " ".join(str(row[3]) for row in conn.execute("EXPLAIN QUERY PLAN " + statement))
        assert "key=?" in plan.replace(" ", ""), f"a fact's key is looked up by scanning: {plan}"

