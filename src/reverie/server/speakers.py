"""Who else may speak on a shared voice interface ("This is Alice"): ``[memory.voice_speakers]`` over HTTP.

The list is a setting of the config file, so a change is saved there (comments kept) and applied
at once: the next "This is NAME" on that interface is checked against it.
"""

from __future__ import annotations

import re
import threading
from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from reverie.errors import InvalidInput, NotFound
from reverie.server.deps import AdminDep, RootMemory
from reverie.server.schemas import ErrorOut
from reverie.server.tomlpatch import write_config

speakers_router = APIRouter(
    prefix="/api/v1/interfaces",
    tags=["users"],
    responses={
        403: {"model": ErrorOut, "description": "Not an admin"},
        404: {"model": ErrorOut, "description": "No such user"},
        422: {"model": ErrorOut, "description": "An interface name the config file cannot hold as a key"},
    },
)
_INTERFACE = re.compile(r"[A-Za-z0-9_-]{1,100}")
_lock = threading.Lock()
InterfaceName = Annotated[
    str, Path(min_length=1, max_length=100, description="The voice interface, e.g. kitchen")
]


class SpeakersOut(BaseModel):
    """Each voice interface's other speakers ([memory.voice_speakers]), by interface."""

    speakers: dict[str, list[str]] = Field(examples=[{"kitchen": ["alice", "bob"]}])


class SpeakersIn(BaseModel):
    """Who may say "This is NAME" on the interface besides the user it is mapped to."""

    users: list[str] = Field(max_length=100, description="User names; empty: nobody else")


@speakers_router.get("/speakers", response_model=SpeakersOut)
def list_speakers(root: RootMemory, admin: AdminDep) -> SpeakersOut:
    """Who else may speak on each shared voice interface (admin)."""
    return SpeakersOut(speakers={k: list(v) for k, v in sorted(root.settings.memory.voice_speakers.items())})


@speakers_router.put("/{interface}/speakers", response_model=SpeakersOut)
def set_speakers(
    root: RootMemory, admin: AdminDep, interface: InterfaceName, body: SpeakersIn
) -> SpeakersOut:
    """Set who else may say "This is NAME" on an interface (admin): saved to the config file, live now."""
    if not _INTERFACE.fullmatch(interface):
        raise InvalidInput(
            f"{interface!r} cannot be a key of [memory.voice_speakers] here: use letters, digits, '-' "
            "and '_', or edit reverie.toml by hand"
        )
    names: list[str] = []
    for name in body.users:
        user = root.store.get_user(name.strip())
        if user is None or user.kind != "person":
            raise NotFound(f"No user named '{name.strip()}'; the Users page lists who there is")
        if user.name not in names:
            names.append(user.name)
    with _lock:
        write_config(root.settings.config_file, {f"memory.voice_speakers.{interface}": names})
        speakers = dict(root.settings.memory.voice_speakers)
        speakers[interface] = names
        root.settings.memory.voice_speakers = speakers
    return list_speakers(root, admin)


__all__ = ["speakers_router"]
