"""PostgreSQL statements for one user's topics, their memories, the recent-topics index and working state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reverie.errors import NotFound
from reverie.store.base import TopicIndexRow, TopicRow

if TYPE_CHECKING:
    from reverie.store.postgres import PgStore

_TOPIC_COLUMNS = "id, slug, title, line_count, file_hash, error, created_at, updated_at"


class PgTopicStatements:
    """Mixed into the user store; every statement carries the user's id."""

    _store: PgStore
    user_id: int

    def list_topics(self) -> list[TopicRow]:
        """The user's topics, by slug."""
        rows = self._store.read(
            f"SELECT {_TOPIC_COLUMNS} FROM topics WHERE user_id = %s ORDER BY slug", (self.user_id,)
        )
        return [TopicRow(**row) for row in rows]

    def get_topic(self, slug: str) -> TopicRow | None:
        """One topic."""
        rows = self._store.read(
            f"SELECT {_TOPIC_COLUMNS} FROM topics WHERE user_id = %s AND slug = %s", (self.user_id, slug)
        )
        return TopicRow(**rows[0]) if rows else None

    def save_topic(
        self, slug: str, title: str, now: float, *, line_count: int, file_hash: str, error: str = ""
    ) -> TopicRow:
        """Create or update a topic row."""
        row = self._store.write(
            "INSERT INTO topics (user_id, slug, title, line_count, file_hash, error, created_at, updated_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (user_id, slug) DO UPDATE SET"
            " title = excluded.title, line_count = excluded.line_count, file_hash = excluded.file_hash,"
            f" error = excluded.error, updated_at = excluded.updated_at RETURNING {_TOPIC_COLUMNS}",
            (self.user_id, slug, title, line_count, file_hash, error, now, now),
        ).fetchone()
        assert row is not None
        return TopicRow(**row)

    def delete_topic(self, slug: str) -> bool:
        """Forget a topic (its memories stay, untagged)."""
        cur = self._store.write("DELETE FROM topics WHERE user_id = %s AND slug = %s", (self.user_id, slug))
        return cur.rowcount == 1

    def topic_memory_ids(self, topic_id: int) -> list[int]:
        """Ids of the memories that are the topic's lines."""
        rows = self._store.read(
            "SELECT tm.memory_id FROM topic_memories tm JOIN topics t ON t.id = tm.topic_id"
            " WHERE tm.topic_id = %s AND t.user_id = %s ORDER BY tm.memory_id",
            (topic_id, self.user_id),
        )
        return [int(row["memory_id"]) for row in rows]

    def tag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Tag memories with a topic (only the user's own topic and memories)."""
        if memory_ids:
            self._store.write(
                "INSERT INTO topic_memories (topic_id, memory_id)"
                " SELECT t.id, m.id FROM topics t JOIN memories m ON m.user_id = t.user_id"
                " WHERE t.id = %s AND t.user_id = %s AND m.id = ANY(%s) ON CONFLICT DO NOTHING",
                (topic_id, self.user_id, list(memory_ids)),
            )

    def untag_topic(self, topic_id: int, memory_ids: Sequence[int]) -> None:
        """Remove the topic tag from memories."""
        if memory_ids:
            self._store.write(
                "DELETE FROM topic_memories WHERE topic_id IN (SELECT id FROM topics WHERE id = %s AND"
                " user_id = %s) AND memory_id = ANY(%s)",
                (topic_id, self.user_id, list(memory_ids)),
            )

    def set_conversation_topic(self, conversation_id: int, slug: str | None) -> None:
        """Record the topic a conversation was found to be about."""
        self._store.write(
            "UPDATE conversations SET topic = %s WHERE id = %s AND user_id = %s",
            (slug, conversation_id, self.user_id),
        )

    def conversation_topic(self, conversation_id: int) -> str | None:
        """The topic a conversation was found to be about."""
        rows = self._store.read(
            "SELECT topic FROM conversations WHERE id = %s AND user_id = %s", (conversation_id, self.user_id)
        )
        return str(rows[0]["topic"]) if rows and rows[0]["topic"] else None

    def add_topic_index(
        self, conversation_id: int | None, at: float, topic: str, summary: str, *, keep: int
    ) -> None:
        """Add a line to the recent-topics index, keeping only the newest ``keep``."""
        with self._store.transaction() as conn:
            conn.execute(
                "INSERT INTO topic_index (user_id, conversation_id, at, topic, summary) VALUES (%s, %s, %s,"
                " %s, %s)",
                (self.user_id, conversation_id, at, topic, summary),
            )
            conn.execute(
                "DELETE FROM topic_index WHERE user_id = %s AND id NOT IN (SELECT id FROM topic_index"
                " WHERE user_id = %s ORDER BY at DESC, id DESC LIMIT %s)",
                (self.user_id, self.user_id, keep),
            )

    def list_topic_index(self, limit: int = 20) -> list[TopicIndexRow]:
        """The recent-topics index, newest first."""
        rows = self._store.read(
            "SELECT id, conversation_id, at, topic, summary FROM topic_index WHERE user_id = %s"
            " ORDER BY at DESC, id DESC LIMIT %s",
            (self.user_id, limit),
        )
        return [TopicIndexRow(**row) for row in rows]

    def rename_topic_in_index(self, old: str, new: str) -> None:
        """Point index lines of one topic at another (after a split)."""
        with self._store.transaction() as conn:
            conn.execute(
                "UPDATE topic_index SET topic = %s WHERE user_id = %s AND topic = %s",
                (new, self.user_id, old),
            )
            conn.execute(
                "UPDATE conversations SET topic = %s WHERE user_id = %s AND topic = %s",
                (new, self.user_id, old),
            )

    # working state -------------------------------------------------------------------
    def get_working_state(self, conversation_id: int) -> str | None:
        """A conversation's working state (JSON text), if any."""
        rows = self._store.read(
            "SELECT state FROM working_state WHERE conversation_id = %s AND user_id = %s",
            (conversation_id, self.user_id),
        )
        return str(rows[0]["state"]) if rows else None

    def put_working_state(self, conversation_id: int, state: str, now: float) -> None:
        """Replace a conversation's working state (JSON text); NotFound for another user's conversation."""
        row: Any = self._store.write(
            "INSERT INTO working_state (conversation_id, user_id, state, updated_at)"
            " SELECT id, user_id, %s, %s FROM conversations WHERE id = %s AND user_id = %s"
            " ON CONFLICT (conversation_id) DO UPDATE SET state = excluded.state, updated_at ="
            " excluded.updated_at"
            " RETURNING conversation_id",
            (state, now, conversation_id, self.user_id),
        ).fetchone()
        if row is None:
            raise NotFound(f"No conversation with id {conversation_id}")


__all__ = ["PgTopicStatements"]
