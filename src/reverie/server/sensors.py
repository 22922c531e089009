"""Lo-Bug's ``/context/sensors``: a device's live readings, shown in the chat prompt while they last."""

from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from reverie.errors import Conflict
from reverie.memory import Memory
from reverie.retrieve.timeutil import to_iso
from reverie.sensors import DEFAULT_TTL_SECONDS, MAX_READINGS, MAX_TTL_SECONDS, Reading
from reverie.server.deps import MemoryDep
from reverie.server.schemas import ErrorOut
from reverie.server.workers import run_memory

sensors_router = APIRouter(
    prefix="/context",
    tags=["chat"],
    responses={
        400: {"model": ErrorOut, "description": "Invalid readings"},
        409: {"model": ErrorOut, "description": "A guest session keeps no readings"},
        422: {"model": ErrorOut, "description": "A reading refused by the guard, or an invalid body"},
    },
)


class SensorsIn(BaseModel):
    """Readings to set: a name sent again replaces its value."""

    readings: dict[str, StrictStr | StrictBool | StrictInt | StrictFloat] = Field(
        max_length=MAX_READINGS, examples=[{"orientation": "face_up", "battery": "82%"}]
    )
    ttl_seconds: float = Field(
        default=DEFAULT_TTL_SECONDS, ge=1, le=MAX_TTL_SECONDS, description="how long the readings hold"
    )


class ReadingOut(BaseModel):
    """One live reading."""

    name: str
    value: str
    expires_at: str = Field(description="ISO time after which the reading is dropped")


class SensorsOut(BaseModel):
    """The user's live readings and the line the chat prompt gets from them."""

    readings: list[ReadingOut]
    prompt_line: str = Field(examples=["[Current physical state: Orientation: face_up; Battery: 82%]"])


def _user_id(memory: Memory) -> int:
    if memory.user is None:
        raise Conflict("A guest session keeps no sensor readings: sign in, or map this interface to a user")
    return memory.user.id


def _out(memory: Memory, readings: list[Reading]) -> SensorsOut:
    now = memory.clock()
    return SensorsOut(
        readings=[
            ReadingOut(name=r.name, value=r.value, expires_at=to_iso(r.expires_at, memory.tz))
            for r in readings
        ],
        prompt_line=memory.sensors.prompt_line(_user_id(memory), now),
    )


def _put(memory: Memory, body: SensorsIn) -> SensorsOut:
    readings = memory.sensors.put(_user_id(memory), body.readings, memory.clock(), body.ttl_seconds)
    return _out(memory, readings)


@sensors_router.post("/sensors", response_model=SensorsOut)
async def post_sensors(memory: MemoryDep, body: SensorsIn) -> SensorsOut:
    """Set the caller's sensor readings; until they expire, each chat turn's prompt ends with them."""
    return await run_memory(_put, memory, body)


@sensors_router.get("/sensors", response_model=SensorsOut)
def get_sensors(memory: MemoryDep) -> SensorsOut:
    """The caller's live readings."""
    return _out(memory, memory.sensors.live(_user_id(memory), memory.clock()))


@sensors_router.delete("/sensors", status_code=204)
def delete_sensors(memory: MemoryDep) -> Response:
    """Forget the caller's readings now."""
    memory.sensors.clear(_user_id(memory))
    return Response(status_code=204)
