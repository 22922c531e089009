"""Acting on power phrases in what the user says, with no LLM (Saga).

``observe(memory, utterance)`` detects "remember that ...", "I prefer ...", "forget ...",
"clear your memory" (then "yes" / "no"), "what do you remember about me", "what are my
preferences" and "re-index the documents" / "rescan the knowledge base" (DAWN §5.4's voice
trigger: a scan of the documents folder in the background), does it, and returns what it did
with a sentence the assistant can say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from reverie.docs.library import WithDocuments
from reverie.errors import GuardRejected, InvalidInput, NotFound
from reverie.extract.phrases import detect_phrase
from reverie.retrieve.context import preference_label
from reverie.store.base import MemoryRow

if TYPE_CHECKING:
    from reverie.core import MemoryCore

CLEAR_CONFIRM_SECONDS = 120
_SPOKEN_FACTS = 8

ObservedAction = Literal[
    "none",
    "guest",
    "remembered",
    "reinforced",
    "updated",
    "preference_set",
    "forgot",
    "nothing_to_forget",
    "confirm_clear",
    "cleared",
    "clear_cancelled",
    "show_facts",
    "show_preferences",
    "reindex",
    "rejected",
]


@dataclass(frozen=True)
class Observation:
    """What ``observe`` did, and a sentence an assistant can say about it."""

    action: ObservedAction
    reply: str
    memories: list[MemoryRow] = field(default_factory=list)

    @property
    def handled(self) -> bool:
        """True when the utterance was a memory command (the assistant may answer with ``reply``)."""
        return self.action != "none"


_SECOND_PERSON = [
    (re.compile(r"^User's\b", re.I), "your"),
    (re.compile(r"^User is\b", re.I), "you're"),
    (re.compile(r"^User has\b", re.I), "you have"),
    (re.compile(r"^User was\b", re.I), "you were"),
    (re.compile(r"^User does\b", re.I), "you do"),
    (re.compile(r"^User doesn't\b", re.I), "you don't"),
    (re.compile(r"^User (\w+?)(?:ies)\b", re.I), r"you \1y"),
    (re.compile(r"^User (\w+?(?:sh|ch|x|ss|o))es\b", re.I), r"you \1"),
    (re.compile(r"^User (\w+?[^s])s\b", re.I), r"you \1"),
    (re.compile(r"^User\b", re.I), "you"),
    (re.compile(r"\bthe user's\b", re.I), "your"),
    (re.compile(r"\bthe user\b", re.I), "you"),
]


def to_second_person(fact: str) -> str:
    """Turn a stored fact back into something said to the user ("User's dog" -> "your dog")."""
    text = fact.strip().rstrip(".")
    for pattern, replacement in _SECOND_PERSON:
        text = pattern.sub(replacement, text, count=1)
    return text


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _show_facts(memory: MemoryCore) -> Observation:
    facts = memory.list_memories(kind="fact", order="confidence", limit=_SPOKEN_FACTS)
    if not facts:
        return Observation("show_facts", "I don't remember anything about you yet.")
    total = memory.count(kind="fact")
    said = _join([to_second_person(f.text) for f in facts])
    more = (
        f", and {total - len(facts)} more things you can see in your memory page"
        if total > len(facts)
        else ""
    )
    return Observation("show_facts", f"Here's what I remember: {said}{more}.", facts)


def _show_preferences(memory: MemoryCore) -> Observation:
    prefs = memory.list_memories(kind="preference", order="confidence", limit=_SPOKEN_FACTS)
    if not prefs:
        return Observation("show_preferences", "You haven't told me any preferences yet.")
    said = _join([f"for {preference_label(p)}, {p.text}" for p in prefs])
    return Observation("show_preferences", f"Your preferences: {said}.", prefs)


# "..., keep it as sensitive": the spoken way to ask for a secret to be kept (the guard refuses
# one otherwise and says so).
_SENSITIVE_ASK = re.compile(
    r"[,;]?\s*(?:\b(?:and|but)\s+)?(?:please\s+)?(?:(?:keep|store|save|mark|remember)\s+(?:it|this|that)\s+as"
    r"\s+(?:sensitive|a\s+secret|secret)|as\s+sensitive)(?:\s+please)?[.!]?\s*$",
    re.IGNORECASE,
)


def _sensitive_request(text: str) -> tuple[str, bool]:
    found = _SENSITIVE_ASK.search(text)
    if found is None or not text[: found.start()].strip():
        return text, False
    return text[: found.start()].rstrip(" ,;"), True


# A command about the documents, not about the user's memories: read here, beside its action.
_REINDEX = re.compile(
    r"^\W*(?:(?:hey|ok|okay)\s+\w+\W+)?(?:please\s+|can you\s+|could you\s+)?"
    r"(?:re-?index|re-?scan|refresh|update|scan)\s+(?:all\s+)?(?:the\s+|my\s+|your\s+)?"
    r"(?:documents|docs|files|knowledge\s*base)(?:\s+(?:again|now|please))*\W*$",
    re.IGNORECASE,
)


def _reindex(memory: MemoryCore) -> Observation:
    if not memory.settings.rag.enabled or not isinstance(memory, WithDocuments):
        return Observation("reindex", "The knowledge base is turned off ([rag] enabled = false).")
    try:
        was = memory.documents.progress().state
        memory.documents.start_scan()
    except NotFound as exc:
        return Observation("reindex", f"I can't scan the documents: {exc}")
    if was == "running":
        return Observation("reindex", "I'm already scanning the documents.")
    return Observation(
        "reindex",
        "Scanning the documents folder now: new and changed files are indexed, deleted ones removed.",
    )


def observe(memory: MemoryCore, utterance: str) -> Observation:
    """Detect a power phrase in ``utterance`` and act on it."""
    if _REINDEX.match(utterance[:200]):
        if memory.is_guest:
            return Observation("guest", "Only someone I know can ask me to scan the documents.")
        return _reindex(memory)
    intent = detect_phrase(utterance)
    if intent is None:
        if not memory.is_guest:
            memory.scope.take_pending(memory.clock())  # anything else cancels a pending clear
        return Observation("none", "")
    if memory.is_guest:
        return Observation("guest", "I'm not keeping memories in this guest session.")
    scope, now = memory.scope, memory.clock()
    pending = scope.take_pending(now) if intent.action in ("confirm", "cancel") else None
    if intent.action != "clear" and intent.action not in ("confirm", "cancel"):
        scope.take_pending(now)
    try:
        match intent.action:
            case "remember":
                text, sensitive = _sensitive_request(intent.text)
                result = memory.remember(text, sensitive=sensitive)
                verb = {"stored": "remembered", "superseded": "updated"}.get(result.status, result.status)
                reply = {
                    "remembered": "I'll remember that.",
                    "reinforced": "I already knew that; noted again.",
                    "updated": "Got it, I've updated that.",
                }[verb]
                return Observation(verb, reply, [result.memory])  # type: ignore[arg-type]
            case "prefer":
                result = memory.save_preference(
                    intent.category or "general", intent.key or "default", intent.text, scope=intent.scope
                )
                return Observation(
                    "preference_set", "Got it, I'll keep that preference in mind.", [result.memory]
                )
            case "forget":
                gone = memory.forget(intent.text)
                if not gone:
                    return Observation("nothing_to_forget", "I didn't have anything like that to forget.")
                noun = "thing" if len(gone) == 1 else "things"
                return Observation("forgot", f"Done, I've forgotten {len(gone)} {noun} about that.", gone)
            case "forget_preference":
                gone = memory.forget_preference(intent.text)
                if not gone:
                    return Observation("nothing_to_forget", "I didn't have a preference like that to remove.")
                said = _join([p.text for p in gone])
                return Observation("forgot", f"Done, I've removed that preference ({said}).", gone)
            case "clear":
                scope.set_pending("clear", now + CLEAR_CONFIRM_SECONDS)
                return Observation(
                    "confirm_clear",
                    "This will delete all your preferences, facts and conversation history. Are you sure?",
                )
            case "confirm" | "cancel" if pending == "clear":
                if intent.action == "cancel":
                    return Observation("clear_cancelled", "Okay, your memory is preserved.")
                memory.forget_all("DELETE")
                return Observation("cleared", "Memory cleared. Starting fresh.")
            case "show_facts":
                return _show_facts(memory)
            case "show_preferences":
                return _show_preferences(memory)
    except GuardRejected as exc:
        return Observation("rejected", f"I can't keep that: {exc}")
    except InvalidInput as exc:
        return Observation("rejected", str(exc))
    return Observation("none", "")


__all__ = ["Observation", "observe", "to_second_person"]
