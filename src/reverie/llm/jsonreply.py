"""Read JSON out of a model's reply, repairing the usual slips once before giving up.

Models asked for JSON still wrap it in prose or Markdown fences, leave trailing commas and
type curly quotes. :func:`parse_json_reply` tries the text as it is, then one repair: the
fenced blocks and then the text itself, each cut to its top-level JSON objects or arrays,
with trailing commas dropped and, only if that is not enough, curly quotes straightened.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from reverie.errors import ProviderError
from reverie.net import excerpt

_FENCE = re.compile(r"```[ \t]*[A-Za-z0-9_-]*[ \t]*\r?\n?(.*?)```", re.DOTALL)
_QUOTES = str.maketrans(
    {"“": '"', "”": '"', "„": '"', "‟": '"', "″": '"', "‘": "'", "’": "'", "‚": "'", "‛": "'"}
)
_CURLY = frozenset("“”„‟″‘’‚‛")
_MAX_SPANS = 8  # top-level candidates per text: enough for prose with stray brackets, cheap on long replies
_CLOSERS = {"{": "}", "[": "]"}
_CLOSER_AHEAD = re.compile(r"\s*[}\]]")


def parse_json_reply(text: str) -> Any:
    """The JSON value in a model's reply, after one repair if needed; ProviderError if there is none."""
    try:
        return json.loads(text)
    except ValueError as exc:
        first_error = exc
    seen: set[str] = set()
    for candidate in _candidates(text):
        if candidate in seen:
            continue
        seen.add(candidate)
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    if not text.strip():
        raise ProviderError(
            "The model's reply was empty where JSON was expected; try again or use another model"
        )
    raise ProviderError(
        f"The model's reply is not valid JSON ({first_error}), even after repair: {excerpt(text, 160)}; "
        "try again, or use a model that follows JSON instructions better"
    )


def _candidates(text: str) -> Iterator[str]:
    """Repaired texts to try, most likely first."""
    bodies = [match.group(1) for match in _FENCE.finditer(text)] + [text]
    for straighten in (False, True):
        for body in bodies:
            if straighten:
                if not _CURLY.intersection(body):
                    continue
                body = body.translate(_QUOTES)
            for span in _top_level_spans(body):
                yield _drop_trailing_commas(span)


def _top_level_spans(text: str) -> Iterator[str]:
    """The balanced ``{...}`` / ``[...]`` stretches of ``text`` that are not inside one another.

    Strings are skipped, so brackets in them do not count. An unbalanced stretch (a truncated
    reply) ends the search: what follows is inside it, and a fragment of it is not the answer.
    """
    position, found = 0, 0
    while found < _MAX_SPANS:
        starts = [index for index in (text.find("{", position), text.find("[", position)) if index >= 0]
        if not starts:
            return
        start = min(starts)
        end = _matching_end(text, start)
        if end is None:
            return
        found += 1
        yield text[start : end + 1]
        position = end + 1


def _matching_end(text: str, start: int) -> int | None:
    stack: list[str] = []
    in_string = escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _CLOSERS:
            stack.append(_CLOSERS[char])
        elif char in "}]":
            if not stack or stack.pop() != char:
                return None
            if not stack:
                return index
    return None


def _drop_trailing_commas(text: str) -> str:
    """``text`` without commas that come right before a ``}`` or ``]`` (outside strings)."""
    out: list[str] = []
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "," and _CLOSER_AHEAD.match(text, index + 1):
            continue
        out.append(char)
    return "".join(out)


__all__ = ["parse_json_reply"]
