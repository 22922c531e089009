"""How the memory core is built from the settings (core/build.py): user names, the time zone, embeddings.

Written for the mutants of core/build.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from pathlib import Path

import fakeserver
import pytest
from fakeserver import FakeModelServer

from reverie import ConfigError, InvalidInput, Memory, Settings, load_settings
from tests.conftest import Clock

fake_server = fakeserver.fake_server  # the fixture

RULE = "use 1-64 letters, digits, '.', '_', '-' or '@'"


def test_a_user_name_is_trimmed_and_may_hold_letters_digits_and_four_marks(memory: Memory) -> None:
    assert memory.add_user("  alice  ").name == "alice"
    assert memory.add_user("a" * 64).name == "a" * 64
    assert memory.add_user("j.doe_2-x@home").name == "j.doe_2-x@home"
    assert memory.add_user("Zoë").name == "Zoë"  # letters of any script
    assert memory.add_user(".alice").name == ".alice"  # dots with a letter: a folder of its own
    assert memory.add_user("X").name == "X"  # one letter is enough
    assert {"alice", "a" * 64, "j.doe_2-x@home", "Zoë", ".alice", "X"} <= {
        u.name for u in memory.list_users()
    }


@pytest.mark.parametrize("name", ["", "   ", "a" * 65, "al ice", "al/ice", "alice!", "a\tb"])
def test_a_user_name_outside_the_rule_is_refused_with_the_rule(memory: Memory, name: str) -> None:
    before = [u.name for u in memory.list_users()]
    with pytest.raises(InvalidInput) as refused:
        memory.add_user(name)
    assert str(refused.value) == f"User name {name.strip()!r} is not valid: {RULE}"
    assert [u.name for u in memory.list_users()] == before


@pytest.mark.parametrize("name", [".", ".."])
def test_a_user_name_of_dots_only_is_refused(memory: Memory, name: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.add_user(name)
    assert str(refused.value) == f"User name {name!r} is not valid: it needs a letter, digit, '_', '-' or '@'"


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "../etc/passwd"])
def test_an_unknown_time_zone_stops_the_start_with_an_example(
    settings: Settings, clock: Clock, zone: str
) -> None:
    settings.memory.timezone = zone
    with pytest.raises(ConfigError) as refused:
        Memory(settings, clock=clock)
    assert str(refused.value) == f"memory.timezone '{zone}' is not a known time zone (e.g. Europe/Paris)"


def test_dates_are_read_in_the_configured_time_zone(settings: Settings, clock: Clock) -> None:
    settings.memory.timezone = "Asia/Tokyo"  # 2026-01-15 18:00 UTC is 2026-01-16 03:00 in Tokyo
    with Memory(settings, clock=clock) as memory:
        memory.remember("User bought a red kettle")
        found = memory.search("", date="2026-01-16").facts
        assert [hit.memory.text for hit in found] == ["User bought a red kettle"]
        assert memory.search("", date="2026-01-15").facts == []


def test_a_pause_of_zero_after_a_provider_failure_asks_again_at_once(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    fake_server.dimensions = 64
    fake_server.synonyms["apiary"] = "bees"  # found by meaning only, never by its keywords
    environ = {
        "REVERIE_EMBEDDINGS__PROVIDER": "ollama",
        "REVERIE_EMBEDDINGS__ENDPOINT": fake_server.url,
        "REVERIE_EMBEDDINGS__MODEL": "fake-embed",
        "REVERIE_EMBEDDINGS__PAUSE_AFTER_FAILURE_SECONDS": "0",
    }
    with Memory(load_settings(home=tmp_path / "h", environ=environ)) as memory:
        fake_server.mode = "down"
        assert memory.remember("User sings in a community choir").status == "stored"  # by keywords
        fake_server.mode = "ok"
        kept = memory.remember("User keeps bees in the back garden")  # 30 s by default: no vector yet
        assert [hit.memory.id for hit in memory.search("apiary").facts] == [kept.memory.id]


def test_with_hybrid_search_off_the_ranking_is_the_keywords_alone(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    fake_server.dimensions = 256
    fake_server.synonyms["apiary"] = "bees"  # near "bees" by meaning only
    environ = fakeserver.embedding_environ(fake_server, REVERIE_EMBEDDINGS__HYBRID__ENABLED="false")
    with Memory(load_settings(home=tmp_path / "h", environ=environ)) as memory:
        memory.remember("User keeps bees in the back garden")
        memory.remember("User sings in a community choir")
        assert [hit.score for hit in memory.search("apiary").facts] == [0.0]  # its meaning weighs nothing
        (hit,) = memory.search("bees").facts
        assert hit.memory.text == "User keeps bees in the back garden"
        assert hit.score == pytest.approx(1.0)  # the keyword score, weighed 1 (0.3 with hybrid on)


def test_the_turn_indexer_s_own_embedder_leaves_the_settings_as_they_were(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    environ = fakeserver.embedding_environ(fake_server, REVERIE_EMBEDDINGS__THREADS="3")
    settings = load_settings(home=tmp_path / "h", environ=environ)
    with Memory(settings) as memory:
        assert (settings.embeddings.threads, memory.settings.embeddings.threads) == (3, 3)
