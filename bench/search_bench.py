"""Benchmark embeddings, hybrid search and context builds with embeddings on (the default).

    .venv/bin/python bench/search_bench.py                        # 10k, 100k, 1,000 users x 1k (~10 min)
    .venv/bin/python bench/search_bench.py --sizes 2000 --multi 20x500 --queries 30 --pool 500
    .venv/bin/python bench/search_bench.py --json --out search-results.json

What it measures, each scenario in a fresh temporary REVERIE home with a real SQLite file and
the default local model (all-MiniLM-L6-v2 int8 on onnxruntime):

1. Embedding latency, calling ``memory.embeddings.embedder.embed_batch`` directly (no cache):
   one short text, p50/p95 over ``--embed-runs`` runs after a warm-up, and throughput over
   512 fact texts sent 64 at a time.
2. ``Memory.search(question)`` (hybrid: BM25 + cosine, query embedding included) on one user
   with ``--sizes`` facts. Every question is new (template questions with random slot words,
   never repeated in a run), so the embedding cache cannot hide the model; the same questions
   are then asked again for the "cached query" variant. The first search after the vector
   index is cleared ("cold": the user's matrix is read from SQLite) is timed apart.
3. ``Memory.context(message)`` (relevant facts by hybrid retrieval, with touch) per size.
4. ``--multi`` USERSxFACTS in one SQLite file (default 1,000 x 1,000 = 1M facts): hybrid search
   on a random user per query, split into the first search of a user (cold matrix load) and
   searches of users whose matrix is already in the in-process index (warm).

Loading goes through the store layer: ``scope.insert_memory(NewMemory(...))`` in one
``scope.transaction()`` (a chunk of users per transaction in the multi-user file), plus 5
preferences and 20 summaries per user (``insert_memory``/``insert_summary``). Vectors come from
``memory.embeddings.embed(texts)`` for the first ``--pool`` distinct texts of the run; later rows
reuse those vectors in turn (``scope.put_vectors``): search cost does not depend on vector
contents, and embedding 1M texts would take about an hour on this box. If the multi-user load
is projected to take longer than ``--max-load-minutes`` it is cut to fewer users, which the
output says plainly.

With every search a per-component profile (embedding model, embedding cache, FTS, vector
version check, matrix load, matmul, row fetch, other Python) is taken over a separate batch of
new questions by timing the store and index calls the real code path makes.

Progress goes to stderr; the table (or JSON with ``--json``) to stdout and to ``--out``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from store_bench import (  # noqa: E402  (store_bench puts src/ on sys.path)
    Generator,
    _connection,
    _load_average,
    _timed,
    _TimedScope,
    percentile,
    progress,
)

from reverie.config import load_settings  # noqa: E402
from reverie.embed.service import EmbeddingService, from_blobs, to_blob  # noqa: E402
from reverie.errors import ReverieError  # noqa: E402
from reverie.memory import Memory  # noqa: E402
from reverie.store.base import NewMemory, NewSummary, UserStore  # noqa: E402
from reverie.text import normalize_key  # noqa: E402

EMBED_BATCH_TEXTS = 512
EMBED_BATCH_SIZE = 64
WARMUP = 10
COLD_RUNS = 3
PROFILE_RUNS = 50
CACHED_LAG = 20
USERS_PER_TRANSACTION = 50

# --- fresh questions and messages ---------------------------------------------------------------

QUESTION_FORMS = (
    "when is my {relation} {first}'s birthday?",
    "where does my {relation} {first} live now?",
    "what does {first} {surname} do for work?",
    "is my {relation} {first} allergic to {allergen}?",
    "what's the name of my {breed} {pet}?",
    "when is my flight to {city} on {weekday}?",
    "which {genre} book by {first} {surname} did I finish?",
    "do I have a {project} deadline in {month}?",
    "who is my manager at {company}?",
    "what did I buy at {proper} in {city}?",
    "when did I move from {city} to {city2}?",
    "how often do I go {hobby} with {first}?",
    "where did I eat {dish} near {street}?",
    "what instrument does {first} play in {proper}?",
    "did I book a table at {venue} for {weekday}?",
    "what language is {first} learning, {language} or {language2}?",
    "how old is {pet_name} my {pet}?",
    "where do I keep the spare {thing} in the {room}?",
    "what colour is my {car} from {year}?",
    "who did I meet at the {hobby} class in {city}?",
)
MESSAGE_FORMS = (
    "what should I cook for my {relation} {first} tonight, maybe {dish}?",
    "any gift ideas for {first}'s birthday in {month}?",
    "I'm flying to {city} on {weekday}, anything I should remember?",
    "can you plan a {hobby} weekend near {city} for me and {first}?",
    "what was the name of that {dish} place in {city}?",
    "remind me when my {relation} {first}'s {event} is",
    "how old is my {pet} {pet_name} now?",
    "help me write a message to {first} {surname} about the {event}",
    "I want to make {dish} for dinner, is {ingredient} a problem?",
    "when is my appointment with Dr. {surname} about my {room} renovation?",
    "what do you know about my {relation} {first} from {city}?",
    "suggest a {genre} book for my trip to {city}",
    "I need a {music} playlist for {chore} with {first}",
    "should I take the {transport} to {street} on {weekday}?",
)


class FreshTexts:
    """Questions and messages from templates with random slot words, never repeated in a run."""

    def __init__(self, seed: int, now: float) -> None:
        self.gen = Generator(seed, now)
        self.seen: set[str] = set()

    def _one(self, forms: Sequence[str]) -> str:
        while True:
            text = self.gen._fill(self.gen.rng.choice(forms))
            if text not in self.seen:
                self.seen.add(text)
                return text

    def question(self) -> str:
        return self._one(QUESTION_FORMS)

    def message(self) -> str:
        return self._one(MESSAGE_FORMS)

    def questions(self, count: int) -> list[str]:
        return [self.question() for _ in range(count)]

    def messages(self, count: int) -> list[str]:
        return [self.message() for _ in range(count)]


# --- vectors from a pool of real embeddings ------------------------------------------------------


class VectorPool:
    """Real vectors for the first ``size`` distinct texts of the run, reused in turn after that."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.known: dict[str, bytes] = {}
        self.order: list[bytes] = []
        self.cursor = 0
        self.embed_s = 0.0
        self.embedded = 0  # texts sent to memory.embeddings.embed (in any scenario)

    def blobs(self, service: EmbeddingService, texts: Sequence[str]) -> tuple[list[bytes], int, int]:
        """A vector blob per text; returns (blobs, real, reused)."""
        wanted: dict[str, None] = {}
        for text in texts:
            if text not in self.known and len(self.known) + len(wanted) < self.size:
                wanted[text] = None
        todo = list(wanted)
        if todo:
            start = time.perf_counter()
            for first in range(0, len(todo), 256):
                chunk = todo[first : first + 256]
                for text, vector in zip(chunk, service.embed(chunk), strict=True):
                    blob = to_blob(vector)
                    self.known[text] = blob
                    self.order.append(blob)
            self.embed_s += time.perf_counter() - start
            self.embedded += len(todo)
        found: list[bytes] = []
        real = 0
        for text in texts:
            known = self.known.get(text)
            if known is not None:
                real += 1
                found.append(known)
            else:
                found.append(self.order[self.cursor % len(self.order)])
                self.cursor += 1
        return found, real, len(texts) - real


# --- results ---------------------------------------------------------------------------------


@dataclass
class Line:
    """One row of the table."""

    what: str
    scale: str
    runs: int
    p50: float | None = None
    p95: float | None = None
    note: str = ""


@dataclass
class Scenario:
    """What one store size or user spread gave."""

    name: str
    users: int
    facts_per_user: int
    requested_users: int
    load_s: float = 0.0
    insert_s: float = 0.0
    vectors_s: float = 0.0
    pool_embed_s: float = 0.0
    real_vectors: int = 0
    reused_vectors: int = 0
    db_mb: float = 0.0
    load_average: str = ""
    others_cpu: str = ""
    lines: list[Line] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)
    profiles: dict[str, list[tuple[str, float, float]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _open(home: Path) -> Memory:
    # Embeddings on (the default local model); UTC so dates do not depend on the box.
    settings = load_settings(home=home, environ={"REVERIE_MEMORY__TIMEZONE": "UTC"})
    memory = Memory(settings)
    if memory.embeddings is None:
        raise SystemExit("embeddings are off in these settings; this benchmark needs them on")
    return memory


class CpuMeter:
    """CPU the rest of the machine used while we measured (busy jiffies minus our own CPU time)."""

    def __init__(self) -> None:
        self.start = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float, float] | None:
        try:
            with open("/proc/stat", encoding="ascii") as stat:
                ticks = [int(v) for v in stat.readline().split()[1:9]]
        except (OSError, ValueError):
            return None
        own = os.times()
        busy = (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")
        return time.monotonic(), busy, own.user + own.system

    def others(self) -> str:
        """e.g. '0.4 cores': average CPU used by other processes since construction."""
        end = self._sample()
        if self.start is None or end is None or end[0] <= self.start[0]:
            return "?"
        wall, busy, own = (b - a for a, b in zip(self.start, end, strict=True))
        return f"{max(0.0, busy - own) / wall:.2f} cores"


def _stats(values: Sequence[float]) -> tuple[float, float]:
    return percentile(values, 50), percentile(values, 95)


# --- 1. embedding latency -------------------------------------------------------------------


def measure_embedding(args: argparse.Namespace, texts: FreshTexts, now: float) -> Scenario:
    result = Scenario("embedding", 0, 0, 0)
    meter = CpuMeter()
    with tempfile.TemporaryDirectory(prefix="reverie-search-bench-") as tmp:
        memory = _open(Path(tmp))
        try:
            service = memory.embeddings
            assert service is not None
            embedder = service.embedder
            load_ms, _ = _timed(lambda: embedder.embed_batch(["warm up the model"]))
            short = texts.questions(args.embed_runs + 20)
            for text in short[:20]:
                embedder.embed_batch([text])
            one = [_timed(functools.partial(embedder.embed_batch, [text]))[0] for text in short[20:]]
            p50, p95 = _stats(one)
            chars = sum(len(t) for t in short[20:]) / len(one)
            result.lines.append(
                Line(
                    "embed 1 short text (embed_batch, no cache)",
                    service.model_id,
                    len(one),
                    p50,
                    p95,
                    f"new question each run, {chars:.0f} chars avg; first call {load_ms:.0f} ms (model load)",
                )
            )
            facts = [
                text
                for _, text in Generator(args.seed * 1000 + 777_777, now).unique_facts(
                    EMBED_BATCH_TEXTS, set()
                )
            ]
            embedder.embed_batch(facts[:EMBED_BATCH_SIZE])
            start = time.perf_counter()
            for first in range(0, len(facts), EMBED_BATCH_SIZE):
                embedder.embed_batch(facts[first : first + EMBED_BATCH_SIZE])
            elapsed = time.perf_counter() - start
            rate = len(facts) / elapsed
            result.lines.append(
                Line(
                    f"embed batch throughput ({EMBED_BATCH_TEXTS} facts, {EMBED_BATCH_SIZE}/call)",
                    service.model_id,
                    len(facts) // EMBED_BATCH_SIZE,
                    None,
                    None,
                    f"{rate:,.0f} texts/s ({elapsed * 1000 * EMBED_BATCH_SIZE / len(facts):.0f} ms per call)",
                )
            )
            result.metrics.update(embed_one_p50_ms=p50, embed_one_p95_ms=p95, embed_batch_per_s=rate)
            result.load_average, result.others_cpu = _load_average(), meter.others()
            progress(f"embedding: one text p50 {p50:.2f} ms p95 {p95:.2f} ms; batch {rate:,.0f} texts/s")
        finally:
            memory.close()
    return result


# --- loading ----------------------------------------------------------------------------------


def _insert_user(
    scope: UserStore, gen: Generator, facts: int, now: float
) -> tuple[list[int], list[str], list[int], list[str]]:
    """Facts, preferences and summaries of one user; (memory ids, texts, summary ids, texts)."""
    memory_ids: list[int] = []
    memory_texts: list[str] = []
    for kind, text in gen.unique_facts(facts, set()):
        memory_ids.append(scope.insert_memory(gen.stored_row(kind, text), now).id)
        memory_texts.append(text)
    for category, value in gen.preferences():
        preference = NewMemory(
            kind="preference", text=value, source="explicit", confidence=1.0, key=normalize_key(category)
        )
        memory_ids.append(scope.insert_memory(preference, now).id)
        memory_texts.append(value)
    summary_ids: list[int] = []
    summary_texts: list[str] = []
    for text, topics, at in gen.summaries(20):
        summary = NewSummary(text=text, topics=topics, created_at=at, message_count=gen.rng.randint(4, 40))
        summary_ids.append(scope.insert_summary(summary, now).id)
        summary_texts.append(text)
    return memory_ids, memory_texts, summary_ids, summary_texts


def load(
    memory: Memory,
    result: Scenario,
    pool: VectorPool,
    args: argparse.Namespace,
    now: float,
    max_load_s: float,
) -> list[Memory]:
    """Load ``result.requested_users`` users (fewer if too slow); returns a view per user."""
    service = memory.embeddings
    assert service is not None
    views: list[Memory] = []
    target = result.requested_users
    multi = target > 1
    start = time.perf_counter()
    index = 0
    while index < target:
        chunk_end = min(target, index + (USERS_PER_TRANSACTION if multi else 1))
        chunk_views = []
        for number in range(index, chunk_end):
            if multi:
                memory.add_user(f"user{number:04d}")
                chunk_views.append(memory.for_user(f"user{number:04d}"))
            else:
                chunk_views.append(memory)
        t0 = time.perf_counter()
        loaded = []
        with chunk_views[0].scope.transaction():  # the store's transaction: spans every user's rows
            for number, view in zip(range(index, chunk_end), chunk_views, strict=True):
                gen = Generator(args.seed * 1000 + number, now)
                loaded.append((view.scope, _insert_user(view.scope, gen, result.facts_per_user, now)))
        t1 = time.perf_counter()
        result.insert_s += t1 - t0
        embed_before = pool.embed_s
        blobs_by_user = []
        for scope, (memory_ids, memory_texts, summary_ids, summary_texts) in loaded:
            blobs, real, reused = pool.blobs(service, memory_texts + summary_texts)
            result.real_vectors += real
            result.reused_vectors += reused
            blobs_by_user.append((scope, memory_ids, summary_ids, blobs))
        t2 = time.perf_counter()
        result.pool_embed_s += pool.embed_s - embed_before
        with chunk_views[0].scope.transaction():
            for scope, memory_ids, summary_ids, blobs in blobs_by_user:
                split = len(memory_ids)
                scope.put_vectors(
                    "memory",
                    list(zip(memory_ids, blobs[:split], strict=True)),
                    service.model_id,
                    service.dimensions,
                )
                scope.put_vectors(
                    "summary",
                    list(zip(summary_ids, blobs[split:], strict=True)),
                    service.model_id,
                    service.dimensions,
                )
        result.vectors_s += time.perf_counter() - t2 + (t2 - t1 - (pool.embed_s - embed_before))
        views += chunk_views
        index = chunk_end
        elapsed = time.perf_counter() - start
        if multi:
            progress(
                f"{result.name}: loaded {index}/{target} users, {elapsed:.0f}s "
                f"(insert {result.insert_s:.0f}s, vectors {result.vectors_s:.0f}s, "
                f"embedding {result.pool_embed_s:.0f}s)"
            )
            projected = elapsed / index * target
            if index >= 2 * USERS_PER_TRANSACTION and projected > max_load_s and index < target:
                per_user = elapsed / index
                feasible = max(index, int(max_load_s / per_user) // 100 * 100)
                if feasible < target:
                    message = (
                        f"REDUCED: asked for {result.requested_users:,} users x {result.facts_per_user:,} "
                        f"facts, but the load was projected at {projected / 60:.1f} min "
                        f"(> {max_load_s / 60:g} min); loaded {feasible:,} users instead"
                    )
                    progress(message)
                    result.notes.append(message)
                    target = feasible
    result.users = len(views)
    result.load_s = time.perf_counter() - start
    _connection(memory).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    result.db_mb = memory.store.database_size() / 1e6
    total = result.users * result.facts_per_user
    progress(
        f"{result.name}: loaded {total:,} facts in {result.load_s:.1f}s (insert {result.insert_s:.1f}s, "
        f"pool embedding {result.pool_embed_s:.1f}s, vectors {result.vectors_s:.1f}s), "
        f"db {result.db_mb:,.0f} MB"
    )
    return views


# --- profiling --------------------------------------------------------------------------------


@contextmanager
def instrumented(memory: Memory) -> Iterator[defaultdict[str, list[float]]]:
    """Time the store, cache, model and index calls made inside (on instance attributes only)."""
    sink: defaultdict[str, list[float]] = defaultdict(list)
    semantic = memory.semantic
    assert semantic is not None
    store, service, index = memory.store, semantic.service, semantic.index
    patched: list[tuple[Any, str]] = []

    def wrap(owner: Any, name: str, label: str) -> None:
        real = getattr(owner, name)

        def timed(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return real(*a, **kw)
            finally:
                sink[label].append((time.perf_counter() - t0) * 1000)

        setattr(owner, name, timed)
        patched.append((owner, name))

    for name in ("cache_get", "cache_put", "cache_prune", "cache_record"):
        wrap(store, name, f"store.{name}")
    wrap(service.embedder, "embed_batch", "embedder.embed_batch")
    wrap(service, "embed_one", "service.embed_one")
    wrap(index, "search", "index.search")
    real_scope = store.scope
    store.scope = lambda user_id: _TimedScope(real_scope(user_id), sink)  # type: ignore[method-assign]
    patched.append((store, "scope"))
    try:
        yield sink
    finally:
        for owner, name in patched:
            delattr(owner, name)


def breakdown(sink: dict[str, list[float]], totals: Sequence[float]) -> list[tuple[str, float, float]]:
    """(component, ms per operation, share of the total) from an instrumented run."""
    ops = len(totals)
    total = sum(totals)

    def t(name: str) -> float:
        return sum(sink.get(name, ()))

    cache = sum(t(f"store.cache_{n}") for n in ("get", "put", "prune", "record"))
    parts: list[tuple[str, float]] = [
        ("embedding: model (embed_batch)", t("embedder.embed_batch")),
        ("embedding: cache get/put/prune (SQLite)", cache),
        ("embedding: hash, normalise, stack", t("service.embed_one") - t("embedder.embed_batch") - cache),
        ("FTS: search_memories", t("search_memories")),
        ("FTS: search_summaries", t("search_summaries")),
        ("vectors: version check (vectors_version)", t("vectors_version")),
        ("vectors: matrix load from SQLite (load_vectors)", t("load_vectors")),
        (
            "vectors: matmul + top-k (+ from_blobs when cold)",
            t("index.search") - t("vectors_version") - t("load_vectors"),
        ),
        ("row fetch: get_memories + get_summaries", t("get_memories") + t("get_summaries")),
    ]
    known = {
        "search_memories",
        "search_summaries",
        "vectors_version",
        "load_vectors",
        "get_memories",
        "get_summaries",
        "embedder.embed_batch",
        "service.embed_one",
        "index.search",
    }
    known |= {f"store.cache_{n}" for n in ("get", "put", "prune", "record")}
    for name in sorted(sink, key=lambda n: -sum(sink[n])):
        if name not in known:
            parts.append((f"store: {name}", t(name)))
    parts.append(("other Python (fusion, parsing, result objects)", total - sum(v for _, v in parts)))
    return [(label, value / ops, value / total if total else 0.0) for label, value in parts]


def _cached(memory: Memory) -> bool | None:
    """Whether the user's memory matrix is in the in-process index (peeks at a private field)."""
    semantic = memory.semantic
    assert semantic is not None and memory.user is not None
    cache = getattr(semantic.index, "_cache", None)
    if cache is None:
        return None
    return (memory.user.id, "memory", semantic.service.model_id) in cache


# --- 2./3. one user -------------------------------------------------------------------------


def run_single(
    size: int, args: argparse.Namespace, pool: VectorPool, texts: FreshTexts, now: float
) -> Scenario:
    result = Scenario(f"1 user, {size:,} facts", 1, size, 1)
    scale = f"{size:,} facts, 1 user"
    with tempfile.TemporaryDirectory(prefix="reverie-search-bench-") as tmp:
        memory = _open(Path(tmp))
        try:
            load(memory, result, pool, args, now, float("inf"))
            meter = CpuMeter()
            semantic = memory.semantic
            assert semantic is not None and memory.embeddings is not None
            model_id, dims = memory.embeddings.model_id, memory.embeddings.dimensions
            memory.embeddings.embedder.embed_batch(["warm up"])

            # Cold: the first search after the index forgot the matrix.
            cold: list[float] = []
            load_ms: list[float] = []
            blobs_ms: list[float] = []
            scope = memory.scope
            for _ in range(COLD_RUNS):
                semantic.index.clear()
                cold.append(_timed(functools.partial(memory.search, texts.question()))[0])
                elapsed, rows = _timed(functools.partial(scope.load_vectors, "memory", model_id))
                load_ms.append(elapsed)
                blobs = [blob for _, blob in rows[0]]
                blobs_ms.append(_timed(functools.partial(from_blobs, blobs, dims))[0])
            result.lines.append(
                Line(
                    "hybrid search, cold (index cleared)",
                    scale,
                    len(cold),
                    *_stats(cold),
                    f"of which load_vectors {percentile(load_ms, 50):.1f} ms + from_blobs "
                    f"{percentile(blobs_ms, 50):.1f} ms (p50)",
                )
            )

            for question in texts.questions(WARMUP):
                memory.search(question)
            questions = texts.questions(args.queries)
            # Interleaved, so that a burst of load from other processes hits both variants alike: each
            # new question is followed by a repeat of the one asked CACHED_LAG searches earlier.
            fresh, cached = [], []
            for i, question in enumerate(questions):
                fresh.append(_timed(functools.partial(memory.search, question))[0])
                if i >= CACHED_LAG:
                    cached.append(_timed(functools.partial(memory.search, questions[i - CACHED_LAG]))[0])
            for question in questions[max(0, len(questions) - CACHED_LAG) :]:
                cached.append(_timed(functools.partial(memory.search, question))[0])
            result.lines.append(
                Line(
                    "hybrid search, new query (embedding incl.)",
                    scale,
                    len(fresh),
                    *_stats(fresh),
                    "warm matrix",
                )
            )
            result.lines.append(
                Line(
                    "hybrid search, cached query (same texts again)",
                    scale,
                    len(cached),
                    *_stats(cached),
                    "embedding from the cache table",
                )
            )
            progress(
                f"{result.name}: search new p50 {percentile(fresh, 50):.2f} p95 {percentile(fresh, 95):.2f}, "
                f"cached p50 {percentile(cached, 50):.2f}, cold p50 {percentile(cold, 50):.1f} ms"
            )

            # Restart: close (which writes the vector snapshot), open the same home again as a new
            # process would, warm the model up, then time the first search (new question).
            restart: list[float] = []
            for _ in range(COLD_RUNS):
                memory.close()
                memory = _open(Path(tmp))
                assert memory.embeddings is not None
                memory.embeddings.embedder.embed_batch(["warm up"])
                restart.append(_timed(functools.partial(memory.search, texts.question()))[0])
            result.lines.append(
                Line("hybrid search, first after a restart", scale, len(restart), *_stats(restart),
                     "new Memory on the same home; vector snapshot memory-mapped")
            )
            progress(f"{result.name}: first search after a restart p50 {percentile(restart, 50):.1f} ms")

            messages = texts.messages(WARMUP + args.queries)
            for message in messages[:WARMUP]:
                memory.context(message, touch=False)
            context = [_timed(functools.partial(memory.context, m))[0] for m in messages[WARMUP:]]
            result.lines.append(
                Line(
                    "context(message), relevant facts, touch",
                    scale,
                    len(context),
                    *_stats(context),
                    "new message each call",
                )
            )
            progress(
                f"{result.name}: context p50 {percentile(context, 50):.2f} p95 {percentile(context, 95):.2f}"
            )

            result.metrics.update(
                search_p50_ms=percentile(fresh, 50),
                search_p95_ms=percentile(fresh, 95),
                search_cached_p50_ms=percentile(cached, 50),
                search_cached_p95_ms=percentile(cached, 95),
                search_cold_p50_ms=percentile(cold, 50),
                search_restart_p50_ms=percentile(restart, 50),
                search_restart_max_ms=max(restart),
                load_vectors_ms=percentile(load_ms, 50),
                from_blobs_ms=percentile(blobs_ms, 50),
                context_p50_ms=percentile(context, 50),
                context_p95_ms=percentile(context, 95),
            )

            for label, call, make in (
                ("search (new queries, warm matrix)", memory.search, texts.questions),
                ("context (new messages)", memory.context, texts.messages),
            ):
                batch = make(PROFILE_RUNS)
                with instrumented(memory) as sink:
                    totals = [_timed(functools.partial(call, item))[0] for item in batch]
                result.profiles[
                    f"{result.name}: {label}, mean of {len(totals)}, {sum(totals) / len(totals):.2f} ms/op"
                ] = breakdown(sink, totals)
            result.load_average, result.others_cpu = _load_average(), meter.others()
        finally:
            memory.close()
    return result


# --- 4. many users in one file ---------------------------------------------------------------


def run_multi(
    users: int, per: int, args: argparse.Namespace, pool: VectorPool, texts: FreshTexts, now: float
) -> Scenario:
    result = Scenario(f"{users:,} users x {per:,} facts", users, per, users)
    with tempfile.TemporaryDirectory(prefix="reverie-search-bench-") as tmp:
        memory = _open(Path(tmp))
        try:
            views = load(memory, result, pool, args, now, args.max_load_minutes * 60)
            if result.users < users:
                result.name = f"{result.users:,} users x {per:,} facts (REDUCED from {users:,})"
            scale = f"{result.users:,} users x {per:,} = {result.users * per:,} facts"
            meter = CpuMeter()
            assert memory.semantic is not None and memory.embeddings is not None
            memory.embeddings.embedder.embed_batch(["warm up"])
            rng = random.Random(args.seed + 4242)
            untouched = list(range(len(views)))
            rng.shuffle(untouched)

            for question in texts.questions(WARMUP):  # statement cache, model; these users are warm after
                views[untouched.pop()].search(question)

            # A random user per query: mostly users never searched before (their matrix is loaded).
            random_all: list[float] = []
            cold: list[float] = []
            warm_in_random: list[float] = []
            for question in texts.questions(args.queries):
                view = views[rng.randrange(len(views))]
                was_cached = _cached(view)
                elapsed = _timed(functools.partial(view.search, question))[0]
                random_all.append(elapsed)
                (warm_in_random if was_cached else cold).append(elapsed)
            touched = [v for v in views if _cached(v)]
            # Warm: random users whose matrix is already in the index.
            warm, stale = [], 0
            for question in texts.questions(args.queries):
                view = touched[rng.randrange(len(touched))]
                stale += not _cached(view)
                warm.append(_timed(functools.partial(view.search, question))[0])
            result.lines.append(
                Line(
                    "hybrid search, random user per query",
                    scale,
                    len(random_all),
                    *_stats(random_all),
                    f"{len(cold)} of them a user's first search",
                )
            )
            result.lines.append(
                Line(
                    "  - first search of a user (cold matrix)",
                    scale,
                    len(cold),
                    *_stats(cold),
                    "matrix read from SQLite",
                )
            )
            result.lines.append(
                Line(
                    "  - user's matrix already in the index (warm)",
                    scale,
                    len(warm),
                    *_stats(warm),
                    f"{len(touched)} users warm" + (f", {stale} evicted meanwhile" if stale else ""),
                )
            )
            progress(
                f"{result.name}: random p95 {percentile(random_all, 95):.2f}, cold p50 "
                f"{percentile(cold, 50):.2f} p95 {percentile(cold, 95):.2f}, warm p50 "
                f"{percentile(warm, 50):.2f} p95 {percentile(warm, 95):.2f} ms"
            )
            result.metrics.update(
                random_p50_ms=percentile(random_all, 50),
                random_p95_ms=percentile(random_all, 95),
                cold_p50_ms=percentile(cold, 50),
                cold_p95_ms=percentile(cold, 95),
                warm_p50_ms=percentile(warm, 50),
                warm_p95_ms=percentile(warm, 95),
            )

            fresh_users = [views[i] for i in untouched if not _cached(views[i])][:PROFILE_RUNS]
            for label, chosen in (
                ("first search of a user (cold)", fresh_users),
                ("warm users", [touched[rng.randrange(len(touched))] for _ in range(PROFILE_RUNS)]),
            ):
                if not chosen:
                    continue
                batch = texts.questions(len(chosen))
                with instrumented(memory) as sink:
                    totals = [
                        _timed(functools.partial(v.search, q))[0] for v, q in zip(chosen, batch, strict=True)
                    ]
                result.profiles[
                    f"{result.name}: search, {label}, mean of {len(totals)}, "
                    f"{sum(totals) / len(totals):.2f} ms/op"
                ] = breakdown(sink, totals)
            result.load_average, result.others_cpu = _load_average(), meter.others()
        finally:
            memory.close()
    return result


# --- output -----------------------------------------------------------------------------------


def evaluate_targets(
    results: Sequence[Scenario], multi_requested: tuple[int, int] | None
) -> list[dict[str, Any]]:
    by_size = {r.facts_per_user: r for r in results if r.requested_users == 1 and r.name != "embedding"}
    embedding = next((r for r in results if r.name == "embedding"), None)
    multi = next((r for r in results if r.requested_users > 1), None)

    def get(result: Scenario | None, key: str) -> float | None:
        return None if result is None else result.metrics.get(key)

    checks: list[tuple[str, float | None, float]] = [
        ("one-text embedding p50 <= 5 ms", get(embedding, "embed_one_p50_ms"), 5.0),
        (
            "10k: hybrid search p50 <= 10 ms (query embedding incl.)",
            get(by_size.get(10_000), "search_p50_ms"),
            10.0,
        ),
        ("100k: hybrid search p95 <= 25 ms", get(by_size.get(100_000), "search_p95_ms"), 25.0),
        (
            "100k: first search after a restart <= 50 ms (slowest run)",
            get(by_size.get(100_000), "search_restart_max_ms"),
            50.0,
        ),
    ]
    if multi is not None:
        scale = f"{multi.users:,} users x {multi.facts_per_user:,}"
        if multi_requested and multi.users < multi_requested[0]:
            scale += f" (REDUCED from {multi_requested[0]:,})"
        checks.append(
            (f"{scale}: one user's hybrid p95 <= 15 ms, warm matrix", get(multi, "warm_p95_ms"), 15.0)
        )
        checks.append(
            (f"{scale}: same, random user per query (mostly cold)", get(multi, "random_p95_ms"), 15.0)
        )
    else:
        checks.append(("1M over 1,000 users: one user's hybrid p95 <= 15 ms", None, 15.0))
    found = []
    for label, value, limit in checks:
        verdict = "n/a" if value is None else ("PASS" if value <= limit else "MISS")
        found.append({"target": label, "value_ms": value, "limit_ms": limit, "verdict": verdict})
    return found


def render_table(lines: Sequence[Line]) -> str:
    headers = ("measurement", "scale", "runs", "p50 ms", "p95 ms", "note")
    cells = [
        (
            ln.what,
            ln.scale,
            str(ln.runs),
            "-" if ln.p50 is None else f"{ln.p50:.2f}",
            "-" if ln.p95 is None else f"{ln.p95:.2f}",
            ln.note,
        )
        for ln in lines
    ]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    align = ("<", "<", ">", ">", ">", "<")
    out = ["  ".join(f"{h:{a}{w}}" for h, a, w in zip(headers, align, widths, strict=True)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    for row in cells:
        out.append("  ".join(f"{c:{a}{w}}" for c, a, w in zip(row, align, widths, strict=True)).rstrip())
    return "\n".join(out)


def render_report(
    results: Sequence[Scenario], args: argparse.Namespace, elapsed: float, pool: VectorPool
) -> str:
    out = [render_table([line for r in results for line in r.lines]), ""]
    out.append(
        "Loading (store layer: insert_memory/insert_summary in scope.transaction(), then put_vectors):"
    )
    for r in results:
        if r.name == "embedding":
            continue
        out.append(
            f"  {r.name}: {r.users * r.facts_per_user:,} facts + {r.users * 5:,} preferences + "
            f"{r.users * 20:,} summaries in {r.load_s:.1f}s (rows {r.insert_s:.1f}s, "
            f"embedding {r.pool_embed_s:.1f}s, vectors {r.vectors_s:.1f}s); vectors: "
            f"{r.real_vectors:,} real, {r.reused_vectors:,} reused from the pool; db {r.db_mb:,.0f} MB"
        )
        out += [f"  ** {note}" for note in r.notes]
    out.append(
        f"  Vector pool: the first {pool.size:,} distinct texts of the run were embedded with "
        f"memory.embeddings.embed() ({pool.embedded:,} texts, {pool.embed_s:.0f}s); every other row reuses "
        "one of those vectors in turn (search cost does not depend on vector contents)."
    )
    out.append(
        "Searches: every query a new template question with random slot words (no repeats in the run), "
        "no date filter, limit 10; 'cached query' repeats each text once, interleaved with the new ones "
        f"({CACHED_LAG} searches later), so its embedding comes from the cache table; {WARMUP} warm-up calls "
        "first. Cold = first search after VectorIndex.clear() (one user) "
        "or a user's first search in the process (many users)."
    )
    out.append(
        "Machine while measuring (load average 1/5/15 min at the end of each part; CPU used by other "
        f"processes = busy CPU minus this process's own, on {os.cpu_count()} CPUs):"
    )
    for r in results:
        out.append(f"  {r.name}: load average {r.load_average}, other processes {r.others_cpu}")
    out.append("")
    out.append("Targets:")
    for check in evaluate_targets(results, args.multi):
        value = "-" if check["value_ms"] is None else f"{check['value_ms']:.2f} ms"
        out.append(f"  {check['verdict']:<5} {check['target']:<72} measured {value}")
    out.append("")
    out.append("Where the time goes (instrumented runs, mean ms per operation and share):")
    for r in results:
        for title, parts in r.profiles.items():
            out.append(f"  {title}")
            for label, ms, share in parts:
                if abs(ms) >= 0.005:
                    out.append(f"    {label:<52} {ms:8.2f} ms {share:6.1%}")
    out.append(
        f"\nTotal runtime {elapsed:.0f}s (seed {args.seed}); load average {args.load_before} before, "
        f"{_load_average()} after, on {os.cpu_count()} CPUs (above the CPU count, timings are inflated)."
    )
    return "\n".join(out)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="10000,100000", help="facts for one-user scenarios (default: %(default)s)"
    )
    parser.add_argument(
        "--multi", default="1000x1000", help="USERSxFACTS in one file, or 'none' (default: %(default)s)"
    )
    parser.add_argument("--queries", type=int, default=200, help="searches / context calls per measurement")
    parser.add_argument(
        "--embed-runs", type=int, default=200, help="one-text embedding runs (default: %(default)s)"
    )
    parser.add_argument(
        "--pool", type=int, default=5000, help="distinct texts really embedded (default: %(default)s)"
    )
    parser.add_argument(
        "--max-load-minutes",
        type=float,
        default=10.0,
        help="cut the multi-user load to fewer users if projected longer (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--out", type=Path, help="also write the output to this file")
    args = parser.parse_args(argv)
    try:
        args.size_list = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
        if args.multi.lower() in ("", "none", "0"):
            args.multi = None
        else:
            count, _, per = args.multi.lower().partition("x")
            args.multi = (int(count), int(per))
    except ValueError:
        parser.error("--sizes takes numbers like 10000,100000 and --multi takes USERSxFACTS like 1000x1000")
    if args.queries < 1 or args.embed_runs < 1 or args.pool < 1:
        parser.error("--queries, --embed-runs and --pool must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.load_before = _load_average()
    start = time.perf_counter()
    now = time.time()
    texts = FreshTexts(args.seed * 1000 + 313_131, now)
    pool = VectorPool(args.pool)
    progress(f"start; load average {args.load_before}")
    results = [measure_embedding(args, texts, now)]
    for size in args.size_list:
        progress(f"1 user, {size:,} facts: start")
        results.append(run_single(size, args, pool, texts, now))
    if args.multi:
        progress(f"{args.multi[0]:,} users x {args.multi[1]:,}: start")
        users, per = args.multi
        results.append(run_multi(users, per, args, pool, texts, now))
    elapsed = time.perf_counter() - start
    if args.json:
        output = json.dumps(
            {
                "scenarios": [asdict(r) for r in results],
                "targets": evaluate_targets(results, args.multi),
                "queries": args.queries,
                "pool": args.pool,
                "pool_embedded": pool.embedded,
                "seed": args.seed,
                "runtime_s": elapsed,
                "cpus": os.cpu_count(),
                "load_average_before": args.load_before,
                "load_average_after": _load_average(),
            },
            indent=2,
        )
    else:
        output = render_report(results, args, elapsed, pool)
    print(output)
    if args.out:
        args.out.write_text(output + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ReverieError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
