"""The integer model's cache as a user of the machine meets it: where the model is built, who may
open it, which folder is trusted, what a model of another shape says, and what a process leaves
behind when no cache folder can be written.

Written for the mutants of embed/integer.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import reverie
from reverie.embed.integer import integer_model
from reverie.embed.local import MODEL_SHA256, _packaged_model_path

TOOLS = f"ort{version('onnxruntime')}-onnx{version('onnx')}"


def _cached_name(source: Path, sha256: str) -> str:
    return f"{source.stem}-{sha256[:16]}-dynamic-int8-{TOOLS}.onnx"


def _private_folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)
    return path


def _on_another_file_system(tmp_path: Path) -> Path | None:
    """A folder on another file system than ``tmp_path`` (a tmpfs), if the machine has one."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or not os.access(shm, os.W_OK) or shm.stat().st_dev == tmp_path.stat().st_dev:
        return None
    return Path(tempfile.mkdtemp(dir=shm, prefix="reverie-test-"))


def test_the_model_is_built_beside_its_place_in_a_folder_only_its_owner_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Named by the source's sha256 and the tools' versions, so an upgrade of either builds anew;
    built in the cache folder itself, so a temporary folder on another file system (a tmpfs
    ``/tmp``) cannot make the final rename fail."""
    source = _packaged_model_path()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    elsewhere = _on_another_file_system(tmp_path)
    if elsewhere is not None:
        monkeypatch.setattr(tempfile, "tempdir", str(elsewhere))
    try:
        built = integer_model(source, MODEL_SHA256)
    finally:
        if elsewhere is not None:
            shutil.rmtree(elsewhere)
    assert built == tmp_path / "cache" / "reverie" / "models" / _cached_name(source, MODEL_SHA256)
    assert built.parent.stat().st_mode & 0o777 == 0o700
    assert [node.op_type for node in onnx.load(str(built)).graph.node].count("MatMulInteger") > 0


def test_a_cache_folder_others_can_write_is_passed_over_for_the_private_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _packaged_model_path()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "cache" / "reverie" / "models").mkdir(parents=True)
    (tmp_path / "cache" / "reverie" / "models").chmod(0o777)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    own = _private_folder(_private_folder(tmp_path / "tmp" / f"reverie-{os.getuid()}") / "models")
    cached = own / _cached_name(source, MODEL_SHA256)
    cached.write_bytes(b"built earlier by this user")
    assert integer_model(source, MODEL_SHA256) == cached


def test_a_user_cache_under_a_group_writable_folder_is_still_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a umask of 002 the folder made above the cache is group-writable; only the shared
    temporary folder's parent is checked too."""
    source = _packaged_model_path()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    models = _private_folder(tmp_path / "cache" / "reverie" / "models")
    (tmp_path / "cache" / "reverie").chmod(0o775)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    cached = models / _cached_name(source, MODEL_SHA256)
    cached.write_bytes(b"built earlier by this user")
    assert integer_model(source, MODEL_SHA256) == cached
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_file_that_is_no_onnx_model_is_refused_by_name(tmp_path: Path) -> None:
    other = tmp_path / "model.onnx"
    other.write_bytes(b"not an onnx file")
    with pytest.raises(ValueError, match=f"^{other} is not an ONNX model: "):
        integer_model(other, "0" * 64)


def test_an_int8_weight_not_scaled_by_a_product_is_refused_and_nothing_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    scale = numpy_helper.from_array(np.full((2, 2), 0.5, dtype=np.float32), "scale")
    weight = numpy_helper.from_array(np.ones((2, 2), dtype=np.int8), "weight")
    graph = helper.make_graph(
        [
            helper.make_node("Cast", ["weight"], ["weight_f"], to=TensorProto.FLOAT),
            helper.make_node("Add", ["weight_f", "scale"], ["scaled"]),
            helper.make_node("MatMul", ["x", "scaled"], ["y"]),
        ],
        "other_shape",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])],
        initializer=[scale, weight],  # a float tensor first, the int8 weight after it
    )
    source = tmp_path / "other.onnx"
    onnx.save(helper.make_model(graph), str(source))
    with pytest.raises(ValueError, match="^int8 weight weight is read by Cast, Add$"):
        integer_model(source, "1" * 64)
    assert list((tmp_path / "cache" / "reverie" / "models").iterdir()) == []


_ONE_PROCESS = """
import shutil, sys, tempfile
from pathlib import Path
import reverie
from reverie.embed.integer import integer_model
try:
    integer_model(Path(sys.argv[1]), "0" * 64)
except ValueError:
    pass
if sys.argv[2] == "removed early":
    for folder in Path(tempfile.gettempdir()).glob("reverie-model-*"):
        shutil.rmtree(folder)
"""


@pytest.mark.parametrize("ending", ["at exit", "removed early"])
def test_a_model_built_for_one_process_is_removed_when_it_exits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    """No cache folder can be written: the build's folder goes at exit, quietly even if a temporary
    files cleaner took it first."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    (temporary / f"reverie-{os.getuid()}").write_text("a file where the private cache folder would be")
    (tmp_path / "cache").write_text("a file where the user's cache folder would be")
    source = tmp_path / "model.onnx"
    source.write_bytes(b"not an onnx file")
    # The same refusal in this process too (which also lets mutmut map this test to integer_model).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "here"))
    with pytest.raises(ValueError, match="is not an ONNX model"):
        integer_model(source, "0" * 64)
    env = {
        **os.environ,
        "TMPDIR": str(temporary),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHONPATH": str(Path(reverie.__file__).parent.parent),  # the reverie this process imported
    }
    done = subprocess.run(
        [sys.executable, "-c", _ONE_PROCESS, str(source), ending],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert sorted(path.name for path in temporary.iterdir()) == [f"reverie-{os.getuid()}"]
