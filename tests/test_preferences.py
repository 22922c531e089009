"""Structured preferences (Saga): category + key + value + scope, chosen for the context by the
message's category plus "global", removed by power phrases, and learned with no LLM."""

from __future__ import annotations

import json

from conftest import Clock

from reverie import Memory, Turn
from reverie.tools.memory_tool import run_function, run_tool


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
