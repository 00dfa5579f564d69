//! Settings of Pareto fair PCA: every choice the paper leaves open is a typed setting with a
//! documented default.

use crate::error::{FairPcaError, Result};

/// Which fairness objectives join the total reconstruction loss in the objective vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Objectives {
    /// Eq. (12): `[L, ψ(Δ_12), …, ψ(Δ_{k−1,k})]`, all `C(k, 2)` pairs `i < j`, with
    /// `Δ_ij = E_i − E_j`; `m = 1 + C(k, 2)` objectives. The paper's headline variant.
    Pairwise,
    /// Eq. (9): `[L, ψ(E_1), …, ψ(E_k)]`; `m = 1 + k` objectives ("single disparity error").
    Single,
    /// Eqs. (9) and (12) together: `[L, ψ(E_1), …, ψ(E_k), ψ(Δ_12), …, ψ(Δ_{k−1,k})]`,
    /// `m = 1 + k + C(k, 2)`. A step that decreases all of them lowers the total loss, every
    /// group's disparity (so the min–max objective `max_i E_i`) and every pairwise gap at once;
    /// from a start that is already fair this keeps it at least as fair on every reading.
    #[default]
    SingleAndPairwise,
}

impl Objectives {
    /// Number of objectives `m` for `k` groups.
    pub fn count(self, k: usize) -> usize {
        let pairs = k * k.saturating_sub(1) / 2;
        match self {
            Self::Pairwise => 1 + pairs,
            Self::Single => 1 + k,
            Self::SingleAndPairwise => 1 + k + pairs,
        }
    }
}

/// The penalty `ψ` applied to each disparity (the paper lists all three and does not say which
/// its experiments used).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Penalty {
    /// `ψ(z) = ½ z²`: smooth and even (so `Δ_ij` and `Δ_ji` are treated alike); the default.
    #[default]
    Square,
    /// `ψ(z) = |z|`, with the subgradient 0 at `z = 0`.
    Abs,
    /// `ψ(z) = e^{−z}`. Listed by the paper, but it *rewards* larger disparities (its minimum is at
    /// `z → +∞`) and is not even, so it is rarely what you want; kept for completeness.
    NegExp,
}

impl Penalty {
    /// `ψ(z)`.
    pub fn value(self, z: f64) -> f64 {
        match self {
            Self::Square => 0.5 * z * z,
            Self::Abs => z.abs(),
            Self::NegExp => (-z).exp(),
        }
    }

    /// `ψ'(z)` (for `|z|`, the subgradient `sign(z)` with 0 at 0).
    pub fn slope(self, z: f64) -> f64 {
        match self {
            Self::Square => z,
            Self::Abs => {
                if z > 0.0 {
                    1.0
                } else if z < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }
            Self::NegExp => -(-z).exp(),
        }
    }
}

/// The scale of the losses inside the objectives.
///
/// # Examples
/// ```
/// use fair_pca::LossScale;
/// assert_eq!(LossScale::PerSample.to_string(), "per_sample");
/// assert_eq!("raw".parse::<LossScale>()?, LossScale::Raw);
/// assert!("sum".parse::<LossScale>().is_err());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LossScale {
    /// Every group loss divided by its row count (`L_i / n_i`, `E_i / n_i`) and the total loss by
    /// `n` (Samadi et al.'s scale). Keeps a small group from being ignored next to a large one.
    #[default]
    PerSample,
    /// Raw sums, exactly as eqs. (2)–(4) are written.
    Raw,
}

/// How gradients are balanced before the min-norm QP (Remark 1 gives no formula).
///
/// # Examples
/// ```
/// use fair_pca::Normalization;
/// assert_eq!(Normalization::PenaltySlope.to_string(), "penalty_slope");
/// assert_eq!("none".parse::<Normalization>()?, Normalization::None);
/// assert_eq!(Normalization::NAMES, ["unit", "penalty_slope", "none"]);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Normalization {
    /// `Ĝ_i = G_i / ‖G_i‖_F` (zero gradients stay zero): every objective gets a unit vote. With
    /// `ψ = ½z²` the factor `ψ'(Δ) = Δ` cancels, so only the sign of each disparity matters (and
    /// `ψ = |z|` gives the same iterates).
    #[default]
    Unit,
    /// `Ĝ_i = G_i / ‖∇v_i‖_F` where `v_i` is the quantity inside `ψ` (`Δ_ij`, `E_i`, or the total
    /// loss): the direction of each disparity is balanced but `ψ'(v_i)` is kept, so a disparity
    /// that is already near zero stops pulling.
    PenaltySlope,
    /// Raw gradients (scale-dependent; mainly for tests).
    None,
}

/// Which gradients enter the descent-direction QP.
///
/// # Examples
/// ```
/// use fair_pca::Geometry;
/// assert_eq!(Geometry::Riemannian.to_string(), "riemannian");
/// assert_eq!("euclidean".parse::<Geometry>()?, Geometry::Euclidean);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Geometry {
    /// The paper's Euclidean gradients of the trace forms (eq. 14), e.g. `−2AU`, projected back
    /// onto orthonormal frames after each step; the Armijo test (16) is evaluated, as printed, at
    /// the unprojected point `U + ηD`. Its `‖D‖` measures the Euclidean direction, which is not
    /// zero at a point that is stationary on the set of orthonormal frames (at vanilla PCA,
    /// `∇L = −2UΛ ≠ 0`), so [`Termination::Converged`](crate::Termination::Converged) is rare here, and a
    /// decrease at `U + ηD` need not survive the projection.
    Euclidean,
    /// Riemannian gradients `(I − UUᵀ) G_i` (the objectives depend on `U` only through `UUᵀ`, so
    /// this is the gradient on the Grassmann manifold); `D = 0` exactly at Pareto-stationary
    /// frames, and the Armijo test is evaluated at the projected point. The regularizer `α‖U‖²`
    /// has no effect here (its Riemannian gradient is zero), and vanilla PCA is a stationary
    /// start (it is a Pareto-optimal end point), so start elsewhere (the default: the min–max
    /// solution) with this geometry.
    #[default]
    Riemannian,
}

/// Step-size rule.
///
/// # Examples
/// ```
/// use fair_pca::StepRule;
/// // `Display`: `inverse_sqrt(eta0)`, `armijo(beta, max_halvings)`, `armijo_warm(beta, max_halvings)`.
/// assert_eq!(StepRule::armijo_warm().to_string(), "armijo_warm(0.0001, 40)");
/// assert_eq!("inverse_sqrt( 1 )".parse::<StepRule>()?, StepRule::InverseSqrt { eta0: 1.0 });
/// assert_eq!("armijo(1e-4, 30)".parse::<StepRule>()?, StepRule::armijo());
/// assert!("armijo(1e-4, 2.5)".parse::<StepRule>().is_err()); // max_halvings is a count
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StepRule {
    /// `η_t = eta0 / √t`, `t = 1, 2, …` (the paper's experiments use `eta0 = 1`).
    InverseSqrt {
        /// `η_1`; finite and `> 0`.
        eta0: f64,
    },
    /// Backtracking (16): the smallest `p ≥ 1` with `η = 2^{−p}` such that every objective
    /// decreases by at least `β η tr(Dᵀ G_i)` (raw gradients, so the test is the true Armijo
    /// condition); if no `p ≤ max_halvings` works the run ends with
    /// [`Termination::Stalled`](crate::Termination::Stalled). With [`Normalization::Unit`] that is the usual
    /// end of a run: once a disparity is near zero its sign-only gradient overshoots for every
    /// step, so the search stalls at a (nearly) fair frame; [`Normalization::PenaltySlope`] keeps
    /// `ψ'` and lets the run converge instead (but, with three or more groups, it stops as soon
    /// as any one pair is balanced).
    Armijo {
        /// Sufficient-decrease constant `β ∈ (0, 1)` (the paper gives none; 1e-4 is the usual
        /// choice of Nocedal & Wright).
        beta: f64,
        /// Largest `p` tried, in `1..=60`.
        max_halvings: u32,
    },
    /// Backtracking (16) with a warm start: the first trial step is twice the last accepted one
    /// (`1/2` at `t = 1`, capped at [`MAX_WARM_STEP`]), then halved up to `max_halvings` times.
    /// Printed Armijo never tries more than `1/2`; with normalized gradients that caps the move
    /// at `‖D‖/2`, so near a stationary point (small `‖D‖`) it crawls. The warm start keeps the
    /// same sufficient-decrease test (so every objective still decreases at every step) but lets
    /// the step grow while the test passes.
    ArmijoWarm {
        /// Sufficient-decrease constant `β ∈ (0, 1)`.
        beta: f64,
        /// Halvings tried per step, in `1..=60`.
        max_halvings: u32,
    },
}

/// Largest first trial step of [`StepRule::ArmijoWarm`].
pub const MAX_WARM_STEP: f64 = 1024.0;

impl Default for StepRule {
    fn default() -> Self {
        Self::armijo_warm()
    }
}

impl StepRule {
    /// Armijo backtracking with `β = 1e-4` and at most 30 halvings.
    pub fn armijo() -> Self {
        Self::Armijo {
            beta: 1e-4,
            max_halvings: 30,
        }
    }

    /// Warm-started Armijo backtracking with `β = 1e-4` and at most 40 halvings per step.
    pub fn armijo_warm() -> Self {
        Self::ArmijoWarm {
            beta: 1e-4,
            max_halvings: 40,
        }
    }
}

/// Centring of the data before any loss is computed.
///
/// # Examples
/// ```
/// use fair_pca::Centering;
/// assert_eq!(Centering::Global.to_string(), "global");
/// assert_eq!("none".parse::<Centering>()?, Centering::None);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Centering {
    /// Subtract the column means of the fitting data (learned at fit time and reused by
    /// [`Projection::transform`](crate::Projection::transform)). Every group's rows are centred by
    /// the *same* mean, so `A = Σ_i A_i` and `E_i ≥ 0` hold exactly.
    #[default]
    Global,
    /// Use the rows as given (uncentred PCA).
    None,
}

/// How the result is chosen among several starts (Remark 2: each start may end at a different
/// Pareto point).
///
/// # Examples
/// ```
/// use fair_pca::StartSelection;
/// assert_eq!(StartSelection::LowestLoss.to_string(), "lowest_loss");
/// assert_eq!("fairest".parse::<StartSelection>()?, StartSelection::Fairest);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StartSelection {
    /// The smallest `max_{i<j} |E_i − E_j|` (on the objective's loss scale); ties go to the smaller
    /// total loss.
    #[default]
    Fairest,
    /// The smallest total reconstruction loss.
    LowestLoss,
}

/// Unchecked settings of [`FairPca`](crate::FairPca); [`FairPcaParams::check`] validates them.
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `rank` (r) | required | `1 ≤ r < d` (checked at fit) | target dimension |
/// | `objectives` | [`Objectives::SingleAndPairwise`] | enum | eqs. (9) + (12), eq. (12) or eq. (9) |
/// | `penalty` | [`Penalty::Square`] | enum | `ψ` |
/// | `scale` | [`LossScale::PerSample`] | enum | raw sums or per-sample averages |
/// | `normalization` | [`Normalization::Unit`] | enum | Remark 1 |
/// | `geometry` | [`Geometry::Riemannian`] | enum | Riemannian or Euclidean (paper) gradients |
/// | `step` | [`StepRule::ArmijoWarm`] `{ beta: 1e-4, max_halvings: 40 }` | `eta0 > 0`; Armijo `β ∈ (0, 1)`, `1 ≤ max_halvings ≤ 60` | step size |
/// | `alpha` | `0.0` | finite, `≥ 0` | regularizer `α‖U‖²` of eq. (19) |
/// | `tol` | `1e-5` | finite, `≥ 0` | stop when `‖D‖_F ≤ tol` |
/// | `max_iter` | `2000` | `≥ 1` | iterations per start (`T`) |
/// | `vanilla_start` | `false` | bool | start from vanilla PCA |
/// | `min_max_start` | `true` | bool | start from the MW min–max solution |
/// | `random_starts` | `0` | `0..=10_000` | extra starts from random orthonormal frames |
/// | `seed` | `0` | any | seed of the random frames (ChaCha8) |
/// | `selection` | [`StartSelection::Fairest`] | enum | which start's result is kept |
/// | `centering` | [`Centering::Global`] | enum | centring of the data |
///
/// At least one start is required (`vanilla_start`, `min_max_start` or `random_starts ≥ 1`).
/// [`FairPca::paper`](crate::FairPca::paper) gives the printed reading of Algorithm 1.
///
/// # Errors
/// [`check`](Self::check) (and `fit`) return [`FairPcaError::InvalidParameter`] naming the first
/// setting out of range.
///
/// # Examples
/// ```
/// use fair_pca::{FairPca, Objectives, StepRule};
/// let params = FairPca::params(3)
///     .objectives(Objectives::Single)
///     .step(StepRule::armijo())
///     .random_starts(2)
///     .seed(7)
///     .check()?;
/// assert_eq!(params.rank(), 3);
/// assert_eq!(params.random_starts(), 2);
/// assert!(FairPca::params(3).tol(-1.0).check().is_err());
/// # Ok::<(), fair_pca::FairPcaError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FairPcaParams(pub(crate) FairPcaValidParams);

/// Validated settings (see [`FairPcaParams`] for the table of defaults and ranges).
#[derive(Debug, Clone, PartialEq)]
pub struct FairPcaValidParams {
    pub(crate) rank: usize,
    pub(crate) objectives: Objectives,
    pub(crate) penalty: Penalty,
    pub(crate) scale: LossScale,
    pub(crate) normalization: Normalization,
    pub(crate) geometry: Geometry,
    pub(crate) step: StepRule,
    pub(crate) alpha: f64,
    pub(crate) tol: f64,
    pub(crate) max_iter: usize,
    pub(crate) vanilla_start: bool,
    pub(crate) min_max_start: bool,
    pub(crate) random_starts: usize,
    pub(crate) seed: u64,
    pub(crate) selection: StartSelection,
    pub(crate) centering: Centering,
}

/// Default `tol`.
///
/// The directions are built from unit-norm gradients, so `‖D‖ ≤ 1e-5` says a convex combination of
/// unit gradients is within `1e-5` of zero. With `1e-6`, fits at several larger `r` of the
/// reproduction (12–22 on Default credit, 30 on Adult gender) ended with `Stalled` at
/// `‖D‖ ≈ 1–3e-6`: the floating-point floor of the Armijo test.
pub const DEFAULT_TOL: f64 = 1e-5;
/// Default `max_iter`.
pub const DEFAULT_MAX_ITER: usize = 2000;
/// Largest number of objectives `m` a fit accepts (see [`Objectives::count`]): the default
/// single-and-pairwise objectives allow up to 22 groups, pairwise ones 23, single ones 255.
pub const MAX_OBJECTIVES: usize = 256;
/// Largest accepted `random_starts`.
pub const MAX_RANDOM_STARTS: usize = 10_000;

impl FairPcaParams {
    /// Default settings for target dimension `rank`.
    pub fn new(rank: usize) -> Self {
        Self(FairPcaValidParams {
            rank,
            objectives: Objectives::default(),
            penalty: Penalty::default(),
            scale: LossScale::default(),
            normalization: Normalization::default(),
            geometry: Geometry::default(),
            step: StepRule::default(),
            alpha: 0.0,
            tol: DEFAULT_TOL,
            max_iter: DEFAULT_MAX_ITER,
            vanilla_start: false,
            min_max_start: true,
            random_starts: 0,
            seed: 0,
            selection: StartSelection::default(),
            centering: Centering::default(),
        })
    }

    /// Target dimension `r`.
    pub fn rank(mut self, rank: usize) -> Self {
        self.0.rank = rank;
        self
    }
    /// Pairwise (eq. 12) or single (eq. 9) fairness objectives.
    pub fn objectives(mut self, objectives: Objectives) -> Self {
        self.0.objectives = objectives;
        self
    }
    /// The penalty `ψ`.
    pub fn penalty(mut self, penalty: Penalty) -> Self {
        self.0.penalty = penalty;
        self
    }
    /// Raw or per-sample losses.
    pub fn scale(mut self, scale: LossScale) -> Self {
        self.0.scale = scale;
        self
    }
    /// Gradient normalization (Remark 1).
    pub fn normalization(mut self, normalization: Normalization) -> Self {
        self.0.normalization = normalization;
        self
    }
    /// Euclidean (paper) or Riemannian gradients.
    pub fn geometry(mut self, geometry: Geometry) -> Self {
        self.0.geometry = geometry;
        self
    }
    /// Step-size rule.
    pub fn step(mut self, step: StepRule) -> Self {
        self.0.step = step;
        self
    }
    /// Regularization `α` of eq. (19).
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.0.alpha = alpha;
        self
    }
    /// Stopping tolerance on `‖D‖_F`.
    pub fn tol(mut self, tol: f64) -> Self {
        self.0.tol = tol;
        self
    }
    /// Iterations per start.
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.0.max_iter = max_iter;
        self
    }
    /// Whether vanilla PCA is one of the starts.
    pub fn vanilla_start(mut self, yes: bool) -> Self {
        self.0.vanilla_start = yes;
        self
    }
    /// Whether the multiplicative-weights min–max solution ([`MwFairPca`](crate::MwFairPca) with
    /// its default settings: η = 1, T = 10, top-`r` eigenvectors of `P̄`) is one of the starts.
    pub fn min_max_start(mut self, yes: bool) -> Self {
        self.0.min_max_start = yes;
        self
    }
    /// Number of random orthonormal starts.
    pub fn random_starts(mut self, n: usize) -> Self {
        self.0.random_starts = n;
        self
    }
    /// Seed of the random starts.
    pub fn seed(mut self, seed: u64) -> Self {
        self.0.seed = seed;
        self
    }
    /// How the kept start is chosen.
    pub fn selection(mut self, selection: StartSelection) -> Self {
        self.0.selection = selection;
        self
    }
    /// Centring of the data.
    pub fn centering(mut self, centering: Centering) -> Self {
        self.0.centering = centering;
        self
    }

    /// Validates every setting that does not depend on the data.
    ///
    /// # Errors
    /// [`FairPcaError::InvalidParameter`] for the first setting out of range.
    pub fn check(self) -> Result<FairPcaValidParams> {
        self.check_ref()?;
        Ok(self.0)
    }

    /// As [`check`](Self::check), without consuming the settings.
    ///
    /// # Errors
    /// As [`check`](Self::check).
    pub fn check_ref(&self) -> Result<()> {
        let p = &self.0;
        let bad = |name: &'static str, value: String, expected: &'static str| {
            Err(FairPcaError::InvalidParameter {
                name,
                value,
                expected,
            })
        };
        if p.rank == 0 {
            return bad(
                "rank",
                "0".into(),
                "at least 1 (and below the number of features)",
            );
        }
        match p.step {
            StepRule::InverseSqrt { eta0 } if !(eta0.is_finite() && eta0 > 0.0) => {
                return bad("step.eta0", eta0.to_string(), "a finite value > 0");
            }
            StepRule::Armijo { beta, .. } | StepRule::ArmijoWarm { beta, .. }
                if !(beta > 0.0 && beta < 1.0) =>
            {
                return bad("step.beta", beta.to_string(), "a value in (0, 1)");
            }
            StepRule::Armijo { max_halvings, .. } | StepRule::ArmijoWarm { max_halvings, .. }
                if !(1..=60).contains(&max_halvings) =>
            {
                return bad(
                    "step.max_halvings",
                    max_halvings.to_string(),
                    "an integer in 1..=60",
                );
            }
            _ => {}
        }
        if !(p.alpha.is_finite() && p.alpha >= 0.0) {
            return bad("alpha", p.alpha.to_string(), "a finite value >= 0");
        }
        if !(p.tol.is_finite() && p.tol >= 0.0) {
            return bad("tol", p.tol.to_string(), "a finite value >= 0");
        }
        if p.max_iter == 0 {
            return bad("max_iter", "0".into(), "at least 1");
        }
        if p.random_starts > MAX_RANDOM_STARTS {
            return bad(
                "random_starts",
                p.random_starts.to_string(),
                "at most 10000",
            );
        }
        if !p.vanilla_start && !p.min_max_start && p.random_starts == 0 {
            return bad(
                "random_starts",
                "0 (with vanilla_start = false and min_max_start = false)".into(),
                "at least one start: enable vanilla_start or min_max_start, or ask for random starts",
            );
        }
        Ok(())
    }
}

impl FairPcaValidParams {
    /// Target dimension `r`.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// Pairwise or single objectives.
    pub fn objectives(&self) -> Objectives {
        self.objectives
    }
    /// The penalty `ψ`.
    pub fn penalty(&self) -> Penalty {
        self.penalty
    }
    /// Loss scale.
    pub fn scale(&self) -> LossScale {
        self.scale
    }
    /// Gradient normalization.
    pub fn normalization(&self) -> Normalization {
        self.normalization
    }
    /// Gradient geometry.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }
    /// Step-size rule.
    pub fn step(&self) -> StepRule {
        self.step
    }
    /// Regularization `α`.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// Stopping tolerance on `‖D‖_F`.
    pub fn tol(&self) -> f64 {
        self.tol
    }
    /// Iterations per start.
    pub fn max_iter(&self) -> usize {
        self.max_iter
    }
    /// Whether vanilla PCA is a start.
    pub fn vanilla_start(&self) -> bool {
        self.vanilla_start
    }
    /// Whether the MW min–max solution is a start.
    pub fn min_max_start(&self) -> bool {
        self.min_max_start
    }
    /// Number of random starts.
    pub fn random_starts(&self) -> usize {
        self.random_starts
    }
    /// Seed of the random starts.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Start selection rule.
    pub fn selection(&self) -> StartSelection {
        self.selection
    }
    /// Centring.
    pub fn centering(&self) -> Centering {
        self.centering
    }
}

/// The shared parameter check ([`fair_core::ParamGuard`]): `check_ref(&self)` and `check(self)`
/// both validate every setting and return the checked params, as the inherent methods do.
impl fair_core::ParamGuard for FairPcaParams {
    type Checked = FairPcaValidParams;
    type Error = crate::FairPcaError;

    fn check_ref(&self) -> std::result::Result<FairPcaValidParams, crate::FairPcaError> {
        FairPcaParams::check(self.clone())
    }

    fn check(self) -> std::result::Result<FairPcaValidParams, crate::FairPcaError> {
        FairPcaParams::check(self)
    }
}

// `Display`/`FromStr` with the front ends' spellings (Python's keyword values).
fair_core::string_enum!(Objectives, "objectives", {
    SingleAndPairwise => "per_group_and_pairwise",
    Pairwise => "pairwise",
    Single => "per_group",
});
fair_core::string_enum!(Penalty, "penalty", {
    Square => "square",
    Abs => "abs",
    NegExp => "neg_exp",
});
fair_core::string_enum!(LossScale, "loss scale", {
    PerSample => "per_sample",
    Raw => "raw",
});
fair_core::string_enum!(Normalization, "normalization", {
    Unit => "unit",
    PenaltySlope => "penalty_slope",
    None => "none",
});
fair_core::string_enum!(Geometry, "geometry", {
    Euclidean => "euclidean",
    Riemannian => "riemannian",
});
fair_core::string_enum!(Centering, "centering", {
    Global => "global",
    None => "none",
});
fair_core::string_enum!(StartSelection, "start selection", {
    Fairest => "fairest",
    LowestLoss => "lowest_loss",
});

/// The spellings [`StepRule`]'s `FromStr` accepts (in its error message).
const STEP_RULE_FORMS: &[&str] = &[
    "inverse_sqrt(eta0)",
    "armijo(beta, max_halvings)",
    "armijo_warm(beta, max_halvings)",
];

/// `Display`: `inverse_sqrt(eta0)`, `armijo(beta, max_halvings)` or
/// `armijo_warm(beta, max_halvings)`, each `f64` in Rust's shortest round-trip form, so `FromStr`
/// gives the same rule back (it parses; [`FairPcaParams::check`] validates the ranges).
impl std::fmt::Display for StepRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            StepRule::InverseSqrt { eta0 } => write!(f, "inverse_sqrt({eta0})"),
            StepRule::Armijo { beta, max_halvings } => write!(f, "armijo({beta}, {max_halvings})"),
            StepRule::ArmijoWarm { beta, max_halvings } => {
                write!(f, "armijo_warm({beta}, {max_halvings})")
            }
        }
    }
}

impl std::str::FromStr for StepRule {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form (spaces allowed around the name and the numbers;
    /// `max_halvings` is a non-negative integer).
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error = || fair_core::ParseEnumError::new("step rule", s, STEP_RULE_FORMS);
        let (name, args) = fair_core::split_call(s).ok_or_else(error)?;
        let real = |a: &str| a.parse::<f64>().map_err(|_| error());
        let count = |a: &str| a.parse::<u32>().map_err(|_| error());
        match (name, args.as_slice()) {
            ("inverse_sqrt", &[eta0]) => Ok(StepRule::InverseSqrt { eta0: real(eta0)? }),
            ("armijo", &[beta, halvings]) => Ok(StepRule::Armijo {
                beta: real(beta)?,
                max_halvings: count(halvings)?,
            }),
            ("armijo_warm", &[beta, halvings]) => Ok(StepRule::ArmijoWarm {
                beta: real(beta)?,
                max_halvings: count(halvings)?,
            }),
            _ => Err(error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_pinned() {
        let p = FairPcaParams::new(4).check().unwrap();
        let FairPcaValidParams {
            rank,
            objectives,
            penalty,
            scale,
            normalization,
            geometry,
            step,
            alpha,
            tol,
            max_iter,
            vanilla_start,
            min_max_start,
            random_starts,
            seed,
            selection,
            centering,
        } = p;
        assert_eq!(rank, 4);
        assert_eq!(objectives, Objectives::SingleAndPairwise);
        assert_eq!(penalty, Penalty::Square);
        assert_eq!(scale, LossScale::PerSample);
        assert_eq!(normalization, Normalization::Unit);
        assert_eq!(geometry, Geometry::Riemannian);
        assert_eq!(
            step,
            StepRule::ArmijoWarm {
                beta: 1e-4,
                max_halvings: 40
            }
        );
        assert_eq!(alpha.to_bits(), 0.0_f64.to_bits());
        assert_eq!(tol.to_bits(), 1e-5_f64.to_bits());
        assert_eq!(max_iter, 2000);
        assert!(!vanilla_start);
        assert!(min_max_start);
        assert_eq!(random_starts, 0);
        assert_eq!(seed, 0);
        assert_eq!(selection, StartSelection::Fairest);
        assert_eq!(centering, Centering::Global);
    }

    #[test]
    fn penalties_by_hand() {
        assert!((Penalty::Square.value(3.0) - 4.5).abs() < 1e-15);
        assert!((Penalty::Square.slope(-2.0) + 2.0).abs() < 1e-15);
        assert!((Penalty::Abs.value(-2.5) - 2.5).abs() < 1e-15);
        assert!((Penalty::Abs.slope(-2.5) + 1.0).abs() < 1e-15);
        assert!(Penalty::Abs.slope(0.0).abs() < 1e-300);
        assert!((Penalty::NegExp.value(0.0) - 1.0).abs() < 1e-15);
        assert!((Penalty::NegExp.slope(0.0) + 1.0).abs() < 1e-15);
    }

    #[test]
    fn rejects_each_bad_setting() {
        let base = || FairPcaParams::new(2);
        let cases = [
            base().rank(0),
            base().step(StepRule::InverseSqrt { eta0: 0.0 }),
            base().step(StepRule::InverseSqrt { eta0: f64::NAN }),
            base().step(StepRule::Armijo {
                beta: 1.0,
                max_halvings: 10,
            }),
            base().step(StepRule::Armijo {
                beta: 0.5,
                max_halvings: 0,
            }),
            base().alpha(-1.0),
            base().alpha(f64::INFINITY),
            base().tol(f64::NAN),
            base().max_iter(0),
            base().random_starts(MAX_RANDOM_STARTS + 1),
            base().vanilla_start(false).min_max_start(false),
            base().step(StepRule::ArmijoWarm {
                beta: 0.0,
                max_halvings: 10,
            }),
            base().step(StepRule::ArmijoWarm {
                beta: 0.5,
                max_halvings: 61,
            }),
        ];
        for c in cases {
            assert!(
                matches!(c.check_ref(), Err(FairPcaError::InvalidParameter { .. })),
                "{c:?} was accepted"
            );
        }
        assert!(
            base()
                .vanilla_start(false)
                .min_max_start(false)
                .random_starts(1)
                .check()
                .is_ok()
        );
    }
}
