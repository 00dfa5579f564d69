//! The regression audit: from the finest groups' exact sums ([`RegressionState`]) and the
//! one-sweep distributions of the predictions ([`SliceDistribution`]) to report.json's
//! `regression` section, its headline gaps and charts. Every number is computed from mergeable
//! states, so a file of any size, `fairkit.audit` and the cluster agree.
//!
//! Per group: the metrics of [`fair_metrics::regression`] with normal intervals
//! (`value ± z·se`, the standard error from the exact second moments and Kish's effective size),
//! the prediction's quantile, the LL144 scoring rate (Wilson interval on the effective size).
//! Between groups (those with at least the minimum group size): difference and ratio of each
//! metric with the interval and equal-means p-value of
//! [`normal_gap_inference`](fair_metrics::ci::normal_gap_inference), the largest
//! Kolmogorov–Smirnov distance between two groups' predictions with the score audit's DKW
//! interval and Kolmogorov p-value, and the largest Wasserstein-1 distance (exact, without an
//! interval: see [`INFERENCE_METHOD`]).

use crate::compute::{SliceDef, Stats};
use crate::error::AuditError;
use crate::ingest::GROUP_SEPARATOR;
use crate::keys::Key;
use crate::model::regression::{
    GroupLoss, Measured, PairDistance, RegressionAudit, RegressionGroup, RegressionSlice,
};
use crate::model::{Gap, UndefinedGroup};
use fair_metrics::ci::{
    NormalGapSettings, RateCiMethod, ks_inference_of_max, normal_gap_inference, rate_interval,
};
use fair_metrics::distribution::SliceDistribution;
use fair_metrics::regression::{RegressionMetric, RegressionState, RegressionValues};
use std::collections::BTreeMap;

/// How the regression audit's intervals and p-values are computed (written into the report).
pub const INFERENCE_METHOD: &str = "Per group: normal interval value ± z·se, the standard error √(var_w(x)/n_eff) of the mean of the row quantity (target, prediction, residual, |residual|, squared residual) from exact second moments and Kish's effective size (delta method for RMSE; none for R²); scoring rate: Wilson interval on the effective size. Gaps (max − min, min / max) between the groups with at least the minimum group size: each group drawn from N(value, se²) (the row bootstrap's normal limit, groups independent), seeded, percentile interval; p-value of equal means from draws of N(0, se²) per group. KS of predictions: DKW interval simultaneous over the groups and the asymptotic Kolmogorov p-value union-bounded over the pairs (as for scores). Wasserstein-1: exact, no interval or p-value (a permutation test needs the rows in memory; its KS companion tests the same distributions). Weighted rows use Kish effective sizes (approximate)";

/// What a regression report is built from besides the states.
#[derive(Debug, Clone)]
pub struct RegressionSpec {
    /// The report's slices.
    pub slices: Vec<SliceDef>,
    /// The statistics settings.
    pub stats: Stats,
    /// The target column.
    pub target: String,
    /// The prediction column.
    pub prediction: String,
    /// The quantile level.
    pub quantile: f64,
}

/// The metrics of a group in report order, with their report keys.
const METRICS: [(RegressionMetric, &str); 7] = [
    (RegressionMetric::MeanTarget, "mean_target"),
    (RegressionMetric::MeanPrediction, "mean_prediction"),
    (RegressionMetric::MeanResidual, "mean_residual"),
    (RegressionMetric::MeanAbsoluteError, "mean_absolute_error"),
    (RegressionMetric::MeanSquaredError, "mean_squared_error"),
    (
        RegressionMetric::RootMeanSquaredError,
        "root_mean_squared_error",
    ),
    (RegressionMetric::R2, "r2_score"),
];

/// The gaps of a slice computed from group means: (difference key, ratio key, metric).
const MEAN_GAPS: [(Key, Option<Key>, RegressionMetric); 5] = [
    (
        Key::MeanPredictionDifference,
        Some(Key::MeanPredictionRatio),
        RegressionMetric::MeanPrediction,
    ),
    (
        Key::MeanResidualDifference,
        None,
        RegressionMetric::MeanResidual,
    ),
    (
        Key::MaeDifference,
        Some(Key::MaeRatio),
        RegressionMetric::MeanAbsoluteError,
    ),
    (
        Key::RmseDifference,
        Some(Key::RmseRatio),
        RegressionMetric::RootMeanSquaredError,
    ),
    (Key::R2Difference, None, RegressionMetric::R2),
];

/// The request's check keeps the confidence in (0, 1); 1.96 only guards a caller that did not.
fn z_of(confidence: f64) -> f64 {
    fair_metrics::ci::two_sided_z(confidence).unwrap_or(1.96)
}

fn measured(value: Option<f64>, se: Option<f64>, z: f64, non_negative: bool) -> Measured {
    match (value, se) {
        (Some(v), Some(se)) => {
            let lower = v - z * se;
            Measured {
                value: Some(v),
                lower: Some(if non_negative { lower.max(0.0) } else { lower }),
                upper: Some(v + z * se),
            }
        }
        _ => Measured {
            value,
            lower: None,
            upper: None,
        },
    }
}

pub(crate) fn scoring_rate(
    rate: Option<f64>,
    n_eff: f64,
    confidence: f64,
) -> (Measured, Option<f64>) {
    match rate {
        Some(p) if n_eff > 0.0 => {
            let ci = rate_interval(p, n_eff, confidence, RateCiMethod::Wilson).ok();
            (
                Measured {
                    value: Some(p),
                    lower: ci.map(|c| c.lower),
                    upper: ci.map(|c| c.upper),
                },
                Some((p * (1.0 - p) / n_eff).sqrt()),
            )
        }
        _ => (
            Measured {
                value: rate,
                lower: None,
                upper: None,
            },
            None,
        ),
    }
}

/// One group's entry from its values and distribution row.
fn group_entry(
    name: &str,
    v: &RegressionValues,
    dist: Option<(&SliceDistribution, usize)>,
    small: bool,
    confidence: f64,
) -> (RegressionGroup, Option<f64>) {
    let z = z_of(confidence);
    let mut metrics: BTreeMap<String, Measured> = METRICS
        .iter()
        .map(|&(m, key)| {
            (
                key.to_string(),
                measured(v.get(m), v.standard_error(m), z, m.is_non_negative()),
            )
        })
        .collect();
    let rate = dist.and_then(|(d, g)| d.quantiles.scoring_rate[g]);
    let (rate, rate_se) = scoring_rate(rate, v.effective_n, confidence);
    metrics.insert("scoring_rate".into(), rate);
    let finite = |x: f64| x.is_finite().then_some(x);
    (
        RegressionGroup {
            group: name.to_string(),
            rows: v.count,
            weight: v.weight,
            effective_n: v.effective_n,
            small,
            metrics,
            prediction_quantile: dist.and_then(|(d, g)| d.quantiles.by_group[g]),
            wasserstein_to_overall: dist.and_then(|(d, g)| finite(d.gaps.wasserstein_to_pooled[g])),
            ks_to_overall: dist.and_then(|(d, g)| finite(d.gaps.ks_to_pooled[g])),
        },
        rate_se,
    )
}

fn gap(key: Key) -> Gap {
    Gap {
        key,
        name: key.name().to_string(),
        kind: if key.is_ratio() {
            "ratio"
        } else {
            "difference"
        },
        value: None,
        lower: None,
        upper: None,
        p_value: None,
        p_value_adjusted: None,
        undefined_reason: None,
        undefined_groups: Vec::new(),
        fairlearn_value: None,
        small_groups: Vec::new(),
    }
}

/// The difference and ratio gaps of one quantity over the kept groups `(value, se)`.
pub(crate) fn mean_gaps(
    diff_key: Key,
    ratio_key: Option<Key>,
    values: &[(f64, Option<f64>)],
    stats: &Stats,
    seed: u64,
) -> Vec<Gap> {
    let mut d = gap(diff_key);
    let mut r = ratio_key.map(gap);
    if values.len() < 2 {
        let why = format!(
            "fewer than two groups with this value and at least {} rows",
            stats.min_group_size
        );
        d.undefined_reason = Some(why.clone());
        if let Some(r) = &mut r {
            r.undefined_reason = Some(why);
        }
        return [Some(d)].into_iter().chain([r]).flatten().collect();
    }
    let negative = values.iter().any(|v| v.0 < 0.0);
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v.0), hi.max(v.0))
        });
    d.value = Some(hi - lo);
    let with_se: Option<Vec<(f64, f64)>> = values.iter().map(|&(v, se)| Some((v, se?))).collect();
    let settings = NormalGapSettings {
        resamples: stats.resamples,
        confidence: stats.confidence,
        seed,
    };
    let inference = with_se.and_then(|g| normal_gap_inference(&g, !negative, &settings).ok());
    if let Some(i) = &inference {
        d.lower = Some(i.difference.interval.lower);
        d.upper = Some(i.difference.interval.upper);
        d.p_value = Some(i.difference.p_value);
    }
    if let Some(r) = &mut r {
        if negative {
            r.undefined_reason =
                Some("a group's value is negative: a ratio of signed values has no meaning".into());
        } else {
            r.value = Some(if hi > 0.0 {
                lo / hi
            } else if lo > 0.0 {
                0.0
            } else {
                1.0
            });
            if let Some(ri) = inference.and_then(|i| i.ratio) {
                r.lower = Some(ri.interval.lower);
                r.upper = Some(ri.interval.upper);
                r.p_value = Some(ri.p_value);
            }
        }
    }
    [Some(d)].into_iter().chain([r]).flatten().collect()
}

/// A seed per gap: the audit's seed mixed with the slice and key, so gaps draw independently
/// and a gap's draws do not depend on which other gaps are computed.
pub(crate) fn gap_seed(seed: u64, slice: usize, key: Key) -> u64 {
    let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
    for b in key.as_str().bytes().chain((slice as u64).to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Builds the regression section from the finest groups' sums (named by the decoder's finest
/// names, values joined by [`GROUP_SEPARATOR`]) and each slice's distributions.
///
/// # Errors
/// [`AuditError::Metric`] when the state has no rows or no weight.
pub fn regression_audit(
    spec: &RegressionSpec,
    finest: &RegressionState,
    distributions: &[SliceDistribution],
) -> Result<RegressionAudit, AuditError> {
    let metric = |e| AuditError::Metric {
        what: "regression metrics".into(),
        source: e,
    };
    let all = finest.regroup(|_| "all".to_string());
    let all_values = all.summary().map_err(metric)?.overall;
    let first = distributions.first();
    let (mut overall, _) = group_entry("all", &all_values, None, false, spec.stats.confidence);
    let mut slices = Vec::with_capacity(spec.slices.len());
    for (si, (slice, dist)) in spec.slices.iter().zip(distributions).enumerate() {
        slices.push(regression_slice(spec, si, slice, finest, dist)?);
    }
    // All rows' scoring rate: the groups' shares above the pooled median, weighted (any slice
    // partitions the rows; the first is used).
    if let Some(s) = slices.first() {
        let above: f64 = s
            .groups
            .iter()
            .filter_map(|g| g.metrics["scoring_rate"].value.map(|r| r * g.weight))
            .sum();
        let (m, _) = scoring_rate(
            Some(above / all_values.weight),
            all_values.effective_n,
            spec.stats.confidence,
        );
        overall.metrics.insert("scoring_rate".into(), m);
    }
    Ok(RegressionAudit {
        target: spec.target.clone(),
        prediction: spec.prediction.clone(),
        quantile: spec.quantile,
        pooled_quantile: first.map_or(f64::NAN, |d| d.quantiles.pooled),
        pooled_median: first.map_or(f64::NAN, |d| d.quantiles.pooled_median),
        inference_method: INFERENCE_METHOD.into(),
        overall,
        slices,
    })
}

/// The slice group of a finest group's name.
pub fn slice_name(finest: &str, slice: &SliceDef) -> String {
    let parts: Vec<&str> = finest.split(GROUP_SEPARATOR).collect();
    slice
        .attributes
        .iter()
        .map(|&a| parts.get(a).copied().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" & ")
}

fn regression_slice(
    spec: &RegressionSpec,
    si: usize,
    slice: &SliceDef,
    finest: &RegressionState,
    dist: &SliceDistribution,
) -> Result<RegressionSlice, AuditError> {
    let stats = &spec.stats;
    let state = finest.regroup(|n| slice_name(n, slice));
    let summary = state.summary().map_err(|e| AuditError::Metric {
        what: format!("regression metrics of {}", slice.name),
        source: e,
    })?;
    if summary.names != dist.names {
        return Err(AuditError::Input {
            name: "prediction distributions",
            reason: format!(
                "slice {}: the sums have groups {:?}, the distributions {:?}",
                slice.name, summary.names, dist.names
            ),
        });
    }
    let min = stats.min_group_size;
    let mut groups = Vec::new();
    let mut rate_se = Vec::new();
    let mut small_groups = Vec::new();
    for (g, (name, v)) in summary.names.iter().zip(&summary.by_group).enumerate() {
        let small = v.count < min;
        if small {
            small_groups.push(UndefinedGroup {
                group: name.clone(),
                rate: "rows",
                reason: format!("{} rows, fewer than the minimum group size {min}", v.count),
            });
        }
        let (entry, se) = group_entry(name, v, Some((dist, g)), small, stats.confidence);
        groups.push(entry);
        rate_se.push(se);
    }
    let kept: Vec<usize> = (0..groups.len()).filter(|&g| !groups[g].small).collect();
    let mut gaps = Vec::new();
    for (dk, rk, m) in MEAN_GAPS {
        let values: Vec<(f64, Option<f64>)> = kept
            .iter()
            .filter_map(|&g| {
                let v = &summary.by_group[g];
                v.get(m).map(|x| (x, v.standard_error(m)))
            })
            .collect();
        gaps.extend(mean_gaps(
            dk,
            rk,
            &values,
            stats,
            gap_seed(stats.seed, si, dk),
        ));
    }
    let rates: Vec<(f64, Option<f64>)> = kept
        .iter()
        .filter_map(|&g| {
            groups[g].metrics["scoring_rate"]
                .value
                .map(|r| (r, rate_se[g]))
        })
        .collect();
    gaps.extend(mean_gaps(
        Key::ScoringRateDifference,
        Some(Key::ScoringRateRatio),
        &rates,
        stats,
        gap_seed(stats.seed, si, Key::ScoringRateDifference),
    ));
    // Distances between the kept groups' prediction distributions.
    let mut pairs = Vec::new();
    // (distance, group a, group b) of the largest Wasserstein-1 and KS distances.
    type Largest = Option<(f64, usize, usize)>;
    let (mut w_max, mut ks_max): (Largest, Largest) = (None, None);
    for (i, &a) in kept.iter().enumerate() {
        for &b in &kept[i + 1..] {
            let (w, k) = (dist.gaps.wasserstein[a][b], dist.gaps.ks[a][b]);
            if w.is_nan() || k.is_nan() {
                continue;
            }
            pairs.push(PairDistance {
                groups: [groups[a].group.clone(), groups[b].group.clone()],
                wasserstein: w,
                ks: k,
            });
            if w_max.is_none_or(|m| w > m.0) {
                w_max = Some((w, a, b));
            }
            if ks_max.is_none_or(|m| k > m.0) {
                ks_max = Some((k, a, b));
            }
        }
    }
    let mut w = gap(Key::WassersteinMax);
    let mut ks = gap(Key::KsPrediction);
    match (w_max, ks_max) {
        (Some((wv, _, _)), Some((kv, _, _))) => {
            w.value = Some(wv);
            ks.value = Some(kv);
            let n: Vec<f64> = kept.iter().map(|&g| groups[g].effective_n).collect();
            if let Ok(i) = ks_inference_of_max(kv, &n, 1.0, stats.confidence) {
                ks.lower = Some(i.interval.lower);
                ks.upper = Some(i.interval.upper);
                ks.p_value = Some(i.p_value);
            }
        }
        _ => {
            let why = format!("fewer than two groups with predictions and at least {min} rows");
            w.undefined_reason = Some(why.clone());
            ks.undefined_reason = Some(why);
        }
    }
    gaps.push(w);
    gaps.push(ks);
    for g in &mut gaps {
        g.small_groups.clone_from(&small_groups);
    }
    let loss = |m: RegressionMetric| {
        kept.iter()
            .filter_map(|&g| summary.by_group[g].get(m).map(|v| (g, v)))
            .fold(None::<(usize, f64)>, |best, (g, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((g, v)),
            })
            .map(|(g, value)| GroupLoss {
                group: summary.names[g].clone(),
                value,
            })
    };
    Ok(RegressionSlice {
        slice: slice.name.clone(),
        attributes: slice
            .attributes
            .iter()
            .map(|&a| slice_attribute(spec, a))
            .collect(),
        largest_group_mae: loss(RegressionMetric::MeanAbsoluteError),
        largest_group_mse: loss(RegressionMetric::MeanSquaredError),
        groups,
        gaps,
        pairs,
        small_groups,
    })
}

fn slice_attribute(spec: &RegressionSpec, a: usize) -> String {
    spec.slices
        .iter()
        .find(|s| s.attributes == [a])
        .map_or_else(|| a.to_string(), |s| s.name.clone())
}

/// The quantity a regression gap compares, as a key of a group's `metrics` (`None` for the
/// distribution distances).
pub fn gap_quantity(key: Key) -> Option<&'static str> {
    Some(match key {
        Key::MeanPredictionDifference | Key::MeanPredictionRatio => "mean_prediction",
        Key::MeanResidualDifference => "mean_residual",
        Key::MaeDifference | Key::MaeRatio => "mean_absolute_error",
        Key::RmseDifference | Key::RmseRatio => "root_mean_squared_error",
        Key::R2Difference => "r2_score",
        Key::ScoringRateDifference | Key::ScoringRateRatio => "scoring_rate",
        _ => return None,
    })
}

/// The groups with the highest and the lowest value of a gap's quantity among those kept in
/// it, or the pair of the largest distance.
pub fn gap_extremes(slice: &RegressionSlice, key: Key) -> Option<(String, String)> {
    match gap_quantity(key) {
        Some(q) => {
            let kept = slice
                .groups
                .iter()
                .filter(|g| !g.small)
                .filter_map(|g| g.metrics.get(q).and_then(|m| m.value).map(|v| (v, g)));
            let hi = kept.clone().max_by(|a, b| a.0.total_cmp(&b.0))?;
            let lo = kept.min_by(|a, b| a.0.total_cmp(&b.0))?;
            Some((hi.1.group.clone(), lo.1.group.clone()))
        }
        None => {
            let by = |p: &PairDistance| {
                if key == Key::WassersteinMax {
                    p.wasserstein
                } else {
                    p.ks
                }
            };
            let p = slice.pairs.iter().max_by(|a, b| by(a).total_cmp(&by(b)))?;
            Some((p.groups[0].clone(), p.groups[1].clone()))
        }
    }
}

fn number(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e5 || v.abs() < 1e-3) {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

/// The number of simulated draws behind a gap's p-value (its floor is `1 / (draws + 1)`), or
/// `None` for the analytic KS p-value.
pub fn simulated(key: Key, resamples: usize) -> Option<usize> {
    (key != Key::KsPrediction).then_some(resamples)
}

/// Most sentences the summary lists (the smallest p-values first).
const MAX_SENTENCES: usize = 10;

/// Plain-language sentences about the gaps distinguishable from noise (p below 1 − confidence),
/// most significant first, and one sentence when there are none.
pub fn sentences(audit: &RegressionAudit, confidence: f64, resamples: usize) -> Vec<String> {
    let alpha = 1.0 - confidence;
    let level = format!("{:.0} %", confidence * 100.0);
    let mut found: Vec<(f64, String)> = Vec::new();
    for s in &audit.slices {
        for g in &s.gaps {
            // One sentence per quantity: the difference (a ratio tests the same hypothesis),
            // except the scoring rate, whose impact ratio is what LL144 reads.
            let listed = match g.key {
                Key::ScoringRateRatio => true,
                Key::ScoringRateDifference => false,
                k => !k.is_ratio(),
            };
            let (Some(v), Some(p), true) = (g.value, g.p_value, listed) else {
                continue;
            };
            if p >= alpha {
                continue;
            }
            let between = gap_extremes(s, g.key)
                .map(|(a, b)| format!(" ({a} vs {b})"))
                .unwrap_or_default();
            let interval = match (g.lower, g.upper) {
                (Some(l), Some(u)) => format!(" [{}, {}]", number(l), number(u)),
                _ => String::new(),
            };
            found.push((
                p,
                format!(
                    "{}: {} {}{interval}{between}, {} — distinguishable from noise at the {level} level.",
                    s.slice,
                    g.name,
                    number(v),
                    crate::summary::p_text(p, simulated(g.key, resamples))
                ),
            ));
        }
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    if found.is_empty() {
        return vec![format!(
            "No gap of the predictions is distinguishable from noise at the {level} level (every p-value is at least {alpha:.2})."
        )];
    }
    let total = found.len();
    let mut out: Vec<String> = found.into_iter().take(MAX_SENTENCES).map(|f| f.1).collect();
    if total > MAX_SENTENCES {
        out.push(format!(
            "… and {} more distinguishable gaps in the tables of report.md / report.html.",
            total - MAX_SENTENCES
        ));
    }
    out
}

/// What a regression report is read from.
#[derive(Debug, Clone)]
pub struct RegressionRows<'a> {
    /// The finest groups' sums (named by the decoder's finest names).
    pub finest: &'a RegressionState,
    /// Each slice's distributions, in the order of the report's slices.
    pub distributions: Vec<SliceDistribution>,
}

/// The whole report of a regression audit and its charts.
///
/// # Errors
/// As [`regression_audit`].
pub fn build_regression_report(
    spec: &RegressionSpec,
    input: crate::model::InputInfo,
    weighted: bool,
    rows: &RegressionRows<'_>,
) -> Result<(crate::model::AuditReport, crate::charts::ChartData), AuditError> {
    use crate::model::{self, AuditReport, Settings, Tool};
    let audit = regression_audit(spec, rows.finest, &rows.distributions)?;
    let mut charts = crate::charts::ChartData::default();
    for (slice, dist) in audit.slices.iter().zip(&rows.distributions) {
        charts.add_regression_slice(slice, dist);
    }
    let mut report = AuditReport {
        schema: model::SCHEMA_NAME,
        schema_version: model::SCHEMA_VERSION,
        tool: Tool {
            name: "fairkit".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        input,
        settings: Settings {
            confidence: spec.stats.confidence,
            rate_ci_method: "wilson".into(),
            gap_method: INFERENCE_METHOD.into(),
            score_inference_method: "not applicable: a regression audit has no score column".into(),
            resamples: spec.stats.resamples,
            seed: spec.stats.seed,
            thresholds: Vec::new(),
            interval: None,
            weighted,
            min_group_size: spec.stats.min_group_size,
            multiple_testing: fair_metrics::ci::MultipleTesting::None.to_string(),
            disparity: None,
        },
        headline: Default::default(),
        audits: Vec::new(),
        score_metrics: None,
        summary: sentences(&audit, spec.stats.confidence, spec.stats.resamples),
        fail_if: Vec::new(),
        over_time: None,
        comparison: None,
        regression: Some(audit),
        ranking: None,
        unknowns: None,
        inferred: None,
    };
    report.headline = crate::summary::headline(&report);
    Ok((report, charts))
}
