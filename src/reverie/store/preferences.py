"""Structured preferences of both engines (Saga): category + key + value + scope, one active per key.

A preference is a memory of kind ``preference`` whose ``category`` column says what it is about
("lights", "climate", "global") and whose ``key`` what it sets ("color", "brightness"); the value
is the memory's text. The unique index ``idx_memories_active_key`` keeps one active row per
(user, category, key); a replaced value stays as a superseded row, its history.
"""

from __future__ import annotations

from collections.abc import Sequence

from reverie.store.dialect import UserPart
from reverie.store.memories import MEMORY_COLUMNS, memory_row
from reverie.store.rows import MemoryRow


class Preferences(UserPart):
    """One user's structured preferences (memories of kind ``preference``)."""

    def find_preference(self, category: str, key: str) -> MemoryRow | None:
        """The active preference with this category and key."""
        return self.db.read_row(
            memory_row,
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE user_id = ? AND kind = 'preference'"
            " AND status = 'active' AND category = ? AND key = ?",
            (self.user_id, category, key),
        )

    def list_preferences(
        self, categories: Sequence[str] | None = None, *, limit: int = 50
    ) -> list[MemoryRow]:
        """Active preferences (of these categories, or all), strongest first."""
        clause, params = "", []
        if categories is not None:
            if not categories:
                return []
            among, listed = self.db.one_of("category", list(categories))
            clause, params = f" AND {among}", listed
        return self.db.read_rows(
            memory_row,
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE user_id = ? AND kind = 'preference'"
            f" AND status = 'active'{clause} ORDER BY confidence DESC, updated_at DESC, id DESC LIMIT ?",
            [self.user_id, *params, limit],
        )

    def preference_history(self, category: str, key: str) -> list[MemoryRow]:
        """Every value this preference had (active and superseded), oldest first."""
        return self.db.read_rows(
            memory_row,
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE user_id = ? AND kind = 'preference'"
            " AND status IN ('active', 'superseded') AND category = ? AND key = ? ORDER BY created_at, id",
            (self.user_id, category, key),
        )


__all__ = ["Preferences"]
