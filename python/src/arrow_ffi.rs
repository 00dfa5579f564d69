//! pyarrow record batches into arrow-rs without a copy, through the Arrow C Data Interface's
//! PyCapsule protocol (`__arrow_c_array__`, pyarrow >= 14): the audit decodes the very buffers
//! pyarrow (or Spark's Arrow batches) hold, by the same Rust decoder as the `fairkit` command.
//!
//! arrow-rs's own `arrow-pyarrow` crate does this, but it is built against another pyo3 than
//! this extension, and two pyo3 versions cannot link into one module; the import is short, so it
//! is written here, the only `unsafe` of the extension.
#![allow(unsafe_code)]

use crate::errors::invalid;
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi};
use arrow_array::{Array, RecordBatch, RecordBatchOptions, StructArray};
use arrow_schema::{DataType, Schema};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::sync::Arc;

/// Imports a pyarrow `RecordBatch` (or any object with `__arrow_c_array__` exporting a struct
/// array), validating every buffer (offsets, UTF-8, lengths) before it is read.
///
/// # Errors
/// `FairkitError` when the object does not export Arrow data or the data is invalid.
pub fn record_batch(batch: &Bound<'_, PyAny>) -> PyResult<RecordBatch> {
    let py = batch.py();
    let Some(method) = batch.getattr_opt(pyo3::intern!(py, "__arrow_c_array__"))? else {
        return Err(invalid(format!(
            "expected a pyarrow RecordBatch (an object with __arrow_c_array__), got {}",
            batch.get_type().name()?
        )));
    };
    let (schema_capsule, array_capsule): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = method
        .call0()?
        .extract()
        .map_err(|_| invalid("__arrow_c_array__ did not return a (schema, array) capsule pair"))?;
    let schema_ptr = schema_capsule
        .pointer_checked(Some(c"arrow_schema"))
        .map_err(|_| invalid("__arrow_c_array__ did not return an arrow_schema capsule"))?
        .cast::<FFI_ArrowSchema>();
    let array_ptr = array_capsule
        .pointer_checked(Some(c"arrow_array"))
        .map_err(|_| invalid("__arrow_c_array__ did not return an arrow_array capsule"))?
        .cast::<FFI_ArrowArray>();
    // SAFETY: the capsules are named "arrow_schema" / "arrow_array" (checked above), so by the
    // PyCapsule protocol they point to a valid ArrowSchema / ArrowArray. `from_raw` moves the
    // array out of the capsule and leaves a released one behind (the capsule's destructor then
    // does nothing), so the buffers are released exactly once, by arrow-rs. The schema is only
    // borrowed while the capsule is alive (it lives to the end of this function).
    let data = unsafe {
        let array = FFI_ArrowArray::from_raw(array_ptr.as_ptr());
        from_ffi(array, schema_ptr.as_ref())
    }
    .map_err(|e| invalid(format!("the Arrow batch does not import: {e}")))?;
    data.validate_full()
        .map_err(|e| invalid(format!("the Arrow batch is not valid Arrow data: {e}")))?;
    if !matches!(data.data_type(), DataType::Struct(_)) {
        return Err(invalid(format!(
            "expected a record batch (a struct array), got Arrow type {}",
            data.data_type()
        )));
    }
    // SAFETY: as above, the schema capsule holds a valid ArrowSchema while it is alive.
    let schema = unsafe { Schema::try_from(schema_ptr.as_ref()) }
        .map_err(|e| invalid(format!("the Arrow schema does not import: {e}")))?;
    let rows = data.len();
    let array = StructArray::from(data);
    if array.null_count() != 0 {
        return Err(invalid(
            "the record batch has null rows (a nullable struct)",
        ));
    }
    let (_, columns, _) = array.into_parts();
    let options = RecordBatchOptions::default().with_row_count(Some(rows));
    RecordBatch::try_new_with_options(Arc::new(schema), columns, &options)
        .map_err(|e| invalid(format!("the Arrow batch does not form a record batch: {e}")))
}
