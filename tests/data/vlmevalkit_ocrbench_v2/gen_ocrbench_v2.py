"""Writes the synthetic OCRBench v2 result files in VLMEvalKit's layout (run once; no randomness).

Columns as OCRBench_v2.evaluate reads them: index, question, answer, category, eval, bbox,
content, prediction (the TSV's columns but the image). Every one of the 30 task types, with the
cases process_predictions branches on: eval "multiple choice" / "case sensitive", answers as
lists, numbers and single strings, Chinese rows (jieba), HTML / markdown / dict tables, KIE
dicts and strings, bboxes in the answer, the bbox column and the prediction (broken ones too),
text spotting by literal and by regex, empty predictions, rows the reference ignores.
"""
import pandas as pd

rows = []
NO = dict(eval="without eval", bbox="without bbox", content="without content")


def add(category, answer, prediction, question="q", **kw):
    row = dict(question=question, answer=repr(answer), category=category, **{**NO, **kw}, prediction=prediction)
    rows.append(row)


# --- VQA, English (vqa_evaluation): containment under five words, ANLS >= 0.5 otherwise
add("text recognition en", ["hello"], "Hello World")
add("text recognition en", ["the quick brown fox jumps"], "The quick brown fax jumps!")
add("text recognition en", ["CENTRE"], None)  # empty prediction
add("math QA en", [42], "The answer is 42.")
add("math QA en", ["7"], "seven")
add("APP agent en", ["settings", "Settings app"], "Open the settings app")
add("ASCII art classification en", ["cat"], "It is a dog")
add("reasoning VQA en", ["B"], "(B)", eval="multiple choice")
add("reasoning VQA en", ["B"], "B. a cat", eval="multiple choice")
add("science QA en", ["photosynthesis in green plants happens daily"], "photosynthesis in green plant happens daily")
add("document classification en", ["letter"], "This is a LETTER")
add("cognition VQA en", ["ABC"], "abc", eval="case sensitive")
add("cognition VQA en", ["ABC"], " ABC\n", eval="case sensitive")
add("diagram QA en", "solar panel", "Solar Panel")  # a single string answer
add("diagram QA en", "one two three four five", "one two three four five")  # five words, single: 0
# --- VQA, Chinese (cn_vqa_evaluation)
add("cognition VQA cn", ["北京"], "答案是 北京")
add("cognition VQA cn", ["甲,乙,丙,丁"], "甲,乙,丙,戊")
add("cognition VQA cn", ["上海"], None)
add("reasoning VQA cn", ["C"], "C", eval="multiple choice")
add("reasoning VQA cn", ["大"], "大 小", eval="case sensitive")
# --- handwritten answer extraction cn
add("handwritten answer extraction cn", ["ABD"], "A、B、D", question="选择题：选出正确答案")
add("handwritten answer extraction cn", ["ABD"], "A B C", question="选择题")
add("handwritten answer extraction cn", ["B"], "选B", question="选择题")
add("handwritten answer extraction cn", ["今天天气很好，我们去公园散步。"], "今天天气不错，我们去公园。", question="简答题：写出学生的回答")
# --- formulas
add("formula recognition cn", ["\\text{面积}=a b"], "面积 = ab")
add("formula recognition cn", ["x+1"], None)
add("formula recognition en", ["x^2 + y^2"], "$x^2+y^2$")
add("formula recognition en", ["\\frac{a}{b}"], "a/b")
# --- counting
add("text counting en", ["3"], "There are 3 words", eval="exact match")
add("text counting en", ["10"], "about 8 of them", eval="regression")
add("text counting en", ["10"], "25", eval="regression")
add("text counting en", ["10"], "none", eval="regression")
# --- tables (TEDS)
gold = "<table><tr><td>Name</td><td>Age</td></tr><tr><td>Ann</td><td>30</td></tr></table>"
add("table parsing en", [gold], "```html\n<table><tr><td>Name</td><td>Age</td></tr>\n<tr><td>Ann</td><td>31</td></tr></table>\n```",
    question="Convert the table to HTML.")
add("table parsing en", [gold], "I cannot see a table.", question="Output the table in html")
md_gold = "| Name | Age |\n| --- | --- |\n| Ann | 30 |\n| Bob | 25 |"
add("table parsing en", [md_gold], "```markdown\n| Name | Age |\n|---|---|\n| Ann | 30 |\n| Bob |  |\n```",
    question="Convert the table to Markdown.")
add("table parsing en", [gold], "<table></table>", question=None)  # no question: ignored
add("table parsing cn", ["<table><tr><td>姓名</td><td>年龄</td></tr><tr><td>张三</td><td>20</td></tr></table>"],
    "<html><body><table><tr><td>姓名</td><td>年龄</td></tr><tr><td>张三</td><td>21</td></tr></table></body></html>")
add("table parsing cn", ["<table><tr><td>甲</td></tr></table>"], None)
add("chart parsing en", [{"2019": 10, "2020": [12, 14]}], "```python\nchart = {'2019': 10, '2020': [12, 15]}  # data\n```")
add("chart parsing en", [{"a": 1}], "no dictionary here")
add("chart parsing en", [{"a": 1}], None)
# --- document parsing (STEDS)
add("document parsing en", ["# Title\nintro text\n## Part\nmore text  }"], "# Title\nintro\n## Part\n\nmore")
add("document parsing en", ["# A\nx"], None)
add("document parsing cn", ["# 标题\n正文内容\n## 小节\n更多"], "# 标题\n正文\n## 小节")
# --- key information extraction / mapping (F1 over keys)
add("key information extraction en", [{"company": ["ACME"], "total": ["30", "30.00"]}], '{"company": "acme", "total": "30.00"}')
add("key information extraction en", ['{"date": "2024-01-02", "shop": "Bob Shop"}'], "date: 2024-01-02\nshop = bobshop")
add("key information extraction en", ['{"date": "2024"}'], None)
add("key information mapping en", ["{'name': 'Ann', 'city': ['Paris', 'Lyon']}"], "```json\n{\"name\": \"Ann\", \"city\": \"Lyon\"}\n```")
add("key information extraction cn", ["{'公司': '华为', '日期': ['2024年', '2024']}"], '```json\n{"公司": "华为", "日期": "2024"}\n```')
add("key information extraction cn", ["{'公司': '华为'}"], "公司：腾讯")
# --- boxes: VQA with position (the bbox column), text grounding (the answer)
add("VQA with position en", ["stop"], '{"answer": "STOP", "bbox": [110, 110, 200, 200]}', bbox=repr([100, 100, 200, 200]))
add("VQA with position en", ["stop"], '{"answer": "go", "bbox": [1, 2]}', bbox=repr([100, 100, 200, 200]))  # broken bbox
add("VQA with position en", ["stop sign on the left side"], "answer: stop sign on the left", bbox=repr([0, 0, 10, 10]))
add("VQA with position en", ["stop"], None, bbox=repr([0, 0, 10, 10]))
add("text grounding en", [100, 200, 300, 400], "The box is (5, 5, 6, 6) or rather [110, 210, 300, 400].")
add("text grounding en", [100, 200, 300, 400], "[1200, 5, 6, 7] and (10, 20, 30)")  # out of range, three values
add("text grounding en", ["a", "b", "c", "d"], "[1, 2, 3, 4]")  # unreadable answer box: 0
add("text grounding en", [100, 200, 300, 400], None)
# --- text spotting (the bbox and content columns)
spot_boxes = [[100, 100, 200, 100, 200, 150, 100, 150], [300, 100, 400, 100, 400, 150, 300, 150], [500, 500, 600, 500, 600, 550, 500, 550]]
spot_texts = ["HELLO", "World!", "###"]
add("text spotting en", ["HELLO World!"], "[[100, 100, 200, 150, 'hello'], [305, 100, 400, 150, 'World'], [500, 500, 600, 550, 'x'], [9, 9, 9, 9, 'dot']]",
    bbox=repr(spot_boxes), content=repr(spot_texts))
add("text spotting en", ["HELLO World!"], "(100, 100, 200, 150, HELLO)\n(300, 100, 390, 150, \"Wor\")", bbox=repr(spot_boxes), content=repr(spot_texts))
add("text spotting en", ["HELLO"], None, bbox=repr(spot_boxes[:1]), content=repr(spot_texts[:1]))
# --- text recognition / translation (BLEU, METEOR, F-measure, edit distance)
add("fine-grained text recognition en", ["The quick brown fox jumps over the lazy dog"], "the quick brown fox jumped over the dog")
add("fine-grained text recognition en", ["hello"], None)
add("full-page OCR en", ["hello world"], "hello world again")
add("full-page OCR en", ["Invoice number 12"], "invoice number")
add("full-page OCR en", ["x"], None)
add("full-page OCR cn", ["今天天气很好，我们去公园散步。"], "今天天气很好，我们去公园。")
add("full-page OCR cn", ["你好"], None)
add("text translation cn", ["我们明天去北京开会。"], "我们明天去上海开会。")
add("text translation cn", [""], "我们")  # an empty answer: ignored
add("text translation cn", ["我们"], None)

df = pd.DataFrame(rows)
df.insert(0, "index", range(len(df)))
df.to_excel("m_OCRBench_v2.xlsx", index=False, engine="xlsxwriter")
# OCRBench_v2_MINI uses the same evaluate: one row of each group's first task type.
mini = df.groupby("category", sort=False).head(1)
mini.to_excel("m_OCRBench_v2_MINI.xlsx", index=False, engine="xlsxwriter")
# An eval value process_predictions does not know: the reference raises ValueError.
bad = pd.concat([mini.head(3), pd.DataFrame([dict(index=999, question="q", answer="['a']", category="math QA en",
                                                  eval="fuzzy", bbox="without bbox", content="without content", prediction="a")])])
bad.to_excel("bad_OCRBench_v2_MINI.xlsx", index=False, engine="xlsxwriter")
