//! The sample's median score and each group's (weighted) count strictly above it — NYC Local
//! Law 144's scoring rate — in exact arithmetic, so any front end that sees the same rows gets
//! the same bits however it cut or ordered them.
//!
//! The median is [`sweep`](super::sweep)'s: without weights numpy's default (the mean of the two
//! middle order statistics for an even count, `b − (b − a)·½`), with weights the smallest score
//! whose weighted share at or below it reaches ½ (numpy's `inverted_cdf`; a score of weight 0 is
//! absent). Here the weighted test is exact — `2·W(> x) ≤ W`, on exact sums — where `sweep`
//! compares a running `f64` sum, and the counts above are exact sums rounded once.
//!
//! [`MedianSweep`] takes the scores as descending **pieces**: one distinct score with each
//! group's rows and exact weight sum, or a whole range of scores given only by those sums. A
//! range that holds the median's order statistics cannot be passed over: the sweep says so, and
//! the caller splits it into finer pieces (a Spark front end aggregates that range again by
//! score). A front end holding the rows sorted ([`median_cut_of_runs`]) hands every distinct
//! score as a piece.

use crate::error::{MetricError, Result};
use crate::score_sweep::{Run, StreamTotals, check_seen, key_score, merge_rows};
use crate::state::ExactSumParts;
use std::cmp::Ordering;

/// Rows and their exact weight sum (the rows as the weight when unweighted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupSum {
    /// Rows.
    pub rows: u64,
    /// The exact sum of their weights (unused without weights).
    pub weight: ExactSumParts,
}

impl GroupSum {
    /// Adds `other`'s rows and weights.
    ///
    /// # Errors
    /// As [`ExactSumParts::merge`].
    pub fn merge(&mut self, other: &GroupSum) -> Result<()> {
        self.rows += other.rows;
        self.weight.merge(&other.weight)
    }
}

/// Some consecutive scores of the sample, highest first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Piece {
    /// One distinct score.
    Score(f64),
    /// Every score `lo <= s < hi` (`lo` may be `-∞`, `hi` `+∞`), not told apart.
    Range {
        /// Lowest score it may hold.
        lo: f64,
        /// Every score is below it.
        hi: f64,
    },
}

/// The median and each group's count strictly above it.
#[derive(Debug, Clone, PartialEq)]
pub struct MedianCut {
    /// The sample's median score.
    pub median: f64,
    /// Per group: rows and (weighted) applicants strictly above the median (exact sum rounded
    /// once; the rows when unweighted).
    pub above: Vec<(u64, f64)>,
}

/// The exact median cut from descending pieces (see the module docs).
#[derive(Debug, Clone)]
pub struct MedianSweep {
    weighted: bool,
    rows: u64,
    total: ExactSumParts,
    /// Ascending 0-based positions of the two middle order statistics (unweighted).
    at: [u64; 2],
    values: [Option<f64>; 2],
    snaps: [Option<Vec<GroupSum>>; 2],
    above_rows: u64,
    above: ExactSumParts,
    group_above: Vec<GroupSum>,
}

impl MedianSweep {
    /// A sweep of the sample whose groups hold `totals` (rows and exact weights per group).
    ///
    /// # Errors
    /// [`MetricError::Empty`] without rows, [`MetricError::ZeroTotalWeight`] when weighted and
    /// every weight is 0, [`MetricError::InvalidParameter`] when the totals overflow.
    pub fn new(weighted: bool, totals: &[GroupSum]) -> Result<Self> {
        let mut rows = 0_u64;
        let mut total = ExactSumParts::new();
        for g in totals {
            rows += g.rows;
            total.merge(&g.weight)?;
        }
        if rows == 0 {
            return Err(MetricError::Empty { what: "scores" });
        }
        if weighted && total.total_cmp(&ExactSumParts::new()) != Ordering::Greater {
            return Err(MetricError::ZeroTotalWeight { what: "all rows" });
        }
        let lo = (rows - 1) / 2;
        Ok(Self {
            weighted,
            rows,
            total,
            at: [lo, (lo + 1).min(rows - 1)],
            values: [None; 2],
            snaps: [None, None],
            above_rows: 0,
            above: ExactSumParts::new(),
            group_above: vec![GroupSum::default(); totals.len()],
        })
    }

    /// Whether the weighted median lies in a piece of exact weight `w` below `self.above`:
    /// `2·above <= total < 2·(above + w)`.
    fn holds_weighted_median(&self, w: &ExactSumParts) -> Result<bool> {
        let mut twice = self.above.clone();
        twice.merge(&self.above)?;
        if twice.total_cmp(&self.total) == Ordering::Greater {
            return Ok(false);
        }
        let mut twice_after = twice;
        twice_after.merge(w)?;
        twice_after.merge(w)?;
        Ok(twice_after.total_cmp(&self.total) == Ordering::Greater)
    }

    /// Whether a piece of `m` rows just below the rows above holds a middle order statistic
    /// (unweighted): `[which]` flags.
    fn holds_positions(&self, m: u64) -> [bool; 2] {
        if m == 0 {
            return [false; 2];
        }
        let (lo, hi) = (
            self.rows - self.above_rows - m,
            self.rows - self.above_rows - 1,
        );
        self.at.map(|at| (lo..=hi).contains(&at))
    }

    /// Adds the next piece down: `groups` are `(group, rows and exact weight)` of its rows.
    /// Returns `false`, leaving the sweep unchanged, for a [`Piece::Range`] that holds the
    /// median (or one of its two middle order statistics): split it and add its parts instead.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for a group outside the totals, more rows than the
    /// totals counted, or an exact sum past its capacity.
    pub fn piece(&mut self, piece: Piece, groups: &[(usize, GroupSum)]) -> Result<bool> {
        let mut rows = 0_u64;
        let mut weight = ExactSumParts::new();
        for (g, s) in groups {
            if *g >= self.group_above.len() {
                return Err(MetricError::InvalidParameter {
                    name: "median pieces",
                    value: format!("group {g}"),
                    expected: "groups of the totals",
                });
            }
            rows += s.rows;
            weight.merge(&s.weight)?;
        }
        if self.above_rows + rows > self.rows {
            return Err(MetricError::InvalidParameter {
                name: "median pieces",
                value: format!("{} rows", self.above_rows + rows),
                expected: "no more rows than the totals count",
            });
        }
        let hits = if self.weighted {
            [self.holds_weighted_median(&weight)?, false]
        } else {
            self.holds_positions(rows)
        };
        match piece {
            Piece::Range { .. } if hits.iter().any(|&h| h) => return Ok(false),
            Piece::Range { .. } => {}
            Piece::Score(x) => {
                for (i, _) in hits.iter().enumerate().filter(|(_, h)| **h) {
                    self.values[i] = Some(x);
                    self.snaps[i] = Some(self.group_above.clone());
                }
            }
        }
        for (g, s) in groups {
            self.group_above[*g].merge(s)?;
        }
        self.above_rows += rows;
        self.above.merge(&weight)?;
        Ok(true)
    }

    /// The median and the counts above it, once the pieces holding it were added.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when the pieces did not reach the median.
    pub fn finish(self) -> Result<MedianCut> {
        let missing = || MetricError::InvalidParameter {
            name: "median pieces",
            value: format!("{} of {} rows swept", self.above_rows, self.rows),
            expected: "the pieces down to the median, split to single scores around it",
        };
        let (median, snap) = if self.weighted {
            (
                self.values[0].ok_or_else(missing)?,
                self.snaps[0].as_ref().ok_or_else(missing)?,
            )
        } else {
            let a = self.values[0].ok_or_else(missing)?;
            let b = self.values[1].ok_or_else(missing)?;
            // numpy's linear interpolation at h = (n − 1)/2, as `sweep`'s `Positions::value`.
            let median = if self.at[0] == self.at[1] || (self.rows - 1).is_multiple_of(2) {
                a
            } else {
                b - (b - a) * 0.5
            };
            // The rows above the median: above its upper order statistic when the median is
            // that statistic, else above the lower one (no score lies between).
            let snap = if median >= b {
                &self.snaps[1]
            } else {
                &self.snaps[0]
            };
            (median, snap.as_ref().ok_or_else(missing)?)
        };
        let above = snap
            .iter()
            .map(|g| {
                let w = if self.weighted {
                    g.weight.value()
                } else {
                    g.rows as f64
                };
                (g.rows, w)
            })
            .collect();
        Ok(MedianCut { median, above })
    }
}

/// [`MedianSweep`] over sorted runs (the score store of a command): every distinct score one
/// piece, its rows' weights summed exactly. Stream `s` is group `s / 2` (the label is ignored);
/// `groups` are each group's rows and exact weight sum (which the caller counted as it stored
/// the rows), `totals` the store's own (checked against the runs).
///
/// # Errors
/// As [`MedianSweep`], any error a run yields, and runs that disagree with `totals`.
///
/// # Example
/// ```
/// use fair_metrics::distribution::{GroupSum, median_cut_of_runs};
/// use fair_metrics::score_sweep::{Run, StreamTotals, score_key, sort_keys, stream_of};
/// // Group a: 0, 1; group b: 1, 2, 3 — pooled median 1, above it none of a and b's 2, 3.
/// let mut keys = vec![vec![score_key(0.0), score_key(1.0)],
///                     vec![score_key(1.0), score_key(2.0), score_key(3.0)]];
/// let mut totals = StreamTotals::new(false);
/// for (g, k) in keys.iter_mut().enumerate() {
///     sort_keys(k);
///     k.iter().for_each(|_| totals.add(stream_of(g, 0), 1.0));
/// }
/// let groups: Vec<GroupSum> = keys.iter().map(|k| GroupSum { rows: k.len() as u64, ..GroupSum::default() }).collect();
/// let runs = keys.iter().enumerate().map(|(g, k)| Run::from_sorted_keys(stream_of(g, 0), k)).collect();
/// let cut = median_cut_of_runs(&totals, &groups, runs)?;
/// assert_eq!(cut.median, 1.0);
/// assert_eq!(cut.above, vec![(0, 0.0), (2, 2.0)]);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn median_cut_of_runs(
    totals: &StreamTotals,
    groups: &[GroupSum],
    mut runs: Vec<Run<'_>>,
) -> Result<MedianCut> {
    /// One distinct score's rows per group, handed to the sweep at the key's end.
    struct Pieces {
        sweep: MedianSweep,
        block: Vec<GroupSum>,
        touched: Vec<usize>,
        error: Option<MetricError>,
    }
    impl crate::score_sweep::RowSink for Pieces {
        fn row(&mut self, _: u64, stream: usize, weight: f64) {
            let g = stream / 2;
            if g >= self.block.len() {
                self.error.get_or_insert(MetricError::InvalidParameter {
                    name: "median runs",
                    value: format!("stream {stream}"),
                    expected: "streams of the groups counted",
                });
                return;
            }
            if !self.touched.contains(&g) {
                self.touched.push(g);
            }
            let b = &mut self.block[g];
            b.rows += 1;
            if let Err(e) = b.weight.add(weight) {
                self.error.get_or_insert(e);
            }
        }
        fn key_end(&mut self, key: u64) {
            let groups: Vec<(usize, GroupSum)> = self
                .touched
                .drain(..)
                .map(|g| (g, std::mem::take(&mut self.block[g])))
                .collect();
            if self.error.is_none()
                && let Err(e) = self.sweep.piece(Piece::Score(key_score(key)), &groups)
            {
                self.error = Some(e);
            }
        }
    }
    let mut sink = Pieces {
        sweep: MedianSweep::new(totals.is_weighted(), groups)?,
        block: vec![GroupSum::default(); groups.len()],
        touched: Vec::new(),
        error: None,
    };
    let (seen, _) = merge_rows(&mut runs, totals.n_streams(), &mut sink)?;
    check_seen(&seen, totals)?;
    if let Some(e) = sink.error {
        return Err(e);
    }
    sink.sweep.finish()
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // compared with the f64 sweep's values, which must be the same bits
mod tests {
    use super::*;
    use crate::distribution::{DistributionSettings, sweep};
    use crate::score_sweep::{SliceMap, score_key, sort_weighted, stream_of};
    use proptest::prelude::*;

    /// Per stream, its sorted `(score key, weight)` rows.
    type Runs = Vec<Vec<(u64, f64)>>;

    /// Rows `(group, score, weight)` as runs, exact group totals and the store's totals.
    fn store(
        rows: &[(usize, f64, f64)],
        k: usize,
        weighted: bool,
    ) -> (Runs, Vec<GroupSum>, StreamTotals) {
        let mut streams = vec![Vec::new(); k];
        let mut groups = vec![GroupSum::default(); k];
        let mut totals = StreamTotals::new(weighted);
        for &(g, s, w) in rows {
            let w = if weighted { w } else { 1.0 };
            streams[g].push((score_key(s), w));
            groups[g].rows += 1;
            groups[g].weight.add(w).unwrap();
            totals.add(stream_of(g, 0), w);
        }
        streams.iter_mut().for_each(|s| sort_weighted(s));
        (streams, groups, totals)
    }

    fn cut_of(rows: &[(usize, f64, f64)], k: usize, weighted: bool) -> MedianCut {
        let (streams, groups, totals) = store(rows, k, weighted);
        let runs = streams
            .iter()
            .enumerate()
            .map(|(g, s)| Run::from_sorted_pairs(stream_of(g, 0), s))
            .collect();
        median_cut_of_runs(&totals, &groups, runs).unwrap()
    }

    /// The same rows as pieces: ranges of `width` distinct scores, split into single scores
    /// when the sweep asks, as a Spark front end refines a range.
    fn cut_by_ranges(
        rows: &[(usize, f64, f64)],
        k: usize,
        weighted: bool,
        width: usize,
    ) -> MedianCut {
        let (_, groups, _) = store(rows, k, weighted);
        let mut scores: Vec<f64> = rows.iter().map(|r| r.1).collect();
        scores.sort_by(|a, b| b.total_cmp(a));
        scores.dedup();
        let piece_of = |lo: f64, hi: f64| -> Vec<(usize, GroupSum)> {
            let mut by = vec![GroupSum::default(); k];
            for &(g, s, w) in rows {
                if s >= lo && s < hi {
                    by[g].rows += 1;
                    by[g].weight.add(if weighted { w } else { 1.0 }).unwrap();
                }
            }
            by.into_iter()
                .enumerate()
                .filter(|(_, s)| s.rows > 0)
                .collect()
        };
        let mut sweep = MedianSweep::new(weighted, &groups).unwrap();
        for chunk in scores.chunks(width) {
            let (hi, lo) = (chunk[0].next_up(), *chunk.last().unwrap());
            if !sweep
                .piece(Piece::Range { lo, hi }, &piece_of(lo, hi))
                .unwrap()
            {
                for &x in chunk {
                    assert!(
                        sweep
                            .piece(Piece::Score(x), &piece_of(x, x.next_up()))
                            .unwrap()
                    );
                }
            }
        }
        sweep.finish().unwrap()
    }

    #[test]
    fn unweighted_median_is_numpys_and_above_is_strict() {
        // 1, 2, 2, 3: median 2, above it one row (the 3).
        let rows = [(0, 1.0, 1.0), (0, 2.0, 1.0), (1, 2.0, 1.0), (1, 3.0, 1.0)];
        let c = cut_of(&rows, 2, false);
        assert_eq!(c.median, 2.0);
        assert_eq!(c.above, vec![(0, 0.0), (1, 1.0)]);
        // 1, 2, 3, 4: median 2.5, above it the 3 and the 4.
        let rows = [(0, 1.0, 1.0), (0, 2.0, 1.0), (1, 3.0, 1.0), (1, 4.0, 1.0)];
        let c = cut_of(&rows, 2, false);
        assert_eq!(c.median, 2.5);
        assert_eq!(c.above, vec![(0, 0.0), (2, 2.0)]);
    }

    #[test]
    fn weighted_median_is_the_inverted_cdf() {
        // Weights 1, 1, 2 on 1, 2, 3: the share at or below 2 is 1/2: median 2, above it 2.
        let rows = [(0, 1.0, 1.0), (0, 2.0, 1.0), (1, 3.0, 2.0)];
        let c = cut_of(&rows, 2, true);
        assert_eq!(c.median, 2.0);
        assert_eq!(c.above, vec![(0, 0.0), (1, 2.0)]);
        // A score of weight 0 is absent: weights 1, 0, 1 on 1, 2, 3 give median 1.
        let rows = [(0, 1.0, 1.0), (0, 2.0, 0.0), (1, 3.0, 1.0)];
        assert_eq!(cut_of(&rows, 2, true).median, 1.0);
        assert!(matches!(
            MedianSweep::new(
                true,
                &[GroupSum {
                    rows: 2,
                    ..GroupSum::default()
                }]
            ),
            Err(MetricError::ZeroTotalWeight { .. })
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever ranges the scores come in, the cut is the one of the sorted rows; the
        /// median is the f64 sweep's (unweighted also the counts above it, which are integers).
        #[test]
        fn ranges_give_the_cut_of_the_rows(
            rows in prop::collection::vec((0..3_usize, 0..12_u8, 0..5_u8), 1..60),
            width in 1..6_usize,
            weighted in any::<bool>(),
        ) {
            let rows: Vec<(usize, f64, f64)> = rows.iter()
                .map(|&(g, s, w)| (g, f64::from(s) * 0.25, f64::from(w) * 0.1)).collect();
            let total: f64 = rows.iter().map(|r| r.2).sum();
            prop_assume!(!weighted || total > 0.0);
            let c = cut_of(&rows, 3, weighted);
            prop_assert_eq!(&cut_by_ranges(&rows, 3, weighted, width), &c);
            if !weighted {
                let (streams, _, totals) = store(&rows, 3, false);
                let runs = streams.iter().enumerate()
                    .map(|(g, s)| Run::from_sorted_pairs(stream_of(g, 0), s)).collect();
                let slice = SliceMap { names: vec!["a".into(), "b".into(), "c".into()], group_of: vec![0, 1, 2] };
                let settings = DistributionSettings { quantile: 0.5, curve_points: 0 };
                let d = sweep(&[slice], &totals, runs, &settings).unwrap().pop().unwrap();
                prop_assert_eq!(d.quantiles.pooled_median, c.median);
                let above: Vec<f64> = c.above.iter().map(|a| a.1).collect();
                prop_assert_eq!(d.quantiles.above_median, above);
            }
        }
    }
}
