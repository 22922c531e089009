"""Live sessions over a WebSocket (``/api/v1/sessions/ws``) for voice satellites and web chat.

The connection authenticates like every request (an API token, a device token for a voice
interface, or the web session cookie); an unmapped voice interface is a guest, which gets
replies but has nothing loaded or stored. One connection is one session: its conversation
starts with the first message and ends, queued for consolidation (DAWN §3.7.1), when the
socket closes, when the client sends ``end``, or after ``[memory] session_timeout_minutes``
without a message (the server's own timer). The socket stays open after ``end`` and after
the timeout: the next message starts a new conversation.

Frames are JSON text, one object each, with a ``type``. Client to server:

``{"type": "hello", "interface": "kitchen", "private": false, "tools": true, "system": "..."}``
    Optional, first frame only (otherwise the defaults apply). ``interface`` names the
    conversation's interface (a device token's interface always wins; default ``websocket``);
    ``private`` starts it private; ``tools: false`` offers the model no memory functions, so
    every reply streams word by word (with them, a reply that calls none comes in one piece,
    and the answer after a round of calls streams); ``system`` is the assistant's own system prompt.
``{"type": "message", "role": "user", "content": "...", "reply": true, "speaker": "Ana"}``
    Record a turn (``role`` user or assistant; ``speaker`` optional). With ``reply: true`` on a
    user turn, the model configured under ``[llm]`` answers with memory in the prompt
    (:mod:`reverie.assistant`), streamed as ``delta`` frames and then one ``reply`` frame.
    On a device's shared voice interface, "This is Alice" (or "it's Alice") is not recorded: the
    session becomes Alice's when she is one of the interface's users (its mapped user, or one
    of ``[memory.voice_speakers]``); the conversation so far ends under the previous speaker.
    The switch is the interface's (:meth:`Memory.switch_speaker`, the same on every door): a
    new connection or an HTTP turn of the device is Alice's too, until the interface falls silent.
``{"type": "private", "value": true}``
    Private on or off, at any time, also before the first message (DAWN Phase 4.5).
``{"type": "context", "query": "..."}``
    The memory block for a system prompt, for clients that call their own model.
``{"type": "end"}``
    End the conversation now (queued for consolidation).
``{"type": "ping"}``
    Answered with ``pong``; does not count as activity.

Server to client:

``{"type": "ready", "conversation_id": null, "guest": false, "private": false, "interface": ...,``
``"can_reply": true}``
    After ``hello`` (or before answering a first frame of another type). ``conversation_id``
    is null until the first message; ``can_reply`` says whether a model is configured.
``{"type": "speaker", "user": "alice", "reply": "Hi Alice."}``
    The answer to "This is Alice": ``user`` is who the session now speaks for. A name that is
    not one of the interface's users leaves the session as it was, and the turn is an ordinary one.
``{"type": "ack", "role": "user", "message_id": 12, "conversation_id": 3}``
    A turn was recorded (ids are null for a guest). The conversation id changes when an idle
    conversation was ended and a new one started.
``{"type": "delta", "content": "..."}``, then
``{"type": "reply", "content": "...", "message_id": 13, "conversation_id": 3, "timing": {...}}``
    The assistant's answer, in pieces and then whole (``message_id``: the recorded reply).
    ``timing`` is what the turn cost in ms, as in the HTTP ``Server-Timing`` header:
    ``{"context": 2.1, "record": 0.6, "model": 310.0, "total": 315.2}``.
``{"type": "private", "value": true, "conversation_id": 3}``,
``{"type": "context", "text": "...", "tokens": 120, "budget": 800}``,
``{"type": "ended", "reason": "end", "conversation_id": 3, "state": "pending"}``, ``{"type": "pong"}``
    Answers to the frames above; ``ended`` also comes unasked, with reason ``timeout``, after
    the silence timeout.
``{"type": "error", "error": "invalid_json", "detail": "..."}``
    Bad input (``invalid_json``, ``invalid_input``, ``unknown_type``, ``too_large``, ...) or a
    failed reply (``provider_unavailable``, ``provider_timeout``, ``provider_error``,
    ``config_error``); the socket stays open and a recorded user turn stays recorded.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool
from starlette.types import Message

from reverie.assistant import HISTORY_TURNS, Exchange, start_exchange
from reverie.config import llm_setup_hint
from reverie.conversations import MAX_MESSAGE_BYTES
from reverie.core.speakers import greeting
from reverie.errors import ConfigError, NotConfigured, ReverieError
from reverie.llm import ChatMessage, ChatModel, chat_model_from_settings
from reverie.memory import Memory
from reverie.server.deps import MemoryDep
from reverie.server.errors import code_for
from reverie.server.workers import iterate_upstream

log = logging.getLogger(__name__)
sessions_router = APIRouter(prefix="/api/v1", tags=["sessions"])

MAX_FRAME_BYTES = MAX_MESSAGE_BYTES + 16 * 1024
MAX_SYSTEM_BYTES = 16 * 1024
IDLE_CHECK_SECONDS = 1.0  # how often the silence timer looks at the (possibly test-driven) clock
DEFAULT_INTERFACE = "websocket"
_T = TypeVar("_T")


class FrameError(Exception):
    """A frame the session refuses; answered with an error frame, the socket stays open."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def _field(frame: dict[str, Any], name: str, kind: type[_T], default: _T) -> _T:
    value = frame.get(name, default)
    if value is None:
        return default
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise FrameError("invalid_input", f"'{name}' must be a {kind.__name__}")
    return value


class LiveSession:
    """One connection's state: its memory, settings from hello, the open conversation and history."""

    def __init__(self, websocket: WebSocket, memory: Memory) -> None:
        self.websocket = websocket
        self.memory = memory
        self.interface = memory.interface or DEFAULT_INTERFACE
        self.private = False
        self.tools = True
        self.system = ""
        self.greeted = False
        self.conversation_id: int | None = None
        self.history: list[ChatMessage] = []
        self.last_message_at = memory.clock()
        self._model: ChatModel | None = None

    # plumbing ----------------------------------------------------------------------
    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame."""
        await self.websocket.send_text(json.dumps(frame, ensure_ascii=False))

    async def error(self, code: str, detail: str) -> None:
        """Send an error frame."""
        await self.send({"type": "error", "error": code, "detail": detail})

    @staticmethod
    async def call(function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run blocking memory or model work off the event loop."""
        return await run_in_threadpool(function, *args, **kwargs)

    def seconds_left(self) -> float | None:
        """Seconds of silence left before the open conversation ends; None without one."""
        if self.conversation_id is None:
            return None
        timeout = self.memory.settings.memory.session_timeout_minutes * 60.0
        return timeout - (self.memory.clock() - self.last_message_at)

    async def receive(self) -> Message | None:
        """The next ASGI message from the client, or None when the session went silent too long."""
        while True:
            left = self.seconds_left()
            if left is not None and left <= 0:
                return None
            try:
                return await asyncio.wait_for(
                    self.websocket.receive(), None if left is None else min(left, IDLE_CHECK_SECONDS)
                )
            except TimeoutError:
                continue

    def model(self) -> ChatModel:
        """The configured conversation model (ConfigError without one)."""
        if self._model is None:
            model = chat_model_from_settings(self.memory.settings, "conversation")
            if model is None:
                raise NotConfigured(
                    "Chat needs a language model and none is configured: "
                    + llm_setup_hint(self.memory.settings)
                    + "; or record turns without a reply"
                )
            self._model = model
        return self._model

    # frames ------------------------------------------------------------------------
    async def handle(self, raw: str) -> None:
        """Parse and act on one text frame."""
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
            raise FrameError("too_large", f"A frame may hold at most {MAX_FRAME_BYTES} bytes")
        try:
            frame = json.loads(raw)
        except ValueError as exc:
            raise FrameError("invalid_json", f"The frame is not valid JSON: {exc}") from exc
        except RecursionError:  # "[[[[...]]]]": the decoder recurses once per level
            raise FrameError("invalid_json", "The frame nests JSON too deeply") from None
        if not isinstance(frame, dict):
            raise FrameError("invalid_input", "A frame must be a JSON object with a 'type'")
        kind = frame.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise FrameError(
                "unknown_type", f"Unknown frame type {kind!r}; expected one of {', '.join(_HANDLERS)}"
            )
        if not self.greeted and kind != "hello":
            await self.hello({})
        await handler(self, frame)

    async def hello(self, frame: dict[str, Any]) -> None:
        """Set the session up and answer ``ready``."""
        if self.greeted:
            raise FrameError("invalid_input", "hello must be the first frame of the session")
        interface = _field(frame, "interface", str, self.interface).strip()
        if not interface or len(interface) > 100:
            raise FrameError("invalid_input", "'interface' must be a name of 1-100 characters")
        if self.memory.interface is not None and interface != self.memory.interface:
            raise FrameError(
                "invalid_input",
                f"This device speaks for interface '{self.memory.interface}'; it cannot name another",
            )
        system = _field(frame, "system", str, "")
        if len(system.encode("utf-8", "surrogatepass")) > MAX_SYSTEM_BYTES:
            raise FrameError("too_large", f"'system' may hold at most {MAX_SYSTEM_BYTES} bytes")
        self.interface, self.system = interface, system
        self.private = _field(frame, "private", bool, False)
        self.tools = _field(frame, "tools", bool, True)
        self.greeted = True
        await self.send(
            {
                "type": "ready",
                "conversation_id": self.conversation_id,
                "guest": self.memory.is_guest,
                "private": self.private,
                "interface": self.interface,
                "can_reply": self.memory.settings.llm.provider != "none",
            }
        )

    async def message(self, frame: dict[str, Any]) -> None:
        """Record a turn; answer it when asked to."""
        role = frame.get("role")
        if role not in ("user", "assistant"):
            raise FrameError("invalid_input", "'role' must be user or assistant")
        content = _field(frame, "content", str, "")
        if not content.strip():
            raise FrameError("invalid_input", "'content' must be a non-empty string")
        if len(content.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            raise FrameError("too_large", f"A message may hold at most {MAX_MESSAGE_BYTES} bytes")
        speaker = _field(frame, "speaker", str, "") or None
        reply = _field(frame, "reply", bool, False)
        if reply and role != "user":
            raise FrameError("invalid_input", "Only a user turn can ask for a reply")
        self.last_message_at = self.memory.clock()
        if role == "user" and await self._switch_speaker(content):
            return
        if not reply:
            await self._record(role, content, speaker)
            return
        try:
            model = self.model()
        except ConfigError as exc:
            await self._record(role, content, speaker)  # no model, but what the user said is kept
            await self.error(exc.code, str(exc))
            return
        await self._reply(model, content, speaker)

    async def _switch_speaker(self, content: str) -> bool:
        """A turn saying "This is Alice" on the device's interface: speak for Alice from now on if
        she is one of its users (:meth:`Memory.switch_speaker`); False for any other turn."""
        if self.memory.interface is None:  # only a device's interface can switch: no thread hop
            return False
        found = await self.call(self.memory.switch_speaker, content)
        if found is None or found.user is None:
            return False
        if found.user != self.memory.user:
            await self.call(self.close_conversation)  # what was said so far was the previous speaker's
            self.memory = found
        await self.send({"type": "speaker", "user": found.user.name, "reply": greeting(found.user)})
        return True

    async def _record(self, role: str, content: str, speaker: str | None) -> None:
        """Store a turn (not for a guest) and acknowledge it."""
        message_id = None
        if not self.memory.is_guest:
            conversation_id = await self._conversation()
            row = await self.call(self.memory.add_message, conversation_id, role, content, speaker=speaker)
            message_id = row.id
            self._follow(row.conversation_id)
        self._remember_turn(ChatMessage(role, content))
        await self.send(
            {"type": "ack", "role": role, "message_id": message_id, "conversation_id": self.conversation_id}
        )

    async def _reply(self, model: ChatModel, content: str, speaker: str | None) -> None:
        """Record the user's turn, then stream the model's answer with memory in the prompt."""
        started = time.perf_counter()
        user = ChatMessage("user", content)
        prompt = [*([ChatMessage("system", self.system)] if self.system else []), *self.history, user]
        conversation_id = None if self.memory.is_guest else await self._conversation()
        exchange: Exchange = await self.call(
            start_exchange,
            self.memory,
            model,
            prompt,
            conversation=conversation_id,
            memory_tools=self.tools,
            speaker=speaker,
        )
        self._follow(exchange.conversation_id)
        self._remember_turn(user)
        await self.send(
            {
                "type": "ack",
                "role": "user",
                "message_id": exchange.user_message_id,
                "conversation_id": self.conversation_id,
            }
        )
        try:
            async for piece in iterate_upstream(exchange.stream(), lambda: exchange.done):
                await self.send({"type": "delta", "content": piece})
        except ReverieError as exc:
            await self.error(code_for(exc), str(exc))
            return
        answer = exchange.answer
        self._remember_turn(ChatMessage("assistant", answer.content))
        await self.send(
            {
                "type": "reply",
                "content": answer.content,
                "message_id": answer.message_id,
                "conversation_id": self.conversation_id,
                "timing": exchange.timing.figures((time.perf_counter() - started) * 1000.0),
            }
        )

    async def private_(self, frame: dict[str, Any]) -> None:
        """Turn private on or off, now and for the conversations this session starts."""
        value = frame.get("value")
        if not isinstance(value, bool):
            raise FrameError("invalid_input", "'value' must be true or false")
        self.private = value
        if self.conversation_id is not None:
            await self.call(self.memory.set_private, self.conversation_id, value)
        await self.send({"type": "private", "value": value, "conversation_id": self.conversation_id})

    async def context(self, frame: dict[str, Any]) -> None:
        """Answer the memory block for a query (empty for a guest)."""
        query = _field(frame, "query", str, "")
        if len(query.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            raise FrameError("too_large", f"'query' may hold at most {MAX_MESSAGE_BYTES} bytes")
        block = await self.call(self.memory.context, query or None, conversation_id=self.conversation_id)
        await self.send(
            {"type": "context", "text": block.text, "tokens": block.tokens, "budget": block.budget}
        )

    async def end(self, frame: dict[str, Any]) -> None:
        """End the conversation now (queued for consolidation)."""
        await self.finish("end")

    async def ping(self, frame: dict[str, Any]) -> None:
        """Answer pong."""
        await self.send({"type": "pong"})

    # conversation ------------------------------------------------------------------
    async def _conversation(self) -> int:
        """The open conversation's id, starting one (private if asked) on the first message."""
        if self.conversation_id is None:
            row = await self.call(self.memory.start_conversation, self.interface, private=self.private)
            self._follow(row.id)
        assert self.conversation_id is not None
        return self.conversation_id

    def _follow(self, conversation_id: int | None) -> None:
        """Move on to ``conversation_id`` (a new one after an idle one ended): fresh history."""
        if conversation_id != self.conversation_id:
            self.conversation_id = conversation_id
            self.history = []

    def _remember_turn(self, message: ChatMessage) -> None:
        self.history = [*self.history, message][-HISTORY_TURNS:]

    def close_conversation(self) -> dict[str, Any]:
        """End the open conversation, if any (blocking); what ``ended`` reports."""
        conversation_id, self.conversation_id, self.history = self.conversation_id, None, []
        state = None
        if conversation_id is not None:
            state = self.memory.end_conversation(conversation_id).consolidation_state
        return {"conversation_id": conversation_id, "state": state}

    async def finish(self, reason: str) -> None:
        """End the conversation and say so."""
        ended = await self.call(self.close_conversation)
        await self.send({"type": "ended", "reason": reason, **ended})


_HANDLERS: dict[str, Callable[[LiveSession, dict[str, Any]], Any]] = {
    "hello": LiveSession.hello,
    "message": LiveSession.message,
    "private": LiveSession.private_,
    "context": LiveSession.context,
    "end": LiveSession.end,
    "ping": LiveSession.ping,
}


@sessions_router.websocket("/sessions/ws")
async def live_session(websocket: WebSocket, memory: MemoryDep) -> None:
    """A live session: record turns, reply with memory, toggle private; the protocol is in the module docs."""
    await websocket.accept()
    session = LiveSession(websocket, memory)
    try:
        while True:
            message = await session.receive()
            if message is None:
                await session.finish("timeout")
                continue
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            try:
                if text is None:
                    raise FrameError("invalid_input", "Send JSON in text frames, not binary ones")
                await session.handle(text)
            except FrameError as exc:
                await session.error(exc.code, str(exc))
            except ReverieError as exc:
                await session.error(code_for(exc), str(exc))
    except WebSocketDisconnect:
        pass
    finally:
        # Even when the server shuts down: the conversation must end and be queued.
        with anyio.CancelScope(shield=True):
            try:
                await session.call(session.close_conversation)
            except ReverieError as exc:
                log.warning("Could not end the live session's conversation: %s", exc)


__all__ = ["MAX_FRAME_BYTES", "FrameError", "LiveSession", "live_session", "sessions_router"]
