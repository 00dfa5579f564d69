//! The one error type of `fair-metrics`.

use fair_data::DataError;
use thiserror::Error;

/// Everything that can go wrong while computing a metric.
///
/// Every message names the offending input (and row, where there is one) and says what to fix.
/// The enum is `#[non_exhaustive]`: match the variants you handle and keep a catch-all arm.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum MetricError {
    /// Two inputs that must describe the same rows have different lengths.
    #[error(
        "length mismatch for {what}: expected {expected} rows, got {got}; pass one value per row"
    )]
    LengthMismatch {
        /// Which input has the wrong length.
        what: &'static str,
        /// The length implied by the other inputs.
        expected: usize,
        /// The length that was passed.
        got: usize,
    },
    /// An input that must have rows has none.
    #[error("{what} is empty: at least one row is needed")]
    Empty {
        /// Which input is empty.
        what: &'static str,
    },
    /// A score, weight or feature is NaN or infinite.
    #[error("{what} has a non-finite value ({value}) at row {row}: remove or impute it first")]
    NonFinite {
        /// Which input holds the value.
        what: &'static str,
        /// Row index (0-based); for matrices, the flat column-major index.
        row: usize,
        /// The offending value.
        value: f64,
    },
    /// A sample weight is negative.
    #[error("sample weight at row {row} is negative ({value}): weights must be >= 0")]
    NegativeWeight {
        /// Row index (0-based).
        row: usize,
        /// The offending weight.
        value: f64,
    },
    /// The sample weights of the rows that count sum to zero.
    #[error("sample weights of {what} sum to zero: at least one row needs a positive weight")]
    ZeroTotalWeight {
        /// Which rows were summed (e.g. "all rows", "the subset").
        what: &'static str,
    },
    /// A label or prediction is outside the declared classes.
    #[error(
        "{what} has value {label} at row {row}, outside the {n_classes} declared classes 0..{n_classes}; binary metrics take 0/1 with 1 = positive"
    )]
    LabelOutOfRange {
        /// Which input holds the value (labels, predictions, baseline predictions).
        what: &'static str,
        /// Row index (0-based).
        row: usize,
        /// The value found.
        label: usize,
        /// Number of declared classes (2 for binary metrics).
        n_classes: usize,
    },
    /// A declared group has no rows, or only rows of zero weight.
    #[error(
        "group {group:?} has no rows (or zero total weight) in this input: drop it with Groups::compact() or check the split"
    )]
    EmptyGroup {
        /// The group's name.
        group: String,
    },
    /// A rate's denominator is zero for one group under [`ZeroDivision::Error`](crate::ZeroDivision::Error).
    #[error(
        "{rate} is undefined for group {group:?} (its denominator has zero weight, e.g. no positives): choose ZeroDivision::Skip or ZeroDivision::Zero, or drop the group"
    )]
    UndefinedRate {
        /// Which rate (e.g. "true positive rate").
        rate: &'static str,
        /// The group's name ("overall" for the pooled rate, "subset" for a rate-constraint subset).
        group: String,
    },
    /// Every group was skipped, so nothing is left to compare.
    #[error("{metric} is undefined: {reason}")]
    UndefinedMetric {
        /// Which metric.
        metric: &'static str,
        /// Why nothing could be computed.
        reason: &'static str,
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
    /// A group's sample weights sum beyond the largest `f64`.
    #[error(
        "the sample weights of group {group:?} sum beyond the largest f64 (about 1.8e308): rescale the weights (only their ratios matter)"
    )]
    WeightOverflow {
        /// The group's name.
        group: String,
    },
    /// Row counts (decoded from a state) that add up to more rows than the resampling tests can
    /// count exactly: only a corrupted or forged state has them.
    #[error(
        "the row counts of {what} add up to {total}, more than the 2^40 (about 1.1e12) rows the bootstrap and permutation tests draw exactly: the state is corrupted or forged (rebuild it from the data), or, if it is real, take the intervals without gap inference or run it on a sample"
    )]
    CountOverflow {
        /// Whose counts (a group, or a test's stratum).
        what: String,
        /// Their sum, or "more than 18446744073709551615" when it does not fit a `u64`.
        total: String,
    },
    /// Bytes that should encode a mergeable state do not.
    #[error("cannot decode the {what} at byte {offset}: {reason}")]
    Decode {
        /// Which state.
        what: &'static str,
        /// Byte offset where decoding failed.
        offset: usize,
        /// Why.
        reason: String,
    },
    /// A percentile interval `[alpha, beta)` is not inside `[0, 1]` with `alpha < beta`.
    #[error("invalid percentile interval [{alpha}, {beta}): need 0 <= alpha < beta <= 1")]
    InvalidInterval {
        /// Lower end.
        alpha: f64,
        /// Upper end.
        beta: f64,
    },
    /// A matrix has the wrong number of rows or columns.
    #[error("shape mismatch for {what}: expected {expected}, got {got}")]
    ShapeMismatch {
        /// Which matrix.
        what: &'static str,
        /// The expected shape, in words (e.g. "5 rows").
        expected: String,
        /// The shape that was passed.
        got: String,
    },
    /// A basis that must have orthonormal columns does not.
    #[error(
        "basis columns are not orthonormal: max |UᵀU − I| entry is {max_deviation:e} > tolerance {tolerance:e}; orthonormalize it (QR or polar) first"
    )]
    NotOrthonormal {
        /// Largest absolute entry of `UᵀU − I`.
        max_deviation: f64,
        /// The tolerance that was exceeded.
        tolerance: f64,
    },
    /// A named reference group (e.g. for [`disparity`](crate::disparity)) is not a group of its
    /// attribute.
    #[error(
        "reference group {group:?} is not a value of attribute {attribute:?} (its values: {available}); name one of them"
    )]
    UnknownReferenceGroup {
        /// The attribute (sensitive feature) name.
        attribute: String,
        /// The group that was asked for.
        group: String,
        /// The attribute's groups, comma-separated.
        available: String,
    },
    /// A row's membership probabilities (an inferred sensitive attribute) are not a probability
    /// vector.
    #[error(
        "membership probabilities of row {row} ({values}): {problem}; each row needs one probability per group, each in [0, 1], summing to 1 within {tolerance:e}"
    )]
    BadMembership {
        /// Row index (0-based, within the batch).
        row: usize,
        /// The row's values, `column=value` joined by commas.
        values: String,
        /// What is wrong (`p_b is NaN`, `they sum to 0.9`).
        problem: String,
        /// The tolerance on the sum.
        tolerance: f64,
    },
    /// An error from `fair-data` (e.g. while building groups).
    #[error(transparent)]
    Data(#[from] DataError),
}

/// Result alias for `fair-metrics`.
pub type Result<T> = std::result::Result<T, MetricError>;

/// Invalid group membership ([`fair_data::Groups`] is built in `fair-core`) is a data error:
/// it becomes [`MetricError::Data`] with the same message.
impl From<fair_data::GroupsError> for MetricError {
    fn from(e: fair_data::GroupsError) -> Self {
        MetricError::Data(e.into())
    }
}
