//! Omni3DBench (VLMEvalKit 50c954aa, identical logic in the DCVLR fork): `<ans>`
//! extraction, the per-row rules chosen by the exact `answer_type` string, and Mean
//! Relative Accuracy with the reference's ten thresholds.
//!
//! Every rule uses CPython's own semantics: `int()` (ported here as [`py_int`]),
//! `float()` ([`crate::text::py_float`]) and `str.lower()` ([`crate::text::py_lower`]).
//! Where the reference raises on a row (`gt == 0` in MRA, `int("3.0")` as a count truth,
//! a missing prediction) the row is reported with a status instead.

use rayon::prelude::*;

use crate::batch::{Cursor, StrColumn};
use crate::text::{digit_value, is_py_space, py_float, py_lower, quote};
use crate::work;

/// The reference's MRA thresholds, in its order (the sum order matters in the last bit).
pub const THRESHOLDS: [f64; 10] = [0.5, 0.45, 0.40, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05];

/// The answer the reference reads: `prediction.split('<ans>')[1].split('</ans>')[0]` when
/// the prediction contains `<ans>`, else the whole prediction. That is the text after the
/// first `<ans>`, cut at the next `<ans>` or `</ans>`, whichever comes first (the two tags
/// cannot overlap). Case-sensitive, no trimming.
pub fn extract_answer(prediction: &str) -> &str {
    let b = prediction.as_bytes();
    let Some(i) = find_tag(b, 0, false) else {
        return prediction;
    };
    let start = i + 5;
    let end = find_tag(b, start, true).unwrap_or(b.len());
    &prediction[start..end]
}

/// First position at or after `from` where `<ans>` (or, with `closing`, also `</ans>`)
/// starts.
#[inline]
fn find_tag(b: &[u8], mut from: usize, closing: bool) -> Option<usize> {
    while let Some(j) = memchr::memchr(b'<', &b[from..]) {
        work::add(j + 6);
        let i = from + j;
        let tail = &b[i + 1..];
        if tail.starts_with(b"ans>") || (closing && tail.starts_with(b"/ans>")) {
            return Some(i);
        }
        from = i + 1;
    }
    work::add(b.len() - from);
    None
}

/// Byte range of [`extract_answer`] inside `prediction`.
pub fn extract_range(prediction: &str) -> (usize, usize) {
    let e = extract_answer(prediction);
    let start = e.as_ptr() as usize - prediction.as_ptr() as usize;
    (start, start + e.len())
}

/// CPython's default `sys.get_int_max_str_digits()`: `int()` of a string with more
/// decimal digits raises `ValueError`.
pub const INT_MAX_STR_DIGITS: usize = 4300;

/// A successful Python `int(s)` (base 10), kept as the digits of `s`: no allocation.
#[derive(Clone, Copy, Debug)]
pub struct PyInt<'a> {
    negative: bool,
    /// The digit run after the sign: Unicode decimal digits, maybe `_` between them.
    digits: &'a str,
}

/// What `int()` trims: ASCII whitespace except U+001C..U+001F (CPython keeps ASCII
/// bytes as they are and strips with `Py_ISSPACE`), and every non-ASCII Python
/// whitespace character (mapped to a space first).
#[inline]
fn int_space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, '\t'..='\r' | ' ')
    } else {
        is_py_space(c)
    }
}

/// Python `int(s)` with base 10; `None` where it raises `ValueError`: surrounding
/// whitespace, one sign, Unicode decimal digits with single `_` between digits, leading
/// zeros allowed, at most [`INT_MAX_STR_DIGITS`] digits.
pub fn py_int(s: &str) -> Option<PyInt<'_>> {
    let t = s.trim_matches(int_space);
    work::add(s.len() - t.len() + 1);
    let (negative, body) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let mut count = 0usize;
    let mut prev_digit = false;
    for c in body.chars() {
        work::add(1);
        if c == '_' {
            if !prev_digit {
                return None;
            }
            prev_digit = false;
        } else {
            digit_value(c)?;
            prev_digit = true;
            count += 1;
        }
    }
    if !prev_digit || count > INT_MAX_STR_DIGITS {
        return None;
    }
    Some(PyInt { negative, digits: body })
}

impl PyInt<'_> {
    /// Digit values without underscores and leading zeros.
    fn significant(&self) -> impl Iterator<Item = u32> + '_ {
        self.digits.chars().filter_map(digit_value).skip_while(|&d| d == 0)
    }

    pub fn is_zero(&self) -> bool {
        self.significant().next().is_none()
    }

    /// `str(int(s))`: the canonical decimal text.
    pub fn to_decimal(&self) -> String {
        let mut out = String::with_capacity(self.digits.len() + 1);
        if self.is_zero() {
            out.push('0');
            return out;
        }
        if self.negative {
            out.push('-');
        }
        out.extend(self.significant().map(|d| char::from(b'0' + d as u8)));
        out
    }
}

impl PartialEq for PyInt<'_> {
    fn eq(&self, other: &Self) -> bool {
        work::add(self.digits.len() + other.digits.len());
        // -0 == 0; otherwise the signs and the significant digits must agree.
        if self.is_zero() || other.is_zero() {
            return self.is_zero() && other.is_zero();
        }
        self.negative == other.negative && self.significant().eq(other.significant())
    }
}

/// The bucket a row is scored in (the reference's report columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bucket {
    /// `answer_type == "int"`: "Numeric (count) Accuracy".
    Count = 0,
    /// `answer_type == "str"` and truth exactly `yes`/`no`: "Yes/No Accuracy".
    YesNo = 1,
    /// Any other `str` row: "Multiple Choice Accuracy".
    MultipleChoice = 2,
    /// `answer_type == "float"`: "Numeric (other) Mean Relative Accuracy".
    Mra = 3,
}

impl Bucket {
    pub const ALL: [Bucket; 4] = [Bucket::Count, Bucket::YesNo, Bucket::MultipleChoice, Bucket::Mra];
    pub fn name(self) -> &'static str {
        match self {
            Bucket::Count => "count",
            Bucket::YesNo => "yes_no",
            Bucket::MultipleChoice => "multiple_choice",
            Bucket::Mra => "mra",
        }
    }
}

/// Why a row has the score it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    /// Scored by its bucket's rule.
    Ok = 0,
    /// `int()`/`float()` rejects the answer: scored 0 and counted, as the reference does.
    Unparseable = 1,
    /// `answer_type` is not `int`, `str` or `float`: counted nowhere, no score.
    Ignored = 2,
    /// The truth is missing (NaN upstream): scored as the reference scores NaN, or no
    /// score where that crashes (`int(nan)`).
    NoTruth = 3,
    /// The prediction is missing: the reference crashes (`TypeError`); no score.
    NoPrediction = 4,
    /// MRA truth is zero and the prediction parses: `ZeroDivisionError`; no score.
    GtZero = 5,
    /// The truth is no `int`/`float` literal and the prediction parses: `ValueError`;
    /// no score.
    BadTruth = 6,
}

impl Status {
    pub const ALL: [Status; 7] = [
        Status::Ok,
        Status::Unparseable,
        Status::Ignored,
        Status::NoTruth,
        Status::NoPrediction,
        Status::GtZero,
        Status::BadTruth,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Unparseable => "unparseable",
            Status::Ignored => "ignored",
            Status::NoTruth => "no_truth",
            Status::NoPrediction => "no_prediction",
            Status::GtZero => "gt_zero",
            Status::BadTruth => "bad_truth",
        }
    }
}

/// A count row's outcome.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CountOutcome {
    /// `int(answer)` raised: wrong.
    Unparseable,
    /// `int(answer)` worked but `int(gt)` raises (missing or not an int literal).
    TruthCrash,
    /// Both parsed: are they equal?
    Compared(bool),
}

/// Which substring decided a yes/no row (`None`: none was found).
pub type YesNoHit = Option<&'static str>;

/// An MRA row's outcome.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MraOutcome {
    /// `float(answer)` raised: no threshold, still counted.
    Unparseable,
    /// The truth is zero (`ZeroDivisionError`).
    ZeroTruth,
    /// The truth is no float literal (`ValueError`).
    BadTruth,
    /// `|g - p| / g` and how many thresholds it passed (a prefix of [`THRESHOLDS`]).
    Ratio { ratio: f64, passed: u8 },
}

/// The reference's decision on one row, with what decided it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decision {
    /// Missing prediction: `extract_answer` raises `TypeError` for every answer type.
    NoPrediction,
    /// `answer_type` is none of `int`, `str`, `float`.
    Ignored,
    Count(CountOutcome),
    YesNo(YesNoHit),
    MultipleChoice(bool),
    Mra(MraOutcome),
}

/// One row as the reference sees it. `None` stands for a NaN cell.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    pub prediction: Option<&'a str>,
    pub gt: Option<&'a str>,
    pub answer_type: Option<&'a str>,
}

impl Decision {
    pub fn bucket(&self) -> Option<Bucket> {
        match self {
            Decision::NoPrediction | Decision::Ignored => None,
            Decision::Count(_) => Some(Bucket::Count),
            Decision::YesNo(_) => Some(Bucket::YesNo),
            Decision::MultipleChoice(_) => Some(Bucket::MultipleChoice),
            Decision::Mra(_) => Some(Bucket::Mra),
        }
    }

    /// The reference raised on this row.
    pub fn crashed(&self) -> bool {
        matches!(
            self,
            Decision::NoPrediction
                | Decision::Count(CountOutcome::TruthCrash)
                | Decision::Mra(MraOutcome::ZeroTruth | MraOutcome::BadTruth)
        )
    }

    /// The bucket's score for this row: 0/1, or k/10 for MRA; `None` when the row is
    /// ignored or the reference raised.
    pub fn score(&self) -> Option<f64> {
        match *self {
            Decision::NoPrediction | Decision::Ignored => None,
            Decision::Count(CountOutcome::Compared(eq)) => Some(f64::from(u8::from(eq))),
            Decision::Count(CountOutcome::Unparseable) => Some(0.0),
            Decision::Count(CountOutcome::TruthCrash) => None,
            Decision::YesNo(hit) => Some(f64::from(u8::from(hit.is_some()))),
            Decision::MultipleChoice(eq) => Some(f64::from(u8::from(eq))),
            Decision::Mra(MraOutcome::Unparseable) => Some(0.0),
            Decision::Mra(MraOutcome::Ratio { passed, .. }) => Some(f64::from(passed) / 10.0),
            Decision::Mra(_) => None,
        }
    }

    /// Thresholds passed (MRA rows the reference scored).
    pub fn thresholds_passed(&self) -> Option<u8> {
        match *self {
            Decision::Mra(MraOutcome::Unparseable) => Some(0),
            Decision::Mra(MraOutcome::Ratio { passed, .. }) => Some(passed),
            _ => None,
        }
    }

    pub fn status(&self, gt_missing: bool) -> Status {
        match self {
            Decision::NoPrediction => Status::NoPrediction,
            Decision::Ignored => Status::Ignored,
            _ if gt_missing => Status::NoTruth,
            Decision::Count(CountOutcome::Unparseable) | Decision::Mra(MraOutcome::Unparseable) => Status::Unparseable,
            Decision::Count(CountOutcome::TruthCrash) | Decision::Mra(MraOutcome::BadTruth) => Status::BadTruth,
            Decision::Mra(MraOutcome::ZeroTruth) => Status::GtZero,
            _ => Status::Ok,
        }
    }
}

/// Lowercase `s` the way `str.lower()` does and run `f` on it; ASCII text is lowered
/// into the reusable `buf` without allocating.
fn with_lower<R>(s: &str, buf: &mut String, f: impl FnOnce(&str) -> R) -> R {
    work::add(s.len());
    if s.is_ascii() {
        buf.clear();
        buf.push_str(s);
        buf.make_ascii_lowercase();
        f(buf)
    } else {
        f(&py_lower(s))
    }
}

fn contains(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    work::add(h.len() + n.len());
    if h.len() <= 64 {
        return h.windows(n.len()).any(|w| w == n);
    }
    memchr::memmem::find(h, n).is_some()
}

/// `str.lower(s) == gt` without building the lowered text for ASCII `s`.
fn lower_equals(s: &str, gt: &str) -> bool {
    work::add(s.len().min(gt.len()) + 1);
    if s.is_ascii() {
        return s.len() == gt.len() && s.bytes().zip(gt.bytes()).all(|(a, b)| a.to_ascii_lowercase() == b);
    }
    py_lower(s) == gt
}

/// Passed thresholds for `|g - p| / g` (NaN passes none). `None`: `g == 0` (the reference
/// divides by it and raises `ZeroDivisionError`; `-0.0` too).
pub fn mra_ratio(p: f64, g: f64) -> Option<(f64, u8)> {
    if g == 0.0 {
        return None;
    }
    let ratio = (g - p).abs() / g;
    let passed = THRESHOLDS.iter().take_while(|&&t| ratio < t).count() as u8;
    Some((ratio, passed))
}

/// The MRA rule on an extracted answer: `float(answer)` first (failure: no credit, and
/// the truth is never read), then `float(gt)` (`None` gt = NaN).
pub fn mra_outcome(answer: &str, gt: Option<&str>) -> MraOutcome {
    // `float()` of each side: one pass over its text (see `text::py_float`).
    work::add(answer.len() + gt.map_or(0, str::len));
    let Some(p) = py_float(answer) else {
        return MraOutcome::Unparseable;
    };
    let g = match gt {
        None => f64::NAN,
        Some(g) => match py_float(g) {
            Some(v) => v,
            None => return MraOutcome::BadTruth,
        },
    };
    match mra_ratio(p, g) {
        None => MraOutcome::ZeroTruth,
        Some((ratio, passed)) => MraOutcome::Ratio { ratio, passed },
    }
}

/// Decide one row exactly as `Omni3DBench_acc` does. `buf` is scratch space.
pub fn decide_with(row: Row<'_>, buf: &mut String) -> Decision {
    let Some(prediction) = row.prediction else {
        return Decision::NoPrediction;
    };
    let answer = extract_answer(prediction);
    match row.answer_type {
        Some("int") => Decision::Count(match py_int(answer) {
            None => CountOutcome::Unparseable,
            Some(p) => match row.gt.and_then(py_int) {
                None => CountOutcome::TruthCrash,
                Some(g) => CountOutcome::Compared(p == g),
            },
        }),
        Some("str") => match row.gt {
            Some(gt @ ("yes" | "no")) => Decision::YesNo(with_lower(answer, buf, |low| {
                let alt = if gt == "yes" { "true" } else { "false" };
                if contains(low, gt) {
                    Some(if gt == "yes" { "yes" } else { "no" })
                } else if contains(low, alt) {
                    Some(alt)
                } else {
                    None
                }
            })),
            // A NaN truth never equals a string.
            Some(gt) => Decision::MultipleChoice(lower_equals(answer, gt)),
            None => Decision::MultipleChoice(false),
        },
        Some("float") => Decision::Mra(mra_outcome(answer, row.gt)),
        _ => Decision::Ignored,
    }
}

/// [`decide_with`] with its own scratch space.
pub fn decide(row: Row<'_>) -> Decision {
    decide_with(row, &mut String::new())
}

/// `omni3d_score`: the bucket's score for one row; `None` when the row is ignored or the
/// reference raises on it.
pub fn score(prediction: Option<&str>, gt: Option<&str>, answer_type: Option<&str>) -> Option<f64> {
    decide(Row { prediction, gt, answer_type }).score()
}

/// Why the reference raised while computing an aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crash {
    /// `TypeError`: a missing prediction.
    TypeError,
    /// `ZeroDivisionError`: MRA truth 0 with a parseable prediction.
    ZeroDivision,
    /// `ValueError`: a truth that is no number, read because the prediction parsed.
    ValueError,
}

impl Crash {
    pub fn name(self) -> &'static str {
        match self {
            Crash::TypeError => "TypeError",
            Crash::ZeroDivision => "ZeroDivisionError",
            Crash::ValueError => "ValueError",
        }
    }

    pub fn of(decision: &Decision) -> Option<Crash> {
        match decision {
            Decision::NoPrediction => Some(Crash::TypeError),
            Decision::Mra(MraOutcome::ZeroTruth) => Some(Crash::ZeroDivision),
            Decision::Count(CountOutcome::TruthCrash) | Decision::Mra(MraOutcome::BadTruth) => Some(Crash::ValueError),
            _ => None,
        }
    }
}

/// The reference's MRA aggregate from per-row threshold counts: `c_θ` = rows passing
/// θ; `s += c_θ / N` in threshold order; `s / 10`. `None` for no rows.
pub fn mra_from_passed(passed: impl IntoIterator<Item = u8>) -> Option<f64> {
    let mut counts = [0u64; 10];
    let mut n = 0u64;
    for k in passed {
        n += 1;
        for c in counts.iter_mut().take(k as usize) {
            *c += 1;
        }
    }
    if n == 0 {
        return None;
    }
    let mut s = 0.0;
    for c in counts {
        s += c as f64 / n as f64;
    }
    Some(s / THRESHOLDS.len() as f64)
}

/// `mra(predictions, gts)`: every pair scored as a `float` row from the raw prediction
/// (tags extracted). `Ok(None)` for no pairs; `Err` where the reference raises (the
/// first failing row, in order, decides which exception).
pub fn mra<'a>(pairs: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>) -> Result<Option<f64>, Crash> {
    let mut passed = Vec::new();
    for (p, g) in pairs {
        let Some(p) = p else {
            return Err(Crash::TypeError);
        };
        match mra_outcome(extract_answer(p), g) {
            MraOutcome::Unparseable => passed.push(0),
            MraOutcome::Ratio { passed: k, .. } => passed.push(k),
            MraOutcome::ZeroTruth => return Err(Crash::ZeroDivision),
            MraOutcome::BadTruth => return Err(Crash::ValueError),
        }
    }
    Ok(mra_from_passed(passed))
}

/// Quote `s` for a reason: its first 60 code points, then `…` if anything was cut.
fn q(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        None => quote(s),
        Some((i, _)) => quote(&format!("{}…", &s[..i])),
    }
}

/// One line saying which rule decided the row and how.
pub fn reason(row: Row<'_>, decision: &Decision) -> String {
    let answer = row.prediction.map(extract_answer).unwrap_or("");
    let gt = row.gt;
    let gt_q = || gt.map_or_else(|| "NaN".to_string(), q);
    match *decision {
        Decision::NoPrediction => "prediction missing: the reference crashes (TypeError)".into(),
        Decision::Ignored => match row.answer_type {
            Some(t) => format!("answer_type {} is not scored (only \"int\", \"str\", \"float\")", q(t)),
            None => "answer_type missing: not scored".into(),
        },
        Decision::Count(CountOutcome::Unparseable) => {
            format!("count: int() rejects {}: wrong", q(answer))
        }
        Decision::Count(CountOutcome::TruthCrash) => match gt {
            Some(g) => format!("count: int() rejects the truth {}: the reference crashes (ValueError)", q(g)),
            None => "count: truth missing (NaN): the reference crashes (ValueError)".into(),
        },
        Decision::Count(CountOutcome::Compared(eq)) => {
            format!("count: int({}) {} int({})", q(answer), if eq { "==" } else { "!=" }, gt_q())
        }
        Decision::YesNo(Some(hit)) => format!("yes/no: \"{hit}\" in lowercased {}", q(answer)),
        Decision::YesNo(None) => {
            let (a, b) = if gt == Some("yes") { ("yes", "true") } else { ("no", "false") };
            format!("yes/no: neither \"{a}\" nor \"{b}\" in lowercased {}", q(answer))
        }
        Decision::MultipleChoice(eq) => match gt {
            Some(g) => format!("multiple choice: lowercased {} {} {}", q(answer), if eq { "==" } else { "!=" }, q(g)),
            None => "multiple choice: truth missing (NaN): never matches".into(),
        },
        Decision::Mra(MraOutcome::Unparseable) => {
            format!("mra: float() rejects {}: 0 of 10 thresholds", q(answer))
        }
        Decision::Mra(MraOutcome::ZeroTruth) => {
            format!("mra: truth {} is zero: the reference crashes (ZeroDivisionError)", gt_q())
        }
        Decision::Mra(MraOutcome::BadTruth) => {
            format!("mra: float() rejects the truth {}: the reference crashes (ValueError)", gt_q())
        }
        Decision::Mra(MraOutcome::Ratio { ratio, passed }) => {
            format!("mra: |gt - pred| / gt = {ratio} passes {passed} of 10 thresholds")
        }
    }
}

/// [`extract_answer`] of every row (null stays null), on all cores.
pub fn extract_column<P: StrColumn + ?Sized>(pred: &P) -> Vec<Option<&str>> {
    (0..pred.len())
        .into_par_iter()
        .with_min_len(BLOCK)
        .map_init(|| pred.cursor(), |cursor, i| cursor.get(i).map(extract_answer))
        .collect()
}

/// Rows per parallel work item.
const BLOCK: usize = 16 * 1024;

/// No bucket / no threshold count.
pub const NONE: u8 = 255;

/// Per-row outputs of [`score_batch`]. `score` is NaN where null (ignored or crashed).
#[derive(Debug, Default)]
pub struct Output {
    /// [`Bucket`] as u8, [`NONE`] for ignored rows and missing predictions.
    pub bucket: Vec<u8>,
    pub score: Vec<f64>,
    /// MRA thresholds passed, [`NONE`] elsewhere.
    pub passed: Vec<u8>,
    /// [`Status`] as u8.
    pub status: Vec<u8>,
    pub reason: Option<Vec<String>>,
}

/// Decide every row of three columns on all cores.
///
/// # Panics
/// If the columns differ in length (the bindings check first and raise).
pub fn score_batch<P, G, T>(pred: &P, gt: &G, answer_type: &T, explain: bool) -> Output
where
    P: StrColumn + ?Sized,
    G: StrColumn + ?Sized,
    T: StrColumn + ?Sized,
{
    let n = pred.len();
    assert!(gt.len() == n && answer_type.len() == n, "columns differ in length");
    let mut out = Output {
        bucket: vec![NONE; n],
        score: vec![f64::NAN; n],
        passed: vec![NONE; n],
        status: vec![0; n],
        reason: None,
    };
    let mut reasons: Vec<String> = if explain { vec![String::new(); n] } else { Vec::new() };
    let mut reason_chunks: Vec<&mut [String]> = if explain {
        reasons.chunks_mut(BLOCK).collect()
    } else {
        (0..n.div_ceil(BLOCK)).map(|_| &mut [][..]).collect()
    };
    out.bucket
        .par_chunks_mut(BLOCK)
        .zip(out.score.par_chunks_mut(BLOCK))
        .zip(out.passed.par_chunks_mut(BLOCK))
        .zip(out.status.par_chunks_mut(BLOCK))
        .zip(reason_chunks.par_iter_mut())
        .enumerate()
        .for_each(|(b, ((((bucket, score), passed), status), why))| {
            let mut buf = String::new();
            let (mut pc, mut gc, mut tc) = (pred.cursor(), gt.cursor(), answer_type.cursor());
            for j in 0..bucket.len() {
                let i = b * BLOCK + j;
                let row = Row { prediction: pc.get(i), gt: gc.get(i), answer_type: tc.get(i) };
                let d = decide_with(row, &mut buf);
                bucket[j] = d.bucket().map_or(NONE, |k| k as u8);
                score[j] = d.score().unwrap_or(f64::NAN);
                passed[j] = d.thresholds_passed().unwrap_or(NONE);
                status[j] = d.status(row.gt.is_none()) as u8;
                if explain {
                    why[j] = reason(row, &d);
                }
            }
        });
    if explain {
        out.reason = Some(reasons);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `head + unit * k + tail`, about `n` bytes.
    fn rep(unit: &str, n: usize, head: &str, tail: &str) -> String {
        let k = (n.saturating_sub(head.len() + tail.len()) / unit.len()).max(1);
        format!("{head}{}{tail}", unit.repeat(k))
    }

    #[test]
    fn rows_take_linear_work_on_adversarial_shapes() {
        type Shape = (&'static str, Box<dyn Fn(usize) -> String>, &'static str, &'static str);
        let shapes: Vec<Shape> = vec![
            ("<ans> x k", Box::new(|n| rep("<ans>", n, "", "")), "yes", "str"),
            ("<ans></ans> x k", Box::new(|n| rep("<ans></ans>", n, "", "")), "2", "float"),
            ("< x n", Box::new(|n| rep("<", n, "<ans>", "")), "2", "float"),
            ("<an x k", Box::new(|n| rep("<an", n, "<ans>", "")), "no", "str"),
            ("digits, int", Box::new(|n| rep("9", n, "", "")), "3", "int"),
            ("digits, float", Box::new(|n| rep("9", n, "", ".5")), "3", "float"),
            ("zeros, float", Box::new(|n| rep("0", n, "0.", "1")), "3", "float"),
            ("underscores, int", Box::new(|n| rep("1_", n, "", "1")), "3", "int"),
            ("whitespace, int", Box::new(|n| rep(" ", n, "", "3")), "3", "int"),
            ("yes/no words", Box::new(|n| rep("yes no ", n, "", "")), "yes", "str"),
            ("letters", Box::new(|n| rep("AB", n, "", "")), "a", "str"),
        ];
        for (name, make, gt, kind) in &shapes {
            crate::work::assert_linear(name, 20_000, 12.0, make, |p| {
                let _ = decide(Row { prediction: Some(p), gt: Some(gt), answer_type: Some(kind) });
            });
        }
        // A long truth too: the work follows the whole input.
        let both = |n: usize| rep("7", n, "", "");
        crate::work::assert_linear("long int truth", 2_000, 12.0, both, |p| {
            let _ = decide(Row { prediction: Some(p), gt: Some(p), answer_type: Some("int") });
        });
    }

    #[test]
    fn extraction_follows_split() {
        assert_eq!(extract_answer("<ans>3</ans>"), "3");
        assert_eq!(extract_answer("<ans> 3 </ans>"), " 3 ");
        assert_eq!(extract_answer("no tags"), "no tags");
        assert_eq!(extract_answer("<ans>3"), "3");
        assert_eq!(extract_answer("</ans>3<ans>"), "");
        assert_eq!(extract_answer("<ans><ans>3</ans>"), "");
        assert_eq!(extract_answer("<ans>3<ans>4</ans>"), "3");
        assert_eq!(extract_answer("<ans>3</ans><ans>4</ans>"), "3");
        assert_eq!(extract_answer("<ANS>3</ANS>"), "<ANS>3</ANS>");
        assert_eq!(extract_answer("x<ans>a<b</ans"), "a<b</ans");
        assert_eq!(extract_range("ab<ans>é</ans>"), (7, 9));
    }

    #[test]
    fn py_int_follows_python() {
        let ok = [
            ("3", "3"),
            (" 3 ", "3"),
            ("+3", "3"),
            ("-0", "0"),
            ("007", "7"),
            ("1_000", "1000"),
            ("\u{ff13}", "3"),
            ("\u{663}", "3"),
            ("\u{2003}3\u{85}", "3"),
            ("-0_0_1", "-1"),
            ("99999999999999999999", "99999999999999999999"),
        ];
        for (s, want) in ok {
            assert_eq!(py_int(s).map(|v| v.to_decimal()).as_deref(), Some(want), "{s:?}");
        }
        for s in [
            "", " ", "3.0", "1e1", "three", "_1", "1_", "1__0", "+_1", "- 3", "\x1c3", "3\x1f", "3\0", "²", "0x10",
            "++1",
        ] {
            assert!(py_int(s).is_none(), "{s:?}");
        }
        let limit = "1".repeat(INT_MAX_STR_DIGITS);
        assert!(py_int(&limit).is_some());
        assert!(py_int(&format!("{limit}1")).is_none());
        assert!(py_int(&format!("0{limit}")).is_none());
        assert!(py_int(&limit.chars().map(|c| format!("{c}_")).collect::<String>().trim_end_matches('_').to_string())
            .is_some());
        assert!(py_int("-0").unwrap() == py_int("0").unwrap());
        assert!(py_int("-3").unwrap() != py_int("3").unwrap());
        assert!(py_int("0003").unwrap() == py_int("3").unwrap());
    }

    fn s(p: &str, gt: &str, t: &str) -> Option<f64> {
        score(Some(p), Some(gt), Some(t))
    }

    #[test]
    fn worked_examples() {
        assert_eq!(s("<ans>2.3</ans>", "2.0", "float"), Some(0.8));
        assert_eq!(s("<ans>0</ans>", "0", "float"), None);
        assert_eq!(s("<ans>abc</ans>", "0", "float"), Some(0.0));
        assert_eq!(s("<ans>5</ans>", "-5", "float"), Some(1.0));
        assert_eq!(s("<ans>inf</ans>", "-5", "float"), Some(1.0));
        assert_eq!(s("nan", "5", "float"), Some(0.0));
        assert_eq!(s("3", "3.0", "int"), None);
        assert_eq!(s("x", "3.0", "int"), Some(0.0));
        assert_eq!(s("I do not know", "no", "str"), Some(1.0));
        assert_eq!(s("eyes", "yes", "str"), Some(1.0));
        assert_eq!(s("<ans>untrue</ans>", "yes", "str"), Some(1.0));
        assert_eq!(s("<ans>Yes</ans>", "Yes", "str"), Some(0.0));
        assert_eq!(s("<ans> red</ans>", "red", "str"), Some(0.0));
        assert_eq!(s("RED", "red", "str"), Some(1.0));
        assert_eq!(s("<ans>ΟΔΟΣ</ans>", "οδος", "str"), Some(1.0));
        assert_eq!(s("<ans>İ</ans>", "i\u{307}", "str"), Some(1.0));
        assert_eq!(s("3", "3", "Int"), None);
        assert_eq!(score(None, Some("3"), Some("other")), None);
        assert_eq!(score(Some("3"), None, Some("str")), Some(0.0));
        assert_eq!(score(Some("3"), None, Some("int")), None);
        assert_eq!(score(Some("x"), None, Some("int")), Some(0.0));
        assert_eq!(score(Some("3"), None, Some("float")), Some(0.0));
    }

    #[test]
    fn mra_aggregate_order() {
        let three = [(Some("1.1"), Some("1")), (Some("1.3"), Some("1")), (Some("0.6"), Some("1"))];
        assert_eq!(mra(three), Ok(Some(0.4666666666666666)));
        assert_eq!(mra([]), Ok(None));
        assert_eq!(mra([(Some("<ans>3</ans>"), Some("0"))]), Err(Crash::ZeroDivision));
        assert_eq!(mra([(Some("<ans>x</ans>"), Some("0")), (Some("1"), Some("1"))]), Ok(Some(0.5)));
        assert_eq!(mra([(None, Some("1"))]), Err(Crash::TypeError));
    }

    #[test]
    fn batch_matches_scalar() {
        let preds: Vec<Option<String>> = (0..40_000).map(|i| Some(format!("<ans>{}</ans>", i % 13))).collect();
        let gts: Vec<Option<String>> = (0..40_000).map(|i| Some(format!("{}", i % 7))).collect();
        let kinds = ["int", "float", "str", "other"];
        let types: Vec<Option<String>> = (0..40_000).map(|i| Some(kinds[i % 4].to_string())).collect();
        let out = score_batch(&preds[..], &gts[..], &types[..], true);
        for i in 0..preds.len() {
            let row = Row { prediction: preds[i].as_deref(), gt: gts[i].as_deref(), answer_type: types[i].as_deref() };
            let d = decide(row);
            assert_eq!(out.score[i].to_bits(), d.score().unwrap_or(f64::NAN).to_bits(), "row {i}");
            assert_eq!(out.status[i], d.status(false) as u8);
            assert_eq!(out.reason.as_ref().unwrap()[i], reason(row, &d));
        }
    }
}
