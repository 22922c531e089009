"""Retrieval experiments for episodic search over LoCoMo conversation turns.

Research script (not product code). Everything the product would use is mirrored here:
SQLite FTS5 BM25 (``porter unicode61``; k1=1.2, b=0.75 fixed by FTS5) and numpy
brute-force cosine over all-MiniLM-L6-v2 vectors (``reverie.embed.local.LocalMiniLM``).

Protocol: develop on conv-26 only; report all three conversations and, separately,
conv-30 + conv-41 (held out while developing).

Run:  .venv/bin/python bench/research/locomo_experiments.py [--only NAME,...] [--dev]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import math
import re
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DATA = Path("/work/shared/bench/locomo/locomo-dev.json")
HERE = Path(__file__).resolve().parent
CACHE = HERE / "cache"
DEV = ("conv-26",)
HELD = ("conv-30", "conv-41")
KS = (1, 3, 5, 10)

# --------------------------------------------------------------------------------------
# data


@dataclass
class Turn:
    idx: int  # position in the conversation (chronological)
    dia_id: str
    speaker: str
    text: str
    session: int
    date: dt.date
    date_str: str  # "8 May 2023"
    caption: str | None


@dataclass
class Question:
    text: str
    category: int
    evidence: list[int]  # turn indexes


@dataclass
class Conv:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[Turn]
    questions: list[Question]
    by_id: dict[str, int] = field(default_factory=dict)


_DATE_RE = re.compile(r"(\d{1,2}) (\w+),? (\d{4})")
_MONTHS = {m.lower(): i for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August",
     "September", "October", "November", "December"], 1)}


def _parse_session_date(s: str) -> dt.date:
    m = _DATE_RE.search(s)
    assert m, s
    return dt.date(int(m.group(3)), _MONTHS[m.group(2).lower()], int(m.group(1)))


def normalise_evidence(raw: list[str], valid: dict[str, int]) -> list[int]:
    """README rules: split on ';'/spaces, normalise to D<int>:<int>, drop unknown ids."""
    out: list[int] = []
    for item in raw:
        for piece in re.split(r"[;\s]+", str(item)):
            nums = re.findall(r"\d+", piece)
            if len(nums) != 2:
                continue
            did = f"D{int(nums[0])}:{int(nums[1])}"
            if did in valid and valid[did] not in out:
                out.append(valid[did])
    return out


def load(path: Path = DATA) -> list[Conv]:
    convs = []
    for sample in json.loads(path.read_text()):
        c = sample["conversation"]
        sessions = sorted(
            int(k.split("_")[1]) for k, v in c.items()
            if re.fullmatch(r"session_\d+", k) and isinstance(v, list)
        )
        turns: list[Turn] = []
        for s in sessions:
            d = _parse_session_date(c[f"session_{s}_date_time"])
            ds = f"{d.day} {d.strftime('%B')} {d.year}"
            for t in c[f"session_{s}"]:
                turns.append(Turn(len(turns), t["dia_id"], t["speaker"], t["text"], s, d, ds,
                                  t.get("blip_caption")))
        by_id = {t.dia_id: t.idx for t in turns}
        qs = []
        for q in sample["qa"]:
            if q["category"] not in (1, 2, 3, 4):
                continue
            ev = normalise_evidence(q.get("evidence", []), by_id)
            if ev:
                qs.append(Question(q["question"], q["category"], ev))
        convs.append(Conv(sample["sample_id"], (c["speaker_a"], c["speaker_b"]), turns, qs, by_id))
    return convs


# --------------------------------------------------------------------------------------
# indexed text variants


def turn_text(t: Turn, *, speaker=True, date=False, caption=False) -> str:
    s = t.text
    if caption and t.caption:
        s = f"{s} [shares {t.caption}]"
    if speaker:
        s = f"{t.speaker}: {s}"
    if date:
        s = f"[{t.date_str}] {s}"
    return s


def window_text(conv: Conv, i: int, before: int, after: int, **kw) -> str:
    """Turn i with `before` previous / `after` next turns of the SAME session, in order."""
    ts = conv.turns
    lo, hi = i, i
    while lo > 0 and i - lo < before and ts[lo - 1].session == ts[i].session:
        lo -= 1
    while hi < len(ts) - 1 and hi - i < after and ts[hi + 1].session == ts[i].session:
        hi += 1
    date = kw.pop("date", False)
    body = "\n".join(turn_text(ts[j], date=False, **kw) for j in range(lo, hi + 1))
    return f"[{ts[i].date_str}] {body}" if date else body


# --------------------------------------------------------------------------------------
# query processing

STOPWORDS = frozenset("""
a about above after again against all am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't
doing don't down during each few for from further had hadn't has hasn't have haven't having
he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've
if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off
on once only or other ought our ours ourselves out over own same shan't she she'd she'll
she's should shouldn't so some such than that that's the their theirs them themselves then
there there's these they they'd they'll they're they've this those through to too under
until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where
where's which while who who's whom why why's with won't would wouldn't you you'd you'll
you're you've your yours yourself yourselves s t d ll re ve m
""".split())
# Question words that carry no topical content (beyond the stopword list).
QWORDS = frozenset("""
kind type sort likely would might may did does do anything something things thing
""".split())

_TOKEN = re.compile(r"[0-9a-z\u00c0-\uffff]+")


def tokens(text: str) -> list[str]:
    # unicode61 separates on anything that is not a letter/number (apostrophes included)
    return _TOKEN.findall(text.lower())


def query_terms(q: str, *, stop=True, qwords=False) -> list[str]:
    out = []
    for w in tokens(q):
        if stop and w in STOPWORDS:
            continue
        if qwords and w in QWORDS:
            continue
        if w not in out:
            out.append(w)
    return out


# --------------------------------------------------------------------------------------
# BM25 via SQLite FTS5 (exactly what the product runs)


class FTS:
    """One FTS5 table per conversation and text variant. Columns are weighted by bm25()."""

    def __init__(self, docs: list[tuple[str, ...]], columns: tuple[str, ...]):
        self.db = sqlite3.connect(":memory:")
        cols = ", ".join(columns)
        self.ncols = len(columns)
        self.db.execute(f"CREATE VIRTUAL TABLE d USING fts5({cols}, tokenize='porter unicode61')")
        self.db.executemany(
            f"INSERT INTO d(rowid, {cols}) VALUES (?, {', '.join('?' * len(columns))})",
            [(i, *doc) for i, doc in enumerate(docs)],
        )
        self.n = len(docs)

    def search(self, terms: list[str], weights: tuple[float, ...] | None = None) -> np.ndarray:
        """Scores (higher = better, 0 = no match) for every row."""
        scores = np.zeros(self.n, dtype=np.float64)
        if not terms:
            return scores
        q = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        w = weights or (1.0,) * self.ncols
        sql = f"SELECT rowid, bm25(d, {', '.join(map(str, w))}) FROM d WHERE d MATCH ?"
        for rowid, s in self.db.execute(sql, (q,)):
            scores[rowid] = -s
        return scores


# --------------------------------------------------------------------------------------
# dense

_embedder = None


def embed(texts: list[str]) -> np.ndarray:
    """MiniLM vectors, cached on disk per text (sha1)."""
    global _embedder
    CACHE.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha1("\x00".join(texts).encode()).hexdigest()[:16]
    f = CACHE / f"emb_{key}.npy"
    if f.exists():
        return np.load(f)
    if _embedder is None:
        from reverie.embed.local import LocalMiniLM

        _embedder = LocalMiniLM(threads=2)
    v = np.asarray(_embedder.embed_batch(texts), dtype=np.float32)
    np.save(f, v)
    return v


# --------------------------------------------------------------------------------------
# metrics


def recall_at(rank: list[int], ev: list[int], k: int) -> float:
    top = set(rank[:k])
    return sum(1 for e in ev if e in top) / len(ev)


def ndcg10(rank: list[int], ev: list[int]) -> float:
    evs = set(ev)
    dcg = sum(1 / math.log2(i + 2) for i, r in enumerate(rank[:10]) if r in evs)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(ev), 10)))
    return dcg / idcg


def topk(scores: np.ndarray, k: int = 10) -> list[int]:
    # stable: ties broken by turn order
    order = np.lexsort((np.arange(len(scores)), -scores))
    return [int(i) for i in order[:k]]


# --------------------------------------------------------------------------------------
# per-conversation context: lazily built indexes and embeddings


class Ctx:
    def __init__(self, conv: Conv):
        self.conv = conv
        self._fts: dict = {}
        self._emb: dict = {}
        self._qemb: np.ndarray | None = None

    # ---- BM25 indexes
    def fts(self, name: str) -> FTS:
        if name not in self._fts:
            c = self.conv
            T = c.turns
            if name == "plain":  # "speaker: text", one column
                docs = [(turn_text(t),) for t in T]
                cols = ("body",)
            elif name == "cols":  # speaker | text | date columns
                docs = [(t.speaker, t.text, t.date_str) for t in T]
                cols = ("speaker", "body", "date")
            elif name == "cols_cap":
                docs = [(t.speaker, turn_text(t, speaker=False, caption=True), t.date_str) for t in T]
                cols = ("speaker", "body", "date")
            elif name.startswith("win"):  # win_<before>_<after>[_cap]
                parts = name.split("_")
                b, a = int(parts[1]), int(parts[2])
                cap = "cap" in parts
                docs = [(window_text(c, t.idx, b, a, caption=cap),) for t in T]
                cols = ("body",)
            else:
                raise KeyError(name)
            self._fts[name] = FTS(docs, cols)
        return self._fts[name]

    # ---- dense
    def emb(self, name: str) -> np.ndarray:
        if name not in self._emb:
            c = self.conv
            T = c.turns
            if name == "st":
                texts = [turn_text(t) for t in T]
            elif name == "dst":
                texts = [turn_text(t, date=True) for t in T]
            elif name == "dstc":
                texts = [turn_text(t, date=True, caption=True) for t in T]
            elif name == "stc":
                texts = [turn_text(t, caption=True) for t in T]
            elif name.startswith("win"):  # win_<b>_<a>[_cap][_date]
                parts = name.split("_")
                b, a = int(parts[1]), int(parts[2])
                texts = [window_text(c, t.idx, b, a, caption="cap" in parts, date="date" in parts)
                         for t in T]
            else:
                raise KeyError(name)
            self._emb[name] = embed(texts)
        return self._emb[name]

    def qemb(self) -> np.ndarray:
        if self._qemb is None:
            self._qemb = embed([q.text for q in self.conv.questions])
        return self._qemb


# A method maps (ctx, question index) -> score vector over turns (higher = better).
Method = Callable[[Ctx, int], np.ndarray]


# --------------------------------------------------------------------------------------
# building blocks


def bm25_scores(ctx: Ctx, qi: int, index="plain", stop=False, qwords=False, weights=None):
    terms = query_terms(ctx.conv.questions[qi].text, stop=stop, qwords=qwords)
    return ctx.fts(index).search(terms, weights)


def dense_scores(ctx: Ctx, qi: int, emb="st"):
    return ctx.emb(emb) @ ctx.qemb()[qi]


def ranks_of(scores: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """1-based rank per row; rows with valid=False get rank inf."""
    order = np.lexsort((np.arange(len(scores)), -scores))
    r = np.empty(len(scores))
    r[order] = np.arange(1, len(scores) + 1)
    if valid is not None:
        r[~valid] = np.inf
    return r


def rrf(lists: list[tuple[np.ndarray, float, np.ndarray | None]], k=60.0, depth=None):
    """lists of (scores, weight, valid-mask). sum w/(k+rank)."""
    out = np.zeros(len(lists[0][0]))
    for s, w, valid in lists:
        r = ranks_of(s, valid)
        if depth is not None:
            r[r > depth] = np.inf
        out += w / (k + r)
    return out


def norm_minmax(s: np.ndarray, valid: np.ndarray | None = None, depth: int | None = None):
    """min-max over the candidate set (valid rows, top `depth`); others -> 0."""
    mask = np.ones(len(s), bool) if valid is None else valid.copy()
    if depth is not None:
        r = ranks_of(s, mask)
        mask &= r <= depth
    out = np.zeros(len(s))
    if not mask.any():
        return out
    lo, hi = s[mask].min(), s[mask].max()
    out[mask] = (s[mask] - lo) / (hi - lo) if hi > lo else 1.0
    return out


def norm_max(s: np.ndarray):
    """divide by max (keeps 0 = no match); for BM25."""
    m = s.max()
    return s / m if m > 0 else s


def norm_z(s: np.ndarray, valid=None, depth=None):
    mask = np.ones(len(s), bool) if valid is None else valid.copy()
    if depth is not None:
        r = ranks_of(s, mask)
        mask &= r <= depth
    out = np.full(len(s), -3.0)
    if mask.sum() < 2:
        return out
    mu, sd = s[mask].mean(), s[mask].std() + 1e-9
    out[mask] = (s[mask] - mu) / sd
    return out


def neighbour_expand(s: np.ndarray, conv: Conv, beta: float, after_only=False):
    """s'(t) = s(t) + beta * max(s(t-1), s(t+1)) within a session."""
    prev = np.full(len(s), -np.inf)
    nxt = np.full(len(s), -np.inf)
    sess = np.array([t.session for t in conv.turns])
    same_prev = np.r_[False, sess[1:] == sess[:-1]]
    same_next = np.r_[sess[:-1] == sess[1:], False]
    prev[1:] = s[:-1]
    nxt[:-1] = s[1:]
    prev[~same_prev] = -np.inf
    nxt[~same_next] = -np.inf
    nb = prev if after_only else np.maximum(prev, nxt)
    nb = np.where(np.isfinite(nb), nb, 0.0)
    return s + beta * np.maximum(nb, 0)


# ---- dates mentioned in questions

_Q_DAY = re.compile(
    r"\b(?:(\d{1,2})\s+(january|february|march|april|may|june|july|august|september|october|"
    r"november|december)|(january|february|march|april|may|june|july|august|september|october|"
    r"november|december)\s+(\d{1,2})(?:st|nd|rd|th)?)\b,?\s*(\d{4})?", re.I)
_Q_MONTH = re.compile(
    r"\b(?:in|during|of)\s+(january|february|march|april|june|july|august|september|october|"
    r"november|december|may)(?:\s*,?\s*(\d{4}))?\b", re.I)
_Q_YEAR = re.compile(r"\b(?:in|during)\s+(20\d\d)\b", re.I)


def question_date(q: str):
    """(kind, date) for an absolute date in the question: 'day' | 'month' | 'year'."""
    m = _Q_DAY.search(q)
    if m and m.group(5):
        day = int(m.group(1) or m.group(4))
        mon = _MONTHS[(m.group(2) or m.group(3)).lower()]
        return "day", dt.date(int(m.group(5)), mon, day)
    m = _Q_MONTH.search(q)
    if m and m.group(2):
        return "month", dt.date(int(m.group(2)), _MONTHS[m.group(1).lower()], 15)
    m = _Q_YEAR.search(q)
    if m:
        return "year", dt.date(int(m.group(1)), 7, 1)
    return None


def date_prior(conv: Conv, q: str, scale_days: float | None = None) -> np.ndarray:
    """In [0, 1]: closeness of each turn's session date to the date named in the question.

    day: exp(-|d|/7 days); month: 1 inside the month (+-7 days), decaying over 30 days;
    year: 1 inside the year. All zero when the question names no absolute date.
    """
    qd = question_date(q)
    out = np.zeros(len(conv.turns))
    if qd is None:
        return out
    kind, d = qd
    for t in conv.turns:
        delta = (t.date - d).days
        if kind == "day":
            out[t.idx] = math.exp(-abs(delta) / (scale_days or 7.0))
        elif kind == "month":
            # session on/after the mentioned month is what usually reports it
            dist = max(0, abs(delta) - 22)
            out[t.idx] = math.exp(-dist / (scale_days or 30.0))
        else:
            out[t.idx] = 1.0 if t.date.year == d.year else 0.0
    return out


# --------------------------------------------------------------------------------------
# evaluation


def evaluate(method: Method, convs: list[Ctx], ids: tuple[str, ...] | None = None):
    rows = []
    for ctx in convs:
        if ids is not None and ctx.conv.sample_id not in ids:
            continue
        for qi, q in enumerate(ctx.conv.questions):
            rank = topk(method(ctx, qi), 10)
            rows.append([recall_at(rank, q.evidence, k) for k in KS] + [ndcg10(rank, q.evidence),
                                                                         q.category])
    a = np.array(rows)
    return a


def summary(a: np.ndarray) -> list[float]:
    return list(a[:, :5].mean(axis=0)) if len(a) else [float("nan")] * 5


# --------------------------------------------------------------------------------------
# the variants


def V() -> dict[str, Method]:
    v: dict[str, Method] = {}

    # ---- baselines (FACTS: "speaker: text", Okapi BM25, plain dense, RRF k=60)
    v["bm25_plain"] = lambda c, i: bm25_scores(c, i, "plain")
    v["dense_st"] = lambda c, i: dense_scores(c, i, "st")
    v["rrf60_plain"] = lambda c, i: rrf([(bm25_scores(c, i, "plain"), 1, bm25_scores(c, i, "plain") > 0),
                                         (dense_scores(c, i, "st"), 1, None)], 60)

    # ---- 3. BM25 variants
    v["bm25_stop"] = lambda c, i: bm25_scores(c, i, "plain", stop=True)
    v["bm25_stop_qw"] = lambda c, i: bm25_scores(c, i, "plain", stop=True, qwords=True)
    for ws in (0.5, 1.0, 2.0):
        v[f"bm25_cols_sp{ws}"] = (lambda ws: lambda c, i: bm25_scores(
            c, i, "cols", stop=True, weights=(ws, 1.0, 0.0)))(ws)
    v["bm25_cols_date"] = lambda c, i: bm25_scores(c, i, "cols", stop=True, weights=(1.0, 1.0, 1.0))
    v["bm25_cols_cap"] = lambda c, i: bm25_scores(c, i, "cols_cap", stop=True, weights=(1.0, 1.0, 0.0))
    # BM25 over windows (prev+cur, cur+next, prev+cur+next), assigned to the centre turn
    for b, a in ((1, 0), (0, 1), (1, 1)):
        v[f"bm25_win{b}{a}"] = (lambda b, a: lambda c, i: bm25_scores(
            c, i, f"win_{b}_{a}", stop=True))(b, a)
    for lam in (0.3, 0.5, 1.0):
        v[f"bm25_turn+win10*{lam}"] = (lambda lam: lambda c, i: norm_max(bm25_scores(c, i, "plain", stop=True))
                                       + lam * norm_max(bm25_scores(c, i, "win_1_0", stop=True)))(lam)
        v[f"bm25_turn+win11*{lam}"] = (lambda lam: lambda c, i: norm_max(bm25_scores(c, i, "plain", stop=True))
                                       + lam * norm_max(bm25_scores(c, i, "win_1_1", stop=True)))(lam)

    # ---- 1. dense text variants
    for e in ("dst", "stc", "dstc"):
        v[f"dense_{e}"] = (lambda e: lambda c, i: dense_scores(c, i, e))(e)
    # ---- 2. dense windows
    for w in ("win_1_0", "win_0_1", "win_1_1", "win_1_0_date", "win_1_1_date", "win_1_1_cap_date",
              "win_2_1_date"):
        v[f"dense_{w}"] = (lambda w: lambda c, i: dense_scores(c, i, w))(w)
    for lam in (0.5, 1.0):
        v[f"dense_dst+win11d*{lam}"] = (lambda lam: lambda c, i: dense_scores(c, i, "dst")
                                        + lam * dense_scores(c, i, "win_1_1_date"))(lam)
        v[f"dense_dst+win10d*{lam}"] = (lambda lam: lambda c, i: dense_scores(c, i, "dst")
                                        + lam * dense_scores(c, i, "win_1_0_date"))(lam)
    v["dense_max(dst,win11d)"] = lambda c, i: np.maximum(dense_scores(c, i, "dst"),
                                                         dense_scores(c, i, "win_1_1_date"))
    return v


KW = {  # keyword components: own-turn BM25 (+ lambda * window BM25), each divided by its max
    "t": (None, 0.0),
    "t+w10": ("win_1_0", 1.0),
    "t+w11": ("win_1_1", 1.0),
    "t+w10h": ("win_1_0", 0.5),
}
VEC = {  # dense components: own-turn cosine (+ lambda * window cosine)
    "st": ("st", None, 0.0),
    "dst": ("dst", None, 0.0),
    "dst+w11d": ("dst", "win_1_1_date", 1.0),
    "st+w11": ("st", "win_1_1", 1.0),
    "dst+w10d": ("dst", "win_1_0_date", 1.0),
}


def kw_scores(c, i, name):
    win, lam = KW[name]
    s = norm_max(bm25_scores(c, i, "plain", stop=True))
    if win:
        s = s + lam * norm_max(bm25_scores(c, i, win, stop=True))
    return s


def vec_scores(c, i, name):
    own, win, lam = VEC[name]
    s = dense_scores(c, i, own)
    if win:
        s = s + lam * dense_scores(c, i, win)
    return s


def fuse(kind, a, k=60):
    """a = keyword weight."""
    def f(c, i, kwn, vn):
        ks, vs = kw_scores(c, i, kwn), vec_scores(c, i, vn)
        if kind == "rrf":
            return rrf([(ks, a, ks > 0), (vs, 1 - a, None)], k)
        if kind == "mm":
            return a * norm_minmax(ks) + (1 - a) * norm_minmax(vs)
        if kind == "z":
            return a * norm_z(ks, ks > 0) + (1 - a) * norm_z(vs)
        raise KeyError(kind)
    return f


def hybrid_variants() -> dict[str, Method]:
    v: dict[str, Method] = {}
    for kwn in KW:
        v[f"kw:{kwn}"] = (lambda kwn: lambda c, i: kw_scores(c, i, kwn))(kwn)
    for vn in VEC:
        v[f"vec:{vn}"] = (lambda vn: lambda c, i: vec_scores(c, i, vn))(vn)
    fusions = [("rrf", 0.5, 60), ("rrf", 0.5, 10), ("rrf", 0.3, 60), ("rrf", 0.7, 60),
               ("mm", 0.3, 0), ("mm", 0.5, 0), ("mm", 0.7, 0), ("z", 0.3, 0), ("z", 0.5, 0),
               ("z", 0.7, 0)]
    for kwn in KW:
        for vn in VEC:
            for kind, a, k in fusions:
                name = f"{kind}{k if kind == 'rrf' else ''}_a{a} kw:{kwn} vec:{vn}"
                f = fuse(kind, a, k)
                v[name] = (lambda f, kwn, vn: lambda c, i: f(c, i, kwn, vn))(f, kwn, vn)
    return v


# --------------------------------------------------------------------------------------


def fmt(name, a_all, a_held, a_dev):
    s = summary(a_all)
    h = summary(a_held)
    d = summary(a_dev)
    return (f"| {name} | {s[0]:.3f} | {s[1]:.3f} | {s[2]:.3f} | {s[3]:.3f} | {s[4]:.3f} "
            f"| {d[2]:.3f} | {d[3]:.3f} | {h[2]:.3f} | {h[3]:.3f} |")


HEADER = ("| variant | R@1 | R@3 | R@5 | R@10 | NDCG@10 | dev R@5 | dev R@10 | held R@5 | held R@10 |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--set", default="base", help="base|hybrid|final|all")
    ap.add_argument("--dev", action="store_true", help="dev conversation only")
    args = ap.parse_args()
    convs = load()
    nq = sum(len(c.questions) for c in convs)
    print(f"{nq} questions; " + ", ".join(f"{c.sample_id}: {len(c.questions)}" for c in convs),
          file=sys.stderr)
    ctxs = [Ctx(c) for c in convs]
    if args.dev:
        ctxs = [x for x in ctxs if x.conv.sample_id in DEV]
    sets = {"base": V, "hybrid": hybrid_variants, "final": final_variants, "rec": rec_variants}
    methods: dict[str, Method] = {}
    for s in (sets if args.set == "all" else [args.set]):
        methods.update(sets[s]())
    only = [x for x in args.only.split(",") if x]
    print(HEADER)
    for name, m in methods.items():
        if only and not any(o in name for o in only):
            continue
        a_all = evaluate(m, ctxs)
        a_dev = evaluate(m, ctxs, DEV)
        a_held = evaluate(m, ctxs, HELD) if not args.dev else a_dev[:0]
        print(fmt(name, a_all, a_held, a_dev), flush=True)


def speaker_prior(conv: Conv, q: str) -> np.ndarray:
    """1 for turns said by the one speaker the question names (first name, or 'Mel'-style
    prefix of 3+ letters), else 0; all 0 when it names both or neither."""
    toks = set(tokens(q))
    named = [sp for sp in conv.speakers
             if sp.lower() in toks or any(len(t) >= 3 and sp.lower().startswith(t) for t in toks)]
    out = np.zeros(len(conv.turns))
    if len(named) == 1:
        out[[t.idx for t in conv.turns if t.speaker == named[0]]] = 1.0
    return out


def base_fused(c, i, kind="z", a=0.5, kwn="t+w10", vn="dst+w11d", k=60):
    return fuse(kind, a, k)(c, i, kwn, vn)


def final_variants() -> dict[str, Method]:
    v: dict[str, Method] = {}
    # reference points
    v["bm25_plain (baseline)"] = lambda c, i: bm25_scores(c, i, "plain")
    v["dense_st (baseline)"] = lambda c, i: dense_scores(c, i, "st")
    v["rrf60_plain (baseline)"] = lambda c, i: rrf([(bm25_scores(c, i, "plain"), 1, bm25_scores(c, i, "plain") > 0),
                                                    (dense_scores(c, i, "st"), 1, None)], 60)
    v["kw:t (bm25, stopwords dropped)"] = lambda c, i: kw_scores(c, i, "t")
    v["kw:t+w10"] = lambda c, i: kw_scores(c, i, "t+w10")
    v["vec:dst"] = lambda c, i: vec_scores(c, i, "dst")
    v["vec:dst+w11d"] = lambda c, i: vec_scores(c, i, "dst+w11d")
    # hybrids without window representations (cheapest)
    v["z0.5 kw:t vec:st"] = lambda c, i: base_fused(c, i, "z", .5, "t", "st")
    v["z0.5 kw:t vec:dst"] = lambda c, i: base_fused(c, i, "z", .5, "t", "dst")
    v["mm0.3 kw:t vec:dst (product default)"] = lambda c, i: base_fused(c, i, "mm", .3, "t", "dst")
    # score-level neighbour propagation instead of window representations
    for beta in (0.5, 1.0):
        def nb(c, i, beta=beta):
            ks = norm_max(bm25_scores(c, i, "plain", stop=True))
            ks = neighbour_expand(ks, c.conv, beta, after_only=True)
            vs = dense_scores(c, i, "dst")
            vs = neighbour_expand(vs, c.conv, beta)
            return .5 * norm_z(ks, ks > 0) + .5 * norm_z(vs)
        v[f"z0.5 score-propagation beta={beta}"] = nb
    # the window hybrids
    for kind, a, kwn, vn in [("z", .5, "t+w10", "dst+w11d"), ("z", .5, "t+w11", "dst+w11d"),
                             ("z", .5, "t+w11", "st+w11"), ("mm", .5, "t+w10", "dst+w11d"),
                             ("mm", .5, "t+w11", "st+w11"), ("z", .3, "t+w10", "dst+w11d"),
                             ("mm", .3, "t+w10", "dst+w11d"), ("rrf", .5, "t+w10", "dst+w11d")]:
        k = 10 if kind == "rrf" else 60
        v[f"{kind}{k if kind == 'rrf' else ''}{a} kw:{kwn} vec:{vn}"] = (
            lambda kind, a, kwn, vn, k: lambda c, i: base_fused(c, i, kind, a, kwn, vn, k))(kind, a, kwn, vn, k)
    # priors on top of z0.5 kw:t+w10 vec:dst+w11d
    for g in (0.25, 0.5, 1.0):
        v[f"W + date prior g={g}"] = (lambda g: lambda c, i: base_fused(c, i)
                                      + g * date_prior(c.conv, c.conv.questions[i].text))(g)
    for g in (0.1, 0.25, 0.5):
        v[f"W + speaker prior g={g}"] = (lambda g: lambda c, i: base_fused(c, i)
                                         + g * speaker_prior(c.conv, c.conv.questions[i].text))(g)
    for beta in (0.1, 0.2):
        v[f"W + neighbour expansion beta={beta}"] = (lambda beta: lambda c, i: neighbour_expand(
            base_fused(c, i) + 3, c.conv, beta))(beta)
    v["W + date 0.5 + speaker 0.25"] = lambda c, i: (
        base_fused(c, i) + .5 * date_prior(c.conv, c.conv.questions[i].text)
        + .25 * speaker_prior(c.conv, c.conv.questions[i].text))
    # ---- recommended method and product-faithful variants of it
    v["REC = W + speaker 0.5 + date 0.5"] = recommended
    v["REC depth50 (z over top-50 lists)"] = lambda c, i: recommended(c, i, depth=50)
    v["REC depth30 (z over top-30 lists)"] = lambda c, i: recommended(c, i, depth=30)
    v["REC without window reps (score propagation 0.5)"] = lambda c, i: (
        v["z0.5 score-propagation beta=0.5"](c, i)
        + .5 * speaker_prior(c.conv, c.conv.questions[i].text)
        + .5 * date_prior(c.conv, c.conv.questions[i].text))
    v["REC minmax instead of z"] = lambda c, i: (
        base_fused(c, i, "mm", .5) + .5 / 3 * speaker_prior(c.conv, c.conv.questions[i].text)
        + .5 / 3 * date_prior(c.conv, c.conv.questions[i].text))
    return v


def z_list(s: np.ndarray, valid: np.ndarray | None, depth: int | None) -> np.ndarray:
    """z-score over the candidate list (valid rows, top `depth`); rows outside the list get
    the list's minimum z (they are at best as good as the worst candidate)."""
    mask = np.ones(len(s), bool) if valid is None else valid.copy()
    if depth is not None:
        mask &= ranks_of(s, mask) <= depth
    out = np.zeros(len(s))
    if mask.sum() < 2:
        return out
    mu, sd = s[mask].mean(), s[mask].std() + 1e-9
    z = (s - mu) / sd
    out[mask] = z[mask]
    out[~mask] = z[mask].min()
    return out


def recommended(c: Ctx, i: int, depth: int | None = None) -> np.ndarray:
    q = c.conv.questions[i].text
    terms = query_terms(q, stop=True)
    b_turn = c.fts("plain").search(terms)
    b_win = c.fts("win_1_0").search(terms)
    kw = norm_max(b_turn) + norm_max(b_win)
    qv = c.qemb()[i]
    vec = c.emb("dst") @ qv + c.emb("win_1_1_date") @ qv
    if depth is None:
        fused = .5 * norm_z(kw, kw > 0) + .5 * norm_z(vec)
    else:
        fused = .5 * z_list(kw, kw > 0, depth) + .5 * z_list(vec, None, depth)
        # candidates = union of the two lists; everything else ranks last
        cand = (ranks_of(kw, kw > 0) <= depth) | (ranks_of(vec) <= depth)
        fused = np.where(cand, fused, -1e9)
    return fused + .5 * speaker_prior(c.conv, q) + .5 * date_prior(c.conv, q)



def mm_list(s: np.ndarray, valid: np.ndarray | None, depth: int | None) -> np.ndarray:
    """min-max over the candidate list (valid rows, top `depth`); others 0."""
    mask = np.ones(len(s), bool) if valid is None else valid.copy()
    if depth is not None:
        mask &= ranks_of(s, mask) <= depth
    out = np.zeros(len(s))
    if not mask.any():
        return out
    lo, hi = s[mask].min(), s[mask].max()
    out[mask] = (s[mask] - lo) / (hi - lo) if hi > lo else 1.0
    return out


def recommended_mm(c: Ctx, i: int, depth: int | None = 50, g_speaker=0.2, g_date=0.2,
                   a=0.5) -> np.ndarray:
    """RECOMMENDED: min-max fusion of window-augmented BM25 and dense + speaker/date priors."""
    q = c.conv.questions[i].text
    terms = query_terms(q, stop=True)
    kw = norm_max(c.fts("plain").search(terms)) + norm_max(c.fts("win_1_0").search(terms))
    qv = c.qemb()[i]
    vec = c.emb("dst") @ qv + c.emb("win_1_1_date") @ qv
    fused = a * mm_list(kw, kw > 0, depth) + (1 - a) * mm_list(vec, None, depth)
    return fused + g_speaker * speaker_prior(c.conv, q) + g_date * date_prior(c.conv, q)


def rec_variants() -> dict[str, Method]:
    v: dict[str, Method] = {}
    for depth in (None, 50, 30):
        for g in (0.15, 0.2, 0.25):
            v[f"RECmm depth={depth} speaker={g} date={g}"] = (
                lambda depth, g: lambda c, i: recommended_mm(c, i, depth, g, g))(depth, g)
    v["RECmm depth=50 speaker=0.2 date=0"] = lambda c, i: recommended_mm(c, i, 50, .2, 0)
    v["RECmm depth=50 speaker=0 date=0.2"] = lambda c, i: recommended_mm(c, i, 50, 0, .2)
    v["RECmm depth=50 no priors"] = lambda c, i: recommended_mm(c, i, 50, 0, 0)
    v["RECmm depth=50 a=0.3 (product weight)"] = lambda c, i: recommended_mm(c, i, 50, .2, .2, .3)
    return v


if __name__ == "__main__":
    main()
