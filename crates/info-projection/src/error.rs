//! The one error type of `info-projection`.

use thiserror::Error;

/// Everything that can go wrong while configuring, fitting or applying a [`FairProjection`](crate::FairProjection).
///
/// Bad input, bad settings and numerical breakdown are errors; reaching the iteration limit is
/// not (it is [`Termination::MaxIterations`](crate::Termination::MaxIterations) in the fit report).
/// Each message names the offending value and says what to fix.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum InfoProjectionError {
    /// A partitioned fit's pieces do not fit together (see [`PartitionedFit`](crate::PartitionedFit)):
    /// sums of different shapes, a pass that saw other rows than the marginal pass, or a pass
    /// the caller's oracle could not run.
    #[error("partitioned FairProjection fit: {reason}")]
    Partitioned {
        /// What does not fit, and what to do.
        reason: String,
    },
    /// Bytes given to [`FairProjectionValidParams::restore`](crate::FairProjectionValidParams::restore)
    /// are not a saved projector for these settings.
    #[error("cannot restore the saved FairProjection: {reason}")]
    Decode {
        /// What is wrong with the bytes.
        reason: String,
    },
    /// A setting is outside its valid range.
    #[error("invalid parameter {name} = {value}: expected {expected}")]
    InvalidParameter {
        /// Parameter name (the setter's name).
        name: &'static str,
        /// The value passed, formatted.
        value: String,
        /// The valid range, in words.
        expected: &'static str,
    },
    /// Fewer than two classes: there is nothing to post-process.
    #[error(
        "the probability matrix has {n_classes} column(s): FairProjection needs at least 2 classes (one column per class)"
    )]
    TooFewClasses {
        /// Number of columns passed.
        n_classes: usize,
    },
    /// Fewer than two groups: group-fairness constraints are vacuous.
    #[error("{n_groups} group(s) given: group-fairness constraints need at least 2 groups")]
    TooFewGroups {
        /// Number of groups declared.
        n_groups: usize,
    },
    /// An input that must have rows has none.
    #[error("{what} is empty: at least one row is needed")]
    Empty {
        /// Which input.
        what: &'static str,
    },
    /// Two inputs that must describe the same rows (or the same classes/groups) differ in size.
    #[error("length mismatch for {what}: expected {expected}, got {got}")]
    LengthMismatch {
        /// Which input is too short or too long.
        what: &'static str,
        /// The size implied by the other inputs (or by the fitted projector).
        expected: usize,
        /// The size that was passed.
        got: usize,
    },
    /// A NaN or infinite entry.
    #[error(
        "{what} has a non-finite value ({value}) at row {row}, column {col}: remove or impute it first"
    )]
    NonFinite {
        /// Which input.
        what: &'static str,
        /// Row index (0-based).
        row: usize,
        /// Column index (0-based).
        col: usize,
        /// The value.
        value: f64,
    },
    /// A probability below 0 or above 1.
    #[error("{what} has {value} at row {row}, column {col}: probabilities must lie in [0, 1]")]
    ProbabilityOutOfRange {
        /// Which input.
        what: &'static str,
        /// Row index (0-based).
        row: usize,
        /// Column index (0-based).
        col: usize,
        /// The value.
        value: f64,
    },
    /// A probability row does not sum to 1.
    #[error(
        "row {row} of {what} sums to {sum}, not 1 (tolerance 1e-6): pass calibrated probabilities, or choose RowPolicy::Renormalize"
    )]
    RowSumNotOne {
        /// Which input.
        what: &'static str,
        /// Row index (0-based).
        row: usize,
        /// The row sum.
        sum: f64,
    },
    /// A label is outside `0..n_classes`.
    #[error(
        "label {label} at row {row} is out of range: the probability matrix has {n_classes} classes"
    )]
    LabelOutOfRange {
        /// Row index (0-based).
        row: usize,
        /// The label.
        label: usize,
        /// Number of classes.
        n_classes: usize,
    },
    /// A declared group has no (probability) mass in the fitting data.
    #[error(
        "group {group:?} has no rows (or zero probability mass) in the fitting data: drop it (Groups::compact) or merge it"
    )]
    EmptyGroup {
        /// Group name (or index for probabilistic membership).
        group: String,
    },
    /// An equalized-odds cell (class, group) has no mass, so its conditional rate is undefined.
    #[error(
        "class {class} has no mass in group {group:?}: equalized odds is undefined there; merge small groups or use statistical parity"
    )]
    EmptyCell {
        /// The class.
        class: usize,
        /// Group name (or index).
        group: String,
    },
    /// Group membership given at prediction time does not match the one used for fitting.
    #[error("group information does not match the fitted projector: {reason}")]
    GroupMismatch {
        /// What differs.
        reason: String,
    },
    /// The linear program of the group-threshold decision rule failed.
    #[error("the group-threshold linear program failed: {reason}")]
    Lp {
        /// The solver's own account.
        reason: String,
    },
    /// The λ-step QP solver failed (numerical breakdown).
    #[error("the λ-step QP failed: {reason}")]
    Qp {
        /// The solver's own account.
        reason: String,
    },
    /// A non-finite value appeared during the solve (numerical breakdown).
    #[error("numerical breakdown in {stage}: {reason}; try a larger probability floor or zeta")]
    Numerical {
        /// Where.
        stage: &'static str,
        /// What.
        reason: String,
    },
    /// Input rejected by `fair-data`.
    #[error(transparent)]
    Data(#[from] fair_data::DataError),
    /// Input rejected by `fair-metrics`.
    #[error(transparent)]
    Metric(#[from] fair_metrics::MetricError),
}

/// Result alias of `info-projection`.
pub type Result<T> = std::result::Result<T, InfoProjectionError>;

pub(crate) fn invalid(
    name: &'static str,
    value: impl ToString,
    expected: &'static str,
) -> InfoProjectionError {
    InfoProjectionError::InvalidParameter {
        name,
        value: value.to_string(),
        expected,
    }
}

/// Invalid group membership ([`fair_data::Groups`] is built in `fair-core`) is a data error:
/// it becomes [`InfoProjectionError::Data`] with the same message.
impl From<fair_data::GroupsError> for InfoProjectionError {
    fn from(e: fair_data::GroupsError) -> Self {
        InfoProjectionError::Data(e.into())
    }
}
