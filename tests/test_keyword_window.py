"""Keyword search over memories ranks a window of the best matches; filters may need the whole match."""

from __future__ import annotations

from reverie.memory import Memory
from reverie.store.base import Kind, NewMemory


def _insert(memory: Memory, kind: Kind, texts: list[str]) -> list[int]:
    scope = memory.scope
    with scope.transaction():
        return [
            scope.insert_memory(NewMemory(kind=kind, text=text, source="explicit", confidence=1.0), 1.0).id
            for text in texts
        ]


def test_facts_beyond_the_window_are_found_when_the_window_filters_out(memory: Memory) -> None:
    # 260 short preferences outrank the three longer facts by BM25: a window of the best 200
    # matches holds no fact, so the search must rank the whole match.
    _insert(memory, "preference", [f"violin lesson {n}" for n in range(260)])
    facts = _insert(
        memory,
        "fact",
        [
            "User's daughter Emma has played the violin since she was four years old",
            "User keeps an old violin from a grandfather in the attic at home",
            "User bought a violin case with a shoulder strap for the trips abroad",
        ],
    )
    found = memory.scope.search_memories(["violin"], kinds=("fact",), limit=8)
    assert sorted(row.id for row, _ in found) == facts


def test_a_window_that_was_not_full_is_the_whole_match(memory: Memory) -> None:
    ids = _insert(memory, "fact", ["User plays the cello", "User's cello teacher is Ana", "User sings"])
    found = memory.scope.search_memories(["cello"], kinds=("fact",), limit=8)
    assert sorted(row.id for row, _ in found) == ids[:2]
    scores = [score for _, score in found]
    assert scores == sorted(scores, reverse=True)
    assert memory.scope.search_memories(["oboe"], kinds=("fact",), limit=8) == []
    both = memory.scope.search_memories(["cello", "teacher"], kinds=("fact",), limit=8, min_match=2)
    assert [row.text for row, _ in both] == ["User's cello teacher is Ana"]
