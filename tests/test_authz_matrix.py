"""Who may do what: every HTTP route, the WebSocket and every MCP tool, for every kind of caller.

One table (:data:`MATRIX`) gives, for each door of the app, the status each caller gets. The
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
from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
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


@dataclass(frozen=True)
class Row:
    """A door's request (made fresh per caller) and the answer each caller gets, in CALLERS order.

    ``changes_bob`` names callers outside AS_BOB whose request may change bob's rows (an
    admin's whole-database job, say).
    """

    make: Callable[[World], Call]
    expect: tuple[int | str, ...]
    changes_bob: frozenset[str] = frozenset()


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
        messages = [len(bob.messages(c[0], limit=1000)) for c in conversations]
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


def _post(path: str, body: Any = None) -> Callable[[World], Call]:
    return lambda w: Call(path, body)


def _r(make: Callable[[World], Call], *expect: int | str, changes_bob: tuple[str, ...] = ()) -> Row:
    assert len(expect) == len(CALLERS), "one answer per caller"
    return Row(make, tuple(expect), frozenset(changes_bob))


MATRIX: dict[str, Row] = {}


def _row(method: str, path: str) -> str:
    return f"{method} {path}"


def _pub(make: Callable[[World], Call], status: int) -> Row:
    """A door anyone may use: the same answer whatever the credential."""
    return _r(make, *([status] * len(CALLERS)))


def _mine(
    make: Callable[[World], Call], ok: int | str, stranger: int | str, guest: int | str, **kw: Any
) -> Row:
    """A door on the caller's own memory: ``stranger`` for carol and the admin aimed at bob's rows."""
    return _r(make, 401, ok, stranger, stranger, ok, guest, 401, 401, **kw)


def _admin(make: Callable[[World], Call], ok: int, **kw: Any) -> Row:
    """An admin-only door."""
    return _r(make, 401, 403, 403, ok, 403, 403, 401, 401, **kw)


def _token_path(w: World) -> Call:
    return Call(f"/api/v1/tokens/{w.token_id()}")


def _memory_path(suffix: str = "", body: Any = None) -> Callable[[World], Call]:
    return lambda w: Call(f"/api/v1/memories/{w.memory_id()}{suffix}", body)


def _conversation_path(suffix: str = "", body: Any = None) -> Callable[[World], Call]:
    return lambda w: Call(f"/api/v1/conversations/{w.conversation_id()}{suffix}", body)


def _document_path(suffix: str = "") -> Callable[[World], Call]:
    return lambda w: Call(f"/api/v1/documents/{w.document_id}{suffix}")


_CHAT = {"messages": [{"role": "user", "content": "What is the weather like?"}]}
_TEXT = {"text": "What is the weather like?"}
_EXPORT = {
    "format": "reverie-export",
    "version": 1,
    "user": "x",
    "memories": [],
    "summaries": [],
    "base_memory": None,
}

MATRIX.update(
    {
        # meta, first run and signing in
        _row("GET", "/health"): _pub(_get("/health"), 200),
        _row("GET", "/setup"): _pub(_get("/setup"), 409),
        _row("POST", "/setup"): _pub(_post("/setup", {"name": "eve", "password": PASSWORD}), 409),
        _row("POST", "/api/v1/auth/login"): _pub(
            _post("/api/v1/auth/login", {"name": "bob", "password": PASSWORD}), 200
        ),
        _row("GET", "/api/v1/auth/status"): _pub(_get("/api/v1/auth/status"), 200),
        _row("POST", "/api/v1/auth/logout"): _mine(_post("/api/v1/auth/logout"), 204, 204, 204),
        _row("GET", "/api/v1/auth/me"): _mine(_get("/api/v1/auth/me"), 200, 200, 200),
        _row("POST", "/api/v1/auth/password"): _r(
            _post("/api/v1/auth/password", {"current_password": PASSWORD, "new_password": PASSWORD}),
            401,
            204,
            401,
            401,
            403,
            403,
            401,
            401,
        ),
        _row("GET", "/api/v1/tokens"): _r(_get("/api/v1/tokens"), 401, 200, 200, 200, 403, 403, 401, 401),
        _row("POST", "/api/v1/tokens"): _r(
            _post("/api/v1/tokens", {"name": "laptop"}), 401, 201, 201, 201, 403, 403, 401, 401
        ),
        _row("DELETE", "/api/v1/tokens/{token_id}"): _r(_token_path, 401, 200, 404, 404, 403, 403, 401, 401),
        # administration
        _row("GET", "/api/v1/users"): _admin(_get("/api/v1/users"), 200),
        _row("POST", "/api/v1/users"): _admin(
            lambda w: Call("/api/v1/users", {"name": f"new{w.clock.now:.0f}"}), 201
        ),
        _row("GET", "/api/v1/interfaces"): _admin(_get("/api/v1/interfaces"), 200),
        _row("PUT", "/api/v1/interfaces/{interface}"): _admin(
            _post("/api/v1/interfaces/porch", {"user": "carol"}), 200
        ),
        _row("DELETE", "/api/v1/interfaces/{interface}"): _admin(_post("/api/v1/interfaces/porch"), 200),
        _row("GET", "/api/v1/threads"): _admin(_get("/api/v1/threads"), 200),
        _row("POST", "/api/v1/threads"): _admin(_post("/api/v1/threads", {"label": "porch"}), 201),
        _row("POST", "/api/v1/threads/{thread}/merge"): _admin(
            lambda w: Call(f"/api/v1/threads/{w.thread_name()}/merge", {"user": "carol"}), 200
        ),
        _row("GET", "/api/v1/settings"): _admin(_get("/api/v1/settings"), 200),
        _row("PUT", "/api/v1/settings"): _admin(_post("/api/v1/settings", {"memory.decay.hour": 4}), 200),
        _row("POST", "/api/v1/consolidate"): _admin(
            _post("/api/v1/consolidate"), 200, changes_bob=("admin",)
        ),
        # memories
        _row("GET", "/api/v1/memories"): _mine(_get("/api/v1/memories"), 200, 200, 200),
        _row("POST", "/api/v1/memories"): _mine(
            _post("/api/v1/memories", {"text": "User owns a red kayak"}), 201, 201, 409
        ),
        _row("GET", "/api/v1/memories/{memory_id}"): _mine(_memory_path(), 200, 404, 409),
        _row("PATCH", "/api/v1/memories/{memory_id}"): _mine(
            _memory_path("", {"text": "User owns a canoe"}), 200, 404, 409
        ),
        _row("DELETE", "/api/v1/memories/{memory_id}"): _mine(_memory_path(), 200, 404, 409),
        _row("PUT", "/api/v1/preferences/{category}"): _mine(
            _post("/api/v1/preferences/food", {"value": "spicy"}), 200, 200, 409
        ),
        _row("GET", "/api/v1/preferences"): _mine(_get("/api/v1/preferences"), 200, 200, 200),
        _row("POST", "/api/v1/forget"): _mine(_post("/api/v1/forget", {"query": "kayak"}), 200, 200, 409),
        _row("POST", "/api/v1/forget-all"): _mine(
            _post("/api/v1/forget-all", {"confirm": "DELETE"}), 200, 200, 409
        ),
        _row("GET", "/api/v1/search"): _mine(_get("/api/v1/search", q="kayak"), 200, 200, 200),
        _row("GET", "/api/v1/recent"): _mine(_get("/api/v1/recent"), 200, 200, 200),
        _row("GET", "/api/v1/context"): _mine(_get("/api/v1/context"), 200, 200, 200),
        _row("GET", "/api/v1/stats"): _mine(_get("/api/v1/stats"), 200, 200, 200),
        _row("POST", "/api/v1/tool"): _mine(
            _post("/api/v1/tool", {"device": "memory", "action": "search", "value": "kayak"}),
            "ok",
            "ok",
            "error",
        ),
        _row("GET", "/api/v1/tool/schema"): _pub(_get("/api/v1/tool/schema"), 200),
        _row("POST", "/api/v1/observe"): _mine(
            _post("/api/v1/observe", {"utterance": "Remember that I like tea"}), 200, 200, 200
        ),
        _row("GET", "/api/v1/export"): _mine(_get("/api/v1/export"), 200, 200, 409),
        _row("POST", "/api/v1/import"): _mine(_post("/api/v1/import", _EXPORT), 200, 200, 409),
        _row("GET", "/api/v1/summaries"): _mine(_get("/api/v1/summaries"), 200, 200, 200),
        _row("DELETE", "/api/v1/summaries/{summary_id}"): _mine(
            lambda w: Call(f"/api/v1/summaries/{w.summary_id()}"), 200, 404, 409
        ),
        _row("GET", "/api/v1/stats/charts"): _mine(_get("/api/v1/stats/charts"), 200, 200, 200),
        # conversations and working state
        _row("POST", "/api/v1/conversations"): _mine(
            _post("/api/v1/conversations", {"interface": "api"}), 201, 201, 409
        ),
        _row("GET", "/api/v1/conversations"): _mine(_get("/api/v1/conversations"), 200, 200, 409),
        _row("GET", "/api/v1/conversations/{conversation_id}"): _mine(_conversation_path(), 200, 404, 409),
        _row("POST", "/api/v1/conversations/{conversation_id}/messages"): _mine(
            _conversation_path("/messages", {"messages": [{"role": "user", "content": "Another turn"}]}),
            201,
            404,
            409,
        ),
        _row("POST", "/api/v1/conversations/{conversation_id}/end"): _mine(
            _conversation_path("/end"), 200, 404, 409
        ),
        _row("PUT", "/api/v1/conversations/{conversation_id}/private"): _mine(
            _conversation_path("/private", {"private": True}), 200, 404, 409
        ),
        _row("GET", "/api/v1/conversations/{conversation_id}/state"): _mine(
            _conversation_path("/state"), 200, 404, 409
        ),
        _row("POST", "/api/v1/conversations/{conversation_id}/state"): _mine(
            _conversation_path("/state", {"action": "task", "value": "buy milk"}), 200, 404, 409
        ),
        # documents (one household library)
        _row("GET", "/api/v1/documents"): _mine(_get("/api/v1/documents"), 200, 200, 200),
        _row("GET", "/api/v1/documents/status"): _mine(_get("/api/v1/documents/status"), 200, 200, 200),
        _row("POST", "/api/v1/documents/scan"): _admin(_post("/api/v1/documents/scan"), 202),
        _row("GET", "/api/v1/documents/search"): _mine(
            _get("/api/v1/documents/search", q="boiler"), 200, 200, 409
        ),
        _row("GET", "/api/v1/documents/{document_id}"): _mine(_document_path(), 200, 200, 200),
        _row("POST", "/api/v1/documents/{document_id}/reindex"): _admin(_document_path("/reindex"), 200),
        _row("DELETE", "/api/v1/documents/{document_id}"): _admin(_document_path(), 200),
        # topics
        _row("GET", "/api/v1/topics"): _mine(_get("/api/v1/topics"), 200, 200, 409),
        _row("GET", "/api/v1/topics/{slug}"): _mine(
            lambda w: Call(f"/api/v1/topics/{w.topic_slug()}"), 200, 404, 409
        ),
        _row("POST", "/api/v1/topics/{slug}/split"): _mine(
            lambda w: Call(f"/api/v1/topics/{w.topic_slug()}/split"), 400, 404, 409
        ),
        # chat
        _row("POST", "/v1/chat/completions"): _mine(
            lambda w: Call(
                "/v1/chat/completions", _CHAT, headers={"X-Reverie-Conversation": str(w.conversation_id())}
            ),
            200,
            404,
            200,
        ),
        _row("GET", "/v1/models"): _mine(_get("/v1/models"), 200, 200, 200),
        _row("POST", "/chat/text"): _mine(
            lambda w: Call("/chat/text", _TEXT, headers={"X-Reverie-Conversation": str(w.conversation_id())}),
            200,
            404,
            200,
        ),
        _row("WS", "/api/v1/sessions/ws"): _mine(_get("/api/v1/sessions/ws"), "ready", "ready", "ready"),
        _row("POST", "/mcp"): _mine(
            _post("/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}), 200, 200, 200
        ),
        # the web UI's files
        _row("GET", "/"): _pub(_get("/"), 200),
        _row("GET", "/static/{relative:path}"): _pub(_get("/static/app.js"), 200),
    }
)

# MCP tools, called through POST /mcp: "ok", "error" (an MCP error result), or the HTTP status.
MCP_TOOLS: dict[str, Row] = {
    "memory_search": _mine(_mcp("memory_search", {"value": "kayak"}), "ok", "ok", "error"),
    "memory_recent": _mine(_mcp("memory_recent", {"value": "7d"}), "ok", "ok", "error"),
    "memory_remember": _mine(
        _mcp("memory_remember", {"value": "User owns a green kayak"}), "ok", "ok", "error"
    ),
    "memory_forget": _mine(_mcp("memory_forget", {"value": "kayak"}), "ok", "ok", "error"),
    "create_memory": _mine(_mcp("create_memory", {"content": "User owns a blue kayak"}), "ok", "ok", "error"),
    "update_memory": _mine(
        lambda w: _mcp("update_memory", {"id": w.memory_id(), "content": "User owns a canoe"})(w),
        "ok",
        "error",
        "error",
    ),
    "delete_memory": _mine(lambda w: _mcp("delete_memory", {"id": w.memory_id()})(w), "ok", "error", "error"),
    "list_memories": _mine(_mcp("list_memories", {}), "ok", "ok", "error"),
    "search_memory": _mine(_mcp("search_memory", {"query": "kayak"}), "ok", "ok", "error"),
    "forget_memory": _mine(lambda w: _mcp("forget_memory", {"id": w.memory_id()})(w), "ok", "error", "error"),
    "documents_search": _mine(_mcp("documents_search", {"value": "boiler"}), "ok", "ok", "error"),
}
# Commands of POST /api/v1/tool (always 200): "ok" or "error" as the answer says, or the HTTP status.
TOOL_COMMANDS: dict[str, Row] = {
    "memory search": _mine(
        _post("/api/v1/tool", {"device": "memory", "action": "search", "value": "kayak"}), "ok", "ok", "error"
    ),
    "memory forget": _mine(
        _post("/api/v1/tool", {"device": "memory", "action": "forget", "value": "kayak"}), "ok", "ok", "error"
    ),
    "state show": _mine(
        lambda w: Call(
            "/api/v1/tool", {"device": "state", "action": "show", "conversation": w.conversation_id()}
        ),
        "ok",
        "error",
        "error",
    ),
    "state task": _mine(
        lambda w: Call(
            "/api/v1/tool",
            {
                "device": "state",
                "action": "task",
                "value": "water plants",
                "conversation": w.conversation_id(),
            },
        ),
        "ok",
        "error",
        "error",
    ),
    "documents search": _mine(
        _post("/api/v1/tool", {"device": "documents", "action": "search", "value": "boiler"}),
        "ok",
        "ok",
        "error",
    ),
}
MCP_CONTEXT = _mine(
    lambda w: Call(
        "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "memory://context"}}
    ),
    "ok",
    "ok",
    "ok",
)


# the doors of the app ----------------------------------------------------------------------
def _walk(routes: list[Any]) -> Iterator[Any]:
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from _walk(included.routes)
        else:
            yield route


def app_doors(app: FastAPI) -> set[str]:
    """Every route of the app as 'METHOD path' ('WS path' for WebSockets), FastAPI's docs pages aside."""
    doors = set()
    for route in _walk(list(app.routes)):
        if isinstance(route, APIWebSocketRoute):
            doors.add(_row("WS", route.path))
        elif isinstance(route, APIRoute):
            doors.update(_row(m, route.path) for m in (route.methods or set()) - {"HEAD"})
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
        answer = client.request(method, call.path, json=call.body, params=call.query or None, headers=headers)
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


def _check(world: World, method: str, path: str, row: Row) -> list[str]:
    """The callers whose answer differs from the row, or who leaked or changed bob's rows."""
    wrong = []
    for caller, expected in zip(CALLERS, row.expect, strict=True):
        call = row.make(world)
        before = world.fingerprint()
        got, text = _ask(world, method, path, caller, call)
        if got != expected:
            wrong.append(f"{caller}: expected {expected}, got {got} {text[:200]}")
        if caller not in AS_BOB:
            if SECRET in text.lower():
                wrong.append(f"{caller}: the answer shows bob's words: {text[:200]}")
            if caller not in row.changes_bob and world.fingerprint() != before:
                wrong.append(f"{caller}: bob's rows changed")
    return wrong


@pytest.mark.parametrize("door", sorted(MATRIX))
def test_route_answers_each_caller_as_the_table_says(world: World, door: str) -> None:
    method, path = door.split(" ", 1)
    assert _check(world, method, path, MATRIX[door]) == []


@pytest.mark.parametrize("tool", sorted(MCP_TOOLS))
def test_mcp_tool_answers_each_caller_as_the_table_says(world: World, tool: str) -> None:
    assert _check(world, "POST", "/mcp", MCP_TOOLS[tool]) == []


@pytest.mark.parametrize("command", sorted(TOOL_COMMANDS))
def test_tool_command_answers_each_caller_as_the_table_says(world: World, command: str) -> None:
    assert _check(world, "POST", "/api/v1/tool", TOOL_COMMANDS[command]) == []


def test_mcp_context_resource_answers_each_caller_as_the_table_says(world: World) -> None:
    assert _check(world, "POST", "/mcp", MCP_CONTEXT) == []


def test_every_door_has_a_row(world: World) -> None:
    assert app_doors(world.app) ^ set(MATRIX) == set()
    assert {s["function"]["name"] for s in ALL_FUNCTION_SCHEMAS} ^ set(MCP_TOOLS) == set()


# first run: the setup page of a server without an admin ------------------------------------
SETUP_CASES = [  # Host, Origin, the answer to a form post creating the first admin
    ("127.0.0.1:8765", None, 303),
    ("localhost:8765", "http://localhost:8765", 303),
    ("[::1]:8765", "http://[::1]:8765", 303),
    ("127.0.0.1:8765", "https://evil.example", 403),  # a cross-site form post
    ("127.0.0.1:8765", "null", 403),  # the same from a sandboxed frame
    ("evil.example:8765", None, 403),  # DNS rebinding: another site's name resolving to 127.0.0.1
    ("evil.example:8765", "http://evil.example:8765", 403),
]


@pytest.mark.parametrize(("host", "origin", "status"), SETUP_CASES)
def test_setup_refuses_other_sites(tmp_path: Path, host: str, origin: str | None, status: int) -> None:
    settings = load_settings(home=tmp_path / "home", environ={"REVERIE_RAG__REINDEX_ON_STARTUP": "false"})
    headers = {"Host": host} | ({"Origin": origin} if origin else {})
    with TestClient(create_app(settings), base_url=BASE, follow_redirects=False) as client:
        page = client.get("/setup", headers={"Host": host})
        assert page.status_code == (403 if host.startswith("evil") else 200)
        posted = client.post("/setup", data={"name": "mallory", "password": PASSWORD}, headers=headers)
        assert posted.status_code == status, posted.text
        admins = [u.name for u in client.app.state.memory.list_users() if u.is_admin]  # type: ignore[attr-defined]
    assert admins == (["mallory"] if status == 303 else [])
