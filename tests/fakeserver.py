"""A fake model server for tests: real HTTP on 127.0.0.1 speaking the Ollama, OpenAI and Anthropic formats.

Replies are deterministic. Embeddings hash each normalised word of a text into one of
``dimensions`` buckets and are L2-normalised, so texts sharing words are similar (``synonyms``
maps words onto others before hashing, to fake "same meaning, other words"). Chat replies come
from a script (:meth:`FakeModelServer.script_chat`) or ``default_reply``. Speech
(``/v1/audio/transcriptions``, a multipart upload) is "heard" as the file's bytes read as UTF-8.

Faults can be switched on at any time, for every path or one path: ``server.mode = "down"``,
``server.set_mode("error", status=429, path="/api/embed")``, or for the next n requests only:
``server.fail_times(2, "error")``. Globally "down" closes the listening socket (connection
refused); per path or in ``fail_times`` it resets the connection, so those requests are counted.
Every request that arrives is recorded in ``server.requests``.
"""

from __future__ import annotations

import email.parser
import email.policy
import hashlib
import json
import math
import re
import socket
import struct
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import pytest

Mode = Literal["ok", "down", "slow", "malformed", "wrong_shape", "error"]
Body = dict[str, Any]
CHAT_PATHS = ("/api/chat", "/v1/chat/completions", "/v1/messages")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Fault:
    """How to answer: ``mode``, with the HTTP ``status`` for "error", the ``delay`` (s) for "slow"
    and, for "wrong_shape", the JSON ``body`` to send instead of ``{"unexpected": true}``."""

    mode: Mode = "ok"
    status: int = 500
    delay: float = 1.0
    body: Any = None


@dataclass(frozen=True)
class Recorded:
    """One request the server received (header names lower-cased, body decoded if JSON)."""

    method: str
    path: str
    body: Any
    headers: dict[str, str]


@dataclass(frozen=True)
class Reply:
    """A chat reply: text and/or tool calls given as (name, arguments)."""

    content: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


ScriptItem = str | dict[str, Any] | Reply | Fault


def _form_fields(content_type: str, raw: bytes) -> dict[str, Any]:
    """A multipart form's fields: text for plain fields, bytes for files."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw
    )
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True) or b""
        fields[str(name)] = data if part.get_filename() else data.decode("utf-8", "replace")
    return fields


def _as_reply(item: str | dict[str, Any] | Reply) -> Reply:
    """Text; {"tool_calls": [{"name", "arguments"}], "content"?}; or any other dict, sent as JSON text."""
    if isinstance(item, Reply):
        return item
    if isinstance(item, str):
        return Reply(item)
    if "tool_calls" in item:
        calls = [(c["name"], dict(c.get("arguments", {}))) for c in item["tool_calls"]]
        return Reply(str(item.get("content", "")), calls)
    return Reply(json.dumps(item))


def _texts(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value or []]


def _with_calls(calls: list[Body]) -> Body:
    return {"tool_calls": calls} if calls else {}


def _pieces(text: str) -> list[str]:
    """Stream chunks: words with their trailing spaces, so joining them gives the text back."""
    return re.findall(r"\S+\s*|\s+", text)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeModelServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # clients that gave up are expected
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else headers and body in two writes wait for a delayed ACK

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self.server.fake._handle(self, "GET")

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        self.server.fake._handle(self, "POST")

    def send_json(self, status: int, payload: Any) -> None:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def send_stream(self, content_type: str, chunks: Iterable[bytes]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for chunk in chunks:
            self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")

    def reset(self) -> None:
        """Drop the connection with a TCP reset and no reply."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()


class FakeModelServer:
    """A deterministic Ollama / OpenAI / Anthropic server on 127.0.0.1 with fault injection."""

    def __init__(self, dimensions: int = 8, *, default_reply: str = "OK", port: int = 0) -> None:
        self.dimensions = dimensions
        self.model_dimensions: dict[str, int] = {}
        self.synonyms: dict[str, str] = {}
        self.default_reply = default_reply
        self.default_json_reply = "{}"
        self.models = ["fake-embed", "fake-chat"]
        self.requests: list[Recorded] = []
        self.host, self.port = "127.0.0.1", port
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._modes: dict[str | None, Fault] = {None: Fault()}
        self._failures: deque[tuple[str | None, Fault]] = deque()
        self._script: deque[ScriptItem] = deque()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # life cycle ---------------------------------------------------------------------
    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:54321``."""
        return f"http://{self.host}:{self.port}"

    def start(self) -> FakeModelServer:
        """Start listening (on a free port the first time, then on the same one)."""
        self._stopping.clear()
        self._listen()
        return self

    def stop(self) -> None:
        """Stop listening and wake any request still sleeping in "slow" mode."""
        self._stopping.set()
        self._unlisten()

    def __enter__(self) -> FakeModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _listen(self) -> None:
        if self._httpd is not None:
            return
        httpd = _HTTPServer((self.host, self.port), _Handler)
        httpd.fake = self
        self.port = httpd.server_address[1]
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
        self._thread.start()

    def _unlisten(self) -> None:
        httpd, thread, self._httpd, self._thread = self._httpd, self._thread, None, None
        if httpd is not None and thread is not None:
            httpd.shutdown()
            httpd.server_close()
            thread.join()

    # configuration ------------------------------------------------------------------
    @property
    def mode(self) -> Mode:
        """The global mode (set it for the defaults: HTTP 500, 1 s delay; else use :meth:`set_mode`)."""
        return self._modes[None].mode

    @mode.setter
    def mode(self, mode: Mode) -> None:
        self.set_mode(mode)

    def set_mode(self, mode: Mode, *, path: str | None = None, **options: Any) -> None:
        """Answer every request (or those to ``path``) this way until told otherwise.

        ``options`` are the other fields of :class:`Fault`: ``status``, ``delay``, ``body``.
        """
        with self._lock:
            self._modes[path] = Fault(mode, **options)
        if path is None and self._httpd is not None and mode == "down":
            self._unlisten()
        elif path is None and self._httpd is None and mode != "down" and not self._stopping.is_set():
            self._listen()

    def fail_times(self, n: int, mode: Mode = "error", *, path: str | None = None, **options: Any) -> None:
        """Answer the next ``n`` requests (to ``path``, if given) with a fault, then recover."""
        with self._lock:
            self._failures.extend((path, Fault(mode, **options)) for _ in range(n))

    def script_chat(self, replies: Sequence[ScriptItem]) -> None:
        """Queue chat replies: text, {"tool_calls": [...]} , a dict sent as JSON text, or a Fault."""
        with self._lock:
            self._script.extend(replies)

    def reset(self) -> None:
        """Back to "ok" everywhere, with no pending failures, script or recorded requests."""
        with self._lock:
            self._failures.clear()
            self._script.clear()
            self.requests.clear()
        for path in [p for p in self._modes if p is not None]:
            del self._modes[path]
        self.mode = "ok"

    def requests_to(self, path: str) -> list[Recorded]:
        """The recorded requests to one path."""
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def embed(self, text: str, dimensions: int | None = None) -> list[float]:
        """The vector this server gives ``text``: word buckets, L2-normalised."""
        vector = [0.0] * (dimensions or self.dimensions)
        for word in _WORD.findall(text.lower()):
            word = self.synonyms.get(word, word)
            vector[int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % len(vector)] += 1.0
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0:
            vector[0] = norm = 1.0
        return [x / norm for x in vector]

    # request handling ---------------------------------------------------------------
    def _fault(self, path: str) -> Fault:
        with self._lock:
            for i, (only, fault) in enumerate(self._failures):
                if only is None or only == path:
                    del self._failures[i]
                    return fault
            fault = self._modes.get(path) or self._modes[None]
            head = self._script[0] if self._script else None
            if fault.mode == "ok" and path in CHAT_PATHS and isinstance(head, Fault):
                self._script.popleft()
                return head
            return fault

    def _next_reply(self, body: Body) -> Reply:
        with self._lock:
            while self._script:
                item = self._script.popleft()
                if not isinstance(item, Fault):  # a scripted fault left over by a fault mode: skip it
                    return _as_reply(item)
        wants_json = body.get("format") or body.get("response_format")
        return Reply(self.default_json_reply if wants_json else self.default_reply)

    def _handle(self, handler: _Handler, method: str) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        content_type = handler.headers.get("Content-Type") or ""
        try:
            body: Any = _form_fields(content_type, raw) if content_type.startswith("multipart/") else None
            body = body if body is not None else json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        path = handler.path.split("?", 1)[0]
        headers = {k.lower(): v for k, v in handler.headers.items()}
        with self._lock:
            self.requests.append(Recorded(method, path, body, headers))
        route = _ROUTES.get((method, path))
        if route is None:
            handler.send_json(404, {"error": f"the fake server has no route {method} {path}"})
            return
        fault = self._fault(path)
        if fault.mode == "down":
            handler.reset()
            return
        if fault.mode == "slow" and self._stopping.wait(fault.delay):
            handler.reset()
            return
        if fault.mode == "error":
            handler.send_json(fault.status, {"error": {"message": f"fake error {fault.status}"}})
        elif fault.mode == "malformed":
            handler.send_json(200, b"<html>this is not JSON</html>")
        elif fault.mode == "wrong_shape":
            handler.send_json(200, {"unexpected": True} if fault.body is None else fault.body)
        else:
            route(self, handler, body if isinstance(body, dict) else {})

    # protocols ----------------------------------------------------------------------
    def _vectors(self, body: Body) -> list[list[float]]:
        model = str(body.get("model", ""))
        dims = body.get("dimensions") or self.model_dimensions.get(model) or self.dimensions
        return [self.embed(text, int(dims)) for text in _texts(body.get("input"))]

    def _ollama_embed(self, handler: _Handler, body: Body) -> None:
        handler.send_json(200, {"model": body.get("model", ""), "embeddings": self._vectors(body)})

    def _ollama_chat(self, handler: _Handler, body: Body) -> None:
        reply, model = self._next_reply(body), body.get("model", "")
        calls = [{"function": {"name": name, "arguments": args}} for name, args in reply.tool_calls]
        message: Body = {"role": "assistant", "content": reply.content, **_with_calls(calls)}
        done = {"model": model, "created_at": "2026-01-15T18:00:00Z", "done": True, "done_reason": "stop"}
        if body.get("stream", True) is False:
            handler.send_json(200, {**done, "message": message})
            return
        parts = [{"role": "assistant", "content": p} for p in _pieces(reply.content)]
        lines = [{"model": model, "message": m, "done": False} for m in parts + [{**message, "content": ""}]]
        lines[-1] = {**done, "message": lines[-1]["message"]}  # tool calls, if any, come last
        handler.send_stream("application/x-ndjson", [json.dumps(line).encode() + b"\n" for line in lines])

    def _openai_embeddings(self, handler: _Handler, body: Body) -> None:
        vectors, model = self._vectors(body), body.get("model", "")
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        usage = {"prompt_tokens": len(data), "total_tokens": len(data)}
        handler.send_json(200, {"object": "list", "data": data, "model": model, "usage": usage})

    def _openai_chat(self, handler: _Handler, body: Body) -> None:
        reply = self._next_reply(body)
        calls = [
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in enumerate(reply.tool_calls)
        ]
        finish = "tool_calls" if calls else "stop"
        base = {"id": "chatcmpl-fake", "created": 0, "model": body.get("model", "")}
        if not body.get("stream"):
            message = {"role": "assistant", "content": reply.content or None, **_with_calls(calls)}
            choice = {"index": 0, "message": message, "finish_reason": finish}
            usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
            handler.send_json(200, {**base, "object": "chat.completion", "choices": [choice], "usage": usage})
            return
        deltas: list[Body] = [{"role": "assistant", "content": ""}]
        deltas += [{"content": piece} for piece in _pieces(reply.content)]
        deltas += [{"tool_calls": [{"index": i, **call}]} for i, call in enumerate(calls)]
        chunk = {**base, "object": "chat.completion.chunk"}
        ends: list[tuple[Body, str | None]] = [(d, None) for d in deltas] + [({}, finish)]
        events = [
            json.dumps({**chunk, "choices": [{"index": 0, "delta": d, "finish_reason": f}]}) for d, f in ends
        ]
        handler.send_stream("text/event-stream", [f"data: {e}\n\n".encode() for e in [*events, "[DONE]"]])

    def _anthropic_messages(self, handler: _Handler, body: Body) -> None:
        reply = self._next_reply(body)
        content: list[Body] = [{"type": "text", "text": reply.content}] if reply.content else []
        content += [
            {"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": args}
            for i, (name, args) in enumerate(reply.tool_calls)
        ]
        stop = "tool_use" if reply.tool_calls else "end_turn"
        usage = {"input_tokens": 1, "output_tokens": 1}
        message = {"id": "msg_fake", "type": "message", "role": "assistant", "model": body.get("model", "")}
        handler.send_json(200, {**message, "content": content, "stop_reason": stop, "usage": usage})

    def _openai_transcription(self, handler: _Handler, body: Body) -> None:
        # The fake "hears" the uploaded file's bytes as UTF-8 text: a test speaks by sending words.
        audio = body.get("file", b"")
        text = audio.decode("utf-8", "replace") if isinstance(audio, bytes) else ""
        handler.send_json(200, {"text": text})

    def _ollama_tags(self, handler: _Handler, body: Body) -> None:
        handler.send_json(200, {"models": [{"name": m, "model": m, "size": 0} for m in self.models]})

    def _openai_models(self, handler: _Handler, body: Body) -> None:
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
        handler.send_json(200, {"object": "list", "data": data})


_ROUTES = {
    ("POST", "/api/embed"): FakeModelServer._ollama_embed,
    ("POST", "/api/chat"): FakeModelServer._ollama_chat,
    ("GET", "/api/tags"): FakeModelServer._ollama_tags,
    ("POST", "/v1/embeddings"): FakeModelServer._openai_embeddings,
    ("POST", "/v1/chat/completions"): FakeModelServer._openai_chat,
    ("GET", "/v1/models"): FakeModelServer._openai_models,
    ("POST", "/v1/messages"): FakeModelServer._anthropic_messages,
    ("POST", "/v1/audio/transcriptions"): FakeModelServer._openai_transcription,
}


@pytest.fixture
def fake_server() -> Iterator[FakeModelServer]:
    """A running fake model server, stopped after the test."""
    with FakeModelServer() as server:
        yield server


def embedding_environ(fake: FakeModelServer, **extra: str) -> dict[str, str]:
    """Settings' environment for the fake server as the Ollama embedder, in UTC (plus ``extra``)."""
    return {
        "REVERIE_EMBEDDINGS__PROVIDER": "ollama",
        "REVERIE_EMBEDDINGS__ENDPOINT": fake.url,
        "REVERIE_EMBEDDINGS__MODEL": "fake-embed",
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        **extra,
    }


def chat_settings_for(settings: Any, fake: FakeModelServer) -> Any:
    """Point ``[llm]`` at the fake server (OpenAI-compatible, quick failures); embeddings, the
    consolidation worker and the start-up document scan off; interface ``kitchen`` is bob."""
    settings.llm.provider = "openai_compatible"
    settings.llm.endpoint = f"{fake.url}/v1"
    settings.llm.model = "fake-chat"
    settings.llm.timeout_seconds = 5.0
    settings.llm.max_attempts = 1
    settings.llm.retry_backoff_seconds = 0.01
    settings.embeddings.enabled = False
    settings.server.consolidate_every_seconds = 0
    settings.rag.reindex_on_startup = False
    settings.memory.voice_mapping = {"kitchen": "bob"}
    settings.transcription.provider = "openai_compatible"
    settings.transcription.endpoint = f"{fake.url}/v1"
    settings.transcription.timeout_seconds = 5.0
    return settings


__all__ = [
    "CHAT_PATHS",
    "Fault",
    "FakeModelServer",
    "Recorded",
    "Reply",
    "chat_settings_for",
    "fake_server",
]
