//! The kernel fair SVM, paper §4.2 and §5.2, on a low-rank factorisation of the kernel matrix.

use crate::ccp::{self, FitReport, Iterate, Subproblems};
use crate::error::{FairSvmError, Result, SolverFailure};
use crate::input::{check_predict, validate};
use crate::params::{Common, Kernel, KernelFairSvmParams, KernelFairSvmValidParams};
use crate::socp::{Cone, ConicProblem, Outcome, Row, quadratic_constraint};
use crate::spectral::{SpectralSplit, mean_and_covariance};
use nalgebra::{DMatrix, DVector};

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

/// Pivoted (incomplete) Cholesky `K ≈ LLᵀ`, stopped when the trace of the residual is at most
/// `rel_tol · trace(K)` or `max_rank` columns are reached. Returns `L` (n × r).
pub(crate) fn pivoted_cholesky(k: &DMatrix<f64>, rel_tol: f64, max_rank: usize) -> DMatrix<f64> {
    let n = k.nrows();
    let mut diag: Vec<f64> = (0..n).map(|i| k[(i, i)].max(0.0)).collect();
    let trace: f64 = diag.iter().sum();
    let cap = max_rank.min(n);
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
        if dmax <= 0.0 {
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
/// n × r (residual trace ≤ `rank_tol`·trace K, at most `max_rank` columns; exact for the linear
/// and low-degree polynomial kernels, whose rank is small; a Nyström-type approximation for an
/// RBF kernel whose numerical rank exceeds `max_rank`). Every quantity of the problem lives in the feature coordinates
/// `v = Rᵀβ`: `βᵀKβ = ‖v‖²`, `k_mᵀβ = (Rᵀδ)ᵀv` with `δ = e_P/#P − e_N/#N`, and
/// `βᵀ(S₊ − S₋)β = vᵀ(Cov₊(R) − Cov₋(R))v` (eq. (18): `S± = R Cov±(R) Rᵀ`). So each subproblem
/// has `O(n r)` nonzeros instead of the dense `n²` of the literal formulation, and is well
/// scaled (identity Hessian). The one-time cost is `O(n² p)` for the kernel matrix plus
/// `O(n r²)` per interior-point iteration; the kernel matrix itself is O(n²) memory, hence the
/// `max_rows` guard.
///
/// **How this relates to the paper's n × n split (eq. (25)).**
/// * *The problem is the paper's whenever the factor is exact*: `K = RRᵀ` holds to round-off for
///   the linear kernel (rank ≤ p), polynomial kernels (rank ≤ C(p + degree, degree)) and any
///   kernel whose pivoted Cholesky reaches `rank_tol` before `max_rank`; then every term of
///   (13), (15), (17)–(18) is reproduced identically in `v`.
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
/// * *When `max_rank` is hit* (an RBF kernel whose numerical rank exceeds it), `RRᵀ` is a
///   Nyström-type approximation of K and the problem differs from the paper's by the PSD
///   residual `K − RRᵀ`; [`KernelFairSvm::rank`] reports the rank used. `max_rank(n)` with a small `rank_tol` makes the factor exact at `O(n r²)` per
///   interior-point iteration.
///
/// The intercept is eq. (12): the mean of `yᵢ − K(X, xᵢ)ᵀβ` over the αᵢ strictly inside
/// `(support_tol·C, (1 − support_tol)·C)`; when there is none, the midpoint of the interval the
/// KKT conditions of the bound αᵢ allow (as LIBSVM does).
///
/// # Examples
/// ```
/// use fair_svm::{Kernel, KernelFairSvm};
/// use nalgebra::DMatrix;
/// // XOR-like labels: no linear separator, an RBF kernel separates them.
/// let x = DMatrix::from_row_slice(8, 2, &[
///     1.0, 1.0,  -1.0, -1.0,  1.0, -1.0,  -1.0, 1.0,
///     1.2, 0.9,  -0.9, -1.1,  0.9, -1.2,  -1.1, 0.8,
/// ]);
/// let y = [1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0];
/// let z = [1.0, -1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0];
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
    /// The settings the model was fitted with.
    pub fn fitted_params(&self) -> &KernelFairSvmValidParams {
        &self.params
    }
    /// Diagnostics of the fit.
    pub fn report(&self) -> &FitReport {
        &self.report
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

    /// Labels ±1: `+1` when the score is ≥ 0.
    ///
    /// # Errors
    /// As [`KernelFairSvm::decision_function`].
    pub fn predict(&self, x: &DMatrix<f64>) -> Result<Vec<f64>> {
        Ok(self
            .decision_function(x)?
            .iter()
            .map(|&s| if s >= 0.0 { 1.0 } else { -1.0 })
            .collect())
    }
}

impl KernelFairSvmParams {
    /// Validates the settings, then fits (see [`KernelFairSvmValidParams::fit`]).
    ///
    /// # Errors
    /// [`FairSvmError::InvalidParam`], then the errors of [`KernelFairSvmValidParams::fit`].
    pub fn fit(&self, x: &DMatrix<f64>, y: &[f64], z: &[f64]) -> Result<KernelFairSvm> {
        self.check_ref()?;
        self.0.fit(x, y, z)
    }
}

impl KernelFairSvmValidParams {
    /// Fits on features `x` (n × p), labels `y ∈ {−1, +1}ⁿ` and protected classes
    /// `z ∈ {−1, +1}ⁿ`.
    ///
    /// # Errors
    /// The input errors of [`crate::SpectralFairSvmValidParams::fit`], plus
    /// [`FairSvmError::TooLarge`] when `n > max_rows`.
    pub fn fit(&self, x: &DMatrix<f64>, y: &[f64], z: &[f64]) -> Result<KernelFairSvm> {
        self.fit_observed(x, y, z, &mut ())
    }

    /// [`KernelFairSvmValidParams::fit`], reporting every iteration to `observer`
    /// (see [`crate::Observer`]).
    ///
    /// # Errors
    /// As [`KernelFairSvmValidParams::fit`].
    pub fn fit_observed(
        &self,
        x: &DMatrix<f64>,
        y: &[f64],
        z: &[f64],
        observer: &mut dyn crate::Observer,
    ) -> Result<KernelFairSvm> {
        let data = validate(x, y, z, self.common.fairness)?;
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
        let problem = KernelProblem {
            y,
            basis: &basis,
            settings: &self.common,
            c,
        };
        let am = basis.mean_row.clone();
        let out = ccp::run(&problem, &self.common, |it| am.dot(&it.anchor), observer)?;
        let alpha = out.last.state;
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

/// The low-rank feature map `K ≈ RRᵀ` (R n × r, pivoted Cholesky) and the fairness terms
/// expressed in the feature coordinates `v = Rᵀβ`.
struct Basis {
    /// n × r.
    r: DMatrix<f64>,
    /// `Rᵀδ` with `δ = e_P/#P − e_N/#N`: the mean constraint is `|mean_rowᵀv| ≤ d`.
    mean_row: DVector<f64>,
    /// `H = Cov₊(R) − Cov₋(R)`, so that `βᵀ(S₊ − S₋)β = vᵀHv`.
    h: DMatrix<f64>,
    split: SpectralSplit,
}

impl Basis {
    fn new(
        k: &DMatrix<f64>,
        rank_tol: f64,
        max_rank: usize,
        pos: &[usize],
        neg: &[usize],
    ) -> Result<Self> {
        let r = pivoted_cholesky(k, rank_tol, max_rank);
        let (mean_p, cov_p) = mean_and_covariance(&r, pos);
        let (mean_n, cov_n) = mean_and_covariance(&r, neg);
        let h = cov_p - cov_n;
        if h.iter().any(|x| !x.is_finite()) {
            return Err(FairSvmError::Overflow {
                what: "kernel covariance matrix S+ - S-",
            });
        }
        let split = if r.ncols() > 0 {
            SpectralSplit::new(&h)?
        } else {
            SpectralSplit::empty()
        };
        Ok(Self {
            r,
            mean_row: mean_p - mean_n,
            h,
            split,
        })
    }
}

struct KernelProblem<'a> {
    y: &'a [f64],
    basis: &'a Basis,
    settings: &'a Common,
    c: f64,
}

impl Subproblems for KernelProblem<'_> {
    /// α.
    type State = DVector<f64>;

    fn solve(
        &self,
        previous: Option<&Iterate<DVector<f64>>>,
    ) -> Result<std::result::Result<Iterate<DVector<f64>>, SolverFailure>> {
        let anchor = previous.map(|it| &it.anchor);
        let y = self.y;
        let basis = self.basis;
        let n = y.len();
        let r = basis.r.ncols();
        let tau = n + r;
        let n_vars = if anchor.is_some() { tau + 1 } else { tau };
        let penalty = self.settings.mu / (2.0 * self.settings.lambda);
        let mut prob = ConicProblem::new(n_vars);
        for j in 0..r {
            prob.p(n + j, n + j, 1.0);
        }
        for i in 0..n {
            prob.q(i, -1.0);
        }
        // Equalities: yᵀα = 0 and v = Rᵀ(y∘α).
        let mut eq = Vec::with_capacity(r + 2);
        eq.push(Row::new((0..n).map(|i| (i, y[i])).collect(), 0.0));
        for j in 0..r {
            let mut e: Vec<(usize, f64)> = (0..n).map(|i| (i, -basis.r[(i, j)] * y[i])).collect();
            e.push((n + j, 1.0));
            eq.push(Row::new(e, 0.0));
        }
        let d = self.settings.d;
        let mean: Vec<(usize, f64)> = (0..r).map(|j| (n + j, basis.mean_row[j])).collect();
        let mut ineq = Vec::with_capacity(2 * n + 2);
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
        for i in 0..n {
            ineq.push(Row::new(vec![(i, -1.0)], 0.0));
            ineq.push(Row::new(vec![(i, 1.0)], self.c));
        }
        prob.block(Cone::Nonnegative, ineq);
        if let Some(uk) = anchor {
            prob.q(tau, penalty);
            let split = &basis.split;
            let g1 = split.negative() * uk;
            let c1 = uk.dot(&g1);
            quadratic_constraint(&mut prob, split.factor_positive(), &g1, c1, n, tau);
            let g2 = split.positive() * uk;
            let c2 = uk.dot(&g2);
            quadratic_constraint(&mut prob, split.factor_negative(), &g2, c2, n, tau);
        }
        let sol = match prob.solve(self.settings.solver_max_iter)? {
            Outcome::Solved(s) => s,
            Outcome::Failed(f) => return Ok(Err(f)),
        };
        let alpha = DVector::from_iterator(n, sol.x[..n].iter().map(|a| a.clamp(0.0, self.c)));
        let beta = alpha.component_mul(&DVector::from_column_slice(y));
        let u = basis.r.tr_mul(&beta);
        let gap = u.dot(&(&basis.h * &u));
        let quad = u.norm_squared();
        let objective = 0.5 * quad - alpha.sum() + penalty * gap.abs();
        let t = if anchor.is_some() {
            sol.x[tau]
        } else {
            f64::NAN
        };
        Ok(Ok(Iterate {
            anchor: u,
            change: beta,
            tau: t,
            objective,
            covariance_gap: gap,
            accuracy: sol.accuracy,
            solver_iterations: sol.iterations,
            working_rows: n,
            solves: 1,
            state: alpha,
        }))
    }
}
