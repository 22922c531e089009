"""One user's conversation summaries and base memory, written once for both engines."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from operator import attrgetter

from reverie.store.dialect import RowReader, UserPart, column_list, insert_sql, time_range
from reverie.store.rows import NewSummary, SummaryRow

_GIVEN = tuple(column.name for column in fields(NewSummary) if column.name not in ("topics", "created_at"))
_INSERT = insert_sql("summaries", (*_GIVEN, "topics", "created_at", "user_id"))
_given = attrgetter(*_GIVEN)
summary_row = RowReader(SummaryRow, topics=lambda topics: list(json.loads(topics or "[]")))
_PREFIXED = column_list(SummaryRow, "s.")


class Summaries(UserPart):
    """One user's conversation summaries and base memory."""

    def insert_summary(self, summary: NewSummary, now: float) -> SummaryRow:
        """Insert a conversation summary."""
        created = summary.created_at if summary.created_at is not None else now
        values = (*_given(summary), json.dumps(summary.topics), created, self.user_id)
        row = self.db.write_one(summary_row, _INSERT, values)
        assert row is not None
        return row

    def list_summaries(
        self,
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[SummaryRow]:
        """Summaries, newest first."""
        extra, params = time_range("s.created_at", created_from, created_to)
        return self.db.select(
            summary_row,
            f"FROM summaries s WHERE s.user_id = ?{extra}"
            " ORDER BY s.created_at DESC, s.id DESC LIMIT ? OFFSET ?",
            [self.user_id, *params, limit, offset],
        )

    def search_summaries(
        self,
        terms: Sequence[str],
        *,
        created_from: float | None = None,
        created_to: float | None = None,
        limit: int = 10,
    ) -> list[tuple[SummaryRow, float]]:
        """Summaries matching any term in text or topics, best first."""
        if not terms:
            return []
        ctes, params = self.db.ranked("summaries", self.user_id, terms)
        extra, dates = time_range("s.created_at", created_from, created_to)
        rows = self.db.rows(
            f"{ctes} SELECT {_PREFIXED}, r.score FROM ranked r JOIN summaries s ON s.id = r.id"
            f" WHERE s.user_id = ?{extra} ORDER BY r.score DESC, s.created_at DESC, s.id DESC LIMIT ?",
            [*params, self.user_id, *dates, limit],
        )
        return [(summary_row(row), float(row["score"])) for row in rows]

    def delete_summaries(self, summary_ids: Sequence[int]) -> int:
        """Delete summaries for good."""
        return self.db.run_among(
            "DELETE FROM summaries WHERE +user_id = ? AND {among}", "id", summary_ids, (self.user_id,)
        )

    def get_summaries(self, summary_ids: Sequence[int]) -> list[SummaryRow]:
        """The summaries with these ids that belong to this user."""
        return self._owned(summary_row, "summaries", summary_ids)

    def unincorporated_summaries(self) -> list[SummaryRow]:
        """Summaries not yet distilled into the base memory, oldest first."""
        return self.db.select(
            summary_row,
            f"FROM summaries WHERE user_id = ? AND {self.db.is_false('incorporated')}"
            " ORDER BY created_at, id",
            (self.user_id,),
        )

    def mark_incorporated(self, summary_ids: Sequence[int]) -> None:
        """Record that these summaries are part of the base memory now."""
        self.db.run_among(
            "UPDATE summaries SET incorporated = ? WHERE +user_id = ? AND {among}",
            "id",
            summary_ids,
            (True, self.user_id),
        )

    def count_summaries(self) -> int:
        """How many summaries this user has."""
        return int(self.db.value("SELECT COUNT(*) FROM summaries WHERE user_id = ?", (self.user_id,)))

    # base memory -------------------------------------------------------------------
    def get_base_memory(self) -> tuple[str, float] | None:
        """The base memory document and when it was written."""
        row = self.db.row("SELECT text, updated_at FROM base_memory WHERE user_id = ?", (self.user_id,))
        return (row["text"], row["updated_at"]) if row else None

    def set_base_memory(self, text: str, now: float) -> None:
        """Replace the base memory document ('' removes it)."""
        with self.db.transaction():
            self.db.run("DELETE FROM base_memory WHERE user_id = ?", (self.user_id,))
            if text:
                self.db.run(
                    "INSERT INTO base_memory (user_id, text, updated_at) VALUES (?, ?, ?)",
                    (self.user_id, text, now),
                )


__all__ = ["Summaries", "summary_row"]
