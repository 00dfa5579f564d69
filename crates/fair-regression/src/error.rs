//! The one error type of `fair-regression`.

use thiserror::Error;

/// Everything that can go wrong while configuring, fitting or applying the barycenter
/// post-processor. Every message names the offending value and says what to fix. The enum is
/// `#[non_exhaustive]`: match the variants you handle and keep a catch-all arm.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum FairRegressionError {
    /// A setting is outside its valid range.
    #[error("invalid parameter {name} = {value}: expected {expected}")]
    InvalidParameter {
        /// The setting's name.
        name: &'static str,
        /// The value passed, formatted.
        value: String,
        /// The valid range, in words.
        expected: &'static str,
    },
    /// No rows at fit time.
    #[error("no rows: fitting the barycenter needs at least one prediction per group")]
    Empty,
    /// No sensitive attribute was given.
    #[error("no sensitive attribute: pass at least one group column")]
    NoAttributes,
    /// Two inputs that must describe the same rows have different lengths.
    #[error("length mismatch for {what}: expected {expected}, got {got}")]
    LengthMismatch {
        /// Which input has the wrong length.
        what: String,
        /// The length implied by the predictions.
        expected: usize,
        /// The length passed.
        got: usize,
    },
    /// A prediction or weight is NaN or infinite.
    #[error("{what} has a non-finite value ({value} at row {row}): impute or drop the row first")]
    NonFinite {
        /// `"predictions"` or `"weights"`.
        what: &'static str,
        /// The row.
        row: usize,
        /// The value found.
        value: f64,
    },
    /// A sample weight is negative.
    #[error("weights has a negative value ({value} at row {row}): weights must be >= 0")]
    NegativeWeight {
        /// The row.
        row: usize,
        /// The value found.
        value: f64,
    },
    /// A declared group has no rows (or only rows of weight 0) at fit time.
    #[error(
        "group {group:?} of sensitive attribute {attribute} has no rows with positive weight: \
         drop it (Groups::compact()) or give it rows"
    )]
    EmptyGroup {
        /// The attribute's position (0 = the first).
        attribute: usize,
        /// The group's name.
        group: String,
    },
    /// An attribute has a single group: it is already fair, and equipy refuses it too.
    #[error(
        "sensitive attribute {attribute} has a single group ({group:?}): it is already fair; \
         remove it from the sensitive attributes"
    )]
    SingleGroup {
        /// The attribute's position.
        attribute: usize,
        /// The one group.
        group: String,
    },
    /// The number of attributes at transform time differs from the fit.
    #[error("{got} sensitive attributes passed, the post-processor was fitted with {expected}")]
    AttributeCount {
        /// Attributes at fit time.
        expected: usize,
        /// Attributes passed now.
        got: usize,
    },
    /// The per-attribute fairness levels do not match the attributes.
    #[error(
        "{got} fairness levels alpha for {expected} sensitive attributes: pass one alpha \
         (used for every attribute) or one per attribute"
    )]
    AlphaCount {
        /// Attributes.
        expected: usize,
        /// Levels passed.
        got: usize,
    },
    /// A row at transform time is in a group (or a combination of groups) not seen at fit time.
    #[error(
        "row {row}: group {group:?} of sensitive attribute {attribute} was not seen at fit time{}; \
         fit on rows that include it",
        within.as_ref().map(|w| format!(" among the rows with {w}")).unwrap_or_default()
    )]
    UnseenGroup {
        /// The first row in that group.
        row: usize,
        /// The attribute's position.
        attribute: usize,
        /// The group's name.
        group: String,
        /// For several attributes: the later attributes' groups of the row (the stratum the
        /// sequential correction conditions on), `attribute=group` joined by `, `.
        within: Option<String>,
    },
    /// Bytes given to `from_bytes` are not a saved post-processor this build can read.
    #[error("cannot restore the barycenter post-processor: {reason}")]
    Decode {
        /// What is wrong with the bytes.
        reason: String,
    },
}

/// `Result` with [`FairRegressionError`].
pub type Result<T> = std::result::Result<T, FairRegressionError>;
