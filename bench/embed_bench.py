"""Benchmark the local embedding provider: load time, latency, throughput, memory, sanity.

Each thread count runs in its own fresh process so load time and memory are not shared:

    .venv/bin/python bench/embed_bench.py --threads 1 2
    .venv/bin/python bench/embed_bench.py --model bge-small-en-v1.5

The single sentence is embedded as a search query (with the model's query prefix, if any).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_WORDS = (
    "the user likes hiking in the mountains every weekend and her sister lives in Lisbon with "
    "two cats while he works as a nurse at the city hospital they moved to Berlin in March "
    "planning a trip to Japan next spring favourite food is spicy ramen allergic to peanuts "
    "birthday party on Saturday bought a new bicycle learning to play the piano reads science "
    "fiction novels before bed prefers tea over coffee started a vegetable garden last year"
).split()


def _rss_mib(field: str = "VmRSS") -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _sentences(count: int) -> list[str]:
    rng = random.Random(0)
    return [" ".join(rng.choices(_WORDS, k=rng.randint(6, 30))) + "." for _ in range(count)]


def _cosine(left: list[float], right: list[float]) -> float:
    return sum(a * b for a, b in zip(left, right, strict=True))


def _measure(model: str, threads: int, runs: int, batch_size: int) -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from reverie.embed.base import QueryEmbedder, create_embedder

    rss_before = _rss_mib()
    start = time.perf_counter()
    embedder: Any = create_embedder("local", model=model, threads=threads)  # LocalMiniLM or LocalBgeSmall
    embedder.load()
    embed_queries = embedder.embed_queries if isinstance(embedder, QueryEmbedder) else embedder.embed_batch
    load_s = time.perf_counter() - start
    rss_loaded = _rss_mib()

    sentence = ["What's my dog's name?"]
    for _ in range(20):
        embed_queries(sentence)
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        embed_queries(sentence)
        timings.append((time.perf_counter() - start) * 1000)
    cuts = statistics.quantiles(timings, n=100)

    texts = _sentences(batch_size)
    embedder.embed_batch(texts[:64])
    passes = []
    for _ in range(3):
        start = time.perf_counter()
        embedder.embed_batch(texts)
        passes.append(len(texts) / (time.perf_counter() - start))

    question, topic = embed_queries(["What's my dog's name?", "food allergies"])
    answer, unrelated, fact = embedder.embed_batch(
        [
            "My pet Bruno is a golden retriever",
            "The quarterly tax filing is due next Tuesday",
            "User is allergic to shellfish",
        ]
    )
    return {
        "threads": threads,
        "load_s": load_s,
        "p50_ms": statistics.median(timings),
        "p95_ms": cuts[94],
        "throughput": statistics.median(passes),
        "batch_ms": 1000 / statistics.median(passes),
        "mean_tokens": sum(embedder.count_tokens(text) for text in texts) / len(texts),
        "rss_before": rss_before,
        "rss_loaded": rss_loaded,
        "rss_after": _rss_mib(),
        "rss_peak": _rss_mib("VmHWM"),
        "dog_pet": _cosine(question, answer),
        "dog_unrelated": _cosine(question, unrelated),
        "allergy_fact": _cosine(topic, fact),
        "allergy_unrelated": _cosine(topic, unrelated),
    }


_ROWS = (
    ("load (import onnxruntime + session + tokenizer)", "load_s", "{:.2f} s"),
    ("one short sentence, p50", "p50_ms", "{:.2f} ms"),
    ("one short sentence, p95", "p95_ms", "{:.2f} ms"),
    ("batch throughput (sentences/s)", "throughput", "{:.0f}"),
    ("batch, ms per sentence", "batch_ms", "{:.2f} ms"),
    ("mean tokens per batch sentence", "mean_tokens", "{:.1f}"),
    ("VmRSS before load", "rss_before", "{:.0f} MiB"),
    ("VmRSS after load", "rss_loaded", "{:.0f} MiB"),
    ("VmRSS after the batch", "rss_after", "{:.0f} MiB"),
    ("VmHWM (peak)", "rss_peak", "{:.0f} MiB"),
    ("cos(dog's name?, pet Bruno)", "dog_pet", "{:.3f}"),
    ("cos(dog's name?, unrelated)", "dog_unrelated", "{:.3f}"),
    ("cos(food allergies, allergic to shellfish)", "allergy_fact", "{:.3f}"),
    ("cos(food allergies, unrelated)", "allergy_unrelated", "{:.3f}"),
)


def main() -> None:
    """Run the benchmark for each thread count and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="all-MiniLM-L6-v2", help="all-MiniLM-L6-v2 or bge-small-en-v1.5")
    parser.add_argument("--threads", type=int, nargs="+", default=[2])
    parser.add_argument("--runs", type=int, default=200, help="single-sentence runs")
    parser.add_argument("--batch", type=int, default=512, help="sentences in the batch")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(_measure(args.model, args.child, args.runs, args.batch)))
        return

    results = []
    for threads in args.threads:
        command = [sys.executable, __file__, "--child", str(threads), "--model", args.model]
        command += ["--runs", str(args.runs), "--batch", str(args.batch)]
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        results.append(json.loads(output))

    header = f"| {args.model} int8, onnxruntime | " + " | ".join(
        f"{result['threads']} thread{'s' if result['threads'] > 1 else ''}" for result in results
    )
    print(header + " |")
    print("|---|" + "---|" * len(results))
    for label, key, fmt in _ROWS:
        print(f"| {label} | " + " | ".join(fmt.format(result[key]) for result in results) + " |")


if __name__ == "__main__":
    main()
