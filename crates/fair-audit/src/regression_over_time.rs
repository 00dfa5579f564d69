//! The regression audit over time (`fairkit audit --target … --by COLUMN`): each window's rows
//! audited alone (the same metrics, gaps, intervals and p-values as a regression audit of those
//! rows), and each gap's change against the baseline window with the interval and p-value of
//! [`fair_metrics::ci::normal_gap_change`] (the comparison of two regression audits), adjusted
//! for their number by Benjamini–Hochberg like the classifier's windows. Written into
//! report.json's `over_time` (the classifier's shape: gap keys are the regression keys, the
//! groups' `rates` the regression metrics with intervals).

use crate::compare::regression::{GAPS, distance_change, gap_change, kept};
use crate::error::AuditError;
use crate::guard::GroupLimits;
use crate::ingest::FlagStyle;
use crate::keys::Key;
use crate::model::Estimate;
use crate::model::regression::{RegressionAudit, RegressionSlice};
use crate::over_time::{
    Baseline, MULTIPLE_COMPARISONS, OverTime, OverTimeSpec, WindowAudit, WindowGap, WindowGroup,
    WindowSlice, adjust, ordered, split,
};
use crate::regression::{RegressionSpec, regression_audit};
use fair_metrics::distribution::SliceDistribution;
use fair_metrics::regression::RegressionState;
use std::collections::BTreeMap;

/// The metrics each window reports per group (those with an interval).
const WINDOW_METRICS: [&str; 5] = [
    "mean_prediction",
    "mean_residual",
    "mean_absolute_error",
    "root_mean_squared_error",
    "scoring_rate",
];

/// A finest group's name without its leading `by` value.
pub fn without_window(name: &str) -> &str {
    split(name).1
}

/// Each window's label (in window order) and the finest groups (named with the raw `by` value
/// leading) of its rows.
///
/// # Errors
/// [`AuditError::Input`] naming the first value that is not a date under a calendar window;
/// [`AuditError::Groups`] for more windows than the group limit.
pub fn windows(
    finest: &RegressionState,
    spec: &OverTimeSpec,
    limits: &GroupLimits,
    style: FlagStyle,
) -> Result<Vec<(String, Vec<String>)>, AuditError> {
    let mut by_label: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in finest.names() {
        let label = spec
            .window
            .of_in(split(&name).0, spec.timezone)
            .map_err(|reason| AuditError::Input {
                name: "--by",
                reason: format!(
                    "column {:?}: {reason}; --window {} needs dates (or use --window value)",
                    spec.column,
                    spec.window.key()
                ),
            })?;
        by_label.entry(label).or_default().push(name);
    }
    let n = by_label.len();
    if n > limits.max_groups {
        let max = limits.max_groups;
        return Err(AuditError::Groups(match style {
            FlagStyle::Command => format!(
                "--by {:?} gives {n} windows, more than the limit of {max}: use --window day, week or month, or pass --max-groups {n}",
                spec.column
            ),
            FlagStyle::Python => format!(
                "by={:?} gives {n} windows, more than the limit of {max}: use window=\"day\", \"week\" or \"month\", or pass max_groups={n}",
                spec.column
            ),
        }));
    }
    Ok(ordered(by_label.keys().cloned().collect())
        .into_iter()
        .map(|label| {
            let names = by_label.remove(&label).unwrap_or_default();
            (label, names)
        })
        .collect())
}

fn window_groups(slice: &RegressionSlice) -> Vec<WindowGroup> {
    slice
        .groups
        .iter()
        .map(|g| WindowGroup {
            group: g.group.clone(),
            rows: g.rows,
            rates: WINDOW_METRICS
                .iter()
                .map(|&m| {
                    let est = g.metrics.get(m).and_then(|x| {
                        Some(Estimate {
                            value: x.value?,
                            lower: x.lower?,
                            upper: x.upper?,
                        })
                    });
                    (crate::keys::static_rate(m).unwrap_or("rows"), est)
                })
                .collect(),
        })
        .collect()
}

/// A window's gap row: the window's own gap, and its change since the baseline's.
fn gap_row(
    key: Key,
    slice: &RegressionSlice,
    base: Option<&RegressionSlice>,
    spec: &RegressionSpec,
    seed: u64,
) -> WindowGap {
    let own = slice.gaps.iter().find(|g| g.key == key);
    let mut row = WindowGap {
        key,
        value: own.and_then(|g| g.value),
        lower: own.and_then(|g| g.lower),
        upper: own.and_then(|g| g.upper),
        p_value: own.and_then(|g| g.p_value),
        change: None,
        change_lower: None,
        change_upper: None,
        change_p_value: None,
        change_q_value: None,
    };
    let Some(base) = base else { return row };
    let stats = &spec.stats;
    let change = match GAPS.iter().find(|g| g.0 == key || g.1 == Some(key)) {
        Some(&(_, ratio_key, metric)) => {
            let z = fair_metrics::ci::two_sided_z(stats.confidence).unwrap_or(1.96);
            let pairs = kept(base, slice, metric, z);
            gap_change(
                key,
                ratio_key == Some(key),
                base,
                slice,
                &pairs,
                stats.confidence,
                stats.resamples,
                seed,
            )
        }
        None => distance_change(key, base, slice),
    };
    row.change = change.change;
    row.change_lower = change.lower;
    row.change_upper = change.upper;
    row.change_p_value = change.p_value;
    row
}

/// The audit over time from the finest groups' sums (the raw `by` value leading), the windows
/// and each window's distributions (in the windows' order).
///
/// # Errors
/// As [`regression_audit`], for any window.
pub fn over_time(
    spec: &RegressionSpec,
    ot: &OverTimeSpec,
    finest: &RegressionState,
    windows: &[(String, Vec<String>)],
    distributions: &[Vec<SliceDistribution>],
) -> Result<OverTime, AuditError> {
    let mut audits: Vec<(u64, RegressionAudit)> = Vec::with_capacity(windows.len());
    for (k, ((_, names), dists)) in windows.iter().zip(distributions).enumerate() {
        let in_window: std::collections::HashSet<&str> = names.iter().map(String::as_str).collect();
        let state = finest
            .retain(|n| in_window.contains(n))
            .regroup(|n| without_window(n).to_string());
        let rows = state.rows().iter().map(|r| r.1).sum();
        // One seed per window, so windows are independent and the same seed gives the same
        // bits (as the classifier's windows).
        let mut window_spec = spec.clone();
        window_spec.stats.seed =
            spec.stats.seed ^ ((k as u64) << 20).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        audits.push((rows, regression_audit(&window_spec, &state, dists)?));
    }
    let labels: Vec<String> = windows.iter().map(|w| w.0.clone()).collect();
    let mut out = Vec::with_capacity(audits.len());
    for (k, (rows, audit)) in audits.iter().enumerate() {
        let base_index = match (k, ot.baseline) {
            (0, _) => None,
            (_, Baseline::First) => Some(0),
            (_, Baseline::Previous) => Some(k - 1),
        };
        let base = base_index.map(|b| &audits[b].1);
        let slices = audit
            .slices
            .iter()
            .enumerate()
            .map(|(s, slice)| {
                let base_slice =
                    base.and_then(|b| b.slices.iter().find(|x| x.slice == slice.slice));
                WindowSlice {
                    slice: slice.slice.clone(),
                    gaps: Key::REGRESSION
                        .iter()
                        .map(|&key| {
                            let seed = spec.stats.seed
                                ^ ((k as u64) << 32 | (s as u64) << 8 | key as u64)
                                    .wrapping_mul(0x9E37_79B9_7F4A_7C15);
                            gap_row(key, slice, base_slice, spec, seed)
                        })
                        .collect(),
                    groups: window_groups(slice),
                }
            })
            .collect();
        out.push(WindowAudit {
            window: labels[k].clone(),
            rows: *rows,
            baseline: base_index.map(|b| labels[b].clone()),
            slices,
        });
    }
    adjust(&mut out);
    Ok(OverTime {
        column: ot.column.clone(),
        window: ot.window,
        baseline: ot.baseline,
        windows: out,
        multiple_comparisons: MULTIPLE_COMPARISONS.to_string(),
    })
}
