"""Memory commands said in passing: the words kept, and the category a default goes under.

Written for the mutants of extract/phrases.py that survived `make mutation` (see tests/MUTATION.md).
"""

from __future__ import annotations

import pytest

from reverie.extract.phrases import MAX_UTTERANCE_CHARS, PhraseIntent, detect_phrase, to_third_person


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
    ("said", "value", "category", "key"),
    [
        ("my default for my parents' is the blue room", "the blue room", "parents", "default"),
        ("the default for my kids' bedtime is 8pm", "8pm", "schedule", "kids_bedtime"),
        ("My default for 音楽 is jazz", "jazz", "music", "genre"),
        ("my default for 音楽 is 日本", "日本", "general", "default"),
    ],
)
def test_a_default_is_filed_under_its_subject(said: str, value: str, category: str, key: str) -> None:
    assert detect_phrase(said) == PhraseIntent("prefer", value, category, key)


@pytest.mark.parametrize(
    ("said", "query"),
    [
        ("forget Xavier's number", "Xavier's number"),
        ("forget the dentist appointment I made", "dentist appointment made"),
    ],
)
def test_what_to_forget_keeps_the_words_that_name_it(said: str, query: str) -> None:
    assert detect_phrase(said) == PhraseIntent("forget", query)


@pytest.mark.parametrize("said", ["forget about me", "forget me", "forget that I"])
def test_forgetting_nothing_in_particular_is_not_a_command(said: str) -> None:
    assert detect_phrase(said) is None, "an empty query would match every memory"


def test_an_address_after_a_filler_is_dropped() -> None:
    said = "so, hey reverie, remember that I like tea"
    assert detect_phrase(said) == PhraseIntent("remember", "User likes tea")


def test_a_command_of_the_longest_allowed_length_is_still_read() -> None:
    said = ("remember that I like " + "tea and " * 2000)[: MAX_UTTERANCE_CHARS - 4] + " tea"
    assert len(said) == MAX_UTTERANCE_CHARS
    found = detect_phrase(said)
    assert found is not None and found.action == "remember" and found.text.startswith("User likes tea and")
    assert detect_phrase(said + "s") is None, "one character more is not read for commands"


@pytest.mark.parametrize(
    ("clause", "fact"),
    [
        ("I fully agree with Tom", "User fully agrees with Tom"),
        ("I happily eat figs", "User happily eats figs"),
        ("I rely on my sister", "User relies on the user's sister"),
        ("I, honestly, love jazz", "User, honestly, love jazz"),
    ],
)
def test_the_verb_after_an_adverb_agrees_with_user(clause: str, fact: str) -> None:
    assert to_third_person(clause) == fact


@pytest.mark.parametrize(
    ("clause", "fact"),
    [
        # "i.e." is not the pronoun "I", in either case and at the very end.
        ("I eat fruit, i.e. apples", "User eats fruit, i.e. apples"),
        ("I eat fruit, I.E. apples", "User eats fruit, I.E. apples"),
        ("I eat fruit, i.e", "User eats fruit, i.e"),
        # A sentence that starts with the user starts with a capital.
        ("Mine is the blue one", "The user's is the blue one"),
        ("Me and Tom went hiking", "The user and Tom went hiking"),
        ("I Like tea", "User Likes tea"),
        # "I" as the last word, or before its verb at the end.
        ("Tom and I", "Tom and the user"),
        ("Eat more I do", "Eat more the user does"),
        # "I'd" is "had" before a participle and "would" otherwise, also as the last word.
        ("I'd gone home", "User had gone home"),
        ("Tom knows I'd", "Tom knows the user would"),
        ("Tom knows I'd gone", "Tom knows the user had gone"),
        # A subject of up to three words before "and I" takes the plural verb; a longer one does not.
        ("my little sister and I like tea", "User's little sister and the user like tea"),
        ("my very little sister and I like tea", "User's very little sister and the user likes tea"),
        ("And I like tea", "And the user likes tea"),
        ("Tom or I pick up the kids", "Tom or the user pick up the kids"),
        ("Neither Tom nor I eat meat", "Neither Tom nor the user eat meat"),
        ("Tom OR I pick up the kids", "Tom OR the user pick up the kids"),
    ],
)
def test_first_person_becomes_the_user_in_the_right_form(clause: str, fact: str) -> None:
    assert to_third_person(clause) == fact
