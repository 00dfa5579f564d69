//! Fair-PCA losses (Kamani, Haddadpour, Forsati & Mahdavi, "Efficient Fair PCA").
//!
//! For data `X` (rows = samples), groups and a `d × r` basis `U` with orthonormal columns:
//!
//! * reconstruction loss of group `i` (eq. 3): `L_i(U) = ‖X_i − X_i U Uᵀ‖_F²`;
//! * the group's own best rank-`r` loss: `L_i(U_i*) = ‖X_i‖_F² − Σ_{j≤r} λ_j(X_iᵀX_i)`, computed
//!   as the sum of the `d − r` smallest eigenvalues (the same number, without the cancellation of
//!   subtracting two large sums);
//! * disparity error (eq. 4): `E_i(U) = L_i(U) − L_i(U_i*) ≥ 0`;
//! * pairwise disparity (eq. 11): `Δ_ij = E_i − E_j` (signed, so `Δ_ji = −Δ_ij`).
//!
//! The paper uses raw sums, which make a large group's loss dominate; Samadi et al. divide by the
//! group size. Both are reported: [`PcaDisparity::raw`] (sums, as in the paper's equations) and
//! [`PcaDisparity::per_sample`] (every loss divided by its group's row count).
//!
//! No centring is done here: pass the rows exactly as the projection sees them, since `E_i ≥ 0`
//! only holds when `L_i(U)` and `L_i(U_i*)` use the same rows.

use crate::error::{MetricError, Result};
use crate::validate::{check_groups, check_nonempty};
use fair_data::Groups;
use nalgebra::{DMatrix, SymmetricEigen};

/// Default tolerance for `max |UᵀU − I| ≤ tol`.
pub const DEFAULT_ORTHONORMAL_TOLERANCE: f64 = 1e-8;

/// Per-group losses and disparities on one scale (raw sums or per sample).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupLosses {
    /// `L_i(U)` per group.
    pub loss: Vec<f64>,
    /// `L_i(U_i*)` per group: the loss of the group's own top-`r` PCA subspace.
    pub best_loss: Vec<f64>,
    /// `E_i(U) = L_i(U) − L_i(U_i*)` per group.
    pub disparity: Vec<f64>,
    /// `matrix[(i, j)] = E_i − E_j`.
    pub pairwise_disparity: DMatrix<f64>,
    /// `max_i E_i`.
    pub max_disparity: f64,
    /// Mean of `E_i` over groups (unweighted by group size).
    pub mean_disparity: f64,
    /// `max_{i,j} |E_i − E_j|`: how far the subspace is from the paper's fairness condition
    /// `E_1 = … = E_k`.
    pub max_pairwise_gap: f64,
}

/// Fair-PCA losses of a basis, raw and per sample.
#[derive(Debug, Clone, PartialEq)]
pub struct PcaDisparity {
    /// Group names, indexed by group code.
    pub names: Vec<String>,
    /// Rows per group.
    pub sizes: Vec<usize>,
    /// Target rank `r` (columns of the basis).
    pub rank: usize,
    /// `‖X − X U Uᵀ‖_F²` over all rows (eq. 2); the sum of the raw group losses.
    pub total_loss: f64,
    /// Losses as sums over each group's rows (the paper's equations).
    pub raw: GroupLosses,
    /// Every loss divided by its group's row count (Samadi et al.'s scale).
    pub per_sample: GroupLosses,
}

fn shape(rows: usize, cols: usize) -> String {
    format!("{rows} × {cols}")
}

/// Checks that every entry of a matrix is finite.
fn check_matrix_finite(what: &'static str, m: &DMatrix<f64>) -> Result<()> {
    match m.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(row) => Err(MetricError::NonFinite {
            what,
            row,
            value: m[row],
        }),
    }
}

/// Computes the fair-PCA losses of `basis` (`d × r`, orthonormal columns) on `x` (`n × d`).
///
/// # Errors
/// [`MetricError::Empty`] for no rows or columns, [`MetricError::ShapeMismatch`] when the basis
/// is not `d × r` with `r ≤ d`, [`MetricError::LengthMismatch`] when `groups` does not cover the
/// rows, [`MetricError::NonFinite`] for NaN/inf in `x` or `basis` (index is column-major),
/// [`MetricError::InvalidParameter`] for a negative or non-finite tolerance,
/// [`MetricError::NotOrthonormal`], and [`MetricError::EmptyGroup`].
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_metrics::pca_losses::{DEFAULT_ORTHONORMAL_TOLERANCE, pca_disparity};
/// use nalgebra::{DMatrix, dmatrix};
/// // Group a lies on the first axis, group b on the second; project onto the first axis.
/// let x = dmatrix![1.0, 0.0; 2.0, 0.0; 0.0, 3.0];
/// let groups = Groups::from_labels(&["a", "a", "b"]);
/// let u = dmatrix![1.0; 0.0];
/// let d = pca_disparity(&x, &groups, &u, DEFAULT_ORTHONORMAL_TOLERANCE)?;
/// assert_eq!(d.raw.loss, vec![0.0, 9.0]);      // b loses all of its 3² = 9
/// assert_eq!(d.raw.best_loss, vec![0.0, 0.0]); // each group alone fits in one dimension
/// assert_eq!(d.raw.disparity, vec![0.0, 9.0]);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn pca_disparity(
    x: &DMatrix<f64>,
    groups: &Groups,
    basis: &DMatrix<f64>,
    tolerance: f64,
) -> Result<PcaDisparity> {
    let (n, d) = x.shape();
    check_nonempty("data rows", n)?;
    check_nonempty("data columns", d)?;
    check_groups(groups, n)?;
    let (bd, r) = basis.shape();
    if bd != d || r > d {
        return Err(MetricError::ShapeMismatch {
            what: "basis U",
            expected: format!("{d} rows (one per feature) and at most {d} columns"),
            got: shape(bd, r),
        });
    }
    if !(tolerance.is_finite() && tolerance >= 0.0) {
        return Err(MetricError::InvalidParameter {
            name: "tolerance",
            value: tolerance.to_string(),
            expected: "a finite value >= 0",
        });
    }
    check_matrix_finite("data matrix", x)?;
    check_matrix_finite("basis U", basis)?;
    let gram = basis.tr_mul(basis) - DMatrix::<f64>::identity(r, r);
    let max_deviation = gram.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    if max_deviation > tolerance {
        return Err(MetricError::NotOrthonormal {
            max_deviation,
            tolerance,
        });
    }

    let names = groups.names().to_vec();
    let sizes = groups.counts();
    if let Some(g) = sizes.iter().position(|&s| s == 0) {
        return Err(MetricError::EmptyGroup {
            group: names[g].clone(),
        });
    }

    // Residuals computed directly (not as ‖X‖² − ‖XU‖²) so small losses keep their precision.
    let residual = x - (x * basis) * basis.transpose();
    let mut loss = vec![0.0_f64; names.len()];
    for (row, &g) in residual.row_iter().zip(groups.codes()) {
        loss[g] += row.norm_squared();
    }
    let total_loss = loss.iter().sum();

    let mut rows_of: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    for (i, &g) in groups.codes().iter().enumerate() {
        rows_of[g].push(i);
    }
    let mut best_loss = Vec::with_capacity(names.len());
    for rows in &rows_of {
        let xi = x.select_rows(rows);
        let mut eig: Vec<f64> = SymmetricEigen::new(xi.tr_mul(&xi))
            .eigenvalues
            .iter()
            .map(|&v| v.max(0.0)) // XᵢᵀXᵢ is PSD; negative eigenvalues are rounding.
            .collect();
        eig.sort_unstable_by(|a, b| b.total_cmp(a));
        best_loss.push(eig[r..].iter().sum());
    }

    let raw = GroupLosses::new(loss, best_loss);
    let per_sample = GroupLosses::new(
        raw.loss
            .iter()
            .zip(&sizes)
            .map(|(l, &s)| l / s as f64)
            .collect(),
        raw.best_loss
            .iter()
            .zip(&sizes)
            .map(|(l, &s)| l / s as f64)
            .collect(),
    );
    Ok(PcaDisparity {
        names,
        sizes,
        rank: r,
        total_loss,
        raw,
        per_sample,
    })
}

impl GroupLosses {
    fn new(loss: Vec<f64>, best_loss: Vec<f64>) -> Self {
        let disparity: Vec<f64> = loss.iter().zip(&best_loss).map(|(l, b)| l - b).collect();
        let k = disparity.len();
        let pairwise_disparity = DMatrix::from_fn(k, k, |i, j| disparity[i] - disparity[j]);
        let max_disparity = disparity.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean_disparity = disparity.iter().sum::<f64>() / k as f64;
        let max_pairwise_gap = pairwise_disparity
            .iter()
            .fold(0.0_f64, |m, v| m.max(v.abs()));
        Self {
            loss,
            best_loss,
            disparity,
            pairwise_disparity,
            max_disparity,
            mean_disparity,
            max_pairwise_gap,
        }
    }
}
