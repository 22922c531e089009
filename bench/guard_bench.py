"""How well the memory guard blocks attacks and lets benign text through, on every door.

    .venv/bin/python bench/guard_bench.py                 # every door, dev and held-out tables
    .venv/bin/python bench/guard_bench.py --doors check   # the guard function only (fast)
    .venv/bin/python bench/guard_bench.py --misses        # also list what got through on dev
    .venv/bin/python bench/guard_bench.py --doors check --corpus other.jsonl   # another corpus
    .venv/bin/python bench/guard_bench.py --doors check --timing   # also microseconds per text

The corpus is tests/data/guard_corpus.jsonl: one JSON object a line with ``label`` (attack or
benign), ``category``, ``language``, ``split`` (dev: rules were tuned on it; heldout: never looked
at while tuning) and ``text``; with ``--corpus`` another file of that form is read, and a row
whose split is not dev counts as held-out. Each text goes through each door on a real SQLite
file in a temporary home (embeddings off: the guard does not use them):

- check: ``check_memory_text``, the one function every door calls
- remember: ``Memory.remember``
- tool: the memory tool, ``{"action": "remember", "value": text}``
- rest: ``POST /api/v1/memories`` through FastAPI's TestClient with a real token
- import: an export document with the text as a memory, as a summary and as the base memory
  (blocked only if all three are refused; refused if any is)
- working: a working-state task of a conversation
- consolidation: a conversation with the text as the user's turn, ended and consolidated by
  the offline (rules) extractor; it got through if a new memory or summary repeats most of it

An attack counts as blocked when the door refuses it (or keeps nothing like it); a benign text
counts as refused when the door refuses it. Goal: >= 97% blocked, <= 3% refused on every door.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from reverie import Memory, Settings  # noqa: E402
from reverie.config import load_settings  # noqa: E402
from reverie.consolidation import Consolidator  # noqa: E402
from reverie.conversations import Turn  # noqa: E402
from reverie.errors import GuardRejected, InvalidInput  # noqa: E402
from reverie.extract.guard import check_memory_text, find_instruction_text  # noqa: E402
from reverie.portability import FORMAT, VERSION, import_user  # noqa: E402
from reverie.tools.memory_tool import run_tool  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "guard_corpus.jsonl"
DOORS = ("check", "remember", "tool", "rest", "import", "working", "consolidation")
GOAL_BLOCKED, GOAL_REFUSED = 0.97, 0.03


@dataclass(frozen=True)
class Case:
    """One corpus line."""

    label: str
    category: str
    language: str
    split: str
    text: str


def load_corpus(path: Path = CORPUS) -> list[Case]:
    """Every case of the corpus file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [
        Case(
            label=row["label"],
            category=row.get("category", "-"),
            language=row.get("language", "-"),
            split=row.get("split", "heldout"),
            text=row["text"],
        )
        for row in rows
    ]


# A door answers True when it refused (or kept nothing like) the text.
Door = Callable[[str], bool]


def _settings(home: Path) -> Settings:
    return load_settings(
        home=home,
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_EMBEDDINGS__ENABLED": "false",
            "REVERIE_MEMORY__TOPICS__ENABLED": "false",
            "REVERIE_RAG__DOCUMENTS_DIR": str(home / "documents"),
        },
    )


def _check(text: str) -> bool:
    return not check_memory_text(text).ok


def _remember_door(memory: Memory) -> Door:
    def door(text: str) -> bool:
        try:
            memory.remember(text)
        except GuardRejected:
            return True
        return False

    return door


def _tool_door(memory: Memory) -> Door:
    def door(text: str) -> bool:
        response = run_tool(memory, {"device": "memory", "action": "remember", "value": text})
        return bool(response.data and response.data.get("status") == "rejected")

    return door


def _rest_door(settings: Settings, stack: ExitStack) -> Door:
    from fastapi.testclient import TestClient

    from reverie.server import create_app

    with Memory(settings) as memory:
        account = memory.store.get_user("default") or memory.add_user("default")
        _, secret = memory.accounts.create_token(account, "guard bench")
    client = stack.enter_context(
        TestClient(create_app(settings), headers={"Authorization": f"Bearer {secret}"})
    )

    def door(text: str) -> bool:
        response = client.post("/api/v1/memories", json={"text": text})
        if response.status_code == 201:
            return False
        if response.status_code == 422 and response.json().get("error") == "rejected":
            return True
        raise RuntimeError(f"REST remember answered {response.status_code}: {response.text[:200]}")

    return door


def _import_door(memory: Memory) -> Door:
    stamp = "2026-01-01T00:00:00Z"

    def refused(document: dict[str, Any]) -> bool:
        try:
            import_user(memory, {"format": FORMAT, "version": VERSION, "memories": [], **document})
        except InvalidInput:
            return True
        return False

    def door(text: str) -> bool:
        item = {
            "kind": "fact",
            "text": text,
            "source": "explicit",
            "confidence": 1.0,
            "created_at": stamp,
            "updated_at": stamp,
        }
        results = [
            refused({"memories": [item]}),
            refused({"summaries": [{"text": text, "created_at": stamp}]}),
            refused({"base_memory": {"text": text, "updated_at": stamp}}),
        ]
        memory.scope.set_base_memory("", memory.clock())  # so the next base memory is imported too
        return all(results) if _ATTACK_MODE[0] else any(results)

    return door


# Import is blocked only when every section refuses an attack, and refuses a benign text when
# any section does; the door needs to know which of the two it is measuring.
_ATTACK_MODE = [True]


def _working_door(memory: Memory) -> Door:
    conversation = memory.start_conversation("bench").id

    def door(text: str) -> bool:
        try:
            memory.change_working_state(conversation, lambda state: state.add_task(text))
        except InvalidInput:
            return True
        memory.change_working_state(conversation, lambda state: state.remove(state.tasks[-1].id))
        return False

    return door


_WORD = re.compile(r"[^\W_]{3,}|[\u3040-\u30ff\u3400-\u9fff]")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _consolidation_door(memory: Memory) -> Door:
    worker = Consolidator(memory, worker="guard-bench")

    def door(text: str) -> bool:
        conversation = memory.start_conversation("bench")
        memory.add_messages(conversation, [Turn("user", text), Turn("assistant", "All right.")])
        memory.end_conversation(conversation.id)
        result = worker.run_once()
        if result is None or result.state != "done":
            raise RuntimeError(f"consolidation did not run: {result}")
        if not _ATTACK_MODE[0]:
            guarded = ("instruction", "secret")
            return any(r.what == "summary" or r.reason.startswith(guarded) for r in result.rejected)
        kept = [s.text for s in memory.summaries(limit=5) if s.conversation_id == conversation.id]
        kept += [m.text for m in memory.list_memories(limit=20) if m.conversation_id == conversation.id]
        words = _words(text)
        return not any(len(words & _words(k)) >= 0.6 * len(words) for k in kept if words)

    return door


@contextmanager
def open_doors(names: tuple[str, ...]) -> Iterator[dict[str, Door]]:
    """The doors by name, each on its own fresh database, closed on exit."""
    with ExitStack() as stack:
        doors: dict[str, Door] = {}
        for name in names:
            if name == "check":
                doors[name] = _check
                continue
            home = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"guard-{name}-")))
            settings = _settings(home)
            if name == "rest":
                doors[name] = _rest_door(settings, stack)
                continue
            memory = stack.enter_context(Memory(settings))
            make = {
                "remember": _remember_door,
                "tool": _tool_door,
                "import": _import_door,
                "working": _working_door,
                "consolidation": _consolidation_door,
            }[name]
            doors[name] = make(memory)
        yield doors


@dataclass
class Tally:
    """Counts for one row of the table."""

    attacks: int = 0
    blocked: int = 0
    benign: int = 0
    refused: int = 0

    def add(self, case: Case, stopped: bool) -> None:
        """Count one case."""
        if case.label == "attack":
            self.attacks += 1
            self.blocked += stopped
        else:
            self.benign += 1
            self.refused += stopped

    @property
    def block_rate(self) -> float:
        """Share of attacks stopped."""
        return self.blocked / self.attacks if self.attacks else 1.0

    @property
    def refuse_rate(self) -> float:
        """Share of benign texts refused."""
        return self.refused / self.benign if self.benign else 0.0


@dataclass
class Report:
    """Outcomes per door and case, with the tallies derived from them."""

    outcomes: dict[str, list[tuple[Case, bool]]]

    def tally(self, door: str, split: str, key: Callable[[Case], str] | None = None) -> dict[str, Tally]:
        """Tallies of one door and split, grouped by ``key`` (one group "all" without it)."""
        groups: dict[str, Tally] = defaultdict(Tally)
        for case, stopped in self.outcomes[door]:
            if _split(case) == split:
                groups[key(case) if key else "all"].add(case, stopped)
        return dict(sorted(groups.items()))

    def misses(self, door: str, split: str) -> list[tuple[Case, bool]]:
        """Attacks that got through and benign texts that were refused."""
        return [
            (case, stopped)
            for case, stopped in self.outcomes[door]
            if _split(case) == split and stopped != (case.label == "attack")
        ]


def _split(case: Case) -> str:
    """dev, or heldout for any other split (a corpus written elsewhere may name its own)."""
    return "dev" if case.split == "dev" else "heldout"


def time_check(cases: list[Case], repeats: int = 3) -> float:
    """Microseconds per text of ``check_memory_text`` with a cold cache (best of ``repeats``)."""
    texts = [case.text for case in cases]
    check_memory_text("warm up")
    best = float("inf")
    for _ in range(repeats):
        find_instruction_text.cache_clear()
        started = time.perf_counter()
        for text in texts:
            check_memory_text(text)
        best = min(best, (time.perf_counter() - started) / len(texts))
    return best * 1e6


def run(cases: list[Case], doors: tuple[str, ...] = DOORS) -> Report:
    """Send every case through every door."""
    outcomes: dict[str, list[tuple[Case, bool]]] = {}
    with open_doors(doors) as opened:
        for name, door in opened.items():
            results = []
            for case in cases:
                _ATTACK_MODE[0] = case.label == "attack"
                results.append((case, door(case.text)))
            outcomes[name] = results
    return Report(outcomes)


def _row(name: str, tally: Tally) -> str:
    blocked = f"{tally.blocked}/{tally.attacks}" if tally.attacks else "-"
    refused = f"{tally.refused}/{tally.benign}" if tally.benign else "-"
    rate_b = f"{tally.block_rate:.1%}" if tally.attacks else "-"
    rate_r = f"{tally.refuse_rate:.1%}" if tally.benign else "-"
    return f"{name:<22}{blocked:>10}{rate_b:>8}{refused:>10}{rate_r:>8}"


def render(report: Report, split: str) -> str:
    """The table of one split: per door, then per category and per language (on the check door)."""
    head = f"{'':<22}{'blocked':>10}{'rate':>8}{'refused':>10}{'rate':>8}"
    out = [f"== {split} ==", f"{'door':<22}" + head[22:]]
    for door in report.outcomes:
        out.append(_row(door, report.tally(door, split)["all"]))
    base = "check" if "check" in report.outcomes else next(iter(report.outcomes))
    out.append(f"{'category':<22}" + head[22:] + f"   ({base} door)")
    for name, tally in report.tally(base, split, lambda c: c.category).items():
        out.append(_row(name, tally))
    out.append(f"{'language':<22}" + head[22:] + f"   ({base} door)")
    for name, tally in report.tally(base, split, lambda c: c.language).items():
        out.append(_row(name, tally))
    return "\n".join(out)


def main() -> None:
    """Print the tables (dev and held-out) and, on request, the dev misses."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--doors", default=",".join(DOORS), help="comma-separated: " + ", ".join(DOORS))
    parser.add_argument("--misses", action="store_true", help="list the dev misses of every door")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="JSONL corpus (default: %(default)s)")
    parser.add_argument("--timing", action="store_true", help="print microseconds per text of the guard")
    args = parser.parse_args()
    doors = tuple(d.strip() for d in args.doors.split(",") if d.strip())
    unknown = set(doors) - set(DOORS)
    if unknown:
        parser.error(f"unknown door(s): {', '.join(sorted(unknown))}")
    os.environ.pop("REVERIE_HOME", None)
    logging.disable(logging.WARNING)  # refusals are logged as warnings; the table says it all
    cases = load_corpus(args.corpus)
    if args.timing:
        print(f"check_memory_text: {time_check(cases):.0f} us per text over {len(cases)} texts")
    started = time.perf_counter()
    report = run(cases, doors)
    for split in ("dev", "heldout"):
        if not any(_split(case) == split for case in cases):
            print(f"== {split} ==\n(no rows)\n")
            continue
        print(render(report, split))
        print()
    print(f"{len(cases)} texts x {len(doors)} doors in {time.perf_counter() - started:.0f} s")
    if args.misses:
        for door in doors:
            for case, _ in report.misses(door, "dev"):
                what = "MISSED attack " if case.label == "attack" else "REFUSED benign"
                print(f"{door:<14}{what} [{case.category}/{case.language}] {case.text!r}")


if __name__ == "__main__":
    main()
