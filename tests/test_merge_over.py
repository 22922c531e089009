"""A state said to be over, or a value changed, in other words; and the facts that stay two.

"User is a heavy gamer" -> "User doesn't play video games anymore" and "User's thesis deadline
is 30 April" -> "... was extended to 31 May" replace the old fact (extract/claims_over.py); a
negation, change word or "now" about another thing, doing, kind or time keeps both.
"""

from __future__ import annotations

import pytest

from reverie import Memory
from reverie.extract.claims import parse_claim
from reverie.extract.claims_over import said_over, value_replaced
from tests.mergepairs import remember_pair


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User is a heavy gamer.", "User doesn't play video games anymore."),
        ("User is learning the piano.", "User stopped taking piano lessons."),
        ("User has a driving licence.", "User's driving licence was revoked."),
        ("User drives to work.", "User doesn't drive; they take the bus."),
        ("User is employed full-time.", "User is currently unemployed."),
        ("User drinks alcohol at weekends.", "User has been sober for six months."),
        ("User is interested in crypto.", "User has lost all interest in crypto."),
        ("User has a cat.", "User's cat died last winter."),
        ("I play in a band.", "My band broke up."),
    ],
)
def test_a_state_said_to_be_over_in_other_words_replaces_the_old_fact(
    memory: Memory, old: str, new: str
) -> None:
    status, active = remember_pair(memory, old, new)
    assert status == "superseded" and len(active) == 1


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's thesis deadline is 30 April.", "User's thesis deadline was extended to 31 May."),
        ("User's wedding is planned for June 2025.", "User's wedding has been postponed to September 2025."),
        ("User's frequent flyer status is Silver.", "User reached Gold status with the airline."),
        ("User's GP is Dr. Hansen.", "User has been reassigned to Dr. Mbeki as their GP."),
        ("User's favourite board game is Catan.", "Wingspan has become User's favourite board game."),
        ("User's home thermostat is set to 21°C", "User has turned the thermostat down to 19°C"),
        ("User uses Firefox.", "User now uses Chrome."),
    ],
)
def test_a_new_value_of_the_thing_named_replaces_the_old_one(memory: Memory, old: str, new: str) -> None:
    status, active = remember_pair(memory, old, new)
    assert status == "superseded" and len(active) == 1


# Negations, change words and "now" about another thing, doing, kind, person or time.
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User speaks French.", "User doesn't speak German."),
        ("User has a cat.", "User doesn't have a dog."),
        ("User plays squash at the leisure centre.", "User no longer swims at the leisure centre."),
        ("User drinks oat milk.", "User doesn't drink cow's milk."),
        ("User likes jazz.", "User doesn't like country music."),
        ("User eats fish.", "User doesn't eat red meat."),
        ("User is allergic to cats.", "User isn't allergic to dogs."),
        ("User works at Deloitte.", "User doesn't work at weekends."),
        ("User lives in Porto.", "User doesn't own a car."),
        ("User plays the guitar.", "User stopped taking piano lessons."),
        ("User drinks coffee every morning.", "User no longer drinks tea."),
        ("User reads crime novels.", "User stopped reading the news."),
        ("User goes to the gym on Mondays.", "User no longer goes swimming on Fridays."),
        ("User's sister lives in Leeds.", "User's sister no longer works at the bakery."),
        ("User has a garden.", "User no longer has a greenhouse."),
        ("User watches football.", "User has stopped watching tennis."),
        ("User volunteers at the food bank.", "User quit the book club."),
        ("User keeps bees.", "User gave the chickens away."),
        ("User takes vitamin D.", "User stopped taking iron tablets."),
        ("User has a Netflix subscription.", "User cancelled the Spotify subscription."),
        ("User's son plays football.", "User's son quit piano."),
        ("User uses Firefox.", "User switched to a standing desk."),
        ("User drinks black coffee.", "User has switched to oat milk."),
        ("User lives in Porto.", "User now works from home."),
        ("User works at Deloitte.", "User now lives in Lisbon."),
        ("User plays guitar.", "User now plays the drums too."),
        ("User reads crime novels.", "User now listens to podcasts on the commute."),
        ("User's phone is an iPhone.", "User bought a new laptop."),
        ("User drives a Golf.", "User now cycles to the gym."),
        ("User's favourite band is Radiohead.", "User's favourite film is Alien now."),
        ("User is a nurse.", "User now volunteers as a first-aider at weekends."),
        ("User goes to bed at 11 pm.", "User now wakes up at 6 am."),
        ("User has two cats.", "User now has a dog as well."),
        ("User rents a flat in Leeds.", "User now rents a garage for the car."),
        ("User's car is a Golf.", "User's bike is now a Brompton."),
        ("User's GP is Dr. Hansen.", "User's dentist is now Dr. Moreau."),
        ("User's manager is Dana.", "User's mentor is now Luis."),
        ("User studies law.", "User now studies Spanish in the evenings."),
        ("User's internet provider is Virgin.", "User's energy supplier is now Octopus."),
        ("User's salary is 50000.", "User's rent is now 1500."),
        ("User works as a teacher.", "User's husband now works as a nurse."),
        ("User runs 5 km every day.", "User now walks the dog every evening."),
        ("User is learning Japanese.", "User started learning to knit."),
        ("User's daughter goes to nursery.", "User's son has started primary school."),
        ("User has a mortgage with Nationwide.", "User switched energy supplier to Octopus."),
        ("User's laptop is a ThinkPad.", "User upgraded the RAM in the desktop."),
        ("User lives in a flat in Leeds.", "User moved the piano to the living room."),
        ("User drinks two coffees a day.", "User has cut down on sugar."),
        ("User's favourite tea is Earl Grey.", "User now drinks coffee at work."),
        ("User is vegetarian.", "User no longer eats dairy."),
        ("User plays tennis on Saturdays.", "User no longer plays golf."),
        ("User is married to Tom.", "User no longer talks to their brother."),
        ("User has a dog named Rex.", "User's neighbour's dog died."),
        ("User owns a house in Leeds.", "User sold the car."),
        ("User is a member of the gym.", "User cancelled the magazine subscription."),
        ("User's car is a Golf.", "User's car insurance is now with Admiral."),
        ("User's GP is Dr. Hansen.", "User's GP moved the practice to Elm Street."),
        ("User's phone is an iPhone 12.", "User's new phone case is from Spigen."),
        ("User's manager is Dana.", "User's manager Dana now works from Berlin."),
        ("User's dentist is Dr. Shah.", "User's daughter now sees Dr. Kim as her dentist."),
        ("User's gym is PureGym.", "User's gym raised the fee to 40 pounds."),
        ("User's thesis deadline is 30 April.", "User's thesis supervisor is now Prof. Klein."),
        ("User's rent is 1200 euros.", "User's landlord is now Mr. Novak."),
        ("User's laptop is a Dell XPS.", "User's laptop bag is now a Herschel."),
        ("User's favourite band is Radiohead.", "User's favourite Radiohead album is now OK Computer."),
    ],
)
def test_a_negation_or_change_about_something_else_keeps_both(memory: Memory, old: str, new: str) -> None:
    _, active = remember_pair(memory, old, new)
    assert len(active) == 2


def test_said_over_needs_a_shared_topic_one_owner_and_one_doing() -> None:
    over = parse_claim("User doesn't play video games anymore")
    assert said_over(parse_claim("User is a heavy gamer"), over)
    assert not said_over(parse_claim("User's brother is a heavy gamer"), over)  # another person
    assert not said_over(parse_claim("User speaks French"), parse_claim("User doesn't speak German"))
    squash, swims = (
        parse_claim("User plays squash at the pool"),
        parse_claim("User no longer swims at the pool"),
    )
    assert not said_over(squash, swims)  # two doings at one place
    assert not said_over(
        parse_claim("User wears glasses"), parse_claim("User had LASIK and no longer needs glasses")
    )


def test_value_replaced_needs_the_thing_named_a_change_and_a_value_replaced() -> None:
    old = parse_claim("User's thesis deadline is 30 April")
    assert value_replaced(old, parse_claim("User's thesis deadline was extended to 31 May"))
    assert not value_replaced(old, parse_claim("User's thesis deadline is 30 April, as planned"))  # no change
    assert not value_replaced(
        old, parse_claim("User's thesis supervisor is now Prof. Klein")
    )  # another thing
    car = parse_claim("User's car is a Golf")
    assert not value_replaced(
        car, parse_claim("User's car insurance is now with Admiral")
    )  # a kind of insurance
    assert not value_replaced(
        parse_claim("User's old car was a Golf"), parse_claim("User's car is now a Polo")
    )


# Two facts of one owner in other words: another doing, thing, kind, person or time.
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User plays tennis on Saturdays.", "User watches tennis on TV."),
        ("User is allergic to cats.", "User is afraid of cats."),
        ("User likes hiking.", "User owns a pair of hiking boots."),
        ("User works as a nurse.", "User studied nursing in Leeds."),
        ("User drinks green tea.", "User grows tea plants on the balcony."),
        ("User has a dog.", "User walks dogs for a neighbour."),
        ("User lives in Leeds.", "User was born in Leeds."),
        ("User speaks Spanish.", "User is learning Portuguese."),
        ("User reads science fiction.", "User writes short stories."),
        ("User cooks Italian food.", "User loves Italian films."),
        ("User's flat has a balcony.", "User's office has a terrace."),
        ("User is saving for a house.", "User is saving for a new car."),
        ("User's daughter loves horses.", "User's daughter rides ponies at weekends."),
        ("User takes the bus to work.", "User takes the train to visit their parents."),
        ("User's husband is a chef.", "User's husband cooks dinner every night."),
        ("User's son is good at maths.", "User's son is bad at spelling."),
        ("User goes to bed at 11 pm.", "User's kids go to bed at 8 pm."),
        ("User listens to jazz.", "User plays jazz piano."),
        ("User is a vegetarian.", "User's partner is a vegan."),
        ("User owns a bike.", "User repairs bikes as a hobby."),
    ],
)
def test_two_facts_of_one_owner_in_other_words_keep_both(memory: Memory, old: str, new: str) -> None:
    _, active = remember_pair(memory, old, new)
    assert len(active) == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User is engaged to Daniel", "User married Daniel"),  # a new status with the same person
        ("User is dating Marco.", "User married Marco."),
        ("User wakes up at 6:30 am on weekdays", "User wakes up at 5:45 am on weekdays"),  # a new time
        ("User's phone is an iPhone 11.", "User upgraded to a Pixel 8."),  # switched, said of the owner
        ("User's phone is an iPhone 11.", "I've switched to a Pixel 8."),
    ],
)
def test_a_new_status_time_or_thing_switched_to_replaces_the_old_one(
    memory: Memory, old: str, new: str
) -> None:
    status, active = remember_pair(memory, old, new)
    assert status == "superseded" and len(active) == 1


def test_switched_to_something_far_in_meaning_replaces_nothing(memory: Memory) -> None:
    _, active = remember_pair(memory, "User uses Firefox.", "User switched to a standing desk.")
    assert len(active) == 2
