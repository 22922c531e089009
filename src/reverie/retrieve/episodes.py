"""Episodic search: the turns of past conversations, by keywords, meaning, speaker and time.

Each turn is indexed four ways: keywords of the turn (``speaker: text``) and of its window
(the previous turn of the same conversation and this one), and vectors of the dated turn
(``[8 May 2023] speaker: text``) and of its window (previous, this and next turn): the window's
vector is the mean of those turns' vectors weighted by their lengths, so each turn is embedded
once. Embedding the window's text as well cost three turns' worth of tokens again for no
recall (LoCoMo dev, all-in R@5 / R@10: 0.711 / 0.802 embedded, 0.712 / 0.806 as a mean). An
answer is very often a reply to the question just before it, so the window carries words the
turn itself lacks. A query then scores each candidate turn as

    0.5 * keyword + 0.5 * vector + 0.5 * speaker + 0.8 * date + 0.1 * when + 0.5 * context

* keyword = bm25(turn)/max + bm25(window)/max over the top 50 of each, min-max normalised;
* vector = cos(turn) + cos(window) over all turns, top 50, min-max normalised;
* speaker = 1 when the query names exactly one known speaker and the turn is theirs;
* date = closeness of the turn's day to a time expression in the query ("in May 2023",
  "last Thursday", "the week before 9 June" relative to the reference time): exp(-days
  outside the window / 3.5) for a day, / 15 for a month; inside-or-not for a year;
* when = 1 when the query asks for a time ("When did ...") and the turn names one
  ("yesterday", "last week", "in 2022", "the week after the trip");
* context = for a turn up to ``CONTEXT_RADIUS`` turns before or after one of the
  ``CONTEXT_SEEDS`` best candidates by keyword + vector (unweighted) in its conversation, or
  one of them itself, that candidate's keyword + vector over the best one's (the largest, if
  several). An answer often
  sits a few turns away from the words the question shares with the conversation ("How does
  Jon feel about the opening night?": Gina speaks of the launch, Jon answers "I'm excited"),
  so the turns around the best matches join the candidates and share in their score.

The weights are those most held-out folds chose in ``bench/locomo_retrieval.py``'s
cross-validation (tuned on two LoCoMo development conversations, scored on the third). Two
rules are built and measured but off by default, as they did not help there: event dates
(``RankWeights.event_dates``) and a second round from the entities of the best hits
(``RankWeights.expand``).

Speakers' names are dropped from the keyword query: they occur in most rows, cost FTS time
and add no recall, and the speaker term already uses them.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from reverie.retrieve.hybrid import Semantic
from reverie.retrieve.timeexpr import (
    TimeWindow,
    asks_when,
    find_time_window,
    find_time_windows,
    mentions_time,
)
from reverie.store.base import MessageRow, UserStore
from reverie.text import STOPWORDS, keyword_terms, words

# Every weight below is what most leave-one-conversation-out folds chose on LoCoMo's development
# split (tuned on two conversations, scored on the third) once the context part was in the grid;
# before it: keyword 0.6 / vector 0.4, "when" 0.5.
KEYWORD_WEIGHT = 0.5
VECTOR_WEIGHT = 0.5
SPEAKER_WEIGHT = 0.5
DATE_WEIGHT = 0.8
CANDIDATES = 50
# The turns around the best few candidates (see the module docstring).
CONTEXT_WEIGHT = 0.5
CONTEXT_RADIUS = 3
CONTEXT_SEEDS = 5
KEYWORD_MIN_SPAN = 0.5  # keyword scores are a sum of two ratios, 0..2
VECTOR_MIN_SPAN = 0.2  # vector scores are a sum of two cosines
DAY = 86400.0
DATE_SCALE_DAYS = 3.5  # a day-sized window: the date part halves about every 2.4 days outside it
MONTH_SCALE = 30.0 / 7.0  # a month-sized window decays over months, not days
# A turn's date is also each date its words name ("yesterday", "in 2022"): measured, and off,
# because most folds do not choose it (LoCoMo dev, cross-validated R@5 / R@10 with the context
# part: 0.738 / 0.826 forced on, 0.740 / 0.826 off; before it 0.706 / 0.795 and 0.709 / 0.797).
EVENT_DATES = False
WHEN_WEIGHT = 0.1  # bonus for a turn naming a time, when the query asks "when"
# Weight of the second round (entities of the first round's best hits): off, as it did not help
# under cross-validation (with the context part two folds of three pick 0.1, for the same
# 0.740 / 0.826 as without it; before it 0.705 / 0.796 against 0.709 / 0.797).
EXPAND_WEIGHT = 0.0
EXPAND_SEEDS = 3
EXPAND_TERMS = 8
_ENTITY = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:[A-Z][a-z]+)?)\b")


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


def window_vector(turns: Iterable[tuple[str, npt.NDArray[np.float32]]]) -> npt.NDArray[np.float32]:
    """The window's vector from its turns' (text, vector) pairs (previous, this, next).

    Their mean weighted by each text's length, scaled to unit length: embedding the three turns
    as one text pools over their tokens, so a long turn weighs more than a short one there too.
    """
    pairs = list(turns)
    weights = np.array([max(len(text), 1) for text, _ in pairs], dtype=np.float32)
    total: npt.NDArray[np.float32] = (
        np.stack([v for _, v in pairs]).astype(np.float32) * weights[:, None]
    ).sum(axis=0)
    norm = float(np.linalg.norm(total))
    return total / np.float32(norm) if norm > 0 else total


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


def date_closeness(at: float, window: TimeWindow, scale_days: float = DATE_SCALE_DAYS) -> float:
    """1 inside the window, decaying with the days outside it (by day, month or year scale)."""
    return _closeness(at, at, window, scale_days)


def _closeness(first: float, last: float, window: TimeWindow, scale_days: float) -> float:
    """How well the span [first, last] agrees with the window: 1 if they meet, else exp(-days apart / scale).

    A month-long window uses a scale ``MONTH_SCALE`` times longer; a longer one counts only
    when they meet.
    """
    if first < window.end and last >= window.start:
        return 1.0
    length_days = (window.end - window.start) / DAY
    if length_days > 62:
        return 0.0
    outside = (window.start - last if last < window.start else first - window.end) / DAY
    scale = scale_days if length_days <= 8 else scale_days * MONTH_SCALE
    return math.exp(-outside / scale)


@lru_cache(maxsize=65536)
def turn_event_windows(content: str, at: float, tz: tzinfo) -> tuple[TimeWindow, ...]:
    """The dates a turn's words name ("yesterday", "in 2022"), resolved against the turn's own time."""
    return tuple(find_time_windows(content, at, tz))


@lru_cache(maxsize=65536)
def _turn_mentions_time(content: str) -> bool:
    return mentions_time(content)


@dataclass(frozen=True)
class RankWeights:
    """The tunable parts of the turn score (bench/locomo_retrieval.py picks them by cross-validation)."""

    keyword: float = KEYWORD_WEIGHT
    vector: float = VECTOR_WEIGHT
    speaker: float = SPEAKER_WEIGHT
    date: float = DATE_WEIGHT
    date_scale_days: float = DATE_SCALE_DAYS
    event_dates: bool = EVENT_DATES
    when: float = WHEN_WEIGHT
    expand: float = EXPAND_WEIGHT
    context: float = CONTEXT_WEIGHT
    context_radius: int = CONTEXT_RADIUS
    context_seeds: int = CONTEXT_SEEDS


@dataclass(frozen=True, slots=True)
class Candidate:
    """One turn a query could return, with each part of its score before weighting."""

    row: MessageRow
    keyword: float
    vector: float
    speaker: bool
    mentions_time: bool
    expanded: float = 0.0
    #: (rank of a best candidate, turns away from it, its share) for each best candidate nearby,
    #: itself included (0 turns away)
    near: tuple[tuple[int, int, float], ...] = ()


@dataclass(frozen=True)
class Query:
    """What a query asks beyond its words: a period, and whether it asks "when"."""

    window: TimeWindow | None
    asks_when: bool
    tz: tzinfo


def date_agreement(candidate: Candidate, query: Query, weights: RankWeights) -> float:
    window = query.window
    if window is None:
        return 0.0
    at = candidate.row.created_at
    best = _closeness(at, at, window, weights.date_scale_days)
    if weights.event_dates and best < 1.0:
        for event in turn_event_windows(candidate.row.content, at, query.tz):
            best = max(best, _closeness(event.start, event.end - 1.0, window, weights.date_scale_days))
    return best


def context_share(candidate: Candidate, radius: int, seeds: int) -> float:
    """The best share of the ``seeds`` best candidates at most ``radius`` turns from this one, else 0."""
    return max(
        (share for rank, away, share in candidate.near if rank < seeds and away <= radius), default=0.0
    )


def score_candidate(candidate: Candidate, query: Query, weights: RankWeights) -> float:
    """The weighted sum of a candidate's parts (see the module docstring)."""
    score = weights.keyword * candidate.keyword + weights.vector * candidate.vector
    score += weights.expand * candidate.expanded
    if weights.context and candidate.near:
        score += weights.context * context_share(candidate, weights.context_radius, weights.context_seeds)
    if candidate.speaker:
        score += weights.speaker
    if weights.date:
        score += weights.date * date_agreement(candidate, query, weights)
    if query.asks_when and candidate.mentions_time:
        score += weights.when
    return score


def rank_candidates(
    candidates: Iterable[Candidate], query: Query, weights: RankWeights, limit: int
) -> list[MessageHit]:
    """The best ``limit`` candidates under ``weights``, best first."""
    hits = [MessageHit(c.row, score_candidate(c, query, weights)) for c in candidates]
    hits.sort(key=lambda hit: (-hit.score, hit.message.id))
    return hits[:limit]


def gather_candidates(
    scope: UserStore,
    query: str,
    *,
    semantic: Semantic | None,
    tz: tzinfo,
    reference_time: float,
    created_from: float | None = None,
    created_to: float | None = None,
    context_radius: int = CONTEXT_RADIUS,
    context_seeds: int = CONTEXT_SEEDS,
) -> tuple[list[Candidate], Query]:
    """The turns a query's keywords or meaning reach, with the unweighted parts of their score.

    The turns up to ``context_radius`` places around the ``context_seeds`` best of them join
    (``Candidate.near``; a radius of 0 adds none).
    """
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
    when = asks_when(query)
    found = []
    for item_id in sorted(candidates):
        row = rows.get(item_id)
        if row is None or not _in_range(row, created_from, created_to):
            continue
        found.append(
            Candidate(
                row,
                keyword.get(item_id, 0.0),
                vector.get(item_id, 0.0),
                speaker is not None and row.speaker == speaker,
                when and _turn_mentions_time(row.content),  # only a "when" question uses it
            )
        )
    found = _with_context(
        scope, found, context_radius, context_seeds, speaker, when, created_from, created_to
    )
    return found, Query(find_time_window(query, reference_time, tz), when, tz)


def _with_context(
    scope: UserStore,
    found: list[Candidate],
    radius: int,
    seeds: int,
    speaker: str | None,
    when: bool,
    created_from: float | None,
    created_to: float | None,
) -> list[Candidate]:
    """``found`` with each turn's ``near`` filled in, and the turns around the best ones added."""
    if radius < 1 or seeds < 1 or not found:
        return found
    base = {c.row.id: c.keyword + c.vector for c in found}
    best = sorted(found, key=lambda c: (-base[c.row.id], c.row.id))[:seeds]
    top = base[best[0].row.id]
    if top <= 0:
        return found
    around = scope.messages_around([c.row for c in best], radius)
    rows = {c.row.id: c.row for c in found} | {row.id: row for row in around}
    places: dict[int, list[int]] = {}  # each conversation's turns at hand, in order
    for row in rows.values():
        places.setdefault(row.conversation_id, []).append(row.id)
    position = {item: at for ids in places.values() for at, item in enumerate(sorted(ids))}
    near: dict[int, list[tuple[int, int, float]]] = {}
    for rank, seed in enumerate(best):
        for item in places[seed.row.conversation_id]:
            away = abs(position[item] - position[seed.row.id])
            if away <= radius:  # itself too: a turn beside the best one ties it, never passes it by this
                near.setdefault(item, []).append((rank, away, base[seed.row.id] / top))
    out = [replace(c, near=tuple(near.get(c.row.id, ()))) for c in found]
    for row in around:
        if row.id not in base and row.id in near and _in_range(row, created_from, created_to):
            out.append(_joined(row, speaker, when, near=tuple(near[row.id])))
    return out


def _joined(
    row: MessageRow,
    speaker: str | None,
    when: bool,
    expanded: float = 0.0,
    near: tuple[tuple[int, int, float], ...] = (),
) -> Candidate:
    """A turn only another part found (the context, the second round): no keyword or vector score."""
    named = speaker is not None and row.speaker == speaker
    return Candidate(row, 0.0, 0.0, named, when and _turn_mentions_time(row.content), expanded, near)


def _in_range(row: MessageRow, created_from: float | None, created_to: float | None) -> bool:
    return (created_from is None or row.created_at >= created_from) and (
        created_to is None or row.created_at < created_to
    )


def entity_terms(rows: Iterable[MessageRow], exclude: set[str]) -> list[str]:
    """People, places and things in ``rows``: capitalised words inside a sentence, then the keywords
    most of the rows share, at most ``EXPAND_TERMS``."""
    names: dict[str, None] = {}
    counts: Counter[str] = Counter()
    for row in rows:
        for match in _ENTITY.finditer(row.content):
            term = match.group(1).lower()
            if term not in exclude and term not in STOPWORDS and len(term) > 2:
                names[term] = None
        counts.update(t for t in dict.fromkeys(keyword_terms(row.content)) if t not in exclude and len(t) > 2)
    ranked = list(names) + [term for term, _ in counts.most_common() if term not in names]
    return ranked[:EXPAND_TERMS]


def expand_candidates(
    scope: UserStore,
    candidates: list[Candidate],
    query: Query,
    first: list[MessageHit],
    query_text: str,
    *,
    created_from: float | None = None,
    created_to: float | None = None,
) -> list[Candidate]:
    """A second round: turns that share the entities of the first round's best hits.

    The names in the top ``EXPAND_SEEDS`` hits (other than the speakers' and the query's own)
    are searched by keyword; each turn's share of that search is its ``expanded`` part, and
    turns only the second round found join the candidates.
    """
    speakers = scope.message_speakers()
    exclude = {w for s in speakers for w in words(s)} | set(keyword_terms(query_text))
    terms = entity_terms([hit.message for hit in first[:EXPAND_SEEDS]], exclude)
    if not terms:
        return candidates
    hits = scope.search_messages(
        terms, created_from=created_from, created_to=created_to, limit=CANDIDATES, windows=False
    )
    best = max((score for _, score in hits), default=0.0)
    if best <= 0:
        return candidates
    seeds = {hit.message.id for hit in first[:EXPAND_SEEDS]}
    second = {row.id: score / best for row, score in hits if row.id not in seeds}
    known = {c.row.id for c in candidates}
    speaker = named_speaker(query_text, speakers)
    out = [replace(c, expanded=second.get(c.row.id, 0.0)) for c in candidates]
    for row, _ in hits:
        if row.id in second and row.id not in known and _in_range(row, created_from, created_to):
            out.append(_joined(row, speaker, query.asks_when, expanded=second[row.id]))
    return out


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
    weights: RankWeights | None = None,
) -> list[MessageHit]:
    """Turns best matching ``query``, best first (see the module docstring for the score)."""
    weights = weights or RankWeights()
    candidates, parsed = gather_candidates(
        scope,
        query,
        semantic=semantic,
        tz=tz,
        reference_time=reference_time,
        created_from=created_from,
        created_to=created_to,
        context_radius=weights.context_radius if weights.context else 0,
        context_seeds=weights.context_seeds,
    )
    if weights.expand:
        first = rank_candidates(candidates, parsed, weights, EXPAND_SEEDS)
        candidates = expand_candidates(
            scope, candidates, parsed, first, query, created_from=created_from, created_to=created_to
        )
    return rank_candidates(candidates, parsed, weights, limit)


__all__ = [
    "Candidate",
    "MessageHit",
    "Query",
    "RankWeights",
    "context_share",
    "date_agreement",
    "date_closeness",
    "entity_terms",
    "expand_candidates",
    "gather_candidates",
    "rank_candidates",
    "score_candidate",
    "turn_event_windows",
    "day_label",
    "named_speaker",
    "search_messages",
    "turn_line",
    "turn_vector_text",
    "window_keyword_text",
    "window_vector",
]
