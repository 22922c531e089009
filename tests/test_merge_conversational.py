"""A new value said the way people talk: "lately", "has been ...ing", "turning in" (SQLite and PostgreSQL).

"Lately" announces the state now, as "these days" does; the progressive of any verb reads as the
verb ("has been going to bed at ten" = "goes to bed at ten"); every form of "turn in" is going to
bed. The sentences were written for these tests, not taken from the labelled merge corpora.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims import parse_claim
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User goes to bed at midnight", "Lately I go to bed around ten"),
        ("User goes to bed at midnight", "Lately I've been turning in at half past ten"),
        ("User goes to bed at midnight", "User has been going to bed at 10 pm lately"),
    ],
)
def test_a_new_bedtime_said_in_conversation_replaces_the_old(memory: Memory, old: str, new: str) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "superseded" and len(texts) == 1 and texts[0] != old


def test_lately_says_the_state_now() -> None:
    assert parse_claim("Lately User walks to work").changed


@pytest.mark.parametrize("text", ["User is going to the pool on Fridays", "User has been going to the pool"])
def test_going_reads_as_go(text: str) -> None:
    assert parse_claim(text).predicate == parse_claim("User goes to the pool").predicate


def test_someone_elses_bedtime_said_lately_is_another_fact(memory: Memory) -> None:
    status, texts = remember_pair(memory, "User's son goes to bed at 8 pm", "Lately I go to bed around ten")
    assert status == "stored" and len(texts) == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User lives in Utrecht", "Luckily I moved to Haarlem in June"),
        ("User works as a paralegal", "Thankfully I work as a solicitor now"),
    ],
)
def test_a_comment_before_the_fact_does_not_hide_whose_it_is(memory: Memory, old: str, new: str) -> None:
    # "Luckily" / "Thankfully" say how the user feels about it, not who it is about
    status, texts = remember_pair(memory, old, new)
    assert status == "superseded" and len(texts) == 1 and texts[0] != old


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Frankly the user prefers tea", ("user",)),
        ("Holly the user's cat sleeps on the bed", ("holly", "user", "cat")),  # a name, not a comment
        ("Kelly, the user's friend, lives in Leeds", ("user", "friend", "kelly")),
    ],
)
def test_only_a_comment_word_is_left_out_of_the_subject(text: str, subject: tuple[str, ...]) -> None:
    assert parse_claim(text).subject == subject


@pytest.mark.parametrize("text", ["Occasionally the user smokes a cigar", "Normally User smokes a cigar"])
def test_how_often_said_first_belongs_to_the_value_not_the_subject(text: str) -> None:
    claim = parse_claim(text)
    assert claim.subject == ("user",) and claim.predicate == parse_claim("User smokes a cigar").predicate
