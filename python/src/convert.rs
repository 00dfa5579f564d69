//! Conversions shared by every binding: numpy → Rust slices in, results → Python out.
//!
//! The Python layer (`fairkit/_validation.py`) normalizes user input to C-contiguous 1-D
//! `int64`, `bool` or `float64` numpy arrays; the types here borrow those buffers without
//! copying where the crates' slice types allow it. Results leave through [`to_py`] alone
//! (serde structs; [`numpy_f64`] marks the fields that are numpy arrays).

use crate::errors::invalid;
use numpy::{IntoPyArray, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyMapping, PySequence};
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
/// `FromStr` (`fair_core::string_enum!`, or `fair_core::constraint_subset!` for constraints,
/// whose error names the supported constraints): the one place the binding turns strings into
/// enums.
///
/// # Errors
/// [`FairkitError`](crate::errors::FairkitError) naming the parameter, the value and every
/// accepted spelling, e.g. `invalid parameter solver: "newton"; unknown solver "newton": expected
/// one of "dual", "admm"`.
pub fn parse_param<T>(param: &str, value: &str) -> PyResult<T>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    value
        .parse()
        .map_err(|err| invalid(format!("invalid parameter {param}: {value:?}; {err}")))
}

/// Settings in from Python: a dict (or any mapping/sequence pythonize reads) deserialised into
/// the typed struct `T`, the one way settings cross into Rust (no positional tuples). A value of
/// the wrong type or an unknown key raises `FairkitError` naming the key's path (`goals[1].kappa`),
/// with `rename` mapping a path to the Python keyword argument the user wrote.
///
/// ```ignore
/// let settings: FitSettings = from_kwargs(&dict, "RateConstrainedClassifier", |p| p.to_string())?;
/// ```
pub fn from_kwargs<T>(
    value: &Bound<'_, PyAny>,
    what: &str,
    rename: impl Fn(&str) -> String,
) -> PyResult<T>
where
    T: serde::de::DeserializeOwned,
{
    let mut de = pythonize::Depythonizer::from_object(value);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path.is_empty() || path == "." {
            invalid(format!("invalid {what} settings: {inner}"))
        } else {
            invalid(format!(
                "invalid parameter {} of {what}: {inner}",
                rename(&path)
            ))
        }
    })
}

/// A result value as a Python object, through serde: the one conversion path from Rust results
/// to Python (issue 27). Structs and maps become dicts (keys in field order), sequences lists,
/// tuples tuples, integers `int`, floats `float` (NaN and infinities kept), `None` options
/// `None`, unit enum variants their names as `str`, and the fields marked with [`numpy_f64`]
/// 1-D `float64` numpy arrays: results with arrays need no hand-built dicts.
///
/// # Errors
/// Whatever the serializer or Python raises (e.g. a map key that is not hashable in Python).
pub fn to_py<'py, T>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>>
where
    T: serde::Serialize + ?Sized,
{
    let object = pythonize::pythonize_custom::<ResultTypes, _>(py, value)?;
    numpy_from_marker(object)
}

/// `#[serde(serialize_with = "crate::convert::numpy_f64")]` for a `Vec<f64>` field that crosses
/// to Python as a 1-D `float64` numpy array (C-contiguous, writeable, over its own copy of the
/// values, as `Vec::into_pyarray` makes it) instead of a list of floats, e.g. the per-group
/// rates of a summary.
///
/// Only [`to_py`] turns it into an array: the values are serialized as their native-endian
/// bytes in a one-entry map under a marker key, which `to_py` replaces wherever a struct, map,
/// sequence or the top level holds it. Inside a tuple the marker would stay a dict, so such
/// fields belong in structs (or sequences and maps), not tuples; other serializers (JSON)
/// see the marker map.
///
/// # Errors
/// Whatever the serializer returns.
pub fn numpy_f64<S>(values: &[f64], serializer: S) -> Result<S::Ok, S::Error>
where
    S: serde::Serializer,
{
    /// The raw bytes, serialized as bytes (`PyBytes` in pythonize), not as a sequence of `u8`.
    struct Raw<'a>(&'a [u8]);
    impl serde::Serialize for Raw<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_bytes(self.0)
        }
    }
    serializer.serialize_newtype_variant(
        NUMPY_F64,
        0,
        NUMPY_F64,
        &Raw(bytemuck::cast_slice(values)),
    )
}

/// The key of the one-entry map that [`numpy_f64`] serializes to.
const NUMPY_F64: &str = "$fairkit::numpy_f64";

/// pythonize's default types (`dict`, `list`), except that every value put into a dict or a
/// list goes through [`numpy_from_marker`] first.
struct ResultTypes;

impl pythonize::PythonizeTypes for ResultTypes {
    type Map = ResultDict;
    type NamedMap = pythonize::PythonizeUnnamedMappingAdapter<ResultDict>;
    type List = ResultList;
}

/// A `dict` whose values pass through [`numpy_from_marker`].
struct ResultDict;

impl pythonize::PythonizeMappingType for ResultDict {
    type Builder<'py> = <PyDict as pythonize::PythonizeMappingType>::Builder<'py>;

    fn builder<'py>(py: Python<'py>, len: Option<usize>) -> PyResult<Self::Builder<'py>> {
        <PyDict as pythonize::PythonizeMappingType>::builder(py, len)
    }

    fn push_item<'py>(
        builder: &mut Self::Builder<'py>,
        key: Bound<'py, PyAny>,
        value: Bound<'py, PyAny>,
    ) -> PyResult<()> {
        let value = numpy_from_marker(value)?;
        <PyDict as pythonize::PythonizeMappingType>::push_item(builder, key, value)
    }

    fn finish<'py>(builder: Self::Builder<'py>) -> PyResult<Bound<'py, PyMapping>> {
        <PyDict as pythonize::PythonizeMappingType>::finish(builder)
    }
}

/// A `list` whose items pass through [`numpy_from_marker`].
struct ResultList;

impl pythonize::PythonizeListType for ResultList {
    fn create_sequence<'py, T, U>(
        py: Python<'py>,
        elements: impl IntoIterator<Item = T, IntoIter = U>,
    ) -> PyResult<Bound<'py, PySequence>>
    where
        T: IntoPyObject<'py>,
        U: ExactSizeIterator<Item = T>,
    {
        let items = elements
            .into_iter()
            .map(|item| item.into_bound_py_any(py).and_then(numpy_from_marker))
            .collect::<PyResult<Vec<_>>>()?;
        <PyList as pythonize::PythonizeListType>::create_sequence(py, items)
    }
}

/// The numpy array that [`numpy_f64`] marked, or `value` unchanged when it is not a marker
/// (anything but a one-entry `dict` under the marker key).
fn numpy_from_marker(value: Bound<'_, PyAny>) -> PyResult<Bound<'_, PyAny>> {
    let raw = match value.cast_exact::<PyDict>() {
        Ok(dict) if dict.len() == 1 => dict.get_item(NUMPY_F64)?,
        _ => None,
    };
    let Some(raw) = raw else {
        return Ok(value);
    };
    let bytes = raw.cast::<PyBytes>()?.as_bytes();
    if bytes.len() % size_of::<f64>() != 0 {
        return Err(PyValueError::new_err(format!(
            "{NUMPY_F64} holds {} bytes, not whole float64 values",
            bytes.len()
        )));
    }
    let mut values = vec![0.0_f64; bytes.len() / size_of::<f64>()];
    // A copy, not a view: `bytes` need not be aligned for `f64`.
    bytemuck::cast_slice_mut::<f64, u8>(&mut values).copy_from_slice(bytes);
    Ok(values.into_pyarray(value.py()).into_any())
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
