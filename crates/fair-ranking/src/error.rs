//! The one error type of `fair-ranking`.

use thiserror::Error;

/// Everything that can go wrong while configuring or running a re-ranker. Every message names
/// the offending value and says what to fix. The enum is `#[non_exhaustive]`: match the
/// variants you handle and keep a catch-all arm.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum RankingError {
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
    /// FA*IR's table could not be built from the settings.
    #[error("cannot build FA*IR's table: {reason}")]
    Table {
        /// The table function's message.
        reason: String,
    },
    /// Two inputs that must describe the same candidates have different lengths.
    #[error("length mismatch for {what}: expected {expected} (one per score), got {got}")]
    LengthMismatch {
        /// Which input has the wrong length.
        what: &'static str,
        /// The number of scores.
        expected: usize,
        /// The length passed.
        got: usize,
    },
    /// A score is NaN or infinite.
    #[error("score of candidate {row} is {value}: scores must be finite; impute or drop the row")]
    NonFinite {
        /// The candidate (0-based, in input order).
        row: usize,
        /// The value found.
        value: f64,
    },
    /// Fewer candidates than positions to fill.
    #[error("k = {k} positions but only {got} candidates: lower k to at most {got}")]
    NotEnoughCandidates {
        /// Positions asked for.
        k: usize,
        /// Candidates given.
        got: usize,
    },
    /// FA*IR's table asks for more protected candidates than there are.
    #[error(
        "FA*IR's table needs {needed} protected items in the top {position} (and {needed_total} \
         in the top k), but only {got} candidates are protected: add protected candidates, \
         lower k, p or alpha"
    )]
    NotEnoughProtected {
        /// The protected items the table asks for at `position`.
        needed: u64,
        /// The first (1-based) prefix length the protected candidates cannot fill.
        position: usize,
        /// The protected items the table asks for in the whole top k.
        needed_total: u64,
        /// Protected candidates given.
        got: usize,
    },
    /// A candidate's group code has no target share.
    #[error(
        "candidate {row} is in group {group}, but the target distribution has {groups} groups \
         (codes 0..{groups}): give every group a share"
    )]
    GroupOutOfRange {
        /// The candidate.
        row: usize,
        /// Its group code.
        group: usize,
        /// Groups in the target distribution.
        groups: usize,
    },
    /// DetConstSort ran out of candidates in the groups with a positive target share.
    #[error(
        "only {placed} of the k = {k} positions can be filled: the groups with a positive target \
         share have no candidates left; lower k or give those groups more candidates"
    )]
    TargetUnreachable {
        /// Positions asked for.
        k: usize,
        /// Positions filled when the candidates ran out.
        placed: usize,
    },
    /// No ranking meets an exposure constraint.
    #[error(
        "{reason}: relax the constraint (a tolerance > 0) or use demographic parity, which every query can meet"
    )]
    Infeasible {
        /// What the solver found.
        reason: String,
    },
    /// A query of a many-query call failed.
    #[error("query {query}: {source}")]
    InQuery {
        /// The query's code (0-based).
        query: usize,
        /// What went wrong in it.
        source: Box<RankingError>,
    },
}

/// `Result` with [`RankingError`].
pub type Result<T> = std::result::Result<T, RankingError>;
