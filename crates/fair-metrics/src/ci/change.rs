//! The change of a gap between two audits — two models, two weeks — with its uncertainty, from
//! the two [`ConfusionState`]s alone.
//!
//! The audits' rows are taken as **independent samples** (two-sample: different rows, or the
//! same population drawn twice). Each audit's groups are redrawn by the same stratified
//! bootstrap as [`gap_inference`](super::gap_inference) — each group's cells from the
//! multinomial of its rows — independently of the other audit's; the change `after − before` is
//! recomputed on every pair of draws. The interval is the percentile interval of those changes;
//! the p-value of "the gap did not change" is the two-sided bootstrap percentile p-value
//! `min(1, 2 · min(1 + #{Δ* ≤ 0}, 1 + #{Δ* ≥ 0}) / (1 + B))`, so the interval leaves 0 exactly
//! when (up to the `+1`s) the p-value is below 1 − confidence: one statistical story per change.
//! With weights the redraws use Kish effective counts (approximate, as for the gaps).

use super::{
    GapMetric, GapSettings, Interval, bootstrap_cells, check_confidence, gap_statistic,
    quantile_sorted, resample, undefined,
};
use crate::error::{MetricError, Result};
use crate::state::ConfusionState;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution};

/// A gap in two audits and the change between them.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeInference {
    /// The gap in the first audit.
    pub before: f64,
    /// The gap in the second audit.
    pub after: f64,
    /// `after − before` (for a ratio too: a rise of the ratio is a positive change).
    pub change: f64,
    /// Bootstrap percentile interval of the change.
    pub interval: Interval,
    /// Two-sided bootstrap p-value of "the gap did not change".
    pub p_value: f64,
    /// Pairs of draws in which both gaps were defined.
    pub n_resamples: usize,
    /// Whether weights made the procedure approximate (Kish effective counts).
    pub approximate: bool,
}

/// The change of the gap of `metric` from `before` to `after`, with a bootstrap interval and
/// p-value (see the module docs). `settings.kind`, `method` and `confidence` define the gap and
/// the interval; `n_resamples` pairs of draws are made from `settings.seed`.
///
/// # Errors
/// As [`gap_inference`](super::gap_inference) for either state (fewer than two groups, a
/// confidence outside `(0, 1)`, fewer than 100 resamples, an undefined gap), and
/// [`MetricError::UndefinedMetric`] when the change is undefined in most draws.
///
/// # Example
/// ```
/// use fair_data::Groups;
/// use fair_metrics::ci::{gap_change_inference, GapMetric, GapSettings};
/// use fair_metrics::{Rate, state::ConfusionState};
///
/// // Selection rates 0.6 / 0.4 before, 0.5 / 0.5 after, 500 rows a group.
/// let audit = |a: usize, b: usize| -> ConfusionState {
///     let n = 1000;
///     let p: Vec<usize> = (0..n).map(|i| usize::from(if i < 500 { i < a } else { i - 500 < b })).collect();
///     let g: Vec<&str> = (0..n).map(|i| if i < 500 { "a" } else { "b" }).collect();
///     let mut s = ConfusionState::new();
///     s.update(&vec![1; n], &p, &Groups::from_labels(&g), None).unwrap();
///     s
/// };
/// let c = gap_change_inference(&audit(300, 200), &audit(250, 250),
///                              GapMetric::Rate(Rate::Selection), &GapSettings::default())?;
/// assert!((c.change + 0.2).abs() < 1e-12);
/// assert!(c.interval.upper < 0.0 && c.p_value < 0.05);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn gap_change_inference(
    before: &ConfusionState,
    after: &ConfusionState,
    metric: GapMetric,
    settings: &GapSettings,
) -> Result<ChangeInference> {
    check_confidence(settings.confidence)?;
    if settings.n_resamples < 100 {
        return Err(MetricError::InvalidParameter {
            name: "n_resamples",
            value: settings.n_resamples.to_string(),
            expected: "at least 100 resamples",
        });
    }
    let (cells_a, sizes_a) = bootstrap_cells(before)?;
    let (cells_b, sizes_b) = bootstrap_cells(after)?;
    let gap_a = gap_statistic(&cells_a, metric, settings)?.ok_or(undefined(metric))?;
    let gap_b = gap_statistic(&cells_b, metric, settings)?.ok_or(undefined(metric))?;
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut changes = Vec::with_capacity(settings.n_resamples);
    for _ in 0..settings.n_resamples {
        let a = gap_statistic(&resample(&cells_a, &sizes_a, &mut rng), metric, settings)?;
        let b = gap_statistic(&resample(&cells_b, &sizes_b, &mut rng), metric, settings)?;
        if let (Some(a), Some(b)) = (a, b) {
            changes.push(b - a);
        }
    }
    if changes.len() < settings.n_resamples / 2 {
        return Err(MetricError::UndefinedMetric {
            metric: "gap change bootstrap",
            reason: "a gap is undefined in most resamples (too few rows in the rate's denominator)",
        });
    }
    let n_resamples = changes.len();
    let (interval, p_value) = change_interval(changes, settings.confidence);
    Ok(ChangeInference {
        before: gap_a,
        after: gap_b,
        change: gap_b - gap_a,
        interval,
        p_value,
        n_resamples,
        approximate: before.is_weighted() || after.is_weighted(),
    })
}

/// Model A's and model B's cells of one group from its joint cells: `joint[b]` holds A's cells
/// (tn, fp, fn, tp) among the rows B predicts `b`.
fn marginals(joint: &[[f64; 4]; 2]) -> ([f64; 4], [f64; 4]) {
    let [j0, j1] = joint;
    let a = [j0[0] + j1[0], j0[1] + j1[1], j0[2] + j1[2], j0[3] + j1[3]];
    // B: negatives (tn + fp of A) are B's true negatives where b = 0 and false positives where
    // b = 1; positives (fn + tp of A) are B's false negatives / true positives.
    let b = [j0[0] + j0[1], j1[0] + j1[1], j0[2] + j0[3], j1[2] + j1[3]];
    (a, b)
}

/// The change of a gap from model A to model B **on the same rows** (two prediction columns of
/// one file): a paired bootstrap. Each group's rows are redrawn with replacement as their joint
/// cells — label × A's prediction × B's prediction, the multinomial over eight cells — and both
/// gaps are recomputed on every draw, so the interval and p-value of `gap_B − gap_A` account
/// for the two models being scored on the same rows (much narrower than two independent
/// samples when the models agree on most rows). Identical predictions give a change of
/// exactly 0 in every draw: interval [0, 0] and p = 1. Unweighted rows only.
///
/// `joint[g]`: group g's row counts, `joint[g][b]` = A's (tn, fp, fn, tp) among the rows B
/// predicts `b` (0 or 1).
///
/// # Errors
/// As [`gap_change_inference`]: fewer than two groups, a bad setting, an undefined gap.
///
/// # Example
/// ```
/// use fair_metrics::ci::{paired_change_inference, GapMetric, GapSettings};
/// use fair_metrics::Rate;
/// // Two groups of 100 negatives; A selects 30 and 10, B selects 20 and 20 (of A's selected
/// // and not selected rows).
/// let joint = vec![[[60.0, 20.0, 0.0, 0.0], [10.0, 10.0, 0.0, 0.0]], [[70.0, 10.0, 0.0, 0.0], [20.0, 0.0, 0.0, 0.0]]];
/// let c = paired_change_inference(&joint, GapMetric::Rate(Rate::Selection), &GapSettings::default())?;
/// assert!((c.before - 0.2).abs() < 1e-12 && c.after.abs() < 1e-12);
/// assert!(c.interval.upper < 0.0 && c.p_value < 0.05);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn paired_change_inference(
    joint: &[[[f64; 4]; 2]],
    metric: GapMetric,
    settings: &GapSettings,
) -> Result<ChangeInference> {
    check_confidence(settings.confidence)?;
    let draws = PairedDraws::new(joint, settings.n_resamples, settings.seed)?;
    draws.change(metric, settings, &vec![true; joint.len()])
}

/// Paired bootstrap draws of two models' joint cells per group (see
/// [`paired_change_inference`]), drawn once and shared by every gap.
#[derive(Debug, Clone)]
pub struct PairedDraws {
    observed: Vec<[[f64; 4]; 2]>,
    draws: Vec<Vec<[[f64; 4]; 2]>>,
}

impl PairedDraws {
    /// `n_resamples` draws of `joint` (per group, model A's cells where model B says 0 and 1).
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for fewer than two groups, fewer than 100 resamples
    /// or cells that are not row counts.
    pub fn new(joint: &[[[f64; 4]; 2]], n_resamples: usize, seed: u64) -> Result<Self> {
        if n_resamples < 100 {
            return Err(MetricError::InvalidParameter {
                name: "n_resamples",
                value: n_resamples.to_string(),
                expected: "at least 100 resamples",
            });
        }
        if joint.len() < 2 {
            return Err(MetricError::InvalidParameter {
                name: "groups",
                value: joint.len().to_string(),
                expected: "at least two groups to measure a gap",
            });
        }
        let ok = |v: f64| v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 2f64.powi(40);
        if let Some(bad) = joint.iter().flatten().flatten().find(|v| !ok(**v)) {
            return Err(MetricError::InvalidParameter {
                name: "joint cells",
                value: bad.to_string(),
                expected: "row counts (whole numbers >= 0, below 2^40)",
            });
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let draws = (0..n_resamples)
            .map(|_| {
                joint
                    .iter()
                    .map(|j| {
                        let (n0, n1): (f64, f64) = (j[0].iter().sum(), j[1].iter().sum());
                        let n = (n0 + n1) as u64;
                        // Multinomial over the eight cells: B's split, then A's cells within
                        // each part.
                        let x1 = if n0 + n1 > 0.0 {
                            Binomial::new(n, n1 / (n0 + n1)).map_or(0, |d| d.sample(&mut rng))
                        } else {
                            0
                        };
                        [
                            super::multinomial(&mut rng, n - x1, &j[0]),
                            super::multinomial(&mut rng, x1, &j[1]),
                        ]
                    })
                    .collect()
            })
            .collect();
        Ok(Self {
            observed: joint.to_vec(),
            draws,
        })
    }

    /// The change of the gap from A to B over the groups `keep` selects, with its paired
    /// interval and p-value (`settings.n_resamples` and `seed` are those of the draws).
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for a bad confidence or a `keep` of the wrong length,
    /// [`MetricError::UndefinedMetric`] when a gap is undefined on the data or in most draws.
    pub fn change(
        &self,
        metric: GapMetric,
        settings: &GapSettings,
        keep: &[bool],
    ) -> Result<ChangeInference> {
        check_confidence(settings.confidence)?;
        if keep.len() != self.observed.len() {
            return Err(MetricError::InvalidParameter {
                name: "keep",
                value: keep.len().to_string(),
                expected: "one entry per group of the draws",
            });
        }
        let split = |cells: &[[[f64; 4]; 2]]| -> (Vec<[f64; 4]>, Vec<[f64; 4]>) {
            cells
                .iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(c, _)| marginals(c))
                .unzip()
        };
        let (a, b) = split(&self.observed);
        let gap_a = gap_statistic(&a, metric, settings)?.ok_or(undefined(metric))?;
        let gap_b = gap_statistic(&b, metric, settings)?.ok_or(undefined(metric))?;
        let mut changes = Vec::with_capacity(self.draws.len());
        for d in &self.draws {
            let (da, db) = split(d);
            if let (Some(x), Some(y)) = (
                gap_statistic(&da, metric, settings)?,
                gap_statistic(&db, metric, settings)?,
            ) {
                changes.push(y - x);
            }
        }
        if changes.len() < self.draws.len() / 2 {
            return Err(MetricError::UndefinedMetric {
                metric: "gap change bootstrap",
                reason: "a gap is undefined in most resamples (too few rows in the rate's denominator)",
            });
        }
        let n_resamples = changes.len();
        let (interval, p_value) = change_interval(changes, settings.confidence);
        Ok(ChangeInference {
            before: gap_a,
            after: gap_b,
            change: gap_b - gap_a,
            interval,
            p_value,
            n_resamples,
            approximate: false,
        })
    }
}

/// The percentile interval at `confidence` of bootstrap changes and the two-sided bootstrap
/// p-value of "no change", `min(1, 2·min(1 + #{Δ* ≤ 0}, 1 + #{Δ* ≥ 0}) / (1 + B))`.
pub fn change_interval(mut changes: Vec<f64>, confidence: f64) -> (Interval, f64) {
    changes.sort_by(f64::total_cmp);
    let alpha = 1.0 - confidence;
    let below = changes.iter().filter(|&&d| d <= 0.0).count();
    let above = changes.iter().filter(|&&d| d >= 0.0).count();
    let p = (2.0 * (1 + below.min(above)) as f64 / (1 + changes.len()) as f64).min(1.0);
    let interval = if changes.is_empty() {
        Interval {
            lower: f64::NAN,
            upper: f64::NAN,
        }
    } else {
        Interval {
            lower: quantile_sorted(&changes, alpha / 2.0),
            upper: quantile_sorted(&changes, 1.0 - alpha / 2.0),
        }
    };
    (interval, p)
}

/// Stratified bootstrap draws of one state's per-group cells, drawn once and shared by every
/// gap computed from them (and by every comparison with another state's draws): what makes an
/// audit over hundreds of windows cost one set of draws per window and slice, not one per gap.
#[derive(Debug, Clone)]
pub struct CellDraws {
    names: Vec<String>,
    observed: Vec<[f64; 4]>,
    draws: Vec<Vec<[f64; 4]>>,
}

impl CellDraws {
    /// `n_resamples` draws of `state`'s groups (each group's cells from the multinomial of its
    /// rows; Kish effective counts when weighted), from `seed`.
    ///
    /// # Errors
    /// As [`gap_inference`](super::gap_inference): fewer than two groups, fewer than 100
    /// resamples, or a state whose counts overflow.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// use fair_metrics::ci::{CellDraws, GapKind, GapMetric};
    /// use fair_metrics::{Rate, state::ConfusionState};
    ///
    /// let mut s = ConfusionState::new();
    /// let g = Groups::from_labels(&(0..200).map(|i| if i < 100 { "a" } else { "b" }).collect::<Vec<_>>());
    /// let p: Vec<usize> = (0..200).map(|i| usize::from(i % 100 < if i < 100 { 60 } else { 40 })).collect();
    /// s.update(&vec![1; 200], &p, &g, None)?;
    /// let draws = CellDraws::new(&s, 200, 7)?;
    /// let (value, boot) = draws.gap(GapMetric::Rate(Rate::Selection), GapKind::Difference, &[true, true])?;
    /// assert!((value.unwrap() - 0.2).abs() < 1e-12);
    /// assert_eq!(boot.len(), 200);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn new(state: &ConfusionState, n_resamples: usize, seed: u64) -> Result<Self> {
        if n_resamples < 100 {
            return Err(MetricError::InvalidParameter {
                name: "n_resamples",
                value: n_resamples.to_string(),
                expected: "at least 100 resamples",
            });
        }
        let (observed, sizes) = bootstrap_cells(state)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let draws = (0..n_resamples)
            .map(|_| resample(&observed, &sizes, &mut rng))
            .collect();
        Ok(Self {
            names: state.group_names(),
            observed,
            draws,
        })
    }

    /// The groups, in the order of `keep` masks.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The gap (between groups, as the audit defines it) over the groups `keep` selects: on
    /// the observed cells, and on every draw (`None` where undefined).
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when `keep` does not have one entry per group.
    pub fn gap(
        &self,
        metric: GapMetric,
        kind: super::GapKind,
        keep: &[bool],
    ) -> Result<(Option<f64>, Vec<Option<f64>>)> {
        if keep.len() != self.names.len() {
            return Err(MetricError::InvalidParameter {
                name: "keep",
                value: keep.len().to_string(),
                expected: "one entry per group of the draws",
            });
        }
        let settings = GapSettings {
            kind,
            ..GapSettings::default()
        };
        let subset = |cells: &[[f64; 4]]| -> Vec<[f64; 4]> {
            cells
                .iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(c, _)| *c)
                .collect()
        };
        let all = keep.iter().all(|k| *k);
        let stat = |cells: &[[f64; 4]]| {
            if all {
                gap_statistic(cells, metric, &settings)
            } else {
                gap_statistic(&subset(cells), metric, &settings)
            }
        };
        let value = stat(&self.observed)?;
        let boot = self
            .draws
            .iter()
            .map(|d| stat(d))
            .collect::<Result<Vec<_>>>()?;
        Ok((value, boot))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rate;
    use fair_data::Groups;

    fn state(sel: &[(usize, usize)]) -> ConfusionState {
        let (mut p, mut g) = (Vec::new(), Vec::new());
        for (k, &(n, s)) in sel.iter().enumerate() {
            for i in 0..n {
                p.push(usize::from(i < s));
                g.push(format!("g{k}"));
            }
        }
        let names: Vec<&str> = g.iter().map(String::as_str).collect();
        let mut st = ConfusionState::new();
        st.update(&vec![0; p.len()], &p, &Groups::from_labels(&names), None)
            .unwrap();
        st
    }

    #[test]
    fn an_identical_audit_changes_by_exactly_zero_with_p_one_half_or_more() {
        let s = state(&[(200, 120), (200, 80)]);
        let settings = GapSettings {
            n_resamples: 400,
            ..GapSettings::default()
        };
        let c = gap_change_inference(&s, &s, GapMetric::Rate(Rate::Selection), &settings).unwrap();
        assert_eq!(c.change.to_bits(), 0.0_f64.to_bits());
        assert!(c.interval.lower < 0.0 && 0.0 < c.interval.upper);
        assert!(c.p_value > 0.5, "{}", c.p_value);
        // Same seed, same bits.
        let again =
            gap_change_inference(&s, &s, GapMetric::Rate(Rate::Selection), &settings).unwrap();
        assert_eq!(c, again);
    }

    #[test]
    fn the_interval_leaves_zero_when_the_p_value_passes() {
        let settings = GapSettings {
            n_resamples: 500,
            seed: 9,
            ..GapSettings::default()
        };
        for (after, changed) in [((100, 100), false), ((130, 70), true), ((105, 95), false)] {
            let before = state(&[(200, 100), (200, 100)]);
            let after = state(&[(200, after.0), (200, after.1)]);
            let c =
                gap_change_inference(&before, &after, GapMetric::Rate(Rate::Selection), &settings)
                    .unwrap();
            let leaves = c.interval.lower > 0.0 || c.interval.upper < 0.0;
            assert_eq!(leaves, changed, "{c:?}");
            assert_eq!(c.p_value < 0.05, changed, "{c:?}");
        }
    }

    #[test]
    fn identical_predictions_change_by_exactly_zero_with_p_one() {
        // B predicts exactly as A: every row is in the part of its own prediction.
        let joint = vec![
            [[40.0, 0.0, 10.0, 0.0], [0.0, 30.0, 0.0, 20.0]],
            [[60.0, 0.0, 20.0, 0.0], [0.0, 10.0, 0.0, 10.0]],
        ];
        let m = GapMetric::Rate(Rate::Selection);
        let c = paired_change_inference(&joint, m, &GapSettings::default()).unwrap();
        assert_eq!(c.change.to_bits(), 0.0_f64.to_bits());
        assert_eq!((c.interval.lower, c.interval.upper), (0.0, 0.0));
        assert_eq!(c.p_value.to_bits(), 1.0_f64.to_bits());
        assert_eq!(c.before.to_bits(), c.after.to_bits());
    }

    #[test]
    fn pairing_narrows_the_interval_of_models_that_mostly_agree() {
        // 200 negatives a group. A selects 100 of a and 60 of b (0.5 / 0.3); B unselects 10 of
        // A's selected rows of a (0.45 / 0.3). joint[b] = A's (tn, fp, fn, tp) where B says b.
        let joint_rows: Vec<[[f64; 4]; 2]> = vec![
            [[100.0, 10.0, 0.0, 0.0], [0.0, 90.0, 0.0, 0.0]],
            [[140.0, 0.0, 0.0, 0.0], [0.0, 60.0, 0.0, 0.0]],
        ];
        let m = GapMetric::Rate(Rate::Selection);
        let s = GapSettings {
            n_resamples: 500,
            ..GapSettings::default()
        };
        let paired = paired_change_inference(&joint_rows, m, &s).unwrap();
        assert!((paired.change + 0.05).abs() < 1e-12, "{paired:?}");
        let (a, b): (Vec<_>, Vec<_>) = joint_rows.iter().map(marginals).unzip();
        let state = |cells: &[[f64; 4]]| {
            ConfusionState::from_row_counts(
                cells
                    .iter()
                    .enumerate()
                    .map(|(g, c)| (format!("g{g}"), c.map(|v| v as u64))),
            )
        };
        let unpaired = gap_change_inference(&state(&a), &state(&b), m, &s).unwrap();
        let width = |c: &ChangeInference| c.interval.upper - c.interval.lower;
        assert!(
            width(&paired) < 0.6 * width(&unpaired),
            "{paired:?} vs {unpaired:?}"
        );
        assert!(paired.p_value < 0.05 && unpaired.p_value >= 0.05);
    }

    #[test]
    fn bad_settings_and_states_are_errors() {
        let s = state(&[(50, 20), (50, 30)]);
        let one = state(&[(50, 20)]);
        let m = GapMetric::Rate(Rate::Selection);
        let few = GapSettings {
            n_resamples: 10,
            ..GapSettings::default()
        };
        assert!(gap_change_inference(&s, &s, m, &few).is_err());
        assert!(gap_change_inference(&s, &one, m, &GapSettings::default()).is_err());
    }
}
