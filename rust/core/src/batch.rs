//! Column-at-a-time drivers: score two string columns on all cores.
//!
//! Columns are anything that can hand out `Option<&str>` by row (the bindings wrap Arrow
//! arrays); every input row gets exactly one output slot, with a status when it could not
//! be scored.

use rayon::prelude::*;

use crate::gaia::{self, grade_score, graded_score, lenient_match_with, official_explained, Official};

/// Rows per parallel work item: large enough to amortise scheduling, small enough to
/// balance on skewed data.
const BLOCK: usize = 16 * 1024;

/// A column of optional strings, read through a per-thread [`Cursor`] so chunked storage
/// can remember where it is instead of searching for every row.
pub trait StrColumn: Sync {
    type Cursor<'a>: Cursor<'a>
    where
        Self: 'a;
    fn len(&self) -> usize;
    fn cursor(&self) -> Self::Cursor<'_>;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Reads rows of a [`StrColumn`]; fastest when rows are visited in increasing order.
pub trait Cursor<'a> {
    fn get(&mut self, i: usize) -> Option<&'a str>;
}

impl<S: AsRef<str> + Sync> StrColumn for [Option<S>] {
    type Cursor<'a>
        = &'a [Option<S>]
    where
        S: 'a;
    fn len(&self) -> usize {
        <[Option<S>]>::len(self)
    }
    fn cursor(&self) -> &[Option<S>] {
        self
    }
}

impl<'a, S: AsRef<str>> Cursor<'a> for &'a [Option<S>] {
    fn get(&mut self, i: usize) -> Option<&'a str> {
        self[i].as_ref().map(|s| s.as_ref())
    }
}

/// Why a row has the score it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    /// Scored.
    Ok = 0,
    /// No truth (null, or the `?` placeholder when asked): the score is null.
    NoTruth = 1,
    /// Null prediction, scored the way the reference treats it (`"None"` / `""`).
    NoPrediction = 2,
}

impl Status {
    pub const ALL: [Status; 3] = [Status::Ok, Status::NoTruth, Status::NoPrediction];
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::NoTruth => "no_truth",
            Status::NoPrediction => "no_prediction",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub enum Scorer {
    Official(Official),
    Lenient,
    Graded,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub scorer: Scorer,
    /// Treat a truth that is `?` after stripping (GAIA's hidden-answer placeholder) as missing.
    pub placeholder_is_missing: bool,
    /// Also produce the per-row status (and the graded kind).
    pub details: bool,
    /// Also produce a one-line reason per row.
    pub explain: bool,
}

/// Per-row outputs, laid out as Arrow wants them so they are handed over without a copy.
/// `matched` is filled for the boolean scorers, `score` for the graded one; `status` and
/// `kind` only with [`Options::details`], `reason` only with [`Options::explain`].
#[derive(Debug, Default)]
pub struct Output {
    pub len: usize,
    /// Decision bits, row `i` at bit `i % 64` of word `i / 64` (false where null).
    pub matched: Vec<u64>,
    /// Validity bits in the same layout: set where the row has a score.
    pub valid: Vec<u64>,
    /// Graded score, NaN where null.
    pub score: Vec<f64>,
    /// Index into [`Kind::ALL`]; [`NO_KIND`] where null.
    pub kind: Vec<u8>,
    /// [`Status`] codes.
    pub status: Vec<u8>,
    pub reason: Option<Vec<Option<String>>>,
}

impl Output {
    /// Row `i`'s boolean decision (`None` where null; always false for the graded scorer).
    pub fn decision(&self, i: usize) -> Option<bool> {
        let bit = 1u64 << (i % 64);
        (self.valid[i / 64] & bit != 0).then(|| self.matched.get(i / 64).is_some_and(|m| m & bit != 0))
    }

    /// Number of rows with a score.
    pub fn valid_count(&self) -> usize {
        self.valid.iter().map(|w| w.count_ones() as usize).sum()
    }
}

pub const NO_KIND: u8 = 255;

fn truth_of<'a>(truth: Option<&'a str>, opts: &Options) -> Option<&'a str> {
    let t = truth?;
    // Nearly every truth starts with a letter or digit, which no whitespace strip can
    // remove, so it cannot be the `?` placeholder; only the rest need the strip.
    let maybe_placeholder = t.as_bytes().first().is_some_and(|b| !b.is_ascii_alphanumeric());
    if opts.placeholder_is_missing && maybe_placeholder && t.trim_matches(crate::text::is_py_space) == "?" {
        return None;
    }
    Some(t)
}

fn status_of(pred: Option<&str>, truth: Option<&str>) -> Status {
    match (pred, truth) {
        (_, None) => Status::NoTruth,
        (None, _) => Status::NoPrediction,
        _ => Status::Ok,
    }
}

/// One parallel work item: `rows` rows from `start`, with its slices of the outputs.
struct Block<'v, PC, TC> {
    pred: PC,
    truth: TC,
    /// Cursors that read [`AHEAD`] rows in front, to prefetch those rows' texts.
    ahead: (PC, TC),
    start: usize,
    rows: usize,
    valid: &'v mut [u64],
    matched: Option<&'v mut [u64]>,
    status: Option<&'v mut [u8]>,
}

impl<'v, PC, TC> Block<'v, PC, TC> {
    /// Decide every row that has a truth with `decide(prediction, truth, (row, row in
    /// block))`, setting its validity and decision bits (and status when asked).
    #[inline(always)]
    fn fill<'a>(mut self, opts: &Options, mut decide: impl FnMut(Option<&'a str>, &'a str, (usize, usize)) -> bool)
    where
        PC: Cursor<'a>,
        TC: Cursor<'a>,
    {
        let end = self.start + self.rows;
        for (w, valid_word) in self.valid.iter_mut().enumerate() {
            let (mut hits, mut present) = (0u64, 0u64);
            for k in 0..64.min(self.rows - w * 64) {
                let (j, bit) = (w * 64 + k, 1u64 << k);
                let i = self.start + j;
                if i + AHEAD < end {
                    prefetch(self.ahead.0.get(i + AHEAD));
                }
                let (p, t) = (self.pred.get(i), truth_of(self.truth.get(i), opts));
                if let Some(st) = self.status.as_deref_mut() {
                    st[j] = status_of(p, t) as u8;
                }
                let Some(t) = t else { continue };
                present |= bit;
                hits |= bit * u64::from(decide(p, t, (i, j)));
            }
            *valid_word = present;
            if let Some(m) = self.matched.as_deref_mut() {
                m[w] = hits;
            }
        }
    }
}

/// Rows between a text's prefetch and its use. Long answers sit in the string buffers at
/// irregular distances, which the hardware prefetcher does not follow; without this, the
/// first byte read of each costs a trip to memory that outlasts deciding it.
const AHEAD: usize = 8;

/// Ask for the cache line holding the start of `s`.
#[inline(always)]
fn prefetch(s: Option<&str>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(s) = s {
        // SAFETY: prefetching is a hint; it never faults and the pointer is valid anyway.
        unsafe { std::arch::x86_64::_mm_prefetch(s.as_ptr().cast(), std::arch::x86_64::_MM_HINT_T0) };
    }
}

/// [`Block::fill`] compiled for AVX-512, so the row loop and the scorer's wrapper around
/// its kernel share the kernel's features (lenient: +10-15 % measured; the official and
/// graded loops measured slower this way and are not).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
unsafe fn fill_avx512<'v, 'a, PC: Cursor<'a>, TC: Cursor<'a>>(
    block: Block<'v, PC, TC>,
    opts: &Options,
    decide: impl FnMut(Option<&'a str>, &'a str, (usize, usize)) -> bool,
) {
    block.fill(opts, decide)
}

/// `v` cut into one piece of `size` per block, or one `None` per block when `v` is empty
/// (an output that was not asked for).
fn blocks<T: Send>(v: &mut [T], size: usize, n_blocks: usize) -> Vec<Option<&mut [T]>> {
    if v.is_empty() {
        (0..n_blocks).map(|_| None).collect()
    } else {
        v.chunks_mut(size).map(Some).collect()
    }
}

/// Score `pred[i]` against `truth[i]` for every row. `level` (graded scorer only) gives a
/// row's GAIA level.
///
/// # Panics
/// If the columns differ in length (the bindings check first and raise).
pub fn score<P, T>(pred: &P, truth: &T, level: Option<&[Option<i64>]>, opts: Options) -> Output
where
    P: StrColumn + ?Sized,
    T: StrColumn + ?Sized,
{
    const WORDS: usize = BLOCK / 64;
    let n = pred.len();
    assert_eq!(n, truth.len(), "prediction and truth columns differ in length");
    if let Some(l) = level {
        assert_eq!(n, l.len(), "level column differs in length");
    }
    let graded = matches!(opts.scorer, Scorer::Graded);
    let n_blocks = n.div_ceil(BLOCK);
    let mut out = Output { len: n, valid: vec![0; n.div_ceil(64)], ..Default::default() };
    if opts.details {
        out.status = vec![0; n];
    }
    if graded {
        out.score = vec![f64::NAN; n];
        if opts.details {
            out.kind = vec![NO_KIND; n];
        }
    } else {
        out.matched = vec![0; n.div_ceil(64)];
    }
    let status = blocks(&mut out.status, BLOCK, n_blocks);
    let score = blocks(&mut out.score, BLOCK, n_blocks);
    let kind = blocks(&mut out.kind, BLOCK, n_blocks);
    let matched = blocks(&mut out.matched, WORDS, n_blocks);
    out.valid.par_chunks_mut(WORDS).zip(matched).zip(score).zip(kind).zip(status).enumerate().for_each(
        |(b, ((((valid, matched), mut score), mut kind), status))| {
            let start = b * BLOCK;
            let ahead = (pred.cursor(), truth.cursor());
            let block = Block { pred: pred.cursor(), truth: truth.cursor(), ahead, start, rows: BLOCK.min(n - start), valid, matched, status };
            // One loop per scorer, so the row loop carries no dispatch.
            match opts.scorer {
                Scorer::Official(o) => block.fill(&opts, |p, t, _| gaia::official(p, t, o, &mut ())),
                Scorer::Lenient => {
                    let (mut pbuf, mut tbuf) = (Vec::new(), Vec::new());
                    let decide = |p, t, _| lenient_match_with(p, t, &mut pbuf, &mut tbuf);
                    #[cfg(target_arch = "x86_64")]
                    if crate::text::avx512::available() {
                        // SAFETY: the CPU has the features.
                        return unsafe { fill_avx512(block, &opts, decide) };
                    }
                    block.fill(&opts, decide);
                }
                Scorer::Graded => block.fill(&opts, |p, t, (i, j)| {
                    let (s, k) = grade_score(p, t, level.and_then(|l| l[i]));
                    if let Some(sc) = score.as_deref_mut() {
                        sc[j] = s;
                    }
                    if let Some(kd) = kind.as_deref_mut() {
                        kd[j] = k as u8;
                    }
                    false
                }),
            }
        },
    );
    if opts.explain {
        let reasons = (0..n)
            .into_par_iter()
            .map_init(
                || (pred.cursor(), truth.cursor()),
                |(pc, tc), i| {
                let t = truth_of(tc.get(i), &opts)?;
                let p = pc.get(i);
                Some(match opts.scorer {
                    Scorer::Official(o) => official_explained(p, t, o).2,
                    Scorer::Lenient => lenient_reason(p, t),
                    Scorer::Graded => graded_score(p, t, level.and_then(|l| l[i])).explanation,
                })
            })
            .collect();
        out.reason = Some(reasons);
    }
    out
}

pub fn lenient_reason(pred: Option<&str>, truth: &str) -> String {
    if truth.is_empty() {
        return "empty truth never matches".into();
    }
    let p = crate::text::js_normalize(pred.unwrap_or(""));
    let t = crate::text::js_normalize(truth);
    let (qp, qt) = (crate::text::quote(&p), crate::text::quote(&t));
    if p.contains(t.as_str()) {
        format!("prediction {qp} contains truth {qt}")
    } else if t.contains(p.as_str()) {
        format!("truth {qt} contains prediction {qp}")
    } else {
        format!("neither of {qp} and {qt} contains the other")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gaia::grade;

    fn opts(scorer: Scorer, details: bool, explain: bool) -> Options {
        Options { scorer, placeholder_is_missing: true, details, explain }
    }

    #[test]
    fn every_row_has_a_slot_and_status() {
        let pred = [Some("42"), None, Some("x"), Some("a")];
        let truth = [Some("42"), Some("17"), None, Some(" ? ")];
        let out = score(&pred[..], &truth[..], None, opts(Scorer::Official(Official::default()), true, true));
        assert_eq!((0..4).map(|i| out.decision(i)).collect::<Vec<_>>(), [Some(true), Some(false), None, None]);
        assert_eq!(out.valid_count(), 2);
        assert_eq!(out.status, vec![0, Status::NoPrediction as u8, 1, 1]);
        let reasons = out.reason.unwrap();
        assert_eq!(reasons[0].as_deref(), Some("number: 42 == 42"));
        assert_eq!(reasons[2], None);
        let empty: [Option<&str>; 0] = [];
        let out = score(&empty[..], &empty[..], None, opts(Scorer::Lenient, true, false));
        assert!(out.valid.is_empty() && out.matched.is_empty() && out.status.is_empty());
    }

    #[test]
    fn parallel_blocks_match_the_scalar_function() {
        // Not a multiple of 64 or of BLOCK, with nulls and identical pairs mixed in.
        let n = 2 * BLOCK + 1234;
        let preds: Vec<Option<String>> = (0..n).map(|i| (i % 101 != 0).then(|| format!("{}", i % 97))).collect();
        let truths: Vec<Option<String>> = (0..n).map(|i| (i % 103 != 0).then(|| format!("{}", i % 89))).collect();
        for scorer in [Scorer::Official(Official::default()), Scorer::Lenient] {
            let out = score(&preds[..], &truths[..], None, opts(scorer, false, false));
            assert!(out.status.is_empty());
            for i in 0..n {
                let want = truths[i].as_deref().map(|t| match scorer {
                    Scorer::Official(_) => gaia::question_scorer(preds[i].as_deref(), t),
                    _ => gaia::lenient_match(preds[i].as_deref(), t),
                });
                assert_eq!(out.decision(i), want, "row {i}");
            }
        }
        let levels: Vec<Option<i64>> = (0..n).map(|i| Some((i % 3) as i64 + 1)).collect();
        let out = score(&preds[..], &truths[..], Some(&levels), opts(Scorer::Graded, true, true));
        for i in 0..n {
            match truths[i].as_deref() {
                Some(t) => {
                    let g = grade(preds[i].as_deref(), t, levels[i]);
                    assert_eq!((out.score[i], out.kind[i]), (g.score, g.kind as u8), "row {i}");
                    assert_eq!(out.decision(i), Some(false), "graded rows are valid, with no decision bit");
                }
                None => assert!(out.score[i].is_nan() && out.kind[i] == NO_KIND && out.decision(i).is_none()),
            }
        }
        assert_eq!(out.reason.unwrap().len(), n);
        let lean = score(&preds[..], &truths[..], Some(&levels), opts(Scorer::Graded, false, false));
        assert!(lean.kind.is_empty() && lean.status.is_empty());
        assert!(lean.score.iter().zip(&out.score).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert_eq!(lean.valid, out.valid);
    }
}
