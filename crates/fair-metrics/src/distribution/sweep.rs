//! The distribution gaps, quantiles and scoring rates of many slices in **one descending sweep**
//! over sorted runs — the out-of-core form of [`distribution_summary`](super::distribution_summary)
//! for files of any size: the rows arrive as the score sweep's [`Run`]s (one stream per finest
//! group, label ignored: stream `s` is finest group `s / 2`, as
//! [`stream_of`](crate::score_sweep::stream_of) numbers them), k-way merged by the same code, so
//! a spilled file, in-memory buffers and any cut of the runs give the same bits.
//!
//! Descending, each group's share strictly above the current value `S_g = c_g / T_g` replaces
//! the CDF (`|F_a − F_b| = |S_a − S_b|`). W1 between two groups is `∫|S_a − S_b|`: the pair's
//! difference only changes when one of its groups has rows at a value, so the integral is
//! added lazily, per pair, over the stretch since the pair last changed — O(groups) per row
//! rather than O(groups²) per distinct value. KS is the largest `|S_a − S_b|` after a change.
//! Against all rows pooled (which change at every value) both are updated at every value.
//!
//! Quantiles: without weights numpy's default (`linear`) from the order statistics at the
//! ascending positions `⌊(n−1)q⌋` and the next; with weights numpy's `inverted_cdf` (the
//! smallest value whose weighted CDF reaches `q`; rows of weight 0 count as absent). The
//! scoring rate (NYC Local Law 144) is each group's share strictly above the pooled median.

use super::{DistributionGaps, GroupQuantiles, check_level};
use crate::error::{MetricError, Result};
use crate::score_sweep::{Run, SliceMap, StreamTotals, check_seen, key_score, merge_blocks};

/// What the sweep records besides the gaps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistributionSettings {
    /// The level of each group's quantile (0.5: the median).
    pub quantile: f64,
    /// The resolution of each group's CCDF curve for charts: a point is kept when its value
    /// moves to another of `curve_points` cells, plus the first and last (0 = no curves).
    pub curve_points: usize,
}

/// One slice's distributions.
#[derive(Debug, Clone, PartialEq)]
pub struct SliceDistribution {
    /// Group names (as in the [`SliceMap`]).
    pub names: Vec<String>,
    /// Rows per group.
    pub rows: Vec<u64>,
    /// W1 and KS, pairwise and to all rows pooled.
    pub gaps: DistributionGaps,
    /// Each group's quantile, the pooled quantile and median, the scoring rates.
    pub quantiles: GroupQuantiles,
    /// Each group's complementary CDF as `(value t, share strictly above t)`, ascending in t,
    /// downsampled (see [`DistributionSettings::curve_points`]).
    pub ccdf: Vec<Vec<(f64, f64)>>,
    /// `ks_at[a][b]`: a value `t` at which `|P_a(V > t) − P_b(V > t)|` reaches the pair's KS
    /// distance (NaN where the pair has no KS).
    pub ks_at: Vec<Vec<f64>>,
}

/// Order statistics a quantile reads, found while the sweep passes them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Positions {
    /// Ascending 0-based positions of the two order statistics (unweighted).
    at: [u64; 2],
    pub(crate) values: [Option<f64>; 2],
}

impl Positions {
    pub(crate) fn new(rows: u64, q: f64) -> Self {
        let h = rows.saturating_sub(1) as f64 * q;
        let lo = (h.floor() as u64).min(rows.saturating_sub(1));
        Self {
            at: [lo, (lo + 1).min(rows.saturating_sub(1))],
            values: [None; 2],
        }
    }

    /// Records the block covering descending positions `[above, above + m)` of `rows` rows.
    /// Returns which of the two positions it held.
    pub(crate) fn see(&mut self, rows: u64, above: u64, m: u64, x: f64) -> [bool; 2] {
        let mut hit = [false; 2];
        if m == 0 {
            return hit;
        }
        // Ascending positions of the block: [rows − above − m, rows − above − 1].
        let (lo, hi) = (rows - above - m, rows - above - 1);
        for ((at, value), hit) in self.at.iter().zip(&mut self.values).zip(&mut hit) {
            if (lo..=hi).contains(at) {
                *value = Some(x);
                *hit = true;
            }
        }
        hit
    }

    /// numpy's linear interpolation between the two order statistics.
    pub(crate) fn value(&self, rows: u64, q: f64) -> Option<f64> {
        let (a, b) = (self.values[0]?, self.values[1]?);
        let h = rows.saturating_sub(1) as f64 * q;
        let t = h - h.floor();
        if self.at[0] == self.at[1] {
            return Some(a);
        }
        Some(if t >= 0.5 {
            b - (b - a) * (1.0 - t)
        } else {
            a + (b - a) * t
        })
    }
}

/// A weighted quantile (inverted CDF), found descending: the last value at which the share at
/// or below it still reaches `q`.
pub(crate) fn weighted_candidate(total: f64, above: f64, q: f64) -> bool {
    total > 0.0 && (total - above) / total >= q
}

/// The running state of one slice.
struct SliceState {
    k: usize,
    weighted: bool,
    group_of: Vec<usize>,
    total: Vec<f64>,
    rows: Vec<u64>,
    above: Vec<f64>,
    above_rows: Vec<u64>,
    live: Vec<bool>,
    w1: Vec<f64>,
    ks: Vec<f64>,
    ks_at: Vec<f64>,
    last: Vec<f64>,
    w1_pool: Vec<f64>,
    ks_pool: Vec<f64>,
    quantile: Vec<Option<f64>>,
    positions: Vec<Positions>,
    /// Each group's weight above the pooled median's order statistics (unweighted: at the
    /// lower and upper one; weighted: at the last candidate).
    snap: [Vec<f64>; 2],
    ccdf: Vec<Vec<(f64, f64)>>,
    cell: Vec<Option<i64>>,
    pending: Vec<Option<(f64, f64)>>,
    touched: Vec<usize>,
    block: Vec<f64>,
    block_rows: Vec<u64>,
}

impl SliceState {
    fn new(map: &SliceMap, totals: &StreamTotals, settings: &DistributionSettings) -> Self {
        let k = map.names.len();
        let mut streams_of: Vec<Vec<usize>> = vec![Vec::new(); k];
        for s in 0..totals.n_streams() {
            if let Some(&g) = map.group_of.get(s / 2) {
                streams_of[g].push(s);
            }
        }
        let total: Vec<f64> = streams_of
            .iter()
            .map(|s| totals.sums(s.iter().copied()).0)
            .collect();
        let rows: Vec<u64> = streams_of
            .iter()
            .map(|s| s.iter().map(|&s| totals.rows(s)).sum())
            .collect();
        Self {
            k,
            weighted: totals.is_weighted(),
            group_of: map.group_of.clone(),
            live: total.iter().map(|&t| t > 0.0).collect(),
            positions: rows
                .iter()
                .map(|&n| Positions::new(n, settings.quantile))
                .collect(),
            total,
            rows,
            above: vec![0.0; k],
            above_rows: vec![0; k],
            w1: vec![0.0; k * k],
            ks: vec![0.0; k * k],
            ks_at: vec![f64::NAN; k * k],
            last: vec![f64::NAN; k * k],
            w1_pool: vec![0.0; k],
            ks_pool: vec![0.0; k],
            quantile: vec![None; k],
            snap: [vec![0.0; k], vec![0.0; k]],
            ccdf: vec![Vec::new(); k],
            cell: vec![None; k],
            pending: vec![None; k],
            touched: Vec::new(),
            block: vec![0.0; k],
            block_rows: vec![0; k],
        }
    }

    #[inline]
    fn share(&self, g: usize) -> f64 {
        self.above[g] / self.total[g]
    }
}

/// The pooled rows' running state (shared by every slice).
struct Pooled {
    total: f64,
    rows: u64,
    above: f64,
    above_rows: u64,
    quantile: Option<f64>,
    median: Option<f64>,
    at_q: Positions,
    at_half: Positions,
}

/// Sweeps the runs once and returns every slice's [`SliceDistribution`].
///
/// `totals` must count exactly the rows the runs hold (checked per stream at the end).
///
/// # Errors
/// [`MetricError::Empty`] without rows, [`MetricError::ZeroTotalWeight`] when every weight is
/// 0, [`MetricError::InvalidParameter`] for a quantile level outside `[0, 1]`, a slice that does
/// not map every finest group, a run out of order or of a stream beyond the totals, and runs
/// that disagree with `totals`; any error a run's iterator yields.
///
/// # Example
/// ```
/// use fair_metrics::distribution::{DistributionSettings, sweep};
/// use fair_metrics::score_sweep::{Run, SliceMap, StreamTotals, score_key, sort_keys, stream_of};
/// // Group a: 0, 1; group b: 1, 2 (streams of label 0).
/// let mut keys = vec![vec![score_key(0.0), score_key(1.0)], vec![score_key(1.0), score_key(2.0)]];
/// let mut totals = StreamTotals::new(false);
/// for (g, k) in keys.iter_mut().enumerate() {
///     sort_keys(k);
///     k.iter().for_each(|_| totals.add(stream_of(g, 0), 1.0));
/// }
/// let runs = keys.iter().enumerate().map(|(g, k)| Run::from_sorted_keys(stream_of(g, 0), k)).collect();
/// let slice = SliceMap { names: vec!["a".into(), "b".into()], group_of: vec![0, 1] };
/// let settings = DistributionSettings { quantile: 0.5, curve_points: 0 };
/// let out = sweep(&[slice], &totals, runs, &settings)?;
/// assert_eq!(out[0].gaps.wasserstein[0][1], 1.0);
/// assert_eq!(out[0].gaps.ks[0][1], 0.5);
/// assert_eq!(out[0].quantiles.by_group, vec![Some(0.5), Some(1.5)]);
/// // Above the pooled median 1: none of a, one of b's two rows.
/// assert_eq!(out[0].quantiles.scoring_rate, vec![Some(0.0), Some(0.5)]);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn sweep(
    slices: &[SliceMap],
    totals: &StreamTotals,
    mut runs: Vec<Run<'_>>,
    settings: &DistributionSettings,
) -> Result<Vec<SliceDistribution>> {
    check_level(settings.quantile)?;
    let n_streams = totals.n_streams();
    if totals.total_rows() == 0 {
        return Err(MetricError::Empty { what: "y_pred" });
    }
    let n_finest = n_streams.div_ceil(2);
    for s in slices {
        if s.group_of.len() < n_finest || s.group_of.iter().any(|&g| g >= s.names.len()) {
            return Err(MetricError::InvalidParameter {
                name: "distribution slices",
                value: format!("a slice maps {} of {n_finest} groups", s.group_of.len()),
                expected: "every finest group mapped to one of the slice's groups",
            });
        }
    }
    let (pooled_total, _) = totals.sums(0..n_streams);
    if pooled_total <= 0.0 {
        return Err(MetricError::ZeroTotalWeight { what: "all rows" });
    }
    let weighted = totals.is_weighted();
    let mut states: Vec<SliceState> = slices
        .iter()
        .map(|s| SliceState::new(s, totals, settings))
        .collect();
    let pooled_rows = totals.total_rows();
    let mut pooled = Pooled {
        total: pooled_total,
        rows: pooled_rows,
        above: 0.0,
        above_rows: 0,
        quantile: None,
        median: None,
        at_q: Positions::new(pooled_rows, settings.quantile),
        at_half: Positions::new(pooled_rows, 0.5),
    };
    let mut previous: Option<f64> = None;
    let curve_points = settings.curve_points;
    let q = settings.quantile;
    let (seen, _) = merge_blocks(&mut runs, n_streams, |key, touched, block| {
        let x = key_score(key);
        let w: f64 = touched.iter().map(|&s| block[s]).sum();
        // Without weights every row weighs 1: the block's sum is its row count.
        let m: u64 = if weighted {
            0
        } else {
            touched.iter().map(|&s| block[s] as u64).sum()
        };
        let half_hit = if weighted {
            let hit = w > 0.0 && weighted_candidate(pooled.total, pooled.above, 0.5);
            if hit {
                pooled.median = Some(x);
            }
            if w > 0.0 && weighted_candidate(pooled.total, pooled.above, q) {
                pooled.quantile = Some(x);
            }
            [hit, false]
        } else {
            pooled.at_q.see(pooled.rows, pooled.above_rows, m, x);
            pooled.at_half.see(pooled.rows, pooled.above_rows, m, x)
        };
        for st in states.iter_mut() {
            block_of_slice(
                st,
                x,
                previous,
                touched,
                block,
                &pooled,
                half_hit,
                q,
                curve_points,
            );
        }
        pooled.above += w;
        pooled.above_rows += m;
        previous = Some(x);
        for &s in touched.iter() {
            block[s] = 0.0;
        }
    })?;
    check_seen(&seen, totals).map_err(|e| match e {
        MetricError::InvalidParameter {
            value, expected, ..
        } => MetricError::InvalidParameter {
            name: "distribution runs",
            value,
            expected,
        },
        other => other,
    })?;
    let (pooled_q, pooled_median) = if weighted {
        (pooled.quantile, pooled.median)
    } else {
        (
            pooled.at_q.value(pooled.rows, q),
            pooled.at_half.value(pooled.rows, 0.5),
        )
    };
    let (Some(pooled_q), Some(median)) = (pooled_q, pooled_median) else {
        return Err(MetricError::ZeroTotalWeight { what: "all rows" });
    };
    let upper_median = pooled.at_half.values[1];
    Ok(states
        .into_iter()
        .zip(slices)
        .map(|(st, map)| finish(st, map, pooled_q, median, upper_median, q))
        .collect())
}

#[allow(clippy::too_many_arguments)] // one block's inputs, called from one place
fn block_of_slice(
    st: &mut SliceState,
    x: f64,
    previous: Option<f64>,
    touched_streams: &[usize],
    block: &[f64],
    pooled: &Pooled,
    half_hit: [bool; 2],
    q: f64,
    curve_points: usize,
) {
    let k = st.k;
    st.touched.clear();
    for &s in touched_streams {
        let g = st.group_of[s / 2];
        if st.block_rows[g] == 0 && st.block[g] == 0.0 && !st.touched.contains(&g) {
            st.touched.push(g);
        }
        st.block[g] += block[s];
        if !st.weighted {
            st.block_rows[g] += block[s] as u64;
        }
    }
    st.touched.sort_unstable();
    // The pooled share above, before this block.
    let pool_share = pooled.above / pooled.total;
    // W1 to the pooled rows over (x, previous].
    if let Some(prev) = previous {
        let dx = prev - x;
        for g in 0..k {
            if st.live[g] {
                st.w1_pool[g] += (st.share(g) - pool_share).abs() * dx;
            }
        }
    }
    // Lazy pairwise W1: close every pair of a touched group over (x, last change].
    for ti in 0..st.touched.len() {
        let a = st.touched[ti];
        if !st.live[a] {
            continue;
        }
        let sa = st.share(a);
        for b in 0..k {
            if b == a || !st.live[b] {
                continue;
            }
            let (i, j) = if a < b { (a, b) } else { (b, a) };
            let at = i * k + j;
            let last = st.last[at];
            if !last.is_nan() {
                st.w1[at] += (sa - st.share(b)).abs() * (last - x);
            }
            st.last[at] = x;
        }
    }
    // Quantiles and the scoring rate's snapshots read the shares above this block.
    if st.weighted {
        if half_hit[0] {
            st.snap[0].clone_from(&st.above);
        }
    } else {
        if half_hit[1] {
            st.snap[1].clone_from(&st.above);
        }
        if half_hit[0] {
            st.snap[0].clone_from(&st.above);
        }
    }
    for ti in 0..st.touched.len() {
        let g = st.touched[ti];
        if st.weighted {
            if st.block[g] > 0.0 && weighted_candidate(st.total[g], st.above[g], q) {
                st.quantile[g] = Some(x);
            }
        } else {
            st.positions[g].see(st.rows[g], st.above_rows[g], st.block_rows[g], x);
        }
        if curve_points > 0 && st.live[g] {
            // P(V > x): the share strictly above, before this block. A point is kept when its
            // cell differs from the last kept one; the group's lowest value is added at the end
            // from `pending`, so the curve's both ends are always drawn.
            let f = st.share(g);
            let cell = (f * curve_points as f64 + 0.5).floor() as i64;
            if st.cell[g] != Some(cell) {
                st.ccdf[g].push((x, f));
                st.cell[g] = Some(cell);
                st.pending[g] = None;
            } else {
                st.pending[g] = Some((x, f));
            }
        }
    }
    // Add the block.
    for ti in 0..st.touched.len() {
        let g = st.touched[ti];
        st.above[g] += st.block[g];
        st.above_rows[g] += st.block_rows[g];
        st.block[g] = 0.0;
        st.block_rows[g] = 0;
    }
    // KS after the change.
    let pool_after =
        (pooled.above + touched_streams.iter().map(|&s| block[s]).sum::<f64>()) / pooled.total;
    for ti in 0..st.touched.len() {
        let a = st.touched[ti];
        if !st.live[a] {
            continue;
        }
        let sa = st.share(a);
        for b in 0..k {
            if b == a || !st.live[b] {
                continue;
            }
            let (i, j) = if a < b { (a, b) } else { (b, a) };
            let d = (sa - st.share(b)).abs();
            if d > st.ks[i * k + j] {
                st.ks[i * k + j] = d;
                // The shares after this block hold just below x.
                st.ks_at[i * k + j] = x.next_down();
            }
        }
    }
    for g in 0..k {
        if st.live[g] {
            let d = (st.share(g) - pool_after).abs();
            if d > st.ks_pool[g] {
                st.ks_pool[g] = d;
            }
        }
    }
}

fn finish(
    st: SliceState,
    map: &SliceMap,
    pooled_q: f64,
    median: f64,
    upper_median: Option<f64>,
    q: f64,
) -> SliceDistribution {
    let k = st.k;
    let mut w1 = vec![vec![0.0; k]; k];
    let mut ks = vec![vec![0.0; k]; k];
    let mut ks_at = vec![vec![f64::NAN; k]; k];
    for a in 0..k {
        for b in a + 1..k {
            let (v1, v2) = if st.live[a] && st.live[b] {
                (st.w1[a * k + b], st.ks[a * k + b])
            } else {
                (f64::NAN, f64::NAN)
            };
            w1[a][b] = v1;
            w1[b][a] = v1;
            ks[a][b] = v2;
            ks[b][a] = v2;
            ks_at[a][b] = st.ks_at[a * k + b];
            ks_at[b][a] = st.ks_at[a * k + b];
        }
        if !st.live[a] {
            w1[a][a] = f64::NAN;
            ks[a][a] = f64::NAN;
        }
    }
    let nan_if_dead = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .zip(&st.live)
            .map(|(&x, &l)| if l { x } else { f64::NAN })
            .collect()
    };
    // Unweighted: the rows above the median are those above its upper order statistic when the
    // median is that statistic, else those above the lower one (no value lies between).
    let snap = if !st.weighted && upper_median.is_some_and(|u| median >= u) {
        &st.snap[1]
    } else {
        &st.snap[0]
    };
    let by_group = (0..k)
        .map(|g| {
            if !st.live[g] {
                None
            } else if st.weighted {
                st.quantile[g]
            } else {
                st.positions[g].value(st.rows[g], q)
            }
        })
        .collect();
    SliceDistribution {
        names: map.names.clone(),
        rows: st.rows.clone(),
        gaps: DistributionGaps {
            wasserstein: w1,
            ks,
            wasserstein_to_pooled: nan_if_dead(&st.w1_pool),
            ks_to_pooled: nan_if_dead(&st.ks_pool),
        },
        quantiles: GroupQuantiles {
            q,
            by_group,
            pooled: pooled_q,
            pooled_median: median,
            scoring_rate: (0..k)
                .map(|g| st.live[g].then(|| snap[g] / st.total[g]))
                .collect(),
            above_median: (0..k)
                .map(|g| if st.live[g] { snap[g] } else { 0.0 })
                .collect(),
        },
        ks_at,
        ccdf: st
            .ccdf
            .into_iter()
            .zip(st.pending)
            .map(|(mut points, pending)| {
                points.extend(pending);
                points.reverse();
                points
            })
            .collect(),
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // hand-computed values, exact in binary floating point
mod tests {
    use super::super::distribution_summary;
    use super::*;
    use crate::score_sweep::{score_key, sort_weighted, stream_of};
    use proptest::prelude::*;

    /// Sweeps rows cut into runs of at most `cut` rows per stream.
    fn swept(
        values: &[f64],
        groups: &[usize],
        k: usize,
        weights: Option<&[f64]>,
        cut: usize,
        q: f64,
    ) -> Result<SliceDistribution> {
        let mut streams: Vec<Vec<Vec<(u64, f64)>>> = vec![vec![Vec::new()]; k];
        let mut totals = StreamTotals::new(weights.is_some());
        for (i, (&v, &g)) in values.iter().zip(groups).enumerate() {
            let w = weights.map_or(1.0, |w| w[i]);
            if streams[g].last().is_some_and(|r| r.len() >= cut) {
                streams[g].push(Vec::new());
            }
            streams[g].last_mut().unwrap().push((score_key(v), w));
            totals.add(stream_of(g, 0), w);
        }
        for runs in &mut streams {
            runs.iter_mut().for_each(|r| sort_weighted(r));
        }
        let runs = streams
            .iter()
            .enumerate()
            .flat_map(|(g, runs)| {
                runs.iter()
                    .filter(|r| !r.is_empty())
                    .map(move |r| Run::from_sorted_pairs(stream_of(g, 0), r))
            })
            .collect();
        let map = SliceMap {
            names: (0..k).map(|g| g.to_string()).collect(),
            group_of: (0..k).collect(),
        };
        let settings = DistributionSettings {
            quantile: q,
            curve_points: 8,
        };
        Ok(sweep(&[map], &totals, runs, &settings)?.remove(0))
    }

    fn close(a: f64, b: f64) -> bool {
        (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
    }

    #[test]
    fn hand_computed_and_merged_groups() {
        // a = {0, 2}, b = {1}: W1 1, KS 0.5; pooled median 1: above it a has 2 (1 of 2), b none.
        let d = swept(&[0.0, 2.0, 1.0], &[0, 0, 1], 2, None, 10, 0.5).unwrap();
        assert_eq!(d.gaps.wasserstein[0][1], 1.0);
        assert_eq!(d.gaps.ks[0][1], 0.5);
        assert_eq!(d.quantiles.pooled_median, 1.0);
        assert_eq!(d.quantiles.scoring_rate, vec![Some(0.5), Some(0.0)]);
        assert_eq!(d.quantiles.by_group, vec![Some(1.0), Some(1.0)]);
        assert_eq!(d.rows, vec![2, 1]);
        // CCDF of a: P(V > 0) = 0.5, P(V > 2) = 0; ascending. KS 0.5 just below 1 (a has 0.5
        // above, b all) — and equally just below 2 (a 0.5, b 0); the first met, descending.
        assert_eq!(d.ccdf[0], vec![(0.0, 0.5), (2.0, 0.0)]);
        assert_eq!(d.ks_at[0][1], 2.0_f64.next_down());
        // Two finest groups in one slice group are one distribution.
        let mut totals = StreamTotals::new(false);
        let keys = [vec![score_key(0.0)], vec![score_key(2.0)]];
        for g in 0..2 {
            totals.add(stream_of(g, 0), 1.0);
        }
        let runs = keys
            .iter()
            .enumerate()
            .map(|(g, k)| Run::from_sorted_keys(stream_of(g, 0), k))
            .collect();
        let one = SliceMap {
            names: vec!["all".into()],
            group_of: vec![0, 0],
        };
        let s = DistributionSettings {
            quantile: 0.5,
            curve_points: 0,
        };
        let out = sweep(&[one], &totals, runs, &s).unwrap();
        assert_eq!(out[0].quantiles.by_group, vec![Some(1.0)]);
        assert_eq!(out[0].rows, vec![2]);
    }

    #[test]
    fn bad_inputs_are_named() {
        let totals = StreamTotals::new(false);
        let s = DistributionSettings {
            quantile: 0.5,
            curve_points: 0,
        };
        assert!(matches!(
            sweep(&[], &totals, Vec::new(), &s),
            Err(MetricError::Empty { .. })
        ));
        let mut totals = StreamTotals::new(false);
        totals.add(0, 1.0);
        // The totals count a row no run holds.
        let map = SliceMap {
            names: vec!["a".into()],
            group_of: vec![0],
        };
        let e = sweep(std::slice::from_ref(&map), &totals, Vec::new(), &s).unwrap_err();
        assert!(e.to_string().contains("distribution runs"), "{e}");
        let bad_q = DistributionSettings { quantile: 2.0, ..s };
        assert!(sweep(&[map], &totals, Vec::new(), &bad_q).is_err());
    }

    proptest! {
        /// The sweep over runs cut anywhere equals the in-memory sort (W1/KS to 1e-12, the
        /// quantiles and scoring rates exactly), with and without weights; and the bits do not
        /// depend on the cut.
        #[test]
        fn equals_the_in_memory_summary(
            rows in prop::collection::vec((0_u8..12, 0_usize..3, 0_u8..4), 1..60),
            weighted in any::<bool>(),
            cut in 1_usize..7,
            q in prop::sample::select(vec![0.0, 0.1, 0.25, 0.5, 0.9, 1.0]),
        ) {
            let values: Vec<f64> = rows.iter().map(|r| f64::from(r.0) * 0.5 - 1.0).collect();
            let groups: Vec<usize> = rows.iter().map(|r| r.1).collect();
            let w: Vec<f64> = rows.iter().map(|r| f64::from(r.2) * 0.75).collect();
            let weights = weighted.then_some(w.as_slice());
            let mem = distribution_summary(&values, &groups, 3, weights, q);
            let sw = swept(&values, &groups, 3, weights, cut, q);
            match (mem, sw) {
                (Ok((gaps, quantiles)), Ok(d)) => {
                    for a in 0..3 {
                        for b in 0..3 {
                            prop_assert!(close(gaps.wasserstein[a][b], d.gaps.wasserstein[a][b]),
                                "W1[{a}][{b}] {} vs {}", gaps.wasserstein[a][b], d.gaps.wasserstein[a][b]);
                            prop_assert!(close(gaps.ks[a][b], d.gaps.ks[a][b]));
                        }
                        prop_assert!(close(gaps.wasserstein_to_pooled[a], d.gaps.wasserstein_to_pooled[a]));
                        prop_assert!(close(gaps.ks_to_pooled[a], d.gaps.ks_to_pooled[a]));
                    }
                    prop_assert_eq!(&quantiles.by_group, &d.quantiles.by_group);
                    prop_assert_eq!(quantiles.pooled, d.quantiles.pooled);
                    prop_assert_eq!(quantiles.pooled_median, d.quantiles.pooled_median);
                    for (x, y) in quantiles.scoring_rate.iter().zip(&d.quantiles.scoring_rate) {
                        prop_assert!(match (x, y) { (Some(x), Some(y)) => close(*x, *y), (None, None) => true, _ => false },
                            "scoring rates {:?} vs {:?}", quantiles.scoring_rate, d.quantiles.scoring_rate);
                    }
                    let whole = swept(&values, &groups, 3, weights, 1000, q).unwrap();
                    prop_assert_eq!(format!("{whole:?}"), format!("{d:?}"));
                }
                (Err(_), Err(_)) => {}
                (m, s) => prop_assert!(false, "in memory {m:?}, swept {s:?}"),
            }
        }
    }
}
