"""The token estimate counts a punctuation mark as its docstring says, for every character.

:func:`reverie.text.count_tokens` counts marks with a regular expression (a prompt's marks are
counted on every chat turn); it must agree with the definition it documents: a character that
is neither alphanumeric nor space nor an apostrophe.
"""

from __future__ import annotations

import math
import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from reverie.text import count_tokens

_WORD = re.compile(r"[\w']+")


def _by_definition(text: str) -> int:
    if not text:
        return 0
    words = len(_WORD.findall(text))
    marks = sum(1 for ch in text if not ch.isalnum() and not ch.isspace() and ch != "'")
    return max(math.ceil(len(text) / 4), math.ceil(words * 4 / 3) + marks)


def test_every_character_counts_as_the_definition_says() -> None:
    # "a" + the character: one word, so any mark counted differently changes the total.
    differ = [
        hex(code)
        for code in range(sys.maxunicode + 1)
        if count_tokens("a" + chr(code)) != _by_definition("a" + chr(code))
    ]
    assert differ == []


@settings(derandomize=True, database=None, max_examples=300)
@given(st.text(max_size=400))
def test_texts_count_as_the_definition_says(text: str) -> None:
    assert count_tokens(text) == _by_definition(text)


def test_marks_words_and_length() -> None:
    assert count_tokens("") == 0
    # Two words make 3; "_" and "!" are marks.
    assert count_tokens("don't stop_now!") == _by_definition("don't stop_now!") == 5
    assert count_tokens("x" * 40) == 10


_LINES = st.sampled_from(["- User's sister Mia loves jazz", "", "x_y!", " 'tis", "¿Qué?"]) | st.text()


@settings(derandomize=True, database=None, max_examples=200)
@given(st.lists(_LINES, max_size=8))
def test_lines_count_as_the_whole_text(lines: list[str]) -> None:
    # Lines are counted one at a time (and remembered); the sum is the whole text's count.
    text = "\n".join(lines)
    assert count_tokens(text) == _by_definition(text)
    assert count_tokens(text + "\n" + text) == _by_definition(text + "\n" + text)


def test_a_long_line_is_counted_too() -> None:
    line = "word, " * 400  # longer than the lines kept in the cache
    assert count_tokens(f"{line}\n{line}") == _by_definition(f"{line}\n{line}")
