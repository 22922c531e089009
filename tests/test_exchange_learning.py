"""Per-exchange learning as mem.db describes it: the rule gate, the model's confidence and key, the turn's
intent and memory-created flag, and the message a memory came from."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reverie import Settings
from reverie.extract.gate import TurnReading, read_turn
from reverie.memory import FORGET_ALL_CONFIRMATION, Memory
from reverie.server import create_app
from reverie.store.rows import NewMemory
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, chat_settings_for

UPSTREAM = "/v1/chat/completions"
GATE_SET = Path(__file__).parent / "data" / "exchange_gate.jsonl"


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    """A running fake model server."""
    with FakeModelServer() as server:
        yield server


@pytest.fixture
def learning(settings: Settings, clock: Clock, fake: FakeModelServer) -> Iterator[tuple[TestClient, Any]]:
    """A client (as bob) of an app whose [llm] is the fake server, learning after every exchange."""
    chat_settings = chat_settings_for(settings, fake)
    chat_settings.memory.extraction.auto_extract = True
    app = create_app(chat_settings, clock=clock)
    with TestClient(app, headers=auth_headers(chat_settings, "bob")) as client:
        yield client, app.state.memory


def _say(client: TestClient, memory: Any, text: str) -> dict[str, Any]:
    response = client.post("/chat/text", json={"text": text})
    assert response.status_code == 200, response.text
    memory.background.wait(10)
    return dict(response.json())


def _extraction_calls(fake: FakeModelServer) -> list[str]:
    """The user text of each per-exchange extraction request the model received."""
    return [
        r.body["messages"][1]["content"]
        for r in fake.requests_to(UPSTREAM)
        if r.body["messages"][0]["content"].startswith("You extract long-term facts")
    ]


def _turns(client: TestClient, conversation_id: int) -> list[dict[str, Any]]:
    found = client.get(f"/api/v1/conversations/{conversation_id}")
    assert found.status_code == 200, found.text
    return list(found.json()["messages"])


def test_small_talk_costs_no_extraction_call_and_a_fact_does(
    learning: tuple[TestClient, Any], fake: FakeModelServer
) -> None:
    client, memory = learning
    fake.script_chat(["You're welcome!", "Hello!", "It is 3 pm.", "Noted, I'll keep that in mind."])
    for text in ("Thanks, that's great.", "Good morning!", "What time is it?"):
        _say(client, memory, text)
    assert _extraction_calls(fake) == []  # three replies, no extraction
    assert len(fake.requests_to(UPSTREAM)) == 3
    extracted = [{"fact": "User's daughter Mia is allergic to peanuts", "type": "personal"}]
    fake.script_chat([json.dumps(extracted)])
    _say(client, memory, "My daughter Mia is allergic to peanuts.")
    calls = _extraction_calls(fake)
    assert len(calls) == 1 and "My daughter Mia is allergic to peanuts." in calls[0]
    facts = client.get("/api/v1/search", params={"q": "peanuts"}).json()["facts"]
    assert [f["text"] for f in facts] == ["User's daughter Mia is allergic to peanuts"]


def test_the_models_confidence_and_key_are_kept_and_the_turn_says_what_it_did(
    learning: tuple[TestClient, Any], fake: FakeModelServer
) -> None:
    client, memory = learning
    fake.script_chat(["Hi there!"])
    greeting = _say(client, memory, "Hello!")
    extracted = [
        {"fact": "User works as a nurse at the county hospital", "key": "Employer", "confidence": 0.93},
        {"fact": "User might like night shifts", "key": "shift", "confidence": 0.2},  # under confidence_min
        {"fact": "User lives in Porto", "key": "fact", "confidence": 7},  # a vague key, a confidence over 1
    ]
    fake.script_chat(["A demanding job!", json.dumps(extracted)])
    said = _say(client, memory, "I work as a nurse at the county hospital, I live in Porto")
    listed = client.get("/api/v1/memories", params={"limit": 50}).json()["memories"]
    facts = {f["text"]: f for f in listed}
    nurse = facts["User works as a nurse at the county hospital"]
    assert nurse["confidence"] == 0.93 and nurse["key"] == "employer"
    assert "User might like night shifts" not in facts
    porto = facts["User lives in Porto"]
    assert porto["confidence"] == 1.0 and porto["key"] != "fact"
    turns = _turns(client, said["conversation_id"])
    user_turns = [t for t in turns if t["role"] == "user"]
    assert [(t["content"], t["intent"], t["memory_created"]) for t in user_turns] == [
        ("Hello!", "greeting", False),
        ("I work as a nurse at the county hospital, I live in Porto", "statement", True),
    ]
    assert {nurse["source_message_id"], porto["source_message_id"]} == {user_turns[1]["id"]}
    assert greeting["conversation_id"] == said["conversation_id"]


def test_a_power_phrase_turn_records_its_intent_and_the_memory_it_made(
    learning: tuple[TestClient, Any], fake: FakeModelServer
) -> None:
    client, memory = learning
    fake.script_chat(["Got it.", "[]", "Sure, 20 minutes."])
    first = _say(client, memory, "Remember that my car is a blue Honda Civic")
    _say(client, memory, "Set a timer for 20 minutes")
    turns = [t for t in _turns(client, first["conversation_id"]) if t["role"] == "user"]
    assert [(t["intent"], t["memory_created"]) for t in turns] == [("remember", True), ("command", False)]


def test_the_gate_keeps_held_out_facts() -> None:
    rows = [json.loads(line) for line in GATE_SET.read_text(encoding="utf-8").splitlines() if line]
    held_out = [r for r in rows if r["id"] % 3 == 0]
    facts = [r for r in held_out if r["fact"]]
    others = [r for r in held_out if not r["fact"]]
    assert len(rows) >= 60 and len(facts) >= 10 and len(others) >= 10
    recall = sum(read_turn(r["text"]).learn for r in facts) / len(facts)
    skipped = sum(not read_turn(r["text"]).learn for r in others) / len(others)
    assert recall >= 0.95 and skipped >= 0.8, (recall, skipped)


def test_export_and_import_carry_the_source_message_and_the_turns_intent(
    learning: tuple[TestClient, Any], fake: FakeModelServer
) -> None:
    client, memory = learning
    extracted = [{"fact": "User drives a Tesla Model 3", "key": "car", "confidence": 0.9}]
    fake.script_chat(["Nice car!", json.dumps(extracted)])
    _say(client, memory, "I drive a Tesla Model 3.")
    first = client.get("/api/v1/export").json()
    (car,) = [m for m in first["memories"] if m["text"] == "User drives a Tesla Model 3"]
    turns = [t for c in first["conversations"] for t in c["messages"]]
    (source,) = [t for t in turns if t["id"] == car["source_message"]]
    assert source["content"] == "I drive a Tesla Model 3." and source["role"] == "user"
    assert source["intent"] == "statement" and source["memory_created"] is True
    bob = memory.for_user("bob")
    bob.forget_all(FORGET_ALL_CONFIRMATION)
    assert bob.export()["memories"] == []
    bob.import_(first)
    again = bob.export()
    (car_again,) = [m for m in again["memories"] if m["text"] == "User drives a Tesla Model 3"]
    assert car_again["source_message"] == car["source_message"]
    assert again["conversations"] == first["conversations"]
    stored = client.get("/api/v1/memories").json()["memories"]
    restored = [t for t in _turns(client, _only_conversation(client)) if t["content"] == source["content"]]
    assert [m["source_message_id"] for m in stored if m["text"] == car["text"]] == [restored[0]["id"]]


def _only_conversation(client: TestClient) -> int:
    """The id of bob's one conversation."""
    (only,) = client.get("/api/v1/conversations").json()
    return int(only["id"])


@pytest.mark.parametrize(
    ("text", "intent", "learn"),
    [
        ("What's my name?", "question", False),
        ("What can I cook for my vegetarian wife?", "question", True),
        ("Turn off my bedroom lights", "command", False),
        ("Tell my wife Ana I will be late", "command", True),
        ("I'm tired.", "chat", False),
        ("Hi! My son starts college in September.", "statement", True),
        ("I prefer concise answers", "prefer", True),
        ("Forget that I live in Porto", "forget", False),
        ("Ich wohne in Hamburg.", "statement", True),
    ],
)
def test_the_gate_reads_the_intent(text: str, intent: str, learn: bool) -> None:
    assert read_turn(text) == TurnReading(intent, learn)


def test_a_memory_outlives_the_turn_it_came_from(memory: Memory, clock: Clock) -> None:
    conversation = memory.start_conversation("chat")
    turn = memory.add_message(conversation.id, "user", "I drive a Tesla Model 3.")
    assert turn.intent == "statement"
    scope = memory.scope
    kept = scope.insert_memory(
        NewMemory("fact", "User drives a Tesla Model 3", "inferred", 0.9, source_message_id=turn.id), clock()
    )
    assert memory.get(kept.id).source_message_id == turn.id
    scope.end_conversation(conversation.id, clock())
    scope.restore_conversation(
        conversation.id,
        {
            "title": "",
            "last_activity": clock(),
            "ended_at": clock(),
            "consolidation_state": "done",
            "consolidated_at": clock(),
            "topic": None,
        },
    )
    clock.advance(86_400)
    assert scope.prune_transcripts(clock(), before=clock()) == 1  # retention deletes the turn
    assert memory.get(kept.id).text == "User drives a Tesla Model 3"
    assert memory.get(kept.id).source_message_id is None
