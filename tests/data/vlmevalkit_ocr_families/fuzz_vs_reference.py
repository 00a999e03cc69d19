import sys, random, json, math, warnings
warnings.simplefilter("ignore")
# usage: python fuzz_vs_reference.py VLMEVALKIT_TREE  (a VLMEvalKit checkout at e8e78f05; gaia-fast installed)
sys.path.insert(0, sys.argv[1])
from vlmeval.dataset.utils.ccocr_evaluator import evaluator_map_info as M
from gaia_fast.scorers.vlm import ccocr as C
rng = random.Random(2)
alpha = list("ab cC1,.。中文\n\t#*<>/tdr ＡＢ、{}\"':[]") + ["<td>", "</td>", "<tr>", "</tr>", "<table>", "</table>", "```", "```json", "```html", "```latex"]
def rs(n): return "".join(rng.choice(alpha) for _ in range(rng.randint(0, n)))
def rj(d=0):
    r = rng.random()
    if d < 2 and r < 0.3: return {rs(3) or "k": rj(d+1) for _ in range(rng.randint(0, 3))}
    if d < 2 and r < 0.5: return [rj(d+1) for _ in range(rng.randint(0, 3))]
    return rng.choice([rs(6), rng.randint(0, 99), 1.5, None, True])
bad = 0; N = 1500
for t in range(N):
    kind = rng.choice(["lan", "scene", "kie", "doc", "table", "formula", "molecular"])
    gts, preds = {}, {}
    for i in range(3):
        if kind == "kie":
            gts[f"i{i}"] = json.dumps(rj()) if rng.random() < .9 else json.dumps({"a": rs(4)})
            p = json.dumps(rj())
            preds[f"i{i}"] = rng.choice([p, "```json\n" + p + "\n```", rs(5)])
        elif kind == "table":
            cell = lambda: "<td>" + rs(3).replace("<", "") + "</td>"
            gts[f"i{i}"] = "<table><tr>" + cell() + cell() + "</tr></table>"
            preds[f"i{i}"] = rng.choice(["<table><tr>" + cell() + "</tr></table>", rs(8), "```html\n<table><tr>" + cell() + cell() + "</tr></table>```"])
        else:
            gts[f"i{i}"] = rs(10) + "x"; preds[f"i{i}"] = rs(12)
        if rng.random() < .2: preds.pop(f"i{i}")
    group = {"lan": "multi_lan_ocr", "scene": "multi_scene_ocr", "kie": "kie"}.get(kind, "doc_parsing")
    op = kind if group == "doc_parsing" else "x"
    ds = rng.choice(["French", "Arabic", "zh_doc", "IC15"])
    try:
        _, ev = M[group](dict(preds), dict(gts), op=op, group=group, dataset=ds, num=3)
        ref = {k: v for k, v in ev["summary"].items() if k != "response_success_ratio"}
    except Exception as e:
        ref = ("raise", type(e).__name__)
    try:
        if group.startswith("multi"): mine, _ = C._ocr(group, ds, dict(gts), dict(preds))
        elif group == "kie":
            post = {k: v for k, v in ((k, C._post_process_to_json(v)) for k, v in preds.items()) if v is not None}
            mine, _ = C._kie(dict(gts), post, "2026-04")
        else: mine, _ = C._doc(op, dict(gts), dict(preds))
    except C._ReferenceError as e:
        mine = ("raise", str(e)[:40])
    same = (mine == ref) or (isinstance(ref, tuple) and isinstance(mine, tuple))
    if not same:
        bad += 1
        if bad < 6: print(kind, ref, mine, gts, preds)
print("mismatches", bad, "of", N)
