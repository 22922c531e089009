"""FastAPI dependencies: the server's one :class:`Memory` and the view a request acts as.

:func:`current_memory` is the single place that decides whose memory a request reads and
writes, and it decides from the credential only: an API token (``Authorization: Bearer``) or
the browser's session cookie, never a user named in the request. A device token acts as its
voice interface's mapped user, or as a guest when the interface is unmapped. Requests signed
in by cookie must echo the session's CSRF token in ``X-CSRF-Token`` on every write.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from reverie.accounts import Credential
from reverie.errors import ConfigError, Forbidden, InvalidInput, Unauthenticated
from reverie.memory import Memory

SESSION_COOKIE = "reverie_session"
CSRF_HEADER = "X-CSRF-Token"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_RETIRED_HEADERS = ("x-reverie-user", "x-reverie-interface")


def root_memory(connection: HTTPConnection) -> Memory:
    """The Memory the app opened at startup."""
    memory = getattr(connection.app.state, "memory", None)
    if not isinstance(memory, Memory):
        raise ConfigError(
            "The server's memory is not open: run the app with its lifespan "
            "(uvicorn does; in tests use `with TestClient(app) as client`)"
        )
    return memory


async def _root_memory(connection: HTTPConnection) -> Memory:
    # A dependency on the event loop: an attribute read is not worth a hop to a memory thread,
    # where every sync dependency of every request queues behind the others' memory work.
    return root_memory(connection)


RootMemory = Annotated[Memory, Depends(_root_memory)]


def authenticate(
    root: Memory,
    headers: Mapping[str, str],
    cookies: Mapping[str, str],
    method: str,
    *,
    websocket: bool = False,
) -> Credential:
    """Who is calling, from a bearer token or a session cookie (Unauthenticated if neither is valid)."""
    for name in _RETIRED_HEADERS:
        if name in headers:
            raise InvalidInput(
                f"The {name} header is not accepted: the user comes from the credential "
                "(a user's API token, or a device token for a voice interface)"
            )
    authorization = headers.get("authorization")
    if authorization:
        scheme, _, secret = authorization.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise Unauthenticated("The Authorization header must be 'Bearer <token>'")
        credential = root.accounts.authenticate_token(secret.strip())
        if credential is None:
            raise Unauthenticated("This API token is unknown or has been revoked")
        return credential
    session_id = cookies.get(SESSION_COOKIE)
    if session_id:
        credential = root.accounts.authenticate_session(session_id)
        if credential is None:
            raise Unauthenticated("Your session has expired; sign in again")
        if websocket:
            _check_origin(headers)
        elif method.upper() not in _SAFE_METHODS:
            sent = headers.get(CSRF_HEADER.lower(), "")
            if not hmac.compare_digest(sent.encode(), (credential.csrf_token or "").encode()):
                raise Forbidden(f"Missing or wrong {CSRF_HEADER} header; cross-site requests are refused")
        return credential
    raise Unauthenticated(
        "Sign in, or send 'Authorization: Bearer <token>' (create one with `reverie tokens create`)"
    )


def _check_origin(headers: Mapping[str, str]) -> None:
    """A browser's WebSocket must come from a page of this server (no cross-site hijacking)."""
    origin = headers.get("origin")
    if origin and urlsplit(origin).netloc != headers.get("host", ""):
        raise Forbidden("This WebSocket comes from another site's page; refused")


def memory_of(root: Memory, credential: Credential) -> Memory:
    """The Memory a credential acts as."""
    if credential.interface is not None:
        return root.for_interface(credential.interface)
    return root.view_as(credential.user)  # read with the credential, in this request


def current_credential(connection: HTTPConnection, root: RootMemory) -> Credential:
    """The caller's credential (401 without one), checked once per request."""
    found = connection.scope.get("reverie.credential")
    if isinstance(found, Credential):
        return found
    method = connection.scope.get("method", "GET")
    websocket = connection.scope.get("type") == "websocket"
    credential = authenticate(root, connection.headers, connection.cookies, method, websocket=websocket)
    connection.scope["reverie.credential"] = credential
    return credential


CredentialDep = Annotated[Credential, Depends(current_credential)]


def current_memory(connection: HTTPConnection, root: RootMemory) -> Memory:
    """The memory this request acts on: its user's, or its device's interface's.

    The credential is checked here rather than in a dependency of its own: each sync
    dependency is a hop to a memory thread, queued behind other requests' memory work.
    """
    return memory_of(root, current_credential(connection, root))


MemoryDep = Annotated[Memory, Depends(current_memory)]


def require_admin(credential: CredentialDep) -> Credential:
    """The caller's credential if it is an admin's own (device tokens never are); else 403."""
    if not credential.user.is_admin or credential.interface is not None:
        raise Forbidden("Only an admin may do this")
    return credential


AdminDep = Annotated[Credential, Depends(require_admin)]


def is_loopback(host: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and the test client's 'testclient'."""
    if host in ("localhost", "testclient"):
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


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


__all__ = [
    "CSRF_HEADER",
    "SESSION_COOKIE",
    "AdminDep",
    "CredentialDep",
    "MemoryDep",
    "RootMemory",
    "authenticate",
    "current_credential",
    "current_memory",
    "is_loopback",
    "json_body",
    "memory_of",
    "require_admin",
    "root_memory",
]
