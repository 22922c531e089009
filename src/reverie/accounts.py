"""Accounts: passwords for the web UI, API tokens for assistants and scripts, web sessions.

Passwords are hashed with argon2id (``argon2-cffi``). Tokens and session ids are random
256-bit secrets shown once; the database keeps only their SHA-256, so a copy of the database
does not let anyone sign in. A device token speaks for a voice interface: requests made with
it act as the interface's mapped user, or as a guest when the interface is unmapped.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from reverie.errors import Conflict, InvalidInput, NotFound, RateLimited
from reverie.store.base import Store, TokenRow, User

TOKEN_PREFIX = "rv_"
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
_NAME_MAX = 100
_hasher = PasswordHasher()
# Verified when the user does not exist, so a wrong name takes as long as a wrong password.
_DUMMY_HASH = _hasher.hash("reverie-dummy-password")


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_password_strength(password: str) -> str:
    """The password, if long enough and not absurdly long (InvalidInput otherwise)."""
    if len(password) < MIN_PASSWORD:
        raise InvalidInput(f"A password needs at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise InvalidInput(f"A password may have at most {MAX_PASSWORD} characters")
    return password


@dataclass(frozen=True)
class Credential:
    """Who a request is: a user, or a device speaking for an interface."""

    user: User
    interface: str | None = None
    token_id: int | None = None
    csrf_token: str | None = None  # set for browser sessions, which must echo it on writes


class Accounts:
    """Passwords, tokens and sessions over the store."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time, session_hours: float = 336.0):
        self.store = store
        self.clock = clock
        self.session_seconds = session_hours * 3600

    # passwords -----------------------------------------------------------------------
    def set_password(self, user: User, password: str) -> None:
        """Set a user's password and end their browser sessions."""
        self.store.set_password_hash(user.id, _hasher.hash(check_password_strength(password)))
        self.store.delete_sessions(user.id, self.clock())

    def check_password(self, name: str, password: str) -> User | None:
        """The user if the name and password match, else None (timing does not reveal which failed)."""
        user = self.store.get_user(name)
        stored = self.store.password_hash(user.id) if user is not None else None
        ok: bool
        try:
            ok = _hasher.verify(stored or _DUMMY_HASH, password[:MAX_PASSWORD])
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or user is None or stored is None:
            return None
        if _hasher.check_needs_rehash(stored):
            self.store.set_password_hash(user.id, _hasher.hash(password))
        return user

    def has_admin(self) -> bool:
        """True once an admin account exists."""
        return self.store.count_admins() > 0

    # tokens --------------------------------------------------------------------------
    def create_token(self, user: User, name: str, *, interface: str | None = None) -> tuple[TokenRow, str]:
        """A new token of ``user`` and its secret (shown only now)."""
        name = name.strip()
        if not name or len(name) > _NAME_MAX:
            raise InvalidInput(f"A token needs a name of 1-{_NAME_MAX} characters (what uses it)")
        if interface is not None and not interface.strip():
            raise InvalidInput("A device token needs the interface it speaks for")
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = self.store.add_token(
            user.id,
            name=name,
            token_hash=_digest(secret),
            prefix=secret[: len(TOKEN_PREFIX) + 6],
            interface=interface,
            now=self.clock(),
        )
        return row, secret

    def list_tokens(self, user: User) -> list[TokenRow]:
        """A user's tokens, newest first."""
        return self.store.list_tokens(user.id)

    def revoke_token(self, user: User, token_id: int) -> TokenRow:
        """Revoke one of the user's tokens (NotFound for anyone else's)."""
        row = self.store.revoke_token(user.id, token_id, self.clock())
        if row is None:
            raise NotFound(f"No token with id {token_id}")
        return row

    def authenticate_token(self, secret: str) -> Credential | None:
        """Who a bearer token belongs to, or None if it is unknown or revoked."""
        if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
            return None
        found = self.store.token_owner(_digest(secret))
        if found is None or found[0].revoked_at is not None:
            return None
        row, user = found
        now = self.clock()
        if row.last_used_at is None or now - row.last_used_at > 60:
            self.store.touch_token(row.id, now)
        return Credential(user, interface=row.interface, token_id=row.id)

    # sessions ------------------------------------------------------------------------
    def start_session(self, user: User) -> tuple[str, str]:
        """A new browser session: (cookie value, CSRF token)."""
        session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = self.clock()
        self.store.add_session(_digest(session_id), user.id, csrf, now, now + self.session_seconds)
        return session_id, csrf

    def authenticate_session(self, session_id: str) -> Credential | None:
        """Who a session cookie belongs to, or None if it is unknown or expired."""
        if not session_id or len(session_id) > 200:
            return None
        found = self.store.session_owner(_digest(session_id), self.clock())
        if found is None:
            return None
        row, user = found
        return Credential(user, csrf_token=row.csrf_token)

    def end_session(self, session_id: str) -> None:
        """Sign out."""
        self.store.delete_session(_digest(session_id))

    def create_first_admin(
        self, user: User | None, name: str, password: str, add: Callable[[], User]
    ) -> User:
        """Make the first admin (only while there is none): an existing user, or a new one."""
        if self.has_admin():
            raise Conflict("An admin account already exists; sign in instead")
        check_password_strength(password)
        target = user or add()
        self.store.set_admin(target.id, True)
        self.set_password(target, password)
        return target


class LoginLimiter:
    """At most ``max_failures`` failed sign-ins per client address and per account in a window."""

    def __init__(self, max_failures: int, window_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.max_failures = max_failures
        self.window = window_seconds
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._known: dict[str, dict[str, None]] = {}  # account -> addresses it signed in from, oldest first
        self._lock = threading.Lock()

    def check(self, *keys: str) -> None:
        """RateLimited if any key has used up its failures."""
        now = self.clock()
        with self._lock:
            for key in keys:
                recent = self._recent(key, now)
                if len(recent) >= self.max_failures:
                    wait = self.window - (now - recent[0])
                    raise RateLimited(
                        f"Too many failed sign-ins; try again in {max(1, round(wait / 60))} minute(s)", wait
                    )

    def failed(self, *keys: str) -> None:
        """Count a failed attempt against every key."""
        now = self.clock()
        with self._lock:
            for key in keys:
                self._recent(key, now).append(now)

    def succeeded(self, *keys: str) -> None:
        """Forget the failures of these keys."""
        with self._lock:
            for key in keys:
                self._failures.pop(key, None)

    # Sign-ins: an address is limited on its own, and on each account it tries; an account as a
    # whole is limited (at a higher count) only for addresses it has not signed in from, so that
    # guesses from elsewhere never lock the owner out of a machine they use.
    ACCOUNT_FACTOR = 4
    _KNOWN_PER_ACCOUNT = 20

    def check_sign_in(self, address: str, name: str) -> None:
        """RateLimited when this address, or this account from an address it never used, failed too often."""
        name = name.lower()
        self.check(f"ip:{address}", f"user:{name}@{address}")
        with self._lock:
            known = address in self._known.get(name, ())
        if not known:
            now = self.clock()
            with self._lock:
                recent = self._recent(f"user:{name}", now)
                if len(recent) >= self.max_failures * self.ACCOUNT_FACTOR:
                    wait = self.window - (now - recent[0])
                    raise RateLimited(
                        f"Too many failed sign-ins to this account; try again in {max(1, round(wait / 60))}"
                        " minute(s), or from a machine it was signed in from before",
                        wait,
                    )

    def failed_sign_in(self, address: str, name: str) -> None:
        """Count a wrong password from ``address`` for the account ``name``."""
        name = name.lower()
        self.failed(f"ip:{address}", f"user:{name}@{address}", f"user:{name}")

    def signed_in(self, address: str, name: str) -> None:
        """A right password: this address's failures are forgotten and the account knows it."""
        name = name.lower()
        self.succeeded(f"ip:{address}", f"user:{name}@{address}")
        with self._lock:
            known = self._known.setdefault(name, {})
            known.pop(address, None)
            known[address] = None
            while len(known) > self._KNOWN_PER_ACCOUNT:
                known.pop(next(iter(known)))

    def _recent(self, key: str, now: float) -> deque[float]:
        recent = self._failures.setdefault(key, deque())
        while recent and now - recent[0] > self.window:
            recent.popleft()
        return recent


__all__ = ["Accounts", "Credential", "LoginLimiter", "TOKEN_PREFIX", "check_password_strength"]
