//! The comparison of two audits: exactly what compare.json (and report.json's `comparison`)
//! holds. Built by [`crate::compare`], read back by `fairkit compare`'s gates and Python.

use crate::keys::{Key, Name, de};
use serde::{Deserialize, Serialize};

/// The schema name written in every comparison JSON.
pub const COMPARE_SCHEMA: &str = "fairkit-compare";

/// One audited file, as its report names it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Side {
    /// `input.file` of the report.
    pub file: String,
    /// `input.rows`.
    pub rows: u64,
}

/// The statistics settings of a comparison.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CompareSettings {
    /// Interval level.
    pub confidence: f64,
    /// Bootstrap pairs of draws per gap.
    pub resamples: usize,
    /// Seed.
    pub seed: u64,
    /// How the changes are computed.
    pub method: String,
    /// How the rates' changes are computed.
    pub rate_method: String,
    /// Whether the two audits are two prediction columns of the same rows (a paired
    /// comparison) rather than two sets of rows.
    pub paired: bool,
    /// How the score gaps' changes are computed, when any is ([`SCORE_CHANGE_METHOD`](crate::compare::SCORE_CHANGE_METHOD)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_method: Option<String>,
}

/// One gap in both audits and its change.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GapChange {
    /// Report key, e.g. "dp_difference".
    pub key: Key,
    /// Plain name.
    pub name: String,
    /// The gap in the first audit (null when undefined there).
    pub before: Option<f64>,
    /// The gap in the second audit.
    pub after: Option<f64>,
    /// `after − before`.
    pub change: Option<f64>,
    /// Lower end of the change's interval.
    pub lower: Option<f64>,
    /// Upper end.
    pub upper: Option<f64>,
    /// p-value of "the gap did not change".
    pub p_value: Option<f64>,
    /// Whether the gap got worse (a difference up, a ratio down) distinguishably.
    pub worse: bool,
    /// Why the change is null, if it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undefined_reason: Option<String>,
}

/// The changes of one slice at one prediction source.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SliceChange {
    /// The threshold, or null for the prediction column.
    pub threshold: Option<f64>,
    /// Slice name.
    pub slice: String,
    /// One entry per count gap.
    pub gaps: Vec<GapChange>,
    /// Every rate of every group both audits have, before and after, with the change.
    pub rates: Vec<RateChangeEntry>,
}

/// One rate of one group in both audits ([`RATE_CHANGE_METHOD`](crate::compare::RATE_CHANGE_METHOD) / [`PAIRED_RATE_METHOD`](crate::compare::PAIRED_RATE_METHOD)).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RateChangeEntry {
    /// Group name.
    pub group: String,
    /// Rate key, e.g. "selection_rate".
    #[serde(deserialize_with = "de::rate")]
    pub rate: Name,
    /// The rate in the first audit (null when its denominator is empty there).
    pub before: Option<f64>,
    /// The rate in the second audit.
    pub after: Option<f64>,
    /// `after − before`.
    pub change: Option<f64>,
    /// Lower end of the change's interval.
    pub lower: Option<f64>,
    /// Upper end.
    pub upper: Option<f64>,
    /// p-value of "the rate did not change".
    pub p_value: Option<f64>,
}

/// The whole comparison.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Comparison {
    /// Always [`COMPARE_SCHEMA`].
    #[serde(deserialize_with = "compare_schema")]
    pub schema: Name,
    /// 1.
    pub schema_version: u32,
    /// The first audit.
    pub before: Side,
    /// The second audit.
    pub after: Side,
    /// How the changes were computed.
    pub settings: CompareSettings,
    /// Per prediction source and slice.
    pub changes: Vec<SliceChange>,
    /// Per slice, the score gaps' changes (AUC difference, KS, partial SP) when both audits
    /// have score metrics (threshold null, no rates); absent from the JSON otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub score_changes: Vec<SliceChange>,
    /// Plain-language sentences: every distinguishable change, largest first, then the rule.
    pub summary: Vec<String>,
    /// The verdicts of `--fail-if` gates evaluated on this comparison ([`gate`](crate::compare::gate)); absent from
    /// the JSON when none was given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fail_if: Vec<super::FailIfOutcome>,
    /// The verdict of `--fail-if-worse` (`fairkit compare`), when it was given; absent from the
    /// JSON otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_if_worse: Option<WorseGate>,
    /// The model on all rows before and after: accuracy, and the AUC when both audits have
    /// scores (the first page). Absent from the JSON of comparisons written before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model: Vec<ModelChange>,
    /// Per slice and prediction source, the plain verdict of the first page: fairer, unchanged
    /// or worse, and every group whose rates got distinguishably worse. Absent from the JSON of
    /// comparisons written before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<SliceVerdict>,
}

/// A number of the whole model (all rows) in both audits, each with its interval, and the
/// change with its interval and p-value.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ModelChange {
    /// "accuracy" or "auc".
    #[serde(deserialize_with = "model_metric")]
    pub metric: Name,
    /// The threshold on the score the accuracy is taken at (the audits' first), absent for the
    /// prediction column and the AUC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// The value in the first audit with its interval (accuracy: the report's rate interval;
    /// AUC: Hanley–McNeil).
    pub before: Option<super::Estimate>,
    /// The value in the second audit with its interval.
    pub after: Option<super::Estimate>,
    /// `after − before`.
    pub change: Option<f64>,
    /// Lower end of the change's interval.
    pub lower: Option<f64>,
    /// Upper end.
    pub upper: Option<f64>,
    /// p-value of "it did not change".
    pub p_value: Option<f64>,
    /// How the change's interval and p-value are computed.
    pub method: String,
}

/// The first page's verdict on one slice.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SliceVerdict {
    /// The slice.
    pub slice: String,
    /// The threshold, or null for the prediction column.
    pub threshold: Option<f64>,
    /// "worse" when a gap got distinguishably worse, else "fairer" when one got
    /// distinguishably better, else "unchanged" (no gap's change distinguishable), or
    /// "not measured" when no gap could be compared.
    #[serde(deserialize_with = "verdict_word")]
    pub verdict: Name,
    /// The gaps that got distinguishably better.
    pub better: Vec<Key>,
    /// The gaps that got distinguishably worse.
    pub worse: Vec<Key>,
    /// Every group rate that got distinguishably worse (a TPR or accuracy down, an FPR up),
    /// whatever its gaps did.
    pub worse_groups: Vec<WorseRate>,
}

/// One group's rate that got distinguishably worse: its q-value (Benjamini–Hochberg over every
/// rate change of the comparison) is below 1 − confidence.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WorseRate {
    /// The group.
    pub group: String,
    /// Rate key: "true_positive_rate", "false_positive_rate" or "accuracy".
    #[serde(deserialize_with = "de::rate")]
    pub rate: Name,
    /// The rate before.
    pub before: f64,
    /// The rate after.
    pub after: f64,
    /// p-value of "the rate did not change".
    pub p_value: f64,
    /// Benjamini–Hochberg adjusted p-value over every rate change of the comparison.
    pub q_value: f64,
}

/// The `--fail-if-worse` gate: fails when any of its keys got worse (a difference up, a ratio
/// down) distinguishably in any slice.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WorseGate {
    /// The gaps it watches.
    pub keys: Vec<Key>,
    /// Whether one got worse (the run then exits with code 1).
    pub failed: bool,
    /// Each gap that got worse, where.
    pub worse: Vec<WorseGap>,
}

/// A gap that got worse distinguishably in one slice.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WorseGap {
    /// Report key.
    pub key: Key,
    /// The slice.
    pub slice: String,
    /// The threshold, or null for the prediction column or a score gap.
    pub threshold: Option<f64>,
    /// The gap before.
    pub before: Option<f64>,
    /// The gap after.
    pub after: Option<f64>,
    /// `after − before`.
    pub change: Option<f64>,
    /// p-value of "the gap did not change".
    pub p_value: Option<f64>,
}

impl Comparison {
    /// Every slice change: the count gaps' per prediction source, then the score gaps'.
    pub fn slices(&self) -> impl Iterator<Item = &SliceChange> {
        self.changes.iter().chain(&self.score_changes)
    }

    /// The gaps of `keys` (report keys) that got worse distinguishably, in every slice.
    pub fn worse(&self, keys: &[Key]) -> Vec<&GapChange> {
        self.slices()
            .flat_map(|s| &s.gaps)
            .filter(|g| g.worse && keys.contains(&g.key))
            .collect()
    }

    /// Records the `--fail-if-worse` gate on `keys` ([`Comparison::fail_if_worse`]) and
    /// returns whether it failed.
    pub fn gate_worse(&mut self, keys: &[Key]) -> bool {
        let worse: Vec<WorseGap> = self
            .slices()
            .flat_map(|s| s.gaps.iter().map(move |g| (s, g)))
            .filter(|(_, g)| g.worse && keys.contains(&g.key))
            .map(|(s, g)| WorseGap {
                key: g.key,
                slice: s.slice.clone(),
                threshold: s.threshold,
                before: g.before,
                after: g.after,
                change: g.change,
                p_value: g.p_value,
            })
            .collect();
        let failed = !worse.is_empty();
        self.fail_if_worse = Some(WorseGate {
            keys: keys.to_vec(),
            failed,
            worse,
        });
        failed
    }
}

fn model_metric<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    de::one_of(d, "model metric", &["accuracy", "auc"])
}

fn verdict_word<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    de::one_of(
        d,
        "slice verdict",
        &["fairer", "unchanged", "worse", "not measured"],
    )
}

fn compare_schema<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    de::one_of(
        d,
        "schema (a fairkit comparison has \"fairkit-compare\")",
        &[COMPARE_SCHEMA],
    )
}
