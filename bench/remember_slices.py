"""Remember throughput per 1k slice with the local embedder (``store_bench.py --remember-slices``).

Three measurements, each in a fresh temporary REVERIE home with a real SQLite file:

1. grow: ``Memory.remember`` from 0 to ``--grow`` facts (default 10,000) for one user, the rate
   printed for every 1k slice.
2. tail: the store is seeded to ``--tail-from`` facts (default 90,000) quickly, in one
   transaction through the store layer with precomputed vectors (``--seed-embedded`` of them
   embedded with the local embedder and kept in ``--vector-cache``, the others near those),
   then ``--tail-count`` more facts (default 10,000) go through ``Memory.remember``, again
   per 1k slice.
3. rest: a real ``reverie serve`` on 127.0.0.1 and one keep-alive HTTP client (httpx) posting
   ``--rest-count`` facts (default 10,000) to ``POST /api/v1/memories``, per 1k slice.

Each slice also prints the CPU time per remember (all threads of the process that does the
work: this one, or the server for rest), which says more than the rate on a shared machine.

The facts are the varied synthetic facts of store_bench.py (people, pets, places, food, work,
events, things), unique in each run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from reverie.config import Settings, load_settings
from reverie.embed.service import embedder_from_settings, to_blob
from reverie.errors import GuardRejected
from reverie.memory import Memory
from reverie.store.base import NewMemory

SLICE = 1000
_ENV = {"REVERIE_MEMORY__TIMEZONE": "UTC", "REVERIE_EMBEDDINGS__PROVIDER": "local"}


@dataclass
class Slices:
    """Per-slice rates of one measurement."""

    name: str
    start: int
    rates: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)  # CPU time per remember (all threads)
    outcomes: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def overall(self) -> float:
        return SLICE * len(self.rates) / self.seconds if self.seconds else 0.0


def _settings(home: Path) -> Settings:
    return load_settings(home=home, environ=dict(_ENV))


def _cpu_seconds(pid: int | None) -> float:
    """CPU time used so far by this process, or by another one (from /proc)."""
    if pid is None:
        return time.process_time()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run_slices(name: str, start: int, facts: Sequence[tuple[str, str]], call: Callable[[str, str], str],
                progress: Callable[[str], None], pid: int | None = None) -> Slices:
    """Time ``call`` per slice; CPU time is this process's, or ``pid``'s (the server)."""
    found = Slices(name, start)
    for first in range(0, len(facts), SLICE):
        chunk = facts[first:first + SLICE]
        began, cpu = time.perf_counter(), _cpu_seconds(pid)
        for kind, text in chunk:
            found.outcomes[call(kind, text)] += 1
        elapsed = time.perf_counter() - began
        found.cpu_ms.append((_cpu_seconds(pid) - cpu) * 1000 / len(chunk))
        found.seconds += elapsed
        found.rates.append(len(chunk) / elapsed)
        low = start + first
        progress(f"{name}: {low:,}-{low + len(chunk):,}: {len(chunk) / elapsed:,.1f}/s,"
                 f" {found.cpu_ms[-1]:.1f} ms CPU each")
    return found


def _remember(memory: Memory) -> Callable[[str, str], str]:
    def call(kind: str, text: str) -> str:
        try:
            return memory.remember(text, type=kind).status
        except GuardRejected:
            return "rejected"
    return call


def _seed_vectors(settings: Settings, texts: Sequence[str], real: int, cache: Path,
                  progress: Callable[[str], None]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Vectors of the seed facts: the first ``real`` embedded, the others near one of those.

    Embedding 90k facts takes minutes on two shared cores, and the remember path's cost does not
    depend on the seed vectors' values (one exact scan over all of them per remember), so most
    seed vectors are a real vector plus noise (cosine about 0.7 to it), normalised. The real
    ones are kept in ``cache`` between runs.
    """
    real = min(real, len(texts))
    path = cache / f"seed-{real}-{_digest(texts[:real])}.npy"
    if path.exists():
        embedded = np.load(path)[:real]
    else:
        embedder = embedder_from_settings(settings)
        progress(f"embedding {real:,} seed facts once (cached in {path})")
        parts = [np.asarray(embedder.embed_batch(list(texts[first:min(first + 256, real)])), dtype=np.float32)
                 for first in range(0, real, 256)]
        embedded = np.vstack(parts)
        embedded /= np.maximum(np.linalg.norm(embedded, axis=1, keepdims=True), 1e-12)
        cache.mkdir(parents=True, exist_ok=True)
        np.save(path, embedded)
    rng = np.random.default_rng(len(texts))
    base = embedded[rng.integers(0, real, len(texts) - real)]
    noise = rng.standard_normal(base.shape).astype(np.float32) / np.sqrt(base.shape[1])
    synthetic = base + noise
    synthetic /= np.linalg.norm(synthetic, axis=1, keepdims=True)
    return np.vstack([embedded, synthetic]).astype(np.float32)


def _digest(texts: Sequence[str]) -> str:
    sha = hashlib.sha256()
    for text in texts:
        sha.update(text.encode())
        sha.update(b"\0")
    return sha.hexdigest()[:16]


def measure_grow(gen: Any, count: int, progress: Callable[[str], None]) -> Slices:
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        memory = Memory(_settings(Path(tmp)))
        try:
            facts = gen.unique_facts(count, set())
            memory.remember("User warms up the embedder.")  # load the model outside the timing
            return _run_slices("grow", 0, facts, _remember(memory), progress)
        finally:
            memory.close()


def measure_tail(gen: Any, seed_count: int, count: int, real: int, cache: Path,
                 progress: Callable[[str], None]) -> Slices:
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        settings = _settings(Path(tmp))
        seen: set[str] = set()
        seed = gen.unique_facts(seed_count, seen)
        facts = gen.unique_facts(count, seen)
        vectors = _seed_vectors(settings, [text for _, text in seed], real, cache, progress)
        memory = Memory(settings)
        try:
            service = memory.embeddings
            assert service is not None, "embeddings are off"
            scope, now = memory.scope, time.time()
            began = time.perf_counter()
            with scope.transaction():
                for (kind, text), vector in zip(seed, vectors, strict=True):
                    row = scope.insert_memory(NewMemory(kind="fact", text=text, source="explicit",
                                                        confidence=1.0, type=kind), now)
                    scope.put_vectors("memory", [(row.id, to_blob(vector))], service.model_id,
                                      service.dimensions)
            progress(f"tail: seeded {seed_count:,} facts with vectors in {time.perf_counter() - began:.1f}s")
            memory.remember("User warms up the embedder and the index.")
            return _run_slices("tail", seed_count, facts, _remember(memory), progress)
        finally:
            memory.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def measure_rest(gen: Any, count: int, progress: Callable[[str], None]) -> Slices:
    import httpx

    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        env = {**os.environ, **_ENV, "REVERIE_HOME": tmp}
        cli = [str(Path(sys.executable).with_name("reverie"))]
        made = subprocess.run([*cli, "tokens", "create", "bench", "--json"], env=env, check=True,
                              capture_output=True, text=True)
        token = json.loads(made.stdout)["token"]
        port = _free_port()
        log = open(Path(tmp) / "serve.log", "wb")  # noqa: SIM115 - closed below
        server = subprocess.Popen([*cli, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"},
                              timeout=30) as client:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        client.get("/health").raise_for_status()
                        break
                    except httpx.HTTPError:
                        if time.monotonic() > deadline or server.poll() is not None:
                            raise
                        time.sleep(0.2)
                client.post("/api/v1/memories", json={"text": "User warms up the server."}).raise_for_status()

                def call(kind: str, text: str) -> str:
                    reply = client.post("/api/v1/memories", json={"text": text, "type": kind})
                    if reply.status_code != 201:
                        return f"http {reply.status_code}"
                    return str(reply.json().get("status"))

                return _run_slices("rest", 0, gen.unique_facts(count, set()), call, progress, server.pid)
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()


def render(results: Sequence[Slices]) -> str:
    lines = ["slice              remember/s  CPU ms/remember"]
    for result in results:
        for index, (rate, cpu) in enumerate(zip(result.rates, result.cpu_ms, strict=True)):
            low = result.start + index * SLICE
            label = f"{result.name:<5} {low // 1000:>4}k-{low // 1000 + 1:>4}k"
            lines.append(f"{label}  {rate:>10.1f}  {cpu:>15.1f}")
        slowest = min(result.rates, default=0.0)
        lines.append(f"{result.name:<5} overall      {result.overall:>10.1f}  (slowest slice {slowest:.1f});"
                     f" outcomes {dict(result.outcomes)}")
    return "\n".join(lines)


def run(args: argparse.Namespace, generator: Callable[[int], Any], progress: Callable[[str], None]) -> str:
    """Run the measurements chosen in ``args`` and return the table."""
    results = []
    if args.grow:
        results.append(measure_grow(generator(1), args.grow, progress))
    if args.tail_count:
        results.append(
            measure_tail(generator(2), args.tail_from, args.tail_count, args.seed_embedded, args.vector_cache,
                         progress)
        )
    if args.rest_count:
        results.append(measure_rest(generator(3), args.rest_count, progress))
    return render(results)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of this mode."""
    group = parser.add_argument_group("--remember-slices")
    group.add_argument("--remember-slices", action="store_true",
                       help="measure Memory.remember and REST remember per 1k slice with the local embedder")
    group.add_argument("--grow", type=int, default=10_000, help="facts remembered from an empty store")
    group.add_argument("--tail-from", type=int, default=90_000, help="facts seeded before the tail")
    group.add_argument("--tail-count", type=int, default=10_000, help="facts remembered after the seed")
    group.add_argument("--rest-count", type=int, default=10_000, help="facts posted through the REST API")
    group.add_argument("--seed-embedded", type=int, default=5000,
                       help="seed facts embedded for real; the rest get vectors near those")
    group.add_argument("--vector-cache", type=Path,
                       default=Path(tempfile.gettempdir()) / "reverie-bench-vectors",
                       help="where the seed vectors are kept between runs (default: %(default)s)")
