//! How far apart the groups' distributions of a numeric output are: the Wasserstein-1 distance
//! (the area between two CDFs: how much the prediction must move, on average, to make one
//! group's distribution the other's) and the Kolmogorov–Smirnov distance (the largest gap
//! between two CDFs: the worst threshold's difference in the share above it), for every pair of
//! groups and for each group against all rows pooled, with optional weights.
//!
//! One sort of all rows and one sweep over the distinct values: between two consecutive values
//! every group's (weighted) CDF is constant, so W1 adds `|F_a − F_b| · Δx` and KS takes the
//! largest `|F_a − F_b|`, for all pairs at once — scipy's `wasserstein_distance` and
//! `ks_2samp`'s statistic, computed the same way.
//!
//! ```
//! use fair_metrics::distribution::distribution_gaps;
//! // Group 0: {0, 1}; group 1: {1, 2} — one unit apart everywhere.
//! let g = distribution_gaps(&[0.0, 1.0, 1.0, 2.0], &[0, 0, 1, 1], 2, None)?;
//! assert_eq!(g.wasserstein[0][1], 1.0);
//! assert_eq!(g.ks[0][1], 0.5);
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

use crate::error::{MetricError, Result};

mod median;
mod sweep;
pub use median::{GroupSum, MedianCut, MedianSweep, Piece, median_cut_of_runs};
pub use sweep::{
    DistributionSegment, DistributionSettings, SliceDistribution, sweep, sweep_segment,
};
pub(crate) use sweep::{Positions, weighted_candidate};

/// The distances between the groups' distributions (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct DistributionGaps {
    /// `wasserstein[a][b]`: W1 between groups `a` and `b` (symmetric, 0 on the diagonal; NaN
    /// where either group has no weight).
    pub wasserstein: Vec<Vec<f64>>,
    /// `ks[a][b]`: the KS distance between groups `a` and `b` (same layout).
    pub ks: Vec<Vec<f64>>,
    /// W1 between each group and all rows pooled.
    pub wasserstein_to_pooled: Vec<f64>,
    /// KS between each group and all rows pooled.
    pub ks_to_pooled: Vec<f64>,
}

impl DistributionGaps {
    /// The largest defined pairwise value of `matrix` and its pair `(a, b)`, `a < b`.
    pub fn max_pair(matrix: &[Vec<f64>]) -> Option<(usize, usize, f64)> {
        let mut best: Option<(usize, usize, f64)> = None;
        for (a, row) in matrix.iter().enumerate() {
            for (b, &v) in row.iter().enumerate().skip(a + 1) {
                if !v.is_nan() && best.is_none_or(|(_, _, m)| v > m) {
                    best = Some((a, b, v));
                }
            }
        }
        best
    }
}

/// W1 and KS between the distributions of `values` in `groups` (codes `0..n_groups`), pairwise
/// and to the pooled rows, with optional row weights (finite, `>= 0`).
///
/// # Errors
/// [`MetricError::LengthMismatch`], [`MetricError::Empty`], [`MetricError::NonFinite`],
/// [`MetricError::NegativeWeight`], [`MetricError::InvalidParameter`] for a code outside
/// `0..n_groups`, [`MetricError::ZeroTotalWeight`] when every weight is 0.
pub fn distribution_gaps(
    values: &[f64],
    groups: &[usize],
    n_groups: usize,
    weights: Option<&[f64]>,
) -> Result<DistributionGaps> {
    let rows = SortedRows::new(values, groups, n_groups, weights)?;
    Ok(rows.gaps())
}

/// [`distribution_gaps`] and [`group_quantiles`] from one sort of the rows.
///
/// # Errors
/// As [`group_quantiles`].
pub fn distribution_summary(
    values: &[f64],
    groups: &[usize],
    n_groups: usize,
    weights: Option<&[f64]>,
    q: f64,
) -> Result<(DistributionGaps, GroupQuantiles)> {
    check_level(q)?;
    let rows = SortedRows::new(values, groups, n_groups, weights)?;
    Ok((rows.gaps(), rows.quantiles(q)?))
}

/// The rows sorted by value, each with its group and weight (rows of weight 0 dropped: they
/// move no CDF and count in no quantile), and each group's total weight.
struct SortedRows {
    rows: Vec<(f64, usize, f64)>,
    totals: Vec<f64>,
    weighted: bool,
}

impl SortedRows {
    fn new(
        values: &[f64],
        groups: &[usize],
        n_groups: usize,
        weights: Option<&[f64]>,
    ) -> Result<Self> {
        crate::validate::check_len("sensitive_features", values.len(), groups.len())?;
        if let Some(w) = weights {
            crate::validate::check_len("sample_weight", values.len(), w.len())?;
        }
        if values.is_empty() {
            return Err(MetricError::Empty { what: "y_pred" });
        }
        if let Some((row, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(MetricError::NonFinite {
                what: "y_pred",
                row,
                value,
            });
        }
        if let Some(&g) = groups.iter().find(|&&g| g >= n_groups) {
            return Err(MetricError::InvalidParameter {
                name: "group code",
                value: g.to_string(),
                expected: "a code below the number of groups",
            });
        }
        if let Some(w) = weights {
            for (row, &value) in w.iter().enumerate() {
                if !value.is_finite() {
                    return Err(MetricError::NonFinite {
                        what: "sample_weight",
                        row,
                        value,
                    });
                }
                if value < 0.0 {
                    return Err(MetricError::NegativeWeight { row, value });
                }
            }
        }
        let mut totals = vec![0.0; n_groups];
        let mut rows = Vec::with_capacity(values.len());
        for (i, (&v, &g)) in values.iter().zip(groups).enumerate() {
            let w = weights.map_or(1.0, |w| w[i]);
            if w > 0.0 {
                totals[g] += w;
                rows.push((v, g, w));
            }
        }
        if rows.is_empty() {
            return Err(MetricError::ZeroTotalWeight { what: "all rows" });
        }
        // Ties need no order among themselves: every row of a value is taken before the CDFs
        // are read, and tied rows have the same value for the quantiles.
        rows.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        Ok(Self {
            rows,
            totals,
            weighted: weights.is_some(),
        })
    }

    fn gaps(&self) -> DistributionGaps {
        let totals = &self.totals;
        let pooled_total: f64 = totals.iter().sum();
        let k = totals.len();
        let mut cum = vec![0.0; k];
        let mut pooled_cum = 0.0;
        let mut w1 = vec![vec![0.0; k]; k];
        let mut ks = vec![vec![0.0_f64; k]; k];
        let mut w1_pool = vec![0.0; k];
        let mut ks_pool = vec![0.0_f64; k];
        let live: Vec<usize> = (0..k).filter(|&g| totals[g] > 0.0).collect();
        let rows = &self.rows;
        let mut i = 0;
        while i < rows.len() {
            let x = rows[i].0;
            // Every row at this value, then the CDFs hold until the next value.
            while i < rows.len() && rows[i].0.total_cmp(&x).is_eq() {
                cum[rows[i].1] += rows[i].2;
                pooled_cum += rows[i].2;
                i += 1;
            }
            let dx = if i < rows.len() { rows[i].0 - x } else { 0.0 };
            let pooled = pooled_cum / pooled_total;
            for (ai, &a) in live.iter().enumerate() {
                let fa = cum[a] / totals[a];
                let to_pool = (fa - pooled).abs();
                w1_pool[a] += to_pool * dx;
                ks_pool[a] = ks_pool[a].max(to_pool);
                for &b in &live[ai + 1..] {
                    let d = (fa - cum[b] / totals[b]).abs();
                    w1[a][b] += d * dx;
                    ks[a][b] = ks[a][b].max(d);
                }
            }
        }
        for a in 0..k {
            for b in a + 1..k {
                if totals[a] <= 0.0 || totals[b] <= 0.0 {
                    w1[a][b] = f64::NAN;
                    ks[a][b] = f64::NAN;
                }
                w1[b][a] = w1[a][b];
                ks[b][a] = ks[a][b];
            }
            if totals[a] <= 0.0 {
                w1_pool[a] = f64::NAN;
                ks_pool[a] = f64::NAN;
                w1[a][a] = f64::NAN;
                ks[a][a] = f64::NAN;
            }
        }
        DistributionGaps {
            wasserstein: w1,
            ks,
            wasserstein_to_pooled: w1_pool,
            ks_to_pooled: ks_pool,
        }
    }

    fn quantiles(&self, q: f64) -> Result<GroupQuantiles> {
        let k = self.totals.len();
        let mut values: Vec<Vec<f64>> = vec![Vec::new(); k];
        let mut weights: Vec<Vec<f64>> = vec![Vec::new(); k];
        for &(v, g, w) in &self.rows {
            values[g].push(v);
            weights[g].push(w);
        }
        let all_v: Vec<f64> = self.rows.iter().map(|r| r.0).collect();
        let all_w: Vec<f64> = self.rows.iter().map(|r| r.2).collect();
        let w_of = |w: &[f64]| -> Option<Vec<f64>> { self.weighted.then(|| w.to_vec()) };
        let quantile = |v: &[f64], w: &[f64], q: f64| quantile_sorted(v, w_of(w).as_deref(), q);
        let pooled =
            quantile(&all_v, &all_w, q).ok_or(MetricError::ZeroTotalWeight { what: "all rows" })?;
        let pooled_median = quantile(&all_v, &all_w, 0.5)
            .ok_or(MetricError::ZeroTotalWeight { what: "all rows" })?;
        let above_median: Vec<f64> = (0..k)
            .map(|g| {
                values[g]
                    .iter()
                    .zip(&weights[g])
                    .filter(|(v, _)| **v > pooled_median)
                    .map(|(_, w)| w)
                    .sum::<f64>()
            })
            .collect();
        let scoring_rate = (0..k)
            .map(|g| (self.totals[g] > 0.0).then(|| above_median[g] / self.totals[g]))
            .collect();
        Ok(GroupQuantiles {
            q,
            by_group: (0..k)
                .map(|g| quantile(&values[g], &weights[g], q))
                .collect(),
            pooled,
            pooled_median,
            scoring_rate,
            above_median,
        })
    }
}

fn check_level(q: f64) -> Result<()> {
    if (0.0..=1.0).contains(&q) {
        Ok(())
    } else {
        Err(MetricError::InvalidParameter {
            name: "quantile",
            value: q.to_string(),
            expected: "a level in [0, 1] (0.5: the median)",
        })
    }
}

/// The `q`-quantile of each group's values and of all rows, and the LL144 scoring rate.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupQuantiles {
    /// The quantile level.
    pub q: f64,
    /// Per group (`None`: no row with weight).
    pub by_group: Vec<Option<f64>>,
    /// On all rows.
    pub pooled: f64,
    /// The median of all rows (the LL144 cut).
    pub pooled_median: f64,
    /// Per group, the (weighted) share of its rows above `pooled_median`: NYC Local Law 144's
    /// scoring rate (`None`: no row with weight).
    pub scoring_rate: Vec<Option<f64>>,
    /// Per group, the (weighted) number of its rows strictly above `pooled_median` (the
    /// scoring rate's numerator: exact counts for the LL144 tables, summable across groups).
    pub above_median: Vec<f64>,
}

/// The quantile of sorted `values` (with their weights, when weighted) at level `q`: numpy's
/// default (`method="linear"`) without weights, the inverse of the weighted CDF (numpy's
/// `method="inverted_cdf"`, the only one it defines with weights) with them.
fn quantile_sorted(values: &[f64], weights: Option<&[f64]>, q: f64) -> Option<f64> {
    match weights {
        None => {
            let n = values.len();
            if n == 0 {
                return None;
            }
            let h = (n - 1) as f64 * q;
            let lo = h.floor() as usize;
            let t = h - lo as f64;
            if lo + 1 >= n {
                return Some(values[n - 1]);
            }
            let (a, b) = (values[lo], values[lo + 1]);
            // numpy's _lerp: from the nearer end, so t = 1 gives b exactly.
            Some(if t >= 0.5 {
                b - (b - a) * (1.0 - t)
            } else {
                a + (b - a) * t
            })
        }
        Some(w) => {
            let total: f64 = w.iter().sum();
            if total <= 0.0 {
                return None;
            }
            let mut cum = 0.0;
            for (x, wi) in values.iter().zip(w) {
                cum += wi;
                if cum / total >= q {
                    return Some(*x);
                }
            }
            values.last().copied()
        }
    }
}

/// Each group's and the pooled `q`-quantile of `values`, and each group's scoring rate above
/// the pooled median (see [`GroupQuantiles`]); without weights numpy's default quantile, with
/// weights its `inverted_cdf` (weights of 0 count as absent rows).
///
/// # Errors
/// As [`distribution_gaps`], and [`MetricError::InvalidParameter`] for `q` outside `[0, 1]`.
pub fn group_quantiles(
    values: &[f64],
    groups: &[usize],
    n_groups: usize,
    weights: Option<&[f64]>,
    q: f64,
) -> Result<GroupQuantiles> {
    check_level(q)?;
    SortedRows::new(values, groups, n_groups, weights)?.quantiles(q)
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // hand-computed values, exact in binary floating point
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hand_computed_shift_and_spread() {
        // a = {0, 2}, b = {1}: F_a = 0.5 on [0, 2), F_b = 1 on [1, ∞):
        // W1 = 0.5·1 (on [0,1)) + 0.5·1 (on [1,2)) = 1; KS = 0.5.
        let g = distribution_gaps(&[0.0, 2.0, 1.0], &[0, 0, 1], 2, None).unwrap();
        assert_eq!(g.wasserstein[0][1], 1.0);
        assert_eq!(g.wasserstein[1][0], 1.0);
        assert_eq!(g.ks[0][1], 0.5);
        assert_eq!(g.wasserstein[0][0], 0.0);
        // Pooled {0, 1, 2}: F = 1/3, 2/3, 1. a: |0.5 − 1/3| + |0.5 − 2/3| = 1/3; b: 1/3 + 1/3.
        assert!((g.wasserstein_to_pooled[0] - 1.0 / 3.0).abs() < 1e-15);
        assert!((g.wasserstein_to_pooled[1] - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(
            DistributionGaps::max_pair(&g.wasserstein),
            Some((0, 1, 1.0))
        );
    }

    #[test]
    fn weights_count_like_duplicated_rows_and_empty_groups_are_nan() {
        let w = distribution_gaps(&[0.0, 3.0, 1.0], &[0, 0, 1], 3, Some(&[2.0, 1.0, 1.0])).unwrap();
        let d = distribution_gaps(&[0.0, 0.0, 3.0, 1.0], &[0, 0, 0, 1], 3, None).unwrap();
        assert_eq!(w.wasserstein[0][1], d.wasserstein[0][1]);
        assert_eq!(w.ks[0][1], d.ks[0][1]);
        assert!(w.wasserstein[0][2].is_nan() && w.ks_to_pooled[2].is_nan());
        assert_eq!(DistributionGaps::max_pair(&w.ks), Some((0, 1, 2.0 / 3.0)));
    }

    #[test]
    fn quantiles_and_scoring_rates_by_hand() {
        // a = {1, 2, 3, 4}, b = {10}; pooled {1, 2, 3, 4, 10}: median 3.
        let v = [1.0, 2.0, 3.0, 4.0, 10.0];
        let g = [0, 0, 0, 0, 1];
        let q = group_quantiles(&v, &g, 3, None, 0.5).unwrap();
        assert_eq!(q.by_group, vec![Some(2.5), Some(10.0), None]);
        assert_eq!(q.pooled_median, 3.0);
        // Above 3: a has 4 (1 of 4), b has 10 (1 of 1).
        assert_eq!(q.scoring_rate, vec![Some(0.25), Some(1.0), None]);
        // Weighted (inverted CDF): a's weights 1, 1, 1, 5 → cumulative 1/8, 2/8, 3/8, 1.
        let w = [1.0, 1.0, 1.0, 5.0, 0.0];
        let q = group_quantiles(&v, &g, 2, Some(&w), 0.5).unwrap();
        assert_eq!(q.by_group, vec![Some(4.0), None]);
        assert_eq!(q.pooled_median, 4.0);
        assert_eq!(q.scoring_rate, vec![Some(0.0), None]);
        assert!(group_quantiles(&v, &g, 2, None, 1.5).is_err());
        let ends = group_quantiles(&v, &g, 2, None, 1.0).unwrap();
        assert_eq!(ends.pooled, 10.0);
    }

    #[test]
    fn bad_inputs_are_named() {
        assert!(matches!(
            distribution_gaps(&[], &[], 1, None),
            Err(MetricError::Empty { .. })
        ));
        assert!(matches!(
            distribution_gaps(&[f64::NAN], &[0], 1, None),
            Err(MetricError::NonFinite { what: "y_pred", .. })
        ));
        assert!(matches!(
            distribution_gaps(&[1.0], &[3], 2, None),
            Err(MetricError::InvalidParameter { .. })
        ));
        assert!(matches!(
            distribution_gaps(&[1.0], &[0], 1, Some(&[-1.0])),
            Err(MetricError::NegativeWeight { .. })
        ));
        assert!(matches!(
            distribution_gaps(&[1.0], &[0], 1, Some(&[0.0])),
            Err(MetricError::ZeroTotalWeight { .. })
        ));
        assert!(matches!(
            distribution_gaps(&[1.0, 2.0], &[0], 1, None),
            Err(MetricError::LengthMismatch { .. })
        ));
    }

    proptest! {
        /// W1 is a metric on distributions: symmetric, zero for identical groups, and it obeys
        /// the triangle inequality; KS lies in [0, 1] and W1 is at least KS times the smallest
        /// gap between distinct values (each CDF gap persists over at least one such step).
        #[test]
        fn metric_properties(
            rows in proptest::collection::vec((-50i32..50, 0..3usize), 3..60),
        ) {
            let values: Vec<f64> = rows.iter().map(|r| f64::from(r.0)).collect();
            let groups: Vec<usize> = rows.iter().map(|r| r.1).collect();
            let g = distribution_gaps(&values, &groups, 3, None).unwrap();
            for a in 0..3 {
                for b in 0..3 {
                    let (x, y) = (g.wasserstein[a][b], g.wasserstein[b][a]);
                    prop_assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()));
                    let k = g.ks[a][b];
                    prop_assert!(k.is_nan() || (0.0..=1.0).contains(&k));
                    prop_assert!(k.is_nan() || x >= k - 1e-12);
                    for c in 0..3 {
                        let (ab, bc, ac) = (g.wasserstein[a][b], g.wasserstein[b][c],
                                            g.wasserstein[a][c]);
                        if !(ab.is_nan() || bc.is_nan() || ac.is_nan()) {
                            prop_assert!(ac <= ab + bc + 1e-9);
                        }
                    }
                }
            }
            // The same rows under a second group's name: distance 0.
            let twice: Vec<f64> = values.iter().chain(values.iter()).copied().collect();
            let codes: Vec<usize> =
                (0..values.len()).map(|_| 0).chain((0..values.len()).map(|_| 1)).collect();
            let same = distribution_gaps(&twice, &codes, 2, None).unwrap();
            prop_assert_eq!(same.wasserstein[0][1], 0.0);
            prop_assert_eq!(same.ks[0][1], 0.0);
        }
    }
}
