"""Searching the knowledge base: keywords (BM25) and meaning (cosine) over the indexed chunks."""

from __future__ import annotations

import re
import threading
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from reverie.config import RagSettings
from reverie.embed.service import from_blobs
from reverie.errors import InvalidInput, TooLarge
from reverie.retrieve.hybrid import Semantic, fuse
from reverie.retrieve.identifiers import identifier_matches, identifiers, promote
from reverie.store.base import Store
from reverie.text import check_query, keyword_terms

_STRONG_KEYWORD = 0.8  # keyword hits this close to the best one pass without the similarity threshold
_QUESTION_WORDS = frozenset(
    "what how when where who whom whose which why is are was were do does did can could should "
    "would will shall may might has have".split()
)
_LOOKUP = re.compile(
    r"\b(what does|how do i|how to|according to|look up|find (?:me )?(?:the|my)|manual|instructions?"
    r"|recipe|says? about|tell me about|explain)\b",
    re.IGNORECASE,
)


def looks_like_question(text: str) -> bool:
    """DAWN §9.2: a question mark, a leading question word, or a lookup phrase; or an identifier.

    "My DW-450 shows E24" asks nothing, but a model number or an error code is what manuals
    are read for: a message naming one consults the documents too.
    """
    stripped = text.strip()
    if not stripped:
        return False
    if "?" in stripped:
        return True
    first = stripped.split(maxsplit=1)[0].lower().strip(",.:;!")
    if first in _QUESTION_WORDS or _LOOKUP.search(stripped) is not None:
        return True
    # Only a message a search can take: a longer one is refused by the search anyway, and reading
    # a megabyte for identifiers would cost half a second.
    try:
        check_query(stripped)
    except TooLarge:
        return False
    return bool(identifiers(stripped))


@dataclass(frozen=True)
class DocumentHit:
    """A chunk that answers a search, with where it came from."""

    chunk_id: int
    document_id: int
    file_name: str
    path: str
    page: int | None
    heading: str
    text: str
    score: float
    similarity: float | None

    @property
    def location(self) -> str:
        """``page 3``, a heading path, or ''."""
        if self.page is not None:
            return f"page {self.page}"
        return self.heading

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {**asdict(self), "location": self.location}


class ChunkSearch:
    """Finds the chunks that answer a query; keeps each viewer's chunk vectors until the documents change."""

    def __init__(self, store: Store, conf: RagSettings) -> None:
        self.store = store
        self.conf = conf
        self._matrices: dict[int | None, tuple[int, str, npt.NDArray[np.int64], npt.NDArray[np.float32]]] = {}
        self._matrix_lock = threading.Lock()
        self._seen: dict[int | None, tuple[int, bool]] = {}  # viewer -> (version, sees a document)

    def search(
        self,
        query: str,
        semantic: Semantic | None,
        *,
        limit: int | None = None,
        threshold: float | None = None,
        user_id: int | None = None,
    ) -> list[DocumentHit]:
        """Chunks of the shared documents and the viewer's own answering ``query``, best first.

        Keywords (BM25) and meaning (cosine) are fused. Chunks holding an exact identifier the
        query names (``E24``, ``v1.2.4``, ``photos.conf``: :mod:`reverie.retrieve.identifiers`)
        come first, more of them before fewer, and need no similarity.

        A chunk needs a cosine similarity of at least ``threshold`` (``rag.similarity_threshold``)
        unless it is one of the strongest keyword matches; without embeddings, keywords decide.
        """
        if not check_query(query).strip():
            raise InvalidInput("Give words to search the documents for")
        if not self._sees_documents(user_id):
            return []  # most users have none: no keyword, identifier or vector search for nothing
        limit = limit or self.conf.max_results
        threshold = self.conf.similarity_threshold if threshold is None else threshold
        pending = semantic.start_query(query) if semantic is not None else None
        pool = max(limit * 8, 40)
        keyword = self.store.search_chunks(keyword_terms(query), pool, user_id)
        named = identifier_matches(query, lambda terms, n: self.store.search_chunks(terms, n, user_id), pool)
        vector_query = pending() if pending is not None else None
        similarity: dict[int, float] = {}
        vector: list[tuple[int, float]] = []
        if vector_query is not None and semantic is not None:
            ids, scores = self._scores(vector_query, semantic.service.model_id, user_id)
            if len(ids):
                top = np.argsort(-scores)[:pool]
                vector = [(int(ids[i]), float(scores[i])) for i in top]
                position = {int(item): i for i, item in enumerate(ids.tolist())}
                similarity = {
                    item: float(scores[position[item]])
                    for item in {*(item for item, _ in keyword), *named}
                    if item in position
                }
                similarity.update(vector)
        best_keyword = max((score for _, score in keyword), default=0.0)
        strong = {
            item for item, score in keyword if best_keyword > 0 and score >= _STRONG_KEYWORD * best_keyword
        }
        if semantic is not None and vector_query is not None:
            fused = fuse(
                keyword,
                [(item, sim) for item, sim in vector if sim >= threshold],
                keyword_weight=semantic.keyword_weight,
                vector_weight=semantic.vector_weight,
                fusion=semantic.fusion,
            )
            ranking = [
                (item, score)
                for item, score in fused
                if item in strong or similarity.get(item, 1.0) >= threshold
            ]
        else:
            fused = ranking = list(keyword)
        chosen = promote(ranking, named, fused)[:limit]
        rows = {row.id: row for row in self.store.get_chunks([item for item, _ in chosen], user_id)}
        return [
            DocumentHit(
                chunk_id=item,
                document_id=rows[item].document_id,
                file_name=rows[item].file_name,
                path=rows[item].path,
                page=rows[item].page,
                heading=rows[item].heading,
                text=rows[item].text,
                score=round(score, 4),
                similarity=round(similarity[item], 4) if item in similarity else None,
            )
            for item, score in chosen
            if item in rows
        ]

    def _sees_documents(self, user_id: int | None) -> bool:
        """Whether the viewer may see any document (asked again only when the documents change).

        A chunk belongs to a document, so a viewer who sees none would find nothing: a turn's
        context then skips the three searches and the query's thread hop (0.6 ms of CPU).
        """
        version = self.store.documents_version()
        with self._matrix_lock:
            seen = self._seen.get(user_id)
        if seen is not None and seen[0] == version:
            return seen[1]
        sees = bool(self.store.list_documents(user_id))
        with self._matrix_lock:
            self._seen = {key: value for key, value in self._seen.items() if value[0] == version}
            self._seen[user_id] = (version, sees)
        return sees

    def _scores(
        self, query: npt.NDArray[np.float32], model_id: str, user_id: int | None
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """Cosine of the query with each chunk vector the viewer may see (cached per viewer and version)."""
        version = self.store.documents_version()
        with self._matrix_lock:
            cached = self._matrices.get(user_id)
            if cached is None or cached[0] != version or cached[1] != model_id:
                ids, blobs = self.store.chunk_vectors(model_id, user_id)
                cached = (
                    version,
                    model_id,
                    np.asarray(ids, dtype=np.int64),
                    from_blobs(blobs, int(query.shape[0])),
                )
                self._matrices = {key: value for key, value in self._matrices.items() if value[0] == version}
                self._matrices[user_id] = cached
        scores: npt.NDArray[np.float32] = cached[3] @ query
        return cached[2], scores


__all__ = ["ChunkSearch", "DocumentHit", "looks_like_question"]
