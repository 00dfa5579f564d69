//! Mergeable sufficient statistics: what one batch, file, stream or cluster partition contributes
//! to an audit, combined exactly.
//!
//! * [`ConfusionState`] — per-group confusion cells (row counts and exact weight sums): every
//!   confusion rate, gap, confidence interval and test. O(groups) memory.
//! * [`ScoreState`] — per-group score multisets in canonical order: exact ROC/AUC, KS Δ / EO-Δ and
//!   partial SP. O(distinct rows) memory.
//!
//! Both key groups by name, merge associatively and commutatively, and encode to canonical
//! bytes, so a result is bit-identical whether computed on one machine, from a stream of batches
//! or merged from any partitioning in any order.

pub(crate) mod codec;
mod confusion;
mod exact_sum;
mod scores;
mod weighting;

pub use confusion::ConfusionState;
pub(crate) use confusion::{CELLS, GroupCells, rate_cells};
pub(crate) use exact_sum::ExactSum;
pub use exact_sum::ExactSumParts;
pub use scores::{ScoreColumns, ScoreState};
