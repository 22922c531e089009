"""The embedding provider protocol, the shared input checks and the registry of providers.

Providers join the registry by name with :func:`register_embedder`, built-in ones the same way
as outside ones, or come from the ``reverie.embedders`` entry-point group: the entry point's
name is the provider name and its object is the factory (usually the class).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from reverie.errors import ConfigError, InvalidInput, ProviderError
from reverie.registry import Registry

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


@runtime_checkable
class LineTokenCounter(TokenCounter, Protocol):
    """Optional ability: a text's tokens are the sum of its lines' (the tokenizer splits at whitespace first).

    BERT's WordPiece does: the count of lines joined by newlines is the sum of each line's
    count, so a context block, new text every turn, is counted from its lines, which repeat.
    """

    def count_line_tokens(self, line: str) -> int:
        """Number of tokens in one line (no newline in it), without special tokens."""
        ...


@runtime_checkable
class QueryEmbedder(Protocol):
    """Optional ability: embed search queries differently from stored texts (an instruction prefix)."""

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per query, comparable with ``embed_batch``'s vectors of stored texts."""
        ...


@runtime_checkable
class ModelLister(Protocol):
    """Optional ability: name the models the provider's server offers (for the settings page)."""

    def available_models(self) -> list[str]:
        """Model names the server has, sorted; ProviderUnavailable when it cannot be reached."""
        ...


EmbedderFactory = Callable[..., Embedder]


# The built-in providers (local, remote) register themselves; reverie.embed loads them.
embedders: Registry[Embedder] = Registry("embedding provider", ENTRY_POINT_GROUP, None, "[embeddings]")
register_embedder = embedders.register
available_embedders = embedders.names
create_embedder = embedders.create
embedder_factory = embedders.factory


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


__all__ = [
    "embedders",
    "ENTRY_POINT_GROUP",
    "Embedder",
    "EmbedderFactory",
    "LineTokenCounter",
    "ModelLister",
    "QueryEmbedder",
    "TokenCounter",
    "available_embedders",
    "check_texts",
    "check_vectors",
    "create_embedder",
    "embedder_factory",
    "iter_batches",
    "register_embedder",
]
