"""The fake model server speaks the Ollama, OpenAI and Anthropic wire formats and injects faults."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import fakeserver
import httpx
import pytest
from fakeserver import FakeModelServer, Fault

fake_server = fakeserver.fake_server  # the fixture (tests/conftest.py may provide it instead)


def _post(
    server: FakeModelServer, path: str, body: Mapping[str, Any], timeout: float = 5.0
) -> httpx.Response:
    # verify=False: plain HTTP, and it spares loading the CA bundle (~0.1 s) on every call
    return httpx.post(f"{server.url}{path}", json=body, timeout=timeout, verify=False)


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_embeddings_are_deterministic_unit_vectors_close_for_shared_words(
    fake_server: FakeModelServer,
) -> None:
    cat, cats, tax = (fake_server.embed(t) for t in ("my cat Miso", "Miso the cat", "income tax return"))
    assert len(cat) == 8 and math.isclose(math.fsum(x * x for x in cat), 1.0)
    assert cat == FakeModelServer(dimensions=8).embed("My CAT, miso!")
    assert _cosine(cat, cats) > _cosine(cat, tax)
    fake_server.synonyms["feline"] = "cat"
    assert fake_server.embed("feline") == fake_server.embed("cat")
    assert len(fake_server.embed("", 32)) == 32


def test_ollama_embed_chat_and_tags(fake_server: FakeModelServer) -> None:
    reply = _post(fake_server, "/api/embed", {"model": "m", "input": ["a b", "c"]}).json()
    assert reply == {"model": "m", "embeddings": [fake_server.embed("a b"), fake_server.embed("c")]}
    single = _post(fake_server, "/api/embed", {"model": "m", "input": "a b"}).json()
    assert single["embeddings"] == [fake_server.embed("a b")]

    fake_server.script_chat(["Hello there.", {"facts": ["x"]}])
    body = {"model": "chat", "messages": [{"role": "user", "content": "hi"}], "stream": False}
    chat = _post(fake_server, "/api/chat", body).json()
    assert chat["message"] == {"role": "assistant", "content": "Hello there."} and chat["done"] is True
    as_json = _post(fake_server, "/api/chat", {**body, "format": "json"}).json()
    assert json.loads(as_json["message"]["content"]) == {"facts": ["x"]}
    assert _post(fake_server, "/api/chat", body).json()["message"]["content"] == "OK"  # default

    fake_server.script_chat(["streamed by default"])
    lines = _post(fake_server, "/api/chat", {"model": "chat", "messages": []}).text.splitlines()
    parts = [json.loads(line) for line in lines]
    assert "".join(p["message"]["content"] for p in parts) == "streamed by default"
    assert parts[-1]["done"] is True and not any(p["done"] for p in parts[:-1])

    tags = httpx.get(f"{fake_server.url}/api/tags", verify=False).json()
    assert [m["name"] for m in tags["models"]] == ["fake-embed", "fake-chat"]


def test_openai_embeddings_chat_tool_calls_and_models(fake_server: FakeModelServer) -> None:
    reply = _post(fake_server, "/v1/embeddings", {"model": "e", "input": ["x", "y z"]}).json()
    assert reply["object"] == "list" and reply["model"] == "e"
    assert [(d["object"], d["index"]) for d in reply["data"]] == [("embedding", 0), ("embedding", 1)]
    assert reply["data"][1]["embedding"] == fake_server.embed("y z")

    fake_server.script_chat(["plain", {"tool_calls": [{"name": "remember", "arguments": {"text": "t"}}]}])
    body = {"model": "c", "messages": [{"role": "user", "content": "hi"}]}
    first = _post(fake_server, "/v1/chat/completions", body).json()
    assert first["choices"][0]["message"]["content"] == "plain"
    assert first["choices"][0]["finish_reason"] == "stop"
    second = _post(fake_server, "/v1/chat/completions", body).json()["choices"][0]
    assert second["finish_reason"] == "tool_calls"
    call = second["message"]["tool_calls"][0]
    assert call["type"] == "function" and call["function"]["name"] == "remember"
    assert json.loads(call["function"]["arguments"]) == {"text": "t"}

    models = httpx.get(f"{fake_server.url}/v1/models", verify=False).json()
    assert models["object"] == "list" and [m["id"] for m in models["data"]] == fake_server.models


def test_openai_streaming_is_server_sent_events(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(["one two  three"])
    body = {"model": "c", "messages": [], "stream": True}
    with httpx.stream("POST", f"{fake_server.url}/v1/chat/completions", json=body, verify=False) as response:
        assert response.headers["content-type"] == "text/event-stream"
        events = [line for line in response.iter_lines() if line]
    assert all(e.startswith("data: ") for e in events) and events[-1] == "data: [DONE]"
    chunks = [json.loads(e.removeprefix("data: ")) for e in events[:-1]]
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
    assert text == "one two  three"
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop" and len(chunks) > 3


def test_anthropic_messages(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(["Bonjour", {"tool_calls": [{"name": "search", "arguments": {"q": "x"}}]}])
    body = {"model": "claude", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
    text = _post(fake_server, "/v1/messages", body).json()
    assert text["content"] == [{"type": "text", "text": "Bonjour"}] and text["stop_reason"] == "end_turn"
    tool = _post(fake_server, "/v1/messages", body).json()
    assert tool["stop_reason"] == "tool_use"
    assert tool["content"] == [{"type": "tool_use", "id": "toolu_0", "name": "search", "input": {"q": "x"}}]


def test_requests_are_recorded_with_headers(fake_server: FakeModelServer) -> None:
    headers = {"Authorization": "Bearer k"}
    httpx.post(f"{fake_server.url}/v1/embeddings", json={"input": "x"}, headers=headers, verify=False)
    assert _post(fake_server, "/nowhere", {}).status_code == 404
    first, second = fake_server.requests
    assert (first.method, first.path, first.body) == ("POST", "/v1/embeddings", {"input": "x"})
    assert first.headers["authorization"] == "Bearer k"
    assert second.path == "/nowhere" and fake_server.requests_to("/nowhere") == [second]


def test_fault_modes(fake_server: FakeModelServer) -> None:
    body = {"model": "m", "input": "x"}
    fake_server.set_mode("error", status=429, path="/api/embed")
    assert _post(fake_server, "/api/embed", body).status_code == 429
    assert _post(fake_server, "/v1/embeddings", body).status_code == 200  # only that path
    fake_server.mode = "malformed"
    response = _post(fake_server, "/v1/embeddings", body)
    assert response.status_code == 200
    with pytest.raises(ValueError):
        response.json()
    fake_server.mode = "wrong_shape"
    assert _post(fake_server, "/v1/embeddings", body).json() == {"unexpected": True}
    fake_server.set_mode("slow", delay=0.5)
    with pytest.raises(httpx.ReadTimeout):
        _post(fake_server, "/v1/embeddings", body, timeout=0.1)
    fake_server.set_mode("down", path="/v1/embeddings")
    with pytest.raises(httpx.TransportError):
        _post(fake_server, "/v1/embeddings", body)


def test_down_refuses_connections_then_comes_back_on_the_same_port(fake_server: FakeModelServer) -> None:
    url = fake_server.url
    fake_server.mode = "down"
    with pytest.raises(httpx.ConnectError):
        _post(fake_server, "/api/embed", {"input": "x"})
    fake_server.mode = "ok"
    assert fake_server.url == url
    assert _post(fake_server, "/api/embed", {"input": "x"}).status_code == 200


def test_fail_times_then_recover_and_scripted_faults(fake_server: FakeModelServer) -> None:
    fake_server.fail_times(2, "error", status=503)
    fake_server.fail_times(1, "down")
    statuses = [_post(fake_server, "/api/tags", {}).status_code for _ in range(2)]
    assert statuses == [404, 404]  # wrong method: routing answers before any fault is spent
    codes = [_post(fake_server, "/api/embed", {"input": "x"}).status_code for _ in range(2)]
    assert codes == [503, 503]
    with pytest.raises(httpx.TransportError):
        _post(fake_server, "/api/embed", {"input": "x"})
    assert _post(fake_server, "/api/embed", {"input": "x"}).status_code == 200

    fake_server.script_chat([Fault("error", status=500), "after the error"])
    body = {"model": "c", "messages": []}
    assert _post(fake_server, "/v1/chat/completions", body).status_code == 500
    after = _post(fake_server, "/v1/chat/completions", body).json()
    assert after["choices"][0]["message"]["content"] == "after the error"


def test_stop_wakes_a_request_sleeping_in_slow_mode() -> None:
    server = FakeModelServer().start()
    server.set_mode("slow", delay=30)
    started = time.monotonic()
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(_post, server, "/api/embed", {"input": "x"})
        while not server.requests:
            time.sleep(0.01)
        server.stop()
        with pytest.raises(httpx.TransportError):
            pending.result()
    assert time.monotonic() - started < 5


def test_reset_clears_faults_script_and_records(fake_server: FakeModelServer) -> None:
    fake_server.set_mode("error", path="/api/embed")
    fake_server.set_mode("malformed")
    fake_server.fail_times(3)
    fake_server.script_chat(["x"])
    _post(fake_server, "/api/tags", {})
    fake_server.reset()
    assert fake_server.requests == [] and fake_server.mode == "ok"
    assert _post(fake_server, "/api/embed", {"input": "x"}).status_code == 200
    chat = _post(fake_server, "/api/chat", {"messages": [], "stream": False}).json()
    assert chat["message"]["content"] == "OK"
