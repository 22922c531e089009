"""Turn-level retrieval on LoCoMo: Reverie's message search against BM25 and dense baselines.

Each conversation of a LoCoMo-format file goes through Reverie's public Python API into a
fresh temporary home (one user per sample, one conversation per session, one message per
turn, the turn's ``dia_id`` as the message ``ref``). Every question of categories 1-4 then
searches its own conversation; the refs of the hits, in order, are the ranking, scored
against the question's evidence turns:

    .venv/bin/python bench/locomo_retrieval.py /work/shared/bench/locomo/locomo-dev.json
    .venv/bin/python bench/locomo_retrieval.py FILE --limit-conversations 1 --k 1,5,10 --json out.json

Cross-validation (``bench/locomo_cv.py``): every tunable weight of the episodic ranking
(keyword / vector balance, speaker, date and "when" priors, the date scale, event dates, the
turns around the best candidates, the second round) is chosen on all conversations but one
and scored on the one left out, in turn; the cross-validated table is printed beside the
all-in one (the library's shipped defaults scored on every conversation), and the shipped
defaults are the values most folds chose. Variants of the grid show what each rule adds
under the same protocol.

Two baselines are computed in this script, not through Reverie: Okapi BM25 (k1 1.5, b 0.75,
lower-case words, English stopwords dropped) and cosine similarity of the local model
(``--embed-model``: all-MiniLM-L6-v2 by default, or bge-small-en-v1.5), both over
``speaker: text`` per turn and per conversation. Recall@k is the fraction of a question's
evidence turns found in the top k, averaged over questions; NDCG@10 uses binary relevance
and an ideal DCG over min(|evidence|, 10) relevant turns.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from locomo_cv import CONTEXT_GATHER, Item, cross_validate, describe  # bench/ is the script's directory

from reverie.retrieve.episodes import (
    EXPAND_SEEDS,
    RankWeights,
    expand_candidates,
    gather_candidates,
    rank_candidates,
)
from reverie.retrieve.timeexpr import MONTHS

#: The protocol whose fold-majority weights the library ships (the second round did not help).
DEFAULTS_FROM = "full grid, no second round"
CATEGORIES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
NDCG_AT = 10
TARGETS: dict[int, float] = {5: 0.60, 10: 0.70}
#: Seconds between consecutive turns of a session, so their order is kept.
TURN_STEP_SECONDS = 5.0
#: A session with no (parsable) date is put this long after the previous one.
MISSING_DATE_GAP_SECONDS = 86_400.0
#: Used only when no session of a conversation has a parsable date.
FALLBACK_EPOCH = datetime(2023, 1, 1, 12, tzinfo=UTC).timestamp()
BM25_K1 = 1.5
BM25_B = 0.75
USER_NAME_MAX = 64

# NLTK's English stopword list (179 words).
STOPWORDS: frozenset[str] = frozenset(
    """
    i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
    yourselves he him his himself she she's her hers herself it it's its itself they them their
    theirs themselves what which who whom this that that'll these those am is are was were be
    been being have has had having do does did doing a an the and but if or because as until
    while of at by for with about against between into through during before after above below
    to from up down in out on off over under again further then once here there when where why
    how all any both each few more most other some such no nor not only own same so than too
    very s t can will just don don't should should've now d ll m o re ve y ain aren aren't
    couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma
    mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren
    weren't won won't wouldn wouldn't
    """.split()
)

_MONTHS = MONTHS  # month names and abbreviations, shared with query time expressions
_MONTH = r"(?P<month>[A-Za-z]{3,9})\.?"
_DAY_MONTH_YEAR = re.compile(
    rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})\b"
)
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})\b")
_ISO_DATE = re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})\b")
_CLOCK = re.compile(
    r"\b(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?(?::(?P<second>\d{2}))?\s*"
    r"(?P<half>[ap])?(?(half)\.?\s*m\b\.?)",
    re.IGNORECASE,
)
_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE_ID = re.compile(r"^D\D*(\d+)\D+(\d+)$", re.IGNORECASE)
_EVIDENCE_SPLIT = re.compile(r"[;,\s]+")
_WORD = re.compile(r"[a-z0-9]+")


# --- loading -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One turn of a session, with the text every system indexes."""

    ref: str
    speaker: str | None
    text: str
    at: float

    @property
    def labelled(self) -> str:
        """``speaker: text``, what the baselines index."""
        return f"{self.speaker or 'user'}: {self.text}"


@dataclass(frozen=True)
class Session:
    number: int
    at: float
    turns: list[Turn]


@dataclass(frozen=True)
class Question:
    index: int
    text: str
    category: int
    evidence: frozenset[str]


@dataclass
class Sample:
    sample_id: str
    sessions: list[Session]
    questions: list[Question]
    skipped: Counter[str] = field(default_factory=Counter)

    @property
    def turns(self) -> list[Turn]:
        return [turn for session in self.sessions for turn in session.turns]

    @property
    def last_session_at(self) -> float:
        return max(session.at for session in self.sessions)


def parse_session_date(value: object) -> float | None:
    """Epoch seconds (UTC) of a LoCoMo date such as ``"1:56 pm on 8 May, 2023"``, else None."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = " ".join(value.split())
    try:
        iso = datetime.fromisoformat(text)
    except ValueError:
        pass
    else:
        return (iso if iso.tzinfo else iso.replace(tzinfo=UTC)).timestamp()
    date: tuple[int, int, int] | None = None
    rest = text
    for pattern in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR, _ISO_DATE):
        match = pattern.search(text)
        if match is None:
            continue
        month_text = match.group("month")
        month = int(month_text) if month_text.isdigit() else _MONTHS.get(month_text.lower())
        if month is None:
            continue
        date = (int(match.group("year")), month, int(match.group("day")))
        rest = text[: match.start()] + " " + text[match.end() :]
        break
    if date is None:
        return None
    hour = minute = second = 0
    for match in _CLOCK.finditer(rest):
        # A bare number is not a time: it needs minutes or am/pm.
        if match.group("minute") is None and match.group("half") is None:
            continue
        hour, minute = int(match.group("hour")), int(match.group("minute") or 0)
        second = int(match.group("second") or 0)
        half = (match.group("half") or "").lower()
        if half and not 1 <= hour <= 12:
            hour = minute = second = 0
            continue
        if half == "p" and hour != 12:
            hour += 12
        elif half == "a" and hour == 12:
            hour = 0
        break
    try:
        return datetime(*date, hour, minute, second, tzinfo=UTC).timestamp()
    except ValueError:
        try:
            return datetime(*date, tzinfo=UTC).timestamp()
        except ValueError:
            return None


def normalise_evidence(raw: object) -> list[str]:
    """Evidence ids as ``D<int>:<int>``: split on ``;``, commas and spaces; junk is dropped."""
    items: Iterable[object] = raw if isinstance(raw, list) else [raw] if isinstance(raw, str) else []
    found: list[str] = []
    for item in items:
        if not isinstance(item, str):
            continue
        for token in _EVIDENCE_SPLIT.split(item.strip()):
            ref = normalise_ref(token)
            if ref is not None and ref not in found:
                found.append(ref)
    return found


def normalise_ref(token: str) -> str | None:
    """``"D:11:26"`` -> ``"D11:26"``, ``"D30:05"`` -> ``"D30:5"``; None if it is no turn id."""
    match = _EVIDENCE_ID.match(token.strip())
    if match is None:
        return None
    return f"D{int(match.group(1))}:{int(match.group(2))}"


def _session_times(numbers: list[int], dates: dict[int, float | None]) -> dict[int, float]:
    """Each session's time; sessions without a parsable date are placed between their neighbours."""
    times: dict[int, float] = {}
    known = [n for n in numbers if dates.get(n) is not None]
    previous: float | None = None
    for position, number in enumerate(numbers):
        at = dates.get(number)
        if at is None:
            if previous is not None:
                at = previous + MISSING_DATE_GAP_SECONDS
            elif known:
                first = dates[known[0]]
                assert first is not None
                at = first - MISSING_DATE_GAP_SECONDS * (numbers.index(known[0]) - position)
            else:
                at = FALLBACK_EPOCH + MISSING_DATE_GAP_SECONDS * position
        times[number] = previous = at
    return times


def _turn_text(turn: dict[str, Any]) -> str:
    text = turn.get("text")
    text = text.strip() if isinstance(text, str) else ""
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [shares a photo: {caption.strip()}]".strip()
    return text


def load_samples(path: Path, limit: int | None = None) -> tuple[list[Sample], Counter[str]]:
    """The samples of a LoCoMo-format file, and counts of what was skipped or repaired."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict):  # a single sample, or {id: sample}
        data = [data] if "conversation" in data else list(data.values())
    if not isinstance(data, list):
        raise SystemExit(f"{path}: expected a JSON list of LoCoMo samples")
    notes: Counter[str] = Counter()
    samples: list[Sample] = []
    for position, raw in enumerate(data):
        if limit is not None and len(samples) >= limit:
            break
        if not isinstance(raw, dict) or not isinstance(raw.get("conversation"), dict):
            notes["samples without a conversation"] += 1
            continue
        sample = _load_sample(raw, position, notes)
        if sample is None:
            notes["samples without turns"] += 1
            continue
        if any(other.sample_id == sample.sample_id for other in samples):
            notes["duplicate sample ids (suffixed)"] += 1
            sample.sample_id = f"{sample.sample_id}#{position}"
        samples.append(sample)
    return samples, notes


def _load_sample(raw: dict[str, Any], position: int, notes: Counter[str]) -> Sample | None:
    conversation: dict[str, Any] = raw["conversation"]
    numbers = sorted(
        int(match.group(1))
        for key, value in conversation.items()
        if (match := _SESSION_KEY.fullmatch(key)) and isinstance(value, list) and value
    )
    if not numbers:
        return None
    dates: dict[int, float | None] = {}
    for number in numbers:
        value = conversation.get(f"session_{number}_date_time")
        dates[number] = parse_session_date(value)
        if dates[number] is None:
            notes["sessions without a parsable date"] += 1
    times = _session_times(numbers, dates)
    sessions: list[Session] = []
    for number in numbers:
        turns: list[Turn] = []
        for index, turn in enumerate(conversation[f"session_{number}"]):
            if not isinstance(turn, dict):
                notes["malformed turns"] += 1
                continue
            raw_ref = turn.get("dia_id")
            ref = normalise_ref(raw_ref) if isinstance(raw_ref, str) else None
            if ref is None:
                ref = f"D{number}:{index + 1}"
                notes["turns without a valid dia_id (numbered by position)"] += 1
            speaker = turn.get("speaker")
            speaker = speaker.strip()[:100] if isinstance(speaker, str) and speaker.strip() else None
            text = _turn_text(turn)
            if not text:
                notes["empty turns"] += 1
                continue
            turns.append(Turn(ref, speaker, text, times[number] + TURN_STEP_SECONDS * index))
        if turns:
            sessions.append(Session(number, times[number], turns))
    if not sessions:
        return None
    refs = {turn.ref for session in sessions for turn in session.turns}
    questions: list[Question] = []
    skipped: Counter[str] = Counter()
    for index, qa in enumerate(raw.get("qa") or []):
        if not isinstance(qa, dict):
            skipped["malformed"] += 1
            continue
        try:
            category = int(qa.get("category", 0))
        except (TypeError, ValueError):
            category = 0
        if category not in CATEGORIES:
            skipped[f"category {category}" if category else "no category"] += 1
            continue
        question = qa.get("question")
        if not isinstance(question, str) or not question.strip():
            skipped["no question text"] += 1
            continue
        evidence = normalise_evidence(qa.get("evidence"))
        kept = [ref for ref in evidence if ref in refs]
        notes["evidence ids naming no turn (dropped)"] += len(evidence) - len(kept)
        if not kept:
            skipped["no evidence left"] += 1
            continue
        questions.append(Question(index, question.strip(), category, frozenset(kept)))
    sample_id = raw.get("sample_id")
    sample_id = str(sample_id) if sample_id not in (None, "") else f"sample-{position}"
    return Sample(sample_id, sessions, questions, skipped)


# --- metrics -----------------------------------------------------------------------------------


def _dedupe(ranking: Iterable[str | None]) -> list[str]:
    return list(dict.fromkeys(ref for ref in ranking if ref is not None))


def question_scores(ranking: Sequence[str], evidence: frozenset[str], ks: Sequence[int]) -> dict[str, float]:
    """Recall@k for each k and NDCG@10 of one ranking."""
    scores = {f"R@{k}": len(evidence.intersection(ranking[:k])) / len(evidence) for k in ks}
    dcg = sum(1.0 / math.log2(rank + 2) for rank, ref in enumerate(ranking[:NDCG_AT]) if ref in evidence)
    ideal = sum(1.0 / math.log2(rank + 2) for rank in range(min(len(evidence), NDCG_AT)))
    scores[f"NDCG@{NDCG_AT}"] = dcg / ideal
    return scores


def summarise(rows: list[tuple[int, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean scores overall and per category; ``n`` is the question count."""
    groups: dict[str, list[dict[str, float]]] = {"overall": [scores for _, scores in rows]}
    for category in CATEGORIES:
        groups[f"cat{category}"] = [scores for cat, scores in rows if cat == category]
    table: dict[str, dict[str, float]] = {}
    for name, members in groups.items():
        entry: dict[str, float] = {"n": float(len(members))}
        if members:
            for metric in members[0]:
                entry[metric] = sum(scores[metric] for scores in members) / len(members)
        table[name] = entry
    return table


# --- baselines ---------------------------------------------------------------------------------


def tokenize(text: str) -> list[str]:
    """Lower-case runs of letters and digits ("don't" -> don, t), English stopwords dropped."""
    return [word for word in _WORD.findall(text.lower()) if word not in STOPWORDS]


class BM25:
    """Okapi BM25 over a fixed set of documents."""

    def __init__(self, documents: Sequence[str], k1: float = BM25_K1, b: float = BM25_B) -> None:
        self.k1, self.b = k1, b
        self.docs = [Counter(tokenize(doc)) for doc in documents]
        self.lengths = [sum(doc.values()) for doc in self.docs]
        self.avg_length = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        df: Counter[str] = Counter(term for doc in self.docs for term in doc)
        n = len(self.docs)
        self.idf = {term: math.log((n - count + 0.5) / (count + 0.5) + 1.0) for term, count in df.items()}

    def rank(self, query: str, limit: int) -> list[int]:
        """Indices of the best-scoring documents (only those sharing a term with the query)."""
        terms = tokenize(query)
        scores: dict[int, float] = {}
        for index, doc in enumerate(self.docs):
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * self.lengths[index] / (self.avg_length or 1.0))
            for term in terms:
                tf = doc.get(term, 0)
                if tf:
                    score += self.idf[term] * tf * (self.k1 + 1) / (tf + norm)
            if score > 0:
                scores[index] = score
        return sorted(scores, key=lambda index: (-scores[index], index))[:limit]


def dense_rank(
    turn_vectors: np.ndarray[Any, Any], query_vector: np.ndarray[Any, Any], limit: int
) -> list[int]:
    """Indices of the turns most similar to the query (vectors are unit length: dot = cosine)."""
    similarities = turn_vectors @ query_vector
    order = np.argsort(-similarities, kind="stable")[:limit]
    return [int(index) for index in order]


# --- the run -----------------------------------------------------------------------------------


def _user_name(sample_id: str, position: int, taken: set[str]) -> str:
    name = re.sub(r"[^A-Za-z0-9._@-]", "_", sample_id.strip())[:USER_NAME_MAX] or f"sample-{position}"
    if name in taken:
        name = f"{name[: USER_NAME_MAX - 8]}-{position}"
    taken.add(name)
    return name


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def run(
    path: Path, limit_conversations: int | None, ks: list[int], embed_model: str = "all-MiniLM-L6-v2"
) -> dict[str, Any]:
    from reverie import Memory, Turn, load_settings
    from reverie.embed.base import QueryEmbedder, create_embedder

    started = time.perf_counter()
    samples, notes = load_samples(path, limit_conversations)
    if not samples:
        raise SystemExit(f"{path}: no conversation with turns")
    metric_ks = sorted(set(ks) | set(TARGETS))
    depth = max(max(metric_ks), NDCG_AT)
    skipped: Counter[str] = Counter()
    for sample in samples:
        skipped.update(sample.skipped)
    n_turns = sum(len(sample.turns) for sample in samples)

    rankings: dict[str, dict[tuple[str, int], list[str]]] = {"reverie": {}, "bm25": {}, "dense": {}}
    latencies: list[float] = []
    with tempfile.TemporaryDirectory(prefix="reverie-locomo-") as home:
        environ = {"REVERIE_MEMORY__TIMEZONE": "UTC", "REVERIE_EMBEDDINGS__MODEL": embed_model}
        settings = load_settings(home=home, environ=environ)
        base = Memory(settings)
        try:
            if base.embeddings is not None:  # load the model outside the timed ingestion
                base.embeddings.embed(["warm up"])
            taken = {settings.default_user}
            ingest_start = time.perf_counter()
            memories: dict[str, Memory] = {}
            for position, sample in enumerate(samples):
                name = _user_name(sample.sample_id, position, taken)
                base.add_user(name)
                mem = memories[sample.sample_id] = base.for_user(name)
                for session in sample.sessions:
                    conv = mem.start_conversation("locomo", at=session.at)
                    # One call per session: the turns are embedded in one batch (add_message per
                    # turn gives the same index, about 3x slower).
                    mem.add_messages(
                        conv,
                        [Turn("user", t.text, at=t.at, speaker=t.speaker, ref=t.ref) for t in session.turns],
                    )
            for mem in memories.values():
                # Vectors land in background batches: score the finished index, not a race with it.
                mem.wait_indexed()
            ingest_s = time.perf_counter() - ingest_start
            items: list[Item] = []
            scopes: dict[str, Any] = {}
            for sample in samples:
                mem = memories[sample.sample_id]
                scopes[sample.sample_id] = mem.scope
                reference = sample.last_session_at
                for question in sample.questions:
                    tick = time.perf_counter()
                    found = mem.search(question.text, scope="messages", limit=depth, reference_time=reference)
                    latencies.append((time.perf_counter() - tick) * 1000)
                    ranking = _dedupe(hit.message.ref for hit in found.messages)
                    rankings["reverie"][(sample.sample_id, question.index)] = ranking
                    candidates, parsed = gather_candidates(
                        mem.scope,
                        question.text,
                        semantic=mem.semantic,
                        tz=mem.tz,
                        reference_time=reference,
                        context_radius=CONTEXT_GATHER[0],
                        context_seeds=CONTEXT_GATHER[1],
                    )
                    items.append(
                        Item(
                            sample.sample_id,
                            question.text,
                            question.category,
                            question.evidence,
                            parsed,
                            candidates,
                        )
                    )

            def expand(these: Sequence[Item], weights: RankWeights) -> list[Item]:
                out = []
                for item in these:
                    first = rank_candidates(item.candidates, item.query, weights, EXPAND_SEEDS)
                    wider = expand_candidates(
                        scopes[item.conversation], item.candidates, item.query, first, item.text
                    )
                    out.append(replace(item, candidates=wider))
                return out

            cv_start = time.perf_counter()
            protocols = {
                "full grid + second round": cross_validate(items, metric_ks, expand=expand),
                "full grid, no second round": cross_validate(items, metric_ks),
                "no context (turns around the best)": cross_validate(
                    items, metric_ks, lambda w: w.context == 0
                ),
                "no 'when' prior": cross_validate(items, metric_ks, lambda w: w.when == 0),
                "no event dates": cross_validate(items, metric_ks, lambda w: not w.event_dates),
                "event dates forced on": cross_validate(items, metric_ks, lambda w: w.event_dates),
                "neither (old method's grid)": cross_validate(
                    items, metric_ks, lambda w: w.when == 0 and not w.event_dates
                ),
            }
            cv_s = time.perf_counter() - cv_start
        finally:
            base.close()

    bm25_start = time.perf_counter()
    for sample in samples:
        turns = sample.turns
        index = BM25([turn.labelled for turn in turns])
        for question in sample.questions:
            ranked = index.rank(question.text, depth)
            rankings["bm25"][(sample.sample_id, question.index)] = _dedupe(turns[i].ref for i in ranked)
    bm25_s = time.perf_counter() - bm25_start

    dense_start = time.perf_counter()
    embedder = create_embedder("local", model=embed_model)
    embed_queries = embedder.embed_queries if isinstance(embedder, QueryEmbedder) else embedder.embed_batch
    all_turns = [turn for sample in samples for turn in sample.turns]
    all_questions = [question for sample in samples for question in sample.questions]
    turn_vectors = np.asarray(embedder.embed_batch([turn.labelled for turn in all_turns]), dtype=np.float32)
    question_vectors = np.asarray(
        embed_queries([question.text for question in all_questions]), dtype=np.float32
    ).reshape(len(all_questions), -1)
    turn_offset = question_offset = 0
    for sample in samples:
        turns = sample.turns
        vectors = turn_vectors[turn_offset : turn_offset + len(turns)]
        for question in sample.questions:
            ranked = dense_rank(vectors, question_vectors[question_offset], depth)
            rankings["dense"][(sample.sample_id, question.index)] = _dedupe(turns[i].ref for i in ranked)
            question_offset += 1
        turn_offset += len(turns)
    dense_s = time.perf_counter() - dense_start

    tables: dict[str, dict[str, dict[str, float]]] = {}
    for name, protocol in protocols.items():
        rows = [
            (item.category, {key: float(values[i]) for key, values in protocol.scores.items()})
            for i, item in enumerate(items)
        ]
        tables[f"cv: {name}"] = summarise(rows)
    per_question: list[dict[str, Any]] = []
    for system, ranked_by_question in rankings.items():  # all-in: each system as shipped
        rows: list[tuple[int, dict[str, float]]] = []
        for sample in samples:
            for question in sample.questions:
                ranking = ranked_by_question[(sample.sample_id, question.index)]
                rows.append((question.category, question_scores(ranking, question.evidence, metric_ks)))
        tables[system] = summarise(rows)
    for sample in samples:
        for question in sample.questions:
            key = (sample.sample_id, question.index)
            per_question.append(
                {
                    "sample_id": sample.sample_id,
                    "qa_index": question.index,
                    "category": question.category,
                    "question": question.text,
                    "evidence": sorted(question.evidence),
                    **{f"{system}_top{depth}": rankings[system][key] for system in rankings},
                    **{
                        f"{system}_scores": question_scores(
                            rankings[system][key], question.evidence, metric_ks
                        )
                        for system in rankings
                    },
                }
            )
    overall_r, overall_b = tables["reverie"]["overall"], tables["bm25"]["overall"]
    return {
        "file": str(path),
        "embed_model": embed_model,
        "conversations": len(samples),
        "sessions": sum(len(sample.sessions) for sample in samples),
        "turns": n_turns,
        "questions_scored": len(per_question),
        "questions_skipped": dict(skipped),
        "data_notes": dict(notes),
        "ks": ks,
        "metric_ks": metric_ks,
        "timing": {
            "ingest_s": ingest_s,
            "ingest_ms_per_turn": ingest_s * 1000 / max(n_turns, 1),
            "reverie_query_ms_p50": _percentile(latencies, 50),
            "reverie_query_ms_p95": _percentile(latencies, 95),
            "reverie_query_ms_max": max(latencies, default=float("nan")),
            "bm25_s": bm25_s,
            "dense_s": dense_s,
            "cv_s": cv_s,
            "total_s": time.perf_counter() - started,
        },
        "tables": tables,
        "cv_choices": {
            name: {
                "folds": {conv: describe(w) for conv, w in protocol.chosen.items()},
                "all_in": describe(protocol.all_in),
                "supported": describe(protocol.supported),
            }
            for name, protocol in protocols.items()
        },
        "shipped": describe(RankWeights()),
        "shipped_is_supported": RankWeights() == protocols[DEFAULTS_FROM].supported,
        "reverie_vs_bm25": {
            f"R@{k}": {
                "reverie": overall_r.get(f"R@{k}", float("nan")),
                "bm25": overall_b.get(f"R@{k}", float("nan")),
                "beats": overall_r.get(f"R@{k}", 0.0) > overall_b.get(f"R@{k}", 0.0),
            }
            for k in metric_ks
        },
        "targets": {
            f"R@{k}": {
                "target": target,
                "value": overall_r.get(f"R@{k}", 0.0),
                "met": overall_r.get(f"R@{k}", 0.0) >= target,
            }
            for k, target in TARGETS.items()
        },
        "questions": per_question,
    }


# --- output ------------------------------------------------------------------------------------


def format_table(title: str, table: dict[str, dict[str, float]], ks: Sequence[int]) -> str:
    metrics = [f"R@{k}" for k in ks] + [f"NDCG@{NDCG_AT}"]
    lines = [title, f"| {'set':<22} | {'n':>4} | " + " | ".join(f"{m:>7}" for m in metrics) + " |"]
    lines.append("|" + "-" * 24 + "|" + "-" * 6 + "|" + "|".join("-" * 9 for _ in metrics) + "|")
    for name, entry in table.items():
        label = "overall" if name == "overall" else f"{name} {CATEGORIES[int(name[3:])]}"
        cells = " | ".join(f"{entry[m]:>7.3f}" if m in entry else f"{'-':>7}" for m in metrics)
        lines.append(f"| {label:<22} | {int(entry['n']):>4} | {cells} |")
    return "\n".join(lines)


def report(result: dict[str, Any]) -> str:
    timing = result["timing"]
    lines = [
        f"LoCoMo retrieval: {result['file']}",
        f"{result['conversations']} conversations, {result['sessions']} sessions, {result['turns']} turns, "
        f"{result['questions_scored']} questions scored (categories 1-4)",
    ]
    if result["questions_skipped"]:
        skipped = ", ".join(f"{why}: {count}" for why, count in sorted(result["questions_skipped"].items()))
        lines.append(f"questions skipped: {skipped}")
    if result["data_notes"]:
        lines.append(
            "data notes: " + ", ".join(f"{what}: {n}" for what, n in sorted(result["data_notes"].items()))
        )
    lines += [
        "",
        f"Reverie ingestion: {timing['ingest_s']:.1f} s total, "
        f"{timing['ingest_ms_per_turn']:.2f} ms per turn",
        f"Reverie query latency: p50 {timing['reverie_query_ms_p50']:.1f} ms, "
        f"p95 {timing['reverie_query_ms_p95']:.1f} ms, max {timing['reverie_query_ms_max']:.1f} ms",
        f"Baselines: BM25 {timing['bm25_s']:.1f} s, dense (load + embed + rank) {timing['dense_s']:.1f} s; "
        f"cross-validation {timing['cv_s']:.1f} s",
        "",
    ]
    cv_name = DEFAULTS_FROM
    lines += [
        format_table(
            f"Reverie, cross-validated ({cv_name}: weights tuned on the other conversations, "
            "scored on each held-out one)",
            result["tables"][f"cv: {cv_name}"],
            result["ks"],
        ),
        "",
        "Cross-validated R@5 / R@10 by what the grid may use:",
        f"  {'grid':<30} {'overall':>13} " + " ".join(f"{CATEGORIES[c]:>13}" for c in CATEGORIES),
    ]
    for key, table in result["tables"].items():
        if key.startswith("cv: "):
            cells = [f"{table[name]['R@5']:.3f} / {table[name]['R@10']:.3f}" for name in table]
            lines.append(f"  {key[4:]:<30} " + " ".join(f"{cell:>13}" for cell in cells))
    lines.append("Chosen weights (per held-out conversation, then on all):")
    for name, choice in result["cv_choices"].items():
        lines.append(f"  {name}:")
        for conv, text in choice["folds"].items():
            lines.append(f"    without {conv}: {text}")
        lines.append(f"    all-in: {choice['all_in']}")
        lines.append(f"    supported (most folds): {choice['supported']}")
    verdict = "match" if result["shipped_is_supported"] else "DO NOT match"
    lines += [
        f"Shipped defaults: {result['shipped']}",
        f"  they {verdict} the weights most folds chose with '{DEFAULTS_FROM}'",
        "",
    ]
    names = {
        "reverie": "Reverie all-in (mem.search as shipped, scope=messages)",
        "bm25": "BM25 (Okapi)",
        "dense": f"{result['embed_model']} dense",
    }
    for system, title in names.items():
        lines += [format_table(title, result["tables"][system], result["ks"]), ""]
    for k in result["ks"]:
        entry = result["reverie_vs_bm25"][f"R@{k}"]
        verdict = "beats" if entry["beats"] else "does not beat"
        delta = entry["reverie"] - entry["bm25"]
        lines.append(
            f"R@{k}: Reverie {entry['reverie']:.3f} vs BM25 {entry['bm25']:.3f} "
            f"({delta:+.3f}): {verdict} BM25"
        )
    for name, entry in result["targets"].items():
        state = "met" if entry["met"] else "NOT met"
        lines.append(f"target {name} >= {entry['target']:.2f}: {entry['value']:.3f} {state}")
    lines.append(f"total run time {timing['total_s']:.1f} s")
    return "\n".join(lines)


def _parse_ks(text: str) -> list[int]:
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--k wants comma-separated integers, got {text!r}") from exc
    if not ks or ks[0] < 1:
        raise argparse.ArgumentTypeError("--k values must be positive")
    return ks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("path", type=Path, help="a LoCoMo-format JSON file")
    parser.add_argument("--limit-conversations", type=int, default=None, metavar="N")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT", help="write every number here")
    parser.add_argument(
        "--k", type=_parse_ks, default=[1, 3, 5, 10], help="recall cut-offs (default 1,3,5,10)"
    )
    parser.add_argument(
        "--embed-model",
        default="all-MiniLM-L6-v2",
        help='the local model for Reverie and the dense baseline: all-MiniLM-L6-v2 or "bge-small-en-v1.5"',
    )
    args = parser.parse_args(argv)
    if args.limit_conversations is not None and args.limit_conversations < 1:
        parser.error("--limit-conversations must be at least 1")
    result = run(args.path, args.limit_conversations, args.k, args.embed_model)
    print(report(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
