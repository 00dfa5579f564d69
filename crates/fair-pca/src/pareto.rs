//! Algorithm 1 (Pareto fair PCA): the adaptive first-order outer loop, written once.
//!
//! ```text
//! for t = 1..T:
//!     G_l ← ∇f_l(U_t)  (Euclidean, or Riemannian (I − UUᵀ)G_l);  Ĝ_l ← normalized G_l  (Remark 1)
//!     λ̂ ← argmin_{λ∈Δ_m} ½‖Σ λ_l Ĝ_l‖²  (dual QP (37));  D_t ← −Σ λ̂_l Ĝ_l  (36)
//!     if ‖D_t‖_F ≤ tol: return U_t  (Pareto stationary)
//!     η_t ← eta0/√t, or the largest 2^{−p} (p ≥ 1) passing the Armijo test (16)
//!     U_{t+1} ← Π(U_t + η_t D_t)  (polar factor)
//! ```

use crate::error::{FairPcaError, Result};
use crate::linalg::{inner, polar};
use crate::min_norm::min_norm_point;
use crate::params::{FairPcaValidParams, Geometry, MAX_WARM_STEP, StepRule};
use crate::problem::{Evaluation, Problem};
use crate::report::{IterInfo, StartKind, StartReport};
use fair_core::{Observe, Termination};
use nalgebra::DMatrix;
use std::ops::ControlFlow;

/// An accepted step: `η`, the Armijo halvings `p` (if any), `U_{t+1}`, and its evaluation when
/// the line search already computed it (Riemannian geometry), so the next iteration reuses it.
type Step = (f64, Option<u32>, DMatrix<f64>, Option<Evaluation>);

/// The end of one start: its final frame and report.
pub(crate) struct Outcome {
    pub basis: DMatrix<f64>,
    pub report: StartReport,
}

fn non_finite(what: &str) -> FairPcaError {
    FairPcaError::Numerical {
        step: "Pareto fair PCA iteration",
        reason: format!("{what} became non-finite"),
    }
}

/// Runs Algorithm 1 from `u0` (orthonormal).
pub(crate) fn run(
    problem: &Problem<'_>,
    u0: DMatrix<f64>,
    params: &FairPcaValidParams,
    start: usize,
    kind: StartKind,
    observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
) -> Result<Outcome> {
    let m = problem.n_objectives();
    let mut u = u0;
    let mut status = Termination::MaxIterations;
    let mut iterations = 0;
    let mut last_norm = f64::NAN;
    // The warm-started search first tries twice this (so 1/2 at t = 1, as printed).
    let mut last_step: f64 = 0.25;
    let mut gram = DMatrix::<f64>::zeros(m, m);
    let mut cached: Option<Evaluation> = None;
    for t in 1..=params.max_iter {
        let ev = cached.take().unwrap_or_else(|| problem.evaluate(&u));
        let f = problem.values(&ev);
        if f.iter().any(|v| !v.is_finite()) {
            return Err(non_finite("an objective value"));
        }
        let grads = problem.gradients(&u, &ev, params.geometry, params.normalization);
        for a in 0..m {
            for b in a..m {
                let v = inner(&grads.normalized[a], &grads.normalized[b]);
                gram[(a, b)] = v;
                gram[(b, a)] = v;
            }
        }
        let qp = min_norm_point(&gram)?;
        let mut d = DMatrix::<f64>::zeros(u.nrows(), u.ncols());
        for (g, &w) in grads.normalized.iter().zip(&qp.weights) {
            if w > 0.0 {
                d -= g * w;
            }
        }
        let d_norm = d.norm();
        if !d_norm.is_finite() {
            return Err(non_finite("the descent direction"));
        }
        last_norm = d_norm;
        let slopes: Vec<f64> = grads.normalized.iter().map(|g| inner(&d, g)).collect();
        let sq_norms: Vec<f64> = (0..m).map(|j| gram[(j, j)]).collect();
        let disparities = problem.disparities(&ev);
        let total_loss = problem.total_loss(&ev);
        let max_gap = Problem::max_gap(&disparities);
        let mut info = IterInfo {
            start,
            iteration: t,
            step: 0.0,
            halvings: None,
            direction_norm: d_norm,
            weights: &qp.weights,
            descent_slopes: &slopes,
            gradient_sq_norms: &sq_norms,
            objectives: &f,
            total_loss,
            max_gap,
            iterate: &u,
        };
        if d_norm <= params.tol {
            status = Termination::Converged;
            if observer.observe(&info).is_break() {
                status = Termination::Interrupted;
            }
            break;
        }
        let next = match params.step {
            StepRule::InverseSqrt { eta0 } => {
                let eta = eta0 / (t as f64).sqrt();
                Some((eta, None, polar(&(&u + &d * eta))?, None))
            }
            StepRule::Armijo { beta, max_halvings } => {
                let raw_slopes: Vec<f64> = grads.raw.iter().map(|g| inner(&d, g)).collect();
                let search = Search {
                    first: 0.5,
                    beta,
                    max_halvings,
                };
                armijo(problem, &u, &d, &f, &raw_slopes, search, params.geometry)?
            }
            StepRule::ArmijoWarm { beta, max_halvings } => {
                let raw_slopes: Vec<f64> = grads.raw.iter().map(|g| inner(&d, g)).collect();
                let search = Search {
                    first: (2.0 * last_step).min(MAX_WARM_STEP),
                    beta,
                    max_halvings,
                };
                armijo(problem, &u, &d, &f, &raw_slopes, search, params.geometry)?
            }
        };
        let Some((eta, halvings, u_next, ev_next)) = next else {
            status = Termination::Stalled;
            if observer.observe(&info).is_break() {
                status = Termination::Interrupted;
            }
            break;
        };
        iterations += 1;
        last_step = eta;
        info.step = eta;
        info.halvings = halvings;
        info.iterate = &u_next;
        let flow = observer.observe(&info);
        u = u_next;
        cached = ev_next;
        if let ControlFlow::Break(()) = flow {
            status = Termination::Interrupted;
            break;
        }
    }
    let ev = problem.evaluate(&u);
    let disparities = problem.disparities(&ev);
    let report = StartReport {
        kind,
        status,
        iterations,
        direction_norm: last_norm,
        total_loss: problem.total_loss(&ev),
        max_gap: Problem::max_gap(&disparities),
        disparities,
        objectives: problem.values(&ev),
    };
    if report.objectives.iter().any(|v| !v.is_finite()) {
        return Err(non_finite("an objective value"));
    }
    Ok(Outcome { basis: u, report })
}

/// One backtracking search: trial steps `first · 2^{−p}`, `p = 0, 1, …, max_halvings − 1`.
#[derive(Clone, Copy)]
struct Search {
    first: f64,
    beta: f64,
    max_halvings: u32,
}

/// Backtracking (16): the largest trial step `η` such that
/// `f_l(W) ≤ f_l(U) + β η tr(Dᵀ G_l)` for every `l`, where `W = U + ηD` as printed
/// (Euclidean geometry) or `W = Π(U + ηD)` (Riemannian). Returns `(η, p, Π(U + ηD))` with `p`
/// the halvings from `1/2` (printed rule: the smallest `p ≥ 1` with `η = 2^{−p}`), or `None`
/// when no trial passes.
fn armijo(
    problem: &Problem<'_>,
    u: &DMatrix<f64>,
    d: &DMatrix<f64>,
    f: &[f64],
    slopes: &[f64],
    search: Search,
    geometry: Geometry,
) -> Result<Option<Step>> {
    let mut eta = search.first;
    for _ in 0..search.max_halvings {
        let trial = u + d * eta;
        let (point, projected) = match geometry {
            Geometry::Euclidean => (trial, None),
            Geometry::Riemannian => {
                let w = polar(&trial)?;
                (w.clone(), Some(w))
            }
        };
        let ev = problem.evaluate(&point);
        let f_new = problem.values(&ev);
        let ok = f_new
            .iter()
            .zip(f)
            .zip(slopes)
            .all(|((new, old), s)| *new <= old + search.beta * eta * s);
        if ok {
            let halvings = (-eta.log2()).round().max(0.0) as u32;
            return Ok(Some(match projected {
                Some(w) => (eta, Some(halvings), w, Some(ev)),
                None => (eta, Some(halvings), polar(&point)?, None),
            }));
        }
        eta *= 0.5;
    }
    Ok(None)
}
