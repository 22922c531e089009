"""Who may do what: every HTTP route, the WebSocket and every MCP tool, for every kind of caller.

One table (:data:`TABLE`) gives, for each door of the app, the answer each caller gets. The
callers are: ``anon`` (no credential), ``user`` (bob's token), ``other`` (carol's token, aimed at
bob's rows), ``admin`` (an admin's own token), ``device`` (a device token of ``kitchen``, mapped
to bob), ``guest`` (a device token of ``hall``, mapped to nobody), ``revoked`` (bob's revoked
token) and ``expired`` (bob's expired session cookie). The list of doors comes from the app
itself, so a route added without a row fails :func:`test_every_door_has_a_row`.

Each request that targets one of bob's rows (a memory, a conversation, a summary, a token...)
gets a fresh one made just before it, so a caller that may delete it never spoils the next
caller's request. Besides the status, every answer to someone who does not act as bob must not
carry bob's words (:data:`SECRET`), and bob's data must be unchanged by their request.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from engines import sql_rows
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from reverie import Memory, Settings, load_settings
from reverie.conversations import Turn
from reverie.server import create_app
from reverie.tools.memory_tool import ALL_FUNCTION_SCHEMAS
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, chat_settings_for

CALLERS = ("anon", "user", "other", "admin", "device", "guest", "revoked", "expired")
AS_BOB = frozenset({"user", "device"})  # callers that act as bob, and may read and change his rows
SECRET = "zanzibar"  # in every row of bob's; no one else's answer may contain it
PASSWORD = "correct horse battery"
BASE = "http://127.0.0.1:8765"  # a loopback Host: /setup answers only there


@dataclass(frozen=True)
class Call:
    """One request: path (filled in), JSON body, query and headers beside the credential's."""

    path: str
    body: Any = None
    query: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes | None = None  # a raw body (audio) instead of JSON


class World:
    """The server and the people in it: bob (with a private-word-laden history), carol, an admin."""

    def __init__(self, app: FastAPI, client: TestClient, clock: Clock, settings: Settings) -> None:
        self.app, self.client, self.clock, self.settings = app, client, clock, settings
        self._count = itertools.count(2)
        root = self.root
        self.bob = root.add_user("bob")
        self.carol = root.add_user("carol")
        self.boss = root.add_user("boss", is_admin=True)
        for user in (self.bob, self.carol, self.boss):
            root.accounts.set_password(user, PASSWORD if user is self.bob else f"{user.name}'s {PASSWORD}")
        self.headers: dict[str, dict[str, str]] = {"anon": {}}
        for caller, user, interface in (
            ("user", self.bob, None),
            ("other", self.carol, None),
            ("admin", self.boss, None),
            ("device", self.boss, "kitchen"),
            ("guest", self.boss, "hall"),
            ("revoked", self.bob, None),
        ):
            row, secret = root.accounts.create_token(user, f"{caller} token", interface=interface)
            self.headers[caller] = {"Authorization": f"Bearer {secret}"}
            if caller == "revoked":
                root.accounts.revoke_token(user, row.id)
        clock.advance(-root.accounts.session_seconds - 60)
        session_id, _ = root.accounts.start_session(self.bob)
        clock.advance(root.accounts.session_seconds + 60)
        self.headers["expired"] = {"Cookie": f"reverie_session={session_id}"}
        bob = self.as_bob
        bob.remember(f"User's {SECRET} kayak is yellow", key="kayak colour")
        bob.prefer("travel", f"window seats to {SECRET}")
        old = bob.start_conversation("api")
        bob.add_messages(old.id, [_turn("user", f"Planning the {SECRET} trip")])
        bob.end_conversation(old.id)
        bob.consolidator().run_pending()
        docs = Path(settings.rag.documents_dir)
        docs.mkdir(parents=True, exist_ok=True)
        (docs / "household.md").write_text("# Boiler\n\nThe boiler service is every October.\n")
        root.documents.scan()
        self.document_id = root.documents.documents()[0].id

    @property
    def root(self) -> Memory:
        """The server's own Memory."""
        memory = self.app.state.memory
        assert isinstance(memory, Memory)
        return memory

    @property
    def as_bob(self) -> Memory:
        """Bob's memory."""
        return self.root.view_of(self.bob.id)

    # bob's rows, made fresh ------------------------------------------------------------------
    def memory_id(self) -> int:
        """A new memory of bob's."""
        return self.as_bob.remember(f"User keeps {next(self._count)} {SECRET} postcards").memory.id

    def conversation_id(self) -> int:
        """A new open conversation of bob's with one turn."""
        row = self.as_bob.start_conversation("api")
        self.as_bob.add_messages(row.id, [_turn("user", f"The {SECRET} plan is secret")])
        return row.id

    def summary_id(self) -> int:
        """A new summary of bob's."""
        return self.as_bob.add_summary(f"Talked about {SECRET}", conversation_id=None).id

    def token_id(self) -> int:
        """A new spare token of bob's."""
        return self.root.accounts.create_token(self.bob, "spare")[0].id

    def topic_slug(self) -> str:
        """A topic of bob's (a Markdown file, synced)."""
        book = self.as_bob.topics
        book.folder.mkdir(parents=True, exist_ok=True)
        (book.folder / "travel.md").write_text(f"# Travel\n\n- [2026-01-15] {SECRET} in June\n")
        book.sync()
        return "travel"

    def thread_name(self) -> str:
        """A new thread (memories of a person not known yet) with one memory."""
        thread = self.root.start_thread("web chat before sign-in")
        thread.remember("User likes the porch light on")
        assert thread.user is not None
        return thread.user.name

    def fingerprint(self) -> Any:
        """Everything of bob's a stranger's request must leave alone."""
        bob = self.as_bob
        memories = [(m.id, m.text, m.status) for m in bob.list_memories(status="all", limit=1000)]
        conversations = [
            (c.id, c.is_private, c.ended_at, c.consolidation_state) for c in bob.conversations(limit=1000)
        ]
        messages = sql_rows(
            self.root.store,
            "SELECT conversation_id, COUNT(*) FROM messages WHERE user_id = ? GROUP BY conversation_id"
            " ORDER BY conversation_id",
            (self.bob.id,),
        )
        tokens = [(t.id, t.revoked_at) for t in self.root.accounts.list_tokens(self.bob)]
        summaries = [s.id for s in bob.summaries(limit=1000)]
        now = self.clock.now
        working = [bob.working_state(c[0]).to_dict(now) for c in conversations[:3]]
        return memories, conversations, messages, tokens, summaries, working


def _turn(role: str, content: str) -> Turn:
    return Turn(role, content)


def _mcp(tool: str, arguments: dict[str, Any]) -> Callable[[World], Call]:
    return lambda w: Call(
        "/mcp",
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}},
    )


def _get(path: str, **query: Any) -> Callable[[World], Call]:
    return lambda w: Call(path, None, query)


def _send(path: str, body: Any = None) -> Callable[[World], Call]:
    """A request with this body (the method is the row's)."""
    return lambda w: Call(path, body)


def _fresh_user(w: World) -> str:
    return w.root.add_user(f"someone{next(w._count)}").name


def _token_path(w: World) -> Call:
    return Call(f"/api/v1/tokens/{w.token_id()}")


def _memory_path(suffix: str = "", body: Any = None) -> Callable[[World], Call]:
    return lambda w: Call(f"/api/v1/memories/{w.memory_id()}{suffix}", body)


def _conversation_path(suffix: str = "", body: Any = None) -> Callable[[World], Call]:
    return lambda w: Call(f"/api/v1/conversations/{w.conversation_id()}{suffix}", body)


def _document_path(suffix: str = "") -> Callable[[World], Call]:
    return lambda w: Call(f"/api/v1/documents/{w.document_id}{suffix}")


_CHAT = {"model": "reverie", "messages": [{"role": "user", "content": "What is the weather like?"}]}
_TEXT = {"text": "What is the weather like?"}
_EXPORT = {
    "format": "reverie-export",
    "version": 1,
    "user": "x",
    "memories": [],
    "summaries": [],
    "base_memory": None,
}

# How each door is knocked on: a request made fresh for each caller (bob's rows made just before).
REQUESTS: dict[str, Callable[[World], Call]] = {
    "GET /health": _get("/health"),
    "GET /openapi.json": _get("/openapi.json"),
    "GET /docs": _get("/docs"),
    "GET /docs/assets/{name}": _get("/docs/assets/swagger-ui.css"),
    "GET /favicon.ico": _get("/favicon.ico"),
    "GET /setup": _get("/setup"),
    "POST /setup": _send("/setup", {"name": "eve", "password": PASSWORD}),
    "POST /api/v1/auth/login": _send("/api/v1/auth/login", {"name": "bob", "password": PASSWORD}),
    "GET /api/v1/auth/status": _get("/api/v1/auth/status"),
    "POST /api/v1/auth/logout": _send("/api/v1/auth/logout"),
    "GET /api/v1/auth/me": _get("/api/v1/auth/me"),
    "POST /api/v1/auth/password": _send(
        "/api/v1/auth/password", {"current_password": PASSWORD, "new_password": PASSWORD}
    ),
    "GET /api/v1/tokens": _get("/api/v1/tokens"),
    "POST /api/v1/tokens": _send("/api/v1/tokens", {"name": "laptop"}),
    "DELETE /api/v1/tokens/{token_id}": _token_path,
    "GET /api/v1/llm/status": _get("/api/v1/llm/status"),
    "POST /api/v1/llm/test": _send("/api/v1/llm/test", {}),
    "GET /api/v1/users": _get("/api/v1/users"),
    "POST /api/v1/users": lambda w: Call("/api/v1/users", {"name": f"new{w.clock.now:.0f}"}),
    "DELETE /api/v1/users/{name}": lambda w: Call(f"/api/v1/users/{_fresh_user(w)}"),
    "PUT /api/v1/users/{name}/password": lambda w: Call(
        f"/api/v1/users/{_fresh_user(w)}/password", {"password": "a long password"}
    ),
    "GET /api/v1/interfaces": _get("/api/v1/interfaces"),
    "PUT /api/v1/interfaces/{interface}": _send("/api/v1/interfaces/porch", {"user": "carol"}),
    "DELETE /api/v1/interfaces/{interface}": _send("/api/v1/interfaces/porch"),
    "GET /api/v1/interfaces/speakers": _get("/api/v1/interfaces/speakers"),
    "PUT /api/v1/interfaces/{interface}/speakers": _send(
        "/api/v1/interfaces/porch/speakers", {"users": ["carol"]}
    ),
    "GET /api/v1/threads": _get("/api/v1/threads"),
    "POST /api/v1/threads": _send("/api/v1/threads", {"label": "porch"}),
    "POST /api/v1/threads/{thread}/merge": lambda w: Call(
        f"/api/v1/threads/{w.thread_name()}/merge", {"user": "carol"}
    ),
    "GET /api/v1/settings": _get("/api/v1/settings"),
    "PUT /api/v1/settings": _send("/api/v1/settings", {"memory.decay.hour": 4}),
    "GET /api/v1/embeddings/models": _get("/api/v1/embeddings/models"),
    "DELETE /api/v1/embeddings/cache": _send("/api/v1/embeddings/cache"),
    "POST /api/v1/consolidate": _send("/api/v1/consolidate"),
    "GET /api/v1/memories": _get("/api/v1/memories"),
    "POST /api/v1/memories": _send("/api/v1/memories", {"text": "User owns a red kayak"}),
    "GET /api/v1/memories/{memory_id}": _memory_path(),
    "PATCH /api/v1/memories/{memory_id}": _memory_path("", {"text": "User owns a canoe"}),
    "DELETE /api/v1/memories/{memory_id}": _memory_path(),
    "PUT /api/v1/preferences/{category}": _send("/api/v1/preferences/food", {"value": "spicy"}),
    "GET /api/v1/preferences": _get("/api/v1/preferences"),
    "POST /api/v1/forget": _send("/api/v1/forget", {"query": "kayak"}),
    "POST /api/v1/forget-all": _send("/api/v1/forget-all", {"confirm": "DELETE"}),
    "GET /api/v1/search": _get("/api/v1/search", q="kayak"),
    "GET /api/v1/recent": _get("/api/v1/recent"),
    "GET /api/v1/context": _get("/api/v1/context"),
    "GET /api/v1/stats": _get("/api/v1/stats"),
    "POST /api/v1/tool": _send("/api/v1/tool", {"device": "memory", "action": "search", "value": "kayak"}),
    "GET /api/v1/tool/schema": _get("/api/v1/tool/schema"),
    "POST /api/v1/observe": _send("/api/v1/observe", {"utterance": "Remember that I like tea"}),
    "GET /api/v1/export": _get("/api/v1/export"),
    "POST /api/v1/import": _send("/api/v1/import", _EXPORT),
    "GET /api/v1/summaries": _get("/api/v1/summaries"),
    "DELETE /api/v1/summaries/{summary_id}": lambda w: Call(f"/api/v1/summaries/{w.summary_id()}"),
    "GET /api/v1/stats/charts": _get("/api/v1/stats/charts"),
    "POST /api/v1/conversations": _send("/api/v1/conversations", {"interface": "api"}),
    "GET /api/v1/conversations": _get("/api/v1/conversations"),
    "GET /api/v1/conversations/{conversation_id}": _conversation_path(),
    "POST /api/v1/conversations/{conversation_id}/messages": _conversation_path(
        "/messages", {"messages": [{"role": "user", "content": "Another turn"}]}
    ),
    "POST /api/v1/conversations/{conversation_id}/end": _conversation_path("/end"),
    "PUT /api/v1/conversations/{conversation_id}/private": _conversation_path("/private", {"private": True}),
    "GET /api/v1/conversations/{conversation_id}/state": _conversation_path("/state"),
    "POST /api/v1/conversations/{conversation_id}/state": _conversation_path(
        "/state", {"action": "task", "value": "buy milk"}
    ),
    "GET /api/v1/observations": _get("/api/v1/observations"),
    "GET /api/v1/documents": _get("/api/v1/documents"),
    "GET /api/v1/documents/status": _get("/api/v1/documents/status"),
    "POST /api/v1/documents/scan": _send("/api/v1/documents/scan"),
    "GET /api/v1/documents/search": _get("/api/v1/documents/search", q="boiler"),
    "POST /api/v1/documents/upload": lambda w: Call(
        "/api/v1/documents/upload", None, {"name": "notes.md"}, content=b"# Notes\n\nThe shed key is blue."
    ),
    "GET /api/v1/documents/{document_id}": _document_path(),
    "POST /api/v1/documents/{document_id}/reindex": _document_path("/reindex"),
    "DELETE /api/v1/documents/{document_id}": _document_path(),
    "GET /api/v1/topics": _get("/api/v1/topics"),
    "GET /api/v1/topics/{slug}": lambda w: Call(f"/api/v1/topics/{w.topic_slug()}"),
    "POST /api/v1/topics/{slug}/split": lambda w: Call(f"/api/v1/topics/{w.topic_slug()}/split"),
    "POST /v1/chat/completions": lambda w: Call(
        "/v1/chat/completions", _CHAT, headers={"X-Reverie-Conversation": str(w.conversation_id())}
    ),
    "GET /v1/models": _get("/v1/models"),
    "POST /chat/audio": lambda w: Call(
        "/chat/audio",
        content=b"What is the weather like?",
        headers={"X-Reverie-Conversation": str(w.conversation_id()), "Content-Type": "audio/wav"},
    ),
    "POST /context/sensors": _send("/context/sensors", {"readings": {"orientation": "face_up"}}),
    "GET /context/sensors": _get("/context/sensors"),
    "DELETE /context/sensors": _get("/context/sensors"),
    "POST /chat/text": lambda w: Call(
        "/chat/text", _TEXT, headers={"X-Reverie-Conversation": str(w.conversation_id())}
    ),
    "WS /api/v1/sessions/ws": _get("/api/v1/sessions/ws"),
    "POST /mcp": _send("/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    "GET /": _get("/"),
    "GET /static/{relative:path}": _get("/static/app.js"),
    "mcp memory_search": _mcp("memory_search", {"value": "kayak"}),
    "mcp memory_recent": _mcp("memory_recent", {"value": "7d"}),
    "mcp memory_remember": _mcp("memory_remember", {"value": "User owns a green kayak"}),
    "mcp memory_forget": _mcp("memory_forget", {"value": "kayak"}),
    "mcp memory_save_preference": _mcp(
        "memory_save_preference", {"category": "lights", "key": "color", "value": "pink"}
    ),
    "mcp create_memory": _mcp("create_memory", {"content": "User owns a blue kayak"}),
    "mcp update_memory": lambda w: _mcp(
        "update_memory", {"id": w.memory_id(), "content": "User owns a canoe"}
    )(w),
    "mcp delete_memory": lambda w: _mcp("delete_memory", {"id": w.memory_id()})(w),
    "mcp list_memories": _mcp("list_memories", {}),
    "mcp search_memory": _mcp("search_memory", {"query": "kayak"}),
    "mcp forget_memory": lambda w: _mcp("forget_memory", {"id": w.memory_id()})(w),
    "mcp documents_search": _mcp("documents_search", {"value": "boiler"}),
    "tool memory search": _send("/api/v1/tool", {"device": "memory", "action": "search", "value": "kayak"}),
    "tool memory forget": _send("/api/v1/tool", {"device": "memory", "action": "forget", "value": "kayak"}),
    "tool state show": lambda w: Call(
        "/api/v1/tool", {"device": "state", "action": "show", "conversation": w.conversation_id()}
    ),
    "tool state task": lambda w: Call(
        "/api/v1/tool",
        {
            "device": "state",
            "action": "task",
            "value": "water plants",
            "conversation": w.conversation_id(),
        },
    ),
    "tool documents search": _send(
        "/api/v1/tool", {"device": "documents", "action": "search", "value": "boiler"}
    ),
    "mcp resource memory://context": lambda w: Call(
        "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "memory://context"}}
    ),
}

# The answer each caller gets: an HTTP status; for the WebSocket the first frame after hello
# ("ready"); for MCP tools (``mcp ...``, through POST /mcp) and the memory tool's commands
# (``tool ...``, POST /api/v1/tool, always 200) "ok" or "error" as the answer says.
# fmt: off
TABLE = """
door                                                   anon  user  other admin device guest revoked expired
GET /health                                            200   200   200   200   200    200   200     200
GET /openapi.json                                      200   200   200   200   200    200   200     200
GET /docs                                              200   200   200   200   200    200   200     200
GET /docs/assets/{name}                                200   200   200   200   200    200   200     200
GET /favicon.ico                                       200   200   200   200   200    200   200     200
GET /setup                                             409   409   409   409   409    409   409     409
POST /setup                                            409   409   409   409   409    409   409     409
POST /api/v1/auth/login                                200   200   200   200   200    200   200     200
GET /api/v1/auth/status                                200   200   200   200   200    200   200     200
POST /api/v1/auth/logout                               401   204   204   204   204    204   401     401
GET /api/v1/auth/me                                    401   200   200   200   200    200   401     401
POST /api/v1/auth/password                             401   204   401   401   403    403   401     401
GET /api/v1/tokens                                     401   200   200   200   403    403   401     401
POST /api/v1/tokens                                    401   201   201   201   403    403   401     401
DELETE /api/v1/tokens/{token_id}                       401   200   404   404   403    403   401     401
GET /api/v1/llm/status                                 401   200   200   200   200    200   401     401
POST /api/v1/llm/test                                  401   403   403   200   403    403   401     401
GET /api/v1/users                                      401   403   403   200   403    403   401     401
POST /api/v1/users                                     401   403   403   201   403    403   401     401
DELETE /api/v1/users/{name}                            401   403   403   204   403    403   401     401
PUT /api/v1/users/{name}/password                      401   403   403   204   403    403   401     401
GET /api/v1/interfaces                                 401   403   403   200   403    403   401     401
PUT /api/v1/interfaces/{interface}                     401   403   403   200   403    403   401     401
DELETE /api/v1/interfaces/{interface}                  401   403   403   200   403    403   401     401
GET /api/v1/interfaces/speakers                        401   403   403   200   403    403   401     401
PUT /api/v1/interfaces/{interface}/speakers            401   403   403   200   403    403   401     401
GET /api/v1/threads                                    401   403   403   200   403    403   401     401
POST /api/v1/threads                                   401   403   403   201   403    403   401     401
POST /api/v1/threads/{thread}/merge                    401   403   403   200   403    403   401     401
GET /api/v1/settings                                   401   403   403   200   403    403   401     401
PUT /api/v1/settings                                   401   403   403   200   403    403   401     401
GET /api/v1/embeddings/models                          401   403   403   200   403    403   401     401
DELETE /api/v1/embeddings/cache                        401   403   403   200   403    403   401     401
POST /api/v1/consolidate                               401   403   403   200   403    403   401     401
GET /api/v1/memories                                   401   200   200   200   200    200   401     401
POST /api/v1/memories                                  401   201   201   201   201    409   401     401
GET /api/v1/memories/{memory_id}                       401   200   404   404   200    409   401     401
PATCH /api/v1/memories/{memory_id}                     401   200   404   404   200    409   401     401
DELETE /api/v1/memories/{memory_id}                    401   200   404   404   200    409   401     401
PUT /api/v1/preferences/{category}                     401   200   200   200   200    409   401     401
GET /api/v1/preferences                                401   200   200   200   200    200   401     401
POST /api/v1/forget                                    401   200   200   200   200    409   401     401
POST /api/v1/forget-all                                401   200   200   200   200    409   401     401
GET /api/v1/search                                     401   200   200   200   200    200   401     401
GET /api/v1/recent                                     401   200   200   200   200    200   401     401
GET /api/v1/context                                    401   200   200   200   200    200   401     401
GET /api/v1/stats                                      401   200   200   200   200    200   401     401
POST /api/v1/tool                                      401   ok    ok    ok    ok     error 401     401
GET /api/v1/tool/schema                                200   200   200   200   200    200   200     200
POST /api/v1/observe                                   401   200   200   200   200    200   401     401
GET /api/v1/export                                     401   200   200   200   200    409   401     401
POST /api/v1/import                                    401   200   200   200   200    409   401     401
GET /api/v1/summaries                                  401   200   200   200   200    200   401     401
DELETE /api/v1/summaries/{summary_id}                  401   200   404   404   200    409   401     401
GET /api/v1/stats/charts                               401   200   200   200   200    200   401     401
POST /api/v1/conversations                             401   201   201   201   201    409   401     401
GET /api/v1/conversations                              401   200   200   200   200    409   401     401
GET /api/v1/conversations/{conversation_id}            401   200   404   404   200    409   401     401
POST /api/v1/conversations/{conversation_id}/messages  401   201   404   404   201    409   401     401
POST /api/v1/conversations/{conversation_id}/end       401   200   404   404   200    409   401     401
PUT /api/v1/conversations/{conversation_id}/private    401   200   404   404   200    409   401     401
GET /api/v1/conversations/{conversation_id}/state      401   200   404   404   200    409   401     401
POST /api/v1/conversations/{conversation_id}/state     401   200   404   404   200    409   401     401
GET /api/v1/observations                               401   200   200   200   200    409   401     401
GET /api/v1/documents                                  401   200   200   200   200    409   401     401
GET /api/v1/documents/status                           401   200   200   200   200    409   401     401
POST /api/v1/documents/scan                            401   403   403   202   403    403   401     401
GET /api/v1/documents/search                           401   200   200   200   200    409   401     401
POST /api/v1/documents/upload                          401   201   201   201   201    409   401     401
GET /api/v1/documents/{document_id}                    401   200   200   200   200    409   401     401
POST /api/v1/documents/{document_id}/reindex           401   403   403   200   403    403   401     401
DELETE /api/v1/documents/{document_id}                 401   403   403   200   403    403   401     401
GET /api/v1/topics                                     401   200   200   200   200    409   401     401
GET /api/v1/topics/{slug}                              401   200   404   404   200    409   401     401
POST /api/v1/topics/{slug}/split                       401   400   404   404   400    409   401     401
POST /v1/chat/completions                              401   200   404   404   200    200   401     401
GET /v1/models                                         401   200   200   200   200    200   401     401
POST /chat/text                                        401   200   404   404   200    200   401     401
POST /chat/audio                                       401   200   404   404   200    200   401     401
POST /context/sensors                                  401   200   200   200   200    409   401     401
GET /context/sensors                                   401   200   200   200   200    409   401     401
DELETE /context/sensors                                401   204   204   204   204    409   401     401
WS /api/v1/sessions/ws                                 401   ready ready ready ready  ready 401     401
POST /mcp                                              401   200   200   200   200    200   401     401
GET /                                                  200   200   200   200   200    200   200     200
GET /static/{relative:path}                            200   200   200   200   200    200   200     200
mcp memory_search                                      401   ok    ok    ok    ok     error 401     401
mcp memory_recent                                      401   ok    ok    ok    ok     error 401     401
mcp memory_remember                                    401   ok    ok    ok    ok     error 401     401
mcp memory_forget                                      401   ok    ok    ok    ok     error 401     401
mcp memory_save_preference                             401   ok    ok    ok    ok     error 401     401
mcp create_memory                                      401   ok    ok    ok    ok     error 401     401
mcp update_memory                                      401   ok    error error ok     error 401     401
mcp delete_memory                                      401   ok    error error ok     error 401     401
mcp list_memories                                      401   ok    ok    ok    ok     error 401     401
mcp search_memory                                      401   ok    ok    ok    ok     error 401     401
mcp forget_memory                                      401   ok    error error ok     error 401     401
mcp documents_search                                   401   ok    ok    ok    ok     error 401     401
tool memory search                                     401   ok    ok    ok    ok     error 401     401
tool memory forget                                     401   ok    ok    ok    ok     error 401     401
tool state show                                        401   ok    error error ok     error 401     401
tool state task                                        401   ok    error error ok     error 401     401
tool documents search                                  401   ok    ok    ok    ok     error 401     401
mcp resource memory://context                          401   ok    ok    ok    ok     ok    401     401
"""
# fmt: on
CHANGES_BOB = {"POST /api/v1/consolidate": {"admin"}}  # an admin's run over every user's queue


def _parse(table: str) -> dict[str, tuple[int | str, ...]]:
    header, *lines = table.strip().splitlines()
    assert tuple(header.split()[1:]) == CALLERS
    parsed = {}
    for line in lines:
        words = line.split()
        door, cells = " ".join(words[: -len(CALLERS)]), words[-len(CALLERS) :]
        assert door and door not in parsed, f"a row without a door, or two rows for one: {line}"
        parsed[door] = tuple(int(cell) if cell.isdigit() else cell for cell in cells)
    return parsed


MATRIX = _parse(TABLE)


# the doors of the app ----------------------------------------------------------------------
def _walk(routes: list[Any]) -> Iterator[Any]:
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _walk(included.routes)
        else:
            yield route


def app_doors(app: FastAPI) -> set[str]:
    """Every route of the app as 'METHOD path' ('WS path' for WebSockets)."""
    doors = set()
    for route in _walk(list(app.routes)):
        if isinstance(route, WebSocketRoute):
            doors.add(f"WS {route.path}")
        elif isinstance(route, Route):
            doors.update(f"{m} {route.path}" for m in (route.methods or set()) - {"HEAD"})
    return doors


# running it -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One server for the whole table (bob's rows are made fresh per request)."""
    home = tmp_path_factory.mktemp("authz")
    with FakeModelServer() as fake:
        settings = chat_settings_for(
            load_settings(
                home=home / "home", environ={"REVERIE_RAG__DOCUMENTS_DIR": str(home / "documents")}
            ),
            fake,
        )
        clock = Clock()
        app = create_app(settings, clock=clock)
        with TestClient(app, base_url=BASE) as client:
            yield World(app, client, clock, settings)


def _ask(world: World, method: str, path: str, caller: str, call: Call) -> tuple[int | str, str]:
    """Make the request as the caller: (the outcome to compare, the answer's text)."""
    headers = {**call.headers, **world.headers[caller]}
    client = world.client
    client.cookies.clear()
    try:
        if method == "WS":
            return _ws(client, call.path, headers)
        if path == "/mcp" and call.body and call.body.get("method") != "tools/list":
            headers["Accept"] = "application/json, text/event-stream"
            answer = client.post(call.path, json=call.body, headers=headers)
            if answer.status_code != 200:
                return answer.status_code, answer.text
            result = answer.json().get("result") or {}
            failed = "error" in answer.json() or result.get("isError")
            return ("error" if failed else "ok"), answer.text
        if path == "/mcp":
            headers["Accept"] = "application/json, text/event-stream"
        body: dict[str, Any] = {"json": call.body} if call.content is None else {"content": call.content}
        answer = client.request(method, call.path, params=call.query or None, headers=headers, **body)
        if path == "/api/v1/tool" and answer.status_code == 200:  # always 200: the answer says how it went
            return ("ok" if answer.json()["ok"] else "error"), answer.text
        return answer.status_code, answer.text
    finally:
        client.cookies.clear()


def _ws(client: TestClient, path: str, headers: dict[str, str]) -> tuple[int | str, str]:
    try:
        with client.websocket_connect(path, headers=headers) as ws:
            ws.send_json({"type": "hello"})
            frame = ws.receive_json()
            return str(frame.get("type")), json.dumps(frame)
    except WebSocketDenialResponse as denied:  # refused before the handshake: an HTTP answer
        return denied.status_code, denied.text
    except WebSocketDisconnect as exc:
        return exc.code, exc.reason or ""


def _where(door: str) -> tuple[str, str]:
    """The method and route a row's requests go to."""
    if door.startswith("mcp "):
        return "POST", "/mcp"
    if door.startswith("tool "):
        return "POST", "/api/v1/tool"
    method, _, path = door.partition(" ")
    return method, path


def _check(world: World, door: str) -> list[str]:
    """The callers whose answer differs from the table, or who saw or changed bob's rows."""
    method, path = _where(door)
    wrong = []
    for caller, expected in zip(CALLERS, MATRIX[door], strict=True):
        call = REQUESTS[door](world)
        before = world.fingerprint()
        got, text = _ask(world, method, path, caller, call)
        if got != expected:
            wrong.append(f"{caller}: expected {expected}, got {got} {text[:200]}")
        if caller not in AS_BOB:
            if SECRET in text.lower():
                wrong.append(f"{caller}: the answer shows bob's words: {text[:200]}")
            if caller not in CHANGES_BOB.get(door, set()) and world.fingerprint() != before:
                wrong.append(f"{caller}: bob's rows changed")
    return wrong


@pytest.mark.parametrize("door", list(MATRIX))
def test_each_caller_gets_the_answer_the_table_gives(world: World, door: str) -> None:
    assert _check(world, door) == []


def test_every_door_has_a_row(world: World) -> None:
    routes = {door for door in MATRIX if not door.startswith(("mcp ", "tool "))}
    assert app_doors(world.app) ^ routes == set()
    tools = {door[4:] for door in MATRIX if door.startswith("mcp ")} - {"resource memory://context"}
    assert {s["function"]["name"] for s in ALL_FUNCTION_SCHEMAS} ^ tools == set()
    assert set(REQUESTS) ^ set(MATRIX) == set()


# first run: the setup page of a server without an admin ------------------------------------
SETUP_CASES = [  # Host, Origin, the answer to a form post creating the first admin
    ("127.0.0.1:8765", None, 303),
    ("localhost:8765", "http://localhost:8765", 303),
    ("[::1]:8765", "http://[::1]:8765", 303),
    ("127.0.0.1:8765", "https://evil.example", 403),  # a cross-site form post
    ("127.0.0.1:8765", "null", 403),  # the same from a sandboxed frame
    ("evil.example:8765", None, 403),  # DNS rebinding: another site's name resolving to 127.0.0.1
    ("evil.example:8765", "http://evil.example:8765", 403),
    ("evil.example@127.0.0.1:8765", None, 403),
    ("127.0.0.1.evil.example:8765", None, 403),
]


@pytest.mark.parametrize(("host", "origin", "status"), SETUP_CASES)
def test_setup_refuses_other_sites(tmp_path: Path, host: str, origin: str | None, status: int) -> None:
    settings = load_settings(home=tmp_path / "home", environ={"REVERIE_RAG__REINDEX_ON_STARTUP": "false"})
    headers = {"Host": host} | ({"Origin": origin} if origin else {})
    with TestClient(create_app(settings), base_url=BASE, follow_redirects=False) as client:
        page = client.get("/setup", headers={"Host": host})
        assert page.status_code == (403 if "evil" in host else 200)
        posted = client.post("/setup", data={"name": "mallory", "password": PASSWORD}, headers=headers)
        assert posted.status_code == status, posted.text
        admins = [u.name for u in client.app.state.memory.list_users() if u.is_admin]  # type: ignore[attr-defined]
    assert admins == (["mallory"] if status == 303 else [])
