//! The unconstrained start `w* = argmin f_0` (logistic loss on the cross-term model) by argmin's
//! L-BFGS — the first point of every Pareto frontier.

use crate::data::CrossData;
use crate::error::{DcOptError, Result};
use argmin::core::{CostFunction, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use nalgebra::DVector;
use std::cell::RefCell;

struct Loss<'a> {
    data: &'a CrossData,
    l2: f64,
    scores: RefCell<Vec<f64>>,
    coef: RefCell<Vec<f64>>,
    partials: RefCell<Vec<f64>>,
}

impl CostFunction for Loss<'_> {
    type Param = DVector<f64>;
    type Output = f64;
    fn cost(&self, w: &Self::Param) -> std::result::Result<f64, argmin::core::Error> {
        let mut s = self.scores.borrow_mut();
        self.data.scores_into(w.as_slice(), &mut s);
        Ok(self.data.logistic_loss(&s, &mut self.partials.borrow_mut())
            + 0.5 * self.l2 * w.norm_squared())
    }
}

impl Gradient for Loss<'_> {
    type Param = DVector<f64>;
    type Gradient = DVector<f64>;
    fn gradient(&self, w: &Self::Param) -> std::result::Result<Self::Param, argmin::core::Error> {
        let mut s = self.scores.borrow_mut();
        let mut c = self.coef.borrow_mut();
        self.data.scores_into(w.as_slice(), &mut s);
        self.data.logistic_coef(&s, &mut c);
        let mut g = w * self.l2;
        self.data
            .add_xt_mul(&c, 0..self.data.n_rows(), g.as_mut_slice());
        Ok(g)
    }
}

/// Fits `w* = argmin (1/n) Σ ln(1 + exp(−ζ_i ⟨w, x̃_i⟩)) + (l2/2)‖w‖²` by L-BFGS (memory 10,
/// Moré–Thuente line search) from `w = 0`, for at most `max_iters` iterations. The paper uses no
/// regulariser (`l2 = 0`); a tiny `l2` keeps separable data bounded.
///
/// # Errors
/// [`DcOptError::InvalidParameter`] for a negative or non-finite `l2` or `max_iters = 0`;
/// [`DcOptError::Numerical`] if L-BFGS fails.
pub fn fit_unconstrained(data: &CrossData, l2: f64, max_iters: u64) -> Result<Vec<f64>> {
    if !(l2.is_finite() && l2 >= 0.0) {
        return Err(DcOptError::InvalidParameter {
            name: "l2",
            value: format!("{l2}"),
            expected: "a finite value >= 0",
        });
    }
    if max_iters == 0 {
        return Err(DcOptError::InvalidParameter {
            name: "max_iters",
            value: "0".into(),
            expected: ">= 1",
        });
    }
    let fail = |e: argmin::core::Error| DcOptError::Numerical {
        stage: "L-BFGS (unconstrained start)",
        reason: e.to_string(),
    };
    let problem = Loss {
        data,
        l2,
        scores: RefCell::new(vec![0.0; data.n_rows()]),
        coef: RefCell::new(vec![0.0; data.n_rows()]),
        partials: RefCell::new(vec![0.0; data.n_chunks()]),
    };
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 10)
        .with_tolerance_grad(1e-7)
        .map_err(fail)?
        .with_tolerance_cost(1e-12)
        .map_err(fail)?;
    let res = Executor::new(problem, solver)
        .configure(|s| s.param(DVector::zeros(data.dim())).max_iters(max_iters))
        .run()
        .map_err(fail)?;
    let best = res
        .state()
        .get_best_param()
        .cloned()
        .ok_or_else(|| DcOptError::Numerical {
            stage: "L-BFGS (unconstrained start)",
            reason: "no iterate returned".into(),
        })?;
    Ok(best.as_slice().to_vec())
}
