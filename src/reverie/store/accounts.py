"""Accounts of both engines: users and threads, interface mappings, passwords, API tokens, web sessions."""

from __future__ import annotations

from dataclasses import astuple, fields, replace

from reverie.errors import Conflict, NotFound
from reverie.store.dialect import Row, RowReader, StorePart, column_list, insert_sql
from reverie.store.rows import SessionRow, TokenRow, User

_user = RowReader(User)
_token = RowReader(TokenRow)
_session = RowReader(SessionRow)
_USER_FIELDS = [field.name for field in fields(User)]
_NEW_USER = insert_sql("users", _USER_FIELDS[1:]) + " ON CONFLICT (name) DO NOTHING"  # all but the id
# A token's or session's user beside it in one row: its columns renamed so they do not meet theirs.
_OWNER_COLUMNS = ", ".join(f"u.{name} AS owner_{name}" for name in _USER_FIELDS)
_TOKEN_OWNED = f"{column_list(TokenRow, 't.')}, {_OWNER_COLUMNS}"
_SESSION_OWNED = f"{column_list(SessionRow, 's.')}, {_OWNER_COLUMNS}"


def _owner(row: Row) -> User:
    """The user read beside a token or a session (its ``owner_`` columns)."""
    return _user({name: row[f"owner_{name}"] for name in _USER_FIELDS})


class Accounts(StorePart):
    """The store's users and threads, interface mappings and speakers, passwords, tokens and sessions."""

    def add_user(self, name: str, now: float, *, display_name: str = "", is_admin: bool = False) -> User:
        """Create a user; Conflict if the name is taken."""
        user = User(0, name, display_name, is_admin, now)
        return self._insert_user(user, f"A user named '{name}' already exists")

    def add_thread(self, name: str, label: str, now: float) -> User:
        """Create the owner of a thread's memories (a conversation whose person is not known yet)."""
        user = User(0, name, "", False, now, "thread", label)
        return self._insert_user(user, f"A thread or user named '{name}' already exists")

    def _insert_user(self, user: User, taken: str) -> User:
        user_id = self.db.insert(_NEW_USER, astuple(user)[1:])
        if user_id is None:
            raise Conflict(taken)
        return replace(user, id=user_id)

    def get_user(self, name: str) -> User | None:
        """The user with this name."""
        return self.db.select_one(_user, "FROM users WHERE name = ?", (name,))

    def list_users(self) -> list[User]:
        """All users (people, not threads), by name."""
        return self.db.select(_user, "FROM users WHERE kind = 'person' ORDER BY name")

    def list_threads(self) -> list[User]:
        """Every thread not merged into a user yet, newest first."""
        return self.db.select(_user, "FROM users WHERE kind = 'thread' ORDER BY id DESC")

    def delete_user(self, user_id: int) -> None:
        """Remove a user and, by cascade, everything kept about them."""
        if self.db.run("DELETE FROM users WHERE id = ?", (user_id,)) == 0:
            raise NotFound(f"No user with id {user_id}")

    def map_interface(self, interface: str, user_id: int | None, now: float) -> None:
        """Map a voice interface to a user (None removes the mapping)."""
        with self.db.transaction():
            self.db.run("DELETE FROM interface_mappings WHERE interface = ?", (interface,))
            if user_id is not None:
                self.db.run(
                    "INSERT INTO interface_mappings (interface, user_id, created_at) VALUES (?, ?, ?)",
                    (interface, user_id, now),
                )

    def list_interfaces(self) -> list[tuple[str, int]]:
        """Every interface mapped in the database, with its user's id."""
        rows = self.db.rows("SELECT interface, user_id FROM interface_mappings ORDER BY interface")
        return [(str(row["interface"]), int(row["user_id"])) for row in rows]

    def interface_user(self, interface: str) -> int | None:
        """The user an interface is mapped to in the database."""
        row = self.db.row("SELECT user_id FROM interface_mappings WHERE interface = ?", (interface,))
        return int(row["user_id"]) if row else None

    def set_speaker(self, interface: str, user_id: int, now: float) -> None:
        """``user_id`` speaks on a shared voice interface from ``now`` on ("This is Alice")."""
        self.db.run(
            "INSERT INTO interface_speakers (interface, user_id, heard_at) VALUES (?, ?, ?)"
            " ON CONFLICT (interface) DO UPDATE SET user_id = excluded.user_id, heard_at = excluded.heard_at",
            (interface, user_id, now),
        )

    def heard_speaker(self, interface: str, now: float, since: float) -> int | None:
        """Who speaks on an interface if it was last heard at ``since`` or later (None otherwise),
        which counts as hearing it now. A read alone while nobody has switched (most turns)."""
        row = self.db.row(
            "SELECT user_id, heard_at FROM interface_speakers WHERE interface = ?", (interface,)
        )
        if row is None or float(row["heard_at"]) < since:
            return None
        if float(row["heard_at"]) < now:
            self.db.run(
                "UPDATE interface_speakers SET heard_at = ? WHERE interface = ? AND heard_at < ?",
                (now, interface, now),
            )
        return int(row["user_id"])

    def clear_speaker(self, interface: str) -> None:
        """The interface is its mapped user's again."""
        self.db.run("DELETE FROM interface_speakers WHERE interface = ?", (interface,))

    def get_user_by_id(self, user_id: int) -> User | None:
        """The user with this id."""
        return self.db.select_one(_user, "FROM users WHERE id = ?", (user_id,))

    def set_admin(self, user_id: int, is_admin: bool) -> None:
        """Grant or take away the admin role."""
        self.db.run("UPDATE users SET is_admin = ? WHERE id = ?", (is_admin, user_id))

    def count_admins(self) -> int:
        """How many users are admins."""
        return int(self.db.value("SELECT COUNT(*) FROM users WHERE is_admin"))

    def set_password_hash(self, user_id: int, password_hash: str | None) -> None:
        """Store a user's password hash (None removes the password)."""
        self.db.run("UPDATE users SET password_hash = ? WHERE id = ?", (password_hash, user_id))

    def password_hash(self, user_id: int) -> str | None:
        """A user's password hash, if they have one."""
        row = self.db.row("SELECT password_hash FROM users WHERE id = ?", (user_id,))
        return str(row["password_hash"]) if row and row["password_hash"] else None

    def add_token(
        self, user_id: int, *, name: str, token_hash: str, prefix: str, interface: str | None, now: float
    ) -> TokenRow:
        """Keep a new token of a user."""
        row = self.db.write_one(
            _token,
            "INSERT INTO api_tokens (user_id, interface, name, token_hash, prefix, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (user_id, interface, name, token_hash, prefix, now),
        )
        assert row is not None
        return row

    def list_tokens(self, user_id: int) -> list[TokenRow]:
        """A user's tokens, newest first (revoked ones included)."""
        return self.db.select(_token, "FROM api_tokens WHERE user_id = ? ORDER BY id DESC", (user_id,))

    def revoke_token(self, user_id: int, token_id: int, now: float) -> TokenRow | None:
        """Revoke one of the user's tokens; None if the user has no such token."""
        return self.db.write_one(
            _token,
            "UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND user_id = ?",
            (now, token_id, user_id),
        )

    def token_owner(self, token_hash: str) -> tuple[TokenRow, User] | None:
        """The token with this hash (revoked or not) and its user, read by one statement."""
        row = self.db.row(
            f"SELECT {_TOKEN_OWNED} FROM api_tokens t"
            " JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?",
            (token_hash,),
        )
        if row is None:
            return None
        return _token(row), _owner(row)

    def touch_token(self, token_id: int, now: float) -> None:
        """Record that a token was used."""
        self.db.run("UPDATE api_tokens SET last_used_at = ? WHERE id = ?", (now, token_id))

    def add_session(self, id_hash: str, user_id: int, csrf_token: str, now: float, expires_at: float) -> None:
        """Keep a new web session."""
        self.db.run(
            "INSERT INTO web_sessions (id_hash, user_id, csrf_token, created_at, expires_at, last_seen)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (id_hash, user_id, csrf_token, now, expires_at, now),
        )

    def session_owner(self, id_hash: str, now: float) -> tuple[SessionRow, User] | None:
        """A session that has not expired and its user, read by one statement."""
        row = self.db.row(
            f"SELECT {_SESSION_OWNED}"
            " FROM web_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ? AND s.expires_at > ?",
            (id_hash, now),
        )
        if row is None:
            return None
        return _session(row), _owner(row)

    def delete_session(self, id_hash: str) -> None:
        """End a session."""
        self.db.run("DELETE FROM web_sessions WHERE id_hash = ?", (id_hash,))

    def delete_sessions(self, user_id: int, now: float) -> int:
        """End every session of a user (after a password change) and drop expired ones."""
        return self.db.run("DELETE FROM web_sessions WHERE user_id = ? OR expires_at <= ?", (user_id, now))


__all__ = ["Accounts"]
