"""Cut a document's blocks into chunks of at most N tokens, with overlap, never mid-word.

Blocks that share a heading and page are packed together while they fit. A block that is too
big is split between sentences (or lines), a sentence that is too big between words. The one
exception to "never mid-word" is a single word longer than the whole chunk (a 5,000-character
URL, a base64 blob): it is cut by characters, because there is no other place to cut it.

Counting is linear: every block, sentence or word piece is counted once and a chunk's size is
estimated as the sum of its parts plus one token per join, which overestimates for
:func:`reverie.text.count_tokens`. The finished text is counted once more, exactly, and pieces
are handed on to the next chunk in the rare case the estimate fell short.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import groupby

from reverie.docs.parsers import Block
from reverie.errors import InvalidInput
from reverie.text import count_tokens

_JOIN_COST = 1  # estimated tokens added by the whitespace joining two pieces
# Where a block may be split: after line breaks, or after sentence punctuation (and closing quotes).
_SENTENCE_GAP = re.compile(r"(?P<line>[ \t]*\n(?:[ \t]*\n)*)|[.!?\u2026][\"'\u201d\u2019)\]]*(?P<space>\s+)")
_WORD = re.compile(r"\S+")
_WORD_START = re.compile(r"(?<!\S)\S")


@dataclass(frozen=True)
class Chunk:
    """A piece of a document small enough to embed and to quote in a prompt."""

    index: int
    text: str
    heading: str
    page: int | None
    tokens: int


@dataclass(frozen=True)
class _Piece:
    """A run of text packed whole: a block, or a sentence or word run of a block too big to fit."""

    text: str
    tokens: int
    joiner: str  # what goes between this piece and the one before it in a chunk


def chunk_blocks(
    blocks: Sequence[Block],
    *,
    size_tokens: int = 256,
    overlap_tokens: int = 50,
    count: Callable[[str], int] = count_tokens,
) -> list[Chunk]:
    """Chunks of at most ``size_tokens``; each repeats ~``overlap_tokens`` of the one before it."""
    if size_tokens < 1:
        raise InvalidInput(f"The chunk size must be at least 1 token, not {size_tokens}")
    if overlap_tokens < 0:
        raise InvalidInput(f"The chunk overlap cannot be negative ({overlap_tokens} tokens)")
    if overlap_tokens >= size_tokens:
        raise InvalidInput(
            f"The chunk overlap ({overlap_tokens} tokens) must be smaller than the chunk size "
            f"({size_tokens} tokens); lower rag.chunk_overlap_tokens or raise rag.chunk_size_tokens"
        )
    packer = _Packer(size_tokens, overlap_tokens, count)
    chunks: list[Chunk] = []
    for (heading, page), section in groupby(blocks, key=lambda block: (block.heading, block.page)):
        for text, tokens in packer.pack(packer.pieces(section)):
            chunks.append(Chunk(len(chunks), text, heading, page, tokens))
    return chunks


class _Packer:
    """Splits blocks into pieces and packs the pieces of one section into chunks."""

    def __init__(self, size: int, overlap: int, count: Callable[[str], int]) -> None:
        self.size = size
        self.overlap = overlap
        self.count = count
        # Word runs cut from an over-long sentence leave room for a full overlap before them.
        self.word_run_limit = max(size - overlap - _JOIN_COST, (size + 1) // 2)

    def pieces(self, blocks: Iterator[Block]) -> Iterator[_Piece]:
        """The section's text as pieces that each fit a chunk on their own."""
        for block in blocks:
            text = block.text.strip()
            if not text:
                continue
            tokens = self.count(text)
            if tokens <= self.size:
                yield _Piece(text, tokens, "\n\n")
                continue
            joiner = "\n\n"
            for sentence, gap in _sentences(text):
                tokens = self.count(sentence)
                if tokens <= self.size:
                    yield _Piece(sentence, tokens, joiner)
                else:
                    for position, run in enumerate(self._word_runs(sentence, tokens)):
                        yield _Piece(run, self.count(run), joiner if position == 0 else " ")
                joiner = gap

    def pack(self, pieces: Iterator[_Piece]) -> Iterator[tuple[str, int]]:
        """(text, exact tokens) of each chunk of one section."""
        pending = list(pieces)
        pending.reverse()  # a stack: pieces that do not fit after all go back on top
        prefix, estimate = "", 0  # the overlap carried over from the previous chunk, and its count
        while pending:
            taken: list[_Piece] = []
            while pending:
                piece = pending[-1]
                cost = piece.tokens + (_JOIN_COST if taken or prefix else 0)
                if taken and estimate + cost > self.size:
                    break
                if not taken and prefix and estimate + cost > self.size:
                    # A big first piece leaves less room for the overlap; it shrinks, possibly to nothing.
                    prefix, estimate = self._tail(prefix, estimate, self.size - piece.tokens - _JOIN_COST)
                    cost = piece.tokens + (_JOIN_COST if prefix else 0)
                taken.append(pending.pop())
                estimate += cost
            text, tokens = self._settle(prefix, taken, pending)
            yield text, tokens
            prefix, estimate = self._tail(text, tokens, self.overlap) if pending else ("", 0)

    def _settle(self, prefix: str, taken: list[_Piece], pending: list[_Piece]) -> tuple[str, int]:
        """The chunk's text and exact count, handing pieces back while the estimate fell short."""
        while True:
            text = _join(prefix, taken).strip()
            tokens = self.count(text)
            if tokens <= self.size:
                return text, tokens
            if len(taken) > 1:
                pending.append(taken.pop())
            elif prefix:
                prefix = ""
            else:  # one piece alone was counted as fitting; the count function disagrees with itself
                return text, tokens

    def _tail(self, text: str, tokens: int, budget: int) -> tuple[str, int]:
        """About the most whole words ending ``text`` (of ``tokens``) that cost at most ``budget``.

        A guess from the text's words per token is taken when it fits: the overlap may fall a
        word short of the budget, but it costs one or two counts instead of a search.
        """
        if budget <= 0 or not text:
            return "", 0
        # Only the end of a long chunk can hold the overlap: look at about twice the share it needs.
        window = max(len(text) - 2 * len(text) * budget // max(tokens, 1) - 32, 0)
        found = self._tail_from(text, window, tokens, budget)
        if found is None:  # every word looked at fits: look at them all
            found = self._tail_from(text, 0, tokens, budget)
        return found or ("", 0)

    def _tail_from(self, text: str, window: int, tokens: int, budget: int) -> tuple[str, int] | None:
        starts = [match.start() for match in _WORD_START.finditer(text, window)]
        starts.reverse()  # starts[i]: where the last i+1 words begin
        counts: dict[int, int] = {}

        def fits(i: int) -> bool:
            counts[i] = self.count(text[starts[i] :])
            return counts[i] <= budget

        window_tokens = max(tokens * (len(text) - window) // len(text), 1)
        best = _largest(fits, len(starts), guess=budget * len(starts) // window_tokens - 1, settle=True)
        if best == len(starts) - 1 and window > 0:
            return None
        return (text[starts[best] :], counts[best]) if best >= 0 else ("", 0)

    def _word_runs(self, sentence: str, tokens: int) -> Iterator[str]:
        """Runs of whole words of at most ``word_run_limit`` tokens each (``tokens``: the sentence's)."""
        limit = self.word_run_limit
        words = list(_WORD.finditer(sentence))
        ends = [word.end() for word in words]
        guess = limit * len(words) // max(tokens, 1) - 1
        first = 0
        while first < len(words):
            start = words[first].start()
            fits = partial(self._fits, sentence, start, ends, first, limit)
            fit = _largest(fits, len(words) - first, guess=guess)
            if fit < 0:  # a single word longer than a whole chunk: the only mid-word cut
                yield from self._hard_cut(words[first].group(), limit)
                first += 1
            else:
                yield sentence[start : ends[first + fit]]
                first += fit + 1

    def _hard_cut(self, word: str, limit: int) -> Iterator[str]:
        ends = range(1, len(word) + 1)
        start = 0
        while start < len(word):
            fits = partial(self._fits, word, start, ends, start, limit)
            end = ends[max(_largest(fits, len(word) - start, guess=limit * 3), 0) + start]
            yield word[start:end]
            start = end

    def _fits(self, text: str, start: int, ends: Sequence[int], offset: int, limit: int, i: int) -> bool:
        """Whether text from ``start`` to the ``i``-th end after ``offset`` costs at most ``limit``."""
        return self.count(text[start : ends[offset + i]]) <= limit


def _sentences(text: str) -> Iterator[tuple[str, str]]:
    """(sentence, gap) pairs; the gap is the whitespace to rejoin it to the next, line breaks kept."""
    start = 0
    for match in _SENTENCE_GAP.finditer(text):
        gap_start, gap_end = match.span("line") if match.group("line") is not None else match.span("space")
        sentence = text[start:gap_start]
        if sentence.strip():
            yield sentence, "\n" if "\n" in text[gap_start:gap_end] else " "
        start = gap_end
    if text[start:].strip():
        yield text[start:], " "


def _join(prefix: str, pieces: list[_Piece]) -> str:
    parts = [prefix] if prefix else []
    for piece in pieces:
        if parts:
            parts.append(piece.joiner)
        parts.append(piece.text)
    return "".join(parts)


def _largest(fits: Callable[[int], bool], n: int, *, guess: int, settle: bool = False) -> int:
    """The largest i in range(n) with fits(i), for fits true up to some point and false after; -1 if none.

    Gallops out from ``guess`` and then bisects, so a good guess costs a handful of calls. With
    ``settle``, a guess that fits is taken as it is.
    """
    if n <= 0:
        return -1
    probe = min(max(guess, 0), n - 1)
    if fits(probe):
        if settle:
            return probe
        low, high, step = probe, n, 1
        while low + step < n:
            if not fits(low + step):
                high = low + step
                break
            low, step = low + step, step * 2
    else:
        low, high, step = -1, probe, 1
        while high - step >= 0:
            if fits(high - step):
                low = high - step
                break
            high, step = high - step, step * 2
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


__all__ = ["Chunk", "chunk_blocks"]
