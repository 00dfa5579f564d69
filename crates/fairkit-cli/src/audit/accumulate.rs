//! Folding batches into mergeable states: per (prediction source, slice) a
//! [`ConfusionState`] (memory independent of the row count), and with a score one
//! [`ScoreState`] keyed by the finest groups (the intersection), from which every slice's score
//! metrics are derived (so score memory is paid once, not once per slice).

use crate::error::CliError;
use crate::input::{Batch, FxHashMap, GroupDictionary};
use fair_data::Groups;
use fair_metrics::state::{ConfusionState, ScoreState};

/// Bytes per row held by a score state while reading (one sorted entry) plus, when the metrics
/// are computed, the expanded columns (label, score, group code, weight): the figure the memory
/// budget is checked against.
pub const SCORE_BYTES_PER_ROW: u64 = 32 + 32;

/// A slice: one sensitive column, or the intersection of all of them.
#[derive(Debug, Clone)]
pub struct SliceDef {
    /// Display name ("race" or "race & sex").
    pub name: String,
    /// Indices of the sensitive columns it is made of.
    pub attributes: Vec<usize>,
}

/// The running states of an audit.
pub struct Accumulator {
    /// Slices, in report order (each column, then the intersection).
    pub slices: Vec<SliceDef>,
    /// `confusion[source][slice]`; sources are the prediction column or each threshold.
    pub confusion: Vec<Vec<ConfusionState>>,
    /// Thresholds (empty = prediction column).
    thresholds: Vec<f64>,
    /// Score state keyed by the finest group names.
    pub scores: Option<ScoreState>,
    /// Finest group: code by tuple of attribute codes, and its parts' names.
    finest_index: FxHashMap<Vec<u32>, u32>,
    /// Parts (one value per sensitive column) of each finest group, by finest code.
    pub finest_parts: Vec<Vec<String>>,
    /// Rows in the score state.
    score_rows: u64,
    budget: u64,
}

impl Accumulator {
    /// States for `n_attributes` sensitive columns named `names`.
    pub fn new(names: &[String], thresholds: &[f64], with_scores: bool, budget: u64) -> Self {
        let mut slices: Vec<SliceDef> = names
            .iter()
            .enumerate()
            .map(|(i, n)| SliceDef {
                name: n.clone(),
                attributes: vec![i],
            })
            .collect();
        if names.len() >= 2 {
            slices.push(SliceDef {
                name: names.join(" & "),
                attributes: (0..names.len()).collect(),
            });
        }
        let sources = thresholds.len().max(1);
        Self {
            confusion: vec![vec![ConfusionState::new(); slices.len()]; sources],
            slices,
            thresholds: thresholds.to_vec(),
            scores: with_scores.then(ScoreState::new),
            finest_index: FxHashMap::default(),
            finest_parts: Vec::new(),
            score_rows: 0,
            budget,
        }
    }

    /// Adds one batch.
    ///
    /// # Errors
    /// [`CliError::Metric`] if a state rejects the batch (it should not: the reader validated
    /// every cell), and [`CliError::InvalidFlag`] for `--memory-budget` when the score state
    /// outgrows it.
    pub fn add(&mut self, batch: &Batch, dictionaries: &[GroupDictionary]) -> Result<(), CliError> {
        let metric = |what: &str| {
            let what = what.to_string();
            move |source| CliError::Metric { what, source }
        };
        let finest = self.finest_codes(batch, dictionaries);
        let finest_names: Vec<String> = self.finest_parts.iter().map(|p| p.join(" & ")).collect();
        let groups_per_slice: Vec<Groups> = self
            .slices
            .iter()
            .map(|s| {
                if s.attributes.len() == 1 {
                    let a = s.attributes[0];
                    let codes = batch.sensitive[a].iter().map(|&c| c as usize).collect();
                    Groups::new(codes, dictionaries[a].names().to_vec())
                } else {
                    Groups::new(finest.clone(), finest_names.clone())
                }
            })
            .collect::<Result<_, _>>()
            .map_err(|e| CliError::Metric {
                what: "group codes".into(),
                source: fair_metrics::MetricError::from(e),
            })?;
        let weights = batch.weights.as_deref();
        for (source, states) in self.confusion.iter_mut().enumerate() {
            let derived;
            let preds: &[usize] = match (self.thresholds.get(source), &batch.preds, &batch.scores) {
                (Some(&t), _, Some(scores)) => {
                    derived = scores
                        .iter()
                        .map(|&s| usize::from(s >= t))
                        .collect::<Vec<_>>();
                    &derived
                }
                (None, Some(p), _) => p,
                _ => &batch.labels, // unreachable by flag validation; audits labels vs labels
            };
            for (state, groups) in states.iter_mut().zip(&groups_per_slice) {
                state
                    .update(&batch.labels, preds, groups, weights)
                    .map_err(metric("confusion counts"))?;
            }
        }
        if let (Some(state), Some(scores)) = (self.scores.as_mut(), &batch.scores) {
            self.score_rows += batch.len() as u64;
            if self.score_rows.saturating_mul(SCORE_BYTES_PER_ROW) > self.budget {
                return Err(CliError::InvalidFlag {
                    flag: "--memory-budget",
                    value: format!("{} bytes", self.budget),
                    expected: format!(
                        "room for the exact score metrics of {} rows so far (≈{} bytes per row); raise --memory-budget, or drop --score for a counts-only audit (spilling score states to disk is not implemented yet)",
                        self.score_rows, SCORE_BYTES_PER_ROW
                    ),
                });
            }
            let groups = Groups::new(finest, finest_names).map_err(|e| CliError::Metric {
                what: "group codes".into(),
                source: fair_metrics::MetricError::from(e),
            })?;
            state
                .update(&batch.labels, scores, &groups, weights)
                .map_err(metric("score state"))?;
        }
        Ok(())
    }

    /// The finest group code of every row (the intersection of all sensitive columns).
    fn finest_codes(&mut self, batch: &Batch, dictionaries: &[GroupDictionary]) -> Vec<usize> {
        let mut key = vec![0_u32; batch.sensitive.len()];
        (0..batch.len())
            .map(|i| {
                for (k, col) in key.iter_mut().zip(&batch.sensitive) {
                    *k = col[i];
                }
                if let Some(&c) = self.finest_index.get(&key) {
                    return c as usize;
                }
                let c = self.finest_parts.len() as u32;
                self.finest_parts.push(
                    key.iter()
                        .zip(dictionaries)
                        .map(|(&k, d)| d.names()[k as usize].clone())
                        .collect(),
                );
                self.finest_index.insert(key.clone(), c);
                c as usize
            })
            .collect()
    }
}
