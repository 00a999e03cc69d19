//! Property tests of the Python-exact text primitives (`gaia_fast_core::text`): no panic
//! on any input, the invariants each one promises, and agreement with small, obviously
//! correct reference implementations (byte loops, Rust's own parsers and Unicode tables
//! where they coincide with CPython's). The word-at-a-time, table and AVX-512 fast paths
//! are checked against the slow ones this way.

use gaia_fast_core::text::{self, NormRule};
use proptest::prelude::*;

/// Text biased towards what the primitives branch on: ASCII digits, signs, points,
/// exponents, underscores, `$ % ,`, Python/JS whitespace (also U+001C..U+001F, U+0085,
/// U+FEFF), digits of other scripts, case-special letters (Σ, İ, K, ß), combining marks
/// and arbitrary code points.
fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(vec![
            '0', '1', '5', '9', '.', '-', '+', 'e', 'E', '_', '$', '%', ',', 'i', 'n', 'f', 'a', 'N', 'I', 'x',
            ' ', '\t', '\n', '\u{0b}', '\u{0c}', '\r', '\u{1c}', '\u{1f}', '\u{85}', '\u{a0}', '\u{2007}',
            '\u{200b}', '\u{3000}', '\u{feff}', '\u{180e}', '\u{0}',
            '\u{660}', '\u{669}', '\u{966}', '\u{ff15}', '\u{1d7ce}', '\u{b2}', '\u{bd}',
            'Σ', 'σ', 'ς', 'İ', 'K', 'ß', 'ẞ', 'ǅ', '\u{301}', '\u{345}', '\'', '"', '\\', '!', '?', 'A', 'Z', 'z',
        ]),
        1 => any::<char>(),
    ]
}

fn tricky_string() -> impl Strategy<Value = String> {
    prop::collection::vec(tricky_char(), 0..40).prop_map(|v| v.into_iter().collect())
}

/// Strings that are mostly Python float literals (valid and near-valid), ASCII only.
fn float_like() -> impl Strategy<Value = String> {
    let part = prop::sample::select(vec![
        "0", "1", "12", "007", "9999999999999999999", "1_000", "1__0", "_1", "1_", ".", "5.", ".5",
        "e", "E", "e5", "e-3", "E+10", "e400", "e-400", "inf", "INF", "Infinity", "infinit", "nan", "NaN",
        "-", "+", " ", "\t", "\n", "\u{b}", "\u{c}", "\r", "\u{1c}", "x", "_",
    ]);
    prop::collection::vec(part, 1..6).prop_map(|v| v.concat())
}

fn rules() -> impl Strategy<Value = NormRule> {
    (any::<bool>(), any::<bool>()).prop_map(|(drop_punct, lower)| NormRule { drop_punct, lower })
}

const PUNCT: &[u8] = b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// Python `float()` on ASCII text, from its grammar: strip whitespace (not U+001C..U+001F,
/// which `str.isspace()` counts but `float()` does not strip), underscores only between
/// digits, then Rust's parser (which reads the same literal set without them).
fn reference_float(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r'));
    let b = t.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'_' {
            let ok = i > 0 && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !ok {
                return None;
            }
        }
    }
    let plain: String = t.chars().filter(|&c| c != '_').collect();
    let body = plain.strip_prefix(['+', '-']).unwrap_or(&plain);
    // Rust also reads forms Python rejects: a second sign, and words like "infinity"
    // with different case are the same in both.
    if body.starts_with(['+', '-']) || body.is_empty() {
        return None;
    }
    plain.parse::<f64>().ok()
}

fn same_float(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits(),
        (None, None) => true,
        _ => false,
    }
}

/// Reverse of [`text::quote`], to check that quoting loses nothing.
fn unquote(q: &str) -> Option<String> {
    let inner = q.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        if c == '"' {
            return None; // an unescaped quote inside
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next()? {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => {
                if it.next()? != '{' {
                    return None;
                }
                let hex: String = it.by_ref().take_while(|&c| c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Zeros of decimal-digit blocks (Unicode Nd) other than ASCII.
const OTHER_ZEROS: &[u32] = &[0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0xFF10, 0x104A0, 0x1D7CE];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn byte_search_matches_a_byte_loop(
        s in prop::collection::vec(prop_oneof![3 => prop::sample::select(b"$%,ab \x80\xff".to_vec()), 1 => any::<u8>()], 0..70),
        set in prop::collection::vec(1u8..=255, 1..4),
        from_frac in 0.0f64..=1.0,
    ) {
        let want_any = s.iter().any(|b| set.contains(b));
        prop_assert_eq!(text::has_any_byte(&s, &set), want_any);
        prop_assert_eq!(text::has_high_byte(&s), s.iter().any(|&b| b >= 0x80));
        let from = ((s.len() as f64) * from_frac) as usize;
        let want = s[from..].iter().position(|b| set.contains(b)).map(|i| i + from);
        prop_assert_eq!(text::find_any_byte(&s, from, &set), want, "from {}", from);
    }

    #[test]
    fn whitespace_punct_and_digits_follow_their_definitions(c in any::<char>()) {
        // CPython's str.isspace() is White_Space plus the four ASCII separators.
        prop_assert_eq!(text::is_py_space(c), c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c));
        prop_assert_eq!(text::is_js_space(c), (c.is_whitespace() && c != '\u{85}' && !('\u{1c}'..='\u{1f}').contains(&c)) || c == '\u{feff}');
        prop_assert_eq!(text::is_ascii_punct(c), c.is_ascii() && PUNCT.contains(&(c as u8)));
        match text::digit_value(c) {
            Some(d) => {
                prop_assert!(d < 10 && c.is_numeric());
                let zero = char::from_u32(c as u32 - d).unwrap();
                prop_assert_eq!(text::digit_value(zero), Some(0), "block of {:?}", c);
                if c.is_ascii() {
                    prop_assert_eq!(c.to_digit(10), Some(d));
                }
            }
            None => prop_assert!(!c.is_ascii_digit()),
        }
    }

    #[test]
    fn py_lower_agrees_with_rust_where_unicode_versions_coincide(
        s in prop::collection::vec(prop_oneof![
            3 => prop::char::range('\u{0}', '\u{52f}'),
            1 => prop::sample::select(vec!['\u{301}', '\u{345}', '\u{2019}', '\u{ad}', ' ']),
        ], 0..30).prop_map(|v| v.into_iter().collect::<String>())
    ) {
        // Latin, Greek and Cyrillic case mappings (final sigma included) have not changed
        // since Unicode 14, CPython 3.11's version.
        prop_assert_eq!(text::py_lower(&s), s.to_lowercase());
    }

    #[test]
    fn py_lower_never_panics_and_keeps_ascii_rules(s in tricky_string()) {
        let low = text::py_lower(&s);
        if s.is_ascii() {
            prop_assert_eq!(low, s.to_ascii_lowercase());
        } else {
            // Only U+0130 grows (to two code points); every other one maps to one.
            let extra = s.chars().filter(|&c| c == '\u{130}').count();
            prop_assert_eq!(low.chars().count(), s.chars().count() + extra);
        }
    }

    #[test]
    fn py_float_matches_the_literal_grammar(s in float_like()) {
        prop_assert!(same_float(text::py_float(&s), reference_float(&s)), "{:?}: {:?} vs {:?}", s, text::py_float(&s), reference_float(&s));
    }

    #[test]
    fn py_float_reads_every_script_of_digits_alike(s in float_like(), zero in prop::sample::select(OTHER_ZEROS.to_vec())) {
        let other: String = s.chars().map(|c| match c.to_digit(10) {
            Some(d) => char::from_u32(zero + d).unwrap(),
            None => c,
        }).collect();
        prop_assert!(same_float(text::py_float(&s), text::py_float(&other)), "{:?} vs {:?}", s, other);
    }

    #[test]
    fn py_float_and_gaia_number_never_panic(s in tricky_string()) {
        let v = text::py_float(&s);
        let n = text::gaia_number(&s);
        let kept: String = s.chars().filter(|c| !matches!(c, '$' | '%' | ',')).collect();
        let want = text::py_float(&kept);
        prop_assert_eq!(n.parsed, want.is_some());
        prop_assert!(same_float(Some(n.value), Some(want.unwrap_or(f64::INFINITY))));
        if !s.contains(['$', '%', ',']) {
            prop_assert!(same_float(v, want));
        }
    }

    #[test]
    fn gaia_norm_matches_its_definition(s in tricky_string(), rule in rules()) {
        let kept: String = s.chars().filter(|&c| !text::is_py_space(c)).collect();
        let lowered = if rule.lower { text::py_lower(&kept) } else { kept };
        let want: String = lowered.chars().filter(|&c| !(rule.drop_punct && text::is_ascii_punct(c))).collect();
        prop_assert_eq!(text::gaia_norm(&s, rule), want);
    }

    #[test]
    fn gaia_norm_eq_is_equality_of_gaia_norm(a in tricky_string(), b in tricky_string(), rule in rules(), shuffle in any::<bool>()) {
        // Half the pairs are near-equal (a case or whitespace change), where a wrong
        // fast path would show.
        let b = if shuffle { a.to_uppercase() + " " } else { b };
        let want = text::gaia_norm(&a, rule) == text::gaia_norm(&b, rule);
        prop_assert_eq!(text::gaia_norm_eq(&a, &b, rule), want, "{:?} {:?}", a, b);
        prop_assert_eq!(text::gaia_norm_eq(&b, &a, rule), want);
    }

    #[test]
    fn gaia_norm_eq_on_ascii_up_to_and_past_64_bytes(
        a in "[ -~\t\n\x0b\x0c\r\x1c-\x1f]{0,80}", rule in rules(), cut in 0usize..80,
    ) {
        // The AVX-512 path takes texts of at most 64 bytes; the ASCII table path longer ones.
        let b: String = a.chars().take(cut).collect::<String>() + &a.chars().skip(cut).collect::<String>().to_uppercase();
        let want = text::gaia_norm(&a, rule) == text::gaia_norm(&b, rule);
        prop_assert_eq!(text::gaia_norm_eq(&a, &b, rule), want);
    }

    #[test]
    fn js_normalize_is_ascii_and_matches_a_byte_loop_on_ascii(s in tricky_string()) {
        let out = text::js_normalize(&s);
        prop_assert!(out.is_ascii() && out.len() <= s.len());
        if s.is_ascii() {
            // lowercase, trim, collapse whitespace runs to one space, then delete what is
            // not \w or whitespace.
            let low = s.to_ascii_lowercase();
            let is_ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r');
            let trimmed = low.trim_matches(is_ws);
            let mut collapsed = String::new();
            let mut in_ws = false;
            for c in trimmed.chars() {
                if is_ws(c) {
                    if !in_ws {
                        collapsed.push(' ');
                    }
                    in_ws = true;
                } else {
                    collapsed.push(c);
                    in_ws = false;
                }
            }
            let want: String = collapsed.chars().filter(|&c| c.is_ascii_alphanumeric() || c == '_' || c == ' ').collect();
            prop_assert_eq!(out, want);
        }
    }

    #[test]
    fn quote_round_trips(s in tricky_string()) {
        let q = text::quote(&s);
        prop_assert_eq!(unquote(&q), Some(s.clone()), "{}", q);
    }
}
