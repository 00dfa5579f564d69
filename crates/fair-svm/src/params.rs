//! Settings of the linear and kernel fair SVMs: documented defaults, consuming setters, all
//! validation in `check()`.

use crate::error::{Result, invalid};

/// The d grid of the paper's real-data experiments (§6.2): 0, 0.001, 0.002, 0.005, 0.01,
/// 0.025, 0.05, 0.1.
pub const PAPER_D_GRID: [f64; 8] = [0.0, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1];

/// Which all-threshold fairness notion the fairness terms target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fairness {
    /// Demographic parity (paper eq. (2)): the score distribution must not depend on z.
    /// Means and covariances are taken over all training rows.
    #[default]
    DemographicParity,
    /// Equal opportunity (paper eq. (3)): the same, conditioned on y = +1. Means and
    /// covariances are taken over the training rows with y = +1 only (the hinge loss still uses
    /// every row), which is the paper's "simply conditioning on y = +1".
    EqualOpportunity,
}

/// How the vector `m` of the mean constraint `|mᵀw| ≤ d` is scaled (this fixes the unit of d).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MeanVector {
    /// `m = mean(x | z=+1) − mean(x | z=−1)`, eq. (8) as printed: d bounds the gap between
    /// the groups' mean scores.
    #[default]
    Raw,
    /// `m/‖m‖`, the authors' MATLAB code: d bounds the component of w along the mean
    /// difference (the constraint on the raw gap is then `d·‖m‖`).
    Unit,
}

/// Normalisation of the group covariances `Σ±`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CovarianceNormalisation {
    /// `1/#P`, eq. (16).
    #[default]
    Population,
    /// `1/(#P − 1)`, MATLAB's `cov()` in the authors' code.
    Sample,
}

/// What the covariance penalty acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CovariancePenalty {
    /// `μ·|wᵀ(Σ₊ − Σ₋)w|`, eq. (23): the penalty also falls when w shrinks, which Δ (a
    /// scale-free statistic) does not notice.
    #[default]
    OnWeights,
    /// `μ·|wᵀ(Σ₊ − Σ₋)w| / ‖w‖²`: the same term on the direction `w/‖w‖`, scale-free like Δ.
    /// Not in the paper (an option tested against it). Each convex–concave subproblem freezes
    /// `1/‖w_k‖²` and linearises its change at the anchor, so a fixed point is a stationary
    /// point of the scale-free objective; the objective is not guaranteed to fall at every
    /// iteration.
    OnDirection,
}

/// Settings shared by the linear and the kernel model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Common {
    pub lambda: f64,
    pub d: f64,
    pub mu: f64,
    pub fairness: Fairness,
    pub tol: f64,
    pub max_iter: usize,
    pub solver_max_iter: u32,
}

impl Default for Common {
    fn default() -> Self {
        Self {
            lambda: 0.01,
            d: f64::INFINITY,
            mu: 1.0,
            fairness: Fairness::DemographicParity,
            tol: 1e-3,
            max_iter: 100,
            solver_max_iter: 200,
        }
    }
}

impl Common {
    fn check(&self) -> Result<()> {
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return Err(invalid("lambda", self.lambda, "a finite value > 0"));
        }
        if self.d.is_nan() || self.d < 0.0 {
            return Err(invalid(
                "d",
                self.d,
                "a value >= 0 (f64::INFINITY switches the mean constraint off)",
            ));
        }
        if !(self.mu.is_finite() && self.mu >= 0.0) {
            return Err(invalid("mu", self.mu, "a finite value >= 0"));
        }
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(invalid("tol", self.tol, "a finite value > 0"));
        }
        if self.max_iter == 0 {
            return Err(invalid(
                "max_iter",
                0,
                "at least 1 convex-concave iteration",
            ));
        }
        if self.solver_max_iter == 0 {
            return Err(invalid(
                "solver_max_iter",
                0,
                "at least 1 interior-point iteration",
            ));
        }
        Ok(())
    }
}

macro_rules! common_setters {
    () => {
        /// λ, the ridge weight (linear: `(1/n)Σuᵢ + λ‖w‖²`; kernel: box bound `C = 1/(2λn)`).
        pub fn lambda(mut self, lambda: f64) -> Self {
            self.0.common.lambda = lambda;
            self
        }
        /// d, the bound of the mean constraint `|mᵀw| ≤ d` (eq. (8) / (15));
        /// `f64::INFINITY` switches it off.
        pub fn d(mut self, d: f64) -> Self {
            self.0.common.d = d;
            self
        }
        /// μ, the weight of the covariance penalty `μ·|wᵀ(Σ₊ − Σ₋)w|`; 0 switches it off.
        pub fn mu(mut self, mu: f64) -> Self {
            self.0.common.mu = mu;
            self
        }
        /// Demographic parity or equal opportunity.
        pub fn fairness(mut self, fairness: Fairness) -> Self {
            self.0.common.fairness = fairness;
            self
        }
        /// Stopping tolerance on the relative change of the iterate.
        pub fn tol(mut self, tol: f64) -> Self {
            self.0.common.tol = tol;
            self
        }
        /// Cap on the number of convex–concave iterations (subproblems after the warm start).
        pub fn max_iter(mut self, max_iter: usize) -> Self {
            self.0.common.max_iter = max_iter;
            self
        }
        /// Cap on clarabel's interior-point iterations per subproblem.
        pub fn solver_max_iter(mut self, solver_max_iter: u32) -> Self {
            self.0.common.solver_max_iter = solver_max_iter;
            self
        }
    };
}

macro_rules! common_getters {
    () => {
        /// λ, the ridge weight.
        pub fn lambda(&self) -> f64 {
            self.common.lambda
        }
        /// d, the mean-constraint bound (`f64::INFINITY`: off).
        pub fn d(&self) -> f64 {
            self.common.d
        }
        /// μ, the covariance-penalty weight (0: off).
        pub fn mu(&self) -> f64 {
            self.common.mu
        }
        /// The fairness notion.
        pub fn fairness(&self) -> Fairness {
            self.common.fairness
        }
        /// Relative-change stopping tolerance.
        pub fn tol(&self) -> f64 {
            self.common.tol
        }
        /// Convex–concave iteration cap.
        pub fn max_iter(&self) -> usize {
            self.common.max_iter
        }
        /// Interior-point iteration cap per subproblem.
        pub fn solver_max_iter(&self) -> u32 {
            self.common.solver_max_iter
        }
    };
}

/// Validated settings of [`crate::SpectralFairSvm`]; only these can fit.
#[derive(Debug, Clone, PartialEq)]
pub struct SpectralFairSvmValidParams {
    pub(crate) common: Common,
    pub(crate) shrinking: bool,
    pub(crate) mean_vector: MeanVector,
    pub(crate) covariance_normalisation: CovarianceNormalisation,
    pub(crate) covariance_penalty: CovariancePenalty,
}

impl Default for SpectralFairSvmValidParams {
    fn default() -> Self {
        Self {
            common: Common::default(),
            shrinking: true,
            mean_vector: MeanVector::Raw,
            covariance_normalisation: CovarianceNormalisation::Population,
            covariance_penalty: CovariancePenalty::OnWeights,
        }
    }
}

impl SpectralFairSvmValidParams {
    common_getters!();
    /// Whether convex–concave subproblems are solved on a working set of rows.
    pub fn shrinking(&self) -> bool {
        self.shrinking
    }
    /// How `m` of the mean constraint is scaled.
    pub fn mean_vector(&self) -> MeanVector {
        self.mean_vector
    }
    /// Normalisation of `Σ±`.
    pub fn covariance_normalisation(&self) -> CovarianceNormalisation {
        self.covariance_normalisation
    }
    /// What the covariance penalty acts on.
    pub fn covariance_penalty(&self) -> CovariancePenalty {
        self.covariance_penalty
    }
}

/// Settings of the linear fair SVM ([`crate::SpectralFairSvm`]).
///
/// The problem solved (per convex–concave iteration, paper eq. (23) with the averaged hinge):
/// ```text
/// min_{w,b,u,τ}  (1/n) Σᵢ uᵢ + λ‖w‖² + μ τ
/// s.t.  yᵢ(xᵢᵀw + b) ≥ 1 − uᵢ,  uᵢ ≥ 0
///       −d ≤ mᵀw ≤ d                                   (mean constraint, eq. (8))
///       wᵀU₊w − 2(U₋w_k)ᵀw + w_kᵀU₋w_k ≤ τ             (U₊ − U₋ = Σ₊ − Σ₋, spectral split)
///       wᵀU₋w − 2(U₊w_k)ᵀw + w_kᵀU₊w_k ≤ τ
/// ```
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `lambda` | 0.01 | finite, > 0 | ridge weight λ |
/// | `d` | `f64::INFINITY` (off) | ≥ 0 or ∞ | mean-constraint bound |
/// | `mu` | 1.0 | finite, ≥ 0 | covariance-penalty weight μ (0: Zafar's SVM) |
/// | `fairness` | `DemographicParity` | enum | which rows define the group moments |
/// | `tol` | 1e-3 (the authors' code) | finite, > 0 | stop when `‖w_{k+1} − w_k‖ / ‖w_k‖ < tol` (or when the objective stops decreasing, see [`crate::Termination::Converged`]) |
/// | `max_iter` | 100 | ≥ 1 | cap on convex–concave iterations |
/// | `solver_max_iter` | 200 | ≥ 1 | cap on clarabel iterations per subproblem |
/// | `mean_vector` | [`MeanVector::Raw`] (eq. (8)) | enum | `m` raw or unit length (the authors' code) |
/// | `covariance_normalisation` | [`CovarianceNormalisation::Population`] (eq. (16)) | enum | `1/#P` or `1/(#P − 1)` (the code's `cov()`) |
/// | `covariance_penalty` | [`CovariancePenalty::OnWeights`] (eq. (23)) | enum | penalty on w or on `w/‖w‖` |
/// | `shrinking` | `true` | bool | solve each convex–concave subproblem on the rows near or inside the previous iterate's margin, adding rows that end up violated (exact; see [`crate::SpectralFairSvm`]) |
///
/// [`SpectralFairSvmParams::plain`] (d = ∞, μ = 0) is the standard SVM (the paper's LSVM) and
/// [`SpectralFairSvmParams::zafar`] (μ = 0) the mean-constrained SVM of Zafar et al. (ZSVM).
///
/// # Errors
/// `check()` (and `fit`) return [`crate::FairSvmError::InvalidParam`] naming the first setting
/// outside its range.
///
/// # Examples
/// ```
/// use fair_svm::{SpectralFairSvm, FairSvmError};
/// let bad = SpectralFairSvm::params().lambda(-1.0).check();
/// assert!(matches!(bad, Err(FairSvmError::InvalidParam { name: "lambda", .. })));
/// let ok = SpectralFairSvm::params().d(0.05).mu(10.0).check()?;
/// assert_eq!((ok.d(), ok.mu()), (0.05, 10.0));
/// # Ok::<(), FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpectralFairSvmParams(pub(crate) SpectralFairSvmValidParams);

impl SpectralFairSvmParams {
    /// The defaults of the table.
    pub fn new() -> Self {
        Self::default()
    }
    /// The standard soft-margin linear SVM (LSVM): no mean constraint, no covariance penalty.
    pub fn plain() -> Self {
        Self::default().d(f64::INFINITY).mu(0.0)
    }
    /// The mean-constrained SVM of Zafar et al. (ZSVM): `|mᵀw| ≤ d`, no covariance penalty.
    pub fn zafar(d: f64) -> Self {
        Self::default().d(d).mu(0.0)
    }
    common_setters!();
    /// Solve convex–concave subproblems on a working set of rows (default `true`; `false`
    /// always uses every row — same optimum, slower when few rows are near the margin).
    pub fn shrinking(mut self, shrinking: bool) -> Self {
        self.0.shrinking = shrinking;
        self
    }
    /// Raw or unit-length `m` in the mean constraint (default raw, eq. (8)).
    pub fn mean_vector(mut self, mean_vector: MeanVector) -> Self {
        self.0.mean_vector = mean_vector;
        self
    }
    /// `1/#P` or `1/(#P − 1)` for `Σ±` (default `1/#P`, eq. (16)).
    pub fn covariance_normalisation(mut self, normalisation: CovarianceNormalisation) -> Self {
        self.0.covariance_normalisation = normalisation;
        self
    }
    /// Covariance penalty on w (default, eq. (23)) or on the direction `w/‖w‖`.
    pub fn covariance_penalty(mut self, penalty: CovariancePenalty) -> Self {
        self.0.covariance_penalty = penalty;
        self
    }

    /// Validates every setting.
    ///
    /// # Errors
    /// [`crate::FairSvmError::InvalidParam`] for the first setting outside its range.
    pub fn check(self) -> Result<SpectralFairSvmValidParams> {
        self.check_ref()?;
        Ok(self.0)
    }

    /// Validates every setting without consuming the params.
    ///
    /// # Errors
    /// As [`SpectralFairSvmParams::check`].
    pub fn check_ref(&self) -> Result<()> {
        self.0.common.check()
    }
}

/// A positive semidefinite kernel `K(x, x')`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kernel {
    /// `xᵀx'`.
    Linear,
    /// `exp(−γ‖x − x'‖²)`.
    Rbf {
        /// γ > 0.
        gamma: f64,
    },
    /// `(γ xᵀx' + c₀)^degree`.
    Polynomial {
        /// Degree ≥ 1.
        degree: u32,
        /// γ > 0.
        gamma: f64,
        /// c₀ ≥ 0 (keeps the kernel PSD).
        coef0: f64,
    },
}

impl Kernel {
    pub(crate) fn check(&self) -> Result<()> {
        match *self {
            Kernel::Linear => Ok(()),
            Kernel::Rbf { gamma } => {
                if gamma.is_finite() && gamma > 0.0 {
                    Ok(())
                } else {
                    Err(invalid("kernel gamma", gamma, "a finite value > 0"))
                }
            }
            Kernel::Polynomial {
                degree,
                gamma,
                coef0,
            } => {
                if degree == 0 {
                    Err(invalid("kernel degree", degree, "at least 1"))
                } else if !(gamma.is_finite() && gamma > 0.0) {
                    Err(invalid("kernel gamma", gamma, "a finite value > 0"))
                } else if !(coef0.is_finite() && coef0 >= 0.0) {
                    Err(invalid(
                        "kernel coef0",
                        coef0,
                        "a finite value >= 0 (keeps the kernel PSD)",
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// Validated settings of [`crate::KernelFairSvm`]; only these can fit.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelFairSvmValidParams {
    pub(crate) common: Common,
    pub(crate) kernel: Kernel,
    pub(crate) max_rows: usize,
    pub(crate) rank_tol: f64,
    pub(crate) max_rank: Option<usize>,
    pub(crate) support_tol: f64,
}

impl KernelFairSvmValidParams {
    common_getters!();
    /// The kernel.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }
    /// Size guard: the largest number of training rows accepted.
    pub fn max_rows(&self) -> usize {
        self.max_rows
    }
    /// Relative trace tolerance of the pivoted-Cholesky factorisation of the kernel matrix.
    pub fn rank_tol(&self) -> f64 {
        self.rank_tol
    }
    /// Cap on the rank of the kernel factorisation (`Some(100)` by default); `None` keeps the
    /// numerical rank, so the factor is exact.
    pub fn max_rank(&self) -> Option<usize> {
        self.max_rank
    }
    /// Relative tolerance (of the box bound C) that decides which αᵢ are at a bound.
    pub fn support_tol(&self) -> f64 {
        self.support_tol
    }
}

/// Settings of the kernel fair SVM ([`crate::KernelFairSvm`]).
///
/// The problem solved per convex–concave iteration (paper eq. (27), with `β = y∘α`, the
/// standard ½ on the quadratic term, box bound `C = 1/(2λn)` and penalty weight `μ/(2λ)` so that
/// λ, d and μ are on the linear primal's scale when `K` is the linear kernel; the plain problem
/// is then the linear one exactly, while the fair terms on β in the dual are the paper's choice
/// and not the dual of the linear primal's fair terms, so the fair fits differ):
/// ```text
/// min_{α,τ}  ½ βᵀKβ − Σᵢ αᵢ + (μ / 2λ) τ
/// s.t.  yᵀα = 0,   0 ≤ αᵢ ≤ C
///       −d ≤ k_mᵀβ ≤ d                                 (eq. (15), k_m = K(e_P/#P − e_N/#N))
///       vᵀU₊v − 2(U₋v_k)ᵀv + v_kᵀU₋v_k ≤ τ              (v = Rᵀβ, K ≈ RRᵀ, U₊ − U₋ = Cov₊(R) − Cov₋(R),
///       vᵀU₋v − 2(U₊v_k)ᵀv + v_kᵀU₊v_k ≤ τ               so vᵀ(U₊ − U₋)v = βᵀ(S₊ − S₋)β, eq. (18))
/// ```
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `kernel` | (required) | see [`Kernel`] | the kernel |
/// | `lambda` | 0.01 | finite, > 0 | ridge weight; box bound `C = 1/(2λn)` |
/// | `d` | `f64::INFINITY` (off) | ≥ 0 or ∞ | mean-constraint bound |
/// | `mu` | 1.0 | finite, ≥ 0 | covariance-penalty weight |
/// | `fairness` | `DemographicParity` | enum | which rows define `k_m` and `S±` |
/// | `tol` | 1e-3 (the authors' code) | finite, > 0 | stop when `‖β_{k+1} − β_k‖ / ‖β_k‖ < tol` |
/// | `max_iter` | 100 | ≥ 1 | cap on convex–concave iterations |
/// | `solver_max_iter` | 200 | ≥ 1 | cap on clarabel iterations per subproblem |
/// | `max_rows` | 3000 | ≥ 2 | size guard (the method is O(n³)) |
/// | `rank_tol` | 1e-12 | `[0, 1)` | pivoted Cholesky stops when the residual trace ≤ `rank_tol`·trace(K) |
/// | `max_rank` | `Some(100)` | `None`, or `Some(r)` with r ≥ 1 | … or when the factor has r columns (then a Nyström-type approximation) |
///
/// **Exact or capped.** With `max_rank(None)` the factor `K ≈ RRᵀ` is exact: the residual
/// `K − RRᵀ` is PSD, so `‖K − RRᵀ‖_F ≤ trace(K − RRᵀ) ≤ rank_tol·trace(K) ≤ rank_tol·√n·‖K‖_F`,
/// and r is the numerical rank of K — which for an RBF kernel is n or close to it (measured on
/// the benchmark data, γ = 0.2: every eigenvalue of K exceeds 10⁻⁸·λ_max at n = 500). Each
/// subproblem then couples the free dual variables with all r feature coordinates; it is solved
/// on an exact working set of the αᵢ (those off their bounds or near the margin, ≈ 20 % of the
/// rows on the benchmark data), which measured ≈ 6 s CPU at n = 1,000 against ≈ 1 s capped
/// (docs/benchmarks.md, with the capped fit's error against the exact one). The default keeps the
/// cap, which is exact for the linear and low-degree polynomial kernels and for any kernel of
/// numerical rank ≤ 100, and a Nyström-type approximation otherwise (2–3 % relative Frobenius
/// residual on the benchmark data at n = 500–2,000).
/// [`crate::KernelFairSvm::factor_residual`] and [`crate::KernelFairSvm::factor_is_exact`] report
/// which case a fit is in.
/// | `support_tol` | 1e-4 | `(0, 0.5)` | αᵢ is at a bound when within `support_tol`·C of it |
///
/// # Errors
/// `check()` (and `fit`) return [`crate::FairSvmError::InvalidParam`] naming the first setting
/// outside its range.
///
/// # Examples
/// ```
/// use fair_svm::{Kernel, KernelFairSvm};
/// let p = KernelFairSvm::params(Kernel::Rbf { gamma: 0.5 }).mu(5.0).check()?;
/// assert_eq!(p.max_rows(), 3000);
/// assert!(KernelFairSvm::params(Kernel::Rbf { gamma: 0.0 }).check().is_err());
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KernelFairSvmParams(pub(crate) KernelFairSvmValidParams);

impl KernelFairSvmParams {
    /// The defaults of the table with the given kernel.
    pub fn new(kernel: Kernel) -> Self {
        Self(KernelFairSvmValidParams {
            common: Common::default(),
            kernel,
            max_rows: 3000,
            rank_tol: 1e-12,
            max_rank: Some(100),
            support_tol: 1e-4,
        })
    }
    common_setters!();
    /// The kernel.
    pub fn kernel(mut self, kernel: Kernel) -> Self {
        self.0.kernel = kernel;
        self
    }
    /// Size guard on the number of training rows.
    pub fn max_rows(mut self, max_rows: usize) -> Self {
        self.0.max_rows = max_rows;
        self
    }
    /// Relative trace tolerance of the kernel factorisation.
    pub fn rank_tol(mut self, rank_tol: f64) -> Self {
        self.0.rank_tol = rank_tol;
        self
    }
    /// Cap on the rank of the kernel factorisation: when the cap is hit the factor is a
    /// Nyström-type approximation of K and the problem is no longer the paper's. `None` asks for
    /// the exact factor (the paper's problem, dense in n; see the table above for its cost).
    pub fn max_rank(mut self, max_rank: Option<usize>) -> Self {
        self.0.max_rank = max_rank;
        self
    }
    /// Relative tolerance deciding which αᵢ sit at a bound (for the intercept).
    pub fn support_tol(mut self, support_tol: f64) -> Self {
        self.0.support_tol = support_tol;
        self
    }

    /// Validates every setting.
    ///
    /// # Errors
    /// [`crate::FairSvmError::InvalidParam`] for the first setting outside its range.
    pub fn check(self) -> Result<KernelFairSvmValidParams> {
        self.check_ref()?;
        Ok(self.0)
    }

    /// Validates every setting without consuming the params.
    ///
    /// # Errors
    /// As [`KernelFairSvmParams::check`].
    pub fn check_ref(&self) -> Result<()> {
        let p = &self.0;
        p.common.check()?;
        p.kernel.check()?;
        if p.max_rows < 2 {
            return Err(invalid("max_rows", p.max_rows, "at least 2"));
        }
        if !(p.rank_tol.is_finite() && (0.0..1.0).contains(&p.rank_tol)) {
            return Err(invalid("rank_tol", p.rank_tol, "a value in [0, 1)"));
        }
        if p.max_rank == Some(0) {
            return Err(invalid(
                "max_rank",
                0,
                "at least 1 (or None for the exact factor)",
            ));
        }
        if !(p.support_tol.is_finite() && p.support_tol > 0.0 && p.support_tol < 0.5) {
            return Err(invalid("support_tol", p.support_tol, "a value in (0, 0.5)"));
        }
        Ok(())
    }
}

/// The shared parameter check ([`fair_core::ParamGuard`]): `check_ref(&self)` and `check(self)`
/// both validate every setting and return the checked params, as the inherent methods do.
impl fair_core::ParamGuard for SpectralFairSvmParams {
    type Checked = SpectralFairSvmValidParams;
    type Error = crate::FairSvmError;

    fn check_ref(&self) -> std::result::Result<SpectralFairSvmValidParams, crate::FairSvmError> {
        SpectralFairSvmParams::check(self.clone())
    }

    fn check(self) -> std::result::Result<SpectralFairSvmValidParams, crate::FairSvmError> {
        SpectralFairSvmParams::check(self)
    }
}

/// The shared parameter check ([`fair_core::ParamGuard`]): `check_ref(&self)` and `check(self)`
/// both validate every setting and return the checked params, as the inherent methods do.
impl fair_core::ParamGuard for KernelFairSvmParams {
    type Checked = KernelFairSvmValidParams;
    type Error = crate::FairSvmError;

    fn check_ref(&self) -> std::result::Result<KernelFairSvmValidParams, crate::FairSvmError> {
        KernelFairSvmParams::check(self.clone())
    }

    fn check(self) -> std::result::Result<KernelFairSvmValidParams, crate::FairSvmError> {
        KernelFairSvmParams::check(self)
    }
}

// `Display`/`FromStr` with the front ends' spellings (Python's keyword values).
// The constraints in the shared vocabulary (fair-core's table: aliases included).
fair_core::constraint_subset!(Fairness, "FairSVM", {
    DemographicParity => DemographicParity,
    EqualOpportunity => EqualOpportunity,
});
fair_core::string_enum!(MeanVector, "mean vector", {
    Raw => "raw",
    Unit => "unit",
});
fair_core::string_enum!(CovarianceNormalisation, "covariance normalisation", {
    Population => "population",
    Sample => "sample",
});
fair_core::string_enum!(CovariancePenalty, "covariance penalty", {
    OnWeights => "on_weights",
    OnDirection => "on_direction",
});

/// `linear`, `rbf(gamma)` and `poly(degree, gamma, coef0)` — the Python binding's kernel names —
/// with numbers in Rust's shortest round-trip form.
///
/// # Example
/// ```
/// use fair_svm::Kernel;
/// let k: Kernel = "poly(3, 0.5, 1)".parse()?;
/// assert_eq!(k, Kernel::Polynomial { degree: 3, gamma: 0.5, coef0: 1.0 });
/// assert_eq!(k.to_string(), "poly(3, 0.5, 1)");
/// assert_eq!("rbf( 0.25 )".parse::<Kernel>()?, Kernel::Rbf { gamma: 0.25 });
/// assert!("rbf".parse::<Kernel>().is_err());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
impl std::fmt::Display for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Kernel::Linear => f.write_str("linear"),
            Kernel::Rbf { gamma } => write!(f, "rbf({gamma})"),
            Kernel::Polynomial {
                degree,
                gamma,
                coef0,
            } => write!(f, "poly({degree}, {gamma}, {coef0})"),
        }
    }
}

impl std::str::FromStr for Kernel {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form; the values are checked when the params are.
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error = || {
            fair_core::ParseEnumError::new(
                "kernel",
                s,
                &["linear", "rbf(gamma)", "poly(degree, gamma, coef0)"],
            )
        };
        if s.trim() == "linear" {
            return Ok(Kernel::Linear);
        }
        let (name, args) = fair_core::split_call(s).ok_or_else(error)?;
        let num = |a: &str| a.parse::<f64>().map_err(|_| error());
        match (name, args.as_slice()) {
            ("rbf", [gamma]) => Ok(Kernel::Rbf { gamma: num(gamma)? }),
            ("poly", [degree, gamma, coef0]) => Ok(Kernel::Polynomial {
                degree: degree.parse().map_err(|_| error())?,
                gamma: num(gamma)?,
                coef0: num(coef0)?,
            }),
            _ => Err(error()),
        }
    }
}
