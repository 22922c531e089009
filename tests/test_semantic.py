"""Semantic memory with the local MiniLM model: hybrid search, vectors, near-duplicates, episodes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import VARIED_FACTS, Clock

from reverie import InvalidInput, Memory, Turn, load_settings
from reverie.cli import cli
from reverie.embed.service import to_blob
from reverie.retrieve.timeexpr import find_time_window

DAY = 86400.0


def _ts(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def test_meaning_finds_what_keywords_miss(memory: Memory) -> None:
    memory.remember("My pet Bruno is a golden retriever")
    memory.remember("User is allergic to shellfish")
    for fact in VARIED_FACTS[:10]:
        memory.remember(fact)
    assert memory.search("dog's name").facts[0].memory.text == "User's pet Bruno is a golden retriever"
    assert memory.search("allergies").facts[0].memory.text == "User is allergic to shellfish"


def test_cli_search_by_meaning(tmp_path: Path) -> None:
    runner = CliRunner()
    home = str(tmp_path / "h")
    runner.invoke(cli, ["--home", home, "remember", "My pet Bruno is a golden retriever"])
    runner.invoke(cli, ["--home", home, "remember", "User is allergic to shellfish"])
    out = runner.invoke(cli, ["--home", home, "search", "dog's name"]).output
    assert out.splitlines()[0].startswith("#1 User's pet Bruno")  # kept in the third person
    assert "shellfish" in runner.invoke(cli, ["--home", home, "search", "allergies"]).output.splitlines()[0]


def test_keyword_only_when_embeddings_are_off(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(home=tmp_path / "h", environ={"REVERIE_EMBEDDINGS__ENABLED": "false"})
    with Memory(settings, clock=clock) as mem:
        mem.remember("My pet Bruno is a golden retriever")
        assert mem.search("dog's name").facts == []
        assert mem.search("bruno").facts
        assert mem.embeddings is None


def test_vectors_follow_rows(memory: Memory) -> None:
    service = memory.embeddings
    assert service is not None
    scope = memory.scope
    row = memory.remember("User keeps bees in the back garden").memory
    assert scope.count_vectors("memory", service.model_id) == (1, 1)
    memory.edit(row.id, "User keeps chickens in the back garden")
    assert scope.count_vectors("memory", service.model_id) == (1, 1)
    assert memory.search("poultry").facts[0].memory.id == row.id
    memory.delete(row.id)
    assert scope.count_vectors("memory", service.model_id) == (0, 0)
    memory.add_summary("Discussed the vegetable patch.")
    assert scope.count_vectors("summary", service.model_id) == (1, 1)
    memory.forget_all("DELETE")
    assert scope.count_vectors("summary", service.model_id) == (0, 0)


def test_other_models_vectors_are_never_compared(memory: Memory) -> None:
    row = memory.remember("User restores old motorcycles").memory
    service = memory.embeddings
    assert service is not None
    other = memory.remember("User sings in a community choir").memory
    # A vector of another model sits beside this model's: search must not look at it.
    memory.scope.put_vectors(
        "memory",
        [(other.id, to_blob(service.embed_one("motorbike repair")))],
        "some-other-model",
        service.dimensions,
    )
    hits = memory.semantic.index.search(
        memory.scope,
        "memory",
        service.model_id,  # type: ignore[union-attr]
        service.embed_one("motorbike repair"),
        k=5,
    )
    assert [item_id for item_id, _ in hits] == [row.id]
    assert memory.reindex() == {"memory": 1, "summary": 0, "message": 0, "message_window": 0}
    assert memory.scope.count_vectors("memory", service.model_id) == (2, 2)


def test_near_duplicate_supersedes_with_audit(memory: Memory) -> None:
    old = memory.remember("User drinks two cups of coffee every morning").memory
    new = memory.remember("User drinks three cups of coffee every morning")
    assert new.status == "superseded" and new.replaced[0].id == old.id
    assert memory.get(old.id).status == "superseded"
    audit = memory.scope.list_audit()[0]
    assert audit.action == "supersede" and audit.reason == "a newer value of the same attribute"
    assert [h.memory.id for h in memory.search("coffee").facts] == [new.memory.id]


def test_moving_replaces_home_city(memory: Memory) -> None:
    memory.remember("User lives in Portland")
    moved = memory.observe("remember that I moved to Seattle")
    assert moved.action == "updated"
    assert [m.text for m in memory.list_memories(kind="fact")] == ["User moved to Seattle"]
    assert memory.list_memories(status="superseded")[0].text == "User lives in Portland"
    # A relative's city is not the user's and keeps no key.
    memory.remember("User's sister lives in Boston")
    assert memory.count(kind="fact") == 2


def test_context_retrieves_and_accumulates_relevant_facts(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(
        home=tmp_path / "h",
        environ={"REVERIE_MEMORY__CONTEXT_MAX_FACTS": "2", "REVERIE_MEMORY__CONTEXT_BUDGET_TOKENS": "800"},
    )
    with Memory(settings, clock=clock) as mem:
        for fact in VARIED_FACTS:
            mem.remember(fact)
        conv = mem.start_conversation("chat")
        first = mem.context("Can you suggest a seafood recipe for dinner?", conversation_id=conv.id)
        assert "allergic to shellfish" in first.text
        second = mem.context("Any tips for my marathon training?", conversation_id=conv.id)
        assert "Berlin marathon" in second.text
        assert "allergic to shellfish" in second.text  # still there from the earlier turn
        fresh = mem.start_conversation("chat")
        assert (
            "allergic to shellfish" not in mem.context("Tips for marathons?", conversation_id=fresh.id).text
        )
        with pytest.raises(Exception, match="No conversation"):
            mem.context("hi", conversation_id=9999)


def _household(memory: Memory) -> None:
    conv = memory.start_conversation("kitchen", at=_ts("2026-01-08T18:00:00"))  # a Thursday
    memory.add_message(
        conv,
        "user",
        "We should repaint the hallway green",
        at=_ts("2026-01-08T18:00:00"),
        speaker="Ana",
        ref="D1:1",
    )
    memory.add_message(conv, "assistant", "Green would suit the hallway.", at=_ts("2026-01-08T18:00:05"))
    memory.add_message(
        conv,
        "user",
        "I booked the dentist for my son",
        at=_ts("2026-01-08T18:01:00"),
        speaker="Ben",
        ref="D1:3",
    )
    later = memory.start_conversation("kitchen", at=_ts("2026-01-13T09:00:00"))
    memory.add_message(
        later,
        "user",
        "The painter said the hallway needs two coats",
        at=_ts("2026-01-13T09:00:00"),
        speaker="Ana",
        ref="D2:1",
    )
    assert memory.wait_indexed(60)  # turns are found by meaning once their batch landed


def test_episodic_search_returns_turns_with_speaker_time_and_ref(memory: Memory) -> None:
    _household(memory)
    hits = memory.search("who booked the dentist", scope="messages").messages
    top = hits[0].message
    assert (top.speaker, top.ref, top.role) == ("Ben", "D1:3", "user")
    assert top.created_at == _ts("2026-01-08T18:01:00")
    assert memory.search("Ana hallway", scope="messages").messages[0].message.speaker == "Ana"
    both = memory.search("hallway", scope="all")
    assert both.messages and both.facts == []


def test_time_words_boost_that_day(memory: Memory) -> None:
    thursday = memory.start_conversation("kitchen", at=_ts("2026-01-08T18:00:00"))
    memory.add_message(
        thursday, "user", "Let's talk about the garden shed roof", at=_ts("2026-01-08T18:00:00"), ref="thu"
    )
    tuesday = memory.start_conversation("kitchen", at=_ts("2026-01-13T09:00:00"))
    memory.add_message(
        tuesday, "user", "Let's talk about the garden shed roof", at=_ts("2026-01-13T09:00:00"), ref="tue"
    )
    assert memory.wait_indexed(60)
    reference = _ts("2026-01-15T12:00:00")  # a Thursday
    assert (
        memory.search("shed roof last Thursday", scope="messages", reference_time=reference)
        .messages[0]
        .message.ref
        == "thu"
    )
    assert (
        memory.search("shed roof on Tuesday", scope="messages", reference_time=reference)
        .messages[0]
        .message.ref
        == "tue"
    )
    # Without a reference the same words are relative to now: years later, neither day is near.
    far = memory.search("shed roof on Tuesday", scope="messages", reference_time=_ts("2030-01-01T00:00:00"))
    assert {h.message.ref for h in far.messages} == {"thu", "tue"}


def test_episodic_filters_and_errors(memory: Memory) -> None:
    _household(memory)
    dated = memory.search("hallway", scope="messages", date="2026-01-13")
    assert [h.message.ref for h in dated.messages] == ["D2:1"]
    with pytest.raises(InvalidInput):
        memory.search("", scope="messages")
    with pytest.raises(InvalidInput):
        memory.search("x", scope="everything")  # type: ignore[arg-type]
    conv = memory.start_conversation()
    with pytest.raises(InvalidInput):
        memory.add_message(conv, "narrator", "hello")
    with pytest.raises(InvalidInput):
        memory.add_message(conv, "user", "x" * 70_000)
    with pytest.raises(Exception, match="No conversation"):
        memory.add_message(12345, "user", "hello")


def test_add_messages_in_bulk(memory: Memory) -> None:
    conv = memory.start_conversation("import")
    rows = memory.add_messages(
        conv,
        [
            Turn("user", "I adopted a greyhound", at=_ts("2026-01-02T10:00:00"), speaker="Ana", ref="D1:1"),
            Turn("assistant", "Congratulations on the new dog!"),
        ],
    )
    assert [r.ref for r in rows] == ["D1:1", None]
    assert memory.wait_indexed(60)
    assert "D1:1" in [h.message.ref for h in memory.search("puppy", scope="messages").messages]
    with pytest.raises(InvalidInput):
        memory.add_messages(conv, [Turn("user", "fine"), Turn("robot", "not a role")])
    assert len(memory.messages(conv.id)) == 2  # nothing of the bad batch was stored


def test_messages_reload_after_restart(settings, clock: Clock) -> None:
    with Memory(settings, clock=clock) as mem:
        conv = mem.start_conversation("chat")
        for i in range(12):
            mem.add_message(conv, "user" if i % 2 == 0 else "assistant", f"turn {i}")
    with Memory(settings, clock=clock) as mem:
        assert [m.content for m in mem.messages(conv.id, limit=4)] == [
            "turn 8",
            "turn 9",
            "turn 10",
            "turn 11",
        ]


def test_reindex_is_resumable(tmp_path: Path, clock: Clock) -> None:
    home = tmp_path / "h"
    with Memory(
        load_settings(home=home, environ={"REVERIE_EMBEDDINGS__ENABLED": "false"}), clock=clock
    ) as mem:
        for i in range(70):
            # 70 different facts: the same fact with other numbers would be an update, not a new fact
            mem.remember(f"Shelf {i * 7919 % 1000} of box {i} holds: {VARIED_FACTS[i % 30]}")
        assert mem.count() == 70
    with Memory(load_settings(home=home, environ={}), clock=clock) as mem:
        service = mem.embeddings
        assert service is not None
        total = mem.count()

        def stop(done: int, total: int) -> None:
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            mem.reindex(stop)
        have, _ = mem.scope.count_vectors("memory", service.model_id)
        assert 0 < have < total
        seen: list[tuple[int, int]] = []
        counts = mem.reindex(lambda done, all_: seen.append((done, all_)))
        assert counts["memory"] == total - have
        assert seen[-1] == (total, total)
        assert mem.reindex()["memory"] == 0


def test_stats_show_embedding_coverage_and_cache(memory: Memory) -> None:
    memory.remember("User is allergic to shellfish")
    memory.search("allergies")
    memory.search("allergies")
    stats = memory.stats()
    assert stats["embedding_model"] == "all-MiniLM-L6-v2-int8"
    assert stats["embedded"]["memory"] == 1
    assert stats["embedding_cache_hit_rate"] is not None and stats["embedding_cache_hit_rate"] > 0


@pytest.mark.parametrize(
    ("text", "start", "days"),
    [
        ("what did we say last Thursday", "2026-01-08", 1),
        ("anything yesterday?", "2026-01-14", 1),
        ("plans from two weeks ago", "2025-12-29", 7),
        ("the trip in May", "2025-05-01", 31),
        ("on 8 May, 2023", "2023-05-08", 1),
        ("around March 3rd", "2025-03-03", 1),
        ("last week", "2026-01-05", 7),
        ("in 2024", "2024-01-01", 366),
        ("on 2026-01-02", "2026-01-02", 1),
    ],
)
def test_time_expressions(text: str, start: str, days: int) -> None:
    reference = _ts("2026-01-15T12:00:00")  # a Thursday
    window = find_time_window(text, reference, UTC)
    assert window is not None
    assert window.start == _ts(f"{start}T00:00:00")
    assert round((window.end - window.start) / DAY) == days


def test_no_time_expression() -> None:
    assert find_time_window("what is my dog's name", 0.0, UTC) is None
    assert find_time_window("on 31 February", 0.0, UTC) is None


def test_vector_cache_follows_inserts_edits_and_deletes(memory: Memory) -> None:
    from reverie.embed.index import VectorIndex

    service, scope = memory.embeddings, memory.scope
    assert service is not None and memory.semantic is not None
    cached = memory.semantic.index
    probes = [service.embed_one(text) for text in ("honey bees", "motorbike", "choir singing", "poultry")]

    def same() -> None:
        fresh = VectorIndex()
        for probe in probes:
            kept = cached.search(scope, "memory", service.model_id, probe, k=5)
            loaded = fresh.search(scope, "memory", service.model_id, probe, k=5)
            # Same items; scores equal up to float32 rounding (the matrices differ in layout).
            assert [i for i, _ in kept] == [i for i, _ in loaded]
            assert [s for _, s in kept] == pytest.approx([s for _, s in loaded], abs=1e-5)

    bees = memory.remember("User keeps bees in the back garden").memory
    same()
    bikes = memory.remember("User restores old motorcycles").memory  # appended to the cached matrix
    memory.remember("User sings in a community choir")
    same()
    memory.edit(bees.id, "User keeps chickens in the back garden")  # replaced in place
    same()
    memory.delete(bikes.id)  # something went away: reloaded
    same()
