//! Caption metrics as VLMEvalKit computes them: pycocoevalcap 1.2's `Bleu(4)`, `Rouge()`
//! and `Cider()` on untokenised text (`ImageCaptionDataset.evaluate`, the same at c03bc048
//! and at head).
//!
//! Every floating-point step follows the reference's order, so the numbers are the same
//! to the last bit: BLEU and CIDEr split on Python whitespace (`str.split()`), ROUGE-L on
//! single spaces (`str.split(" ")`, empty words kept); means are numpy's pairwise sums
//! ([`crate::numpy::np_sum`]); `ln`, `exp` and `powf` are the C library's, as Python's `math` and float
//! `**` are.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::fasthash::FastHash;
use crate::numpy::np_mean;
use crate::text::is_py_space;

/// n-gram orders (1..=4).
pub const N: usize = 4;
const SIGMA: f64 = 6.0;
const BETA: f64 = 1.2;
const NONE: u32 = u32::MAX;

/// An n-gram of word ids, padded with [`NONE`].
type Gram = [u32; N];

/// Maps keyed by word ids and n-grams (the whole work of BLEU and CIDEr).
type Map<K, V> = HashMap<K, V, FastHash>;

/// Every metric, per row and for the corpus (the reference's scale, not times 100).
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    pub bleu: [f64; N],
    pub bleu_rows: Vec<[f64; N]>,
    pub rouge_l: f64,
    pub rouge_l_rows: Vec<f64>,
    /// None where the reference raises: no reference of any row has a word
    /// (`max()` of an empty document frequency).
    pub cider: Option<f64>,
    pub cider_rows: Vec<f64>,
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|w| !w.is_empty())
}

/// n-gram counts, n = 1..=4, in first-occurrence order by n then position (the order of
/// the reference's dict).
fn ngrams(ids: &[u32]) -> Vec<(Gram, u32)> {
    let cap = N * ids.len();
    let mut out: Vec<(Gram, u32)> = Vec::with_capacity(cap);
    let mut at: Map<Gram, usize> = Map::with_capacity_and_hasher(cap, Default::default());
    for k in 1..=N {
        for w in ids.windows(k) {
            let mut g = [NONE; N];
            g[..k].copy_from_slice(w);
            match at.get(&g) {
                Some(&j) => out[j].1 += 1,
                None => {
                    at.insert(g, out.len());
                    out.push((g, 1));
                }
            }
        }
    }
    out
}

fn order(g: &Gram) -> usize {
    g.iter().take_while(|&&w| w != NONE).count() - 1
}

fn bleu_from(correct: &[u64; N], guess: &[u64; N], testlen: u64, reflen: u64) -> [f64; N] {
    let (tiny, small) = (1e-15, 1e-9);
    let mut out = [0.0; N];
    let mut b = 1.0f64;
    for k in 0..N {
        b *= (correct[k] as f64 + tiny) / (guess[k] as f64 + small);
        // Opaque exponent: the compiler would turn a known `powf(x, 0.5)` into `sqrt(x)`,
        // which differs from the C library's `pow` in the last bit on some values.
        out[k] = b.powf(std::hint::black_box(1.0 / (k + 1) as f64));
    }
    let ratio = (testlen as f64 + tiny) / (reflen as f64 + small);
    if ratio < 1.0 {
        let bp = (1.0 - 1.0 / ratio).exp();
        for x in &mut out {
            *x *= bp;
        }
    }
    out
}

struct BleuRow {
    testlen: u64,
    reflen: u64,
    guess: [u64; N],
    correct: [u64; N],
}

fn bleu_row(hyp: &[u32], refs: &[Vec<u32>], ref_counts: &[Vec<(Gram, u32)>]) -> BleuRow {
    let mut maxcounts: Map<Gram, u32> = Map::default();
    for counts in ref_counts {
        for &(g, c) in counts {
            let m = maxcounts.entry(g).or_insert(0);
            *m = (*m).max(c);
        }
    }
    let testlen = hyp.len() as u64;
    // "closest": the smallest |len - testlen|, ties to the shorter reference.
    let reflen = refs.iter().map(|r| r.len() as u64).min_by_key(|&l| (l.abs_diff(testlen), l)).unwrap_or(0);
    let mut guess = [0u64; N];
    for (k, g) in guess.iter_mut().enumerate() {
        *g = testlen.saturating_sub(k as u64);
    }
    let mut correct = [0u64; N];
    for (g, c) in ngrams(hyp) {
        correct[order(&g)] += u64::from(c.min(maxcounts.get(&g).copied().unwrap_or(0)));
    }
    BleuRow { testlen, reflen, guess, correct }
}

/// Length of a longest common subsequence of two word lists (the reference's dynamic
/// programme gives the same number). Bit-parallel (Hyyrö) when the shorter list has at
/// most 64 words, the table otherwise.
fn lcs(a: &[u32], b: &[u32]) -> usize {
    let (long, short) = if a.len() < b.len() { (b, a) } else { (a, b) };
    if short.is_empty() {
        return 0;
    }
    if short.len() <= 64 {
        let mut masks: Map<u32, u64> = Map::default();
        for (j, &w) in short.iter().enumerate() {
            *masks.entry(w).or_insert(0) |= 1u64 << j;
        }
        let all = if short.len() == 64 { u64::MAX } else { (1u64 << short.len()) - 1 };
        let mut v = all;
        for w in long {
            if let Some(&m) = masks.get(w) {
                let u = v & m;
                v = (v.wrapping_add(u) | (v - u)) & all;
            }
        }
        return short.len() - v.count_ones() as usize;
    }
    let mut prev = vec![0usize; short.len() + 1];
    let mut cur = vec![0usize; short.len() + 1];
    for &x in long {
        for (j, &y) in short.iter().enumerate() {
            cur[j + 1] = if x == y { prev[j] + 1 } else { prev[j + 1].max(cur[j]) };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[short.len()]
}

/// ROUGE-L of one candidate against its references (`Rouge.calc_score`).
pub fn rouge_l_one(candidate: &str, refs: &[&str]) -> f64 {
    // Words as ids local to the row; a candidate word no reference has matches nothing.
    let mut ids: Map<&str, u32> = Map::default();
    let refs: Vec<Vec<u32>> = refs
        .iter()
        .map(|r| {
            r.split(' ')
                .map(|w| {
                    let k = ids.len() as u32;
                    *ids.entry(w).or_insert(k)
                })
                .collect()
        })
        .collect();
    let cand: Vec<u32> = candidate.split(' ').map(|w| ids.get(w).copied().unwrap_or(NONE)).collect();
    let (mut p_max, mut r_max) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for r in &refs {
        let l = lcs(r, &cand) as f64;
        p_max = p_max.max(l / cand.len() as f64);
        r_max = r_max.max(l / r.len() as f64);
    }
    if p_max != 0.0 && r_max != 0.0 {
        let b2 = BETA * BETA;
        ((1.0 + b2) * p_max * r_max) / (r_max + b2 * p_max)
    } else {
        0.0
    }
}

/// A sentence's tf-idf vector per n-gram order (first-occurrence order), norms, and its
/// "length" (the reference counts bigram occurrences).
struct Vector {
    grams: [Vec<(Gram, f64)>; N],
    norm: [f64; N],
    length: i64,
}

/// `weights[g]` = `ref_len - log(max(1, df(g)))`; an n-gram of no reference weighs
/// `ref_len` (`log(1) = 0`).
fn vector(counts: &[(Gram, u32)], weights: &Map<Gram, f64>, ref_len: f64) -> Vector {
    let mut grams: [Vec<(Gram, f64)>; N] = Default::default();
    let mut norm = [0.0; N];
    let mut length = 0i64;
    for &(g, tf) in counts {
        let w = weights.get(&g).copied().unwrap_or(ref_len);
        let n = order(&g);
        let v = f64::from(tf) * w;
        grams[n].push((g, v));
        norm[n] += v * v;
        if n == 1 {
            length += i64::from(tf);
        }
    }
    Vector { grams, norm: norm.map(f64::sqrt), length }
}

fn cider_row(hyp: &Vector, refs: &[Vector]) -> f64 {
    // Where each hypothesis n-gram sits in its order's list.
    let at: Map<Gram, (usize, usize)> =
        hyp.grams.iter().enumerate().flat_map(|(n, gs)| gs.iter().enumerate().map(move |(i, (g, _))| (*g, (n, i)))).collect();
    let mut score = [0.0f64; N];
    let mut terms: [Vec<(usize, f64)>; N] = Default::default();
    for r in refs {
        let delta = (hyp.length - r.length) as f64;
        // Python's `np.e ** x`: the C library's `pow` (an opaque base keeps the compiler
        // from rewriting it as `exp`).
        let penalty = std::hint::black_box(std::f64::consts::E).powf(-(delta * delta) / (2.0 * SIGMA * SIGMA));
        // The reference sums min(x, y) * y over the hypothesis n-grams in their order, y = 0
        // where the reference sentence lacks the n-gram. Every term is >= +0, so the zero
        // terms leave the sum unchanged: only shared n-grams are added, in the same order.
        for t in &mut terms {
            t.clear();
        }
        for (g, y) in r.grams.iter().flatten() {
            if let Some(&(n, i)) = at.get(g) {
                let x = hyp.grams[n][i].1;
                // Python min(x, y): x unless y < x.
                terms[n].push((i, if *y < x { *y } else { x } * y));
            }
        }
        for n in 0..N {
            terms[n].sort_unstable_by_key(|&(i, _)| i);
            let mut val = 0.0f64;
            for &(_, t) in &terms[n] {
                val += t;
            }
            if hyp.norm[n] != 0.0 && r.norm[n] != 0.0 {
                val /= hyp.norm[n] * r.norm[n];
            }
            val *= penalty;
            score[n] += val;
        }
    }
    let mut avg = np_mean(&score);
    avg /= refs.len() as f64;
    avg *= 10.0;
    avg
}

/// BLEU-1..4, ROUGE-L and CIDEr of `predictions` against `references` (row `i`'s
/// references are `references[i]`; each row needs at least one, as upstream asserts).
pub fn score<'a>(predictions: &[&'a str], references: &[Vec<&'a str>]) -> Scores {
    assert_eq!(predictions.len(), references.len(), "one list of references per prediction");
    assert!(references.iter().all(|r| !r.is_empty()), "every row needs a reference");
    // Word ids for the whole corpus (CIDEr's document frequency is corpus-wide).
    let mut vocab: Map<&'a str, u32> = Map::default();
    let mut intern = |s: &'a str| -> Vec<u32> {
        words(s)
            .map(|w| {
                let k = vocab.len() as u32;
                *vocab.entry(w).or_insert(k)
            })
            .collect()
    };
    let hyps: Vec<Vec<u32>> = predictions.iter().map(|&p| intern(p)).collect();
    let refs: Vec<Vec<Vec<u32>>> = references.iter().map(|rs| rs.iter().map(|&r| intern(r)).collect()).collect();

    // BLEU: per-row counts, then corpus totals (integers: order-free).
    let ref_counts: Vec<Vec<Vec<(Gram, u32)>>> = refs.par_iter().map(|rs| rs.iter().map(|r| ngrams(r)).collect()).collect();
    let rows: Vec<BleuRow> =
        hyps.par_iter().zip(refs.par_iter()).zip(ref_counts.par_iter()).map(|((h, r), c)| bleu_row(h, r, c)).collect();
    let (mut tl, mut rl, mut guess, mut correct) = (0u64, 0u64, [0u64; N], [0u64; N]);
    for r in &rows {
        tl += r.testlen;
        rl += r.reflen;
        for k in 0..N {
            guess[k] += r.guess[k];
            correct[k] += r.correct[k];
        }
    }
    let bleu = bleu_from(&correct, &guess, tl, rl);
    let bleu_rows = rows.iter().map(|r| bleu_from(&r.correct, &r.guess, r.testlen, r.reflen)).collect();

    let rouge_l_rows: Vec<f64> =
        predictions.par_iter().zip(references.par_iter()).map(|(p, r)| rouge_l_one(p, r)).with_min_len(16).collect();
    let rouge_l = np_mean(&rouge_l_rows);

    // CIDEr: in how many rows' reference sets each n-gram occurs.
    let mut df: Map<Gram, u32> = Map::default();
    for rs in &ref_counts {
        let distinct: HashSet<Gram, FastHash> = rs.iter().flatten().map(|&(g, _)| g).collect();
        for g in distinct {
            *df.entry(g).or_insert(0) += 1;
        }
    }
    let ref_len = (refs.len() as f64).ln();
    // log once per distinct n-gram (df >= 1 here, so max(1.0, df) is df).
    let weights: Map<Gram, f64> = df.iter().map(|(&g, &d)| (g, ref_len - f64::from(d).max(1.0).ln())).collect();
    let cider_rows: Vec<f64> = hyps
        .par_iter()
        .zip(ref_counts.par_iter())
        .map(|(h, rs)| {
            let hv = vector(&ngrams(h), &weights, ref_len);
            let rvs: Vec<Vector> = rs.iter().map(|c| vector(c, &weights, ref_len)).collect();
            cider_row(&hv, &rvs)
        })
        .collect();
    let cider = (!df.is_empty()).then(|| np_mean(&cider_rows));
    Scores { bleu, bleu_rows, rouge_l, rouge_l_rows, cider, cider_rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_caption() {
        let s = score(&["a cat on a mat"], &[vec!["a cat on a mat"]]);
        for b in s.bleu {
            assert!((b - 1.0).abs() < 1e-9, "{b}");
        }
        assert_eq!(s.rouge_l, 1.0);
        // One image: every idf is log(1) - log(1) = 0, so CIDEr is 0.
        assert_eq!(s.cider, Some(0.0));
    }

    #[test]
    fn rouge_keeps_empty_words() {
        // "a  b".split(" ") is ["a", "", "b"].
        let r = rouge_l_one("a  b", &["a b"]);
        let (p, rc) = (2.0 / 3.0, 1.0);
        let b2 = 1.2 * 1.2;
        assert_eq!(r, ((1.0 + b2) * p * rc) / (rc + b2 * p));
        assert_eq!(rouge_l_one("", &[""]), 1.0);
        assert_eq!(rouge_l_one("x", &["y"]), 0.0);
    }

    #[test]
    fn no_reference_words_no_cider() {
        let s = score(&["a"], &[vec!["  "]]);
        assert_eq!(s.cider, None);
    }

    fn lcs_table(a: &[u32], b: &[u32]) -> usize {
        let mut t = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                t[i][j] = if a[i - 1] == b[j - 1] { t[i - 1][j - 1] + 1 } else { t[i - 1][j].max(t[i][j - 1]) };
            }
        }
        t[a.len()][b.len()]
    }

    #[test]
    fn bit_parallel_lcs_equals_the_table() {
        let mut rng = crate::test_rng::Rng::new(7);
        for _ in 0..3000 {
            let la = rng.below(90);
            let lb = rng.below(90);
            let k = 1 + rng.below(6);
            let a: Vec<u32> = (0..la).map(|_| rng.below(k) as u32).collect();
            let b: Vec<u32> = (0..lb).map(|_| rng.below(k) as u32).collect();
            assert_eq!(lcs(&a, &b), lcs_table(&a, &b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn closest_length_ties_shorter() {
        let refs = [vec![1, 2], vec![1, 2, 3, 4]];
        let counts: Vec<_> = refs.iter().map(|r| ngrams(r)).collect();
        let r = bleu_row(&[1, 2, 3], &refs, &counts);
        assert_eq!(r.reflen, 2);
    }
}
