"""Search and recent listings (retrieve/search.py): limits, refusals, dated listings, the answer to
a question of common words only, and what a period holds.

Written for the mutants of retrieve/search.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import pytest

from reverie import InvalidInput, Memory, Settings
from tests.conftest import VARIED_FACTS, Clock

DAY = 86400.0


@pytest.mark.parametrize("limit", [0, 201])
def test_a_limit_outside_one_to_two_hundred_is_refused_with_the_range(memory: Memory, limit: int) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.search("violin", limit=limit)
    assert str(refused.value) == f"limit must be between 1 and 200, got {limit}"


def test_limits_of_one_and_two_hundred_are_answered(memory: Memory) -> None:
    memory.remember("User's daughter Emma plays the violin")
    memory.remember("User's son plays the violin in a quartet")
    assert len(memory.search("violin", limit=1).facts) == 1
    assert len(memory.search("violin", limit=200).facts) == 2


def test_a_search_without_words_or_dates_is_refused_with_what_to_give(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.search("  ")
    assert str(refused.value) == "Give keywords to search for, or a date / date_from / date_to"


def test_a_start_date_alone_lists_what_came_since(memory: Memory, clock: Clock) -> None:
    clock.advance(-10 * DAY)
    memory.remember(VARIED_FACTS[0])
    clock.advance(9 * DAY)
    memory.remember(VARIED_FACTS[2], source="inferred", confidence=0.6)
    clock.advance(DAY)
    memory.remember(VARIED_FACTS[1], source="inferred", confidence=0.5)
    memory.prefer("music", "jazz in the evening")
    found = memory.search("", date_from="2026-01-14")  # the clock reads 2026-01-15
    assert (found.query, found.terms) == ("", [])
    assert [(hit.memory.text, hit.score) for hit in found.facts] == [
        (VARIED_FACTS[1], 0.0),
        (VARIED_FACTS[2], 0.0),
    ]
    assert [(hit.memory.kind, hit.score) for hit in found.preferences] == [("preference", 0.0)]
    assert [hit.memory.text for hit in memory.search("", date_from="2026-01-14", limit=1).facts] == [
        VARIED_FACTS[1]
    ]


def test_dates_are_days_of_the_configured_time_zone(settings: Settings, clock: Clock) -> None:
    settings.memory.timezone = "Asia/Tokyo"  # 2026-01-15 18:00 UTC is 2026-01-16 03:00 in Tokyo
    with Memory(settings, clock=clock) as memory:
        memory.remember("User bought a red kettle")
        assert [hit.memory.text for hit in memory.search("", date="2026-01-16").facts] == [
            "User bought a red kettle"
        ]


def test_a_question_of_common_words_answers_with_the_strongest_memories(memory: Memory, clock: Clock) -> None:
    memory.remember(VARIED_FACTS[1], source="inferred", confidence=0.9)
    clock.advance(60)
    memory.remember(VARIED_FACTS[0], source="inferred", confidence=0.6)  # newer, weaker
    memory.prefer("music", "jazz in the evening")
    for days in (4, 3, 2, 1):
        memory.add_summary(f"Talked about topic {days}", at=clock.now - days * DAY)
    found = memory.search("what do you know about me")
    assert (found.query, found.terms) == ("what do you know about me", [])
    assert [(hit.memory.text, hit.score) for hit in found.facts] == [
        (VARIED_FACTS[1], 0.0),
        (VARIED_FACTS[0], 0.0),
    ]
    assert [(hit.memory.kind, hit.score) for hit in found.preferences] == [("preference", 0.0)]
    assert [(hit.summary.text, hit.score) for hit in found.summaries] == [
        ("Talked about topic 1", 0.0),
        ("Talked about topic 2", 0.0),
        ("Talked about topic 3", 0.0),
    ]
    assert len(memory.search("what do you know about me", limit=2).summaries) == 2


def test_recent_holds_the_period_s_facts_preferences_and_summaries_newest_first(
    memory: Memory, clock: Clock
) -> None:
    start = clock.now
    clock.advance(-9 * DAY)
    memory.remember(VARIED_FACTS[0])
    memory.prefer("lights", "warm white in the kitchen")
    memory.add_summary("Talked about the old kitchen")
    clock.now = start - 2 * DAY
    memory.remember(VARIED_FACTS[1])
    clock.now = start - DAY
    memory.remember(VARIED_FACTS[2])
    memory.prefer("music", "jazz in the evening")
    memory.add_summary("Talked about the garden")
    clock.now = start
    recent = memory.recent("7d")
    assert (recent.period, recent.since) == ("7d", start - 7 * DAY)
    assert [row.text for row in recent.facts] == [VARIED_FACTS[2], VARIED_FACTS[1]]
    assert [row.kind for row in recent.preferences] == ["preference"]
    assert [row.text for row in recent.summaries] == ["Talked about the garden"]
    assert len(memory.recent("30d", limit=1).summaries) == 1
