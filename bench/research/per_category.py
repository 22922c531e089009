"""Per-category and per-conversation breakdown: BM25 baseline vs recommended method."""
import sys
sys.path.insert(0, "bench/research")
import numpy as np
from locomo_experiments import Ctx, bm25_scores, evaluate, load, recommended_mm

ctxs = [Ctx(c) for c in load()]
methods = {"bm25_plain": lambda c, i: bm25_scores(c, i, "plain"), "recommended": recommended_mm}
cats = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
print("| method | slice | n | R@1 | R@3 | R@5 | R@10 | NDCG@10 |\n|---|---|---|---|---|---|---|---|")
for name, m in methods.items():
    a = evaluate(m, ctxs)
    for cat, label in cats.items():
        s = a[a[:, 5] == cat]
        print(f"| {name} | {cat} {label} | {len(s)} | " + " | ".join(f"{x:.3f}" for x in s[:, :5].mean(0)) + " |")
    for c in ctxs:
        s = evaluate(m, ctxs, (c.conv.sample_id,))
        print(f"| {name} | {c.conv.sample_id} | {len(s)} | " + " | ".join(f"{x:.3f}" for x in s[:, :5].mean(0)) + " |")
