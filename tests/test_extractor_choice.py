"""Extraction falls back to the conversation model (DAWN §3.2); "none" still means offline rules."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import fakeserver
import pytest
from conftest import Clock
from fakeserver import FakeModelServer
from fastapi.testclient import TestClient

from reverie import Memory, Turn, load_settings
from reverie.server.app import create_app
from tests.apiauth import auth_headers

fake_server = fakeserver.fake_server

EXTRACTED = {
    "facts": [{"text": "User's daughter Emma plays the oboe", "source": "explicit", "confidence": 0.95}],
    "preferences": [
        {"category": "verbosity", "value": "short answers", "source": "explicit", "confidence": 0.9}
    ],
    "corrections": [],
    "summary": "Talked about Emma's oboe lessons.",
    "topics": ["music"],
    "sentiment": "positive",
}


def _llm_only(server: FakeModelServer, **extra: str) -> dict[str, str]:
    """Only [llm] configured: [memory.extraction] is left as it ships."""
    return {
        "REVERIE_EMBEDDINGS__ENABLED": "false",
        "REVERIE_LLM__PROVIDER": "ollama",
        "REVERIE_LLM__ENDPOINT": server.url,
        "REVERIE_LLM__MODEL": "fake-chat",
        "REVERIE_LLM__RETRY_BACKOFF_SECONDS": "0",
        "REVERIE_SERVER__CONSOLIDATE_EVERY_SECONDS": "0",
        "REVERIE_RAG__REINDEX_ON_STARTUP": "false",
        **extra,
    }


def _talk(memory: Memory) -> None:
    conv = memory.start_conversation("chat")
    lines = ["My daughter Emma started oboe lessons", "Lovely!", "Keep your answers short please", "Sure."]
    turns = [
        Turn("user" if i % 2 == 0 else "assistant", text, at=memory.clock() + i)
        for i, text in enumerate(lines)
    ]
    memory.add_messages(conv, turns)
    memory.end_conversation(conv.id)


def test_llm_alone_extracts_with_the_conversation_model(
    tmp_path: Path, fake_server: FakeModelServer, clock: Clock
) -> None:
    settings = load_settings(home=tmp_path / "h", environ=_llm_only(fake_server))
    with Memory(settings, clock=clock) as memory:
        _talk(memory)
        fake_server.script_chat([json.dumps(EXTRACTED)])
        results = memory.consolidator().run_pending()
        assert [r.state for r in results] == ["done"]
        facts = [m.text for m in memory.list_memories(kind="fact")]
        prefs = [m.text for m in memory.list_memories(kind="preference")]
        summaries = [s.text for s in memory.summaries()]
    assert "User's daughter Emma plays the oboe" in facts
    assert prefs == ["short answers"]
    assert summaries == ["Talked about Emma's oboe lessons."]
    asked = fake_server.requests_to("/api/chat")
    assert len(asked) == 1 and asked[0].body["model"] == "fake-chat"


def test_explicit_none_keeps_the_offline_rules(
    tmp_path: Path, fake_server: FakeModelServer, clock: Clock
) -> None:
    settings = load_settings(
        home=tmp_path / "h", environ=_llm_only(fake_server, REVERIE_MEMORY__EXTRACTION__PROVIDER="none")
    )
    with Memory(settings, clock=clock) as memory:
        assert memory.extraction_model is None
        _talk(memory)
        results = memory.consolidator().run_pending()
        assert [r.state for r in results] == ["done"]
        facts = [m.text for m in memory.list_memories(kind="fact")]
    assert "User's daughter Emma plays the oboe" not in facts
    assert fake_server.requests_to("/api/chat") == []


def test_per_exchange_learning_uses_the_conversation_model(
    tmp_path: Path, fake_server: FakeModelServer, clock: Clock
) -> None:
    env = _llm_only(fake_server, REVERIE_MEMORY__EXTRACTION__AUTO_EXTRACT="true")
    with Memory(load_settings(home=tmp_path / "h", environ=env), clock=clock) as memory:
        fake_server.script_chat([json.dumps([{"fact": "The user's cat Miso is twelve", "type": "personal"}])])
        conv = memory.start_conversation("chat")
        memory.add_message(conv, "user", "My cat Miso turned twelve")
        memory.add_message(conv, "assistant", "Happy birthday, Miso!")
        memory.background.wait(10)
        facts = [m.text for m in memory.list_memories(kind="fact")]
    assert facts == ["The user's cat Miso is twelve"]
    assert len(fake_server.requests_to("/api/chat")) == 1


@pytest.fixture
def app_settings(tmp_path: Path, fake_server: FakeModelServer) -> Iterator[object]:
    yield load_settings(home=tmp_path / "srv", environ=_llm_only(fake_server))


def test_health_and_startup_log_name_the_extractor_for_admins_only(
    app_settings, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="reverie.server")
    admin = auth_headers(app_settings, "root", admin=True)
    plain = auth_headers(app_settings, "alice")
    with TestClient(create_app(app_settings, clock=clock)) as client:
        seen = client.get("/health", headers=admin).json()
        hidden = client.get("/health", headers=plain).json()
        anonymous = client.get("/health").json()
    assert seen["checks"]["extractor"] == "llm: ollama/fake-chat (from [llm])"
    assert "extractor" not in hidden["checks"] and "extractor" not in anonymous["checks"]
    said = [r.getMessage() for r in caplog.records if r.name == "reverie.server"]
    assert "Extractor: llm: ollama/fake-chat (from [llm])" in said


def test_health_says_rules_offline_when_extraction_is_none(
    tmp_path: Path, fake_server: FakeModelServer, clock: Clock
) -> None:
    settings = load_settings(
        home=tmp_path / "srv", environ=_llm_only(fake_server, REVERIE_MEMORY__EXTRACTION__PROVIDER="none")
    )
    admin = auth_headers(settings, "root", admin=True)
    with TestClient(create_app(settings, clock=clock)) as client:
        assert client.get("/health", headers=admin).json()["checks"]["extractor"] == "rules (offline)"
