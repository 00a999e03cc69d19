//! `\boxed{}` extraction and the PHYSICS (atomic_dataset) text steps before SymPy.
//!
//! * [`physics_boxes`] reproduces VLMEvalKit's `extract_all_boxed_content` (spec §4.1): the
//!   Python regex
//!   `\\boxed{((?:[^{}]|{(?:[^{}]|{.*?})*})*)}|\\\\\[boxed{((?:[^{}]|{(?:[^{}]|{.*?})*})*)}\\\\\]`
//!   with DOTALL, `findall`, groups stripped, empty ones dropped. Python's backtracking
//!   engine can take exponential time on it; this is a memoised backtracking search that
//!   returns the same leftmost-first match in linear time (see [`BoxSearch`]).
//! * [`physics_final`] / [`physics_extract`]: the nested-box step (`extract_final_answer`)
//!   and the whole `extract_final_answer_allform` (`None` where upstream raises
//!   StopIteration).
//! * [`balanced_boxes`]: gaia-fast's own extractor, a correct balanced-brace reading of
//!   `\boxed{…}` (any depth, `\{`/`\}` escapes), used by the default PHYSICS grader.
//! * [`physics_preprocess`], [`physics_core`]: `_preprocess_latex` and `_extract_core_eq`
//!   of `is_equiv` (spec §4.2 steps 2–3).
//! * [`sympy_fast`]: decides the SymPy verdict of a pair of cores without SymPy when both
//!   are plain numbers or simple fractions, or when SymPy is certain to fail to parse.

use rayon::prelude::*;

use crate::batch::{Cursor, StrColumn};
use crate::text::is_py_space;
use crate::work;

/// Python `str.strip()` (no argument).
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

// ---------------------------------------------------------------------------------------
// §4.1: the reference regex, leftmost-first, in linear time
// ---------------------------------------------------------------------------------------

const OPEN1: &[u8] = b"\\boxed{";
const OPEN2: &[u8] = b"\\\\[boxed{";
const CLOSE2: &[u8] = b"\\\\]";

/// Where the regex engine is, after the opening literal, in the content pattern
/// `(?:[^{}]|{(?:[^{}]|{.*?})*})*`:
/// `Outer` = at the outer repetition, `Mid` = inside a first-level `{…}` group, `Lazy` =
/// inside a second-level `{.*?}`. In `Outer` and `Mid` the next byte decides the only
/// possible move (`[^{}]`, `{` and `}` are disjoint), so the one real choice is at a `}` in
/// `Lazy`: close the lazy group (tried first) or let `.` consume the `}`.
#[derive(Clone, Copy)]
enum St {
    Outer = 0,
    Mid = 1,
    Lazy = 2,
}

/// Memoised backtracking over (state, position). A (state, position) pair explored once
/// and left without a match can never lead to one (no captures or backreferences
/// influence matching), so it is never explored again: at most 3·n steps per alternative
/// over the whole text, where Python's engine may take exponential time. The first match
/// found is the one Python's backtracking finds, because choices are tried in the same
/// priority order.
struct BoxSearch<'a> {
    b: &'a [u8],
    /// visited[alt][state * (n + 1) + pos]
    visited: [Vec<bool>; 2],
}

impl<'a> BoxSearch<'a> {
    fn new(b: &'a [u8]) -> Self {
        BoxSearch { b, visited: [Vec::new(), Vec::new()] }
    }

    /// End (exclusive) of the match of alternative `alt` (0: `\boxed{…}`, 1:
    /// `\\[boxed{…}\\]`) whose content starts at `p0`, or `None`.
    fn run(&mut self, alt: usize, p0: usize) -> Option<usize> {
        let b = self.b;
        let n = b.len();
        let stride = n + 1;
        if self.visited[alt].is_empty() {
            self.visited[alt] = vec![false; 3 * stride];
        }
        let visited = &mut self.visited[alt];
        let mut stack: Vec<usize> = Vec::new(); // pending `Lazy` positions (".` took a `}`")
        let mut next = Some((St::Outer, p0));
        loop {
            let (mut st, mut p) = match next.take() {
                Some(x) => x,
                None => match stack.pop() {
                    Some(q) => (St::Lazy, q),
                    None => return None,
                },
            };
            // Follow the deterministic path until it fails or matches.
            loop {
                let slot = st as usize * stride + p;
                work::add(1);
                if visited[slot] {
                    break;
                }
                visited[slot] = true;
                if p >= n {
                    break;
                }
                let c = b[p];
                match st {
                    St::Outer => match c {
                        b'}' => {
                            if alt == 0 {
                                return Some(p + 1);
                            }
                            if b[p + 1..].starts_with(CLOSE2) {
                                return Some(p + 1 + CLOSE2.len());
                            }
                            break;
                        }
                        b'{' => {
                            st = St::Mid;
                            p += 1;
                        }
                        _ => p += 1,
                    },
                    St::Mid => match c {
                        b'}' => {
                            st = St::Outer;
                            p += 1;
                        }
                        b'{' => {
                            st = St::Lazy;
                            p += 1;
                        }
                        _ => p += 1,
                    },
                    St::Lazy => {
                        if c == b'}' {
                            stack.push(p + 1);
                            st = St::Mid;
                        }
                        p += 1;
                    }
                }
            }
        }
    }
}

/// Raw regex matches: (content start, content end) byte ranges, before stripping.
fn physics_box_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut search: Option<BoxSearch<'_>> = None;
    let mut pos = 0;
    while pos < b.len() {
        let Some(off) = memchr::memchr(b'\\', &b[pos..]) else {
            work::add(b.len() - pos);
            break;
        };
        work::add(off + 1);
        let s = pos + off;
        let rest = &b[s..];
        let (alt, open) = if rest.starts_with(OPEN1) {
            (0, OPEN1.len())
        } else if rest.starts_with(OPEN2) {
            (1, OPEN2.len())
        } else {
            pos = s + 1;
            continue;
        };
        let engine = search.get_or_insert_with(|| BoxSearch::new(b));
        match engine.run(alt, s + open) {
            Some(end) => {
                let close = if alt == 0 { 1 } else { 1 + CLOSE2.len() };
                out.push((s + open, end - close));
                pos = end;
            }
            None => pos = s + 1,
        }
    }
    out
}

/// `extract_all_boxed_content` (§4.1): every match's group, stripped; empty ones dropped.
pub fn physics_boxes(text: &str) -> Vec<&str> {
    physics_box_spans(text).into_iter().map(|(a, z)| py_strip(&text[a..z])).filter(|s| !s.is_empty()).collect()
}

/// `extract_final_answer(x)` (§4.1 nested-box step): search `x` (no DOTALL) for
/// `\\boxed{(.*?)}|\\\\\[boxed{(.*?)}\\\\\]`; the first non-empty group, stripped, or `x`
/// itself without a match. `None` = upstream raises StopIteration (the group is empty).
///
/// Linear time: a failed attempt proves that every later attempt of the same kind starting
/// before the newline it stopped at fails too, so those are not searched again (`dead1`,
/// `dead2`); Python's engine rescans the line for each of them.
pub fn physics_final(x: &str) -> Option<&str> {
    let b = x.as_bytes();
    // Attempts whose group would start at or before these positions cannot match.
    let mut dead1 = 0usize; // `\boxed{`: no `}` before the `\n` at dead1
    let mut dead2 = 0usize; // `\\[boxed{`: no `}\\]` before the `\n` at dead2
    let mut pos = 0;
    while pos < b.len() {
        let Some(off) = memchr::memchr(b'\\', &b[pos..]) else {
            work::add(b.len() - pos);
            break;
        };
        work::add(off + 1);
        let s = pos + off;
        let rest = &b[s..];
        if rest.starts_with(OPEN1) {
            let a = s + OPEN1.len();
            if a > dead1 {
                // `.*?}`: the first `}` with no newline before it.
                match memchr::memchr2(b'}', b'\n', &b[a..]) {
                    Some(k) if b[a + k] == b'}' => {
                        work::add(k + 1);
                        let g = &x[a..a + k];
                        return (!g.is_empty()).then(|| py_strip(g));
                    }
                    Some(k) => {
                        // Neither `}` nor `\n` in a..a+k: every later attempt of either
                        // kind whose group starts at or before the newline fails.
                        work::add(k + 1);
                        dead1 = a + k;
                        dead2 = dead2.max(a + k);
                    }
                    None => {
                        // No `}` and no newline up to the end: nothing later can match.
                        work::add(b.len() - a);
                        break;
                    }
                }
            }
        } else if rest.starts_with(OPEN2) {
            let a = s + OPEN2.len();
            if a > dead2 {
                let line_end = memchr::memchr(b'\n', &b[a..]).map_or(b.len(), |k| a + k);
                work::add(line_end - a + 1);
                // `.*?}\\\\\]`: the first `}\\]` that starts before the newline.
                let mut j = a;
                while let Some(k) = memchr::memchr(b'}', &b[j..line_end]) {
                    let at = j + k;
                    work::add(k + 1);
                    if b[at + 1..].starts_with(CLOSE2) {
                        let g = &x[a..at];
                        return (!g.is_empty()).then(|| py_strip(g));
                    }
                    j = at + 1;
                }
                // No `}\\]` in a..line_end: the same holds from any later start on this line.
                dead2 = line_end;
            }
        }
        pos = s + 1;
    }
    Some(x)
}

/// `[x.strip() for x in extract_final_answer_allform(text)]`: the answers VLMEvalKit's
/// PHYSICS scorer compares (every version). `None` where upstream raises StopIteration
/// (a box holds `\boxed{}`), which scores the item 0.
pub fn physics_extract(text: &str) -> Option<Vec<&str>> {
    physics_boxes(text).into_iter().map(|x| physics_final(x).map(py_strip)).collect()
}

// ---------------------------------------------------------------------------------------
// gaia-fast's balanced-brace extractor
// ---------------------------------------------------------------------------------------

/// Where a box sits: `k` = start of its word `boxed`, `open` = its `{`.
#[derive(Clone, Copy)]
struct Boxed {
    k: usize,
    open: usize,
}

/// The `{` that opens the box whose `boxed` word starts at `k`, if this is a box: either
/// `\boxed` + optional ASCII whitespace + `{`, or the reference's second form `\\[boxed{`.
fn box_open(b: &[u8], k: usize) -> Option<usize> {
    if k >= 3 && &b[k - 3..k] == b"\\\\[" {
        return (b.get(k + 5) == Some(&b'{')).then_some(k + 5);
    }
    if k >= 1 && b[k - 1] == b'\\' {
        let mut j = k + 5;
        while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r') {
            j += 1;
        }
        work::add(j - k - 4);
        return (b.get(j) == Some(&b'{')).then_some(j);
    }
    None
}

/// Every box of `b`, in order (nested ones included).
fn all_boxes(b: &[u8]) -> Vec<Boxed> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(off) = memchr::memmem::find(&b[pos..], b"boxed") {
        let k = pos + off;
        work::add(off + 5);
        if let Some(open) = box_open(b, k) {
            out.push(Boxed { k, open });
        }
        // `boxed` cannot overlap itself: the next occurrence starts after this one.
        pos = k + 5;
    }
    work::add(b.len() - pos);
    out
}

/// The closing `}` of each box (`None`: it never closes), in one pass from the first box:
/// braces count to any depth and a backslash escapes the next byte (`\{`, `\}`, `\\`).
///
/// One pass gives what a scan from each box's own `{` would give, because the byte before
/// a box's `{` is never a backslash (it is `d` or whitespace): the pass reaches every `{`
/// of a box unescaped, in the same state a scan starting there would be in. Only braces
/// opened after the first box matter, and between two boxes on the stack only their
/// number, so the stack holds boxes and a count of plain braces open above each.
fn box_closes(b: &[u8], boxes: &[Boxed]) -> Vec<Option<usize>> {
    let mut closes = vec![None; boxes.len()];
    // (box index, plain `{` open above it)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut next = 0; // the next box whose `{` the pass has not reached
    let Some(first) = boxes.first() else {
        return closes;
    };
    let mut i = first.open;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'{' => {
                if next < boxes.len() && boxes[next].open == i {
                    stack.push((next, 0));
                    next += 1;
                } else if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
            }
            b'}' => {
                if let Some(top) = stack.last_mut() {
                    if top.1 > 0 {
                        top.1 -= 1;
                    } else {
                        closes[top.0] = Some(i);
                        stack.pop();
                        if stack.is_empty() && next == boxes.len() {
                            work::add(i + 1 - first.open);
                            return closes;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    work::add(b.len() - first.open);
    debug_assert!(next == boxes.len(), "the pass skipped the `{{` of a box");
    closes
}

/// gaia-fast's `\boxed{}` extractor (`style="balanced"`): every top-level box, left to
/// right, with braces balanced to any depth (`\{` and `\}` are literal braces), content
/// stripped; a box that is just another box is unwrapped (`\boxed{\boxed{5}}` → `5`);
/// empty boxes are dropped; an unclosed box gives nothing. `\boxed {x}` (space before the
/// brace) counts, as it does in LaTeX.
///
/// Linear time: the boxes are found in one pass and closed in another ([`box_closes`]);
/// the reading below then only looks them up. (Scanning from each box to its close costs
/// quadratic time on text such as `\boxed{` repeated, where no box closes.)
pub fn balanced_boxes(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let boxes = all_boxes(b);
    let closes = box_closes(b, &boxes);
    let mut out = Vec::new();
    let mut pos = 0; // end of the last box read: boxes inside it are skipped
    let mut j = 0;
    while j < boxes.len() {
        let (bx, close) = (boxes[j], closes[j]);
        j += 1;
        work::add(1);
        let Some(close) = close else { continue };
        if bx.k < pos {
            continue;
        }
        pos = close + 1;
        let (mut start, mut end) = strip_span(text, bx.open + 1, close);
        // A box that is only another box: that box is the next one found (only
        // whitespace lies between the two), and it must close at the content's end.
        while b[start..end].starts_with(b"\\boxed") && j < boxes.len() && boxes[j].k == start + 1 {
            match closes[j] {
                Some(c) if c + 1 == end => {
                    (start, end) = strip_span(text, boxes[j].open + 1, c);
                    j += 1;
                }
                _ => break,
            }
        }
        if start < end {
            out.push(&text[start..end]);
        }
    }
    out
}

/// The span of `text[a..z].strip()` (Python whitespace).
fn strip_span(text: &str, a: usize, z: usize) -> (usize, usize) {
    let t = &text[a..z];
    let s = py_strip(t);
    work::add(t.len() - s.len() + 1);
    if s.is_empty() {
        return (a, a);
    }
    // `s` is a subslice of `t`.
    let start = a + (s.as_ptr() as usize - t.as_ptr() as usize);
    (start, start + s.len())
}

// ---------------------------------------------------------------------------------------
// §4.2 steps 2–3: preprocessing and the core of an equation
// ---------------------------------------------------------------------------------------

/// Python `re` `\w` for an ASCII byte.
#[inline]
fn ascii_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Is the character starting at byte `i` a Python `\w`? `None` when it is not ASCII
/// (decided by the Python twin, which has CPython's Unicode tables).
#[inline]
fn word_at(b: &[u8], i: usize) -> Option<bool> {
    match b.get(i) {
        None => Some(false),
        Some(&c) if c < 0x80 => Some(ascii_word(c)),
        Some(_) => None,
    }
}

/// `_preprocess_latex` (§4.2 step 2): remove `_\{.*?\}`, then `_\\?\w`; delete `\left`,
/// `\right`; `\cdot` → `*`. `None` when a non-ASCII character would have to be classed as
/// `\w` or not (the caller uses the Python twin then).
pub fn physics_preprocess(s: &str) -> Option<String> {
    let b = s.as_bytes();
    // re.sub(r"_\{.*?\}", "", s): `.` stops at "\n". A failed attempt found a newline (or
    // the end) before any `}`: attempts starting before it fail too and are not rescanned.
    let mut t: Vec<u8> = Vec::with_capacity(b.len());
    let mut dead = 0usize; // a group starting at or before this cannot close
    let mut i = 0;
    while i < b.len() {
        work::add(1);
        if b[i] == b'_' && b.get(i + 1) == Some(&b'{') && i + 2 > dead {
            match memchr::memchr2(b'}', b'\n', &b[i + 2..]) {
                Some(k) if b[i + 2 + k] == b'}' => {
                    work::add(k + 1);
                    i = i + 2 + k + 1;
                    continue;
                }
                Some(k) => {
                    work::add(k + 1);
                    dead = i + 2 + k;
                }
                None => {
                    work::add(b.len() - i);
                    dead = b.len();
                }
            }
        }
        t.push(b[i]);
        i += 1;
    }
    // re.sub(r"_\\?\w", "", t)
    let mut u: Vec<u8> = Vec::with_capacity(t.len());
    let mut i = 0;
    while i < t.len() {
        work::add(1);
        if t[i] == b'_' {
            if t.get(i + 1) == Some(&b'\\') {
                if word_at(&t, i + 2)? {
                    i += 3;
                    continue;
                }
                // `\\?` gives the backslash back; `\` itself is not `\w`.
            } else if word_at(&t, i + 1)? {
                i += 2;
                continue;
            }
        }
        u.push(t[i]);
        i += 1;
    }
    // Only whole ASCII characters were removed, so `u` is still UTF-8.
    let u = String::from_utf8(u).ok()?;
    Some(u.replace("\\left", "").replace("\\right", "").replace("\\cdot", "*"))
}

/// `_extract_core_eq` (§4.2 step 3): after the last `\implies` (stripped), then after the
/// last `=` (stripped).
pub fn physics_core(s: &str) -> &str {
    let mut e = s;
    if let Some(k) = e.rfind("\\implies") {
        e = py_strip(&e[k + "\\implies".len()..]);
    }
    if let Some(k) = e.rfind('=') {
        e = py_strip(&e[k + 1..]);
    }
    e
}

// ---------------------------------------------------------------------------------------
// SymPy fast path
// ---------------------------------------------------------------------------------------

/// What SymPy would answer for `simplify(e1 - e2) == 0 or e1.equals(e2)` on two cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fast {
    /// SymPy proves the two equal.
    Proven,
    /// SymPy answers False (two different numbers).
    NotProven,
    /// SymPy raises (`parse_latex` rejects a core), so its result is None.
    Fails,
    /// Not decidable here: ask SymPy.
    Unknown,
}

impl Fast {
    pub fn code(self) -> u8 {
        match self {
            Fast::Proven => 1,
            Fast::NotProven => 0,
            Fast::Unknown => 2,
            Fast::Fails => 3,
        }
    }
}

/// A number as `parse_latex` builds it: an exact rational (`3`, `\frac{1}{2}`, `3/6`) or a
/// Float of 53 bits (`0.5`, at most 15 digits).
#[derive(Clone, Copy, Debug)]
enum Num {
    Exact(i128, i128),
    Float(f64),
}

/// Digits without a leading zero (except `0` itself), at most 15 of them (< 2^53).
fn plain_uint(s: &str) -> Option<i128> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 15 || !b.iter().all(u8::is_ascii_digit) || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    s.parse().ok()
}

fn plain_decimal(s: &str) -> Option<f64> {
    let (int, frac) = s.split_once('.')?;
    if plain_uint(int).is_none() || frac.is_empty() || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // SymPy keeps max(15, significant digits) decimal digits; up to 15 that is 53 bits.
    let significant = int.trim_start_matches('0').len() + frac.len();
    let significant =
        if int.trim_start_matches('0').is_empty() { frac.trim_start_matches('0').len() } else { significant };
    if significant > 15 {
        return None;
    }
    s.parse().ok()
}

fn fraction(s: &str) -> Option<(i128, i128)> {
    let body = ["\\frac{", "\\dfrac{", "\\tfrac{"].iter().find_map(|p| s.strip_prefix(p));
    let (num, den) = match body {
        Some(rest) => {
            let (num, rest) = rest.split_once("}{")?;
            (num, rest.strip_suffix('}')?)
        }
        None => s.split_once('/')?,
    };
    let (n, d) = (plain_uint(num)?, plain_uint(den)?);
    (d != 0).then_some((n, d))
}

fn parse_num(core: &str) -> Option<Num> {
    let s = core.trim_matches(' ');
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let sign = if neg { -1 } else { 1 };
    if let Some(v) = plain_uint(s) {
        return Some(Num::Exact(sign * v, 1));
    }
    if let Some(v) = plain_decimal(s) {
        return Some(Num::Float(if neg { -v } else { v }));
    }
    let (n, d) = fraction(s)?;
    Some(Num::Exact(sign * n, d))
}

fn as_f64(x: Num) -> f64 {
    match x {
        // Both parts are below 2^53, so this division is correctly rounded, as SymPy's
        // conversion of a Rational to a 53-bit Float is.
        Num::Exact(n, d) => n as f64 / d as f64,
        Num::Float(v) => v,
    }
}

/// SymPy's verdict on two cores when it can be known without SymPy:
/// * both plain numbers / simple fractions: exact rationals compare exactly; a Float
///   (decimal literal, 53 bits) compares as the doubles SymPy's arithmetic produces
///   (unequal numbers: `equals` answers False);
/// * either core empty, blank or holding `%` (`50\%`): `parse_latex` raises, so the
///   SymPy result is None ([`Fast::Fails`]).
pub fn sympy_fast(a: &str, b: &str) -> Fast {
    for s in [a, b] {
        if s.trim_matches(' ').is_empty() || s.contains('%') {
            return Fast::Fails;
        }
    }
    let (Some(x), Some(y)) = (parse_num(a), parse_num(b)) else {
        return Fast::Unknown;
    };
    let equal = match (x, y) {
        (Num::Exact(n1, d1), Num::Exact(n2, d2)) => n1 * d2 == n2 * d1,
        _ => as_f64(x) == as_f64(y),
    };
    if equal {
        Fast::Proven
    } else {
        Fast::NotProven
    }
}

/// Decide one (pred, gt) pair as far as the native side can, for the SymPy step of
/// `is_equiv`: preprocess, take the cores, try [`sympy_fast`]. Returns the two cores
/// (`None` when preprocessing needs the Python twin) and the verdict.
pub fn sympy_fast_pair(pred: &str, gt: &str) -> Fast {
    match (physics_preprocess(pred), physics_preprocess(gt)) {
        (Some(p), Some(g)) => sympy_fast(physics_core(&p), physics_core(&g)),
        _ => Fast::Unknown,
    }
}

// ---------------------------------------------------------------------------------------
// Column driver
// ---------------------------------------------------------------------------------------

/// Which extractor: gaia-fast's balanced reading, the reference pipeline (regex then
/// nested-box step, what VLMEvalKit compares), or the reference regex alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Balanced,
    Physics,
    PhysicsRegex,
}

/// Extract the boxes of `text` in `style`; `None` where the reference raises
/// StopIteration (`Physics` only).
pub fn extract(text: &str, style: Style) -> Option<Vec<&str>> {
    match style {
        Style::Balanced => Some(balanced_boxes(text)),
        Style::Physics => physics_extract(text),
        Style::PhysicsRegex => Some(physics_boxes(text)),
    }
}

/// One row of [`extract_column`]: `None` for a null cell, else [`extract`]'s result.
pub type Row<'a> = Option<Option<Vec<&'a str>>>;

/// [`extract`] over a column, on all cores, rows in order.
pub fn extract_column<C: StrColumn + ?Sized>(col: &C, style: Style) -> Vec<Row<'_>> {
    (0..col.len())
        .into_par_iter()
        .with_min_len(64)
        .map_init(|| col.cursor(), |cur, i| cur.get(i).map(|t| extract(t, style)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_boxes() {
        assert_eq!(physics_boxes("\\boxed{a^{b^{c^{d}}}}"), vec!["a^{b^{c^{d}}"]);
        assert_eq!(physics_boxes("\\boxed{{{{x}}}}"), vec!["{{{x}}"]);
        assert_eq!(physics_boxes("\\boxed{5\\}"), vec!["5\\"]);
        assert_eq!(physics_boxes("\\boxed{a}}"), vec!["a"]);
        assert!(physics_boxes("\\boxed{ }").is_empty());
        assert!(physics_boxes("\\boxed {5}").is_empty());
        assert_eq!(physics_boxes("\\\\[boxed{7}\\\\]"), vec!["7"]);
        assert_eq!(physics_boxes("x \\boxed{1} y \\boxed{2}"), vec!["1", "2"]);
    }

    #[test]
    fn lazy_group_extends_past_a_brace() {
        // Third level: `{.*?}` must swallow `}` to let the rest match.
        assert_eq!(physics_boxes("\\boxed{a{b{c}d}e}"), vec!["a{b{c}d}e"]);
        assert_eq!(physics_boxes("\\boxed{{{}}}}"), vec!["{{}}"]);
    }

    /// `head + unit * k + tail`, about `n` bytes.
    fn rep(unit: &str, n: usize, head: &str, tail: &str) -> String {
        let k = (n.saturating_sub(head.len() + tail.len()) / unit.len()).max(1);
        format!("{head}{}{tail}", unit.repeat(k))
    }

    /// `open * k + inner + close * k`, about `n` bytes.
    fn nest(open: &str, inner: &str, close: &str, n: usize) -> String {
        let k = (n / (open.len() + close.len())).max(1);
        format!("{}{inner}{}", open.repeat(k), close.repeat(k))
    }

    /// Adversarial shapes for the box extractors: repeated or unclosed openers, deep
    /// nesting, long runs of braces, backslashes and whitespace.
    fn box_shapes() -> Vec<crate::work::Shape> {
        vec![
            ("open boxes", Box::new(|n| rep("\\boxed{", n, "", ""))),
            ("nested boxes", Box::new(|n| nest("\\boxed{", "x", "}", n))),
            ("nested boxes, spaces", Box::new(|n| nest("\\boxed{ ", "x", " }", n))),
            ("open braces", Box::new(|n| rep("{", n, "\\boxed{", ""))),
            ("open {}s", Box::new(|n| rep("{}", n, "\\boxed{", ""))),
            ("closed boxes", Box::new(|n| rep("\\boxed{x} ", n, "", ""))),
            ("open second form", Box::new(|n| rep("\\\\[boxed{", n, "", ""))),
            ("second form, {{}}", Box::new(|n| rep("{{}}", n, "\\\\[boxed{", ""))),
            ("boxed + spaces", Box::new(|n| rep(" ", n, "\\boxed", ""))),
            ("backslashes", Box::new(|n| rep("\\", n, "", ""))),
            ("box of open boxes, newline", Box::new(|n| rep("\\boxed{", n, "\\boxed{{{", "\n}}}"))),
            ("box of open list boxes", Box::new(|n| rep("\\boxed{\\[", n, "\\boxed{{{", "}}}"))),
            ("second forms, empty", Box::new(|n| rep("\\\\[boxed{}", n, "", ""))),
            ("box, closing braces", Box::new(|n| rep("}", n, "\\\\[boxed{", ""))),
        ]
    }

    /// Work at 10n is at most 12x the work at n (linear), counted, not timed.
    const LINEAR: f64 = 12.0;

    #[test]
    fn box_extractors_do_linear_work() {
        for (name, make) in box_shapes() {
            work::assert_linear(&format!("balanced {name}"), 20_000, LINEAR, &make, |t| {
                let _ = balanced_boxes(t);
            });
            work::assert_linear(&format!("physics {name}"), 20_000, LINEAR, &make, |t| {
                let _ = physics_boxes(t);
            });
            work::assert_linear(&format!("physics-final {name}"), 20_000, LINEAR, &make, |t| {
                let _ = physics_extract(t);
            });
            work::assert_linear(&format!("final step {name}"), 20_000, LINEAR, &make, |t| {
                let _ = physics_final(t);
            });
        }
    }

    #[test]
    fn preprocessing_does_linear_work() {
        let shapes: Vec<crate::work::Shape> = vec![
            ("_{ newline", Box::new(|n| rep("_{", n, "", "\n}"))),
            ("_{ no close", Box::new(|n| rep("_{", n, "", ""))),
            ("_{}", Box::new(|n| rep("_{}", n, "", ""))),
            ("_\\", Box::new(|n| rep("_\\", n, "", ""))),
            ("underscores", Box::new(|n| rep("_", n, "", ""))),
        ];
        for (name, make) in shapes {
            work::assert_linear(name, 20_000, LINEAR, &make, |t| {
                let _ = physics_preprocess(t);
            });
        }
    }

    #[test]
    fn the_counter_sees_quadratic_work() {
        // The counting itself must be able to fail: the former per-box scan is quadratic
        // on open boxes.
        let make = |n| rep("\\boxed{", n, "", "");
        let quadratic = |t: &String| {
            let b = t.as_bytes();
            let mut pos = 0;
            while let Some(off) = memchr::memmem::find(&b[pos..], b"boxed") {
                let k = pos + off;
                let _ = box_open(b, k).and_then(|o| scan_close(b, o));
                pos = k + 5;
            }
        };
        let r = std::panic::catch_unwind(|| work::assert_linear("per-box scan", 2_000, LINEAR, make, quadratic));
        assert!(r.is_err());
    }

    /// The former extractor's close search (a scan from the box's own `{`), counted.
    fn scan_close(b: &[u8], open: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut i = open;
        while i < b.len() {
            work::add(1);
            match b[i] {
                b'\\' => i += 1,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// The former extractor, box by box: the oracle for the one-pass version.
    fn balanced_by_scanning(text: &str) -> Vec<&str> {
        fn sole_box(s: &str) -> Option<&str> {
            let b = s.as_bytes();
            if !b.starts_with(b"\\boxed") {
                return None;
            }
            let open = box_open(b, 1)?;
            let close = scan_close(b, open)?;
            (close + 1 == b.len()).then(|| &s[open + 1..close])
        }
        let b = text.as_bytes();
        let mut out = Vec::new();
        let mut pos = 0;
        while let Some(off) = memchr::memmem::find(&b[pos..], b"boxed") {
            let k = pos + off;
            let Some(close_open) = box_open(b, k).and_then(|o| Some((scan_close(b, o)?, o))) else {
                pos = k + 5;
                continue;
            };
            let (close, open) = close_open;
            let mut content = py_strip(&text[open + 1..close]);
            while let Some(inner) = sole_box(content) {
                content = py_strip(inner);
            }
            if !content.is_empty() {
                out.push(content);
            }
            pos = close + 1;
        }
        out
    }

    /// The former `extract_final_answer` port (a scan per attempt).
    fn final_by_scanning(x: &str) -> Option<&str> {
        let b = x.as_bytes();
        let mut pos = 0;
        while let Some(off) = memchr::memchr(b'\\', &b[pos..]) {
            let s = pos + off;
            let rest = &b[s..];
            if rest.starts_with(OPEN1) {
                let a = s + OPEN1.len();
                if let Some(k) = memchr::memchr2(b'}', b'\n', &b[a..]) {
                    if b[a + k] == b'}' {
                        let g = &x[a..a + k];
                        return (!g.is_empty()).then(|| py_strip(g));
                    }
                }
            } else if rest.starts_with(OPEN2) {
                let a = s + OPEN2.len();
                let line_end = memchr::memchr(b'\n', &b[a..]).map_or(b.len(), |k| a + k);
                let mut j = a;
                while let Some(k) = memchr::memchr(b'}', &b[j..line_end]) {
                    let at = j + k;
                    if b[at + 1..].starts_with(CLOSE2) {
                        let g = &x[a..at];
                        return (!g.is_empty()).then(|| py_strip(g));
                    }
                    j = at + 1;
                }
            }
            pos = s + 1;
        }
        Some(x)
    }

    /// The former `_preprocess_latex` first step (a scan per attempt).
    fn strip_groups_by_scanning(s: &str) -> String {
        let b = s.as_bytes();
        let mut t = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'_' && b.get(i + 1) == Some(&b'{') {
                if let Some(k) = memchr::memchr2(b'}', b'\n', &b[i + 2..]) {
                    if b[i + 2 + k] == b'}' {
                        i = i + 2 + k + 1;
                        continue;
                    }
                }
            }
            t.push(b[i]);
            i += 1;
        }
        String::from_utf8(t).unwrap()
    }

    #[test]
    fn one_pass_versions_agree_with_scanning_versions() {
        let mut rng = crate::test_rng::Rng::new(0x5eed_1234_abcd);
        let atoms = [
            "\\boxed{",
            "\\boxed",
            "\\\\[boxed{",
            "}\\\\]",
            "{",
            "}",
            "\\",
            "\\{",
            "\\}",
            " ",
            "\n",
            "x",
            "5",
            "_{",
            "_",
            "\\[",
            "\\]",
            "\u{a0}",
            "é",
        ];
        for _ in 0..40_000 {
            let len = rng.below(14);
            let t: String = (0..len).map(|_| rng.pick(&atoms)).collect();
            assert_eq!(balanced_boxes(&t), balanced_by_scanning(&t), "{t:?}");
            assert_eq!(physics_final(&t), final_by_scanning(&t), "{t:?}");
            if t.is_ascii() {
                let want = strip_groups_by_scanning(&t);
                // The first step alone: with no `_` left after it, the second is a no-op.
                if !want.contains('_') {
                    let got = physics_preprocess(&t).unwrap();
                    let want = want.replace("\\left", "").replace("\\right", "").replace("\\cdot", "*");
                    assert_eq!(got, want, "{t:?}");
                }
            }
        }
        for (name, make) in box_shapes() {
            let t = make(3_000);
            assert_eq!(balanced_boxes(&t), balanced_by_scanning(&t), "{name}");
            assert_eq!(physics_final(&t), final_by_scanning(&t), "{name}");
        }
    }

    #[test]
    fn final_step() {
        assert_eq!(physics_final("\\boxed{5}"), Some("5"));
        assert_eq!(physics_final("\\boxed{}"), None);
        assert_eq!(physics_final("x"), Some("x"));
        assert_eq!(physics_extract("\\boxed{\\boxed{5}}"), Some(vec!["5"]));
        assert_eq!(physics_extract("\\boxed{\\boxed{}}"), None);
    }

    #[test]
    fn balanced() {
        assert_eq!(balanced_boxes("\\boxed{a^{b^{c^{d}}}}"), vec!["a^{b^{c^{d}}}"]);
        assert_eq!(balanced_boxes("\\boxed{\\boxed{5}}"), vec!["5"]);
        assert_eq!(balanced_boxes("\\boxed {7}"), vec!["7"]);
        assert!(balanced_boxes("\\boxed{5\\}").is_empty());
        assert_eq!(balanced_boxes("\\boxed{\\{1,2\\}}"), vec!["\\{1,2\\}"]);
    }

    #[test]
    fn preprocess_and_core() {
        assert_eq!(physics_preprocess("E_{0} = 2m_e c^2").as_deref(), Some("E = 2m c^2"));
        assert_eq!(physics_preprocess("a_\\alpha").as_deref(), Some("alpha"));
        assert_eq!(physics_preprocess("x_{a_{b}}").as_deref(), Some("x}"));
        assert_eq!(physics_preprocess("\\leftarrow").as_deref(), Some("arrow"));
        assert_eq!(physics_preprocess("m_é"), None);
        assert_eq!(physics_core("x_{1} = y = 3"), "3");
        assert_eq!(physics_core("a = b \\implies c"), "c");
    }

    #[test]
    fn fast_path() {
        assert_eq!(sympy_fast("\\frac{1}{2}", "0.5"), Fast::Proven);
        assert_eq!(sympy_fast("3.0", "3"), Fast::Proven);
        assert_eq!(sympy_fast("0.333333333333333", "\\frac{1}{3}"), Fast::NotProven);
        assert_eq!(sympy_fast("50\\%", "50\\%"), Fast::Fails);
        assert_eq!(sympy_fast("x", "x"), Fast::Unknown);
        assert_eq!(sympy_fast("007", "7"), Fast::Unknown);
    }
}
