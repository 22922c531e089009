"""The memory core: one user's memories, preferences, summaries and conversations over the store.

It imports nothing of the features built on it; :mod:`reverie.memory` composes them (see
:class:`reverie.Memory`).
"""

from reverie.core.build import build_indexer, build_semantic
from reverie.core.memory_core import FORGET_ALL_CONFIRMATION, ContextExtras, MemoryCore
from reverie.core.preferences import PREFERENCE_SCOPES, PREFERENCES_IN_CONTEXT

__all__ = [
    "FORGET_ALL_CONFIRMATION",
    "PREFERENCES_IN_CONTEXT",
    "PREFERENCE_SCOPES",
    "ContextExtras",
    "MemoryCore",
    "build_indexer",
    "build_semantic",
]
