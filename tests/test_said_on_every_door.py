"""Power phrases and preferences read the same way on every door that takes a user's words.

"remember that I ..." becomes one third-person fact, "I prefer ..." one preference, whether it
comes through the library, the CLI, REST (the web UI's Remember box uses it), the memory tool,
the verb tools (MCP offers the same functions), a chat turn (proxy and /chat/text) or, with no
LLM, the offline consolidation of a conversation. One utterance makes one memory.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from conftest import Clock
from fastapi.testclient import TestClient

from reverie import Memory, Settings
from reverie.cli import cli
from reverie.server import create_app
from reverie.tools.memory_tool import run_function, run_tool
from tests.apiauth import auth_headers
from tests.fakeserver import FakeModelServer, chat_settings_for

MOVED = "remember that I moved to Seattle"
PREFER = "I prefer concise answers"


def _kept(memory: Memory) -> tuple[list[str], list[tuple[str | None, str]]]:
    facts = sorted(m.text for m in memory.list_memories(kind="fact"))
    prefs = sorted((m.key, m.text) for m in memory.list_memories(kind="preference"))
    return facts, prefs


EXPECTED = (["User moved to Seattle"], [("verbosity", "prefers concise answers")])


def test_library(memory: Memory) -> None:
    memory.remember_words(MOVED)
    memory.remember_words(PREFER)
    assert _kept(memory) == EXPECTED
    memory.remember_words("My sister Ana is a nurse")
    memory.remember_words("User's dog Pepper is a beagle")  # a third-person fact stays as written
    assert "User's sister Ana is a nurse" in _kept(memory)[0]
    assert "User's dog Pepper is a beagle" in _kept(memory)[0]


def test_cli(settings: Settings, clock: Clock) -> None:
    runner = CliRunner()
    for said in (MOVED, PREFER):
        result = runner.invoke(cli, ["--home", str(settings.home), "remember", said], env={"TZ": "UTC"})
        assert result.exit_code == 0, result.output
    with Memory(settings, clock=clock) as memory:
        assert _kept(memory) == EXPECTED


def test_rest_and_web_ui_remember_box(settings: Settings, clock: Clock) -> None:
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings, admin=True)) as client:
        for said in (MOVED, PREFER):
            response = client.post("/api/v1/memories", json={"text": said})
            assert response.status_code == 201, response.text
    with Memory(settings, clock=clock) as memory:
        assert _kept(memory) == EXPECTED


def test_memory_tool_and_verb_tools(memory: Memory) -> None:
    assert run_tool(memory, {"device": "memory", "action": "remember", "value": MOVED}).ok
    answer = run_function(memory, "create_memory", {"content": PREFER})
    assert answer.ok and answer.data is not None and answer.data["status"] == "stored", answer
    assert _kept(memory) == EXPECTED


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    """A running fake model server."""
    with FakeModelServer() as server:
        yield server


def test_chat_turns_act_on_power_phrases_but_never_in_private(
    settings: Settings, clock: Clock, fake: FakeModelServer
) -> None:
    chat = chat_settings_for(settings, fake)
    with TestClient(create_app(chat, clock=clock), headers=auth_headers(chat, "bob")) as client:
        fake.script_chat(["Noted.", "Sure.", "Okay."])
        body = {"model": "x", "messages": [{"role": "user", "content": MOVED}]}
        assert client.post("/v1/chat/completions", json=body).status_code == 200
        assert client.post("/chat/text", json={"text": PREFER}).status_code == 200
        private = client.post("/api/v1/conversations", json={"interface": "webchat", "private": True})
        assert private.status_code == 201, private.text
        hidden = "remember that I hide the key under the mat"
        secret = {"model": "x", "messages": [{"role": "user", "content": hidden}]}
        response = client.post(
            "/v1/chat/completions", json=secret, headers={"X-Reverie-Conversation": str(private.json()["id"])}
        )
        assert response.status_code == 200, response.text
    with Memory(chat, clock=clock).for_user("bob") as bob:
        assert _kept(bob) == EXPECTED


def test_offline_consolidation_keeps_a_power_phrase_once(memory: Memory, clock: Clock) -> None:
    row = memory.start_conversation("kitchen")
    memory.add_message(row.id, "user", "Remember that my bike is locked in the shed")
    memory.add_message(row.id, "assistant", "Got it.")
    memory.add_message(row.id, "user", "I prefer the lights dim in the evening")
    memory.add_message(row.id, "assistant", "Okay.")
    memory.end_conversation(row.id)
    job = memory.consolidator().run_once()
    assert job is not None
    facts, prefs = _kept(memory)
    assert facts == ["User's bike is locked in the shed"]
    assert len(prefs) == 1 and "dim in the evening" in prefs[0][1]
