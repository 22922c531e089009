"""'This is Alice' on a shared voice interface: the live session speaks for Alice, if she may."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reverie import Memory, Settings
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock

WS = "/api/v1/sessions/ws"


@pytest.fixture
def kitchen(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """The kitchen device is mapped to bob; alice may also speak there, carol may not."""
    with Memory(settings) as memory:
        for name, shown in (("bob", "Bob"), ("alice", "Alice"), ("carol", "Carol")):
            memory.add_user(name, display_name=shown)
    settings.memory.voice_mapping["kitchen"] = "bob"
    settings.memory.voice_speakers["kitchen"] = ["alice"]
    with TestClient(create_app(settings, clock=clock)) as client:
        yield client


def _say(ws: Any, content: str) -> dict[str, Any]:
    ws.send_json({"type": "message", "role": "user", "content": content})
    frame: dict[str, Any] = ws.receive_json()
    while frame["type"] == "ready":
        frame = ws.receive_json()
    return frame


def _turns(settings: Settings, user: str) -> list[str]:
    with Memory(settings, user=user) as memory:
        return [m.content for c in memory.conversations() for m in memory.messages(c.id)]


def test_this_is_alice_switches_the_session_to_her(kitchen: TestClient, settings: Settings) -> None:
    with kitchen.websocket_connect(WS, headers=auth_headers(settings, interface="kitchen")) as ws:
        assert _say(ws, "Set a timer for the pasta")["type"] == "ack"
        switched = _say(ws, "This is Alice")
        assert switched == {"type": "speaker", "user": "alice", "reply": "Hi Alice."}
        assert _say(ws, "I am allergic to shellfish")["type"] == "ack"
        assert _say(ws, "hi, it's bob here")["user"] == "bob"
        assert _say(ws, "Turn the oven off")["type"] == "ack"
    assert _turns(settings, "alice") == ["I am allergic to shellfish"]
    assert sorted(_turns(settings, "bob")) == ["Set a timer for the pasta", "Turn the oven off"]


def test_only_the_interfaces_users_may_be_named(kitchen: TestClient, settings: Settings) -> None:
    with kitchen.websocket_connect(WS, headers=auth_headers(settings, interface="kitchen")) as ws:
        assert _say(ws, "This is Carol")["type"] == "ack"  # not a kitchen user: an ordinary turn, still bob's
        assert _say(ws, "this is great")["type"] == "ack"
    assert sorted(_turns(settings, "bob")) == ["This is Carol", "this is great"]
    assert _turns(settings, "carol") == []


def test_a_signed_in_user_cannot_become_someone_else(kitchen: TestClient, settings: Settings) -> None:
    with kitchen.websocket_connect(WS, headers=auth_headers(settings, "carol")) as ws:
        ws.send_json({"type": "hello", "interface": "kitchen"})
        ws.receive_json()
        assert _say(ws, "This is Alice")["type"] == "ack"
    assert _turns(settings, "carol") == ["This is Alice"]
    assert _turns(settings, "alice") == []
