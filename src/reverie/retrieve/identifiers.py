"""Exact identifiers in a query (model numbers, error codes, versions, file names, paths, hex codes).

A question that names ``E24``, ``DW-450``, ``v1.2.4``, ``backup_nightly.sh`` or ``0x61011BED`` asks
for the text that holds that very token. Keyword search splits such a token into common pieces
(``dw`` OR ``450``) and vector search barely sees it, so fused with meaning it is easily
outranked by chunks that are merely about the same thing. Here each identifier is searched as an
exact phrase of its pieces, and chunks that hold more of the query's identifiers rank above
those that hold fewer, whatever the fusion says; within a tier the fused order stands.

What counts as an identifier (a whitespace-separated token, outer punctuation stripped):

* letters and digits mixed: ``E24``, ``TP1337``, ``5E1998002``, ``0x1F``, ``F.22``, ``HX-88213-B``;
  ordinals and clock times (``3rd``, ``5pm``) are not;
* digits joined by ``.``, ``:``, ``-``, ``/`` or ``_``: ``16.2``, ``02:30``, ``205/55``;
* a path (``/etc/hosts``, ``~/bin/run``) or a name with an extension or an underscore:
  ``photos.conf``, ``docker-compose.yml``, ``backup_nightly``.

A phrase that no chunk holds is tried again as it is often written otherwise: a version without
or with its ``v`` (``v1.1.2`` <-> ``1.1.2``), a short code's pieces run together (``DW-450`` ->
``DW450``) or its letters and digits apart (``DW450`` -> ``DW 450``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reverie.text import fold

MAX_IDENTIFIERS = 4  # a query naming more is a list of numbers, not a lookup
_PIECE = re.compile(r"[^\W_]+")  # what the keyword index keeps as one token (unicode61, tsvector)
_OUTER = "\"'`()[]{}<>,;:!?*"
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_NOT_IDENTIFIER = re.compile(r"^\d+(?:st|nd|rd|th|am|pm)$")
_NUMBERS_JOINED = re.compile(r"^\d+(?:[.:/_-]\d+)+$")
_PATH = re.compile(r"^~?/\w|^\w+/\w")
_FILE_NAME = re.compile(r"^[\w-]{2,}(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,4}$")
_SNAKE = re.compile(r"^[^\W_]+(?:_[^\W_]+)+$")
_VERSION = re.compile(r"^v(?=\d)")
_LETTERS_DIGITS = re.compile(r"(?<=[^\W\d_])(?=\d)")
_LETTERS_THEN_DIGITS = re.compile(r"^[^\W\d_]+\d+$")

Search = Callable[[Sequence[str], int], Sequence[tuple[int, float]]]


def identifiers(query: str) -> list[str]:
    """The exact identifiers a query names, lower-cased, in order, at most MAX_IDENTIFIERS."""
    found: dict[str, None] = {}
    for raw in query.split():
        token = raw.strip(_OUTER).rstrip(".")
        if token.lower().endswith(("'s", "\u2019s")):
            token = token[:-2]
        if _is_identifier(token) and token.lower() not in found:
            found[token.lower()] = None
            if len(found) == MAX_IDENTIFIERS:
                break
    return list(found)


def _is_identifier(token: str) -> bool:
    if not token or _NOT_IDENTIFIER.match(token.lower()):
        return False
    if _LETTER.search(token) and _DIGIT.search(token):
        return True
    if _NUMBERS_JOINED.match(token):
        return True
    folded = token.lower()
    return bool(_PATH.match(folded) or _FILE_NAME.match(folded) or _SNAKE.match(folded))


def phrases(identifier: str) -> list[str]:
    """The identifier as typed and as a phrase of its pieces, then the other ways it is often written.

    As typed first: PostgreSQL's parser keeps ``2.0.9`` or a path as one token, SQLite's splits
    them into the pieces the phrase is made of, so one of the two matches on either engine.
    """
    typed = fold(identifier).strip()
    pieces = _PIECE.findall(typed)
    if not pieces:
        return []
    exact = " ".join(pieces)
    variants = [typed, exact]
    if _VERSION.match(pieces[0]):
        variants += [typed[1:], " ".join([pieces[0][1:], *pieces[1:]])]
    elif len(pieces) > 1 and all(piece.isdigit() for piece in pieces) and "." in typed:
        variants += ["v" + typed, "v" + exact]
    elif 1 < len(pieces) <= 3 and _LETTER.search(exact) and _DIGIT.search(exact):
        variants.append("".join(pieces))
    elif len(pieces) == 1 and _LETTERS_THEN_DIGITS.match(exact):
        variants.append(_LETTERS_DIGITS.sub(" ", exact))
    return list(dict.fromkeys(variants))


def identifier_matches(query: str, search: Search, limit: int) -> dict[int, int]:
    """Chunk id -> how many of the query's identifiers it holds, by ``search`` (terms, limit).

    Each identifier costs one phrase search, or a few when it is found only as written otherwise.
    """
    counts: dict[int, int] = {}
    for identifier in identifiers(query):
        for phrase in phrases(identifier):
            hits = search([phrase], limit)
            if hits:
                for item, _ in hits:
                    counts[item] = counts.get(item, 0) + 1
                break
    return counts


def promote(
    ranking: Sequence[tuple[int, float]], matches: dict[int, int], extra: Sequence[tuple[int, float]] = ()
) -> list[tuple[int, float]]:
    """``ranking`` with chunks holding more identifiers first; their score gains 1 per identifier.

    ``extra`` scores chunks that hold an identifier but are not in ``ranking`` (left out by the
    similarity threshold, or beyond the keyword pool); they rank within their tier by it.
    """
    if not matches:
        return list(ranking)
    scored = dict(ranking)
    for item, score in extra:
        if item in matches and item not in scored:
            scored[item] = score
    for item in matches:
        scored.setdefault(item, 0.0)
    boosted = {item: score + matches.get(item, 0) for item, score in scored.items()}
    return sorted(boosted.items(), key=lambda pair: (-matches.get(pair[0], 0), -pair[1], pair[0]))


__all__ = ["MAX_IDENTIFIERS", "identifier_matches", "identifiers", "phrases", "promote"]
