"""The store's accounts as people and the admin pages see them: a thread is nobody's admin, and
refusals name what was asked for.

Written for the mutants of store/accounts.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from reverie import Memory, Settings
from reverie.cli import cli
from reverie.errors import Conflict, NotFound


def test_a_thread_is_no_admin_and_has_no_display_name(memory: Memory) -> None:
    memory.add_user("ann", display_name="Ann", is_admin=True)
    kiosk = memory.start_thread("lobby kiosk")
    assert kiosk.user is not None
    assert (kiosk.user.display_name, kiosk.user.is_admin, kiosk.user.kind) == ("", False, "thread")
    (listed,) = memory.threads()
    assert (listed.name, listed.display_name, listed.is_admin) == (kiosk.user.name, "", False)
    # The first-run setup and "the last admin cannot be demoted" count admins: a thread is none.
    assert memory.store.count_admins() == 1


def test_a_taken_thread_name_is_refused_by_name(memory: Memory) -> None:
    kiosk = memory.start_thread("lobby kiosk")
    assert kiosk.user is not None
    with pytest.raises(Conflict) as taken:
        memory.store.add_thread(kiosk.user.name, "again", 0.0)
    assert str(taken.value) == f"A thread or user named '{kiosk.user.name}' already exists"
    with pytest.raises(Conflict) as person:
        memory.store.add_thread("default", "a thread named like a person", 0.0)
    assert str(person.value) == "A thread or user named 'default' already exists"


def test_removing_a_user_who_is_not_there_names_the_id(memory: Memory) -> None:
    with pytest.raises(NotFound) as missing:
        memory.store.delete_user(987654)
    assert str(missing.value) == "No user with id 987654"


def test_the_users_list_says_who_can_sign_in(settings: Settings) -> None:
    runner = CliRunner()
    home = ["--home", str(settings.home)]
    added = runner.invoke(cli, [*home, "users", "add", "ann", "--password-stdin"], input="a long password\n")
    assert added.exit_code == 0, added.output
    assert runner.invoke(cli, [*home, "users", "add", "bob"]).exit_code == 0
    listed = runner.invoke(cli, [*home, "users", "--json"])
    assert listed.exit_code == 0, listed.output
    can = {user["name"]: user["can_sign_in"] for user in json.loads(listed.output)}
    assert (can["ann"], can["bob"]) == (True, False)
