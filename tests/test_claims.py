"""How a fact is read (subject, predicate, value, polarity) and how two readings compare.

Each pair below exercises one reading rule of ``reverie.extract.claims``; the merge policy
built on them is tested through the memory in test_merge_policy.py. The pairs were written for
these tests, not taken from the labelled corpora.
"""

from __future__ import annotations

import pytest

from reverie.extract.claims import compare_claims, entities, other_party, parse_claim
from reverie.extract.merge import MergePolicy, judge
from reverie.text import number_words_as_digits


def _verdict(old: str, new: str) -> str:
    """The merge verdict without vectors (rules, names, numbers and word overlap only)."""
    return judge(old, parse_claim(new), MergePolicy())


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's car is a Honda", "User replaced the Honda with a Tesla"),  # swap names the old value
        ("User's home insurance is with Zurich", "User switched home insurance to Allianz"),  # the attribute
        ("User banks with Monzo", "User switched banks to Starling"),  # the old verb as a noun
        ("User's optician is Dr. Ruiz", "User switched opticians to Dr. Lowe"),  # a role named as swapped
        ("User's broadband plan is 100 Mbps", "User upgraded the broadband plan to 900 Mbps"),
        ("User takes 10 mg of ramipril daily", "User's ramipril dose was raised to 20 mg daily"),  # a measure
        ("User's choir rehearses on the first Tuesday", "User's choir now rehearses on the last Friday"),
        (
            "User's parrot Kiwi roosts in the study",
            "User's parrot Kiwi now roosts in the hallway",
        ),  # guessed verb
        ("User works at Deloitte", "User got a new job at KPMG"),
        ("User is a junior analyst", "User was promoted to senior analyst"),
        ("User is single", "User got married to Noor"),
        ("User's husband Tom works as a welder", "User's husband Tom became a paramedic"),
        ("User's water bill is $40 a month", "User's water bill went up to $55 a month"),
        ("User is a student at Leeds", "User graduated from Leeds"),
        ("User is training for a triathlon", "User finished the triathlon"),
        ("User's son is in second grade", "User's son is in third grade"),  # ordinals count
        ("User's favourite poet is Rilke", "User's favourite poet these days is Szymborska"),
        ("User's coach is Ivo", "Ivo retired, and User's coach is now Mara"),
        ("User's partner is called Kim", "User's partner is now Alex"),
        ("User's climbing gym is Boulderworld", "User joined a new climbing gym, The Arch"),
        ("User has a Spotify Family plan", "User cancelled the Spotify subscription"),
        ("User's niece Ivy is 8", "User's niece Ivy is 9 now"),
        ("User works as a surveyor", "User is retired now"),
        ("User works at Unilever", "User is unemployed"),
        ("User's supervisor is Grace", "User reports to Ayo now"),
        ("User meditates about 10 minutes", "User meditates about 30 minutes since the retreat"),
    ],
)
def test_a_new_value_of_the_same_thing_is_an_update(old: str, new: str) -> None:
    assert _verdict(old, new) in ("update", "contradiction")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's grandfather passed away in 2011", "User's grandpa died in 2011"),  # 'died in' is no particle
        ("User earns about $70,000 a year", "User's yearly salary is roughly 70k dollars"),  # units agree
        ("User has a hamster named Pip", "User's hamster is called Pip"),
        ("User rides a Brompton", "User's bike is a Brompton"),
        ("User's cat is a Siamese", "User has a Siamese"),
        ("User's weekly rent is 300 pounds", "User pays 300 pounds in rent each week"),  # the amount decides
        ("User speaks fluent Greek", "User is fluent in Greek"),
        ("User is interested in birdwatching", "User is passionate about birdwatching"),
        ("User hates olives", "User can't stand olives"),
        ("User is allergic to sesame", "User has a sesame allergy"),
        ("User cycles to the office", "User bikes to the office"),
        ("User wakes up at 5:30 am", "User gets up at 5:30 am"),
        ("User works as a midwife", "User is employed as a midwife"),
        ("User is 41", "User is forty-one years old"),
        (
            "User's son Eli swims every Sunday morning",
            "Every Sunday morning, Eli, the user's son, goes swimming",
        ),
        ("User's manager is Ruth", "User reports to Ruth"),
        ("User's niece is named Ivy", "User's niece's name is Ivy"),
        ("User's uncle is a physician", "User's uncle works as a doctor"),
        ("User's nephew was born in 2016", "User's nephew's birth year is 2016"),
        # one word for the same thing: British / American, number words, synonyms
        ("User's apartment has a garden", "User's flat has a garden"),
        ("User wakes up at seven in the morning on Sundays", "User gets up at 7 am on Sundays"),
        ("User's office is on the ninth floor", "User's office is on the 9th floor"),
        ("User's son plays soccer on Saturdays", "User's boy plays football on Saturdays"),
        ("User's house doesn't have a garage", "User's house has no garage"),
        ("User's mum and dad live in Cork", "User's parents reside in Cork"),
    ],
)
def test_another_wording_of_the_same_fact_is_the_same(old: str, new: str) -> None:
    assert _verdict(old, new) in ("same", "refines")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's niece Ada is left-handed", "User's niece Ada is right-handed"),  # hyphenated words
        ("User's horse is calm around traffic", "User's horse is anxious around traffic"),
        ("User's neighbour is friendly", "User's neighbour is hostile"),  # a word with two opposites
        ("User finds spreadsheets easy to use", "User finds spreadsheets hard to use"),
        ("User is interested in golf", "User has no interest in golf"),
        ("User doesn't have any children", "User has a daughter"),  # a kind under the negation
        ("User has no pets", "User has a rabbit"),
        ("User likes opera", "User can't stand opera"),
        ("User is religious", "User is an atheist"),
        ("User lives in Turin", "User used to live in Turin"),
    ],
)
def test_the_opposite_is_a_contradiction(old: str, new: str) -> None:
    assert _verdict(old, new) == "contradiction"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's sister Ana drives a Honda", "User replaced the Honda with a Tesla"),  # someone else's car
        ("User's laptop is a Dell", "User switched phone carriers to Verizon"),
        ("User's rent is $1,200 a month", "User pays $1,200 a year for car insurance"),
        ("User earns $5,000 a month", "User saves $5,000 a year"),
        ("User runs 5 km a day", "User runs 5 miles a day"),  # units that are two amounts
        ("User became a vegetarian in 2010", "User became a runner in 2015"),  # dated events
        ("User got married in June 2015", "User got engaged in June 2014"),
        ("User has a dog named Rex", "User's dog is called Max"),  # maybe a second dog
        ("User doesn't have a dog", "User has a cat"),
        ("User has no sisters", "User has a brother"),
        ("User's son Tom sleeps in the attic", "User's daughter Lily sleeps in the attic"),
        ("Every Sunday User phones their father", "Every Sunday User visits their father"),  # lead time
        ("User lives in Oslo in winter", "User lives in Nice in summer"),  # seasons set facts apart
        ("User's mortgage payment is €1,100", "User pays 1100 euros for the car loan"),
        ("User takes 50 mg of sertraline daily", "User's vitamin D dose is 50 mg daily"),
        ("User's brother Ken is a student at Yale", "User is a student at MIT"),
        ("User's car is a Volvo", "User's brother drives a Volvo"),
        ("User's gym is Fitness First", "User's sister joined a new gym"),
        ("User's dog is a beagle", "User's neighbour has a beagle"),
        ("User's favourite game is chess", "User plays chess"),
        ("User's mother lives in Lyon", "User's mother-in-law lives in Lyon"),
        ("User's optician is Dr. Ruiz", "User switched doctors to Dr. Lowe"),
        ("User has a peanut allergy", "User has a shellfish allergy"),
        ("User drinks 2 cups of coffee", "User drinks 3 cups of tea after lunch"),  # another drink
        ("User sleeps 7 hours", "User's son sleeps 10 hours"),
        ("User's manager is Ruth", "User's wife reports to Ruth"),
        ("User's home address is 12 Elm Street", "User's work address is 40 Oak Avenue"),  # a modifier
        ("User swims 2 km on Tuesdays", "User swims 1 km on Saturdays"),  # days in the plural
        ("User's cat Tom has a chip", "User replaced the kitchen chip fryer"),
    ],
)
def test_facts_about_something_else_are_both_kept(old: str, new: str) -> None:
    assert _verdict(old, new) in ("distinct", "unsure")


def test_readings() -> None:
    """The parts the comparisons above rely on."""
    tortoise = parse_claim("The user's tortoise Atlas hibernates in a box")
    assert (tortoise.parsed, tortoise.predicate) == (True, "hibernate_in")
    salary = parse_claim("User's annual salary is roughly 85k dollars")
    assert (salary.subject, salary.predicate, salary.numbers) == (("user",), "earn", frozenset({"85000"}))
    assert parse_claim("User's mortgage payment is 1100").predicate == "be_attr"  # a number, not an age
    assert parse_claim("User's gym is Fitness First").numbers == frozenset()  # an ordinal in a name
    assert "gym" in parse_claim("User joined a new gym").fresh
    assert parse_claim("User is single").predicate == parse_claim("User is married to Noor").predicate
    moved = parse_claim("On Fridays, User's kids have swimming")  # the time is kept, at the end
    assert (moved.subject, moved.dates) == (("user", "children"), frozenset({"friday"}))
    assert compare_claims(parse_claim("User has a cat"), parse_claim("User has no pets")) == "contradiction"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("twenty-nine", "29"),
        ("ninety nine", "99"),
        ("seventeen cats", "17 cats"),
        ("one hundred", "1 100"),
        ("twenty-something", "twenty-something"),
    ],
)
def test_number_words_as_digits(text: str, expected: str) -> None:
    assert number_words_as_digits(text) == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User grows tomatoes", "User eats tomatoes"),
        ("User collects vinyl records", "User sells vinyl records"),
        ("User's son builds model planes", "User's son flies model planes"),
    ],
)
def test_two_different_doings_with_one_object_are_kept_however_close_in_meaning(old: str, new: str) -> None:
    assert judge(old, parse_claim(new), MergePolicy(), similarity=0.95) == "distinct"


def test_a_light_verb_leaves_the_decision_to_meaning() -> None:
    """ "takes the bus" / "commutes by bus": the verb says little, a close meaning merges."""
    assert judge(
        "User bakes rye bread", parse_claim("User makes rye bread"), MergePolicy(), similarity=0.9
    ) in (
        "same",
        "refines",
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User works at Accenture", "Nowadays User works at Capgemini"),  # "nowadays" said first
        ("User's favourite snack is popcorn", "These days User's favourite snack is hummus"),
        ("User works as a welder", "User retrained and now works as a plumber"),  # event, then the state
        ("User drives a Peugeot 208", "User sold the Peugeot and now drives a Renault Zoe"),
        ("User rides a Vespa", "User switched to riding a Honda PCX"),  # "switched to <doing>"
        ("User's accountant is Mr. Lund", "User has a new accountant, Ms. Berg"),  # a new holder of a role
        ("User's laptop is an Acer", "User's new laptop is a Lenovo"),  # "new" names the one there is now
        ("User's car is a Seat Ibiza", "User's current car is a Mini"),
        ("User naps 20 minutes a day", "These days User naps 45 minutes a day"),
        ("User rides a Trek", "User's new bike is a Specialized"),  # "new" thing said of the subject
        ("User works 35 hours a week", "User cut back to 25 hours a week"),  # same units, new number
        ("User weighs 90 kg", "User has lost weight and now weighs 84 kg"),  # event, then the state
    ],
)
def test_a_change_said_with_now_these_days_new_or_switched_to_is_an_update(old: str, new: str) -> None:
    assert _verdict(old, new) == "update"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User is employed by Bosch", "Bosch employs User"),  # the one the fact is about as the object
        ("User is scared of wasps", "Wasps frighten User"),
        ("User's wife walks the dog every evening", "The dog is walked by User's wife"),  # passive
        ("User is afraid of heights", "User has a fear of heights"),  # feeling noun
        ("User loves opera", "User has a deep love of opera"),
        ("User is an avid cyclist", "User enjoys cycling"),  # doer noun after an adjective of liking
        ("User likes golfing", "User is a keen golfer"),
        ("User's favourite fruit is mango", "User likes mango best"),  # "best" = favourite
        ("User's favourite city is Prague", "Prague is the city User loves most"),
        ("User takes the tram to work", "User commutes by tram"),
        ("User rides her bike to the office", "User cycles to the office"),
        ("User's father lives nearby", "User's dad lives close by"),
        ("User wakes up at 7 am", "User gets up at 7 in the morning"),
        ("User listens to audiobooks on the commute", "User listens to audiobooks while commuting"),
        ("User owns two bicycles", "User has 2 bikes"),
        ("User is a keen Celtic supporter", "User supports Celtic"),  # doer noun at the end
        ("User runs half marathons", "User is a half marathon runner"),
        ("User's favourite game is chess", "User enjoys chess more than any other game"),
        ("User eats lots of fruit", "User eats plenty of fruit"),  # one word for "a lot of"
    ],
)
def test_another_verb_voice_or_noun_for_the_same_fact_is_the_same(old: str, new: str) -> None:
    assert _verdict(old, new) == "same"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User eats lunch at their desk", "User skips lunch at their desk"),  # opposite verbs
        ("User remembers birthdays", "User forgets birthdays"),
        ("User trusts online reviews", "User distrusts online reviews"),  # dis- verb
        ("User agrees with the plan", "User disagrees with the plan"),
        ("User likes parties", "User avoids parties"),
        ("User sings well", "User struggles to sing"),  # "struggles to" = does not
        ("User enjoys jogging", "User has grown to hate jogging"),  # "grown to <verb>"
        ("User is an early bird", "User is a night owl"),  # kinds of person
        ("User's street is quiet", "User's street is noisy"),  # opposite traits
        ("User's daughter Lea is tall for her age", "User's daughter Lea is short for her age"),
        ("User is confident when speaking French", "User is nervous when speaking French"),
        ("User is a vaper", "User is a non-vaper"),  # "non-"
        ("User can cook", "User is unable to cook"),  # "unable to" = "can not"
        ("User enjoys summer", "User dreads summer"),
        ("User wants to retire early", "User has no desire to retire early"),  # feeling noun + "to"
        ("User finds commuting relaxing", "User finds commuting stressful"),
        ("User's sofa is new", "User's sofa is old"),  # new / old as the value, not determiners
    ],
)
def test_opposite_verbs_and_traits_are_a_contradiction(old: str, new: str) -> None:
    assert _verdict(old, new) == "contradiction"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's old bike is a Raleigh", "User's new bike is a Canyon"),  # old and new: two bikes
        ("User's former landlord was Mr. Ito", "User's current landlord is Mr. Sato"),
        ("User lives in Ghent during the week", "User lives in Bruges at the weekend"),  # two homes
        ("User works as a cleaner in the mornings", "User works as a tutor in the evenings"),  # two jobs
        ("User studied physics at Bristol", "User studied music at Cardiff"),  # two past episodes
        ("User worked at Aldi", "User worked at Lidl"),
    ],
)
def test_two_things_or_two_times_are_both_kept(old: str, new: str) -> None:
    assert _verdict(old, new) == "distinct"


def test_a_kind_of_thing_named_by_a_time_of_day_is_not_a_time() -> None:
    """ "the night shift" names a shift, not when the fact holds: it does not set the facts apart."""
    assert _verdict("User works night shifts", "User is on the night shift") != "distinct"
    assert parse_claim("User works on the night shift").dates == frozenset()
    assert parse_claim("User swims in the evenings").dates == {"evening"}


def test_switched_to_something_unnamed_needs_close_meaning() -> None:
    """ "User switched to Chrome" replaces "User uses Firefox" only when their vectors are close."""
    new = parse_claim("User switched to Brave")
    assert judge("User uses Safari as a browser", new, MergePolicy(), 0.55) == "update"
    assert judge("User uses Safari as a browser", new, MergePolicy(), 0.3) != "update"
    assert judge("User's sister uses Safari", new, MergePolicy(), 0.55) != "update"  # another person


def test_the_same_people_and_days_in_other_words_are_not_other_parties() -> None:
    """ "kids" / "children" and "Sundays" / "Sunday" are the same party and day: meaning decides."""
    assert not other_party("User's kids go to Hillcrest School", "User's children attend Hillcrest School")
    assert entities("User swims on Sundays") == entities("User swims every Sunday")
