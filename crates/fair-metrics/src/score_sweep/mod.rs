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

mod counted;
mod median_cut;
mod slice;

use crate::error::{MetricError, Result};
use crate::partial::PercentileInterval;
use crate::state::ExactSum;
use crate::state::codec::{Reader, Writer};
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;

pub use crate::sorted_scores::{key_score, score_key};
pub use counted::{ScaledSum, ScoreCell, counted_totals, sweep_counted};
pub use slice::{EffectiveN, PairGaps, SliceScores};

const TOTALS_MAGIC: &[u8; 4] = b"FKST";
const SEGMENT_MAGIC: &[u8; 4] = b"FKSG";
/// Version 2: segments carry curve pieces (and their `curve_points`); version 3: the median's
/// order statistics and each slice's sums above them (the scoring rate).
const SEGMENT_VERSION: u8 = 3;

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

    /// Counts `rows` rows of `stream` at once (unweighted totals; see
    /// [`sweep_counted`]).
    pub(crate) fn add_rows(&mut self, stream: usize, rows: u64) {
        self.grow(stream);
        self.rows[stream] += rows;
    }

    /// Counts `rows` rows of `stream` whose weights and squares sum exactly to `weight` and
    /// `weight_sq` (weighted totals; see [`sweep_counted`]).
    pub(crate) fn add_exact(
        &mut self,
        stream: usize,
        rows: u64,
        weight: &ExactSum,
        weight_sq: &ExactSum,
    ) {
        self.grow(stream);
        self.rows[stream] += rows;
        self.weight[stream].merge(weight);
        self.weight_sq[stream].merge(weight_sq);
    }

    /// Rows of a stream.
    pub fn rows(&self, stream: usize) -> u64 {
        self.rows.get(stream).copied().unwrap_or(0)
    }

    /// All rows.
    pub fn total_rows(&self) -> u64 {
        self.rows.iter().sum()
    }

    /// Adds the totals of other rows (e.g. another partition's): row counts add, the exact
    /// weight sums merge exactly, so any grouping of the rows gives the same totals.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when one is weighted and the other not, or a row count
    /// overflows.
    pub fn merge(&mut self, other: &StreamTotals) -> Result<()> {
        if other.rows.len() > self.rows.len() {
            self.grow(other.rows.len() - 1);
        }
        if other.total_rows() == 0 {
            return Ok(());
        }
        if self.total_rows() == 0 && self.weighted != other.weighted {
            // No rows yet: take the other's kind.
            self.weighted = other.weighted;
            let n = if self.weighted { self.rows.len() } else { 0 };
            self.weight = vec![ExactSum::default(); n];
            self.weight_sq = vec![ExactSum::default(); n];
        } else if self.weighted != other.weighted {
            return Err(bad(
                "weighted and unweighted stream totals".into(),
                "totals of the same kind (all weighted or all unweighted)",
            ));
        }
        for (s, &n) in other.rows.iter().enumerate() {
            self.rows[s] = self.rows[s]
                .checked_add(n)
                .ok_or_else(|| bad(format!("stream {s} row count"), "counts below 2^64"))?;
            if self.weighted {
                self.weight[s].merge(&other.weight[s]);
                self.weight_sq[s].merge(&other.weight_sq[s]);
            }
        }
        Ok(())
    }

    /// The same totals with stream `s` numbered `new_of[s]`: how a front end that numbered its
    /// groups as they came (a file read once) gives them a canonical order before the sweep,
    /// whose sums over several streams add in stream order.
    ///
    /// # Example
    /// ```
    /// use fair_metrics::score_sweep::StreamTotals;
    /// let mut t = StreamTotals::new(false);
    /// t.add(0, 1.0);
    /// t.add(1, 1.0);
    /// t.add(1, 1.0);
    /// let swapped = t.renumbered(&[1, 0])?;
    /// assert_eq!((swapped.rows(0), swapped.rows(1)), (2, 1));
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when `new_of` does not number every stream or numbers
    /// two alike.
    pub fn renumbered(&self, new_of: &[usize]) -> Result<StreamTotals> {
        let n = self.rows.len();
        let mut taken = vec![false; new_of.iter().max().map_or(0, |&m| m + 1)];
        for &t in new_of.iter().take(n) {
            if std::mem::replace(&mut taken[t], true) {
                return Err(bad(
                    format!("stream {t} given twice"),
                    "distinct new stream numbers",
                ));
            }
        }
        if new_of.len() < n {
            return Err(bad(
                format!("{} new numbers for {n} streams", new_of.len()),
                "a new number for every stream",
            ));
        }
        let mut out = StreamTotals::new(self.weighted);
        for (s, &t) in new_of.iter().enumerate().take(n) {
            out.grow(t);
            out.rows[t] = self.rows[s];
            if self.weighted {
                out.weight[t] = self.weight[s].clone();
                out.weight_sq[t] = self.weight_sq[s].clone();
            }
        }
        Ok(out)
    }

    /// The totals of some streams only, renumbered: new stream `i` is old stream
    /// `streams[i]` (a stream beyond the totals counts no rows). For sweeping a subset of the
    /// runs (a `--by` window's rows).
    ///
    /// ```
    /// use fair_metrics::score_sweep::StreamTotals;
    /// let mut t = StreamTotals::new(false);
    /// t.add(0, 1.0);
    /// t.add(2, 1.0);
    /// t.add(2, 1.0);
    /// let s = t.subset(&[2, 1]);
    /// assert_eq!((s.rows(0), s.rows(1), s.total_rows()), (2, 0, 2));
    /// ```
    pub fn subset(&self, streams: &[usize]) -> StreamTotals {
        let mut out = StreamTotals::new(self.weighted);
        if !streams.is_empty() {
            out.grow(streams.len() - 1);
        }
        for (t, &s) in streams.iter().enumerate() {
            if s < self.rows.len() {
                out.rows[t] = self.rows[s];
                if self.weighted {
                    out.weight[t] = self.weight[s].clone();
                    out.weight_sq[t] = self.weight_sq[s].clone();
                }
            }
        }
        out
    }

    /// Canonical bytes (for shipping between processes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(TOTALS_MAGIC, 1);
        w.u8(u8::from(self.weighted));
        w.u64(self.rows.len() as u64);
        for (s, &n) in self.rows.iter().enumerate() {
            w.u64(n);
            if self.weighted {
                w.bytes(&self.weight[s].to_bytes());
                w.bytes(&self.weight_sq[s].to_bytes());
            }
        }
        w.finish()
    }

    /// Totals from [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`MetricError::Decode`] for anything else (wrong magic or version, truncated, trailing
    /// bytes, a corrupt exact sum).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TOTALS_MAGIC, 1, "score stream totals")?;
        let weighted = match r.u8()? {
            0 => false,
            1 => true,
            b => return Err(r.error(format!("flag byte {b}"))),
        };
        let n = r.len()?;
        let mut out = Self::new(weighted);
        for s in 0..n {
            out.grow(s);
            out.rows[s] = r.u64()?;
            if weighted {
                out.weight[s] = r.exact_sum()?;
                out.weight_sq[s] = r.exact_sum()?;
            }
        }
        r.finish()?;
        Ok(out)
    }

    /// The exact weight sum of one stream (zero for a stream beyond the totals or unweighted
    /// totals).
    pub(crate) fn weight_sum(&self, stream: usize) -> ExactSum {
        self.weight.get(stream).cloned().unwrap_or_default()
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
    /// The resolution of each group's downsampled ROC and CCDF curves (0 = no curves).
    ///
    /// **Grid rule.** With cells `floor(coordinate · curve_points + ½)` on the monotone
    /// coordinates (FPR and TPR for ROC; the CCDF value for CCDF), a point is kept when it lies
    /// in a different cell from the point drawn immediately before it (ROC is drawn in sweep
    /// order from (0, 0); CCDF ascending in score), and the first and last drawn points are
    /// always kept. The rule needs only a point and its neighbour, so a segment sweep applies it
    /// exactly (see [`SegmentScores`]); the ½ puts 0 and 1, which weighted sums reach only up to
    /// rounding, mid-cell rather than on a grid line. Each kept point moves to a later cell, so
    /// a ROC curve keeps at most `2 · curve_points + 2` points and a CCDF at most
    /// `curve_points + 2` (merged weighted segments: at most two more ROC points and one more
    /// CCDF point per segment boundary). A group without positives or negatives has no ROC; a
    /// group without rows (or of zero total weight) has no CCDF.
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
    check_inputs(slices, totals, &runs)?;
    let mut states: Vec<slice::SliceState> = slices
        .iter()
        .map(|s| slice::SliceState::new(s, totals, settings))
        .collect();
    let mut pooled = slice::Pooled::new(totals);
    let (seen, _) = run_blocks(&mut states, &mut pooled, &mut runs, n_streams)?;
    check_seen(&seen, totals)?;
    let overall = pooled.auc();
    let median = median_cut::PooledMedian::finish(
        totals.is_weighted(),
        totals.total_rows(),
        pooled.median.values,
    );
    Ok(states
        .into_iter()
        .zip(slices)
        .map(|(st, s)| st.finish(s, overall, median))
        .collect())
}

/// Checks shared by [`sweep`] and [`sweep_segment`].
fn check_inputs(slices: &[SliceMap], totals: &StreamTotals, runs: &[Run<'_>]) -> Result<()> {
    let n_streams = totals.n_streams();
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
    Ok(())
}

pub(crate) fn check_seen(seen: &[u64], totals: &StreamTotals) -> Result<()> {
    if let Some(s) =
        (0..totals.n_streams()).find(|&s| seen.get(s).copied().unwrap_or(0) != totals.rows(s))
    {
        return Err(bad(
            format!(
                "stream {s} holds {} rows, its totals count {}",
                seen.get(s).copied().unwrap_or(0),
                totals.rows(s)
            ),
            "runs holding exactly the rows counted in the totals",
        ));
    }
    Ok(())
}

/// Rows seen per stream, and the (highest, lowest) key met.
type Swept = (Vec<u64>, Option<(u64, u64)>);

/// The k-way merge of the runs, one block per distinct key, descending.
fn run_blocks(
    states: &mut [slice::SliceState],
    pooled: &mut slice::Pooled,
    runs: &mut [Run<'_>],
    n_streams: usize,
) -> Result<Swept> {
    merge_blocks(runs, n_streams, |key, touched, block| {
        feed_block(states, pooled, key, touched, block);
    })
}

/// The k-way merge of the runs: calls `on_block(key, touched, block)` once per distinct key,
/// descending, with the streams the key's rows belong to (in first-met order; the callback may
/// sort them) and each stream's sum of weights at the key in `block`, which the callback must
/// leave zeroed for the streams it was given. Shared by the score sweep and the distribution
/// sweep ([`crate::distribution::sweep`]), so both see the same blocks in the same order.
pub(crate) fn merge_blocks(
    runs: &mut [Run<'_>],
    n_streams: usize,
    on_block: impl FnMut(u64, &mut [usize], &mut [f64]),
) -> Result<Swept> {
    /// Block sums per stream, and which streams the current block touched.
    struct Blocks<F> {
        block: Vec<f64>,
        touched: Vec<usize>,
        on_block: F,
    }
    impl<F: FnMut(u64, &mut [usize], &mut [f64])> RowSink for Blocks<F> {
        #[inline]
        fn row(&mut self, _: u64, stream: usize, weight: f64) {
            if !self.touched.contains(&stream) {
                self.touched.push(stream);
            }
            self.block[stream] += weight;
        }
        #[inline]
        fn key_end(&mut self, key: u64) {
            (self.on_block)(key, &mut self.touched, &mut self.block);
            self.touched.clear();
        }
    }
    let mut sink = Blocks {
        block: vec![0.0_f64; n_streams],
        touched: Vec::new(),
        on_block,
    };
    merge_rows(runs, n_streams, &mut sink)
}

/// What [`merge_rows`] hands each row and each key's end to.
pub(crate) trait RowSink {
    /// One row: its key, stream and weight.
    fn row(&mut self, key: u64, stream: usize, weight: f64);
    /// The last row of `key` was met.
    fn key_end(&mut self, key: u64);
}

/// The k-way merge of the runs row by row: `sink.row(key, stream, weight)` for every row,
/// descending by key (within a key, in heap order), then `sink.key_end(key)` once the key's
/// last row is met. The rows one at a time, for sums that must not round per block (the exact
/// median cut, [`crate::distribution::median_cut_of_runs`]).
pub(crate) fn merge_rows(
    runs: &mut [Run<'_>],
    n_streams: usize,
    sink: &mut impl RowSink,
) -> Result<Swept> {
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (i, run) in runs.iter_mut().enumerate() {
        if let Some(h) = next_head(run, i, None)? {
            heap.push(h);
        }
    }
    let mut seen = vec![0_u64; n_streams];
    let mut range: Option<(u64, u64)> = None;
    while let Some(top) = heap.peek() {
        let key = top.key;
        range = Some(range.map_or((key, key), |(hi, _)| (hi, key)));
        while let Some(mut top) = heap.peek_mut() {
            if top.key != key {
                break;
            }
            let (run, weight_bits) = (top.run, top.weight_bits);
            let stream = runs[run].stream;
            sink.row(key, stream, f64::from_bits(weight_bits));
            seen[stream] += 1;
            // Replace the top in place (one sift) instead of a pop and a push (two).
            match next_head(&mut runs[run], run, Some((key, weight_bits)))? {
                Some(next) => *top = next,
                None => {
                    PeekMut::pop(top);
                }
            }
        }
        sink.key_end(key);
    }
    Ok((seen, range))
}

/// Hands one distinct key's block (the sums of the streams `touched`) to every slice and the
/// pooled AUC, then clears it for the next key.
#[inline]
fn feed_block(
    states: &mut [slice::SliceState],
    pooled: &mut slice::Pooled,
    key: u64,
    touched: &mut [usize],
    block: &mut [f64],
) {
    touched.sort_unstable();
    // The median first: the slices snapshot their sums before the block when it holds it.
    let hit = pooled.median.block(key_score(key), touched, block);
    for st in states.iter_mut() {
        st.block(key, touched, block, hit);
    }
    pooled.block(touched, block);
    for &s in touched.iter() {
        block[s] = 0.0;
    }
}

/// The blocks of counted cells, `(stream, key, rows, block sum)` sorted by key descending with
/// at most one cell per (stream, key): the same blocks [`run_blocks`] builds from the rows, in
/// O(cells) instead of O(rows).
fn counted_blocks(
    states: &mut [slice::SliceState],
    pooled: &mut slice::Pooled,
    cells: &[(usize, u64, u64, f64)],
    n_streams: usize,
) -> Swept {
    let mut block = vec![0.0_f64; n_streams];
    let mut touched: Vec<usize> = Vec::new();
    let mut seen = vec![0_u64; n_streams];
    let range = cells.first().zip(cells.last()).map(|(hi, lo)| (hi.1, lo.1));
    for same_key in cells.chunk_by(|a, b| a.1 == b.1) {
        touched.clear();
        for &(stream, _, rows, sum) in same_key {
            touched.push(stream);
            block[stream] += sum;
            seen[stream] += rows;
        }
        feed_block(states, pooled, same_key[0].1, &mut touched, &mut block);
    }
    (seen, range)
}

/// Sweeps counted blocks as one segment with nothing above (see [`counted_blocks`]).
pub(super) fn sweep_counted_blocks(
    slices: &[SliceMap],
    totals: &StreamTotals,
    cells: &[(usize, u64, u64, f64)],
    settings: &SweepSettings,
) -> Result<SegmentScores> {
    let n_streams = totals.n_streams();
    check_inputs(slices, totals, &[])?;
    if let Some(c) = cells.iter().find(|c| c.0 >= n_streams) {
        return Err(bad(
            format!("cell of stream {}", c.0),
            "stream numbers below the totals' stream count",
        ));
    }
    let above = StreamTotals::new(totals.is_weighted());
    segment_of_blocks(slices, totals, &above, settings, |states, pooled| {
        Ok(counted_blocks(states, pooled, cells, n_streams))
    })
}

/// One segment's share of a [`sweep`]: the sweep of the rows whose scores fall in one key range
/// of a partition of all rows into disjoint ranges (e.g. one range partition of a Spark
/// DataFrame). Merge the segments from the highest range down with
/// [`merge_lower`](Self::merge_lower) and [`finish`](Self::finish) the result.
///
/// **Equal to the one-pass sweep.** A segment starts from the running sums of every row above
/// it (`above`, the merged [`StreamTotals`] of the higher segments) and evaluates every pair at
/// its first key; pair bests merge by "strictly greater wins, ties keep the higher threshold",
/// which is the rule of the one-pass sweep, and AUC sums add. Unweighted, every running sum is an
/// integer, so the merged result equals [`sweep`] **bit for bit** (AUC sums are exact while
/// `positives × negatives < 2^53` per group, as in one pass). Weighted, the running sums start
/// from exactly rounded totals instead of a running `f64` sum, which can move the last bits.
///
/// **Curves.** With `curve_points > 0` a segment keeps its piece of every group's ROC and CCDF
/// curve, downsampled by the grid rule of [`SweepSettings::curve_points`], which needs only a
/// point and its neighbour (the state above a segment is its `above` totals). Merging
/// concatenates the pieces from the top; each piece's last point is held back and dropped when
/// a lower segment brings a point of the same curve, as the one-pass sweep drops it. So the
/// merged curves equal [`sweep`]'s bit for bit when unweighted. Weighted, the coordinates differ
/// in the last bits like the other numbers (scores are exact), and a point whose coordinate lies
/// within that rounding of a grid line `i / curve_points` can be kept in one and dropped in the
/// other (per segment boundary at most one such CCDF point and two such ROC points).
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentScores {
    /// The `curve_points` the segment was swept with (segments of different ones do not merge).
    curve_points: u64,
    slices: Vec<slice::SlicePartial>,
    pooled_acc: f64,
    /// The pooled median's order statistics (or last candidate) met in the segment.
    median: [Option<f64>; 2],
    seen: Vec<u64>,
    /// (highest, lowest) key of the segment's rows; `None` for an empty segment.
    range: Option<(u64, u64)>,
}

/// Sweeps one segment (see [`SegmentScores`]): `totals` are the totals of **all** rows (every
/// segment), `above` those of the rows in higher segments.
///
/// # Errors
/// As [`sweep`], plus [`MetricError::InvalidParameter`] when `above` is weighted differently
/// from `totals`.
pub fn sweep_segment(
    slices: &[SliceMap],
    totals: &StreamTotals,
    above: &StreamTotals,
    mut runs: Vec<Run<'_>>,
    settings: &SweepSettings,
) -> Result<SegmentScores> {
    if above.total_rows() > 0 && above.is_weighted() != totals.is_weighted() {
        return Err(bad(
            "weighted and unweighted stream totals".into(),
            "totals of the same kind",
        ));
    }
    if above.n_streams() > totals.n_streams() {
        return Err(bad(
            format!(
                "{} streams above, {} in all",
                above.n_streams(),
                totals.n_streams()
            ),
            "the rows above counted among all rows",
        ));
    }
    check_inputs(slices, totals, &runs)?;
    let n_streams = totals.n_streams();
    segment_of_blocks(slices, totals, above, settings, |states, pooled| {
        run_blocks(states, pooled, &mut runs, n_streams)
    })
}

/// A segment from its blocks: every slice's state and the pooled AUC start from `above`, and
/// `blocks` feeds them the distinct keys, descending (a k-way merge of runs, or counted cells),
/// returning the rows it saw per stream and its key range.
fn segment_of_blocks(
    slices: &[SliceMap],
    totals: &StreamTotals,
    above: &StreamTotals,
    settings: &SweepSettings,
    blocks: impl FnOnce(&mut [slice::SliceState], &mut slice::Pooled) -> Result<Swept>,
) -> Result<SegmentScores> {
    let mut states: Vec<slice::SliceState> = slices
        .iter()
        .map(|s| {
            let mut st = slice::SliceState::new(s, totals, settings);
            st.start_below(s, above);
            st
        })
        .collect();
    let mut pooled = slice::Pooled::new(totals);
    pooled.start_below(above);
    let (seen, range) = blocks(&mut states, &mut pooled)?;
    Ok(SegmentScores {
        curve_points: settings.curve_points as u64,
        slices: states
            .into_iter()
            .map(slice::SliceState::into_partial)
            .collect(),
        pooled_acc: pooled.acc,
        median: pooled.median.values,
        seen,
        range,
    })
}

impl SegmentScores {
    /// Adds the segment of the next lower key range.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when the segments overlap or come out of order, or
    /// were swept with different slices or `curve_points`.
    pub fn merge_lower(&mut self, lower: &SegmentScores) -> Result<()> {
        if self.slices.len() != lower.slices.len() {
            return Err(bad(
                "segments of different slices".into(),
                "segments swept with the same slices",
            ));
        }
        if self.curve_points != lower.curve_points {
            return Err(bad(
                format!(
                    "segments swept with curve_points {} and {}",
                    self.curve_points, lower.curve_points
                ),
                "segments swept with the same settings",
            ));
        }
        if let (Some((_, low)), Some((high, _))) = (self.range, lower.range)
            && high >= low
        {
            return Err(bad(
                format!("a segment with keys up to {high:#x} below one down to {low:#x}"),
                "disjoint key ranges merged from the highest down",
            ));
        }
        for (a, b) in self.slices.iter_mut().zip(&lower.slices) {
            a.absorb_lower(b)?;
        }
        self.pooled_acc += lower.pooled_acc;
        median_cut::absorb_lower(&mut self.median, &lower.median);
        if lower.seen.len() > self.seen.len() {
            self.seen.resize(lower.seen.len(), 0);
        }
        for (a, &b) in self.seen.iter_mut().zip(&lower.seen) {
            *a = a
                .checked_add(b)
                .ok_or_else(|| bad("segment row counts".into(), "counts below 2^64"))?;
        }
        self.range = match (self.range, lower.range) {
            (Some((high, _)), Some((_, low))) => Some((high, low)),
            (a, b) => a.or(b),
        };
        Ok(())
    }

    /// The scores of every slice, once all segments are merged.
    ///
    /// # Errors
    /// [`MetricError::Empty`] when there are no rows; [`MetricError::InvalidParameter`] when the
    /// merged segments do not hold exactly the rows `totals` counts (a segment lost or merged
    /// twice) or were swept with other slices or another `settings.curve_points`.
    pub fn finish(
        self,
        slices: &[SliceMap],
        totals: &StreamTotals,
        settings: &SweepSettings,
    ) -> Result<Vec<SliceScores>> {
        if totals.total_rows() == 0 {
            return Err(MetricError::Empty { what: "score rows" });
        }
        check_inputs(slices, totals, &[])?;
        check_seen(&self.seen, totals)?;
        if self.slices.len() != slices.len() {
            return Err(bad(
                format!("segments of {} slices", self.slices.len()),
                "segments swept with these slices",
            ));
        }
        if self.curve_points != settings.curve_points as u64 {
            return Err(bad(
                format!("segments swept with curve_points {}", self.curve_points),
                "the curve_points the segments were swept with",
            ));
        }
        let mut pooled = slice::Pooled::new(totals);
        pooled.acc = self.pooled_acc;
        let overall = pooled.auc();
        let median = median_cut::PooledMedian::finish(
            totals.is_weighted(),
            totals.total_rows(),
            self.median,
        );
        self.slices
            .into_iter()
            .zip(slices)
            .map(|(partial, map)| {
                Ok(slice::SliceState::new(map, totals, settings)
                    .with_partial(partial)?
                    .finish(map, overall, median))
            })
            .collect()
    }

    /// Canonical bytes (for shipping between processes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(SEGMENT_MAGIC, SEGMENT_VERSION);
        w.u64(self.curve_points);
        w.u64(self.slices.len() as u64);
        for s in &self.slices {
            s.write(&mut w);
        }
        w.f64(self.pooled_acc);
        median_cut::write_values(&self.median, &mut w);
        w.u64(self.seen.len() as u64);
        for &n in &self.seen {
            w.u64(n);
        }
        w.u8(u8::from(self.range.is_some()));
        let (high, low) = self.range.unwrap_or((0, 0));
        w.u64(high);
        w.u64(low);
        w.finish()
    }

    /// A segment from [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`MetricError::Decode`] for anything else.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, SEGMENT_MAGIC, SEGMENT_VERSION, "score segment")?;
        let curve_points = r.u64()?;
        let n = r.len()?;
        let slices = (0..n)
            .map(|_| slice::SlicePartial::read(&mut r))
            .collect::<Result<Vec<_>>>()?;
        let pooled_acc = r.f64()?;
        // +inf is a sum that overflowed (weights near f64::MAX): the one-pass sweep reports
        // that AUC as undefined, and so must the merged segments.
        if pooled_acc.is_nan() || pooled_acc < 0.0 {
            return Err(r.error("a negative or NaN AUC sum".into()));
        }
        let median = median_cut::read_values(&mut r)?;
        let m = r.len()?;
        let seen = (0..m).map(|_| r.u64()).collect::<Result<Vec<_>>>()?;
        let has = r.u8()?;
        let (high, low) = (r.u64()?, r.u64()?);
        let range = match has {
            0 => None,
            1 if high >= low => Some((high, low)),
            _ => return Err(r.error("an invalid key range".into())),
        };
        r.finish()?;
        Ok(Self {
            curve_points,
            slices,
            pooled_acc,
            median,
            seen,
            range,
        })
    }
}

/// The rows of one segment (or of one machine) gathered for a [`sweep_segment`]: validated
/// batches of (label, score, finest group, weight), kept per stream, with their totals. With
/// `keep_rows = false` only the totals are kept (the first pass of a distributed sweep, which
/// only needs every segment's totals).
#[derive(Debug, Clone)]
pub struct SegmentRows {
    keep_rows: bool,
    streams: Vec<Vec<(u64, f64)>>,
    totals: StreamTotals,
}

impl SegmentRows {
    /// An empty segment; `weighted` says whether batches carry weights.
    pub fn new(weighted: bool, keep_rows: bool) -> Self {
        Self {
            keep_rows,
            streams: Vec::new(),
            totals: StreamTotals::new(weighted),
        }
    }

    /// Adds one batch: 0/1 labels, finite scores, finest group codes, and finite `>= 0` weights
    /// when weighted. Row numbers in errors count within the batch; on error nothing is added.
    ///
    /// # Errors
    /// [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`],
    /// [`MetricError::NonFinite`] for a NaN or infinite score or weight,
    /// [`MetricError::NegativeWeight`], and [`MetricError::InvalidParameter`] for weights given
    /// to an unweighted segment or missing from a weighted one.
    pub fn add_batch(
        &mut self,
        labels: &[usize],
        scores: &[f64],
        groups: &[usize],
        weights: Option<&[f64]>,
    ) -> Result<()> {
        let n = labels.len();
        for (what, len) in [("scores", scores.len()), ("group codes", groups.len())]
            .into_iter()
            .chain(weights.map(|w| ("sample weights", w.len())))
        {
            if len != n {
                return Err(MetricError::LengthMismatch {
                    what,
                    expected: n,
                    got: len,
                });
            }
        }
        if weights.is_some() != self.totals.is_weighted() {
            return Err(bad(
                format!("weights given: {}", weights.is_some()),
                "weights in every batch of a weighted segment, and only there",
            ));
        }
        for i in 0..n {
            if labels[i] > 1 {
                return Err(MetricError::LabelOutOfRange {
                    what: "labels",
                    row: i,
                    label: labels[i],
                    n_classes: 2,
                });
            }
            if !scores[i].is_finite() {
                return Err(MetricError::NonFinite {
                    what: "scores",
                    row: i,
                    value: scores[i],
                });
            }
            if let Some(w) = weights
                && !(w[i].is_finite() && w[i] >= 0.0)
            {
                return Err(if w[i].is_finite() {
                    MetricError::NegativeWeight {
                        row: i,
                        value: w[i],
                    }
                } else {
                    MetricError::NonFinite {
                        what: "sample weights",
                        row: i,
                        value: w[i],
                    }
                });
            }
        }
        for i in 0..n {
            let stream = groups[i]
                .checked_mul(2)
                .and_then(|s| s.checked_add(labels[i]))
                .ok_or_else(|| {
                    bad(
                        format!("group code {}", groups[i]),
                        "a group code below 2^62",
                    )
                })?;
            let w = weights.map_or(1.0, |w| w[i] + 0.0);
            self.totals.add(stream, w);
            if self.keep_rows {
                if stream >= self.streams.len() {
                    self.streams.resize(stream + 1, Vec::new());
                }
                self.streams[stream].push((score_key(scores[i]), w));
            }
        }
        Ok(())
    }

    /// The totals of the rows added.
    pub fn totals(&self) -> &StreamTotals {
        &self.totals
    }

    /// Sorts the kept rows and sweeps them as one segment (see [`sweep_segment`]).
    ///
    /// # Errors
    /// As [`sweep_segment`].
    pub fn sweep(
        mut self,
        slices: &[SliceMap],
        totals: &StreamTotals,
        above: &StreamTotals,
        settings: &SweepSettings,
    ) -> Result<SegmentScores> {
        for rows in &mut self.streams {
            sort_weighted(rows);
        }
        let runs = self
            .streams
            .iter()
            .enumerate()
            .filter(|(_, rows)| !rows.is_empty())
            .map(|(s, rows)| Run::from_sorted_pairs(s, rows))
            .collect();
        sweep_segment(slices, totals, above, runs, settings)
    }
}

#[cfg(test)]
mod tests;
