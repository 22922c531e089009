"""Reverie's one typed configuration: ``reverie.toml`` sections plus ``REVERIE_*`` overrides.

Where the file comes from, first match wins: an explicit path (``--config``), the
``REVERIE_CONFIG`` variable, ``$REVERIE_HOME/reverie.toml``. Environment variables override
the file with ``__`` between levels: ``REVERIE_MEMORY__CONTEXT_BUDGET_TOKENS=1200``.
Settings are built once at the edge (CLI, server) by :func:`load_settings` and passed down;
library code never reads the environment.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from reverie.errors import ConfigError

CONFIG_FILE_NAME = "reverie.toml"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, coerce_numbers_to_str=True)


class LlmSettings(_Section):
    """[llm]: the conversation model (``reverie chat``, the chat API); extraction falls back to it."""

    provider: str = "none"  # none | ollama | openai_compatible | openai | anthropic | a plugin's name
    model: str = ""
    endpoint: str = ""
    api_key: str = ""
    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    max_tokens: int = Field(default=1024, ge=1)
    timeout_seconds: float = Field(default=120.0, gt=0)
    max_attempts: int = Field(default=3, ge=1, le=10)
    retry_backoff_seconds: float = Field(default=0.5, ge=0, le=60)


class ExtractionSettings(_Section):
    """[memory.extraction]: the model that turns conversations into memories.

    An empty provider (the default) uses the [llm] conversation model, or the rules when [llm]
    has none (DAWN §3.2); provider "none" extracts with rules only, whatever [llm] says; an empty
    model (or endpoint, api_key) falls back to the [llm] conversation model's.
    """

    provider: str = ""  # empty: the [llm] provider; "none": rules only
    model: str = ""
    endpoint: str = ""
    api_key: str = ""
    auto_extract: bool = False
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    timeout_seconds: float = Field(default=60.0, gt=0)
    confidence_min: float = Field(default=0.6, ge=0.0, le=1.0)
    max_per_turn: int = Field(default=5, ge=0, le=50)
    max_attempts: int = Field(default=3, ge=1, le=10)
    retry_after_minutes: float = Field(default=10.0, ge=0)
    lease_minutes: float = Field(default=10.0, gt=0)
    short_term_threshold: int = Field(default=30, ge=2)
    short_term_keep: int = Field(default=10, ge=0)
    long_term_threshold: int = Field(default=20, ge=2)
    long_term_keep: int = Field(default=10, ge=0)


class DecaySettings(_Section):
    """[memory.decay]: nightly confidence decay and pruning (DAWN §7.1)."""

    enabled: bool = True
    hour: int = Field(default=2, ge=0, le=23)
    inferred_weekly: float = Field(default=0.95, gt=0, le=1)
    explicit_weekly: float = Field(default=0.98, gt=0, le=1)
    preference_weekly: float = Field(default=0.97, gt=0, le=1)
    inferred_floor: float = Field(default=0.0, ge=0, le=1)
    explicit_floor: float = Field(default=0.50, ge=0, le=1)
    preference_floor: float = Field(default=0.40, ge=0, le=1)
    prune_threshold: float = Field(default=0.25, ge=0, le=1)
    prune_superseded_days: int = Field(default=30, ge=0)
    summary_retention_days: int = Field(default=30, ge=0)
    # Turns of a consolidated conversation are deleted once older than this (DAWN keeps 30 days
    # of what a session left; 0 keeps no transcript once it is consolidated, as in DAWN §13.1).
    transcript_retention_days: int = Field(default=30, ge=0)
    audit_retention_days: int = Field(default=365, ge=0)
    access_reinforcement_boost: float = Field(default=0.05, ge=0, le=1)


class TopicSettings(_Section):
    """[memory.topics]: Rostro's topic files and recent-topics index."""

    enabled: bool = True
    dir: str = ""  # empty: $REVERIE_HOME/topics; one folder per user inside
    split_threshold_lines: int = Field(default=50, ge=4)
    min_conclusions_for_new_topic: int = Field(default=3, ge=1)
    index_max_entries: int = Field(default=20, ge=1, le=200)
    detect_min_similarity: float = Field(default=0.35, ge=-1, le=1)


class MemorySettings(_Section):
    """[memory]: what is kept and how much of it goes into a prompt."""

    enabled: bool = True
    context_budget_tokens: int = Field(default=800, ge=50, le=32000)
    session_timeout_minutes: int = Field(default=15, ge=1)
    duplicate_similarity: float = Field(default=0.85, gt=0, le=1)
    # Cosine distance within which two facts the rules cannot tell apart count as one (the newer
    # wording replaces the older); chosen on the development half of tests/data/merge_corpus.jsonl.
    duplicate_distance_threshold: float = Field(default=0.20, ge=0, le=1)
    relevant_top_k: int = Field(default=5, ge=0, le=100)
    relevant_min_similarity: float = Field(default=0.3, ge=-1, le=1)
    max_memory_bytes: int = Field(default=512, ge=16, le=4096)
    allow_sensitive_on_request: bool = False
    context_max_facts: int = Field(default=30, ge=0)
    context_max_summaries: int = Field(default=3, ge=0)
    timezone: str = ""
    unmapped_interfaces: Literal["guest", "thread"] = "guest"
    extraction: ExtractionSettings = Field(default_factory=ExtractionSettings)
    decay: DecaySettings = Field(default_factory=DecaySettings)
    topics: TopicSettings = Field(default_factory=TopicSettings)
    voice_mapping: dict[str, str] = Field(default_factory=dict)
    # Who else may say "This is NAME" on a shared voice interface (its mapped user always may).
    voice_speakers: dict[str, list[str]] = Field(default_factory=dict)


class RagSettings(_Section):
    """[rag]: the document knowledge base (DAWN §5.3-§5.4, §7.2)."""

    enabled: bool = True
    documents_dir: str = "~/Documents/reverie-knowledge"
    chunk_size_tokens: int = Field(default=256, ge=16, le=4096)
    chunk_overlap_tokens: int = Field(default=50, ge=0)
    similarity_threshold: float = Field(default=0.5, ge=0, le=1)
    max_results: int = Field(default=5, ge=1, le=100)
    reindex_on_startup: bool = True
    watch_for_changes: bool = False
    watch_debounce_ms: int = Field(default=1600, ge=50)
    max_document_size_mb: float = Field(default=10.0, gt=0)
    user_quota_mb: float = Field(default=50.0, ge=0)  # what each user may upload as their own documents
    max_chunks: int = Field(default=100_000, ge=1)
    embed_batch_size: int = Field(default=64, ge=1)
    context_tokens: int = Field(default=500, ge=0)

    @model_validator(mode="after")
    def _overlap_below_size(self) -> RagSettings:
        if self.chunk_overlap_tokens >= self.chunk_size_tokens:
            raise ValueError(
                f"chunk_overlap_tokens ({self.chunk_overlap_tokens}) must be smaller than "
                f"chunk_size_tokens ({self.chunk_size_tokens})"
            )
        return self


class HybridSettings(_Section):
    """[embeddings.hybrid]: how keyword and vector results are merged (DAWN C.2)."""

    enabled: bool = True
    fusion: Literal["weighted", "rrf"] = "weighted"
    keyword_weight: float = Field(default=0.3, ge=0, le=1)
    vector_weight: float = Field(default=0.7, ge=0, le=1)
    min_similarity: float = Field(default=0.3, ge=-1, le=1)


class CacheSettings(_Section):
    """[embeddings.cache]: the embedding cache (DAWN C.4)."""

    enabled: bool = True
    max_entries: int = Field(default=10_000, ge=0)


class EmbeddingSettings(_Section):
    """[embeddings]: which model turns text into vectors."""

    enabled: bool = True
    provider: str = "local"
    model: str = "all-MiniLM-L6-v2"
    endpoint: str = ""
    api_key: str = ""
    threads: int = Field(default=2, ge=1, le=64)
    # "integer": the local MiniLM's matrix products in int8, twice as fast, vectors within
    # cosine 0.99 of "float" (the products as the packaged file stores them).
    local_compute: Literal["integer", "float"] = "integer"
    timeout_seconds: float = Field(default=30.0, gt=0)
    max_attempts: int = Field(default=3, ge=1, le=10)
    retry_backoff_seconds: float = Field(default=0.5, ge=0, le=60)
    pause_after_failure_seconds: float = Field(default=30.0, ge=0)
    index_cache_mb: int = Field(default=512, ge=1)
    hybrid: HybridSettings = Field(default_factory=HybridSettings)
    cache: CacheSettings = Field(default_factory=CacheSettings)


class ServerSettings(_Section):
    """[server]: where ``reverie serve`` listens."""

    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=1, le=65535)
    consolidate_every_seconds: float = Field(default=30.0, ge=0)
    tls_certfile: str = ""
    tls_keyfile: str = ""
    behind_tls_proxy: bool = False
    session_hours: float = Field(default=336.0, gt=0)
    login_max_failures: int = Field(default=5, ge=1)
    login_window_minutes: float = Field(default=15.0, gt=0)
    log_format: Literal["text", "json"] = "text"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # The tools MCP lists (reverie mcp and /mcp): "memory" = memory_search, memory_recent,
    # memory_remember, memory_forget, documents_search; "verbs" = create_memory, update_memory,
    # delete_memory, list_memories, search_memory, forget_memory; "all" = both.
    mcp_tools: Literal["memory", "verbs", "all"] = "memory"


class TranscriptionSettings(_Section):
    """[transcription]: speech to text for POST /chat/audio (OpenAI-compatible /v1/audio/transcriptions)."""

    provider: Literal["none", "openai_compatible", "openai"] = "none"
    endpoint: str = ""  # up to /v1, as for [llm]; empty with provider "openai": https://api.openai.com/v1
    model: str = "whisper-1"
    api_key: str = ""
    language: str = ""  # ISO 639-1 hint ("en"); empty lets the model tell
    timeout_seconds: float = Field(default=60.0, gt=0)


class StoreSettings(_Section):
    """[store]: the database; empty url means ``$REVERIE_HOME/reverie.db``."""

    url: str = ""


class Settings(BaseSettings):
    """Every setting Reverie has, validated; build it with :func:`load_settings`."""

    model_config = SettingsConfigDict(
        env_prefix="REVERIE_",
        env_nested_delimiter="__",
        extra="forbid",
        validate_assignment=True,
        coerce_numbers_to_str=True,
    )

    home: Path = Field(default_factory=lambda: Path(platformdirs.user_data_dir("reverie")))
    default_user: str = "default"
    memory: MemorySettings = Field(default_factory=MemorySettings)
    llm: LlmSettings = Field(default_factory=LlmSettings)
    rag: RagSettings = Field(default_factory=RagSettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    store: StoreSettings = Field(default_factory=StoreSettings)
    transcription: TranscriptionSettings = Field(default_factory=TranscriptionSettings)
    _config_file: Path | None = PrivateAttr(default=None)

    @property
    def config_file(self) -> Path:
        """The config file these settings were read from (or would be): --config, REVERIE_CONFIG, home."""
        return self._config_file or self.home / CONFIG_FILE_NAME

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # load_settings merges file and environment itself, so that library code and tests
        # never depend on the process environment.
        return (init_settings,)

    @property
    def database_path(self) -> Path:
        """Path of the SQLite database file."""
        url = self.store.url
        if url.startswith("sqlite:///"):
            return Path(url.removeprefix("sqlite:///")).expanduser()
        return self.home / "reverie.db"

    def dump(self) -> dict[str, Any]:
        """The effective configuration as plain data, secrets masked."""
        data = self.model_dump(mode="json")
        for section in (data["memory"]["extraction"], data["embeddings"], data["llm"]):
            if section.get("api_key"):
                section["api_key"] = "***"
        return data


def extractor_choice(settings: Settings) -> tuple[str, str, str]:
    """The extraction model's (provider, model, section it comes from); provider "none": rules.

    An unset ``[memory.extraction] provider`` follows ``[llm]``; an explicit "none" means rules.
    """
    conf, llm = settings.memory.extraction, settings.llm
    if conf.provider:
        return conf.provider, conf.model or llm.model, "memory.extraction"
    return llm.provider, conf.model or llm.model, "llm"


def describe_extractor(settings: Settings) -> str:
    """Which extractor is active, in words: "llm: ollama/llama3.2 (from [llm])" or "rules (offline)"."""
    provider, model, section = extractor_choice(settings)
    if provider == "none":
        return "rules (offline)"
    return f"llm: {provider}/{model or '(provider default)'} (from [{section}])"


def _describe(error: ValidationError, origin: str) -> str:
    problems = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"])
        if item["type"] == "extra_forbidden":
            problems.append(f"unknown key '{key}'")
        else:
            problems.append(f"'{key}': {item['msg']} (got {item.get('input')!r})")
    return f"Invalid configuration in {origin}: " + "; ".join(problems)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as exc:
        raise ConfigError(f"Config file {path} does not exist; create it or drop --config") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"Config file {path} is not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(
            f"Cannot read the config file {path} ({exc.strerror}): fix its permissions, "
            "or point --config (REVERIE_CONFIG) at a readable file"
        ) from exc


def load_settings(
    config_path: str | Path | None = None,
    *,
    home: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Build the settings from the config file and ``REVERIE_*`` variables in ``environ``."""
    env = dict(environ or {})
    home_dir = Path(home or env.get("REVERIE_HOME") or platformdirs.user_data_dir("reverie"))
    path = config_path or env.get("REVERIE_CONFIG")
    file_path = Path(path).expanduser() if path else home_dir.expanduser() / CONFIG_FILE_NAME
    data: dict[str, Any] = {}
    origin = "the defaults"
    try:
        found = file_path.exists()
    except OSError as exc:
        raise ConfigError(
            f"Cannot read the config file {file_path} ({exc.strerror}): set REVERIE_HOME (or pass --home) "
            "to a folder you can read and write, or REVERIE_CONFIG to a readable file"
        ) from exc
    if path or found:
        data = _read_toml(file_path)
        origin = str(file_path)
    overrides = _env_overrides(env)
    if overrides:
        origin += " and REVERIE_* environment variables"
    _deep_merge(data, overrides)
    if home is not None:
        data["home"] = str(home)
    try:
        settings = Settings(**data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, origin)) from exc
    settings.home = settings.home.expanduser()
    settings._config_file = file_path
    return settings


def _env_overrides(env: Mapping[str, str]) -> dict[str, Any]:
    """Nested overrides from ``REVERIE_SECTION__KEY`` variables naming a known section."""
    nested: dict[str, Any] = {}
    for name, value in env.items():
        if not name.startswith("REVERIE_") or name == "REVERIE_CONFIG":
            continue
        parts = name.removeprefix("REVERIE_").lower().split("__")
        if parts[0] not in Settings.model_fields:
            continue  # other tools' REVERIE_* variables (tests, benchmarks) are not settings
        target = nested
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value if len(parts) == 1 else _parse_env_value(value)
    return nested


def _deep_merge(base: dict[str, Any], extra: Mapping[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _deep_merge(base[key], value)
        else:
            base[key] = value


def _parse_env_value(value: str) -> Any:
    """Environment values may be TOML literals (numbers, booleans, arrays, inline tables)."""
    try:
        return tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return value



def llm_setup_hint(settings: Settings) -> str:
    """Where to set the chat model: the [llm] keys, the config file's path, the variables, the web UI."""
    return (
        f'set provider and model under [llm] in {settings.config_file} (for example provider = "ollama" '
        'and model = "llama3.2"), or REVERIE_LLM__PROVIDER and REVERIE_LLM__MODEL, or in the web UI: '
        "Settings, Chat model (LLM)"
    )



def check_home(settings: Settings) -> None:
    """ConfigError, with the fix, unless the data folder is a folder this process can write in."""
    home = settings.home
    fix = "set REVERIE_HOME (or pass --home) to a folder you can write"
    try:
        if home.exists() and not home.is_dir():
            raise ConfigError(f"The data folder {home} is a file, not a folder: {fix}, e.g. ~/reverie-data")
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=home):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        if isinstance(exc, PermissionError) and home.is_dir():
            fix += f", or give yourself write access: chmod u+rwx {home}"
        raise ConfigError(f"Cannot use the data folder {home} ({reason}): {fix}") from exc
    if not os.access(home, os.R_OK | os.X_OK):
        raise ConfigError(f"Cannot read the data folder {home}: {fix}, or run chmod u+rwx {home}")


__all__ = [
    "CONFIG_FILE_NAME",
    "CacheSettings",
    "DecaySettings",
    "EmbeddingSettings",
    "ExtractionSettings",
    "HybridSettings",
    "LlmSettings",
    "MemorySettings",
    "RagSettings",
    "TopicSettings",
    "ServerSettings",
    "Settings",
    "StoreSettings",
    "TranscriptionSettings",
    "check_home",
    "describe_extractor",
    "extractor_choice",
    "llm_setup_hint",
    "load_settings",
]
