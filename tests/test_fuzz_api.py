"""Fuzz every route of the OpenAPI schema with schemathesis against a real server: never a 5xx.

Each operation gets schemathesis' schema-conforming (positive) and schema-violating (negative)
requests, sent with an admin's API token to a real uvicorn server on 127.0.0.1 whose LLM is the
fake model server. Hypothesis runs derandomized with no example database, so CI sends the same
requests every run. The SQLite pass draws FUZZ_EXAMPLES per operation and mode; the PostgreSQL
pass draws a few (PG_EXAMPLES): enough to meet its own types (bigint ids, NUL bytes in text)
while keeping the whole suite quick. A failure lists every 5xx with a curl command to replay it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engines
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode

from reverie import Memory, Settings
from reverie.llm.transcribe import AUDIO_TYPES
from reverie.server import create_app
from tests.fakeserver import FakeModelServer, chat_settings_for
from tests.liveserver import live_server

# Spoken chat takes raw audio: the fake transcriber hears its bytes as text (words, or noise).
_SPEECH = st.one_of(st.binary(max_size=512), st.text(max_size=80).map(str.encode))
for _media in AUDIO_TYPES:
    schemathesis.openapi.media_type(_media, _SPEECH)

FUZZ_EXAMPLES = {GenerationMode.POSITIVE: 20, GenerationMode.NEGATIVE: 8}
PG_EXAMPLES = {GenerationMode.POSITIVE: 4, GenerationMode.NEGATIVE: 2}
# Password checks cost an argon2 hash each: a few are enough to meet the route's code.
FEW = {("POST", "/api/v1/auth/login"): 5, ("POST", "/setup"): 5, ("POST", "/api/v1/auth/password"): 5}
# Routes that can take the fuzzer's own credential or user away run last.
LAST = (
    "DELETE /api/v1/tokens",
    "DELETE /api/v1/users",
    "POST /api/v1/auth/logout",
    "POST /api/v1/forget-all",
)


def _token(settings: Settings) -> str:
    with Memory(settings) as memory:
        user = memory.store.get_user("default") or memory.add_user("default")
        if not user.is_admin:
            memory.store.set_admin(user.id, True)
        return memory.accounts.create_token(user, "fuzz")[1]


def _seed(settings: Settings) -> None:
    """A little of everything, so that ids 1 and 2 name real rows."""
    with Memory(settings) as memory:
        memory.add_user("bob")
        memory.remember("User plays the cello")
        memory.prefer("units", "metric")
        conversation = memory.start_conversation().id
        memory.add_message(conversation, "user", "I moved to Porto last week")
        memory.add_message(conversation, "assistant", "Nice!")
        memory.end_conversation(conversation)
        memory.start_conversation()
        memory.consolidator().run_pending()


@pytest.fixture
def fuzz_server(settings: Settings, tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    """A real server with an LLM (the fake model server) and some data in its store."""
    with FakeModelServer() as fake:
        chat_settings_for(settings, fake)
        settings.rag.documents_dir = str(tmp_path / "documents")
        (tmp_path / "documents").mkdir()
        (tmp_path / "documents" / "boiler.md").write_text("# Boiler\nReset it by holding the red button.\n")
        _seed(settings)
        with live_server(settings) as base:
            yield base, settings


def _operations(settings: Settings) -> list[Any]:
    schema = schemathesis.openapi.from_dict(create_app(settings).openapi())
    operations = [result.ok() for result in schema.get_all_operations()]
    return sorted(operations, key=lambda op: f"{op.method.upper()} {op.path}".startswith(LAST))


def test_no_route_answers_5xx(fuzz_server: tuple[str, Settings]) -> None:
    base, settings = fuzz_server
    examples = PG_EXAMPLES if engines.POSTGRES else FUZZ_EXAMPLES
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {_token(settings)}"
    failures: list[str] = []
    sent = 0
    started = time.monotonic()
    operations = _operations(settings)
    for operation in operations:
        name = (operation.method.upper(), operation.path)
        for mode, count in examples.items():
            count = min(count, FEW.get(name, count))
            sent += _fuzz(operation, mode, count, base, session, settings, failures)
    elapsed = time.monotonic() - started
    print(f"fuzzed {len(operations)} operations with {sent} requests in {elapsed:.0f} s")
    assert not failures, "\n".join(failures)
    assert len(operations) >= 60 and sent >= len(operations)


def _fuzz(
    operation: Any,
    mode: GenerationMode,
    count: int,
    base: str,
    session: requests.Session,
    settings: Settings,
    failures: list[str],
) -> int:
    """Send ``count`` generated requests for one operation; 5xx answers go to ``failures``."""
    sent = 0

    @settings_for(count)
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        nonlocal sent
        response = case.call(base_url=base, session=session, timeout=30)
        sent += 1
        if response.status_code == 401:  # the fuzzer revoked its own token or user
            session.headers["Authorization"] = f"Bearer {_token(settings)}"
        if response.status_code >= 500:
            replay = case.as_curl_command()
            failures.append(f"{response.status_code} {mode.value} {replay}\n  {response.text[:300]}")

    try:
        run()
    except Unsatisfiable:
        pass  # no way to break a schema without parameters: nothing to send in negative mode
    return sent


def settings_for(count: int) -> Any:
    """Hypothesis settings that CI repeats exactly: derandomized, no example database."""
    return settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
