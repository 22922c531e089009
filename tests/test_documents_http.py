"""The knowledge base over HTTP: a background scan polled to the end, list, search, remove, re-index."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from reverie import load_settings
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.docfiles import GARAGE_MANUAL, write_pdf


def test_scan_poll_search_remove_and_reindex_over_http(tmp_path: Path, clock: Clock) -> None:
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "garage_door_manual.md").write_text(GARAGE_MANUAL, encoding="utf-8")
    write_pdf(
        folder / "boiler.pdf", ["Boiler manual.", "Service the boiler every March.\n\nPressure 1.5 bar."]
    )
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not a pdf")
    settings = load_settings(
        home=tmp_path / "home",
        environ={"REVERIE_RAG__DOCUMENTS_DIR": str(folder), "REVERIE_RAG__REINDEX_ON_STARTUP": "false"},
    )
    admin = auth_headers(settings, "ann", admin=True)
    with TestClient(create_app(settings, clock=clock), headers=admin) as client:
        assert client.get("/api/v1/documents").json() == {"documents": []}
        not_admin = client.post("/api/v1/documents/scan", json={}, headers=auth_headers(settings, "bob"))
        assert not_admin.status_code == 403
        started = client.post("/api/v1/documents/scan", json={})
        assert started.status_code == 202 and started.json()["state"] in ("running", "done")
        deadline = time.monotonic() + 120
        status = client.get("/api/v1/documents/status").json()
        while status["scan"]["state"] == "running" and time.monotonic() < deadline:
            time.sleep(0.1)
            status = client.get("/api/v1/documents/status").json()
        assert status["scan"]["state"] == "done" and status["scan"]["percent"] == 100
        assert status["indexed"] == 2 and status["skipped"] == 1 and status["directory"] == str(folder)

        listing = {doc["file_name"]: doc for doc in client.get("/api/v1/documents").json()["documents"]}
        assert listing["boiler.pdf"]["pages"] == 2 and listing["boiler.pdf"]["chunks"] >= 2
        assert (
            listing["broken.pdf"]["status"] == "skipped"
            and "corrupt" in listing["broken.pdf"]["reason"].lower()
        )

        found = client.get(
            "/api/v1/documents/search", params={"q": "What frequency does my garage door use?"}
        )
        first = found.json()["results"][0]
        assert "315 MHz" in first["text"] and first["location"].endswith("Remote controls")
        pressure = client.get("/api/v1/documents/search", params={"q": "boiler pressure"}).json()["results"][
            0
        ]
        assert pressure["file_name"] == "boiler.pdf" and pressure["location"] == "page 2"

        garage_id = listing["garage_door_manual.md"]["id"]
        removed = client.delete(f"/api/v1/documents/{garage_id}")
        assert removed.status_code == 200 and removed.json()["status"] == "excluded"
        after = client.get("/api/v1/documents/search", params={"q": "garage door frequency"}).json()[
            "results"
        ]
        assert all(hit["file_name"] != "garage_door_manual.md" for hit in after)
        back = client.post(f"/api/v1/documents/{garage_id}/reindex")
        assert back.json()["status"] == "indexed" and back.json()["chunks"] > 0
        assert client.get(f"/api/v1/documents/{garage_id}").json()["file_name"] == "garage_door_manual.md"

        assert client.get("/api/v1/documents/999").status_code == 404
        empty = client.get("/api/v1/documents/search", params={"q": ""})
        assert empty.status_code == 422 and "'q'" in empty.json()["detail"]
        bob = client.get(
            "/api/v1/documents/search", params={"q": "boiler pressure"}, headers=auth_headers(settings, "bob")
        )
        assert bob.json()["results"][0]["file_name"] == "boiler.pdf", "documents are shared by every user"
        speaker = auth_headers(settings, interface="hall_speaker")
        guest = client.get("/api/v1/documents/search", params={"q": "boiler"}, headers=speaker)
        assert guest.status_code == 409


def test_the_server_scans_at_startup_when_configured(tmp_path: Path, clock: Clock) -> None:
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "garage.md").write_text(GARAGE_MANUAL, encoding="utf-8")
    settings = load_settings(home=tmp_path / "home", environ={"REVERIE_RAG__DOCUMENTS_DIR": str(folder)})
    assert settings.rag.reindex_on_startup
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings)) as client:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if client.get("/api/v1/documents/status").json()["scan"]["state"] == "done":
                break
            time.sleep(0.1)
        assert client.get("/api/v1/documents/status").json()["indexed"] == 1
