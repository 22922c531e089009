"""Topics of both engines: one user's topics, the memories tagged with them and the recent-topics index."""

from __future__ import annotations

from collections.abc import Sequence

from reverie.store.dialect import RowReader, UserPart
from reverie.store.rows import TopicIndexRow, TopicRow

_topic = RowReader(TopicRow)
_index_line = RowReader(TopicIndexRow)


class Topics(UserPart):
    """One user's topics, the memories tagged with them and the recent-topics index."""

    def list_topics(self) -> list[TopicRow]:
        """The user's topics, by slug."""
        return self.db.select(_topic, "FROM topics WHERE user_id = ? ORDER BY slug", (self.user_id,))

    def get_topic(self, slug: str) -> TopicRow | None:
        """One topic."""
        return self.db.select_one(_topic, "FROM topics WHERE user_id = ? AND slug = ?", (self.user_id, slug))

    def save_topic(
        self, slug: str, title: str, now: float, *, line_count: int, file_hash: str, error: str = ""
    ) -> TopicRow:
        """Create or update a topic row."""
        row = self.db.write_one(
            _topic,
            "INSERT INTO topics (user_id, slug, title, line_count, file_hash, error, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, slug) DO UPDATE SET"
            " title = excluded.title, line_count = excluded.line_count, file_hash = excluded.file_hash,"
            " error = excluded.error, updated_at = excluded.updated_at",
            (self.user_id, slug, title, line_count, file_hash, error, now, now),
        )
        assert row is not None
        return row

    def delete_topic(self, slug: str) -> bool:
        """Forget a topic (its memories stay, untagged)."""
        return self.db.run("DELETE FROM topics WHERE user_id = ? AND slug = ?", (self.user_id, slug)) == 1

    def topic_memory_ids(self, topic_id: int) -> list[int]:
        """Ids of the memories that are the topic's lines."""
        rows = self.db.rows(
            "SELECT tm.memory_id FROM topic_memories tm JOIN topics t ON t.id = tm.topic_id"
            " WHERE tm.topic_id = ? AND t.user_id = ? ORDER BY tm.memory_id",
            (topic_id, self.user_id),
        )
        return [int(row["memory_id"]) for row in rows]

    def tag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Tag memories with a topic (only the user's own topic and memories)."""
        self.db.run_among(
            "INSERT INTO topic_memories (topic_id, memory_id)"
            " SELECT t.id, m.id FROM topics t JOIN memories m ON m.user_id = t.user_id"
            " WHERE t.id = ? AND t.user_id = ? AND {among} ON CONFLICT DO NOTHING",
            "m.id",
            list(memory_ids),
            (topic_id, self.user_id),
        )

    def untag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Remove the topic tag from memories."""
        self.db.run_among(
            "DELETE FROM topic_memories"
            " WHERE topic_id IN (SELECT id FROM topics WHERE id = ? AND user_id = ?) AND {among}",
            "memory_id",
            list(memory_ids),
            (topic_id, self.user_id),
        )

    def set_conversation_topic(self, conversation_id: int, slug: str | None) -> None:
        """Record the topic a conversation was found to be about."""
        self.db.run(
            "UPDATE conversations SET topic = ? WHERE id = ? AND user_id = ?",
            (slug, conversation_id, self.user_id),
        )

    def conversation_topic(self, conversation_id: int) -> str | None:
        """The topic a conversation was found to be about."""
        row = self.db.row(
            "SELECT topic FROM conversations WHERE id = ? AND user_id = ?", (conversation_id, self.user_id)
        )
        return str(row["topic"]) if row and row["topic"] else None

    def add_topic_index(
        self, conversation_id: int | None, at: float, topic: str, summary: str, *, keep: int
    ) -> None:
        """Add a line to the recent-topics index, keeping only the newest ``keep``."""
        with self.db.transaction():
            self.db.run(
                "INSERT INTO topic_index (user_id, conversation_id, at, topic, summary)"
                " VALUES (?, ?, ?, ?, ?)",
                (self.user_id, conversation_id, at, topic, summary),
            )
            self.db.run(
                "DELETE FROM topic_index WHERE user_id = ? AND id NOT IN (SELECT id FROM topic_index"
                " WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?)",
                (self.user_id, self.user_id, keep),
            )

    def list_topic_index(self, limit: int = 20) -> list[TopicIndexRow]:
        """The recent-topics index, newest first."""
        return self.db.select(
            _index_line,
            "FROM topic_index WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?",
            (self.user_id, limit),
        )

    def rename_topic_in_index(self, old: str, new: str) -> None:
        """Point index lines of one topic at another (after a split)."""
        with self.db.transaction():
            self.db.run(
                "UPDATE topic_index SET topic = ? WHERE user_id = ? AND topic = ?", (new, self.user_id, old)
            )
            self.db.run(
                "UPDATE conversations SET topic = ? WHERE user_id = ? AND topic = ?", (new, self.user_id, old)
            )


__all__ = ["Topics"]
