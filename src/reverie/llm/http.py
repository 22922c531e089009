"""What the HTTP chat providers share: settings, messages for errors, tool specs, and streaming.

Plain requests go through :func:`reverie.net.post_json`; :func:`stream_lines` is its streaming
twin, on the same connection pool and with the same retries, used until the first line arrives.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import httpx

from reverie.errors import ConfigError, InvalidInput, ProviderError, ProviderUnavailable
from reverie.llm.base import ChatMessage, ChatReply, ToolCall

# The pool and the retryable statuses are net.py's own, shared so that chat streams and plain
# requests reuse connections and retry alike.
from reverie.net import DEFAULT_ATTEMPTS, RETRY_STATUSES, excerpt, post_json, shared_client

_FINISH_REASONS = {
    "stop": "stop",
    "end_turn": "stop",
    "stop_sequence": "stop",
    "length": "length",
    "max_tokens": "length",
    "tool_calls": "tool_calls",
    "tool_use": "tool_calls",
}


class HttpChatModel:
    """Settings, error wording and the HTTP calls of a chat provider; subclasses shape the payloads."""

    provider = "http"
    label = "the chat server"
    default_endpoint = ""
    default_max_tokens: int | None = None
    needs_api_key = False
    hint_template = 'check endpoint under [{section}], or set provider = "none" there'

    def __init__(
        self,
        endpoint: str = "",
        model: str = "",
        api_key: str = "",
        temperature: float | None = None,
        max_tokens: int | None = None,
        timeout_seconds: float = 120.0,
        attempts: int = DEFAULT_ATTEMPTS,
        backoff_seconds: float = 0.5,
        config_section: str = "llm",
    ) -> None:
        self.section = config_section
        where = (
            "[memory.extraction] or [llm]" if config_section == "memory.extraction" else f"[{config_section}]"
        )
        if not model:
            raise ConfigError(f"Set model under {where} for the {self.provider} chat provider")
        if self.needs_api_key and not api_key:
            raise ConfigError(
                f"Set api_key under {where} (or REVERIE_LLM__API_KEY) for chat provider {self.provider!r}"
            )
        self.endpoint = (endpoint or self.default_endpoint).rstrip("/")
        self.model = model
        self.api_key = api_key
        self.temperature = temperature
        self.max_tokens = max_tokens if max_tokens is not None else self.default_max_tokens
        self.timeout = timeout_seconds
        self.attempts = max(1, attempts)
        self.backoff = max(0.0, backoff_seconds)

    @property
    def model_id(self) -> str:
        """Provider and model, e.g. ``ollama:qwen2.5:7b``."""
        return f"{self.provider}:{self.model}"

    @property
    def what(self) -> str:
        """The service as error messages name it, e.g. "Ollama at http://127.0.0.1:11434"."""
        return f"{self.label} at {self.endpoint}"

    @property
    def hint(self) -> str:
        """What to do when the service cannot be reached.

        "Set provider none" helps extraction (rules go on); for [llm] it would only turn chat off.
        """
        hint = self.hint_template.format(section=self.section)
        if self.section == "llm":
            hint = re.sub(r',? or set provider = "none"( under \[llm\]| there)$', "", hint)
        return hint

    def chat(
        self,
        messages: Sequence[ChatMessage],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        json_mode: bool = False,
        tools: Sequence[dict[str, Any]] | None = None,
    ) -> ChatReply:
        """Reply to ``messages``; None for temperature or max_tokens means the configured default."""
        payload = self._request(messages, temperature, max_tokens, json_mode, function_specs(tools or []))
        reply = post_json(
            self._chat_url(),
            payload,
            what=self.what,
            hint=self.hint,
            headers=self._headers(),
            timeout=self.timeout,
            attempts=self.attempts,
            backoff=self.backoff,
        )
        try:
            return self._reply(reply)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
            raise ProviderError(
                f"{self.what} sent a chat reply of an unknown shape: {excerpt(str(reply))}"
            ) from exc

    def _request(
        self,
        messages: Sequence[ChatMessage],
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
        tools: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """The payload for ``messages``, with the configured defaults for what the call leaves out."""
        return self._payload(
            check_messages(messages),
            temperature=self.temperature if temperature is None else temperature,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
            json_mode=json_mode,
            tools=tools,
        )

    def _stream_payload(
        self, messages: Sequence[ChatMessage], temperature: float | None, max_tokens: int | None
    ) -> dict[str, Any]:
        """The payload of a streamed reply (built now, so bad input fails before iterating)."""
        return {**self._request(messages, temperature, max_tokens, False, []), "stream": True}

    def _stream_lines(self, payload: Mapping[str, Any]) -> Iterator[str]:
        return stream_lines(
            self._chat_url(),
            payload,
            what=self.what,
            hint=self.hint,
            headers=self._headers(),
            timeout=self.timeout,
            attempts=self.attempts,
            backoff=self.backoff,
        )

    def _chat_url(self) -> str:
        raise NotImplementedError

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _payload(
        self,
        messages: list[ChatMessage],
        *,
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
        tools: list[dict[str, Any]],
    ) -> dict[str, Any]:
        raise NotImplementedError

    def _reply(self, reply: Any) -> ChatReply:
        raise NotImplementedError


def check_messages(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """Return ``messages`` as a list, refusing an empty one or items that are not ChatMessages."""
    items = list(messages)
    if not items:
        raise InvalidInput("A chat needs at least one message")
    for index, message in enumerate(items):
        if not isinstance(message, ChatMessage):
            raise InvalidInput(f"Chat message {index} is a {message.__class__.__name__}, not a ChatMessage")
    return items


def function_specs(tools: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The function specs (name, description, parameters) of OpenAI-style tools or bare specs."""
    specs: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        spec = tool.get("function") if tool.get("type") == "function" else tool
        if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
            raise InvalidInput(
                f"Tool {index} is not an OpenAI-style function "
                '({"type": "function", "function": {"name": ..., "parameters": ...}})'
            )
        specs.append(dict(spec))
    return specs


def arguments_object(call: ToolCall) -> dict[str, Any]:
    """A tool call's JSON arguments as an object, for APIs that want one."""
    try:
        value = json.loads(call.arguments or "{}")
    except ValueError as exc:
        raise InvalidInput(
            f"Tool call {call.name!r} has arguments that are not JSON: {excerpt(call.arguments)}"
        ) from exc
    if not isinstance(value, dict):
        raise InvalidInput(f"Tool call {call.name!r} has arguments that are not a JSON object")
    return value


def arguments_json(value: Any) -> str:
    """Tool arguments as the JSON string ToolCall holds (strings pass through as they came)."""
    return value if isinstance(value, str) else json.dumps(value if value is not None else {})


def reply_from_message(message: Mapping[str, Any], model: str, reason: Any) -> ChatReply:
    """A ChatReply from an OpenAI- or Ollama-shaped assistant message (tool calls included)."""
    calls = [
        ToolCall(
            id=str(call.get("id") or f"call_{index}"),
            name=str(call["function"]["name"]),
            arguments=arguments_json(call["function"].get("arguments")),
        )
        for index, call in enumerate(message.get("tool_calls") or [])
    ]
    return ChatReply(
        content=str(message.get("content") or ""),
        tool_calls=calls,
        model=model,
        finish_reason=finish_reason(reason, bool(calls)),
    )


def finish_reason(reason: Any, has_tool_calls: bool) -> str | None:
    """A provider's stop reason in one vocabulary: "stop", "length", "tool_calls" (others pass through)."""
    if has_tool_calls and reason in (None, "stop", "end_turn", "tool_use", "tool_calls"):
        return "tool_calls"
    if reason is None:
        return None
    return _FINISH_REASONS.get(str(reason), str(reason))


def stream_lines(
    url: str,
    payload: Mapping[str, Any],
    *,
    what: str,
    hint: str,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    attempts: int = DEFAULT_ATTEMPTS,
    backoff: float = 0.5,
) -> Iterator[str]:
    """POST JSON and yield the reply's non-blank lines as they arrive.

    Like :func:`reverie.net.post_json`, transient failures are retried with exponential backoff,
    but only until the first line has been yielded: after that a failure raises at once, since
    the caller has already used part of the reply.
    """
    last: ProviderError | None = None
    for attempt in range(max(1, attempts)):
        if attempt:
            time.sleep(backoff * 2 ** (attempt - 1))
        started = False
        try:
            with shared_client().stream(
                "POST", url, json=dict(payload), headers=dict(headers or {}), timeout=timeout
            ) as response:
                if response.status_code in RETRY_STATUSES:
                    last = ProviderUnavailable(f"{what} answered HTTP {response.status_code}; {hint}")
                    continue
                if response.status_code >= 400:
                    response.read()
                    raise ProviderError(
                        f"{what} answered HTTP {response.status_code}: {excerpt(response.text)}"
                    )
                for line in response.iter_lines():
                    if line.strip():
                        started = True
                        yield line
                return
        except httpx.TimeoutException as exc:
            error = ProviderUnavailable(f"{what} did not answer within {timeout:g} s; {hint}")
            if started:
                raise error from exc
            last = error
            last.__cause__ = exc
        except httpx.TransportError as exc:
            error = ProviderUnavailable(f"Cannot reach {what} ({exc.__class__.__name__}); {hint}")
            if started:
                raise ProviderUnavailable(
                    f"{what} broke off its reply ({exc.__class__.__name__}); {hint}"
                ) from exc
            last = error
            last.__cause__ = exc
    assert last is not None
    raise last


def json_line(line: str, what: str) -> Any:
    """One line of a streamed reply decoded as JSON; ProviderError if it is not JSON."""
    try:
        return json.loads(line)
    except ValueError as exc:
        raise ProviderError(f"{what} streamed a line that is not JSON: {excerpt(line)}") from exc


__all__ = [
    "HttpChatModel",
    "arguments_json",
    "arguments_object",
    "check_messages",
    "finish_reason",
    "function_specs",
    "json_line",
    "stream_lines",
]
