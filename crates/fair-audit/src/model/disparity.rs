//! The Aequitas reference-group disparities of a slice, as report.json holds them
//! (`audits[].slices[].disparities`, `settings.disparity`; added to schema v1 additively).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How the disparities were computed (`settings.disparity`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisparitySettings {
    /// The reference rule of the slices no entry names (`largest` or `min_metric`) followed by
    /// the `SLICE=GROUP` entries, as the request gave them.
    pub reference: Vec<String>,
    /// Parity holds when `tau ≤ disparity ≤ 1/tau`.
    pub tau: f64,
    /// A disparity's test is significant when its p-value is below `alpha` (1 − confidence).
    pub alpha: f64,
    /// The disparity written for a positive rate over a zero reference rate (Aequitas' cap).
    pub fill_divbyzero: f64,
}

/// Every group of one slice against its reference group(s).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SliceDisparities {
    /// `largest`, `min_metric` (the reference differs per rate) or `named`.
    pub reference: String,
    /// Predicted positives of all rows (Aequitas' `k`, ppr's denominator; weighted).
    pub predicted_positives: f64,
    /// Total weight of all rows (Aequitas' `total_entities`).
    pub total: f64,
    /// One entry per group, in the slice's group order (sorted by name).
    pub groups: Vec<GroupDisparity>,
}

/// One group's disparities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupDisparity {
    /// The group's name.
    pub group: String,
    /// Its size (total weight; Aequitas' `group_size`).
    pub size: f64,
    /// (tp + tn) / size.
    pub accuracy: Option<f64>,
    /// (tp + fn) / size (Aequitas' `prev`).
    pub prevalence: Option<f64>,
    /// Per rate, keyed by Aequitas' name (`ppr`, `pprev`, `precision`, `fdr`, `for`, `fpr`,
    /// `fnr`, `tpr`, `tnr`, `npv`).
    pub rates: BTreeMap<String, RateDisparity>,
    /// Aequitas' composite determinations.
    pub parity: CompositeParity,
    /// The label's mean against the reference group (Aequitas' `label_value_significance`).
    pub label_value_significance: SampleTest,
    /// The predicted-positive share against the reference (Aequitas' `score_significance`).
    pub score_significance: SampleTest,
}

/// One rate of one group against its reference group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RateDisparity {
    /// The group's rate (null: zero denominator).
    pub value: Option<f64>,
    /// The reference group (Aequitas' `{rate}_ref_group_value`).
    pub reference_group: String,
    /// The reference group's rate.
    pub reference_value: Option<f64>,
    /// value ÷ reference value; null when undefined (either undefined, or 0 ÷ 0).
    pub disparity: Option<f64>,
    /// `tau ≤ disparity ≤ 1/tau` (Aequitas' `… Parity`); null with the disparity.
    pub parity: Option<bool>,
    /// Aequitas' t-test p-value against the reference group (null where scipy's is NaN).
    pub p_value: Option<f64>,
    /// `p_value < alpha`.
    pub significant: Option<bool>,
}

/// Aequitas' composite determinations (null when both inputs are undefined).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompositeParity {
    /// FDR and FPR parity (`TypeI Parity`).
    pub type_i: Option<bool>,
    /// FOR and FNR parity (`TypeII Parity`).
    pub type_ii: Option<bool>,
    /// FPR and TPR parity (`Equalized Odds`).
    pub equalized_odds: Option<bool>,
    /// Statistical and Impact parity (`Unsupervised Fairness`).
    pub unsupervised: Option<bool>,
    /// TypeI and TypeII parity (`Supervised Fairness`).
    pub supervised: Option<bool>,
}

/// A significance test without a disparity column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleTest {
    /// The group tested against.
    pub reference_group: String,
    /// The p-value (null where scipy's is NaN).
    pub p_value: Option<f64>,
    /// `p_value < alpha`.
    pub significant: Option<bool>,
}
