//! The outer loop, written once for all four games, with observers, snapshots and solutions.

use crate::error::{GameOptError, Result};
use crate::model::Model;
use crate::params::{
    Algorithm, GameOptParams, GameOptValidParams, ObjectiveLoss, Optimizer, SolutionType,
};
use crate::problem::{Evaluation, Problem, check_start, hinge_term};
use crate::shrink::{ShrinkOutcome, rank_select, shrink};
use crate::stochastic::StochasticClassifier;
use crate::swap::SwapRegretPlayer;
use fair_core::{NoObserver, Observe, Termination};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::time::{Duration, Instant};

/// What one run did.
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    /// Which game.
    pub algorithm: Algorithm,
    /// How it ended: [`Termination::MaxIterations`] when every configured step ran (the
    /// normal end), [`Termination::Interrupted`] when the observer stopped it.
    pub status: Termination,
    /// Steps taken.
    pub iterations: usize,
    /// Snapshots kept.
    pub snapshots: usize,
    /// Exact training 0-1 error of the last iterate.
    pub train_error: f64,
    /// Exact training max violation of the last iterate (0 without constraints).
    pub train_max_violation: f64,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} — {} after {} iterations ({} snapshots) in {:.3} s; last iterate: train error {:.4}, max violation {:.4}",
            self.algorithm.label(),
            self.status,
            self.iterations,
            self.snapshots,
            self.elapsed.as_secs_f64(),
            self.train_error,
            self.train_max_violation
        )
    }
}

/// What the observer ([`fair_core::Observe`]) sees after every step.
#[derive(Debug, Clone, PartialEq)]
pub struct IterInfo<'a> {
    /// Step index (0-based).
    pub iteration: usize,
    /// Weight of the objective in the θ-player's loss (λ₁ for the proxy-Lagrangian, 1 otherwise).
    pub objective_weight: f64,
    /// Weights of the constraints in the θ-player's loss (`λ₂..λ_{m+1}` or the multipliers).
    pub multipliers: &'a [f64],
    /// Minibatch surrogate objective.
    pub batch_loss: f64,
    /// Minibatch estimate of the largest constraint value the λ-player saw.
    pub batch_max_violation: f64,
}

/// One archived iterate.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot<M> {
    /// Steps taken when archived.
    pub iteration: usize,
    /// The model at that point.
    pub model: M,
    /// Exact training error and constraint values.
    pub train: Evaluation,
    /// Mean λ₁ (objective weight) over the steps since the previous snapshot (1 for the
    /// Lagrangian families): Theorem 2's mixture weight.
    pub lambda1: f64,
    /// Constraint multipliers at that point.
    pub multipliers: Vec<f64>,
}

/// A solution extracted from a run: sparse mixture weights over snapshot indices.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// Which solution type.
    pub kind: SolutionType,
    /// `(snapshot index, weight)`, weights positive and summing to 1.
    pub weights: Vec<(usize, f64)>,
    /// For m-stoch: how the LP was solved.
    pub shrink: Option<ShrinkOutcome>,
}

impl Solution {
    /// The solution's exact expected evaluation, given every snapshot's evaluation on some data
    /// (from [`GameFit::evaluate_snapshots`]).
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`] when an index is out of range.
    pub fn evaluate(&self, per_snapshot: &[Evaluation]) -> Result<Evaluation> {
        let mut parts = Vec::with_capacity(self.weights.len());
        for &(i, w) in &self.weights {
            let e = per_snapshot.get(i).ok_or(GameOptError::LengthMismatch {
                what: "snapshot evaluations",
                expected: i + 1,
                got: per_snapshot.len(),
            })?;
            parts.push((w, e));
        }
        Evaluation::mix(&parts)
    }
}

/// A finished run: the archive of snapshots and the report.
#[derive(Debug, Clone)]
pub struct GameFit<M> {
    pub(crate) snapshots: Vec<Snapshot<M>>,
    pub(crate) report: FitReport,
    pub(crate) params: GameOptValidParams,
}

impl<M: Model> GameFit<M> {
    /// The archived iterates, in order.
    pub fn snapshots(&self) -> &[Snapshot<M>] {
        &self.snapshots
    }
    /// The run's report.
    pub fn report(&self) -> &FitReport {
        &self.report
    }
    /// The settings used.
    pub fn params(&self) -> &GameOptValidParams {
        &self.params
    }

    /// Extracts a solution of the given type from the snapshots (training values).
    ///
    /// # Errors
    /// [`GameOptError::NoCandidates`] without snapshots; LP errors for m-stoch.
    pub fn solution(&self, kind: SolutionType) -> Result<Solution> {
        let train: Vec<Evaluation> = self.snapshots.iter().map(|s| s.train.clone()).collect();
        let lambda1: Vec<f64> = self.snapshots.iter().map(|s| s.lambda1).collect();
        select_solution(kind, &train, &lambda1, &self.params)
    }

    /// The stochastic classifier of a solution.
    ///
    /// # Errors
    /// [`GameOptError::LengthMismatch`] for an index out of range; invalid weights.
    pub fn classifier(&self, solution: &Solution) -> Result<StochasticClassifier<M>> {
        let mut parts = Vec::with_capacity(solution.weights.len());
        for &(i, w) in &solution.weights {
            let s = self.snapshots.get(i).ok_or(GameOptError::LengthMismatch {
                what: "snapshot index",
                expected: self.snapshots.len(),
                got: i + 1,
            })?;
            parts.push((w, s.model.clone()));
        }
        StochasticClassifier::new(parts)
    }

    /// Every snapshot's exact evaluation on a problem (e.g. the validation or test split).
    ///
    /// # Errors
    /// [`GameOptError::FeatureMismatch`].
    pub fn evaluate_snapshots(&self, problem: &Problem) -> Result<Vec<Evaluation>> {
        self.snapshots
            .iter()
            .map(|s| problem.evaluate(&s.model))
            .collect()
    }
}

/// A solution of the given type from candidates' exact training values (`train`) and the
/// λ-player's objective weights when each was played (`lambda1`; Theorem 2's mixture weights).
/// [`GameFit::solution`] calls it on its snapshots; oracle games whose responses are not
/// [`Model`]s (e.g. estimators of another library) call it directly.
///
/// # Errors
/// [`GameOptError::NoCandidates`] without candidates; [`GameOptError::LengthMismatch`] when
/// `lambda1` and `train` differ in length; LP errors for m-stoch.
///
/// # Examples
/// ```
/// use game_opt::{Evaluation, GameOptParams, SolutionType, select_solution};
/// let train = [
///     Evaluation { error: 0.10, constraints: vec![0.05] },
///     Evaluation { error: 0.30, constraints: vec![-0.05] },
/// ];
/// let params = GameOptParams::new().check()?;
/// let s = select_solution(SolutionType::MStoch, &train, &[1.0, 1.0], &params)?;
/// // The LP mixes both halves: expected constraint 0, error 0.2.
/// assert_eq!(s.weights.len(), 2);
/// assert!((s.weights[0].1 - 0.5).abs() < 1e-9);
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
pub fn select_solution(
    kind: SolutionType,
    train: &[Evaluation],
    lambda1: &[f64],
    params: &GameOptValidParams,
) -> Result<Solution> {
    if lambda1.len() != train.len() {
        return Err(GameOptError::LengthMismatch {
            what: "objective weights (λ₁) per candidate",
            expected: train.len(),
            got: lambda1.len(),
        });
    }
    let t = train.len();
    if t == 0 {
        return Err(GameOptError::NoCandidates { what: "a solution" });
    }
    let single = |i: usize| Solution {
        kind,
        weights: vec![(i, 1.0)],
        shrink: None,
    };
    Ok(match kind {
        SolutionType::Last => single(t - 1),
        SolutionType::TStoch => Solution {
            kind,
            weights: (0..t).map(|i| (i, 1.0 / t as f64)).collect(),
            shrink: None,
        },
        SolutionType::TStochLambda1 => {
            let total: f64 = lambda1.iter().sum();
            let weights = if total > 0.0 && total.is_finite() {
                lambda1
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| **l > 0.0)
                    .map(|(i, l)| (i, l / total))
                    .collect()
            } else {
                (0..t).map(|i| (i, 1.0 / t as f64)).collect()
            };
            Solution {
                kind,
                weights,
                shrink: None,
            }
        }
        SolutionType::Best => {
            let obj: Vec<f64> = train.iter().map(|e| e.error).collect();
            let vio: Vec<f64> = train.iter().map(|e| e.max_violation_or_zero()).collect();
            single(rank_select(&obj, &vio).unwrap_or(t - 1))
        }
        SolutionType::MStoch => {
            let obj: Vec<f64> = train.iter().map(|e| e.error).collect();
            let cons: Vec<Vec<f64>> = train.iter().map(|e| e.constraints.clone()).collect();
            let r = shrink(&obj, &cons, params.lp_epsilon, params.lp_tolerance)?;
            Solution {
                kind,
                weights: r
                    .weights
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w > 0.0)
                    .map(|(i, w)| (i, *w))
                    .collect(),
                shrink: Some(r.outcome),
            }
        }
    })
}

/// The solver: settings plus the shared loop. Algorithm memory (Adam moments, multipliers, the
/// swap player's matrix) lives in the run, so one solver can fit many problems.
///
/// # Examples
/// ```
/// use game_opt::{Algorithm, Examples, GameOpt, GameOptParams, Linear, Problem, Rate,
///                SolutionType, Subset};
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_fn(200, 1, |i, _| i as f64 / 100.0 - 1.0);
/// let y: Vec<usize> = (0..200).map(|i| usize::from(i >= 150)).collect();
/// let cover = Rate::PositivePrediction(Subset::all()).expr().ge(0.4);
/// let problem = Problem::new(Examples::new(&x, &y)?, vec![cover])?;
/// let solver = GameOpt::new(GameOptParams::new().iterations(300).batch_size(50).lr_theta(0.05))?;
/// let fit = solver.fit(&problem, Linear::new(1))?;
/// let m = fit.solution(SolutionType::MStoch)?;
/// assert!(m.weights.len() <= 2); // at most m + 1 iterates
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GameOpt {
    pub(crate) params: GameOptValidParams,
}

impl GameOptParams {
    /// Checks the settings and fits (see [`GameOpt::fit`]).
    ///
    /// # Errors
    /// As [`GameOptParams::check`] and [`GameOpt::fit`].
    pub fn fit<M: Model>(&self, problem: &Problem, model: M) -> Result<GameFit<M>> {
        GameOpt::new(self.clone())?.fit(problem, model)
    }
}

impl GameOpt {
    /// A solver with checked settings.
    ///
    /// # Errors
    /// As [`GameOptParams::check`].
    pub fn new(params: GameOptParams) -> Result<Self> {
        Ok(Self {
            params: params.check()?,
        })
    }

    /// The settings.
    pub fn params(&self) -> &GameOptValidParams {
        &self.params
    }

    /// Plays the game from `model`'s current parameters.
    ///
    /// # Errors
    /// As [`GameOpt::fit_with_observer`].
    pub fn fit<M: Model>(&self, problem: &Problem, model: M) -> Result<GameFit<M>> {
        self.fit_with_observer(problem, model, &mut NoObserver)
    }

    /// Plays the game, calling `observer` after every step. When it returns
    /// [`ControlFlow::Break`](std::ops::ControlFlow::Break) the run ends with `Ok`: a snapshot of
    /// the last iterate is archived and the report says [`Termination::Interrupted`].
    ///
    /// # Examples
    /// ```
    /// use game_opt::{Algorithm, Examples, GameOpt, GameOptParams, IterInfo, Linear, Problem};
    /// use fair_core::{ControlFlow, Termination};
    /// use nalgebra::DMatrix;
    /// let x = DMatrix::from_fn(40, 1, |i, _| i as f64 / 20.0 - 1.0);
    /// let y: Vec<usize> = (0..40).map(|i| usize::from(i >= 20)).collect();
    /// let problem = Problem::new(Examples::new(&x, &y)?, vec![])?;
    /// let game = GameOpt::new(GameOptParams::new().algorithm(Algorithm::Unconstrained).iterations(50))?;
    /// let mut stop_at_10 = |i: &IterInfo<'_>| {
    ///     if i.iteration == 9 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// };
    /// let fit = game.fit_with_observer(&problem, Linear::new(1), &mut stop_at_10)?;
    /// assert_eq!(fit.report().status, Termination::Interrupted);
    /// assert_eq!(fit.report().iterations, 10);
    /// # Ok::<(), game_opt::GameOptError>(())
    /// ```
    ///
    /// # Errors
    /// [`GameOptError::FeatureMismatch`] when the model and the examples disagree;
    /// [`GameOptError::NonFiniteGradient`] when a score, gradient or multiplier becomes NaN or
    /// infinite (lower the learning rates).
    pub fn fit_with_observer<M: Model>(
        &self,
        problem: &Problem,
        mut model: M,
        observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
    ) -> Result<GameFit<M>> {
        let p = &self.params;
        if p.algorithm.uses_oracle() {
            return Err(GameOptError::InvalidParam {
                name: "algorithm",
                value: p.algorithm.label().into(),
                expected: "a minibatch game here; the oracle games run with GameOpt::fit_oracle \
                           and an Oracle (e.g. LogisticOracle for Linear models)",
            });
        }
        let ex = problem.examples();
        check_start(&model, ex.n_features())?;
        let start = Instant::now();
        let n = ex.n_rows();
        let m = problem.n_constraints();
        let b = p.batch_size.min(n);
        let scale = n as f64 / b as f64;
        let mu = p.hinge_margin;
        let labels = ex.labels();
        let n_params = model.parameters().len();
        let mut regularised = vec![p.l2 > 0.0; n_params];
        for i in model.bias_indices() {
            if let Some(r) = regularised.get_mut(i) {
                *r = false;
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        let mut cursor = 0;
        let mut grad = vec![0.0; n_params];
        let (mut m1, mut m2) = (vec![0.0; n_params], vec![0.0; n_params]);
        let mut multipliers = vec![0.0; m];
        let mut swap = match p.algorithm {
            Algorithm::ProxyLagrangian => Some(SwapRegretPlayer::new(m + 1, p.lr_lambda)?),
            _ => None,
        };
        let mut snapshots: Vec<Snapshot<M>> = Vec::new();
        let (mut lambda1_sum, mut lambda1_count) = (0.0, 0usize);
        let (mut g01, mut gprox) = (vec![0.0; m], vec![0.0; m]);
        let mut status = Termination::MaxIterations;
        let mut steps = 0;
        for t in 0..p.iterations {
            // The λ to play this step.
            let (w0, dist) = match (&swap, p.algorithm) {
                (Some(player), _) => {
                    let d = player.distribution()?;
                    (d[0], d)
                }
                (None, Algorithm::Unconstrained) => (1.0, Vec::new()),
                (None, _) => (1.0, Vec::new()),
            };
            let lam: Vec<f64> = match p.algorithm {
                Algorithm::ProxyLagrangian => dist[1..].to_vec(),
                Algorithm::Unconstrained => Vec::new(),
                _ => multipliers.clone(),
            };
            if cursor + b > n {
                order.shuffle(&mut rng);
                cursor = 0;
            }
            let batch = &order[cursor..cursor + b];
            cursor += b;
            grad.iter_mut().for_each(|g| *g = 0.0);
            g01.iter_mut().for_each(|g| *g = 0.0);
            gprox.iter_mut().for_each(|g| *g = 0.0);
            let mut batch_loss = 0.0;
            for &r in batch {
                let row = ex.row_view(r);
                let f = model.score_row(row);
                if !f.is_finite() {
                    return Err(GameOptError::NonFiniteGradient {
                        what: "model score",
                        iteration: t,
                    });
                }
                let s = if labels[r] { 1.0 } else { -1.0 };
                let (l, dl) = surrogate(p.objective_loss, f, s, mu);
                let wr = ex.weight(r);
                batch_loss += wr * l / b as f64;
                let mut d = w0 * wr * dl / b as f64;
                if m > 0 && problem.is_active(r) {
                    let (a, bb) = problem.coefficients(r);
                    for k in 0..m {
                        g01[k] += scale * if f >= 0.0 { a[k] } else { bb[k] };
                        let (hv, hd) = hinge_term(a[k], bb[k], f, mu);
                        gprox[k] += scale * hv;
                        if !lam.is_empty() {
                            d += lam[k] * scale * hd;
                        }
                    }
                }
                if d != 0.0 {
                    model.add_gradient_row(row, d, &mut grad);
                }
            }
            let theta = model.parameters_mut();
            for ((g, th), reg) in grad.iter_mut().zip(theta.iter()).zip(&regularised) {
                if *reg {
                    *g += p.l2 * th;
                }
            }
            if grad.iter().any(|g| !g.is_finite()) {
                return Err(GameOptError::NonFiniteGradient {
                    what: "model gradient",
                    iteration: t,
                });
            }
            match p.optimizer {
                Optimizer::Sgd => {
                    for (th, g) in theta.iter_mut().zip(&grad) {
                        *th -= p.lr_theta * g;
                    }
                }
                Optimizer::Adam => {
                    const B1: f64 = 0.9;
                    const B2: f64 = 0.999;
                    const EPS: f64 = 1e-8;
                    let step = (t + 1) as i32;
                    let c1 = 1.0 - B1.powi(step);
                    let c2 = 1.0 - B2.powi(step);
                    for i in 0..n_params {
                        m1[i] = B1 * m1[i] + (1.0 - B1) * grad[i];
                        m2[i] = B2 * m2[i] + (1.0 - B2) * grad[i] * grad[i];
                        theta[i] -= p.lr_theta * (m1[i] / c1) / ((m2[i] / c2).sqrt() + EPS);
                    }
                }
            }
            if let Some(r) = p.theta_radius {
                let norm = theta.iter().map(|x| x * x).sum::<f64>().sqrt();
                if norm > r {
                    theta.iter_mut().for_each(|x| *x *= r / norm);
                }
            }
            if theta.iter().any(|x| !x.is_finite()) {
                return Err(GameOptError::NonFiniteGradient {
                    what: "model parameters",
                    iteration: t,
                });
            }
            // The λ-player's step, at θ(t).
            let consts = problem.constants();
            for k in 0..m {
                g01[k] += consts[k];
                gprox[k] += consts[k];
            }
            let seen = if p.algorithm == Algorithm::Hinge {
                &gprox
            } else {
                &g01
            };
            match p.algorithm {
                Algorithm::Unconstrained
                | Algorithm::OracleProxyLagrangian
                | Algorithm::OracleLagrangian => {}
                Algorithm::ProxyLagrangian => {
                    if let Some(player) = swap.as_mut() {
                        let mut gains = Vec::with_capacity(m + 1);
                        gains.push(0.0);
                        gains.extend_from_slice(&g01);
                        player.update(&gains, &dist).map_err(|_| {
                            GameOptError::NonFiniteGradient {
                                what: "λ-player gains",
                                iteration: t,
                            }
                        })?;
                    }
                }
                Algorithm::ZeroOneExt | Algorithm::Hinge => {
                    lagrangian_step(&mut multipliers, seen, p, t)?;
                }
            }
            lambda1_sum += w0;
            lambda1_count += 1;
            steps = t + 1;
            let batch_max_violation = seen.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let info = IterInfo {
                iteration: t,
                objective_weight: w0,
                multipliers: &lam,
                batch_loss,
                batch_max_violation: if m == 0 { 0.0 } else { batch_max_violation },
            };
            let flow = observer.observe(&info);
            let stop = flow.is_break();
            if (t + 1) % p.snapshot_every == 0 || t + 1 == p.iterations || stop {
                let train = problem.evaluate(&model)?;
                let multipliers_now = match p.algorithm {
                    Algorithm::ProxyLagrangian => dist[1..].to_vec(),
                    _ => multipliers.clone(),
                };
                snapshots.push(Snapshot {
                    iteration: t + 1,
                    model: model.clone(),
                    train,
                    lambda1: lambda1_sum / lambda1_count.max(1) as f64,
                    multipliers: multipliers_now,
                });
                lambda1_sum = 0.0;
                lambda1_count = 0;
            }
            if stop {
                status = Termination::Interrupted;
                break;
            }
        }
        let (train_error, train_max_violation) = snapshots.last().map_or((f64::NAN, 0.0), |s| {
            (s.train.error, s.train.max_violation_or_zero())
        });
        let report = FitReport {
            algorithm: p.algorithm,
            status,
            iterations: steps,
            snapshots: snapshots.len(),
            train_error,
            train_max_violation,
            elapsed: start.elapsed(),
        };
        Ok(GameFit {
            snapshots,
            report,
            params: p.clone(),
        })
    }
}

/// Surrogate loss and its derivative in the score, for label sign `s ∈ {−1, +1}`.
#[inline]
fn surrogate(kind: ObjectiveLoss, f: f64, s: f64, mu: f64) -> (f64, f64) {
    match kind {
        ObjectiveLoss::Hinge => {
            let z = 1.0 - s * f / mu;
            if z > 0.0 { (z, -s / mu) } else { (0.0, 0.0) }
        }
        ObjectiveLoss::Logistic => {
            let z = -s * f;
            // ln(1 + e^z), stable; derivative −s·σ(z).
            let l = if z > 0.0 {
                z + (-z).exp().ln_1p()
            } else {
                z.exp().ln_1p()
            };
            let sig = if z >= 0.0 {
                1.0 / (1.0 + (-z).exp())
            } else {
                let e = z.exp();
                e / (1.0 + e)
            };
            (l, -s * sig)
        }
    }
}

/// Euclidean projection of a non-negative vector onto `{λ ≥ 0, ‖λ‖₁ ≤ r}`.
/// The Lagrangian λ-player's step, shared by the minibatch and oracle Lagrangian games: projected
/// gradient ascent `λ ← max(0, λ + η_λ g)`, then onto `‖λ‖₁ ≤ R` when a radius is set; a
/// non-finite multiplier at round `t` is an error.
pub(crate) fn lagrangian_step(
    multipliers: &mut [f64],
    g: &[f64],
    p: &GameOptValidParams,
    t: usize,
) -> Result<()> {
    for (l, gi) in multipliers.iter_mut().zip(g) {
        *l = (*l + p.lr_lambda * gi).max(0.0);
    }
    if let Some(r) = p.multiplier_radius {
        project_l1_ball(multipliers, r);
    }
    if multipliers.iter().any(|l| !l.is_finite()) {
        return Err(GameOptError::NonFiniteGradient {
            what: "multipliers",
            iteration: t,
        });
    }
    Ok(())
}

pub(crate) fn project_l1_ball(v: &mut [f64], r: f64) {
    let s: f64 = v.iter().sum();
    if s <= r {
        return;
    }
    let mut u: Vec<f64> = v.to_vec();
    u.sort_by(|a, b| b.total_cmp(a));
    let mut cum = 0.0;
    let mut tau = 0.0;
    for (j, x) in u.iter().enumerate() {
        cum += x;
        let t = (cum - r) / (j + 1) as f64;
        if x - t > 0.0 {
            tau = t;
        }
    }
    v.iter_mut().for_each(|x| *x = (*x - tau).max(0.0));
}

#[cfg(test)]
mod tests {
    use super::project_l1_ball;

    /// The projection is `max(v − τ, 0)` with τ ≥ 0, and τ > 0 only when the sum lands on `r`
    /// (the KKT conditions of the Euclidean projection onto `{λ ≥ 0, ‖λ‖₁ ≤ r}`).
    #[test]
    fn l1_ball_projection_satisfies_kkt() {
        let cases: [(&[f64], f64); 5] = [
            (&[0.2, 0.1], 1.0),
            (&[3.0, 1.0, 0.0], 2.0),
            (&[1.0, 1.0, 1.0, 1.0], 2.0),
            (&[5.0, 0.1, 0.2], 1.0),
            (&[0.5, 0.5], 1.0),
        ];
        for (v, r) in cases {
            let mut p = v.to_vec();
            project_l1_ball(&mut p, r);
            let sum: f64 = p.iter().sum();
            assert!(p.iter().all(|&x| x >= 0.0));
            assert!(sum <= r + 1e-12, "{v:?} → {p:?}");
            let shift: Vec<f64> = v
                .iter()
                .zip(&p)
                .filter(|(_, q)| **q > 0.0)
                .map(|(a, q)| a - q)
                .collect();
            let tau = shift.first().copied().unwrap_or(0.0);
            assert!(shift.iter().all(|s| (s - tau).abs() < 1e-12), "{v:?}");
            assert!(tau >= -1e-12);
            if tau > 1e-12 {
                assert!((sum - r).abs() < 1e-12);
            }
            for (a, q) in v.iter().zip(&p) {
                if *q == 0.0 {
                    assert!(*a <= tau + 1e-12);
                }
            }
        }
        let mut p = vec![3.0, 1.0, 0.0];
        project_l1_ball(&mut p, 2.0);
        assert_eq!(p, vec![2.0, 0.0, 0.0]);
    }
}
