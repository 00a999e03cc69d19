"""CC-OCR (``CCOCRDataset``: the 39 ``CCOCR_*`` sub-datasets and the combined ``CCOCR``),
laid out as extract → score → aggregate.

Reference: open-compass/VLMEvalKit ``vlmeval/dataset/image_ccocr.py`` (``CCOCRDataset.evaluate``,
``_evaluate_single_dataset``) and ``vlmeval/dataset/utils/ccocr_evaluator/`` (``OcrEvaluator``,
``KieEvaluator``, ``ParsingEvaluator``, ``BaseMetric.__call__``) at e8e78f05.

The result table is split into sub-datasets by ``f"{category}_{l2-category}_{split}"`` (first-seen
order). In each, rows are keyed by ``image_name`` (a later row with the same name replaces the
earlier ground truth; a ``FAIL_MSG`` prediction is left out, so it scores as missing). The
``category`` of a sub-dataset picks the evaluator:

* ``multi_lan_ocr`` / ``multi_scene_ocr``: ``OcrEvaluator``: both texts tokenised (tabs and
  newlines to spaces, ``###``/``***`` removed, runs of whitespace collapsed, lowercased); word
  tokens, or characters when the split is ``Arabic``/``Japanese``/``Korean`` or contains ``zh``;
  scene OCR at word level keeps only ``[A-Za-z0-9]``. Per image the bag-of-tokens F1 (with the
  reference's ``1e-9`` terms); the summary's ``macro_f1_score`` is their mean.
* ``kie``: ``KieEvaluator``: the prediction parsed as JSON (inside a ```json fence when there
  is one; newlines removed), values normalised (full width to half width, the reference's
  spacing rules); per image the Donut nTED accuracy (``zss`` tree edit distance); the summary's
  ``acc`` is their mean (``/ (n + 1e-6)``).
* ``doc_parsing``: ``ParsingEvaluator`` by ``l2-category``: ``doc`` (LaTeX: preamble commands
  removed, the first fenced block, spaces and newlines dropped, 1 − normalised ``nltk``
  edit distance), ``table`` (TEDS with ``apted`` over ``lxml``'s HTML tree), ``formula`` and
  ``molecular`` (edit distance after their own clean-up). The summary's ``score`` is the mean.

The report (``{stem}_acc.csv``, ``d2df``): ``lan_ocr``, ``scene_ocr``, ``kie``,
``doc_parsing`` — the mean of the sub-datasets whose key contains that text (tested in that
order) — for those present, and ``total``, their mean (``0`` when none).

Variants (``--as-of``), newest first:

* ``2026-04`` (9e3cc84e, 2026-04-06, head): a KIE ground truth that is not strict JSON is
  read by ``json_repair`` then ``ast.literal_eval`` (``_load_json_like``).
* ``2025-07`` (d35dd654, 2025-07-08): ``json.loads`` of a text ground truth (raises on
  anything else); predictions ``str()``-ed first (so an empty cell reads as ``"nan"``).
  9cc14cd0 (2025-09-12) only added the ``_acc.csv`` file: the values are the same.
* ``2025-06`` (0c158ff1, 2025-06-17): as ``2025-07`` but predictions as pandas loaded them
  (a missing one is NaN: the document evaluators raise on it).

* ``2024-12`` (14385c59, 2024-12-30, the first version): the whole file is ONE dataset (its
  ``category``, ``l2-category`` and ``split`` each ``set(...).pop()``-ed: where several values
  would change the evaluation the answer is run-dependent upstream, here ``reference_error``), keyed by image_name
  across the file; predictions and answers as in ``2025-06``; an unknown category raises. It
  wrote ``{stem}_eval.json`` and returned the summary: the report here is that summary
  (``response_success_ratio`` included).

Where the reference raises (an empty text on both sides of an edit distance, two empty tables,
an unknown ``doc_parsing`` op, an unparsable KIE ground truth, a split that is not text), the row
statuses say so, ``stats["reference_error"]`` names the first, and the report values are null.
The optional dependencies (``pip install gaia-fast[ccocr]``): ``nltk``, ``zss``, ``apted``,
``lxml`` and (head variant) ``json_repair``, the libraries the reference calls.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections import Counter
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm._pandas import pandas_column, pandas_str

__all__ = ["FAIL_MSG", "VARIANTS", "grade", "kie_accuracy", "ocr_tokens"]

#: ``vlmeval/inference.py``'s failure message: such predictions are left out.
FAIL_MSG = "Failed to obtain answer via API."

VARIANTS: tuple[str, ...] = ("2026-04", "2025-07", "2025-06", "2024-12")

_REQUIRED = ("answer", "prediction", "category", "image_name", "l2-category", "split")


class _ReferenceError(Exception):
    """The reference raises here (message says how)."""


def _deps() -> Any:
    try:
        import apted  # noqa: F401
        import lxml  # noqa: F401
        import nltk  # noqa: F401
        import zss  # noqa: F401
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"CC-OCR grading needs the reference's libraries (nltk, zss, apted, lxml): "
            f"pip install 'gaia-fast[ccocr]' ({e})"
        ) from e


# --------------------------------------------------------------------------------------
# OCR (ocr_evaluator.py)
# --------------------------------------------------------------------------------------


def ocr_tokens(text: str, word_level: bool = True, lower: bool = True, alphanum_only: bool = False) -> list[str]:
    """``text_normalize_and_tokenize``."""
    text = text.replace("\t", " ").replace("\n", " ").replace("###", "").replace("***", "")
    text = re.sub(r"\s+", " ", text)
    if not word_level:
        text = text.replace(" ", "")
    tokens = text.split(" ") if word_level else list(text)
    out = []
    for t in tokens:
        if lower:
            t = t.lower()
        if alphanum_only:
            t = re.sub("[^A-Za-z0-9]+", "", t)
        if t:
            out.append(t)
    return out


def _ocr(group: str, dataset: Any, gt_info: dict, pred_info: dict) -> tuple[dict[str, float], dict[Any, tuple[float, str]]]:
    word_level, alphanum = True, False
    if dataset in ("Arabic", "Japanese", "Korean"):
        word_level = False
    elif not isinstance(dataset, str):
        raise _ReferenceError(f"split {dataset!r} is not text: '\"zh\" in dataset' raises TypeError")
    elif "zh" in dataset:
        word_level = False
    if "multi_scene_ocr" in group and word_level:
        alphanum = True
    per: dict[Any, tuple[float, str]] = {}
    f1s: list[float] = []
    right_t = gt_t = pred_t = 0
    for name, gt in gt_info.items():
        pred = pred_info.get(name, "")
        p_tok = ocr_tokens(str(pred).strip(), word_level, True, alphanum)
        g_tok = ocr_tokens(str(gt).strip(), word_level, True, alphanum)
        pc = Counter(p_tok)
        right = sum(min(c, pc.get(t, 0)) for t, c in Counter(g_tok).items())
        right_t, gt_t, pred_t = right_t + right, gt_t + len(g_tok), pred_t + len(p_tok)
        rec = right / (len(g_tok) + 1e-9)
        prec = right / (len(p_tok) + 1e-9)
        f1 = 2 * rec * prec / (rec + prec + 1e-9)
        f1s.append(f1)
        per[name] = (f1, "ocr_word" if word_level else "ocr_char")
    rec_m = right_t / (gt_t + 1e-9)
    prec_m = right_t / (pred_t + 1e-9)
    summary = {
        "macro_f1_score": sum(f1s) / (len(f1s) + 1e-9),
        "mirco_f1_score": 2 * rec_m * prec_m / (rec_m + prec_m + 1e-9),
    }
    return summary, per


# --------------------------------------------------------------------------------------
# KIE (kie_evaluator.py, after Donut)
# --------------------------------------------------------------------------------------


def _post_process_to_json(text: Any) -> Any:
    try:
        if "```json" in text:
            m = re.search(r"```json(.*?)```", text, re.DOTALL)
            json_str = m.group(1).strip().replace("\n", "")  # type: ignore[union-attr]
        else:
            json_str = text.strip().replace("\n", "")
        return json.loads(json_str)
    except Exception:  # noqa: BLE001 - upstream: any failure is "no answer"
        return None


def _halfwidth(text: str) -> str:
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0x3000:
            cp = 0x20
        elif 0xFF01 <= cp <= 0xFF5E:
            cp -= 0xFEE0
        out.append(chr(cp))
    return "".join(out).replace("、", ",")


def _spaces(text: str) -> str:
    text = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "", text)
    text = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[a-zA-Z0-9])", "", text)
    text = re.sub(r"(?<=[a-zA-Z0-9])\s+(?=[\u4e00-\u9fff])", "", text)
    text = re.sub(r"(?<![0-9])\s*([,.!?:;])\s*", r"\1 ", text)
    text = re.sub(r"(?<=[0-9])(?=[a-zA-Z])", " ", text)
    text = re.sub(r"(?<=[a-zA-Z])(?=[0-9])", " ", text)
    return re.sub(r"\s+", " ", text)


def _kie_norm(text: Any) -> str:
    return _spaces(_halfwidth(str(text)))


def _norm_values(d: Any) -> Any:
    """``normalize_values_of_nested_dict`` with the KIE normaliser (texts directly inside a
    list are left alone, as upstream)."""
    if isinstance(d, dict):
        return {k: _norm_values(v) for k, v in d.items()}
    if isinstance(d, list):
        return [_norm_values(x) if isinstance(x, dict) else x for x in d]
    if isinstance(d, str):
        return _kie_norm(d)
    return d


def _normalize_dict(data: Any) -> Any:
    if isinstance(data, dict):
        new: Any = {}
        for key in sorted(data.keys(), key=lambda k: (len(k), k)):
            value = _normalize_dict(data[key])
            if value:
                if not isinstance(value, list):
                    value = [value]
                new[key] = value
    elif isinstance(data, list):
        if all(isinstance(item, dict) for item in data):
            new = [v for v in (_normalize_dict(item) for item in data) if v]
        else:
            new = [str(item).strip() for item in data if type(item) in {str, int, float} and str(item).strip()]
    else:
        new = [str(data).strip()]
    return new


def _flatten(data: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []

    def walk(value: Any, key: str = "") -> None:
        if type(value) is dict:
            for ck, cv in value.items():
                walk(cv, f"{key}.{ck}" if key else ck)
        elif type(value) is list:
            for item in value:
                walk(item, key)
        else:
            out.append((key, value))

    walk(data)
    return out


def _tree(data: Any, name: str = "<root>") -> Any:
    from zss import Node

    node = Node(name)
    if isinstance(data, dict):
        for key, value in data.items():
            node.addkid(_tree(value, key))
    elif isinstance(data, list):
        if all(isinstance(item, dict) for item in data):
            for item in data:
                node.addkid(_tree(item, "<subtree>"))
        else:
            for item in data:
                node.addkid(Node(f"<leaf>{item}"))
    else:
        raise _ReferenceError(f"construct_tree_from_dict raises on {data!r}")
    return node


def _update_cost(a: Any, b: Any) -> int:
    from nltk import edit_distance

    la, lb = a.label, b.label
    a_leaf, b_leaf = "<leaf>" in la, "<leaf>" in lb
    if a_leaf and b_leaf:
        return edit_distance(la.replace("<leaf>", ""), lb.replace("<leaf>", ""))
    if not a_leaf and b_leaf:
        return 1 + len(lb.replace("<leaf>", ""))
    if a_leaf and not b_leaf:
        return 1 + len(la.replace("<leaf>", ""))
    return int(la != lb)


def _ins_del_cost(node: Any) -> int:
    label = node.label
    return len(label.replace("<leaf>", "")) if "<leaf>" in label else 1


def kie_accuracy(pred: Any, answer: Any) -> float:
    """``cal_acc``: ``max(0, 1 - TED(pred, answer) / TED({}, answer))`` over the normalised
    trees (values already normalised). ``zss`` returns numpy numbers, so an answer that
    normalises to nothing gives ``nan`` or ``-inf`` there, not an error: 0, as upstream."""
    import warnings

    import zss

    def dist(x: Any, y: Any) -> float:
        return zss.distance(
            x, y, get_children=zss.Node.get_children, insert_cost=_ins_del_cost,
            remove_cost=_ins_del_cost, update_cost=_update_cost, return_operations=False,
        )

    target = _tree(_normalize_dict(answer))
    v1 = dist(_tree(_normalize_dict(pred)), target)
    v2 = dist(_tree(_normalize_dict({})), target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's x / 0
        return max(0, 1 - v1 / v2)


def _load_gt(text: Any, variant: str) -> Any:
    if variant != "2026-04":
        if isinstance(text, str):
            try:
                return json.loads(text)
            except ValueError as e:
                raise _ReferenceError(f"json.loads of the answer raises {type(e).__name__}: {e}") from e
        return text
    if isinstance(text, (dict, list)) or not isinstance(text, str):
        return text
    from json_repair import repair_json

    last: Exception | None = None
    for parser in (json.loads, lambda s: repair_json(s, return_objects=True), ast.literal_eval):
        try:
            parsed = parser(text)
            if isinstance(parsed, (dict, list)):
                return parsed
        except Exception as e:  # noqa: BLE001 - upstream tries the next parser
            last = e
    if last is not None:
        raise _ReferenceError(f"_load_json_like of the answer raises {type(last).__name__}: {last}")
    return text


def _kie(gt_info: dict, pred_info: dict, variant: str) -> tuple[dict[str, float], dict[Any, tuple[float, str]]]:
    gts = {k: _load_gt(v, variant) for k, v in gt_info.items()}
    preds = _norm_values(pred_info)
    gts = _norm_values(gts)
    # cal_f1_all: field-level micro F1
    tp = fn_fp = 0
    for name, answer in gts.items():
        p = _flatten(_normalize_dict(preds.get(name, {})))
        a = _flatten(_normalize_dict(answer))
        for f in p:
            if f in a:
                tp += 1
                a.remove(f)
            else:
                fn_fp += 1
        fn_fp += len(a)
    f1 = tp / (tp + fn_fp / 2 + 1e-6)
    per: dict[Any, tuple[float, str]] = {}
    for name, answer in gts.items():
        acc = kie_accuracy(preds.get(name, {}), answer)
        per[name] = (acc, "kie_nted" if name in preds else "kie_no_answer")
    acc_avg = sum(a for a, _ in per.values()) / (len(per) + 1e-6)
    return {"f1_score": f1, "acc": acc_avg}, per


# --------------------------------------------------------------------------------------
# Document parsing (doc_parsing_evaluator.py)
# --------------------------------------------------------------------------------------

_LATEX_PATTERNS = (
    r"\\documentclass\{.*?\}",
    r"\\usepackage\[.*?\]\{.*?\}",
    r"\\usepackage\{.*?\}",
    r"\\geometry\{.*?\}",
    r"\\begin\{document\}",
    r"\\end\{document\}",
    r"\\noindent",
)


def _edit_score(pred: str, gt: str, name: Any) -> float:
    import nltk

    longest = max(len(pred), len(gt))
    if longest == 0:
        raise _ReferenceError(f"image {name!r}: prediction and answer both empty: the edit distance divides by zero")
    return 1 - nltk.edit_distance(pred, gt) / longest


def _need_str(value: Any, what: str, name: Any) -> str:
    if not isinstance(value, str):
        raise _ReferenceError(f"image {name!r}: the {what} is {type(value).__name__}, not text: the reference's str methods raise")
    return value


class _TableTree:
    """apted's tree for TEDS: tag, colspan, rowspan, cell tokens, children."""

    def __init__(self, tag: str, colspan: int | None, rowspan: int | None, content: list[str] | None) -> None:
        self.tag, self.colspan, self.rowspan, self.content = tag, colspan, rowspan, content
        self.children: list[_TableTree] = []


def _teds(pred_html: str, true_html: str) -> float:
    """TEDS (IBM, as vendored by the reference): 1 − APTED distance / the larger node count."""
    import nltk
    from apted import APTED, Config
    from lxml import html

    class _Config(Config):  # type: ignore[misc]
        def rename(self, a: _TableTree, b: _TableTree) -> float:
            if a.tag != b.tag or a.colspan != b.colspan or a.rowspan != b.rowspan:
                return 1.0
            if a.tag == "td" and (a.content or b.content):
                return nltk.edit_distance(a.content, b.content) / max(len(a.content), len(b.content))  # type: ignore[arg-type]
            return 0.0

        def children(self, node: _TableTree) -> list[_TableTree]:
            return node.children

    def tokens(node: Any, out: list[str]) -> None:
        out.append(f"<{node.tag}>")
        if node.text is not None:
            out.extend(node.text)
        for n in node.getchildren():
            tokens(n, out)
        if node.tag != "unk":
            out.append(f"</{node.tag}>")
        if node.tag != "td" and node.tail is not None:
            out.extend(node.tail)

    def load(node: Any, parent: _TableTree | None = None) -> _TableTree:
        if node.tag == "td":
            toks: list[str] = []
            tokens(node, toks)
            new = _TableTree(node.tag, int(node.attrib.get("colspan", "1")), int(node.attrib.get("rowspan", "1")), toks[1:-1])
        else:
            new = _TableTree(node.tag, None, None, None)
        if parent is not None:
            parent.children.append(new)
        if node.tag != "td":
            for n in node.getchildren():
                load(n, new)
        return new

    if not pred_html or not true_html:
        return 0.0
    parser = html.HTMLParser(remove_comments=True, encoding="utf-8")
    pred = html.fromstring(pred_html, parser=parser)
    true = html.fromstring(true_html, parser=parser)
    if not (pred.xpath("body/table") and true.xpath("body/table")):
        return 0.0
    pred, true = pred.xpath("body/table")[0], true.xpath("body/table")[0]
    n_nodes = max(len(pred.xpath(".//*")), len(true.xpath(".//*")))
    distance = APTED(load(pred), load(true), _Config()).compute_edit_distance()
    if n_nodes == 0:
        raise _ReferenceError("two empty tables: TEDS divides by zero")
    return 1.0 - float(distance) / n_nodes


def _doc_one(op: str, pred: Any, gt: Any, name: Any) -> float:
    pred = _need_str(pred, "prediction", name)
    if op == "doc":
        for pattern in _LATEX_PATTERNS:
            pred = re.sub(pattern, "", pred)
        parts = pred.split("```")
        if len(parts) > 1:
            pred = parts[1]
        pred = pred.replace("```latex", "").replace("```", "")
        pred = pred.replace(" ", "").replace("\n", "")
        gt = _need_str(gt, "answer", name).replace(" ", "").replace("\n", "")
        return _edit_score(pred, gt, name)
    if op == "table":
        for pattern in _LATEX_PATTERNS:
            pred = re.sub(pattern, "", pred)
        parts = pred.split("```html")
        if len(parts) > 1:
            pred = parts[1]
        pred = pred.replace("```", "").replace(" ", "").replace("\n", "").replace("，", ",")
        gt = _need_str(gt, "answer", name).replace(" ", "").replace("\n", "")
        return _teds(f"<html><body>{pred}</body></html>", f"<html><body>{gt}</body></html>")
    if op == "formula":
        pred = pred.replace("\n", " ").replace("```latex", "").replace("```", "").replace("\t", " ").replace(" ", "")
    else:  # molecular
        pred = pred.replace("\n", "").replace(" ", "").replace("<smiles>", "").replace("</smiles>", "")
    gt = _need_str(gt, "answer", name).replace(" ", "")
    return _edit_score(pred, gt, name)


def _doc(op: str, gt_info: dict, pred_info: dict) -> tuple[dict[str, float], dict[Any, tuple[float, str]]]:
    if op not in ("doc", "table", "molecular", "formula"):
        raise _ReferenceError(f"doc parsing unsupported op: {op} (ValueError upstream)")
    per: dict[Any, tuple[float, str]] = {}
    for name, gt in gt_info.items():
        if name not in pred_info:
            per[name] = (0, "doc_no_answer")
            continue
        per[name] = (_doc_one(op, pred_info[name], gt, name), f"doc_{op}")
    scores = [s for s, _ in per.values()]
    return {"score": sum(scores) / len(scores)}, per


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------


def _cells(frame: pl.DataFrame, name: str) -> list[Any]:
    kind, cells = pandas_column(frame[name])
    values = cells.to_list()
    return [math.nan if v is None else v for v in values] if kind == "object" else values


def _is_fail(pred: Any) -> bool:
    return isinstance(pred, str) and pred == FAIL_MSG


def grade(
    frame: pl.DataFrame,
    *,
    variant: str | None = None,
    seed: int = 0,
    judge: Any = None,
) -> GradeResult:
    """Grade a VLMEvalKit CC-OCR result table (one sub-dataset or the combined ``CCOCR``).

    ``rows``: every input row in order plus ``sub_dataset`` (the reference's key), ``rule``
    (``ocr_word``/``ocr_char``, ``kie_nted``/``kie_no_answer``, ``doc_<op>``/``doc_no_answer``,
    ``fail_msg``...), ``score`` (the row's image's score: OCR F1, KIE nTED accuracy, parsing
    similarity; rows sharing an image_name share it) and ``status`` (``ok``; ``superseded``
    for a row whose image_name a later row of its sub-dataset replaced; ``skipped`` where no
    evaluator exists for the category; ``reference_error``). ``report``: the ``_acc.csv``
    row. ``stats``: per sub-dataset summaries as the reference's ``_comprehensive_eval.json``
    ``summaries`` (with ``response_success_ratio``). No judge; ``seed`` is unused.
    """
    frame = _check_frame(frame)
    variant = VARIANTS[0] if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"ccocr: unknown variant {variant!r}; expected one of {', '.join(map(repr, VARIANTS))}")
    if judge is not None:
        raise ValueError("ccocr: the reference evaluation has no judge step")
    for c in _REQUIRED:
        if c not in frame.columns:
            raise ValueError(f"ccocr: the result table has no {c!r} column (required_colume NOT found upstream; columns: {sorted(frame.columns)})")
    _deps()
    n = frame.height
    preds = pandas_str(frame["prediction"]).to_list() if variant not in ("2025-06", "2024-12") else _cells(frame, "prediction")
    answers = _cells(frame, "answer")
    names = _cells(frame, "image_name")
    splits = _cells(frame, "split")
    cats = pandas_str(frame["category"]).to_list()
    l2s = pandas_str(frame["l2-category"]).to_list()
    keys = [f"{c}_{l}_{s}" for c, l, s in zip(cats, l2s, pandas_str(frame["split"]).to_list())]
    early_error: str | None = None
    if variant == "2024-12":
        # one dataset per file: category, l2-category and split each set(...).pop()-ed
        # (only where the popped value changes the evaluation: the category always, the
        # l2-category for doc parsing, the split for OCR when it changes the tokenisation)
        splits = pandas_str(frame["split"]).to_list()  # str() of each, as set([str(x) ...]) gives
        group0 = cats[0] if n else ""
        char_level = {s in ("Arabic", "Japanese", "Korean") or "zh" in s for s in splits}
        for c, varies in (
            ("category", len(set(cats)) > 1),
            ("l2-category", group0 == "doc_parsing" and len(set(l2s)) > 1),
            ("split", group0 in ("multi_lan_ocr", "multi_scene_ocr") and len(char_level) > 1),
        ):
            if varies:
                early_error = early_error or f"{c} has several values: set(...).pop() picks an arbitrary one upstream (the result depends on the run)"
        keys = ["dataset"] * n

    order: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        order.setdefault(k, []).append(i)

    scores: list[float | None] = [None] * n
    rules: list[str] = ["fail_msg" if _is_fail(p) else "" for p in preds]
    status: list[str] = ["ok"] * n
    summaries: dict[str, dict[str, float]] = {}
    error: str | None = early_error
    for key, idx in order.items():
        if early_error:
            for i in idx:
                status[i] = "reference_error"
            continue
        gt_info: dict[Any, Any] = {}
        pred_info: dict[Any, Any] = {}
        last: dict[Any, int] = {}
        for i in idx:
            gt_info[names[i]] = answers[i]
            last[names[i]] = i
            if not _is_fail(preds[i]):
                pred_info[names[i]] = preds[i]
        group, op, dataset = cats[idx[0]], l2s[idx[0]], splits[idx[0]]
        try:
            if group in ("multi_lan_ocr", "multi_scene_ocr"):
                post = pred_info
                summary, per = _ocr(group, dataset, gt_info, pred_info)
            elif group == "kie":
                post = {k: v for k, v in ((k, _post_process_to_json(v)) for k, v in pred_info.items()) if v is not None}
                summary, per = _kie(gt_info, post, variant)
            elif group == "doc_parsing":
                post = pred_info
                summary, per = _doc(op, gt_info, pred_info)
            elif variant == "2024-12":
                raise _ReferenceError(f"evaluator not defined for: {group} (ValueError upstream)")
            else:  # evaluator not defined: the reference warns and leaves it out
                for i in idx:
                    status[i], rules[i] = "skipped", "no_evaluator"
                continue
        except _ReferenceError as e:
            error = error or f"sub-dataset {key!r}: {e}"
            for i in idx:
                status[i] = "reference_error"
            continue
        # BaseMetric.__call__: parsed responses plus those whose post-processing failed
        summary["response_success_ratio"] = len(pred_info) / (len(gt_info) + 1e-9)
        summaries[key] = summary
        for i in idx:
            s, rule = per[names[i]]
            scores[i] = float(s)
            if not rules[i]:
                rules[i] = "kie_unparsed" if group == "kie" and names[i] in pred_info and names[i] not in post else rule
            if last[names[i]] != i:
                status[i] = "superseded"

    if variant == "2024-12":
        return _grade_result(frame, keys, rules, scores, status, summaries, error, variant, _first_summary(summaries, error))
    buckets: dict[str, list[float]] = {"lan_ocr": [], "scene_ocr": [], "kie": [], "doc_parsing": []}
    # nested ifs as upstream: a key that names a bucket never falls through to the next one
    for key, summary in summaries.items():
        if "lan_ocr" in key:
            if "macro_f1_score" in summary:
                buckets["lan_ocr"].append(summary["macro_f1_score"])
        elif "scene_ocr" in key:
            if "macro_f1_score" in summary:
                buckets["scene_ocr"].append(summary["macro_f1_score"])
        elif "kie" in key:
            if "acc" in summary:
                buckets["kie"].append(summary["acc"])
        elif "doc_parsing" in key and "score" in summary:  # the last branch: the same as nested
            buckets["doc_parsing"].append(summary["score"])
    res: dict[str, float | None] = {}
    for b, vals in buckets.items():
        if vals:
            res[b] = sum(vals) / len(vals)
    avgs = list(res.values())
    res["total"] = sum(avgs) / len(avgs) if avgs else 0  # type: ignore[arg-type]
    if error:  # the reference raises and writes no report: its columns, null
        present = {b for k in order for b in buckets if b in k}
        res = {b: None for b in buckets if b in present} | {"total": None}
    report = pl.DataFrame({k: [v] for k, v in res.items()}, schema={k: (pl.Int64 if v == 0 and isinstance(v, int) else pl.Float64) for k, v in res.items()})
    return _grade_result(frame, keys, rules, scores, status, summaries, error, variant, report)


def _first_summary(summaries: dict[str, dict[str, float]], error: str | None) -> pl.DataFrame:
    """2024-12: what evaluate returned, the one dataset's summary (null values on an error)."""
    if error or not summaries:
        return pl.DataFrame({"error": [error]}, schema={"error": pl.String})
    summary = next(iter(summaries.values()))
    return pl.DataFrame({k: [float(v)] for k, v in summary.items()}, schema={k: pl.Float64 for k in summary})


def _grade_result(
    frame: pl.DataFrame, keys: list[str], rules: list[str], scores: list[float | None], status: list[str],
    summaries: dict[str, dict[str, float]], error: str | None, variant: str, report: pl.DataFrame,
) -> GradeResult:
    n = frame.height

    rows = frame.with_columns(
        pl.Series("sub_dataset", keys, pl.String),
        pl.Series("rule", rules, pl.String),
        pl.Series("score", scores, pl.Float64),
        pl.Series("status", status, pl.String),
    )
    ok = [s for s, st in zip(scores, status) if st == "ok" and s is not None]
    stats: dict[str, Any] = {
        "benchmark": "ccocr",
        "variant": variant,
        "rows": n,
        "tasks": len(ok),
        "sub_datasets": summaries,
        "statuses": dict(sorted(Counter(status).items())),
        "rules": dict(sorted(Counter(rules).items())),
        "mean_score": sum(ok) / len(ok) if ok else math.nan,
        "reference_error": error,
        "crashed_rows": sum(1 for s in status if s == "reference_error"),
    }
    return GradeResult(rows=rows, report=report, stats=stats)
