"""A scratch fuzz tool, not a test: random process_predictions items per task type, graded one by
one by the reference. usage (in a scratch folder, the reference's environment):
    python fuzz_ref.py VLMEVALKIT_TREE SEED N   -> fuzz_SEED.json (items and the reference's outcome)
then, with gaia-fast on the path: python fuzz_compare.py fuzz_SEED.json
The tree is `git archive e8e78f05 vlmeval` prepared as in README.md; ipdb.set_trace counts as a
crash, and METEOR's WordNet stage is wrapped as in run_ref.py (an outcome of its own)."""
import copy, json, random, re, sys
sys.path.insert(0, sys.argv[1])
import ipdb
def _boom(*a, **k):
    raise RuntimeError('ipdb.set_trace reached')
ipdb.set_trace = _boom
import nltk.translate.meteor_score as ms
_orig = ms._enum_wordnetsyn_match
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+")
class _Empty:
    @staticmethod
    def synsets(w, *a, **k): return []
class NeedsWordNet(Exception): pass
def _wrapped(hyp, ref, wordnet=None):
    if not hyp or not ref or all(_CJK.fullmatch(w) for _, w in hyp):
        return _orig(hyp, ref, wordnet=_Empty())
    raise NeedsWordNet()
ms._enum_wordnetsyn_match = _wrapped
import vlmeval.dataset.utils.ocrbrnch_v2_eval as ev
import vlmeval.dataset.utils.Ocrbench_v2.vqa_metric as vm
vm.ipdb.set_trace = _boom

rng = random.Random(int(sys.argv[2]))
WORDS = ["the", "cat", "Cat", "sat", "on", "mat", "hello", "world", "jumps", "jumped", "北京", "上海", "今天", "天气", "很好", "，", "。", "42", "3", "10", "A", "B", "C", "ABC", "x^2", "\\text{面积}", "=", "a", "b", "", " ", "\n", "(B)", "B.", "nan", "NaN", "}", "{", "#", "##"]
def text(n=None):
    n = rng.randint(0, 8) if n is None else n
    return rng.choice(["", " ", "\n"]).join(rng.choice(WORDS) for _ in range(n)) if rng.random() < 0.3 else " ".join(rng.choice(WORDS) for _ in range(n))
def box():
    return [rng.choice([0, 5, 10, 50, 100, 150, 200, 1001, -1]) for _ in range(rng.choice([4, 4, 4, 3, 5]))]
def answers_any():
    return rng.choice([[text(rng.randint(1, 6))], [text(2), text(6)], text(3), [rng.randint(0, 20)], [rng.randint(1, 30)], [None], [], [3.5], ["a,b,c,d"], ["甲,乙,丙,丁"]])
TABLE = ["<table><tr><td>a</td><td>b</td></tr></table>", "<tr><td>x</td></tr>", "<body><table><tr><td>1</td></tr></table></body>", "<table><tr><td colspan='2'>a</td></tr>", "no table", "", "<table></table>"]
MD = ["| a | b |\n| --- | --- |\n| 1 | 2 |", "| a |\n|---|\n|  |", "```markdown\n| a | b |\n|-|-|\n| 1 | 3 |\n```", "just text", "| m |", "a|b"]
def kie_pred():
    return rng.choice(['{"name": "Ann", "total": "30"}', "```json\n{\"name\": \"ann\"}\n```", "name: Ann, total = 30", "{'name': 'Ann'}", "[1, 2]", "5", "", "{[1]: 2}", "nothing", '{"name": ""}', "name: Ann\ntotal: 31"])
def kie_answer():
    return rng.choice(['{"name": "Ann", "total": "30"}', "{'name': 'Ann', 'total': ['30', '30.0']}", {"name": ["Ann"], "total": ["30", "31"]}, {"name": "Ann"}, "[1, 2]", "not json", '"{\\"name\\": \\"Ann\\"}"', {"name": ["Ann"], "total": []}, '{"name": 5}'])
def chart_pred():
    return rng.choice(["```python\nd = {'a': [1, 2], 'b': 3}  # c\n```", "{'a': 1}", "no", "", "{'a': {'x': 1}}", "{1: 'a'}", "```\n{'a': 1}\n```", "x = {'a': 1}}"])
def spot_pred():
    return rng.choice(["[[0, 0, 10, 10, 'ab'], [20, 0, 30, 10, 'zz']]", "(0, 0, 10, 10, AB) (20, 0, 30, 10, cd)", "[[0, 0, 10, 10, 'ab'], [0, 0, 10, 10, 'ab']]", "[[10, 10, 5, 5, 'x']]", "", "nothing", "[(0, 0, 10, 10, '\"cd\"')]", "[[0, 0, 11, 10, 'ab!'], [19, 0, 30, 10, 'CD']]", "[[0,0,10,10,'']]", "[[0, 0, 1000, 1000, 'ab']]", "(1.5, 0, 10, 10, ab)"])
def spot_gt():
    return rng.choice([([[0, 0, 10, 0, 10, 10, 0, 10], [20, 0, 30, 0, 30, 10, 20, 10]], ["AB", "cd"]), ([[0, 0, 10, 10]], ["###"]), ([[0, 0, 10, 0, 10, 10, 0, 10]], ["(ab)"]), ([[0, 0, 10, 0, 10, 10, 0, 10]], [""]), ([[0.5, 0, 10, 0, 10, 10, 0, 10]], ["ab"]), ([], []), ([[0, 0, 10, 0, 10, 10, 0, 10]], ["a\nb"])])
DOC = ["# T\nbody\n## S\nmore", "# T\n\n# T\nx", "plain\ntext", "", "#\nx  }", "# A\n# B\nA", "<bos>x ##y {  z }"]
TYPES = ["text recognition en", "math QA en", "APP agent en", "reasoning VQA en", "cognition VQA en", "diagram QA en", "cognition VQA cn", "reasoning VQA cn",
         "handwritten answer extraction cn", "formula recognition cn", "text counting en", "formula recognition en", "table parsing en", "table parsing cn",
         "chart parsing en", "document parsing en", "document parsing cn", "key information extraction en", "key information mapping en", "key information extraction cn",
         "VQA with position en", "text translation cn", "fine-grained text recognition en", "full-page OCR en", "full-page OCR cn", "text grounding en", "text spotting en", "no such type"]
items = []
for _ in range(int(sys.argv[3])):
    t = rng.choice(TYPES)
    it = {"type": t, "question": rng.choice(["q", "简答题", "html", "markdown", float("nan"), "Give HTML", "MARKDOWN please"]), "predict": text(), "answers": answers_any(), "bbox": "without bbox", "content": "without content"}
    if rng.random() < 0.5:
        it["eval"] = rng.choice(["multiple choice", "case sensitive", "exact match", "regression", "other", float("nan")])
    if t.startswith("table"):
        it["predict"] = rng.choice(TABLE + MD + [text()])
        it["answers"] = rng.choice([[rng.choice(TABLE)], [rng.choice(MD)], [], [5], rng.choice(TABLE)])
    elif t == "chart parsing en":
        it["predict"] = chart_pred(); it["answers"] = rng.choice([[{"a": [1, 2], "b": 3}], [{"a": 1}], ["str"], [{}], []])
    elif t.startswith("document parsing"):
        it["predict"] = rng.choice(DOC); it["answers"] = rng.choice([[rng.choice(DOC)], [rng.choice(DOC)], [5], "x"])
    elif t.startswith("key information"):
        it["predict"] = kie_pred()
        it["answers"] = [kie_answer()] if not t.endswith("cn") else rng.choice([["{'公司': '华为', 'total': ['30', '3']}"], ["{'name': 'Ann'}"], ["[1]"], [{"a": 1}]])
    elif t == "VQA with position en":
        it["predict"] = rng.choice(['{"answer": "hello", "bbox": [0, 0, 10, 10]}', '{"answer": "x", "bbox": "[0, 0, 5, 10]"}', "answer: hello", '{"bbox": [1, 2]}', '{"answer": 5}', "", "bbox = (0, 0, 10, 10)"])
        it["bbox"] = rng.choice([[0, 0, 10, 10], [0, 0, 10], "without bbox", ["a", 1, 2, 3]])
    elif t == "text grounding en":
        it["predict"] = rng.choice(["[0, 0, 10, 10]", "(5, 5, 20, 20) and [0, 0, 10, 10]", "[0, 0, 10, 10] [0, 0, 10, 10] (1, 1, 2, 2)", "[1200, 0, 1, 1]", "none", ""])
        it["answers"] = rng.choice([box(), box(), ["a", "b", "c", "d"], [0, 0, 10], "x", [1.7, 0, 10.2, 10]])
    elif t == "text spotting en":
        it["predict"] = spot_pred(); it["bbox"], it["content"] = spot_gt()
    elif t in ("full-page OCR en", "fine-grained text recognition en", "full-page OCR cn", "text translation cn", "handwritten answer extraction cn"):
        ref = text(rng.randint(0, 6))
        hyp_words = ref.split() if ref.strip() else []
        rng.shuffle(hyp_words)
        pred = " ".join(hyp_words[: rng.randint(0, len(hyp_words))]) if rng.random() < 0.6 else text()
        it["predict"] = pred; it["answers"] = rng.choice([[ref], [ref], [""], ["ABD"], ["B"], [5]])
    items.append(it)
out = []
for it in items:
    try:
        res = ev.process_predictions([copy.deepcopy(it)])[0]
        out.append({"ignore": "ignore" in res, "score": float(res["score"]) if "score" in res else "noscore"})
    except NeedsWordNet:
        out.append("wordnet")
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt): raise
        out.append("crash:" + type(e).__name__)
json.dump({"items": items, "ref": out}, open(f"fuzz_{sys.argv[2]}.json", "w"), ensure_ascii=False)
