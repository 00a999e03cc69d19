"""GAIA answer pairs shaped like real agent runs, for ``bench_gaia.py --mix realistic``.

Real GAIA validation archives differ from tidy synthetic answers: agents answer with a
sentence or a paragraph (13 % of predictions are longer than 64 bytes, p90 about 100, p99
about 1,100, the longest about 2,000 characters), 3 % of predictions hold non-ASCII text,
and 22 % are null (runs that crashed or timed out). Truths stay short: numbers, names and
lists, median 5 characters, p90 28, longest 124.

The generator builds a pool of distinct pairs in plain Python with a seeded
``random.Random`` (their shape is what matters, and sentences are easier to write than to
vectorise), then resamples it with numpy indices, as the real corpus of 809 pairs was
resampled to millions of rows. Long predictions contain or restate the truth about half of
the time (the lenient rule's matches), and sometimes are a wrong or failed answer.

``length_bucket`` gives each row a bucket by the longer side in UTF-8 bytes and whether a
side holds non-ASCII text, for per-bucket tables.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import polars as pl

SEED = 20251125
POOL_SIZE = 40_000

#: Share of null predictions.
NULL_SHARE = 0.22
#: Share of non-null predictions with non-ASCII text (3 % of all rows).
NON_ASCII_SHARE = 0.024 / (1 - NULL_SHARE)
#: Share of all rows whose prediction is longer than 64 bytes; within them, the share of
#: each length band (chosen so that p90 ~ 100 and p99 ~ 1,100 over all rows).
LONG_SHARE = 0.13
LONG_BANDS: tuple[tuple[float, int, int], ...] = (
    (0.32, 65, 103),
    (0.60, 104, 1_100),
    (0.08, 1_100, 2_000),
)

_NAMES = (
    "Paris", "London", "Nile", "Amazon", "Tokyo", "Mercury", "Jupiter", "Hamlet", "Darwin",
    "Einstein", "Picasso", "Bach", "Rust", "Linux", "Oxygen", "Titanic", "Voyager", "Beatles",
    "Everest", "Kilimanjaro", "Saint Petersburg", "New York", "Cape Town", "Buenos Aires",
    "Marie Curie", "Alan Turing", "Ada Lovelace", "Isaac Newton", "St. Louis", "Dr. Who",
    "O'Brien", "Coca-Cola", "X-ray", "Apollo 11", "Mona Lisa", "Van Gogh", "Right", "green",
    "backtick", "Guava", "broccoli", "Morarji Desai", "Wharvton", "Maktay", "Santa Monica",
    "Indonesia", "Claus", "Extremely", "Annie Levin", "cloak", "Rockhopper penguin",
    "Alfonso Visconti", "Yoshida", "Uehara", "inference", "orange", "THE CASTLE", "Brunei",
    "Li Peng", "Ta-Da!", "egalitarian", "Harbinger", "fluffy", "Reticulated Python",
)
_NON_ASCII_NAMES = (
    "Zürich", "São Paulo", "Malmö", "Kraków", "Gödel", "Paul Erdős", "Antonín Dvořák",
    "Côte d'Ivoire", "Αθήνα", "Σωκράτης", "東京", "北京市", "서울", "Москва", "İstanbul",
    "Straße", "Ñuñoa", "Émile Zola",
)
_WORDS = (
    "the answer based on my research and analysis of the available sources it appears that "
    "according to records data report official website page article table figure year total "
    "number of items found listed shows indicates confirms final result value approximately "
    "estimated after checking several documents including archive search results were "
    "inconclusive but most likely however there is some uncertainty regarding exact figure "
    "because different sources give slightly different values this reflects latest available"
).split()
_NON_ASCII_WORDS = (
    "naïve café résumé – — “quoted” ‘single’ … µm °C × ≈ → Größe Änderung déjà vu "
    "研究 答案 数据 結果 의 답 ответ данные λόγος €"
).split()
_OPENERS = (
    "The answer is {a}.",
    "Final answer: {a}",
    "FINAL ANSWER: {a}",
    "Based on my research, the answer is {a}.",
    "After reviewing the sources, I found that the answer is **{a}**.",
    "{a} is the correct answer according to the official records.",
    "I believe the answer is {a}, but I am not fully certain.",
    "According to the data I found, the result is {a}.",
)
_FAILURES = (
    "I was unable to determine the answer from the available information.",
    "Error: the task timed out before a final answer was produced.",
    "I'm sorry, but I cannot access the file needed to answer this question.",
    "Agent stopped due to iteration limit or time limit.",
    "Unable to find the information after searching multiple sources.",
)


def _number(r: random.Random) -> str:
    k = r.random()
    if k < 0.55:
        return str(int(10 ** r.uniform(0, 5)))
    if k < 0.85:
        return f"{10 ** r.uniform(-1, 4):.{r.randint(1, 3)}f}"
    return str(r.randint(1, 40))


def _truth(r: random.Random) -> tuple[str, str]:
    """A truth and its kind; median about 5 characters, p90 about 28, at most 124."""
    k = r.random()
    if k < 0.40:
        return _number(r), "number"
    if k < 0.80:
        name = r.choice(_NAMES)
        if r.random() < 0.07:
            name = " ".join(r.choice(_NAMES) for _ in range(r.randint(2, 5)))
        return name[:124], "name"
    n = r.randint(2, 6)
    numeric = r.random() < 0.4
    items = [_number(r) if numeric else r.choice(_NAMES) for _ in range(n)]
    if r.random() < 0.05:  # a few long lists, up to the longest real truths
        items += [r.choice(_NAMES) for _ in range(r.randint(4, 12))]
    text = r.choice((", ", ",", "; ")).join(items)
    return text[:124], "list"


def _short_prediction(r: random.Random, truth: str, kind: str) -> str:
    """Answers of at most 64 bytes: exact, reformatted, near misses and wrong answers."""
    k = r.random()
    if k < 0.45:
        return truth
    if k < 0.55:
        return truth.lower() if r.random() < 0.7 else truth.upper()
    if k < 0.62:
        return truth + r.choice((".", " ", "%", "!"))
    if kind == "number" and k < 0.75:
        return r.choice(("$", "", "~")) + (f"{float(truth):,}" if r.random() < 0.5 else truth + r.choice((" km", ".0", "0")))
    if kind == "list" and k < 0.75:
        parts = truth.replace(";", ",").split(",")
        r.shuffle(parts)
        return ", ".join(p.strip() for p in parts[: r.randint(1, len(parts))])
    if k < 0.85:
        other, _ = _truth(r)
        return other
    return r.choice(("The " + truth, truth + " (approx.)", "about " + truth, "None", "N/A", ""))


def _filler(r: random.Random, n_bytes: int, non_ascii: bool) -> str:
    out: list[str] = []
    size = 0
    while size < n_bytes:
        w = r.choice(_NON_ASCII_WORDS) if non_ascii and r.random() < 0.25 else r.choice(_WORDS)
        if r.random() < 0.06:
            w += r.choice((",", ".", ";", ":"))
        if r.random() < 0.03:
            w = str(r.randint(1, 2030))
        out.append(w)
        size += len(w.encode()) + 1
    return " ".join(out)


def _long_prediction(r: random.Random, truth: str, n_bytes: int, non_ascii: bool) -> str:
    """An agent-style sentence or paragraph of about ``n_bytes`` bytes (at most 2,000
    characters), restating the truth about half of the time."""
    k = r.random()
    if k < 0.50:
        answer = truth
    elif k < 0.62:
        answer = truth.lower()
    elif k < 0.85:
        answer, _ = _truth(r)
    else:
        answer = ""
    head = r.choice(_FAILURES) if answer == "" else r.choice(_OPENERS).format(a=answer)
    where = r.random()
    rest = max(0, n_bytes - len(head.encode()))
    if rest == 0:
        text = head
    elif where < 0.5:
        text = head + " " + _filler(r, rest, non_ascii)
    elif where < 0.8:
        text = _filler(r, rest, non_ascii) + " " + head
    else:
        cut = rest // 2
        text = _filler(r, cut, non_ascii) + " " + head + " " + _filler(r, rest - cut, non_ascii)
    return text[:2_000]


def _non_ascii_short(r: random.Random, truth: str, kind: str) -> str:
    k = r.random()
    if kind == "number" and k < 0.5:
        digits = {str(d): chr(0xFF10 + d) for d in range(10)}
        return "".join(digits.get(c, c) for c in truth)
    if k < 0.5:
        return r.choice(_NON_ASCII_NAMES)
    return r.choice(("“", "‘", "")) + truth + r.choice(("”", "’", " ✓", "…"))


def pool(size: int = POOL_SIZE, seed: int = SEED) -> pl.DataFrame:
    """``size`` distinct-ish pairs: ``prediction`` (String, 22 % null), ``truth``, ``kind``."""
    r = random.Random(seed)
    preds: list[str | None] = []
    truths: list[str] = []
    kinds: list[str] = []
    band_weights = [w for w, _, _ in LONG_BANDS]
    for _ in range(size):
        truth, kind = _truth(r)
        if kind == "name" and r.random() < 0.04:
            truth = r.choice(_NON_ASCII_NAMES)
        truths.append(truth)
        kinds.append(kind)
        if r.random() < NULL_SHARE:
            preds.append(None)
            continue
        non_ascii = r.random() < NON_ASCII_SHARE
        if r.random() < LONG_SHARE / (1 - NULL_SHARE):
            _, lo, hi = r.choices(LONG_BANDS, weights=band_weights)[0]
            preds.append(_long_prediction(r, truth, r.randint(lo, hi), non_ascii))
        elif non_ascii:
            preds.append(_non_ascii_short(r, truth, kind))
        else:
            preds.append(_short_prediction(r, truth, kind)[:64])
    return pl.DataFrame(
        {"prediction": preds, "truth": truths, "kind": kinds},
        schema={"prediction": pl.String, "truth": pl.String, "kind": pl.String},
    )


def realistic_pairs(n: int, seed: int = SEED, pool_size: int = POOL_SIZE) -> pl.DataFrame:
    """``n`` rows resampled (numpy indices) from a pool of generated pairs, with a
    ``bucket`` column (see :func:`length_bucket`)."""
    base = pool(min(pool_size, max(n, 1)), seed)
    idx = np.random.default_rng(seed + 1).integers(0, base.height, n)
    frame = base[idx]
    return frame.with_columns(bucket=length_bucket()).rechunk()


#: Buckets in table order.
BUCKETS: tuple[str, ...] = (
    "null prediction",
    "both ≤64 B, ASCII",
    "both ≤64 B, non-ASCII",
    "long side 65–256 B, ASCII",
    "long side 257–1,024 B, ASCII",
    "long side >1,024 B, ASCII",
    "long side, non-ASCII",
)


def length_bucket(prediction: str = "prediction", truth: str = "truth") -> pl.Expr:
    """The row's bucket (one of :data:`BUCKETS`) by the longer side's UTF-8 length."""
    p, t = pl.col(prediction), pl.col(truth)
    longest = pl.max_horizontal(p.str.len_bytes().fill_null(0), t.str.len_bytes().fill_null(0))
    non_ascii = p.str.contains(r"[^\x00-\x7F]").fill_null(False) | t.str.contains(r"[^\x00-\x7F]").fill_null(False)
    return (
        pl.when(p.is_null())
        .then(pl.lit(BUCKETS[0]))
        .when(longest <= 64)
        .then(pl.when(non_ascii).then(pl.lit(BUCKETS[2])).otherwise(pl.lit(BUCKETS[1])))
        .when(non_ascii)
        .then(pl.lit(BUCKETS[6]))
        .when(longest <= 256)
        .then(pl.lit(BUCKETS[3]))
        .when(longest <= 1024)
        .then(pl.lit(BUCKETS[4]))
        .otherwise(pl.lit(BUCKETS[5]))
    )


def shape_stats(frame: pl.DataFrame) -> dict[str, float]:
    """The statistics the issue gives for the real corpus, measured on ``frame``."""
    plen = frame["prediction"].str.len_chars()
    pbytes = frame["prediction"].str.len_bytes()
    tlen = frame["truth"].str.len_chars()
    n = frame.height
    filled = plen.fill_null(0)
    return {
        "null": frame["prediction"].null_count() / n,
        "non_ascii": frame["prediction"].str.contains(r"[^\x00-\x7F]").fill_null(False).sum() / n,
        "long": (pbytes.fill_null(0) > 64).sum() / n,
        "pred_median": float(filled.median() or 0),
        "pred_p90": float(filled.quantile(0.90) or 0),
        "pred_p99": float(filled.quantile(0.99) or 0),
        "pred_max": float(filled.max() or 0),
        "truth_median": float(tlen.median() or 0),
        "truth_p90": float(tlen.quantile(0.90) or 0),
        "truth_max": float(tlen.max() or 0),
    }


def buckets_present(frame: pl.DataFrame) -> Sequence[str]:
    have = set(frame["bucket"].unique().to_list())
    return [b for b in BUCKETS if b in have]
