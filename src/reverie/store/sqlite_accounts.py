"""SQLite statements for accounts: passwords, API tokens and web sessions."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager

from reverie.store.base import SessionRow, TokenRow, User


def _token(row: sqlite3.Row) -> TokenRow:
    return TokenRow(
        id=row["id"],
        user_id=row["user_id"],
        interface=row["interface"],
        name=row["name"],
        prefix=row["prefix"],
        created_at=row["created_at"],
        last_used_at=row["last_used_at"],
        revoked_at=row["revoked_at"],
    )


class AccountStatements:
    """Mixed into :class:`SqliteStore`."""

    def connection(self) -> sqlite3.Connection:  # provided by SqliteStore
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:  # provided by SqliteStore
        raise NotImplementedError

    def get_user_by_id(self, user_id: int) -> User | None:
        """The user with this id."""
        row = self.connection().execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        if row is None:
            return None
        return User(
            row["id"],
            row["name"],
            row["display_name"],
            bool(row["is_admin"]),
            row["created_at"],
            row["kind"],
            row["label"],
        )

    def set_admin(self, user_id: int, is_admin: bool) -> None:
        """Grant or take away the admin role."""
        with self.transaction() as conn:
            conn.execute("UPDATE users SET is_admin = ? WHERE id = ?", (int(is_admin), user_id))

    def count_admins(self) -> int:
        """How many users are admins."""
        return int(self.connection().execute("SELECT COUNT(*) FROM users WHERE is_admin = 1").fetchone()[0])

    def set_password_hash(self, user_id: int, password_hash: str | None) -> None:
        """Store a user's password hash (None removes the password)."""
        with self.transaction() as conn:
            conn.execute("UPDATE users SET password_hash = ? WHERE id = ?", (password_hash, user_id))

    def password_hash(self, user_id: int) -> str | None:
        """A user's password hash, if they have one."""
        row = self.connection().execute("SELECT password_hash FROM users WHERE id = ?", (user_id,)).fetchone()
        return str(row[0]) if row and row[0] else None

    def add_token(
        self, user_id: int, *, name: str, token_hash: str, prefix: str, interface: str | None, now: float
    ) -> TokenRow:
        """Keep a new token of a user."""
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO api_tokens (user_id, interface, name, token_hash, prefix, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (user_id, interface, name, token_hash, prefix, now),
            )
            row = conn.execute("SELECT * FROM api_tokens WHERE id = ?", (cur.lastrowid,)).fetchone()
        return _token(row)

    def list_tokens(self, user_id: int) -> list[TokenRow]:
        """A user's tokens, newest first (revoked ones included)."""
        rows = (
            self.connection()
            .execute("SELECT * FROM api_tokens WHERE user_id = ? ORDER BY id DESC", (user_id,))
            .fetchall()
        )
        return [_token(row) for row in rows]

    def revoke_token(self, user_id: int, token_id: int, now: float) -> TokenRow | None:
        """Revoke one of the user's tokens; None if the user has no such token."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND user_id = ?",
                (now, token_id, user_id),
            )
            row = conn.execute(
                "SELECT * FROM api_tokens WHERE id = ? AND user_id = ?", (token_id, user_id)
            ).fetchone()
        return _token(row) if row else None

    def token_by_hash(self, token_hash: str) -> TokenRow | None:
        """The token with this hash (revoked or not)."""
        row = (
            self.connection()
            .execute("SELECT * FROM api_tokens WHERE token_hash = ?", (token_hash,))
            .fetchone()
        )
        return _token(row) if row else None

    def touch_token(self, token_id: int, now: float) -> None:
        """Record that a token was used."""
        with self.transaction() as conn:
            conn.execute("UPDATE api_tokens SET last_used_at = ? WHERE id = ?", (now, token_id))

    def add_session(self, id_hash: str, user_id: int, csrf_token: str, now: float, expires_at: float) -> None:
        """Keep a new web session."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO web_sessions (id_hash, user_id, csrf_token, created_at, expires_at, last_seen)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (id_hash, user_id, csrf_token, now, expires_at, now),
            )

    def get_session(self, id_hash: str, now: float) -> SessionRow | None:
        """A session that has not expired."""
        row = (
            self.connection()
            .execute(
                "SELECT user_id, csrf_token, created_at, expires_at FROM web_sessions"
                " WHERE id_hash = ? AND expires_at > ?",
                (id_hash, now),
            )
            .fetchone()
        )
        return SessionRow(row[0], row[1], row[2], row[3]) if row else None

    def delete_session(self, id_hash: str) -> None:
        """End a session."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM web_sessions WHERE id_hash = ?", (id_hash,))

    def delete_sessions(self, user_id: int, now: float) -> int:
        """End every session of a user (after a password change) and drop expired ones."""
        with self.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM web_sessions WHERE user_id = ? OR expires_at <= ?", (user_id, now)
            )
        return cur.rowcount


__all__ = ["AccountStatements"]
