//! VLMEvalKit's yes/no extraction (`YOrN_Extraction`, used by MME, POPE, HallusionBench):
//! lowercase, VLMEvalKit's `process_punctuation`, split on whitespace, then "yes" only →
//! Yes, "no" only → No, otherwise Unknown.
//!
//! Two versions of `process_punctuation` differ in one regex (see [`Variant`]); both remove
//! at most 32 periods because upstream passes `re.UNICODE` (32) as `re.sub`'s `count`.

use rayon::prelude::*;

use crate::batch::{Cursor, StrColumn};
use crate::text::{digit_value, is_py_space, py_lower};

/// Which `process_punctuation` period rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `(?!<=\d)(\.)(?!\d)` (2024-03 … 2025-05-12): every `.` not followed by a digit goes.
    Classic,
    /// `(?<!\d)\.(?!\d)` (2025-05-13 … head): a `.` next to a digit on either side stays.
    V2025_05,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Classic, Variant::V2025_05];
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::V2025_05 => "2025-05",
        }
    }
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// The answer and why: the codes cross to Python as `u8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The word `yes` and not `no`: Yes.
    Yes = 0,
    /// The word `no` and not `yes`: No.
    No = 1,
    /// Both words: Unknown.
    Both = 2,
    /// Neither word: Unknown.
    Neither = 3,
}

impl Rule {
    pub const ALL: [Rule; 4] = [Rule::Yes, Rule::No, Rule::Both, Rule::Neither];
    pub fn name(self) -> &'static str {
        match self {
            Rule::Yes => "yes",
            Rule::No => "no",
            Rule::Both => "both",
            Rule::Neither => "neither",
        }
    }
    /// `"Yes"`, `"No"` or `"Unknown"`, as the reference writes it.
    pub fn answer(self) -> &'static str {
        match self {
            Rule::Yes => "Yes",
            Rule::No => "No",
            Rule::Both | Rule::Neither => "Unknown",
        }
    }
}

const PUNCT: [char; 21] = [
    ';', '/', '[', ']', '"', '{', '}', '(', ')', '=', '+', '\\', '_', '-', '>', '<', '@', '`', ',', '?', '!',
];
/// `re.UNICODE`, which upstream passes as the `count` of `re.sub`.
const PERIOD_COUNT: usize = 32;

fn punct_index(c: char) -> Option<usize> {
    PUNCT.iter().position(|&p| p == c)
}

fn is_digit(c: char) -> bool {
    digit_value(c).is_some()
}

/// VLMEvalKit `process_punctuation(text)` into `out` (cleared first).
pub fn process_punctuation_into(text: &str, variant: Variant, out: &mut String) {
    out.clear();
    let chars: Vec<char> = text.chars().collect();
    // `re.search(r'(\d)(,)(\d)', text)`: when it holds, every punctuation mark is removed.
    let comma_strip = chars.windows(3).any(|w| w[1] == ',' && is_digit(w[0]) && is_digit(w[2]));
    // Per mark: removed when `p + ' '` or `' ' + p` occurs in the input, else a space.
    let mut remove = [comma_strip; PUNCT.len()];
    if !comma_strip {
        for w in chars.windows(2) {
            if w[1] == ' ' {
                if let Some(k) = punct_index(w[0]) {
                    remove[k] = true;
                }
            }
            if w[0] == ' ' {
                if let Some(k) = punct_index(w[1]) {
                    remove[k] = true;
                }
            }
        }
    }
    // Each mark is one code point that neither rule produces, so one pass does all 21.
    let mut mid: Vec<char> = Vec::with_capacity(chars.len());
    for &c in &chars {
        match punct_index(c) {
            Some(k) if remove[k] => {}
            Some(_) => mid.push(' '),
            None => mid.push(c),
        }
    }
    // The period rule, looking at the text before any period is removed (as re.sub does).
    let mut removed = 0;
    for (i, &c) in mid.iter().enumerate() {
        if c == '.' && removed < PERIOD_COUNT {
            let digit_after = mid.get(i + 1).is_some_and(|&n| is_digit(n));
            let digit_before = i > 0 && is_digit(mid[i - 1]);
            let strip = !digit_after && (variant == Variant::Classic || !digit_before);
            if strip {
                removed += 1;
                continue;
            }
        }
        out.push(c);
    }
}

/// VLMEvalKit `process_punctuation(text)`.
pub fn process_punctuation(text: &str, variant: Variant) -> String {
    let mut out = String::new();
    process_punctuation_into(text, variant, &mut out);
    out
}

fn decide(words: &str) -> Rule {
    let (mut yes, mut no) = (false, false);
    for w in words.split(is_py_space) {
        match w {
            "yes" => yes = true,
            "no" => no = true,
            _ => {}
        }
    }
    match (yes, no) {
        (true, false) => Rule::Yes,
        (false, true) => Rule::No,
        (true, true) => Rule::Both,
        (false, false) => Rule::Neither,
    }
}

/// `YOrN_Extraction(output)` with the rule that decided; `scratch` is reused between rows.
pub fn extract_with(output: &str, variant: Variant, scratch: &mut String) -> Rule {
    // Neither word can survive in a text without a 'y' or an 'n' in any case (lowercasing
    // only makes 'y'/'n' from 'Y'/'N'): most long answers need no further work.
    let b = output.as_bytes();
    if !b.iter().any(|&c| matches!(c, b'y' | b'Y' | b'n' | b'N')) {
        return Rule::Neither;
    }
    process_punctuation_into(&py_lower(output), variant, scratch);
    decide(scratch)
}

/// `YOrN_Extraction(output)` with the rule that decided.
pub fn extract(output: &str, variant: Variant) -> Rule {
    extract_with(output, variant, &mut String::new())
}

const BLOCK: usize = 1024;

/// [`extract`] over a column, rows in parallel; a null row reads as `"nan"` (upstream
/// `str(nan)`), which is [`Rule::Neither`].
pub fn extract_column<C: StrColumn + ?Sized>(col: &C, variant: Variant) -> Vec<u8> {
    let n = col.len();
    let mut out = vec![0u8; n];
    out.par_chunks_mut(BLOCK).enumerate().for_each(|(b, chunk)| {
        let mut cur = col.cursor();
        let mut scratch = String::new();
        for (j, o) in chunk.iter_mut().enumerate() {
            let r = match cur.get(b * BLOCK + j) {
                Some(s) => extract_with(s, variant, &mut scratch),
                None => Rule::Neither,
            };
            *o = r as u8;
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(s: &str) -> &'static str {
        extract(s, Variant::Classic).answer()
    }

    #[test]
    fn words() {
        assert_eq!(ex("Yes, it is."), "Yes");
        assert_eq!(ex("No."), "No");
        assert_eq!(ex("yes and no"), "Unknown");
        assert_eq!(ex("Eyes open"), "Unknown");
        assert_eq!(ex("nan"), "Unknown");
        assert_eq!(ex("NO!"), "No");
        assert_eq!(ex("(yes)"), "Yes");
        assert_eq!(ex("yes-no"), "Unknown");
        assert_eq!(extract("yes - no", Variant::Classic), Rule::Both);
        // A '-' next to a space anywhere removes every '-': "yes-no" becomes one word.
        assert_eq!(ex("yes-no -"), "Unknown");
        assert_eq!(extract("yes-no -", Variant::Classic), Rule::Neither);
        // 1,000 anywhere removes every mark, including the '/' in "yes/no".
        assert_eq!(extract("yes/no 1,000", Variant::Classic), Rule::Neither);
        assert_eq!(extract("yes/no", Variant::Classic), Rule::Both);
    }

    #[test]
    fn periods() {
        // Only 32 periods are removed.
        let many = ". ".repeat(32) + "yes.";
        assert_eq!(extract(&many, Variant::Classic), Rule::Neither);
        let fewer = ". ".repeat(31) + "yes.";
        assert_eq!(extract(&fewer, Variant::Classic), Rule::Yes);
        // A period after a digit counts towards the 32 only in classic.
        let digits = "1. ".repeat(32) + "yes.";
        assert_eq!(extract(&digits, Variant::Classic), Rule::Neither);
        assert_eq!(extract(&digits, Variant::V2025_05), Rule::Yes);
        assert_eq!(process_punctuation("3.5. a.b 7.", Variant::Classic), "3.5 ab 7");
        assert_eq!(process_punctuation("3.5. a.b 7.", Variant::V2025_05), "3.5. ab 7.");
    }

    #[test]
    fn unicode() {
        // U+0130 lowers to two code points; U+001C is Python whitespace.
        assert_eq!(ex("YES\u{1c}"), "Yes");
        assert_eq!(ex("\u{130}yes"), "Unknown");
        assert_eq!(ex("no\u{200b}"), "Unknown");
        // A Unicode digit before ',' and after: every mark removed.
        assert_eq!(process_punctuation("\u{661},\u{662} (x)", Variant::Classic), "\u{661}\u{662} x");
    }
}
