"""One self-contained HTML page for a GAIA results JSONL (``gaia-fast report``).

The page has no external resources (no network, no JavaScript, no web fonts): the charts
are inline SVG drawn here, the styles one ``<style>`` block. Sections, by element id:

* ``summary`` — tasks, correct, accuracy (weighted) and macro accuracy over levels,
  errors, timeouts, runtimes;
* ``accuracy`` — accuracy by level (bars, with the overall accuracy as a line) and the
  outcome mix per level (correct / wrong / error / timeout);
* ``runtime`` — runtime histogram coloured by outcome, one small histogram per level on
  the same bins, and per-level runtime statistics;
* ``errors`` — the most frequent error messages and every errored or timed-out task;
* ``disagreements`` — every row re-scored with ``gaia``, ``gaia-lenient`` and
  ``gaia-graded``: accuracy under each, the rows where official and lenient disagree, and
  the rows where the stored ``is_correct`` differs from the re-scored official verdict;
* ``tasks`` — all tasks (collapsed).

Errors and timeouts follow :func:`gaia_fast.harness.viewer.is_error` / :func:`~gaia_fast.harness.viewer.is_timeout`.
Every piece of text from the results file is escaped with :func:`html.escape`. The output
depends only on the input rows (no clock, no randomness), so the same file gives the same
page. Nothing prints.
"""

from __future__ import annotations

import html
import math
import os
import statistics
import tempfile
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_fast.harness.viewer import (
    MISSING,
    Results,
    is_error,
    is_timeout,
    level_display,
    level_key,
    level_stats,
    read_results,
    row_status,
    runtime_of,
)

__all__ = ["SECTION_IDS", "build_report", "write_report"]

#: The ids of the page's sections, in page order.
SECTION_IDS = ("summary", "accuracy", "runtime", "errors", "disagreements", "tasks")

INK_ON_LIGHT = "#1f2328"
# Outcome of a row, in legend order, with its colour.
OUTCOMES = ("correct", "wrong", "error", "timeout")
COLORS = {"correct": "#2f9e44", "wrong": "#e03131", "error": "#f59f00", "timeout": "#7048e8"}
#: Text colour on top of each outcome colour (dark on amber for contrast).
ON = {"correct": "#fff", "wrong": "#fff", "error": INK_ON_LIGHT, "timeout": "#fff"}
LABELS = {"correct": "Correct", "wrong": "Wrong answer", "error": "Error", "timeout": "Timeout"}
ACCENT = "#3b5bdb"
INK = "#1f2328"
MUTED = "#59636e"
GRID = "#d8dee4"

_LONG = 160  # characters shown before a cell folds into <details>
_W = 1024  # width of the full-width charts (the page's content width), in px


# --------------------------------------------------------------------------- text helpers


def _clean(s: str) -> str:
    """Lone surrogates (possible from JSON ``\\ud800`` escapes) become U+FFFD."""
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _e(v: Any) -> str:
    """Escaped text of any value (``str()`` of non-strings)."""
    return html.escape(_clean(v if isinstance(v, str) else str(v)), quote=True)


def _pct(x: float | None, digits: int = 1) -> str:
    return "—" if x is None else f"{x * 100:.{digits}f}%"


def _secs(x: float | None) -> str:
    if x is None:
        return "—"
    if x >= 3600:
        return f"{x / 3600:.1f} h"
    if x >= 600:
        return f"{x / 60:.1f} min"
    if x >= 10:
        return f"{x:.0f} s"
    if 0 < x < 0.005:
        return "< 0.01 s"
    return f"{x:.2f} s"


def _n(x: float) -> str:
    """A coordinate for SVG: at most 2 decimals, no trailing zeros."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _cell(v: Any, *, missing: str = "(missing)") -> str:
    """A table cell for a user value: null/empty marked, long text folded."""
    if v is MISSING:
        return f'<span class="muted">{missing}</span>'
    if v is None:
        return '<span class="muted">(null)</span>'
    s = v if isinstance(v, str) else str(v)
    if s == "":
        return '<span class="muted">(empty)</span>'
    if len(s) <= _LONG:
        return f'<span class="text">{_e(s)}</span>'
    return f'<details class="long"><summary><span class="text">{_e(s[:_LONG])}</span>…</summary><span class="text">{_e(s)}</span></details>'


def _tid(v: str) -> str:
    """A task id cell: monospace, kept on one line when short."""
    cls = "tid short" if len(v) <= 20 else "tid"
    return f'<span class="{cls}">{_e(v)}</span>' if v else '<span class="muted">(empty)</span>'


def _verdict(v: bool | None) -> str:
    if v is None:
        return '<span class="muted">—</span>'
    return '<span class="yes">✓ true</span>' if v else '<span class="no">✗ false</span>'


def _badge(outcome: str) -> str:
    return f'<span class="badge {outcome}">{LABELS[outcome]}</span>'


# --------------------------------------------------------------------------- rows


@dataclass
class _Row:
    index: int
    raw: dict[str, Any]
    task_id: str
    level: Any
    correct: bool
    runtime: float | None
    error: bool
    timeout: bool
    outcome: str
    official: bool | None = None
    lenient: bool | None = None
    graded: float | None = None
    kind: str | None = None
    rescored: str = "ok"  # ok | no_truth | no_prediction | not_text


def _rows(records: Sequence[dict[str, Any]]) -> list[_Row]:
    out = []
    for i, r in enumerate(records, 1):
        correct = bool(r.get("is_correct"))
        timeout = is_timeout(r)
        error = is_error(r)
        outcome = "correct" if correct else "timeout" if timeout else "error" if error else "wrong"
        tid = r.get("task_id", "unknown")
        level = level_key(r)
        out.append(_Row(i, r, tid if isinstance(tid, str) else str(tid), level, correct, runtime_of(r), error, timeout, outcome))
    return out


def _rescore(rows: list[_Row]) -> None:
    """Score every row with the three GAIA scorers (prediction vs the stored answer)."""
    if not rows:
        return
    import polars as pl

    import gaia_fast as gf

    preds: list[str | None] = []
    truths: list[str | None] = []
    levels: list[int | None] = []
    for r in rows:
        p, t = r.raw.get("prediction"), r.raw.get("answer")
        text = (p is None or isinstance(p, str)) and (t is None or isinstance(t, str))
        if not text:
            r.rescored = "not_text"
        preds.append(p if text else None)
        truths.append(t if text else None)
        levels.append(r.level if isinstance(r.level, int) and r.level in (1, 2, 3) else None)
    results: dict[str, Any] = {}
    try:
        frame = pl.DataFrame(
            {
                "prediction": pl.Series(preds, dtype=pl.String),
                "answer": pl.Series(truths, dtype=pl.String),
                "level": pl.Series(levels, dtype=pl.Int64),
            }
        )
    except UnicodeEncodeError:  # lone surrogates: Arrow cannot hold them; the batch API falls back
        for scorer in ("gaia", "gaia-lenient", "gaia-graded"):
            results[scorer] = gf.score_batch(preds, truths, scorer, levels=levels, explain=True)
    else:
        for scorer in ("gaia", "gaia-lenient", "gaia-graded"):
            results[scorer] = gf.score_frame(frame, scorer, prediction="prediction", truth="answer", level="level")
    off = results["gaia"].get_column("score").to_list()
    status = results["gaia"].get_column("status").cast(pl.String).to_list()
    len_ = results["gaia-lenient"].get_column("score").to_list()
    gr = results["gaia-graded"].get_column("score").to_list()
    kind = results["gaia-graded"].get_column("kind").cast(pl.String).to_list()
    for r, o, s, le, g, k in zip(rows, off, status, len_, gr, kind):
        r.official, r.lenient, r.graded, r.kind = o, le, g, k
        if r.rescored != "not_text":
            r.rescored = s
        else:
            r.official = r.lenient = r.graded = r.kind = None


# --------------------------------------------------------------------------- SVG charts


def _svg_open(w: int, h: int, label: str) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{_e(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-family="inherit" font-size="12">'
        f"<title>{_e(label)}</title>"
    )


def _legend(keys: Sequence[str], counts: dict[str, int] | None = None) -> str:
    items = []
    for k in keys:
        extra = f' <span class="muted">{counts[k]}</span>' if counts is not None else ""
        items.append(f'<span class="key"><span class="swatch" style="background:{COLORS[k]}"></span>{LABELS[k]}{extra}</span>')
    return f'<div class="legend">{"".join(items)}</div>'


def _accuracy_chart(stats: list[Any], overall: float | None) -> str:
    """Vertical bars: accuracy per level, overall accuracy as a dashed line."""
    n = len(stats)
    w, h = _W, 300
    left, right, top, bottom = 48, 96, 30, 58
    pw, ph = w - left - right, h - top - bottom
    parts = [_svg_open(w, h, "Accuracy by level")]
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        y = top + ph * (1 - t)
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{_n(y)}" y2="{_n(y)}" stroke="{GRID}" stroke-width="1"/>')
        parts.append(f'<text x="{left - 8}" y="{_n(y + 4)}" text-anchor="end" fill="{MUTED}">{int(t * 100)}%</text>')
    # the overall line goes under the bars and their labels
    if overall is not None:
        y = top + ph * (1 - overall)
        parts.append(
            f'<line x1="{left}" x2="{w - right + 6}" y1="{_n(y)}" y2="{_n(y)}" stroke="{INK}" stroke-width="1.5" stroke-dasharray="6 4"/>'
        )
        parts.append(
            f'<text x="{w - right + 12}" y="{_n(y - 3)}" fill="{INK}" font-weight="600">{_pct(overall)}</text>'
            f'<text x="{w - right + 12}" y="{_n(y + 12)}" fill="{MUTED}" font-size="11">overall</text>'
        )
    slot = pw / max(n, 1)
    bw = min(96.0, slot * 0.62)
    for i, s in enumerate(stats):
        acc = s.accuracy or 0.0
        x = left + slot * i + (slot - bw) / 2
        bh = ph * acc
        y = top + ph - bh
        label = level_display(s.level)
        tip = f"Level {label}: {s.correct} of {s.tasks} correct ({_pct(s.accuracy)})"
        parts.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(bw)}" height="{_n(max(bh, 0.0))}" rx="3" fill="{ACCENT}"><title>{_e(tip)}</title></rect>'
        )
        parts.append(
            f'<text x="{_n(x + bw / 2)}" y="{_n(y - 8)}" text-anchor="middle" font-weight="600" font-size="14" fill="{INK}" paint-order="stroke" stroke="#fff" stroke-width="5">{_pct(s.accuracy)}</text>'
        )
        parts.append(
            f'<text x="{_n(x + bw / 2)}" y="{_n(top + ph + 20)}" text-anchor="middle" font-weight="600" fill="{INK}">Level {_e(label)}</text>'
        )
        parts.append(
            f'<text x="{_n(x + bw / 2)}" y="{_n(top + ph + 38)}" text-anchor="middle" fill="{MUTED}">{s.correct} / {s.tasks}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _outcome_chart(groups: list[tuple[str, Counter[str]]]) -> str:
    """Horizontal 100 % bars: the outcome mix of each group."""
    w = _W
    left, right, row_h, gap, top = 84, 64, 26, 12, 6
    h = top + len(groups) * (row_h + gap)
    pw = w - left - right
    parts = [_svg_open(w, h, "Outcomes by level")]
    for i, (label, counts) in enumerate(groups):
        y = top + i * (row_h + gap)
        total = sum(counts.values())
        parts.append(
            f'<text x="{left - 10}" y="{_n(y + row_h / 2 + 4)}" text-anchor="end" font-weight="600" fill="{INK}">{_e(label)}</text>'
        )
        x = float(left)
        for k in OUTCOMES:
            c = counts.get(k, 0)
            if not c or not total:
                continue
            seg = pw * c / total
            tip = f"{label}: {c} {LABELS[k].lower()} ({_pct(c / total)})"
            parts.append(
                f'<rect x="{_n(x)}" y="{y}" width="{_n(seg)}" height="{row_h}" fill="{COLORS[k]}" stroke="#fff" stroke-width="1"><title>{_e(tip)}</title></rect>'
            )
            if seg >= 9 * len(str(c)) + 8:
                parts.append(
                    f'<text x="{_n(x + seg / 2)}" y="{_n(y + row_h / 2 + 4)}" text-anchor="middle" fill="{ON[k]}" font-weight="600">{c}</text>'
                )
            x += seg
        if not total:
            parts.append(f'<rect x="{left}" y="{y}" width="{pw}" height="{row_h}" fill="{GRID}"/>')
        parts.append(f'<text x="{left + pw + 10}" y="{_n(y + row_h / 2 + 4)}" fill="{MUTED}">n = {total}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _nice_step(span: float, target: int) -> float:
    raw = span / max(target, 1)
    if raw <= 0:
        return 1.0
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _bins(values: list[float], target: int = 20) -> list[float]:
    """Edges of equal-width bins from 0 covering all values, with a 'nice' width."""
    hi = max(values) if values else 0.0
    if hi <= 0:
        return [0.0, 1.0]
    step = _nice_step(hi, target)
    k = int(math.floor(hi / step)) + 1
    return [round(step * i, 10) for i in range(k + 1)]


def _bin_index(v: float, edges: list[float]) -> int:
    step = edges[1] - edges[0]
    return min(int(v // step), len(edges) - 2)


def _edge_label(x: float) -> str:
    if x >= 3600 and x % 3600 == 0:
        return f"{x / 3600:g}h"
    if x >= 600 and x % 60 == 0:
        return f"{x / 60:g}m"
    return f"{x:g}s"


def _histogram(rows: list[_Row], edges: list[float], *, w: int, h: int, label: str, compact: bool = False) -> str:
    """Runtime histogram on ``edges``, bars stacked by outcome."""
    nb = len(edges) - 1
    stacks = [Counter() for _ in range(nb)]
    for r in rows:
        if r.runtime is not None:
            stacks[_bin_index(r.runtime, edges)][r.outcome] += 1
    ymax = max((sum(c.values()) for c in stacks), default=0)
    left, right, top, bottom = (34, 18, 10, 26) if compact else (44, 22, 14, 40)
    pw, ph = w - left - right, h - top - bottom
    ystep = max(1, int(_nice_step(max(ymax, 1), 3 if compact else 5)))
    ytop = max(ystep, int(math.ceil(max(ymax, 1) / ystep)) * ystep)
    parts = [_svg_open(w, h, label)]
    for t in range(0, ytop + 1, ystep):
        y = top + ph * (1 - t / ytop)
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{_n(y)}" y2="{_n(y)}" stroke="{GRID}" stroke-width="1"/>')
        parts.append(f'<text x="{left - 6}" y="{_n(y + 4)}" text-anchor="end" fill="{MUTED}" font-size="11">{t}</text>')
    bw = pw / nb
    for i, c in enumerate(stacks):
        x = left + bw * i
        ybase = top + ph
        total = sum(c.values())
        for k in OUTCOMES:
            v = c.get(k, 0)
            if not v:
                continue
            hh = ph * v / ytop
            ybase -= hh
            tip = f"{_edge_label(edges[i])}–{_edge_label(edges[i + 1])}: {v} {LABELS[k].lower()} (of {total})"
            parts.append(
                f'<rect x="{_n(x + 1)}" y="{_n(ybase)}" width="{_n(max(bw - 2, 1))}" height="{_n(hh)}" fill="{COLORS[k]}"><title>{_e(tip)}</title></rect>'
            )
    # x-axis labels: at most ~8 (compact: 4)
    every = max(1, math.ceil(nb / (4 if compact else 8)))
    for i in range(0, nb + 1, every):
        x = left + bw * i
        parts.append(f'<line x1="{_n(x)}" x2="{_n(x)}" y1="{top + ph}" y2="{top + ph + 4}" stroke="{MUTED}"/>')
        parts.append(
            f'<text x="{_n(x)}" y="{top + ph + 16}" text-anchor="middle" fill="{MUTED}" font-size="11">{_edge_label(edges[i])}</text>'
        )
    parts.append(f'<line x1="{left}" x2="{w - right}" y1="{top + ph}" y2="{top + ph}" stroke="{MUTED}"/>')
    if not compact:
        parts.append(
            f'<text x="{left + pw / 2:.0f}" y="{h - 6}" text-anchor="middle" fill="{MUTED}">runtime per task (bins of {_edge_label(edges[1] - edges[0])})</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _hbar_chart(items: list[tuple[str, float, str, str]], *, w: int = 0, label: str) -> str:
    """Horizontal bars with a value 0..1: (label, value, text shown, colour)."""
    w = w or _W
    left, right, row_h, gap = 180, 150, 22, 10
    h = len(items) * (row_h + gap) + 4
    pw = w - left - right
    parts = [_svg_open(w, h, label)]
    for i, (name, v, txt, color) in enumerate(items):
        y = 2 + i * (row_h + gap)
        parts.append(f'<text x="{left - 10}" y="{_n(y + row_h / 2 + 4)}" text-anchor="end" fill="{INK}">{_e(name)}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{pw}" height="{row_h}" rx="3" fill="#f1f3f5"/>')
        parts.append(
            f'<rect x="{left}" y="{y}" width="{_n(pw * max(0.0, min(v, 1.0)))}" height="{row_h}" rx="3" fill="{color}"><title>{_e(name + ": " + txt)}</title></rect>'
        )
        parts.append(f'<text x="{left + pw + 10}" y="{_n(y + row_h / 2 + 4)}" fill="{INK}" font-weight="600">{_e(txt)}</text>')
    parts.append("</svg>")
    return "".join(parts)


# --------------------------------------------------------------------------- sections


def _quantile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def _summary(rows: list[_Row], stats: list[Any], source: str, skipped: int) -> str:
    n = len(rows)
    correct = sum(r.correct for r in rows)
    accs = [s.accuracy for s in stats if s.accuracy is not None]
    errors = sum(r.error for r in rows)
    timeouts = sum(r.timeout for r in rows)
    rts = [r.runtime for r in rows if r.runtime is not None]
    cards = [
        ("Tasks", str(n), ""),
        ("Correct", str(correct), ""),
        ("Accuracy", _pct(correct / n if n else None), "correct / tasks"),
        ("Macro accuracy", _pct(statistics.fmean(accs) if accs else None), f"mean over {len(accs)} level{'s' if len(accs) != 1 else ''}"),
        ("Errors", str(errors), "incl. timeouts"),
        ("Timeouts", str(timeouts), ""),
        ("Median runtime", _secs(statistics.median(rts) if rts else None), f"p90 {_secs(_quantile(rts, 0.9))}"),
        ("Total runtime", _secs(sum(rts) if rts else None), f"{len(rts)} task{'s' if len(rts) != 1 else ''} timed"),
    ]
    stamps = sorted(str(r.raw["timestamp"])[:19] for r in rows if isinstance(r.raw.get("timestamp"), str) and r.raw["timestamp"])
    meta = [f"<span>{_e(source)}</span>"] if source else []
    if stamps:
        meta.append(f"<span>saved {_e(stamps[0])}" + (f" – {_e(stamps[-1])}" if stamps[-1] != stamps[0] else "") + "</span>")
    if skipped:
        meta.append(f'<span class="warn">{skipped} line{"s" if skipped != 1 else ""} skipped (not a JSON object)</span>')
    html_cards = "".join(
        f'<div class="card"><div class="label">{lab}</div><div class="value">{val}</div><div class="sub">{sub}</div></div>'
        for lab, val, sub in cards
    )
    return (
        f'<section id="summary"><div class="meta">{" · ".join(meta)}</div>'
        f'<div class="cards">{html_cards}</div>'
        + (_outcome_bar(rows) if rows else "")
        + "</section>"
    )


def _outcome_bar(rows: list[_Row]) -> str:
    c = Counter(r.outcome for r in rows)
    segs = "".join(
        f'<span style="flex:{c[k]};background:{COLORS[k]}" title="{LABELS[k]}: {c[k]}"></span>' for k in OUTCOMES if c[k]
    )
    return f'<div class="mix">{segs}</div>{_legend(OUTCOMES, c)}'


def _accuracy_section(rows: list[_Row], stats: list[Any]) -> str:
    n = len(rows)
    overall = sum(r.correct for r in rows) / n if n else None
    groups: list[tuple[str, Counter[str]]] = []
    for s in stats:
        groups.append((f"Level {level_display(s.level)}", Counter(r.outcome for r in rows if _same(r.level, s.level))))
    if len(stats) > 1:
        groups.append(("All", Counter(r.outcome for r in rows)))
    table = _table(
        ["Level", "Tasks", "Correct", "Accuracy", "Wrong", "Errors", "Timeouts"],
        [
            [
                _e(level_display(s.level)),
                str(s.tasks),
                str(s.correct),
                _pct(s.accuracy),
                str(sum(1 for r in rows if _same(r.level, s.level) and r.outcome == "wrong")),
                str(s.errors),
                str(s.timeouts),
            ]
            for s in stats
        ],
        numeric={1, 2, 3, 4, 5, 6},
    )
    return (
        '<section id="accuracy"><h2>Accuracy by level</h2>'
        '<p class="note">Correct means the stored <code>is_correct</code> is true. The dashed line is the overall accuracy (all correct / all tasks).</p>'
        f'<div class="figure">{_accuracy_chart(stats, overall)}</div>'
        "<h3>Outcomes by level</h3>"
        f"{_legend(OUTCOMES)}"
        f'<div class="figure">{_outcome_chart(groups)}</div>'
        f"{table}</section>"
    )


def _same(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _runtime_section(rows: list[_Row], stats: list[Any]) -> str:
    rts = [r.runtime for r in rows if r.runtime is not None]
    if not rts:
        return '<section id="runtime"><h2>Runtime</h2><p class="empty">No runtimes recorded.</p></section>'
    edges = _bins(rts)
    main = _histogram(rows, edges, w=_W, h=280, label="Runtime histogram, all tasks")
    panels = []
    timed_levels = [s for s in stats if s.runtimes]
    cols = 3 if len(timed_levels) % 3 == 0 or len(timed_levels) > 4 else 2
    pw = 300 if cols == 3 else 470
    if len(stats) > 1:
        for s in stats:
            lr = [r for r in rows if _same(r.level, s.level)]
            if not any(r.runtime is not None for r in lr):
                continue
            panels.append(
                f'<div class="panel"><div class="panel-title">Level {_e(level_display(s.level))} '
                f'<span class="muted">median {_secs(s.median_runtime)}</span></div>'
                f"{_histogram(lr, edges, w=pw, h=160, label=f'Runtime histogram, level {level_display(s.level)}', compact=True)}</div>"
            )
    body = []
    for s in stats:
        xs = list(s.runtimes)
        body.append(
            [
                _e(level_display(s.level)),
                str(len(xs)),
                _secs(min(xs) if xs else None),
                _secs(s.median_runtime),
                _secs(s.mean_runtime),
                _secs(_quantile(xs, 0.9)),
                _secs(max(xs) if xs else None),
                _secs(sum(xs) if xs else None),
            ]
        )
    body.append(
        [
            "All",
            str(len(rts)),
            _secs(min(rts)),
            _secs(statistics.median(rts)),
            _secs(statistics.fmean(rts)),
            _secs(_quantile(rts, 0.9)),
            _secs(max(rts)),
            _secs(sum(rts)),
        ]
    )
    table = _table(["Level", "Timed", "Min", "Median", "Mean", "p90", "Max", "Total"], body, numeric=set(range(1, 8)), total_last=True)
    untimed = len(rows) - len(rts)
    note = f'<p class="note">{untimed} task{"s" if untimed != 1 else ""} without a runtime.</p>' if untimed else ""
    return (
        '<section id="runtime"><h2>Runtime</h2>'
        "<p class=\"note\">Wall-clock seconds per task (<code>runtime_seconds</code>), bars coloured by outcome.</p>"
        f"{_legend(OUTCOMES)}"
        f'<div class="figure">{main}</div>'
        + (f'<h3>Per level</h3><div class="panels c{cols}">{"".join(panels)}</div>' if panels else "")
        + f"{table}{note}</section>"
    )


def _error_message(r: _Row) -> str:
    err = r.raw.get("error")
    if isinstance(err, str):
        if err == "":
            return "(empty message — asyncio timeout)"
        return err.strip().splitlines()[0][:140] if err.strip() else "(whitespace message)"
    if err is None:
        return f"(status: {row_status(r.raw)})"
    return str(err)[:140]


def _errors_section(rows: list[_Row]) -> str:
    bad = [r for r in rows if r.error or r.timeout]
    if not bad:
        return '<section id="errors"><h2>Errors and timeouts</h2><p class="empty">No errors and no timeouts.</p></section>'
    n_to = sum(r.timeout for r in bad)
    groups = Counter(_error_message(r) for r in bad)
    top = sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))[:12]
    most = top[0][1]
    kinds = {}
    for r in bad:
        kinds.setdefault(_error_message(r), "timeout" if r.timeout else "error")
    bars = []
    for msg, c in top:
        bars.append(
            f'<div class="ebar"><span class="ecount">{c}</span>'
            f'<span class="etrack"><span style="width:{_n(100 * c / most)}%;background:{COLORS[kinds[msg]]}"></span></span>'
            f'<span class="emsg text">{_e(msg)}</span></div>'
        )
    more = len(groups) - len(top)
    body = []
    for r in bad:
        body.append(
            [
                str(r.index),
                _tid(r.task_id),
                _e(level_display(r.level)),
                _badge("timeout" if r.timeout else "error"),
                _secs(r.runtime),
                _cell(r.raw.get("error", MISSING)),
                _cell(r.raw.get("prediction", MISSING)),
            ]
        )
    table = _table(["#", "Task", "Level", "Kind", "Runtime", "Error", "Prediction"], body, numeric={0, 4}, cls="wide")
    return (
        '<section id="errors"><h2>Errors and timeouts</h2>'
        f'<p class="note">{len(bad)} task{"s" if len(bad) != 1 else ""} raised, {n_to} of them timed out. '
        "A timeout is a status (<code>status</code> or <code>evaluation_details.status</code>) of "
        "<code>timeout</code>; in a file without statuses, an <code>error</code> that mentions "
        "“timeout”/“timed out”, or an empty <code>error</code> (agent-framework stores <code>str(exception)</code>, "
        "which is empty for <code>asyncio.TimeoutError</code>).</p>"
        "<h3>Most frequent messages</h3>"
        f'<div class="ebars">{"".join(bars)}</div>'
        + (f'<p class="note">… and {more} other message{"s" if more != 1 else ""}.</p>' if more else "")
        + f"<h3>All errored tasks</h3>{table}</section>"
    )


def _graded_text(r: _Row) -> str:
    if r.graded is None:
        return '<span class="muted">—</span>'
    return f'{r.graded:.2f} <span class="muted">{_e(r.kind or "")}</span>'


def _lenient_blank(prediction: Any) -> bool:
    """The prediction normalises to nothing under the lenient rule (spec §3.1)."""
    if prediction is None:
        return True
    if not isinstance(prediction, str):
        return False
    from gaia_fast.scorers.gaia import normalize_answer

    return normalize_answer(prediction).strip() == ""


def _disagreement_section(rows: list[_Row]) -> str:
    scored = [r for r in rows if r.official is not None]
    no_truth = sum(1 for r in rows if r.rescored == "no_truth")
    not_text = sum(1 for r in rows if r.rescored == "not_text")
    n = len(scored)
    notes = []
    if no_truth:
        notes.append(f"{no_truth} row{'s' if no_truth != 1 else ''} without a truth (null <code>answer</code> or the <code>?</code> placeholder) not re-scored")
    if not_text:
        notes.append(f"{not_text} row{'s' if not_text != 1 else ''} whose answer or prediction is not text not re-scored")
    if not n:
        return (
            '<section id="disagreements"><h2>Scorer disagreements</h2>'
            '<p class="empty">No row could be re-scored.</p>'
            + (f'<p class="note">{"; ".join(notes)}.</p>' if notes else "")
            + "</section>"
        )
    stored = sum(r.correct for r in scored)
    off = sum(bool(r.official) for r in scored)
    len_ = sum(bool(r.lenient) for r in scored)
    gr = sum(r.graded or 0.0 for r in scored)
    chart = _hbar_chart(
        [
            ("stored is_correct", stored / n, f"{_pct(stored / n)} ({stored}/{n})", "#868e96"),
            ("gaia (official)", off / n, f"{_pct(off / n)} ({off}/{n})", ACCENT),
            ("gaia-lenient", len_ / n, f"{_pct(len_ / n)} ({len_}/{n})", "#1098ad"),
            ("gaia-graded (mean)", gr / n, f"{_pct(gr / n)} (Σ {gr:.2f})", "#ae3ec9"),
        ],
        label="Accuracy by scorer",
    )
    ol = [r for r in scored if bool(r.official) != bool(r.lenient)]
    so = [r for r in scored if r.correct != bool(r.official)]

    def table(sel: list[_Row], first: str) -> str:
        body = []
        for r in sel:
            body.append(
                [
                    str(r.index),
                    _tid(r.task_id),
                    _e(level_display(r.level)),
                    _cell(r.raw.get("answer", MISSING)),
                    _cell(r.raw.get("prediction", MISSING)),
                    _verdict(r.correct) if first == "stored" else _verdict(r.official),
                    _verdict(r.official) if first == "stored" else _verdict(r.lenient),
                    _graded_text(r),
                ]
            )
        heads = ["#", "Task", "Level", "Truth", "Prediction"]
        heads += ["Stored", "Official"] if first == "stored" else ["Official", "Lenient"]
        return _table([*heads, "Graded"], body, numeric={0}, cls="wide")

    lenient_fp = sum(1 for r in ol if r.lenient and not r.official)
    lenient_fn = len(ol) - lenient_fp
    blank = [r for r in ol if r.lenient and not r.official and _lenient_blank(r.raw.get("prediction"))]
    real = [r for r in ol if not any(r is b for b in blank)]
    if ol:
        part1 = (
            f'<p class="note">{len(ol)} of {n} re-scored rows: lenient accepts {lenient_fp} the official scorer rejects'
            f" and rejects {lenient_fn} it accepts.</p>"
        )
        if real:
            part1 += table(real, "official")
        else:
            part1 += '<p class="empty">No disagreement on a non-empty prediction.</p>'
        if blank:
            nb = len(blank)
            part1 += (
                f'<details class="more"><summary>{nb} more row{"s" if nb != 1 else ""} with an empty prediction '
                "(nothing left after lenient normalisation; the lenient rule accepts it for any truth)</summary>"
                + table(blank, "official")
                + "</details>"
            )
    else:
        part1 = f'<p class="empty">The official and lenient scorers agree on all {n} re-scored rows.</p>'
    part2 = (
        f'<p class="note">{len(so)} of {n} rows: the verdict stored in the file is not what the official scorer decides now '
        "(e.g. a different evaluator, or the tolerant number comparison agent-framework uses since 2026-02).</p>" + table(so, "stored")
        if so
        else f'<p class="empty">The stored <code>is_correct</code> matches the official scorer on all {n} re-scored rows.</p>'
    )
    return (
        '<section id="disagreements"><h2>Scorer disagreements</h2>'
        "<p class=\"note\">Every row re-scored from its <code>prediction</code> and <code>answer</code> with "
        "<code>gaia</code> (the leaderboard's <code>question_scorer</code>), <code>gaia-lenient</code> "
        "(bidirectional substring) and <code>gaia-graded</code> (0–1)."
        + (f" {'; '.join(notes).capitalize()}." if notes else "")
        + "</p>"
        f'<div class="figure">{chart}</div>'
        f'<h3 id="official-vs-lenient">Official vs lenient</h3>{part1}'
        f'<h3 id="stored-vs-official">Stored verdict vs official</h3>{part2}</section>'
    )


def _tasks_section(rows: list[_Row]) -> str:
    if not rows:
        return '<section id="tasks"><h2>All tasks</h2><p class="empty">No tasks.</p></section>'
    body = [
        [
            str(r.index),
            _tid(r.task_id),
            _e(level_display(r.level)),
            _badge(r.outcome),
            _cell(r.raw.get("answer", MISSING)),
            _cell(r.raw.get("prediction", MISSING)),
            _secs(r.runtime),
            _cell(r.raw.get("question", MISSING)),
        ]
        for r in rows
    ]
    table = _table(["#", "Task", "Level", "Outcome", "Truth", "Prediction", "Runtime", "Question"], body, numeric={0, 6}, cls="wide")
    return (
        f'<section id="tasks"><h2>All tasks</h2><details><summary>Show all {len(rows)} task{"s" if len(rows) != 1 else ""} in file order</summary>'
        f"{table}</details></section>"
    )


def _table(
    heads: list[str], body: list[list[str]], *, numeric: Collection[int] = (), cls: str = "", total_last: bool = False
) -> str:
    """A table of already-escaped cells; ``numeric`` column indexes are right-aligned."""
    th = "".join(f'<th class="{"num" if i in numeric else ""}">{h}</th>' for i, h in enumerate(heads))
    trs = []
    for j, row in enumerate(body):
        tr_cls = ' class="total"' if total_last and j == len(body) - 1 else ""
        tds = "".join(f'<td class="{"num" if i in numeric else ""}">{c}</td>' for i, c in enumerate(row))
        trs.append(f"<tr{tr_cls}>{tds}</tr>")
    return f'<div class="table-wrap"><table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{"".join(trs)}</tbody></table></div>'


# --------------------------------------------------------------------------- page

_CSS = """
:root{color-scheme:light;--ink:#1f2328;--muted:#59636e;--line:#d8dee4;--soft:#f6f8fa;--accent:#3b5bdb}
*{box-sizing:border-box}
html{background:#fff}
body{margin:0;color:var(--ink);background:#fff;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue","Noto Sans","Liberation Sans",Arial,sans-serif;-webkit-font-smoothing:antialiased}
header.top{background:linear-gradient(180deg,#f3f6ff 0,#fff 100%);border-bottom:1px solid var(--line)}
.wrap{max-width:1080px;margin:0 auto;padding:0 28px}
header.top .wrap{padding-top:28px;padding-bottom:8px}
h1{font-size:28px;line-height:1.2;margin:0 0 6px;letter-spacing:-.01em}
h2{font-size:21px;margin:0 0 6px;letter-spacing:-.005em}
h3{font-size:15px;margin:22px 0 8px;color:var(--ink)}
nav{display:flex;flex-wrap:wrap;gap:6px 18px;margin:14px 0 6px;font-size:14px}
nav a{color:var(--accent);text-decoration:none}
nav a:hover{text-decoration:underline}
section{padding:30px 0 10px;border-bottom:1px solid #eef1f4}
section:last-of-type{border-bottom:0}
.meta{color:var(--muted);font-size:13.5px;margin-bottom:14px;overflow-wrap:anywhere}
.warn{color:#b35c00;font-weight:600}
.cards{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:12px}
.card{background:var(--soft);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.card .label{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);font-weight:600}
.card .value{font-size:26px;font-weight:700;font-variant-numeric:tabular-nums;line-height:1.25;margin-top:2px}
.card .sub{font-size:12.5px;color:var(--muted);min-height:1.2em}
.mix{display:flex;height:12px;border-radius:6px;overflow:hidden;margin:18px 0 8px;background:var(--line)}
.mix span{display:block;min-width:2px}
.legend{display:flex;flex-wrap:wrap;gap:4px 18px;font-size:13px;color:var(--ink);margin:6px 0 4px}
.legend .key{display:inline-flex;align-items:center;gap:6px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:3px}
.note{color:var(--muted);font-size:13.5px;margin:4px 0 12px;max-width:78ch}
.empty{background:#f4fbf5;border:1px solid #cfe9d4;color:#22662f;border-radius:8px;padding:10px 14px;font-size:14px}
code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;background:#eff2f5;border-radius:4px;padding:1px 5px}
.figure{margin:8px 0 6px;overflow-x:auto}
svg.chart{display:block;width:100%;max-width:100%;height:auto;font-variant-numeric:tabular-nums}
.panels{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px 20px}
.panels.c3{grid-template-columns:repeat(3,minmax(0,1fr))}
.panel{border:1px solid var(--line);border-radius:10px;padding:8px 10px 4px}
.panel-title{font-weight:600;font-size:13.5px;margin-bottom:2px}
.muted{color:var(--muted)}
.table-wrap{overflow-x:auto;margin:10px 0 14px;border:1px solid var(--line);border-radius:10px}
table{border-collapse:collapse;width:100%;font-size:13.5px}
th,td{text-align:left;padding:7px 10px;vertical-align:top;border-bottom:1px solid #eef1f4}
th{background:var(--soft);font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em;white-space:nowrap}
tbody tr:last-child td{border-bottom:0}
tbody tr:nth-child(even){background:#fbfcfd}
tr.total td{font-weight:700;background:var(--soft)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.wide td{max-width:320px}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
details.long summary{cursor:pointer;list-style:none}
details.long summary::-webkit-details-marker{display:none}
details.long[open] summary{display:none}
#tasks>details>summary,details.more>summary{cursor:pointer;color:var(--accent);font-weight:600;margin:6px 0}
.badge{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:1px 9px;white-space:nowrap;color:#fff}
.badge.correct{background:#2f9e44}.badge.wrong{background:#e03131}.badge.error{background:#f59f00;color:#1f2328}.badge.timeout{background:#7048e8}
.tid{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;overflow-wrap:anywhere}
.tid.short{white-space:nowrap}
.yes{color:#2b8a3e;font-weight:600;white-space:nowrap}.no{color:#c92a2a;font-weight:600;white-space:nowrap}
.ebars{display:grid;gap:6px;margin:6px 0 10px}
.ebar{display:grid;grid-template-columns:42px 200px 1fr;gap:12px;align-items:center;font-size:13.5px}
.ecount{text-align:right;font-weight:700;font-variant-numeric:tabular-nums}
.etrack{background:#f1f3f5;border-radius:4px;height:14px;overflow:hidden}
.etrack span{display:block;height:100%;border-radius:4px}
footer{color:var(--muted);font-size:12.5px;padding:24px 0 40px}
@media (max-width:760px){.cards{grid-template-columns:repeat(2,minmax(0,1fr))}.panels,.panels.c3{grid-template-columns:1fr}.ebar{grid-template-columns:36px 90px 1fr}}
@media print{header.top{background:none}section{break-inside:avoid-page}}
"""


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("gaia-fast")
    except Exception:  # noqa: BLE001
        return ""


def _records(source: Any) -> tuple[list[dict[str, Any]], str, int]:
    if isinstance(source, Results):
        return source.rows, str(source.path) if source.path is not None else "", len(source.skipped)
    if isinstance(source, (str, os.PathLike)):
        res = read_results(source)
        return res.rows, str(res.path), len(res.skipped)
    try:
        import polars as pl

        if isinstance(source, pl.LazyFrame):
            source = source.collect()
        if isinstance(source, pl.DataFrame):
            return source.to_dicts(), "", 0
    except ImportError:  # pragma: no cover
        pass
    if hasattr(source, "to_pylist"):  # pyarrow Table
        return list(source.to_pylist()), "", 0
    rows = list(source)
    if not all(isinstance(r, dict) for r in rows):
        raise TypeError("build_report expects a results path, Results, a polars/pyarrow table or a list of dicts")
    return rows, "", 0


def build_report(source: Results | str | os.PathLike[str] | Any, *, title: str | None = None) -> str:
    """The HTML page (a ``str``) for a results JSONL path, a :class:`~gaia_fast.harness.viewer.Results`,
    a Polars DataFrame/LazyFrame or pyarrow Table with the results columns, or a list of
    row dicts. ``title`` defaults to ``GAIA results — <file name>``."""
    records, path, skipped = _records(source)
    rows = _rows(records)
    _rescore(rows)
    stats = level_stats(records)
    name = Path(path).name if path else ""
    page_title = title or (f"GAIA results — {name}" if name else "GAIA results")
    ver = _version()
    nav = "".join(
        f'<a href="#{sid}">{lab}</a>'
        for sid, lab in zip(
            SECTION_IDS, ("Summary", "Accuracy by level", "Runtime", "Errors &amp; timeouts", "Scorer disagreements", "All tasks")
        )
    )
    if rows:
        body = (
            _accuracy_section(rows, stats)
            + _runtime_section(rows, stats)
            + _errors_section(rows)
            + _disagreement_section(rows)
            + _tasks_section(rows)
        )
    else:
        body = "".join(
            f'<section id="{sid}"><h2>{lab}</h2><p class="empty">No results in this file.</p></section>'
            for sid, lab in zip(
                SECTION_IDS[1:], ("Accuracy by level", "Runtime", "Errors and timeouts", "Scorer disagreements", "All tasks")
            )
        )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light">'
        f'<meta name="generator" content="gaia-fast{(" " + _e(ver)) if ver else ""}">'
        f"<title>{_e(page_title)}</title><style>{_CSS}</style></head><body>"
        f'<header class="top"><div class="wrap"><h1>{_e(page_title)}</h1><nav>{nav}</nav></div></header>'
        f'<main class="wrap">{_summary(rows, stats, path, skipped)}{body}</main>'
        f'<footer class="wrap">Generated by gaia-fast{(" " + _e(ver)) if ver else ""} · '
        "scorers: gaia (leaderboard question_scorer), gaia-lenient, gaia-graded · self-contained page, no network needed.</footer>"
        "</body></html>\n"
    )


def write_report(source: Results | str | os.PathLike[str] | Any, out: str | os.PathLike[str], *, title: str | None = None) -> Path:
    """Build the page (see :func:`build_report`) and write it to ``out`` atomically (a
    temporary file in the same folder, then ``os.replace``). Returns the path."""
    return write_page(build_report(source, title=title), out)


def write_page(page: str, out: str | os.PathLike[str]) -> Path:
    """Write an HTML page to ``out`` atomically. Returns the path."""
    dest = Path(out)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent if str(dest.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(page)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return dest
