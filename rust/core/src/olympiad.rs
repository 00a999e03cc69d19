//! OlympiadBench answer extraction and the fast paths decided before SymPy.
//!
//! Reproduces `specs/vlmevalkit.md` §5: the answer phrase (§5.1), the row glue (§5.2), the
//! judge's preprocessing, splitting and greedy pairing (§5.3, §5.4) and the parts of the
//! pair test (§5.5) that need no computer algebra, for both judges: `openbmb` (the
//! benchmark authors' `MathJudger`, §5.9) and `vlmevalkit` (the port, §5.6).
//!
//! A pair of pieces is decided here only when the outcome cannot depend on SymPy:
//! identical strings; Python-`float()` numbers (with the percent variants); the interval
//! test when its items are decidable; and the expression test between texts whose
//! `parse_latex` result is known well enough: numbers (`Shape::Literal`: plain decimals,
//! fractions, powers, and symbol-free arithmetic with `\frac`, `\sqrt`, `\pi`, valued by a
//! small evaluator that follows sympy's LaTeX grammar and carries an error bound), texts
//! that certainly hold a Symbol or fail (`Shape::Letters`), texts that certainly hold
//! none (`Shape::SymbolFree`) and texts that certainly fail (`Shape::Fails`). Anything
//! else is [`Pair::Unknown`] and goes to the SymPy worker pool; a row whose pairing visits
//! an unknown pair is [`Judged::Pending`]. Every rule is checked against the pure-Python
//! twin (`gaia_fast.reference.vlm_olympiad`) by the property tests.

use std::borrow::Cow;

use memchr::memmem;
use rayon::prelude::*;

use crate::batch::{Cursor, StrColumn};
use crate::text::{is_py_space, py_float};
use crate::work;

mod pairing;
pub use pairing::pair_lists_fast;

/// Which judge: the benchmark authors' (`openbmb`, §5.9) or VLMEvalKit's port (§5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    OpenBmb,
    VlmEvalKit,
}

impl Variant {
    pub fn parse(name: &str) -> Option<Variant> {
        match name {
            "openbmb" => Some(Variant::OpenBmb),
            "vlmevalkit" => Some(Variant::VlmEvalKit),
            _ => None,
        }
    }
}

pub const DEFAULT_PRECISION: f64 = 1e-8;

fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

// ---------------------------------------------------------------------------------------
// §5.1 answer extraction
// ---------------------------------------------------------------------------------------

pub const ENGLISH_PHRASE: &str = "So the final answer is ";
pub const CHINESE_PHRASE: &str = "所以最终答案是";

/// `extract_answer(is_chinese, text)`: the capture of the last match of `PHRASE(.*)`,
/// stripped, or the whole text. `.` stops only at `\n`, and matches do not overlap, so the
/// last match is the first occurrence of the phrase on the last line that holds one.
pub fn extract_answer(text: &str, is_chinese: bool) -> &str {
    let phrase = if is_chinese { CHINESE_PHRASE } else { ENGLISH_PHRASE };
    let bytes = text.as_bytes();
    // At most three searches over the text: the last phrase, its line, the line's first.
    work::add(3 * bytes.len() + 1);
    let Some(last) = memmem::rfind(bytes, phrase.as_bytes()) else {
        return text;
    };
    let line_start = memchr::memrchr(b'\n', &bytes[..last]).map_or(0, |i| i + 1);
    let first = line_start + memmem::find(&bytes[line_start..], phrase.as_bytes()).unwrap_or(last - line_start);
    let start = first + phrase.len();
    let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
    py_strip(&text[start..end])
}

// ---------------------------------------------------------------------------------------
// §5.4 preprocessing
// ---------------------------------------------------------------------------------------

/// The box step (§5.4 rules 1-2): every `\boxed{…}` content plus a comma; without boxes
/// the `$…$` spans of the last line plus commas, or the text itself. `None` where the
/// reference raises `ValueError` (a box whose braces never close).
pub fn boxed_content(text: &str) -> Option<Cow<'_, str>> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut found = false;
    work::add(bytes.len() + 1);
    for m in memmem::find_iter(bytes, b"\\boxed{") {
        found = true;
        let start = m + 7;
        let mut depth = 1usize;
        let mut end = start;
        while depth > 0 && end < bytes.len() {
            work::add(1);
            match bytes[end] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            end += 1;
        }
        if depth != 0 {
            return None;
        }
        out.push_str(&text[start..end - 1]);
        out.push(',');
    }
    if found {
        return Some(Cow::Owned(out));
    }
    let stripped = py_strip(text);
    let last_line = stripped.rsplit('\n').next().unwrap_or("");
    let lb = last_line.as_bytes();
    let mut i = 0;
    while let Some(open) = memchr::memchr(b'$', &lb[i..]) {
        work::add(open + 1);
        let open = i + open;
        let Some(close) = memchr::memchr(b'$', &lb[open + 1..]) else {
            work::add(lb.len() - open);
            break;
        };
        work::add(close + 1);
        let close = open + 1 + close;
        found = true;
        out.push_str(&last_line[open + 1..close]);
        out.push(',');
        i = close + 1;
    }
    Some(if found { Cow::Owned(out) } else { Cow::Borrowed(text) })
}

const SPECIAL_SIGNALS: [(&str, &str); 12] = [
    ("\\left", ""),
    ("\\right", ""),
    ("\u{2236}", ":"),
    ("\u{FF0C}", ","),
    ("$", ""),
    ("\\approx", "="),
    ("\\simeq", "="),
    ("\\sim", "="),
    ("^\\prime", "'"),
    ("^{\\prime}", "'"),
    ("^\\circ", ""),
    ("%", ""),
];

fn is_strip_char(c: char) -> bool {
    matches!(
        c,
        '\n' | '$'
            | ','
            | '.'
            | ':'
            | ';'
            | '^'
            | '_'
            | '='
            | '+'
            | '`'
            | '!'
            | '@'
            | '#'
            | '%'
            | '&'
            | '*'
            | '~'
            | '\u{FF0C}'
            | '\u{3002}'
    )
}

/// `re.sub(r'\\(?:mathrm|mathbf)\{~?([^}]*)\}', r'\1', s)`.
fn unwrap_mathrm(s: &str) -> Cow<'_, str> {
    let b = s.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `s` already in `out`
    let mut from = 0;
    while let Some(pos) = memmem::find(&b[from..], b"\\math").map(|p| from + p) {
        work::add(pos - from + 5);
        let rest = &b[pos + 5..];
        if !(rest.starts_with(b"rm{") || rest.starts_with(b"bf{")) {
            from = pos + 1;
            continue;
        }
        let open = pos + 8; // just after `{`
        let close = memchr::memchr(b'}', &b[open..]).map(|c| open + c);
        work::add(close.map_or(b.len(), |c| c + 1) - open);
        let Some(close) = close else {
            break; // no `}` after here: no later match either
        };
        let group_start = if b.get(open) == Some(&b'~') && open < close { open + 1 } else { open };
        let o = out.get_or_insert_with(|| String::with_capacity(s.len()));
        o.push_str(&s[copied..pos]);
        o.push_str(&s[group_start..close]);
        copied = close + 1;
        from = close + 1;
    }
    match out {
        None => Cow::Borrowed(s),
        Some(mut o) => {
            o.push_str(&s[copied..]);
            Cow::Owned(o)
        }
    }
}

/// §5.4 rules 3-6 on the box step's result.
fn symbol_replace(expr: &str) -> String {
    // Two `\in ` searches, twelve replacements, the strip: passes over the text (each
    // replacement only shortens it, but `\u{2236}` → `:`).
    work::add(16 * expr.len() + 1);
    let mut s: Cow<'_, str> = Cow::Borrowed(expr);
    if let Some(p) = s.find("\\in ") {
        let rest = &s[p + 4..];
        let part = match rest.find("\\in ") {
            Some(q) => &rest[..q],
            None => rest,
        };
        s = Cow::Owned(part.to_string());
    }
    for (old, new) in SPECIAL_SIGNALS {
        if s.contains(old) {
            s = Cow::Owned(s.replace(old, new));
        }
    }
    let stripped = s.trim_matches(is_strip_char);
    unwrap_mathrm(stripped).into_owned()
}

/// The reference's preprocessing of one side (§5.4); `None` where it raises.
pub fn preprocess(text: &str) -> Option<String> {
    Some(symbol_replace(&boxed_content(text)?))
}

// ---------------------------------------------------------------------------------------
// §5.3 splitting
// ---------------------------------------------------------------------------------------

fn is_chinese(c: char) -> bool {
    ('\u{4E00}'..='\u{9FFF}').contains(&c)
}

/// Delete every U+4E00..U+9FFF character.
pub fn strip_chinese(s: &str) -> Cow<'_, str> {
    work::add(2 * s.len() + 1);
    if s.is_ascii() || !s.chars().any(is_chinese) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().filter(|&c| !is_chinese(c)).collect())
}

/// Top-level comma split: `(`/`[` raise the depth, `)`/`]` lower it (it may go negative),
/// pieces stripped, an empty tail dropped.
pub fn split_by_comma(s: &str) -> Vec<&str> {
    work::add(s.len() + 1);
    let mut depth: i64 = 0;
    let mut pieces = Vec::new();
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => {
                pieces.push(py_strip(&s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < s.len() {
        pieces.push(py_strip(&s[start..]));
    }
    pieces
}

/// Each piece holding `\pm` becomes two: `\pm`→`+`, then `\pm`→`-`.
pub fn plus_minus<'a>(pieces: Vec<&'a str>) -> Vec<Cow<'a, str>> {
    let mut out = Vec::with_capacity(pieces.len());
    for p in pieces {
        work::add(p.len() + 1);
        if p.contains("\\pm") {
            out.push(Cow::Owned(p.replace("\\pm", "+")));
            out.push(Cow::Owned(p.replace("\\pm", "-")));
        } else {
            out.push(Cow::Borrowed(p));
        }
    }
    out
}

/// The two piece lists the judge pairs (Chinese removed, split, `\pm` expanded).
pub fn pieces(s: &str) -> Vec<String> {
    let s = strip_chinese(s);
    plus_minus(split_by_comma(&s)).into_iter().map(Cow::into_owned).collect()
}

// ---------------------------------------------------------------------------------------
// §5.5 pair test: the parts decidable without SymPy
// ---------------------------------------------------------------------------------------

/// A pair verdict without SymPy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pair {
    /// Equal, and which test said so.
    Equal(PairRule),
    /// Not equal whatever SymPy would say.
    NotEqual,
    /// Needs SymPy.
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairRule {
    /// Identical non-empty pieces.
    Identical,
    /// `float()` of both, with the percent variants.
    Numeric,
    /// The expression test between two literals (numbers, simple fractions).
    Literal,
    /// The interval test, its items compared as literals.
    Interval,
}

fn is_interval(s: &str) -> bool {
    matches!(s.as_bytes().first(), Some(b'(' | b'[')) && matches!(s.as_bytes().last(), Some(b')' | b']'))
}

/// `expression.split("=")[1].strip()` when there is a `=`.
fn extract_expression(s: &str) -> &str {
    match s.find('=') {
        Some(i) => {
            let rest = &s[i + 1..];
            py_strip(rest.find('=').map_or(rest, |j| &rest[..j]))
        }
        None => py_strip(s),
    }
}

/// What `parse_latex` is known to make of an (extracted) expression.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape<'a> {
    /// A symbol-free number: plain decimal, `\frac{m}{n}` (also `\dfrac`, `\tfrac`),
    /// `m/n` or `m^{k}` / `m^k` (`k` may be negative in braces), optionally signed (`+`/`-`,
    /// then spaces), integers without leading zeros (SymPy's `Number` rejects those).
    Literal(Lit<'a>),
    /// `parse_latex` fails, or its tree holds a Symbol that survives `subs(pi, π)`: see
    /// [`starts_with_symbol`].
    Letters,
    /// `parse_latex` fails, or its tree holds no Symbol after `subs(pi, π)`: see
    /// [`symbol_free`].
    SymbolFree,
    /// `parse_latex` raises: see [`fails_to_parse`].
    Fails,
    Other,
}

/// Empty, or a bracket group at the start holding a comma at its own level: the parser is
/// inside `( expr` / `[ expr` when it meets the comma, which no rule allows there, and it
/// cannot stop inside an open group. A comma followed by three digits is left out (the
/// NUMBER token reads `1,000` as one number).
fn fails_to_parse(b: &[u8]) -> bool {
    if b.is_empty() {
        return true;
    }
    if !matches!(b[0], b'(' | b'[') {
        return false;
    }
    let mut depth = 0i64;
    for (i, &c) in b.iter().enumerate().skip(1) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return false; // the group closed without a comma
                }
            }
            b',' if depth == 0 => {
                let three = b.get(i + 1..i + 4).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
                return !three;
            }
            _ => {}
        }
    }
    false
}

/// A [`Shape::Literal`]: its value (the double nearest to it, up to a few ulps) and, when
/// `parse_latex` makes it a top-level `Pow(m, k)` (unsigned `m^{k}`), the digits of `m`
/// and `k` and the value of `k`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lit<'a> {
    value: f64,
    /// Absolute error bound of `value`.
    err: f64,
    /// `m^{k}` written plainly: the digits of `m` and `k` (the same text is the same Pow).
    pow: Option<(&'a [u8], &'a [u8])>,
    /// The exponent when the top-level node is a `Pow`.
    top_exp: Option<f64>,
}

impl Lit<'_> {
    fn num(value: f64) -> Self {
        Lit { value, err: value.abs() * 4.0 * U, pow: None, top_exp: None }
    }
}

/// The first character is an ASCII letter (after an optional `-` and plain number, which
/// the juxtaposition product continues with the letter) and the letter's token is not a
/// function name: after it (and ASCII spaces) comes none of `(`, `_`, `'`, `\`. No lexer token other than
/// LETTER and DIFFERENTIAL starts with a letter, both become Symbols, and a successful parse
/// keeps its first token (the parser only drops a tail it cannot continue with). Nothing
/// evaluates the Symbol away except the `pi` substitution, so `\pi` and `\mathit` (which
/// can spell the Symbol `pi`) are excluded.
fn starts_with_symbol(b: &[u8]) -> bool {
    // An optional leading number (`-2x`, `195 miles`): the juxtaposition product goes on
    // with the letter that follows it.
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 {
        i += digits;
        if b.get(i) == Some(&b'.') {
            let frac = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if frac == 0 {
                return false;
            }
            i += 1 + frac;
        }
        i += b[i..].iter().take_while(|&&c| c == b' ').count();
    } else if i > 0 {
        return false;
    }
    if !b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let next = b[i + 1..].iter().find(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'));
    if matches!(next, Some(b'(' | b'_' | b'\'' | b'\\')) {
        return false;
    }
    memmem::find(b, b"\\pi").is_none() && memmem::find(b, b"\\mathit").is_none()
}

/// Commands whose tokens never make a Symbol (functions of their arguments, spacing,
/// constants; `\pi` is a Symbol that the `pi` substitution turns into a number).
const SYMBOL_FREE_COMMANDS: [&[u8]; 40] = [
    b"frac", b"dfrac", b"tfrac", b"sqrt", b"cdot", b"times", b"div", b"infty", b"pi", b"log", b"ln", b"lg", b"exp",
    b"sin", b"cos", b"tan", b"csc", b"sec", b"cot", b"arcsin", b"arccos", b"arctan", b"sinh", b"cosh", b"tanh",
    b"lfloor", b"rfloor", b"lceil", b"rceil", b"binom", b"dbinom", b"tbinom", b"quad", b"qquad", b"left", b"right",
    b"overline", b"arccsc", b"arcsec", b"arccot",
];

/// No ASCII letter outside the names of [`SYMBOL_FREE_COMMANDS`], and no other command
/// (a backslash before a non-letter is allowed: `\,`, `\{`). Without letters the lexer
/// makes no LETTER, DIFFERENTIAL or SYMBOL token, so no Symbol can appear.
fn symbol_free(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() {
            return false;
        }
        if c == b'\\' {
            let n = b[i + 1..].iter().take_while(|c| c.is_ascii_alphabetic()).count();
            if n > 0 && !SYMBOL_FREE_COMMANDS.contains(&&b[i + 1..i + 1 + n]) {
                return false;
            }
            i += 1 + n.max(1);
            continue;
        }
        i += 1;
    }
    true
}

/// `0` or `[1-9][0-9]*`; returns the rest.
fn int_token(b: &[u8]) -> Option<(&[u8], &[u8])> {
    match b.first() {
        Some(b'0') => Some((&b[..1], &b[1..])),
        Some(b'1'..=b'9') => {
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            Some((&b[..n], &b[n..]))
        }
        _ => None,
    }
}

fn int_value(digits: &[u8]) -> f64 {
    // ASCII digits only: a valid Rust float literal, correctly rounded.
    std::str::from_utf8(digits).ok().and_then(|s| s.parse().ok()).unwrap_or(f64::NAN)
}

fn shape(s: &str) -> Shape<'_> {
    let b = s.as_bytes();
    if fails_to_parse(b) {
        return Shape::Fails;
    }
    if starts_with_symbol(b) {
        return Shape::Letters;
    }
    if b.is_empty() || b.len() > 1000 {
        return if symbol_free(b) && !b.is_empty() { Shape::SymbolFree } else { Shape::Other };
    }
    // An optional sign, then spaces (the lexer skips them): `- 2` is the Integer -2.
    let (neg, body) = match b[0] {
        b'-' | b'+' => {
            let rest = &b[1..];
            let spaces = rest.iter().take_while(|&&c| c == b' ').count();
            (b[0] == b'-', &rest[spaces..])
        }
        _ => (false, b),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    // plain decimal: INT(.DIGITS)?
    if let Some((_, rest)) = int_token(body) {
        if rest.is_empty() {
            return Shape::Literal(Lit::num(sign * int_value(body)));
        }
        if rest[0] == b'.' {
            let frac = &rest[1..];
            if !frac.is_empty() && frac.iter().all(u8::is_ascii_digit) {
                // SAFETY-free: ASCII digits and a point parse as a Rust float.
                let v: f64 = std::str::from_utf8(body).ok().and_then(|t| t.parse().ok()).unwrap_or(f64::NAN);
                return Shape::Literal(Lit::num(sign * v));
            }
            return valued(b);
        }
        if rest[0] == b'^' {
            // m^k (the NUMBER token takes all the digits) or m^{k} / m^{-k}
            let (exp, tail) = match rest.get(1) {
                Some(b'{') => {
                    let inner = &rest[2..];
                    let (minus, digits) = match inner.first() {
                        Some(b'-') => (1, &inner[1..]),
                        _ => (0, inner),
                    };
                    match int_token(digits) {
                        Some((k, tail)) if tail.first() == Some(&b'}') => (&inner[..minus + k.len()], &tail[1..]),
                        _ => return valued(b),
                    }
                }
                _ => match int_token(&rest[1..]) {
                    Some((k, tail)) => (k, tail),
                    None => return valued(b),
                },
            };
            if !tail.is_empty() {
                return valued(b);
            }
            let base = &body[..body.len() - rest.len()];
            let (m, k) = (int_value(base), int_value(exp.strip_prefix(b"-").unwrap_or(exp)));
            let k = if exp.first() == Some(&b'-') { -k } else { k };
            if m == 0.0 && k <= 0.0 {
                return valued(b); // 0^0, 0^{-k}: not a plain number
            }
            let value = m.powf(k);
            let top = !neg;
            let err = value.abs() * (k.abs() + 2.0) * U;
            return Shape::Literal(Lit {
                value: sign * value,
                err,
                pow: top.then_some((base, exp)),
                top_exp: top.then_some(k),
            });
        }
        if rest[0] == b'/' {
            if let Some((den, tail)) = int_token(&rest[1..]) {
                if tail.is_empty() {
                    let (n, d) = (int_value(&body[..body.len() - rest.len()]), int_value(den));
                    return if d == 0.0 { valued(b) } else { Shape::Literal(Lit::num(sign * n / d)) };
                }
            }
        }
        return valued(b);
    }
    // \frac{INT}{INT}, \dfrac, \tfrac
    let after = [&b"\\frac{"[..], b"\\dfrac{", b"\\tfrac{"].iter().find_map(|p| body.strip_prefix(*p));
    if let Some(after) = after {
        if let Some((num, rest)) = int_token(after) {
            if let Some(rest) = rest.strip_prefix(b"}{") {
                if let Some((den, tail)) = int_token(rest) {
                    if tail == b"}" {
                        let (n, d) = (int_value(num), int_value(den));
                        return if d == 0.0 { valued(b) } else { Shape::Literal(Lit::num(sign * n / d)) };
                    }
                }
            }
        }
    }
    valued(b)
}

/// [`Shape::Literal`] when [`evaluate`] can value a symbol-free text, else
/// [`Shape::SymbolFree`] or [`Shape::Other`].
fn valued(b: &[u8]) -> Shape<'_> {
    if !symbol_free(b) {
        return Shape::Other;
    }
    match evaluate(b) {
        Some(lit) => Shape::Literal(lit),
        None => Shape::SymbolFree,
    }
}

/// Relative slack for comparing the doubles here with SymPy's 53-bit `evalf` values.
const SLACK: f64 = 1e-12;

/// What `expression_equal(a, b)` does, as far as known without SymPy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    True,
    /// Returns a false value.
    False,
    /// Raises (a parse error; in `vlmevalkit` also any structural mismatch).
    Raise,
    /// Returns a false value or raises: not equal, but which of the two is unknown.
    FalseOrRaise,
    Unknown,
}

/// `expression_equal(a, b)` (§5.6 / §5.9) when decidable.
fn expression_item(a: &str, b: &str, precision: f64, variant: Variant) -> Item {
    let (ea, eb) = (extract_expression(a), extract_expression(b));
    match (shape(ea), shape(eb)) {
        (Shape::Fails, _) | (_, Shape::Fails) => Item::Raise,
        (Shape::Literal(lx), Shape::Literal(ly)) => {
            if ea == eb {
                return Item::True; // the same parse: structurally equal
            }
            if let (Some((bx, kx)), Some((by, ky))) = (lx.pow, ly.pow) {
                if bx == by && kx == ky {
                    return Item::True; // `2^{10}` and `2^10`: the same Pow
                }
            }
            // openbmb: a top-level power with |exponent| > 1000 "can not be calculated".
            let huge = |l: Lit<'_>| l.top_exp.is_some_and(|k| k.abs() > 1000.0);
            if variant == Variant::OpenBmb && (huge(lx) || huge(ly)) {
                return Item::False;
            }
            let (x, y) = (lx.value, ly.value);
            if !x.is_finite() || !y.is_finite() {
                return Item::Unknown;
            }
            let d = (x - y).abs();
            let slack = lx.err + ly.err + SLACK * (x.abs() + y.abs()) + f64::MIN_POSITIVE;
            match variant {
                // Structural equality implies equal values: clearly different values
                // cannot be structurally equal, and the port then raises.
                Variant::VlmEvalKit => {
                    if d > slack {
                        Item::Raise
                    } else {
                        Item::Unknown
                    }
                }
                Variant::OpenBmb => {
                    let t = precision * 1.01;
                    if t.is_nan() || t < 0.0 || !t.is_finite() {
                        Item::Unknown
                    } else if d + slack <= t {
                        Item::True
                    } else if d > t + slack {
                        Item::False
                    } else {
                        Item::Unknown
                    }
                }
            }
        }
        // One side certainly has a Symbol (or fails to parse), the other certainly has none
        // (or fails): structurally different, and `openbmb`'s "Symbol on one side only".
        (Shape::Literal(_) | Shape::SymbolFree, Shape::Letters)
        | (Shape::Letters, Shape::Literal(_) | Shape::SymbolFree) => match variant {
            Variant::VlmEvalKit => Item::Raise,
            Variant::OpenBmb => Item::FalseOrRaise,
        },
        _ => Item::Unknown,
    }
}

/// `interval_equal(a, b)`: `Some(Ok(equal))`, `Some(Err(()))` where it raises, `None`
/// when unknown.
fn interval_fast(a: &str, b: &str, precision: f64, variant: Variant) -> Option<Result<bool, ()>> {
    if a == b {
        return Some(Ok(true));
    }
    let (l1, l2): (Vec<&str>, Vec<&str>) = (a.split("\\cup").collect(), b.split("\\cup").collect());
    if l1.len() != l2.len() {
        return Some(Ok(false));
    }
    for (i1, i2) in l1.into_iter().zip(l2) {
        let (Some(f1), Some(f2)) = (i1.chars().next(), i2.chars().next()) else {
            return Some(Err(())); // inter[0] of an empty piece: IndexError
        };
        if f1 != f2 || i1.chars().next_back() != i2.chars().next_back() {
            return Some(Ok(false));
        }
        let is_br = |c: char| matches!(c, '[' | ']' | '(' | ')');
        let (s1, s2) = (i1.trim_matches(is_br), i2.trim_matches(is_br));
        for (x, y) in s1.split(',').zip(s2.split(',')) {
            match expression_item(x, y, precision, variant) {
                Item::True => {}
                Item::False => return Some(Ok(false)),
                Item::Raise => return Some(Err(())),
                Item::FalseOrRaise | Item::Unknown => return None,
            }
        }
    }
    Some(Ok(true))
}

/// `is_equal(a, b)` with precision `p` (§5.5), as far as it can be decided without SymPy.
pub fn pair_fast(a: &str, b: &str, precision: f64, variant: Variant) -> Pair {
    if a == b && !a.is_empty() {
        return Pair::Equal(PairRule::Identical);
    }
    if is_interval(a) && is_interval(b) {
        match interval_fast(a, b, precision, variant) {
            None => return Pair::Unknown,
            Some(Err(())) => return Pair::NotEqual, // is_equal returns False at once
            Some(Ok(true)) => return Pair::Equal(PairRule::Interval),
            Some(Ok(false)) => {} // the other tests follow
        }
    }
    if let (Some(x), Some(y)) = (py_float(a), py_float(b)) {
        let t = precision * 1.01;
        if [x / 100.0, x, x * 100.0].iter().any(|v| (v - y).abs() <= t) {
            return Pair::Equal(PairRule::Numeric);
        }
    }
    let both_eq = a.contains('=') && b.contains('=');
    let expr = match expression_item(a, b, precision, variant) {
        Item::True => Some(true),
        Item::False | Item::Raise | Item::FalseOrRaise => Some(false),
        Item::Unknown => None,
    };
    if expr == Some(true) && !both_eq {
        return Pair::Equal(PairRule::Literal);
    }
    let equation_possible =
        a.bytes().filter(|&c| c == b'=').count() == 1 && b.bytes().filter(|&c| c == b'=').count() == 1;
    match expr {
        None => Pair::Unknown,
        Some(_) if equation_possible => Pair::Unknown,
        Some(_) => Pair::NotEqual,
    }
}

// ---------------------------------------------------------------------------------------
// A numeric evaluator for symbol-free LaTeX, following sympy's LaTeX.g4 (antlr backend)
// ---------------------------------------------------------------------------------------

/// Unit roundoff of a double, with a little room.
const U: f64 = 1.2e-16;

/// A value with an absolute error bound, and the exponent when the node is a `Pow` (for
/// `can_compute_power`, which only looks at the top-level node).
#[derive(Clone, Copy, Debug)]
struct Val {
    v: f64,
    e: f64,
    top_exp: Option<f64>,
    /// A unary minus over a power: `- -2^{2000}` may fold back into a `Pow`.
    neg_pow: bool,
}

impl Val {
    fn num(v: f64, e: f64) -> Val {
        Val { v, e, top_exp: None, neg_pow: false }
    }
}

/// Recursive descent over the subset of the grammar that `parse_latex` turns into a
/// symbol-free number, with its precedences: `additive` (`+ -`, left) over `mp` (`* \cdot
/// \times / \div`, left) over `unary` (signs, then a juxtaposition product of `exp`s) over
/// `exp` (`^`, left-associative: `2^3^2` is 64) over `comp` (number, `( )`, `[ ]`, `{ }`,
/// `\frac`, `\dfrac`, `\tfrac`, `\sqrt`, `\sqrt[n]`, `\pi`). Numbers are a parser rule, so
/// spaces between digits join them (`1 2` is 12). Anything else, a number with a leading
/// zero (SymPy's `Number` rejects it), a division by (possibly) zero, a complex result or
/// input left over gives `None`.
struct Eval<'a> {
    b: &'a [u8],
    i: usize,
    pi: bool,
}

impl Eval<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// `\name` not followed by another letter.
    fn at_cmd(&mut self, name: &[u8]) -> bool {
        self.ws();
        let rest = &self.b[self.i..];
        rest.first() == Some(&b'\\')
            && rest[1..].starts_with(name)
            && !rest.get(1 + name.len()).is_some_and(u8::is_ascii_alphabetic)
    }

    fn cmd(&mut self, name: &[u8]) -> bool {
        if self.at_cmd(name) {
            self.i += 1 + name.len();
            true
        } else {
            false
        }
    }

    fn expr(&mut self) -> Option<Val> {
        let mut a = self.mp()?;
        loop {
            if self.eat(b'+') {
                a = add(a, self.mp()?, 1.0)?;
            } else if self.eat(b'-') {
                a = add(a, self.mp()?, -1.0)?;
            } else {
                return Some(a);
            }
        }
    }

    fn mp(&mut self) -> Option<Val> {
        let mut a = self.unary()?;
        loop {
            if self.eat(b'*') || self.cmd(b"cdot") || self.cmd(b"times") {
                a = mul(a, self.unary()?)?;
            } else if self.eat(b'/') || self.cmd(b"div") {
                a = div(a, self.unary()?)?;
            } else {
                return Some(a);
            }
        }
    }

    fn unary(&mut self) -> Option<Val> {
        if self.eat(b'+') {
            return self.unary();
        }
        if self.eat(b'-') {
            let x = self.unary()?;
            if x.neg_pow {
                return None;
            }
            return Some(Val { v: -x.v, e: x.e, top_exp: None, neg_pow: x.top_exp.is_some() });
        }
        let mut acc = self.exp()?;
        while self.starts_comp() {
            acc = mul(acc, self.exp()?)?;
        }
        Some(acc)
    }

    fn starts_comp(&mut self) -> bool {
        match self.peek() {
            Some(b'0'..=b'9' | b'(' | b'[' | b'{') => true,
            Some(b'\\') => [&b"frac"[..], b"dfrac", b"tfrac", b"sqrt", b"pi"].iter().any(|c| self.at_cmd(c)),
            _ => false,
        }
    }

    fn exp(&mut self) -> Option<Val> {
        let mut base = self.comp()?;
        while self.eat(b'^') {
            let k = match self.peek() {
                Some(b'0'..=b'9') => self.number()?,
                Some(b'{') => {
                    self.i += 1;
                    let k = self.expr()?;
                    if !self.eat(b'}') {
                        return None;
                    }
                    k
                }
                _ => return None,
            };
            base = pow(base, k)?;
        }
        Some(base)
    }

    fn group(&mut self, close: u8) -> Option<Val> {
        self.i += 1;
        let x = self.expr()?;
        self.eat(close).then_some(x)
    }

    fn braced(&mut self) -> Option<Val> {
        if self.peek() != Some(b'{') {
            return None;
        }
        self.group(b'}')
    }

    fn comp(&mut self) -> Option<Val> {
        match self.peek()? {
            b'0'..=b'9' => self.number(),
            b'(' => self.group(b')'),
            b'[' => self.group(b']'),
            b'{' => self.group(b'}'),
            _ => {
                if self.cmd(b"frac") || self.cmd(b"dfrac") || self.cmd(b"tfrac") {
                    let (num, den) = (self.braced()?, self.braced()?);
                    let q = div(num, den)?;
                    Some(Val::num(q.v, q.e))
                } else if self.cmd(b"sqrt") {
                    let n = if self.peek() == Some(b'[') { Some(self.group(b']')?) } else { None };
                    let x = self.braced()?;
                    let k = match n {
                        None => Val::num(0.5, 0.0),
                        Some(n) => div(Val::num(1.0, 0.0), n)?,
                    };
                    let r = pow(x, k)?;
                    Some(Val::num(r.v, r.e))
                } else if self.cmd(b"pi") {
                    self.pi = true;
                    Some(Val::num(std::f64::consts::PI, 0.0))
                } else {
                    None
                }
            }
        }
    }

    /// The `number` parser rule: DIGIT+ ('.' DIGIT+)?, spaces allowed between tokens
    /// (commas are left out).
    fn number(&mut self) -> Option<Val> {
        let mut text = Vec::new();
        while let Some(d @ b'0'..=b'9') = self.peek() {
            text.push(d);
            self.i += 1;
        }
        let int_len = text.len();
        if int_len > 1 && text[0] == b'0' {
            return None;
        }
        let save = self.i;
        if self.eat(b'.') {
            text.push(b'.');
            let before = text.len();
            while let Some(d @ b'0'..=b'9') = self.peek() {
                text.push(d);
                self.i += 1;
            }
            if text.len() == before {
                self.i = save;
                return None;
            }
        }
        if self.peek() == Some(b',') {
            return None; // `1,000` and friends: not modelled
        }
        let v: f64 = std::str::from_utf8(&text).ok()?.parse().ok()?;
        let exact = int_len == text.len() && v < 9.0e15;
        Some(Val::num(v, if exact { 0.0 } else { v.abs() * U }))
    }
}

fn finite(v: Val) -> Option<Val> {
    (v.v.is_finite() && v.e.is_finite()).then_some(v)
}

fn add(a: Val, b: Val, sign: f64) -> Option<Val> {
    let v = a.v + sign * b.v;
    finite(Val::num(v, a.e + b.e + v.abs() * U))
}

fn mul(a: Val, b: Val) -> Option<Val> {
    let v = a.v * b.v;
    finite(Val::num(v, a.v.abs() * b.e + b.v.abs() * a.e + a.e * b.e + v.abs() * U))
}

fn div(a: Val, b: Val) -> Option<Val> {
    if b.v == 0.0 || b.v.abs() <= 2.0 * b.e {
        return None;
    }
    let v = a.v / b.v;
    finite(Val::num(v, (a.e + v.abs() * b.e) / (b.v.abs() - b.e) + v.abs() * U))
}

fn pow(a: Val, k: Val) -> Option<Val> {
    let integral = k.e == 0.0 && k.v.fract() == 0.0 && k.v.abs() <= 10000.0;
    let (v, e) = if integral {
        let n = k.v;
        if a.v == 0.0 {
            if n <= 0.0 || a.e > 0.0 {
                return None;
            }
            (0.0, 0.0)
        } else {
            let r = a.e / a.v.abs();
            if n.abs() * r > 1e-6 {
                return None;
            }
            let v = a.v.powi(n as i32);
            (v, v.abs() * (n.abs() * r * 1.1 + (n.abs() + 2.0) * U))
        }
    } else {
        if a.v <= 0.0 || a.e >= a.v {
            return None; // complex, or unclear
        }
        let v = a.v.powf(k.v);
        let r = a.e / a.v;
        (v, v.abs() * (k.v.abs() * r * 1.1 + a.v.ln().abs() * k.e * 1.1 + 4.0 * U))
    };
    let out = finite(Val { v, e, top_exp: Some(k.v), neg_pow: false })?;
    Some(out)
}

/// The value of a symbol-free expression as `parse_latex` + `subs(pi, π)` + `evalf` see
/// it, with an error bound; `None` outside the modelled grammar.
fn evaluate(b: &[u8]) -> Option<Lit<'_>> {
    let mut ev = Eval { b, i: 0, pi: false };
    let val = ev.expr()?;
    ev.ws();
    if ev.i != b.len() {
        return None;
    }
    // With `\pi` the substitution rebuilds (and evaluates) the tree: the top-level node
    // seen by `can_compute_power` may then differ.
    if ev.pi && val.top_exp.is_some_and(|k| k.abs() > 1000.0) {
        return None;
    }
    Some(Lit { value: val.v, err: val.e, pow: None, top_exp: val.top_exp })
}

// ---------------------------------------------------------------------------------------
// §5.3 judge
// ---------------------------------------------------------------------------------------

/// How a judged pair of answers was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Path {
    /// A `\boxed{` never closes: the reference's `preprocess` raised, judge is False.
    PreprocessError = 0,
    /// Identical after preprocessing.
    Identical = 1,
    /// Different numbers of pieces.
    LengthMismatch = 2,
    /// Greedy pairing, every pair decided natively.
    Pairing = 3,
    /// Greedy pairing needed SymPy for some pair.
    Sympy = 4,
}

impl Path {
    pub const ALL: [Path; 5] =
        [Path::PreprocessError, Path::Identical, Path::LengthMismatch, Path::Pairing, Path::Sympy];
    pub fn name(self) -> &'static str {
        match self {
            Path::PreprocessError => "preprocess_error",
            Path::Identical => "identical",
            Path::LengthMismatch => "length_mismatch",
            Path::Pairing => "pairing",
            Path::Sympy => "sympy",
        }
    }
}

/// The outcome of [`judge_fast`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    Decided(bool, Path),
    /// The reference raises `IndexError` (precision list shorter than the pieces).
    IndexError,
    /// Some pair the pairing visits needs SymPy.
    Pending,
}

/// Precision argument of `judge`: one value (wrapped in a list) or a caller's list.
#[derive(Clone, Debug, PartialEq)]
pub enum Precision {
    One(f64),
    List(Vec<f64>),
}

/// The greedy pairing of §5.3 step 9 with a pair oracle, as the spec writes it (k1·k2 pair
/// tests); `Err(true)` = IndexError, `Err(false)` = the oracle could not decide a pair.
/// [`judge_fast`] uses [`pair_lists_fast`], which makes the same pairs in O(n log n) for
/// the common pieces; this loop is its oracle in the tests.
pub fn pair_lists<S: AsRef<str> + PartialEq>(
    mut list1: Vec<S>,
    mut list2: Vec<S>,
    mut prec: Vec<f64>,
    mut oracle: impl FnMut(&str, &str, f64) -> Option<bool>,
) -> Result<bool, bool> {
    let mut idx: isize = -1;
    while !list1.is_empty() {
        idx = (idx + 1).rem_euclid(list1.len() as isize);
        let i = idx as usize;
        let p = *prec.get(i).ok_or(true)?;
        let mut hit = None;
        for (j, item2) in list2.iter().enumerate() {
            match oracle(list1[i].as_ref(), item2.as_ref(), p) {
                Some(true) => {
                    hit = Some(j);
                    break;
                }
                Some(false) => {}
                None => return Err(false),
            }
        }
        let Some(j) = hit else { return Ok(false) };
        // list.remove(x) removes the first element equal to x.
        let k1 = list1.iter().position(|x| *x == list1[i]).unwrap_or(i);
        list1.remove(k1);
        let k2 = list2.iter().position(|x| *x == list2[j]).unwrap_or(j);
        list2.remove(k2);
        // The precision list: first equal value, or the object itself (NaN).
        let kp = prec.iter().position(|&x| x == p).unwrap_or(i);
        prec.remove(kp);
    }
    Ok(true)
}

/// `MathJudger.judge(prediction, gt, precision)` with every pair decided by [`pair_fast`];
/// [`Judged::Pending`] when a visited pair needs SymPy.
pub fn judge_fast(prediction: &str, gt: &str, precision: &Precision, variant: Variant) -> Judged {
    let (Some(a), Some(b)) = (boxed_content(prediction), boxed_content(gt)) else {
        return Judged::Decided(false, Path::PreprocessError);
    };
    let (a, b) = (symbol_replace(&a), symbol_replace(&b));
    if a == b {
        return Judged::Decided(true, Path::Identical);
    }
    let (sa, sb) = (strip_chinese(&a), strip_chinese(&b));
    let list1 = plus_minus(split_by_comma(&sa));
    let list2 = plus_minus(split_by_comma(&sb));
    let prec = match precision {
        Precision::One(p) => vec![*p; list1.len()],
        Precision::List(v) if v.len() <= 1 => v.repeat(list1.len()),
        Precision::List(v) => v.clone(),
    };
    if list1.len() != list2.len() {
        return Judged::Decided(false, Path::LengthMismatch);
    }
    match pair_lists_fast(&list1, &list2, prec, variant, None) {
        Ok(eq) => Judged::Decided(eq, Path::Pairing),
        Err(true) => Judged::IndexError,
        Err(false) => Judged::Pending,
    }
}

// ---------------------------------------------------------------------------------------
// §5.2 row glue
// ---------------------------------------------------------------------------------------

/// Why a row has no score from the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum RowStatus {
    Ok = 0,
    /// `source` is NaN: `'zh' in source` raises TypeError.
    NoSource = 1,
    /// `final_answer` is NaN: slicing it raises TypeError.
    NoAnswer = 2,
    /// The `error` cell is not a float (ValueError).
    BadPrecision = 3,
    /// `judge` raised IndexError (precision list shorter than the pieces).
    IndexError = 4,
    /// Needs SymPy (decided by the caller).
    Pending = 5,
}

impl RowStatus {
    pub const ALL: [RowStatus; 6] = [
        RowStatus::Ok,
        RowStatus::NoSource,
        RowStatus::NoAnswer,
        RowStatus::BadPrecision,
        RowStatus::IndexError,
        RowStatus::Pending,
    ];
    pub fn name(self) -> &'static str {
        match self {
            RowStatus::Ok => "ok",
            RowStatus::NoSource => "no_source",
            RowStatus::NoAnswer => "no_answer",
            RowStatus::BadPrecision => "bad_precision",
            RowStatus::IndexError => "index_error",
            RowStatus::Pending => "pending",
        }
    }
}

/// Python `s[2:-2]` (code points).
pub fn slice_cell(s: &str) -> &str {
    let n = s.chars().count();
    if n <= 4 {
        return "";
    }
    let start = s.char_indices().nth(2).map_or(s.len(), |(i, _)| i);
    let end = s.char_indices().nth(n - 2).map_or(s.len(), |(i, _)| i);
    &s[start..end]
}

fn is_nan_cell(v: Option<&str>) -> bool {
    matches!(v, None | Some("nan"))
}

/// The `error` cell is not a float: the reference raises ValueError.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadPrecision;

/// The precision of a row (§5.2): `Ok(None)` = the default, `Err(BadPrecision)` = ValueError.
/// `vlmevalkit` tests the cell with `str(x) != 'nan'`; `openbmb` with truthiness.
pub fn row_precision(error: Option<&str>, variant: Variant) -> Result<Option<Precision>, BadPrecision> {
    let e = match (error, variant) {
        (None, _) => return Ok(None),
        (Some("nan"), Variant::VlmEvalKit) => return Ok(None),
        (Some(""), Variant::OpenBmb) => return Ok(None),
        (Some(e), _) => e,
    };
    if e.contains(',') {
        let mut v = Vec::new();
        for piece in e.split(',') {
            v.push(if piece.is_empty() { DEFAULT_PRECISION } else { py_float(piece).ok_or(BadPrecision)? });
        }
        return Ok(Some(Precision::List(v)));
    }
    Ok(Some(Precision::One(py_float(e).ok_or(BadPrecision)?)))
}

/// One row's inputs (`None` = a NaN cell).
#[derive(Clone, Copy, Debug, Default)]
pub struct Row<'a> {
    pub prediction: Option<&'a str>,
    pub source: Option<&'a str>,
    /// The `final_answer` cell (sliced `[2:-2]` unless `gt_given`).
    pub final_answer: Option<&'a str>,
    pub answer_type: Option<&'a str>,
    pub error: Option<&'a str>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RowResult {
    pub extracted: Option<String>,
    pub gt: Option<String>,
    pub score: Option<bool>,
    pub status: RowStatus,
    pub path: Option<Path>,
}

/// One row of `OlympiadBench.evaluate` (§5.2). With `gt_given` the `final_answer` field
/// already is the ground truth (the `openbmb` pipeline's `final_answer[0]`).
pub fn grade_row(row: Row<'_>, variant: Variant, gt_given: bool) -> RowResult {
    let mut r = RowResult { extracted: None, gt: None, score: None, status: RowStatus::Ok, path: None };
    let Some(source) = row.source else {
        r.status = RowStatus::NoSource;
        return r;
    };
    let pred = match row.prediction {
        None => "nan",
        Some(p) => p,
    };
    let extracted = extract_answer(pred, source.contains("zh"));
    r.extracted = Some(extracted.to_string());
    let Some(cell) = row.final_answer else {
        r.status = RowStatus::NoAnswer;
        return r;
    };
    let gt = if gt_given { cell } else { slice_cell(cell) };
    r.gt = Some(gt.to_string());
    let tuple = match variant {
        Variant::VlmEvalKit => !is_nan_cell(row.answer_type) && row.answer_type.is_some_and(|t| t.contains("Tuple")),
        Variant::OpenBmb => row.answer_type.is_some_and(|t| t.contains("Tuple")),
    };
    let precision = if tuple {
        Precision::One(DEFAULT_PRECISION)
    } else {
        match row_precision(row.error, variant) {
            Ok(p) => p.unwrap_or(Precision::One(DEFAULT_PRECISION)),
            Err(BadPrecision) => {
                r.status = RowStatus::BadPrecision;
                return r;
            }
        }
    };
    match judge_fast(extracted, gt, &precision, variant) {
        Judged::Decided(eq, path) => {
            r.score = Some(eq);
            r.path = Some(path);
        }
        Judged::IndexError => r.status = RowStatus::IndexError,
        Judged::Pending => {
            r.status = RowStatus::Pending;
            r.path = Some(Path::Sympy);
        }
    }
    r
}

/// [`grade_row`] over columns, on all cores.
pub fn grade_rows<C: StrColumn + ?Sized>(
    prediction: &C,
    source: &C,
    final_answer: &C,
    answer_type: &C,
    error: &C,
    variant: Variant,
    gt_given: bool,
) -> Vec<RowResult> {
    let n = prediction.len();
    for c in [source, final_answer, answer_type, error] {
        assert_eq!(c.len(), n, "columns differ in length");
    }
    (0..n)
        .into_par_iter()
        .with_min_len(256)
        .map_init(
            || (prediction.cursor(), source.cursor(), final_answer.cursor(), answer_type.cursor(), error.cursor()),
            |(p, s, f, a, e), i| {
                let row = Row {
                    prediction: p.get(i),
                    source: s.get(i),
                    final_answer: f.get(i),
                    answer_type: a.get(i),
                    error: e.get(i),
                };
                grade_row(row, variant, gt_given)
            },
        )
        .collect()
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
    fn extraction_and_preprocessing_do_linear_work() {
        let shapes: Vec<crate::work::Shape> = vec![
            ("phrase x k", Box::new(|n| rep(ENGLISH_PHRASE, n, "", ""))),
            ("phrase + newline x k", Box::new(|n| rep("So the final answer is 1\n", n, "", ""))),
            ("zh phrase x k", Box::new(|n| rep(CHINESE_PHRASE, n, "", ""))),
            ("open boxes", Box::new(|n| rep("\\boxed{", n, "", ""))),
            ("closed boxes", Box::new(|n| rep("\\boxed{1}", n, "", ""))),
            ("open braces in a box", Box::new(|n| rep("{", n, "\\boxed{", ""))),
            ("dollars", Box::new(|n| rep("$", n, "", ""))),
            ("dollar spans", Box::new(|n| rep("$1$ ", n, "", ""))),
            ("\\mathrm{ x k", Box::new(|n| rep("\\mathrm{", n, "", ""))),
            ("\\math x k", Box::new(|n| rep("\\math", n, "", ""))),
            ("\\in  x k", Box::new(|n| rep("\\in ", n, "", ""))),
            ("signals", Box::new(|n| rep("\\left\\right\u{2236}\u{ff0c}$%^\\circ", n, "", ""))),
            ("strip chars", Box::new(|n| rep("$,.:;^_=+", n, "", ""))),
            ("commas", Box::new(|n| rep(",", n, "", ""))),
            ("parentheses", Box::new(|n| rep("(", n, "", ""))),
            ("\\pm x k", Box::new(|n| rep("\\pm,", n, "", ""))),
            ("chinese", Box::new(|n| rep("\u{4e2d}1,", n, "", ""))),
        ];
        for (name, make) in &shapes {
            for zh in [false, true] {
                crate::work::assert_linear(&format!("extract {name}"), 20_000, 12.0, make, |t| {
                    let _ = extract_answer(t, zh);
                });
            }
            crate::work::assert_linear(&format!("preprocess {name}"), 20_000, 12.0, make, |t| {
                let _ = preprocess(t);
            });
            crate::work::assert_linear(&format!("pieces {name}"), 20_000, 12.0, make, |t| {
                let _ = pieces(t);
            });
        }
    }

    #[test]
    fn nested_boxes_cost_their_output() {
        // Every nested box is copied out again (spec §5.4 rule 1: `\boxed{\boxed{5}}` →
        // `\boxed{5},5,`), so the result of k nested boxes holds Θ(k²) bytes; the work
        // stays within a constant of input plus output.
        for k in [100, 1_000] {
            let t = format!("{}7{}", "\\boxed{".repeat(k), "}".repeat(k));
            let (out, w) = crate::work::count(|| boxed_content(&t));
            let out = out.unwrap();
            assert_eq!(out.matches('7').count(), k);
            assert!(w as usize <= 2 * (t.len() + out.len()), "{w} for {} + {}", t.len(), out.len());
        }
    }

    #[test]
    fn extraction() {
        assert_eq!(extract_answer("blah\nSo the final answer is $\\boxed{5}$.\nmore", false), "$\\boxed{5}$.");
        assert_eq!(
            extract_answer("So the final answer is 4. So the final answer is 5", false),
            "4. So the final answer is 5"
        );
        assert_eq!(extract_answer("So the final answer is 4.\nSo the final answer is 5.", false), "5.");
        assert_eq!(extract_answer("So the final answer is", false), "So the final answer is");
        assert_eq!(extract_answer("So the final answer is \n5", false), "");
        assert_eq!(extract_answer("所以最终答案是$\\boxed{3}$。", true), "$\\boxed{3}$。");
        assert_eq!(extract_answer("所以最终答案是3", false), "所以最终答案是3");
    }

    #[test]
    fn boxes_and_preprocessing() {
        assert_eq!(boxed_content("\\boxed{\\boxed{5}}").unwrap(), "\\boxed{5},5,");
        assert_eq!(boxed_content("\\boxed{5"), None);
        assert_eq!(boxed_content("a\n x $1$ and $2$ ").unwrap(), "1,2,");
        assert_eq!(boxed_content("no math").unwrap(), "no math");
        assert_eq!(preprocess("x \\in (0,1)").unwrap(), "(0,1)");
        assert_eq!(preprocess("x\\in(0,1)").unwrap(), "x\\in(0,1)");
        assert_eq!(preprocess("90^\\circ").unwrap(), "90");
        assert_eq!(preprocess("50\\%").unwrap(), "50\\");
        assert_eq!(preprocess("5\\mathrm{~m}").unwrap(), "5m");
        assert_eq!(preprocess("\\mathrm{\\mathrm{a}}").unwrap(), "\\mathrm{a}");
    }

    #[test]
    fn splitting() {
        assert_eq!(split_by_comma(""), Vec::<&str>::new());
        assert_eq!(split_by_comma("1,"), vec!["1"]);
        assert_eq!(split_by_comma(",1"), vec!["", "1"]);
        assert_eq!(split_by_comma("1{,}000"), vec!["1{", "}000"]);
        assert_eq!(split_by_comma("(1,2), 3"), vec!["(1,2)", "3"]);
        assert_eq!(pieces("\\pm 2"), vec!["+ 2", "- 2"]);
        assert_eq!(slice_cell("['5']"), "5");
        assert_eq!(slice_cell("5"), "");
        assert_eq!(slice_cell("['é']"), "é");
    }

    #[test]
    fn pairs() {
        let o = Variant::OpenBmb;
        assert_eq!(pair_fast("50", "0.5", 1e-8, o), Pair::Equal(PairRule::Numeric));
        assert_eq!(pair_fast("\\frac{1}{2}", "0.5", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("\\frac{1}{2}", "0.5", 1e-8, Variant::VlmEvalKit), Pair::Unknown);
        assert_eq!(pair_fast("\\frac{1}{3}", "0.5", 1e-8, Variant::VlmEvalKit), Pair::NotEqual);
        assert_eq!(pair_fast("x", "3", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("x=3", "3", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("x+1", "1+x", 1e-8, o), Pair::Unknown);
        assert_eq!(pair_fast("1.0000001", "1", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("0", "2^{1009}", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("2^{10}", "1024", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("2^{10}", "1024", 1e-8, Variant::VlmEvalKit), Pair::Unknown);
        assert_eq!(pair_fast("2^{10}", "2^10", 1e-8, Variant::VlmEvalKit), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("The answer is 5", "5", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("f(2)", "5", 1e-8, o), Pair::Unknown);
        assert_eq!(pair_fast("x - x + \\pi", "3", 1e-8, o), Pair::Unknown);
        assert_eq!(pair_fast("x", "(1,2)", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("x", "45^{\\circ}", 1e-8, o), Pair::Unknown);
        assert_eq!(pair_fast("0", "(-\\infty, 0) \\cup\\{1\\}", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("(1,2]", "(1, 2]", 1e-8, o), Pair::Equal(PairRule::Interval));
        assert_eq!(pair_fast("(1,2]", "(1,3]", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("(5)", "[5]", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("(1,000)", "1000", 1e-8, o), Pair::Unknown);
        assert_eq!(pair_fast("2\\sqrt{2}", "\\sqrt{8}", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("2^3^2", "64", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("1/2 3", "\\frac{1}{23}", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("1 2", "12", 1e-8, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("20 \\sqrt{7}", "10.000000000000001", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("\\sqrt{-4}", "2", 1e-8, o), Pair::Unknown);
        assert_eq!(pair_fast("3.14159", "\\pi", 0.01, o), Pair::Equal(PairRule::Literal));
        assert_eq!(pair_fast("3.14159", "\\pi", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("195 miles", "650", 1e-8, o), Pair::NotEqual);
        assert_eq!(pair_fast("-2x", "-2", 1e-8, Variant::VlmEvalKit), Pair::NotEqual);
        assert_eq!(pair_fast("2.x", "2", 1e-8, o), Pair::Unknown);
    }

    #[test]
    fn judging() {
        let one = Precision::One(1e-8);
        let o = Variant::OpenBmb;
        assert_eq!(judge_fast("1,2", "2,1", &one, o), Judged::Decided(true, Path::Pairing));
        assert_eq!(judge_fast("\\pm 2", "2,-2", &one, o), Judged::Decided(true, Path::Pairing));
        assert_eq!(judge_fast("不能", "能", &one, o), Judged::Decided(true, Path::Pairing));
        assert_eq!(judge_fast("\\boxed{1", "1", &one, o), Judged::Decided(false, Path::PreprocessError));
        assert_eq!(judge_fast("1,2,3", "3,2,1", &Precision::List(vec![0.1, 0.2]), o), Judged::IndexError);
        assert_eq!(judge_fast("1,2", "1", &one, o), Judged::Decided(false, Path::LengthMismatch));
    }
}
