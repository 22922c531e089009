"""Time one nightly maintenance run over many users' facts, and show its memory stays flat.

    .venv/bin/python bench/maintenance_bench.py [--users 100] [--facts 10000]

Loads USERS x FACTS facts into a fresh SQLite file through the store layer (a third never
used, the rest last used between 0 and 60 weeks ago, explicit and inferred mixed, plus
preferences, superseded facts and old summaries), then runs the maintenance job once
(decay, pruning with audit rows, retention) and prints a table. Memory: resident set size
before and after, and the Python allocation peak of each user's step (tracemalloc), whose
maximum over users does not grow with the number of users.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from reverie import Memory, load_settings
from reverie.maintain.nightly import maintain_user
from reverie.store.base import NewMemory, NewSummary

WEEK = 7 * 86400.0
NOW = 1_800_000_000.0
WORDS = (
    "garden coffee sister marathon violin kayak bakery museum recipe laptop train guitar piano "
    "dentist office holiday beach mountain novel chess painting cat dog bees chickens"
).split()


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _load(memory: Memory, users: int, facts: int, rng: random.Random) -> float:
    start = time.perf_counter()
    for u in range(users):
        user = memory.add_user(f"user{u:04d}")
        scope = memory.store.scope(user.id)
        with scope.transaction():
            for i in range(facts):
                used = rng.random() < 2 / 3
                explicit = rng.random() < 0.4
                scope.insert_memory(
                    NewMemory(
                        kind="fact",
                        text=f"User fact {i} about the {rng.choice(WORDS)} and the {rng.choice(WORDS)}",
                        source="explicit" if explicit else "inferred",
                        confidence=1.0 if explicit else rng.uniform(0.5, 0.95),
                        created_at=NOW - 70 * WEEK,
                        last_accessed=NOW - rng.uniform(0, 60) * WEEK if used else None,
                        status="superseded" if i % 50 == 0 else "active",
                    ),
                    NOW - 70 * WEEK,
                )
            for i in range(5):
                scope.insert_memory(
                    NewMemory(
                        kind="preference",
                        text=f"likes {WORDS[i]}",
                        source="explicit",
                        confidence=0.9,
                        key=f"pref{i}",
                        created_at=NOW - 10 * WEEK,
                    ),
                    NOW,
                )
            for i in range(20):
                scope.insert_summary(
                    NewSummary(text=f"A chat about {rng.choice(WORDS)}", created_at=NOW - i * 5 * 86400), NOW
                )
        print(f"  loaded user {u + 1}/{users}", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return time.perf_counter() - start


def main() -> None:
    """Load, run once, print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--facts", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="reverie-maint-") as home:
        env = {"REVERIE_EMBEDDINGS__ENABLED": "false", "REVERIE_MEMORY__TIMEZONE": "UTC"}
        settings = load_settings(home=Path(home), environ=env)
        with Memory(settings, clock=lambda: NOW) as memory:
            load_s = _load(memory, args.users, args.facts, rng)
            size_mb = memory.store.database_size() / 1e6
            users = [u for u in memory.store.list_users() if u.name.startswith("user")]
            rss_before = _rss_mb()
            first = _run(memory, users, NOW, settings)
            second = _run(memory, users, NOW + 86400, settings)
            rss_after = _rss_mb()
            rows = [
                ("users x facts", f"{len(users)} x {args.facts:,}"),
                ("load (store layer)", f"{load_s:.1f} s"),
                ("database", f"{size_mb:.0f} MB"),
            ]
            for label, run in (("first run (store never maintained)", first), ("next night's run", second)):
                rows += [
                    (label, f"{run['seconds']:.2f} s"),
                    ("  per user p50 / max", f"{run['p50_ms']:.0f} / {run['max_ms']:.0f} ms"),
                    (
                        "  decayed / pruned low / superseded / summaries",
                        f"{run['decayed']:,} / {run['low']:,} / {run['superseded']:,} / {run['summaries']:,}",
                    ),
                    (
                        "  Python peak per user: first 10 / last 10",
                        f"{run['peak_first']:.2f} / {run['peak_last']:.2f} MB",
                    ),
                ]
            rows += [
                ("RSS before / after", f"{rss_before:.0f} / {rss_after:.0f} MB"),
                (
                    "max RSS of the process",
                    f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB",
                ),
            ]
            width = max(len(name) for name, _ in rows)
            for name, value in rows:
                print(f"{name:<{width}}  {value}")
            print()
            for label, run in (("first run", first), ("next night's run", second)):
                verdict = "PASS" if run["seconds"] < 10 else "MISS"
                scale = f"{len(users)} users x {args.facts:,} facts"
                print(f"{verdict}  {label} over {scale} < 10 s: {run['seconds']:.2f} s")


def _run(memory: Memory, users: list, now: float, settings: object) -> dict[str, float]:  # type: ignore[type-arg]
    """One maintenance pass over all users (the job's per-user step), timed and traced."""
    decay = memory.settings.memory.decay
    peaks: list[float] = []
    per_user: list[float] = []
    totals = {"decayed": 0, "low": 0, "superseded": 0, "summaries": 0}
    tracemalloc.start()
    start = time.perf_counter()
    for user in users:
        tracemalloc.reset_peak()
        tick = time.perf_counter()
        decayed, report = maintain_user(memory.store, user.id, now, decay)
        per_user.append(time.perf_counter() - tick)
        peaks.append(tracemalloc.get_traced_memory()[1] / 1e6)
        totals["decayed"] += decayed
        totals["low"] += report.low_confidence
        totals["superseded"] += report.superseded
        totals["summaries"] += report.summaries
    seconds = time.perf_counter() - start
    tracemalloc.stop()
    return {
        "seconds": seconds,
        "p50_ms": statistics.median(per_user) * 1000,
        "max_ms": max(per_user) * 1000,
        "peak_first": max(peaks[:10]),
        "peak_last": max(peaks[-10:]),
        **totals,
    }


if __name__ == "__main__":
    main()
