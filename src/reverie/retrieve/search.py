"""Keyword search and recent listings over one user's facts, preferences and summaries."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import tzinfo

from reverie.errors import InvalidInput
from reverie.retrieve.episodes import MessageHit
from reverie.retrieve.hybrid import Semantic, hybrid_ranking
from reverie.retrieve.timeutil import date_bounds, parse_period
from reverie.store.base import MemoryFilter, MemoryRow, SummaryRow, UserStore
from reverie.text import keyword_terms


@dataclass(frozen=True)
class SearchHit:
    """A memory found by a search, with its relevance (higher is better)."""

    memory: MemoryRow
    score: float


@dataclass(frozen=True)
class SummaryHit:
    """A conversation summary found by a search."""

    summary: SummaryRow
    score: float


@dataclass(frozen=True)
class SearchResults:
    """What a search found, grouped as in DAWN §9.1.1."""

    query: str
    terms: list[str]
    facts: list[SearchHit] = field(default_factory=list)
    preferences: list[SearchHit] = field(default_factory=list)
    summaries: list[SummaryHit] = field(default_factory=list)
    messages: list[MessageHit] = field(default_factory=list)

    @property
    def total(self) -> int:
        """How many items were found in all groups."""
        return len(self.facts) + len(self.preferences) + len(self.summaries) + len(self.messages)


@dataclass(frozen=True)
class RecentResults:
    """What was learned or discussed within a period."""

    period: str
    since: float
    facts: list[MemoryRow]
    preferences: list[MemoryRow]
    summaries: list[SummaryRow]


def search_memory(
    scope: UserStore,
    query: str,
    *,
    tz: tzinfo,
    date: str | None = None,
    date_from: str | None = None,
    date_to: str | None = None,
    limit: int = 10,
    semantic: Semantic | None = None,
) -> SearchResults:
    """Search facts, preferences and summaries by keywords and/or dates.

    With ``semantic`` the keyword (BM25) hits are fused with vector neighbours of the query;
    without it, or when the embedding provider fails, the ranking is BM25 alone.
    """
    if limit < 1 or limit > 200:
        raise InvalidInput(f"limit must be between 1 and 200, got {limit}")
    start, end = date_bounds(date, date_from, date_to, tz)
    terms = keyword_terms(query)
    dated = start is not None or end is not None
    if not terms and not dated:
        if query.strip():
            # Only common words ("what do you know about me"): answer with the strongest memories.
            return _strongest(scope, query, limit)
        raise InvalidInput("Give keywords to search for, or a date / date_from / date_to")
    if not terms:
        where = MemoryFilter(created_from=start, created_to=end, limit=limit, order="recent")
        return SearchResults(
            query,
            terms,
            [SearchHit(m, 0.0) for m in scope.list_memories(_kind(where, "fact"))],
            [SearchHit(m, 0.0) for m in scope.list_memories(_kind(where, "preference"))],
            [
                SummaryHit(s, 0.0)
                for s in scope.list_summaries(created_from=start, created_to=end, limit=limit)
            ],
        )
    pool = limit * 3
    pending = semantic.start_query(query) if semantic is not None and terms else None
    keyword_memories = scope.search_memories(terms, created_from=start, created_to=end, limit=pool)
    keyword_summaries = scope.search_summaries(terms, created_from=start, created_to=end, limit=limit)
    if semantic is None or pending is None:
        facts = [SearchHit(m, s) for m, s in keyword_memories if m.kind == "fact"][:limit]
        prefs = [SearchHit(m, s) for m, s in keyword_memories if m.kind == "preference"][:limit]
        return SearchResults(query, terms, facts, prefs, [SummaryHit(s, sc) for s, sc in keyword_summaries])
    vector = pending()

    def in_range(created: float) -> bool:
        return (start is None or created >= start) and (end is None or created < end)

    ranked = hybrid_ranking(
        semantic, scope, "memory", vector, [(m.id, sc) for m, sc in keyword_memories], pool=pool
    )
    rows = {m.id: m for m in scope.get_memories([item_id for item_id, _ in ranked])}
    hits = [SearchHit(rows[i], sc) for i, sc in ranked if i in rows and in_range(rows[i].created_at)]
    ranked_s = hybrid_ranking(
        semantic, scope, "summary", vector, [(x.id, sc) for x, sc in keyword_summaries], pool=limit
    )
    summary_rows = {x.id: x for x in scope.get_summaries([item_id for item_id, _ in ranked_s])}
    summaries = [
        SummaryHit(summary_rows[i], sc)
        for i, sc in ranked_s
        if i in summary_rows and in_range(summary_rows[i].created_at)
    ]
    return SearchResults(
        query,
        terms,
        [h for h in hits if h.memory.kind == "fact"][:limit],
        [h for h in hits if h.memory.kind == "preference"][:limit],
        summaries[:limit],
    )


def _kind(where: MemoryFilter, kind: str) -> MemoryFilter:
    return MemoryFilter(
        kinds=("fact",) if kind == "fact" else ("preference",),
        created_from=where.created_from,
        created_to=where.created_to,
        limit=where.limit,
        order=where.order,
    )


def _strongest(scope: UserStore, query: str, limit: int) -> SearchResults:
    where = MemoryFilter(limit=limit, order="confidence")
    return SearchResults(
        query,
        [],
        [SearchHit(m, 0.0) for m in scope.list_memories(_kind(where, "fact"))],
        [SearchHit(m, 0.0) for m in scope.list_memories(_kind(where, "preference"))],
        [SummaryHit(s, 0.0) for s in scope.list_summaries(limit=min(limit, 3))],
    )


def recent_memory(scope: UserStore, period: str, *, now: float, limit: int = 50) -> RecentResults:
    """Facts, preferences and summaries created within ``period`` ("24h", "7d", "2w" ...)."""
    since = now - parse_period(period).total_seconds()
    where = MemoryFilter(created_from=since, limit=limit, order="recent")
    return RecentResults(
        period,
        since,
        scope.list_memories(_kind(where, "fact")),
        scope.list_memories(_kind(where, "preference")),
        scope.list_summaries(created_from=since, limit=limit),
    )


__all__ = [
    "MessageHit",
    "RecentResults",
    "SearchHit",
    "SearchResults",
    "SummaryHit",
    "recent_memory",
    "search_memory",
]
