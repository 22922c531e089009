"""The memory core as a user and an operator meet it: what forgetting removes and records, what the
statistics say, what a guest's "recent" answers and what a change of the search settings does.

Written for the mutants of core/memory_core.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import VARIED_FACTS, Clock

from reverie import GuardRejected, InvalidInput, Memory, NotFound, load_settings
from reverie.errors import TooLarge
from reverie.store.base import NewMemory

DAY = 86400.0


KEYWORDS_ONLY = {"REVERIE_MEMORY__TIMEZONE": "UTC", "REVERIE_EMBEDDINGS__ENABLED": "false"}


def _audit(memory: Memory) -> list[tuple[str, str, str, int | None, dict]]:
    return [(a.action, a.reason, a.target_kind, a.target_id, a.detail) for a in memory.scope.list_audit()]


def test_forgetting_removes_every_match_and_records_which(memory: Memory) -> None:
    kept = memory.remember("User's sister lives in Oslo").memory
    ids = [
        memory.scope.insert_memory(
            NewMemory("fact", f"User's marathon plan, week {word}", "explicit", 1.0), memory.clock()
        ).id
        for word in ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven")
    ]
    gone = memory.forget("marathon plan")
    assert sorted(row.id for row in gone) == sorted(ids)  # eleven, more than a search page of ten
    assert [row.id for row in memory.list_memories()] == [kept.id]
    ((action, reason, _, _, detail),) = _audit(memory)
    assert (action, reason) == ("forget", "forgotten on request")
    assert sorted(detail["ids"]) == sorted(ids) and detail["terms"] == 2


def test_forgetting_stops_at_a_hundred_memories_a_request(memory: Memory) -> None:
    for n in range(101):
        memory.scope.insert_memory(
            NewMemory("fact", f"User's chess game number {n} was a draw", "explicit", 1.0), memory.clock()
        )
    assert len(memory.forget("chess draw")) == 100
    assert len(memory.forget("chess draw")) == 1
    assert memory.count() == 0


def test_forgetting_words_without_meaning_says_what_to_give(memory: Memory) -> None:
    memory.remember("User is vegetarian")
    with pytest.raises(InvalidInput) as refused:
        memory.forget("the and of")
    assert str(refused.value) == (
        "Say what to forget with at least one meaningful word, e.g. 'forget vegetarian'"
    )
    assert memory.count() == 1 and _audit(memory) == []


def test_forgetting_everything_records_what_went(memory: Memory) -> None:
    memory.remember("User is vegetarian")
    memory.prefer("units", "metric")
    counts = memory.forget_all("DELETE")
    ((action, reason, _, _, detail),) = _audit(memory)
    assert (action, reason) == ("forget_all", "forget everything on request")
    assert (detail["fact"], detail["preference"], detail["summary"]) == (1, 1, 0)
    assert all(counts[name] == count for name, count in detail.items())


def test_a_guest_s_recent_is_empty_over_the_period_asked(memory: Memory, clock: Clock) -> None:
    memory.remember("User is vegetarian")
    guest = memory.for_interface("garage")
    assert guest.is_guest
    week = guest.recent()
    assert (week.period, week.since) == ("7d", clock() - 7 * DAY)
    assert (week.facts, week.preferences, week.summaries) == ([], [], [])
    day = guest.recent("24h")
    assert (day.period, day.since) == ("24h", clock() - DAY)
    with pytest.raises(InvalidInput):
        guest.recent("soon")


def test_recent_looks_back_a_week_and_lists_fifty_by_default(memory: Memory, clock: Clock) -> None:
    for n in range(51):
        memory.scope.insert_memory(
            NewMemory("fact", f"User noted item {n}", "explicit", 1.0), clock() - 3600 - n
        )
    memory.scope.insert_memory(
        NewMemory("fact", "User noted an old item", "explicit", 1.0), clock() - 8 * DAY
    )
    week = memory.recent()
    assert (week.period, week.since) == ("7d", clock() - 7 * DAY)
    assert [row.text for row in week.facts] == [f"User noted item {n}" for n in range(50)]


def test_statistics_say_who_and_what_is_kept(memory: Memory, clock: Clock) -> None:
    memory.remember("User is vegetarian")
    memory.remember("User lives in Lyon", key="home_city")
    memory.remember("User lives in Paris", key="home_city")
    memory.prefer("units", "metric")
    memory.set_base_memory("Ann is a nurse in Leeds.")
    # A fact written without a vector (as by an import before embeddings were on): not counted as embedded.
    memory.scope.insert_memory(NewMemory("fact", "User keeps bees", "explicit", 1.0), clock())
    stats = memory.stats()
    assert stats["user"] == "default" and stats["guest"] is False
    assert stats["facts"] == 3 and stats["preferences"] == 1 and stats["superseded"] == 1
    assert stats["base_memory"] is True
    assert 0 < stats["database_bytes"] <= memory.store.database_size()
    assert stats["embedded"]["memory"] == 3  # the vegetarian, Paris and metric rows; not the bees
    assert stats["embedding_cache_entries"] == memory.store.cache_stats()["entries"] > 0
    # Reading the statistics is no use of the memories: nothing counts as recalled.
    assert all(row.access_count == 0 and row.last_accessed is None for row in memory.list_memories())


def test_the_embedding_cache_hit_rate_is_a_share_of_lookups(memory: Memory) -> None:
    assert memory.stats()["embedding_cache_hit_rate"] is None  # nothing looked up yet
    memory.remember("User is vegetarian")
    memory.remember("User lives in Lyon")
    memory.remember("User is vegetarian")  # the same words: its vector comes from the cache
    rate = memory.stats()["embedding_cache_hit_rate"]  # the statistics write the counts out first
    assert {k: v for k, v in memory.store.cache_stats().items() if k != "entries"} == {"hits": 1, "misses": 2}
    assert rate == 0.333


def test_a_guest_s_statistics_name_no_one(memory: Memory) -> None:
    guest = memory.for_interface("garage")
    assert guest.stats() == {"user": None, "guest": True, "context_tokens": 0, "context_budget": 800}


def test_new_search_settings_apply_to_the_next_search(memory: Memory) -> None:
    service = memory.embeddings
    hybrid = memory.settings.embeddings.hybrid
    hybrid.keyword_weight, hybrid.vector_weight, hybrid.min_similarity = 0.6, 0.4, 0.45
    hybrid.fusion = "rrf"
    memory.retune_search()
    assert memory.semantic is not None and memory.embeddings is service  # the same embedder
    tuned = memory.semantic
    assert (tuned.keyword_weight, tuned.vector_weight, tuned.min_similarity, tuned.fusion) == (
        0.6,
        0.4,
        0.45,
        "rrf",
    )
    hybrid.enabled = False  # keywords alone
    memory.retune_search()
    assert (memory.semantic.keyword_weight, memory.semantic.vector_weight) == (1.0, 0.0)


def test_new_search_settings_without_embeddings_change_nothing(tmp_path: Path, clock: Clock) -> None:
    settings = load_settings(home=tmp_path / "h", environ=KEYWORDS_ONLY)
    with Memory(settings, clock=clock) as mem:
        mem.remember(VARIED_FACTS[0])
        mem.retune_search()
        assert mem.semantic is None
        assert [hit.memory.text for hit in mem.search("violin").facts] == [VARIED_FACTS[0]]


def test_counts_are_per_kind_and_a_guest_has_none(memory: Memory) -> None:
    memory.remember("User is vegetarian")
    memory.prefer("units", "metric")
    memory.prefer("verbosity", "concise answers")
    assert (memory.count(kind="fact"), memory.count(kind="preference"), memory.count()) == (1, 2, 3)
    assert memory.for_interface("garage").count() == 0


def test_deleting_and_editing_are_recorded_against_the_memory(memory: Memory, clock: Clock) -> None:
    edited = memory.remember("User's sister is called Anna").memory
    deleted = memory.remember("User likes tea").memory
    memory.edit(edited.id, "User's sister is called Hannah")
    clock.advance(1)
    memory.delete(deleted.id)
    assert [entry[:4] for entry in _audit(memory)] == [
        ("delete", "deleted by user", "fact", deleted.id),
        ("edit", "edited by user", "fact", edited.id),
    ]


def test_an_edit_is_the_user_s_own_word(memory: Memory) -> None:
    """An edited fact becomes explicit at full confidence; an edited preference at 0.9."""
    fact = memory.remember("User may enjoy jazz", source="inferred", confidence=0.6).memory
    liked = memory.prefer("humor", "enjoys dry humor", source="inferred").memory
    assert liked.confidence == 0.5
    fact = memory.edit(fact.id, "User enjoys jazz")
    liked = memory.edit(liked.id, "enjoys dark humor")
    assert (fact.source, fact.confidence) == ("explicit", 1.0)
    assert (liked.source, liked.confidence) == ("explicit", 0.9)
    assert memory.get(fact.id).source == "explicit" and memory.get(liked.id).confidence == 0.9


def test_a_secret_kept_on_request_stays_correctable_and_no_other_fact_becomes_one(memory: Memory) -> None:
    secret = memory.remember("User's wifi password is hunter2-correct-horse", sensitive=True).memory
    changed = memory.edit(secret.id, "User's wifi password is tulip-staple-battery")
    assert changed.text == "User's wifi password is tulip-staple-battery"
    plain = memory.remember("User likes tea").memory
    with pytest.raises(GuardRejected) as refused:
        memory.edit(plain.id, "User's bank PIN is 4921 and the password is tulip-staple-battery")
    assert refused.value.reason == "secret" and memory.get(plain.id).text == "User likes tea"


def test_a_secret_said_in_the_user_s_words_needs_the_explicit_request(memory: Memory) -> None:
    with pytest.raises(GuardRejected) as refused:
        memory.remember_words("My wifi password is hunter2-correct-horse")
    assert refused.value.reason == "secret" and memory.count() == 0
    kept = memory.remember_words("My wifi password is hunter2-correct-horse", sensitive=True)
    assert kept.memory.text == "User's wifi password is hunter2-correct-horse"


def test_words_to_remember_keep_their_key_their_conversation_and_their_scope(memory: Memory) -> None:
    talk = memory.start_conversation("chat")
    city = memory.remember_words("I live in Lyon", key="home_city", conversation_id=talk.id).memory
    assert (city.text, city.key, city.conversation_id) == ("User lives in Lyon", "home_city", talk.id)
    # With a key the words are a fact under that key, even when they read as a preference.
    style = memory.remember_words("I prefer concise answers", key="answer_style").memory
    assert (style.kind, style.key, style.text) == ("fact", "answer_style", "User prefers concise answers")
    evening = memory.remember_words("I prefer the lights dim in the evening").memory
    assert (evening.kind, evening.category, evening.key, evening.scope) == (
        "preference",
        "lights",
        "brightness_evening",
        "specific",
    )


def test_a_missing_memory_and_a_wrong_search_scope_say_what_was_asked(memory: Memory) -> None:
    with pytest.raises(NotFound) as missing:
        memory.get(4242)
    assert str(missing.value) == "No memory with id 4242"
    with pytest.raises(InvalidInput) as wrong:
        memory.search("tea", scope="everything")  # type: ignore[arg-type]
    assert str(wrong.value) == "scope must be memories, messages or all, got 'everything'"


def test_a_search_gives_ten_facts_unless_asked_for_more(memory: Memory, clock: Clock) -> None:
    for n in range(12):
        memory.scope.insert_memory(
            NewMemory("fact", f"User's chess game number {n} was a draw", "explicit", 1.0), clock()
        )
    assert len(memory.search("chess draw").facts) == 10
    assert len(memory.search("chess draw", limit=12).facts) == 12


def test_search_answers_name_the_query_and_its_words(memory: Memory) -> None:
    memory.add_message(memory.start_conversation("chat"), "user", "The garden shed needs a new roof")
    turns = memory.search("garden shed roof", scope="messages")
    assert (turns.query, turns.terms, turns.facts) == ("garden shed roof", ["garden", "shed", "roof"], [])
    assert [hit.message.content for hit in turns.messages] == ["The garden shed needs a new roof"]
    guest = memory.for_interface("garage").search("garden shed")
    assert (guest.query, guest.terms, guest.total) == ("garden shed", [], 0)


def test_a_search_by_date_reads_the_day_in_the_user_s_zone(tmp_path: Path, clock: Clock) -> None:
    environ = {**KEYWORDS_ONLY, "REVERIE_MEMORY__TIMEZONE": "Pacific/Auckland"}
    with Memory(load_settings(home=tmp_path / "h", environ=environ), clock=clock) as mem:
        mem.remember("User planted the tomatoes")  # 2026-01-15 18:00 UTC: the 16th, 07:00 in Auckland
        assert [hit.memory.text for hit in mem.search("tomatoes", date="2026-01-16").facts] == [
            "User planted the tomatoes"
        ]
        assert mem.search("tomatoes", date="2026-01-15").facts == []


def test_a_request_to_forget_that_is_too_long_says_so(memory: Memory) -> None:
    memory.remember("User is vegetarian")
    with pytest.raises(TooLarge, match=r"^What to forget is \d+ bytes; the limit is \d+"):
        memory.forget("vegetarian " * 2000)
    assert memory.count() == 1
