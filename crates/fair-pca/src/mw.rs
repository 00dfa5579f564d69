//! The SDP-free fair-PCA baselines: multiplicative weights (MW) on the min–max problem (7),
//! as in Samadi et al. (2018, `mw.m`) for two groups and Tantipongpipat, Samadi, Singh,
//! Morgenstern & Vempala (2019, `MW.py`, "MM_Loss") for `k` groups.
//!
//! Both solve the SDP relaxation
//!
//! ```text
//! min_P max_i loss_i(P),   loss_i(P) = (S_i − ⟨A_i, P⟩) / n_i = E_i(P) / n_i,   tr P ≤ r,  0 ⪯ P ⪯ I
//! ```
//!
//! by multiplicative weights over the groups, with a PCA oracle (no SDP solver):
//!
//! ```text
//! w = (1/k, …, 1/k)
//! for t = 1..T:  P_t = top-r eigenprojection of Σ_i w_i A_i / n_i
//!                z_i = loss_i(P_t);   w_i ← w_i e^{η z_i} / normalizer
//! P̄ = (1/T) Σ_t P_t           (code defaults: η = 1, T = 10)
//! ```
//!
//! `P̄` is a fractional solution (eigenvalues in `[0, 1]`, trace `r`). [`MwRounding`] turns it
//! into a basis: Samadi et al.'s LP step on the eigenbasis of `P̄` grants one **extra dimension**
//! (rank ≤ r + 1, two groups); the two rank-`r` roundings grant none. Tantipongpipat et al.'s
//! iterative SDP rounding (rank ≤ `r + ⌊√(2k + 1/4) − 3/2⌋`) needs an SDP/LP solver and is not
//! implemented.

use crate::data::{GroupedData, prepare};
use crate::error::{FairPcaError, Result};
use crate::linalg::{inner, sorted_eigen, top_eigenvectors};
use crate::model::Projection;
use crate::params::Centering;
use fair_data::Groups;
use nalgebra::DMatrix;
use std::time::{Duration, Instant};

/// How the averaged MW solution `P̄` becomes an orthonormal basis.
///
/// # Examples
/// ```
/// use fair_pca::MwRounding;
/// assert_eq!(MwRounding::ExtraDimensionLp.to_string(), "extra_dimension_lp");
/// assert_eq!("best_iterate".parse::<MwRounding>()?, MwRounding::BestIterate);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MwRounding {
    /// The top-`r` eigenvectors of `P̄`: rank `r`, no extra dimension.
    #[default]
    TopEigenvectors,
    /// The MW iterate `P_t` (itself a rank-`r` projection) with the smallest `max_i loss_i`:
    /// rank `r`, no extra dimension.
    BestIterate,
    /// Samadi et al.'s LP on the eigenbasis `{v_j}` of `P̄`: an optimal vertex of
    /// `min_μ max_i (S_i − Σ_j μ_j v_jᵀA_iv_j)/n_i` over `μ ∈ [0, 1]^d, Σ μ_j = r`, which has at most
    /// two fractional entries; the basis is `{v_j : μ_j > 0}`, rank ≤ `r + 1` (the **extra
    /// dimension is granted**). Two groups only; the LP is solved exactly (see `lp_two_groups`).
    ExtraDimensionLp,
}

/// Unchecked settings of [`MwFairPca`].
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `rank` (r) | required | `1 ≤ r < d` (checked at fit) | target dimension |
/// | `eta` | `1.0` | finite, `> 0` | MW learning rate (code default of both papers) |
/// | `iterations` | `10` | `1..=100_000` | MW rounds `T` (code default of both papers) |
/// | `rounding` | [`MwRounding::TopEigenvectors`] | enum | how `P̄` becomes a basis |
/// | `centering` | [`Centering::Global`] | enum | centring of the data |
///
/// # Examples
/// ```
/// use fair_pca::{MwFairPca, MwRounding};
/// let p = MwFairPca::samadi(2).iterations(50).check()?;
/// assert_eq!(p.rounding(), MwRounding::ExtraDimensionLp);
/// assert!(MwFairPca::params(2).eta(0.0).check().is_err());
/// # Ok::<(), fair_pca::FairPcaError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MwFairPcaParams(MwFairPcaValidParams);

/// Validated settings of [`MwFairPca`].
#[derive(Debug, Clone, PartialEq)]
pub struct MwFairPcaValidParams {
    rank: usize,
    eta: f64,
    iterations: usize,
    rounding: MwRounding,
    centering: Centering,
}

impl MwFairPcaParams {
    /// Target dimension.
    pub fn rank(mut self, rank: usize) -> Self {
        self.0.rank = rank;
        self
    }
    /// MW learning rate `η`.
    pub fn eta(mut self, eta: f64) -> Self {
        self.0.eta = eta;
        self
    }
    /// MW rounds `T`.
    pub fn iterations(mut self, iterations: usize) -> Self {
        self.0.iterations = iterations;
        self
    }
    /// Rounding of `P̄`.
    pub fn rounding(mut self, rounding: MwRounding) -> Self {
        self.0.rounding = rounding;
        self
    }
    /// Centring of the data.
    pub fn centering(mut self, centering: Centering) -> Self {
        self.0.centering = centering;
        self
    }

    /// Validates the settings.
    ///
    /// # Errors
    /// [`FairPcaError::InvalidParameter`] for the first setting out of range.
    pub fn check(self) -> Result<MwFairPcaValidParams> {
        let p = &self.0;
        let bad = |name: &'static str, value: String, expected: &'static str| {
            Err(FairPcaError::InvalidParameter {
                name,
                value,
                expected,
            })
        };
        if p.rank == 0 {
            return bad(
                "rank",
                "0".into(),
                "at least 1 (and below the number of features)",
            );
        }
        if !(p.eta.is_finite() && p.eta > 0.0) {
            return bad("eta", p.eta.to_string(), "a finite value > 0");
        }
        if !(1..=100_000).contains(&p.iterations) {
            return bad(
                "iterations",
                p.iterations.to_string(),
                "an integer in 1..=100000",
            );
        }
        Ok(self.0)
    }

    /// Validates, then fits.
    ///
    /// # Errors
    /// As [`check`](Self::check) and [`MwFairPcaValidParams::fit`].
    pub fn fit(self, x: &DMatrix<f64>, groups: &Groups) -> Result<MwFairPca> {
        self.check()?.fit(x, groups)
    }
}

impl MwFairPcaValidParams {
    /// Target dimension.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// MW learning rate.
    pub fn eta(&self) -> f64 {
        self.eta
    }
    /// MW rounds.
    pub fn iterations(&self) -> usize {
        self.iterations
    }
    /// Rounding of `P̄`.
    pub fn rounding(&self) -> MwRounding {
        self.rounding
    }
    /// Centring.
    pub fn centering(&self) -> Centering {
        self.centering
    }

    /// Runs MW and rounds its average.
    ///
    /// # Errors
    /// The data errors of [`FairPca`](crate::FairPca)'s fit; [`FairPcaError::UnsupportedGroupCount`]
    /// for [`MwRounding::ExtraDimensionLp`] with other than two groups;
    /// [`FairPcaError::Numerical`] if an eigen-solver fails.
    pub fn fit(&self, x: &DMatrix<f64>, groups: &Groups) -> Result<MwFairPca> {
        let clock = Instant::now();
        let data = prepare(x, groups, self.rank, self.centering)?;
        let (basis, mut report) = self.solve(&data)?;
        report.elapsed = clock.elapsed();
        Ok(MwFairPca {
            projection: Projection::new(basis, data.mean)?,
            report,
        })
    }

    /// MW and the rounding on prepared data: the basis and the report (without wall time).
    pub(crate) fn solve(&self, data: &GroupedData) -> Result<(DMatrix<f64>, MwReport)> {
        let k = data.k();
        if self.rounding == MwRounding::ExtraDimensionLp && k != 2 {
            return Err(FairPcaError::UnsupportedGroupCount {
                method: "Samadi et al.'s LP rounding (MwRounding::ExtraDimensionLp)",
                supported: "exactly 2 groups",
                got: k,
                hint: "use MwRounding::TopEigenvectors or BestIterate for k groups",
            });
        }
        let r = self.rank;
        let d = data.d;
        let scaled: Vec<DMatrix<f64>> = data
            .grams
            .iter()
            .zip(&data.counts)
            .map(|(a, &n)| a / n as f64)
            .collect();
        let best = scaled
            .iter()
            .map(|b| top_eigenvectors(b, r, "per-group PCA").map(|(_, s)| s))
            .collect::<Result<Vec<_>>>()?;
        let losses = |u: &DMatrix<f64>| -> Vec<f64> {
            scaled
                .iter()
                .zip(&best)
                .map(|(b, s)| s - inner(u, &(b * u)))
                .collect()
        };
        // Log-weights: w_i ∝ exp(η Σ_t z_i^(t)), normalized by softmax (no overflow).
        let mut log_w = vec![0.0_f64; k];
        let mut p_bar = DMatrix::<f64>::zeros(d, d);
        let mut best_iterate: Option<(f64, DMatrix<f64>)> = None;
        for _ in 0..self.iterations {
            let top = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let w: Vec<f64> = log_w.iter().map(|l| (l - top).exp()).collect();
            let sum: f64 = w.iter().sum();
            let mut m = DMatrix::<f64>::zeros(d, d);
            for (b, wi) in scaled.iter().zip(&w) {
                m += b * (wi / sum);
            }
            let (u, _) = top_eigenvectors(&m, r, "MW oracle (weighted PCA)")?;
            let z = losses(&u);
            let worst = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if best_iterate.as_ref().is_none_or(|(b, _)| worst < *b) {
                best_iterate = Some((worst, u.clone()));
            }
            for (l, zi) in log_w.iter_mut().zip(&z) {
                *l += self.eta * zi;
            }
            p_bar += &u * u.transpose();
        }
        p_bar /= self.iterations as f64;
        p_bar = (&p_bar + p_bar.transpose()) * 0.5;
        let average_losses: Vec<f64> = scaled
            .iter()
            .zip(&best)
            .map(|(b, s)| s - inner(b, &p_bar))
            .collect();
        let top = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = log_w.iter().map(|l| (l - top).exp()).collect();
        let sum: f64 = w.iter().sum();
        let weights = w.iter().map(|v| v / sum).collect();
        let basis = match self.rounding {
            MwRounding::TopEigenvectors => top_eigenvectors(&p_bar, r, "rounding P̄")?.0,
            MwRounding::BestIterate => match best_iterate {
                Some((_, u)) => u,
                None => top_eigenvectors(&p_bar, r, "rounding P̄")?.0,
            },
            MwRounding::ExtraDimensionLp => {
                let e = sorted_eigen(&p_bar, "rounding P̄")?;
                let coef = |i: usize| -> Vec<f64> {
                    e.vectors
                        .column_iter()
                        .map(|v| v.dot(&(&scaled[i] * v)))
                        .collect()
                };
                let mu = lp_two_groups(&coef(0), &coef(1), best[0], best[1], r);
                let support: Vec<usize> = (0..d).filter(|&j| mu[j] > 1e-12).collect();
                e.vectors.select_columns(&support)
            }
        };
        let extra_dimensions = basis.ncols().saturating_sub(r);
        let report = MwReport {
            iterations: self.iterations,
            weights,
            average_losses,
            extra_dimensions,
            elapsed: Duration::ZERO,
        };
        Ok((basis, report))
    }
}

/// Diagnostics of an MW fit.
#[derive(Debug, Clone, PartialEq)]
pub struct MwReport {
    /// MW rounds run.
    pub iterations: usize,
    /// Final group weights `w` (after the last update).
    pub weights: Vec<f64>,
    /// `loss_i(P̄) = (S_i − ⟨A_i, P̄⟩)/n_i` of the fractional average, before rounding.
    pub average_losses: Vec<f64>,
    /// Columns of the basis beyond `r` (1 when Samadi's LP uses the extra dimension, else 0).
    pub extra_dimensions: usize,
    /// Wall time.
    pub elapsed: Duration,
}

/// A fitted MW fair-PCA baseline.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_pca::MwFairPca;
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_fn(30, 4, |i, j| (((i + 1) * (j + 3) * 37) % 11) as f64 - 5.0 + (i % 2 * j) as f64);
/// let groups = Groups::from_codes(&(0..30).map(|i| i % 2).collect::<Vec<_>>())?;
/// let samadi = MwFairPca::samadi(2).fit(&x, &groups)?;
/// assert!(samadi.projection().rank() <= 3);               // r + 1 at most
/// let mw = MwFairPca::params(2).fit(&x, &groups)?;
/// assert_eq!(mw.projection().rank(), 2);
/// # Ok::<(), fair_pca::FairPcaError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MwFairPca {
    projection: Projection,
    report: MwReport,
}

impl MwFairPca {
    /// Multi-group MW (Tantipongpipat et al.) with rank-`r` rounding; defaults in
    /// [`MwFairPcaParams`].
    pub fn params(r: usize) -> MwFairPcaParams {
        MwFairPcaParams(MwFairPcaValidParams {
            rank: r,
            eta: 1.0,
            iterations: 10,
            rounding: MwRounding::TopEigenvectors,
            centering: Centering::Global,
        })
    }

    /// Samadi et al.'s two-group fair PCA: MW, then the LP step with the extra dimension granted.
    pub fn samadi(r: usize) -> MwFairPcaParams {
        Self::params(r).rounding(MwRounding::ExtraDimensionLp)
    }

    /// The fitted projection (rank `r`, or `r + 1` with [`MwRounding::ExtraDimensionLp`]).
    pub fn projection(&self) -> &Projection {
        &self.projection
    }

    /// Diagnostics.
    pub fn report(&self) -> &MwReport {
        &self.report
    }
}

/// The greedy vertex of the capped simplex `{μ ∈ [0,1]^d : Σ μ = r}` for the weighted coefficients
/// `θ a₁ + (1 − θ) a₂`: the `r` largest, ties broken towards `θ + 0` (`right`) or `θ − 0`, then by
/// index.
fn greedy(a1: &[f64], a2: &[f64], theta: f64, r: usize, right: bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..a1.len()).collect();
    idx.sort_by(|&i, &j| {
        let vi = theta * a1[i] + (1.0 - theta) * a2[i];
        let vj = theta * a1[j] + (1.0 - theta) * a2[j];
        let (si, sj) = (a1[i] - a2[i], a1[j] - a2[j]);
        let by_slope = if right {
            sj.total_cmp(&si)
        } else {
            si.total_cmp(&sj)
        };
        vj.total_cmp(&vi).then(by_slope).then(i.cmp(&j))
    });
    idx.truncate(r);
    idx.sort_unstable();
    idx
}

/// Samadi et al.'s LP for two groups, solved exactly:
///
/// ```text
/// min_μ max(c₁ − a₁ᵀμ, c₂ − a₂ᵀμ)   s.t.  0 ≤ μ ≤ 1,  Σ μ = r
///   = max_{θ∈[0,1]} θc₁ + (1−θ)c₂ − (sum of the r largest of θa₁ + (1−θ)a₂)     (LP duality)
/// ```
///
/// The dual function is concave and piecewise linear in θ, and its slope is the loss gap
/// `g = loss₁ − loss₂` of the greedy vertex; bisection finds the θ* where `g` changes sign, and the
/// optimal vertex mixes two greedy vertices that differ by one swap so that the two losses are
/// equal: at most two fractional entries, support `r + 1`.
fn lp_two_groups(a1: &[f64], a2: &[f64], c1: f64, c2: f64, r: usize) -> Vec<f64> {
    let d = a1.len();
    let gap = |set: &[usize]| -> f64 {
        let (s1, s2) = set
            .iter()
            .fold((0.0, 0.0), |(x, y), &j| (x + a1[j], y + a2[j]));
        (c1 - s1) - (c2 - s2)
    };
    let indicator = |set: &[usize]| -> Vec<f64> {
        let mut mu = vec![0.0; d];
        set.iter().for_each(|&j| mu[j] = 1.0);
        mu
    };
    let left = greedy(a1, a2, 0.0, r, true);
    if gap(&left) <= 0.0 {
        return indicator(&left);
    }
    let right = greedy(a1, a2, 1.0, r, false);
    if gap(&right) >= 0.0 {
        return indicator(&right);
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if gap(&greedy(a1, a2, mid, r, true)) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let from = greedy(a1, a2, lo, r, true);
    // Bisection keeps gap(greedy(lo, +)) > 0 ≥ gap(greedy(hi, +)).
    let to = greedy(a1, a2, hi, r, true);
    // Walk from `from` (gap > 0) to `to` (gap < 0) one swap at a time; every set on the way is
    // optimal for the dual weight θ*, so mixing the two sets around the sign change is optimal.
    let outgoing: Vec<usize> = from.iter().copied().filter(|j| !to.contains(j)).collect();
    let incoming: Vec<usize> = to.iter().copied().filter(|j| !from.contains(j)).collect();
    let mut prev = from.clone();
    let mut g_prev = gap(&prev);
    if g_prev <= 0.0 {
        return indicator(&prev);
    }
    for (&o, &i) in outgoing.iter().zip(&incoming) {
        let next: Vec<usize> = prev.iter().map(|&j| if j == o { i } else { j }).collect();
        let g_next = gap(&next);
        if g_next <= 0.0 {
            let s = g_prev / (g_prev - g_next);
            let mut mu = indicator(&prev);
            mu[o] = 1.0 - s;
            mu[i] = s;
            return mu;
        }
        prev = next;
        g_prev = g_next;
    }
    indicator(&to)
}

/// The shared parameter check ([`fair_core::ParamGuard`]): `check_ref(&self)` and `check(self)`
/// both validate every setting and return the checked params, as the inherent methods do.
impl fair_core::ParamGuard for MwFairPcaParams {
    type Checked = MwFairPcaValidParams;
    type Error = crate::FairPcaError;

    fn check_ref(&self) -> std::result::Result<MwFairPcaValidParams, crate::FairPcaError> {
        MwFairPcaParams::check(self.clone())
    }

    fn check(self) -> std::result::Result<MwFairPcaValidParams, crate::FairPcaError> {
        MwFairPcaParams::check(self)
    }
}

// `Display`/`FromStr` (issue 27: once, in the crate that owns the enum).
fair_core::string_enum!(MwRounding, "MW rounding", {
    TopEigenvectors => "top_eigenvectors",
    BestIterate => "best_iterate",
    ExtraDimensionLp => "extra_dimension_lp",
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lp_by_hand_mixes_one_swap() {
        // Two directions, r = 1. Group 1 is served only by direction 0 (a₁ = (1, 0)), group 2 only
        // by direction 1 (a₂ = (0, 1)), and each group's best is 1 (c = 1). Any vertex leaves one
        // group with loss 1; μ = (½, ½) gives both loss ½.
        let mu = lp_two_groups(&[1.0, 0.0], &[0.0, 1.0], 1.0, 1.0, 1);
        assert!((mu[0] - 0.5).abs() < 1e-12 && (mu[1] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn lp_returns_a_vertex_when_one_group_dominates() {
        // Direction 0 serves both groups best: the vertex μ = (1, 0, 0) is optimal.
        let mu = lp_two_groups(&[2.0, 1.0, 0.0], &[2.0, 0.0, 1.0], 2.0, 2.0, 1);
        assert_eq!(mu, vec![1.0, 0.0, 0.0]);
    }

    #[test]
    fn lp_optimum_matches_a_fine_grid_of_mixtures() {
        // r = 2 of 4 directions; compare with brute force over mixtures of vertex pairs.
        let a1 = [3.0, 1.0, 0.5, 0.2];
        let a2 = [0.1, 0.4, 2.0, 1.5];
        let (c1, c2) = (4.0, 3.5);
        let mu = lp_two_groups(&a1, &a2, c1, c2, 2);
        let obj = |m: &[f64]| {
            let l1 = c1 - m.iter().zip(&a1).map(|(x, y)| x * y).sum::<f64>();
            let l2 = c2 - m.iter().zip(&a2).map(|(x, y)| x * y).sum::<f64>();
            l1.max(l2)
        };
        let ours = obj(&mu);
        assert!((mu.iter().sum::<f64>() - 2.0).abs() < 1e-12);
        assert!(mu.iter().filter(|&&m| m > 1e-12 && m < 1.0 - 1e-12).count() <= 2);
        let vertices: Vec<Vec<f64>> = (0..4)
            .flat_map(|i| (i + 1..4).map(move |j| (i, j)))
            .map(|(i, j)| {
                let mut v = vec![0.0; 4];
                v[i] = 1.0;
                v[j] = 1.0;
                v
            })
            .collect();
        let mut best = f64::INFINITY;
        for p in &vertices {
            for q in &vertices {
                for s in 0..=1000 {
                    let s = s as f64 / 1000.0;
                    let m: Vec<f64> = p
                        .iter()
                        .zip(q)
                        .map(|(x, y)| (1.0 - s) * x + s * y)
                        .collect();
                    best = best.min(obj(&m));
                }
            }
        }
        assert!(ours <= best + 1e-9, "LP {ours} vs grid {best}");
    }
}
