//! `gaia_fast._native`: thin PyO3 bindings over `gaia-fast-core`.
//!
//! Strings cross as borrowed UTF-8; a Python string holding lone surrogates is carried in a
//! Private Use window (`wtf8`), so every decision is native. Columns cross through
//! the Arrow C data interface without copying; scoring runs with the GIL released.

mod arrow_io;
mod caption;
mod choice;
mod extract;
mod olympiad;
mod omni3d;
mod order;
mod vqa;
mod wtf8;
mod yorn;

use gaia_fast_core::batch::{self, Options, Scorer, StrColumn};
use gaia_fast_core::gaia::{self, Official};
use gaia_fast_core::text;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

fn check_str(obj: &Bound<'_, PyAny>, what: &str, hint: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() {
        return Ok(());
    }
    let ty = obj.get_type().name()?;
    Err(PyTypeError::new_err(format!("{what} must be str, not {ty}{hint}")))
}

/// Resolve (prediction: str | None, truth: str) as UTF-8 (lone surrogates carried in a
/// Private Use window, see `wtf8`) and run `f`; any other type is a TypeError.
fn with_pair<R>(
    pred: &Bound<'_, PyAny>,
    truth: &Bound<'_, PyAny>,
    hint: &str,
    f: impl FnOnce(Option<&str>, &str, &wtf8::Texts) -> PyResult<R>,
) -> PyResult<R> {
    let p = if pred.is_none() {
        None
    } else {
        check_str(pred, "prediction", hint)?;
        Some(pred.cast::<PyString>()?)
    };
    check_str(truth, "truth", hint)?;
    let t = truth.cast::<PyString>()?;
    let items: Vec<&Bound<'_, PyString>> = p.into_iter().chain([t]).collect();
    let tx = wtf8::texts(&items)?;
    match p {
        Some(_) => f(Some(tx.get(0)), tx.get(1), &tx),
        None => f(None, tx.get(0), &tx),
    }
}

/// `str(obj)` for non-str, non-None arguments when the caller asked for coercion.
fn coerced<'py>(obj: &Bound<'py, PyAny>, coerce: bool, keep_none: bool) -> PyResult<Bound<'py, PyAny>> {
    if !coerce || obj.is_instance_of::<PyString>() || (keep_none && obj.is_none()) {
        return Ok(obj.clone());
    }
    Ok(obj.str()?.into_any())
}

/// The GAIA leaderboard's `question_scorer`, bit-exact. `None` prediction reads as "None".
#[pyfunction]
#[pyo3(signature = (model_answer, ground_truth, number_tolerance=None, *, coerce=false))]
fn question_scorer(
    model_answer: &Bound<'_, PyAny>,
    ground_truth: &Bound<'_, PyAny>,
    number_tolerance: Option<f64>,
    coerce: bool,
) -> PyResult<bool> {
    let opt = Official { number_tolerance, lower: true };
    let (pred, truth) = (coerced(model_answer, coerce, true)?, coerced(ground_truth, coerce, false)?);
    with_pair(&pred, &truth, " (pass coerce=True to apply str())", |p, t, _| Ok(gaia::official(p, t, opt, &mut ())))
}

/// The official decision with its one-line reason.
#[pyfunction]
#[pyo3(signature = (prediction, truth, number_tolerance=None, lower=true))]
fn official_explained<'py>(
    py: Python<'py>,
    prediction: &Bound<'_, PyAny>,
    truth: &Bound<'_, PyAny>,
    number_tolerance: Option<f64>,
    lower: bool,
) -> PyResult<(bool, Bound<'py, PyString>)> {
    let opt = Official { number_tolerance, lower };
    with_pair(prediction, truth, "", |p, t, tx| {
        let (ok, _, why) = gaia::official_explained(p, t, opt);
        Ok((ok, tx.out(py, &why)?))
    })
}

/// The TypeScript evaluator's bidirectional-substring rule. `None` prediction reads as "".
#[pyfunction]
fn lenient_match(prediction: &Bound<'_, PyAny>, truth: &Bound<'_, PyAny>) -> PyResult<bool> {
    with_pair(prediction, truth, "", |p, t, _| Ok(gaia::lenient_match(p, t)))
}

#[pyfunction]
fn lenient_reason<'py>(py: Python<'py>, prediction: &Bound<'py, PyAny>, truth: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
    with_pair(prediction, truth, "", |p, t, tx| tx.out(py, &batch::lenient_reason(p, t)))
}

/// Graded 0–1 score: (score, kind, explanation).
#[pyfunction]
#[pyo3(signature = (prediction, truth, level=None))]
fn graded_score<'py>(
    py: Python<'py>,
    prediction: &Bound<'_, PyAny>,
    truth: &Bound<'_, PyAny>,
    level: Option<i64>,
) -> PyResult<(f64, &'static str, Bound<'py, PyString>)> {
    with_pair(prediction, truth, "", |p, t, tx| {
        let g = gaia::graded_score(p, t, level);
        Ok((g.score, g.kind.name(), tx.out(py, &g.explanation)?))
    })
}

// Text primitives, exposed for the exactness tests (code-point sweeps against CPython).
// Each takes any Python str; lone surrogates are carried as in `wtf8`.

#[pyfunction]
fn py_float(s: &Bound<'_, PyString>) -> PyResult<Option<f64>> {
    Ok(text::py_float(wtf8::texts(&[s])?.get(0)))
}

#[pyfunction]
fn gaia_number(s: &Bound<'_, PyString>) -> PyResult<(f64, bool)> {
    let n = text::gaia_number(wtf8::texts(&[s])?.get(0));
    Ok((n.value, n.parsed))
}

#[pyfunction]
#[pyo3(signature = (s, drop_punct=true, lower=true))]
fn gaia_norm<'py>(s: &Bound<'py, PyString>, drop_punct: bool, lower: bool) -> PyResult<Bound<'py, PyString>> {
    let tx = wtf8::texts(&[s])?;
    tx.out(s.py(), &text::gaia_norm(tx.get(0), text::NormRule { drop_punct, lower }))
}

#[pyfunction]
fn js_normalize<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyString>> {
    let tx = wtf8::texts(&[s])?;
    tx.out(s.py(), &text::js_normalize(tx.get(0)))
}

#[pyfunction]
fn py_lower<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyString>> {
    let tx = wtf8::texts(&[s])?;
    tx.out(s.py(), &text::py_lower(tx.get(0)))
}

/// The single code point of `ch`; a lone surrogate is reported as `None` (it is neither
/// space nor digit in Python).
fn one_char(ch: &Bound<'_, PyString>) -> PyResult<Option<char>> {
    if ch.len()? != 1 {
        return Err(PyValueError::new_err("expected a single character"));
    }
    Ok(ch.to_str().ok().and_then(|s| s.chars().next()))
}

#[pyfunction]
fn is_py_space(ch: &Bound<'_, PyString>) -> PyResult<bool> {
    Ok(one_char(ch)?.is_some_and(text::is_py_space))
}

#[pyfunction]
fn digit_value(ch: &Bound<'_, PyString>) -> PyResult<Option<u32>> {
    Ok(one_char(ch)?.and_then(text::digit_value))
}

/// `py_lower` over many strings in one call (the code-point sweep).
#[pyfunction]
fn py_lower_many(items: Vec<String>) -> Vec<String> {
    items.iter().map(|s| text::py_lower(s)).collect()
}

/// Per-character `str.isspace()` of `s`.
#[pyfunction]
fn is_py_space_many(s: &str) -> Vec<bool> {
    s.chars().map(text::is_py_space).collect()
}

fn parse_scorer(name: &str, number_tolerance: Option<f64>) -> PyResult<Scorer> {
    Ok(match name {
        "gaia" => Scorer::Official(Official { number_tolerance, lower: true }),
        "gaia-lenient" => Scorer::Lenient,
        "gaia-graded" => Scorer::Graded,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown scorer {other:?}; expected one of 'gaia', 'gaia-lenient', 'gaia-graded'"
            )))
        }
    })
}

/// Score two Arrow string columns (anything exporting `__arrow_c_stream__` or
/// `__arrow_c_array__`). Returns a dict of Arrow-exporting columns: `score`, `status`
/// (dictionary-encoded), `kind` (graded), `reason` (when `explain`).
#[pyfunction]
#[pyo3(signature = (predictions, truths, scorer="gaia", number_tolerance=None, placeholder_is_missing=true, explain=false, levels=None, score_only=false))]
#[allow(clippy::too_many_arguments)]
fn score_arrow<'py>(
    py: Python<'py>,
    predictions: &Bound<'py, PyAny>,
    truths: &Bound<'py, PyAny>,
    scorer: &str,
    number_tolerance: Option<f64>,
    placeholder_is_missing: bool,
    explain: bool,
    levels: Option<&Bound<'py, PyAny>>,
    score_only: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let scorer = parse_scorer(scorer, number_tolerance)?;
    let pred = arrow_io::StrChunks::import(predictions, "predictions")?;
    let truth = arrow_io::StrChunks::import(truths, "truths")?;
    if pred.len() != truth.len() {
        return Err(PyValueError::new_err(format!(
            "predictions has {} rows but truths has {}",
            pred.len(),
            truth.len()
        )));
    }
    let levels = levels.map(|l| arrow_io::import_levels(l, pred.len())).transpose()?;
    let opts = Options { scorer, placeholder_is_missing, details: !score_only, explain };
    let out = py.detach(|| batch::score(&pred, &truth, levels.as_deref(), opts));
    arrow_io::export_output(py, out, matches!(scorer, Scorer::Graded), score_only)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The version of the build itself, so it cannot disagree with the code that runs.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(question_scorer, m)?)?;
    m.add_function(wrap_pyfunction!(official_explained, m)?)?;
    m.add_function(wrap_pyfunction!(lenient_match, m)?)?;
    m.add_function(wrap_pyfunction!(lenient_reason, m)?)?;
    m.add_function(wrap_pyfunction!(graded_score, m)?)?;
    m.add_function(wrap_pyfunction!(py_float, m)?)?;
    m.add_function(wrap_pyfunction!(gaia_number, m)?)?;
    m.add_function(wrap_pyfunction!(gaia_norm, m)?)?;
    m.add_function(wrap_pyfunction!(js_normalize, m)?)?;
    m.add_function(wrap_pyfunction!(py_lower, m)?)?;
    m.add_function(wrap_pyfunction!(is_py_space, m)?)?;
    m.add_function(wrap_pyfunction!(digit_value, m)?)?;
    m.add_function(wrap_pyfunction!(py_lower_many, m)?)?;
    m.add_function(wrap_pyfunction!(is_py_space_many, m)?)?;
    m.add_function(wrap_pyfunction!(score_arrow, m)?)?;
    m.add_class::<arrow_io::ArrowColumn>()?;
    m.add_class::<wtf8::SurrogateWindow>()?;
    caption::register(m)?;
    choice::register(m)?;
    extract::register(m)?;
    olympiad::register(m)?;
    omni3d::register(m)?;
    order::register(m)?;
    vqa::register(m)?;
    yorn::register(m)?;
    m.add("STATUSES", batch::Status::ALL.map(|s| s.name()).to_vec())?;
    m.add("KINDS", gaia::Kind::ALL.map(|k| k.name()).to_vec())?;
    Ok(())
}
