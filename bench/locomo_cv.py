"""Cross-validated tuning of the episodic ranking weights on LoCoMo (used by locomo_retrieval.py).

Every question's candidate turns are gathered once through the library
(``reverie.retrieve.episodes.gather_candidates``: keyword and vector parts, speaker, time
mentions); each weighting of the grid is then scored with numpy over all questions at once.
Leave-one-conversation-out: the weights that maximise (R@5 + R@10) / 2 on the other
conversations score the held-out one. The second round (entities of the first round's best
hits) depends on the first round's ranking, so it is a second stage: with a fold's chosen
weights the library expands every question, and its weight is chosen on the same folds.
Grid order puts "off" and small values first, so a tie keeps the simpler setting.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from reverie.retrieve.episodes import Candidate, Query, RankWeights, context_share, date_agreement

#: keyword weight (the vector weight is 1 - keyword), and the priors.
GRID: dict[str, tuple[Any, ...]] = {
    "keyword": (0.5, 0.3, 0.4, 0.6, 0.7),
    "speaker": (0.0, 0.2, 0.3, 0.5),
    "date": (0.0, 0.2, 0.4, 0.8),
    "date_scale_days": (7.0, 3.5, 14.0),
    "event_dates": (False, True),
    "when": (0.0, 0.1, 0.2, 0.3, 0.5),
    "context": (0.0, 0.15, 0.3, 0.5),
    "context_radius": (1, 2, 3),
    "context_seeds": (5, 10),
}
#: The turns around the best candidates are gathered this far, for every radius and seed count above.
CONTEXT_GATHER = (max(GRID["context_radius"]), max(GRID["context_seeds"]))
EXPAND_GRID: tuple[float, ...] = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)
OBJECTIVE_KS = (5, 10)


@dataclass
class Item:
    """One question: its conversation, category, evidence and gathered candidates."""

    conversation: str
    text: str
    category: int
    evidence: frozenset[str]
    query: Query
    candidates: list[Candidate]


def combos(grid: dict[str, tuple[Any, ...]]) -> list[RankWeights]:
    """Every weighting of ``grid`` (vector = 1 - keyword), expansion off."""
    keys = list(grid)
    out = []
    for values in itertools.product(*(grid[key] for key in keys)):
        chosen = dict(zip(keys, values, strict=True))
        if chosen.get("context") == 0 and any(
            chosen[key] != grid[key][0] for key in ("context_radius", "context_seeds") if key in chosen
        ):
            continue  # without the context part its radius and seed count change nothing
        chosen["vector"] = round(1.0 - chosen["keyword"], 6)
        out.append(RankWeights(**chosen, expand=0.0))
    return out


class Matrix:
    """The candidates of all questions as padded arrays, one row per question."""

    def __init__(self, items: Sequence[Item], scales: Sequence[float]) -> None:
        width = max((len(item.candidates) for item in items), default=1) or 1
        shape = (len(items), width)
        self.keyword = np.zeros(shape)
        self.vector = np.zeros(shape)
        self.expanded = np.zeros(shape)
        self.speaker = np.zeros(shape)
        self.when = np.zeros(shape)
        self.valid = np.zeros(shape, dtype=bool)
        self.relevant = np.zeros(shape, dtype=bool)
        self.evidence = np.array([max(len(item.evidence), 1) for item in items], dtype=float)
        self.date: dict[tuple[float, bool], np.ndarray[Any, Any]] = {
            (scale, events): np.zeros(shape) for scale in scales for events in (False, True)
        }
        self.context: dict[tuple[int, int], np.ndarray[Any, Any]] = {
            (radius, seeds): np.zeros(shape)
            for radius in GRID["context_radius"]
            for seeds in GRID["context_seeds"]
        }
        for row, item in enumerate(items):
            # Columns in message-id order, so a stable sort breaks ties as the library does.
            for col, cand in enumerate(sorted(item.candidates, key=lambda c: c.row.id)):
                self.keyword[row, col] = cand.keyword
                self.vector[row, col] = cand.vector
                self.expanded[row, col] = cand.expanded
                self.speaker[row, col] = cand.speaker
                self.when[row, col] = item.query.asks_when and cand.mentions_time
                self.valid[row, col] = True
                self.relevant[row, col] = cand.row.ref in item.evidence
                for radius, seeds in self.context:
                    self.context[(radius, seeds)][row, col] = context_share(cand, radius, seeds)
                if item.query.window is not None:
                    for scale, events in self.date:
                        probe = RankWeights(date_scale_days=scale, event_dates=events)
                        self.date[(scale, events)][row, col] = date_agreement(cand, item.query, probe)

    def order(self, weights: RankWeights, depth: int) -> np.ndarray[Any, Any]:
        """Column indices of each question's best ``depth`` candidates (ties: lower message id first)."""
        score = weights.keyword * self.keyword + weights.vector * self.vector
        score = score + weights.expand * self.expanded + weights.speaker * self.speaker
        score = score + weights.when * self.when
        if weights.date:
            score = score + weights.date * self.date[(weights.date_scale_days, weights.event_dates)]
        if weights.context:
            score = score + weights.context * self.context[(weights.context_radius, weights.context_seeds)]
        score = np.where(self.valid, score, -np.inf)
        return np.argsort(-score, axis=1, kind="stable")[:, :depth]

    def scores(self, weights: RankWeights, ks: Sequence[int]) -> dict[str, np.ndarray[Any, Any]]:
        """Recall@k per question (evidence outside the candidates counts as missed)."""
        order = self.order(weights, max(ks))
        rows = np.arange(order.shape[0])[:, None]
        hits = self.relevant[rows, order] & self.valid[rows, order]
        return {f"R@{k}": hits[:, :k].sum(axis=1) / self.evidence for k in ks}


def objective(scores: dict[str, np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
    """Per question: the mean of R@5 and R@10."""
    return sum(scores[f"R@{k}"] for k in OBJECTIVE_KS) / len(OBJECTIVE_KS)


def choose(per_combo: np.ndarray[Any, Any], mask: np.ndarray[Any, Any], allowed: Sequence[int]) -> int:
    """The allowed combo with the best mean objective over the masked questions (first on ties)."""
    means = per_combo[list(allowed)][:, mask].mean(axis=1)
    return list(allowed)[int(np.argmax(means))]


def describe(weights: RankWeights) -> str:
    """The weights as ``name=value`` pairs."""
    return ", ".join(f"{f.name}={getattr(weights, f.name)}" for f in fields(weights))


@dataclass
class Protocol:
    """Results of the cross-validation: per-question held-out scores and each fold's choice."""

    scores: dict[str, np.ndarray[Any, Any]]
    chosen: dict[str, RankWeights]
    all_in: RankWeights

    @property
    def supported(self) -> RankWeights:
        """Each weight as most held-out folds chose it (a tie keeps the all-in choice).

        This, not the all-in choice, is what the shipped defaults follow: a value that only
        wins when the scored conversation is also in the tuning set is not kept.
        """
        values = {}
        for f in fields(RankWeights):
            votes = Counter(getattr(w, f.name) for w in self.chosen.values())
            top = max(votes.values())
            winners = [value for value, count in votes.items() if count == top]
            own = getattr(self.all_in, f.name)
            values[f.name] = own if own in winners else winners[0]
        return RankWeights(**values)


_SCORED: dict[int, tuple[Sequence[Item], Matrix, np.ndarray[Any, Any]]] = {}


def _scored(items: Sequence[Item]) -> tuple[Matrix, np.ndarray[Any, Any]]:
    """The matrix of ``items`` and every grid weighting's objective per question, computed once per list."""
    cached = _SCORED.get(id(items))
    if cached is None or cached[0] is not items:
        matrix = Matrix(items, GRID["date_scale_days"])
        per_combo = np.stack([objective(matrix.scores(w, OBJECTIVE_KS)) for w in combos(GRID)])
        cached = _SCORED[id(items)] = (items, matrix, per_combo)
    return cached[1], cached[2]


def cross_validate(
    items: Sequence[Item],
    ks: Sequence[int],
    allowed: Callable[[RankWeights], bool] = lambda _: True,
    expand: Callable[[Sequence[Item], RankWeights], list[Item]] | None = None,
) -> Protocol:
    """Leave one conversation out; ``allowed`` restricts the grid, ``expand`` adds the second round."""
    grid = combos(GRID)
    matrix, per_combo = _scored(items)
    allowed_ix = [i for i, w in enumerate(grid) if allowed(w)]
    conversations = np.array([item.conversation for item in items])
    held: dict[str, np.ndarray[Any, Any]] = {f"R@{k}": np.zeros(len(items)) for k in ks}
    chosen: dict[str, RankWeights] = {}

    def pick(train: np.ndarray[Any, Any]) -> RankWeights:
        weights = grid[choose(per_combo, train, allowed_ix)]
        if expand is None:
            return weights
        widened = Matrix(expand(items, weights), GRID["date_scale_days"])
        options = [replace(weights, expand=value) for value in EXPAND_GRID]
        stage = np.stack([objective(widened.scores(w, OBJECTIVE_KS)) for w in options])
        best = options[choose(stage, train, range(len(options)))]
        nonlocal matrix_for_test
        matrix_for_test = widened
        return best

    matrix_for_test = matrix
    for conversation in dict.fromkeys(conversations.tolist()):
        test = conversations == conversation
        weights = pick(~test)
        chosen[conversation] = weights
        fold = matrix_for_test.scores(weights, ks)
        for key in held:
            held[key][test] = fold[key][test]
    all_in = pick(np.ones(len(items), dtype=bool))
    return Protocol(held, chosen, all_in)


__all__ = [
    "CONTEXT_GATHER",
    "EXPAND_GRID",
    "GRID",
    "Item",
    "Matrix",
    "Protocol",
    "combos",
    "cross_validate",
    "describe",
]
