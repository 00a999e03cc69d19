//! `gaia_fast._native`: thin PyO3 bindings over `gaia-fast-core`.
//!
//! Strings cross as borrowed UTF-8; a Python string holding a lone surrogate cannot, and
//! is handed to the pure-Python twin instead (same decision, slower). Columns cross through
//! the Arrow C data interface without copying; scoring runs with the GIL released.

mod arrow_io;
mod choice;
mod extract;
mod olympiad;
mod omni3d;
mod yorn;

use gaia_fast_core::batch::{self, Options, Scorer, StrColumn};
use gaia_fast_core::gaia::{self, Official};
use gaia_fast_core::text;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::BoundObject;
use pyo3::types::{PyDict, PyString};

/// Borrow `obj` as UTF-8 when possible (the common case) without copying.
fn borrow_str<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a str> {
    obj.cast::<PyString>().ok()?.to_str().ok()
}

fn check_str(obj: &Bound<'_, PyAny>, what: &str, hint: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() {
        return Ok(());
    }
    let ty = obj.get_type().name()?;
    Err(PyTypeError::new_err(format!("{what} must be str, not {ty}{hint}")))
}

fn twin<'py, A: pyo3::call::PyCallArgs<'py>>(py: Python<'py>, name: &str, args: A) -> PyResult<Bound<'py, PyAny>> {
    py.import("gaia_fast.reference.gaia")?.getattr(name)?.call1(args)
}

/// Resolve (prediction: str | None, truth: str) as UTF-8 and run `$body`; a string that is
/// not valid UTF-8 (lone surrogates) is decided by `$twin`; any other type is a TypeError.
macro_rules! with_pair {
    ($pred:expr, $truth:expr, $hint:expr, $twin:expr, |$p:ident, $t:ident| $body:expr) => {{
        let fast = match ($pred.is_none(), borrow_str($pred), borrow_str($truth)) {
            (true, _, Some(t)) => Some((None, t)),
            (false, Some(p), Some(t)) => Some((Some(p), t)),
            _ => None,
        };
        match fast {
            Some(($p, $t)) => Ok($body),
            None => {
                if !$pred.is_none() {
                    check_str($pred, "prediction", $hint)?;
                }
                check_str($truth, "truth", $hint)?;
                $twin
            }
        }
    }};
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
    py: Python<'_>,
    model_answer: &Bound<'_, PyAny>,
    ground_truth: &Bound<'_, PyAny>,
    number_tolerance: Option<f64>,
    coerce: bool,
) -> PyResult<bool> {
    let opt = Official { number_tolerance, lower: true };
    let (pred, truth) = (coerced(model_answer, coerce, true)?, coerced(ground_truth, coerce, false)?);
    with_pair!(&pred, &truth, " (pass coerce=True to apply str())",
        twin(py, "question_scorer", (&pred, &truth, number_tolerance))?.extract(),
        |p, t| gaia::official(p, t, opt, &mut ()))
}

/// The official decision with its one-line reason.
#[pyfunction]
#[pyo3(signature = (prediction, truth, number_tolerance=None, lower=true))]
fn official_explained(
    py: Python<'_>,
    prediction: &Bound<'_, PyAny>,
    truth: &Bound<'_, PyAny>,
    number_tolerance: Option<f64>,
    lower: bool,
) -> PyResult<(bool, String)> {
    let opt = Official { number_tolerance, lower };
    with_pair!(prediction, truth, "",
        twin(py, "official_explained", (prediction, truth, number_tolerance, lower))?.extract(),
        |p, t| { let (ok, _, why) = gaia::official_explained(p, t, opt); (ok, why) })
}

/// The TypeScript evaluator's bidirectional-substring rule. `None` prediction reads as "".
#[pyfunction]
fn lenient_match(py: Python<'_>, prediction: &Bound<'_, PyAny>, truth: &Bound<'_, PyAny>) -> PyResult<bool> {
    with_pair!(prediction, truth, "",
        twin(py, "lenient_match", (prediction, truth))?.extract(),
        |p, t| gaia::lenient_match(p, t))
}

#[pyfunction]
fn lenient_reason(py: Python<'_>, prediction: &Bound<'_, PyAny>, truth: &Bound<'_, PyAny>) -> PyResult<String> {
    with_pair!(prediction, truth, "",
        twin(py, "lenient_reason", (prediction, truth))?.extract(),
        |p, t| batch::lenient_reason(p, t))
}

/// Graded 0–1 score: (score, kind, explanation).
#[pyfunction]
#[pyo3(signature = (prediction, truth, level=None))]
fn graded_score(
    py: Python<'_>,
    prediction: &Bound<'_, PyAny>,
    truth: &Bound<'_, PyAny>,
    level: Option<i64>,
) -> PyResult<(f64, String, String)> {
    with_pair!(prediction, truth, "",
        twin(py, "graded_score", (prediction, truth, level))?.extract(),
        |p, t| { let g = gaia::graded_score(p, t, level); (g.score, g.kind.name().to_string(), g.explanation) })
}

// Text primitives, exposed for the exactness tests (code-point sweeps against CPython).
// Each takes any Python str; one that is not valid UTF-8 (lone surrogates) goes to the twin.

/// Run `f` on `s` as UTF-8, or return `fallback()` for strings with lone surrogates.
fn on_text<'py, T: IntoPyObject<'py>>(
    s: &Bound<'py, PyString>,
    f: impl FnOnce(&str) -> T,
    fallback: impl FnOnce() -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>>
where
    PyErr: From<T::Error>,
{
    match s.to_str() {
        Ok(v) => Ok(f(v).into_pyobject(s.py())?.into_any().into_bound()),
        Err(_) => fallback(),
    }
}

#[pyfunction]
fn py_float<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    on_text(s, text::py_float, || twin(s.py(), "py_float", (s,)))
}

#[pyfunction]
fn gaia_number<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    on_text(s, |v| { let n = text::gaia_number(v); (n.value, n.parsed) }, || twin(s.py(), "gaia_number", (s,)))
}

#[pyfunction]
#[pyo3(signature = (s, drop_punct=true, lower=true))]
fn gaia_norm<'py>(s: &Bound<'py, PyString>, drop_punct: bool, lower: bool) -> PyResult<Bound<'py, PyAny>> {
    on_text(s, |v| text::gaia_norm(v, text::NormRule { drop_punct, lower }), || twin(s.py(), "gaia_norm", (s, drop_punct, lower)))
}

#[pyfunction]
fn js_normalize<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    on_text(s, text::js_normalize, || twin(s.py(), "js_normalize", (s,)))
}

#[pyfunction]
fn py_lower<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    on_text(s, text::py_lower, || s.call_method0("lower"))
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
    choice::register(m)?;
    extract::register(m)?;
    olympiad::register(m)?;
    omni3d::register(m)?;
    yorn::register(m)?;
    m.add("STATUSES", batch::Status::ALL.map(|s| s.name()).to_vec())?;
    m.add("KINDS", gaia::Kind::ALL.map(|k| k.name()).to_vec())?;
    Ok(())
}
