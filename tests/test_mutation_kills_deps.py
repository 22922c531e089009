"""What callers see when their credential is refused: each refusal's message, and the WebSocket's origin.

Written for the mutants of server/deps.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from reverie import Memory, Settings
from reverie.server import create_app
from tests.apiauth import auth_headers
from tests.conftest import Clock

API = "/api/v1"
PASSWORD = "bob's long password"


@pytest.fixture
def client(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """The app with bob (a password) and ann (an admin) in it."""
    with Memory(settings, clock=clock) as memory:
        memory.accounts.set_password(memory.add_user("bob"), PASSWORD)
        memory.accounts.set_password(memory.add_user("ann", is_admin=True), PASSWORD)
    with TestClient(create_app(settings, clock=clock)) as test_client:
        yield test_client


def _session(client: TestClient, name: str = "bob") -> tuple[dict[str, str], str]:
    """A browser session's Cookie header and CSRF token (the client keeps no cookie)."""
    signed = client.post(f"{API}/auth/login", json={"name": name, "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    cookie = {"Cookie": f"reverie_session={signed.cookies['reverie_session']}"}
    client.cookies.clear()
    return cookie, signed.json()["csrf_token"]


def _refusal(client: TestClient, headers: dict[str, str], method: str = "GET") -> tuple[int, str]:
    answer = client.request(method, f"{API}/memories", headers=headers)
    return answer.status_code, answer.json()["detail"]


def test_each_refused_credential_says_what_to_do(
    settings: Settings, client: TestClient, clock: Clock
) -> None:
    made = client.post(f"{API}/tokens", json={"name": "old"}, headers=auth_headers(settings, "bob")).json()
    client.delete(f"{API}/tokens/{made['id']}", headers=auth_headers(settings, "bob"))
    cookie, _ = _session(client)
    clock.advance(settings.server.session_hours * 3600 + 1)
    assert _refusal(client, {}) == (
        401,
        "Sign in, or send 'Authorization: Bearer <token>' (create one with `reverie tokens create`)",
    )
    assert _refusal(client, {"Authorization": f"Basic {made['token']}"}) == (
        401,
        "The Authorization header must be 'Bearer <token>'",
    )
    assert _refusal(client, {"Authorization": f"Bearer {made['token']}"}) == (
        401,
        "This API token is unknown or has been revoked",
    )
    assert _refusal(client, cookie) == (401, "Your session has expired; sign in again")
    retired = _refusal(client, {**auth_headers(settings, "bob"), "X-Reverie-User": "ann"})
    assert retired == (
        400,
        "The x-reverie-user header is not accepted: the user comes from the credential "
        "(a user's API token, or a device token for a voice interface)",
    )


def test_admin_routes_tell_a_user_why_they_are_refused(settings: Settings, client: TestClient) -> None:
    refused = client.get(f"{API}/users", headers=auth_headers(settings, "bob"))
    assert (refused.status_code, refused.json()["detail"]) == (403, "Only an admin may do this")


def test_a_bearer_token_with_extra_spaces_is_accepted(settings: Settings, client: TestClient) -> None:
    secret = auth_headers(settings, "bob")["Authorization"].removeprefix("Bearer ")
    me = client.get(f"{API}/auth/me", headers={"Authorization": f"bearer  {secret} "})
    assert me.status_code == 200 and me.json()["user"]["name"] == "bob"


def test_gets_from_a_browser_session_need_no_csrf_token_whatever_their_origin(client: TestClient) -> None:
    # A proxy may rewrite Host, so a GET's Origin is not compared; only writes need the CSRF token.
    cookie, _ = _session(client, "ann")
    away = {**cookie, "Origin": "https://elsewhere.example"}
    status = client.get(f"{API}/auth/status", headers=away)
    health = client.get("/health", headers=away)
    assert status.status_code == 200 and status.json()["signed_in"] is True
    assert health.status_code == 200 and health.json()["checks"], "an admin's session sees the details"


def _hello(client: TestClient, headers: dict[str, str]) -> tuple[int | str, str]:
    try:
        with client.websocket_connect(f"{API}/sessions/ws", headers=headers) as ws:
            ws.send_json({"type": "hello"})
            frame = ws.receive_json()
            return str(frame.get("type")), ""
    except WebSocketDenialResponse as denied:
        return denied.status_code, denied.json()["detail"]
    except WebSocketDisconnect as exc:
        return exc.code, exc.reason or ""


def test_a_browser_session_s_websocket_must_come_from_this_server_s_page(client: TestClient) -> None:
    cookie, _ = _session(client)
    assert _hello(client, {**cookie, "Origin": "http://testserver"}) == ("ready", "")
    assert _hello(client, cookie) == ("ready", ""), "a client that is no browser sends no Origin"
    refused = _hello(client, {**cookie, "Origin": "https://evil.example"})
    assert refused[1] == "This WebSocket comes from another site's page; refused"


def test_a_server_started_without_its_lifespan_says_how_to_start_it(settings: Settings) -> None:
    app = create_app(settings)
    answer = TestClient(app).get(f"{API}/memories", headers=auth_headers(settings, "bob"))
    assert answer.json()["detail"] == (
        "The server's memory is not open: run the app with its lifespan "
        "(uvicorn does; in tests use `with TestClient(app) as client`)"
    )


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (b"  ", "The request body is empty; send a JSON object"),
        (b'{"name": "\xff"}', "Request body is not valid UTF-8 (bad byte at offset 10)"),
        (b'{"name": ', "Request body is not valid JSON: Expecting value (at character 9)"),
    ],
)
def test_a_setup_body_that_is_not_json_says_what_is_wrong(
    settings: Settings, body: bytes, detail: str
) -> None:
    with TestClient(create_app(settings), base_url="http://127.0.0.1:8765") as local:
        # Sent without a JSON content type, the server's body checks (limits.py) leave it to json_body.
        answer = local.post("/setup", content=body, headers={"Content-Type": "text/plain"})
    assert (answer.status_code, answer.json()["detail"]) == (400, detail)
