"""Reverie's exceptions.

    ReverieError                 base of everything Reverie raises on purpose
    ├── InvalidInput             bad input from a caller (bad date, empty text, bad command)
    │   ├── GuardRejected        text refused by the memory guardrails (says why)
    │   └── TooLarge             input over a size limit (message, query, import document)
    ├── NotFound                 no such memory, user or conversation (for this user)
    ├── Conflict                 the request clashes with the current state
    ├── ConfigError              reverie.toml or REVERIE_* settings are wrong
    │   └── NotConfigured        a feature needs a setting not set yet (chat without an LLM)
    ├── ProviderError            an embedding or LLM provider answered badly
    │   └── ProviderUnavailable  a provider could not be reached
    └── MigrationError           the database schema could not be brought up to date

The CLI and the HTTP server translate these at the edge; library code raises them and
never swallows them.
"""

from __future__ import annotations


class ReverieError(Exception):
    """Base class for every error Reverie raises on purpose."""

    code = "error"


class InvalidInput(ReverieError):
    """A caller passed input Reverie cannot accept."""

    code = "invalid_input"


class GuardRejected(InvalidInput):
    """Text refused by the memory guardrails; ``reason`` says which rule."""

    code = "rejected"

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class TooLarge(InvalidInput):
    """Input over a size limit; the message names the limit."""

    code = "too_large"


class NotFound(ReverieError):
    """The thing asked for does not exist for this user."""

    code = "not_found"


class Conflict(ReverieError):
    """The request clashes with the current state."""

    code = "conflict"


class Unauthenticated(ReverieError):
    """No valid credential: sign in, or send an API token."""

    code = "unauthenticated"


class Forbidden(ReverieError):
    """The credential is valid but may not do this (e.g. an admin-only action)."""

    code = "forbidden"


class RateLimited(ReverieError):
    """Too many attempts; ``retry_after`` seconds until the next one is allowed."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ConfigError(ReverieError):
    """Configuration is invalid; the message names the key."""

    code = "config_error"


class NotConfigured(ConfigError):
    """A feature needs a setting that is not set yet (chat without an LLM); the message names it."""

    code = "not_configured"


class ProviderError(ReverieError):
    """An embedding or LLM provider failed or answered with something unusable."""

    code = "provider_error"


class ProviderUnavailable(ProviderError):
    """An embedding or LLM provider could not be reached."""

    code = "provider_unavailable"


class MigrationError(ReverieError):
    """The database schema could not be migrated."""

    code = "migration_error"


__all__ = [
    "Conflict",
    "ConfigError",
    "Forbidden",
    "GuardRejected",
    "InvalidInput",
    "MigrationError",
    "NotConfigured",
    "NotFound",
    "ProviderError",
    "ProviderUnavailable",
    "RateLimited",
    "ReverieError",
    "TooLarge",
    "Unauthenticated",
]
