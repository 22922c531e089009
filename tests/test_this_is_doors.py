"""'This is Alice' on every door a shared voice device speaks through, not only the live session.

The kitchen device (a device token) is mapped to bob; alice may also speak there, carol may
not. Whichever door carries "This is Alice" (``/chat/text``, ``/chat/audio`` after
transcription, the OpenAI-compatible proxy), the turn is not recorded, no model is asked, and
the device's next turns, through any door, are Alice's until the kitchen is silent for the
session timeout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reverie import Memory, Settings
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, chat_settings_for

UPSTREAM = "/v1/chat/completions"
WS = "/api/v1/sessions/ws"


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    """A running fake model server that chats and transcribes."""
    with FakeModelServer() as server:
        yield server


@pytest.fixture
def kitchen(settings: Settings, fake: FakeModelServer, clock: Clock) -> Iterator[TestClient]:
    """A client holding the kitchen device's token."""
    with Memory(settings) as memory:
        for name, shown in (("bob", "Bob"), ("alice", "Alice"), ("carol", "Carol")):
            memory.add_user(name, display_name=shown)
    chat_settings_for(settings, fake)
    settings.memory.voice_mapping["kitchen"] = "bob"
    settings.memory.voice_speakers["kitchen"] = ["alice"]
    headers = auth_headers(settings, interface="kitchen")
    with TestClient(create_app(settings, clock=clock), headers=headers) as client:
        yield client


def _turns(settings: Settings, user: str) -> list[str]:
    with Memory(settings, user=user) as memory:
        return [m.content for c in memory.conversations() for m in memory.messages(c.id) if m.role == "user"]


def _text(client: TestClient, text: str) -> dict[str, Any]:
    answer = client.post("/chat/text", json={"text": text})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _audio(client: TestClient, spoken: str) -> dict[str, Any]:
    answer = client.post("/chat/audio", content=spoken.encode(), headers={"Content-Type": "audio/wav"})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _proxy(client: TestClient, text: str, *, stream: bool = False) -> str:
    body = {"model": "reverie", "messages": [{"role": "user", "content": text}], "stream": stream}
    answer = client.post("/v1/chat/completions", json=body)
    assert answer.status_code == 200, answer.text
    if not stream:
        return str(answer.json()["choices"][0]["message"]["content"])
    events = [line[6:] for line in answer.text.splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    pieces = [json.loads(e)["choices"][0]["delta"].get("content") or "" for e in events[:-1]]
    return "".join(pieces)


def test_chat_text_switches_to_alice_and_back(
    kitchen: TestClient, settings: Settings, fake: FakeModelServer
) -> None:
    assert _text(kitchen, "Set a timer for the pasta")["speaker"] is None
    asked = len(fake.requests_to(UPSTREAM))
    switched = _text(kitchen, "This is Alice")
    assert switched["text"] == "Hi Alice." and switched["speaker"] == "alice"
    assert switched["conversation_id"] is None and switched["message_id"] is None
    assert len(fake.requests_to(UPSTREAM)) == asked, "no model is asked for the switch"
    _text(kitchen, "I am allergic to shellfish")
    assert _text(kitchen, "hi, it's bob here")["speaker"] == "bob"
    _text(kitchen, "Turn the oven off")
    assert _turns(settings, "alice") == ["I am allergic to shellfish"]
    assert sorted(_turns(settings, "bob")) == ["Set a timer for the pasta", "Turn the oven off"]
    bob = Memory(settings, user="bob")
    with bob:
        assert all(c.ended_at is not None for c in bob.conversations()[1:]), "bob's talk before alice ended"


def test_chat_audio_switches_after_transcription(kitchen: TestClient, settings: Settings) -> None:
    switched = _audio(kitchen, "This is Alice.")
    assert switched["transcript"] == "This is Alice." and switched["speaker"] == "alice"
    assert switched["text"] == "Hi Alice."
    _audio(kitchen, "My favourite colour is green")
    assert _turns(settings, "alice") == ["My favourite colour is green"]
    assert _turns(settings, "bob") == []


@pytest.mark.parametrize("stream", [False, True])
def test_the_openai_proxy_switches_too(kitchen: TestClient, settings: Settings, stream: bool) -> None:
    assert _proxy(kitchen, "It's Alice here", stream=stream) == "Hi Alice."
    _proxy(kitchen, "Remind me to water the basil", stream=stream)
    assert _turns(settings, "alice") == ["Remind me to water the basil"]
    assert _turns(settings, "bob") == []


def test_a_switch_holds_across_doors_until_the_kitchen_falls_silent(
    kitchen: TestClient, settings: Settings, clock: Clock
) -> None:
    _proxy(kitchen, "This is Alice")
    with kitchen.websocket_connect(WS) as ws:  # the device's live session starts as alice
        ws.send_json({"type": "message", "role": "user", "content": "I moved to Lisbon"})
        frame = ws.receive_json()
        while frame["type"] == "ready":
            frame = ws.receive_json()
        assert frame["type"] == "ack"
    _text(kitchen, "Add olive oil to the list")
    assert sorted(_turns(settings, "alice")) == ["Add olive oil to the list", "I moved to Lisbon"]
    clock.advance(settings.memory.session_timeout_minutes * 60 + 1)
    _text(kitchen, "What time is it?")
    assert _turns(settings, "bob") == ["What time is it?"], "silent past the timeout: bob's again"


def test_only_the_interfaces_users_may_be_named_on_any_door(
    kitchen: TestClient, settings: Settings
) -> None:
    assert _text(kitchen, "This is Carol")["speaker"] is None  # not a kitchen user: an ordinary turn
    assert _proxy(kitchen, "this is great") != "Hi Great."
    assert _audio(kitchen, "It's Carol")["speaker"] is None
    assert sorted(_turns(settings, "bob")) == ["It's Carol", "This is Carol", "this is great"]
    assert _turns(settings, "carol") == []


def test_a_signed_in_user_never_becomes_someone_else(kitchen: TestClient, settings: Settings) -> None:
    carol = auth_headers(settings, "carol")
    answer = kitchen.post("/chat/text", json={"text": "This is Alice"}, headers=carol)
    assert answer.status_code == 200 and answer.json()["speaker"] is None
    assert _turns(settings, "carol") == ["This is Alice"]
    assert _turns(settings, "alice") == []
    _text(kitchen, "Lights on")  # the kitchen itself did not switch
    assert _turns(settings, "bob") == ["Lights on"]
