"""A first-person variant of a merge corpus: the new fact of each pair as the user would say it.

    .venv/bin/python bench/first_person.py tests/data/merge_corpus_5.jsonl > /tmp/fp_5.jsonl
    .venv/bin/python bench/merge_bench.py --corpus /tmp/fp_5.jsonl --all-heldout --skip-crowded

A memory keeps "User lives in Porto" (third person, as extraction and the assistants write it),
and the user then says "I moved to Lisbon": the merge must read both as facts about one subject.
The variant rewrites, by general rules only (no pair is rewritten by hand), every new fact whose
subject is the user into the first person: "User" / "The user" -> "I" (then "me" later in the
sentence), "User's" -> "my", the verb agreed ("works" -> "work", "is" -> "am", "has been" ->
"have been"), the user's "their / his / her / they / them / themselves" -> "my / I / me / myself";
contractions ("I'm", "I've", "don't") in about half of the pairs, chosen by a hash of the id.
``--old`` rewrites the old fact instead (the user said it first, the memory then stores a third
person fact). Pairs whose rewritten text did not change are left out unless ``--keep-all``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from reverie.extract.claim_words import VERBS  # noqa: E402
from reverie.extract.claims_text import _lemma  # noqa: E402

_ADVERBS = (
    "now also no longer never still usually often always only recently just currently finally "
    "rarely sometimes mostly actually really occasionally regularly already even generally "
    "typically officially newly"
).split()
_IRREGULAR = {"is": "am", "has": "have", "does": "do", "was": "was", "goes": "go", "isn't": "am not"}
_NOT_VERB_S = {"always", "sometimes", "is", "has", "was", "does", "its", "this", "his", "yes", "thus"}


def _base(verb: str) -> str:
    """The first-person form of a third-person verb ("works" -> "work", "studies" -> "study")."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low.endswith("n't"):
        stem = low[:-3]
        return {"does": "do not", "has": "have not", "is": "am not", "was": "was not"}.get(stem, low)
    if not low.endswith("s") or low.endswith("ss") or low in _NOT_VERB_S:
        return verb  # past tense, modal, or not a verb in the third person
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


_USER = r"(?:[Tt]he [Uu]ser|User)"
_ADVERB_RUN = rf"(?:(?:{'|'.join(_ADVERBS)}|no longer),? )*"
# "User" as the doer of a verb, anywhere: "These days User works", "so User no longer owns it"
_DOER = re.compile(rf"\b{_USER} ({_ADVERB_RUN})([\w'-]+)")
_AND_VERB = re.compile(rf"\b(and|but|or) ({_ADVERB_RUN})([a-z'-]+)\b")


def _verb_like(word: str) -> bool:
    low = word.lower()
    if low in _IRREGULAR or low.endswith("n't") or low in ("can", "will", "would", "could", "should"):
        return True
    lemma = _lemma(low)
    return lemma in VERBS or low.endswith("ed") or (low.endswith("s") and not low.endswith(("ss", "ous")))


def first_person(text: str, contract: bool) -> str:
    """``text`` said by the user (see the module docstring); unchanged if the user is not in it."""
    # "User and Lukas split up" -> "Lukas and I split up"
    out = re.sub(rf"^{_USER} and ((?:[A-Z]\w+|(?:their|his|her) \w+))\b", r"\1 and I", text)
    about_user = out != text

    def doer(match: re.Match[str]) -> str:
        nonlocal about_user
        adverbs, verb = match.group(1), match.group(2)
        if not _verb_like(verb):
            return match.group(0)
        about_user = True
        after = match.string[match.end() :].split()
        if contract and not adverbs and verb in ("is", "isn't"):
            return "I'm" + (" not" if verb == "isn't" else "")
        if contract and not adverbs and verb == "has" and after and _participle(after[0]):
            return "I've"
        base = _base(verb)
        if contract:
            base = {"do not": "don't", "have not": "haven't", "am not": "'m not"}.get(base, base)
        return f"I {adverbs}{base}".replace("I 'm", "I'm")

    out = _DOER.sub(doer, out)
    if about_user:
        # a second verb of the same subject: "is outgoing and loves parties", "and now sees"
        out = _AND_VERB.sub(
            lambda m: f"{m.group(1)} {m.group(2)}{_second(m.group(3), bool(m.group(2)))}", out
        )
        out = re.sub(r"\b(their|his|her)\b(?! own)", "my", out)
        out = re.sub(r"\b(Their|His|Her)\b", "My", out)
        out = re.sub(r"\bthemselves\b|\bhimself\b|\bherself\b", "myself", out)
        out = re.sub(r"\bthey(?:'re| are)\b", "I'm" if contract else "I am", out)
        out = re.sub(r"\bthey were\b", "I was", out)
        out = re.sub(r"\bthey've\b", "I've", out)
        out = re.sub(r"\bthey\b", "I", out)
        out = re.sub(r"\bthem\b", "me", out)
    out = re.sub(rf"^{_USER}'s\b", "My", out)
    out = re.sub(rf"\b{_USER}'s\b", "my", out)
    out = re.sub(rf"(?<!^)\b{_USER}\b", "me", out)
    return out[:1].upper() + out[1:]


def _second(word: str, adverb: bool) -> str:
    """A coordinated verb agreed with "I" ("and loves" -> "and love", "and now sees" -> "and now
    see"); other words as they are ("and cats")."""
    low = word.lower()
    if low in _IRREGULAR or low.endswith("n't"):
        return _base(word)
    verb = _lemma(low) != low and _lemma(low) in VERBS
    return _base(word) if low.endswith("s") and not low.endswith("ss") and (verb or adverb) else word


def _participle(word: str) -> bool:
    return word.endswith(("ed", "en")) or word in {
        "been", "got", "gotten", "left", "quit", "sold", "bought", "made", "taken", "given",
        "begun", "grown", "become", "lost", "found", "met", "kept", "put", "cut", "run",
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--old", action="store_true", help="rewrite the old fact instead of the new one")
    parser.add_argument("--keep-all", action="store_true", help="keep pairs the rewrite did not change")
    args = parser.parse_args()
    side = "old" if args.old else "new"
    for line in args.corpus.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        pair = json.loads(line)
        contract = zlib.crc32(pair["id"].encode()) % 2 == 0
        said = first_person(pair[side], contract)
        if said == pair[side] and not args.keep_all:
            continue
        sys.stdout.write(
            json.dumps({**pair, side: said, "id": pair["id"] + "-fp"}, ensure_ascii=False) + "\n"
        )


if __name__ == "__main__":
    main()
