//! Settings of the game solver, with documented defaults, and the choices it offers.

use crate::error::{GameOptError, Result};

/// Which two-player game to play (the paper's §5.3 method families).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// No constraints: the θ-player minimises the objective surrogate only (multipliers stay 0).
    Unconstrained,
    /// Algorithm 3, "0-1 swap": θ-player on hinge proxies (external regret, SGD/Adam), λ-player on
    /// the **0-1** constraints with swap regret — multiplicative updates of a column-stochastic
    /// `(m+1)×(m+1)` matrix `M`, playing its stationary distribution `λ = Mλ`.
    ProxyLagrangian,
    /// Algorithm 4 as reconstructed in the notes, "0-1 ext": Lagrangian, θ-player on hinge proxies,
    /// λ ∈ ℝ₊ᵐ by projected gradient ascent on the **0-1** constraints (external regret).
    ZeroOneExt,
    /// Algorithm 5, "Hinge": the plain stochastic Lagrangian with hinge constraints for **both**
    /// players (Eban et al. 2017).
    Hinge,
    /// Algorithm 2, "OracleProxyLagrangian": the θ-player **best-responds** to `λ = π(M)` (the
    /// 0-1 Lagrangian `λ₁g₀ + Σλᵢ₊₁gᵢ` is a cost-sensitive classification problem, solved
    /// approximately by an [`Oracle`](crate::Oracle), e.g. the weighted logistic regression of
    /// [`LogisticOracle`](crate::LogisticOracle)); the λ-player is the swap-regret player of
    /// Algorithm 3 on the full-batch **0-1** constraints. `iterations` counts best responses;
    /// every response is a snapshot. Run it with [`GameOpt::fit_oracle`](crate::GameOpt::fit_oracle).
    OracleProxyLagrangian,
    /// Algorithm 1, "OracleLagrangian": the θ-player best-responds to `g₀ + Σλᵢgᵢ` (as above),
    /// λ ∈ ℝ₊ᵐ (‖λ‖₁ ≤ `multiplier_radius`) by projected gradient ascent on the full-batch 0-1
    /// constraints. Run it with [`GameOpt::fit_oracle`](crate::GameOpt::fit_oracle).
    OracleLagrangian,
}

impl Algorithm {
    /// The paper's label ("0-1 swap", "0-1 ext", "Hinge", "Unconstrained").
    pub fn label(&self) -> &'static str {
        match self {
            Algorithm::Unconstrained => "Unconstrained",
            Algorithm::ProxyLagrangian => "0-1 swap",
            Algorithm::ZeroOneExt => "0-1 ext",
            Algorithm::Hinge => "Hinge",
            Algorithm::OracleProxyLagrangian => "oracle swap",
            Algorithm::OracleLagrangian => "oracle Lagrangian",
        }
    }

    /// Whether the θ-player is a best-response oracle (Algorithms 1–2), run by
    /// [`GameOpt::fit_oracle`](crate::GameOpt::fit_oracle).
    pub fn uses_oracle(&self) -> bool {
        matches!(
            self,
            Algorithm::OracleProxyLagrangian | Algorithm::OracleLagrangian
        )
    }
}

/// Which solution to extract from the iterates of one run (§5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolutionType {
    /// Uniform mixture of all snapshots (the experiments' T-stochastic classifier).
    TStoch,
    /// Mixture weighted by the λ-player's objective weight `λ₁` (Theorem 2's `θ̄`; proxy-Lagrangian
    /// only — the Lagrangian families weight uniformly).
    TStochLambda1,
    /// The shrinking LP (Lemma 3) on the snapshots' training values: at most `m + 1` non-zeros.
    MStoch,
    /// The single snapshot chosen by the rank rule of Eq. 18 on training values.
    Best,
    /// The last iterate.
    Last,
}

impl SolutionType {
    /// The paper's label.
    pub fn label(&self) -> &'static str {
        match self {
            SolutionType::TStoch => "T-stoch",
            SolutionType::TStochLambda1 => "T-stoch (λ₁)",
            SolutionType::MStoch => "m-stoch",
            SolutionType::Best => "Best",
            SolutionType::Last => "Last",
        }
    }
}

/// The θ-player's optimizer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Optimizer {
    /// Plain (projected) stochastic gradient descent, as in Algorithms 3–5.
    Sgd,
    /// Adam (Kingma & Ba) with β₁ = 0.9, β₂ = 0.999, ε = 1e-8, as in the paper's experiments.
    Adam,
}

/// The differentiable surrogate of the 0-1 error objective `g₀` (the paper does not state it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectiveLoss {
    /// `max(0, 1 − y±·f/μ)` with the hinge margin μ (labels `y± ∈ {−1, +1}`): an upper bound of
    /// the 0-1 error, consistent with the hinge proxies.
    Hinge,
    /// `ln(1 + exp(−y±·f))`.
    Logistic,
}

/// Settings of the proxy-Lagrangian / Lagrangian game solver.
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `algorithm` | `ProxyLagrangian` | enum | which game |
/// | `iterations` | 2000 | ≥ 1 | T, minibatch steps (best responses for the oracle games: use ~30–100) |
/// | `batch_size` | 256 | ≥ 1 | rows per step (capped at n); constraints use the same batch |
/// | `lr_theta` | 0.01 | > 0, finite | θ step size η_θ |
/// | `lr_lambda` | 0.1 | > 0, finite | λ step size η_λ (additive for the Lagrangians, exponent for swap) |
/// | `optimizer` | `Adam` | enum | θ-player update |
/// | `objective_loss` | `Hinge` | enum | surrogate of the 0-1 error |
/// | `hinge_margin` | 1.0 | > 0 | μ of the hinge proxies and hinge objective |
/// | `l2` | 0.0 | ≥ 0 | ridge penalty `l2/2·‖θ‖²` (biases excluded) |
/// | `snapshot_every` | 20 | ≥ 1 | keep θ every k steps (and at the end) |
/// | `multiplier_radius` | `None` | > 0 | R of Λ = {λ ≥ 0, ‖λ‖₁ ≤ R} (Lagrangians); `None` = no bound |
/// | `theta_radius` | `None` | > 0 | project θ onto ‖θ‖₂ ≤ B_Θ after each step; `None` = no projection |
/// | `lp_epsilon` | 0.0 | ≥ 0 | ε of the shrinking LP's `Σ pₜ gᵢₜ ≤ ε` |
/// | `lp_tolerance` | 1e-4 | > 0 | bisection tolerance when the LP is infeasible at ε |
/// | `seed` | 0 | any | ChaCha8 seed of the minibatch order |
///
/// # Errors
/// [`GameOptParams::check`] returns [`GameOptError::InvalidParam`] naming the first bad setting.
///
/// # Examples
/// ```
/// use game_opt::{Algorithm, GameOptParams};
/// let p = GameOptParams::new().algorithm(Algorithm::ZeroOneExt).iterations(500).seed(3);
/// assert_eq!(p.check()?.iterations(), 500);
/// assert!(GameOptParams::new().lr_theta(-1.0).check().is_err());
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GameOptParams(pub(crate) GameOptValidParams);

/// Checked settings: only these can run. Read-only getters.
#[derive(Debug, Clone, PartialEq)]
pub struct GameOptValidParams {
    pub(crate) algorithm: Algorithm,
    pub(crate) iterations: usize,
    pub(crate) batch_size: usize,
    pub(crate) lr_theta: f64,
    pub(crate) lr_lambda: f64,
    pub(crate) optimizer: Optimizer,
    pub(crate) objective_loss: ObjectiveLoss,
    pub(crate) hinge_margin: f64,
    pub(crate) l2: f64,
    pub(crate) snapshot_every: usize,
    pub(crate) multiplier_radius: Option<f64>,
    pub(crate) theta_radius: Option<f64>,
    pub(crate) lp_epsilon: f64,
    pub(crate) lp_tolerance: f64,
    pub(crate) seed: u64,
}

impl Default for GameOptParams {
    fn default() -> Self {
        Self(GameOptValidParams {
            algorithm: Algorithm::ProxyLagrangian,
            iterations: 2000,
            batch_size: 256,
            lr_theta: 0.01,
            lr_lambda: 0.1,
            optimizer: Optimizer::Adam,
            objective_loss: ObjectiveLoss::Hinge,
            hinge_margin: 1.0,
            l2: 0.0,
            snapshot_every: 20,
            multiplier_radius: None,
            theta_radius: None,
            lp_epsilon: 0.0,
            lp_tolerance: 1e-4,
            seed: 0,
        })
    }
}

macro_rules! setter {
    ($(#[$doc:meta])* $name:ident: $t:ty) => {
        $(#[$doc])*
        pub fn $name(mut self, v: $t) -> Self {
            self.0.$name = v;
            self
        }
    };
}

impl GameOptParams {
    /// The defaults of the table above.
    pub fn new() -> Self {
        Self::default()
    }
    /// The oracle game as the estimators play it by default (Python's
    /// `RateConstrainedClassifier` on a linear model): Algorithm 2
    /// ([`Algorithm::OracleProxyLagrangian`]) with [`ORACLE_ITERATIONS`](Self::ORACLE_ITERATIONS)
    /// best responses, λ step [`ORACLE_LR_LAMBDA`](Self::ORACLE_LR_LAMBDA) and ridge
    /// [`ORACLE_L2`](Self::ORACLE_L2); the other settings are [`new`](Self::new)'s. Measured on
    /// Adult (sex) and COMPAS (race) against fairlearn's `ExponentiatedGradient` (issue 24). Pair
    /// it with [`LogisticOracle::approximate`](crate::LogisticOracle::approximate).
    ///
    /// ```
    /// use game_opt::{Algorithm, GameOptParams};
    /// let p = GameOptParams::oracle_game().check()?;
    /// assert_eq!((p.algorithm(), p.iterations(), p.lr_lambda(), p.l2()),
    ///            (Algorithm::OracleProxyLagrangian, 60, 1.0, 1e-4));
    /// # Ok::<(), game_opt::GameOptError>(())
    /// ```
    pub fn oracle_game() -> Self {
        Self::new()
            .algorithm(Algorithm::OracleProxyLagrangian)
            .iterations(Self::ORACLE_ITERATIONS)
            .lr_lambda(Self::ORACLE_LR_LAMBDA)
            .l2(Self::ORACLE_L2)
    }
    /// Best responses of [`oracle_game`](Self::oracle_game).
    pub const ORACLE_ITERATIONS: usize = 60;
    /// λ step of [`oracle_game`](Self::oracle_game).
    pub const ORACLE_LR_LAMBDA: f64 = 1.0;
    /// Ridge penalty of [`oracle_game`](Self::oracle_game) (and of its oracle).
    pub const ORACLE_L2: f64 = 1e-4;
    setter!(/// Which game.
        algorithm: Algorithm);
    setter!(/// T.
        iterations: usize);
    setter!(/// Minibatch size.
        batch_size: usize);
    setter!(/// θ step size.
        lr_theta: f64);
    setter!(/// λ step size.
        lr_lambda: f64);
    setter!(/// θ optimizer.
        optimizer: Optimizer);
    setter!(/// Objective surrogate.
        objective_loss: ObjectiveLoss);
    setter!(/// Hinge margin μ.
        hinge_margin: f64);
    setter!(/// Ridge penalty.
        l2: f64);
    setter!(/// Snapshot period.
        snapshot_every: usize);
    setter!(/// Radius R of the Lagrangians' multiplier set.
        multiplier_radius: Option<f64>);
    setter!(/// Radius B_Θ of the θ ball.
        theta_radius: Option<f64>);
    setter!(/// LP violation bound ε.
        lp_epsilon: f64);
    setter!(/// LP bisection tolerance.
        lp_tolerance: f64);
    setter!(/// Seed of the minibatch order.
        seed: u64);

    /// Validates every setting and returns the checked settings, consuming these (as every
    /// method crate's `check(self)`; [`fair_core::ParamGuard::check_ref`] borrows instead).
    ///
    /// # Errors
    /// [`GameOptError::InvalidParam`] for the first setting out of range.
    pub fn check(self) -> Result<GameOptValidParams> {
        self.validate()?;
        Ok(self.0)
    }

    /// The checks of [`check`](Self::check), without consuming the settings.
    fn validate(&self) -> Result<()> {
        let p = &self.0;
        let bad = |name: &'static str, value: String, expected: &'static str| {
            Err(GameOptError::InvalidParam {
                name,
                value,
                expected,
            })
        };
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if p.iterations == 0 {
            return bad("iterations", "0".into(), "at least 1");
        }
        if p.batch_size == 0 {
            return bad("batch_size", "0".into(), "at least 1");
        }
        if p.snapshot_every == 0 {
            return bad("snapshot_every", "0".into(), "at least 1");
        }
        if !positive(p.lr_theta) {
            return bad("lr_theta", p.lr_theta.to_string(), "finite and > 0");
        }
        if !positive(p.lr_lambda) {
            return bad("lr_lambda", p.lr_lambda.to_string(), "finite and > 0");
        }
        if !positive(p.hinge_margin) {
            return bad("hinge_margin", p.hinge_margin.to_string(), "finite and > 0");
        }
        if !(p.l2.is_finite() && p.l2 >= 0.0) {
            return bad("l2", p.l2.to_string(), "finite and >= 0");
        }
        if let Some(r) = p.multiplier_radius
            && !positive(r)
        {
            return bad("multiplier_radius", r.to_string(), "finite and > 0");
        }
        if let Some(r) = p.theta_radius
            && !positive(r)
        {
            return bad("theta_radius", r.to_string(), "finite and > 0");
        }
        if !(p.lp_epsilon.is_finite() && p.lp_epsilon >= 0.0) {
            return bad("lp_epsilon", p.lp_epsilon.to_string(), "finite and >= 0");
        }
        if !positive(p.lp_tolerance) {
            return bad("lp_tolerance", p.lp_tolerance.to_string(), "finite and > 0");
        }
        Ok(())
    }
}

impl GameOptValidParams {
    /// Which game.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
    /// T.
    pub fn iterations(&self) -> usize {
        self.iterations
    }
    /// Minibatch size.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }
    /// θ step size.
    pub fn lr_theta(&self) -> f64 {
        self.lr_theta
    }
    /// λ step size.
    pub fn lr_lambda(&self) -> f64 {
        self.lr_lambda
    }
    /// θ optimizer.
    pub fn optimizer(&self) -> Optimizer {
        self.optimizer
    }
    /// Objective surrogate.
    pub fn objective_loss(&self) -> ObjectiveLoss {
        self.objective_loss
    }
    /// Hinge margin.
    pub fn hinge_margin(&self) -> f64 {
        self.hinge_margin
    }
    /// Ridge penalty.
    pub fn l2(&self) -> f64 {
        self.l2
    }
    /// Snapshot period.
    pub fn snapshot_every(&self) -> usize {
        self.snapshot_every
    }
    /// Multiplier radius.
    pub fn multiplier_radius(&self) -> Option<f64> {
        self.multiplier_radius
    }
    /// θ radius.
    pub fn theta_radius(&self) -> Option<f64> {
        self.theta_radius
    }
    /// LP ε.
    pub fn lp_epsilon(&self) -> f64 {
        self.lp_epsilon
    }
    /// LP bisection tolerance.
    pub fn lp_tolerance(&self) -> f64 {
        self.lp_tolerance
    }
    /// Seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

/// The shared parameter check ([`fair_core::ParamGuard`]): `check_ref(&self)` and `check(self)`
/// both validate every setting and return the checked params, as the inherent methods do.
impl fair_core::ParamGuard for GameOptParams {
    type Checked = GameOptValidParams;
    type Error = crate::GameOptError;

    fn check_ref(&self) -> std::result::Result<GameOptValidParams, crate::GameOptError> {
        self.validate()?;
        Ok(self.0.clone())
    }

    fn check(self) -> std::result::Result<GameOptValidParams, crate::GameOptError> {
        GameOptParams::check(self)
    }
}

// `Display`/`FromStr` with the front ends' spellings (Python's keyword values).
fair_core::string_enum!(Algorithm, "algorithm", {
    Unconstrained => "unconstrained",
    ProxyLagrangian => "proxy_lagrangian",
    ZeroOneExt => "zero_one_ext",
    Hinge => "hinge",
    OracleProxyLagrangian => "oracle_proxy_lagrangian",
    OracleLagrangian => "oracle_lagrangian",
});
fair_core::string_enum!(SolutionType, "solution", {
    TStoch => "t_stoch",
    TStochLambda1 => "t_stoch_lambda1",
    MStoch => "m_stoch",
    Best => "best",
    Last => "last",
});
fair_core::string_enum!(Optimizer, "optimizer", {
    Sgd => "sgd",
    Adam => "adam",
});
fair_core::string_enum!(ObjectiveLoss, "objective loss", {
    Hinge => "hinge",
    Logistic => "logistic",
});
