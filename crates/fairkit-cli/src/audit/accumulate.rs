//! Folding batches into mergeable states: per (prediction source, slice) a
//! [`ConfusionState`] (memory independent of the row count), and with a score one
//! [`ScoreStore`] keyed by the finest groups (the intersection), from which every slice's score
//! metrics are derived (so score memory is paid once, not once per slice).

use super::score_store::ScoreStore;
use crate::error::CliError;
use crate::input::{Batch, FxHashMap, GroupDictionary};
use fair_audit::SliceDef;
use fair_data::Groups;
use fair_metrics::state::ConfusionState;
use std::path::PathBuf;

/// The running states of an audit.
pub struct Accumulator {
    /// Slices, in report order (each column, then the intersection).
    pub slices: Vec<SliceDef>,
    /// `confusion[source][slice]`; sources are the prediction column or each threshold.
    pub confusion: Vec<Vec<ConfusionState>>,
    /// Thresholds (empty = prediction column).
    thresholds: Vec<f64>,
    /// Score rows keyed by the finest groups (spilled to disk above the memory budget).
    pub scores: Option<ScoreStore>,
    /// Finest group: code by tuple of attribute codes, and its parts' names.
    finest_index: FxHashMap<Vec<u32>, u32>,
    /// Parts (one value per sensitive column) of each finest group, by finest code.
    pub finest_parts: Vec<Vec<String>>,
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
    /// States for `n_attributes` sensitive columns named `names`.
    pub fn new(names: &[String], thresholds: &[f64], scores: Option<ScoreSettings>) -> Self {
        let slices = SliceDef::all(names);
        let sources = thresholds.len().max(1);
        Self {
            confusion: vec![vec![ConfusionState::new(); slices.len()]; sources],
            slices,
            thresholds: thresholds.to_vec(),
            scores: scores.map(|s| ScoreStore::new(s.weighted, s.budget, s.spill_dir)),
            finest_index: FxHashMap::default(),
            finest_parts: Vec::new(),
        }
    }

    /// Adds one batch.
    ///
    /// # Errors
    /// [`CliError::Metric`] if a state rejects the batch (it should not: the reader validated
    /// every cell), and [`CliError::Write`] when spilling score rows to disk fails.
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
        if let (Some(store), Some(scores)) = (self.scores.as_mut(), &batch.scores) {
            store.add(&finest, &batch.labels, scores, weights)?;
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
