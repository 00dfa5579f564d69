//! The ADMM λ-step (40): `min_{λ ≥ 0} λᵀQλ + qᵀλ` with Q symmetric positive definite (K × K).
//!
//! Written as `min ½λᵀHλ + qᵀλ`, `H = 2Q`. Two solvers: an exact primal active-set method
//! (Lawson–Hanson adapted to a positive-definite quadratic; finite termination, warm-started
//! from the previous λ) and clarabel's interior point, for cross-checking.

use crate::error::{InfoProjectionError as E, Result};
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};
use nalgebra::{DMatrix, DVector};

/// Solves on the free set `P`: `H_PP y = −q_P`.
fn solve_free(h: &[f64], q: &[f64], k: usize, free: &[usize]) -> Result<Vec<f64>> {
    let m = free.len();
    let hp = DMatrix::from_fn(m, m, |r, c| h[free[r] * k + free[c]]);
    let rhs = DVector::from_fn(m, |r, _| -q[free[r]]);
    let chol = hp.cholesky().ok_or_else(|| E::Qp {
        reason: "the λ-step Hessian is not positive definite".into(),
    })?;
    Ok(chol.solve(&rhs).iter().copied().collect())
}

/// Exact active-set solve; `x` holds a feasible warm start on entry and the solution on exit.
/// Returns the number of linear solves.
pub(crate) fn active_set(h: &[f64], q: &[f64], x: &mut [f64]) -> Result<usize> {
    let k = q.len();
    let scale = 1.0 + q.iter().fold(0.0_f64, |a, &b| a.max(b.abs()));
    let eps = 1e-13 * scale;
    let mut in_p: Vec<bool> = x.iter().map(|&v| v > 0.0).collect();
    for (xi, &p) in x.iter_mut().zip(&in_p) {
        if !p {
            *xi = 0.0;
        }
    }
    let mut solves = 0;
    let mut just_added: Option<usize> = None;
    for _ in 0..(10 * k + 100) {
        let free: Vec<usize> = (0..k).filter(|&j| in_p[j]).collect();
        let y = if free.is_empty() {
            Vec::new()
        } else {
            solves += 1;
            solve_free(h, q, k, &free)?
        };
        if y.iter().all(|&v| v > 0.0) {
            for (j, &fj) in free.iter().enumerate() {
                x[fj] = y[j];
            }
            // Gradient Hx + q off the free set; add the most negative.
            let mut best: Option<(usize, f64)> = None;
            for j in (0..k).filter(|&j| !in_p[j]) {
                let gj = q[j] + free.iter().map(|&f| h[j * k + f] * x[f]).sum::<f64>();
                if gj < -eps && best.is_none_or(|(_, b)| gj < b) {
                    best = Some((j, gj));
                }
            }
            match best {
                None => return Ok(solves),
                Some((j, _)) => {
                    in_p[j] = true;
                    just_added = Some(j);
                }
            }
        } else {
            if let Some(j) = just_added.take() {
                // Rounding made the entering variable non-positive at once: it is optimal at 0.
                if let Some(pos) = free.iter().position(|&f| f == j)
                    && y[pos] <= 0.0
                {
                    in_p[j] = false;
                    return Ok(solves);
                }
            }
            // Step from x towards y until a free variable reaches 0.
            let mut t = 1.0_f64;
            for (j, &fj) in free.iter().enumerate() {
                if y[j] <= 0.0 {
                    let den = x[fj] - y[j];
                    if den > 0.0 {
                        t = t.min(x[fj] / den);
                    }
                }
            }
            for (j, &fj) in free.iter().enumerate() {
                x[fj] += t * (y[j] - x[fj]);
                if x[fj] <= 1e-300 || y[j] <= 0.0 && x[fj] <= 1e-15 * scale {
                    x[fj] = 0.0;
                    in_p[fj] = false;
                }
            }
        }
    }
    Err(E::Qp {
        reason: "active-set iteration limit reached".into(),
    })
}

/// clarabel solve of the same QP (`verbose(false)`); statuses other than solved are errors.
pub(crate) fn clarabel(h: &[f64], q: &[f64]) -> Result<Vec<f64>> {
    let k = q.len();
    let (mut pi, mut pj, mut pv) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..k {
        for c in r..k {
            let v = h[r * k + c];
            if v != 0.0 {
                pi.push(r);
                pj.push(c);
                pv.push(v);
            }
        }
    }
    let p = CscMatrix::new_from_triplets(k, k, pi, pj, pv);
    let a = CscMatrix::new_from_triplets(k, k, (0..k).collect(), (0..k).collect(), vec![-1.0; k]);
    let b = vec![0.0; k];
    let cones = [SupportedConeT::NonnegativeConeT(k)];
    let settings = DefaultSettingsBuilder::default()
        .verbose(false)
        .tol_gap_abs(1e-12)
        .tol_gap_rel(1e-12)
        .tol_feas(1e-12)
        .tol_ktratio(1e-10)
        .build()
        .map_err(|e| E::Qp {
            reason: e.to_string(),
        })?;
    let mut solver = DefaultSolver::new(&p, q, &a, &b, &cones, settings).map_err(|e| E::Qp {
        reason: e.to_string(),
    })?;
    solver.solve();
    match solver.solution.status {
        SolverStatus::Solved | SolverStatus::AlmostSolved => {
            Ok(solver.solution.x.iter().map(|v| v.max(0.0)).collect())
        }
        other => Err(E::Qp {
            reason: format!("clarabel status {other:?}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// H = [[2, 1], [1, 2]], q = (−1, 1): optimum (1/2, 0) (hand-computed KKT: 2x₀ = 1,
    /// gradient of x₁ = x₀ + 1 > 0).
    #[test]
    fn both_solvers_hand_computed() {
        let h = [2.0, 1.0, 1.0, 2.0];
        let q = [-1.0, 1.0];
        let mut x = [0.0, 0.0];
        active_set(&h, &q, &mut x).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-14 && x[1].abs() < 1e-14);
        let y = clarabel(&h, &q).unwrap();
        assert!((y[0] - 0.5).abs() < 1e-8 && y[1].abs() < 1e-8);
        // Warm start from a wrong active set.
        let mut x = [3.0, 2.0];
        active_set(&h, &q, &mut x).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-14 && x[1].abs() < 1e-14);
    }
}
