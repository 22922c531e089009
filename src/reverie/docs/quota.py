"""Each user's document quota (``rag.user_quota_mb``): the check and the write it allows, as one step.

An upload, or an import's documents, runs under the user's lock in this process, so that user's
uploads and imports here take turns; and the check is made again inside the transaction that
saves the document, with the user's quota held in the database (``Store.hold_document_quota``),
so two processes (or workers) cannot both pass it either. Whoever comes second is refused
(TooLarge, a 413) with what is in use.
"""

from __future__ import annotations

import threading
from pathlib import Path

from reverie.errors import TooLarge
from reverie.store.base import Store

_locks: dict[str, threading.RLock] = {}
_locks_guard = threading.Lock()


def owner_lock(folder: Path) -> threading.RLock:
    """The one lock of a user's uploads folder in this process (re-entrant: an import uploads under it)."""
    with _locks_guard:
        return _locks.setdefault(str(folder), threading.RLock())


def check_quota(store: Store, quota_mb: float, user_id: int, path: str, size: int, *, hold: bool) -> None:
    """TooLarge when ``size`` bytes at ``path`` would take the user past their quota.

    What the user holds at ``path`` already is not counted (it is replaced). With ``hold``,
    inside a transaction, the quota stays held until that transaction ends.
    """
    used = store.hold_document_quota(user_id) if hold else store.owned_bytes(user_id)
    previous = store.document_by_path(path, user_id)
    used -= previous.size_bytes if previous else 0
    if used + size > int(quota_mb * 1024 * 1024):
        raise TooLarge(
            f"Uploading {Path(path).name} ({megabytes(size)}) would pass your quota: {megabytes(used)} "
            f"of rag.user_quota_mb = {quota_mb:g} MB are in use; delete a document of yours first"
        )


def megabytes(size: int) -> str:
    """A size in bytes as "1.25 MB"."""
    return f"{size / (1024 * 1024):.2f} MB"


__all__ = ["check_quota", "megabytes", "owner_lock"]
