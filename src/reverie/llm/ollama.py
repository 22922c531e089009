"""Ollama's ``/api/chat``: replies, JSON mode, tool calls and streaming."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from reverie.errors import ProviderError
from reverie.llm.base import ChatMessage, ChatReply, register_chat_provider
from reverie.llm.http import (
    HttpChatModel,
    arguments_object,
    json_line,
    reply_from_message,
)
from reverie.net import excerpt


def _message(message: ChatMessage) -> dict[str, Any]:
    item: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        # Ollama takes the arguments as an object, not as OpenAI's JSON string.
        item["tool_calls"] = [
            {"function": {"name": call.name, "arguments": arguments_object(call)}}
            for call in message.tool_calls
        ]
    if message.role == "tool" and message.name:
        item["tool_name"] = message.name
    return item


class OllamaChatModel(HttpChatModel):
    """Ollama's ``/api/chat`` (``ollama serve``)."""

    provider = "ollama"
    label = "Ollama"
    default_endpoint = "http://127.0.0.1:11434"
    hint_template = 'start it with `ollama serve`, or set provider = "none" under [{section}]'

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> Iterator[str]:
        """Yield pieces of the reply text as Ollama writes them (newline-delimited JSON)."""
        return self._texts(self._stream_lines(self._stream_payload(messages, temperature, max_tokens)))

    def _texts(self, lines: Iterator[str]) -> Iterator[str]:
        for line in lines:
            chunk = json_line(line, self.what)
            if not isinstance(chunk, dict):
                raise ProviderError(f"{self.what} streamed something unexpected: {excerpt(line)}")
            if "error" in chunk:
                raise ProviderError(f"{self.what} stopped with an error: {excerpt(str(chunk['error']))}")
            message = chunk.get("message")
            text = message.get("content") if isinstance(message, dict) else None
            if text:
                yield str(text)
            if chunk.get("done"):
                return

    def _chat_url(self) -> str:
        return f"{self.endpoint}/api/chat"

    def _payload(
        self,
        messages: list[ChatMessage],
        *,
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
        tools: list[dict[str, Any]],
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [_message(message) for message in messages],
            "stream": False,
        }
        options: dict[str, Any] = {}
        if temperature is not None:
            options["temperature"] = temperature
        if max_tokens is not None:
            options["num_predict"] = max_tokens
        if options:
            payload["options"] = options
        if json_mode:
            payload["format"] = "json"
        if tools:
            payload["tools"] = [{"type": "function", "function": spec} for spec in tools]
        return payload

    def _reply(self, reply: Any) -> ChatReply:
        return reply_from_message(
            reply["message"], str(reply.get("model") or self.model), reply.get("done_reason")
        )


register_chat_provider("ollama", OllamaChatModel)

__all__ = ["OllamaChatModel"]
