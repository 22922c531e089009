"""Facts the user says in the first person merge with the third-person facts a memory keeps.

"User lives in Porto" is how a memory (extraction, an assistant, the import) writes a fact;
"I moved to Lisbon" is how the user says the next one. Remember keeps a first-person fact in
the memory's voice ("User moved to Lisbon"), so the merge reads one subject; "we" and "our"
are kept as said (the user with others) and read as the user's when compared.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.third_person import said_by_user, to_third_person
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I moved to Lisbon.", "User moved to Lisbon."),
        ("I'm not allergic to peanuts anymore", "User is not allergic to peanuts anymore"),
        ("Lately my favourite cuisine is Ethiopian.", "Lately the user's favourite cuisine is Ethiopian."),
        ("I sold my car and don't have one now.", "User sold their car and doesn't have one now."),
        ("Every morning I do a short meditation", "Every morning the user does a short meditation"),
        # no first person, or a third-person fact quoting someone: as written
        ("User's son said I am silly", "User's son said I am silly"),
        ("Paris is lovely in May", "Paris is lovely in May"),
        # "we" is the user with others: kept as said
        ("We moved to Rotterdam.", "We moved to Rotterdam."),
    ],
)
def test_a_first_person_fact_is_said_in_the_memorys_voice(said: str, kept: str) -> None:
    assert said_by_user(said) == kept


@pytest.mark.parametrize(
    ("clause", "fact"),
    [
        # the second verb of the user's clause agrees too
        (
            "I have been sober for a year and do not drink at all",
            "User has been sober for a year and does not drink at all",
        ),
        (
            "I took my wife's surname and am now Kowalczyk",
            "User took the user's wife's surname and is now Kowalczyk",
        ),
        ("I changed dentists and now see Dr. Brooks", "User changed dentists and now sees Dr. Brooks"),
        (
            "I stopped working with Grant and manage the money alone",
            "User stopped working with Grant and manages the money alone",
        ),
        # a noun after "and" is not a verb; another subject's verb is not the user's
        ("I like cats and dogs", "User likes cats and dogs"),
        ("I love food and drink", "User loves food and drink"),
        ("I have a dog and she has a cat", "User has a dog and she has a cat"),
        ("My wife and I live in Ghent", "User's wife and the user live in Ghent"),
    ],
)
def test_to_third_person_agrees_the_second_verb_of_the_users_clause(clause: str, fact: str) -> None:
    assert to_third_person(clause) == fact


def test_remember_keeps_a_first_person_fact_in_the_third_person(memory: Memory) -> None:
    kept = memory.remember("I moved to Lisbon in March.").memory
    assert kept.text == "User moved to Lisbon in March."
    assert memory.remember("We moved to Rotterdam.").memory.text == "We moved to Rotterdam."


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User lives in Porto.", "I moved to Lisbon."),
        ("User works at Accenture.", "I work at Capgemini now."),
        ("User's favourite cuisine is Thai.", "Lately my favourite cuisine is Ethiopian."),
        ("User is allergic to peanuts.", "I'm not allergic to peanuts anymore."),
        ("User drinks coffee every morning.", "I no longer drink coffee."),
        ("User is an extrovert.", "I'm an introvert."),
        ("User owns a car.", "I sold my car and don't have one now."),
        # "we" and "our": the household's home and children are the user's
        ("User lives in Utrecht.", "We moved to Rotterdam last year."),
        ("User has two children.", "We have three kids now."),
    ],
)
def test_a_first_person_update_or_contradiction_replaces_the_old_fact(
    memory: Memory, old: str, new: str
) -> None:
    status, active = remember_pair(memory, old, new)
    assert status == "superseded" and len(active) == 1


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's sister Ana is a nurse.", "My sister Ana is a nurse."),
        ("User is vegan.", "I don't eat any animal products."),
        ("User's neighbour Tom has a boat.", "Our neighbour Tom has a boat."),
        ("User is vegan.", "We're vegan."),
    ],
)
def test_a_first_person_paraphrase_is_one_fact(memory: Memory, old: str, new: str) -> None:
    status, active = remember_pair(memory, old, new)
    assert status in ("reinforced", "superseded") and len(active) == 1


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's brother Karim lives in Leeds.", "My cousin Karim lives in Leeds."),
        ("User has asthma.", "My son has asthma."),
        ("User's father is retired.", "My father-in-law is retired."),
        ("User's cat is called Mochi.", "Our cat Mochi is twelve years old."),
        ("User's partner Jonas works at Philips.", "We both work at Philips."),
        ("User plays tennis with Marco.", "We play tennis on Sundays."),
        ("User lives in Porto.", "We have a holiday flat in Lisbon."),
    ],
)
def test_a_first_person_fact_about_another_person_or_thing_keeps_both(
    memory: Memory, old: str, new: str
) -> None:
    _, active = remember_pair(memory, old, new)
    assert len(active) == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a run is no walk, however close the sentences and the numbers
        ("User runs 5 km every day", "User's daily walk is 5 km"),
        ("I run 5 km every day.", "My daily walk is 5 km."),
        # a new table for the kitchen is no new kitchen; "kitchen" only says which table
        ("User's kitchen is small", "User bought a new kitchen table"),
        ("My kitchen is small.", "I bought a new kitchen table."),
        # a club joined is no employer; a stay for a conference is no home
        ("User works at Deloitte", "User joined a running club"),
        ("User lives in Porto", "User is staying in Madrid for a conference"),
    ],
)
def test_known_fact_losing_merges_keep_both(memory: Memory, old: str, new: str) -> None:
    _, active = remember_pair(memory, old, new)
    assert len(active) == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User works at Deloitte", "User joined a startup as CTO"),
        ("User's gym is PureGym", "User now goes to The Gym Group"),  # a name, not a kind of gym
        ("User's hair is long", "User cut their hair short last weekend"),  # what it is now
        # the thing named by two words, moved as a whole
        ("User's travel insurance is with Allianz", "User renewed the travel insurance with AXA this year"),
    ],
)
def test_a_new_value_named_in_other_words_still_replaces(memory: Memory, old: str, new: str) -> None:
    status, active = remember_pair(memory, old, new)
    assert status == "superseded" and len(active) == 1


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("My email address is kasia.m@inbox.me now", "User's email address is kasia.m@inbox.me now"),
        ("My old address was me@oldmail.net", "User's old address was me@oldmail.net"),
        ("My blog is at my.garden.blog/i", "User's blog is at my.garden.blog/i"),
        ("I keep my recipes in my_recipes.txt", "User keeps their recipes in my_recipes.txt"),
    ],
)
def test_an_address_in_a_first_person_fact_is_kept_as_written(said: str, kept: str) -> None:
    # "me" in "inbox.me" or "me@" is part of the address, not the user
    assert said_by_user(said) == kept


def test_a_remembered_email_address_keeps_every_character(memory: Memory) -> None:
    memory.remember("User's email is kasia@work.example")
    result = memory.remember("My email address is kasia.m@inbox.me now")
    assert result.memory.text == "User's email address is kasia.m@inbox.me now"
