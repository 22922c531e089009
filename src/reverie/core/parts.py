"""What the parts of the memory core (people, preferences, summaries) read of it, declared once."""

from __future__ import annotations

from collections.abc import Callable

from reverie.config import Settings
from reverie.embed.service import EmbeddingService
from reverie.extract.merge import MergePolicy
from reverie.retrieve.hybrid import Semantic
from reverie.store.base import Source, Store, User, UserStore


class CoreParts:
    """The base of each part mixed into :class:`MemoryCore`, which sets these attributes and members."""

    settings: Settings
    store: Store
    clock: Callable[[], float]
    semantic: Semantic | None
    policy: MergePolicy
    user: User | None
    interface: str | None
    _owns_store: bool

    @property
    def scope(self) -> UserStore:  # provided by MemoryCore
        raise NotImplementedError

    @property
    def embeddings(self) -> EmbeddingService | None:  # provided by MemoryCore
        raise NotImplementedError

    @property
    def is_guest(self) -> bool:  # provided by MemoryCore
        raise NotImplementedError

    def _guard(self, text: str, source: Source, sensitive: bool = False) -> str:  # provided by MemoryCore
        raise NotImplementedError


__all__ = ["CoreParts"]
