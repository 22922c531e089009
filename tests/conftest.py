"""Shared fixtures: every test gets its own Reverie home and a clean environment."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from reverie import Memory, Settings, load_settings


@pytest.fixture(autouse=True)
def _clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No REVERIE_* variable leaks in; REVERIE_HOME points at this test's folder."""
    for name in list(os.environ):
        if name.startswith("REVERIE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("REVERIE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TZ", "UTC")
    yield


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings with a fresh home under tmp_path and the UTC time zone."""
    return load_settings(home=tmp_path / "home", environ={"REVERIE_MEMORY__TIMEZONE": "UTC"})


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
