"""Live sessions over the WebSocket: hello, turns, streamed replies, private, end, silence, bad frames."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from websockets.sync.client import connect

from reverie import Settings
from reverie.server import create_app
from reverie.server.sessions import IDLE_CHECK_SECONDS, MAX_FRAME_BYTES
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, chat_settings_for
from tests.liveserver import live_server

WS = "/api/v1/sessions/ws"
UPSTREAM = "/v1/chat/completions"
FENCE = "<remembered_user_data>"


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    """A running fake model server."""
    with FakeModelServer() as server:
        yield server


@pytest.fixture
def ws_settings(settings: Settings, fake: FakeModelServer) -> Settings:
    """Settings whose [llm] is the fake server; no consolidation worker, so queued stays queued."""
    return chat_settings_for(settings, fake)


@pytest.fixture
def app(ws_settings: Settings, clock: Clock) -> FastAPI:
    """The app on a fresh database, on the test's clock."""
    return create_app(ws_settings, clock=clock)


@pytest.fixture
def client(app: FastAPI, ws_settings: Settings) -> Iterator[TestClient]:
    """A client acting as bob."""
    with TestClient(app, headers=auth_headers(ws_settings, "bob")) as test_client:
        yield test_client


def _conversation(client: TestClient, conversation_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/conversations/{conversation_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _turns(client: TestClient, conversation_id: int) -> list[tuple[str, str]]:
    return [(m["role"], m["content"]) for m in _conversation(client, conversation_id)["messages"]]


def _until(ws: Any, kind: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Frames up to the first of ``kind``: (that frame, the frames before it)."""
    before: list[dict[str, Any]] = []
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind:
            return frame, before
        before.append(frame)


def _say(ws: Any, content: str, **extra: Any) -> dict[str, Any]:
    ws.send_json({"type": "message", "role": "user", "content": content, **extra})
    ack: dict[str, Any] = ws.receive_json()
    if ack["type"] == "ready":  # the implicit hello of a session that did not send one
        ack = ws.receive_json()
    assert ack["type"] == "ack", ack
    return ack


def test_hello_private_before_the_first_message_and_turns_recorded(client: TestClient) -> None:
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "hello", "interface": "webchat", "private": True})
        ready = ws.receive_json()
        assert ready == {
            "type": "ready",
            "conversation_id": None,
            "guest": False,
            "private": True,
            "interface": "webchat",
            "can_reply": True,
        }
        ack = _say(ws, "We booked the dentist for Leo", speaker="Ana")
        assert ack["role"] == "user" and isinstance(ack["message_id"], int)
        ws.send_json({"type": "message", "role": "assistant", "content": "Noted, Thursday at 10."})
        assistant = ws.receive_json()
        assert assistant["type"] == "ack" and assistant["conversation_id"] == ack["conversation_id"]
        conversation_id = ack["conversation_id"]
        found = _conversation(client, conversation_id)
        assert found["private"] is True and found["interface"] == "webchat" and found["ended_at"] is None
        assert [(m["role"], m["content"], m["speaker"]) for m in found["messages"]] == [
            ("user", "We booked the dentist for Leo", "Ana"),
            ("assistant", "Noted, Thursday at 10.", None),
        ]
    assert _conversation(client, conversation_id)["state"] == "skipped"  # private: never extracted


def test_reply_is_streamed_with_memory_in_the_prompt(client: TestClient, fake: FakeModelServer) -> None:
    assert client.post("/api/v1/memories", json={"text": "User is allergic to shellfish"}).status_code == 201
    fake.script_chat(["How about a mushroom risotto tonight?", "Yes, no shellfish at all."])
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "hello", "tools": False, "system": "You are Lo-Bug, a desk robot."})
        assert ws.receive_json()["type"] == "ready"
        ack = _say(ws, "What should I cook?", reply=True)
        reply, deltas = _until(ws, "reply")
        assert len(deltas) > 3 and all(d["type"] == "delta" for d in deltas)
        assert (
            "".join(d["content"] for d in deltas)
            == reply["content"]
            == "How about a mushroom risotto tonight?"
        )
        assert isinstance(reply["message_id"], int) and reply["conversation_id"] == ack["conversation_id"]
        upstream = fake.requests_to(UPSTREAM)[-1].body
        assert upstream["stream"] is True and "tools" not in upstream
        system = upstream["messages"][0]["content"]
        assert system.startswith("You are Lo-Bug") and FENCE in system and "allergic to shellfish" in system
        _say(ws, "Really no prawns?", reply=True)
        second, _ = _until(ws, "reply")
        assert second["content"] == "Yes, no shellfish at all."
        sent = fake.requests_to(UPSTREAM)[-1].body["messages"]
        assert [(m["role"], m["content"]) for m in sent[1:]] == [
            ("user", "What should I cook?"),
            ("assistant", "How about a mushroom risotto tonight?"),
            ("user", "Really no prawns?"),
        ]
    assert _turns(client, ack["conversation_id"]) == [
        ("user", "What should I cook?"),
        ("assistant", "How about a mushroom risotto tonight?"),
        ("user", "Really no prawns?"),
        ("assistant", "Yes, no shellfish at all."),
    ]


def test_reply_runs_memory_tools(client: TestClient, fake: FakeModelServer) -> None:
    call = {"name": "memory_remember", "arguments": {"value": "User's bike is a red Brompton"}}
    fake.script_chat([{"tool_calls": [call]}, "I'll remember your red Brompton."])
    with client.websocket_connect(WS) as ws:
        _say(ws, "My bike is a red Brompton", reply=True)  # no hello: the defaults apply
        reply, deltas = _until(ws, "reply")
        assert reply["content"] == "I'll remember your red Brompton."
        assert len(deltas) == 5  # the answer after the memory functions streams word by word
    facts = client.get("/api/v1/search", params={"q": "Brompton"}).json()["facts"]
    assert [f["text"] for f in facts] == ["User's bike is a red Brompton"]


def test_private_toggle_mid_session(client: TestClient) -> None:
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "private", "value": True})
        assert ws.receive_json()["type"] == "ready"  # implicit hello first
        assert ws.receive_json() == {"type": "private", "value": True, "conversation_id": None}
        conversation_id = _say(ws, "Secret plans for Ana's birthday")["conversation_id"]
        assert _conversation(client, conversation_id)["private"] is True
        ws.send_json({"type": "private", "value": False})
        assert ws.receive_json() == {"type": "private", "value": False, "conversation_id": conversation_id}
        assert _conversation(client, conversation_id)["private"] is False
        ws.send_json({"type": "private", "value": True})
        assert ws.receive_json()["value"] is True
        assert _conversation(client, conversation_id)["private"] is True
        ws.send_json({"type": "private", "value": "yes"})
        assert ws.receive_json()["error"] == "invalid_input"


def test_closing_the_socket_ends_the_session_and_queues_it(client: TestClient, ws_settings: Settings) -> None:
    with client.websocket_connect(WS) as ws:
        conversation_id = _say(ws, "I started learning Portuguese")["conversation_id"]
        assert _conversation(client, conversation_id)["ended_at"] is None
    ended = _conversation(client, conversation_id)
    assert ended["ended_at"] is not None and ended["state"] == "pending"
    admin = auth_headers(ws_settings, "root", admin=True)
    jobs = client.post("/api/v1/consolidate", headers=admin).json()["jobs"]
    assert [job["conversation_id"] for job in jobs] == [conversation_id]


def test_silence_ends_the_session_and_the_socket_stays_open(client: TestClient, clock: Clock) -> None:
    with client.websocket_connect(WS) as ws:
        first = _say(ws, "Remind me about the plumber")["conversation_id"]
        clock.advance(16 * 60)  # past session_timeout_minutes (15)
        started = time.monotonic()
        ended = ws.receive_json()
        assert time.monotonic() - started < IDLE_CHECK_SECONDS + 5
        assert ended == {"type": "ended", "reason": "timeout", "conversation_id": first, "state": "pending"}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        second = _say(ws, "Another thing")["conversation_id"]
        assert second != first
    assert _conversation(client, first)["state"] == "pending"
    assert _turns(client, second) == [("user", "Another thing")]


def test_end_frame_ends_the_conversation(client: TestClient) -> None:
    with client.websocket_connect(WS) as ws:
        first = _say(ws, "Let's plan the garden")["conversation_id"]
        ws.send_json({"type": "end"})
        assert ws.receive_json() == {
            "type": "ended",
            "reason": "end",
            "conversation_id": first,
            "state": "pending",
        }
        second = _say(ws, "New topic")["conversation_id"]
        assert second != first
        ws.send_json({"type": "end"})
        assert ws.receive_json()["conversation_id"] == second
        ws.send_json({"type": "end"})
        assert ws.receive_json() == {"type": "ended", "reason": "end", "conversation_id": None, "state": None}


def test_bad_frames_get_error_frames_and_the_socket_stays_open(client: TestClient) -> None:
    with client.websocket_connect(WS) as ws:
        cases: list[tuple[str | bytes, str]] = [
            ("{not json", "invalid_json"),
            ("[1, 2]", "invalid_input"),
            (json.dumps({"type": "dance"}), "unknown_type"),
            (json.dumps({"type": "message", "role": "system", "content": "x"}), "invalid_input"),
            (json.dumps({"type": "message", "role": "user", "content": ""}), "invalid_input"),
            (json.dumps({"type": "message", "role": "user", "content": 42}), "invalid_input"),
            (
                json.dumps({"type": "message", "role": "assistant", "content": "x", "reply": True}),
                "invalid_input",
            ),
            (json.dumps({"type": "message", "role": "user", "content": "x" * (70 * 1024)}), "too_large"),
            ("x" * (MAX_FRAME_BYTES + 1), "too_large"),
            (b'{"type": "ping"}', "invalid_input"),
            (json.dumps({"type": "hello"}), "invalid_input"),  # after the implicit hello
        ]
        for frame, code in cases:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            answer = ws.receive_json()
            if answer["type"] == "ready":  # the implicit hello, before the first well-formed frame
                answer = ws.receive_json()
            assert answer["type"] == "error" and answer["error"] == code, (frame[:80], answer)
            assert answer["detail"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        assert _say(ws, "Still here")["message_id"]


def test_context_frame(client: TestClient) -> None:
    assert client.post("/api/v1/memories", json={"text": "User keeps bees in the garden"}).status_code == 201
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
        ws.send_json({"type": "context", "query": "what about the bees?"})
        block = ws.receive_json()
        assert block["type"] == "context" and FENCE in block["text"] and "bees" in block["text"]
        assert 0 < block["tokens"] <= block["budget"]


def test_guest_gets_replies_and_nothing_is_kept(
    client: TestClient, fake: FakeModelServer, ws_settings: Settings
) -> None:
    assert client.post("/api/v1/memories", json={"text": "User is allergic to shellfish"}).status_code == 201
    fake.script_chat(["Hello there, visitor."])
    guest = auth_headers(ws_settings, interface="garage")
    with client.websocket_connect(WS, headers=guest) as ws:
        ws.send_json({"type": "hello"})
        ready = ws.receive_json()
        assert ready["guest"] is True and ready["interface"] == "garage"
        ack = _say(ws, "What am I allergic to?", reply=True)
        assert ack["message_id"] is None and ack["conversation_id"] is None
        reply, _ = _until(ws, "reply")
        timing = reply.pop("timing")  # what the turn cost, in ms (as Server-Timing over HTTP)
        assert set(timing) == {"context", "record", "model", "total"} and timing["total"] >= timing["model"]
        assert reply == {
            "type": "reply",
            "content": "Hello there, visitor.",
            "message_id": None,
            "conversation_id": None,
        }
        ws.send_json({"type": "context", "query": "shellfish"})
        assert ws.receive_json()["text"] == ""
    assert fake.requests_to(UPSTREAM)[-1].body["messages"] == [
        {"role": "user", "content": "What am I allergic to?"}
    ]
    for user in ("default", "bob"):
        assert client.get("/api/v1/conversations", headers=auth_headers(ws_settings, user)).json() == []


def test_mapped_device_speaks_for_its_user(client: TestClient, ws_settings: Settings) -> None:
    with client.websocket_connect(WS, headers=auth_headers(ws_settings, interface="kitchen")) as ws:
        ws.send_json({"type": "hello", "interface": "garage"})
        assert ws.receive_json()["error"] == "invalid_input"  # a device cannot pose as another interface
        ws.send_json({"type": "hello"})
        ready = ws.receive_json()
        assert ready["guest"] is False and ready["interface"] == "kitchen"
        conversation_id = _say(ws, "Timer for the pasta")["conversation_id"]
    bob = client.get("/api/v1/conversations").json()
    assert [(c["id"], c["interface"]) for c in bob] == [(conversation_id, "kitchen")]


def test_upstream_down_keeps_the_turn_and_the_socket(client: TestClient, fake: FakeModelServer) -> None:
    with client.websocket_connect(WS) as ws:
        fake.mode = "down"
        ack = _say(ws, "Are you there?", reply=True)
        error = ws.receive_json()
        assert error["type"] == "error" and error["error"] == "provider_unavailable"
        fake.mode = "ok"
        fake.script_chat(["I'm back."])
        _say(ws, "Hello again", reply=True)
        assert _until(ws, "reply")[0]["content"] == "I'm back."
    assert _turns(client, ack["conversation_id"]) == [
        ("user", "Are you there?"),
        ("user", "Hello again"),
        ("assistant", "I'm back."),
    ]


def test_reply_without_a_model_keeps_the_turn(settings: Settings, clock: Clock) -> None:
    settings.embeddings.enabled = False
    settings.server.consolidate_every_seconds = 0
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings, "bob")) as client:
        with client.websocket_connect(WS) as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["can_reply"] is False
            ack = _say(ws, "Hello?", reply=True)
            error = ws.receive_json()
            assert (
                error["type"] == "error" and error["error"] == "not_configured" and "[llm]" in error["detail"]
            )
        assert _turns(client, ack["conversation_id"]) == [("user", "Hello?")]


def test_a_socket_without_credential_is_refused(app: FastAPI) -> None:
    with TestClient(app) as anonymous:
        with pytest.raises(WebSocketDenialResponse) as refused:
            with anonymous.websocket_connect(WS):
                pass
    assert refused.value.status_code == 401
    assert refused.value.json()["error"] == "unauthenticated"


def test_live_session_through_uvicorn(ws_settings: Settings, fake: FakeModelServer) -> None:
    headers = auth_headers(ws_settings, "bob")
    fake.script_chat(["Good morning to you too."])
    with live_server(ws_settings) as url:
        with connect(url.replace("http://", "ws://") + WS, additional_headers=headers) as ws:
            ws.send(json.dumps({"type": "hello", "tools": False}))
            assert json.loads(ws.recv(timeout=10))["type"] == "ready"
            ws.send(json.dumps({"type": "message", "role": "user", "content": "Good morning", "reply": True}))
            frames = []
            while not frames or frames[-1]["type"] != "reply":
                frames.append(json.loads(ws.recv(timeout=10)))
        assert frames[0]["type"] == "ack" and frames[-1]["content"] == "Good morning to you too."
        assert "".join(f["content"] for f in frames if f["type"] == "delta") == "Good morning to you too."
        conversation_id = frames[0]["conversation_id"]
        with httpx.Client(base_url=url, headers=headers, timeout=10) as http:
            deadline = time.monotonic() + 10
            while http.get(f"/api/v1/conversations/{conversation_id}").json()["ended_at"] is None:
                assert time.monotonic() < deadline, "closing the socket did not end the conversation"
                time.sleep(0.05)
            assert http.get(f"/api/v1/conversations/{conversation_id}").json()["state"] == "pending"
