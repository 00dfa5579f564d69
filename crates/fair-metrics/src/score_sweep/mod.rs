//! Every exact score metric of many slices in **one descending sweep** over sorted runs: per-group
//! AUC (and the pooled AUC), KS DP-Δ and EO-Δ between every pair of groups, partial SP on a
//! percentile interval, and downsampled ROC / CCDF curves for charts.
//!
//! Input is organised by *stream*: one stream per (finest group, label), numbered
//! [`stream_of`]`(group, label)`. Each stream arrives as one or more [`Run`]s, each sorted
//! descending by (score key, weight). One in-memory sorted array per stream is one run; a file
//! spilled to disk in pieces is several runs of the same stream. The sweep k-way merges all runs
//! with a heap and consumes every distinct score (across all streams) as one block, so ties are
//! exact, and updates each slice (a mapping of the finest groups onto coarser groups) from the
//! block. Work is O(n log runs + n · groups): each pair of groups is touched only when one of
//! its groups changes, so there is no sort per pair and no pass per pair.
//!
//! **Bit-identical however the runs are cut.** Within one stream the merged order is the same
//! whatever the runs (descending key, then descending weight; equal (key, weight) items are
//! indistinguishable), block sums are accumulated per stream in that order and combined in stream
//! order, and the totals are exact (order-independent) sums. So one run per stream and a thousand
//! spilled runs give the same bits. This module never touches files: callers hand it iterators.
//!
//! Scores are passed as [`score_key`]s: `u64`s that order like the `f64`s (and merge `-0.0` with
//! `0.0`), so sorting and merging compare integers.

mod slice;

use crate::error::{MetricError, Result};
use crate::partial::PercentileInterval;
use crate::state::ExactSum;
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;

pub use crate::sorted_scores::{key_score, score_key};
pub use slice::{EffectiveN, PairGaps, SliceScores};

/// The stream number of (finest group, label): `2 · group + label`.
#[inline]
pub fn stream_of(group: usize, label: usize) -> usize {
    2 * group + label
}

/// Per-stream row counts and exact (order-independent) sums of the weights and of their
/// squares, gathered while the rows are read, before the sweep.
#[derive(Clone, Default)]
pub struct StreamTotals {
    weighted: bool,
    rows: Vec<u64>,
    weight: Vec<ExactSum>,
    weight_sq: Vec<ExactSum>,
}

impl std::fmt::Debug for StreamTotals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamTotals")
            .field("weighted", &self.weighted)
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl StreamTotals {
    /// Empty totals; `weighted` says whether [`add`](Self::add) receives real weights.
    pub fn new(weighted: bool) -> Self {
        Self {
            weighted,
            ..Self::default()
        }
    }

    /// Whether the rows carry weights.
    pub fn is_weighted(&self) -> bool {
        self.weighted
    }

    /// Number of streams seen (one past the largest stream number added).
    pub fn n_streams(&self) -> usize {
        self.rows.len()
    }

    fn grow(&mut self, stream: usize) {
        if stream >= self.rows.len() {
            self.rows.resize(stream + 1, 0);
            if self.weighted {
                self.weight.resize(stream + 1, ExactSum::default());
                self.weight_sq.resize(stream + 1, ExactSum::default());
            }
        }
    }

    /// Counts one row of `stream` with weight `weight` (ignored when unweighted).
    #[inline]
    pub fn add(&mut self, stream: usize, weight: f64) {
        self.grow(stream);
        self.rows[stream] += 1;
        if self.weighted {
            self.weight[stream].add(weight);
            self.weight_sq[stream].add(weight * weight);
        }
    }

    /// Rows of a stream.
    pub fn rows(&self, stream: usize) -> u64 {
        self.rows.get(stream).copied().unwrap_or(0)
    }

    /// All rows.
    pub fn total_rows(&self) -> u64 {
        self.rows.iter().sum()
    }

    /// (Σw, Σw²) over a set of streams, exactly rounded once (for unweighted streams the row
    /// count twice).
    pub(crate) fn sums(&self, streams: impl Iterator<Item = usize>) -> (f64, f64) {
        if !self.weighted {
            let n: u64 = streams.map(|s| self.rows(s)).sum();
            return (n as f64, n as f64);
        }
        let (mut w, mut w2) = (ExactSum::default(), ExactSum::default());
        for s in streams.filter(|&s| s < self.rows.len()) {
            w.merge(&self.weight[s]);
            w2.merge(&self.weight_sq[s]);
        }
        (w.value(), w2.value())
    }
}

/// One sorted run of one stream: items `(score key, weight)` in descending (key, weight) order
/// (weight 1 for unweighted rows).
pub struct Run<'a> {
    stream: usize,
    items: Box<dyn Iterator<Item = Result<(u64, f64)>> + 'a>,
}

impl<'a> Run<'a> {
    /// A run from any fallible iterator (e.g. a reader of a spilled file) in descending order.
    pub fn new(stream: usize, items: impl Iterator<Item = Result<(u64, f64)>> + 'a) -> Self {
        Self {
            stream,
            items: Box::new(items),
        }
    }

    /// A run over unweighted keys sorted **ascending** (as [`sort_keys`] leaves them).
    pub fn from_sorted_keys(stream: usize, keys: &'a [u64]) -> Self {
        Self::new(stream, keys.iter().rev().map(|&k| Ok((k, 1.0))))
    }

    /// A run over weighted rows sorted **ascending** (as [`sort_weighted`] leaves them).
    pub fn from_sorted_pairs(stream: usize, rows: &'a [(u64, f64)]) -> Self {
        Self::new(stream, rows.iter().rev().map(|&r| Ok(r)))
    }
}

/// Sorts unweighted keys ascending (integer sort: much faster than comparing `f64`s).
pub fn sort_keys(keys: &mut [u64]) {
    keys.sort_unstable();
}

/// Sorts weighted rows ascending by (key, weight). Weights are `>= 0`, so their bit patterns
/// order like their values (callers store `+0.0`, never `-0.0`).
pub fn sort_weighted(rows: &mut [(u64, f64)]) {
    rows.sort_unstable_by_key(|&(k, w)| (k, w.to_bits()));
}

/// What to compute besides AUC and KS.
#[derive(Debug, Clone, Copy)]
pub struct SweepSettings {
    /// Partial SP on this percentile interval, if any.
    pub interval: Option<PercentileInterval>,
    /// Roughly how many points each group's ROC and CCDF curve keeps (0 = no curves).
    pub curve_points: usize,
}

/// A slice: the finest groups mapped onto coarser groups (a sensitive column's values, or the
/// finest groups themselves for the intersection).
#[derive(Debug, Clone)]
pub struct SliceMap {
    /// The slice's group names, indexed by slice group.
    pub names: Vec<String>,
    /// The slice group of each finest group.
    pub group_of: Vec<usize>,
}

fn bad(value: String, expected: &'static str) -> MetricError {
    MetricError::InvalidParameter {
        name: "sorted score runs",
        value,
        expected,
    }
}

/// Heap entry: the next item of run `run`. Max-heap order: key, then weight bits, then run.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Head {
    key: u64,
    weight_bits: u64,
    run: usize,
}

fn next_head(run: &mut Run<'_>, index: usize, prev: Option<(u64, u64)>) -> Result<Option<Head>> {
    let Some(item) = run.items.next() else {
        return Ok(None);
    };
    let (key, weight) = item?;
    if !key_score(key).is_finite() || !weight.is_finite() || weight < 0.0 {
        return Err(bad(
            format!("run item (key {key:#x}, weight {weight})"),
            "finite scores and finite weights >= 0",
        ));
    }
    let weight = weight + 0.0; // one bit pattern for zero
    let head = Head {
        key,
        weight_bits: weight.to_bits(),
        run: index,
    };
    if prev.is_some_and(|p| (key, head.weight_bits) > p) {
        return Err(bad(
            format!("stream {} out of order at key {key:#x}", run.stream),
            "runs sorted descending by (key, weight)",
        ));
    }
    Ok(Some(head))
}

/// Computes every slice's score metrics in one sweep over the runs.
///
/// `totals` must count exactly the rows the runs hold (checked per stream at the end).
///
/// # Errors
/// [`MetricError::Empty`] when there are no rows; [`MetricError::InvalidParameter`] for a run
/// out of order, a stream number beyond the slices' groups, an item that is not a finite score
/// with a finite weight `>= 0`, or runs that disagree with `totals`; any error a run's iterator
/// yields (e.g. a read error of a spilled file, wrapped by the caller).
///
/// # Example
/// ```
/// use fair_metrics::score_sweep::*;
/// // Two groups; group 0: negatives 0.1, 0.4, positive 0.8; group 1: negative 0.2, positive 0.3.
/// let mut streams: Vec<Vec<u64>> = vec![
///     vec![score_key(0.4), score_key(0.1)], vec![score_key(0.8)],
///     vec![score_key(0.2)], vec![score_key(0.3)],
/// ];
/// let mut totals = StreamTotals::new(false);
/// for (s, keys) in streams.iter_mut().enumerate() {
///     sort_keys(keys);
///     keys.iter().for_each(|_| totals.add(s, 1.0));
/// }
/// let runs = streams.iter().enumerate().map(|(s, k)| Run::from_sorted_keys(s, k)).collect();
/// let slice = SliceMap { names: vec!["a".into(), "b".into()], group_of: vec![0, 1] };
/// let settings = SweepSettings { interval: None, curve_points: 0 };
/// let out = sweep(&[slice], &totals, runs, &settings)?;
/// assert_eq!(out[0].auc_by_group, vec![Some(1.0), Some(1.0)]);
/// let ks = out[0].ks_dp.as_ref().unwrap();
/// // Above θ = 0.3: two thirds of group a (0.4, 0.8), none of group b.
/// assert!((ks.summary.max - 2.0 / 3.0).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn sweep(
    slices: &[SliceMap],
    totals: &StreamTotals,
    mut runs: Vec<Run<'_>>,
    settings: &SweepSettings,
) -> Result<Vec<SliceScores>> {
    let n_streams = totals.n_streams();
    if totals.total_rows() == 0 {
        return Err(MetricError::Empty { what: "score rows" });
    }
    let n_finest = n_streams.div_ceil(2);
    for s in slices {
        if s.group_of.len() < n_finest || s.group_of.iter().any(|&g| g >= s.names.len()) {
            return Err(bad(
                format!("a slice maps {} of {n_finest} groups", s.group_of.len()),
                "every finest group mapped to one of the slice's groups",
            ));
        }
    }
    if let Some(r) = runs.iter().find(|r| r.stream >= n_streams) {
        return Err(bad(
            format!("run of stream {}", r.stream),
            "stream numbers below the totals' stream count",
        ));
    }
    let mut states: Vec<slice::SliceState> = slices
        .iter()
        .map(|s| slice::SliceState::new(s, totals, settings))
        .collect();
    let mut pooled = slice::Pooled::new(totals);

    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (i, run) in runs.iter_mut().enumerate() {
        if let Some(h) = next_head(run, i, None)? {
            heap.push(h);
        }
    }
    // Block sums per stream, and which streams the current block touched.
    let mut block = vec![0.0_f64; n_streams];
    let mut touched: Vec<usize> = Vec::new();
    let mut seen = vec![0_u64; n_streams];
    while let Some(top) = heap.peek() {
        let key = top.key;
        touched.clear();
        while let Some(mut top) = heap.peek_mut() {
            if top.key != key {
                break;
            }
            let (run, weight_bits) = (top.run, top.weight_bits);
            let stream = runs[run].stream;
            if !touched.contains(&stream) {
                touched.push(stream);
            }
            block[stream] += f64::from_bits(weight_bits);
            seen[stream] += 1;
            // Replace the top in place (one sift) instead of a pop and a push (two).
            match next_head(&mut runs[run], run, Some((key, weight_bits)))? {
                Some(next) => *top = next,
                None => {
                    PeekMut::pop(top);
                }
            }
        }
        touched.sort_unstable();
        for st in &mut states {
            st.block(key, &touched, &block);
        }
        pooled.block(&touched, &block);
        for &s in &touched {
            block[s] = 0.0;
        }
    }
    if let Some(s) = (0..n_streams).find(|&s| seen[s] != totals.rows(s)) {
        return Err(bad(
            format!(
                "stream {s} holds {} rows, its totals count {}",
                seen[s],
                totals.rows(s)
            ),
            "runs holding exactly the rows counted in the totals",
        ));
    }
    let overall = pooled.auc();
    Ok(states
        .into_iter()
        .zip(slices)
        .map(|(st, s)| st.finish(s, overall))
        .collect())
}

#[cfg(test)]
mod tests;
