//! The minimum-norm element of the convex hull of `m` gradients: the dual QP (37) of the
//! descent-direction problem (17).
//!
//! ```text
//! λ̂ = argmin_{λ ∈ Δ_m} ½ ‖Σ_i λ_i G_i‖_F² = argmin_{λ ∈ Δ_m} ½ λᵀ M λ,   M_ij = tr(G_iᵀ G_j)
//! D = −Σ_i λ̂_i G_i,   ‖D‖_F² = λ̂ᵀ M λ̂
//! ```
//!
//! Only the `m × m` Gram matrix `M` is needed. `m = 1` and `m = 2` have closed forms; for
//! `m ≥ 3` Wolfe's minimum-norm-point algorithm (Wolfe 1976, "Finding the nearest point in a
//! polytope") is used. It is an exact active-set method: it moves between affinely independent
//! supports ("corrals") and stops when the KKT condition
//!
//! ```text
//! (M λ)_j ≥ λᵀ M λ   for every j        (equality on the support)
//! ```
//!
//! holds, which is exactly the Lemma-1 inequality `tr(Dᵀ G_j) ≤ −‖D‖²`. It terminates after
//! finitely many steps in exact arithmetic; the `m` of fair PCA is small (`1 + C(k, 2)`, 11 for
//! five groups), so each solve costs microseconds. It was chosen over an interior-point QP
//! (clarabel) because it returns the exact active set (so `λ` has exact zeros and the KKT test
//! holds to rounding) and needs no extra dependency.

use crate::error::{FairPcaError, Result};
use nalgebra::{DMatrix, DVector};

/// Relative tolerance (times the largest squared gradient norm) of the optimality test.
const REL_TOL: f64 = 1e-12;

/// Weights at or below this are treated as zero inside Wolfe's minor cycles.
const WEIGHT_TOL: f64 = 1e-15;

/// The solution of the simplex QP.
#[derive(Debug, Clone, PartialEq)]
pub struct MinNormPoint {
    /// `λ̂`: non-negative weights summing to one.
    pub weights: Vec<f64>,
    /// `λ̂ᵀ M λ̂ = ‖D‖_F²`, clamped at zero.
    pub norm_sq: f64,
}

/// Solves `min_{λ ∈ Δ_m} λᵀ M λ` for a symmetric positive semi-definite Gram matrix `M`.
///
/// # Errors
/// [`FairPcaError::LengthMismatch`] when `M` is empty or not square,
/// [`FairPcaError::NonFinite`] for a NaN/infinite entry.
///
/// # Examples
/// ```
/// use fair_pca::min_norm::min_norm_point;
/// use nalgebra::dmatrix;
/// // Gradients e₁ and e₂: the nearest point of their hull to 0 is (½, ½), with ‖·‖² = ½.
/// let p = min_norm_point(&dmatrix![1.0, 0.0; 0.0, 1.0])?;
/// assert!((p.weights[0] - 0.5).abs() < 1e-15 && (p.norm_sq - 0.5).abs() < 1e-15);
/// # Ok::<(), fair_pca::FairPcaError>(())
/// ```
pub fn min_norm_point(gram: &DMatrix<f64>) -> Result<MinNormPoint> {
    let m = gram.nrows();
    if m == 0 || gram.ncols() != m {
        return Err(FairPcaError::LengthMismatch {
            what: "Gram matrix (must be square and non-empty)",
            expected: m.max(1),
            got: gram.ncols(),
        });
    }
    if let Some(i) = gram.iter().position(|v| !v.is_finite()) {
        return Err(FairPcaError::NonFinite {
            what: "Gram matrix",
            row: i % m,
            col: i / m,
            value: gram[i],
        });
    }
    let weights = match m {
        1 => vec![1.0],
        2 => two_point(gram),
        _ => wolfe(gram),
    };
    let lam = DVector::from_vec(weights.clone());
    let norm_sq = lam.dot(&(gram * &lam)).max(0.0);
    Ok(MinNormPoint { weights, norm_sq })
}

/// `λ₁ = clip(tr((G₂ − G₁)ᵀ G₂) / ‖G₁ − G₂‖², 0, 1)`; any λ is optimal when `G₁ = G₂` (½ is used).
fn two_point(gram: &DMatrix<f64>) -> Vec<f64> {
    let (a, b, c) = (gram[(0, 0)], gram[(0, 1)], gram[(1, 1)]);
    let denom = a - 2.0 * b + c;
    let scale = a.max(c);
    let l1 = if denom <= REL_TOL * scale {
        0.5
    } else {
        ((c - b) / denom).clamp(0.0, 1.0)
    };
    vec![l1, 1.0 - l1]
}

/// Wolfe's minimum-norm-point algorithm on the Gram matrix.
fn wolfe(gram: &DMatrix<f64>) -> Vec<f64> {
    let m = gram.nrows();
    let scale = (0..m).map(|i| gram[(i, i)]).fold(0.0_f64, f64::max);
    if scale <= 0.0 {
        // Every gradient is zero: any λ gives D = 0.
        return vec![1.0 / m as f64; m];
    }
    let tol = REL_TOL * scale;
    let first = (0..m)
        .min_by(|&i, &j| gram[(i, i)].total_cmp(&gram[(j, j)]))
        .unwrap_or(0);
    let mut lam = vec![0.0; m];
    lam[first] = 1.0;
    let mut support = vec![first];
    // Each major cycle strictly decreases ‖x‖ in exact arithmetic; the cap only guards rounding.
    for _ in 0..(50 * m + 50) {
        let lv = DVector::from_column_slice(&lam);
        let mv = gram * &lv;
        let norm_sq = lv.dot(&mv);
        let (j, best) = (0..m)
            .map(|j| (j, mv[j]))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((0, norm_sq));
        if best >= norm_sq - tol || support.contains(&j) {
            break;
        }
        support.push(j);
        // Minor cycles: move towards the affine minimiser of the corral, dropping points whose
        // weight would turn negative.
        for _ in 0..=m {
            let Some(w) = affine_minimizer(gram, &support) else {
                // Affinely dependent corral (rounding): drop the newest point and stop.
                support.pop();
                break;
            };
            if w.iter().all(|&wi| wi > WEIGHT_TOL) {
                for (k, &i) in support.iter().enumerate() {
                    lam[i] = w[k];
                }
                break;
            }
            let mut theta = 1.0_f64;
            for (k, &i) in support.iter().enumerate() {
                if w[k] <= WEIGHT_TOL {
                    let denom = lam[i] - w[k];
                    if denom > 0.0 {
                        theta = theta.min(lam[i] / denom);
                    }
                }
            }
            for (k, &i) in support.iter().enumerate() {
                lam[i] = (1.0 - theta) * lam[i] + theta * w[k];
            }
            // Drop the point(s) that reached zero (at least the one that set θ).
            let before = support.len();
            support.retain(|&i| lam[i] > WEIGHT_TOL);
            for (i, l) in lam.iter_mut().enumerate() {
                if !support.contains(&i) {
                    *l = 0.0;
                }
            }
            if support.len() == before {
                // θ was set by a weight that stayed (numerically) positive: drop the smallest.
                if let Some((pos, _)) = support
                    .iter()
                    .enumerate()
                    .min_by(|a, b| lam[*a.1].total_cmp(&lam[*b.1]))
                {
                    let i = support.remove(pos);
                    lam[i] = 0.0;
                }
            }
            if support.is_empty() {
                support.push(first);
                lam[first] = 1.0;
                break;
            }
        }
        let total: f64 = lam.iter().sum();
        if total > 0.0 {
            lam.iter_mut().for_each(|l| *l /= total);
        }
    }
    lam.iter_mut().for_each(|l| *l = l.max(0.0));
    let total: f64 = lam.iter().sum();
    lam.iter_mut().for_each(|l| *l /= total);
    lam
}

/// Weights `w` (summing to one) of the point of minimum norm in the affine hull of the points in
/// `support`: the solution of `[M_SS 1; 1ᵀ 0] [w; μ] = [0; 1]`. `None` when the system is singular.
fn affine_minimizer(gram: &DMatrix<f64>, support: &[usize]) -> Option<Vec<f64>> {
    let s = support.len();
    let mut k = DMatrix::<f64>::zeros(s + 1, s + 1);
    for (a, &i) in support.iter().enumerate() {
        for (b, &j) in support.iter().enumerate() {
            k[(a, b)] = gram[(i, j)];
        }
        k[(a, s)] = 1.0;
        k[(s, a)] = 1.0;
    }
    let mut rhs = DVector::<f64>::zeros(s + 1);
    rhs[s] = 1.0;
    let sol = k.full_piv_lu().solve(&rhs)?;
    let w: Vec<f64> = sol.iter().take(s).copied().collect();
    if w.iter().any(|v| !v.is_finite()) {
        return None;
    }
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    fn kkt_gap(gram: &DMatrix<f64>, p: &MinNormPoint) -> f64 {
        let lam = DVector::from_vec(p.weights.clone());
        let mv = gram * lam;
        mv.iter()
            .map(|v| p.norm_sq - v)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn single_gradient_gives_minus_the_gradient() {
        let p = min_norm_point(&dmatrix![4.0]).unwrap();
        assert_eq!(p.weights, vec![1.0]);
        assert!((p.norm_sq - 4.0).abs() < 1e-15);
    }

    #[test]
    fn two_points_closed_form_by_hand() {
        // G₁ = (1, 0), G₂ = (0, 2): λ₁ = (4 − 0)/(1 + 4) = 0.8, point (0.8, 0.4), ‖·‖² = 0.8.
        let p = min_norm_point(&dmatrix![1.0, 0.0; 0.0, 4.0]).unwrap();
        assert!((p.weights[0] - 0.8).abs() < 1e-15);
        assert!((p.norm_sq - 0.8).abs() < 1e-15);
        // G₁ = (1, 0), G₂ = (2, 0): the nearest point is G₁ itself (clipped at λ₁ = 1).
        let p = min_norm_point(&dmatrix![1.0, 2.0; 2.0, 4.0]).unwrap();
        assert_eq!(p.weights, vec![1.0, 0.0]);
    }

    #[test]
    fn three_points_by_hand() {
        // e₁, e₂, e₃ in R³: the centroid (⅓, ⅓, ⅓), ‖·‖² = ⅓.
        let p = min_norm_point(&DMatrix::identity(3, 3)).unwrap();
        for w in &p.weights {
            assert!((w - 1.0 / 3.0).abs() < 1e-14);
        }
        assert!((p.norm_sq - 1.0 / 3.0).abs() < 1e-14);
        // (1, 0), (−1, 0), (0, 1): 0 lies on the segment of the first two, so ‖D‖ = 0.
        let pts = [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]];
        let g = DMatrix::from_fn(3, 3, |i, j| pts[i][0] * pts[j][0] + pts[i][1] * pts[j][1]);
        let p = min_norm_point(&g).unwrap();
        assert!(p.norm_sq < 1e-14);
        assert!(p.weights[2] < 1e-14);
        assert!((p.weights[0] - 0.5).abs() < 1e-14);
    }

    #[test]
    fn dependent_points_still_satisfy_kkt() {
        // Four points on a line in R²: (1, 1), (2, 1), (3, 1), (−1, 1): nearest point (0, 1).
        let pts = [[1.0, 1.0], [2.0, 1.0], [3.0, 1.0], [-1.0, 1.0]];
        let g = DMatrix::from_fn(4, 4, |i, j| pts[i][0] * pts[j][0] + pts[i][1] * pts[j][1]);
        let p = min_norm_point(&g).unwrap();
        assert!((p.norm_sq - 1.0).abs() < 1e-12);
        assert!(kkt_gap(&g, &p) < 1e-12);
    }

    #[test]
    fn rejects_bad_gram() {
        assert!(min_norm_point(&DMatrix::zeros(0, 0)).is_err());
        assert!(min_norm_point(&DMatrix::zeros(2, 3)).is_err());
        assert!(matches!(
            min_norm_point(&dmatrix![1.0, f64::NAN; f64::NAN, 1.0]),
            Err(FairPcaError::NonFinite { .. })
        ));
    }
}
