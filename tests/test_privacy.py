"""Privacy as invariants, written once and run on every door into a conversation.

Doors: the OpenAI proxy (``POST /v1/chat/completions``), ``POST /chat/text``, the live-session
WebSocket, ``reverie chat`` and MCP. The model server is the fake one (tests/fakeserver.py),
which records every request: the conversation model is ``fake-chat``, the model that extracts,
detects topics, summarises and runs the cascades is ``fake-extract`` (per-exchange extraction
on, cascade thresholds at their lowest, one topic to detect), so whatever reaches them shows.

1. A private conversation's words reach no extractor, topic detection, summary, cascade,
   observation (power phrases), memory, topic file or log line; the only model requests that
   carry them are the replies of the private turns themselves, and they never come back into
   a later prompt or search.
2. A guest (a device of an unmapped interface) gets replies and nothing is stored: every table
   keeps its row count and no model request is made besides the replies.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from engines import settings_rows
from fastapi.testclient import TestClient

from reverie import Memory, Settings, load_settings
from reverie.cli import cli
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.fakeserver import FakeModelServer, chat_settings_for
from tests.liveserver import live_server

WORD = "marzipan"  # in every private turn, and nowhere else
PRIVATE_TURNS = [
    f"The {WORD} surprise for Ana is hidden in the attic",
    f"Remember that the {WORD} box is behind the skis",
    f"I prefer {WORD} over nougat",
]
TABLES = (
    "users", "conversations", "messages", "memories", "summaries", "base_memory", "topics", "topic_index",
    "topic_memories", "working_state", "audit_log", "pending_confirmations", "interface_mappings",
)  # fmt: skip


@dataclass
class World:
    """A home with bob (who has one topic, so topic detection has something to detect) and the fake model."""

    settings: Settings
    fake: FakeModelServer
    env: dict[str, str]
    client: TestClient | None = None

    @property
    def bob(self) -> dict[str, str]:
        """Bob's API token."""
        return auth_headers(self.settings, "bob")

    @property
    def guest(self) -> dict[str, str]:
        """A device token of an unmapped interface."""
        return auth_headers(self.settings, interface="hall")

    def http(self) -> TestClient:
        """The running app."""
        assert self.client is not None
        return self.client

    def extractor_requests(self) -> list[str]:
        """Every request that reached the extraction model, as text."""
        return [json.dumps(r.body) for r in self.fake.requests if _model(r.body) == "fake-extract"]

    def chat_requests(self) -> list[str]:
        """Every request that reached the conversation model, as text."""
        return [json.dumps(r.body) for r in self.fake.requests if _model(r.body) == "fake-chat"]


def _model(body: Any) -> str:
    return str(body.get("model", "")) if isinstance(body, dict) else ""


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """The server on a fresh home, and the same settings as environment for `reverie chat`."""
    with FakeModelServer() as fake:
        env = {
            "REVERIE_HOME": str(tmp_path / "home"),
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
            "REVERIE_RAG__REINDEX_ON_STARTUP": "false",
            "REVERIE_EMBEDDINGS__ENABLED": "false",
            "REVERIE_LLM__PROVIDER": "openai_compatible",
            "REVERIE_LLM__ENDPOINT": f"{fake.url}/v1",
            "REVERIE_LLM__MODEL": "fake-chat",
            "REVERIE_LLM__MAX_ATTEMPTS": "1",
            "REVERIE_MEMORY__EXTRACTION__PROVIDER": "openai_compatible",
            "REVERIE_MEMORY__EXTRACTION__ENDPOINT": f"{fake.url}/v1",
            "REVERIE_MEMORY__EXTRACTION__MODEL": "fake-extract",
            "REVERIE_MEMORY__EXTRACTION__AUTO_EXTRACT": "true",
            "REVERIE_MEMORY__EXTRACTION__MAX_ATTEMPTS": "1",
            "REVERIE_MEMORY__EXTRACTION__SHORT_TERM_THRESHOLD": "2",
            "REVERIE_MEMORY__EXTRACTION__SHORT_TERM_KEEP": "0",
            "REVERIE_MEMORY__EXTRACTION__LONG_TERM_THRESHOLD": "2",
            "REVERIE_MEMORY__EXTRACTION__LONG_TERM_KEEP": "0",
            "REVERIE_DEFAULT_USER": "bob",
        }
        settings = chat_settings_for(load_settings(home=tmp_path / "home", environ=env), fake)
        with Memory(settings) as memory:
            book = memory.for_user("bob").topics
            book.folder.mkdir(parents=True, exist_ok=True)
            (book.folder / "cooking.md").write_text(
                "# Cooking\n\n- [2026-01-15] User bakes bread on Sundays\n"
            )
            book.sync()
            memory.add_summary("Talked about baking bread.")  # the long-term cascade needs two
        world = World(settings, fake, env)
        with TestClient(create_app(settings)) as client:
            world.client = client
            yield world


@pytest.fixture
def every_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Records of every logger, Reverie's and uvicorn's included (the server's log config stops
    them from reaching the root logger, where caplog listens)."""
    caplog.set_level(logging.DEBUG)
    loggers = [logging.getLogger(name) for name in ("reverie", "uvicorn", "uvicorn.access", "uvicorn.error")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(caplog.handler)
        logger.setLevel(logging.DEBUG)
    yield caplog
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(caplog.handler)
        logger.setLevel(level)


# the doors ------------------------------------------------------------------------------------
Converse = Callable[[World, list[str], dict[str, str], bool], None]


def _wait(world: World) -> None:
    """Let the server's background work (per-exchange extraction, topic detection) finish."""
    world.http().app.state.memory.background.wait(30)  # type: ignore[attr-defined]


def _end_http(world: World, headers: dict[str, str], conversation: str | int | None) -> None:
    if conversation is not None:
        ended = world.http().post(f"/api/v1/conversations/{conversation}/end", headers=headers)
        assert ended.status_code == 200, ended.text


def _proxy(world: World, texts: list[str], headers: dict[str, str], private: bool) -> None:
    """The OpenAI proxy: one growing message list, as an OpenAI client sends it."""
    sent: list[dict[str, str]] = []
    conversation = None
    for text in texts:
        sent.append({"role": "user", "content": text})
        extra = {"X-Reverie-Private": "true"} if private else {}
        if conversation is not None:
            extra["X-Reverie-Conversation"] = conversation
        answer = world.http().post(
            "/v1/chat/completions", json={"model": "x", "messages": sent}, headers={**headers, **extra}
        )
        assert answer.status_code == 200, answer.text
        conversation = answer.headers.get("X-Reverie-Conversation")
        sent.append({"role": "assistant", "content": answer.json()["choices"][0]["message"]["content"]})
    _wait(world)
    _end_http(world, headers, conversation)


def _text(world: World, texts: list[str], headers: dict[str, str], private: bool) -> None:
    """Lo-Bug's /chat/text: the server keeps the conversation."""
    conversation: int | None = None
    for text in texts:
        extra = {"X-Reverie-Private": "true"} if private else {}
        answer = world.http().post("/chat/text", json={"text": text}, headers={**headers, **extra})
        assert answer.status_code == 200, answer.text
        conversation = answer.json()["conversation_id"]
    _wait(world)
    _end_http(world, headers, conversation)


def _websocket(world: World, texts: list[str], headers: dict[str, str], private: bool) -> None:
    """The live session: hello, turns with replies, then the socket closes (which ends the session)."""
    with world.http().websocket_connect("/api/v1/sessions/ws", headers=headers) as ws:
        ws.send_json({"type": "hello", "private": private})
        assert ws.receive_json()["type"] == "ready"
        for text in texts:
            ws.send_json({"type": "message", "role": "user", "content": text, "reply": True})
            while (frame := ws.receive_json())["type"] != "reply":
                assert frame["type"] != "error", frame
        _wait(world)
    _wait(world)


def _cli(world: World, texts: list[str], headers: dict[str, str], private: bool) -> None:
    """`reverie chat` (as the default user, bob); leaving it ends and consolidates the session."""
    args = ["chat", "--private"] if private else ["chat"]
    done = CliRunner().invoke(cli, args, input="".join(f"{t}\n" for t in texts), env=world.env)
    assert done.exit_code == 0, done.output


DOORS: dict[str, Converse] = {"proxy": _proxy, "text": _text, "websocket": _websocket, "cli": _cli}


def _mcp(world: World, headers: dict[str, str], method: str, params: dict[str, Any]) -> dict[str, Any]:
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    accept = {"Accept": "application/json, text/event-stream"}
    answer = world.http().post("/mcp", json=body, headers={**headers, **accept})
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["result"]
    return result


def _mcp_guest(world: World, texts: list[str], headers: dict[str, str], private: bool) -> None:
    """MCP has no conversation: a guest's device calls the tools that would store something."""
    for text in texts:
        for tool, arguments in (
            ("memory_remember", {"value": text}),
            ("create_memory", {"content": text}),
            ("memory_search", {"value": text}),
        ):
            _mcp(world, headers, "tools/call", {"name": tool, "arguments": arguments})


def _rest_guest(world: World, texts: list[str], headers: dict[str, str], private: bool) -> None:
    """The REST API's writes, as a guest's device would try them."""
    http = world.http()
    for text in texts:
        for method, path, body, status in (
            ("POST", "/api/v1/observe", {"utterance": text}, 200),
            ("POST", "/api/v1/memories", {"text": text}, 409),
            ("PUT", "/api/v1/preferences/sweets", {"value": text}, 409),
            ("POST", "/api/v1/tool", {"device": "memory", "action": "remember", "value": text}, 200),
            ("POST", "/api/v1/conversations", {"interface": "hall"}, 409),
        ):
            assert http.request(method, path, json=body, headers=headers).status_code == status, path


GUEST_DOORS: dict[str, Converse] = {
    "proxy": _proxy,
    "text": _text,
    "websocket": _websocket,
    "mcp": _mcp_guest,
    "rest": _rest_guest,
}
# `reverie chat` has no guest: it always speaks for a user (--user, or the default one).


# what happens after a session ----------------------------------------------------------------
def _consolidate(world: World) -> None:
    """What the workers do after sessions: both cascades for bob, consolidation, the cascades again.

    The cascades run first too: consolidation marks its turns summarized, and the short-term
    cascade must meet the turns (the private ones among them) before it does.
    """
    with Memory(world.settings) as memory:
        worker = memory.consolidator()
        worker.run_cascades(memory.for_user("bob"))
        worker.run_pending()
        worker.run_cascades(memory.for_user("bob"))


_STEPS = (  # words of each prompt that reaches the extraction model
    "into one of their existing conversation topics",  # topic detection
    "extract long-term facts about the user from one exchange",  # per-exchange extraction
    "CONVERSATION TRANSCRIPT",  # consolidation
    "Summarize the conversation turns below",  # the short-term cascade
    "You maintain a short profile document",  # the long-term cascade
)


def _bob_keeps(world: World) -> list[str]:
    """Everything kept about bob besides the conversation log: memories, summaries, base memory, topics."""
    with Memory(world.settings) as memory:
        bob = memory.for_user("bob")
        kept = [row.text for row in bob.list_memories(status="all", limit=1000)]
        kept += [row.text for row in bob.summaries(limit=1000)]
        kept.append(bob.base_memory())
        kept += [path.read_text() for path in sorted(bob.topics.folder.glob("*")) if path.is_file()]
    return kept


def _readers(world: World) -> list[str]:
    """What bob's later prompts and searches can show: REST search and context, MCP tools and resource."""
    http, bob = world.http(), world.bob
    found = http.get("/api/v1/search", params={"q": WORD}, headers=bob).json()
    context = http.get("/api/v1/context", params={"q": f"Where is the {WORD}?"}, headers=bob).json()
    seen = [
        json.dumps({key: value for key, value in found.items() if key not in ("query", "terms")}),
        context["text"],
        json.dumps(_mcp(world, bob, "tools/call", {"name": "memory_search", "arguments": {"value": WORD}})),
        json.dumps(_mcp(world, bob, "tools/call", {"name": "memory_recent", "arguments": {"value": "7d"}})),
        json.dumps(_mcp(world, bob, "resources/read", {"uri": "memory://context"})),
    ]
    return seen


def _counts(world: World) -> dict[str, int]:
    return {table: settings_rows(world.settings, f"SELECT COUNT(*) FROM {table}")[0][0] for table in TABLES}


# the invariants ---------------------------------------------------------------------------------
@pytest.mark.parametrize("door", sorted(DOORS))
def test_a_private_conversation_reaches_nothing(
    world: World, door: str, every_log: pytest.LogCaptureFixture
) -> None:
    DOORS[door](world, PRIVATE_TURNS, world.bob, True)
    _consolidate(world)
    during = len(world.chat_requests())
    DOORS[door](world, ["I host my in-laws tonight, what to cook?", "And for dessert?"], world.bob, False)
    _consolidate(world)

    carrying = [WORD in request for request in world.chat_requests()]
    assert carrying[:during] == [True] * len(PRIVATE_TURNS), "each private turn gets its reply"
    assert carrying[during:] == [False] * (len(carrying) - during) and len(carrying) > during
    assert world.extractor_requests(), "the extractor, topic detection and cascades did run"
    prompts = " ".join(world.extractor_requests())
    # `reverie chat` consolidates as it exits, which marks its turns summarized before a cascade runs.
    steps = _STEPS[:3] if door == "cli" else _STEPS
    assert [step for step in steps if step not in prompts] == [], "every step that learns ran"
    assert [r for r in world.extractor_requests() if WORD in r] == []
    assert [text for text in _bob_keeps(world) if WORD in text.lower()] == []
    logged = [
        r.getMessage() for r in every_log.records if not r.name.startswith("httpx")
    ]  # not the test's own
    assert [line for line in logged if WORD in line.lower()] == []
    assert [text for text in _readers(world) if WORD in text.lower()] == []


@pytest.mark.parametrize("door", sorted(GUEST_DOORS))
def test_a_guest_session_stores_nothing(world: World, door: str) -> None:
    headers = world.guest
    before = _counts(world)
    GUEST_DOORS[door](world, PRIVATE_TURNS, headers, False)
    _consolidate(world)
    assert _counts(world) == before
    assert world.extractor_requests() == []
    assert len(world.chat_requests()) == (0 if door in ("mcp", "rest") else len(PRIVATE_TURNS))


def test_a_private_conversation_leaves_no_words_in_the_access_log(
    world: World, every_log: pytest.LogCaptureFixture
) -> None:
    """Through a real server with its access log on: a private turn, and a client asking memory about it."""
    bob, private = world.bob, {"X-Reverie-Private": "true"}
    access_log = logging.getLogger("uvicorn.access")
    with (
        live_server(world.settings, log_level="info") as base,
        httpx.Client(base_url=base, headers=bob) as http,
    ):
        access_log.addHandler(every_log.handler)  # the server's log config has just replaced its handlers
        said = http.post("/chat/text", json={"text": PRIVATE_TURNS[0]}, headers=private)
        assert said.status_code == 200, said.text
        conversation = said.json()["conversation_id"]
        for path, query in [
            ("/api/v1/search", {"q": WORD}),
            ("/api/v1/context", {"q": f"the {WORD} surprise"}),
            (f"/api/v1/conversations/{conversation}", {"limit": 5}),
        ]:
            assert http.get(path, params=query).status_code == 200
        assert http.post(f"/api/v1/conversations/{conversation}/end").status_code == 200
    access_log.removeHandler(every_log.handler)
    access = [r.getMessage() for r in every_log.records if r.name == "uvicorn.access"]
    assert len(access) >= 5, "the access log was on"
    assert [line for line in access if WORD in line.lower()] == []
