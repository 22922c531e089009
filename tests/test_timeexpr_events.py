"""Event dates: relative time words in a turn resolved against the day the turn was said.

"I went to a support group yesterday", said on 8 May 2023, is about 7 May 2023; a question
that asks "when" or names a period can then be matched with the day of the event, not only
with the day of the conversation.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from reverie.retrieve.timeexpr import asks_when, find_time_window, find_time_windows, mentions_time

SESSION = datetime(2023, 5, 8, 13, 56, tzinfo=UTC).timestamp()  # a Monday


def _span(text: str, reference: float = SESSION) -> list[tuple[date, date]]:
    return [
        (datetime.fromtimestamp(w.start, UTC).date(), datetime.fromtimestamp(w.end, UTC).date())
        for w in find_time_windows(text, reference, UTC)
    ]


@pytest.mark.parametrize(
    ("text", "first", "after"),
    [
        ("I went to a LGBTQ support group yesterday and it was powerful", date(2023, 5, 7), date(2023, 5, 8)),
        ("I ran a charity race last Saturday", date(2023, 5, 6), date(2023, 5, 7)),
        ("I painted that lake sunrise last year", date(2022, 1, 1), date(2023, 1, 1)),
        ("we moved here in 2022", date(2022, 1, 1), date(2023, 1, 1)),
        ("We're thinking about going camping next month", date(2023, 6, 1), date(2023, 7, 1)),
        ("my interview is tomorrow", date(2023, 5, 9), date(2023, 5, 10)),
        ("the recital is next Friday", date(2023, 5, 12), date(2023, 5, 13)),
        ("I started two weeks before", date(2023, 4, 21), date(2023, 4, 28)),
        ("we talk again three days later", date(2023, 5, 10), date(2023, 5, 13)),
    ],
)
def test_a_turn_s_relative_words_name_days_counted_from_its_own_day(
    text: str, first: date, after: date
) -> None:
    assert _span(text) == [(first, after)]


def test_the_week_before_a_date_is_the_seven_days_before_it() -> None:
    assert _span("When did she give a speech, the week before 9 June 2023?") == [
        (date(2023, 6, 2), date(2023, 6, 9))
    ]
    assert _span("the day after 9 June 2023") == [(date(2023, 6, 10), date(2023, 6, 11))]
    assert _span("the puppy she got two weeks before August 11, 2023") == [
        (date(2023, 7, 28), date(2023, 8, 11))
    ]
    window = find_time_window("what happened the week after May 3, 2023", SESSION, UTC)
    assert window is not None and window.phrase == "the week after May 3, 2023"


def test_every_expression_of_a_turn_is_kept_in_order() -> None:
    assert _span("Yesterday was rough, but in 2022 it was worse") == [
        (date(2023, 5, 7), date(2023, 5, 8)),
        (date(2022, 1, 1), date(2023, 1, 1)),
    ]
    # One expression is one window, not a month and a year.
    assert _span("back in May 2021") == [(date(2021, 5, 1), date(2021, 6, 1))]


def test_a_time_without_a_day_still_counts_as_a_mention() -> None:
    assert mentions_time("the week after the trip we painted the fence")
    assert mentions_time("I went there yesterday")
    assert not mentions_time("I love painting sunsets by the lake")
    assert find_time_windows("the week after the trip", SESSION, UTC) == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("When did Melanie run a charity race?", True),
        ("What year did John start surfing?", True),
        ("How long ago was Caroline's 18th birthday?", True),
        ("What did Melanie paint recently?", False),
        ("Who did Maria have dinner with on May 3, 2023?", False),
    ],
)
def test_questions_that_ask_for_a_time(question: str, expected: bool) -> None:
    assert asks_when(question) is expected
