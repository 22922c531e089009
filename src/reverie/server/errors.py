"""Translate exceptions into HTTP answers shaped ``{"error": code, "detail": message}``."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from reverie.errors import (
    ConfigError,
    Conflict,
    Forbidden,
    GuardRejected,
    InvalidInput,
    MigrationError,
    NotFound,
    ProviderError,
    ProviderUnavailable,
    RateLimited,
    ReverieError,
    TooLarge,
    Unauthenticated,
)

log = logging.getLogger("reverie.server")

# Looked up along the exception's MRO, so the most specific class wins.
_STATUS: dict[type[ReverieError], int] = {
    GuardRejected: 422,
    TooLarge: 413,
    InvalidInput: 400,
    Unauthenticated: 401,
    Forbidden: 403,
    RateLimited: 429,
    NotFound: 404,
    Conflict: 409,
    ConfigError: 503,  # the server works; this feature waits for a setting to be fixed (never a 500)
    MigrationError: 500,
    ProviderUnavailable: 502,  # Reverie stands between its caller and the model: a bad gateway
    ProviderError: 502,
}
_HTTP_CODES = {
    400: "invalid_input",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
}


def _timed_out(exc: BaseException) -> bool:
    """True when a provider error comes from a timeout (the HTTP client's, kept as its cause)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, httpx.TimeoutException):
            return True
        seen = seen.__cause__
    return False


def code_for(exc: ReverieError) -> str:
    """The machine code of an error answer: the error's own, or provider_timeout (504)."""
    return "provider_timeout" if isinstance(exc, ProviderUnavailable) and _timed_out(exc) else exc.code


def status_for(exc: ReverieError) -> int:
    """The HTTP status a Reverie error maps to (a provider that timed out: 504)."""
    if isinstance(exc, ProviderUnavailable) and _timed_out(exc):
        return 504
    for cls in type(exc).__mro__:
        if cls in _STATUS:
            return _STATUS[cls]
    return 500


def error_response(
    status: int, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    """An error answer in the one shape every route uses."""
    body: dict[str, Any] = {"error": code, "detail": detail, **extra}
    return JSONResponse(body, status_code=status, headers=headers)


_OPENAI_TYPES = {401: "authentication_error", 403: "permission_error", 404: "not_found_error"}


def openai_error(status: int, code: str, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """An error in OpenAI's shape, for the OpenAI-compatible routes under /v1/ (its SDKs read it)."""
    kind = _OPENAI_TYPES.get(status) or (
        "rate_limit_error" if status == 429 else "api_error" if status >= 500 else "invalid_request_error"
    )
    body = {"error": {"message": detail, "type": kind, "code": code, "param": None}}
    return JSONResponse(body, status_code=status, headers=headers)


def _answer(
    request: Request, status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    if request.url.path.startswith("/v1/"):
        return openai_error(status, code, detail, headers)
    return error_response(status, code, detail, headers=headers, **extra)


async def _reverie_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ReverieError)
    status = status_for(exc)
    if status >= 500:
        # A WebSocket handshake refused by a dependency comes here too, and it has no method.
        log.error("%s %s failed: %s", request.scope.get("method", "WEBSOCKET"), request.url.path, exc)
    if isinstance(exc, GuardRejected):
        return _answer(request, status, exc.code, str(exc), reason=exc.reason)
    if isinstance(exc, Unauthenticated):
        return _answer(request, status, exc.code, str(exc), headers={"WWW-Authenticate": "Bearer"})
    if isinstance(exc, RateLimited):
        return _answer(
            request, status, exc.code, str(exc), headers={"Retry-After": str(max(1, round(exc.retry_after)))}
        )
    return _answer(request, status, code_for(exc), str(exc))


def _where(loc: Sequence[int | str]) -> str:
    place, *rest = [str(part) for part in loc] or ["request"]
    name = ".".join(rest)
    if not name:
        return "request body" if place == "body" else place
    return f"body field '{name}'" if place == "body" else f"{place} parameter '{name}'"


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    for error in errors:
        if error.get("type") == "json_invalid":
            problem = (error.get("ctx") or {}).get("error", "JSON decode error")
            position = error["loc"][-1] if len(error["loc"]) > 1 else "?"
            return _answer(
                request,
                400,
                "invalid_input",
                f"Request body is not valid JSON: {problem} (at character {position})",
            )
    detail = "; ".join(f"{_where(error['loc'])}: {error['msg']}" for error in errors)
    return _answer(request, 422, "invalid_input", detail or "The request is not valid")


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "internal_error" if exc.status_code >= 500 else "http_error")
    detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"No route {request.method} {request.url.path}; see /docs for the API"
    return _answer(request, exc.status_code, code, detail, headers=dict(exc.headers or {}))


async def _unexpected_error(request: Request, exc: Exception) -> Response:
    log.exception("%s %s crashed", request.method, request.url.path, exc_info=exc)
    # Starlette re-raises the crash after this answer and the server then ends the connection:
    # say so, so that a keep-alive client opens a new one instead of finding this one dead.
    return _answer(
        request,
        500,
        "internal_error",
        "Internal server error; the server log has the details",
        headers={"Connection": "close"},
    )


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every failure into the shared error body."""
    app.add_exception_handler(ReverieError, _reverie_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected_error)


__all__ = ["code_for", "error_response", "install_error_handlers", "openai_error", "status_for"]
