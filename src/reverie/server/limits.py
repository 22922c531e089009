"""Request-body checks that run before any route parses a body."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reverie.config import RagSettings
from reverie.server.errors import error_response

MAX_BODY_BYTES = 1024 * 1024
UPLOAD_PATH = "/api/v1/documents/upload"
IMPORT_PATH = "/api/v1/import"
# Deeper JSON than this is refused before parsing: json.loads recurses and would crash.
MAX_JSON_DEPTH = 64
# Unrolled ("normal* (special normal*)*"): an import's base64 documents are tens of megabytes of one
# string, which the plain alternation crawls through a byte at a time (48 s for 64 MB; this, 1 s).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_JSON_BRACKET = re.compile(rb"[\[\]{}]")
# NUL in text: SQLite keeps it, PostgreSQL refuses it; refused for both, before any route.
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
_NUL_DETAIL = "Text may not contain NUL (\\u0000) characters; remove them"
# A refused upload is read and dropped up to this much, so the client gets to see the 413
# instead of a connection reset; beyond it the connection is simply closed.
_DRAIN_BYTES = 16 * MAX_BODY_BYTES


def _is_json(content_type: str | None) -> bool:
    # FastAPI parses a body without a content type as JSON too.
    if not content_type:
        return True
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


@dataclass(frozen=True)
class RouteLimit:
    """Another body limit for one path, and what its 413 says."""

    max_bytes: int
    detail: str


def route_limits(rag: RagSettings) -> dict[str, RouteLimit]:
    """The paths whose bodies are files: an upload takes rag.max_document_size_mb, an import the quota too.

    An export carries the user's own documents in base64 (4 bytes for 3), beside the rest.
    """
    file_bytes = int(rag.max_document_size_mb * 1024 * 1024)
    quota = int(rag.user_quota_mb * 1024 * 1024)
    import_bytes = MAX_BODY_BYTES + 4 * ((quota + 2) // 3)
    return {
        UPLOAD_PATH: RouteLimit(
            file_bytes,
            f"The file is over the {file_bytes}-byte limit (rag.max_document_size_mb = "
            f"{rag.max_document_size_mb:g} MB); upload a smaller file",
        ),
        IMPORT_PATH: RouteLimit(
            import_bytes,
            f"The export document is over the {import_bytes}-byte limit here (1 MiB, plus "
            f"rag.user_quota_mb = {rag.user_quota_mb:g} MB of documents in base64); "
            "import it with `reverie import FILE`",
        ),
    }


class BodyLimitMiddleware:
    """Refuse bodies over ``max_bytes`` (413) and JSON bodies that are not UTF-8 (400).

    The body is read (at most ``max_bytes`` of it) before the app sees the request and is
    then replayed, so a chunked upload without Content-Length is capped too. ``routes`` gives
    some paths a limit of their own (file uploads), with their own message.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int = MAX_BODY_BYTES,
        routes: Mapping[str, RouteLimit] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.routes = dict(routes or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        route = self.routes.get(scope.get("path", ""))
        limit = route.max_bytes if route is not None else self.max_bytes
        detail = route.detail if route is not None else None
        headers = Headers(scope=scope)
        if "\x00" in scope.get("path", "") or b"%00" in scope.get("query_string", b""):
            await error_response(422, "invalid_input", _NUL_DETAIL)(scope, receive, send)
            return
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await error_response(400, "invalid_input", f"Content-Length {declared!r} is not a number")(
                    scope, receive, send
                )
                return
            if int(declared) > limit:
                await self._too_large(scope, receive, send, limit, detail, more=int(declared) <= _DRAIN_BYTES)
                return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its body
            chunk = message.get("body", b"")
            size += len(chunk)
            more = message.get("more_body", False)
            if size > limit:
                await self._too_large(scope, receive, send, limit, detail, more=more, drained=size)
                return
            chunks.append(chunk)
        body = b"".join(chunks)
        if body and _is_json(headers.get("content-type")):
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as exc:
                await error_response(
                    400,
                    "invalid_input",
                    f"Request body is not valid UTF-8 (bad byte at offset {exc.start}); "
                    "send JSON encoded as UTF-8",
                )(scope, receive, send)
                return
            if b"\x00" in body or (b"\\u0000" in body and _JSON_NUL.search(body)):
                await error_response(422, "invalid_input", _NUL_DETAIL)(scope, receive, send)
                return
            if json_depth(body) > MAX_JSON_DEPTH:
                await error_response(
                    422,
                    "too_deep",
                    f"Request body nests JSON more than {MAX_JSON_DEPTH} levels deep; send flatter JSON",
                )(scope, receive, send)
                return
        await self.app(scope, _replay(body, receive), send)

    async def _too_large(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        limit: int,
        detail: str | None,
        *,
        more: bool,
        drained: int = 0,
    ) -> None:
        while more and drained <= _DRAIN_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                return
            drained += len(message.get("body", b""))
            more = message.get("more_body", False)
        await error_response(
            413,
            "too_large",
            detail or f"Request body is over the {limit}-byte ({limit // 1024} KiB) limit; send less",
            headers={"Connection": "close"},
        )(scope, receive, send)


def json_depth(body: bytes) -> int:
    """How deeply a JSON text nests arrays and objects (brackets inside strings do not count)."""
    if body.count(b"[") + body.count(b"{") <= MAX_JSON_DEPTH:
        return 0  # cannot be too deep: skip the scan
    depth = deepest = 0
    for match in _JSON_BRACKET.finditer(_JSON_STRING.sub(b"", body)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


__all__ = [
    "IMPORT_PATH",
    "MAX_BODY_BYTES",
    "MAX_JSON_DEPTH",
    "UPLOAD_PATH",
    "BodyLimitMiddleware",
    "RouteLimit",
    "json_depth",
    "route_limits",
]
