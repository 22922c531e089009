"""The admin's user management beyond listing and adding (auth.py): remove a user, set a password.

The web UI's Users page and ``reverie users`` act on the same accounts: a user here is the
person the CLI acts as with ``--user NAME`` (and, for the first admin, without it).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, Field

from reverie.errors import Conflict, NotFound
from reverie.server.deps import AdminDep, RootMemory
from reverie.server.schemas import ErrorOut

UserName = Annotated[str, Path(min_length=1, max_length=64, description="The user's name")]

users_router = APIRouter(
    tags=["users"],
    responses={
        403: {"model": ErrorOut, "description": "Not an admin"},
        404: {"model": ErrorOut, "description": "No such user"},
        409: {"model": ErrorOut, "description": "The only admin, or yourself"},
    },
)


class UserPasswordIn(BaseModel):
    """A new password for a user (admin)."""

    password: str = Field(min_length=8, max_length=1024)


@users_router.delete("/api/v1/users/{name}", status_code=204)
def remove_user(root: RootMemory, admin: AdminDep, name: UserName) -> Response:
    """Remove a user and everything kept about them (admin; not yourself, not the only admin)."""
    if name == admin.user.name:
        raise Conflict("You cannot remove yourself; another admin can, or run `reverie users remove NAME`")
    root.remove_user(name)
    return Response(status_code=204)


@users_router.put("/api/v1/users/{name}/password", status_code=204)
def set_user_password(root: RootMemory, admin: AdminDep, name: UserName, body: UserPasswordIn) -> Response:
    """Set a user's password so they can sign in to the web UI; their browser sessions end (admin)."""
    user = root.store.get_user(name)
    if user is None:
        raise NotFound(f"No user named '{name}'")
    root.accounts.set_password(user, body.password)
    return Response(status_code=204)


__all__ = ["users_router"]
