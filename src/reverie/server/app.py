"""The FastAPI application: one :class:`Memory` per process, routers per area, uvicorn runner.

Areas are separate routers so that authentication, chat and the web UI join as their own
modules: ``api_router`` (REST under ``/api/v1``) today, ``chat`` and ``ui`` later.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import uvicorn
from fastapi import APIRouter, FastAPI

import reverie
from reverie.config import Settings
from reverie.docs.watcher import DocumentWatcher
from reverie.memory import Memory
from reverie.server.api import api_router
from reverie.server.conversations import conversations_router
from reverie.server.deps import RootMemory
from reverie.server.documents import documents_router
from reverie.server.errors import install_error_handlers
from reverie.server.limits import MAX_BODY_BYTES, BodyLimitMiddleware
from reverie.server.schemas import HealthOut

meta_router = APIRouter(tags=["meta"])


@meta_router.get("/health", response_model=HealthOut)
def health(root: RootMemory) -> HealthOut:
    """The server is up: Reverie's version and the database schema version."""
    return HealthOut(version=reverie.__version__, schema_version=root.store.schema_version())


def create_app(settings: Settings, *, clock: Callable[[], float] | None = None) -> FastAPI:
    """Build the HTTP app; it opens the memory store at startup and closes it at shutdown.

    ``clock`` replaces ``time.time`` for every memory the app touches (tests use it).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        memory = Memory(settings, clock=clock)
        app.state.memory = memory
        worker = memory.consolidator()
        if settings.server.consolidate_every_seconds > 0:
            worker.start(settings.server.consolidate_every_seconds)
        nightly = memory.maintainer()
        if settings.memory.decay.enabled:
            nightly.start()
        watcher = DocumentWatcher(memory.documents)
        if settings.rag.enabled and settings.rag.reindex_on_startup:
            memory.documents.start_scan()
        if settings.rag.enabled and settings.rag.watch_for_changes:
            watcher.start()
        try:
            yield
        finally:
            watcher.stop()
            memory.documents.close()
            nightly.stop()
            worker.stop()
            del app.state.memory
            memory.close()

    app = FastAPI(
        title="Reverie",
        version=reverie.__version__,
        summary="Local-first long-term memory for personal AI assistants.",
        description=(
            "Remember, search, correct, export and forget what an assistant knows about its users. "
            "Choose the user with the `X-Reverie-User` header (or `?user=`); a voice interface with "
            "`X-Reverie-Interface` (or `?interface=`) acts as its mapped user, or as a guest when unmapped. "
            'Errors are JSON: `{"error": code, "detail": message}`.'
        ),
        lifespan=lifespan,
        docs_url="/docs",
        openapi_url="/openapi.json",
        redoc_url=None,
    )
    app.state.settings = settings
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=MAX_BODY_BYTES)
    app.include_router(meta_router)
    app.include_router(api_router)
    app.include_router(conversations_router)
    app.include_router(documents_router)
    return app


def build_server(settings: Settings, *, log_level: str = "info") -> uvicorn.Server:
    """A uvicorn server for the app, listening on ``settings.server.host``:``settings.server.port``."""
    config = uvicorn.Config(
        create_app(settings),
        host=settings.server.host,
        port=settings.server.port,
        log_level=log_level,
        proxy_headers=False,  # no proxy is assumed in front; do not trust X-Forwarded-For
        lifespan="on",
    )
    return uvicorn.Server(config)


def run_server(settings: Settings) -> None:
    """Serve the HTTP API until stopped (Ctrl-C); this is what ``reverie serve`` runs."""
    build_server(settings).run()


__all__ = ["build_server", "create_app", "meta_router", "run_server"]
