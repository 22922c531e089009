"""Splitting a topic's lines into groups: cosine k-means, judged by the silhouette."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def silhouette(vectors: np.ndarray, labels: Sequence[int]) -> float:
    """Mean silhouette of a clustering under cosine distance (higher: better separated groups)."""
    marks = np.asarray(labels)
    if len(set(labels)) < 2:
        return -1.0
    distance = 1.0 - vectors @ vectors.T
    scores = []
    for i, label in enumerate(marks):
        same = marks == label
        same[i] = False
        if not same.any():
            scores.append(0.0)
            continue
        inside = float(distance[i, same].mean())
        outside = min(float(distance[i, marks == other].mean()) for other in set(labels) if other != label)
        scores.append((outside - inside) / max(inside, outside, 1e-9))
    return float(np.mean(scores))


def kmeans(vectors: np.ndarray, k: int, rounds: int = 20) -> list[int]:
    """Cosine k-means with farthest-point seeding (deterministic)."""
    centres = [vectors[0]]
    for _ in range(1, k):
        similarity = np.max(np.stack([vectors @ c for c in centres]), axis=0)
        centres.append(vectors[int(np.argmin(similarity))])
    matrix = np.stack(centres)
    labels = np.zeros(len(vectors), dtype=int)
    for _ in range(rounds):
        labels = np.argmax(vectors @ matrix.T, axis=1)
        for j in range(k):
            members = vectors[labels == j]
            if len(members):
                centre = members.mean(axis=0)
                matrix[j] = centre / (np.linalg.norm(centre) or 1.0)
    return [int(label) for label in labels]


__all__ = ["kmeans", "silhouette"]
