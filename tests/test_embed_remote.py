"""HTTP embedding providers, the embedding service and Memory, against the fake model server.

``post_json`` waits ``backoff * 2**(attempt-1)`` between attempts and the embedders use the
default backoff of 0.5 s, so each embedder call that exhausts its retries costs 1.5 s: the
retry logic itself is exercised through ``post_json`` with a tiny backoff.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fakeserver
import numpy as np
import pytest
from conftest import Clock
from fakeserver import FakeModelServer

from reverie import Memory, Settings, load_settings
from reverie.embed.remote import OllamaEmbedder, OpenAICompatibleEmbedder, OpenAIEmbedder
from reverie.embed.service import EmbeddingService, embedder_from_settings, embedding_models
from reverie.errors import ConfigError, ProviderError, ProviderUnavailable
from reverie.net import post_json
from reverie.store import open_store
from reverie.store.base import Store

fake_server = fakeserver.fake_server  # the fixture (tests/conftest.py may provide it instead)
HINT = "start the fake"


def _settings(home: Path, server: FakeModelServer, **extra: str) -> Settings:
    environ = {
        "REVERIE_EMBEDDINGS__PROVIDER": "ollama",
        "REVERIE_EMBEDDINGS__ENDPOINT": server.url,
        "REVERIE_EMBEDDINGS__MODEL": "fake-embed",
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        **{f"REVERIE_{name.upper()}": value for name, value in extra.items()},
    }
    return load_settings(home=home, environ=environ)


@pytest.fixture
def store(tmp_path: Path, fake_server: FakeModelServer) -> Iterator[Store]:
    opened = open_store(_settings(tmp_path, fake_server))
    yield opened
    opened.close()


def _post(server: FakeModelServer, path: str = "/api/embed", **options: Any) -> Any:
    return post_json(
        f"{server.url}{path}", {"model": "m", "input": ["x"]}, what="the fake", hint=HINT, **options
    )


def _sizes(server: FakeModelServer, path: str = "/api/embed") -> list[int]:
    return [len(r.body["input"]) for r in server.requests_to(path)]


# providers ------------------------------------------------------------------------------
def test_ollama_vectors_come_back_in_order_in_batches_of_64(fake_server: FakeModelServer) -> None:
    texts = [f"note number {i} about topic {i % 7}" for i in range(150)]
    embedder = OllamaEmbedder(fake_server.url + "/", "fake-embed")
    assert embedder.embed_batch(texts) == [fake_server.embed(text) for text in texts]
    assert _sizes(fake_server) == [64, 64, 22]
    assert {r.body["model"] for r in fake_server.requests} == {"fake-embed"}
    assert (embedder.model_id, embedder.dimensions) == ("ollama:fake-embed", 8)
    assert len(fake_server.requests) == 3  # the length came with the first batch: no probe
    assert embedder.embed_batch([]) == [] and len(fake_server.requests) == 3


def test_dimensions_are_probed_once_unless_configured(fake_server: FakeModelServer) -> None:
    fake_server.model_dimensions["wide"] = 24
    embedder = OllamaEmbedder(fake_server.url, "wide")
    assert embedder.dimensions == 24 and embedder.dimensions == 24
    assert [r.body for r in fake_server.requests] == [{"model": "wide", "input": ["dimension probe"]}]
    assert OllamaEmbedder(fake_server.url, "wide", dimensions=24).dimensions == 24
    assert len(fake_server.requests) == 1


def test_openai_compatible_sends_the_key_and_finds_v1(fake_server: FakeModelServer) -> None:
    keyed = OpenAICompatibleEmbedder(endpoint=fake_server.url, model="e5", api_key="sk-local")
    assert keyed.embed_batch(["a b", "c"]) == [fake_server.embed("a b"), fake_server.embed("c")]
    anonymous = OpenAICompatibleEmbedder(endpoint=fake_server.url + "/v1/", model="e5")
    assert anonymous.embed_batch(["a"]) == [fake_server.embed("a")]
    first, second = fake_server.requests
    assert first.path == second.path == "/v1/embeddings"
    assert first.body == {"model": "e5", "input": ["a b", "c"]}
    assert first.headers["authorization"] == "Bearer sk-local"
    assert "authorization" not in second.headers
    assert keyed.model_id == "openai_compatible:e5"
    with pytest.raises(ConfigError, match="model"):
        OpenAICompatibleEmbedder(endpoint=fake_server.url)


def test_openai_needs_an_api_key_and_sends_it(tmp_path: Path, fake_server: FakeModelServer) -> None:
    with pytest.raises(ConfigError, match="api_key"):
        OpenAIEmbedder(endpoint=fake_server.url)
    embedder = OpenAIEmbedder(endpoint=fake_server.url, api_key="sk-test")
    assert embedder.embed_batch(["hello"]) == [fake_server.embed("hello")]
    (request,) = fake_server.requests
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.body["model"] == "text-embedding-3-small"
    assert embedder.model_id == "openai:text-embedding-3-small"
    environ = {"REVERIE_EMBEDDINGS__PROVIDER": "openai", "REVERIE_EMBEDDINGS__MODEL": ""}
    with pytest.raises(ConfigError, match="api_key"):
        embedder_from_settings(load_settings(home=tmp_path, environ=environ))


def test_down_is_unavailable_naming_the_endpoint_and_what_to_do(fake_server: FakeModelServer) -> None:
    fake_server.mode = "down"
    embedder = OllamaEmbedder(fake_server.url, "fake-embed", timeout_seconds=0.3)
    with pytest.raises(ProviderUnavailable) as caught:
        embedder.embed_batch(["hello"])
    assert f"Cannot reach Ollama at {fake_server.url}" in str(caught.value)
    assert "ollama serve" in str(caught.value) and 'provider = "local"' in str(caught.value)


def test_slow_beyond_the_timeout_is_unavailable(fake_server: FakeModelServer) -> None:
    fake_server.set_mode("slow", delay=1.0)
    embedder = OpenAICompatibleEmbedder(endpoint=fake_server.url, model="e5", timeout_seconds=0.3)
    with pytest.raises(ProviderUnavailable, match=r"did not answer within 0\.3 s; check endpoint"):
        embedder.embed_batch(["hello"])
    assert len(fake_server.requests) == 3  # every attempt timed out


def test_embedder_retries_server_errors_with_backoff(fake_server: FakeModelServer) -> None:
    fake_server.fail_times(2, "error", status=500)
    started = time.monotonic()
    assert OllamaEmbedder(fake_server.url, "m").embed_batch(["hi"]) == [fake_server.embed("hi")]
    assert time.monotonic() - started >= 1.5  # 0.5 s then 1 s
    assert len(fake_server.requests) == 3


@pytest.mark.parametrize("status", [429, 500, 503])
def test_post_json_retries_transient_statuses_then_gives_up(
    fake_server: FakeModelServer, status: int
) -> None:
    fake_server.fail_times(2, "error", status=status)
    started = time.monotonic()
    assert _post(fake_server, backoff=0.05)["embeddings"] == [fake_server.embed("x")]
    assert time.monotonic() - started >= 0.15  # 0.05 s then 0.1 s
    fake_server.fail_times(3, "error", status=status)
    with pytest.raises(ProviderUnavailable, match=f"the fake answered HTTP {status}; {HINT}"):
        _post(fake_server, backoff=0.001)
    assert len(fake_server.requests) == 6


def test_post_json_retries_dropped_connections(fake_server: FakeModelServer) -> None:
    fake_server.fail_times(2, "down")
    assert _post(fake_server, backoff=0.001)["embeddings"] == [fake_server.embed("x")]
    fake_server.fail_times(5, "down")
    with pytest.raises(ProviderUnavailable, match=f"Cannot reach the fake .*; {HINT}"):
        _post(fake_server, backoff=0.001, attempts=5)
    assert len(fake_server.requests) == 8


def test_client_errors_are_not_retried(fake_server: FakeModelServer) -> None:
    fake_server.set_mode("error", status=400)
    with pytest.raises(ProviderError, match="answered HTTP 400: .*fake error 400") as caught:
        OllamaEmbedder(fake_server.url, "m").embed_batch(["hi"])
    assert not isinstance(caught.value, ProviderUnavailable)
    assert len(fake_server.requests) == 1


@pytest.mark.parametrize(
    ("provider", "mode", "message"),
    [
        ("ollama", "malformed", "not JSON: <html>"),
        ("ollama", "wrong_shape", "without 'embeddings' vectors"),
        ("openai_compatible", "malformed", "not JSON"),
        ("openai_compatible", "wrong_shape", "without 'data' vectors"),
    ],
)
def test_unusable_replies_are_provider_errors(
    tmp_path: Path, fake_server: FakeModelServer, provider: str, mode: fakeserver.Mode, message: str
) -> None:
    fake_server.set_mode(mode)
    embedder = embedder_from_settings(_settings(tmp_path, fake_server, embeddings__provider=provider))
    with pytest.raises(ProviderError, match=message) as caught:
        embedder.embed_batch(["hi"])
    assert not isinstance(caught.value, ProviderUnavailable)
    assert len(fake_server.requests) == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"embeddings": [[1.0, 0.0], [0.0, 1.0]]}, "returned 2 vectors for 1 texts"),
        ({"embeddings": [["one", "two"]]}, "without 'embeddings' vectors"),
        ({"embeddings": 3}, "without 'embeddings' vectors"),
    ],
)
def test_wrong_vector_counts_and_values_are_provider_errors(
    fake_server: FakeModelServer, body: dict[str, Any], message: str
) -> None:
    fake_server.set_mode("wrong_shape", body=body)
    with pytest.raises(ProviderError, match=message):
        OllamaEmbedder(fake_server.url, "m").embed_batch(["hi"])


def test_wrong_vector_length_is_a_provider_error(fake_server: FakeModelServer) -> None:
    with pytest.raises(ProviderError, match="vector of length 8, expected 16"):
        OllamaEmbedder(fake_server.url, "m", dimensions=16).embed_batch(["hi"])
    embedder = OllamaEmbedder(fake_server.url, "m")
    embedder.embed_batch(["first"])
    fake_server.model_dimensions["m"] = 4  # the server swapped models under us
    with pytest.raises(ProviderError, match="vector of length 4, expected 8"):
        embedder.embed_batch(["second"])
    fake_server.set_mode("wrong_shape", body={"embeddings": [[1.0, 0.0], [1.0, 0.0, 0.0]]})
    with pytest.raises(ProviderError, match="vector of length 3, expected 2"):
        OllamaEmbedder(fake_server.url, "m").embed_batch(["a", "b"])


def test_no_vectors_at_all_is_a_provider_error(fake_server: FakeModelServer) -> None:
    fake_server.set_mode("wrong_shape", body={"embeddings": []})
    with pytest.raises(ProviderError, match="returned 0 vectors for 1 texts"):
        OllamaEmbedder(fake_server.url, "m").embed_batch(["hi"])


# the service and its cache -------------------------------------------------------------
def test_embedder_from_settings_builds_the_named_provider(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    settings = _settings(tmp_path, fake_server, embeddings__timeout_seconds="2.5")
    embedder = embedder_from_settings(settings)
    assert isinstance(embedder, OllamaEmbedder)
    assert (embedder.endpoint, embedder.model, embedder.timeout) == (fake_server.url, "fake-embed", 2.5)
    compatible = embedder_from_settings(
        _settings(tmp_path, fake_server, embeddings__provider="openai_compatible", embeddings__api_key="k")
    )
    compatible.embed_batch(["x"])
    assert fake_server.requests[-1].headers["authorization"] == "Bearer k"


def test_service_normalises_and_deduplicates(fake_server: FakeModelServer) -> None:
    service = EmbeddingService(OllamaEmbedder(fake_server.url, "m"), None)
    fake_server.fail_times(1, "wrong_shape", body={"embeddings": [[3.0, 4.0]]})
    matrix = service.embed(["scaled"])
    assert matrix.dtype == np.float32 and matrix.tolist() == [[pytest.approx(0.6), pytest.approx(0.8)]]
    service = EmbeddingService(OllamaEmbedder(fake_server.url, "m"), None)
    rows = service.embed(["same", "other", "same"])
    assert rows.shape == (3, 8) and np.array_equal(rows[0], rows[2])
    assert fake_server.requests[-1].body["input"] == ["same", "other"]


def test_cache_answers_the_same_text_once_and_counts_hits(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    with Memory(_settings(tmp_path, fake_server)) as memory:
        service = memory.embeddings
        assert service is not None
        first = service.embed_one("User keeps bees")
        second = service.embed_one("User keeps bees")
        assert np.array_equal(first, second) and len(fake_server.requests) == 1
        service.flush()
        assert memory.store.cache_stats() == {"entries": 1, "hits": 1, "misses": 1}
        memory.remember("User sings in a choir")
        memory.remember("User sings in a choir")  # reinforced; the vector comes from the cache
        assert len(fake_server.requests) == 2
        service.flush()
        assert memory.store.cache_stats() == {"entries": 2, "hits": 2, "misses": 2}


def test_cache_off_asks_every_time(tmp_path: Path, fake_server: FakeModelServer) -> None:
    with Memory(_settings(tmp_path, fake_server, embeddings__cache__enabled="false")) as memory:
        assert memory.embeddings is not None
        memory.embeddings.embed_one("again")
        memory.embeddings.embed_one("again")
        memory.embeddings.flush()
        assert len(fake_server.requests) == 2
        assert memory.store.cache_stats() == {"entries": 0, "hits": 0, "misses": 0}


def test_cache_prunes_the_oldest_beyond_max_entries(store: Store, fake_server: FakeModelServer) -> None:
    clock = Clock(1000.0)
    service = EmbeddingService(OllamaEmbedder(fake_server.url, "m"), store, cache_entries=48, clock=clock)
    service.embed([f"old text {i}" for i in range(200)])
    for start in range(0, 56, 8):  # the 256th put, at the end, prunes
        clock.advance(60)
        service.embed([f"new text {i}" for i in range(start, start + 8)])
    assert store.cache_stats()["entries"] == 48
    fake_server.reset()
    service.embed(["new text 55", "new text 8"])
    assert fake_server.requests == []
    service.embed(["new text 7", "old text 199"])
    assert _sizes(fake_server) == [2]


def test_clearing_the_cache_makes_texts_embedded_again(store: Store, fake_server: FakeModelServer) -> None:
    service = EmbeddingService(OllamaEmbedder(fake_server.url, "m"), store, cache_entries=100)
    service.embed(["User keeps bees", "User sings"])
    service.embed(["User keeps bees"])
    service.flush()
    assert store.cache_stats() == {"entries": 2, "hits": 1, "misses": 2}
    assert store.cache_clear() == 2
    service.forget_recent()
    assert store.cache_stats() == {"entries": 0, "hits": 0, "misses": 0}
    fake_server.reset()
    service.embed(["User keeps bees"])
    assert _sizes(fake_server) == [1]


def test_cache_turned_off_and_on_while_running(store: Store, fake_server: FakeModelServer) -> None:
    service = EmbeddingService(OllamaEmbedder(fake_server.url, "m"), store, cache_entries=100)
    service.use_cache(None, 0)
    service.embed(["again"])
    service.embed(["again"])
    assert len(fake_server.requests) == 2 and store.cache_stats()["entries"] == 0
    service.use_cache(store, 100)
    service.embed(["again"])
    service.embed(["again"])
    assert len(fake_server.requests) == 3 and store.cache_stats()["entries"] == 1


def test_models_are_listed_by_the_provider(tmp_path: Path, fake_server: FakeModelServer) -> None:
    settings = _settings(tmp_path, fake_server)
    fake_server.models = ["nomic-embed-text", "all-minilm"]
    assert embedding_models(settings, "ollama", fake_server.url) == ["all-minilm", "nomic-embed-text"]
    assert embedding_models(settings, "openai_compatible", fake_server.url + "/v1") == [
        "all-minilm",
        "nomic-embed-text",
    ]
    assert [r.path for r in fake_server.requests] == ["/api/tags", "/v1/models"]
    with pytest.raises(ProviderUnavailable, match="Cannot reach Ollama at http://127.0.0.1:9"):
        embedding_models(settings, "ollama", "http://127.0.0.1:9")


def test_cache_max_entries_holds_across_short_lived_processes(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    settings = _settings(tmp_path, fake_server, embeddings__cache__max_entries="5")
    for i in range(8):
        with Memory(settings) as memory:
            memory.remember(f"User fact number {i} is distinct")
    with Memory(settings) as memory:
        assert memory.store.cache_stats()["entries"] <= 5


def test_a_fresh_service_answers_cached_texts_without_the_server(
    store: Store, fake_server: FakeModelServer
) -> None:
    EmbeddingService(OllamaEmbedder(fake_server.url, "m"), store).embed_one("cached")
    fake_server.reset()
    fresh = EmbeddingService(OllamaEmbedder(fake_server.url, "m"), store)  # as in a new process
    assert fresh.embed_one("cached").tolist() == pytest.approx(fake_server.embed("cached"))
    assert [r.body["input"] for r in fake_server.requests] == []


# Memory ------------------------------------------------------------------------------
def test_memory_works_by_keyword_while_the_server_is_down_and_reindexes_later(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    fake_server.dimensions = 64
    fake_server.synonyms["apiary"] = "bees"
    settings = _settings(tmp_path, fake_server)
    with Memory(settings) as memory:
        memory.remember("User sings in a community choir")  # embedded while up
        fake_server.mode = "down"
        result = memory.remember("User keeps bees in the back garden")
        assert result.status == "stored"
        assert [hit.memory.text for hit in memory.search("bees").facts] == [result.memory.text]
        assert memory.scope.count_vectors("memory", "ollama:fake-embed") == (1, 2)
        fake_server.mode = "ok"
        assert memory.search("apiary").facts == []  # its vector is still missing
        progress: list[tuple[int, int]] = []
        counts = memory.reindex(progress=lambda done, total: progress.append((done, total)))
        assert counts == {"memory": 1, "summary": 0, "message": 0, "message_window": 0} and progress == [
            (2, 2)
        ]
        assert memory.search("apiary").facts[0].memory.id == result.memory.id
        assert memory.reindex() == {"memory": 0, "summary": 0, "message": 0, "message_window": 0}


@pytest.mark.parametrize("dims_b", [64, 16])
def test_vectors_of_another_model_are_never_compared(
    tmp_path: Path, fake_server: FakeModelServer, dims_b: int
) -> None:
    fake_server.dimensions = 64
    fake_server.model_dimensions["model-b"] = dims_b
    fake_server.synonyms["feline"] = "cat"
    with Memory(_settings(tmp_path, fake_server, embeddings__model="model-a")) as memory:
        cat = memory.remember("User has a cat named Miso").memory
        memory.remember("User restores old motorcycles")
        assert memory.search("feline").facts[0].memory.id == cat.id  # model A finds it by meaning
    with Memory(_settings(tmp_path, fake_server, embeddings__model="model-b")) as memory:
        assert memory.search("feline").facts == []  # model A's vectors are not used
        (hit,) = memory.search("Miso").facts
        assert hit.memory.id == cat.id and hit.score == pytest.approx(0.3)  # keyword share only
        assert memory.reindex() == {"memory": 2, "summary": 0, "message": 0, "message_window": 0}
        assert memory.search("feline").facts[0].memory.id == cat.id
        assert memory.search("Miso").facts[0].score > 0.3


def test_reindex_progress_never_exceeds_the_total(tmp_path: Path, fake_server: FakeModelServer) -> None:
    with Memory(_settings(tmp_path, fake_server)) as memory:
        memory.remember("User lives in Paris", key="home_city")
        memory.remember("User lives in Lyon", key="home_city")  # supersedes Paris, keeps its vector
        fake_server.fail_times(1, "error", status=400)  # fails at once, unlike "down"
        memory.remember("User keeps bees")  # stored without a vector
        progress: list[tuple[int, int]] = []
        memory.reindex(progress=lambda done, total: progress.append((done, total)))
        assert progress and all(done <= total for done, total in progress)
