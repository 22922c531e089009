"""SQLite statements for one user's conversations, messages and vectors (mixed into the user store)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reverie.errors import NotFound
from reverie.store.base import ConversationRow, MessageRow, VectorChanges, VectorKind, iter_batches

if TYPE_CHECKING:
    from reverie.store.sqlite import SqliteStore

_MESSAGE_COLUMNS = "m.id, m.conversation_id, m.role, m.content, m.speaker, m.ref, m.created_at"
# What gets embedded for each kind when a vector is missing.
_MISSING_SQL: dict[str, str] = {
    "memory": "SELECT t.id, t.text FROM memories t WHERE t.user_id = ? AND t.status = 'active'",
    "summary": "SELECT t.id, t.text FROM summaries t WHERE t.user_id = ?",
    "message": "SELECT t.id, t.content FROM messages t WHERE t.user_id = ?",
    "message_window": "SELECT t.id, t.content FROM messages t WHERE t.user_id = ?",
}
_TOTAL_SQL: dict[str, str] = {
    "memory": "SELECT COUNT(*) FROM memories WHERE user_id = ? AND status = 'active'",
    "summary": "SELECT COUNT(*) FROM summaries WHERE user_id = ?",
    "message": "SELECT COUNT(*) FROM messages WHERE user_id = ?",
    "message_window": "SELECT COUNT(*) FROM messages WHERE user_id = ?",
}


_PUBLIC_TURN = (
    " JOIN messages t ON t.id = v.item_id"
    " JOIN conversations c ON c.id = t.conversation_id AND c.is_private = 0"
)
_VECTOR_JOINS = {
    "memory": " JOIN memories t ON t.id = v.item_id AND t.status = 'active'",
    "message": _PUBLIC_TURN,
    "message_window": _PUBLIC_TURN,
}


def _conversation(row: sqlite3.Row) -> ConversationRow:
    return ConversationRow(
        id=row["id"],
        interface=row["interface"],
        title=row["title"],
        started_at=row["started_at"],
        last_activity=row["last_activity"],
        ended_at=row["ended_at"],
        is_private=bool(row["is_private"]),
        consolidation_state=row["consolidation_state"],
        attempts=row["attempts"],
        last_error=row["last_error"],
    )


def _message(row: sqlite3.Row) -> MessageRow:
    return MessageRow(
        id=row["id"],
        conversation_id=row["conversation_id"],
        role=row["role"],
        content=row["content"],
        speaker=row["speaker"],
        ref=row["ref"],
        created_at=row["created_at"],
    )


def _marks(count: int) -> str:
    return ", ".join("?" * count)


class ConversationStatements:
    """Conversations, messages, vectors and accumulated relevance for one user."""

    _store: SqliteStore
    user_id: int
    _owner: str

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._store.connection().execute(sql, params).fetchall()

    # working state -------------------------------------------------------------------
    def get_working_state(self, conversation_id: int) -> str | None:
        """A conversation's working state (JSON text), if any."""
        rows = self._rows(
            "SELECT state FROM working_state WHERE conversation_id = ? AND user_id = ?",
            (conversation_id, self.user_id),
        )
        return str(rows[0][0]) if rows else None

    def put_working_state(self, conversation_id: int, state: str, now: float) -> None:
        """Replace a conversation's working state (JSON text); NotFound for another user's conversation."""
        with self._store.transaction() as conn:
            owned = conn.execute(
                "SELECT 1 FROM conversations WHERE id = ? AND user_id = ?", (conversation_id, self.user_id)
            ).fetchone()
            if owned is None:
                raise NotFound(f"No conversation with id {conversation_id}")
            conn.execute(
                "INSERT INTO working_state (conversation_id, user_id, state, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(conversation_id) DO UPDATE SET state = excluded.state,"
                " updated_at = excluded.updated_at",
                (conversation_id, self.user_id, state, now),
            )

    # conversations -----------------------------------------------------------------
    def start_conversation(self, interface: str, now: float, *, is_private: bool = False) -> ConversationRow:
        """Open a new conversation."""
        with self._store.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO conversations (user_id, interface, started_at, last_activity, is_private)"
                " VALUES (?, ?, ?, ?, ?)",
                (self.user_id, interface, now, now, int(is_private)),
            )
        found = self.get_conversation(int(cur.lastrowid or 0))
        assert found is not None
        return found

    def get_conversation(self, conversation_id: int) -> ConversationRow | None:
        """One of this user's conversations."""
        rows = self._rows(
            "SELECT * FROM conversations WHERE id = ? AND user_id = ?", (conversation_id, self.user_id)
        )
        return _conversation(rows[0]) if rows else None

    def end_conversation(self, conversation_id: int, now: float) -> ConversationRow | None:
        """Close an open conversation and queue it for consolidation (private ones are skipped)."""
        with self._store.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET ended_at = ?, consolidation_state ="
                " CASE WHEN is_private THEN 'skipped' ELSE 'pending' END"
                " WHERE id = ? AND user_id = ? AND ended_at IS NULL",
                (now, conversation_id, self.user_id),
            )
        return self.get_conversation(conversation_id)

    def set_private(self, conversation_id: int, private: bool) -> ConversationRow | None:
        """Mark a conversation private (never extracted, hidden from episodic search) or not."""
        with self._store.transaction() as conn:
            conn.execute(
                "UPDATE conversations SET is_private = ?, consolidation_state = CASE"
                " WHEN ? AND consolidation_state IN ('pending', 'failed') THEN 'skipped'"
                " WHEN NOT ? AND consolidation_state = 'skipped' AND ended_at IS NOT NULL THEN 'pending'"
                " ELSE consolidation_state END WHERE id = ? AND user_id = ?",
                (int(private), int(private), int(private), conversation_id, self.user_id),
            )
        return self.get_conversation(conversation_id)

    def list_conversations(self, *, limit: int = 50, offset: int = 0) -> list[ConversationRow]:
        """This user's conversations, most recently active first."""
        rows = self._rows(
            "SELECT * FROM conversations WHERE user_id = ?"
            " ORDER BY last_activity DESC, id DESC LIMIT ? OFFSET ?",
            (self.user_id, limit, offset),
        )
        return [_conversation(row) for row in rows]

    def open_conversations(self, interface: str | None = None) -> list[ConversationRow]:
        """Conversations not ended yet (on one interface, if given), most recent first."""
        sql = "SELECT * FROM conversations WHERE user_id = ? AND ended_at IS NULL"
        params: list[Any] = [self.user_id]
        if interface is not None:
            sql += " AND interface = ?"
            params.append(interface)
        rows = self._rows(sql + " ORDER BY last_activity DESC, id DESC", params)
        return [_conversation(row) for row in rows]

    def unsummarized_messages(self, limit: int = 10_000) -> list[MessageRow]:
        """Turns not yet folded into a summary, oldest first (conversations not private)."""
        rows = self._rows(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages m"
            " JOIN conversations c ON c.id = m.conversation_id AND c.is_private = 0"
            " WHERE m.user_id = ? AND m.summarized = 0 ORDER BY m.id LIMIT ?",
            (self.user_id, limit),
        )
        return [_message(row) for row in rows]

    def mark_summarized(self, message_ids: Sequence[int]) -> None:
        """Record that these turns are covered by a summary."""
        with self._store.transaction() as conn:
            for batch in iter_batches(message_ids):
                conn.execute(
                    f"UPDATE messages SET summarized = 1 WHERE +user_id = ? AND id IN ({_marks(len(batch))})",
                    [self.user_id, *batch],
                )

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        now: float,
        *,
        speaker: str | None = None,
        ref: str | None = None,
        index_text: str | None = None,
        window_text: str | None = None,
    ) -> MessageRow:
        """Append a turn and index it (and its window) for keyword search."""
        with self._store.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO messages (conversation_id, user_id, role, content, speaker, ref, created_at)"
                " SELECT id, user_id, ?, ?, ?, ?, ? FROM conversations WHERE id = ? AND user_id = ?",
                (role, content, speaker, ref, now, conversation_id, self.user_id),
            )
            if cur.rowcount == 0:
                raise NotFound(f"No conversation with id {conversation_id}")
            message_id = int(cur.lastrowid or 0)
            own = index_text if index_text is not None else content
            conn.execute(
                "INSERT INTO messages_fts (rowid, text, owner) VALUES (?, ?, ?)",
                (message_id, own, self._owner),
            )
            conn.execute(
                "INSERT INTO message_windows_fts (rowid, text, owner) VALUES (?, ?, ?)",
                (message_id, window_text if window_text is not None else own, self._owner),
            )
            conn.execute(
                "UPDATE conversations SET last_activity = MAX(last_activity, ?) WHERE id = ? AND user_id = ?",
                (now, conversation_id, self.user_id),
            )
        return MessageRow(message_id, conversation_id, role, content, speaker, ref, now)

    def list_messages(self, conversation_id: int, *, limit: int = 50) -> list[MessageRow]:
        """The last ``limit`` turns of a conversation, oldest first."""
        rows = self._rows(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = ? AND m.user_id = ?"
            " ORDER BY m.id DESC LIMIT ?",
            (conversation_id, self.user_id, limit),
        )
        return [_message(row) for row in reversed(rows)]

    def get_messages(self, message_ids: Sequence[int]) -> list[MessageRow]:
        """The messages with these ids that belong to this user."""
        found: list[MessageRow] = []
        for batch in iter_batches(message_ids):
            rows = self._rows(
                f"SELECT {_MESSAGE_COLUMNS} FROM messages m"
                f" WHERE +m.user_id = ? AND m.id IN ({_marks(len(batch))})",
                [self.user_id, *batch],
            )
            found += [_message(row) for row in rows]
        return found

    def search_messages(
        self,
        terms: Sequence[str],
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 10,
        windows: bool = False,
    ) -> list[tuple[MessageRow, float]]:
        """Messages matching any term, best BM25 first (score: higher is better).

        With ``windows`` the match is against each turn's window (previous turn + this one).
        """
        if not terms:
            return []
        table = "message_windows_fts" if windows else "messages_fts"
        quoted = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
        params: list[Any] = [f"owner:{self._owner} AND {{text}}: ({quoted})", self.user_id]
        extra = ""
        if created_from is not None:
            extra += " AND m.created_at >= ?"
            params.append(created_from)
        if created_to is not None:
            extra += " AND m.created_at < ?"
            params.append(created_to)
        rows = self._rows(
            f"SELECT {_MESSAGE_COLUMNS}, -bm25({table}, 1.0, 0.0) AS score"
            f" FROM {table} JOIN messages m ON m.id = {table}.rowid"
            " JOIN conversations c ON c.id = m.conversation_id AND c.is_private = 0"
            f" WHERE {table} MATCH ? AND m.user_id = ?{extra} ORDER BY score DESC LIMIT ?",
            [*params, limit],
        )
        return [(_message(row), float(row["score"])) for row in rows]

    def message_neighbours(self, message_id: int) -> tuple[MessageRow | None, MessageRow | None]:
        """The turns just before and just after one message in its conversation."""
        rows = self._rows(
            f"SELECT {_MESSAGE_COLUMNS}, 'prev' AS side FROM (SELECT * FROM messages WHERE user_id = ?"
            " AND conversation_id = (SELECT conversation_id FROM messages WHERE id = ?) AND id < ?"
            " ORDER BY id DESC LIMIT 1) m"
            f" UNION ALL SELECT {_MESSAGE_COLUMNS}, 'next' FROM (SELECT * FROM messages WHERE user_id = ?"
            " AND conversation_id = (SELECT conversation_id FROM messages WHERE id = ?) AND id > ?"
            " ORDER BY id LIMIT 1) m",
            (self.user_id, message_id, message_id, self.user_id, message_id, message_id),
        )
        found = {row["side"]: _message(row) for row in rows}
        return found.get("prev"), found.get("next")

    def message_speakers(self) -> list[str]:
        """The distinct speaker names in this user's conversations."""
        rows = self._rows(
            "SELECT DISTINCT speaker FROM messages WHERE user_id = ? AND speaker IS NOT NULL", (self.user_id,)
        )
        return sorted(str(row[0]) for row in rows)

    # vectors -----------------------------------------------------------------------
    def put_vectors(
        self, kind: VectorKind, items: Sequence[tuple[int, bytes]], model_id: str, dims: int
    ) -> None:
        """Store (or replace) the vector of each item."""
        with self._store.transaction() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO vectors (item_kind, item_id, user_id, model_id, dimensions, vector)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(kind, item_id, self.user_id, model_id, dims, blob) for item_id, blob in items],
            )

    def load_vectors(
        self, kind: VectorKind, model_id: str, after: int = 0
    ) -> tuple[list[tuple[int, bytes]], int]:
        """This user's vectors of one model (active memories; turns of conversations not private).

        Only rows written after the mark ``after`` are returned, with the new mark: a cache can
        fetch what changed instead of everything.
        """
        join = _VECTOR_JOINS.get(kind, "")
        rows = self._rows(
            f"SELECT v.item_id, v.vector, v.rowid FROM vectors v{join}"
            " WHERE v.user_id = ? AND v.item_kind = ? AND v.model_id = ? AND v.rowid > ? ORDER BY +v.item_id",
            (self.user_id, kind, model_id, after),
        )
        mark = max((int(row[2]) for row in rows), default=after)
        return [(int(row[0]), bytes(row[1])) for row in rows], mark

    def count_loadable(self, kind: VectorKind, model_id: str) -> int:
        """How many vectors :meth:`load_vectors` returns in all."""
        join = _VECTOR_JOINS.get(kind, "")
        row = self._rows(
            f"SELECT COUNT(*) FROM vectors v{join}"
            " WHERE v.user_id = ? AND v.item_kind = ? AND v.model_id = ?",
            (self.user_id, kind, model_id),
        )
        return int(row[0][0])

    def vectors_version(self) -> int:
        """A number that changes whenever this user's searchable vectors change."""
        rows = self._rows("SELECT version FROM vector_versions WHERE user_id = ?", (self.user_id,))
        return int(rows[0][0]) if rows else 0

    def vector_changes(
        self, kind: VectorKind, model_id: str, after: int | None, also: Sequence[int] = ()
    ) -> VectorChanges:
        """Changes of one kind's loadable vectors since version ``after`` (None: load all), plus ``also``.

        The version is read first and the floor last: a change committed in between is simply
        fetched again next time, and a prune committed in between turns this into a full load.
        """
        own = self._store.uncommitted_writes()
        version = self.vectors_version()
        if after is not None and after <= version:
            changed = {
                int(row[0])
                for row in self._rows(
                    "SELECT item_id FROM vector_changes WHERE user_id = ? AND item_kind = ? AND version > ?",
                    (self.user_id, kind, after),
                )
            }
            floor = self._rows("SELECT pruned_to FROM vector_versions WHERE user_id = ?", (self.user_id,))
            if not floor or after >= int(floor[0][0]):
                ids = sorted(changed.union(also))
                return VectorChanges(version, False, ids, self._vectors_of(kind, model_id, ids), own)
        rows, _ = self.load_vectors(kind, model_id)
        return VectorChanges(version, True, [], rows, own)

    def _vectors_of(self, kind: VectorKind, model_id: str, ids: Sequence[int]) -> list[tuple[int, bytes]]:
        join = _VECTOR_JOINS.get(kind, "")
        found: list[tuple[int, bytes]] = []
        for batch in iter_batches(ids, 500):
            marks = ",".join("?" * len(batch))
            found.extend(
                (int(row[0]), bytes(row[1]))
                for row in self._rows(
                    # By primary key: with ten ids or so the planner otherwise walks every vector
                    # of the user by idx_vectors_user (100+ ms at 20k vectors, seen in the tail bench).
                    f"SELECT v.item_id, v.vector FROM vectors v{join} WHERE +v.user_id = ?"
                    f" AND v.item_kind = ? AND +v.model_id = ? AND v.item_id IN ({marks})",
                    (self.user_id, kind, model_id, *batch),
                )
            )
        return found

    def prune_vector_changes(self, keep: int) -> int:
        """Forget the change log but for its last ``keep`` versions; how many rows went."""
        with self._store.transaction() as conn:
            conn.execute(
                "UPDATE vector_versions SET pruned_to = MAX(pruned_to, version - ?) WHERE user_id = ?",
                (keep, self.user_id),
            )
            return conn.execute(
                "DELETE FROM vector_changes WHERE user_id = ? AND version <= COALESCE("
                "(SELECT pruned_to FROM vector_versions WHERE user_id = ?), 0)",
                (self.user_id, self.user_id),
            ).rowcount

    def missing_vectors(self, kind: VectorKind, model_id: str, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` items with no vector of this model yet, oldest first."""
        rows = self._rows(
            f"{_MISSING_SQL[kind]} AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.item_kind = ?"
            " AND v.item_id = t.rowid AND v.model_id = ?) ORDER BY t.rowid LIMIT ?",
            (self.user_id, kind, model_id, limit),
        )
        return [(int(row[0]), str(row[1])) for row in rows]

    def count_vectors(self, kind: VectorKind, model_id: str) -> tuple[int, int]:
        """(items with a vector of this model, items in all) for one kind."""
        join = " JOIN memories t ON t.id = v.item_id AND t.status = 'active'" if kind == "memory" else ""
        done = self._rows(
            f"SELECT COUNT(*) FROM vectors v{join}"
            " WHERE v.user_id = ? AND v.item_kind = ? AND v.model_id = ?",
            (self.user_id, kind, model_id),
        )[0][0]
        total = self._rows(_TOTAL_SQL[kind], (self.user_id,))[0][0]
        return int(done), int(total)

    # relevance accumulated during a conversation -------------------------------------
    def add_relevant(self, conversation_id: int, memory_ids: Sequence[int], now: float) -> None:
        """Remember that these memories were relevant in this conversation."""
        with self._store.transaction() as conn:
            conn.executemany(
                "INSERT OR IGNORE INTO conversation_relevant (conversation_id, memory_id, added_at)"
                " SELECT c.id, m.id, ? FROM conversations c, memories m"
                " WHERE c.id = ? AND c.user_id = ? AND m.id = ? AND m.user_id = ?",
                [(now, conversation_id, self.user_id, memory_id, self.user_id) for memory_id in memory_ids],
            )

    def list_relevant(self, conversation_id: int) -> list[int]:
        """Memories found relevant so far in this conversation, earliest first."""
        rows = self._rows(
            "SELECT r.memory_id FROM conversation_relevant r JOIN conversations c ON c.id = r.conversation_id"
            " WHERE r.conversation_id = ? AND c.user_id = ? ORDER BY r.added_at, r.memory_id",
            (conversation_id, self.user_id),
        )
        return [int(row[0]) for row in rows]


__all__ = ["ConversationStatements"]
