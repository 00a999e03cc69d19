"""VLMEvalKit ``ImageMCQDataset`` report variants and per-dataset preprocessing, on top of the
vanilla and circular flows of :mod:`gaia_fast.scorers.vlm.mcq`.

Each upstream dataset class below scores rows exactly as ``mcq_vanilla_eval`` (or
``mcq_circular_eval``) does and then differs in one step, which lives here:

* before the flow: MMMU's ``MMMU_preproc`` (an open question becomes ``A = answer``,
  ``B = "Other Answers"``; a non-letter answer reads as ``A``), MMMU-Pro's COT
  ``cot_postproc`` (two versions), LEGO's ``can_infer_lego`` (sort questions read a four-letter
  sequence);
* after it: the report (``report_acc_MMVP``, ``report_acc_MMSci``, ``report_acc_hrbench``,
  CV-Bench-2D's per-source mean, GMAI-MMBench's ``report_acc_by_groups`` side tables,
  3DSRBench's flip / circular groupings), or a ``ConcatDataset`` (MMMB, MTL_MMBench_DEV) that
  grades each ``SUB_DATASET`` and stacks the reports with a ``DATASET`` column.

Where the reference's output order comes from iterating a Python ``set`` of strings (CV-Bench's
sources, HR-Bench's categories, every ``split`` list) it changes with ``PYTHONHASHSEED``; here
it is sorted. CV-Bench-2D's ``Overall`` sums the source means in that set order, so its last
bit can differ from a given upstream run; here the sum is in sorted order.

``variant`` is the ``can_infer`` version (``classic``, ``2025-08``, ``2026-06``), optionally
with ``+`` flags naming an older era of the dataset's own step: ``+report_acc`` (MMVP before
b77b16fb, 2025-12-20: plain ``report_acc``), ``+cot-2026-07`` (MMMU-Pro COT from 944ee120,
2026-07-03: only the text after the last ``Answer:`` is read). Pure Python over the rows
the native flow scored; no native code of its own.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import Any

import polars as pl

from gaia_fast.scorers.vlm import GradeResult, mcq
from gaia_fast.scorers.vlm import as_frame as _check_frame
from gaia_fast.scorers.vlm.judged import _pairwise_sum
from gaia_fast.scorers.vlm.mcq_tables import MMB_ABBRS

#: The judge records this family replays: the executor passes ``find_records(path, RECORD_KIND)``
#: as ``recorded=`` (it wraps mcq.grade).
RECORD_KIND = "mcq"

__all__ = ["PREPROCS", "REPORTS", "VARIANTS", "can_infer_sequence", "cot_postproc", "grade", "mmmu_eval_shape", "mmmu_preproc"]

#: Report variants ``grade(report=...)`` accepts.
REPORTS = ("acc", "mmt", "mmvp", "mmsci", "hrbench", "groups", "cvbench", "3dsr", "topviewrs")
#: Row preprocessing ``grade(preproc=...)`` accepts.
PREPROCS = (None, "mmmu", "mmmu-cot")
_FLAGS = frozenset({"report_acc", "cot-2026-07"})
#: Every ``variant`` the registry's date tables give this module: the ``can_infer`` versions
#: (``2023-12`` only for MMMU's ``MMMU_eval``) and the flagged eras.
VARIANTS = (*mcq.VARIANTS, "classic+report_acc", "2025-08+report_acc", "2026-06+cot-2026-07")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: GMAI-MMBench's side reports (``{stem}_{group}_acc.csv``), in the reference's order.
GMAI_GROUPS = ("clinical vqa task", "department", "perceptual granularity")
_MMSCI_SETTINGS = ("Fig2Cap", "SubFig2Cap", "SubCap2Fig")
#: ``ConcatDataset.DATASET_SETS``: each set's members, in the order upstream grades them.
CONCAT_SETS = {
    "MMMB": ("MMMB_ar", "MMMB_cn", "MMMB_en", "MMMB_pt", "MMMB_ru", "MMMB_tr"),
    "MTL_MMBench_DEV": ("MMBench_dev_ar", "MMBench_dev_cn", "MMBench_dev_en", "MMBench_dev_pt", "MMBench_dev_ru", "MMBench_dev_tr"),
}


# --------------------------------------------------------------------------------------
# Preprocessing
# --------------------------------------------------------------------------------------


def mmmu_eval_shape(columns: list[str] | tuple[str, ...]) -> bool:
    """Whether a result file has the columns the 2023-12 ``MMMU_eval`` reads
    (``question_type``, ``field``, ``subfield``, ``topic_difficulty``, ``image_type`` or
    ``img_type``): the side branch's MMMU_DEV_VAL file; main's files lack them."""
    have = set(columns)
    return {"question_type", "field", "subfield", "topic_difficulty"} <= have and bool({"image_type", "img_type"} & have)


def _col(frame: pl.DataFrame, name: str) -> str | None:
    """The frame column VLMEvalKit reads as ``name`` (names lowercased except single
    uppercase letters; a later duplicate wins)."""
    found = None
    for c in frame.columns:
        key = c if (len(c) == 1 and c in _LETTERS) else c.lower()
        if key == name:
            found = c
    return found


def _need(frame: pl.DataFrame, name: str, what: str) -> str:
    c = _col(frame, name)
    if c is None:
        raise ValueError(f"{what}: the result table has no {name!r} column (columns: {frame.columns})")
    return c


def mmmu_preproc(frame: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """``MMMU_preproc`` plus ``mcq_vanilla_eval``'s MMMU answer map: a row whose ``A`` is
    empty gets ``A = answer`` and ``B = "Other Answers"``; an answer that is not one uppercase
    letter reads as ``A``. Returns the frame and the number of open questions rewritten."""
    a, b, ans = _need(frame, "A", "MMMU_preproc"), _col(frame, "B"), _need(frame, "answer", "MMMU_preproc")
    answer = mcq._text(frame[ans])
    open_q = frame[a].is_null()
    new_a = pl.when(open_q).then(answer).otherwise(mcq._text(frame[a]))
    new_b = pl.when(open_q).then(pl.lit("Other Answers")).otherwise(mcq._text(frame[b]) if b else pl.lit(None, pl.String))
    gt = pl.when(answer.is_in(list(_LETTERS))).then(answer).otherwise(pl.lit("A"))
    out = frame.with_columns(new_a.alias(a), new_b.alias(b or "B"), gt.alias(ans))
    return out, int(open_q.sum())


def cot_postproc(response: str, era: str = "2025-02") -> str:
    """MMMU-Pro's ``cot_postproc``: the letter of the ``Answer:`` line. ``era="2025-02"``
    (87f2dbe5): exactly one such line, whose uppercase letters (the ``A`` of ``Answer``
    included) must all be one letter, else the line after its first 7 characters.
    ``era="2026-07"`` (944ee120): the last such line, only the text after ``Answer:``."""
    lines = [x.strip() for x in response.strip().split("\n")]
    cands = [x for x in lines if x.startswith("Answer:")]
    if era == "2025-02":
        if len(cands) != 1:
            return response
        seen = {ch for ch in cands[0] if ch in _LETTERS}
        return next(iter(seen)) if len(seen) == 1 else cands[0][7:]
    if not cands:
        return response
    tail = cands[-1][len("Answer:") :]
    seen_tail = {ch for ch in tail if ch in _LETTERS}
    return next(iter(seen_tail)) if len(seen_tail) == 1 else tail


_SEQ_ORDER = (
    r"(?:first|1st|首先|第一步).*?([A-D])",
    r"(?:second|2nd|其次|第二步).*?([A-D])",
    r"(?:third|3rd|再次|第三步).*?([A-D])",
    r"(?:fourth|4th|最后|第四步).*?([A-D])",
)
_SEQ_STEP = r"(?:step\s*[\d一二三四]+|步骤\s*[\d一二三四]+|第\s*[\d一二三四]\s*步).*?([A-D])"


def can_infer_sequence(answer: str) -> str | None:
    """``can_infer_sequence`` (LEGO sort questions, aca64dbb, unchanged to head): four
    distinct letters ``A``-``D`` as one word, else the first/second/third/fourth phrases, else
    four "step" phrases. None where upstream returns False."""
    up = answer.upper()
    m = re.search(r"\b([A-D]{4})\b", up)
    if m and len(set(m.group(1))) == 4:
        return m.group(1)
    seq: list[str] = []
    for pat in _SEQ_ORDER:
        m = re.search(pat, up, re.IGNORECASE)
        if m and m.group(1).upper() not in seq:
            seq.append(m.group(1).upper())
    if len(seq) == 4:
        return "".join(seq)
    steps = re.findall(_SEQ_STEP, up, re.IGNORECASE)
    if len(steps) >= 4:
        uniq: list[str] = []
        for s in steps[:4]:
            if s.upper() not in uniq:
                uniq.append(s.upper())
        if len(uniq) == 4:
            return "".join(uniq)
    return None


def _can_infer_text(answer: str, choices: dict[str, str], matcher: str) -> str | None:
    """``can_infer_text`` (``specs/vlmevalkit.md`` §1.2; the length guard from ``2025-08``)."""
    a = answer.lower()
    if matcher in ("2025-08", "2026-06") and len(a) > 2 * sum(len(t) for t in choices.values()):
        return None
    cands = [k for k, t in choices.items() if t.lower() in a]
    return cands[0] if len(cands) == 1 else None


def _lego_sort_rows(rows: pl.DataFrame, source: pl.DataFrame, matcher: str) -> tuple[pl.DataFrame, int]:
    """``can_infer_lego`` for the ``sort`` rows of an exact-matching run: the sequence rule,
    else the text stage, else ``Z``; the other rows keep ``can_infer``'s verdict."""
    qt = _need(source, "question_type", "LEGO")
    pred_c, ans_c = _need(source, "prediction", "LEGO"), _need(source, "answer", "LEGO")
    letters = [c for c in source.columns if len(c) == 1 and c in _LETTERS]
    sort_rows = (mcq._text(source[qt]) == "sort").fill_null(False).arg_true().to_list()
    if not sort_rows:
        return rows, 0
    extracted = rows["extracted"].to_list()
    score = rows["score"].to_list()
    reason = rows["reason"].to_list()
    status = rows["status"].cast(pl.String).to_list()
    preds = mcq._text(source[pred_c]).fill_null("nan").to_list()
    answers = mcq._text(source[ans_c]).to_list()
    option_cols = {ch: mcq._text(source[ch]).to_list() for ch in letters}
    for i in sort_rows:
        if status[i] == "answer_not_in_options":
            status[i] = "ok"  # a sort question's answer is a letter sequence by design
        if status[i] not in _SORT_GRADED:
            continue
        choices = {ch: option_cols[ch][i] for ch in letters if option_cols[ch][i] is not None}
        seq = can_infer_sequence(preds[i])
        if seq is not None:
            opt, why = seq, f"can_infer_lego (sort): the sequence {seq}"
        else:
            text = _can_infer_text(preds[i], choices, matcher)
            if text is not None:
                opt, why = text, f"can_infer_lego (sort): option text of {text}"
            else:
                opt, why = "Z", "exact_matching: can_infer_lego found no sequence or option, so Z (as the reference)"
        extracted[i] = opt
        score[i] = float(opt == answers[i])
        reason[i] = why
    out = rows.with_columns(
        pl.Series("extracted", extracted, pl.String),
        pl.Series("score", score, pl.Float64),
        pl.Series("reason", reason, pl.String),
        pl.Series("status", status, pl.String).cast(rows["status"].dtype),
    )
    return out, len(sort_rows)


#: Row statuses whose row the reference scores (the truth flags keep its decision).
_SORT_GRADED = frozenset({"ok", "no_prediction", "duplicate_index"})


# --------------------------------------------------------------------------------------
# Reports (over the scored rows, in upstream's order: sorted by index)
# --------------------------------------------------------------------------------------


def _scored(rows: pl.DataFrame, source: pl.DataFrame, need: tuple[str, ...], what: str) -> pl.DataFrame:
    """The rows upstream's report sees: scored (status not ``error``), sorted by ``index``,
    with ``hit`` and the named columns (lowercased names)."""
    cols = mcq._column_map(source, lower=True)
    order = mcq._index_order(source, cols)
    data: dict[str, pl.Series] = {"hit": rows["score"], "_ok": rows["status"] != "error"}
    for name in need:
        c = _col(source, name)
        if c is None:
            raise ValueError(f"{what}: the result table has no {name!r} column (columns: {source.columns})")
        data[name] = source[c]
    df = pl.DataFrame(data).gather(order)
    return df.filter(pl.col("_ok")).drop("_ok").with_columns(pl.col("hit").cast(pl.Int64))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def report_mmvp(df: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """``report_acc_MMVP``: ``Average`` (row accuracy) and ``Overall`` (pairs of consecutive
    rows, by index, both right). The reference asserts an even row count and equal questions
    in each pair; where that fails the error is returned beside the numbers."""
    hits = df["hit"].to_list()
    q = [str(x) for x in df["question"].to_list()]
    error = None
    if len(hits) % 2:
        error = f"AssertionError: report_acc_MMVP needs an even number of rows, got {len(hits)}"
    else:
        bad = next((i for i in range(len(hits) // 2) if q[2 * i] != q[2 * i + 1]), None)
        if bad is not None:
            error = f"AssertionError: report_acc_MMVP: rows {2 * bad} and {2 * bad + 1} (by index) hold different questions"
    pairs = [hits[2 * i] and hits[2 * i + 1] for i in range(len(hits) // 2)]
    report = pl.DataFrame({"Average": [_mean(hits)], "Overall": [_mean(pairs)]}, schema={"Average": pl.Float64, "Overall": pl.Float64})
    return report, error


def report_mmsci(df: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """``report_acc_MMSci``: rows of the three settings only; a row per subject (sorted), per
    ``CATEGORY_``-prefixed category (sorted), then ``Overall``; a mean per setting (0 where a
    subject has none of it) and ``Avg``, their mean in sorted setting order."""
    sub = df.filter(pl.col("setting").cast(pl.String).is_in(list(_MMSCI_SETTINGS)))
    present = sorted(set(sub["setting"].cast(pl.String).to_list()))
    missing = [s for s in _MMSCI_SETTINGS if s not in present]
    error = f"KeyError: {missing} not in index (report_acc_MMSci)" if missing else None

    def table(key: str) -> list[tuple[str, dict[str, float]]]:
        g = sub.group_by([key, "setting"]).agg(pl.col("hit").mean().alias("m"))
        cells: dict[str, dict[str, float]] = defaultdict(dict)
        for k, s, m in g.iter_rows():
            cells[str(k)][str(s)] = m
        return [(k, {s: cells[k].get(s, 0.0) for s in present}) for k in sorted(cells)]

    out_rows = [(k, v) for k, v in table("subject")]
    out_rows += [("CATEGORY_" + k, v) for k, v in table("category")]
    overall = dict(sub.group_by("setting").agg(pl.col("hit").mean()).iter_rows())
    out_rows.append(("Overall", {s: overall[s] for s in present}))
    data: dict[str, list[Any]] = {"subject": [k for k, _ in out_rows]}
    for s in _MMSCI_SETTINGS:
        data[s] = [v.get(s) for _, v in out_rows]
    avg = []
    for _, v in out_rows:
        total = 0.0
        for s in present:  # pandas' mean(axis=1) over the unstacked (sorted) columns
            total += v[s]
        avg.append(total / len(present) if present else math.nan)
    data["Avg"] = avg
    schema = {"subject": pl.String, **{s: pl.Float64 for s in _MMSCI_SETTINGS}, "Avg": pl.Float64}
    return pl.DataFrame(data, schema=schema), error


def report_hrbench(df: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """``report_acc_hrbench``: per ``cycle_category`` (sorted) an ``all`` row and a row per
    category (sorted here; a set's order upstream); then ``Average`` rows, each type's sum
    over the cycles divided by the number of cycles."""
    cyc, typ, acc = [], [], []
    sums: dict[str, float] = {}
    cycles = sorted(set(df["cycle_category"].to_list()), key=lambda v: (v is None, v))
    for key in cycles:
        part = df.filter(pl.col("cycle_category") == key) if key is not None else df.filter(pl.col("cycle_category").is_null())
        hits = part["hit"].to_list()
        per = {"all": _mean(hits)}
        cats = part["category"].to_list()
        for c in sorted(set(cats), key=lambda v: (v is None, str(v))):
            per[c] = _mean([h for h, k in zip(hits, cats) if k == c])
        for t, a in per.items():
            cyc.append(key)
            typ.append(t)
            acc.append(a)
            sums[t] = sums.get(t, 0) + a
    for t, s in sums.items():
        cyc.append("Average")
        typ.append(t)
        acc.append(s / len(cycles))
    return pl.DataFrame({"cycle": [str(c) for c in cyc], "type": [str(t) for t in typ], "accuracy": acc}, schema={"cycle": pl.String, "type": pl.String, "accuracy": pl.Float64}), None


def report_acc_by_groups(df: pl.DataFrame, group: str) -> tuple[pl.DataFrame, str | None]:
    """GMAI-MMBench ``report_acc_by_groups``: ``split`` (sorted), ``Overall``, then a column
    per value of ``group`` (sorted; an empty cell is the name ``'None'``, which then matches no
    row: NaN, as upstream)."""
    if "split" in df.columns:
        splits = sorted(set(df["split"].cast(pl.String).to_list()), key=lambda s: (s is None, s or ""))
        sp = df["split"].cast(pl.String)
    else:
        splits, sp = ["none"], pl.Series(["none"] * df.height)
    work = pl.DataFrame({"hit": df["hit"], "split": sp, "g": df[group].cast(pl.String)})
    res: dict[str, list[float]] = {}

    def cell(mask: pl.Series) -> list[float]:
        sub = work.filter(mask)
        return [_mean(sub.filter(sub["split"] == s)["hit"].to_list()) if s is not None else math.nan for s in splits]

    res["Overall"] = cell(pl.Series([True] * work.height))
    names = sorted({"None" if v is None else v for v in work["g"].to_list()})
    for ab in names:
        res[ab] = cell((work["g"] == ab).fill_null(False))
    table = {"split": pl.Series("split", splits, pl.String)}
    table.update({c: pl.Series(c, v, pl.Float64) for c, v in res.items()})
    return pl.DataFrame(list(table.values())), None


def report_cvbench_2d(df: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """CV-Bench ``report_accuracy`` (2D): a row per split, a column per ``source`` (the mean
    of its rows) and ``Overall``, the plain mean of the source columns."""
    splits = sorted(set(df["split"].cast(pl.String).to_list()), key=lambda s: (s is None, s or ""))
    sources = sorted(set(df["source"].cast(pl.String).to_list()), key=lambda s: (s is None, s or ""))
    table: dict[str, list[Any]] = {"split": splits}
    for src in sources:
        sub = df.filter(df["source"].cast(pl.String) == src)
        table[src] = [_mean(sub.filter(sub["split"].cast(pl.String) == s)["hit"].to_list()) for s in splits]
    overall = []
    for i in range(len(splits)):
        total = 0.0
        for src in sources:
            total += table[src][i]
        overall.append(total / len(sources))
    table["Overall"] = overall
    schema = {"split": pl.String, **{s: pl.Float64 for s in sources}, "Overall": pl.Float64}
    return pl.DataFrame(table, schema=schema), None


def report_3dsr(df: pl.DataFrame, source: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """3DSRBench: ``report_acc`` of the rows (``vanilla``), then of the base questions where a
    question counts only when all its variants are right: ``flip_eval`` (``qid`` without
    ``-flip``), ``circ_eval`` (the first 8 characters, 13 for flipped ones) and
    ``flip_circ_eval`` (the first 8). ``split`` is dropped and ``setting`` comes first."""
    qids = [str(q) for q in df["qid"].to_list()]
    hits = df["hit"].to_list()
    keys = {
        "flip_eval": lambda x: x.replace("-flip", ""),
        "circ_eval": lambda x: x[:8] if "-flip" not in x else x[:13],
        "flip_circ_eval": lambda x: x[:8],
    }
    parts = [("vanilla", df)]
    error = None
    for name, key in keys.items():
        key_set = {key(x) for x in qids}
        main_pos = [i for i, q in enumerate(qids) if q in key_set]
        hit_map = {qids[i]: hits[i] for i in main_pos}
        for q, h in zip(qids, hits):
            k = key(q)
            if k not in hit_map:
                error = error or f"KeyError: {k!r} ({name}: qid {q!r} has no base question)"
                continue
            hit_map[k] *= h
        parts.append((name, df[main_pos].with_columns(pl.Series("hit", [hit_map[qids[i]] for i in main_pos], pl.Int64))))
    tables = []
    for name, part in parts:
        cols = {c: c for c in part.columns}
        rep, err = mcq._report_acc(part, cols, part["hit"], pl.Series([True] * part.height))
        error = error or err
        tables.append(rep.drop("split").with_columns(pl.lit(name).alias("setting")).select("setting", pl.exclude("setting")))
    return pl.concat(tables, how="diagonal"), error


def numpy_sum(values: list[float]) -> float:
    """``np.add.reduce`` of a contiguous float64 array, as pandas' ``mean`` sums: NumPy's
    pairwise sum (eight partial sums per block of at most 128, halves above that; the
    same as :func:`gaia_fast.scorers.vlm.judged._pairwise_sum`)."""
    return _pairwise_sum(values, 0, len(values)) if values else 0.0


def _np_mean(values: list[float]) -> float:
    return numpy_sum(values) / len(values) if values else math.nan


def _topviewrs_letter(log: str | None) -> str | None:
    """TopViewRS ``extract_letter``: the text between the first ``[`` and the first ``]``,
    else the last word of the log once trailing dots and spaces are stripped."""
    if not log:
        return None
    if "[" in log and "]" in log:
        return log[log.index("[") + 1 : log.index("]")]
    return log.rstrip(". ").split()[-1]


def _row_get(fields: dict[str, Any], key: str | None) -> Any:
    """``row.get(key, '')`` on upstream's row: an empty cell is NaN (truthy)."""
    if key is None or key not in fields:
        return ""
    v = fields[key]
    return math.nan if v is None else v


def topviewrs_partial_match(rows: pl.DataFrame, source: pl.DataFrame) -> list[float | None]:
    """TopViewRS ``partial_match_score`` per row: the word overlap of the option the log names
    and the answer's option, ``|a & b| / max(|a|, |b|)``. The log's last word is looked up
    among the row's fields as upstream does (a letter names an option; an empty option cell is
    NaN there, which reads as the word ``nan``)."""
    cols = mcq._column_map(source, lower=True)
    values = {k: mcq._text(source[c]).to_list() for k, c in cols.items()}
    answers = values.get("answer", [None] * source.height)
    out: list[float | None] = []
    for i, (log, hit, status) in enumerate(zip(rows["log"].to_list(), rows["score"].to_list(), rows["status"].to_list())):
        if status == "error":
            out.append(None)
            continue
        fields = {k: v[i] for k, v in values.items()}
        fields.update(GT=answers[i], hit=None if hit is None else int(hit), log=log)

        letter = _topviewrs_letter(log)
        if not letter:
            out.append(0.0)
            continue
        mine, right = _row_get(fields, letter), _row_get(fields, answers[i])
        if not mine or not right:
            out.append(0.0)
            continue
        a, b = set(str(mine).lower().split()), set(str(right).lower().split())
        m = max(len(a), len(b))
        out.append(len(a & b) / m if m else 0.0)
    return out


def report_topviewrs(df: pl.DataFrame) -> tuple[pl.DataFrame, str | None]:
    """``report_topviewrs_acc``: ``report_acc``'s layout with a ``_PM`` column (the mean
    partial match) after ``Overall`` and after each group value."""
    if "split" in df.columns:
        splits = sorted(set(df["split"].cast(pl.String).to_list()), key=lambda s: (s is None, s or ""))
        sp = df["split"].cast(pl.String).to_list()
    else:
        splits, sp = ["none"], ["none"] * df.height
    hits, pm = df["hit"].to_list(), df["partial_match"].to_list()
    res: dict[str, list[float]] = {}

    def cells(mask: list[bool]) -> tuple[list[float], list[float]]:
        h = [_mean([x for x, m, s in zip(hits, mask, sp) if m and s == want]) for want in splits]
        p = [_np_mean([x for x, m, s in zip(pm, mask, sp) if m and s == want]) for want in splits]
        return h, p

    res["Overall"], res["Overall_PM"] = cells([True] * df.height)
    error = None
    for group in ("l2-category", "category"):
        if group not in df.columns:
            continue
        vals = [None if v is None else str(v) for v in df[group].to_list()]
        names = set(vals)
        if None in names:
            error = "TypeError: '<' not supported between instances of 'str' and 'float'" if len(names) > 1 else "NaN category"
            names.discard(None)
        for ab in sorted(names):
            name = MMB_ABBRS.get(ab, ab)
            res[name], res[f"{name}_PM"] = cells([v == ab for v in vals])
    table = {"split": pl.Series("split", splits, pl.String)}
    table.update({c: pl.Series(c, v, pl.Float64) for c, v in res.items()})
    return pl.DataFrame(list(table.values())), error


# --------------------------------------------------------------------------------------
# grade
# --------------------------------------------------------------------------------------


def _split_variant(variant: str | None) -> tuple[str | None, frozenset[str]]:
    if variant is None:
        return None, frozenset()
    matcher, *flags = variant.split("+")
    bad = [f for f in flags if f not in _FLAGS]
    if bad:
        raise ValueError(f"unknown variant flag(s) {bad} in {variant!r}; known: {sorted(_FLAGS)}")
    return matcher, frozenset(flags)


def grade(
    frame: pl.DataFrame,
    *,
    benchmark: str = "mcq",
    report: str = "acc",
    preproc: str | None = None,
    matcher: str | None = None,
    concat: str | None = None,
    variant: str | None = None,
    seed: int = 0,
    judge: mcq.Judge | None = None,
    log: bool = False,
    **options: Any,
) -> GradeResult:
    """Grade an ``ImageMCQDataset`` result table with the dataset's own step.

    ``benchmark``: ``"mcq"`` (``mcq_vanilla_eval``), ``"mcq-circular"`` or ``"mmmu"``
    (variant ``"2023-12"``: the 2023-12 ``MMMU_eval`` of :mod:`mcq`; a ``can_infer``
    version: ``MMMU_preproc`` then the vanilla flow; ``None``: ``2023-12`` when the file has
    ``MMMU_eval``'s columns (:func:`mmmu_eval_shape`), else ``classic``, said in
    ``stats["variant_chosen_by"]``). ``report``: one of :data:`REPORTS`
    (``groups``: ``report_acc`` plus GMAI-MMBench's three side tables in
    ``stats["group_reports"]``; ``cvbench``: the 2D report when every ``split`` is ``2D``,
    else ``report_acc``). ``preproc``: ``"mmmu"`` or ``"mmmu-cot"`` (``cot_postproc`` first).
    ``matcher="lego"``: ``can_infer_lego`` (exact matching only). ``concat``: the name of a
    ``ConcatDataset`` (:data:`CONCAT_SETS`) whose file this is (``SUB_DATASET`` and
    ``original_index`` columns).
    Rows, statuses and the judge are as in :func:`gaia_fast.scorers.vlm.mcq.grade`; other
    keyword ``options`` go to it unchanged.
    """
    frame = _check_frame(frame)
    if report not in REPORTS:
        raise ValueError(f"report must be one of {', '.join(REPORTS)}, not {report!r}")
    if preproc not in PREPROCS:
        raise ValueError(f"preproc must be one of {PREPROCS}, not {preproc!r}")
    if matcher not in (None, "lego"):
        raise ValueError(f"matcher must be None or 'lego', not {matcher!r}")
    chosen = None
    if benchmark == "mmmu" and variant is None:
        # No date: the file's shape says which era graded it. Only the 2023-12 side branch's
        # MMMU_eval reads these columns (its TSV had them); main's files since 39cebe2f
        # (2023-12-26) lack them and went through MMMU_preproc + the vanilla flow, graded
        # here with the classic matcher like every other MCQ archive with no date.
        variant = "2023-12" if mmmu_eval_shape(frame.columns) else "classic"
        chosen = f"file shape: {'MMMU_eval columns' if variant == '2023-12' else 'no MMMU_eval columns'} -> {variant}"
    if benchmark == "mmmu" and variant == "2023-12":
        result = mcq.grade(frame, benchmark="mmmu", variant=variant, seed=seed, judge=judge, **options)
        if chosen:
            result.stats["variant_chosen_by"] = chosen
        return result
    if benchmark == "mmmu":
        benchmark, preproc = "mcq", preproc or "mmmu"
    if benchmark not in ("mcq", "mcq-circular"):
        raise ValueError(f"benchmark must be 'mcq', 'mcq-circular' or 'mmmu', not {benchmark!r}")
    base, flags = _split_variant(variant)
    if "report_acc" in flags:
        report = "acc"
    if concat is not None:
        if concat not in CONCAT_SETS:
            raise ValueError(f"concat must be one of {', '.join(CONCAT_SETS)}, not {concat!r}")
        return _grade_concat(
            frame, CONCAT_SETS[concat], benchmark=benchmark, report=report, preproc=preproc, matcher=matcher, variant=variant, seed=seed, judge=judge, log=log, **options
        )
    if matcher == "lego" and judge is not None:
        raise ValueError("LEGO with a judge is not supported (its judge prompt and can_infer_lego on the reply are not ported); grade without a judge")
    stats_pre: dict[str, Any] = {}
    source = frame
    if preproc == "mmmu-cot":
        pred = _need(source, "prediction", "cot_postproc")
        era = "2026-07" if "cot-2026-07" in flags else "2025-02"
        values = source[pred].to_list()
        bad = next((i for i, v in enumerate(values) if not isinstance(v, str)), None)
        if bad is not None:
            raise ValueError(f"cot_postproc: row {bad + 2}: prediction {values[bad]!r} is not text (upstream: .strip() raises)")
        source = source.with_columns(pl.Series(pred, [cot_postproc(v, era) for v in values], pl.String))
        stats_pre["cot_postproc"] = era
    if preproc in ("mmmu", "mmmu-cot"):
        source, rewritten = mmmu_preproc(source)
        stats_pre["mmmu_open_questions"] = rewritten
    inner = "acc" if report not in ("mmt",) else "mmt"
    keep_log = log or report == "topviewrs"  # its partial match reads the log text
    result = mcq.grade(source, benchmark=benchmark, variant=base, seed=seed, judge=judge, log=keep_log, report=inner, **options)
    rows, stats = result.rows, {**result.stats, **stats_pre}
    report_table, error = result.report, None
    if matcher == "lego" and benchmark == "mcq":
        rows, n_sort = _lego_sort_rows(rows, source, base or "classic")
        stats["lego_sort_rows"] = n_sort
        ok = rows.filter(pl.col("status") != "error")
        # Sort rows read by can_infer_lego are no longer exact-matching fallbacks.
        fb = ok.filter(pl.col("reason").str.starts_with("exact_matching"))
        hits, fb_hits = float(ok["score"].sum()), float(fb["score"].sum())
        stats["correct"] = hits
        stats["accuracy"] = hits / ok.height if ok.height else None
        stats["accuracy_no_fallback"] = (hits - fb_hits) / ok.height if ok.height else None
        stats["fallback_rows"] = fb.height
        stats["fallback_rate"] = fb.height / ok.height if ok.height else None
        stats["expected_accuracy"] = stats["accuracy"]  # an exact-matching fallback is Z: its hit is its chance
        stats.pop("decided_by", None)  # can_infer's rule counts no longer describe the sort rows
        cols = mcq._column_map(source, lower=True)
        report_table, error = mcq._report_acc(source, cols, rows["score"].fill_null(0.0), rows["status"] != "error")
    if report == "mmvp":
        report_table, error = report_mmvp(_scored(rows, source, ("question",), "report_acc_MMVP"))
    elif report == "mmsci":
        report_table, error = report_mmsci(_scored(rows, source, ("setting", "subject", "category"), "report_acc_MMSci"))
    elif report == "hrbench":
        report_table, error = report_hrbench(_scored(rows, source, ("cycle_category", "category"), "report_acc_hrbench"))
    elif report == "groups":
        present = tuple(g for g in GMAI_GROUPS if _col(source, g) is not None)
        df = _scored(rows, source, present + (("split",) if _col(source, "split") else ()), "report_acc_by_groups")
        stats["group_reports"] = {g: report_acc_by_groups(df, g)[0] for g in present}
        missing = [g for g in GMAI_GROUPS if g not in present]
        if missing:
            error = f"ValueError: Column '{missing[0]}' not found in dataframe. (report_acc_by_groups)"
    elif report == "cvbench":
        split_c = _col(source, "split")
        if split_c is not None and (mcq._text(source[split_c]) == "2D").fill_null(False).all():
            report_table, error = report_cvbench_2d(_scored(rows, source, ("split", "source"), "CV-Bench report_accuracy"))
    elif report == "topviewrs":
        pm = topviewrs_partial_match(rows, source)
        rows = rows.with_columns(pl.Series("partial_match", pm, pl.Float64))
        groups = tuple(c for c in ("split", "l2-category", "category") if _col(source, c))
        df = _scored(rows, source, groups, "report_topviewrs_acc").with_columns(
            pl.Series("partial_match", [pm[i] for i in mcq._index_order(source, mcq._column_map(source, lower=True)).to_list() if rows["status"][i] != "error"], pl.Float64)
        )
        report_table, error = report_topviewrs(df)
        if not log:
            rows = rows.drop("log")
    elif report == "3dsr":
        df = _scored(rows, source, ("qid",) + tuple(c for c in ("split", "l2-category", "category") if _col(source, c)), "3DSRBench")
        report_table, error = report_3dsr(df, source)
    if error:
        stats["reference_error"] = stats.get("reference_error") or error
    stats["report"] = report
    if chosen:
        stats["variant_chosen_by"] = chosen
    return GradeResult(rows=rows, report=report_table, stats=stats)


def _grade_concat(
    frame: pl.DataFrame,
    members: tuple[str, ...],
    *,
    benchmark: str,
    report: str,
    preproc: str | None,
    matcher: str | None,
    variant: str | None,
    seed: int,
    judge: mcq.Judge | None,
    log: bool,
    **options: Any,
) -> GradeResult:
    """``ConcatDataset.evaluate``: the rows of each member (``SUB_DATASET``), in the set's
    order, graded as their own dataset with ``original_index`` as ``index``; the reports
    stacked with a ``DATASET`` column (pandas' column union, in order of appearance). A member
    with no rows gives what ``report_acc`` gives an empty table: no row when the file has a
    ``split`` column, else a ``none`` row with a NaN ``Overall``. Rows of another
    ``SUB_DATASET`` are not graded upstream: status ``not_counted``."""
    if "SUB_DATASET" not in frame.columns or "original_index" not in frame.columns:
        raise ValueError(f"ConcatDataset: the result table needs 'SUB_DATASET' and 'original_index' columns (columns: {frame.columns})")
    work = frame.with_row_index("_row")
    has_split = _col(frame, "split") is not None
    parts, reports, per = [], [], {}
    for name in members:
        part = work.filter(pl.col("SUB_DATASET").cast(pl.String) == name)
        if part.height == 0:
            if not has_split:
                reports.append(pl.DataFrame({"split": ["none"], "Overall": [math.nan], "DATASET": [name]}))
            continue
        rows_ix = part["_row"]
        member = part.drop("_row", "SUB_DATASET").drop([c for c in part.columns if c.lower() == "index"]).rename({"original_index": "index"})
        res = grade(member, benchmark=benchmark, report=report, preproc=preproc, matcher=matcher, variant=variant, seed=seed, judge=judge, log=log, **options)
        added = [c for c in res.rows.columns if c not in member.columns]
        parts.append(res.rows.select(added).with_columns(rows_ix.alias("_row")))
        reports.append(res.report.with_columns(pl.lit(name).alias("DATASET")))
        per[name] = res.stats
    scored = pl.concat(parts, how="diagonal").sort("_row") if parts else pl.DataFrame({"_row": pl.Series([], dtype=work["_row"].dtype)})
    rows = work.join(scored, on="_row", how="left").sort("_row").drop("_row")
    if "status" in rows.columns:
        rows = rows.with_columns(pl.col("status").fill_null("not_counted"))
    report_table = pl.concat(reports, how="diagonal") if reports else pl.DataFrame()
    ok = rows.filter(~pl.col("status").is_in(["error", "not_counted"])) if "status" in rows.columns else rows.clear()
    first = next(iter(per.values()), {})
    stats: dict[str, Any] = {"variant": first.get("variant", variant), "sub_datasets": per, "rows": rows.height}
    errors = [f"{k}: {s['reference_error']}" for k, s in per.items() if s.get("reference_error")]
    stats["reference_error"] = "; ".join(errors) or None
    if benchmark == "mcq":
        stats["correct"] = float(ok["score"].sum()) if ok.height else 0.0
        stats["tasks"] = ok.height
    else:
        q = sum(s.get("questions", 0) for s in per.values())
        stats["tasks"], stats["correct"] = q, float(sum(s.get("correct", 0) for s in per.values()))
    stats["accuracy"] = stats["correct"] / stats["tasks"] if stats["tasks"] else None
    if benchmark == "mcq" and stats["tasks"] and all(s.get("accuracy_no_fallback") is not None for s in per.values()):
        kept = sum(s["accuracy_no_fallback"] * s["scored_rows"] for s in per.values())
        stats["accuracy_no_fallback"] = kept / stats["tasks"]
        stats["fallback_rows"] = sum(s.get("fallback_rows", 0) for s in per.values())
    return GradeResult(rows=rows, report=report_table, stats=stats)
