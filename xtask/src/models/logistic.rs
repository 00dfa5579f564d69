//! L2-regularised logistic regression trained with argmin's L-BFGS.
//!
//! ```text
//! minimise  (1/n) Σ_i [log(1 + e^{z_i}) − y_i z_i] + (λ/2)‖β‖²,   z_i = x_iᵀβ + b
//! ```
//! (the intercept b is not penalised).

use crate::models::lbfgs::LbfgsSettings;
use crate::models::ridge_linear::{self, MarginLoss, RidgeLinearProblem};
use crate::report::{Result, XtaskError};
use nalgebra::{DMatrix, DVector};

/// Settings of the logistic regression.
#[derive(Debug, Clone)]
pub struct LogisticParams {
    /// Ridge penalty λ on the weights (not the intercept).
    pub l2: f64,
    /// Maximum L-BFGS iterations.
    pub max_iters: u64,
    /// Gradient-norm tolerance.
    pub tol_grad: f64,
}

impl Default for LogisticParams {
    fn default() -> Self {
        Self {
            l2: 1e-4,
            max_iters: 500,
            tol_grad: 1e-6,
        }
    }
}

/// A fitted model: weights, intercept and how training ended.
#[derive(Debug, Clone)]
pub struct Logistic {
    pub weights: DVector<f64>,
    pub intercept: f64,
    pub iterations: u64,
    pub converged: bool,
}

/// The log loss `log(1 + e^z) − y z` with 0/1 targets.
struct LogLoss;

impl MarginLoss for LogLoss {
    fn value(&self, z: f64, y: f64) -> f64 {
        log1p_exp(z) - y * z
    }
    fn derivative(&self, z: f64, y: f64) -> f64 {
        sigmoid(z) - y
    }
}

fn log1p_exp(z: f64) -> f64 {
    // Stable log(1 + e^z) for large |z|.
    if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

impl Logistic {
    /// Fits on features `x` and binary labels `y` (class 1 positive).
    pub fn fit(x: &DMatrix<f64>, y: &[usize], params: &LogisticParams) -> Result<Self> {
        let fail = |reason: String| XtaskError::Training {
            model: "logistic regression",
            reason,
        };
        if y.len() != x.nrows() || y.iter().any(|&c| c > 1) {
            return Err(fail("labels must be 0/1, one per row".into()));
        }
        let problem = RidgeLinearProblem {
            x,
            y: DVector::from_iterator(y.len(), y.iter().map(|&c| c as f64)),
            l2: params.l2,
            loss: LogLoss,
        };
        let settings = LbfgsSettings {
            tol_grad: params.tol_grad,
            tol_cost: 1e-12,
            max_iters: params.max_iters,
        };
        let m = ridge_linear::fit(problem, &settings).map_err(fail)?;
        Ok(Self {
            weights: m.weights,
            intercept: m.intercept,
            iterations: m.iterations,
            converged: m.converged,
        })
    }

    /// Scores (log-odds) of the rows of `x`.
    pub fn decision_function(&self, x: &DMatrix<f64>) -> DVector<f64> {
        ridge_linear::decision_values(x, &self.weights, self.intercept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use argmin::core::{CostFunction, Gradient};

    #[test]
    fn separates_a_simple_problem_and_gradient_matches_finite_differences() {
        let x = DMatrix::from_row_slice(6, 1, &[-3.0, -2.0, -1.0, 1.0, 2.0, 3.0]);
        let y = [0, 0, 1, 0, 1, 1];
        let m = Logistic::fit(&x, &y, &LogisticParams::default()).unwrap();
        assert!(m.weights[0] > 0.0);
        let z = m.decision_function(&x);
        assert!(z[0] < 0.0 && z[5] > 0.0);

        let prob = RidgeLinearProblem {
            x: &x,
            y: DVector::from_vec(vec![0., 0., 1., 0., 1., 1.]),
            l2: 0.1,
            loss: LogLoss,
        };
        let at = DVector::from_vec(vec![0.3, -0.2]);
        let g = prob.gradient(&at).unwrap();
        for k in 0..2 {
            let mut e = DVector::zeros(2);
            e[k] = 1e-6;
            let fd = (prob.cost(&(&at + &e)).unwrap() - prob.cost(&(&at - &e)).unwrap()) / 2e-6;
            assert!((fd - g[k]).abs() < 1e-7, "k={k}: {fd} vs {}", g[k]);
        }
    }
}
