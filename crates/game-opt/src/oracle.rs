//! The oracle games (Algorithms 1–2): the θ-player best-responds to the current multipliers.
//!
//! With 0-1 rates the θ-player's Lagrangian is linear in the predictions: row `r` costs
//! `C⁺ᵣ = λ₁·[yᵣ = 0]/n + Σᵢ λᵢ₊₁ aᵣᵢ` when predicted positive and `C⁻ᵣ = λ₁·[yᵣ = 1]/n +
//! Σᵢ λᵢ₊₁ bᵣᵢ` when predicted negative (the compiled coefficients of [`Problem`]). Minimising
//! it is a cost-sensitive classification problem: relabel row `r` positive iff `C⁺ᵣ < C⁻ᵣ`,
//! weight it `|C⁺ᵣ − C⁻ᵣ|` (the reduction fairlearn's `ExponentiatedGradient` uses). An
//! [`Oracle`] solves that weighted problem approximately (Definition 1's ρ-approximate oracle);
//! [`LogisticOracle`] does it for [`Linear`] models with a full-batch weighted logistic
//! regression by L-BFGS, warm-started from the previous response.

use crate::error::{GameOptError, Result};
#[cfg(doc)]
use crate::game::select_solution;
use crate::game::{FitReport, GameFit, GameOpt, IterInfo, Snapshot, lagrangian_step};
use crate::model::{Linear, Model};
use crate::params::Algorithm;
use crate::problem::{Evaluation, Examples, Problem, check_model, check_start};
use crate::swap::SwapRegretPlayer;
use fair_core::{Observe, Termination};
use std::time::Instant;

/// A (approximate) best-response oracle for the θ-player: fits `model` to a weighted binary
/// classification problem.
///
/// `targets[r]` is the cheaper prediction of row `r` (`true` = positive) and `weights[r] ≥ 0`
/// how much predicting the other class costs (scaled so that the unconstrained problem has unit
/// weights). `model` holds the previous response on entry (a warm start) and the new response on
/// return.
///
/// # Examples
/// ```
/// use game_opt::{Examples, Linear, LogisticOracle, Model, Oracle};
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_row_slice(4, 1, &[-2.0, -1.0, 1.0, 2.0]);
/// let ex = Examples::new(&x, &[0, 0, 1, 1])?;
/// let mut model = Linear::new(1);
/// LogisticOracle::new().best_response(&ex, &[false, false, true, true], &[1.0; 4], &mut model)?;
/// assert!(model.weights()[0] > 0.0);
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
pub trait Oracle<M: Model> {
    /// Replaces `model` by a (near-)minimiser of the weighted classification loss.
    ///
    /// # Errors
    /// Implementation-defined; [`LogisticOracle`] returns [`GameOptError::LengthMismatch`] and
    /// [`GameOptError::NonFinite`] for bad inputs.
    fn best_response(
        &mut self,
        examples: &Examples,
        targets: &[bool],
        weights: &[f64],
        model: &mut M,
    ) -> Result<()>;
}

/// Weighted logistic regression by L-BFGS: minimises
///
/// ```text
/// (1/n) Σᵣ wᵣ·ln(1 + exp(−sᵣ·f(xᵣ)))  +  (l2/2)·‖w‖²        (sᵣ = ±1 from the target, bias not penalised)
/// ```
///
/// (the weights rescaled to mean 1 first, so `l2` and `tolerance` mean the same at every λ)
/// from the model it is given (warm start), with memory 10 and a backtracking Armijo line search,
/// stopping after `max_iters` iterations or when `‖∇‖∞ ≤ tolerance`. When every weighted row
/// wants the same class the response is the constant classifier (weights 0, bias ±1).
///
/// | Setting | Default | Meaning |
/// |---|---|---|
/// | `l2` | 1e-4 | ridge penalty on the weights (keeps relabelled, separable problems bounded) |
/// | `max_iters` | 100 | L-BFGS iterations per response |
/// | `tolerance` | 1e-5 | stop when the largest gradient entry is below this |
///
/// [`LogisticOracle::approximate`] is the estimators' cheaper setting (15 iterations, 1e-3).
///
/// The L-BFGS is hand-written rather than argmin's: on the games' problems argmin's reaches the
/// same objective (to 2e-6 at 15 iterations) with 11–16 % more passes over the rows and other
/// bits, which would move the reproductions (measured by `examples/oracle_lbfgs.rs`;
/// docs/architecture.md, "One L-BFGS").
///
/// # Examples
/// ```
/// use game_opt::LogisticOracle;
/// let o = LogisticOracle::new().l2(1e-3).max_iters(50).tolerance(1e-6);
/// assert_eq!(o.get_max_iters(), 50);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogisticOracle {
    l2: f64,
    max_iters: usize,
    tolerance: f64,
    /// Loss/gradient evaluations of the last response (for benchmarks).
    evaluations: usize,
}

impl Default for LogisticOracle {
    fn default() -> Self {
        Self {
            l2: 1e-4,
            max_iters: 100,
            tolerance: 1e-5,
            evaluations: 0,
        }
    }
}

impl LogisticOracle {
    /// The defaults of the table above.
    pub fn new() -> Self {
        Self::default()
    }
    /// The approximate oracle the estimators use (Python's `RateConstrainedClassifier`
    /// defaults `oracle_max_iter`/`oracle_tol`): [`APPROXIMATE_MAX_ITERS`](Self::APPROXIMATE_MAX_ITERS)
    /// L-BFGS iterations and tolerance [`APPROXIMATE_TOLERANCE`](Self::APPROXIMATE_TOLERANCE)
    /// per response, ridge 1e-4. An approximate best response is enough: the game corrects
    /// it at the next round, and each response costs a fraction of [`new`](Self::new)'s
    /// (100 iterations, 1e-5), which the crate's tests and reproductions keep.
    ///
    /// ```
    /// use game_opt::LogisticOracle;
    /// let o = LogisticOracle::approximate();
    /// assert_eq!((o.get_max_iters(), o.get_tolerance(), o.get_l2()), (15, 1e-3, 1e-4));
    /// ```
    pub fn approximate() -> Self {
        Self::new()
            .max_iters(Self::APPROXIMATE_MAX_ITERS)
            .tolerance(Self::APPROXIMATE_TOLERANCE)
    }
    /// L-BFGS iterations per response of [`approximate`](Self::approximate).
    pub const APPROXIMATE_MAX_ITERS: usize = 15;
    /// Gradient tolerance of [`approximate`](Self::approximate).
    pub const APPROXIMATE_TOLERANCE: f64 = 1e-3;
    /// Ridge penalty (finite, ≥ 0; checked at the first response).
    pub fn l2(mut self, l2: f64) -> Self {
        self.l2 = l2;
        self
    }
    /// L-BFGS iterations per response (≥ 1).
    pub fn max_iters(mut self, max_iters: usize) -> Self {
        self.max_iters = max_iters;
        self
    }
    /// Gradient tolerance (finite, > 0).
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.tolerance = tolerance;
        self
    }
    /// The ridge penalty.
    pub fn get_l2(&self) -> f64 {
        self.l2
    }
    /// The iteration cap.
    pub fn get_max_iters(&self) -> usize {
        self.max_iters
    }
    /// The gradient tolerance.
    pub fn get_tolerance(&self) -> f64 {
        self.tolerance
    }
    /// Loss evaluations spent by the last response.
    pub fn last_evaluations(&self) -> usize {
        self.evaluations
    }

    fn check(&self) -> Result<()> {
        let bad = |name: &'static str, value: String, expected: &'static str| {
            Err(GameOptError::InvalidParam {
                name,
                value,
                expected,
            })
        };
        if !(self.l2.is_finite() && self.l2 >= 0.0) {
            return bad("oracle l2", self.l2.to_string(), "finite and >= 0");
        }
        if self.max_iters == 0 {
            return bad("oracle max_iters", "0".into(), "at least 1");
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return bad(
                "oracle tolerance",
                self.tolerance.to_string(),
                "finite and > 0",
            );
        }
        Ok(())
    }
}

/// Loss and gradient of the weighted logistic problem at `theta` (weights then bias).
fn loss_grad(
    ex: &Examples,
    sign: &[f64],
    weights: &[f64],
    l2: f64,
    theta: &[f64],
    grad: &mut [f64],
) -> f64 {
    let n = ex.n_rows();
    let d = theta.len() - 1;
    let inv_n = 1.0 / n as f64;
    grad.iter_mut().for_each(|g| *g = 0.0);
    let mut loss = 0.0;
    for r in 0..n {
        let w = weights[r];
        if w == 0.0 {
            continue;
        }
        let row = ex.row_view(r);
        // Dense rows (e.g. standardised features) take the contiguous, vectorisable loop.
        let dense = 2 * row.cols.len() > d;
        let mut f = theta[d];
        if dense {
            f += dot(&theta[..d], row.dense);
        } else {
            for (&c, x) in row.cols.iter().zip(row.vals) {
                f += theta[c as usize] * x;
            }
        }
        let z = -sign[r] * f;
        // ln(1 + e^z) and σ(z), stable.
        let (l, sig) = if z > 0.0 {
            let e = (-z).exp();
            (z + e.ln_1p(), 1.0 / (1.0 + e))
        } else {
            let e = z.exp();
            (e.ln_1p(), e / (1.0 + e))
        };
        loss += w * l;
        let coef = -sign[r] * sig * w * inv_n;
        if dense {
            for (g, x) in grad[..d].iter_mut().zip(row.dense) {
                *g += coef * x;
            }
        } else {
            for (&c, x) in row.cols.iter().zip(row.vals) {
                grad[c as usize] += coef * x;
            }
        }
        grad[d] += coef;
    }
    let mut penalty = 0.0;
    for (g, t) in grad[..d].iter_mut().zip(&theta[..d]) {
        *g += l2 * t;
        penalty += t * t;
    }
    loss * inv_n + 0.5 * l2 * penalty
}

/// Dot product with four independent accumulators (lets the compiler vectorise the loop).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc[0] + acc[1] + acc[2] + acc[3] + tail
}

impl Oracle<Linear> for LogisticOracle {
    fn best_response(
        &mut self,
        examples: &Examples,
        targets: &[bool],
        weights: &[f64],
        model: &mut Linear,
    ) -> Result<()> {
        self.check()?;
        let n = examples.n_rows();
        for (what, len) in [
            ("oracle targets", targets.len()),
            ("oracle weights", weights.len()),
        ] {
            if len != n {
                return Err(GameOptError::LengthMismatch {
                    what,
                    expected: n,
                    got: len,
                });
            }
        }
        if let Some((index, &value)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !(w.is_finite() && **w >= 0.0))
        {
            return Err(GameOptError::NonFinite {
                what: "oracle weights (finite and >= 0 expected)",
                index,
                value,
            });
        }
        check_model(model, examples.n_features())?;
        self.evaluations = 0;
        let (mut any_pos, mut any_neg) = (false, false);
        for (&t, &w) in targets.iter().zip(weights) {
            if w > 0.0 {
                any_pos |= t;
                any_neg |= !t;
            }
        }
        let theta = model.parameters_mut();
        let d = theta.len() - 1;
        if !(any_pos && any_neg) {
            // One class only (or nothing at stake): the constant classifier is a best response.
            theta.iter_mut().for_each(|t| *t = 0.0);
            theta[d] = if any_pos { 1.0 } else { -1.0 };
            return Ok(());
        }
        let sign: Vec<f64> = targets
            .iter()
            .map(|&t| if t { 1.0 } else { -1.0 })
            .collect();
        // Scale-free: the weights are rescaled to mean 1 (the minimiser of the data term does not
        // change; the ridge penalty and the tolerance then mean the same at every λ).
        let mean_w = weights.iter().sum::<f64>() / n as f64;
        let scaled: Vec<f64> = weights.iter().map(|w| w / mean_w).collect();
        let weights = &scaled[..];
        let p = theta.len();
        let mut x = theta.to_vec();
        let mut g = vec![0.0; p];
        let mut f = loss_grad(examples, &sign, weights, self.l2, &x, &mut g);
        self.evaluations += 1;
        const MEMORY: usize = 10;
        let mut s_hist: Vec<Vec<f64>> = Vec::with_capacity(MEMORY);
        let mut y_hist: Vec<Vec<f64>> = Vec::with_capacity(MEMORY);
        let mut dir = vec![0.0; p];
        let mut x_new = vec![0.0; p];
        let mut g_new = vec![0.0; p];
        for _ in 0..self.max_iters {
            if g.iter().fold(0.0f64, |a, v| a.max(v.abs())) <= self.tolerance {
                break;
            }
            // Two-loop recursion: dir = −H·g.
            dir.copy_from_slice(&g);
            let k = s_hist.len();
            let mut alpha = vec![0.0; k];
            for i in (0..k).rev() {
                let rho = 1.0 / dot(&y_hist[i], &s_hist[i]);
                alpha[i] = rho * dot(&s_hist[i], &dir);
                for (dv, yv) in dir.iter_mut().zip(&y_hist[i]) {
                    *dv -= alpha[i] * yv;
                }
            }
            let gamma = match k {
                0 => 1.0 / g.iter().map(|v| v.abs()).sum::<f64>().max(1.0),
                _ => dot(&s_hist[k - 1], &y_hist[k - 1]) / dot(&y_hist[k - 1], &y_hist[k - 1]),
            };
            dir.iter_mut().for_each(|v| *v *= gamma);
            for i in 0..k {
                let rho = 1.0 / dot(&y_hist[i], &s_hist[i]);
                let beta = rho * dot(&y_hist[i], &dir);
                for (dv, sv) in dir.iter_mut().zip(&s_hist[i]) {
                    *dv += (alpha[i] - beta) * sv;
                }
            }
            dir.iter_mut().for_each(|v| *v = -*v);
            let mut slope = dot(&g, &dir);
            if slope >= 0.0 || slope.is_nan() {
                // Not a descent direction (round-off): restart from steepest descent.
                s_hist.clear();
                y_hist.clear();
                dir.iter_mut().zip(&g).for_each(|(dv, gv)| *dv = -gv);
                slope = dot(&g, &dir);
            }
            // Backtracking Armijo.
            let mut step = 1.0;
            let mut accepted = false;
            for _ in 0..30 {
                for ((xn, xv), dv) in x_new.iter_mut().zip(&x).zip(&dir) {
                    *xn = xv + step * dv;
                }
                let f_new = loss_grad(examples, &sign, weights, self.l2, &x_new, &mut g_new);
                self.evaluations += 1;
                if f_new.is_finite() && f_new <= f + 1e-4 * step * slope {
                    accepted = true;
                    let s: Vec<f64> = x_new.iter().zip(&x).map(|(a, b)| a - b).collect();
                    let y: Vec<f64> = g_new.iter().zip(&g).map(|(a, b)| a - b).collect();
                    if dot(&s, &y) > 1e-12 {
                        if s_hist.len() == MEMORY {
                            s_hist.remove(0);
                            y_hist.remove(0);
                        }
                        s_hist.push(s);
                        y_hist.push(y);
                    }
                    x.copy_from_slice(&x_new);
                    g.copy_from_slice(&g_new);
                    f = f_new;
                    break;
                }
                step *= 0.5;
            }
            if !accepted {
                break;
            }
        }
        if let Some((index, &value)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(GameOptError::NonFinite {
                what: "oracle response",
                index,
                value,
            });
        }
        model.parameters_mut().copy_from_slice(&x);
        Ok(())
    }
}

/// The rounds of an oracle game played by [`GameOpt::play_oracle`]: per response, its exact
/// training values and the multipliers it answered.
#[derive(Debug, Clone, PartialEq)]
pub struct OracleRounds {
    /// Exact training error and constraint values of every response, in order.
    pub train: Vec<Evaluation>,
    /// The objective weight λ₁ each response answered (1 for the Lagrangian).
    pub lambda1: Vec<f64>,
    /// The constraint multipliers each response answered.
    pub multipliers: Vec<Vec<f64>>,
    /// The run's report.
    pub report: FitReport,
}

impl GameOpt {
    /// Plays an oracle game ([`Algorithm::OracleProxyLagrangian`] or
    /// [`Algorithm::OracleLagrangian`]): `iterations` rounds of "best response to the current
    /// multipliers, then one λ step on the exact (full-batch) 0-1 constraint values". Every
    /// response is a snapshot, so the solutions ([`GameFit::solution`]) mix best responses — the
    /// m-stoch LP picks at most `m + 1` of them. `model` is the first warm start.
    ///
    /// Uses `lr_lambda` (the swap player's exponent, or the additive step of the Lagrangian),
    /// `multiplier_radius` (Lagrangian) and the LP settings; the θ-player's step sizes,
    /// optimizer, surrogate, batch size and snapshot period do not apply.
    ///
    /// # Errors
    /// [`GameOptError::InvalidParam`] for a minibatch algorithm; [`GameOptError::FeatureMismatch`];
    /// the oracle's errors; [`GameOptError::NonFiniteGradient`] when the multipliers diverge.
    ///
    /// # Examples
    /// ```
    /// use game_opt::{Algorithm, Examples, GameOpt, GameOptParams, Linear, LogisticOracle,
    ///                NoObserver, Problem, Rate, SolutionType, Subset};
    /// use nalgebra::DMatrix;
    /// let x = DMatrix::from_fn(200, 1, |i, _| i as f64 / 100.0 - 1.0);
    /// let y: Vec<usize> = (0..200).map(|i| usize::from(i >= 150)).collect();
    /// let cover = Rate::PositivePrediction(Subset::all()).expr().ge(0.4);
    /// let problem = Problem::new(Examples::new(&x, &y)?, vec![cover])?;
    /// let game = GameOpt::new(GameOptParams::new()
    ///     .algorithm(Algorithm::OracleProxyLagrangian).iterations(40).lr_lambda(2.0))?;
    /// let fit = game.fit_oracle(&problem, Linear::new(1), &mut LogisticOracle::new(),
    ///                           &mut NoObserver)?;
    /// let m = fit.solution(SolutionType::MStoch)?;
    /// let eval = fit.classifier(&m)?.evaluate(&problem)?;
    /// assert!(eval.constraints[0] <= 1e-6); // coverage ≥ 0.4 met on the training rows
    /// # Ok::<(), game_opt::GameOptError>(())
    /// ```
    pub fn fit_oracle<M: Model, O: Oracle<M>>(
        &self,
        problem: &Problem,
        mut model: M,
        oracle: &mut O,
        observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
    ) -> Result<GameFit<M>> {
        let ex = problem.examples();
        check_start(&model, ex.n_features())?;
        let mut models: Vec<M> = Vec::new();
        let mut respond = |targets: &[bool], weights: &[f64]| -> Result<Vec<f64>> {
            oracle.best_response(ex, targets, weights, &mut model)?;
            if model.parameters().iter().any(|v| !v.is_finite()) {
                return Err(GameOptError::NonFiniteGradient {
                    what: "oracle response",
                    iteration: models.len(),
                });
            }
            models.push(model.clone());
            ex.scores(&model)
        };
        let rounds = self.play_oracle(problem, &mut respond, observer)?;
        let snapshots = models
            .into_iter()
            .zip(rounds.train)
            .zip(rounds.lambda1)
            .zip(rounds.multipliers)
            .enumerate()
            .map(|(i, (((model, train), lambda1), multipliers))| Snapshot {
                iteration: i + 1,
                model,
                train,
                lambda1,
                multipliers,
            })
            .collect();
        Ok(GameFit {
            snapshots,
            report: rounds.report,
            params: self.params.clone(),
        })
    }

    /// The oracle game with any best response: `respond(targets, weights)` fits a response to
    /// the weighted classification problem (see [`Oracle`]) and returns its **scores on the
    /// training rows** (positive iff ≥ 0; e.g. ±1 hard predictions). The responses themselves
    /// stay with the caller (round `t` is the `t`-th call); [`select_solution`] turns the
    /// returned rounds into mixture weights. This is how the Python binding plays the game with
    /// a scikit-learn estimator.
    ///
    /// # Errors
    /// As [`GameOpt::fit_oracle`]; `respond`'s errors; [`GameOptError::LengthMismatch`] when it
    /// returns the wrong number of scores.
    ///
    /// # Examples
    /// ```
    /// use game_opt::{Algorithm, Examples, GameOpt, GameOptParams, NoObserver, Problem, Rate,
    ///                SolutionType, Subset, select_solution};
    /// use nalgebra::DMatrix;
    /// let x = DMatrix::from_fn(100, 1, |i, _| i as f64);
    /// let y: Vec<usize> = (0..100).map(|i| usize::from(i >= 80)).collect();
    /// let cover = Rate::PositivePrediction(Subset::all()).expr().ge(0.3);
    /// let problem = Problem::new(Examples::new(&x, &y)?, vec![cover])?;
    /// let game = GameOpt::new(GameOptParams::new()
    ///     .algorithm(Algorithm::OracleProxyLagrangian).iterations(30).lr_lambda(2.0))?;
    /// // A "decision stump" oracle: the best threshold on the one feature.
    /// let mut stump = |targets: &[bool], weights: &[f64]| {
    ///     let cost = |t: usize| (0..100).map(|i| if (i >= t) != targets[i] { weights[i] } else { 0.0 }).sum::<f64>();
    ///     let best = (0..=100).min_by(|a, b| cost(*a).total_cmp(&cost(*b))).unwrap_or(0);
    ///     Ok((0..100).map(|i| if i >= best { 1.0 } else { -1.0 }).collect())
    /// };
    /// let rounds = game.play_oracle(&problem, &mut stump, &mut NoObserver)?;
    /// let s = select_solution(SolutionType::MStoch, &rounds.train, &rounds.lambda1, game.params())?;
    /// let worst: f64 = s.weights.iter().map(|(i, w)| w * rounds.train[*i].constraints[0]).sum();
    /// assert!(worst <= 1e-9);
    /// # Ok::<(), game_opt::GameOptError>(())
    /// ```
    pub fn play_oracle<F>(
        &self,
        problem: &Problem,
        respond: &mut F,
        observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
    ) -> Result<OracleRounds>
    where
        F: FnMut(&[bool], &[f64]) -> Result<Vec<f64>>,
    {
        let p = &self.params;
        if !p.algorithm.uses_oracle() {
            return Err(GameOptError::InvalidParam {
                name: "algorithm",
                value: p.algorithm.label().into(),
                expected: "OracleProxyLagrangian or OracleLagrangian here (the minibatch games \
                           run with GameOpt::fit)",
            });
        }
        let ex = problem.examples();
        let start = Instant::now();
        let n = ex.n_rows();
        let nf = n as f64;
        let m = problem.n_constraints();
        let labels = ex.labels();
        let mut swap = match p.algorithm {
            Algorithm::OracleProxyLagrangian => Some(SwapRegretPlayer::new(m + 1, p.lr_lambda)?),
            _ => None,
        };
        let mut multipliers = vec![0.0; m];
        let mut targets = vec![false; n];
        let mut weights = vec![0.0; n];
        let mut rounds = OracleRounds {
            train: Vec::new(),
            lambda1: Vec::new(),
            multipliers: Vec::new(),
            report: FitReport {
                algorithm: p.algorithm,
                status: Termination::MaxIterations,
                iterations: 0,
                snapshots: 0,
                train_error: f64::NAN,
                train_max_violation: 0.0,
                elapsed: start.elapsed(),
            },
        };
        for t in 0..p.iterations {
            let (w0, lam, dist) = match &swap {
                Some(player) => {
                    let d = player.distribution()?;
                    (d[0], d[1..].to_vec(), d)
                }
                None => (1.0, multipliers.clone(), Vec::new()),
            };
            // Costs of predicting positive / negative, scaled by n (unit weights unconstrained).
            for r in 0..n {
                let wr = w0 * ex.weight(r);
                let (mut cp, mut cn) = if labels[r] { (0.0, wr) } else { (wr, 0.0) };
                if m > 0 && problem.is_active(r) {
                    let (a, b) = problem.coefficients(r);
                    for k in 0..m {
                        cp += nf * lam[k] * a[k];
                        cn += nf * lam[k] * b[k];
                    }
                }
                targets[r] = cp < cn;
                weights[r] = (cp - cn).abs();
            }
            let scores = respond(&targets, &weights)?;
            let train = problem.evaluate_scores(&scores)?;
            match swap.as_mut() {
                Some(player) => {
                    let mut gains = Vec::with_capacity(m + 1);
                    gains.push(0.0);
                    gains.extend_from_slice(&train.constraints);
                    player
                        .update(&gains, &dist)
                        .map_err(|_| GameOptError::NonFiniteGradient {
                            what: "λ-player gains",
                            iteration: t,
                        })?;
                }
                None => {
                    lagrangian_step(&mut multipliers, &train.constraints, p, t)?;
                }
            }
            let flow = observer.observe(&IterInfo {
                iteration: t,
                objective_weight: w0,
                multipliers: &lam,
                batch_loss: train.error,
                batch_max_violation: train.max_violation_or_zero(),
            });
            rounds.train.push(train);
            rounds.lambda1.push(w0);
            rounds.multipliers.push(lam);
            if flow.is_break() {
                rounds.report.status = Termination::Interrupted;
                break;
            }
        }
        let report = &mut rounds.report;
        report.iterations = rounds.train.len();
        report.snapshots = rounds.train.len();
        if let Some(last) = rounds.train.last() {
            report.train_error = last.error;
            report.train_max_violation = last.max_violation_or_zero();
        }
        report.elapsed = start.elapsed();
        Ok(rounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{GameOptParams, SolutionType};
    use crate::rates::{Direction, Slack, goals};
    use fair_core::NoObserver;
    use fair_data::Groups;
    use nalgebra::DMatrix;

    /// Two groups; group "b" has lower scores, so the unconstrained model favours "a".
    fn parity_problem() -> Problem {
        let n = 600;
        let group: Vec<&str> = (0..n).map(|i| if i % 3 == 0 { "b" } else { "a" }).collect();
        // 50 % positives in "a", 20 % in "b".
        let y: Vec<usize> = (0..n)
            .map(|i| usize::from((i * 7) % 10 < if i % 3 == 0 { 2 } else { 5 }))
            .collect();
        let x = DMatrix::from_fn(n, 2, |i, j| match j {
            0 => {
                y[i] as f64 * 1.5 + ((i * 37) % 23) as f64 / 11.0
                    - 1.0
                    - if i % 3 == 0 { 1.0 } else { 0.0 }
            }
            _ => f64::from(u8::from(i % 3 == 0)),
        });
        let ex = Examples::new(&x, &y)
            .unwrap()
            .with_attribute("g", Groups::from_labels(&group))
            .unwrap();
        let c = goals::statistical_parity("g", &["a", "b"], Direction::Both, Slack::Additive(0.02));
        Problem::new(ex, c).unwrap()
    }

    #[test]
    fn oracle_games_reach_feasible_mixtures() {
        let problem = parity_problem();
        let unconstrained = {
            let mut m = Linear::new(2);
            let t: Vec<bool> = problem.examples().labels().to_vec();
            LogisticOracle::new()
                .best_response(problem.examples(), &t, &vec![1.0; t.len()], &mut m)
                .unwrap();
            problem.evaluate(&m).unwrap()
        };
        assert!(unconstrained.max_violation() > 0.05, "{unconstrained:?}");
        for (alg, eta) in [
            (Algorithm::OracleProxyLagrangian, 1.5),
            (Algorithm::OracleLagrangian, 2.0),
        ] {
            let game = GameOpt::new(
                GameOptParams::new()
                    .algorithm(alg)
                    .iterations(60)
                    .lr_lambda(eta),
            )
            .unwrap();
            let fit = game
                .fit_oracle(
                    &problem,
                    Linear::new(2),
                    &mut LogisticOracle::new(),
                    &mut NoObserver,
                )
                .unwrap();
            assert_eq!(fit.snapshots().len(), 60);
            let sol = fit.solution(SolutionType::MStoch).unwrap();
            assert!(sol.weights.len() <= problem.n_constraints() + 1);
            let e = fit.classifier(&sol).unwrap().evaluate(&problem).unwrap();
            assert!(e.max_violation() <= 1e-9, "{alg:?}: {e:?}");
            assert!(e.error < 0.5, "{alg:?}: {e:?}");
        }
    }

    #[test]
    fn games_and_runners_must_match() {
        let problem = parity_problem();
        let oracle_game =
            GameOpt::new(GameOptParams::new().algorithm(Algorithm::OracleProxyLagrangian)).unwrap();
        assert!(matches!(
            oracle_game.fit(&problem, Linear::new(2)),
            Err(GameOptError::InvalidParam {
                name: "algorithm",
                ..
            })
        ));
        let sgd_game = GameOpt::new(GameOptParams::new()).unwrap();
        assert!(matches!(
            sgd_game.fit_oracle(
                &problem,
                Linear::new(2),
                &mut LogisticOracle::new(),
                &mut NoObserver
            ),
            Err(GameOptError::InvalidParam {
                name: "algorithm",
                ..
            })
        ));
        assert!(matches!(
            oracle_game.fit_oracle(
                &problem,
                Linear::new(3),
                &mut LogisticOracle::new(),
                &mut NoObserver
            ),
            Err(GameOptError::FeatureMismatch { .. })
        ));
    }

    /// Integer row weights count like duplicated rows, in the error and in every rate.
    #[test]
    fn row_weights_equal_duplicated_rows() {
        let base = parity_problem();
        let ex = base.examples();
        let n = ex.n_rows();
        let w: Vec<f64> = (0..n).map(|i| ((i * 5) % 4) as f64).collect();
        let weighted = Problem::new(
            ex.clone().with_weights(&w).unwrap(),
            base.constraints().to_vec(),
        )
        .unwrap();
        let mut rows = Vec::new();
        for (i, wi) in w.iter().enumerate() {
            rows.extend(std::iter::repeat_n(i, *wi as usize));
        }
        let x = DMatrix::from_fn(rows.len(), 2, |r, j| ex.row(rows[r]).unwrap()[j]);
        let y: Vec<usize> = rows.iter().map(|&r| usize::from(ex.labels()[r])).collect();
        let g = ex.attribute("g").unwrap();
        let names: Vec<&str> = rows
            .iter()
            .map(|&r| g.names()[g.codes()[r]].as_str())
            .collect();
        let dup = Problem::new(
            Examples::new(&x, &y)
                .unwrap()
                .with_attribute("g", Groups::from_labels(&names))
                .unwrap(),
            base.constraints().to_vec(),
        )
        .unwrap();
        let model = Linear::from_parts(&[0.7, -0.4], -0.2).unwrap();
        let a = weighted.evaluate(&model).unwrap();
        let b = dup.evaluate(&model).unwrap();
        assert!((a.error - b.error).abs() < 1e-12, "{a:?} {b:?}");
        for (u, v) in a.constraints.iter().zip(&b.constraints) {
            assert!((u - v).abs() < 1e-12, "{a:?} {b:?}");
        }
        // Weighted games run (both runners) and meet the constraints on the weighted rows.
        let game = GameOpt::new(
            GameOptParams::new()
                .algorithm(Algorithm::OracleProxyLagrangian)
                .iterations(60)
                .lr_lambda(1.0),
        )
        .unwrap();
        let fit = game
            .fit_oracle(
                &weighted,
                Linear::new(2),
                &mut LogisticOracle::new(),
                &mut NoObserver,
            )
            .unwrap();
        let sol = fit.solution(SolutionType::MStoch).unwrap();
        let e = fit.classifier(&sol).unwrap().evaluate(&weighted).unwrap();
        assert!(e.max_violation() <= 1e-9, "{e:?}");
        GameOptParams::new()
            .iterations(50)
            .fit(&weighted, Linear::new(2))
            .unwrap();
        // Bad weights.
        assert!(matches!(
            ex.clone().with_weights(&w[1..]),
            Err(GameOptError::LengthMismatch { .. })
        ));
        let mut bad = w.clone();
        bad[3] = -1.0;
        assert!(matches!(
            ex.clone().with_weights(&bad),
            Err(GameOptError::NonFinite { .. })
        ));
        bad[3] = f64::NAN;
        assert!(matches!(
            ex.clone().with_weights(&bad),
            Err(GameOptError::NonFinite { .. })
        ));
        assert!(matches!(
            ex.clone().with_weights(&vec![0.0; n]),
            Err(GameOptError::InvalidParam { .. })
        ));
        // A group whose rows all weigh 0 has no rates.
        let zero_b: Vec<f64> = (0..n).map(|i| if i % 3 == 0 { 0.0 } else { 1.0 }).collect();
        assert!(matches!(
            Problem::new(
                ex.clone().with_weights(&zero_b).unwrap(),
                base.constraints().to_vec()
            ),
            Err(GameOptError::EmptySubset { .. })
        ));
    }

    #[test]
    fn logistic_oracle_rejects_bad_inputs_and_handles_one_class() {
        let x = DMatrix::from_row_slice(4, 1, &[-2.0, -1.0, 1.0, 2.0]);
        let ex = Examples::new(&x, &[0, 0, 1, 1]).unwrap();
        let t = [false, false, true, true];
        let mut m = Linear::new(1);
        for bad in [
            LogisticOracle::new().l2(-1.0),
            LogisticOracle::new().l2(f64::NAN),
            LogisticOracle::new().max_iters(0),
            LogisticOracle::new().tolerance(0.0),
        ] {
            let mut o = bad;
            assert!(matches!(
                o.best_response(&ex, &t, &[1.0; 4], &mut m),
                Err(GameOptError::InvalidParam { .. })
            ));
        }
        let mut o = LogisticOracle::new();
        assert!(matches!(
            o.best_response(&ex, &t[..3], &[1.0; 4], &mut m),
            Err(GameOptError::LengthMismatch { .. })
        ));
        assert!(matches!(
            o.best_response(&ex, &t, &[1.0, -1.0, 1.0, 1.0], &mut m),
            Err(GameOptError::NonFinite { .. })
        ));
        assert!(matches!(
            o.best_response(&ex, &t, &[1.0, f64::INFINITY, 1.0, 1.0], &mut m),
            Err(GameOptError::NonFinite { .. })
        ));
        // Only the positive rows carry weight: the constant positive classifier.
        o.best_response(&ex, &t, &[0.0, 0.0, 1.0, 1.0], &mut m)
            .unwrap();
        assert_eq!(m.parameters(), &[0.0, 1.0]);
        // Weighted fit orders the classes; scaling all weights changes nothing.
        let t = [false, true, false, true];
        let mut m = Linear::new(1);
        o.best_response(&ex, &t, &[1.0, 1.0, 0.5, 1.0], &mut m)
            .unwrap();
        let a = m.parameters().to_vec();
        assert!(a[0] > 0.0, "{a:?}");
        let mut m2 = Linear::new(1);
        o.best_response(&ex, &t, &[7.0, 7.0, 3.5, 7.0], &mut m2)
            .unwrap();
        assert!(
            a.iter()
                .zip(m2.parameters())
                .all(|(u, v)| (u - v).abs() < 1e-6)
        );
    }
}
