"""Topics (Rostro) end to end: files made by digestion, detection, hand edits, splits, the index."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from reverie import Memory, load_settings
from reverie.cli import cli
from reverie.extract.conclusions import extract_conclusions, name_topic
from reverie.server import create_app
from reverie.topics import MalformedTopic, TopicBook, TopicLine, parse_topic, render_topic, slugify
from tests.apiauth import auth_headers
from tests.conftest import Clock
from tests.fakeserver import FakeModelServer, fake_server  # noqa: F401  (fixture)

MINUTE = 60.0
PAELLA = [
    ("user", "I'm making paella for eight people on Saturday."),
    ("assistant", "Bomba rice absorbs more broth without going mushy."),
    ("user", "Yes, exactly. I decided to use bomba rice for paella from now on."),
    ("assistant", "Good choice. What broth will you use?"),
    ("user", "It turns out homemade chicken broth tastes much better than stock cubes."),
    ("assistant", "It really does."),
    ("user", "I will never stir the rice once the broth is in."),
]


def _talk(memory: Memory, turns: list[tuple[str, str]], clock: Clock) -> int:
    conv = memory.start_conversation("kitchen")
    for role, text in turns:
        memory.add_message(conv, role, text)
        clock.advance(10)
    memory.background.wait(10)
    memory.end_conversation(conv.id)
    return conv.id


def _consolidate(memory: Memory) -> None:
    results = memory.consolidator().run_pending()
    assert results and all(r.state == "done" for r in results), results
    memory.background.wait(30)


def _topic_lines(path: Path) -> list[str]:
    return [line.text for line in parse_topic(path.read_text(encoding="utf-8"))[1]]


@pytest.fixture
def llm_memory(tmp_path: Path, fake_server: FakeModelServer, clock: Clock) -> Iterator[Memory]:  # noqa: F811
    settings = load_settings(
        home=tmp_path / "llm-home",
        environ={
            "REVERIE_MEMORY__TIMEZONE": "UTC",
            "REVERIE_MEMORY__EXTRACTION__PROVIDER": "ollama",
            "REVERIE_MEMORY__EXTRACTION__ENDPOINT": fake_server.url,
            "REVERIE_MEMORY__EXTRACTION__MODEL": "qwen2.5:7b",
            "REVERIE_MEMORY__EXTRACTION__MAX_ATTEMPTS": "1",
        },
    )
    memory = Memory(settings, clock=clock)
    yield memory
    memory.close()


def test_rules_find_conclusions_and_name_the_topic() -> None:
    found = extract_conclusions(PAELLA)
    assert found == [
        "User confirmed: Bomba rice absorbs more broth without going mushy",
        "User decided to use bomba rice for paella from now on",
        "User found that homemade chicken broth tastes much better than stock cubes",
        "User will never stir the rice once the broth is in",
    ]
    assert name_topic(found) == "cooking"
    assert (
        extract_conclusions([("user", "Should I use bomba rice?"), ("user", "Maybe I will add saffron.")])
        == []
    )


def test_a_paella_conversation_without_an_llm_creates_cooking_md(memory: Memory, clock: Clock) -> None:
    conv_id = _talk(memory, PAELLA, clock)
    _consolidate(memory)
    path = memory.topics.folder / "cooking.md"
    assert path.is_file()
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Cooking\n\n- ")
    assert re.search(r"- User decided to use bomba rice for paella from now on \(2026-01-15\)", text)
    assert len(_topic_lines(path)) == 4
    assert memory.store.scope(memory.user.id).conversation_topic(conv_id) == "cooking"  # type: ignore[union-attr]
    found = memory.search("stock cubes broth")
    assert any("stock cubes" in hit.memory.text for hit in found.facts), "conclusions are memories too"
    index_line = "just now: cooking — User is making paella for eight people on Saturday"
    assert memory.topics.recent() == [index_line]
    assert (memory.topics.folder / "index.txt").read_text().count("|cooking|") == 1


def test_a_later_conversation_is_detected_and_appends_to_the_topic(memory: Memory, clock: Clock) -> None:
    _talk(memory, PAELLA, clock)
    _consolidate(memory)
    clock.advance(3600)
    conv = memory.start_conversation("kitchen")
    memory.add_message(conv, "user", "How long should the paella rest after cooking the rice in broth?")
    memory.background.wait(10)
    scope = memory.store.scope(memory.user.id)  # type: ignore[union-attr]
    assert scope.conversation_topic(conv.id) == "cooking", "detected by meaning without an LLM"
    block = memory.context("How long should it rest?", conversation_id=conv.id)
    assert "Current topic — Cooking:" in block.text and "bomba rice" in block.text
    assert "Recent topics:" not in block.text
    memory.add_message(conv, "assistant", "About five minutes, covered with a towel.")
    memory.add_message(conv, "user", "Okay, I decided to rest the paella for five minutes under a towel.")
    memory.end_conversation(conv.id)
    _consolidate(memory)
    lines = _topic_lines(memory.topics.folder / "cooking.md")
    assert lines[-1] == "User decided to rest the paella for five minutes under a towel"
    assert len(lines) == 5 and len(set(lines)) == 5


def test_few_conclusions_without_a_topic_stay_in_general_memory(memory: Memory, clock: Clock) -> None:
    _talk(memory, [("user", "I decided to repaint the fence in spring.")], clock)
    _consolidate(memory)
    assert not list(memory.topics.folder.glob("*.md"))
    assert [hit.memory.text for hit in memory.search("repaint fence").facts] == [
        "User decided to repaint the fence in spring"
    ]
    assert memory.topics.recent()[0].endswith("(no topic)") or "(no topic)" in memory.topics.recent()[0]


def test_with_the_llm_digestion_detection_and_split(
    llm_memory: Memory,
    fake_server: FakeModelServer,  # noqa: F811
    clock: Clock,
) -> None:
    extraction = {
        "facts": [],
        "summary": "Planned a paella for Saturday. Chose the rice.",
        "topics": ["paella"],
        "conclusions": [
            "User prefers bomba rice for paella",
            "User uses homemade chicken broth, never stock cubes",
            "User never stirs paella once the broth is in",
        ],
        "topic": "cooking",
    }
    fake_server.script_chat([json.dumps(extraction)])
    _talk(llm_memory, PAELLA, clock)
    _consolidate(llm_memory)
    cooking = llm_memory.topics.folder / "cooking.md"
    assert _topic_lines(cooking) == extraction["conclusions"]
    assert llm_memory.topics.recent()[0].endswith("cooking — Planned a paella for Saturday")

    clock.advance(86_400)
    fake_server.script_chat(
        [
            json.dumps({"topic": "cooking"}),
            json.dumps(
                {"summary": "Baking.", "conclusions": ["User bakes bread at 250 degrees"], "topic": None}
            ),
        ]
    )
    conv_id = _talk(
        llm_memory, [("user", "What oven temperature for my bread?"), ("assistant", "250.")], clock
    )
    scope = llm_memory.store.scope(llm_memory.user.id)  # type: ignore[union-attr]
    assert scope.conversation_topic(conv_id) == "cooking"
    detect_call = fake_server.requests[-1].body
    assert "cooking" in json.dumps(detect_call) and "What oven temperature" in json.dumps(detect_call)
    _consolidate(llm_memory)
    assert _topic_lines(cooking)[-1] == "User bakes bread at 250 degrees"

    # 51 lines: the LLM proposes groups, misses line 51 and repeats line 2; nothing is lost or doubled.
    lines = [f"User noted cooking tip number {n}" for n in range(1, 52)]
    cooking.write_text(render_topic("Cooking", [TopicLine(text, "2026-01-15") for text in lines]))
    llm_memory.topics.sync()
    proposal = {
        "subtopics": [
            {"name": "rice", "lines": list(range(1, 26))},
            {"name": "baking", "lines": [2, *range(26, 51)]},
        ]
    }
    fake_server.script_chat([json.dumps(proposal)])
    made = llm_memory.topics.split("cooking")
    assert set(made) == {"cooking-rice", "cooking-baking", "cooking-general"}
    assert not cooking.exists()
    collected = [line for slug in made for line in _topic_lines(llm_memory.topics.folder / f"{slug}.md")]
    assert sorted(collected) == sorted(lines), "every line exactly once"
    assert llm_memory.topics.recent()[0].split(": ", 1)[1].startswith("cooking-")


def test_auto_split_by_meaning_without_an_llm_keeps_every_line_once(memory: Memory, clock: Clock) -> None:
    rice = [f"User cooks rice dish number {n} with saffron and broth" for n in range(26)]
    garden = [f"User waters tomato plant bed {n} in the garden early" for n in range(25)]
    folder = memory.topics.folder
    folder.mkdir(parents=True)
    start = rice[:2] + garden[:1]
    (folder / "cooking.md").write_text(render_topic("Cooking", [TopicLine(text) for text in start]))
    memory.topics.sync()
    conv = memory.start_conversation("kitchen")
    memory.store.scope(memory.user.id).set_conversation_topic(conv.id, "cooking")  # type: ignore[union-attr]
    memory.end_conversation(conv.id)
    rows = [memory.remember(text).memory for text in rice[2:] + garden[1:]]
    TopicBook(memory).digest(conv.id, rows, suggested="", summary="", at=clock())
    memory.background.wait(60)
    made = sorted(p.stem for p in folder.glob("*.md"))
    assert "cooking" not in made and len(made) == 2
    collected = [line for slug in made for line in _topic_lines(folder / f"{slug}.md")]
    assert sorted(collected) == sorted(rice + garden)
    groups = [set(_topic_lines(folder / f"{slug}.md")) for slug in made]
    assert set(rice) in groups and set(garden) in groups, "clusters follow meaning"


def test_a_hand_edit_shows_in_search_and_a_broken_file_is_reported_not_lost(
    memory: Memory, clock: Clock
) -> None:
    _talk(memory, PAELLA, clock)
    _consolidate(memory)
    path = memory.topics.folder / "cooking.md"
    edited = path.read_text().replace("bomba rice for paella", "arborio rice for risotto")
    path.write_text(edited + "- User keeps saffron in the freezer (2026-01-16)\n")
    assert any("arborio" in hit.memory.text for hit in memory.search("arborio risotto").facts)
    assert not any("bomba" in hit.memory.text for hit in memory.search("bomba").facts)
    assert any("saffron" in hit.memory.text for hit in memory.search("saffron freezer").facts)

    broken = "no title here\n- half a line"
    path.write_text(broken)
    topics = memory.topics.topics()
    assert topics[0].error.startswith("line 1") and topics[0].line_count == 5
    assert path.read_text() == broken, "the file is left as the person wrote it"
    assert any("saffron" in hit.memory.text for hit in memory.search("saffron freezer").facts), (
        "memories kept"
    )
    with pytest.raises(MalformedTopic):
        memory.topics.read("cooking")


def test_the_index_keeps_twenty_entries_with_relative_times(memory: Memory, clock: Clock) -> None:
    for n in range(22):
        _talk(memory, [("user", f"Let's talk about the garden bed number {n}.")], clock)
        _consolidate(memory)
        clock.advance(6 * 3600)
    recent = memory.topics.recent()
    assert len(recent) == 20
    assert recent[0].startswith("6 hours ago: (no topic) — "), recent[0]
    assert "garden bed number 21" in recent[0] and "garden bed number 2" in recent[-1]
    assert recent[-1].startswith("5 days ago"), recent[-1]
    block = memory.context("hello")
    assert "Recent topics:" in block.text and block.tokens <= block.budget
    assert len((memory.topics.folder / "index.txt").read_text().splitlines()) == 20


def test_private_conversations_make_no_topics(memory: Memory, clock: Clock) -> None:
    conv = memory.start_conversation("kitchen", private=True)
    for role, text in PAELLA:
        memory.add_message(conv, role, text)
    memory.end_conversation(conv.id)
    memory.consolidator().run_pending()
    assert not memory.topics.folder.exists() or not list(memory.topics.folder.glob("*.md"))


def test_cli_and_http(memory: Memory, clock: Clock, tmp_path: Path) -> None:
    _talk(memory, PAELLA, clock)
    _consolidate(memory)
    settings = memory.settings
    runner = CliRunner()
    home = ["--home", str(settings.home)]
    listed = runner.invoke(cli, [*home, "topics", "list"], env={"TZ": "UTC"})
    assert listed.exit_code == 0 and "cooking  Cooking  (4 lines)" in listed.output
    shown = runner.invoke(cli, [*home, "topics", "show", "cooking"])
    assert shown.output.startswith("# Cooking")
    missing = runner.invoke(cli, [*home, "topics", "show", "travel"])
    assert missing.exit_code == 1 and "No topic" in missing.output
    with TestClient(create_app(settings, clock=clock), headers=auth_headers(settings)) as client:
        body = client.get("/api/v1/topics").json()
        assert body["topics"][0]["slug"] == "cooking" and body["recent"]
        detail = client.get("/api/v1/topics/cooking").json()
        assert (
            detail["title"] == "Cooking"
            and len(detail["lines"]) == 4
            and detail["lines"][0]["date"] == "2026-01-15"
        )
        assert client.post("/api/v1/topics/cooking/split").status_code == 200
        assert client.get("/api/v1/topics/cooking").status_code == 404
        other = client.get("/api/v1/topics", headers=auth_headers(settings, "bob")).json()
        assert other["topics"] == [], "topics are per user"


def test_conclusions_are_filed_under_the_topic_they_are_about_not_the_sessions(
    memory: Memory, clock: Clock
) -> None:
    folder = memory.topics.folder
    folder.mkdir(parents=True)
    seeds = {
        "cooking": ("Cooking", ["User makes chicken broth from scratch", "User bakes bread on Saturdays"]),
        "home-automation": (
            "Home automation",
            [
                "User set the hallway lights to turn on at sunset",
                "User's thermostat lowers the heating at night",
            ],
        ),
        "car": ("Car", ["User's car needs new winter tyres", "User changes the engine oil every spring"]),
    }
    for slug, (title, lines) in seeds.items():
        (folder / f"{slug}.md").write_text(render_topic(title, [TopicLine(text) for text in lines]))
    memory.topics.sync()
    conv = memory.start_conversation("kitchen")
    memory.store.scope(memory.user.id).set_conversation_topic(conv.id, "cooking")  # type: ignore[union-attr]
    lamp = "User decided the living room lamps should dim automatically at 11 pm"
    bread = "User will bake the rye bread at a higher oven temperature"
    rows = [memory.remember(text).memory for text in (lamp, bread)]
    slug = TopicBook(memory).digest(conv.id, rows, suggested="", summary="", at=clock())
    assert slug == "cooking"  # the session stays indexed under its own topic
    assert lamp in _topic_lines(folder / "home-automation.md")
    assert bread in _topic_lines(folder / "cooking.md")
    assert lamp not in _topic_lines(folder / "cooking.md")
    assert sorted(p.stem for p in folder.glob("*.md")) == ["car", "cooking", "home-automation"]


def test_a_decision_whose_reason_names_the_sessions_topic_goes_to_the_topic_it_settles(
    memory: Memory, clock: Clock
) -> None:
    """Said in a photography talk, servicing the bike before riding to a photo walk is cycling."""
    folder = memory.topics.folder
    folder.mkdir(parents=True)
    seeds = {
        "Cycling": [
            "User commutes to work by bike three days a week",
            "User replaced the chain on the road bike",
        ],
        "Photography": [
            "User shoots landscapes with a mirrorless camera",
            "User edits photos on Sunday evenings",
        ],
        "Aquarium": [
            "User keeps neon tetras in a planted tank",
            "User changes a quarter of the tank water weekly",
        ],
        "Pottery": [
            "User takes a wheel-throwing class on Wednesdays",
            "User is glazing a set of mugs for friends",
        ],
    }
    for title, lines in seeds.items():
        (folder / f"{slugify(title)}.md").write_text(render_topic(title, [TopicLine(text) for text in lines]))
    memory.topics.sync()
    said = [
        ("photography", "User will service the bike's gears and brakes before riding to the photo walk"),
        ("aquarium", "User will glaze the mugs in a blue that matches the tetras"),
        ("cycling", "User decided the tetras need a darker gravel bed and a few floating plants"),
    ]
    scope = memory.store.scope(memory.user.id)  # type: ignore[union-attr]
    for session, text in said:
        conv = memory.start_conversation("talk")
        scope.set_conversation_topic(conv.id, session)
        row = memory.remember(text).memory
        assert TopicBook(memory).digest(conv.id, [row], suggested="", summary="", at=clock()) == session
    assert said[0][1] in _topic_lines(folder / "cycling.md")
    assert said[1][1] in _topic_lines(folder / "pottery.md")
    assert said[2][1] in _topic_lines(folder / "aquarium.md")


def _topics_bench() -> ModuleType:
    """Load bench/topics_bench.py, whose run() digests a labelled corpus one session at a time."""
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("topics_bench", root / "bench" / "topics_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_conclusions_land_in_their_topic_on_the_labelled_sets() -> None:
    """Floors at the measured figures (bench/topics_bench.py): a change that files worse fails."""
    bench = _topics_bench()
    data = Path(__file__).resolve().parent / "data"
    floors = {
        "topic_conclusions.jsonl": {"dev": 0.88, "heldout": 0.94},
        # corpora 6 and 7 were written blind; both were read while choosing the weights, which
        # bench/topics_bench.py --cv chooses on two corpora and scores on the third, in turn
        "topic_conclusions_6.jsonl": {"heldout6": 0.74},
        "topic_conclusions_7.jsonl": {"heldout7": 0.78},
    }
    for name, splits in floors.items():
        results = bench.run(data / name, embeddings=True)
        for split, floor in splits.items():
            chosen = [(item, landed) for item, landed in results if item["split"] == split]
            right = sum(slugify(item["topic"]) == landed for item, landed in chosen)
            assert len(chosen) >= 35
            assert right / len(chosen) >= floor, f"{name} {split}: {right}/{len(chosen)}"
