//! Baselines without fairness: vanilla PCA and per-group PCA; and the regularization constants
//! the paper's condition on `α` refers to.

use crate::data::{centred, check_finite, check_rank, mean_of, prepare};
use crate::error::{FairPcaError, Result};
use crate::linalg::{gram, sorted_eigen, top_eigenvectors};
use crate::model::Projection;
use crate::params::{Centering, LossScale};
use fair_data::Groups;
use nalgebra::DMatrix;

/// Vanilla ("normal") PCA: the top-`r` eigenvectors of `XᵀX` of the (centred) rows, which
/// minimize the total reconstruction loss (eq. 2) over all rank-`r` projections.
///
/// # Errors
/// [`FairPcaError::InvalidRank`] unless `1 ≤ r < d`, [`FairPcaError::Empty`] for no rows,
/// [`FairPcaError::NonFinite`] for NaN/inf, [`FairPcaError::Numerical`] if the eigen-solver fails.
///
/// # Examples
/// ```
/// use fair_pca::{Centering, vanilla_pca};
/// use nalgebra::dmatrix;
/// let x = dmatrix![3.0, 0.1; -3.0, -0.1; 0.0, 0.2; 0.0, -0.2];
/// let p = vanilla_pca(&x, 1, Centering::Global)?;
/// assert!(p.basis()[(0, 0)].abs() > 0.99);                // the long axis
/// # Ok::<(), fair_pca::FairPcaError>(())
/// ```
pub fn vanilla_pca(x: &DMatrix<f64>, r: usize, centering: Centering) -> Result<Projection> {
    check_rank(r, x.ncols())?;
    if x.nrows() == 0 {
        return Err(FairPcaError::Empty {
            what: "data matrix x",
        });
    }
    check_finite(x, "data matrix x")?;
    let mean = mean_of(x, centering);
    let a = gram(&centred(x, &mean));
    let (basis, _) = top_eigenvectors(&a, r, "vanilla PCA")?;
    Projection::new(basis, mean)
}

/// Per-group PCA: for each group, the top-`r` eigenvectors of its own `X_iᵀX_i` (rows centred by
/// the same global mean as every other method, so the losses are comparable). `U_i*` of eq. (4).
///
/// # Errors
/// As [`FairPca`](crate::FairPca)'s fit for the data checks (lengths, rank, finiteness, at least
/// two groups, `r` rows per group).
pub fn group_pca(
    x: &DMatrix<f64>,
    groups: &Groups,
    r: usize,
    centering: Centering,
) -> Result<Vec<Projection>> {
    let data = prepare(x, groups, r, centering)?;
    data.grams
        .iter()
        .map(|a| {
            let (basis, _) = top_eigenvectors(a, r, "per-group PCA")?;
            Projection::new(basis, data.mean.clone())
        })
        .collect()
}

/// The constants the paper's regularization condition `α ≥ γ` is stated with (the main text and
/// Appendix C disagree; see the spec, §2.9), on the chosen loss scale (`A_i → c_i A_i`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlphaBounds {
    /// Main text: `γ = max_{i,j} γ_min(A_i) − γ_max(A_j)` (almost always ≤ 0).
    pub paper_gamma: f64,
    /// Appendix C: `max_{i≠j} γ_max(A_j) − γ_min(A_i)` (largest minus smallest).
    pub appendix_gamma: f64,
    /// What a PSD Hessian of the ψ = identity pairwise objectives needs:
    /// `max_{i≠j} γ_max(c_i A_i − c_j A_j)`.
    pub exact_pairwise: f64,
    /// What convexity of the main objective `−tr(UᵀAU) + α‖U‖²` would need: `γ_max(c_0 A)`.
    pub main_objective: f64,
}

/// Computes [`AlphaBounds`] for `(x, groups)` at target dimension `r` (used only for the data
/// checks).
///
/// # Errors
/// As [`group_pca`].
pub fn regularization_bounds(
    x: &DMatrix<f64>,
    groups: &Groups,
    r: usize,
    scale: LossScale,
    centering: Centering,
) -> Result<AlphaBounds> {
    let data = prepare(x, groups, r, centering)?;
    let k = data.k();
    let c: Vec<f64> = match scale {
        LossScale::Raw => vec![1.0; k],
        LossScale::PerSample => data.counts.iter().map(|&n| 1.0 / n as f64).collect(),
    };
    let c0 = match scale {
        LossScale::Raw => 1.0,
        LossScale::PerSample => 1.0 / data.n as f64,
    };
    let mut hi = Vec::with_capacity(k);
    let mut lo = Vec::with_capacity(k);
    for (a, ci) in data.grams.iter().zip(&c) {
        let e = sorted_eigen(&(a * *ci), "regularization bounds")?;
        hi.push(e.values[0]);
        lo.push(e.values[e.values.len() - 1]);
    }
    let mut paper = f64::NEG_INFINITY;
    let mut appendix = f64::NEG_INFINITY;
    let mut exact = f64::NEG_INFINITY;
    for i in 0..k {
        for j in 0..k {
            paper = paper.max(lo[i] - hi[j]);
            if i != j {
                appendix = appendix.max(hi[j] - lo[i]);
                let diff = &data.grams[i] * c[i] - &data.grams[j] * c[j];
                exact = exact.max(sorted_eigen(&diff, "regularization bounds")?.values[0]);
            }
        }
    }
    let main = sorted_eigen(&(&data.total * c0), "regularization bounds")?.values[0];
    Ok(AlphaBounds {
        paper_gamma: paper,
        appendix_gamma: appendix,
        exact_pairwise: exact,
        main_objective: main,
    })
}
