//! Bindings for Omni3DBench scoring (`gaia_fast_core::omni3d`).
//!
//! Arguments are `str` or `None` (a NaN cell); anything else is a `TypeError`. Lone
//! surrogates are carried as in `wtf8`.

use std::sync::Arc;

use arrow_array::types::UInt8Type;
use arrow_array::builder::LargeStringBuilder;
use arrow_array::{ArrayRef, DictionaryArray, Float64Array, LargeStringArray, StringArray, UInt8Array};
use arrow_buffer::{BooleanBuffer, NullBuffer};
use gaia_fast_core::batch::StrColumn;
use gaia_fast_core::omni3d::{self, Bucket, Row, Status, NONE};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::arrow_io::StrChunks;
use crate::wtf8;

/// A `str | None` argument: `None` for None, `TypeError` for other types.
fn opt_str<'a, 'py>(obj: &'a Bound<'py, PyAny>, what: &str) -> PyResult<Option<&'a Bound<'py, PyString>>> {
    if obj.is_none() {
        return Ok(None);
    }
    match obj.cast::<PyString>() {
        Ok(s) => Ok(Some(s)),
        Err(_) => {
            let ty = obj.get_type().name()?;
            Err(PyTypeError::new_err(format!("{what} must be str or None, not {ty}")))
        }
    }
}

/// UTF-8 views of optional strings (lone surrogates carried as in `wtf8`).
struct OptTexts<'a> {
    tx: wtf8::Texts<'a>,
    slots: Vec<Option<usize>>,
}

impl OptTexts<'_> {
    fn new<'a>(items: &[Option<&'a Bound<'_, PyString>>]) -> PyResult<OptTexts<'a>> {
        let present: Vec<&'a Bound<'_, PyString>> = items.iter().flatten().copied().collect();
        let mut k = 0;
        let slots = items.iter().map(|i| i.map(|_| { k += 1; k - 1 })).collect();
        Ok(OptTexts { tx: wtf8::texts(&present)?, slots })
    }

    fn get(&self, i: usize) -> Option<&str> {
        self.slots[i].map(|k| self.tx.get(k))
    }
}

/// `prediction.split('<ans>')[1].split('</ans>')[0]` when it holds `<ans>`, else itself.
#[pyfunction]
fn omni3d_extract<'py>(prediction: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyString>> {
    let tx = wtf8::texts(&[prediction])?;
    tx.out(prediction.py(), omni3d::extract_answer(tx.get(0)))
}

/// `str(int(s))` (base 10, CPython's rules and digit limit), or None where it raises.
#[pyfunction]
fn omni3d_py_int(s: &Bound<'_, PyString>) -> PyResult<Option<String>> {
    let tx = wtf8::texts(&[s])?;
    Ok(omni3d::py_int(tx.get(0)).map(|i| i.to_decimal()))
}

fn row_texts<'a>(
    prediction: &'a Bound<'_, PyAny>,
    gt: &'a Bound<'_, PyAny>,
    answer_type: &'a Bound<'_, PyAny>,
) -> PyResult<OptTexts<'a>> {
    OptTexts::new(&[opt_str(prediction, "prediction")?, opt_str(gt, "gt")?, opt_str(answer_type, "answer_type")?])
}

fn row_of<'a>(t: &'a OptTexts<'_>) -> Row<'a> {
    Row { prediction: t.get(0), gt: t.get(1), answer_type: t.get(2) }
}

/// The bucket's score for one row (0/1, or k/10 for MRA); None when the row is ignored
/// or the reference raises on it.
#[pyfunction]
fn omni3d_score<'py>(
    py: Python<'py>,
    prediction: &Bound<'py, PyAny>,
    gt: &Bound<'py, PyAny>,
    answer_type: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let t = row_texts(prediction, gt, answer_type)?;
    Ok(omni3d::decide(row_of(&t)).score().into_pyobject(py)?.into_any())
}

/// One row in full: (bucket, score, thresholds_passed, status, reason).
#[pyfunction]
fn omni3d_decide<'py>(
    py: Python<'py>,
    prediction: &Bound<'py, PyAny>,
    gt: &Bound<'py, PyAny>,
    answer_type: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let t = row_texts(prediction, gt, answer_type)?;
    let row = row_of(&t);
    let d = omni3d::decide(row);
    let out = (
        d.bucket().map(Bucket::name),
        d.score(),
        d.thresholds_passed(),
        d.status(row.gt.is_none()).name(),
        t.tx.out(py, &omni3d::reason(row, &d))?,
    );
    Ok(out.into_pyobject(py)?.into_any())
}

/// Mean Relative Accuracy of raw predictions against truths (tags extracted, every pair
/// a `float` row). None for no pairs or where the reference raises.
#[pyfunction]
fn omni3d_mra<'py>(py: Python<'py>, predictions: &Bound<'py, PyAny>, gts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let preds: Vec<Bound<'py, PyAny>> = predictions.try_iter()?.collect::<PyResult<_>>()?;
    let truths: Vec<Bound<'py, PyAny>> = gts.try_iter()?.collect::<PyResult<_>>()?;
    if preds.len() != truths.len() {
        return Err(PyValueError::new_err(format!(
            "predictions has {} items but gts has {}",
            preds.len(),
            truths.len()
        )));
    }
    let mut items = Vec::with_capacity(2 * preds.len());
    for (p, g) in preds.iter().zip(&truths) {
        items.push(opt_str(p, "prediction")?);
        items.push(opt_str(g, "gt")?);
    }
    let t = OptTexts::new(&items)?;
    let pairs = (0..preds.len()).map(|i| (t.get(2 * i), t.get(2 * i + 1)));
    Ok(omni3d::mra(pairs).ok().flatten().into_pyobject(py)?.into_any())
}

fn dictionary(codes: Vec<u8>, names: &[&str]) -> ArrayRef {
    let values = Arc::new(StringArray::from(names.to_vec()));
    Arc::new(DictionaryArray::<UInt8Type>::try_new(u8_column(codes), values).expect("codes index the names"))
}

/// Score three Arrow string columns (prediction, truth, answer_type). Returns a dict of
/// Arrow-exporting columns: `extracted`, `bucket` and `status` (dictionary-encoded),
/// `score` (Float64, null when ignored or crashed), `thresholds_passed` (UInt8, MRA rows),
/// and `reason` when `explain`.
#[pyfunction]
#[pyo3(signature = (predictions, gts, answer_types, explain=false))]
fn omni3d_score_arrow<'py>(
    py: Python<'py>,
    predictions: &Bound<'py, PyAny>,
    gts: &Bound<'py, PyAny>,
    answer_types: &Bound<'py, PyAny>,
    explain: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let pred = StrChunks::import(predictions, "predictions")?;
    let gt = StrChunks::import(gts, "gts")?;
    let types = StrChunks::import(answer_types, "answer_types")?;
    if gt.len() != pred.len() || types.len() != pred.len() {
        return Err(PyValueError::new_err(format!(
            "columns differ in length: predictions {}, gts {}, answer_types {}",
            pred.len(),
            gt.len(),
            types.len()
        )));
    }
    let (out, extracted, reasons) = py.detach(|| {
        let out = omni3d::score_batch(&pred, &gt, &types, explain);
        let extracted = large_strings(&omni3d::extract_column(&pred));
        let reasons = out.reason.as_ref().map(|r| large_strings(&r.iter().map(|s| Some(s.as_str())).collect::<Vec<_>>()));
        (out, extracted, reasons)
    });
    let col = |array: ArrayRef| crate::arrow_io::column(py, array);
    let d = PyDict::new(py);
    d.set_item("extracted", col(Arc::new(extracted))?)?;
    d.set_item("bucket", col(dictionary(out.bucket, &Bucket::ALL.map(Bucket::name)))?)?;
    let valid = nulls(out.score.iter().map(|s| !s.is_nan()));
    d.set_item("score", col(Arc::new(Float64Array::new(out.score.into(), valid)))?)?;
    d.set_item("thresholds_passed", col(Arc::new(u8_column(out.passed)))?)?;
    d.set_item("status", col(dictionary(out.status, &Status::ALL.map(Status::name)))?)?;
    if let Some(reasons) = reasons {
        d.set_item("reason", col(Arc::new(reasons))?)?;
    }
    Ok(d)
}

/// A string column with 64-bit offsets (a column of long untagged predictions can pass
/// 2 GiB), sized up front.
fn large_strings(items: &[Option<&str>]) -> LargeStringArray {
    let bytes = items.iter().map(|s| s.map_or(0, str::len)).sum();
    let mut builder = LargeStringBuilder::with_capacity(items.len(), bytes);
    for item in items {
        builder.append_option(*item);
    }
    builder.finish()
}

/// A validity buffer, or none when every row is valid.
fn nulls(valid: impl Iterator<Item = bool>) -> Option<NullBuffer> {
    Some(NullBuffer::new(BooleanBuffer::from_iter(valid))).filter(|n| n.null_count() > 0)
}

/// `NONE` codes become nulls.
fn u8_column(codes: Vec<u8>) -> UInt8Array {
    let valid = nulls(codes.iter().map(|&c| c != NONE));
    UInt8Array::new(codes.into(), valid)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(omni3d_extract, m)?)?;
    m.add_function(wrap_pyfunction!(omni3d_py_int, m)?)?;
    m.add_function(wrap_pyfunction!(omni3d_score, m)?)?;
    m.add_function(wrap_pyfunction!(omni3d_decide, m)?)?;
    m.add_function(wrap_pyfunction!(omni3d_mra, m)?)?;
    m.add_function(wrap_pyfunction!(omni3d_score_arrow, m)?)?;
    m.add("OMNI3D_STATUSES", Status::ALL.map(Status::name).to_vec())?;
    m.add("OMNI3D_BUCKETS", Bucket::ALL.map(Bucket::name).to_vec())?;
    Ok(())
}
