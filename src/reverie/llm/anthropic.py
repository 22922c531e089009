"""Anthropic's ``/v1/messages``: system prompt lifted out, tool_use blocks, JSON by instruction."""

from __future__ import annotations

from typing import Any

from reverie.llm.base import ChatMessage, ChatReply, ToolCall, register_chat_provider
from reverie.llm.http import HttpChatModel, arguments_json, arguments_object, finish_reason

API_VERSION = "2023-06-01"
JSON_INSTRUCTION = (
    "Reply with one valid JSON value and nothing else: no prose before or after it, no Markdown code fences."
)


def _blocks(message: ChatMessage) -> list[dict[str, Any]]:
    if message.role == "tool":
        result: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": message.tool_call_id or "",
            "content": message.content,
        }
        return [result]
    # Anthropic refuses empty text blocks, e.g. the text of an assistant turn that only calls tools.
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}] if message.content else []
    blocks += [
        {"type": "tool_use", "id": call.id, "name": call.name, "input": arguments_object(call)}
        for call in message.tool_calls
    ]
    return blocks


def _messages(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """Non-system messages as Anthropic wants them: tool results from the user, one turn per role."""
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "user" if message.role == "tool" else message.role
        blocks = _blocks(message)
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += blocks  # consecutive turns of one role must be merged
        else:
            turns.append({"role": role, "content": blocks})
    for turn in turns:
        content = turn["content"]
        if len(content) == 1 and content[0]["type"] == "text":
            turn["content"] = content[0]["text"]
        elif not content:
            turn["content"] = ""
    return turns


class AnthropicChatModel(HttpChatModel):
    """Anthropic's Messages API (needs an API key)."""

    provider = "anthropic"
    label = "Anthropic"
    default_endpoint = "https://api.anthropic.com"
    default_max_tokens = 1024  # the API requires max_tokens on every request
    needs_api_key = True
    hint_template = 'check the network and endpoint under [{section}], or set provider = "none" there'

    def _chat_url(self) -> str:
        base = self.endpoint if self.endpoint.endswith("/v1") else f"{self.endpoint}/v1"
        return f"{base}/messages"

    def _headers(self) -> dict[str, str]:
        return {"x-api-key": self.api_key, "anthropic-version": API_VERSION}

    def _payload(
        self,
        messages: list[ChatMessage],
        *,
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
        tools: list[dict[str, Any]],
    ) -> dict[str, Any]:
        system = [message.content for message in messages if message.role == "system" and message.content]
        if json_mode:
            system.append(JSON_INSTRUCTION)  # Anthropic has no JSON mode
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens if max_tokens is not None else self.default_max_tokens,
            "messages": _messages(messages),
        }
        if system:
            payload["system"] = "\n\n".join(system)
        if temperature is not None:
            payload["temperature"] = min(temperature, 1.0)  # Anthropic's range is 0-1
        if tools:
            payload["tools"] = [
                {
                    "name": spec["name"],
                    "description": spec.get("description", ""),
                    "input_schema": spec.get("parameters") or {"type": "object", "properties": {}},
                }
                for spec in tools
            ]
        return payload

    def _reply(self, reply: Any) -> ChatReply:
        blocks = reply["content"]
        text = "".join(str(block["text"]) for block in blocks if block["type"] == "text")
        calls = [
            ToolCall(
                id=str(block["id"]), name=str(block["name"]), arguments=arguments_json(block.get("input"))
            )
            for block in blocks
            if block["type"] == "tool_use"
        ]
        return ChatReply(
            content=text,
            tool_calls=calls,
            model=str(reply.get("model") or self.model),
            finish_reason=finish_reason(reply.get("stop_reason"), bool(calls)),
        )


register_chat_provider("anthropic", AnthropicChatModel)

__all__ = ["API_VERSION", "JSON_INSTRUCTION", "AnthropicChatModel"]
