"""Ranking options, limits and budgets, each tested with enough rows or text to cross them."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import VARIED_FACTS, Clock
from fastapi.testclient import TestClient

from reverie import Memory, load_settings
from reverie.retrieve.context import FENCE_CLOSE, FENCE_OPEN, PREAMBLE, _enforce, _Section
from reverie.retrieve.hybrid import RRF_K, fuse
from reverie.server import create_app
from reverie.server.ui_api import timeline
from reverie.text import count_tokens
from reverie.tools.memory_tool import run_function
from tests.apiauth import auth_headers


# reciprocal rank fusion ------------------------------------------------------------------------
def test_rrf_adds_weight_over_rank_and_ignores_the_scores() -> None:
    keyword = [(1, 9.0), (2, 5.0), (3, 1.0)]
    vector = [(3, 0.9), (4, 0.8)]
    fused = fuse(keyword, vector, keyword_weight=0.3, vector_weight=0.7, fusion="rrf")
    assert [item for item, _ in fused] == [3, 4, 1, 2]
    assert dict(fused) == pytest.approx(
        {
            3: 0.3 / (RRF_K + 3) + 0.7 / (RRF_K + 1),
            4: 0.7 / (RRF_K + 2),
            1: 0.3 / (RRF_K + 1),
            2: 0.3 / (RRF_K + 2),
        }
    )
    rescaled = fuse(
        [(i, s * 1000) for i, s in keyword], vector, keyword_weight=0.3, vector_weight=0.7, fusion="rrf"
    )
    assert rescaled == fused, "only ranks count"
    weighted = fuse(keyword, vector, keyword_weight=0.3, vector_weight=0.7, fusion="weighted")
    assert [item for item, _ in weighted] == [3, 4, 1, 2] and dict(weighted)[1] == pytest.approx(0.3)


def test_rrf_ties_go_to_the_newer_item() -> None:
    fused = fuse([(5, 1.0)], [(9, 1.0)], keyword_weight=0.5, vector_weight=0.5, fusion="rrf")
    assert [item for item, _ in fused] == [9, 5]
    assert [score for _, score in fused] == pytest.approx([0.5 / (RRF_K + 1)] * 2)


def test_search_uses_rrf_when_configured(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(home=tmp_path / "h", environ={"REVERIE_EMBEDDINGS__HYBRID__FUSION": "rrf"})
    with Memory(settings, clock=clock) as memory:
        for fact in VARIED_FACTS:
            memory.remember(fact)
        both = memory.search("sourdough starter", limit=12).facts
        by_meaning = memory.search("family members", limit=12).facts  # no stored fact has these words
    assert both[0].memory.text == "User has a sourdough starter named Gerald"
    assert both[0].score == pytest.approx((0.3 + 0.7) / (RRF_K + 1)), "first in both lists"
    assert [hit.score for hit in by_meaning] == pytest.approx(
        [0.7 / (RRF_K + r) for r in range(1, len(by_meaning) + 1)]
    )
    assert len(by_meaning) >= 3


# the context's last trim --------------------------------------------------------------------------
def _sections() -> list[_Section]:
    facts, summaries = _Section("Known facts:", 10_000), _Section("Recent conversations:", 10_000)
    for i, fact in enumerate(VARIED_FACTS[:6]):
        facts.add(f"- {fact} (explicit, high confidence)", i + 1)
    for i in range(3):
        summaries.add(f"- Yesterday: talked about the garden, the bees and the shed, part {i}", 100 + i)
    return [facts, summaries]


def _render(sections: list[_Section]) -> str:
    body = [s.render() for s in sections if s.lines]
    return "\n".join([FENCE_OPEN, PREAMBLE, "", "\n\n".join(body), FENCE_CLOSE])


def test_last_trim_drops_trailing_lines_until_the_block_fits() -> None:
    whole = _render(_sections())
    size = count_tokens(whole)
    assert _enforce(whole, _sections(), size)[0] == whole, "a block at the budget stays whole"

    text, sections = _enforce(whole, _sections(), size - 1)
    assert [len(s.lines) for s in sections] == [6, 2] and sections[1].ids == [100, 101]
    assert text == _render(sections) and count_tokens(text) <= size - 1

    only_facts = _sections()[:1]
    only_facts[0].lines, only_facts[0].ids = only_facts[0].lines[:4], only_facts[0].ids[:4]
    budget = count_tokens(_render(only_facts))
    text, sections = _enforce(whole, _sections(), budget)
    assert [len(s.lines) for s in sections] == [4, 0] and sections[0].ids == [1, 2, 3, 4]
    assert text == _render(only_facts)

    assert _enforce(whole, _sections(), count_tokens(_render([])) - 1)[0] == ""


def test_context_budget_keeps_the_first_lines_of_a_long_store(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(home=tmp_path / "h", environ={"REVERIE_MEMORY__CONTEXT_BUDGET_TOKENS": "200"})
    with Memory(settings, clock=clock) as memory:
        for fact in VARIED_FACTS:
            clock.advance(60)
            memory.remember(fact)
        block = memory.context(touch=False)
        memory.settings.memory.context_budget_tokens = 4000
        roomy = memory.context(touch=False)
    assert block.tokens <= 200 < roomy.tokens
    shown = [line for line in block.text.splitlines() if line.startswith("- ")]
    assert (
        3 <= len(shown) < len(VARIED_FACTS) == len(roomy.fact_ids)
        and block.fact_ids == roomy.fact_ids[: len(shown)]
    )
    assert block.text.splitlines()[:-1] == roomy.text.splitlines()[: len(block.text.splitlines()) - 1]


# paging ----------------------------------------------------------------------------------------------
def test_conversations_page_newest_first(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(home=tmp_path / "h", environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings, "bob")) as client:
        made = []
        for i in range(7):
            clock.advance(3600)
            made.append(client.post("/api/v1/conversations", json={"interface": f"room{i}"}).json()["id"])
        pages = [
            [c["id"] for c in client.get("/api/v1/conversations", params={"limit": 3, "offset": o}).json()]
            for o in (0, 3, 6, 9)
        ]
    assert pages == [made[6:3:-1], made[3:0:-1], made[:1], []]


def test_search_limit_cuts_a_longer_list(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(home=tmp_path / "h", environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})
    with Memory(settings, clock=clock) as memory:
        for fact in VARIED_FACTS:
            memory.remember(fact)
        everything = [hit.memory.text for hit in memory.search("user", limit=50).facts]
        first = [hit.memory.text for hit in memory.search("user", limit=4).facts]
    assert len(everything) > 4 and first == everything[:4]


def test_context_ranks_facts_by_confidence_and_recency_after_the_relevant_ones(
    tmp_path: Path, clock: Clock
) -> None:
    settings = load_settings(
        home=tmp_path / "h",
        environ={"REVERIE_MEMORY__CONTEXT_MAX_FACTS": "3", "REVERIE_EMBEDDINGS__ENABLED": "false"},
    )
    day = 86400.0
    with Memory(settings, clock=clock) as memory:
        memory.remember("User is colour-blind", confidence=0.95)  # 300 days old: 0.95
        clock.advance(210 * day)
        memory.remember("User sings in a community choir", confidence=0.9)  # 90 days old: 0.9075
        clock.advance(90 * day)
        memory.remember("User restores old motorcycles", confidence=0.9)  # new: 1.05
        memory.remember("User brews kombucha at home", confidence=0.82)  # new: 0.97
        memory.remember("User keeps bees in the back garden", confidence=0.6)  # new: 0.75 (at confidence_min)

        def facts(query: str | None) -> list[str]:
            text = memory.context(query, touch=False).text
            section = text.split("Known facts:\n", 1)[1].split("\n\n", 1)[0]
            return [line[2:].split(" (", 1)[0] for line in section.splitlines() if line.startswith("- ")]

        assert facts(None) == [
            "User restores old motorcycles",
            "User brews kombucha at home",
            "User is colour-blind",
        ]
        assert facts("where are the bees?") == [
            "User keeps bees in the back garden",
            "User restores old motorcycles",
            "User brews kombucha at home",
            "User is colour-blind",
        ]


def test_list_memories_verb_limits_and_filters_over_more_rows_than_the_limit(
    tmp_path: Path, clock: Clock
) -> None:
    settings = load_settings(home=tmp_path / "h", environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})
    with Memory(settings, clock=clock) as memory:
        for fact in VARIED_FACTS[:25]:
            clock.advance(60)
            assert run_function(memory, "create_memory", {"content": fact}).ok
        notes = [f"Note {word}: check the {word} before winter" for word in ("gutter", "boiler", "roof")]
        for note in notes:
            clock.advance(60)
            assert run_function(memory, "create_memory", {"content": note, "memory_type": "note"}).ok

        def listed(**args: Any) -> list[str]:
            data = run_function(memory, "list_memories", args).data
            assert data is not None and data["count"] == len(data["memories"])
            return [row["content"] for row in data["memories"]]

        newest_first = [*reversed(notes), *reversed(VARIED_FACTS[:25])]
        assert listed() == newest_first[:20], "default limit 20, newest first"
        assert listed(limit=200) == newest_first
        assert listed(memory_type="fact", limit=20) == newest_first[3:23], "notes do not eat the limit"
        assert listed(memory_type="note", limit=2) == newest_first[:2]


# dashboard charts ----------------------------------------------------------------------------
@pytest.mark.parametrize(("span", "bucket"), [(62, "day"), (63, "week"), (728, "week"), (729, "month")])
def test_chart_buckets_switch_at_their_spans(tmp_path: Path, clock: Clock, span: int, bucket: str) -> None:
    settings = load_settings(home=tmp_path / "h", environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})
    day = 86400.0
    with Memory(settings, clock=clock) as memory:
        memory.remember("User is colour-blind")
        clock.advance(span * day)
        memory.remember("User sings in a community choir")
        memory.prefer("units", "metric")
        rows = memory.list_memories(limit=10)
    got, points = timeline(rows, UTC, clock.now)
    starts = [date.fromisoformat(point.start) for point in points]
    days = [datetime.fromtimestamp(row.created_at, UTC).date() for row in rows]
    first_day, last_day = min(days), max(days)
    assert got == bucket
    assert (points[0].total, points[1].facts, points[-1].facts, points[-1].preferences) == (0, 1, 1, 1)
    assert points[-1].total == 3 and sum(p.facts + p.preferences for p in points) == 3
    assert starts[1] <= first_day < starts[2] and starts[-1] <= last_day
    steps = {(later - earlier).days for earlier, later in zip(starts, starts[1:], strict=False)}
    if bucket == "day":
        assert steps == {1} and len(points) == span + 2
    elif bucket == "week":
        assert steps == {7} and all(start.weekday() == 0 for start in starts)
    else:
        assert steps <= {28, 29, 30, 31} and all(start.day == 1 for start in starts)
