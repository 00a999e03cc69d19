"""Pure-Python twin of VLMEvalKit's caption evaluation (``ImageCaptionDataset.evaluate``).

VLMEvalKit (``vlmeval/dataset/image_caption.py``, the same at c03bc048, 2024-07-27, and at
head e8e78f05) builds ``ref[str(i)] = [str(prediction)]`` and ``gt[str(i)] =
eval(answer)`` for every row and runs pycocoevalcap 1.2's ``Bleu(4)``, ``Rouge()`` and
``Cider()`` on them, with no tokenizer (the sentences are split as they are). The report
is ``{"Bleu": [b1, b2, b3, b4], "ROUGE_L": r, "CIDEr": c}``, each value times 100.

This module restates those three scorers with plain Python operations in the reference's
order of floating-point work, so that it is an oracle for ``gaia_fast._native``'s
caption functions:

* words: ``str.split()`` for BLEU and CIDEr, ``str.split(" ")`` for ROUGE-L (empty words
  kept);
* BLEU: corpus counts with the "closest" reference length (ties to the shorter one),
  ``tiny = 1e-15`` and ``small = 1e-9`` guards, the brevity penalty when the ratio is
  below 1; per image the same on that image's counts;
* ROUGE-L: word LCS, best precision and best recall over the references, F with beta 1.2;
* CIDEr: document frequency over the images' reference sets, ``log`` idf against
  ``log(number of images)``, tf-idf cosine per n-gram length with a Gaussian length
  penalty (sigma 6), averaged over n = 1..4 and over the references, times 10;
* means: ``numpy.mean`` (pairwise summation, :func:`np_sum`).

``log`` is the C library's (``math.log``); numpy builds that use their own vectorised
``log`` can differ from it in the last bit for some integers (above 9,000 on the
machines checked), which can move CIDEr's last digits on datasets of that many images.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["bleu", "caption_scores", "cider", "np_mean", "np_sum", "rouge_l"]

N = 4
SIGMA = 6.0
BETA = 1.2


def np_sum(values: Sequence[float]) -> float:
    """``numpy.sum`` of a contiguous float64 array: pairwise summation, 8 accumulators
    over blocks of up to 128 values."""

    def pw(i: int, n: int) -> float:
        if n < 8:
            r = 0.0
            for k in range(n):
                r += values[i + k]
            return r
        if n <= 128:
            acc = [values[i + j] for j in range(8)]
            k = 8
            while k < n - (n % 8):
                for j in range(8):
                    acc[j] += values[i + k + j]
                k += 8
            r = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
            while k < n:
                r += values[i + k]
                k += 1
            return r
        n2 = n // 2
        n2 -= n2 % 8
        return pw(i, n2) + pw(i + n2, n - n2)

    return pw(0, len(values))


def np_mean(values: Sequence[float]) -> float:
    """``numpy.mean`` of a float64 array (NaN when empty)."""
    return np_sum(values) / len(values) if values else math.nan


def _ngrams(words: list[str]) -> dict[tuple[str, ...], int]:
    """n-gram counts, n = 1..4, in first-occurrence order by n then position."""
    counts: dict[tuple[str, ...], int] = {}
    for k in range(1, N + 1):
        for i in range(len(words) - k + 1):
            g = tuple(words[i : i + k])
            counts[g] = counts.get(g, 0) + 1
    return counts


def _bleu_from(correct: Sequence[int], guess: Sequence[int], testlen: int, reflen: int) -> list[float]:
    tiny, small = 1e-15, 1e-9
    out = []
    b = 1.0
    for k in range(N):
        b *= (float(correct[k]) + tiny) / (float(guess[k]) + small)
        out.append(b ** (1.0 / (k + 1)))
    ratio = (testlen + tiny) / (reflen + small)
    if ratio < 1:
        out = [x * math.exp(1 - 1 / ratio) for x in out]
    return out


def bleu(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> tuple[list[float], list[list[float]]]:
    """Corpus BLEU-1..4 and the per-image BLEU-1..4 (``Bleu(4).compute_score``)."""
    total_correct = [0] * N
    total_guess = [0] * N
    total_test = total_ref = 0
    per = []
    for hyp, refs in zip(predictions, references):
        ref_lens = []
        maxcounts: dict[tuple[str, ...], int] = {}
        for r in refs:
            words = r.split()
            ref_lens.append(len(words))
            for g, c in _ngrams(words).items():
                maxcounts[g] = max(maxcounts.get(g, 0), c)
        words = hyp.split()
        testlen = len(words)
        reflen = min((abs(x - testlen), x) for x in ref_lens)[1]
        guess = [max(0, testlen - k + 1) for k in range(1, N + 1)]
        correct = [0] * N
        for g, c in _ngrams(words).items():
            correct[len(g) - 1] += min(maxcounts.get(g, 0), c)
        per.append(_bleu_from(correct, guess, testlen, reflen))
        total_test += testlen
        total_ref += reflen
        for k in range(N):
            total_correct[k] += correct[k]
            total_guess[k] += guess[k]
    return _bleu_from(total_correct, total_guess, total_test, total_ref), per


def _lcs(a: list[str], b: list[str]) -> int:
    if len(a) < len(b):
        a, b = b, a
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            cur[j] = prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1])
        prev = cur
    return prev[len(b)]


def rouge_l(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> tuple[float, list[float]]:
    """Mean and per-image ROUGE-L (``Rouge().compute_score``)."""
    per = []
    for hyp, refs in zip(predictions, references):
        cand = hyp.split(" ")
        precs, recs = [], []
        for r in refs:
            toks = r.split(" ")
            lcs = _lcs(toks, cand)
            precs.append(lcs / float(len(cand)))
            recs.append(lcs / float(len(toks)))
        p, r = max(precs), max(recs)
        per.append(((1 + BETA**2) * p * r) / float(r + BETA**2 * p) if p != 0 and r != 0 else 0.0)
    return np_mean(per), per


def cider(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> tuple[float, list[float]]:
    """Mean and per-image CIDEr (``Cider().compute_score``)."""
    crefs = [[_ngrams(r.split()) for r in refs] for refs in references]
    ctest = [_ngrams(h.split()) for h in predictions]
    df: dict[tuple[str, ...], float] = {}
    for refs in crefs:
        for g in {g for r in refs for g in r}:
            df[g] = df.get(g, 0.0) + 1
    # Upstream's sanity check; with no reference word at all, max() of nothing raises.
    assert len(ctest) >= max(df.values())
    ref_len = math.log(float(len(crefs)))

    def vec(counts: dict[tuple[str, ...], int]) -> tuple[list[dict], list[float], int]:
        v: list[dict] = [{} for _ in range(N)]
        norm = [0.0] * N
        length = 0
        for g, tf in counts.items():
            d = math.log(max(1.0, df.get(g, 0.0)))
            n = len(g) - 1
            v[n][g] = float(tf) * (ref_len - d)
            norm[n] += v[n][g] ** 2
            if n == 1:
                length += tf
        return v, [math.sqrt(x) for x in norm], length

    scores = []
    for test, refs in zip(ctest, crefs):
        vh, nh, lh = vec(test)
        total = [0.0] * N
        for ref in refs:
            vr, nr, lr = vec(ref)
            delta = float(lh - lr)
            for n in range(N):
                val = 0.0
                for g, x in vh[n].items():
                    y = vr[n].get(g, 0.0)
                    val += min(x, y) * y
                if nh[n] != 0 and nr[n] != 0:
                    val /= nh[n] * nr[n]
                val *= math.e ** (-(delta**2) / (2 * SIGMA**2))
                total[n] += val
        s = np_mean(total)
        s /= len(refs)
        s *= 10.0
        scores.append(s)
    return np_mean(scores), scores


def caption_scores(predictions: Sequence[str], references: Sequence[Sequence[str]]) -> dict:
    """VLMEvalKit's ``_score.json`` for these rows: ``Bleu`` (four values), ``ROUGE_L``,
    ``CIDEr``, each times 100. Every row needs at least one reference."""
    b, _ = bleu(predictions, references)
    r, _ = rouge_l(predictions, references)
    c, _ = cider(predictions, references)
    return {"Bleu": [x * 100 for x in b], "ROUGE_L": r * 100, "CIDEr": c * 100}
