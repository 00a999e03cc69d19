"""Compare gaia-fast's score_item with the reference outcomes fuzz_ref.py recorded (a scratch tool, not a test).

Raises on both sides count as equal (the exception class may differ); ignore, needs-WordNet and
scores must be equal exactly."""
import json, sys, collections, copy
from gaia_fast.scorers.vlm import ocrbench_v2 as o
d = json.load(open(sys.argv[1]))
bad = collections.Counter(); n = 0
for it, ref in zip(d["items"], d["ref"]):
    try:
        s, _ = o.score_item(copy.deepcopy(it)); mine = {"ignore": False, "score": float(s)}
    except o._Ignored:
        mine = {"ignore": True, "score": 0.0}
    except o._NeedsWordNet:
        mine = "wordnet"
    except Exception as e:
        mine = "crash"
    r = ref
    if isinstance(r, dict) and r["score"] == "noscore": r = "crash"
    if isinstance(r, str) and r.startswith("crash"): r = "crash"
    if mine != r:
        bad[it["type"]] += 1
        if bad[it["type"]] <= 2: print("MISMATCH", it, "ref", ref, "mine", mine)
    n += 1
print(n, "items;", sum(bad.values()), "mismatches", dict(bad))
