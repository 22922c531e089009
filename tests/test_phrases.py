"""Tests for power-phrase detection and the third-person rewrite."""

from __future__ import annotations

import pytest

from reverie.extract.phrases import PhraseIntent, detect_phrase, infer_category, to_third_person

REMEMBER = [
    ("remember that my meeting room is the office", "User's meeting room is the office"),
    ("Remember that I walk the dog at 6pm", "User walks the dog at 6pm"),
    ("remember I walk the dog at 6pm", "User walks the dog at 6pm"),
    ("please remember I have two kids", "User has two kids"),
    ("For future reference, I don't eat pork.", "User doesn't eat pork"),
    ("for future reference I always take the bus", "User always takes the bus"),
    ("keep in mind that I'm allergic to peanuts", "User is allergic to peanuts"),
    ("keep in mind I can't stand cilantro", "User can't stand cilantro"),
    ("don't forget that my wife's name is Ana", "User's wife's name is Ana"),
    ("don't forget I've been to Japan", "User has been to Japan"),
    ("do not forget I was born in Lyon", "User was born in Lyon"),
    ("/remember I study French", "User studies French"),
    ("note that the garage code is in the drawer", "The garage code is in the drawer"),
    ("remember: call me Sam", "User wants to be called Sam"),
    ("remember, I’m vegan!", "User is vegan"),
    ("Hey assistant, remember that I go to the gym on Mondays.", "User goes to the gym on Mondays"),
    ("hey, can you remember that I watch the news at 7?", "User watches the news at 7"),
    ("okay so remember I usually do the dishes", "User usually does the dishes"),
    ("could you please remember that I'm not a morning person", "User is not a morning person"),
    ("I want you to remember that I no longer eat meat", "User no longer eats meat"),
    ("Remember that I have two kids, please", "User has two kids"),
    ("keep in mind that I’ll be away in June", "User will be away in June"),
    ("make a note that my sister calls me Bee", "User's sister calls the user Bee"),
    ("remember that when I was young I lived in Lyon", "When the user was young the user lived in Lyon"),
    ("REMEMBER THAT MY BIKE IS RED", "User's BIKE IS RED"),
]


@pytest.mark.parametrize(("utterance", "fact"), REMEMBER)
def test_remember_phrases_give_a_self_describing_fact(utterance: str, fact: str) -> None:
    assert detect_phrase(utterance) == PhraseIntent("remember", fact)


THIRD_PERSON = [
    ("my meeting room is the office", "User's meeting room is the office"),
    ("I walk the dog at 6pm", "User walks the dog at 6pm"),
    ("I'm allergic to peanuts", "User is allergic to peanuts"),
    ("I am a teacher", "User is a teacher"),
    ("I have two kids", "User has two kids"),
    ("I don't eat pork", "User doesn't eat pork"),
    ("I do yoga", "User does yoga"),
    ("I go hiking", "User goes hiking"),
    ("I watch birds", "User watches birds"),
    ("I study at night", "User studies at night"),
    ("I play chess", "User plays chess"),
    ("I fix bikes", "User fixes bikes"),
    ("I always take the bus", "User always takes the bus"),
    ("I really dislike cold weather", "User really dislikes cold weather"),
    ("I usually miss the bus", "User usually misses the bus"),
    ("I can't stand cilantro", "User can't stand cilantro"),
    ("I will call on Fridays", "User will call on Fridays"),
    ("I should drink more water", "User should drink more water"),
    ("I need glasses", "User needs glasses"),
    ("I reply quickly", "User replies quickly"),
    ("my wife's name is Ana", "User's wife's name is Ana"),
    ("I've been to Japan", "User has been to Japan"),
    ("I haven't seen Dune", "User hasn't seen Dune"),
    ("I'd like tea", "User would like tea"),
    ("I'd been to Peru twice", "User had been to Peru twice"),
    ("I was born in Lyon", "User was born in Lyon"),
    ("I moved to Berlin", "User moved to Berlin"),
    ("I went to Oxford", "User went to Oxford"),
    ("call me Sam", "User wants to be called Sam"),
    ("the garage code is in the drawer", "The garage code is in the drawer"),
    ("my sister calls me Bee", "User's sister calls the user Bee"),
    ("the red bike is mine", "The red bike is the user's"),
    ("I buy books for myself", "User buys books for themselves"),
    ("My wife and I go hiking", "User's wife and the user go hiking"),
    ("I fix bikes and I watch birds", "User fixes bikes and the user watches birds"),
    ("I go hiking. My wife and I cook", "User goes hiking. User's wife and the user cook"),
    ("i love hiking", "User loves hiking"),
    ("I’m vegan", "User is vegan"),
    ("I, for one, like tea", "User, for one, like tea"),
    ("I and my wife travel a lot", "User and the user's wife travel a lot"),
]


@pytest.mark.parametrize(("clause", "fact"), THIRD_PERSON)
def test_to_third_person(clause: str, fact: str) -> None:
    assert to_third_person(clause) == fact


# (utterance, text, category, key): a way of answering is a key of "global" (Saga); a default
# phrase names its key; a time of day keeps a key of its own.
PREFER = [
    ("I prefer concise answers", "prefers concise answers", "global", "verbosity"),
    ("I prefer detailed explanations", "prefers detailed explanations", "global", "verbosity"),
    ("I'd prefer a formal tone", "would prefer a formal tone", "global", "formality"),
    ("I have a preference for metric units", "prefers metric units", "global", "units"),
    ("I prefer celsius", "prefers celsius", "global", "units"),
    (
        "in general I like the color pink for my colored lights",
        "likes the color pink for the user's colored lights",
        "lights",
        "color",
    ),
    ("In general, I like jazz in the morning", "likes jazz in the morning", "music", "genre_morning"),
    ("generally I like dry humor", "likes dry humor", "global", "humor"),
    ("generally I want short answers", "wants short answers", "global", "verbosity"),
    ("I generally want answers in Spanish", "generally wants answers in Spanish", "global", "language"),
    ("I like oat milk in my coffee in general", "likes oat milk in the user's coffee", "drinks", "default"),
    (
        "I prefer the temperature at 72 degrees",
        "prefers the temperature at 72 degrees",
        "climate",
        "temperature",
    ),
    ("my default temperature is 72 degrees", "72 degrees", "climate", "temperature"),
    ("the default coffee order should be an oat latte", "an oat latte", "drinks", "coffee_order"),
    ("My default wake-up time is 6:30am.", "6:30am", "schedule", "wake_time"),
    ("I'd rather take the train", "would rather take the train", "travel", "default"),
    ("I’d rather take the train!", "would rather take the train", "travel", "default"),
    ("I would rather eat vegetarian food", "would rather eat vegetarian food", "food", "default"),
    ("I prefer texts over calls", "prefers texts over calls", "communication", "default"),
    ("I prefer waking up at 7am", "prefers waking up at 7am", "schedule", "wake_time"),
    ("hey, I prefer things simple", "prefers things simple", "global", "simple"),
    ("no, I prefer tea", "prefers tea", "drinks", "default"),
]


@pytest.mark.parametrize(("utterance", "text", "category", "key"), PREFER)
def test_prefer_phrases(utterance: str, text: str, category: str, key: str) -> None:
    intent = detect_phrase(utterance)
    assert intent is not None
    assert (intent.action, intent.text, intent.category, intent.key) == ("prefer", text, category, key)


FORGET = [
    ("forget about my dentist appointment", "dentist appointment"),
    ("forget that I'm vegetarian", "vegetarian"),
    ("forget that I am a vegetarian", "vegetarian"),
    ("please forget my wife's birthday", "wife's birthday"),
    ("Forget my old address.", "old address"),
    ("delete the memory about my old job", "old job"),
    ("remove the memories about the garage", "garage"),
    ("forget what you know about my job", "job"),
    ("forget that I live in Paris", "live in Paris"),
]


@pytest.mark.parametrize(("utterance", "query"), FORGET)
def test_forget_phrases_give_a_query(utterance: str, query: str) -> None:
    assert detect_phrase(utterance) == PhraseIntent("forget", query)


COMMANDS = [
    ("clear your memory", "clear"),
    ("Clear my memory.", "clear"),
    ("clear memory", "clear"),
    ("reset your memory", "clear"),
    ("reset my memory", "clear"),
    ("reset memory", "clear"),
    ("forget everything", "clear"),
    ("forget it all", "clear"),
    ("Forget everything you know about me!", "clear"),
    ("wipe your memory", "clear"),
    ("delete everything you know about me", "clear"),
    ("hey assistant, please clear your memory", "clear"),
    ("yes", "confirm"),
    ("Yes please", "confirm"),
    ("confirm", "confirm"),
    ("confirmed", "confirm"),
    ("do it", "confirm"),
    ("yes, clear it", "confirm"),
    ("Yes, clear it.", "confirm"),
    ("sure", "confirm"),
    ("okay", "confirm"),
    ("no", "cancel"),
    ("No.", "cancel"),
    ("cancel", "cancel"),
    ("never mind", "cancel"),
    ("nevermind", "cancel"),
    ("stop", "cancel"),
    ("don't", "cancel"),
    ("don’t", "cancel"),
    ("no, keep it", "cancel"),
    ("forget it", "cancel"),
    ("forget about that", "cancel"),
    ("what do you remember about me", "show_facts"),
    ("What do you remember about me?", "show_facts"),
    ("what do you know about me", "show_facts"),
    ("what facts do you know", "show_facts"),
    ("what have you remembered", "show_facts"),
    ("hey assistant, what do you know about me?", "show_facts"),
    ("what are my preferences", "show_preferences"),
    ("What are my preferences?", "show_preferences"),
    ("what do you know about my preferences", "show_preferences"),
]


@pytest.mark.parametrize(("utterance", "action"), COMMANDS)
def test_commands_without_text(utterance: str, action: str) -> None:
    assert detect_phrase(utterance) == PhraseIntent(action)  # type: ignore[arg-type]


ORDINARY = [
    "what's the weather",
    "I like pizza",
    "I love this song",
    "I want pizza tonight",
    "I forgot my keys at work",
    "do you remember when we went to Rome?",
    "remember when we went to Rome?",
    "remember that guy from the party?",
    "do you remember my daughter's name?",
    "did you forget my birthday?",
    "remember to buy milk",
    "don't forget to lock the door",
    "I'm going to remember this day forever",
    "turn on the lights",
    "set a timer for 5 minutes",
    "what time is it",
    "tell me a joke",
    "how do I reset my router",
    "my memory is getting worse",
    "forgetting things is normal",
    "I don't know",
    "no idea",
    "stop the music",
    "yes I went to the store",
    "clear the table",
    "the default is fine",
    "what's my default browser?",
    "",
    "   ",
    "?!",
    "please",
    "remember",
    "remember that",
    "forget",
]


@pytest.mark.parametrize("utterance", ORDINARY)
def test_ordinary_chat_is_not_a_command(utterance: str) -> None:
    assert detect_phrase(utterance) is None


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("concise answers", "verbosity"),
        ("brief replies", "verbosity"),
        ("a casual tone", "formality"),
        ("lots of jokes", "humor"),
        ("answers in French", "language"),
        ("fahrenheit", "units"),
        ("the thermostat at 68", "climate"),
        ("warm white lamps", "lights"),
        ("classical music", "music"),
        ("vegan meals", "food"),
        ("decaf coffee", "drinks"),
        ("waking up at 6am", "schedule"),
        ("email over phone", "communication"),
        ("aisle seats on flights", "travel"),
        ("things simple", "general"),
    ],
)
def test_infer_category(text: str, category: str) -> None:
    assert infer_category(text) == category


def test_intent_is_frozen_with_empty_defaults() -> None:
    intent = PhraseIntent("clear")
    assert (intent.text, intent.category) == ("", "")
    with pytest.raises(AttributeError):
        intent.text = "x"  # type: ignore[misc]


def test_a_four_letter_ly_adverb_is_not_the_verb() -> None:
    assert to_third_person("I duly note the rules") == "User duly notes the rules"
    assert to_third_person("I rely on my bike") == "User relies on the user's bike"


@pytest.mark.parametrize(
    ("said", "category", "key"),
    [
        ("I like pink for my lights", "lights", "color"),
        ("I want 21 degrees for the heating", "climate", "temperature"),
        ("I like jazz for my morning playlist", "music", "genre_morning"),
    ],
)
def test_a_like_aimed_at_a_thing_of_the_home_is_a_preference(said: str, category: str, key: str) -> None:
    intent = detect_phrase(said)
    assert intent is not None and (intent.action, intent.category, intent.key) == ("prefer", category, key)


@pytest.mark.parametrize(
    "said", ["I like pasta for dinner", "I love cooking for my family", "I want a bike for my birthday"]
)
def test_a_like_aimed_at_anything_else_is_chat(said: str) -> None:
    assert detect_phrase(said) is None


@pytest.mark.parametrize(
    ("said", "what"),
    [
        ("remove that preference", ""),
        ("please delete the last preference", ""),
        ("forget my lights color preference", "lights color"),
        ("Remove my verbosity preference.", "verbosity"),
    ],
)
def test_removing_a_preference(said: str, what: str) -> None:
    assert detect_phrase(said) == PhraseIntent("forget_preference", what)
