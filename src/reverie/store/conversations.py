"""One user's conversations, turns, working state and relevant memories, written once for both engines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reverie.errors import NotFound
from reverie.store.dialect import Row, RowReader, UserPart, time_range
from reverie.store.rows import ConversationRow, MessageRow

conversation_row = RowReader(ConversationRow)
message_row = RowReader(MessageRow, "m.")
CONVERSATION_COLUMNS, MESSAGE_COLUMNS = conversation_row.columns, message_row.columns
# What import restores of a conversation that a new row cannot say by itself.
_RESTORED = ("title", "last_activity", "ended_at", "consolidation_state", "consolidated_at", "topic")


class Conversations(UserPart):
    """One user's conversations, turns, working state and relevant memories."""

    # working state -------------------------------------------------------------------
    def get_working_state(self, conversation_id: int) -> str | None:
        """A conversation's working state (JSON text), if any."""
        return self.conversation_state(conversation_id)[1]

    def conversation_state(self, conversation_id: int) -> tuple[str | None, str | None]:
        """A conversation's topic and working state (JSON text), each if any, read together."""
        row = self.db.row(
            "SELECT c.topic, w.state FROM conversations c LEFT JOIN working_state w"
            " ON w.conversation_id = c.id AND w.user_id = c.user_id WHERE c.id = ? AND c.user_id = ?",
            (conversation_id, self.user_id),
        )
        if row is None:
            return None, None
        topic = str(row["topic"]) if row["topic"] else None
        return topic, None if row["state"] is None else str(row["state"])

    def put_working_state(self, conversation_id: int, state: str, now: float) -> None:
        """Replace a conversation's working state (JSON text); NotFound for another user's conversation."""
        written = self.db.run(
            "INSERT INTO working_state (conversation_id, user_id, state, updated_at)"
            " SELECT id, user_id, ?, ? FROM conversations WHERE id = ? AND user_id = ?"
            " ON CONFLICT (conversation_id) DO UPDATE SET state = excluded.state,"
            " updated_at = excluded.updated_at",
            (state, now, conversation_id, self.user_id),
        )
        if not written:
            raise NotFound(f"No conversation with id {conversation_id}")

    # conversations -----------------------------------------------------------------
    def start_conversation(self, interface: str, now: float, *, is_private: bool = False) -> ConversationRow:
        """Open a new conversation."""
        row = self.db.write_one(
            conversation_row,
            "INSERT INTO conversations (user_id, interface, started_at, last_activity, is_private)"
            " VALUES (?, ?, ?, ?, ?)",
            (self.user_id, interface, now, now, is_private),
        )
        assert row is not None
        return row

    def continue_conversation(
        self, conversation_id: int, first_at: float, latest: float | None, idle_seconds: float
    ) -> ConversationRow | None:
        """Note activity until ``latest`` (None: none) in an open conversation not idle at ``first_at``.

        Idle: its last activity is more than ``idle_seconds`` before ``first_at``. The row as it
        is now, or None when the conversation is ended, idle or not this user's (nothing changed).
        """
        return self.db.write_one(
            conversation_row,
            "UPDATE conversations SET last_activity ="
            f" {self.db.greatest}(last_activity, COALESCE(?, last_activity))"
            " WHERE id = ? AND user_id = ? AND ended_at IS NULL AND ? - last_activity <= ?",
            (latest, conversation_id, self.user_id, first_at, idle_seconds),
        )

    def get_conversation(self, conversation_id: int) -> ConversationRow | None:
        """One of this user's conversations."""
        return self.db.select_one(
            conversation_row,
            "FROM conversations WHERE id = ? AND user_id = ?",
            (conversation_id, self.user_id),
        )

    def end_conversation(self, conversation_id: int, now: float) -> ConversationRow | None:
        """Close an open conversation and queue it for consolidation (private ones are skipped)."""
        self.db.run(
            "UPDATE conversations SET ended_at = ?, consolidation_state ="
            " CASE WHEN is_private THEN 'skipped' ELSE 'pending' END"
            " WHERE id = ? AND user_id = ? AND ended_at IS NULL",
            (now, conversation_id, self.user_id),
        )
        return self.get_conversation(conversation_id)

    def set_private(self, conversation_id: int, private: bool) -> ConversationRow | None:
        """Mark a conversation private (never extracted, hidden from episodic search) or not."""
        self.db.run(
            "UPDATE conversations SET is_private = :p, consolidation_state = CASE"
            " WHEN :p AND consolidation_state IN ('pending', 'failed') THEN 'skipped'"
            " WHEN NOT :p AND consolidation_state = 'skipped' AND ended_at IS NOT NULL THEN 'pending'"
            " ELSE consolidation_state END WHERE id = :id AND user_id = :user",
            {"p": private, "id": conversation_id, "user": self.user_id},
        )
        return self.get_conversation(conversation_id)

    def list_conversations(self, *, limit: int = 50, offset: int = 0) -> list[ConversationRow]:
        """This user's conversations, most recently active first."""
        return self.db.select(
            conversation_row,
            "FROM conversations WHERE user_id = ? ORDER BY last_activity DESC, id DESC LIMIT ? OFFSET ?",
            (self.user_id, limit, offset),
        )

    def open_conversations(self, interface: str | None = None) -> list[ConversationRow]:
        """Conversations not ended yet (on one interface, if given), most recent first."""
        sql = "FROM conversations WHERE user_id = ? AND ended_at IS NULL"
        params: list[Any] = [self.user_id]
        if interface is not None:
            sql += " AND interface = ?"
            params.append(interface)
        return self.db.select(conversation_row, sql + " ORDER BY last_activity DESC, id DESC", params)

    # turns -------------------------------------------------------------------------
    def unsummarized_messages(self, limit: int = 10_000) -> list[MessageRow]:
        """Turns not yet folded into a summary, oldest first (conversations not private)."""
        return self.db.select(
            message_row,
            "FROM messages m"
            f" JOIN conversations c ON c.id = m.conversation_id AND {self.db.is_false('c.is_private')}"
            f" WHERE m.user_id = ? AND {self.db.is_false('m.summarized')} ORDER BY m.id LIMIT ?",
            (self.user_id, limit),
        )

    def mark_summarized(self, message_ids: Sequence[int]) -> None:
        """Record that these turns are covered by a summary."""
        self.db.run_among(
            "UPDATE messages SET summarized = ? WHERE +user_id = ? AND {among}",
            "id",
            message_ids,
            (True, self.user_id),
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
        intent: str | None = None,
        activity: bool = True,
    ) -> MessageRow:
        """Append a turn, index it (and its window) for keyword search, note the conversation's activity.

        ``intent`` is what the turn was understood as (see :meth:`note_turn`); ``activity=False``
        leaves the conversation's activity to the caller.
        """
        turn = (role, content, speaker, ref, now, intent)
        with self.db.transaction():
            message_id = self.db.insert_message(self.user_id, conversation_id, turn, index_text, window_text)
            if message_id is None:
                raise NotFound(f"No conversation with id {conversation_id}")
            if activity:
                self.db.run(
                    f"UPDATE conversations SET last_activity = {self.db.greatest}(last_activity, ?)"
                    " WHERE id = ? AND user_id = ?",
                    (now, conversation_id, self.user_id),
                )
        return MessageRow(message_id, conversation_id, role, content, speaker, ref, now, intent=intent)

    def note_turn(
        self, message_id: int, *, intent: str | None = None, memory_created: bool | None = None
    ) -> None:
        """Record what a turn was understood as (its intent), and/or whether it created a memory."""
        given = (("intent", intent), ("memory_created", memory_created))
        changes = {name: value for name, value in given if value is not None}
        if changes:
            assignments = ", ".join(f"{name} = ?" for name in changes)
            self.db.run(
                f"UPDATE messages SET {assignments} WHERE id = ? AND user_id = ?",
                (*changes.values(), message_id, self.user_id),
            )

    def list_messages(self, conversation_id: int, *, limit: int = 50) -> list[MessageRow]:
        """The last ``limit`` turns of a conversation, oldest first."""
        rows = self.db.select(
            message_row,
            "FROM messages m WHERE m.conversation_id = ? AND m.user_id = ? ORDER BY m.id DESC LIMIT ?",
            (conversation_id, self.user_id, limit),
        )
        return rows[::-1]

    def get_messages(self, message_ids: Sequence[int]) -> list[MessageRow]:
        """The messages with these ids that belong to this user."""
        return self._owned(message_row, "messages m", message_ids)

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
        ctes, params = self.db.ranked("message_windows" if windows else "messages", self.user_id, terms)
        extra, dates = time_range("m.created_at", created_from, created_to)
        rows = self.db.rows(
            f"{ctes} SELECT {MESSAGE_COLUMNS}, r.score FROM ranked r JOIN messages m ON m.id = r.id"
            f" JOIN conversations c ON c.id = m.conversation_id AND {self.db.is_false('c.is_private')}"
            f" WHERE m.user_id = ?{extra} ORDER BY r.score DESC, m.id LIMIT ?",
            [*params, self.user_id, *dates, limit],
        )
        return [(message_row(row), float(row["score"])) for row in rows]

    def message_neighbours(self, message_id: int) -> tuple[MessageRow | None, MessageRow | None]:
        """The turns just before and just after one message in its conversation."""
        same = "m.conversation_id = (SELECT conversation_id FROM messages WHERE id = :id AND user_id = :user)"
        rows = self.db.rows(
            f"SELECT * FROM (SELECT {MESSAGE_COLUMNS}, 'prev' AS side FROM messages m WHERE m.user_id = :user"
            f" AND {same} AND m.id < :id ORDER BY m.id DESC LIMIT 1) p"
            f" UNION ALL SELECT * FROM (SELECT {MESSAGE_COLUMNS}, 'next' AS side FROM messages m"
            f" WHERE m.user_id = :user AND {same} AND m.id > :id ORDER BY m.id LIMIT 1) n",
            {"user": self.user_id, "id": message_id},
        )
        found = {row["side"]: message_row(row) for row in rows}
        return found.get("prev"), found.get("next")

    def messages_around(self, turns: Sequence[MessageRow], radius: int) -> list[MessageRow]:
        """The turns up to ``radius`` places before and after each of ``turns`` in its conversation.

        One statement; the given turns themselves are left out, and each turn comes once.
        """
        if radius < 1 or not turns:
            return []
        parts: list[str] = []
        params: list[Any] = []
        for turn in turns:
            for compare, order in (("<", "DESC"), (">", "ASC")):
                parts.append(
                    f"SELECT * FROM (SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.user_id = ?"
                    f" AND m.conversation_id = ? AND m.id {compare} ?"
                    f" ORDER BY m.id {order} LIMIT ?) a{len(parts)}"
                )
                params += [self.user_id, turn.conversation_id, turn.id, radius]
        given = {turn.id for turn in turns}
        found: dict[int, MessageRow] = {}
        for row in self.db.rows(" UNION ALL ".join(parts), params):
            message = message_row(row)
            if message.id not in given:
                found.setdefault(message.id, message)
        return [found[key] for key in sorted(found)]

    def message_speakers(self) -> list[str]:
        """The distinct speaker names in this user's conversations."""
        rows = self.db.rows(
            "SELECT DISTINCT speaker FROM messages WHERE user_id = ? AND speaker IS NOT NULL", (self.user_id,)
        )
        return sorted(str(row["speaker"]) for row in rows)

    # relevance accumulated during a conversation -------------------------------------
    def add_relevant(self, conversation_id: int, memory_ids: Sequence[int], now: float) -> None:
        """Remember that these memories were relevant in this conversation now (again: moved to now)."""
        self.db.run_among(
            "INSERT INTO conversation_relevant (conversation_id, memory_id, added_at)"
            " SELECT c.id, m.id, ? FROM conversations c JOIN memories m ON m.user_id = c.user_id"
            " WHERE c.id = ? AND c.user_id = ? AND {among}"
            " ON CONFLICT (conversation_id, memory_id) DO UPDATE SET added_at = excluded.added_at",
            "m.id",
            memory_ids,
            (now, conversation_id, self.user_id),
        )

    def list_relevant(self, conversation_id: int, limit: int) -> list[int]:
        """The ``limit`` memories found relevant most lately in this conversation, most recent first."""
        rows = self.db.rows(
            "SELECT r.memory_id FROM conversation_relevant r JOIN conversations c ON c.id = r.conversation_id"
            " WHERE r.conversation_id = ? AND c.user_id = ?"
            " ORDER BY r.added_at DESC, r.memory_id DESC LIMIT ?",
            (conversation_id, self.user_id, limit),
        )
        return [int(row["memory_id"]) for row in rows]

    # export and import (import restores turns through add_message, which indexes them) ------
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


__all__ = ["CONVERSATION_COLUMNS", "MESSAGE_COLUMNS", "Conversations", "conversation_row", "message_row"]
