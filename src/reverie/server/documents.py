"""The knowledge base over HTTP: list, status and scan progress, scan, re-index, search, upload, remove.

Every read is the caller's view: the shared documents and their own uploads, never another user's.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field

from reverie.docs.library import DocumentHit
from reverie.docs.progress import ScanProgress
from reverie.errors import Conflict, Forbidden
from reverie.memory import Memory
from reverie.retrieve.timeutil import to_iso
from reverie.server.deps import AdminDep, CredentialDep, MemoryDep
from reverie.server.schemas import ErrorOut
from reverie.store.base import DocumentRow

documents_router = APIRouter(
    prefix="/api/v1",
    tags=["documents"],
    responses={
        400: {"model": ErrorOut, "description": "Invalid input"},
        404: {"model": ErrorOut, "description": "No such document"},
        409: {"model": ErrorOut, "description": "Documents are off, or a guest session"},
    },
)
DocumentId = Annotated[int, Path(ge=1, le=2**63 - 1, description="The document's id")]


class DocumentOut(BaseModel):
    """A file of the knowledge base and how its indexing went."""

    id: int
    file_name: str
    path: str
    file_type: str
    status: str = Field(description="indexed, skipped (see reason), excluded (removed by a user) or pending")
    reason: str
    chunks: int
    tokens: int
    pages: int | None
    size_bytes: int
    indexed_at: str | None
    shared: bool = Field(description="True: the household's (the folder's); false: the caller's own upload")


class DocumentListOut(BaseModel):
    """Every document."""

    documents: list[DocumentOut]


class ScanOut(BaseModel):
    """Progress of the running (or last) scan."""

    state: str = Field(description="idle, running, done, failed or stopped")
    percent: int
    files_total: int
    files_done: int
    current: str
    chunks_indexed: int
    indexed: int
    unchanged: int
    skipped: int
    removed: int
    excluded: int
    warnings: list[str]
    error: str
    started_at: str | None
    finished_at: str | None


class DocumentStatusOut(BaseModel):
    """Totals of the index, its folder and the scan progress."""

    documents: int
    indexed: int
    skipped: int
    excluded: int
    chunks: int
    tokens: int
    max_chunks: int
    last_indexed: str | None
    directory: str
    scan: ScanOut
    used_bytes: int = Field(description="The size of the caller's own uploads")
    quota_bytes: int = Field(description="How much the caller may upload (rag.user_quota_mb)")


class ScanIn(BaseModel):
    """How to scan."""

    force: bool = Field(default=False, description="Re-index unchanged files too")


class DocumentHitOut(BaseModel):
    """An excerpt that answers a search."""

    chunk_id: int
    document_id: int
    file_name: str
    location: str = Field(description="'page 3', a heading path, or ''")
    page: int | None
    heading: str
    text: str
    score: float
    similarity: float | None


class DocumentSearchOut(BaseModel):
    """The excerpts found, best first."""

    query: str
    results: list[DocumentHitOut]


def _iso(memory: Memory, ts: float | None) -> str | None:
    return to_iso(ts, memory.tz) if ts else None


def _document_out(memory: Memory, doc: DocumentRow) -> DocumentOut:
    return DocumentOut(
        id=doc.id,
        file_name=doc.file_name,
        path=doc.path,
        file_type=doc.file_type,
        status=doc.status,
        reason=doc.reason,
        chunks=doc.chunk_count,
        tokens=doc.token_count,
        pages=doc.pages,
        size_bytes=doc.size_bytes,
        indexed_at=_iso(memory, doc.indexed_at),
        shared=doc.owner_id is None,
    )


def _scan_out(memory: Memory, progress: ScanProgress) -> ScanOut:
    data = progress.to_dict()
    data["started_at"] = _iso(memory, progress.started_at)
    data["finished_at"] = _iso(memory, progress.finished_at)
    return ScanOut(**data)


def _hit_out(hit: DocumentHit) -> DocumentHitOut:
    return DocumentHitOut(**{name: value for name, value in hit.to_dict().items() if name != "path"})


def _viewer(memory: Memory) -> int | None:
    """Whose uploads the caller sees besides the shared documents (None: a guest's, nobody's)."""
    return memory.user.id if memory.user is not None else None


async def _raw_body(request: Request) -> bytes:
    return await request.body()


def _known(memory: Memory) -> None:
    """Guests (devices of unmapped interfaces) see nothing of the household's documents, names included."""
    if memory.is_guest:
        raise Conflict(
            f"Interface '{memory.interface}' is a guest session; only known users may see the documents"
        )


@documents_router.get("/documents", response_model=DocumentListOut)
def list_documents(memory: MemoryDep) -> DocumentListOut:
    """Every document with its status: indexed (chunks), skipped (why) or removed."""
    _known(memory)
    docs = memory.documents.documents(_viewer(memory))
    return DocumentListOut(documents=[_document_out(memory, doc) for doc in docs])


@documents_router.get("/documents/status", response_model=DocumentStatusOut)
def document_status(memory: MemoryDep) -> DocumentStatusOut:
    """Totals of the index and the progress of a running scan (poll it while one runs)."""
    _known(memory)
    viewer = _viewer(memory)
    data = memory.documents.status(viewer)
    data["used_bytes"] = memory.store.owned_bytes(viewer) if viewer is not None else 0
    data["quota_bytes"] = int(memory.settings.rag.user_quota_mb * 1024 * 1024)
    data["last_indexed"] = _iso(memory, data["last_indexed"])
    data["scan"] = _scan_out(memory, memory.documents.progress())
    return DocumentStatusOut(**data)


@documents_router.post("/documents/scan", response_model=ScanOut, status_code=202)
def scan_documents(memory: MemoryDep, admin: AdminDep, body: ScanIn | None = None) -> ScanOut:
    """Start a scan in the background (admin; new and changed files, all with force); poll the status."""
    return _scan_out(memory, memory.documents.start_scan(force=bool(body and body.force)))


@documents_router.get("/documents/search", response_model=DocumentSearchOut)
def search_documents(
    memory: MemoryDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="The question or keywords")],
    limit: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> DocumentSearchOut:
    """The excerpts that answer a question: keywords and meaning fused, best first."""
    return DocumentSearchOut(
        query=q, results=[_hit_out(hit) for hit in memory.search_documents(q, limit=limit)]
    )


@documents_router.post(
    "/documents/upload",
    response_model=DocumentOut,
    status_code=201,
    responses={413: {"model": ErrorOut, "description": "Over the file size limit or the caller's quota"}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
        }
    },
)
def upload_document(
    memory: MemoryDep,
    name: Annotated[str, Query(min_length=1, max_length=255, description="The file name, e.g. notes.md")],
    data: Annotated[bytes, Depends(_raw_body)],
) -> DocumentOut:
    """Add a file of the caller's own (the body): indexed now, searched by them alone.

    A file over ``rag.max_document_size_mb``, or past ``rag.user_quota_mb`` of uploads in all,
    is refused with 413; uploading a name again replaces that file.
    """
    _known(memory)
    viewer = _viewer(memory)
    assert viewer is not None
    if not memory.settings.rag.enabled:
        raise Conflict("The document knowledge base is off ([rag] enabled = false)")
    return _document_out(memory, memory.documents.upload(viewer, name, data))


@documents_router.get("/documents/{document_id}", response_model=DocumentOut)
def get_document(memory: MemoryDep, document_id: DocumentId) -> DocumentOut:
    """One document (shared, or the caller's own)."""
    _known(memory)
    return _document_out(memory, memory.documents.find(document_id, _viewer(memory)))


@documents_router.post("/documents/{document_id}/reindex", response_model=DocumentOut)
def reindex_document(memory: MemoryDep, admin: AdminDep, document_id: DocumentId) -> DocumentOut:
    """Re-index one document now, also one that was removed from the index (admin)."""
    memory.documents.reindex(document_id, _viewer(memory))
    return _document_out(memory, memory.documents.find(document_id, _viewer(memory)))


@documents_router.delete("/documents/{document_id}", response_model=DocumentOut)
def remove_document(memory: MemoryDep, credential: CredentialDep, document_id: DocumentId) -> DocumentOut:
    """Delete one's own upload (its file too), or take a shared document out of the index (admin).

    A shared document's file stays; scans leave it out until it is re-indexed.
    """
    viewer = _viewer(memory)
    doc = memory.documents.find(document_id, viewer)
    admin = credential.user.is_admin and credential.interface is None
    if doc.owner_id is None and not admin:
        raise Forbidden("Only an admin may remove a shared document")
    return _document_out(memory, memory.documents.remove(doc.id, viewer))


__all__ = ["documents_router"]
