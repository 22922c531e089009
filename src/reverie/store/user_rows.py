"""A user's conversations and turns as export reads them and import restores them, for both engines.

Turns are restored through the store's own ``add_message`` (which indexes them for keyword search
on each engine); this module only reads them and restores what a new conversation row cannot
say by itself: its title, times, consolidation state and topic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reverie.store.conversations import MESSAGE_COLUMNS
from reverie.store.dialect import Dialect, Row

_RESTORED = ("title", "last_activity", "ended_at", "consolidation_state", "consolidated_at", "topic")


class UserRows:
    """Mixed into the user store, which provides ``db`` and ``user_id`` (in every statement)."""

    db: Dialect
    user_id: int

    def conversation_rows(self) -> list[Row]:
        """Every conversation of the user, oldest first, with what export keeps of it."""
        rows = self.db.rows(
            "SELECT id, interface, title, started_at, last_activity, ended_at, is_private,"
            " consolidation_state, consolidated_at, topic FROM conversations"
            " WHERE user_id = ? ORDER BY started_at, id",
            (self.user_id,),
        )
        return [{**row, "is_private": bool(row["is_private"])} for row in rows]

    def message_rows(self) -> list[Row]:
        """Every turn of the user, by conversation then order, with summarized, intent and memory_created."""
        rows = self.db.rows(
            f"SELECT {MESSAGE_COLUMNS}, m.summarized FROM messages m WHERE m.user_id = ?"
            " ORDER BY m.conversation_id, m.id",
            (self.user_id,),
        )
        flags = ("summarized", "memory_created")
        return [{**row, **{flag: bool(row[flag]) for flag in flags}} for row in rows]

    def restore_conversation(self, conversation_id: int, fields: Mapping[str, Any]) -> None:
        """Give a conversation created by import its title, times, consolidation state and topic."""
        assignments = ", ".join(f"{name} = ?" for name in _RESTORED)
        self.db.run(
            f"UPDATE conversations SET {assignments} WHERE id = ? AND user_id = ?",
            (*(fields[name] for name in _RESTORED), conversation_id, self.user_id),
        )


__all__ = ["UserRows"]
