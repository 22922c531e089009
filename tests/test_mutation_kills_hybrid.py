"""Search by meaning keeps out what has nothing in common with the question, and goes on by keyword
when the embedding server is down.

Written for the mutants of retrieve/hybrid.py that survived `make mutation` (see tests/MUTATION.md).
The embeddings come from the fake model server: word buckets, so a fact that shares no word (or
synonym) with the question has a cosine of exactly 0.
"""

from __future__ import annotations

import logging
from pathlib import Path

import fakeserver
import pytest
from fakeserver import FakeModelServer

from reverie import Memory, Settings, load_settings
from reverie.retrieve.hybrid import SIMILARITY_FLOOR

fake_server = fakeserver.fake_server

FACTS = ["User keeps bees in the back garden", "User sings in a community choir", "User drives a blue van"]


def _settings(home: Path, server: FakeModelServer, **extra: str) -> Settings:
    return load_settings(home=home, environ=fakeserver.embedding_environ(server, **extra))


def test_no_fact_under_the_similarity_floor_even_with_min_similarity_at_minus_one(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    fake_server.dimensions = 256
    fake_server.synonyms["apiary"] = "bees"
    settings = _settings(tmp_path, fake_server, REVERIE_EMBEDDINGS__HYBRID__MIN_SIMILARITY="-1")
    with Memory(settings) as memory:
        for fact in FACTS:
            memory.remember(fact)
        unrelated = [fact for fact in FACTS[1:] if _cosine(fake_server, fact, "apiary") > 0]
        assert unrelated == [], "the fixture needs facts sharing no word bucket with the question"
        hits = memory.search("apiary", limit=10).facts
    assert [hit.memory.text for hit in hits] == [FACTS[0]]
    assert hits[0].score >= 0.7 * SIMILARITY_FLOOR


def test_a_fact_found_both_ways_scores_its_keyword_part_plus_its_meaning_part(
    tmp_path: Path, fake_server: FakeModelServer
) -> None:
    fake_server.dimensions = 256
    with Memory(_settings(tmp_path, fake_server)) as memory:
        for fact in FACTS:
            memory.remember(fact)
        hits = memory.search("bees", limit=5).facts
    assert [hit.memory.text for hit in hits] == [FACTS[0]]
    cosine = _cosine(fake_server, "bees", FACTS[0])
    assert 0.3 < cosine < 1
    assert hits[0].score == pytest.approx(0.3 * 1.0 + 0.7 * cosine, abs=1e-4), "keyword part plus meaning"


def test_search_answers_by_keyword_while_the_embedding_server_is_down(
    tmp_path: Path, fake_server: FakeModelServer, caplog: pytest.LogCaptureFixture
) -> None:
    fake_server.dimensions = 64
    facts = [*FACTS, "User grows tomatoes in the garden"]
    with Memory(_settings(tmp_path, fake_server)) as memory:
        for fact in facts:
            memory.remember(fact)
        fake_server.mode = "down"
        with caplog.at_level(logging.WARNING, logger="reverie.retrieve.hybrid"):
            found = memory.search("bees garden", limit=5)
        records = [r for r in caplog.records if r.name == "reverie.retrieve.hybrid"]
        logged = [r.getMessage() for r in records]
        # "garden" is in half the facts, so its BM25 score is tiny; the best keyword hit still counts whole.
        garden = memory.search("garden", limit=5).facts
    assert [hit.memory.text for hit in found.facts][0] == FACTS[0]
    assert found.facts[0].score == pytest.approx(0.3)
    assert sorted(hit.memory.text for hit in garden) == sorted([FACTS[0], facts[-1]])
    assert garden[0].score == pytest.approx(0.3)
    # The operator's log says why search went by keyword alone, naming the server it could not reach.
    assert len(logged) == 1, logged
    assert logged[0].startswith("Semantic search unavailable, using keywords only: ")
    assert fake_server.url.removeprefix("http://") in logged[0]
    # ...and, for a log format with %(threadName)s, that it came from the query-embedding thread.
    assert records[0].threadName.startswith("reverie-query_"), records[0].threadName


def _cosine(server: FakeModelServer, a: str, b: str) -> float:
    return sum(x * y for x, y in zip(server.embed(a), server.embed(b), strict=True))


def test_a_fact_exactly_at_min_similarity_counts(tmp_path: Path, fake_server: FakeModelServer) -> None:
    fake_server.dimensions = 256
    fake_server.synonyms.update({"apiary": "bees", "keeps": "bees"})
    best = "User keeps bees"  # the bees bucket twice: cosine 2 / sqrt(5) with "apiary"
    at_cut = "User photographs wild bees"  # four words, one of them bees: cosine exactly 1/2
    under = "User once saw bees swarming"  # five words: 1 / sqrt(5), under 1/2
    settings = _settings(tmp_path, fake_server, REVERIE_EMBEDDINGS__HYBRID__MIN_SIMILARITY="0.5")
    assert _cosine(fake_server, "apiary", at_cut) == 0.5, "the fixture needs four distinct word buckets"
    assert _cosine(fake_server, "apiary", under) < 0.5 < 0.8 * _cosine(fake_server, "apiary", best)
    with Memory(settings) as memory:
        for fact in [best, at_cut, under]:
            memory.remember(fact)
        hits = memory.search("apiary", limit=10).facts  # no fact has the word: by meaning alone
    # README: a vector hit counts at a cosine at or above min_similarity.
    assert [hit.memory.text for hit in hits] == [best, at_cut]
