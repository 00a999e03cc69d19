//! Bindings for multiple-choice parsing (VMCBench, LiveXivVQA).
//!
//! Scalar functions take the choice letters as one string (`"ABCD"`) and the option texts as
//! a list, already validated and `str()`-ed by the Python wrapper; lone surrogates are
//! carried as in `wtf8`. The column driver takes Arrow
//! string columns and returns one `bytes` object per result column (a byte per row).

use gaia_fast_core::choice::{self, Choice, Mode, Rule, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use std::sync::Arc;

use arrow_array::UInt8Array;

use crate::arrow_io::{column, StrChunks};

fn variant_of(name: &str) -> PyResult<Variant> {
    Variant::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown can_infer variant {name:?}; expected one of 'classic', '2025-08', '2026-06', 'dcvlr', '2023-12'"
        ))
    })
}

fn check_letters(letters: &str, n: usize) -> PyResult<&[u8]> {
    let b = letters.as_bytes();
    if b.len() != n || !b.iter().all(u8::is_ascii_uppercase) {
        return Err(PyValueError::new_err(format!(
            "letters must be {n} characters 'A'..'Z' (one per option), got {letters:?}"
        )));
    }
    let mut seen = [false; 26];
    for &l in b {
        if std::mem::replace(&mut seen[(l - b'A') as usize], true) {
            return Err(PyValueError::new_err(format!("duplicate option letter {:?}", l as char)));
        }
    }
    Ok(b)
}

/// Run `f` on UTF-8 views of `text` and `texts` (lone surrogates carried as in `wtf8`;
/// the results are letters and rule names, never text of the input).
fn decide<'py>(
    text: &Bound<'py, PyString>,
    letters: &str,
    texts: &[Bound<'py, PyString>],
    f: impl FnOnce(&str, &[Choice]) -> choice::Decision,
) -> PyResult<(Option<String>, String)> {
    let letters_b = check_letters(letters, texts.len())?;
    let items: Vec<&Bound<'py, PyString>> = std::iter::once(text).chain(texts).collect();
    let tx = crate::wtf8::texts(&items)?;
    let choices: Vec<Choice> = letters_b.iter().enumerate().map(|(j, &letter)| Choice { letter, text: tx.get(j + 1) }).collect();
    let d = f(tx.get(0), &choices);
    Ok((d.letter.map(|l| (l as char).to_string()), d.rule.name().to_string()))
}

/// VLMEvalKit `can_infer` of `variant`: (letter | "Z" | None, rule name).
#[pyfunction]
#[pyo3(signature = (answer, letters, texts, variant="classic"))]
fn can_infer_explained<'py>(
    answer: &Bound<'py, PyString>,
    letters: &str,
    texts: Vec<Bound<'py, PyString>>,
    variant: &str,
) -> PyResult<(Option<String>, String)> {
    let v = variant_of(variant)?;
    decide(answer, letters, &texts, |a, c| choice::can_infer(a, c, v))
}

/// VMCBench/MMMU `parse_multi_choice_response`: (letter | None, rule name).
#[pyfunction]
fn parse_multi_choice_explained<'py>(
    response: &Bound<'py, PyString>,
    letters: &str,
    texts: Vec<Bound<'py, PyString>>,
) -> PyResult<(Option<String>, String)> {
    decide(response, letters, &texts, choice::parse_multi_choice)
}

/// The seeded fallback draw: an index in `range(k)` for row `key`.
#[pyfunction]
fn fallback_index(key: &Bound<'_, PyString>, seed: u64, k: usize) -> PyResult<usize> {
    if k == 0 {
        return Err(PyValueError::new_err("empty pool"));
    }
    // The draw hashes the key's 'surrogatepass' UTF-8 bytes, lone surrogates included.
    match key.to_str() {
        Ok(s) => Ok(choice::fallback_index(seed, s.as_bytes(), k)),
        Err(_) => {
            let raw = key.call_method1("encode", ("utf-8", "surrogatepass"))?;
            Ok(choice::fallback_index(seed, raw.cast::<PyBytes>()?.as_bytes(), k))
        }
    }
}

/// Parse every row of Arrow string columns. `options[j]` is the column of letter
/// `letters[j]`; `mode` is `"vmcbench"` or `"can_infer"`; `keys` (optional) names rows for
/// the seeded fallback. Returns `bytes` columns `extracted`, `rule`, `fallback` (ASCII
/// letter codes, 0 = none; rule codes index `MCQ_RULES`) and `pool` (fallback pool size).
#[pyfunction]
#[pyo3(signature = (predictions, letters, options, mode, variant="dcvlr", seed=0, keys=None))]
#[allow(clippy::too_many_arguments)]
fn mcq_arrow<'py>(
    py: Python<'py>,
    predictions: &Bound<'py, PyAny>,
    letters: &str,
    options: Vec<Bound<'py, PyAny>>,
    mode: &str,
    variant: &str,
    seed: u64,
    keys: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mode = match mode {
        "vmcbench" => Mode::VmcBench,
        "can_infer" => Mode::CanInfer(variant_of(variant)?),
        other => return Err(PyValueError::new_err(format!("unknown mode {other:?}; expected 'vmcbench' or 'can_infer'"))),
    };
    let letters = check_letters(letters, options.len())?;
    let pred = StrChunks::import(predictions, "predictions")?;
    let n = gaia_fast_core::batch::StrColumn::len(&pred);
    let mut cols = Vec::with_capacity(options.len());
    for (o, &l) in options.iter().zip(letters) {
        let what = format!("option {}", l as char);
        let col = StrChunks::import(o, &what)?;
        let len = gaia_fast_core::batch::StrColumn::len(&col);
        if len != n {
            return Err(PyValueError::new_err(format!("{what} has {len} rows but predictions has {n}")));
        }
        cols.push(col);
    }
    let keys = keys.map(|k| StrChunks::import(k, "keys")).transpose()?;
    if let Some(k) = &keys {
        let len = gaia_fast_core::batch::StrColumn::len(k);
        if len != n {
            return Err(PyValueError::new_err(format!("keys has {len} rows but predictions has {n}")));
        }
    }
    let refs: Vec<&StrChunks> = cols.iter().collect();
    let out = py.detach(|| choice::grade_columns(&pred, letters, &refs, keys.as_ref(), mode, seed));
    let d = PyDict::new(py);
    for (name, codes) in [("extracted", out.extracted), ("rule", out.rule), ("fallback", out.fallback), ("pool", out.pool)] {
        d.set_item(name, column(py, Arc::new(UInt8Array::from(codes)))?)?;
    }
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(can_infer_explained, m)?)?;
    m.add_function(wrap_pyfunction!(parse_multi_choice_explained, m)?)?;
    m.add_function(wrap_pyfunction!(fallback_index, m)?)?;
    m.add_function(wrap_pyfunction!(mcq_arrow, m)?)?;
    m.add("MCQ_RULES", Rule::ALL.map(|r| r.name()).to_vec())?;
    m.add("MCQ_VARIANTS", Variant::ALL.map(|v| v.name()).to_vec())?;
    Ok(())
}
