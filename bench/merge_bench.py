"""How well Reverie merges facts: a labelled corpus of pairs, then a crowded store.

    .venv/bin/python bench/merge_bench.py                 # corpus + crowded run, local embedder
    .venv/bin/python bench/merge_bench.py --no-embeddings # rules and keywords only
    .venv/bin/python bench/merge_bench.py --show-misses dev
    .venv/bin/python bench/merge_bench.py --corpus OTHER.jsonl --all-heldout --skip-crowded

1. Pairs (tests/data/merge_corpus.jsonl, written without looking at the code): each pair is
   remembered into a fresh user, the old fact then the new one, and the outcome is scored:
   ``distinct`` is right when both stay active; ``update`` and ``contradiction`` when the new
   fact is active and the old one superseded by it; ``paraphrase`` when one active fact is
   left (the old one reinforced, or replaced by a more detailed wording). A contradiction must
   never be answered ``reinforced``. The pairs are split by id into a development half (the
   only one whose misses were read while writing the rules) and a held-out half; both are
   printed. ``--all-heldout`` counts every pair as held out (a corpus no rule was written on).
2. Crowded: ``--facts`` facts about as many different people and pets, in a handful of
   sentence shapes, go into one store; then ``--updates`` of those subjects get a new value in
   the same shape. Prints how many facts about other subjects were lost (superseded by a fact
   about someone else) and how many updates replaced their own subject's old fact.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from reverie.config import load_settings  # noqa: E402
from reverie.errors import GuardRejected  # noqa: E402
from reverie.memory import Memory  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "merge_corpus.jsonl"
LABELS = ("distinct", "update", "paraphrase", "contradiction")


def split_of(pair_id: str) -> str:
    """Development or held-out, fixed by the id (a hash, so neither half is chosen by hand)."""
    return "dev" if zlib.crc32(pair_id.encode()) % 2 == 0 else "held-out"


def outcome(memory: Memory, old: str, new: str) -> tuple[str, str]:
    """(what happened, the status remember answered for the new fact)."""
    try:
        first = memory.remember(old).memory
        result = memory.remember(new)
    except GuardRejected as exc:
        return "refused by the guard", str(exc)
    active = memory.list_memories(kind="fact", limit=10)
    old_now = memory.get(first.id)
    if len(active) == 2:
        return "kept both", result.status
    if len(active) == 1 and active[0].id == first.id:
        return "reinforced", result.status
    if old_now.status == "superseded" and len(active) == 1:
        return "replaced", result.status
    return f"other ({len(active)} active)", result.status


def correct(label: str, happened: str, status: str) -> bool:
    """Whether an outcome is the right one for a label (see the module docstring)."""
    if label == "distinct":
        return happened == "kept both"
    if label in ("update", "contradiction"):
        return happened == "replaced"
    return happened in ("reinforced", "replaced")


def score_pairs(
    memory: Memory, pairs: list[dict[str, str]], all_heldout: bool = False
) -> list[dict[str, str]]:
    """Run every pair in its own user and record the outcome."""
    rows = []
    for number, pair in enumerate(pairs):
        view = memory.for_user(_user(memory, f"pair{number}"))
        happened, status = outcome(view, pair["old"], pair["new"])
        split = "held-out" if all_heldout else split_of(pair["id"])
        rows.append({**pair, "happened": happened, "status": status, "split": split})
    return rows


def _user(memory: Memory, name: str) -> str:
    memory.add_user(name)
    return name


_RELATIONS = [
    "cousin",
    "aunt",
    "uncle",
    "mentor",
    "colleague",
    "neighbour",
    "friend",
    "classmate",
    "nephew",
    "niece",
    "coach",
    "landlord",
    "godmother",
    "teammate",
    "roommate",
    "boss",
    "dentist",
    "tutor",
    "grandmother",
    "grandfather",
]
_NAMES = [
    "Hugo",
    "Rosa",
    "Wen",
    "Amara",
    "Bjorn",
    "Chiara",
    "Dmitri",
    "Esme",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonas",
    "Kalani",
    "Leila",
    "Mateo",
    "Nadia",
    "Olu",
    "Priya",
    "Quentin",
    "Rafael",
    "Sakura",
    "Tomas",
    "Uma",
    "Viktor",
    "Wanjiru",
    "Ximena",
    "Yusuf",
    "Zofia",
    "Arjun",
    "Beatriz",
    "Casper",
    "Dalia",
    "Emeka",
    "Fatima",
    "Gustav",
    "Hana",
    "Idris",
    "Jade",
    "Kofi",
    "Lars",
    "Maya",
    "Nikolai",
    "Oksana",
    "Pablo",
    "Rania",
    "Soren",
    "Tala",
    "Ugo",
    "Vera",
    "Wes",
    "Yara",
    "Zane",
    "Aiko",
    "Bruno",
    "Carmen",
    "Deniz",
    "Elif",
    "Felix",
    "Gemma",
]
_CITIES = [
    "Lima",
    "Quito",
    "Oslo",
    "Porto",
    "Lyon",
    "Kyoto",
    "Austin",
    "Dublin",
    "Cairo",
    "Hanoi",
    "Accra",
    "Perth",
    "Bogota",
    "Tallinn",
    "Seville",
    "Krakow",
    "Denver",
    "Nairobi",
    "Manila",
    "Bergen",
]
_JOBS = [
    "pilot",
    "nurse",
    "chef",
    "teacher",
    "plumber",
    "architect",
    "dentist",
    "baker",
    "journalist",
    "electrician",
    "pharmacist",
    "librarian",
    "carpenter",
    "translator",
    "photographer",
]
_PETS = ["ferret", "parrot", "beagle", "tortoise", "hamster", "cockatiel", "rabbit", "iguana"]
_CARS = ["Subaru Outback", "Honda Civic", "Toyota Prius", "Ford Focus", "Kia Niro", "Volvo XC40"]
_COLOURS = ["blue", "green", "red", "purple", "orange", "yellow", "teal"]


def _shape(kind: str, subject: str, rng: random.Random, avoid: str = "") -> tuple[str, str]:
    """(fact, value) in one of the shapes; ``avoid`` is a value not to pick again."""
    pools = {
        "city": _CITIES,
        "job": _JOBS,
        "pet": _PETS,
        "car": _CARS,
        "colour": _COLOURS,
        "age": [str(n) for n in range(18, 90)],
    }
    value = rng.choice([v for v in pools[kind] if v != avoid])
    text = {
        "city": f"{subject} lives in {value}",
        "job": f"{subject} works as a {value}",
        "pet": f"{subject} has a {value}",
        "car": f"{subject} drives a {value}",
        "colour": f"{subject}'s favourite colour is {value}",
        "age": f"{subject} is {value} years old",
    }[kind]
    return text, value


def crowded(memory: Memory, facts: int, updates: int, seed: int = 7) -> dict[str, float]:
    """Facts about many subjects into one store, then updates in the same shapes."""
    rng = random.Random(seed)
    subjects = [f"User's {rel} {name}" for name in _NAMES for rel in _RELATIONS]
    rng.shuffle(subjects)
    subjects = subjects[:facts]
    kinds = ["city", "job", "pet", "car", "colour", "age"]
    first: dict[int, tuple[str, str, str]] = {}  # memory id -> (subject, kind, value)
    refused = 0
    started = time.perf_counter()
    for number, subject in enumerate(subjects):
        kind = kinds[number % len(kinds)]
        text, value = _shape(kind, subject, rng)
        try:
            first[memory.remember(text).memory.id] = (subject, kind, value)
        except GuardRejected:
            refused += 1
    load_seconds = time.perf_counter() - started
    lost = sum(1 for item_id in first if memory.get(item_id).status != "active")
    single = [(item_id, info) for item_id, info in first.items() if info[1] != "pet"]
    chosen = rng.sample(single, min(updates, len(single)))
    applied = wrong = 0
    for item_id, (subject, kind, value) in chosen:
        text, _ = _shape(kind, subject, rng, avoid=value)
        try:
            result = memory.remember(text)
        except GuardRejected:
            refused += 1
            continue
        replaced = {row.id for row in result.replaced}
        applied += item_id in replaced
        wrong += len(replaced - {item_id})
    lost_after = sum(
        1
        for item_id in first
        if memory.get(item_id).status != "active" and item_id not in {c[0] for c in chosen}
    )
    return {
        "facts": len(first),
        "refused by the guard": refused,
        "lost while loading": lost,
        "updates": len(chosen),
        "updates applied": applied,
        "other subjects' facts superseded by updates": wrong,
        "facts about others lost in all": lost_after,
        "remember/s while loading": len(first) / load_seconds,
    }


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--no-embeddings", action="store_true")
    parser.add_argument("--facts", type=int, default=1200)
    parser.add_argument("--updates", type=int, default=240)
    parser.add_argument("--show-misses", choices=["dev", "held-out", "all"], default=None)
    parser.add_argument("--skip-crowded", action="store_true")
    parser.add_argument(
        "--all-heldout", action="store_true", help="count every pair as held out (a corpus written blind)"
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS,
        help="labelled pairs (tests/data/merge_corpus_heldout.jsonl is a second corpus written blind)",
    )
    args = parser.parse_args()
    lines = args.corpus.read_text(encoding="utf-8").splitlines()
    pairs = [json.loads(line) for line in lines if line.strip()]
    with tempfile.TemporaryDirectory() as home:
        env = {"REVERIE_EMBEDDINGS__ENABLED": "false"} if args.no_embeddings else {}
        settings = load_settings(home=Path(home), environ=env)
        with Memory(settings) as memory:
            rows = score_pairs(memory, pairs, args.all_heldout)
            print_pairs(rows, args.show_misses)
            if not args.skip_crowded:
                memory.add_user("crowded")
                report = crowded(memory.for_user("crowded"), args.facts, args.updates)
                print("\nCrowded store")
                print("| measure | value |\n|---|---|")
                for name, value in report.items():
                    print(
                        f"| {name} | {value:.1f} |" if isinstance(value, float) else f"| {name} | {value} |"
                    )


def print_pairs(rows: list[dict[str, str]], show: str | None) -> None:
    """Accuracy per label and split, and the misses when asked."""
    totals: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for row in rows:
        for split in (row["split"], "all"):
            counter = totals[(row["label"], split)]
            counter["n"] += 1
            counter["ok"] += correct(row["label"], row["happened"], row["status"])
            counter["reinforced"] += row["status"] == "reinforced"
    print(f"Merge corpus: {len(rows)} pairs")
    print("| label | dev | held-out | all | goal |\n|---|---|---|---|---|")
    goals = {
        "distinct": ">= 99% kept",
        "update": ">= 85% applied",
        "paraphrase": ">= 85% merged",
        "contradiction": "never reinforced; replaced",
    }
    for label in LABELS:
        cells = []
        for split in ("dev", "held-out", "all"):
            c = totals[(label, split)]
            cells.append(f"{c['ok'] / c['n']:.1%} ({c['ok']}/{c['n']})" if c["n"] else "-")
        print(f"| {label} | {' | '.join(cells)} | {goals[label]} |")
    reinforced = totals[("contradiction", "all")]["reinforced"]
    print(f"\nContradictions answered `reinforced`: {reinforced}")
    for row in rows:
        if row["label"] == "contradiction" and row["status"] == "reinforced":
            print(f"  {row['old']}  ->  {row['new']}")
    if show:
        print("\nMisses:")
        for row in rows:
            if (show == "all" or row["split"] == show) and not correct(
                row["label"], row["happened"], row["status"]
            ):
                print(f"  [{row['label']}] {row['happened']:>12} | {row['old']}  ->  {row['new']}")


if __name__ == "__main__":
    main()
