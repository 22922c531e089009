"""The embedding provider protocol, the shared input checks and the registry of providers.

Providers join the registry by name with :func:`register_embedder`, built-in ones the same way
as outside ones, or come from the ``reverie.embedders`` entry-point group: the entry point's
name is the provider name and its object is the factory (usually the class).
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterator, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol, TypeVar, runtime_checkable

from reverie.errors import ConfigError, InvalidInput, ProviderError, ProviderUnavailable

ENTRY_POINT_GROUP = "reverie.embedders"

_Item = TypeVar("_Item")


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of a fixed length, one per text, in order."""

    @property
    def model_id(self) -> str:
        """Identity stored with every vector; vectors of different ids never mix."""
        ...

    @property
    def dimensions(self) -> int:
        """Length of every vector."""
        ...

    def embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts``, returning one vector per text in the same order."""
        ...


@runtime_checkable
class TokenCounter(Protocol):
    """Optional ability: count tokens the way the provider's tokenizer does."""

    def count_tokens(self, text: str) -> int:
        """Number of tokens in ``text``, without special tokens."""
        ...


EmbedderFactory = Callable[..., Embedder]

_lock = threading.RLock()
_factories: dict[str, EmbedderFactory] = {}
_entry_points: dict[str, EntryPoint] = {}
_discovered = False


def register_embedder(name: str, factory: EmbedderFactory) -> None:
    """Make ``factory`` available as ``create_embedder(name, ...)``; a later call replaces it."""
    if not name or name != name.strip():
        raise ConfigError(f"Embedding provider name {name!r} must be a non-empty word")
    _discover()  # so a built-in registering later cannot replace this factory
    with _lock:
        _factories[name] = factory


def available_embedders() -> list[str]:
    """Names of every registered or installed embedding provider, sorted."""
    _discover()
    with _lock:
        return sorted(set(_factories) | set(_entry_points))


def create_embedder(name: str, **options: Any) -> Embedder:
    """Build the provider registered as ``name`` with ``options`` (its keyword arguments)."""
    factory = embedder_factory(name)
    try:
        inspect.signature(factory).bind(**options)
    except TypeError as exc:
        raise ConfigError(
            f"Embedding provider {name!r} does not accept these options "
            f"({', '.join(sorted(options)) or 'none'}): {exc}; fix the [embeddings] settings"
        ) from exc
    except ValueError:
        pass  # some callables (C extensions) have no signature; let the call decide
    return factory(**options)


def check_texts(texts: Sequence[str]) -> list[str]:
    """Return ``texts`` as a list, refusing a bare string or non-string items."""
    if isinstance(texts, str | bytes):
        raise InvalidInput("embed_batch takes a sequence of strings, not a single string")
    items = list(texts)
    for index, text in enumerate(items):
        if not isinstance(text, str):
            raise InvalidInput(f"Text {index} to embed is a {text.__class__.__name__}, not a string")
    return items


def check_vectors(embedder: Embedder, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
    """Raise ProviderError unless there is one vector of the right length per text."""
    if len(vectors) != len(texts):
        raise ProviderError(
            f"Embedding provider {embedder.model_id} returned {len(vectors)} vectors for {len(texts)} texts"
        )
    for vector in vectors:
        if len(vector) != embedder.dimensions:
            raise ProviderError(
                f"Embedding provider {embedder.model_id} returned a vector of length "
                f"{len(vector)}, expected {embedder.dimensions}"
            )


def iter_batches(items: Sequence[_Item], size: int) -> Iterator[Sequence[_Item]]:
    """Yield consecutive slices of ``items`` holding at most ``size`` items each."""
    if size < 1:
        raise ConfigError(f"Embedding batch size must be at least 1, not {size}")
    for start in range(0, len(items), size):
        yield items[start : start + size]


def embedder_factory(name: str) -> EmbedderFactory:
    """The factory registered (or installed) under ``name``; ConfigError if there is none."""
    _discover()
    with _lock:
        factory = _factories.get(name)
        entry_point = _entry_points.get(name)
    if factory is not None:
        return factory
    if entry_point is None:
        raise ConfigError(
            f"Unknown embedding provider {name!r}; known providers: "
            f"{', '.join(available_embedders()) or 'none'}. Set provider under [embeddings] "
            "to one of them, or install the package that provides it"
        )
    loaded = _load_entry_point(entry_point)
    with _lock:
        # A provider registered by hand while we loaded wins over the entry point.
        return _factories.setdefault(name, loaded)


def _load_entry_point(entry_point: EntryPoint) -> EmbedderFactory:
    try:
        loaded: object = entry_point.load()
    except (ImportError, AttributeError) as exc:
        raise ProviderUnavailable(
            f"Cannot load embedding provider {entry_point.name!r} from "
            f"{entry_point.value} ({exc}); reinstall the package that provides it"
        ) from exc
    if not callable(loaded):
        raise ConfigError(
            f"Entry point {entry_point.name!r} in group {ENTRY_POINT_GROUP} points at "
            f"{entry_point.value}, which is not callable"
        )
    factory: EmbedderFactory = loaded
    return factory


def _discover() -> None:
    """Register the built-in providers and read the entry points, once per process."""
    global _discovered
    with _lock:
        if _discovered:
            return
        # Set first: the built-in modules call register_embedder, which comes back here.
        _discovered = True
        try:
            # Imported here, not at the top, because the built-in modules import this one.
            from reverie.embed import local, remote  # noqa: F401

            for entry_point in entry_points(group=ENTRY_POINT_GROUP):
                _entry_points.setdefault(entry_point.name, entry_point)
        except BaseException:
            _discovered = False
            raise


__all__ = [
    "ENTRY_POINT_GROUP",
    "Embedder",
    "EmbedderFactory",
    "TokenCounter",
    "available_embedders",
    "check_texts",
    "check_vectors",
    "create_embedder",
    "embedder_factory",
    "iter_batches",
    "register_embedder",
]
