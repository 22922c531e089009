"""Who a memory is for: what people see when they name a user, a thread or a device.

Written for the mutants of core/people.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import fakeserver
import pytest
from fakeserver import FakeModelServer

from reverie import Memory, Settings, load_settings
from reverie.errors import Conflict, InvalidInput, NotFound
from tests.conftest import Clock

fake_server = fakeserver.fake_server


def test_naming_an_unknown_user_says_how_to_add_them(memory: Memory) -> None:
    with pytest.raises(NotFound) as unknown:
        memory.for_user("zed")
    assert str(unknown.value) == "No user named 'zed'; add one with `reverie users add zed`"
    with pytest.raises(NotFound) as no_id:
        memory.view_of(987654)
    assert str(no_id.value) == "No user with id 987654"


def test_an_unmapped_device_gets_a_thread_named_after_it(settings: Settings, clock: Clock) -> None:
    settings.memory.unmapped_interfaces = "thread"
    with Memory(settings, clock=clock) as memory:
        porch = memory.for_interface("Back Porch_Speaker")
        again = memory.for_interface("Back Porch_Speaker")
        long = memory.for_interface("x" * 60)
        symbols = memory.for_interface("!!!")
        assert porch.user is not None and again.user is not None
        assert porch.user.name == "thread-back-porch-speaker" and again.user.id == porch.user.id
        assert long.user is not None and long.user.name == "thread-" + "x" * 40
        assert symbols.user is not None and symbols.user.name == "thread-device"
        labels = {t.name: t.label for t in memory.threads()}
    assert labels == {
        "thread-back-porch-speaker": "interface Back Porch_Speaker",
        "thread-" + "x" * 40: "interface " + "x" * 60,
        "thread-device": "interface !!!",
    }


def test_an_unmapped_device_is_a_guest_by_default(memory: Memory) -> None:
    guest = memory.for_interface("hallway")
    assert guest.user is None and guest.interface == "hallway"
    assert memory.threads() == []


def test_a_new_thread_keeps_a_trimmed_label_of_at_most_100_characters(memory: Memory) -> None:
    kiosk = memory.start_thread("  lobby kiosk  ")
    long = memory.start_thread("y" * 150)
    assert kiosk.user is not None and long.user is not None
    assert re.fullmatch(r"thread-[0-9a-f]{12}", kiosk.user.name)
    assert kiosk.user.name != long.user.name
    labels = {t.name: t.label for t in memory.threads()}
    assert labels == {kiosk.user.name: "lobby kiosk", long.user.name: "y" * 100}


def test_a_person_is_not_a_thread(memory: Memory) -> None:
    memory.add_user("bob")
    for name in ["bob", "thread-none"]:
        with pytest.raises(NotFound) as refused:
            memory.for_thread(name)
        assert str(refused.value) == f"No thread named '{name}'"


def test_a_thread_merges_only_into_a_person(memory: Memory) -> None:
    first, second = memory.start_thread("one"), memory.start_thread("two")
    assert first.user is not None and second.user is not None
    first.remember("User likes figs")
    with pytest.raises(InvalidInput) as refused:
        memory.merge_thread(first.user.name, second.user.name)
    assert str(refused.value) == f"'{second.user.name}' is a thread; merge into a person"
    assert sorted(t.name for t in memory.threads()) == sorted([first.user.name, second.user.name])
    report = memory.merge_thread(first.user.name, "default")
    assert report.moved == 1
    (entry,) = [a for a in memory.scope.list_audit() if a.action == "merge_thread"]
    assert entry.reason == f"thread {first.user.name} merged into default"


def test_a_merge_s_audit_trail_says_what_moved_and_what_it_replaced(memory: Memory, clock: Clock) -> None:
    memory.remember("User lives in Lyon", key="home_city")
    clock.advance(60)
    thread = memory.start_thread("web chat")
    assert thread.user is not None
    name = thread.user.name
    thread.remember("User lives in Porto", key="home_city")
    thread.remember("User plays the cello")
    memory.merge_thread(name, "default")
    trail = memory.scope.list_audit()
    (merged,) = [a for a in trail if a.action == "merge_thread"]
    (replaced,) = [a for a in trail if a.action == "supersede"]
    assert (merged.target_kind, merged.detail) == ("thread", {"moved": 2, "superseded": 1})
    assert replaced.reason.startswith(f"merged thread {name}: a newer duplicate (#")
    assert replaced.detail == {"text": "User lives in Lyon", "kept": "User lives in Porto"}


def test_a_thread_merges_with_embeddings_turned_off(settings: Settings, clock: Clock) -> None:
    settings.embeddings.enabled = False
    with Memory(settings, clock=clock) as memory:
        thread = memory.start_thread("kiosk")
        assert thread.user is not None
        thread.remember("User likes figs")
        assert memory.merge_thread(thread.user.name, "default").moved == 1
        assert [h.memory.text for h in memory.search("figs").facts] == ["User likes figs"]


def test_a_merged_thread_s_facts_are_found_by_meaning(tmp_path: Path, fake_server: FakeModelServer) -> None:
    fake_server.dimensions = 256
    fake_server.synonyms["apiary"] = "bees"
    environ = fakeserver.embedding_environ(fake_server)
    with Memory(load_settings(home=tmp_path, environ=environ)) as memory:
        memory.remember("User sings in a community choir")
        thread = memory.start_thread("porch")
        assert thread.user is not None
        thread.remember("User keeps bees")
        memory.merge_thread(thread.user.name, "default")
        found = memory.search("apiary", limit=5).facts  # no fact has the word: by meaning alone
    assert [hit.memory.text for hit in found] == ["User keeps bees"]


def test_removing_users_names_the_way_forward_and_spares_the_last_admin(memory: Memory) -> None:
    with pytest.raises(NotFound) as unknown:
        memory.remove_user("zed")
    assert str(unknown.value) == "No user named 'zed'; `reverie users list` shows who there is"
    memory.add_user("ann", is_admin=True)
    with pytest.raises(Conflict) as last:
        memory.remove_user("ann")
    assert str(last.value) == (
        "'ann' is the only admin: make someone else an admin first "
        "(`reverie users admin NAME` or the Users page)"
    )
    memory.add_user("bea", is_admin=True)
    assert memory.remove_user("ann").name == "ann"
    assert [u.name for u in memory.list_users() if u.is_admin] == ["bea"]
    memory.add_user("cid")
    assert memory.remove_user("cid").name == "cid"
    assert memory.store.get_user("cid") is None


def test_who_speaks_on_a_device_mapped_on_the_users_page(settings: Settings, clock: Clock) -> None:
    settings.memory.voice_speakers["porch"] = ["alice", "carol"]
    with Memory(settings, clock=clock) as memory:
        bob = memory.add_user("bob", display_name="Robert")
        memory.add_user("alice", display_name="Ally")
        memory.add_user("carol")  # no display name
        memory.store.map_interface("porch", bob.id, clock())  # as the Voice interfaces page does

        def speaker() -> str | None:
            user = memory.for_interface("porch").user
            return user.name if user is not None else None

        assert speaker() == "bob"
        switched = memory.for_interface("porch").switch_speaker("This is Ally")
        assert switched is not None and switched.user is not None and switched.user.name == "alice"
        clock.advance(60)
        assert speaker() == "alice", "the switch holds for the device's next turns"
        assert memory.for_interface("porch").switch_speaker("This is xxxx") is None
        back = memory.for_interface("porch").switch_speaker("this is robert")
        assert back is not None and back.user is not None and back.user.name == "bob"
        assert speaker() == "bob"


def test_a_switched_speaker_lasts_until_the_device_is_silent_or_they_leave_it(
    settings: Settings, clock: Clock
) -> None:
    settings.memory.voice_mapping["porch"] = "bob"
    settings.memory.voice_speakers["porch"] = ["alice"]
    settings.memory.session_timeout_minutes = 10
    with Memory(settings, clock=clock) as memory:
        memory.add_user("bob")
        memory.add_user("alice")

        def speaker() -> str | None:
            user = memory.for_interface("porch").user
            return user.name if user is not None else None

        assert memory.for_interface("porch").switch_speaker("This is Alice") is not None
        clock.advance(600)  # ten minutes of silence: still hers
        assert speaker() == "alice"
        clock.advance(601)  # a turn just now, then ten minutes and a second of silence
        assert speaker() == "bob"
        assert memory.for_interface("porch").switch_speaker("This is Alice") is not None
        settings.memory.voice_speakers["porch"] = []  # alice may no longer speak on the porch
        assert speaker() == "bob"
        settings.memory.voice_speakers["porch"] = ["alice"]
        assert speaker() == "bob", "her switch ended when she left the device's users"


def test_closing_another_user_s_view_leaves_the_memory_open(memory: Memory) -> None:
    memory.add_user("bob")
    with memory.for_user("bob") as bob:  # a view of the same database, as the server hands out
        bob.remember("User likes figs")
    memory.remember("User likes plums")
    assert [h.memory.text for h in memory.search("plums").facts] == ["User likes plums"]
    assert [h.memory.text for h in memory.for_user("bob").search("figs").facts] == ["User likes figs"]


def test_a_switch_ends_the_previous_speaker_s_conversation_on_that_device(
    settings: Settings, clock: Clock
) -> None:
    settings.memory.voice_mapping["porch"] = "bob"
    settings.memory.voice_speakers["porch"] = ["alice"]
    with Memory(settings, clock=clock) as memory:
        memory.add_user("bob")
        memory.add_user("alice")
        porch = memory.for_interface("porch")
        on_porch = porch.start_conversation("porch")
        elsewhere = porch.start_conversation("api")
        clock.advance(30)
        assert porch.switch_speaker("This is Bob") is not None  # the same speaker: nothing ends
        assert porch.conversation(on_porch.id).ended_at is None
        clock.advance(30)
        alice = porch.switch_speaker("This is Alice")
        assert alice is not None
        assert porch.conversation(on_porch.id).ended_at == clock(), "what was said so far was bob's"
        assert porch.conversation(elsewhere.id).ended_at is None, "only the porch's conversation ends"
