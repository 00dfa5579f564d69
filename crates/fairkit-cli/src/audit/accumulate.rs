//! Folding decoded batches into mergeable states: the audit's [`AuditState`] (the finest groups'
//! confusion cells per prediction source; memory independent of the row count) and with a score
//! one [`ScoreStore`] keyed by the finest groups, from which every slice's score metrics are
//! derived (so score memory is paid once, not once per slice).

use super::score_store::ScoreStore;
use crate::error::{CliError, InputError};
use fair_audit::ingest::{AuditState, Decoded, Decoder};
use std::path::PathBuf;

/// The running states of an audit.
pub struct Accumulator {
    /// The confusion cells of the finest groups, per prediction source.
    pub state: AuditState,
    /// Thresholds (empty = prediction column).
    thresholds: Vec<f64>,
    /// Score rows keyed by the finest groups (spilled to disk above the memory budget).
    pub scores: Option<ScoreStore>,
}

/// Where the score rows go: whether weighted, the memory budget and the spill directory.
pub struct ScoreSettings {
    /// Rows carry weights.
    pub weighted: bool,
    /// Bytes the buffered score rows may take before they are spilled.
    pub budget: u64,
    /// Directory of the temporary spill file.
    pub spill_dir: PathBuf,
}

impl Accumulator {
    /// Empty states for the positive label `positive` and the thresholds.
    pub fn new(positive: &str, thresholds: &[f64], scores: Option<ScoreSettings>) -> Self {
        Self {
            state: AuditState::new(positive, thresholds.len().max(1)),
            thresholds: thresholds.to_vec(),
            scores: scores.map(|s| ScoreStore::new(s.weighted, s.budget, s.spill_dir)),
        }
    }

    /// Adds one decoded batch.
    ///
    /// # Errors
    /// [`CliError::Input`] if the state rejects the batch (it should not: the decoder validated
    /// every cell), and [`CliError::Write`] when spilling score rows to disk fails.
    pub fn add(&mut self, batch: &Decoded, decoder: &Decoder) -> Result<(), CliError> {
        self.state
            .add(batch, decoder, &self.thresholds)
            .map_err(InputError::from)?;
        if let (Some(store), Some(scores)) = (self.scores.as_mut(), &batch.scores) {
            store.add(
                &batch.finest,
                &batch.labels,
                scores,
                batch.weights.as_deref(),
            )?;
        }
        Ok(())
    }
}
