"""Writes the synthetic CC-OCR result files in VLMEvalKit's layout (run once; seeded).

Columns as CCOCRDataset.evaluate requires: index, question, answer, category, l2-category,
split, image_name, prediction. Every group (multi_lan_ocr, multi_scene_ocr, kie,
doc_parsing) and every op (doc, table, formula, molecular) is present, with the cases the
evaluator branches on: FAIL_MSG predictions, empty cells, a duplicate image_name, fenced
json / html / latex, fullwidth characters, invalid json.
"""
import json
import random

import pandas as pd

FAIL = "Failed to obtain answer via API."
rng = random.Random(7)
rows = []


def add(cat, l2, split, name, answer, pred):
    rows.append(dict(question="q", answer=answer, category=cat, **{"l2-category": l2}, split=split,
                     image_name=name, prediction=pred))


words = "the quick brown fox jumps over lazy dog Hello World 2024 ABC-12 café naïve".split()
# multi_lan_ocr: French (word level), Arabic/Japanese (character level)
for i in range(6):
    gt = " ".join(rng.choice(words) for _ in range(rng.randint(2, 7)))
    pr = " ".join(w if rng.random() < 0.7 else rng.choice(words) for w in gt.split())
    add("multi_lan_ocr", "French", "French", f"fr_{i}", gt, pr if i != 3 else FAIL)
add("multi_lan_ocr", "French", "French", "fr_5", "duplicate Name last", "Duplicate name\tLAST ###")
add("multi_lan_ocr", "Japanese", "Japanese", "ja_0", "東京 タワー", "東京タワー です")
add("multi_lan_ocr", "Japanese", "Japanese", "ja_1", "こんにちは\n世界", "")
add("multi_lan_ocr", "Arabic", "Arabic", "ar_0", "مرحبا بالعالم", "مرحبا العالم")
# multi_scene_ocr: IC15 (word level, alphanumeric only), zh_doc (character level)
for i in range(5):
    gt = " ".join(rng.choice(words) for _ in range(rng.randint(1, 5)))
    pr = gt.upper().replace("o", "0") if i % 2 else gt + " ***extra!"
    add("multi_scene_ocr", "scene_text", "IC15", f"ic_{i}", gt, pr)
add("multi_scene_ocr", "scene_text", "IC15", "ic_9", "a-b c.d", FAIL)
add("multi_scene_ocr", "document_text", "zh_doc", "zh_0", "中文 文档 识别", "中文文档识别率")
add("multi_scene_ocr", "document_text", "zh_doc", "zh_1", "你好", "你 好 吗")
# kie: constrained (CORD-like nested), open category
gt1 = {"menu": [{"nm": "Cake", "cnt": "2"}, {"nm": "Juice", "cnt": "1"}], "total": {"total_price": "15,000"}}
add("kie", "constrained_category", "CORD", "cord_0", json.dumps(gt1), "```json\n" + json.dumps(gt1) + "\n```")
pr2 = {"menu": [{"nm": "Cake", "cnt": "2"}, {"nm": "Juce", "cnt": "1"}], "total": {"total_price": "15.000"}}
add("kie", "constrained_category", "CORD", "cord_1", json.dumps(gt1), "```json\n" + json.dumps(pr2))
add("kie", "constrained_category", "CORD", "cord_2", json.dumps(gt1), "not json at all")
add("kie", "constrained_category", "CORD", "cord_3", json.dumps(gt1), FAIL)
gt4 = {"company": "ＡＢＣ　Ｓｄｎ Bhd", "date": "2019年3月1日", "address": "No. 1 , Jalan 2", "total": "12.50"}
pr4 = {"company": "ABC Sdn Bhd", "date": "2019 年 3月1日", "address": "No.1, Jalan 2", "total": 12.5}
add("kie", "constrained_category", "SROIE2019", "sroie_0", json.dumps(gt4, ensure_ascii=False), json.dumps(pr4, ensure_ascii=False))
add("kie", "constrained_category", "SROIE2019", "sroie_1", json.dumps(gt4, ensure_ascii=False), '{"company": "ABC Sdn Bhd", "extra": ["x", "", 3], "total": []}')
gt6 = {"姓名": "张三", "学号": "2020 123", "items": [{"k": "a"}, {"k": "b"}]}
add("kie", "open_category", "COLD_SIBR", "cold_0", json.dumps(gt6, ensure_ascii=False), "```json\n{\"姓名\": \"张 三\", \"学号\": \"2020123\", \"items\": [{\"k\": \"b\"}]}\n```")
add("kie", "open_category", "COLD_SIBR", "cold_1", json.dumps(gt6, ensure_ascii=False), '["a", "b"]')
# doc_parsing
add("doc_parsing", "doc", "doc_photo_eng", "doc_0", "\\section{Intro}\nHello world.",
    "```latex\n\\documentclass{article}\n\\begin{document}\n\\section{Intro}\nHello  world!\n\\end{document}\n```")
add("doc_parsing", "doc", "doc_photo_eng", "doc_1", "Plain text line", "Plain txt line")
add("doc_parsing", "doc", "doc_photo_eng", "doc_2", "abc", FAIL)
t_gt = "<table><tr><td>A</td><td>B</td></tr><tr><td colspan=\"2\">C D</td></tr></table>"
add("doc_parsing", "table", "table_scan_chn", "tab_0", t_gt, "```html\n" + t_gt + "\n```")
add("doc_parsing", "table", "table_scan_chn", "tab_1", t_gt, "<table><tr><td>A</td><td>X，</td></tr><tr><td>C D</td><td></td></tr></table>")
add("doc_parsing", "table", "table_scan_chn", "tab_2", t_gt, "no table here")
add("doc_parsing", "formula", "formula_handwriting", "f_0", "\\frac { a } { b }", "```latex\n\\frac{a}{b}\n```")
add("doc_parsing", "formula", "formula_handwriting", "f_1", "x ^ { 2 }", "x^{3}\t+1")
add("doc_parsing", "molecular", "molecular_handwriting", "m_0", "C C O", "<smiles>CCO</smiles>")
add("doc_parsing", "molecular", "molecular_handwriting", "m_1", "c1ccccc1", "c1cccc1 N")

df = pd.DataFrame(rows)
df.insert(0, "index", range(len(df)))
df.to_excel("m_CCOCR.xlsx", index=False, engine="xlsxwriter")
kie = df[df["category"] == "kie"].reset_index(drop=True)
kie["index"] = range(len(kie))
kie.to_excel("m_CCOCR_Kie_Cord.xlsx", index=False, engine="xlsxwriter")
# A ground truth in Python-literal form (single quotes): json.loads fails, the head's
# _load_json_like falls back to json_repair.
loose = kie.head(2).copy()
loose.loc[0, "answer"] = str(gt1)
loose.to_excel("m_CCOCR_Kie_Poie.xlsx", index=False, engine="xlsxwriter")
# An empty prediction cell in a formula sub-dataset: str() makes it "nan" from d35dd654 on;
# before that the float reaches pred.replace and the reference raises.
formula = df[df["l2-category"] == "formula"].reset_index(drop=True)
formula.loc[1, "prediction"] = None
formula["index"] = range(len(formula))
formula.to_excel("m_CCOCR_DocParsing_FormulaHandwriting.xlsx", index=False, engine="xlsxwriter")
