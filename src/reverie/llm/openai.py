"""``/v1/chat/completions``: OpenAI-compatible servers (llama.cpp, vLLM, LM Studio) and OpenAI itself."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from reverie.errors import ProviderError
from reverie.llm.base import ChatMessage, ChatReply, register_chat_provider
from reverie.llm.http import HttpChatModel, json_line, reply_from_message
from reverie.net import excerpt

_JSON_NOTE = "Reply with JSON."


def _message(message: ChatMessage) -> dict[str, Any]:
    item: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        item["content"] = message.content or None
        item["tool_calls"] = [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in message.tool_calls
        ]
    if message.role == "tool":
        if message.tool_call_id:
            item["tool_call_id"] = message.tool_call_id
        if message.name:
            item["name"] = message.name
    return item


class OpenAICompatibleChatModel(HttpChatModel):
    """``/v1/chat/completions`` as served by llama.cpp (``llama-server``), vLLM and LM Studio."""

    provider = "openai_compatible"
    label = "the OpenAI-compatible server"
    default_endpoint = "http://127.0.0.1:8080"
    hint_template = (
        "start the server (llama-server, vLLM, LM Studio) or fix endpoint under [{section}], "
        'or set provider = "none" there'
    )
    max_tokens_field = "max_tokens"

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> Iterator[str]:
        """Yield pieces of the reply text as the server writes them (server-sent events)."""
        return self._texts(self._stream_lines(self._stream_payload(messages, temperature, max_tokens)))

    def _texts(self, lines: Iterator[str]) -> Iterator[str]:
        events, other = 0, ""
        for line in lines:
            if not line.startswith("data:"):
                # Comments (": keep-alive"), "event:" and "id:" lines carry no text.
                other = other or line
                continue
            events += 1
            data = line.removeprefix("data:").strip()
            if data == "[DONE]":
                return
            chunk = json_line(data, self.what)
            if isinstance(chunk, dict) and "error" in chunk:
                raise ProviderError(f"{self.what} stopped with an error: {excerpt(str(chunk['error']))}")
            try:
                choices = chunk["choices"]
                text = choices[0].get("delta", {}).get("content") if choices else None
            except (KeyError, IndexError, TypeError, AttributeError) as exc:
                raise ProviderError(
                    f"{self.what} streamed a chunk of an unknown shape: {excerpt(data)}"
                ) from exc
            if text:
                yield str(text)
        if not events:
            raise ProviderError(
                f"{self.what} answered a streaming request without server-sent events: {excerpt(other)}"
            )

    def _chat_url(self) -> str:
        base = self.endpoint if self.endpoint.endswith("/v1") else f"{self.endpoint}/v1"
        return f"{base}/chat/completions"

    def _payload(
        self,
        messages: list[ChatMessage],
        *,
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
        tools: list[dict[str, Any]],
    ) -> dict[str, Any]:
        items = [_message(message) for message in messages]
        if json_mode and not any("json" in message.content.lower() for message in messages):
            # OpenAI refuses JSON mode unless a message mentions JSON.
            items.insert(0, {"role": "system", "content": _JSON_NOTE})
        payload: dict[str, Any] = {"model": self.model, "messages": items}
        if temperature is not None:
            payload["temperature"] = temperature
        if max_tokens is not None:
            payload[self.max_tokens_field] = max_tokens
        if json_mode:
            payload["response_format"] = {"type": "json_object"}
        if tools:
            payload["tools"] = [{"type": "function", "function": spec} for spec in tools]
        return payload

    def _reply(self, reply: Any) -> ChatReply:
        choice = reply["choices"][0]
        return reply_from_message(
            choice["message"], str(reply.get("model") or self.model), choice.get("finish_reason")
        )


class OpenAIChatModel(OpenAICompatibleChatModel):
    """OpenAI's hosted chat models (needs an API key)."""

    provider = "openai"
    label = "OpenAI"
    default_endpoint = "https://api.openai.com"
    needs_api_key = True
    hint_template = 'check the network and endpoint under [{section}], or set provider = "none" there'
    max_tokens_field = "max_completion_tokens"  # OpenAI's reasoning models refuse max_tokens


register_chat_provider("openai_compatible", OpenAICompatibleChatModel)
register_chat_provider("openai", OpenAIChatModel)

__all__ = ["OpenAIChatModel", "OpenAICompatibleChatModel"]
