"""OCRBench v2 (VLMEvalKit ``OCRBench_v2.evaluate``: ``OCRBench_v2`` and ``OCRBench_v2_MINI``),
laid out as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/image_vqa.py`` (``OCRBench_v2.evaluate``),
``vlmeval/dataset/utils/ocrbrnch_v2_eval.py`` (``process_predictions``,
``ocrbench_v2_aggregate_accuracy``) and ``vlmeval/dataset/utils/Ocrbench_v2/`` (``vqa_metric``,
``IoUscore_metric``, ``TEDS_metric``, ``page_ocr_metric``, ``spotting_metric`` and the
ICDAR ``spotting_eval`` script) at head e8e78f05. The evaluation was added in 75d01151
(2025-07-07) and has written the same ``{stem}_score.json`` since; later commits only re-formatted
the code (lint) and added the ``_MINI`` name, so there is one variant, ``classic``.

Each row's ``prediction`` (``str()`` of the cell, ``''`` when missing), ``answer``, ``bbox`` and
``content`` (``ast.literal_eval`` of the cell unless it is ``without bbox`` / ``without content``),
``question`` and ``eval`` (absent when ``without eval``) are scored by the rule of its
``category`` (task type):

* VQA types (``vqa_evaluation``): an answer of fewer than five words found in the lowercased,
  stripped prediction scores 1; a longer one scores its ANLS (1 − Levenshtein / longer length)
  when ≥ 0.5. ``eval`` ``multiple choice``: the prediction's letters equal the answer;
  ``case sensitive``: the same without lowercasing. Chinese VQA (``cn_vqa_evaluation``): spaces
  removed, answers of fewer than four comma parts by containment, else ANLS.
* Formulas: the answer, spaces and newlines removed (Chinese: ``\\text{}`` unwrapped), found in
  the prediction. Counting: containment (``exact match``) or the first number's relative error
  (``regression``). Handwritten answer extraction (cn): containment of the answer's characters
  joined by one of ten separators.
* Tables (``table parsing en/cn``, ``chart parsing en``): TEDS (``apted`` over ``lxml``'s HTML
  tree, the same rule as CC-OCR's, :func:`gaia_fast.scorers.vlm.ccocr._teds`), on the
  prediction's ``<body``/``<table`` HTML, its markdown table, or its Python dict.
* Document parsing: STEDS over ``zss`` heading trees. Key information extraction/mapping: the
  mean per-key exact-match F1 of the prediction's dict against the best answer combination.
* Boxes, read from the answer / ``bbox`` / ``content`` columns and the prediction: ``text
  grounding en`` (IoU of the last ``[x1, y1, x2, y2]`` in the prediction with the answer),
  ``VQA with position en`` (half VQA, half IoU of the predicted ``bbox``), ``text spotting en``
  (the ICDAR 2015 end-to-end h-mean at IoU 0.5, boxes as axis-aligned rectangles).
* Text recognition and translation (``full-page OCR en/cn``, ``fine-grained text recognition
  en``, ``text translation cn``, handwritten ``简答`` rows): the mean of ``nltk``'s BLEU, METEOR,
  set F-measure and 1 − normalised edit distance, Chinese texts tokenised by ``jieba``.
  METEOR's last stage looks words up in WordNet, a corpus the reference downloads and this
  package does not ship: a row is scored only where that stage cannot change the score (after
  exact and stem matching, no unmatched word is left on one side, or every unmatched
  prediction word is written in CJK characters, which no English WordNet lemma is); otherwise
  its status is ``needs_wordnet`` and the report cells that need it are null.

The report (``_score.json``): the mean score of each of the reference's 13 groups that has rows
(``en_text_recognition`` … ``cn_knowledge_reasoning``), ``English Overall Score`` and
``Chinese Overall Score`` (the mean of the groups present). Rows the reference ignores (a
table row whose question is not text, a translation row with an empty answer) have status
``ignored`` and count nowhere. Where the reference raises (an unknown task type, an answer that
is not a literal, an ``eval`` it does not know, a markdown table TEDS cannot read, ...), the
row's status is ``reference_error``, ``stats["reference_error"]`` names the first, and every
report value is null.

The optional dependencies (``pip install 'gaia-fast[ocrbench-v2]'``): ``nltk``, ``jieba``,
``zss``, ``apted`` and ``lxml``, the libraries the reference calls. BLEU and METEOR are the
installed ``nltk``'s (the reference's values in the tests came from nltk 3.10.4 and jieba 0.42.1);
an archive graded with another nltk release may differ in those rows.
"""

from __future__ import annotations

import ast
import json
import math
import re
import warnings
from itertools import product
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult, as_frame
from gaia_fast.scorers.vlm._pandas import pandas_column

__all__ = ["CN_GROUPS", "EN_GROUPS", "REPORT_COLUMNS", "TASK_GROUPS", "VARIANTS", "grade", "score_item"]

VARIANTS: tuple[str, ...] = ("classic",)
DEFAULT_VARIANT = "classic"

#: Task type -> report group (``ocrbench_v2_aggregate_accuracy``).
TASK_GROUPS: dict[str, str] = {
    "text recognition en": "en_text_recognition",
    "fine-grained text recognition en": "en_text_recognition",
    "full-page OCR en": "en_text_recognition",
    "text grounding en": "en_text_detection",
    "VQA with position en": "en_text_detection",
    "text spotting en": "en_text_spotting",
    "key information extraction en": "en_relationship_extraction",
    "key information mapping en": "en_relationship_extraction",
    "document parsing en": "en_element_parsing",
    "chart parsing en": "en_element_parsing",
    "table parsing en": "en_element_parsing",
    "formula recognition en": "en_element_parsing",
    "math QA en": "en_mathematical_calculation",
    "text counting en": "en_mathematical_calculation",
    "document classification en": "en_visual_text_understanding",
    "cognition VQA en": "en_visual_text_understanding",
    "diagram QA en": "en_visual_text_understanding",
    "reasoning VQA en": "en_knowledge_reasoning",
    "science QA en": "en_knowledge_reasoning",
    "APP agent en": "en_knowledge_reasoning",
    "ASCII art classification en": "en_knowledge_reasoning",
    "full-page OCR cn": "cn_text_recognition",
    "key information extraction cn": "cn_relationship_extraction",
    "handwritten answer extraction cn": "cn_relationship_extraction",
    "document parsing cn": "cn_element_parsing",
    "table parsing cn": "cn_element_parsing",
    "formula recognition cn": "cn_element_parsing",
    "cognition VQA cn": "cn_visual_text_understanding",
    "reasoning VQA cn": "cn_knowledge_reasoning",
    "text translation cn": "cn_knowledge_reasoning",
}
EN_GROUPS = (
    "en_text_recognition", "en_text_detection", "en_text_spotting", "en_relationship_extraction",
    "en_element_parsing", "en_mathematical_calculation", "en_visual_text_understanding", "en_knowledge_reasoning",
)  # fmt: skip
CN_GROUPS = (
    "cn_text_recognition", "cn_relationship_extraction", "cn_element_parsing",
    "cn_visual_text_understanding", "cn_knowledge_reasoning",
)  # fmt: skip
EN_OVERALL, CN_OVERALL = "English Overall Score", "Chinese Overall Score"
#: Every key the report can have, in the reference's order (groups with no rows are left out).
REPORT_COLUMNS = (*EN_GROUPS, *CN_GROUPS, EN_OVERALL, CN_OVERALL)

_EN_VQA = frozenset({
    "APP agent en", "ASCII art classification en", "math QA en", "reasoning VQA en", "science QA en",
    "text recognition en", "document classification en", "cognition VQA en", "diagram QA en",
})  # fmt: skip
_REQUIRED = ("prediction", "answer", "category", "question", "eval", "bbox", "content")
_MISSING = object()  # the reference's data_item has no "eval" key


class _NeedsWordNet(Exception):
    """METEOR's WordNet stage could change this row's score."""


class _Ignored(Exception):
    """The reference marks the row ``ignore`` (score 0, left out of every mean)."""


def _deps() -> None:
    try:
        import apted  # noqa: F401
        import jieba  # noqa: F401
        import lxml  # noqa: F401
        import nltk  # noqa: F401
        import zss  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"OCRBench v2 grading needs the reference's libraries (nltk, jieba, zss, apted, lxml): "
            f"pip install 'gaia-fast[ocrbench-v2]' ({e})"
        ) from e


# --------------------------------------------------------------------------------------
# vqa_metric.py
# --------------------------------------------------------------------------------------


def _levenshtein(s1: str, s2: str) -> int:
    if len(s1) > len(s2):
        s1, s2 = s2, s1
    distances = list(range(len(s1) + 1))
    for i2, c2 in enumerate(s2):
        row = [i2 + 1]
        for i1, c1 in enumerate(s1):
            row.append(distances[i1] if c1 == c2 else 1 + min(distances[i1], distances[i1 + 1], row[-1]))
        distances = row
    return distances[-1]


def _anls(predict: str, answer: str) -> float:
    length = max(len(predict), len(answer))
    value = 0.0 if length == 0 else float(_levenshtein(predict, answer)) / float(length)
    return 1 - value


def _need_text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} is a {type(value).__name__}, not text: the reference's str methods raise")
    return value


def _answer_texts(answers: list) -> list[str]:
    out = []
    for j, a in enumerate(answers):
        if isinstance(a, (int, float)):
            a = str(a)  # the reference str()s numbers (bools too) in place
            answers[j] = a
        out.append(_need_text(a, f"answer {j}"))
    return out


def vqa_evaluation(predict: Any, answers: Any, *, lower: bool = True) -> float:
    """``vqa_evaluation`` (``lower=False``: ``vqa_evaluation_case_sensitive``)."""

    def norm(s: str) -> str:
        s = s.lower() if lower else s
        return s.strip().replace("\n", " ")

    score: float = 0
    if isinstance(answers, list):
        for answer in _answer_texts(answers):
            answer = norm(answer)
            if lower and isinstance(predict, (int, float)):
                predict = str(predict)
            predict = norm(_need_text(predict, "the prediction"))
            if len(answer.split()) < 5:
                if answer in predict:
                    score = 1
            else:
                value = _anls(predict, answer)
                if value >= 0.5 and value > score:
                    score = value
    else:
        answers = norm(_need_text(answers, "the answer"))
        predict = norm(_need_text(predict, "the prediction"))
        if len(answers.split()) < 5:  # a longer single answer scores 0 upstream
            if answers in predict:
                score = 1
            else:
                value = _anls(predict, answers)
                if value >= 0.5 and value > score:
                    score = value
    return score


def cn_vqa_evaluation(predict: Any, answers: Any) -> float:
    """``cn_vqa_evaluation``."""
    score: float = 0
    if not isinstance(answers, list):
        raise NameError("cn_vqa_evaluation of an answer that is not a list reads an unset name (UnboundLocalError upstream)")  # noqa: TRY004 - as upstream
    for answer in _answer_texts(answers):
        answer = answer.lower().strip().replace("\n", " ").replace(" ", "")
        if isinstance(predict, (int, float)):
            predict = str(predict)
        predict = _need_text(predict, "the prediction").lower().strip().replace("\n", " ").replace(" ", "")
        if len(answer.split(",")) < 4:
            if answer in predict:
                score = 1
        else:
            value = _anls(predict, answer)
            if value >= 0.5 and value > score:
                score = value
    return score


def _counting(predict: str, answers: Any, eval_method: Any) -> float:
    """``counting_evaluation`` (the prediction is always text here)."""
    score: float = 0
    processed = predict.lower().strip().replace("\n", " ")

    def first_number(s: str) -> int | None:
        m = re.search(r"\d+", s)
        return int(m.group()) if m else None

    def regression(number: int | None, answer: str) -> float:
        if not number:
            return 0
        a = int(answer)
        if number <= 0 or number >= 2 * a:
            return 0
        iou = 1 - abs(number - a) / a
        return iou if iou > 0.5 else 0

    if isinstance(answers, list):
        best: float = 0
        for answer in _answer_texts(answers):
            answer = answer.lower().strip().replace("\n", " ")
            if eval_method == "exact match":
                score = 1 if answer in predict else 0
            elif eval_method == "regression":
                score = regression(first_number(processed), answer)
            # any other eval keeps the previous answer's score (as upstream)
            best = max(best, score)
        return best
    _need_text(answers, "the answer")
    if eval_method == "exact match":
        raise NameError("counting_evaluation of a single answer reads an unset name (UnboundLocalError upstream)")
    if eval_method == "regression" and first_number(processed.lower().strip()):
        raise NameError("counting_evaluation of a single answer reads an unset name (UnboundLocalError upstream)")
    return 0


def _math_expression(predict: str, answers: Any) -> float:
    score: float = 0
    predict_n = predict
    items = answers if isinstance(answers, list) else [answers]
    for j, a in enumerate(items):
        answer = _need_text(a, f"answer {j}").strip().replace("\n", " ").replace(" ", "")
        predict_n = predict_n.strip().replace("\n", " ").replace(" ", "")
        if answer in predict_n:
            score = 1
    return score


def _remove_text_tags(s: str) -> str:
    return re.sub(r"\\text\{([^{}]*)\}", r"\1", s)


def _cn_math_expression(predict: str, answers: Any) -> float:
    if len(answers) != 1:
        raise AssertionError("formula recognition cn needs exactly one answer (assert upstream)")
    answer = _remove_text_tags(_need_text(answers[0], "answer 0")).strip().replace("\n", " ").replace(" ", "")
    predict = _remove_text_tags(predict).strip().replace("\n", " ").replace(" ", "")
    return 1 if answer in predict else 0


# --------------------------------------------------------------------------------------
# IoUscore_metric.py
# --------------------------------------------------------------------------------------


def _calculate_iou(box1: Any, box2: Any) -> float:
    try:
        box1 = [int(c) for c in box1]
        box2 = [int(c) for c in box2]
    except Exception:  # noqa: BLE001 - the reference's bare except: unreadable boxes score 0
        return 0
    x1 = max(box1[0], box2[0])
    y1 = max(box1[1], box2[1])
    x2 = min(box1[2], box2[2])
    y2 = min(box1[3], box2[3])
    inter = max(0, x2 - x1) * max(0, y2 - y1)
    area1 = (box1[2] - box1[0]) * (box1[3] - box1[1])
    area2 = (box2[2] - box2[0]) * (box2[3] - box2[1])
    union = area1 + area2 - inter
    return inter / union if union != 0 else 0


def _extract_coordinates(text: str) -> list[int] | None:
    """The last ``(x1, y1, x2, y2)`` / ``[...]`` with every value in 0..1000."""
    last = None
    for m in re.finditer(r"[\(\[]\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*[\)\]]", text):
        coords = tuple(map(int, m.groups()))
        if all(0 <= n <= 1000 for n in coords):
            last = coords
    return list(last) if last is not None else None


def _vqa_with_position(pred: dict, answers: Any, gt_bbox: Any) -> float:
    content, box = 0.0, 0.0
    if "answer" in pred:
        content = vqa_evaluation(pred["answer"], answers)
    if "bbox" in pred:
        try:
            box = _calculate_iou(ast.literal_eval(pred["bbox"]), gt_bbox)
        except Exception:  # noqa: BLE001 - the reference's bare except
            box = 0
    return 0.5 * content + 0.5 * box


# --------------------------------------------------------------------------------------
# TEDS_metric.py: tables, charts, key information, documents
# --------------------------------------------------------------------------------------


def _teds(pred_html: str, true_html: str) -> float:
    from gaia_fast.scorers.vlm.ccocr import _ReferenceError, _teds

    try:
        return _teds(pred_html, true_html)
    except _ReferenceError:
        raise ZeroDivisionError("two empty tables: TEDS divides by zero") from None


def _wrap_html_table(t: str) -> str:
    t = t.replace("\n", "")
    if "<table" in t and "</table>" not in t:
        t = t + "</table>"
    elif "<table" not in t and "</table>" in t:
        t = "<table>" + t
    elif "<table" not in t and "</table>" not in t:
        t = "<table>" + t + "</table>"
    if "<body>" not in t:
        t = "<body>" + t + "</body>"
    if "<html>" not in t:
        t = "<html>" + t + "</html>"
    return t


def _markdown_to_html(md: str) -> str:
    md = md.strip("```markdown").strip("```").strip()  # noqa: B005, PLE1310 - character sets, as upstream
    rows = md.split("\n")
    out = "<html><body><table>"
    for row in [rows[0]] + rows[2:]:
        out += "<tr>"
        for cell in row.strip().split("|")[1:-1]:
            out += f"<td>{cell.strip() if set(cell) != set(' ') else ' '}</td>"
        out += "</tr>"
    return out + "</table></body></html>"


def _html_table_score(predict: str, answers: Any) -> float:
    """The prediction's HTML table (from ``<body`` or ``<table``) against ``answers[0]``, read
    only when the prediction has one."""
    table = predict.replace("\n", "")
    if "<body" in table:
        table = re.findall("<body.*", table)[0]
    elif "<table" in table:
        table = re.findall("<table.*", table)[0]
    else:
        return 0
    pred_html = _wrap_html_table(table)
    gold_html = _wrap_html_table(_need_text(answers[0], "answer 0"))
    try:
        return _teds(pred_html, gold_html)
    except Exception:  # noqa: BLE001 - the reference's bare except around TEDS
        return 0


def _dict_to_html(data: dict) -> str:
    out = "<html><body><table>\n"
    for key, value in data.items():
        if not isinstance(value, str):
            value = str(value)
        out += f"  <tr><td>{key}</td><td>{' '.join(value)}</td></tr>\n"
    return out + "</table></body></html>"


def _str_to_dict(predict: str) -> dict:
    """``convert_str_to_dict``."""
    m = re.search(r"```(?:python|json)?\n(.*?)\n```", predict, re.DOTALL | re.IGNORECASE)
    content = m.group(1) if m else predict.strip()
    data: Any = {}
    success = False
    try:
        data = json.loads(content)
        success = True
    except json.JSONDecodeError:
        pass
    if not success:
        try:
            data = ast.literal_eval(content)
            if isinstance(data, dict):
                success = True
        except (ValueError, SyntaxError):
            pass
    if not success:
        try:
            for key, value in re.findall(r'["\']?([\w\s]+)["\']?\s*[:=]\s*["\']?([^\n,"\'{}]+)["\']?', content):
                data[key.strip()] = value.strip()
        except Exception:  # noqa: BLE001 - the reference's bare except (data a non-dict literal)
            return {}
    if not data:
        return {}
    try:
        return {k.strip(): str(v).strip() for k, v in data.items()}
    except Exception:  # noqa: BLE001 - the reference's bare except
        return {}


def _str_to_multi_dict(predict: str) -> dict:
    """``convert_str_to_multi_dict``."""
    fences = re.findall(r"```(?:python|json)?\n(.*?)\n```", predict, re.DOTALL | re.IGNORECASE)
    content = max(fences, key=len) if fences else predict.strip()
    content = re.sub(r"^\s*\w+\s*=\s*", "", content.strip(), count=1)
    content = re.sub(r"#.*", "", content)
    last = content.rfind("}")
    if last != -1:
        content = content[: last + 1]
    try:
        data = ast.literal_eval(content)
    except (ValueError, SyntaxError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def _combinations(answer: Any) -> Any:
    """``generate_combinations``: a list of answer dicts, or ``{}`` when unparsable."""
    if isinstance(answer, dict):
        keys = list(answer)
        return [dict(zip(keys, values)) for values in product(*[answer[k] for k in keys])]
    kie = _need_text(answer, "answer 0").strip('"')
    try:
        kie = json.loads(kie)
    except json.JSONDecodeError:
        try:
            kie = ast.literal_eval(kie)
            if not isinstance(kie, dict):
                kie = ast.literal_eval(kie)
        except (ValueError, SyntaxError):
            return {}
    if not isinstance(kie, dict):
        raise ValueError("the KIE answer could not be parsed into a dictionary (ValueError upstream)")  # noqa: TRY004 - as upstream
    keys = list(kie)
    lists = [kie[k] if isinstance(kie[k], list) else [kie[k]] for k in keys]
    return [dict(zip(keys, values)) for values in product(*lists)]


def _f1(preds: dict, gts: dict) -> float:
    """``compute_f1_score``: per key, 1 when both values (lowercased, spaces removed) are equal."""
    f1: dict[Any, float] = {}
    for key in set(preds) | set(gts):
        p, g = preds.get(key), gts.get(key)
        if p:
            p = p.lower().strip().replace("\n", " ").replace(" ", "")
        if g:
            g = g.lower().strip().replace("\n", " ").replace(" ", "")
        if p is None and g is None:
            continue
        f1[key] = 1.0 if (p is not None and g is not None and p == g) else 0.0
    if not f1:
        return 0
    return sum(f1.values()) / len(f1)


def _kie(predict: str, answers: Any) -> float:
    if isinstance(answers, list) and len(answers) == 1:
        if not isinstance(predict, str):  # pragma: no cover - predictions are text here
            return 0
        return _f1(_str_to_dict(predict), answers[0])
    best: float = 0
    for answer in answers:
        best = max(best, _f1(_str_to_dict(predict), answer))
    return best


def _pre_clean(text: str) -> str:
    text = re.sub(r"<bos>|<eos>|<pad>|<unk>", "", text)
    text = re.sub(r"\s##(\S)", r"\1", text)
    text = re.sub(r"\\\s", r"\\", text)
    text = re.sub(r"\s\*\s\*\s", r"**", text)
    text = re.sub(r"{\s", r"{", text)
    text = re.sub(r"\s}", r"}", text)
    text = re.sub(r"\s}", r"}", text)  # twice upstream: "  }" needs both
    text = re.sub(r"\\begin\s", r"\\begin", text)
    text = re.sub(r"\\end\s", r"\\end", text)
    text = re.sub(r"\\end{table}", r"\\end{table} \n\n", text)
    return text.replace("\n", " ").replace("*", " ").replace("_", " ")


def _doc_tree(text: str) -> Any:
    from zss import Node

    tree = Node("ROOT").addkid(Node("TITLE"))
    last_title = ""
    for line in (_pre_clean(x) for x in text.split("\n")):
        if line.startswith("#"):
            line = line.replace("#", "")
            tree.get("ROOT").addkid(Node(line))
            last_title = line
        else:
            tree.get("TITLE" if last_title == "" else last_title).addkid(Node(line))
    return tree


def _doc_parsing(predict: str, answer: Any) -> float:
    """``doc_parsing_evaluation``: STEDS (zss, a label costs 1 only when one side is blank)."""
    from zss import simple_distance

    pred, ref = _doc_tree(predict), _doc_tree(_need_text(answer, "answer 0"))
    dist = simple_distance(pred, ref, label_dist=lambda a, b: 1 if len(a.split()) == 0 or len(b.split()) == 0 else 0)
    return 1 - dist / max(len(list(pred.iter())), len(list(ref.iter())))


# --------------------------------------------------------------------------------------
# page_ocr_metric.py: BLEU, METEOR, F-measure, edit distance
# --------------------------------------------------------------------------------------

_CHINESE = re.compile(r"[\u4e00-\u9fa5]")
#: Characters no English WordNet lemma contains (CJK ideographs, CJK symbols and punctuation,
#: the fullwidth punctuation jieba leaves as tokens).
_NO_LEMMA = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+")


class _NoWordNet:
    """Stands in for WordNet where its answer cannot matter (see :func:`_meteor`)."""

    @staticmethod
    def synsets(word: str, *args: Any, **kwargs: Any) -> list:
        return []


def _meteor(reference: list[str], hypothesis: list[str]) -> float:
    """``meteor_score([reference], hypothesis)``, or :class:`_NeedsWordNet` when WordNet synonyms
    could match a word: the stage only pairs a still-unmatched prediction word with a
    still-unmatched reference word through the prediction word's synsets."""
    from nltk.stem.porter import PorterStemmer
    from nltk.translate import meteor_score as ms

    stemmer = PorterStemmer()
    hyp, ref = ms._generate_enums(hypothesis, reference)
    _, hyp, ref = ms._match_enums(hyp, ref)
    _, hyp, ref = ms._enum_stem_match(hyp, ref, stemmer=stemmer)
    if hyp and ref and not all(_NO_LEMMA.fullmatch(w) for _, w in hyp):
        raise _NeedsWordNet
    return ms.meteor_score([reference], hypothesis, stemmer=stemmer, wordnet=_NoWordNet())


def _jieba_cut(text: str) -> list[str]:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)  # jieba logs its dictionary build to stderr at INFO
    return jieba.lcut(text)


def _page_metrics(pred: str, gt: Any) -> dict[str, Any]:
    """``cal_per_metrics``."""
    import nltk
    from nltk.metrics import f_measure

    gt = _need_text(gt, "answer 0")
    if _CHINESE.search(gt) or _CHINESE.search(pred):
        reference, hypothesis = _jieba_cut(gt), _jieba_cut(pred)
    else:
        reference, hypothesis = gt.split(), pred.split()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk warns on zero n-gram overlaps; the value is the reference's
        bleu = nltk.translate.bleu([reference], hypothesis)
    meteor = _meteor(reference, hypothesis)
    f = f_measure(set(reference), set(hypothesis))
    longest = max(len(pred), len(gt))
    if longest == 0:
        raise ZeroDivisionError("prediction and answer both empty: the edit distance divides by zero")
    return {"bleu": bleu, "meteor": meteor, "f_measure": f, "edit_dist": nltk.edit_distance(pred, gt) / longest}


def _page_score(pred: str, gt: Any, none_as_zero: bool) -> float:
    m = _page_metrics(pred, gt)
    if none_as_zero:
        z = {k: 0.0 if v is None else v for k, v in m.items()}
        return (z["bleu"] + z["meteor"] + z["f_measure"] + (1 - z["edit_dist"])) / 4
    if m["f_measure"] is None:
        raise TypeError("an empty token set: f_measure is None and the reference adds it (TypeError)")
    return (m["bleu"] + m["meteor"] + m["f_measure"] + (1 - m["edit_dist"])) / 4


# --------------------------------------------------------------------------------------
# spotting_metric.py + spotting_eval (ICDAR 2015 end-to-end, IoU 0.5, no word spotting)
# --------------------------------------------------------------------------------------

_SPECIAL = "!?.:,*\"()·[]/'"
_DET_LINE = re.compile(r"^\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,(.*)$")


def _spotting_boxes(predict: str) -> list[list[Any]] | None:
    """``extract_bounding_boxes_robust``: ``[x1, y1, x2, y2, text]`` items in 0..1000."""
    results: list[list[Any]] = []
    seen: set = set()

    def add(coords: list[str], text: str) -> None:
        try:
            x1, y1, x2, y2 = (int(c) for c in coords)
        except ValueError:
            return
        if not all(0 <= v <= 1000 for v in (x1, y1, x2, y2)):
            return
        key = (x1, y1, x2, y2, text)
        if key not in seen:
            seen.add(key)
            results.append([x1, y1, x2, y2, text])

    try:
        data = ast.literal_eval(predict)
    except Exception:  # noqa: BLE001 - upstream: anything unreadable goes to the regex
        data = None
    if data is not None:
        if isinstance(data, (list, tuple)):
            for item in data:
                if isinstance(item, (list, tuple)) and len(item) >= 5:
                    text = str(item[4]).replace("\n", "").strip().strip('"').strip("'")
                    add([str(c).strip() for c in item[:4]], text)
    else:
        items = re.findall(r"[\[\(]\s*([^\[\]\(\)]*?)\s*[\]\)]", predict)
        if not items:
            return None
        for item in items:
            parts = item.split(",", 4)
            if len(parts) < 5:
                continue
            text = parts[4].replace("\n", "").strip().strip('"').strip("'")
            add([p.strip() for p in parts[:4]], text)
    return results or None


def _file_lines(lines: list[str]) -> list[tuple[list[int], str]]:
    """What ``get_tl_line_values_from_file_contents`` reads from the reference's temp file (its
    lines joined by ``\\n``): 8 integer points and a transcription per non-empty line; a line it
    cannot read (or points not clockwise) makes the evaluation fail, and the reference then
    raises on its result (TypeError)."""
    out = []
    for line in "\n".join(lines).split("\n"):
        line = line.replace("\r", "")
        if line == "":
            continue
        m = _DET_LINE.match(line)
        if m is None:
            raise TypeError(f"spotting line {line!r} is not x1,...,y4,text: the ICDAR script fails and the reference indexes its '{{}}' result")
        pts = [int(float(m.group(i))) for i in range(1, 9)]
        edge = sum((pts[(i + 1) * 2 % 8] - pts[i * 2]) * (pts[((i + 1) * 2 + 1) % 8] + pts[i * 2 + 1]) for i in range(4))
        if edge > 0:
            raise TypeError("spotting points not clockwise: the ICDAR script fails and the reference indexes its '{}' result")
        text = m.group(9)
        q = re.match(r'^\s*\"(.*)\"\s*$', text)
        if q is not None:
            text = q.group(1).replace("\\\\", "\\").replace('\\"', '"')
        out.append((pts, text))
    return out


def _rect(pts: list[int]) -> tuple[int, int, int, int]:
    xs, ys = pts[0::2], pts[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _area(r: tuple[int, int, int, int]) -> int:
    return (r[2] - r[0]) * (r[3] - r[1])


def _inter(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))


def _transcription_match(gt: str, det: str) -> bool:
    if gt == det:
        return True
    if _SPECIAL.find(gt[0]) > -1 and gt[1:] == det:  # an empty GT raises here, as upstream
        return True
    if _SPECIAL.find(gt[-1]) > -1 and gt[: len(gt) - 1] == det:
        return True
    return _SPECIAL.find(gt[0]) > -1 and _SPECIAL.find(gt[-1]) > -1 and gt[1 : len(gt) - 1] == det


def _spotting(predict: str, gt_boxes: Any, gt_texts: Any) -> float:
    """``spotting_evaluation``: the h-mean of the ICDAR end-to-end script on one image. The
    boxes here are axis-aligned rectangles (the prediction's corners, the ground truth's
    min/max), so the script's polygon areas are rectangle areas."""
    boxes = _spotting_boxes(predict)
    if not boxes:
        return 0
    det_lines = [
        ",".join([str(x1), str(y1), str(x2), str(y1), str(x2), str(y2), str(x1), str(y2), rec])
        for x1, y1, x2, y2, rec in boxes
        if not (x1 >= x2 or y1 >= y2)
    ]
    gt_lines = []
    for bbox, rec in zip(gt_boxes, gt_texts):
        xs, ys = bbox[0::2], bbox[1::2]
        x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        gt_lines.append(",".join([str(x1), str(y1), str(x2), str(y1), str(x2), str(y2), str(x1), str(y2), rec]))
    if not det_lines or not gt_lines:
        return 0
    gts = _file_lines(gt_lines)
    dets = _file_lines(det_lines)
    gt_rects = [_rect(p) for p, _ in gts]
    gt_texts_ = [t for _, t in gts]
    dont_care = [i for i, t in enumerate(gt_texts_) if t == "###"]
    det_rects = [_rect(p) for p, _ in dets]
    det_dont_care = []
    for d, r in enumerate(det_rects):
        for g in dont_care:
            a = _area(r)
            if (0 if a == 0 else _inter(gt_rects[g], r) / a) > 0.5:
                det_dont_care.append(d)
                break
    correct = 0
    gt_used = [False] * len(gts)
    det_used = [False] * len(dets)
    for g, gr in enumerate(gt_rects):
        for d, dr in enumerate(det_rects):
            if gt_used[g] or det_used[d] or g in dont_care or d in det_dont_care:
                continue
            union = _area(dr) + _area(gr) - _inter(dr, gr)
            iou = _inter(dr, gr) / union if union != 0 else 0
            if iou > 0.5:
                gt_used[g] = det_used[d] = True
                if _transcription_match(gt_texts_[g].upper(), dets[d][1].upper()):
                    correct += 1
    n_gt = len(gts) - len(dont_care)
    n_det = len(dets) - len(det_dont_care)
    recall = 0 if n_gt == 0 else float(correct) / n_gt
    precision = 0 if n_det == 0 else float(correct) / n_det
    return 0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)


# --------------------------------------------------------------------------------------
# process_predictions: one row
# --------------------------------------------------------------------------------------


def _alpha(s: str) -> str:
    return "".join(c for c in s if c.isalpha())


def score_item(item: dict[str, Any]) -> tuple[float, str]:
    """One ``process_predictions`` row: ``(score, rule)``. ``item`` has the reference's keys
    (``type``, ``question``, ``predict``, ``answers``, ``bbox``, ``content`` and, unless the
    cell said ``without eval``, ``eval``). Raises where the reference raises; raises
    ``_Ignored`` for rows it ignores and ``_NeedsWordNet`` where WordNet could decide."""
    t, predict, answers = item["type"], item["predict"], item["answers"]
    ev = item.get("eval", _MISSING)
    if t in _EN_VQA or t in ("cognition VQA cn", "reasoning VQA cn"):
        en = t in _EN_VQA
        if ev is _MISSING:
            return (vqa_evaluation(predict, answers), "vqa") if en else (cn_vqa_evaluation(predict, answers), "cn_vqa")
        if ev == "multiple choice":
            if en and not isinstance(answers, list):
                answers = [answers]
            if len(answers) != 1:
                raise AssertionError("multiple choice needs exactly one answer (assert upstream)")
            return (1 if _alpha(predict) == answers[0] else 0), "multiple_choice"
        if ev == "case sensitive":
            return vqa_evaluation(predict, answers, lower=False), "case_sensitive"
        raise ValueError(f"eval {ev!r} is not an evaluation method (ValueError upstream)")
    if t == "handwritten answer extraction cn":
        if "简答" in _need_text(item["question"], "the question"):
            return _page_score(predict, answers[0], True), "page_ocr"
        if len(answers) != 1:
            raise AssertionError("handwritten answer extraction needs exactly one answer (assert upstream)")
        answer = answers[0]
        chars = list(answer)
        if len(answer) > 1:
            seps = ("", ".", ". ", ",", ", ", "、", ";", "; ", " ", "和")
            return (1 if any(s.join(chars) in predict for s in seps) else 0), "joined_characters"
        return (1 if answer in predict else 0), "contains"
    if t == "formula recognition cn":
        if predict.lower() == "nan":  # is_nan_value: the text "nan" counts as missing
            return 0, "nan"
        return _cn_math_expression(predict, answers), "formula"
    if t == "text counting en":
        if ev is _MISSING:
            raise KeyError("text counting reads item['eval'], and the cell said 'without eval' (KeyError upstream)")
        return _counting(predict, answers, ev), f"counting_{ev}"
    if t == "formula recognition en":
        return _math_expression(predict, answers), "formula"
    if t == "table parsing en":
        if not (isinstance(answers, list) and len(answers) == 1):
            raise ValueError("table parsing en needs a one-answer list (ValueError upstream)")
        q = item["question"]
        if not isinstance(q, str):
            raise _Ignored("the question is not text")
        if "html" in q.lower():
            return _html_table_score(predict, answers), "teds_html"
        if "markdown" in q.lower():
            return _teds(_markdown_to_html(predict), _markdown_to_html(_need_text(answers[0], "answer 0"))), "teds_markdown"
        raise KeyError("the question names neither html nor markdown: no score is set and the aggregation raises KeyError")
    if t == "table parsing cn":
        return _html_table_score(predict, answers), "teds_html"
    if t == "chart parsing en":
        answer = answers[0]
        if not predict:
            return 0, "empty"
        pred = _str_to_multi_dict(predict)
        if not pred:
            return 0, "unparsed"
        if not isinstance(answer, dict):
            raise AttributeError(f"the chart answer is a {type(answer).__name__}, not a dict (AttributeError upstream)")
        return _teds(_dict_to_html(pred), _dict_to_html(answer)), "teds_dict"
    if t in ("document parsing en", "document parsing cn"):
        if not (isinstance(answers, list) and len(answers) == 1):
            raise AssertionError("document parsing needs a one-answer list (assert upstream)")
        return _doc_parsing(predict, answers[0]), "steds"
    if t in ("key information extraction en", "key information mapping en", "key information extraction cn"):
        if len(answers) != 1:
            raise AssertionError("key information extraction needs exactly one answer (assert upstream)")
        if t.endswith("cn"):
            gt = ast.literal_eval(_need_text(answers[0], "answer 0"))
            gt = {k: v if isinstance(v, list) else [v] for k, v in gt.items()}
            return _kie(predict, _combinations(gt)), "kie_f1"
        return _kie(predict, _combinations(answers[0])), "kie_f1"
    if t == "VQA with position en":
        return _vqa_with_position(_str_to_dict(predict), answers, item["bbox"]), "vqa_iou"
    if t == "text translation cn":
        if len(predict) == 0:
            return 0, "empty"
        if len(answers[0]) == 0:
            raise _Ignored("the answer is empty")
        return _page_score(predict, answers[0], False), "page_ocr"
    if t == "fine-grained text recognition en":
        if len(predict) == 0:
            return 0, "empty"
        return _page_score(predict, answers[0], True), "page_ocr"
    if t == "full-page OCR en":
        if not predict:
            return 0, "empty"
        return _page_score(predict, answers[0], True), "page_ocr"
    if t == "full-page OCR cn":
        if len(predict) == 0:
            return 0, "empty"
        return _page_score(predict, answers[0], False), "page_ocr"
    if t == "text grounding en":
        box = _extract_coordinates(predict)
        if not box:
            return 0, "no_box"
        return _calculate_iou(box, answers), "iou"
    if t == "text spotting en":
        return _spotting(predict, item["bbox"], item["content"]), "spotting_hmean"
    raise ValueError(f"unknown task type {t!r} (ValueError upstream)")


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------


def _cells(frame: pl.DataFrame, name: str) -> list[Any]:
    """The column as pandas holds it: NaN for a missing cell."""
    kind, cells = pandas_column(frame[name])
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def _literal(value: Any, what: str) -> Any:
    if not isinstance(value, str):
        raise ValueError(f"the {what} cell is a {type(value).__name__}, not a literal: ast.literal_eval raises upstream")  # noqa: TRY004 - as upstream
    return ast.literal_eval(value)


def _items(frame: pl.DataFrame) -> list[tuple[dict[str, Any] | None, str | None]]:
    """``OCRBench_v2.evaluate``'s loop: each row's ``result_entry``, or why building it raises."""
    cols = {c: _cells(frame, c) for c in _REQUIRED}
    out: list[tuple[dict[str, Any] | None, str | None]] = []
    for i in range(frame.height):
        p = cols["prediction"][i]
        predict = "" if (isinstance(p, float) and math.isnan(p)) else str(p)
        try:
            answers = _literal(cols["answer"][i], "answer")
            bbox = cols["bbox"][i]
            bbox = _literal(bbox, "bbox") if bbox != "without bbox" else bbox
            content = cols["content"][i]
            content = _literal(content, "content") if content != "without content" else content
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as e:
            out.append((None, f"{type(e).__name__}: {e}"))
            continue
        item = {
            "type": cols["category"][i],
            "question": cols["question"][i],
            "predict": predict,
            "answers": answers,
            "bbox": bbox,
            "content": content,
        }
        if cols["eval"][i] != "without eval":
            item["eval"] = cols["eval"][i]
        out.append((item, None))
    return out


def _check_variant(variant: str | None) -> str:
    variant = DEFAULT_VARIANT if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"unknown OCRBench v2 variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    return variant


def grade(frame: Any, *, variant: str | None = None, seed: int = 0, judge: Any = None, **_: Any) -> GradeResult:
    """Grade a VLMEvalKit OCRBench v2 result table (``{model}_OCRBench_v2.xlsx``: ``prediction``,
    ``answer``, ``category``, ``question``, ``eval``, ``bbox``, ``content``).

    ``rows``: every input row in order, plus ``group`` (the report group), ``rule`` (which
    rule scored it), ``score`` (null where the row could not be scored), ``status`` (``ok``,
    ``ignored``, ``needs_wordnet``, ``reference_error``) and ``reason``. ``report``: the
    ``_score.json`` values, one row (a group with no rows has no column, as upstream). ``seed``
    and ``judge`` are unused (no random draw, no judge).
    """
    frame = as_frame(frame)
    variant = _check_variant(variant)
    for name in _REQUIRED:
        if name not in frame.columns:
            raise ValueError(f"OCRBench v2: the result table has no {name!r} column (columns: {sorted(frame.columns)})")
    _deps()
    n = frame.height
    group: list[str | None] = []
    rule: list[str | None] = []
    score: list[float | None] = []
    status: list[str] = []
    reason: list[str] = []
    error: str | None = None
    for i, (item, why) in enumerate(_items(frame)):
        if item is None:
            group.append(None)
            rule.append(None)
            score.append(None)
            status.append("reference_error")
            reason.append(f"reading the row raises upstream: {why}")
            error = error or f"OCRBench v2: row {i}: {why}"
            continue
        t = item["type"]
        group.append(TASK_GROUPS.get(t) if isinstance(t, str) else None)
        try:
            s, r = score_item(item)
        except _Ignored as e:
            rule.append("ignored")
            score.append(0.0)
            status.append("ignored")
            reason.append(f"left out of the report upstream: {e}")
            continue
        except _NeedsWordNet:
            rule.append("page_ocr")
            score.append(None)
            status.append("needs_wordnet")
            reason.append("METEOR's WordNet synonym stage could match a word; WordNet is not in the archive")
            continue
        except Exception as e:  # noqa: BLE001 - the same statement raises upstream: the evaluation stops there
            rule.append(None)
            score.append(None)
            status.append("reference_error")
            reason.append(f"{type(e).__name__}: {e}")
            error = error or f"OCRBench v2: row {i} ({t!r}): {type(e).__name__}: {e}"
            continue
        rule.append(r)
        score.append(float(s))
        status.append("ok")
        reason.append(r)

    values: dict[str, float | None] = {}
    per_group: dict[str, list[float | None]] = {g: [] for g in (*EN_GROUPS, *CN_GROUPS)}
    for g, s, st in zip(group, score, status):
        if st in ("ok", "needs_wordnet") and g is not None:
            per_group[g].append(s)
    for names, overall in ((EN_GROUPS, EN_OVERALL), (CN_GROUPS, CN_OVERALL)):
        present = [g for g in names if per_group[g]]
        for g in present:
            xs = per_group[g]
            values[g] = None if any(x is None for x in xs) else sum(xs) / len(xs)  # type: ignore[arg-type]
        if not present and error is None:
            error = f"OCRBench v2: no {'English' if overall == EN_OVERALL else 'Chinese'} rows: the overall score divides by zero upstream"
        got = [values[g] for g in present]
        values[overall] = None if (not got or any(x is None for x in got)) else sum(got) / len(got)  # type: ignore[arg-type]
    keys = [k for k in REPORT_COLUMNS if k in values]
    if error is not None:
        values = dict.fromkeys(values)
    report = pl.DataFrame({k: [values[k]] for k in keys}, schema={k: pl.Float64 for k in keys})

    rows = frame.with_columns(
        pl.Series("group", group, pl.String),
        pl.Series("rule", rule, pl.String),
        pl.Series("score", score, pl.Float64),
        pl.Series("status", status, pl.String),
        pl.Series("reason", reason, pl.String),
    )
    by_status = {s: status.count(s) for s in ("ok", "ignored", "needs_wordnet", "reference_error")}
    missing = [k for k in keys if values[k] is None]
    incomplete = None
    if error is None and by_status["needs_wordnet"]:
        incomplete = (
            f"{by_status['needs_wordnet']} row(s) need WordNet (METEOR's synonym stage), which the archive does not hold: "
            f"{', '.join(missing)} not computed"
        )
    scored = [s for s, st in zip(score, status) if st == "ok"]
    stats: dict[str, Any] = {
        "benchmark": "ocrbench_v2",
        "variant": variant,
        "rows": n,
        "tasks": len(scored),
        "mean_score": sum(scored) / len(scored) if scored else None,
        "statuses": by_status,
        "rules": {r: rule.count(r) for r in sorted({x for x in rule if x is not None})},
        "needs_wordnet_rows": by_status["needs_wordnet"],
        # the executor's "incomplete" status: rows scored, but some report cells need WordNet
        "incomplete": incomplete,
        "reference_error": error,
        "crashed_rows": by_status["reference_error"],
    }
    return GradeResult(rows=rows, report=report, stats=stats)
