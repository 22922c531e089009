"""Is chat possible? The LLM's status for the web UI's banner, and the settings panel's connection test."""

from __future__ import annotations

import time
from typing import Any

import httpx
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from reverie.config import llm_setup_hint
from reverie.errors import ReverieError
from reverie.llm import ChatMessage, chat_model_from_settings
from reverie.server.deps import AdminDep, CredentialDep, RootMemory
from reverie.server.schemas import ErrorOut

llm_router = APIRouter(
    prefix="/api/v1/llm",
    tags=["settings"],
    responses={
        401: {"model": ErrorOut, "description": "No valid credential"},
        403: {"model": ErrorOut, "description": "Admin only"},
    },
)
_TEST_SECONDS = 20.0


class LlmStatusOut(BaseModel):
    """Whether chat can work: a model is configured and its address accepts connections."""

    configured: bool
    reachable: bool | None = Field(description="None when no model is configured")
    provider: str
    model: str = ""
    endpoint: str = Field(default="", description="Admins only")
    detail: str = Field(description="What to do, when chat cannot work")


class LlmTestIn(BaseModel):
    """The model to try; empty fields take the saved [llm] values."""

    model_config = ConfigDict(extra="forbid")

    provider: str = Field(default="", max_length=100)
    model: str = Field(default="", max_length=200)
    endpoint: str = Field(default="", max_length=2000, pattern=r"^(https?://[^\s]+)?$")


class LlmTestOut(BaseModel):
    """The answer of one tiny chat request to the model."""

    ok: bool
    model: str
    milliseconds: int
    detail: str = Field(description="The model's reply, or what went wrong and what to do")


@llm_router.get("/status", response_model=LlmStatusOut)
def llm_status(request: Request, root: RootMemory, credential: CredentialDep) -> LlmStatusOut:
    """Whether chat can work now (cached a few seconds); the endpoint is shown to admins only."""
    upstream: dict[str, Any] = request.app.state.upstream.status()
    configured = upstream["reachable"] is not None
    if not configured:
        detail = "Chat needs a language model and none is configured: " + llm_setup_hint(root.settings)
    elif upstream["reachable"]:
        detail = ""
    else:
        detail = (
            f"The chat model does not answer ({upstream.get('error', '?')}): start it, or fix its endpoint "
            f"under [llm] in {root.settings.config_file} or in Settings, Chat model (LLM)"
        )
    admin = credential.user.is_admin and credential.interface is None
    return LlmStatusOut(
        configured=configured,
        reachable=upstream["reachable"],
        provider=upstream["provider"],
        model=upstream.get("model", ""),
        endpoint=upstream.get("endpoint", "") if admin else "",
        detail=detail,
    )


@llm_router.post("/test", response_model=LlmTestOut)
def test_llm(root: RootMemory, admin: AdminDep, body: LlmTestIn) -> LlmTestOut:
    """Send one short chat request to the model (admin): does it answer, and how fast."""
    settings = root.settings.model_copy(deep=True)
    for name in ("provider", "model", "endpoint"):
        value = getattr(body, name)
        if value:
            setattr(settings.llm, name, value)
    settings.llm.timeout_seconds = min(settings.llm.timeout_seconds, _TEST_SECONDS)
    settings.llm.max_attempts = 1
    started = time.perf_counter()
    try:
        model = chat_model_from_settings(settings, "conversation")
        if model is None:
            return LlmTestOut(ok=False, model="none", milliseconds=0, detail="Choose a provider and a model")
        reply = model.chat([ChatMessage("user", "Say OK.")], max_tokens=8)
    except (ReverieError, httpx.InvalidURL) as exc:
        spent = int((time.perf_counter() - started) * 1000)
        return LlmTestOut(ok=False, model=settings.llm.model or "?", milliseconds=spent, detail=str(exc))
    spent = int((time.perf_counter() - started) * 1000)
    return LlmTestOut(ok=True, model=model.model_id, milliseconds=spent, detail=reply.content.strip()[:200])


__all__ = ["llm_router"]
