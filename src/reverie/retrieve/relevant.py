"""Facts relevant to the current user message (Lo-Bug §8), for the context block."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from reverie.retrieve.hybrid import Semantic, hybrid_ranking
from reverie.store.base import MemoryRow, UserStore
from reverie.text import keyword_terms


def relevant_facts(
    scope: UserStore,
    message: str,
    *,
    semantic: Semantic | None,
    top_k: int,
    min_similarity: float,
    pending: Callable[[], npt.NDArray[np.float32] | None] | None = None,
) -> list[MemoryRow]:
    """Up to ``top_k`` active facts most related to ``message``, best first.

    With embeddings: keyword hits fused with the facts whose cosine similarity to the message
    is at least ``min_similarity``; without: BM25 keyword hits only. ``pending`` is the
    message's vector on its way (:meth:`Semantic.start_query`), when the caller started it.
    """
    if top_k <= 0 or not message.strip():
        return []
    if pending is None and semantic is not None:
        pending = semantic.start_query(message)
    keyword = [
        (m.id, score)
        for m, score in scope.search_memories(keyword_terms(message), kinds=("fact",), limit=top_k)
    ]
    if semantic is None or pending is None:
        ranked = keyword
    else:
        vector = pending()
        local = Semantic(
            semantic.service,
            semantic.index,
            semantic.keyword_weight,
            semantic.vector_weight,
            min_similarity,
            semantic.fusion,
        )
        ranked = hybrid_ranking(local, scope, "memory", vector, keyword, pool=top_k * 3)
    rows = {row.id: row for row in scope.get_memories([item_id for item_id, _ in ranked])}
    facts = [
        rows[i] for i, _ in ranked if i in rows and rows[i].kind == "fact" and rows[i].status == "active"
    ]
    return facts[:top_k]


__all__ = ["relevant_facts"]
