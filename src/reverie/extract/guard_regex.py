"""A big alternation of guard rules, searched cheaply: each rule runs only when its literal words occur.

Python's ``re`` tries every alternative of a pattern at every position of the text, so a few
hundred rules cost about a millisecond per text. ``RuleSet`` splits the verbose source into its
top-level alternatives and, from each one's parse tree, finds a set of literal strings one of
which every match must contain (``ignore|disregard|forget`` for an override rule). A rule runs
only on a text holding one of its strings; rules without such a set always run. The result is
the same match the whole alternation would give: the leftmost, the first rule on a tie.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

__all__ = ["RuleSet", "gate_text", "split_alternatives"]

try:  # the parser is private; without it every rule simply runs
    _PARSER: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - other Python versions
    _PARSER = None

# Characters ``re.IGNORECASE`` matches to an ASCII letter but ``str.lower`` does not map onto it.
_LOWER_FIX = str.maketrans({"\u0307": None, "\u0131": "i", "\u017f": "s", "\u212a": "k", "\u212b": "å"})


def gate_text(text: str) -> str:
    """``text`` lower-cased the way the gates compare it."""
    return text.lower().translate(_LOWER_FIX)


def split_alternatives(source: str) -> list[str]:
    """The top-level alternatives of a verbose pattern (comments and line breaks kept inside)."""
    parts: list[str] = []
    depth, start, i, in_class, comment = 0, 0, 0, False, False
    while i < len(source):
        ch = source[i]
        if comment:
            comment = ch != "\n"
        elif ch == "\\":
            i += 1
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if source[i + 1 : i + 2] == "]" or source[i + 1 : i + 3] == "^]":
                i += 1 if source[i + 1] == "]" else 2
        elif ch == "#":
            comment = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return [p for p in parts if re.sub(r"#[^\n]*", "", p).strip()]


# Words in most texts open a rule on nearly every text; a gate avoids them when it can.
_COMMON = frozenset(
    "a an and all any are as at be each every for i in is it like me my no not of on or so the this to"
    " user with you your".split()
)


def _score(factors: frozenset[str]) -> tuple[bool, int, int]:
    return (not factors & _COMMON, min(len(f) for f in factors), -len(factors))


def _factors(items: Any, every: list[frozenset[str]] | None = None) -> frozenset[str] | None:
    """Literal strings one of which every match of ``items`` contains, or None when unknown.

    ``every`` collects all such sets found in the sequence itself (each one is required).
    """
    best: frozenset[str] | None = None
    run = ""

    def consider(candidate: frozenset[str] | None) -> None:
        nonlocal best
        if not candidate or not all(candidate):
            return
        if every is not None:
            every.append(candidate)
        if best is None or _score(candidate) > _score(best):
            best = candidate

    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            run += chr(av).lower()
            continue
        consider(frozenset({run}) if run else None)
        run = ""
        if name == "SUBPATTERN":
            consider(_factors(av[-1]))
        elif name == "ATOMIC_GROUP":
            consider(_factors(av))
        elif name == "BRANCH":
            branches = [_factors(b) for b in av[1]]
            if all(b is not None for b in branches):
                consider(frozenset().union(*(b for b in branches if b is not None)))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and av[0] >= 1:
            consider(_factors(av[2]))
        elif name == "ASSERT":
            consider(_factors(av[1]))
    consider(frozenset({run}) if run else None)
    return best


def _usable(factors: frozenset[str]) -> bool:
    return min(len(f) if f.isascii() else 2 for f in factors) >= 2


def _gate(source: str, flags: int) -> tuple[frozenset[str], ...]:
    """The word sets a text must hold one word of each (all of them) for the rule to match."""
    if _PARSER is None:
        return ()
    every: list[frozenset[str]] = []
    try:
        items = _PARSER.parse(source, flags)
        while len(items) == 1 and str(items[0][0]) == "SUBPATTERN":  # a rule wrapped in one group
            items = items[0][1][-1]
        _factors(items, every)
    except Exception:  # noqa: BLE001 - a parser change only costs speed, never a verdict
        return ()
    return tuple(sorted({f for f in every if _usable(f)}, key=_score, reverse=True)[:4])


# The guard reads NFKC views, where Thai and Lao SARA AM are two characters ("ำ" -> "ํา"): a rule
# written with the one character would never match, so its source is put in that form too.
_SARA_AM = str.maketrans({"\u0e33": "\u0e4d\u0e32", "\u0eb3": "\u0ecd\u0eb2"})


class RuleSet:
    """Named groups of rules (each a verbose alternation), every rule with the literal gate it needs."""

    def __init__(self, groups: dict[str, str], flags: int) -> None:
        groups = {name: source.translate(_SARA_AM) for name, source in groups.items()}
        self.groups = list(groups)
        self.rules: list[tuple[str, re.Pattern[str], tuple[frozenset[str], ...]]] = []
        for group, source in groups.items():
            re.compile(source, flags)  # the whole must still be one valid pattern
            for part in split_alternatives(source):
                self.rules.append((group, re.compile(part, flags), _gate(part, flags | re.VERBOSE)))
        # A rule is found through the words of its first gate, and those words by their first three
        # characters (fewer for a shorter word): a text looks up only the words that can start at
        # one of its own character triples.
        self._always = [i for i, (_, _, gates) in enumerate(self.rules) if not gates]
        self._by_word: dict[str, list[int]] = {}
        self._heads: dict[str, set[str]] = {}
        for index, (_, _, gates) in enumerate(self.rules):
            for word in gates[0] if gates else ():
                self._by_word.setdefault(word, []).append(index)
            for word in (w for gate in gates for w in gate):
                self._heads.setdefault(word[:3], set()).add(word)
        self._head_keys = frozenset(self._heads)
        self._words = frozenset(self._by_word)

    def open_rules(self, texts: list[str]) -> list[int]:
        """The rules whose words all occur in one of ``texts`` (the views of one text, checked once)."""
        low = gate_text("\n".join(texts))
        heads = {low[i : i + 3] for i in range(len(low) - 2)}
        heads.update(low[i : i + 2] for i in range(len(low) - 1))
        heads.update(low)
        present = {w for head in heads & self._head_keys for w in self._heads[head] if w in low}
        candidates = set(self._always)
        for word in present & self._words:
            candidates.update(self._by_word[word])
        opened = []
        for index in sorted(candidates):
            for gate in self.rules[index][2][1:]:
                if gate.isdisjoint(present):
                    break
            else:
                opened.append(index)
        return opened

    def matches(self, text: str, opened: list[int] | None = None) -> dict[str, list[tuple[int, int]]]:
        """Spans of every rule's matches by group, leftmost first (the earlier rule on a tie).

        ``opened`` is ``open_rules`` of a list of texts holding this one (saves looking again).
        """
        found: dict[str, list[tuple[int, int, int]]] = {group: [] for group in self.groups}
        for index in self.open_rules([text]) if opened is None else opened:
            group, pattern, _ = self.rules[index]
            found[group].extend((m.start(), index, m.end()) for m in pattern.finditer(text))
        return {group: [(a, b) for a, _, b in sorted(spans)] for group, spans in found.items()}

    def ungated(self) -> int:
        """How many rules run on every text (no literal gate found)."""
        return len(self._always)
