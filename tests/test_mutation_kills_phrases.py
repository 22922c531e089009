"""Memory commands said in passing: the words kept, and the category a default goes under.

Written for the mutants of extract/phrases.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import pytest

from reverie.extract.phrases import PhraseIntent, detect_phrase


@pytest.mark.parametrize(
    ("said", "query"),
    [
        ("forget my, dentist appointment", "dentist appointment"),
        ("forget me, the dentist", "the dentist"),
    ],
)
def test_what_to_forget_starts_at_a_word(said: str, query: str) -> None:
    assert detect_phrase(said) == PhraseIntent("forget", query)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("remember that Xavier is my cousin", "Xavier is the user's cousin"),
        ("remember that my locker code is:", "User's locker code is"),
        ("note that the wifi password is,", "The wifi password is"),
    ],
)
def test_a_remembered_fact_keeps_its_words_and_drops_dangling_punctuation(said: str, fact: str) -> None:
    assert detect_phrase(said) == PhraseIntent("remember", fact)


@pytest.mark.parametrize(
    ("said", "value", "category"),
    [
        ("my default for my parents' is the blue room", "the blue room", "parents"),
        ("the default for my kids' bedtime is 8pm", "8pm", "kids_bedtime"),
        ("My default for 音楽 is jazz", "jazz", "general"),
    ],
)
def test_a_default_is_filed_under_its_subject(said: str, value: str, category: str) -> None:
    assert detect_phrase(said) == PhraseIntent("prefer", value, category)
