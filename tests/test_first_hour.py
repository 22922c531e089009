"""A newcomer's first hour (issue 21): every page offline, every message clear.

Browser tests drive Debian's Chromium with every request to another host blocked, as in
test_web_ui.py (whose browser fixtures this module reuses).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

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
from tests.apiauth import auth_headers

T = TypeVar("T")


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


# item 3: chat with no LLM, or an unreachable one, on every door ---------------------------
def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_chat_without_an_llm_is_a_503_naming_the_settings_and_the_config_file(
    client: TestClient, settings: Settings
) -> None:
    headers = auth_headers(settings, "ann")
    text = client.post("/chat/text", json={"text": "hi"}, headers=headers)
    assert text.status_code == 503 and text.json()["error"] == "not_configured"
    for needed in ("[llm]", str(settings.config_file), "REVERIE_LLM__PROVIDER", "Settings"):
        assert needed in text.json()["detail"], needed
    body = {"model": "any", "messages": [{"role": "user", "content": "hi"}]}
    proxy = client.post("/v1/chat/completions", json=body, headers=headers)
    assert proxy.status_code == 503
    error = proxy.json()["error"]
    assert error["type"] == "api_error" and error["code"] == "not_configured"
    assert str(settings.config_file) in error["message"]
    assert client.get("/api/v1/conversations", headers=headers).json() == []


def test_openai_proxy_errors_come_in_openai_shape(tmp_path: Path) -> None:
    fake = FakeModelServer(dimensions=8).start()
    try:
        environ = {
            "REVERIE_EMBEDDINGS__ENABLED": "false",
            "REVERIE_LLM__PROVIDER": "openai_compatible",
            "REVERIE_LLM__MODEL": "fake-chat",
            "REVERIE_LLM__ENDPOINT": fake.url,
            "REVERIE_LLM__RETRY_BACKOFF_SECONDS": "0",
        }
        settings = load_settings(home=tmp_path / "home", environ=environ)
        with TestClient(create_app(settings), headers=auth_headers(settings, "ann")) as client:
            hello = [{"role": "user", "content": "hi"}]
            no_model = client.post("/v1/chat/completions", json={"messages": hello})
            assert no_model.status_code == 422
            error = no_model.json()["error"]
            assert error["type"] == "invalid_request_error" and "model" in error["message"]
            assert client.post("/v1/chat/completions", json={}).json()["error"]["code"] == "invalid_input"
            unauthorized = client.get("/v1/models", headers={"Authorization": "Bearer rv_nope"})
            assert unauthorized.status_code == 401
            assert unauthorized.json()["error"]["type"] == "authentication_error"
            fake.mode = "down"
            body = {"model": "fake-chat", "messages": [{"role": "user", "content": "hi"}]}
            down = client.post("/v1/chat/completions", json=body)
            assert down.status_code == 502 and down.json()["error"]["type"] == "api_error"
            assert down.json()["error"]["message"]
            assert client.get("/api/v1/nothing").json()["error"] == "not_found"  # REST keeps its shape
    finally:
        fake.stop()


def test_cli_chat_with_an_unreachable_llm_advises_and_records_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    result = CliRunner().invoke(
        cli, ["--home", str(home), "chat", "--url", url, "--model", "llama"], input="hello\n"
    )
    assert result.exit_code == 1, result.output
    line = result.output.strip()
    assert line.startswith(f"reverie: Cannot reach the chat model openai_compatible:llama at {url}")
    assert "nothing was recorded" in line and "--url" in line and str(home / "reverie.toml") in line
    assert 'provider = "none"' not in line
    listed = CliRunner().invoke(cli, ["--home", str(home), "conversations", "--json"])
    assert listed.exit_code == 0 and listed.output.strip() == "[]"


@needs_chromium
def test_chat_page_says_before_the_first_message_that_no_llm_is_set_up(
    fresh_page: Page, fresh: Site
) -> None:
    from reverie import Memory

    with Memory(fresh.settings) as memory:
        user = memory.add_user("ada", is_admin=True)
        memory.accounts.set_password(user, PASSWORD)
    fresh_page.goto(fresh.url + "/#/chat")
    fresh_page.get_by_label("User name").fill("ada")
    fresh_page.get_by_label("Password").fill(PASSWORD)
    fresh_page.get_by_role("button", name="Sign in").click()
    notice = fresh_page.locator(".chat-main .notice")
    expect(notice).to_contain_text("Chat needs a language model, and none is configured")
    expect(notice.get_by_role("link", name="Set up a chat model (LLM)")).to_be_visible()
    expect(fresh_page.get_by_role("button", name="Send")).to_be_disabled()
    expect(fresh_page.locator(".msg-assistant")).to_have_count(0)
    shot(fresh_page, "first-hour-chat-without-llm")


# item 4: one user model across doors ------------------------------------------------------
def test_the_cli_acts_as_the_first_admin_and_manages_the_same_accounts(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path / "home")]
    runner = CliRunner()
    added = runner.invoke(cli, [*home, "users", "add", "ada", "--admin", "--password-stdin"], input=PASSWORD)
    assert added.exit_code == 0, added.output
    assert runner.invoke(cli, [*home, "remember", "Ada keeps bees"]).exit_code == 0
    settings = load_settings(home=tmp_path / "home", environ=os.environ)
    from reverie import Memory

    with Memory(settings, user="ada") as ada:  # what the CLI kept is what ada sees on the web
        assert [row.text for row in ada.list_memories()] == ["Ada keeps bees"]
    bob = runner.invoke(cli, [*home, "users", "add", "bob", "--password-stdin"], input=PASSWORD)
    assert bob.exit_code == 0, bob.output
    listed = runner.invoke(cli, [*home, "users", "list"]).output.splitlines()
    assert "ada  (admin, web sign-in, the CLI's user)" in listed
    assert "bob  (web sign-in)" in listed
    as_bob = runner.invoke(cli, [*home, "--user", "bob", "users", "list", "--json"]).output
    assert '"cli_default": true' in as_bob.split('"name": "bob"')[1]
    only_admin = runner.invoke(cli, [*home, "users", "remove", "ada", "--yes"])
    assert only_admin.exit_code == 1
    assert only_admin.output.strip() == (
        "reverie: 'ada' is the only admin: make someone else an admin first "
        "(`reverie users admin NAME` or the Users page)"
    )
    nobody = runner.invoke(cli, [*home, "users", "remove", "nobody", "--yes"])
    assert "`reverie users list`" in nobody.output and nobody.exit_code == 1
    assert runner.invoke(cli, [*home, "users", "remove", "bob"], input="y\n").exit_code == 0
    assert "bob" not in runner.invoke(cli, [*home, "users"]).output


def test_default_user_set_in_the_config_wins(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"REVERIE_HOME": str(tmp_path / "home"), "REVERIE_DEFAULT_USER": "kitchen"}
    runner.invoke(cli, ["users", "add", "ada", "--admin", "--password-stdin"], input=PASSWORD, env=env)
    assert runner.invoke(cli, ["remember", "The kettle is blue"], env=env).exit_code == 0
    listed = runner.invoke(cli, ["users", "list"], env=env).output
    assert "kitchen  (the CLI's user)" in listed.splitlines()


def test_every_command_an_error_message_names_exists() -> None:
    import re

    import click

    source = Path(__file__).parents[1] / "src" / "reverie"
    named = set()
    for path in [*source.rglob("*.py"), *source.rglob("*.js"), *source.rglob("*.html")]:
        named.update(re.findall(r"`reverie ([a-z][a-z-]*(?: [a-z][a-z-]*)?)", path.read_text()))
    assert "users add" in named
    for words in sorted(named):
        group: click.Command = cli
        for word in words.split():
            if not isinstance(group, click.Group):
                break
            found = group.commands.get(word)
            if found is None:
                assert group is not cli, f"`reverie {words}` is named in a message but does not exist"
                break
            group = found


@needs_chromium
def test_an_admin_adds_and_removes_users_on_the_users_page(fresh_page: Page, fresh: Site) -> None:
    from reverie import Memory

    with Memory(fresh.settings) as memory:
        admin = memory.add_user("ada", is_admin=True)
        memory.accounts.set_password(admin, PASSWORD)
    page = fresh_page
    page.goto(fresh.url + "/")
    page.get_by_label("User name").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Users").click()
    expect(page.get_by_role("heading", name="Users", level=1)).to_be_visible()
    page.get_by_label("User name").fill("bob")
    page.get_by_label("Password (for the web UI)").fill(PASSWORD)
    page.get_by_role("button", name="Add user").click()
    rows = page.locator(".users .item")
    expect(rows).to_have_count(3)  # ada, bob and the CLI's "default" made by Memory() above
    expect(rows.filter(has_text="ada")).to_contain_text("Admin")
    shot(page, "first-hour-users")
    page.get_by_role("button", name="Remove bob").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("chat history")
    dialog.get_by_label("To confirm, type bob below:").fill("bob")
    dialog.get_by_role("button", name="Remove").click()
    expect(rows).to_have_count(2)
    expect(page.get_by_role("button", name="Remove ada")).to_have_count(0)
    page.get_by_role("button", name="ada").first.click()
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in to Reverie")).to_be_visible()
    with Memory(fresh.settings, user="default") as memory:
        assert memory.user is not None
        memory.accounts.set_password(memory.user, PASSWORD)
    page.get_by_label("User name").fill("default")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My Memory", level=1)).to_be_visible()
    expect(page.get_by_role("link", name="Users")).to_be_hidden()


# item 5: a first run that tells the truth ---------------------------------------------------
def test_stats_read_as_sentences(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path / "home")]
    runner = CliRunner()
    assert runner.invoke(cli, [*home, "remember", "I keep bees"]).exit_code == 0
    out = runner.invoke(cli, [*home, "stats"]).output
    assert out.splitlines()[:3] == [
        "Memory of default",
        "  1 fact (1 explicit, 0 inferred), 0 preferences, 0 summaries, 0 superseded",
        "  Base memory: none yet",
    ]
    assert "{" not in out and "embedded: 1 memory, 0 summaries" in out and "1 entry" in out


def test_startup_log_says_url_folder_config_models_and_llm(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    caplog.set_level(logging.INFO, logger="reverie.server")
    with TestClient(create_app(settings)):
        pass
    said = [r.getMessage() for r in caplog.records if r.name == "reverie.server"]
    assert f"Reverie is at http://127.0.0.1:{settings.server.port}/ (API docs at /docs)" in said
    assert f"Data folder: {settings.home}" in said
    assert f"Config file: {settings.config_file} (not there yet: the defaults apply)" in said
    assert any(line.startswith("Embedder: ") for line in said)
    assert any(line.startswith("Extractor: rules (offline)") for line in said)
    llm = next(line for line in said if line.startswith("LLM: "))
    assert "none configured" in llm and "[llm]" in llm and str(settings.config_file) in llm


def test_llm_status_and_connection_test(client: TestClient, settings: Settings) -> None:
    admin = auth_headers(settings, "ada", admin=True)
    status = client.get("/api/v1/llm/status", headers=admin).json()
    assert status["configured"] is False and str(settings.config_file) in status["detail"]
    fake = FakeModelServer(default_reply="OK").start()
    try:
        body = {"provider": "openai_compatible", "model": "fake-chat", "endpoint": fake.url}
        answer = client.post("/api/v1/llm/test", json=body, headers=admin).json()
        assert answer["ok"] is True and answer["detail"] == "OK"
        fake.mode = "down"
        failed = client.post("/api/v1/llm/test", json=body, headers=admin).json()
        assert failed["ok"] is False and "Cannot reach" in failed["detail"]
    finally:
        fake.stop()


@needs_chromium
def test_banner_leads_an_admin_to_the_llm_panel_and_chat_then_works(fresh_page: Page, fresh: Site) -> None:
    from reverie import Memory

    with Memory(fresh.settings) as memory:
        admin = memory.add_user("ada", is_admin=True)
        memory.accounts.set_password(admin, PASSWORD)
    page = fresh_page
    page.goto(fresh.url + "/")
    page.get_by_label("User name").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    banner = page.locator("#llm-banner")
    expect(banner).to_contain_text("Chat is off: no language model (LLM) is set up.")
    shot(page, "first-hour-llm-banner")
    banner.get_by_role("link", name="Set up the chat model").click()
    panel = page.locator("#llm-settings")
    expect(panel.get_by_role("heading", name="Chat model (LLM)")).to_be_visible()
    panel.get_by_label("Provider").select_option("openai_compatible")
    panel.get_by_label("Model").fill("fake-chat")
    panel.get_by_label("Endpoint").fill(fresh.fake.url)
    panel.get_by_role("button", name="Test connection").click()
    expect(panel.locator(".llm-test-result")).to_contain_text("It answers (openai_compatible:fake-chat")
    shot(page, "first-hour-llm-panel")
    panel.get_by_role("button", name="Save").click()
    expect(panel.locator(".form-status").last).to_contain_text("Applied now.")
    page.get_by_role("link", name="Chat", exact=True).click()
    expect(banner).to_be_hidden()
    page.get_by_role("textbox", name="Message").fill("Hello there")
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".msg-assistant")).to_contain_text("OK")


# item 6: documents ----------------------------------------------------------------------------
def test_scanning_a_folder_that_does_not_exist_is_an_error_that_says_so(
    tmp_path: Path, client: TestClient, settings: Settings
) -> None:
    missing = tmp_path / "no-such-folder"
    env = {"REVERIE_RAG__DOCUMENTS_DIR": str(missing)}
    result = CliRunner().invoke(cli, ["--home", str(tmp_path / "cli"), "docs", "scan"], env=env)
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"reverie: The documents folder {missing} does not exist: create it, or set documents_dir under "
        "[rag] in reverie.toml (REVERIE_RAG__DOCUMENTS_DIR, or the Knowledge Base page)"
    )
    answer = client.post("/api/v1/documents/scan", json={}, headers=auth_headers(settings, "ada", admin=True))
    assert answer.status_code == 404 and "does not exist" in answer.json()["detail"]


@needs_chromium
def test_knowledge_base_searches_and_sets_its_folder(fresh_page: Page, fresh: Site, tmp_path: Path) -> None:
    from reverie import Memory

    with Memory(fresh.settings) as memory:
        admin = memory.add_user("ada", is_admin=True)
        memory.accounts.set_password(admin, PASSWORD)
    folder = tmp_path / "household"
    folder.mkdir()
    (folder / "boiler.md").write_text("# Boiler\n\nThe boiler is serviced every October by Jan.\n")
    page = fresh_page
    page.goto(fresh.url + "/#/knowledge")
    page.get_by_label("User name").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Documents folder (shared by every user)").fill(str(folder))
    page.get_by_role("button", name="Save folder").click()
    expect(page.locator(".kb-help")).to_contain_text(str(folder))
    page.get_by_role("button", name="Scan for New Files").click()
    expect(page.locator(".docs .item")).to_have_count(1)
    page.get_by_role("searchbox", name="Search documents").fill("When is the boiler serviced?")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.locator(".kb-results .item").first).to_contain_text("every October")
    shot(page, "first-hour-knowledge-search")


# item 7: toasts and forget-everything ---------------------------------------------------------
@needs_chromium
def test_toasts_never_take_a_click_and_forget_everything_lists_all_it_deletes(
    fresh_page: Page, fresh: Site
) -> None:
    from reverie import Memory

    with Memory(fresh.settings) as root:
        ada = root.add_user("ada")
        root.accounts.set_password(ada, PASSWORD)
        memory = root.for_user("ada")
        memory.remember("Ada keeps bees")
        talk = memory.start_conversation("web")
        memory.add_message(talk.id, "user", "I decided to paint the hives blue.")
    page = fresh_page
    page.goto(fresh.url + "/")
    page.get_by_label("User name").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Remember a fact").fill("Ada's hives face south")
    page.get_by_role("button", name="Remember").click()
    toast = page.locator(".toast").first
    expect(toast).to_be_visible()
    box = toast.bounding_box()
    assert box is not None
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.toasts') === null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit, "a toast takes the clicks meant for what is under it"
    page.get_by_role("button", name="Forget Everything").click()
    dialog = page.get_by_role("dialog")
    for listed in ("2 facts", "0 preferences", "1 conversation with their chat history", "topic file",
                   "base memory"):
        expect(dialog).to_contain_text(listed)
    shot(page, "first-hour-forget-everything")
    dialog.get_by_role("button", name="Cancel").click()


# item 8: exact token counts for the context budget --------------------------------------------
def test_the_context_budget_is_counted_exactly_with_the_local_tokenizer(settings: Settings) -> None:
    from conftest import VARIED_FACTS
    from tokenizers import BertWordPieceTokenizer

    from reverie import Memory

    vocab = Path(__file__).parents[1] / "src" / "reverie" / "embed" / "data" / "vocab.txt"
    wordpiece = BertWordPieceTokenizer(str(vocab), lowercase=True)

    def exact(text: str) -> int:
        return len(wordpiece.encode(text, add_special_tokens=False).ids)

    assert settings.embeddings.provider == "local"
    with Memory(settings) as memory:
        for fact in VARIED_FACTS[:30]:
            memory.remember(fact)
        memory.prefer("units", "Prefers metric units, and temperatures in Celsius (°C) — always")
        memory.add_summary("Planned the 2026 trip to Kraków; decided on the night train (€89).")
        assert memory.count_tokens("Kraków’s night-train: €89!") == exact("Kraków’s night-train: €89!")
        for budget in (90, 150, 233, 400, 2000):
            memory.settings.memory.context_budget_tokens = budget
            block = memory.context("trip", touch=False)
            assert block.tokens == exact(block.text), budget
            assert 0 < block.tokens <= budget, (budget, block.tokens)
            if 150 <= budget <= 400:  # more remembered than fits: the budget is used, not wasted
                assert block.tokens > budget * 0.75, (budget, block.tokens)


def _off_loop(function: Callable[..., T], *args: Any) -> T:
    """Run ``function`` on a thread of its own: the browser tests' Playwright holds this thread's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


# item 9: MCP offers one coherent tool set; the other family behind a setting -----------------
VERB_TOOLS = [
    "create_memory", "delete_memory", "forget_memory", "list_memories", "memory_save_preference",
    "search_memory", "update_memory",
]
MEMORY_TOOLS = ["documents_search", "memory_forget", "memory_recent", "memory_remember", "memory_search"]


def test_mcp_over_stdio_lists_the_family_the_setting_names(settings: Settings, tmp_path: Path) -> None:
    import sys

    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def listed(family: str | None) -> tuple[list[str], str]:
        env = {"REVERIE_MEMORY__TIMEZONE": "UTC", "REVERIE_EMBEDDINGS__ENABLED": "false"}
        if family:
            env["REVERIE_SERVER__MCP_TOOLS"] = family
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "reverie", "--home", str(settings.home), "mcp"], env=env
        )
        with (tmp_path / f"stderr-{family}.log").open("w", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog)) as client:
                names = sorted(tool.name for tool in (await client.list_tools()).tools)
                stored = await client.call_tool("create_memory", {"content": f"User likes {family} tea"})
                return names, str(stored.content[0].text)  # type: ignore[union-attr]

    names, stored = _off_loop(anyio.run, listed, None)
    assert names == MEMORY_TOOLS and '"stored"' in stored  # the other family still answers by name
    assert _off_loop(anyio.run, listed, "verbs")[0] == VERB_TOOLS
    assert _off_loop(anyio.run, listed, "all")[0] == sorted(MEMORY_TOOLS + VERB_TOOLS)


def test_mcp_over_streamable_http_lists_one_family(settings: Settings) -> None:
    import anyio
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = auth_headers(settings, "bob")

    async def listed(url: str) -> dict[str, set[str]]:
        async with (
            httpx2.AsyncClient(headers=headers, timeout=20) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            tools = (await client.list_tools()).tools
            return {tool.name: set(tool.input_schema.get("required", [])) for tool in tools}

    with live_server(settings) as base:
        tools = _off_loop(anyio.run, listed, f"{base}/mcp")
    assert sorted(tools) == MEMORY_TOOLS
    assert all(required == {"value"} for required in tools.values())  # one argument name throughout
    settings.server.mcp_tools = "verbs"
    with live_server(settings) as base:
        assert sorted(_off_loop(anyio.run, listed, f"{base}/mcp")) == VERB_TOOLS


def test_an_llm_endpoint_must_be_an_address(client: TestClient, settings: Settings) -> None:
    admin = auth_headers(settings, "ada", admin=True)
    refused = client.put("/api/v1/settings", json={"llm.endpoint": "localhost 11434"}, headers=admin)
    assert refused.status_code == 422 and "http://" in refused.json()["fields"]["llm.endpoint"]
    bad = client.post("/api/v1/llm/test", json={"endpoint": "ftp://x"}, headers=admin)
    assert bad.status_code == 422


def test_a_half_configured_llm_is_refused_on_save_and_a_503_in_chat(tmp_path: Path) -> None:
    environ = {
        "REVERIE_EMBEDDINGS__ENABLED": "false",
        "REVERIE_LLM__PROVIDER": "openai",
        "REVERIE_LLM__MODEL": "x",
    }
    settings = load_settings(home=tmp_path / "home", environ=environ)  # no api_key for OpenAI
    with TestClient(create_app(settings), headers=auth_headers(settings, "ada", admin=True)) as client:
        chat = client.post("/chat/text", json={"text": "hi"})
        assert chat.status_code == 503 and "api_key" in chat.json()["detail"]
        refused = client.put("/api/v1/settings", json={"llm.provider": "ollama", "llm.model": ""})
        assert refused.status_code == 422 and "model" in refused.json()["fields"]["llm.model"]
