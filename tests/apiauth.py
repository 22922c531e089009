"""How tests authenticate to the HTTP server: one seam, so routes never read a forgeable user field.

``auth_headers(settings, "bob")`` gives the headers of a request made as bob;
``auth_headers(settings, interface="kitchen")`` those of a voice device speaking for an
interface (its mapped user, or a guest when unmapped).
"""

from __future__ import annotations

from reverie import Settings


def auth_headers(
    settings: Settings, user: str = "default", *, interface: str | None = None
) -> dict[str, str]:
    """Headers that authenticate a request as ``user`` (or as a device of ``interface``)."""
    if interface is not None:
        return {"X-Reverie-Interface": interface}
    return {"X-Reverie-User": user}


__all__ = ["auth_headers"]
