"""[memory.voice_speakers] edited over HTTP (the Users page): saved to the config file, in effect at once."""

from __future__ import annotations

import tomllib
from typing import Any

from fastapi.testclient import TestClient

from reverie import Memory, Settings, load_settings
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock

API = "/api/v1"
WS = "/api/v1/sessions/ws"


def _say(ws: Any, content: str) -> dict[str, Any]:
    ws.send_json({"type": "message", "role": "user", "content": content})
    frame: dict[str, Any] = ws.receive_json()
    while frame["type"] == "ready":
        frame = ws.receive_json()
    return frame


def test_an_admin_names_who_else_may_speak_and_this_is_carol_then_works(
    settings: Settings, clock: Clock
) -> None:
    settings.config_file.parent.mkdir(parents=True, exist_ok=True)
    settings.config_file.write_text('[memory]\ntimezone = "UTC"  # ours\n', encoding="utf-8")
    with Memory(settings) as memory:
        for name in ("bob", "carol"):
            memory.add_user(name, display_name=name.capitalize())
    settings.memory.voice_mapping["kitchen"] = "bob"
    admin = auth_headers(settings, "ada", admin=True)
    device = auth_headers(settings, interface="kitchen")
    with TestClient(create_app(settings, clock=clock)) as client:
        with client.websocket_connect(WS, headers=device) as ws:
            assert _say(ws, "This is Carol")["type"] == "ack"  # not one of the kitchen's speakers yet
        saved = client.put(
            f"{API}/interfaces/kitchen/speakers", json={"users": ["carol", " carol"]}, headers=admin
        )
        assert saved.status_code == 200, saved.text
        assert saved.json() == {"speakers": {"kitchen": ["carol"]}}
        assert client.get(f"{API}/interfaces/speakers", headers=admin).json() == saved.json()
        with client.websocket_connect(WS, headers=device) as ws:
            assert _say(ws, "This is Carol") == {"type": "speaker", "user": "carol", "reply": "Hi Carol."}

        unknown = client.put(f"{API}/interfaces/kitchen/speakers", json={"users": ["dave"]}, headers=admin)
        assert unknown.status_code == 404 and "No user named 'dave'" in unknown.json()["detail"]
        odd = client.put(f"{API}/interfaces/back%20door/speakers", json={"users": ["bob"]}, headers=admin)
        assert odd.status_code in (400, 422) and "reverie.toml" in odd.json()["detail"]
        bobs = auth_headers(settings, "bob")
        assert (
            client.put(f"{API}/interfaces/kitchen/speakers", json={"users": []}, headers=bobs).status_code
            == 403
        )
        assert client.get(f"{API}/interfaces/speakers", headers=bobs).status_code == 403

    text = settings.config_file.read_text(encoding="utf-8")
    assert "# ours" in text  # the file is patched, its comments kept
    assert tomllib.loads(text)["memory"]["voice_speakers"] == {"kitchen": ["carol"]}
    reloaded = load_settings(home=settings.home, environ={})
    assert reloaded.memory.voice_speakers == {"kitchen": ["carol"]}
