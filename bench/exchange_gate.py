"""The per-exchange rule gate on a labelled set: recall of fact-bearing turns and the share of turns skipped.

    .venv/bin/python bench/exchange_gate.py [tests/data/exchange_gate.jsonl] [--split dev|held-out|all]

Each line of the set is {"id", "text", "fact"}; ids divisible by 3 are held out (never tuned on).
Recall: fact-bearing turns the gate lets through to the extraction model (goal >= 95% held out).
Skip rate: turns without a fact the gate answers without a model call.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from reverie.extract.gate import read_turn

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "exchange_gate.jsonl"


def split_of(row: dict[str, object]) -> str:
    """held-out for ids divisible by 3, else dev."""
    return "held-out" if int(str(row["id"])) % 3 == 0 else "dev"


def measure(rows: list[dict[str, object]]) -> dict[str, float]:
    """Recall of fact-bearing turns, skip rate of the others, and the misses."""
    facts = [r for r in rows if r["fact"]]
    others = [r for r in rows if not r["fact"]]
    kept = [r for r in facts if read_turn(str(r["text"])).learn]
    skipped = [r for r in others if not read_turn(str(r["text"])).learn]
    return {
        "turns": len(rows),
        "recall": len(kept) / len(facts) if facts else 1.0,
        "skip_rate": len(skipped) / len(others) if others else 1.0,
        "calls_saved": len(skipped) / len(rows) if rows else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT))
    parser.add_argument("--split", choices=("dev", "held-out", "all"), default="all")
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.path).read_text(encoding="utf-8").splitlines() if line]
    for split in ("dev", "held-out") if args.split == "all" else (args.split,):
        part = [r for r in rows if split_of(r) == split]
        m = measure(part)
        print(
            f"{split:9} turns={m['turns']:3d} recall={m['recall']:.1%} skip_rate={m['skip_rate']:.1%}"
            f" model_calls_saved={m['calls_saved']:.1%}"
        )
        for r in part:
            reading = read_turn(str(r["text"]))
            if reading.learn != r["fact"] and split == "dev":
                print(f"   miss id={r['id']} fact={r['fact']} intent={reading.intent}: {r['text']}")


if __name__ == "__main__":
    main()
