"""Preferences as a user lists and forgets them: by category, by the words of their key or value,
the one set last, and the audit line each removal leaves.

Written for the mutants of core/preferences.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from pathlib import Path

import fakeserver
import pytest
from conftest import Clock
from fakeserver import FakeModelServer

from reverie import Memory, load_settings
from reverie.errors import GuardRejected, InvalidInput

fake_server = fakeserver.fake_server


def _texts(memory: Memory, category: str | None = None) -> set[str]:
    return {row.text for row in memory.preferences(category)}


def test_a_category_s_list_holds_it_and_the_global_ones_only(memory: Memory) -> None:
    memory.save_preference("lights", "color", "pink")
    memory.save_preference("lights", "brightness", "dim after sunset", confidence=0.9)
    memory.save_preference("climate", "temperature", "21 degrees")
    memory.save_preference("global", "verbosity", "concise answers", confidence=0.8)
    assert _texts(memory, "Lights") == {"pink", "dim after sunset", "concise answers"}
    assert [row.text for row in memory.preferences("lights", limit=2)] == ["pink", "dim after sunset"]
    assert len(memory.preferences()) == 4


def test_fifty_preferences_are_listed_by_default(memory: Memory) -> None:
    for n in range(51):
        memory.save_preference("global", f"habit_{n}", f"habit number {n}")
    assert len(memory.preferences()) == 50


def test_a_preference_needs_a_category(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.prefer("  ", "pink")
    assert str(refused.value) == "A preference needs a category (e.g. verbosity, units, lights)"


def test_forget_a_preference_named_by_its_category_and_every_word_of_its_key(memory: Memory) -> None:
    memory.save_preference("lights", "brightness_evening", "dim in the evening")
    memory.save_preference("lights", "color", "pink")
    memory.save_preference("climate", "temperature", "21 degrees")
    gone = memory.forget_preference("lights brightness evening")
    assert [row.text for row in gone] == ["dim in the evening"]
    assert [row.text for row in memory.forget_preference("lights color")] == ["pink"]
    assert _texts(memory) == {"21 degrees"}


def test_forget_a_preference_named_by_the_words_of_its_value(memory: Memory) -> None:
    memory.save_preference("lights", "color", "warm white")
    memory.save_preference("lights", "brightness", "dim after sunset")
    assert [row.text for row in memory.forget_preference("warm white")] == ["warm white"]
    assert [row.text for row in memory.forget_preference("sunset")] == ["dim after sunset"]
    assert memory.forget_preference("sunset") == []


def test_forget_without_a_name_removes_the_one_set_last_of_three(memory: Memory, clock: Clock) -> None:
    for key in ("color", "brightness", "scene"):
        memory.save_preference("lights", key, f"the {key} I like")
        clock.advance(60)
    assert [row.text for row in memory.forget_preference()] == ["the scene I like"]
    assert _texts(memory) == {"the color I like", "the brightness I like"}


def test_forgetting_a_preference_leaves_an_audit_line(memory: Memory) -> None:
    kept = memory.save_preference("lights", "color", "pink").memory
    gone = memory.save_preference("lights", "brightness", "dim").memory
    memory.forget_preference("lights brightness")
    (entry,) = [a for a in memory.scope.list_audit() if a.action == "forget"]
    assert (entry.target_kind, entry.reason) == ("preference", "preference removed on request")
    assert entry.detail == {"ids": [gone.id]}
    assert kept.id not in entry.detail["ids"]


def test_a_preference_keeps_the_confidence_it_was_given(memory: Memory) -> None:
    assert memory.prefer("lights", "pink", confidence=0.6).memory.confidence == 0.6
    assert memory.prefer("climate", "21 degrees", source="inferred").memory.confidence == 0.5


def test_a_preference_needs_a_key(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.save_preference("lights", " ", "pink")
    assert str(refused.value) == "A preference needs a category and a key (e.g. lights and color)"
    assert memory.preferences() == []


def test_a_message_of_no_category_brings_the_global_preferences_only(memory: Memory) -> None:
    memory.save_preference("general", "snack", "salted crisps")
    verbosity = memory.save_preference("global", "verbosity", "concise answers").memory
    block = memory.context("who won the match")
    assert block.preference_ids == [verbosity.id]
    assert "salted crisps" not in block.text


def test_the_context_holds_ten_preferences_of_the_message_s_category_at_most(memory: Memory) -> None:
    for n in range(12):
        memory.save_preference("lights", f"scene_{n}", f"lights scene number {n}")
    memory.save_preference("global", "verbosity", "concise answers")
    block = memory.context("turn on the lights")
    assert len(block.preference_ids) == 10
    assert "concise answers" not in block.text


def test_a_scope_or_source_outside_the_lists_is_refused_with_the_choices(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.save_preference("lights", "color", "pink", scope="sometimes")
    assert str(refused.value) == "scope must be one of default, specific, always, got 'sometimes'"
    with pytest.raises(InvalidInput) as refused:
        memory.save_preference("lights", "color", "pink", source="rumour")  # type: ignore[arg-type]
    assert str(refused.value).startswith("source must be one of explicit, ")
    assert str(refused.value).endswith(", got 'rumour'")
    assert memory.preferences() == []


def test_a_confidence_from_0_to_1_is_taken_and_above_refused(memory: Memory) -> None:
    assert memory.save_preference("lights", "color", "pink", confidence=0.0).memory.confidence == 0.0
    with pytest.raises(InvalidInput) as refused:
        memory.save_preference("lights", "scene", "cosy", confidence=1.5)
    assert str(refused.value) == "confidence must be between 0 and 1, got 1.5"
    assert _texts(memory) == {"pink"}


def test_a_secret_is_kept_as_a_preference_only_when_the_user_says_it(tmp_path: Path) -> None:
    environ = {"REVERIE_MEMORY__ALLOW_SENSITIVE_ON_REQUEST": "true"}
    with Memory(load_settings(home=tmp_path, environ=environ)) as memory:
        said = memory.save_preference("wifi", "password", "the wifi password is hunter2-Blue-77")
        assert said.status == "stored"
        with pytest.raises(GuardRejected):
            memory.save_preference("wifi", "guest", "the wifi password is x9-Red-12", source="inferred")
        assert _texts(memory) == {"the wifi password is hunter2-Blue-77"}


def test_a_preference_is_found_by_meaning(tmp_path: Path, fake_server: FakeModelServer) -> None:
    fake_server.dimensions = 256
    fake_server.synonyms["apiary"] = "bees"
    with Memory(load_settings(home=tmp_path, environ=fakeserver.embedding_environ(fake_server))) as memory:
        memory.save_preference("garden", "hobby", "keeping bees")
        found = memory.search("apiary", limit=5).preferences  # no preference has the word
    assert [hit.memory.text for hit in found] == ["keeping bees"]
