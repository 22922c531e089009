"""Structured preferences (Saga): category + key + value + scope, chosen for the context by the
message's category plus "global", removed by power phrases, and learned with no LLM."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import fakeserver
import pytest
from click.testing import CliRunner
from conftest import Clock
from fakeserver import FakeModelServer
from fastapi.testclient import TestClient

from reverie import Memory, Settings, Turn, load_settings
from reverie.cli import cli
from reverie.server import create_app
from reverie.store.schema import shipped_migrations
from reverie.tools.memory_tool import run_function, run_tool
from tests.apiauth import auth_headers


def _active(memory: Memory, category: str | None = None) -> dict[tuple[str | None, str | None], str]:
    return {(row.category, row.key): row.text for row in memory.preferences(category)}


def _talk(memory: Memory, *lines: str) -> None:
    conv = memory.start_conversation("chat")
    turns = [
        Turn("user" if i % 2 == 0 else "assistant", line, at=memory.clock() + i)
        for i, line in enumerate(lines)
    ]
    memory.add_messages(conv, turns)
    memory.end_conversation(conv.id)
    memory.consolidator().run_pending()


def test_two_preferences_of_one_category_are_both_kept(memory: Memory) -> None:
    memory.observe("In general I like pink for my lights")
    memory.observe("I prefer the lights dim in the evening")
    lights = {key: text for (category, key), text in _active(memory).items() if category == "lights"}
    assert lights == {
        "color": "likes pink for the user's lights",
        "brightness_evening": "prefers the lights dim in the evening",
    }
    evening = memory.preferences("lights")
    assert {row.scope for row in evening} == {"default", "specific"}


def test_the_same_key_again_replaces_the_value_and_keeps_its_history(memory: Memory, clock: Clock) -> None:
    first = memory.save_preference("lights", "color", "pink")
    clock.advance(60)
    again = memory.save_preference("Lights", "Color", "pink")
    assert again.status == "reinforced" and again.memory.id == first.memory.id
    clock.advance(60)
    changed = memory.save_preference("lights", "color", "warm white")
    assert changed.status == "updated"
    assert _active(memory, "lights") == {("lights", "color"): "warm white"}
    history = memory.preference_history("lights", "color")
    assert [(row.text, row.status) for row in history] == [("pink", "superseded"), ("warm white", "active")]
    assert history[0].superseded_by == history[1].id


def test_the_context_holds_the_messages_category_and_global_at_most_ten(memory: Memory) -> None:
    memory.save_preference("lights", "color", "pink")
    memory.save_preference("lights", "brightness", "dim after sunset")
    memory.save_preference("climate", "temperature", "21 degrees")
    memory.prefer("verbosity", "concise answers")
    for n in range(12):
        memory.save_preference("global", f"habit_{n}", f"global preference number {n}", confidence=0.8)
    block = memory.context("turn on the bedroom lights")
    assert len(block.preference_ids) == 10
    assert "lights color: pink" in block.text and "lights brightness: dim after sunset" in block.text
    assert "verbosity: concise answers" in block.text
    assert "21 degrees" not in block.text
    heat = memory.context("set the thermostat a bit warmer")
    assert "climate temperature: 21 degrees" in heat.text and "pink" not in heat.text
    assert len(heat.preference_ids) == 10


def test_forget_that_i_like_pink_removes_the_preference(memory: Memory) -> None:
    memory.observe("In general I like pink for my lights")
    memory.observe("I prefer concise answers")
    seen = memory.observe("forget that I like pink")
    assert seen.action == "forgot"
    assert _active(memory) == {("global", "verbosity"): "prefers concise answers"}


def test_remove_that_preference_removes_the_one_set_last(memory: Memory, clock: Clock) -> None:
    memory.observe("I prefer concise answers")
    clock.advance(5)
    memory.observe("My default temperature is 72 degrees")
    seen = memory.observe("remove that preference")
    assert seen.action == "forgot" and "72 degrees" in seen.reply
    assert _active(memory) == {("global", "verbosity"): "prefers concise answers"}
    assert memory.observe("forget my verbosity preference").action == "forgot"
    assert _active(memory) == {}
    assert memory.observe("remove that preference").action == "nothing_to_forget"


def test_a_preference_said_in_conversation_is_learned_as_one_without_an_llm(memory: Memory) -> None:
    _talk(
        memory,
        "Hi there. I prefer concise answers. What's the capital of Norway?",
        "Oslo.",
        "My sister Ana is a nurse. I walk the dog at 6pm every day. I live in Bergen.",
        "Nice.",
    )
    assert _active(memory) == {("global", "verbosity"): "prefers concise answers"}
    facts = {row.text: row.type for row in memory.list_memories(kind="fact")}
    assert "User prefers concise answers" not in facts
    assert facts["User's sister Ana is a nurse"] == "person"
    assert facts["User walks the dog at 6pm every day"] == "routine"
    assert facts["User lives in Bergen"] == "location"


def test_a_profile_is_built_offline_from_facts_and_preferences(memory: Memory) -> None:
    assert memory.base_memory() == ""
    _talk(memory, "I'm Bob. I work at Acme as an engineer. I prefer concise answers.", "Noted.")
    profile = memory.base_memory()
    assert "User's name is Bob" in profile and "User works at Acme as an engineer" in profile
    assert "User prefers concise answers" in profile
    assert "Profile:" in memory.context("hello").text
    memory.set_base_memory("A profile an LLM distilled.")
    _talk(memory, "I live in Oslo.", "ok")
    assert memory.base_memory() == "A profile an LLM distilled."  # never overwritten by the rules


def test_remembered_facts_are_typed(memory: Memory) -> None:
    assert memory.remember_words("remember that my meeting room is the office").memory.type == "room_mapping"
    assert memory.remember_words("remember that I walk the dog at 6pm").memory.type == "routine"
    assert memory.remember_words("remember that my brother Tom lives in Denver").memory.type == "person"


def test_the_tools_save_preferences_and_accept_the_profile_type(memory: Memory) -> None:
    saved = run_tool(
        memory,
        {
            "device": "memory",
            "action": "save_preference",
            "category": "lights",
            "key": "color",
            "value": "pink",
        },
    )
    assert saved.ok and saved.data == {
        "status": "stored",
        "category": "lights",
        "key": "color",
        "value": "pink",
        "scope": "default",
    }
    called = run_function(
        memory, "memory_save_preference", json.dumps({"category": "lights", "key": "color", "value": "blue"})
    )
    assert called.ok and called.data is not None and called.data["status"] == "updated"
    verb = run_function(
        memory,
        "create_memory",
        {"content": "brightness 40%", "memory_type": "preference", "category": "lights", "key": "brightness"},
    )
    assert verb.ok and verb.data is not None and verb.data["memory"]["category"] == "lights"
    assert _active(memory, "lights") == {
        ("lights", "color"): "blue",
        ("lights", "brightness"): "brightness 40%",
    }
    profile = run_function(
        memory, "create_memory", {"content": "User's time zone is CET", "memory_type": "profile"}
    )
    assert profile.ok and profile.data is not None and profile.data["memory"]["memory_type"] == "profile"
    listed = run_function(memory, "list_memories", {"memory_type": "profile"})
    assert listed.data is not None and [m["content"] for m in listed.data["memories"]] == [
        "User's time zone is CET"
    ]
    missing = run_tool(
        memory, {"device": "memory", "action": "save_preference", "category": "lights", "value": "x"}
    )
    assert not missing.ok


def test_rest_lists_preferences_with_category_and_scope(settings: Settings, clock: Clock) -> None:
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings, admin=True)) as client:
        client.put("/api/v1/preferences/lights", json={"value": "pink"})
        client.put("/api/v1/preferences/lights", json={"value": "dim in the evening"})
        keyed = client.put(
            "/api/v1/preferences/climate", json={"value": "19", "key": "night", "scope": "specific"}
        )
        assert keyed.status_code == 200 and keyed.json()["status"] == "stored"
        listed = client.get("/api/v1/preferences").json()["preferences"]
    assert {(p["category"], p["key"], p["scope"], p["text"]) for p in listed} == {
        ("lights", "color", "default", "pink"),
        ("lights", "brightness_evening", "specific", "dim in the evening"),
        ("climate", "night", "specific", "19"),
    }


@pytest.mark.sqlite_only(reason="builds a database at schema 11 by hand to watch migration 0012 run")
def test_preferences_kept_one_per_category_are_re_keyed_by_the_migration(settings: Settings) -> None:
    path = settings.database_path
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL)"
    )
    for version, name, sql in shipped_migrations("sqlite"):
        if version < 12:
            conn.executescript(
                f"BEGIN;\n{sql}\nINSERT INTO schema_migrations VALUES ({version}, '{name}', 0);\nCOMMIT;"
            )
    conn.execute("INSERT INTO users (name, created_at) VALUES ('default', 0)")
    for key, text in (("verbosity", "concise answers"), ("lights", "pink")):
        conn.execute(
            "INSERT INTO memories (user_id, kind, key, text, source, confidence, created_at, updated_at)"
            " VALUES (1, 'preference', ?, ?, 'explicit', 1.0, 0, 0)",
            (key, text),
        )
    conn.commit()
    conn.close()
    memory = Memory(settings)
    try:
        assert {(p.category, p.key, p.scope, p.text) for p in memory.preferences()} == {
            ("global", "verbosity", "default", "concise answers"),
            ("lights", "default", "default", "pink"),
        }
        memory.save_preference("lights", "brightness", "dim")  # a second key of the category is kept too
        assert len(memory.preferences("lights")) == 3
    finally:
        memory.close()


fake_server = fakeserver.fake_server


def test_an_llm_extraction_gives_each_preference_its_key(
    tmp_path: Path, fake_server: FakeModelServer, clock: Clock
) -> None:
    environ = {
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_EMBEDDINGS__ENABLED": "false",
        "REVERIE_LLM__PROVIDER": "ollama",
        "REVERIE_LLM__ENDPOINT": fake_server.url,
        "REVERIE_LLM__MODEL": "fake-chat",
        "REVERIE_LLM__RETRY_BACKOFF_SECONDS": "0",
        "REVERIE_MEMORY__EXTRACTION__PROVIDER": "ollama",
    }
    memory = Memory(load_settings(home=tmp_path / "llm", environ=environ), clock=clock)
    try:
        preferences = [
            {"category": "lights", "key": "color", "value": "pink", "source": "explicit", "confidence": 0.9},
            {"category": "lights", "value": "dim in the evening", "source": "explicit", "confidence": 0.9},
            {"category": "verbosity", "value": "concise answers", "source": "inferred", "confidence": 0.8},
        ]
        fake_server.script_chat([json.dumps({"facts": [], "preferences": preferences, "summary": "Lights."})])
        conv = memory.start_conversation("chat")
        memory.add_messages(conv, [Turn("user", "Pink lights please, dim in the evening.", at=clock())])
        memory.end_conversation(conv.id)
        assert [r.state for r in memory.consolidator().run_pending()] == ["done"]
        assert _active(memory) == {
            ("lights", "color"): "pink",
            ("lights", "brightness_evening"): "dim in the evening",
            ("global", "verbosity"): "concise answers",
        }
        prompt = fake_server.requests_to("/api/chat")[0].body["messages"][0]["content"]
        assert '{"category": "...", "key": "...", "value": "..."' in prompt
    finally:
        memory.close()


def test_the_cli_sets_a_preference_with_its_key(settings: Settings) -> None:
    runner = CliRunner()
    said = runner.invoke(cli, ["prefer", "lights", "pink", "--key", "color"])
    assert said.exit_code == 0 and said.output.strip() == "stored: lights / color: pink"
    dim = runner.invoke(cli, ["prefer", "lights", "dim in the evening"])
    assert dim.output.strip() == "stored: lights / brightness_evening: dim in the evening"
    with Memory(settings) as memory:
        assert _active(memory, "lights") == {
            ("lights", "color"): "pink",
            ("lights", "brightness_evening"): "dim in the evening",
        }
