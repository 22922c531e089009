"""Episodic search: the turns of past conversations, by keywords, meaning, speaker and time.

The method was chosen on one LoCoMo development conversation and checked on two others it
was not tuned on (bench/research/README.md); ``bench/locomo_retrieval.py`` measures it.

Each turn is indexed four ways: keywords of the turn (``speaker: text``) and of its window
(the previous turn of the same conversation and this one), and vectors of the dated turn
(``[8 May 2023] speaker: text``) and of its dated window (previous, this and next turn). An
answer is very often a reply to the question just before it, so the window carries words the
turn itself lacks. A query then scores each candidate turn as

    0.5 * keyword + 0.5 * vector + 0.2 * speaker + 0.2 * date

* keyword = bm25(turn)/max + bm25(window)/max over the top 50 of each, min-max normalised;
* vector = cos(turn) + cos(window) over all turns, top 50, min-max normalised;
* speaker = 1 when the query names exactly one known speaker and the turn is theirs;
* date = closeness of the turn's day to a time expression in the query ("in May 2023",
  "last Thursday" relative to the reference time): exp(-days outside the window / 7) for a
  day, / 30 for a month; inside-or-not for a year.

Speakers' names are dropped from the keyword query: they occur in most rows, cost FTS time
and add no recall, and the speaker term already uses them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, tzinfo

import numpy as np
import numpy.typing as npt

from reverie.retrieve.hybrid import Semantic
from reverie.retrieve.timeexpr import TimeWindow, find_time_window
from reverie.store.base import MessageRow, UserStore
from reverie.text import keyword_terms, words

KEYWORD_WEIGHT = 0.5
VECTOR_WEIGHT = 0.5
SPEAKER_WEIGHT = 0.2
DATE_WEIGHT = 0.2
CANDIDATES = 50
KEYWORD_MIN_SPAN = 0.5  # keyword scores are a sum of two ratios, 0..2
VECTOR_MIN_SPAN = 0.2  # vector scores are a sum of two cosines
DAY = 86400.0


@dataclass(frozen=True)
class MessageHit:
    """A conversation turn found by a search."""

    message: MessageRow
    score: float


def turn_line(content: str, speaker: str | None, role: str) -> str:
    """One turn as a line: ``speaker: text``."""
    return f"{speaker or role}: {content}"


def day_label(at: float, tz: tzinfo) -> str:
    """The day of a turn as people write it: ``8 May 2023``."""
    when = datetime.fromtimestamp(at, tz)
    return f"{when.day} {when.strftime('%B %Y')}"


def window_keyword_text(previous: MessageRow | None, row: MessageRow) -> str:
    """Keyword text of a turn's window: the previous turn and this one."""
    lines = [turn_line(m.content, m.speaker, m.role) for m in (previous, row) if m is not None]
    return "\n".join(lines)


def turn_vector_text(row: MessageRow, tz: tzinfo) -> str:
    """What is embedded for the turn itself."""
    return f"[{day_label(row.created_at, tz)}] {turn_line(row.content, row.speaker, row.role)}"


def window_vector_text(
    previous: MessageRow | None, row: MessageRow, following: MessageRow | None, tz: tzinfo
) -> str:
    """What is embedded for the turn's window: the previous, this and the next turn, dated."""
    lines = [turn_line(m.content, m.speaker, m.role) for m in (previous, row, following) if m is not None]
    return f"[{day_label(row.created_at, tz)}] " + "\n".join(lines)


def _min_max(scores: dict[int, float], min_span: float) -> dict[int, float]:
    """Scale to 0..1 over the candidates; a span below ``min_span`` is not blown up to a full point.

    With a handful of candidates (a new user's first conversations) plain min-max would turn
    a hair's difference in cosine into the whole vector score.
    """
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    span = max(high - low, min_span)
    return {k: (v - low) / span if span > 0 else 1.0 for k, v in scores.items()}


def _keyword_scores(
    scope: UserStore, terms: list[str], created_from: float | None, created_to: float | None
) -> dict[int, float]:
    combined: dict[int, float] = {}
    for windows in (False, True):
        hits = scope.search_messages(
            terms, created_from=created_from, created_to=created_to, limit=CANDIDATES, windows=windows
        )
        best = max((score for _, score in hits), default=0.0)
        for row, score in hits:
            if best > 0:
                combined[row.id] = combined.get(row.id, 0.0) + score / best
    return combined


def _vector_scores(
    scope: UserStore, semantic: Semantic, vector: npt.NDArray[np.float32] | None
) -> dict[int, float]:
    if vector is None:
        return {}
    model = semantic.service.model_id
    ids, own = semantic.index.scores(scope, "message", model, vector)
    if len(ids) == 0:
        return {}
    total = own.copy()
    window_ids, window = semantic.index.scores(scope, "message_window", model, vector)
    if len(window_ids):
        where = np.searchsorted(ids, window_ids)
        where = np.clip(where, 0, len(ids) - 1)
        match = ids[where] == window_ids
        total[where[match]] += window[match]
    count = min(CANDIDATES, len(ids))
    top = np.argpartition(-total, count - 1)[:count]
    return {int(ids[i]): float(total[i]) for i in top}


def named_speaker(query: str, speakers: list[str]) -> str | None:
    """The one known speaker the query names (first name, or a prefix of 3+ letters), if exactly one."""
    tokens = set(words(query))
    named = set()
    for speaker in speakers:
        first = (words(speaker) or [""])[0]
        if first and any(t == first or (len(t) >= 3 and first.startswith(t)) for t in tokens):
            named.add(speaker)
    return named.pop() if len(named) == 1 else None


def date_closeness(at: float, window: TimeWindow) -> float:
    """1 inside the window, decaying with the days outside it (by day, month or year scale)."""
    if window.start <= at < window.end:
        return 1.0
    length_days = (window.end - window.start) / DAY
    if length_days > 62:
        return 0.0
    outside = (window.start - at if at < window.start else at - window.end) / DAY
    scale = 7.0 if length_days <= 8 else 30.0
    return math.exp(-outside / scale)


def search_messages(
    scope: UserStore,
    query: str,
    *,
    semantic: Semantic | None,
    tz: tzinfo,
    reference_time: float,
    created_from: float | None = None,
    created_to: float | None = None,
    limit: int = 10,
) -> list[MessageHit]:
    """Turns best matching ``query``, best first (see the module docstring for the score)."""
    speakers = scope.message_speakers()
    names = {w for s in speakers for w in words(s)}
    terms = [t for t in keyword_terms(query) if t not in names]
    pending = semantic.start_query(query) if semantic is not None else None
    keyword = _min_max(_keyword_scores(scope, terms, created_from, created_to), KEYWORD_MIN_SPAN)
    vector: dict[int, float] = {}
    if semantic is not None and pending is not None:
        vector = _min_max(_vector_scores(scope, semantic, pending()), VECTOR_MIN_SPAN)
    candidates = set(keyword) | set(vector)
    rows = {m.id: m for m in scope.get_messages(sorted(candidates))}
    speaker = named_speaker(query, speakers)
    window = find_time_window(query, reference_time, tz)
    hits = []
    for item_id in candidates:
        row = rows.get(item_id)
        if row is None:
            continue
        if (created_from is not None and row.created_at < created_from) or (
            created_to is not None and row.created_at >= created_to
        ):
            continue
        score = KEYWORD_WEIGHT * keyword.get(item_id, 0.0) + VECTOR_WEIGHT * vector.get(item_id, 0.0)
        if speaker is not None and row.speaker == speaker:
            score += SPEAKER_WEIGHT
        if window is not None:
            score += DATE_WEIGHT * date_closeness(row.created_at, window)
        hits.append(MessageHit(row, score))
    hits.sort(key=lambda hit: (-hit.score, hit.message.id))
    return hits[:limit]


__all__ = [
    "MessageHit",
    "date_closeness",
    "day_label",
    "named_speaker",
    "search_messages",
    "turn_line",
    "turn_vector_text",
    "window_keyword_text",
    "window_vector_text",
]
