"""How the memory core is built from the settings: embeddings, the turn indexer, the time zone, user names."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reverie.config import Settings
from reverie.embed.index import VectorIndex
from reverie.embed.service import EmbeddingService, content_hash, embedder_from_settings
from reverie.errors import ConfigError, InvalidInput
from reverie.retrieve.hybrid import Semantic
from reverie.retrieve.indexer import MessageIndexer
from reverie.store.base import Store

_USER_NAME_MAX = 64


def build_semantic(settings: Settings, store: Store, clock: Callable[[], float]) -> Semantic | None:
    """The embedding service, vector index and fusion settings, or None when embeddings are off."""
    conf = settings.embeddings
    if not conf.enabled:
        return None
    service = EmbeddingService(
        embedder_from_settings(settings),
        store,
        cache_entries=conf.cache.max_entries if conf.cache.enabled else 0,
        clock=clock,
        pause_after_failure=conf.pause_after_failure_seconds,
    )
    hybrid = conf.hybrid
    database = settings.store.url or str(settings.database_path)
    return Semantic(
        service=service,
        # Snapshots per database, so a restart's first search maps the vectors instead of reading them.
        index=VectorIndex(
            conf.index_cache_mb * 1024 * 1024,
            snapshots=settings.home / "vectors" / content_hash(database)[:16],
        ),
        keyword_weight=hybrid.keyword_weight if hybrid.enabled else 1.0,
        vector_weight=hybrid.vector_weight if hybrid.enabled else 0.0,
        min_similarity=hybrid.min_similarity,
        fusion=hybrid.fusion,
    )


def build_indexer(
    settings: Settings, store: Store, tz: tzinfo, clock: Callable[[], float]
) -> MessageIndexer | None:
    """The background indexer of new turns, or None when embeddings are off.

    It has an embedder of its own on one thread and no cache: a local model then runs on the
    indexer's own low-priority thread alone, so its batches never slow the turns being
    answered, and window texts, which never repeat, do not churn the cache.
    """
    if not settings.embeddings.enabled:
        return None
    own = settings.model_copy(deep=True)
    own.embeddings.threads = 1
    service = EmbeddingService(
        embedder_from_settings(own),
        None,
        cache_entries=0,
        clock=clock,
        pause_after_failure=settings.embeddings.pause_after_failure_seconds,
    )
    return MessageIndexer(store, service, tz)


def local_zone(name: str) -> tzinfo:
    """The zone ``memory.timezone`` names; the machine's own (or UTC) when it is empty."""
    if not name:
        local = time.localtime().tm_zone
        try:
            return ZoneInfo("localtime") if local else ZoneInfo("UTC")
        except ZoneInfoNotFoundError:
            return ZoneInfo("UTC")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"memory.timezone '{name}' is not a known time zone (e.g. Europe/Paris)") from exc


def check_user_name(name: str) -> str:
    """The name trimmed, or InvalidInput when it cannot name a user (or a folder of theirs)."""
    name = name.strip()
    if not name or len(name) > _USER_NAME_MAX or not all(c.isalnum() or c in "._-@" for c in name):
        raise InvalidInput(
            f"User name {name!r} is not valid: use 1-{_USER_NAME_MAX} letters, digits, '.', '_', '-' or '@'"
        )
    if not name.strip("."):  # "." and ".." name folders (the user's topics) that are not the user's own
        raise InvalidInput(f"User name {name!r} is not valid: it needs a letter, digit, '_', '-' or '@'")
    return name


__all__ = ["build_indexer", "build_semantic", "check_user_name", "local_zone"]
