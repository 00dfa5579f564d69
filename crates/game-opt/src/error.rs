//! The one error type of `game-opt`.

use thiserror::Error;

/// Everything that can go wrong while building a rate-constrained problem, training on it, or
/// shrinking its iterates.
///
/// Each message names the offending input and says what to fix. Outcomes that are answers rather
/// than mistakes (running all iterations, a user stop, an LP that had to relax its violation bound)
/// are reported through [`Termination`](crate::Termination) and [`ShrinkOutcome`](crate::ShrinkOutcome), not
/// here. The enum is `#[non_exhaustive]`: keep a catch-all arm.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum GameOptError {
    /// A setting is outside its documented range.
    #[error("invalid setting {name} = {value}: expected {expected}")]
    InvalidParam {
        /// The setting's name (as its setter is named).
        name: &'static str,
        /// The rejected value, formatted.
        value: String,
        /// The accepted range.
        expected: &'static str,
    },
    /// Two inputs that must describe the same rows (or parameters) have different lengths.
    #[error("length mismatch for {what}: expected {expected}, got {got}; pass one value per row")]
    LengthMismatch {
        /// Which input has the wrong length.
        what: &'static str,
        /// The length implied by the other inputs.
        expected: usize,
        /// The length passed.
        got: usize,
    },
    /// An input that must have rows has none.
    #[error("{what} is empty: at least one row is needed")]
    Empty {
        /// Which input is empty.
        what: &'static str,
    },
    /// A feature, score, weight or coefficient is NaN or infinite.
    #[error("{what} has a non-finite value ({value}) at index {index}: remove or impute it")]
    NonFinite {
        /// Which input holds it.
        what: &'static str,
        /// Flat index of the value.
        index: usize,
        /// The value.
        value: f64,
    },
    /// The labels contain a single class, so error rates and TPR/FPR cannot all be defined.
    #[error(
        "labels contain only class {class} ({count} rows): rate-constrained training needs both classes"
    )]
    SingleClass {
        /// The only class present (0 or 1).
        class: usize,
        /// Number of rows.
        count: usize,
    },
    /// A label is not 0 or 1.
    #[error("label {label} at row {row} is not binary: pass 0 (negative) or 1 (positive)")]
    NonBinaryLabel {
        /// Row index.
        row: usize,
        /// The label found.
        label: usize,
    },
    /// A constraint refers to a sensitive attribute the examples do not have.
    #[error("unknown sensitive attribute {attribute:?}; the examples have {available:?}")]
    UnknownAttribute {
        /// The attribute asked for.
        attribute: String,
        /// The attributes present.
        available: Vec<String>,
    },
    /// A constraint refers to a group its attribute does not have.
    #[error("attribute {attribute:?} has no group {group:?}; its groups are {available:?}")]
    UnknownGroup {
        /// The attribute.
        attribute: String,
        /// The group asked for.
        group: String,
        /// The groups present.
        available: Vec<String>,
    },
    /// A subset refers to a named mask the examples do not have.
    #[error(
        "unknown mask {name:?}; the examples have masks {available:?} (add one with Examples::with_mask)"
    )]
    UnknownMask {
        /// The mask asked for.
        name: String,
        /// The masks present.
        available: Vec<String>,
    },
    /// A constraint uses churn, wins or losses but the examples carry no baseline predictions.
    #[error(
        "constraint {constraint} needs baseline predictions (churn, wins, losses, baseline-based subsets): call Examples::with_baseline first"
    )]
    MissingBaseline {
        /// Index of the constraint.
        constraint: usize,
    },
    /// A rate's subset (its denominator) has no rows in these examples.
    #[error(
        "constraint {constraint}: the subset {subset} has no rows in these examples, so its rate is undefined; drop the constraint or check the split and group names"
    )]
    EmptySubset {
        /// Index of the constraint (`usize::MAX` for the objective).
        constraint: usize,
        /// Description of the empty subset.
        subset: String,
    },
    /// No classifier — not even one that predicts every training row freely and at random — can
    /// satisfy the constraints together: they contradict each other on these examples.
    #[error(
        "the constraints are contradictory on these examples: even the best per-example randomized predictions violate them by {min_violation:.6}; loosen the bounds or add slack"
    )]
    Contradictory {
        /// The smallest achievable maximum violation.
        min_violation: f64,
    },
    /// A model parameter or gradient became NaN or infinite during training.
    #[error(
        "the {what} became non-finite at iteration {iteration}: lower the learning rates or standardize the features"
    )]
    NonFiniteGradient {
        /// What diverged (model gradient, multipliers, …).
        what: &'static str,
        /// Iteration (0-based).
        iteration: usize,
    },
    /// A model's parameter vector does not match its architecture or the features.
    #[error("model expects {expected} input features but the examples have {got}")]
    FeatureMismatch {
        /// Model input dimension.
        expected: usize,
        /// Feature count of the examples.
        got: usize,
    },
    /// The LP solver failed for a reason other than infeasibility.
    #[error("shrinking LP failed: {reason}")]
    Lp {
        /// The solver's message.
        reason: String,
    },
    /// A stochastic classifier was asked for with no candidate iterates.
    #[error("no candidate iterates: train with at least one snapshot before asking for {what}")]
    NoCandidates {
        /// What was asked for.
        what: &'static str,
    },
    /// Mixture weights are negative or do not sum to one.
    #[error("invalid mixture weights: {reason}")]
    InvalidWeights {
        /// Why.
        reason: String,
    },
    /// Bytes given to `from_bytes` are not a saved classifier this build can read (wrong magic or format
    /// version, truncated, trailing bytes, or an invalid value).
    #[error("cannot decode a saved classifier: {reason}")]
    Decode {
        /// What is wrong with the bytes.
        reason: String,
    },
    /// Errors from the dataset layer.
    #[error(transparent)]
    Data(#[from] fair_data::DataError),
    /// Errors from the metrics layer.
    #[error(transparent)]
    Metric(#[from] fair_metrics::MetricError),
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, GameOptError>;

/// Invalid group membership ([`fair_data::Groups`] is built in `fair-core`) is a data error:
/// it becomes [`GameOptError::Data`] with the same message.
impl From<fair_data::GroupsError> for GameOptError {
    fn from(e: fair_data::GroupsError) -> Self {
        GameOptError::Data(e.into())
    }
}
