"""Chat with memory over HTTP: OpenAI-compatible completions, /chat/text and /v1/models, on a fake LLM."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from reverie import Settings
from reverie.assistant import GAVE_UP, MAX_TOOL_ROUNDS, MEMORY_FUNCTIONS
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, Fault, chat_settings_for
from tests.liveserver import live_server

COMPLETIONS = "/v1/chat/completions"
UPSTREAM = "/v1/chat/completions"  # the fake server's path, as the openai_compatible provider calls it
FENCE = "<remembered_user_data>"


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    """A running fake model server."""
    with FakeModelServer() as server:
        yield server


@pytest.fixture
def chat_settings(settings: Settings, fake: FakeModelServer) -> Settings:
    """Settings whose [llm] is the fake server (OpenAI-compatible), with quick failures."""
    return chat_settings_for(settings, fake)


@pytest.fixture
def client(chat_settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """A client of the app, acting as bob unless a request says otherwise."""
    app = create_app(chat_settings, clock=clock)
    with TestClient(app, headers=auth_headers(chat_settings, "bob")) as test_client:
        yield test_client


def _remember(client: TestClient, text: str) -> None:
    response = client.post("/api/v1/memories", json={"text": text})
    assert response.status_code == 201, response.text


def _turns(client: TestClient, conversation_id: int | str) -> list[tuple[str, str]]:
    found = client.get(f"/api/v1/conversations/{conversation_id}")
    assert found.status_code == 200, found.text
    return [(m["role"], m["content"]) for m in found.json()["messages"]]


def _system(fake: FakeModelServer, index: int = -1) -> str:
    messages = fake.requests_to(UPSTREAM)[index].body["messages"]
    assert messages[0]["role"] == "system"
    return str(messages[0]["content"])


def _events(text: str) -> list[dict[str, Any]]:
    data = [line.removeprefix("data: ") for line in text.splitlines() if line.startswith("data: ")]
    assert data[-1] == "[DONE]"
    return [json.loads(item) for item in data[:-1]]


def _content(events: list[dict[str, Any]]) -> str:
    return "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e["choices"])


def _chat(user: str, system: str | None = None, **extra: Any) -> dict[str, Any]:
    messages = ([{"role": "system", "content": system}] if system else []) + [
        {"role": "user", "content": user}
    ]
    return {"model": "gpt-4o-mini", "messages": messages, **extra}


# completions -----------------------------------------------------------------------------
def test_completion_injects_memory_and_records_the_exchange(
    client: TestClient, fake: FakeModelServer
) -> None:
    _remember(client, "User is allergic to shellfish")
    fake.script_chat(["Try a mushroom risotto, no prawns."])
    response = client.post(COMPLETIONS, json=_chat("What should I cook tonight?", "You are Lo-Bug."))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["object"] == "chat.completion" and body["id"].startswith("chatcmpl-")
    assert body["model"] == "fake-chat" and isinstance(body["created"], int)
    assert body["choices"] == [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Try a mushroom risotto, no prawns."},
            "finish_reason": "stop",
        }
    ]
    usage = body["usage"]
    assert (
        usage["prompt_tokens"] > 0
        and usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    )
    # What the upstream model received: the client's system text first, then the fenced memory.
    system = _system(fake)
    assert system.startswith("You are Lo-Bug.") and FENCE in system
    assert "User is allergic to shellfish" in system.split(FENCE, 1)[1]
    upstream = fake.requests_to(UPSTREAM)[-1].body
    assert upstream["model"] == "fake-chat"
    assert {t["function"]["name"] for t in upstream["tools"]} == MEMORY_FUNCTIONS
    assert upstream["messages"][-1] == {"role": "user", "content": "What should I cook tonight?"}
    conversation = response.headers["X-Reverie-Conversation"]
    assert _turns(client, conversation) == [
        ("user", "What should I cook tonight?"),
        ("assistant", "Try a mushroom risotto, no prawns."),
    ]
    # The next request continues the same conversation; a client without a system message gets one.
    fake.script_chat(["Sure."])
    again = client.post(COMPLETIONS, json=_chat("Thanks!"))
    assert again.headers["X-Reverie-Conversation"] == conversation
    assert FENCE in _system(fake) and len(_turns(client, conversation)) == 4


def test_streaming_completion_streams_with_memory(client: TestClient, fake: FakeModelServer) -> None:
    _remember(client, "User's dog is called Bruno")
    fake.script_chat(["Bruno would love a walk in the park today."])
    response = client.post(
        COMPLETIONS,
        json=_chat(
            "Any plans for the dog?", stream=True, tool_choice="none", stream_options={"include_usage": True}
        ),
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    events = _events(response.text)
    assert all(e["object"] == "chat.completion.chunk" for e in events)
    assert events[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert len(events) > 4  # word by word: the upstream model streamed
    assert _content(events) == "Bruno would love a walk in the park today."
    assert events[-2]["choices"][0]["finish_reason"] == "stop"
    assert events[-1]["choices"] == [] and events[-1]["usage"]["completion_tokens"] > 0
    upstream = fake.requests_to(UPSTREAM)[-1].body
    assert upstream["stream"] is True and "tools" not in upstream
    assert FENCE in _system(fake) and "User's dog is called Bruno" in _system(fake)
    assert _turns(client, response.headers["X-Reverie-Conversation"])[-1] == (
        "assistant",
        "Bruno would love a walk in the park today.",
    )


def test_streaming_with_memory_tools_runs_them_first(client: TestClient, fake: FakeModelServer) -> None:
    fake.script_chat(
        [
            {"tool_calls": [{"name": "memory_remember", "arguments": {"value": "User plays the cello"}}]},
            "Noted!",
        ]
    )
    response = client.post(COMPLETIONS, json=_chat("Remember that I play the cello", stream=True))
    assert response.status_code == 200
    assert _content(_events(response.text)) == "Noted!"
    facts = client.get("/api/v1/search", params={"q": "cello"}).json()["facts"]
    assert [f["text"] for f in facts] == ["User plays the cello"]


def test_the_answer_after_memory_functions_streams_word_by_word(
    client: TestClient, fake: FakeModelServer
) -> None:
    """Issue 21 item 5: a streamed reply that used the memory functions is not held back to the end."""
    _remember(client, "User's piano lesson is on Thursday at five")
    answer = "Your piano lesson is on Thursday at five, as usual."
    fake.script_chat(
        [{"tool_calls": [{"name": "memory_search", "arguments": {"value": "piano lesson"}}]}, answer]
    )
    response = client.post(COMPLETIONS, json=_chat("When is my piano lesson?", stream=True))
    assert response.status_code == 200, response.text
    events = _events(response.text)
    pieces = [
        e["choices"][0]["delta"]["content"]
        for e in events
        if e["choices"] and e["choices"][0]["delta"].get("content")
    ]
    assert len(pieces) > 5 and "".join(pieces) == answer  # chunk by chunk, as the model wrote it
    assert events[-1]["choices"][0]["finish_reason"] == "stop"
    first, second = fake.requests_to(UPSTREAM)[-2:]
    assert not first.body.get("stream") and first.body["tools"]  # asked whole, with the functions
    assert second.body["stream"] is True and "tools" not in second.body
    found = second.body["messages"][-1]
    assert found["role"] == "tool" and "piano lesson is on Thursday" in found["content"]
    assert _turns(client, response.headers["X-Reverie-Conversation"])[-1] == ("assistant", answer)
    timing = response.headers["Server-Timing"]
    assert "tools;dur=" in timing and "model;dur=" in timing


def test_a_refused_streamed_answer_after_memory_functions_is_asked_whole(
    client: TestClient, fake: FakeModelServer
) -> None:
    """A provider that will not stream a history with tool calls and no functions: asked whole instead."""
    fake.script_chat(
        [
            {"tool_calls": [{"name": "memory_remember", "arguments": {"value": "User's locker is 42"}}]},
            Fault("error", status=400),
            "Locker 42, noted.",
        ]
    )
    response = client.post(COMPLETIONS, json=_chat("Remember my locker is 42", stream=True))
    assert response.status_code == 200, response.text
    assert _content(_events(response.text)) == "Locker 42, noted."
    last = fake.requests_to(UPSTREAM)[-1].body
    assert not last.get("stream") and last["tools"]
    assert _turns(client, response.headers["X-Reverie-Conversation"])[-1] == (
        "assistant",
        "Locker 42, noted.",
    )


def test_memory_tool_calls_run_for_the_user_and_the_completion_goes_on(
    client: TestClient, fake: FakeModelServer, chat_settings: Settings
) -> None:
    fake.script_chat(
        [
            {
                "tool_calls": [
                    {"name": "memory_remember", "arguments": {"value": "User's sister is called Ines"}}
                ]
            },
            "I'll remember that your sister is Ines.",
        ]
    )
    response = client.post(COMPLETIONS, json=_chat("My sister is called Ines, remember that"))
    assert response.status_code == 200, response.text
    choice = response.json()["choices"][0]
    assert choice["message"]["content"] == "I'll remember that your sister is Ines."
    assert choice["finish_reason"] == "stop" and "tool_calls" not in choice["message"]
    facts = client.get("/api/v1/search", params={"q": "Ines"}).json()["facts"]
    assert [f["text"] for f in facts] == ["User's sister is called Ines"]
    # Stored for bob only.
    other = client.get("/api/v1/search", params={"q": "Ines"}, headers=auth_headers(chat_settings, "carol"))
    assert other.json()["facts"] == []
    second = fake.requests_to(UPSTREAM)[-1].body["messages"]
    assert (
        second[-2]["role"] == "assistant"
        and second[-2]["tool_calls"][0]["function"]["name"] == "memory_remember"
    )
    assert second[-1]["role"] == "tool" and json.loads(second[-1]["content"])["status"] == "stored"
    # Only the user's turn and the final answer are recorded.
    assert _turns(client, response.headers["X-Reverie-Conversation"]) == [
        ("user", "My sister is called Ines, remember that"),
        ("assistant", "I'll remember that your sister is Ines."),
    ]


def test_tool_rounds_are_bounded(client: TestClient, fake: FakeModelServer) -> None:
    call = {"tool_calls": [{"name": "memory_search", "arguments": {"value": "anything"}}]}
    fake.script_chat([call] * (MAX_TOOL_ROUNDS + 1))
    response = client.post(COMPLETIONS, json=_chat("Search forever"))
    assert response.status_code == 200
    assert response.json()["choices"][0]["message"]["content"] == GAVE_UP
    assert len(fake.requests_to(UPSTREAM)) == MAX_TOOL_ROUNDS + 1


def test_client_tools_are_passed_through_and_their_calls_come_back(
    client: TestClient, fake: FakeModelServer
) -> None:
    weather = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
    fake.script_chat([{"tool_calls": [{"name": "get_weather", "arguments": {"city": "Lisbon"}}]}])
    response = client.post(COMPLETIONS, json=_chat("Weather in Lisbon?", tools=[weather]))
    assert response.status_code == 200, response.text
    choice = response.json()["choices"][0]
    assert choice["finish_reason"] == "tool_calls" and choice["message"]["content"] is None
    call = choice["message"]["tool_calls"][0]
    assert call["type"] == "function" and call["function"]["name"] == "get_weather"
    assert json.loads(call["function"]["arguments"]) == {"city": "Lisbon"}
    assert [t["function"]["name"] for t in fake.requests_to(UPSTREAM)[-1].body["tools"]] == ["get_weather"]
    # The client runs its tool and sends the result: forwarded as a tool message, the answer is recorded.
    fake.script_chat(["Sunny, 24 degrees."])
    follow_up = _chat("Weather in Lisbon?", tools=[weather])
    follow_up["messages"] += [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call["id"], "content": '{"sky": "sunny", "celsius": 24}'},
    ]
    answered = client.post(COMPLETIONS, json=follow_up)
    assert answered.json()["choices"][0]["message"]["content"] == "Sunny, 24 degrees."
    sent = fake.requests_to(UPSTREAM)[-1].body["messages"]
    assert sent[-1] == {
        "role": "tool",
        "content": '{"sky": "sunny", "celsius": 24}',
        "tool_call_id": call["id"],
    }
    assert _turns(client, answered.headers["X-Reverie-Conversation"]) == [
        ("user", "Weather in Lisbon?"),
        ("assistant", "Sunny, 24 degrees."),
    ]


def test_upstream_down_is_502_and_the_user_message_is_kept(client: TestClient, fake: FakeModelServer) -> None:
    fake.mode = "down"
    response = client.post(COMPLETIONS, json=_chat("Remember the boiler service is in March"))
    assert response.status_code == 502
    body = response.json()
    assert body["error"]["code"] == "provider_unavailable" and "Cannot reach" in body["error"]["message"]
    conversations = client.get("/api/v1/conversations").json()
    assert _turns(client, conversations[0]["id"]) == [("user", "Remember the boiler service is in March")]
    # The client retries once the model is back: the turn is not recorded twice.
    fake.mode = "ok"
    fake.script_chat(["Got it."])
    retried = client.post(COMPLETIONS, json=_chat("Remember the boiler service is in March"))
    assert retried.status_code == 200
    assert _turns(client, conversations[0]["id"]) == [
        ("user", "Remember the boiler service is in March"),
        ("assistant", "Got it."),
    ]


def test_upstream_down_while_streaming_is_502(client: TestClient, fake: FakeModelServer) -> None:
    fake.mode = "down"
    response = client.post(COMPLETIONS, json=_chat("Hello?", stream=True, tool_choice="none"))
    assert response.status_code == 502 and response.json()["error"]["code"] == "provider_unavailable"


def test_upstream_timeout_is_504(client: TestClient, fake: FakeModelServer, chat_settings: Settings) -> None:
    chat_settings.llm.timeout_seconds = 0.3
    fake.set_mode("slow", delay=5.0)
    started = time.monotonic()
    response = client.post(COMPLETIONS, json=_chat("Are you there?"))
    assert response.status_code == 504, response.text
    assert (
        response.json()["error"]["code"] == "provider_timeout"
        and "did not answer within" in response.json()["error"]["message"]
    )
    assert time.monotonic() - started < 4
    conversations = client.get("/api/v1/conversations").json()
    assert _turns(client, conversations[0]["id"]) == [("user", "Are you there?")]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"model": "x"}, 422),
        ({"model": "x", "messages": []}, 422),
        ({"model": "x", "messages": [{"role": "wizard", "content": "hi"}]}, 422),
        ({"model": "x", "messages": [{"role": "user", "content": "hi"}], "n": 2}, 422),
        ({"model": "x", "messages": [{"role": "user", "content": "hi"}], "temperature": 5}, 422),
        (
            {
                "model": "x",
                "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}],
            },
            400,
        ),
    ],
)
def test_malformed_requests_are_refused(
    client: TestClient, fake: FakeModelServer, body: dict[str, Any], status: int
) -> None:
    response = client.post(COMPLETIONS, json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == "invalid_input" and response.json()["error"]["message"]
    assert fake.requests_to(UPSTREAM) == []


def test_bad_json_bad_header_and_unknown_conversation(client: TestClient, fake: FakeModelServer) -> None:
    bad = client.post(COMPLETIONS, content=b'{"messages": [', headers={"Content-Type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_input"
    header = client.post(COMPLETIONS, json=_chat("hi"), headers={"X-Reverie-Conversation": "abc"})
    assert header.status_code == 422
    missing = client.post(COMPLETIONS, json=_chat("hi"), headers={"X-Reverie-Conversation": "999"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert fake.requests_to(UPSTREAM) == []


def test_text_parts_conversation_header_and_private(client: TestClient, fake: FakeModelServer) -> None:
    started = client.post("/api/v1/conversations", json={"interface": "webchat"}).json()
    body = {
        "model": "x",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi from the web"}]}],
    }
    response = client.post(
        COMPLETIONS,
        json=body,
        headers={"X-Reverie-Conversation": str(started["id"]), "X-Reverie-Private": "true"},
    )
    assert response.status_code == 200, response.text
    assert response.headers["X-Reverie-Conversation"] == str(started["id"])
    conversation = client.get(f"/api/v1/conversations/{started['id']}").json()
    assert conversation["private"] is True and conversation["interface"] == "webchat"
    assert [m["content"] for m in conversation["messages"]] == ["Hi from the web", "OK"]


def test_guest_gets_a_reply_and_no_memory(
    client: TestClient, fake: FakeModelServer, chat_settings: Settings
) -> None:
    _remember(client, "User is allergic to shellfish")
    guest = auth_headers(chat_settings, interface="garage")  # not in [memory.voice_mapping]
    fake.script_chat(["Hello, visitor."])
    response = client.post(COMPLETIONS, json=_chat("What am I allergic to?"), headers=guest)
    assert response.status_code == 200, response.text
    assert response.json()["choices"][0]["message"]["content"] == "Hello, visitor."
    assert "X-Reverie-Conversation" not in response.headers
    upstream = fake.requests_to(UPSTREAM)[-1].body
    assert upstream["messages"] == [{"role": "user", "content": "What am I allergic to?"}]
    assert "tools" not in upstream
    for user in ("default", "bob"):
        assert client.get("/api/v1/conversations", headers=auth_headers(chat_settings, user)).json() == []
    # The mapped kitchen speaker is bob: his memory, a conversation on the kitchen interface.
    kitchen = client.post(
        COMPLETIONS, json=_chat("Dinner ideas?"), headers=auth_headers(chat_settings, interface="kitchen")
    )
    assert kitchen.status_code == 200
    assert "User is allergic to shellfish" in _system(fake)
    conversation = client.get(f"/api/v1/conversations/{kitchen.headers['X-Reverie-Conversation']}").json()
    assert conversation["interface"] == "kitchen"


def test_per_exchange_extraction_runs_in_the_background(
    chat_settings: Settings, clock: Clock, fake: FakeModelServer
) -> None:
    chat_settings.memory.extraction.auto_extract = True
    app = create_app(chat_settings, clock=clock)
    with TestClient(app, headers=auth_headers(chat_settings, "bob")) as client:
        # The reply, then the extraction: with [memory.extraction] unset, the [llm] model extracts.
        extracted = json.dumps([{"fact": "The user lives in Atlanta", "type": "personal"}])
        fake.script_chat(["Atlanta is lovely in spring.", extracted])
        response = client.post(COMPLETIONS, json=_chat("I live in Atlanta"))
        assert response.status_code == 200
        app.state.memory.background.wait(10)
        facts = client.get("/api/v1/search", params={"q": "Atlanta"}).json()["facts"]
        assert facts and facts[0]["source"] == "inferred"
        assert facts[0]["text"] == "The user lives in Atlanta"


def test_no_upstream_model_is_a_clear_error(settings: Settings, clock: Clock) -> None:
    settings.embeddings.enabled = False
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings, "bob")) as client:
        response = client.post(COMPLETIONS, json=_chat("hi"))
        error = response.json()["error"]  # OpenAI's shape, which its SDKs read
        assert response.status_code == 503 and error["code"] == "not_configured"
        assert "[llm]" in error["message"] and str(settings.config_file) in error["message"]
        assert client.get("/v1/models").json() == {"object": "list", "data": []}


# /chat/text and /v1/models ------------------------------------------------------------------
def test_chat_text_keeps_the_conversation(client: TestClient, fake: FakeModelServer) -> None:
    _remember(client, "User works at NASA")
    fake.script_chat(["Nice to meet you, Alex.", "You work at NASA."])
    first = client.post("/chat/text", json={"text": "My name is Alex"})
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["text"] == "Nice to meet you, Alex." and body["guest"] is False
    turns = client.get(f"/api/v1/conversations/{body['conversation_id']}").json()["messages"]
    assert [(m["id"], m["role"], m["content"]) for m in turns][-1] == (
        body["message_id"],
        "assistant",
        "Nice to meet you, Alex.",
    )
    second = client.post("/chat/text", json={"text": "Where do I work?"}).json()
    assert second["text"] == "You work at NASA." and second["conversation_id"] == body["conversation_id"]
    sent = fake.requests_to(UPSTREAM)[-1].body["messages"]
    assert [(m["role"], m["content"]) for m in sent[1:]] == [
        ("user", "My name is Alex"),
        ("assistant", "Nice to meet you, Alex."),
        ("user", "Where do I work?"),
    ]
    assert "User works at NASA" in sent[0]["content"]
    assert len(_turns(client, body["conversation_id"])) == 4
    assert client.post("/chat/text", json={"text": ""}).status_code == 422


def test_chat_text_retry_after_the_model_was_down(client: TestClient, fake: FakeModelServer) -> None:
    fake.mode = "down"
    failed = client.post("/chat/text", json={"text": "Is the boiler serviced?"})
    assert failed.status_code == 502 and failed.json()["error"] == "provider_unavailable"
    fake.mode = "ok"
    fake.script_chat(["Yes, in March."])
    retried = client.post("/chat/text", json={"text": "Is the boiler serviced?"}).json()
    sent = fake.requests_to(UPSTREAM)[-1].body["messages"]
    assert [m["content"] for m in sent if m["role"] == "user"] == ["Is the boiler serviced?"]
    assert _turns(client, retried["conversation_id"]) == [
        ("user", "Is the boiler serviced?"),
        ("assistant", "Yes, in March."),
    ]


def test_models_lists_the_upstream_model(client: TestClient) -> None:
    response = client.get("/v1/models")
    assert response.status_code == 200
    assert response.json() == {
        "object": "list",
        "data": [{"id": "fake-chat", "object": "model", "created": 0, "owned_by": "openai_compatible"}],
    }


def test_chat_routes_need_a_credential(chat_settings: Settings, clock: Clock) -> None:
    with TestClient(create_app(chat_settings, clock=clock)) as anonymous:
        for method, path in (("GET", "/v1/models"), ("POST", COMPLETIONS), ("POST", "/chat/text")):
            response = anonymous.request(method, path, json=_chat("hi"))
            assert response.status_code == 401, (path, response.text)


# through a real server -------------------------------------------------------------------
def test_streaming_through_uvicorn(chat_settings: Settings, fake: FakeModelServer) -> None:
    headers = auth_headers(chat_settings, "bob")
    fake.script_chat(["The garage door code is in your notes."])
    with (
        live_server(chat_settings) as url,
        httpx.Client(base_url=f"{url}/v1", headers=headers, timeout=10) as http,
    ):
        body = _chat("Where is the garage code?", stream=True, tool_choice="none")
        with http.stream("POST", "/chat/completions", json=body) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            lines = [line for line in response.iter_lines() if line]
        models = http.get("/models").json()
    events = _events("\n".join(lines))
    assert _content(events) == "The garage door code is in your notes."
    assert events[-1]["choices"][0]["finish_reason"] == "stop"
    assert models["data"][0]["id"] == "fake-chat"
