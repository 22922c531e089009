"""Chat answers say what memory cost them (Server-Timing); a chat turn is found by meaning once indexed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from reverie import Settings
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, chat_settings_for

FIGURES = {"context", "record", "model", "total"}


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    with FakeModelServer() as server:
        yield server


@pytest.fixture
def client(settings: Settings, fake: FakeModelServer, clock: Clock) -> Iterator[TestClient]:
    """The app with the fake model and the local embedder on (so turns get vectors)."""
    chat = chat_settings_for(settings, fake)
    chat.embeddings.enabled = True
    app = create_app(chat, clock=clock)
    with TestClient(app, headers=auth_headers(chat, "bob")) as test_client:
        yield test_client


def _timing(header: str) -> dict[str, float]:
    figures = {}
    for part in header.split(","):
        name, _, duration = part.strip().partition(";dur=")
        figures[name] = float(duration)
    return figures


def test_completions_say_what_memory_cost(client: TestClient, fake: FakeModelServer) -> None:
    fake.script_chat(["Sure.", "Of course."])
    body = {"model": "x", "messages": [{"role": "user", "content": "Plan my week"}]}
    answered = client.post("/v1/chat/completions", json=body)
    assert answered.status_code == 200, answered.text
    figures = _timing(answered.headers["server-timing"])
    assert set(figures) == FIGURES
    assert figures["total"] >= figures["context"] + figures["record"] + figures["model"] - 0.3
    streamed = client.post("/v1/chat/completions", json={**body, "stream": True})
    assert streamed.status_code == 200 and "data: [DONE]" in streamed.text
    assert set(_timing(streamed.headers["server-timing"])) == FIGURES


def test_text_chat_says_what_memory_cost(client: TestClient, fake: FakeModelServer) -> None:
    fake.script_chat(["Hello."])
    answered = client.post("/chat/text", json={"text": "Hi there"})
    assert answered.status_code == 200, answered.text
    assert answered.json()["text"] == "Hello."
    assert set(_timing(answered.headers["server-timing"])) == FIGURES


def test_a_chat_turn_is_found_by_meaning_once_indexed(client: TestClient, fake: FakeModelServer) -> None:
    fake.script_chat(["What a lovely dog."])
    body = {"model": "x", "messages": [{"role": "user", "content": "We adopted a greyhound yesterday"}]}
    assert client.post("/v1/chat/completions", json=body).status_code == 200
    root = client.app.state.memory  # type: ignore[attr-defined]
    assert root.wait_indexed(60)  # a deadline, not a delay
    found = client.get("/api/v1/search", params={"q": "new puppy", "scope": "messages"})
    assert found.status_code == 200, found.text
    assert "greyhound" in found.json()["messages"][0]["content"]
