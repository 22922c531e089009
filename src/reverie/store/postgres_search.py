"""Keyword queries for PostgreSQL: tsquery from plain terms, ranked by BM25 as SQLite's FTS5 does.

FTS5's ``bm25()`` is Okapi BM25 (k1 1.2, b 0.75) with per-column weights and an IDF of
``ln((N - n + 0.5) / (n + 0.5))`` floored at 1e-6. The same formula runs here in SQL over the
rows that match, with weighted term frequencies read from the tsvector positions (weights A-D
stand for the columns) and N, n and the average length taken over the rows in scope (one
user's, for per-user tables), so scores and orderings match the SQLite engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reverie.store.dialect import KeywordIndex, match_groups

K1 = 1.2
B = 0.75
_TERM = "phraseto_tsquery('reverie', ?)"
_OWN = "t.user_id = ?"
_SHARED_OR_OWN = "t.document_id IN (SELECT id FROM documents WHERE owner_id IS NULL OR owner_id = ?)"


def match_query(terms: Sequence[str], min_match: int | None = None) -> tuple[str, list[Any]]:
    """A tsquery expression matching any term, or at least ``min_match`` of them (as the SQLite engine)."""
    groups = match_groups(terms, min_match)
    parts = [" && ".join([_TERM] * len(group)) for group in groups]
    if len(groups) > 1 and len(groups[0]) > 1:  # all but one: an OR of AND-groups
        parts = [f"({part})" for part in parts]
    return "(" + " || ".join(parts) + ")", [term for group in groups for term in group]


# index: table, tsvector column, its length, weights (A-D) as FTS5 weighs the columns, the rows in
# scope (a condition on ``t`` taking the owner), tokens added to every length (FTS5 counts the
# owner column's too; chunks_fts has none)
_INDEXES: dict[KeywordIndex, tuple[str, str, str, tuple[float, float, float, float], str, int]] = {
    "memories": ("memories", "tsv", "doclen", (1.0, 0.5, 0.0, 0.0), _OWN, 1),  # text, key
    "summaries": ("summaries", "tsv", "doclen", (1.0, 1.0, 0.0, 0.0), _OWN, 1),  # text, topics
    "messages": ("messages", "search_tsv", "search_len", (1.0, 1.0, 1.0, 1.0), _OWN, 1),
    "message_windows": ("messages", "window_tsv", "window_len", (1.0, 1.0, 1.0, 1.0), _OWN, 1),
    # text, heading, file title; shared documents and the viewer's own
    "chunks": ("chunks", "tsv", "doclen", (1.0, 0.6, 0.4, 0.0), _SHARED_OR_OWN, 0),
}


def ranked(
    index: KeywordIndex, owner: int, terms: Sequence[str], min_match: int | None = None
) -> tuple[str, list[Any]]:
    """``WITH`` clauses ending in ``ranked(id, score)``: rows of ``index`` matching, BM25 score.

    The rows in scope (the owner's; for chunks the shared ones and the owner's) bound both the
    matches and the statistics.
    """
    table, tsv, length, weights, scope, extra = _INDEXES[index]
    match_params: list[Any] = []
    if min_match is None:  # any term: built from q below, so the statement text never varies
        match = "(SELECT reverie_or(q.tq) FROM q WHERE numnode(q.tq) > 0)"
    else:
        match, match_params = match_query(terms, min_match)
    sql = (
        "WITH q AS MATERIALIZED (SELECT u.i, phraseto_tsquery('reverie', u.t) AS tq,"
        " tsvector_to_array(to_tsvector('reverie', u.t)) AS lex"
        " FROM unnest(?::text[]) WITH ORDINALITY AS u(t, i)),"
        f" hits AS MATERIALIZED (SELECT t.id, t.{tsv} AS tsv, t.{length} + {extra} AS len"
        f" FROM {table} t WHERE {scope} AND t.{tsv} @@ {match}),"
        f" stats AS MATERIALIZED (SELECT COUNT(*)::float8 AS n,"
        f" COALESCE(AVG(t.{length} + {extra}), 0)::float8 AS avgdl FROM {table} t WHERE {scope}),"
        " idf AS MATERIALIZED (SELECT q.i, q.tq, q.lex,"
        " GREATEST(LN((s.n - c.hits + 0.5) / (c.hits + 0.5)), 1e-6) AS idf"
        " FROM q CROSS JOIN stats s CROSS JOIN LATERAL"
        " (SELECT COUNT(*)::float8 AS hits FROM hits h WHERE h.tsv @@ q.tq) c),"
        " ranked AS (SELECT h.id, SUM(idf.idf * f.tf * ?::float8"
        " / (f.tf + ?::float8 * (1 - ?::float8 + ?::float8 * h.len / GREATEST(s.avgdl, 1e-9)))) AS score"
        " FROM hits h CROSS JOIN stats s JOIN idf ON h.tsv @@ idf.tq"
        " CROSS JOIN LATERAL (SELECT COALESCE(SUM(CASE w WHEN 'A' THEN ?::float8 WHEN 'B' THEN ?::float8"
        " WHEN 'C' THEN ?::float8 ELSE ?::float8 END), 0) / GREATEST(cardinality(idf.lex), 1) AS tf"
        " FROM unnest(h.tsv) AS x(lexeme, positions, weights), unnest(x.weights) AS w"
        " WHERE x.lexeme = ANY(idf.lex)) f"
        " GROUP BY h.id)"
    )
    params: list[Any] = [
        list(terms),
        owner,
        *match_params,
        owner,
        K1 + 1,
        K1,
        B,
        B,
        *weights,
    ]
    return sql, params


__all__ = ["match_query", "ranked"]
