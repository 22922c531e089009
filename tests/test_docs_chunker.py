"""Chunks fit the token budget, overlap within a section, and never cut a word in half."""

from __future__ import annotations

import random
import time

import pytest

from reverie.docs.chunker import Chunk, chunk_blocks
from reverie.docs.parsers import Block
from reverie.errors import InvalidInput
from reverie.text import count_tokens

_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def _prose(rng: random.Random, sentences: int) -> str:
    """Sentences of made-up words; every word is unique-looking so positions can be traced."""
    out = []
    for _ in range(sentences):
        words = [
            "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(2, 9)))
            for _ in range(rng.randint(4, 22))
        ]
        out.append(" ".join(words).capitalize() + rng.choice(".!?;,"))
    return " ".join(out)


def _mixed_blocks(seed: int = 7) -> list[Block]:
    """Small and oversized paragraphs under several headings and pages."""
    rng = random.Random(seed)
    blocks = []
    for heading, page in (("Intro", 1), ("Intro", 2), ("Usage > Setup", 2), ("Usage > Tuning", 3)):
        for _ in range(rng.randint(3, 8)):
            blocks.append(Block(_prose(rng, rng.choice((1, 2, 3, 12, 40))), heading, page))
    return blocks


def _sections(blocks: list[Block]) -> dict[tuple[str, int | None], list[str]]:
    found: dict[tuple[str, int | None], list[str]] = {}
    for block in blocks:
        found.setdefault((block.heading, block.page), []).extend(block.text.split())
    return found


def _find(words: list[str], run: list[str], start: int) -> int:
    """Where ``run`` occurs in ``words`` at or after ``start`` (-1 if nowhere)."""
    for position in range(start, len(words) - len(run) + 1):
        if words[position : position + len(run)] == run:
            return position
    return -1


def _shared(previous: Chunk, current: Chunk) -> list[str]:
    """The longest end of ``previous`` that ``current`` starts with, in words."""
    before, after = previous.text.split(), current.text.split()
    for size in range(min(len(before), len(after)), 0, -1):
        if before[-size:] == after[:size]:
            return after[:size]
    return []


@pytest.mark.parametrize(("size", "overlap"), [(256, 50), (64, 10), (100, 0), (40, 39)])
def test_chunks_fit_the_budget(size: int, overlap: int) -> None:
    chunks = chunk_blocks(_mixed_blocks(), size_tokens=size, overlap_tokens=overlap)

    assert chunks
    assert all(chunk.tokens <= size for chunk in chunks)
    assert all(chunk.tokens == count_tokens(chunk.text) for chunk in chunks)
    assert [chunk.index for chunk in chunks] == list(range(len(chunks)))


@pytest.mark.parametrize(("size", "overlap"), [(256, 50), (64, 10), (100, 0)])
def test_chunks_cover_the_text_in_order_without_cutting_words(size: int, overlap: int) -> None:
    blocks = _mixed_blocks()
    sections = _sections(blocks)
    chunks = chunk_blocks(blocks, size_tokens=size, overlap_tokens=overlap)

    for key, words in sections.items():
        covered = 0  # words of the section already seen in a chunk
        for chunk in (chunk for chunk in chunks if (chunk.heading, chunk.page) == key):
            run = chunk.text.split()
            assert set(run) <= set(words), "a chunk holds a fragment of a word"
            start = _find(words, run, max(covered - len(run), 0))
            assert 0 <= start <= covered, "chunks skip text or come out of order"
            assert start + len(run) > covered, "a chunk adds nothing new"
            covered = start + len(run)
        assert covered == len(words)


def test_consecutive_chunks_of_a_section_overlap() -> None:
    rng = random.Random(3)
    blocks = [Block(_prose(rng, 3), "Notes") for _ in range(30)]

    chunks = chunk_blocks(blocks, size_tokens=120, overlap_tokens=30)

    assert len(chunks) > 5
    for previous, current in zip(chunks, chunks[1:], strict=False):
        shared = " ".join(_shared(previous, current))
        assert shared, f"chunk {current.index} does not repeat the end of chunk {previous.index}"
        assert 10 <= count_tokens(shared) <= 30


def test_no_overlap_when_asked_for_none() -> None:
    rng = random.Random(4)
    blocks = [Block(_prose(rng, 60), "Notes")]

    chunks = chunk_blocks(blocks, size_tokens=80, overlap_tokens=0)

    words = " ".join(chunk.text for chunk in chunks).split()
    assert words == blocks[0].text.split()


def test_chunks_never_cross_a_heading_or_page() -> None:
    blocks = [
        Block("Alpha one. Alpha two.", "Alpha", 1),
        Block("Alpha three.", "Alpha", 1),
        Block("Alpha on the next page.", "Alpha", 2),
        Block("Beta text.", "Beta", 2),
        Block("Alpha again, after Beta.", "Alpha", 2),
    ]

    chunks = chunk_blocks(blocks, size_tokens=256, overlap_tokens=50)

    assert [(chunk.heading, chunk.page, chunk.text) for chunk in chunks] == [
        ("Alpha", 1, "Alpha one. Alpha two.\n\nAlpha three."),
        ("Alpha", 2, "Alpha on the next page."),
        ("Beta", 2, "Beta text."),
        ("Alpha", 2, "Alpha again, after Beta."),
    ]


def test_a_new_section_starts_without_overlap() -> None:
    rng = random.Random(5)
    first, second = _prose(rng, 30), _prose(rng, 30)

    chunks = chunk_blocks([Block(first, "One"), Block(second, "Two")], size_tokens=60, overlap_tokens=20)

    opening = next(chunk for chunk in chunks if chunk.heading == "Two")
    assert opening.text.split()[:3] == second.split()[:3]


def test_big_block_splits_between_sentences() -> None:
    sentences = [f"Sentence number {n} talks about the garden shed." for n in range(40)]

    chunks = chunk_blocks([Block(" ".join(sentences))], size_tokens=64, overlap_tokens=0)

    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.text.endswith("shed.")
        assert chunk.text.startswith("Sentence number")


def test_big_block_of_lines_keeps_its_lines() -> None:
    lines = [f"    config_value_{n} = load_setting('key_{n}')  # keep" for n in range(60)]
    code = "def load_all():\n" + "\n".join(lines)

    chunks = chunk_blocks([Block(code)], size_tokens=80, overlap_tokens=0)

    assert len(chunks) > 3
    source = code.split("\n")
    for chunk in chunks:
        first, *rest = chunk.text.split("\n")
        assert first.strip() in {line.strip() for line in source}
        assert all(line in source for line in rest), "a line was cut or lost its indentation"


def test_small_blocks_are_packed_together() -> None:
    blocks = [Block("Buy milk."), Block("Call the plumber."), Block("Water the ferns.")]

    chunks = chunk_blocks(blocks)

    text = "Buy milk.\n\nCall the plumber.\n\nWater the ferns."
    assert chunks == [Chunk(0, text, "", None, count_tokens(text))]


def test_a_word_longer_than_a_chunk_is_the_only_cut() -> None:
    url = "https://example.com/" + "/".join(f"segment{n}" for n in range(600))  # ~5,000 characters
    text = f"See the archive at {url} before Friday."

    chunks = chunk_blocks([Block(text)], size_tokens=64, overlap_tokens=10)

    assert all(chunk.tokens <= 64 for chunk in chunks)
    assert chunks[0].text.startswith("See the archive at https://example.com/")
    assert chunks[-1].text.endswith(" before Friday.")
    pieces = "".join(chunk.text for chunk in chunks)
    assert url in pieces.replace("See the archive at ", "").replace(" before Friday.", "")


def test_overlap_must_be_smaller_than_the_chunk() -> None:
    with pytest.raises(InvalidInput, match=r"overlap \(256 tokens\) must be smaller than the chunk size"):
        chunk_blocks([Block("text")], size_tokens=256, overlap_tokens=256)
    with pytest.raises(InvalidInput):
        chunk_blocks([Block("text")], size_tokens=100, overlap_tokens=300)
    with pytest.raises(InvalidInput):
        chunk_blocks([Block("text")], size_tokens=100, overlap_tokens=-1)


def test_nothing_to_chunk() -> None:
    assert chunk_blocks([]) == []
    assert chunk_blocks([Block("   "), Block("")]) == []


def test_any_counting_function_is_respected() -> None:
    # Joins cost far more here than the chunker estimates, so it must trim after the exact count.
    def count(text: str) -> int:
        return len(text.split()) + 6 * text.count("\n\n")

    rng = random.Random(9)
    blocks = [Block(_prose(rng, rng.choice((1, 2, 8))), "Notes") for _ in range(40)]

    chunks = chunk_blocks(blocks, size_tokens=50, overlap_tokens=10, count=count)

    assert all(chunk.tokens == count(chunk.text) <= 50 for chunk in chunks)
    assert " ".join(blocks[-1].text.split()[-5:]) in chunks[-1].text


def test_two_thousand_pages_chunk_quickly() -> None:
    rng = random.Random(11)
    paragraphs = [_prose(rng, 6) for _ in range(200)]
    blocks = [Block(paragraphs[(page * 5 + n) % 200], "", page) for page in range(1, 2001) for n in range(5)]
    calls = 0

    def counting(text: str) -> int:
        nonlocal calls
        calls += 1
        return count_tokens(text)

    started = time.perf_counter()
    chunks = chunk_blocks(blocks, count=counting)
    elapsed = time.perf_counter() - started

    assert elapsed < 10, f"chunking 2,000 pages took {elapsed:.1f} s"
    assert {chunk.page for chunk in chunks} == set(range(1, 2001))
    assert calls < 12 * (len(blocks) + len(chunks))  # a few counts per chunk, not per word
