//! From states to results: rates with intervals, gaps with bootstrap intervals and permutation
//! p-values (fair_metrics::ci), and the exact score metrics (fair_metrics::{roc, ks, partial}).

use super::accumulate::SliceDef;
use super::model::{
    ConfusionSlice, Counts, Estimate, Gap, GroupAuc, GroupRates, PairMax, ScoreSlice,
};
use crate::error::CliError;
use fair_metrics::ci::{
    GapInference, GapKind, GapMetric, GapSettings, RateCiMethod, gap_inference, rate_intervals,
};
use fair_metrics::score_sweep::{PairGaps, SliceMap, SliceScores};
use fair_metrics::state::ConfusionState;
use fair_metrics::{ConfusionCounts, PairwiseSummary, Rate};
use std::collections::BTreeMap;

/// The statistics settings shared by every slice.
#[derive(Debug, Clone, Copy)]
pub struct Stats {
    /// Interval level.
    pub confidence: f64,
    /// Rate CI method.
    pub method: RateCiMethod,
    /// Resamples per gap.
    pub resamples: usize,
    /// Seed.
    pub seed: u64,
}

/// JSON key of each rate.
pub fn rate_key(rate: Rate) -> &'static str {
    match rate {
        Rate::Selection => "selection_rate",
        Rate::TruePositive => "true_positive_rate",
        Rate::FalsePositive => "false_positive_rate",
        Rate::TrueNegative => "true_negative_rate",
        Rate::FalseNegative => "false_negative_rate",
        Rate::Precision => "precision",
        Rate::Accuracy => "accuracy",
        Rate::Error => "error_rate",
    }
}

/// The count-based gaps: (headline key, plain name, metric, kind).
pub const GAPS: [(&str, &str, GapMetric, GapKind); 8] = [
    (
        "dp_difference",
        "demographic parity difference",
        GapMetric::Rate(Rate::Selection),
        GapKind::Difference,
    ),
    (
        "dp_ratio",
        "demographic parity ratio",
        GapMetric::Rate(Rate::Selection),
        GapKind::Ratio,
    ),
    (
        "eo_difference",
        "equal opportunity difference",
        GapMetric::Rate(Rate::TruePositive),
        GapKind::Difference,
    ),
    (
        "eo_ratio",
        "equal opportunity ratio",
        GapMetric::Rate(Rate::TruePositive),
        GapKind::Ratio,
    ),
    (
        "eq_odds_difference",
        "equalized odds difference",
        GapMetric::EqualizedOdds,
        GapKind::Difference,
    ),
    (
        "eq_odds_ratio",
        "equalized odds ratio",
        GapMetric::EqualizedOdds,
        GapKind::Ratio,
    ),
    (
        "accuracy_difference",
        "accuracy difference",
        GapMetric::Rate(Rate::Accuracy),
        GapKind::Difference,
    ),
    (
        "accuracy_ratio",
        "accuracy ratio",
        GapMetric::Rate(Rate::Accuracy),
        GapKind::Ratio,
    ),
];

/// The score-based headline keys.
pub const SCORE_KEYS: [&str; 4] = ["auc_difference", "ks_dp", "ks_eo", "psp"];

fn counts(c: &ConfusionCounts) -> Counts {
    Counts {
        tp: c.tp,
        fp: c.fp,
        tn: c.tn,
        fn_: c.fn_,
    }
}

fn metric_err(what: String) -> impl FnOnce(fair_metrics::MetricError) -> CliError {
    move |source| CliError::Metric { what, source }
}

/// Rates, intervals and gaps of one slice's state.
///
/// # Errors
/// [`CliError::Metric`] when the state is empty or a confidence is invalid (the flags are
/// validated before, so only an empty state can get here).
pub fn confusion_slice(
    slice: &SliceDef,
    attribute_names: &[String],
    state: &ConfusionState,
    stats: &Stats,
) -> Result<ConfusionSlice, CliError> {
    let gc = state
        .to_group_confusion()
        .map_err(metric_err(format!("counts of {}", slice.name)))?;
    let mut per_rate = Vec::new();
    for rate in Rate::ALL {
        per_rate.push(
            rate_intervals(state, rate, stats.confidence, stats.method)
                .map_err(metric_err(format!("intervals of {}", slice.name)))?,
        );
    }
    let rates_of = |g: Option<usize>| -> BTreeMap<&'static str, Option<Estimate>> {
        per_rate
            .iter()
            .map(|ri| {
                let gi = match g {
                    Some(g) => &ri.groups[g],
                    None => &ri.overall,
                };
                let est = match (gi.estimate, gi.interval) {
                    (Some(value), Some(iv)) => Some(Estimate {
                        value,
                        lower: iv.lower,
                        upper: iv.upper,
                    }),
                    _ => None,
                };
                (rate_key(ri.rate), est)
            })
            .collect()
    };
    let groups = gc
        .names()
        .iter()
        .enumerate()
        .map(|(g, name)| GroupRates {
            group: name.clone(),
            rows: state.rows(name).unwrap_or(0),
            counts: counts(&gc.by_group()[g]),
            rates: rates_of(Some(g)),
        })
        .collect();
    let overall = GroupRates {
        group: "all".into(),
        rows: state.total_rows(),
        counts: counts(gc.overall()),
        rates: rates_of(None),
    };
    let gaps = GAPS
        .iter()
        .map(|&(key, name, metric, kind)| {
            let settings = GapSettings {
                kind,
                confidence: stats.confidence,
                n_resamples: stats.resamples,
                seed: stats.seed,
                ..GapSettings::default()
            };
            gap(key, name, kind, gap_inference(state, metric, &settings))
        })
        .collect();
    Ok(ConfusionSlice {
        slice: slice.name.clone(),
        attributes: slice
            .attributes
            .iter()
            .map(|&a| attribute_names[a].clone())
            .collect(),
        groups,
        overall,
        gaps,
    })
}

fn gap(
    key: &'static str,
    name: &'static str,
    kind: GapKind,
    r: Result<GapInference, fair_metrics::MetricError>,
) -> Gap {
    let kind = match kind {
        GapKind::Difference => "difference",
        GapKind::Ratio => "ratio",
    };
    match r {
        Ok(g) => Gap {
            key,
            name,
            kind,
            value: Some(g.estimate),
            lower: Some(g.interval.lower),
            upper: Some(g.interval.upper),
            p_value: Some(g.p_value),
            undefined_reason: None,
        },
        Err(e) => Gap {
            key,
            name,
            kind,
            value: None,
            lower: None,
            upper: None,
            p_value: None,
            undefined_reason: Some(e.to_string()),
        },
    }
}

/// A slice as a map of the finest groups (by finest code) onto the slice's values; group names
/// sorted.
pub fn slice_map(slice: &SliceDef, finest_parts: &[Vec<String>]) -> SliceMap {
    let labels: Vec<String> = finest_parts
        .iter()
        .map(|parts| {
            slice
                .attributes
                .iter()
                .map(|&a| parts[a].as_str())
                .collect::<Vec<_>>()
                .join(" & ")
        })
        .collect();
    let mut names = labels.clone();
    names.sort();
    names.dedup();
    let group_of = labels
        .iter()
        .map(|l| names.binary_search(l).unwrap_or(0))
        .collect();
    SliceMap { names, group_of }
}

fn pair_max(p: &PairwiseSummary) -> PairMax {
    PairMax {
        value: p.max,
        groups: [
            p.names[p.worst_pair.first].clone(),
            p.names[p.worst_pair.second].clone(),
        ],
    }
}

fn pair_gaps(
    what: &str,
    r: &Result<PairGaps, fair_metrics::MetricError>,
    notes: &mut Vec<String>,
) -> Option<PairMax> {
    match r {
        Ok(p) => Some(pair_max(&p.summary)),
        Err(e) => {
            notes.push(format!("{what}: {e}"));
            None
        }
    }
}

/// AUC per group, exact KS (DP-Δ, EO-Δ) and partial SP of one slice, from the sweep.
pub fn score_slice(slice: &SliceDef, m: &SliceScores) -> ScoreSlice {
    let mut notes = Vec::new();
    for (name, auc) in m.names.iter().zip(&m.auc_by_group) {
        if auc.is_none() {
            notes.push(format!(
                "AUC of group {name:?}: undefined (the group lacks positives or negatives)"
            ));
        }
    }
    let defined: Vec<f64> = m.auc_by_group.iter().flatten().copied().collect();
    let auc_difference = (!defined.is_empty()).then(|| {
        defined.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            - defined.iter().copied().fold(f64::INFINITY, f64::min)
    });
    let ks_dp = pair_gaps("KS (DP-Δ)", &m.ks_dp, &mut notes);
    let ks_eo = pair_gaps("KS on positives (EO-Δ)", &m.ks_eo, &mut notes);
    let psp = m
        .psp
        .as_ref()
        .and_then(|r| pair_gaps("partial SP", r, &mut notes));
    let single_group = m.names.len() < 2;
    if single_group {
        notes.push("only one group: no gap to measure".into());
    }
    ScoreSlice {
        slice: slice.name.clone(),
        auc_overall: m.auc_overall,
        auc_by_group: m
            .names
            .iter()
            .zip(&m.auc_by_group)
            .map(|(g, a)| GroupAuc {
                group: g.clone(),
                auc: *a,
            })
            .collect(),
        auc_difference: auc_difference.filter(|_| m.auc_overall.is_some()),
        ks_dp: ks_dp.filter(|_| !single_group),
        ks_eo: ks_eo.filter(|_| !single_group),
        psp: psp.filter(|_| !single_group),
        notes,
    }
}
