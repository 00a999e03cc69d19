//! Bindings for OlympiadBench extraction and fast paths (`gaia_fast_core::olympiad`).
//!
//! Strings are borrowed as UTF-8; lone surrogates are carried as in `wtf8` (the pieces
//! handed to SymPy get their surrogates back).

use std::sync::Arc;

use arrow_array::types::UInt8Type;
use arrow_array::{ArrayRef, BooleanArray, DictionaryArray, StringArray, UInt8Array};
use gaia_fast_core::olympiad::{self as core, Judged, Pair, Path, Precision, RowStatus, Variant};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::arrow_io::{self, StrChunks};
use crate::wtf8;

fn variant_of(name: &str) -> PyResult<Variant> {
    Variant::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!("unknown variant {name:?}; expected 'openbmb' or 'vlmevalkit'"))
    })
}

/// `extract_answer` (§5.1): last `So the final answer is …` (or the Chinese phrase)
/// capture, stripped; otherwise the whole text. `None` reads as the text `nan`.
#[pyfunction]
#[pyo3(signature = (text, is_chinese=false))]
fn olympiad_extract<'py>(py: Python<'py>, text: Option<&Bound<'py, PyString>>, is_chinese: bool) -> PyResult<Bound<'py, PyAny>> {
    let Some(text) = text else {
        return Ok(PyString::new(py, core::extract_answer("nan", is_chinese)).into_any());
    };
    let tx = wtf8::texts(&[text])?;
    Ok(tx.out(py, core::extract_answer(tx.get(0), is_chinese))?.into_any())
}

/// The box step of the judge's preprocessing (§5.4 rules 1-2); `None` = ValueError.
#[pyfunction]
fn olympiad_boxed<'py>(py: Python<'py>, text: &Bound<'py, PyString>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let tx = wtf8::texts(&[text])?;
    core::boxed_content(tx.get(0)).map(|c| Ok(tx.out(py, &c)?.into_any())).transpose()
}

/// The judge's full preprocessing of one side (§5.4); `None` = ValueError.
#[pyfunction]
fn olympiad_preprocess<'py>(py: Python<'py>, text: &Bound<'py, PyString>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let tx = wtf8::texts(&[text])?;
    core::preprocess(tx.get(0)).map(|c| Ok(tx.out(py, &c)?.into_any())).transpose()
}

/// The piece list of a preprocessed answer: Chinese removed, top-level comma split,
/// `\pm` expanded (§5.3 steps 4-6).
#[pyfunction]
fn olympiad_pieces<'py>(py: Python<'py>, text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    let tx = wtf8::texts(&[text])?;
    let pieces: Vec<Bound<'py, PyString>> = core::pieces(tx.get(0)).iter().map(|p| tx.out(py, p)).collect::<PyResult<_>>()?;
    Ok(PyList::new(py, pieces)?.into_any())
}

fn pair_name(p: Pair) -> Option<bool> {
    match p {
        Pair::Equal(_) => Some(true),
        Pair::NotEqual => Some(false),
        Pair::Unknown => None,
    }
}

/// `is_equal(a, b)` for one pair of pieces when decidable without SymPy; `None` = needs
/// SymPy.
#[pyfunction]
#[pyo3(signature = (a, b, precision=1e-8, variant="openbmb"))]
fn olympiad_pair(a: &Bound<'_, PyString>, b: &Bound<'_, PyString>, precision: f64, variant: &str) -> PyResult<Option<bool>> {
    let variant = variant_of(variant)?;
    let tx = wtf8::texts(&[a, b])?;
    Ok(pair_name(core::pair_fast(tx.get(0), tx.get(1), precision, variant)))
}

fn precision_of(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Precision> {
    let Some(obj) = obj else { return Ok(Precision::One(core::DEFAULT_PRECISION)) };
    if obj.is_none() {
        return Ok(Precision::One(core::DEFAULT_PRECISION));
    }
    if let Ok(v) = obj.extract::<f64>() {
        return Ok(Precision::One(v));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<pyo3::types::PyTuple>() {
        return Ok(Precision::List(obj.extract::<Vec<f64>>()?));
    }
    let ty = obj.get_type().name()?;
    Err(PyTypeError::new_err(format!("precision must be a float or a list of floats, not {ty}")))
}

/// `MathJudger.judge(prediction, gt, precision)` as far as it goes without SymPy.
/// Returns `(status, equal, path)`: status `decided` (equal is the verdict), `index_error`
/// (the reference raises) or `pending` (a pair needs SymPy).
#[pyfunction]
#[pyo3(signature = (prediction, gt, precision=None, variant="openbmb"))]
fn olympiad_judge_fast(
    prediction: &Bound<'_, PyString>,
    gt: &Bound<'_, PyString>,
    precision: Option<&Bound<'_, PyAny>>,
    variant: &str,
) -> PyResult<(&'static str, Option<bool>, Option<&'static str>)> {
    let variant = variant_of(variant)?;
    let precision = precision_of(precision)?;
    let tx = wtf8::texts(&[prediction, gt])?;
    Ok(match core::judge_fast(tx.get(0), tx.get(1), &precision, variant) {
        Judged::Decided(eq, path) => ("decided", Some(eq), Some(path.name())),
        Judged::IndexError => ("index_error", None, None),
        Judged::Pending => ("pending", None, Some(Path::Sympy.name())),
    })
}

/// The two piece lists a judge pairs, after preprocessing; `None` when the judge is
/// decided before pairing (preprocessing raised, or identical after it).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn olympiad_plan<'py>(
    prediction: &Bound<'py, PyString>,
    gt: &Bound<'py, PyString>,
) -> PyResult<Option<(Vec<Bound<'py, PyString>>, Vec<Bound<'py, PyString>>)>> {
    let py = prediction.py();
    let tx = wtf8::texts(&[prediction, gt])?;
    let (Some(a), Some(b)) = (core::preprocess(tx.get(0)), core::preprocess(tx.get(1))) else {
        return Ok(None);
    };
    if a == b {
        return Ok(None);
    }
    let out = |t: &str| core::pieces(t).iter().map(|p| tx.out(py, p)).collect::<PyResult<Vec<_>>>();
    Ok(Some((out(&a)?, out(&b)?)))
}

fn dictionary(codes: impl Iterator<Item = Option<u8>>, names: &[&str]) -> ArrayRef {
    let keys = UInt8Array::from_iter(codes);
    let values = Arc::new(StringArray::from(names.to_vec()));
    Arc::new(DictionaryArray::<UInt8Type>::try_new(keys, values).expect("codes index the names"))
}

/// Grade OlympiadBench rows (§5.2) over Arrow string columns. Returns Arrow-exporting
/// columns `extracted`, `gt`, `score` (null unless decided), `status` (`ok`, `no_source`,
/// `no_answer`, `bad_precision`, `index_error`, `pending`) and `path`.
#[pyfunction]
#[pyo3(signature = (prediction, source, final_answer, answer_type, error, variant="openbmb", gt_given=false))]
#[allow(clippy::too_many_arguments)]
fn olympiad_grade_arrow<'py>(
    py: Python<'py>,
    prediction: &Bound<'py, PyAny>,
    source: &Bound<'py, PyAny>,
    final_answer: &Bound<'py, PyAny>,
    answer_type: &Bound<'py, PyAny>,
    error: &Bound<'py, PyAny>,
    variant: &str,
    gt_given: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let variant = variant_of(variant)?;
    let cols = [
        StrChunks::import(prediction, "prediction")?,
        StrChunks::import(source, "source")?,
        StrChunks::import(final_answer, "final_answer")?,
        StrChunks::import(answer_type, "answer_type")?,
        StrChunks::import(error, "error")?,
    ];
    use gaia_fast_core::batch::StrColumn;
    let n = cols[0].len();
    if let Some(c) = cols.iter().find(|c| c.len() != n) {
        return Err(PyValueError::new_err(format!("columns differ in length: {} and {}", n, c.len())));
    }
    let rows = py.detach(|| core::grade_rows(&cols[0], &cols[1], &cols[2], &cols[3], &cols[4], variant, gt_given));
    let d = PyDict::new(py);
    let col = |a: ArrayRef| arrow_io::column(py, a);
    d.set_item("extracted", col(Arc::new(StringArray::from_iter(rows.iter().map(|r| r.extracted.as_deref()))))?)?;
    d.set_item("gt", col(Arc::new(StringArray::from_iter(rows.iter().map(|r| r.gt.as_deref()))))?)?;
    d.set_item("score", col(Arc::new(BooleanArray::from_iter(rows.iter().map(|r| r.score))))?)?;
    let statuses = RowStatus::ALL.map(|s| s.name());
    d.set_item("status", col(dictionary(rows.iter().map(|r| Some(r.status as u8)), &statuses))?)?;
    let paths = Path::ALL.map(|p| p.name());
    d.set_item("path", col(dictionary(rows.iter().map(|r| r.path.map(|p| p as u8)), &paths))?)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(olympiad_extract, m)?)?;
    m.add_function(wrap_pyfunction!(olympiad_boxed, m)?)?;
    m.add_function(wrap_pyfunction!(olympiad_preprocess, m)?)?;
    m.add_function(wrap_pyfunction!(olympiad_pieces, m)?)?;
    m.add_function(wrap_pyfunction!(olympiad_pair, m)?)?;
    m.add_function(wrap_pyfunction!(olympiad_judge_fast, m)?)?;
    m.add_function(wrap_pyfunction!(olympiad_plan, m)?)?;
    m.add_function(wrap_pyfunction!(olympiad_grade_arrow, m)?)?;
    Ok(())
}
