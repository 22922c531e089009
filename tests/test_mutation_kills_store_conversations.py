"""Conversations and their turns as a user (or a library caller of the store) sees them: paged
most recently active first, the last turns of a long conversation, what a turn was understood as,
who spoke, a conversation's topic and working state, and every list kept to one user.

Written for the mutants of store/conversations.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Clock

from reverie import Memory, load_settings
from reverie.conversations import Turn
from reverie.errors import NotFound

HOUR = 3600.0


@pytest.fixture
def mem(tmp_path: Path, clock: Clock) -> Iterator[Memory]:
    """Keywords only: turns are found by their words at once, with no model to load."""
    environ = {"REVERIE_EMBEDDINGS__ENABLED": "false", "REVERIE_MEMORY__TIMEZONE": "UTC"}
    memory = Memory(load_settings(home=tmp_path / "home", environ=environ), clock=clock)
    yield memory
    memory.close()


def test_conversations_come_most_recently_active_first_fifty_to_a_page(mem: Memory, clock: Clock) -> None:
    start = clock() - 100 * HOUR
    started = [mem.start_conversation("chat", at=start + n * HOUR) for n in range(52)]
    # The oldest conversation is the most recently active one; the second's last activity is the
    # newest's start, and the later started (the higher id) comes first.
    mem.scope.add_message(started[0].id, "user", "back to the first one", start + 60 * HOUR)
    mem.scope.add_message(started[1].id, "user", "and the second", start + 51 * HOUR)
    mem.add_user("someone")
    mem.for_user("someone").start_conversation("chat", at=start + 70 * HOUR)

    newest_first = [started[0].id, started[51].id, started[1].id]
    newest_first += [c.id for c in reversed(started[2:51])]
    assert [c.id for c in mem.conversations(limit=100)] == newest_first
    assert [c.id for c in mem.scope.list_conversations()] == newest_first[:50]
    assert [c.id for c in mem.conversations(limit=20, offset=20)] == newest_first[20:40]
    assert [c.id for c in mem.scope.list_conversations(offset=49)] == newest_first[49:]


def test_a_long_conversation_gives_its_last_fifty_turns_oldest_first(mem: Memory, clock: Clock) -> None:
    conversation = mem.start_conversation("chat", at=clock() - HOUR)
    turns = [Turn("user", f"turn number {n}", clock() - HOUR + n) for n in range(51)]
    added = mem.add_messages(conversation, turns)
    assert [m.id for m in mem.scope.list_messages(conversation.id)] == [m.id for m in added[1:]]
    assert [m.content for m in mem.messages(conversation.id, limit=2)] == ["turn number 49", "turn number 50"]


def test_a_turn_keeps_its_speaker_reference_and_intent(mem: Memory, clock: Clock) -> None:
    conversation = mem.start_conversation("voice", at=clock() - 60)
    scope = mem.scope
    said = scope.add_message(conversation.id, "user", "Bins out Tuesday.", clock(), speaker="Al", ref="m7")
    assert (said.speaker, said.ref, said.intent) == ("Al", "m7", None)
    asked = scope.add_message(conversation.id, "user", "When do the bins go out?", clock(), intent="question")
    assert asked.intent == "question"
    stored = mem.messages(conversation.id)
    assert [(m.speaker, m.ref, m.intent) for m in stored] == [("Al", "m7", None), (None, None, "question")]
    assert stored == [said, asked]


def test_a_turn_in_no_conversation_of_this_user_is_refused_by_its_id(mem: Memory, clock: Clock) -> None:
    mem.add_user("someone")
    theirs = mem.for_user("someone").start_conversation("chat", at=clock())
    with pytest.raises(NotFound, match=f"^No conversation with id {theirs.id}$"):
        mem.scope.add_message(theirs.id, "user", "hello", clock())
    with pytest.raises(NotFound, match=f"^No conversation with id {theirs.id}$"):
        mem.scope.put_working_state(theirs.id, "{}", clock())
    assert mem.for_user("someone").messages(theirs.id) == []


def test_a_turn_added_without_activity_leaves_the_last_activity(mem: Memory, clock: Clock) -> None:
    conversation = mem.start_conversation("chat", at=clock() - HOUR)
    mem.scope.add_message(conversation.id, "user", "quietly", clock(), activity=False)
    assert mem.conversation(conversation.id).last_activity == clock() - HOUR
    mem.scope.add_message(conversation.id, "user", "loudly", clock())
    assert mem.conversation(conversation.id).last_activity == clock()


def test_a_turn_is_found_by_its_index_text_and_its_window(mem: Memory, clock: Clock) -> None:
    conversation = mem.start_conversation("chat", at=clock() - 60)
    scope = mem.scope
    turn = scope.add_message(
        conversation.id,
        "user",
        "It is on the shelf.",
        clock(),
        index_text="passport shelf",
        window_text="my wallet and passport are on the shelf",
    )
    assert [m.id for m, _ in scope.search_messages(["passport"])] == [turn.id]
    assert [m.id for m, _ in scope.search_messages(["wallet"], windows=True)] == [turn.id]
    # Without windows only the turn's own text counts.
    assert scope.search_messages(["wallet"]) == []


def test_turn_search_keeps_to_ten_and_to_the_dates_asked(mem: Memory, clock: Clock) -> None:
    conversation = mem.start_conversation("chat", at=clock() - 20 * HOUR)
    turns = [Turn("user", f"the kettle again, day {n}", clock() - (12 - n) * HOUR) for n in range(12)]
    added = mem.add_messages(conversation, turns)
    scope = mem.scope
    assert len(scope.search_messages(["kettle"])) == 10
    assert len(scope.search_messages(["kettle"], limit=20)) == 12
    since = scope.search_messages(["kettle"], created_from=added[9].created_at, limit=20)
    assert sorted(m.id for m, _ in since) == [m.id for m in added[9:]]
    until = scope.search_messages(["kettle"], created_to=added[2].created_at, limit=20)
    assert sorted(m.id for m, _ in until) == [m.id for m in added[:2]]


def test_what_a_turn_was_understood_as_is_recorded_on_that_turn_only(mem: Memory, clock: Clock) -> None:
    conversation = mem.start_conversation("chat", at=clock() - 60)
    scope = mem.scope
    first, second = (scope.add_message(conversation.id, "user", text, clock()) for text in ("one", "two"))
    mem.add_user("someone")
    mem.for_user("someone").scope.note_turn(first.id, intent="chat", memory_created=True)
    scope.note_turn(first.id, intent="remember")
    scope.note_turn(second.id, memory_created=True)
    scope.note_turn(second.id)
    rows = {row["id"]: (row["intent"], row["memory_created"]) for row in scope.message_rows()}
    assert rows == {first.id: ("remember", False), second.id: (None, True)}
    scope.note_turn(first.id, intent="question", memory_created=True)
    assert [(m.intent, m.memory_created) for m in mem.messages(conversation.id)] == [
        ("question", True),
        (None, True),
    ]


def test_the_speakers_are_the_names_this_user_s_turns_were_said_by(mem: Memory, clock: Clock) -> None:
    conversation = mem.start_conversation("voice", at=clock() - 60)
    for speaker in ("Tom", "Alice", None, "Tom"):
        mem.add_message(conversation, "user", "hello there", speaker=speaker)
    mem.add_user("someone")
    other = mem.for_user("someone")
    other.add_message(other.start_conversation("voice"), "user", "hi", speaker="Zed")
    assert mem.scope.message_speakers() == ["Alice", "Tom"]


def test_open_conversations_of_one_interface(mem: Memory, clock: Clock) -> None:
    kitchen = mem.start_conversation("kitchen", at=clock() - 3 * HOUR)
    chat = mem.start_conversation("chat", at=clock() - 2 * HOUR)
    later = mem.start_conversation("kitchen", at=clock() - HOUR)
    ended = mem.start_conversation("kitchen", at=clock() - HOUR)
    mem.end_conversation(ended.id)
    assert [c.id for c in mem.scope.open_conversations("kitchen")] == [later.id, kitchen.id]
    assert [c.id for c in mem.scope.open_conversations()] == [later.id, chat.id, kitchen.id]


def test_a_conversation_starts_not_private(mem: Memory, clock: Clock) -> None:
    assert mem.scope.start_conversation("chat", clock()).is_private is False
    assert mem.scope.start_conversation("chat", clock(), is_private=True).is_private is True


def test_a_conversation_s_topic_and_working_state_read_together(mem: Memory, clock: Clock) -> None:
    scope = mem.scope
    conversation = mem.start_conversation("chat", at=clock())
    assert scope.conversation_state(conversation.id) == (None, None)
    scope.set_conversation_topic(conversation.id, "garden")
    assert scope.conversation_state(conversation.id) == ("garden", None)
    scope.put_working_state(conversation.id, '{"goal": "plant roses"}', clock())
    assert scope.conversation_state(conversation.id) == ("garden", '{"goal": "plant roses"}')
    scope.set_conversation_topic(conversation.id, "")
    assert scope.conversation_state(conversation.id) == (None, '{"goal": "plant roses"}')
    mem.add_user("someone")
    assert mem.for_user("someone").scope.conversation_state(conversation.id) == (None, None)


def test_import_restores_a_conversation_s_title_times_state_and_topic(mem: Memory, clock: Clock) -> None:
    scope = mem.scope
    conversation = scope.start_conversation("phone", clock() - 5 * HOUR)
    fields = {
        "title": "Garden plans",
        "last_activity": clock() - 4 * HOUR,
        "ended_at": clock() - 3 * HOUR,
        "consolidation_state": "done",
        "consolidated_at": clock() - 2 * HOUR,
        "topic": "garden",
    }
    mem.add_user("someone")
    mem.for_user("someone").scope.restore_conversation(conversation.id, {**fields, "title": "Theirs"})
    scope.restore_conversation(conversation.id, fields)
    private = scope.start_conversation("phone", clock() - HOUR, is_private=True)
    row, second = scope.conversation_rows()
    assert {name: row[name] for name in fields} == fields
    assert (row["id"], row["interface"], row["started_at"]) == (conversation.id, "phone", clock() - 5 * HOUR)
    # Export writes true and false, under the one name import reads.
    assert (row["is_private"], second["id"], second["is_private"]) == (False, private.id, True)
    assert type(row["is_private"]) is bool and sorted(row) == sorted(second) == [
        "consolidated_at",
        "consolidation_state",
        "ended_at",
        "id",
        "interface",
        "is_private",
        "last_activity",
        "started_at",
        "title",
        "topic",
    ]
