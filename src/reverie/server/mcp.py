"""MCP over streamable HTTP at ``/mcp``, authenticated like every other route.

``POST /mcp`` is an ordinary FastAPI route whose :data:`MemoryDep` dependency decides the
caller from the request's credential, exactly as for the REST API, so a missing or bad
credential gets the same JSON error (401) before MCP sees the request. The route then hands
the request to the SDK's streamable-HTTP session manager with the resolved Memory attached,
and the MCP tools act on that Memory. The transport is stateless (each POST stands alone, no
session to hijack) and answers JSON; the session manager runs inside the app's lifespan.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from mcp.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.types import Receive, Scope, Send

from reverie.errors import ConfigError
from reverie.mcp_server import build_mcp, current_request
from reverie.memory import Memory
from reverie.server.deps import MemoryDep
from reverie.server.schemas import ErrorOut

MCP_PATH = "/mcp"
_MEMORY_KEY = "reverie.mcp.memory"


def _request_memory() -> Memory:
    """The Memory the ``/mcp`` route resolved for the request now being served."""
    request = current_request()
    memory = request.scope.get(_MEMORY_KEY) if request is not None else None
    if not isinstance(memory, Memory):
        raise ConfigError(
            f"An MCP request reached the tools without passing through {MCP_PATH}'s authentication"
        )
    return memory


class _Transport:
    """The MCP server and, while the app runs, the session manager that serves it over HTTP."""

    def __init__(self, server: Server[Any]) -> None:
        self.server = server
        self.manager: StreamableHTTPSessionManager | None = None

    @asynccontextmanager
    async def lifespan(self, app: FastAPI) -> AsyncIterator[None]:
        # A manager runs once; a fresh one per lifespan lets the same app start again (tests do).
        manager = StreamableHTTPSessionManager(self.server, stateless=True, json_response=True)
        async with manager.run():
            self.manager = manager
            try:
                yield
            finally:
                self.manager = None

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.manager is None:
            raise ConfigError(
                "The MCP endpoint is not running: run the app with its lifespan "
                "(uvicorn does; in tests use `with TestClient(app) as client`)"
            )
        await self.manager.handle_request(scope, receive, send)


class _HandOver(Response):
    """A response that lets the MCP transport answer the request itself."""

    def __init__(self, transport: _Transport) -> None:
        super().__init__()
        self._transport = transport

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._transport.handle(scope, receive, send)


def mcp_router(tools_family: str = "memory") -> APIRouter:
    """The ``/mcp`` route and the lifespan of its session manager (include it in the app).

    ``tools_family`` is ``[server] mcp_tools``: which tool family MCP lists.
    """
    transport = _Transport(build_mcp(_request_memory, tools_family))
    router = APIRouter(tags=["mcp"], lifespan=transport.lifespan)

    @router.post(
        MCP_PATH,
        response_class=Response,
        summary="Model Context Protocol endpoint",
        response_description="The JSON-RPC answer",
        responses={401: {"model": ErrorOut, "description": "No valid credential"}},
    )
    async def mcp(request: Request, memory: MemoryDep) -> Response:
        """MCP over streamable HTTP (stateless, JSON answers) for assistants and agents.

        Authenticate with `Authorization: Bearer <token>`; the tools (`memory_search`,
        `memory_recent`, `memory_remember`, `memory_forget`, `documents_search`) and the
        `memory://context` resource act on that token's user. The body is a JSON-RPC message.
        """
        request.scope[_MEMORY_KEY] = memory
        return _HandOver(transport)

    return router


__all__ = ["MCP_PATH", "mcp_router"]
