"""Routes the web UI needs beyond the REST API: summaries, chart data, sign-in status and settings.

Settings: an admin reads and changes ``[memory.decay]``, the ``[embeddings]`` provider and
``[embeddings.hybrid]`` weights, and the ``[memory.extraction]`` model. Changes are validated
with the config models, written to the config file atomically (comments kept), and applied to
the running server where that is safe (decay, hybrid weights, auto-extraction); the rest waits
for a restart, which the answer says.
"""

from __future__ import annotations

import os
import re
import threading
import unicodedata
from collections import Counter
from datetime import date, datetime, timedelta, tzinfo
from functools import reduce
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError

from reverie.config import (
    CacheSettings,
    DecaySettings,
    EmbeddingSettings,
    ExtractionSettings,
    HybridSettings,
    LlmSettings,
    RagSettings,
    Settings,
)
from reverie.embed.base import embedders
from reverie.embed.service import embedding_models
from reverie.errors import ConfigError, InvalidInput, ProviderError, ProviderUnavailable, Unauthenticated
from reverie.llm.base import chat_model_from_settings, chat_providers
from reverie.memory import Memory
from reverie.server.deps import AdminDep, MemoryDep, RootMemory, authenticate, is_loopback
from reverie.server.errors import error_response
from reverie.server.schemas import ErrorOut, SummaryOut, summary_out
from reverie.server.tomlpatch import write_config
from reverie.store.base import MemoryRow

ui_api_router = APIRouter(
    prefix="/api/v1",
    responses={
        401: {"model": ErrorOut, "description": "No valid credential"},
        403: {"model": ErrorOut, "description": "Admin only"},
        404: {"model": ErrorOut, "description": "No such summary (for this user)"},
        422: {"model": ErrorOut, "description": "Invalid values, with a message per field in `fields`"},
    },
)
SummaryId = Annotated[int, PathParam(ge=1, le=2**63 - 1, description="The summary's id")]
_PAGE = 1000
_BINS = 10

# Which settings the UI edits: the section's model and the keys in it.
_EDITABLE: dict[str, tuple[type[BaseModel], tuple[str, ...]]] = {
    "memory.decay": (DecaySettings, tuple(DecaySettings.model_fields)),
    "embeddings": (EmbeddingSettings, ("provider", "model", "endpoint")),
    "embeddings.cache": (CacheSettings, ("enabled",)),
    "embeddings.hybrid": (
        HybridSettings,
        ("enabled", "fusion", "keyword_weight", "vector_weight", "min_similarity"),
    ),
    "memory.extraction": (ExtractionSettings, ("provider", "model", "endpoint", "auto_extract")),
    "llm": (LlmSettings, ("provider", "model", "endpoint")),
    "rag": (RagSettings, ("documents_dir",)),  # on the Knowledge Base page
}
_LIVE_SECTIONS = ("memory.decay", "embeddings.hybrid", "llm")  # chat reads [llm] on every request
_LIVE_KEYS = ("memory.extraction.auto_extract", "rag.documents_dir", "embeddings.cache.enabled")
_settings_lock = threading.Lock()
Bucket = Literal["day", "week", "month"]


# models --------------------------------------------------------------------------------
class AuthStatusOut(BaseModel):
    """Whether the first admin still has to be created, and whether this browser is signed in."""

    setup_needed: bool = Field(description="No admin exists yet: open /setup on the server's machine")
    setup_here: bool = Field(description="This request comes from the server's machine (loopback)")
    signed_in: bool


class SummaryListOut(BaseModel):
    """One page of conversation summaries, newest first, and how many there are."""

    summaries: list[SummaryOut]
    total: int
    limit: int
    offset: int
    retention_days: int | None = Field(
        default=None,
        description="Summaries older than this are deleted nightly ([memory.decay] summary_retention_days); "
        "null when nightly maintenance is off",
    )


class TimelinePoint(BaseModel):
    """Memories created in one period, and how many were kept by its end."""

    start: str = Field(examples=["2026-01-12"], description="First day of the period")
    facts: int
    preferences: int
    total: int = Field(description="Active memories created up to the end of the period")


class ConfidenceBin(BaseModel):
    """How many memories have a confidence in [low, high)."""

    low: float
    high: float
    facts: int
    preferences: int


class ChartsOut(BaseModel):
    """Data for the UI's charts: memories over time and the confidence distribution."""

    bucket: Bucket
    timeline: list[TimelinePoint]
    confidence: list[ConfidenceBin]
    total: int


class SettingFieldOut(BaseModel):
    """One editable setting: its type and limits (from the config models) and whether it applies live."""

    key: str = Field(examples=["memory.decay.hour"])
    type: Literal["integer", "number", "boolean", "string"]
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    choices: list[str] | None = None
    default: Any = None
    live: bool = Field(description="A change applies at once; otherwise after a restart")


class SettingsOut(BaseModel):
    """The editable settings: saved values, their fields, and what waits for a restart."""

    values: dict[str, Any]
    fields: list[SettingFieldOut]
    restart_required: list[str] = Field(description="Saved keys that take effect at the next start")
    config_path: str


class SettingsSavedOut(SettingsOut):
    """What a change did."""

    changed: list[str]
    applied: list[str] = Field(description="Changed keys already in effect")
    warnings: list[str]


class EmbeddingModelsOut(BaseModel):
    """The models an embedding provider offers, for the settings page's model list."""

    provider: str
    models: list[str] | None = Field(
        description="Names read from the provider (Ollama /api/tags, OpenAI-compatible /v1/models); "
        "null when it cannot be asked: type the model's name instead"
    )
    detail: str = Field(default="", description="Why there is no list")


class CacheClearedOut(BaseModel):
    """What emptying the embedding cache removed."""

    removed: int = Field(description="Cached vectors dropped; texts are embedded again when next needed")


# sign-in status --------------------------------------------------------------------------
@ui_api_router.get("/auth/status", response_model=AuthStatusOut, tags=["accounts"])
def auth_status(request: Request, root: RootMemory) -> AuthStatusOut:
    """Public: whether setup is needed and whether the caller's credential is valid (never 401)."""
    try:
        authenticate(root, request.headers, request.cookies, "GET")
        signed_in = True
    except (Unauthenticated, InvalidInput):
        signed_in = False
    return AuthStatusOut(
        setup_needed=not root.accounts.has_admin(),
        setup_here=is_loopback(request.client.host if request.client else None),
        signed_in=signed_in,
    )


# summaries -------------------------------------------------------------------------------
@ui_api_router.get("/summaries", response_model=SummaryListOut, tags=["memories"])
def list_summaries(
    memory: MemoryDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0,
) -> SummaryListOut:
    """The user's conversation summaries, newest first, one page at a time."""
    rows = memory.summaries(limit=limit, offset=offset)
    total = 0 if memory.is_guest else memory.scope.count_summaries()
    decay = memory.settings.memory.decay
    return SummaryListOut(
        summaries=[summary_out(row, memory.tz) for row in rows],
        total=total,
        limit=limit,
        offset=offset,
        retention_days=decay.summary_retention_days if decay.enabled else None,
    )


@ui_api_router.delete("/summaries/{summary_id}", response_model=SummaryOut, tags=["memories"])
def delete_summary(memory: MemoryDep, summary_id: SummaryId) -> SummaryOut:
    """Delete one conversation summary for good and return what it was."""
    return summary_out(memory.delete_summary(summary_id), memory.tz)


# charts ----------------------------------------------------------------------------------
def _all_memories(memory: Memory) -> list[MemoryRow]:
    rows: list[MemoryRow] = []
    while True:
        page = memory.list_memories(order="id", limit=_PAGE, offset=len(rows))
        rows += page
        if len(page) < _PAGE:
            return rows


def _period_start(day: date, bucket: Bucket) -> date:
    if bucket == "week":
        return day - timedelta(days=day.weekday())
    if bucket == "month":
        return day.replace(day=1)
    return day


def _next_period(start: date, bucket: Bucket) -> date:
    if bucket == "week":
        return start + timedelta(days=7)
    if bucket == "month":
        return (start + timedelta(days=32)).replace(day=1)
    return start + timedelta(days=1)


def timeline(rows: list[MemoryRow], tz: tzinfo, now: float) -> tuple[Bucket, list[TimelinePoint]]:
    """Memories created per day, week or month (chosen by the span), from the period before the first
    one (when there were none) to today."""
    if not rows:
        return "day", []
    days = [datetime.fromtimestamp(row.created_at, tz).date() for row in rows]
    first, today = min(days), max(max(days), datetime.fromtimestamp(now, tz).date())
    span = (today - first).days
    bucket: Bucket = "day" if span <= 62 else "week" if span <= 7 * 104 else "month"
    created = Counter((_period_start(day, bucket), row.kind) for day, row in zip(days, rows, strict=True))
    points, total = [], 0
    start = _period_start(_period_start(first, bucket) - timedelta(days=1), bucket)  # starts from nothing
    while start <= today:
        facts, preferences = created[(start, "fact")], created[(start, "preference")]
        total += facts + preferences
        points.append(
            TimelinePoint(start=start.isoformat(), facts=facts, preferences=preferences, total=total)
        )
        start = _next_period(start, bucket)
    return bucket, points


def confidence_bins(rows: list[MemoryRow]) -> list[ConfidenceBin]:
    """Ten bins of confidence, 0.0-0.1 up to 0.9-1.0 (1.0 falls in the last)."""
    counts = Counter((min(int(round(row.confidence * _BINS, 6)), _BINS - 1), row.kind) for row in rows)
    return [
        ConfidenceBin(
            low=i / _BINS,
            high=(i + 1) / _BINS,
            facts=counts[(i, "fact")],
            preferences=counts[(i, "preference")],
        )
        for i in range(_BINS)
    ]


@ui_api_router.get("/stats/charts", response_model=ChartsOut, tags=["reading"])
def charts(memory: MemoryDep) -> ChartsOut:
    """Active memories created over time (per day, week or month) and their confidence distribution."""
    rows = _all_memories(memory)
    bucket, points = timeline(rows, memory.tz, memory.clock())
    return ChartsOut(bucket=bucket, timeline=points, confidence=confidence_bins(rows), total=len(rows))


# settings --------------------------------------------------------------------------------
def _keys() -> list[str]:
    return [f"{section}.{name}" for section, (_, names) in _EDITABLE.items() for name in names]


def _value(settings: Settings, key: str) -> Any:
    return reduce(getattr, key.split("."), settings)


def _section(settings: Settings, key: str) -> tuple[BaseModel, str]:
    *path, name = key.split(".")
    return reduce(getattr, path, settings), name


def _live(request: Request, key: str) -> bool:
    if key == "memory.decay.enabled":  # turning it on needs the nightly thread, started at startup
        return "maintenance" in request.app.state.workers
    return key.rpartition(".")[0] in _LIVE_SECTIONS or key in _LIVE_KEYS


def _choices(key: str) -> list[str] | None:
    if key == "embeddings.provider":
        return embedders.names()
    if key == "memory.extraction.provider":  # empty: the [llm] provider (DAWN §3.2)
        return ["", "none", *chat_providers.names()]
    if key == "llm.provider":
        return ["none", *chat_providers.names()]
    return None


def _field(request: Request, key: str) -> SettingFieldOut:
    section, name = key.rsplit(".", 1)
    schema = _EDITABLE[section][0].model_json_schema()["properties"][name]
    return SettingFieldOut(
        key=key,
        type=schema.get("type", "string"),
        minimum=schema.get("minimum"),
        maximum=schema.get("maximum"),
        exclusive_minimum=schema.get("exclusiveMinimum"),
        choices=_choices(key) or schema.get("enum"),
        default=schema.get("default"),
        live=_live(request, key),
    )


def _pending(request: Request) -> dict[str, Any]:
    found = getattr(request.app.state, "settings_pending", None)
    if not isinstance(found, dict):
        found = request.app.state.settings_pending = {}
    return found


def config_path(settings: Settings) -> Path:
    """The config file the server read at startup (``--config``, REVERIE_CONFIG or the home's)."""
    return settings.config_file


def _settings_out(request: Request, root: Memory) -> dict[str, Any]:
    pending = _pending(request)
    values = {key: pending.get(key, _value(root.settings, key)) for key in _keys()}
    return {
        "values": values,
        "fields": [_field(request, key) for key in _keys()],
        "restart_required": sorted(pending),
        "config_path": str(config_path(root.settings)),
    }


@ui_api_router.get("/settings", response_model=SettingsOut, tags=["settings"])
def get_settings(request: Request, root: RootMemory, admin: AdminDep) -> SettingsOut:
    """The editable settings (admin): decay, embeddings provider and hybrid weights, extraction model."""
    return SettingsOut(**_settings_out(request, root))


@ui_api_router.get("/embeddings/models", response_model=EmbeddingModelsOut, tags=["settings"])
def list_embedding_models(
    root: RootMemory,
    admin: AdminDep,
    provider: Annotated[str, Query(max_length=100, description="Empty: the saved provider")] = "",
    endpoint: Annotated[
        str, Query(max_length=2000, pattern=r"^(https?://\S+)?$", description="Empty: the provider's default")
    ] = "",
) -> EmbeddingModelsOut:
    """The models the embedding provider offers (admin), or why it cannot say (never an error)."""
    name = provider or root.settings.embeddings.provider
    if name not in embedders.names():
        known = ", ".join(embedders.names())
        raise InvalidInput(f"Unknown embedding provider {name!r}; choose one of {known}")
    try:
        models = embedding_models(root.settings, name, endpoint)
    except (ProviderUnavailable, ProviderError, ConfigError) as exc:
        return EmbeddingModelsOut(provider=name, models=None, detail=str(exc))
    detail = "" if models is not None else f"The {name} provider has no list of models"
    return EmbeddingModelsOut(provider=name, models=models, detail=detail)


@ui_api_router.delete("/embeddings/cache", response_model=CacheClearedOut, tags=["settings"])
def clear_embedding_cache(root: RootMemory, admin: AdminDep) -> CacheClearedOut:
    """Empty the embedding cache and its hit counters (admin); stored memories keep their vectors."""
    removed = root.store.cache_clear()
    if root.embeddings is not None:
        root.embeddings.forget_recent()
    return CacheClearedOut(removed=removed)


def _validate(root: Memory, values: dict[str, Any]) -> tuple[Settings | None, dict[str, str]]:
    """The settings with ``values`` (dotted keys) applied, or the per-field problems."""
    problems = {key: "not an editable setting" for key in values if key not in _keys()}
    problems |= {
        key: "control characters are not allowed in a setting"
        for key, value in values.items()
        if isinstance(value, str) and any(unicodedata.category(ch) == "Cc" for ch in value)
    }
    problems |= {
        key: "an address starting with http:// or https://, or empty for the provider's default"
        for key, value in values.items()
        if key.endswith(".endpoint") and isinstance(value, str) and value.strip()
        and not re.fullmatch(r"https?://\S+", value.strip())
    }
    if problems or not values:
        return None, problems
    data = root.settings.model_dump()
    for key, value in values.items():
        *path, name = key.split(".")
        reduce(lambda table, part: table[part], path, data)[name] = value
    try:
        checked = Settings.model_validate(data)
    except ValidationError as exc:
        for item in exc.errors():
            key = ".".join(str(part) for part in item["loc"])
            problems.setdefault(key, f"{item['msg']} (got {item.get('input')!r})")
        return None, problems
    llm_keys = [key for key in values if key.startswith("llm.")]
    if llm_keys:
        try:  # a chat model that cannot be built would make every chat answer an error
            chat_model_from_settings(checked, "conversation")
        except ConfigError as exc:
            problems["llm.model" if "model" in str(exc) else llm_keys[0]] = str(exc)
    for key in values:
        choices = _choices(key)
        if choices is not None and _value(checked, key) not in choices:
            problems[key] = f"unknown provider {_value(checked, key)!r}; choose one of {', '.join(choices)}"
    return (None if problems else checked), problems


def _apply_live(root: Memory, checked: Settings, keys: list[str]) -> None:
    for key in keys:
        section, name = _section(root.settings, key)
        setattr(section, name, _value(checked, key))
    if any(key.startswith("embeddings.hybrid.") for key in keys):
        root.retune_search()
    service = root.embeddings
    if "embeddings.cache.enabled" in keys and service is not None:
        cache = root.settings.embeddings.cache
        service.use_cache(root.store, cache.max_entries if cache.enabled else 0)


def _env_warnings(keys: list[str]) -> list[str]:
    names = [f"REVERIE_{key.upper().replace('.', '__')}" for key in keys]
    return [
        f"{name} is set in the server's environment and overrides the file at the next start"
        for name in names
        if name in os.environ
    ]


@ui_api_router.put(
    "/settings",
    response_model=SettingsSavedOut,
    tags=["settings"],
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"type": "object", "additionalProperties": True},
                    "example": {"memory.decay.hour": 3, "embeddings.hybrid.keyword_weight": 0.4},
                }
            },
        }
    },
)
def put_settings(
    request: Request,
    root: RootMemory,
    admin: AdminDep,
    values: Annotated[dict[str, Any], Body(description="Dotted keys and their new values")],
) -> JSONResponse:
    """Change settings (admin): validated, saved to the config file, applied live where safe.

    422 with a message per key in ``fields`` when a value is refused; nothing is saved then.
    """
    with _settings_lock:
        checked, problems = _validate(root, values)
        if checked is None:
            detail = "; ".join(f"{key}: {message}" for key, message in problems.items())
            return error_response(422, "invalid_input", detail or "Nothing to change", fields=problems)
        pending = _pending(request)
        saved = {key: pending.get(key, _value(root.settings, key)) for key in values}
        changed = [key for key in values if _value(checked, key) != saved[key]]
        path = config_path(root.settings)
        if changed:
            write_config(path, {key: _value(checked, key) for key in changed})
        live = [key for key in changed if _live(request, key)]
        _apply_live(root, checked, live)
        for key in changed:
            pending.pop(key, None)
            if key not in live and _value(checked, key) != _value(root.settings, key):
                pending[key] = _value(checked, key)
        body = SettingsSavedOut(
            **_settings_out(request, root), changed=changed, applied=live, warnings=_env_warnings(changed)
        )
    return JSONResponse(body.model_dump(mode="json"))


__all__ = ["ui_api_router"]
