"""The FastAPI application: one :class:`Memory` per process, routers per area, uvicorn runner.

Areas are separate routers so that authentication, chat and the web UI join as their own
modules: ``api_router`` (REST under ``/api/v1``) today, ``chat`` and ``ui`` later.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import uvicorn
from fastapi import APIRouter, FastAPI, Request

import reverie
from reverie.config import Settings, check_home
from reverie.docs.watcher import DocumentWatcher
from reverie.errors import Forbidden, InvalidInput, NotFound, Unauthenticated
from reverie.memory import Memory
from reverie.server.api import api_router
from reverie.server.apidocs import docs_router
from reverie.server.auth import auth_router
from reverie.server.chat import chat_router
from reverie.server.conversations import conversations_router
from reverie.server.deps import RootMemory, authenticate, is_loopback
from reverie.server.documents import documents_router
from reverie.server.errors import install_error_handlers
from reverie.server.limits import MAX_BODY_BYTES, BodyLimitMiddleware, route_limits
from reverie.server.llmcheck import llm_router
from reverie.server.mcp import mcp_router
from reverie.server.ops import (
    UpstreamProbe,
    check_listen_address,
    check_port_free,
    health_report,
    log_config,
    startup_report,
)
from reverie.server.schemas import HealthOut
from reverie.server.sensors import sensors_router
from reverie.server.sessions import sessions_router
from reverie.server.speakers import speakers_router
from reverie.server.topics import topics_router
from reverie.server.users import users_router
from reverie.server.workers import one_thread_per_request, size_pools
from reverie.server.working import working_router
from reverie.store import open_store

log = logging.getLogger("reverie.server")
meta_router = APIRouter(tags=["meta"])


@meta_router.get("/health", response_model=HealthOut)
def health(request: Request, root: RootMemory) -> HealthOut:
    """Version, schema and overall status; an admin also sees each check (store, embedder, LLM, workers)."""
    workers: dict[str, bool] = {name: check() for name, check in request.app.state.workers.items()}
    report = health_report(root, workers, request.app.state.upstream)
    return HealthOut(
        status=report["status"],
        version=reverie.__version__,
        schema_version=root.store.schema_version(),
        # The checks name the LLM's address and count every user's conversations: admins only.
        checks=report["checks"] if _is_admin(request, root) else {},
    )


def _is_admin(request: Request, root: Memory) -> bool:
    try:
        credential = authenticate(root, request.headers, request.cookies, request.method)
    except (Unauthenticated, Forbidden, InvalidInput):
        return False
    return credential.user.is_admin and credential.interface is None


def create_app(settings: Settings, *, clock: Callable[[], float] | None = None) -> FastAPI:
    """Build the HTTP app; it opens the memory store at startup and closes it at shutdown.

    ``clock`` replaces ``time.time`` for every memory the app touches (tests use it).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        size_pools()  # memory work on as many threads as cores; model waits on their own pool
        one_thread_per_request(settings)
        memory = Memory(settings, clock=clock)
        app.state.memory = memory
        memory.recover_index()  # turns a crash left without vectors are indexed in the background
        for line in startup_report(settings, memory, app.state.upstream):
            log.info("%s", line)
        if not memory.accounts.has_admin():
            log.warning(
                "No admin account yet: open http://%s:%s/setup on this machine, or run "
                "`reverie users add NAME --admin`",
                settings.server.host,
                settings.server.port,
            )
        worker = memory.consolidator()
        if settings.server.consolidate_every_seconds > 0:
            worker.start(settings.server.consolidate_every_seconds)
        nightly = memory.maintainer()
        if settings.memory.decay.enabled:
            nightly.start()
        watcher = DocumentWatcher(memory.documents)
        if settings.rag.enabled and settings.rag.reindex_on_startup:
            try:
                memory.documents.start_scan()
            except NotFound as exc:  # the server runs without documents; a scan asked for later says why
                log.info("No documents indexed: %s", exc)
        if settings.rag.enabled and settings.rag.watch_for_changes:
            watcher.start()
        app.state.workers = {}
        if settings.server.consolidate_every_seconds > 0:
            app.state.workers["consolidation"] = lambda: worker.running
        if settings.memory.decay.enabled:
            app.state.workers["maintenance"] = lambda: nightly.running
        if settings.rag.enabled and settings.rag.watch_for_changes:
            app.state.workers["document_watcher"] = lambda: watcher.running
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
            "Every request acts as the user its credential belongs to: an API token "
            "(`Authorization: Bearer rv_...`, see `reverie tokens create`) or the web session cookie "
            "(writes then need the `X-CSRF-Token` header). A device token speaks for a voice interface: "
            "its mapped user, or a guest when unmapped. "
            'Errors are JSON: `{"error": code, "detail": message}`.'
        ),
        lifespan=lifespan,
        docs_url=None,  # served by apidocs.py, with no CDN
        openapi_url="/openapi.json",
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.upstream = UpstreamProbe(settings)
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=MAX_BODY_BYTES, routes=route_limits(settings.rag))
    app.include_router(meta_router)
    app.include_router(docs_router)
    app.include_router(auth_router)
    app.include_router(users_router)
    app.include_router(speakers_router)
    app.include_router(llm_router)
    app.include_router(api_router)
    app.include_router(conversations_router)
    app.include_router(documents_router)
    app.include_router(topics_router)
    app.include_router(working_router)
    app.include_router(chat_router)
    app.include_router(sensors_router)
    app.include_router(sessions_router)
    app.include_router(mcp_router(settings.server.mcp_tools))
    from reverie.server.ui import ui_router  # the web UI and the routes only it needs
    from reverie.server.ui_api import ui_api_router

    app.include_router(ui_api_router)
    app.include_router(ui_router)
    return app


def build_server(settings: Settings, *, log_level: str | None = None) -> uvicorn.Server:
    """A uvicorn server for the app, listening on ``settings.server.host``:``settings.server.port``.

    ConfigError when the address reaches beyond this machine without TLS or before an admin exists.
    """
    conf = settings.server
    check_home(settings)
    if not is_loopback(conf.host):
        store = open_store(settings)
        try:
            check_listen_address(settings, store.count_admins())
        finally:
            store.close()
    level = log_level or conf.log_level
    config = uvicorn.Config(
        create_app(settings),
        host=conf.host,
        port=conf.port,
        log_level=level,
        log_config=log_config(conf.log_format, level),
        proxy_headers=False,  # no proxy is assumed in front; do not trust X-Forwarded-For
        lifespan="on",
        ssl_certfile=conf.tls_certfile or None,
        ssl_keyfile=conf.tls_keyfile or None,
        timeout_graceful_shutdown=30,
    )
    return uvicorn.Server(config)


def run_server(settings: Settings) -> None:
    """Serve the HTTP API until stopped (Ctrl-C); this is what ``reverie serve`` runs.

    ConfigError, before anything starts, when the data folder is unusable or the port is taken.
    """
    server = build_server(settings)
    check_port_free(settings.server.host, settings.server.port)
    server.run()


__all__ = ["build_server", "create_app", "meta_router", "run_server"]
