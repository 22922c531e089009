"""HTTP to model servers: one connection pool, retries with backoff, errors that say what to do.

Embedding and chat providers all go through :func:`post_json`.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Mapping
from typing import Any

import httpx

from reverie.errors import ProviderError, ProviderUnavailable

DEFAULT_ATTEMPTS = 3
RETRY_STATUSES = {408, 425, 429, 500, 502, 503, 504}


def post_json(
    url: str,
    payload: Mapping[str, Any],
    *,
    what: str,
    hint: str,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    attempts: int = DEFAULT_ATTEMPTS,
    backoff: float = 0.5,
    files: Mapping[str, tuple[str, bytes, str]] | None = None,
) -> Any:
    """POST JSON and return the decoded reply, retrying transient failures with exponential backoff.

    ``what`` names the service in messages ("Ollama at http://..."), ``hint`` says what to do.
    Unreachable or timing out after every attempt: ProviderUnavailable. An error status or a
    reply that is not JSON: ProviderError. With ``files`` (field: (name, bytes, media type))
    the request is a multipart form instead, ``payload`` its other fields.
    """
    last: Exception | None = None
    for attempt in range(attempts):
        if attempt:
            time.sleep(backoff * 2 ** (attempt - 1))
        try:
            if files is None:
                response = shared_client().post(
                    url, json=dict(payload), headers=dict(headers or {}), timeout=timeout
                )
            else:
                response = shared_client().post(
                    url, data=dict(payload), files=dict(files), headers=dict(headers or {}), timeout=timeout
                )
        except httpx.TimeoutException as exc:
            last = ProviderUnavailable(f"{what} did not answer within {timeout:g} s; {hint}")
            last.__cause__ = exc
            continue
        except httpx.TransportError as exc:
            last = ProviderUnavailable(f"Cannot reach {what} ({exc.__class__.__name__}); {hint}")
            last.__cause__ = exc
            continue
        if response.status_code in RETRY_STATUSES:
            last = ProviderUnavailable(f"{what} answered HTTP {response.status_code}; {hint}")
            continue
        return _json_of(response, what)
    assert last is not None
    raise last


def _json_of(response: httpx.Response, what: str) -> Any:
    """The decoded reply; ProviderError for an error status or a reply that is not JSON."""
    if response.status_code >= 400:
        raise ProviderError(f"{what} answered HTTP {response.status_code}: {excerpt(response.text)}")
    try:
        return response.json()
    except ValueError as exc:
        said = excerpt(response.text)
        raise ProviderError(f"{what} answered with something that is not JSON: {said}") from exc


def get_json(
    url: str,
    *,
    what: str,
    hint: str,
    headers: Mapping[str, str] | None = None,
    timeout: float = 5.0,
) -> Any:
    """GET JSON once (a listing, not worth retrying); the same errors as :func:`post_json`."""
    try:
        response = shared_client().get(url, headers=dict(headers or {}), timeout=timeout)
    except httpx.TimeoutException as exc:
        raise ProviderUnavailable(f"{what} did not answer within {timeout:g} s; {hint}") from exc
    except httpx.TransportError as exc:
        raise ProviderUnavailable(f"Cannot reach {what} ({exc.__class__.__name__}); {hint}") from exc
    return _json_of(response, what)


_shared: httpx.Client | None = None
_shared_lock = threading.Lock()


def shared_client() -> httpx.Client:
    """One connection pool for the process (a new client per call costs ~0.1 s of TLS setup)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = httpx.Client()
            atexit.register(_shared.close)
        return _shared


def excerpt(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


__all__ = ["DEFAULT_ATTEMPTS", "RETRY_STATUSES", "excerpt", "get_json", "post_json", "shared_client"]
