"""What people see of the accounts pages: why setup refuses, the session cookie, tokens' times.

Written for the mutants of server/auth.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import socket
from http.cookies import SimpleCookie

import pytest
from fastapi.testclient import TestClient

from reverie import Memory, Settings
from reverie.server import create_app
from tests.conftest import Clock
from tests.liveserver import live_server

API = "/api/v1"
LOOPBACK = "http://127.0.0.1:8765"
PASSWORD = "bob's long password"


def _client(settings: Settings, clock: Clock, **kwargs: object) -> TestClient:
    return TestClient(create_app(settings, clock=clock), **kwargs)  # type: ignore[arg-type]


def _add_bob(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        memory.accounts.set_password(memory.add_user("bob"), PASSWORD)


def test_setup_refusals_say_why(settings: Settings, clock: Clock) -> None:
    with _client(settings, clock, client=("203.0.113.9", 50000)) as remote:
        far = remote.get("/setup")
    with _client(settings, clock, base_url=LOOPBACK) as local:
        rebound = local.get("/setup", headers={"Host": "evil.example:8765"})
        cross = local.post(
            "/setup",
            json={"name": "ann", "password": "correct horse"},
            headers={"Origin": "https://evil.example"},
        )
        assert local.post("/setup", json={"name": "ann", "password": "correct horse"}).status_code == 201
        done = local.get("/setup")
    assert (far.status_code, far.json()["detail"]) == (
        403,
        "The setup page answers only on this machine (loopback); "
        "or run `reverie users add NAME --admin` there",
    )
    assert (rebound.status_code, rebound.json()["detail"]) == (
        403,
        "The setup page answers only under a loopback name (localhost, 127.0.0.1), not 'evil.example:8765'",
    )
    assert (cross.status_code, cross.json()["detail"]) == (
        403,
        "Setup refused: the form was sent from another site's page",
    )
    assert (done.status_code, done.json()["detail"]) == (
        409,
        "Setup is done: an admin account exists; sign in instead",
    )


def test_the_setup_page_shows_whatever_page_linked_to_it(settings: Settings, clock: Clock) -> None:
    # Only a post is refused from another site's page; reading the form creates nothing.
    with _client(settings, clock, base_url=LOOPBACK) as local:
        page = local.get("/setup", headers={"Origin": "https://evil.example"})
        bare = local.get("/setup", headers={"Host": "localhost"})
    assert page.status_code == 200 and "Create admin" in page.text
    assert bare.status_code == 200, "a loopback name without a port is still this machine"


def test_setup_without_a_host_header_is_refused_and_says_so(settings: Settings) -> None:
    # An HTTP/1.0 client may send no Host at all; the server must refuse, not fail.
    with live_server(settings) as base:
        host, _, port = base.removeprefix("http://").rpartition(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(b"GET /setup HTTP/1.0\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    head, _, body = answer.decode().partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 403"), head
    assert "not ''" in body, body


def test_no_client_address_is_refused_setup_but_may_sign_in(settings: Settings, clock: Clock) -> None:
    # A request with no client address (as over a Unix socket) is not taken for this machine.
    _add_bob(settings, clock)
    with _client(settings, clock, client=None) as nowhere:
        setup = nowhere.get("/setup")
        signed = nowhere.post(f"{API}/auth/login", json={"name": "bob", "password": PASSWORD})
    assert setup.status_code == 403 and "this machine" in setup.json()["detail"]
    assert signed.status_code == 200 and signed.json()["user"]["name"] == "bob"


def _cookie(response_header: str) -> dict[str, str | bool]:
    jar: SimpleCookie = SimpleCookie()
    jar.load(response_header)
    morsel = jar["reverie_session"]
    return {key: value for key, value in morsel.items() if value}


def test_the_session_cookie_is_for_the_whole_site_and_secure_on_tls(settings: Settings, clock: Clock) -> None:
    _add_bob(settings, clock)
    login = {"name": "bob", "password": PASSWORD}
    with _client(settings, clock) as plain:
        clear = _cookie(plain.post(f"{API}/auth/login", json=login).headers["set-cookie"])
    with _client(settings, clock, base_url="https://testserver") as tls:
        direct = _cookie(tls.post(f"{API}/auth/login", json=login).headers["set-cookie"])
    settings.server.behind_tls_proxy = True
    with _client(settings, clock) as proxied:
        behind = _cookie(proxied.post(f"{API}/auth/login", json=login).headers["set-cookie"])
    settings.server.behind_tls_proxy = False
    settings.server.tls_certfile = "/etc/reverie/cert.pem"
    with _client(settings, clock) as served:
        certified = _cookie(served.post(f"{API}/auth/login", json=login).headers["set-cookie"])
    assert clear["path"] == "/", "the cookie is sent to every page and API route, not only /api/v1/auth"
    assert clear["httponly"] is True and str(clear["samesite"]).lower() == "strict"
    assert "secure" not in clear, "over plain http a Secure cookie would not be kept"
    for cookie in (direct, behind, certified):
        assert cookie["secure"] is True and cookie["path"] == "/"


def test_times_shown_are_in_the_configured_time_zone(settings: Settings, clock: Clock) -> None:
    settings.memory.timezone = "Europe/Paris"  # UTC+1 in January
    _add_bob(settings, clock)
    with _client(settings, clock) as browser:
        signed = browser.post(f"{API}/auth/login", json={"name": "bob", "password": PASSWORD})
        csrf = {"X-CSRF-Token": signed.json()["csrf_token"]}
        made = browser.post(f"{API}/tokens", json={"name": "laptop"}, headers=csrf).json()
        clock.advance(120)
        assert browser.get(f"{API}/auth/me", headers={"Authorization": f"Bearer {made['token']}"}).is_success
        (listed,) = browser.get(f"{API}/tokens").json()["tokens"]
    assert signed.json()["user"]["created_at"] == "2026-01-15T19:00:00+01:00"
    assert made["created_at"] == "2026-01-15T19:00:00+01:00" and made["last_used_at"] is None
    assert listed["created_at"] == "2026-01-15T19:00:00+01:00"
    assert listed["last_used_at"] == "2026-01-15T19:02:00+01:00"


def test_a_device_token_names_its_interface(settings: Settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as memory:
        memory.accounts.set_password(memory.add_user("ann", is_admin=True), PASSWORD)
    with _client(settings, clock) as browser:
        signed = browser.post(f"{API}/auth/login", json={"name": "ann", "password": PASSWORD})
        csrf = {"X-CSRF-Token": signed.json()["csrf_token"]}
        made = browser.post(f"{API}/tokens", json={"name": "speaker", "interface": "kitchen"}, headers=csrf)
        listed = browser.get(f"{API}/tokens").json()["tokens"]
    assert made.status_code == 201 and made.json()["interface"] == "kitchen"
    assert [(t["name"], t["interface"]) for t in listed] == [("speaker", "kitchen")]


@pytest.mark.parametrize(("failures", "minutes"), [(2, 2.0), (3, 10.0)])
def test_the_sign_in_limit_follows_the_settings(
    settings: Settings, clock: Clock, failures: int, minutes: float
) -> None:
    settings.server.login_max_failures, settings.server.login_window_minutes = failures, minutes
    _add_bob(settings, clock)
    with _client(settings, clock) as browser:
        for _ in range(failures):
            wrong = browser.post(f"{API}/auth/login", json={"name": "bob", "password": "a wrong guess"})
            assert wrong.status_code == 401
        blocked = browser.post(f"{API}/auth/login", json={"name": "bob", "password": PASSWORD})
    assert blocked.status_code == 429
    assert minutes * 60 - 30 <= int(blocked.headers["retry-after"]) <= minutes * 60
    assert f"try again in {int(minutes)} minute(s)" in blocked.json()["detail"]
