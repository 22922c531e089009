"""Text helpers shared by storage, search and the context builder: terms, similarity, tokens."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Iterator

from reverie.errors import TooLarge

_WORD = re.compile(r"[\w']+", re.UNICODE)
# A punctuation mark as count_tokens counts one: neither alphanumeric (\w less "_") nor space nor "'".
_MARK = re.compile(r"[^\w\s']|_")

# Common words carry no meaning for a keyword search and make FTS OR-queries slow.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been before
    being below between both but by can can't cannot could couldn't did didn't do does doesn't
    doing don't down during each few for from further had hadn't has hasn't have haven't having
    he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've
    if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off
    on once only or other ought our ours ourselves out over own same shan't she she'd she'll
    she's should shouldn't so some such than that that's the their theirs them themselves then
    there there's these they they'd they'll they're they've this those through to too under until
    up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
    where's which while who who's whom why why's will with won't would wouldn't you you'd you'll
    you're you've your yours yourself yourselves user user's users remember tell know anything
    something did do does please thing things s t just also get got like
    """.split()
)
# Numbers written as words, for reading facts (extract/claims.py) and times (retrieve/timeexpr.py).
WORD_NUMBERS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
} | {
    word: 10 * tens
    for tens, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}
WORD_NUMBERS["hundred"] = 100
_TENS = "|".join(word for word, value in WORD_NUMBERS.items() if value in range(20, 100, 10))
_UNITS = "|".join(word for word, value in WORD_NUMBERS.items() if 1 <= value <= 9)
_NUMBER_WORD = re.compile(
    rf"\b(?:({_TENS})[- ]({_UNITS})|({'|'.join(sorted(WORD_NUMBERS, key=len, reverse=True))}))\b(?!-)"
)
MAX_QUERY_TERMS = 12
# A search query longer than this is refused (413): no one types it, and it is work for nothing.
MAX_QUERY_BYTES = 8 * 1024


def fold(text: str) -> str:
    """Lower-case, strip accents and normalise apostrophes."""
    text = unicodedata.normalize("NFKD", text.replace("\u2019", "'").replace("\u2018", "'"))
    return "".join(ch for ch in text if not unicodedata.combining(ch)).lower()


def words(text: str) -> list[str]:
    """The words of a text, folded, possessive 's dropped."""
    return list(_iter_words(text))


def _iter_words(text: str) -> Iterator[str]:
    for match in _WORD.finditer(fold(text)):
        word = match.group().strip("'_")
        if word.endswith("'s"):
            word = word[:-2]
        if word:
            yield word


def keyword_terms(query: str) -> list[str]:
    """Search terms of a query: distinct meaningful words, stopwords dropped, at most 12.

    Linear in the query's length: the words are read lazily and reading stops at the 12th term.
    """
    terms: dict[str, None] = {}
    for word in _iter_words(query):
        if word not in STOPWORDS and word not in terms:
            terms[word] = None
            if len(terms) == MAX_QUERY_TERMS:
                break
    return list(terms)


def check_query(query: str, what: str = "The search query") -> str:
    """``query`` when it is at most MAX_QUERY_BYTES of UTF-8; TooLarge otherwise."""
    if len(query) > MAX_QUERY_BYTES // 4:  # under that many characters it cannot be too long
        size = len(query.encode("utf-8", "surrogatepass"))
        if size > MAX_QUERY_BYTES:
            raise TooLarge(f"{what} is {size} bytes; the limit is {MAX_QUERY_BYTES}. Use a few keywords")
    return query


def token_set(text: str) -> frozenset[str]:
    """The normalised content words of a text, for near-duplicate detection."""
    return frozenset(w for w in words(text) if w not in STOPWORDS) or frozenset(words(text))


def token_similarity(a: str, b: str) -> float:
    """Jaccard similarity of two texts' content words (1.0 = same words)."""
    left, right = token_set(a), token_set(b)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def normalize_key(key: str) -> str:
    """A memory key as stored: lower-case snake_case words ("Home City" -> "home_city")."""
    return "_".join(words(key.replace("_", " ").replace("-", " ")))


def count_tokens(text: str) -> int:
    """Tokens a text costs in a prompt.

    A documented approximation of a BERT/GPT-style subword tokenizer, chosen to overestimate
    slightly so that a budget is never exceeded: one token per 4 characters, but at least
    4 tokens per 3 words, plus one per punctuation mark.
    """
    if not text:
        return 0
    if "\n" in text:
        # Words and marks add up line by line (no word spans a line break, which is no mark), and
        # a prompt's lines come back every turn (the memory block's facts): each is read once.
        word_count = punctuation = 0
        for line in text.split("\n"):
            words, marks = _line_counts(line) if len(line) <= _CACHED_LINE else _counts(line)
            word_count += words
            punctuation += marks
    else:
        word_count, punctuation = _counts(text)
    return max(math.ceil(len(text) / 4), math.ceil(word_count * 4 / 3) + punctuation)


def _counts(text: str) -> tuple[int, int]:
    """Words and punctuation marks of a text (the marks counted in C, not a character at a time)."""
    return len(_WORD.findall(text)), len(_MARK.findall(text))


_CACHED_LINE = 1000  # longer lines are counted every time: the cache stays a few megabytes at most
_line_counts = functools.lru_cache(maxsize=4096)(_counts)


def number_words_as_digits(text: str) -> str:
    """``text`` (lower case) with numbers in words in digits: "twenty-nine" -> "29", "twelve" -> "12"."""

    def digits(match: re.Match[str]) -> str:
        if match.group(3):
            return str(WORD_NUMBERS[match.group(3)])
        return str(WORD_NUMBERS[match.group(1)] + WORD_NUMBERS[match.group(2)])

    return _NUMBER_WORD.sub(digits, text)


__all__ = [
    "MAX_QUERY_BYTES",
    "MAX_QUERY_TERMS",
    "STOPWORDS",
    "WORD_NUMBERS",
    "check_query",
    "count_tokens",
    "fold",
    "keyword_terms",
    "normalize_key",
    "number_words_as_digits",
    "token_set",
    "token_similarity",
    "words",
]
