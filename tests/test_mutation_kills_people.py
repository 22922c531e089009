"""Who a memory is for: what people see when they name a user, a thread or a device.

Written for the mutants of core/people.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import re

import pytest

from reverie import Memory, Settings
from reverie.errors import Conflict, InvalidInput, NotFound
from tests.conftest import Clock


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
