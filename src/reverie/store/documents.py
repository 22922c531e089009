"""Documents of both engines: the knowledge base's files, their chunks, text index and vectors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any

from reverie.store.dialect import RowReader, StorePart, insert_sql
from reverie.store.rows import ChunkRow, DocumentFile, DocumentRow, DocumentStatus, NewChunk

_document = RowReader(DocumentRow)
# A scanned file's fields, what became of it, and its chunks' totals: a path has one row per owner.
_FILE = tuple(column.name for column in fields(DocumentFile))
_SAVED = (*_FILE, "status", "reason", "chunk_count", "token_count")
_SAVED += ("model_id", "indexed_at", "updated_at")
_SAVE = (
    insert_sql("documents", _SAVED)
    + " ON CONFLICT ((COALESCE(owner_id, 0)), path) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in _SAVED if name not in ("owner_id", "path"))
)
# A new chunk's fields as they are stored (its index as chunk_index), then its vector and model.
_CHUNK = ("index", "text", "heading", "title", "page", "token_count")
_chunk = attrgetter(*_CHUNK)
_INSERT_CHUNK = insert_sql("chunks", ("document_id", "chunk_index", *_CHUNK[1:], "embedding", "model_id"))


_QUOTA_LOCK = 7_302_000_000_000  # + a user's id: their upload quota, in every process


# What a user may see: the household's documents (owner_id NULL) and their own. Every read takes
# the viewer, so another user's private document never leaves the store.
_VISIBLE = "(owner_id IS NULL OR owner_id = ?)"
_VISIBLE_DOC = "(d.owner_id IS NULL OR d.owner_id = ?)"


def _viewer(user_id: int | None) -> int:
    """The id compared with owner_id; 0 matches nobody's, so None sees the shared documents only."""
    return user_id or 0


class Documents(StorePart):
    """The knowledge base's documents; a document is shared or one user's.

    ``user_id`` on a read is the viewer: shared documents plus that user's own; None, shared only.
    """

    def list_documents(self, user_id: int | None = None) -> list[DocumentRow]:
        """The documents the viewer may see, by path."""
        return self.db.select(
            _document, f"FROM documents WHERE {_VISIBLE} ORDER BY path", (_viewer(user_id),)
        )

    def get_document(self, document_id: int, user_id: int | None = None) -> DocumentRow | None:
        """One document, if the viewer may see it."""
        return self.db.select_one(
            _document, f"FROM documents WHERE id = ? AND {_VISIBLE}", (document_id, _viewer(user_id))
        )

    def owned_bytes(self, user_id: int) -> int:
        """The size of a user's own documents (their upload quota in use)."""
        return int(
            self.db.value("SELECT COALESCE(SUM(size_bytes), 0) FROM documents WHERE owner_id = ?", (user_id,))
        )

    def chunk_count(self) -> int:
        """Chunks of every document, everyone's (what rag.max_chunks bounds)."""
        return int(self.db.value("SELECT COUNT(*) FROM chunks"))

    def hold_document_quota(self, user_id: int) -> int:
        """Inside a transaction: hold the user's document quota until it ends; the bytes they own.

        Another process that holds it meanwhile waits, so a quota check and the write it allows
        are one step (PostgreSQL: an advisory lock per user; SQLite: the write transaction
        already excludes every other writer).
        """
        self.db.lock(_QUOTA_LOCK + user_id)
        return self.owned_bytes(user_id)

    def document_by_path(self, path: str, owner_id: int | None = None) -> DocumentRow | None:
        """The document kept for a path."""
        return self.db.select_one(
            _document, "FROM documents WHERE COALESCE(owner_id, 0) = ? AND path = ?", (owner_id or 0, path)
        )

    def save_document(
        self,
        file: DocumentFile,
        *,
        status: DocumentStatus,
        reason: str,
        chunks: Sequence[NewChunk],
        model_id: str,
        now: float,
    ) -> DocumentRow:
        """Create or update a document and replace all its chunks in one transaction.

        A search running meanwhile sees the old chunks or the new ones, never half of each; two
        processes saving the same file at once queue on its row.
        """
        tokens = sum(chunk.token_count for chunk in chunks)
        indexed_at = now if status == "indexed" else None
        values = (*attrgetter(*_FILE)(file), status, reason, len(chunks), tokens, model_id, indexed_at, now)
        with self.db.transaction():
            saved = self.db.write_one(_document, _SAVE, values)
            assert saved is not None
            self.db.run("DELETE FROM chunks WHERE document_id = ?", (saved.id,))
            rows = []
            for chunk in chunks:
                vector = None if chunk.embedding is None else self.db.vector(chunk.embedding)
                rows.append((saved.id, *_chunk(chunk), vector, None if vector is None else model_id))
            self.db.run_many(_INSERT_CHUNK, rows)
            self.db.run("UPDATE documents_version SET version = version + 1")
        return saved

    def delete_document(self, document_id: int) -> bool:
        """Remove a document and its chunks; False if there was none."""
        with self.db.transaction():
            self.db.run("DELETE FROM chunks WHERE document_id = ?", (document_id,))
            gone = self.db.run("DELETE FROM documents WHERE id = ?", (document_id,))
            self.db.run("UPDATE documents_version SET version = version + 1")
        return gone == 1

    def search_chunks(
        self, terms: Sequence[str], limit: int, user_id: int | None = None
    ) -> list[tuple[int, float]]:
        """Chunks the viewer may see matching any term, (id, BM25 score) best first; the text weighs most."""
        if not terms:
            return []
        ctes, params = self.db.ranked("chunks", _viewer(user_id), terms)
        rows = self.db.rows(
            f"{ctes} SELECT id, score FROM ranked ORDER BY score DESC, id LIMIT ?", [*params, max(limit, 1)]
        )
        return [(int(row["id"]), float(row["score"])) for row in rows]

    def get_chunks(self, chunk_ids: Sequence[int], user_id: int | None = None) -> list[ChunkRow]:
        """Chunks by id, with their file (any order); those the viewer may not see are left out."""
        rows = self.db.rows_among(
            'SELECT c.id, c.document_id, c.chunk_index AS "index", c.text, c.heading, c.page, c.token_count,'
            " d.file_name, d.path FROM chunks c JOIN documents d ON d.id = c.document_id"
            f" WHERE {_VISIBLE_DOC} AND {{among}}",
            "c.id",
            list(chunk_ids),
            (_viewer(user_id),),
        )
        return [ChunkRow(**row) for row in rows]

    def chunk_vectors(self, model_id: str, user_id: int | None = None) -> tuple[list[int], list[bytes]]:
        """Ids (ascending) and vectors of the chunks the viewer may see, embedded by this model."""
        return self.db.id_vectors(
            "SELECT c.id, c.embedding FROM chunks c JOIN documents d ON d.id = c.document_id"
            f" WHERE c.model_id = ? AND c.embedding IS NOT NULL AND {_VISIBLE_DOC} ORDER BY c.id",
            (model_id, _viewer(user_id)),
        )

    def documents_version(self) -> int:
        """A number that changes whenever chunks change."""
        return int(self.db.value("SELECT version FROM documents_version") or 0)

    def document_totals(self, user_id: int | None = None) -> dict[str, Any]:
        """documents, indexed, skipped, excluded, chunks, tokens and last_indexed, of what the viewer sees."""
        row = self.db.row(
            "SELECT COUNT(*) AS documents, COUNT(CASE WHEN status = 'indexed' THEN 1 END) AS indexed,"
            " COUNT(CASE WHEN status = 'skipped' THEN 1 END) AS skipped,"
            " COUNT(CASE WHEN status = 'excluded' THEN 1 END) AS excluded,"
            " COALESCE(SUM(chunk_count), 0) AS chunks, COALESCE(SUM(token_count), 0) AS tokens,"
            f" MAX(indexed_at) AS last_indexed FROM documents WHERE {_VISIBLE}",
            (_viewer(user_id),),
        )
        assert row is not None
        return {name: value if name == "last_indexed" else int(value) for name, value in row.items()}


__all__ = ["Documents"]
