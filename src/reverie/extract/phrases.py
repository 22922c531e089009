"""Power-phrase detection: spot explicit memory commands in an utterance without an LLM.

``detect_phrase`` returns a ``PhraseIntent`` or ``None`` for ordinary chat. Text forms:

- remember: a self-describing fact in the third person ("User walks the dog at 6pm").
- prefer: the value shown after ``"category: "``. For "my default X is Y" it is the bare value
  Y ("72 degrees", category from X); otherwise it is a third-person predicate without the
  subject ("prefers concise answers", "likes the color pink for the user's colored lights",
  "would rather take the train"), so ``"User " + text`` is also a sentence.
- forget: a short search query (the object phrase without pronouns, "vegetarian").
- forget_preference: "remove that preference" (text empty: the preference set last) or
  "remove my lights color preference" (text: what names it, "lights color").
- clear, confirm, cancel, show_facts, show_preferences: empty text.

"forget it" / "forget that" alone are the idiom for "never mind" and yield ``cancel``;
"remember to ..." / "don't forget to ..." are reminders, not facts, and yield ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from reverie.extract.third_person import APOSTROPHES, said_by_user, strip_trailing, to_third_person

Action = Literal[
    "remember",
    "prefer",
    "forget",
    "forget_preference",
    "clear",
    "confirm",
    "cancel",
    "show_facts",
    "show_preferences",
]


# Longer than this, an utterance is ordinary talk, not a power phrase (a memory holds 512 bytes).
MAX_UTTERANCE_CHARS = 8192


@dataclass(frozen=True)
class PhraseIntent:
    """A memory command found in an utterance."""

    action: Action
    text: str = ""
    category: str = ""
    key: str = ""  # a preference's key within its category ("color", "brightness", "verbosity")
    scope: str = "default"  # a preference's scope (Saga): default, specific or always


_I = re.IGNORECASE
_SPACES = re.compile(r"\s+")
_ADDRESS = re.compile(
    r"^(?:(?:hey|hi|hello|yo|ok|okay)\s+(?:assistant|saga|reverie|computer)\b|"
    r"(?:assistant|saga|reverie|computer)\s*(?=[,:])|(?:hey|hi|hello)\s+\w+\s*(?=[,:]))[\s,:]*",
    _I,
)
_FILLER = re.compile(
    r"^(?:hey|hi|hello|yo|ok|okay|alright|all right|so|well|um+|uh+|oh|and|also|actually|now|"
    r"btw|by the way|one more thing|just|kindly|yes|yeah|no|nope)\b[\s,:]*",
    _I,
)
_REQUEST = re.compile(
    r"^(?:please|pls|(?:can|could|would|will)\s+you|"
    r"i(?:\s+(?:want|need|would like)|'d\s+like)\s+you\s+to)\b[\s,:]*",
    _I,
)

_CONFIRM_WORDS = (
    r"yes|yeah|yep|yup|sure|ok|okay|confirm|confirmed|do it|go ahead|absolutely|"
    r"please do|i'?m sure|i am sure"
)
_CONFIRM = re.compile(
    rf"^(?:{_CONFIRM_WORDS})(?:[\s,]+(?:{_CONFIRM_WORDS}|please|thanks|thank you|"
    r"(?:clear|delete|wipe|erase) (?:it|it all|everything|(?:my|your) memory)|"
    r"(?:remember|save|note|store) (?:it|that|this)|(?:that'?s|that is) (?:right|true|correct)))*$",
    _I,
)
_CANCEL_WORDS = (
    r"no|nope|nah|cancel|cancel that|never ?mind|stop|don'?t|do not|don'?t do it|"
    r"abort|keep it|keep (?:them|everything)|leave it|forget (?:about )?(?:it|that)|"
    r"(?:don'?t|do not) (?:remember|save|note|store) (?:it|that|this)|(?:that'?s|that is) (?:wrong|not true)"
)
_CANCEL = re.compile(rf"^(?:{_CANCEL_WORDS})(?:[\s,]+(?:{_CANCEL_WORDS}|thanks|thank you|wait))*$", _I)

_CLEAR = re.compile(
    r"^(?:(?:clear|reset|wipe|erase|delete|purge)(?:\s+out)?\s+(?:all\s+(?:of\s+)?)?"
    r"(?:your\s+|my\s+|the\s+)?memor(?:y|ies)(?:\s+(?:of|about)\s+me)?"
    r"(?:\s+(?:completely|entirely))?"
    r"|forget\s+(?:everything|it all|all of it|all about me)"
    r"(?:\s+(?:you\s+(?:know|remember)\s+about\s+me|about\s+me|i(?:'ve)?\s+(?:ever\s+)?told you))?"
    r"|(?:delete|erase|wipe|remove)\s+(?:everything|all)\s+(?:that\s+)?you\s+(?:know|remember|have)"
    r"\s+(?:about|on)\s+me)$",
    _I,
)
_SHOW_PREFS = re.compile(
    r"^(?:what\s+(?:are|were)\s+my\s+(?:current\s+)?preferences"
    r"|what\s+(?:do|did)\s+you\s+(?:know|remember)\s+about\s+my\s+preferences"
    r"|what\s+preferences\s+do\s+you\s+(?:know|have|remember)(?:\s+(?:about|for)\s+me)?"
    r"|(?:show|list|tell)(?:\s+me)?\s+my\s+preferences)$",
    _I,
)
_SHOW_FACTS = re.compile(
    r"^(?:what\s+(?:else\s+|all\s+)?(?:do|did)\s+you\s+(?:know|remember)\s+about\s+me"
    r"|what\s+facts\s+do\s+you\s+(?:know|have|remember)(?:\s+about\s+me)?"
    r"|what\s+have\s+you\s+(?:remembered|learned|learnt)(?:\s+about\s+me)?"
    r"|what\s+do\s+you\s+have\s+on\s+me"
    r"|(?:show|list|tell)(?:\s+me)?\s+(?:my\s+facts|your\s+memories|(?:what|everything)\s+you\s+"
    r"(?:know|remember)\s+about\s+me))(?:\s+so\s+far)?$",
    _I,
)

_REMEMBER_VERB = re.compile(r"^(?:/remember\b|remember\b(?:\s+(that)\b|\s+this\s*:)?)[\s,:]*(.*)$", _I)
_REMEMBER_OTHER = re.compile(
    r"^(?:for\s+future\s+reference\b|keep\s+in\s+mind(?:\s+(that))?\b|(?:don'?t|do\s+not)\s+"
    r"forget(?:\s+(that))?\b|(?:make\s+a\s+|take\s+)?note(?:\s+(that)\b|\s*:)|make\s+a\s+note\b)"
    r"[\s,:]*(.*)$",
    _I,
)
_EMPTY_CLAUSE = re.compile(r"^(?:this|that|it|me|everything|all|them|to)?$", _I)
# "remember when ..." reminisces and "remember to ..." is a reminder; after "that" it is a fact.
_NOT_A_FACT = re.compile(
    r"^(?:to|when|what|how|where|who|whom|why|which|if|whether|the\s+time|back\s+when)\b", _I
)

_PREFER = re.compile(
    r"^i(?:'d|\s+would)?\s+(?:(?:really|much|generally|usually|always|definitely|strongly|"
    r"personally|typically|normally|mostly)\s+)?prefer\s+\S.*$",
    _I,
)
_RATHER = re.compile(r"^i(?:'d|\s+would)\s+(?:much\s+)?rather\s+\S.*$", _I)
_PREF_FOR = re.compile(r"^(?:i\s+have\s+a\s+preference|my\s+preference\s+is)\s+(?:for\s+)?(.+)$", _I)
_GENERAL = re.compile(
    r"^(?:in\s+general|generally(?:\s+speaking)?|as\s+a\s+rule|by\s+default)[\s,]+"
    r"(i\s+(?:(?:really|usually|always)\s+)?(?:like|love|want|prefer|enjoy)\s+\S.*)$"
    r"|^(i\s+generally\s+(?:like|love|want|prefer|enjoy)\s+\S.*)$"
    r"|^(i\s+(?:like|love|want|enjoy)\s+\S.*?)[\s,]+in\s+general$",
    _I,
)
# "I like pink for my lights": a like aimed at a thing of the home is a setting, so a preference.
_FOR_MY = re.compile(
    r"^(i\s+(?:(?:really|usually|always)\s+)?(?:like|love|want)\s+\S.*?)\s+for\s+(?:my|the|our)\s+"
    r"([\w' -]{1,40})$",
    _I,
)
_SETTINGS = frozenset({"lights", "climate", "music"})
_DEFAULT = re.compile(
    r"^(?:my|the)\s+default\s+(?:(?:for|of)\s+)?(?:(?:my|the)\s+)?(\w[\w\s'-]{0,40}?)\s+"
    r"(?:is|should\s+be|will\s+be|must\s+be|has\s+to\s+be|=)\s+(.+)$",
    _I,
)

_FORGET = re.compile(
    r"^(?:(?:delete|remove|erase|forget)\s+what\s+you\s+(?:know|remember)\s+about"
    r"|forget(?:\s+about|\s+that|\s+the\s+fact\s+that)?"
    r"|(?:delete|remove|erase|clear|drop)\s+(?:the\s+|that\s+|your\s+|my\s+|any\s+)?"
    r"(?:memor(?:y|ies)|facts?|notes?|preferences?)\s+(?:about|of|that|on|for|regarding|saying))"
    r"\s+(.+)$",
    _I,
)
_FORGET_PREFERENCE = re.compile(
    r"^(?:remove|delete|forget|drop|clear|erase|undo)\s+(?:that|this|the\s+last|my\s+last|the|my)\s+"
    r"(?:(?P<what>[\w' -]{1,40}?)\s+)?preference$",
    _I,
)
_REMINDER = re.compile(r"^to\b", _I)
_QUERY_LEAD = re.compile(
    r"^(?:(?:about|that|the\s+fact\s+that|what\s+i\s+(?:said|told\s+you)\s+about|"
    r"everything\s+about|all\s+about|i'm|im|i've|i'd|i'll|i|me|my|mine|myself|am|is|are|was|"
    r"were|have|has|had|a|an|the)\s+)+",
    _I,
)
_QUERY_PRONOUNS = re.compile(r"\b(?:i'm|i've|i'd|i'll|i|me|my|mine|myself)\b\s*", _I)

_NON_WORD = re.compile(r"[^a-z0-9]+")
_CATEGORIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rf"\b(?:{words})\b", _I))
    for name, words in (
        (
            "lights",
            r"lights?|lighting|lamps?|bulbs?|brightness|bright|dim(?:mer|med)?|"
            r"colou?rs?|colou?red",
        ),
        (
            "climate",
            r"temperature|thermostat|degrees|heating|heater|cooling|air conditioning|"
            r"ac|humidity|warm(?:er)?|cold(?:er)?|chilly|hvac",
        ),
        (
            "units",
            r"metric|imperial|celsius|fahrenheit|kilomet(?:er|re)s?|km|miles?|"
            r"kilograms?|kg|pounds|lbs|units|24-hour|12-hour",
        ),
        (
            "language",
            r"english|spanish|french|german|italian|portuguese|japanese|chinese|"
            r"mandarin|korean|dutch|russian|arabic|hindi|swedish|polish|languages?",
        ),
        (
            "music",
            r"music|songs?|playlists?|jazz|rock|pop|classical|hip hop|rap|podcasts?|"
            r"albums?|artists?|bands?|spotify|radio|volume",
        ),
        ("drinks", r"coffee|tea|espresso|latte|cappuccino|decaf|drinks?|beer|wine|juice|soda"),
        (
            "food",
            r"food|diet|vegetarian|vegan|gluten|spicy|meals?|breakfast|lunch|dinner|pizza|"
            r"cuisine|cook(?:ing)?|recipes?|eat(?:ing)?|dairy|meat|pork|fish|sushi|snacks?",
        ),
        (
            "schedule",
            r"wake|wake-up|alarms?|mornings?|evenings?|night|bedtime|sleep|schedule|"
            r"calendar|meetings?|appointments?|weekends?|weekdays?|\d{1,2}(?::\d\d)?\s*"
            r"(?:am|pm)|o'clock",
        ),
        (
            "travel",
            r"travel|flights?|fly|flying|airlines?|aisle|window seat|seats?|hotels?|"
            r"trains?|cars?|drive|driving|routes?|bus|trips?|vacations?",
        ),
        (
            "communication",
            r"emails?|texts?|sms|calls?|phone|messages?|notifications?|notify|"
            r"slack|whatsapp|voicemail",
        ),
        ("humor", r"humou?r|funny|jokes?|witty|sarcasm|sarcastic|puns?|serious"),
        ("formality", r"formal|informal|casual|polite|professional|tone"),
        (
            "verbosity",
            r"concise|brief|briefer|short(?:er)?|succinct|terse|detailed|verbose|"
            r"lengthy|long-winded|thorough|in-depth|elaborate|wordy|summar(?:y|ies)",
        ),
    )
)
_COMMANDS: tuple[tuple[re.Pattern[str], Action], ...] = (
    (_CONFIRM, "confirm"),
    (_CANCEL, "cancel"),
    (_CLEAR, "clear"),
    (_SHOW_PREFS, "show_preferences"),
    (_SHOW_FACTS, "show_facts"),
)


def detect_phrase(utterance: str) -> PhraseIntent | None:
    """Return the memory command in ``utterance``, or ``None`` for ordinary chat."""
    if len(utterance) > MAX_UTTERANCE_CHARS:
        return None  # a command is said in a sentence or two; reading a long text for one costs time
    text = _SPACES.sub(" ", utterance.translate(APOSTROPHES)).strip()
    asked = text.endswith("?")
    text = strip_trailing(_ADDRESS.sub("", text, count=1))
    if _CONFIRM.match(text):
        return PhraseIntent("confirm")
    if _CANCEL.match(text):
        return PhraseIntent("cancel")
    text, requested = _strip_prefixes(text)
    if not text:
        return None
    for pattern, action in _COMMANDS:
        if pattern.match(text):
            return PhraseIntent(action)
    return (
        _detect_forget_preference(text)
        or _detect_forget(text)
        or _detect_remember(text, asked and not requested)
        or _detect_prefer(text)
    )


def infer_category(text: str) -> str:
    """Return a short snake_case category for a preference text, or ``"general"``."""
    for name, pattern in _CATEGORIES:
        if pattern.search(text):
            return name
    return "general"


GLOBAL = "global"
# Ways of answering: preferences of the "global" category (Saga), in every context.
STYLE_KEYS = frozenset("verbosity formality humor tone language units technical_level detail_level".split())
_KEYS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rf"\b(?:{words})\b", _I))
    for name, words in (
        (
            "color",
            r"colou?rs?|pink|red|blue|green|yellow|purple|orange|violet|teal|magenta|"
            r"warm white|cool white|daylight",
        ),
        ("brightness", r"dim(?:med|mer)?|bright(?:er|ness)?|dark(?:er)?|\d{1,3}\s*%|percent"),
        ("temperature", r"degrees|temperature|thermostat|warm(?:er)?|cool(?:er)?|cold(?:er)?|hot(?:ter)?"),
        ("volume", r"volume|loud(?:er)?|quiet(?:er)?|soft(?:er)?"),
        ("seat", r"seats?|aisle"),
        ("genre", r"jazz|rock|pop|classical|hip hop|rap|country|blues|metal|folk|podcasts?"),
        ("wake_time", r"wake(?:-up)?|waking(?: up)?|alarms?"),
    )
)
_WHEN = re.compile(
    r"\b(?:in the |at |on |during the |on the )?(mornings?|afternoons?|evenings?|nights?|bedtime|"
    r"weekends?|weekdays?)\b",
    _I,
)
_ALWAYS = re.compile(r"\b(?:always|every time|whenever)\b", _I)


def preference_slot(text: str, category: str | None = None) -> tuple[str, str, str]:
    """The (category, key, scope) a preference text sets, without an LLM.

    "likes pink for the user's lights" sets lights/color; "prefers the lights dim in the
    evening" lights/brightness_evening (scope "specific": a time of day or week keeps its own
    value); "prefers concise answers" global/verbosity. A text naming no known attribute sets
    its category's "default" key, so a second such preference replaces the first, with history.
    """
    found = normalize_category(category) if category else infer_category(text)
    if found in STYLE_KEYS:
        return GLOBAL, found, "always" if _ALWAYS.search(text) else "default"
    if found in (GLOBAL, "general"):  # about nothing in particular: global, keyed by its own words
        return GLOBAL, _content_key(text), "default"
    key = next((name for name, pattern in _KEYS if pattern.search(text)), "default")
    when = _WHEN.search(text)
    if when:
        period = when.group(1).lower().rstrip("s")
        return found, f"{key}_{period}" if key != "default" else period, "specific"
    return found, key, "always" if _ALWAYS.search(text) else "default"


_KEY_NOISE = frozenset(
    "prefer prefers preferred like likes love loves want wants would rather generally usually always "
    "really the a an my user s to for of in on at it things thing".split()
)


def _content_key(text: str) -> str:
    """A key from a preference's own words ("prefers things simple" -> "simple")."""
    kept = [w for w in _NON_WORD.split(text.lower()) if w and w not in _KEY_NOISE]
    return "_".join(kept[:3]) or "default"


def normalize_category(category: str) -> str:
    """A category as stored: lower snake_case ("Climate control" -> "climate_control")."""
    name = _NON_WORD.sub("_", category.lower()).strip("_")
    return name or "general"


def _strip_prefixes(text: str) -> tuple[str, bool]:
    """Drop leading fillers and requests; also say whether it was phrased as a request."""
    requested = False
    previous = None
    while previous != text:
        previous = text
        text = _ADDRESS.sub("", text, count=1)
        text = _FILLER.sub("", text, count=1)
        stripped = _REQUEST.sub("", text, count=1)
        requested = requested or stripped != text
        text = stripped
    return text.strip(), requested


def _detect_forget_preference(text: str) -> PhraseIntent | None:
    """Match "remove that preference" and "forget my lights color preference"."""
    match = _FORGET_PREFERENCE.match(text)
    if not match:
        return None
    what = (match["what"] or "").strip()
    return PhraseIntent("forget_preference", "" if what.lower() in ("last", "latest", "new") else what)


def _detect_forget(text: str) -> PhraseIntent | None:
    """Match "forget X" and "delete the memory about X"."""
    match = _FORGET.match(text)
    if not match or _REMINDER.match(match.group(1)):
        return None
    query = _QUERY_PRONOUNS.sub("", _QUERY_LEAD.sub("", match.group(1) + " ")).strip(" ,")
    return PhraseIntent("forget", query) if query else None


def _detect_remember(text: str, is_question: bool) -> PhraseIntent | None:
    """Match "remember (that) X" and its synonyms; questions and reminders are not commands."""
    verb = _REMEMBER_VERB.match(text)
    match = verb or _REMEMBER_OTHER.match(text)
    if not match or (verb and is_question):
        return None
    *thats, clause = match.groups()
    clause = (clause or "").strip(" ,:")
    if _EMPTY_CLAUSE.match(clause) or (not any(thats) and _NOT_A_FACT.match(clause)):
        return None
    fact = to_third_person(clause)
    return PhraseIntent("remember", fact) if fact else None


def _detect_prefer(text: str) -> PhraseIntent | None:
    """Match preference phrases; plain "I like X" is chat, not a preference."""
    default = _DEFAULT.match(text)
    if default:
        named, value = default.group(1), default.group(2).strip()
        slug = _NON_WORD.sub("_", named.lower()).strip("_")
        found = infer_category(f"{named} {value}")
        if found == "general":  # filed under what it is the default of ("parents", "kids_bedtime")
            return PhraseIntent("prefer", value, slug or "general", "default")
        category, key, scope = preference_slot(f"{named} {value}", found)
        if category != GLOBAL:  # the key is what the default is named by ("light color" -> color)
            key = next((name for name, pattern in _KEYS if pattern.search(named)), slug or key)
            scope = "default"
        return PhraseIntent("prefer", value, category, key, scope)
    if _PREFER.match(text) or _RATHER.match(text):
        return _preference(text)
    pref_for = _PREF_FOR.match(text)
    if pref_for:
        return _preference(f"I prefer {pref_for.group(1)}")
    general = _GENERAL.match(text)
    if general:
        return _preference(next(g for g in general.groups() if g))
    aimed = _FOR_MY.match(text)
    if aimed and infer_category(aimed.group(2)) in _SETTINGS:
        return _preference(text)
    return None


def _preference(clause: str) -> PhraseIntent:
    """Build a prefer intent from a clause starting with "I"."""
    sentence = to_third_person(clause)
    predicate = sentence[5:] if sentence.startswith("User ") else sentence
    category, key, scope = preference_slot(predicate)
    return PhraseIntent("prefer", predicate, category, key, scope)


__all__ = [
    "GLOBAL",
    "MAX_UTTERANCE_CHARS",
    "STYLE_KEYS",
    "PhraseIntent",
    "detect_phrase",
    "infer_category",
    "normalize_category",
    "preference_slot",
    "said_by_user",
    "to_third_person",
]
