"""Dev-only sweep (conv-26) of prior strengths for z- and min-max fused hybrids."""
import sys
sys.path.insert(0, "bench/research")
import numpy as np
from locomo_experiments import *

convs = [Ctx(c) for c in load()]
ids = sys.argv[1].split(",") if len(sys.argv) > 1 else list(DEV)
print(HEADER)
for kind in ("z", "mm"):
    for gs in (0, .1, .2, .35, .5, .75, 1.0) if kind == "z" else (0, .05, .1, .167, .25, .35):
        for gd in ((0, gs) if kind == "z" else (0, gs)):
            def m(c, i, kind=kind, gs=gs, gd=gd):
                q = c.conv.questions[i].text
                return base_fused(c, i, kind, .5) + gs * speaker_prior(c.conv, q) + gd * date_prior(c.conv, q)
            a = evaluate(m, convs, tuple(ids))
            s = summary(a)
            print(f"| {kind} speaker={gs} date={gd} | " + " | ".join(f"{x:.3f}" for x in s) + " |", flush=True)
