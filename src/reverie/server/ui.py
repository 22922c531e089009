"""The memory web UI: one static page and its assets, served by Reverie itself.

Everything the page needs ships in ``server/static`` (no CDN, no web fonts), so it works with
the network cut off. Every answer carries a strict Content-Security-Policy: scripts, styles
and connections only from this server, no inline code, no framing. Assets are revalidated on
every load (``no-cache`` with an ETag), so an upgrade never leaves a stale script behind and an
unchanged file costs a 304.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from reverie.errors import NotFound

STATIC_DIR = Path(__file__).parent / "static"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
}
_cache: dict[Path, tuple[int, bytes, str]] = {}

ui_router = APIRouter(include_in_schema=False)


def security_headers() -> dict[str, str]:
    """The headers every UI answer carries."""
    return {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
        "Cache-Control": "no-cache",
    }


def _shipped() -> dict[str, Path]:
    """The files the UI ships, by their path under /static/ (requests never reach the disk by name)."""
    return {
        path.relative_to(STATIC_DIR).as_posix(): path
        for path in STATIC_DIR.rglob("*")
        if path.is_file() and path.suffix in _TYPES
    }


_ASSETS = _shipped()


def _asset(relative: str) -> Path:
    path = _ASSETS.get(relative)
    if path is None:
        raise NotFound(f"No file /static/{relative}")
    return path


def _read(path: Path) -> tuple[bytes, str]:
    """The file's bytes and ETag, re-read only when the file changed."""
    mtime = path.stat().st_mtime_ns
    cached = _cache.get(path)
    if cached is None or cached[0] != mtime:
        data = path.read_bytes()
        cached = (mtime, data, '"' + hashlib.sha256(data).hexdigest()[:20] + '"')
        _cache[path] = cached
    return cached[1], cached[2]


def _serve(request: Request, path: Path) -> Response:
    data, etag = _read(path)
    headers = {**security_headers(), "ETag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=_TYPES[path.suffix], headers=headers)


@ui_router.get("/")
def index(request: Request) -> Response:
    """The web UI (a single page; signed-out visitors see the sign-in form)."""
    return _serve(request, _asset("index.html"))


@ui_router.get("/static/{relative:path}")
def static(request: Request, relative: str) -> Response:
    """The UI's scripts, styles and icon."""
    return _serve(request, _asset(relative))


__all__ = ["CONTENT_SECURITY_POLICY", "STATIC_DIR", "security_headers", "ui_router"]
