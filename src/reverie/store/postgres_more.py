"""PostgreSQL statements for one user's conversations, messages and vectors (mixed into the user store)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from reverie.errors import NotFound
from reverie.store.base import ConversationRow, MessageRow, VectorChanges, VectorKind
from reverie.store.postgres_search import ranked
from reverie.store.postgres_vectors import Vector

if TYPE_CHECKING:
    from reverie.store.postgres import PgStore

CONVERSATION_COLUMNS = (
    "id, interface, title, started_at, last_activity, ended_at, is_private, consolidation_state,"
    " attempts, last_error"
)
MESSAGE_COLUMNS = "m.id, m.conversation_id, m.role, m.content, m.speaker, m.ref, m.created_at"
_MISSING_SQL: dict[str, str] = {
    "memory": "SELECT t.id, t.text AS body FROM memories t WHERE t.user_id = %s AND t.status = 'active'",
    "summary": "SELECT t.id, t.text AS body FROM summaries t WHERE t.user_id = %s",
    "message": "SELECT t.id, t.content AS body FROM messages t WHERE t.user_id = %s",
    "message_window": "SELECT t.id, t.content AS body FROM messages t WHERE t.user_id = %s",
}
_TOTAL_SQL: dict[str, str] = {
    "memory": "SELECT COUNT(*) AS n FROM memories WHERE user_id = %s AND status = 'active'",
    "summary": "SELECT COUNT(*) AS n FROM summaries WHERE user_id = %s",
    "message": "SELECT COUNT(*) AS n FROM messages WHERE user_id = %s",
    "message_window": "SELECT COUNT(*) AS n FROM messages WHERE user_id = %s",
}
_PUBLIC_TURN = (
    " JOIN messages t ON t.id = v.item_id"
    " JOIN conversations c ON c.id = t.conversation_id AND NOT c.is_private"
)
_VECTOR_JOINS = {
    "memory": " JOIN memories t ON t.id = v.item_id AND t.status = 'active'",
    "message": _PUBLIC_TURN,
    "message_window": _PUBLIC_TURN,
}


def conversation_row(row: dict[str, Any]) -> ConversationRow:
    """A ConversationRow from a row holding at least CONVERSATION_COLUMNS."""
    return ConversationRow(**{name: row[name] for name in ConversationRow.__dataclass_fields__})


def message_row(row: dict[str, Any]) -> MessageRow:
    """A MessageRow from a row holding at least MESSAGE_COLUMNS."""
    return MessageRow(**{name: row[name] for name in MessageRow.__dataclass_fields__})


class PgConversationStatements:
    """Conversations, messages, vectors and accumulated relevance for one user."""

    _store: PgStore
    user_id: int

    def _rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        return self._store.read(sql, params)

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

    # conversations -----------------------------------------------------------------
    def start_conversation(self, interface: str, now: float, *, is_private: bool = False) -> ConversationRow:
        """Open a new conversation."""
        cur = self._store.write(
            "INSERT INTO conversations (user_id, interface, started_at, last_activity, is_private)"
            f" VALUES (%s, %s, %s, %s, %s) RETURNING {CONVERSATION_COLUMNS}",
            (self.user_id, interface, now, now, is_private),
        )
        row = cur.fetchone()
        assert row is not None
        return conversation_row(row)

    def get_conversation(self, conversation_id: int) -> ConversationRow | None:
        """One of this user's conversations."""
        rows = self._rows(
            f"SELECT {CONVERSATION_COLUMNS} FROM conversations WHERE id = %s AND user_id = %s",
            (conversation_id, self.user_id),
        )
        return conversation_row(rows[0]) if rows else None

    def end_conversation(self, conversation_id: int, now: float) -> ConversationRow | None:
        """Close an open conversation and queue it for consolidation (private ones are skipped)."""
        self._store.write(
            "UPDATE conversations SET ended_at = %s, consolidation_state ="
            " CASE WHEN is_private THEN 'skipped' ELSE 'pending' END"
            " WHERE id = %s AND user_id = %s AND ended_at IS NULL",
            (now, conversation_id, self.user_id),
        )
        return self.get_conversation(conversation_id)

    def set_private(self, conversation_id: int, private: bool) -> ConversationRow | None:
        """Mark a conversation private (never extracted, hidden from episodic search) or not."""
        self._store.write(
            "UPDATE conversations SET is_private = %(p)s, consolidation_state = CASE"
            " WHEN %(p)s AND consolidation_state IN ('pending', 'failed') THEN 'skipped'"
            " WHEN NOT %(p)s AND consolidation_state = 'skipped' AND ended_at IS NOT NULL THEN 'pending'"
            " ELSE consolidation_state END WHERE id = %(id)s AND user_id = %(user)s",
            {"p": private, "id": conversation_id, "user": self.user_id},
        )
        return self.get_conversation(conversation_id)

    def list_conversations(self, *, limit: int = 50, offset: int = 0) -> list[ConversationRow]:
        """This user's conversations, most recently active first."""
        rows = self._rows(
            f"SELECT {CONVERSATION_COLUMNS} FROM conversations WHERE user_id = %s"
            " ORDER BY last_activity DESC, id DESC LIMIT %s OFFSET %s",
            (self.user_id, limit, offset),
        )
        return [conversation_row(row) for row in rows]

    def open_conversations(self, interface: str | None = None) -> list[ConversationRow]:
        """Conversations not ended yet (on one interface, if given), most recent first."""
        sql = f"SELECT {CONVERSATION_COLUMNS} FROM conversations WHERE user_id = %s AND ended_at IS NULL"
        params: list[Any] = [self.user_id]
        if interface is not None:
            sql += " AND interface = %s"
            params.append(interface)
        rows = self._rows(sql + " ORDER BY last_activity DESC, id DESC", params)
        return [conversation_row(row) for row in rows]

    def unsummarized_messages(self, limit: int = 10_000) -> list[MessageRow]:
        """Turns not yet folded into a summary, oldest first (conversations not private)."""
        rows = self._rows(
            f"SELECT {MESSAGE_COLUMNS} FROM messages m"
            " JOIN conversations c ON c.id = m.conversation_id AND NOT c.is_private"
            " WHERE m.user_id = %s AND NOT m.summarized ORDER BY m.id LIMIT %s",
            (self.user_id, limit),
        )
        return [message_row(row) for row in rows]

    def mark_summarized(self, message_ids: Sequence[int]) -> None:
        """Record that these turns are covered by a summary."""
        if message_ids:
            self._store.write(
                "UPDATE messages SET summarized = true WHERE user_id = %s AND id = ANY(%s)",
                (self.user_id, list(message_ids)),
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
        own = index_text if index_text is not None and index_text != content else None
        window = window_text if window_text is not None and window_text != (own or content) else None
        with self._store.transaction() as conn:
            row = conn.execute(
                "INSERT INTO messages (conversation_id, user_id, role, content, speaker, ref, created_at,"
                " search_text, window_text)"
                " SELECT id, user_id, %s, %s, %s, %s, %s, %s, %s FROM conversations WHERE id = %s AND"
                " user_id = %s"
                " RETURNING id",
                (role, content, speaker, ref, now, own, window, conversation_id, self.user_id),
            ).fetchone()
            if row is None:
                raise NotFound(f"No conversation with id {conversation_id}")
            conn.execute(
                "UPDATE conversations SET last_activity = GREATEST(last_activity, %s) WHERE id = %s AND"
                " user_id = %s",
                (now, conversation_id, self.user_id),
            )
        return MessageRow(int(row["id"]), conversation_id, role, content, speaker, ref, now)

    def list_messages(self, conversation_id: int, *, limit: int = 50) -> list[MessageRow]:
        """The last ``limit`` turns of a conversation, oldest first."""
        rows = self._rows(
            f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = %s AND m.user_id = %s"
            " ORDER BY m.id DESC LIMIT %s",
            (conversation_id, self.user_id, limit),
        )
        return [message_row(row) for row in reversed(rows)]

    def get_messages(self, message_ids: Sequence[int]) -> list[MessageRow]:
        """The messages with these ids that belong to this user."""
        if not message_ids:
            return []
        rows = self._rows(
            f"SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.user_id = %s AND m.id = ANY(%s)",
            (self.user_id, list(message_ids)),
        )
        return [message_row(row) for row in rows]

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
        prefix = "window" if windows else "search"
        ctes, params = ranked(
            table="messages",
            tsv=f"{prefix}_tsv",
            length=f"{prefix}_len",
            scope="t.user_id = %s",
            scope_params=[self.user_id],
            terms=terms,
        )
        extra = ""
        params.append(self.user_id)
        if created_from is not None:
            extra += " AND m.created_at >= %s"
            params.append(created_from)
        if created_to is not None:
            extra += " AND m.created_at < %s"
            params.append(created_to)
        rows = self._rows(
            f"{ctes} SELECT {MESSAGE_COLUMNS}, r.score FROM ranked r JOIN messages m ON m.id = r.id"
            " JOIN conversations c ON c.id = m.conversation_id AND NOT c.is_private"
            f" WHERE m.user_id = %s{extra} ORDER BY r.score DESC, m.id LIMIT %s",
            [*params, limit],
        )
        return [(message_row(row), float(row["score"])) for row in rows]

    def message_neighbours(self, message_id: int) -> tuple[MessageRow | None, MessageRow | None]:
        """The turns just before and just after one message in its conversation."""
        rows = self._rows(
            f"(SELECT {MESSAGE_COLUMNS}, 'prev' AS side FROM messages m WHERE m.user_id = %(user)s"
            " AND m.conversation_id = (SELECT conversation_id FROM messages WHERE id = %(id)s AND user_id ="
            " %(user)s)"
            " AND m.id < %(id)s ORDER BY m.id DESC LIMIT 1)"
            f" UNION ALL (SELECT {MESSAGE_COLUMNS}, 'next' FROM messages m WHERE m.user_id = %(user)s"
            " AND m.conversation_id = (SELECT conversation_id FROM messages WHERE id = %(id)s AND user_id ="
            " %(user)s)"
            " AND m.id > %(id)s ORDER BY m.id LIMIT 1)",
            {"user": self.user_id, "id": message_id},
        )
        found = {row["side"]: message_row(row) for row in rows}
        return found.get("prev"), found.get("next")

    def message_speakers(self) -> list[str]:
        """The distinct speaker names in this user's conversations."""
        rows = self._rows(
            "SELECT DISTINCT speaker FROM messages WHERE user_id = %s AND speaker IS NOT NULL",
            (self.user_id,),
        )
        return sorted(str(row["speaker"]) for row in rows)

    # vectors -----------------------------------------------------------------------
    def put_vectors(
        self, kind: VectorKind, items: Sequence[tuple[int, bytes]], model_id: str, dims: int
    ) -> None:
        """Store (or replace) the vector of each item."""
        if not items:
            return
        with self._store.transaction() as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO vectors (item_kind, item_id, user_id, model_id, dimensions, embedding)"
                " VALUES (%s, %s, %s, %s, %s, %b) ON CONFLICT (item_kind, item_id) DO UPDATE"
                " SET user_id = excluded.user_id, model_id = excluded.model_id,"
                " dimensions = excluded.dimensions, embedding = excluded.embedding,"
                " xid = pg_current_xact_id()::text::bigint",
                [(kind, item_id, self.user_id, model_id, dims, Vector(blob)) for item_id, blob in items],
            )

    def load_vectors(
        self, kind: VectorKind, model_id: str, after: int = 0
    ) -> tuple[list[tuple[int, bytes]], int]:
        """This user's vectors of one model (active memories; turns of conversations not private).

        The mark is the oldest transaction still running when the rows were read, and rows written
        by that transaction or later ones come again next time: a row committed late is never
        skipped, and one seen twice simply replaces itself.
        """
        join = _VECTOR_JOINS.get(kind, "")
        # One row of packed ids and floats, in binary: decoding a thousand rows one by one costs more
        # than the query.
        row = self._store.read(
            "SELECT COUNT(*) AS n, pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS mark,"
            " COALESCE(string_agg(int8send(v.item_id), ''::bytea), ''::bytea) AS ids,"
            " COALESCE(string_agg(substring(vector_send(v.embedding) FROM 5), ''::bytea), ''::bytea)"
            " AS vectors"
            f" FROM vectors v{join} WHERE v.user_id = %s AND v.item_kind = %s AND v.model_id = %s"
            " AND v.xid >= %s",
            (self.user_id, kind, model_id, after),
            binary=True,
        )[0]
        count = int(row["n"])
        mark = max(after, int(row["mark"]))
        if not count:
            return [], mark
        ids = np.frombuffer(bytes(row["ids"]), dtype=">i8")
        vectors = np.frombuffer(bytes(row["vectors"]), dtype=">f4").astype("<f4").reshape(count, -1)
        order = np.argsort(ids, kind="stable")  # both aggregates saw the rows in one order
        ids, vectors = ids[order], vectors[order]
        return [(int(item), vector.tobytes()) for item, vector in zip(ids, vectors, strict=True)], mark

    def count_loadable(self, kind: VectorKind, model_id: str) -> int:
        """How many vectors :meth:`load_vectors` returns in all."""
        join = _VECTOR_JOINS.get(kind, "")
        rows = self._rows(
            f"SELECT COUNT(*) AS n FROM vectors v{join} WHERE v.user_id = %s AND v.item_kind = %s AND"
            " v.model_id = %s",
            (self.user_id, kind, model_id),
        )
        return int(rows[0]["n"])

    def vectors_version(self) -> int:
        """A number that changes whenever this user's searchable vectors change."""
        rows = self._rows("SELECT version FROM vector_versions WHERE user_id = %s", (self.user_id,))
        return int(rows[0]["version"]) if rows else 0

    def vector_changes(
        self, kind: VectorKind, model_id: str, after: int | None, also: Sequence[int] = ()
    ) -> VectorChanges:
        """Changes of one kind's loadable vectors since version ``after`` (None: load all), plus ``also``.

        Rows get their version when their transaction commits, so a reader sees them in commit
        order; unstamped rows visible here are this transaction's own. The version is read
        first and the floor last: a change committed in between is fetched again next time,
        and a prune committed in between turns this into a full load.
        """
        version = self.vectors_version()
        if after is not None and after <= version:
            rows = self._rows(
                "SELECT item_id, bool_or(version IS NULL) AS own FROM vector_changes WHERE user_id = %s"
                " AND item_kind = %s AND (version > %s OR version IS NULL) GROUP BY item_id",
                (self.user_id, kind, after),
            )
            floor = self._rows("SELECT pruned_to FROM vector_versions WHERE user_id = %s", (self.user_id,))
            if not floor or after >= int(floor[0]["pruned_to"]):
                own = any(row["own"] for row in rows)
                ids = sorted({int(row["item_id"]) for row in rows}.union(also))
                return VectorChanges(version, False, ids, self._vectors_of(kind, model_id, ids), own)
        own = bool(
            self._rows(
                "SELECT 1 FROM vector_changes WHERE user_id = %s AND version IS NULL LIMIT 1", (self.user_id,)
            )
        )
        loaded, _ = self.load_vectors(kind, model_id)
        return VectorChanges(version, True, [], loaded, own)

    def _vectors_of(self, kind: VectorKind, model_id: str, ids: Sequence[int]) -> list[tuple[int, bytes]]:
        if not ids:
            return []
        join = _VECTOR_JOINS.get(kind, "")
        rows = self._store.read(
            f"SELECT v.item_id, v.embedding FROM vectors v{join} WHERE v.user_id = %s AND v.item_kind = %s"
            " AND v.model_id = %s AND v.item_id = ANY(%s)",
            (self.user_id, kind, model_id, list(ids)),
            binary=True,
        )
        return [(int(row["item_id"]), bytes(row["embedding"])) for row in rows]

    def prune_vector_changes(self, keep: int) -> int:
        """Forget the change log but for its last ``keep`` versions; how many rows went."""
        # Its own short transaction: the version row's lock is otherwise only taken at commit.
        with self._store.transaction() as conn:
            conn.execute(
                "UPDATE vector_versions SET pruned_to = GREATEST(pruned_to, version - %s) WHERE user_id = %s",
                (keep, self.user_id),
            )
            return conn.execute(
                "DELETE FROM vector_changes WHERE user_id = %s AND version <= COALESCE("
                "(SELECT pruned_to FROM vector_versions WHERE user_id = %s), 0)",
                (self.user_id, self.user_id),
            ).rowcount

    def missing_vectors(self, kind: VectorKind, model_id: str, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` items with no vector of this model yet, oldest first."""
        rows = self._rows(
            f"{_MISSING_SQL[kind]} AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.item_kind = %s"
            " AND v.item_id = t.id AND v.model_id = %s) ORDER BY t.id LIMIT %s",
            (self.user_id, kind, model_id, limit),
        )
        return [(int(row["id"]), str(row["body"])) for row in rows]

    def count_vectors(self, kind: VectorKind, model_id: str) -> tuple[int, int]:
        """(items with a vector of this model, items in all) for one kind."""
        join = " JOIN memories t ON t.id = v.item_id AND t.status = 'active'" if kind == "memory" else ""
        done = self._rows(
            f"SELECT COUNT(*) AS n FROM vectors v{join} WHERE v.user_id = %s AND v.item_kind = %s AND"
            " v.model_id = %s",
            (self.user_id, kind, model_id),
        )[0]["n"]
        total = self._rows(_TOTAL_SQL[kind], (self.user_id,))[0]["n"]
        return int(done), int(total)

    # relevance accumulated during a conversation -------------------------------------
    def add_relevant(self, conversation_id: int, memory_ids: Sequence[int], now: float) -> None:
        """Remember that these memories were relevant in this conversation."""
        if not memory_ids:
            return
        self._store.write(
            "INSERT INTO conversation_relevant (conversation_id, memory_id, added_at)"
            " SELECT c.id, m.id, %(now)s FROM conversations c"
            " JOIN memories m ON m.user_id = %(user)s AND m.id = ANY(%(ids)s)"
            " WHERE c.id = %(conv)s AND c.user_id = %(user)s ON CONFLICT DO NOTHING",
            {"now": now, "user": self.user_id, "ids": list(memory_ids), "conv": conversation_id},
        )

    def list_relevant(self, conversation_id: int) -> list[int]:
        """Memories found relevant so far in this conversation, earliest first."""
        rows = self._rows(
            "SELECT r.memory_id FROM conversation_relevant r JOIN conversations c ON c.id = r.conversation_id"
            " WHERE r.conversation_id = %s AND c.user_id = %s ORDER BY r.added_at, r.memory_id",
            (conversation_id, self.user_id),
        )
        return [int(row["memory_id"]) for row in rows]


__all__ = [
    "CONVERSATION_COLUMNS",
    "MESSAGE_COLUMNS",
    "PgConversationStatements",
    "conversation_row",
    "message_row",
]
