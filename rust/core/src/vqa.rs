//! VLMEvalKit's open-VQA scoring (`vlmeval/dataset/utils/vqa_eval.py`, used by
//! `ImageVQADataset`): TextVQA's VQA accuracy over normalised answers, ChartQA's relaxed
//! accuracy, OCRVQA/GQA's exact accuracy, DocVQA/InfoVQA's ANLS, and the `np.mean` that
//! averages them.
//!
//! Every row's answers come from the `answer` cell: a Python list literal is the list of
//! reference answers (upstream `eval`s it), anything else is the one answer.

use rayon::prelude::*;

use crate::batch::{Cursor, StrColumn};
use crate::numpy::np_mean;
use crate::text::{is_py_space, py_float, py_lower};
use crate::unicode_tables::UPPER_LONG;
use crate::yorn::{process_punctuation_into, Variant as Punct};

/// Which version of the evaluation code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// 2024-03-27 … 2025-05-12: classic `process_punctuation`; ChartQA calls
    /// `relaxed_correctness(prediction, answer)` (arguments swapped).
    Classic,
    /// 2025-05-13 … 2025-08-31: `(?<!\d)\.(?!\d)` period rule; arguments still swapped.
    V2025_05,
    /// 2025-09-01 … head: `relaxed_correctness(answer, prediction)`.
    V2025_09,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Classic, Variant::V2025_05, Variant::V2025_09];
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::V2025_05 => "2025-05",
            Variant::V2025_09 => "2025-09",
        }
    }
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }
    fn punct(self) -> Punct {
        match self {
            Variant::Classic => Punct::Classic,
            _ => Punct::V2025_05,
        }
    }
    fn relaxed_swapped(self) -> bool {
        self != Variant::V2025_09
    }
}

/// `process_line`'s `method` with `hit_calculate`'s reduction of a row's matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// TextVQA: `vqa_score`, the row's hit is the mean of its matches.
    VqaScore = 0,
    /// ChartQA: `relaxed_accuracy`, the best match.
    Relaxed = 1,
    /// OCRVQA: `accuracy`, the best match.
    Accuracy = 2,
    /// GQA: `accuracy`, the mean of the matches (its name is in no `hit_calculate` list).
    AccuracyMean = 3,
    /// DocVQA, InfoVQA: `anls`, `1 - min distance`, 0 under the 0.5 threshold.
    Anls = 4,
}

impl Method {
    pub const ALL: [Method; 5] = [Method::VqaScore, Method::Relaxed, Method::Accuracy, Method::AccuracyMean, Method::Anls];
    pub fn name(self) -> &'static str {
        match self {
            Method::VqaScore => "vqa_score",
            Method::Relaxed => "relaxed_accuracy",
            Method::Accuracy => "accuracy",
            Method::AccuracyMean => "accuracy_mean",
            Method::Anls => "anls",
        }
    }
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// What decided a row; the codes cross to Python as `u8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// VQA accuracy: the normalised prediction equals at least one normalised answer.
    VqaMatch = 0,
    /// VQA accuracy: it equals none.
    VqaNone = 1,
    /// Exact accuracy: equal to an answer after strip and lower.
    Exact = 2,
    /// Exact accuracy: equal to none.
    Differ = 3,
    /// Relaxed: both numbers, within 5 %.
    NumberClose = 4,
    /// Relaxed: both numbers, further apart (best answer).
    NumberFar = 5,
    /// Relaxed: not both numbers (or a zero divisor); equal ignoring case.
    TextEqual = 6,
    /// Relaxed: not both numbers; different (best answer).
    TextDiffer = 7,
    /// ANLS: similarity at or above 0.5 (the score is the similarity).
    AnlsScore = 8,
    /// ANLS: similarity under 0.5 (score 0).
    AnlsBelow = 9,
    /// No reference answer (an empty list): the mean is NaN; the other methods raise upstream.
    NoAnswers = 10,
}

impl Rule {
    pub const ALL: [Rule; 11] = [
        Rule::VqaMatch,
        Rule::VqaNone,
        Rule::Exact,
        Rule::Differ,
        Rule::NumberClose,
        Rule::NumberFar,
        Rule::TextEqual,
        Rule::TextDiffer,
        Rule::AnlsScore,
        Rule::AnlsBelow,
        Rule::NoAnswers,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Rule::VqaMatch => "vqa_match",
            Rule::VqaNone => "vqa_none",
            Rule::Exact => "exact",
            Rule::Differ => "differ",
            Rule::NumberClose => "number_close",
            Rule::NumberFar => "number_far",
            Rule::TextEqual => "text_equal",
            Rule::TextDiffer => "text_differ",
            Rule::AnlsScore => "anls",
            Rule::AnlsBelow => "anls_below",
            Rule::NoAnswers => "no_answers",
        }
    }
}

// --------------------------------------------------------------------------------------
// Answer normalisation (TextVQA)
// --------------------------------------------------------------------------------------

const ARTICLES: [&str; 3] = ["a", "an", "the"];

fn number_word(w: &str) -> Option<&'static str> {
    Some(match w {
        "none" | "zero" => "0",
        "one" => "1",
        "two" => "2",
        "three" => "3",
        "four" => "4",
        "five" => "5",
        "six" => "6",
        "seven" => "7",
        "eight" => "8",
        "nine" => "9",
        "ten" => "10",
        _ => return None,
    })
}

/// Upstream's `contractions` table, sorted by key for a binary search. Keys with capitals
/// (`Im`, `Ive`, `Id've`, `I'dve`) are kept although the words they are compared with are
/// lowercased and never hold a capital.
static CONTRACTIONS: [(&str, &str); 120] = [
    ("'ow'sat", "'ow's'at"),
    ("'ows'at", "'ow's'at"),
    ("I'dve", "I'd've"),
    ("Id've", "I'd've"),
    ("Im", "I'm"),
    ("Ive", "I've"),
    ("aint", "ain't"),
    ("arent", "aren't"),
    ("cant", "can't"),
    ("couldn'tve", "couldn't've"),
    ("couldnt", "couldn't"),
    ("couldnt've", "couldn't've"),
    ("couldve", "could've"),
    ("didnt", "didn't"),
    ("doesnt", "doesn't"),
    ("dont", "don't"),
    ("hadn'tve", "hadn't've"),
    ("hadnt", "hadn't"),
    ("hadnt've", "hadn't've"),
    ("hasnt", "hasn't"),
    ("havent", "haven't"),
    ("he'dve", "he'd've"),
    ("hed", "he'd"),
    ("hed've", "he'd've"),
    ("hes", "he's"),
    ("howd", "how'd"),
    ("howll", "how'll"),
    ("hows", "how's"),
    ("isnt", "isn't"),
    ("it'dve", "it'd've"),
    ("itd", "it'd"),
    ("itd've", "it'd've"),
    ("itll", "it'll"),
    ("let's", "let's"),
    ("maam", "ma'am"),
    ("mightn'tve", "mightn't've"),
    ("mightnt", "mightn't"),
    ("mightnt've", "mightn't've"),
    ("mightve", "might've"),
    ("mustnt", "mustn't"),
    ("mustve", "must've"),
    ("neednt", "needn't"),
    ("notve", "not've"),
    ("oclock", "o'clock"),
    ("oughtnt", "oughtn't"),
    ("ow's'at", "'ow's'at"),
    ("shant", "shan't"),
    ("she'dve", "she'd've"),
    ("she's", "she's"),
    ("shed've", "she'd've"),
    ("shouldn'tve", "shouldn't've"),
    ("shouldnt", "shouldn't"),
    ("shouldnt've", "shouldn't've"),
    ("shouldve", "should've"),
    ("somebody'd", "somebodyd"),
    ("somebody'dve", "somebody'd've"),
    ("somebodyd've", "somebody'd've"),
    ("somebodyll", "somebody'll"),
    ("somebodys", "somebody's"),
    ("someone'dve", "someone'd've"),
    ("someoned", "someone'd"),
    ("someoned've", "someone'd've"),
    ("someonell", "someone'll"),
    ("someones", "someone's"),
    ("something'dve", "something'd've"),
    ("somethingd", "something'd"),
    ("somethingd've", "something'd've"),
    ("somethingll", "something'll"),
    ("thats", "that's"),
    ("there'dve", "there'd've"),
    ("thered", "there'd"),
    ("thered've", "there'd've"),
    ("therere", "there're"),
    ("theres", "there's"),
    ("they'dve", "they'd've"),
    ("theyd", "they'd"),
    ("theyd've", "they'd've"),
    ("theyll", "they'll"),
    ("theyre", "they're"),
    ("theyve", "they've"),
    ("twas", "'twas"),
    ("wasnt", "wasn't"),
    ("we'dve", "we'd've"),
    ("wed've", "we'd've"),
    ("werent", "weren't"),
    ("weve", "we've"),
    ("whatll", "what'll"),
    ("whatre", "what're"),
    ("whats", "what's"),
    ("whatve", "what've"),
    ("whens", "when's"),
    ("whered", "where'd"),
    ("wheres", "where's"),
    ("whereve", "where've"),
    ("who'dve", "who'd've"),
    ("whod", "who'd"),
    ("whod've", "who'd've"),
    ("wholl", "who'll"),
    ("whos", "who's"),
    ("whove", "who've"),
    ("whyll", "why'll"),
    ("whyre", "why're"),
    ("whys", "why's"),
    ("wont", "won't"),
    ("wouldn'tve", "wouldn't've"),
    ("wouldnt", "wouldn't"),
    ("wouldnt've", "wouldn't've"),
    ("wouldve", "would've"),
    ("y'all'dve", "y'all'd've"),
    ("y'alld've", "y'all'd've"),
    ("y'allll", "y'all'll"),
    ("yall", "y'all"),
    ("yall'd've", "y'all'd've"),
    ("yall'll", "y'all'll"),
    ("you'dve", "you'd've"),
    ("youd", "you'd"),
    ("youd've", "you'd've"),
    ("youll", "you'll"),
    ("youre", "you're"),
    ("youve", "you've"),
];

fn contraction(w: &str) -> Option<&'static str> {
    CONTRACTIONS.binary_search_by(|(k, _)| k.cmp(&w)).ok().map(|i| CONTRACTIONS[i].1)
}

/// `_process_digit_article(text)`: lowercase, split on whitespace, number words to
/// digits, articles dropped, contractions restored, joined by one space.
pub fn process_digit_article_into(text: &str, out: &mut String) {
    out.clear();
    let lower = py_lower(text);
    for word in lower.split(is_py_space).filter(|w| !w.is_empty()) {
        let word = number_word(word).unwrap_or(word);
        if ARTICLES.contains(&word) {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(contraction(word).unwrap_or(word));
    }
}

/// `process_answer(text)`: newlines and tabs to spaces, strip, `process_punctuation`,
/// `_process_digit_article`.
pub fn process_answer_into(text: &str, variant: Variant, scratch: &mut String, out: &mut String) {
    let spaced: String = text.chars().map(|c| if c == '\n' || c == '\t' { ' ' } else { c }).collect();
    process_punctuation_into(spaced.trim_matches(is_py_space), variant.punct(), scratch);
    process_digit_article_into(scratch, out);
}

/// `process_answer(text)`.
pub fn process_answer(text: &str, variant: Variant) -> String {
    let mut out = String::new();
    process_answer_into(text, variant, &mut String::new(), &mut out);
    out
}

// --------------------------------------------------------------------------------------
// Relaxed accuracy (ChartQA), ANLS, numpy's mean
// --------------------------------------------------------------------------------------

fn to_float(text: &str) -> Option<f64> {
    if text.ends_with('%') {
        py_float(text.trim_end_matches('%')).map(|v| v / 100.0)
    } else {
        py_float(text)
    }
}

/// `relaxed_correctness(target, prediction)` (max relative change 0.05), with the rule.
pub fn relaxed_correctness(target: &str, prediction: &str) -> (bool, Rule) {
    if let (Some(p), Some(t)) = (to_float(prediction), to_float(target)) {
        // `if prediction_float is not None and target_float`: NaN is truthy, 0.0 is not.
        if t != 0.0 {
            let ok = (p - t).abs() / t.abs() <= 0.05;
            return (ok, if ok { Rule::NumberClose } else { Rule::NumberFar });
        }
    }
    let ok = py_lower(prediction) == py_lower(target);
    (ok, if ok { Rule::TextEqual } else { Rule::TextDiffer })
}

/// Python `len(s.upper())`.
pub fn py_upper_len(s: &str) -> usize {
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                1
            } else {
                UPPER_LONG.binary_search_by_key(&(c as u32), |&(k, _)| k).map_or(1, |i| UPPER_LONG[i].1 as usize)
            }
        })
        .sum()
}

fn collapse_lower(s: &str) -> Vec<char> {
    let lower = py_lower(s);
    let mut out = Vec::with_capacity(lower.len());
    for w in lower.split(is_py_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(w.chars());
    }
    out
}

/// Levenshtein distance between two code-point sequences.
pub fn levenshtein(a: &[char], b: &[char]) -> usize {
    let (a, b) = if a.len() > b.len() { (b, a) } else { (a, b) };
    let mut row: Vec<usize> = (0..=a.len()).collect();
    for (j, &cb) in b.iter().enumerate() {
        let mut diag = row[0];
        row[0] = j + 1;
        for (i, &ca) in a.iter().enumerate() {
            let next = if ca == cb { diag } else { 1 + diag.min(row[i]).min(row[i + 1]) };
            diag = row[i + 1];
            row[i + 1] = next;
        }
    }
    row[a.len()]
}

/// `anls_compute(groundtruth, prediction)`: the normalised edit distance (0 = equal).
pub fn anls_compute(groundtruth: &str, prediction: &str) -> f64 {
    let gt = collapse_lower(groundtruth);
    let det = collapse_lower(prediction);
    let dist = levenshtein(&gt, &det);
    let length = py_upper_len(groundtruth).max(py_upper_len(prediction));
    if length == 0 {
        0.0
    } else {
        dist as f64 / length as f64
    }
}

// --------------------------------------------------------------------------------------
// The answer list
// --------------------------------------------------------------------------------------

/// What the `answer` cell holds for `istype(answer, list)` / `eval(answer)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answers {
    /// Not a list: the cell is the one answer.
    Single,
    /// A list literal of string literals.
    List(Vec<String>),
    /// Holds a `[` but is not the plain form read here (prefixes, triple quotes, `\N{}`,
    /// numbers, concatenation, comments…): Python's literal parser decides.
    Undecided,
}

fn hex_escape(chars: &[char], i: &mut usize, digits: usize) -> Option<char> {
    let s: String = chars.get(*i..*i + digits)?.iter().collect();
    if s.len() != digits || !s.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    *i += digits;
    char::from_u32(u32::from_str_radix(&s, 16).ok()?)
}

/// One plain string literal starting at `chars[*i]` (a quote); `None` = not plain.
fn string_literal(chars: &[char], i: &mut usize) -> Option<String> {
    let q = chars[*i];
    if chars.get(*i + 1) == Some(&q) && chars.get(*i + 2) == Some(&q) {
        return None; // triple-quoted
    }
    *i += 1;
    let mut out = String::new();
    loop {
        let c = *chars.get(*i)?;
        *i += 1;
        match c {
            _ if c == q => return Some(out),
            '\n' | '\r' => return None,
            '\\' => {
                let e = *chars.get(*i)?;
                *i += 1;
                match e {
                    '\n' => {}
                    '\\' | '\'' | '"' => out.push(e),
                    'a' => out.push('\x07'),
                    'b' => out.push('\x08'),
                    'f' => out.push('\x0c'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'v' => out.push('\x0b'),
                    '0'..='7' => {
                        let mut v = e as u32 - '0' as u32;
                        for _ in 0..2 {
                            match chars.get(*i) {
                                Some(&d @ '0'..='7') => {
                                    v = v * 8 + (d as u32 - '0' as u32);
                                    *i += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push(char::from_u32(v)?);
                    }
                    'x' => out.push(hex_escape(chars, i, 2)?),
                    'u' => out.push(hex_escape(chars, i, 4)?),
                    'U' => out.push(hex_escape(chars, i, 8)?),
                    '\r' | 'N' => return None,
                    _ => {
                        // An unknown escape keeps its backslash.
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            _ => out.push(c),
        }
    }
}

/// Read the `answer` cell as upstream's `istype(answer, list)` and `eval` do, for the
/// plain list literal `repr()` writes; anything else holding a `[` is [`Answers::Undecided`].
pub fn parse_answers(s: &str) -> Answers {
    if !s.contains('[') || s.contains('\0') {
        // A list literal needs a bracket; eval refuses a NUL.
        return Answers::Single;
    }
    let chars: Vec<char> = s.chars().collect();
    let gap = |c: char| c == ' ' || c == '\t' || c == '\n';
    let mut i = 0;
    while i < chars.len() && (chars[i] == ' ' || chars[i] == '\t') {
        i += 1;
    }
    if chars.get(i) != Some(&'[') {
        return Answers::Undecided;
    }
    i += 1;
    let mut items = Vec::new();
    loop {
        while i < chars.len() && gap(chars[i]) {
            i += 1;
        }
        match chars.get(i) {
            Some(']') => {
                i += 1;
                break;
            }
            Some('\'') | Some('"') => {
                let Some(item) = string_literal(&chars, &mut i) else { return Answers::Undecided };
                items.push(item);
                while i < chars.len() && gap(chars[i]) {
                    i += 1;
                }
                match chars.get(i) {
                    Some(',') => i += 1,
                    Some(']') => {
                        i += 1;
                        break;
                    }
                    _ => return Answers::Undecided,
                }
            }
            _ => return Answers::Undecided,
        }
    }
    if chars[i..].iter().all(|&c| gap(c)) {
        Answers::List(items)
    } else {
        Answers::Undecided
    }
}

// --------------------------------------------------------------------------------------
// One row
// --------------------------------------------------------------------------------------

/// A row's result: its hit (what `hit_calculate` gives it), the rule that decided, the
/// prediction as the method reads it and how many answers it matched.
#[derive(Clone, Debug, PartialEq)]
pub struct RowScore {
    pub hit: f64,
    pub rule: Rule,
    pub extracted: String,
    pub matched: u32,
}

/// `process_line(line, method)` then `hit_calculate` for one row. `prediction` is
/// `str(prediction)`; `answers` the row's answers, each `str`.
pub fn score_row<S: AsRef<str>>(prediction: &str, answers: &[S], method: Method, variant: Variant) -> RowScore {
    let n = answers.len();
    match method {
        Method::VqaScore => {
            let (mut scratch, mut buf) = (String::new(), String::new());
            process_answer_into(prediction, variant, &mut scratch, &mut buf);
            let pred = buf.clone();
            let gts: Vec<String> = answers
                .iter()
                .map(|a| {
                    process_answer_into(a.as_ref(), variant, &mut scratch, &mut buf);
                    buf.clone()
                })
                .collect();
            let eq: Vec<bool> = gts.iter().map(|g| *g == pred).collect();
            let total = eq.iter().filter(|&&e| e).count();
            // Answer k counts the matches among the other answers: min(1, m / 3).
            let matches: Vec<f64> = eq
                .iter()
                .map(|&e| {
                    let m = total - e as usize;
                    let acc = m as f64 / 3.0;
                    if acc < 1.0 {
                        acc
                    } else {
                        1.0
                    }
                })
                .collect();
            let rule = if n == 0 {
                Rule::NoAnswers
            } else if total > 0 {
                Rule::VqaMatch
            } else {
                Rule::VqaNone
            };
            RowScore { hit: np_mean(&matches), rule, extracted: pred, matched: total as u32 }
        }
        Method::Relaxed => {
            let pred = prediction.trim_matches(is_py_space);
            let mut best: Option<(bool, Rule)> = None;
            let mut matched = 0;
            for a in answers {
                let a = a.as_ref();
                let r = if variant.relaxed_swapped() { relaxed_correctness(pred, a) } else { relaxed_correctness(a, pred) };
                matched += r.0 as u32;
                if best.is_none_or(|b| !b.0 && r.0) {
                    best = Some(r);
                }
            }
            match best {
                None => RowScore { hit: f64::NAN, rule: Rule::NoAnswers, extracted: pred.to_string(), matched: 0 },
                Some((ok, rule)) => RowScore { hit: ok as u8 as f64, rule, extracted: pred.to_string(), matched },
            }
        }
        Method::Accuracy | Method::AccuracyMean => {
            let pred = prediction.trim_matches(is_py_space);
            let pl = py_lower(pred);
            let matched = answers.iter().filter(|a| py_lower(a.as_ref().trim_matches(is_py_space)) == pl).count();
            let hit = if method == Method::Accuracy {
                if n == 0 {
                    f64::NAN
                } else {
                    (matched > 0) as u8 as f64
                }
            } else {
                let m: Vec<f64> = answers.iter().map(|a| (py_lower(a.as_ref().trim_matches(is_py_space)) == pl) as u8 as f64).collect();
                np_mean(&m)
            };
            let rule = if n == 0 {
                Rule::NoAnswers
            } else if matched > 0 {
                Rule::Exact
            } else {
                Rule::Differ
            };
            RowScore { hit, rule, extracted: pred.to_string(), matched: matched as u32 }
        }
        Method::Anls => {
            let dist: Vec<f64> = answers.iter().map(|a| anls_compute(a.as_ref(), prediction)).collect();
            // np.min: no distance is NaN (lengths are finite), so a plain minimum.
            let min = dist.iter().copied().reduce(f64::min);
            let extracted: String = collapse_lower(prediction).into_iter().collect();
            match min {
                None => RowScore { hit: f64::NAN, rule: Rule::NoAnswers, extracted, matched: 0 },
                Some(m) => {
                    let sim = 1.0 - m;
                    // `1 - min < 0.5` gives 0 upstream; no distance is NaN.
                    let above = sim >= 0.5;
                    let matched = dist.iter().filter(|&&d| d == m).count() as u32;
                    RowScore { hit: if above { sim } else { 0.0 }, rule: if above { Rule::AnlsScore } else { Rule::AnlsBelow }, extracted, matched }
                }
            }
        }
    }
}

/// A row of [`score_column`]: its score, or `None` when its answer cell is
/// [`Answers::Undecided`] (the caller reads it with Python's literal parser).
pub type ColumnRow = Option<RowScore>;

const BLOCK: usize = 1024;

/// [`score_row`] over two columns (`prediction`, `answer`, each `str()` of the cell; a
/// null reads as `"nan"`), rows in parallel.
pub fn score_column<P, A>(pred: &P, answer: &A, method: Method, variant: Variant) -> Vec<ColumnRow>
where
    P: StrColumn + ?Sized,
    A: StrColumn + ?Sized,
{
    let n = pred.len().min(answer.len());
    let mut out: Vec<ColumnRow> = vec![None; n];
    out.par_chunks_mut(BLOCK).enumerate().for_each(|(b, chunk)| {
        let (mut pc, mut ac) = (pred.cursor(), answer.cursor());
        for (j, o) in chunk.iter_mut().enumerate() {
            let i = b * BLOCK + j;
            let p = pc.get(i).unwrap_or("nan");
            let a = ac.get(i).unwrap_or("nan");
            *o = match parse_answers(a) {
                Answers::Single => Some(score_row(p, &[a], method, variant)),
                Answers::List(items) => Some(score_row(p, &items, method, variant)),
                Answers::Undecided => None,
            };
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation() {
        let v = Variant::Classic;
        assert_eq!(process_answer("The Two dogs.", v), "2 dogs");
        assert_eq!(process_answer("  dont\tknow\n", v), "don't know");
        assert_eq!(process_answer("Im here", v), "im here");
        assert_eq!(process_answer("1,000 (approx)", v), "1000 approx");
        assert_eq!(process_answer("x-y", v), "x y");
        assert_eq!(process_answer("x - y", v), "x y");
        assert_eq!(process_answer("a-b", v), "b");
        assert_eq!(process_answer("3.5.", v), "3.5");
        assert_eq!(process_answer("none", v), "0");
        assert_eq!(process_answer("an a the", v), "");
        // A period after a digit: removed in classic, kept from 2025-05.
        assert_eq!(process_answer("7.", v), "7");
        assert_eq!(process_answer("7.", Variant::V2025_05), "7.");
        assert!(CONTRACTIONS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn relaxed() {
        assert_eq!(relaxed_correctness("100", "104"), (true, Rule::NumberClose));
        assert_eq!(relaxed_correctness("100", "106"), (false, Rule::NumberFar));
        assert_eq!(relaxed_correctness("50%", "0.51"), (true, Rule::NumberClose));
        assert_eq!(relaxed_correctness("0", "0.0"), (false, Rule::TextDiffer));
        assert_eq!(relaxed_correctness("Yes", "yes"), (true, Rule::TextEqual));
        assert_eq!(relaxed_correctness("nan", "nan"), (false, Rule::NumberFar));
        // Swapped arguments divide by the prediction.
        let s = score_row("105", &["100"], Method::Relaxed, Variant::Classic);
        assert_eq!(s.hit, 1.0);
        let s = score_row("95", &["100"], Method::Relaxed, Variant::Classic);
        assert_eq!(s.hit, 0.0); // 5/95 > 0.05
        let s = score_row("95", &["100"], Method::Relaxed, Variant::V2025_09);
        assert_eq!(s.hit, 1.0);
    }

    #[test]
    fn anls() {
        assert_eq!(anls_compute("Hello", "hello"), 0.0);
        assert_eq!(anls_compute("abcd", "abce"), 0.25);
        assert_eq!(py_upper_len("straße"), 7);
        let s = score_row("abce", &["abcd", "xyz"], Method::Anls, Variant::Classic);
        assert_eq!((s.hit, s.rule), (0.75, Rule::AnlsScore));
        let s = score_row("ab", &["abcd"], Method::Anls, Variant::Classic);
        assert_eq!((s.hit, s.rule), (0.5, Rule::AnlsScore));
        let s = score_row("a", &["abcd"], Method::Anls, Variant::Classic);
        assert_eq!((s.hit, s.rule), (0.0, Rule::AnlsBelow));
        assert_eq!(levenshtein(&['k', 'i', 't', 't', 'e', 'n'], &['s', 'i', 't', 't', 'i', 'n', 'g']), 3);
    }

    #[test]
    fn vqa_score() {
        let gts = ["dakota"; 10];
        let s = score_row("Dakota.", &gts, Method::VqaScore, Variant::Classic);
        assert_eq!((s.hit, s.rule, s.matched), (1.0, Rule::VqaMatch, 10));
        let mut two = vec!["x"; 8];
        two.extend(["y", "y"]);
        let s = score_row("y", &two, Method::VqaScore, Variant::Classic);
        // Two answers see one other match (1/3), eight see two (2/3): mean 0.6.
        assert_eq!(s.hit, np_mean(&[2.0 / 3.0; 8].iter().copied().chain([1.0 / 3.0, 1.0 / 3.0]).collect::<Vec<_>>()));
        assert!(score_row("y", &[] as &[&str], Method::VqaScore, Variant::Classic).hit.is_nan());
    }

    #[test]
    fn answer_lists() {
        assert_eq!(parse_answers("plain"), Answers::Single);
        assert_eq!(parse_answers("['a', \"b'c\", 'd\\'e\\n\\x41\\u00e9']"), Answers::List(vec!["a".into(), "b'c".into(), "d'e\nA\u{e9}".into()]));
        assert_eq!(parse_answers(" [ ]\n"), Answers::List(vec![]));
        assert_eq!(parse_answers("['a',]"), Answers::List(vec!["a".into()]));
        assert_eq!(parse_answers("[1, 2]"), Answers::Undecided);
        assert_eq!(parse_answers("['a' 'b']"), Answers::Undecided);
        assert_eq!(parse_answers("x[0]"), Answers::Undecided);
        assert_eq!(parse_answers("['\\d']"), Answers::List(vec!["\\d".into()]));
        assert_eq!(parse_answers("['\\101\\0']"), Answers::List(vec!["A\0".into()]));
    }
}
