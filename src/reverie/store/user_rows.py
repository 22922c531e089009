"""A user's conversations and turns as export reads them and import restores them, for both engines.

The statements are written once over :class:`~reverie.store.dialect.Dialect`; every one carries
the user's id. Turns are restored through the store's own ``add_message`` (which indexes them
for keyword search on each engine); this module only reads them and restores what a new
conversation row cannot say by itself: its title, times, consolidation state and topic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reverie.store.dialect import Dialect, Row

CONSOLIDATION_STATES = ("open", "pending", "running", "done", "failed", "skipped")


def _db(scope: object) -> tuple[Dialect, int]:
    db, user_id = getattr(scope, "db", None), getattr(scope, "user_id", None)
    if not isinstance(db, Dialect) or not isinstance(user_id, int):
        raise TypeError(f"{type(scope).__name__} is not a user store over a Dialect")
    return db, user_id


def conversation_rows(scope: object) -> list[Row]:
    """Every conversation of the user, oldest first, with what export keeps of it."""
    db, user_id = _db(scope)
    rows = db.rows(
        "SELECT id, interface, title, started_at, last_activity, ended_at, is_private,"
        " consolidation_state, consolidated_at, topic FROM conversations"
        " WHERE user_id = ? ORDER BY started_at, id",
        (user_id,),
    )
    return [{**row, "is_private": bool(row["is_private"])} for row in rows]


def message_rows(scope: object) -> list[Row]:
    """Every turn of the user, by conversation then order, with summarized, intent and memory_created."""
    db, user_id = _db(scope)
    rows = db.rows(
        "SELECT id, conversation_id, role, content, speaker, ref, created_at, summarized, intent,"
        " memory_created FROM messages WHERE user_id = ? ORDER BY conversation_id, id",
        (user_id,),
    )
    return [
        {**row, "summarized": bool(row["summarized"]), "memory_created": bool(row["memory_created"])}
        for row in rows
    ]


def restore_conversation(scope: object, conversation_id: int, fields: Mapping[str, Any]) -> None:
    """Give a conversation created by import its title, times, consolidation state and topic."""
    db, user_id = _db(scope)
    db.run(
        "UPDATE conversations SET title = ?, last_activity = ?, ended_at = ?, consolidation_state = ?,"
        " consolidated_at = ?, topic = ? WHERE id = ? AND user_id = ?",
        (
            fields["title"],
            fields["last_activity"],
            fields["ended_at"],
            fields["consolidation_state"],
            fields["consolidated_at"],
            fields["topic"],
            conversation_id,
            user_id,
        ),
    )


__all__ = ["CONSOLIDATION_STATES", "conversation_rows", "message_rows", "restore_conversation"]
