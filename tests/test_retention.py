"""Transcript retention: nightly maintenance deletes old turns of consolidated conversations, audited."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Clock
from playwright.sync_api import Page, expect

import tests.test_web_ui as web
from reverie import Memory, Turn, load_settings
from tests.test_web_ui import Site, make_user, needs_chromium, sign_in

# The browser, its page and the running site, as the web UI tests have them.
browser, page, playwright, site = web.browser, web.page, web.playwright, web.site

DAY = 86400.0


def _memory(tmp_path: Path, clock: Clock, **extra: str) -> Memory:
    env = {"REVERIE_EMBEDDINGS__ENABLED": "false", "REVERIE_MEMORY__TIMEZONE": "UTC", **extra}
    return Memory(load_settings(home=tmp_path / "m", environ=env), clock=clock)


@pytest.fixture
def kept(tmp_path: Path, clock: Clock) -> Iterator[Memory]:
    with _memory(tmp_path, clock) as memory:
        yield memory


def _talk(memory: Memory, *lines: str, end: bool = True) -> int:
    conv = memory.start_conversation("chat")
    turns = [
        Turn("user" if i % 2 == 0 else "assistant", t, at=memory.clock() + i) for i, t in enumerate(lines)
    ]
    memory.add_messages(conv, turns)
    if end:
        memory.end_conversation(conv.id)
    return conv.id


def _turns(memory: Memory, conversation_id: int) -> list[str]:
    return [m.content for m in memory.scope.list_messages(conversation_id, limit=100)]


def test_old_turns_of_consolidated_conversations_go_the_rest_stay(kept: Memory, clock: Clock) -> None:
    assert kept.settings.memory.decay.transcript_retention_days == 30  # DAWN keeps 30 days
    old_done = _talk(kept, "We planned the garden shed", "A fine plan.")
    old_open = _talk(kept, "Still talking about the fence", "Go on.", end=False)
    assert [r.state for r in kept.consolidator().run_pending()] == ["done"]
    clock.advance(25 * DAY)
    recent_done = _talk(kept, "Booked the plumber for Monday", "Noted.")
    kept.consolidator().run_pending()
    clock.advance(10 * DAY)  # the first two are 35 days old, the third 10

    report = kept.maintainer().run(force=True)

    assert report.pruned_messages == 2
    assert _turns(kept, old_done) == []
    assert _turns(kept, old_open) == ["Still talking about the fence", "Go on."]  # never consolidated
    assert _turns(kept, recent_done) == ["Booked the plumber for Monday", "Noted."]
    assert kept.scope.get_conversation(old_done) is not None  # the conversation and its summary stay
    [entry] = [e for e in kept.scope.list_audit() if e.target_kind == "messages"]
    assert entry.action == "prune" and entry.reason == "transcripts older than the retention period"
    assert entry.detail["messages"] == 2 and entry.detail["conversations"] == [old_done]
    assert "garden shed" not in str(entry.detail)  # the audit never keeps what retention deleted
    # Keyword search over past turns forgets them too.
    assert kept.scope.search_messages(["shed"], limit=5) == []


def test_zero_keeps_no_transcript_once_consolidated(tmp_path: Path, clock: Clock) -> None:
    with _memory(tmp_path, clock, REVERIE_MEMORY__DECAY__TRANSCRIPT_RETENTION_DAYS="0") as memory:
        done = _talk(memory, "My sister visits in May", "Lovely.")
        memory.consolidator().run_pending()
        still_open = _talk(memory, "What about June?", "Let's see.", end=False)
        clock.advance(60)
        report = memory.maintainer().run(force=True)
        assert report.pruned_messages == 2
        assert _turns(memory, done) == []
        assert _turns(memory, still_open) == ["What about June?", "Let's see."]


def test_a_dry_run_deletes_nothing(kept: Memory, clock: Clock) -> None:
    done = _talk(kept, "We planned the garden shed", "A fine plan.")
    kept.consolidator().run_pending()
    clock.advance(40 * DAY)
    report = kept.maintainer().run(dry_run=True)
    assert report.pruned_messages == 2 and report.details[0]["messages"] == 2
    assert len(_turns(kept, done)) == 2
    assert [e for e in kept.scope.list_audit() if e.target_kind == "messages"] == []


@needs_chromium
def test_summaries_tab_says_how_many_days_are_kept(page: Page, site: Site) -> None:
    name = make_user(site)
    with Memory(site.settings, user=name) as memory:
        memory.add_summary("Discussed the garden shed.", topics=["garden"])
    sign_in(page, site, name)
    page.get_by_role("tab", name="Summaries (1)").click()
    expect(page.get_by_text("Showing 1 of 1 summary (last 30 days)")).to_be_visible()
