//! The kernel fair SVM, paper §4.2 and §5.2, on a factorisation of the kernel matrix (exact or rank-capped).

use crate::ccp::{self, FitReport, Iterate, Subproblems};
use crate::error::{FairSvmError, Result, SolverFailure};
use crate::input::{check_predict, validate};
use crate::params::{Common, Kernel, KernelFairSvmParams, KernelFairSvmValidParams};
use crate::socp::{Cone, ConicProblem, Outcome, Row, quadratic_constraint};
use crate::spectral::{SpectralSplit, mean_and_covariance};
use fair_data::Groups;
use nalgebra::{DMatrix, DVector, SymmetricEigen};

impl Kernel {
    /// `K(a, b)` for two points.
    pub fn eval(&self, a: &[f64], b: &[f64]) -> f64 {
        let dot = || a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
        match *self {
            Kernel::Linear => dot(),
            Kernel::Rbf { gamma } => {
                let d2: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
                (-gamma * d2).exp()
            }
            Kernel::Polynomial {
                degree,
                gamma,
                coef0,
            } => {
                let base = gamma * dot() + coef0;
                base.powi(i32::try_from(degree).unwrap_or(i32::MAX))
            }
        }
    }

    /// The kernel matrix `K(A, B)` (paper eq. (1)): entry `(i, j)` is `K(aᵢ, bⱼ)` for rows
    /// `aᵢ` of `a` and `bⱼ` of `b`.
    ///
    /// # Errors
    /// [`FairSvmError::LengthMismatch`] when the two matrices have different widths.
    ///
    /// # Examples
    /// ```
    /// use fair_svm::Kernel;
    /// use nalgebra::DMatrix;
    /// let a = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 2.0]);
    /// let k = Kernel::Polynomial { degree: 2, gamma: 1.0, coef0: 1.0 }.matrix(&a, &a)?;
    /// assert_eq!(k[(0, 1)], 1.0);  // (0 + 1)²
    /// assert_eq!(k[(1, 1)], 25.0); // (4 + 1)²
    /// # Ok::<(), fair_svm::FairSvmError>(())
    /// ```
    pub fn matrix(&self, a: &DMatrix<f64>, b: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        if a.ncols() != b.ncols() {
            return Err(FairSvmError::LengthMismatch {
                what: "feature columns of the second kernel argument",
                expected: a.ncols(),
                got: b.ncols(),
            });
        }
        let rows_a: Vec<Vec<f64>> = a.row_iter().map(|r| r.iter().copied().collect()).collect();
        let rows_b: Vec<Vec<f64>> = b.row_iter().map(|r| r.iter().copied().collect()).collect();
        Ok(DMatrix::from_fn(a.nrows(), b.nrows(), |i, j| {
            self.eval(&rows_a[i], &rows_b[j])
        }))
    }
}

/// The relative Frobenius residual `‖K − RRᵀ‖_F / ‖K‖_F` up to which
/// [`KernelFairSvm::factor_is_exact`] calls a factor exact.
pub const EXACT_FACTOR_TOL: f64 = 1e-8;

/// Pivoted (incomplete) Cholesky `K ≈ LLᵀ`, stopped when the trace of the residual is at most
/// `rel_tol · trace(K)`, when `max_rank` columns are reached (if set), or when the largest
/// remaining pivot is at round-off level. Returns `L` (n × r).
pub(crate) fn pivoted_cholesky(
    k: &DMatrix<f64>,
    rel_tol: f64,
    max_rank: Option<usize>,
) -> DMatrix<f64> {
    let n = k.nrows();
    let mut diag: Vec<f64> = (0..n).map(|i| k[(i, i)].max(0.0)).collect();
    let trace: f64 = diag.iter().sum();
    let max_diag = diag.iter().copied().fold(0.0, f64::max);
    // Below this a pivot is cancellation noise in the updated diagonal; dividing by its root
    // would amplify the noise instead of adding a direction of K.
    let floor = f64::EPSILON * n as f64 * max_diag;
    let cap = max_rank.unwrap_or(n).min(n);
    let mut l = DMatrix::<f64>::zeros(n, cap);
    let mut r = 0;
    while r < cap {
        let residual: f64 = diag.iter().sum();
        if residual <= rel_tol * trace {
            break;
        }
        let (piv, &dmax) = diag
            .iter()
            .enumerate()
            .fold((0, &f64::NEG_INFINITY), |acc, (i, d)| {
                if *d > *acc.1 { (i, d) } else { acc }
            });
        if dmax <= floor {
            break;
        }
        let mut col = k.column(piv).into_owned();
        if r > 0 {
            let prev = l.columns(0, r);
            let li = prev.row(piv).transpose();
            col.gemv(-1.0, &prev, &li, 1.0);
        }
        col /= dmax.sqrt();
        for i in 0..n {
            diag[i] = (diag[i] - col[i] * col[i]).max(0.0);
        }
        diag[piv] = 0.0;
        l.column_mut(r).copy_from(&col);
        r += 1;
    }
    l.columns(0, r).into_owned()
}

/// A fitted kernel fair SVM: score `s(x) = K(X, x)ᵀβ + b` with `β = y∘α`.
///
/// Olfat & Aswani (AISTATS 2018) §4.2 and §5.2: the dual SVM with the kernel mean constraint
/// (15) and the kernel covariance term `βᵀ(S₊ − S₋)β` of (17)–(18), handled by the spectral
/// convex–concave iterations (27). See [`KernelFairSvmParams`] for the exact problem and its
/// scaling.
///
/// Implementation: the kernel matrix is factored once by pivoted Cholesky, `K ≈ RRᵀ` with `R`
/// n × r (residual trace ≤ `rank_tol`·trace K, at most `max_rank` columns — 100 by default;
/// exact for the linear and low-degree polynomial kernels, whose rank is small; a Nyström-type
/// approximation for an RBF kernel whose numerical rank exceeds the cap; `max_rank(None)` for
/// the exact factor — see [`KernelFairSvmParams`] for why that is not the default).
/// [`KernelFairSvm::factor_residual`] reports the measured `‖K − RRᵀ‖_F / ‖K‖_F`. Every quantity of the problem lives in the feature coordinates
/// `v = Rᵀβ`: `βᵀKβ = ‖v‖²`, `k_mᵀβ = (Rᵀδ)ᵀv` with `δ = e_P/#P − e_N/#N`, and
/// `βᵀ(S₊ − S₋)β = vᵀ(Cov₊(R) − Cov₋(R))v` (eq. (18): `S± = R Cov±(R) Rᵀ`). So each subproblem
/// has `O(n r)` nonzeros instead of the dense `n²` of the literal formulation, and is well
/// scaled (identity Hessian). The one-time cost is `O(n² p)` for the kernel matrix plus
/// `O(n r²)` per interior-point iteration; the kernel matrix itself is O(n²) memory, hence the
/// `max_rows` guard. Two exact reductions keep the exact factor (r ≈ n) affordable: R is rotated
/// onto the eigenvectors of `Cov₊(R) − Cov₋(R)`, so the cones are diagonal; and each subproblem
/// holds the αᵢ that sit at a bound with a KKT gradient far from 0 at the previous solution,
/// accepting the result only when every held αᵢ still satisfies its KKT condition (else they are
/// freed and the subproblem re-solved).
///
/// **How this relates to the paper's n × n split (eq. (25)).**
/// * *The problem is the paper's whenever the factor is exact* (the linear kernel, rank ≤ p;
///   polynomial kernels, rank ≤ C(p + degree, degree); any kernel with `max_rank(None)` or of
///   numerical rank under the cap): every term of (13), (15), (17)–(18) is reproduced identically
///   in `v`. Tested against the literal n × n problem in α (dense K, `k_m = Kδ`, S± of (18)):
///   with μ = 0 the fit equals the literal dual's solution, and with μ > 0 the fixed point is
///   stationary for the literal penalised problem.
/// * *The split is different, the fixed points are not*: the spectral split is taken of the r × r
///   matrix `H = Cov₊(R) − Cov₋(R)` (the feature-space analogue of the linear algorithm) rather
///   than of the n × n matrix `S₊ − S₋`. Both are differences of PSD matrices with the same
///   quadratic form, and for any such split `A − B` the convex surrogate `vᵀAv − 2vᵀBv_k + …` is
///   tight at the anchor with gradient `2(A − B)v_k = ∇q(v_k)` there. So a fixed point of the
///   convex–concave iterations — where τ = |q| and the surrogate's optimality conditions hold —
///   is a stationary point of the same penalised problem for either split; the split changes
///   only the path (which stationary point, and how fast). The literal split in β coordinates
///   was tried first and was numerically unstable with clarabel: its eigenvalues span the
///   squared dynamic range of K.
/// * *When `max_rank` is hit* (an RBF kernel whose numerical rank exceeds it), `RRᵀ`
///   is a Nyström-type approximation of K and the problem differs from the paper's by the PSD
///   residual `K − RRᵀ`; [`KernelFairSvm::rank`] and [`KernelFairSvm::factor_residual`] report
///   the rank used and the size of that residual.
///
/// The intercept is eq. (12): the mean of `yᵢ − K(X, xᵢ)ᵀβ` over the αᵢ strictly inside
/// `(support_tol·C, (1 − support_tol)·C)`; when there is none, the midpoint of the interval the
/// KKT conditions of the bound αᵢ allow (as LIBSVM does).
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_svm::{Kernel, KernelFairSvm};
/// use nalgebra::DMatrix;
/// // XOR-like labels: no linear separator, an RBF kernel separates them.
/// let x = DMatrix::from_row_slice(8, 2, &[
///     1.0, 1.0,  -1.0, -1.0,  1.0, -1.0,  -1.0, 1.0,
///     1.2, 0.9,  -0.9, -1.1,  0.9, -1.2,  -1.1, 0.8,
/// ]);
/// let y = [1, 1, 0, 0, 1, 1, 0, 0];
/// let z = Groups::new(vec![1, 0, 1, 0, 0, 1, 0, 1], vec!["a".into(), "b".into()])?;
/// let svm = KernelFairSvm::params(Kernel::Rbf { gamma: 1.0 }).lambda(0.001).mu(0.1).fit(&x, &y, &z)?;
/// assert_eq!(svm.predict(&x)?, y.to_vec());
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KernelFairSvm {
    x_train: DMatrix<f64>,
    alpha: DVector<f64>,
    beta: DVector<f64>,
    intercept: f64,
    free_support_vectors: usize,
    rank: usize,
    factor_residual: f64,
    params: KernelFairSvmValidParams,
    report: FitReport,
}

impl KernelFairSvm {
    /// Default settings with the given kernel (see [`KernelFairSvmParams`]).
    pub fn params(kernel: Kernel) -> KernelFairSvmParams {
        KernelFairSvmParams::new(kernel)
    }
    /// The dual variables α (one per training row, in `[0, C]`).
    pub fn alpha(&self) -> &DVector<f64> {
        &self.alpha
    }
    /// `β = y∘α`, the coefficients of the score.
    pub fn beta(&self) -> &DVector<f64> {
        &self.beta
    }
    /// The intercept b.
    pub fn intercept(&self) -> f64 {
        self.intercept
    }
    /// How many αᵢ were strictly inside the box (the rows that set the intercept).
    pub fn free_support_vectors(&self) -> usize {
        self.free_support_vectors
    }
    /// The rank r of the kernel factorisation used.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// `‖K − RRᵀ‖_F / ‖K‖_F` of the factorisation used, measured after factoring (0 for a zero
    /// kernel matrix).
    pub fn factor_residual(&self) -> f64 {
        self.factor_residual
    }
    /// Whether the factor reassembles K to [`EXACT_FACTOR_TOL`] relative (Frobenius): then the
    /// problem solved is the paper's; otherwise (an opt-in `max_rank` hit) it is a Nyström-type
    /// approximation of it.
    pub fn factor_is_exact(&self) -> bool {
        self.factor_residual <= EXACT_FACTOR_TOL
    }
    /// The settings the model was fitted with.
    pub fn fitted_params(&self) -> &KernelFairSvmValidParams {
        &self.params
    }
    /// Diagnostics of the fit.
    pub fn report(&self) -> &FitReport {
        &self.report
    }
    /// The training rows the scores are expanded over (for [`crate::FairSvmScorer`]).
    pub(crate) fn training_rows(&self) -> &DMatrix<f64> {
        &self.x_train
    }

    /// Scores `K(X, x)ᵀβ + b` for every row of `x`.
    ///
    /// # Errors
    /// [`FairSvmError::LengthMismatch`] for a different number of features,
    /// [`FairSvmError::NonFinite`] for NaN/inf.
    pub fn decision_function(&self, x: &DMatrix<f64>) -> Result<DVector<f64>> {
        check_predict(x, self.x_train.ncols())?;
        let k = self.params.kernel.matrix(x, &self.x_train)?;
        Ok((k * &self.beta).add_scalar(self.intercept))
    }

    /// Classes 0/1: class 1 (positive) when the score is ≥ 0.
    ///
    /// # Errors
    /// As [`KernelFairSvm::decision_function`].
    pub fn predict(&self, x: &DMatrix<f64>) -> Result<Vec<usize>> {
        Ok(self
            .decision_function(x)?
            .iter()
            .map(|&s| usize::from(s >= 0.0))
            .collect())
    }
}

impl KernelFairSvmParams {
    /// Validates the settings, then fits (see [`KernelFairSvmValidParams::fit`]).
    ///
    /// # Errors
    /// [`FairSvmError::InvalidParam`], then the errors of [`KernelFairSvmValidParams::fit`].
    pub fn fit(&self, x: &DMatrix<f64>, y: &[usize], groups: &Groups) -> Result<KernelFairSvm> {
        self.check_ref()?;
        self.0.fit(x, y, groups)
    }

    /// Validates the settings, then fits reporting every iteration to `observer` (see
    /// [`KernelFairSvmValidParams::fit_with_observer`]).
    ///
    /// # Errors
    /// As [`KernelFairSvmParams::fit`].
    pub fn fit_with_observer(
        &self,
        x: &DMatrix<f64>,
        y: &[usize],
        groups: &Groups,
        observer: &mut dyn fair_core::Observe<crate::IterInfo>,
    ) -> Result<KernelFairSvm> {
        self.check_ref()?;
        self.0.fit_with_observer(x, y, groups, observer)
    }
}

impl KernelFairSvmValidParams {
    /// Fits on features `x` (n × p), 0/1 class labels `y` (class 1 is positive) and two sensitive
    /// `groups` (group code 1 is the paper's z = +1), as
    /// [`crate::SpectralFairSvmValidParams::fit`].
    ///
    /// # Errors
    /// The input errors of [`crate::SpectralFairSvmValidParams::fit`], plus
    /// [`FairSvmError::TooLarge`] when `n > max_rows`.
    pub fn fit(&self, x: &DMatrix<f64>, y: &[usize], groups: &Groups) -> Result<KernelFairSvm> {
        self.fit_with_observer(x, y, groups, &mut fair_core::NoObserver)
    }

    /// [`KernelFairSvmValidParams::fit`], reporting every iteration to `observer`
    /// ([`fair_core::Observe`]). When the observer returns
    /// [`ControlFlow::Break`](std::ops::ControlFlow::Break) the fit ends with `Ok`: the model is
    /// the last iterate and its report says [`fair_core::Termination::Interrupted`].
    ///
    /// # Errors
    /// As [`KernelFairSvmValidParams::fit`].
    pub fn fit_with_observer(
        &self,
        x: &DMatrix<f64>,
        y: &[usize],
        groups: &Groups,
        observer: &mut dyn fair_core::Observe<crate::IterInfo>,
    ) -> Result<KernelFairSvm> {
        let data = validate(x, y, groups, self.common.fairness)?;
        let y = data.y.as_slice();
        let n = x.nrows();
        if n > self.max_rows {
            return Err(FairSvmError::TooLarge {
                n,
                max: self.max_rows,
            });
        }
        let k = self.kernel.matrix(x, x)?;
        if k.iter().any(|v| !v.is_finite()) {
            return Err(FairSvmError::Overflow {
                what: "kernel matrix",
            });
        }
        let basis = Basis::new(&k, self.rank_tol, self.max_rank, &data.pos, &data.neg)?;
        let c = 1.0 / (2.0 * self.common.lambda * n as f64);
        // A large factor makes the warm start's all-rows solve the expensive one: guess its
        // working set from the same warm start on a small factor (any guess is safe, the KKT
        // check frees what it got wrong).
        let seed = if basis.r.ncols() > SEED_RANK {
            let small = Basis::new(&k, self.rank_tol, Some(SEED_RANK), &data.pos, &data.neg)?;
            let guess = KernelProblem {
                y,
                basis: &small,
                settings: &self.common,
                c,
                exact: false,
                seed: None,
            };
            guess.solve(None)?.ok().map(|it| it.state)
        } else {
            None
        };
        let problem = KernelProblem {
            y,
            basis: &basis,
            settings: &self.common,
            c,
            exact: self.max_rank.is_none(),
            seed,
        };
        let am = basis.mean_row.clone();
        let out = ccp::run(&problem, &self.common, |it| am.dot(&it.anchor), observer)?;
        let alpha = out.last.state.alpha;
        let beta = alpha.component_mul(&DVector::from_column_slice(y));
        let f = &k * &beta;
        let (intercept, free) = intercept(&alpha, y, &f, c, self.support_tol);
        Ok(KernelFairSvm {
            x_train: x.clone(),
            alpha,
            beta: out.last.change,
            intercept,
            free_support_vectors: free,
            rank: basis.r.ncols(),
            factor_residual: basis.residual,
            params: self.clone(),
            report: out.report,
        })
    }
}

/// Eq. (12) with a tolerance, falling back to the KKT interval midpoint.
fn intercept(alpha: &DVector<f64>, y: &[f64], f: &DVector<f64>, c: f64, tol: f64) -> (f64, usize) {
    let (lo_cut, hi_cut) = (tol * c, (1.0 - tol) * c);
    let free: Vec<usize> = (0..alpha.len())
        .filter(|&i| alpha[i] > lo_cut && alpha[i] < hi_cut)
        .collect();
    if !free.is_empty() {
        let b = free.iter().map(|&i| y[i] - f[i]).sum::<f64>() / free.len() as f64;
        return (b, free.len());
    }
    let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
    for i in 0..alpha.len() {
        let v = y[i] - f[i];
        let at_zero = alpha[i] <= lo_cut;
        if (y[i] > 0.0) == at_zero {
            lower = lower.max(v);
        } else {
            upper = upper.min(v);
        }
    }
    let b = match (lower.is_finite(), upper.is_finite()) {
        (true, true) => 0.5 * (lower + upper),
        (true, false) => lower,
        (false, true) => upper,
        (false, false) => 0.0,
    };
    (b, 0)
}

/// `‖K − RRᵀ‖_F / ‖K‖_F` (0 when K = 0).
fn relative_residual(k: &DMatrix<f64>, r: &DMatrix<f64>) -> f64 {
    let norm = k.norm();
    if norm == 0.0 {
        return 0.0;
    }
    let mut diff = k.clone();
    diff.gemm(-1.0, r, &r.transpose(), 1.0);
    diff.norm() / norm
}

/// The feature map `K ≈ RRᵀ` (R n × r, pivoted Cholesky) and the fairness terms
/// expressed in the feature coordinates `v = Rᵀβ`.
struct Basis {
    /// n × r.
    r: DMatrix<f64>,
    /// `Rᵀδ` with `δ = e_P/#P − e_N/#N`: the mean constraint is `|mean_rowᵀv| ≤ d`.
    mean_row: DVector<f64>,
    /// `‖K − RRᵀ‖_F / ‖K‖_F`.
    residual: f64,
    /// `H = Cov₊(R) − Cov₋(R)`, so that `βᵀ(S₊ − S₋)β = vᵀHv`.
    h: DMatrix<f64>,
    split: SpectralSplit,
}

impl Basis {
    fn new(
        k: &DMatrix<f64>,
        rank_tol: f64,
        max_rank: Option<usize>,
        pos: &[usize],
        neg: &[usize],
    ) -> Result<Self> {
        let r = pivoted_cholesky(k, rank_tol, max_rank);
        let residual = relative_residual(k, &r);
        let (mean_p, cov_p) = mean_and_covariance(&r, pos);
        let (mean_n, cov_n) = mean_and_covariance(&r, neg);
        let h = cov_p - cov_n;
        if h.iter().any(|x| !x.is_finite()) {
            return Err(FairSvmError::Overflow {
                what: "kernel covariance matrix S+ - S-",
            });
        }
        if r.ncols() == 0 {
            return Ok(Self {
                r,
                mean_row: mean_p - mean_n,
                residual,
                h,
                split: SpectralSplit::empty(),
            });
        }
        // Rotate the feature coordinates onto the eigenvectors of H (R → RV, an orthogonal
        // change of v that leaves ‖v‖², the mean constraint and the quadratic form unchanged).
        // Then H is diagonal and each cone of the convex–concave subproblem has one entry per
        // row instead of a dense r × r block: measured, this is what makes the exact factor
        // (r ≈ n) affordable (see docs/benchmarks.md).
        let eig = SymmetricEigen::new((&h + h.transpose()) * 0.5);
        let r = r * &eig.eigenvectors;
        let mean_row = eig.eigenvectors.tr_mul(&(mean_p - mean_n));
        let split = SpectralSplit::diagonal(&eig.eigenvalues);
        Ok(Self {
            r,
            mean_row,
            residual,
            h: DMatrix::from_diagonal(&eig.eigenvalues),
            split,
        })
    }
}

struct KernelProblem<'a> {
    y: &'a [f64],
    basis: &'a Basis,
    settings: &'a Common,
    c: f64,
    /// The factor was asked to be exact (`max_rank(None)`), so the subproblems are dense in n.
    exact: bool,
    /// A guess of the warm start's α (from a cheap rank-capped fit) that sets its working set.
    seed: Option<KernelState>,
}

/// Rank of the small factor whose warm start guesses the working set of a larger factor's.
const SEED_RANK: usize = 100;

/// Where a dual variable sits in a working-set subproblem.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// A variable of the subproblem.
    Free,
    /// Held at αᵢ = 0.
    Lower,
    /// Held at αᵢ = C.
    Upper,
}

/// Rows whose KKT gradient `gᵢ` at the previous solution is within this of 0 (their margin
/// within 0.2 of 1) stay variables in the next subproblem even when αᵢ sits at a bound.
const KERNEL_WORKING_GRADIENT: f64 = 0.2;
/// A held αᵢ violates its KKT condition when `gᵢ` has the wrong sign by more than this (the
/// objective could then decrease by at most about this × C per unit of αᵢ's move).
const KERNEL_KKT_TOL: f64 = 1e-6;
/// Above this fraction of free rows the working set is not worth it: solve with every row.
const KERNEL_WORKING_MAX_FRACTION: f64 = 0.8;

/// The dual variables α and the reduced gradient `g` of the subproblem at them
/// (`gᵢ = −1 + yᵢ(z₀ − R_i·z_v)`; `gᵢ ≥ 0` is optimal at αᵢ = 0, `gᵢ ≤ 0` at αᵢ = C).
#[derive(Clone)]
pub(crate) struct KernelState {
    alpha: DVector<f64>,
    gradient: DVector<f64>,
}

/// One solved subproblem on a working set.
struct KernelSolution {
    state: KernelState,
    tau: f64,
    accuracy: crate::socp::Accuracy,
    iterations: u32,
}

impl KernelProblem<'_> {
    /// The subproblem (13) + (15) (+ the linearised covariance terms of (27) at `anchor`), in
    /// the variables `(α_free, v, τ)` with the held αᵢ as constants.
    fn solve_slots(
        &self,
        anchor: Option<&DVector<f64>>,
        slots: &[Slot],
    ) -> Result<std::result::Result<KernelSolution, SolverFailure>> {
        let y = self.y;
        let basis = self.basis;
        let n = y.len();
        let r = basis.r.ncols();
        let free: Vec<usize> = (0..n).filter(|&i| slots[i] == Slot::Free).collect();
        let upper: Vec<usize> = (0..n).filter(|&i| slots[i] == Slot::Upper).collect();
        let k = free.len();
        let tau = k + r;
        let n_vars = if anchor.is_some() { tau + 1 } else { tau };
        let penalty = self.settings.mu / (2.0 * self.settings.lambda);
        let mut prob = ConicProblem::new(n_vars);
        if self.exact {
            prob.without_equilibration();
        }
        for j in 0..r {
            prob.p(k + j, k + j, 1.0);
        }
        for col in 0..k {
            prob.q(col, -1.0);
        }
        // Equalities: yᵀα = 0 and v = Rᵀ(y∘α), the held αᵢ = C moved to the right-hand side.
        let held_y: f64 = upper.iter().map(|&i| y[i]).sum::<f64>() * self.c;
        let mut eq = Vec::with_capacity(r + 2);
        eq.push(Row::new(
            free.iter().enumerate().map(|(c, &i)| (c, y[i])).collect(),
            -held_y,
        ));
        for j in 0..r {
            let mut e: Vec<(usize, f64)> = free
                .iter()
                .enumerate()
                .map(|(c, &i)| (c, -basis.r[(i, j)] * y[i]))
                .collect();
            e.push((k + j, 1.0));
            let held: f64 = upper.iter().map(|&i| basis.r[(i, j)] * y[i]).sum::<f64>() * self.c;
            eq.push(Row::new(e, held));
        }
        let d = self.settings.d;
        let mean: Vec<(usize, f64)> = (0..r).map(|j| (k + j, basis.mean_row[j])).collect();
        let mut ineq = Vec::with_capacity(2 * k + 2);
        if d.is_finite() {
            if d > 0.0 {
                let neg = mean.iter().map(|&(j, v)| (j, -v)).collect();
                ineq.push(Row::new(mean, d));
                ineq.push(Row::new(neg, d));
            } else {
                eq.push(Row::new(mean, 0.0));
            }
        }
        prob.block(Cone::Zero, eq);
        for col in 0..k {
            ineq.push(Row::new(vec![(col, -1.0)], 0.0));
            ineq.push(Row::new(vec![(col, 1.0)], self.c));
        }
        prob.block(Cone::Nonnegative, ineq);
        if let Some(uk) = anchor {
            prob.q(tau, penalty);
            let split = &basis.split;
            let g1 = split.negative() * uk;
            let c1 = uk.dot(&g1);
            quadratic_constraint(&mut prob, split.factor_positive(), &g1, c1, k, tau);
            let g2 = split.positive() * uk;
            let c2 = uk.dot(&g2);
            quadratic_constraint(&mut prob, split.factor_negative(), &g2, c2, k, tau);
        }
        let sol = match prob.solve(self.settings.solver_max_iter)? {
            Outcome::Solved(s) => s,
            Outcome::Failed(f) => return Ok(Err(f)),
        };
        let mut alpha = DVector::zeros(n);
        for &i in &upper {
            alpha[i] = self.c;
        }
        for (col, &i) in free.iter().enumerate() {
            alpha[i] = sol.x[col].clamp(0.0, self.c);
        }
        // Reduced gradient of every αᵢ from the equality multipliers (clarabel: Px + q + Aᵀz = 0;
        // αᵢ's column has y_i in row 0 and −R_ij y_i in row 1 + j).
        let z_v = DVector::from_column_slice(&sol.z[1..=r]);
        let rz = &basis.r * z_v;
        let gradient = DVector::from_fn(n, |i, _| -1.0 + y[i] * (sol.z[0] - rz[i]));
        Ok(Ok(KernelSolution {
            state: KernelState { alpha, gradient },
            tau: if anchor.is_some() {
                sol.x[tau]
            } else {
                f64::NAN
            },
            accuracy: sol.accuracy,
            iterations: sol.iterations,
        }))
    }

    /// The slots of the next subproblem from a previous solution: αᵢ strictly inside the box,
    /// or with `|gᵢ|` below [`KERNEL_WORKING_GRADIENT`], or already free (`keep`), are variables;
    /// the rest are held at their bound. `None` (every row free) when that is most rows.
    fn working_slots(&self, state: &KernelState, keep: &[bool]) -> Option<Vec<Slot>> {
        let n = self.y.len();
        let (lo, hi) = (1e-6 * self.c, (1.0 - 1e-6) * self.c);
        let slots: Vec<Slot> = (0..n)
            .map(|i| {
                let a = state.alpha[i];
                if keep[i]
                    || (a > lo && a < hi)
                    || state.gradient[i].abs() < KERNEL_WORKING_GRADIENT
                {
                    Slot::Free
                } else if a <= lo {
                    Slot::Lower
                } else {
                    Slot::Upper
                }
            })
            .collect();
        let free = slots.iter().filter(|&&s| s == Slot::Free).count();
        (free as f64 <= KERNEL_WORKING_MAX_FRACTION * n as f64).then_some(slots)
    }
}

impl Subproblems for KernelProblem<'_> {
    /// α and its reduced gradient.
    type State = KernelState;

    /// Solves the subproblem exactly on a working set of dual variables (the analogue of the
    /// linear model's working set of rows): the αᵢ at a bound with a KKT gradient far from 0
    /// at the previous solution are held there. The result is accepted only when every held
    /// αᵢ satisfies its KKT sign condition at the new solution (to [`KERNEL_KKT_TOL`]), which
    /// makes it the optimum over all α (the subproblem is convex); violators are freed and the
    /// subproblem re-solved, at worst until every αᵢ is free. The warm start has no previous
    /// solution and frees every αᵢ unless [`KernelProblem::seed`] supplies a guess.
    fn solve(
        &self,
        previous: Option<&Iterate<KernelState>>,
    ) -> Result<std::result::Result<Iterate<KernelState>, SolverFailure>> {
        let anchor = previous.map(|it| &it.anchor);
        let n = self.y.len();
        let mut keep = vec![false; n];
        let guess = previous.map(|it| &it.state).or(self.seed.as_ref());
        let mut slots = guess.and_then(|s| self.working_slots(s, &keep));
        let mut iterations = 0;
        let mut solves = 0;
        let sol = loop {
            let all = vec![Slot::Free; n];
            let current = slots.as_deref().unwrap_or(&all);
            let sol = match self.solve_slots(anchor, current)? {
                Ok(sol) => sol,
                // Holding αᵢ at a bound can make the reduced problem infeasible (yᵀα = 0 or the
                // mean constraint out of reach of the free αᵢ): fall back to every row free.
                Err(_) if slots.is_some() => {
                    slots = None;
                    continue;
                }
                Err(f) => return Ok(Err(f)),
            };
            iterations += sol.iterations;
            solves += 1;
            if slots.is_none() {
                break sol;
            }
            let g = &sol.state.gradient;
            let mut violated = false;
            // Free rows stay free and violators become free, so the working set grows at
            // every re-solve and the loop ends (at worst with every row free).
            for i in 0..n {
                let violates = match current[i] {
                    Slot::Free => false,
                    Slot::Lower => g[i] < -KERNEL_KKT_TOL,
                    Slot::Upper => g[i] > KERNEL_KKT_TOL,
                };
                violated |= violates;
                keep[i] |= violates || current[i] == Slot::Free;
            }
            if !violated {
                break sol;
            }
            slots = self.working_slots(&sol.state, &keep);
        };
        let working_rows = slots
            .as_ref()
            .map_or(n, |s| s.iter().filter(|&&x| x == Slot::Free).count());
        let y = self.y;
        let basis = self.basis;
        let penalty = self.settings.mu / (2.0 * self.settings.lambda);
        let alpha = &sol.state.alpha;
        let beta = alpha.component_mul(&DVector::from_column_slice(y));
        let u = basis.r.tr_mul(&beta);
        let gap = u.dot(&(&basis.h * &u));
        let quad = u.norm_squared();
        let objective = 0.5 * quad - alpha.sum() + penalty * gap.abs();
        Ok(Ok(Iterate {
            anchor: u,
            change: beta,
            tau: sol.tau,
            objective,
            covariance_gap: gap,
            accuracy: sol.accuracy,
            solver_iterations: iterations,
            working_rows,
            solves,
            state: sol.state,
        }))
    }
}

#[cfg(test)]
mod tests {
    //! The factor-based fits against the paper's literal n × n formulation in α (dense `YKY`,
    //! `k_m = Kδ`, `S₊ − S₋` of eq. (18)), with no factor anywhere.

    use super::*;
    use crate::input::signs_from_classes;
    use crate::spectral::kernel_group_covariances;
    use fair_data::{FairSvmSynthetic, Standardizer};

    /// (x, 0/1 classes, ±1 labels, groups, ±1 protected classes).
    #[allow(clippy::type_complexity)]
    fn problem(n: usize, seed: u64) -> (DMatrix<f64>, Vec<usize>, Vec<f64>, Groups, Vec<f64>) {
        let data = FairSvmSynthetic::new()
            .n(n)
            .p(3)
            .seed(seed)
            .generate()
            .unwrap()
            .data;
        let x = Standardizer::fit(data.x())
            .unwrap()
            .transform(data.x())
            .unwrap();
        let classes = data.y().to_vec();
        let y = signs_from_classes(&classes).unwrap();
        let groups = data.groups("z").unwrap().clone();
        let z = groups
            .codes()
            .iter()
            .map(|&c| if c == 1 { 1.0 } else { -1.0 })
            .collect();
        (x, classes, y, groups, z)
    }

    /// `min ½αᵀYKYα − 1ᵀα + gᵀα` s.t. `yᵀα = 0`, `0 ≤ α ≤ C`, `|k_mᵀ(y∘α)| ≤ d`, on dense K.
    fn literal_qp(
        k: &DMatrix<f64>,
        y: &[f64],
        z: &[f64],
        c: f64,
        d: f64,
        g: &DVector<f64>,
    ) -> DVector<f64> {
        let n = y.len();
        let mut prob = ConicProblem::new(n);
        for i in 0..n {
            for j in i..n {
                prob.p(i, j, y[i] * y[j] * k[(i, j)]);
            }
            prob.q(i, g[i] - 1.0);
        }
        let (np, nn) = (
            z.iter().filter(|&&v| v > 0.0).count() as f64,
            z.iter().filter(|&&v| v < 0.0).count() as f64,
        );
        let delta = DVector::from_iterator(
            n,
            z.iter()
                .map(|&v| if v > 0.0 { 1.0 / np } else { -1.0 / nn }),
        );
        let km = k * delta;
        prob.block(
            Cone::Zero,
            vec![Row::new((0..n).map(|i| (i, y[i])).collect(), 0.0)],
        );
        let mut ineq = vec![
            Row::new((0..n).map(|i| (i, km[i] * y[i])).collect(), d),
            Row::new((0..n).map(|i| (i, -km[i] * y[i])).collect(), d),
        ];
        for i in 0..n {
            ineq.push(Row::new(vec![(i, -1.0)], 0.0));
            ineq.push(Row::new(vec![(i, 1.0)], c));
        }
        prob.block(Cone::Nonnegative, ineq);
        match prob.solve(500).unwrap() {
            Outcome::Solved(s) => DVector::from_column_slice(&s.x),
            Outcome::Failed(f) => panic!("literal QP failed: {f:?}"),
        }
    }

    /// μ = 0: the factor-based fit is the literal dual (15) with the mean constraint.
    #[test]
    fn exact_factor_zafar_equals_the_literal_dual() {
        let (x, classes, y, groups, z) = problem(60, 4);
        let kernel = Kernel::Rbf { gamma: 0.5 };
        let svm = KernelFairSvm::params(kernel)
            .max_rank(None)
            .d(0.05)
            .mu(0.0)
            .fit(&x, &classes, &groups)
            .unwrap();
        assert!(svm.factor_is_exact());
        let k = kernel.matrix(&x, &x).unwrap();
        let c = 1.0 / (2.0 * 0.01 * 60.0);
        let alpha = literal_qp(&k, &y, &z, c, 0.05, &DVector::zeros(60));
        let beta = alpha.component_mul(&DVector::from_column_slice(&y));
        let (f_lit, f_fac) = (&k * &beta, &k * svm.beta());
        let gap = (&f_lit - &f_fac).amax() / f_lit.amax();
        assert!(gap < 1e-5, "relative gap {gap:e}");
    }

    /// μ > 0: a fixed point of the factor-based convex–concave iterations is a stationary point
    /// of the literal penalised problem `½βᵀKβ − Σα + (μ/2λ)|βᵀ(S₊ − S₋)β|` (eq. (17)–(18)) —
    /// i.e. its α minimises the literal problem with the penalty linearised there. So the
    /// spectral split of `Cov₊(R) − Cov₋(R)` reaches a fixed point of the paper's problem.
    #[test]
    fn exact_factor_spectral_fixed_point_is_stationary_for_the_literal_problem() {
        let (x, classes, y, groups, z) = problem(60, 4);
        let kernel = Kernel::Rbf { gamma: 0.5 };
        let (lambda, mu) = (0.01, 0.002);
        let svm = KernelFairSvm::params(kernel)
            .max_rank(None)
            .lambda(lambda)
            .d(0.05)
            .mu(mu)
            .tol(1e-9)
            .max_iter(2000)
            .fit(&x, &classes, &groups)
            .unwrap();
        assert!(svm.factor_is_exact());
        assert_eq!(svm.report().status, fair_core::Termination::Converged);
        let k = kernel.matrix(&x, &x).unwrap();
        let (s_pos, s_neg) = kernel_group_covariances(&k, &groups).unwrap();
        let s = s_pos - s_neg;
        let beta = svm.beta();
        let q = beta.dot(&(&s * beta));
        assert!(q.abs() > 1e-8, "penalty not differentiable here: q = {q:e}");
        // ∇_α of (μ/2λ)|q| with β = y∘α.
        let grad_beta = (&s * beta) * (2.0 * q.signum() * mu / (2.0 * lambda));
        let g = grad_beta.component_mul(&DVector::from_column_slice(&y));
        let c = 1.0 / (2.0 * lambda * 60.0);
        let alpha = literal_qp(&k, &y, &z, c, 0.05, &g);
        let beta_lit = alpha.component_mul(&DVector::from_column_slice(&y));
        let (f_lit, f_fac) = (&k * &beta_lit, &k * beta);
        let gap = (&f_lit - &f_fac).amax() / f_lit.amax();
        assert!(gap < 1e-4, "relative gap {gap:e}");
        // The check has teeth: without the penalty's gradient the literal optimum moves.
        let alpha0 = literal_qp(&k, &y, &z, c, 0.05, &DVector::zeros(60));
        let f0 = &k * alpha0.component_mul(&DVector::from_column_slice(&y));
        let moved = (&f0 - &f_fac).amax() / f0.amax();
        assert!(
            moved > 100.0 * gap.max(1e-6),
            "gap {gap:e}, moved {moved:e}"
        );
    }

    /// The working set is exact: a convex–concave subproblem solved with most αᵢ held at their
    /// bounds gives the same α as the all-rows solve, and the reduced gradients satisfy the KKT
    /// sign conditions at the bounds.
    #[test]
    fn working_set_subproblem_equals_the_all_rows_subproblem() {
        let (x, classes, y, groups, _) = problem(300, 5);
        let kernel = Kernel::Rbf { gamma: 0.5 };
        let k = kernel.matrix(&x, &x).unwrap();
        let data = validate(&x, &classes, &groups, crate::Fairness::DemographicParity).unwrap();
        let basis = Basis::new(&k, 1e-12, None, &data.pos, &data.neg).unwrap();
        let settings = Common {
            lambda: 0.01,
            d: 0.05,
            mu: 0.1,
            ..Common::default()
        };
        let problem = KernelProblem {
            y: &y,
            basis: &basis,
            settings: &settings,
            c: 1.0 / (2.0 * 0.01 * 300.0),
            exact: true,
            seed: None,
        };
        let warm = problem.solve(None).unwrap().unwrap();
        assert_eq!(warm.working_rows, 300);
        let next = problem.solve(Some(&warm)).unwrap().unwrap();
        assert!(next.working_rows < 240, "working set {}", next.working_rows);
        let all = vec![Slot::Free; 300];
        let full = problem
            .solve_slots(Some(&warm.anchor), &all)
            .unwrap()
            .unwrap();
        // Compare the training scores Kβ = R v (α itself is ill-determined where K has tiny
        // eigenvalues).
        let beta = |a: &DVector<f64>| a.component_mul(&DVector::from_column_slice(&y));
        let (f_full, f_ws) = (&k * beta(&full.state.alpha), &k * beta(&next.state.alpha));
        let gap = (&f_full - &f_ws).amax() / f_full.amax();
        assert!(gap < 1e-5, "relative score gap {gap:e}");
        // KKT signs: g ≥ 0 towards α = 0 and g ≤ 0 towards α = C (interior-point iterates sit
        // slightly inside the box, so a near-bound α has a small g of the bound's sign).
        let mut at_bounds = 0;
        for i in 0..300 {
            let (a, g) = (full.state.alpha[i], full.state.gradient[i]);
            if a < 0.5 * problem.c {
                assert!(g > -1e-5, "row {i}: α = {a:e} with g = {g}");
            } else {
                assert!(g < 1e-5, "row {i}: α = {a:e} with g = {g}");
            }
            at_bounds += usize::from(g.abs() > 0.1);
        }
        assert!(at_bounds > 100, "{at_bounds} rows clearly at a bound");
    }

    #[test]
    fn uncapped_pivoted_cholesky_reassembles_an_rbf_kernel() {
        let (x, ..) = problem(200, 9);
        let k = Kernel::Rbf { gamma: 2.0 }.matrix(&x, &x).unwrap();
        let l = pivoted_cholesky(&k, 1e-12, None);
        let residual = (&k - &l * l.transpose()).norm() / k.norm();
        assert!(residual < 1e-8, "{residual:e}");
        assert!((residual - relative_residual(&k, &l)).abs() < 1e-14);
        assert!(l.ncols() > 100 && l.ncols() <= 200, "rank {}", l.ncols());
        let capped = pivoted_cholesky(&k, 1e-12, Some(50));
        assert_eq!(capped.ncols(), 50);
        assert!(relative_residual(&k, &capped) > 1e-3);
    }
}
