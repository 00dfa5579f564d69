//! From states to results: rates with intervals, gaps with bootstrap intervals and permutation
//! p-values (fair_metrics::ci), and the exact score metrics (fair_metrics::{roc, ks, partial}).

use crate::error::AuditError;
use crate::keys::Key;
use crate::model::{
    BetweenGroups, ConfusionSlice, Counts, Estimate, Gap, GroupAuc, GroupRates, PairMax,
    ScoreSlice, UndefinedGroup,
};
use fair_metrics::ci::{
    BetweenSettings, GapInference, GapKind, GapMetric, GapSettings, RateCiMethod, RateIntervals,
    ScoreGapInference, auc_difference_inference, auc_interval, beta_binomial_shrinkage,
    between_group_variance_of_counts, gap_inferences, ks_inference, rate_intervals,
};
use fair_metrics::partial::PercentileInterval;
use fair_metrics::score_sweep::{PairGaps, SliceMap, SliceScores};
use fair_metrics::state::ConfusionState;
use fair_metrics::{ConfusionCounts, GroupConfusion, PairwiseSummary, Rate};
use std::collections::BTreeMap;

/// A slice: one sensitive column, or the intersection of all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceDef {
    /// Display name ("race", or "race & sex" for the intersection).
    pub name: String,
    /// Indices of the sensitive columns it is made of.
    pub attributes: Vec<usize>,
}

impl SliceDef {
    /// The slices of an audit over `columns`: each column, then (with two or more) their
    /// intersection, named by the columns joined with " & ".
    pub fn all(columns: &[String]) -> Vec<SliceDef> {
        let mut slices: Vec<SliceDef> = columns
            .iter()
            .enumerate()
            .map(|(i, n)| SliceDef {
                name: n.clone(),
                attributes: vec![i],
            })
            .collect();
        if columns.len() >= 2 {
            slices.push(SliceDef {
                name: columns.join(" & "),
                attributes: (0..columns.len()).collect(),
            });
        }
        slices
    }
}

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
    /// The minimum group size: a group with fewer rows in the denominator of a rate a gap
    /// compares is shown with its rates but kept out of that gap (0 keeps every group in).
    pub min_group_size: u64,
}

/// The default minimum group size (rows in a gap's denominator): below 30 rows a rate's
/// interval is wide and a single group decides the largest gap by chance (the common rule of
/// thumb for a normal approximation; documented in docs/audit.md).
pub const DEFAULT_MIN_GROUP_SIZE: u64 = 30;

impl Default for Stats {
    /// The command's defaults: 95 % Wilson intervals, 1,000 resamples per gap, seed 0, groups
    /// of fewer than [`DEFAULT_MIN_GROUP_SIZE`] rows kept out of gaps.
    fn default() -> Self {
        Self {
            confidence: 0.95,
            method: RateCiMethod::Wilson,
            resamples: 1000,
            seed: 0,
            min_group_size: DEFAULT_MIN_GROUP_SIZE,
        }
    }
}

/// JSON key of each rate.
pub fn rate_key(rate: Rate) -> &'static str {
    rate.as_str()
}

/// The count-based gaps: (headline key, plain name, metric, kind), from [`Key::COUNT`].
pub const GAPS: [(Key, &str, GapMetric, GapKind); 8] = {
    let mut out = [(
        Key::DpDifference,
        "",
        GapMetric::EqualizedOdds,
        GapKind::Difference,
    ); 8];
    let mut i = 0;
    while i < out.len() {
        let k = Key::COUNT[i];
        let Some(metric) = k.metric() else {
            panic!("a count key has a metric")
        };
        out[i] = (k, k.name(), metric, k.kind());
        i += 1;
    }
    out
};

/// The score-based headline keys.
pub const SCORE_KEYS: [Key; 4] = Key::SCORE;

fn counts(c: &ConfusionCounts) -> Counts {
    Counts {
        tp: c.tp,
        fp: c.fp,
        tn: c.tn,
        fn_: c.fn_,
    }
}

fn metric_err(what: String) -> impl FnOnce(fair_metrics::MetricError) -> AuditError {
    move |source| match source {
        // A group of the data with zero weight: say so in the data's terms (the metrics'
        // message names their Rust API).
        fair_metrics::MetricError::EmptyGroup { .. } => AuditError::Input {
            name: "weights",
            reason: format!("{what}: {}", in_audit_terms(&source)),
        },
        source => AuditError::Metric { what, source },
    }
}

/// A metric's reason in the terms of the audit's users: `fair_metrics` names its Rust API
/// (`ZeroDivision::Skip`, `Groups::compact()`), which the command and Python do not expose.
fn in_audit_terms(e: &fair_metrics::MetricError) -> String {
    match e {
        fair_metrics::MetricError::UndefinedRate { rate, group } => format!(
            "{rate} is undefined for group {group:?} (its denominator has zero weight, e.g. no positives): the gap needs it in every group; add such rows to the group or merge it with another value of its sensitive column"
        ),
        fair_metrics::MetricError::EmptyGroup { group } => format!(
            "group {group:?} has no rows with a weight > 0: every group needs a positive total weight; check the weight column or drop the group's rows"
        ),
        other => other.to_string(),
    }
}

/// Rates, intervals and gaps of one slice's state.
///
/// # Errors
/// [`AuditError::Metric`] when the state is empty or a confidence is invalid.
pub fn confusion_slice(
    slice: &SliceDef,
    attribute_names: &[String],
    state: &ConfusionState,
    stats: &Stats,
) -> Result<ConfusionSlice, AuditError> {
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
    let denominators = |name: &str| {
        let rows = |rate| state.denominator_rows(name, rate).unwrap_or(0);
        (
            rows(Rate::TruePositive),
            rows(Rate::FalsePositive),
            rows(Rate::Precision),
        )
    };
    let (mut shrunken, between_groups) = many_groups(&per_rate, stats);
    let groups = gc
        .names()
        .iter()
        .enumerate()
        .map(|(g, name)| {
            let (positives, negatives, predicted_positives) = denominators(name);
            GroupRates {
                group: name.clone(),
                rows: state.rows(name).unwrap_or(0),
                positives,
                negatives,
                predicted_positives,
                counts: counts(&gc.by_group()[g]),
                rates: rates_of(Some(g)),
                shrunken: shrunken
                    .iter_mut()
                    .map(|(k, v)| (*k, v.get(g).copied().flatten()))
                    .collect(),
            }
        })
        .collect();
    let all_names = gc.names();
    let sum = |f: &dyn Fn(&str) -> u64| all_names.iter().map(|n| f(n)).sum::<u64>();
    let overall = GroupRates {
        group: "all".into(),
        rows: state.total_rows(),
        positives: sum(&|n| denominators(n).0),
        negatives: sum(&|n| denominators(n).1),
        predicted_positives: sum(&|n| denominators(n).2),
        counts: counts(gc.overall()),
        rates: rates_of(None),
        shrunken: BTreeMap::new(),
    };
    let gaps = gaps_of(state, &gc, stats);
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
        between_groups,
        disparities: None,
    })
}

/// Per group, one rate's shrunken estimate (`None` where it is undefined).
type Shrunk = Vec<Option<Estimate>>;

/// The statistics for many small groups, per rate: each group's empirical-Bayes shrunken rate
/// with its posterior interval, and the slice's bias-corrected between-group variance. A slice
/// of one group (or a rate defined in fewer than two) has none: null in the report. Each rate's
/// bootstrap takes its own seed (the report's seed plus the rate's index) so the rates' draws
/// are not the same stream.
fn many_groups(
    per_rate: &[RateIntervals],
    stats: &Stats,
) -> (
    BTreeMap<&'static str, Shrunk>,
    BTreeMap<&'static str, Option<BetweenGroups>>,
) {
    let mut shrunk = BTreeMap::new();
    let mut between = BTreeMap::new();
    for (i, ri) in per_rate.iter().enumerate() {
        let (x, n): (Vec<f64>, Vec<f64>) = ri
            .groups
            .iter()
            .map(|g| match g.estimate {
                Some(p) if g.effective_n > 0.0 => (p * g.effective_n, g.effective_n),
                _ => (0.0, 0.0),
            })
            .unzip();
        let key = rate_key(ri.rate);
        let s: Shrunk = match beta_binomial_shrinkage(&x, &n, stats.confidence) {
            Ok(s) => s
                .groups
                .iter()
                .map(|g| {
                    g.map(|g| Estimate {
                        value: g.mean,
                        lower: g.interval.lower,
                        upper: g.interval.upper,
                    })
                })
                .collect(),
            Err(_) => vec![None; x.len()],
        };
        shrunk.insert(key, s);
        let settings = BetweenSettings {
            confidence: stats.confidence,
            n_resamples: stats.resamples,
            seed: stats.seed.wrapping_add(i as u64),
        };
        let b = between_group_variance_of_counts(&x, &n, &settings)
            .ok()
            .map(|v| BetweenGroups {
                groups: v.groups,
                naive_variance: v.naive,
                variance: v.corrected,
                lower: v.interval.lower,
                upper: v.interval.upper,
                sd: v.sd,
                sd_lower: v.sd_interval.lower,
                sd_upper: v.sd_interval.upper,
            });
        between.insert(key, b);
    }
    (shrunk, between)
}

/// Every one of the [`GAPS`] of a slice's state, as [`count_gap`] computes them; a state whose
/// group counts cannot be read (a group whose rows all weigh 0) gives every gap undefined with
/// the reason.
pub fn slice_gaps(state: &ConfusionState, stats: &Stats) -> Vec<Gap> {
    match state.to_group_confusion() {
        Ok(gc) => gaps_of(state, &gc, stats),
        Err(e) => GAPS
            .iter()
            .map(|&(key, name, _, kind)| gap(key, name, kind, Err(e.clone())))
            .collect(),
    }
}

/// Every one of the [`GAPS`] of a slice's state (`gc` its group confusion), with its bootstrap
/// interval and permutation p-value, under the audit's rules: groups below the minimum group
/// size are kept out (listed at the gap), groups whose rate is undefined are skipped (listed),
/// and a gap with fewer than two groups left to compare for any of its rates is undefined,
/// with the reason — a gap of one group would read as perfect parity. The gaps that keep the
/// same groups share one set of bootstrap draws and each metric's difference and ratio one set
/// of permutations ([`fair_metrics::ci::gap_inferences`], bit for bit one gap at a time). The
/// audit of all rows and every `--by` window call this one function, so a window's gaps are
/// exactly the audit of its rows.
fn gaps_of(state: &ConfusionState, gc: &GroupConfusion, stats: &Stats) -> Vec<Gap> {
    let settings = GapSettings {
        confidence: stats.confidence,
        n_resamples: stats.resamples,
        seed: stats.seed,
        ..GapSettings::default()
    };
    let small: Vec<Vec<UndefinedGroup>> = GAPS
        .iter()
        .map(|&(_, _, metric, _)| small_groups(state, metric, stats.min_group_size))
        .collect();
    let left_out = |i: usize| -> std::collections::BTreeSet<&str> {
        small[i].iter().map(|u| u.group.as_str()).collect()
    };
    let mut inference: Vec<Option<Result<GapInference, fair_metrics::MetricError>>> =
        vec![None; GAPS.len()];
    for i in 0..GAPS.len() {
        if inference[i].is_some() {
            continue;
        }
        let out = left_out(i);
        let members: Vec<usize> = (i..GAPS.len())
            .filter(|&j| inference[j].is_none() && left_out(j) == out)
            .collect();
        let specs: Vec<(GapMetric, GapKind)> =
            members.iter().map(|&j| (GAPS[j].2, GAPS[j].3)).collect();
        let results = if out.is_empty() {
            gap_inferences(state, &specs, &settings)
        } else {
            let kept = state.retain_groups(|g| !out.contains(g));
            gap_inferences(&kept, &specs, &settings)
        };
        for (&j, r) in members.iter().zip(results) {
            inference[j] = Some(r);
        }
    }
    GAPS.iter()
        .zip(small)
        .zip(inference)
        .map(|((&spec, small), r)| {
            let r = r.unwrap_or(Err(fair_metrics::MetricError::UndefinedMetric {
                metric: "gap",
                reason: "not computed",
            }));
            count_gap(gc, spec, stats, small, r, state.is_weighted())
        })
        .collect()
}

/// One gap from its inference (`r`), with the groups it leaves out and why.
fn count_gap(
    gc: &GroupConfusion,
    (key, name, metric, kind): (Key, &'static str, GapMetric, GapKind),
    stats: &Stats,
    small: Vec<UndefinedGroup>,
    r: Result<GapInference, fair_metrics::MetricError>,
    weighted: bool,
) -> Gap {
    let mut g = gap(key, name, kind, r);
    if g.value.is_none() && !small.is_empty() {
        g.undefined_reason = Some(format!(
            "fewer than two groups have at least {} rows in the denominator of the rates it compares (the minimum group size): the groups below it are listed with the gap",
            stats.min_group_size
        ));
    }
    // The gap skips groups whose rate is undefined: with one group left per rate it would
    // read 0 (a ratio 1), perfect parity, where there is nothing to compare.
    let compared = gap_rates(metric)
        .into_iter()
        .map(|rate| {
            gc.names()
                .iter()
                .zip(gc.by_group())
                .filter(|(n, c)| c.rate(rate).is_some() && small.iter().all(|s| &s.group != *n))
                .count()
        })
        .min()
        .unwrap_or(0);
    if g.value.is_some() && compared < 2 {
        g.value = None;
        g.lower = None;
        g.upper = None;
        g.p_value = None;
        g.undefined_reason = Some(format!(
            "only {compared} group has the rates it compares (the others have no rows in their denominator{}): a gap needs two groups; the groups left out are listed with the gap",
            if small.is_empty() {
                ""
            } else {
                " or are below the minimum group size"
            }
        ));
        g.undefined_groups = undefined_groups(gc, metric, weighted);
    }
    g.small_groups = small;
    if let Some(value) = g.value {
        g.undefined_groups = undefined_groups(gc, metric, weighted);
        let fl = fairlearn_gap(gc, metric, kind);
        if fl.is_nan() || (fl - value).abs() > FAIRLEARN_TOLERANCE {
            g.fairlearn_value = Some(fl.is_finite().then_some(fl));
        }
    }
    g
}

fn gap(
    key: Key,
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
            name: name.to_string(),
            kind,
            value: Some(g.estimate),
            lower: Some(g.interval.lower),
            upper: Some(g.interval.upper),
            p_value: Some(g.p_value),
            p_value_adjusted: None,
            undefined_reason: None,
            undefined_groups: Vec::new(),
            fairlearn_value: None,
            small_groups: Vec::new(),
        },
        Err(e) => Gap {
            key,
            name: name.to_string(),
            kind,
            value: None,
            lower: None,
            upper: None,
            p_value: None,
            p_value_adjusted: None,
            undefined_reason: Some(in_audit_terms(&e)),
            undefined_groups: Vec::new(),
            fairlearn_value: None,
            small_groups: Vec::new(),
        },
    }
}

/// The rates a gap compares: the one rate, or equalized odds' TPR then FPR.
fn gap_rates(metric: GapMetric) -> Vec<Rate> {
    match metric {
        GapMetric::Rate(r) => vec![r],
        GapMetric::EqualizedOdds => vec![Rate::TruePositive, Rate::FalsePositive],
    }
}

/// Short name of a rate in the reasons ("TPR", "precision").
fn short_name(rate: Rate) -> &'static str {
    match rate {
        Rate::Selection => "selection rate",
        Rate::TruePositive => "TPR",
        Rate::FalsePositive => "FPR",
        Rate::TrueNegative => "TNR",
        Rate::FalseNegative => "FNR",
        Rate::Precision => "precision",
        Rate::Accuracy => "accuracy",
        Rate::Error => "error rate",
    }
}

/// Why `rate` is undefined in a group: its denominator ("no positive rows: TPR undefined").
/// With weights the denominator is a weight, so it also covers rows that all weigh 0.
pub fn undefined_reason(rate: Rate, weighted: bool) -> String {
    let rows = denominator_name(rate);
    let weight = if weighted { " with weight > 0" } else { "" };
    format!("no {rows}{weight}: {} undefined", short_name(rate))
}

/// What a group's rows in `rate`'s denominator are called ("positive rows").
fn denominator_name(rate: Rate) -> &'static str {
    match rate {
        Rate::TruePositive | Rate::FalseNegative => "positive rows",
        Rate::FalsePositive | Rate::TrueNegative => "negative rows",
        Rate::Precision => "predicted positives",
        Rate::Selection | Rate::Accuracy | Rate::Error => "rows",
    }
}

/// Why a group with `n` rows in a denominator is kept out of a gap ("12 positive rows, fewer
/// than the minimum group size 30").
fn small_reason(n: u64, what: &str, min: u64) -> String {
    format!("{n} {what}, fewer than the minimum group size {min}")
}

/// The groups too small for the gap on `metric`: with at least one but fewer than `min` rows in
/// the denominator of a rate it compares (a group with none is an undefined group instead, which
/// the gap skips anyway). One entry per (group, rate), in group order.
pub fn small_groups(state: &ConfusionState, metric: GapMetric, min: u64) -> Vec<UndefinedGroup> {
    let mut out = Vec::new();
    for name in state.group_names() {
        for rate in gap_rates(metric) {
            let n = state.denominator_rows(&name, rate).unwrap_or(0);
            if n > 0 && n < min {
                out.push(UndefinedGroup {
                    group: name.clone(),
                    rate: rate_key(rate),
                    reason: small_reason(n, denominator_name(rate), min),
                });
            }
        }
    }
    out
}

/// The groups the audit's gap leaves out (`fair_metrics::ci` skips a group whose rate has an
/// empty denominator, rate by rate for equalized odds), in group order, each with its reason.
/// Computed from the same per-group cells the gap is, so it names exactly the skipped groups.
pub fn undefined_groups(
    gc: &GroupConfusion,
    metric: GapMetric,
    weighted: bool,
) -> Vec<UndefinedGroup> {
    let mut out = Vec::new();
    for (name, c) in gc.names().iter().zip(gc.by_group()) {
        for rate in gap_rates(metric) {
            if c.rate(rate).is_none() {
                out.push(UndefinedGroup {
                    group: name.clone(),
                    rate: rate_key(rate),
                    reason: undefined_reason(rate, weighted),
                });
            }
        }
    }
    out
}

/// Audit and fairlearn values closer than this are the same number (they are computed from the
/// same cells by the same formula; the tolerance only absorbs summation order).
pub const FAIRLEARN_TOLERANCE: f64 = 1e-12;

/// The value fairlearn 0.15 gives for the gap of the same name (`between_groups`, equalized odds
/// `worst_case`) on the rows these cells count: a TPR/FPR/TNR/FNR with an empty denominator is
/// 0 (scikit-learn's `confusion_matrix(normalize="true")`), any other undefined rate is NaN and
/// skipped (pandas), a ratio is `min / max` with `0 / 0 = NaN`, and equalized odds takes
/// Python's `max`/`min` of `[TPR gap, FPR gap]` (a NaN first wins, a NaN second is ignored).
/// NaN when fairlearn gives NaN.
pub fn fairlearn_gap(gc: &GroupConfusion, metric: GapMetric, kind: GapKind) -> f64 {
    let parts: Vec<f64> = gap_rates(metric)
        .into_iter()
        .map(|rate| {
            let zero = matches!(
                rate,
                Rate::TruePositive | Rate::FalsePositive | Rate::TrueNegative | Rate::FalseNegative
            );
            let values: Vec<f64> = gc
                .by_group()
                .iter()
                .filter_map(|c| c.rate(rate).or(zero.then_some(0.0)))
                .collect();
            if values.is_empty() {
                return f64::NAN;
            }
            let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            match kind {
                GapKind::Difference => max - min,
                GapKind::Ratio if max > 0.0 => min / max,
                GapKind::Ratio => f64::NAN,
            }
        })
        .collect();
    let mut worst = parts[0];
    for &p in &parts[1..] {
        let replace = match kind {
            GapKind::Difference => p > worst,
            GapKind::Ratio => p < worst,
        };
        if replace {
            worst = p;
        }
    }
    worst
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

/// How the score metrics' intervals and p-values are computed (written into the report).
pub const SCORE_INFERENCE_METHOD: &str = "AUC: Hanley–McNeil normal interval per group; AUC difference: one Bonferroni family over the K pairs — interval [max over pairs of |d|−z·SE, max over pairs of |d|+z·SE] with z at 1−α/(2K), p-value K × the smallest pair's two-sided normal p-value, so the interval leaves 0 exactly when p < 1 − confidence. KS DP-Δ / EO-Δ and partial SP: Dvoretzky–Kiefer–Wolfowitz interval simultaneous over the groups (conservative, finite-sample) and the asymptotic two-sample Kolmogorov p-value with n = n_a·n_b/(n_a+n_b), union-bounded over all pairs (partial SP tested through KS ≥ pSP·(β−α)). Weighted data uses Kish effective sizes (approximate); no resampling, so spilled and in-memory runs agree";

fn pair_max(p: &PairwiseSummary, inference: Option<ScoreGapInference>) -> PairMax {
    PairMax {
        value: p.max,
        groups: [
            p.names[p.worst_pair.first].clone(),
            p.names[p.worst_pair.second].clone(),
        ],
        lower: inference.map(|i| i.interval.lower),
        upper: inference.map(|i| i.interval.upper),
        p_value: inference.map(|i| i.p_value),
        p_value_adjusted: None,
    }
}

fn pair_gaps(
    what: &str,
    r: Result<PairwiseSummary, &fair_metrics::MetricError>,
    n: &[f64],
    scale: f64,
    confidence: f64,
    notes: &mut Vec<String>,
) -> Option<PairMax> {
    match r {
        Ok(p) if p.names.len() < 2 => {
            notes.push(format!(
                "{what}: fewer than two groups reach the minimum group size"
            ));
            None
        }
        Ok(p) => {
            let inference = match ks_inference(&p, n, scale, confidence) {
                Ok(i) => Some(i),
                Err(e) => {
                    notes.push(format!(
                        "{what} interval and p-value: {}",
                        in_audit_terms(&e)
                    ));
                    None
                }
            };
            Some(pair_max(&p, inference))
        }
        Err(e) => {
            notes.push(format!("{what}: {}", in_audit_terms(e)));
            None
        }
    }
}

/// Which groups of a score slice reach the minimum size, per score metric: (all rows — KS DP-Δ
/// and partial SP; positives — KS EO-Δ; positives and negatives — AUC difference), each group's
/// sizes read from the slice's confusion state (unweighted rows), with the entries that list the
/// groups kept out. A group with no rows of a kind is not "small": the metric itself reports it.
struct ScoreKeep {
    all: Vec<bool>,
    positives: Vec<bool>,
    auc: Vec<bool>,
    small: Vec<UndefinedGroup>,
}

fn score_keep(names: &[String], sizes: &ConfusionState, min: u64, psp: bool) -> ScoreKeep {
    let mut keep = ScoreKeep {
        all: Vec::new(),
        positives: Vec::new(),
        auc: Vec::new(),
        small: Vec::new(),
    };
    for name in names {
        let size = |rate| sizes.denominator_rows(name, rate).unwrap_or(u64::MAX);
        let (rows, pos, neg) = (
            size(Rate::Selection),
            size(Rate::TruePositive),
            size(Rate::FalsePositive),
        );
        let big = |n: u64| n == 0 || n >= min;
        let mut add = |metric: &'static str, n: u64, what: &str| {
            keep.small.push(UndefinedGroup {
                group: name.clone(),
                rate: metric,
                reason: small_reason(n, what, min),
            })
        };
        if !big(rows) {
            add("ks_dp", rows, "rows");
            if psp {
                add("psp", rows, "rows");
            }
        }
        if !big(pos) {
            add("ks_eo", pos, "positive rows");
            add("auc", pos, "positive rows");
        } else if !big(neg) {
            add("auc", neg, "negative rows");
        }
        keep.all.push(big(rows));
        keep.positives.push(big(pos));
        keep.auc.push(big(pos) && big(neg));
    }
    keep
}

fn restricted<'a>(
    r: &'a Result<PairGaps, fair_metrics::MetricError>,
    keep: &[bool],
) -> Result<PairwiseSummary, &'a fair_metrics::MetricError> {
    r.as_ref().map(|p| p.summary.restrict(keep))
}

fn kept<T: Copy>(values: &[T], keep: &[bool]) -> Vec<T> {
    values
        .iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(v, _)| *v)
        .collect()
}

/// AUC per group, exact KS (DP-Δ, EO-Δ) and partial SP of one slice, from the sweep, with their
/// intervals and p-values.
///
/// `sizes` is the slice's confusion state, for the groups' row counts: a group with fewer rows
/// (KS DP-Δ, partial SP), positives (KS EO-Δ) or positives or negatives (AUC difference) than
/// `stats.min_group_size` keeps its AUC but is kept out of those gaps.
pub fn score_slice(
    slice: &SliceDef,
    m: &SliceScores,
    stats: &Stats,
    interval: Option<PercentileInterval>,
    sizes: &ConfusionState,
) -> ScoreSlice {
    let mut notes = Vec::new();
    let keep = score_keep(&m.names, sizes, stats.min_group_size, interval.is_some());
    let conf = stats.confidence;
    let n_all: Vec<f64> = m.effective_n.iter().map(|e| e.all).collect();
    let n_pos: Vec<f64> = m.effective_n.iter().map(|e| e.positives).collect();
    let n_neg: Vec<f64> = m.effective_n.iter().map(|e| e.negatives).collect();
    let mut auc_by_group = Vec::new();
    for (k, (name, auc)) in m.names.iter().zip(&m.auc_by_group).enumerate() {
        let iv = match auc {
            None => {
                notes.push(format!(
                    "AUC of group {name:?}: undefined (the group lacks positives or negatives)"
                ));
                None
            }
            Some(a) => auc_interval(*a, n_pos[k], n_neg[k], conf).ok(),
        };
        auc_by_group.push(GroupAuc {
            group: name.clone(),
            auc: *auc,
            lower: iv.map(|i| i.lower),
            upper: iv.map(|i| i.upper),
        });
    }
    let auc_kept: Vec<Option<f64>> = m
        .auc_by_group
        .iter()
        .zip(&keep.auc)
        .map(|(a, k)| a.filter(|_| *k))
        .collect();
    let auc_gap = match auc_difference_inference(&auc_kept, &n_pos, &n_neg, conf) {
        Ok(Some(inf)) => {
            let defined = || {
                auc_kept
                    .iter()
                    .enumerate()
                    .filter_map(|(k, a)| a.map(|a| (k, a)))
            };
            let hi = defined().max_by(|x, y| x.1.total_cmp(&y.1)).map(|x| x.0);
            let lo = defined().min_by(|x, y| x.1.total_cmp(&y.1)).map(|x| x.0);
            hi.zip(lo).map(|(hi, lo)| PairMax {
                value: inf.estimate,
                groups: [m.names[hi].clone(), m.names[lo].clone()],
                lower: Some(inf.interval.lower),
                upper: Some(inf.interval.upper),
                p_value: Some(inf.p_value),
                p_value_adjusted: None,
            })
        }
        Ok(None) => None,
        Err(e) => {
            notes.push(format!(
                "AUC difference interval and p-value: {}",
                in_audit_terms(&e)
            ));
            None
        }
    };
    let scale = interval.map_or(1.0, |iv| 1.0 / (iv.beta() - iv.alpha()));
    let (n_all_kept, n_pos_kept) = (kept(&n_all, &keep.all), kept(&n_pos, &keep.positives));
    let ks_dp = pair_gaps(
        "KS (DP-Δ)",
        restricted(&m.ks_dp, &keep.all),
        &n_all_kept,
        1.0,
        conf,
        &mut notes,
    );
    let ks_eo = pair_gaps(
        "KS on positives (EO-Δ)",
        restricted(&m.ks_eo, &keep.positives),
        &n_pos_kept,
        1.0,
        conf,
        &mut notes,
    );
    let psp = m.psp.as_ref().and_then(|r| {
        pair_gaps(
            "partial SP",
            restricted(r, &keep.all),
            &n_all_kept,
            scale,
            conf,
            &mut notes,
        )
    });
    let single_group = m.names.len() < 2;
    if single_group {
        notes.push("only one group: no gap to measure".into());
    }
    let auc_defined = m.auc_overall.is_some();
    let defined: Vec<f64> = auc_kept.iter().flatten().copied().collect();
    let auc_difference = (!defined.is_empty()).then(|| {
        defined.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            - defined.iter().copied().fold(f64::INFINITY, f64::min)
    });
    ScoreSlice {
        slice: slice.name.clone(),
        auc_overall: m.auc_overall,
        auc_by_group,
        auc_difference: auc_difference.filter(|_| auc_defined),
        auc_gap: auc_gap.filter(|_| auc_defined && !single_group),
        ks_dp: ks_dp.filter(|_| !single_group),
        ks_eo: ks_eo.filter(|_| !single_group),
        psp: psp.filter(|_| !single_group),
        notes,
        small_groups: keep.small,
        scoring_rate: None,
    }
}
