//! Small dense linear-algebra helpers: eigen-decompositions that report failure instead of
//! looping or panicking, the polar projection onto orthonormal frames, random frames.

use crate::error::{FairPcaError, Result};
use nalgebra::{DMatrix, SVD, SymmetricEigen};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

/// Iteration cap of nalgebra's eigen-solver and SVD (their default, 0, means "loop forever").
const MAX_SWEEPS: usize = 10_000;

/// Eigen-decomposition of a symmetric matrix, eigenvalues in decreasing order.
pub(crate) struct SortedEigen {
    /// Eigenvalues, largest first.
    pub values: Vec<f64>,
    /// Eigenvectors as columns, in the order of `values`.
    pub vectors: DMatrix<f64>,
}

/// Eigen-decomposition of the symmetric matrix `a`, eigenvalues sorted in decreasing order
/// (ties keep nalgebra's order, so the result is deterministic).
pub(crate) fn sorted_eigen(a: &DMatrix<f64>, step: &'static str) -> Result<SortedEigen> {
    let eig = SymmetricEigen::try_new(a.clone(), f64::EPSILON, MAX_SWEEPS).ok_or_else(|| {
        FairPcaError::Numerical {
            step,
            reason: format!(
                "the symmetric eigen-solver did not converge on a {0} × {0} matrix",
                a.nrows()
            ),
        }
    })?;
    let mut order: Vec<usize> = (0..eig.eigenvalues.len()).collect();
    order.sort_by(|&i, &j| eig.eigenvalues[j].total_cmp(&eig.eigenvalues[i]));
    let values = order.iter().map(|&i| eig.eigenvalues[i]).collect();
    let vectors = eig.eigenvectors.select_columns(&order);
    Ok(SortedEigen { values, vectors })
}

/// The top-`r` eigenvectors of a symmetric matrix (as a `d × r` orthonormal basis) and the sum of
/// its top-`r` eigenvalues.
pub(crate) fn top_eigenvectors(
    a: &DMatrix<f64>,
    r: usize,
    step: &'static str,
) -> Result<(DMatrix<f64>, f64)> {
    let e = sorted_eigen(a, step)?;
    let basis = e.vectors.columns(0, r).into_owned();
    Ok((basis, e.values[..r].iter().sum()))
}

/// The polar factor of `m` (`d × r`, `r ≤ d`): the closest matrix with orthonormal columns in
/// Frobenius norm, `P Qᵀ` for the thin SVD `m = P Σ Qᵀ`.
pub(crate) fn polar(m: &DMatrix<f64>) -> Result<DMatrix<f64>> {
    if let Some(bad) = m.iter().find(|v| !v.is_finite()) {
        return Err(FairPcaError::Numerical {
            step: "projection onto orthonormal frames",
            reason: format!("the unprojected iterate has a non-finite entry ({bad})"),
        });
    }
    let svd = SVD::try_new(m.clone(), true, true, f64::EPSILON, MAX_SWEEPS).ok_or_else(|| {
        FairPcaError::Numerical {
            step: "projection onto orthonormal frames",
            reason: "the SVD did not converge".into(),
        }
    })?;
    match (svd.u, svd.v_t) {
        (Some(u), Some(v_t)) => Ok(u * v_t),
        _ => Err(FairPcaError::Numerical {
            step: "projection onto orthonormal frames",
            reason: "the SVD returned no singular vectors".into(),
        }),
    }
}

/// A uniformly random `d × r` frame: the polar factor of a standard Gaussian matrix.
pub(crate) fn random_frame<R: Rng + ?Sized>(
    d: usize,
    r: usize,
    rng: &mut R,
) -> Result<DMatrix<f64>> {
    // Filled column by column, so the stream of draws does not depend on nalgebra's layout.
    let mut g = DMatrix::<f64>::zeros(d, r);
    for j in 0..r {
        for i in 0..d {
            g[(i, j)] = StandardNormal.sample(rng);
        }
    }
    polar(&g)
}

/// `max |UᵀU − I|` over all entries.
pub fn orthonormality_error(u: &DMatrix<f64>) -> f64 {
    let r = u.ncols();
    let g = u.transpose() * u;
    let mut worst = 0.0_f64;
    for i in 0..r {
        for j in 0..r {
            let target = if i == j { 1.0 } else { 0.0 };
            worst = worst.max((g[(i, j)] - target).abs());
        }
    }
    worst
}

/// `XᵀX` made exactly symmetric (averaging the two triangles removes rounding asymmetry).
pub(crate) fn gram(x: &DMatrix<f64>) -> DMatrix<f64> {
    let xt = x.transpose();
    let a = &xt * x;
    (&a + a.transpose()) * 0.5
}

/// Frobenius inner product `tr(AᵀB)`.
pub(crate) fn inner(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    a.iter().zip(b.iter()).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn polar_of_a_scaled_frame_is_the_frame() {
        // polar(U · 3) = U for orthonormal U; polar(diag(2, 5)) = I.
        let m = dmatrix![2.0, 0.0; 0.0, 5.0; 0.0, 0.0];
        let p = polar(&m).unwrap();
        let expected = dmatrix![1.0, 0.0; 0.0, 1.0; 0.0, 0.0];
        assert!((p - expected).abs().max() < 1e-14);
    }

    #[test]
    fn polar_is_the_closest_frame_for_a_rotated_input() {
        // [[1, 1], [−1, 1]] = √2 · rotation(−45°): its polar factor is that rotation.
        let m = dmatrix![1.0, 1.0; -1.0, 1.0];
        let p = polar(&m).unwrap();
        let s = 0.5_f64.sqrt();
        let expected = dmatrix![s, s; -s, s];
        assert!((p - expected).abs().max() < 1e-14);
    }

    #[test]
    fn polar_rejects_non_finite() {
        let m = dmatrix![f64::NAN; 1.0];
        assert!(matches!(polar(&m), Err(FairPcaError::Numerical { .. })));
    }

    #[test]
    fn top_eigenvectors_of_a_diagonal_matrix() {
        let a = DMatrix::from_diagonal(&nalgebra::dvector![1.0, 4.0, 2.0]);
        let (u, s) = top_eigenvectors(&a, 2, "test").unwrap();
        assert!((s - 6.0).abs() < 1e-12);
        assert!((u[(1, 0)].abs() - 1.0).abs() < 1e-12);
        assert!((u[(2, 1)].abs() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn random_frames_are_orthonormal_and_reproducible() {
        let mut a = ChaCha8Rng::seed_from_u64(3);
        let mut b = ChaCha8Rng::seed_from_u64(3);
        let u = random_frame(7, 3, &mut a).unwrap();
        let v = random_frame(7, 3, &mut b).unwrap();
        assert!(orthonormality_error(&u) < 1e-13);
        assert_eq!(u, v);
    }
}
