"""How tests authenticate to the HTTP server: real API tokens, made the way `reverie tokens create` does.

``auth_headers(settings, "bob")`` gives the headers of a request made as bob (the user is
created if needed); ``auth_headers(settings, interface="kitchen")`` those of a voice device
speaking for an interface (its mapped user, or a guest when unmapped); ``admin=True`` makes
the user an admin first. Tokens are cached per database, user and interface.
"""

from __future__ import annotations

from reverie import Memory, Settings

_cache: dict[tuple[str, str, str | None, bool], str] = {}


def auth_headers(
    settings: Settings, user: str = "default", *, interface: str | None = None, admin: bool = False
) -> dict[str, str]:
    """Headers that authenticate a request as ``user`` (or as a device of ``interface``)."""
    key = (str(settings.database_path), user, interface, admin)
    secret = _cache.get(key)
    if secret is None:
        with Memory(settings) as memory:
            account = memory.store.get_user(user) or memory.add_user(user)
            if admin and not account.is_admin:
                memory.store.set_admin(account.id, True)
            name = f"device {interface}" if interface is not None else "tests"
            _, secret = memory.accounts.create_token(account, name, interface=interface)
        _cache[key] = secret
    return {"Authorization": f"Bearer {secret}"}


__all__ = ["auth_headers"]
