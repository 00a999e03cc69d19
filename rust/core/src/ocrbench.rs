//! OCRBench's hit rule (VLMEvalKit `OCRBench.evaluate`, the same at c03bc048 and at head).
//!
//! A row hits when one of its answers, normalised, is a substring of the normalised
//! prediction. Normalisation: Python `lower()`, `strip()`, every `\n` to a space; for the
//! category "Handwritten Mathematical Expression Recognition" no lowercasing, and every
//! `\n` and space removed after the strip. Upstream re-normalises the prediction before each
//! answer; the normalisation is idempotent, so once is the same.

use memchr::memmem;
use rayon::prelude::*;

use crate::text::{is_py_space, py_lower};

/// The category whose rule drops spaces and keeps case.
pub const HME: &str = "Handwritten Mathematical Expression Recognition";

/// The normalised text (`hme`: the handwritten-math rule).
pub fn normalize(s: &str, hme: bool) -> String {
    let lowered;
    let s = if hme {
        s
    } else {
        lowered = py_lower(s);
        lowered.as_str()
    };
    let s = s.trim_matches(is_py_space);
    if hme {
        s.chars().filter(|&c| c != '\n' && c != ' ').collect()
    } else {
        s.replace('\n', " ")
    }
}

/// Index of the first answer whose normalised form occurs in the normalised prediction.
pub fn first_hit<'a>(prediction: &str, answers: impl IntoIterator<Item = &'a str>, hme: bool) -> Option<usize> {
    let p = normalize(prediction, hme);
    answers.into_iter().position(|a| memmem::find(p.as_bytes(), normalize(a, hme).as_bytes()).is_some())
}

/// [`first_hit`] for every row, rows in parallel: `answers[offsets[i]..offsets[i + 1]]` are
/// row `i`'s answers. `-1`: no answer found.
pub fn first_hits(predictions: &[&str], answers: &[&str], offsets: &[usize], hme: &[bool]) -> Vec<i64> {
    assert_eq!(offsets.len(), predictions.len() + 1, "one offset per row plus one");
    assert_eq!(hme.len(), predictions.len(), "one category flag per row");
    (0..predictions.len())
        .into_par_iter()
        .with_min_len(256)
        .map(|i| {
            let row = &answers[offsets[i]..offsets[i + 1]];
            first_hit(predictions[i], row.iter().copied(), hme[i]).map_or(-1, |j| j as i64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_and_newlines() {
        assert_eq!(first_hit("The word is \"Centre\".", ["CENTRE"], false), Some(0));
        assert_eq!(first_hit("a\nb", ["A B"], false), Some(0));
        assert_eq!(first_hit("  x  ", ["nope", " X\t"], false), Some(1));
        assert_eq!(first_hit("abc", [], false), None);
        // An answer empty after normalisation is in every prediction.
        assert_eq!(first_hit("abc", [" \n "], false), Some(0));
    }

    #[test]
    fn handwritten_math_keeps_case_drops_spaces() {
        assert_eq!(first_hit("x ^ { 2 }\n+ 1", ["x^{2}+1"], true), Some(0));
        assert_eq!(first_hit("X^{2}", ["x^{2}"], true), None);
        // Only spaces and newlines go; a tab inside stays.
        assert_eq!(first_hit("a\tb", ["ab"], true), None);
        assert_eq!(first_hit("İ", ["i̇"], false), Some(0));
    }

    #[test]
    fn column() {
        let preds = ["Hello", "x y", "none"];
        let answers = ["hello", "z", "xy", "q"];
        let offsets = [0, 1, 3, 4];
        assert_eq!(first_hits(&preds, &answers, &offsets, &[false, true, false]), vec![0, 1, -1]);
    }
}
