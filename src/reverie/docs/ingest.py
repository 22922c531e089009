"""Reading files ahead of the embedder: the next files are parsed and chunked while one embeds.

Parsing (pypdf, python-docx, the chunker's token counts) is Python that holds the GIL; the
embedder spends its time in ONNX Runtime, which releases it. A scan that reads one file, then
embeds it, leaves a core idle during each half; reading a few files ahead in one thread keeps
both busy. Results come back in the order the files were given, so a scan still indexes new
files before changed ones and small before large.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import TypeVar

from reverie.docs.chunker import Chunk, chunk_blocks
from reverie.docs.parsers import Unreadable, parse_file

READ_AHEAD = 2  # files parsed ahead of the one embedding: enough to hide parsing, little memory

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass(frozen=True)
class Prepared:
    """A file's chunks, ready to embed, or why it cannot be indexed."""

    chunks: list[Chunk]
    pages: int | None = None
    problem: str = ""  # '' when the chunks are ready; otherwise the reason recorded on the document


def prepare(path: Path, *, max_bytes: int, size_tokens: int, overlap_tokens: int) -> Prepared:
    """Parse and chunk one file; the reason it is skipped instead when it cannot be read or is empty."""
    try:
        parsed = parse_file(path, max_bytes=max_bytes)
    except Unreadable as exc:
        return Prepared([], problem=str(exc))
    chunks = chunk_blocks(parsed.blocks, size_tokens=size_tokens, overlap_tokens=overlap_tokens)
    return Prepared(chunks, parsed.pages, "" if chunks else "no text")


def read_ahead(
    items: Iterable[Item],
    read: Callable[[Item], Result],
    *,
    depth: int = READ_AHEAD,
    stopping: threading.Event | None = None,
) -> Generator[tuple[Item, Result], None, None]:
    """``(item, read(item))`` in order, with up to ``depth`` items being read ahead in a thread.

    An exception of ``read`` is raised when its item's turn comes. Closing the generator (or
    ``stopping`` set) cancels the reads not yet started.
    """
    pending: deque[tuple[Item, Future[Result]]] = deque()
    source = iter(items)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="reverie-docs-read") as pool:
        try:

            def fill() -> None:
                if stopping is None or not stopping.is_set():
                    for item in islice(source, depth + 1 - len(pending)):
                        pending.append((item, pool.submit(read, item)))

            fill()
            while pending:
                item, future = pending.popleft()
                fill()
                yield item, future.result()
        finally:
            for _, future in pending:
                future.cancel()


__all__ = ["READ_AHEAD", "Prepared", "prepare", "read_ahead"]
