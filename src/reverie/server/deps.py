"""FastAPI dependencies: the server's one :class:`Memory` and the view a request acts as.

:func:`current_memory` is the single place that decides whose memory a request reads and
writes. Today it trusts a header or query parameter; credential-based resolution replaces
this one function (via ``app.dependency_overrides`` or in place) without touching routes.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import Depends, Header, Query, Request

from reverie.errors import ConfigError, InvalidInput
from reverie.memory import Memory


def root_memory(request: Request) -> Memory:
    """The Memory the app opened at startup."""
    memory = getattr(request.app.state, "memory", None)
    if not isinstance(memory, Memory):
        raise ConfigError(
            "The server's memory is not open: run the app with its lifespan "
            "(uvicorn does; in tests use `with TestClient(app) as client`)"
        )
    return memory


RootMemory = Annotated[Memory, Depends(root_memory)]


def current_memory(
    root: RootMemory,
    x_reverie_user: Annotated[
        str | None, Header(description="User to act as (default: the configured default user)")
    ] = None,
    user: Annotated[str | None, Query(description="User to act as, if the header is not set")] = None,
    x_reverie_interface: Annotated[
        str | None,
        Header(description="Voice interface speaking; resolves to its mapped user, or a guest if unmapped"),
    ] = None,
    interface: Annotated[str | None, Query(description="Interface, if the header is not set")] = None,
) -> Memory:
    """The memory this request acts on: a user's, an interface's, or the default user's."""
    name = x_reverie_user or user
    via = x_reverie_interface or interface
    if via:
        if name:
            raise InvalidInput("Give either a user or an interface, not both: an interface decides its user")
        return root.for_interface(via)
    return root.for_user(name or root.settings.default_user)


MemoryDep = Annotated[Memory, Depends(current_memory)]


async def json_body(request: Request) -> Any:
    """The request body parsed as JSON, whatever its shape (400 if it is not JSON)."""
    raw = await request.body()
    if not raw.strip():
        raise InvalidInput("The request body is empty; send a JSON object")
    try:
        return json.loads(raw)
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"Request body is not valid UTF-8 (bad byte at offset {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"Request body is not valid JSON: {exc.msg} (at character {exc.pos})") from exc


__all__ = ["MemoryDep", "RootMemory", "current_memory", "json_body", "root_memory"]
