"""What a fact says: who it is about, which attribute, what value, and whether it is negated.

The merge (``reverie.extract.merge``) must tell a paraphrase ("User resides in Lisbon" after
"User lives in Lisbon") from a new value for the same attribute ("User lives in Porto"), from
a contradiction ("User no longer drinks coffee" after "User drinks coffee every morning") and
from a fact about someone or something else in the same shape ("User's cousin Ana lives in
Quito" beside "User's aunt Rosa lives in Quito"). A sentence embedding alone cannot: all of
these lie close together. So a fact is read, by rules and without an LLM, into a
:class:`Claim` and two claims are compared by :func:`compare_claims`.

The reading is shallow on purpose: a subject noun phrase ("user", "user's cousin hugo",
"the user's car"), a predicate (a verb with its particle, or a copula with the kind of its
complement), the value's content words, its numbers and dates, and its polarity (not, never,
no longer, stopped, quit, gave up, anymore, dislikes ...). A fact it cannot read yields a
claim with ``parsed=False``; the caller then falls back to word overlap and meaning, and keeps
both facts when those do not settle it.

This module reads a sentence (subject, verb phrase, value); the words themselves (spelling,
lemmas, names, numbers, dates) are read in ``reverie.extract.claims_text`` and two readings are
compared in ``reverie.extract.claims_compare``, with the text-level fallback in
``reverie.extract.claims_fallback`` (both re-exported here).
"""

from __future__ import annotations

import re

from reverie.extract.claim_words import (
    ATTRIBUTE_PREDICATES,
    ATTRIBUTE_SHAPES,
    AUX,
    CEASE,
    CHANGE,
    COPULA,
    COUPLED,
    DETERMINERS,
    FEELING_NOUNS,
    HEDGES,
    HOBBY_VERBS,
    INTEREST_DETERMINERS,
    IRREGULAR,
    JOB_DETERMINERS,
    JOBS,
    JOINED_GROUPS,
    KEEN,
    MARITAL,
    MONTHS,
    NEG_WORDS,
    NEUTRAL_MODIFIERS,
    OCCUPATIONS,
    PARTY_WORDS,
    PAST_FORMS,
    PRE_VERB,
    PREPOSITIONS,
    SWAP_VERBS,
    SYNONYMS,
    TEMPORARY,
    TITLES,
    VERBS,
)
from reverie.extract.claims_compare import compare_claims, favourite_replaced, switched_to
from reverie.extract.claims_fallback import content_sequence, entities, other_party, polarity_flip
from reverie.extract.claims_reword import reworded
from reverie.extract.claims_text import (
    _TOKEN,
    MODALS,
    Claim,
    Verdict,
    _at,
    _content,
    _dates,
    _do_done,
    _guessed_verb,
    _is_participle,
    _is_verb,
    _is_year,
    _lemma,
    _names,
    _normalise,
    _noun,
    _numbers,
    _numeric,
    _placed_verb,
    _strip,
    _verb_at,
)
from reverie.text import STOPWORDS, fold

_LEAD_CLAUSE = re.compile(
    r"^(?:[^,]{1,40},\s*(?:and |but |so )?"
    r"|[^,]{1,40}? (?:\w+ed|left|quit)(?: out| away| on)? (?:and|but|so) )"
    r"(?=(?:the )?user\b)"
)
# A time or place said first ("Every Sunday User calls ...", "On Fridays, User's kids ..."): it
# belongs to the value, so it is moved to the end rather than dropped.
_LEAD_WORDS = (
    r"(?:on|every|each|most|in|during|since|at|after|before|when|while|from|by|this|last|next|"
    r"these|nowadays|usually|often|sometimes|lately|recently|currently|today|twice|once|three times|"
    r"normally|generally|typically|occasionally|rarely|frequently|regularly|mostly)\b"
)
_LEAD_ADVERBIAL = re.compile(
    rf"^({_LEAD_WORDS}[^,]{{0,40}}?),?\s+(?=(?:the )?user\b)(.*)$"
    rf"|^({_LEAD_WORDS}[^,]{{0,40}}),\s+(?=[\w'-]+(?: [\w'-]+)?, (?:the )?user's)(.*)$"
)
_APPOSITIVE = re.compile(r"^([\w'-]+(?: [\w'-]+)?), (?:the )?(user's [\w' -]+?),\s*")
_RELATIVE = re.compile(r"^([\w'-]+), (?:who|which|whom|whose) [^,]+, ")
_NAME_OF = re.compile(r"^([\w'-]+(?: [\w'-]+)?) (?:is|was) the name of ((?:the )?user's [\w' -]+)$")
_INVERTED = re.compile(r"^(?!(?:the )?user\b)(.+?) (is|are|was|were) ((?:the )?user's .+)$")


def parse_claim(text: str) -> Claim:
    """Read one fact into a :class:`Claim` (see the module docstring)."""
    norm = _normalise(text).strip().rstrip(".!?;:")
    named_first = ""
    lead = _LEAD_ADVERBIAL.match(norm)
    if lead:  # "Every night, User's cat sleeps on the bed" -> "User's cat sleeps on the bed every night"
        norm = f"{lead.group(2) or lead.group(4)} {lead.group(1) or lead.group(3)}"
    norm = _APPOSITIVE.sub(lambda m: f"{m.group(2)} {m.group(1)} ", norm)  # "Maria, the user's sister, ..."
    norm = _LEAD_CLAUSE.sub("", norm)  # "Maria left, and User's coach is ..." -> "User's coach is ..."
    norm = _RELATIVE.sub(r"\1 ", norm)  # "Mei, who is married to the user, is ..." -> "Mei is ..."
    norm = _NAME_OF.sub(r"\2 is named \1", norm)  # "Bruno is the name of the user's dog"
    inverted = _INVERTED.match(norm)  # "Green is User's favorite color" -> "User's favorite color is green"
    if inverted:
        norm = f"{inverted.group(3)} {inverted.group(2)} {inverted.group(1)}"
        first = re.match(r"^([A-Z][\w-]*)\b", text.strip())  # "Ingrid is User's sister": a name first
        if first and len(inverted.group(1).split()) <= 3 and fold(first.group(1)) not in STOPWORDS:
            named_first = fold(first.group(1))
    norm, announced, dropped = reworded(norm)
    tokens = _TOKEN.findall(norm)
    every = frozenset(_content(tokens))
    names = _names(text) | ({named_first} if named_first else set())
    unread = Claim(text=text, parsed=False, words=every, numbers=_numbers(tokens), dates=_dates(tokens))
    if not tokens:
        return unread
    # Subject: everything before the first verb, auxiliary or pre-verb adverb.
    start = 1 if tokens[0] == "the" else 0
    end = None
    for i in range(start + 1, min(len(tokens), start + 8)):
        previous = tokens[i - 1] if i - 1 >= start else None
        if tokens[i] in PRE_VERB or _is_verb(tokens[i], previous):
            end = i
            break
        if _verb_at(tokens, i, start):  # a verb the list lacks: "User remortgaged at 4.6%"
            end = i
            break
    if end is None:
        return unread
    # "User's flight to Tokyo" = "User's Tokyo flight": the head noun last
    subject_tokens = [t.removesuffix("'s") for t in tokens[start:end] if t != "'s"]
    at = next((i for i, t in enumerate(subject_tokens) if t in ("to", "of", "for") and i > 1), None)
    if at is not None and subject_tokens[0] == "user":
        subject_tokens = [subject_tokens[0], *subject_tokens[at + 1 :], *subject_tokens[1:at]]
    subject_tokens = [t for t in subject_tokens if t not in ("to", "of", "for")]
    # "User's old laptop" is another laptop than "User's new laptop"; "new" and "current" name the one
    # there is now ("User's current car" = "User's car").
    announced = announced or any(t in ("new", "latest") for t in subject_tokens)
    subject = tuple(
        "old" if t in _PAST_MARKS else _noun(t)
        for t in subject_tokens
        if (t not in DETERMINERS or t in _PAST_MARKS) and t not in _NOW_MARKS
    )
    if len(subject) >= 3 and subject[0] == "user":  # "User's main email" = "User's email"
        subject = (subject[0], *(t for t in subject[1:-1] if t not in _USUAL), subject[-1])
    if not subject:
        return unread
    rest = tokens[end:]
    negated = False
    ceased = False
    # Adverbs, negation and auxiliaries before the main verb.
    i = 0
    while i < len(rest) and (rest[i] in PRE_VERB or rest[i] == "longer"):
        if rest[i] in NEG_WORDS:
            negated = True
        i += 1
    predicate, value_tokens, negated2, ceased = _predicate(rest[i:])
    # "anymore" needs a negation and adds none of its own: "doesn't drink coffee anymore" is one
    # negation, "can't stand jazz anymore" (read "dislikes jazz") none; alone it negates
    negated = negated or negated2 or ("anymore" in rest and not set(rest) & NEG_WORDS)
    if "used" in rest[i : i + 1] and rest[i + 1 : i + 2] == ["to"]:
        negated = True  # "used to play" = no longer plays
    if not predicate:
        return unread
    head = rest[i] if i < len(rest) else ""
    past = head in PAST_FORMS or (head.endswith("ed") and _lemma(head) != head and head not in AUX)
    changed = (
        announced
        or any(t in CHANGE and rest[at + 1 : at + 2] != ["up"] for at, t in enumerate(rest[: i + 3]))
        or predicate.startswith(("go_up", "go_down"))
        or "now" in rest[i:]  # "works at PwC now"
    )
    if value_tokens[:1] == ["no"] and value_tokens[1:2] != ["longer"]:
        negated, value_tokens = True, value_tokens[1:]  # "has no tattoos"
    while value_tokens[:1] and value_tokens[0] in CHANGE:
        changed = True  # "was changed to amlodipine", "was raised to 72,000"
        value_tokens = value_tokens[2:] if value_tokens[1:2] in (["to"], ["into"]) else value_tokens[1:]
    value_words = _content(value_tokens)
    if value_tokens and value_tokens[-1] in ("new", "old"):
        value_words.append(value_tokens[-1])  # "User's bike is old": an adjective, not a determiner
    if predicate in ("change_to", "switch_to") and len(subject) >= 2 and subject[-1] not in PARTY_WORDS:
        # "User's surname changed to Delgado" says what "User's surname is Delgado" says, now
        predicate, changed = "be_attr", True
    if (
        2 <= len(subject) <= 3
        and subject[0] == "user"
        and subject[-1] in ATTRIBUTE_PREDICATES
        and not set(subject[1:-1]) & (PARTY_WORDS | names | _LIKED)  # "favourite city" is no home
        and predicate in ATTRIBUTE_SHAPES
    ):
        # "User's birthplace is X", "User's annual salary is X" (a modifier, not another person);
        # "User's work address" is not "User's home address"
        predicate = ATTRIBUTE_PREDICATES[subject[-1]]
        subject = ("user", *(w for w in subject[1:-1] if w not in NEUTRAL_MODIFIERS))
    elif (
        len(subject) >= 3
        and subject[-1] in ATTRIBUTE_PREDICATES
        and predicate in ATTRIBUTE_SHAPES
        and not set(subject) & _LIKED
    ):
        # "User's son's name is Oliver" = "User's son is named Oliver"; "User's sister's job is ..."
        attribute = ATTRIBUTE_PREDICATES[subject[-1]]
        predicate, subject = "be_attr" if attribute == "name" else attribute, subject[:-1]
    elif (
        predicate == "age"
        and len(subject) >= 2
        and not {subject[-1]} & (PARTY_WORDS | names)
        and "year" not in value_words
    ):
        predicate = "be_attr"  # "User's mortgage payment is 1100": a number, not an age
    elif len(subject) >= 2 and predicate == "name" and len(value_words) <= 2:
        predicate = "be_attr"  # "User's boss is named Henrik" = "User's boss is Henrik"
    elif len(subject) >= 2 and predicate in ("be", "be_a", "be_identity"):
        predicate = _attribute_predicate(subject, predicate, value_tokens, names)
    if predicate == "marry" and not set(value_words) & set(COUPLED.values()):
        # who one is with, and how: "engaged to Daniel" -> "married Daniel" is a new status
        status = next((COUPLED[t] for t in rest if t in COUPLED), None)
        if status:
            value_words.append(status)
    if predicate == "live_in" and value_words and all(_timely(w) for w in value_words):
        predicate = "move_to"  # "the league moved to Thursdays": a time, not a home
    return Claim(
        text=text,
        parsed=True,
        subject=subject,
        subject_names=frozenset(_noun(n) for n in names if _noun(n) in subject),  # "Jonas" is "jona"
        predicate=predicate,
        value=frozenset(value_words),
        numbers=_numbers(value_tokens) - names,  # "Fitness First" is a name
        dates=_dates(value_tokens),
        negated=negated,
        ceased=ceased,
        changed=changed,
        past=past,
        ranked=any(t in ("to", "over", "than", "instead", "rather") for t in value_tokens),
        order=tuple(value_words),
        dropped=dropped,
        words=every,
        fresh=_fresh(value_tokens, names),
    )


def _fresh(tokens: list[str], names: set[str]) -> frozenset[str]:
    """The things a value calls new, by their head noun: "joined a new gym, Anytime Fitness" ->
    gym; "has a new dentist, Dr. Moreno" -> dentist; "a new kitchen table" -> table, not kitchen."""
    found = set()
    for at, token in enumerate(tokens):
        run = tokens[at + 1 : at + 3] if token == "new" else []
        while run and (run[-1] in names or run[-1] in TITLES or run[-1] in STOPWORDS):
            run = run[:-1]
        if run:
            found.add(_noun(run[-1]))
    return frozenset(found)


def normal_wording(text: str) -> str:
    """The fact in the one wording the reader compares (first person, contractions, synonyms folded)."""
    return _normalise(text)


def _timely(word: str) -> bool:
    """Whether a value word names a time (a day, month, part of the day or year, a clock time)."""
    return bool(_dates([word])) or word in MONTHS or bool(re.fullmatch(r"\d\d:\d\d", word))


def _doing(word: str) -> str:
    """The verb of an "-ing" form ("gardening" -> "garden", "swimming" -> "swim", "golfing" -> "golf")."""
    lemma = _lemma(word)
    if lemma != word or not word.endswith("ing") or len(word) < 6:
        return lemma
    stem = word[:-3]
    return stem[:-1] if stem[-1] == stem[-2] and stem[-1] not in "aeiouls" else stem


def _doer(word: str) -> str:
    """The verb of a doer noun ("gardener" -> "garden", "runner" -> "run", "cyclist" -> "cycle"), or ""."""
    endings = (("ist", "e"), ("ist", ""), ("er", ""), ("er", "e"), ("r", ""), ("or", ""), ("or", "e"))
    for suffix, repl in endings:
        stem = word[: -len(suffix)] + repl
        if word.endswith(suffix) and len(stem) > 2:
            for candidate in (stem, stem[:-1] if stem[-1:] == stem[-2:-1] else stem):
                if candidate in VERBS or candidate in HOBBY_VERBS:
                    return candidate
    return ""


_USUAL = frozenset({"main", "usual", "primary", "regular", "normal", "everyday"})
_LIKED = frozenset({"favorite", "preferred", "dream", "ideal"})
_PAST_MARKS = frozenset({"old", "former", "previous", "ex"})
_NOW_MARKS = frozenset({"new", "current", "present", "latest"})


def _predicate(tokens: list[str]) -> tuple[str, list[str], bool, bool]:
    """(predicate, value tokens, negated, ceased) of the words from the verb on."""
    if not tokens:
        return "", [], False, False
    negated = False
    words = list(tokens)
    if words[:3] in (["can", "not", "stand"], ["could", "not", "stand"]):
        return "dislike", words[3:], False, False  # "can't stand cilantro" = dislikes cilantro
    # "does not drink", "has never been", "will no longer": auxiliaries and negation first.
    while len(words) > 1 and (
        words[0] in AUX - COPULA - {"has", "have", "had", "got", "gets"}
        and not _do_done(words)
        or words[0] in NEG_WORDS
        or words[0] in PRE_VERB
        or words[0] == "longer"
    ):
        if words[0] in NEG_WORDS:
            negated = True
        words = words[1:]
    if words[0] in ("has", "have", "had") and len(words) > 2 and words[1] in PRE_VERB:
        # "has never smoked", "have always been married": the adverbs belong to the verb after them
        j = 1
        while j < len(words) - 1 and (words[j] in PRE_VERB or words[j] == "ever"):
            j += 1
        if words[j] == "been" or _is_participle(words[j]):
            negated = negated or any(w in NEG_WORDS for w in words[1:j])
            words = [words[0], *words[j:]]
    head = words[0]
    lemma = _lemma(head)
    if len(words) > 1 and (lemma == "become" or (lemma == "get" and words[1].endswith("ed"))):
        return _copula(words[1:], negated)  # "became a midwife", "got married to Alex"
    job = _strip(words[1:], JOB_DETERMINERS)
    if lemma in ("get", "have", "start", "land", "take", "find", "accept") and job[:1] and job[0] in JOBS:
        # "got a new job at Microsoft" = works at Microsoft; "has a job as a nurse" = works as one
        after = job[1:]
        if after[:1] == ["as"]:
            return "work_as", after[1:], negated, False
        return "work_at", after[1:] if after[:1] and after[0] in PREPOSITIONS else after, negated, False
    if lemma == "have" and any(w in ("allergy", "intolerance") for w in words[1:5]):
        at = next(i for i, w in enumerate(words) if w in ("allergy", "intolerance"))
        if at > 1:  # "has a peanut allergy" = is allergic to peanuts
            return "allergic_to", [w for w in words[1:at] if w not in DETERMINERS], negated, False
    if lemma in SWAP_VERBS and words[1:2] == ["to"] and words[2:3] and _doing(words[2]) in VERBS:
        return _predicate([_doing(words[2]), *words[3:]])  # "switched to driving a Tesla" = drives one
    to_verb = _lemma(_at(words, 2) or "") in VERBS
    if lemma in ("grow", "come", "start", "begin") and words[1:2] == ["to"] and to_verb:
        return _predicate(words[2:])  # "has grown to hate running" = hates running ("grown": a change)
    if lemma in ("struggle", "fail") and words[1:2] == ["to"] and len(words) > 2:
        inner, value, _, _ = _predicate(words[2:])  # "struggles to remember faces" = does not remember
        return inner, value, True, False
    # "stopped playing tennis", "quit smoking", "gave up coffee", "no longer plays"
    if lemma in CEASE and len(words) > 1:
        after = words[1:]
        if after and after[0] in ("up", "on", "out", "off", "from"):
            after = after[1:]
        if after and after[0].endswith("ing") and _lemma(after[0]) != after[0]:
            inner, value, _, _ = _predicate(after)
            return inner, value, True, False
        if lemma in (
            "stop",
            "quit",
            "give",
            "drop",
            "kick",
            "abandon",
            "retire",
            "delete",
            "cancel",
            "close",
        ):
            return "*", after, True, True
    if head in ("has", "have", "had") and len(words) > 1 and words[1] != "been" and _is_participle(words[1]):
        # "has relocated to Santiago" = relocated to Santiago
        inner, value, neg, ceased = _predicate(words[1:])
        return inner, value, negated or neg, ceased
    if head in COPULA or (head in ("has", "have", "had") and words[1:2] == ["been"]):
        return _copula(words[2:] if words[1:2] == ["been"] else words[1:], negated)
    feeling = _strip(words[1:], INTEREST_DETERMINERS)
    if (
        lemma == "have"
        and feeling[:1]
        and feeling[0] in FEELING_NOUNS
        and feeling[1:2] in (["of"], ["for"], ["to"])
    ):
        # "has a fear of spiders" = is afraid of spiders; "has no desire to move" = does not want to
        said = FEELING_NOUNS[feeling[0]] + ("_to" if feeling[1] == "to" else "")
        return said, feeling[2:], negated or "no" in words[1:3], False
    if lemma == "have" and _strip(words[1:], INTEREST_DETERMINERS)[:2] == ["interest", "in"]:
        # "has an interest in", "has no interest in" = (not) interested in
        after = _strip(words[1:], INTEREST_DETERMINERS)
        return "like", after[2:], negated or "no" in words[1:3], False
    if lemma == "have" and words[1:2] in (["an"], ["a"]) and words[2:3] == ["allergy"]:
        return "allergic_to", words[4:] if words[3:4] in (["to"], ["for"]) else words[3:], negated, False
    if lemma == "use" and words[1:2] == ["to"]:  # "used to play" = no longer plays
        inner, value, _, _ = _predicate(words[2:])
        return inner, value, True, False
    if lemma in ("turn", "turned") and any(t.isdigit() for t in words[1:3]):
        return "age", words[1:], negated, False
    rest = words[1:]
    name = lemma
    if rest[:1] and rest[0] in HEDGES and rest[1:2] and _numeric(rest[1]):
        rest = rest[1:]  # "earns about 85000": a hedge on the number, not a particle
    if rest[:1] and rest[0] in ("in", "on") and rest[1:2] and (_is_year(rest[1]) or rest[1] in MONTHS):
        rest = rest[1:]  # "died in 2019" = "passed away in 2019": a time, not a particle
    if rest and rest[0] in PREPOSITIONS:
        name = f"{lemma}_{rest[0]}"
        rest = rest[1:]
    elif len(rest) > 1 and rest[0] in ("up", "out", "back", "off", "down") and rest[1] in PREPOSITIONS:
        name = f"{lemma}_{rest[0]}_{rest[1]}"
        rest = rest[2:]
    elif rest and rest[0] in ("away", "up", "out", "back", "off", "down", "over"):
        name, rest = f"{lemma}_{rest[0]}", rest[1:]  # "passed away", "gave up", "took over"
    if lemma == "live" and rest[:1] == ["alone"]:
        name = "live_with"  # "lives alone": nobody else, one answer to who one lives with
    if lemma in ("go", "come") and rest[:1] and rest[0].endswith("ing"):
        name, rest = _lemma(rest[0]), rest[1:]  # "goes running" = runs
    if (
        lemma in ("dislike", "like", "love", "enjoy", "hate", "prefer", "adore")
        and rest[:1]
        and rest[0].endswith("ing")
    ):
        # "likes playing chess" = "likes chess" for the value
        rest = [_doing(rest[0]), *rest[1:]]
    if name not in SYNONYMS and name != lemma and "_" not in SYNONYMS.get(lemma, "_"):
        name = SYNONYMS[lemma] + name[len(lemma) :]  # "bikes to work" = "cycles to work"
    name = SYNONYMS.get(name, name)
    if lemma == "join" and "as" not in rest and set(map(_noun, rest)) & JOINED_GROUPS:
        name = "belong_to"  # "joined a running club" is no employer; "joined a startup as CTO" is
    if name == "live_in" and lemma == "stay" and set(map(_noun, rest)) & TEMPORARY:
        name = "stay_in"  # "is staying in Madrid for a conference" is no home
    if lemma not in VERBS and lemma not in ("have", "do", "get") and head not in IRREGULAR:
        guessed = _guessed_verb(head, words[1] if len(words) > 1 else None) or _placed_verb(head)
        guessed = guessed or (head if set(tokens[: len(tokens) - len(words)]) & MODALS else None)
        if guessed is None:
            return "", [], False, False
        name = name.replace(lemma, guessed, 1)
    return name, rest, negated, False
    return name, rest, negated, False


def _copula(after: list[str], negated: bool) -> tuple[str, list[str], bool, bool]:
    words = list(after)
    while words and (words[0] in NEG_WORDS or words[0] in PRE_VERB or words[0] == "longer"):
        if words[0] in NEG_WORDS:
            negated = True
        words = words[1:]
    if not words:
        return "", [], negated, False
    text = " ".join(words).removesuffix(" now")  # "is 13 now"
    if re.match(r"^\d+(?:\s+(?:years?|yrs?)(?:\s+old)?)?$", text) or re.search(
        r"\b\d+\s+years?\s+old\b", text
    ):
        return "age", words, negated, False
    if words[0] in ("up", "down") and words[1:2] == ["to"] and len(words) > 2 and _numeric(words[2]):
        return f"go_{words[0]}", words[2:], negated, False  # "is down to 76 kg": a new quantity
    if words[0] in ("born",):
        rest = words[1:]
        prep = rest[0] if rest and rest[0] in ("in", "on", "at") else ""
        if prep == "on" or (rest[1:2] and rest[1] in MONTHS):
            return "be_born_on", rest[1:], negated, False
        if prep == "in" and rest[1:2] and (rest[1].isdigit() or rest[1] in MONTHS):
            return "be_born_on", rest[1:], negated, False
        return "be_born_in", rest[1:] if prep else rest, negated, False
    if words[0] in ("retired", "unemployed", "jobless"):
        return "retire", words[1:], negated, False  # "is retired now" ends "works as an engineer"
    if words == ["employed"]:
        return "work_at", [], negated, False
    if words[0] in MARITAL and words[1:2] != ["to"]:
        return "marry", words, negated, False  # "is single" -> "is married to Alex": one status
    for phrase in ("comfortable around", "comfortable with", "at ease around", "at ease with"):
        if text.startswith(phrase + " "):  # "is comfortable around dogs" = is not afraid of dogs
            return "fear", words[len(phrase.split()) :], not negated, False
    for phrase in ("allergic to", "intolerant to", "intolerant of", "sensitive to"):
        if text.startswith(phrase):
            return "allergic_to", words[len(phrase.split()) :], negated, False
    for phrase, name in (
        ("married to", "marry"),
        ("in a relationship with", "marry"),
        ("engaged to", "marry"),
        ("called", "name"),
        ("named", "name"),
        ("employed at", "work_at"),
        ("employed by", "work_at"),
        ("based in", "live_in"),
        ("living in", "live_in"),
        ("from", "come_from"),
        ("a fan of", "like"),
        ("a big fan of", "like"),
        ("a huge fan of", "like"),
        ("fond of", "like"),
        ("interested in", "like"),
        ("fluent in", "speak"),
        ("employed as", "work_as"),
        ("working at", "work_at"),
        ("a member of", "belong_to"),
        ("enrolled in", "attend"),
        ("enrolled at", "attend"),
        ("enrolled on", "attend"),
        ("promoted to", "work_as"),
        ("passionate about", "like"),
        ("into", "like"),
        ("to", "visit"),  # "has been to Japan" = "has visited Japan"
        ("afraid of", "fear"),
        ("terrified of", "fear"),
        ("frightened of", "fear"),
        ("scared of", "fear"),
        ("in grade", "be_in_grade"),
        ("in the", "be_in"),
        ("in", "be_in"),
        ("at", "be_at"),
        ("working as", "work_as"),
        ("studying", "study"),
        ("learning", "learn"),
    ):
        if text == phrase or text.startswith(phrase + " "):
            value = words[len(phrase.split()) :]
            if name in ("like", "fear") and value[:1] and value[0].endswith("ing"):
                value = [_doing(value[0]), *value[1:]]  # "afraid of sailing" = of what "likes sailing" likes
            return name, value, negated, False
    if words[0] in ("a", "an") and len(words) >= 3 and words[1] in KEEN and _doer(words[2]):
        return "like", [_doer(words[2]), *words[3:]], negated, False  # "is a keen gardener" = likes gardening
    if len(words) == 2 and words[0] in ("a", "an") and words[1].startswith("non-") and _doer(words[1][4:]):
        return _doer(words[1][4:]), [], not negated, False  # "is a non-smoker" = does not smoke
    doer = _doer(words[-1]) if 2 <= len(words) <= 4 and words[0] in ("a", "an") else ""
    if doer and words[-1] not in OCCUPATIONS:
        # "is a marathon runner" = runs marathons, "a big Arsenal supporter" = supports Arsenal
        return SYNONYMS.get(doer, doer), [w for w in words[1:-1] if w not in KEEN], negated, False
    if words[0] in ("a", "an") and len(words) >= 2:
        nouns = [w for w in words[1:] if w not in STOPWORDS]
        if "student" in nouns[:3] or "pupil" in nouns[:3]:
            return "attend", words[1:], negated, False  # "is a student at MIT" = attends MIT
        if nouns and nouns[-1] in OCCUPATIONS or any(w in OCCUPATIONS for w in nouns[:3]):
            return "work_as", words[1:], negated, False  # "is a nurse" = works as a nurse
        return "be_a", words[1:], negated, False
    if words[0] == "the":
        return "be_identity", words[1:], negated, False
    if len(words) >= 2 and words[0].endswith("ing") and _lemma(words[0]) in VERBS:
        # progressive: "is learning Spanish" = learns Spanish
        inner, value, neg, ceased = _predicate(words)
        return inner, value, negated or neg, ceased
    return "be", words, negated, False


_ATTRIBUTE_MARKS = frozenset(
    "favorite favourite preferred usual main best current name nickname birthday age job title "
    "role employer manager boss partner wife husband spouse address email number phone team "
    "model brand color colour size".split()
)
_INTENSIFIERS = frozenset("very really quite so too pretty extremely rather super incredibly".split())
_ADJECTIVE_ENDINGS = ("ful", "ous", "ive", "able", "ible", "ic", "ish", "less", "ant", "ent", "al")


def _attribute_predicate(subject: tuple[str, ...], predicate: str, value: list[str], names: set[str]) -> str:
    """ "User's manager is Dana": an attribute with one value; "User's dog is playful": a trait."""
    # "User's partner is Dana" names an attribute; "User's partner Tomasz is vegetarian" is about
    # Tomasz, whose traits are many ("vegetarian", "left-handed"): the mark does not count there.
    about_named = subject[-1] in names or _noun(subject[-1]) in names
    if predicate in ("be_a", "be_identity") or (
        not about_named and any(w in _ATTRIBUTE_MARKS for w in subject[1:])
    ):
        return "be_attr"
    content = _content(value)
    if not content or content[0] in _INTENSIFIERS or value[:1] and value[0] in _INTENSIFIERS:
        return predicate
    if any(w in names or w in {_noun(n) for n in names} for w in content) or any(
        re.fullmatch(r"\d+\w*", w) for w in content
    ):
        return "be_attr"
    if len(content) == 1 and content[0].endswith(_ADJECTIVE_ENDINGS):
        return predicate
    return predicate


__all__ = [
    "PARTY_WORDS",
    "Claim",
    "Verdict",
    "compare_claims",
    "content_sequence",
    "entities",
    "favourite_replaced",
    "normal_wording",
    "other_party",
    "parse_claim",
    "polarity_flip",
    "switched_to",
]
