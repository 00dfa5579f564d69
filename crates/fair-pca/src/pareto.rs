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
use crate::params::{FairPcaValidParams, Geometry, StepRule};
use crate::problem::Problem;
use crate::report::{IterInfo, Observer, StartKind, StartReport, Status};
use nalgebra::DMatrix;
use std::ops::ControlFlow;

/// An accepted step: `η`, the Armijo halvings `p` (if any), and `U_{t+1}`.
type Step = (f64, Option<u32>, DMatrix<f64>);

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
    observer: &mut dyn Observer,
) -> Result<Outcome> {
    let m = problem.n_objectives();
    let mut u = u0;
    let mut status = Status::MaxIterations;
    let mut iterations = 0;
    let mut last_norm = f64::NAN;
    let mut gram = DMatrix::<f64>::zeros(m, m);
    for t in 1..=params.max_iter {
        let ev = problem.evaluate(&u);
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
            status = Status::Converged;
            if observer.on_iter(&info).is_break() {
                status = Status::Stopped;
            }
            break;
        }
        let next = match params.step {
            StepRule::InverseSqrt { eta0 } => {
                let eta = eta0 / (t as f64).sqrt();
                Some((eta, None, polar(&(&u + &d * eta))?))
            }
            StepRule::Armijo { beta, max_halvings } => {
                let raw_slopes: Vec<f64> = grads.raw.iter().map(|g| inner(&d, g)).collect();
                armijo(
                    problem,
                    &u,
                    &d,
                    &f,
                    &raw_slopes,
                    beta,
                    max_halvings,
                    params.geometry,
                )?
            }
        };
        let Some((eta, halvings, u_next)) = next else {
            status = Status::Stalled;
            if observer.on_iter(&info).is_break() {
                status = Status::Stopped;
            }
            break;
        };
        iterations += 1;
        info.step = eta;
        info.halvings = halvings;
        info.iterate = &u_next;
        let flow = observer.on_iter(&info);
        u = u_next;
        if let ControlFlow::Break(()) = flow {
            status = Status::Stopped;
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

/// Backtracking (16): the smallest `p ≥ 1` with `η = 2^{−p}` such that
/// `f_l(W) ≤ f_l(U) + β η tr(Dᵀ G_l)` for every `l`, where `W = U + ηD` as printed
/// (Euclidean geometry) or `W = Π(U + ηD)` (Riemannian). Returns `(η, p, Π(U + ηD))`, or `None`
/// when no `p ≤ max_halvings` passes.
#[allow(clippy::too_many_arguments)]
fn armijo(
    problem: &Problem<'_>,
    u: &DMatrix<f64>,
    d: &DMatrix<f64>,
    f: &[f64],
    slopes: &[f64],
    beta: f64,
    max_halvings: u32,
    geometry: Geometry,
) -> Result<Option<Step>> {
    for p in 1..=max_halvings {
        let eta = 0.5_f64.powi(p as i32);
        let trial = u + d * eta;
        let (point, projected) = match geometry {
            Geometry::Euclidean => (trial, None),
            Geometry::Riemannian => {
                let w = polar(&trial)?;
                (w.clone(), Some(w))
            }
        };
        let f_new = problem.values(&problem.evaluate(&point));
        let ok = f_new
            .iter()
            .zip(f)
            .zip(slopes)
            .all(|((new, old), s)| *new <= old + beta * eta * s);
        if ok {
            let next = match projected {
                Some(w) => w,
                None => polar(&point)?,
            };
            return Ok(Some((eta, Some(p), next)));
        }
    }
    Ok(None)
}
