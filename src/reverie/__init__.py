"""Reverie: local-first long-term memory for personal AI assistants."""

from reverie.config import Settings, load_settings
from reverie.conversations import Turn
from reverie.errors import (
    ConfigError,
    Conflict,
    GuardRejected,
    InvalidInput,
    MigrationError,
    NotFound,
    ProviderError,
    ProviderUnavailable,
    ReverieError,
)
from reverie.memory import FORGET_ALL_CONFIRMATION, Memory, RememberResult
from reverie.observe import Observation
from reverie.retrieve.context import ContextBlock
from reverie.retrieve.search import RecentResults, SearchResults
from reverie.tools.memory_tool import ALL_FUNCTION_SCHEMAS, FUNCTION_SCHEMAS, TOOL_PROMPT, ToolResponse

__version__ = "0.1.0"

__all__ = [
    "FORGET_ALL_CONFIRMATION",
    "ALL_FUNCTION_SCHEMAS",
    "FUNCTION_SCHEMAS",
    "TOOL_PROMPT",
    "ConfigError",
    "Conflict",
    "ContextBlock",
    "GuardRejected",
    "InvalidInput",
    "Memory",
    "MigrationError",
    "NotFound",
    "Observation",
    "ProviderError",
    "ProviderUnavailable",
    "RecentResults",
    "RememberResult",
    "ReverieError",
    "SearchResults",
    "Settings",
    "ToolResponse",
    "Turn",
    "__version__",
    "load_settings",
]
