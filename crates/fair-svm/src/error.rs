//! The one error type of `fair-svm`.

use thiserror::Error;

/// Why a convex subproblem could not be solved (clarabel's status, mapped at the boundary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolverFailure {
    /// The interior-point solver hit its iteration limit.
    MaxIterations,
    /// The interior-point solver hit its time limit.
    MaxTime,
    /// The solver reported a numerical error (ill-conditioned data).
    NumericalError,
    /// The solver made no further progress.
    InsufficientProgress,
    /// The solver certified (primal or dual) infeasibility, which these problems cannot have:
    /// a symptom of badly scaled data.
    Infeasible,
    /// Any other non-solution outcome.
    Other,
}

impl std::fmt::Display for SolverFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            Self::MaxIterations => "interior-point iteration limit reached",
            Self::MaxTime => "interior-point time limit reached",
            Self::NumericalError => "numerical error",
            Self::InsufficientProgress => "insufficient progress",
            Self::Infeasible => "infeasibility reported",
            Self::Other => "no solution",
        };
        f.write_str(s)
    }
}

/// Everything that can go wrong when configuring, fitting or applying a fair SVM.
///
/// Every message names the offending input or setting and says what to fix. The enum is
/// `#[non_exhaustive]`: match the variants you handle and keep a catch-all arm.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum FairSvmError {
    /// A setting is outside its documented range.
    #[error("invalid setting {name} = {value}: expected {expected}")]
    InvalidParam {
        /// Setting name, as its setter is named.
        name: &'static str,
        /// The value passed (formatted).
        value: String,
        /// The documented range.
        expected: &'static str,
    },
    /// Two inputs that must describe the same rows (or columns) have different lengths.
    #[error(
        "length mismatch for {what}: expected {expected}, got {got}; pass one value per row of x"
    )]
    LengthMismatch {
        /// Which input has the wrong length.
        what: &'static str,
        /// The length implied by the other inputs.
        expected: usize,
        /// The length that was passed.
        got: usize,
    },
    /// An input that needs rows (or columns) has none.
    #[error("{what} is empty: at least one row and one feature are needed")]
    Empty {
        /// Which input is empty.
        what: &'static str,
    },
    /// A feature value is NaN or infinite.
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
    /// A label is not one of the classes 0 and 1.
    #[error(
        "y has class {value} at row {row}: only the classes 0 and 1 are accepted (1 is the \
         positive class, the paper's y = +1)"
    )]
    InvalidLabel {
        /// Row index (0-based).
        row: usize,
        /// The offending class index.
        value: usize,
    },
    /// All labels are equal: an SVM needs both classes.
    #[error("every label y is class {class}: an SVM needs rows of both classes 0 and 1")]
    SingleClass {
        /// The only class present.
        class: usize,
    },
    /// The sensitive groups are not exactly two.
    #[error(
        "the sensitive groups have {got} group(s) ({names}): the spectral fair SVM compares \
         exactly two (group code 1 is the paper's z = +1, code 0 is z = -1); merge groups with \
         fair_svm::one_vs_rest, or drop unused ones with Groups::compact"
    )]
    GroupCount {
        /// The number of groups declared.
        got: usize,
        /// The first few group names, comma-separated.
        names: String,
    },
    /// One protected class has no rows among the rows the fairness terms use.
    #[error(
        "group {group:?} (code {code}) has no rows{condition}: the fairness terms compare both \
         groups; check the protected attribute (or use demographic parity)"
    )]
    EmptyGroup {
        /// The group's name.
        group: String,
        /// Its code: 1 (the paper's z = +1) or 0 (z = −1).
        code: usize,
        /// `""` for demographic parity, `" with y = 1"` for equal opportunity.
        condition: &'static str,
    },
    /// The data are so large in magnitude that a covariance or kernel matrix overflowed.
    #[error("the {what} is not finite (overflow): standardize or rescale the features")]
    Overflow {
        /// Which derived matrix overflowed.
        what: &'static str,
    },
    /// The kernel problem would be too large for the configured size guard.
    #[error(
        "kernel SVM on {n} rows exceeds max_rows = {max}: the kernel path costs O(n^3) time and \
         O(n^2) memory; subsample the rows, use the linear SVM, or raise max_rows"
    )]
    TooLarge {
        /// Rows passed.
        n: usize,
        /// The configured limit.
        max: usize,
    },
    /// A convex subproblem failed before any usable iterate existed (the warm start).
    #[error(
        "the {stage} subproblem failed: {failure}; standardize the features or raise solver_max_iter"
    )]
    Solver {
        /// Which subproblem (e.g. "mean-constrained warm start").
        stage: &'static str,
        /// What clarabel reported.
        failure: SolverFailure,
    },
    /// clarabel rejected the problem data (a bug in this crate: please report it).
    #[error(
        "clarabel rejected the problem ({reason}); this is a bug in fair-svm, please report it"
    )]
    SolverSetup {
        /// clarabel's message.
        reason: String,
    },
    /// Bytes given to `from_bytes` are not a saved fair SVM this build can read (wrong magic or format
    /// version, truncated, trailing bytes, or an invalid value).
    #[error("cannot decode a saved fair SVM: {reason}")]
    Decode {
        /// What is wrong with the bytes.
        reason: String,
    },
    /// Input data rejected by `fair-data`.
    #[error(transparent)]
    Data(#[from] fair_data::DataError),
    /// A metric (AUC in cross-validation) rejected its input.
    #[error(transparent)]
    Metric(#[from] fair_metrics::MetricError),
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, FairSvmError>;

pub(crate) fn invalid(
    name: &'static str,
    value: impl ToString,
    expected: &'static str,
) -> FairSvmError {
    FairSvmError::InvalidParam {
        name,
        value: value.to_string(),
        expected,
    }
}

/// Invalid group membership ([`fair_data::Groups`] is built in `fair-core`) is a data error:
/// it becomes [`FairSvmError::Data`] with the same message.
impl From<fair_data::GroupsError> for FairSvmError {
    fn from(e: fair_data::GroupsError) -> Self {
        FairSvmError::Data(e.into())
    }
}
