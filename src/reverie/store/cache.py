"""The embedding cache (vectors by content hash and model) and its counters, written once for both engines."""

from __future__ import annotations

from collections.abc import Sequence

from reverie.store.dialect import StorePart


class EmbeddingCache(StorePart):
    """The embedding cache of the whole store; the upsert of many rows is the dialect's."""

    def cache_get(self, model_id: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """Cached vectors of this model for these content hashes."""
        rows = self.db.rows_among(
            "SELECT content_hash, vector FROM embedding_cache WHERE model_id = ? AND {among}",
            "content_hash",
            hashes,
            (model_id,),
        )
        return {row["content_hash"]: bytes(row["vector"]) for row in rows}

    def cache_put(self, model_id: str, dims: int, items: Sequence[tuple[str, bytes]], now: float) -> None:
        """Add vectors to the cache."""
        if items:
            self.db.cache_put(model_id, dims, items, now)

    def cache_prune(self, max_entries: int) -> int:
        """Drop the oldest entries beyond ``max_entries``."""
        return self.db.run(
            "DELETE FROM embedding_cache WHERE (content_hash, model_id) IN (SELECT content_hash, model_id"
            f" FROM embedding_cache ORDER BY created_at DESC, content_hash {self.db.no_limit} OFFSET ?)",
            (max_entries,),
        )

    def cache_clear(self) -> int:
        """Empty the cache and its counters; how many vectors were dropped."""
        with self.db.transaction():
            removed = self.db.run("DELETE FROM embedding_cache")
            self.db.run("DELETE FROM embedding_cache_stats")
        return removed

    def cache_record(self, model_id: str, hits: int, misses: int) -> None:
        """Add to the hit and miss counters of a model."""
        self.db.run(
            "INSERT INTO embedding_cache_stats (model_id, hits, misses) VALUES (?, ?, ?)"
            " ON CONFLICT (model_id) DO UPDATE SET hits = embedding_cache_stats.hits + excluded.hits,"
            " misses = embedding_cache_stats.misses + excluded.misses",
            (model_id, hits, misses),
        )

    def cache_stats(self) -> dict[str, int]:
        """entries, hits and misses over all models."""
        row = self.db.row(
            "SELECT (SELECT COUNT(*) FROM embedding_cache) AS entries,"
            " COALESCE(SUM(hits), 0) AS hits, COALESCE(SUM(misses), 0) AS misses FROM embedding_cache_stats"
        )
        assert row is not None
        return {"entries": int(row["entries"]), "hits": int(row["hits"]), "misses": int(row["misses"])}


__all__ = ["EmbeddingCache"]
