//! Linear models with an intercept trained by minimising a mean margin loss plus a ridge
//! penalty on the weights:
//!
//! ```text
//! minimise  (1/n) Σ_i ℓ(z_i, y_i) + (λ/2)‖β‖²,   z_i = x_iᵀβ + b   (b not penalised)
//! ```
//!
//! Logistic regression and the squared-hinge SVM differ only in ℓ, so the cost, the gradient
//! `Xᵀr + λβ` (with `r_i = ℓ'(z_i, y_i)/n`) and the L-BFGS fit live here once.

use crate::models::lbfgs::{LbfgsSettings, minimize};
use argmin::core::{CostFunction, Gradient};
use nalgebra::{DMatrix, DVector};

/// A per-row loss of the margin `z` against the target `y`, differentiable in `z`.
pub trait MarginLoss {
    /// ℓ(z, y).
    fn value(&self, z: f64, y: f64) -> f64;
    /// ∂ℓ/∂z at (z, y).
    fn derivative(&self, z: f64, y: f64) -> f64;
}

/// The ridge-penalised mean-loss problem over the parameter vector `[β; b]`.
pub struct RidgeLinearProblem<'a, L> {
    pub x: &'a DMatrix<f64>,
    pub y: DVector<f64>,
    pub l2: f64,
    pub loss: L,
}

impl<L> RidgeLinearProblem<'_, L> {
    fn margins(&self, p: &DVector<f64>) -> DVector<f64> {
        let d = self.x.ncols();
        let mut z = self.x * p.rows(0, d);
        z.add_scalar_mut(p[d]);
        z
    }
}

impl<L: MarginLoss> CostFunction for RidgeLinearProblem<'_, L> {
    type Param = DVector<f64>;
    type Output = f64;
    fn cost(&self, p: &Self::Param) -> std::result::Result<f64, argmin::core::Error> {
        let z = self.margins(p);
        let n = z.len() as f64;
        let loss: f64 = z
            .iter()
            .zip(self.y.iter())
            .map(|(&z, &y)| self.loss.value(z, y))
            .sum::<f64>()
            / n;
        let d = self.x.ncols();
        Ok(loss + 0.5 * self.l2 * p.rows(0, d).norm_squared())
    }
}

impl<L: MarginLoss> Gradient for RidgeLinearProblem<'_, L> {
    type Param = DVector<f64>;
    type Gradient = DVector<f64>;
    fn gradient(&self, p: &Self::Param) -> std::result::Result<DVector<f64>, argmin::core::Error> {
        let z = self.margins(p);
        let n = z.len() as f64;
        let r = DVector::from_iterator(
            z.len(),
            z.iter()
                .zip(self.y.iter())
                .map(|(&z, &y)| self.loss.derivative(z, y) / n),
        );
        let d = self.x.ncols();
        let mut g = DVector::zeros(d + 1);
        g.rows_mut(0, d)
            .copy_from(&(self.x.tr_mul(&r) + p.rows(0, d) * self.l2));
        g[d] = r.sum();
        Ok(g)
    }
}

/// Weights, intercept and how the L-BFGS run ended.
pub struct FittedLinear {
    pub weights: DVector<f64>,
    pub intercept: f64,
    pub iterations: u64,
    pub converged: bool,
}

/// Decision values `xᵀβ + b` of the rows of `x`.
pub fn decision_values(x: &DMatrix<f64>, weights: &DVector<f64>, intercept: f64) -> DVector<f64> {
    let mut z = x * weights;
    z.add_scalar_mut(intercept);
    z
}

/// Fits the problem with L-BFGS from zero; errors come back as text for the caller's typed error.
pub fn fit<L: MarginLoss>(
    problem: RidgeLinearProblem<'_, L>,
    settings: &LbfgsSettings,
) -> Result<FittedLinear, String> {
    let d = problem.x.ncols();
    let out = minimize(problem, d + 1, settings)?;
    Ok(FittedLinear {
        weights: out.best.rows(0, d).into_owned(),
        intercept: out.best[d],
        iterations: out.iterations,
        converged: out.converged,
    })
}
