//! Bindings for `\boxed{}` extraction and the PHYSICS steps before SymPy.
//!
//! Strings cross as borrowed UTF-8, lone surrogates carried as in `wtf8`. Preprocessing
//! that must class a non-ASCII character as `\w` runs CPython's `re` (its tables decide).

use gaia_fast_core::extract::{self, Style};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

use crate::arrow_io::StrChunks;
use crate::wtf8;

/// `_preprocess_latex` (§4.2 step 2) through CPython's `re`, for text where a non-ASCII
/// character must be classed as `\w` or not: CPython's Unicode tables decide that, and the
/// core has no copy of them.
fn preprocess_cpython_re<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    let re = s.py().import("re")?;
    let t = re.call_method1("sub", (r"_\{.*?\}", "", s))?;
    let t = re.call_method1("sub", (r"_\\?\w", "", t))?;
    let t = t.call_method1("replace", ("\\left", ""))?;
    let t = t.call_method1("replace", ("\\right", ""))?;
    t.call_method1("replace", ("\\cdot", "*"))
}

fn parse_style(style: &str) -> PyResult<Style> {
    Ok(match style {
        "balanced" => Style::Balanced,
        "physics-final" => Style::Physics,
        "physics" => Style::PhysicsRegex,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown style {other:?}; expected 'balanced', 'physics' or 'physics-final'"
            )))
        }
    })
}

/// Boxes of `text` in `style` (`list[str]`), or `None` where the reference raises
/// StopIteration (`style="physics-final"` only).
#[pyfunction]
#[pyo3(signature = (text, style="balanced"))]
fn extract_boxed<'py>(text: &Bound<'py, PyString>, style: &str) -> PyResult<Option<Vec<Bound<'py, PyString>>>> {
    let st = parse_style(style)?;
    let tx = wtf8::texts(&[text])?;
    boxes_out(&tx, text.py(), extract::extract(tx.get(0), st))
}

fn boxes_out<'py, S: AsRef<str>>(tx: &wtf8::Texts, py: Python<'py>, boxes: Option<Vec<S>>) -> PyResult<Option<Vec<Bound<'py, PyString>>>> {
    boxes.map(|b| b.iter().map(|s| tx.out(py, s.as_ref())).collect()).transpose()
}

/// The nested-box step of the reference (`extract_final_answer`); `None` = StopIteration.
#[pyfunction]
fn physics_final<'py>(x: &Bound<'py, PyString>) -> PyResult<Option<Bound<'py, PyString>>> {
    let tx = wtf8::texts(&[x])?;
    extract::physics_final(tx.get(0)).map(|v| tx.out(x.py(), v)).transpose()
}

/// `_preprocess_latex` of `is_equiv` (§4.2 step 2).
#[pyfunction]
fn physics_preprocess<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
    let py = s.py();
    let tx = wtf8::texts(&[s])?;
    match extract::physics_preprocess(tx.get(0)) {
        Some(v) => Ok(tx.out(py, &v)?.into_any()),
        None => preprocess_cpython_re(s),
    }
}

/// `_extract_core_eq` of `is_equiv` (§4.2 step 3).
#[pyfunction]
fn physics_core<'py>(s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyString>> {
    let tx = wtf8::texts(&[s])?;
    tx.out(s.py(), extract::physics_core(tx.get(0)))
}

/// SymPy's verdict on two cores where it is known without SymPy: 1 proven (True), 0
/// False, 3 None (SymPy raises), 2 unknown (ask SymPy).
#[pyfunction]
fn physics_sympy_fast(a: &Bound<'_, PyString>, b: &Bound<'_, PyString>) -> PyResult<u8> {
    let tx = wtf8::texts(&[a, b])?;
    Ok(extract::sympy_fast(tx.get(0), tx.get(1)).code())
}

/// [`physics_sympy_fast`] for many raw (pred, gt) pairs: preprocess, core, decide.
/// Returns one code per pair as bytes; 2 (unknown) also where a string is not UTF-8 or
/// preprocessing needs CPython's `\w`.
#[pyfunction]
fn physics_fast_pairs<'py>(py: Python<'py>, preds: &Bound<'py, PyList>, gts: &Bound<'py, PyList>) -> PyResult<Bound<'py, PyBytes>> {
    if preds.len() != gts.len() {
        return Err(PyValueError::new_err("preds and gts differ in length"));
    }
    let mut out = Vec::with_capacity(preds.len());
    for (p, g) in preds.iter().zip(gts.iter()) {
        let (p, g) = (p.cast::<PyString>()?.clone(), g.cast::<PyString>()?.clone());
        out.push(match (p.to_str(), g.to_str()) {
            (Ok(x), Ok(y)) => extract::sympy_fast_pair(x, y).code(),
            _ => 2,
        });
    }
    Ok(PyBytes::new(py, &out))
}

/// Extract the boxes of a whole Arrow string column on all cores. Returns
/// `(boxes, codes)`: `boxes[i]` is a `list[str]` (empty for null rows and StopIteration
/// rows); `codes` is bytes, 0 = extracted, 1 = null cell, 2 = the reference raises
/// StopIteration.
#[pyfunction]
#[pyo3(signature = (column, style="balanced"))]
fn extract_boxed_arrow<'py>(
    py: Python<'py>,
    column: &Bound<'py, PyAny>,
    style: &str,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyBytes>)> {
    let st = parse_style(style)?;
    let col = StrChunks::import(column, "column")?;
    let rows = py.detach(|| extract::extract_column(&col, st));
    let mut codes = Vec::with_capacity(rows.len());
    let out = PyList::empty(py);
    for row in rows {
        let (code, boxes) = match row {
            None => (1u8, Vec::new()),
            Some(None) => (2, Vec::new()),
            Some(Some(b)) => (0, b),
        };
        codes.push(code);
        out.append(PyList::new(py, boxes)?)?;
    }
    Ok((out, PyBytes::new(py, &codes)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(extract_boxed, m)?)?;
    m.add_function(wrap_pyfunction!(physics_final, m)?)?;
    m.add_function(wrap_pyfunction!(physics_preprocess, m)?)?;
    m.add_function(wrap_pyfunction!(physics_core, m)?)?;
    m.add_function(wrap_pyfunction!(physics_sympy_fast, m)?)?;
    m.add_function(wrap_pyfunction!(physics_fast_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(extract_boxed_arrow, m)?)?;
    Ok(())
}
