"""PostgreSQL statements for the document knowledge base: files, chunks, their text index and vectors."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import psycopg

from reverie.store.base import ChunkRow, DocumentFile, DocumentRow, DocumentStatus, NewChunk
from reverie.store.postgres_search import ranked
from reverie.store.postgres_vectors import Vector

_DOCUMENT_COLUMNS = (
    "id, owner_id, path, file_name, file_type, file_hash, size_bytes, pages, status, reason, chunk_count,"
    " token_count, model_id, indexed_at, updated_at"
)
# Chunk text, heading and file title weigh 1.0, 0.6 and 0.4, as in the SQLite engine.
CHUNK_WEIGHTS = (1.0, 0.6, 0.4, 0.0)


class PgDocumentStatements:
    """Mixed into :class:`PgStore`; documents belong to the household, not to one user."""

    def read(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = (), *, binary: bool = False
    ) -> list[Any]:
        raise NotImplementedError  # provided by PgStore

    def write(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> psycopg.Cursor[dict[str, Any]]:
        raise NotImplementedError  # provided by PgStore

    def transaction(self) -> AbstractContextManager[psycopg.Connection[dict[str, Any]]]:
        raise NotImplementedError  # provided by PgStore

    def list_documents(self) -> list[DocumentRow]:
        """Every document, by path."""
        return [
            DocumentRow(**row)
            for row in self.read(f"SELECT {_DOCUMENT_COLUMNS} FROM documents ORDER BY path")
        ]

    def get_document(self, document_id: int) -> DocumentRow | None:
        """One document."""
        rows = self.read(f"SELECT {_DOCUMENT_COLUMNS} FROM documents WHERE id = %s", (document_id,))
        return DocumentRow(**rows[0]) if rows else None

    def document_by_path(self, path: str, owner_id: int | None = None) -> DocumentRow | None:
        """The document kept for a path."""
        rows = self.read(
            f"SELECT {_DOCUMENT_COLUMNS} FROM documents WHERE COALESCE(owner_id, 0) = %s AND path = %s",
            (owner_id or 0, path),
        )
        return DocumentRow(**rows[0]) if rows else None

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
        with self.transaction() as conn:
            row = conn.execute(
                "INSERT INTO documents (owner_id, path, file_name, file_type, file_hash, size_bytes, pages,"
                " status, reason, chunk_count, token_count, model_id, indexed_at, updated_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT ((COALESCE(owner_id, 0)), path) DO UPDATE SET file_name = excluded.file_name,"
                " file_type = excluded.file_type, file_hash = excluded.file_hash,"
                " size_bytes = excluded.size_bytes, pages = excluded.pages, status = excluded.status,"
                " reason = excluded.reason, chunk_count = excluded.chunk_count,"
                " token_count = excluded.token_count, model_id = excluded.model_id,"
                f" indexed_at = excluded.indexed_at, updated_at = excluded.updated_at RETURNING"
                f" {_DOCUMENT_COLUMNS}",
                (
                    file.owner_id,
                    file.path,
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
                ),
            ).fetchone()
            assert row is not None
            document_id = int(row["id"])
            conn.execute("DELETE FROM chunks WHERE document_id = %s", (document_id,))
            if chunks:
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO chunks (document_id, chunk_index, text, heading, title, page,"
                        " token_count,"
                        " embedding, model_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %b, %s)",
                        [
                            (
                                document_id,
                                chunk.index,
                                chunk.text,
                                chunk.heading,
                                chunk.title,
                                chunk.page,
                                chunk.token_count,
                                Vector(chunk.embedding) if chunk.embedding is not None else None,
                                model_id if chunk.embedding is not None else None,
                            )
                            for chunk in chunks
                        ],
                    )
            conn.execute("UPDATE documents_version SET version = version + 1")
        return DocumentRow(**row)

    def delete_document(self, document_id: int) -> bool:
        """Remove a document and its chunks; False if there was none."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM chunks WHERE document_id = %s", (document_id,))
            gone = conn.execute("DELETE FROM documents WHERE id = %s", (document_id,)).rowcount
            conn.execute("UPDATE documents_version SET version = version + 1")
        return gone == 1

    def search_chunks(self, terms: Sequence[str], limit: int) -> list[tuple[int, float]]:
        """Chunks matching any term, (id, BM25 score) best first; the text weighs most."""
        if not terms:
            return []
        ctes, params = ranked(
            table="chunks",
            tsv="tsv",
            length="doclen",
            scope="TRUE",
            scope_params=[],
            terms=terms,
            weights=CHUNK_WEIGHTS,
            extra_tokens=0,
        )
        rows = self.read(
            f"{ctes} SELECT id, score FROM ranked ORDER BY score DESC, id LIMIT %s", [*params, max(limit, 1)]
        )
        return [(int(row["id"]), float(row["score"])) for row in rows]

    def get_chunks(self, chunk_ids: Sequence[int]) -> list[ChunkRow]:
        """Chunks by id, with their file (any order)."""
        if not chunk_ids:
            return []
        rows = self.read(
            "SELECT c.id, c.document_id, c.chunk_index AS index, c.text, c.heading, c.page, c.token_count,"
            " d.file_name, d.path FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id ="
            " ANY(%s)",
            (list(chunk_ids),),
        )
        return [ChunkRow(**row) for row in rows]

    def chunk_vectors(self, model_id: str) -> tuple[list[int], list[bytes]]:
        """Ids (ascending) and vectors of every chunk embedded by this model."""
        rows = self.read(
            "SELECT id, embedding FROM chunks WHERE model_id = %s AND embedding IS NOT NULL ORDER BY id",
            (model_id,),
            binary=True,
        )
        return [int(row["id"]) for row in rows], [row["embedding"] for row in rows]

    def documents_version(self) -> int:
        """A number that changes whenever chunks change."""
        rows = self.read("SELECT version FROM documents_version")
        return int(rows[0]["version"]) if rows else 0

    def document_totals(self) -> dict[str, Any]:
        """documents, indexed, skipped, excluded, chunks, tokens and last_indexed."""
        row = self.read(
            "SELECT COUNT(*) AS documents, COUNT(*) FILTER (WHERE status = 'indexed') AS indexed,"
            " COUNT(*) FILTER (WHERE status = 'skipped') AS skipped,"
            " COUNT(*) FILTER (WHERE status = 'excluded') AS excluded,"
            " COALESCE(SUM(chunk_count), 0) AS chunks, COALESCE(SUM(token_count), 0) AS tokens,"
            " MAX(indexed_at) AS last_indexed FROM documents"
        )[0]
        return {
            "documents": int(row["documents"]),
            "indexed": int(row["indexed"]),
            "skipped": int(row["skipped"]),
            "excluded": int(row["excluded"]),
            "chunks": int(row["chunks"]),
            "tokens": int(row["tokens"]),
            "last_indexed": row["last_indexed"],
        }


__all__ = ["PgDocumentStatements"]
