"""A user's own documents in an export: each uploaded file's bytes, checked and restored within the quota.

Only the user's uploads travel; the household's shared documents (the scanned folder) are never
in a user's export. A file is carried whole (base64), so an import indexes it again the way an
upload does and it is searched by its owner alone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reverie.docs.library import DocumentLibrary, WithDocuments, megabytes, upload_name
from reverie.errors import InvalidInput, TooLarge

if TYPE_CHECKING:
    from reverie.core import MemoryCore


@dataclass(frozen=True)
class ImportedDocument:
    """One checked item of "documents": a file name and the file's bytes."""

    file_name: str
    data: bytes


def _library(memory: MemoryCore) -> DocumentLibrary | None:
    """The knowledge base, when the memory has one wired in (the composition root's has)."""
    return memory.documents if isinstance(memory, WithDocuments) else None


def export_documents(memory: MemoryCore) -> list[dict[str, Any]]:
    """The user's own documents, by file name; a file gone from disk has nothing to carry."""
    library = _library(memory)
    if memory.user is None or library is None:
        return []
    found = []
    for doc in sorted(library.owned(memory.user.id), key=lambda d: d.file_name):
        try:
            data = Path(doc.path).read_bytes()
        except OSError:
            continue
        found.append(
            {
                "file_name": doc.file_name,
                "file_type": doc.file_type,
                "size_bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "content_base64": base64.b64encode(data).decode("ascii"),
            }
        )
    return found


def check_documents(memory: MemoryCore, items: list[Any]) -> list[ImportedDocument]:
    """Every item of "documents" checked: a plain supported file name (once), intact bytes, size limit."""
    checked: list[ImportedDocument] = []
    names: set[str] = set()
    limit = int(memory.settings.rag.max_document_size_mb * 1024 * 1024)  # the library's max_bytes
    for index, item in enumerate(items):
        where = f"documents[{index}]"
        if not isinstance(item, dict):
            raise InvalidInput(f"{where} must be an object")
        raw_name, content = item.get("file_name"), item.get("content_base64")
        if not isinstance(raw_name, str):
            raise InvalidInput(f"{where}.file_name must be a string")
        try:
            name, _ = upload_name(raw_name)
        except InvalidInput as exc:
            raise InvalidInput(f"{where}: {exc}") from exc
        if name in names:
            raise InvalidInput(f"{where}: the document holds {name} twice; keep one")
        names.add(name)
        if not isinstance(content, str):
            raise InvalidInput(f"{where}.content_base64 must be the file's bytes in base64")
        try:
            data = base64.b64decode(content, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise InvalidInput(f"{where}.content_base64 is not valid base64: {exc}") from exc
        digest = item.get("sha256")
        if digest is not None and digest != hashlib.sha256(data).hexdigest():
            raise InvalidInput(f"{where} ({name}) is damaged: its bytes do not match its sha256")
        if len(data) > limit:
            raise TooLarge(
                f"{where} ({name}) is {megabytes(len(data))}, over rag.max_document_size_mb = "
                f"{memory.settings.rag.max_document_size_mb:g} MB. Nothing was imported: raise "
                "max_document_size_mb under [rag], or take the file out of the document"
            )
        checked.append(ImportedDocument(name, data))
    return checked


def documents_to_add(memory: MemoryCore, documents: list[ImportedDocument]) -> list[ImportedDocument]:
    """The documents the user does not hold yet (by name); TooLarge when they would pass the quota.

    A document the user already holds under that name stays as it is.
    """
    library = _library(memory)
    if memory.user is None or library is None or not documents:
        return []
    held = {doc.file_name for doc in library.owned(memory.user.id)}
    fresh = [doc for doc in documents if doc.file_name not in held]
    used = memory.store.owned_bytes(memory.user.id)
    adding = sum(len(doc.data) for doc in fresh)
    quota_mb = memory.settings.rag.user_quota_mb
    if used + adding > int(quota_mb * 1024 * 1024):
        raise TooLarge(
            f"The document's {len(fresh)} file(s) of yours ({megabytes(adding)}) with the {megabytes(used)} "
            f"you already hold would pass rag.user_quota_mb = {quota_mb:g} MB. Nothing was imported: "
            "delete documents of yours (or ask an admin to raise user_quota_mb) and import again"
        )
    return fresh


def documents_held(memory: MemoryCore) -> AbstractContextManager[object]:
    """Held while an import checks and restores the user's documents: their uploads wait (in process)."""
    library = _library(memory)
    if memory.user is None or library is None:
        return nullcontext()
    return library.owner_lock(memory.user.id)


def restore_documents(memory: MemoryCore, documents: list[ImportedDocument]) -> None:
    """Keep and index each file as the user's own, as an upload is."""
    library = _library(memory)
    if memory.user is None or library is None:
        return
    for doc in documents:
        library.upload(memory.user.id, doc.file_name, doc.data)


__all__ = [
    "ImportedDocument",
    "check_documents",
    "documents_held",
    "documents_to_add",
    "export_documents",
    "restore_documents",
]
