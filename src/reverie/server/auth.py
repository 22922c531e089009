"""Accounts over HTTP: first-run setup, sign in and out, API tokens, and the admin's users and devices.

The setup page exists only while no admin does, and answers only on the loopback address, so
a fresh server on a network cannot be claimed by a stranger. Sign-in attempts are limited per
client address and per account.
"""

from __future__ import annotations

import html
from typing import Annotated
from urllib.parse import parse_qs, urlsplit

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from reverie.accounts import Credential, LoginLimiter
from reverie.errors import Conflict, Forbidden, InvalidInput, NotFound, Unauthenticated
from reverie.memory import Memory
from reverie.retrieve.timeutil import to_iso
from reverie.server.deps import SESSION_COOKIE, AdminDep, CredentialDep, RootMemory, is_loopback, json_body
from reverie.server.schemas import ErrorOut, UserListOut, UserOut, user_out
from reverie.server.ui import security_headers
from reverie.store.base import TokenRow

auth_router = APIRouter(
    responses={
        400: {"model": ErrorOut, "description": "Invalid input"},
        401: {"model": ErrorOut, "description": "No valid credential"},
        403: {"model": ErrorOut, "description": "Not allowed (admin only, or not from this machine)"},
        404: {"model": ErrorOut, "description": "No such token, user or interface"},
        409: {"model": ErrorOut, "description": "Conflict (name taken, setup already done)"},
        429: {"model": ErrorOut, "description": "Too many failed sign-ins"},
    }
)
TokenId = Annotated[int, Path(ge=1, le=2**63 - 1, description="The token's id")]


class LoginIn(BaseModel):
    """A name and password."""

    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class SetupIn(LoginIn):
    """The first admin account."""

    display_name: str = Field(default="", max_length=100)


class MeOut(BaseModel):
    """Who is signed in."""

    user: UserOut
    interface: str | None = Field(description="Set for a device token: the voice interface it speaks for")
    csrf_token: str | None = Field(
        description="Send it as X-CSRF-Token on writes made with the session cookie"
    )


class PasswordIn(BaseModel):
    """A password change."""

    current_password: str = Field(min_length=1, max_length=1024)
    new_password: str = Field(min_length=8, max_length=1024)


class TokenIn(BaseModel):
    """A token to create."""

    name: str = Field(min_length=1, max_length=100, examples=["kitchen assistant"])
    interface: str | None = Field(
        default=None, max_length=100, description="Admin only: a device token for this voice interface"
    )


class TokenOut(BaseModel):
    """A token (never its secret, except once at creation)."""

    id: int
    name: str
    prefix: str = Field(description="The first characters, to recognise it")
    interface: str | None
    created_at: str
    last_used_at: str | None
    revoked: bool


class NewTokenOut(TokenOut):
    """A token just created, with its secret: shown this once only."""

    token: str


class TokenListOut(BaseModel):
    """A user's tokens, newest first."""

    tokens: list[TokenOut]


class NewUserIn(BaseModel):
    """A user to add (admin only)."""

    name: str = Field(examples=["alice"], description="1-64 letters, digits, '.', '_', '-' or '@'")
    display_name: str = Field(default="", max_length=100)
    password: str | None = Field(default=None, min_length=8, max_length=1024)
    is_admin: bool = False


class InterfaceIn(BaseModel):
    """Which user a voice interface speaks for."""

    user: str = Field(min_length=1, max_length=64)


class InterfaceOut(BaseModel):
    """A voice interface and its user (None: a guest)."""

    interface: str
    user: str | None


def _token_out(memory: Memory, row: TokenRow) -> TokenOut:
    return TokenOut(
        id=row.id,
        name=row.name,
        prefix=row.prefix,
        interface=row.interface,
        created_at=to_iso(row.created_at, memory.tz),
        last_used_at=to_iso(row.last_used_at, memory.tz) if row.last_used_at else None,
        revoked=row.revoked_at is not None,
    )


def _limiter(request: Request) -> LoginLimiter:
    limiter = getattr(request.app.state, "login_limiter", None)
    if not isinstance(limiter, LoginLimiter):
        conf = request.app.state.settings.server
        limiter = LoginLimiter(conf.login_max_failures, conf.login_window_minutes * 60)
        request.app.state.login_limiter = limiter
    return limiter


def _secure_cookies(request: Request) -> bool:
    conf = request.app.state.settings.server
    return bool(conf.tls_certfile or conf.behind_tls_proxy or request.url.scheme == "https")


def _signed_in(request: Request, root: Memory, credential: Credential, status: int = 200) -> JSONResponse:
    session_id, csrf = root.accounts.start_session(credential.user)
    body = MeOut(user=user_out(credential.user, root.tz), interface=None, csrf_token=csrf)
    response = JSONResponse(body.model_dump(), status_code=status)
    response.set_cookie(
        SESSION_COOKIE,
        session_id,
        max_age=int(root.accounts.session_seconds),
        httponly=True,
        samesite="strict",
        secure=_secure_cookies(request),
        path="/",
    )
    return response


# first run -----------------------------------------------------------------------------
_SETUP_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Set up Reverie</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/app.css"></head>
<body><main id="main"><section class="login card">
<div class="login-brand"><img src="/static/icon.svg" alt="" width="40" height="40">
<h1>Welcome to Reverie</h1></div>
<p class="muted">Create the first admin account. This page is only shown on this machine,
and only until an admin exists.</p>
<form class="login-form" method="post" action="/setup">
<label class="label" for="name">User name</label>
<input class="input" id="name" name="name" required autocomplete="username" value="{name}">
<label class="label" for="password">Password (at least 8 characters)</label>
<input class="input" id="password" name="password" type="password" required minlength="8"
 autocomplete="new-password">
<p class="form-error" role="alert">{message}</p>
<button class="btn btn-primary btn-block" type="submit">Create admin</button></form>
<p class="hint">The admin signs in here and manages the other users on the Users page, or with
<code>reverie users add NAME --password</code> on this machine. Without <code>--user</code>, the
<code>reverie</code> command acts as this first admin, so both see the same memories.</p>
</section></main></body></html>"""


def _check_setup(request: Request, root: Memory) -> None:
    if not is_loopback(request.client.host if request.client else None):
        raise Forbidden(
            "The setup page answers only on this machine (loopback); "
            "or run `reverie users add NAME --admin` there"
        )
    host = request.headers.get("host", "")
    name = host[1 : host.find("]")] if host.startswith("[") else host.rpartition(":")[0] or host
    if not is_loopback(name):
        # A page of another site whose name resolves to 127.0.0.1 (DNS rebinding) sends its own name.
        raise Forbidden(
            f"The setup page answers only under a loopback name (localhost, 127.0.0.1), not {host!r}"
        )
    origin = request.headers.get("origin")
    if request.method != "GET" and origin is not None and urlsplit(origin).netloc != host:
        raise Forbidden("Setup refused: the form was sent from another site's page")
    if root.accounts.has_admin():
        raise Conflict("Setup is done: an admin account exists; sign in instead")


@auth_router.get("/setup", response_class=HTMLResponse, tags=["accounts"])
def setup_page(request: Request, root: RootMemory) -> HTMLResponse:
    """The first-run page that creates the first admin (loopback only, until an admin exists)."""
    _check_setup(request, root)
    return HTMLResponse(_SETUP_PAGE.format(message="", name=""), headers=security_headers())


@auth_router.post("/setup", tags=["accounts"], status_code=201, response_model=MeOut)
async def setup(request: Request, root: RootMemory) -> Response:
    """Create the first admin (JSON or a form post) and sign them in."""
    _check_setup(request, root)
    form = request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded")
    if form:
        fields = {k: v[0] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}
        data = SetupIn(name=fields.get("name", "?"), password=fields.get("password", "?"))
    else:
        data = SetupIn.model_validate(await json_body(request))
    try:
        existing = root.store.get_user(data.name)
        user = root.accounts.create_first_admin(
            existing,
            data.name,
            data.password,
            lambda: root.add_user(data.name, display_name=data.display_name, is_admin=True),
        )
    except InvalidInput as exc:
        if not form:
            raise
        page = _SETUP_PAGE.format(message=html.escape(str(exc)), name=html.escape(data.name))
        return HTMLResponse(page, status_code=400, headers=security_headers())
    user = root.store.get_user_by_id(user.id) or user
    response = _signed_in(request, root, Credential(user), status=201)
    if form:
        redirect = Response(status_code=303, headers={"Location": "/"})
        redirect.headers["set-cookie"] = response.headers["set-cookie"]
        return redirect
    return response


# signing in ----------------------------------------------------------------------------
@auth_router.post("/api/v1/auth/login", response_model=MeOut, tags=["accounts"])
def login(request: Request, root: RootMemory, body: LoginIn) -> Response:
    """Sign in with a name and password: sets the session cookie and returns the CSRF token."""
    limiter, address = _limiter(request), _address(request)
    limiter.check_sign_in(address, body.name)
    user = root.accounts.check_password(body.name, body.password)
    if user is None:
        limiter.failed_sign_in(address, body.name)
        raise Unauthenticated("Wrong user name or password")
    limiter.signed_in(address, body.name)
    return _signed_in(request, root, Credential(user))


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


@auth_router.post("/api/v1/auth/logout", status_code=204, tags=["accounts"])
def logout(request: Request, root: RootMemory, credential: CredentialDep) -> Response:
    """Sign out: the session ends and its cookie is cleared."""
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id:
        root.accounts.end_session(session_id)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@auth_router.get("/api/v1/auth/me", response_model=MeOut, tags=["accounts"])
def me(root: RootMemory, credential: CredentialDep) -> MeOut:
    """Who the credential belongs to (and the session's CSRF token)."""
    return MeOut(
        user=user_out(credential.user, root.tz),
        interface=credential.interface,
        csrf_token=credential.csrf_token,
    )


@auth_router.post("/api/v1/auth/password", status_code=204, tags=["accounts"])
def change_password(
    request: Request, root: RootMemory, credential: CredentialDep, body: PasswordIn
) -> Response:
    """Change one's password (the current one is required); every browser session ends."""
    if credential.interface is not None:
        raise Forbidden("A device token cannot change a password")
    limiter, address, name = _limiter(request), _address(request), credential.user.name
    limiter.check_sign_in(address, name)  # guesses of the current password count like sign-ins
    if root.accounts.check_password(name, body.current_password) is None:
        limiter.failed_sign_in(address, name)
        raise Unauthenticated("The current password is wrong")
    limiter.signed_in(address, name)
    root.accounts.set_password(credential.user, body.new_password)
    return Response(status_code=204)


# tokens --------------------------------------------------------------------------------
@auth_router.get("/api/v1/tokens", response_model=TokenListOut, tags=["accounts"])
def list_tokens(root: RootMemory, credential: CredentialDep) -> TokenListOut:
    """The caller's API tokens (never their secrets)."""
    if credential.interface is not None:
        raise Forbidden("A device token cannot see or manage tokens")
    rows = root.accounts.list_tokens(credential.user)
    return TokenListOut(tokens=[_token_out(root, row) for row in rows])


@auth_router.post("/api/v1/tokens", response_model=NewTokenOut, status_code=201, tags=["accounts"])
def create_token(root: RootMemory, credential: CredentialDep, body: TokenIn) -> NewTokenOut:
    """A new API token for the caller; its secret is in this answer only. Device tokens: admins."""
    if credential.interface is not None:
        raise Forbidden("A device token cannot create tokens")
    if body.interface is not None and not credential.user.is_admin:
        raise Forbidden("Only an admin may create a device token for a voice interface")
    row, secret = root.accounts.create_token(credential.user, body.name, interface=body.interface)
    return NewTokenOut(**_token_out(root, row).model_dump(), token=secret)


@auth_router.delete("/api/v1/tokens/{token_id}", response_model=TokenOut, tags=["accounts"])
def revoke_token(root: RootMemory, credential: CredentialDep, token_id: TokenId) -> TokenOut:
    """Revoke one of the caller's tokens; it stops working at once."""
    if credential.interface is not None:
        raise Forbidden("A device token cannot see or manage tokens")
    return _token_out(root, root.accounts.revoke_token(credential.user, token_id))


# administration ------------------------------------------------------------------------
@auth_router.get("/api/v1/users", response_model=UserListOut, tags=["users"])
def list_users(root: RootMemory, admin: AdminDep) -> UserListOut:
    """Every user in the database (admin)."""
    return UserListOut(users=[user_out(u, root.tz) for u in root.list_users()])


@auth_router.post("/api/v1/users", response_model=UserOut, status_code=201, tags=["users"])
def add_user(root: RootMemory, admin: AdminDep, body: NewUserIn) -> UserOut:
    """Create a user, optionally with a password and the admin role (admin; 409 if the name is taken)."""
    user = root.add_user(body.name, display_name=body.display_name, is_admin=body.is_admin)
    if body.password:
        root.accounts.set_password(user, body.password)
    return user_out(user, root.tz)


@auth_router.get("/api/v1/interfaces", response_model=list[InterfaceOut], tags=["users"])
def list_interfaces(root: RootMemory, admin: AdminDep) -> list[InterfaceOut]:
    """Voice interface mappings from the config and the database (admin)."""
    found: dict[str, str | None] = dict(root.settings.memory.voice_mapping)
    users = {u.id: u.name for u in root.list_users()}
    for interface, user_id in root.store.list_interfaces():
        found.setdefault(interface, users.get(user_id))
    return [InterfaceOut(interface=name, user=user) for name, user in sorted(found.items())]


@auth_router.put("/api/v1/interfaces/{interface}", response_model=InterfaceOut, tags=["users"])
def map_interface(root: RootMemory, admin: AdminDep, interface: str, body: InterfaceIn) -> InterfaceOut:
    """Map a voice interface to a user (admin); its device tokens then act as that user."""
    user = root.store.get_user(body.user)
    if user is None:
        raise NotFound(f"No user named '{body.user}'")
    root.store.map_interface(interface, user.id, root.clock())
    return InterfaceOut(interface=interface, user=user.name)


@auth_router.delete("/api/v1/interfaces/{interface}", response_model=InterfaceOut, tags=["users"])
def unmap_interface(root: RootMemory, admin: AdminDep, interface: str) -> InterfaceOut:
    """Remove a mapping (admin): the interface becomes a guest again."""
    root.store.map_interface(interface, None, root.clock())
    return InterfaceOut(interface=interface, user=root.settings.memory.voice_mapping.get(interface))


__all__ = ["auth_router"]
