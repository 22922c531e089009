"""One user's vectors and their change log, written once; how vectors are stored and read is the dialect's."""

from __future__ import annotations

from collections.abc import Sequence

from reverie.store.dialect import IdVector, UserPart
from reverie.store.rows import VectorChanges, VectorKind

# Each kind's rows (``t``) and what of them gets embedded when a vector is missing.
_ITEMS: dict[str, tuple[str, str]] = {
    "memory": ("memories t WHERE t.user_id = ? AND t.status = 'active'", "text"),
    "summary": ("summaries t WHERE t.user_id = ?", "text"),
    "message": ("messages t WHERE t.user_id = ?", "content"),
    "message_window": ("messages t WHERE t.user_id = ?", "content"),
}
_ACTIVE_MEMORY = " JOIN memories t ON t.id = v.item_id AND t.status = 'active'"


class Vectors(UserPart):
    """One user's vectors and their change log."""

    def _join(self, kind: VectorKind) -> str:
        """What makes a vector loadable: its memory active, its turn's conversation not private."""
        if kind == "memory":
            return _ACTIVE_MEMORY
        if kind in ("message", "message_window"):
            return (
                " JOIN messages t ON t.id = v.item_id"
                f" JOIN conversations c ON c.id = t.conversation_id AND {self.db.is_false('c.is_private')}"
            )
        return ""

    def put_vectors(self, kind: VectorKind, items: Sequence[IdVector], model_id: str, dims: int) -> None:
        """Store (or replace) the vector of each item."""
        if items:
            self.db.put_vectors(self.user_id, kind, items, model_id, dims)

    def load_vectors(self, kind: VectorKind, model_id: str, after: int = 0) -> tuple[list[IdVector], int]:
        """This user's vectors of one model (active memories; turns of conversations not private).

        Only rows written after the mark ``after`` are returned, with the new mark: a cache can
        fetch what changed instead of everything.
        """
        return self.db.load_vectors(self.user_id, kind, model_id, after, self._join(kind))

    def vectors_version(self) -> int:
        """A number that changes whenever this user's searchable vectors change."""
        return int(
            self.db.value("SELECT version FROM vector_versions WHERE user_id = ?", (self.user_id,)) or 0
        )

    def vector_changes(
        self, kind: VectorKind, model_id: str, after: int | None, also: Sequence[int] = ()
    ) -> VectorChanges:
        """Changes of one kind's loadable vectors since version ``after`` (None: load all), plus ``also``.

        The version is read first and the floor last: a change committed in between is simply
        fetched again next time, and a prune committed in between turns this into a full load.
        """
        version = self.vectors_version()
        if after is not None and after <= version:
            changed, own = self.db.changed_vectors(self.user_id, kind, after)
            floor = self.db.row("SELECT pruned_to FROM vector_versions WHERE user_id = ?", (self.user_id,))
            if floor is None or after >= int(floor["pruned_to"]):
                ids = sorted(changed.union(also))
                found = self.db.vectors_of(self.user_id, kind, model_id, ids, self._join(kind)) if ids else []
                return VectorChanges(version, False, ids, found, own)
        own = self.db.own_vector_writes(self.user_id)
        loaded, _ = self.load_vectors(kind, model_id)
        return VectorChanges(version, True, [], loaded, own)

    def prune_vector_changes(self, keep: int) -> int:
        """Forget the change log but for its last ``keep`` versions; how many rows went."""
        # Its own short transaction: the version row's lock is otherwise only taken at commit.
        with self.db.transaction():
            self.db.run(
                f"UPDATE vector_versions SET pruned_to = {self.db.greatest}(pruned_to, version - ?)"
                " WHERE user_id = ?",
                (keep, self.user_id),
            )
            return self.db.run(
                "DELETE FROM vector_changes WHERE user_id = ? AND version <= COALESCE("
                "(SELECT pruned_to FROM vector_versions WHERE user_id = ?), 0)",
                (self.user_id, self.user_id),
            )

    def missing_vectors(self, kind: VectorKind, model_id: str, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` items with no vector of this model yet, oldest first."""
        rows_of, body = _ITEMS[kind]
        rows = self.db.rows(
            f"SELECT t.id, t.{body} AS body FROM {rows_of} AND NOT EXISTS (SELECT 1 FROM vectors v"
            " WHERE v.item_kind = ? AND v.item_id = t.id AND v.model_id = ?) ORDER BY t.id LIMIT ?",
            (self.user_id, kind, model_id, limit),
        )
        return [(int(row["id"]), str(row["body"])) for row in rows]

    def count_vectors(self, kind: VectorKind, model_id: str) -> tuple[int, int]:
        """(items with a vector of this model, items in all) for one kind."""
        join = _ACTIVE_MEMORY if kind == "memory" else ""
        done = self.db.value(
            f"SELECT COUNT(*) FROM vectors v{join} WHERE v.user_id = ? AND v.item_kind = ?"
            " AND v.model_id = ?",
            (self.user_id, kind, model_id),
        )
        return int(done), int(self.db.value(f"SELECT COUNT(*) FROM {_ITEMS[kind][0]}", (self.user_id,)))


__all__ = ["Vectors"]
