//! NYC Local Law 144's scoring rate inside the score sweep: the pooled median score and each
//! group's share strictly above it, found while the descending sweep passes the median, so a
//! classification audit with a score gets it without a second pass over the rows.
//!
//! The median is the distribution sweep's ([`crate::distribution::sweep`]): without weights
//! numpy's default (the two middle order statistics, interpolated), with weights numpy's
//! `inverted_cdf` — the smallest score whose weighted share at or below it reaches ½, found
//! descending as the **last candidate** block (a block of positive weight whose share at or
//! below it still reaches ½; weight-0 rows are absent).
//!
//! **Segments.** Unweighted, the two order statistics sit at exact row positions, each found in
//! exactly one segment, so merged segments equal one pass bit for bit. Weighted, a segment starts
//! from the exactly rounded totals above it (as its other running sums do) and records its own
//! last candidate; merging keeps the lowest segment's, which is the last candidate of the whole
//! sweep up to that rounding.
//!
//! **Cost.** Per block O(groups touched): a slice's snapshot of the shares above the last
//! candidate is kept in step lazily (only groups changed since the last candidate are copied),
//! and stops once the sweep is past the median.

use super::StreamTotals;
use crate::distribution::{Positions, weighted_candidate};
use crate::error::Result;
use crate::state::codec::{Reader, Writer};

/// What a block is to the pooled median, told to every slice before the block is added.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct MedianHit {
    /// Unweighted: the block holds the lower (`[0]`) / upper (`[1]`) middle order statistic.
    /// Weighted: `[0]` says the block is a candidate (see the module docs).
    pub(super) at: [bool; 2],
    /// Weighted: the sweep is still at or above the median's candidates (slices keep their
    /// snapshot in step only while this holds).
    pub(super) tracking: bool,
}

/// The pooled running state of the median (shared by every slice).
#[derive(Debug, Clone)]
pub(super) struct PooledMedian {
    weighted: bool,
    rows: u64,
    total: f64,
    above_rows: u64,
    above: f64,
    positions: Positions,
    /// The median's order statistics (unweighted) or last candidate (`[0]`, weighted) met.
    pub(super) values: [Option<f64>; 2],
}

impl PooledMedian {
    pub(super) fn new(totals: &StreamTotals) -> Self {
        let rows = totals.total_rows();
        Self {
            weighted: totals.is_weighted(),
            rows,
            total: totals.sums(0..totals.n_streams()).0,
            above_rows: 0,
            above: 0.0,
            positions: Positions::new(rows, 0.5),
            values: [None; 2],
        }
    }

    /// Starts below the rows `above` (a segment of lower scores).
    pub(super) fn start_below(&mut self, above: &StreamTotals) {
        self.above_rows = above.total_rows();
        self.above = above.sums(0..above.n_streams()).0;
    }

    /// What the block of `key` (stream sums `block` over `touched`) is to the median; advances
    /// the pooled running sums past it.
    #[inline]
    pub(super) fn block(&mut self, score: f64, touched: &[usize], block: &[f64]) -> MedianHit {
        let w: f64 = touched.iter().map(|&s| block[s]).sum();
        let hit = if self.weighted {
            let tracking = weighted_candidate(self.total, self.above, 0.5);
            let candidate = tracking && w > 0.0;
            if candidate {
                self.values[0] = Some(score);
            }
            MedianHit {
                at: [candidate, false],
                tracking,
            }
        } else {
            // Unweighted block sums are row counts.
            let m = w as u64;
            let at = self.positions.see(self.rows, self.above_rows, m, score);
            for (i, &h) in at.iter().enumerate() {
                if h {
                    self.values[i] = Some(score);
                }
            }
            self.above_rows += m;
            MedianHit {
                at,
                tracking: false,
            }
        };
        self.above += w;
        hit
    }

    /// The median from the values met (after merging segments), and which snapshot holds the
    /// rows strictly above it (`0` or `1`); `None` when the sweep never reached it (no rows, or
    /// weights summing to 0).
    pub(super) fn finish(
        weighted: bool,
        rows: u64,
        values: [Option<f64>; 2],
    ) -> Option<(f64, usize)> {
        if weighted {
            return values[0].map(|m| (m, 0));
        }
        let mut positions = Positions::new(rows, 0.5);
        positions.values = values;
        let median = positions.value(rows, 0.5)?;
        // The rows above the median are those above its upper order statistic when the median
        // is that statistic, else those above the lower one (no score lies between them).
        let upper = values[1]?;
        Some((median, usize::from(median >= upper)))
    }
}

/// One slice's snapshots of its groups' running sums above the median's order statistics.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct SliceMedian {
    /// The groups' weights (rows) strictly above the block of each order statistic; weighted,
    /// `[0]` above the last candidate.
    pub(super) snaps: [Option<Vec<f64>>; 2],
    /// Weighted: the running sums as of the last candidate block met, kept in step lazily.
    live: Vec<f64>,
    /// Groups whose running sum changed since `live` was last brought in step.
    stale: Vec<usize>,
    is_stale: Vec<bool>,
    candidate: bool,
}

impl SliceMedian {
    /// The merged snapshots of segments.
    pub(super) fn from_snaps(snaps: [Option<Vec<f64>>; 2]) -> Self {
        Self {
            snaps,
            ..Self::default()
        }
    }

    /// Starts with the running sums `above` (zeros in one pass).
    pub(super) fn start(&mut self, above: &[f64]) {
        self.live = above.to_vec();
        self.stale.clear();
        self.is_stale = vec![false; above.len()];
    }

    /// Before the block's rows are added to the running sums `above`.
    #[inline]
    pub(super) fn before(&mut self, hit: MedianHit, above: &[f64]) {
        if hit.tracking {
            if hit.at[0] {
                for &g in &self.stale {
                    self.live[g] = above[g];
                    self.is_stale[g] = false;
                }
                self.stale.clear();
                self.candidate = true;
            }
            return;
        }
        for (i, &h) in hit.at.iter().enumerate() {
            if h {
                self.snaps[i] = Some(above.to_vec());
            }
        }
    }

    /// After group `g`'s running sum changed in a block.
    #[inline]
    pub(super) fn changed(&mut self, hit: MedianHit, g: usize) {
        if hit.tracking && !self.is_stale[g] {
            self.is_stale[g] = true;
            self.stale.push(g);
        }
    }

    /// The snapshots, the weighted one taken from the last candidate.
    pub(super) fn into_snaps(mut self) -> [Option<Vec<f64>>; 2] {
        if self.candidate {
            self.snaps[0] = Some(std::mem::take(&mut self.live));
        }
        self.snaps
    }

    /// The scoring rate of each group: its share strictly above the median (`None` for a group
    /// of no weight, and for every group when the median was not reached).
    pub(super) fn rates(
        snaps: &[Option<Vec<f64>>; 2],
        which: Option<usize>,
        totals: &[f64],
    ) -> Vec<Option<f64>> {
        let snap = which.and_then(|i| snaps[i].as_ref());
        totals
            .iter()
            .enumerate()
            .map(|(g, &t)| {
                let above = snap?.get(g)?;
                (t > 0.0).then(|| (above / t).min(1.0))
            })
            .collect()
    }
}

/// Lower segments' snapshots replace this one's where they have one (see the module docs).
pub(super) fn absorb_lower<T: Clone>(this: &mut [Option<T>; 2], lower: &[Option<T>; 2]) {
    for (a, b) in this.iter_mut().zip(lower) {
        if b.is_some() {
            a.clone_from(b);
        }
    }
}

/// Writes two optional snapshots.
pub(super) fn write_snaps(snaps: &[Option<Vec<f64>>; 2], w: &mut Writer) {
    for s in snaps {
        w.u8(u8::from(s.is_some()));
        for &v in s.iter().flatten() {
            w.f64(v);
        }
    }
}

/// Reads two optional snapshots of `g` groups: finite, non-negative sums.
pub(super) fn read_snaps(r: &mut Reader<'_>, g: usize) -> Result<[Option<Vec<f64>>; 2]> {
    let mut out: [Option<Vec<f64>>; 2] = [None, None];
    for slot in &mut out {
        match r.u8()? {
            0 => {}
            1 => {
                if g.checked_mul(8).is_none_or(|b| b > r.left()) {
                    return Err(r.error(format!("{g} median sums need more bytes than are left")));
                }
                let v = (0..g).map(|_| r.f64()).collect::<Result<Vec<_>>>()?;
                if let Some(bad) = v.iter().find(|x| !(x.is_finite() && **x >= 0.0)) {
                    return Err(r.error(format!("a sum above the median of {bad}")));
                }
                *slot = Some(v);
            }
            b => return Err(r.error(format!("flag byte {b}"))),
        }
    }
    Ok(out)
}

/// Writes the pooled median's values.
pub(super) fn write_values(values: &[Option<f64>; 2], w: &mut Writer) {
    for v in values {
        w.u8(u8::from(v.is_some()));
        w.f64(v.unwrap_or(0.0));
    }
}

/// Reads the pooled median's values (finite scores).
pub(super) fn read_values(r: &mut Reader<'_>) -> Result<[Option<f64>; 2]> {
    let mut out = [None; 2];
    for slot in &mut out {
        let (flag, v) = (r.u8()?, r.f64()?);
        *slot = match flag {
            0 => None,
            1 if v.is_finite() => Some(v),
            1 => return Err(r.error(format!("a median score of {v}"))),
            b => return Err(r.error(format!("flag byte {b}"))),
        };
    }
    Ok(out)
}
