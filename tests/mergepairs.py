"""Remember two facts in a row and read what stayed: the merge tests' one way to judge a pair."""

from __future__ import annotations

from reverie import Memory


def remember_pair(memory: Memory, old: str, new: str) -> tuple[str, list[str]]:
    """The status the new fact was answered with, and the texts of the facts still active."""
    memory.remember(old)
    status = memory.remember(new).status
    return status, sorted(m.text for m in memory.list_memories(kind="fact"))
