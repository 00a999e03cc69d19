//! Row order of a text column and the comparison file's lines written in that order.

use std::sync::Arc;

use arrow_array::UInt32Array;
use gaia_fast_core::batch::{Cursor, StrColumn};
use gaia_fast_core::order;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::arrow_io::{column, ArrowColumn, StrChunks};

fn rows(col: &StrChunks) -> Vec<Option<&[u8]>> {
    let mut cur = col.cursor();
    (0..col.len())
        .map(|i| cur.get(i).map(str::as_bytes))
        .collect()
}

/// Row indexes of an Arrow string column in ascending order (byte order, which is code
/// point order), equal keys in row order, nulls last: a UInt32 column.
#[pyfunction]
fn stable_order(py: Python<'_>, keys: &Bound<'_, PyAny>) -> PyResult<Py<ArrowColumn>> {
    let col = StrChunks::import(keys, "keys")?;
    let order = py.detach(|| order::stable_order(&rows(&col)));
    column(py, Arc::new(UInt32Array::from(order)))
}

/// Bytes handed to `write` at once.
const CHUNK: usize = 4 << 20;

/// Write `lines` (each followed by CR LF) in the order of `keys` (as [`stable_order`])
/// through `write(bytes)`, without sorting the lines themselves. Returns the number of
/// keys that occur more than once, the first `first` of them in order, and the last key
/// in order.
#[pyfunction]
#[pyo3(signature = (keys, lines, write, first=5))]
fn write_in_key_order(
    py: Python<'_>,
    keys: &Bound<'_, PyAny>,
    lines: &Bound<'_, PyAny>,
    write: &Bound<'_, PyAny>,
    first: usize,
) -> PyResult<(usize, Vec<String>, Option<String>)> {
    let kcol = StrChunks::import(keys, "keys")?;
    let lcol = StrChunks::import(lines, "lines")?;
    if kcol.len() != lcol.len() {
        return Err(PyValueError::new_err(format!(
            "keys has {} rows but lines has {}",
            kcol.len(),
            lcol.len()
        )));
    }
    let (k, l) = (rows(&kcol), rows(&lcol));
    let order::Sorted {
        order,
        repeats: starts,
    } = py.detach(|| order::sort_keys(&k));
    let mut buf = Vec::with_capacity(CHUNK + 4096);
    let mut p = 0;
    while p < order.len() {
        buf.clear();
        p = py.detach(|| order::lines_in_order(&l, &order, p, &mut buf, CHUNK));
        write.call1((PyBytes::new(py, &buf),))?;
    }
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let firsts = starts
        .iter()
        .take(first)
        .filter_map(|&s| k[order[s as usize] as usize])
        .map(text)
        .collect();
    let last = order.last().and_then(|&i| k[i as usize]);
    Ok((starts.len(), firsts, last.map(text)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(stable_order, m)?)?;
    m.add_function(wrap_pyfunction!(write_in_key_order, m)?)
}
