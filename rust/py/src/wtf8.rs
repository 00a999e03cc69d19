//! Python strings holding lone surrogates, carried natively (see
//! `gaia_fast_core::surrogate`): the texts of one call are re-encoded with their surrogates
//! in a Private Use window none of them uses, and every string the core returns is mapped
//! back, so the caller sees the same surrogates (and `\u{d8xx}` escapes) it passed in.

use std::borrow::Cow;

use gaia_fast_core::surrogate::Substitution;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// The `'surrogatepass'` UTF-8 bytes of `s`.
fn wtf8(s: &Bound<'_, PyString>) -> PyResult<Vec<u8>> {
    Ok(s.call_method1("encode", ("utf-8", "surrogatepass"))?.cast_into::<PyBytes>()?.as_bytes().to_vec())
}

/// UTF-8 views of the texts of one call, borrowed when every one is valid UTF-8.
pub struct Texts<'a> {
    pub views: Vec<Cow<'a, str>>,
    pub sub: Option<Substitution>,
}

impl Texts<'_> {
    pub fn get(&self, i: usize) -> &str {
        &self.views[i]
    }

    /// A string produced by the core, as the Python str the caller expects.
    pub fn out<'py>(&self, py: Python<'py>, s: &str) -> PyResult<Bound<'py, PyString>> {
        out(py, self.sub, s)
    }
}

pub fn out<'py>(py: Python<'py>, sub: Option<Substitution>, s: &str) -> PyResult<Bound<'py, PyString>> {
    match sub {
        None => Ok(PyString::new(py, s)),
        Some(sub) => {
            let bytes = sub.decode(s);
            Ok(PyBytes::new(py, &bytes).call_method1("decode", ("utf-8", "surrogatepass"))?.cast_into::<PyString>()?)
        }
    }
}

pub fn texts<'a>(items: &[&'a Bound<'_, PyString>]) -> PyResult<Texts<'a>> {
    let borrowed: Option<Vec<&'a str>> = items.iter().map(|s| s.to_str().ok()).collect();
    if let Some(b) = borrowed {
        return Ok(Texts { views: b.into_iter().map(Cow::Borrowed).collect(), sub: None });
    }
    let raw: Vec<Vec<u8>> = items.iter().map(|s| wtf8(s)).collect::<PyResult<_>>()?;
    let sub = Substitution::choose(raw.iter().map(Vec::as_slice)).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Texts { views: raw.iter().map(|r| Cow::Owned(sub.encode(r))).collect(), sub: Some(sub) })
}

/// A window for many strings at once (a batch of Python lists): `encode` each text,
/// score the valid UTF-8 natively, `decode` each string result.
#[pyclass(frozen, module = "gaia_fast._native")]
pub struct SurrogateWindow {
    sub: Substitution,
}

#[pymethods]
impl SurrogateWindow {
    /// The window for `texts` (an iterable of str and None), or `None` when none holds a
    /// lone surrogate.
    #[staticmethod]
    fn choose(texts: &Bound<'_, PyAny>) -> PyResult<Option<SurrogateWindow>> {
        let mut raw = Vec::new();
        let mut any = false;
        for t in texts.try_iter()? {
            let t = t?;
            if let Ok(s) = t.cast::<PyString>() {
                if s.to_str().is_err() {
                    any = true;
                }
                raw.push(wtf8(s)?);
            }
        }
        if !any {
            return Ok(None);
        }
        let sub = Substitution::choose(raw.iter().map(Vec::as_slice)).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Some(SurrogateWindow { sub }))
    }

    /// `s` with its surrogates swapped for window characters (valid UTF-8).
    fn encode(&self, s: &Bound<'_, PyString>) -> PyResult<String> {
        Ok(match s.to_str() {
            Ok(v) => v.to_string(),
            Err(_) => self.sub.encode(&wtf8(s)?),
        })
    }

    /// A string the core produced, window characters and escapes mapped back.
    fn decode<'py>(&self, py: Python<'py>, s: &str) -> PyResult<Bound<'py, PyString>> {
        out(py, Some(self.sub), s)
    }

    /// [`decode`] over a list (None kept).
    fn decode_many<'py>(&self, py: Python<'py>, items: Vec<Option<String>>) -> PyResult<Vec<Option<Bound<'py, PyString>>>> {
        items.iter().map(|s| s.as_deref().map(|s| out(py, Some(self.sub), s)).transpose()).collect()
    }
}
