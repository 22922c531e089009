"""Chat with memory over HTTP: an OpenAI-compatible ``/v1/chat/completions`` and Lo-Bug's ``/chat/text``.

Point any OpenAI client at Reverie (``base_url="http://127.0.0.1:8765/v1"``, the API token as
its api_key) and it gets memory without code changes: Reverie records the user's message,
puts the user's memory in the system prompt, forwards the chat to the model configured under
``[llm]``, runs the memory functions the model calls, records the reply and answers in
OpenAI's shape (``chat.completion``, or ``chat.completion.chunk`` server-sent events ending
with ``data: [DONE]``). See :mod:`reverie.assistant` for the steps.

The request's ``model`` is not used: the configured upstream model answers, and the response
names it. Which conversation: the ``X-Reverie-Conversation`` header (an id, e.g. from
``POST /api/v1/conversations``), else the caller's current conversation on its interface
(``chat`` for user tokens, the device's interface for device tokens), which starts a new one
after ``session_timeout_minutes`` of silence. ``X-Reverie-Private: true`` makes it private.
Every answer carries the conversation id in ``X-Reverie-Conversation`` (not for guests).

On a device's shared voice interface, a last user turn "This is Alice" (also on ``/chat/text``
and, once transcribed, ``/chat/audio``) switches the interface to Alice when she is one of its
users (:meth:`Memory.switch_speaker`): answered "Hi Alice.", not recorded, no model asked.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from reverie.assistant import (
    Answer,
    Exchange,
    conversation_history,
    resolve_conversation,
    start_exchange,
)
from reverie.config import llm_setup_hint
from reverie.core.speakers import greeting
from reverie.errors import InvalidInput, NotConfigured, ReverieError
from reverie.llm import ChatMessage, ChatModel, ToolCall, chat_model_from_settings
from reverie.llm.transcribe import AUDIO_TYPES, transcriber_from_settings
from reverie.memory import Memory
from reverie.server.deps import MemoryDep, RootMemory, current_memory
from reverie.server.errors import code_for
from reverie.server.schemas import ErrorOut
from reverie.server.workers import iterate_upstream, run_memory, run_upstream
from reverie.store.base import User
from reverie.text import count_tokens

CONVERSATION_HEADER = "X-Reverie-Conversation"
TIMING_HEADER = "Server-Timing"
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "Invalid input"},
    404: {"model": ErrorOut, "description": "No such conversation (for this user)"},
    503: {"model": ErrorOut, "description": "No chat model is configured yet (the message says where)"},
    502: {"model": ErrorOut, "description": "The upstream model is unreachable or answered badly"},
    504: {"model": ErrorOut, "description": "The upstream model did not answer in time"},
}
chat_router = APIRouter(tags=["chat"], responses=_ERRORS)

ConversationHeader = Annotated[
    int | None,
    Header(
        alias=CONVERSATION_HEADER,
        ge=1,
        le=2**63 - 1,
        description="The conversation to continue (default: the caller's current one on its interface)",
    ),
]
PrivateHeader = Annotated[
    bool,
    Header(
        alias="X-Reverie-Private",
        description="true: the conversation is private (never extracted, out of episodic search)",
    ),
]


async def upstream_model(root: RootMemory) -> ChatModel:
    """The assistant's own model, from ``[llm]`` (NotConfigured, a 503, when none is).

    On the event loop: building the client object does no I/O, so it costs no thread hop.
    """
    model = chat_model_from_settings(root.settings, "conversation")
    if model is None:
        raise NotConfigured(
            "Chat needs a language model and none is configured: " + llm_setup_hint(root.settings)
        )
    return model


UpstreamDep = Annotated[ChatModel, Depends(upstream_model)]


# request and response models -------------------------------------------------------------
class _Open(BaseModel):
    """An OpenAI-shaped body: fields Reverie does not use are accepted and ignored."""

    model_config = ConfigDict(extra="ignore")


class ContentPartIn(_Open):
    """One part of a message's content; only text parts are supported."""

    type: str = Field(examples=["text"])
    text: str | None = None


class FunctionCallIn(_Open):
    """The function a tool call names, with its JSON arguments."""

    name: str = Field(min_length=1, max_length=200)
    arguments: str = "{}"


class ToolCallIn(_Open):
    """A tool call of an earlier assistant message."""

    id: str = Field(max_length=200)
    type: Literal["function"] = "function"
    function: FunctionCallIn


class ChatMessageIn(_Open):
    """One message of the chat, as OpenAI's API takes it."""

    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[ContentPartIn] | None = None
    name: str | None = Field(default=None, max_length=200)
    tool_calls: list[ToolCallIn] | None = None
    tool_call_id: str | None = Field(default=None, max_length=200)


class StreamOptionsIn(_Open):
    """Streaming options: ``include_usage`` adds a last chunk with the token counts."""

    include_usage: bool = False


class ChatCompletionIn(_Open):
    """An OpenAI chat completion request (``model`` is accepted but the configured model answers)."""

    model: str = Field(max_length=200, examples=["reverie"], description="Required, as in OpenAI's API")
    messages: list[ChatMessageIn] = Field(min_length=1, max_length=2000)
    stream: bool = False
    stream_options: StreamOptionsIn | None = None
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    n: int = Field(default=1, ge=1, le=1, description="Only one choice is supported")
    tools: list[dict[str, Any]] | None = Field(
        default=None, description="Your own functions; without them Reverie offers its memory functions"
    )
    tool_choice: str | dict[str, Any] | None = Field(
        default=None,
        description='"none" offers no tools at all (every reply then streams word by word; with the'
        " memory functions, only the answer after a round of calls does)",
    )


class TextIn(_Open):
    """Lo-Bug's ``/chat/text`` request: what the user said."""

    text: str = Field(min_length=1, examples=["Do you remember my name?"])


class TextOut(BaseModel):
    """The assistant's answer to ``/chat/text``."""

    text: str = Field(examples=["Yes, you're Alex."])
    conversation_id: int | None = Field(description="Where the exchange was recorded; null for a guest")
    message_id: int | None = Field(description="The recorded reply; null for a guest")
    guest: bool
    speaker: str | None = Field(
        default=None,
        description='After "This is NAME" on a shared voice interface: the user it now speaks for'
        " (that turn is not recorded and no model is asked)",
    )


class ModelOut(BaseModel):
    """A model clients may name."""

    id: str = Field(examples=["qwen2.5:7b"])
    object: Literal["model"] = "model"
    created: int = 0
    owned_by: str = Field(examples=["ollama"])


class ModelListOut(BaseModel):
    """OpenAI's model list: the configured upstream model (empty when none is configured)."""

    object: Literal["list"] = "list"
    data: list[ModelOut]


# helpers ---------------------------------------------------------------------------------
def _text(message: ChatMessageIn, index: int) -> str:
    if message.content is None or isinstance(message.content, str):
        return message.content or ""
    texts = []
    for part in message.content:
        if part.type not in ("text", "input_text") or part.text is None:
            raise InvalidInput(f"Message {index} has a {part.type!r} part; only text content is supported")
        texts.append(part.text)
    return "\n".join(texts)


def chat_messages(messages: list[ChatMessageIn]) -> list[ChatMessage]:
    """The request's messages as chat messages (``developer`` is a system message)."""
    converted = []
    for index, message in enumerate(messages):
        role = "system" if message.role == "developer" else message.role
        calls = [ToolCall(c.id, c.function.name, c.function.arguments) for c in message.tool_calls or []]
        converted.append(
            ChatMessage(
                role,
                _text(message, index),
                tool_calls=calls,
                tool_call_id=message.tool_call_id,
                name=message.name if role == "tool" else None,
            )
        )
    return converted


def _interface(memory: Memory) -> str:
    return memory.interface or "chat"


def _headers(conversation_id: int | None, exchange: Exchange, started: float) -> dict[str, str]:
    """The conversation id (not for guests) and what Reverie cost (``Server-Timing``, ms)."""
    total = (time.perf_counter() - started) * 1000.0
    headers = {TIMING_HEADER: exchange.timing.header(total)}
    if conversation_id is not None:
        headers[CONVERSATION_HEADER] = str(conversation_id)
    return headers


async def _switched(memory: Memory, text: str) -> Memory | None:
    """:meth:`Memory.switch_speaker` on a memory thread; only an interface's turn can switch, so
    a user's own token costs no thread hop."""
    return await run_memory(memory.switch_speaker, text) if memory.interface is not None else None


def _tool_calls_out(calls: list[ToolCall]) -> list[dict[str, Any]]:
    return [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in calls
    ]


def _usage(exchange: Exchange, answer: Answer) -> dict[str, int]:
    """Approximate token counts (Reverie's own estimate; the upstream's counts are not passed on)."""
    prompt, completion = exchange.prompt_tokens, count_tokens(answer.content)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _completion(exchange: Exchange, answer: Answer, completion_id: str, created: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.content}
    if answer.tool_calls:
        message["content"] = answer.content or None
        message["tool_calls"] = _tool_calls_out(answer.tool_calls)
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": created,
        "model": answer.model,
        "choices": [{"index": 0, "message": message, "finish_reason": answer.finish_reason}],
        "usage": _usage(exchange, answer),
    }


def _event(payload: Any) -> str:
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"


def _sse(
    exchange: Exchange,
    pieces: Iterator[str],
    first: str | None,
    *,
    completion_id: str,
    created: int,
    model: str,
    include_usage: bool,
) -> Iterator[str]:
    """The reply as ``chat.completion.chunk`` events, then ``data: [DONE]``.

    A failure after the first event is sent as an ``{"error": ...}`` event (the status is 200 by then).
    """

    def chunk(delta: dict[str, Any], finish: str | None = None, name: str = model) -> dict[str, Any]:
        return {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": name,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    yield _event(chunk({"role": "assistant", "content": ""}))
    try:
        if first:
            yield _event(chunk({"content": first}))
        for piece in pieces:
            yield _event(chunk({"content": piece}))
    except ReverieError as exc:
        code = code_for(exc)
        yield _event({"error": {"message": str(exc), "type": code, "code": code}})
        return
    answer = exchange.answer
    if answer.tool_calls:
        calls = [{"index": i, **call} for i, call in enumerate(_tool_calls_out(answer.tool_calls))]
        yield _event(chunk({"tool_calls": calls}, name=answer.model))
    yield _event(chunk({}, answer.finish_reason, name=answer.model))
    if include_usage:
        usage = _usage(exchange, answer)
        yield _event({**chunk({}, name=answer.model), "choices": [], "usage": usage})
    yield "data: [DONE]\n\n"


# routes ----------------------------------------------------------------------------------
@chat_router.post("/v1/chat/completions", response_model=None)
async def chat_completions(
    memory: MemoryDep,
    model: UpstreamDep,
    body: ChatCompletionIn,
    conversation_id: ConversationHeader = None,
    private: PrivateHeader = False,
) -> Response:
    """OpenAI-compatible chat with memory: the user's memory joins the system prompt, the reply is kept.

    ``stream: true`` answers with server-sent events. Without ``tools`` the model may call the
    memory functions, which Reverie runs; with your own ``tools`` their calls come back to you.
    ``Server-Timing`` says what the answer cost in ms: context, record, model and total (when
    streaming: up to the first piece of the reply).
    """
    started = time.perf_counter()
    messages = chat_messages(body.messages)
    completion_id = f"chatcmpl-{uuid.uuid4().hex}"
    created = int(memory.clock())
    last = messages[-1]
    switched = await _switched(memory, last.content) if last.role == "user" else None
    if switched is not None and switched.user is not None:
        return _spoken_greeting(greeting(switched.user), body, completion_id, created, model)
    exchange = await run_memory(_begin_completion, memory, model, messages, body, conversation_id, private)
    if not body.stream:
        answer = await run_upstream(exchange.complete)
        return JSONResponse(
            _completion(exchange, answer, completion_id, created),
            headers=_headers(answer.conversation_id, exchange, started),
        )
    pieces = exchange.stream()
    # The first piece is awaited here, so that an upstream failure still gets its HTTP status.
    first = await run_upstream(next, pieces, None)
    events = _sse(
        exchange,
        pieces,
        first,
        completion_id=completion_id,
        created=created,
        model=model.model_id.split(":", 1)[-1],
        include_usage=bool(body.stream_options and body.stream_options.include_usage),
    )
    headers = {"Cache-Control": "no-cache", **_headers(exchange.conversation_id, exchange, started)}
    if exchange.done:  # the reply came whole: every event is known, sent at once without a hop per event
        return Response("".join(events), media_type="text/event-stream", headers=headers)
    return StreamingResponse(iterate_upstream(events), media_type="text/event-stream", headers=headers)


def _begin_completion(
    memory: Memory,
    model: ChatModel,
    messages: list[ChatMessage],
    body: ChatCompletionIn,
    conversation_id: int | None,
    private: bool,
) -> Exchange:
    """The memory half of a completion (on a memory thread): conversation, recorded turn, prompt."""
    conversation = resolve_conversation(
        memory, conversation_id, interface=_interface(memory), private=private
    )
    return start_exchange(
        memory,
        model,
        messages,
        conversation=conversation,
        tools=body.tools,
        memory_tools=body.tool_choice != "none",
        temperature=body.temperature,
        max_tokens=body.max_completion_tokens or body.max_tokens,
    )


def _spoken_greeting(
    text: str, body: ChatCompletionIn, completion_id: str, created: int, model: ChatModel
) -> Response:
    """The answer to "This is Alice" in OpenAI's shape (nothing recorded, no model asked)."""
    name = model.model_id.split(":", 1)[-1]
    message = {"role": "assistant", "content": text}
    if not body.stream:
        return JSONResponse(
            {
                "id": completion_id,
                "object": "chat.completion",
                "created": created,
                "model": name,
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            }
        )

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return _event(
            {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": name,
                "choices": [choice],
            }
        )

    events = [chunk(message), chunk({}, "stop"), "data: [DONE]\n\n"]
    return Response("".join(events), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


@chat_router.get("/v1/models", response_model=ModelListOut, dependencies=[Depends(current_memory)])
def list_models(root: RootMemory) -> ModelListOut:
    """The model that answers chat completions (the one configured under [llm])."""
    llm = root.settings.llm
    if llm.provider == "none" or not llm.model:
        return ModelListOut(data=[])
    return ModelListOut(data=[ModelOut(id=llm.model, owned_by=llm.provider)])


@chat_router.post("/chat/text", response_model=TextOut)
async def chat_text(
    memory: MemoryDep,
    model: UpstreamDep,
    body: TextIn,
    conversation_id: ConversationHeader = None,
    private: PrivateHeader = False,
) -> JSONResponse:
    """Lo-Bug's text chat: ``{"text"}`` in, the reply out; the conversation's last turns are the history.

    ``Server-Timing`` says what the answer cost in ms: context, record, model and total.
    """
    switched = await _switched(memory, body.text)
    if switched is not None and switched.user is not None:
        return JSONResponse(_greeting_out(switched.user).model_dump())
    started = time.perf_counter()
    exchange = await run_memory(_begin_text, memory, model, body.text, conversation_id, private)
    answer = await run_upstream(exchange.complete)
    out = TextOut(
        text=answer.content,
        conversation_id=answer.conversation_id,
        message_id=answer.message_id,
        guest=memory.is_guest,
    )
    return JSONResponse(out.model_dump(), headers=_headers(None, exchange, started))


class AudioOut(TextOut):
    """The assistant's answer to ``/chat/audio``, with what the speech model heard."""

    transcript: str = Field(examples=["Do you remember my name?"])


@chat_router.post(
    "/chat/audio",
    response_model=AudioOut,
    responses={503: {"model": ErrorOut, "description": "No [transcription] model (or no [llm]) is set"}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {media: {"schema": {"type": "string", "format": "binary"}} for media in AUDIO_TYPES},
        }
    },
)
async def chat_audio(
    request: Request,
    memory: MemoryDep,
    model: UpstreamDep,
    conversation_id: ConversationHeader = None,
    private: PrivateHeader = False,
) -> JSONResponse:
    """Lo-Bug's spoken chat: the audio is the body (its Content-Type says the format, at most 1 MB).

    The ``[transcription]`` model turns it into text, which goes on as a ``/chat/text`` turn;
    the answer carries the transcript too. ``Server-Timing`` adds ``transcribe`` (ms) to
    what the turn cost.
    """
    transcriber = transcriber_from_settings(memory.settings.transcription)
    audio = await request.body()
    heard = time.perf_counter()
    text = await run_upstream(transcriber.transcribe, audio, request.headers.get("content-type", ""))
    transcribe_ms = (time.perf_counter() - heard) * 1000.0
    if not text:
        raise InvalidInput("No speech was heard in the audio")
    switched = await _switched(memory, text)
    if switched is not None and switched.user is not None:
        out = AudioOut(**_greeting_out(switched.user).model_dump(), transcript=text)
        return JSONResponse(out.model_dump(), headers={TIMING_HEADER: f"transcribe;dur={transcribe_ms:.1f}"})
    started = time.perf_counter()
    exchange = await run_memory(_begin_text, memory, model, text, conversation_id, private)
    answer = await run_upstream(exchange.complete)
    out = AudioOut(
        text=answer.content,
        conversation_id=answer.conversation_id,
        message_id=answer.message_id,
        guest=memory.is_guest,
        transcript=text,
    )
    headers = _headers(None, exchange, started)
    headers[TIMING_HEADER] += f", transcribe;dur={transcribe_ms:.1f}"
    return JSONResponse(out.model_dump(), headers=headers)


def _greeting_out(user: User) -> TextOut:
    """The answer to "This is Alice" on a shared voice interface (the turn is not recorded)."""
    return TextOut(text=greeting(user), conversation_id=None, message_id=None, guest=False, speaker=user.name)


def _begin_text(
    memory: Memory, model: ChatModel, text: str, conversation_id: int | None, private: bool
) -> Exchange:
    """The memory half of a text chat turn (on a memory thread)."""
    conversation = resolve_conversation(
        memory, conversation_id, interface=_interface(memory), private=private
    )
    history = conversation_history(memory, conversation)
    user = ChatMessage("user", text)
    if not (history and history[-1] == user):  # else a retry of a turn that got no reply
        history.append(user)
    return start_exchange(memory, model, history, conversation=conversation)


__all__ = ["CONVERSATION_HEADER", "TIMING_HEADER", "chat_messages", "chat_router", "upstream_model"]
