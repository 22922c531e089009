"""Chat models: the protocol, the provider registry, the built-in HTTP providers and JSON replies.

Built-in providers: ``ollama``, ``openai_compatible`` (llama.cpp, vLLM, LM Studio), ``openai`` and
``anthropic``; more come from :func:`register_chat_provider` or the ``reverie.chat_providers``
entry-point group. :func:`chat_model_from_settings` picks the model for conversation or extraction.
"""

from __future__ import annotations

from reverie.llm.anthropic import AnthropicChatModel
from reverie.llm.base import (
    ENTRY_POINT_GROUP,
    ChatMessage,
    ChatModel,
    ChatModelFactory,
    ChatReply,
    Purpose,
    StreamingChatModel,
    ToolCall,
    accepted_options,
    available_chat_providers,
    chat_model_from_settings,
    chat_provider_factory,
    create_chat_model,
    register_chat_provider,
)
from reverie.llm.http import HttpChatModel, stream_lines
from reverie.llm.jsonreply import parse_json_reply
from reverie.llm.ollama import OllamaChatModel
from reverie.llm.openai import OpenAIChatModel, OpenAICompatibleChatModel

__all__ = [
    "ENTRY_POINT_GROUP",
    "AnthropicChatModel",
    "ChatMessage",
    "ChatModel",
    "ChatModelFactory",
    "ChatReply",
    "HttpChatModel",
    "OllamaChatModel",
    "OpenAIChatModel",
    "OpenAICompatibleChatModel",
    "Purpose",
    "StreamingChatModel",
    "ToolCall",
    "accepted_options",
    "available_chat_providers",
    "chat_model_from_settings",
    "chat_provider_factory",
    "create_chat_model",
    "parse_json_reply",
    "register_chat_provider",
    "stream_lines",
]
