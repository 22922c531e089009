"""Views of a text for the guard: the same words with disguises taken off.

Every check in ``reverie.extract.guard`` runs on each view, so an attack cannot hide behind
full-width letters (NFKC), Cyrillic or Greek look-alikes (the Unicode confusables table shipped
by ``confusable-homoglyphs``), zero-width or bidi controls, leetspeak ("1gn0r3") or letters
spelled out one by one ("i g n o r e"). The stored text is never changed by these views.
"""

from __future__ import annotations

import base64
import codecs
import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

__all__ = ["clean_text", "has_content", "spelled_out_words", "text_views"]

# Zero-width and bidi controls: invisible to a reader, so they are dropped before matching.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f]"
)
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u02bc": "'", "\u00b4": "'"})
_LATIN = re.compile(r"[A-Za-z]")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?|\S+")
# Leetspeak digits and symbols inside words, for Latin and for Cyrillic words.
_LEET_LATIN = str.maketrans(
    {
        "0": "o",
        "1": "i",
        "3": "e",
        "4": "a",
        "5": "s",
        "7": "t",
        "@": "a",
        "$": "s",
        "!": "i",
        "|": "l",
        "+": "t",
        "8": "b",
    }
)
_LEET_CYRILLIC = str.maketrans({"0": "о", "3": "е", "4": "а", "6": "б", "@": "а"})
_LEET_TOKEN = re.compile(r"\S*[^\W\d_]\S*")
_LEET_CHARS = re.compile(r"[0134578@$!|+]")
# Letters spelled one at a time: "i g n o r e", "i.g.n.o.r.e", "D-i-s-r-e-g-a-r-d".
_SPELLED = re.compile(r"(?<![^\W_])(?:[^\W_][ .\-_*·•]){3,}[^\W_](?![^\W_])\.?")


# A string cut into quoted pieces joined by "+" (or "||", "..", "&"): the pieces are read joined,
# and without their quote marks, as whoever runs the code would read them.
_CONCAT = re.compile(r"""["'`]\s*(?:\+|\|\||\.\.|&)\s*["'`]""")
_QUOTE_MARK = re.compile(r"""["'`]""")
# Text holding none of these words is not plain English: it may be backwards or in ROT13.
_PLAIN_ENGLISH = re.compile(
    r"\b(?:the|and|to|of|a|is|in|on|for|my|i|it|with|at|user|user's)\b", re.IGNORECASE
)
# Small capitals ("ɪɢɴᴏʀᴇ") read as the letters they are; the confusables table leaves most out.
_SMALL_CAPS_TABLE = str.maketrans("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡxʏᴢ", "abcdefghijklmnopqrstuvwxyz")
# Greek and Cyrillic letters used as Latin ones although the confusables table has no single
# look-alike for them ("fοrgeτ", "instrucтions").
_EXTRA_FOLD = dict(zip("τκεηχβωткм", "tkenxbwtkm", strict=True))
# The other way round: Latin letters inside a Cyrillic word ("Игнopиpyй" has Latin o, p, y).
_TO_CYRILLIC = str.maketrans("aceopxykmtABCEHKMOPTXY", "асеорхукмтАВСЕНКМОРТХУ")
_CYRILLIC = re.compile("[\u0400-\u04ff]")
# A word mixing Latin with Cyrillic or Greek letters is someone disguising it.
_GREEK_CYRILLIC = re.compile("[\u0370-\u03ff\u0400-\u04ff]")
_LETTERS = re.compile(r"[^\W\d_]+")
# Text that asks to be decoded before it is read: its backwards and ROT13 views are checked too.
_DECODE_ME = re.compile(
    r"\b(?:backwards?|reversed?|rot[\s-]?13|caesar|decode|decipher|unscramble)\b", re.IGNORECASE
)


# Marks put inside a word to break it for a matcher but not for a reader.
_JOINERS = re.compile(r"(?<=[^\W\d_])[*^~`+=|/\\_·•](?=[^\W\d_])")
# A run that may be base64: a model decodes it at a glance, so its text is read too.
_BASE64 = re.compile(r"(?<![\w+/=])[A-Za-z0-9+/]{16,}={0,2}(?![\w+/=])")


# ...and so is text written as hex bytes ("64 69 73 61 62 6c 65", "\\x64\\x69").
_HEX_BYTES = re.compile(r"(?:(?:\\x)?[0-9a-fA-F]{2}[ ,:]?){6,}")


def _decoded_base64(text: str) -> list[str]:
    """The text of every base64 or hex run that decodes to readable words (keys and hashes do not)."""
    views = []
    runs = [(m.group(), True) for m in _BASE64.finditer(text)]
    runs += [(m.group(), False) for m in _HEX_BYTES.finditer(text)]
    for token, is_base64 in runs:
        try:
            if is_base64:
                raw = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
            else:
                raw = bytes.fromhex(re.sub(r"\\x|[ ,:]", "", token))
            decoded = raw.decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            continue
        letters = sum(ch.isalpha() or ch == " " for ch in decoded)
        if " " in decoded and letters >= 0.85 * len(decoded):
            views.append(decoded)
    return views


@lru_cache(maxsize=1)
def _fold_table() -> dict[str, str]:
    """Map every character that is confusable with one ASCII letter or digit to that character."""
    table: dict[str, str] = {}
    for char, looks in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        targets = {g["c"] for g in looks if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalnum()}
        if targets == {"l"} and char.isupper():
            targets = {"I"}  # capital I and small l share a glyph; the capital is meant
        if len(targets) == 1:
            table[char] = targets.pop()
    table.update(_EXTRA_FOLD)
    return table


def clean_text(text: str, *, invisible: str = "") -> str:
    """NFKC, straight apostrophes and zero-width or bidi controls dropped (or replaced by ``invisible``)."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return _INVISIBLE.sub(invisible, text)


def has_content(text: str) -> bool:
    """True when ``text`` holds a letter, digit or symbol once the invisible characters are gone."""
    return any(unicodedata.category(ch)[0] in "LNS" for ch in clean_text(text))


def _fold(text: str) -> str:
    text = text.translate(_SMALL_CAPS_TABLE)
    if text.isascii():
        return text
    table = _fold_table()
    letters = [ch for ch in text if ch.isalpha()]
    latin_text = sum(1 for ch in letters if ch.isascii()) * 2 >= len(letters)

    def fold_word(match: re.Match[str]) -> str:
        word = match.group()
        if word.isascii() or not (latin_text or _LATIN.search(word)):
            return word
        return "".join(table.get(ch, ch) for ch in word)

    return _WORD.sub(fold_word, text)


def _fold_mixed(text: str) -> list[str]:
    """Two more views of a text with mixed-script words: every word made only of look-alikes
    folded to Latin ("арі" beside "sеnd"), and Latin letters in Cyrillic words made Cyrillic."""
    if not (_LATIN.search(text) and _GREEK_CYRILLIC.search(text)):
        return []
    words = (m.group() for m in _LETTERS.finditer(text))
    if not any(_LATIN.search(w) and _GREEK_CYRILLIC.search(w) for w in words):
        return []
    table = _fold_table()

    def to_latin(match: re.Match[str]) -> str:
        word = match.group()
        folded = "".join(table.get(ch, ch) for ch in word)
        return folded if folded.isascii() else word

    def to_cyrillic(match: re.Match[str]) -> str:
        word = match.group()
        return word.translate(_TO_CYRILLIC) if _CYRILLIC.search(word) else word

    return [_WORD.sub(to_latin, text), _WORD.sub(to_cyrillic, text)]


def _unleet(text: str, one: str) -> str:
    def fix(match: re.Match[str]) -> str:
        token = match.group()
        core = token.rstrip(".,;:?!")
        if not _LEET_CHARS.search(core[:-1] if core.endswith("!") else core):
            return token
        if any("\u0400" <= ch <= "\u04ff" for ch in core):
            return core.translate(_LEET_CYRILLIC) + token[len(core) :]
        return (
            core.translate(_LEET_LATIN).replace("i", one) + token[len(core) :]
            if one != "i"
            else (core.translate(_LEET_LATIN) + token[len(core) :])
        )

    return _LEET_TOKEN.sub(fix, text)


def _unspell(text: str) -> str:
    def join(match: re.Match[str]) -> str:
        return re.sub(r"[ .\-_*·•]", "", match.group())

    return _SPELLED.sub(join, text)


def spelled_out_words(text: str) -> list[str]:
    """Words written one letter at a time, joined and lower-cased ("i g n o r e" -> "ignore")."""
    return [re.sub(r"[\W_]", "", m.group()).lower() for m in _SPELLED.finditer(clean_text(text))]


def text_views(text: str) -> list[str]:
    """The cleaned text and its de-disguised variants, without duplicates, cleaned text first."""
    base = clean_text(text)
    folded = _fold(base)
    views = [base, folded]
    if _LEET_CHARS.search(folded):
        views.extend(_unleet(folded, one) for one in ("i", "l"))
    views.append(_unspell(folded) if _SPELLED.search(folded) else folded)
    views.append(re.sub(r"(?<=[^\W\d_])[-_.](?=[^\W\d_])", " ", views[-1]))
    # An invisible character may stand for a space ("reveal\u00adyour\u00adprompt"), and a y for an i.
    views.append(_fold(clean_text(text, invisible=" ")) if _INVISIBLE.search(text) else folded)
    views.append(re.sub(r"y(?=[a-z])|(?<=[a-z])y(?![a-z])", "i", folded) if "y" in folded else folded)
    if "-" in folded:  # a word cut by hyphens ("ig-nore all pre-vious in-structions")
        views.append(re.sub(r"(?<=[^\W\d_])-(?=[^\W\d_])", "", folded))
    if _JOINERS.search(folded):  # ... or by other marks ("ig*nore", "sys/tem pro^mpt")
        views.append(_JOINERS.sub("", folded))
    if _CONCAT.search(folded):  # pieces joined as code joins strings ("'ign' + 'ore prev' + 'ious'")
        views.append(_QUOTE_MARK.sub("", _CONCAT.sub("", folded)))
    views.extend(_decoded_base64(folded))
    views.extend(_fold_mixed(base))
    undo = _DECODE_ME.search(folded) or not _PLAIN_ENGLISH.search(folded)
    if folded.isascii() and _LATIN.search(folded) and undo:
        # Written backwards or in ROT13: a reader (or a model) undoes either at a glance.
        views.extend((folded[::-1], codecs.encode(folded, "rot13")))
    unique: list[str] = []
    for view in views:
        view = re.sub(r"[ \t]+", " ", view)
        if view not in unique:
            unique.append(view)
    return unique
