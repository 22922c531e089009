"""Both engines alike, and what only PostgreSQL does: workers on several machines, reverie migrate.

The PostgreSQL tests run with ``REVERIE_TEST_ENGINE=postgres`` (``make test`` runs both engines).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import engines
import fakeserver
import pytest
from click.testing import CliRunner
from conftest import VARIED_FACTS, Clock
from engines import sql_rows
from fakeserver import FakeModelServer

import reverie
from reverie import Memory, Settings, load_settings
from reverie.cli import cli
from reverie.store import open_store
from reverie.store.base import NewMemory
from reverie.store.postgres import PgStore

fake_server = fakeserver.fake_server
MIGRATIONS = Path(reverie.__file__).parent / "store" / "migrations"


def test_both_engines_ship_the_same_migration_numbers() -> None:
    numbers = {
        engine: sorted(int(path.name.partition("_")[0]) for path in (MIGRATIONS / engine).glob("*.sql"))
        for engine in ("sqlite", "postgres")
    }
    assert numbers["sqlite"] == numbers["postgres"], "add the PostgreSQL twin of every SQLite migration"


def test_racing_workers_each_claim_another_job(memory: Memory, clock: Clock) -> None:
    ids = []
    for n in range(12):
        memory.add_user(f"racer{n}")
        view = memory.for_user(f"racer{n}")
        conv = view.start_conversation("chat")
        view.add_message(conv, "user", f"hello {n}")
        ids.append(view.end_conversation(conv.id).id)
    claims: list[tuple[int, int] | None] = []
    lock = threading.Lock()
    start = threading.Barrier(6)

    def claim(worker: str) -> None:
        start.wait()
        for _ in range(4):
            got = memory.store.claim_consolidation(clock(), worker, 600, 3)
            with lock:
                claims.append(got)

    threads = [threading.Thread(target=claim, args=(f"w{i}",)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    taken = [got[1] for got in claims if got is not None]
    assert sorted(taken) == sorted(ids), "every job taken once, none twice"
    assert memory.store.consolidation_counts() == {"running": 12}


def test_keyword_ranking_is_fts5_bm25_on_both_engines(memory: Memory) -> None:
    scope = memory.scope
    for text in [
        *VARIED_FACTS[1:],
        "User's daughter Emma loves the violin and violin music",
        "Emma Emma Emma",
    ]:
        scope.insert_memory(NewMemory(kind="fact", text=text, source="explicit", confidence=1.0), 1.0)
    found = [(row.text, score) for row, score in scope.search_memories(["violin", "emma", "kindergarten"])]
    # SQLite's FTS5 bm25() figures (k1 1.2, b 0.75, the owner column counted in the length).
    assert [text for text, _ in found] == [
        "User's daughter Emma loves the violin and violin music",
        "Emma Emma Emma",
        "User's son Leo is starting kindergarten",
    ]
    assert [score for _, score in found] == pytest.approx([5.6976, 4.3010, 2.9134], abs=1e-3)


# --- PostgreSQL only -------------------------------------------------------------------------

_WORKER = """
import os, sys, time
from reverie import Memory, load_settings
with Memory(load_settings(home=sys.argv[1], environ=dict(os.environ))) as memory:
    worker = memory.consolidator(worker=sys.argv[2])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        worker.run_pending()
        counts = memory.store.consolidation_counts()
        if not any(counts.get(state) for state in ("pending", "running", "failed")):
            break
        time.sleep(0.1)
"""


@pytest.mark.postgres_only
def test_two_workers_one_killed_mid_job_every_job_done_exactly_once(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    reply = json.dumps(
        {
            "facts": [
                {"text": "User enjoys long walks by the river", "source": "explicit", "confidence": 0.9}
            ],
            "summary": "Talked about walks by the river.",
        }
    )
    fake_server.default_json_reply = reply
    env = {
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_EMBEDDINGS__ENABLED": "false",
        "REVERIE_LLM__PROVIDER": "ollama",
        "REVERIE_LLM__ENDPOINT": fake_server.url,
        "REVERIE_LLM__MODEL": "fake-chat",
        "REVERIE_LLM__RETRY_BACKOFF_SECONDS": "0",
        "REVERIE_MEMORY__EXTRACTION__PROVIDER": "ollama",
        "REVERIE_MEMORY__EXTRACTION__TIMEOUT_SECONDS": "30",
        "REVERIE_MEMORY__EXTRACTION__LEASE_MINUTES": "0.05",
    }
    home = tmp_path / "home"
    env.update(engines.store_env(home))
    conversations = []
    with Memory(load_settings(home=home, environ=env)) as mem:
        for n in range(3):
            mem.add_user(f"person{n}")
            view = mem.for_user(f"person{n}")
            for turn in range(2):
                conv = view.start_conversation("kitchen")
                view.add_message(conv, "user", f"I love long walks by the river ({turn}).")
                conversations.append(view.end_conversation(conv.id).id)
        fake_server.set_mode("slow", path="/api/chat", delay=1.0)
        workers = {
            name: subprocess.Popen(
                [sys.executable, "-c", _WORKER, str(home), name], env={**os.environ, **env}
            )
            for name in ("worker-a", "worker-b")
        }
        try:
            deadline = time.monotonic() + 30
            while not sql_rows(
                mem.store,
                "SELECT id FROM conversations WHERE worker = 'worker-a' AND consolidation_state = 'running'",
            ):
                assert time.monotonic() < deadline, "worker-a never took a job"
                time.sleep(0.05)
            os.kill(workers["worker-a"].pid, signal.SIGKILL)  # inside the 1 s LLM call
            assert workers["worker-b"].wait(90) == 0
        finally:
            for proc in workers.values():
                if proc.poll() is None:
                    proc.kill()
                proc.wait(10)
        rows = sql_rows(
            mem.store,
            "SELECT id, consolidation_state, attempts, worker FROM conversations ORDER BY id",
        )
        assert {row[1] for row in rows} == {"done"} and [row[0] for row in rows] == conversations
        reclaimed = [row for row in rows if row[2] == 2]
        assert len(reclaimed) == 1 and reclaimed[0][3] == "worker-b", rows
        summaries = sql_rows(
            mem.store, "SELECT conversation_id, COUNT(*) FROM summaries GROUP BY 1 ORDER BY 1"
        )
        assert summaries == [(conv, 1) for conv in conversations]
        audits = sql_rows(
            mem.store,
            "SELECT target_id, COUNT(*) FROM audit_log WHERE action = 'consolidate' GROUP BY 1 ORDER BY 1",
        )
        assert audits == [(conv, 1) for conv in conversations]
        for n in range(3):  # stored by the first conversation, reinforced once by the second
            facts = mem.for_user(f"person{n}").list_memories()
            assert [(m.text, m.reinforcement_count) for m in facts] == [
                ("User enjoys long walks by the river", 2)
            ]


@pytest.mark.postgres_only
def test_a_vector_committed_late_is_not_skipped_by_the_mark(memory: Memory) -> None:
    scope = memory.scope
    blob = bytes(16)
    store = memory.store
    late_started = threading.Event()
    finish_late = threading.Event()

    def late_writer() -> None:
        with scope.transaction():
            scope.put_vectors("summary", [(101, blob)], "m", 4)
            late_started.set()
            finish_late.wait(10)

    thread = threading.Thread(target=late_writer)
    thread.start()
    late_started.wait(10)
    scope.put_vectors("summary", [(102, blob)], "m", 4)  # commits first, with a newer transaction id
    rows, mark = scope.load_vectors("summary", "m")
    assert [item for item, _ in rows] == [102]
    finish_late.set()
    thread.join()
    rows, _ = scope.load_vectors("summary", "m", mark)
    assert 101 in [item for item, _ in rows], "the row committed after the mark must come next time"
    assert store.schema_version() >= 2


def _populate(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as mem:
        mem.remember("User is allergic to shellfish")
        mem.remember("User lives in Portland", key="home_city")
        mem.remember("User lives in Seattle", key="home_city")
        mem.prefer("verbosity", "concise answers")
        mem.remember("User's daughter Emma plays the violin")
        conv = mem.start_conversation("kitchen")
        mem.add_message(conv, "user", "We booked the dentist for Leo", speaker="Ana")
        mem.add_message(conv, "assistant", "Noted, the dentist for Leo.")
        mem.end_conversation(conv.id)
        mem.consolidator().run_pending()
        bob = mem.add_user("bob")
        mem.accounts.set_password(bob, "correct horse battery")
        mem.for_user("bob").remember("User plays chess on Sundays")
        folder = settings.rag.documents_dir
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / "garage.md").write_text(
            "# Garage door\n\nThe opener uses a 315 MHz frequency for its remote controls.\n",
            encoding="utf-8",
        )
        mem.documents.scan()


@pytest.mark.postgres_only
def test_reverie_migrate_copies_everything_verifies_and_can_run_again(
    tmp_path: Path, clock: Clock, settings: Settings
) -> None:
    sqlite_home = tmp_path / "old"
    sqlite_settings = load_settings(
        home=sqlite_home,
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
        },
    )
    database = sqlite_home / "reverie.db"
    runner = CliRunner()
    target = engines.CURRENT[-1].url_for(tmp_path / "target.db")
    sqlite_store = _populate_sqlite(sqlite_settings, clock)
    first = runner.invoke(cli, ["migrate", "--from", f"sqlite:///{database}", "--to", target, "--json"])
    assert first.exit_code == 0, first.output
    report = json.loads(first.output)
    assert report["ok"] and not report["replaced_previous"]
    for table in ("users", "memories", "conversations", "messages", "summaries", "vectors", "audit_log",
                  "documents", "chunks"):  # fmt: skip
        assert report["tables"][table]["rows"] > 0 and report["tables"][table]["ok"], table
    assert report["tables"]["users"]["rows"] == 2

    again = runner.invoke(cli, ["migrate", "--from", f"sqlite:///{database}", "--to", target, "--json"])
    assert again.exit_code == 0 and json.loads(again.output)["replaced_previous"] is True
    assert json.loads(again.output)["tables"] == report["tables"]

    in_use = engines.CURRENT[-1].url_for(tmp_path / "home" / "reverie.db")
    with Memory(settings, clock=clock) as used:
        used.remember("User keeps bees")
    refused = runner.invoke(cli, ["migrate", "--from", f"sqlite:///{database}", "--to", in_use])
    assert refused.exit_code == 1 and "not empty" in refused.output

    pg_settings = load_settings(
        home=sqlite_home,
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
            "REVERIE_STORE__URL": target,
        },
    )
    with Memory(pg_settings, clock=clock) as moved:
        for query in ("what am I allergic to?", "where do I live", "dentist for Leo", "violin"):
            assert _answers(moved, query) == _answers(sqlite_store, query), query
        turns = [
            [
                (hit.message.content, hit.message.speaker, f"{hit.score:.3f}")
                for hit in m.search("Leo dentist", scope="messages").messages
            ]
            for m in (moved, sqlite_store)
        ]
        assert turns[0] == turns[1] and turns[0]
        assert moved.documents.search("garage door frequency")[0].file_name == "garage.md"
        assert [e.action for e in moved.scope.list_audit()] == [
            e.action for e in sqlite_store.scope.list_audit()
        ]
        assert moved.accounts.check_password("bob", "correct horse battery") is not None
        moved.remember("User started pottery")  # ids continue after the copied ones
    sqlite_store.close()


def _populate_sqlite(settings: Settings, clock: Clock) -> Memory:
    """Fill a real SQLite store (bypassing the test routing) and keep it open for comparisons."""
    from reverie.store import _ENGINES, _open_sqlite

    routed = _ENGINES["sqlite"]
    _ENGINES["sqlite"] = _open_sqlite
    try:
        _populate(settings, clock)
        return Memory(settings, clock=clock)
    finally:
        _ENGINES["sqlite"] = routed


def _answers(memory: Memory, query: str) -> list[tuple[str, str]]:
    found = memory.search(query)
    return [(hit.memory.text, f"{hit.score:.3f}") for hit in found.facts] + [
        (hit.memory.text, f"{hit.score:.3f}") for hit in found.preferences
    ]


def test_postgres_runs_are_skipped_with_a_reason_when_not_selected() -> None:
    if not engines.POSTGRES:
        assert engines.ENGINE == "sqlite"
    else:
        assert open_store is not None


_HOLDER = """
import sys, time
from reverie.store.postgres import PgStore
store = PgStore(sys.argv[1])
assert store.claim_document(sys.argv[2])
print("held", flush=True)
time.sleep(60)
"""


@pytest.mark.postgres_only
def test_one_process_indexes_a_file_at_a_time_and_a_dead_ones_claim_is_freed(tmp_path: Path) -> None:
    url = engines.store_env(tmp_path / "home")["REVERIE_STORE__URL"]
    path = str(tmp_path / "documents" / "manual.pdf")
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, url, path], stdout=subprocess.PIPE, text=True)
    store = PgStore(url)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert not store.claim_document(path), "another process is indexing it"
        assert store.claim_document(path + ".other")
        store.release_document(path + ".other")
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(10)
        deadline = time.monotonic() + 10
        while not store.claim_document(path):
            assert time.monotonic() < deadline, "the dead worker's claim was never freed"
            time.sleep(0.1)
        store.release_document(path)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(10)
        assert holder.stdout is not None
        holder.stdout.close()
        store.close()


@pytest.mark.postgres_only
def test_reverie_migrate_knows_every_table(memory: Memory) -> None:
    from reverie.store.transfer import copied_tables

    tables = {
        row[0]
        for row in sql_rows(memory.store, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    }
    # the target's own bookkeeping
    not_copied = {"schema_migrations", "vector_versions", "vector_changes", "copied_from"}
    assert isinstance(memory.store, PgStore)
    copied = copied_tables(memory.store)
    assert sorted(table.name for table in copied) == sorted(tables - not_copied)
    order = [table.name for table in copied]
    for table in copied:  # parents first, so every row's references are in before it
        assert all(order.index(parent) < order.index(table.name) for parent in table.parents), table
    assert order[:4] == ["users", "interface_mappings", "conversations", "messages"]
    memories = next(table for table in copied if table.name == "memories")
    assert (memories.keys, memories.self_refs) == ("id", ["superseded_by"])
