//! Arrow C data interface: import string columns, export result columns, zero-copy.

use std::sync::Arc;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::types::UInt8Type;
use arrow_array::{
    make_array, Array, ArrayRef, BooleanArray, DictionaryArray, Float64Array, Int64Array, LargeStringArray,
    StringArray, StringViewArray, UInt8Array,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};
use arrow_schema::DataType;
use gaia_fast_core::batch::{Cursor, Output, StrColumn, NO_KIND};
use gaia_fast_core::gaia::Kind;
use gaia_fast_core::batch::Status;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

fn arrow_err(what: &str, e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{what}: {e}"))
}

/// Every chunk of an Arrow-exporting object.
fn import_chunks(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<ArrayRef>> {
    if obj.hasattr("__arrow_c_stream__")? {
        let capsule = obj.call_method0("__arrow_c_stream__")?;
        let capsule = capsule.cast::<PyCapsule>()?;
        let ptr = capsule.pointer_checked(Some(c"arrow_array_stream"))?;
        // SAFETY: the capsule holds an ArrowArrayStream; from_raw moves it out and marks
        // the capsule's copy released, so the producer's destructor does not free it twice.
        let reader = unsafe { ArrayStreamReader::from_raw(ptr.as_ptr().cast::<FFI_ArrowArrayStream>()) }
            .map_err(|e| arrow_err(what, e))?;
        return reader.collect::<Result<Vec<_>, _>>().map_err(|e| arrow_err(what, e));
    }
    if obj.hasattr("__arrow_c_array__")? {
        let pair = obj.call_method0("__arrow_c_array__")?;
        let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = pair.extract()?;
        let schema_ptr = schema.pointer_checked(Some(c"arrow_schema"))?;
        let array_ptr = array.pointer_checked(Some(c"arrow_array"))?;
        // SAFETY: capsules named per the PyCapsule interface; the array is moved out (its
        // capsule copy is marked released), the schema is only borrowed.
        let data = unsafe {
            let array = FFI_ArrowArray::from_raw(array_ptr.as_ptr().cast());
            from_ffi(array, &*schema_ptr.as_ptr().cast::<FFI_ArrowSchema>())
        }
        .map_err(|e| arrow_err(what, e))?;
        return Ok(vec![make_array(data)]);
    }
    let ty = obj.get_type().name()?;
    Err(PyTypeError::new_err(format!(
        "{what}: expected an Arrow-compatible column (polars Series, pyarrow Array/ChunkedArray, ...), got {ty}"
    )))
}

enum StrArray {
    Utf8(StringArray),
    Large(LargeStringArray),
    View(StringViewArray),
    Nulls(usize),
}

impl StrArray {
    fn len(&self) -> usize {
        match self {
            StrArray::Utf8(a) => a.len(),
            StrArray::Large(a) => a.len(),
            StrArray::View(a) => a.len(),
            StrArray::Nulls(n) => *n,
        }
    }

    fn raw(&self) -> Raw<'_> {
        match self {
            StrArray::Utf8(a) => Raw::Utf8 { offsets: a.value_offsets(), data: a.value_data(), nulls: a.nulls() },
            StrArray::Large(a) => Raw::Large { offsets: a.value_offsets(), data: a.value_data(), nulls: a.nulls() },
            StrArray::View(a) => Raw::View { views: a.views(), buffers: a.data_buffers(), nulls: a.nulls() },
            StrArray::Nulls(_) => Raw::Nulls,
        }
    }
}

/// One chunk's buffers as plain slices, so reading a row is a few loads (the per-row
/// path of every batch scorer).
#[derive(Clone, Copy)]
enum Raw<'a> {
    Utf8 { offsets: &'a [i32], data: &'a [u8], nulls: Option<&'a NullBuffer> },
    Large { offsets: &'a [i64], data: &'a [u8], nulls: Option<&'a NullBuffer> },
    View { views: &'a [u128], buffers: &'a [arrow_buffer::Buffer], nulls: Option<&'a NullBuffer> },
    Nulls,
}

impl<'a> Raw<'a> {
    #[inline(always)]
    fn get(self, j: usize) -> Option<&'a str> {
        let (bytes, nulls): (&'a [u8], _) = match self {
            Raw::Utf8 { offsets, data, nulls } => (&data[offsets[j] as usize..offsets[j + 1] as usize], nulls),
            Raw::Large { offsets, data, nulls } => (&data[offsets[j] as usize..offsets[j + 1] as usize], nulls),
            Raw::View { views, buffers, nulls } => {
                let view = views[j];
                let len = view as u32 as usize;
                let bytes = if len <= 12 {
                    // Short strings live in the view itself, after the 4-byte length.
                    // SAFETY: `views[j]` is in bounds; 4 + len <= 16 bytes of it.
                    unsafe { std::slice::from_raw_parts((views.as_ptr().add(j) as *const u8).add(4), len) }
                } else {
                    let (buffer, offset) = ((view >> 64) as u32 as usize, (view >> 96) as u32 as usize);
                    &buffers[buffer].as_slice()[offset..offset + len]
                };
                (bytes, nulls)
            }
            Raw::Nulls => return None,
        };
        if nulls.is_some_and(|n| n.is_null(j)) {
            return None;
        }
        // SAFETY: Arrow string arrays hold UTF-8 (the format requires it, and the
        // producers we import from, Polars and pyarrow, guarantee it).
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    }
}

/// A string column made of Arrow chunks (chunk boundaries of two columns need not agree).
pub struct StrChunks {
    chunks: Vec<StrArray>,
    /// Row index where each chunk starts.
    starts: Vec<usize>,
    len: usize,
}

impl StrChunks {
    pub fn import(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Self> {
        let mut chunks = Vec::new();
        let mut starts = Vec::new();
        let mut len = 0;
        for array in import_chunks(obj, what)? {
            // Structural checks only: the Arrow format requires UTF-8 string data, which
            // its producers (Polars, pyarrow) guarantee; a full re-check costs ~15 %.
            array.to_data().validate().map_err(|e| arrow_err(what, e))?;
            let any = array.as_any();
            let chunk = match array.data_type() {
                DataType::Utf8 => StrArray::Utf8(any.downcast_ref::<StringArray>().cloned().unwrap_or_else(|| unreachable!())),
                DataType::LargeUtf8 => StrArray::Large(any.downcast_ref::<LargeStringArray>().cloned().unwrap_or_else(|| unreachable!())),
                DataType::Utf8View => StrArray::View(any.downcast_ref::<StringViewArray>().cloned().unwrap_or_else(|| unreachable!())),
                DataType::Null => StrArray::Nulls(array.len()),
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "{what}: expected a string column (Utf8, LargeUtf8 or Utf8View), got Arrow type {other}"
                    )))
                }
            };
            starts.push(len);
            len += chunk.len();
            chunks.push(chunk);
        }
        Ok(StrChunks { chunks, starts, len })
    }
}

impl StrColumn for StrChunks {
    type Cursor<'a> = ChunkCursor<'a>;

    fn len(&self) -> usize {
        self.len
    }

    fn cursor(&self) -> ChunkCursor<'_> {
        ChunkCursor { col: self, lo: 0, hi: 0, raw: Raw::Nulls }
    }
}

/// Remembers the chunk of the last row read (rows `lo..hi`); rows are read in increasing
/// order, so moving to another chunk is rare.
pub struct ChunkCursor<'a> {
    col: &'a StrChunks,
    lo: usize,
    hi: usize,
    raw: Raw<'a>,
}

impl ChunkCursor<'_> {
    #[cold]
    fn seek(&mut self, i: usize) {
        let col = self.col;
        let k = col.starts.partition_point(|&s| s <= i) - 1;
        self.lo = col.starts[k];
        self.hi = self.lo + col.chunks[k].len();
        self.raw = col.chunks[k].raw();
    }
}

impl<'a> Cursor<'a> for ChunkCursor<'a> {
    #[inline(always)]
    fn get(&mut self, i: usize) -> Option<&'a str> {
        if i < self.lo || i >= self.hi {
            self.seek(i);
        }
        self.raw.get(i - self.lo)
    }
}

/// An integer level column (any Arrow integer type the caller cast to Int64).
pub fn import_levels(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<Option<i64>>> {
    let mut out = Vec::with_capacity(n);
    for array in import_chunks(obj, "levels")? {
        match array.as_any().downcast_ref::<Int64Array>() {
            Some(a) => out.extend(a.iter()),
            None if array.data_type() == &DataType::Null => out.extend(std::iter::repeat_n(None, array.len())),
            None => return Err(PyTypeError::new_err(format!("levels: expected Int64, got {}", array.data_type()))),
        }
    }
    if out.len() != n {
        return Err(PyValueError::new_err(format!("levels has {} rows but predictions has {n}", out.len())));
    }
    Ok(out)
}

/// A result column handed to Python through `__arrow_c_array__`.
#[pyclass(frozen, module = "gaia_fast._native")]
pub struct ArrowColumn {
    array: ArrayRef,
}

#[pymethods]
impl ArrowColumn {
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema; // we export our own type; consumers cast if they need to
        let (array, schema) = to_ffi(&self.array.to_data()).map_err(|e| arrow_err("export", e))?;
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        Ok((schema, array))
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }
}

pub(crate) fn column(py: Python<'_>, array: ArrayRef) -> PyResult<Py<ArrowColumn>> {
    Py::new(py, ArrowColumn { array })
}

fn dictionary(codes: Vec<u8>, names: &[&str], null_code: Option<u8>) -> ArrayRef {
    let keys = UInt8Array::from_iter(codes.into_iter().map(|c| (Some(c) != null_code).then_some(c)));
    let values = Arc::new(StringArray::from(names.to_vec()));
    Arc::new(DictionaryArray::<UInt8Type>::try_new(keys, values).expect("codes index the names"))
}

/// A bit vector from the batch driver as an Arrow bitmap of `len` bits, without a copy.
fn bits(words: Vec<u64>, len: usize) -> BooleanBuffer {
    BooleanBuffer::new(Buffer::from_vec(words), 0, len)
}

/// The result columns as Arrow: `score`, then (unless `score_only`) `status`, `kind`
/// (graded) and `reason` (when computed). Score buffers are handed over as they are.
pub fn export_output(py: Python<'_>, out: Output, graded: bool, score_only: bool) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    let valid = NullBuffer::new(bits(out.valid, out.len));
    // A column without nulls needs no validity bitmap.
    let valid = (valid.null_count() > 0).then_some(valid);
    if graded {
        let score = Float64Array::new(out.score.into(), valid);
        d.set_item("score", column(py, Arc::new(score))?)?;
    } else {
        let score = BooleanArray::new(bits(out.matched, out.len), valid);
        d.set_item("score", column(py, Arc::new(score))?)?;
    }
    if score_only {
        return Ok(d);
    }
    let statuses = Status::ALL.map(|s| s.name());
    d.set_item("status", column(py, dictionary(out.status, &statuses, None))?)?;
    if graded {
        let kinds = Kind::ALL.map(|k| k.name());
        d.set_item("kind", column(py, dictionary(out.kind, &kinds, Some(NO_KIND)))?)?;
    }
    if let Some(reasons) = out.reason {
        let reasons = StringArray::from_iter(reasons);
        d.set_item("reason", column(py, Arc::new(reasons))?)?;
    }
    Ok(d)
}
