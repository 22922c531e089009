"""One fact said in another order, put subject first, with what it says changed or was given up.

"Dinner is cooked by User's husband" -> "User's husband cooked dinner"; "Siemens employs User"
-> "User is employed by Siemens"; "User sold the Civic and now drives a Kia" -> "User drives a
Kia", announcing a change and giving up "civic"; "migrated from Jira to Linear" gives up "jira".
Used by ``reverie.extract.claims`` before it reads a sentence.
"""

from __future__ import annotations

import re

from reverie.extract.claim_words import VERBS
from reverie.extract.claims_text import _TOKEN, _content, _lemma

_NOW_FIRST = re.compile(r"^now,?\s+(?=(?:the )?user\b)")
# "Dinner is cooked by User's husband" -> "User's husband cooked dinner": the doer first.
_PASSIVE = re.compile(
    r"^(?!(?:the )?user\b)(.+?) (?:is|are|was|were|gets|got) (?:\w+ly )?(\w+(?:ed|en|t)) "
    r"by ((?:the )?user\b.*)$"
)
# "Siemens employs User" -> "User is employed by Siemens": verbs whose object is the one the fact is about.
_ABOUT_OBJECT = {
    "employ": "is employed by",
    "scare": "is scared of",
    "frighten": "is scared of",
    "terrify": "is scared of",
    "interest": "is interested in",
    "fascinate": "is interested in",
}
_OBJECT_VERB = re.compile(r"^(?!(?:the )?user\b)(.+?) (\w+) ((?:the )?user)\b(.*)$")
# "User sold the Civic and now drives a Kia": a past event, then the state it led to.
_THEN_STATE = re.compile(
    r"^((?:the )?user(?:'s [\w-]+(?: [a-z][\w-]*)?)?) (?:has |have |had )?"
    r"(?:\w+ed|sold|left|quit|got|took|gave|went|made|lost|cut)\b"
    r"[^,]*?,? and (?:then )?((?:now |also )?)(\w+)\b(.*)$"
)


# "User cancelled NordVPN and uses Mullvad now": what was given up, then the state it led to.
_GAVE_UP = re.compile(
    r"^((?:the )?user(?:'s [\w-]+(?: [a-z][\w-]*)?)?) (?:has |have |had )?"
    r"(?:cancell?ed|sold|left|quit|dropped|ditched|broke up with|split up with|split from|got rid of|"
    r"gave up|moved out of|stopped using|closed|returned|paid off|deleted) "
    r"([^,;]+?)[,;]? (?:and|but) (?:then |so )?(.+)$"
)
# "migrated from Jira to Linear", "has ramen for lunch instead of falafel": what the new value replaces.
_FROM_TO = re.compile(r"\bfrom ((?:(?!\bto\b)[\w'.-]+ ?){1,4}) to\b")
_INSTEAD = re.compile(r"\b(?:instead of|rather than|in place of) ([\w' .-]+?)(?:,|$)")
_MOVED_OUT = re.compile(r"\b(?:moved|moving|moves) out of ([\w' .-]+?)(?:,| and |$)")
_BROKE_UP = re.compile(r"^((?:the )?user) and (\w+) (?:split up|broke up|separated)\b")


def _given_up(norm: str) -> frozenset[str]:
    """The content words of what the fact says its subject gave up or replaced ("from Jira to Linear")."""
    found: set[str] = set()
    for pattern in (_FROM_TO, _INSTEAD, _MOVED_OUT):
        for match in pattern.finditer(norm):
            found.update(_content(_TOKEN.findall(match.group(1))))
    return frozenset(found)


def reworded(norm: str) -> tuple[str, bool, frozenset[str]]:
    """The sentence with the subject first when it came later, whether it announces a change, and
    what it says was given up or replaced (``Claim.dropped``)."""
    changed = False
    norm = _BROKE_UP.sub(r"\1 broke up with \2", norm)  # "User and Lukas split up"
    dropped = _given_up(norm)
    gave_up = _GAVE_UP.match(norm)
    if gave_up:  # "User sold the Civic and now drives a Kia": the state, and what it replaced
        dropped |= frozenset(_content(_TOKEN.findall(gave_up.group(2))))
        norm, changed = f"{gave_up.group(1)} {gave_up.group(3)}", True
    if _NOW_FIRST.match(norm):  # "These days User works at PwC"
        norm, changed = _NOW_FIRST.sub("", norm), True
    passive = _PASSIVE.match(norm)
    if passive:
        norm = f"{passive.group(3)} {passive.group(2)} {passive.group(1)}"
    active = _OBJECT_VERB.match(norm)
    verb = active.group(2) if active else ""
    said = _ABOUT_OBJECT.get(verb) or _ABOUT_OBJECT.get(verb[:-1]) or _ABOUT_OBJECT.get(verb[:-2])
    if active and said:
        norm = f"{active.group(3)} {said} {active.group(1)}{active.group(4)}"
    then = _THEN_STATE.match(norm)
    word = then.group(3) if then else ""
    if then and word.endswith("s") and _lemma(word) != word and _lemma(word) in VERBS:
        # a present state after the event: "and now drives a Kia"
        norm, changed = f"{then.group(1)} {then.group(2)}{word}{then.group(4)}", True
    return norm, changed or bool(dropped), dropped


__all__ = ["reworded"]
