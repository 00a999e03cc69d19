"""Writes the synthetic HiPhO result files (VLMEvalKit's inference layout: the dataset's
columns, the image column dropped, plus ``prediction``), as ``dump`` writes xlsx.

Run: python make_archive.py OUT_DIR   (pandas + xlsxwriter)
"""

import json
import random
import sys
from pathlib import Path

import pandas as pd


def J(x):
    return json.dumps(x, ensure_ascii=False)


# (answer, points, marking, prediction): answer/points/marking as the dataset cells (JSON text,
# a bare string, a number, or None for an empty cell)
ROWS = [
    (J(["2.5"]), J([1.0]), None, r"The speed is \boxed{2.5}."),
    (J(["9.8 m/s^2"]), J([1.0]), None, r"So $a=\boxed{9.8\,\text{m/s}^2}$"),
    (J(["1.234"]), J([2.0]), None, r"\boxed{1.235}"),
    (J([r"3.0\times10^{8}"]), J([1.0]), None, r"\boxed{3 \times 10^8 \text{ m/s}}"),
    (J([r"\frac{mg}{2}"]), J([1.5]), None, r"\boxed{0.5 m g}"),
    (J([r"\sqrt{\frac{2gh}{3}}"]), J([1.0]), None, r"\boxed{\sqrt{2gh/3}}"),
    (J([r"2\pi"]), J([1.0]), None, r"\boxed{6.283}"),
    (J(["[1.64, 1.70]"]), J([1.0]), None, r"\boxed{1.67}"),
    (J(["1.5", "2.0"]), J([2.0, 3.0]), None, r"First \boxed{1.5}, then \boxed{2.5}"),
    (J(["4", "5", "6"]), J([1.0, 1.0, 1.0]), None, r"only \boxed{6}"),
    (J(["1", "2"]), J([5.0]), None, r"\boxed{1} and \boxed{2}"),
    (J(["1", "2"]), J([5.0]), None, r"\boxed{2} and \boxed{1}"),
    (J(["7"]), J([1.0]), None, "I don't know."),
    (J(["7"]), J([1.0]), None, None),
    (J(["B"]), J([1.0]), None, r"The answer is \boxed{B}"),
    (J(["C"]), J([1.0]), None, r"\boxed{C. 4 m}"),
    (J(["True"]), J([1.0]), None, r"\boxed{yes}"),
    (J([r"v = \sqrt{2gh}"]), J([1.0]), None, r"\boxed{v=\sqrt{2 g h}}"),
    (J(["3"]), J([1.0]), None, r"\fbox{3}"),
    (J(["10"]), J([2.0, 3.0]), J(["0.5 pt: writes energy conservation", "0.5 pt: correct value"]), r"\boxed{10}"),
    (None, J([1.0]), None, r"\boxed{5}"),
    ("42", 2.0, None, r"\boxed{42}"),
    (J(["(1, 2)"]), J([1.0]), None, r"\boxed{(1,2)}"),
    (J([r"30^\circ"]), J([1.0]), None, r"\boxed{30^{\circ}}"),
    (J([r"50\%"]), J([1.0]), None, r"\boxed{50}"),
    (J([r"\frac{\pi}{2}"]), J([1.0]), None, r"\boxed{1.571}"),
    (J([r"-\frac{1}{2}"]), J([1.0]), None, r"\boxed{-0.5}"),
    (J(["1,000"]), J([1.0]), None, r"\boxed{1000}"),
    (J(["0.0123"]), J([1.0]), None, r"\boxed{0.01231}"),
    (J([r"\boxed{5}"]), J([1.0]), None, r"\boxed{5.0}"),
    (J([r"6.63\times10^{-34}"]), J([1.0]), None, r"\boxed{6.6\times10^{-34}\ \mathrm{J\,s}}"),
    (J([r"\frac{q^2}{4\pi\epsilon_0 r}"]), J([1.0]), None, r"\boxed{\frac{q^2}{4 \pi \varepsilon_0 r}}"),
    (J(["2/3"]), J([1.0]), None, r"\boxed{4/6}"),
    (J([r"1.2 \times 10^{3}"]), J([1.0]), None, r"\boxed{1200}"),
    (J(["x^2+2x+1"]), J([1.0]), None, r"\boxed{(x+1)^2}"),
    (J(["5"]), J([1.0]), J([[]]), r"\boxed{5}"),
    (J(["5"]), None, None, r"\boxed{5}"),
    (J(["0"]), J([1.0]), None, r"\boxed{0}"),
    (J(["0"]), J([1.0]), None, r"\boxed{0.001}"),
    (J([r"\frac{3}{4}", "2"]), J([1.0, 1.0]), None, r"\boxed{0.75} \boxed{2} \boxed{3}"),
    ("[not json", J([1.0]), None, r"\boxed{[not json}"),
    (J(["12.5 N"]), J([1.0]), None, r"\boxed{12.5\ \mathrm{N}}"),
    (J(["x=3"]), J([1.0]), None, r"\boxed{3}"),
    (J([r"\pi^2"]), J([1.0]), None, r"\boxed{9.87}"),
    (J(["2 pi"]), J([1.0]), None, r"\boxed{2*pi}"),
]


# A seeded mix of the forms above and harder ones (pi and eval, tuples, choices, units,
# Chinese true/false, unclosed and \fbox boxes, missing and mismatched points).
atoms = ["2.5", "2.50", "-3", "0", "0.001", "1,000", "1,234,567", "3\\times10^{8}", "3.0 \\times 10^{8}", "3e8", "2.998\\times 10^8",
 "\\frac{1}{2}", "1/2", "2/4", "0.5", "\\dfrac{3}{4}", "\\frac34", "\\sqrt{2}", "\\sqrt2", "1.414", "2\\pi", "\\pi", "6.28", "3.14",
 "\\frac{\\pi}{2}", "pi/2", "2*pi", "\\pi r^2", "\\sin(\\pi/6)", "sin(pi/6)", "abs(pi)", "max(pi,3)", "r pi", "2pi r", "pi^2", "pi**2",
 "9.87", "180", "90^\\circ", "90°", "\\frac{mg}{2}", "mg/2", "\\frac{1}{2}mv^2", "0.5 m v^2", "m v^2/2", "x^2+2x+1", "(x+1)^2",
 "\\sqrt{\\frac{2gh}{3}}", "v=\\sqrt{2gh}", "\\sqrt{2gh}", "E = mc^2", "mc^2", "(1, 2)", "(1,2)", "[1, 2]", "[0,1)", "(2, 1)",
 "A", "B", "C. 4 m", "(B)", "['B']", "True", "yes", "F", "no", "是", "错", "12.5 N", "12.5\\ \\mathrm{N}", "12.5\\text{ N}",
 "12.5 \\text{N}", "\\text{12.5}", "50\\%", "50", "$5$", "5 cm", "5cm", "1.2 \\times 10^{3}", "1200", "1.2e3", "6.63\\times10^{-34}",
 "6.6\\times10^{-34}", "\\frac{q^2}{4\\pi\\epsilon_0 r}", "\\infty", "\\emptyset", "x", "y+z", "abc+d", "2^{10}", "1024", "2^10",
 "10^{-3}", "0.001", "1\\,000", "10 million", "1 and 2", "1 or 2", "\\left(1, 2\\right)", "\\begin{array}{c}1\\end{array}",
 "\\frac{}{}", "\\sqrt", "\\frac1", "7 3/4", "7.75", "-\\frac{1}{2}", "- 0.5", "1.0", "1.00", "1.001", "1.002", "0.998", "100.1",
 "100", "0", "0.0", "-0", "nan", "inf", "1e400", "", " ", "\\text{ m} 5", "5 \\text{ m}", "\\text{ a}\\text{ b}", "1 // 2 * pi",
 "2 ** 3 * pi", "2^3 pi", "pi%2", "(pi)", "3(pi)", "pi(2)", "e^{i\\pi}", "-1", "1j*pi", "~pi", "pi<4", "(pi,2)", "pi.real",
 "1.5 pi", "4.712", "\\mathrm{J}", "kg", "2 kg", "2", "3.6 km/h", "1 m/s", "1", "π", "3π", "9.42", "√2", "2×3", "6", "2·3",
 "1,5", "15", "1.5", "\\boxed{4}", "4", "0.3333", "1/3", "\\frac{1}{3}", "33.3\\%", "x=3", "3", "k=2", "2", "a+b", "b+a"]


def mixed_rows(seed, count):
    rnd = random.Random(seed)
    rows = []
    for _ in range(count):
        k = rnd.choice([1, 1, 1, 2, 3])
        golds = [rnd.choice(atoms) for _ in range(k)]
        preds = [rnd.choice(atoms) if rnd.random() < 0.6 else g for g in golds]
        if rnd.random() < 0.2:
            preds = preds[: rnd.randint(0, k)]
        text = "Work... " + " then ".join(("\\fbox{%s}" if rnd.random() < 0.03 else "\\boxed{%s}") % p for p in preds)
        if rnd.random() < 0.05:
            text += " \\boxed{unclosed"
        pts = rnd.choice([[1.0] * k, [2.0] * k, [1.0], [], None, [0.5, 1.5, 2.0][:k]])
        answer = json.dumps(golds) if rnd.random() < 0.9 else golds[0]
        rows.append((answer, None if pts is None else json.dumps(pts), None, text))
    return rows


# Cell and box edge cases: points and marking cells of every shape, boxed/fboxed answers,
# malformed boxes, non-string JSON answers, empty answers, nan/inf points.
EDGE_ROWS = [
 (J(["1"]), '[1, "x"]', None, r"\boxed{1}"),
 (J(["1"]), '[[1], 2]', None, r"\boxed{1}"),
 (J(["1"]), '[1, null]', None, r"\boxed{1}"),
 (J(["1"]), 'abc', None, r"\boxed{1}"),
 (J(["1"]), '[1.5]', '[[]]', r"\boxed{1}"),
 (J(["1"]), '[1.5]', '["", " "]', r"\boxed{1}"),
 (J(["1"]), '[1.5]', '[0]', r"\boxed{1}"),
 (J(["1"]), '[1.5]', '[false]', r"\boxed{1}"),
 (J(["1"]), '[1.5]', "['a']", r"\boxed{1}"),
 (J(["1"]), '[1.5]', '[[], []]', r"\boxed{1}"),
 (J(["1"]), '[1.5]', '[[""], [[]]]', r"\boxed{1}"),
 (J(["1"]), '[1.5]', '[{}]', r"\boxed{1}"),
 (J([r"\boxed{\boxed{1}}"]), '[1]', None, r"\boxed{1}"),
 (J([r"\fbox{2}"]), '[1]', None, r"\boxed{2}"),
 (J([r"x \boxed{2"]), '[1]', None, r"\boxed{2}"),
 (J(["3"]), '[1]', None, r"\boxed {3}"),
 (J(["3"]), '[1]', None, r"\boxedx{3}"),
 (J(["3", "4"]), '[1, 1]', None, r"\boxed{3} \fbox{4}"),
 (J(["3", "4"]), '[1, 1]', None, r"\fbox{3} \boxed{4}"),
 (J([3, 4.5]), '[1, 1]', None, r"\boxed{3} \boxed{4.5}"),
 (J([None]), '[1]', None, r"\boxed{None}"),
 (J([["a"]]), '[1]', None, r"\boxed{['a']}"),
 (J([""]), '[1]', None, r"\boxed{}"),
 (J([""]), '[1]', None, r"x \boxed{1}"),
 (J(["a", ""]), '[1, 2]', None, r"\boxed{a}"),
 ('[]', '[1]', None, r"\boxed{1}"),
 (J(["1"]), '[]', None, r"\boxed{1}"),
 (J(["1", "2"]), '[]', None, r"\boxed{1}\boxed{2}"),
 (J(["1"]), '[-1]', None, r"\boxed{1}"),
 (J(["1"]), 'nan', None, r"\boxed{1}"),
 (J(["1"]), 'inf', None, r"\boxed{1}"),
 (J(["1"]), '[1e400]', None, r"\boxed{1}"),
 (J(["是"]), '[1]', None, r"\boxed{对}"),
 (J(["T"]), '[1]', None, r"\boxed{正确的}"),
 (J(["1.0e-3"]), '[1]', None, r"\boxed{10^{-3}}"),
 (J(["\\text{A}"]), '[1]', None, r"\boxed{A}"),
 (J(["\\text{ 5 } m"]), '[1]', None, r"\boxed{5}"),
 (J(["1 \\text{ m} 2 \\text{ s}"]), '[1]', None, r"\boxed{1}"),
 (J(["\\frac"]), '[1]', None, r"\boxed{\frac}"),
 (J(["\\sqrt"]), '[1]', None, r"\boxed{\sqrt}"),
 (J(["a=b=c"]), '[1]', None, r"\boxed{c}"),
 (J(["{5}"]), '[1]', None, r"\boxed{{5}}"),
]


def frame(rows, dataset, extra=None):
    out = []
    for i, (answer, points, marking, pred) in enumerate(rows):
        out.append({
            "index": i,
            "id": f"{dataset}_{i + 1}",
            "context": "A block slides on an incline.",
            "question": f"Question {i + 1}",
            "information": "",
            "solution": "",
            "marking": marking,
            "answer": answer,
            "answer_type": J(["Numerical Value"]),
            "unit": J([""]),
            "points": points,
            "modality": "text",
            "field": "Mechanics",
            "source": dataset,
            "prediction": pred,
        })
    df = pd.DataFrame(out)
    if extra is not None:
        df["SUB_DATASET"] = extra
    return df


def dump_xlsx(df, path):
    with pd.ExcelWriter(path, engine="xlsxwriter", engine_kwargs={"options": {"strings_to_formulas": False}}) as w:
        df.to_excel(w, index=False)


def main(out):
    out = Path(out)
    (out / "M").mkdir(parents=True, exist_ok=True)
    # IPhO_2025: every form above, one row with a marking scheme (fails without a judge)
    dump_xlsx(frame(ROWS, "IPhO_2025"), out / "M" / "M_IPhO_2025.xlsx")
    # F_MA_2025: no marking scheme and no failing row, so evaluate runs to its end
    ok = [r for r in ROWS if r[2] is None and not r[3] or (r[2] is None and r"\fbox" not in r[3])]
    dump_xlsx(frame(ok, "F_MA_2025"), out / "M" / "M_F_MA_2025.xlsx")
    # HiPhO_ALL: three subsets (one unknown, ignored upstream)
    subs = (["F_MA_2024"] * 10 + ["IPhO_2024"] * 10 + ["PanPhO_2025"] * 10 + ["Other"] * 5 + ["F_MA_2024"] * 10)
    dump_xlsx(frame(ROWS, "HiPhO_ALL", subs), out / "M" / "M_HiPhO_ALL.xlsx")
    # For a run with a judge (run_reference.py --judge): every fourth row gets a marking scheme.
    (out / "J").mkdir(parents=True, exist_ok=True)
    marked = [(a, p, J(["1 pt: the equation", "1 pt: the value"]) if i % 4 == 0 else m, t) for i, (a, p, m, t) in enumerate(ROWS)]
    dump_xlsx(frame(marked, "IPhO_2025"), out / "J" / "J_IPhO_2025.xlsx")
    dump_xlsx(frame(marked, "HiPhO_ALL", subs), out / "J" / "J_HiPhO_ALL.xlsx")
    (out / "E").mkdir(parents=True, exist_ok=True)
    dump_xlsx(frame(EDGE_ROWS, "EuPhO_2025"), out / "E" / "E_EuPhO_2025.xlsx")
    (out / "F").mkdir(parents=True, exist_ok=True)
    # Number cells (pandas reads them as int/float columns): answers, points and predictions.
    (out / "N").mkdir(parents=True, exist_ok=True)
    numeric = [(5, 1.0, None, r"\boxed{5}"), (2.5, 2, None, r"\boxed{2.50}"), (None, 1, None, r"\boxed{1}"),
               (3, 1.5, None, r"\boxed{3.0}"), (1e-5, 1, None, r"\boxed{0.00001}"), (100, 3, None, r"\boxed{1e2}"),
               (7, None, None, r"\boxed{7}"), (0.1, 1, None, r"\boxed{1/10}")]
    dump_xlsx(frame(numeric, "PanPhO_2024"), out / "N" / "N_PanPhO_2024.xlsx")
    dump_xlsx(frame([(4, 1, None, 4), (4.0, 1, None, 5.5), ("x", 1, None, None), (True, 1, None, True)], "EuPhO_2024"),
              out / "N" / "N_EuPhO_2024.xlsx")
    dump_xlsx(frame(mixed_rows(11, 300), "NBPhO_2024"), out / "F" / "F_NBPhO_2024.xlsx")


if __name__ == "__main__":
    main(sys.argv[1])
