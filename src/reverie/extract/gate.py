"""The per-exchange rule gate (mem.db §5): may this user turn hold a stable fact? No model is asked.

:func:`read_turn` gives the turn's intent (what was understood: a power phrase's action, or
``statement``, ``question``, ``command``, ``greeting``, ``chat``) and whether the extraction
model should read it. It says yes to first-person statements about the user, their family,
home, work and likes ("my ...", "I am/have/live/work/prefer ...", "we have ...") in English,
and to the same few forms in Spanish, French, German, Italian and Portuguese; questions,
greetings, commands to the assistant and small talk ("I'm tired", "I see") are skipped, unless
they name a relative in passing ("what can I cook for my vegetarian wife?", "tell my wife Ana").
Losing a fact is worse than an extra model call, so a doubtful clause says yes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reverie.extract.phrases import detect_phrase

_I = re.IGNORECASE
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_CLAUSES = re.compile(r"(?<=[.!?;])\s+|\n+|\s*[,;:]\s+|\s+(?:but|and then|so|because)\s+", _I)
_LEADING = re.compile(
    r"^(?:(?:hi|hey|hello|yo|ok|okay|oh|well|so|and|also|actually|anyway|btw|by the way|thanks|"
    r"thank you|yes|yeah|no|um+|uh+|hmm+|alright|just so you know|fyi|for the record)\b[\s,.!:]*)+",
    _I,
)
_GREETING = re.compile(
    r"^(?:hi|hey|hello|yo|good (?:morning|afternoon|evening|night)|morning|night|bye|goodbye|"
    r"see you|thanks|thank you|cheers|ok|okay|cool|great|nice|lol|haha|yes|yeah|yep|no|nope|sure|"
    r"hmm+|interesting|sounds good|perfect|awesome|wow|oh|never mind|nevermind|stop|cancel that)\b",
    _I,
)
_QUESTION = re.compile(
    r"^(?:what|what's|whats|who|who's|whom|whose|where|where's|when|why|how|how's|which|"
    r"is|are|am|was|were|do|does|did|can|could|will|would|should|shall|may|might|have|has|"
    r"isn't|aren't|don't|doesn't|didn't|can't|won't|any|anything)\b",
    _I,
)
# Imperatives addressed to the assistant: "turn off my lights" says nothing lasting about the user.
_COMMAND = re.compile(
    r"^(?:please\s+)?(?:turn|switch|set|play|pause|resume|stop|start|open|close|lock|unlock|dim|"
    r"show|tell|give|find|search|look|check|read|send|call(?! me\b)|text|email|remind|add|remove|"
    r"delete|cancel|schedule|book|order|buy|translate|write|summari[sz]e|explain|list|make|create|"
    r"put|move|raise|lower|increase|decrease|mute|skip|repeat|let's|lets|help|describe|define|"
    r"calculate|convert|compare|recommend|suggest|plan|draft|navigate|take me|wake me)\b",
    _I,
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|my|mine|we|we're|we've|our|ours|us|me)\b", _I)
# First person without anything lasting: moods of the moment, fillers and acknowledgements.
_SMALL_TALK = re.compile(
    r"^(?:i(?:'m| am)(?: (?:so|very|really|just|a bit|kind of|pretty))? (?:tired|sleepy|hungry|thirsty|bored|"
    r"back|here|done|ready|fine|good|ok|okay|great|alright|sorry|confused|lost|busy|home|"
    r"not sure|sure|kidding|joking|on my way|leaving|off|listening|in|out)|"
    r"i (?:see|know|guess|think so|don't think so|agree|disagree|understand|get it|don't know|dunno|"
    r"mean|suppose|hope so|wonder|was wondering|'ll try|will try|'ll check|forgot|got it)|"
    r"(?:oh )?my (?:god|gosh|goodness|bad|pleasure|turn)|me too|me neither|let me (?:think|see|check)|"
    r"we(?:'ll| will) see)\b",
    _I,
)
# Another language: the few first-person forms of Spanish, French, German, Italian, Portuguese.
_OTHER_FIRST_PERSON = re.compile(
    r"\b(?:soy|estoy|tengo|vivo|trabajo|me llamo|mi|mis|prefiero|me gusta|odio|"
    r"je suis|j'ai|je vis|j'habite|je travaille|je m'appelle|je préfère|j'aime|je déteste|mon|ma|mes|"
    r"ich bin|ich habe|ich wohne|ich lebe|ich arbeite|ich heiße|ich mag|ich bevorzuge|mein|meine|meinen|"
    r"sono|ho|abito|lavoro|mi chiamo|preferisco|mi piace|il mio|la mia|"
    r"sou|moro|chamo-me|eu|meu|minha|prefiro|gosto)\b",
    _I,
)
_KIN = (
    r"(?:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[eé]e?|son|daughter|kids?|children|child|baby|"
    r"mother|mom|mum|father|dad|parents|brother|sister|siblings?|grandmother|grandma|grandfather|grandpa|"
    r"aunt|uncle|cousin|niece|nephew|dog|cat|puppy|kitten|pets?|boss|roommate|flatmate)"
)
# A question or a command can still tell: "what can I cook for my vegetarian wife?", "tell my wife Ana ...".
_TOLD_IN_PASSING = re.compile(
    rf"\bmy (?:(?!own\b|the\b|a\b)[a-z][\w-]+ {_KIN}\b|{_KIN} (?-i:[A-Z][a-z]+)\b)",
    _I,
)


@dataclass(frozen=True)
class TurnReading:
    """What a user turn was understood as, and whether the extraction model should read it."""

    intent: str
    learn: bool


def read_turn(text: str) -> TurnReading:
    """The gate: the turn's intent and whether it may hold a stable fact about the user."""
    said = detect_phrase(text)
    if said is not None:
        return TurnReading(said.action, said.action in ("remember", "prefer"))
    read = [_clause_kind(clause) for clause in _CLAUSES.split(text.translate(_APOSTROPHES))]
    kinds = [kind for kind, _ in read if kind]
    learn = any(told for _, told in read)
    for kind in ("statement", "question", "command", "greeting"):
        if kind in kinds:
            return TurnReading(kind, learn)
    return TurnReading("chat", learn)


def _clause_kind(clause: str) -> tuple[str, bool]:
    """What a clause is (statement, question, command, greeting, chat; '' when empty), and if it may teach."""
    raw = clause.strip()
    if not raw:
        return "", False
    asked = raw.endswith("?") or raw.startswith("¿")
    body = _LEADING.sub("", raw).strip(" .!?¿¡\"'")
    if not body:
        return "greeting", False
    if _QUESTION.match(body) or asked:
        return "question", bool(_TOLD_IN_PASSING.search(body))
    if _SMALL_TALK.match(body):
        return "chat", False
    if _COMMAND.match(body):
        return "command", bool(_TOLD_IN_PASSING.search(body))
    if _FIRST_PERSON.search(body) or _OTHER_FIRST_PERSON.search(body):
        return "statement", True
    if _GREETING.match(raw):
        return "greeting", False
    return "chat", False


__all__ = ["TurnReading", "read_turn"]
