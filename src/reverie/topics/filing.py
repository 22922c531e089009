"""Which topic a conclusion is about, by meaning, each topic measured against the others.

Two kinds of evidence. Similarity: to the topic's name, plus the mean of the best few
similarities to its name and lines, as a z-score against the same measure taken for the other
topics' lines (a topic whose lines are generic, and so close to everything, does not draw
everything). Contrast: a ridge classifier fitted, at each filing, to all topics' names and
lines, which learns the directions that tell the topics apart and discounts what every line
shares ("User decided to ..."). The session's topic is a prior in the same units, small enough
that clear evidence wins. The weights were chosen by leaving one labelled corpus out in turn
(``bench/topics_bench.py --cv``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]
_SPREAD_FLOOR = 0.05  # few background lines: no spread narrower than this


@dataclass(frozen=True)
class Weights:
    """How the evidence is weighed (bench/topics_bench.py --cv chooses them across corpora)."""

    name: float = 1.0  # similarity to the topic's name
    lines: float = 1.0  # mean of the best few similarities to its name and lines
    ridge: float = 3.0  # the ridge classifier's score
    ridge_penalty: float = 1.0
    session: float = 0.4  # prior for the session's topic
    best_of: int = 3


WEIGHTS = Weights()


def rank_topics(
    texts: Sequence[str],
    topics: Mapping[str, Sequence[str]],
    embed: Callable[[list[str]], FloatMatrix],
    weights: Weights = WEIGHTS,
) -> tuple[FloatMatrix, FloatMatrix]:
    """texts x topics, twice: how well each text fits a topic (its mean best similarity to the
    topic's name and lines), and its evidence for the topic (before the session's prior).

    ``topics`` maps each topic to its name then its lines; ``embed`` gives unit vectors.
    """
    blocks: list[range] = []
    items: list[str] = []
    for lines in topics.values():
        blocks.append(range(len(items), len(items) + len(lines)))
        items.extend(lines)
    vectors = embed([*texts, *items])
    own = vectors[len(texts) :]
    sims = vectors @ own.T
    fit = np.zeros((len(vectors), len(blocks)), dtype=np.float32)
    raw = np.zeros_like(fit)
    for j, block in enumerate(blocks):
        part = sims[:, block.start : block.stop]
        fit[:, j] = np.sort(part, axis=1)[:, ::-1][:, : weights.best_of].mean(axis=1)
        raw[:, j] = weights.lines * fit[:, j] + weights.name * part[:, 0]
    rank = raw[: len(texts)].copy()
    start = len(texts)
    for j in range(len(blocks)):
        others = [b for i, b in enumerate(blocks) if i != j]
        background = [start + k for b in others for k in b[1:]] or [start + b.start for b in others]
        if background:
            scores = raw[background, j]
            rank[:, j] = (rank[:, j] - scores.mean()) / max(float(scores.std()), _SPREAD_FLOOR)
    if weights.ridge and len(blocks) > 1:
        rank += weights.ridge * _ridge(vectors[: len(texts)], own, blocks, weights.ridge_penalty)
    return fit[: len(texts)], rank


def _ridge(texts: FloatMatrix, items: FloatMatrix, blocks: Sequence[range], penalty: float) -> FloatMatrix:
    """texts x topics: one-vs-rest ridge regression on the items, solved as the smaller of two
    equal linear systems (items x items while there are fewer items than dimensions)."""
    centre = items.mean(axis=0)
    x = (items - centre).astype(np.float64)
    targets = np.zeros((len(items), len(blocks)))
    for j, block in enumerate(blocks):
        targets[block.start : block.stop, j] = 1.0
    targets -= targets.mean(axis=0)
    rows, dims = x.shape
    if rows <= dims:
        coef = x.T @ np.linalg.solve(x @ x.T + penalty * np.eye(rows), targets)
    else:
        coef = np.linalg.solve(x.T @ x + penalty * np.eye(dims), x.T @ targets)
    scores: FloatMatrix = ((texts - centre) @ coef).astype(np.float32)
    return scores


__all__ = ["WEIGHTS", "Weights", "rank_topics"]
