"""Rules-based extraction: learn facts about the user without an LLM (provider "none").

``extract_facts`` cuts a user utterance into clauses and rewrites each first-person self-disclosure
("I'm allergic to peanuts", "my daughter's name is Emma") as a third-person fact. A clause counts only
when a known pattern matches it from its first word; questions, hypotheticals, uncertain or reported
clauses, transient states ("I'm tired") and requests yield nothing, because a false memory is worse
than a missing one. ``summarize`` picks the user's most informative sentences and frequent words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from reverie.extract.guard import check_memory_text
from reverie.extract.phrases import to_third_person
from reverie.text import keyword_terms, words

__all__ = [
    "PROFILE_HEADER",
    "ProfileItem",
    "RuleFact",
    "build_profile",
    "extract_facts",
    "fact_type",
    "summarize",
]


@dataclass(frozen=True)
class RuleFact:
    """A fact found by the rules: third-person text, a moderate confidence and a category."""

    text: str
    confidence: float
    category: str
    type: str = "general"  # the memory's type: person, routine, location, work, room_mapping, profile, ...


_I = re.IGNORECASE
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_BREAK = re.compile(r"\s*(?:[,;:]|\s[-\u2013\u2014]+)\s+")
_FIRST_PERSON = r"(?:i|i'm|im|i've|ive|i'd|i'll|my|we|we're|we've)\b"
_CONJUNCTION = re.compile(
    rf"(?i)\s+(?:(?:so|but|because|cause|cos|though|although|whereas|which)\s+"
    rf"|and\s+(?=(?:{_FIRST_PERSON}|she|he|they|it|then|nothing|there)\b))"
)
# A comma piece starting like this continues the clause before it ("I love jazz, especially Coltrane").
_CONTINUES = re.compile(
    r"(?i)(?:especially|particularly|mostly|mainly|including|except|plus|usually|who|whose|named"
    r"|called|aged|due|in|on|at|from|with|without|for|about|around|and an?|or|a|an|the|\d)\b"
    r"|(?-i:[A-Z][a-z]+\b)(?!')"
)
_LEADING = re.compile(
    r"(?i)^(?:and|but|so|also|oh|well|ok|okay|honestly|actually|anyway|anyways|btw|by the way|fwiw|fyi"
    r"|(?:quick )?heads up|just so you know|for the record|for what it's worth|ugh|um+|uh+|hmm+"
    r"|yeah|yes|no|hi|hello|hey|lol|haha|plus|tbh|to be honest|as you know|p\.?s\.?)\b[\s,.!]*"
)
_TRAILING = re.compile(
    r"(?:\s+(?:btw|lol|haha|fyi|tbh|though|by the way|just so you know|too|as well))+$|[\s.!?\u2026]+$", _I
)
_QUESTION_START = re.compile(
    r"(?i)^(?:(?:am|are|is|was|were|do|does|did|can|could|would|will|should|shall|have|has|may)\s+"
    r"(?:i|you|we|it|my|this|that|there)\b|what|what's|where|when|who|whom|why|how|which|whether)\b"
)
_TAG = re.compile(r"^(?:right|correct|yeah|yes|no|isn't it|aren't i|don't i|or not|true)\??$", _I)
# Hypotheticals, wishes and reported speech frame every later clause of their sentence.
_FRAMED = re.compile(
    r"(?i)\b(?:if|unless|wish|wished|suppose|supposing|imagine|pretend|let's say|lets say|what if|whether"
    r"|hypothetically|in case|assuming|someday|one day|dream(?:ing)? of)\b"
    r"|\b(?:said|says|say|told|tells|tell me|according to|asked|claims?|heard)\b"
)
_JOKE = re.compile(r"(?<!not )(?<!no )\b(?:kidding|joking|jk)\b|/s\b|\byeah right\b", _I)
# A clause that is uncertain, about now, or about "you" or "this" is not a lasting trait.
_NOT_LASTING = re.compile(
    r"(?i)\b(?:might|maybe|perhaps|probably|possibly|could|would|should|i'd|i'll|gonna|going to|want to"
    r"|wanna|hope|hoping|think|thinking|guess|not sure|unsure|no idea|don't know|considering"
    r"|apparently|supposedly|allegedly|(?-i:may))\b"
    r"|\b(?:today|tonight|tomorrow|yesterday|right now|at the moment|later|soon|this (?:morning"
    r"|afternoon|evening|week|weekend)|in a (?:minute|bit|sec|second))\b"
    r"|\b(?:you|your|yours|u|ur)\b|\b(?:this|that|it|them|these|those)$|\b(?:of|at|to|into|with|about|for"
    r"|in|on|from|by) (?-i:this|that|it|them|these|those)\b|\bthe (?:first|second|third|last|other|new"
    r"|previous|above|former|latter|original|current|final|same) (?:one|option|version|idea|answer|way)\b"
)
_PRONOUN_OBJECT = re.compile(
    r"(?i)^(?:it|that|this|those|these|them|you|your|yours|so|what|how|if|whether|why|where|who|which"
    r"|nothing|anything|something|about|when|the way|the idea|hearing|being)\b"
)

_REL = (
    r"(?:wife|husband|partner|spouse|boyfriend|girlfriend|fianc[e\u00e9]{1,2}|son|daughter|kids?|child"
    r"|children|mom|mum|mother|dad|father|parents|brother|sister|siblings?|twins?|grandma|grandmother"
    r"|grandpa|grandfather|grandparents|grandson|granddaughter|grandkids|aunt|uncle|cousin|niece"
    r"|nephew|(?:mother|father|sister|brother|son|daughter)-in-law|step(?:son|daughter|mom|dad)"
    r"|best friend|dog|cat|puppy|kitten|pets?)"
)
_KIN = r"(?:kids?|child(?:ren)?|sons?|daughters?|boys|girls|brothers?|sisters?|siblings?|twins|grandkids)"
_PET = r"(?:dogs?|cats?|pupp(?:y|ies)|kittens?|parrots?|rabbits?|hamsters?|horses?|tortoises?|fish|pets?)"
_NUMBER = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|no|\d+)"
_NAME = r"(?-i:[A-Z][a-z]+)"
_PLACE = r"(?:the )?(?!(?:Python|Windows|Linux|Java|Mac)\b)(?-i:[A-Z][\w'-]*)(?! \d)"
_NOT_NAMES = frozenset(
    "sorry fine back done here ready good great okay ok tired confused lost home in out sure glad happy "
    "hungry cold hot bored busy excited new dead serious stuck late early free alright".split()
)
_DEMONYMS = frozenset(
    "american british english scottish welsh irish canadian australian german french italian spanish "
    "mexican brazilian indian chinese japanese korean dutch swedish polish russian nigerian "
    "catholic christian jewish muslim hindu buddhist atheist".split()
)
_CONDITIONS = (
    r"(?:(?:type (?:1|2|one|two) )?diabetes|asthma|adhd|autism|dyslexia|epilepsy|arthritis|migraines"
    r"|c(?:o)?eliac(?: disease)?|crohn's|ibs|anxiety|depression|insomnia|tinnitus|high blood pressure"
    r"|hypertension|(?:a )?(?:heart|thyroid) condition|(?:a |an )?(?:bad|dodgy|injured) (?:knee|back|hip"
    r"|shoulder|ankle|wrist)s?|(?:a |an )?(?:[\w-]+ )?(?:allergy|allergies|intolerance))"
)


_PARTS = {"PLACE": _PLACE, "PET": _PET, "KIN": _KIN, "NUMBER": _NUMBER, "CONDITIONS": _CONDITIONS}


def _table(rows: str) -> tuple[tuple[re.Pattern[str], str, float], ...]:
    """Compile "category confidence pattern" rows; {NAME} in a pattern is replaced by _PARTS[NAME]."""
    table = []
    for row in rows.strip().splitlines():
        category, confidence, pattern = row.split(maxsplit=2)
        for name, part in _PARTS.items():
            pattern = pattern.replace("{" + name + "}", part)
        table.append((re.compile(pattern, _I), category, float(confidence)))
    return tuple(table)


# What may follow "I'm" (or "my sister is") and make a lasting trait.
_COMPLEMENTS = _table(
    r"""
health 0.8 ^(?:really |very |severely |deathly |badly )?allergic to \S
health 0.8 ^(?:(?:lactose|gluten|fructose|histamine)[ -])?intolerant\b
preference 0.8 ^(?:an? )?(?:strict |lifelong )?(?:vegetarian|vegan|pescatarian|teetotal)\b
health 0.8 ^(?:diabetic|c(?:o)?eliac|asthmatic|epileptic|pregnant|deaf|blind|colou?r[ -]?blind)\b
health 0.8 ^(?:hard of hearing|autistic|dyslexic|sober|immunocompromised|an(?:a)?emic)\b
work 0.8 ^(?:retired|unemployed|self[- ]employed|a stay[- ]at[- ]home (?:mom|mum|dad|parent))\b
personal 0.8 ^(?:(?:left|right)[- ]handed|ambidextrous|bilingual|trilingual|introverted|extroverted)\b
personal 0.8 ^(?:married|single|divorced|engaged|widowed)\b
personal 0.8 ^an? (?:only child|introvert|extrovert|morning person|night owl|early riser)\b
location 0.8 ^(?:originally )?from {PLACE}
location 0.75 ^(?:based|living) (?:in|near|outside) \S
personal 0.8 ^\d{1,3}(?: years old)?(?:$| and )|^in my (?:\w+ties|\d0s)$|^turning \d{1,3}\b
preference 0.7 ^(?:an? )?(?:\w+ ){0,2}fan of (?!how|what|when|the way)\S|^an? (?:\w+ ){0,2}fan$
preference 0.7 ^(?:really |very |big |huge )?into (?!how|what|when|the way)\S
personal 0.7 ^(?:afraid|scared|terrified) of \S
personal 0.6 ^(?:really |pretty |very )?(?:good|bad|terrible|great|awful|hopeless) at \S
personal 0.7 ^(?:training for|learning|studying|raising|saving (?:up )?for) (?!for|a lot|so much|how)\S
other 0.6 ^planning (?:to|an?|on) \S
work 0.7 ^(?:working|employed) (?:as|at|for|by) \S|^doing (?:a|my) (?:phd|master's|masters|degree|residency)\b
family 0.7 ^getting married\b|^expecting\b
"""
)
_NOT_A_NOUN = re.compile(
    r"(?i)^an? (?:bit|little|lot|tad|mess|wreck|fool|idiot|moron|dummy|genius|noob)\b"
    r"|\b(?:user|person who|fan of (?:you|your|this|that|it))\b"
)
_PROFESSION = re.compile(
    r"(?i)\b(?!(?:believer|lover|member|user|beginner|fan)\b)\w+(?:er|or|ist|ian|ant|ent|ect)\b|\b(?:nurse|chef"
    r"|surgeon|judge|cook|clerk|pilot|vet|medic|midwife|barista|analyst|mechanic|nanny|priest)\b"
)

# Whole-clause statements, tried in order after "I'm ..." and "my <relative> ...".
_STATEMENTS = _table(
    r"""
location 0.8 ^I(?:'ve| have| currently| still| now| also)? lived? (?:in|near|on|outside|by|with) \S
location 0.8 ^I (?:just |recently )?(?:moved|relocated) (?:to|here from) {PLACE}
location 0.8 ^I (?:grew up|was (?:born and )?raised) (?:in|on|near|outside) \S|^I come from \S
location 0.8 ^I was born in (?!\d)\S|^I used to live (?:in|near|on) \S|^I live alone$
personal 0.8 ^I was born (?:in \d{4}|on \S)
personal 0.8 ^my (?:name|name's|birthday|date of birth|middle name|nickname|blood type|star sign)(?: is|'s) \S
personal 0.8 ^my (?:first language|native language|mother tongue|zodiac sign|shoe size)(?: is|'s) \S
preference 0.8 ^my (?:absolute )?favou?rite [\w -]{1,30}? (?:is|are) \S
work 0.7 ^I (?:(?:\w+ly|also|still|now|mostly) )?work(?! on (?:it|that|this)\b)(?: \S|$)
work 0.7 ^I(?:'ve| have) worked (?:in|at|for|as) |^I was an? [\w -]+? for \d+ years
work 0.7 ^I (?:just )?started (?:a new job|working) (?:at|for|as)
work 0.7 ^I (?:used to )?teach \S|^I (?:used to )?(?:run|own|manage) (?:an?|my own) \S|^I retired\b
preference 0.75 ^I (?:don't|do not|never|can't|cannot) (?:eat|drink|touch) \S
other 0.65 ^I used to (?:be|work|play|live|run|teach|own) \S
family 0.7 ^I (?:just |recently )?(?:got (?:married|engaged|divorced)\b|had a baby\b)
personal 0.7 ^I (?:just |recently )?bought (?:a|my first) (?:new )?(?:house|home|flat|apartment|condo|car)\b
personal 0.7 ^I (?:just |recently )?got (?:an? |two |three )?(?:new )?{PET}\b(?!')
"""
)
_LIKES = re.compile(
    r"(?i)^I (?:(?:really|absolutely|just|also|totally|honestly|genuinely|kind of|kinda) )*"
    r"(?:love|like|adore|enjoy|hate|dislike|detest|loathe|prefer|can't stand|cannot stand|(?:don't|do not) "
    r"(?:like|enjoy)) (?P<obj>\S.*)$"
)
_HAVE = re.compile(r"^I (?:have|own|have got|'ve got)(?: (?:always|also|now))? (?P<obj>\S.*)$", _I)
# What may follow "I have" and make a lasting fact ("a peanut allergy", "two kids").
_HAVE_OBJECTS = _table(
    r"""
health 0.75 ^{CONDITIONS}\b
family 0.75 ^(?:{NUMBER} (?:[\w-]+ ){0,2}?{KIN}\b(?!')|twins\b)
personal 0.75 ^{NUMBER} (?:[\w-]+ ){0,2}?{PET}\b(?!')
work 0.7 ^an? (?:\w+ )?(?:degree|phd|masters?|master's|diploma) in \S
"""
)
_BEEN = re.compile(r"^I've been (?:(?:\w+ly|always|also) )?(?P<comp>.+?)(?: for .+| since .+)?$", _I)
_HABIT = re.compile(
    r"(?i)^I (?:(?:always|usually|often|never|sometimes|rarely|seldom|normally|generally|mostly|also"
    r"|still|regularly|really|just|(?:don't|do not)) )*(?P<verb>[a-z]+) (?P<rest>\S.*)$"
)
# Present tense also narrates ("I click the button and nothing happens"), so a verb outside
# this list counts as a habit only with a marker such as "every", "usually" or "on weekends".
_LIFESTYLE = frozenset(
    "speak drive ride play cook bake knit sew paint sing dance swim jog cycle hike climb surf ski sail "
    "fish hunt garden volunteer practice practise study train follow support collect attend belong "
    "commute meditate pray smoke vape wear own rent coach mentor homeschool foster eat drink use".split()
)
_HABIT_MARKER = re.compile(
    r"(?i)\b(?:every|each|daily|weekly|monthly|always|usually|often|never|sometimes|rarely|seldom|normally"
    r"|generally|regularly|for a living|for fun|on (?:weekends|weekdays|\w+days)|(?:once|twice|\w+ times)"
    r" a (?:day|week|month|year)|in my (?:free|spare) time)\b"
)
_NOT_HABITS = frozenset(
    "think guess mean need want hope wish feel know agree disagree see get understand suppose believe "
    "wonder bet doubt reckon assume remember forget say promise apologize apologise appreciate owe trust "
    "hear have do can could will would should shall may might must let try ask expect figure imagine "
    "suspect care swear realize realise notice admit thank keep look mind went said "
    "made took came saw knew thought bought brought ate drank drove flew found gave heard kept left lost "
    "met paid ran sat slept sold sent spent spoke stood told woke wore won wrote began became broke chose "
    "fell felt forgot held put cut set hit quit read got had did was were is are be has does goes comes "
    "seems sounds tells seem sound come tell".split()
)
_MY_REL = re.compile(
    rf"(?i)^my (?P<rel>{_REL})(?P<name> {_NAME}(?: {_NAME})?)?(?:'s (?:name|birthday|middle name) is \S.*"
    rf"| (?:is|was) (?:called|named) \S.*| (?P<pred>.+))$"
)
_REL_PRED = re.compile(
    r"(?i)^(?:lives?|works?|stud(?:y|ies)|teach(?:es)?|grew up|goes to|go to)\b|^(?:just |recently )?"
    r"(?:started|graduated|retired|moved|passed away|died|got (?:married|engaged|divorced|a (?:new )?job))\b"
    r"|^(?:(?:always|usually|often|never|also|still|really) )*(?P<verb>[a-z]+) \S"
)
_PLURAL_REL = re.compile(r"(?:kids|children|parents|siblings|grandparents|grandkids|pets|twins)$", _I)
_COMPOUND = re.compile(r"^(my (?:[\w-]+ ){0,2}and )(I|I've|I'm)\b", _I)
_SUBJECT = re.compile(
    r"(?i)^(?:(i am|im|i'm|we're|we are)|(i have got|i've got|ive got|we've got|we have got)|(ive|i've|we've)"
    r"|(i|we))\b"
)
_NAME_ONLY = re.compile(rf"^I'm ({_NAME}(?: {_NAME})?)$")
# Words that sharpen a generic category (the confidence column is unused here).
_CATEGORY_WORDS = _table(
    r"""
health 0 \b(?:allerg|diabet|asthma|intoleran|pregnan|gluten|medicat|insulin|pills?\b|knee\b|back\b)
work 0 \b(?:work|job\b|office|compan|career|shift|teach|business|bakery|shop\b|startup|clinic)
preference 0 \b(?:love|like|hate|enjoy|fan\b|favou?rite|prefer|can't stand)
location 0 \b(?:live[sd]?\b|moved\b|grew up|from\b)
"""
)


def _clean(clause: str) -> str:
    """Drop leading fillers and trailing tags ("btw", "lol") and punctuation."""
    previous = None
    while previous != clause:
        previous = clause
        clause = _LEADING.sub("", clause, count=1).strip()
        clause = _TRAILING.sub("", clause).strip()
    return clause


def _clauses(sentence: str) -> list[str]:
    """Cut a sentence at conjunctions and at commas that start a new clause."""
    parts: list[str] = []
    for piece in _BREAK.split(sentence):
        if parts and _CONTINUES.match(piece) and not re.match(_FIRST_PERSON, piece, _I):
            parts[-1] += ", " + piece
        else:
            parts.append(piece)
    clauses: list[str] = []
    for piece in (p for part in parts for p in _CONJUNCTION.split(part)):
        # "my partner and I live ..." is one clause with a compound subject.
        if clauses and len(clauses[-1].split()) <= 3 and _COMPOUND.match(f"{clauses[-1]} and {piece}"):
            clauses[-1] += " and " + piece
        else:
            clauses.append(piece)
    return clauses


def _canonical(clause: str) -> tuple[str, bool]:
    """Spell the first-person subject one way ("im" -> "I'm", "we've got" -> "I have"); say if it was "we"."""
    plural = bool(re.match(r"we\b", clause, _I))
    spelled = ("I'm", "I have", "I've", "I")
    return _SUBJECT.sub(lambda m: spelled[(m.lastindex or 4) - 1], clause, count=1), plural


def _complement(comp: str) -> tuple[str, float] | None:
    """Category and confidence for what follows "I'm" (or "my sister is"), if it is a lasting trait."""
    negation = re.match(r"(?:not|no longer) ", comp, _I)
    comp = comp[negation.end() :] if negation else comp
    for pattern, category, confidence in _COMPLEMENTS:
        if pattern.search(comp):
            return category, confidence
    if negation or not re.match(r"an? \S", comp, _I) or _NOT_A_NOUN.search(comp):
        return None
    if _PRONOUN_OBJECT.match(comp.split(" ", 1)[1]) or len(comp.split()) > 12:
        return None
    return ("work" if _PROFESSION.search(comp) else "personal"), 0.7


def _classify(clause: str) -> tuple[str, float] | None:
    """Return (category, confidence) when a known self-disclosure pattern matches the clause."""
    if m := re.match(r"^I'm (?P<comp>.+)$", clause, _I):
        return _complement(m["comp"])
    if m := _MY_REL.match(clause):
        pred = m["pred"]
        if pred is None:
            return "family", 0.8
        if p := re.match(r"^(?:is|was) (?P<comp>.+)$", pred, _I):
            found = _complement(p["comp"])
            return ("family", found[1] - 0.05) if found else None
        r = _REL_PRED.match(pred)
        verb = (r["verb"] or "") if r else ""
        agrees = not verb or verb.endswith("s") == (not _PLURAL_REL.search(m["rel"]))
        banned = verb.lower() in _NOT_HABITS or verb.lower()[:-1] in _NOT_HABITS or verb.endswith("ed")
        if r and agrees and not banned:
            return "family", 0.65
        return None
    for pattern, category, confidence in _STATEMENTS:
        if pattern.match(clause):
            return category, confidence
    if (m := _LIKES.match(clause)) and not _PRONOUN_OBJECT.match(m["obj"]):
        return "preference", 0.7
    if m := _HAVE.match(clause):
        for pattern, category, confidence in _HAVE_OBJECTS:
            if pattern.match(m["obj"]):
                return category, confidence
        return None
    if m := _BEEN.match(clause):
        return _complement(m["comp"])
    m = _HABIT.match(clause)
    verb = m["verb"].lower() if m else "ed"
    if not m or verb in _NOT_HABITS or verb.endswith("ed") or _PRONOUN_OBJECT.match(m["rest"]):
        return None
    lifestyle = verb in _LIFESTYLE and not re.match(r"use (?:the|a new)\b", f"{verb} {m['rest']}")
    return ("other", 0.6) if lifestyle or _HABIT_MARKER.search(clause) else None


def _refine(category: str, text: str) -> str:
    """Sharpen a generic category using words in the fact."""
    if category != "other":
        return category
    for pattern, name, _ in _CATEGORY_WORDS:
        if pattern.search(text):
            return name
    return "personal"


def _fact_from(clause: str) -> RuleFact | None:
    """Turn one clause into a fact, or None when it is not a lasting self-disclosure."""
    if _FRAMED.search(clause) or _NOT_LASTING.search(clause):
        return None
    if _QUESTION_START.match(clause) or len(clause.split()) > 30:
        return None
    clause, plural = _canonical(clause)
    compound = _COMPOUND.match(clause)
    core = clause[len(compound.group(1)) :] if compound else clause
    core = re.sub(r"^I are\b", "I'm", core) if compound else core
    if plural and not re.match(r"^I(?:'m planning| (?:live|moved|have|(?:just )?got)) ", core, _I):
        return None
    if (name := _NAME_ONLY.match(core)) and name.group(1).lower() not in _NOT_NAMES:
        if name.group(1).lower() in _DEMONYMS:
            return RuleFact(f"User is {name.group(1)}", 0.75, "personal", "profile")
        return RuleFact(f"User's name is {name.group(1)}", 0.75, "personal", "profile")
    found = _classify(core)
    if found is None:
        return None
    text = re.sub(r"\bour\b", "their", to_third_person(clause))
    if text.startswith("User "):
        text = re.sub(r"\bthe user's\b", "their", text)
    if len(words(text)) < 3:
        return None
    category = _refine(found[0], text)
    return RuleFact(text, round(found[1], 2), category, fact_type(text, category))


def extract_facts(utterance: str) -> list[RuleFact]:
    """Return the first-person self-disclosures in one user utterance as third-person facts."""
    text = re.sub(r"[ \t]+", " ", utterance.translate(_APOSTROPHES)).strip()
    if not text or _JOKE.search(text):
        return []
    facts: list[RuleFact] = []
    for sentence in _SENTENCES.split(text):
        sentence = sentence.strip()
        clauses = [c for c in (_clean(c) for c in _clauses(sentence)) if c]
        if not clauses:
            continue
        asked = sentence.rstrip().endswith("?")
        if asked and _TAG.match(clauses[-1]):
            continue
        framed = False  # a hypothetical or reported clause frames the rest of its sentence
        for k, clause in enumerate(clauses):
            framed = framed or bool(_FRAMED.search(clause))
            if not framed and not (asked and k == len(clauses) - 1):
                fact = _fact_from(clause)
                if fact and check_memory_text(fact.text).ok and fact not in facts:
                    facts.append(fact)
    return facts


# --- fact types (Saga's person, routine, room mapping; mem.db's profile) ---------------------------

_ROOMS = (
    r"(?:(?:living|dining|meeting|guest|spare|laundry|utility|play|class|bath|bed|family|sitting|"
    r"storage|server|music|game|tv)\s*room|office|kitchen|garage|den|study|basement|attic|lounge|"
    r"hall(?:way)?|nursery|porch|patio|loft|cellar|workshop|shed|pantry|bathroom|bedroom)"
)
_ROOM_MAPPING = re.compile(
    rf"(?i)^(?:User's |the )?(?:[\w'-]+ ){{0,2}}{_ROOMS} (?:is|=|means|refers to) (?:the |User's |their )?"
    rf"(?:[\w'-]+ ){{0,2}}{_ROOMS}$|^(?:User|the user) calls (?:the |their )?(?:[\w'-]+ ){{0,2}}{_ROOMS} "
)
_PROFILE = re.compile(
    r"(?i)^(?:User's (?:full |first |last |middle )?(?:name|birthday|date of birth|nickname|pronouns|"
    r"first language|native language|mother tongue|time ?zone|age|nationality|star sign|zodiac sign)\b"
    r"|User wants to be called\b|User is (?:\d{1,3}(?: years old)?|in (?:their|his|her) \w+ties)\b"
    r"|User was born\b|User is (?:" + "|".join(sorted(_DEMONYMS)) + r")$"
    r"|User (?:speaks|prefers to speak) \w+$|User is in the \S+ time ?zone)"
)
_ROUTINE = re.compile(
    r"(?i)\b(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)|at \d{1,2}(?::\d\d)?|o'clock|every(?:day| \w+)|daily|weekly"
    r"|nightly|each (?:day|week|morning|evening|night)|(?:in the|most|on) (?:mornings?|evenings?|nights?)"
    r"|on (?:weekends|weekdays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)"
    r"|(?:once|twice|\w+ times) a (?:day|week|month)|before (?:bed|work|breakfast)|after (?:work|dinner))\b"
)
_PERSON = re.compile(rf"(?i)^(?:User's|the user's) (?:[\w-]+ )?{_REL}\b")
_LOCATION = re.compile(r"(?i)^User (?:\w+ )?(?:lives|lived|moved|relocated|grew up|comes from|is from)\b")
_WORK = re.compile(r"(?i)^User (?:\w+ )?(?:works|worked|teaches|runs|owns|manages|is employed)\b|\bjob\b")
_BY_CATEGORY = {"family": "person", "location": "location", "work": "work", "health": "health"}


def fact_type(text: str, category: str = "") -> str:
    """The type a third-person fact is kept as: profile, room_mapping, routine, person, location, work, ...

    ``category`` is the rules' reading of the clause when there is one ("family", "location"); an
    explicit "remember that ..." has none and is typed from its words alone.
    """
    if _ROOM_MAPPING.search(text):
        return "room_mapping"
    if _PROFILE.search(text):
        return "profile"
    if _ROUTINE.search(text) and category not in ("health", "location"):
        return "routine"
    if category in _BY_CATEGORY:
        return _BY_CATEGORY[category]
    if _PERSON.search(text):
        return "person"
    if _LOCATION.search(text):
        return "location"
    if _WORK.search(text):
        return "work"
    if category == "preference":
        return "interest"
    return "personal" if category in ("personal", "other") else "general"


# --- profile without an LLM -------------------------------------------------------------------------

PROFILE_HEADER = "From what the user said:"
# The profile's order: who the user is, where and how they live, then the rest.
_PROFILE_ORDER = ("profile", "person", "location", "work", "health", "routine", "room_mapping")
_PROFILE_FACTS = 12
_PROFILE_PREFERENCES = 5


@dataclass(frozen=True)
class ProfileItem:
    """A fact or preference offered to the offline profile."""

    text: str
    confidence: float
    type: str = "general"  # a fact's type, or "preference"
    label: str = ""  # a preference's name ("verbosity", "lights color")


def build_profile(items: Sequence[ProfileItem], min_confidence: float = 0.5) -> str:
    """The base-memory profile from the user's strongest facts and preferences, without an LLM.

    At most 12 facts (profile, people, places, work, health and routines first, strongest
    first within each) and 5 preferences; empty when nothing is strong enough.
    """
    facts = [i for i in items if i.type != "preference" and i.confidence >= min_confidence]
    prefs = [i for i in items if i.type == "preference" and i.confidence >= min_confidence]

    def rank(item: ProfileItem) -> tuple[int, float]:
        order = _PROFILE_ORDER.index(item.type) if item.type in _PROFILE_ORDER else len(_PROFILE_ORDER)
        return order, -item.confidence

    lines = [f"- {i.text.rstrip('.')}." for i in sorted(facts, key=rank)[:_PROFILE_FACTS]]
    strongest = sorted(prefs, key=lambda i: -i.confidence)[:_PROFILE_PREFERENCES]
    for item in strongest:  # a preference's text is a predicate ("prefers concise answers") or a value
        text = item.text.rstrip(".")
        lines.append(f"- User {text}." if text[:1].islower() else f"- {item.label or 'Preference'}: {text}.")
    return "\n".join([PROFILE_HEADER, *lines]) if lines else ""


# --- summaries ---------------------------------------------------------------------------------

_CHATTER = frozenset(
    "hi hello hey thanks thank yeah yes okay ok sure great good well really want need think know "
    "one would could also much lot let make go going see say said right now way maybe lol haha "
    "pretty actually still even back help can't i'm i've don't it's that's".split()
)


def _sentences(messages: Sequence[tuple[str, str]], role: str) -> list[str]:
    found: list[str] = []
    for who, content in messages:
        if who == role:
            found.extend(s.strip() for s in _SENTENCES.split(content.translate(_APOSTROPHES)) if s.strip())
    return found


def _rewrite(sentence: str) -> str:
    """Put one selected user sentence in the third person."""
    if sentence.endswith("?"):
        return f"User asked: {sentence}"
    if re.match(r"(?:i|i'm|i've|my)\b", _clean(sentence), _I):
        rewritten = to_third_person(_clean(sentence))
        return rewritten if rewritten.endswith((".", "!")) else rewritten + "."
    return f"User said: {sentence}"


def summarize(messages: Sequence[tuple[str, str]], max_sentences: int = 3) -> tuple[str, list[str]]:
    """Return an extractive summary of the user's most informative sentences and up to 5 topics."""
    user = _sentences(messages, "user")
    counts: Counter[str] = Counter()
    for weight, sentences in ((2, user), (1, _sentences(messages, "assistant"))):
        for term in (t for s in sentences for t in keyword_terms(s)):
            if len(term) > 2 and not term.isdigit() and term not in _CHATTER:
                counts[term] += weight
    topics = [term for term, _ in counts.most_common(5)]

    def score(sentence: str) -> float:
        terms = [t for t in keyword_terms(sentence) if t not in _CHATTER]
        asked = 1.0 if sentence.endswith("?") else 0.0
        return 3.0 * len(extract_facts(sentence)) + sum(1 + min(counts[t], 4) / 4 for t in terms) - asked

    ranked = sorted(range(len(user)), key=lambda k: -score(user[k]))
    chosen = sorted(k for k in ranked[: max(0, max_sentences)] if score(user[k]) > 1.0)
    summary = " ".join(_rewrite(user[k]) for k in chosen)
    return summary, topics
