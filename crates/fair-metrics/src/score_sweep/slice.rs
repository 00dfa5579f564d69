//! The running state of one slice during the sweep, and what it yields.

use super::median_cut::{self, MedianHit, SliceMedian};
use super::{SliceMap, StreamTotals, SweepSettings, key_score};
use crate::error::{MetricError, Result};
use crate::pairwise::PairwiseSummary;
use crate::partial::PercentileInterval;
use crate::state::codec::{Reader, Writer};

/// A pairwise gap over the groups of a slice, and the score threshold where the worst pair is
/// attained (the chart's KS mark).
#[derive(Debug, Clone, PartialEq)]
pub struct PairGaps {
    /// Every pair, with the max and the worst pair.
    pub summary: PairwiseSummary,
    /// The threshold θ (a score) at which the worst pair's gap is attained: the gap compares the
    /// fractions of each group scoring strictly above θ. `None` when every gap is 0.
    pub worst_threshold: Option<f64>,
}

/// Effective sample sizes of one group (Kish's `(Σw)²/Σw²`; the row count when unweighted).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EffectiveN {
    /// All rows.
    pub all: f64,
    /// Positives.
    pub positives: f64,
    /// Negatives.
    pub negatives: f64,
}

/// The exact score metrics of one slice.
#[derive(Debug, Clone, PartialEq)]
pub struct SliceScores {
    /// Group names (as in the [`SliceMap`]).
    pub names: Vec<String>,
    /// AUC of each group (`None`: the group lacks positives or negatives).
    pub auc_by_group: Vec<Option<f64>>,
    /// AUC of all rows pooled (the same for every slice).
    pub auc_overall: Option<f64>,
    /// Effective sample sizes per group, for intervals and tests.
    pub effective_n: Vec<EffectiveN>,
    /// KS distance between the groups' score distributions (DP-Δ).
    pub ks_dp: Result<PairGaps>,
    /// KS distance between the groups' positives' score distributions (EO-Δ).
    pub ks_eo: Result<PairGaps>,
    /// Partial SP on the interval, when one was asked for.
    pub psp: Option<Result<PairGaps>>,
    /// Per group, ROC points (FPR, TPR) ascending from (0, 0), downsampled (see
    /// [`SweepSettings::curve_points`](super::SweepSettings::curve_points)).
    pub roc: Vec<Vec<(f64, f64)>>,
    /// Per group, CCDF points (t, P(score > t)) ascending in t, downsampled likewise.
    pub ccdf: Vec<Vec<(f64, f64)>>,
    /// The median score of all rows pooled — NYC Local Law 144's cut (numpy's median; weighted,
    /// the inverted CDF's) — the same for every slice; `None` when every weight is 0.
    pub median: Option<f64>,
    /// Per group, the scoring rate: its (weighted) share strictly above [`median`](Self::median)
    /// (`None` for a group of no weight).
    pub scoring_rate: Vec<Option<f64>>,
}

/// Running best of every pair (upper triangle) and where it was attained.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PairBest {
    g: usize,
    value: Vec<f64>,
    key: Vec<u64>,
}

impl PairBest {
    fn new(g: usize) -> Self {
        Self {
            g,
            value: vec![0.0; g * g],
            key: vec![0; g * g],
        }
    }
    #[inline]
    fn update(&mut self, a: usize, b: usize, v: f64, key: u64) {
        // A gap between two fractions is at most 1; weighted running sums can round a fraction
        // to 1 + 2⁻⁵² (found by fuzzing the segment sweep), which must not report a KS above 1.
        let v = v.min(1.0);
        let i = a.min(b) * self.g + a.max(b);
        if v > self.value[i] {
            self.value[i] = v;
            self.key[i] = key;
        }
    }
    /// Takes the pairs where `lower` (a segment of lower scores) is strictly better: the sweep
    /// keeps the first (highest) threshold attaining a pair's best, and so does this.
    fn absorb_lower(&mut self, lower: &PairBest) {
        for i in 0..self.value.len().min(lower.value.len()) {
            if lower.value[i] > self.value[i] {
                self.value[i] = lower.value[i];
                self.key[i] = lower.key[i];
            }
        }
    }
    fn write(&self, w: &mut Writer) {
        w.u64(self.g as u64);
        for (&v, &k) in self.value.iter().zip(&self.key) {
            w.f64(v);
            w.u64(k);
        }
    }
    fn read(r: &mut Reader<'_>, g: usize) -> Result<Self> {
        if r.u64()? != g as u64 {
            return Err(r.error("a pair table of another group count".into()));
        }
        let mut best = Self::new(g);
        for i in 0..g * g {
            best.value[i] = r.f64()?;
            best.key[i] = r.u64()?;
            if !(best.value[i] >= 0.0 && best.value[i] <= 1.0) {
                return Err(r.error(format!("pair gap {} outside [0, 1]", best.value[i])));
            }
        }
        Ok(best)
    }
    fn finish(self, metric: &'static str, names: &[String]) -> PairGaps {
        let summary =
            PairwiseSummary::build(metric, names.to_vec(), |a, b| self.value[a * self.g + b]);
        let w = summary.worst_pair;
        let worst_threshold =
            (summary.max > 0.0).then(|| key_score(self.key[w.first * self.g + w.second]));
        PairGaps {
            summary,
            worst_threshold,
        }
    }
}

/// The grid cell of a curve coordinate in `[0, 1]`: `floor(v · curve_points + ½)`. The grid
/// lines sit halfway between multiples of `1 / curve_points`, so 0 and 1 — which every curve
/// reaches, and weighted running sums reach only up to a few ulps either side — lie mid-cell:
/// with lines at 0 and 1 a weighted segment (its sums start from exactly rounded totals) and the
/// one-pass sweep would see 1 − 2⁻⁵² and 1 + 2⁻⁵² in different cells and keep different points.
#[inline]
pub(super) fn cell(v: f64, cells: f64) -> i64 {
    // Saturating: coordinates are finite and in [0, 1] up to rounding.
    (v * cells + 0.5).floor() as i64
}

/// A downsampled monotone curve (or the piece of it one segment swept), under the **grid rule**:
/// with cells `floor(coordinate · curve_points + ½)` on the monotone coordinates (FPR and TPR for
/// ROC, the CCDF value for CCDF), a point is kept when it lies in a different cell from the
/// point drawn immediately before it, and the last point of the whole curve is always kept. The
/// rule looks only at one point and its neighbour, which a segment computes from its own rows and
/// the exact totals above it, so segments downsample exactly as the one-pass sweep does.
///
/// `points` are the kept points in sweep order; `pending` is the last point swept when the rule
/// did not keep it: kept if it turns out to be the curve's last, dropped when a lower segment
/// brings any point of the same curve (as the one-pass sweep drops it at its next point).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct CurvePart {
    points: Vec<(f64, f64)>,
    pending: Option<(f64, f64)>,
}

impl CurvePart {
    #[inline]
    fn push(&mut self, p: (f64, f64), keep: bool) {
        if keep {
            self.points.push(p);
            self.pending = None;
        } else {
            self.pending = Some(p);
        }
    }

    fn is_empty(&self) -> bool {
        self.points.is_empty() && self.pending.is_none()
    }

    /// Appends the piece swept in a segment of lower scores.
    fn absorb_lower(&mut self, lower: &CurvePart) {
        if lower.is_empty() {
            return;
        }
        self.points.extend_from_slice(&lower.points);
        self.pending = lower.pending;
    }

    fn finish(mut self) -> Vec<(f64, f64)> {
        self.points.extend(self.pending);
        self.points
    }

    fn write(&self, w: &mut Writer) {
        w.u64(self.points.len() as u64);
        for &(x, y) in &self.points {
            w.f64(x);
            w.f64(y);
        }
        w.u8(u8::from(self.pending.is_some()));
        if let Some((x, y)) = self.pending {
            w.f64(x);
            w.f64(y);
        }
    }

    /// Reads a curve piece; `x_is_rate` says the first coordinate is a rate (ROC) rather than a
    /// score (CCDF). Coordinates must be finite, and rates and CCDF values `>= 0`.
    fn read(r: &mut Reader<'_>, x_is_rate: bool) -> Result<Self> {
        let n = r.len()?;
        // 16 bytes a point: bound the count by the bytes left before allocating.
        if n.checked_mul(16).is_none_or(|b| b > r.left()) {
            return Err(r.error(format!("{n} curve points need more bytes than are left")));
        }
        let point = |r: &mut Reader<'_>| -> Result<(f64, f64)> {
            let (x, y) = (r.f64()?, r.f64()?);
            let ok = x.is_finite() && y.is_finite() && y >= 0.0 && (!x_is_rate || x >= 0.0);
            if !ok {
                return Err(r.error(format!("an invalid curve point ({x}, {y})")));
            }
            Ok((x, y))
        };
        let mut points = Vec::with_capacity(n);
        for _ in 0..n {
            points.push(point(r)?);
        }
        let pending = match r.u8()? {
            0 => None,
            1 => Some(point(r)?),
            b => return Err(r.error(format!("flag byte {b}"))),
        };
        Ok(Self { points, pending })
    }
}

pub(super) struct SliceState {
    group_of: Vec<usize>,
    total_all: Vec<f64>,
    total_pos: Vec<f64>,
    total_neg: Vec<f64>,
    effective_n: Vec<EffectiveN>,
    above_all: Vec<f64>,
    above_pos: Vec<f64>,
    above_neg: Vec<f64>,
    auc_acc: Vec<f64>,
    block_pos: Vec<f64>,
    block_neg: Vec<f64>,
    touched: Vec<usize>,
    pending_all: Vec<usize>,
    pending_pos: Vec<usize>,
    ks_dp: PairBest,
    ks_eo: PairBest,
    psp: Option<(PercentileInterval, PairBest)>,
    /// `curve_points` as a float (0: no curves).
    cells: f64,
    /// Per group, whether rows of it were swept before (its CCDF's top point is kept).
    seen_above: Vec<bool>,
    roc: Vec<CurvePart>,
    ccdf: Vec<CurvePart>,
    median: SliceMedian,
}

/// What a segment's sweep contributes to a slice (see [`super::SegmentScores`]): the pair
/// bests found in the segment, the AUC sums of its blocks and its pieces of every group's ROC
/// and CCDF curve.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SlicePartial {
    ks_dp: PairBest,
    ks_eo: PairBest,
    psp: Option<PairBest>,
    auc_acc: Vec<f64>,
    roc: Vec<CurvePart>,
    ccdf: Vec<CurvePart>,
    /// The groups' sums above the median's order statistics, where this segment met them.
    median: [Option<Vec<f64>>; 2],
}

impl SlicePartial {
    /// Adds a segment of lower scores.
    pub(super) fn absorb_lower(&mut self, lower: &SlicePartial) -> Result<()> {
        if self.auc_acc.len() != lower.auc_acc.len() || self.psp.is_some() != lower.psp.is_some() {
            return Err(MetricError::InvalidParameter {
                name: "score segments",
                value: "segments of different slices".into(),
                expected: "segments swept with the same slices and settings",
            });
        }
        self.ks_dp.absorb_lower(&lower.ks_dp);
        self.ks_eo.absorb_lower(&lower.ks_eo);
        if let (Some(a), Some(b)) = (self.psp.as_mut(), lower.psp.as_ref()) {
            a.absorb_lower(b);
        }
        for (a, b) in self.auc_acc.iter_mut().zip(&lower.auc_acc) {
            *a += b;
        }
        for (a, b) in self.roc.iter_mut().zip(&lower.roc) {
            a.absorb_lower(b);
        }
        for (a, b) in self.ccdf.iter_mut().zip(&lower.ccdf) {
            a.absorb_lower(b);
        }
        median_cut::absorb_lower(&mut self.median, &lower.median);
        Ok(())
    }

    pub(super) fn write(&self, w: &mut Writer) {
        w.u64(self.auc_acc.len() as u64);
        self.ks_dp.write(w);
        self.ks_eo.write(w);
        w.u8(u8::from(self.psp.is_some()));
        if let Some(p) = &self.psp {
            p.write(w);
        }
        for &a in &self.auc_acc {
            w.f64(a);
        }
        for c in self.roc.iter().chain(&self.ccdf) {
            c.write(w);
        }
        median_cut::write_snaps(&self.median, w);
    }

    pub(super) fn read(r: &mut Reader<'_>) -> Result<Self> {
        let g = r.len()?;
        // Each pair entry takes 16 bytes: a count beyond the bytes left fails in len() above
        // only for g itself, so bound g² by the bytes left too before allocating.
        let cells = g
            .checked_mul(g)
            .and_then(|c| c.checked_mul(16))
            .ok_or_else(|| r.error("group count overflows".into()))?;
        if cells > r.left() {
            return Err(r.error(format!("{g} groups need more bytes than are left")));
        }
        let ks_dp = PairBest::read(r, g)?;
        let ks_eo = PairBest::read(r, g)?;
        let psp = match r.u8()? {
            0 => None,
            1 => Some(PairBest::read(r, g)?),
            b => return Err(r.error(format!("flag byte {b}"))),
        };
        let auc_acc = (0..g).map(|_| r.f64()).collect::<Result<Vec<_>>>()?;
        // +inf: an overflowed sum, which finishes as an undefined AUC (as in one pass).
        if auc_acc.iter().any(|a| a.is_nan() || *a < 0.0) {
            return Err(r.error("a negative or NaN AUC sum".into()));
        }
        // Each curve piece takes at least 9 bytes (count and flag), so g of them fit in the
        // bytes left whenever a piece is read; the Vecs grow one decoded piece at a time.
        let mut curves = |x_is_rate| -> Result<Vec<CurvePart>> {
            let mut out = Vec::new();
            for _ in 0..g {
                out.push(CurvePart::read(r, x_is_rate)?);
            }
            Ok(out)
        };
        let roc = curves(true)?;
        let ccdf = curves(false)?;
        let median = median_cut::read_snaps(r, g)?;
        Ok(Self {
            ks_dp,
            ks_eo,
            psp,
            auc_acc,
            roc,
            ccdf,
            median,
        })
    }
}

fn kish((w, w2): (f64, f64)) -> f64 {
    if w2 > 0.0 { w * w / w2 } else { 0.0 }
}

impl SliceState {
    pub(super) fn new(map: &SliceMap, totals: &StreamTotals, settings: &SweepSettings) -> Self {
        let g = map.names.len();
        let n_finest = totals.n_streams().div_ceil(2);
        let streams_of = |group: usize, label: Option<usize>| {
            (0..n_finest)
                .filter(move |&f| map.group_of[f] == group)
                .flat_map(move |f| {
                    [0, 1]
                        .into_iter()
                        .filter(move |&l| label.is_none_or(|x| x == l))
                        .map(move |l| 2 * f + l)
                })
        };
        let sums = |label| {
            (0..g)
                .map(|k| totals.sums(streams_of(k, label)))
                .collect::<Vec<_>>()
        };
        let (all, pos, neg) = (sums(None), sums(Some(1)), sums(Some(0)));
        Self {
            group_of: map.group_of.clone(),
            total_all: all.iter().map(|s| s.0).collect(),
            total_pos: pos.iter().map(|s| s.0).collect(),
            total_neg: neg.iter().map(|s| s.0).collect(),
            effective_n: (0..g)
                .map(|k| EffectiveN {
                    all: kish(all[k]),
                    positives: kish(pos[k]),
                    negatives: kish(neg[k]),
                })
                .collect(),
            above_all: vec![0.0; g],
            above_pos: vec![0.0; g],
            above_neg: vec![0.0; g],
            auc_acc: vec![0.0; g],
            block_pos: vec![0.0; g],
            block_neg: vec![0.0; g],
            touched: Vec::new(),
            pending_all: Vec::new(),
            pending_pos: Vec::new(),
            ks_dp: PairBest::new(g),
            ks_eo: PairBest::new(g),
            psp: settings.interval.map(|iv| (iv, PairBest::new(g))),
            cells: settings.curve_points as f64,
            seen_above: vec![false; g],
            roc: vec![CurvePart::default(); g],
            ccdf: vec![CurvePart::default(); g],
            median: {
                let mut m = SliceMedian::default();
                m.start(&vec![0.0; g]);
                m
            },
        }
    }

    /// Starts the sweep below the rows `above` (a segment of lower scores): the running sums
    /// begin at `above`'s, and the first block evaluates every pair (the state "strictly above
    /// the segment's first key" is the state at the end of the segments above; pairs whose value
    /// there was already recorded above keep the higher threshold when the segments merge).
    pub(super) fn start_below(&mut self, map: &SliceMap, above: &StreamTotals) {
        let g = self.total_all.len();
        let n_finest = above.n_streams().div_ceil(2);
        for k in 0..g {
            let members = (0..n_finest).filter(|&f| map.group_of.get(f) == Some(&k));
            let (mut pos, mut neg) = (Vec::new(), Vec::new());
            for f in members {
                neg.push(2 * f);
                pos.push(2 * f + 1);
            }
            let all = neg.iter().chain(&pos).copied().collect::<Vec<_>>();
            self.seen_above[k] = all.iter().any(|&s| above.rows(s) > 0);
            self.above_pos[k] = above.sums(pos.into_iter()).0;
            self.above_neg[k] = above.sums(neg.into_iter()).0;
            self.above_all[k] = above.sums(all.into_iter()).0;
        }
        self.median.start(&self.above_all);
        self.pending_all = (0..g).collect();
        self.pending_pos = (0..g).collect();
    }

    /// The segment's contribution.
    pub(super) fn into_partial(self) -> SlicePartial {
        SlicePartial {
            ks_dp: self.ks_dp,
            ks_eo: self.ks_eo,
            psp: self.psp.map(|(_, b)| b),
            auc_acc: self.auc_acc,
            roc: self.roc,
            ccdf: self.ccdf,
            median: self.median.into_snaps(),
        }
    }

    /// A finished state from merged segment contributions (for [`SliceState::finish`]).
    pub(super) fn with_partial(mut self, partial: SlicePartial) -> Result<Self> {
        let g = self.auc_acc.len();
        if partial.auc_acc.len() != g
            || partial.roc.len() != g
            || partial.ccdf.len() != g
            || partial.psp.is_some() != self.psp.is_some()
        {
            return Err(MetricError::InvalidParameter {
                name: "score segments",
                value: format!("segments of {} groups", partial.auc_acc.len()),
                expected: "segments swept with these slices and settings",
            });
        }
        self.ks_dp = partial.ks_dp;
        self.ks_eo = partial.ks_eo;
        if let (Some((_, best)), Some(p)) = (self.psp.as_mut(), partial.psp) {
            *best = p;
        }
        self.auc_acc = partial.auc_acc;
        self.roc = partial.roc;
        self.ccdf = partial.ccdf;
        if partial.median.iter().flatten().any(|s| s.len() != g) {
            return Err(MetricError::InvalidParameter {
                name: "score segments",
                value: "median sums of another group count".into(),
                expected: "segments swept with these slices",
            });
        }
        self.median = SliceMedian::from_snaps(partial.median);
        Ok(self)
    }

    /// Processes one block: every row with score key `key`; `block[s]` is the weight stream `s`
    /// has at this key, for the (sorted) `touched` streams.
    #[inline]
    pub(super) fn block(&mut self, key: u64, touched: &[usize], block: &[f64], hit: MedianHit) {
        let g = self.total_all.len();
        // The state now is "strictly above `key`": evaluate the pairs whose groups changed in
        // the previous block (the others were evaluated when they last changed).
        let f_all = |s: &Self, k: usize| s.above_all[k] / s.total_all[k];
        for &a in &self.pending_all {
            let fa = f_all(self, a);
            for b in (0..g).filter(|&b| b != a) {
                let fb = f_all(self, b);
                self.ks_dp.update(a, b, (fa - fb).abs(), key);
                if let Some((iv, best)) = &mut self.psp {
                    let v = (iv.in_band_fraction(fa) - iv.in_band_fraction(fb)).abs();
                    best.update(a, b, v, key);
                }
            }
        }
        for &a in &self.pending_pos {
            let fa = self.above_pos[a] / self.total_pos[a];
            for b in (0..g).filter(|&b| b != a) {
                let fb = self.above_pos[b] / self.total_pos[b];
                self.ks_eo.update(a, b, (fa - fb).abs(), key);
            }
        }
        self.touched.clear();
        self.pending_pos.clear();
        for &s in touched {
            let k = self.group_of[s / 2];
            if s % 2 == 1 {
                self.block_pos[k] += block[s];
                if !self.pending_pos.contains(&k) {
                    self.pending_pos.push(k);
                }
            } else {
                self.block_neg[k] += block[s];
            }
            if !self.touched.contains(&k) {
                self.touched.push(k);
            }
        }
        let score = key_score(key);
        self.median.before(hit, &self.above_all);
        let cells = self.cells;
        let roc_at = |s: &Self, k: usize| {
            (
                s.above_neg[k] / s.total_neg[k],
                s.above_pos[k] / s.total_pos[k],
            )
        };
        for &k in &self.touched {
            let (bp, bn) = (self.block_pos[k], self.block_neg[k]);
            // The state before this block: the previous ROC point, and P(score > this score).
            let (f_before, roc_before) = (f_all(self, k), roc_at(self, k));
            // Mann–Whitney with ties counted ½: negatives here rank below the positives above.
            self.auc_acc[k] += bn * (self.above_pos[k] + 0.5 * bp);
            self.above_pos[k] += bp;
            self.above_neg[k] += bn;
            self.above_all[k] += bn + bp;
            self.median.changed(hit, k);
            self.block_pos[k] = 0.0;
            self.block_neg[k] = 0.0;
            if cells > 0.0 {
                // CCDF, drawn ascending in score: the point drawn before this one is the next
                // lower score's, whose value is the fraction at or above this score (f_after).
                // The top point (the group's first swept) is the last drawn: always kept.
                let f_after = f_all(self, k);
                if f_before.is_finite() && f_after.is_finite() {
                    let keep = !self.seen_above[k] || cell(f_before, cells) != cell(f_after, cells);
                    self.ccdf[k].push((score, f_before), keep);
                }
                // ROC, drawn in sweep order from (0, 0): the point before is the state before
                // this block ((0, 0) for the group's first block).
                let p = roc_at(self, k);
                if p.0.is_finite() && p.1.is_finite() {
                    let keep = cell(p.0, cells) != cell(roc_before.0, cells)
                        || cell(p.1, cells) != cell(roc_before.1, cells);
                    self.roc[k].push(p, keep);
                }
                self.seen_above[k] = true;
            }
        }
        std::mem::swap(&mut self.pending_all, &mut self.touched);
    }

    /// The slice's scores; `median` is the pooled median and which snapshot holds the rows
    /// above it ([`median_cut::PooledMedian::finish`]).
    pub(super) fn finish(
        self,
        map: &SliceMap,
        auc_overall: Option<f64>,
        median: Option<(f64, usize)>,
    ) -> SliceScores {
        let names = &map.names;
        let first_without = |totals: &[f64]| totals.iter().position(|&t| t <= 0.0);
        let ks_dp = match first_without(&self.total_all) {
            Some(k) => Err(MetricError::EmptyGroup {
                group: names[k].clone(),
            }),
            None => Ok(self.ks_dp.finish("demographic parity KS (DP-Δ)", names)),
        };
        let psp = self.psp.map(|(_, best)| match &ks_dp {
            Err(e) => Err(e.clone()),
            Ok(_) => Ok(best.finish("partial statistical parity (pSP)", names)),
        });
        let ks_eo = match first_without(&self.total_pos) {
            Some(k) => Err(MetricError::UndefinedRate {
                rate: "score distribution of positives",
                group: names[k].clone(),
            }),
            None => Ok(self.ks_eo.finish("equal opportunity KS (EO-Δ)", names)),
        };
        let auc_by_group = (0..names.len())
            .map(|k| auc(self.auc_acc[k], self.total_pos[k], self.total_neg[k]))
            .collect();
        let has_roc: Vec<bool> = (0..names.len())
            .map(|k| self.total_pos[k] > 0.0 && self.total_neg[k] > 0.0)
            .collect();
        let snaps = self.median.into_snaps();
        let scoring_rate = SliceMedian::rates(&snaps, median.map(|m| m.1), &self.total_all);
        SliceScores {
            names: names.clone(),
            median: median.map(|m| m.0),
            scoring_rate,
            auc_by_group,
            auc_overall,
            effective_n: self.effective_n,
            ks_dp,
            ks_eo,
            psp,
            roc: self
                .roc
                .into_iter()
                .zip(has_roc)
                .map(|(c, ok)| {
                    if ok && !c.is_empty() {
                        let mut p = vec![(0.0, 0.0)];
                        p.extend(c.finish());
                        p
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
            ccdf: self
                .ccdf
                .into_iter()
                .map(|c| {
                    let mut p = c.finish();
                    p.reverse();
                    p
                })
                .collect(),
        }
    }
}

fn auc(acc: f64, pos: f64, neg: f64) -> Option<f64> {
    (pos > 0.0 && neg > 0.0).then(|| (acc / (pos * neg)).clamp(0.0, 1.0))
}

/// The pooled AUC over all streams, and the pooled median.
pub(super) struct Pooled {
    pos: f64,
    neg: f64,
    above_pos: f64,
    pub(super) acc: f64,
    pub(super) median: median_cut::PooledMedian,
}

impl Pooled {
    pub(super) fn new(totals: &StreamTotals) -> Self {
        let n = totals.n_streams();
        Self {
            pos: totals.sums((1..n).step_by(2)).0,
            neg: totals.sums((0..n).step_by(2)).0,
            above_pos: 0.0,
            acc: 0.0,
            median: median_cut::PooledMedian::new(totals),
        }
    }
    #[inline]
    pub(super) fn block(&mut self, touched: &[usize], block: &[f64]) {
        let (mut bp, mut bn) = (0.0, 0.0);
        for &s in touched {
            if s % 2 == 1 {
                bp += block[s];
            } else {
                bn += block[s];
            }
        }
        self.acc += bn * (self.above_pos + 0.5 * bp);
        self.above_pos += bp;
    }
    /// Starts below the rows `above` (see [`SliceState::start_below`]).
    pub(super) fn start_below(&mut self, above: &StreamTotals) {
        let n = above.n_streams();
        self.above_pos = above.sums((1..n).step_by(2)).0;
        self.median.start_below(above);
    }
    pub(super) fn auc(&self) -> Option<f64> {
        auc(self.acc, self.pos, self.neg)
    }
}
