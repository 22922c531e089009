"""The turns around the best matches of an episodic search join its candidates and share their score."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from reverie import Memory
from reverie.retrieve.episodes import (
    Candidate,
    Query,
    RankWeights,
    context_share,
    gather_candidates,
    rank_candidates,
    score_candidate,
    search_messages,
)
from reverie.store.base import MessageRow


def _ts(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def test_messages_around_stay_in_each_turn_s_conversation_and_user(memory: Memory) -> None:
    start = _ts("2023-05-01T10:00:00")
    first = memory.start_conversation("chat", at=start)
    second = memory.start_conversation("chat", at=start)
    ours: list[MessageRow] = []
    others: list[MessageRow] = []
    for n in range(7):  # the two conversations' turns interleave, so their ids do too
        ours.append(memory.add_message(first, "user", f"first turn {n}", at=start + 10 * n))
        others.append(memory.add_message(second, "user", f"second turn {n}", at=start + 10 * n + 5))
    memory.add_user("someone")
    stranger = memory.for_user("someone")
    theirs = stranger.start_conversation("chat", at=start)
    for n in range(3):
        stranger.add_message(theirs, "user", f"their turn {n}", at=start + n)
    scope = memory.scope

    around = scope.messages_around([ours[3]], 2)
    assert [m.id for m in around] == [ours[1].id, ours[2].id, ours[4].id, ours[5].id]
    # Two turns side by side: each comes once, and neither of the two is returned.
    around = scope.messages_around([ours[3], ours[4]], 1)
    assert [m.id for m in around] == [ours[2].id, ours[5].id]
    # At a conversation's ends there is less around; a radius of 0 asks for nothing.
    assert [m.id for m in scope.messages_around([ours[0]], 2)] == [ours[1].id, ours[2].id]
    assert [m.id for m in scope.messages_around([ours[6], others[6]], 1)] == [ours[5].id, others[5].id]
    assert scope.messages_around([ours[3]], 0) == []
    assert scope.messages_around([], 2) == []
    # Another user's scope does not reach this user's turns.
    assert stranger.scope.messages_around([ours[3]], 2) == []


def _opening(memory: Memory) -> list[MessageRow]:
    at = _ts("2023-06-01T18:00:00")
    conv = memory.start_conversation("chat", at=at)
    lines = [
        ("Gina", "Congrats on the dance studio, Jon! The grand opening is tomorrow night."),
        ("Gina", "You deserve every bit of it."),
        ("Jon", "Thanks, Gina! I can hardly wait, it has been a wild ride."),
        ("Jon", "By the way, my cousin is visiting from Lisbon next week."),
        ("Gina", "Lovely, show her the old town."),
        ("Jon", "We might go sailing on the river if the weather holds."),
    ]
    rows = [
        memory.add_message(conv, "user", text, at=at + 10 * n, speaker=speaker, ref=f"t{n}")
        for n, (speaker, text) in enumerate(lines)
    ]
    assert memory.wait_indexed(60)
    return rows


def test_the_turns_around_the_best_match_join_the_candidates(memory: Memory) -> None:
    rows = _opening(memory)
    question = "What did Jon say about the grand opening of the dance studio?"
    asked = _ts("2023-07-01T12:00:00")
    # By keywords alone the turn naming the opening is found, and the next one by its window (the
    # previous turn and itself); the answer two turns on shares no word with the question.
    alone, _ = gather_candidates(
        memory.scope, question, semantic=None, tz=UTC, reference_time=asked, context_radius=0
    )
    assert [c.row.ref for c in alone] == ["t0", "t1"]
    widened, query = gather_candidates(
        memory.scope, question, semantic=None, tz=UTC, reference_time=asked, context_radius=2, context_seeds=1
    )
    near = {c.row.ref: c.near for c in widened}
    # One best candidate (t0, rank 0, share 1): itself, t1 one turn away, t2 two; t3 is too far.
    assert near == {"t0": ((0, 0, 1.0),), "t1": ((0, 1, 1.0),), "t2": ((0, 2, 1.0),)}
    assert rows[2].id == next(c.row.id for c in widened if c.row.ref == "t2")
    # With the speaker prior (the question names Jon) his answer ties the best match.
    ranked = rank_candidates(widened, query, RankWeights(context=0.3, context_radius=2, context_seeds=1), 3)
    assert [hit.message.ref for hit in ranked] == ["t0", "t2", "t1"]
    assert ranked[0].score == ranked[1].score
    alone_weights = RankWeights(speaker=0.0, context=0.3, context_radius=2, context_seeds=1)
    ranked = rank_candidates(widened, query, alone_weights, 3)
    assert [hit.message.ref for hit in ranked] == ["t0", "t1", "t2"]
    assert ranked[2].score == 0.3  # a turn beside the best one ties it at most, by this part alone
    # A radius of 1 in the weights leaves t2 with no share of t0's score.
    ranked = rank_candidates(widened, query, replace(alone_weights, context_radius=1), 3)
    assert ranked[2].message.ref == "t2"
    assert ranked[2].score == 0.0


def test_search_with_the_shipped_weights_returns_the_answer_next_to_the_match(memory: Memory) -> None:
    _opening(memory)
    found = search_messages(
        memory.scope,
        "What did Jon say about the grand opening of the dance studio?",
        semantic=None,
        tz=UTC,
        reference_time=_ts("2023-07-01T12:00:00"),
    )
    assert "t2" in [hit.message.ref for hit in found[:3]]  # Jon's answer: the speaker prior and t0's context
    # Without the context part the answer is not found at all.
    without = search_messages(
        memory.scope,
        "What did Jon say about the grand opening of the dance studio?",
        semantic=None,
        tz=UTC,
        reference_time=_ts("2023-07-01T12:00:00"),
        weights=RankWeights(context=0.0),
    )
    assert [hit.message.ref for hit in without] == ["t0", "t1"]


def _row(item_id: int) -> MessageRow:
    return MessageRow(
        item_id, 1, "user", f"turn {item_id}", "Jon", f"D1:{item_id}", _ts("2023-06-01T18:00:00")
    )


def test_context_share_is_the_best_share_within_the_radius_and_seed_count() -> None:
    candidate = Candidate(_row(5), 0.2, 0.1, False, False, near=((0, 3, 1.0), (1, 1, 0.6), (4, 1, 0.9)))
    assert context_share(candidate, radius=3, seeds=5) == 1.0
    assert context_share(candidate, radius=2, seeds=5) == 0.9
    assert context_share(candidate, radius=2, seeds=2) == 0.6
    assert context_share(candidate, radius=2, seeds=1) == 0.0
    query = Query(None, False, UTC)
    plain = RankWeights(keyword=1.0, vector=1.0, speaker=0.0, date=0.0, when=0.0, context=0.0)
    assert score_candidate(candidate, query, plain) == 0.30000000000000004
    weighted = RankWeights(
        keyword=1.0,
        vector=1.0,
        speaker=0.0,
        date=0.0,
        when=0.0,
        context=0.5,
        context_radius=2,
        context_seeds=2,
    )
    assert score_candidate(candidate, query, weighted) == 0.30000000000000004 + 0.5 * 0.6


def test_cross_validation_scores_the_context_part_as_the_library_does() -> None:
    from test_episodes_ranking import _cv, _query

    cv = _cv()
    weightings = cv.combos(cv.GRID)
    # Without the context part its radius and seed count change nothing: each such weighting once.
    plain = [w for w in weightings if w.context == 0]
    assert {(w.context_radius, w.context_seeds) for w in plain} == {(1, 5)}
    assert len(weightings) == len(set(weightings))
    with_context = {(w.context, w.context_radius, w.context_seeds) for w in weightings if w.context}
    assert len(with_context) == 3 * 3 * 2
    # A question whose answer only the context part reaches: beside the best match, 2 turns away.
    best = Candidate(_row(1), 1.0, 1.0, False, False, near=((0, 0, 1.0),))
    answer = Candidate(_row(3), 0.0, 0.0, False, False, near=((0, 2, 1.0),))
    fillers = [Candidate(_row(10 + n), 0.1, 0.1, False, False) for n in range(10)]
    query = _query("What did Jon say about the opening?")
    item = cv.Item(
        "a", "What did Jon say about the opening?", 4, frozenset({"D1:3"}), query, [best, answer, *fillers]
    )
    matrix = cv.Matrix([item], cv.GRID["date_scale_days"])
    weights = RankWeights(context=0.5, context_radius=2, context_seeds=5)
    assert matrix.scores(weights, [1, 3])["R@3"].tolist() == [1.0]
    assert matrix.scores(replace(weights, context_radius=1), [3])["R@3"].tolist() == [0.0]
    library = rank_candidates(item.candidates, query, weights, 3)
    assert "D1:3" in [hit.message.ref for hit in library]
