"""Nightly maintenance with a moved clock: decay, floors, pruning, retention, once per 20 hours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import Clock

from reverie import ConfigError, Memory, Turn, load_settings

WEEK = 7 * 86400.0
DAY = 86400.0


@pytest.fixture
def kept(tmp_path: Path, clock: Clock) -> Memory:
    env = {"REVERIE_EMBEDDINGS__ENABLED": "false", "REVERIE_MEMORY__TIMEZONE": "UTC"}
    mem = Memory(load_settings(home=tmp_path / "m", environ=env), clock=clock)
    yield mem  # type: ignore[misc]
    mem.close()


def _confidence(memory: Memory, memory_id: int) -> float:
    return memory.get(memory_id).confidence


def test_exact_decay_after_1_4_and_52_weeks_with_floors(kept: Memory, clock: Clock) -> None:
    explicit = kept.remember("User is vegetarian").memory
    inferred = kept.remember("User may enjoy jazz", source="inferred", confidence=0.8).memory
    never_used = kept.remember("User owns a red kayak", source="inferred", confidence=0.7).memory
    pref = kept.prefer("verbosity", "concise answers", confidence=0.9).memory
    kept.scope.touch_memories([explicit.id, inferred.id], clock(), 0.05)  # loaded into a prompt once
    start = clock()
    expected = {
        1: (0.98, 0.8 * 0.95, 0.9 * 0.97),
        4: (0.98**4, 0.8 * 0.95**4, 0.9 * 0.97**4),
        52: (0.5, None, 0.4),  # floors: explicit 0.50, preference 0.40; the inferred fact is pruned
    }
    for weeks, (e, i, p) in expected.items():
        clock.now = start + weeks * WEEK
        report = kept.maintainer().run(force=True)
        assert report.ran
        assert _confidence(kept, explicit.id) == pytest.approx(e, abs=1e-9)
        assert _confidence(kept, pref.id) == pytest.approx(p, abs=1e-9)
        assert _confidence(kept, never_used.id) == 0.7  # never accessed: not decayed
        if i is not None:
            assert _confidence(kept, inferred.id) == pytest.approx(i, abs=1e-9)
    assert kept.count() == 3  # explicit, never-used, preference
    pruned = [e for e in kept.scope.list_audit() if e.action == "prune"]
    assert len(pruned) == 1 and pruned[0].target_id == inferred.id
    assert pruned[0].detail["text"] == "User may enjoy jazz" and pruned[0].reason.startswith(
        "confidence under 0.25"
    )


def test_running_often_does_not_compound(kept: Memory, clock: Clock) -> None:
    fact = kept.remember("User may enjoy jazz", source="inferred", confidence=0.8).memory
    kept.scope.touch_memories([fact.id], clock(), 0.05)
    start = clock()
    for day in range(1, 29):  # every night for four weeks
        clock.now = start + day * DAY
        kept.maintainer().run(force=True)
    assert _confidence(kept, fact.id) == pytest.approx(0.8 * 0.95**4, abs=1e-9)


def test_use_restarts_the_decay_and_maintenance_never_reinforces(kept: Memory, clock: Clock) -> None:
    fact = kept.remember("User may enjoy jazz", source="inferred", confidence=0.8).memory
    kept.context()  # first access: recorded, no boost
    clock.advance(2 * WEEK)
    kept.maintainer().run(force=True)
    decayed = _confidence(kept, fact.id)
    assert decayed == pytest.approx(0.8 * 0.95**2)
    kept.context()  # used again more than an hour later: +0.05, and decay restarts from here
    assert _confidence(kept, fact.id) == pytest.approx(decayed + 0.05)
    kept.maintainer().run(force=True)
    assert _confidence(kept, fact.id) == pytest.approx(decayed + 0.05)


def test_superseded_summaries_and_audit_retention(kept: Memory, clock: Clock) -> None:
    kept.remember("User lives in Lyon", key="home_city")
    kept.remember("User lives in Paris", key="home_city")
    kept.add_summary("An old chat about Lyon.", at=clock() - 40 * DAY)
    kept.add_summary("A recent chat about Paris.", at=clock() - 2 * DAY)
    clock.advance(31 * DAY)
    report = kept.maintainer().run(force=True)
    assert (report.pruned_superseded, report.pruned_summaries) == (1, 2)
    assert kept.count(status="superseded") == 0 and kept.summaries() == []
    kinds = sorted((e.target_kind, e.reason) for e in kept.scope.list_audit() if e.action == "prune")
    assert kinds == [
        ("fact", "superseded long ago"),
        ("summary", "older than the retention period"),
        ("summary", "older than the retention period"),
    ]
    clock.advance(366 * DAY)
    assert kept.maintainer().run(force=True).audit_trimmed > 0
    assert [e for e in kept.scope.list_audit() if e.at < clock() - 365 * DAY] == []


def test_dry_run_changes_nothing(kept: Memory, clock: Clock) -> None:
    fact = kept.remember("User may enjoy jazz", source="inferred", confidence=0.3).memory
    kept.scope.touch_memories([fact.id], clock(), 0.05)
    clock.advance(10 * WEEK)
    report = kept.maintainer().run(dry_run=True)
    assert report.ran and report.dry_run and report.pruned_low_confidence == 1
    assert report.details[0]["low_confidence"] == 1
    assert _confidence(kept, fact.id) == 0.3 and kept.store.last_maintenance() is None


def test_runs_at_the_hour_once_per_20_hours(kept: Memory, clock: Clock) -> None:
    clock.now = datetime(2026, 1, 20, 1, 30, tzinfo=UTC).timestamp()
    maint = kept.maintainer()
    assert not maint.run().ran and "hour" in maint.run().reason
    clock.now = datetime(2026, 1, 20, 2, 5, tzinfo=UTC).timestamp()
    assert maint.run().ran
    clock.advance(15 * 60)
    again = maint.run()
    assert not again.ran and "20 hours" in again.reason
    clock.now = datetime(2026, 1, 21, 2, 5, tzinfo=UTC).timestamp()
    assert maint.run().ran


def test_maintenance_first_consolidates_leftovers(kept: Memory, clock: Clock) -> None:
    conv = kept.start_conversation("chat")
    kept.add_messages(conv, [Turn("user", "I'm allergic to peanuts"), Turn("assistant", "Noted.")])
    kept.end_conversation(conv.id)
    report = kept.maintainer().run(force=True)
    assert report.consolidated == 1
    assert kept.conversation(conv.id).consolidation_state == "done"


@pytest.mark.parametrize(
    ("key", "value"),
    [("INFERRED_WEEKLY", "0"), ("EXPLICIT_WEEKLY", "1.5"), ("PREFERENCE_FLOOR", "-0.1"), ("HOUR", "24")],
)
def test_decay_settings_are_validated(tmp_path: Path, key: str, value: str) -> None:
    with pytest.raises(ConfigError, match=f"memory.decay.{key.lower()}"):
        load_settings(home=tmp_path, environ={f"REVERIE_MEMORY__DECAY__{key}": value})


def test_two_processes_started_at_once_run_it_once(tmp_path: Path) -> None:
    home = tmp_path / "twice"
    hour = str(datetime.now(UTC).hour)
    env = {
        **os.environ,
        "REVERIE_HOME": str(home),
        "REVERIE_MEMORY__TIMEZONE": "UTC",
        "REVERIE_MEMORY__DECAY__HOUR": hour,
        "REVERIE_EMBEDDINGS__ENABLED": "false",
    }
    subprocess.run(
        [sys.executable, "-m", "reverie", "remember", "User is vegetarian"],
        env=env,
        check=True,
        capture_output=True,
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "reverie", "maintain", "--json"],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    if datetime.now(UTC).hour != int(hour):  # the hour turned while the processes started
        pytest.skip("the clock crossed an hour boundary during the test")
    assert sorted(o["ran"] for o in outputs) == [False, True]
