"""Uploads and imports racing for one user's document quota: together they never pass it.

Each test starts uploads (or an import and an upload) at the same moment that would pass
``rag.user_quota_mb`` together though each fits alone. One wins; the other is refused with a
413 that names the quota, and the user's documents stay within it: in one server (threads over
its HTTP API) and across processes (each its own Memory over the same database), on both engines.
"""

from __future__ import annotations

import base64
import copy
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from reverie import Memory, load_settings
from reverie.server import create_app
from reverie.store.base import DocumentFile
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.engines import store_env

API = "/api/v1"
QUOTA_MB = "0.02"  # 20,971 bytes
QUOTA = int(float(QUOTA_MB) * 1024 * 1024)


def _note(title: str, size: int) -> bytes:
    """A Markdown note of about ``size`` bytes, many sentences long (several chunks to embed)."""
    words = " ".join(
        f"{title} line {i} says the valve was checked on day {i} of the season." for i in range(400)
    )
    return f"# {title}\n\n{words}".encode()[:size]


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
        "REVERIE_RAG__USER_QUOTA_MB": QUOTA_MB,
        **store_env(tmp_path / "home"),
    }


def _at_once(*calls: Any) -> list[Any]:
    """Run the calls on threads released together; their results in order."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def _owned(home: Path, env: dict[str, str]) -> int:
    with Memory(load_settings(home=home, environ=env)) as memory:
        user = memory.store.get_user("bob")
        assert user is not None
        return memory.store.owned_bytes(user.id)


def test_two_uploads_at_once_over_http_one_gets_413(tmp_path: Path, clock: Clock) -> None:
    env = _env(tmp_path)
    settings = load_settings(home=tmp_path / "home", environ=env)
    bob = auth_headers(settings, "bob")
    first, second = _note("Boiler", 12_000), _note("Garage", 12_000)  # each fits; both do not
    with TestClient(create_app(settings, clock=clock)) as client:

        def upload(name: str, data: bytes) -> Any:
            return client.post(f"{API}/documents/upload", params={"name": name}, content=data, headers=bob)

        answers = _at_once(lambda: upload("boiler.md", first), lambda: upload("garage.md", second))
        assert sorted(a.status_code for a in answers) == [201, 413], [a.text for a in answers]
        loser = next(a for a in answers if a.status_code == 413)
        assert "user_quota_mb" in loser.json()["detail"] and "in use" in loser.json()["detail"]
        mine = [d for d in client.get(f"{API}/documents", headers=bob).json()["documents"] if not d["shared"]]
        assert len(mine) == 1
    assert _owned(tmp_path / "home", env) <= QUOTA
    files = list((tmp_path / "documents" / ".users").rglob("*.md"))
    assert len(files) == 1, "the refused upload left no file behind"


def test_an_import_racing_an_upload_stays_within_the_quota(tmp_path: Path, clock: Clock) -> None:
    env = _env(tmp_path)
    settings = load_settings(home=tmp_path / "home", environ=env)
    bob = auth_headers(settings, "bob")
    carried = _note("Boat", 12_000)
    with TestClient(create_app(settings, clock=clock)) as client:
        exported = client.get(f"{API}/export", headers=bob).json()
        exported["documents"] = [
            {"file_name": "boat.md", "content_base64": base64.b64encode(carried).decode()}
        ]

        def import_() -> Any:
            return client.post(f"{API}/import", json=copy.deepcopy(exported), headers=bob)

        def upload() -> Any:
            data = _note("Garden", 12_000)
            return client.post(
                f"{API}/documents/upload", params={"name": "garden.md"}, content=data, headers=bob
            )

        answers = _at_once(import_, upload)
        assert sorted(a.status_code for a in answers) == [200, 413] or sorted(
            a.status_code for a in answers
        ) == [201, 413], [a.text for a in answers]
        loser = next(a for a in answers if a.status_code == 413)
        assert "user_quota_mb" in loser.json()["detail"]
    assert _owned(tmp_path / "home", env) <= QUOTA


_UPLOADER = """
import os, sys, time
from pathlib import Path
from reverie import Memory, load_settings
from reverie.errors import TooLarge
home, source, ready, go = sys.argv[1:5]
data = Path(source).read_bytes()
with Memory(load_settings(home=home, environ=dict(os.environ))) as memory:
    user = memory.store.get_user("bob")
    memory.embeddings.embed(["warm up the model"]) if memory.embeddings else None
    Path(ready).touch()
    while not Path(go).exists():
        time.sleep(0.001)
    try:
        memory.documents.upload(user.id, Path(source).name, data)
        print("stored")
    except TooLarge as exc:
        print("413", exc)
"""


def test_uploads_from_two_processes_at_once_stay_within_the_quota(tmp_path: Path) -> None:
    env = _env(tmp_path)
    home = tmp_path / "home"
    with Memory(load_settings(home=home, environ=env)) as memory:
        memory.add_user("bob")
    go = tmp_path / "go"
    procs, ready = [], []
    for title in ("Boiler", "Garage"):
        source = tmp_path / f"{title.lower()}.md"
        source.write_bytes(_note(title, 12_000))
        flag = tmp_path / f"ready-{title}"
        ready.append(flag)
        command = [sys.executable, "-c", _UPLOADER, str(home), str(source), str(flag), str(go)]
        procs.append(
            subprocess.Popen(
                command, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        )
    try:
        deadline = time.monotonic() + 120
        while not all(flag.exists() for flag in ready):
            assert time.monotonic() < deadline and all(p.poll() is None for p in procs), "a worker died"
            time.sleep(0.01)
        go.touch()  # both processes upload now
        outputs = [p.communicate(timeout=120) for p in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    said = sorted(out.decode().split()[0] for out, _ in outputs if out)
    assert said == ["413", "stored"], outputs
    assert any(b"user_quota_mb" in out for out, _ in outputs)
    assert _owned(home, env) <= QUOTA


def test_a_held_quota_makes_the_second_check_wait_for_the_first_write(tmp_path: Path) -> None:
    """The store's part, timed by hand: while one transaction holds bob's quota between its
    check and its write, another's check waits, then counts what the first one wrote."""
    with Memory(load_settings(home=tmp_path / "home", environ=_env(tmp_path))) as memory:
        store = memory.store
        bob = memory.add_user("bob")
        checked, wrote = threading.Event(), threading.Event()
        seen: list[int] = []

        def first() -> None:
            with store.transaction():
                assert store.hold_document_quota(bob.id) == 0
                checked.set()
                time.sleep(0.5)  # the other check comes now, and must wait
                file = DocumentFile("/u/a.md", "a.md", "markdown", "h1", 12_000, owner_id=bob.id)
                store.save_document(file, status="indexed", reason="", chunks=(), model_id="", now=1.0)
                wrote.set()

        def second() -> None:
            assert checked.wait(30)
            with store.transaction():
                seen.append(store.hold_document_quota(bob.id))
                seen.append(int(wrote.is_set()))

        _at_once(first, second)
        assert seen == [12_000, 1], "the second check waited for the first write and counted it"
