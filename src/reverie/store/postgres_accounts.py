"""PostgreSQL statements for accounts: passwords, API tokens and web sessions."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg

from reverie.store.base import SessionRow, TokenRow, User

_TOKEN_COLUMNS = "id, user_id, interface, name, prefix, created_at, last_used_at, revoked_at"


class PgAccountStatements:
    """Mixed into :class:`PgStore`."""

    def read(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = (), *, binary: bool = False
    ) -> list[Any]:
        raise NotImplementedError  # provided by PgStore

    def write(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> psycopg.Cursor[dict[str, Any]]:
        raise NotImplementedError  # provided by PgStore

    def transaction(self) -> AbstractContextManager[psycopg.Connection[dict[str, Any]]]:
        raise NotImplementedError  # provided by PgStore

    def get_user_by_id(self, user_id: int) -> User | None:
        """The user with this id."""
        rows = self.read(
            "SELECT id, name, display_name, is_admin, created_at, kind, label FROM users WHERE id = %s",
            (user_id,),
        )
        return User(**rows[0]) if rows else None

    def set_admin(self, user_id: int, is_admin: bool) -> None:
        """Grant or take away the admin role."""
        self.write("UPDATE users SET is_admin = %s WHERE id = %s", (is_admin, user_id))

    def count_admins(self) -> int:
        """How many users are admins."""
        return int(self.read("SELECT COUNT(*) AS n FROM users WHERE is_admin")[0]["n"])

    def set_password_hash(self, user_id: int, password_hash: str | None) -> None:
        """Store a user's password hash (None removes the password)."""
        self.write("UPDATE users SET password_hash = %s WHERE id = %s", (password_hash, user_id))

    def password_hash(self, user_id: int) -> str | None:
        """A user's password hash, if they have one."""
        rows = self.read("SELECT password_hash FROM users WHERE id = %s", (user_id,))
        return str(rows[0]["password_hash"]) if rows and rows[0]["password_hash"] else None

    def add_token(
        self, user_id: int, *, name: str, token_hash: str, prefix: str, interface: str | None, now: float
    ) -> TokenRow:
        """Keep a new token of a user."""
        row = self.write(
            "INSERT INTO api_tokens (user_id, interface, name, token_hash, prefix, created_at)"
            f" VALUES (%s, %s, %s, %s, %s, %s) RETURNING {_TOKEN_COLUMNS}",
            (user_id, interface, name, token_hash, prefix, now),
        ).fetchone()
        assert row is not None
        return TokenRow(**row)

    def list_tokens(self, user_id: int) -> list[TokenRow]:
        """A user's tokens, newest first (revoked ones included)."""
        rows = self.read(
            f"SELECT {_TOKEN_COLUMNS} FROM api_tokens WHERE user_id = %s ORDER BY id DESC", (user_id,)
        )
        return [TokenRow(**row) for row in rows]

    def revoke_token(self, user_id: int, token_id: int, now: float) -> TokenRow | None:
        """Revoke one of the user's tokens; None if the user has no such token."""
        row = self.write(
            "UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, %s) WHERE id = %s AND user_id = %s"
            f" RETURNING {_TOKEN_COLUMNS}",
            (now, token_id, user_id),
        ).fetchone()
        return TokenRow(**row) if row else None

    def token_by_hash(self, token_hash: str) -> TokenRow | None:
        """The token with this hash (revoked or not)."""
        rows = self.read(f"SELECT {_TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = %s", (token_hash,))
        return TokenRow(**rows[0]) if rows else None

    def touch_token(self, token_id: int, now: float) -> None:
        """Record that a token was used."""
        self.write("UPDATE api_tokens SET last_used_at = %s WHERE id = %s", (now, token_id))

    def add_session(self, id_hash: str, user_id: int, csrf_token: str, now: float, expires_at: float) -> None:
        """Keep a new web session."""
        self.write(
            "INSERT INTO web_sessions (id_hash, user_id, csrf_token, created_at, expires_at, last_seen)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (id_hash, user_id, csrf_token, now, expires_at, now),
        )

    def get_session(self, id_hash: str, now: float) -> SessionRow | None:
        """A session that has not expired."""
        rows = self.read(
            "SELECT user_id, csrf_token, created_at, expires_at FROM web_sessions"
            " WHERE id_hash = %s AND expires_at > %s",
            (id_hash, now),
        )
        return SessionRow(**rows[0]) if rows else None

    def delete_session(self, id_hash: str) -> None:
        """End a session."""
        self.write("DELETE FROM web_sessions WHERE id_hash = %s", (id_hash,))

    def delete_sessions(self, user_id: int, now: float) -> int:
        """End every session of a user (after a password change) and drop expired ones."""
        return self.write(
            "DELETE FROM web_sessions WHERE user_id = %s OR expires_at <= %s", (user_id, now)
        ).rowcount


__all__ = ["PgAccountStatements"]
