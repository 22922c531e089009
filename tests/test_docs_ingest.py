"""Reading files ahead of the embedder: order kept, errors in their turn, nothing read after a stop."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from reverie.docs.ingest import prepare, read_ahead


def test_results_come_in_the_order_given_while_later_items_are_read_ahead() -> None:
    started: list[int] = []
    release = threading.Event()

    def read(item: int) -> int:
        started.append(item)
        if item == 0:
            release.wait(5)
        return item * 10

    reads = read_ahead(range(6), read, depth=2)
    release.set()
    assert list(reads) == [(i, i * 10) for i in range(6)]
    assert started == list(range(6))


def test_the_next_file_is_read_while_the_caller_works_on_this_one() -> None:
    second_read = threading.Event()

    def read(item: int) -> int:
        if item == 1:
            second_read.set()
        return item

    reads = read_ahead([0, 1, 2], read, depth=1)
    assert next(reads) == (0, 0)
    assert second_read.wait(5)  # read before the caller asked for it
    reads.close()


def test_an_error_is_raised_in_its_turn() -> None:
    def read(item: int) -> int:
        if item == 2:
            raise ValueError("bad file")
        return item

    reads = read_ahead(range(4), read)
    assert next(reads) == (0, 0)
    assert next(reads) == (1, 1)
    with pytest.raises(ValueError, match="bad file"):
        next(reads)


def test_a_stop_reads_nothing_more() -> None:
    stopping = threading.Event()
    seen: list[int] = []

    def read(item: int) -> int:
        seen.append(item)
        return item

    reads = read_ahead(range(100), read, depth=2, stopping=stopping)
    next(reads)
    stopping.set()
    rest = list(reads)
    assert len(seen) <= 5 and len(rest) <= 3


def test_prepare_gives_chunks_or_the_reason_to_skip(tmp_path: Path) -> None:
    good = tmp_path / "notes.md"
    good.write_text("# Notes\n\nThe spare key is under the blue pot.", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("   \n", encoding="utf-8")
    ready = prepare(good, max_bytes=10_000, size_tokens=64, overlap_tokens=8)
    assert ready.problem == "" and "blue pot" in ready.chunks[0].text
    assert prepare(empty, max_bytes=10_000, size_tokens=64, overlap_tokens=8).problem
    assert prepare(tmp_path / "gone.md", max_bytes=10_000, size_tokens=64, overlap_tokens=8).problem
