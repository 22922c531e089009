"""Check: drop the speakers' names (very common terms, ~half the rows) from the BM25 query.
Recall with/without, and FTS5 cost at 10k rows with/without."""
import sys
sys.path.insert(0, "bench/research")
import numpy as np
import locomo_experiments as L

ctxs = [L.Ctx(c) for c in L.load()]
orig = L.query_terms


def rec_nonames(c, i):
    names = {s.lower() for s in c.conv.speakers}
    L.query_terms = lambda q, **kw: [t for t in orig(q, **kw) if t not in names]
    try:
        return L.recommended_mm(c, i)
    finally:
        L.query_terms = orig


print(L.HEADER)
for name, m in (("recommended", L.recommended_mm), ("recommended, names dropped from BM25 query", rec_nonames)):
    print(L.fmt(name, L.evaluate(m, ctxs), L.evaluate(m, ctxs, L.HELD), L.evaluate(m, ctxs, L.DEV)))
