//! Folding decoded batches into mergeable states: the audit's [`AuditState`] (the finest groups'
//! confusion cells per prediction source; memory independent of the row count) and with a score
//! one [`ScoreStore`] keyed by the finest groups, from which every slice's score metrics are
//! derived (so score memory is paid once, not once per slice).

use super::score_store::ScoreStore;
use crate::error::{CliError, InputError};
use fair_audit::ingest::{AuditState, Decoded, Decoder};
use fair_metrics::regression::RegressionState;
use std::collections::HashMap;
use std::path::PathBuf;

/// The running states of an audit.
pub struct Accumulator {
    /// The confusion cells of the finest groups, per prediction source.
    pub state: AuditState,
    /// Thresholds (empty = prediction column).
    thresholds: Vec<f64>,
    /// Score rows keyed by the finest groups (spilled to disk above the memory budget).
    pub scores: Option<ScoreStore>,
    /// The score rows' groups: the decoder's finest groups without a leading `--by` /
    /// `--against` value.
    pub score_groups: ScoreGroups,
    /// A regression audit's exact sums per finest group (its predictions go to `scores`).
    pub regression: Option<RegressionState>,
    /// A regression audit with `--by`: its predictions again, by the decoder's finest groups
    /// (the by value leading), for each window's own distributions; `scores` keeps them by the
    /// sensitive columns alone, so the audit of all rows is exactly the audit without `--by`.
    pub window_scores: Option<ScoreStore>,
    /// The inferred attributes' states (`--sensitive-proba`).
    pub inferred: Option<fair_audit::inferred::InferredStates>,
}

/// The groups the score rows are kept by. With a leading `--by` or `--against` column the
/// decoder's finest groups carry its value first; the score metrics are those of all rows, so
/// their streams drop it. Then every weighted sum adds the rows of a group in one stream, as
/// `fairkit.audit` and Spark add them, and not stream by stream across the leading values.
#[derive(Default)]
pub struct ScoreGroups {
    /// Whether the decoder's groups lead with a column to drop.
    lead: bool,
    /// Score group of each decoder finest code seen so far.
    of_code: Vec<usize>,
    /// Each score group's values (the sensitive columns').
    parts: Vec<Vec<String>>,
    index: HashMap<Vec<String>, usize>,
}

impl ScoreGroups {
    /// Each score group's values, by score group.
    pub fn parts<'a>(&'a self, decoder: &'a Decoder) -> &'a [Vec<String>] {
        if self.lead {
            &self.parts
        } else {
            decoder.finest_parts()
        }
    }

    /// The score groups of a batch's finest codes.
    fn codes<'a>(
        &mut self,
        finest: &'a [usize],
        decoder: &Decoder,
    ) -> std::borrow::Cow<'a, [usize]> {
        if !self.lead {
            return std::borrow::Cow::Borrowed(finest);
        }
        for parts in &decoder.finest_parts()[self.of_code.len()..] {
            let rest = parts[1..].to_vec();
            let next = self.parts.len();
            let g = *self.index.entry(rest.clone()).or_insert(next);
            if g == next {
                self.parts.push(rest);
            }
            self.of_code.push(g);
        }
        std::borrow::Cow::Owned(finest.iter().map(|&c| self.of_code[c]).collect())
    }
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
    /// `lead`: the decoder's groups lead with a `--by` / `--against` value.
    pub fn new(
        positive: &str,
        thresholds: &[f64],
        scores: Option<ScoreSettings>,
        lead: bool,
    ) -> Self {
        Self {
            state: AuditState::new(positive, thresholds.len().max(1)),
            thresholds: thresholds.to_vec(),
            scores: scores.map(|s| ScoreStore::new(s.weighted, s.budget, s.spill_dir)),
            score_groups: ScoreGroups {
                lead,
                ..ScoreGroups::default()
            },
            regression: None,
            window_scores: None,
            inferred: None,
        }
    }

    /// Adds one decoded batch.
    ///
    /// # Errors
    /// [`CliError::Input`] if the state rejects the batch (it should not: the decoder validated
    /// every cell), and [`CliError::Write`] when spilling score rows to disk fails.
    pub fn add(&mut self, batch: &Decoded, decoder: &Decoder) -> Result<(), CliError> {
        if let (Some(sums), Some(targets), Some(predictions)) =
            (self.regression.as_mut(), &batch.targets, &batch.predictions)
        {
            // --unknowns exclude: the rows set aside are counted in the (otherwise unused) state.
            self.state
                .add_set_aside(batch, decoder)
                .map_err(InputError::from)?;
            let weights = batch.weights.as_deref();
            sums.update_coded(
                targets,
                predictions,
                &batch.finest,
                decoder.finest_names(),
                weights,
            )
            .map_err(|source| CliError::Metric {
                what: "regression sums".into(),
                source,
            })?;
            // The predictions are kept as a score is, under label 0.
            let zeros = vec![0; predictions.len()];
            if let Some(store) = self.scores.as_mut() {
                store.add(
                    &self.score_groups.codes(&batch.finest, decoder),
                    &zeros,
                    predictions,
                    weights,
                )?;
            }
            if let Some(store) = self.window_scores.as_mut() {
                store.add(&batch.finest, &zeros, predictions, weights)?;
            }
            return Ok(());
        }
        self.state
            .add(batch, decoder, &self.thresholds)
            .map_err(InputError::from)?;
        if let Some(inferred) = self.inferred.as_mut() {
            inferred.add(batch, decoder)?;
        }
        if let (Some(store), Some(scores)) = (self.scores.as_mut(), &batch.scores) {
            store.add(
                &self.score_groups.codes(&batch.finest, decoder),
                &batch.labels,
                scores,
                batch.weights.as_deref(),
            )?;
        }
        Ok(())
    }
}
