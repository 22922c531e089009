"""Shapes of the same fact people use, read by ``reverie.extract.claims`` into one claim.

Each group is one general mechanism of reading or comparing (inverted and provider shapes,
appositions and relative clauses, a person named by name alone, corrections, change verbs,
units, synonyms of relation nouns, opposite traits and verbs). The sentences were written for
these tests, not taken from the labelled merge corpora.
"""

from __future__ import annotations

import pytest

from reverie.extract.claims import parse_claim
from reverie.extract.claims_fallback import ended, substituted_value, thing_moved
from reverie.extract.merge import MergePolicy, judge


def _verdict(old: str, new: str) -> str:
    """The merge verdict without vectors (rules, names, numbers and word overlap only)."""
    return judge(old, parse_claim(new), MergePolicy())


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # inverted copular and provider shapes
        ("User's dentist is Dr. Moreau", "Dr. Moreau is the user's dentist"),
        ("User's general practitioner is Dr. Okafor", "User's GP is Dr. Okafor"),
        ("User's cat is called Pepper", "Pepper is the name of the user's cat"),
        ("User's pension is with Aviva", "Aviva holds the user's pension"),
        ("User banks with Triodos", "User's bank account is with Triodos"),
        ("User gets wifi from Sky", "User's broadband provider is Sky"),
        ("There is no garden at the user's house", "User's house has no garden"),
        # appositions and relative clauses
        ("User's uncle Felipe is a baker", "Felipe, who lives next door to the user, is a baker"),
        # the first person is the user
        ("I'm a keen climber", "User likes climbing"),
        # units and durations
        ("User's son is 1.45 m tall", "User's son's height is 145 cm"),
        ("User's walk to school takes half an hour", "User's walk to school takes 30 minutes"),
        ("User wakes at 7 am on workdays", "User wakes at 7 am on weekdays"),
        # synonyms of relation and attribute nouns
        ("User's favourite season is fall", "User loves autumn more than any other season"),
        ("User's go-to pizza place is Franco's", "User's favourite pizza place is Franco's"),
        ("User is a mother of three kids", "User has three children"),
        ("User lost their grandfather in 2009", "User's grandfather died in 2009"),
        # avoiding is not doing
        ("User won't drink energy drinks", "User avoids energy drinks"),
    ],
)
def test_the_same_fact_in_another_shape_is_the_same(old: str, new: str) -> None:
    assert _verdict(old, new) in ("same", "refines")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a named person said by name alone
        ("User's nephew Tariq is 6", "Tariq turned 7 in June"),
        ("User's grandfather Ole lives in Bergen", "Grandpa Ole moved to Oslo"),
        # change verbs of a time or a quantity
        ("User swims on Tuesday mornings", "User moved swimming to Thursday mornings"),
        ("User's dentist appointment is on 3 March", "User's dentist appointment was rescheduled to 9 March"),
        ("User's choir meets on Mondays", "User's choir moved to Wednesdays"),
        ("User's cat Miso weighs 6 kg", "Miso is down to 5 kg"),
        ("User cycles 40 km a week", "User is up to 70 km a week"),
        ("User's rent is $1,500", "User's landlord raised the rent to $1,650"),
        # what was given up, then what replaced it
        ("User's music service is Spotify", "User cancelled Spotify and uses Tidal now"),
        ("User keeps notes in Evernote", "User's notes migrated from Evernote to Obsidian"),
        ("User usually eats cereal for breakfast", "User now has porridge for breakfast instead of cereal"),
        ("User is seeing Rafa", "User broke up with Rafa and is now dating Joel"),
        ("User's fiance is Idris", "User and Idris split up"),
        ("User is single", "User has a boyfriend now"),
        # the agent of a change does not matter
        ("User takes 20 mg of atorvastatin", "User's cardiologist raised the atorvastatin dose to 40 mg"),
        # the way to work
        ("User drives to work", "User cycles to work now"),
        # a correction
        ("User's flatmate Jonas is Swiss", "Jonas isn't Swiss, he's Austrian"),
        ("User's anniversary is in May", "User's anniversary isn't in May at all, it's in June"),
        # reported speech
        ("User's niece Lila wants to be a dancer", "Lila now says she wants to be a pilot"),
        ("User's favourite album is Blue", "These days the user says Hejira is their favourite album"),
    ],
)
def test_a_new_value_said_in_another_shape_replaces_the_old(old: str, new: str) -> None:
    assert _verdict(old, new) in ("update", "contradiction", "refines")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User is a smoker", "User has never smoked"),
        ("User is a non-smoker", "User is a smoker"),
        ("User has been to Peru", "User has never been to Peru"),
        ("User owns a kayak", "User has never owned a kayak"),
        ("User's grandmother is alive", "User's grandmother is deceased"),
        ("User's driving licence is valid", "User's driving licence is expired"),
        ("User's rabbit Clover is male", "Clover, the user's rabbit, is female"),
        ("User's neighbour Ivo is kind", "Ivo is rude"),
        ("User's son Ravi likes swimming", "Ravi hates swimming"),
        ("User enjoys sailing", "User is terrified of sailing"),
        ("User is comfortable around horses", "User is scared of horses"),
        ("User likes aisle seats", "User never wants an aisle seat"),
        ("I'm a big fan of jazz", "I've never liked jazz"),
        ("User eats shellfish", "User avoids shellfish"),
        ("User works remotely", "User never works from home"),
        ("User's daughter is named Elif", "User doesn't have a daughter"),
        ("User is an only child", "User has a sister named Bea"),
        ("User's parents are divorced", "User's parents have always been married"),
    ],
)
def test_an_opposite_or_a_negation_is_a_contradiction(old: str, new: str) -> None:
    assert _verdict(old, new) == "contradiction"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a name alone is another person when the old fact does not name them
        ("User's nephew Tariq is 6", "Omar turned 7 in June"),
        # what was given up is not what the old fact is about
        ("User's sister lives with Rafa", "User broke up with Rafa and is now dating Joel"),
        ("User plays chess with Rafa", "User broke up with Rafa and is now dating Joel"),
        ("User uses Slack at work", "User cancelled Netflix and uses Disney+ now"),
        ("User's music service is Spotify", "User cancelled Netflix and uses Disney+ now"),
        # moved to another time is not another activity moved
        ("User swims on Tuesday mornings", "User moved yoga to Thursday mornings"),
        ("User's flight to Lima is on 4 June", "User's flight from Lima is on 20 June"),
        # first person facts about other people stay theirs
        ("My brother lives in Cork", "My sister lives in Cork"),
        # a place for a time is not a home
        ("User lives in Leeds", "User's book club moved to Fridays"),
    ],
)
def test_facts_about_another_person_thing_or_time_stay_distinct(old: str, new: str) -> None:
    assert _verdict(old, new) in ("distinct", "unsure")


def test_given_up_words_and_bare_names_are_read() -> None:
    cancelled = parse_claim("User cancelled Spotify and uses Tidal now")
    assert cancelled.dropped == {"spotify"} and cancelled.changed and "tidal" in cancelled.value
    moved = parse_claim("User's team migrated from Trello to Asana")
    assert moved.dropped == {"trello"} and moved.changed
    assert parse_claim("User's flight to Lima is on 4 June").subject == ("user", "lima", "flight")
    assert parse_claim("User's GP is Dr. Okafor").subject_names == frozenset()  # an acronym, not a name
    smoker = parse_claim("User is a non-smoker")
    assert smoker.predicate == "smoke" and smoker.negated


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User is vegetarian", "User doesn't eat meat"),  # a diet said by what it leaves out
        ("User is vegan", "User does not eat animal products"),
        ("Clara is the user's cousin", "User's cousin is named Clara"),  # a name said first
        (
            "User's sister Ines is expecting a baby in May",
            "Ines, the user's sister, is pregnant with a baby in May",
        ),
        ("User's wedding anniversary is on 2 June", "User got married on 2 June"),
        ("User shares a house with three friends", "User lives with three friends"),
        ("User has no brothers or sisters", "User has no siblings"),
        ("User has been to Chile three times", "User has visited Chile on three occasions"),
        ("User gets up at half past six", "User wakes up at 06:30"),
        ("User studies physics at Uppsala", "User is a physics student at Uppsala"),
        ("User's house has no heating", "User has no heating"),
    ],
)
def test_more_shapes_of_the_same_fact(old: str, new: str) -> None:
    assert _verdict(old, new) in ("same", "refines")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's cholesterol was 6.1", "User's cholesterol went up to 6.8"),  # a measure went up
        ("User's glucose level was 7.2", "User's latest glucose reading was 5.9"),  # its reading
        ("User's son Ben is in year 2", "Ben, the user's son, has started year 3"),
        ("User lives with two housemates", "User lives alone now"),
        ("User's pay is 40k", "User got a promotion; pay is 48k now"),
        ("User swims a mile in about 40 minutes", "User's mile time is now down to 35 minutes"),
        ("User's calendar app is Outlook", "User moved their calendar to Fantastical"),
        ("User's home printer is an Epson", "User replaced the printer with a Brother"),
        ("User is a member of the chess club", "User left the chess club"),
        ("User's ID card expires in 2026", "User renewed their ID card, and it now expires in 2036"),
        ("User's optician is Dr. Moss", "User registered with a new optician, Dr. Kahn"),
        ("I live in a flat in Porto", "I moved into a house in Braga"),  # "I live" reads "user live"
        (
            "User's cousin Ola is a junior tester at Ikea",
            "User's cousin Ola was promoted to test director at Ikea",
        ),
    ],
)
def test_more_changes_of_one_value(old: str, new: str) -> None:
    assert _verdict(old, new) in ("update", "contradiction", "refines")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User uses Instagram every day", "User deleted their Instagram account"),
        ("User is enrolled in a law course", "User dropped out of the law course"),
        ("User is into climbing", "User gave up climbing because of a shoulder injury"),
        ("User smokes a pipe", "User quit smoking completely"),
        ("User has a car loan", "User paid off the car loan and has no car loan now"),
        ("User has a nut allergy", "Tests showed User does not have a nut allergy after all"),
        ("User likes to cook alone", "User likes to cook together"),
        ("User's daughter Noa is allergic to peanuts", "Noa can eat peanuts without any reaction"),
    ],
)
def test_more_ends_and_opposites(old: str, new: str) -> None:
    assert _verdict(old, new) == "contradiction"


def test_a_favourite_said_anew_with_now_replaces_it_only_when_close_in_meaning() -> None:
    old, new = "User's favourite cheese is brie", parse_claim("User prefers gouda now")
    assert judge(old, new, MergePolicy(), similarity=0.6) == "update"
    assert judge(old, new, MergePolicy(), similarity=0.3) in ("distinct", "unsure")


def test_one_subject_with_the_predicate_in_other_words_is_one_fact_only_when_close_in_meaning() -> None:
    old, new = "User is scared of deep water", parse_claim("User gets nervous in the deep end")
    assert judge(old, new, MergePolicy(), similarity=0.75) == "refines"  # the newer wording replaces it
    assert judge(old, new, MergePolicy(), similarity=0.6) == "unsure"  # both kept
    also = parse_claim("User also gets nervous on ladders")  # a second fear, said as one
    assert judge(old, also, MergePolicy(), similarity=0.75) == "unsure"
    other = parse_claim("User's son gets nervous in the deep end")  # another person
    assert judge(old, other, MergePolicy(), similarity=0.75) == "distinct"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's locker code is 3815", "User's locker code is now 6620"),
        ("User's step goal is 8000 a day", "User's step goal has been raised to 10000 a day"),
        ("User holds a Purple belt in judo", "User reached Brown belt in judo"),
        (
            "User's choir practice is on Mondays at 7",
            "User's choir practice has been moved to Wednesdays at 8",
        ),
        ("User's holiday budget is 900 pounds", "User has raised the holiday budget to 1200 pounds"),
    ],
)
def test_a_value_replaced_after_a_change_word_is_an_update(old: str, new: str) -> None:
    assert substituted_value(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's budgie Pip can whistle a tune", "User's budgie Kiki can now whistle a tune"),  # named first
        ("User's locker code is 3815", "User's sister's locker code is now 6620"),  # another person
        ("User's locker code is 3815", "User's bike lock code is 6620"),  # no change said
        ("User's locker code is 3815", "User's locker code is 3815 now"),  # nothing replaced
        ("User lives in York", "User moved to Leeds"),  # no words shared but the name: the reader's to judge
        ("User's holiday budget is 900 pounds", "User's sister raised her holiday budget to 1200 pounds"),
    ],
)
def test_another_thing_named_or_no_change_said_is_no_substitution(old: str, new: str) -> None:
    assert not substituted_value(old, new)


def test_a_model_year_replaced_after_now_is_an_update_and_an_old_thing_stays_beside_a_new_one() -> None:
    new = parse_claim("User's scooter is now a 2023 Piaggio")
    assert judge("User's scooter is a 2015 Vespa", new, MergePolicy()) == "update"
    newer = parse_claim("User's new scooter is a Piaggio")
    assert judge("User's old scooter was a Vespa", newer, MergePolicy()) == "distinct"


def test_a_thing_of_the_owner_said_of_the_owner_is_one_fact_only_when_close_in_meaning() -> None:
    old, new = "User's pastime is pottery", parse_claim("User makes pottery")
    assert judge(old, new, MergePolicy(), similarity=0.9) == "refines"
    assert judge(old, new, MergePolicy(), similarity=0.8) == "distinct"
    group = parse_claim("User's pottery class makes pottery")  # a group does it
    assert not thing_moved(parse_claim("User makes pottery"), group)
    other = parse_claim("User's brother makes pottery")  # another person
    assert judge(old, other, MergePolicy(), similarity=0.9) == "distinct"


def test_a_state_said_to_be_over_in_other_words_is_a_contradiction_only_when_close_in_meaning() -> None:
    old, new = "User keeps a rowing boat at the marina", "User sold the rowing boat and no longer owns it"
    assert ended(old, new)
    assert judge(old, parse_claim(new), MergePolicy(), similarity=0.7) == "contradiction"
    place = parse_claim("User no longer swims at the leisure centre")  # only the place is shared
    assert judge("User plays squash at the leisure centre", place, MergePolicy(), 0.53) != "contradiction"
    assert not ended("User's grandmother lives in Cork", "User's grandfather no longer lives in Cork")
    assert not ended("User keeps bees", "User doesn't keep chickens any more")  # another thing
