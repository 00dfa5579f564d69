//! Rate-constrained learning with the proxy-Lagrangian game and the m+1 shrinking LP.
//!
//! Implements Cotter, Jiang, Wang, Narayan, Gupta, You & Sridharan, "Optimization with
//! Non-Differentiable Constraints with Applications to Fairness, Recall, Churn, and Other Goals"
//! (the paper behind TensorFlow Constrained Optimization):
//!
//! ```text
//! min_θ  g₀(θ) = error rate      s.t.   gᵢ(θ) = Σₖ αᵢₖ p⁺(Dᵢₖ) + βᵢₖ p⁻(Dᵢₖ) − κᵢ ≤ 0,  i = 1..m   (Eq. 6–7)
//! ```
//!
//! * [`rates`]: a typed language for rate constraints — [`Subset`]s (groups, labels, baseline
//!   agreement, named masks), named [`Rate`]s, linear [`Expression`]s, [`Ratio`]s, [`Slack`], and
//!   every goal of Tables 1–2 in [`goals`]. Filters, subsets, atoms and rates print and parse a
//!   call form, e.g. `true_positive_rate(subset(group("race", "Black")))` (errors:
//!   [`fair_core::ParseTermError`]).
//! * [`Problem`]: examples plus constraints, compiled into per-row linear forms; exact 0-1 values
//!   and hinge proxies `g̃ᵢ ≥ gᵢ`.
//! * [`Model`]: the thin trait (scores and score gradients); [`Linear`] and [`Mlp`] ship here.
//! * [`GameOpt`]: one loop for four games ([`Algorithm`]): Algorithm 3 (proxy-Lagrangian with a
//!   swap-regret λ-player, [`SwapRegretPlayer`]), Algorithm 4 ("0-1 ext"), Algorithm 5 ("Hinge")
//!   and an unconstrained baseline, with observers ([`Observe`]) and snapshots.
//! * The oracle games ([`GameOpt::fit_oracle`], [`GameOpt::play_oracle`]): Algorithms 1–2 with a
//!   best-response θ-player. With 0-1 rates the θ-player's Lagrangian is a cost-sensitive
//!   classification problem; an [`Oracle`] answers it ([`LogisticOracle`]: full-batch weighted
//!   logistic regression by L-BFGS). No hinge proxy enters the model player's constraints, which
//!   is what lets these games reach the accuracy of fairlearn's reductions at the same gap.
//! * Solutions ([`SolutionType`]): T-stoch, m-stoch (the shrinking LP, [`shrink`]), Best (the
//!   Eq. 18 rank rule, [`rank_select`]) and Last, as [`StochasticClassifier`]s with exact
//!   expected rates.
//!
//! # Example
//! ```
//! use game_opt::{goals, Algorithm, Direction, Examples, GameOptParams, Linear, Problem, Slack,
//!                SolutionType};
//! use fair_data::Groups;
//! use nalgebra::DMatrix;
//!
//! // 400 rows, one feature; group "b" has shifted scores, so its recall lags.
//! let n = 400;
//! let group: Vec<&str> = (0..n).map(|i| if i % 2 == 0 { "a" } else { "b" }).collect();
//! let y: Vec<usize> = (0..n).map(|i| usize::from((i / 2) % 4 == 0)).collect();
//! let x = DMatrix::from_fn(n, 2, |i, j| match j {
//!     0 => y[i] as f64 * 2.0 - 1.0 + (((i * 37) % 17) as f64 / 8.0 - 1.0) - if i % 2 == 1 { 0.8 } else { 0.0 },
//!     _ => (i % 2) as f64,
//! });
//! let examples = Examples::new(&x, &y)?.with_attribute("g", Groups::from_labels(&group))?;
//! // Equal opportunity at 95% (the paper's Adult constraint): TPR(group) ≥ 0.95·TPR(all).
//! let constraints = goals::equal_opportunity("g", &["a", "b"], Direction::AtLeast,
//!                                            Slack::Multiplicative(0.95));
//! let problem = Problem::new(examples, constraints)?;
//!
//! let fit = GameOptParams::new()
//!     .algorithm(Algorithm::ProxyLagrangian)
//!     .iterations(400).batch_size(100).lr_theta(0.05).lr_lambda(1.0).seed(1)
//!     .fit(&problem, Linear::new(2))?;
//! let m_stoch = fit.solution(SolutionType::MStoch)?;
//! assert!(m_stoch.weights.len() <= problem.n_constraints() + 1); // Lemma 3
//! let clf = fit.classifier(&m_stoch)?;
//! let eval = clf.evaluate(&problem)?;               // exact expected rates
//! assert!(eval.error < 0.5);
//! # Ok::<(), game_opt::GameOptError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

mod error;
mod game;
mod model;
mod oracle;
mod params;
mod problem;
mod rate_text;
pub mod rates;
mod saved;
mod shrink;
mod stochastic;
mod swap;

pub use error::{GameOptError, Result};
/// The shared vocabulary: observers see an [`IterInfo`] per step ([`Observe`]), and a fit
/// ends with a [`Termination`] (an observer's stop is `Ok` with [`Termination::Interrupted`]).
pub use fair_core::{NoObserver, Observe, Termination};
pub use game::{FitReport, GameFit, GameOpt, IterInfo, Snapshot, Solution, select_solution};
pub use model::{Linear, Mlp, Model, Row};
pub use oracle::{LogisticOracle, Oracle, OracleRounds};
pub use params::{
    Algorithm, GameOptParams, GameOptValidParams, ObjectiveLoss, Optimizer, SolutionType,
};
pub use problem::{Evaluation, Examples, Problem};
pub use rates::{
    Atom, Constraint, Direction, Expression, Filter, GroupConstraint, Prediction, Rate, Ratio,
    Slack, Subset, goals,
};
pub use saved::{GAME_OPT_FORMAT_VERSION, SavedClassifier};
pub use shrink::{ShrinkOutcome, ShrinkResult, rank_select, shrink};
pub use stochastic::StochasticClassifier;
pub use swap::{SwapRegretPlayer, stationary_distribution};
