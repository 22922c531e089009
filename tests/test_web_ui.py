"""The memory web UI in a real headless Chromium (Debian's), plus the HTTP routes only the UI uses.

One Reverie server (uvicorn, in a thread, on a free loopback port) and one browser serve the
whole module; each test signs in as its own user. Every page blocks all traffic that is not
for the server, and every test fails on a console error, an uncaught page error or any attempt
to reach another host. Screenshots land in tests/artifacts/web_ui/.
"""

from __future__ import annotations

import re
import socket
import threading
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import count
from pathlib import Path

import httpx
import pytest
from conftest import VARIED_FACTS, Clock
from engines import STRICT
from fakeserver import FakeModelServer, Reply
from fastapi.testclient import TestClient
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    Route,
    expect,
    sync_playwright,
)

from reverie import Memory, Settings, load_settings
from reverie.server import create_app
from reverie.server.app import build_server
from reverie.server.tomlpatch import patched_toml
from tests.apiauth import auth_headers

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent / "artifacts" / "web_ui"
PASSWORD = "correct horse battery"
PHONE = {"width": 375, "height": 812}
KITCHEN = [  # four conclusions by the rules (no LLM): a new topic, cooking.md (as in test_topics.py)
    ("user", "I'm making paella for eight people on Saturday."),
    ("assistant", "Bomba rice absorbs more broth without going mushy."),
    ("user", "Yes, exactly. I decided to use bomba rice for paella from now on."),
    ("assistant", "Good choice. What broth will you use?"),
    ("user", "It turns out homemade chicken broth tastes much better than stock cubes."),
    ("assistant", "It really does."),
    ("user", "I will never stir the rice once the broth is in."),
]
DESKTOP = {"width": 1280, "height": 900}
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists() and not STRICT,  # under CI=true a missing browser fails the tests instead
    reason="Debian's chromium is not installed at /usr/bin/chromium (make test installs it as root)",
)
expect.set_options(timeout=10_000)
_names = count(1)


# the server ------------------------------------------------------------------------------
@dataclass
class Site:
    """The running server, its settings, its documents folder and the fake model server."""

    url: str
    settings: Settings
    documents: Path
    fake: FakeModelServer


def _write_documents(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(14):
        body = f"# Garden note {i}\n\n" + f"The tomatoes in bed {i} need water every {i + 2} days. " * 40
        (folder / f"garden-{i:02d}.md").write_text(body, encoding="utf-8")
    (folder / "recipes.txt").write_text("Lentil soup: lentils, carrots, cumin. " * 30, encoding="utf-8")
    (folder / "empty.md").write_text("", encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"this is not a PDF at all")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """Reverie under uvicorn with a fake LLM and embedder; the first user is an admin."""
    root = tmp_path_factory.mktemp("web_ui")
    documents = root / "documents"
    _write_documents(documents)
    fake = FakeModelServer(
        dimensions=256, default_reply="Nice to meet you! I will keep that in mind."
    ).start()
    settings = load_settings(
        home=root / "home",
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_RAG__DOCUMENTS_DIR": str(documents),
            "REVERIE_RAG__REINDEX_ON_STARTUP": "false",
            "REVERIE_RAG__CHUNK_SIZE_TOKENS": "64",
            "REVERIE_RAG__CHUNK_OVERLAP_TOKENS": "8",
            "REVERIE_RAG__EMBED_BATCH_SIZE": "4",
            "REVERIE_EMBEDDINGS__PROVIDER": "ollama",
            "REVERIE_EMBEDDINGS__MODEL": "fake-embed",
            "REVERIE_EMBEDDINGS__ENDPOINT": fake.url,
            "REVERIE_LLM__PROVIDER": "openai_compatible",
            "REVERIE_LLM__MODEL": "fake-chat",
            "REVERIE_LLM__ENDPOINT": fake.url,
            "REVERIE_LLM__RETRY_BACKOFF_SECONDS": "0",
            "REVERIE_MEMORY__EXTRACTION__PROVIDER": "none",  # the rules learn (KITCHEN's conclusions)
            "REVERIE_SERVER__CONSOLIDATE_EVERY_SECONDS": "0",
            # Nightly maintenance (which re-scans the documents folder) runs when the server starts
            # in its hour: the pages here start from an unscanned folder whatever the time of day.
            "REVERIE_MEMORY__DECAY__HOUR": str((datetime.now(UTC).hour + 12) % 24),
        },
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    settings.server.port = sock.getsockname()[1]
    server = build_server(settings, log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield Site(f"http://127.0.0.1:{settings.server.port}", settings, documents, fake)
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
        fake.stop()


def make_user(site: Site, *, admin: bool = False) -> str:
    """A new user with PASSWORD (the first one ever is an admin anyway)."""
    name = f"user{next(_names)}"
    with Memory(site.settings) as memory:
        user = memory.add_user(name, display_name=name.capitalize(), is_admin=admin)
        memory.accounts.set_password(user, PASSWORD)
    return name


# the browser -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"CI=true, and Chromium is not installed at {CHROMIUM}: apt-get install chromium")
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@dataclass
class Watch:
    """What a page did that a test must not allow: console errors, page errors, outside requests."""

    origin: str
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(self.origin + "/") or url == self.origin:
            route.continue_()
        else:
            self.outside.append(url)
            route.abort("blockedbyclient")

    def request(self, request: Request) -> None:
        self.requests.append(f"{request.method} {request.url}")


def open_page(
    browser: Browser, site: Site, request: pytest.FixtureRequest, viewport: dict[str, int]
) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, accept_downloads=True)  # type: ignore[arg-type]
    watch = Watch(site.url)
    context.route("**/*", watch.route)
    page = context.new_page()
    page.on("console", watch.console)
    page.on("pageerror", lambda exc: watch.errors.append(f"page error: {exc}"))
    page.on("request", watch.request)
    page.watch = watch  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-end.png"), full_page=True)
        context.close()
    assert watch.errors == [], watch.errors
    assert watch.outside == [], f"the page tried to reach other hosts: {watch.outside}"


@pytest.fixture
def page(browser: Browser, site: Site, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A desktop-size page that fails the test on console errors and outside requests."""
    yield from open_page(browser, site, request, DESKTOP)


@pytest.fixture
def phone(browser: Browser, site: Site, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A phone-size page (375 x 812)."""
    yield from open_page(browser, site, request, PHONE)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def sign_in(page: Page, site: Site, name: str) -> None:
    page.goto(site.url + "/")
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="My Memory", level=1)).to_be_visible()


def stat(page: Page, label: str) -> str:
    return page.locator(".stats .stat").filter(has_text=label).locator("dd").inner_text()


# browser tests ---------------------------------------------------------------------------
@needs_chromium
def test_sign_in_user_menu_and_sign_out(page: Page, site: Site) -> None:
    name = make_user(site)
    page.goto(site.url + "/")
    expect(page.get_by_role("heading", name="Sign in to Reverie")).to_be_visible()
    shot(page, "sign-in")
    sign_in(page, site, name)
    page.get_by_role("button", name=name.capitalize()).click()
    menu = page.locator("#user-menu")
    expect(menu).to_contain_text(f"Signed in as {name}")
    expect(menu.get_by_role("link", name="Export my memories (JSON)")).to_have_attribute(
        "href", "/api/v1/export"
    )
    shot(page, "user-menu")
    menu.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in to Reverie")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Sign in to Reverie")).to_be_visible()


@needs_chromium
def test_add_search_edit_and_delete_a_memory(page: Page, site: Site) -> None:
    sign_in(page, site, make_user(site))
    expect(page.get_by_text("Reverie hasn't learned anything about you yet.")).to_be_visible()
    shot(page, "memory-empty")
    page.get_by_label("Remember a fact").fill("User keeps bees in the back garden")
    page.get_by_role("button", name="Remember").click()
    page.get_by_label("Remember a fact").fill("User drives a blue Subaru Outback")
    page.get_by_role("button", name="Remember").click()
    items = page.locator("#memory-panel .item")
    expect(items).to_have_count(2)
    expect(page.locator(".stats")).to_contain_text("Facts2")
    expect(page.get_by_text("Showing 2 of 2 facts")).to_be_visible()

    page.get_by_label("Search memories").fill("bees")
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("User keeps bees in the back garden")
    expect(items.first).to_contain_text("Source: explicit")
    expect(items.first).to_contain_text("Confidence: 100%")

    page.get_by_role("button", name="Edit: User keeps bees in the back garden").click()
    editor = page.get_by_label("Fact text:")
    expect(editor).to_be_focused()
    expect(page.locator(".edit-form")).to_contain_text("Access count")
    shot(page, "memory-edit")
    editor.fill("User keeps two hives of bees in the back garden")
    page.get_by_role("button", name="Save Changes").click()
    expect(items.first).to_contain_text("User keeps two hives of bees")

    page.get_by_label("Search memories").fill("")
    expect(items).to_have_count(2)
    page.get_by_role("button", name="Delete: User drives a blue Subaru Outback").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Delete this fact?")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    dialog.get_by_role("button", name="Delete").click()
    expect(items).to_have_count(1)
    expect(page.locator(".stats")).to_contain_text("Facts1")
    expect(page.get_by_text("Showing 1 of 1 fact")).to_be_visible()


@needs_chromium
def test_preferences_summaries_and_load_more(page: Page, site: Site) -> None:
    name = make_user(site)
    with Memory(site.settings, user=name) as memory:
        for i in range(23):
            memory.remember(VARIED_FACTS[i], source="inferred", confidence=0.7)
        memory.prefer("verbosity", "Prefers concise responses", source="inferred", confidence=0.78)
        memory.add_summary(
            "Discussed home automation for the garage lights.", topics=["home automation", "mqtt"]
        )
    sign_in(page, site, name)
    items = page.locator("#memory-panel .item")
    expect(items).to_have_count(20)
    expect(page.get_by_text("Showing 20 of 23 facts")).to_be_visible()
    page.get_by_role("button", name="Load more").click()
    expect(items).to_have_count(23)
    expect(page.get_by_role("button", name="Load more")).to_be_hidden()

    page.get_by_role("tab", name="Preferences (1)").click()
    expect(items.first).to_contain_text("Verbosity")
    expect(items.first).to_contain_text("Reinforced 1 time")
    page.get_by_role("tab", name="Summaries (1)").click()
    expect(items.first).to_contain_text("Topics: home automation, mqtt")
    shot(page, "memory-summaries")
    page.get_by_role("button", name=re.compile("^Delete: summary of")).click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(page.get_by_role("tab", name="Summaries (0)")).to_be_visible()
    expect(page.get_by_text("No summaries yet.")).to_be_visible()


@needs_chromium
def test_forget_everything_needs_the_word_delete(page: Page, site: Site) -> None:
    name = make_user(site)
    with Memory(site.settings, user=name) as memory:
        memory.remember("User is allergic to shellfish")
        memory.remember("User plays chess online most evenings")
        memory.prefer("units", "metric")
    sign_in(page, site, name)
    expect(page.locator(".stats")).to_contain_text("Facts2")
    page.get_by_role("button", name="Forget Everything").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("2 facts")
    expect(dialog).to_contain_text("1 preference")
    confirm = dialog.get_by_role("button", name="Delete Everything")
    box = dialog.get_by_label("To confirm, type DELETE below:")
    expect(box).to_be_focused()
    expect(confirm).to_be_disabled()
    box.fill("delete")
    expect(confirm).to_be_disabled()
    box.fill("DELETE")
    expect(confirm).to_be_enabled()
    shot(page, "forget-everything")
    confirm.click()
    expect(page.get_by_text("Reverie hasn't learned anything about you yet.")).to_be_visible()
    expect(page.locator(".stats")).to_contain_text("Facts0")
    expect(page.locator(".stats")).to_contain_text("Preferences0")


@needs_chromium
def test_chat_offers_an_observation_and_only_a_yes_keeps_it(page: Page, site: Site) -> None:
    name = make_user(site)
    sign_in(page, site, name)
    page.get_by_role("link", name="Chat").click()
    noticed = ["User grows basil on the kitchen windowsill", "User waters the basil every other day"]
    site.fake.script_chat(
        [
            Reply("", [("state_propose", {"value": noticed[0]}), ("state_propose", {"value": noticed[1]})]),
            "Shall I remember that?",
        ]
    )
    page.get_by_role("textbox", name="Message").fill("My basil on the kitchen windowsill is doing great")
    page.get_by_role("button", name="Send").click()
    offered = page.locator(".proposal")
    expect(offered).to_have_count(2)
    expect(offered.first).to_contain_text(noticed[0])
    shot(page, "chat-observation")
    offered.first.get_by_role("button", name="Yes, remember").click()
    expect(offered).to_have_count(1)
    offered.first.get_by_role("button", name="No").click()
    expect(offered).to_have_count(0)
    with Memory(site.settings, user=name) as memory:
        kept = [row.text for row in memory.list_memories()]
    assert noticed[0] in kept and noticed[1] not in kept


@needs_chromium
def test_chat_privacy_toggle_by_button_and_shortcut(page: Page, site: Site) -> None:
    name = make_user(site)
    sign_in(page, site, name)
    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat", level=1)).to_be_visible()
    page.get_by_role("textbox", name="Message").fill("Hello, I am planting tomatoes this weekend")
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".msg-assistant")).to_contain_text("Nice to meet you!")
    history = page.locator(".history li")
    expect(history).to_have_count(1)
    expect(history.first.locator(".badge-private")).to_have_count(0)

    toggle = page.locator(".privacy-toggle")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("Private conversation: nothing from it will be remembered.")).to_be_visible()
    expect(history.first.locator(".badge-private")).to_have_text("Private")
    shot(page, "chat-private")

    page.keyboard.press("Control+Shift+P")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(history.first.locator(".badge-private")).to_have_count(0)
    page.keyboard.press("Control+Shift+P")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(history.first.locator(".badge-private")).to_be_visible()
    with Memory(site.settings, user=name) as memory:
        conversations = memory.conversations()
        assert [c.is_private for c in conversations] == [True]
        assert [m.role for m in memory.messages(conversations[0].id)] == ["user", "assistant"]

    page.get_by_role("button", name="New chat").click()
    expect(page.locator(".msg")).to_have_count(0)
    expect(toggle).to_have_attribute("aria-pressed", "true")  # a new chat stays private until turned off
    page.keyboard.press("Control+Shift+P")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.get_by_role("textbox", name="Message").fill("A second, public chat")
    page.keyboard.press("Enter")
    expect(history).to_have_count(2)
    expect(page.locator(".badge-private")).to_have_count(1)


@needs_chromium
def test_create_and_revoke_an_api_token(page: Page, site: Site) -> None:
    sign_in(page, site, make_user(site))
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Token name").fill("kitchen assistant")
    page.get_by_role("button", name="Create token").click()
    secret = page.get_by_label("New token")
    expect(secret).to_have_value(re.compile(r"^rv_"))
    expect(page.get_by_text("it will not be shown again")).to_be_visible()
    token = secret.input_value()
    shot(page, "token-created")
    me = httpx.get(f"{site.url}/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200
    row = page.locator(".tokens .item").filter(has_text="kitchen assistant")
    expect(row).to_contain_text("Last used")
    row.get_by_role("button", name="Revoke kitchen assistant").click()
    page.get_by_role("dialog").get_by_role("button", name="Revoke").click()
    expect(row.locator(".badge")).to_have_text("Revoked")
    gone = httpx.get(f"{site.url}/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert gone.status_code == 401
    expect(page.get_by_role("heading", name="Threads")).to_have_count(0)  # admins only
    assert not [r for r in page.watch.requests if "/api/v1/threads" in r or "/api/v1/users" in r]  # type: ignore[attr-defined]


@needs_chromium
def test_charts_show_memories_over_time_and_confidence(page: Page, site: Site) -> None:
    name = make_user(site)
    clock = Clock(time.time() - 20 * 86400)
    with Memory(site.settings, user=name, clock=clock) as memory:
        for day, confidence in enumerate([0.95, 0.9, 0.85, 0.7, 0.6, 0.55, 0.4, 1.0]):
            memory.remember(VARIED_FACTS[day], confidence=confidence)
            clock.advance(2 * 86400)
    sign_in(page, site, name)
    timeline = page.get_by_role("img", name=re.compile("Memories over time"))
    confidence = page.get_by_role("img", name=re.compile("Confidence distribution"))
    expect(timeline).to_be_visible()
    expect(confidence).to_be_visible()
    expect(timeline).to_have_accessible_name(re.compile("memories grew to 8, by day"))
    expect(confidence).to_have_accessible_name(re.compile("4 of 8 memories have a confidence of 80% or more"))
    assert timeline.locator("polyline.line-total").count() == 1
    assert len(timeline.locator("polyline.line-total").get_attribute("points").split()) >= 20  # type: ignore[union-attr]
    assert confidence.locator("rect.bar").count() == 10
    heights = [float(b.get_attribute("height") or 0) for b in confidence.locator("rect.bar-high").all()]
    assert max(heights) > 0
    page.locator(".charts-card").screenshot(path=str(ARTIFACTS / "charts.png"))


@needs_chromium
def test_topics_tab_opens_splits_and_warns_of_a_broken_file(page: Page, site: Site) -> None:
    name = make_user(site)
    with Memory(site.settings, user=name) as memory:
        conv = memory.start_conversation("kitchen")
        for role, text in KITCHEN:
            memory.add_message(conv, role, text)
        memory.background.wait(10)
        memory.end_conversation(conv.id)
        memory.consolidator().run_pending()
        memory.background.wait(30)
        folder = memory.topics.folder
        assert (folder / "cooking.md").is_file()
        (folder / "garden.md").write_text("no title here\n- half a line\n", encoding="utf-8")
        memory.topics.sync()
    sign_in(page, site, name)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Topics").click()
    expect(page.get_by_role("heading", name="Topics", level=1)).to_be_visible()
    topics = page.locator(".topic-list .topic-item")
    expect(topics).to_have_count(1)
    expect(topics.first).to_contain_text("Cooking")
    expect(topics.first).to_contain_text("cooking.md · 4 lines")
    broken = page.locator(".topic-broken")
    expect(broken).to_contain_text("garden.md cannot be read")
    expect(broken).to_contain_text("line 1")
    expect(page.locator(".recent li").first).to_contain_text(re.compile(r"just now.*cooking"))

    topics.first.click()
    detail = page.locator(".topic-detail")
    expect(detail.get_by_role("heading", name="Cooking", level=2)).to_be_focused()
    lines = detail.locator(".topic-lines li")
    expect(lines).to_have_count(4)
    expect(lines.filter(has_text="bomba rice for paella")).to_have_count(1)
    expect(lines.first.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-\d{2}-\d{2}$"))
    expect(topics.first).to_have_attribute("aria-current", "true")
    shot(page, "topics-open")

    detail.get_by_role("button", name="Split into subtopics").click()
    page.get_by_role("dialog").get_by_role("button", name="Split").click()
    expect(detail.get_by_role("heading", name="Cooking was split")).to_be_visible()
    expect(topics).to_have_count(2)
    expect(topics.filter(has_text="cooking.md")).to_have_count(0)
    expect(page.locator(".topic-broken")).to_have_count(1)
    made = sorted(p.stem for p in folder.glob("cooking-*.md"))
    assert len(made) == 2 and not (folder / "cooking.md").exists()
    counts = [int(re.search(r"(\d+) lines?", t)[1]) for t in topics.all_inner_texts()]  # type: ignore[index]
    assert sum(counts) == 4, counts
    shot(page, "topics-split")
    detail.locator(".subtopics button").first.click()
    expect(detail.get_by_role("heading", name=re.compile("^Cooking — "), level=2)).to_be_visible()
    page.set_viewport_size(PHONE)
    shot(page, "phone-topics-open")


@needs_chromium
def test_sensitive_memories_carry_a_badge(page: Page, site: Site) -> None:
    name = make_user(site)
    with Memory(site.settings, user=name) as memory:
        assert memory.remember("User takes 20 mg of sertraline daily").memory.sensitive
        memory.remember("User plays the cello in an amateur orchestra")
    sign_in(page, site, name)
    items = page.locator("#memory-panel .item")
    expect(items).to_have_count(2)
    medicine = items.filter(has_text="sertraline")
    badge = medicine.locator(".badge-sensitive")
    expect(badge).to_contain_text("Sensitive")
    expect(badge).to_have_attribute("title", re.compile("kept only because you asked"))
    expect(medicine.get_by_title(re.compile("^Health, finances or identity details"))).to_be_visible()
    expect(items.filter(has_text="cello").locator(".badge-sensitive")).to_have_count(0)
    page.get_by_label("Search memories").fill("sertraline")
    expect(items).to_have_count(1)
    expect(items.first.locator(".badge-sensitive")).to_be_visible()
    shot(page, "memory-sensitive")


@needs_chromium
def test_an_admin_merges_a_thread_into_a_person(page: Page, site: Site) -> None:
    admin = make_user(site, admin=True)
    person = make_user(site)
    with Memory(site.settings) as memory:
        memory.for_user(person).remember("User's favourite tea is Earl Grey")
        thread = memory.start_thread("kiosk")
        thread.remember("User's favourite tea is Earl Grey")
        thread.remember("User collects vintage postcards from Lisbon")
        assert thread.user is not None
        thread_name = thread.user.name
    sign_in(page, site, admin)
    page.get_by_role("link", name="Settings").click()
    card = page.locator("section").filter(has=page.get_by_role("heading", name="Threads"))
    row = card.locator(".thread").filter(has_text="kiosk")
    expect(row).to_contain_text(thread_name)
    expect(row).to_contain_text("2 memories")
    row.get_by_label("Merge kiosk into").select_option(person)
    card.screenshot(path=str(ARTIFACTS / "settings-threads.png"))
    page.set_viewport_size(PHONE)
    card.screenshot(path=str(ARTIFACTS / "phone-settings-threads.png"))
    row.get_by_role("button", name="Merge").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(f"become {person}'s")
    dialog.get_by_role("button", name="Merge").click()
    expect(card.get_by_role("status")).to_have_text(
        f"Moved 2 memories from {thread_name} to {person}; 1 older duplicate superseded."
    )
    expect(row).to_have_count(0)
    with Memory(site.settings, user=person) as memory:
        texts = [m.text for m in memory.list_memories()]
    assert sorted(texts) == [
        "User collects vintage postcards from Lisbon",
        "User's favourite tea is Earl Grey",
    ]


@needs_chromium
def test_phone_width_layout(phone: Page, site: Site) -> None:
    name = make_user(site)
    with Memory(site.settings, user=name) as memory:
        memory.remember("User's grandmother was born in Naples and makes excellent lasagna every Sunday")
    sign_in(phone, site, name)
    pages = {
        "My Memory": "memory",
        "Topics": "topics",
        "Chat": "chat",
        "Knowledge Base": "knowledge",
        "Settings": "settings",
    }
    for label, slug in pages.items():
        link = phone.get_by_role("navigation", name="Main").get_by_role("link", name=label)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (label, box)
        link.click()
        expect(phone.get_by_role("heading", name=label, level=1)).to_be_visible()
        phone.wait_for_load_state("networkidle")
        widths = phone.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1], f"{label} scrolls sideways: {widths}"
        shot(phone, f"phone-{slug}")
    phone.get_by_role("link", name="My Memory").click()
    expect(phone.locator(".stats .stat")).to_have_count(4)
    expect(phone.locator("#memory-panel .item")).to_have_count(1)
    for button in phone.locator("#memory-panel .item button").all():
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
    stats = phone.locator(".stats .stat").all()
    assert stats[0].bounding_box()["y"] < stats[1].bounding_box()["y"]  # type: ignore[index]  # stacked


@needs_chromium
def test_knowledge_base_scan_shows_live_progress(page: Page, site: Site) -> None:
    sign_in(page, site, make_user(site, admin=True))
    page.get_by_role("link", name="Knowledge Base").click()
    expect(page.get_by_text("No documents yet.")).to_be_visible()
    expect(page.get_by_text(str(site.documents))).to_be_visible()
    page.evaluate("window.__noReload = true")
    site.fake.set_mode("slow", path="/api/embed", delay=0.05)
    try:
        page.get_by_role("button", name="Scan for New Files").click()
        progress = page.locator(".scan-progress")
        expect(progress).to_be_visible()
        expect(progress).to_contain_text(re.compile(r"Indexing… [1-9]\d?% \(\d+ of 17 files\)"))
        expect(progress.locator("progress")).to_be_visible()
        expect(page.get_by_role("button", name="Scan for New Files")).to_be_disabled()
        shot(page, "knowledge-scanning")
        expect(progress).to_be_hidden(timeout=30_000)
    finally:
        site.fake.set_mode("ok", path="/api/embed")
    docs = page.locator(".docs .item")
    expect(docs).to_have_count(17)
    expect(page.locator(".stats")).to_contain_text("Documents17")
    garden = docs.filter(has_text="garden-00.md")
    expect(garden).to_contain_text(re.compile(r"\d+ chunks"))
    expect(garden).to_contain_text("Indexed:")
    expect(docs.filter(has_text="empty.md")).to_contain_text("Skipped: empty file")
    expect(docs.filter(has_text="broken.pdf")).to_contain_text("Skipped:")
    expect(page.locator("#toasts")).to_contain_text("Scan done: 15 indexed, 0 unchanged, 2 skipped.")
    assert page.evaluate("window.__noReload") is True
    garden.get_by_role("button", name="Re-index garden-00.md").click()
    expect(page.get_by_text("Re-indexed garden-00.md.")).to_be_visible()
    shot(page, "knowledge-done")


@needs_chromium
def test_knowledge_base_uploads_a_document_of_ones_own_labelled_mine(page: Page, site: Site) -> None:
    with Memory(site.settings) as memory:
        if not memory.documents.documents():  # run alone: the shared folder is not scanned yet
            memory.documents.scan()
    name = make_user(site)
    sign_in(page, site, name)
    page.get_by_role("link", name="Knowledge Base").click()
    docs = page.locator(".docs .item")
    expect(docs.filter(has_text="garden-00.md")).to_contain_text("(shared)")
    page.get_by_label("Upload a document").set_input_files(
        files=[
            {
                "name": "boat-notes.md",
                "mimeType": "text/markdown",
                "buffer": b"# Boat\n\nThe marina gate code for the blue kayak shed is 8812.\n",
            }
        ]
    )
    page.get_by_role("button", name="Upload", exact=True).click()
    expect(page.locator("#toasts")).to_contain_text("Uploaded boat-notes.md: 1 chunk.")
    mine = docs.filter(has_text="boat-notes.md")
    expect(mine).to_contain_text("(mine)")
    expect(mine).to_contain_text("Indexed:")
    expect(page.locator(".kb-quota")).to_contain_text(re.compile(r"Your documents use 1 KB of 50\.0 MB"))
    page.get_by_label("Search documents").fill("marina gate code kayak shed")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.locator(".kb-results")).to_contain_text("8812")
    shot(page, "knowledge-upload")
    # Another user sees the shared documents but not this one.
    with Memory(site.settings) as memory:
        other = memory.for_user(make_user(site))
        assert all("8812" not in hit.text for hit in other.search_documents("marina gate code kayak shed"))
        assert "boat-notes.md" not in {doc.file_name for doc in other.documents.documents(other.user.id)}  # type: ignore[union-attr]
    mine.get_by_role("button", name="Delete boat-notes.md").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(page.locator("#toasts")).to_contain_text("Deleted boat-notes.md.")
    expect(mine).to_have_count(0)


@needs_chromium
def test_settings_validation_and_live_change(page: Page, site: Site) -> None:
    # Not the hour the site starts with (12 hours from now, so that the nightly run stays away):
    # a value the same as the one in force is no change, and nothing would be written.
    new_hour = (site.settings.memory.decay.hour + 2) % 24
    sign_in(page, site, make_user(site, admin=True))
    page.get_by_role("link", name="Settings").click()
    decay = page.locator("form").filter(has=page.get_by_role("heading", name="Memory decay"))
    hour = decay.get_by_label("Run at hour")
    hour.fill("25")
    decay.get_by_role("button", name="Save").click()
    expect(decay.get_by_text("Must be at most 23.")).to_be_visible()
    expect(hour).to_have_attribute("aria-invalid", "true")
    expect(hour).to_be_focused()
    expect(decay.get_by_text("Please fix the marked fields.")).to_be_visible()
    shot(page, "settings-invalid")
    assert not [r for r in page.watch.requests if r.startswith("PUT ")]  # type: ignore[attr-defined]

    hour.fill(str(new_hour))
    decay.get_by_label("Forget facts below").fill("0.2")
    decay.get_by_role("button", name="Save").click()
    expect(decay.get_by_text(re.compile("Saved to .*reverie.toml. Applied now."))).to_be_visible()
    expect(hour).to_have_attribute("aria-invalid", "false")
    assert site.settings.memory.decay.hour == new_hour and site.settings.memory.decay.prune_threshold == 0.2
    saved = tomllib.loads((site.settings.home / "reverie.toml").read_text(encoding="utf-8"))
    assert saved["memory"]["decay"] == {"hour": new_hour, "prune_threshold": 0.2}

    embeddings = page.locator("form").filter(has=page.get_by_role("heading", name="Embeddings"))
    embeddings.get_by_label("Weights").fill("40")
    expect(embeddings.get_by_text("Keyword 40%")).to_be_visible()
    embeddings.get_by_label("Provider").select_option("local")
    embeddings.get_by_role("button", name="Save").click()
    expect(embeddings.get_by_text("Restart Reverie to apply: embeddings.provider.")).to_be_visible()
    assert site.settings.embeddings.hybrid.keyword_weight == 0.4
    assert site.settings.embeddings.provider == "ollama"  # waits for a restart
    shot(page, "settings-saved")
    page.reload()
    expect(page.get_by_text("Saved but waiting for a restart: embeddings.provider.")).to_be_visible()
    expect(
        page.locator("form")
        .filter(has=page.get_by_role("heading", name="Embeddings"))
        .get_by_label("Provider")
    ).to_have_value("local")


@needs_chromium
def test_embedding_settings_model_list_cache_switch_and_clear(page: Page, site: Site) -> None:
    with Memory(site.settings, user=make_user(site)) as memory:  # fills the embedding cache
        memory.remember("User keeps bees on the roof")
    sign_in(page, site, make_user(site, admin=True))
    page.get_by_role("link", name="Settings").click()
    embeddings = page.locator("form").filter(has=page.get_by_role("heading", name="Embeddings"))
    embeddings.get_by_label("Provider").select_option("ollama")
    model = embeddings.get_by_label("Model", exact=True)
    expect(model).to_have_js_property("tagName", "SELECT")  # read from Ollama's /api/tags
    expect(model.locator("option")).to_have_text(["fake-chat", "fake-embed"])
    expect(model).to_have_value("fake-embed")
    expect(embeddings.get_by_text("Models on the ollama server.")).to_be_visible()
    shot(page, "settings-embedding-models")

    endpoint = embeddings.get_by_label("Endpoint")
    endpoint.fill("http://127.0.0.1:9")  # nothing listens there: the name is typed instead
    endpoint.dispatch_event("change")
    expect(embeddings.get_by_label("Model", exact=True)).to_have_js_property("tagName", "INPUT")
    expect(embeddings.get_by_text(re.compile("Type the model's name.*Cannot reach Ollama"))).to_be_visible()
    endpoint.fill(site.fake.url)
    endpoint.dispatch_event("change")
    expect(embeddings.get_by_label("Model", exact=True)).to_have_js_property("tagName", "SELECT")

    switch = embeddings.get_by_label("Embedding cache")
    expect(switch).to_be_checked()
    switch.uncheck()
    embeddings.get_by_role("button", name="Save").click()
    expect(embeddings.get_by_text(re.compile("Applied now"))).to_be_visible()
    assert site.settings.embeddings.cache.enabled is False
    saved = tomllib.loads((site.settings.home / "reverie.toml").read_text(encoding="utf-8"))
    assert saved["embeddings"]["cache"] == {"enabled": False}
    switch.check()
    with page.expect_response(lambda answer: answer.request.method == "PUT"):
        embeddings.get_by_role("button", name="Save").click()
    assert site.settings.embeddings.cache.enabled is True

    info = embeddings.locator(".cache-info")
    expect(info).not_to_contain_text("Cache: 0 entries")
    embeddings.get_by_role("button", name="Clear cache").click()
    page.get_by_role("dialog").get_by_role("button", name="Clear cache").click()
    expect(info).to_contain_text("Cache: 0 entries, hit rate —")
    expect(page.get_by_text(re.compile(r"Cleared the cache: \d+ vectors? dropped"))).to_be_visible()
    with Memory(site.settings) as memory:
        assert memory.store.cache_stats()["entries"] == 0


@needs_chromium
def test_users_page_maps_voice_interfaces(page: Page, site: Site) -> None:
    alice, bob = make_user(site), make_user(site)
    sign_in(page, site, make_user(site, admin=True))
    page.get_by_role("link", name="Users").click()
    card = page.locator("section").filter(has=page.get_by_role("heading", name="Voice interfaces"))
    card.get_by_label("Voice interface").fill("porch")
    card.get_by_label("Speaks for").select_option(alice)
    card.get_by_role("button", name="Map").click()
    row = card.locator(".interface[data-interface=porch]")
    expect(row).to_contain_text(f"Memories are {alice}'s.")
    with Memory(site.settings) as memory:
        assert memory.for_interface("porch").user.name == alice  # type: ignore[union-attr]
    shot(page, "users-voice-interfaces")

    row.get_by_label("User of porch").select_option(bob)
    expect(row).to_contain_text(f"Memories are {bob}'s.")
    with Memory(site.settings) as memory:
        assert memory.for_interface("porch").user.name == bob  # type: ignore[union-attr]

    row.get_by_role("button", name="Unmap porch").click()
    expect(page.get_by_text("porch is a guest again.")).to_be_visible()
    expect(row).to_have_count(0)
    with Memory(site.settings) as memory:
        assert memory.for_interface("porch").is_guest


@needs_chromium
def test_users_page_names_who_else_may_speak_on_a_voice_interface(page: Page, site: Site) -> None:
    owner, other = make_user(site), make_user(site)
    sign_in(page, site, make_user(site, admin=True))
    page.get_by_role("link", name="Users").click()
    card = page.locator("section").filter(has=page.get_by_role("heading", name="Voice interfaces"))
    card.get_by_label("Voice interface").fill("hall")
    card.get_by_label("Speaks for").select_option(owner)
    card.get_by_role("button", name="Map").click()
    row = card.locator(".interface[data-interface=hall]")
    expect(row).to_contain_text(f"Memories are {owner}'s.")
    with Memory(site.settings) as memory:
        assert memory.for_speaker("hall", other.capitalize()) is None  # not one of the hall's speakers yet

    row.get_by_label(re.compile("Who else may say")).fill(f"{other}, ")
    row.get_by_role("button", name="Save speakers of hall").click()
    expect(page.get_by_text(f"On hall, {other} may also say who is speaking.")).to_be_visible()
    saved = tomllib.loads(site.settings.config_file.read_text(encoding="utf-8"))
    assert saved["memory"]["voice_speakers"]["hall"] == [other]
    with Memory(site.settings) as memory:  # in effect at once: "This is Other" on the hall switches
        speaker = memory.for_speaker("hall", other.capitalize())
        assert speaker is not None and speaker.user is not None and speaker.user.name == other

    page.reload()
    page.get_by_role("link", name="Users").click()
    expect(
        card.locator(".interface[data-interface=hall]").get_by_label(re.compile("Who else may say"))
    ).to_have_value(other)
    shot(page, "users-voice-speakers")

    row.get_by_label(re.compile("Who else may say")).fill("")
    row.get_by_role("button", name="Save speakers of hall").click()
    expect(page.get_by_text("On hall, only its own user speaks.")).to_be_visible()
    with Memory(site.settings) as memory:
        assert memory.for_speaker("hall", other.capitalize()) is None


@needs_chromium
def test_everything_works_with_the_network_cut_off(page: Page, site: Site) -> None:
    name = make_user(site)
    sign_in(page, site, name)
    page.get_by_label("Remember a fact").fill("User sings in a community choir")
    page.get_by_role("button", name="Remember").click()
    expect(page.locator("#memory-panel .item")).to_have_count(1)
    for label in ("Topics", "Chat", "Knowledge Base", "Settings", "My Memory"):
        page.get_by_role("link", name=label).click()
        expect(page.get_by_role("heading", name=label, level=1)).to_be_visible()
        page.wait_for_load_state("networkidle")
    fonts = page.evaluate("[...document.fonts].map(f => f.family)")
    assert fonts == []  # no web fonts at all: system fonts only
    sheets = page.evaluate("[...document.styleSheets].map(s => s.href)")
    assert sheets == [f"{site.url}/static/app.css"]
    watch = page.watch  # type: ignore[attr-defined]
    assert watch.outside == []
    assert all(r.split(" ", 1)[1].startswith(site.url + "/") for r in watch.requests), watch.requests
    with page.expect_download() as download:
        page.get_by_role("button", name=name.capitalize()).click()
        page.get_by_role("link", name="Export my memories (JSON)").click()
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    assert '"User sings in a community choir"' in exported


# the routes the UI uses (no browser needed) -------------------------------------------------
@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_auth_status_is_public_and_says_whether_setup_is_needed(
    client: TestClient, settings: Settings
) -> None:
    assert client.get("/api/v1/auth/status").json() == {
        "setup_needed": True,
        "setup_here": True,
        "signed_in": False,
    }
    headers = auth_headers(settings, "admin", admin=True)
    assert client.get("/api/v1/auth/status", headers=headers).json()["signed_in"] is True
    assert client.get("/api/v1/auth/status").json()["setup_needed"] is False
    bad = client.get("/api/v1/auth/status", headers={"Authorization": "Bearer rv_nope"})
    assert bad.status_code == 200 and bad.json()["signed_in"] is False


def test_page_and_assets_have_strict_headers(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert '<script type="module" src="/static/app.js">' in page.text
    script = client.get("/static/app.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert (
        script.headers["cache-control"] == "no-cache"
        and script.headers["x-content-type-options"] == "nosniff"
    )
    again = client.get("/static/app.js", headers={"If-None-Match": script.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    for path in (
        "/static/../ui.py",
        "/static/%2e%2e/ui.py",
        "/static/nothing.js",
        "/static/",
    ):
        assert client.get(path).status_code == 404, path
    assert client.get("/static/a%00.js").status_code == 422  # a NUL in a path is refused everywhere
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
        assert client.get(asset).status_code == 200, asset


def test_summaries_list_and_delete(client: TestClient, settings: Settings, clock: Clock) -> None:
    headers = auth_headers(settings, "sam")
    with Memory(settings, user="sam", clock=clock) as memory:
        for i in range(3):
            memory.add_summary(f"Talked about the garden, part {i}", topics=["garden"])
            clock.advance(60)
    first = client.get("/api/v1/summaries?limit=2", headers=headers).json()
    assert first["total"] == 3 and [s["text"][-1] for s in first["summaries"]] == ["2", "1"]
    rest = client.get("/api/v1/summaries?limit=2&offset=2", headers=headers).json()
    assert [s["text"][-1] for s in rest["summaries"]] == ["0"]
    gone = first["summaries"][0]
    deleted = client.delete(f"/api/v1/summaries/{gone['id']}", headers=headers)
    assert deleted.status_code == 200 and deleted.json()["text"] == gone["text"]
    assert client.delete(f"/api/v1/summaries/{gone['id']}", headers=headers).status_code == 404
    other = auth_headers(settings, "tom")
    assert client.delete(f"/api/v1/summaries/{rest['summaries'][0]['id']}", headers=other).status_code == 404
    assert client.get("/api/v1/summaries", headers=headers).json()["total"] == 2


def test_charts_data(client: TestClient, settings: Settings) -> None:
    headers = auth_headers(settings, "cat")
    assert client.get("/api/v1/stats/charts", headers=headers).json() == {
        "bucket": "day",
        "timeline": [],
        "confidence": [
            {"low": i / 10, "high": (i + 1) / 10, "facts": 0, "preferences": 0} for i in range(10)
        ],
        "total": 0,
    }
    now = time.time()
    clock = Clock(now - 100 * 86400)
    with Memory(settings, user="cat", clock=clock) as memory:
        memory.remember("User owns a tabby cat called Miso", confidence=0.3)
        clock.now = now
        memory.remember("User works night shifts at the hospital")
        memory.prefer("units", "metric", source="inferred", confidence=0.55)
    data = client.get("/api/v1/stats/charts", headers=headers).json()
    assert data["bucket"] == "week" and data["total"] == 3
    timeline = data["timeline"]
    assert (timeline[0]["total"], timeline[1]["total"], timeline[-1]["total"]) == (0, 1, 3)
    assert timeline[-1]["facts"] == 1 and timeline[-1]["preferences"] == 1
    assert 14 <= len(timeline) <= 17
    bins = {b["low"]: (b["facts"], b["preferences"]) for b in data["confidence"]}
    assert bins[0.3] == (1, 0) and bins[0.5] == (0, 1) and bins[0.9] == (1, 0)


def test_charts_count_every_page_of_memories(client: TestClient, settings: Settings) -> None:
    from reverie.server.ui_api import _PAGE

    headers = auth_headers(settings, "dot")
    day = 86400.0
    start = time.time() - 9 * day
    rows = [  # one more than a page, spread over ten days, confidences 0.05 apart
        {
            "id": i + 1,
            "kind": "fact",
            "type": "general",
            "key": None,
            "text": f"User visited place {i} {'abcdefghij'[i % 10]}{'klmnopqrst'[i // 10 % 10]}{i // 100}",
            "source": "explicit",
            "confidence": 0.05 + (i % 19) * 0.05,
            "status": "active",
            "superseded_by": None,
            "created_at": datetime.fromtimestamp(start + (i % 10) * day, UTC).isoformat(),
            "updated_at": datetime.fromtimestamp(start + (i % 10) * day, UTC).isoformat(),
            "last_accessed": None,
            "access_count": 0,
            "reinforcement_count": 1,
            "sensitive": False,
        }
        for i in range(_PAGE + 1)
    ]
    document = {"format": "reverie-export", "version": 1, "user": "dot", "memories": rows, "summaries": []}
    loaded = client.post("/api/v1/import", json=document | {"base_memory": None}, headers=headers)
    assert loaded.status_code == 200 and loaded.json()["memories"] == _PAGE + 1, loaded.text
    data = client.get("/api/v1/stats/charts", headers=headers).json()
    assert data["total"] == _PAGE + 1 and data["bucket"] == "day"
    assert data["timeline"][-1]["total"] == _PAGE + 1
    assert [point["facts"] for point in data["timeline"][1:]] == [
        sum(1 for i in range(_PAGE + 1) if i % 10 == d) for d in range(10)
    ]
    assert sum(b["facts"] for b in data["confidence"]) == _PAGE + 1


def test_settings_are_validated_per_field_saved_and_applied(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = home / "reverie.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '# mine\n[memory.decay]\nhour = 2  # at night\n\n[llm]\nprovider = "none"\n', encoding="utf-8"
    )
    # The server reads its settings from that file alone (the shared fixture pins the hour).
    settings = load_settings(home=home, environ={"REVERIE_MEMORY__TIMEZONE": "UTC"})
    with TestClient(create_app(settings)) as client:
        _settings_validated_saved_and_applied(client, settings, path)


def _settings_validated_saved_and_applied(client: TestClient, settings: Settings, path: Path) -> None:
    admin = auth_headers(settings, "root", admin=True)
    user = auth_headers(settings, "pat")
    assert client.get("/api/v1/settings", headers=user).status_code == 403
    current = client.get("/api/v1/settings", headers=admin).json()
    assert current["values"]["memory.decay.hour"] == 2 and current["config_path"] == str(path)
    fields = {f["key"]: f for f in current["fields"]}
    assert (fields["memory.decay.hour"]["minimum"], fields["memory.decay.hour"]["maximum"]) == (0, 23)
    assert "local" in fields["embeddings.provider"]["choices"]
    assert fields["memory.decay.hour"]["live"] and not fields["embeddings.provider"]["live"]

    bad = client.put(
        "/api/v1/settings",
        headers=admin,
        json={
            "memory.decay.hour": 25,
            "embeddings.hybrid.keyword_weight": "lots",
            "memory.decay.explicit_weekly": 0,
        },
    )
    assert bad.status_code == 422 and bad.json()["error"] == "invalid_input"
    problems = bad.json()["fields"]
    assert set(problems) == {
        "memory.decay.hour",
        "embeddings.hybrid.keyword_weight",
        "memory.decay.explicit_weekly",
    }
    assert "less than or equal to 23" in problems["memory.decay.hour"]
    assert "memory.decay.hour" in bad.json()["detail"]
    unknown = client.put(
        "/api/v1/settings", headers=admin, json={"server.port": 1, "embeddings.provider": "nope"}
    )
    assert unknown.status_code == 422 and unknown.json()["fields"] == {
        "server.port": "not an editable setting"
    }
    provider = client.put("/api/v1/settings", headers=admin, json={"embeddings.provider": "nope"})
    assert "unknown provider 'nope'" in provider.json()["fields"]["embeddings.provider"]
    assert path.read_text(encoding="utf-8").count("hour = 2  # at night") == 1  # nothing was saved

    good = client.put(
        "/api/v1/settings",
        headers=admin,
        json={
            "memory.decay.hour": 5,
            "embeddings.hybrid.vector_weight": 0.6,
            "memory.extraction.provider": "ollama",
        },
    )
    assert good.status_code == 200, good.text
    answer = good.json()
    assert sorted(answer["applied"]) == ["embeddings.hybrid.vector_weight", "memory.decay.hour"]
    assert answer["restart_required"] == ["memory.extraction.provider"]
    assert answer["values"]["memory.extraction.provider"] == "ollama"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# mine\n") and "hour = 5  # at night" in text
    assert tomllib.loads(text) == {
        "memory": {"decay": {"hour": 5}, "extraction": {"provider": "ollama"}},
        "llm": {"provider": "none"},
        "embeddings": {"hybrid": {"vector_weight": 0.6}},
    }
    root = client.app.state.memory  # type: ignore[attr-defined]
    assert root.settings.memory.decay.hour == 5 and root.settings.memory.extraction.provider == ""
    assert root.semantic is not None and root.semantic.vector_weight == 0.6
    assert load_settings(home=settings.home).memory.decay.hour == 5
    same = client.put("/api/v1/settings", headers=admin, json={"memory.decay.hour": 5}).json()
    assert same["changed"] == [] and same["restart_required"] == ["memory.extraction.provider"]


def test_config_file_edits_keep_comments_or_rewrite_the_whole_file() -> None:
    kept = patched_toml(
        '# top\n[memory.decay]\nhour = 2 # night\n\n[llm]\nmodel = "a#b"\n', {"memory.decay.hour": 3}
    )
    assert kept == '# top\n[memory.decay]\nhour = 3 # night\n\n[llm]\nmodel = "a#b"\n'
    added = patched_toml(
        "[memory]\ncontext_budget_tokens = 900\n", {"memory.decay.hour": 3, "memory.enabled": True}
    )
    assert tomllib.loads(added) == {
        "memory": {"context_budget_tokens": 900, "enabled": True, "decay": {"hour": 3}}
    }
    dotted = "when = 1979-05-27T07:32:00Z\n[memory]\ndecay.hour = 1  # dotted keys are rewritten whole\n"
    rewritten = tomllib.loads(patched_toml(dotted, {"memory.decay.hour": 4, "embeddings.model": 'say "hi"'}))
    assert rewritten["memory"] == {"decay": {"hour": 4}} and rewritten["embeddings"] == {"model": 'say "hi"'}
    assert rewritten["when"].year == 1979


@needs_chromium
def test_a_secret_is_kept_only_when_keep_as_sensitive_is_ticked(page: Page, site: Site) -> None:
    sign_in(page, site, make_user(site))
    page.get_by_label("Remember a fact").fill("Garage door code is 4821")
    page.get_by_role("button", name="Remember").click()
    expect(page.locator("#toasts")).to_contain_text("ask to keep it as sensitive")
    expect(page.get_by_label("Remember a fact")).to_have_value("Garage door code is 4821")
    errors = page.watch.errors  # type: ignore[attr-defined]
    assert [e for e in errors if "422" in e] and all("422" in e for e in errors), errors
    errors.clear()  # the browser logs the refusal (422) the page just showed
    page.get_by_label("Keep as sensitive").check()
    page.get_by_role("button", name="Remember").click()
    expect(page.locator("#memory-panel .item")).to_have_count(1)
    expect(page.get_by_label("Keep as sensitive")).not_to_be_checked()
