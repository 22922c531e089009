"""The API docs (Swagger UI at /docs) and the site icon, served with no CDN.

FastAPI's own /docs page loads Swagger UI from a CDN and is blank offline; this one serves the
Swagger UI files that the ``fastapi-offline`` wheel ships, and ``/favicon.ico`` answers with
the web UI's icon.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response

from reverie.errors import NotFound

_SWAGGER_DIR = Path(fastapi_offline.__file__).parent / "static"
_ASSETS = {  # the only files served, by name (requests never reach the disk by a path they chose)
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
}
_ICON = Path(__file__).parent / "static" / "icon.svg"
_CACHE = "public, max-age=86400"

docs_router = APIRouter(include_in_schema=False)


@docs_router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    """Swagger UI for the OpenAPI document, from files served by this server."""
    root = request.scope.get("root_path", "")
    return get_swagger_ui_html(
        openapi_url=f"{root}{request.app.openapi_url}",
        title=f"{request.app.title} API",
        swagger_js_url=f"{root}/docs/assets/swagger-ui-bundle.js",
        swagger_css_url=f"{root}/docs/assets/swagger-ui.css",
        swagger_favicon_url=f"{root}/favicon.ico",
    )


@docs_router.get("/docs/assets/{name}")
def swagger_asset(name: str) -> Response:
    """Swagger UI's script and stylesheet."""
    media_type = _ASSETS.get(name)
    if media_type is None:
        raise NotFound(f"No file /docs/assets/{name}")
    return Response(
        (_SWAGGER_DIR / name).read_bytes(), media_type=media_type, headers={"Cache-Control": _CACHE}
    )


@docs_router.get("/favicon.ico")
def favicon() -> Response:
    """The site icon (browsers ask for it by this name)."""
    return Response(_ICON.read_bytes(), media_type="image/svg+xml", headers={"Cache-Control": _CACHE})


__all__ = ["docs_router"]
