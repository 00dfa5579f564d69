//! numpy → Rust slice conversion shared by every binding.
//!
//! The Python layer (`fairkit/_validation.py`) normalizes user input to C-contiguous 1-D
//! `int64`, `bool` or `float64` numpy arrays; the types here borrow those buffers without
//! copying where the crates' slice types allow it.

use crate::errors::invalid;
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use std::borrow::Cow;

/// 0/1 labels or predictions as numpy gives them: `int64` (borrowed as `&[usize]` without a
/// copy on 64-bit targets) or `bool` (widened to `usize`, one pass).
#[derive(FromPyObject)]
pub enum BinaryArray<'py> {
    /// `int64` values; anything but 0/1 is rejected by the crate with the row number.
    I64(PyReadonlyArray1<'py, i64>),
    /// `bool` values.
    Bool(PyReadonlyArray1<'py, bool>),
}

impl BinaryArray<'_> {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            BinaryArray::I64(a) => a.len(),
            BinaryArray::Bool(a) => a.len(),
        }
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The borrowed buffer, to be converted with [`BinarySlice::to_usize`] once the GIL is
    /// released (the slice is `Send`, the numpy handle is not).
    pub fn slice(&self, what: &str) -> PyResult<BinarySlice<'_>> {
        Ok(match self {
            BinaryArray::I64(a) => BinarySlice::I64(contiguous(a.as_slice(), what)?),
            BinaryArray::Bool(a) => BinarySlice::Bool(contiguous(a.as_slice(), what)?),
        })
    }
}

/// A borrowed 0/1 buffer; see [`BinaryArray::slice`].
#[derive(Clone, Copy)]
pub enum BinarySlice<'a> {
    /// `int64` values.
    I64(&'a [i64]),
    /// `bool` values.
    Bool(&'a [bool]),
}

impl<'a> BinarySlice<'a> {
    /// The values as `usize` labels: borrowed for `int64` on 64-bit targets, one widening pass
    /// for `bool`. Negative `int64` values become huge `usize` values, which the crates reject
    /// as labels out of range, so no value is silently changed.
    pub fn to_usize(self) -> Cow<'a, [usize]> {
        match self {
            BinarySlice::I64(s) => i64_as_usize(s),
            BinarySlice::Bool(s) => Cow::Owned(s.iter().map(|&b| usize::from(b)).collect()),
        }
    }
}

/// `int64` values reinterpreted as `usize` without a copy where sizes and alignment agree
/// (every 64-bit target); otherwise a converted copy.
pub fn i64_as_usize(s: &[i64]) -> Cow<'_, [usize]> {
    match bytemuck::try_cast_slice::<i64, usize>(s) {
        Ok(view) => Cow::Borrowed(view),
        Err(_) => Cow::Owned(
            s.iter()
                .map(|&v| usize::try_from(v).unwrap_or(usize::MAX))
                .collect(),
        ),
    }
}

/// The slice of a numpy array, or a [`crate::errors::FairkitError`] naming the input when the
/// array is not C-contiguous (the Python layer makes it contiguous, so this is a guard).
pub fn contiguous<'a, T>(
    slice: Result<&'a [T], numpy::AsSliceError>,
    what: &str,
) -> PyResult<&'a [T]> {
    slice.map_err(|_| invalid(format!("{what} must be a C-contiguous 1-D array")))
}

/// Optional `float64` weights as a slice.
pub fn weights_slice<'a>(w: &'a Option<PyReadonlyArray1<'_, f64>>) -> PyResult<Option<&'a [f64]>> {
    w.as_ref()
        .map(|a| contiguous(a.as_slice(), "sample_weight"))
        .transpose()
}

/// A keyword value naming an enum variant (`divergence="kl"`), parsed by the owning crate's
/// `FromStr` (`fair_core::string_enum!`): the one place the binding turns strings into enums.
///
/// # Errors
/// [`FairkitError`](crate::errors::FairkitError) naming the parameter, the value and every
/// accepted spelling, e.g. `invalid parameter solver: "newton"; unknown solver "newton": expected
/// one of "dual", "admm"`.
pub fn parse_param<T>(param: &str, value: &str) -> PyResult<T>
where
    T: std::str::FromStr<Err = fair_core::ParseEnumError>,
{
    value
        .parse()
        .map_err(|err| invalid(format!("invalid parameter {param}: {value:?}; {err}")))
}

/// A result value as a Python object, through serde: the one conversion path from Rust results
/// to Python (issue 27). Structs and maps become dicts (keys in field order), sequences lists,
/// integers `int`, floats `float` (NaN and infinities kept), `None` options `None`, unit enum
/// variants their names as `str`.
///
/// # Errors
/// Whatever the serializer or Python raises (e.g. a map key that is not hashable in Python).
pub fn to_py<'py, T>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>>
where
    T: serde::Serialize + ?Sized,
{
    pythonize::pythonize(py, value).map_err(PyErr::from)
}

/// `#[serde(serialize_with = "crate::convert::pairs_as_map")]` for `(key, value)` pairs that
/// cross to Python as a dict in their order (e.g. rendered figures: relative path → SVG).
///
/// # Errors
/// Whatever the serializer returns.
pub fn pairs_as_map<S, K, V>(pairs: &[(K, V)], serializer: S) -> Result<S::Ok, S::Error>
where
    S: serde::Serializer,
    K: serde::Serialize,
    V: serde::Serialize,
{
    serializer.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}
