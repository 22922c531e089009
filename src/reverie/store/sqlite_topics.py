"""SQLite statements for one user's topics, their memories and the recent-topics index."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from reverie.store.base import TopicIndexRow, TopicRow, iter_batches

if TYPE_CHECKING:
    from reverie.store.sqlite import SqliteStore


def _topic(row: sqlite3.Row) -> TopicRow:
    return TopicRow(
        id=row["id"],
        slug=row["slug"],
        title=row["title"],
        line_count=row["line_count"],
        file_hash=row["file_hash"],
        error=row["error"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


class TopicStatements:
    """Mixed into the user store; every statement carries the user's id."""

    _store: SqliteStore
    user_id: int

    def list_topics(self) -> list[TopicRow]:
        """The user's topics, by slug."""
        rows = (
            self._store.connection()
            .execute("SELECT * FROM topics WHERE user_id = ? ORDER BY slug", (self.user_id,))
            .fetchall()
        )
        return [_topic(row) for row in rows]

    def get_topic(self, slug: str) -> TopicRow | None:
        """One topic."""
        row = (
            self._store.connection()
            .execute("SELECT * FROM topics WHERE user_id = ? AND slug = ?", (self.user_id, slug))
            .fetchone()
        )
        return _topic(row) if row else None

    def save_topic(
        self, slug: str, title: str, now: float, *, line_count: int, file_hash: str, error: str = ""
    ) -> TopicRow:
        """Create or update a topic row."""
        with self._store.transaction() as conn:
            conn.execute(
                "INSERT INTO topics"
                " (user_id, slug, title, line_count, file_hash, error, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id, slug) DO UPDATE SET"
                " title = excluded.title, line_count = excluded.line_count, file_hash = excluded.file_hash,"
                " error = excluded.error, updated_at = excluded.updated_at",
                (self.user_id, slug, title, line_count, file_hash, error, now, now),
            )
            row = conn.execute(
                "SELECT * FROM topics WHERE user_id = ? AND slug = ?", (self.user_id, slug)
            ).fetchone()
        return _topic(row)

    def delete_topic(self, slug: str) -> bool:
        """Forget a topic (its memories stay, untagged)."""
        with self._store.transaction() as conn:
            cur = conn.execute("DELETE FROM topics WHERE user_id = ? AND slug = ?", (self.user_id, slug))
        return cur.rowcount == 1

    def topic_memory_ids(self, topic_id: int) -> list[int]:
        """Ids of the memories that are the topic's lines."""
        rows = (
            self._store.connection()
            .execute(
                "SELECT tm.memory_id FROM topic_memories tm JOIN topics t ON t.id = tm.topic_id"
                " WHERE tm.topic_id = ? AND t.user_id = ? ORDER BY tm.memory_id",
                (topic_id, self.user_id),
            )
            .fetchall()
        )
        return [int(row[0]) for row in rows]

    def tag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Tag memories with a topic (only the user's own topic and memories)."""
        with self._store.transaction() as conn:
            for batch in iter_batches(list(memory_ids)):
                conn.execute(
                    "INSERT OR IGNORE INTO topic_memories (topic_id, memory_id)"
                    " SELECT t.id, m.id FROM topics t JOIN memories m ON m.user_id = t.user_id"
                    f" WHERE t.id = ? AND t.user_id = ? AND m.id IN ({', '.join('?' * len(batch))})",
                    (topic_id, self.user_id, *batch),
                )

    def untag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Remove the topic tag from memories."""
        with self._store.transaction() as conn:
            for batch in iter_batches(list(memory_ids)):
                conn.execute(
                    "DELETE FROM topic_memories WHERE topic_id IN (SELECT id FROM topics WHERE id = ? AND"
                    f" user_id = ?) AND memory_id IN ({', '.join('?' * len(batch))})",
                    (topic_id, self.user_id, *batch),
                )

    def set_conversation_topic(self, conversation_id: int, slug: str | None) -> None:
        """Record the topic a conversation was found to be about."""
        with self._store.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET topic = ? WHERE id = ? AND user_id = ?",
                (slug, conversation_id, self.user_id),
            )

    def conversation_topic(self, conversation_id: int) -> str | None:
        """The topic a conversation was found to be about."""
        row = (
            self._store.connection()
            .execute(
                "SELECT topic FROM conversations WHERE id = ? AND user_id = ?",
                (conversation_id, self.user_id),
            )
            .fetchone()
        )
        return str(row[0]) if row and row[0] else None

    def add_topic_index(
        self, conversation_id: int | None, at: float, topic: str, summary: str, *, keep: int
    ) -> None:
        """Add a line to the recent-topics index, keeping only the newest ``keep``."""
        with self._store.transaction() as conn:
            conn.execute(
                "INSERT INTO topic_index (user_id, conversation_id, at, topic, summary)"
                " VALUES (?, ?, ?, ?, ?)",
                (self.user_id, conversation_id, at, topic, summary),
            )
            conn.execute(
                "DELETE FROM topic_index WHERE user_id = ? AND id NOT IN (SELECT id FROM topic_index"
                " WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?)",
                (self.user_id, self.user_id, keep),
            )

    def list_topic_index(self, limit: int = 20) -> list[TopicIndexRow]:
        """The recent-topics index, newest first."""
        rows = (
            self._store.connection()
            .execute(
                "SELECT id, conversation_id, at, topic, summary FROM topic_index WHERE user_id = ?"
                " ORDER BY at DESC, id DESC LIMIT ?",
                (self.user_id, limit),
            )
            .fetchall()
        )
        return [TopicIndexRow(row[0], row[1], row[2], row[3], row[4]) for row in rows]

    def rename_topic_in_index(self, old: str, new: str) -> None:
        """Point index lines of one topic at another (after a split)."""
        with self._store.transaction() as conn:
            conn.execute(
                "UPDATE topic_index SET topic = ? WHERE user_id = ? AND topic = ?", (new, self.user_id, old)
            )
            conn.execute(
                "UPDATE conversations SET topic = ? WHERE user_id = ? AND topic = ?", (new, self.user_id, old)
            )


__all__ = ["TopicStatements"]
