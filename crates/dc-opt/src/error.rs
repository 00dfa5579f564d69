//! The crate's single error type.

/// Everything that can go wrong in `dc-opt`. Each message says what to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DcOptError {
    /// A setting is out of its documented range.
    #[error("invalid setting `{name}` = {value}: {expected}")]
    InvalidParameter {
        /// The setting's name.
        name: &'static str,
        /// The rejected value, formatted.
        value: String,
        /// The accepted range.
        expected: &'static str,
    },
    /// Two inputs that must have the same length do not.
    #[error("length mismatch for {what}: expected {expected}, got {got}")]
    LengthMismatch {
        /// Which input.
        what: &'static str,
        /// The required length.
        expected: usize,
        /// The given length.
        got: usize,
    },
    /// An input contains NaN or an infinity.
    #[error("{what} contains a non-finite value at position {index}; clean the input first")]
    NonFinite {
        /// Which input.
        what: &'static str,
        /// The first offending position.
        index: usize,
    },
    /// An input that must not be empty is empty.
    #[error("{what} is empty; at least one row is needed")]
    Empty {
        /// Which input.
        what: &'static str,
    },
    /// A group (or group × label cell) used by a constraint has no training rows.
    #[error("group {group} has no rows in {what}; merge or drop the group")]
    EmptyGroup {
        /// The group code.
        group: usize,
        /// Which subset (e.g. "positives of the group").
        what: &'static str,
    },
    /// Fewer than two groups: there is nothing to compare.
    #[error("fairness constraints need at least two groups, got {got}")]
    TooFewGroups {
        /// The number of groups present.
        got: usize,
    },
    /// A label is not 0 or 1.
    #[error("label {label} at row {index} is not 0 or 1 (binary classification only)")]
    LabelOutOfRange {
        /// The label.
        label: usize,
        /// Its row.
        index: usize,
    },
    /// A sparse matrix is malformed.
    #[error("malformed sparse rows: {reason}")]
    MalformedSparse {
        /// What is wrong.
        reason: String,
    },
    /// IDCA needs a (nearly) feasible start.
    #[error(
        "the starting point violates a constraint by {violation:.3e} > tolerance {tolerance:.3e}; \
         IDCA needs a feasible start (use the problem's `initial_point`)"
    )]
    InfeasibleStart {
        /// `max_i f_i(x0)`.
        violation: f64,
        /// The accepted violation (the inner tolerance ε).
        tolerance: f64,
    },
    /// The starting point lies outside the feasible set W.
    #[error("the starting point lies outside the feasible set W ({set}); project it first")]
    StartOutsideSet {
        /// The set, formatted.
        set: String,
    },
    /// A numerical routine produced a non-finite value (e.g. the iterates diverged).
    #[error("numerical failure in {stage}: {reason}")]
    Numerical {
        /// Where.
        stage: &'static str,
        /// What happened.
        reason: String,
    },
    /// Bytes given to `from_bytes` are not a saved cross-term model this build can read (wrong magic or format
    /// version, truncated, trailing bytes, or an invalid value).
    #[error("cannot decode a saved cross-term model: {reason}")]
    Decode {
        /// What is wrong with the bytes.
        reason: String,
    },
    /// The data layer rejected an input.
    #[error(transparent)]
    Data(#[from] fair_data::DataError),
    /// A metric rejected an input.
    #[error(transparent)]
    Metric(#[from] fair_metrics::MetricError),
}

/// Result alias of the crate.
pub type Result<T> = std::result::Result<T, DcOptError>;

pub(crate) fn check_finite(what: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(DcOptError::NonFinite { what, index }),
        None => Ok(()),
    }
}

pub(crate) fn check_len(what: &'static str, expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(DcOptError::LengthMismatch {
            what,
            expected,
            got,
        })
    }
}

/// Invalid group membership ([`fair_data::Groups`] is built in `fair-core`) is a data error:
/// it becomes [`DcOptError::Data`] with the same message.
impl From<fair_data::GroupsError> for DcOptError {
    fn from(e: fair_data::GroupsError) -> Self {
        DcOptError::Data(e.into())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn error_is_send_and_sync() {
        fn assert<T: Send + Sync + 'static>() {}
        assert::<super::DcOptError>();
    }
}
