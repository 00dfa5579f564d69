//! The audit's result: exactly what report.json holds (schema `fairkit-audit`, version 1,
//! documented in docs/audit-json-schema.md and crates/fair-audit/schema/audit-v1.schema.json).
//! The markdown and HTML reports are views of this one structure.

use crate::keys::{Key, Name, de};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub mod compare;
pub mod disparity;
pub mod ranking;
pub mod regression;

/// The schema name written in every report.json.
pub const SCHEMA_NAME: &str = "fairkit-audit";
/// The schema version; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AuditReport {
    /// Always [`SCHEMA_NAME`].
    #[serde(deserialize_with = "schema_name")]
    pub schema: Name,
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The program that wrote it.
    pub tool: Tool,
    /// What was read.
    pub input: InputInfo,
    /// How it was computed.
    pub settings: Settings,
    /// The worst value of each headline gap over all slices and thresholds.
    pub headline: BTreeMap<Key, Headline>,
    /// One audit per prediction source (the prediction column, or each threshold).
    pub audits: Vec<ThresholdAudit>,
    /// Score-based metrics per slice (present when a score column was given).
    pub score_metrics: Option<Vec<ScoreSlice>>,
    /// Plain-language sentences about the largest statistically distinguishable gaps.
    pub summary: Vec<String>,
    /// The `--fail-if` verdicts.
    pub fail_if: Vec<FailIfOutcome>,
    /// The audit per window of a `--by` column, with each window's change against its baseline
    /// (absent from the JSON without `--by`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_time: Option<crate::over_time::OverTime>,
    /// The paired comparison with a second prediction column of the same rows (`--against`;
    /// absent from the JSON without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<compare::Comparison>,
    /// The audit of a numeric prediction (`--target`; absent from the JSON otherwise, and then
    /// `audits` is empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regression: Option<regression::RegressionAudit>,
    /// The audit of rankings (`--query`; absent from the JSON otherwise, and then `audits` is
    /// empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranking: Option<ranking::RankingAudit>,
    /// Unknown sensitive values: the handling asked for and the rows with an unknown value per
    /// column and slice (written by every audit run; absent from reports built otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknowns: Option<crate::unknowns::UnknownsReport>,
    /// Inferred sensitive attributes (`sensitive_proba`): estimates and partial-identification
    /// bounds per attribute (absent from the JSON without them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inferred: Option<crate::inferred::InferredReport>,
}

/// Program name and version.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tool {
    /// "fairkit".
    pub name: String,
    /// Crate version.
    pub version: String,
}

/// The input file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InputInfo {
    /// The path as given (for a Spark DataFrame: a description of it).
    pub file: String,
    /// "csv", "parquet" or "spark".
    pub format: String,
    /// Data rows read.
    pub rows: u64,
    /// Column of each role.
    pub columns: Columns,
    /// The positive label value.
    pub positive_label: String,
    /// The negative label value (declared or the other value seen; null if only positives).
    pub negative_label: Option<String>,
}

/// Columns by role.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Columns {
    /// Label column.
    pub label: String,
    /// Prediction column.
    pub prediction: Option<String>,
    /// Score column.
    pub score: Option<String>,
    /// Sensitive columns.
    pub sensitive: Vec<String>,
    /// Weight column.
    pub weight: Option<String>,
}

/// Settings of the statistics.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Settings {
    /// Confidence level of all intervals.
    pub confidence: f64,
    /// "wilson" or "clopper-pearson".
    pub rate_ci_method: String,
    /// How gap intervals and p-values are computed.
    pub gap_method: String,
    /// How the score metrics' intervals and p-values are computed.
    pub score_inference_method: String,
    /// Bootstrap resamples and permutations per gap.
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
    /// Thresholds on the score (empty when a prediction column was used).
    pub thresholds: Vec<f64>,
    /// Partial-SP interval [alpha, beta), if requested.
    pub interval: Option<[f64; 2]>,
    /// Whether weights were used (gap statistics are then approximate: Kish effective counts).
    pub weighted: bool,
    /// The minimum group size: a group with fewer rows in a gap's denominator (all rows for
    /// selection rate and accuracy, positives for TPR, negatives for FPR; positives and
    /// negatives for the score metrics) is shown but kept out of that gap (0: none kept out).
    pub min_group_size: u64,
    /// The multiple-comparison adjustment of the gaps' p-values before "distinguishable" is
    /// called: "none" (the default), "bh", "by", "bonferroni" or "holm"; the family is every
    /// gap with a p-value in the report (all thresholds, slices, count and score gaps). Absent
    /// from the JSON for "none", so a report without the option is the one written before it.
    #[serde(default = "no_adjustment", skip_serializing_if = "is_no_adjustment")]
    pub multiple_testing: String,
    /// The reference rule and thresholds of the slices' Aequitas disparities; absent when the
    /// report has none (a regression audit, a report written before them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disparity: Option<disparity::DisparitySettings>,
}

fn no_adjustment() -> String {
    "none".into()
}

fn is_no_adjustment(method: &str) -> bool {
    method == "none"
}

/// The worst value of one headline gap and where it occurred.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Headline {
    /// The value (largest difference / smallest ratio / largest distance).
    pub value: f64,
    /// The slice where it occurred.
    pub slice: String,
    /// The threshold of that audit (null for the prediction column or score metrics).
    pub threshold: Option<f64>,
    /// Its permutation p-value, when the gap has one.
    pub p_value: Option<f64>,
    /// The groups the gap it comes from left out (copied from [`Gap::undefined_groups`]);
    /// absent from the JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undefined_groups: Vec<UndefinedGroup>,
    /// fairlearn's value of that gap when it differs (copied from [`Gap::fairlearn_value`]);
    /// absent from the JSON when fairlearn agrees.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::present"
    )]
    pub fairlearn_value: Option<Option<f64>>,
    /// The groups kept out of that gap for being smaller than the minimum group size (copied
    /// from [`Gap::small_groups`]); absent from the JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub small_groups: Vec<UndefinedGroup>,
}

/// The count-based audit of one prediction source.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThresholdAudit {
    /// The threshold, or null for the prediction column.
    pub threshold: Option<f64>,
    /// One entry per sensitive column and, with two or more, their intersection.
    pub slices: Vec<ConfusionSlice>,
}

/// A value with a confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate.
    pub value: f64,
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
}

/// Counts of one group.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Counts {
    /// True positives (weighted sums when weighted).
    pub tp: f64,
    /// False positives.
    pub fp: f64,
    /// True negatives.
    pub tn: f64,
    /// False negatives.
    pub fn_: f64,
}

/// One group's counts and rates.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GroupRates {
    /// Group name ("all" for the pooled rows).
    pub group: String,
    /// Rows (unweighted).
    pub rows: u64,
    /// Rows with the positive label (unweighted): the TPR's and FNR's denominator.
    pub positives: u64,
    /// Rows with the negative label (unweighted): the FPR's and TNR's denominator.
    pub negatives: u64,
    /// Rows predicted positive (unweighted): the precision's denominator.
    pub predicted_positives: u64,
    /// Confusion counts.
    pub counts: Counts,
    /// Every rate with its interval; null when its denominator is empty in this group.
    #[serde(deserialize_with = "de::rate_map")]
    pub rates: BTreeMap<&'static str, Option<Estimate>>,
    /// Every rate shrunk toward the slice's other groups (empirical-Bayes beta-binomial,
    /// `fair_metrics::ci::beta_binomial_shrinkage`): the posterior mean with its equal-tailed
    /// posterior interval at the report's confidence; null where the rate is undefined in the
    /// group or the slice has fewer than two groups to pool. Absent for the pooled "all" row
    /// (and in reports written before it).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "de::rate_map"
    )]
    pub shrunken: BTreeMap<&'static str, Option<Estimate>>,
}

/// One gap with its inference.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gap {
    /// Headline key, e.g. "dp_difference".
    pub key: Key,
    /// Plain name, e.g. "demographic parity difference".
    pub name: String,
    /// "difference" or "ratio".
    #[serde(deserialize_with = "gap_kind")]
    pub kind: Name,
    /// The gap on the data.
    pub value: Option<f64>,
    /// Bootstrap interval.
    pub lower: Option<f64>,
    /// Bootstrap interval.
    pub upper: Option<f64>,
    /// Permutation p-value of "no dependence on the group".
    pub p_value: Option<f64>,
    /// `p_value` adjusted for multiple comparisons (`settings.multiple_testing`) over every gap
    /// of the report; the "distinguishable" calls use it. Absent without an adjustment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_value_adjusted: Option<f64>,
    /// Why the gap is null, if it is.
    pub undefined_reason: Option<String>,
    /// The groups left out of the gap because a rate it compares is undefined in them (its
    /// denominator is empty: e.g. the TPR of a group without positive rows), each with the
    /// reason. The audit skips such a group; fairlearn counts the TPR/FPR as 0 instead
    /// (docs/conventions.md). Absent from the JSON when no group was left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undefined_groups: Vec<UndefinedGroup>,
    /// fairlearn's value of the gap of the same name on the same rows, present only when it
    /// differs from `value`: `Some(Some(x))` is the number fairlearn gives (undefined TPR/FPR
    /// counted as 0), `Some(None)` (JSON null) means fairlearn gives NaN (a ratio of two zero
    /// rates, which the audit counts as 1). Absent from the JSON when fairlearn agrees or the gap
    /// is null.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "de::present"
    )]
    pub fairlearn_value: Option<Option<f64>>,
    /// The groups kept out of the gap because the rows in a rate's denominator are fewer than
    /// the minimum group size (`settings.min_group_size`); their rates are still reported.
    /// Absent from the JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub small_groups: Vec<UndefinedGroup>,
}

/// A group a gap left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndefinedGroup {
    /// Group name.
    pub group: String,
    /// The rate that is undefined in it (a key of `rates`, e.g. "true_positive_rate").
    #[serde(deserialize_with = "de::rate")]
    pub rate: Name,
    /// Why, e.g. "no positive rows: TPR undefined".
    pub reason: String,
}

/// The count-based results of one slice (a sensitive column or the intersection).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ConfusionSlice {
    /// "race", or "race & sex" for the intersection.
    pub slice: String,
    /// The columns it is made of.
    pub attributes: Vec<String>,
    /// Per group, sorted by name.
    pub groups: Vec<GroupRates>,
    /// All rows pooled.
    pub overall: GroupRates,
    /// The gaps.
    pub gaps: Vec<Gap>,
    /// Per rate, the spread of the groups' true rates: Lum, Zhang & Bower's bias-corrected
    /// between-group variance and its standard deviation, with bootstrap intervals; null when
    /// fewer than two groups have two rows in the rate's denominator. Absent in reports written
    /// before it.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "de::rate_map"
    )]
    pub between_groups: BTreeMap<&'static str, Option<BetweenGroups>>,
    /// Aequitas' reference-group disparities of every group (`settings.disparity` says how);
    /// absent in reports written before them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disparities: Option<disparity::SliceDisparities>,
}

/// The between-group spread of one rate across a slice's groups
/// (`fair_metrics::ci::between_group_variance`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BetweenGroups {
    /// Groups used (two or more rows in the rate's denominator).
    pub groups: usize,
    /// The naive variance of the group rates, `1/(K−1) Σ (p̂_k − p̄)²`: inflated by sampling
    /// noise.
    pub naive_variance: f64,
    /// The bias-corrected variance, `naive − 1/K Σ p̂_k(1 − p̂_k)/(n_k − 1)`; may be negative.
    pub variance: f64,
    /// Basic bootstrap interval of `variance`.
    pub lower: f64,
    /// Basic bootstrap interval of `variance`.
    pub upper: f64,
    /// `sqrt(max(variance, 0))`: the standard deviation of the true group rates.
    pub sd: f64,
    /// `sqrt(max(lower, 0))`.
    pub sd_lower: f64,
    /// `sqrt(max(upper, 0))`.
    pub sd_upper: f64,
}

/// A pairwise maximum: the largest distance between two groups and which two.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PairMax {
    /// The largest pairwise value.
    pub value: f64,
    /// The two groups.
    pub groups: [String; 2],
    /// Lower end of its confidence interval (null when it cannot be computed).
    pub lower: Option<f64>,
    /// Upper end of its confidence interval.
    pub upper: Option<f64>,
    /// p-value for "no difference between the groups" (over all pairs: see the method in
    /// `settings.score_inference_method`).
    pub p_value: Option<f64>,
    /// `p_value` adjusted for multiple comparisons (see [`Gap::p_value_adjusted`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_value_adjusted: Option<f64>,
}

/// One group's AUC.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GroupAuc {
    /// Group.
    pub group: String,
    /// AUC, null when the group lacks positives or negatives.
    pub auc: Option<f64>,
    /// Lower end of the AUC's confidence interval (Hanley–McNeil).
    pub lower: Option<f64>,
    /// Upper end of the AUC's confidence interval.
    pub upper: Option<f64>,
}

/// Score-based metrics of one slice.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScoreSlice {
    /// Slice name.
    pub slice: String,
    /// AUC on all rows.
    pub auc_overall: Option<f64>,
    /// AUC per group.
    pub auc_by_group: Vec<GroupAuc>,
    /// max − min of the defined group AUCs.
    pub auc_difference: Option<f64>,
    /// The same as a gap: its two groups (highest, lowest AUC), interval and p-value.
    pub auc_gap: Option<PairMax>,
    /// Exact KS distance between group score distributions (all-threshold DP gap).
    pub ks_dp: Option<PairMax>,
    /// The same on the positives only (all-threshold equal-opportunity gap).
    pub ks_eo: Option<PairMax>,
    /// Partial statistical parity on the interval.
    pub psp: Option<PairMax>,
    /// Notes on metrics that could not be computed.
    pub notes: Vec<String>,
    /// Groups kept out of the AUC difference, KS and partial-SP gaps for having fewer positives
    /// or negatives than the minimum group size (their AUCs are still reported). Absent from
    /// the JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub small_groups: Vec<UndefinedGroup>,
    /// NYC Local Law 144's scoring rate of the score: each group's share scored above the median
    /// of all rows, its impact ratio and the gaps between the groups. Absent from reports written
    /// before it was computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring_rate: Option<ScoringRates>,
}

/// NYC Local Law 144's scoring rate of one slice (see [`crate::scoring_rate`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScoringRates {
    /// The median score of all rows (numpy's median; weighted, the inverted CDF's).
    pub median: f64,
    /// Per group.
    pub groups: Vec<GroupScoringRate>,
    /// `scoring_rate_difference` (largest − smallest) and `scoring_rate_ratio` (smallest ÷
    /// largest, LL144's lowest impact ratio) over the groups with at least the minimum group
    /// size, with intervals and p-values.
    pub gaps: Vec<Gap>,
}

/// One group's scoring rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupScoringRate {
    /// Group.
    pub group: String,
    /// The (weighted) share of the group scored strictly above the median; null for a group
    /// of no weight.
    pub rate: Option<f64>,
    /// Lower end of its Wilson interval (on the effective size).
    pub lower: Option<f64>,
    /// Upper end of its Wilson interval.
    pub upper: Option<f64>,
    /// Its rate ÷ the largest rate of the groups with at least the minimum group size (LL144's
    /// impact ratio); null when that largest rate is 0 or the group has no rate.
    pub impact_ratio: Option<f64>,
    /// Whether the group has fewer rows than the minimum group size (kept out of the gaps).
    pub small: bool,
}

/// The outcome of one `--fail-if` expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailIfOutcome {
    /// The expression as given.
    pub expression: String,
    /// Whether it held (the run then exits with code 1).
    pub failed: bool,
    /// Each comparison with the headline value it used.
    pub comparisons: Vec<ComparisonOutcome>,
}

/// One comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonOutcome {
    /// e.g. "dp_difference > 0.1".
    pub comparison: String,
    /// The headline value.
    pub actual: f64,
    /// Whether it held.
    pub holds: bool,
}

fn schema_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    de::one_of(
        d,
        "schema (a fairkit audit report has \"fairkit-audit\")",
        &[SCHEMA_NAME],
    )
}

fn gap_kind<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    de::one_of(d, "gap kind", &["difference", "ratio"])
}

/// Why a text is not a report this version of fairkit reads.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReportError {
    /// Not JSON at all.
    #[error("not JSON ({0})")]
    NotJson(String),
    /// JSON of another kind (a comparison, another tool's file).
    #[error("its schema is {found}, not \"fairkit-audit\" (a report.json of `fairkit audit`)")]
    Schema {
        /// The `schema` found (`missing` when absent).
        found: String,
    },
    /// A report of another schema version.
    #[error(
        "its schema_version is {found}; this fairkit reads version {SCHEMA_VERSION} only (re-run the audit with this fairkit, or compare with the fairkit that wrote it)"
    )]
    Version {
        /// The `schema_version` found.
        found: String,
    },
    /// A field is missing or holds the wrong kind of value.
    #[error("field {field}: {reason}")]
    Field {
        /// Where, as a JSON path (`$.audits[0].slices[1].groups[0].counts.tp`), or the line and
        /// column when the schema does not say.
        field: String,
        /// What is wrong.
        reason: String,
    },
}

/// The header every report starts with, read first so a foreign or newer document is named as
/// such rather than by its first unexpected field.
#[derive(Deserialize)]
struct Header {
    schema: Option<serde_json::Value>,
    schema_version: Option<serde_json::Value>,
}

impl AuditReport {
    /// Reads a report.json text (schema `fairkit-audit`, version [`SCHEMA_VERSION`]): the
    /// inverse of the JSON view (`render` with `json`), byte for byte.
    ///
    /// # Errors
    /// [`ReportError`]: not JSON, another schema or version, or the first bad field with its
    /// path (from the embedded JSON Schema, [`crate::schema`]).
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        let header: Header =
            serde_json::from_str(text).map_err(|e| ReportError::NotJson(e.to_string()))?;
        let shown =
            |v: Option<serde_json::Value>| v.map_or("missing".to_string(), |v| v.to_string());
        if header.schema.as_ref().and_then(|v| v.as_str()) != Some(SCHEMA_NAME) {
            return Err(ReportError::Schema {
                found: shown(header.schema),
            });
        }
        if header.schema_version.as_ref().and_then(|v| v.as_u64()) != Some(SCHEMA_VERSION.into()) {
            return Err(ReportError::Version {
                found: shown(header.schema_version),
            });
        }
        serde_json::from_str(text).map_err(|e| field_error(text, &e))
    }
}

/// The first schema violation of `text` (a path and what is wrong), or serde's message at its
/// line and column when the schema finds none.
fn field_error(text: &str, e: &serde_json::Error) -> ReportError {
    let violation = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .zip(serde_json::from_str::<serde_json::Value>(crate::schema::AUDIT_SCHEMA_V1).ok())
        .and_then(|(instance, schema)| crate::schema::validate(&schema, &instance).ok())
        .and_then(|errors| errors.into_iter().next());
    match violation.as_deref().and_then(|v| v.split_once(": ")) {
        Some((field, reason)) => ReportError::Field {
            field: field.to_string(),
            reason: reason.to_string(),
        },
        None => ReportError::Field {
            field: format!("at line {} column {}", e.line(), e.column()),
            reason: e.to_string(),
        },
    }
}
