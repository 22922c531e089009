"""One user's memory rows as a user meets them: a spoken clear confirmed at its limit, forget-all counts.

Written for mutants of ``reverie.store.memories`` that the suite let through (tests/MUTATION.md).
Real SQLite files (or PostgreSQL under REVERIE_TEST_ENGINE=postgres).
"""

from __future__ import annotations

import pytest
from conftest import Clock

from reverie import Memory, load_settings
from reverie.observe import CLEAR_CONFIRM_SECONDS

DAY = 86_400.0


def test_a_spoken_clear_is_confirmed_up_to_its_last_second(memory: Memory, clock: Clock) -> None:
    memory.remember("User is vegetarian")
    assert memory.observe("Clear your memory").action == "confirm_clear"
    clock.advance(CLEAR_CONFIRM_SECONDS + 1)
    assert memory.observe("yes").action == "none" and memory.count() == 1  # a second late: expired
    assert memory.observe("Clear your memory").action == "confirm_clear"
    clock.advance(CLEAR_CONFIRM_SECONDS)
    assert memory.observe("yes").action == "cleared"  # at the limit itself: still asked
    assert memory.count(status="all") == 0


def test_forgetting_everything_counts_each_kind_and_says_so_in_the_audit(memory: Memory) -> None:
    memory.remember("User is vegetarian")
    memory.prefer("units", "metric")
    memory.add_summary("Talked about gardening.")
    memory.set_base_memory("Ana, a nurse in Porto.")
    memory.start_conversation("kitchen")
    counts = memory.forget_all("DELETE")
    expected = {"summary": 1, "base_memory": 1, "conversation": 1, "topic": 0, "fact": 1, "preference": 1}
    assert {name: counts[name] for name in expected} == expected
    [entry] = [entry for entry in memory.scope.list_audit() if entry.action == "forget_all"]
    assert {name: entry.detail[name] for name in expected} == expected
    assert memory.base_memory() == ""


def test_a_search_between_two_dates_finds_only_what_was_kept_between_them(
    memory: Memory, clock: Clock
) -> None:
    memory.remember("User keeps bees in the back garden")  # 2026-01-15
    clock.advance(5 * DAY)
    memory.remember("User's bees swarmed in the orchard")  # 2026-01-20
    clock.advance(5 * DAY)
    memory.remember("User sold the bees to a neighbour")  # 2026-01-25
    found = memory.search("bees", date_from="2026-01-18", date_to="2026-01-22").facts
    assert [hit.memory.text for hit in found] == ["User's bees swarmed in the orchard"]


def test_a_secret_kept_on_request_is_listed_as_sensitive(memory: Memory) -> None:
    memory.remember("User's garage code is 4821", sensitive=True)
    memory.remember("User keeps bees in the back garden")
    listed = {row.text: row.sensitive for row in memory.list_memories()}
    assert listed == {"User's garage code is 4821": True, "User keeps bees in the back garden": False}


def test_a_fact_found_only_by_its_key_is_replaced(tmp_path, clock: Clock) -> None:
    settings = load_settings(home=tmp_path / "home", environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})
    with Memory(settings, clock=clock) as memory:  # no vectors: neither words nor meaning find it
        old = memory.remember("The guest network is called Pelican", key="wifi_name").memory
        new = memory.remember("Visitors connect to Heron", key="wifi_name")
        assert (new.status, new.replaced) == ("superseded", [old])
        assert [row.text for row in memory.list_memories()] == ["Visitors connect to Heron"]


def test_a_listing_by_dates_alone_keeps_to_them(memory: Memory, clock: Clock) -> None:
    memory.remember("User keeps bees in the back garden")  # 2026-01-15
    clock.advance(5 * DAY)
    memory.remember("User's bees swarmed in the orchard")  # 2026-01-20
    clock.advance(5 * DAY)
    memory.remember("User sold the bees to a neighbour")  # 2026-01-25
    found = memory.search("", date_from="2026-01-18", date_to="2026-01-22").facts
    assert [hit.memory.text for hit in found] == ["User's bees swarmed in the orchard"]


def test_a_merged_thread_memory_keeps_when_it_was_last_changed(memory: Memory, clock: Clock) -> None:
    thread = memory.start_thread("before sign-in")
    assert thread.user is not None
    created = thread.remember("User plays the cello").memory.created_at
    clock.advance(3600)
    changed = thread.remember("User plays the cello").memory.updated_at  # reinforced an hour later
    clock.advance(3600)
    memory.merge_thread(thread.user.name, "default")
    [row] = memory.list_memories()
    assert (row.created_at, row.updated_at) == (created, changed)


def test_only_the_columns_meant_to_change_can_be_changed(memory: Memory) -> None:
    row = memory.remember("User keeps bees in the back garden").memory
    with pytest.raises(ValueError, match=r"^cannot update \['kind', 'user_id'\]$"):
        memory.scope.update_memory(row.id, memory.clock(), user_id=2, kind="preference")
    assert memory.get(row.id).kind == "fact"


def test_an_audit_entry_without_a_target_says_none(memory: Memory) -> None:
    memory.remember("User keeps bees in the back garden")
    memory.forget_all("DELETE")
    [entry] = [entry for entry in memory.scope.list_audit() if entry.action == "forget_all"]
    assert (entry.target_kind, entry.target_id, entry.reason) == ("", None, "forget everything on request")
