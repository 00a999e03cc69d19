//! Bindings for VLMEvalKit's open-VQA scoring (`gaia_fast_core::vqa`).
//!
//! Scalar functions carry lone surrogates natively (`crate::wtf8`); columns arrive through
//! the Arrow C interface and are scored with the GIL released.

use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, LargeStringArray, UInt32Array, UInt8Array};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use gaia_fast_core::vqa::{self, Answers, Method, Rule, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::arrow_io::StrChunks;
use crate::wtf8;

fn variant_of(name: &str) -> PyResult<Variant> {
    Variant::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        PyValueError::new_err(format!("unknown open-VQA variant {name:?}; expected one of {names:?}"))
    })
}

fn method_of(name: &str) -> PyResult<Method> {
    Method::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        PyValueError::new_err(format!("unknown open-VQA method {name:?}; expected one of {names:?}"))
    })
}

/// VLMEvalKit `process_answer(text)` (TextVQA's normalisation).
#[pyfunction]
#[pyo3(signature = (text, variant="classic"))]
fn vqa_process_answer<'py>(text: &Bound<'py, PyString>, variant: &str) -> PyResult<Bound<'py, PyString>> {
    let v = variant_of(variant)?;
    let t = wtf8::texts(&[text])?;
    t.out(text.py(), &vqa::process_answer(t.get(0), v))
}

/// `relaxed_correctness(target, prediction)`: (correct, rule name).
#[pyfunction]
fn vqa_relaxed_correctness(target: &Bound<'_, PyString>, prediction: &Bound<'_, PyString>) -> PyResult<(bool, String)> {
    let t = wtf8::texts(&[target, prediction])?;
    let (ok, rule) = vqa::relaxed_correctness(t.get(0), t.get(1));
    Ok((ok, rule.name().to_string()))
}

/// `anls_compute(groundtruth, prediction)`.
#[pyfunction]
fn vqa_anls_compute(groundtruth: &Bound<'_, PyString>, prediction: &Bound<'_, PyString>) -> PyResult<f64> {
    let t = wtf8::texts(&[groundtruth, prediction])?;
    Ok(vqa::anls_compute(t.get(0), t.get(1)))
}

/// How the `answer` cell reads: `("single", None)`, `("list", [answers])` or
/// `("undecided", None)` (not the plain list form: Python's literal parser decides).
#[pyfunction]
fn vqa_parse_answers<'py>(py: Python<'py>, answer: &Bound<'py, PyString>) -> PyResult<(&'static str, Option<Bound<'py, PyList>>)> {
    let t = wtf8::texts(&[answer])?;
    if t.sub.is_some() {
        // A lone surrogate: upstream's eval cannot encode the source and reads one answer.
        return Ok(("single", None));
    }
    Ok(match vqa::parse_answers(t.get(0)) {
        Answers::Single => ("single", None),
        Answers::Undecided => ("undecided", None),
        Answers::List(items) => ("list", Some(PyList::new(py, items)?)),
    })
}

/// `process_line` + `hit_calculate` for one row: (hit, rule, extracted, matched).
#[pyfunction]
#[pyo3(signature = (prediction, answers, method, variant="classic"))]
fn vqa_score_row<'py>(
    prediction: &Bound<'py, PyString>,
    answers: Vec<Bound<'py, PyString>>,
    method: &str,
    variant: &str,
) -> PyResult<(f64, &'static str, Bound<'py, PyString>, u32)> {
    let (m, v) = (method_of(method)?, variant_of(variant)?);
    let items: Vec<&Bound<'py, PyString>> = std::iter::once(prediction).chain(answers.iter()).collect();
    let t = wtf8::texts(&items)?;
    let gts: Vec<&str> = (1..items.len()).map(|i| t.get(i)).collect();
    let r = vqa::score_row(t.get(0), &gts, m, v);
    Ok((r.hit, r.rule.name(), t.out(prediction.py(), &r.extracted)?, r.matched))
}

fn nulls(valid: impl Iterator<Item = bool>) -> Option<NullBuffer> {
    Some(NullBuffer::new(BooleanBuffer::from_iter(valid))).filter(|n| n.null_count() > 0)
}

/// Score two Arrow string columns (`str()` of prediction and answer; null reads `"nan"`).
/// Returns a dict of Arrow-exporting columns `hit` (Float64), `rule` (UInt8 code into
/// `VQA_RULES`), `extracted` (LargeUtf8), `matched` (UInt32); each null on the rows whose
/// answer cell is undecided (see `vqa_parse_answers`).
#[pyfunction]
#[pyo3(signature = (predictions, answers, method, variant="classic"))]
fn vqa_score_arrow<'py>(
    py: Python<'py>,
    predictions: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    method: &str,
    variant: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let (m, v) = (method_of(method)?, variant_of(variant)?);
    let pred = StrChunks::import(predictions, "predictions")?;
    let ans = StrChunks::import(answers, "answers")?;
    use gaia_fast_core::batch::StrColumn;
    if pred.len() != ans.len() {
        return Err(PyValueError::new_err(format!("columns differ in length: predictions {}, answers {}", pred.len(), ans.len())));
    }
    let rows = py.detach(|| vqa::score_column(&pred, &ans, m, v));
    let valid = || nulls(rows.iter().map(Option::is_some));
    let hit = Float64Array::new(rows.iter().map(|r| r.as_ref().map_or(0.0, |r| r.hit)).collect(), valid());
    let rule = UInt8Array::new(rows.iter().map(|r| r.as_ref().map_or(0, |r| r.rule as u8)).collect(), valid());
    let matched = UInt32Array::new(rows.iter().map(|r| r.as_ref().map_or(0, |r| r.matched)).collect(), valid());
    let extracted = LargeStringArray::from_iter(rows.iter().map(|r| r.as_ref().map(|r| r.extracted.as_str())));
    let col = |array: ArrayRef| crate::arrow_io::column(py, array);
    let d = PyDict::new(py);
    d.set_item("hit", col(Arc::new(hit))?)?;
    d.set_item("rule", col(Arc::new(rule))?)?;
    d.set_item("extracted", col(Arc::new(extracted))?)?;
    d.set_item("matched", col(Arc::new(matched))?)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(vqa_process_answer, m)?)?;
    m.add_function(wrap_pyfunction!(vqa_relaxed_correctness, m)?)?;
    m.add_function(wrap_pyfunction!(vqa_anls_compute, m)?)?;
    m.add_function(wrap_pyfunction!(vqa_parse_answers, m)?)?;
    m.add_function(wrap_pyfunction!(vqa_score_row, m)?)?;
    m.add_function(wrap_pyfunction!(vqa_score_arrow, m)?)?;
    m.add("VQA_RULES", Rule::ALL.map(|r| r.name()).to_vec())?;
    m.add("VQA_VARIANTS", Variant::ALL.map(|v| v.name()).to_vec())?;
    m.add("VQA_METHODS", Method::ALL.map(|m| m.name()).to_vec())?;
    Ok(())
}
