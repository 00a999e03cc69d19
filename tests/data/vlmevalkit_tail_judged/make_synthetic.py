"""Writes the synthetic archives of this folder (result file + the judge records VLMEvalKit
keeps beside it), in VLMEvalKit's layout. The reports beside them were then written by
VLMEvalKit's own evaluate (see README.md). Usage: python make_synthetic.py OUT_DIR [m4bench|memlens|docqa|sfe|mmlongbench_doc|phyx|longdocurl|medqbench]"""

import pickle
import sys
from pathlib import Path

import pandas as pd


def dump_xlsx(df: pd.DataFrame, path: Path) -> None:
    with pd.ExcelWriter(path, engine="xlsxwriter", engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
        df.to_excel(w, index=False)


def charxiv(out: Path, dataset: str, judge: str) -> None:
    n = 20
    desc = "descriptive" in dataset
    rows = []
    for i in range(n):
        row = {"index": 1000 + 3 * i, "question": f"q{i}", "answer": f"a{i}"}
        if desc:
            row["qid"] = [1, 8, 10, 11, 17, 19, 3, 16, 13, 12][i % 10]
        else:
            row["inst_category"] = [3, 1, 4, 2, 3][i % 5]
        row["grading_query"] = "Grade: {PREDICTION}"
        row["prediction"] = f"pred {i}"
        rows.append(row)
    data = pd.DataFrame(rows)
    stem = f"m_{dataset}"
    dump_xlsx(data, out / f"{stem}.xlsx")
    scores = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0]
    judged = data.copy()
    judged["score"] = scores
    judged["extracted_answer"] = [f"x{i}" if i % 4 else "Failed to parse response" for i in range(n)]
    dump_xlsx(judged, out / f"{stem}_{judge}.xlsx")
    # The cache is keyed by row position (range(len(data))), as CharXiv.evaluate writes it.
    cache = {i: {"extracted_answer": judged["extracted_answer"][i], "score": scores[i]} for i in range(n)}
    with open(out / f"{stem}_{judge}.pkl", "wb") as f:
        pickle.dump(cache, f)


def chartmuseum(out: Path, dataset: str, judge: str) -> None:
    n = 18
    cats = ["Visual", "Text", "Visual/Text", "Synthesis"]
    data = pd.DataFrame(
        {
            "index": list(range(n)),
            "question": [f"q{i}" for i in range(n)],
            "answer": [str(i * 7) for i in range(n)],
            "category": [cats[(i * 5) % 4] for i in range(n)],
            "prediction": [f"<think>t</think><answer>{i * 7 if i % 3 else i}</answer>" for i in range(n)],
        }
    )
    stem = f"m_{dataset}"
    dump_xlsx(data, out / f"{stem}.xlsx")
    replies = ["Yes", "No", "yes, equivalent", "NO", "The answers are equivalent: YES", "No."]
    # track_progress_rich fills the cache in completion order: not the row order.
    order = [5, 0, 3, 1, 2, 4, 17, 6, 7, 8, 9, 10, 16, 11, 12, 13, 14, 15]
    cache = {int(data["index"][i]): (replies[(i * 5 + i // 4) % 6], data["category"][i]) for i in order}
    with open(out / f"{stem}_{judge}.pkl", "wb") as f:
        pickle.dump(cache, f)


if __name__ == "__main__" and len(sys.argv) == 2:
    out = Path(sys.argv[1])
    for sub, fn, ds, judge in (
        ("charxiv_head", charxiv, "CharXiv_descriptive_val", "gpt-4o-mini"),
        ("charxiv_2025_05", charxiv, "CharXiv_reasoning_val", "gpt-4o-mini"),
        ("chartmuseum", chartmuseum, "ChartMuseum_test", "gpt-4.1-mini-2025-04-14"),
    ):
        (out / sub).mkdir(parents=True, exist_ok=True)
        fn(out / sub, ds, judge)


def m4bench(out: Path, dataset: str) -> None:
    """A result file; the scripted judge of the README replies what follows ``JUDGE:``."""
    n = 16
    replies = ["(B) cat", "A", "B. dog", "C", "(D)", "Z", "none of them", "  (A) x", "D", "b", "A", "(C) y", "B", "Z", "D", "C"]
    data = pd.DataFrame(
        {
            "index": list(range(n)),
            "query": [f"Which one?\n(A) a\n(B) b\n(C) c\n(D) d {i}" for i in range(n)],
            "response": ["B", "A", "B", "D", "D", "A", "C", "A", "D", "B", "C", "C", "B", "A", "D", "C"],
            "prediction": [f"I think so JUDGE:{r}" for r in replies],
        }
    )
    dump_xlsx(data, out / f"m_{dataset}.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "m4bench":
    (Path(sys.argv[1]) / "m4bench").mkdir(parents=True, exist_ok=True)
    m4bench(Path(sys.argv[1]) / "m4bench", "State_Invariance")


def memlens(out: Path, dataset: str) -> None:
    """A result file; the scripted judge of the README reads the verdict the answer carries."""
    types = ["temporal_reasoning", "answer_refusal", "knowledge_update", None, "multi_session"]
    words = ["RIGHT", "wrong", "POINT", "SCORE2", "nope", "RIGHT", "RIGHT", "no"]
    rows = []
    for i in range(14):
        pred = f"answer {i} {words[i % 8]}"
        if i == 9:
            pred = "RIGHT " + "blah " * 600  # over 500 words: 0 without asking the judge
        rows.append(
            {
                "index": 500 + i,
                "question_id": f"0x{i:04x}" if i % 3 else None,
                "question": f"What happened {i}?",
                "question_type": types[i % 5],
                "question_subtype": "sub",
                "old_answer": "old" if i % 5 == 2 else None,
                "answer": f"ref {i}",
                "prediction": pred,
            }
        )
    dump_xlsx(pd.DataFrame(rows), out / f"m_{dataset}.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "memlens":
    (Path(sys.argv[1]) / "memlens").mkdir(parents=True, exist_ok=True)
    memlens(Path(sys.argv[1]) / "memlens", "MemLens_32K")


def docqa(out: Path, dataset: str, judge: str) -> None:
    """DUDE / SLIDEVQA: the result file and ``{stem}_{J}.xlsx`` (rows + res, log, pred) as
    ``MMLongBench_auxeval`` fills it (``pred``: the text after "Extracted answer:")."""
    answers = ["Paris", "42", None, "Straße", "The Quick Fox", "1,000", "İstanbul", "blue\nsky", "Not answerable", "3.5%", "a b c", "x"]
    preds = ["paris", "42.0", "Not answerable", "STRASSE", "the quick brown fox", "1000", "istanbul", "blue sky", "None", "3.5", "c b a a", ""]
    if dataset.startswith("DUDE"):
        preds[8], preds[11] = "not answerable", "y"  # DUDE_acc cannot read an empty pred
    stem = f"m_{dataset}"
    data = pd.DataFrame(
        {
            "index": [10 * i + 1 for i in range(len(answers))],
            "question": [f"q{i}" for i in range(len(answers))],
            "answer": answers,
            "prediction": [f"The answer is {p}" for p in preds],
        }
    )
    dump_xlsx(data, out / f"{stem}.xlsx")
    judged = data.copy()
    judged["res"] = [f"Extracted answer: {p}\nAnswer format: String" for p in preds]
    judged["log"] = "Succeed"
    judged["pred"] = preds
    dump_xlsx(judged, out / f"{stem}_{judge}.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "docqa":
    for ds in ("DUDE", "SLIDEVQA"):
        (Path(sys.argv[1]) / ds.lower()).mkdir(parents=True, exist_ok=True)
        docqa(Path(sys.argv[1]) / ds.lower(), ds, "gpt-4o")


def sfe(out: Path, dataset: str) -> None:
    """Rows whose prediction carries the digit the scripted judge replies (``SCORE=d``)."""
    digits = ["9", "0", "5", "7", "x", "3", "9", "1", "8", "2", "6", "4", "9", "0"]
    n = len(digits)
    data = pd.DataFrame(
        {
            "index": [100 + i for i in range(n)],
            "question": [f"q{i}" for i in range(n)],
            "answer": [f"a{i}" for i in range(n)],
            "category": [["chemistry", "astronomy", "earth", "life"][i % 4] for i in range(n)],
            "split": [["E", "C"][(i // 2) % 2] for i in range(n)],
            "prediction": [f"reasoning ... SCORE={d}" for d in digits],
        }
    )
    dump_xlsx(data, out / f"m_{dataset}.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "sfe":
    (Path(sys.argv[1]) / "sfe").mkdir(parents=True, exist_ok=True)
    sfe(Path(sys.argv[1]) / "sfe", "SFE")


def mmlongbench_doc(out: Path, judge: str) -> None:
    """Rows of every answer_format, and the judge table (rows + res, log, pred)."""
    rows = [
        # answer, answer_format, pred, evidence_sources, evidence_pages
        ("5", "Int", "5.0", "['Table']", "[3]"),
        ("12", "Int", "twelve", "['Chart']", "[1, 2]"),
        ("0.25", "Float", "25%", "['Pure-text (Plain-text)']", "[4]"),
        ("3.14", "Float", "3.1", "['Figure', 'Chart']", "[5]"),
        ("$1,200", "Float", "1200", "['Table']", "[2]"),
        ("Paris (France)", "Str", "paris", "['Generalized-text (Layout)']", "[7]"),
        ("https://example.com", "Str", "https://example.com/", "['Pure-text (Plain-text)']", "[1]"),
        ("The Eiffel Tower", "Str", "eiffel tower", "['Figure']", "[2, 3, 4]"),
        ("['Apple', 'Banana']", "List", "['banana', 'apple']", "['Table', 'Chart']", "[6]"),
        ("['2019', '2020']", "List", "[2020, 2019, 2021]", "['Chart']", "[8]"),
        ("['red car', 'blue bike']", "List", "[Red car, blue bike]", "['Figure']", "[9]"),
        ("Not answerable", "None", "Not answerable", "[]", "[]"),
        ("Not answerable", "None", "42", "[]", "[]"),
        ("2021-05-04", "Str", "2021-05-04", "['Pure-text (Plain-text)', 'Table']", "[1, 9]"),
    ]
    stem = "m_MMLongBench_DOC"
    data = pd.DataFrame(
        {
            "index": list(range(len(rows))),
            "question": [f"q{i}" for i in range(len(rows))],
            "answer": [r[0] for r in rows],
            "answer_format": [r[1] for r in rows],
            "evidence_sources": [r[3] for r in rows],
            "evidence_pages": [r[4] for r in rows],
            "prediction": [f"I think {r[2]}" for r in rows],
        }
    )
    dump_xlsx(data, out / f"{stem}.xlsx")
    judged = data.copy()
    judged["res"] = [f"Extracted answer: {r[2]}\nAnswer format: {r[1]}" for r in rows]
    judged["log"] = "Succeed"
    judged["pred"] = [r[2] for r in rows]
    dump_xlsx(judged, out / f"{stem}_{judge}.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "mmlongbench_doc":
    (Path(sys.argv[1]) / "mmlongbench_doc").mkdir(parents=True, exist_ok=True)
    mmlongbench_doc(Path(sys.argv[1]) / "mmlongbench_doc", "gpt-4o")


def phyx(out: Path, dataset: str) -> None:
    """PhyX rows; the scripted judge says 1 when the (extracted) prediction carries OKAY."""
    if dataset.endswith("_MC"):
        rows = [
            ("A", "The correct answer is A.", "Mechanics"),
            ("B", "answer: C", "Optics"),
            ("C", "I pick C: it fits", "Mechanics"),
            ("D", "**D** of course", "Thermodynamics"),
            ("B", "Hmm, maybe the second one OKAY", "Optics"),
            ("A", "no idea", "Mechanics"),
            ("C", "Failed to obtain answer via API.", "Optics"),
            ("D", "B: no, D: yes", "Thermodynamics"),
        ]
    else:
        rows = [
            ("3.2 m", "The final answer: 3.2 m", "Mechanics"),
            ("5 N", "Thus \\boxed{5 N}.", "Mechanics"),
            ("10 J", "so it is about ten joules OKAY", "Thermodynamics"),
            ("2.5 s", "Final Answer: 3 s", "Optics"),
            ("7", "{'content': '7', 'reasoning': 'x'}", "Optics"),
            ("1.5 \\pi", "\\boxed{1.5 \\pi}", "Waves"),
            ("42 kg", "the mass is 42 kg indeed", "Mechanics"),
            ("9.8", "g is 9.81 OKAY", "Waves"),
            ("0.5 m", "Failed to obtain answer via API.", "Optics"),
            ("12 V", "content: 12 V", "Electromagnetism"),
        ]
    data = pd.DataFrame(
        {
            "index": [1000 + i for i in range(len(rows))],
            "question": [f"q{i}" for i in range(len(rows))],
            "answer": [r[0] for r in rows],
            "prediction": [r[1] for r in rows],
            "category": [r[2] for r in rows],
        }
    )
    dump_xlsx(data, out / f"m_{dataset}.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "phyx":
    for ds in ("PhyX_mini_OE", "PhyX_mini_MC"):
        (Path(sys.argv[1]) / ds.lower()).mkdir(parents=True, exist_ok=True)
        phyx(Path(sys.argv[1]) / ds.lower(), ds)


def longdocurl(out: Path) -> None:
    """Rows whose prediction carries the extraction reply the scripted judge gives (REPLY=)."""
    c = "<concise_answer>{}</concise_answer>\nAnswer format: <answer_format>{}</answer_format>"
    rows = [
        # answer, answer_format, task_tag, judge reply
        ("1,200", "Integer", "Understanding", c.format("1200", "Integer")),
        ("42", "Integer", "Reasoning", c.format("42.0", "Float")),
        ("3.5%", "Float", "Locating", c.format("0.035", "Float")),
        ("12 kg", "Float", "Understanding", c.format("12.1", "Float")),
        ("The Annual Report", "String", "Reasoning", c.format("annual report", "String")),
        ("https://a.org", "String", "Locating", c.format("https://a.org", "String")),
        ("['apple', 'pear']", "List", "Understanding", c.format("['pear', 'apple']", "List")),
        ("['red fox', 'blue jay']", "List", "Reasoning", c.format("['red fox']", "List")),
        ("None", "None", "Locating", c.format("Not answerable", "None")),
        ("7", "Integer", "Understanding", "no tags in this reply"),
        ("2020-01-05", "String", "Reasoning", c.format("2020-01-05", "String")),
        ("[{'a': 1}]", "List", "Locating", c.format("[{'a': 1}]", "List")),
    ]
    data = pd.DataFrame(
        {
            "index": [70 + i for i in range(len(rows))],
            "question": [f"q{i}" for i in range(len(rows))],
            "answer": [r[0] for r in rows],
            "answer_format": [r[1] for r in rows],
            "task_tag": [r[2] for r in rows],
            "prediction": [f"analysis {i} REPLY={r[3]}" for i, r in enumerate(rows)],
        }
    )
    dump_xlsx(data, out / "m_LongDocURL.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "longdocurl":
    (Path(sys.argv[1]) / "longdocurl").mkdir(parents=True, exist_ok=True)
    longdocurl(Path(sys.argv[1]) / "longdocurl")


def medqbench(out: Path, dataset: str) -> None:
    """A result file before evaluate (which writes the judge's scores into it)."""
    preds = ["MEDQ clear image, mild noise", "MEDQ NOSCORE", "MEDQ blurred, low contrast", "MEDQ sharp", "MEDQ artifacts at the edge", "MEDQ fine"]
    data = pd.DataFrame(
        {
            "index": [5 + i for i in range(len(preds))],
            "question": ["Describe the image quality."] * len(preds),
            "description": [f"golden description {i}" for i in range(len(preds))],
            "prediction": preds,
        }
    )
    dump_xlsx(data, out / f"m_{dataset}.xlsx")


if __name__ == "__main__" and len(sys.argv) > 2 and sys.argv[2] == "medqbench":
    for ds in ("MedqbenchCaption_dev", "MedqbenchPairedDescription_dev"):
        (Path(sys.argv[1]) / ds.lower()).mkdir(parents=True, exist_ok=True)
        medqbench(Path(sys.argv[1]) / ds.lower(), ds)
