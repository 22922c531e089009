"""Inputs an attacker would try (issue 17): absurd times and numbers, deep JSON, huge texts, bad rows.

Each test here failed before its fix: a 500, a stored value that broke later requests, a
quadratic keyword pass, or a worker thread that died for every user on one user's row.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
import time
import tomllib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner
from conftest import Clock
from engines import sql_rows
from fastapi.testclient import TestClient

from reverie import Memory, Settings, load_settings
from reverie.cli import cli
from reverie.errors import InvalidInput, TooLarge
from reverie.server import build_server, create_app
from reverie.server.tomlpatch import toml_value
from reverie.text import keyword_terms
from reverie.tools.memory_tool import run_tool
from tests.apiauth import auth_headers
from tests.fakeserver import FakeModelServer, chat_settings_for

API = "/api/v1"


@pytest.fixture
def client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """A client signed in as the default user (an admin); a crash answers 500 instead of raising."""
    headers = auth_headers(settings, admin=True)
    app = create_app(settings, clock=clock)
    with TestClient(app, headers=headers, raise_server_exceptions=False) as test_client:
        yield test_client


def _status(response: Any, *allowed: int) -> dict[str, Any]:
    assert response.status_code in allowed, (response.status_code, response.text)
    body: dict[str, Any] = response.json()
    return body


def _conversation(client: TestClient) -> int:
    return int(_status(client.post(f"{API}/conversations", json={}), 201)["id"])


# defect 1: a reminder due at an absurd time ---------------------------------------------------
@pytest.mark.parametrize("seconds", [1e12, -1e12, 1e300, 0, -5])
def test_a_reminder_at_an_absurd_time_is_refused_and_not_stored(client: TestClient, seconds: float) -> None:
    conversation = _conversation(client)
    command = {"action": "reminder", "value": "call the plumber", "in": seconds}
    body = _status(client.post(f"{API}/conversations/{conversation}/state", json=command), 400, 422)
    assert "'in'" in body["detail"]
    state = _status(client.get(f"{API}/conversations/{conversation}/state"), 200)
    assert state["state"]["reminders"] == []


def test_a_reminder_due_date_out_of_range_is_refused(memory: Memory) -> None:
    conversation = memory.start_conversation().id
    for due in ("9999-12-31T23:59", "0001-01-01T00:00", "1900-01-01T00:00"):
        command = {"device": "state", "action": "reminder", "value": "x", "due": due}
        answer = run_tool(memory, {**command, "conversation": conversation})
        assert answer.ok is False and "due time" in (answer.data or {})["detail"]
    assert memory.working_state(conversation).reminders == []


def test_a_stored_reminder_out_of_range_breaks_neither_the_state_nor_consolidation(
    client: TestClient, settings: Settings, clock: Clock
) -> None:
    conversation = _conversation(client)
    _status(
        client.post(
            f"{API}/conversations/{conversation}/messages",
            json={"messages": [{"role": "user", "content": "I live in Lisbon"}]},
        ),
        201,
    )
    poisoned = {"reminders": [{"id": 1, "text": "from before the fix", "due_at": 1e15}], "next_id": 2}
    with Memory(settings, clock=clock) as memory:  # a row written by an older version
        memory.scope.put_working_state(conversation, json.dumps(poisoned), clock())
    state = _status(client.get(f"{API}/conversations/{conversation}/state"), 200)
    assert state["lines"] and "9999" in state["lines"][0]
    _status(client.post(f"{API}/conversations/{conversation}/end"), 200)
    with Memory(settings, clock=clock) as memory:
        assert [r.state for r in memory.consolidator().run_pending()] == ["done"]


# defect 2: a message's time ------------------------------------------------------------------
@pytest.mark.parametrize("at", [1e12, 1e20, 0, -100, -1e9, 4102444800])
def test_a_message_time_out_of_range_is_refused(client: TestClient, at: float) -> None:
    conversation = _conversation(client)
    turn = {"role": "user", "content": "hello", "at": at}
    body = _status(
        client.post(f"{API}/conversations/{conversation}/messages", json={"messages": [turn]}), 422
    )
    assert "at" in body["detail"]
    conversations = _status(client.get(f"{API}/conversations"), 200)
    assert all(c["started_at"] >= "2000" for c in conversations)  # type: ignore[index]


def test_the_library_refuses_a_message_time_out_of_range(memory: Memory) -> None:
    conversation = memory.start_conversation().id
    for at in (float("nan"), float("inf"), 1e20, -100.0):
        with pytest.raises(InvalidInput, match="at"):
            memory.add_message(conversation, "user", "hello", at=at)
    with pytest.raises(InvalidInput, match="start time"):
        memory.start_conversation(at=1e20)


def test_a_message_kept_before_the_fix_still_lists(
    client: TestClient, settings: Settings, clock: Clock
) -> None:
    conversation = _conversation(client)
    with Memory(settings, clock=clock) as memory:
        memory.scope.start_conversation("api", 1e20)  # what an older version stored
    listed = _status(client.get(f"{API}/conversations"), 200)
    assert len(listed) == 2 and any(c["id"] == conversation for c in listed)  # type: ignore[index]


# defect 3: numbers out of any range, deep JSON, far dates -------------------------------------
@pytest.mark.parametrize("path", ["memories", "conversations", "summaries", "preferences"])
def test_an_offset_beyond_any_row_is_a_clear_422(client: TestClient, path: str) -> None:
    body = _status(client.get(f"{API}/{path}", params={"offset": 10**30}), 422)
    assert "offset" in body["detail"]


def test_an_offset_beyond_any_row_through_the_library_and_the_cli(memory: Memory) -> None:
    for page in (memory.list_memories, memory.conversations, memory.summaries):
        with pytest.raises(InvalidInput, match="offset"):
            page(offset=10**30)  # type: ignore[operator]
    result = CliRunner().invoke(cli, ["list", "--offset", str(10**30)])
    assert result.exit_code == 1 and "offset" in result.output and "Traceback" not in result.output


def test_a_conversation_id_beyond_any_row_through_the_tool(client: TestClient) -> None:
    for command in (
        {"device": "state", "action": "show", "conversation": 10**30},
        {"device": "state", "action": "reminder", "value": "x", "in": 60, "conversation": -(10**30)},
    ):
        body = _status(client.post(f"{API}/tool", json=command), 200)
        assert body["ok"] is False and "conversation" in body["result"]["detail"]


def _export(**memory: Any) -> dict[str, Any]:
    row = {
        "kind": "fact",
        "source": "explicit",
        "text": "User likes green tea",
        "confidence": 0.9,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        **memory,
    }
    return {"format": "reverie-export", "version": 1, "memories": [row], "summaries": []}


@pytest.mark.parametrize(
    "raw",
    [
        json.dumps(_export(access_count=10**30)),
        json.dumps(_export(reinforcement_count=10**30)),
        json.dumps(_export(access_count=7)).replace("7", "NaN"),
        json.dumps(_export(access_count=7)).replace("7", "Infinity"),
        json.dumps(_export(confidence=0.5)).replace("0.5", "NaN"),
        json.dumps(_export(created_at="0001-01-01T00:00:00+14:00")),
        json.dumps(
            {
                **_export(),
                "summaries": [{"text": "x", "created_at": "2026-01-01T00:00:00Z", "message_count": 10**30}],
            }
        ),
        json.dumps(
            {
                **_export(),
                "summaries": [{"text": "x", "created_at": "2026-01-01T00:00:00Z", "message_count": 1.5}],
            }
        ).replace("1.5", "NaN"),
    ],
)
def test_an_import_with_numbers_out_of_range_is_refused_whole(client: TestClient, raw: str) -> None:
    headers = {"content-type": "application/json"}
    body = _status(client.post(f"{API}/import", content=raw, headers=headers), 400, 422)
    assert body["error"] == "invalid_input"
    assert "memories[0]" in body["detail"] or "summaries[0]" in body["detail"]
    assert _status(client.get(f"{API}/memories"), 200)["memories"] == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/auth/login", {"name": "a\x00b", "password": "whatever pw"}),
        ("PUT", "/interfaces/kitchen", {"user": "bob\x00"}),
        ("POST", "/memories", {"text": "User likes \x00 tea"}),
        ("GET", "/search?q=tea%00", None),
        ("GET", "/topics/a%00b", None),
    ],
)
def test_nul_characters_are_refused_on_both_engines(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    # Found by the schemathesis run on PostgreSQL, whose text columns refuse NUL (a 500 there).
    answer = _status(client.request(method, f"{API}{path}", json=body), 422)
    assert "NUL" in answer["detail"]
    escaped = client.post(f"{API}/memories", json={"text": "User's notes mention \\u0000 literally"})
    assert escaped.status_code == 201, escaped.text


def test_an_import_with_too_many_items_is_refused_as_too_large(memory: Memory) -> None:
    item = {"text": "x", "created_at": "2026-01-01T00:00:00Z"}
    document = {"format": "reverie-export", "version": 1, "memories": [], "summaries": [item] * 100_001}
    with pytest.raises(TooLarge, match="100000"):
        memory.import_(document)


def test_deeply_nested_json_is_refused_before_parsing(client: TestClient) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for path in ("/tool", "/memories", "/import"):
        response = client.post(f"{API}{path}", content=deep, headers={"content-type": "application/json"})
        body = _status(response, 422)
        assert body["error"] == "too_deep" and "64 levels" in body["detail"]
    nested: Any = "ok"
    for _ in range(60):  # deep but within the limit: answered as usual
        nested = [nested]
    _status(client.post(f"{API}/tool", json={"action": "search", "value": "tea", "x": nested}), 200)


def test_deep_json_through_the_tool_and_the_websocket(client: TestClient, memory: Memory) -> None:
    deep = "[" * 5000 + "]" * 5000  # under the tool's and the frame's byte limits
    answer = run_tool(memory, deep)
    assert answer.ok is False and "deeply" in (answer.data or {})["detail"]
    with client.websocket_connect(f"{API}/sessions/ws") as ws:
        ws.send_text(deep)
        frame = ws.receive_json()
        if frame["type"] == "ready":
            frame = ws.receive_json()
        assert frame["type"] == "error" and frame["error"] == "invalid_json" and "deeply" in frame["detail"]
        ws.send_json({"type": "ping"})  # the socket stays open
        frame = ws.receive_json()
        if frame["type"] == "ready":  # the implicit hello, before the first well-formed frame
            frame = ws.receive_json()
        assert frame["type"] == "pong"


@pytest.mark.parametrize(
    "params", [{"date_to": "9999-12-31"}, {"date": "9999-12-31"}, {"date_from": "0001-01-01"}]
)
def test_a_search_to_the_end_of_the_calendar(client: TestClient, params: dict[str, str]) -> None:
    _status(client.post(f"{API}/memories", json={"text": "User likes green tea"}), 201)
    found = _status(client.get(f"{API}/search", params={"q": "tea", **params}), 200)
    assert found["total"] == (0 if params.get("date") else 1)


@pytest.mark.parametrize("q", ["what did I say 99999999999 days ago", "tea in 0001", "10000 years ago"])
def test_a_time_expression_beyond_the_calendar_in_a_message_search(client: TestClient, q: str) -> None:
    # Found by the property tests of find_time_window: the search answered 500 (OverflowError).
    found = _status(client.get(f"{API}/search", params={"q": q, "scope": "messages"}), 200)
    assert found["messages"] == []


def test_a_500_says_connection_close(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/crash", include_in_schema=False)
    def crash() -> None:
        raise RuntimeError("boom")

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/health")
        first = conn.getresponse()
        first.read()
        assert first.status == 200 and first.getheader("connection") != "close"
        conn.request("GET", "/crash")  # the same keep-alive connection
        crashed = conn.getresponse()
        assert crashed.status == 500 and json.loads(crashed.read())["error"] == "internal_error"
        assert crashed.getheader("connection") == "close"
        conn.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


# defect 4: keyword extraction linear in the input ---------------------------------------------
# A guard against a hang (the quadratic extraction took 93-159 s on a 1 MB message), not a speed
# goal: bench/limits_bench.py measures the 1 s goal on a quiet machine.
HANG = 5.0

def test_keyword_terms_is_linear() -> None:
    distinct = " ".join(f"word{i}" for i in range(150_000))  # ~1.3 MB of different words
    started = time.perf_counter()
    terms = keyword_terms(distinct)
    assert time.perf_counter() - started < HANG
    assert terms == [f"word{i}" for i in range(12)]
    assert keyword_terms("the the tea and the tea coffee") == ["tea", "coffee"]


def test_huge_queries_and_messages_are_answered_or_refused_at_once(client: TestClient) -> None:
    conversation = _conversation(client)
    words = " ".join(f"w{i}" for i in range(120_000))  # ~1 MB
    long_query = words[:270_000]
    cases = [
        (lambda: client.post(f"{API}/tool", json={"action": "search", "value": long_query}), (200,)),
        (lambda: client.get(f"{API}/search", params={"q": words[:60_000]}), (413,)),
        (lambda: client.post(f"{API}/forget", json={"query": long_query}), (413,)),
        (
            lambda: client.post(
                f"{API}/conversations/{conversation}/messages",
                json={"messages": [{"role": "user", "content": words}]},
            ),
            (413,),
        ),
        (
            lambda: client.post(
                f"{API}/conversations/{conversation}/messages",
                json={"messages": [{"role": "user", "content": words[:200_000]}]},
            ),
            (413,),
        ),
        (
            lambda: client.post(
                f"{API}/conversations/{conversation}/messages",
                json={"messages": [{"role": "user", "content": words[:65_000]}]},
            ),
            (201,),
        ),
    ]
    for send, statuses in cases:
        started = time.perf_counter()
        response = send()
        assert time.perf_counter() - started < HANG, response.request.url
        body = _status(response, *statuses)
        if response.status_code == 413:
            assert body["error"] == "too_large" and "limit" in body["detail"]
        if response.request.url.path.endswith("/tool"):
            assert body["result"]["error"] == "too_large"


def test_a_1mb_chat_message_is_answered_or_refused_at_once(settings: Settings, clock: Clock) -> None:
    words = " ".join(f"w{i}" for i in range(120_000))[:1_000_000]  # a 1 MB body, just under the cap
    with FakeModelServer() as fake:
        chat_settings_for(settings, fake)
        headers = auth_headers(settings, admin=True)
        with TestClient(create_app(settings, clock=clock), headers=headers) as client:
            assert client.post("/chat/text", json={"text": "hello"}).status_code == 200  # a warm server
            for path, body in (
                ("/chat/text", {"text": words}),
                ("/v1/chat/completions", {"model": "x", "messages": [{"role": "user", "content": words}]}),
                (f"{API}/observe", {"utterance": "remember that " + words}),
                (f"{API}/observe", {"utterance": "I prefer " + "I " * 200_000}),
            ):
                started = time.perf_counter()
                response = client.post(path, json=body)
                assert time.perf_counter() - started < HANG, path
                assert response.status_code in (200, 413), response.text[:300]


def test_the_library_refuses_an_oversized_query(memory: Memory) -> None:
    with pytest.raises(TooLarge, match="limit"):
        memory.search("tea " * 5000)
    with pytest.raises(TooLarge, match="limit"):
        memory.forget("tea " * 5000)


# item 7: workers survive bad rows -----------------------------------------------------------
def _talk(memory: Memory, text: str) -> int:
    conversation = memory.start_conversation().id
    memory.add_message(conversation, "user", text)
    memory.end_conversation(conversation)
    return conversation


def test_the_consolidation_worker_goes_on_past_a_poisoned_row(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as root:
        root.add_user("bob"), root.add_user("carol")
        bob, carol = root.for_user("bob"), root.for_user("carol")
        poisoned = _talk(bob, "I'm vegetarian")
        # A damaged state row (no version writes this): the carry-over of reminders chokes on it.
        damaged = {"reminders": [{"id": 1, "text": "x", "due_at": "soon"}], "next_id": 2}
        bob.scope.put_working_state(poisoned, json.dumps(damaged), clock())
        clock.advance(10)
        fine = _talk(carol, "I live in Porto")
        worker = root.consolidator()
        worker.start(0.05)
        try:
            deadline = time.monotonic() + 20
            while carol.conversation(fine).consolidation_state != "done":
                assert time.monotonic() < deadline, "carol's conversation was never consolidated"
                time.sleep(0.05)
            assert worker.running  # the thread did not die on bob's row
        finally:
            worker.stop()
        failed = bob.conversation(poisoned)
        assert failed.consolidation_state == "failed"
        assert "TypeError" in (failed.last_error or "")
        assert any("Porto" in m.text for m in carol.list_memories(kind="fact"))


def test_maintenance_goes_on_past_a_poisoned_row(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as root:
        root.add_user("bob"), root.add_user("carol")
        bob, carol = root.for_user("bob"), root.for_user("carol")
        bob.remember("User prefers window seats")
        carol.prefer("food", "spicy")
        bob.prefer("drink", "tea")
        # decay_base has no range check: 50 makes the decayed confidence break the CHECK on confidence.
        sql_rows(
            root.store,
            "UPDATE memories SET decay_base = 50 WHERE user_id = ? AND kind = 'preference' RETURNING id",
            (bob.user.id,),
        )  # type: ignore[union-attr]
        clock.advance(30 * 86400)
        report = root.maintainer().run(force=True)
    assert report.ran and report.failed == 1 and report.users == 2  # default and carol
    assert report.errors[0]["user"] == "bob"
    with Memory(settings, clock=clock) as root:
        audit = root.for_user("bob").scope.list_audit()
        assert audit[0].action == "maintenance_failed" and "CHECK" in audit[0].reason.upper()
        assert root.for_user("carol").list_memories(kind="preference")[0].confidence < 1.0


# defect 5: control characters in a setting -------------------------------------------------
@pytest.mark.parametrize("bad", ["llama\x7f3", "llama\x013", "model\nname", "a\x1bb", "x\x85y"])
def test_a_setting_with_control_characters_is_refused_and_the_server_still_starts(
    client: TestClient, settings: Settings, bad: str
) -> None:
    body = _status(client.put(f"{API}/settings", json={"memory.extraction.model": bad}), 422)
    assert "control characters" in body["detail"]
    kept = _status(client.put(f"{API}/settings", json={"memory.extraction.model": "llama 3 ✓"}), 200)
    assert kept["changed"] == ["memory.extraction.model"]
    reloaded = load_settings(home=settings.home, environ={})
    assert reloaded.memory.extraction.model == "llama 3 ✓"


def test_toml_strings_round_trip_every_control_character() -> None:
    text = "".join(chr(code) for code in range(0xA0)) + "\u2028\ufeff"
    assert tomllib.loads(f"value = {toml_value(text)}")["value"] == text


# defect 9: user names that are folders -------------------------------------------------------
@pytest.mark.parametrize("name", [".", "..", "...", " .. "])
def test_dot_user_names_are_refused(client: TestClient, memory: Memory, name: str) -> None:
    body = _status(client.post(f"{API}/users", json={"name": name}), 400, 422)
    assert "not valid" in body["detail"]
    with pytest.raises(InvalidInput, match="not valid"):
        memory.add_user(name)
    result = CliRunner().invoke(cli, ["users", "add", name])
    assert result.exit_code != 0 and "not valid" in result.output


def test_a_dot_user_from_before_gets_a_topics_folder_of_its_own(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as root:
        user = root.store.add_user("..", clock())  # what an older version let through
        book = root.for_user("..").topics
        assert book.folder.name == f"user-{user.id}"
        assert book.folder.parent == settings.home / "topics"


# defect 10: sign-in limits --------------------------------------------------------------------
def _sign_in(app: Any, address: str, name: str, password: str) -> int:
    browser = TestClient(app, client=(address, 50000))  # no lifespan of its own: the app is running
    try:
        return browser.post(f"{API}/auth/login", json={"name": name, "password": password}).status_code
    finally:
        browser.close()


def test_guesses_from_other_addresses_do_not_lock_the_owner_out(settings: Settings, clock: Clock) -> None:
    with Memory(settings) as memory:
        memory.accounts.set_password(memory.add_user("bob"), "bob's long password")
    settings.server.login_max_failures = 2  # each address 2 guesses, the account 8 (fewer argon2 checks)
    app = create_app(settings, clock=clock)
    with TestClient(app):
        assert _sign_in(app, "192.0.2.10", "bob", "bob's long password") == 200  # bob's laptop
        statuses = [_sign_in(app, f"203.0.113.{n // 2}", "bob", "guess guess") for n in range(10)]
        assert statuses[:8] == [401] * 8 and set(statuses[8:]) == {429}
        assert _sign_in(app, "192.0.2.10", "bob", "bob's long password") == 200, "the owner is not locked out"
        assert _sign_in(app, "198.51.100.7", "bob", "bob's long password") == 429  # an address bob never used
        assert _sign_in(app, "198.51.100.7", "carol", "whatever pw") == 401  # other accounts are not locked


def test_wrong_current_passwords_are_rate_limited(settings: Settings, clock: Clock) -> None:
    with Memory(settings) as memory:
        memory.accounts.set_password(memory.add_user("bob"), "first password")
    with TestClient(create_app(settings, clock=clock)) as browser:
        signed_in = browser.post(f"{API}/auth/login", json={"name": "bob", "password": "first password"})
        headers = {"X-CSRF-Token": signed_in.json()["csrf_token"]}
        attempts = [
            browser.post(
                f"{API}/auth/password",
                json={"current_password": f"guess {n}", "new_password": "second password"},
                headers=headers,
            ).status_code
            for n in range(6)
        ]
        assert attempts == [401] * 5 + [429]
        right = {"current_password": "first password", "new_password": "second password"}
        assert browser.post(f"{API}/auth/password", json=right, headers=headers).status_code == 429


# defect 11: the access log keeps no query values ----------------------------------------------
class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_the_access_log_keeps_no_query_values(settings: Settings) -> None:
    headers = auth_headers(settings)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    settings.server.port = sock.getsockname()[1]
    server = build_server(settings, log_level="info")  # the server's own logging setup, access log on
    records = _Records()
    access = logging.getLogger("uvicorn.access")
    access.addHandler(records)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        base = f"http://127.0.0.1:{settings.server.port}"
        with httpx.Client(base_url=base, headers=headers, timeout=10) as http:
            assert http.get(f"{API}/search", params={"q": "my divorce lawyer"}).status_code == 200
            assert http.get(f"{API}/context", params={"q": "chemo schedule"}).status_code == 200
            messages = {"q": "affair", "scope": "messages"}
            assert http.get(f"{API}/search", params=messages).status_code == 200
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        access.removeHandler(records)
    logged = "\n".join(records.lines)
    assert "/api/v1/search?q=…" in logged and "/api/v1/context?q=…" in logged
    for private in ("divorce", "lawyer", "chemo", "affair"):
        assert private not in logged


# defect 12: what anonymous callers and caches get ---------------------------------------------
def test_anonymous_health_shows_no_details(settings: Settings, clock: Clock) -> None:
    settings.llm.provider = "ollama"
    settings.llm.endpoint = "http://127.0.0.1:9/secret-path"
    admin = auth_headers(settings, admin=True)
    user = auth_headers(settings, "bob")
    with TestClient(create_app(settings, clock=clock)) as client:
        for headers in ({}, user, {"Authorization": "Bearer rv_forged"}):
            body = _status(client.get("/health", headers=headers), 200)
            assert body["status"] == "degraded" and body["checks"] == {}
            assert "secret-path" not in json.dumps(body)
        full = _status(client.get("/health", headers=admin), 200)
        assert full["checks"]["llm"]["endpoint"].endswith("/secret-path")
        assert "consolidation" in full["checks"]["store"]


def test_an_export_is_never_cached(client: TestClient) -> None:
    _status(client.post(f"{API}/memories", json={"text": "User likes green tea"}), 201)
    exported = client.get(f"{API}/export")
    assert exported.status_code == 200 and exported.headers["cache-control"] == "no-store"
