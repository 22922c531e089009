"""Accounts end to end: first-run setup, sign-in with rate limiting, CSRF, tokens, admin, listen checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from engines import settings_rows
from fastapi.testclient import TestClient

from reverie import Memory, Settings
from reverie.cli import cli
from reverie.errors import ConfigError
from reverie.server import build_server, create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock

API = "/api/v1"
LOOPBACK = "http://127.0.0.1:8765"  # /setup answers only under a loopback host name


def _client(settings: Settings, clock: Clock, **kwargs: object) -> TestClient:
    return TestClient(create_app(settings, clock=clock), **kwargs)  # type: ignore[arg-type]


def test_first_run_setup_creates_the_admin_from_this_machine_only(settings: Settings, clock: Clock) -> None:
    with _client(settings, clock, client=("203.0.113.9", 50000)) as remote:
        refused = remote.get("/setup")
        assert refused.status_code == 403 and "this machine" in refused.json()["detail"]
        assert remote.post("/setup", json={"name": "ann", "password": "correct horse"}).status_code == 403
    with _client(settings, clock, base_url=LOOPBACK) as local:
        page = local.get("/setup")
        assert page.status_code == 200 and 'method="post" action="/setup"' in page.text
        short = local.post("/setup", json={"name": "ann", "password": "short"})
        assert short.status_code == 400 and "at least 8 characters" in short.json()["detail"]
        created = local.post("/setup", json={"name": "ann", "password": "correct horse"})
        assert created.status_code == 201, created.text
        assert created.json()["user"]["is_admin"] is True and created.json()["csrf_token"]
        assert "reverie_session" in created.cookies
        me = local.get(f"{API}/auth/me")
        assert me.json()["user"]["name"] == "ann"
        assert local.get("/setup").status_code == 409, "setup is gone once an admin exists"
        again = local.post("/setup", json={"name": "eve", "password": "correct horse"})
        assert again.status_code == 409
    ((stored,),) = settings_rows(settings, "SELECT password_hash FROM users WHERE name = 'ann'")
    assert stored.startswith("$argon2id$") and "correct horse" not in stored


def test_setup_form_post_redirects_signed_in(settings: Settings, clock: Clock) -> None:
    with _client(settings, clock, follow_redirects=False, base_url=LOOPBACK) as local:
        posted = local.post("/setup", data={"name": "ann", "password": "correct horse"})
        assert posted.status_code == 303 and posted.headers["location"] == "/"
        assert local.get(f"{API}/auth/me").json()["user"]["name"] == "ann"


def _add_user(settings: Settings, name: str, password: str, *, admin: bool = False) -> None:
    with Memory(settings) as memory:
        user = memory.add_user(name, is_admin=admin)
        memory.accounts.set_password(user, password)


def test_sign_in_session_cookie_and_csrf(settings: Settings, clock: Clock) -> None:
    _add_user(settings, "bob", "bob's long password")
    with _client(settings, clock) as browser:
        assert browser.get(f"{API}/memories").status_code == 401
        wrong = browser.post(f"{API}/auth/login", json={"name": "bob", "password": "nope nope"})
        assert wrong.status_code == 401 and wrong.json()["error"] == "unauthenticated"
        signed = browser.post(f"{API}/auth/login", json={"name": "bob", "password": "bob's long password"})
        assert signed.status_code == 200
        csrf = signed.json()["csrf_token"]
        cookie = signed.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert browser.get(f"{API}/memories").json()["memories"] == []
        forged = browser.post(f"{API}/memories", json={"text": "User is tall"})
        assert forged.status_code == 403 and "X-CSRF-Token" in forged.json()["detail"]
        wrong_token = browser.post(
            f"{API}/memories", json={"text": "User is tall"}, headers={"X-CSRF-Token": "x"}
        )
        assert wrong_token.status_code == 403
        stored = browser.post(
            f"{API}/memories", json={"text": "User is tall"}, headers={"X-CSRF-Token": csrf}
        )
        assert stored.status_code == 201
        assert browser.post(f"{API}/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
        assert browser.get(f"{API}/memories").status_code == 401


def test_a_session_lasts_its_lifetime_and_logout_ends_it(settings: Settings, clock: Clock) -> None:
    _add_user(settings, "bob", "bob's long password")
    lifetime = settings.server.session_hours * 3600
    login = {"name": "bob", "password": "bob's long password"}
    with _client(settings, clock) as browser, _client(settings, clock) as other:
        signed = browser.post(f"{API}/auth/login", json=login)
        assert f"max-age={int(lifetime)}" in signed.headers["set-cookie"].lower()
        cookie = {"Cookie": f"reverie_session={signed.cookies['reverie_session']}"}
        browser.cookies.clear()
        clock.advance(lifetime - 1)
        assert other.get(f"{API}/auth/me", headers=cookie).status_code == 200, "valid until its end"
        clock.advance(2)
        assert other.get(f"{API}/auth/me", headers=cookie).status_code == 401, "expired a second later"

        signed = browser.post(f"{API}/auth/login", json=login)
        cookie = {"Cookie": f"reverie_session={signed.cookies['reverie_session']}"}
        second = other.post(f"{API}/auth/login", json=login)
        assert second.status_code == 200
        out = browser.post(f"{API}/auth/logout", headers={"X-CSRF-Token": signed.json()["csrf_token"]})
        assert out.status_code == 204
        browser.cookies.clear()
        assert browser.get(f"{API}/auth/me", headers=cookie).status_code == 401, "the old cookie is dead"
        assert other.get(f"{API}/auth/me").json()["user"]["name"] == "bob", "other sessions go on"


def test_failed_sign_ins_are_rate_limited(settings: Settings, clock: Clock) -> None:
    _add_user(settings, "bob", "bob's long password")
    with _client(settings, clock) as browser:
        for _ in range(5):
            assert (
                browser.post(f"{API}/auth/login", json={"name": "bob", "password": "guess guess"}).status_code
                == 401
            )
        blocked = browser.post(f"{API}/auth/login", json={"name": "bob", "password": "bob's long password"})
        assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) > 0
        other = browser.post(f"{API}/auth/login", json={"name": "zed", "password": "whatever pw"})
        assert other.status_code == 429, "the address is limited too, not only the account"


def test_tokens_create_list_use_and_revoke(settings: Settings, clock: Clock) -> None:
    with _client(settings, clock, headers=auth_headers(settings, "bob")) as client:
        made = client.post(f"{API}/tokens", json={"name": "kitchen assistant"})
        assert made.status_code == 201
        secret = made.json()["token"]
        assert secret.startswith("rv_") and made.json()["prefix"] == secret[:9]
        listed = client.get(f"{API}/tokens").json()["tokens"]
        assert "kitchen assistant" in [t["name"] for t in listed]
        assert all("token" not in t for t in listed), "secrets are never listed"
        assistant = {"Authorization": f"Bearer {secret}"}
        assert (
            client.post(f"{API}/memories", json={"text": "User likes figs"}, headers=assistant).status_code
            == 201
        )
        assert client.get(f"{API}/auth/me", headers=assistant).json()["user"]["name"] == "bob"
        device = client.post(f"{API}/tokens", json={"name": "speaker", "interface": "kitchen"})
        assert device.status_code == 403, "only admins make device tokens"
        revoked = client.delete(f"{API}/tokens/{made.json()['id']}")
        assert revoked.status_code == 200 and revoked.json()["revoked"] is True
        assert client.get(f"{API}/memories", headers=assistant).status_code == 401
        alice = auth_headers(settings, "alice")
        assert client.delete(f"{API}/tokens/{made.json()['id']}", headers=alice).status_code == 404
    kept = [row[0] for row in settings_rows(settings, "SELECT token_hash FROM api_tokens")]
    assert secret not in kept and all(len(value) == 64 for value in kept)


def test_admin_manages_users_and_voice_devices(settings: Settings, clock: Clock) -> None:
    admin = auth_headers(settings, "ann", admin=True)
    with _client(settings, clock, headers=admin) as client:
        bob = auth_headers(settings, "bob")
        assert client.get(f"{API}/users", headers=bob).status_code == 403
        added = client.post(f"{API}/users", json={"name": "carol", "password": "carol's password"})
        assert added.status_code == 201
        assert (
            client.post(
                f"{API}/auth/login", json={"name": "carol", "password": "carol's password"}
            ).status_code
            == 200
        )
        speaker = client.post(
            f"{API}/tokens", json={"name": "kitchen speaker", "interface": "kitchen"}
        ).json()
        device = {"Authorization": f"Bearer {speaker['token']}"}
        assert client.get(f"{API}/auth/me", headers=device).json()["interface"] == "kitchen"
        guest = client.post(f"{API}/memories", json={"text": "User is tall"}, headers=device)
        assert guest.status_code == 409, "an unmapped interface is a guest"
        assert client.put(f"{API}/interfaces/kitchen", json={"user": "carol"}).json()["user"] == "carol"
        assert (
            client.post(f"{API}/memories", json={"text": "User is tall"}, headers=device).status_code == 201
        )
        carol = auth_headers(settings, "carol")
        assert [m["text"] for m in client.get(f"{API}/memories", headers=carol).json()["memories"]] == [
            "User is tall"
        ]
        assert {"interface": "kitchen", "user": "carol"} in client.get(f"{API}/interfaces").json()
        assert client.get(f"{API}/users", headers=device).status_code == 403, "device tokens are never admin"
        client.delete(f"{API}/interfaces/kitchen")
        assert client.get(f"{API}/memories", headers=device).json()["memories"] == []


def test_password_change_ends_sessions(settings: Settings, clock: Clock) -> None:
    _add_user(settings, "bob", "first password")
    with _client(settings, clock) as browser:
        csrf = browser.post(f"{API}/auth/login", json={"name": "bob", "password": "first password"}).json()[
            "csrf_token"
        ]
        wrong = browser.post(
            f"{API}/auth/password",
            json={"current_password": "not it at all", "new_password": "second password"},
            headers={"X-CSRF-Token": csrf},
        )
        assert wrong.status_code == 401
        changed = browser.post(
            f"{API}/auth/password",
            json={"current_password": "first password", "new_password": "second password"},
            headers={"X-CSRF-Token": csrf},
        )
        assert changed.status_code == 204
        assert browser.get(f"{API}/auth/me").status_code == 401
        assert (
            browser.post(f"{API}/auth/login", json={"name": "bob", "password": "second password"}).status_code
            == 200
        )


def test_listening_beyond_loopback_needs_tls_and_an_admin(settings: Settings, tmp_path: Path) -> None:
    settings.server.host = "0.0.0.0"
    with pytest.raises(ConfigError, match="without TLS"):
        build_server(settings)
    settings.server.behind_tls_proxy = True
    with pytest.raises(ConfigError, match="admin"):
        build_server(settings)
    _add_user(settings, "ann", "a long password", admin=True)
    assert build_server(settings).config.host == "0.0.0.0"
    settings.server.behind_tls_proxy = False
    settings.server.tls_certfile, settings.server.tls_keyfile = (
        str(tmp_path / "c.pem"),
        str(tmp_path / "k.pem"),
    )
    assert build_server(settings).config.ssl_certfile == str(tmp_path / "c.pem")


def test_cli_users_and_tokens(settings: Settings) -> None:
    runner = CliRunner()
    home = ["--home", str(settings.home)]
    added = runner.invoke(
        cli, [*home, "users", "add", "ann", "--admin", "--password-stdin"], input="a long password\n"
    )
    assert added.exit_code == 0 and "(admin)" in added.output
    weak = runner.invoke(cli, [*home, "users", "add", "zed", "--password-stdin"], input="short\n")
    assert weak.exit_code == 1 and "at least 8" in weak.output
    made = runner.invoke(cli, [*home, "--user", "ann", "tokens", "create", "laptop"])
    assert made.exit_code == 0
    secret = made.stdout.strip().splitlines()[0]
    with Memory(settings) as memory:
        credential = memory.accounts.authenticate_token(secret)
        assert credential is not None and credential.user.name == "ann"
    listed = runner.invoke(cli, [*home, "--user", "ann", "tokens", "list"])
    assert "laptop" in listed.output and secret not in listed.output
    token_id = listed.output.split()[0].lstrip("#")
    assert runner.invoke(cli, [*home, "--user", "ann", "tokens", "revoke", token_id]).exit_code == 0
    with Memory(settings) as memory:
        assert memory.accounts.authenticate_token(secret) is None
    changed = runner.invoke(
        cli, [*home, "users", "passwd", "ann", "--password-stdin"], input="another password\n"
    )
    assert changed.exit_code == 0
    with Memory(settings) as memory:
        assert memory.accounts.check_password("ann", "another password") is not None


def test_health_reports_each_part(settings: Settings, clock: Clock) -> None:
    settings.llm.provider = "ollama"
    settings.llm.endpoint = "http://127.0.0.1:9"  # nothing listens there
    with _client(settings, clock, headers=auth_headers(settings, admin=True)) as client:  # details: admins
        health = client.get("/health").json()
    assert health["status"] == "degraded"
    checks = health["checks"]
    assert checks["store"]["ok"] is True and checks["llm"]["reachable"] is False
    assert checks["embedder"]["enabled"] is True and checks["workers"]["consolidation"] is True
