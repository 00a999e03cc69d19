//! Binding of `gaia_fast_core::csvline`: the CSV line of every row of a few Arrow string
//! columns, built with the GIL released.
//!
//! Arrow strings are UTF-8 (Polars and pyarrow guarantee it), so no lone surrogate can
//! reach here and no WTF-8 carrying is needed.

use std::sync::Arc;

use arrow_array::StringViewArray;
use arrow_buffer::{Buffer, ScalarBuffer};
use gaia_fast_core::batch::StrColumn;
use gaia_fast_core::csvline;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrow_io::{column, ArrowColumn, StrChunks};

/// The CSV line (Python `csv.writer` dialect, no line end) of every row of `columns`, a
/// list of Arrow string columns of one length (a null field is written as nothing), as
/// an Arrow Utf8View column: Polars' own layout, so it takes it without a pass.
#[pyfunction]
fn csv_lines_arrow(py: Python<'_>, columns: Vec<Bound<'_, PyAny>>) -> PyResult<Py<ArrowColumn>> {
    let cols = columns
        .iter()
        .enumerate()
        .map(|(k, c)| StrChunks::import(c, &format!("columns[{k}]")))
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(first) = cols.first() {
        if let Some((k, c)) = cols.iter().enumerate().find(|(_, c)| c.len() != first.len()) {
            return Err(PyValueError::new_err(format!("columns[{k}] has {} rows but columns[0] has {}", c.len(), first.len())));
        }
    }
    let refs: Vec<&StrChunks> = cols.iter().collect();
    let lines = py.detach(|| csvline::lines(&refs)).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let buffers: Vec<Buffer> = lines.buffers.into_iter().map(Buffer::from_vec).collect();
    // SAFETY: the core builds well-formed views (inline up to 12 bytes, else prefix,
    // buffer index and in-bounds offset) over UTF-8 text: the fields are UTF-8 and only
    // ASCII bytes are put between them.
    let array = unsafe { StringViewArray::new_unchecked(ScalarBuffer::from(lines.views), buffers.into(), None) };
    column(py, Arc::new(array))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(csv_lines_arrow, m)?)?;
    Ok(())
}
