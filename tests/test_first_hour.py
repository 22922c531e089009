"""A newcomer's first hour (issue 21): every page offline, every message clear.

Browser tests drive Debian's Chromium with every request to another host blocked, as in
test_web_ui.py (whose browser fixtures this module reuses).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakeserver import FakeModelServer
from fastapi.testclient import TestClient
from liveserver import live_server
from playwright.sync_api import Browser, Page, expect
from test_web_ui import (  # noqa: F401  (browser and playwright are fixtures)
    DESKTOP,
    PASSWORD,
    Site,
    browser,
    needs_chromium,
    open_page,
    playwright,
    shot,
)

from reverie import Settings, load_settings
from reverie.cli import cli
from reverie.server import create_app


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Site]:
    """A brand-new server: no account, no LLM configured, a fake embedder."""
    fake = FakeModelServer(dimensions=64).start()
    settings = load_settings(
        home=tmp_path / "fresh",
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(tmp_path / "documents"),
            "REVERIE_RAG__REINDEX_ON_STARTUP": "false",
            "REVERIE_EMBEDDINGS__PROVIDER": "ollama",
            "REVERIE_EMBEDDINGS__MODEL": "fake-embed",
            "REVERIE_EMBEDDINGS__ENDPOINT": fake.url,
            "REVERIE_SERVER__CONSOLIDATE_EVERY_SECONDS": "0",
        },
    )
    try:
        with live_server(settings) as url:
            yield Site(url, settings, tmp_path / "documents", fake)
    finally:
        fake.stop()


@pytest.fixture
def fresh_page(browser: Browser, fresh: Site, request: pytest.FixtureRequest) -> Iterator[Page]:  # noqa: F811
    yield from open_page(browser, fresh, request, DESKTOP)


# item 1: /docs offline, /setup styled, /favicon.ico ----------------------------------------
def test_docs_favicon_and_setup_are_served_by_reverie_itself(client: TestClient) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "cdn" not in docs.text.lower() and "https://" not in docs.text
    for asset in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css"):
        answer = client.get(asset)
        assert answer.status_code == 200 and len(answer.content) > 10_000, asset
        assert asset in docs.text
    assert client.get("/docs/assets/../apidocs.py").status_code == 404
    assert client.get("/docs/assets/favicon.png").status_code == 404
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"


@needs_chromium
def test_docs_page_works_with_the_network_cut_off(fresh_page: Page, fresh: Site) -> None:
    fresh_page.goto(fresh.url + "/docs")
    expect(fresh_page.locator(".swagger-ui .title")).to_contain_text("Reverie")
    expect(fresh_page.locator(".opblock-summary-path").filter(has_text="/health").first).to_be_visible()
    shot(fresh_page, "first-hour-docs")


@needs_chromium
def test_setup_page_is_styled_like_the_app_and_signs_the_admin_in(fresh_page: Page, fresh: Site) -> None:
    fresh_page.goto(fresh.url + "/setup")
    expect(fresh_page.get_by_role("heading", name="Welcome to Reverie")).to_be_visible()
    primary = fresh_page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--primary').trim()"
    )
    assert primary, "app.css did not load on /setup"
    button = fresh_page.get_by_role("button", name="Create admin")
    background = button.evaluate("b => getComputedStyle(b).backgroundColor")
    assert background not in ("rgb(239, 239, 239)", "rgb(240, 240, 240)", "rgba(0, 0, 0, 0)")
    shot(fresh_page, "first-hour-setup")
    fresh_page.get_by_label("User name").fill("ada")
    fresh_page.get_by_label("Password (at least 8 characters)").fill(PASSWORD)
    button.click()
    expect(fresh_page.get_by_role("heading", name="My Memory", level=1)).to_be_visible()


# item 2: an unusable data folder or a port in use: one line with the fix, no traceback -------
def _unwritable(tmp_path: Path) -> Path:
    if os.geteuid() == 0:  # root writes anywhere but in /sys
        return Path("/sys/reverie-test-home")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    return locked / "home"


@pytest.mark.parametrize("command", [["stats"], ["remember", "I like tea"], ["serve"]])
def test_an_unusable_data_folder_is_one_line_with_the_fix(tmp_path: Path, command: list[str]) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    cases = ((a_file, "is a file, not a folder"), (_unwritable(tmp_path), "Cannot use the data folder"))
    for home, why in cases:
        result = CliRunner().invoke(cli, command, env={"REVERIE_HOME": str(home)})
        assert result.exit_code == 1, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("reverie: "), result.output
        assert str(home) in lines[0] and why in lines[0] and "REVERIE_HOME" in lines[0]
        assert "Traceback" not in result.output


def test_a_port_in_use_is_one_line_with_the_fix(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["--home", str(tmp_path / "home"), "serve", "--port", str(port)])
    assert result.exit_code == 1, result.output
    assert result.output.strip() == (
        f"reverie: Cannot listen on 127.0.0.1:{port}: the port is in use by another program. Stop that "
        f"program (another `reverie serve`?), or pick a free port: `reverie serve --port {port + 1}` or "
        "port = ... under [server] in reverie.toml"
    )
