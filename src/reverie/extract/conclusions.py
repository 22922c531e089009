"""Conclusions, decisions and discoveries without an LLM (Rostro's digestion, offline), and topic names.

A user's sentence counts as a conclusion when it states a decision ("I decided to…", "let's
go with…", "from now on…"), a discovery ("it turns out…", "the trick is…", "I realized…")
or a settled judgement ("X works better than Y", "never use X"). Questions and hedged
sentences ("maybe", "might") are not conclusions. An assistant observation counts when the
user's next turn confirms it ("yes, exactly", "that's right").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from reverie.extract.phrases import to_third_person
from reverie.text import keyword_terms

_SENTENCES = re.compile(r"(?<=[.!;])\s+|\n+")
_DECISION = re.compile(
    r"^(?:so,?\s+|ok(?:ay)?,?\s+|well,?\s+|then,?\s+|alright,?\s+)?"
    r"(?:(?:i|we)(?:'ve| have)?\s+(?:decided|concluded|settled on|chose|agreed)\b"
    r"|(?:i|we)(?:'ll| will)\s+(?:go with|use|stick with|switch to|start|stop|always|never|keep)\b"
    r"|let'?s\s+(?:go with|use|stick with)\b"
    r"|from now on\b|in future\b|going forward\b"
    r"|it turns out\b|turns out\b|the trick is\b|the secret is\b|the key is\b"
    r"|(?:i|we)\s+(?:realized|learned|found out|discovered|figured out|noticed)\b"
    r"|(?:the\s+)?(?:best|right) (?:way|choice|option)\b"
    r"|never\s+\w+|always\s+\w+)",
    re.IGNORECASE,
)
_JUDGEMENT = re.compile(
    r"\b(?:works|tastes|is)\s+(?:much\s+)?(?:better|worse)\s+(?:than|with)\b", re.IGNORECASE
)
_HEDGE = re.compile(
    r"\b(?:maybe|might|perhaps|not sure|wonder|should i|could i|do you think)\b", re.IGNORECASE
)
_CONFIRM = re.compile(
    r"^(?:yes|yeah|yep|exactly|right|correct|true|agreed|that'?s (?:right|true|it|correct)|good point)\b",
    re.IGNORECASE,
)
_DISCOVERY = re.compile(r"^(?:it\s+)?turns out(?:\s+that)?\s+", re.IGNORECASE)
_LEAD = re.compile(r"^(?:so|ok(?:ay)?|well|then|alright|yes|yeah)[,\s]+", re.IGNORECASE)
_MIN_WORDS = 4

# Offline topic names: a few everyday domains and words that point to them.
_DOMAINS: dict[str, list[str]] = {
    "cooking": (
        "paella rice broth stock recipe cook cooking bake baking oven pan pasta sauce bread dough flour "
        "roast simmer boil fry grill saffron soup stew dinner lunch breakfast kitchen knife spice salt "
        "garlic onion chicken beef fish vegetable dessert cake yeast sourdough marinade"
    ).split(),
    "travel": (
        "trip travel flight hotel train airport passport visa itinerary booking beach tour luggage vacation "
        "holiday road museum city"
    ).split(),
    "health": (
        "doctor health sleep exercise workout run running gym diet medication symptom pain blood allergy "
        "therapy vitamin weight"
    ).split(),
    "money": "budget money savings invest investment loan mortgage tax bank spending expense salary".split(),
    "garden": "garden plant plants soil seed seeds tomato water watering compost prune lawn flower".split(),
    "home": (
        "house home garage door heating boiler wiring router wifi network light lights paint roof repair "
        "furniture"
    ).split(),
    "work": "work job meeting project deadline manager team client office career".split(),
    "music": "music guitar piano song songs band practice chord scales concert".split(),
    "coding": "code coding python bug deploy server database api test tests git function".split(),
    "family": "kids children son daughter school parents mother father wife husband birthday".split(),
}
_DOMAIN_OF = {word: domain for domain, words in _DOMAINS.items() for word in words}


def _sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCES.split(text) if part.strip()]


def _as_conclusion(sentence: str) -> str | None:
    clean = sentence.strip().rstrip(".!")
    if clean.endswith("?") or _HEDGE.search(clean) or len(clean.split()) < _MIN_WORDS:
        return None
    if not (_DECISION.search(clean) or _JUDGEMENT.search(clean)):
        return None
    clean = _LEAD.sub("", clean)
    discovery = _DISCOVERY.match(clean)
    if discovery:
        clean = clean[discovery.end() :]
    text = to_third_person(clean)
    if text and not text.lower().startswith(("user", "the user")):
        verb = "found that" if discovery else "concluded:"
        text = f"User {verb} {text[0].lower()}{text[1:]}"
    return text[0].upper() + text[1:] if text else None


def extract_conclusions(turns: Sequence[tuple[str, str]]) -> list[str]:
    """Conclusions of a conversation given as (role, text) turns, in order, without duplicates."""
    found: list[str] = []
    for index, (role, text) in enumerate(turns):
        if role == "user":
            candidates = [_as_conclusion(sentence) for sentence in _sentences(text)]
        elif role == "assistant" and index + 1 < len(turns):
            reply_role, reply = turns[index + 1]
            if reply_role != "user" or not _CONFIRM.match(reply.strip()):
                continue
            observation = _sentences(text)[-1] if _sentences(text) else ""
            candidates = (
                [f"User confirmed: {observation.rstrip('.!')}"] if len(observation.split()) >= 4 else []
            )
        else:
            continue
        for item in candidates:
            if item and item.lower() not in {f.lower() for f in found}:
                found.append(item)
    return found


def everyday_word(term: str) -> bool:
    """True for a word of the everyday-domain lexicon (a good name for a group of lines)."""
    return term in _DOMAIN_OF or (term.endswith("s") and term[:-1] in _DOMAIN_OF)


def _votes(texts: Sequence[str]) -> tuple[Counter[str], Counter[str]]:
    votes: Counter[str] = Counter()
    words: Counter[str] = Counter()
    for text in texts:
        for term in keyword_terms(text):
            if term in ("user", "concluded", "confirmed"):
                continue
            words[term] += 1
            stem = term[:-1] if term.endswith("s") and term[:-1] in _DOMAIN_OF else term
            if stem in _DOMAIN_OF:
                votes[_DOMAIN_OF[stem]] += 1
    return votes, words


def topic_domain(texts: Sequence[str]) -> str | None:
    """The everyday domain (cooking, garden, ...) the words of some texts point to, if any."""
    votes, _ = _votes(texts)
    return votes.most_common(1)[0][0] if votes else None


def name_topic(texts: Sequence[str]) -> str:
    """A short topic name for some conclusions: an everyday domain when the words point to one."""
    votes, words = _votes(texts)
    if votes:
        return votes.most_common(1)[0][0]
    return words.most_common(1)[0][0] if words else "notes"


__all__ = ["everyday_word", "extract_conclusions", "name_topic", "topic_domain"]
