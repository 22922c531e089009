"""The facts a message brings into the context: found by its words alone when embeddings are off,
as few as one, and never crowded out by preferences that share its words.

Written for the mutants of retrieve/relevant.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

from pathlib import Path

import fakeserver
import pytest
from conftest import VARIED_FACTS, Clock
from fakeserver import FakeModelServer

from reverie import Memory, load_settings

fake_server = fakeserver.fake_server


def test_one_relevant_fact_is_found_by_its_words_before_a_preference_with_more_of_them(
    tmp_path: Path, clock: Clock
) -> None:
    environ = {
        "REVERIE_EMBEDDINGS__ENABLED": "false",
        "REVERIE_MEMORY__RELEVANT_TOP_K": "1",
        "REVERIE_MEMORY__CONTEXT_MAX_FACTS": "3",
    }
    with Memory(load_settings(home=tmp_path, environ=environ), clock=clock) as memory:
        for fact in VARIED_FACTS[:10]:
            memory.remember(fact)
        memory.remember("User's sister Clara is allergic to peanuts", confidence=0.7, source="inferred")
        memory.save_preference("cooking", "dinner", "cooking dinner for my sister on Sundays")
        assert "Clara" not in memory.context().text
        assert "Clara" in memory.context("cooking dinner for my sister").text


def test_a_blank_message_brings_no_relevant_facts_into_the_conversation(tmp_path: Path, clock: Clock) -> None:
    # The local embedder gives a blank text a vector with a cosine near 0.2 to these facts.
    environ = {"REVERIE_MEMORY__RELEVANT_MIN_SIMILARITY": "0.15", "REVERIE_MEMORY__CONTEXT_MAX_FACTS": "2"}
    with Memory(load_settings(home=tmp_path, environ=environ), clock=clock) as memory:
        for fact in VARIED_FACTS:
            memory.remember(fact)
        strongest = memory.context(touch=False).fact_ids
        conversation = memory.start_conversation("chat")
        assert memory.context("   ", conversation_id=conversation.id, touch=False).fact_ids == strongest
        later = memory.context("Good morning", conversation_id=conversation.id, touch=False)
        assert later.fact_ids == memory.context("Good morning", touch=False).fact_ids


def test_a_preference_close_in_meaning_is_no_relevant_fact(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    fake_server.dimensions = 256
    fake_server.synonyms["apiary"] = "bees"
    with Memory(load_settings(home=tmp_path, environ=fakeserver.embedding_environ(fake_server))) as memory:
        fact = memory.remember("User keeps bees in the back garden").memory
        preference = memory.save_preference("garden", "hobby", "keeping bees").memory
        assert [hit.memory.id for hit in memory.search("apiary").preferences] == [preference.id]
        block = memory.context("apiary")
    assert block.fact_ids == [fact.id]


@pytest.mark.parametrize(("fusion", "first"), [("rrf", "bees"), ("weighted", "apiary")])
def test_the_relevant_fact_is_chosen_by_the_configured_fusion(
    tmp_path: Path, fake_server: FakeModelServer, fusion: str, first: str
) -> None:
    # "apiary" is a keyword hit with a cosine under 0.3 (a long text); "bees" is found by meaning
    # alone (cosine 1/sqrt(7)). Weighted fusion puts the keyword hit first (0.3 > 0.7 x 0.378),
    # rank fusion the one found by meaning (0.7 / 61 > 0.3 / 61).
    fake_server.dimensions = 256
    fake_server.synonyms["apiary"] = "bees"
    environ = fakeserver.embedding_environ(
        fake_server, REVERIE_MEMORY__RELEVANT_TOP_K="1", REVERIE_EMBEDDINGS__HYBRID__FUSION=fusion
    )
    with Memory(load_settings(home=tmp_path, environ=environ)) as memory:
        apiary = memory.remember("User once toured a big old apiary near a small town in rural Wales").memory
        bees = memory.remember("User keeps bees in the back garden").memory
        block = memory.context("apiary", touch=False)
    order = {"apiary": [apiary.id, bees.id], "bees": [bees.id, apiary.id]}
    assert block.fact_ids == order[first]


def test_twelve_relevant_facts_when_twelve_are_asked_for(tmp_path: Path, clock: Clock) -> None:
    environ = {
        "REVERIE_EMBEDDINGS__ENABLED": "false",
        "REVERIE_MEMORY__RELEVANT_TOP_K": "12",
        "REVERIE_MEMORY__CONTEXT_MAX_FACTS": "12",
    }
    with Memory(load_settings(home=tmp_path, environ=environ), clock=clock) as memory:
        for fact in VARIED_FACTS:  # stronger than the herons: without the message none of those shows
            memory.remember(fact)
        birds = {
            memory.remember(
                f"User once saw a heron number {n} by the river", confidence=0.6, source="inferred"
            ).memory.id
            for n in range(12)
        }
        assert not birds & set(memory.context(touch=False).fact_ids)
        block = memory.context("a heron by the river", touch=False)
    assert set(block.fact_ids[:12]) == birds  # the relevant facts first, then the 12 strongest others
