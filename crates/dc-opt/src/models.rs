//! The partial-fairness models of the paper as [`DcProblem`]s on the linear cross-term model.
//!
//! * [`PartialSp`] — model (15), partial statistical parity with auxiliary thresholds `θ_p`.
//! * [`PartialDp`] — model (21) partial demographic parity, and with [`DpVariant`] the appendix
//!   models (50) partial equal opportunity and (56) partial equalized odds.
//!
//! The objective is the mean logistic loss `f_0 = (1/n) Σ ln(1 + exp(−ζ_i h_w(ξ_i)))`
//! (`f_0⁻ = 0`, the loss is convex in `w`), with no regulariser, as in the paper's experiments.

use crate::data::CrossData;
use crate::error::{DcOptError, Result, check_finite};
use crate::params::Surrogate;
use crate::problem::{DcProblem, Part};
use fair_metrics::partial::PercentileInterval;
use rayon::prelude::*;
use std::ops::Range;

/// Scratch memory of the models: scores, per-row coefficients and per-cell surrogate means.
#[derive(Debug, Clone)]
pub struct ModelWorkspace {
    scores: Vec<f64>,
    coef: Vec<f64>,
    /// `(mean σ⁺, mean σ⁻)` per cell (model (21) family only).
    cell_means: Vec<(f64, f64)>,
    partials: Vec<f64>,
}

impl ModelWorkspace {
    /// `f_0^part` at the prepared scores, shared by both model families: the mean logistic loss
    /// (`f_0⁻ = 0`).
    fn objective(&mut self, data: &CrossData, part: Part) -> f64 {
        match part {
            Part::Plus => data.logistic_loss(&self.scores, &mut self.partials),
            Part::Minus => 0.0,
        }
    }

    /// Whether this workspace was made for `data` with `cells` cells.
    fn fits(&self, data: &CrossData, cells: usize) -> bool {
        self.scores.len() == data.n_rows()
            && self.coef.len() == data.n_rows()
            && self.cell_means.len() == cells
            && self.partials.len() == data.n_chunks()
    }
    fn new(data: &CrossData, cells: usize) -> Self {
        let n = data.n_rows();
        Self {
            scores: vec![0.0; n],
            coef: vec![0.0; n],
            cell_means: vec![(0.0, 0.0); cells],
            partials: vec![0.0; data.n_chunks()],
        }
    }
    /// Scores at the last prepared point, in the data's stored order.
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }
}

fn check_kappa(kappa: f64) -> Result<()> {
    if kappa.is_finite() && (0.0..=1.0).contains(&kappa) {
        Ok(())
    } else {
        Err(DcOptError::InvalidParameter {
            name: "kappa",
            value: format!("{kappa}"),
            expected: "κ in [0, 1]",
        })
    }
}

/// Means of `σ⁺(s_i − t)` and `σ⁻(s_i − t)` over `rows`.
fn surrogate_means(sur: Surrogate, scores: &[f64], rows: Range<usize>, t: f64) -> (f64, f64) {
    let n = rows.len() as f64;
    let (a, b) = match sur {
        Surrogate::HardSigmoid => hard_sigmoid_sums(&scores[rows], t),
        Surrogate::Logistic => scores[rows].iter().fold((0.0, 0.0), |(a, b), &s| {
            (a + sur.plus(s - t), b + sur.minus(s - t))
        }),
    };
    (a / n, b / n)
}

/// `(Σ max(s − t + ½, 0), Σ max(s − t − ½, 0))`. This is the hottest loop of model (15)
/// (2|Î|G passes over the scores per inner step): four independent accumulators let the
/// compiler keep it in SIMD registers without the enum dispatch of [`Surrogate::plus`].
fn hard_sigmoid_sums(s: &[f64], t: f64) -> (f64, f64) {
    let (lo, hi) = (t - 0.5, t + 0.5);
    let mut a = [0.0; 4];
    let mut b = [0.0; 4];
    let chunks = s.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        for l in 0..4 {
            a[l] += (c[l] - lo).max(0.0);
            b[l] += (c[l] - hi).max(0.0);
        }
    }
    let (mut sa, mut sb) = ((a[0] + a[1]) + (a[2] + a[3]), (b[0] + b[1]) + (b[2] + b[3]));
    for &x in rest {
        sa += (x - lo).max(0.0);
        sb += (x - hi).max(0.0);
    }
    (sa, sb)
}

/// Objective part shared by both models.
fn objective_subgradient(data: &CrossData, part: Part, ws: &mut ModelWorkspace, out: &mut [f64]) {
    out.fill(0.0);
    if part == Part::Plus {
        data.logistic_coef(&ws.scores, &mut ws.coef);
        data.add_xt_mul(&ws.coef, 0..data.n_rows(), &mut out[..data.dim()]);
    }
}

/// `Î`: `count` equally spaced points `α + j·(β − κ(β − α) − α)/count`, `j = 0..count`, i.e. the
/// left-closed grid over Lemma 5.1's range `[α, β − κ(β−α))` with spacing ≤ (β − α)/count.
///
/// The paper says "ten equally spaced values in I" (§7.1) but Lemma 5.1 only needs
/// `p < β − κ(β−α)`; points beyond that over-restrict. This is the crate's documented choice.
///
/// # Errors
/// [`DcOptError::InvalidParameter`] for `count = 0` or κ outside `[0, 1]`.
pub fn percentile_grid(interval: PercentileInterval, kappa: f64, count: usize) -> Result<Vec<f64>> {
    check_kappa(kappa)?;
    crate::params::at_least_one("grid size |Î|", count)?;
    let (a, b) = (interval.alpha(), interval.beta());
    let top = b - kappa * (b - a);
    Ok((0..count)
        .map(|j| a + j as f64 * (top - a) / count as f64)
        .collect())
}

/// Model (15): `min f_0(w)` s.t. `p ≤ (1/n_k) Σ_i σ(h_w(ξ_i^k) − θ_p) ≤ p + κ(β − α)` for every
/// `p ∈ Î` and group `k`; the variable is `x = (w, θ) ∈ R^{2d+2} × R^{|Î|}`.
///
/// Constraint `1 + 2(j·G + k)` is the lower bound of grid point `j` and group `k`, the next one
/// its upper bound (`m = 2|Î|G`). With `Φ^±_k = mean σ^±(h − θ_p)` over group `k` (Example D.3):
///
/// ```text
/// lower: f⁺ = Φ⁻_k,  f⁻ = Φ⁺_k − p
/// upper: f⁺ = Φ⁺_k,  f⁻ = Φ⁻_k + p + κ(β − α)
/// ```
#[derive(Debug, Clone)]
pub struct PartialSp<'a> {
    data: &'a CrossData,
    grid: Vec<f64>,
    kappa: f64,
    width: f64,
    surrogate: Surrogate,
}

impl<'a> PartialSp<'a> {
    /// Model (15) on `data` for interval `interval`, tolerance `kappa` and grid `grid` (`Î`,
    /// e.g. from [`percentile_grid`]).
    ///
    /// # Errors
    /// [`DcOptError::InvalidParameter`] for κ ∉ [0, 1], an empty grid, or a grid point outside
    /// `[α, β)`; [`DcOptError::NonFinite`] for a NaN grid point.
    pub fn new(
        data: &'a CrossData,
        interval: PercentileInterval,
        kappa: f64,
        grid: Vec<f64>,
        surrogate: Surrogate,
    ) -> Result<Self> {
        check_kappa(kappa)?;
        check_finite("grid Î", &grid)?;
        if grid.is_empty() {
            return Err(DcOptError::Empty { what: "grid Î" });
        }
        if grid
            .iter()
            .any(|p| !(interval.alpha()..interval.beta()).contains(p))
        {
            return Err(DcOptError::InvalidParameter {
                name: "grid Î",
                value: format!("{grid:?}"),
                expected: "every point in [α, β)",
            });
        }
        Ok(Self {
            data,
            grid,
            kappa,
            width: interval.beta() - interval.alpha(),
            surrogate,
        })
    }

    /// The grid `Î`.
    pub fn grid(&self) -> &[f64] {
        &self.grid
    }

    /// The feasible start of the notes (§3.7): `w = 0` and `θ_p = −σ⁻¹(p + κ(β−α)/2)`, so every
    /// group mean is `p + κ(β−α)/2`, strictly inside its band (`½ − p − κ(β−α)/2` for the hard
    /// sigmoid).
    pub fn initial_point(&self) -> Vec<f64> {
        let mut x = vec![0.0; self.dim()];
        let half = 0.5 * self.kappa * self.width;
        for (j, &p) in self.grid.iter().enumerate() {
            let t = (p + half).clamp(1e-9, 1.0 - 1e-9);
            x[self.data.dim() + j] = -self.surrogate.inverse(t);
        }
        x
    }

    /// The weights `w` part of a variable `x = (w, θ)` (all of `x` if it is shorter).
    pub fn weights<'x>(&self, x: &'x [f64]) -> &'x [f64] {
        &x[..self.data.dim().min(x.len())]
    }

    /// `x` and the output buffer have the lengths the trait requires, and `ws` fits.
    fn buffers_ok(&self, x: &[f64], out: usize, want: usize, ws: &ModelWorkspace) -> bool {
        x.len() == self.dim() && out == want && ws.fits(self.data, 0)
    }

    fn locate(&self, i: usize) -> (usize, usize, bool) {
        let g = self.data.n_groups();
        let c = i - 1;
        let upper = c % 2 == 1;
        let jk = c / 2;
        (jk / g, jk % g, upper)
    }
}

impl DcProblem for PartialSp<'_> {
    type Workspace = ModelWorkspace;

    fn dim(&self) -> usize {
        self.data.dim() + self.grid.len()
    }
    fn n_constraints(&self) -> usize {
        2 * self.grid.len() * self.data.n_groups()
    }
    fn workspace(&self) -> ModelWorkspace {
        ModelWorkspace::new(self.data, 0)
    }
    fn prepare(&self, x: &[f64], ws: &mut ModelWorkspace) {
        if !ws.fits(self.data, 0) {
            *ws = self.workspace();
        }
        if x.len() == self.dim() {
            self.data.scores_into(&x[..self.data.dim()], &mut ws.scores);
        } else {
            ws.scores.fill(f64::NAN);
        }
    }
    fn values(&self, part: Part, x: &[f64], ws: &mut ModelWorkspace, out: &mut [f64]) {
        self.fill(part, x, ws, out, true);
    }
    fn constraint_values(&self, part: Part, x: &[f64], ws: &mut ModelWorkspace, out: &mut [f64]) {
        self.fill(part, x, ws, out, false);
    }
    fn objective_value(
        &self,
        part: Part,
        x: &[f64],
        ws: &mut ModelWorkspace,
        scratch: &mut [f64],
    ) -> f64 {
        if !self.buffers_ok(x, scratch.len(), self.n_constraints() + 1, ws) {
            return f64::NAN;
        }
        ws.objective(self.data, part)
    }
    fn subgradient(
        &self,
        part: Part,
        i: usize,
        x: &[f64],
        ws: &mut ModelWorkspace,
        out: &mut [f64],
    ) {
        if !self.buffers_ok(x, out.len(), self.dim(), ws) || i > self.n_constraints() {
            out.fill(f64::NAN);
            return;
        }
        if i == 0 {
            return objective_subgradient(self.data, part, ws, out);
        }
        out.fill(0.0);
        let nw = self.data.dim();
        let (j, k, upper) = self.locate(i);
        // lower: f⁺ = Φ⁻, f⁻ = Φ⁺ − p;  upper: f⁺ = Φ⁺, f⁻ = Φ⁻ + const.
        let use_plus = matches!((upper, part), (false, Part::Minus) | (true, Part::Plus));
        let rows = self.data.group(k);
        let nk = rows.len() as f64;
        let t = x[nw + j];
        let sur = self.surrogate;
        let mut total = 0.0;
        for r in rows.clone() {
            let z = ws.scores[r] - t;
            let c = if use_plus {
                sur.dplus(z)
            } else {
                sur.dminus(z)
            } / nk;
            ws.coef[r] = c;
            total += c;
        }
        self.data.add_xt_mul(&ws.coef, rows, &mut out[..nw]);
        out[nw + j] = -total;
    }
}

impl PartialSp<'_> {
    /// The body of `values` (`with_objective`) and `constraint_values` (without).
    fn fill(
        &self,
        part: Part,
        x: &[f64],
        ws: &mut ModelWorkspace,
        out: &mut [f64],
        with_objective: bool,
    ) {
        if !self.buffers_ok(x, out.len(), self.n_constraints() + 1, ws) {
            out.fill(f64::NAN);
            return;
        }
        let nw = self.data.dim();
        let g = self.data.n_groups();
        if with_objective {
            out[0] = ws.objective(self.data, part);
        }
        let scores = &ws.scores;
        out[1..]
            .par_chunks_mut(2)
            .enumerate()
            .for_each(|(jk, pair)| {
                let (j, k) = (jk / g, jk % g);
                let p = self.grid[j];
                let (phi_p, phi_m) =
                    surrogate_means(self.surrogate, scores, self.data.group(k), x[nw + j]);
                match part {
                    Part::Plus => {
                        pair[0] = phi_m;
                        pair[1] = phi_p;
                    }
                    Part::Minus => {
                        pair[0] = phi_p - p;
                        pair[1] = phi_m + p + self.kappa * self.width;
                    }
                }
            });
    }
}

/// Which parity the model (21) family constrains.
///
/// # Examples
/// ```
/// use dc_opt::DpVariant;
/// assert_eq!(DpVariant::EqualizedOdds.to_string(), "equalized_odds");
/// assert_eq!("demographic_parity".parse::<DpVariant>()?, DpVariant::DemographicParity);
/// // The same spellings (and alias) as `PartialConstraint`'s model (21) variants.
/// assert_eq!("true_positive_rate_parity".parse::<DpVariant>()?, DpVariant::EqualOpportunity);
/// # Ok::<(), fair_core::ConstraintError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DpVariant {
    /// Model (21): partial demographic parity, percentiles within each group.
    #[default]
    DemographicParity,
    /// Model (50): partial equal opportunity, percentiles within each group's positives.
    EqualOpportunity,
    /// Model (56): partial equalized odds, (50) on the positives and on the negatives.
    EqualizedOdds,
}

/// Model (21) and its appendix variants (50)/(56): for every ordered pair of cells `(a, b)`,
///
/// ```text
/// min{S_a, β} − min{S_a, α} − min{S_b, β} + min{S_b, α} ≤ κ(β − α),
/// S_c = (1/n_c) Σ_{i ∈ c} σ(h_w(ξ_i) − θ̂),
/// ```
/// split as in Example D.5 with `A_c^t = max{S_c⁻ + t, S_c⁺}`:
/// `f⁺ = S_a⁺ + A_a^α + S_b⁺ + A_b^β`, `f⁻ = S_b⁺ + A_b^α + S_a⁺ + A_a^β + κ(β − α)`.
/// The paper's redundant `S⁺` terms are kept (they cancel in `f` but make the IDCA majorant
/// more conservative), as the notes recommend for fidelity.
#[derive(Debug, Clone)]
pub struct PartialDp<'a> {
    data: &'a CrossData,
    cells: Vec<Range<usize>>,
    pairs: Vec<(usize, usize)>,
    alpha: f64,
    beta: f64,
    kappa: f64,
    threshold: f64,
    surrogate: Surrogate,
}

impl<'a> PartialDp<'a> {
    /// The model on `data`; `threshold` is θ̂ (the paper uses 0).
    ///
    /// # Errors
    /// [`DcOptError::InvalidParameter`] for κ ∉ [0, 1] or a non-finite threshold;
    /// [`DcOptError::EmptyGroup`] when a cell the variant needs (e.g. a group's positives) is
    /// empty.
    pub fn new(
        data: &'a CrossData,
        interval: PercentileInterval,
        kappa: f64,
        threshold: f64,
        surrogate: Surrogate,
        variant: DpVariant,
    ) -> Result<Self> {
        check_kappa(kappa)?;
        if !threshold.is_finite() {
            return Err(DcOptError::InvalidParameter {
                name: "threshold θ̂",
                value: format!("{threshold}"),
                expected: "a finite number",
            });
        }
        let g = data.n_groups();
        let mut cells = Vec::new();
        let mut pairs = Vec::new();
        let mut add_family = |cells_of: &dyn Fn(usize) -> Range<usize>, what| -> Result<()> {
            let base = cells.len();
            for k in 0..g {
                let c = cells_of(k);
                if c.is_empty() {
                    return Err(DcOptError::EmptyGroup { group: k, what });
                }
                cells.push(c);
            }
            for a in 0..g {
                for b in 0..g {
                    if a != b {
                        pairs.push((base + a, base + b));
                    }
                }
            }
            Ok(())
        };
        match variant {
            DpVariant::DemographicParity => {
                add_family(&|k| data.group(k), "the training rows")?;
            }
            DpVariant::EqualOpportunity => {
                add_family(&|k| data.cell(k, 1), "the positives of the group")?;
            }
            DpVariant::EqualizedOdds => {
                add_family(&|k| data.cell(k, 1), "the positives of the group")?;
                add_family(&|k| data.cell(k, 0), "the negatives of the group")?;
            }
        }
        Ok(Self {
            data,
            cells,
            pairs,
            alpha: interval.alpha(),
            beta: interval.beta(),
            kappa,
            threshold,
            surrogate,
        })
    }

    /// The feasible start `w = 0` (all `S_c = σ(−θ̂)`, so every left-hand side is 0).
    pub fn initial_point(&self) -> Vec<f64> {
        vec![0.0; self.dim()]
    }

    /// The ordered cell pairs, one per constraint.
    pub fn n_pairs(&self) -> usize {
        self.pairs.len()
    }

    /// `x` and the output buffer have the lengths the trait requires, and `ws` fits.
    fn buffers_ok(&self, x: &[f64], out: usize, want: usize, ws: &ModelWorkspace) -> bool {
        x.len() == self.dim() && out == want && ws.fits(self.data, self.cells.len())
    }

    /// Subgradient coefficient of `A_c^t` per row: uses σ⁻' when `S_c⁻ + t ≥ S_c⁺`.
    fn a_uses_minus(&self, ws: &ModelWorkspace, c: usize, t: f64) -> bool {
        let (sp, sm) = ws.cell_means[c];
        sm + t >= sp
    }
}

impl DcProblem for PartialDp<'_> {
    type Workspace = ModelWorkspace;

    fn dim(&self) -> usize {
        self.data.dim()
    }
    fn n_constraints(&self) -> usize {
        self.pairs.len()
    }
    fn workspace(&self) -> ModelWorkspace {
        ModelWorkspace::new(self.data, self.cells.len())
    }
    fn prepare(&self, x: &[f64], ws: &mut ModelWorkspace) {
        if !ws.fits(self.data, self.cells.len()) {
            *ws = self.workspace();
        }
        if x.len() == self.dim() {
            self.data.scores_into(x, &mut ws.scores);
        } else {
            ws.scores.fill(f64::NAN);
        }
        for (c, rows) in self.cells.iter().enumerate() {
            ws.cell_means[c] =
                surrogate_means(self.surrogate, &ws.scores, rows.clone(), self.threshold);
        }
    }
    fn values(&self, part: Part, x: &[f64], ws: &mut ModelWorkspace, out: &mut [f64]) {
        self.fill(part, x, ws, out, true);
    }
    fn constraint_values(&self, part: Part, x: &[f64], ws: &mut ModelWorkspace, out: &mut [f64]) {
        self.fill(part, x, ws, out, false);
    }
    fn objective_value(
        &self,
        part: Part,
        x: &[f64],
        ws: &mut ModelWorkspace,
        scratch: &mut [f64],
    ) -> f64 {
        if !self.buffers_ok(x, scratch.len(), self.n_constraints() + 1, ws) {
            return f64::NAN;
        }
        ws.objective(self.data, part)
    }
    fn subgradient(
        &self,
        part: Part,
        i: usize,
        x: &[f64],
        ws: &mut ModelWorkspace,
        out: &mut [f64],
    ) {
        if !self.buffers_ok(x, out.len(), self.dim(), ws) || i > self.n_constraints() {
            out.fill(f64::NAN);
            return;
        }
        if i == 0 {
            return objective_subgradient(self.data, part, ws, out);
        }
        out.fill(0.0);
        let (ca, cb) = self.pairs[i - 1];
        // Plus: S_a⁺ + A_a^α + S_b⁺ + A_b^β;  Minus: S_a⁺ + A_a^β + S_b⁺ + A_b^α.
        let (ta, tb) = match part {
            Part::Plus => (self.alpha, self.beta),
            Part::Minus => (self.beta, self.alpha),
        };
        for (c, t) in [(ca, ta), (cb, tb)] {
            let minus = self.a_uses_minus(ws, c, t);
            let rows = self.cells[c].clone();
            let nc = rows.len() as f64;
            let sur = self.surrogate;
            for r in rows.clone() {
                let z = ws.scores[r] - self.threshold;
                let da = if minus { sur.dminus(z) } else { sur.dplus(z) };
                ws.coef[r] = (sur.dplus(z) + da) / nc;
            }
            self.data.add_xt_mul(&ws.coef, rows, out);
        }
    }
}

impl PartialDp<'_> {
    /// The body of `values` (`with_objective`) and `constraint_values` (without).
    fn fill(
        &self,
        part: Part,
        x: &[f64],
        ws: &mut ModelWorkspace,
        out: &mut [f64],
        with_objective: bool,
    ) {
        if !self.buffers_ok(x, out.len(), self.n_constraints() + 1, ws) {
            out.fill(f64::NAN);
            return;
        }
        if with_objective {
            out[0] = ws.objective(self.data, part);
        }
        let a = |c: usize, t: f64| {
            let (sp, sm) = ws.cell_means[c];
            (sm + t).max(sp)
        };
        let sp = |c: usize| ws.cell_means[c].0;
        for (i, &(ca, cb)) in self.pairs.iter().enumerate() {
            out[1 + i] = match part {
                Part::Plus => sp(ca) + a(ca, self.alpha) + sp(cb) + a(cb, self.beta),
                Part::Minus => {
                    sp(cb)
                        + a(cb, self.alpha)
                        + sp(ca)
                        + a(ca, self.beta)
                        + self.kappa * (self.beta - self.alpha)
                }
            };
        }
    }
}

#[cfg(test)]
mod kernel_tests {
    use super::*;

    #[test]
    fn hard_sigmoid_sums_match_the_plain_fold() {
        // Lengths around the 4-lane chunking, scores on both sides of both kinks.
        for n in [0usize, 1, 3, 4, 5, 9, 17] {
            let s: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin() * 2.0).collect();
            for t in [-1.0, -0.2, 0.0, 0.6, 1.5] {
                let (a, b) = hard_sigmoid_sums(&s, t);
                let sur = Surrogate::HardSigmoid;
                let ea: f64 = s.iter().map(|&x| sur.plus(x - t)).sum();
                let eb: f64 = s.iter().map(|&x| sur.minus(x - t)).sum();
                assert!(
                    (a - ea).abs() < 1e-12 && (b - eb).abs() < 1e-12,
                    "n={n} t={t}"
                );
            }
        }
    }
}

// `Display`/`FromStr` from the shared vocabulary, as `PartialConstraint`'s model (21) variants.
fair_core::constraint_subset!(DpVariant, "partial-parity model (21)", {
    DemographicParity => DemographicParity,
    EqualOpportunity => EqualOpportunity,
    EqualizedOdds => EqualizedOdds,
});
