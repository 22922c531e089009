"""A user's own documents travel in their export and come back, searchable, within the quota (both engines).

The shared documents (the household's folder) never leave in a user's export.
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Clock
from docfiles import write_docx
from fastapi.testclient import TestClient

from reverie import Memory, Settings, load_settings
from reverie.errors import InvalidInput, TooLarge
from reverie.server import create_app
from tests.apiauth import auth_headers

API = "/api/v1"
SHARED = "# Boiler\n\nThe boiler pressure should stay between 1 and 1.5 bar.\n"
BOAT = "# Bob's boat\n\nThe zanzibar mooring code for the boiler room of my boat is 4471.\n"
QUESTION = "What is the zanzibar mooring code of the boiler room?"


def _settings(tmp_path: Path, name: str, quota_mb: str = "50", file_mb: str = "10", **more: str) -> Settings:
    """A Reverie of its own (home, database and documents folder) under ``tmp_path / name``."""
    return load_settings(
        home=tmp_path / name / "home",
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / name / "documents"),
            "REVERIE_RAG__USER_QUOTA_MB": quota_mb,
            "REVERIE_RAG__MAX_DOCUMENT_SIZE_MB": file_mb,
            **more,
        },
    )


def _bobs_export(tmp_path: Path, clock: Clock) -> dict[str, Any]:
    """Bob's export from a household whose shared folder holds the boiler notes."""
    settings = _settings(tmp_path, "old")
    folder = Path(settings.rag.documents_dir)
    folder.mkdir(parents=True)
    (folder / "boiler.md").write_text(SHARED, encoding="utf-8")
    manual = write_docx(
        tmp_path / "lathe.docx", [("heading1", "Lathe"), ("para", "Oil the quill every week.")]
    )
    with Memory(settings, clock=clock) as root:
        bob = root.add_user("bob")
        root.documents.scan()
        root.documents.upload(bob.id, "boat.md", BOAT.encode())
        root.documents.upload(bob.id, "lathe.docx", manual.read_bytes())
        root.for_user("bob").remember("User keeps the boat at Pier 4")
        return root.for_user("bob").export()


def test_export_carries_the_users_uploads_and_never_the_shared_documents(
    tmp_path: Path, clock: Clock
) -> None:
    doc = _bobs_export(tmp_path, clock)
    assert doc["version"] == 2
    assert [(d["file_name"], d["file_type"]) for d in doc["documents"]] == [
        ("boat.md", "md"),
        ("lathe.docx", "docx"),
    ]
    assert base64.b64decode(doc["documents"][0]["content_base64"]) == BOAT.encode()
    assert "boiler" not in json.dumps(doc["documents"]).lower()


def test_export_import_into_a_fresh_store_gives_the_same_documents_searchable(
    tmp_path: Path, clock: Clock
) -> None:
    first = _bobs_export(tmp_path, clock)
    with Memory(_settings(tmp_path, "new"), clock=clock) as root:
        root.add_user("bob")
        bob = root.for_user("bob")
        counts = bob.import_(copy.deepcopy(first))
        assert counts["documents"] == 2 and counts["memories"] == 1
        assert bob.export() == first
        assert "4471" in bob.search_documents(QUESTION)[0].text
        assert any("quill" in hit.text for hit in bob.search_documents("how often to oil the quill"))
        carol = root.for_user(root.add_user("carol").name)
        assert all("4471" not in hit.text for hit in carol.search_documents(QUESTION))
        # The same document again adds nothing: the user holds those names already.
        assert bob.import_(copy.deepcopy(first))["documents"] == 0
        assert bob.export() == first


def test_an_import_past_the_quota_is_refused_whole_and_loses_nothing(tmp_path: Path, clock: Clock) -> None:
    first = _bobs_export(tmp_path, clock)
    with Memory(_settings(tmp_path, "small", quota_mb="0.001"), clock=clock) as root:  # 1048 bytes
        user = root.add_user("bob")
        bob = root.for_user("bob")
        bob.remember("User sails on Sundays")
        root.documents.upload(user.id, "sails.md", b"# Sails\n\nThe jib is blue.\n")
        before = bob.export()
        with pytest.raises(TooLarge, match=r"user_quota_mb = 0.001 MB\. Nothing was imported"):
            bob.import_(copy.deepcopy(first))
        assert bob.export() == before  # not the memory, not a file: nothing added, nothing lost
        assert sorted(p.name for p in root.documents.user_folder(user.id).iterdir()) == ["sails.md"]


def test_an_import_checks_each_file_before_writing_anything(tmp_path: Path, clock: Clock) -> None:
    first = _bobs_export(tmp_path, clock)
    with Memory(_settings(tmp_path, "strict", file_mb="0.0001"), clock=clock) as root:  # 104 bytes a file
        root.add_user("bob")
        bob = root.for_user("bob")
        with pytest.raises(TooLarge, match=r"documents\[1\] \(lathe.docx\).*max_document_size_mb"):
            bob.import_(copy.deepcopy(first))
        damaged = copy.deepcopy(first)
        damaged["documents"][0]["content_base64"] = base64.b64encode(b"other bytes").decode()
        with pytest.raises(InvalidInput, match="damaged"):
            bob.import_(damaged)
        escaping = copy.deepcopy(first)
        escaping["documents"][0]["file_name"] = "../boat.md"
        with pytest.raises(InvalidInput, match=r"documents\[0\]"):
            bob.import_(escaping)
        assert bob.export()["memories"] == [] and bob.export()["documents"] == []


def test_the_http_export_and_import_carry_documents_past_one_mebibyte(tmp_path: Path, clock: Clock) -> None:
    # Keywords only: embedding a megabyte twice would only slow the test down.
    settings = _settings(tmp_path, "web", quota_mb="3", REVERIE_EMBEDDINGS__ENABLED="false")
    big = ("The zanzibar mooring code is 4471.\n" + "Rope and sail notes. " * 40 + "\n\n") * 1500
    assert 1024 * 1024 < len(big) < 2 * 1024 * 1024
    bob = auth_headers(settings, "bob")
    json_bob = {**bob, "Content-Type": "application/json"}
    with TestClient(create_app(settings, clock=clock)) as client:
        made = client.post(f"{API}/documents/upload", params={"name": "log.txt"}, content=big, headers=bob)
        assert made.status_code == 201, made.text
        exported = client.get(f"{API}/export", headers=bob)
        document = exported.json()
        assert [d["file_name"] for d in document["documents"]] == ["log.txt"]
        assert client.delete(f"{API}/documents/{made.json()['id']}", headers=bob).status_code == 200
        restored = client.post(f"{API}/import", content=exported.content, headers=json_bob)
        assert restored.status_code == 200, restored.text
        assert restored.json()["documents"] == 1
        assert (
            "4471" in client.get(f"{API}/documents/search", params={"q": "zanzibar code"}, headers=bob).text
        )


def test_an_import_over_its_body_limit_is_413_naming_the_quota(tmp_path: Path, clock: Clock) -> None:
    settings = _settings(tmp_path, "tight", quota_mb="0.001", REVERIE_EMBEDDINGS__ENABLED="false")
    headers = {**auth_headers(settings, "bob"), "Content-Type": "application/json"}

    def streamed() -> Iterator[bytes]:  # no Content-Length: the streamed body is counted
        yield b'{"format": "reverie-export", "version": 2, "memories": [], "pad": "'
        for _ in range(18):
            yield b"a" * 65_536
        yield b'"}'

    with TestClient(create_app(settings, clock=clock)) as client:
        refused = client.post(f"{API}/import", content=streamed(), headers=headers)
        assert refused.status_code == 413 and "user_quota_mb = 0.001 MB" in refused.json()["detail"]
        assert "reverie import FILE" in refused.json()["detail"]
