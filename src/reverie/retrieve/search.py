"""Keyword search and recent listings over one user's facts, preferences and summaries."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import tzinfo

from reverie.errors import InvalidInput
from reverie.retrieve.text import keyword_terms
from reverie.retrieve.timeutil import date_bounds, parse_period
from reverie.store.base import MemoryFilter, MemoryRow, SummaryRow, UserStore


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

    @property
    def total(self) -> int:
        """How many items were found in all groups."""
        return len(self.facts) + len(self.preferences) + len(self.summaries)


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
) -> SearchResults:
    """Search facts, preferences and summaries by keywords and/or dates, BM25-ranked."""
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
    facts_and_prefs = scope.search_memories(terms, created_from=start, created_to=end, limit=limit * 2)
    facts = [SearchHit(m, s) for m, s in facts_and_prefs if m.kind == "fact"][:limit]
    prefs = [SearchHit(m, s) for m, s in facts_and_prefs if m.kind == "preference"][:limit]
    summaries = scope.search_summaries(terms, created_from=start, created_to=end, limit=limit)
    return SearchResults(query, terms, facts, prefs, [SummaryHit(s, score) for s, score in summaries])


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
    "RecentResults",
    "SearchHit",
    "SearchResults",
    "SummaryHit",
    "recent_memory",
    "search_memory",
]
