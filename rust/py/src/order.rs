//! Row order of a text column, and CSV rows written in that order (the comparison file).

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

/// How many keys repeat, the first few of them, and the last key in order.
type Repeats = (usize, Vec<String>, Option<String>);

/// Bytes handed to `write` at once.
const CHUNK: usize = 4 << 20;

/// Rows of string columns held as CSV lines (`csv.writer`'s dialect, CR LF), added batch
/// by batch in row order and written in the order of their first column.
#[pyclass(module = "gaia_fast._native")]
pub struct CsvRows {
    rows: order::CsvRows,
    /// Rows the caller expects in all (see `reserve`).
    expected: usize,
    /// Seconds the last `write` spent ordering the rows (the rest wrote them): the
    /// benchmark's profile.
    #[pyo3(get)]
    sort_seconds: f64,
}

#[pymethods]
impl CsvRows {
    #[new]
    fn new() -> Self {
        CsvRows { rows: order::CsvRows::default(), expected: 0, sort_seconds: 0.0 }
    }

    /// Expect `rows` rows in all: room for them is made once the first rows added show
    /// what a row costs.
    fn reserve(&mut self, rows: usize) {
        self.expected = rows;
    }

    /// Add the rows of Arrow string `columns` (equal lengths); `check[n]` false says
    /// column `n` never needs quotes (it holds integers or words), so it is not searched.
    #[pyo3(signature = (columns, check=None))]
    fn add(&mut self, py: Python<'_>, columns: Vec<Bound<'_, PyAny>>, check: Option<Vec<bool>>) -> PyResult<()> {
        let cols = columns
            .iter()
            .enumerate()
            .map(|(i, c)| StrChunks::import(c, &format!("column {i}")))
            .collect::<PyResult<Vec<_>>>()?;
        let Some(n) = cols.first().map(StrChunks::len) else {
            return Err(PyValueError::new_err("no columns"));
        };
        if let Some((i, c)) = cols.iter().enumerate().find(|(_, c)| c.len() != n) {
            return Err(PyValueError::new_err(format!("column {i} has {} rows but column 0 has {n}", c.len())));
        }
        let check = check.unwrap_or_else(|| vec![true; cols.len()]);
        if self.expected > 0 && !self.rows.is_empty() {
            // The rows held show what a row costs: room for all the expected ones at once.
            self.rows.reserve_like(self.expected.saturating_sub(self.rows.len()));
            self.expected = 0;
        }
        let rows = &mut self.rows;
        py.detach(|| rows.extend_from(&cols, &check));
        Ok(())
    }

    fn __len__(&self) -> usize {
        self.rows.len()
    }

    /// Forget every row, keeping the memory for the next ones.
    fn clear(&mut self) {
        self.rows.clear();
    }

    /// Write every row to `out`: a binary file (written through its descriptor, after
    /// a flush) or anything with a `write(bytes)` method. With `sort`, in the order of
    /// the first column (as [`stable_order`]) and returns the number of keys that occur
    /// more than once, the first `first` of them in order, and the last key in order;
    /// without, in row order and returns None.
    #[pyo3(signature = (out, sort=true, first=5))]
    fn write(
        &mut self,
        py: Python<'_>,
        out: &Bound<'_, PyAny>,
        sort: bool,
        first: usize,
    ) -> PyResult<Option<Repeats>> {
        let rows = &self.rows;
        // The keys are needed only to sort (rows written in their order have none read).
        let keys = if sort { rows.keys() } else { Vec::new() };
        let started = std::time::Instant::now();
        let sorted = sort.then(|| py.detach(|| order::sort_keys(&keys)));
        self.sort_seconds = started.elapsed().as_secs_f64();
        let identity: Vec<u32>;
        let order = match &sorted {
            Some(s) => &s.order,
            None => {
                identity = (0..rows.len() as u32).collect();
                &identity
            }
        };
        if !write_to_descriptor(py, out, rows, order)? {
            let write = out.getattr("write")?;
            let mut buf = Vec::with_capacity(CHUNK + 4096);
            let mut p = 0;
            while p < order.len() {
                buf.clear();
                p = py.detach(|| rows.write(order, p, &mut buf, CHUNK));
                write.call1((PyBytes::new(py, &buf),))?;
            }
        }
        let Some(s) = &sorted else { return Ok(None) };
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let firsts = s.repeats.iter().take(first).filter_map(|&r| keys[s.order[r as usize] as usize]).map(text).collect();
        let last = s.order.last().and_then(|&i| keys[i as usize]);
        Ok(Some((s.repeats.len(), firsts, last.map(text))))
    }
}

/// Write the rows through the file descriptor of `out` when it has one (after a flush),
/// the next chunk gathered while one is written; false when it has none.
#[cfg(unix)]
fn write_to_descriptor(py: Python<'_>, out: &Bound<'_, PyAny>, rows: &order::CsvRows, order: &[u32]) -> PyResult<bool> {
    let Ok(fd) = out.call_method0("fileno").and_then(|fd| fd.extract::<i32>()) else {
        return Ok(false);
    };
    out.call_method0("flush")?;
    py.detach(|| {
        // SAFETY: the descriptor belongs to `out`, open for the whole call; ManuallyDrop
        // leaves it open when the File goes.
        let mut file = std::mem::ManuallyDrop::new(unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) });
        rows.write_all(order, &mut *file, CHUNK)
    })?;
    Ok(true)
}

#[cfg(not(unix))]
fn write_to_descriptor(_: Python<'_>, _: &Bound<'_, PyAny>, _: &order::CsvRows, _: &[u32]) -> PyResult<bool> {
    Ok(false)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(stable_order, m)?)?;
    m.add_class::<CsvRows>()
}
