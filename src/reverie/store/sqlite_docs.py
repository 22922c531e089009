"""SQLite statements for the document knowledge base: files, chunks, their text index and vectors."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from reverie.store.base import ChunkRow, DocumentFile, DocumentRow, DocumentStatus, NewChunk, iter_batches

_WINDOW = 400  # best keyword matches ranked before joining to the chunks


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _document(row: sqlite3.Row) -> DocumentRow:
    return DocumentRow(
        id=row["id"],
        owner_id=row["owner_id"],
        path=row["path"],
        file_name=row["file_name"],
        file_type=row["file_type"],
        file_hash=row["file_hash"],
        size_bytes=row["size_bytes"],
        pages=row["pages"],
        status=row["status"],
        reason=row["reason"],
        chunk_count=row["chunk_count"],
        token_count=row["token_count"],
        model_id=row["model_id"],
        indexed_at=row["indexed_at"],
        updated_at=row["updated_at"],
    )


class DocumentStatements:
    """Mixed into :class:`SqliteStore`; documents belong to the household, not to one user."""

    def connection(self) -> sqlite3.Connection:  # provided by SqliteStore
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:  # provided by SqliteStore
        raise NotImplementedError

    def list_documents(self) -> list[DocumentRow]:
        """Every document, by path."""
        rows = self.connection().execute("SELECT * FROM documents ORDER BY path").fetchall()
        return [_document(row) for row in rows]

    def get_document(self, document_id: int) -> DocumentRow | None:
        """One document."""
        row = self.connection().execute("SELECT * FROM documents WHERE id = ?", (document_id,)).fetchone()
        return _document(row) if row else None

    def document_by_path(self, path: str, owner_id: int | None = None) -> DocumentRow | None:
        """The document kept for a path."""
        row = (
            self.connection()
            .execute(
                "SELECT * FROM documents WHERE COALESCE(owner_id, 0) = ? AND path = ?", (owner_id or 0, path)
            )
            .fetchone()
        )
        return _document(row) if row else None

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

        A search running meanwhile sees the old chunks or the new ones, never half of each.
        """
        tokens = sum(chunk.token_count for chunk in chunks)
        indexed_at = now if status == "indexed" else None
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT id FROM documents WHERE COALESCE(owner_id, 0) = ? AND path = ?",
                (file.owner_id or 0, file.path),
            ).fetchone()
            values = (
                file.file_name,
                file.file_type,
                file.file_hash,
                file.size_bytes,
                file.pages,
                status,
                reason,
                len(chunks),
                tokens,
                model_id,
                indexed_at,
                now,
            )
            if row is None:
                cur = conn.execute(
                    "INSERT INTO documents (file_name, file_type, file_hash, size_bytes, pages, status,"
                    " reason, chunk_count, token_count, model_id, indexed_at, updated_at, owner_id, path)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*values, file.owner_id, file.path),
                )
                document_id = int(cur.lastrowid or 0)
            else:
                document_id = int(row[0])
                conn.execute("DELETE FROM chunks WHERE document_id = ?", (document_id,))
                conn.execute(
                    "UPDATE documents SET file_name = ?, file_type = ?, file_hash = ?, size_bytes = ?,"
                    " pages = ?, status = ?, reason = ?, chunk_count = ?, token_count = ?, model_id = ?,"
                    " indexed_at = ?, updated_at = ? WHERE id = ?",
                    (*values, document_id),
                )
            conn.executemany(
                "INSERT INTO chunks (document_id, chunk_index, text, heading, title, page, token_count,"
                " embedding, model_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        document_id,
                        chunk.index,
                        chunk.text,
                        chunk.heading,
                        chunk.title,
                        chunk.page,
                        chunk.token_count,
                        chunk.embedding,
                        model_id if chunk.embedding is not None else None,
                    )
                    for chunk in chunks
                ],
            )
            conn.execute("UPDATE documents_version SET version = version + 1")
            saved = conn.execute("SELECT * FROM documents WHERE id = ?", (document_id,)).fetchone()
        return _document(saved)

    def delete_document(self, document_id: int) -> bool:
        """Remove a document and its chunks; False if there was none."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM chunks WHERE document_id = ?", (document_id,))
            cur = conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
            conn.execute("UPDATE documents_version SET version = version + 1")
        return cur.rowcount == 1

    def search_chunks(self, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Chunks matching any term, (id, BM25 score) best first; the text weighs most."""
        if not terms:
            return []
        match = "{text heading title}: (" + " OR ".join(_quote(term) for term in terms) + ")"
        rows = (
            self.connection()
            .execute(
                "SELECT rowid, -bm25(chunks_fts, 1.0, 0.6, 0.4) AS score FROM chunks_fts"
                " WHERE chunks_fts MATCH ? ORDER BY score DESC LIMIT ?",
                (match, max(limit, 1)),
            )
            .fetchall()
        )
        return [(int(row[0]), float(row[1])) for row in rows]

    def get_chunks(self, chunk_ids: Sequence[int]) -> list[ChunkRow]:
        """Chunks by id, with their file (any order)."""
        found: list[ChunkRow] = []
        conn = self.connection()
        for batch in iter_batches(list(chunk_ids)):
            rows = conn.execute(
                "SELECT c.id, c.document_id, c.chunk_index, c.text, c.heading, c.page, c.token_count,"
                " d.file_name, d.path FROM chunks c JOIN documents d ON d.id = c.document_id"
                f" WHERE c.id IN ({', '.join('?' * len(batch))})",
                list(batch),
            ).fetchall()
            found.extend(
                ChunkRow(
                    id=row[0],
                    document_id=row[1],
                    index=row[2],
                    text=row[3],
                    heading=row[4],
                    page=row[5],
                    token_count=row[6],
                    file_name=row[7],
                    path=row[8],
                )
                for row in rows
            )
        return found

    def chunk_vectors(self, model_id: str) -> tuple[list[int], list[bytes]]:
        """Ids (ascending) and vectors of every chunk embedded by this model."""
        ids: list[int] = []
        blobs: list[bytes] = []
        for chunk_id, blob in self._iter_vectors(model_id):
            ids.append(chunk_id)
            blobs.append(blob)
        return ids, blobs

    def _iter_vectors(self, model_id: str) -> Iterator[tuple[int, bytes]]:
        cur = self.connection().execute(
            "SELECT id, embedding FROM chunks WHERE model_id = ? AND embedding IS NOT NULL ORDER BY id",
            (model_id,),
        )
        for row in cur:
            yield int(row[0]), bytes(row[1])

    def documents_version(self) -> int:
        """A number that changes whenever chunks change."""
        row = self.connection().execute("SELECT version FROM documents_version").fetchone()
        return int(row[0]) if row else 0

    def document_totals(self) -> dict[str, Any]:
        """documents, indexed, skipped, excluded, chunks, tokens and last_indexed."""
        row = (
            self.connection()
            .execute(
                "SELECT COUNT(*), COALESCE(SUM(status = 'indexed'), 0), COALESCE(SUM(status = 'skipped'), 0),"
                " COALESCE(SUM(status = 'excluded'), 0), COALESCE(SUM(chunk_count), 0),"
                " COALESCE(SUM(token_count), 0), MAX(indexed_at) FROM documents"
            )
            .fetchone()
        )
        return {
            "documents": int(row[0]),
            "indexed": int(row[1]),
            "skipped": int(row[2]),
            "excluded": int(row[3]),
            "chunks": int(row[4]),
            "tokens": int(row[5]),
            "last_indexed": row[6],
        }


__all__ = ["DocumentStatements"]
