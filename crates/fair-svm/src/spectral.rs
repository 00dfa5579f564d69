//! Group moments and the spectral split of an indefinite symmetric matrix (paper eqs. (8),
//! (16), (18), (20)–(22), (24)–(25)).

use crate::error::{FairSvmError, Result};
use crate::input::{check_finite_matrix, check_two_groups, validate};
use crate::params::Fairness;
use fair_data::Groups;
use nalgebra::{DMatrix, DVector, SymmetricEigen};

/// Eigenvalues with `|ζ| ≤ ZERO_EIGEN_REL · max|ζ|` are treated as exact zeros (round-off).
pub(crate) const ZERO_EIGEN_REL: f64 = 1e-12;

/// The spectral split `D = U₊ − U₋` of a symmetric matrix (paper eqs. (20)–(21)).
///
/// With the eigendecomposition `D = Σᵢ ζᵢ vᵢvᵢᵀ`: `U₊ = Σ_{ζᵢ>0} ζᵢ vᵢvᵢᵀ` and
/// `U₋ = −Σ_{ζᵢ<0} ζᵢ vᵢvᵢᵀ`. Both parts are positive semidefinite, `U₊U₋ = 0`, and among all
/// splits of `D` into a difference of PSD matrices this one has the smallest traces. The
/// factors `L±` (`U± = L± L±ᵀ`, columns `√|ζᵢ| vᵢ`) turn `wᵀU±w ≤ t` into second-order cones.
/// Eigenvalues with `|ζ| ≤ 10⁻¹² · max|ζ|` are round-off and dropped.
///
/// # Examples
/// ```
/// use fair_svm::SpectralSplit;
/// use nalgebra::DMatrix;
/// let d = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]); // eigenvalues 3 and −1
/// let s = SpectralSplit::new(&d)?;
/// assert!((s.positive() - s.negative() - &d).norm() < 1e-12);
/// assert!((s.positive().trace() - 3.0).abs() < 1e-12);
/// assert!((s.negative().trace() - 1.0).abs() < 1e-12);
/// assert!((s.positive() * s.negative()).norm() < 1e-12);
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SpectralSplit {
    eigenvalues: DVector<f64>,
    positive: DMatrix<f64>,
    negative: DMatrix<f64>,
    factor_positive: DMatrix<f64>,
    factor_negative: DMatrix<f64>,
}

impl SpectralSplit {
    /// Splits a symmetric matrix (its symmetric part `(D + Dᵀ)/2` is used).
    ///
    /// # Errors
    /// [`FairSvmError::Empty`] for a 0×0 matrix, [`FairSvmError::LengthMismatch`] for a
    /// non-square one, [`FairSvmError::NonFinite`] for NaN/inf entries.
    pub fn new(d: &DMatrix<f64>) -> Result<Self> {
        if d.nrows() == 0 {
            return Err(FairSvmError::Empty {
                what: "matrix to split",
            });
        }
        if d.nrows() != d.ncols() {
            return Err(FairSvmError::LengthMismatch {
                what: "columns of the matrix to split (it must be square)",
                expected: d.nrows(),
                got: d.ncols(),
            });
        }
        check_finite_matrix("matrix to split", d)?;
        let sym = (d + d.transpose()) * 0.5;
        let eig = SymmetricEigen::new(sym);
        let scale = eig.eigenvalues.amax();
        let cut = ZERO_EIGEN_REL * scale;
        let pos: Vec<usize> = (0..eig.eigenvalues.len())
            .filter(|&i| eig.eigenvalues[i] > cut)
            .collect();
        let neg: Vec<usize> = (0..eig.eigenvalues.len())
            .filter(|&i| eig.eigenvalues[i] < -cut)
            .collect();
        let factor = |idx: &[usize]| {
            let mut l = DMatrix::zeros(d.nrows(), idx.len());
            for (k, &i) in idx.iter().enumerate() {
                let s = eig.eigenvalues[i].abs().sqrt();
                l.column_mut(k).copy_from(&(eig.eigenvectors.column(i) * s));
            }
            l
        };
        let factor_positive = factor(&pos);
        let factor_negative = factor(&neg);
        let positive = &factor_positive * factor_positive.transpose();
        let negative = &factor_negative * factor_negative.transpose();
        Ok(Self {
            eigenvalues: eig.eigenvalues,
            positive,
            negative,
            factor_positive,
            factor_negative,
        })
    }

    /// The split of the diagonal matrix `diag(ζ)`: its eigenvectors are the unit vectors, so the
    /// factors have one nonzero per column. Entries with `|ζ| ≤ 10⁻¹² · max|ζ|` are dropped as in
    /// [`SpectralSplit::new`].
    pub(crate) fn diagonal(zeta: &DVector<f64>) -> Self {
        let r = zeta.len();
        let cut = ZERO_EIGEN_REL * zeta.amax();
        let factor = |keep: &dyn Fn(f64) -> bool| {
            let idx: Vec<usize> = (0..r).filter(|&i| keep(zeta[i])).collect();
            let mut l = DMatrix::zeros(r, idx.len());
            for (k, &i) in idx.iter().enumerate() {
                l[(i, k)] = zeta[i].abs().sqrt();
            }
            l
        };
        let factor_positive = factor(&|z| z > cut);
        let factor_negative = factor(&|z| z < -cut);
        let positive = DMatrix::from_diagonal(&zeta.map(|z| if z > cut { z } else { 0.0 }));
        let negative = DMatrix::from_diagonal(&zeta.map(|z| if z < -cut { -z } else { 0.0 }));
        Self {
            eigenvalues: zeta.clone(),
            positive,
            negative,
            factor_positive,
            factor_negative,
        }
    }

    /// The split of a 0 × 0 matrix (a kernel of rank 0).
    pub(crate) fn empty() -> Self {
        Self {
            eigenvalues: DVector::zeros(0),
            positive: DMatrix::zeros(0, 0),
            negative: DMatrix::zeros(0, 0),
            factor_positive: DMatrix::zeros(0, 0),
            factor_negative: DMatrix::zeros(0, 0),
        }
    }

    /// All eigenvalues `ζᵢ` of the symmetric part, in the order of the eigen-solver.
    pub fn eigenvalues(&self) -> &DVector<f64> {
        &self.eigenvalues
    }
    /// `U₊`, the positive semidefinite part.
    pub fn positive(&self) -> &DMatrix<f64> {
        &self.positive
    }
    /// `U₋`, the (negated) negative part, also positive semidefinite.
    pub fn negative(&self) -> &DMatrix<f64> {
        &self.negative
    }
    /// `L₊` with `U₊ = L₊L₊ᵀ` (one column per positive eigenvalue).
    pub fn factor_positive(&self) -> &DMatrix<f64> {
        &self.factor_positive
    }
    /// `L₋` with `U₋ = L₋L₋ᵀ` (one column per negative eigenvalue).
    pub fn factor_negative(&self) -> &DMatrix<f64> {
        &self.factor_negative
    }
    /// `vᵀ(U₊ − U₋)v`, the quadratic form of the split matrix.
    pub fn quadratic(&self, v: &DVector<f64>) -> f64 {
        let a = self.factor_positive.tr_mul(v).norm_squared();
        let b = self.factor_negative.tr_mul(v).norm_squared();
        a - b
    }
}

/// Population mean and covariance (`1/#rows`, paper eq. (16)) of the given rows of `x`.
pub(crate) fn mean_and_covariance(
    x: &DMatrix<f64>,
    rows: &[usize],
) -> (DVector<f64>, DMatrix<f64>) {
    mean_and_covariance_ddof(x, rows, 0)
}

/// Mean and covariance with normalisation `1/(#rows − ddof)` (ddof 1: MATLAB's `cov()`; a
/// single row then has covariance 0).
pub(crate) fn mean_and_covariance_ddof(
    x: &DMatrix<f64>,
    rows: &[usize],
    ddof: usize,
) -> (DVector<f64>, DMatrix<f64>) {
    let p = x.ncols();
    let k = rows.len() as f64;
    let mut mean = DVector::zeros(p);
    for &i in rows {
        mean += x.row(i).transpose();
    }
    mean /= k;
    let mut centred = DMatrix::zeros(rows.len(), p);
    for (r, &i) in rows.iter().enumerate() {
        for j in 0..p {
            centred[(r, j)] = x[(i, j)] - mean[j];
        }
    }
    let denominator = (rows.len().saturating_sub(ddof)).max(1) as f64;
    let cov = centred.tr_mul(&centred) / denominator;
    (mean, cov)
}

/// The fairness moments of a linear SVM's training data: the mean difference `m` of eq. (8),
/// the group covariances `Σ±` of eq. (16) (population normalisation `1/#P`, `1/#N`) and the
/// spectral split of `Σ₊ − Σ₋` (eqs. (20)–(21)).
///
/// The rows used are all rows for [`Fairness::DemographicParity`] and the rows with y = +1 for
/// [`Fairness::EqualOpportunity`].
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_svm::{Fairness, GroupMoments};
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_row_slice(4, 1, &[0.0, 2.0, 1.0, 1.0]);
/// let y = [1, 0, 1, 0];
/// // Code 1 ("b") is the paper's z = +1, code 0 ("a") is z = −1.
/// let z = Groups::new(vec![1, 1, 0, 0], vec!["a".into(), "b".into()])?;
/// let m = GroupMoments::new(&x, &y, &z, Fairness::DemographicParity)?;
/// assert_eq!(m.mean_difference()[0], 0.0);          // both groups have mean 1
/// assert_eq!(m.covariance_positive()[(0, 0)], 1.0);  // "b": {0, 2}
/// assert_eq!(m.covariance_negative()[(0, 0)], 0.0);  // "a": {1, 1}
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GroupMoments {
    mean_difference: DVector<f64>,
    covariance_positive: DMatrix<f64>,
    covariance_negative: DMatrix<f64>,
    split: SpectralSplit,
}

impl GroupMoments {
    /// Computes the moments from 0/1 class labels `y` and two sensitive `groups` (code 1 is the
    /// paper's z = +1: `mean_difference` is its mean minus the code-0 group's).
    ///
    /// # Errors
    /// The input errors of [`crate::SpectralFairSvmParams::fit`].
    pub fn new(x: &DMatrix<f64>, y: &[usize], groups: &Groups, fairness: Fairness) -> Result<Self> {
        let data = validate(x, y, groups, fairness)?;
        Self::from_rows(x, &data.pos, &data.neg)
    }

    pub(crate) fn from_rows(x: &DMatrix<f64>, pos: &[usize], neg: &[usize]) -> Result<Self> {
        Self::from_rows_ddof(x, pos, neg, 0)
    }

    /// As [`GroupMoments::from_rows`] with covariances normalised by `1/(#rows − ddof)`.
    pub(crate) fn from_rows_ddof(
        x: &DMatrix<f64>,
        pos: &[usize],
        neg: &[usize],
        ddof: usize,
    ) -> Result<Self> {
        let (mean_p, cov_p) = mean_and_covariance_ddof(x, pos, ddof);
        let (mean_n, cov_n) = mean_and_covariance_ddof(x, neg, ddof);
        let diff = &cov_p - &cov_n;
        if diff.iter().any(|v| !v.is_finite())
            || mean_p.iter().chain(mean_n.iter()).any(|v| !v.is_finite())
        {
            return Err(FairSvmError::Overflow {
                what: "group covariance matrix",
            });
        }
        let split = SpectralSplit::new(&diff)?;
        Ok(Self {
            mean_difference: mean_p - mean_n,
            covariance_positive: cov_p,
            covariance_negative: cov_n,
            split,
        })
    }

    /// `m = mean(x | z = +1) − mean(x | z = −1)` (z = +1: group code 1); the mean constraint is
    /// `|mᵀw| ≤ d`.
    pub fn mean_difference(&self) -> &DVector<f64> {
        &self.mean_difference
    }
    /// `Σ₊`, the covariance of the z = +1 rows (group code 1).
    pub fn covariance_positive(&self) -> &DMatrix<f64> {
        &self.covariance_positive
    }
    /// `Σ₋`, the covariance of the z = −1 rows (group code 0).
    pub fn covariance_negative(&self) -> &DMatrix<f64> {
        &self.covariance_negative
    }
    /// The spectral split of `Σ₊ − Σ₋`.
    pub fn split(&self) -> &SpectralSplit {
        &self.split
    }
    /// `wᵀ(Σ₊ − Σ₋)w`: the difference of the two groups' score variances.
    pub fn covariance_gap(&self, w: &DVector<f64>) -> f64 {
        w.dot(&((&self.covariance_positive - &self.covariance_negative) * w))
    }
}

/// The kernel covariance matrices `S±` of paper eq. (18), computed literally (O(n³); a
/// reference for tests and small problems — [`crate::KernelFairSvm`] uses a low-rank
/// factorisation instead).
///
/// `S₊ = (1/#P) K(X, X₊)(I − eeᵀ/#P)K(X, X₊)ᵀ` over the rows P of group code 1 (z = +1),
/// `S₋` likewise over the rows N of group code 0 (z = −1); with the linear kernel `S± = XΣ±Xᵀ`.
///
/// # Errors
/// [`FairSvmError::LengthMismatch`] when `k` is not `n × n` with `n = groups.len()`,
/// [`FairSvmError::NonFinite`], [`FairSvmError::GroupCount`] unless there are two groups,
/// [`FairSvmError::EmptyGroup`] when a group has no rows.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use nalgebra::DMatrix;
/// let k = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 0.0, 0.0, 4.0, 2.0, 0.0, 2.0, 4.0]);
/// let z = Groups::new(vec![1, 1, 0], vec!["N".into(), "P".into()])?;
/// let (s_pos, s_neg) = fair_svm::kernel_group_covariances(&k, &z)?;
/// // N has one row: a single point has no spread.
/// assert_eq!(s_neg.norm(), 0.0);
/// // P = {0, 1}: columns (1, 0, 0) and (0, 4, 2), centred ±(0.5, −2, −1), over #P = 2.
/// assert!((s_pos[(1, 1)] - 4.0).abs() < 1e-12);
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
pub fn kernel_group_covariances(
    k: &DMatrix<f64>,
    groups: &Groups,
) -> Result<(DMatrix<f64>, DMatrix<f64>)> {
    let n = groups.len();
    for (what, got) in [("rows of k", k.nrows()), ("columns of k", k.ncols())] {
        if got != n {
            return Err(FairSvmError::LengthMismatch {
                what,
                expected: n,
                got,
            });
        }
    }
    check_finite_matrix("k", k)?;
    check_two_groups(groups)?;
    let codes = groups.codes();
    let pos: Vec<usize> = (0..n).filter(|&i| codes[i] == 1).collect();
    let neg: Vec<usize> = (0..n).filter(|&i| codes[i] == 0).collect();
    for (code, rows) in [(1, &pos), (0, &neg)] {
        if rows.is_empty() {
            return Err(FairSvmError::EmptyGroup {
                group: groups.names()[code].clone(),
                code,
                condition: "",
            });
        }
    }
    let s = |rows: &[usize]| {
        let kc = k.select_columns(rows);
        let m = rows.len() as f64;
        let centring = DMatrix::identity(rows.len(), rows.len())
            - DMatrix::from_element(rows.len(), rows.len(), 1.0 / m);
        &kc * centring * kc.transpose() / m
    };
    Ok((s(&pos), s(&neg)))
}
