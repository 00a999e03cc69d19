"""Write the synthetic WeMath result files (run once; outputs copied beside this folder).

Usage: python gen.py OUT_DIR   (pandas + xlsxwriter; VLMEvalKit's dump writes xlsx with xlsxwriter)

Each problem ID has its step rows (``2steps_1``.. / ``3steps_1``..) and its ``*_multi`` row; the
hits are chosen so every four-dimensional class (complete mastery strict/loose, rote
memorisation strict/loose, inadequate generalisation, insufficient knowledge) is non-empty.
Predictions mix bare letters, "The answer is X", option texts, WeMath's "<Answer>: <<X>>"
template, and replies no rule can read (the judge's rows: ``JUDGE`` holds the scripted replies
the stand-in judge gives for them, in order).
"""

import json
import sys

import pandas as pd

OPTS = {"A": "3 cm", "B": "4 cm", "C": "5 cm", "D": "6 cm"}
CONCEPTS = [
    "Area of Triangles", "Perimeter of Squares", "Axial Symmetry", "Front-Back Position",
    "Surface Area of Cubes", "Understanding Circles", "Cardinal Directions (East, South, West, North)",
    "Conversion Rates and Calculations Between Length Units", "Not A Listed Concept",
]


def pred(kind, answer, wrong):
    """A prediction of ``kind`` that reads as ``answer`` (hit) or ``wrong``."""
    letter = answer if kind[0] == "h" else wrong
    style = kind[1:]
    if style == "":
        return letter
    if style == "is":
        return f"The answer is {letter}"
    if style == "text":
        return f"It is {OPTS[letter]} long."
    if style == "tmpl":
        return f"<Thought process>: <<some steps>> <Answer>: <<{letter}>>"
    if style == "cot":
        return f"Let me think step by step. The side doubles.\nAnswer: {letter}."
    raise ValueError(style)


# (ID, steps, [kind per step row ..., kind of multi]); kinds: h*/m* = hit/miss, J = judge row
PROBLEMS = {
    "WeMath": [
        (1, 2, ["h", "h", "h"]),          # complete mastery (strict and loose)
        (2, 2, ["h", "mis", "h"]),        # loose mastery, strict rote memorisation
        (3, 2, ["m", "m", "htext"]),      # rote memorisation (both)
        (4, 2, ["h", "J", "m"]),          # judge decides step 2
        (5, 2, ["mtext", "h", "J"]),      # insufficient knowledge / judge on multi
        (6, 2, ["his", "his", "mis"]),    # inadequate generalisation
        (7, 3, ["h", "h", "h", "h"]),
        (8, 3, ["h", "J", "h", "h"]),
        (9, 3, ["m", "m", "m", "m"]),
        (10, 3, ["h", "h", "h", "mtext"]),
        (11, 3, ["J", "m", "h", "J"]),
    ],
    "WeMath_COT": [
        (1, 2, ["hcot", "hcot", "hcot"]),
        (2, 2, ["hcot", "mcot", "hcot"]),
        (3, 2, ["mcot", "J", "hcot"]),
        (4, 2, ["hcot", "hcot", "mcot"]),
        (5, 3, ["hcot", "hcot", "hcot", "hcot"]),
        (6, 3, ["J", "mcot", "hcot", "J"]),
        (7, 3, ["mcot", "mcot", "mcot", "mcot"]),
    ],
    # No judge (exact_matching): the "Answer" split rule reads these.
    "WeMath_exact": [
        (1, 2, ["htmpl", "htmpl", "htmpl"]),
        (2, 2, ["htmpl", "mtmpl", "htmpl"]),
        (3, 2, ["mtmpl", "mtmpl", "htmpl"]),
        (4, 2, ["htmpl", "htmpl", "mtmpl"]),
        (5, 3, ["hcot", "hcot", "hcot", "hcot"]),
        (6, 3, ["h", "mcot", "hcot", "mcot"]),
        (7, 3, ["mcot", "mcot", "hcot", "mcot"]),
    ],
    # Gaps (exact_matching): problem 2 lacks its step 2 row, problem 4 its multi row, problem 5
    # has two step-2 rows, problem 6 is a one-step key the report ignores.
    "WeMath_gaps": [
        (1, 2, ["htmpl", "mtmpl", "htmpl"]),
        (2, 2, ["htmpl", None, "htmpl"]),
        (3, 2, ["mtmpl", "mtmpl", "mtmpl"]),
        (4, 3, ["hcot", "hcot", "hcot", None]),
        (5, 3, ["hcot", "mcot+hcot", "mcot", "hcot"]),
        (6, 1, ["hcot", None]),
        (7, 3, ["hcot", "hcot", "hcot", "hcot"]),
    ],
}
JUDGE_REPLIES = ["B", "Z", "C", "I cannot tell", "A"]


def build(name):
    rows, judge = [], {}
    index = 0
    answers = "ABCD"
    for pid, steps, kinds in PROBLEMS[name]:
        keys = [f"{steps}steps_{i}" for i in range(1, steps + 1)] + [f"{steps}steps_multi"]
        for j, (key, cell) in enumerate(zip(keys, kinds)):
            for kind in cell.split("+") if cell else []:  # None: no row; "a+b": two rows
                index += 1
                answer = answers[(pid + j) % 4]
                wrong = answers[(pid + j + 1) % 4]
                if kind == "J":
                    p = f"Roughly {pid * 7 + j} units, I would guess."
                    reply = JUDGE_REPLIES[(pid + j) % len(JUDGE_REPLIES)]
                    judge[p] = [reply, answer] if reply == "I cannot tell" else [reply]
                else:
                    p = pred(kind, answer, wrong)
                concept = CONCEPTS[(pid * 3 + j) % len(CONCEPTS)]
                row = {
                    "index": index, "ID": f"wm{pid:03d}", "split": "testmini", "key": key,
                    "knowledge concept": concept, "question": f"Question {pid}.{j}: how long is the side?",
                    **OPTS, "answer": answer, "prediction": p,
                }
                if name != "WeMath":
                    row["requirement"] = "Answer step by step and end with 'Answer: X'."
                rows.append(row)
    return pd.DataFrame(rows), judge


if __name__ == "__main__":
    out = sys.argv[1]
    judges = {}
    for name, file in (("WeMath", "m_WeMath"), ("WeMath_COT", "m_WeMath_COT"), ("WeMath_exact", "e_WeMath"), ("WeMath_gaps", "g_WeMath")):
        df, judge = build(name)
        with pd.ExcelWriter(f"{out}/{file}.xlsx", engine="xlsxwriter",
                            engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
            df.to_excel(w, index=False)
        judges[file] = judge
    json.dump(judges, open(f"{out}/judge_replies.json", "w"), indent=1)
