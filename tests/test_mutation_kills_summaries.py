"""Conversation summaries and the base memory as a user sees them.

Written for the mutants of core/summaries.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from pathlib import Path

import fakeserver
import pytest
from fakeserver import FakeModelServer

from reverie import Memory, load_settings
from reverie.errors import InvalidInput, NotFound
from tests.conftest import Clock

fake_server = fakeserver.fake_server


def test_a_summary_keeps_five_trimmed_topics_and_what_it_covers(memory: Memory, clock: Clock) -> None:
    at = clock() - 3600
    row = memory.add_summary(
        "Planned the allotment for spring.",
        topics=[" garden ", "", "  ", "beans", "compost", "rain", "shed", "frost"],
        sentiment="positive",
        at=at,
        message_count=12,
        duration_seconds=540.0,
    )
    (listed,) = memory.summaries()
    assert listed == row
    assert listed.text == "Planned the allotment for spring."
    assert listed.topics == ["garden", "beans", "compost", "rain", "shed"]
    assert (listed.sentiment, listed.created_at, listed.message_count) == ("positive", at, 12)
    assert listed.duration_seconds == 540.0
    assert [h.summary.text for h in memory.search("allotment").summaries] == [row.text]


def test_a_summary_may_be_four_times_a_memory_s_size(memory: Memory) -> None:
    limit = 4 * memory.settings.memory.max_memory_bytes
    memory.add_summary("a" * limit)
    with pytest.raises(InvalidInput):
        memory.add_summary("b" * (limit + 1))
    assert [len(s.text) for s in memory.summaries()] == [limit]


def test_the_base_memory_is_trimmed_and_may_be_sixteen_times_a_memory_s_size(memory: Memory) -> None:
    memory.set_base_memory("  Ann is a nurse in Leeds.  ")
    assert memory.base_memory() == "Ann is a nurse in Leeds."
    limit = 16 * memory.settings.memory.max_memory_bytes
    memory.set_base_memory("c" * limit)
    assert memory.base_memory() == "c" * limit
    with pytest.raises(InvalidInput):
        memory.set_base_memory("d" * (limit + 1))
    memory.set_base_memory("   ")
    assert memory.base_memory() == ""


def test_summaries_page_newest_first(memory: Memory, clock: Clock) -> None:
    for n in range(3):
        memory.add_summary(f"Talk number {n}.", at=clock() - 3600 + n)
    assert [s.text for s in memory.summaries(limit=2)] == ["Talk number 2.", "Talk number 1."]
    assert [s.text for s in memory.summaries(limit=2, offset=2)] == ["Talk number 0."]
    with pytest.raises(InvalidInput):
        memory.summaries(limit=0)


def test_a_guest_has_no_summaries_and_no_base_memory(memory: Memory) -> None:
    memory.add_summary("Talked about the weather.")
    memory.set_base_memory("Ann is a nurse.")
    guest = memory.for_interface("hallway")
    assert guest.user is None
    assert guest.summaries() == [] and guest.base_memory() == ""


def test_deleting_a_summary_is_for_good_and_audited(memory: Memory) -> None:
    kept = memory.add_summary("Talked about the garden shed.")
    gone = memory.add_summary("Talked about the dentist.")
    assert memory.delete_summary(gone.id) == gone
    assert [s.id for s in memory.summaries()] == [kept.id]
    assert memory.search("dentist").summaries == []
    with pytest.raises(NotFound) as missing:
        memory.delete_summary(gone.id)
    assert str(missing.value) == f"No summary with id {gone.id}"
    (entry,) = [a for a in memory.scope.list_audit() if a.action == "delete"]
    assert (entry.target_kind, entry.target_id, entry.reason) == ("summary", gone.id, "deleted by user")


def test_a_summary_keeps_its_conversation(memory: Memory) -> None:
    conversation = memory.start_conversation("api")
    row = memory.add_summary("Talked about the garden shed.", conversation_id=conversation.id)
    (listed,) = memory.summaries()
    assert listed.conversation_id == conversation.id == row.conversation_id


def test_a_summary_is_found_by_meaning(tmp_path: Path, fake_server: FakeModelServer) -> None:
    fake_server.dimensions = 256
    fake_server.synonyms["apiary"] = "bees"
    environ = fakeserver.embedding_environ(fake_server)
    with Memory(load_settings(home=tmp_path, environ=environ)) as memory:
        memory.add_summary("Talked about bees")
        memory.add_summary("Talked about choir practice")
        found = memory.search("apiary", limit=5).summaries  # no summary has the word
    assert [hit.summary.text for hit in found] == ["Talked about bees"]
