//! From states to results: rates with intervals, gaps with bootstrap intervals and permutation
//! p-values (fair_metrics::ci), and the exact score metrics (fair_metrics::{roc, ks, partial}).

use super::accumulate::{Accumulator, SliceDef};
use super::model::{
    ConfusionSlice, Counts, Estimate, Gap, GroupAuc, GroupRates, PairMax, ScoreSlice,
};
use crate::error::CliError;
use fair_data::Groups;
use fair_metrics::ci::{
    GapInference, GapKind, GapMetric, GapSettings, RateCiMethod, gap_inference, rate_intervals,
};
use fair_metrics::partial::PercentileInterval;
use fair_metrics::state::{ConfusionState, ScoreColumns};
use fair_metrics::{ConfusionCounts, PairwiseSummary, Rate, ZeroDivision};
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

/// A slice's groups over the canonical score columns: the finest groups mapped to the slice's
/// attribute values.
pub fn slice_groups(
    slice: &SliceDef,
    cols: &ScoreColumns,
    finest_parts: &BTreeMap<String, Vec<String>>,
) -> Result<Groups, CliError> {
    let finest = cols.groups.names();
    let label_of = |name: &String| -> String {
        match finest_parts.get(name) {
            Some(parts) => slice
                .attributes
                .iter()
                .map(|&a| parts[a].as_str())
                .collect::<Vec<_>>()
                .join(" & "),
            None => name.clone(),
        }
    };
    let labels: Vec<String> = finest.iter().map(label_of).collect();
    let mut names: Vec<String> = labels.clone();
    names.sort();
    names.dedup();
    let code_of: Vec<usize> = labels
        .iter()
        .map(|l| names.binary_search(l).unwrap_or(0))
        .collect();
    let codes = cols.groups.codes().iter().map(|&c| code_of[c]).collect();
    Groups::new(codes, names).map_err(|e| CliError::Metric {
        what: "slice groups".into(),
        source: e.into(),
    })
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

/// AUC per group, exact KS (DP-Δ, EO-Δ) and partial SP of one slice.
pub fn score_slice(
    slice: &SliceDef,
    cols: &ScoreColumns,
    groups: &Groups,
    interval: Option<PercentileInterval>,
) -> ScoreSlice {
    let w = cols.weights.as_deref();
    let mut notes = Vec::new();
    let mut note = |what: &str, e: fair_metrics::MetricError| notes.push(format!("{what}: {e}"));
    let auc = match fair_metrics::roc::auc_by_group(
        &cols.y_true,
        &cols.scores,
        groups,
        w,
        ZeroDivision::Skip,
    ) {
        Ok(s) => Some(s),
        Err(e) => {
            note("AUC", e);
            None
        }
    };
    let ks_dp = match fair_metrics::ks::ks_statistic(&cols.scores, groups, w) {
        Ok(p) => Some(pair_max(&p)),
        Err(e) => {
            note("KS (DP-Δ)", e);
            None
        }
    };
    let ks_eo = match fair_metrics::ks::equal_opportunity_ks(&cols.y_true, &cols.scores, groups, w)
    {
        Ok(p) => Some(pair_max(&p)),
        Err(e) => {
            note("KS on positives (EO-Δ)", e);
            None
        }
    };
    let psp = interval.and_then(|iv| {
        match fair_metrics::partial::partial_statistical_parity(&cols.scores, groups, w, iv) {
            Ok(p) => Some(pair_max(&p)),
            Err(e) => {
                note("partial SP", e);
                None
            }
        }
    });
    let single_group = groups.n_groups() < 2;
    if single_group {
        notes.push("only one group: no gap to measure".into());
    }
    ScoreSlice {
        slice: slice.name.clone(),
        auc_overall: auc.as_ref().map(|s| s.overall),
        auc_by_group: match &auc {
            Some(s) => s
                .names
                .iter()
                .zip(&s.by_group)
                .map(|(g, a)| GroupAuc {
                    group: g.clone(),
                    auc: *a,
                })
                .collect(),
            None => Vec::new(),
        },
        auc_difference: auc.as_ref().map(|s| s.difference),
        ks_dp: ks_dp.filter(|_| !single_group),
        ks_eo: ks_eo.filter(|_| !single_group),
        psp: psp.filter(|_| !single_group),
        notes,
    }
}

/// The finest-group parts keyed by finest-group name, for [`slice_groups`].
pub fn parts_by_name(acc: &Accumulator) -> BTreeMap<String, Vec<String>> {
    acc.finest_parts
        .iter()
        .map(|p| (p.join(" & "), p.clone()))
        .collect()
}
