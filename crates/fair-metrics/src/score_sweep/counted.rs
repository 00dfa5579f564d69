//! The sweep of score rows counted elsewhere: one cell per (stream, score) — or several, when the
//! counting split a score's rows further (Spark SQL splits them by the weights' binary exponent)
//! — with its row count and, when weighted, the exact sums of its weights and of their `f64`
//! squares as integers times powers of two. A front end that can group rows by score without
//! handing every row over (Spark SQL's `groupBy`, when the scores take few distinct values)
//! gets every score metric from the cells alone.
//!
//! **Equal to the sweep of the rows.** The sweep consumes each distinct score as one block, so
//! it needs per (stream, score) only the row count and the block's weight sum. Unweighted, the
//! block sum is the row count, an integer: the result equals [`sweep`](super::sweep) of the
//! rows **bit for bit** (and the totals' bytes are equal). Weighted, the totals are exact and
//! equal to the rows' byte for byte, and the block sum is the exact sum rounded once, where the
//! row sweep adds the tied weights one by one: with ties, the last bits can differ (as between
//! the distributed range sweep and one pass, [`SegmentScores`]).

use super::{SegmentScores, SliceMap, StreamTotals, SweepSettings, bad};
use crate::error::Result;
use crate::state::{ExactSum, ExactSumParts};

/// `integer × 2^exponent`: an exact sum of `f64` values given by its integer parts (see
/// [`ExactSumParts::add_scaled`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScaledSum {
    /// The integer.
    pub integer: u128,
    /// The power of two (at least -1074).
    pub exponent: i32,
}

/// What one counted cell holds: rows of one stream sharing one score.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreCell {
    /// The stream, [`stream_of`](super::stream_of)`(finest group, label)`.
    pub stream: usize,
    /// The rows' score (finite; `-0.0` and `0.0` are one score).
    pub score: f64,
    /// Rows (at least one).
    pub rows: u64,
    /// When weighted: the exact sum of the rows' weights (finite, `>= 0`), and of their `f64`
    /// squares (`None`: some square overflowed to `+inf`).
    pub weights: Option<(ScaledSum, Option<ScaledSum>)>,
}

/// Refuses a cell without rows, with a non-finite score, or with weights exactly when the sweep
/// is unweighted (or without them when weighted).
fn check_cells(cells: &[ScoreCell], weighted: bool) -> Result<()> {
    for c in cells {
        if c.rows == 0 || !c.score.is_finite() || c.weights.is_some() != weighted {
            return Err(bad(
                format!(
                    "cell of stream {} (score {}, rows {}, weighted {})",
                    c.stream,
                    c.score,
                    c.rows,
                    c.weights.is_some()
                ),
                "cells with rows, a finite score, and weights exactly when weighted",
            ));
        }
    }
    Ok(())
}

/// The totals of counted cells — those [`sweep_counted`] returns for the same cells, without the
/// sweep. A front end that counts the rows of each *score range* this way (Spark SQL grouping by
/// a range number in place of the score) gets every range's exact totals, the `above` totals a
/// range's [`SegmentRows::sweep`](super::SegmentRows::sweep) needs, without a pass over the rows.
///
/// # Example
/// ```
/// use fair_metrics::score_sweep::*;
/// let cell = |stream, score, rows| ScoreCell { stream, score, rows, weights: None };
/// let totals = counted_totals(&[cell(0, 0.2, 2), cell(1, 0.9, 1), cell(0, 0.5, 3)], false)?;
/// assert_eq!((totals.rows(0), totals.rows(1), totals.total_rows()), (5, 1, 6));
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
///
/// # Errors
/// [`MetricError::InvalidParameter`](crate::MetricError::InvalidParameter) for the cells
/// [`sweep_counted`] refuses, and a row count past 2^64.
pub fn counted_totals(cells: &[ScoreCell], weighted: bool) -> Result<StreamTotals> {
    check_cells(cells, weighted)?;
    let mut streams: Vec<(u64, ExactSumParts, ExactSumParts)> = Vec::new();
    for c in cells {
        if c.stream >= streams.len() {
            streams.resize_with(c.stream + 1, || {
                (0, ExactSumParts::new(), ExactSumParts::new())
            });
        }
        let (rows, w, sq) = &mut streams[c.stream];
        *rows = rows.checked_add(c.rows).ok_or_else(|| {
            bad(
                format!("stream {}: more than 2^64 rows", c.stream),
                "row counts that fit u64",
            )
        })?;
        if let Some((ws, sqs)) = &c.weights {
            w.add_scaled(ws.integer, ws.exponent)?;
            match sqs {
                Some(s) => sq.add_scaled(s.integer, s.exponent)?,
                None => sq.add_infinity(),
            }
        }
    }
    let mut totals = StreamTotals::new(weighted);
    for (stream, (rows, w, sq)) in streams.iter().enumerate() {
        if *rows == 0 {
            continue;
        }
        if weighted {
            let (w, sq) = (
                ExactSum::from_parts(w, *rows),
                ExactSum::from_parts(sq, *rows),
            );
            totals.add_exact(stream, *rows, &w, &sq);
        } else {
            totals.add_rows(stream, *rows);
        }
    }
    Ok(totals)
}

/// Sweeps counted cells as one segment holding every row: the result of
/// [`SegmentRows::sweep`](super::SegmentRows::sweep) over the rows themselves with nothing
/// above, and the totals of all rows.
///
/// # Example
/// ```
/// use fair_metrics::score_sweep::*;
/// // Group 0: two negatives at 0.2 and a positive at 0.9; group 1: a negative and a positive at 0.5.
/// let cell = |stream, score, rows| ScoreCell { stream, score, rows, weights: None };
/// let cells = vec![cell(0, 0.2, 2), cell(1, 0.9, 1), cell(2, 0.5, 1), cell(3, 0.5, 1)];
/// let slice = SliceMap { names: vec!["a".into(), "b".into()], group_of: vec![0, 1] };
/// let settings = SweepSettings { interval: None, curve_points: 0 };
/// let slices = [slice];
/// let (segment, totals) = sweep_counted(cells, false, &slices, &settings)?;
/// assert_eq!(totals.total_rows(), 5);
/// let scores = segment.finish(&slices, &totals, &settings)?;
/// assert_eq!(scores[0].auc_by_group, vec![Some(1.0), Some(0.5)]);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
///
/// # Errors
/// [`MetricError::InvalidParameter`](crate::MetricError::InvalidParameter) for a cell without
/// rows, a non-finite score, weights in an unweighted sweep (or missing from a weighted one), a
/// sum whose parts the exact accumulator refuses or whose rounded value is not finite; and the
/// errors of [`sweep_segment`].
pub fn sweep_counted(
    mut cells: Vec<ScoreCell>,
    weighted: bool,
    slices: &[SliceMap],
    settings: &SweepSettings,
) -> Result<(SegmentScores, StreamTotals)> {
    check_cells(&cells, weighted)?;
    let key = |c: &ScoreCell| super::score_key(c.score);
    // Descending score within each stream: the order a run must have.
    cells.sort_unstable_by_key(|c| (c.stream, std::cmp::Reverse(key(c))));
    let mut totals = StreamTotals::new(weighted);
    // Per stream, the distinct scores with their rows and block weight.
    let mut streams: Vec<Vec<(u64, u64, f64)>> = Vec::new();
    let mut i = 0;
    while i < cells.len() {
        let (stream, k) = (cells[i].stream, key(&cells[i]));
        let mut j = i;
        let (mut rows, mut w, mut sq) = (0_u64, ExactSumParts::new(), ExactSumParts::new());
        while j < cells.len() && cells[j].stream == stream && key(&cells[j]) == k {
            rows = rows.checked_add(cells[j].rows).ok_or_else(|| {
                bad(
                    format!("stream {stream}: more than 2^64 rows"),
                    "row counts that fit u64",
                )
            })?;
            if let Some((ws, sqs)) = &cells[j].weights {
                w.add_scaled(ws.integer, ws.exponent)?;
                match sqs {
                    Some(s) => sq.add_scaled(s.integer, s.exponent)?,
                    None => sq.add_infinity(),
                }
            }
            j += 1;
        }
        let block = if weighted {
            let (w, sq) = (
                ExactSum::from_parts(&w, rows),
                ExactSum::from_parts(&sq, rows),
            );
            let value = w.value();
            if !value.is_finite() {
                return Err(bad(
                    format!("stream {stream}: weights summing to {value} at one score"),
                    "finite weight sums",
                ));
            }
            totals.add_exact(stream, rows, &w, &sq);
            value
        } else {
            totals.add_rows(stream, rows);
            rows as f64
        };
        if stream >= streams.len() {
            streams.resize(stream + 1, Vec::new());
        }
        streams[stream].push((k, rows, block));
        i = j;
    }
    // One block per (stream, score) carrying its rows and weight sum, by score descending: the
    // blocks the sweep of the rows builds, one per cell instead of one per row.
    let mut blocks: Vec<(usize, u64, u64, f64)> = streams
        .iter()
        .enumerate()
        .flat_map(|(stream, s)| s.iter().map(move |&(k, rows, sum)| (stream, k, rows, sum)))
        .collect();
    blocks.sort_unstable_by_key(|&(stream, k, _, _)| (std::cmp::Reverse(k), stream));
    let segment = super::sweep_counted_blocks(slices, &totals, &blocks, settings)?;
    Ok((segment, totals))
}
