"""The knowledge base: scan a folder, index what changed, search the chunks (DAWN §5).

A scan hashes every supported file (SHA-256), indexes new files first and then changed ones,
smallest first so most documents become searchable quickly, and drops documents whose file
went away. A file is parsed, chunked and embedded outside any transaction; its old chunks are
then replaced by the new ones in one transaction, so a search sees the old document or the
new one, never half of each. A file that cannot be read is recorded as skipped with the
reason, and the scan goes on.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from reverie.config import RagSettings
from reverie.docs.chunker import Chunk
from reverie.docs.ingest import Prepared, prepare, read_ahead
from reverie.docs.parsers import REFUSED, SUPPORTED
from reverie.docs.progress import ScanProgress
from reverie.docs.quota import check_quota, megabytes, owner_lock
from reverie.docs.search import ChunkSearch, DocumentHit, looks_like_question
from reverie.embed.service import to_blob
from reverie.errors import InvalidInput, NotFound, ProviderError, TooLarge
from reverie.retrieve.hybrid import Semantic
from reverie.store.base import DocumentClaims, DocumentFile, DocumentRow, DocumentStatus, NewChunk, Store

log = logging.getLogger(__name__)
_HASH_BLOCK = 1 << 20
_NEAR_FULL = 0.9  # warn when the index holds this share of max_chunks
class _Stopped(Exception):
    """The library is closing: the scan ends between two files or two batches."""


@dataclass(frozen=True)
class _Found:
    path: Path
    size: int
    file_type: str
    owner_id: int | None = None  # None: the shared folder's; a user id: uploaded by that user


class DocumentLibrary:
    """The documents: one per process, shared by every user's :class:`Memory`.

    A document is the household's (a file of the scanned folder) or one user's (uploaded, kept
    under ``<documents_dir>/.users/<user id>/``, which scans leave alone). ``user_id`` on a read is
    the viewer: the shared documents and that user's own; None, the shared ones only.
    """

    def __init__(
        self,
        store: Store,
        conf: RagSettings,
        semantic: Semantic | None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.conf = conf
        self.semantic = semantic
        self.clock = clock
        self._progress = ScanProgress()
        self._progress_lock = threading.Lock()
        self._scan_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._search = ChunkSearch(store, conf)
        self._stopping = threading.Event()

    @property
    def directory(self) -> Path:
        """The folder scanned for documents."""
        return Path(self.conf.documents_dir).expanduser()

    # scanning ------------------------------------------------------------------------
    def progress(self) -> ScanProgress:
        """A copy of the current scan's progress."""
        with self._progress_lock:
            return replace(self._progress, warnings=list(self._progress.warnings))

    def _update(self, **changes: Any) -> None:
        with self._progress_lock:
            for name, value in changes.items():
                setattr(self._progress, name, value)

    def _bump(self, **deltas: int) -> None:
        with self._progress_lock:
            for name, delta in deltas.items():
                setattr(self._progress, name, getattr(self._progress, name) + delta)

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        with self._progress_lock:
            self._progress.warnings.append(message)

    @property
    def scanning(self) -> bool:
        """True while a scan runs in this process."""
        return self._scan_lock.locked()

    def check_folder(self) -> None:
        """NotFound, with the fix, when the documents folder does not exist."""
        if not self.directory.is_dir():
            raise NotFound(
                f"The documents folder {self.directory} does not exist: create it, or set documents_dir "
                "under [rag] in reverie.toml (REVERIE_RAG__DOCUMENTS_DIR, or the Knowledge Base page)"
            )

    def start_scan(self, *, force: bool = False) -> ScanProgress:
        """Scan in a background thread (no-op while one runs); returns the progress so far.

        NotFound at once when the folder does not exist.
        """
        self.check_folder()
        with self._progress_lock:
            running = self._thread is not None and self._thread.is_alive()
            if not running:
                self._thread = threading.Thread(
                    target=self._scan_quietly, args=(force,), name="reverie-docs-scan", daemon=True
                )
                self._progress = ScanProgress(state="running", started_at=self.clock())
                self._thread.start()
        return self.progress()

    def wait(self, timeout: float | None = None) -> ScanProgress:
        """Wait for a background scan to finish; its final progress."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return self.progress()

    def _scan_quietly(self, force: bool) -> None:
        try:
            self.scan(force=force)
        except Exception:  # a background thread must not die silently
            log.exception("Document scan failed")

    def scan(
        self, *, force: bool = False, on_progress: Callable[[ScanProgress], None] | None = None
    ) -> ScanProgress:
        """Bring the index in line with the folder; ``force`` re-indexes unchanged files too."""
        with self._scan_lock:
            with self._progress_lock:
                started = self._progress.started_at if self._progress.state == "running" else None
                self._progress = ScanProgress(state="running", started_at=started or self.clock())
            try:
                self._scan(force, on_progress or (lambda _: None))
            except _Stopped:
                self._update(state="stopped", finished_at=self.clock(), current="")
                return self.progress()
            except Exception as exc:
                self._update(state="failed", error=str(exc), finished_at=self.clock(), current="")
                raise
            self._update(state="done", finished_at=self.clock(), current="")
            report = self.progress()
            if on_progress is not None:
                on_progress(report)
            return report

    def _scan(self, force: bool, on_progress: Callable[[ScanProgress], None]) -> None:
        root = self.directory
        self.check_folder()
        known = {doc.path: doc for doc in self.store.list_documents() if doc.owner_id is None}
        found = list(_walk(root))
        present = {str(item.path) for item in found}
        for path, gone in known.items():
            if path not in present:
                self.store.delete_document(gone.id)
                self._bump(removed=1)
        new: list[tuple[_Found, str]] = []
        changed: list[tuple[_Found, str]] = []
        self._update(files_total=len(found))
        for item in found:
            doc = known.get(str(item.path))
            if doc is not None and doc.status == "excluded":
                self._bump(excluded=1, files_done=1)
                continue
            try:
                digest = self._signature(item)
            except OSError as exc:
                self._record_skip(item, "", f"cannot read: {exc.strerror or exc}")
                self._bump(files_done=1)
                continue
            if doc is None:
                new.append((item, digest))
            elif force or doc.file_hash != digest or self._stale(doc):
                changed.append((item, digest))
            else:
                self._bump(unchanged=1, files_done=1)
        on_progress(self.progress())
        # DAWN §5.4: new files before changed ones, small before large; the next files are parsed
        # and chunked in a thread while this one embeds (docs/ingest.py).
        ordered = [*sorted(new, key=_size), *sorted(changed, key=_size)]
        reads = read_ahead(ordered, lambda pair: self._prepare(pair[0]), stopping=self._stopping)
        with closing(reads) as ahead:
            for (item, digest), prepared in ahead:
                self._check_stop()
                self._update(current=item.path.name)
                claims = self.store if isinstance(self.store, DocumentClaims) else None
                if claims is not None and not claims.claim_document(str(item.path)):
                    self._bump(files_done=1)  # another process is indexing this file right now
                    continue
                try:
                    self._index(item, digest, lambda: on_progress(self.progress()), prepared)
                finally:
                    if claims is not None:
                        claims.release_document(str(item.path))
                self._bump(files_done=1)
                on_progress(self.progress())

    def _signature(self, item: _Found) -> str:
        """SHA-256 of the file; oversized files get a size-and-time signature instead of a read."""
        if item.size > self.max_bytes:
            stat = item.path.stat()
            return f"size:{stat.st_size}:mtime:{stat.st_mtime_ns}"
        digest = hashlib.sha256()
        with item.path.open("rb") as handle:
            while block := handle.read(_HASH_BLOCK):
                digest.update(block)
        return digest.hexdigest()

    def _stale(self, doc: DocumentRow) -> bool:
        """Indexed without vectors, or with another model's: re-embed."""
        return doc.status == "indexed" and self.semantic is not None and doc.model_id != self.model_id

    @property
    def model_id(self) -> str:
        """The embedding model of new chunks ('' without embeddings)."""
        return self.semantic.service.model_id if self.semantic is not None else ""

    @property
    def max_bytes(self) -> int:
        """The largest file indexed (rag.max_document_size_mb), in bytes."""
        return int(self.conf.max_document_size_mb * 1024 * 1024)

    def _file(self, item: _Found, digest: str, pages: int | None = None) -> DocumentFile:
        return DocumentFile(
            path=str(item.path),
            file_name=item.path.name,
            file_type=item.file_type,
            file_hash=digest,
            size_bytes=item.size,
            pages=pages,
            owner_id=item.owner_id,
        )

    def _record_skip(self, item: _Found, digest: str, reason: str) -> None:
        log.info("Skipped %s: %s", item.path, reason)
        self._save(
            self._file(item, digest),
            status="skipped",
            reason=reason,
            chunks=(),
            model_id="",
            now=self.clock(),
        )
        self._bump(skipped=1)

    def _save(
        self,
        file: DocumentFile,
        *,
        status: DocumentStatus,
        reason: str,
        chunks: Sequence[NewChunk],
        model_id: str,
        now: float,
    ) -> None:
        """Save a document; a user's own only if it stays within their quota, checked in the same
        transaction with the quota held (TooLarge otherwise: nothing saved)."""
        with self.store.transaction():
            if file.owner_id is not None:
                check_quota(
                    self.store, self.conf.user_quota_mb, file.owner_id, file.path, file.size_bytes, hold=True
                )
            self.store.save_document(
                file, status=status, reason=reason, chunks=chunks, model_id=model_id, now=now
            )

    def _prepare(self, item: _Found) -> Prepared:
        return prepare(
            item.path,
            max_bytes=self.max_bytes,
            size_tokens=self.conf.chunk_size_tokens,
            overlap_tokens=self.conf.chunk_overlap_tokens,
        )

    def _index(
        self, item: _Found, digest: str, tick: Callable[[], None], prepared: Prepared | None = None
    ) -> None:
        prepared = prepared or self._prepare(item)
        if prepared.problem:
            self._record_skip(item, digest, prepared.problem)
            return
        chunks = prepared.chunks
        previous = self.store.document_by_path(str(item.path), item.owner_id)
        held = self.store.chunk_count() - (previous.chunk_count if previous else 0)
        limit = self.conf.max_chunks
        if held + len(chunks) > limit:
            self._record_skip(
                item, digest, f"the index is full: {held} of rag.max_chunks = {limit} chunks are in use"
            )
            return
        if held + len(chunks) >= _NEAR_FULL * limit:
            self._warn(f"The document index holds {held + len(chunks)} of rag.max_chunks = {limit} chunks")
        title = _title(item.path)
        vectors, reason = self._embed(chunks, title, tick)
        stored = [
            NewChunk(
                index=chunk.index,
                text=chunk.text,
                heading=chunk.heading,
                title=title,
                page=chunk.page,
                token_count=chunk.tokens,
                embedding=vectors[position] if vectors else None,
            )
            for position, chunk in enumerate(chunks)
        ]
        self._save(
            self._file(item, digest, prepared.pages),
            status="indexed",
            reason=reason,
            chunks=stored,
            model_id=self.model_id if vectors else "",
            now=self.clock(),
        )
        self._bump(indexed=1)

    def _embed(
        self, chunks: Sequence[Chunk], title: str, tick: Callable[[], None]
    ) -> tuple[list[bytes], str]:
        """Vectors for the chunks in batches, or ([], why) when the embedder fails."""
        if self.semantic is None:
            return [], ""
        size = self.conf.embed_batch_size
        vectors: list[bytes] = []
        try:
            for start in range(0, len(chunks), size):
                self._check_stop()
                batch = chunks[start : start + size]
                matrix = self.semantic.service.embed([embedding_text(title, chunk) for chunk in batch])
                vectors.extend(to_blob(row) for row in matrix)
                self._bump(chunks_indexed=len(batch))
                tick()
        except ProviderError as exc:
            self._warn(f"Embedding failed for {title}: {exc}; its chunks are found by keywords only")
            return [], f"indexed without vectors (keyword search only): {exc}"
        return vectors, ""

    def _check_stop(self) -> None:
        if self._stopping.is_set():
            raise _Stopped

    def close(self, timeout: float = 30.0) -> None:
        """Stop a background scan between two files or batches and wait for it.

        A file half-way through is not saved; its old chunks stay and the next scan redoes it.
        """
        self._stopping.set()
        thread = self._thread
        if thread is not None and thread.is_alive():
            thread.join(timeout)

    # managing ------------------------------------------------------------------------
    def documents(self, user_id: int | None = None) -> list[DocumentRow]:
        """The shared documents and the viewer's own, by path."""
        return self.store.list_documents(user_id)

    def owned(self, user_id: int) -> list[DocumentRow]:
        """The user's own (uploaded) documents, by path; no shared one."""
        return [doc for doc in self.store.list_documents(user_id) if doc.owner_id == user_id]

    def find(self, name: str | int, user_id: int | None = None) -> DocumentRow:
        """A document the viewer may see, by id, path or file name (NotFound; InvalidInput if ambiguous)."""
        docs = self.documents(user_id)
        text = str(name).strip()
        if text.isdigit():
            match = [doc for doc in docs if doc.id == int(text)]
        else:
            match = [doc for doc in docs if doc.path == text] or [
                doc for doc in docs if doc.file_name == text
            ]
        if not match:
            raise NotFound(f"No document {text!r} in the index; `reverie docs list` shows them")
        if len(match) > 1:
            paths = ", ".join(doc.path for doc in match)
            raise InvalidInput(f"{len(match)} documents are named {text!r}: {paths}; give the path")
        return match[0]

    def remove(self, name: str | int, user_id: int | None = None) -> DocumentRow:
        """Take a document out of the index; scans leave its file alone until it is re-indexed.

        The viewer's own (uploaded) document is deleted instead, its file too; the row it had is
        returned. Who may remove a shared document is the caller's to check (admins).
        """
        doc = self.find(name, user_id)
        if doc.owner_id is not None:
            self.store.delete_document(doc.id)
            Path(doc.path).unlink(missing_ok=True)
            return doc
        file = DocumentFile(doc.path, doc.file_name, doc.file_type, doc.file_hash, doc.size_bytes, doc.pages)
        reason = "removed from the index by a user; `reverie docs reindex` brings it back"
        return self.store.save_document(
            file, status="excluded", reason=reason, chunks=(), model_id="", now=self.clock()
        )

    def reindex(self, name: str | int | None = None, user_id: int | None = None) -> ScanProgress:
        """Re-index one document (also one that was removed), or every file when ``name`` is None."""
        if name is None:
            return self.scan(force=True)
        doc = self.find(name, user_id)
        path = Path(doc.path)
        if not path.is_file():
            self.store.delete_document(doc.id)
            raise NotFound(f"{doc.path} is no longer on disk; its document was removed from the index")
        item = _Found(path, path.stat().st_size, doc.file_type, doc.owner_id)
        with self._scan_lock:
            self._update(
                state="running", started_at=self.clock(), files_total=1, files_done=0, current=path.name
            )
            self._index(item, self._signature(item), lambda: None)
            self._update(state="done", finished_at=self.clock(), files_done=1, current="")
        return self.progress()

    def upload(self, user_id: int, file_name: str, data: bytes) -> DocumentRow:
        """Keep a file as the user's own document and index it now; theirs alone to search.

        InvalidInput for a name that is not a plain supported file name; TooLarge past the file
        size limit or the user's quota (``rag.user_quota_mb``, what they already hold counted),
        also when another upload or import of theirs, here or in another process, took it first.
        """
        name, file_type = upload_name(file_name)
        if len(data) > self.max_bytes:
            raise TooLarge(
                f"{name} is {megabytes(len(data))}, over rag.max_document_size_mb = "
                f"{self.conf.max_document_size_mb:g} MB; upload a smaller file"
            )
        folder = self.user_folder(user_id)
        path = (folder / name).resolve()
        with self.owner_lock(user_id):
            check_quota(self.store, self.conf.user_quota_mb, user_id, str(path), len(data), hold=False)
            kept = path.read_bytes() if path.is_file() else None
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            item = _Found(path, len(data), file_type, user_id)
            try:
                self._index(item, self._signature(item), lambda: None)
            except TooLarge:  # another process took the quota meanwhile: the file is as it was
                if kept is None:
                    path.unlink(missing_ok=True)
                else:
                    path.write_bytes(kept)
                raise
        saved = self.store.document_by_path(str(path), user_id)
        assert saved is not None
        return saved

    def owner_lock(self, user_id: int) -> threading.RLock:
        """The user's uploads and imports take turns under this lock, in this process."""
        return owner_lock(self.user_folder(user_id))

    def forget_user(self, user_id: int) -> int:
        """Delete a user's own documents, their files and folder; how many there were."""
        owned = self.owned(user_id)
        for doc in owned:
            self.store.delete_document(doc.id)
            Path(doc.path).unlink(missing_ok=True)
        folder = self.user_folder(user_id)
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
        return len(owned)

    def user_folder(self, user_id: int) -> Path:
        """Where a user's uploads are kept: a hidden folder of the documents folder, left out of scans."""
        return (self.directory / ".users" / str(user_id)).resolve()

    def status(self, user_id: int | None = None) -> dict[str, Any]:
        """Totals of what the viewer sees, the folder, and the progress of the running or last scan."""
        return {
            **self.store.document_totals(user_id),
            "directory": str(self.directory),
            "max_chunks": self.conf.max_chunks,
            "scan": self.progress().to_dict(),
        }

    def search(
        self,
        query: str,
        *,
        limit: int | None = None,
        threshold: float | None = None,
        user_id: int | None = None,
    ) -> list[DocumentHit]:
        """Chunks of the shared documents and the viewer's own answering ``query``, best first."""
        return self._search.search(query, self.semantic, limit=limit, threshold=threshold, user_id=user_id)


def upload_name(file_name: str) -> tuple[str, str]:
    """A name a user's own document may have, and its type (InvalidInput: a path, an unsupported kind)."""
    name = file_name.strip()
    suffix = Path(name).suffix.lower()
    if not name or name != Path(name).name or name.startswith(".") or "\\" in name:
        raise InvalidInput(f"{file_name!r} is not a file name; give one like notes.md, without folders")
    if suffix not in SUPPORTED:
        kinds = ", ".join(sorted(SUPPORTED))
        raise InvalidInput(f"{name} is not a supported document; upload one of {kinds}")
    return name, SUPPORTED[suffix]


@runtime_checkable
class WithDocuments(Protocol):
    """A memory wired to the knowledge base, as the composition root (:class:`reverie.Memory`) is."""

    documents: DocumentLibrary

    def search_documents(self, query: str, *, limit: int | None = None) -> list[DocumentHit]:
        """Search the shared documents and the user's own."""
        ...


def embedding_text(title: str, chunk: Chunk) -> str:
    """What is embedded for a chunk: where it sits (file, heading) and its text."""
    where = " > ".join(part for part in (title, chunk.heading) if part)
    return f"{where}: {chunk.text}" if where else chunk.text


def _title(path: Path) -> str:
    """A file name as words: ``garage_door-manual.pdf`` → ``garage door manual``."""
    return re.sub(r"[_\-.]+", " ", path.stem).strip()


def _size(pair: tuple[_Found, str]) -> int:
    return pair[0].size


def _walk(root: Path) -> Iterator[_Found]:
    """Supported (and refused, to report them) files under ``root``; hidden ones are left out."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.startswith("~$"):
                continue
            path = Path(folder) / name
            suffix = path.suffix.lower()
            if suffix not in SUPPORTED and suffix not in REFUSED:
                continue
            try:
                stat = path.stat()
            except OSError:
                continue
            yield _Found(path.resolve(), stat.st_size, SUPPORTED.get(suffix, suffix.lstrip(".")))


__all__ = [
    "DocumentHit",
    "DocumentLibrary",
    "WithDocuments",
    "embedding_text",
    "looks_like_question",
    "megabytes",
    "upload_name",
]
