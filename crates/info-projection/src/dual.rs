//! Direct solvers of the K-dimensional dual (8) on `λ ≥ 0`: a Newton method with the exact K × K Hessian accumulated in the same data pass as the
//! gradient, and a projected L-BFGS for when K or the per-row Hessian is too large.
//!
//! Newton: every step minimises the quadratic model exactly over `λ ≥ 0` (a K-dimensional
//! nonnegative QP, solved by the exact active-set method of the ADMM λ-step), then an Armijo
//! search with quadratic interpolation runs along the feasible segment. Near the solution the
//! active set is fixed and the rate is that of Newton's method (quadratic with the exact
//! Hessian, fast linear with a subsampled one) — a handful of passes where L-BFGS needs tens to
//! hundreds. (A two-metric projected Newton step, tried first, zig-zagged: the projection kept
//! changing the active set and half of the steps were cut back.)
//!
//! argmin 0.11 has no bound-constrained quasi-Newton method (its L-BFGS is unconstrained), so
//! this is a small two-metric projected L-BFGS: the quasi-Newton direction is computed on the
//! free variables (those not held at the bound by a positive gradient), then a projected
//! backtracking (Armijo) search runs along `P₊(λ + t d)`. The objective is ζ-strongly convex and
//! smooth, so every stored pair has positive curvature. Stopping rule:
//! `‖λ − P₊(λ − ∇Φ(λ))‖∞ ≤ tol` (first-order optimality of the bound-constrained problem).

use crate::error::Result;
use crate::qp;
use fair_core::Termination as Status;
use std::collections::VecDeque;

pub(crate) struct DualOutcome {
    pub lambda: Vec<f64>,
    pub status: Status,
    pub iterations: usize,
    pub evaluations: usize,
}

impl DualOutcome {
    /// The observer stopped the solve before a pass: `lambda` is the last accepted iterate.
    fn interrupted(lambda: Vec<f64>, iterations: usize, evaluations: usize) -> Self {
        DualOutcome {
            lambda,
            status: Status::Interrupted,
            iterations,
            evaluations,
        }
    }

    /// Final status of a loop that ended with `status`: a stalled line search or an exhausted
    /// iteration budget still counts as converged when the projected gradient is within `tol`.
    fn settle(
        lambda: Vec<f64>,
        g: &[f64],
        tol: f64,
        status: Status,
        iterations: usize,
        evaluations: usize,
    ) -> Self {
        let status = match status {
            Status::Stalled | Status::MaxIterations if projected_gradient(&lambda, g) <= tol => {
                Status::Converged
            }
            s => s,
        };
        DualOutcome {
            lambda,
            status,
            iterations,
            evaluations,
        }
    }
}

/// `‖x − P₊(x − g)‖∞`.
pub(crate) fn projected_gradient(x: &[f64], g: &[f64]) -> f64 {
    x.iter()
        .zip(g)
        .map(|(&xi, &gi)| (xi - (xi - gi).max(0.0)).abs())
        .fold(0.0, f64::max)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Projected L-BFGS from the feasible start `x0`.
pub(crate) fn solve(
    x0: Vec<f64>,
    mut eval: impl FnMut(&[f64]) -> Result<Option<(f64, Vec<f64>)>>,
    tol: f64,
    max_iter: usize,
    memory: usize,
) -> Result<DualOutcome> {
    let mut x = x0;
    let Some((mut f, mut g)) = eval(&x)? else {
        return Ok(DualOutcome::interrupted(x, 0, 0));
    };
    let mut evaluations = 1;
    let mut pairs: VecDeque<(Vec<f64>, Vec<f64>, f64)> = VecDeque::new();
    let mut status = Status::MaxIterations;
    let mut iterations = 0;
    while iterations < max_iter {
        if projected_gradient(&x, &g) <= tol {
            status = Status::Converged;
            break;
        }
        iterations += 1;
        let free: Vec<bool> = x
            .iter()
            .zip(&g)
            .map(|(&xi, &gi)| xi > 0.0 || gi < 0.0)
            .collect();
        let masked: Vec<f64> = g
            .iter()
            .zip(&free)
            .map(|(&gi, &fr)| if fr { gi } else { 0.0 })
            .collect();
        let mut accepted = false;
        for attempt in 0..2 {
            let use_memory = attempt == 0 && !pairs.is_empty();
            let mut d = if use_memory {
                two_loop(&masked, &pairs)
            } else {
                // Steepest descent, scaled to a unit first step in the largest coordinate.
                let gmax = masked.iter().fold(0.0_f64, |a, &b| a.max(b.abs()));
                let scale = if pairs.is_empty() {
                    1.0 / gmax.max(1.0)
                } else {
                    1.0
                };
                masked.iter().map(|&gi| -gi * scale).collect()
            };
            for (di, &fr) in d.iter_mut().zip(&free) {
                if !fr {
                    *di = 0.0;
                }
            }
            if use_memory && dot(&d, &masked) >= 0.0 {
                continue;
            }
            let mut t = 1.0;
            for _ in 0..60 {
                let xn: Vec<f64> = x
                    .iter()
                    .zip(&d)
                    .map(|(&xi, &di)| (xi + t * di).max(0.0))
                    .collect();
                let step: Vec<f64> = xn.iter().zip(&x).map(|(a, b)| a - b).collect();
                let Some((fnew, gnew)) = eval(&xn)? else {
                    return Ok(DualOutcome::interrupted(x, iterations, evaluations));
                };
                evaluations += 1;
                let slack = 1e-14 * (1.0 + f.abs());
                if fnew <= f + 1e-4 * dot(&g, &step) + slack {
                    let y: Vec<f64> = gnew.iter().zip(&g).map(|(a, b)| a - b).collect();
                    let sy = dot(&step, &y);
                    if sy > 1e-300 && sy > 1e-12 * dot(&step, &step).sqrt() * dot(&y, &y).sqrt() {
                        if pairs.len() == memory {
                            pairs.pop_front();
                        }
                        pairs.push_back((step, y, 1.0 / sy));
                    }
                    x = xn;
                    f = fnew;
                    g = gnew;
                    accepted = true;
                    break;
                }
                t *= 0.5;
            }
            if accepted {
                break;
            }
            pairs.clear();
        }
        if !accepted {
            status = Status::Stalled;
            break;
        }
    }
    Ok(DualOutcome::settle(
        x,
        &g,
        tol,
        status,
        iterations,
        evaluations,
    ))
}

/// Newton on `λ ≥ 0`; `eval` returns the objective, gradient and K × K Hessian (row-major) at a
/// point. Each step solves the bound-constrained quadratic model exactly
/// (`min_{y ≥ 0} gᵀ(y − λ) + ½(y − λ)ᵀσH(y − λ)` by the active-set QP, warm-started at λ), so the
/// direction `y − λ` is feasible and a descent direction, and the search needs no projection.
///
/// `σ ≥ 1` is the curvature actually met along the previous accepted step,
/// `2(f(λ + t d) − f(λ) − t gᵀd)/t²`, over the model's `dᵀHd` (clamped to [1, 10]). The CE dual's
/// curvature grows along a step (its per-row terms steepen as a tilted class nears its pole), so
/// far from the solution the plain model overshot: accepted full steps decreased f by 9–30 % of
/// `gᵀd` and the projected gradient rose again. On a quadratic, and near the solution, σ = 1 and
/// the step is the plain Newton step. Measured (1.4M / 200k / 20k × 5 × 5, CE): 19 → 17, 12 → 11,
/// 12 → 9 passes; KL pass counts unchanged at every size.
pub(crate) fn solve_newton(
    x0: Vec<f64>,
    mut eval: impl FnMut(&[f64]) -> Result<Option<(f64, Vec<f64>, Vec<f64>)>>,
    tol: f64,
    max_iter: usize,
) -> Result<DualOutcome> {
    let k = x0.len();
    let mut x = x0;
    let Some((mut f, mut g, mut h)) = eval(&x)? else {
        return Ok(DualOutcome::interrupted(x, 0, 0));
    };
    let mut evaluations = 1;
    let mut status = Status::MaxIterations;
    let mut iterations = 0;
    let mut sigma = 1.0_f64;
    while iterations < max_iter {
        if projected_gradient(&x, &g) <= tol {
            status = Status::Converged;
            break;
        }
        iterations += 1;
        // Model in y: ½yᵀ(σH)y + (g − σHx)ᵀy.
        let hs: Vec<f64> = h.iter().map(|v| v * sigma).collect();
        let q: Vec<f64> = (0..k)
            .map(|r| g[r] - (0..k).map(|c| hs[r * k + c] * x[c]).sum::<f64>())
            .collect();
        let mut y = x.clone();
        qp::active_set(&hs, &q, &mut y)?;
        let d: Vec<f64> = y.iter().zip(&x).map(|(a, b)| a - b).collect();
        let gd = dot(&g, &d);
        if gd >= 0.0 {
            status = Status::Stalled;
            break;
        }
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..40 {
            let xn: Vec<f64> = x
                .iter()
                .zip(&d)
                .map(|(&xi, &di)| (xi + t * di).max(0.0))
                .collect();
            let Some((fnew, gnew, hnew)) = eval(&xn)? else {
                return Ok(DualOutcome::interrupted(x, iterations, evaluations));
            };
            evaluations += 1;
            let slack = 1e-14 * (1.0 + f.abs());
            if fnew <= f + 1e-4 * t * gd + slack {
                let dhd: f64 = (0..k)
                    .map(|r| d[r] * (0..k).map(|c| h[r * k + c] * d[c]).sum::<f64>())
                    .sum();
                let met = 2.0 * (fnew - f - t * gd) / (t * t);
                sigma = if dhd > 0.0 && met.is_finite() {
                    (met / dhd).clamp(1.0, 10.0)
                } else {
                    1.0
                };
                x = xn;
                f = fnew;
                g = gnew;
                h = hnew;
                accepted = true;
                break;
            }
            // Minimiser of the quadratic through f, f'(0) = gd and f(t), kept in [t/10, t/2].
            let curv = fnew - f - gd * t;
            let tq = if curv > 0.0 && curv.is_finite() {
                -gd * t * t / (2.0 * curv)
            } else {
                0.1 * t
            };
            t = tq.clamp(0.1 * t, 0.5 * t);
        }
        if !accepted {
            status = Status::Stalled;
            break;
        }
    }
    Ok(DualOutcome::settle(
        x,
        &g,
        tol,
        status,
        iterations,
        evaluations,
    ))
}

/// L-BFGS two-loop recursion: `−H g` with the stored pairs (oldest first in `pairs`).
fn two_loop(g: &[f64], pairs: &VecDeque<(Vec<f64>, Vec<f64>, f64)>) -> Vec<f64> {
    let mut q = g.to_vec();
    let mut alphas = Vec::with_capacity(pairs.len());
    for (s, y, rho) in pairs.iter().rev() {
        let a = rho * dot(s, &q);
        for (qi, yi) in q.iter_mut().zip(y) {
            *qi -= a * yi;
        }
        alphas.push(a);
    }
    if let Some((s, y, _)) = pairs.back() {
        let gamma = dot(s, y) / dot(y, y);
        for qi in &mut q {
            *qi *= gamma;
        }
    }
    for ((s, y, rho), a) in pairs.iter().zip(alphas.iter().rev()) {
        let b = rho * dot(y, &q);
        for (qi, si) in q.iter_mut().zip(s) {
            *qi += (a - b) * si;
        }
    }
    q.iter().map(|v| -v).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// min ½(x₀ − 1)² + ½(x₁ + 2)² + ½x₀x₁·0 over x ≥ 0 → (1, 0), hand-computed.
    #[test]
    fn separable_quadratic() {
        let out = solve(
            vec![0.0; 2],
            |x| {
                let f = 0.5 * (x[0] - 1.0).powi(2) + 0.5 * (x[1] + 2.0).powi(2);
                Ok(Some((f, vec![x[0] - 1.0, x[1] + 2.0])))
            },
            1e-12,
            100,
            5,
        )
        .unwrap();
        assert_eq!(out.status, Status::Converged);
        assert!((out.lambda[0] - 1.0).abs() < 1e-10);
        assert!(out.lambda[1].abs() < 1e-15);
    }

    /// A coupled quadratic ½xᵀAx + bᵀx with A = [[2, 1], [1, 2]], b = (−1, 1): the
    /// unconstrained optimum (1, −1) is infeasible; with x₁ = 0 the optimum is x₀ = 1/2.
    #[test]
    fn coupled_quadratic_with_active_bound() {
        let out = solve(
            vec![0.0; 2],
            |x| {
                let g = vec![2.0 * x[0] + x[1] - 1.0, x[0] + 2.0 * x[1] + 1.0];
                let f =
                    0.5 * (2.0 * x[0] * x[0] + 2.0 * x[0] * x[1] + 2.0 * x[1] * x[1]) - x[0] + x[1];
                Ok(Some((f, g)))
            },
            1e-12,
            100,
            5,
        )
        .unwrap();
        assert_eq!(out.status, Status::Converged);
        assert!((out.lambda[0] - 0.5).abs() < 1e-10);
        assert!(out.lambda[1].abs() < 1e-15);
    }

    /// `f(x) = Σ e^{x_i} − b_i x_i` with a Hessian that underestimates the curvature four times
    /// (as a bad Hessian sample would): the plain model's step is four times too long and every
    /// iteration backtracks (two evaluations each); with σ learnt from the first accepted step
    /// the later steps are accepted at once.
    #[test]
    fn newton_learns_the_curvature_it_underestimates() {
        let b = [3.0_f64, 5.0];
        let out = solve_newton(
            vec![0.0; 2],
            |x| {
                let f = (0..2).map(|i| x[i].exp() - b[i] * x[i]).sum();
                let g = (0..2).map(|i| x[i].exp() - b[i]).collect();
                Ok(Some((
                    f,
                    g,
                    vec![x[0].exp() / 4.0, 0.0, 0.0, x[1].exp() / 4.0],
                )))
            },
            1e-10,
            100,
        )
        .unwrap();
        assert_eq!(out.status, Status::Converged);
        for (l, bi) in out.lambda.iter().zip(b) {
            assert!((l - bi.ln()).abs() < 1e-9);
        }
        assert!(
            out.evaluations <= out.iterations + 3,
            "{} evaluations for {} iterations",
            out.evaluations,
            out.iterations
        );
    }

    /// The coupled quadratic above with its exact Hessian: Newton solves it in one step.
    #[test]
    fn newton_solves_a_quadratic_in_one_step() {
        let out = solve_newton(
            vec![0.0; 2],
            |x| {
                let g = vec![2.0 * x[0] + x[1] - 1.0, x[0] + 2.0 * x[1] + 1.0];
                let f =
                    0.5 * (2.0 * x[0] * x[0] + 2.0 * x[0] * x[1] + 2.0 * x[1] * x[1]) - x[0] + x[1];
                Ok(Some((f, g, vec![2.0, 1.0, 1.0, 2.0])))
            },
            1e-12,
            100,
        )
        .unwrap();
        assert_eq!(out.status, Status::Converged);
        assert_eq!(out.iterations, 1);
        assert!((out.lambda[0] - 0.5).abs() < 1e-12);
        assert!(out.lambda[1].abs() < 1e-15);
    }
}
