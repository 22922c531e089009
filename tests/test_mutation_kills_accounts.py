"""What people see of accounts: the messages when a token or the first admin cannot be had.

Written for the mutants of accounts.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient

from reverie import Memory, Settings
from reverie.accounts import LoginLimiter
from reverie.cli import cli
from reverie.errors import Conflict, InvalidInput, RateLimited
from reverie.server import create_app
from reverie.store.base import User
from tests.apiauth import auth_headers
from tests.conftest import Clock

API = "/api/v1"


def test_revoking_a_token_that_is_not_yours_names_its_id(settings: Settings, clock: Clock) -> None:
    carol = auth_headers(settings, "carol")
    with TestClient(create_app(settings, clock=clock)) as client:
        bobs = client.post(f"{API}/tokens", json={"name": "laptop"}, headers=auth_headers(settings, "bob"))
        assert bobs.status_code == 201, bobs.text
        token_id = bobs.json()["id"]
        refused = client.delete(f"{API}/tokens/{token_id}", headers=carol)
        missing = client.delete(f"{API}/tokens/999999", headers=carol)
    assert refused.status_code == 404
    assert refused.json() == {"error": "not_found", "detail": f"No token with id {token_id}"}
    assert missing.json()["detail"] == "No token with id 999999"


def test_a_second_first_admin_is_refused_with_a_way_forward(settings: Settings, clock: Clock) -> None:
    created: list[str] = []
    with Memory(settings, clock=clock) as memory:
        memory.accounts.create_first_admin(None, "ann", "correct horse", lambda: memory.add_user("ann"))

        def add() -> User:
            created.append("eve")
            return memory.add_user("eve")

        with pytest.raises(Conflict) as refused:
            memory.accounts.create_first_admin(None, "eve", "correct horse", add)
        assert memory.store.get_user("eve") is None
    assert str(refused.value) == "An admin account already exists; sign in instead"
    assert created == []


def test_setup_under_an_existing_name_makes_that_user_the_admin(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        memory.add_user("bob")
    with TestClient(create_app(settings, clock=clock), base_url="http://127.0.0.1:8765") as local:
        created = local.post("/setup", json={"name": "bob", "password": "correct horse"})
        me = local.get(f"{API}/auth/me")
    assert created.status_code == 201, created.text
    assert created.json()["user"]["name"] == "bob" and created.json()["user"]["is_admin"] is True
    assert me.json()["user"]["is_admin"] is True
    with Memory(settings, clock=clock) as memory:
        bob = memory.store.get_user("bob")
        assert bob is not None and bob.is_admin
        assert memory.accounts.has_admin()
        assert memory.accounts.check_password("bob", "correct horse") == bob


def _add_user(settings: Settings, name: str, password: str) -> None:
    with Memory(settings) as memory:
        memory.accounts.set_password(memory.add_user(name), password)


def test_signing_in_as_oneself_keeps_the_guesses_at_someone_else(settings: Settings, clock: Clock) -> None:
    _add_user(settings, "bob", "bob's long password")
    _add_user(settings, "mallory", "mallory's password")
    with TestClient(create_app(settings, clock=clock)) as client:

        def login(name: str, password: str) -> int:
            return client.post(f"{API}/auth/login", json={"name": name, "password": password}).status_code

        assert [login("bob", f"guess {i} guess") for i in range(4)] == [401] * 4
        assert login("mallory", "mallory's password") == 200  # forgets this address's failures...
        assert login("bob", "guess 5 guess") == 401
        # ...but not the five guesses at bob from here: the sixth is refused, right or wrong.
        assert login("bob", "bob's long password") == 429
        assert login("mallory", "mallory's password") == 200, "only bob is limited from here"


def test_the_right_password_forgets_the_failures_before_it(settings: Settings, clock: Clock) -> None:
    _add_user(settings, "bob", "bob's long password")
    with TestClient(create_app(settings, clock=clock)) as client:

        def login(password: str) -> int:
            return client.post(f"{API}/auth/login", json={"name": "bob", "password": password}).status_code

        assert [login(f"typo {i} typo") for i in range(4)] == [401] * 4
        assert login("bob's long password") == 200
        assert [login(f"typo {i} typo") for i in range(4)] == [401] * 4, "a fresh count after signing in"
        assert login("bob's long password") == 200


# The limiter on its own, on a clock the test moves: what a refused sign-in tells the person.
def test_a_refused_sign_in_says_how_many_minutes_are_left(clock: Clock) -> None:
    limiter = LoginLimiter(max_failures=3, window_seconds=3600, clock=clock)
    for _ in range(3):
        limiter.failed("ip:10.0.0.1")
        clock.advance(60)
    clock.advance(600 - 180)  # ten minutes after the first failure
    with pytest.raises(RateLimited) as refused:
        limiter.check("ip:10.0.0.1")
    assert str(refused.value) == "Too many failed sign-ins; try again in 50 minute(s)"
    assert refused.value.retry_after == 3000
    clock.advance(3000 - 20)  # twenty seconds before the first failure leaves the window
    with pytest.raises(RateLimited) as soon:
        limiter.check("ip:10.0.0.1")
    assert str(soon.value) == "Too many failed sign-ins; try again in 1 minute(s)"
    assert soon.value.retry_after == 20
    clock.advance(21)
    limiter.check("ip:10.0.0.1")  # two failures left in the window: allowed


def test_guesses_from_many_machines_lock_the_account_only_for_new_machines(clock: Clock) -> None:
    limiter = LoginLimiter(max_failures=2, window_seconds=3600, clock=clock)
    limiter.signed_in("192.0.2.1", "Bob")
    for n in range(8):  # one wrong guess each from eight machines: the account's limit is 2 x 4
        limiter.check_sign_in(f"203.0.113.{n}", "bob")
        limiter.failed_sign_in(f"203.0.113.{n}", "bob")
    clock.advance(600)
    with pytest.raises(RateLimited) as refused:
        limiter.check_sign_in("198.51.100.7", "bob")
    assert str(refused.value) == (
        "Too many failed sign-ins to this account; try again in 50 minute(s),"
        " or from a machine it was signed in from before"
    )
    assert refused.value.retry_after == 3000
    limiter.check_sign_in("192.0.2.1", "BOB")  # the owner's machine still may


def test_an_account_remembers_its_twenty_latest_machines(clock: Clock) -> None:
    limiter = LoginLimiter(max_failures=1, window_seconds=3600, clock=clock)
    machines = [f"192.0.2.{n}" for n in range(21)]
    for address in machines[:20]:
        limiter.signed_in(address, "bob")
    limiter.signed_in(machines[0], "bob")  # the first machine again: now the latest
    limiter.signed_in(machines[20], "bob")  # a 21st: the least recent (machines[1]) is forgotten
    for n in range(4):
        limiter.failed_sign_in(f"203.0.113.{n}", "bob")
    for address in [machines[0], *machines[2:]]:
        limiter.check_sign_in(address, "bob")
    with pytest.raises(RateLimited):
        limiter.check_sign_in(machines[1], "bob")


def test_signing_in_from_more_machines_than_remembered_still_works(settings: Settings, clock: Clock) -> None:
    _add_user(settings, "bob", "bob's long password")
    app = create_app(settings, clock=clock)
    with TestClient(app):
        for n in range(22):
            client = TestClient(app, client=(f"192.0.2.{n}", 50000))
            answer = client.post(f"{API}/auth/login", json={"name": "bob", "password": "bob's long password"})
            assert answer.status_code == 200, (n, answer.text)


def test_a_deleted_user_s_browser_session_no_longer_signs_in(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        zed = memory.add_user("zed")
        session_id, _ = memory.accounts.start_session(zed)
        assert memory.accounts.authenticate_session(session_id) is not None
        memory.store.delete_user(zed.id)
        assert memory.accounts.authenticate_session(session_id) is None


def test_a_token_needs_a_name_of_one_to_a_hundred_characters(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        bob = memory.add_user("bob")
        for bad in ["", "   ", "x" * 101]:
            with pytest.raises(InvalidInput) as refused:
                memory.accounts.create_token(bob, bad)
            assert str(refused.value) == "A token needs a name of 1-100 characters (what uses it)"
        row, secret = memory.accounts.create_token(bob, "x" * 100)
        assert row.name == "x" * 100 and secret.startswith("rv_")
        with pytest.raises(InvalidInput) as no_interface:
            memory.accounts.create_token(bob, "kitchen speaker", interface="  ")
        assert str(no_interface.value) == "A device token needs the interface it speaks for"
        assert [t.name for t in memory.accounts.list_tokens(bob)] == ["x" * 100]


def test_a_password_may_have_eight_to_1024_characters(settings: Settings) -> None:
    runner = CliRunner()
    home = ["--home", str(settings.home)]

    def add(name: str, password: str) -> Result:
        return runner.invoke(cli, [*home, "users", "add", name, "--password-stdin"], input=password + "\n")

    assert add("ann", "eight ch").exit_code == 0
    assert add("bob", "b" * 1024).exit_code == 0
    too_long = add("cat", "c" * 1025)
    assert too_long.exit_code == 1
    assert "A password may have at most 1024 characters" in too_long.output
    with Memory(settings) as memory:
        assert memory.accounts.check_password("ann", "eight ch") is not None
        assert memory.accounts.check_password("bob", "b" * 1024) is not None
        assert memory.store.get_user("cat") is None


def test_a_user_without_a_password_cannot_sign_in(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        memory.add_user("bob")  # made by an admin without a password: a token user only
    with TestClient(create_app(settings, clock=clock)) as client:
        # Not even with the password of the stand-in hash checked for unknown names.
        for password in ["reverie-dummy-password", "any password at all"]:
            answer = client.post(f"{API}/auth/login", json={"name": "bob", "password": password})
            assert answer.status_code == 401, answer.text


def test_an_older_password_hash_is_redone_at_sign_in(settings: Settings, clock: Clock) -> None:
    weak = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    with Memory(settings, clock=clock) as memory:
        bob = memory.add_user("bob")
        memory.store.set_password_hash(bob.id, weak.hash("bob's long password"))
    with TestClient(create_app(settings, clock=clock)) as client:

        def login(password: str) -> int:
            return client.post(f"{API}/auth/login", json={"name": "bob", "password": password}).status_code

        assert login("bob's long password") == 200
        assert login("bob's long password") == 200, "the new hash is of the same password"
        assert login("not bob's password") == 401
    with Memory(settings, clock=clock) as memory:
        stored = memory.store.password_hash(bob.id)
        # A copy of the database now holds only a hash at today's cost.
        assert stored is not None and not PasswordHasher().check_needs_rehash(stored)


def test_a_failure_counts_for_the_whole_window_to_the_second(clock: Clock) -> None:
    limiter = LoginLimiter(max_failures=2, window_seconds=3600, clock=clock)
    limiter.failed("ip:10.0.0.1")
    clock.advance(60)
    limiter.failed("ip:10.0.0.1")
    clock.advance(3600 - 60)  # the first failure is exactly an hour old: still inside the hour
    with pytest.raises(RateLimited) as refused:
        limiter.check("ip:10.0.0.1")
    assert str(refused.value) == "Too many failed sign-ins; try again in 1 minute(s)"
    clock.advance(1)
    limiter.check("ip:10.0.0.1")


def test_an_account_locked_by_spread_guesses_opens_when_the_oldest_leaves(clock: Clock) -> None:
    limiter = LoginLimiter(max_failures=2, window_seconds=3600, clock=clock)
    for n in range(8):  # one wrong guess a minute from eight machines: the account's limit is 2 x 4
        limiter.check_sign_in(f"203.0.113.{n}", "bob")
        limiter.failed_sign_in(f"203.0.113.{n}", "bob")
        clock.advance(60)
    clock.advance(3600 - 8 * 60 - 30)  # thirty seconds before the first guess is an hour old
    with pytest.raises(RateLimited) as refused:
        limiter.check_sign_in("198.51.100.7", "bob")
    assert str(refused.value) == (
        "Too many failed sign-ins to this account; try again in 1 minute(s),"
        " or from a machine it was signed in from before"
    )
    assert refused.value.retry_after == 30
    clock.advance(31)
    limiter.check_sign_in("198.51.100.7", "bob")


def test_a_token_shows_when_it_was_last_used_to_the_minute(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        _, secret = memory.accounts.create_token(memory.add_user("bob"), "laptop")
    bearer = {"Authorization": f"Bearer {secret}"}
    with TestClient(create_app(settings, clock=clock)) as client:

        def last_used() -> object:
            (token,) = client.get(f"{API}/tokens", headers=bearer).json()["tokens"]
            return token["last_used_at"]

        assert last_used() == "2026-01-15T18:00:00+00:00"  # this very request used it
        clock.advance(60)
        assert last_used() == "2026-01-15T18:00:00+00:00", "kept to the minute, not written on every request"
        clock.advance(1)
        assert last_used() == "2026-01-15T18:01:01+00:00"
