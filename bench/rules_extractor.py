"""Score the rules-based fact extractor against the labelled self-disclosure set.

An extracted fact matches an expected one when their content words are at least 60% similar
(``reverie.text.token_similarity``), each fact matching at most once. Run it with
``.venv/bin/python bench/rules_extractor.py [FILE]``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from reverie.extract.rules import extract_facts
from reverie.text import token_similarity

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "self_disclosures.json"
THRESHOLD = 0.6


@dataclass
class Score:
    """Counts over a labelled set, with the misses and false positives kept for printing."""

    utterances: int = 0
    expected: int = 0
    extracted: int = 0
    matched: int = 0
    misses: list[tuple[str, str]] = field(default_factory=list)
    false_positives: list[tuple[str, str]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Matched extracted facts over all extracted (1.0 when nothing was extracted)."""
        return self.matched / self.extracted if self.extracted else 1.0

    @property
    def recall(self) -> float:
        """Matched expected facts over all expected (1.0 when nothing was expected)."""
        return self.matched / self.expected if self.expected else 1.0


def load_cases(path: Path = DATA) -> list[tuple[str, list[str]]]:
    """Return (utterance, expected facts) pairs from a labelled JSON file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(case["utterance"], list(case["facts"])) for case in data]


def match(extracted: list[str], expected: list[str]) -> list[tuple[int, int]]:
    """Pair extracted with expected facts one-to-one, most similar pairs first."""
    pairs = sorted(
        (-token_similarity(got, want), i, j)
        for i, got in enumerate(extracted)
        for j, want in enumerate(expected)
    )
    used_got: set[int] = set()
    used_want: set[int] = set()
    found: list[tuple[int, int]] = []
    for distance, i, j in pairs:
        if -distance >= THRESHOLD and i not in used_got and j not in used_want:
            used_got.add(i)
            used_want.add(j)
            found.append((i, j))
    return found


def score(cases: list[tuple[str, list[str]]]) -> Score:
    """Run the extractor over every case and count matches."""
    result = Score()
    for utterance, expected in cases:
        extracted = [fact.text for fact in extract_facts(utterance)]
        pairs = match(extracted, expected)
        result.utterances += 1
        result.expected += len(expected)
        result.extracted += len(extracted)
        result.matched += len(pairs)
        got = {i for i, _ in pairs}
        wanted = {j for _, j in pairs}
        result.misses += [(utterance, want) for j, want in enumerate(expected) if j not in wanted]
        result.false_positives += [(utterance, text) for i, text in enumerate(extracted) if i not in got]
    return result


def main(argv: list[str]) -> None:
    """Print the score table, then every miss and false positive."""
    path = Path(argv[0]) if argv else DATA
    result = score(load_cases(path))
    columns = ("utterances", "expected", "extracted", "matched", "precision", "recall")
    print("".join(f"{name:>12}" for name in columns))
    values = (result.utterances, result.expected, result.extracted, result.matched)
    print("".join(f"{value:>12}" for value in values) + f"{result.precision:>12.3f}{result.recall:>12.3f}")
    for utterance, want in result.misses:
        print(f"MISS   {want!r}  <- {utterance!r}")
    for utterance, text in result.false_positives:
        print(f"FALSE+ {text!r}  <- {utterance!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
