"""The merge policy as a user meets it: facts about others kept, updates and contradictions applied.

The labelled corpus (tests/data/merge_corpus.jsonl) and the question profile
(tests/data/paraphrase_profile.json) were written by someone who had not seen the code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reverie import Memory
from tests.mergepairs import remember_pair

DATA = Path(__file__).parent / "data"


def test_a_fact_about_someone_else_in_the_same_shape_is_kept(memory: Memory) -> None:
    memory.remember("User's godmother Ilse lives in Graz")
    memory.remember("User's neighbour Tariq lives in Graz")
    memory.remember("User's neighbour Tariq works as a welder")
    memory.remember("User's godmother Ilse works as a welder")
    memory.remember("User's neighbour Tariq has a tortoise")
    memory.remember("User's neighbour Tariq has a parrot")  # a second pet, not a new value
    assert memory.count(kind="fact") == 6 and memory.count(status="superseded") == 0


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a named relative's traits are many: a second one is not a new value of the first
        ("User's husband Idris is diabetic", "User's husband Idris is colour-blind"),
        ("User's boss Marguerite is Canadian", "User's boss Marguerite is allergic to nuts"),
        # working with someone names a colleague and a project, not an employer
        ("User works with Priya on the tax app", "User works with Priya on the onboarding flow"),
        ("User works with Lars at the bakery", "User works with Ona at the bakery"),
    ],
)
def test_two_facts_about_a_named_person_or_a_colleague_are_both_kept(
    memory: Memory, old: str, new: str
) -> None:
    status, texts = remember_pair(memory, old, new)
    assert status == "stored"
    assert texts == sorted([old, new])


def test_the_attribute_itself_still_takes_one_value(memory: Memory) -> None:
    status, texts = remember_pair(memory, "User's partner is Noor", "User's partner is Felix")
    assert status == "superseded" and texts == ["User's partner is Felix"]


def test_a_new_value_for_the_same_person_replaces_the_old_one_with_history(memory: Memory) -> None:
    old = memory.remember("User's godmother Ilse lives in Graz").memory
    memory.remember("User's neighbour Tariq lives in Graz")
    moved = memory.remember("User's godmother Ilse moved to Salzburg")
    assert moved.status == "superseded" and [r.id for r in moved.replaced] == [old.id]
    assert sorted(m.text for m in memory.list_memories(kind="fact")) == [
        "User's godmother Ilse moved to Salzburg",
        "User's neighbour Tariq lives in Graz",
    ]
    assert memory.get(old.id).superseded_by == moved.memory.id
    assert memory.scope.list_audit()[0].reason == "a newer value of the same attribute"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User is not allergic to penicillin", "User is allergic to penicillin"),
        ("User is allergic to penicillin", "User is not allergic to penicillin"),
        ("User's favourite band is Blur", "User's favourite band is Pulp"),
        ("User's landlord is Marta", "User's landlord is Oskar"),
        ("User plays squash", "User stopped playing squash"),
        ("User drinks green tea every afternoon", "User no longer drinks green tea"),
        ("User likes horror films", "User dislikes horror films"),
        ("User smokes", "User quit smoking"),
    ],
)
def test_an_update_or_contradiction_supersedes_and_is_never_reinforced(
    memory: Memory, old: str, new: str
) -> None:
    status, active = remember_pair(memory, old, new)
    assert status == "superseded"
    assert active == [new]
    assert [m.text for m in memory.list_memories(status="superseded")] == [old]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User lives in Lisbon", "User resides in Lisbon"),
        ("User works at Philips", "User is employed by Philips"),
        ("User's favourite colour is teal", "The user's favorite color is teal"),
        ("User loves jazz", "User is a big fan of jazz"),
    ],
)
def test_a_paraphrase_reinforces(memory: Memory, old: str, new: str) -> None:
    status, active = remember_pair(memory, old, new)
    assert (status, active) == ("reinforced", [old])
    assert memory.list_memories(kind="fact")[0].reinforcement_count == 2


def test_a_more_detailed_wording_replaces_the_vaguer_one(memory: Memory) -> None:
    status, active = remember_pair(memory, "User has a cat", "User has a cat named Tofu")
    assert (status, active) == ("superseded", ["User has a cat named Tofu"])
    status, active = remember_pair(memory, "User has a cat named Tofu", "User has a cat")
    assert (status, active) == ("reinforced", ["User has a cat named Tofu"])


def test_events_at_other_times_are_other_events(memory: Memory) -> None:
    memory.remember("User flew to Oslo in March 2023")
    memory.remember("User flew to Oslo in June 2024")
    assert memory.count(kind="fact") == 2


def test_crowded_store_loses_nothing_and_applies_each_update_to_its_own_subject(memory: Memory) -> None:
    names = "Hugo Rosa Wen Amara Bjorn Chiara Dmitri Esme Farid Greta Hiro Ines Jonas Kalani Leila".split()
    people = [f"User's {rel} {name}" for rel in ("cousin", "aunt", "mentor", "colleague") for name in names]
    cities = ["Lima", "Quito", "Oslo", "Porto", "Lyon", "Kyoto", "Austin", "Dublin"]
    first = {}
    for n, person in enumerate(people):
        row = memory.remember(f"{person} lives in {cities[n % len(cities)]}").memory
        first[person] = row.id
    assert memory.count(kind="fact") == len(people) and memory.count(status="superseded") == 0
    movers = people[::4]
    for n, person in enumerate(movers):
        result = memory.remember(f"{person} lives in {cities[(n * 3 + 1) % len(cities)] + 'ville'}")
        assert [r.id for r in result.replaced] == [first[person]], person
    assert memory.count(kind="fact") == len(people)
    assert memory.count(status="superseded") == len(movers)


def test_every_wording_of_an_attribute_finds_the_old_fact_by_its_key(memory: Memory) -> None:
    """The claim's key ("user.work_at") is one for every wording, however far apart in meaning."""
    for n in range(12):  # a crowd of other facts about work, so words alone do not find it
        memory.remember(f"User's colleague number {n} works at Firm{n}")
    old = memory.remember("User is employed by Ramboll").memory
    new = memory.remember("These days User works at Arup")
    assert [row.id for row in new.replaced] == [old.id]
    assert memory.get(old.id).status == "superseded"


def test_a_multi_valued_attribute_keeps_both_values(memory: Memory) -> None:
    """Two jobs at two times of day, two past episodes, an old and a new thing: all kept."""
    memory.remember("User works as a cashier in the mornings")
    memory.remember("User works as a bartender in the evenings")
    memory.remember("User studied chemistry at Exeter")
    memory.remember("User studied design at Falmouth")
    memory.remember("User's old camera is a Canon")
    memory.remember("User's new camera is a Fujifilm")
    assert memory.count(kind="fact") == 6 and memory.count(status="superseded") == 0


def test_new_and_old_said_of_a_thing_are_opposites_not_one_wording(memory: Memory) -> None:
    """ "is new" / "is old" differ only in words the reader used to drop: never a reinforcement."""
    old = memory.remember("User's kettle is new").memory
    result = memory.remember("User's kettle is old")
    assert result.status != "reinforced" and [row.id for row in result.replaced] == [old.id]


def _corpus(name: str) -> list[dict[str, str]]:
    """The pairs of a corpus file; ``NAME+`` is the pairs added later (ids ``w...``), ``NAME`` the others."""
    text = (DATA / name.removesuffix("+")).read_text(encoding="utf-8")
    pairs = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [pair for pair in pairs if pair["id"].startswith(ADDED) == name.endswith("+")]


# Each corpus: the share of each label handled right that must hold, at today's level: a change
# that loses ground fails. On the first corpus the goals (99 % of distinct pairs kept, 85 % of
# updates and paraphrases applied) are met over all pairs. The second corpus was written later,
# in other shapes, and shows how far the rules are from the goals on text they were not built on.
# The pairs added to the development half later (ids "w..."), in the shapes the first rules missed
# (another value of a many-valued attribute, old / new things, changes said with "switched to",
# "now", "these days", "moved to", paraphrases in another verb or voice, opposite verbs and traits),
# have floors of their own so that the first ones stay as they were.
ADDED = "w"
FLOORS = {
    "merge_corpus.jsonl": {"distinct": 0.99, "update": 0.95, "paraphrase": 0.98, "contradiction": 1.0},
    "merge_corpus.jsonl+": {"distinct": 1.0, "update": 0.87, "paraphrase": 1.0, "contradiction": 1.0},
    "merge_corpus_heldout.jsonl+": {
        "distinct": 1.0,
        "update": 0.88,
        "paraphrase": 1.0,
        "contradiction": 1.0,
    },
    "merge_corpus_heldout.jsonl": {
        "distinct": 1.0,
        "update": 0.86,
        "paraphrase": 0.85,
        "contradiction": 1.0,
    },
    # Written blind in later sessions (scored all held out by bench/merge_bench.py); their
    # misses were read afterwards, so they guard against losing ground, not generalisation.
    # Corpus 6 scored 100 / 72 / 32 / 70 % before its misses were read.
    "merge_corpus_3.jsonl": {"distinct": 1.0, "update": 0.86, "paraphrase": 0.96, "contradiction": 1.0},
    "merge_corpus_4.jsonl": {"distinct": 1.0, "update": 0.94, "paraphrase": 0.94, "contradiction": 0.88},
    "merge_corpus_6.jsonl": {"distinct": 1.0, "update": 0.88, "paraphrase": 0.78, "contradiction": 0.98},
    # Corpora 5 and 7 were scored blind until the same-subject closeness, the substituted value
    # and the moved thing (tuned on the corpora above): 100 / 72 / 44 / 72 and 100 / 60 / 54 / 62
    # before them; corpus 7's misses were read afterwards (change words, ended states).
    "merge_corpus_5.jsonl": {"distinct": 1.0, "update": 0.92, "paraphrase": 0.76, "contradiction": 0.92},
    "merge_corpus_7.jsonl": {"distinct": 1.0, "update": 0.80, "paraphrase": 0.74, "contradiction": 0.88},
    # Corpus 8 was scored once blind (100 / 62 / 48 / 64), then held out while the rewording,
    # the changed thing and the names kept were tuned on 1, heldout, 3, 4, 6 and 7; its misses
    # were not read.
    "merge_corpus_8.jsonl": {"distinct": 1.0, "update": 0.70, "paraphrase": 0.70, "contradiction": 0.76},
    # Own first-person set (issue 16): written before the first-person rules, only its distinct
    # misses read (100 / 80 / 65 / 62.5 % at 33b90a3, one contradiction reinforced: "User likes
    # jazz" / "I can't stand jazz anymore", read since: "anymore" adds no second negation).
    "merge_corpus_first_person.jsonl": {
        "distinct": 1.0,
        "update": 1.0,
        "paraphrase": 0.86,
        "contradiction": 0.93,
    },
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_labelled_corpus(memory: Memory, name: str) -> None:
    """Per label, the share of pairs merged right; and never a contradiction answered reinforced."""
    results: dict[str, list[bool]] = {}
    reinforced_contradictions = []
    for number, pair in enumerate(_corpus(name)):
        memory.add_user(f"p{number}")
        view = memory.for_user(f"p{number}")
        first = view.remember(pair["old"]).memory
        result = view.remember(pair["new"])
        active = view.list_memories(kind="fact")
        if pair["label"] == "distinct":
            ok = len(active) == 2
        elif pair["label"] in ("update", "contradiction"):
            ok = len(active) == 1 and view.get(first.id).status == "superseded"
        else:
            ok = len(active) == 1
        if pair["label"] == "contradiction" and result.status == "reinforced":
            reinforced_contradictions.append(pair)
        results.setdefault(pair["label"], []).append(ok)
    rate = {label: sum(oks) / len(oks) for label, oks in results.items()}
    assert reinforced_contradictions == []
    assert all(rate[label] >= floor for label, floor in FLOORS[name].items()), rate


def test_paraphrased_questions_find_their_fact_in_the_top_three(memory: Memory) -> None:
    """Questions worded without their answer's words: recall@3 >= 0.9 (no absolute cosine floor)."""
    profile = json.loads((DATA / "paraphrase_profile.json").read_text(encoding="utf-8"))
    for fact in profile["facts"]:
        memory.remember(fact)
    assert memory.count(kind="fact") == len(profile["facts"])
    found = 0
    for question in profile["questions"]:
        top = [hit.memory.text for hit in memory.search(question["q"], limit=3).facts]
        found += any(answer in top for answer in question["answers"])
    assert len(profile["questions"]) >= 30
    assert found / len(profile["questions"]) >= 0.9
