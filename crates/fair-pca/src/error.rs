//! The one error type of `fair-pca`.

use fair_data::DataError;
use fair_metrics::MetricError;
use thiserror::Error;

/// Everything that can go wrong while configuring, fitting or applying a fair PCA.
///
/// Bad input and bad settings are errors; running out of iterations, a stalled line search or an
/// observer asking to stop are *outcomes*, reported in [`Termination`](crate::Termination). Every message
/// names the offending value and says what to fix. The enum is `#[non_exhaustive]`: match the
/// variants you handle and keep a catch-all arm.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum FairPcaError {
    /// The target dimension is not in `1..d`.
    #[error(
        "target dimension r = {r} is invalid for data with {d} features: choose 1 <= r < d \
         (r = d keeps every direction, so there is nothing to trade off)"
    )]
    InvalidRank {
        /// The requested target dimension.
        r: usize,
        /// The number of features (columns of `x`).
        d: usize,
    },
    /// A group has fewer rows than the target dimension (or none at all).
    #[error(
        "group {group:?} has {rows} rows but r = {r}: each group needs at least r rows for its own \
         rank-r PCA; lower r, merge small groups, or drop empty ones with Groups::compact()"
    )]
    GroupTooSmall {
        /// The group's name.
        group: String,
        /// Its number of rows.
        rows: usize,
        /// The target dimension.
        r: usize,
    },
    /// Fewer than two groups: there is no disparity to balance.
    #[error(
        "fair PCA needs at least two groups, got {found} ({names}); pick a sensitive attribute \
         with two or more groups, or use vanilla PCA"
    )]
    TooFewGroups {
        /// Number of declared groups.
        found: usize,
        /// Their names, comma separated.
        names: String,
    },
    /// A method supports only some numbers of groups.
    #[error("{method} supports {supported}, got {got} groups; {hint}")]
    UnsupportedGroupCount {
        /// The method.
        method: &'static str,
        /// What it supports, in words.
        supported: &'static str,
        /// The number of groups passed.
        got: usize,
        /// What to use instead.
        hint: &'static str,
    },
    /// An input that must have rows has none.
    #[error("{what} is empty: at least one row is needed")]
    Empty {
        /// Which input is empty.
        what: &'static str,
    },
    /// A value in the input matrix is NaN or infinite.
    #[error(
        "{what} has a non-finite value ({value}) at row {row}, column {col}: remove or impute it first"
    )]
    NonFinite {
        /// Which input holds the value.
        what: &'static str,
        /// Row index (0-based).
        row: usize,
        /// Column index (0-based).
        col: usize,
        /// The offending value.
        value: f64,
    },
    /// Two inputs that must describe the same rows (or columns) have different lengths.
    #[error("length mismatch for {what}: expected {expected}, got {got}")]
    LengthMismatch {
        /// Which input has the wrong length.
        what: &'static str,
        /// The length implied by the other inputs.
        expected: usize,
        /// The length that was passed.
        got: usize,
    },
    /// A setting is outside its valid range.
    #[error("invalid parameter {name} = {value}: expected {expected}")]
    InvalidParameter {
        /// Setting name (as its setter is called).
        name: &'static str,
        /// The value passed, formatted.
        value: String,
        /// The valid range, in words.
        expected: &'static str,
    },
    /// A numerical routine failed on finite input (an eigen-solver or SVD did not converge, or an
    /// iterate became non-finite).
    #[error(
        "numerical breakdown in {step}: {reason}; check the data's scale (standardize it) or use \
         per-sample losses, and please report it if the data is well scaled"
    )]
    Numerical {
        /// Where it happened.
        step: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// Bytes given to `from_bytes` are not a saved projection this build can read (wrong magic or format
    /// version, truncated, trailing bytes, or an invalid value).
    #[error("cannot decode a saved projection: {reason}")]
    Decode {
        /// What is wrong with the bytes.
        reason: String,
    },
    /// An error from `fair-data`.
    #[error(transparent)]
    Data(#[from] DataError),
    /// An error from `fair-metrics` (while computing reported losses).
    #[error(transparent)]
    Metric(#[from] MetricError),
}

/// Result alias for `fair-pca`.
pub type Result<T> = std::result::Result<T, FairPcaError>;

/// Invalid group membership ([`fair_data::Groups`] is built in `fair-core`) is a data error:
/// it becomes [`FairPcaError::Data`] with the same message.
impl From<fair_data::GroupsError> for FairPcaError {
    fn from(e: fair_data::GroupsError) -> Self {
        FairPcaError::Data(e.into())
    }
}
