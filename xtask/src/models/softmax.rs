//! Multinomial (softmax) logistic regression trained with argmin's L-BFGS: the multi-class
//! logistic-regression base of the FairProjection reproduction (sklearn's
//! `LogisticRegression` is multinomial with an L2 penalty by default).
//!
//! ```text
//! minimise  (1/n) Σ_i [logsumexp(z_i) − z_{i,y_i}] + (λ/2)‖W‖²,   z_i = Wᵀx_i + b
//! ```
//! (intercepts not penalised). For two classes this is the binary logistic regression.

use crate::models::lbfgs::{LbfgsSettings, minimize};
use crate::report::{Result, XtaskError};
use argmin::core::{CostFunction, Gradient};
use nalgebra::{DMatrix, DVector};

/// A fitted softmax regression: weights `(d + 1) × C` (last row = intercepts).
#[derive(Debug, Clone)]
pub struct Softmax {
    pub weights: DMatrix<f64>,
}

struct Problem<'a> {
    x: &'a DMatrix<f64>,
    y: &'a [usize],
    c: usize,
    l2: f64,
}

impl Problem<'_> {
    fn unpack(&self, p: &DVector<f64>) -> DMatrix<f64> {
        DMatrix::from_column_slice(self.x.ncols() + 1, self.c, p.as_slice())
    }
    /// Row-wise probabilities and the mean loss.
    fn forward(&self, w: &DMatrix<f64>) -> (DMatrix<f64>, f64) {
        let probs = predict(self.x, w);
        let loss = self
            .y
            .iter()
            .enumerate()
            .map(|(i, &yi)| -probs[(i, yi)].max(1e-300).ln())
            .sum::<f64>()
            / self.x.nrows() as f64;
        (probs, loss)
    }
}

fn predict(x: &DMatrix<f64>, w: &DMatrix<f64>) -> DMatrix<f64> {
    let d = x.ncols();
    let mut z = x * w.rows(0, d);
    for mut row in z.row_iter_mut() {
        for (k, v) in row.iter_mut().enumerate() {
            *v += w[(d, k)];
        }
        let m = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut s = 0.0;
        for v in row.iter_mut() {
            *v = (*v - m).exp();
            s += *v;
        }
        for v in row.iter_mut() {
            *v /= s;
        }
    }
    z
}

impl CostFunction for Problem<'_> {
    type Param = DVector<f64>;
    type Output = f64;
    fn cost(&self, p: &Self::Param) -> std::result::Result<f64, argmin::core::Error> {
        let w = self.unpack(p);
        let d = self.x.ncols();
        let (_, loss) = self.forward(&w);
        Ok(loss + 0.5 * self.l2 * w.rows(0, d).norm_squared())
    }
}

impl Gradient for Problem<'_> {
    type Param = DVector<f64>;
    type Gradient = DVector<f64>;
    fn gradient(&self, p: &Self::Param) -> std::result::Result<DVector<f64>, argmin::core::Error> {
        let w = self.unpack(p);
        let (n, d) = self.x.shape();
        let (mut r, _) = self.forward(&w);
        for (i, &yi) in self.y.iter().enumerate() {
            r[(i, yi)] -= 1.0;
        }
        r /= n as f64;
        let mut g = DMatrix::zeros(d + 1, self.c);
        g.rows_mut(0, d)
            .copy_from(&(self.x.tr_mul(&r) + w.rows(0, d) * self.l2));
        for k in 0..self.c {
            g[(d, k)] = r.column(k).sum();
        }
        Ok(DVector::from_column_slice(g.as_slice()))
    }
}

impl Softmax {
    /// Fits on standardized features `x` and labels in `0..n_classes`.
    pub fn fit(
        x: &DMatrix<f64>,
        y: &[usize],
        n_classes: usize,
        l2: f64,
        max_iters: u64,
    ) -> Result<Self> {
        let fail = |reason: String| XtaskError::Training {
            model: "softmax regression",
            reason,
        };
        if y.len() != x.nrows() || y.iter().any(|&c| c >= n_classes) {
            return Err(fail("labels must be in 0..n_classes, one per row".into()));
        }
        let problem = Problem {
            x,
            y,
            c: n_classes,
            l2,
        };
        let settings = LbfgsSettings {
            tol_grad: 1e-7,
            tol_cost: 1e-12,
            max_iters,
        };
        let best = minimize(problem, (x.ncols() + 1) * n_classes, &settings)
            .map_err(fail)?
            .best;
        Ok(Self {
            weights: DMatrix::from_column_slice(x.ncols() + 1, n_classes, best.as_slice()),
        })
    }

    /// Class probabilities (rows sum to 1).
    pub fn predict_proba(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        predict(x, &self.weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradient_matches_finite_differences_and_fits_three_classes() {
        let x = DMatrix::from_row_slice(6, 1, &[-3.0, -2.0, 0.1, -0.1, 2.0, 3.0]);
        let y = [0, 0, 1, 1, 2, 2];
        let prob = Problem {
            x: &x,
            y: &y,
            c: 3,
            l2: 0.1,
        };
        let at = DVector::from_vec(vec![0.3, -0.2, 0.1, 0.05, 0.2, -0.4]);
        let g = prob.gradient(&at).unwrap();
        for k in 0..6 {
            let mut e = DVector::zeros(6);
            e[k] = 1e-6;
            let fd = (prob.cost(&(&at + &e)).unwrap() - prob.cost(&(&at - &e)).unwrap()) / 2e-6;
            assert!((fd - g[k]).abs() < 1e-7, "k={k}: {fd} vs {}", g[k]);
        }
        let m = Softmax::fit(&x, &y, 3, 1e-4, 500).unwrap();
        let p = m.predict_proba(&x);
        assert!(p[(0, 0)] > 0.5 && p[(5, 2)] > 0.5);
        assert!((p.row(2).sum() - 1.0).abs() < 1e-12);
    }
}
