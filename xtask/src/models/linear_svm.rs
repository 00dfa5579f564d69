//! A linear SVM: LIBLINEAR's L2-regularised squared-hinge ("L2-loss") primal, trained with
//! argmin's L-BFGS.
//!
//! ```text
//! minimise  (λ/2)‖w‖² + (1/n) Σ_i max(0, 1 − y_i (w·x_i + b))²,   y_i ∈ {−1, +1},  λ = 1/(C n)
//! ```
//!
//! which is LIBLINEAR's `½‖w‖² + C Σ_i max(0, 1 − y_i(w·x_i + b))²` divided by `C n` (the
//! intercept is not penalised). The squared hinge is continuously differentiable with a
//! Lipschitz gradient, so L-BFGS applies without smoothing. Prediction: class 1 when
//! `w·x + b > 0`.

use crate::models::lbfgs::LbfgsSettings;
use crate::models::ridge_linear::{self, MarginLoss, RidgeLinearProblem};
use crate::report::{Result, XtaskError};
use nalgebra::{DMatrix, DVector};

/// Settings of the linear SVM.
#[derive(Debug, Clone)]
pub struct LinearSvmParams {
    /// LIBLINEAR's `C` (1 by default).
    pub c: f64,
    /// Maximum L-BFGS iterations.
    pub max_iters: u64,
    /// Gradient-norm tolerance.
    pub tol_grad: f64,
}

impl Default for LinearSvmParams {
    fn default() -> Self {
        Self {
            c: 1.0,
            max_iters: 500,
            tol_grad: 1e-7,
        }
    }
}

/// A fitted linear SVM.
#[derive(Debug, Clone)]
pub struct LinearSvm {
    pub weights: DVector<f64>,
    pub intercept: f64,
    pub converged: bool,
}

/// The squared hinge `max(0, 1 − y z)²` with ±1 targets.
struct SquaredHinge;

impl MarginLoss for SquaredHinge {
    fn value(&self, z: f64, y: f64) -> f64 {
        let s = 1.0 - y * z;
        if s > 0.0 { s * s } else { 0.0 }
    }
    fn derivative(&self, z: f64, y: f64) -> f64 {
        // d/dz of max(0, 1 − y z)² is −2 y max(0, 1 − y z).
        let s = 1.0 - y * z;
        if s > 0.0 { -2.0 * y * s } else { 0.0 }
    }
}

impl LinearSvm {
    /// Fits on features `x` and binary labels `y` (class 1 positive).
    pub fn fit(x: &DMatrix<f64>, y: &[usize], params: &LinearSvmParams) -> Result<Self> {
        let fail = |reason: String| XtaskError::Training {
            model: "linear SVM",
            reason,
        };
        if y.len() != x.nrows() || y.iter().any(|&c| c > 1) || x.nrows() == 0 {
            return Err(fail("labels must be 0/1, one per row".into()));
        }
        if !(params.c.is_finite() && params.c > 0.0) {
            return Err(fail(format!("C must be finite and > 0, got {}", params.c)));
        }
        let problem = RidgeLinearProblem {
            x,
            y: DVector::from_iterator(y.len(), y.iter().map(|&c| if c == 1 { 1.0 } else { -1.0 })),
            l2: 1.0 / (params.c * x.nrows() as f64),
            loss: SquaredHinge,
        };
        let settings = LbfgsSettings {
            tol_grad: params.tol_grad,
            tol_cost: 1e-14,
            max_iters: params.max_iters,
        };
        let m = ridge_linear::fit(problem, &settings).map_err(fail)?;
        Ok(Self {
            weights: m.weights,
            intercept: m.intercept,
            converged: m.converged,
        })
    }

    /// Decision values `w·x + b`.
    pub fn decision_function(&self, x: &DMatrix<f64>) -> DVector<f64> {
        ridge_linear::decision_values(x, &self.weights, self.intercept)
    }

    /// 0/1 predictions (1 when the decision value is positive).
    pub fn predict(&self, x: &DMatrix<f64>) -> Vec<usize> {
        self.decision_function(x)
            .iter()
            .map(|&z| usize::from(z > 0.0))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use argmin::core::{CostFunction, Gradient};

    #[test]
    fn separates_a_simple_problem_and_gradient_matches_finite_differences() {
        let x = DMatrix::from_row_slice(6, 1, &[-3.0, -2.0, -1.0, 1.0, 2.0, 3.0]);
        let y = [0, 0, 0, 1, 1, 1];
        let m = LinearSvm::fit(&x, &y, &LinearSvmParams::default()).unwrap();
        assert_eq!(m.predict(&x), y.to_vec());
        let prob = RidgeLinearProblem {
            x: &x,
            y: DVector::from_vec(vec![-1., -1., 1., -1., 1., 1.]),
            l2: 0.1,
            loss: SquaredHinge,
        };
        let at = DVector::from_vec(vec![0.3, -0.2]);
        let g = prob.gradient(&at).unwrap();
        for k in 0..2 {
            let mut e = DVector::zeros(2);
            e[k] = 1e-6;
            let fd = (prob.cost(&(&at + &e)).unwrap() - prob.cost(&(&at - &e)).unwrap()) / 2e-6;
            assert!((fd - g[k]).abs() < 1e-6, "k={k}: {fd} vs {}", g[k]);
        }
    }
}
