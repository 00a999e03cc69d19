//! Bindings for OCRBench's hit rule (`gaia_fast_core::ocrbench`) and the caption metrics
//! (`gaia_fast_core::caption`). Columns arrive through the Arrow C interface; row `i`'s
//! answers are `answers[offsets[i]..offsets[i + 1]]` (offsets from `counts`).

use std::sync::Arc;

use arrow_array::{Float64Array, Int64Array};
use gaia_fast_core::batch::{Cursor, StrColumn};
use gaia_fast_core::{caption, ocrbench};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::arrow_io::{column, import_levels, ArrowColumn, StrChunks};

/// Every row of a string column (`null_as` for a null row).
fn strings<'a>(col: &'a StrChunks, null_as: Option<&'static str>, what: &str) -> PyResult<Vec<&'a str>> {
    let mut cur = col.cursor();
    (0..col.len())
        .map(|i| match cur.get(i) {
            Some(s) => Ok(s),
            None => null_as.ok_or_else(|| PyValueError::new_err(format!("{what}: row {i} is null"))),
        })
        .collect()
}

/// Offsets from per-row counts; they must add up to `total`.
fn offsets(counts: &[Option<i64>], total: usize) -> PyResult<Vec<usize>> {
    let mut out = Vec::with_capacity(counts.len() + 1);
    out.push(0usize);
    for (i, c) in counts.iter().enumerate() {
        let c = c.filter(|&c| c >= 0).ok_or_else(|| PyValueError::new_err(format!("counts: row {i} is null or negative")))?;
        out.push(out[i] + c as usize);
    }
    if out[counts.len()] != total {
        return Err(PyValueError::new_err(format!("counts add up to {} but there are {total} answers", out[counts.len()])));
    }
    Ok(out)
}

/// Index of the first answer found in each prediction (-1: none), OCRBench's rule; `hme`
/// (Int64, 1 or 0) selects the handwritten-math normalisation. A null prediction reads as
/// `"nan"`.
#[pyfunction]
fn ocrbench_arrow(
    py: Python<'_>,
    predictions: &Bound<'_, PyAny>,
    answers: &Bound<'_, PyAny>,
    counts: &Bound<'_, PyAny>,
    hme: &Bound<'_, PyAny>,
) -> PyResult<Py<ArrowColumn>> {
    let pred_col = StrChunks::import(predictions, "predictions")?;
    let ans_col = StrChunks::import(answers, "answers")?;
    let n = pred_col.len();
    let pred = strings(&pred_col, Some("nan"), "predictions")?;
    let ans = strings(&ans_col, None, "answers")?;
    let offs = offsets(&import_levels(counts, n)?, ans.len())?;
    let flags: Vec<bool> = import_levels(hme, n)?.into_iter().map(|f| f == Some(1)).collect();
    let hits = py.detach(|| ocrbench::first_hits(&pred, &ans, &offs, &flags));
    column(py, Arc::new(Int64Array::from(hits)))
}

/// Caption metrics: a dict with `bleu` (4 floats), `rouge_l`, `cider` (None where the
/// reference raises) and per-row Arrow columns `bleu_1`..`bleu_4`, `rouge_l_rows`,
/// `cider_rows`. Every row needs at least one reference.
#[pyfunction]
fn caption_arrow<'py>(
    py: Python<'py>,
    predictions: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    counts: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let pred_col = StrChunks::import(predictions, "predictions")?;
    let ref_col = StrChunks::import(references, "references")?;
    let n = pred_col.len();
    let pred = strings(&pred_col, Some("nan"), "predictions")?;
    let refs = strings(&ref_col, None, "references")?;
    let offs = offsets(&import_levels(counts, n)?, refs.len())?;
    if let Some(i) = (0..n).find(|&i| offs[i] == offs[i + 1]) {
        return Err(PyValueError::new_err(format!("row {i} has no reference")));
    }
    let grouped: Vec<Vec<&str>> = (0..n).map(|i| refs[offs[i]..offs[i + 1]].to_vec()).collect();
    let s = py.detach(|| caption::score(&pred, &grouped));
    let out = PyDict::new(py);
    out.set_item("bleu", s.bleu.to_vec())?;
    out.set_item("rouge_l", s.rouge_l)?;
    out.set_item("cider", s.cider)?;
    for k in 0..caption::N {
        let col: Float64Array = s.bleu_rows.iter().map(|b| Some(b[k])).collect();
        out.set_item(format!("bleu_{}", k + 1), column(py, Arc::new(col))?)?;
    }
    out.set_item("rouge_l_rows", column(py, Arc::new(Float64Array::from(s.rouge_l_rows)))?)?;
    out.set_item("cider_rows", column(py, Arc::new(Float64Array::from(s.cider_rows)))?)?;
    Ok(out)
}

/// `numpy.mean` of a float64 sequence (pairwise summation); NaN when empty.
#[pyfunction]
fn np_mean(values: Vec<f64>) -> f64 {
    gaia_fast_core::numpy::np_mean(&values)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ocrbench_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(caption_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(np_mean, m)?)?;
    m.add("OCRBENCH_HME", ocrbench::HME)?;
    Ok(())
}
