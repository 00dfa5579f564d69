//! The comparison of two regression audits (`fairkit compare` of two reports with a
//! `regression` section): every gap and every group's metric before and after, with the
//! change's interval and p-value, from the numbers the reports hold — each group's value and
//! standard error (recovered from its normal interval, or from the effective size for the
//! scoring rate). The two audits' rows are taken as independent samples.

use super::{CompareSettings, Comparison, GapChange, RateChangeEntry, Side, SliceChange};
use crate::error::AuditError;
use crate::keys::Key;
use crate::model::AuditReport;
use crate::model::regression::{RegressionAudit, RegressionGroup, RegressionSlice};
use fair_metrics::ci::{NormalGapSettings, normal_change, normal_gap_change, two_sided_z};

/// How a regression comparison's changes are computed (written into compare.json).
pub const REGRESSION_CHANGE_METHOD: &str = "Regression audits, as independent samples: each group's value and standard error are read back from its report (the normal interval's half width ÷ z; the scoring rate's from its effective size); a gap's change is simulated by drawing every group of both audits from N(value, se²) and recomputing both gaps (seeded; percentile interval; two-sided p-value (1 + 2·min(#draws ≤ 0, #draws ≥ 0)) / (1 + B), capped at 1); a group's metric change has the normal interval with the two standard errors added in quadrature and the two-sided z-test; KS, Wasserstein-1 and R² changes have no interval or p-value (their reports keep no standard error)";

/// The gaps compared: (difference key, ratio key, the groups' metric).
pub(crate) const GAPS: [(Key, Option<Key>, &str); 6] = [
    (
        Key::MeanPredictionDifference,
        Some(Key::MeanPredictionRatio),
        "mean_prediction",
    ),
    (Key::MeanResidualDifference, None, "mean_residual"),
    (
        Key::MaeDifference,
        Some(Key::MaeRatio),
        "mean_absolute_error",
    ),
    (
        Key::RmseDifference,
        Some(Key::RmseRatio),
        "root_mean_squared_error",
    ),
    (Key::R2Difference, None, "r2_score"),
    (
        Key::ScoringRateDifference,
        Some(Key::ScoringRateRatio),
        "scoring_rate",
    ),
];

/// The per-group metrics whose changes are listed.
const METRICS: [&str; 6] = [
    "mean_prediction",
    "mean_residual",
    "mean_absolute_error",
    "root_mean_squared_error",
    "r2_score",
    "scoring_rate",
];

/// A group's value and standard error of `metric` (`None` se: no interval in the report).
fn value_se(g: &RegressionGroup, metric: &str, z: f64) -> Option<(f64, Option<f64>)> {
    let m = g.metrics.get(metric)?;
    let v = m.value?;
    let se = if metric == "scoring_rate" {
        (g.effective_n > 0.0).then(|| (v * (1.0 - v) / g.effective_n).sqrt())
    } else {
        m.upper.map(|u| ((u - v) / z).max(0.0))
    };
    Some((v, se))
}

fn gap_value(s: &RegressionSlice, key: Key) -> Option<f64> {
    s.gaps.iter().find(|g| g.key == key).and_then(|g| g.value)
}

/// The groups kept in both audits' gaps (neither small) and each one's (value, se) per side.
pub(crate) type Pairs = Vec<((f64, Option<f64>), (f64, Option<f64>))>;

pub(crate) fn kept(a: &RegressionSlice, b: &RegressionSlice, metric: &str, z: f64) -> Pairs {
    a.groups
        .iter()
        .filter(|g| !g.small)
        .filter_map(|ga| {
            let gb = b.groups.iter().find(|g| g.group == ga.group && !g.small)?;
            Some((value_se(ga, metric, z)?, value_se(gb, metric, z)?))
        })
        .collect()
}

#[allow(clippy::too_many_arguments)] // one gap's inputs, called from one place
pub(crate) fn gap_change(
    key: Key,
    ratio: bool,
    a: &RegressionSlice,
    b: &RegressionSlice,
    pairs: &Pairs,
    confidence: f64,
    resamples: usize,
    seed: u64,
) -> GapChange {
    let before = gap_value(a, key);
    let after = gap_value(b, key);
    let mut out = GapChange {
        key,
        name: key.name().to_string(),
        before,
        after,
        change: before.zip(after).map(|(x, y)| y - x),
        lower: None,
        upper: None,
        p_value: None,
        worse: false,
        undefined_reason: None,
    };
    if out.change.is_none() {
        out.undefined_reason = Some("the gap is undefined in one audit".into());
        return out;
    }
    // Both audits' (value, se) of every group, when every one has a standard error.
    type Sides = (Vec<(f64, f64)>, Vec<(f64, f64)>);
    let with_se: Option<Sides> = pairs
        .iter()
        .map(|&((va, sa), (vb, sb))| Some(((va, sa?), (vb, sb?))))
        .collect::<Option<Vec<_>>>()
        .map(|v| v.into_iter().unzip());
    let Some((groups_a, groups_b)) = with_se.filter(|g| g.0.len() >= 2) else {
        out.undefined_reason =
            Some("no standard errors to draw from (R², or fewer than two groups in both)".into());
        return out;
    };
    let settings = NormalGapSettings {
        resamples,
        confidence,
        seed,
    };
    let Ok(c) = normal_gap_change(&groups_a, &groups_b, ratio, &settings) else {
        out.undefined_reason = Some("the draws could not be made (see the groups' values)".into());
        return out;
    };
    out.lower = Some(c.interval.lower);
    out.upper = Some(c.interval.upper);
    out.p_value = Some(c.p_value);
    let change = out.change.unwrap_or(0.0);
    let alpha = 1.0 - confidence;
    out.worse = c.p_value < alpha
        && if key.is_ratio() {
            change < 0.0
        } else {
            change > 0.0
        };
    out
}

fn metric_changes(
    a: &RegressionSlice,
    b: &RegressionSlice,
    confidence: f64,
    z: f64,
) -> Vec<RateChangeEntry> {
    let mut out = Vec::new();
    for ga in &a.groups {
        let Some(gb) = b.groups.iter().find(|g| g.group == ga.group) else {
            continue;
        };
        for metric in METRICS {
            let (x, y) = (value_se(ga, metric, z), value_se(gb, metric, z));
            let change = x.zip(y).map(|(x, y)| y.0 - x.0);
            let tested = x.zip(y).and_then(|(x, y)| {
                normal_change(x.0, x.1?, y.0, y.1?, confidence)
                    .ok()
                    .flatten()
            });
            let (lower, upper, p_value) = match tested {
                Some((_, iv, p)) => (Some(iv.lower), Some(iv.upper), Some(p)),
                None => (None, None, None),
            };
            out.push(RateChangeEntry {
                group: ga.group.clone(),
                rate: crate::keys::static_rate(metric).unwrap_or("rows"),
                before: x.map(|v| v.0),
                after: y.map(|v| v.0),
                change,
                lower,
                upper,
                p_value,
            });
        }
    }
    out
}

pub(crate) fn distance_change(key: Key, a: &RegressionSlice, b: &RegressionSlice) -> GapChange {
    let (before, after) = (gap_value(a, key), gap_value(b, key));
    GapChange {
        key,
        name: key.name().to_string(),
        before,
        after,
        change: before.zip(after).map(|(x, y)| y - x),
        lower: None,
        upper: None,
        p_value: None,
        worse: false,
        undefined_reason: Some(
            "a distance between distributions: its reports keep no standard error".into(),
        ),
    }
}

fn slice_seed(seed: u64, slice: usize, key: Key) -> u64 {
    let mut h = seed ^ 0x51_7c_c1_b7_27_22_0a_95;
    for b in key.as_str().bytes().chain((slice as u64).to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The comparison of two regression audits, as independent samples.
///
/// # Errors
/// [`AuditError::Input`] when the reports have no slice in common, or (unless `allow_partial`)
/// slices or groups in one only.
pub fn compare_regression(
    before: &AuditReport,
    after: &AuditReport,
    (a, b): (&RegressionAudit, &RegressionAudit),
    (confidence, resamples, seed): (f64, usize, u64),
    allow_partial: bool,
) -> Result<Comparison, AuditError> {
    let z = two_sided_z(confidence).map_err(|source| AuditError::Metric {
        what: "the comparison's confidence".into(),
        source,
    })?;
    let mut mismatches = Vec::new();
    for s in &a.slices {
        match b.slices.iter().find(|x| x.slice == s.slice) {
            None => mismatches.push(format!("slice {:?} is in the first report only", s.slice)),
            Some(t) => {
                let names = |x: &RegressionSlice| {
                    x.groups.iter().map(|g| g.group.clone()).collect::<Vec<_>>()
                };
                if names(s) != names(t) {
                    mismatches.push(format!(
                        "slice {:?} has groups {:?} in the first report and {:?} in the second",
                        s.slice,
                        names(s),
                        names(t)
                    ));
                }
            }
        }
    }
    for t in &b.slices {
        if !a.slices.iter().any(|s| s.slice == t.slice) {
            mismatches.push(format!("slice {:?} is in the second report only", t.slice));
        }
    }
    if !allow_partial && !mismatches.is_empty() {
        return Err(AuditError::Input {
            name: "reports to compare",
            reason: format!(
                "they do not match, so the comparison would not be faithful: {}. Audit both with the same --sensitive columns and groups, or pass --allow-partial (allow_partial=True in Python) to compare only what they share",
                mismatches.join("; ")
            ),
        });
    }
    let mut changes = Vec::new();
    for (k, s) in a.slices.iter().enumerate() {
        let Some(t) = b.slices.iter().find(|x| x.slice == s.slice) else {
            continue;
        };
        let mut gaps = Vec::new();
        for (dk, rk, metric) in GAPS {
            let pairs = kept(s, t, metric, z);
            for (key, ratio) in [(Some(dk), false), (rk, true)] {
                if let Some(key) = key {
                    gaps.push(gap_change(
                        key,
                        ratio,
                        s,
                        t,
                        &pairs,
                        confidence,
                        resamples,
                        slice_seed(seed, k, key),
                    ));
                }
            }
        }
        gaps.push(distance_change(Key::WassersteinMax, s, t));
        gaps.push(distance_change(Key::KsPrediction, s, t));
        changes.push(SliceChange {
            threshold: None,
            slice: s.slice.clone(),
            gaps,
            rates: metric_changes(s, t, confidence, z),
        });
    }
    if changes.is_empty() {
        return Err(AuditError::Input {
            name: "reports to compare",
            reason: "they have no sensitive column in common: audit both with the same --sensitive columns".into(),
        });
    }
    let side = |r: &AuditReport| Side {
        file: r.input.file.clone(),
        rows: r.input.rows,
    };
    let mut c = Comparison {
        schema: crate::model::compare::COMPARE_SCHEMA,
        schema_version: 1,
        before: side(before),
        after: side(after),
        settings: CompareSettings {
            confidence,
            resamples,
            seed,
            method: REGRESSION_CHANGE_METHOD.to_string(),
            rate_method: REGRESSION_CHANGE_METHOD.to_string(),
            paired: false,
            score_method: None,
        },
        changes,
        score_changes: Vec::new(),
        summary: Vec::new(),
        fail_if: Vec::new(),
        fail_if_worse: None,
        model: Vec::new(),
        verdicts: Vec::new(),
    };
    c.verdicts = super::first_page::verdicts(&c);
    c.summary = super::first_page::sentences(&c);
    c.summary.extend(super::sentences(&c));
    if allow_partial {
        c.summary
            .extend(mismatches.into_iter().map(|m| format!("Left out: {m}.")));
    }
    Ok(c)
}
