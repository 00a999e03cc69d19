//! Bindings for VLMEvalKit's yes/no extraction (`gaia_fast_core::yorn`).
//!
//! A string holding a lone surrogate is carried natively (`crate::wtf8`); columns arrive
//! through the Arrow C interface (always UTF-8) and are decided with the GIL released.

use std::sync::Arc;

use arrow_array::UInt8Array;
use gaia_fast_core::yorn::{self, Rule, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::arrow_io::{column, ArrowColumn, StrChunks};
use crate::wtf8;

fn variant_of(name: &str) -> PyResult<Variant> {
    Variant::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!("unknown yes/no variant {name:?}; expected one of 'classic', '2025-05'"))
    })
}

/// `YOrN_Extraction(output)`: ("Yes" | "No" | "Unknown", rule name).
#[pyfunction]
#[pyo3(signature = (output, variant="classic"))]
fn yorn_extract_explained<'py>(output: &Bound<'py, PyString>, variant: &str) -> PyResult<(String, String)> {
    let v = variant_of(variant)?;
    let text = wtf8::texts(&[output])?;
    let r = yorn::extract(text.get(0), v);
    Ok((r.answer().to_string(), r.name().to_string()))
}

/// VLMEvalKit `process_punctuation(text)` of `variant`.
#[pyfunction]
#[pyo3(signature = (text, variant="classic"))]
fn yorn_process_punctuation<'py>(text: &Bound<'py, PyString>, variant: &str) -> PyResult<Bound<'py, PyAny>> {
    let v = variant_of(variant)?;
    let t = wtf8::texts(&[text])?;
    Ok(t.out(text.py(), &yorn::process_punctuation(t.get(0), v))?.into_any())
}

/// The rule code (index into `YORN_RULES`) of every row of an Arrow string column; a null
/// row reads as `"nan"`.
#[pyfunction]
#[pyo3(signature = (predictions, variant="classic"))]
fn yorn_arrow(py: Python<'_>, predictions: &Bound<'_, PyAny>, variant: &str) -> PyResult<Py<ArrowColumn>> {
    let v = variant_of(variant)?;
    let pred = StrChunks::import(predictions, "predictions")?;
    let codes = py.detach(|| yorn::extract_column(&pred, v));
    column(py, Arc::new(UInt8Array::from(codes)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(yorn_extract_explained, m)?)?;
    m.add_function(wrap_pyfunction!(yorn_process_punctuation, m)?)?;
    m.add_function(wrap_pyfunction!(yorn_arrow, m)?)?;
    m.add("YORN_RULES", Rule::ALL.map(|r| r.name()).to_vec())?;
    m.add("YORN_VARIANTS", Variant::ALL.map(|v| v.name()).to_vec())?;
    Ok(())
}
