//! Input validation and the per-group Gram matrices every method starts from.

use crate::error::{FairPcaError, Result};
use crate::linalg::gram;
use crate::params::Centering;
use fair_data::Groups;
use nalgebra::{DMatrix, DVector};

/// Validated, centred data summarized by per-group Gram matrices `A_i = X_iᵀ X_i`.
#[derive(Debug, Clone)]
pub(crate) struct GroupedData {
    /// Number of features.
    pub d: usize,
    /// Number of rows.
    pub n: usize,
    /// Rows per group.
    pub counts: Vec<usize>,
    /// The mean subtracted from every row (zeros without centring).
    pub mean: DVector<f64>,
    /// `A_i` of the centred rows of group `i`.
    pub grams: Vec<DMatrix<f64>>,
    /// `A = Σ_i A_i` (exactly the Gram matrix of the stacked centred rows).
    pub total: DMatrix<f64>,
}

impl GroupedData {
    /// Number of groups.
    pub fn k(&self) -> usize {
        self.grams.len()
    }
}

/// Fails on the first NaN/infinite entry of `x`, naming its row and column.
pub(crate) fn check_finite(x: &DMatrix<f64>, what: &'static str) -> Result<()> {
    match x.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(FairPcaError::NonFinite {
            what,
            row: i % x.nrows(),
            col: i / x.nrows(),
            value: x[i],
        }),
    }
}

/// Fails unless `1 ≤ r < d`.
pub(crate) fn check_rank(r: usize, d: usize) -> Result<()> {
    if r == 0 || r >= d {
        return Err(FairPcaError::InvalidRank { r, d });
    }
    Ok(())
}

/// The centring vector of `x`.
pub(crate) fn mean_of(x: &DMatrix<f64>, centering: Centering) -> DVector<f64> {
    match centering {
        Centering::None => DVector::zeros(x.ncols()),
        Centering::Global => {
            let n = x.nrows().max(1) as f64;
            DVector::from_iterator(x.ncols(), x.column_iter().map(|c| c.sum() / n))
        }
    }
}

/// `x − 1 μᵀ`.
pub(crate) fn centred(x: &DMatrix<f64>, mean: &DVector<f64>) -> DMatrix<f64> {
    let mut out = x.clone();
    for (j, mut col) in out.column_iter_mut().enumerate() {
        let m = mean[j];
        col.apply(|v| *v -= m);
    }
    out
}

/// Validates `(x, groups, r)` and computes the per-group Gram matrices of the centred rows.
///
/// Checks, in order: one group code per row, `1 ≤ r < d`, finite entries, at least two groups,
/// at least `r` rows in every group.
pub(crate) fn prepare(
    x: &DMatrix<f64>,
    groups: &Groups,
    r: usize,
    centering: Centering,
) -> Result<GroupedData> {
    let (n, d) = x.shape();
    if groups.len() != n {
        return Err(FairPcaError::LengthMismatch {
            what: "group codes (one per row of x)",
            expected: n,
            got: groups.len(),
        });
    }
    check_rank(r, d)?;
    check_finite(x, "data matrix x")?;
    if groups.n_groups() < 2 {
        return Err(FairPcaError::TooFewGroups {
            found: groups.n_groups(),
            names: groups.names().join(", "),
        });
    }
    let counts = groups.counts();
    if let Some(g) = counts.iter().position(|&c| c < r || c == 0) {
        return Err(FairPcaError::GroupTooSmall {
            group: groups.names()[g].clone(),
            rows: counts[g],
            r,
        });
    }
    let mean = mean_of(x, centering);
    let xc = centred(x, &mean);
    let mut rows_of: Vec<Vec<usize>> = counts.iter().map(|&c| Vec::with_capacity(c)).collect();
    for (i, &g) in groups.codes().iter().enumerate() {
        rows_of[g].push(i);
    }
    let grams: Vec<DMatrix<f64>> = rows_of
        .iter()
        .map(|rows| gram(&xc.select_rows(rows)))
        .collect();
    let mut total = DMatrix::<f64>::zeros(d, d);
    for a in &grams {
        total += a;
    }
    Ok(GroupedData {
        d,
        n,
        counts,
        mean,
        grams,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::dmatrix;

    #[test]
    fn grams_sum_to_the_total_and_centre_globally() {
        let x = dmatrix![1.0, 2.0; 3.0, 4.0; 5.0, 0.0; 7.0, 2.0];
        let g = Groups::from_labels(&["a", "b", "a", "b"]);
        let p = prepare(&x, &g, 1, Centering::Global).unwrap();
        // Column means (4, 2).
        assert!((p.mean[0] - 4.0).abs() < 1e-15 && (p.mean[1] - 2.0).abs() < 1e-15);
        // Group a centred rows: (−3, 0), (1, −2) → A_a = [[10, −2], [−2, 4]].
        assert!(
            (p.grams[0].clone() - dmatrix![10.0, -2.0; -2.0, 4.0])
                .abs()
                .max()
                < 1e-12
        );
        let sum = &p.grams[0] + &p.grams[1];
        assert!((sum - &p.total).abs().max() < 1e-12);
    }
}
