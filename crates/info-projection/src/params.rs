//! Settings of the projection: choices as enums, numbers with documented defaults, all checked in
//! [`FairProjectionParams::check`].

use crate::error::{Result, invalid};

/// The f-divergence the projection minimises (paper Sec. 1.4, eq. (2)).
///
/// ```text
/// Kl:           D(h‖p) = Σ_c h_c log(h_c / p_c)     tilt h = softmax(log p − u)
/// CrossEntropy: D(h‖p) = Σ_c p_c log(p_c / h_c)     tilt h_c = p_c / (θ + u_c),  Σ_c h_c = 1
/// ```
/// `u = G(x)ᵀλ`. "FairProjection-CE" minimises the reverse KL `KL(p‖h)`, the cross-entropy
/// against the base scores; its normaliser θ is a 1-D root found by safeguarded Newton.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[doc(alias = "FairProjection-KL")]
#[doc(alias = "FairProjection-CE")]
pub enum Divergence {
    /// Kullback–Leibler `KL(h‖h_base)`: a softmax (exponential) tilt.
    Kl,
    /// Cross-entropy `KL(h_base‖h)`: a reciprocal tilt with a 1-D root for the normaliser.
    CrossEntropy,
}

/// How the dual multipliers λ are computed. Both reach the same λ (the unique minimiser of the
/// paper's eq. (8)); they differ in cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Solver {
    /// Direct solve of the K-dimensional dual (8): projected L-BFGS on `λ ≥ 0`, one pass over
    /// the data per objective/gradient evaluation. The default: far fewer passes than ADMM.
    Dual,
    /// The paper's ADMM (Algorithm 1, App. A.2) with the corrected updates (errata E1–E3 of the
    /// notes), parallel over samples, stopping on primal and dual residuals. The per-sample
    /// V-step is Newton's method (KL: rather than Algorithm 2's fixed point), warm-started and
    /// by default stopped at a tolerance relative to the residual ([`v_step`]), and the rounds are accelerated by
    /// over-relaxation ([`relaxation`]) and safeguarded Anderson acceleration
    /// ([`anderson_memory`]) from the initial penalty [`rho`]; the fixed point and the stopping
    /// rule are the plain ADMM's.
    /// `rho(2.0).relaxation(1.0).anderson_memory(0).v_step(VStep::Exact)` runs the paper's plain
    /// iteration (App. B.1.2): 9–57× more rounds on the benchmarks.
    ///
    /// [`v_step`]: FairProjectionParams::v_step
    /// [`relaxation`]: FairProjectionParams::relaxation
    /// [`anderson_memory`]: FairProjectionParams::anderson_memory
    /// [`rho`]: FairProjectionParams::rho
    Admm,
}

/// How accurately the ADMM solves its per-sample KL V-step in each round (the cross-entropy
/// V-step, a 1-D root from a cold start, is always solved to round-off).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VStep {
    /// Newton from the previous round's solution until each sample's error in `v` is below
    /// 3 % of the last round's RMS primal residual: a relative-error inexact ADMM (Eckstein &
    /// Bertsekas 1992) with the exact fixed point.
    /// The default: the same number of rounds as exact solves and λ equal to the tolerance, for
    /// 0.69–0.80× the CPU time on the benchmarks (docs/benchmarks.md).
    Inexact,
    /// Newton to round-off in every round, as the paper's iteration.
    Exact,
}

/// Method of the direct dual solver ([`Solver::Dual`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DualMethod {
    /// Newton when the Hessian is cheap (K ≤ 1500 and `(A+1)·C² ≤ 200` for soft
    /// group information), projected L-BFGS otherwise. The default.
    Auto,
    /// Newton with the K × K Hessian accumulated in the gradient pass, each step an exact
    /// nonnegative QP on the quadratic model (the Hessian is accumulated on
    /// a deterministic subsample of at least 5 000 rows per group when the full sum would
    /// dominate the pass; the gradient is always exact, so only the step is approximate).
    Newton,
    /// Two-metric projected L-BFGS with an Armijo search (memory
    /// [`lbfgs_memory`](FairProjectionParams::lbfgs_memory)).
    Lbfgs,
}

/// Solver of the ADMM λ-step, the K-dimensional nonnegative QP `min λᵀQλ + qᵀλ, λ ≥ 0` (40).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QpSolver {
    /// An exact primal active-set method (Lawson–Hanson style) with Cholesky solves on the free
    /// set, warm-started from the previous λ. The default.
    ActiveSet,
    /// clarabel's interior-point method (`verbose(false)`), for cross-checking.
    Clarabel,
}

/// A group-fairness criterion of the paper's Table 2, as linear constraints `E[G(X) h(X)] ≤ 0`
/// with relative tolerance α (App. A.7). Several may be stacked.
///
/// | Criterion | rows K | row `k` of `G(x)` (σ = ±1 for the two sides of the ratio) |
/// |---|---|---|
/// | `StatisticalParity` | 2AC | `(σ m_a(x)/P(S=a) − (α+σ)) e_{c'}`, `m_a(x) = Σ_c s_a(x,c) p_c(x)` |
/// | `EqualizedOdds` | 2AC² | `(σ s_a(x,c) p_c(x)/P(S=a│Y=c) − (α+σ) p_c(x)) e_{c'}` |
/// | `EqualizedOddsDiagonal` | 2AC | the `c' = c` rows of `EqualizedOdds`, divided by `P(Y=c)` (the authors' code) |
/// | `EqualOpportunity` / `FalsePositiveParity` | 4A | the `c = 1` / `c = 0` rows of `EqualizedOdds` (two classes) |
/// | `OverallAccuracy` | 2A | `σ s_a(x,·)⊙p(x)/P(S=a) − (α+σ) p(x)` (dense) |
///
/// The constraint then reads `|P(Ŷ=c'│S=a)/P(Ŷ=c') − 1| ≤ α` for statistical parity,
/// `|P(Ŷ=c'│Y=c,S=a)/P(Ŷ=c'│Y=c) − 1| ≤ α` for equalized odds and
/// `|P(Ŷ=Y│S=a)/P(Ŷ=Y) − 1| ≤ α` for overall accuracy, with the base scores standing in for
/// `P(Y│X)` (so a calibrated base is assumed, as in the paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// Statistical (demographic) parity per class and group: 2AC rows.
    StatisticalParity,
    /// Equalized odds with every (true class, predicted class) pair: 2AC² rows (the paper).
    EqualizedOdds,
    /// Equalized odds on the diagonal `c' = c` only: 2AC rows (the authors' code; identical in
    /// spirit to `EqualizedOdds` for two classes).
    EqualizedOddsDiagonal,
    /// Overall accuracy equality: 2A dense rows.
    OverallAccuracy,
    /// Equal opportunity (fairlearn's `TruePositiveRateParity`), two classes only: the
    /// equalized-odds rows of the true class 1, `P(Ŷ=c'│Y=1,S=a)` for both `c'`: 4A rows.
    EqualOpportunity,
    /// False-positive-rate parity (fairlearn's `FalsePositiveRateParity`), two classes only:
    /// the equalized-odds rows of the true class 0: 4A rows.
    FalsePositiveParity,
}

/// What to do with probability rows that do not sum to 1.
///
/// Either way every entry must be finite and in `[0, 1]`, and entries below the
/// [`floor`](FairProjectionParams::floor) are raised to it and their row renormalised (both
/// divergences need `p > 0`, Assumption 1 (iii)); rows with every entry at or above the floor are
/// used as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowPolicy {
    /// A row whose sum differs from 1 by more than 1e-6 is an error (the default).
    Strict,
    /// Every row is floored and divided by its sum; only an all-zero row is an error.
    Renormalize,
}

/// How hard predictions are read from the fair probabilities.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Decision {
    /// The most probable class (ties to the lowest index).
    Argmax,
    /// Two classes only: class 1 when `h_1(x) > t`, else class 0 (the authors' code uses 0.5).
    Threshold(f64),
}

/// Settings of [`FairProjection`](crate::FairProjection), built by
/// [`FairProjection::params`](crate::FairProjection::params) with these defaults:
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `constraints` | `[EqualizedOdds]` | non-empty | criteria, stacked |
/// | `alpha` | 0.05 | finite, ≥ 0 | relative tolerance α of Table 2 |
/// | `divergence` | `Kl` | enum | f-divergence |
/// | `solver` | `Dual` | enum | how λ is computed |
/// | `zeta` | `1/√N` | finite, > 0 | regulariser ζ = τ₂²/(2τ₁) of (6)/(8) (App. B.1.2) |
/// | `rho` | `sqrt(ζ / λ_max(Ḡ))` | finite, > 0 | initial ADMM penalty ρ, then adapted by residual balancing; `Ḡ = (1/N)Σ G_iG_iᵀ`, λ_max by power iteration. The paper's App. B.1.2 uses 2; on the synthetic benchmarks ρ = 0.03–0.1 needed 2–20× fewer rounds than a start at 2, which residual balancing does not recover (docs/benchmarks.md) |
/// | `relaxation` | 1.6 | (0, 2) | ADMM over-relaxation α (Boyd et al. 2011, §3.4.3): the λ- and w-updates use `α v_i − (1 − α) G_iᵀλ` in place of `v_i`; 1 is the paper's plain ADMM, same fixed point |
/// | `v_step` | `Inexact` | [`VStep`] | ADMM: accuracy of the per-sample KL V-step in each round |
/// | `anderson_memory` | 5 | 0..=50 | ADMM: Anderson acceleration (type II) of the round map with this many stored differences, safeguarded (an extrapolated point is kept only if its fixed-point residual does not grow, else the plain round is taken); 0 = off. Same fixed point and stopping rule; each stored difference costs 2·N·C floats |
/// | `tol` | 1e-9 | (0, 1) | dual: `‖λ − P₊(λ − ∇Φ)‖∞`; ADMM: RMS primal and dual residuals |
/// | `max_iter` | 10 000 | ≥ 1 | outer iterations (L-BFGS steps or ADMM rounds) |
/// | `lbfgs_memory` | 10 | 1..=100 | stored L-BFGS pairs (dual solver) |
/// | `dual_method` | `Auto` | [`DualMethod`] | projected Newton or L-BFGS (dual solver) |
/// | `qp_solver` | `ActiveSet` | enum | ADMM λ-step |
/// | `floor` | 1e-6 | (0, 0.5), and < 1/C | smallest base probability kept (entries below are raised) |
/// | `row_policy` | `Strict` | enum | rows not summing to 1 |
/// | `warm_start_fraction` | 1 (off) | (0, 1] | dual solver: first solve the dual (to 1e-3) on this seeded fraction of the rows (each group sampled at the same rate, same marginals and ζ), then start the full-data solve from that λ; 1, a subsample under 32 rows or missing a group, or a failed subsample solve starts cold at λ = 0. Off by default: at 1.4M × 5 × 5 a 1/16 warm start saves one full pass but its 4 subsample passes (each with a full-size Hessian sample) cost more (docs/benchmarks.md); at 1.4M × 2 × 2 it saved ≈ 8 % on average, within the noise |
/// | `seed` | 0 | any `u64` | seed of the warm-start subsample |
///
/// # Errors
/// [`check`](Self::check) (called by `fit`) returns
/// [`InfoProjectionError::InvalidParameter`](crate::InfoProjectionError::InvalidParameter) naming
/// the first setting outside its range.
///
/// # Examples
/// ```
/// use info_projection::{Constraint, Divergence, FairProjection, Solver};
/// let params = FairProjection::params()
///     .constraints(&[Constraint::StatisticalParity, Constraint::OverallAccuracy])
///     .alpha(0.1)
///     .divergence(Divergence::CrossEntropy)
///     .solver(Solver::Admm);
/// let valid = params.check()?;
/// assert!((valid.alpha() - 0.1).abs() < 1e-15);
/// assert!(FairProjection::params().alpha(-1.0).check().is_err());
/// # Ok::<(), info_projection::InfoProjectionError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FairProjectionParams(pub(crate) FairProjectionValidParams);

/// Checked settings: only these can fit. Read-only getters.
#[derive(Debug, Clone, PartialEq)]
pub struct FairProjectionValidParams {
    pub(crate) constraints: Vec<Constraint>,
    pub(crate) alpha: f64,
    pub(crate) divergence: Divergence,
    pub(crate) solver: Solver,
    pub(crate) zeta: Option<f64>,
    pub(crate) rho: Option<f64>,
    pub(crate) relaxation: f64,
    pub(crate) anderson_memory: usize,
    pub(crate) v_step: VStep,
    pub(crate) tol: f64,
    pub(crate) max_iter: usize,
    pub(crate) lbfgs_memory: usize,
    pub(crate) dual_method: DualMethod,
    pub(crate) qp_solver: QpSolver,
    pub(crate) floor: f64,
    pub(crate) row_policy: RowPolicy,
    pub(crate) warm_start_fraction: f64,
    pub(crate) seed: u64,
}

impl Default for FairProjectionParams {
    fn default() -> Self {
        Self(FairProjectionValidParams {
            constraints: vec![Constraint::EqualizedOdds],
            alpha: 0.05,
            divergence: Divergence::Kl,
            solver: Solver::Dual,
            zeta: None,
            rho: None,
            relaxation: 1.6,
            anderson_memory: 5,
            v_step: VStep::Inexact,
            tol: 1e-9,
            max_iter: 10_000,
            lbfgs_memory: 10,
            dual_method: DualMethod::Auto,
            qp_solver: QpSolver::ActiveSet,
            floor: 1e-6,
            row_policy: RowPolicy::Strict,
            warm_start_fraction: 1.0,
            seed: 0,
        })
    }
}

impl FairProjectionParams {
    /// One criterion (replaces the list).
    pub fn constraint(mut self, c: Constraint) -> Self {
        self.0.constraints = vec![c];
        self
    }
    /// Several criteria, stacked into one `G` (replaces the list).
    pub fn constraints(mut self, cs: &[Constraint]) -> Self {
        self.0.constraints = cs.to_vec();
        self
    }
    /// Relative tolerance α (shared by all stacked criteria).
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.0.alpha = alpha;
        self
    }
    /// The divergence.
    pub fn divergence(mut self, d: Divergence) -> Self {
        self.0.divergence = d;
        self
    }
    /// The solver.
    pub fn solver(mut self, s: Solver) -> Self {
        self.0.solver = s;
        self
    }
    /// A fixed regulariser ζ (default `1/√N`, N = fitting rows).
    pub fn zeta(mut self, zeta: f64) -> Self {
        self.0.zeta = Some(zeta);
        self
    }
    /// A fixed initial ADMM penalty ρ (default: `sqrt(ζ / λ_max(Ḡ))`, see the table).
    pub fn rho(mut self, rho: f64) -> Self {
        self.0.rho = Some(rho);
        self
    }
    /// ADMM over-relaxation factor α in (0, 2) (Boyd et al. 2011, §3.4.3); 1 is plain ADMM.
    pub fn relaxation(mut self, alpha: f64) -> Self {
        self.0.relaxation = alpha;
        self
    }
    /// ADMM Anderson acceleration memory (0..=50); 0 runs the plain (relaxed) ADMM.
    pub fn anderson_memory(mut self, m: usize) -> Self {
        self.0.anderson_memory = m;
        self
    }
    /// Accuracy of the ADMM's per-sample KL V-step (see [`VStep`]).
    pub fn v_step(mut self, v: VStep) -> Self {
        self.0.v_step = v;
        self
    }
    /// Stopping tolerance (see the table).
    pub fn tol(mut self, tol: f64) -> Self {
        self.0.tol = tol;
        self
    }
    /// Iteration limit.
    pub fn max_iter(mut self, n: usize) -> Self {
        self.0.max_iter = n;
        self
    }
    /// L-BFGS memory of the dual solver.
    pub fn lbfgs_memory(mut self, m: usize) -> Self {
        self.0.lbfgs_memory = m;
        self
    }
    /// Method of the direct dual solver.
    pub fn dual_method(mut self, m: DualMethod) -> Self {
        self.0.dual_method = m;
        self
    }
    /// Solver of the ADMM λ-step.
    pub fn qp_solver(mut self, q: QpSolver) -> Self {
        self.0.qp_solver = q;
        self
    }
    /// Probability floor.
    pub fn floor(mut self, floor: f64) -> Self {
        self.0.floor = floor;
        self
    }
    /// Fraction of the rows (in (0, 1]) on which the dual solver first solves to warm-start the
    /// full-data solve; 1 starts cold.
    pub fn warm_start_fraction(mut self, f: f64) -> Self {
        self.0.warm_start_fraction = f;
        self
    }
    /// Seed of the warm-start subsample (the result agrees to the tolerance for any seed).
    pub fn seed(mut self, seed: u64) -> Self {
        self.0.seed = seed;
        self
    }
    /// Policy for rows not summing to 1.
    pub fn row_policy(mut self, p: RowPolicy) -> Self {
        self.0.row_policy = p;
        self
    }

    /// Validates every setting and returns the checked settings, consuming these (as every
    /// method crate's `check(self)`; [`fair_core::ParamGuard::check_ref`] borrows instead).
    ///
    /// # Errors
    /// [`InfoProjectionError::InvalidParameter`](crate::InfoProjectionError::InvalidParameter)
    /// for the first setting outside the range in the table above.
    pub fn check(self) -> Result<FairProjectionValidParams> {
        self.validate()?;
        Ok(self.0)
    }

    /// The checks of [`check`](Self::check), without consuming the settings.
    fn validate(&self) -> Result<()> {
        let p = &self.0;
        if p.constraints.is_empty() {
            return Err(invalid("constraints", "[]", "at least one constraint"));
        }
        if !p.alpha.is_finite() || p.alpha < 0.0 {
            return Err(invalid("alpha", p.alpha, "a finite tolerance >= 0"));
        }
        if let Some(z) = p.zeta
            && (!z.is_finite() || z <= 0.0)
        {
            return Err(invalid("zeta", z, "a finite value > 0"));
        }
        if let Some(r) = p.rho
            && (!r.is_finite() || r <= 0.0)
        {
            return Err(invalid("rho", r, "a finite value > 0"));
        }
        if !(p.relaxation > 0.0 && p.relaxation < 2.0) {
            return Err(invalid(
                "relaxation",
                p.relaxation,
                "an over-relaxation factor in (0, 2)",
            ));
        }
        if p.anderson_memory > 50 {
            return Err(invalid(
                "anderson_memory",
                p.anderson_memory,
                "0 (off) to 50 stored differences",
            ));
        }
        if !(p.tol > 0.0 && p.tol < 1.0) {
            return Err(invalid("tol", p.tol, "a tolerance in (0, 1)"));
        }
        if p.max_iter == 0 {
            return Err(invalid("max_iter", 0, "at least 1 iteration"));
        }
        if !(1..=100).contains(&p.lbfgs_memory) {
            return Err(invalid("lbfgs_memory", p.lbfgs_memory, "1..=100 pairs"));
        }
        if !(p.floor > 0.0 && p.floor < 0.5) {
            return Err(invalid("floor", p.floor, "a value in (0, 0.5)"));
        }
        if !(p.warm_start_fraction > 0.0 && p.warm_start_fraction <= 1.0) {
            return Err(invalid(
                "warm_start_fraction",
                p.warm_start_fraction,
                "a fraction of the rows in (0, 1]",
            ));
        }
        Ok(())
    }
}

impl FairProjectionValidParams {
    /// The stacked criteria.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }
    /// Relative tolerance α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// The divergence.
    pub fn divergence(&self) -> Divergence {
        self.divergence
    }
    /// The solver.
    pub fn solver(&self) -> Solver {
        self.solver
    }
    /// The fixed ζ, or `None` for `1/√N`.
    pub fn zeta(&self) -> Option<f64> {
        self.zeta
    }
    /// The fixed initial ADMM penalty ρ, or `None` for `sqrt(ζ / λ_max(Ḡ))`.
    pub fn rho(&self) -> Option<f64> {
        self.rho
    }
    /// ADMM over-relaxation factor.
    pub fn relaxation(&self) -> f64 {
        self.relaxation
    }
    /// ADMM Anderson memory (0 = off).
    pub fn anderson_memory(&self) -> usize {
        self.anderson_memory
    }
    /// Accuracy of the ADMM's KL V-step.
    pub fn v_step(&self) -> VStep {
        self.v_step
    }
    /// Stopping tolerance.
    pub fn tol(&self) -> f64 {
        self.tol
    }
    /// Iteration limit.
    pub fn max_iter(&self) -> usize {
        self.max_iter
    }
    /// L-BFGS memory.
    pub fn lbfgs_memory(&self) -> usize {
        self.lbfgs_memory
    }
    /// Method of the direct dual solver.
    pub fn dual_method(&self) -> DualMethod {
        self.dual_method
    }
    /// ADMM λ-step solver.
    pub fn qp_solver(&self) -> QpSolver {
        self.qp_solver
    }
    /// Probability floor.
    pub fn floor(&self) -> f64 {
        self.floor
    }
    /// Row policy.
    pub fn row_policy(&self) -> RowPolicy {
        self.row_policy
    }
    /// Fraction of the rows of the warm-start solve (1 = cold start).
    pub fn warm_start_fraction(&self) -> f64 {
        self.warm_start_fraction
    }
    /// Seed of the warm-start subsample.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

/// The shared parameter check ([`fair_core::ParamGuard`]): `check_ref(&self)` and `check(self)`
/// both validate every setting and return the checked params, as the inherent methods do.
impl fair_core::ParamGuard for FairProjectionParams {
    type Checked = FairProjectionValidParams;
    type Error = crate::InfoProjectionError;

    fn check_ref(
        &self,
    ) -> std::result::Result<FairProjectionValidParams, crate::InfoProjectionError> {
        self.validate()?;
        Ok(self.0.clone())
    }

    fn check(self) -> std::result::Result<FairProjectionValidParams, crate::InfoProjectionError> {
        FairProjectionParams::check(self)
    }
}

// `Display`/`FromStr` with the front ends' spellings (Python's keyword values).
fair_core::string_enum!(Divergence, "divergence", {
    Kl => "kl",
    CrossEntropy => "cross_entropy",
});
fair_core::string_enum!(Solver, "solver", {
    Dual => "dual",
    Admm => "admm",
});
// The crate's constraints in the shared vocabulary: `Display`/`FromStr`/`NAMES` are
// fair-core's (fairlearn's names, the paper's as aliases: "statistical_parity",
// "overall_accuracy").
fair_core::constraint_subset!(Constraint, "FairProjection", {
    StatisticalParity => DemographicParity,
    EqualizedOdds => EqualizedOdds,
    EqualizedOddsDiagonal => EqualizedOddsDiagonal,
    OverallAccuracy => ErrorRateParity,
    EqualOpportunity => EqualOpportunity,
    FalsePositiveParity => FalsePositiveRateParity,
});
fair_core::string_enum!(VStep, "V-step", {
    Inexact => "inexact",
    Exact => "exact",
});
fair_core::string_enum!(DualMethod, "dual method", {
    Auto => "auto",
    Newton => "newton",
    Lbfgs => "lbfgs" | "l-bfgs",
});
fair_core::string_enum!(QpSolver, "QP solver", {
    ActiveSet => "active_set",
    Clarabel => "clarabel",
});
fair_core::string_enum!(RowPolicy, "row policy", {
    Strict => "strict",
    Renormalize => "renormalize" | "renormalise",
});

/// `Display`: `argmax` or `threshold(t)` with `t` in Rust's shortest round-trip form, so
/// `FromStr` gives the same decision back.
///
/// # Examples
/// ```
/// use info_projection::Decision;
/// assert_eq!(Decision::Threshold(0.5).to_string(), "threshold(0.5)");
/// assert_eq!("threshold( 0.25 )".parse::<Decision>()?, Decision::Threshold(0.25));
/// assert_eq!("argmax".parse::<Decision>()?, Decision::Argmax);
/// assert!("median".parse::<Decision>().is_err());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Decision::Argmax => f.write_str("argmax"),
            Decision::Threshold(t) => write!(f, "threshold({t})"),
        }
    }
}

impl std::str::FromStr for Decision {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form (spaces allowed around the threshold).
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error = || fair_core::ParseEnumError::new("decision", s, &["argmax", "threshold(t)"]);
        if s == "argmax" {
            return Ok(Decision::Argmax);
        }
        s.strip_prefix("threshold(")
            .and_then(|rest| rest.strip_suffix(')'))
            .and_then(|t| t.trim().parse::<f64>().ok())
            .map(Decision::Threshold)
            .ok_or_else(error)
    }
}
