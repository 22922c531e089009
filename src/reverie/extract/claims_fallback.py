"""Evidence from the words alone, for two facts the claim reader could not settle.

``reverie.extract.merge`` asks these when the reader could not read a fact, or read one
subject with two wordings of the predicate. Each looks at the two texts in their one wording
(``normal_wording``), not at a reading of them.
"""

from __future__ import annotations

import difflib
import functools
import re

from reverie.extract.claim_words import KINDS, PARTY_WORDS, VERBS
from reverie.extract.claims_text import (
    _TOKEN,
    Claim,
    _content,
    _dates,
    _lemma,
    _names,
    _normalise,
    _noun,
    _numbers,
)
from reverie.text import STOPWORDS

# A second value said as such: never one fact by closeness alone.
_ANOTHER = re.compile(r"\b(?:also|as well|another|too\W*$)")
# Words announcing that what follows is the value now ("now ends in 9023", "has grown to 11500").
_CHANGE = re.compile(
    r"\b(?:now|new|reached|(?:has |have )?(?:grown|grew|risen|rose|fallen|fell) to|"
    r"(?:raised|increased|decreased|lowered|reduced|cut|changed|switched|upgraded|moved|rescheduled|"
    r"promoted|pushed|bumped)(?: [\w'-]+){0,3} to|"
    r"(?:went|gone|is|are) (?:up|down) to)\b"
)
_NEW = re.compile(r"\bnew\b")
# "User's old laptop" beside "User's new laptop": two things, not one thing changed.
_PAST_THING = re.compile(r"\b(?:old|former|previous|ex)\b")


def says_another(new: str) -> bool:
    """Whether a fact says it is one more value ("User also plays the oboe", "... as well")."""
    return bool(_ANOTHER.search(_normalise(new)))


def substituted_value(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with its value (a name, number or date) replaced after a change word.

    "User's phone number ends in 4471" -> "User's phone number now ends in 9023"; "User is a
    Bronze rank in Valorant" -> "User reached Gold rank in Valorant". The rest of the words are
    mostly shared, nobody else is named, the old fact announces no change of its own, and every
    name or number only the new fact has comes after its change word: "User's parrot Mango can
    now say hello" names another parrot before the "now", and stays beside Kiwi's fact; "User's
    old phone was a Nokia" and "User's new phone is a Pixel" are two phones.
    """
    before, after = entities(old), entities(new)
    gone, added = before - after, after - before
    if not gone or not added or other_party(old, new) or _persons(old) != _persons(new):
        return False
    old_text, new_text = _normalise(old), _normalise(new)
    marker = _CHANGE.search(new_text)
    if marker is None or _CHANGE.search(old_text) or _PAST_THING.search(old_text):
        return False
    for value in added:
        at = re.search(rf"\b{re.escape(value)}", new_text)  # "wednesday" in "wednesdays"
        if at is None or at.start() < marker.start():
            return False
    old_words, new_words = _plain_words(old_text, before), _plain_words(new_text, after)
    if not old_words or not new_words:
        return False
    return len(old_words & new_words) / min(len(old_words), len(new_words)) >= 0.5


_MOVED_WHAT = re.compile(
    r"\b(?:raised|increased|decreased|lowered|reduced|cut|changed|switched|upgraded|moved|rescheduled|"
    r"promoted|pushed|bumped|turned|put)((?: [\w'-]+){1,3}) (?:up |down )?to\b"
)


def other_thing_moved(old_text: str, new_text: str) -> bool:
    """Whether the change the new fact announces is of a thing the old fact does not name ("moved
    the practice to Elm Street" after "User's GP is Dr. Hansen"); both texts in their one wording."""
    said = set(_content(_TOKEN.findall(old_text))) | {_lemma(w) for w in _TOKEN.findall(old_text)}
    for match in _MOVED_WHAT.finditer(new_text):
        what = _content(_TOKEN.findall(match.group(1)))
        if any(_new_word(word, said) for word in what):
            return True
    return False


def _new_word(word: str, said: set[str]) -> bool:
    if word in _DETERMINED or word in said or _lemma(word) in said:
        return False
    return KINDS.get(word, word) not in {KINDS.get(w, w) for w in said}  # "child" / "children"


# Words that name no other thing: what the old fact is about, a pronoun or a session of it
# ("moved its meetings to Tuesdays" after "User's book club meets on Thursdays").
_DETERMINED = frozenset(
    "it its them user their his her our my the back up down forward meeting session class lesson "
    "appointment training date time day slot".split()
)


# Groups that do things themselves: "User's book club is reading X" is not "User is reading X".
_GROUPS = frozenset(
    "club team band group choir class company school family household firm crew league".split()
)


def thing_moved(old: Claim, new: Claim) -> bool:
    """Whether one fact says of a thing of its owner what the other says of the owner.

    "User's car is a red Octavia" / "User drives a red Octavia"; "User's hobby is watercolour
    painting" / "User paints watercolours": the same owner (the user, or one named person), the
    longer subject only adds a thing that is no person, pet, name or group, and the two name
    the same names and numbers, with the same polarity. Only meaning can tell the car from the
    bike, so the merge asks for a close cosine as well (``reverie.extract.merge_verdict``).
    """
    if not (old.parsed and new.parsed) or old.negated != new.negated or says_another(new.text):
        return False
    owner = _owner(old)
    if not owner or owner != _owner(new):
        return False
    short, longer = (old, new) if len(old.subject) < len(new.subject) else (new, old)
    if short.subject != owner or not set(short.subject) < set(longer.subject):
        return False
    added = set(longer.subject) - set(short.subject)
    if added & (PARTY_WORDS | longer.subject_names | _GROUPS):
        return False
    if entities(old.text) != entities(new.text) or other_party(old.text, new.text):
        return False
    return not polarity_flip(old.text, new.text)


def thing_changed(old: Claim, new: Claim) -> bool:
    """Whether ``new`` announces a change of the thing ``old`` is about, in other words.

    "User's laptop runs Windows" -> "User's laptop operating system is now Linux": the new fact
    says "now", "new", "changed to" and the like (the old one none, and neither "old" or
    "former"), one subject holds the other and the longer one ends in a thing, not a person, pet
    or name (a person has many attributes: "User's sister now works remotely" changes another
    one), nobody else is named, neither fact is negated or says it is one more, and no year
    tells two episodes apart. Only meaning can tell that the operating system is what the laptop
    runs, so the merge asks for a close cosine as well (``reverie.extract.merge_verdict``).
    """
    if not (old.parsed and new.parsed) or old.negated or new.negated or says_another(new.text):
        return False
    old_text, new_text = _normalise(old.text), _normalise(new.text)
    if not (new.changed or _CHANGE.search(new_text)) or _CHANGE.search(old_text):
        return False
    if _PAST_THING.search(old_text) or _PAST_THING.search(new_text) or other_party(old.text, new.text):
        return False
    short, longer = sorted((old, new), key=lambda claim: len(claim.subject))
    if len(longer.subject) < 2 or not set(short.subject) <= set(longer.subject):
        return False
    if {longer.subject[-1], *longer.subject[len(short.subject) :]} & (PARTY_WORDS | longer.subject_names):
        return False
    if (
        not new.changed
        and not _CHANGE.search(_NEW.sub(" ", new_text))
        and longer.subject[-1] not in new.fresh
    ):
        return False  # "new" said of another thing: "User's kitchen" / "User bought a new kitchen table"
    years = {d for d in old.dates | new.dates if d.isdigit() and len(d) == 4}
    return not years or old.dates == new.dates


def subject_grown(old: Claim, new: Claim) -> bool:
    """Whether one fact is about a thing of what the other is about: "User's car" / "User's car
    insurance", "User's office" / "User's office hours" (a thing of the user's, the longer subject
    adding a word that is no person, pet or name). Another thing, however many words they share."""
    if not (old.parsed and new.parsed) or old.subject[:1] != ("user",) or new.subject[:1] != ("user",):
        return False
    short, longer = sorted((old, new), key=lambda claim: len(claim.subject))
    extra = set(longer.subject) - set(short.subject)
    if len(short.subject) < 2 or not extra or not set(short.subject) < set(longer.subject):
        return False  # "User has 3 weeks of leave" / "User's contract gives 5 weeks": the user's own
    return bool(extra - PARTY_WORDS - old.subject_names - new.subject_names)


def _owner(claim: Claim) -> tuple[str, ...]:
    """The words of a subject that say whose it is: the user, persons, pets and names."""
    return tuple(w for w in claim.subject if w == "user" or w in PARTY_WORDS or w in claim.subject_names)


# A state said to be over: a negation, or an event that ends it.
_ENDED = re.compile(
    r"(?<![\w-])(?:not|never|no longer|anymore|no|died|passed away|divorced|called off|stepped down|"
    r"pulled out|left|lapsed?|gave (?:[\w-]+ ){0,2}away|quit|cancell?ed|ended|split up|broke up|"
    r"dropped out)(?![\w-])"
)
_TIMES = frozenset("year month week day time today now morning evening night weekend".split())


def ended(old: str, new: str) -> bool:
    """Whether ``new`` says the state ``old`` states is over, in other words than the reader's.

    "User keeps chickens" -> "User gave the chickens away"; "User has a dog called Rufus" ->
    "Rufus died and User has no dog now": the old fact says no such thing, the new one names
    the same persons, no name or number the old one lacks, and a thing the old one has (not a
    verb, person or time: "keeps bees" / "doesn't keep chickens" share only the verb). Meaning
    must be close as well (``reverie.extract.merge_verdict``).
    """
    old_text, new_text = _normalise(old), _normalise(new)
    if not _ENDED.search(new_text) or _ENDED.search(old_text):
        return False
    if other_party(old, new) or _persons(old) != _persons(new):
        return False
    before, after = entities(old), entities(new)
    if not after <= before:
        return False
    shared = _plain_words(old_text, before) & _plain_words(new_text, after)
    return any(
        w not in _TIMES and w not in PARTY_WORDS and _lemma(w) not in VERBS and not _ENDED.search(w)
        for w in shared
    )


def _persons(text: str) -> set[str]:
    """The person and pet words of the text as written (the one wording drops an agent: "User's
    sister raised her budget" reads "user's budget was raised")."""
    found = set()
    for word in re.findall(r"[a-z-]+", text.lower()):
        single = word[:-1] if word.endswith("s") and word[:-1] in PARTY_WORDS else word  # "kids" = "kid"
        if single in PARTY_WORDS:
            found.add(_ONE_CHILD.get(single, single))
    return found


_ONE_CHILD = {"kid": "child", "kids": "child", "children": "child"}


def _plain_words(text: str, named: frozenset[str]) -> set[str]:
    """Content words other than names, numbers, dates and the subject "user"."""
    return {
        word
        for word in _content(_TOKEN.findall(text))
        if word not in named and word != "user" and not word[:1].isdigit()
    }


def shared_words(old: str, new: str) -> float:
    """The share of the two facts' content words (as nouns and verbs, "user" aside) they have in common.

    Two facts that keep most words and swap one ("User's car is blue" / "User's bike is blue")
    differ in that word, however close their vectors; two that say one thing in other words
    ("User's daughter Zoe is shy" / "Zoe, User's daughter, is very timid around strangers")
    share few.
    """
    left, right = frozenset(_lemmas(old)) - {"user"}, frozenset(_lemmas(new)) - {"user"}
    if not left or not right:
        return 1.0
    return len(left & right) / len(left | right)


def slots_swapped(old: str, new: str) -> bool:
    """Whether the two facts are one frame of content words with only some of its slots filled otherwise.

    "User's savings account is with Barclays" / "User's mortgage is with Barclays"; "User's tutor
    Aiko's favourite colour is blue" / "User's classmate Aiko's favourite colour is orange": the
    words in order, each difference a run replaced in place, nothing added, dropped or moved.
    Whatever the vectors say, the swapped words decide, and only knowing them tells a synonym
    ("home loan" for "mortgage") from another thing; a fact said again in other words changes
    its frame.
    """
    left, right = _lemmas(old), _lemmas(new)
    steps = difflib.SequenceMatcher(None, left, right, autojunk=False).get_opcodes()
    if not all(step[0] in ("equal", "replace") for step in steps):
        return False
    # a frame: some word kept in place besides the owner ("User hates long-haul flights" / "User
    # really dislikes flying long distances" keep only "user": every word said otherwise)
    return any(op == "equal" and set(left[i1:i2]) - {"user"} for op, i1, i2, _, _ in steps)


def one_word_swapped(old: str, new: str) -> bool:
    """Whether some run replaced between the two facts is a single word on one side ("savings" /
    "current account", "at home" / "in the back garden"): a slot filled otherwise, which only
    knowing the words tells from a synonym; a phrase said in other words replaces two words or
    more on both sides ("software engineer" / "computer programmer")."""
    left, right = _lemmas(old), _lemmas(new)
    steps = difflib.SequenceMatcher(None, left, right, autojunk=False).get_opcodes()
    return any(op == "replace" and min(i2 - i1, j2 - j1) == 1 for op, i1, i2, j1, j2 in steps)


def _read_lemmas(text: str) -> tuple[str, ...]:
    return tuple(_noun(_lemma(w)) for w in _content(_TOKEN.findall(_normalise(text))))


_NEGATION = re.compile(r"\b(?:not|never|no longer|anymore|stopped|quit|no)\b")


def _without_negation(text: str) -> frozenset[str]:
    return frozenset(_content(_TOKEN.findall(_NEGATION.sub(" ", text))))


def polarity_flip(old: str, new: str) -> bool:
    """Whether two texts differ by a negation and little else (for facts that cannot be read)."""
    a, b = _normalise(old), _normalise(new)
    if bool(_NEGATION.search(a)) == bool(_NEGATION.search(b)):
        return False
    left, right = _without_negation(a), _without_negation(b)
    return bool(left and right) and len(left & right) / len(left | right) >= 0.6


def user_first(text: str) -> frozenset[str]:
    """The names a text says after the user ("user owes tom" -> {tom}), to tell who does what."""
    norm = _normalise(text)
    at = re.search(r"\buser\b", norm)
    start = at.start() if at else len(norm)
    found = set()
    for name in _named(text):
        place = re.search(rf"\b{re.escape(name)}\b", norm)
        if place and place.start() > start:
            found.add(name)
    return frozenset(found)


def content_sequence(text: str) -> tuple[str, ...]:
    """A text's content words in order: equal sequences say the same thing in the same way."""
    # "new" and "old" are kept: "User's sofa is new" and "User's sofa is old" are not one wording
    return tuple(_content(_TOKEN.findall(_normalise(text)), _AGES))


_AGES = frozenset({"new", "old"})


def other_party(old: str, new: str) -> bool:
    """Whether the two texts differ in a word naming a person, pet or party (see PARTY_WORDS).

    A word one text adds to a name both texts give, where the other text says no other such word
    of that name, names nobody else: "User has a golden retriever named Biscuit" / "Biscuit, User's
    dog, is a golden retriever"; not "User's brother Karim" / "User's cousin Karim".
    """
    differ = (_nouns(old) ^ _nouns(new)) & PARTY_WORDS
    if not differ:
        return False
    shared = _named(old) & _named(new)
    return not (shared and differ <= _said_of_names(old, new, shared))


def _named(text: str) -> frozenset[str]:
    """The names of a text, a capitalised first word too ("Arjun is User's twin")."""
    first = re.match(r"^([A-Z][\w-]*)\b", text.strip())
    word = first.group(1).lower() if first else ""
    return entities(text) | (
        {word} if word and word not in STOPWORDS and word not in ("user", "i", "my") else set()
    )


def _said_of_names(old: str, new: str, names: frozenset[str]) -> set[str]:
    """The person and pet words one text attaches to a name the other attaches no other such word to."""
    common = _nouns(old) & _nouns(new) & PARTY_WORDS
    found: set[str] = set()
    attached = [_attached(_normalise(text), names) for text in (old, new)]
    for mine, theirs in (attached, attached[::-1]):
        if theirs <= common:
            found |= mine - common
    return found


def _attached(text: str, names: frozenset[str]) -> set[str]:
    """The person and pet words said of one of ``names`` in ``text``: "biscuit, user's dog",
    "user's dog biscuit", "dog named biscuit", "brother is named arjun", "arjun is user's twin"."""
    found: set[str] = set()
    for name in names:
        if not name.isalpha():
            continue
        n = re.escape(name)
        for pattern in (
            rf"\b{n},? (?:the |a )?(?:user's |their |his |her )?([a-z-]+)\b",
            rf"\b([a-z-]+),? {n}\b",
            rf"\b([a-z-]+) (?:is |was )?(?:named|called) {n}\b",
            rf"\b{n} (?:is|was) (?:the )?user's (?:[a-z-]+ )?([a-z-]+)\b",
        ):
            for match in re.finditer(pattern, text):
                word = _noun(match.group(1))
                if word in PARTY_WORDS:
                    found.add(word)
    return found


def _read_nouns(text: str) -> frozenset[str]:
    """A text's words as nouns ("kids" = "children")."""
    return frozenset(_noun(w.removesuffix("'s")) for w in _TOKEN.findall(_normalise(text)))


def entities(text: str) -> frozenset[str]:
    """Names and numbers a fact mentions: facts that differ in them are about different things."""
    return _entities(text)


def names_kept(old: str, new: str, *, added: bool) -> bool:
    """Whether every name, number and date of ``old`` is in ``new``, as one or as a word.

    A name that opens a sentence is not read as one ("Ethiopian food is ...": capitalised
    anyway), so a name of one fact found among the other's words counts as kept. ``added``:
    whether ``new`` may name more than ``old`` (a fact saying more), or must name the same.
    """
    before, after = entities(old), entities(new)
    if not _covered(before, after | _words(new)):
        return False
    return added or _covered(after - _ACRONYMS, before | _words(old))


# Short tags added to a name that name nothing new ("Liverpool" / "Liverpool FC").
_ACRONYMS = frozenset("fc afc cf sc ac ltd inc plc co llc gmbh uk us usa".split())


def _covered(names: frozenset[str], by: frozenset[str]) -> bool:
    """Whether each name is in ``by``, itself or by a word of the same stem of six letters or more
    ("Catholic" / "Catholicism")."""
    stems = {word[:6] for word in by if len(word) >= 6}
    return all(name in by or (len(name) >= 6 and name[:6] in stems) for name in names)


def _read_words(text: str) -> frozenset[str]:
    return frozenset(token.removesuffix("'s") for token in _TOKEN.findall(_normalise(text)))


def _read_entities(text: str) -> frozenset[str]:
    tokens = _TOKEN.findall(_normalise(text))
    return frozenset(_names(text)) | _numbers(tokens) | _dates(tokens)


# Pure in the text, and read for the same stored facts at every remember that finds them (a
# merge verdict asks up to five times): read once per process.
_nouns = functools.lru_cache(maxsize=16384)(_read_nouns)
_entities = functools.lru_cache(maxsize=16384)(_read_entities)
_lemmas = functools.lru_cache(maxsize=16384)(_read_lemmas)
_words = functools.lru_cache(maxsize=16384)(_read_words)


__all__ = [
    "content_sequence",
    "other_thing_moved",
    "user_first",
    "ended",
    "entities",
    "names_kept",
    "one_word_swapped",
    "other_party",
    "polarity_flip",
    "says_another",
    "slots_swapped",
    "shared_words",
    "subject_grown",
    "substituted_value",
    "thing_changed",
    "thing_moved",
]
