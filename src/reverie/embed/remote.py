"""Embedding providers over HTTP: Ollama, OpenAI-compatible servers (llama.cpp, vLLM, LM Studio), OpenAI.

Retries, backoff and error translation live once, in :func:`reverie.net.post_json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reverie.embed.base import check_texts, check_vectors, iter_batches, register_embedder
from reverie.errors import ConfigError, ProviderError
from reverie.net import DEFAULT_ATTEMPTS, excerpt, get_json, post_json


def _vectors(reply: Any, key: str, what: str) -> list[list[float]]:
    try:
        if key == "data":
            items = sorted(reply["data"], key=lambda item: item.get("index", 0))
            vectors = [item["embedding"] for item in items]
        else:
            vectors = reply[key]
        return [[float(x) for x in vector] for vector in vectors]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ProviderError(
            f"{what} sent an embedding reply without '{key}' vectors: {excerpt(str(reply))}"
        ) from exc


def _names(reply: Any, key: str, field: str, what: str) -> list[str]:
    try:
        return sorted({str(item[field]) for item in reply[key]})
    except (KeyError, TypeError) as exc:
        raise ProviderError(f"{what} sent a model list without '{key}': {excerpt(str(reply))}") from exc


class _HttpEmbedder:
    """Shared batching, probing of the vector length, and checks for HTTP providers."""

    provider = "http"
    batch_size = 64

    def __init__(
        self,
        endpoint: str,
        model: str,
        timeout_seconds: float,
        dimensions: int | None,
        attempts: int = DEFAULT_ATTEMPTS,
        backoff_seconds: float = 0.5,
    ) -> None:
        if not model:
            raise ConfigError(f"Set model under [embeddings] for the {self.provider} embedding provider")
        self.endpoint = endpoint.rstrip("/")
        self.model = model
        self.timeout = timeout_seconds
        self._dimensions = dimensions
        self.attempts = max(1, attempts)
        self.backoff = max(0.0, backoff_seconds)

    def _post(
        self,
        url: str,
        payload: Mapping[str, Any],
        what: str,
        hint: str,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        return post_json(
            url,
            payload,
            what=what,
            hint=hint,
            headers=headers,
            timeout=self.timeout,
            attempts=self.attempts,
            backoff=self.backoff,
        )

    @property
    def model_id(self) -> str:
        """Provider and model, e.g. ``ollama:nomic-embed-text``."""
        return f"{self.provider}:{self.model}"

    @property
    def dimensions(self) -> int:
        """Vector length, asked of the server once if not configured."""
        if self._dimensions is None:
            self._dimensions = len(self._request(["dimension probe"])[0])
        return self._dimensions

    def embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts in batches."""
        items = check_texts(texts)
        vectors: list[list[float]] = []
        for batch in iter_batches(items, self.batch_size):
            vectors += self._request(list(batch))
        if len(vectors) != len(items):
            raise ProviderError(f"{self.model_id} returned {len(vectors)} vectors for {len(items)} texts")
        if vectors and self._dimensions is None:
            self._dimensions = len(vectors[0])
        check_vectors(self, items, vectors)
        return vectors

    def _request(self, texts: list[str]) -> list[list[float]]:
        raise NotImplementedError


class OllamaEmbedder(_HttpEmbedder):
    """Ollama's ``/api/embed``."""

    provider = "ollama"

    def __init__(
        self,
        endpoint: str = "http://127.0.0.1:11434",
        model: str = "nomic-embed-text",
        timeout_seconds: float = 30.0,
        dimensions: int | None = None,
        attempts: int = DEFAULT_ATTEMPTS,
        backoff_seconds: float = 0.5,
    ) -> None:
        super().__init__(
            endpoint or "http://127.0.0.1:11434",
            model,
            timeout_seconds,
            dimensions,
            attempts,
            backoff_seconds,
        )

    def _request(self, texts: list[str]) -> list[list[float]]:
        what = f"Ollama at {self.endpoint}"
        hint = 'start it with `ollama serve`, or set provider = "local" under [embeddings]'
        reply = self._post(f"{self.endpoint}/api/embed", {"model": self.model, "input": texts}, what, hint)
        return _vectors(reply, "embeddings", what)

    def available_models(self) -> list[str]:
        """The models Ollama has pulled (``/api/tags``)."""
        what = f"Ollama at {self.endpoint}"
        reply = get_json(f"{self.endpoint}/api/tags", what=what, hint="start it with `ollama serve`",
                         timeout=min(self.timeout, 5.0))
        return _names(reply, "models", "name", what)


class OpenAICompatibleEmbedder(_HttpEmbedder):
    """``/v1/embeddings`` as served by llama.cpp, vLLM, LM Studio and OpenAI."""

    provider = "openai_compatible"
    default_endpoint = "http://127.0.0.1:8080"

    def __init__(
        self,
        endpoint: str = "",
        model: str = "",
        timeout_seconds: float = 30.0,
        dimensions: int | None = None,
        api_key: str = "",
        attempts: int = DEFAULT_ATTEMPTS,
        backoff_seconds: float = 0.5,
    ) -> None:
        super().__init__(
            endpoint or self.default_endpoint, model, timeout_seconds, dimensions, attempts, backoff_seconds
        )
        self.api_key = api_key

    def _request(self, texts: list[str]) -> list[list[float]]:
        what = f"the embedding server at {self.endpoint}"
        hint = 'check endpoint under [embeddings], or set provider = "local"'
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        base = self.endpoint if self.endpoint.endswith("/v1") else f"{self.endpoint}/v1"
        reply = self._post(f"{base}/embeddings", {"model": self.model, "input": texts}, what, hint, headers)
        return _vectors(reply, "data", what)

    def available_models(self) -> list[str]:
        """The models the server lists (``/v1/models``)."""
        what = f"the embedding server at {self.endpoint}"
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        base = self.endpoint if self.endpoint.endswith("/v1") else f"{self.endpoint}/v1"
        reply = get_json(f"{base}/models", what=what, hint="check the endpoint", headers=headers,
                         timeout=min(self.timeout, 5.0))
        return _names(reply, "data", "id", what)


class OpenAIEmbedder(OpenAICompatibleEmbedder):
    """OpenAI's hosted embeddings (needs an API key)."""

    provider = "openai"
    default_endpoint = "https://api.openai.com"

    def __init__(
        self,
        endpoint: str = "",
        model: str = "text-embedding-3-small",
        timeout_seconds: float = 30.0,
        dimensions: int | None = None,
        api_key: str = "",
        attempts: int = DEFAULT_ATTEMPTS,
        backoff_seconds: float = 0.5,
    ) -> None:
        if not api_key:
            raise ConfigError(
                'Set api_key under [embeddings] (or REVERIE_EMBEDDINGS__API_KEY) for provider "openai"'
            )
        super().__init__(
            endpoint,
            model or "text-embedding-3-small",
            timeout_seconds,
            dimensions,
            api_key,
            attempts,
            backoff_seconds,
        )


register_embedder("ollama", OllamaEmbedder)
register_embedder("openai_compatible", OpenAICompatibleEmbedder)
register_embedder("openai", OpenAIEmbedder)

__all__ = ["OllamaEmbedder", "OpenAICompatibleEmbedder", "OpenAIEmbedder"]
