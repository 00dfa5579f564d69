//! The running state of one slice during the sweep, and what it yields.

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
    /// Per group, ROC points (FPR, TPR) ascending from (0, 0), downsampled.
    pub roc: Vec<Vec<(f64, f64)>>,
    /// Per group, CCDF points (t, P(score > t)) ascending in t, downsampled.
    pub ccdf: Vec<Vec<(f64, f64)>>,
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

/// A downsampled monotone curve: a point is kept when it moved at least `step` (in the
/// coordinates compared) from the last kept one; the last point is always kept.
struct Curve {
    points: Vec<(f64, f64)>,
    pending: Option<(f64, f64)>,
    step: f64,
}

impl Curve {
    fn new(step: f64) -> Self {
        Self {
            points: Vec::new(),
            pending: None,
            step,
        }
    }
    #[inline]
    fn push(&mut self, p: (f64, f64), moved: impl Fn((f64, f64), (f64, f64)) -> f64) {
        if !self.step.is_finite() {
            return;
        }
        match self.points.last() {
            Some(&q) if moved(p, q) < self.step => self.pending = Some(p),
            _ => {
                self.points.push(p);
                self.pending = None;
            }
        }
    }
    fn finish(mut self) -> Vec<(f64, f64)> {
        self.points.extend(self.pending);
        self.points
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
    roc: Vec<Curve>,
    ccdf: Vec<Curve>,
}

/// What a segment's sweep contributes to a slice (see [`super::SegmentScores`]): the pair
/// bests found in the segment and the AUC sums of its blocks.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SlicePartial {
    ks_dp: PairBest,
    ks_eo: PairBest,
    psp: Option<PairBest>,
    auc_acc: Vec<f64>,
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
        if auc_acc.iter().any(|a| !(a.is_finite() && *a >= 0.0)) {
            return Err(r.error("a negative or non-finite AUC sum".into()));
        }
        Ok(Self {
            ks_dp,
            ks_eo,
            psp,
            auc_acc,
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
        let step = if settings.curve_points > 0 {
            1.0 / settings.curve_points as f64
        } else {
            f64::INFINITY
        };
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
            roc: (0..g)
                .map(|_| {
                    let mut c = Curve::new(step);
                    c.push((0.0, 0.0), |_, _| 0.0);
                    c
                })
                .collect(),
            ccdf: (0..g).map(|_| Curve::new(step)).collect(),
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
            self.above_pos[k] = above.sums(pos.into_iter()).0;
            self.above_neg[k] = above.sums(neg.into_iter()).0;
            self.above_all[k] = above.sums(all.into_iter()).0;
        }
        self.pending_all = (0..g).collect();
        self.pending_pos = (0..g).collect();
    }

    /// The segment's contribution (curves are not kept: segment sweeps run without curves).
    pub(super) fn into_partial(self) -> SlicePartial {
        SlicePartial {
            ks_dp: self.ks_dp,
            ks_eo: self.ks_eo,
            psp: self.psp.map(|(_, b)| b),
            auc_acc: self.auc_acc,
        }
    }

    /// A finished state from merged segment contributions (for [`SliceState::finish`]).
    pub(super) fn with_partial(mut self, partial: SlicePartial) -> Result<Self> {
        if partial.auc_acc.len() != self.auc_acc.len()
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
        Ok(self)
    }

    /// Processes one block: every row with score key `key`; `block[s]` is the weight stream `s`
    /// has at this key, for the (sorted) `touched` streams.
    #[inline]
    pub(super) fn block(&mut self, key: u64, touched: &[usize], block: &[f64]) {
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
        for &k in &self.touched {
            let (bp, bn) = (self.block_pos[k], self.block_neg[k]);
            let f = f_all(self, k);
            self.ccdf[k].push((score, f), |p, q| (p.1 - q.1).abs());
            // Mann–Whitney with ties counted ½: negatives here rank below the positives above.
            self.auc_acc[k] += bn * (self.above_pos[k] + 0.5 * bp);
            self.above_pos[k] += bp;
            self.above_neg[k] += bn;
            self.above_all[k] += bn + bp;
            let point = (
                self.above_neg[k] / self.total_neg[k],
                self.above_pos[k] / self.total_pos[k],
            );
            if point.0.is_finite() && point.1.is_finite() {
                self.roc[k].push(point, |p, q| (p.0 - q.0).abs().max((p.1 - q.1).abs()));
            }
            self.block_pos[k] = 0.0;
            self.block_neg[k] = 0.0;
        }
        std::mem::swap(&mut self.pending_all, &mut self.touched);
    }

    pub(super) fn finish(self, map: &SliceMap, auc_overall: Option<f64>) -> SliceScores {
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
        SliceScores {
            names: names.clone(),
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
                .map(|(c, ok)| if ok { c.finish() } else { Vec::new() })
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

/// The pooled AUC over all streams.
pub(super) struct Pooled {
    pos: f64,
    neg: f64,
    above_pos: f64,
    pub(super) acc: f64,
}

impl Pooled {
    pub(super) fn new(totals: &StreamTotals) -> Self {
        let n = totals.n_streams();
        Self {
            pos: totals.sums((1..n).step_by(2)).0,
            neg: totals.sums((0..n).step_by(2)).0,
            above_pos: 0.0,
            acc: 0.0,
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
    }
    pub(super) fn auc(&self) -> Option<f64> {
        auc(self.acc, self.pos, self.neg)
    }
}
