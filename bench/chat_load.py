"""Chat load: what Reverie adds to each turn in front of a model that answers at once.

A fake OpenAI-compatible model (tests/fakeserver.py) answers on 127.0.0.1 with no delay and
notes how long it spent on each request; ``reverie serve`` runs in front of it (a child
process, local embedder, SQLite or PostgreSQL) with 2,000 memories for one user. Then, each
for ``--seconds``:

* ``chat N``: N sessions (N in ``--sessions``, default 1, 10, 50), each its own conversation,
  sending turns to ``/v1/chat/completions`` back to back (every other session streams);
* ``ws N``: N WebSocket sessions (``/api/v1/sessions/ws``) asking for replies;
* ``rest N``: N clients of the REST API, remember 25 %, search 50 %, context 25 %.

A turn's overhead is the client's latency minus the model's time for that very request
(matched by a tag in the user's message). The server's CPU time and resident memory are
sampled all along; ``cpu/req`` is the server's CPU per request until it is idle again after
the load (so the turns' vectors, embedded in the background, count), ``bg/req`` the share of
its lower-priority threads (the turn indexer). The whole round runs twice against the same
server (``--rounds``), so the second round shows whether memory grows from run to run. The
last lines name the limit each load hit: the CPU (server plus clients near the cores
available), or serialisation (a lock or the event loop) when latency grows while the cores idle.

    .venv/bin/python bench/chat_load.py                 # 60 s per load, 2 rounds
    .venv/bin/python bench/chat_load.py --seconds 15    # a quick run
    .venv/bin/python bench/chat_load.py --engine postgres
    .venv/bin/python bench/chat_load.py --seeded /tmp/chatload-seed   # seed once, reuse after
    .venv/bin/python bench/chat_load.py --model-ms 800  # a model that takes 0.8 s, as real ones do

Every request goes to 127.0.0.1; each load is bounded by ``--seconds`` and its client count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import fakeserver  # noqa: E402
import httpx  # noqa: E402
import psutil  # noqa: E402
import websockets  # noqa: E402

from reverie.config import load_settings  # noqa: E402
from reverie.memory import Memory  # noqa: E402

USER = "bench"
TAG = re.compile(r"\[t(\d+)\]")
CORES = os.cpu_count() or 1
_NAMES = ["Mia", "Tom", "Ana", "Leo", "Sara", "Ivan", "Noor", "Kai", "Rosa", "Ben", "Lena", "Omar"]
_THINGS = [
    "jazz records",
    "sourdough bread",
    "mountain hiking",
    "chess openings",
    "Thai curry",
    "old maps",
    "tennis",
    "watercolour painting",
    "sci-fi novels",
    "board games",
    "espresso",
    "sailing",
    "the piano",
    "growing tomatoes",
    "vintage cameras",
    "yoga",
    "Italian opera",
    "marathon training",
]
_PLACES = ["Lisbon", "Kyoto", "Oslo", "Lima", "Cairo", "Vienna", "Austin", "Hanoi", "Dublin", "Perth"]
_TEMPLATES = [
    "{name} is the user's {rel} and loves {thing}",
    "The user visited {place} in {year} and enjoyed {thing}",
    "The user's {rel} {name} lives in {place}",
    "The user wants to learn {thing} before {year}",
    "The user bought a gift about {thing} for {name} in {place}",
    "The user's appointment with {name} about {thing} is in {place}",
]
_DETAILS = [
    "it came up while talking about",
    "remembered thanks to",
    "mentioned again on a call with",
    "a story first told by",
    "something worth asking",
    "worth a reminder from",
    "noted after dinner with",
]
_RELS = ["sister", "brother", "colleague", "neighbour", "friend", "cousin", "manager", "dentist"]
_QUESTIONS = [
    "What does my sister like?",
    "Where did I travel last year?",
    "Any ideas for a gift for Tom?",
    "Remind me what I wanted to learn.",
    "Who lives in Lisbon?",
    "What should I cook tonight?",
    "Tell me about my appointment next week.",
    "What hobbies do I have?",
    "Is Ana my cousin?",
    "What music do I enjoy?",
    "How was the trip to Kyoto?",
    "What did I say about sailing?",
]


def fact(i: int, rnd: random.Random) -> str:
    """The i-th seeded memory: varied sentences, each made unique by its number."""
    text = rnd.choice(_TEMPLATES).format(
        name=rnd.choice(_NAMES),
        rel=rnd.choice(_RELS),
        thing=rnd.choice(_THINGS),
        place=rnd.choice(_PLACES),
        year=2015 + rnd.randrange(12),
    )
    return f"{text}; {rnd.choice(_DETAILS)} {rnd.choice(_NAMES)} (note {i})"


class TimedModel(fakeserver.FakeModelServer):
    """The fake model, noting the time it spent on each tagged chat request."""

    def __init__(self, delay: float = 0.0) -> None:
        super().__init__(default_reply="Sure, I remember that.")
        self.delay = delay
        self.spent: dict[int, float] = {}
        self.requests = _Dropped()

        self._local = threading.local()

    def _handle(self, handler: Any, method: str) -> None:
        self._local.tag = None
        start = time.perf_counter()
        super()._handle(handler, method)
        if self._local.tag is not None:
            self.spent[self._local.tag] = time.perf_counter() - start

    def _next_reply(self, body: dict[str, Any]) -> fakeserver.Reply:
        last = next((m for m in reversed(body.get("messages", [])) if m.get("role") == "user"), None)
        found = TAG.search(str(last.get("content", ""))) if last else None
        self._local.tag = int(found.group(1)) if found else None
        if self.delay and found:
            time.sleep(self.delay)  # a model's time to answer (counted in its time, not the overhead)
        return super()._next_reply(body)


class _Dropped(list[Any]):
    """The fake server records every request; the bench keeps none of them."""

    def append(self, item: Any) -> None:
        """Drop the record."""


@dataclass
class Load:
    """What one load measured."""

    name: str
    clients: int
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    overheads: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    server_cpu: float = 0.0
    settled_cpu: float = 0.0
    background_cpu: float = 0.0
    bench_cpu: float = 0.0
    peak_rss: int = 0
    machine_busy: float = 0.0
    timings: dict[str, list[float]] = field(default_factory=dict)

    def fail(self, what: str) -> None:
        """Count a failed request by what it was and how it failed (an HTTP status, a frame)."""
        self.errors += 1
        self.error_kinds[what] = self.error_kinds.get(what, 0) + 1

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.latencies.values())


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank; nan when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RssSampler:
    """Samples the server's resident memory and keeps the peak since the last reset."""

    def __init__(self, process: psutil.Process) -> None:
        self.process = process
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            try:
                self.peak = max(self.peak, self.process.memory_info().rss)
            except psutil.Error:
                return

    def reset(self) -> int:
        peak, self.peak = self.peak, self.process.memory_info().rss
        return peak

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _timing(header: str | None) -> dict[str, float]:
    """``Server-Timing: context;dur=3.1, ...`` as {name: ms}."""
    found: dict[str, float] = {}
    for part in (header or "").split(","):
        name, _, rest = part.strip().partition(";")
        match = re.search(r"dur=([0-9.]+)", rest)
        if name and match:
            found[name] = float(match.group(1))
    return found


class Bench:
    """The server under test, its model and the loads."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.counter = 0
        self.model = TimedModel(args.model_ms / 1000).start()
        self.tmp = Path(tempfile.mkdtemp(prefix="reverie-chatload-"))
        self.port = free_port()
        self.pg: Any = None
        self.env = self._environment()
        self.token = self._seed()
        self.server = self._serve()
        self.process = psutil.Process(self.server.pid)
        self.rss = RssSampler(self.process)
        self.base = f"http://127.0.0.1:{self.port}"
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def _environment(self) -> dict[str, str]:
        url = ""
        if self.args.engine == "postgres":
            import pgserver
            import psycopg

            self.pg = pgserver.start({"max_connections": "200"})
            with psycopg.connect(self.pg.url(), autocommit=True) as conn:
                conn.execute("CREATE DATABASE reverie_chatload")
            url = self.pg.url("reverie_chatload")
        env = {
            "REVERIE_HOME": str(self.tmp),
            "REVERIE_DEFAULT_USER": USER,
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_LLM__PROVIDER": "openai_compatible",
            "REVERIE_LLM__ENDPOINT": f"{self.model.url}/v1",
            "REVERIE_LLM__MODEL": "fake-chat",
            "REVERIE_LLM__MAX_ATTEMPTS": "1",
            "REVERIE_RAG__REINDEX_ON_STARTUP": "false",
            "REVERIE_SERVER__PORT": str(self.port),
            "REVERIE_SERVER__LOG_LEVEL": "warning",
        }
        if url:
            env["REVERIE_STORE__URL"] = url
        for item in self.args.set or []:
            name, _, value = item.partition("=")
            env[name] = value
        return env

    def _seed(self) -> str:
        started = time.perf_counter()
        kept = self.args.seeded
        if kept is not None and (kept / "reverie.db").exists() and self.args.engine == "sqlite":
            shutil.copytree(kept, self.tmp, dirs_exist_ok=True)  # seeded by an earlier run
        memory = Memory(load_settings(home=self.tmp, environ=self.env))
        try:
            rnd = random.Random(7)
            i = 0
            while (have := memory.count()) < self.args.memories and i < 3 * self.args.memories:
                for _ in range(self.args.memories - have):
                    memory.remember(fact(i, rnd))
                    i += 1
            user = memory.user
            assert user is not None
            _, secret = memory.accounts.create_token(user, "chat-load")
            count = memory.count()
        finally:
            memory.close()
        if kept is not None and not (kept / "reverie.db").exists() and self.args.engine == "sqlite":
            shutil.copytree(self.tmp, kept, dirs_exist_ok=True)
        print(f"seeded {count} memories in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        return secret

    def _serve(self) -> subprocess.Popen[bytes]:
        env = {**os.environ, **self.env}
        reverie = Path(sys.executable).with_name("reverie")
        server = subprocess.Popen([str(reverie), "serve"], env=env, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=1).status_code < 500:
                    return server
            except httpx.HTTPError:
                pass
            if server.poll() is not None:
                raise SystemExit("reverie serve exited before answering")
            time.sleep(0.2)
        server.kill()
        raise SystemExit("reverie serve did not answer within 60 s")

    def close(self) -> None:
        self.rss.stop()
        self.server.terminate()
        try:
            self.server.wait(30)
        except subprocess.TimeoutExpired:
            self.server.kill()
        self.model.stop()
        if self.pg is not None:
            self.pg.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def next_tag(self) -> int:
        self.counter += 1
        return self.counter

    def question(self) -> tuple[int, str]:
        tag = self.next_tag()
        return tag, f"{random.choice(_QUESTIONS)} [t{tag}]"

    # loads -------------------------------------------------------------------------
    async def run_load(
        self, name: str, clients: int, worker: Callable[[Load, float], Awaitable[None]]
    ) -> Load:
        load = Load(name, clients)
        self.rss.reset()
        cpu0 = self.process.cpu_times()
        background0 = self.background_cpu()
        own0 = psutil.Process().cpu_times()
        psutil.cpu_percent()
        start = time.perf_counter()
        deadline = start + self.args.seconds
        await asyncio.gather(*(worker(load, deadline) for _ in range(clients)))
        load.seconds = time.perf_counter() - start
        cpu1 = self.process.cpu_times()
        own1 = psutil.Process().cpu_times()
        load.machine_busy = psutil.cpu_percent() / 100 * CORES
        load.server_cpu = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
        load.bench_cpu = (own1.user + own1.system) - (own0.user + own0.system)
        load.peak_rss = self.rss.reset()
        # The turns' vectors are embedded after the replies: their CPU counts once it is spent.
        await self.settle()
        cpu2 = self.process.cpu_times()
        load.settled_cpu = (cpu2.user + cpu2.system) - (cpu0.user + cpu0.system)
        load.background_cpu = self.background_cpu() - background0
        return load

    async def settle(self, most: float = 180.0) -> None:
        """Wait (up to ``most`` seconds) until the turns have their vectors and the server is idle.

        On SQLite the database says when every turn has its vector and only the last turn of
        each conversation waits for its window: on a busy machine the indexer's low-priority
        thread can starve for seconds, which an idle-CPU test alone takes for the end.
        """
        deadline = time.perf_counter() + most
        while self.args.engine == "sqlite" and time.perf_counter() < deadline and self._unindexed():
            await asyncio.sleep(0.5)
        before = self.process.cpu_times()
        while time.perf_counter() < deadline:
            await asyncio.sleep(0.5)
            after = self.process.cpu_times()
            if (after.user + after.system) - (before.user + before.system) < 0.01:
                return
            before = after

    def _unindexed(self) -> bool:
        """True while some turn lacks its vector, or a window other than a conversation's last one."""
        import sqlite3

        with sqlite3.connect(self.tmp / "reverie.db", timeout=30) as conn:
            turns, windows, conversations = conn.execute(
                "SELECT (SELECT COUNT(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM vectors v"
                " WHERE v.item_kind = 'message' AND v.item_id = m.id)),"
                " (SELECT COUNT(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM vectors v"
                " WHERE v.item_kind = 'message_window' AND v.item_id = m.id)),"
                " (SELECT COUNT(DISTINCT conversation_id) FROM messages)"
            ).fetchone()
        return bool(turns or windows > conversations)

    def background_cpu(self) -> float:
        """CPU seconds so far of the server's lower-priority threads (the turn indexer)."""
        total = 0.0
        base = self.process.nice()
        for thread in self.process.threads():
            try:
                if psutil.Process(thread.id).nice() > base:
                    total += thread.user_time + thread.system_time
            except psutil.Error:
                continue
        return total

    def _note(self, load: Load, kind: str, tag: int | None, latency: float, timing: dict[str, float]) -> None:
        load.latencies.setdefault(kind, []).append(latency)
        if tag is not None:
            spent = self.model.spent.pop(tag, None)
            if spent is not None:
                load.overheads.append(latency - spent)
        for key, value in timing.items():
            load.timings.setdefault(key, []).append(value)

    async def chat_worker(self, client: httpx.AsyncClient, load: Load, deadline: float, stream: bool) -> None:
        created = await client.post("/api/v1/conversations", json={"interface": "chat"})
        conversation = str(created.json()["id"])
        while time.perf_counter() < deadline:
            tag, text = self.question()
            body = {"model": "x", "messages": [{"role": "user", "content": text}], "stream": stream}
            headers = {"X-Reverie-Conversation": conversation}
            start = time.perf_counter()
            try:
                if stream:
                    async with client.stream("POST", "/v1/chat/completions", json=body, headers=headers) as r:
                        async for _ in r.aiter_lines():
                            pass
                        ok, timing = r.status_code == 200, _timing(r.headers.get("server-timing"))
                else:
                    r = await client.post("/v1/chat/completions", json=body, headers=headers)
                    ok, timing = r.status_code == 200, _timing(r.headers.get("server-timing"))
                status = str(r.status_code)
            except httpx.HTTPError as exc:
                ok, timing, status = False, {}, type(exc).__name__
            latency = time.perf_counter() - start
            if not ok:
                load.fail(f"{'stream' if stream else 'turn'} {status}")
                continue
            self._note(load, "stream" if stream else "turn", tag, latency, timing)

    def _chat(self, client: httpx.AsyncClient) -> Callable[[Load, float], Awaitable[None]]:
        started = iter(range(1_000_000))

        def worker(load: Load, deadline: float) -> Awaitable[None]:
            # Every other session streams (a single session does not).
            stream = load.clients > 1 and next(started) % 2 == 1
            return self.chat_worker(client, load, deadline, stream)

        return worker

    async def ws_worker(self, load: Load, deadline: float) -> None:
        url = f"ws://127.0.0.1:{self.port}/api/v1/sessions/ws"
        async with websockets.connect(url, additional_headers=self.headers, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "interface": "chat"}))
            json.loads(await ws.recv())
            while time.perf_counter() < deadline:
                tag, text = self.question()
                start = time.perf_counter()
                await ws.send(json.dumps({"type": "message", "role": "user", "content": text, "reply": True}))
                while True:
                    frame = json.loads(await ws.recv())
                    if frame["type"] in ("reply", "error"):
                        break
                latency = time.perf_counter() - start
                if frame["type"] == "error":
                    load.fail(f"ws {str(frame.get('message') or frame.get('error'))[:60]}")
                    continue
                timing = {k: float(v) for k, v in (frame.get("timing") or {}).items()}
                self._note(load, "ws", tag, latency, timing)

    async def rest_worker(self, client: httpx.AsyncClient, load: Load, deadline: float) -> None:
        rnd = random.Random(self.next_tag())
        while time.perf_counter() < deadline:
            roll = rnd.random()
            start = time.perf_counter()
            try:
                if roll < 0.25:
                    kind = "remember"
                    r = await client.post(
                        "/api/v1/memories", json={"text": fact(100_000 + self.next_tag(), rnd)}
                    )
                elif roll < 0.75:
                    kind = "search"
                    r = await client.get("/api/v1/search", params={"q": rnd.choice(_QUESTIONS)})
                else:
                    kind = "context"
                    r = await client.get("/api/v1/context", params={"q": rnd.choice(_QUESTIONS)})
                ok, status = r.status_code < 300, str(r.status_code)
            except httpx.HTTPError as exc:
                ok, status = False, type(exc).__name__
            if not ok:
                load.fail(f"{kind} {status}")
                continue
            self._note(load, kind, None, time.perf_counter() - start, {})

    async def round(self) -> list[Load]:
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
        loads = []
        async with httpx.AsyncClient(
            base_url=self.base, headers=self.headers, timeout=120, limits=limits
        ) as client:
            await client.post(
                "/v1/chat/completions",
                json={"model": "x", "messages": [{"role": "user", "content": "warm up"}]},
            )
            for n in self.args.sessions:
                loads.append(await self.run_load(f"chat {n}", n, self._chat(client)))
                report_line(loads[-1])
            for n in self.args.ws:
                loads.append(await self.run_load(f"ws {n}", n, self.ws_worker))
                report_line(loads[-1])
            for n in self.args.rest:
                loads.append(
                    await self.run_load(f"rest {n}", n, lambda load, d: self.rest_worker(client, load, d))
                )
                report_line(loads[-1])
        return loads


def limit_hit(load: Load) -> str:
    """Which limit a load ran into, judged from the CPU it used."""
    busy = (load.server_cpu + load.bench_cpu) / load.seconds if load.seconds else 0.0
    server = load.server_cpu / load.seconds if load.seconds else 0.0
    if load.clients == 1:
        return f"one client at a time (server {server:.2f} cores)"
    others = max(0.0, load.machine_busy - busy)
    where = f"server {server:.2f} + clients {busy - server:.2f} + others {others:.2f} of {CORES} cores"
    if load.machine_busy >= 0.85 * CORES:
        return f"CPU: {where}"
    return f"serialisation (a lock or the event loop): {where}"


def report_line(load: Load) -> None:
    """One line per load, as it finishes (stderr)."""
    kinds = ", ".join(f"{what}: {n}" for what, n in sorted(load.error_kinds.items()))
    print(
        f"  {load.name}: {load.count} requests in {load.seconds:.1f} s, {load.errors} errors"
        + (f" ({kinds})" if kinds else ""),
        file=sys.stderr,
        flush=True,
    )


def table(rounds: list[list[Load]]) -> str:
    """The report: one row per load and round."""
    head = (
        f"{'round':>5} {'load':<8} {'req/s':>7} {'ovh p50':>8} {'ovh p95':>8} {'lat p95':>8} "
        f"{'cpu/req':>8} {'bg/req':>7} {'errors':>6} {'peak RSS':>9}  per kind p95 (ms)"
    )
    lines = [head, "-" * len(head)]
    for number, loads in enumerate(rounds, start=1):
        for load in loads:
            every = [v for vs in load.latencies.values() for v in vs]
            kinds = " ".join(f"{k} {pct(v, 95) * 1000:.0f}" for k, v in sorted(load.latencies.items()))
            timing = load.timings
            if timing:
                kinds += " | server " + " ".join(
                    f"{k} {statistics.median(v):.1f}" for k, v in sorted(timing.items())
                )
            lines.append(
                f"{number:>5} {load.name:<8} {load.count / load.seconds:>7.1f} "
                f"{pct(load.overheads, 50) * 1000:>7.1f}ms {pct(load.overheads, 95) * 1000:>7.1f}ms "
                f"{pct(every, 95) * 1000:>7.1f}ms {load.settled_cpu / max(load.count, 1) * 1000:>6.1f}ms "
                f"{load.background_cpu / max(load.count, 1) * 1000:>5.1f}ms "
                f"{load.errors:>6} {load.peak_rss / 2**20:>7.0f}MB  {kinds}"
            )
    lines.append("")
    lines.append("limits hit (last round):")
    for load in rounds[-1]:
        lines.append(f"  {load.name:<8} {limit_hit(load)}")
    if len(rounds) > 1:
        first = max(load.peak_rss for load in rounds[0])
        last = max(load.peak_rss for load in rounds[-1])
        lines.append(
            f"peak RSS round 1 {first / 2**20:.0f} MB, round {len(rounds)} {last / 2**20:.0f} MB "
            f"({(last - first) / first * 100:+.1f} %)"
        )
    return "\n".join(lines)


def _counts(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()] if text else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each load (default 60)")
    parser.add_argument("--sessions", type=_counts, default=[1, 10, 50], help="chat sessions, e.g. 1,10,50")
    parser.add_argument("--ws", type=_counts, default=[10], help="WebSocket sessions (default 10)")
    parser.add_argument("--rest", type=_counts, default=[50], help="REST clients (default 50)")
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=2, help="identical rounds against one server")
    parser.add_argument("--engine", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--set", action="append", help="extra REVERIE_X=value for the server")
    parser.add_argument(
        "--model-ms", type=float, default=0.0, help="the fake model's time per answer (default 0: at once)"
    )
    parser.add_argument(
        "--seeded",
        type=Path,
        help="SQLite: copy the seeded home from this folder (seed there first when it is empty)",
    )
    args = parser.parse_args()
    if not 0 < args.seconds <= 600 or max([*args.sessions, *args.ws, *args.rest, 1]) > 200:
        raise SystemExit("--seconds must be in (0, 600] and each load at most 200 clients")
    if not 0 <= args.model_ms <= 60_000:
        raise SystemExit("--model-ms must be in [0, 60000]")
    bench = Bench(args)
    try:
        rounds = []
        for number in range(args.rounds):
            print(f"round {number + 1}", file=sys.stderr, flush=True)
            rounds.append(asyncio.run(bench.round()))
        print(f"engine {args.engine}, {args.memories} memories, {args.seconds:g} s per load, {CORES} cores")
        print(table(rounds))
    finally:
        bench.close()


if __name__ == "__main__":
    main()
