"""A fact's vector, made and stored so that a provider failure never loses the fact.

The text is stored without a vector when the embedding provider fails (logged; `reverie
reindex` adds it later); the vector is written in the caller's transaction, beside the row.
"""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from reverie.embed.service import EmbeddingService, FloatMatrix, PendingVectors, to_blob
from reverie.errors import ProviderError
from reverie.store.base import UserStore, VectorKind

log = logging.getLogger(__name__)


def embed_all_or_none(service: EmbeddingService | None, texts: list[str]) -> FloatMatrix | None:
    """The texts' vectors, or None without a service or when the provider fails (logged)."""
    if service is None or not texts:
        return None
    try:
        return service.embed(texts)
    except ProviderError as exc:
        log.warning("Stored without vectors (run `reverie reindex` later): %s", exc)
        return None


def embed_or_none(service: EmbeddingService | None, text: str) -> npt.NDArray[np.float32] | None:
    """The text's vector, or None without a service or when the provider fails (logged)."""
    vectors = embed_all_or_none(service, [text])
    return None if vectors is None else vectors[0]


def embed_ahead(service: EmbeddingService | None, text: str) -> PendingVectors | None:
    """Start the text's vector on a worker thread (:func:`vector_of` takes it), or None without a service."""
    return None if service is None else service.embed_ahead([text])


def vector_of(pending: PendingVectors | None) -> npt.NDArray[np.float32] | None:
    """The vector started by :func:`embed_ahead`, or None when the provider failed (logged).

    It is not in the embedding cache yet: ``pending.result()`` puts it there once the caller's
    vector searches are over.
    """
    if pending is None:
        return None
    try:
        vector: npt.NDArray[np.float32] = pending.vectors()[0]
    except ProviderError as exc:
        log.warning("Stored without vectors (run `reverie reindex` later): %s", exc)
        return None
    return vector


def store_vector(
    scope: UserStore,
    service: EmbeddingService | None,
    kind: VectorKind,
    item_id: int,
    vector: npt.NDArray[np.float32] | None,
) -> None:
    """Write an item's vector (inside the caller's transaction), if there is one."""
    if service is not None and vector is not None:
        scope.put_vectors(kind, [(item_id, to_blob(vector))], service.model_id, service.dimensions)


__all__ = ["embed_ahead", "embed_all_or_none", "embed_or_none", "store_vector", "vector_of"]
