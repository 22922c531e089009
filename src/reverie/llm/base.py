"""Chat messages and replies, the chat model protocols and the registry of chat providers.

Providers join the registry by name with :func:`register_chat_provider`, built-in ones the same
way as outside ones, or come from the ``reverie.chat_providers`` entry-point group: the entry
point's name is the provider name and its object is the factory (usually the class).
:func:`chat_model_from_settings` builds the model for a purpose from the settings, offering
each factory only the options its signature takes.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Literal, Protocol, runtime_checkable

from reverie.config import Settings
from reverie.errors import ConfigError, InvalidInput, ProviderUnavailable

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

_lock = threading.RLock()
_factories: dict[str, ChatModelFactory] = {}
_entry_points: dict[str, EntryPoint] = {}
_discovered = False


def register_chat_provider(name: str, factory: ChatModelFactory) -> None:
    """Make ``factory`` available as ``create_chat_model(name, ...)``; a later call replaces it."""
    if not name or name != name.strip() or name == "none":
        raise ConfigError(f"Chat provider name {name!r} must be a non-empty word other than 'none'")
    _discover()  # so a built-in registering later cannot replace this factory
    with _lock:
        _factories[name] = factory


def available_chat_providers() -> list[str]:
    """Names of every registered or installed chat provider, sorted."""
    _discover()
    with _lock:
        return sorted(set(_factories) | set(_entry_points))


def create_chat_model(name: str, **options: Any) -> ChatModel:
    """Build the chat provider registered as ``name`` with ``options`` (its keyword arguments)."""
    factory = chat_provider_factory(name)
    try:
        inspect.signature(factory).bind(**options)
    except TypeError as exc:
        raise ConfigError(
            f"Chat provider {name!r} does not accept these options "
            f"({', '.join(sorted(options)) or 'none'}): {exc}; fix the [llm] settings"
        ) from exc
    except ValueError:
        pass  # some callables (C extensions) have no signature; let the call decide
    return factory(**options)


def chat_provider_factory(name: str) -> ChatModelFactory:
    """The factory registered (or installed) under ``name``; ConfigError if there is none."""
    _discover()
    with _lock:
        factory = _factories.get(name)
        entry_point = _entry_points.get(name)
    if factory is not None:
        return factory
    if name == "none":
        raise ConfigError(
            'Chat provider "none" means no chat model; chat_model_from_settings returns None for it'
        )
    if entry_point is None:
        raise ConfigError(
            f"Unknown chat provider {name!r}; known providers: none, "
            f"{', '.join(available_chat_providers())}. Set provider under [llm] or "
            "[memory.extraction] to one of them, or install the package that provides it"
        )
    loaded = _load_entry_point(entry_point)
    with _lock:
        # A provider registered by hand while we loaded wins over the entry point.
        return _factories.setdefault(name, loaded)


def accepted_options(factory: Callable[..., object], offered: Mapping[str, Any]) -> dict[str, Any]:
    """The items of ``offered`` that ``factory``'s signature takes (all of them if it takes ``**kwargs``)."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return {}  # no signature to read: offer nothing rather than guess
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return dict(offered)
    return {key: value for key, value in offered.items() if key in parameters}


def chat_model_from_settings(settings: Settings, purpose: Purpose) -> ChatModel | None:
    """The chat model for ``purpose``, or None when its provider is "none".

    "conversation" uses [llm]. "extraction" uses [memory.extraction] with its own temperature
    and timeout; an empty model falls back to [llm]'s, and so do an empty endpoint and api_key
    when both sections name the same provider (another provider's key or server would be wrong,
    and sending a key to a different vendor leaks it). HTTP retries follow [llm] for both.
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
        provider = conf.provider
        same = conf.provider == llm.provider
        offered |= {
            "model": conf.model or llm.model,
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
    factory = chat_provider_factory(provider)
    return create_chat_model(provider, **accepted_options(factory, offered))


def _load_entry_point(entry_point: EntryPoint) -> ChatModelFactory:
    try:
        loaded: object = entry_point.load()
    except (ImportError, AttributeError) as exc:
        raise ProviderUnavailable(
            f"Cannot load chat provider {entry_point.name!r} from "
            f"{entry_point.value} ({exc}); reinstall the package that provides it"
        ) from exc
    if not callable(loaded):
        raise ConfigError(
            f"Entry point {entry_point.name!r} in group {ENTRY_POINT_GROUP} points at "
            f"{entry_point.value}, which is not callable"
        )
    factory: ChatModelFactory = loaded
    return factory


def _discover() -> None:
    """Register the built-in providers and read the entry points, once per process."""
    global _discovered
    with _lock:
        if _discovered:
            return
        # Set first: the built-in modules call register_chat_provider, which comes back here.
        _discovered = True
        try:
            # Imported here, not at the top, because the built-in modules import this one.
            from reverie.llm import anthropic, ollama, openai  # noqa: F401

            for entry_point in entry_points(group=ENTRY_POINT_GROUP):
                _entry_points.setdefault(entry_point.name, entry_point)
        except BaseException:
            _discovered = False
            raise


__all__ = [
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
