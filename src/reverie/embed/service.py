"""Embedding with a cache: the one place texts become unit-length float32 vectors.

The cache (DAWN C.4) is keyed by the SHA-256 of the text and the embedder identity, lives in
the database beside the vectors, keeps at most ``max_entries`` (oldest pruned first) and
counts hits and misses so ``reverie stats`` can show a hit rate.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from reverie.config import Settings
from reverie.embed.base import (
    Embedder,
    LineTokenCounter,
    ModelLister,
    QueryEmbedder,
    TokenCounter,
    embedders,
)
from reverie.errors import ProviderUnavailable
from reverie.store.base import Store

FloatMatrix = npt.NDArray[np.float32]
log = logging.getLogger(__name__)
_PRUNE_EVERY = 256
_FLUSH_EVERY = 256
#: Recent query vectors kept in memory: a turn's query is embedded once, then its searches
#: (facts, episodes, documents) and a retried turn reuse the vector without ONNX or a database read.
RECENT_VECTORS = 512
#: Token counts kept in memory: a context counts the same facts and preferences every turn.
RECENT_COUNTS = 8192


def embedder_from_settings(settings: Settings) -> Embedder:
    """Build the embedder that ``[embeddings]`` names, passing the options its factory takes."""
    conf = settings.embeddings
    offered: dict[str, Any] = {
        "model": conf.model,
        "endpoint": conf.endpoint,
        "api_key": conf.api_key,
        "threads": conf.threads,
        "compute": conf.local_compute,
        "timeout_seconds": conf.timeout_seconds,
        "attempts": conf.max_attempts,
        "backoff_seconds": conf.retry_backoff_seconds,
    }
    return embedders.create_offering(conf.provider, offered)


def embedding_models(settings: Settings, provider: str, endpoint: str) -> list[str] | None:
    """The models ``provider`` offers at ``endpoint`` (empty: its default), or None when it cannot say.

    Raises ProviderUnavailable or ProviderError when its server cannot be asked.
    """
    trial = settings.model_copy(deep=True)
    trial.embeddings.provider = provider
    trial.embeddings.endpoint = endpoint
    # A listing needs no model, but a provider refuses to be built without one.
    trial.embeddings.model = trial.embeddings.model or "-"
    embedder = embedder_from_settings(trial)
    return embedder.available_models() if isinstance(embedder, ModelLister) else None


def content_hash(text: str) -> str:
    """SHA-256 of a text, the cache key."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def to_blob(vector: npt.NDArray[np.float32]) -> bytes:
    """A vector as stored: little-endian float32 bytes."""
    return np.asarray(vector, dtype="<f4").tobytes()


def from_blobs(blobs: Sequence[bytes], dims: int) -> FloatMatrix:
    """Stored vectors back into one (n, dims) matrix."""
    if not blobs:
        return np.zeros((0, dims), dtype=np.float32)
    return (
        np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), dims).astype(np.float32, copy=False)
    )


class EmbeddingService:
    """An embedder plus the cache; returns normalised float32 matrices."""

    def __init__(
        self,
        embedder: Embedder,
        store: Store | None = None,
        *,
        cache_entries: int = 10_000,
        clock: Callable[[], float] = time.time,
        pause_after_failure: float = 30.0,
    ) -> None:
        self.embedder = embedder
        self.pause_after_failure = pause_after_failure
        self._paused_until = 0.0
        self.store = store if cache_entries > 0 else None
        self.cache_entries = cache_entries
        self.clock = clock
        self._puts = 0
        self._hits = 0
        self._misses = 0
        self._recent: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._recent_lock = threading.Lock()
        # Resolved once: a runtime protocol check costs more than counting a short line.
        self._by_line = isinstance(embedder, LineTokenCounter)
        counter = (
            embedder.count_line_tokens
            if isinstance(embedder, LineTokenCounter)
            else embedder.count_tokens
            if isinstance(embedder, TokenCounter)
            else None
        )
        self._count = functools.lru_cache(maxsize=RECENT_COUNTS)(counter) if counter is not None else None
        self._embed_queries: Callable[[list[str]], list[list[float]]] | None = (
            embedder.embed_queries if isinstance(embedder, QueryEmbedder) else None
        )

    @property
    def model_id(self) -> str:
        """Identity of the vectors this service makes."""
        return self.embedder.model_id

    @property
    def dimensions(self) -> int:
        """Length of its vectors."""
        return self.embedder.dimensions

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Embed texts (cached), one unit-length row per text.

        After the provider was unreachable, calls fail at once for ``pause_after_failure``
        seconds instead of waiting for timeouts and retries again on every search.
        """
        return self._begin(list(texts), ahead=False).result()

    def embed_ahead(self, texts: Sequence[str]) -> PendingVectors:
        """Start embedding texts on a worker thread; ``result()`` gives what :meth:`embed` would.

        The local model releases the GIL while it runs, so the caller can do other work on the
        second core meanwhile (remember checks the text and searches by keywords). The cache is
        read now and written only by ``result()``, on the caller's thread (and transaction); a
        job whose result is never asked for leaves no trace.
        """
        return self._begin(list(texts), ahead=True)

    def _begin(self, items: list[str], *, ahead: bool) -> PendingVectors:
        if not items:
            return PendingVectors(self, np.zeros((0, 0), dtype=np.float32))
        hashes = [content_hash(text) for text in items]
        recent = self._recall(hashes) if self.cache_entries > 0 else {}
        if len(recent) == len(set(hashes)):
            self._hits += len(items)
            return PendingVectors(self, np.vstack([recent[d] for d in hashes]).astype(np.float32, copy=False))
        unknown = sorted(set(hashes) - recent.keys())
        cached = self.store.cache_get(self.model_id, unknown) if self.store else {}
        cached.update({d: to_blob(v) for d, v in recent.items()})
        todo = [i for i, digest in enumerate(hashes) if digest not in cached]
        unique = list(dict.fromkeys(hashes[i] for i in todo))
        first = {hashes[i]: i for i in reversed(todo)}
        pending = PendingVectors(self, None, hashes, cached, unique, todo=len(todo))
        if unique:
            texts = [items[first[d]] for d in unique]
            if ahead:
                pending.job = _worker().submit(self._call, texts)
            else:
                pending.computed = self._call(texts)
        return pending

    def _recall(self, hashes: list[str]) -> dict[str, npt.NDArray[np.float32]]:
        with self._recent_lock:
            found = {d: self._recent[d] for d in hashes if d in self._recent}
            for digest in found:
                self._recent.move_to_end(digest)
        return found

    def _keep(self, digest: str, vector: npt.NDArray[np.float32]) -> None:
        with self._recent_lock:
            self._recent[digest] = vector
            self._recent.move_to_end(digest)
            while len(self._recent) > RECENT_VECTORS:
                self._recent.popitem(last=False)

    def _call(
        self, texts: list[str], embed: Callable[[list[str]], list[list[float]]] | None = None
    ) -> list[list[float]]:
        if time.monotonic() < self._paused_until:
            raise ProviderUnavailable(
                f"Embedding provider {self.model_id} failed moments ago; not retried for "
                f"{self.pause_after_failure:g} s (keyword search still works)"
            )
        try:
            return (embed or self.embedder.embed_batch)(texts)
        except ProviderUnavailable:
            self._paused_until = time.monotonic() + self.pause_after_failure
            raise

    @property
    def paused(self) -> bool:
        """True while calls fail at once after the provider was unreachable."""
        return time.monotonic() < self._paused_until

    def resume(self) -> None:
        """Try the provider again at once, even within the pause after a failure."""
        self._paused_until = 0.0

    def count_tokens(self, text: str) -> int | None:
        """Tokens in ``text`` by the embedder's own tokenizer (recent texts remembered); None without one.

        A tokenizer whose counts add up line by line (:class:`LineTokenCounter`) counts a text of
        many lines from its lines: a context block is new text every turn, but its lines repeat
        (counting a whole block took about 1 ms a turn, summing its remembered lines 0.02).
        """
        count = self._count
        if count is None:
            return None
        if self._by_line and "\n" in text:
            return sum(count(line) for line in text.split("\n"))
        return count(text)

    def embed_one(self, text: str) -> npt.NDArray[np.float32]:
        """Embed one text."""
        vector: npt.NDArray[np.float32] = self.embed([text])[0]
        return vector

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """A search query's vector, remembered in memory only (the recent queries).

        A turn's query is new text every time: reading the database cache for it and writing
        its vector there cost a lookup and a write transaction per turn for nothing. A query
        asked again within the last :data:`RECENT_VECTORS` is served from memory. A model that
        embeds queries its own way (:class:`QueryEmbedder`, e.g. an instruction prefix) does so here.
        """
        asks = self._embed_queries
        if self.cache_entries <= 0 and asks is None:
            return self.embed_one(text)
        # A query's vector differs from the same text's stored vector when the model prefixes it.
        digest = content_hash(text if asks is None else f"query\0{text}")
        recent = self._recall([digest]) if self.cache_entries > 0 else {}
        if recent:
            self._hits += 1
            return recent[digest]
        computed = np.asarray(self._call([text], asks), dtype=np.float32)
        vector: npt.NDArray[np.float32] = _normalise(computed)[0]
        if self.cache_entries > 0:
            self._keep(digest, vector)
        self._misses += 1
        return vector

    def use_cache(self, store: Store | None, entries: int) -> None:
        """Turn the cache on (a store and a size) or off (entries 0) from now on."""
        self.flush()
        self.store = store if entries > 0 else None
        self.cache_entries = entries
        self.forget_recent()

    def forget_recent(self) -> None:
        """Drop the vectors kept in memory and the pending counts (after the cache table was emptied)."""
        with self._recent_lock:
            self._recent.clear()
        self._hits = self._misses = self._puts = 0

    def _remember(self, fresh: dict[str, npt.NDArray[np.float32]], hits: int, misses: int) -> None:
        assert self.store is not None
        if fresh:
            dims = len(next(iter(fresh.values())))
            self.store.cache_put(
                self.model_id, dims, [(d, to_blob(v)) for d, v in fresh.items()], self.clock()
            )
            self._puts += len(fresh)
            if self._puts >= _PRUNE_EVERY:
                self._prune()
        self._hits += hits
        self._misses += misses
        if self._hits + self._misses >= _FLUSH_EVERY:
            self.flush()

    def _prune(self) -> None:
        assert self.store is not None
        self._puts = 0
        self.store.cache_prune(self.cache_entries)

    def flush(self) -> None:
        """Write pending hit and miss counts and prune the cache (also done every few hundred texts)."""
        if self.store is None:
            return
        if self._hits or self._misses:
            self.store.cache_record(self.model_id, self._hits, self._misses)
            self._hits = self._misses = 0
        if self._puts:
            self._prune()


class PendingVectors:
    """Vectors on their way (:meth:`EmbeddingService.embed_ahead`); ``result()`` waits for them."""

    def __init__(
        self,
        service: EmbeddingService,
        ready: FloatMatrix | None,
        hashes: list[str] | None = None,
        cached: dict[str, bytes] | None = None,
        unique: list[str] | None = None,
        *,
        todo: int = 0,
    ) -> None:
        self._service = service
        self._ready = ready
        self._hashes = hashes or []
        self._cached = cached or {}
        self._unique = unique or []
        self._todo = todo
        self.job: Future[list[list[float]]] | None = None
        self.computed: list[list[float]] | None = None
        self._fresh: dict[str, npt.NDArray[np.float32]] | None = None  # computed, not yet recorded

    def vectors(self) -> FloatMatrix:
        """The vectors, one unit-length row per text, without recording them yet (see ``result``).

        A write to the cache inside the caller's transaction makes its vector searches treat
        the transaction as having uncommitted changes, so a caller that searches first records after.
        """
        if self._ready is None:
            fresh: dict[str, npt.NDArray[np.float32]] = {}
            if self._unique:
                computed = self.job.result() if self.job is not None else self.computed
                vectors = _normalise(np.asarray(computed, dtype=np.float32))
                fresh = dict(zip(self._unique, vectors, strict=True))
            cached = self._cached
            rows = [fresh[d] if d in fresh else np.frombuffer(cached[d], dtype="<f4") for d in self._hashes]
            self._fresh = fresh
            self._ready = np.vstack(rows).astype(np.float32, copy=False)
        return self._ready

    def result(self) -> FloatMatrix:
        """The vectors, one unit-length row per text; records them in the cache (once)."""
        ready = self.vectors()
        if self._fresh is not None:
            service, hashes, fresh = self._service, self._hashes, self._fresh
            self._fresh = None
            if len(hashes) == 1 and service.cache_entries > 0:  # a query: likely asked again within the turn
                service._keep(hashes[0], ready[0])
            if service.store is not None:
                service._remember(fresh, hits=len(hashes) - self._todo, misses=self._todo)
        return ready

    def cancel(self) -> None:
        """Drop the job (its text was refused): nothing is cached or counted."""
        if self.job is not None:
            self.job.cancel()
        self._ready = np.zeros((0, 0), dtype=np.float32)


_worker_lock = threading.Lock()
_workers: list[ThreadPoolExecutor] = []


def _worker() -> ThreadPoolExecutor:
    """The process's embedding threads (two: the machines this runs on have few cores)."""
    with _worker_lock:
        if not _workers:
            _workers.append(ThreadPoolExecutor(max_workers=2, thread_name_prefix="reverie-embed"))
        return _workers[0]


def _normalise(vectors: FloatMatrix) -> FloatMatrix:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: FloatMatrix = (vectors / norms).astype(np.float32, copy=False)
    return normalised


__all__ = [
    "EmbeddingService",
    "PendingVectors",
    "content_hash",
    "embedder_from_settings",
    "embedding_models",
    "from_blobs",
    "to_blob",
]
