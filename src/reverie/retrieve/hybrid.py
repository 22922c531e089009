"""Hybrid retrieval: BM25 keyword hits and cosine vector hits merged into one ranking (DAWN C.2).

Two fusions are offered (``[embeddings.hybrid] fusion``):

* ``weighted`` — DAWN's: ``keyword_weight * bm25 / max_bm25 + vector_weight * cosine``, where
  the BM25 score is divided by the best BM25 score of this query (so it lies in 0..1) and the
  cosine counts at or above ``min_similarity`` or within ``RELATIVE_CUT`` of the best vector
  hit (see :meth:`Semantic.nearest`).
* ``rrf`` — reciprocal rank fusion, ``sum(weight / (60 + rank))`` over the two lists, which
  ignores score scales altogether.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from reverie.embed.index import VectorIndex
from reverie.embed.service import EmbeddingService
from reverie.errors import ProviderError
from reverie.store.base import UserStore, VectorKind

log = logging.getLogger(__name__)
RRF_K = 60.0
RELATIVE_CUT = 0.8  # a vector hit within 80% of the best one's cosine is kept
SIMILARITY_FLOOR = 0.15  # MiniLM puts unrelated pairs under 0.15: such a hit says nothing
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="reverie-query")
        return _pool


Fusion = Literal["weighted", "rrf"]


@dataclass(frozen=True)
class Semantic:
    """What vector search needs: the embedding service, the index and the fusion settings."""

    service: EmbeddingService
    index: VectorIndex
    keyword_weight: float = 0.3
    vector_weight: float = 0.7
    min_similarity: float = 0.3
    fusion: Fusion = "weighted"

    def embed_query(self, text: str) -> npt.NDArray[np.float32] | None:
        """The query's vector, or None when the provider fails (search then goes by keyword)."""
        try:
            return self.service.embed_query(text)
        except ProviderError as exc:
            log.warning("Semantic search unavailable, using keywords only: %s", exc)
            return None

    def start_query(self, text: str) -> Callable[[], npt.NDArray[np.float32] | None]:
        """Embed the query in the background while the caller runs its keyword search.

        ONNX Runtime and SQLite both release the GIL, so the two overlap; call the returned
        function for the vector (None when the provider failed).
        """
        future = _executor().submit(self.embed_query, text)
        return future.result

    def nearest(
        self, scope: UserStore, kind: VectorKind, query: npt.NDArray[np.float32], k: int
    ) -> list[tuple[int, float]]:
        """Items of one kind most similar to the query, by a cut relative to the best one.

        An absolute floor alone drops a store's best match when the question shares no word
        with it ("what car do I have?" against "User drives a 2018 Subaru Outback" scores about
        0.25): a hit is kept at ``min_similarity`` or within ``RELATIVE_CUT`` of the best hit,
        never under ``SIMILARITY_FLOOR``.
        """
        hits = self.index.search(
            scope, kind, self.service.model_id, query, k=k, min_similarity=SIMILARITY_FLOOR
        )
        if not hits:
            return []
        cut = min(self.min_similarity, max(hits[0][1] * RELATIVE_CUT, SIMILARITY_FLOOR))
        return [(item_id, similarity) for item_id, similarity in hits if similarity >= cut]


def fuse(
    keyword: Sequence[tuple[int, float]],
    vector: Sequence[tuple[int, float]],
    *,
    keyword_weight: float,
    vector_weight: float,
    fusion: Fusion,
) -> list[tuple[int, float]]:
    """Merge two (id, score) lists, each best first, into one ranking (id, fused score)."""
    fused: dict[int, float] = {}
    if fusion == "rrf":
        for weight, ranking in ((keyword_weight, keyword), (vector_weight, vector)):
            for rank, (item_id, _) in enumerate(ranking, start=1):
                fused[item_id] = fused.get(item_id, 0.0) + weight / (RRF_K + rank)
    else:
        best = max((score for _, score in keyword), default=0.0)
        for item_id, score in keyword:
            fused[item_id] = keyword_weight * (score / best if best > 0 else 0.0)
        for item_id, similarity in vector:
            fused[item_id] = fused.get(item_id, 0.0) + vector_weight * max(0.0, similarity)
    return sorted(fused.items(), key=lambda pair: (-pair[1], -pair[0]))


def hybrid_ranking(
    semantic: Semantic,
    scope: UserStore,
    kind: VectorKind,
    query: npt.NDArray[np.float32] | None,
    keyword: Sequence[tuple[int, float]],
    *,
    pool: int,
    keep: Callable[[int], bool] | None = None,
) -> list[tuple[int, float]]:
    """Fuse keyword hits with the vector neighbours of the query (ids filtered by ``keep``)."""
    vector = semantic.nearest(scope, kind, query, pool) if query is not None else []
    if keep is not None:
        vector = [(item_id, sim) for item_id, sim in vector if keep(item_id)]
    return fuse(
        keyword,
        vector,
        keyword_weight=semantic.keyword_weight,
        vector_weight=semantic.vector_weight,
        fusion=semantic.fusion,
    )


__all__ = ["RELATIVE_CUT", "RRF_K", "SIMILARITY_FLOOR", "Fusion", "Semantic", "fuse", "hybrid_ranking"]
