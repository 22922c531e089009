"""Summaries as search, "recent" and the statistics show them: by day, by period, best and newest
first, and counted per user.

Written for the mutants of store/summaries.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from conftest import Clock

from reverie import Memory, load_settings

DAY = 86_400.0


def _at(day: int, hour: int = 12) -> float:
    return datetime(2026, 1, day, hour, tzinfo=UTC).timestamp()


def test_summaries_of_a_day_or_a_range_by_date_alone_or_with_words(tmp_path: Path) -> None:
    # Keywords only: with embeddings on, summaries are also found by meaning, dated in Python.
    environ = {"REVERIE_EMBEDDINGS__ENABLED": "false", "REVERIE_MEMORY__TIMEZONE": "UTC"}
    with Memory(load_settings(home=tmp_path, environ=environ)) as memory:
        _by_date(memory)


def _by_date(memory: Memory) -> None:
    memory.add_summary("Talked about the garden shed.", at=_at(12))
    memory.add_summary("Talked about the garden pond.", at=_at(13))
    memory.add_summary("Talked about the dentist.", at=_at(13, 18))
    memory.add_summary("Talked about the garden gate.", at=_at(14))
    on_13th = memory.search("", date="2026-01-13").summaries
    assert [hit.summary.text for hit in on_13th] == [
        "Talked about the dentist.",
        "Talked about the garden pond.",
    ]
    garden = memory.search("garden", date_from="2026-01-13", date_to="2026-01-14").summaries
    assert [hit.summary.text for hit in garden] == [
        "Talked about the garden gate.",
        "Talked about the garden pond.",
    ]
    assert [hit.summary.text for hit in memory.search("garden", date_to="2026-01-12").summaries] == [
        "Talked about the garden shed."
    ]


def test_equally_good_summaries_come_newest_first(tmp_path: Path) -> None:
    with Memory(load_settings(home=tmp_path, environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})) as memory:
        _newest_first(memory)


def _newest_first(memory: Memory) -> None:
    older = memory.add_summary("Talked about the allotment.", at=_at(10))
    newer = memory.add_summary("Talked about the allotment.", at=_at(11))
    hits = memory.search("allotment").summaries
    assert [hit.summary.id for hit in hits] == [newer.id, older.id]
    assert hits[0].score == hits[1].score > 0


def test_recent_summaries_are_those_of_the_period(memory: Memory, clock: Clock) -> None:
    memory.add_summary("Talked about the boiler.", at=clock() - 3 * DAY)
    memory.add_summary("Talked about the roof.", at=clock() - 3600)
    assert [s.text for s in memory.recent("1d").summaries] == ["Talked about the roof."]
    assert [s.text for s in memory.recent("1w").summaries] == [
        "Talked about the roof.",
        "Talked about the boiler.",
    ]


def test_the_statistics_count_this_user_s_summaries(memory: Memory) -> None:
    memory.add_summary("Talked about the garden shed.")
    memory.add_summary("Talked about the dentist.")
    assert memory.stats()["summaries"] == 2


def test_the_store_gives_fifty_summaries_newest_first_and_ten_search_hits_by_default(tmp_path: Path) -> None:
    with Memory(load_settings(home=tmp_path, environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})) as memory:
        added = [
            memory.add_summary(f"Talked about the allotment, week {n}.", at=_at(1) + n) for n in range(51)
        ]
        newest_first = [s.id for s in reversed(added)]
        assert [s.id for s in memory.scope.list_summaries()] == newest_first[:50]
        assert [s.id for s in memory.scope.list_summaries(limit=100)] == newest_first
        assert len(memory.scope.search_summaries(["allotment"])) == 10
        assert len(memory.scope.search_summaries(["allotment"], limit=100)) == 51
