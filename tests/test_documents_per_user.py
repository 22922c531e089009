"""Documents per user as well as shared: uploads are their owner's alone, at every door, on both engines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from reverie import Memory, Settings, load_settings
from reverie.errors import InvalidInput, TooLarge
from reverie.server import create_app
from reverie.store import open_store
from reverie.store.base import DocumentFile, NewChunk
from reverie.tools.memory_tool import run_tool
from tests.apiauth import auth_headers
from tests.conftest import Clock

API = "/api/v1"

SHARED = "# Boiler\n\nThe boiler pressure should stay between 1 and 1.5 bar.\n"
BOBS = "# Bob's boat\n\nThe zanzibar mooring code for the boiler room of my boat is 4471.\n"
QUESTION = "What is the zanzibar mooring code of the boiler room?"


def _vector(n: float) -> bytes:
    return np.array([n, 0.5, -1.0], dtype="<f4").tobytes()


def test_the_store_returns_shared_documents_and_the_viewers_own_only(settings: Settings) -> None:
    store = open_store(settings)
    try:
        bob = store.add_user("bob", 1.0)
        carol = store.add_user("carol", 1.0)
        saved = {}
        for owner, name in ((None, "shared.md"), (bob.id, "bob.md"), (carol.id, "carol.md")):
            chunk = NewChunk(0, f"zanzibar notes of {name}", "", name, None, 4, _vector(1.0))
            file = DocumentFile(f"/docs/{name}", name, "md", "h", 100, owner_id=owner)
            saved[name] = store.save_document(
                file, status="indexed", reason="", chunks=[chunk], model_id="m", now=5.0
            )
        mine = {"shared.md", "bob.md"}
        assert {doc.file_name for doc in store.list_documents(bob.id)} == mine
        assert {doc.file_name for doc in store.list_documents()} == {"shared.md"}
        assert store.get_document(saved["carol.md"].id, bob.id) is None
        assert store.get_document(saved["bob.md"].id, bob.id) is not None
        hits = [chunk_id for chunk_id, _ in store.search_chunks(["zanzibar"], 10, bob.id)]
        assert {row.file_name for row in store.get_chunks(hits, bob.id)} == mine
        all_ids, _ = store.chunk_vectors("m", carol.id)
        assert {row.file_name for row in store.get_chunks(all_ids, carol.id)} == {"shared.md", "carol.md"}
        assert {row.file_name for row in store.get_chunks(all_ids, bob.id)} == {"shared.md"}
        assert store.document_totals(bob.id)["documents"] == 2
        assert store.owned_bytes(bob.id) == 100 and store.chunk_count() == 3
    finally:
        store.close()


@pytest.fixture
def household(settings: Settings, clock: Clock) -> Iterator[Memory]:
    folder = Path(settings.rag.documents_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "boiler.md").write_text(SHARED, encoding="utf-8")
    root = Memory(settings, clock=clock)
    root.add_user("bob")
    root.add_user("carol")
    root.documents.scan()
    yield root
    root.close()


def test_an_upload_is_searched_by_its_owner_alone_in_search_the_tool_and_the_context(
    household: Memory,
) -> None:
    bob, carol = household.for_user("bob"), household.for_user("carol")
    assert bob.user is not None
    doc = household.documents.upload(bob.user.id, "boat.md", BOBS.encode())
    assert doc.status == "indexed" and doc.owner_id == bob.user.id
    assert Path(doc.path).read_text(encoding="utf-8") == BOBS
    assert "4471" in bob.search_documents(QUESTION)[0].text
    assert all("4471" not in hit.text for hit in carol.search_documents(QUESTION))
    for who, found in ((bob, True), (carol, False)):
        reply = run_tool(who, json.dumps({"device": "documents", "action": "search", "value": QUESTION}))
        assert reply.ok and ("4471" in json.dumps(reply.data)) is found
        assert ("4471" in who.context(QUESTION).text) is found
    # A scan of the shared folder leaves the uploads alone (they are kept in a hidden folder).
    household.documents.scan()
    assert {d.file_name for d in bob.documents.documents(bob.user.id)} == {"boiler.md", "boat.md"}
    assert [d.file_name for d in household.documents.documents()] == ["boiler.md"]


def test_uploads_are_refused_past_the_quota_or_with_a_bad_name(tmp_path: Path, clock: Clock) -> None:
    with Memory(_quota_settings(tmp_path, "0.001"), clock=clock) as root:  # 1048 bytes
        user = root.add_user("bob")
        root.documents.upload(user.id, "a.md", b"x " * 300)
        root.documents.upload(user.id, "a.md", b"y " * 400)  # replacing a file counts it once
        with pytest.raises(TooLarge, match="user_quota_mb"):
            root.documents.upload(user.id, "b.md", b"z " * 200)
        with pytest.raises(InvalidInput):
            root.documents.upload(user.id, "../escape.md", b"hello")
        with pytest.raises(InvalidInput, match="supported"):
            root.documents.upload(user.id, "photo.jpg", b"hello")


def _quota_settings(tmp_path: Path, megabytes: str) -> Settings:
    return load_settings(
        home=tmp_path / "home",
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
            "REVERIE_RAG__USER_QUOTA_MB": megabytes,
        },
    )


def test_the_http_api_uploads_labels_refuses_and_deletes(tmp_path: Path, clock: Clock) -> None:
    settings = _quota_settings(tmp_path, "0.5")
    folder = Path(settings.rag.documents_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "boiler.md").write_text(SHARED, encoding="utf-8")
    bob, carol = auth_headers(settings, "bob"), auth_headers(settings, "carol")
    with TestClient(create_app(settings, clock=clock)) as client:
        client.app.state.memory.documents.scan()  # type: ignore[attr-defined]
        made = client.post(f"{API}/documents/upload", params={"name": "boat.md"}, content=BOBS, headers=bob)
        assert made.status_code == 201, made.text
        doc = made.json()
        assert doc["shared"] is False and doc["status"] == "indexed"
        listing = client.get(f"{API}/documents", headers=bob).json()["documents"]
        assert {(d["file_name"], d["shared"]) for d in listing} == {("boiler.md", True), ("boat.md", False)}
        carols = client.get(f"{API}/documents", headers=carol).json()["documents"]
        assert [d["file_name"] for d in carols] == ["boiler.md"]
        assert "4471" in client.get(f"{API}/documents/search", params={"q": QUESTION}, headers=bob).text
        hidden = client.get(f"{API}/documents/search", params={"q": QUESTION}, headers=carol)
        assert hidden.status_code == 200 and "4471" not in hidden.text
        assert client.get(f"{API}/documents/{doc['id']}", headers=carol).status_code == 404
        assert client.delete(f"{API}/documents/{doc['id']}", headers=carol).status_code == 404
        shared_id = next(d["id"] for d in listing if d["shared"])
        assert client.delete(f"{API}/documents/{shared_id}", headers=bob).status_code == 403
        big = client.post(
            f"{API}/documents/upload", params={"name": "big.txt"}, content=b"w" * 900_000, headers=bob
        )
        assert big.status_code == 413 and "user_quota_mb" in big.json()["detail"]
        assert client.delete(f"{API}/documents/{doc['id']}", headers=bob).status_code == 200
        assert not Path(doc["path"]).exists()
        assert "4471" not in client.get(f"{API}/documents/search", params={"q": QUESTION}, headers=bob).text


def test_removing_a_user_deletes_their_uploads_and_files(household: Memory) -> None:
    bob = household.store.get_user("bob")
    assert bob is not None
    doc = household.documents.upload(bob.id, "boat.md", BOBS.encode())
    household.remove_user("bob")
    assert not Path(doc.path).exists() and not Path(doc.path).parent.exists()
    assert household.store.chunk_count() == household.store.document_totals()["chunks"]
    assert all("4471" not in hit.text for hit in household.search_documents(QUESTION))


def test_an_upload_may_be_as_large_as_max_document_size_mb_and_no_larger(
    tmp_path: Path, clock: Clock
) -> None:
    # The request body limit (1 MiB for other routes) is not the upload's: the configured size is.
    settings = load_settings(
        home=tmp_path / "home",
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
            "REVERIE_RAG__MAX_DOCUMENT_SIZE_MB": "2",
            "REVERIE_EMBEDDINGS__ENABLED": "false",  # keywords only: the size is what is tested
        },
    )
    headers = {**auth_headers(settings, "bob"), "Content-Type": "application/octet-stream"}
    log = ("The zanzibar mooring code is 4471.\n" + "Rope and sail notes. " * 40 + "\n\n") * 1500
    assert 1024 * 1024 < len(log) < 2 * 1024 * 1024
    with TestClient(create_app(settings, clock=clock)) as client:
        made = client.post(
            f"{API}/documents/upload", params={"name": "log.txt"}, content=log, headers=headers
        )
        assert made.status_code == 201, made.text
        assert made.json()["size_bytes"] == len(log) and made.json()["status"] == "indexed"
        too_big = b"w" * (2 * 1024 * 1024 + 1)
        refused = client.post(
            f"{API}/documents/upload", params={"name": "big.txt"}, content=too_big, headers=headers
        )
        assert refused.status_code == 413
        assert "rag.max_document_size_mb = 2 MB" in refused.json()["detail"]
        assert "upload a smaller file" in refused.json()["detail"]
        names = [d["file_name"] for d in client.get(f"{API}/documents", headers=headers).json()["documents"]]
        assert names == ["log.txt"]
