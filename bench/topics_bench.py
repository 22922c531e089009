"""Which topic file a session's conclusions land in, with no LLM (Rostro's digestion, offline).

    .venv/bin/python bench/topics_bench.py                # local embedder
    .venv/bin/python bench/topics_bench.py --show-misses dev

tests/data/topic_conclusions.jsonl holds ten topics, each seeded with two conclusions, then 70
conclusions labelled with the topic they are about. Each conclusion comes from a session of
its own whose topic (detected while it was held) is given too; a third of the sessions were
held under another topic (a garage automation decision reached in a talk about cooking). The
conclusions are digested one session at a time, in file order, into one store, and scored by
the topic file they land in. Odd ids are the development half (the only one whose misses
were read while writing the rules), even ids the held-out half; both are printed. Another
corpus in the same format (--corpus, e.g. tests/data/topic_conclusions_6.jsonl, all "heldout6",
written blind) prints its own split.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from reverie.config import load_settings  # noqa: E402
from reverie.memory import Memory  # noqa: E402
from reverie.topics import TopicBook, TopicLine, parse_topic, render_topic, slugify  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "topic_conclusions.jsonl"
GOAL = 0.85


def run(corpus: Path, *, embeddings: bool) -> list[tuple[dict[str, str], str]]:
    """Each conclusion with the topic it landed in ('' for none)."""
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as home:
        env = {"REVERIE_MEMORY__TIMEZONE": "UTC", "REVERIE_EMBEDDINGS__ENABLED": str(embeddings).lower()}
        settings = load_settings(home=Path(home), environ=env)
        with Memory(settings) as memory:
            book = TopicBook(memory)
            book.folder.mkdir(parents=True)
            for seed in (r for r in rows if r["kind"] == "seed"):
                lines = [TopicLine(text) for text in seed["lines"]]
                (book.folder / f"{slugify(seed['topic'])}.md").write_text(render_topic(seed["topic"], lines))
            book.sync()
            scope = memory.scope
            results = []
            for item in (r for r in rows if r["kind"] == "conclusion"):
                conversation = memory.start_conversation("bench")
                scope.set_conversation_topic(conversation.id, slugify(item["session"]))
                row = memory.remember(item["text"]).memory
                book.digest(conversation.id, [row], suggested="", summary="", at=memory.clock())
                results.append((item, _landed(book, item["text"])))
            memory.background.wait(60)
    return results


def _landed(book: TopicBook, text: str) -> str:
    for path in sorted(book.folder.glob("*.md")):
        _, lines = parse_topic(path.read_text(encoding="utf-8"))
        if any(line.text == text for line in lines):
            return path.stem
    return ""


def main() -> None:
    """Print accuracy per split and per topic."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--no-embeddings", action="store_true", help="keywords only")
    parser.add_argument("--show-misses", choices=["dev"], help="list the development half's misses")
    args = parser.parse_args()
    started = time.perf_counter()
    results = run(args.corpus, embeddings=not args.no_embeddings)
    print(f"{'split':8} {'right':>6} {'of':>4} {'accuracy':>9}   (goal {GOAL:.0%})")
    for split in dict.fromkeys(item["split"] for item, _ in results):
        chosen = [(item, landed) for item, landed in results if item["split"] == split]
        right = sum(slugify(item["topic"]) == landed for item, landed in chosen)
        print(f"{split:8} {right:6d} {len(chosen):4d} {right / max(1, len(chosen)):9.1%}")
    moved = [(i, landed) for i, landed in results if i["session"] != i["topic"]]
    right = sum(slugify(i["topic"]) == landed for i, landed in moved)
    print(f"sessions held under another topic: {right}/{len(moved)} filed under their own")
    wrong: Counter[str] = Counter(
        landed or "(none)" for i, landed in results if slugify(i["topic"]) != landed
    )
    print("wrong landings by file:", dict(wrong.most_common()))
    if args.show_misses:
        for item, landed in results:
            if item["split"] == "dev" and slugify(item["topic"]) != landed:
                want, got = slugify(item["topic"]), landed or "(none)"
                print(f"  {item['id']} want {want!r} got {got!r}: {item['text']}")
    print(f"{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
