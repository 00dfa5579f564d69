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
use crate::score_sweep::{RowSink, Run, SliceMap, StreamTotals, check_seen, key_score, merge_rows};
use crate::state::ExactSum;
use crate::state::codec::{Reader, Writer};

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
#[derive(Debug, Clone, Default, PartialEq)]
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

/// Adds `a·b − a·c` to `acc` exactly: each product as the two `f64`s whose sum it is
/// (`fl(a·b)` and its rounding error by a fused multiply-add). So the integral of a constant
/// `a` over `(c, b]` is the same exact number whether it is added whole or in pieces split
/// anywhere — which lets a distributed sweep split the stretches at range boundaries and still
/// give the one-pass bits. Exact unless a product falls below 2^-968, where its error term may
/// lose bits (a W1 term that small moves no reported digit).
#[inline]
fn add_area(acc: &mut ExactSum, a: f64, b: f64, c: f64) {
    if a == 0.0 {
        return;
    }
    for (x, sign) in [(b, 1.0), (c, -1.0)] {
        let p = a * x;
        acc.add(sign * p);
        if p.is_finite() {
            acc.add(sign * a.mul_add(x, -p));
        }
    }
}

/// Index of the pair `(i, j)`, `i < j`, among the `k·(k−1)/2` pairs of `k` groups.
#[inline]
fn pair(i: usize, j: usize, k: usize) -> usize {
    debug_assert!(i < j && j < k);
    i * (2 * k - i - 1) / 2 + (j - i - 1)
}

/// The running state of one slice over one segment of the sweep (all of it, for one pass).
#[derive(Clone)]
struct SliceState {
    k: usize,
    weighted: bool,
    group_of: Vec<usize>,
    total: Vec<f64>,
    rows: Vec<u64>,
    live: Vec<bool>,
    // Running: the rows above the current value (from the segment's start totals on).
    above: Vec<f64>,
    above_exact: Vec<ExactSum>,
    above_rows: Vec<u64>,
    last: Vec<f64>,
    // What the segment found, merged across segments (`merge_lower`).
    w1: Vec<ExactSum>,
    ks: Vec<f64>,
    ks_at: Vec<f64>,
    w1_pool: Vec<ExactSum>,
    ks_pool: Vec<f64>,
    quantile: Vec<Option<f64>>,
    positions: Vec<Positions>,
    /// Each group's weight above the pooled median's order statistics (unweighted: at the
    /// lower and upper one; weighted: at the last candidate), and whether this segment saw it.
    snap: [Vec<f64>; 2],
    snap_hit: [bool; 2],
    ccdf: Vec<Vec<(f64, f64)>>,
    cell: Vec<Option<i64>>,
    /// The cell of the segment's first CCDF point per group (kept as if the cell changed: the
    /// merge drops it when the segment above ended in the same cell).
    first_cell: Vec<Option<i64>>,
    pending: Vec<Option<(f64, f64)>>,
    // Scratch.
    touched: Vec<usize>,
    block: Vec<f64>,
    block_rows: Vec<u64>,
    block_live: Vec<bool>,
}

impl SliceState {
    fn new(
        map: &SliceMap,
        totals: &StreamTotals,
        start: &StreamTotals,
        previous: Option<f64>,
        settings: &DistributionSettings,
    ) -> Self {
        let k = map.names.len();
        let mut streams_of: Vec<Vec<usize>> = vec![Vec::new(); k];
        for s in 0..totals.n_streams().max(start.n_streams()) {
            if let Some(&g) = map.group_of.get(s / 2) {
                streams_of[g].push(s);
            }
        }
        let weighted = totals.is_weighted();
        let total: Vec<f64> = streams_of
            .iter()
            .map(|s| totals.sums(s.iter().copied()).0)
            .collect();
        let rows: Vec<u64> = streams_of
            .iter()
            .map(|s| s.iter().map(|&s| totals.rows(s)).sum())
            .collect();
        let above_rows: Vec<u64> = streams_of
            .iter()
            .map(|s| s.iter().map(|&s| start.rows(s)).sum())
            .collect();
        let above_exact: Vec<ExactSum> = if weighted {
            streams_of
                .iter()
                .map(|s| {
                    let mut e = ExactSum::default();
                    s.iter().for_each(|&s| e.merge(&start.weight_sum(s)));
                    e
                })
                .collect()
        } else {
            Vec::new()
        };
        let above: Vec<f64> = if weighted {
            above_exact.iter().map(ExactSum::value).collect()
        } else {
            above_rows.iter().map(|&n| n as f64).collect()
        };
        let pairs = k * k.saturating_sub(1) / 2;
        Self {
            k,
            weighted,
            group_of: map.group_of.clone(),
            live: total.iter().map(|&t| t > 0.0).collect(),
            positions: rows
                .iter()
                .map(|&n| Positions::new(n, settings.quantile))
                .collect(),
            total,
            rows,
            above,
            above_exact,
            above_rows,
            last: vec![previous.unwrap_or(f64::NAN); pairs],
            w1: vec![ExactSum::default(); pairs],
            ks: vec![0.0; pairs],
            ks_at: vec![f64::NAN; pairs],
            w1_pool: vec![ExactSum::default(); k],
            ks_pool: vec![0.0; k],
            quantile: vec![None; k],
            snap: [vec![0.0; k], vec![0.0; k]],
            snap_hit: [false; 2],
            ccdf: vec![Vec::new(); k],
            cell: vec![None; k],
            first_cell: vec![None; k],
            pending: vec![None; k],
            touched: Vec::new(),
            block: vec![0.0; k],
            block_rows: vec![0; k],
            block_live: vec![false; k],
        }
    }

    #[inline]
    fn share(&self, g: usize) -> f64 {
        self.above[g] / self.total[g]
    }

    /// Closes every live pair's open W1 stretch at `x` (the segment's lowest value): the next
    /// segment opens them there.
    fn close(&mut self, x: f64) {
        let k = self.k;
        for a in 0..k {
            for b in a + 1..k {
                if !(self.live[a] && self.live[b]) {
                    continue;
                }
                let at = pair(a, b, k);
                let last = self.last[at];
                if !last.is_nan() {
                    let d = (self.share(a) - self.share(b)).abs();
                    add_area(&mut self.w1[at], d, last, x);
                }
            }
        }
    }

    /// Takes in the segment just below this one (see [`DistributionSegment::merge_lower`]).
    fn merge_lower(&mut self, lower: SliceState) {
        for (a, b) in self.w1.iter_mut().zip(&lower.w1) {
            a.merge(b);
        }
        for (a, b) in self.w1_pool.iter_mut().zip(&lower.w1_pool) {
            a.merge(b);
        }
        // KS: the first maximum met descending, so a lower segment wins only when greater.
        for i in 0..self.ks.len() {
            if lower.ks[i] > self.ks[i] {
                self.ks[i] = lower.ks[i];
                self.ks_at[i] = lower.ks_at[i];
            }
        }
        for (a, &b) in self.ks_pool.iter_mut().zip(&lower.ks_pool) {
            *a = a.max(b);
        }
        for (a, b) in self.quantile.iter_mut().zip(&lower.quantile) {
            // The last candidate met descending.
            if b.is_some() {
                *a = *b;
            }
        }
        for (a, b) in self.positions.iter_mut().zip(&lower.positions) {
            for p in 0..2 {
                if b.values[p].is_some() {
                    a.values[p] = b.values[p];
                }
            }
        }
        for h in 0..2 {
            if lower.snap_hit[h] {
                self.snap[h].clone_from(&lower.snap[h]);
                self.snap_hit[h] = true;
            }
        }
        let SliceState {
            ccdf,
            cell,
            first_cell,
            pending,
            ..
        } = lower;
        for (g, (mut points, (cell, (first, pending)))) in ccdf
            .into_iter()
            .zip(cell.into_iter().zip(first_cell.into_iter().zip(pending)))
            .enumerate()
        {
            let Some(first) = first else { continue };
            let mut lower_pending = pending;
            if self.cell[g] == Some(first) && !points.is_empty() {
                // One pass would not have kept the lower segment's first point: same cell as
                // the last kept above it. It is pending there until a later point is kept.
                let p1 = points.remove(0);
                if points.is_empty() {
                    lower_pending = lower_pending.or(Some(p1));
                }
            }
            self.ccdf[g].extend(points);
            self.pending[g] = lower_pending;
            self.cell[g] = cell;
            if self.first_cell[g].is_none() {
                self.first_cell[g] = Some(first);
            }
        }
    }
}

/// The pooled rows' running state (shared by every slice).
#[derive(Clone)]
struct Pooled {
    total: f64,
    rows: u64,
    above: f64,
    above_exact: ExactSum,
    above_rows: u64,
    quantile: Option<f64>,
    median: Option<f64>,
    at_q: Positions,
    at_half: Positions,
}

/// One segment of the descending sweep: the rows of one range of values, swept from the totals
/// of every row above it (see [`sweep_segment`]). Segments merge from the top
/// ([`merge_lower`](Self::merge_lower)) into what one pass over all rows computes, bit for bit,
/// and cross between processes as bytes ([`to_bytes`](Self::to_bytes)).
#[derive(Clone)]
pub struct DistributionSegment {
    weighted: bool,
    settings: DistributionSettings,
    slices: Vec<SliceState>,
    pooled: Pooled,
    /// The value just above the segment (the lowest of the segments above), if any.
    previous: Option<f64>,
    /// The highest and lowest key the segment holds.
    keys: Option<(u64, u64)>,
    /// Rows per stream above the segment and in it.
    start_rows: Vec<u64>,
    seen: Vec<u64>,
}

impl std::fmt::Debug for DistributionSegment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DistributionSegment")
            .field("weighted", &self.weighted)
            .field("previous", &self.previous)
            .field("keys", &self.keys)
            .field("seen", &self.seen)
            .finish_non_exhaustive()
    }
}

/// Per-stream block sums of one key (weighted: exact).
struct Blocks {
    weighted: bool,
    block: Vec<f64>,
    exact: Vec<ExactSum>,
    touched: Vec<usize>,
}

fn check_slices(slices: &[SliceMap], n_streams: usize) -> Result<()> {
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
    Ok(())
}

fn bad(value: String, expected: &'static str) -> MetricError {
    MetricError::InvalidParameter {
        name: "distribution segments",
        value,
        expected,
    }
}

/// Sweeps the runs once and returns every slice's [`SliceDistribution`].
///
/// `totals` must count exactly the rows the runs hold (checked per stream at the end). It is
/// [`sweep_segment`] of all rows, with nothing above, finished: W1 sums its terms exactly
/// (each `|ΔF|·Δx` as two exact products), and weighted running sums are exact, so every
/// number is a function of the rows' multiset, not of their order or of how they are cut.
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
    runs: Vec<Run<'_>>,
    settings: &DistributionSettings,
) -> Result<Vec<SliceDistribution>> {
    let nothing = StreamTotals::new(totals.is_weighted());
    sweep_segment(slices, totals, &nothing, None, runs, settings)?.finish(slices, totals)
}

/// Sweeps the rows of one range of values — `runs`, every value below `previous`, the lowest
/// value of the ranges above — starting from `above`, the exact totals of every row above the
/// range. `totals` counts all rows of all ranges. Segments of consecutive ranges merged from
/// the top ([`DistributionSegment::merge_lower`]) and finished give [`sweep`]'s result over
/// all the rows, bit for bit: the running shares start from exactly rounded totals, as the
/// one pass's exact running sums are rounded, and each W1 stretch open at a boundary is split
/// there into two exact pieces (see the module docs).
///
/// # Errors
/// As [`sweep`] (the rows are checked against `totals` when the merged segments are
/// finished); [`MetricError::InvalidParameter`] when `above` and `totals` differ in weighting,
/// a value is not below `previous`.
///
/// # Example
/// ```
/// use fair_metrics::distribution::{DistributionSettings, sweep_segment};
/// use fair_metrics::score_sweep::{Run, SliceMap, StreamTotals, score_key, stream_of};
/// // Group 0: 3, 1; group 1: 2, 0. Two ranges: {3, 2} and {1, 0}.
/// let mut totals = StreamTotals::new(false);
/// let mut top = StreamTotals::new(false);
/// for (g, v) in [(0, 3.0), (1, 2.0), (0, 1.0), (1, 0.0)] {
///     totals.add(stream_of(g, 0), 1.0);
///     if v >= 2.0 { top.add(stream_of(g, 0), 1.0); }
/// }
/// let slice = SliceMap { names: vec!["a".into(), "b".into()], group_of: vec![0, 1] };
/// let s = DistributionSettings { quantile: 0.5, curve_points: 4 };
/// let run = |g, v: &'static [f64]| Run::new(stream_of(g, 0), v.iter().map(|&v| Ok((score_key(v), 1.0))));
/// let nothing = StreamTotals::new(false);
/// let mut upper = sweep_segment(&[slice.clone()], &totals, &nothing, None,
///     vec![run(0, &[3.0]), run(1, &[2.0])], &s)?;
/// let lower = sweep_segment(&[slice.clone()], &totals, &top, Some(2.0),
///     vec![run(0, &[1.0]), run(1, &[0.0])], &s)?;
/// upper.merge_lower(lower)?;
/// let out = upper.finish(&[slice], &totals)?;
/// assert_eq!(out[0].gaps.wasserstein[0][1], 1.0);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn sweep_segment(
    slices: &[SliceMap],
    totals: &StreamTotals,
    above: &StreamTotals,
    previous: Option<f64>,
    mut runs: Vec<Run<'_>>,
    settings: &DistributionSettings,
) -> Result<DistributionSegment> {
    check_level(settings.quantile)?;
    let n_streams = totals.n_streams();
    if totals.total_rows() == 0 {
        return Err(MetricError::Empty { what: "y_pred" });
    }
    check_slices(slices, n_streams)?;
    let weighted = totals.is_weighted();
    if above.total_rows() > 0 && above.is_weighted() != weighted {
        return Err(bad(
            "weighted and unweighted totals".into(),
            "the totals above a segment weighted as all rows are",
        ));
    }
    if above.n_streams() > n_streams {
        return Err(bad(
            format!(
                "totals above the segment count {} streams, all rows {n_streams}",
                above.n_streams()
            ),
            "the totals above a segment part of all rows' totals",
        ));
    }
    let (pooled_total, _) = totals.sums(0..n_streams);
    if pooled_total <= 0.0 {
        return Err(MetricError::ZeroTotalWeight { what: "all rows" });
    }
    let mut states: Vec<SliceState> = slices
        .iter()
        .map(|s| SliceState::new(s, totals, above, previous, settings))
        .collect();
    let pooled_rows = totals.total_rows();
    let mut pooled_exact = ExactSum::default();
    if weighted {
        (0..n_streams).for_each(|s| pooled_exact.merge(&above.weight_sum(s)));
    }
    let start_rows: Vec<u64> = (0..n_streams).map(|s| above.rows(s)).collect();
    let start_total: u64 = start_rows.iter().sum();
    let mut pooled = Pooled {
        total: pooled_total,
        rows: pooled_rows,
        above: if weighted {
            pooled_exact.value()
        } else {
            start_total as f64
        },
        above_exact: pooled_exact,
        above_rows: start_total,
        quantile: None,
        median: None,
        at_q: Positions::new(pooled_rows, settings.quantile),
        at_half: Positions::new(pooled_rows, 0.5),
    };
    let mut previous_x = previous;
    let curve_points = settings.curve_points;
    let q = settings.quantile;
    let mut failed: Option<MetricError> = None;
    struct Sink<'s, F> {
        blocks: Blocks,
        on_block: F,
        _s: std::marker::PhantomData<&'s ()>,
    }
    impl<F: FnMut(u64, &mut Blocks)> RowSink for Sink<'_, F> {
        #[inline]
        fn row(&mut self, _: u64, stream: usize, weight: f64) {
            let b = &mut self.blocks;
            if !b.touched.contains(&stream) {
                b.touched.push(stream);
            }
            if b.weighted {
                b.exact[stream].add(weight);
            } else {
                b.block[stream] += weight;
            }
        }
        #[inline]
        fn key_end(&mut self, key: u64) {
            (self.on_block)(key, &mut self.blocks);
            let b = &mut self.blocks;
            for &s in &b.touched {
                b.block[s] = 0.0;
                if b.weighted {
                    b.exact[s] = ExactSum::default();
                }
            }
            b.touched.clear();
        }
    }
    let mut sink = Sink {
        blocks: Blocks {
            weighted,
            block: vec![0.0; n_streams],
            exact: if weighted {
                vec![ExactSum::default(); n_streams]
            } else {
                Vec::new()
            },
            touched: Vec::new(),
        },
        on_block: |key: u64, blocks: &mut Blocks| {
            let x = key_score(key);
            if failed.is_none() && previous.is_some_and(|p| x >= p) {
                failed = Some(bad(
                    format!("value {x} in a segment below {previous:?}"),
                    "every value of a segment below the lowest value of the segments above",
                ));
            }
            if weighted {
                for &s in &blocks.touched {
                    blocks.block[s] = blocks.exact[s].value();
                }
            }
            let touched = &blocks.touched;
            let block = &blocks.block;
            let w_positive = touched.iter().any(|&s| block[s] > 0.0);
            // Without weights every row weighs 1: the block's sum is its row count.
            let m: u64 = if weighted {
                0
            } else {
                touched.iter().map(|&s| block[s] as u64).sum()
            };
            let half_hit = if weighted {
                let hit = w_positive && weighted_candidate(pooled.total, pooled.above, 0.5);
                if hit {
                    pooled.median = Some(x);
                }
                if w_positive && weighted_candidate(pooled.total, pooled.above, q) {
                    pooled.quantile = Some(x);
                }
                [hit, false]
            } else {
                pooled.at_q.see(pooled.rows, pooled.above_rows, m, x);
                pooled.at_half.see(pooled.rows, pooled.above_rows, m, x)
            };
            // The pooled share after this block.
            let pool_after = if weighted {
                for &s in touched {
                    pooled.above_exact.merge(&blocks.exact[s]);
                }
                pooled.above_exact.value()
            } else {
                pooled.above + m as f64
            };
            for st in states.iter_mut() {
                block_of_slice(
                    st,
                    x,
                    previous_x,
                    touched,
                    blocks,
                    &pooled,
                    pool_after,
                    half_hit,
                    q,
                    curve_points,
                );
            }
            pooled.above = pool_after;
            pooled.above_rows += m;
            previous_x = Some(x);
        },
        _s: std::marker::PhantomData,
    };
    let (seen, keys) = merge_rows(&mut runs, n_streams, &mut sink).map_err(|e| match e {
        MetricError::InvalidParameter {
            value, expected, ..
        } => MetricError::InvalidParameter {
            name: "distribution runs",
            value,
            expected,
        },
        other => other,
    })?;
    drop(sink);
    if let Some(e) = failed {
        return Err(e);
    }
    if let Some((_, lo)) = keys {
        let x = key_score(lo);
        states.iter_mut().for_each(|st| st.close(x));
    }
    Ok(DistributionSegment {
        weighted,
        settings: *settings,
        slices: states,
        pooled,
        previous,
        keys,
        start_rows,
        seen,
    })
}

#[allow(clippy::too_many_arguments)] // one block's inputs, called from one place
fn block_of_slice(
    st: &mut SliceState,
    x: f64,
    previous: Option<f64>,
    touched_streams: &[usize],
    blocks: &Blocks,
    pooled: &Pooled,
    pool_after_above: f64,
    half_hit: [bool; 2],
    q: f64,
    curve_points: usize,
) {
    let k = st.k;
    let block = &blocks.block;
    st.touched.clear();
    for &s in touched_streams {
        let g = st.group_of[s / 2];
        if !st.block_live[g] {
            st.block_live[g] = true;
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
        for g in 0..k {
            if st.live[g] {
                let d = (st.share(g) - pool_share).abs();
                add_area(&mut st.w1_pool[g], d, prev, x);
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
            let at = pair(i, j, k);
            let last = st.last[at];
            // Both groups of a pair touched in one block: the second visit adds nothing.
            if last.to_bits() != x.to_bits() {
                if !last.is_nan() {
                    let d = (sa - st.share(b)).abs();
                    add_area(&mut st.w1[at], d, last, x);
                }
                st.last[at] = x;
            }
        }
    }
    // Quantiles and the scoring rate's snapshots read the shares above this block.
    if st.weighted {
        if half_hit[0] {
            st.snap[0].clone_from(&st.above);
            st.snap_hit[0] = true;
        }
    } else {
        if half_hit[1] {
            st.snap[1].clone_from(&st.above);
            st.snap_hit[1] = true;
        }
        if half_hit[0] {
            st.snap[0].clone_from(&st.above);
            st.snap_hit[0] = true;
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
            if st.first_cell[g].is_none() {
                st.first_cell[g] = Some(cell);
            }
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
    for &s in touched_streams {
        if st.weighted {
            let g = st.group_of[s / 2];
            st.above_exact[g].merge(&blocks.exact[s]);
        }
    }
    for ti in 0..st.touched.len() {
        let g = st.touched[ti];
        if st.weighted {
            st.above[g] = st.above_exact[g].value();
        } else {
            st.above[g] += st.block[g];
        }
        st.above_rows[g] += st.block_rows[g];
        st.block[g] = 0.0;
        st.block_rows[g] = 0;
        st.block_live[g] = false;
    }
    // KS after the change.
    let pool_after = pool_after_above / pooled.total;
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
            let at = pair(i, j, k);
            let d = (sa - st.share(b)).abs();
            if d > st.ks[at] {
                st.ks[at] = d;
                // The shares after this block hold just below x.
                st.ks_at[at] = x.next_down();
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

impl DistributionSegment {
    /// Takes in `lower`, the segment of the range just below this one's (or below the ranges
    /// already merged into it): afterwards `self` is the segment of both ranges. Merge from the
    /// top down; an empty segment (a range without rows) may be skipped.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when the segments differ in settings, weighting or
    /// slices, `lower` does not start where `self` ends (its `previous` is not this segment's
    /// lowest value, or its rows above are not this segment's rows above plus its own), or its
    /// values are not all below this segment's.
    pub fn merge_lower(&mut self, lower: DistributionSegment) -> Result<()> {
        if lower.keys.is_none() && lower.seen.iter().all(|&n| n == 0) {
            return Ok(());
        }
        if self.keys.is_none() {
            *self = lower;
            return Ok(());
        }
        if lower.weighted != self.weighted
            || lower.settings != self.settings
            || lower.slices.len() != self.slices.len()
            || lower
                .slices
                .iter()
                .zip(&self.slices)
                .any(|(a, b)| a.k != b.k)
        {
            return Err(bad(
                "segments of different settings, weighting or slices".into(),
                "segments of one sweep",
            ));
        }
        let (_, lo) = self.keys.expect("checked");
        let (lower_hi, _) = lower.keys.ok_or_else(|| {
            bad(
                "a segment with rows but no values".into(),
                "a segment's rows",
            )
        })?;
        if lower_hi >= lo || lower.previous != Some(key_score(lo)) {
            return Err(bad(
                format!(
                    "a segment starting below {:?} merged under one ending at {}",
                    lower.previous,
                    key_score(lo)
                ),
                "segments of consecutive ranges, merged from the top",
            ));
        }
        let n = self.seen.len().max(lower.start_rows.len());
        let expected: Vec<u64> = (0..n)
            .map(|s| {
                let above = self.start_rows.get(s).copied().unwrap_or(0);
                above.saturating_add(self.seen.get(s).copied().unwrap_or(0))
            })
            .collect();
        let got: Vec<u64> = (0..n)
            .map(|s| lower.start_rows.get(s).copied().unwrap_or(0))
            .collect();
        if expected != got {
            return Err(bad(
                format!("rows above a segment {got:?}, the segments above hold {expected:?}"),
                "each segment swept from the exact totals of the ranges above it",
            ));
        }
        let DistributionSegment {
            slices,
            pooled,
            keys,
            seen,
            ..
        } = lower;
        for (st, low) in self.slices.iter_mut().zip(slices) {
            st.merge_lower(low);
        }
        if pooled.quantile.is_some() {
            self.pooled.quantile = pooled.quantile;
        }
        if pooled.median.is_some() {
            self.pooled.median = pooled.median;
        }
        for p in 0..2 {
            if pooled.at_q.values[p].is_some() {
                self.pooled.at_q.values[p] = pooled.at_q.values[p];
            }
            if pooled.at_half.values[p].is_some() {
                self.pooled.at_half.values[p] = pooled.at_half.values[p];
            }
        }
        self.keys = Some((self.keys.expect("checked").0, keys.expect("checked").1));
        if self.seen.len() < seen.len() {
            self.seen.resize(seen.len(), 0);
        }
        for (a, b) in self.seen.iter_mut().zip(seen) {
            // Saturating: forged bytes fail the row check at the finish, not an overflow here.
            *a = a.saturating_add(b);
        }
        Ok(())
    }

    /// Every slice's distributions from the merged segments of all the ranges.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when the segments do not start at the top (something
    /// was above the first) or their rows disagree with `totals`;
    /// [`MetricError::ZeroTotalWeight`] when no row has weight.
    pub fn finish(
        self,
        slices: &[SliceMap],
        totals: &StreamTotals,
    ) -> Result<Vec<SliceDistribution>> {
        if self.start_rows.iter().any(|&n| n > 0) || self.previous.is_some() {
            return Err(bad(
                "the first segment has rows above it".into(),
                "segments merged from the highest range down",
            ));
        }
        if slices.len() != self.slices.len()
            || slices
                .iter()
                .zip(&self.slices)
                .any(|(m, st)| m.names.len() != st.k)
        {
            return Err(bad(
                "slices other than the segments were swept with".into(),
                "the slices of the sweep",
            ));
        }
        check_seen(&self.seen, totals).map_err(|e| match e {
            MetricError::InvalidParameter {
                value, expected, ..
            } => MetricError::InvalidParameter {
                name: "distribution runs",
                value,
                expected,
            },
            other => other,
        })?;
        let q = self.settings.quantile;
        let pooled = self.pooled;
        let (pooled_q, pooled_median) = if self.weighted {
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
        Ok(self
            .slices
            .into_iter()
            .zip(slices)
            .map(|(st, map)| finish(st, map, pooled_q, median, upper_median, q))
            .collect())
    }

    /// Canonical bytes (magic `FKDS`, version 1): what a segment found, not its running sums;
    /// [`from_bytes`](Self::from_bytes) rebuilds the rest from the slices and totals.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(SEGMENT_MAGIC, SEGMENT_VERSION);
        w.u8(u8::from(self.weighted));
        w.f64(self.settings.quantile);
        w.u64(self.settings.curve_points as u64);
        opt_f64(&mut w, self.previous);
        match self.keys {
            None => w.u8(0),
            Some((hi, lo)) => {
                w.u8(1);
                w.u64(hi);
                w.u64(lo);
            }
        }
        for v in [&self.start_rows, &self.seen] {
            w.u64(v.len() as u64);
            v.iter().for_each(|&n| w.u64(n));
        }
        let p = &self.pooled;
        for v in [
            p.quantile,
            p.median,
            p.at_q.values[0],
            p.at_q.values[1],
            p.at_half.values[0],
            p.at_half.values[1],
        ] {
            opt_f64(&mut w, v);
        }
        w.u64(self.slices.len() as u64);
        for st in &self.slices {
            w.u64(st.k as u64);
            st.w1
                .iter()
                .chain(&st.w1_pool)
                .for_each(|e| w.bytes(&e.to_bytes()));
            st.ks
                .iter()
                .chain(&st.ks_at)
                .chain(&st.ks_pool)
                .for_each(|&v| w.f64(v));
            for g in 0..st.k {
                opt_f64(&mut w, st.quantile[g]);
                opt_f64(&mut w, st.positions[g].values[0]);
                opt_f64(&mut w, st.positions[g].values[1]);
                w.f64(st.snap[0][g]);
                w.f64(st.snap[1][g]);
                opt_i64(&mut w, st.cell[g]);
                opt_i64(&mut w, st.first_cell[g]);
                match st.pending[g] {
                    None => w.u8(0),
                    Some((x, f)) => {
                        w.u8(1);
                        w.f64(x);
                        w.f64(f);
                    }
                }
                w.u64(st.ccdf[g].len() as u64);
                for &(x, f) in &st.ccdf[g] {
                    w.f64(x);
                    w.f64(f);
                }
            }
            w.u8(u8::from(st.snap_hit[0]) | (u8::from(st.snap_hit[1]) << 1));
        }
        w.finish()
    }

    /// Decodes [`to_bytes`](Self::to_bytes) for the sweep of `slices` over the rows `totals`
    /// counts, checking every field against them: never a panic.
    ///
    /// # Errors
    /// [`MetricError::Decode`] for bytes that are not such a segment (wrong magic or version,
    /// truncated, trailing bytes, a flag that is neither 0 nor 1, a corrupt exact sum, slices
    /// or streams other than the sweep's).
    pub fn from_bytes(bytes: &[u8], slices: &[SliceMap], totals: &StreamTotals) -> Result<Self> {
        let mut r = Reader::new(
            bytes,
            SEGMENT_MAGIC,
            SEGMENT_VERSION,
            "distribution segment",
        )?;
        let weighted = flag(&mut r)?;
        let quantile = r.f64()?;
        let curve_points =
            usize::try_from(r.u64()?).map_err(|_| r.error("curve points beyond usize".into()))?;
        let settings = DistributionSettings {
            quantile,
            curve_points,
        };
        check_level(quantile).map_err(|e| r.error(e.to_string()))?;
        if weighted != totals.is_weighted() || totals.total_rows() == 0 {
            return Err(r.error("a segment of other totals (weighting or rows)".into()));
        }
        if check_slices(slices, totals.n_streams()).is_err() {
            return Err(r.error("slices that do not map every group of the totals".into()));
        }
        let previous = read_opt_f64(&mut r)?;
        let keys = if flag(&mut r)? {
            Some((r.u64()?, r.u64()?))
        } else {
            None
        };
        let mut counts = Vec::with_capacity(2);
        for _ in 0..2 {
            let n = r.len()?;
            if n > totals.n_streams() {
                return Err(r.error(format!(
                    "{n} streams, the totals have {}",
                    totals.n_streams()
                )));
            }
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(r.u64()?);
            }
            counts.push(v);
        }
        let seen = counts.pop().expect("two");
        let start_rows = counts.pop().expect("two");
        // The running state is rebuilt from the totals; only what the segment found is read.
        let mut segment = DistributionSegment {
            weighted,
            settings,
            slices: slices
                .iter()
                .map(|m| {
                    SliceState::new(m, totals, &StreamTotals::new(weighted), previous, &settings)
                })
                .collect(),
            pooled: Pooled {
                total: totals.sums(0..totals.n_streams()).0,
                rows: totals.total_rows(),
                above: 0.0,
                above_exact: ExactSum::default(),
                above_rows: 0,
                quantile: None,
                median: None,
                at_q: Positions::new(totals.total_rows(), quantile),
                at_half: Positions::new(totals.total_rows(), 0.5),
            },
            previous,
            keys,
            start_rows,
            seen,
        };
        let p = &mut segment.pooled;
        p.quantile = read_opt_f64(&mut r)?;
        p.median = read_opt_f64(&mut r)?;
        p.at_q.values = [read_opt_f64(&mut r)?, read_opt_f64(&mut r)?];
        p.at_half.values = [read_opt_f64(&mut r)?, read_opt_f64(&mut r)?];
        let n = r.len()?;
        if n != slices.len() {
            return Err(r.error(format!("{n} slices, the sweep has {}", slices.len())));
        }
        for st in &mut segment.slices {
            let k = r.u64()?;
            if k != st.k as u64 {
                return Err(r.error(format!("a slice of {k} groups, the sweep's has {}", st.k)));
            }
            for e in st.w1.iter_mut().chain(st.w1_pool.iter_mut()) {
                *e = r.exact_sum()?;
            }
            for v in st
                .ks
                .iter_mut()
                .chain(st.ks_at.iter_mut())
                .chain(st.ks_pool.iter_mut())
            {
                *v = r.f64()?;
            }
            for g in 0..st.k {
                st.quantile[g] = read_opt_f64(&mut r)?;
                st.positions[g].values = [read_opt_f64(&mut r)?, read_opt_f64(&mut r)?];
                st.snap[0][g] = r.f64()?;
                st.snap[1][g] = r.f64()?;
                st.cell[g] = read_opt_i64(&mut r)?;
                st.first_cell[g] = read_opt_i64(&mut r)?;
                st.pending[g] = if flag(&mut r)? {
                    Some((r.f64()?, r.f64()?))
                } else {
                    None
                };
                // Each point takes 16 bytes: a forged count fails on the bytes left.
                let m = r.len()?;
                if m > r.left() / 16 {
                    return Err(r.error(format!("{m} curve points in {} bytes", r.left())));
                }
                let mut points = Vec::with_capacity(m);
                for _ in 0..m {
                    points.push((r.f64()?, r.f64()?));
                }
                st.ccdf[g] = points;
            }
            let hits = r.u8()?;
            if hits > 3 {
                return Err(r.error(format!("snapshot flags {hits}")));
            }
            st.snap_hit = [hits & 1 == 1, hits & 2 == 2];
        }
        r.finish()?;
        Ok(segment)
    }
}

const SEGMENT_MAGIC: &[u8; 4] = b"FKDS";
const SEGMENT_VERSION: u8 = 1;

fn opt_f64(w: &mut Writer, v: Option<f64>) {
    match v {
        None => w.u8(0),
        Some(x) => {
            w.u8(1);
            w.f64(x);
        }
    }
}

fn opt_i64(w: &mut Writer, v: Option<i64>) {
    match v {
        None => w.u8(0),
        Some(x) => {
            w.u8(1);
            w.u64(x as u64);
        }
    }
}

fn flag(r: &mut Reader<'_>) -> Result<bool> {
    match r.u8()? {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(r.error(format!("flag {v}, expected 0 or 1"))),
    }
}

fn read_opt_f64(r: &mut Reader<'_>) -> Result<Option<f64>> {
    Ok(if flag(r)? { Some(r.f64()?) } else { None })
}

fn read_opt_i64(r: &mut Reader<'_>) -> Result<Option<i64>> {
    Ok(if flag(r)? {
        Some(r.u64()? as i64)
    } else {
        None
    })
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
            let at = pair(a, b, k);
            let (v1, v2) = if st.live[a] && st.live[b] {
                (st.w1[at].value(), st.ks[at])
            } else {
                (f64::NAN, f64::NAN)
            };
            w1[a][b] = v1;
            w1[b][a] = v1;
            ks[a][b] = v2;
            ks[b][a] = v2;
            ks_at[a][b] = st.ks_at[at];
            ks_at[b][a] = st.ks_at[at];
        }
        if !st.live[a] {
            w1[a][a] = f64::NAN;
            ks[a][a] = f64::NAN;
        }
    }
    let w1_pool: Vec<f64> = st
        .w1_pool
        .iter()
        .zip(&st.live)
        .map(|(x, &l)| if l { x.value() } else { f64::NAN })
        .collect();
    let ks_pool: Vec<f64> = st
        .ks_pool
        .iter()
        .zip(&st.live)
        .map(|(&x, &l)| if l { x } else { f64::NAN })
        .collect();
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
            wasserstein_to_pooled: w1_pool,
            ks_to_pooled: ks_pool,
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

    /// The rows cut into value ranges at `cuts` (a row of value `v` goes to the first range
    /// whose cut is `<= v`; the last range takes the rest), each range swept as a segment from
    /// the exact totals of the ranges above, shipped as bytes, merged from the top and finished:
    /// what a Spark front end computes, one executor per range.
    fn segmented(
        values: &[f64],
        groups: &[usize],
        k: usize,
        weights: Option<&[f64]>,
        cuts: &[f64],
        settings: &DistributionSettings,
    ) -> Result<Vec<SliceDistribution>> {
        let n_ranges = cuts.len() + 1;
        let range_of = |v: f64| cuts.iter().position(|&c| v >= c).unwrap_or(cuts.len());
        let mut rows: Vec<Vec<Vec<(u64, f64)>>> = vec![vec![Vec::new(); k]; n_ranges];
        let mut range_totals = vec![StreamTotals::new(weights.is_some()); n_ranges];
        let mut totals = StreamTotals::new(weights.is_some());
        for (i, (&v, &g)) in values.iter().zip(groups).enumerate() {
            let w = weights.map_or(1.0, |w| w[i]);
            let r = range_of(v);
            rows[r][g].push((score_key(v), w));
            range_totals[r].add(stream_of(g, 0), w);
            totals.add(stream_of(g, 0), w);
        }
        let map = SliceMap {
            names: (0..k).map(|g| g.to_string()).collect(),
            group_of: (0..k).collect(),
        };
        let maps = [map];
        let mut above = StreamTotals::new(weights.is_some());
        let mut previous: Option<f64> = None;
        let mut merged: Option<DistributionSegment> = None;
        for (r, mut streams) in rows.into_iter().enumerate() {
            if range_totals[r].total_rows() == 0 {
                continue;
            }
            streams.iter_mut().for_each(|s| sort_weighted(s));
            let lowest = streams
                .iter()
                .filter_map(|s| s.first().map(|&(key, _)| key_score(key)))
                .fold(f64::INFINITY, f64::min);
            let runs = streams
                .iter()
                .enumerate()
                .filter(|(_, s)| !s.is_empty())
                .map(|(g, s)| Run::from_sorted_pairs(stream_of(g, 0), s))
                .collect();
            let seg = sweep_segment(&maps, &totals, &above, previous, runs, settings)?;
            let seg = DistributionSegment::from_bytes(&seg.to_bytes(), &maps, &totals)?;
            match merged.as_mut() {
                None => merged = Some(seg),
                Some(m) => m.merge_lower(seg)?,
            }
            above.merge(&range_totals[r])?;
            previous = Some(lowest);
        }
        merged.expect("rows").finish(&maps, &totals)
    }

    proptest! {
        /// Cut into value ranges, swept per range from the totals above and merged, the sweep
        /// gives the one pass's result to the bit (Debug prints every f64 exactly, signs of
        /// zero and NaNs included), with and without weights, ties at the cuts, one distinct
        /// value, groups absent from some ranges.
        #[test]
        fn segments_merged_equal_one_pass(
            rows in prop::collection::vec((0_u8..12, 0_usize..3, 0_u8..5), 1..70),
            weighted in any::<bool>(),
            cuts in prop::collection::vec(0_u8..26, 0..6),
            q in prop::sample::select(vec![0.0, 0.25, 0.5, 0.9, 1.0]),
            constant in any::<bool>(),
        ) {
            let values: Vec<f64> = rows
                .iter()
                .map(|r| if constant { 2.5 } else { f64::from(r.0) * 0.5 - 1.0 })
                .collect();
            let groups: Vec<usize> = rows.iter().map(|r| r.1).collect();
            // Irrational-looking weights so that float running sums would round.
            let w: Vec<f64> = rows.iter().map(|r| f64::from(r.2) * 0.1 + f64::from(r.2 % 2) / 3.0).collect();
            let weights = weighted.then_some(w.as_slice());
            // Cuts on values (ties at the cut go to the upper range) and between them.
            let mut cuts: Vec<f64> = cuts.iter().map(|&c| f64::from(c) * 0.25 - 1.0).collect();
            cuts.sort_by(|a, b| b.total_cmp(a));
            cuts.dedup();
            let settings = DistributionSettings { quantile: q, curve_points: 3 };
            let map = SliceMap {
                names: (0..3).map(|g| g.to_string()).collect(),
                group_of: (0..3).collect(),
            };
            let one = {
                let mut keyed: Vec<Vec<(u64, f64)>> = vec![Vec::new(); 3];
                let mut totals = StreamTotals::new(weighted);
                for (i, (&v, &g)) in values.iter().zip(&groups).enumerate() {
                    let wi = weights.map_or(1.0, |w| w[i]);
                    keyed[g].push((score_key(v), wi));
                    totals.add(stream_of(g, 0), wi);
                }
                keyed.iter_mut().for_each(|s| sort_weighted(s));
                let runs = keyed
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| !s.is_empty())
                    .map(|(g, s)| Run::from_sorted_pairs(stream_of(g, 0), s))
                    .collect();
                sweep(std::slice::from_ref(&map), &totals, runs, &settings)
            };
            let parts = segmented(&values, &groups, 3, weights, &cuts, &settings);
            match (one, parts) {
                (Ok(a), Ok(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                (a, b) => prop_assert!(false, "one pass {a:?}, segments {b:?}"),
            }
        }
    }

    #[test]
    fn segments_merged_out_of_order_or_corrupted_are_errors() {
        let settings = DistributionSettings {
            quantile: 0.5,
            curve_points: 2,
        };
        let map = SliceMap {
            names: vec!["a".into(), "b".into()],
            group_of: vec![0, 1],
        };
        let maps = [map];
        let mut totals = StreamTotals::new(false);
        let mut top = StreamTotals::new(false);
        for (g, v) in [(0, 3.0), (1, 2.0), (0, 1.0), (1, 0.0)] {
            totals.add(stream_of(g, 0), 1.0);
            if v >= 2.0 {
                top.add(stream_of(g, 0), 1.0);
            }
        }
        let keys =
            |v: &[f64]| -> Vec<(u64, f64)> { v.iter().map(|&v| (score_key(v), 1.0)).collect() };
        let (a3, b2, a1, b0) = (keys(&[3.0]), keys(&[2.0]), keys(&[1.0]), keys(&[0.0]));
        let nothing = StreamTotals::new(false);
        let upper = || {
            sweep_segment(
                &maps,
                &totals,
                &nothing,
                None,
                vec![
                    Run::from_sorted_pairs(0, &a3),
                    Run::from_sorted_pairs(2, &b2),
                ],
                &settings,
            )
            .unwrap()
        };
        let lower = |above: &StreamTotals, prev| {
            sweep_segment(
                &maps,
                &totals,
                above,
                prev,
                vec![
                    Run::from_sorted_pairs(0, &a1),
                    Run::from_sorted_pairs(2, &b0),
                ],
                &settings,
            )
        };
        // Merged in order: the one pass.
        let mut m = upper();
        m.merge_lower(lower(&top, Some(2.0)).unwrap()).unwrap();
        let whole = m.clone().finish(&maps, &totals).unwrap();
        assert_eq!(whole[0].gaps.wasserstein[0][1], 1.0);
        // The lower segment first, or swept from the wrong totals or boundary: typed errors.
        let mut wrong = lower(&top, Some(2.0)).unwrap();
        assert!(wrong.merge_lower(upper()).is_err());
        let mut m2 = upper();
        assert!(m2.merge_lower(lower(&nothing, Some(2.0)).unwrap()).is_err());
        let mut m3 = upper();
        assert!(m3.merge_lower(lower(&top, Some(2.5)).unwrap()).is_err());
        assert!(lower(&top, Some(0.5)).is_err(), "values above the boundary");
        // Only the lower range: rows missing from the totals.
        assert!(
            lower(&top, Some(2.0))
                .unwrap()
                .finish(&maps, &totals)
                .is_err()
        );
        assert!(
            upper()
                .finish(&maps, &totals)
                .unwrap_err()
                .to_string()
                .contains("distribution runs")
        );
        // Bytes: round trip, every truncation an error, a forged count an error.
        let bytes = m.to_bytes();
        let back = DistributionSegment::from_bytes(&bytes, &maps, &totals).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        for cut in 0..bytes.len() {
            assert!(DistributionSegment::from_bytes(&bytes[..cut], &maps, &totals).is_err());
        }
        let mut flipped = bytes.clone();
        flipped[5] = 7;
        assert!(DistributionSegment::from_bytes(&flipped, &maps, &totals).is_err());
        let weighted = StreamTotals::new(true);
        assert!(DistributionSegment::from_bytes(&bytes, &maps, &weighted).is_err());
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
