//! Python-exact text primitives (CPython 3.11, Unicode 14.0.0).
//!
//! Rust's `char` methods follow a newer Unicode and differ from Python in places
//! (whitespace U+001C..U+001F, `float()` syntax), so every rule the scorers need is
//! spelled out here against tables generated from CPython itself.

use crate::unicode_tables::{CASED, CASE_IGNORABLE, DIGIT_ZEROS, ESCAPED, LOWER};

/// Byte classes for the ASCII fast paths.
const PY_WS: u8 = 1; // Python whitespace (str.isspace)
const PUNCT: u8 = 2; // string.punctuation
const JS_WS: u8 = 4; // JavaScript whitespace
const JS_WORD: u8 = 8; // JavaScript \w without the u flag
const FLOAT_WS: u8 = 16; // what float() trims
const FLOAT_START: u8 = 32; // a float() argument may start with it
const FLOAT_END: u8 = 64; // a float() argument may end with it
const UPPER: u8 = 128; // A-Z

const fn ascii_classes() -> [u8; 128] {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let mut k = 0;
        if (c >= 0x09 && c <= 0x0D) || c == b' ' {
            k |= PY_WS | JS_WS | FLOAT_WS;
        }
        if c >= 0x1C && c <= 0x1F {
            k |= PY_WS;
        }
        if c.is_ascii_punctuation() {
            k |= PUNCT;
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            k |= JS_WORD;
        }
        // Literal starts: sign, point, digit, inf/infinity/nan; ends: point, digit,
        // inf/infinity/nan. Whitespace may surround either.
        if k & FLOAT_WS != 0 || c.is_ascii_digit() || c == b'.' {
            k |= FLOAT_START | FLOAT_END;
        }
        if matches!(c, b'+' | b'-' | b'i' | b'I' | b'n' | b'N') {
            k |= FLOAT_START;
        }
        if matches!(c, b'f' | b'F' | b'y' | b'Y' | b'n' | b'N') {
            k |= FLOAT_END;
        }
        if c.is_ascii_uppercase() {
            k |= UPPER;
        }
        t[b] = k;
        b += 1;
    }
    t
}

static ASCII: [u8; 128] = ascii_classes();

/// Can a byte start / end the text of a float? Any non-ASCII byte can (Unicode
/// whitespace or a digit may follow from it).
#[inline]
fn can_bound_float(b: &u8, class: u8) -> bool {
    *b >= 128 || ASCII[*b as usize] & class != 0
}

#[inline]
fn ascii_has(b: u8, class: u8) -> bool {
    b < 128 && ASCII[b as usize] & class != 0
}

/// Does `s` contain any of `set`? Answers are short and of every length, so a loop
/// that stops at the end costs a mispredicted branch per call; instead whole words are
/// tested (SWAR), overlapping at the end, with no loop at all up to 16 bytes.
#[inline]
pub fn has_any_byte(s: &[u8], set: &[u8]) -> bool {
    any_word(s, |w| word_has_any(w, set))
}

/// Does `s` hold a byte above 0x7F? Like [`has_any_byte`], without a loop up to 16 bytes.
#[inline]
pub fn has_high_byte(s: &[u8]) -> bool {
    any_word(s, |w| w & 0x8080_8080_8080_8080 != 0)
}

/// Is `test` true of any 8-byte word covering `s`? The words overlap at the end; texts
/// shorter than 8 bytes are read as a word of their own bytes repeated.
#[inline(always)]
fn any_word(s: &[u8], test: impl Fn(u64) -> bool) -> bool {
    let n = s.len();
    let word = |at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default());
    let half = |at: usize| u64::from(u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or_default()));
    match n {
        0 => false,
        1..=3 => test(u64::from_le_bytes([s[0], s[n / 2], s[n - 1], s[0], s[0], s[0], s[0], s[0]])),
        4..=7 => test(half(0) | half(n - 4) << 32),
        _ => {
            let mut at = 0;
            while at + 8 < n {
                if test(word(at)) {
                    return true;
                }
                at += 8;
            }
            test(word(n - 8))
        }
    }
}

/// Does any byte of `w` equal a byte of `set`?
#[inline(always)]
fn word_has_any(w: u64, set: &[u8]) -> bool {
    word_matches(w, 0, set) != 0
}

/// Bit 7 of each byte of `w` that equals a byte of `set`, the lowest `skip` bytes left out
/// (the zero-byte test of `w ^ c…c`). The lowest set bit is exact; bits above a true hit
/// may be false.
#[inline(always)]
fn word_matches(w: u64, skip: usize, set: &[u8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Skipped bytes become 0xFF after the XOR below: never zero, and they lend no borrow.
    let low = if skip == 0 { 0 } else { u64::MAX >> (64 - 8 * skip) };
    let mut found = 0;
    for &c in set {
        let x = (w ^ (u64::from(c) * ONES)) | low;
        found |= x.wrapping_sub(ONES) & !x & HIGH;
    }
    found
}

/// Index of the first byte of `set` in `s` at or after `from`. Whole words are tested, so
/// pieces of every length cost no mispredicted loop exit.
#[inline]
pub fn find_any_byte(s: &[u8], from: usize, set: &[u8]) -> Option<usize> {
    let n = s.len();
    if n < 8 {
        return find_in_short(s, from, set);
    }
    let word = |at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or_default());
    let mut at = from;
    while at + 8 <= n {
        let m = word_matches(word(at), 0, set);
        if m != 0 {
            return Some(at + (m.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    if at >= n {
        return None;
    }
    // The last bytes, read as the final word with the ones already searched left out.
    let m = word_matches(word(n - 8), at - (n - 8), set);
    (m != 0).then(|| n - 8 + (m.trailing_zeros() / 8) as usize)
}

/// [`find_any_byte`] for fewer than 8 bytes, without a byte loop: the bytes are read as
/// one word (of up to three bytes) or two overlapping half words. No set holds a zero byte,
/// so zeros stand in for bytes before `from` and for the unused top of a word.
#[inline]
fn find_in_short(s: &[u8], from: usize, set: &[u8]) -> Option<usize> {
    let n = s.len();
    debug_assert!(n < 8 && from <= n && !set.contains(&0));
    const LOW: u64 = 0xFFFF_FFFF;
    if n < 4 {
        if from >= n {
            return None;
        }
        // Indices 0, n/2 and n-1 cover every byte of a text of one to three bytes.
        let at = [0, n / 2, n - 1];
        let byte = |k: usize| if at[k] >= from { u64::from(s[at[k]]) } else { 0 };
        let m = word_matches(byte(0) | byte(1) << 8 | byte(2) << 16, 0, set) & 0xFF_FFFF;
        return (m != 0).then(|| at[(m.trailing_zeros() / 8) as usize]);
    }
    let half = |at: usize| u64::from(u32::from_le_bytes([s[at], s[at + 1], s[at + 2], s[at + 3]]));
    if from < 4 {
        let m = word_matches(half(0), from, set) & LOW;
        if m != 0 {
            return Some((m.trailing_zeros() / 8) as usize);
        }
    }
    // The last four bytes, leaving out those already searched or before `from`.
    let start = from.max(4);
    if start >= n {
        return None;
    }
    let m = word_matches(half(n - 4), start - (n - 4), set) & LOW;
    (m != 0).then(|| n - 4 + (m.trailing_zeros() / 8) as usize)
}

/// Python `str.isspace()` / `re` `\s`: Rust's whitespace plus U+001C..U+001F, on
/// Unicode 14 (which is what Rust's set is for these code points).
#[inline]
pub fn is_py_space(c: char) -> bool {
    let u = c as u32;
    if u < 128 {
        return ASCII[u as usize] & PY_WS != 0;
    }
    matches!(u, 0x85 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000)
}

/// JavaScript `\s` / `String.prototype.trim` set.
#[inline]
pub fn is_js_space(c: char) -> bool {
    let u = c as u32;
    if u < 128 {
        return ASCII[u as usize] & JS_WS != 0;
    }
    matches!(u, 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF)
}

/// A member of Python's `string.punctuation` (ASCII only).
#[inline]
pub fn is_ascii_punct(c: char) -> bool {
    (c as u32) < 128 && ASCII[c as usize] & PUNCT != 0
}

fn in_ranges(table: &[(u32, u32)], u: u32) -> bool {
    let i = table.partition_point(|&(_, hi)| hi < u);
    i < table.len() && table[i].0 <= u
}

/// Decimal value of a Unicode Nd digit (what `float()` and `\d` accept).
pub fn digit_value(c: char) -> Option<u32> {
    let u = c as u32;
    if c.is_ascii_digit() {
        return Some(u - b'0' as u32);
    }
    if u < 128 {
        return None;
    }
    let i = DIGIT_ZEROS.partition_point(|&z| z <= u);
    if i == 0 {
        return None;
    }
    let zero = DIGIT_ZEROS[i - 1];
    (u - zero < 10).then_some(u - zero)
}

/// `str.lower()` of one code point that is neither U+03A3 (context dependent) nor
/// U+0130 (lowers to two code points).
#[inline]
fn lower_simple(c: char) -> char {
    let u = c as u32;
    if u < 128 {
        return c.to_ascii_lowercase();
    }
    let fast = lower_fast();
    if let Some(&l) = fast.two_byte.get(u as usize) {
        return char::from_u32(l).unwrap_or(c);
    }
    if fast.uncased_pages.get((u >> 8) as usize).copied().unwrap_or(false) {
        return c;
    }
    lower_searched(c)
}

/// [`lower_simple`] by searching the table.
fn lower_searched(c: char) -> char {
    match LOWER.binary_search_by_key(&(c as u32), |&(k, _)| k) {
        Ok(i) => char::from_u32(LOWER[i].1).unwrap_or(c),
        Err(_) => c,
    }
}

/// Lookups that spare [`lower_simple`] its search: the lowercase of every code point below
/// U+0800 (Latin, Greek, Cyrillic, ...), and which 256-code-point pages hold nothing to
/// lowercase (CJK, ...).
struct LowerFast {
    two_byte: Vec<u32>,
    uncased_pages: Vec<bool>,
}

fn lower_fast() -> &'static LowerFast {
    static FAST: std::sync::OnceLock<LowerFast> = std::sync::OnceLock::new();
    FAST.get_or_init(|| {
        let two_byte = (0..0x800u32).map(|u| char::from_u32(u).map_or(u, |c| lower_searched(c) as u32)).collect();
        let mut uncased_pages = vec![true; 0x1100];
        for &(k, _) in LOWER.iter() {
            uncased_pages[(k >> 8) as usize] = false;
        }
        LowerFast { two_byte, uncased_pages }
    })
}

fn is_cased(c: char) -> bool {
    in_ranges(&CASED, c as u32)
}

fn is_case_ignorable(c: char) -> bool {
    in_ranges(&CASE_IGNORABLE, c as u32)
}

/// Python's Final_Sigma test for the U+03A3 at `chars[i]`.
fn final_sigma(chars: &[char], i: usize) -> bool {
    final_sigma_between(chars[..i].iter().rev().copied(), chars[i + 1..].iter().copied(), is_case_ignorable)
}

/// Final_Sigma for a sigma with the characters `before` it (nearest first) and `after`
/// it, passing over the characters `ignored` (case-ignorable ones, and whatever the
/// caller's text has deleted): a cased character before, none after.
fn final_sigma_between(mut before: impl Iterator<Item = char>, mut after: impl Iterator<Item = char>, ignored: impl Fn(char) -> bool) -> bool {
    before.find(|&c| !ignored(c)).is_some_and(is_cased) && !after.find(|&c| !ignored(c)).is_some_and(is_cased)
}

/// Append Python `str.lower()` of `chars` to `out`.
pub fn py_lower_chars_into(chars: &[char], out: &mut String) {
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\u{3A3}' => out.push(if final_sigma(chars, i) { '\u{3C2}' } else { '\u{3C3}' }),
            '\u{130}' => out.push_str("i\u{307}"),
            _ => out.push(lower_simple(c)),
        }
    }
}

/// Python `str.lower()`.
pub fn py_lower(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    if s.is_ascii() {
        out.push_str(s);
        out.make_ascii_lowercase();
    } else {
        let chars: Vec<char> = s.chars().collect();
        py_lower_chars_into(&chars, &mut out);
    }
    out
}

/// Python `float(s)`; `None` where Python raises `ValueError`.
pub fn py_float(s: &str) -> Option<f64> {
    let b = trim_float_ws(s.as_bytes());
    // An ASCII byte at either end that no float literal can start or end with settles
    // it: most non-numbers are rejected here without a scan.
    if !can_bound_float(b.first()?, FLOAT_START) || !can_bound_float(b.last()?, FLOAT_END) {
        return None;
    }
    // The grammar rejects every non-ASCII byte, so a success on the raw bytes is final;
    // only a failure on non-ASCII text needs the Unicode mapping below.
    if let Some(v) = parse_ascii_float(b) {
        return Some(v);
    }
    if !has_high_byte(s.as_bytes()) || (s.len() > LONG_TEXT && surely_not_float(s, false)) {
        return None;
    }
    py_float_mapped(s)
}

/// `float()` of a text with non-ASCII code points.
fn py_float_mapped(s: &str) -> Option<f64> {
    // float() first maps Unicode whitespace to ' ' and Nd digits to ASCII; any other
    // non-ASCII code point makes it fail. The mapped text is never longer than `s`.
    let mut stack = [0u8; 64];
    let mut heap = Vec::new();
    let buf: &mut [u8] = if s.len() <= stack.len() {
        &mut stack[..]
    } else {
        heap.resize(s.len(), 0);
        &mut heap[..]
    };
    let mut n = 0;
    for c in s.chars() {
        buf[n] = if c.is_ascii() {
            c as u8
        } else if is_py_space(c) {
            b' '
        } else {
            b'0' + digit_value(c)? as u8
        };
        n += 1;
    }
    parse_ascii_float(&buf[..n])
}

/// Powers of ten that are exact doubles (Clinger's fast path).
const EXACT_POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// `b` without the ASCII whitespace that `float()` trims (not U+001C..U+001F).
#[inline]
fn trim_float_ws(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if !ascii_has(*first, FLOAT_WS) {
            break;
        }
        b = rest;
    }
    while let [rest @ .., last] = b {
        if !ascii_has(*last, FLOAT_WS) {
            break;
        }
        b = rest;
    }
    b
}

/// `float()` on ASCII: trim the six ASCII whitespace bytes (not U+001C..U+001F), then
/// Python's grammar, which allows `_` between digits only.
fn parse_ascii_float(b: &[u8]) -> Option<f64> {
    let b = trim_float_ws(b);
    let lit = scan_float(b)?;
    if let Some(v) = lit.fast_value() {
        return Some(v);
    }
    // SAFETY: the grammar scan accepted only ASCII bytes, hence UTF-8.
    let text = |bytes: &[u8]| unsafe { std::str::from_utf8_unchecked(bytes) }.parse::<f64>().ok();
    if lit.underscores {
        let cleaned: Vec<u8> = b.iter().copied().filter(|&x| x != b'_').collect();
        return text(&cleaned);
    }
    // The grammar check leaves only what Rust's parser reads identically.
    text(b)
}

/// What the grammar scan learned about a float literal.
struct FloatLit {
    negative: bool,
    underscores: bool,
    /// Decimal digits without the point, when short enough to be exact (else `None`).
    mantissa: Option<u64>,
    /// Digits after the point.
    frac_digits: usize,
    exponent: bool,
}

impl FloatLit {
    /// Exact result without the general parser: at most 15 significant digits and a
    /// power of ten that is itself exact, so one IEEE division/multiplication rounds
    /// correctly (Clinger).
    #[inline]
    fn fast_value(&self) -> Option<f64> {
        if self.exponent {
            return None;
        }
        let m = self.mantissa? as f64;
        let v = if self.frac_digits == 0 { m } else { m / *EXACT_POW10.get(self.frac_digits)? };
        Some(if self.negative { -v } else { v })
    }
}

/// Python float-literal grammar; `None` when `b` is not one.
fn scan_float(b: &[u8]) -> Option<FloatLit> {
    let negative = b.first() == Some(&b'-');
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let word = &b[i..];
    // Most non-numbers are rejected by their first byte.
    if !matches!(word.first(), Some(b'0'..=b'9' | b'.' | b'i' | b'I' | b'n' | b'N')) {
        return None;
    }
    if word.len() >= 3 && !word[0].is_ascii_digit() && word[0] != b'.' {
        for special in [&b"inf"[..], b"infinity", b"nan"] {
            if word.eq_ignore_ascii_case(special) {
                return Some(FloatLit { negative, underscores: false, mantissa: None, frac_digits: 0, exponent: true });
            }
        }
        return None;
    }
    let mut underscores = false;
    let mut mantissa: u64 = 0;
    let int_digits = digit_run(b, &mut i, &mut mantissa, &mut underscores);
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = digit_run(b, &mut i, &mut mantissa, &mut underscores);
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    let mut exponent = false;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        exponent = true;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digit_run(b, &mut i, &mut 0, &mut underscores) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    // Up to 19 digits cannot wrap a u64; below 10^15 means at most 15 significant digits.
    let mantissa = (int_digits + frac_digits <= 19 && mantissa < 1_000_000_000_000_000).then_some(mantissa);
    Some(FloatLit { negative, underscores, mantissa, frac_digits, exponent })
}

/// Consume a run of digits at `b[*i..]` (with single `_` between digits, which sets
/// `underscores`), accumulating them into `acc` (wrapping); returns the digit count.
#[inline(always)]
fn digit_run(b: &[u8], i: &mut usize, acc: &mut u64, underscores: &mut bool) -> usize {
    let mut n = 0;
    loop {
        while let Some(&c) = b.get(*i) {
            let d = c.wrapping_sub(b'0');
            if d >= 10 {
                break;
            }
            *acc = acc.wrapping_mul(10).wrapping_add(u64::from(d));
            *i += 1;
            n += 1;
        }
        // Here the previous byte is a digit whenever n > 0.
        if n > 0 && b.get(*i) == Some(&b'_') && b.get(*i + 1).is_some_and(u8::is_ascii_digit) {
            *i += 1;
            *underscores = true;
            continue;
        }
        return n;
    }
}

/// ASCII bytes that can appear in a text `float()` reads: digits, `. + - _`, the letters
/// of `e`, `inf`, `infinity` and `nan` in either case, and the whitespace it trims.
static FLOAT_TEXT: [bool; 128] = {
    let classes = ascii_classes();
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        let c = (b as u8).to_ascii_lowercase();
        t[b] = classes[b] & FLOAT_WS != 0
            || c.is_ascii_digit()
            || matches!(c, b'.' | b'+' | b'-' | b'_' | b'e' | b'i' | b'n' | b'f' | b't' | b'y' | b'a');
        b += 1;
    }
    t
};

/// Is `float(s)` certain to fail (with every `$ % ,` deleted first when `money`)? True on
/// the first code point no float text holds: an ASCII byte outside [`FLOAT_TEXT`], or a
/// non-ASCII code point that is neither whitespace nor a decimal digit (the only ones
/// `float()` maps to ASCII). Stops there, so a sentence is settled by its first letters
/// whatever its length; false means only that the full parse must decide.
pub fn surely_not_float(s: &str, money: bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c < 128 {
            if !FLOAT_TEXT[c as usize] && !(money && matches!(c, b'$' | b'%' | b',')) {
                return true;
            }
            i += 1;
        } else {
            // SAFETY: `i` is at a char boundary: it only ever advances by whole chars.
            let ch = unsafe { s.get_unchecked(i..) }.chars().next().unwrap_or_default();
            if !is_py_space(ch) && digit_value(ch).is_none() {
                return true;
            }
            i += ch.len_utf8();
        }
    }
    false
}

/// Does [`gaia_number`] surely fail on `s` by its first byte (ASCII, kept by the `$ % ,`
/// deletion, and no start of a float or of the whitespace `float()` trims)?
#[inline]
pub(crate) fn surely_not_number_start(s: &str) -> bool {
    s.as_bytes().first().is_some_and(|&b| !can_bound_float(&b, FLOAT_START) && !matches!(b, b'$' | b'%' | b','))
}

/// Texts longer than this are checked with [`surely_not_float`] before a full parse (or
/// the copy that deletes `$ % ,`); shorter ones are parsed at once, which costs less.
const LONG_TEXT: usize = 64;

/// The GAIA scorer's number normalisation: delete every `$`, `%` and `,`, then `float()`;
/// a string that does not parse becomes +inf (the reference's choice, kept on purpose).
pub fn gaia_number(s: &str) -> NumberParse {
    let bytes = s.as_bytes();
    if bytes.len() > LONG_TEXT && surely_not_float(s, true) {
        return NumberParse { value: f64::INFINITY, parsed: false };
    }
    let parsed = if !has_any_byte(bytes, b"$%,") {
        py_float(s)
    } else if s.is_ascii() && bytes.len() <= 64 {
        // Short ASCII (nearly every answer): filter on the stack.
        let mut buf = [0u8; 64];
        let mut n = 0;
        for &x in bytes.iter().filter(|&&x| !matches!(x, b'$' | b'%' | b',')) {
            buf[n] = x;
            n += 1;
        }
        parse_ascii_float(&buf[..n])
    } else {
        let kept: String = s.chars().filter(|c| !matches!(c, '$' | '%' | ',')).collect();
        py_float(&kept)
    };
    match parsed {
        Some(v) => NumberParse { value: v, parsed: true },
        None => NumberParse { value: f64::INFINITY, parsed: false },
    }
}

/// A number read by [`gaia_number`]: `parsed` is false when the text was not a number
/// and `value` is the reference's +inf stand-in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberParse {
    pub value: f64,
    pub parsed: bool,
}

/// How the GAIA string normalisation treats a string.
#[derive(Clone, Copy, Debug)]
pub struct NormRule {
    /// Delete `string.punctuation` (string branch) or keep it (list pieces).
    pub drop_punct: bool,
    /// Python-lowercase (the reference always does; the graded scorer also asks without).
    pub lower: bool,
}

/// GAIA `normalize_str`: delete Python whitespace, lowercase, optionally delete ASCII
/// punctuation. Lowercasing happens on the whitespace-free text, as in the reference,
/// so final sigma is judged there.
pub fn gaia_norm(s: &str, rule: NormRule) -> String {
    let mut out = String::with_capacity(s.len());
    if s.is_ascii() {
        out.extend(s.bytes().filter(|&b| !skip_ascii(b, rule)).map(|b| fold_ascii(b, rule) as char));
        return out;
    }
    let chars: Vec<char> = s.chars().filter(|&c| !is_py_space(c)).collect();
    let mut lowered = String::with_capacity(s.len());
    if rule.lower {
        py_lower_chars_into(&chars, &mut lowered);
    } else {
        lowered.extend(chars.iter());
    }
    if rule.drop_punct {
        out.extend(lowered.chars().filter(|&c| !is_ascii_punct(c)));
        out
    } else {
        lowered
    }
}

/// Append [`gaia_norm`] of `s` to `out`.
pub fn gaia_norm_append(s: &str, rule: NormRule, out: &mut String) {
    if s.is_ascii() {
        out.extend(s.bytes().filter(|&b| !skip_ascii(b, rule)).map(|b| fold_ascii(b, rule) as char));
    } else {
        out.push_str(&gaia_norm(s, rule));
    }
}

#[inline]
pub(crate) fn skip_ascii(b: u8, rule: NormRule) -> bool {
    let class = ASCII[b as usize];
    class & PY_WS != 0 || (rule.drop_punct && class & PUNCT != 0)
}

#[inline]
pub(crate) fn fold_ascii(b: u8, rule: NormRule) -> u8 {
    if rule.lower {
        b.to_ascii_lowercase()
    } else {
        b
    }
}

/// Per-byte action of the ASCII GAIA normalisation, one table per [`NormRule`]: the
/// kept (folded) byte, `SKIP`, or `NON_ASCII`.
pub(crate) const SKIP: u8 = 0x80;
const NON_ASCII: u8 = 0xFF;

const fn norm_table(drop_punct: bool, lower: bool) -> [u8; 256] {
    let classes = ascii_classes();
    let mut t = [NON_ASCII; 256];
    let mut b = 0;
    while b < 128 {
        let class = classes[b];
        let c = b as u8;
        t[b] = if class & PY_WS != 0 || (drop_punct && class & PUNCT != 0) {
            SKIP
        } else if lower {
            c.to_ascii_lowercase()
        } else {
            c
        };
        b += 1;
    }
    t
}

pub(crate) static NORM_TABLES: [[u8; 256]; 4] =
    [norm_table(false, false), norm_table(false, true), norm_table(true, false), norm_table(true, true)];

/// `gaia_norm(a) == gaia_norm(b)`, without allocating for ASCII text.
pub fn gaia_norm_eq(a: &str, b: &str, rule: NormRule) -> bool {
    if a == b {
        return true; // the normalisation is a function of the text
    }
    #[cfg(target_arch = "x86_64")]
    if a.len() <= 64 && b.len() <= 64 && avx512::available() {
        // SAFETY: features and lengths checked.
        if let Some(eq) = unsafe { avx512::gaia_norm_eq(a.as_bytes(), b.as_bytes(), rule.drop_punct, rule.lower) } {
            return eq;
        }
    }
    let table = &NORM_TABLES[usize::from(rule.drop_punct) * 2 + usize::from(rule.lower)];
    match ascii_norm_eq(a.as_bytes(), b.as_bytes(), table) {
        Some(eq) => eq,
        None => unicode_norm_eq(a, b, rule),
    }
}

/// ASCII normalised comparison; `None` when either text has a non-ASCII byte (the
/// answer then needs the Unicode rules).
#[inline]
fn ascii_norm_eq(a: &[u8], b: &[u8], table: &[u8; 256]) -> Option<bool> {
    let (mut i, mut j) = (0, 0);
    loop {
        let mut x = SKIP;
        while i < a.len() {
            x = table[a[i] as usize];
            i += 1;
            if x != SKIP {
                break;
            }
        }
        let mut y = SKIP;
        while j < b.len() {
            y = table[b[j] as usize];
            j += 1;
            if y != SKIP {
                break;
            }
        }
        if x == NON_ASCII || y == NON_ASCII {
            return None;
        }
        if x != y {
            // Final: each ASCII byte normalises on its own, so the normalised texts already
            // differ here whatever follows.
            return Some(false);
        }
        if x == SKIP {
            return Some(true); // both exhausted
        }
    }
}

/// Compared lazily: the first differing character (or one side running out) decides, so
/// a long answer costs what its common prefix with the other text costs. Where the raw
/// texts start alike, that start normalises alike and is skipped at memory speed.
fn unicode_norm_eq(a: &str, b: &str, rule: NormRule) -> bool {
    let from = settled_prefix(a, common_prefix(a.as_bytes(), b.as_bytes()), rule);
    norm_chars_from(a, from, rule).eq(norm_chars_from(b, from, rule))
}

/// Length of the longest common start of `a` and `b`, compared a word at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let word = |s: &[u8]| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or_default());
        let x = word(a) ^ word(b);
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The longest start of `s[..k]` whose normal form does not depend on what follows `k`:
/// cut at a char boundary and, when lowering, after the last character that ends a final
/// sigma's look ahead (neither whitespace nor case-ignorable) and is not itself a sigma.
/// Two texts that agree on `s[..k]` agree on this start's normal form.
fn settled_prefix(s: &str, mut k: usize, rule: NormRule) -> usize {
    while !s.is_char_boundary(k) {
        k -= 1;
    }
    if !rule.lower {
        return k;
    }
    let mut head = s[..k].char_indices().rev();
    head.find(|&(_, c)| c != '\u{3A3}' && !is_py_space(c) && !is_case_ignorable(c)).map_or(0, |(i, c)| i + c.len_utf8())
}

/// [`gaia_norm`] as a lazy char sequence. A U+03A3 looks at its neighbours in `s` itself
/// (see [`final_sigma_at`]), so no character is produced ahead of need.
pub(crate) fn norm_chars(s: &str, rule: NormRule) -> NormChars<'_> {
    norm_chars_from(s, 0, rule)
}

/// [`norm_chars`] of the characters from byte `from` on (in the context of all of `s`).
fn norm_chars_from(s: &str, from: usize, rule: NormRule) -> NormChars<'_> {
    NormChars { s, pos: from, pending: None, rule, table: &NORM_TABLES[usize::from(rule.drop_punct) * 2 + usize::from(rule.lower)] }
}

/// The iterator of [`norm_chars_from`]: ASCII through the byte table, other characters
/// through the Unicode rules.
pub(crate) struct NormChars<'a> {
    s: &'a str,
    pos: usize,
    /// The second character of a lowered U+0130.
    pending: Option<char>,
    rule: NormRule,
    table: &'static [u8; 256],
}

impl Iterator for NormChars<'_> {
    type Item = char;

    #[inline]
    fn next(&mut self) -> Option<char> {
        if let Some(c) = self.pending.take() {
            return Some(c);
        }
        loop {
            let b = *self.s.as_bytes().get(self.pos)?;
            if b < 128 {
                self.pos += 1;
                match self.table[b as usize] {
                    SKIP => continue,
                    x => return Some(x as char),
                }
            }
            // SAFETY: `pos` only ever advances by whole characters.
            let c = unsafe { self.s.get_unchecked(self.pos..) }.chars().next()?;
            let at = self.pos;
            self.pos += c.len_utf8();
            if is_py_space(c) {
                continue;
            }
            let out = match c {
                _ if !self.rule.lower => c,
                '\u{3A3}' => {
                    if final_sigma_at(self.s, at) {
                        '\u{3C2}'
                    } else {
                        '\u{3C3}'
                    }
                }
                '\u{130}' => {
                    self.pending = Some('\u{307}');
                    'i'
                }
                _ => lower_simple(c),
            };
            // No code point above ASCII is ASCII punctuation or lowers to it (tested), so
            // only the byte table deletes punctuation.
            return Some(out);
        }
    }
}

/// [`final_sigma`] for the U+03A3 at byte `i` of `s`, judged on `s` without its Python
/// whitespace (the GAIA normalisation deletes it before lowering; punctuation is deleted
/// after, so it stays in the context). Each scan stops at the first character that is
/// neither whitespace nor case-ignorable, and U+03A3 is such a character, so the scans of
/// all the sigmas of a text together pass each character at most twice.
fn final_sigma_at(s: &str, i: usize) -> bool {
    final_sigma_between(s[..i].chars().rev(), s[i + '\u{3A3}'.len_utf8()..].chars(), |c| is_py_space(c) || is_case_ignorable(c))
}

/// Quote `s` for an explanation: double quotes; `\\`, `\"`, `\n`, `\r`, `\t` escaped;
/// invisible and combining code points (Unicode 14 categories Cc Cf Co Cn Zs Zl Zp Mn Me,
/// but the space) as `\u{hex}`, so different strings never look the same.
pub fn quote(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c != ' ' && in_ranges(&ESCAPED, c as u32) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The TypeScript evaluator's `normalizeAnswer`: lowercase, trim, collapse whitespace
/// runs to one space, then delete every UTF-16 unit that is not ASCII `\w` or whitespace.
/// Deletion comes last, so spaces around deleted characters survive (`"a - b"` → `"a  b"`).
/// The result is ASCII; written into `out` (cleared first).
pub fn js_normalize_into(s: &str, out: &mut Vec<u8>) {
    out.clear();
    out.reserve(s.len()); // never longer than the input
    #[cfg(target_arch = "x86_64")]
    if s.len() > LONG_TEXT && avx512::available() {
        // SAFETY: the CPU has the features; `out` has room for the whole text.
        return unsafe { avx512::js_norm_run(&mut JsNorm::new(s), s.len(), out) };
    }
    if js_normalize_ascii(s.as_bytes(), out) {
        return;
    }
    out.clear();
    JsNorm::new(s).chars_until(s.len(), out);
}

/// [`js_normalize_into`] of `s`, stopping as soon as `needle` occurs in what is written:
/// true then, and `out` holds a prefix of the normal form; false when it does not occur,
/// and `out` holds the whole normal form. The normal form is only ever appended to (a
/// space is written once the text after it is seen), so a match in a prefix is final.
/// The text is normalised in growing steps, each searched where the last one stopped, so
/// an answer that states the truth early costs little whatever follows.
pub fn js_normalize_find(s: &str, needle: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    out.reserve(s.len());
    if needle.is_empty() {
        return true;
    }
    let mut norm = JsNorm::new(s);
    let mut until = 128;
    let mut searched = 0usize;
    // Long needles get one general searcher, built once they can fit.
    let mut finder = None;
    loop {
        norm.run(until, out);
        let from = searched.saturating_sub(needle.len() - 1);
        let hay = &out[from..];
        let hit = if needle.len() <= 64 {
            find(hay, needle).is_some()
        } else {
            hay.len() >= needle.len() && finder.get_or_insert_with(|| memchr::memmem::Finder::new(needle)).find(hay).is_some()
        };
        if hit {
            return true;
        }
        if norm.pos >= s.len() {
            return false;
        }
        searched = out.len();
        until = norm.pos * 4;
    }
}

/// The first index of `needle` in `hay`. Needles of up to 64 bytes (every truth but the
/// longest) skip the set-up of a general searcher where the CPU allows, which for answers
/// of a few hundred bytes costs more than the search.
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    #[cfg(target_arch = "x86_64")]
    if needle.len() <= 64 && avx512::available() {
        // SAFETY: features and needle length checked.
        return unsafe { avx512::find(hay, needle) };
    }
    memchr::memmem::find(hay, needle)
}

/// The lenient normalisation of one text, produced in steps; its state is what a
/// whitespace run needs: whether text came before it, and whether it is still open.
pub(crate) struct JsNorm<'a> {
    s: &'a str,
    /// Bytes consumed (a char boundary).
    pos: usize,
    seen_text: bool,
    pending_space: bool,
}

impl<'a> JsNorm<'a> {
    fn new(s: &'a str) -> Self {
        JsNorm { s, pos: 0, seen_text: false, pending_space: false }
    }

    /// Normalise up to byte `until` (or the next char boundary), appending to `out`, which
    /// must have room for the rest of the text (it never grows by more than it consumes).
    fn run(&mut self, until: usize, out: &mut Vec<u8>) {
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: the CPU has the features; `out` has the room asked of the caller.
            return unsafe { avx512::js_norm_run(self, until, out) };
        }
        self.chars_until(until, out)
    }

    /// [`JsNorm::run`] code point by code point.
    fn chars_until(&mut self, until: usize, out: &mut Vec<u8>) {
        let bytes = self.s.as_bytes();
        let until = until.min(bytes.len());
        while self.pos < until {
            let b = bytes[self.pos];
            let (space, mapped) = if b < 128 {
                self.pos += 1;
                let class = ASCII[b as usize];
                (class & JS_WS != 0, (class & JS_WORD != 0).then(|| b.to_ascii_lowercase()))
            } else {
                // SAFETY: `pos` is at a char boundary: it only ever advances by whole chars.
                let c = unsafe { self.s.get_unchecked(self.pos..) }.chars().next().unwrap_or_default();
                self.pos += c.len_utf8();
                // Lowercasing only ever yields ASCII word characters from these two non-ASCII
                // code points (U+0130 → "i̇", whose U+0307 is then deleted; Kelvin sign → "k").
                let mapped = match c {
                    '\u{130}' => Some(b'i'),
                    '\u{212A}' => Some(b'k'),
                    _ => None,
                };
                (is_js_space(c), mapped)
            };
            if space {
                self.pending_space = self.seen_text;
                continue;
            }
            self.seen_text = true;
            if self.pending_space {
                out.push(b' ');
                self.pending_space = false;
            }
            out.extend(mapped);
        }
    }
}

/// Per ASCII byte: its lowercase form in the low byte, bit 8 set for JavaScript
/// whitespace, bit 9 for a word character.
static JS_TABLE: [u16; 128] = {
    let classes = ascii_classes();
    let mut t = [0u16; 128];
    let mut b = 0;
    while b < 128 {
        let c = classes[b];
        t[b] = (b as u8).to_ascii_lowercase() as u16
            | if c & JS_WS != 0 { 1 << 8 } else { 0 }
            | if c & JS_WORD != 0 { 1 << 9 } else { 0 };
        b += 1;
    }
    t
};

/// [`js_normalize_into`] for ASCII text: one AVX-512 register for short text where the CPU
/// has it, else a byte loop. Returns false (output unspecified) when `s` turns out to hold
/// a non-ASCII byte, found without a scan of its own.
fn js_normalize_ascii(s: &[u8], out: &mut Vec<u8>) -> bool {
    #[cfg(target_arch = "x86_64")]
    if s.len() <= 64 && avx512::available() {
        // SAFETY: the CPU has the features; `out` has room for s.len() bytes (the caller
        // reserved them).
        return match unsafe { avx512::normalize_short(s, out.spare_capacity_mut().as_mut_ptr().cast()) } {
            Some(n) => {
                // SAFETY: `normalize_short` wrote `n` bytes.
                unsafe { out.set_len(n) };
                true
            }
            None => false,
        };
    }
    js_normalize_ascii_loop(s, out)
}

/// [`js_normalize_ascii`] one byte at a time, without a branch per byte: every step
/// writes its candidate bytes and advances only past those that are kept.
fn js_normalize_ascii_loop(s: &[u8], out: &mut Vec<u8>) -> bool {
    let buf = out.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    assert!(out.capacity() - out.len() >= s.len());
    let (mut n, mut seen_text, mut pending_space) = (0usize, false, false);
    let mut high = 0u8;
    for &b in s {
        high |= b;
        let e = JS_TABLE[(b & 0x7F) as usize];
        let space = e & (1 << 8) != 0;
        // SAFETY: at most one byte is kept per input byte (a held space stands for the
        // space run before this byte, which kept nothing), so `n` stays below s.len()
        // and both writes land in the capacity checked above.
        unsafe {
            *buf.add(n) = b' ';
            n += usize::from(pending_space & !space);
            *buf.add(n) = e as u8;
        }
        n += usize::from(e >> 9);
        pending_space = space & seen_text;
        seen_text |= !space;
    }
    // SAFETY: the first `n` bytes were written above.
    unsafe { out.set_len(n) };
    high < 0x80
}

/// Whole-answer kernels for ASCII texts of up to 64 bytes with AVX-512: a text is one
/// register, the bytes a rule keeps are a bit mask, and one compress instruction gathers
/// them, so short answers are decided without a loop over their bytes.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use std::arch::x86_64::*;

    use crate::gaia::Branch;

    /// Does the CPU have what this module needs? Detected once: it is asked for every row.
    #[inline(always)]
    pub fn available() -> bool {
        use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
        static CPU: AtomicU8 = AtomicU8::new(0); // 0 not yet known, 1 no, 2 yes
        match CPU.load(Relaxed) {
            0 => {
                let yes = is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vbmi")
                    && is_x86_feature_detected!("avx512vbmi2")
                    && is_x86_feature_detected!("popcnt")
                    && is_x86_feature_detected!("bmi1")
                    && is_x86_feature_detected!("lzcnt");
                CPU.store(1 + u8::from(yes), Relaxed);
                yes
            }
            known => known == 2,
        }
    }

    /// Bits `0..len` set (`len <= 64`).
    #[inline(always)]
    fn low_bits(len: usize) -> u64 {
        if len >= 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        }
    }

    /// `s` in a register, zero past its end. Masked-off bytes are neither read nor able
    /// to fault.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load(s: &[u8]) -> (__m512i, u64) {
        let all = low_bits(s.len());
        (unsafe { _mm512_maskz_loadu_epi8(all, s.as_ptr().cast()) }, all)
    }

    /// Both texts in registers (see [`load`]), or `None` when either holds a non-ASCII byte.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load_ascii_pair(a: &[u8], b: &[u8]) -> Option<((__m512i, u64), (__m512i, u64))> {
        let (a, b) = unsafe { (load(a), load(b)) };
        (_mm512_movepi8_mask(_mm512_or_si512(a.0, b.0)) == 0).then_some((a, b))
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn splat(c: u8) -> __m512i {
        _mm512_set1_epi8(c as i8)
    }

    /// Bytes of `v` in `lo..=hi`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn within(v: __m512i, lo: u8, hi: u8) -> u64 {
        _mm512_cmpge_epu8_mask(v, splat(lo)) & _mm512_cmple_epu8_mask(v, splat(hi))
    }

    /// Bytes of `v` equal to `c`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn is(v: __m512i, c: u8) -> u64 {
        _mm512_cmpeq_epi8_mask(v, splat(c))
    }

    /// Each byte's class bits from the scalar paths' table (`ASCII`), in one lookup;
    /// the bytes must be ASCII. Zero bytes past a text's end have no class.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn classes(v: __m512i) -> __m512i {
        let table = super::ASCII.as_ptr();
        // SAFETY: the table has 128 bytes.
        unsafe { _mm512_permutex2var_epi8(_mm512_loadu_si512(table.cast()), v, _mm512_loadu_si512(table.add(64).cast())) }
    }

    /// Bytes whose class has one of `bits`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn has(classes: __m512i, bits: u8) -> u64 {
        _mm512_test_epi8_mask(classes, splat(bits))
    }

    /// Equal gathered texts: the same length, and registers that are zero past it agree.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn same((a, la): (__m512i, usize), (b, lb): (__m512i, usize)) -> bool {
        la == lb && _mm512_cmpneq_epi8_mask(a, b) == 0
    }

    /// The lenient rule's normalised form of the ASCII text in `v` (its bytes at `all`,
    /// zero elsewhere): the kept bytes gathered at the start of a register, zero after them,
    /// and their count. Kept: word characters, and the first byte of each whitespace run
    /// with non-whitespace on both sides (runs at the ends go; a deleted character still
    /// counts as text, as in the reference), written as a space.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn normalized(v: __m512i, all: u64) -> (__m512i, usize) {
        let cls = classes(v);
        let (ws, word, upper) = (has(cls, super::JS_WS), has(cls, super::JS_WORD), has(cls, super::UPPER));
        let text = all & !ws;
        if text == 0 {
            return (_mm512_setzero_si512(), 0);
        }
        let (first, last) = (text.trailing_zeros(), 63 - text.leading_zeros());
        let inner = (u64::MAX << first << 1) & !(u64::MAX << last);
        let keep = word | (ws & !(ws << 1) & inner);
        let mapped = _mm512_mask_mov_epi8(_mm512_mask_add_epi8(v, upper, v, splat(32)), ws, splat(b' '));
        (_mm512_maskz_compress_epi8(keep, mapped), keep.count_ones() as usize)
    }

    /// The normalised length written at `out`, or `None` (nothing meaningful written) when
    /// `s` has a non-ASCII byte.
    ///
    /// # Safety
    /// The CPU must have the features of [`available`], `s.len() <= 64`, and `out` must
    /// have room for `s.len()` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub unsafe fn normalize_short(s: &[u8], out: *mut u8) -> Option<usize> {
        debug_assert!(s.len() <= 64);
        let (v, all) = unsafe { load(s) };
        if _mm512_movepi8_mask(v) != 0 {
            return None;
        }
        let (kept, n) = normalized(v, all);
        unsafe { _mm512_mask_storeu_epi8(out.cast(), low_bits(n), kept) };
        Some(n)
    }

    /// The lenient rule for a non-empty truth, both texts of up to 64 bytes, in registers:
    /// identical texts match; otherwise, for ASCII texts, does either normalised text
    /// contain the other? `None` when a text is not ASCII (the caller takes the general
    /// path).
    ///
    /// # Safety
    /// The CPU must have the features of [`available`]; both lengths `<= 64`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub unsafe fn lenient_short(pred: &[u8], truth: &[u8]) -> Option<bool> {
        debug_assert!(pred.len() <= 64 && truth.len() <= 64 && !truth.is_empty());
        let ((vp, pm), (vt, tm)) = unsafe { (load(pred), load(truth)) };
        if _mm512_movepi8_mask(_mm512_or_si512(vp, vt)) != 0 {
            // Registers are zero past both ends, so one compare settles equal texts.
            return (pm == tm && _mm512_cmpneq_epi8_mask(vp, vt) == 0).then_some(true);
        }
        // Rows of a batch differ in every data-dependent branch (equal texts or not, which
        // text is longer, match or not), and each mispredicted branch costs about as much
        // as this whole kernel; so the common path computes everything and branches only on
        // rare cases. Equal texts need no shortcut: they normalise alike.
        let ((np, lp), (nt, lt)) = (normalized(vp, pm), normalized(vt, tm));
        let swap = 0u8.wrapping_sub(u8::from(lp < lt));
        let (hay, needle) = (_mm512_mask_blend_epi64(swap, np, nt), _mm512_mask_blend_epi64(swap, nt, np));
        let (h, m) = (lp.max(lt), lp.min(lt));
        if m == 0 {
            return Some(true);
        }
        // Start positions where the needle's first and last bytes both fit; the first one
        // is checked whole, and the rare others in a loop.
        let first = _mm512_permutexvar_epi8(_mm512_setzero_si512(), needle);
        let last = _mm512_permutexvar_epi8(splat((m - 1) as u8), needle);
        let starts = _mm512_cmpeq_epi8_mask(hay, first) & (_mm512_cmpeq_epi8_mask(hay, last) >> (m - 1)) & low_bits(h - m + 1);
        let found = |starts: u64| {
            // hay[s..] (indices wrap only past the needle's bytes, which are not compared).
            // With no start, s = 64 wraps to hay[0..], which cannot match: it would be one.
            let at = _mm512_permutexvar_epi8(_mm512_add_epi8(iota(), splat(starts.trailing_zeros() as u8)), hay);
            _mm512_mask_cmpneq_epi8_mask(low_bits(m), at, needle) == 0
        };
        let mut rest = starts & starts.wrapping_sub(1);
        let mut hit = found(starts);
        while rest != 0 {
            hit |= found(rest);
            rest &= rest - 1;
        }
        Some(hit)
    }

    /// Bytes 0, 1, ..., 63.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn iota() -> __m512i {
        _mm512_set_epi8(
            63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35,
            34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5,
            4, 3, 2, 1, 0,
        )
    }

    /// The official list branch for ASCII texts of up to 64 bytes when no truth piece can be
    /// a number. Pieces are then compared as texts with whitespace deleted and lowercased
    /// (when `lower`), in order and with as many of them; that holds exactly when the whole
    /// texts are equal after those deletions with `;` read as `,` (no piece holds a
    /// separator, and deleting whitespace never makes one). `None`: a text is not ASCII, or
    /// a truth piece starts like a number (the caller compares piece by piece).
    ///
    /// # Safety
    /// The CPU must have the features of [`available`]; both lengths `<= 64`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub unsafe fn word_list_eq(pred: &[u8], truth: &[u8], lower: bool) -> Option<bool> {
        debug_assert!(pred.len() <= 64 && truth.len() <= 64);
        let (p, t) = unsafe { load_ascii_pair(pred, truth) }?;
        word_list_in(p, t, lower)
    }

    /// [`word_list_eq`] of texts already in registers (ASCII, zero past their ends).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn word_list_in((vp, pm): (__m512i, u64), (vt, tm): (__m512i, u64), lower: bool) -> Option<bool> {
        let (numeric, letter) = literal_piece_starts(vt, tm);
        if numeric | letter != 0 {
            return None;
        }
        Some(same_word_lists((vp, pm), (vt, tm), lower))
    }

    /// Whole lists compared as texts: equal after deleting whitespace, lowercasing (when
    /// `lower`) and reading `;` as `,`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn same_word_lists((vp, pm): (__m512i, u64), (vt, tm): (__m512i, u64), lower: bool) -> bool {
        let same_sep = |v: __m512i| _mm512_mask_mov_epi8(v, is(v, b';'), splat(b','));
        same(gaia_squeeze(same_sep(vp), pm, false, lower), gaia_squeeze(same_sep(vt), tm, false, lower))
    }

    /// The first byte of each list piece of `v` past the whitespace float() trims, where
    /// it can start a float literal: a digit, sign or point; and a letter of inf/nan.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn literal_piece_starts(v: __m512i, all: u64) -> (u64, u64) {
        // From each piece start (0, or just after a separator) a carry runs through the
        // whitespace after it.
        let float_ws = float_ws(v) & all;
        let starts = (separators(v) << 1 | 1) & all;
        let first = (float_ws.wrapping_add(starts & float_ws) & !float_ws) | (starts & !float_ws);
        let plain = within(v, b'0', b'9') | is(v, b'+') | is(v, b'-') | is(v, b'.');
        let word = is(v, b'i') | is(v, b'I') | is(v, b'n') | is(v, b'N');
        (first & plain, first & word)
    }

    /// Could float() read the text in `v` (bytes at `all`) as a finite number? False when
    /// it is empty after trimming, has whitespace inside, or has a byte no finite literal
    /// holds. (inf and nan never equal a plain decimal, so they count as unreadable.)
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn maybe_finite(v: __m512i, all: u64) -> bool {
        let text = all & !float_ws(v);
        if text == 0 {
            return false;
        }
        let span = (u64::MAX << text.trailing_zeros()) & (u64::MAX >> text.leading_zeros());
        let literal = within(v, b'0', b'9') | is(v, b'.') | is(v, b'+') | is(v, b'-') | is(v, b'_') | is(v, b'e') | is(v, b'E');
        span & !(text & literal) == 0
    }

    /// Is the text in `v` (bytes at `all`) one of float()'s words `inf`, `infinity` or
    /// `nan`, in any case and with trimmed whitespace? (Signed texts never get here: a
    /// sign already sends a text to the general path.)
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn float_word(v: __m512i, all: u64) -> bool {
        let text = all & !float_ws(v);
        let n = text.count_ones();
        // One run of bytes: no whitespace inside.
        if n == 0 || n > 8 || (text >> text.trailing_zeros()) != u64::MAX >> (64 - n) {
            return false;
        }
        // Its bytes as one word, lowercased (only letters have 0x20 as their case bit
        // among these words, so setting it cannot make another byte match).
        let w = _mm_cvtsi128_si64(_mm512_castsi512_si128(_mm512_maskz_compress_epi8(text, v))) as u64;
        let w = w | (0x2020_2020_2020_2020 & (u64::MAX >> (64 - 8 * n)));
        w == u64::from_le_bytes(*b"inf\0\0\0\0\0") || w == u64::from_le_bytes(*b"nan\0\0\0\0\0") || w == u64::from_le_bytes(*b"infinity")
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn separators(v: __m512i) -> u64 {
        is(v, b',') | is(v, b';')
    }

    /// The official list branch in registers: as many pieces on both sides, then each
    /// truth piece that is a plain decimal (see [`plain_decimal`]) against the prediction's
    /// piece read as a number (`$ %` deleted), every other piece as text (whitespace
    /// deleted, lowercased when `lower`). `None` when a truth piece is another kind of
    /// number, or the prediction's piece facing a plain decimal is not one.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn list_in((vp, pm): (__m512i, u64), (vt, tm): (__m512i, u64), lower: bool) -> Option<bool> {
        let (mut ps, mut ts) = (separators(vp) & pm, separators(vt) & tm);
        if ps.count_ones() != ts.count_ones() {
            return Some(false);
        }
        let (numeric, letter) = literal_piece_starts(vt, tm);
        if numeric | letter == 0 {
            return Some(same_word_lists((vp, pm), (vt, tm), lower));
        }
        let money = is(vp, b'$') | is(vp, b'%');
        let (mut p_from, mut t_from) = (0, 0);
        loop {
            // Piece bounds: from just after the last separator to the next (64: the end).
            let (p_end, t_end) = (ps.trailing_zeros() as usize, ts.trailing_zeros() as usize);
            let p_piece = pm & low_bits(p_end) & !low_bits(p_from);
            let t_piece = tm & low_bits(t_end) & !low_bits(t_from);
            let t = (_mm512_maskz_compress_epi8(t_piece, vt), low_bits(t_piece.count_ones() as usize));
            // A piece that starts like inf/nan but is neither is a word.
            let ok = if numeric & t_piece != 0 || (letter & t_piece != 0 && float_word(t.0, t.1)) {
                let t = plain_decimal(t.0, t.1)?;
                let kept = p_piece & !money;
                let p = (_mm512_maskz_compress_epi8(kept, vp), low_bits(kept.count_ones() as usize));
                match plain_decimal(p.0, p.1) {
                    Some(p) => same(p, t),
                    // Read as +inf by the reference: no match.
                    None if !maybe_finite(p.0, p.1) => false,
                    None => return None,
                }
            } else {
                let p = _mm512_maskz_compress_epi8(p_piece, vp);
                same(gaia_squeeze(p, low_bits(p_piece.count_ones() as usize), false, lower), gaia_squeeze(t.0, t.1, false, lower))
            };
            if !ok {
                return Some(false);
            }
            if ts == 0 {
                return Some(true);
            }
            (p_from, t_from) = (p_end + 1, t_end + 1);
            ps &= ps - 1;
            ts &= ts - 1;
        }
    }

    /// The whitespace `float()` trims: `\t\n\v\f\r` and space.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn float_ws(v: __m512i) -> u64 {
        has(classes(v), super::FLOAT_WS)
    }

    /// The official decision for texts of up to 64 bytes, taking the truth's branch from
    /// the same registers: a truth with a separator goes to the list rule ([`list_in`]); a
    /// plain-decimal truth (see [`plain_decimal`]) is compared with the prediction read as
    /// a number after deleting `$ % ,`; a truth float() cannot read goes to the string rule.
    /// `None` leaves the row to the general path: a non-ASCII truth, any other number
    /// (sign, exponent, `_`, inf, nan, more than 15 digits), a prediction that may be one,
    /// or such a list piece; and a non-ASCII prediction unless the string rule rejects it
    /// (see [`kept_non_ascii`]). Exact `==` only (no tolerance). With the decision, the
    /// branch that took it.
    ///
    /// # Safety
    /// The CPU must have the features of [`available`]; both lengths `<= 64`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub unsafe fn official_short(pred: &[u8], truth: &[u8], lower: bool) -> Option<(bool, Branch)> {
        unsafe { official_kernel::<false>(pred, truth, lower) }
    }

    /// [`official_short`]'s decision alone, with identical texts (the most common answer)
    /// accepted first: they match in every branch unless a NaN piece makes `==` false,
    /// and NaN is spelled with an `n`. This holds for any text, ASCII or not.
    ///
    /// # Safety
    /// As [`official_short`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub unsafe fn official_decision(pred: &[u8], truth: &[u8], lower: bool) -> Option<bool> {
        unsafe { official_kernel::<true>(pred, truth, lower) }.map(|(m, _)| m)
    }

    /// [`official_short`], and with `IDENTICAL` the shortcut of [`official_decision`]
    /// (whose branch is then not meaningful). One caller each, so each is inlined whole.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    unsafe fn official_kernel<const IDENTICAL: bool>(pred: &[u8], truth: &[u8], lower: bool) -> Option<(bool, Branch)> {
        debug_assert!(pred.len() <= 64 && truth.len() <= 64);
        let (p, t) = unsafe { (load(pred), load(truth)) };
        if IDENTICAL && p.1 == t.1 && _mm512_cmpneq_epi8_mask(p.0, t.0) | is(t.0, b'n') | is(t.0, b'N') == 0 {
            return Some((true, Branch::String));
        }
        official_in(p, t, truth, lower)
    }

    /// [`official_short`] of texts in registers (zero past their ends); `truth` is the
    /// truth's bytes.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn official_in((vp, pm): (__m512i, u64), (vt, tm): (__m512i, u64), truth: &[u8], lower: bool) -> Option<(bool, Branch)> {
        if _mm512_movepi8_mask(vt) != 0 {
            return None;
        }
        let pred_ascii = _mm512_movepi8_mask(vp) == 0;
        // float() reads no text with a separator: the list branch.
        if separators(vt) != 0 {
            if !pred_ascii {
                return None;
            }
            return list_in((vp, pm), (vt, tm), lower).map(|m| (m, Branch::List));
        }
        let text = tm & !float_ws(vt);
        let first = *truth.get(text.trailing_zeros() as usize)?;
        if first.is_ascii_digit() || first == b'.' {
            if !pred_ascii {
                return None;
            }
            let t = plain_decimal(vt, tm)?;
            let kept = pm & !(is(vp, b'$') | is(vp, b'%') | is(vp, b','));
            let p = (_mm512_maskz_compress_epi8(kept, vp), low_bits(kept.count_ones() as usize));
            // An answer float() cannot read is the reference's +inf, never a plain decimal.
            return match plain_decimal(p.0, p.1) {
                Some(p) => Some((same(p, t), Branch::Number)),
                None => (!maybe_finite(p.0, p.1)).then_some((false, Branch::Number)),
            };
        }
        // Nor a text that starts with no byte a literal can start with, or a word that
        // starts like inf/nan but is neither.
        if matches!(first, b'+' | b'-') || (matches!(first, b'i' | b'I' | b'n' | b'N') && float_word(vt, tm)) {
            return None;
        }
        if !pred_ascii {
            // The truth's normal form is ASCII: a prediction whose normal form keeps a
            // non-ASCII character differs from it.
            return kept_non_ascii(vp, lower).then_some((false, Branch::String));
        }
        Some((same(gaia_squeeze(vp, pm, true, lower), gaia_squeeze(vt, tm, true, lower)), Branch::String))
    }

    /// Does the UTF-8 text in `v` (zero past its end) hold a character that GAIA's
    /// `normalize_str` keeps as non-ASCII? It deletes Python's `\s` (19 non-ASCII code
    /// points: U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F,
    /// U+3000) and ASCII punctuation, and lowercases; the lowercase of every other
    /// non-ASCII character holds a non-ASCII one except KELVIN SIGN's (`k`, when `lower`).
    /// So any lead byte that starts none of those sequences is such a character.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn kept_non_ascii(v: __m512i, lower: bool) -> bool {
        // The bytes after each byte (a lead byte's continuation bytes are in the text).
        let b1 = _mm512_permutexvar_epi8(_mm512_add_epi8(iota(), splat(1)), v);
        let b2 = _mm512_permutexvar_epi8(_mm512_add_epi8(iota(), splat(2)), v);
        let (e2, e2_80) = (is(v, 0xE2), is(v, 0xE2) & is(b1, 0x80));
        let space = (is(v, 0xC2) & (is(b1, 0x85) | is(b1, 0xA0)))
            | (is(v, 0xE1) & is(b1, 0x9A) & is(b2, 0x80))
            | (e2_80 & (within(b2, 0x80, 0x8A) | is(b2, 0xA8) | is(b2, 0xA9) | is(b2, 0xAF)))
            | (e2 & is(b1, 0x81) & is(b2, 0x9F))
            | (is(v, 0xE3) & is(b1, 0x80) & is(b2, 0x80));
        let kelvin = if lower { e2 & is(b1, 0x84) & is(b2, 0xAA) } else { 0 };
        within(v, 0xC0, 0xFF) & !space & !kelvin != 0
    }

    /// A text `float()` reads as a decimal without sign, exponent or `_` (digits with at
    /// most one point, at least one digit, trimmed whitespace around it), in a canonical
    /// form: leading zeros of the whole part, trailing zeros of the fraction, and a point
    /// with no fraction left are dropped (`"03.50"` is `"3.5"`, `"0.0"` is empty). Two such
    /// numbers with at most 15 digits each are equal doubles exactly when their canonical
    /// texts are equal, as 15 significant digits survive a round trip through a double;
    /// `None` for anything else, including more digits.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    fn plain_decimal(v: __m512i, all: u64) -> Option<(__m512i, usize)> {
        let text = all & !float_ws(v);
        if text == 0 {
            return None;
        }
        let (first, last) = (text.trailing_zeros(), 63 - text.leading_zeros());
        let span = (u64::MAX << first) & (u64::MAX >> (63 - last));
        let (digit, dot) = (within(v, b'0', b'9') & span, is(v, b'.') & span);
        // Whitespace inside the span, or any other byte, is not part of the grammar.
        if digit | dot != span || digit == 0 || dot & dot.wrapping_sub(1) != 0 {
            return None;
        }
        let zero = is(v, b'0') & span;
        let whole = if dot == 0 { span } else { span & (dot - 1) };
        let frac = span & !whole & !dot;
        // The run of zeros from the first byte: a carry added there runs through it.
        let lead = zero & whole & !(zero & whole).wrapping_add(1 << first);
        // The run of fraction zeros up to the last byte: above every other span byte.
        let frac_zero = zero & frac;
        let tail = if frac_zero == 0 { 0 } else { frac_zero & !(u64::MAX >> (span & !frac_zero).leading_zeros()) };
        let point = if frac & !tail == 0 { dot } else { 0 };
        let keep = span & !lead & !tail & !point;
        if (keep & digit).count_ones() > 15 {
            return None;
        }
        Some((_mm512_maskz_compress_epi8(keep, v), keep.count_ones() as usize))
    }

    /// The first index at which `needle` (1 to 64 bytes) occurs in `hay`, without a
    /// searcher to build: 64 start positions at a time, those whose first and last bytes
    /// both fit are checked whole in a register (Muła's filter). At most a compare per
    /// start position, so linear in the haystack whatever the texts.
    ///
    /// # Safety
    /// The CPU must have the features of [`available`]; `1 <= needle.len() <= 64`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub(crate) unsafe fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
        let m = needle.len();
        debug_assert!((1..=64).contains(&m));
        let last_start = hay.len().checked_sub(m)?;
        let (want, in_needle) = unsafe { load(needle) };
        let (first, last) = (splat(needle[0]), splat(needle[m - 1]));
        let mut at = 0;
        while at <= last_start {
            let lanes = low_bits(last_start - at + 1);
            // SAFETY: start positions at..=last_start, and their last bytes up to hay.len() - 1.
            let (heads, tails) = unsafe {
                (_mm512_maskz_loadu_epi8(lanes, hay.as_ptr().add(at).cast()), _mm512_maskz_loadu_epi8(lanes, hay.as_ptr().add(at + m - 1).cast()))
            };
            let mut candidates = _mm512_mask_cmpeq_epi8_mask(lanes, heads, first) & _mm512_cmpeq_epi8_mask(tails, last);
            while candidates != 0 {
                let start = at + candidates.trailing_zeros() as usize;
                // SAFETY: start <= last_start, so start + m <= hay.len().
                let here = unsafe { _mm512_maskz_loadu_epi8(in_needle, hay.as_ptr().add(start).cast()) };
                if _mm512_cmpneq_epi8_mask(here, want) == 0 {
                    return Some(start);
                }
                candidates &= candidates - 1;
            }
            at += 64;
        }
        None
    }

    /// [`super::JsNorm::run`] 64 bytes at a time: an ASCII block is normalised in a
    /// register (as [`normalized`] does, with the whitespace run state carried across
    /// blocks); a block with a non-ASCII byte goes code point by code point to its end.
    ///
    /// # Safety
    /// The CPU must have the features of [`available`]; `out` must have room for the
    /// text's bytes from `n.pos` on.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub(crate) unsafe fn js_norm_run(n: &mut super::JsNorm<'_>, until: usize, out: &mut Vec<u8>) {
        let s = n.s.as_bytes();
        let until = until.min(s.len());
        while n.pos < until {
            let len = (s.len() - n.pos).min(64);
            let all = low_bits(len);
            // SAFETY: bytes pos..pos + len are in `s`; masked-off bytes are not read.
            let v = unsafe { _mm512_maskz_loadu_epi8(all, s.as_ptr().add(n.pos).cast()) };
            if _mm512_movepi8_mask(v) != 0 {
                let end = n.pos + len;
                n.chars_until(end, out);
                continue;
            }
            n.pos += len;
            let cls = classes(v);
            let ws = has(cls, super::JS_WS);
            let text = all & !ws;
            if text == 0 {
                n.pending_space |= n.seen_text;
                continue;
            }
            // A run's first byte stands for it when text comes before it (earlier blocks, or
            // this one below it) and after it in this block; a run still open at the end
            // of the block is carried, and written before the block that closes it.
            let (first, last) = (text.trailing_zeros(), 63 - text.leading_zeros());
            let before = if n.seen_text { u64::MAX } else { u64::MAX << first << 1 };
            let starts = ws & !(ws << 1 | u64::from(n.pending_space));
            let keep = has(cls, super::JS_WORD) | (starts & before & low_bits(last as usize));
            let upper = has(cls, super::UPPER);
            let mapped = _mm512_mask_mov_epi8(_mm512_mask_add_epi8(v, upper, v, splat(32)), ws, splat(b' '));
            if n.pending_space {
                out.push(b' ');
            }
            let k = keep.count_ones() as usize;
            // SAFETY: the output never outgrows the input consumed, and `out` has room for
            // all of it; the store writes `k` bytes.
            unsafe {
                _mm512_mask_storeu_epi8(out.as_mut_ptr().add(out.len()).cast(), low_bits(k), _mm512_maskz_compress_epi8(keep, mapped));
                out.set_len(out.len() + k);
            }
            n.seen_text = true;
            n.pending_space = ws >> last != 0;
        }
    }

    /// GAIA `normalize_str(a) == normalize_str(b)` for ASCII texts of up to 64 bytes;
    /// `None` when one is not ASCII.
    ///
    /// # Safety
    /// The CPU must have the features of [`available`]; both lengths `<= 64`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1,lzcnt")]
    pub unsafe fn gaia_norm_eq(a: &[u8], b: &[u8], drop_punct: bool, lower: bool) -> Option<bool> {
        let ((va, am), (vb, bm)) = unsafe { load_ascii_pair(a, b) }?;
        Some(same(gaia_squeeze(va, am, drop_punct, lower), gaia_squeeze(vb, bm, drop_punct, lower)))
    }

    /// GAIA `normalize_str` of the ASCII text in `v` (its bytes at `all`, zero elsewhere):
    /// Python's `\s` (0x09..0x0D, 0x1C..0x20) deleted, and `string.punctuation` when
    /// `drop_punct`; lowercased when `lower`. Gathered at the start, zero after; with its length.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")]
    fn gaia_squeeze(v: __m512i, all: u64, drop_punct: bool, lower: bool) -> (__m512i, usize) {
        let cls = classes(v);
        let gone = has(cls, if drop_punct { super::PY_WS | super::PUNCT } else { super::PY_WS });
        let v = if lower { _mm512_mask_add_epi8(v, has(cls, super::UPPER), v, splat(32)) } else { v };
        let keep = all & !gone;
        (_mm512_maskz_compress_epi8(keep, v), keep.count_ones() as usize)
    }
}

/// Convenience form of [`js_normalize_into`].
pub fn js_normalize(s: &str) -> String {
    let mut out = Vec::new();
    js_normalize_into(s, &mut out);
    String::from_utf8(out).expect("normalised text is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn float_accepts_python_literals() {
        let cases: &[(&str, f64)] = &[
            ("17.", 17.0),
            (".5", 0.5),
            ("+.5", 0.5),
            ("-.5e1", -5.0),
            ("1_000", 1000.0),
            ("1_000.000_1", 1000.0001),
            ("1e1_0", 1e10),
            ("١٢", 12.0),
            ("１２", 12.0),
            ("१२", 12.0),
            ("١.٥", 1.5),
            ("1e٣", 1000.0),
            ("\u{a0}42", 42.0),
            ("42\u{85}", 42.0),
            ("\t7\n", 7.0),
            ("1e400", f64::INFINITY),
            ("-iNfInItY", f64::NEG_INFINITY),
        ];
        for &(s, v) in cases {
            assert_eq!(py_float(s), Some(v), "{s:?}");
        }
        assert!(py_float("-nan").unwrap().is_nan());
    }

    #[test]
    fn float_rejects_what_python_rejects() {
        for s in [
            "1__000", "_1000", "1000_", "1_e3", "1._5", "1e", "e5", ".", "4 2", "4\u{a0}2", "0x10", "1/2", "١٫٥", "²",
            "½", "①", "\x1c42\x1f", "\u{200b}42", "\u{feff}42", "nan(1)", "infinity1", "", " ", "+", "1_.5",
        ] {
            assert_eq!(py_float(s), None, "{s:?}");
        }
    }

    #[test]
    fn find_any_byte_agrees_with_a_scan_from_every_start() {
        // Searched bytes mixed with their neighbours, zero and high bytes.
        let alphabet = [b'.', b',', b';', b'-', b'/', b':', 0x00, 0xFF, 0xAE, b'x', b'x', b'x'];
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1Du64);
        for len in 0..=24 {
            for _ in 0..300 {
                let s: Vec<u8> = (0..len)
                    .map(|_| rng.pick(&alphabet))
                    .collect();
                for set in [&b"."[..], b",;"] {
                    for from in 0..=len {
                        let want = s[from..].iter().position(|c| set.contains(c)).map(|k| from + k);
                        assert_eq!(find_any_byte(&s, from, set), want, "{s:?} from {from} set {set:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn has_any_byte_agrees_with_a_scan_at_every_length_and_position() {
        let sets: [&[u8]; 4] = [b"?", b",;", b"$%,", b"nN"];
        // Fillers next to the searched bytes, high bytes included (no false hits).
        let fillers = [b'x', 0xFF, 0x80, b',' + 1, b'$' - 1, 0x00, b'n' ^ 0x80];
        for set in sets {
            for len in 0..=40 {
                for filler in fillers {
                    let plain = vec![filler; len];
                    assert_eq!(has_any_byte(&plain, set), set.contains(&filler), "{set:?} {len} {filler}");
                    assert_eq!(has_high_byte(&plain), len > 0 && filler >= 0x80, "{len} {filler}");
                    for pos in 0..len {
                        let mut high = plain.clone();
                        high[pos] = 0xC3;
                        assert!(has_high_byte(&high), "len {len} pos {pos}");
                        for &c in set {
                            let mut s = plain.clone();
                            s[pos] = c;
                            assert!(has_any_byte(&s, set), "{set:?} len {len} pos {pos}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn gaia_number_deletes_currency_and_separators() {
        assert_eq!(gaia_number("$1,000").value, 1000.0);
        assert_eq!(gaia_number("1.000,5").value, 1.0005);
        let junk = gaia_number("17 km");
        assert!(!junk.parsed && junk.value == f64::INFINITY);
    }

    /// The lookups of [`lower_simple`] against the table search, at every code point.
    #[test]
    fn lower_lookups_agree_with_the_search() {
        let mut changed = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(lower_simple(c), if c.is_ascii() { c.to_ascii_lowercase() } else { lower_searched(c) }, "{c:?}");
            changed += usize::from(lower_simple(c) != c);
            // What lets the normal form delete punctuation in the ASCII table alone.
            assert!(c.is_ascii() || !is_ascii_punct(lower_simple(c)), "{c:?}");
        }
        assert!(changed > 1_300, "{changed}");
    }

    #[test]
    fn lower_matches_python_specials() {
        assert_eq!(py_lower("İ"), "i\u{307}");
        assert_eq!(py_lower("ΑΣ'Σ"), "ασ'ς");
        assert_eq!(py_lower("Σ"), "σ");
        assert_eq!(py_lower("ß"), "ß");
        assert_eq!(py_lower("\u{212A}"), "k");
    }

    #[test]
    fn norm_removes_space_before_lowering() {
        let rule = NormRule { drop_punct: true, lower: true };
        assert_eq!(gaia_norm("ΑΣ Α", rule), "ασα");
        assert_eq!(gaia_norm("THE\u{85}CASTLE", rule), "thecastle");
        assert_eq!(gaia_norm("“Right”", rule), "“right”");
        assert!(gaia_norm_eq("Hello, World!", "helloworld", rule));
    }

    /// The lazy normal form (each U+03A3 judged by scanning its neighbours in the text)
    /// against the full rule (whitespace deleted, then the whole text lowered): Greek with
    /// sigmas at word ends, before and after case-ignorable characters (some also cased,
    /// like U+0345), whitespace and punctuation, mixed with other scripts; then the
    /// comparison that stops at the first difference, on pairs that differ by what the
    /// rules ignore or by one character, short and past 64 bytes.
    #[test]
    fn lazy_norm_agrees_with_the_full_rule() {
        let alphabet = [
            "\u{3A3}", "\u{3A3}", "\u{3A3}", "σ", "ς", "Α", "α", "\u{1F48}", "Ύ", "'", ".", ":", "^", "`", "\u{300}", "\u{AD}",
            "\u{2019}", "\u{345}", "\u{B7}", "\u{200B}", "\u{FEFF}", " ", "\u{85}", "\u{A0}", "\x1c", "\u{3000}", "\t", "\u{2028}",
            "!", ",", "-", "$", "(", "1", "日", "١", "_", "a", "A", "É", "\u{130}", "\u{212A}", "ß", "\u{1C5}", "ΑΣ", "ΣΑ", " Σ ",
        ];
        let rules = [(false, false), (false, true), (true, false), (true, true)].map(|(drop_punct, lower)| NormRule { drop_punct, lower });
        let mut rng = Rng::new(0x7A3C_91D5_E26B_0F47);
        let (mut finals, mut medials, mut equal, mut pairs) = (0, 0, 0, 0);
        for round in 0..20_000 {
            let len = if round % 4 == 0 { 20 + rng.below(60) } else { rng.below(12) };
            let a: String = (0..len).map(|_| rng.pick(&alphabet)).collect();
            for rule in rules {
                let want = gaia_norm(&a, rule);
                assert_eq!(norm_chars(&a, rule).collect::<String>(), want, "{a:?} {rule:?}");
            }
            let lowered = gaia_norm(&a, rules[3]);
            finals += usize::from(lowered.contains('ς') && !a.contains('ς'));
            medials += usize::from(lowered.contains('σ') && !a.contains('σ'));
            // A second text: the first with ignored changes (case, whitespace, punctuation),
            // or cut short, or with one character changed.
            let mut b = String::new();
            for c in a.chars() {
                match rng.below(12) {
                    0 => b.push_str(rng.pick(&[" ", "\u{85}", "\x1c", "!", "."])),
                    1 => b.extend(c.to_uppercase()),
                    2 => b.extend(c.to_lowercase()),
                    3 if rng.below(4) == 0 => continue,
                    4 if rng.below(4) == 0 => b.push_str(rng.pick(&alphabet)),
                    _ => {}
                }
                b.push(c);
            }
            if rng.below(6) == 0 {
                let cut = b.char_indices().nth(rng.below(b.chars().count() + 1)).map_or(b.len(), |(i, _)| i);
                b.truncate(cut);
            }
            // The same pairs past the 64-byte kernels, with a long common start.
            let long = "ΑΣ Ὀ\u{300}Σ'Α ".repeat(6);
            for (x, y) in [(a.clone(), b.clone()), (long.clone() + &a, long.clone() + &b), (a.clone() + &long, b.clone() + &long)] {
                for rule in rules {
                    let want = gaia_norm(&x, rule) == gaia_norm(&y, rule);
                    assert_eq!(gaia_norm_eq(&x, &y, rule), want, "{x:?} vs {y:?} {rule:?}");
                    assert_eq!(gaia_norm_eq(&y, &x, rule), want, "{y:?} vs {x:?} {rule:?}");
                    equal += usize::from(want && x != y);
                    pairs += 1;
                }
            }
        }
        // Texts that start alike (the start is skipped raw) and part anywhere: right after a
        // sigma, inside its run of case-ignorable characters or whitespace, mid-character.
        let mut differ = 0;
        for _ in 0..20_000 {
            let common: String = (0..rng.below(10)).map(|_| rng.pick(&alphabet)).collect();
            let tail = |rng: &mut Rng| (0..rng.below(4)).map(|_| rng.pick(&alphabet)).collect::<String>();
            let (x, y) = (common.clone() + &tail(&mut rng), common + &tail(&mut rng));
            for rule in rules {
                let want = gaia_norm(&x, rule) == gaia_norm(&y, rule);
                assert_eq!(gaia_norm_eq(&x, &y, rule), want, "{x:?} vs {y:?} {rule:?}");
                differ += usize::from(!want && x.contains('\u{3A3}'));
            }
        }
        assert!(differ > 5_000, "{differ}");
        // A start that ends inside a sigma's look ahead is not settled.
        let rule = NormRule { drop_punct: true, lower: true };
        for (x, y, want) in [("ΑΣ''Α", "ΑΣ''!", false), ("ΑΣ  Α", "ΑΣ  ", false), ("ΑΣΑ", "ΑΣ", false), ("ΑΣ\u{345}x", "ΑΣ\u{345}1", false)] {
            assert_eq!(gaia_norm_eq(x, y, rule), want, "{x:?} vs {y:?}");
            assert_eq!(gaia_norm(x, rule) == gaia_norm(y, rule), want, "{x:?} vs {y:?}");
        }
        assert!(finals > 2_000 && medials > 2_000, "{finals} final, {medials} medial sigmas");
        assert!(equal > pairs / 10 && equal < pairs * 9 / 10, "{equal} of {pairs} equal");
        // Worked cases: whitespace is gone before lowering, punctuation is not.
        let rule = NormRule { drop_punct: true, lower: true };
        for (x, want) in [
            ("ΑΣ Α", "ασα"),
            ("Α Σ", "ας"),
            ("ΑΣ'Α", "ασα"),
            ("ΑΣ'", "ας"),
            ("ΑΣ!Α", "αςα"),
            ("ΑΣ\u{345}Α", "ασ\u{345}α"),
            ("Α\u{300}Σ \u{85}", "α\u{300}ς"),
            ("'Σ", "σ"),
            ("1Σ", "1σ"),
            ("ΑΣ1", "ας1"),
            ("ΑΣ日", "ας日"),
            ("ΑΣ\u{200B}a", "ασ\u{200B}a"),
        ] {
            assert_eq!(norm_chars(x, rule).collect::<String>(), want, "{x:?}");
            assert_eq!(gaia_norm(x, rule), want, "{x:?}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn js_normalize_wide_path_matches_the_byte_loop() {
        if !avx512::available() {
            return; // nothing to compare on this CPU
        }
        let alphabet = b" \t\n\x0b\x0c\r\x1c\x1fAZaz09_-:.,!~\x00\x7fqM";
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15u64);
        for len in 0..=64 {
            for _ in 0..400 {
                let s: Vec<u8> = (0..len)
                    .map(|_| rng.pick(alphabet))
                    .collect();
                let mut want = Vec::with_capacity(len);
                assert!(js_normalize_ascii_loop(&s, &mut want));
                let mut got: Vec<u8> = Vec::with_capacity(len);
                // SAFETY: feature checked above; capacity len.
                let n = unsafe { avx512::normalize_short(&s, got.as_mut_ptr()) }.expect("ASCII");
                unsafe { got.set_len(n) };
                assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&s));
            }
            let mut wide = vec![b'a'; len];
            if len > 0 {
                wide[len / 2] = 0xC3;
                let mut out: Vec<u8> = Vec::with_capacity(len);
                assert_eq!(unsafe { avx512::normalize_short(&wide, out.as_mut_ptr()) }, None);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn lenient_wide_path_matches_normalise_then_search() {
        if !avx512::available() {
            return; // nothing to compare on this CPU
        }
        // A small alphabet, and predictions cut from the truth, so that containment in
        // either direction, and its near misses, are common.
        let alphabet = b" \t\x0bAab_-.Z9";
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1Du64);
        let mut next = |k: usize| rng.below(k);
        let (mut matched, mut total) = (0, 0);
        for t_len in 1..=64 {
            for _ in 0..300 {
                let truth: Vec<u8> = (0..t_len).map(|_| alphabet[next(alphabet.len())]).collect();
                let pred: Vec<u8> = match next(3) {
                    0 => (0..next(65)).map(|_| alphabet[next(alphabet.len())]).collect(),
                    1 => {
                        let a = next(t_len + 1);
                        let b = a + next(t_len - a + 1);
                        truth[a..b].to_ascii_uppercase()
                    }
                    _ => {
                        let mut p: Vec<u8> = (0..next(8)).map(|_| alphabet[next(alphabet.len())]).collect();
                        p.extend(&truth[..t_len.min(64 - p.len())]);
                        p.truncate(64 - next(4).min(p.len()));
                        p
                    }
                };
                let (mut np, mut nt) = (Vec::with_capacity(64), Vec::with_capacity(64));
                assert!(js_normalize_ascii_loop(&pred, &mut np) && js_normalize_ascii_loop(&truth, &mut nt));
                let (long, short) = if np.len() >= nt.len() { (&np, &nt) } else { (&nt, &np) };
                let want = pred == truth || short.is_empty() || long.windows(short.len()).any(|w| w == &short[..]);
                // SAFETY: features checked; lengths <= 64; truth not empty.
                let got = unsafe { avx512::lenient_short(&pred, &truth) };
                assert_eq!(got, Some(want), "{:?} vs {:?}", String::from_utf8_lossy(&pred), String::from_utf8_lossy(&truth));
                matched += usize::from(want);
                total += 1;
            }
        }
        assert!(matched > total / 5 && matched < total * 4 / 5, "{matched} of {total} matched");
        // Identical non-ASCII texts match; other non-ASCII pairs go to the general path.
        let same = "Zürich".as_bytes();
        assert_eq!(unsafe { avx512::lenient_short(same, same) }, Some(true));
        assert_eq!(unsafe { avx512::lenient_short(b"zurich", same) }, None);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn gaia_norm_eq_wide_path_matches_the_table_loop() {
        if !avx512::available() {
            return; // nothing to compare on this CPU
        }
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1Du64);
        let mut next = |k: usize| rng.below(k);
        let mut equal = 0;
        for len in 0..=64 {
            for _ in 0..200 {
                // Every ASCII byte, and a second text made from the first by the changes
                // each rule ignores (case, whitespace, punctuation) or by one that counts.
                let a: Vec<u8> = (0..len).map(|_| if next(3) == 0 { next(128) as u8 } else { b"aZ ,;.\x1c\t-_9"[next(11)] }).collect();
                let b: Vec<u8> = a
                    .iter()
                    .filter_map(|&c| match next(8) {
                        0 => None,
                        1 => Some(c.to_ascii_uppercase()),
                        2 => Some(b"!\x1f \r"[next(4)]),
                        _ => Some(c),
                    })
                    .take(64)
                    .collect();
                for drop_punct in [false, true] {
                    for lower in [false, true] {
                        let table = &NORM_TABLES[usize::from(drop_punct) * 2 + usize::from(lower)];
                        let want = ascii_norm_eq(&a, &b, table).expect("ASCII");
                        // SAFETY: features checked; lengths <= 64.
                        let got = unsafe { avx512::gaia_norm_eq(&a, &b, drop_punct, lower) };
                        assert_eq!(got, Some(want), "{a:?} vs {b:?} punct {drop_punct} lower {lower}");
                        equal += usize::from(want);
                    }
                }
            }
        }
        assert!(equal > 5_000, "only {equal} equal pairs");
        assert_eq!(unsafe { avx512::gaia_norm_eq("é".as_bytes(), b"e", true, true) }, None);
    }

    /// `float()` without the long-text shortcut (the parse and mapping alone).
    fn full_py_float(s: &str) -> Option<f64> {
        match parse_ascii_float(s.as_bytes()) {
            Some(v) => Some(v),
            None if has_high_byte(s.as_bytes()) => py_float_mapped(s),
            None => None,
        }
    }

    /// Texts at the edges of the float shortcut: literals padded past 64 bytes with the
    /// whitespace float() trims (ASCII and Unicode) and with `$ % ,`, Unicode digits,
    /// sentences, and single changes to each.
    #[test]
    fn surely_not_float_never_rejects_what_float_reads() {
        let literals = [
            "1e5", "-iNfInItY", "+.5E-3", "1_000.000_1", "١٢", "１２.٥", "nan", "-Inf", "0", "12345678901234567890123", "9.",
            "1e٣", "+nan", "infinity", "NAN",
        ];
        let pads = [" ", "\t", "\n", "\x0b", "\x0c", "\r", "\u{a0}", "\u{3000}", "\u{85}", "\u{2028}", "$", "%", ","];
        let noise = ["x", "\x1c", "\u{200b}", "é", "日", "²", "/", "b", "a", "y", "t", "f", "E", "_", ".", "0", "\u{1680}"];
        let mut rng = Rng::new(0xD1B5_4A32_D192_ED03);
        let (mut rejected, mut read_long, mut money_read, mut by_first_byte) = (0, 0, 0, 0);
        for round in 0..60_000 {
            let mut s = String::new();
            if round % 3 == 0 {
                // A sentence-like text of atoms.
                for _ in 0..rng.below(120) {
                    let atom = match rng.below(3) {
                        0 => rng.pick(&literals),
                        1 => rng.pick(&pads),
                        _ => rng.pick(&noise),
                    };
                    s.push_str(atom);
                }
            } else {
                let lit = rng.pick(&literals);
                let (left, right) = (rng.below(80), rng.below(80));
                let pad_set = &pads[..if round % 2 == 0 { 10 } else { pads.len() }];
                for _ in 0..left {
                    s.push_str(rng.pick(pad_set));
                }
                s.push_str(lit);
                for _ in 0..right {
                    s.push_str(rng.pick(pad_set));
                }
                if rng.below(4) == 0 {
                    let k = rng.below(s.chars().count() + 1);
                    let at = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).nth(k).unwrap_or(0);
                    s.insert_str(at, rng.pick(&noise));
                }
            }
            let kept: String = s.chars().filter(|c| !matches!(c, '$' | '%' | ',')).collect();
            for (money, text) in [(false, s.as_str()), (true, kept.as_str())] {
                let full = full_py_float(text);
                if surely_not_float(&s, money) {
                    assert_eq!(full.map(f64::to_bits), None, "{s:?} (money {money}) is read as a number");
                    rejected += 1;
                } else if full.is_some() && s.len() > LONG_TEXT {
                    read_long += 1;
                    money_read += usize::from(money && kept.len() != s.len());
                }
            }
            // The scorer's entry points against the full rule.
            assert_eq!(py_float(&s).map(f64::to_bits), full_py_float(&s).map(f64::to_bits), "{s:?}");
            let want = full_py_float(&kept).map_or((f64::INFINITY.to_bits(), false), |v| (v.to_bits(), true));
            let got = gaia_number(&s);
            assert_eq!((got.value.to_bits(), got.parsed), want, "{s:?}");
            if surely_not_number_start(&s) {
                assert!(!want.1, "{s:?} is read as a number");
                by_first_byte += 1;
            }
        }
        assert!(rejected > 30_000 && read_long > 10_000 && money_read > 2_000, "{rejected} rejected, {read_long} long numbers read, {money_read} with $ % ,");
        assert!(by_first_byte > 2_000, "{by_first_byte} rejected by the first byte");
        for s in ["x", "\x1c1", "_1", "E5", "/1"] {
            assert!(surely_not_number_start(s), "{s:?}");
        }
        for s in ["", "1", " 1", "\u{a0}1", "$1", "%1", ",1", "+1", "-1", ".5", "inf", "Nan", "١"] {
            assert!(!surely_not_number_start(s), "{s:?}");
        }
    }

    #[test]
    fn find_agrees_with_a_window_scan() {
        // Two-letter texts make first/last-byte candidates that fail in the middle common.
        let mut rng = Rng::new(0x5851_F42D_4C95_7F2D);
        let mut found = 0;
        for round in 0..40_000 {
            let hay: Vec<u8> = (0..rng.below(if round % 10 == 0 { 600 } else { 150 })).map(|_| rng.pick(b"ab")).collect();
            let m = 1 + rng.below(if round % 3 == 0 { 64 } else { 8 });
            let needle: Vec<u8> = if rng.below(2) == 0 && hay.len() >= m {
                let a = rng.below(hay.len() - m + 1);
                let mut n = hay[a..a + m].to_vec();
                if rng.below(3) == 0 {
                    let k = rng.below(m);
                    n[k] ^= 3; // a near miss
                }
                n
            } else {
                (0..m).map(|_| rng.pick(b"ab")).collect()
            };
            let want = hay.windows(m).position(|w| w == &needle[..]);
            assert_eq!(find(&hay, &needle), want, "{:?} in {:?}", String::from_utf8_lossy(&needle), String::from_utf8_lossy(&hay));
            found += usize::from(want.is_some());
        }
        assert!(found > 10_000 && found < 35_000, "{found} found");
        assert_eq!(find(b"", b""), Some(0));
        assert_eq!(find(b"abc", b"abcd"), None);
    }

    /// Whitespace runs that end, start or cross at 64-byte block edges, and blocks with
    /// non-ASCII text among ASCII ones, through the block path and the search.
    #[test]
    fn long_normalisation_matches_the_code_point_loop() {
        let atoms = [
            " ", "  ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "a", "Z", "_", "9", "-", ".", "q", "Mx", "\u{a0}", "\u{feff}", "\u{85}",
            "é", "İ", "\u{212A}", "日本", "\u{3000}", "\u{2028}", "ab cd", "\x00", "\x7f",
        ];
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let (mut found, mut searched) = (0, 0);
        for round in 0..20_000 {
            let mut s = String::new();
            let target = rng.below(if round % 4 == 0 { 1200 } else { 300 });
            while s.len() < target {
                if rng.below(16) == 0 {
                    // A long run (or long text) placed so that its edges fall near block edges.
                    let k = 50 + rng.below(30);
                    let unit = rng.pick(&[" ", "x", "\t", "é"]);
                    s.push_str(&unit.repeat(k));
                } else {
                    s.push_str(rng.pick(&atoms));
                }
            }
            let mut want = Vec::new();
            JsNorm::new(&s).chars_until(s.len(), &mut want);
            let mut got = Vec::new();
            js_normalize_into(&s, &mut got);
            assert_eq!(got, want, "{s:?}");
            // Needles from the normal form (found) and from elsewhere (mostly not).
            for _ in 0..3 {
                let needle: Vec<u8> = if rng.below(2) == 0 && !want.is_empty() {
                    let a = rng.below(want.len());
                    want[a..a + rng.below((want.len() - a).min(40)) + 1].to_vec()
                } else {
                    let mut n = Vec::new();
                    let k = 1 + rng.below(6);
                    let text: String = (0..k).map(|_| rng.pick(&atoms)).collect();
                    js_normalize_into(&text, &mut n);
                    n
                };
                let expect = needle.is_empty() || want.windows(needle.len()).any(|w| w == &needle[..]);
                let mut out = Vec::new();
                let hit = js_normalize_find(&s, &needle, &mut out);
                assert_eq!(hit, expect, "{s:?} / {:?}", String::from_utf8_lossy(&needle));
                if hit {
                    assert!(want.starts_with(&out), "{s:?}: a prefix");
                    assert!(needle.is_empty() || out.windows(needle.len()).any(|w| w == &needle[..]));
                } else {
                    assert_eq!(out, want, "{s:?}: the whole normal form");
                }
                found += usize::from(hit);
                searched += 1;
            }
        }
        assert!(found > searched / 3 && found < searched * 9 / 10, "{found} of {searched} found");
    }

    #[test]
    fn js_normalize_examples() {
        assert_eq!(js_normalize("The Answer is: 1,927!"), "the answer is 1927");
        assert_eq!(js_normalize("Café"), "caf");
        assert_eq!(js_normalize("a - b"), "a  b");
        assert_eq!(js_normalize("  - 17 "), " 17");
        assert_eq!(js_normalize("x\u{feff}y"), "x y");
        assert_eq!(js_normalize("x\u{85}y"), "xy");
        assert_eq!(js_normalize("İ\u{212A}"), "ik");
        assert_eq!(js_normalize("日本"), "");
    }
}
