"""Chat providers, the chat registry and JSON replies, against the real fake model server.

Every model here is built with a tiny backoff, so the retry paths cost milliseconds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import fakeserver
import pytest
from fakeserver import FakeModelServer, Fault

from reverie.config import Settings, load_settings
from reverie.errors import ConfigError, InvalidInput, ProviderError, ProviderUnavailable
from reverie.llm import (
    AnthropicChatModel,
    ChatMessage,
    ChatModel,
    ChatReply,
    HttpChatModel,
    OllamaChatModel,
    OpenAIChatModel,
    OpenAICompatibleChatModel,
    StreamingChatModel,
    ToolCall,
    accepted_options,
    available_chat_providers,
    chat_model_from_settings,
    create_chat_model,
    parse_json_reply,
    register_chat_provider,
)

fake_server = fakeserver.fake_server  # the fixture (tests/conftest.py may provide it instead)

FAST = {"backoff_seconds": 0.001, "timeout_seconds": 5.0}
SYSTEM = ChatMessage("system", "You are terse.")
HELLO = ChatMessage("user", "Hello")
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "remember",
            "description": "Keep a fact",
            "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
            },
        },
    }
]
PATHS = {
    OllamaChatModel: "/api/chat",
    OpenAICompatibleChatModel: "/v1/chat/completions",
    OpenAIChatModel: "/v1/chat/completions",
    AnthropicChatModel: "/v1/messages",
}
ALL_MODELS = list(PATHS)


_Model = TypeVar("_Model", bound=HttpChatModel)


def _model(cls: type[_Model], server: FakeModelServer, **options: Any) -> _Model:
    defaults: dict[str, Any] = {"endpoint": server.url, "model": "fake-chat", "api_key": "sk-test", **FAST}
    return cls(**{**defaults, **options})


def _body(server: FakeModelServer, index: int = -1) -> Any:
    return server.requests[index].body


def _settings(home: Path, **env: str) -> Settings:
    environ = {"REVERIE_LLM__RETRY_BACKOFF_SECONDS": "0.001", **{f"REVERIE_{k}": v for k, v in env.items()}}
    return load_settings(home=home, environ=environ)


# Ollama ---------------------------------------------------------------------------------
def test_ollama_request_shape_and_reply(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(["Hello there."])
    model = _model(OllamaChatModel, fake_server, temperature=0.3, max_tokens=50, api_key="")
    reply = model.chat([SYSTEM, HELLO])
    assert reply == ChatReply("Hello there.", [], "fake-chat", "stop")
    assert model.model_id == "ollama:fake-chat"
    request = fake_server.requests[0]
    assert request.path == "/api/chat" and "authorization" not in request.headers
    assert request.body == {
        "model": "fake-chat",
        "messages": [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Hello"}],
        "stream": False,
        "options": {"temperature": 0.3, "num_predict": 50},
    }
    model.chat([HELLO], temperature=0.0, max_tokens=7, json_mode=True)
    assert _body(fake_server)["options"] == {"temperature": 0.0, "num_predict": 7}
    assert _body(fake_server)["format"] == "json"


def test_ollama_tool_calls_both_ways(fake_server: FakeModelServer) -> None:
    fake_server.script_chat([{"tool_calls": [{"name": "remember", "arguments": {"text": "likes tea"}}]}])
    model = _model(OllamaChatModel, fake_server)
    reply = model.chat([HELLO], tools=TOOLS)
    assert reply.finish_reason == "tool_calls" and reply.content == ""
    [call] = reply.tool_calls
    assert (call.id, call.name, json.loads(call.arguments)) == ("call_0", "remember", {"text": "likes tea"})
    assert _body(fake_server)["tools"] == TOOLS

    model.chat([HELLO, ChatMessage("assistant", "", [call]), ChatMessage("tool", "kept", name="remember")])
    assert _body(fake_server)["messages"][1:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": {"name": "remember", "arguments": {"text": "likes tea"}}}],
        },
        {"role": "tool", "content": "kept", "tool_name": "remember"},
    ]


def test_ollama_streams_text_deltas(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(["one two  three"])
    model = _model(OllamaChatModel, fake_server)
    assert isinstance(model, StreamingChatModel)
    pieces = list(model.stream([HELLO], temperature=0.1))
    assert "".join(pieces) == "one two  three" and len(pieces) == 3
    assert _body(fake_server)["stream"] is True and _body(fake_server)["options"]["temperature"] == 0.1


# OpenAI-compatible and OpenAI -----------------------------------------------------------
def test_openai_compatible_request_shape_and_reply(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(["Sure."])
    model = _model(OpenAICompatibleChatModel, fake_server, endpoint=fake_server.url + "/v1/", max_tokens=64)
    reply = model.chat([SYSTEM, HELLO], temperature=0.2)
    assert reply == ChatReply("Sure.", [], "fake-chat", "stop")
    request = fake_server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.body == {
        "model": "fake-chat",
        "messages": [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Hello"}],
        "temperature": 0.2,
        "max_tokens": 64,
    }
    keyless = _model(OpenAICompatibleChatModel, fake_server, api_key="")
    assert keyless.chat([HELLO]).content == "OK"
    assert "authorization" not in fake_server.requests[-1].headers


def test_openai_compatible_json_mode_mentions_json_once(fake_server: FakeModelServer) -> None:
    model = _model(OpenAICompatibleChatModel, fake_server)
    assert parse_json_reply(model.chat([HELLO], json_mode=True).content) == {}
    body = _body(fake_server)
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"][0] == {"role": "system", "content": "Reply with JSON."}  # OpenAI demands it
    model.chat([ChatMessage("user", "Answer in JSON")], json_mode=True)
    assert len(_body(fake_server)["messages"]) == 1


def test_openai_compatible_tool_calls_both_ways(fake_server: FakeModelServer) -> None:
    fake_server.script_chat([{"tool_calls": [{"name": "remember", "arguments": {"text": "t"}}]}])
    model = _model(OpenAICompatibleChatModel, fake_server)
    reply = model.chat([HELLO], tools=[TOOLS[0]["function"]])  # a bare spec is accepted too
    assert reply == ChatReply(
        "", [ToolCall("call_0", "remember", '{"text": "t"}')], "fake-chat", "tool_calls"
    )
    assert _body(fake_server)["tools"] == TOOLS

    answer = ChatMessage("tool", "kept", tool_call_id="call_0", name="remember")
    model.chat([HELLO, ChatMessage("assistant", "", reply.tool_calls), answer])
    assert _body(fake_server)["messages"][1:] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_0",
                    "type": "function",
                    "function": {"name": "remember", "arguments": '{"text": "t"}'},
                }
            ],
        },
        {"role": "tool", "content": "kept", "tool_call_id": "call_0", "name": "remember"},
    ]


def test_openai_compatible_streams_server_sent_events(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(["one two  three"])
    model = _model(OpenAICompatibleChatModel, fake_server)
    assert isinstance(model, StreamingChatModel) and isinstance(model, ChatModel)
    stream = model.stream([HELLO], max_tokens=5)
    assert fake_server.requests == []  # nothing is sent until the first piece is asked for
    pieces = list(stream)
    assert pieces == ["one ", "two  ", "three"]
    body = _body(fake_server)
    assert body["stream"] is True and body["max_tokens"] == 5


def test_stream_retries_until_the_first_piece(fake_server: FakeModelServer) -> None:
    fake_server.fail_times(1, "error", status=503)
    fake_server.fail_times(1, "down")
    fake_server.script_chat(["after the faults"])
    model = _model(OpenAICompatibleChatModel, fake_server)
    assert "".join(model.stream([HELLO])) == "after the faults"
    assert len(fake_server.requests) == 3


def test_stream_errors(fake_server: FakeModelServer) -> None:
    model = _model(OpenAICompatibleChatModel, fake_server, attempts=2)
    fake_server.fail_times(1, "error", status=400)
    with pytest.raises(ProviderError, match="answered HTTP 400") as info:
        list(model.stream([HELLO]))
    assert not isinstance(info.value, ProviderUnavailable) and len(fake_server.requests) == 1
    fake_server.mode = "malformed"
    with pytest.raises(ProviderError, match="without server-sent events: <html>"):
        list(model.stream([HELLO]))
    fake_server.mode = "down"
    with pytest.raises(ProviderUnavailable, match="Cannot reach the OpenAI-compatible server"):
        list(model.stream([HELLO]))


def test_openai_needs_a_key_and_uses_max_completion_tokens(fake_server: FakeModelServer) -> None:
    with pytest.raises(ConfigError, match="REVERIE_LLM__API_KEY"):
        OpenAIChatModel(model="gpt-4o-mini")
    assert OpenAIChatModel(model="gpt-4o-mini", api_key="k").endpoint == "https://api.openai.com"
    model = _model(OpenAIChatModel, fake_server, max_tokens=99)
    model.chat([HELLO], json_mode=True)
    request = fake_server.requests[0]
    assert request.path == "/v1/chat/completions" and request.headers["authorization"] == "Bearer sk-test"
    assert request.body["max_completion_tokens"] == 99 and "max_tokens" not in request.body
    assert request.body["response_format"] == {"type": "json_object"}


# Anthropic ------------------------------------------------------------------------------
def test_anthropic_request_shape_and_reply(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(["Bonjour"])
    model = _model(AnthropicChatModel, fake_server)
    reply = model.chat([SYSTEM, HELLO, ChatMessage("system", "Be kind.")], json_mode=True, temperature=1.5)
    assert reply == ChatReply("Bonjour", [], "fake-chat", "stop")
    request = fake_server.requests[0]
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == "sk-test" and request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers
    body = request.body
    assert body["max_tokens"] == 1024 and body["temperature"] == 1.0  # required; clamped to Anthropic's range
    assert body["messages"] == [{"role": "user", "content": "Hello"}]
    assert body["system"].startswith("You are terse.\n\nBe kind.\n\nReply with one valid JSON value")
    assert "response_format" not in body and "format" not in body
    with pytest.raises(ConfigError, match="REVERIE_LLM__API_KEY"):
        AnthropicChatModel(model="claude-x")


def test_anthropic_tools_and_tool_results(fake_server: FakeModelServer) -> None:
    fake_server.script_chat(
        [{"content": "Noted.", "tool_calls": [{"name": "remember", "arguments": {"text": "t"}}]}]
    )
    model = _model(AnthropicChatModel, fake_server, max_tokens=300)
    reply = model.chat([HELLO], tools=TOOLS)
    assert reply == ChatReply(
        "Noted.", [ToolCall("toolu_0", "remember", '{"text": "t"}')], "fake-chat", "tool_calls"
    )
    body = _body(fake_server)
    assert body["max_tokens"] == 300
    assert body["tools"] == [
        {"name": "remember", "description": "Keep a fact", "input_schema": TOOLS[0]["function"]["parameters"]}
    ]
    second = ToolCall("toolu_1", "remember", '{"text": "u"}')
    model.chat(
        [
            HELLO,
            ChatMessage("assistant", "Noted.", [reply.tool_calls[0], second]),
            ChatMessage("tool", "kept", tool_call_id="toolu_0"),
            ChatMessage("tool", "kept too", tool_call_id="toolu_1"),
            ChatMessage("user", "Thanks"),
        ]
    )
    assert _body(fake_server)["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Noted."},
                {"type": "tool_use", "id": "toolu_0", "name": "remember", "input": {"text": "t"}},
                {"type": "tool_use", "id": "toolu_1", "name": "remember", "input": {"text": "u"}},
            ],
        },
        {  # tool results come from the user, all in one turn with what the user says next
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_0", "content": "kept"},
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "kept too"},
                {"type": "text", "text": "Thanks"},
            ],
        },
    ]


# faults, for every provider -------------------------------------------------------------
@pytest.mark.parametrize("cls", ALL_MODELS)
def test_timeouts_become_provider_unavailable(fake_server: FakeModelServer, cls: type[HttpChatModel]) -> None:
    fake_server.set_mode("slow", delay=2.0)
    model = _model(cls, fake_server, timeout_seconds=0.05, attempts=2)
    started = time.monotonic()
    with pytest.raises(ProviderUnavailable, match=r"did not answer within 0.05 s; ") as raised:
        model.chat([HELLO])
    assert 'provider = "none"' not in str(raised.value)  # for chat that would only turn chat off
    assert time.monotonic() - started < 1.5
    assert len(fake_server.requests_to(PATHS[cls])) == 2


@pytest.mark.parametrize("cls", ALL_MODELS)
def test_server_errors_are_retried(fake_server: FakeModelServer, cls: type[HttpChatModel]) -> None:
    fake_server.fail_times(1, "error", status=500)
    fake_server.script_chat([Fault("error", status=503), "third time lucky"])
    assert _model(cls, fake_server).chat([HELLO]).content == "third time lucky"
    assert len(fake_server.requests_to(PATHS[cls])) == 3
    fake_server.set_mode("error", status=502)
    with pytest.raises(ProviderUnavailable, match="answered HTTP 502"):
        _model(cls, fake_server, attempts=2).chat([HELLO])
    assert len(fake_server.requests) == 5


@pytest.mark.parametrize("cls", ALL_MODELS)
def test_client_errors_are_not_retried(fake_server: FakeModelServer, cls: type[HttpChatModel]) -> None:
    fake_server.fail_times(1, "error", status=400)
    with pytest.raises(ProviderError, match="answered HTTP 400: .*fake error 400") as info:
        _model(cls, fake_server).chat([HELLO])
    assert not isinstance(info.value, ProviderUnavailable)
    assert len(fake_server.requests) == 1


@pytest.mark.parametrize("cls", ALL_MODELS)
def test_malformed_and_wrongly_shaped_replies(fake_server: FakeModelServer, cls: type[HttpChatModel]) -> None:
    model = _model(cls, fake_server)
    fake_server.mode = "malformed"
    with pytest.raises(ProviderError, match="not JSON"):
        model.chat([HELLO])
    fake_server.mode = "wrong_shape"
    with pytest.raises(ProviderError, match=f"{model.what} sent a chat reply of an unknown shape"):
        model.chat([HELLO])
    fake_server.set_mode("wrong_shape", body={"choices": [], "message": 3, "content": "x"})
    with pytest.raises(ProviderError, match="unknown shape"):
        model.chat([HELLO])
    assert len(fake_server.requests) == 3  # a bad reply is not worth retrying


@pytest.mark.parametrize("cls", ALL_MODELS)
def test_down_says_what_to_do(fake_server: FakeModelServer, cls: type[HttpChatModel]) -> None:
    model = _model(cls, fake_server, config_section="memory.extraction")
    fake_server.mode = "down"
    with pytest.raises(ProviderUnavailable) as info:
        model.chat([HELLO])
    message = str(info.value)
    assert message.startswith(f"Cannot reach {model.what} (ConnectError); ")
    assert fake_server.url in message and "[memory.extraction]" in message


def test_ollama_down_message_in_full(fake_server: FakeModelServer, tmp_path: Path) -> None:
    settings = _settings(
        tmp_path,
        LLM__PROVIDER="ollama",
        LLM__MODEL="m",
        LLM__ENDPOINT=fake_server.url,
        MEMORY__EXTRACTION__PROVIDER="ollama",
    )
    model = chat_model_from_settings(settings, "extraction")
    assert model is not None
    fake_server.mode = "down"
    with pytest.raises(ProviderUnavailable) as info:
        model.chat([HELLO])
    assert str(info.value) == (
        f"Cannot reach Ollama at {fake_server.url} (ConnectError); start it with `ollama serve`, "
        'or set provider = "none" under [memory.extraction]'
    )


def test_bad_input_is_refused_before_any_request(fake_server: FakeModelServer) -> None:
    model = _model(OllamaChatModel, fake_server)
    with pytest.raises(InvalidInput, match="role 'robot'"):
        ChatMessage("robot", "beep")
    with pytest.raises(InvalidInput, match="at least one message"):
        model.chat([])
    with pytest.raises(InvalidInput, match="not a ChatMessage"):
        model.chat([{"role": "user", "content": "hi"}])  # type: ignore[list-item]
    with pytest.raises(InvalidInput, match="OpenAI-style function"):
        model.chat([HELLO], tools=[{"type": "function"}])
    with pytest.raises(InvalidInput, match="not JSON"):
        model.chat([ChatMessage("assistant", "", [ToolCall("c", "remember", "{oops")])])
    with pytest.raises(ConfigError, match=r"Set model under \[llm\]"):
        OllamaChatModel(endpoint=fake_server.url)
    assert fake_server.requests == []


# settings and the registry --------------------------------------------------------------
def test_provider_none_means_no_model(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    assert chat_model_from_settings(settings, "conversation") is None
    assert chat_model_from_settings(settings, "extraction") is None
    on = _settings(tmp_path, LLM__PROVIDER="ollama", LLM__MODEL="m")
    assert isinstance(chat_model_from_settings(on, "conversation"), OllamaChatModel)
    # Extraction left unset follows [llm] (DAWN §3.2); an explicit "none" means rules only.
    assert isinstance(chat_model_from_settings(on, "extraction"), OllamaChatModel)
    off = _settings(tmp_path, LLM__PROVIDER="ollama", LLM__MODEL="m", MEMORY__EXTRACTION__PROVIDER="none")
    assert chat_model_from_settings(off, "extraction") is None


def test_conversation_uses_llm_settings(fake_server: FakeModelServer, tmp_path: Path) -> None:
    settings = _settings(
        tmp_path,
        LLM__PROVIDER="openai_compatible",
        LLM__MODEL="qwen",
        LLM__ENDPOINT=fake_server.url,
        LLM__API_KEY="key",
        LLM__TEMPERATURE="0.4",
        LLM__MAX_TOKENS="256",
        LLM__TIMEOUT_SECONDS="9",
    )
    model = chat_model_from_settings(settings, "conversation")
    assert isinstance(model, OpenAICompatibleChatModel)
    assert (model.timeout, model.attempts, model.backoff) == (9.0, 3, 0.001)
    model.chat([HELLO])
    request = fake_server.requests[0]
    assert request.body["temperature"] == 0.4 and request.body["max_tokens"] == 256
    assert request.body["model"] == "qwen" and request.headers["authorization"] == "Bearer key"


def test_extraction_falls_back_to_llm_and_runs_cold(fake_server: FakeModelServer, tmp_path: Path) -> None:
    settings = _settings(
        tmp_path,
        LLM__PROVIDER="ollama",
        LLM__MODEL="llama3.2:3b",
        LLM__ENDPOINT=fake_server.url,
        LLM__TEMPERATURE="0.9",
        MEMORY__EXTRACTION__PROVIDER="ollama",
        MEMORY__EXTRACTION__TIMEOUT_SECONDS="7",
    )
    model = chat_model_from_settings(settings, "extraction")
    assert isinstance(model, OllamaChatModel) and model.model_id == "ollama:llama3.2:3b"
    assert model.timeout == 7.0
    model.chat([HELLO], json_mode=True)
    body = _body(fake_server)
    assert (
        body["model"] == "llama3.2:3b" and body["options"]["temperature"] == 0.0 and body["format"] == "json"
    )

    own = settings.model_copy(deep=True)
    own.memory.extraction.model = "qwen2.5:7b"
    own.memory.extraction.temperature = 0.1
    chosen = chat_model_from_settings(own, "extraction")
    assert chosen is not None and chosen.model_id == "ollama:qwen2.5:7b"
    chosen.chat([HELLO])
    assert _body(fake_server)["options"]["temperature"] == 0.1


def test_extraction_keeps_llm_key_and_server_to_the_same_provider(tmp_path: Path) -> None:
    settings = _settings(
        tmp_path,
        LLM__PROVIDER="openai",
        LLM__MODEL="gpt-4o-mini",
        LLM__API_KEY="sk-secret",
        LLM__ENDPOINT="https://proxy.example",
        MEMORY__EXTRACTION__PROVIDER="openai_compatible",
    )
    model = chat_model_from_settings(settings, "extraction")
    assert isinstance(model, OpenAICompatibleChatModel)
    assert model.model == "gpt-4o-mini"  # the model name falls back whatever the provider
    assert (model.api_key, model.endpoint) == ("", "http://127.0.0.1:8080")
    settings.memory.extraction.provider = "anthropic"
    with pytest.raises(ConfigError, match=r"api_key under \[memory.extraction\] or \[llm\]"):
        chat_model_from_settings(settings, "extraction")
    settings.memory.extraction.provider = "openai"
    same = chat_model_from_settings(settings, "extraction")
    assert isinstance(same, OpenAIChatModel)
    assert (same.api_key, same.endpoint) == ("sk-secret", "https://proxy.example")


def test_unknown_provider_lists_the_known_ones(tmp_path: Path) -> None:
    settings = _settings(tmp_path, LLM__PROVIDER="gpt5-turbo", LLM__MODEL="m")
    with pytest.raises(ConfigError, match="Unknown chat provider 'gpt5-turbo'") as info:
        chat_model_from_settings(settings, "conversation")
    for name in ("none", "ollama", "openai_compatible", "openai", "anthropic"):
        assert name in str(info.value)
    with pytest.raises(ConfigError, match='"none" means no chat model'):
        create_chat_model("none")


class EchoModel:
    """A deterministic chat model that repeats the last message, registered like any provider."""

    def __init__(self, model: str = "echo", temperature: float | None = None) -> None:
        self.model_id = f"echo:{model}"
        self.temperature = temperature

    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        json_mode: bool = False,
        tools: Sequence[dict[str, Any]] | None = None,
    ) -> ChatReply:
        return ChatReply(messages[-1].content, [], self.model_id, "stop")


class TakesAll:
    """A plugin factory taking any keyword: it is offered every option."""

    def __init__(self, **options: Any) -> None:
        self.options = options
        self.model_id = "all:" + str(options.get("model"))

    def chat(self, messages: Sequence[ChatMessage], **options: Any) -> ChatReply:
        return ChatReply("", [], self.model_id, None)


def test_plugins_register_and_get_only_the_options_they_take(tmp_path: Path) -> None:
    register_chat_provider("test-echo", EchoModel)
    register_chat_provider("test-all", TakesAll)
    assert {"test-echo", "test-all", "ollama", "anthropic"} <= set(available_chat_providers())
    settings = _settings(tmp_path, LLM__PROVIDER="test-echo", LLM__MODEL="parrot", LLM__TEMPERATURE="0.5")
    model = chat_model_from_settings(settings, "conversation")
    assert isinstance(model, EchoModel) and isinstance(model, ChatModel)
    assert not isinstance(model, StreamingChatModel)
    assert (model.model_id, model.temperature) == ("echo:parrot", 0.5)
    assert model.chat([HELLO]).content == "Hello"

    settings.llm.provider = "test-all"
    everything = chat_model_from_settings(settings, "conversation")
    assert isinstance(everything, TakesAll)
    assert everything.options["config_section"] == "llm" and everything.options["attempts"] == 3
    assert accepted_options(EchoModel, {"model": "m", "api_key": "k"}) == {"model": "m"}

    with pytest.raises(ConfigError, match="does not accept these options"):
        create_chat_model("test-echo", api_key="k")
    with pytest.raises(ConfigError, match="non-empty word"):
        register_chat_provider("none", EchoModel)


def test_only_http_streamers_stream(fake_server: FakeModelServer) -> None:
    assert not isinstance(_model(AnthropicChatModel, fake_server), StreamingChatModel)
    assert isinstance(_model(OpenAIChatModel, fake_server), StreamingChatModel)


# parse_json_reply -----------------------------------------------------------------------
FACTS = {"facts": [{"fact": "User likes tea", "type": "preference"}]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"facts": []}', {"facts": []}),
        (
            "Here is the JSON:\n```json\n"
            '{"facts": [{"fact": "User likes tea", "type": "preference"}]}'
            "\n```\nLet me know if you need anything else!",
            FACTS,
        ),
        ('```\n[{"fact": "A"}, {"fact": "B"}]\n```', [{"fact": "A"}, {"fact": "B"}]),
        ('{"facts": [ {"fact": "User likes tea", "type": "preference"}, ],}', FACTS),
        ("[1, 2, 3,\n]", [1, 2, 3]),
        (
            '{"facts": [{"fact": "User likes tea", "type": "preference"}]}'
            "\n\nI extracted one fact because the user said they like tea {not coffee}.",
            FACTS,
        ),
        ("Sure! {“facts”: [{“fact”: “User likes tea”, “type”: “preference”}]}", FACTS),
        ('{"fact": "User’s dog is called Rex",}', {"fact": "User’s dog is called Rex"}),  # kept as written
        ('{"quote": "She said “hi”, then left", "n": 1,}', {"quote": "She said “hi”, then left", "n": 1}),
        ('[Note] The reply follows. {"a": {"b": [1, {"c": "x, ]"},],},}', {"a": {"b": [1, {"c": "x, ]"}]}}),
        ("The user has no new facts: []", []),
        (
            '```json\n{\n  "summary": "Talked about \\"plans\\" {for} June",\n  "facts": [],\n}\n```',
            {"summary": 'Talked about "plans" {for} June', "facts": []},
        ),
        ("Output:\n```JSON\n{'bad': 1}\n```\nor rather:\n```json\n{\"good\": 2}\n```", {"good": 2}),
    ],
)
def test_parse_json_reply_repairs_common_slips(text: str, expected: Any) -> None:
    assert parse_json_reply(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "I could not find any facts in this conversation.",
        '{"facts": [{"fact": "User likes tea", "type": "pref',  # cut off mid-reply
        '{"facts": [{"fact": "a"}, {"fact": "b", oops}]}',  # not a fragment of it either
        "{'fact': 'single quotes are Python, not JSON'}",
        "```json\n```",
    ],
)
def test_parse_json_reply_gives_up_on_hopeless_replies(text: str) -> None:
    with pytest.raises(ProviderError) as info:
        parse_json_reply(text)
    assert not isinstance(info.value, ProviderUnavailable)
    assert " ".join(text.split())[:20] in str(info.value)


def test_parse_json_reply_error_is_short(tmp_path: Path) -> None:
    with pytest.raises(ProviderError, match="not valid JSON") as info:
        parse_json_reply("nope " * 1000)
    assert len(str(info.value)) < 400
