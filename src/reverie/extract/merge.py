"""Merging a new fact or preference into what is already kept.

For a fact, in this order:

1. it has a key (given, or inferred from its shape) and an active fact holds that key: the
   same words reinforce that fact, other words supersede it;
2. an active fact has nearly the same content words (``duplicate_similarity``): reinforced;
3. an active fact's vector lies within ``duplicate_distance`` (cosine distance, Lo-Bug §9):
   the new fact supersedes it ("User is 35 years old" replaces "User is 34 years old");
4. otherwise it is stored.

A superseded fact is kept, linked to its successor, with an audit entry. The vector of a new
or changed text is written in the same transaction as the row.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from reverie.embed.index import VectorIndex
from reverie.embed.service import EmbeddingService, FloatMatrix, to_blob
from reverie.errors import ProviderError
from reverie.extract.guard import find_personal_sensitive
from reverie.extract.keys import infer_key
from reverie.store.base import MemoryFilter, MemoryRow, NewMemory, Source, UserStore, VectorKind
from reverie.text import keyword_terms, token_similarity

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RememberResult:
    """What ``remember`` or ``prefer`` did: stored anew, reinforced, or replaced older rows."""

    status: Literal["stored", "reinforced", "updated", "superseded"]
    memory: MemoryRow
    replaced: list[MemoryRow] = field(default_factory=list)


@dataclass(frozen=True)
class MergePolicy:
    """Thresholds of the merge, from ``[memory]``."""

    duplicate_similarity: float = 0.85
    duplicate_distance: float = 0.15


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


def _token_twin(scope: UserStore, text: str, threshold: float) -> MemoryRow | None:
    terms = keyword_terms(text)
    # A stored fact at least ``threshold`` similar shares all but n - ceil(threshold * n) of the
    # new fact's n words, so the index can be asked for exactly those (much cheaper than any word).
    needed = math.ceil(threshold * len(terms) - 1e-9)
    candidates = scope.search_memories(terms, kinds=("fact",), limit=20, min_match=needed or None)
    best = max(candidates, key=lambda hit: token_similarity(hit[0].text, text), default=None)
    if best is not None and token_similarity(best[0].text, text) >= threshold:
        return best[0]
    return None


def _vector_twin(
    scope: UserStore,
    service: EmbeddingService | None,
    index: VectorIndex | None,
    vector: npt.NDArray[np.float32] | None,
    distance: float,
) -> MemoryRow | None:
    if service is None or index is None or vector is None:
        return None
    near = index.search(scope, "memory", service.model_id, vector, k=3, min_similarity=1.0 - distance)
    for row in scope.get_memories([item_id for item_id, _ in near]):
        if row.kind == "fact" and row.status == "active":
            return row
    return None


def remember_fact(
    scope: UserStore,
    text: str,
    now: float,
    *,
    key: str | None,
    type_: str,
    source: Source,
    confidence: float,
    conversation_id: int | None,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    index: VectorIndex | None = None,
) -> RememberResult:
    """Merge one (already guarded) fact into the user's memory; see the module docstring."""
    key = key or infer_key(text)
    vector = embed_or_none(service, text)
    with scope.transaction():
        previous = scope.find_active_by_key("fact", key) if key else None
        if previous is not None and token_similarity(previous.text, text) >= policy.duplicate_similarity:
            return _reinforce(scope, previous, now, confidence)
        if previous is None:
            twin = _token_twin(scope, text, policy.duplicate_similarity)
            if twin is not None:
                return _reinforce(scope, twin, now, confidence)
            previous = _vector_twin(scope, service, index, vector, policy.duplicate_distance)
        new = scope.insert_memory(
            NewMemory(
                kind="fact",
                text=text,
                source=source,
                confidence=confidence,
                type=type_,
                key=None if previous is not None and previous.key == key else key,
                conversation_id=conversation_id,
                sensitive=find_personal_sensitive(text) is not None,
            ),
            now,
        )
        store_vector(scope, service, "memory", new.id, vector)
        if previous is None:
            return RememberResult("stored", new)
        why = f"key '{key}' set again" if key and previous.key == key else "a newer, nearly identical fact"
        scope.supersede(previous.id, new.id, now)
        scope.audit(
            "supersede",
            now,
            target_kind="fact",
            target_id=previous.id,
            reason=why,
            detail={"superseded_by": new.id},
        )
        if key and new.key != key:
            new = scope.update_memory(new.id, now, key=key) or new
        return RememberResult("superseded", new, [previous])


def correct_fact(
    scope: UserStore,
    old_text: str,
    new_text: str,
    now: float,
    *,
    conversation_id: int | None,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    index: VectorIndex | None = None,
    reason: str = "",
) -> RememberResult:
    """The user corrected ``old_text``: the closest active fact is superseded by ``new_text``."""
    terms = keyword_terms(old_text)
    candidates = [row for row, _ in scope.search_memories(terms, kinds=("fact",), limit=10)]
    old = max(candidates, key=lambda row: token_similarity(row.text, old_text), default=None)
    if old is not None and token_similarity(old.text, old_text) < 0.5:
        old = None
    if old is None and service is not None and index is not None:
        vector = embed_or_none(service, old_text)
        if vector is not None:
            near = index.search(scope, "memory", service.model_id, vector, k=1, min_similarity=0.75)
            rows = scope.get_memories([item_id for item_id, _ in near])
            old = next((row for row in rows if row.kind == "fact" and row.status == "active"), None)
    with scope.transaction():
        result = remember_fact(
            scope,
            new_text,
            now,
            key=old.key if old else None,
            type_=old.type if old else "general",
            source="explicit",
            confidence=1.0,
            conversation_id=conversation_id,
            policy=policy,
            service=service,
            index=index,
        )
        if old is None or old.id == result.memory.id or any(r.id == old.id for r in result.replaced):
            return result
        current = scope.get_memory(old.id)
        if current is None or current.status != "active":
            return result
        scope.supersede(old.id, result.memory.id, now)
        scope.audit(
            "supersede",
            now,
            target_kind="fact",
            target_id=old.id,
            reason=f"corrected by the user{': ' + reason if reason else ''}",
            detail={"superseded_by": result.memory.id},
        )
        return RememberResult("superseded", result.memory, [*result.replaced, old])


def _reinforce(scope: UserStore, row: MemoryRow, now: float, confidence: float) -> RememberResult:
    updated = scope.reinforce(row.id, now, confidence)
    assert updated is not None
    return RememberResult("reinforced", updated)


def set_preference(
    scope: UserStore,
    key: str,
    value: str,
    now: float,
    *,
    source: Source,
    confidence: float,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
) -> RememberResult:
    """One preference per category: a new one is stored, the same again reinforced, another value updates."""
    vector = embed_or_none(service, value)
    with scope.transaction():
        current = scope.find_active_by_key("preference", key)
        if current is None:
            row = scope.insert_memory(
                NewMemory(kind="preference", text=value, source=source, confidence=confidence, key=key), now
            )
            store_vector(scope, service, "memory", row.id, vector)
            return RememberResult("stored", row)
        same = token_similarity(current.text, value) >= policy.duplicate_similarity
        changed = scope.update_memory(
            current.id,
            now,
            text=current.text if same else value,
            source="explicit" if "explicit" in (source, current.source) else "inferred",
            confidence=max(confidence, current.confidence) if same else confidence,
            reinforcement_count=current.reinforcement_count + 1,
        )
        assert changed is not None
        if not same:
            store_vector(scope, service, "memory", changed.id, vector)
        return RememberResult("reinforced" if same else "updated", changed)


@dataclass(frozen=True)
class ScopeMerge:
    """What merging one owner's memories into another's did."""

    moved: int = 0
    superseded: int = 0
    ids: tuple[int, ...] = ()  # the new ids of the moved memories, in order


def merge_memories(
    source: UserStore,
    target: UserStore,
    now: float,
    *,
    reason: str,
    policy: MergePolicy,
    service: EmbeddingService | None = None,
    index: VectorIndex | None = None,
) -> ScopeMerge:
    """Move every active memory of ``source`` to ``target`` (mem.db §7), in the caller's transaction.

    A memory with the same key, or a near-duplicate (content words, or meaning), of one the
    target has is a duplicate: the newer of the two (by last update) stays active and the other
    is kept as superseded by it, with an audit entry. The source's copies are deleted.
    """
    rows = source.list_memories(MemoryFilter(statuses=("active",), limit=1_000_000, order="id"))
    moved = superseded = 0
    ids: list[int] = []
    for row in rows:
        vector = embed_or_none(service, row.text)
        twin = target.find_active_by_key(row.kind, row.key) if row.key else None
        if twin is None and row.kind == "fact":
            twin = _token_twin(target, row.text, policy.duplicate_similarity) or _vector_twin(
                target, service, index, vector, policy.duplicate_distance
            )
        newer = twin is None or row.updated_at > twin.updated_at
        copy = target.insert_memory(
            NewMemory(
                kind=row.kind,
                text=row.text,
                source=row.source,
                confidence=row.confidence,
                type=row.type,
                key=row.key if twin is None else None,  # the key moves once the twin is superseded
                created_at=row.created_at,
                updated_at=row.updated_at,
                last_accessed=row.last_accessed,
                access_count=row.access_count,
                reinforcement_count=row.reinforcement_count,
                status="active" if newer else "superseded",
                sensitive=row.sensitive,
            ),
            now,
        )
        if newer:
            store_vector(target, service, "memory", copy.id, vector)
        ids.append(copy.id)
        if twin is not None:
            old, new = (twin, copy) if newer else (copy, twin)
            if newer:
                target.supersede(twin.id, copy.id, now)
                if row.key:
                    target.update_memory(copy.id, now, key=row.key)
            else:
                target.update_memory(copy.id, now, superseded_by=twin.id)
            target.audit(
                "supersede",
                now,
                target_kind=old.kind,
                target_id=old.id,
                reason=f"{reason}: a newer duplicate (#{new.id}) wins",
                detail={"text": old.text, "kept": new.text},
            )
            superseded += 1
        moved += 1
    source.delete_memories([row.id for row in rows])
    return ScopeMerge(moved, superseded, tuple(ids))


__all__ = [
    "MergePolicy",
    "correct_fact",
    "RememberResult",
    "ScopeMerge",
    "merge_memories",
    "embed_all_or_none",
    "embed_or_none",
    "remember_fact",
    "set_preference",
    "store_vector",
]
