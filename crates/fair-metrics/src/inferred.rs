//! Audits when the sensitive attribute is only inferred: each row carries membership
//! probabilities (one per group, e.g. BISG's race probabilities from surname and geography)
//! instead of one observed group.
//!
//! [`InferredState`] is a mergeable state (like [`ConfusionState`](crate::state::ConfusionState):
//! exact sums, so any partitioning merged in any order gives the same bits) from which three
//! answers are read:
//!
//! * the **weighted estimator** ([`Estimator::Weighted`]): every row counted in every group `g`
//!   with weight `w · p_g`. Unbiased only if the prediction and the label are independent of the
//!   group given what the probabilities were inferred from (Chen, Kallus, Mao, Svacha & Udell,
//!   "Fairness Under Unawareness", FAT* 2019: its bias is the conditional covariance of outcome and
//!   membership);
//! * the **thresholded estimator** ([`Estimator::Thresholded`]): every row counted, with its
//!   weight, in its most likely group (ties go to the first group in column order), shown beside
//!   the weighted one for contrast: it is the common practice and it is biased whenever a row's
//!   most likely group is not its group, i.e. almost always (same paper);
//! * the **partial-identification bounds** of Kallus, Mao & Zhou ("Assessing Algorithmic Fairness
//!   with Unobserved Protected Class Using Data Combination", Management Science 2022):
//!   [`rate_bounds`](InferredState::rate_bounds) and
//!   [`disparity_bounds`](InferredState::disparity_bounds), every value of a rate or of a
//!   difference of two groups' rates that some joint distribution of (prediction, label, group)
//!   consistent with the data allows, assuming only that the probabilities are **calibrated**
//!   within each proxy cell (below). They need no assumption on how the prediction relates to
//!   the group within a cell.
//!
//! # Proxy cells
//!
//! The bounds are over the joint distributions of (Ŷ, Y, A) given the proxy Z whose marginal
//! P(A | Z = z) is the given probabilities and whose P(Ŷ, Y | Z = z) is what the cell's rows
//! show. Rows must therefore be grouped into **cells** of one proxy value: if every row were its
//! own cell, its (Ŷ, Y) would be a point mass, the coupling would be forced and the bounds would
//! wrongly collapse to the weighted estimator. The cell of a row is its `proxy` key when one is
//! given (e.g. a geography × surname key), and otherwise its probability vector (rows with
//! bit-identical probabilities share a cell): a BISG table gives one vector per (surname,
//! geography), so identical vectors are, in practice, the same proxy value. The caveat of the
//! default: probabilities from a model with a continuous output give nearly one cell per row,
//! hence bounds that are too narrow — pass the proxy then, or bin it. When the rows of one proxy
//! cell carry different probabilities, the cell's P(A | Z = z) is their weighted mean (valid: if
//! the probabilities are calibrated given finer information, their mean is calibrated given the
//! cell; the bounds only use what the cell knows, so they are wider).
//!
//! # How the bounds are computed (derivation)
//!
//! Within a cell with masses `m[tn], m[fp], m[fn], m[tp]` (weights summed) and group masses
//! `b_g` (`Σ_g b_g = n`, the cell's mass), the unknown is a coupling `q[c][g] ≥ 0` with row sums
//! `m[c]` and column sums `b_g`.
//!
//! * **Selection rate** of group `a`: its denominator `Σ_z b_a(z)` is known, and each cell's
//!   `q[Ŷ=1][a]` ranges over the Fréchet interval `[max(0, ŷ − (n − b_a)), min(ŷ, b_a)]`, so the
//!   rate's bounds are the sums of the cells' ends. For two groups `a ≠ b` the difference is
//!   linear with fixed denominators and separable over cells; per cell, the coupling that puts
//!   as much of Ŷ = 1 as possible in `a`, then in the other groups, then in `b` reaches both
//!   `a`'s upper end and `b`'s lower end at once, so `[lo_a − hi_b, hi_a − lo_b]` is **sharp**
//!   for any number of groups.
//! * **TPR** (FPR is the same with the labels swapped) of group `a`: with `u`, `v` the cell's
//!   masses of (Ŷ = 1, Y = 1, A = a) and (Ŷ = 0, Y = 1, A = a), the feasible set is the box
//!   `0 ≤ u ≤ t, 0 ≤ v ≤ f` cut by `L ≤ u + v ≤ H` (`L = max(0, b_a − n_{Y=0})`,
//!   `H = min(b_a, t + f)`), since the rest of `b_a` must fit in the cell's Y = 0 rows. The TPR
//!   depends only on the sums `(U, V)` over cells, whose feasible set is the Minkowski sum of the
//!   cells' polygons. Every polygon's edges have normals among `±(1,0), ±(0,1), ±(1,1)`, so the
//!   sum is the polygon `{U ∈ [ΣU_lo, ΣU_hi], V ∈ [ΣV_lo, ΣV_hi], U + V ∈ [ΣL, ΣH]}` of the
//!   cells' tight support values. `U / (U + V)` increases in `U` and decreases in `V`, and this
//!   polygon has a point that is both largest in `U` and smallest in `V`:
//!   `(min(U_hi, S_hi − V_lo), max(V_lo, S_lo − U_hi))` — the maximum, exactly, with no search
//!   (and the opposite corner the minimum). With **two groups** `b` holds the complement
//!   `(T − U, F − V)`, whose TPR decreases in `U` and increases in `V`, so the same corner gives
//!   `hi_a − lo_b`: the difference's bounds are `[lo_a − hi_b, hi_a − lo_b]`, **sharp**. With
//!   more groups the two groups' couplings interact through the third; `[lo_a − hi_b,
//!   hi_a − lo_b]` is then valid but may be wider than sharp ([`DisparityBound::sharp`] says
//!   which).
//!
//! The tests check these against an LP over the couplings (a Charnes–Cooper LP for the TPR)
//! on small cases.
//!
//! # Exactness
//!
//! A cell whose rows all belong to one group with certainty (`b_a = n` or `b_a = 0`) forces its
//! coupling; its sums are kept exact, so with 0/1 probabilities (and the default cells) every
//! estimate and bound equals the ordinary audit's rate to the bit.
//!
//! # Example
//! ```
//! use fair_metrics::inferred::{Estimator, InferredState};
//! use fair_metrics::Rate;
//!
//! let groups = vec!["white".to_string(), "black".to_string()];
//! let mut s = InferredState::new(groups)?;
//! let (y, p) = ([1, 1, 0, 0], [1, 0, 1, 0]);
//! let white = [0.9, 0.9, 0.2, 0.2];
//! let black = [0.1, 0.1, 0.8, 0.8];
//! s.update(&y, &p, &[&white, &black], None, None)?;
//! let sr = s.estimate(Estimator::Weighted, Rate::Selection);
//! assert!((sr[0].unwrap() - 1.1 / 2.2).abs() < 1e-12);
//! let b = s.disparity_bounds(Rate::Selection, 0, 1)?.unwrap();
//! assert!(b.lo <= b.weighted.unwrap() && b.weighted.unwrap() <= b.hi);
//! assert!(b.sharp);
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

use crate::confusion::{CellSums, Rate};
use crate::error::{MetricError, Result};
use crate::state::{CELLS, ExactSum};
use crate::validate::{bad_weight, check_len, weight_ok};
use std::collections::BTreeMap;

/// Default tolerance on `|Σ_g p_g − 1|` for a row's membership probabilities.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

// Cell indices (2 · label + prediction), as in the confusion state.
const TN: usize = 0;
const FP: usize = 1;
const FN: usize = 2;
const TP: usize = 3;

/// Which point estimator of a group's rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Estimator {
    /// Each row counted in each group with weight `w · p_g`.
    Weighted,
    /// Each row counted in its most likely group (ties: the first group in column order).
    Thresholded,
}

/// The bounds of `rate(group) − rate(reference)` over every coupling consistent with the data,
/// with the two point estimators' differences beside them.
#[derive(Debug, Clone, PartialEq)]
pub struct DisparityBound {
    /// Which rate.
    pub rate: Rate,
    /// Index of the group (the minuend).
    pub group: usize,
    /// Index of the reference group (the subtrahend).
    pub reference: usize,
    /// Smallest value the difference can take.
    pub lo: f64,
    /// Largest value the difference can take.
    pub hi: f64,
    /// Whether `[lo, hi]` is the sharp (smallest) set; `false` means valid but possibly wider
    /// (TPR or FPR with more than two groups).
    pub sharp: bool,
    /// The weighted estimator's difference (`None` when a rate is undefined).
    pub weighted: Option<f64>,
    /// The thresholded estimator's difference (`None` when a rate is undefined).
    pub thresholded: Option<f64>,
}

/// One proxy cell: rows and exact weight sums per confusion cell, exact sums of `w · p_g` per
/// confusion cell and group, and the weights of the rows whose most likely group is `g`.
#[derive(Debug, Clone, PartialEq)]
struct ProxyCell {
    rows: [u64; CELLS],
    mass: [ExactSum; CELLS],
    group: Vec<[ExactSum; CELLS]>,
    thr: Vec<[ExactSum; CELLS]>,
}

impl ProxyCell {
    fn new(groups: usize) -> Self {
        Self {
            rows: [0; CELLS],
            mass: Default::default(),
            group: vec![Default::default(); groups],
            thr: vec![Default::default(); groups],
        }
    }

    fn merge(&mut self, other: &ProxyCell) {
        for c in 0..CELLS {
            self.rows[c] = self.rows[c].saturating_add(other.rows[c]);
            self.mass[c].merge(&other.mass[c]);
        }
        for (mine, theirs) in self
            .group
            .iter_mut()
            .zip(&other.group)
            .chain(self.thr.iter_mut().zip(&other.thr))
        {
            for c in 0..CELLS {
                mine[c].merge(&theirs[c]);
            }
        }
    }
}

/// The exact sum of some confusion cells of `sums`.
fn union(sums: &[ExactSum; CELLS], cells: &[usize]) -> ExactSum {
    let mut s = ExactSum::default();
    for &c in cells {
        s.merge(&sums[c]);
    }
    s
}

/// A mergeable state of rows whose group is given as membership probabilities: the weighted
/// and thresholded estimators of every confusion rate, and the partial-identification bounds of
/// the selection rate, TPR and FPR and of their differences (see the [module](self) docs for the
/// estimators, the proxy cells and the derivation).
///
/// Memory is O(proxy cells × groups): each cell keeps `4 · (groups + 1)` exact sums (about
/// 280 bytes each).
#[derive(Debug, Clone, PartialEq)]
pub struct InferredState {
    groups: Vec<String>,
    tolerance: f64,
    /// `None` until rows join; then whether they carry weights.
    weighted: Option<bool>,
    cells: BTreeMap<String, ProxyCell>,
}

impl InferredState {
    /// An empty state over `groups` (the probability columns, in order), with the default
    /// tolerance [`DEFAULT_TOLERANCE`] on each row's sum.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for fewer than two groups or a repeated name.
    pub fn new(groups: Vec<String>) -> Result<Self> {
        Self::with_tolerance(groups, DEFAULT_TOLERANCE)
    }

    /// [`new`](Self::new) with another tolerance on `|Σ_g p_g − 1|` (finite, in `[0, 0.01]`).
    ///
    /// # Errors
    /// As [`new`](Self::new), and [`MetricError::InvalidParameter`] for a tolerance outside
    /// `[0, 0.01]`.
    pub fn with_tolerance(groups: Vec<String>, tolerance: f64) -> Result<Self> {
        if groups.len() < 2 {
            return Err(MetricError::InvalidParameter {
                name: "membership groups",
                value: groups.len().to_string(),
                expected: "at least two probability columns, one per group",
            });
        }
        for (i, g) in groups.iter().enumerate() {
            if groups[..i].contains(g) {
                return Err(MetricError::InvalidParameter {
                    name: "membership groups",
                    value: g.clone(),
                    expected: "each probability column named once",
                });
            }
        }
        if !(0.0..=0.01).contains(&tolerance) {
            return Err(MetricError::InvalidParameter {
                name: "membership tolerance",
                value: tolerance.to_string(),
                expected: "a number in [0, 0.01]",
            });
        }
        Ok(Self {
            groups,
            tolerance,
            weighted: None,
            cells: BTreeMap::new(),
        })
    }

    /// The groups, in column order (the order of every per-group output).
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// Number of proxy cells seen.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Number of proxy cells and how many of them hold a single row (when most do, the
    /// bounds are too narrow: see the module docs on proxy cells).
    pub fn cell_sizes(&self) -> (u64, u64) {
        let singles = self
            .cells
            .values()
            .filter(|c| c.rows.iter().sum::<u64>() == 1)
            .count();
        (self.cells.len() as u64, singles as u64)
    }

    /// Number of rows added.
    pub fn total_rows(&self) -> u64 {
        self.cells
            .values()
            .flat_map(|c| c.rows)
            .fold(0, u64::saturating_add)
    }

    /// Whether the rows carry weights (`false` while empty).
    pub fn is_weighted(&self) -> bool {
        self.weighted == Some(true)
    }

    /// Adds one batch of rows.
    ///
    /// `y_true`, `y_pred` are 0/1; `proba` holds one column per group (in the order of
    /// [`groups`](Self::groups)), each with one probability per row; `proxy`, if given, names
    /// each row's proxy cell (otherwise the cell is the row's probability vector); `weights`, if
    /// given, are finite and `>= 0`. Each row's probabilities are divided by their sum (which
    /// the check allows to differ from 1 by the tolerance), so a row's group masses add up to its
    /// weight. Row numbers in errors are 0-based positions within the batch.
    ///
    /// # Errors
    /// [`MetricError::BadMembership`] for a probability that is NaN, infinite, negative or above
    /// 1, or a row whose probabilities do not sum to 1 within the tolerance (naming the row and
    /// its columns); [`MetricError::LengthMismatch`] for columns of other lengths or a wrong
    /// number of columns; [`MetricError::LabelOutOfRange`] for a label or prediction other than
    /// 0/1; bad weights as [`ConfusionState::update`](crate::state::ConfusionState::update);
    /// [`MetricError::InvalidParameter`] when weighted rows meet an unweighted state. On error
    /// the state is unchanged.
    // Exact comparisons on purpose: a row summing to exactly 1 keeps its bits.
    #[allow(clippy::float_cmp)]
    pub fn update(
        &mut self,
        y_true: &[usize],
        y_pred: &[usize],
        proba: &[&[f64]],
        proxy: Option<&[&str]>,
        weights: Option<&[f64]>,
    ) -> Result<()> {
        let n = y_true.len();
        check_len("predictions", n, y_pred.len())?;
        check_len(
            "membership probability columns",
            self.groups.len(),
            proba.len(),
        )?;
        for col in proba {
            check_len("membership probabilities", n, col.len())?;
        }
        if let Some(p) = proxy {
            check_len("proxy", n, p.len())?;
        }
        if let Some(w) = weights {
            check_len("sample weights", n, w.len())?;
        }
        if n == 0 {
            return Ok(());
        }
        check_membership(&self.groups, proba, n, self.tolerance)?;
        for i in 0..n {
            if y_true[i] > 1 {
                return Err(label_error("labels", i, y_true[i]));
            }
            if y_pred[i] > 1 {
                return Err(label_error("predictions", i, y_pred[i]));
            }
            if let Some(w) = weights
                && !weight_ok(w[i])
            {
                return Err(bad_weight(i, w[i]));
            }
        }
        let weighted = weights.is_some();
        if let Some(known) = self.weighted
            && known != weighted
        {
            return Err(MetricError::InvalidParameter {
                name: "sample weights",
                value: if weighted { "given" } else { "absent" }.to_string(),
                expected: "the same choice for every batch and partition: weights everywhere or nowhere",
            });
        }
        self.weighted = Some(weighted);
        let k = self.groups.len();
        let mut p = vec![0.0; k];
        let mut key = String::new();
        for i in 0..n {
            let sum: f64 = proba.iter().map(|col| col[i]).sum();
            for (g, col) in proba.iter().enumerate() {
                // A row summing to exactly 1 (every 0/1 row) keeps its bits.
                p[g] = if sum == 1.0 { col[i] } else { col[i] / sum };
            }
            key.clear();
            match proxy {
                Some(z) => key.push_str(z[i]),
                None => {
                    use std::fmt::Write;
                    for (g, v) in p.iter().enumerate() {
                        let sep = if g == 0 { "" } else { "," };
                        let _ = write!(key, "{sep}{:016x}", v.to_bits());
                    }
                }
            }
            let cell = match self.cells.get_mut(key.as_str()) {
                Some(c) => c,
                None => self.cells.entry(key.clone()).or_insert(ProxyCell::new(k)),
            };
            let c = 2 * y_true[i] + y_pred[i];
            let w = weights.map_or(1.0, |w| w[i]);
            cell.rows[c] += 1;
            cell.mass[c].add(w);
            for (sums, &pg) in cell.group.iter_mut().zip(&p) {
                // w · 1 = w and w · 0 = 0 exactly: certain rows add exactly their weight.
                sums[c].add(w * pg);
            }
            // Most likely group; ties go to the first column (`>` keeps the earlier one).
            let mut best = 0;
            for g in 1..k {
                if p[g] > p[best] {
                    best = g;
                }
            }
            cell.thr[best][c].add(w);
        }
        Ok(())
    }

    /// Adds another state's rows. Merging is associative and commutative, and the result is
    /// bit-identical to one state built from all the rows.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when the states have other groups (or tolerances), or
    /// one is weighted and the other not.
    pub fn merge(&mut self, other: &InferredState) -> Result<()> {
        if other.groups != self.groups || other.tolerance.to_bits() != self.tolerance.to_bits() {
            return Err(MetricError::InvalidParameter {
                name: "membership groups",
                value: other.groups.join(", "),
                expected: "the same probability columns, in the same order and with the same tolerance, in every merged state",
            });
        }
        let Some(weighted) = other.weighted else {
            return Ok(());
        };
        if let Some(mine) = self.weighted
            && mine != weighted
        {
            return Err(MetricError::InvalidParameter {
                name: "sample weights",
                value: if weighted { "given" } else { "absent" }.to_string(),
                expected: "the same choice for every batch and partition: weights everywhere or nowhere",
            });
        }
        self.weighted = Some(weighted);
        for (key, cell) in &other.cells {
            match self.cells.get_mut(key) {
                Some(c) => c.merge(cell),
                None => {
                    self.cells.insert(key.clone(), cell.clone());
                }
            }
        }
        Ok(())
    }

    /// One state over the intersections of an observed attribute with these groups: `strata`
    /// are the states of the rows of each observed value (same groups, tolerance and
    /// weighting), and the result's groups are `"{value} & {group}"` (value-major). A row's
    /// membership of `(value, g)` is `1{its value} · p_g`; its proxy cell is its cell within its
    /// value, so the bounds use what each value's cells show.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for no strata, or strata of other groups, tolerances or
    /// weighting.
    ///
    /// # Example
    /// ```
    /// use fair_metrics::inferred::{Estimator, InferredState};
    /// use fair_metrics::Rate;
    /// let groups = vec!["a".to_string(), "b".to_string()];
    /// let mut f = InferredState::new(groups.clone())?;
    /// f.update(&[1, 0], &[1, 0], &[&[0.5, 1.0], &[0.5, 0.0]], None, None)?;
    /// let mut m = InferredState::new(groups)?;
    /// m.update(&[1], &[1], &[&[0.0], &[1.0]], None, None)?;
    /// let both = InferredState::intersect(&[("f", &f), ("m", &m)])?;
    /// assert_eq!(both.groups(), ["f & a", "f & b", "m & a", "m & b"]);
    /// let sr = both.estimate(Estimator::Weighted, Rate::Selection);
    /// assert_eq!(sr[0], Some(0.5 / 1.5));
    /// assert_eq!(sr[2], None); // no man in a
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn intersect(strata: &[(&str, &InferredState)]) -> Result<InferredState> {
        let Some((_, first)) = strata.first() else {
            return Err(MetricError::InvalidParameter {
                name: "strata",
                value: "none".into(),
                expected: "at least one observed value's state",
            });
        };
        let k = first.groups.len();
        let groups: Vec<String> = strata
            .iter()
            .flat_map(|(v, _)| first.groups.iter().map(move |g| format!("{v} & {g}")))
            .collect();
        let mut out = InferredState::with_tolerance(groups, first.tolerance)?;
        for (s, (value, state)) in strata.iter().enumerate() {
            if state.groups != first.groups
                || state.tolerance.to_bits() != first.tolerance.to_bits()
            {
                return Err(MetricError::InvalidParameter {
                    name: "strata",
                    value: state.groups.join(", "),
                    expected: "states of the same probability columns and tolerance",
                });
            }
            let Some(weighted) = state.weighted else {
                continue;
            };
            if out.weighted.is_some_and(|w| w != weighted) {
                return Err(MetricError::InvalidParameter {
                    name: "sample weights",
                    value: if weighted { "given" } else { "absent" }.to_string(),
                    expected: "the same choice for every stratum",
                });
            }
            out.weighted = Some(weighted);
            for (key, cell) in &state.cells {
                let mut wide = ProxyCell::new(out.groups.len());
                wide.rows = cell.rows;
                wide.mass = cell.mass.clone();
                for g in 0..k {
                    wide.group[s * k + g] = cell.group[g].clone();
                    wide.thr[s * k + g] = cell.thr[g].clone();
                }
                out.cells.insert(format!("{value}\u{1f}{key}"), wide);
            }
        }
        Ok(out)
    }

    /// Each group's exact confusion sums under `estimator`, as [`CellSums`] (every union of
    /// cells, rounded once), in the order of [`groups`](Self::groups).
    pub fn cell_sums(&self, estimator: Estimator) -> Vec<CellSums> {
        self.exact_sums(estimator)
            .iter()
            .map(CellSums::from_exact)
            .collect()
    }

    fn exact_sums(&self, estimator: Estimator) -> Vec<[ExactSum; CELLS]> {
        let mut out: Vec<[ExactSum; CELLS]> = vec![Default::default(); self.groups.len()];
        for cell in self.cells.values() {
            let sums = match estimator {
                Estimator::Weighted => &cell.group,
                Estimator::Thresholded => &cell.thr,
            };
            for (acc, g) in out.iter_mut().zip(sums) {
                for c in 0..CELLS {
                    acc[c].merge(&g[c]);
                }
            }
        }
        out
    }

    /// `rate` of every group under `estimator` (`None` where its denominator is zero), computed
    /// as the ordinary audit computes a weighted rate: numerator and denominator each an exact
    /// sum rounded once, the quotient clamped to `[0, 1]`.
    pub fn estimate(&self, estimator: Estimator, rate: Rate) -> Vec<Option<f64>> {
        self.cell_sums(estimator)
            .iter()
            .map(|s| {
                let (num, den) = s.fraction(rate);
                (den > 0.0).then(|| (num / den).clamp(0.0, 1.0))
            })
            .collect()
    }

    /// The smallest and largest value of `rate` for each group over every coupling of
    /// (prediction, label) and group consistent with the cells (`None` for a group whose rate
    /// has a zero denominator under every coupling).
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for a rate other than the selection rate, TPR and FPR
    /// (the rates whose bounds are derived here).
    pub fn rate_bounds(&self, rate: Rate) -> Result<Vec<Option<(f64, f64)>>> {
        let label_cells = match rate {
            Rate::Selection => None,
            Rate::TruePositive => Some(([TP, FN], [FP, TN])),
            Rate::FalsePositive => Some(([FP, TN], [TP, FN])),
            _ => {
                return Err(MetricError::InvalidParameter {
                    name: "rate",
                    value: rate.name().to_string(),
                    expected: "selection_rate, true_positive_rate or false_positive_rate: the rates whose partial-identification bounds are derived",
                });
            }
        };
        Ok((0..self.groups.len())
            .map(|g| match label_cells {
                None => self.selection_bounds(g),
                Some((own, other)) => self.conditional_bounds(g, own, other),
            })
            .collect())
    }

    // `b == n`: every row of the cell is certainly in the group (exact sums of the same
    // weights), so its coupling is forced and its sums stay exact.
    #[allow(clippy::float_cmp)]
    fn selection_bounds(&self, g: usize) -> Option<(f64, f64)> {
        let mut forced = ExactSum::default();
        let mut den = ExactSum::default();
        let (mut lo, mut hi) = (0.0, 0.0);
        for cell in self.cells.values() {
            let n = union(&cell.mass, &[TN, FP, FN, TP]).value();
            let b_sum = union(&cell.group[g], &[TN, FP, FN, TP]);
            den.merge(&b_sum);
            let b = b_sum.value();
            if b == 0.0 {
                continue;
            }
            let yhat = union(&cell.mass, &[FP, TP]);
            if b == n {
                forced.merge(&yhat);
                continue;
            }
            let (l, h) = frechet(yhat.value(), n, b);
            lo += l;
            hi += h;
        }
        let den = den.value();
        if den <= 0.0 {
            return None;
        }
        let forced = forced.value();
        Some((
            ((forced + lo) / den).clamp(0.0, 1.0),
            ((forced + hi) / den).clamp(0.0, 1.0),
        ))
    }

    /// Bounds of `u / (u + v)` where `u` is the group's mass in `own[0]`, `v` in `own[1]`, and
    /// the rest of the group's mass must fit in the `other` cells (module docs, "derivation").
    #[allow(clippy::float_cmp)] // `b == n` as in `selection_bounds`.
    fn conditional_bounds(
        &self,
        g: usize,
        own: [usize; 2],
        other: [usize; 2],
    ) -> Option<(f64, f64)> {
        // Forced cells exactly; free cells' tight support values summed.
        let (mut fu, mut fv, mut fs) = (
            ExactSum::default(),
            ExactSum::default(),
            ExactSum::default(),
        );
        let mut support = [0.0; 6];
        let mut free = false;
        for cell in self.cells.values() {
            let n = union(&cell.mass, &[TN, FP, FN, TP]).value();
            let b = union(&cell.group[g], &[TN, FP, FN, TP]).value();
            if b == 0.0 {
                continue;
            }
            if b == n {
                fu.merge(&cell.mass[own[0]]);
                fv.merge(&cell.mass[own[1]]);
                fs.merge(&union(&cell.mass, &own));
                continue;
            }
            free = true;
            let t = cell.mass[own[0]].value();
            let f = cell.mass[own[1]].value();
            let tf = union(&cell.mass, &own).value();
            let rest = union(&cell.mass, &other).value();
            for (acc, v) in support.iter_mut().zip(cell_support(t, f, tf, rest, b)) {
                *acc += v;
            }
        }
        if !free {
            let (u, s) = (fu.value(), fs.value());
            return (s > 0.0).then(|| {
                let r = (u / s).clamp(0.0, 1.0);
                (r, r)
            });
        }
        let (u0, v0, s0) = (fu.value(), fv.value(), fs.value());
        let [ul, uh, vl, vh, sl, sh] = support;
        corners([u0 + ul, u0 + uh, v0 + vl, v0 + vh, s0 + sl, s0 + sh])
    }

    /// The bounds of `rate(group) − rate(reference)` (group indices into
    /// [`groups`](Self::groups)), `None` when either rate is undefined under every coupling.
    ///
    /// # Errors
    /// As [`rate_bounds`](Self::rate_bounds), and [`MetricError::InvalidParameter`] for a group
    /// index out of range or `group == reference`.
    pub fn disparity_bounds(
        &self,
        rate: Rate,
        group: usize,
        reference: usize,
    ) -> Result<Option<DisparityBound>> {
        let k = self.groups.len();
        if group >= k || reference >= k || group == reference {
            return Err(MetricError::InvalidParameter {
                name: "group pair",
                value: format!("({group}, {reference})"),
                expected: "two different group indices below the number of groups",
            });
        }
        let bounds = self.rate_bounds(rate)?;
        let (Some(a), Some(b)) = (bounds[group], bounds[reference]) else {
            return Ok(None);
        };
        let diff = |e: Estimator| {
            let r = self.estimate(e, rate);
            Some(r[group]? - r[reference]?)
        };
        Ok(Some(DisparityBound {
            rate,
            group,
            reference,
            lo: a.0 - b.1,
            hi: a.1 - b.0,
            sharp: rate == Rate::Selection || k == 2,
            weighted: diff(Estimator::Weighted),
            thresholded: diff(Estimator::Thresholded),
        }))
    }
}

/// Checks membership probabilities: every value finite and in `[0, 1]`, each row summing to 1
/// within `tolerance`. `groups` names the columns in the error.
///
/// # Errors
/// [`MetricError::BadMembership`] naming the first bad row (0-based) and its columns' values.
///
/// # Example
/// ```
/// use fair_metrics::inferred::check_membership;
/// let names = vec!["p_a".to_string(), "p_b".to_string()];
/// assert!(check_membership(&names, &[&[0.25, 1.0], &[0.75, 0.0]], 2, 1e-6).is_ok());
/// let err = check_membership(&names, &[&[0.5], &[0.4]], 1, 1e-6).unwrap_err();
/// assert!(err.to_string().contains("sum to 0.9"));
/// ```
pub fn check_membership(
    groups: &[String],
    proba: &[&[f64]],
    n: usize,
    tolerance: f64,
) -> Result<()> {
    for i in 0..n {
        let mut sum = 0.0;
        let mut problem = None;
        for (g, col) in proba.iter().enumerate() {
            let v = col[i];
            let name = groups.get(g).map_or("?", String::as_str);
            if v.is_nan() {
                problem = Some(format!("{name} is NaN"));
            } else if v < 0.0 {
                problem = Some(format!("{name} is negative ({v})"));
            } else if v > 1.0 {
                problem = Some(format!("{name} is above 1 ({v})"));
            }
            if problem.is_some() {
                break;
            }
            sum += v;
        }
        if problem.is_none() && (sum - 1.0).abs() > tolerance {
            problem = Some(format!("they sum to {sum}"));
        }
        if let Some(problem) = problem {
            let values = groups
                .iter()
                .zip(proba)
                .map(|(g, col)| format!("{g}={}", col[i]))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(MetricError::BadMembership {
                row: i,
                values,
                problem,
                tolerance,
            });
        }
    }
    Ok(())
}

fn label_error(what: &'static str, row: usize, label: usize) -> MetricError {
    MetricError::LabelOutOfRange {
        what,
        row,
        label,
        n_classes: 2,
    }
}

/// The Fréchet interval of a cell's mass of (Ŷ = 1, A = a): `ŷ` of the cell's mass `n` predicted
/// positive, `b` of it in the group.
fn frechet(yhat: f64, n: f64, b: f64) -> (f64, f64) {
    ((yhat - (n - b).max(0.0)).max(0.0), yhat.min(b))
}

/// A cell's tight support values `[U_lo, U_hi, V_lo, V_hi, S_lo, S_hi]` of the group's masses
/// `u` (in the rate's numerator cell, mass `t`) and `v` (the other cell of its denominator, mass
/// `f`; `tf` their union) when the rest of the group's mass `b` must fit in the cells of mass
/// `rest` (module docs, "derivation").
fn cell_support(t: f64, f: f64, tf: f64, rest: f64, b: f64) -> [f64; 6] {
    let l = (b - rest).max(0.0);
    let h = b.min(tf);
    [(l - f).max(0.0), t.min(h), (l - t).max(0.0), f.min(h), l, h]
}

/// The smallest and largest `U / (U + V)` over the polygon of summed support values; `None` when
/// `U + V` is 0 under every coupling.
fn corners([ul, uh, vl, vh, sl, sh]: [f64; 6]) -> Option<(f64, f64)> {
    if sh <= 0.0 {
        return None;
    }
    // The corner largest in U and smallest in V gives the maximum; the opposite the minimum.
    let (u_hi, v_hi) = (uh.min(sh - vl), vl.max(sl - uh));
    let (u_lo, v_lo) = (ul.max(sl - vh), vh.min(sh - ul));
    let ratio = |u: f64, v: f64, if_empty: f64| {
        let s = u + v;
        if s > 0.0 {
            (u / s).clamp(0.0, 1.0)
        } else {
            if_empty
        }
    };
    // An empty corner means the rate is constant where defined: 0 when no positive can be
    // predicted positive (u_hi = 0), 1 when none can be predicted negative (v_lo = 0).
    Some((ratio(u_lo, v_lo, 1.0), ratio(u_hi, v_hi, 0.0)))
}

/// Settings of [`InferredState::bootstrap`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapSettings {
    /// Number of resamples (at least 10).
    pub resamples: usize,
    /// Level of every interval, strictly between 0 and 1.
    pub confidence: f64,
    /// Seed of the draws.
    pub seed: u64,
}

/// Percentile intervals of one rate from [`InferredState::bootstrap`].
#[derive(Debug, Clone, PartialEq)]
pub struct RateIntervals {
    /// Which rate.
    pub rate: Rate,
    /// The weighted estimate's interval per group (`None` when the rate is undefined in most
    /// resamples).
    pub weighted: Vec<Option<(f64, f64)>>,
    /// The thresholded estimate's interval per group.
    pub thresholded: Vec<Option<(f64, f64)>>,
    /// Per requested pair of groups.
    pub pairs: Vec<PairIntervals>,
}

/// Intervals of one difference `rate(group) − rate(reference)`.
#[derive(Debug, Clone, PartialEq)]
pub struct PairIntervals {
    /// The group (minuend).
    pub group: usize,
    /// The reference group (subtrahend).
    pub reference: usize,
    /// The weighted estimator's difference.
    pub weighted: Option<(f64, f64)>,
    /// The thresholded estimator's difference.
    pub thresholded: Option<(f64, f64)>,
    /// The bounds with their sampling uncertainty: the `(1 − confidence) / 2` quantile of the
    /// resampled lower bound and the `(1 + confidence) / 2` quantile of the resampled upper
    /// bound (for the selection rate, TPR and FPR only; `None` otherwise).
    pub bounds: Option<(f64, f64)>,
}

/// One cell's masses as plain numbers (what a resample scales).
#[derive(Debug, Clone)]
struct FlatCell {
    rows: [u64; CELLS],
    mass: [f64; CELLS],
    group: Vec<[f64; CELLS]>,
    thr: Vec<[f64; CELLS]>,
}

/// `rate`'s bounds for group `g` over cells given as plain masses (the resampled path; the
/// point bounds keep forced cells exact instead).
fn flat_bounds(cells: &[FlatCell], g: usize, rate: Rate) -> Option<(f64, f64)> {
    let own_other = match rate {
        Rate::Selection => None,
        Rate::TruePositive => Some(([TP, FN], [FP, TN])),
        Rate::FalsePositive => Some(([FP, TN], [TP, FN])),
        _ => return None,
    };
    let mut support = [0.0; 6];
    let (mut lo, mut hi, mut den) = (0.0, 0.0, 0.0);
    for cell in cells {
        let m = &cell.mass;
        let n = m.iter().sum::<f64>();
        let b = cell.group[g].iter().sum::<f64>();
        if b <= 0.0 {
            continue;
        }
        match own_other {
            None => {
                den += b;
                let (l, h) = frechet(m[FP] + m[TP], n, b.min(n));
                lo += l;
                hi += h;
            }
            Some((own, other)) => {
                let s = cell_support(
                    m[own[0]],
                    m[own[1]],
                    m[own[0]] + m[own[1]],
                    m[other[0]] + m[other[1]],
                    b.min(n),
                );
                for (acc, v) in support.iter_mut().zip(s) {
                    *acc += v;
                }
            }
        }
    }
    match own_other {
        None => (den > 0.0).then(|| ((lo / den).clamp(0.0, 1.0), (hi / den).clamp(0.0, 1.0))),
        Some(_) => corners(support),
    }
}

/// Rates of every group from per-group cell sums.
fn flat_rates(sums: &[[f64; CELLS]], rate: Rate) -> Vec<Option<f64>> {
    let (num, den) = crate::state::rate_cells(rate);
    sums.iter()
        .map(|s| {
            let pick =
                |mask: [bool; CELLS]| (0..CELLS).filter(|&c| mask[c]).map(|c| s[c]).sum::<f64>();
            let d = pick(den);
            (d > 0.0).then(|| (pick(num) / d).clamp(0.0, 1.0))
        })
        .collect()
}

/// The percentile interval of the values drawn, `None` when fewer than half the resamples gave
/// one (the statistic is undefined in most).
fn percentile(mut v: Vec<f64>, resamples: usize, lo_q: f64, hi_q: f64) -> Option<(f64, f64)> {
    if v.len() * 2 < resamples || v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some((
        crate::ci::quantile_sorted(&v, lo_q),
        crate::ci::quantile_sorted(&v, hi_q),
    ))
}

impl InferredState {
    /// Bootstrap intervals of the weighted and thresholded estimates of each of `rates` per
    /// group, of their differences for each `(group, reference)` pair, and of the bounds of
    /// those differences.
    ///
    /// Rows are resampled with a Poisson(1) bootstrap, so the membership uncertainty (which
    /// rows, with which probabilities, land in the sample) is carried. The state keeps no rows,
    /// only per-cell sums, so the resampling unit is the aggregate of one (proxy cell,
    /// label, prediction): its row count is redrawn as Poisson(rows) and its sums scaled by
    /// the ratio. This is exactly a row bootstrap when the rows of an aggregate are alike —
    /// unweighted rows whose probabilities are the cell's (the default cells, or a proxy whose
    /// rows share their probabilities) — and otherwise rescales the aggregate's mean row.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] for fewer than 10 resamples, a confidence outside
    /// (0, 1) or a pair index out of range; [`MetricError::Empty`] for a state without rows.
    ///
    /// # Example
    /// ```
    /// use fair_metrics::inferred::{BootstrapSettings, InferredState};
    /// use fair_metrics::Rate;
    /// let mut s = InferredState::new(vec!["a".into(), "b".into()])?;
    /// let pa: Vec<f64> = (0..200).map(|i| if i % 2 == 0 { 0.9 } else { 0.2 }).collect();
    /// let pb: Vec<f64> = pa.iter().map(|p| 1.0 - p).collect();
    /// let y: Vec<usize> = (0..200).map(|i| (i / 3) % 2).collect();
    /// let yhat: Vec<usize> = (0..200).map(|i| (i / 5) % 2).collect();
    /// s.update(&y, &yhat, &[&pa, &pb], None, None)?;
    /// let settings = BootstrapSettings { resamples: 200, confidence: 0.95, seed: 1 };
    /// let out = s.bootstrap(&[Rate::Selection], &[(1, 0)], &settings)?;
    /// let (lo, hi) = out[0].weighted[0].unwrap();
    /// assert!(lo < hi);
    /// let (blo, bhi) = out[0].pairs[0].bounds.unwrap();
    /// let point = s.disparity_bounds(Rate::Selection, 1, 0)?.unwrap();
    /// assert!(blo <= point.lo && point.hi <= bhi);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn bootstrap(
        &self,
        rates: &[Rate],
        pairs: &[(usize, usize)],
        settings: &BootstrapSettings,
    ) -> Result<Vec<RateIntervals>> {
        use rand::SeedableRng;
        use rand_distr::{Distribution, Poisson};
        let k = self.groups.len();
        if settings.resamples < 10 {
            return Err(MetricError::InvalidParameter {
                name: "resamples",
                value: settings.resamples.to_string(),
                expected: "at least 10",
            });
        }
        if !(settings.confidence > 0.0 && settings.confidence < 1.0) {
            return Err(MetricError::InvalidParameter {
                name: "confidence",
                value: settings.confidence.to_string(),
                expected: "a level strictly between 0 and 1",
            });
        }
        if let Some(&(g, r)) = pairs.iter().find(|&&(g, r)| g >= k || r >= k || g == r) {
            return Err(MetricError::InvalidParameter {
                name: "group pair",
                value: format!("({g}, {r})"),
                expected: "two different group indices below the number of groups",
            });
        }
        if self.cells.is_empty() {
            return Err(MetricError::Empty {
                what: "inferred state",
            });
        }
        let flat: Vec<FlatCell> = self
            .cells
            .values()
            .map(|c| FlatCell {
                rows: c.rows,
                mass: std::array::from_fn(|i| c.mass[i].value()),
                group: c
                    .group
                    .iter()
                    .map(|g| std::array::from_fn(|i| g[i].value()))
                    .collect(),
                thr: c
                    .thr
                    .iter()
                    .map(|g| std::array::from_fn(|i| g[i].value()))
                    .collect(),
            })
            .collect();
        // draws[rate][statistic] of every resample: per group weighted, thresholded; per pair
        // weighted, thresholded, lower and upper bound.
        let stats = 2 * k + 4 * pairs.len();
        let mut draws = vec![vec![Vec::with_capacity(settings.resamples); stats]; rates.len()];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(settings.seed);
        let mut sample = flat.clone();
        for _ in 0..settings.resamples {
            let mut weighted = vec![[0.0; CELLS]; k];
            let mut thresholded = vec![[0.0; CELLS]; k];
            for (out, cell) in sample.iter_mut().zip(&flat) {
                for c in 0..CELLS {
                    let rows = cell.rows[c];
                    let factor = if rows == 0 {
                        0.0
                    } else {
                        let draw = Poisson::new(rows as f64).map_or(0.0, |p| p.sample(&mut rng));
                        draw / rows as f64
                    };
                    out.mass[c] = cell.mass[c] * factor;
                    for g in 0..k {
                        out.group[g][c] = cell.group[g][c] * factor;
                        out.thr[g][c] = cell.thr[g][c] * factor;
                        weighted[g][c] += out.group[g][c];
                        thresholded[g][c] += out.thr[g][c];
                    }
                }
            }
            for (ri, &rate) in rates.iter().enumerate() {
                let w = flat_rates(&weighted, rate);
                let t = flat_rates(&thresholded, rate);
                let bounds: Vec<Option<(f64, f64)>> = if matches!(
                    rate,
                    Rate::Selection | Rate::TruePositive | Rate::FalsePositive
                ) {
                    (0..k).map(|g| flat_bounds(&sample, g, rate)).collect()
                } else {
                    vec![None; k]
                };
                let d = &mut draws[ri];
                for g in 0..k {
                    d[g].extend(w[g]);
                    d[k + g].extend(t[g]);
                }
                for (pi, &(g, r)) in pairs.iter().enumerate() {
                    let at = 2 * k + 4 * pi;
                    d[at].extend(w[g].zip(w[r]).map(|(a, b)| a - b));
                    d[at + 1].extend(t[g].zip(t[r]).map(|(a, b)| a - b));
                    if let (Some(a), Some(b)) = (bounds[g], bounds[r]) {
                        d[at + 2].push(a.0 - b.1);
                        d[at + 3].push(a.1 - b.0);
                    }
                }
            }
        }
        let alpha = 1.0 - settings.confidence;
        let (lo_q, hi_q) = (alpha / 2.0, 1.0 - alpha / 2.0);
        let n = settings.resamples;
        Ok(rates
            .iter()
            .zip(draws)
            .map(|(&rate, mut d)| {
                let mut take = |i: usize| percentile(std::mem::take(&mut d[i]), n, lo_q, hi_q);
                let weighted = (0..k).map(&mut take).collect();
                let thresholded = (k..2 * k).map(&mut take).collect();
                let pairs = pairs
                    .iter()
                    .enumerate()
                    .map(|(pi, &(group, reference))| {
                        let at = 2 * k + 4 * pi;
                        let lo = take(at + 2).map(|q| q.0);
                        let hi = take(at + 3).map(|q| q.1);
                        PairIntervals {
                            group,
                            reference,
                            weighted: take(at),
                            thresholded: take(at + 1),
                            bounds: lo.zip(hi),
                        }
                    })
                    .collect();
                RateIntervals {
                    rate,
                    weighted,
                    thresholded,
                    pairs,
                }
            })
            .collect())
    }
}
