//! Binding of `gaia_fast_core::csvline`: the CSV line of every row of a few Arrow string
//! columns, built with the GIL released.
//!
//! Arrow strings are UTF-8 (Polars and pyarrow guarantee it), so no lone surrogate can
//! reach here and no WTF-8 carrying is needed.

use std::ptr::NonNull;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_array::StringViewArray;
use arrow_buffer::{Buffer, ScalarBuffer};
use gaia_fast_core::batch::StrColumn;
use gaia_fast_core::csvline;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrow_io::{column, ArrowColumn, StrChunks};

/// Text buffers of earlier calls, back once their column was dropped. The streaming pass
/// calls once per batch of ~100k rows; a fresh buffer would cost a page fault per 4 KiB
/// written, about as much as building the lines. A few are kept, and only briefly: a
/// reaper thread frees them once idle, so they do not add to the memory of what
/// follows the pass.
struct Pool {
    buffers: Vec<(Instant, Vec<u8>)>,
    reaper: bool,
}

static POOL: Mutex<Pool> = Mutex::new(Pool { buffers: Vec::new(), reaper: false });
const POOL_BUFFERS: usize = 8;
const POOL_LARGEST: usize = 1 << 27;
const POOL_IDLE: Duration = Duration::from_millis(500);

fn pool() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

fn take(capacity: usize) -> Vec<u8> {
    let mut pool = pool();
    let best = pool.buffers.iter().enumerate().filter(|(_, (_, b))| b.capacity() >= capacity).min_by_key(|(_, (_, b))| b.capacity());
    if let Some(k) = best.map(|(k, _)| k) {
        return pool.buffers.swap_remove(k).1;
    }
    drop(pool);
    // Rounded up, so the next batches' guesses (which vary a little) fit this buffer.
    Vec::with_capacity(capacity.checked_next_power_of_two().unwrap_or(capacity))
}

fn reap() {
    loop {
        std::thread::sleep(POOL_IDLE / 2);
        let mut pool = pool();
        let now = Instant::now();
        // Freed under the lock: cheap (unmapping), and nobody waits on it for long.
        pool.buffers.retain(|(t, _)| now.duration_since(*t) < POOL_IDLE);
        if pool.buffers.is_empty() {
            pool.reaper = false;
            return;
        }
    }
}

/// Owns a text buffer shared with Arrow; puts it back in the pool when Arrow drops it.
struct Pooled(Vec<u8>);

impl Drop for Pooled {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.0);
        if buf.capacity() > POOL_LARGEST {
            return;
        }
        let mut pool = pool();
        if pool.buffers.len() >= POOL_BUFFERS {
            return;
        }
        if !pool.reaper {
            if std::thread::Builder::new().name("gaia-fast-csvline-reaper".into()).spawn(reap).is_err() {
                return; // no thread, no pool: the buffer is freed now
            }
            pool.reaper = true;
        }
        pool.buffers.push((Instant::now(), buf));
    }
}

fn shared(buf: Vec<u8>) -> Buffer {
    let Some(ptr) = NonNull::new(buf.as_ptr() as *mut u8) else { return Buffer::from_vec(buf) };
    let len = buf.len();
    // SAFETY: `ptr` points at `len` initialised bytes owned by the Vec, which `Pooled`
    // keeps (moving a Vec does not move its heap data) until Arrow drops the buffer.
    unsafe { Buffer::from_custom_allocation(ptr, len, Arc::new(Pooled(buf))) }
}

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
    let lines = py.detach(|| csvline::lines_with(&refs, &mut take)).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let buffers: Vec<Buffer> = lines.buffers.into_iter().map(shared).collect();
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
