"""Shared fixtures: every test gets its own Reverie home and a clean environment."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import engines
import pgserver
import pytest

from reverie import Memory, Settings, load_settings


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): checks SQLite internals; skipped on PostgreSQL")
    config.addinivalue_line("markers", "postgres_only(reason): needs PostgreSQL; skipped on SQLite")
    config.addinivalue_line(
        "markers",
        "engine_free: opens no store (pure parsing, ranking, config): run in the SQLite pass only; "
        "that pass fails the test if it opens a store or starts a process",
    )


# Test files whose every test is engine_free: parsers, rules, the embedder and the code's structure.
# The SQLite pass checks the claim (a test here that opens a store or starts a process fails).
ENGINE_FREE_FILES = frozenset(
    {
        "test_architecture.py",
        "test_claims.py",
        "test_docs_chunker.py",
        "test_docs_parsers.py",
        "test_embed_local.py",
        "test_guard_regex.py",
        "test_guard_struct.py",
        "test_mutation_kills_phrases.py",
        "test_mutation_kills_timeexpr.py",
        "test_phrases.py",
        "test_rules.py",
        "test_timeutil.py",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the engine-free files; on PostgreSQL runs, leave their tests out: the SQLite pass ran them."""
    for item in items:
        if item.path.name in ENGINE_FREE_FILES:
            item.add_marker(pytest.mark.engine_free)
        # Skip before any fixture is built (a module fixture may be costly), with the marker's reason.
        other = item.get_closest_marker("sqlite_only" if engines.POSTGRES else "postgres_only")
        if other is not None:
            reason = other.kwargs.get("reason") or (other.args or [""])[0]
            where = "SQLite only" if engines.POSTGRES else "needs PostgreSQL (REVERIE_TEST_ENGINE=postgres)"
            item.add_marker(pytest.mark.skip(reason=f"{where}: {reason}" if reason else where))
    if not engines.POSTGRES:
        return
    kept = [item for item in items if item.get_closest_marker("engine_free") is None]
    left_out = [item for item in items if item.get_closest_marker("engine_free") is not None]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


@pytest.fixture(autouse=True)
def _engine_free_opens_no_store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``engine_free`` test that opens a store or starts a process fails: it belongs on both engines."""
    if request.node.get_closest_marker("engine_free") is None:
        return
    from reverie import store

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError(
            f"{request.node.nodeid} is marked engine_free but opens a store or starts a process: "
            "remove the marker so it runs on PostgreSQL too"
        )

    monkeypatch.setattr(store, "_ENGINES", {scheme: refuse for scheme in store._ENGINES})
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)


def pytest_report_header(config: pytest.Config) -> str:
    return f"reverie store engine: {engines.ENGINE} (set REVERIE_TEST_ENGINE=postgres for PostgreSQL)"


@pytest.fixture(scope="session", autouse=True)
def pg_databases() -> Iterator[engines.Databases | str | None]:
    """On PostgreSQL runs: the session's server (started here) and its test databases, or why none."""
    if not engines.POSTGRES:
        yield None
        return
    try:
        cluster = engines.start_cluster()
    except pgserver.Unavailable as exc:
        if engines.STRICT:
            pytest.exit(f"CI=true, and the PostgreSQL engine cannot start: {exc}", returncode=1)
        yield str(exc)
        return
    databases = engines.Databases(cluster)
    databases.install()
    engines.CURRENT.append(databases)
    yield databases
    engines.CURRENT.clear()
    databases.uninstall()
    databases.close()
    cluster.stop()


@pytest.fixture(autouse=True)
def _clean_env(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    pg_databases: engines.Databases | str | None,
) -> Iterator[None]:
    """No REVERIE_* variable leaks in; REVERIE_HOME points at this test's folder; the engine is chosen."""
    for name in list(os.environ):
        if name.startswith("REVERIE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("REVERIE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("REVERIE_RAG__DOCUMENTS_DIR", str(tmp_path / "documents"))
    monkeypatch.setenv("TZ", "UTC")
    if pg_databases is None:
        if request.node.get_closest_marker("postgres_only"):
            pytest.skip("needs PostgreSQL: run with REVERIE_TEST_ENGINE=postgres")
        yield
        return
    marker = request.node.get_closest_marker("sqlite_only")
    if marker is not None:
        reason = marker.kwargs.get("reason") or (marker.args or ["checks SQLite internals"])[0]
        pytest.skip(f"SQLite only: {reason}")
    if isinstance(pg_databases, str):
        pytest.skip(f"PostgreSQL unavailable, test not run on it: {pg_databases}")
    monkeypatch.setenv("REVERIE_STORE__URL", pg_databases.url_for(tmp_path / "home" / "reverie.db"))
    try:
        yield
    finally:
        pg_databases.end_test(tmp_path)


_AWAY_FROM_NOW = (datetime.now(UTC).hour + 12) % 24  # an hour no test run reaches


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings with a fresh home under tmp_path and the UTC time zone."""
    return load_settings(
        home=tmp_path / "home",
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
            # A server started in the nightly maintenance hour (02:00 by default) runs it at once,
            # in the background: decay, retention and a documents re-scan would race the test.
            "REVERIE_MEMORY__DECAY__HOUR": str(_AWAY_FROM_NOW),
        },
    )


class Clock:
    """A clock tests can move."""

    def __init__(self, start: float = 1_768_500_000.0) -> None:  # 2026-01-15T18:00Z
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    """A controllable clock starting on 2026-01-15 18:00 UTC."""
    return Clock()


@pytest.fixture
def memory(settings: Settings, clock: Clock) -> Iterator[Memory]:
    """The default user's memory on a real SQLite file."""
    mem = Memory(settings, clock=clock)
    yield mem
    mem.close()


VARIED_FACTS = [
    "User's daughter Emma plays the violin",
    "User is allergic to shellfish",
    "User drives a blue Subaru Outback",
    "User's brother Tom lives in Denver",
    "User works night shifts at the hospital",
    "User's cat Miso likes tuna",
    "User is training for the Berlin marathon",
    "User grew up on a farm in Iowa",
    "User's favourite author is Ursula Le Guin",
    "User is learning Portuguese on weekends",
    "User had knee surgery in 2023",
    "User keeps bees in the back garden",
    "User's wedding anniversary is in June",
    "User collects vintage fountain pens",
    "User volunteers at the food bank on Saturdays",
    "User's mother makes excellent lasagna",
    "User plays chess online most evenings",
    "User is afraid of heights",
    "User built a treehouse for the kids",
    "User prefers trains to planes for travel in Europe",
    "User's best friend Priya is a pilot",
    "User studied architecture at university",
    "User brews kombucha at home",
    "User's neighbour borrows the lawnmower",
    "User has a sourdough starter named Gerald",
    "User sings in a community choir",
    "User's son Leo is starting kindergarten",
    "User restores old motorcycles",
    "User is colour-blind",
    "User's grandmother was born in Naples",
]
