"""Turning a conversation into candidate memories: by an LLM (DAWN §8.1) or by rules, then validated.

Every item passes the output guardrails of DAWN §13.4 before it may be merged: length,
instruction patterns, secrets, ``source`` in {explicit, inferred}, confidence in [0, 1] and
at least ``confidence_min``. Rejections are returned (and logged), never stored.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from reverie.errors import ProviderError
from reverie.extract import prompts
from reverie.extract.conclusions import extract_conclusions, name_topic
from reverie.extract.guard import check_memory_text, find_personal_sensitive
from reverie.extract.phrases import PhraseIntent, detect_phrase, infer_category
from reverie.extract.rules import extract_facts, fact_type, summarize
from reverie.llm import ChatMessage, ChatModel, parse_json_reply
from reverie.store.base import MessageRow
from reverie.text import normalize_key

log = logging.getLogger(__name__)
SENTIMENTS = ("positive", "neutral", "frustrated")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class FactItem:
    """A fact proposed for memory."""

    text: str
    source: str = "inferred"
    confidence: float = 0.7
    type: str = "general"
    key: str = ""  # the attribute it sets ("employer"), as the per-exchange model names it; empty: none


@dataclass(frozen=True)
class PreferenceItem:
    """A preference proposed for memory."""

    category: str
    value: str
    source: str = "inferred"
    confidence: float = 0.7
    key: str = ""  # what the preference sets within its category; read from the value when empty


@dataclass(frozen=True)
class Correction:
    """The user corrected an earlier assumption."""

    old_fact: str
    new_fact: str
    reason: str = ""


@dataclass(frozen=True)
class Rejection:
    """An item the guardrails refused, and why."""

    what: str
    text: str
    reason: str


@dataclass(frozen=True)
class Extraction:
    """What one conversation (or exchange) yields."""

    facts: list[FactItem] = field(default_factory=list)
    preferences: list[PreferenceItem] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    summary: str = ""
    topics: list[str] = field(default_factory=list)
    sentiment: str = "neutral"
    conclusions: list[str] = field(default_factory=list)
    topic: str = ""  # the name the model (or the rules) gives what the conversation was about


def _number(value: Any, default: float) -> float:
    if isinstance(value, bool):
        return default
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return -1.0  # invalid: refused by validation
    return default


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def parse_extraction(data: Any) -> Extraction:
    """Read the extraction model's JSON reply; odd fields become items validation will refuse."""
    if not isinstance(data, dict):
        raise ProviderError(f"The extraction reply is not a JSON object: {json.dumps(data)[:200]}")
    facts = [
        FactItem(
            _text(item.get("text") or item.get("fact")),
            _text(item.get("source")) or "inferred",
            _number(item.get("confidence"), 0.7),
            _text(item.get("type")) or "general",
        )
        for item in data.get("facts") or []
        if isinstance(item, dict)
    ]
    preferences = [
        PreferenceItem(
            _text(item.get("category")),
            _text(item.get("value")),
            _text(item.get("source")) or "inferred",
            _number(item.get("confidence"), 0.7),
            normalize_key(_text(item.get("key") or item.get("preference"))),
        )
        for item in data.get("preferences") or []
        if isinstance(item, dict)
    ]
    corrections = [
        Correction(_text(item.get("old_fact")), _text(item.get("new_fact")), _text(item.get("reason")))
        for item in data.get("corrections") or []
        if isinstance(item, dict)
    ]
    topics = [t.strip() for t in data.get("topics") or [] if isinstance(t, str) and t.strip()][:5]
    sentiment = _text(data.get("sentiment")).lower()
    conclusions = [_text(c.get("text") if isinstance(c, dict) else c) for c in data.get("conclusions") or []]
    return Extraction(
        facts,
        preferences,
        corrections,
        _text(data.get("summary")),
        topics,
        sentiment if sentiment in SENTIMENTS else "neutral",
        [c for c in conclusions if c],
        _text(data.get("topic")),
    )


def _check(
    what: str, text: str, source: str, confidence: float, minimum: float, max_bytes: int
) -> str | None:
    """Why an item is refused, or None."""
    if source not in ("explicit", "inferred"):
        return f"source must be explicit or inferred, got {source!r}"
    if not 0.0 <= confidence <= 1.0:
        return f"confidence must be in [0, 1], got {confidence}"
    if confidence < minimum:
        return f"confidence {confidence} is under the minimum {minimum}"
    verdict = check_memory_text(text, max_bytes=max_bytes)
    if not verdict.ok:
        return f"{verdict.reason}: {verdict.message}"
    sensitive = find_personal_sensitive(text)
    if sensitive is not None:  # mem.db §8: only an explicit remember stores these
        return f"sensitive: a {sensitive} detail is kept only when the user explicitly asks to remember it"
    return None


def validate(
    extraction: Extraction, *, confidence_min: float, max_bytes: int
) -> tuple[Extraction, list[Rejection]]:
    """Keep the items that pass the output guardrails; list the others with the reason."""
    rejected: list[Rejection] = []
    facts = []
    for fact in extraction.facts:
        why = _check("fact", fact.text, fact.source, fact.confidence, confidence_min, max_bytes)
        if why:
            rejected.append(Rejection("fact", fact.text, why))
        else:
            facts.append(fact)
    preferences = []
    for pref in extraction.preferences:
        why = _check("preference", pref.value, pref.source, pref.confidence, confidence_min, max_bytes)
        if not why and not normalize_key(pref.category):
            why = "a preference needs a category"
        if why:
            rejected.append(Rejection("preference", f"{pref.category}: {pref.value}", why))
        else:
            preferences.append(pref)
    corrections = []
    for corr in extraction.corrections:
        why = _check("correction", corr.new_fact, "explicit", 1.0, 0.0, max_bytes)
        if why or not corr.old_fact:
            rejected.append(Rejection("correction", corr.new_fact, why or "a correction needs the old fact"))
        else:
            corrections.append(corr)
    summary = extraction.summary
    if summary and not check_memory_text(summary, max_bytes=4 * max_bytes).ok:
        rejected.append(Rejection("summary", summary, "refused by the guardrails"))
        summary = ""
    conclusions = []
    for text in extraction.conclusions:
        why = _check("conclusion", text, "inferred", 1.0, 0.0, max_bytes)
        if why:
            rejected.append(Rejection("conclusion", text, why))
        else:
            conclusions.append(text)
    for item in rejected:
        log.warning("Extraction item refused (%s): %s", item.what, item.reason)
    return Extraction(
        facts,
        preferences,
        corrections,
        summary,
        extraction.topics,
        extraction.sentiment,
        conclusions,
        extraction.topic,
    ), rejected


def extract_conversation(
    model: ChatModel | None, messages: Sequence[MessageRow], profile: str, *, temperature: float = 0.0
) -> Extraction:
    """Ask the model (or, without one, the rules) what is worth remembering from a conversation."""
    if model is None:
        return _rules_extraction(messages)
    reply = model.chat(
        [ChatMessage("user", prompts.extraction_prompt(messages, profile))],
        temperature=temperature,
        json_mode=True,
    )
    return parse_extraction(parse_json_reply(reply.content))


def said_items(utterance: str) -> tuple[list[FactItem], list[PreferenceItem]]:
    """What one user utterance asks to keep without an LLM: a power phrase, or self-disclosures.

    "remember that ..." gives one explicit fact and "I prefer ..." one preference (the same
    reading as ``Memory.remember_words``), and nothing else from that utterance: one utterance,
    one memory. In a longer utterance each sentence saying a preference ("Hi. I prefer concise
    answers. What is ...?") gives that preference; the other sentences give the rules' inferred
    facts, typed (person, routine, location, work, room_mapping, profile, ...).
    """
    intent = detect_phrase(utterance)
    if intent is not None and intent.action == "remember" and check_memory_text(intent.text).ok:
        return [FactItem(intent.text, "explicit", 1.0, fact_type(intent.text))], []
    if intent is not None and intent.action == "prefer" and check_memory_text(intent.text).ok:
        return [], [_preference_item(intent, 1.0)]
    preferences: list[PreferenceItem] = []
    rest: list[str] = []
    for sentence in _SENTENCES.split(utterance):
        said = detect_phrase(sentence) if sentence.strip() else None
        if said is not None and said.action == "prefer" and check_memory_text(said.text).ok:
            preferences.append(_preference_item(said, 0.9))
        else:
            rest.append(sentence)
    found = [FactItem(f.text, "inferred", f.confidence, f.type) for f in extract_facts("\n".join(rest))]
    return found, preferences


def _preference_item(intent: PhraseIntent, confidence: float) -> PreferenceItem:
    category = intent.category or infer_category(intent.text)
    return PreferenceItem(category, intent.text, "explicit", confidence, intent.key)


def _rules_extraction(messages: Sequence[MessageRow]) -> Extraction:
    facts: list[FactItem] = []
    preferences: list[PreferenceItem] = []
    for m in messages:
        if m.role == "user":
            found, preferred = said_items(m.content)
            facts += found
            preferences += preferred
    turns = [(m.role, m.content) for m in messages]
    summary, topics = summarize(turns)
    conclusions = extract_conclusions(turns)
    seen = {c.lower() for c in conclusions}
    facts = [f for f in facts if f.text.lower() not in seen]  # a conclusion is kept once, as such
    topic = name_topic(conclusions) if conclusions else ""
    return Extraction(
        facts=facts,
        preferences=preferences,
        summary=summary,
        topics=topics,
        conclusions=conclusions,
        topic=topic,
    )


def extract_exchange(
    model: ChatModel | None, user_text: str, assistant_text: str, *, max_items: int, temperature: float = 0.0
) -> list[FactItem]:
    """Facts from one exchange (Lo-Bug's per-turn extraction), at most ``max_items``.

    The model's confidence (clamped to 0..1; 0.7 when missing or not a number) and key (a
    snake_case attribute name; dropped when missing or generic) are kept (mem.db §5).
    """
    if model is None:
        return said_items(user_text)[0][:max_items]
    reply = model.chat(
        [
            ChatMessage("system", prompts.EXCHANGE_PROMPT),
            ChatMessage("user", prompts.exchange_prompt(user_text, assistant_text)),
        ],
        temperature=temperature,
        json_mode=True,
    )
    data = parse_json_reply(reply.content)
    if isinstance(data, dict):  # JSON mode often wraps the array: {"facts": [...]}
        data = next((v for v in data.values() if isinstance(v, list)), [])
    if not isinstance(data, list):
        raise ProviderError("The per-exchange extraction reply is not a JSON array")
    found = [
        FactItem(
            _text(item.get("fact") or item.get("text") or item.get("content")),
            "inferred",
            _confidence(item.get("confidence")),
            _text(item.get("type") or item.get("memory_type")) or "general",
            _model_key(item.get("key")),
        )
        for item in data
        if isinstance(item, dict)
    ]
    return [item for item in found if item.text][:max_items]


# Keys that name no attribute: two facts with one of these are not one value replacing another.
_VAGUE_KEYS = frozenset(
    "fact facts general personal preference preferences knowledge event events info information note "
    "other misc user profile memory detail details unknown none null".split()
)


def _confidence(value: Any) -> float:
    """The model's confidence clamped to 0..1; 0.7 when it gave none, or not a finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return 0.7
    try:
        number = float(value)
    except ValueError:
        return 0.7
    return min(1.0, max(0.0, number)) if math.isfinite(number) else 0.7


def _model_key(value: Any) -> str:
    """The model's key as a stored key (snake_case, at most 64 characters), or '' when vague."""
    key = normalize_key(_text(value))[:64].strip("_")
    return "" if not key or key in _VAGUE_KEYS else key


__all__ = [
    "Correction",
    "Extraction",
    "FactItem",
    "PreferenceItem",
    "Rejection",
    "extract_conversation",
    "extract_exchange",
    "parse_extraction",
    "validate",
]
