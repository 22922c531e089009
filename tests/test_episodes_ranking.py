"""Episodic ranking by general rules: event dates, "when" questions, the second round by entities."""

from __future__ import annotations

import importlib.util
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from reverie import Memory
from reverie.retrieve.episodes import (
    Candidate,
    Query,
    RankWeights,
    entity_terms,
    gather_candidates,
    rank_candidates,
    search_messages,
)
from reverie.retrieve.timeexpr import asks_when, find_time_window
from reverie.store.base import MessageRow


def _ts(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def _row(item_id: int, content: str, at: str) -> MessageRow:
    return MessageRow(item_id, 1, "user", content, "Caroline", f"D1:{item_id}", _ts(at))


def _support_group(memory: Memory) -> None:
    """The same event told twice: on the day, and two weeks later with the words saying when."""
    early = memory.start_conversation("chat", at=_ts("2023-05-10T10:00:00"))
    memory.add_message(
        early,
        "user",
        "Went to the support group, it was powerful",
        at=_ts("2023-05-10T10:00:00"),
        speaker="Caroline",
        ref="today",
    )
    late = memory.start_conversation("chat", at=_ts("2023-05-21T10:00:00"))
    memory.add_message(
        late,
        "user",
        "Went to the support group two weeks ago, it was powerful",
        at=_ts("2023-05-21T10:00:00"),
        speaker="Caroline",
        ref="ago",
    )
    assert memory.wait_indexed(60)


def test_a_turn_counts_for_the_day_its_words_name(memory: Memory) -> None:
    _support_group(memory)
    question = "Did Caroline go to the support group on 7 May 2023?"
    asked = _ts("2023-06-01T12:00:00")
    candidates, query = gather_candidates(
        memory.scope, question, semantic=memory.semantic, tz=UTC, reference_time=asked
    )
    # The date rule alone beside keywords and meaning: the context part (a turn's own share of the
    # best match, too) would weigh the wording's small differences in as well.
    by_event = rank_candidates(candidates, query, RankWeights(date=1.0, event_dates=True, context=0.0), 2)
    by_session = rank_candidates(candidates, query, RankWeights(date=1.0, event_dates=False, context=0.0), 2)
    # "two weeks ago" on 21 May is 7 May: the later turn is the one about that day.
    assert [hit.message.ref for hit in by_event] == ["ago", "today"]
    assert [hit.message.ref for hit in by_session] == ["today", "ago"]
    found = search_messages(
        memory.scope,
        question,
        semantic=memory.semantic,
        tz=UTC,
        reference_time=asked,
        weights=RankWeights(date=1.0, event_dates=True, context=0.0),
    )
    assert found[0].message.ref == "ago"


def test_a_when_question_prefers_the_turn_that_says_when() -> None:
    plain = _row(1, "I ran a charity race for mental health, it was rewarding", "2023-05-25T13:14:00")
    dated = _row(2, "I ran a charity race for mental health last Saturday", "2023-05-25T13:14:05")
    candidates = [
        Candidate(plain, keyword=1.0, vector=1.0, speaker=True, mentions_time=False),
        Candidate(dated, keyword=1.0, vector=1.0, speaker=True, mentions_time=True),
    ]
    when = _query("When did Melanie run a charity race?")
    what = _query("What did Melanie run for mental health?")
    weights = RankWeights(when=0.1)
    assert [h.message.id for h in rank_candidates(candidates, when, weights, 2)] == [2, 1]
    # Not a "when" question: the tie stays with the lower id.
    assert [h.message.id for h in rank_candidates(candidates, what, weights, 2)] == [1, 2]


def _query(text: str) -> Query:
    return Query(find_time_window(text, _ts("2023-06-01T00:00:00"), UTC), asks_when(text), UTC)


def test_entities_are_capitalised_words_inside_sentences() -> None:
    rows = [
        _row(1, "We drove to Yosemite with Melanie and her dog Luna. It was great", "2023-05-25T13:14:00"),
        _row(2, "Then Luna chased a squirrel near Half Dome", "2023-05-25T13:14:05"),
    ]
    # Names first, then the other keywords, the ones both rows share ahead.
    assert entity_terms(rows, exclude={"melanie"}) == [
        "yosemite",
        "luna",
        "half",
        "dome",
        "drove",
        "dog",
        "great",
        "chased",
    ]


def test_search_answers_when_with_the_turn_that_says_when(memory: Memory) -> None:
    conv = memory.start_conversation("chat", at=_ts("2023-05-25T13:14:00"))
    memory.add_message(
        conv,
        "user",
        "I ran a charity race for mental health",
        at=_ts("2023-05-25T13:14:00"),
        speaker="Melanie",
        ref="plain",
    )
    memory.add_message(
        conv,
        "user",
        "Caroline, I ran a charity race for mental health last Saturday",
        at=_ts("2023-05-25T13:20:00"),
        speaker="Melanie",
        ref="dated",
    )
    assert memory.wait_indexed(60)
    asked = _ts("2023-06-01T12:00:00")
    question = "When did Melanie run a charity race?"
    # The "when" prior at the weight the folds chose before the context part (0.5); with it they
    # choose 0.1, under which the shorter turn's keyword score wins this two-turn example.
    weights = RankWeights(keyword=0.6, vector=0.4, when=0.5, context=0.0)
    kwargs: dict[str, Any] = {
        "semantic": memory.semantic,
        "tz": UTC,
        "reference_time": asked,
        "weights": weights,
    }
    assert search_messages(memory.scope, question, **kwargs)[0].message.ref == "dated"
    # The same turns for a question that does not ask when: the plainer one comes first.
    other = search_messages(memory.scope, "Did Melanie run a charity race?", **kwargs)
    assert other[0].message.ref == "plain"
    # As shipped, a "when" question still finds both, the one that says when among them.
    shipped = memory.search(question, scope="messages", reference_time=asked).messages
    assert {hit.message.ref for hit in shipped} == {"plain", "dated"}


def _cv() -> ModuleType:
    """Load bench/locomo_cv.py, the cross-validation the LoCoMo bench runs."""
    path = Path(__file__).resolve().parent.parent / "bench" / "locomo_cv.py"
    spec = importlib.util.spec_from_file_location("locomo_cv", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["locomo_cv"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _contested(cv: ModuleType, conversation: str, time_answers: bool) -> Any:
    """A "when" question whose fifth place goes to the turn naming a time only under a "when" weight."""
    fillers = [
        Candidate(_row(i, "filler", "2023-05-01T00:00:00"), 1.0, 1.0, False, False) for i in (1, 2, 3, 4)
    ]
    first = _row(5, "first", "2023-05-01T00:00:00")  # wins the tie by its lower id
    second = _row(6, "second", "2023-05-01T00:00:00")
    relevant = second if time_answers else first
    candidates = [
        *fillers,
        Candidate(first, 0.5, 0.5, False, not time_answers),
        Candidate(second, 0.5, 0.5, False, time_answers),
    ]
    query = _query("When did Caroline go?")
    return cv.Item(conversation, "When did Caroline go?", 2, frozenset({relevant.ref}), query, candidates)


def test_cross_validation_scores_each_conversation_with_weights_tuned_without_it() -> None:
    cv = _cv()
    # Only conversation "a" is answered by the "when" rule; "b" and "c" are hurt by it.
    items = [_contested(cv, "a", True), _contested(cv, "b", False), _contested(cv, "c", False)]
    result = cv.cross_validate(items, [5])
    assert result.chosen["a"].when == 0.0  # tuned on b and c only
    assert result.scores["R@5"].tolist() == [0.0, 1.0, 1.0]  # so "a" is missed when held out
    # Tuned on all three, "a" would count towards its own weights: the all-in choice is not
    # what the held-out score reflects.
    only_a = cv.cross_validate([_contested(cv, "a", True), _contested(cv, "a2", True)], [5])
    assert only_a.chosen["a"].when > 0.0
