"""'This is Alice' is kept with the interface in the database: a restart and every other process
serving the same database see the switch (it was kept in one process's memory)."""

from __future__ import annotations

from reverie import Memory, Settings
from tests.conftest import Clock


def _speaker(memory: Memory) -> str | None:
    user = memory.for_interface("porch").user
    return user.name if user is not None else None


def test_a_switch_outlives_a_restart_and_holds_in_every_process(settings: Settings, clock: Clock) -> None:
    settings.memory.voice_mapping["porch"] = "bob"
    settings.memory.voice_speakers["porch"] = ["alice"]
    settings.memory.session_timeout_minutes = 10
    with Memory(settings, clock=clock) as memory:
        memory.add_user("bob")
        memory.add_user("alice")
        assert memory.for_interface("porch").switch_speaker("This is Alice") is not None
    with Memory(settings, clock=clock) as first, Memory(settings, clock=clock) as second:
        assert _speaker(first) == "alice", "a restart keeps the switch"
        clock.advance(500)
        assert _speaker(second) == "alice", "another process sees it"
        clock.advance(500)  # heard 500 s ago through the second process: still hers in the first
        assert _speaker(first) == "alice"
        back = second.for_interface("porch").switch_speaker("it's bob here")
        assert back is not None and back.user is not None and back.user.name == "bob"
        assert _speaker(first) == "bob"


def test_a_stored_switch_ends_with_silence_or_when_its_user_is_removed(
    settings: Settings, clock: Clock
) -> None:
    settings.memory.voice_mapping["porch"] = "bob"
    settings.memory.voice_speakers["porch"] = ["alice", "carol"]
    settings.memory.session_timeout_minutes = 10
    with Memory(settings, clock=clock) as memory:
        for name in ("bob", "alice", "carol"):
            memory.add_user(name)
        assert memory.for_interface("porch").switch_speaker("This is Alice") is not None
    clock.advance(601)  # the device silent for ten minutes and a second, the server down meanwhile
    with Memory(settings, clock=clock) as memory:
        assert _speaker(memory) == "bob"
        assert memory.for_interface("porch").switch_speaker("This is Carol") is not None
        assert _speaker(memory) == "carol"
        memory.remove_user("carol")
        assert _speaker(memory) == "bob", "a removed user's switch goes with her"
