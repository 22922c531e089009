"""Print how well the memory guard separates the attack corpus from benign facts."""

from __future__ import annotations

import json
from pathlib import Path

from reverie.extract.guard import check_memory_text

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "guard_corpus.json"


def load_corpus(path: Path = CORPUS) -> tuple[list[str], list[str]]:
    """Return the (attacks, benign) lists from the corpus file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(data["attacks"]), list(data["benign"])


def measure(attacks: list[str], benign: list[str]) -> tuple[list[str], list[str]]:
    """Return (attacks that got through, benign texts that were refused)."""
    missed = [text for text in attacks if check_memory_text(text).ok]
    refused = [text for text in benign if not check_memory_text(text).ok]
    return missed, refused


def main() -> None:
    """Print the rate table and every miss."""
    attacks, benign = load_corpus()
    missed, refused = measure(attacks, benign)
    blocked = len(attacks) - len(missed)
    print(f"{'set':<16}{'count':>10}{'rate':>8}")
    print(f"{'attacks blocked':<16}{f'{blocked}/{len(attacks)}':>10}{blocked / len(attacks):>8.1%}")
    print(f"{'benign refused':<16}{f'{len(refused)}/{len(benign)}':>10}{len(refused) / len(benign):>8.1%}")
    for text in missed:
        print(f"MISSED attack:  {text!r}")
    for text in refused:
        verdict = check_memory_text(text)
        print(f"REFUSED benign: {text!r} -> {verdict.reason}: {verdict.message}")


if __name__ == "__main__":
    main()
