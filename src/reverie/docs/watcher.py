"""Re-index the documents folder when its files change (``rag.watch_for_changes``).

``watchfiles`` (inotify on Linux) groups the events of one burst, such as an editor's save or
a copy of many files, and waits ``watch_debounce_ms`` of quiet before it reports them; each
burst then runs one incremental scan, which re-reads only files whose hash changed.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from watchfiles import Change, watch

from reverie.docs.library import DocumentLibrary
from reverie.docs.parsers import REFUSED, SUPPORTED

log = logging.getLogger(__name__)


def _relevant(change: Change, path: str) -> bool:
    name = Path(path).name
    if name.startswith(".") or name.startswith("~$"):
        return False
    suffix = Path(path).suffix.lower()
    return suffix in SUPPORTED or suffix in REFUSED or change == Change.deleted


class DocumentWatcher:
    """A background thread that scans the library after each burst of file changes."""

    def __init__(self, library: DocumentLibrary) -> None:
        self.library = library
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.scans = 0

    def start(self) -> None:
        """Start watching (the folder is created if missing, so files dropped later are seen)."""
        folder = self.library.directory
        folder.mkdir(parents=True, exist_ok=True)
        self._thread = threading.Thread(
            target=self._run, args=(folder,), name="reverie-docs-watch", daemon=True
        )
        self._thread.start()

    def _run(self, folder: Path) -> None:
        debounce = self.library.conf.watch_debounce_ms
        try:
            for changes in watch(
                folder,
                watch_filter=_relevant,
                debounce=debounce,
                step=min(50, debounce),
                stop_event=self._stop,
                rust_timeout=500,
                yield_on_timeout=False,
                raise_interrupt=False,
            ):
                if self._stop.is_set():
                    break
                log.info("%d change(s) in %s; scanning", len(changes), folder)
                try:
                    self.library.scan()
                    self.scans += 1
                except Exception:
                    log.exception("Scan after a file change failed")
        except Exception:
            log.exception("The document watcher stopped")

    @property
    def running(self) -> bool:
        """True while the background thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop watching and wait for the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)


__all__ = ["DocumentWatcher"]
