//! Multiple-choice answer parsing: VLMEvalKit `can_infer` (all versions) and the
//! MMMU/VMCBench `parse_multi_choice_response` rule (spec `vlmevalkit.md` §1, §2).
//!
//! The reference regexes are simple enough to be matched by hand-written scanners that
//! reproduce Python `re` exactly: `\s` is Python's whitespace ([`is_py_space`]), and
//! `re.IGNORECASE` lets `ı`/`İ` match `i`, `ſ` match `s` and the Kelvin sign match `k`
//! ([`ci_eq`]). Every pattern is anchored on a literal found with `memchr`, and each
//! attempt is bounded by the whitespace it skips, so matching is linear in practice.
//!
//! Choice letters are ASCII `A`..`Z` (VLMEvalKit's text stage asserts this).

use std::sync::LazyLock;

use memchr::memmem::{self, Finder};
use rayon::prelude::*;

use crate::batch::{Cursor, StrColumn};
use crate::text::{is_py_space, py_lower};
use crate::work;

/// Which VLMEvalKit matcher (spec §0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// 2024-03-19 … 2025-08-03 (aca64dbb).
    Classic,
    /// c3371551: letter position rule, text length guard.
    Aug2025,
    /// a67ace50: plus the "answer is X" regex.
    Jun2026,
    /// oumi-ai/VLMEvalKit 9dc79b90 (DCVLR; LiveXivVQA): three answer regexes, more separators.
    Dcvlr,
    /// VLMEvalKit 24ebca6b (2023-12, `MMMU_eval`): the option stage looks for the letters
    /// `ABCDE` whatever the options, the two Bard refusals give `E`, there is no `Z` rule.
    Dec2023,
}

impl Variant {
    pub const ALL: [Variant; 5] =
        [Variant::Classic, Variant::Aug2025, Variant::Jun2026, Variant::Dcvlr, Variant::Dec2023];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Aug2025 => "2025-08",
            Variant::Jun2026 => "2026-06",
            Variant::Dcvlr => "dcvlr",
            Variant::Dec2023 => "2023-12",
        }
    }

    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    fn position_rule(self) -> bool {
        matches!(self, Variant::Aug2025 | Variant::Jun2026)
    }
}

/// Which rule decided a row (the order is the code sent to Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Rule {
    /// No candidate (VMCBench: stage C not tried).
    None = 0,
    /// VMCBench: stage C tried, nothing found.
    NoneAfterText,
    /// VMCBench: option A is NaN; the reference scores 0.
    OptionAMissing,
    /// One of the four refusal texts: `Z`.
    Refusal,
    /// dcvlr `<answer>X</answer>`.
    AnswerTag,
    /// dcvlr `\boxed{X}`.
    Boxed,
    /// dcvlr `… answer is X` / `answer: X`.
    AnswerPhrase,
    /// 2026-06 `answer is X` (A–D).
    AnswerIs,
    /// Exactly one choice letter among the tokens.
    LetterToken,
    /// No choice letter, but the token `Z`.
    ZToken,
    /// Exactly one option text inside the answer (can_infer text stage, VMCBench stage C).
    OptionText,
    /// VMCBench stage A, one candidate: `(X)` or `X. `.
    ParenOrDot,
    /// VMCBench stage A, several: the last `(X)` wins.
    ParenOrDotLast,
    /// VMCBench stage B, one candidate: ` X `.
    SpacedLetter,
    /// VMCBench stage B, several: the last ` X ` wins.
    SpacedLetterLast,
    /// VMCBench stage C, several: the last option text wins.
    OptionTextLast,
    /// The reference raises on this row.
    Error,
}

impl Rule {
    pub const ALL: [Rule; 17] = [
        Rule::None,
        Rule::NoneAfterText,
        Rule::OptionAMissing,
        Rule::Refusal,
        Rule::AnswerTag,
        Rule::Boxed,
        Rule::AnswerPhrase,
        Rule::AnswerIs,
        Rule::LetterToken,
        Rule::ZToken,
        Rule::OptionText,
        Rule::ParenOrDot,
        Rule::ParenOrDotLast,
        Rule::SpacedLetter,
        Rule::SpacedLetterLast,
        Rule::OptionTextLast,
        Rule::Error,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rule::None => "none",
            Rule::NoneAfterText => "none_after_text",
            Rule::OptionAMissing => "option_a_missing",
            Rule::Refusal => "refusal",
            Rule::AnswerTag => "answer_tag",
            Rule::Boxed => "boxed",
            Rule::AnswerPhrase => "answer_phrase",
            Rule::AnswerIs => "answer_is",
            Rule::LetterToken => "letter_token",
            Rule::ZToken => "z_token",
            Rule::OptionText => "option_text",
            Rule::ParenOrDot => "paren_or_dot",
            Rule::ParenOrDotLast => "paren_or_dot_last",
            Rule::SpacedLetter => "spaced_letter",
            Rule::SpacedLetterLast => "spaced_letter_last",
            Rule::OptionTextLast => "option_text_last",
            Rule::Error => "error",
        }
    }
}

/// One option: its letter (`b'A'..=b'Z'`) and text.
#[derive(Clone, Copy, Debug)]
pub struct Choice<'a> {
    pub letter: u8,
    pub text: &'a str,
}

/// A decision: the letter (or `Z`), `None` for no match, and the rule that decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub letter: Option<u8>,
    pub rule: Rule,
}

impl Decision {
    const NONE: Decision = Decision { letter: None, rule: Rule::None };
    fn some(letter: u8, rule: Rule) -> Decision {
        Decision { letter: Some(letter), rule }
    }
}

// -------------------------------------------------------------------------------------
// Python `re` building blocks
// -------------------------------------------------------------------------------------

/// Does `c` match the pattern character `p` (ASCII; letters lowercase) under Python's
/// `re.IGNORECASE`? Besides ASCII case, `İ`/`ı` match `i`, `ſ` matches `s` and the Kelvin
/// sign matches `k` (checked against CPython over every code point in the tests).
#[inline]
fn ci_eq(c: char, p: u8) -> bool {
    if c.is_ascii() {
        return (c as u8).to_ascii_lowercase() == p;
    }
    match c {
        '\u{130}' | '\u{131}' => p == b'i',
        '\u{17F}' => p == b's',
        '\u{212A}' => p == b'k',
        _ => false,
    }
}

#[inline]
fn next_char(s: &str, i: usize) -> Option<char> {
    s.get(i..).and_then(|t| t.chars().next())
}

/// Match the literal `lit` case-insensitively at byte `i`; the end on success.
fn lit_ci(s: &str, mut i: usize, lit: &[u8]) -> Option<usize> {
    for &p in lit {
        work::add(1);
        let c = next_char(s, i)?;
        if !ci_eq(c, p) {
            return None;
        }
        i += c.len_utf8();
    }
    Some(i)
}

/// Skip Python whitespace (`\s*`); returns the new position and how many were skipped.
fn skip_ws(s: &str, mut i: usize) -> (usize, usize) {
    let mut n = 0;
    while let Some(c) = next_char(s, i) {
        work::add(1);
        if !is_py_space(c) {
            break;
        }
        i += c.len_utf8();
        n += 1;
    }
    (i, n)
}

/// `[A-Z]` under `re.IGNORECASE`: ASCII letters, `ı`, `ſ`, `İ`, Kelvin sign. Returns the
/// character's `str.upper()` when that is an ASCII letter (`İ` and the Kelvin sign stay
/// themselves, so they match but never name a choice: `Some(None)`).
fn letter_ci(s: &str, i: usize) -> Option<(Option<u8>, usize)> {
    let c = next_char(s, i)?;
    let upper = match c {
        'a'..='z' | 'A'..='Z' => Some((c as u8).to_ascii_uppercase()),
        '\u{131}' => Some(b'I'),
        '\u{17F}' => Some(b'S'),
        '\u{130}' | '\u{212A}' => None,
        _ => return None,
    };
    Some((upper, i + c.len_utf8()))
}

/// End positions of every case-insensitive `answer`, in order (each starts with `a`/`A`,
/// which no other code point matches; `ſ` may stand for the `s`).
fn answer_ends(s: &str) -> impl Iterator<Item = usize> + '_ {
    work::add(s.len());
    memchr::memchr2_iter(b'a', b'A', s.as_bytes()).filter_map(move |i| lit_ci(s, i + 1, b"nswer"))
}

/// dcvlr regex 1, `(?i)<answer>\s*([A-Z])\s*</answer>`: the leftmost match's letter.
fn answer_tag(s: &str) -> Option<Option<u8>> {
    work::add(s.len());
    memchr::memchr_iter(b'<', s.as_bytes()).find_map(|i| {
        let j = lit_ci(s, i + 1, b"answer>")?;
        let (letter, j) = letter_ci(s, skip_ws(s, j).0)?;
        lit_ci(s, skip_ws(s, j).0, b"</answer>")?;
        Some(letter)
    })
}

/// dcvlr regex 2, `(?i)\\boxed\s*\{\s*([A-Z])\s*\}`.
fn boxed(s: &str) -> Option<Option<u8>> {
    work::add(s.len());
    memchr::memchr_iter(b'\\', s.as_bytes()).find_map(|i| {
        let j = lit_ci(s, i + 1, b"boxed")?;
        let j = lit_ci(s, skip_ws(s, j).0, b"{")?;
        let (letter, j) = letter_ci(s, skip_ws(s, j).0)?;
        lit_ci(s, skip_ws(s, j).0, b"}")?;
        Some(letter)
    })
}

/// dcvlr regex 3,
/// `(?i)(?:(?:The|the)?\s*(?:correct|best|final)?\s*answer\s*(?:is|:)\s*)([A-Z])(?:\s|$|\.|\,)`.
/// Everything before `answer` is optional and cannot change what follows it, so the leftmost
/// match belongs to the first `answer` whose continuation matches.
fn answer_phrase(s: &str) -> Option<Option<u8>> {
    answer_ends(s).find_map(|end| {
        let (j, _) = skip_ws(s, end);
        let j = lit_ci(s, j, b"is").or_else(|| lit_ci(s, j, b":"))?;
        let (letter, j) = letter_ci(s, skip_ws(s, j).0)?;
        match next_char(s, j) {
            None | Some('.' | ',') => Some(letter),
            Some(c) if is_py_space(c) => Some(letter),
            _ => None,
        }
    })
}

/// 2026-06 regex, `(?i)(?:correct\s+)?answer\s+is\s+\**([ABCD])\**`.
fn answer_is(s: &str) -> Option<u8> {
    answer_ends(s).find_map(|end| {
        let (j, n) = skip_ws(s, end);
        if n == 0 {
            return None;
        }
        let (mut j, n) = skip_ws(s, lit_ci(s, j, b"is")?);
        if n == 0 {
            return None;
        }
        while s.as_bytes().get(j) == Some(&b'*') {
            work::add(1);
            j += 1;
        }
        match s.as_bytes().get(j) {
            Some(&b) if matches!(b.to_ascii_uppercase(), b'A'..=b'D') => Some(b.to_ascii_uppercase()),
            _ => None,
        }
    })
}

// -------------------------------------------------------------------------------------
// can_infer (spec §1)
// -------------------------------------------------------------------------------------

const API_FAILURE: &str = "Failed to obtain answer via API";
const REFUSALS: [&str; 4] = [
    "Sorry, I can't help with images of people yet.", "I can't process this file.",
    "I'm sorry, but without the image provided", "Cannot determine the answer",
];

const fn separator_table(chars: &[u8]) -> [bool; 128] {
    let mut t = [false; 128];
    let mut i = 0;
    while i < chars.len() {
        t[chars[i] as usize] = true;
        i += 1;
    }
    t
}

static SEP_CLASSIC: [bool; 128] = separator_table(b".()[],:;!*#{}");
static SEP_DCVLR: [bool; 128] = separator_table(b".()[],:;!*#{}\"'<>");

const ABSENT: u32 = u32::MAX;

/// A dcvlr answer regex: the leftmost match's letter (`Some(None)`: it matched a letter
/// whose uppercase is not ASCII).
type AnswerRegex = fn(&str) -> Option<Option<u8>>;

/// The token list of the option stage, reduced to what the rules look at: how many tokens,
/// the first index of every one-letter uppercase token.
struct Tokens {
    count: usize,
    first: [u32; 26],
}

/// Replace every separator by a space, split on Python whitespace.
fn tokens(s: &str, seps: &[bool; 128]) -> Tokens {
    let mut t = Tokens { count: 0, first: [ABSENT; 26] };
    let mut len = 0usize; // chars in the current token
    let mut single = 0u8; // its first char when ASCII uppercase
    work::add(s.len());
    for c in s.chars() {
        let sep = if c.is_ascii() { seps[c as usize] || is_py_space(c) } else { is_py_space(c) };
        if sep {
            if len > 0 {
                close(&mut t, len, single);
                len = 0;
            }
        } else {
            if len == 0 {
                single = if c.is_ascii_uppercase() { c as u8 } else { 0 };
            }
            len += 1;
        }
    }
    if len > 0 {
        close(&mut t, len, single);
    }
    t
}

/// End of a token of `len` chars whose first char is `single` (0 unless ASCII uppercase).
#[inline]
fn close(t: &mut Tokens, len: usize, single: u8) {
    if len == 1 && single != 0 {
        let slot = &mut t.first[(single - b'A') as usize];
        if *slot == ABSENT {
            *slot = t.count as u32;
        }
    }
    t.count += 1;
}

fn has_choice(choices: &[Choice], letter: u8) -> bool {
    choices.iter().any(|c| c.letter == letter)
}

/// Searchers for the API-failure text and the four refusals, built once.
static FIXED_TEXTS: LazyLock<[Finder<'static>; 5]> = LazyLock::new(|| {
    [API_FAILURE, REFUSALS[0], REFUSALS[1], REFUSALS[2], REFUSALS[3]].map(|t| Finder::new(t.as_bytes()))
});

fn option_stage(answer: &str, choices: &[Choice], variant: Variant) -> Decision {
    let fixed = &*FIXED_TEXTS;
    let b = answer.as_bytes();
    // Every fixed text is longer than 25 bytes: shorter answers skip the searches.
    if b.len() >= 26 {
        work::add(5 * b.len());
        if fixed[0].find(b).is_some() {
            return Decision::NONE;
        }
        if variant == Variant::Dec2023 {
            // 2023-12 knows only the two Bard refusals, and answers them with `E`.
            if fixed[1..3].iter().any(|f| f.find(b).is_some()) {
                return Decision::some(b'E', Rule::Refusal);
            }
        } else if fixed[1..].iter().any(|f| f.find(b).is_some()) {
            return Decision::some(b'Z', Rule::Refusal);
        }
    }
    if variant == Variant::Dcvlr {
        let patterns: [(AnswerRegex, Rule); 3] =
            [(answer_tag, Rule::AnswerTag), (boxed, Rule::Boxed), (answer_phrase, Rule::AnswerPhrase)];
        for (find, rule) in patterns {
            if let Some(Some(letter)) = find(answer) {
                if has_choice(choices, letter) {
                    return Decision::some(letter, rule);
                }
            }
        }
    }
    let toks = tokens(answer, if variant == Variant::Dcvlr { &SEP_DCVLR } else { &SEP_CLASSIC });
    if variant == Variant::Dec2023 {
        // The letter set is always `ABCDE` (not the options); no `Z` rule.
        let mut found = b"ABCDE".iter().filter(|&&l| toks.first[(l - b'A') as usize] != ABSENT);
        return match (found.next(), found.next()) {
            (Some(&l), None) => Decision::some(l, Rule::LetterToken),
            _ => Decision::NONE,
        };
    }
    let mut found = choices.iter().filter(|c| toks.first[(c.letter - b'A') as usize] != ABSENT);
    match (found.next(), found.next()) {
        (Some(c), None) => {
            let first = toks.first[(c.letter - b'A') as usize] as i64;
            if !variant.position_rule() || first > toks.count as i64 - 5 {
                return Decision::some(c.letter, Rule::LetterToken);
            }
        }
        (None, _) if toks.first[(b'Z' - b'A') as usize] != ABSENT => return Decision::some(b'Z', Rule::ZToken),
        _ => {}
    }
    if variant == Variant::Jun2026 {
        if let Some(letter) = answer_is(answer) {
            if has_choice(choices, letter) {
                return Decision::some(letter, Rule::AnswerIs);
            }
        }
    }
    Decision::NONE
}

/// `str.lower()` without allocating for text that is already lowercase ASCII.
fn lowered(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
        std::borrow::Cow::Borrowed(s)
    } else {
        std::borrow::Cow::Owned(py_lower(s))
    }
}

fn text_stage(answer: &str, choices: &[Choice], variant: Variant) -> Decision {
    work::add(2 * answer.len() + choices.iter().map(|c| c.text.len()).sum::<usize>());
    let a = py_lower(answer);
    if variant.position_rule() {
        let total: usize = choices.iter().map(|c| c.text.chars().count()).sum();
        if a.chars().count() > 2 * total {
            return Decision::NONE;
        }
    }
    let mut found = None;
    for c in choices {
        if find_bytes(a.as_bytes(), lowered(c.text).as_bytes()).is_some() {
            if found.is_some() {
                return Decision::NONE;
            }
            found = Some(c.letter);
        }
    }
    match found {
        Some(letter) => Decision::some(letter, Rule::OptionText),
        None => Decision::NONE,
    }
}

/// VLMEvalKit `can_infer(answer, choices)` of the given version: a letter, `Z`, or no match.
/// `answer` is the `str()` of the model output; `choices` in the caller's (letter) order.
pub fn can_infer(answer: &str, choices: &[Choice], variant: Variant) -> Decision {
    let d = option_stage(answer, choices, variant);
    if d.letter.is_some() {
        return d;
    }
    text_stage(answer, choices, variant)
}

// -------------------------------------------------------------------------------------
// VMCBench parse_multi_choice_response (spec §2.2)
// -------------------------------------------------------------------------------------

/// More than five pieces in the Python-whitespace split of `s`?
fn more_than_five_pieces(s: &str) -> bool {
    work::add(s.len());
    let mut pieces = 0;
    let mut in_piece = false;
    for c in s.chars() {
        if is_py_space(c) {
            in_piece = false;
        } else if !in_piece {
            in_piece = true;
            pieces += 1;
            if pieces > 5 {
                return true;
            }
        }
    }
    false
}

/// The candidate with the largest position; ties go to the earliest (numpy `argmax`).
fn last_of(cands: &[(u8, i64)]) -> u8 {
    let mut best = cands[0];
    for &c in &cands[1..] {
        if c.1 > best.1 {
            best = c;
        }
    }
    best.0
}

/// VMCBench (MMMU) `parse_multi_choice_response(response, letters, options)`: the letter,
/// or no candidate (where the reference draws a random letter). `response` is its `str()`.
pub fn parse_multi_choice(response: &str, choices: &[Choice]) -> Decision {
    parse_multi_choice_with(response, choices, &mut String::new())
}

/// `str.strip(ch)` for an ASCII `ch`, on bytes (an ASCII byte never splits a code point).
#[inline]
fn strip_ascii(mut b: &[u8], ch: u8) -> &[u8] {
    while let [first, rest @ ..] = b {
        if *first != ch {
            break;
        }
        b = rest;
    }
    while let [rest @ .., last] = b {
        if *last != ch {
            break;
        }
        b = rest;
    }
    b
}

/// Last occurrence of `needle` in `hay` (`Some(hay.len())` for an empty needle, as Python's
/// `rfind`). Short needles are checked at each occurrence of their first byte, which beats
/// building a searcher for the short texts scored here; long ones use `memmem`.
fn rfind_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    work::add(hay.len() + needle.len());
    match needle {
        [] => Some(hay.len()),
        [first, ..] if needle.len() <= 16 => memchr::memrchr_iter(*first, hay).find(|&i| {
            work::add(needle.len());
            hay[i..].starts_with(needle)
        }),
        _ => memmem::rfind(hay, needle),
    }
}

/// First occurrence, like [`rfind_bytes`].
fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    work::add(hay.len() + needle.len());
    match needle {
        [] => Some(0),
        [first, ..] if needle.len() <= 16 => memchr::memchr_iter(*first, hay).find(|&i| {
            work::add(needle.len());
            hay[i..].starts_with(needle)
        }),
        _ => memmem::find(hay, needle),
    }
}

/// [`parse_multi_choice`] with a reusable buffer for the padded response.
pub fn parse_multi_choice_with(response: &str, choices: &[Choice], padded: &mut String) -> Decision {
    // Stripping, padding, the letter scan and lowering: a few passes over the response.
    work::add(4 * response.len() + 2);
    let mut r = response.as_bytes();
    for ch in [b',', b'.', b'!', b'?', b';', b':', b'\''] {
        r = strip_ascii(r, ch);
    }
    // SAFETY: only ASCII bytes were removed from the ends of valid UTF-8.
    let r = unsafe { std::str::from_utf8_unchecked(r) };
    padded.clear();
    padded.reserve(r.len() + 2);
    padded.push(' ');
    padded.push_str(r);
    padded.push(' ');
    let padded: &str = padded;
    let b = padded.as_bytes();

    // Stage A: "(L)" (remember the last one) or "L. ". Stage B: " L " (the last one).
    // All three are ASCII, so a byte scan finds exactly the code-point occurrences.
    let mut paren = [-1i64; 26];
    let mut dot = [false; 26];
    let mut spaced = [-1i64; 26];
    // Each pattern holds one uppercase letter: look around the (rare) uppercase bytes. The
    // padding makes the first and last byte spaces, so every letter has both neighbours.
    for j in 1..b.len() - 1 {
        let y = b[j];
        if !y.is_ascii_uppercase() {
            continue;
        }
        let k = (y - b'A') as usize;
        let (prev, next) = (b[j - 1], b[j + 1]);
        if prev == b'(' && next == b')' {
            paren[k] = (j - 1) as i64;
        } else if prev == b' ' && next == b' ' {
            spaced[k] = (j - 1) as i64;
        }
        if next == b'.' && b.get(j + 2) == Some(&b' ') {
            dot[k] = true;
        }
    }
    let mut cands: Vec<(u8, i64)> = Vec::new();
    for c in choices {
        let k = (c.letter - b'A') as usize;
        if paren[k] >= 0 || dot[k] {
            cands.push((c.letter, paren[k]));
        }
    }
    if !cands.is_empty() {
        return if cands.len() == 1 {
            Decision::some(cands[0].0, Rule::ParenOrDot)
        } else {
            Decision::some(last_of(&cands), Rule::ParenOrDotLast)
        };
    }
    for c in choices {
        let k = (c.letter - b'A') as usize;
        if spaced[k] >= 0 {
            cands.push((c.letter, spaced[k]));
        }
    }
    if !cands.is_empty() {
        return if cands.len() == 1 {
            Decision::some(cands[0].0, Rule::SpacedLetter)
        } else {
            Decision::some(last_of(&cands), Rule::SpacedLetterLast)
        };
    }
    if !more_than_five_pieces(padded) {
        return Decision::NONE;
    }
    // Stage C: option texts in the lowercased response; positions are byte offsets, which
    // order exactly as code-point offsets (an empty text sits at the end, as in Python).
    let lowered_r = py_lower(padded);
    for c in choices {
        if let Some(pos) = rfind_bytes(lowered_r.as_bytes(), lowered(c.text).as_bytes()) {
            cands.push((c.letter, pos as i64));
        }
    }
    match cands.len() {
        0 => Decision { letter: None, rule: Rule::NoneAfterText },
        1 => Decision::some(cands[0].0, Rule::OptionText),
        _ => Decision::some(last_of(&cands), Rule::OptionTextLast),
    }
}

// -------------------------------------------------------------------------------------
// Seeded fallback and the column driver
// -------------------------------------------------------------------------------------

/// gaia-fast's deterministic replacement for the references' unseeded `random.choice`:
/// FNV-1a 64 of `key`, one SplitMix64 step with `seed`, modulo `k` (> 0).
pub fn fallback_index(seed: u64, key: &[u8], k: usize) -> usize {
    assert!(k > 0, "empty pool");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in key {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = h.wrapping_add(seed.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % k as u64) as usize
}

/// What the column driver does with each row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// VMCBench `get_mc_score`: options A..I, `parse_multi_choice`, seeded fallback.
    VmcBench,
    /// ImageMCQDataset prefetch: `can_infer` over the non-null options.
    CanInfer(Variant),
}

/// Per-row results; letters are ASCII codes, 0 = none.
#[derive(Debug, Default)]
pub struct McqOutput {
    /// The parsed letter (before any fallback).
    pub extracted: Vec<u8>,
    /// [`Rule`] code.
    pub rule: Vec<u8>,
    /// VMCBench: the seeded fallback letter where nothing parsed.
    pub fallback: Vec<u8>,
    /// VMCBench: size of the fallback pool (0 where no fallback).
    pub pool: Vec<u8>,
}

const BLOCK: usize = 4096;

/// Parse every row. `letters[j]` names `options[j]`; a null prediction reads as `"nan"`
/// (pandas NaN through `str()`), a null option cell is not a choice. `keys` (else the row
/// number) and `seed` drive the fallback draw.
///
/// # Panics
/// If the columns differ in length or `letters` holds anything but `A`..`Z`.
pub fn grade_columns<P, O, K>(
    pred: &P,
    letters: &[u8],
    options: &[&O],
    keys: Option<&K>,
    mode: Mode,
    seed: u64,
) -> McqOutput
where
    P: StrColumn + ?Sized,
    O: StrColumn + ?Sized,
    K: StrColumn + ?Sized,
{
    let n = pred.len();
    assert_eq!(letters.len(), options.len(), "one letter per option column");
    assert!(letters.iter().all(u8::is_ascii_uppercase), "option letters must be A..Z");
    assert!(options.iter().all(|o| o.len() == n), "option columns differ in length");
    assert!(keys.is_none_or(|k| k.len() == n), "key column differs in length");
    // Options in letter order (the references walk A, B, C, …), VMCBench only A..I.
    let mut order: Vec<usize> = (0..letters.len()).filter(|&j| mode != Mode::VmcBench || letters[j] <= b'I').collect();
    order.sort_by_key(|&j| letters[j]);
    assert!(order.windows(2).all(|w| letters[w[0]] != letters[w[1]]), "duplicate option letter");
    let has_a = letters.contains(&b'A');
    let mut rows = vec![[0u8; 4]; n];
    rows.par_chunks_mut(BLOCK).enumerate().for_each(|(b, chunk)| {
        let mut pc = pred.cursor();
        let mut ocs: Vec<O::Cursor<'_>> = options.iter().map(|o| o.cursor()).collect();
        let mut kc = keys.map(|k| k.cursor());
        let mut choices: Vec<Choice> = Vec::with_capacity(letters.len());
        let mut scratch = String::new();
        for (j, out) in chunk.iter_mut().enumerate() {
            let i = b * BLOCK + j;
            let p = pc.get(i).unwrap_or("nan");
            choices.clear();
            for &o in &order {
                if let Some(text) = ocs[o].get(i) {
                    choices.push(Choice { letter: letters[o], text });
                }
            }
            *out = match mode {
                Mode::CanInfer(variant) => {
                    let d = can_infer(p, &choices, variant);
                    [d.letter.unwrap_or(0), d.rule as u8, 0, 0]
                }
                Mode::VmcBench => {
                    if !has_a {
                        // `row["A"]` raises KeyError upstream.
                        [0, Rule::Error as u8, 0, 0]
                    } else if choices.first().is_none_or(|c| c.letter != b'A') {
                        [0, Rule::OptionAMissing as u8, 0, 0]
                    } else {
                        let d = parse_multi_choice_with(p, &choices, &mut scratch);
                        match d.letter {
                            Some(l) => [l, d.rule as u8, 0, 0],
                            None => {
                                let row_key;
                                let key = match kc.as_mut().and_then(|k| k.get(i)) {
                                    Some(k) => k.as_bytes(),
                                    None => {
                                        row_key = i.to_string();
                                        row_key.as_bytes()
                                    }
                                };
                                let pick = choices[fallback_index(seed, key, choices.len())].letter;
                                [0, d.rule as u8, pick, choices.len() as u8]
                            }
                        }
                    }
                }
            };
        }
    });
    let mut out = McqOutput {
        extracted: Vec::with_capacity(n),
        rule: Vec::with_capacity(n),
        fallback: Vec::with_capacity(n),
        pool: Vec::with_capacity(n),
    };
    for r in rows {
        out.extracted.push(r[0]);
        out.rule.push(r[1]);
        out.fallback.push(r[2]);
        out.pool.push(r[3]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abcd() -> Vec<Choice<'static>> {
        ["cat", "dog", "bird", "fish"]
            .iter()
            .enumerate()
            .map(|(i, t)| Choice { letter: b'A' + i as u8, text: t })
            .collect()
    }

    fn infer(answer: &str, v: Variant) -> Option<char> {
        can_infer(answer, &abcd(), v).letter.map(char::from)
    }

    #[test]
    fn spec_table_1_2() {
        use Variant::*;
        let rows: &[(&str, [Option<char>; 4])] = &[
            ("A dog", [Some('A'); 4]),
            ("The answer is a dog.", [Some('B'), Some('B'), Some('A'), Some('A')]),
            ("The answer is B, not A.", [None, None, Some('B'), Some('B')]),
            ("B is correct. Explanation: it is clearly a dog and not a cat", [Some('B'), None, None, Some('B')]),
            ("The answer is clearly B because A and C are wrong", [None, None, Some('C'), None]),
            ("<answer>c</answer>", [None, None, None, Some('C')]),
            ("\\boxed{ d }", [None, None, None, Some('D')]),
            ("\"B\"", [None, None, None, Some('B')]),
            ("The correct answer is: the cat", [Some('A'), None, None, Some('A')]),
            ("B w x y z", [Some('B'), None, None, Some('B')]),
            ("B is wrong, B is right, so the final is B", [Some('B'), None, None, Some('B')]),
            ("Answer: Dog", [Some('B'); 4]),
            ("Z is my answer", [Some('Z'); 4]),
            ("A or Z", [Some('A'); 4]),
            ("B\u{1c}", [Some('B'); 4]),
            ("B\u{200b}", [None; 4]),
            ("category", [Some('A'); 4]),
        ];
        for (answer, want) in rows {
            for (v, w) in [Classic, Aug2025, Jun2026, Dcvlr].into_iter().zip(want) {
                assert_eq!(infer(answer, v), *w, "{answer:?} {v:?}");
            }
        }
    }

    #[test]
    fn dec2023_option_stage() {
        let v = Variant::Dec2023;
        let nine: Vec<Choice> = "ABCDEFGHI".bytes().map(|l| Choice { letter: l, text: "zzz" }).collect();
        // The letter set is ABCDE whatever the options: E counts without an option E, G never.
        assert_eq!(infer("E", v), Some('E'));
        assert_eq!(infer("B or E", v), None);
        assert_eq!(can_infer("G", &nine, v).letter, None);
        assert_eq!(can_infer("G. zzz", &nine, v).letter, None); // every text matches
        assert_eq!(infer("Z is my answer", v), None);
        assert_eq!(infer("I can't process this file. B", v), Some('E'));
        assert_eq!(infer("Cannot determine the answer: B", v), Some('B'));
        assert_eq!(infer("Failed to obtain answer via API dog", v), Some('B'));
        assert_eq!(infer("a dog", v), Some('B'));
    }

    #[test]
    fn dcvlr_case_folding() {
        let nine: Vec<Choice> = "ABCDEFGHI".bytes().map(|l| Choice { letter: l, text: "zzz" }).collect();
        assert_eq!(can_infer("<answer>\u{131}</answer>", &nine, Variant::Dcvlr).letter, Some(b'I'));
        assert_eq!(can_infer("<ANSWER>\u{17f}</answer>", &abcd(), Variant::Dcvlr).letter, None);
        assert_eq!(can_infer("Answer: A, B", &abcd(), Variant::Dcvlr).letter, Some(b'A'));
        assert_eq!(can_infer("Answer: A, B", &abcd(), Variant::Classic).letter, None);
    }

    /// `head + unit * k + tail`, about `n` bytes.
    fn rep(unit: &str, n: usize, head: &str, tail: &str) -> String {
        let k = (n.saturating_sub(head.len() + tail.len()) / unit.len()).max(1);
        format!("{head}{}{tail}", unit.repeat(k))
    }

    #[test]
    fn matchers_do_linear_work_on_adversarial_shapes() {
        let shapes: Vec<crate::work::Shape> = vec![
            ("<answer>", Box::new(|n| rep("<answer>", n, "", ""))),
            ("<answer> + spaces", Box::new(|n| rep("<answer>                    ", n, "", ""))),
            ("<answer> A + spaces", Box::new(|n| rep("<answer> A                    ", n, "", ""))),
            ("\\boxed{", Box::new(|n| rep("\\boxed{", n, "", ""))),
            ("\\boxed + spaces", Box::new(|n| rep("\\boxed                    {", n, "", ""))),
            ("answer is", Box::new(|n| rep("answer is ", n, "", ""))),
            ("final answer is **", Box::new(|n| rep("The final answer is **", n, "", ""))),
            ("answer is + stars", Box::new(|n| rep("*", n, "answer is ", ""))),
            ("answer: + spaces", Box::new(|n| rep(" ", n, "answer:", ""))),
            ("letters", Box::new(|n| rep("A B ", n, "", ""))),
            ("whitespace", Box::new(|n| rep(" ", n, "", ""))),
            ("separators", Box::new(|n| rep(".,;:()[]", n, "", ""))),
            ("(A)", Box::new(|n| rep("(A)", n, "", ""))),
            ("A.", Box::new(|n| rep("A. ", n, "", ""))),
            ("strip chars", Box::new(|n| rep(",.!?;:'", n, "", ""))),
            ("option texts", Box::new(|n| rep("cat dog ", n, "", ""))),
            ("digits", Box::new(|n| rep("7", n, "", ""))),
            ("refusal prefixes", Box::new(|n| rep("Sorry, I can't help with images", n, "", ""))),
        ];
        let choices = abcd();
        for (name, make) in &shapes {
            for v in Variant::ALL {
                crate::work::assert_linear(&format!("can_infer {v:?} {name}"), 20_000, 12.0, make, |t| {
                    let _ = can_infer(t, &choices, v);
                });
            }
            crate::work::assert_linear(&format!("parse_multi_choice {name}"), 20_000, 12.0, make, |t| {
                let _ = parse_multi_choice(t, &choices);
            });
        }
        // Long option texts: the input is the answer and the options together.
        let long = |n: usize| (rep("a ", n, "", ""), rep("a ", n / 2, "", "b"));
        crate::work::assert_linear("long option texts", 20_000, 12.0, long, |(t, a)| {
            let cs = [Choice { letter: b'A', text: a }, Choice { letter: b'B', text: "x" }];
            let _ = can_infer(t, &cs, Variant::Classic);
            let _ = parse_multi_choice(t, &cs);
        });
    }

    fn parse(response: &str) -> Option<char> {
        parse_multi_choice(response, &abcd()).letter.map(char::from)
    }

    #[test]
    fn spec_table_2_2() {
        let rows: &[(&str, Option<char>)] = &[
            ("A.,", Some('A')),
            ("A,.", None),
            ("A) cat", None),
            ("(A) ... B. dog", Some('A')),
            ("Option A. cat or option B. dog", Some('A')),
            ("The answer is (A). Actually (B)", Some('B')),
            ("in DNA. The answer is B", Some('A')),
            ("The answer is B.\n", None),
            ("'B'", Some('B')),
            ("\"B\"", None),
            ("**B**", None),
            ("(b)", None),
            ("B\u{a0}", None),
            ("answer:C", None),
            ("it is a dog ok", None),
            ("it is a dog ok now", Some('B')),
            ("I think it is a dog not a cat really", Some('A')),
            ("dogfish is the answer for this one", Some('D')),
            (".;A;.", Some('A')),
            ("B!.", Some('B')),
            ("B.!", Some('B')),
        ];
        for (response, want) in rows {
            assert_eq!(parse(response), *want, "{response:?}");
        }
    }

    #[test]
    fn fallback_is_stable_and_in_range() {
        assert_eq!(fallback_index(0, b"17", 4), fallback_index(0, b"17", 4));
        for k in 1..10 {
            for seed in [0, 1, u64::MAX] {
                assert!(fallback_index(seed, b"key", k) < k);
            }
        }
        let spread: std::collections::HashSet<usize> =
            (0..200).map(|i| fallback_index(7, i.to_string().as_bytes(), 4)).collect();
        assert_eq!(spread.len(), 4);
    }

    #[test]
    fn column_driver_matches_scalar() {
        let preds: Vec<Option<String>> = (0..10_000)
            .map(|i| match i % 5 {
                0 => None,
                1 => Some(format!("({})", (b'A' + (i % 4) as u8) as char)),
                2 => Some("it is a dog for sure ok".to_string()),
                3 => Some("no idea at all".to_string()),
                _ => Some(format!("answer: {}", (b'a' + (i % 3) as u8) as char)),
            })
            .collect();
        let a: Vec<Option<&str>> = (0..10_000).map(|i| if i % 7 == 0 { None } else { Some("cat") }).collect();
        let b: Vec<Option<&str>> = vec![Some("dog"); 10_000];
        let c: Vec<Option<&str>> = (0..10_000).map(|i| if i % 3 == 0 { None } else { Some("bird") }).collect();
        let options: [&[Option<&str>]; 3] = [&a[..], &b[..], &c[..]];
        let out = grade_columns(&preds[..], b"ABC", &options, None::<&[Option<&str>]>, Mode::VmcBench, 3);
        for i in 0..preds.len() {
            let choices: Vec<Choice> = [(b'A', a[i]), (b'B', b[i]), (b'C', c[i])]
                .into_iter()
                .filter_map(|(l, t)| t.map(|text| Choice { letter: l, text }))
                .collect();
            if a[i].is_none() {
                assert_eq!(out.rule[i], Rule::OptionAMissing as u8);
                continue;
            }
            let d = parse_multi_choice(preds[i].as_deref().unwrap_or("nan"), &choices);
            assert_eq!(out.extracted[i], d.letter.unwrap_or(0), "row {i}");
            assert_eq!(out.rule[i], d.rule as u8);
            if d.letter.is_none() {
                let k = fallback_index(3, i.to_string().as_bytes(), choices.len());
                assert_eq!(out.fallback[i], choices[k].letter);
                assert_eq!(out.pool[i] as usize, choices.len());
            }
        }
        let keys: Vec<Option<String>> = (0..preds.len()).map(|i| Some(format!("k{i}"))).collect();
        // Letters given out of order are walked in letter order.
        let reversed: [&[Option<&str>]; 3] = [&c[..], &b[..], &a[..]];
        let out = grade_columns(&preds[..], b"CBA", &reversed, Some(&keys[..]), Mode::CanInfer(Variant::Dcvlr), 0);
        assert_eq!(out.extracted[4], b'B');
        for i in 0..preds.len() {
            let choices: Vec<Choice> = [(b'A', a[i]), (b'B', b[i]), (b'C', c[i])]
                .into_iter()
                .filter_map(|(l, t)| t.map(|text| Choice { letter: l, text }))
                .collect();
            let d = can_infer(preds[i].as_deref().unwrap_or("nan"), &choices, Variant::Dcvlr);
            assert_eq!((out.extracted[i], out.rule[i]), (d.letter.unwrap_or(0), d.rule as u8), "row {i}");
        }
    }
}
