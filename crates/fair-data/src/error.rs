//! The one error type of `fair-data`.

use thiserror::Error;

/// Everything that can go wrong while loading, building or transforming a dataset.
///
/// Each message names the offending value and says what to fix.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum DataError {
    /// Two inputs that must describe the same rows have different lengths.
    #[error("length mismatch for {what}: expected {expected}, got {got}")]
    LengthMismatch {
        /// Which input is too short or too long.
        what: &'static str,
        /// The length implied by the other inputs.
        expected: usize,
        /// The length that was passed.
        got: usize,
    },
    /// A value that must be finite is NaN or infinite.
    #[error("{what} has a non-finite value ({value}) at row {row}: remove or impute it first")]
    NonFinite {
        /// Which input holds the value.
        what: &'static str,
        /// Row index (0-based).
        row: usize,
        /// The offending value.
        value: f64,
    },
    /// A group code refers to a group that was not declared.
    #[error(
        "group code {code} at row {row} is out of range: only {n_groups} group names were given"
    )]
    GroupCodeOutOfRange {
        /// Row index (0-based).
        row: usize,
        /// The code found.
        code: usize,
        /// Number of declared groups.
        n_groups: usize,
    },
    /// A label is outside the declared classes.
    #[error("label {label} at row {row} is out of range: only {n_classes} classes were declared")]
    LabelOutOfRange {
        /// Row index (0-based).
        row: usize,
        /// The label found.
        label: usize,
        /// Number of declared classes.
        n_classes: usize,
    },
    /// An input that must have rows has none.
    #[error("{what} is empty: at least one row is needed")]
    Empty {
        /// Which input is empty.
        what: &'static str,
    },
    /// A sample weight is negative, or all weights are zero.
    #[error("invalid sample weights: {reason}")]
    InvalidWeights {
        /// Why the weights were rejected.
        reason: String,
    },
    /// A parameter is outside its valid range.
    #[error("invalid parameter {name} = {value}: expected {expected}")]
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The value passed, formatted.
        value: String,
        /// The valid range, in words.
        expected: &'static str,
    },
    /// A named column is not in the CSV header (or not in the dataset).
    #[error("column {name:?} not found; available columns: {available}")]
    MissingColumn {
        /// The requested column.
        name: String,
        /// The available names, comma separated.
        available: String,
    },
    /// A CSV cell that must be numeric is not.
    #[error(
        "non-numeric value {value:?} in column {column:?} at line {line}: features must be numbers (encode categories first)"
    )]
    NonNumeric {
        /// 1-based line number in the file, header included.
        line: usize,
        /// Column name.
        column: String,
        /// The raw cell text.
        value: String,
    },
    /// A CSV row has a different number of fields than the header.
    #[error("ragged CSV: line {line} has {got} fields but the header has {expected}")]
    RaggedRow {
        /// 1-based line number in the file, header included.
        line: usize,
        /// Number of header fields.
        expected: usize,
        /// Number of fields on this line.
        got: usize,
    },
    /// The CSV reader failed (I/O or encoding).
    #[error("CSV read error: {0}")]
    Csv(String),
    /// An embedded dataset failed its checksum: the binary was built from corrupted data.
    #[error(
        "embedded dataset {file} failed its sha256 check (expected {expected}, got {got}); rebuild from a clean checkout"
    )]
    Checksum {
        /// Embedded file name.
        file: &'static str,
        /// Expected hex digest.
        expected: &'static str,
        /// Computed hex digest.
        got: String,
    },
    /// An embedded file does not parse as expected (should never happen for a clean checkout).
    #[error("embedded dataset {file} is malformed at line {line}: {reason}")]
    Malformed {
        /// Embedded file name.
        file: &'static str,
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        reason: String,
    },
}

/// Result alias for `fair-data`.
pub type Result<T> = std::result::Result<T, DataError>;

impl From<fair_core::GroupsError> for DataError {
    /// Each [`GroupsError`](fair_core::GroupsError) variant becomes the variant of the same
    /// name (same fields, same message).
    fn from(e: fair_core::GroupsError) -> Self {
        use fair_core::GroupsError as G;
        match e {
            G::LengthMismatch {
                what,
                expected,
                got,
            } => DataError::LengthMismatch {
                what,
                expected,
                got,
            },
            G::GroupCodeOutOfRange {
                row,
                code,
                n_groups,
            } => DataError::GroupCodeOutOfRange {
                row,
                code,
                n_groups,
            },
            G::Empty { what } => DataError::Empty { what },
            G::InvalidParameter {
                name,
                value,
                expected,
            } => DataError::InvalidParameter {
                name,
                value,
                expected,
            },
            // `GroupsError` is non-exhaustive; new variants keep their message.
            other => DataError::InvalidParameter {
                name: "groups",
                value: other.to_string(),
                expected: "valid groups",
            },
        }
    }
}
