"""Chat messages and replies, the chat model protocols and the registry of chat providers.

Providers join the registry by name with :func:`register_chat_provider`, built-in ones the same
way as outside ones, or come from the ``reverie.chat_providers`` entry-point group: the entry
point's name is the provider name and its object is the factory (usually the class).
:func:`chat_model_from_settings` builds the model for a purpose from the settings, offering
each factory only the options its signature takes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from reverie.config import Settings, extractor_choice
from reverie.errors import ConfigError, InvalidInput
from reverie.registry import Registry, accepted_options

log = logging.getLogger(__name__)
ENTRY_POINT_GROUP = "reverie.chat_providers"
ROLES = ("system", "user", "assistant", "tool")
Purpose = Literal["conversation", "extraction"]


@dataclass(frozen=True)
class ToolCall:
    """A function the model asks to call; ``arguments`` is a JSON string, as in OpenAI's API."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ChatMessage:
    """One message of a conversation: system, user, assistant (maybe with tool calls) or tool result."""

    role: str
    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_call_id: str | None = None  # on a "tool" message: the call it answers
    name: str | None = None  # on a "tool" message: the function that produced it

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise InvalidInput(f"Chat message role {self.role!r} is not one of {', '.join(ROLES)}")


@dataclass(frozen=True)
class ChatReply:
    """What the model answered; ``finish_reason`` is "stop", "length", "tool_calls" or the provider's own."""

    content: str
    tool_calls: list[ToolCall]
    model: str
    finish_reason: str | None


@runtime_checkable
class ChatModel(Protocol):
    """Answers a conversation with one reply."""

    @property
    def model_id(self) -> str:
        """Provider and model, e.g. ``ollama:qwen2.5:7b``."""
        ...

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
        ...


@runtime_checkable
class StreamingChatModel(Protocol):
    """Optional ability: stream the reply as text deltas while the model writes it."""

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> Iterator[str]:
        """Yield pieces of the reply text in order; joined, they are the whole reply."""
        ...


ChatModelFactory = Callable[..., ChatModel]


# The built-in providers register themselves when reverie.llm (which imports them) is imported.
chat_providers: Registry[ChatModel] = Registry(
    "chat provider", ENTRY_POINT_GROUP, None, "[llm] or [memory.extraction]", reserved=("none",)
)
register_chat_provider = chat_providers.register
available_chat_providers = chat_providers.names
create_chat_model = chat_providers.create
chat_provider_factory = chat_providers.factory


def chat_model_from_settings(settings: Settings, purpose: Purpose) -> ChatModel | None:
    """The chat model for ``purpose``, or None when its provider is "none".

    "conversation" uses [llm]. "extraction" uses [memory.extraction] with its own temperature
    and timeout; an unset provider is [llm]'s (an explicit "none" means rules, see
    :func:`reverie.config.extractor_choice`); an empty model falls back to [llm]'s, and so do an
    empty endpoint and api_key when both sections name the same provider (another provider's key
    or server would be wrong, and sending a key to a different vendor leaks it). HTTP retries
    follow [llm] for both.
    """
    llm = settings.llm
    offered: dict[str, Any] = {
        "max_tokens": llm.max_tokens,
        "attempts": llm.max_attempts,
        "backoff_seconds": llm.retry_backoff_seconds,
    }
    if purpose == "conversation":
        provider = llm.provider
        offered |= {
            "model": llm.model,
            "endpoint": llm.endpoint,
            "api_key": llm.api_key,
            "temperature": llm.temperature,
            "timeout_seconds": llm.timeout_seconds,
            "config_section": "llm",
        }
    elif purpose == "extraction":
        conf = settings.memory.extraction
        provider, model, section = extractor_choice(settings)
        same = provider == llm.provider
        offered |= {
            "model": model,
            "endpoint": conf.endpoint or (llm.endpoint if same else ""),
            "api_key": conf.api_key or (llm.api_key if same else ""),
            "temperature": conf.temperature,
            "timeout_seconds": conf.timeout_seconds,
            "config_section": "memory.extraction",
        }
    else:
        raise InvalidInput(f"Chat model purpose {purpose!r} is not 'conversation' or 'extraction'")
    if provider == "none":
        return None
    if purpose == "extraction" and section == "llm":
        try:
            return chat_providers.create_offering(provider, offered)
        except ConfigError as exc:
            # Followed, not chosen: a half-set [llm] turns chat off with its own clear error
            # (503), and must not keep the memory from opening; the rules extract meanwhile.
            log.warning("Extraction uses the rules: the [llm] model it follows is not usable: %s", exc)
            return None
    return chat_providers.create_offering(provider, offered)


__all__ = [
    "chat_providers",
    "ENTRY_POINT_GROUP",
    "ROLES",
    "ChatMessage",
    "ChatModel",
    "ChatModelFactory",
    "ChatReply",
    "Purpose",
    "StreamingChatModel",
    "ToolCall",
    "accepted_options",
    "available_chat_providers",
    "chat_model_from_settings",
    "chat_provider_factory",
    "create_chat_model",
    "register_chat_provider",
]
