//! The linear fair SVM: plain (LSVM), mean-constrained (ZSVM) and spectral (SSVM), paper §4.1
//! and §5.1.

use crate::ccp::{self, FitReport, Iterate, Subproblems};
use crate::error::{Result, SolverFailure};
use crate::input::{TrainData, check_predict, validate};
use crate::params::{Common, SpectralFairSvmParams, SpectralFairSvmValidParams};
use crate::socp::{Cone, ConicProblem, Outcome, Row, quadratic_constraint};
use crate::spectral::GroupMoments;
use nalgebra::{DMatrix, DVector};

/// A fitted linear fair SVM: score `s(x) = xᵀw + b`, prediction `sign(s(x))`.
///
/// Olfat & Aswani, "Spectral Algorithms for Computing Fair Support Vector Machines" (AISTATS
/// 2018), §4.1 and §5.1. With μ > 0 the fit is the spectral algorithm: the mean-constrained SVM
/// (eq. (5) with (8)) as warm start, then convex–concave iterations of eq. (23), each an SOCP
/// solved by clarabel, until the relative change of w falls below `tol` or `max_iter` is hit.
/// With μ = 0 one convex QP is solved (Zafar et al.'s SVM, or the plain SVM when d = ∞).
///
/// Labels and protected classes are ±1 (`signs_from_classes`, `signs_from_groups` map fairkit's
/// 0/1 classes and groups). Standardize the features first: λ, d and μ act on the raw scale.
///
/// # Examples
/// ```
/// use fair_svm::SpectralFairSvm;
/// use nalgebra::DMatrix;
/// // Feature 0 separates y; feature 1 is spread out only in the z = +1 group.
/// let x = DMatrix::from_row_slice(8, 2, &[
///     -2.0, -3.0,  -1.0, 3.0,   1.0, -3.0,  2.0, 3.0,
///     -2.0, -0.1,  -1.0, 0.1,   1.0, -0.1,  2.0, 0.1,
/// ]);
/// let y = [-1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0];
/// let z = [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0];
/// let svm = SpectralFairSvm::params().lambda(0.1).d(0.1).mu(10.0).fit(&x, &y, &z)?;
/// assert!(svm.report().status.is_success());
/// assert_eq!(svm.predict(&x)?, y.to_vec());
/// // The covariance penalty keeps weight off the feature whose spread differs by group.
/// assert!(svm.weights()[1].abs() < 1e-3);
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SpectralFairSvm {
    weights: DVector<f64>,
    intercept: f64,
    params: SpectralFairSvmValidParams,
    moments: GroupMoments,
    report: FitReport,
}

impl SpectralFairSvm {
    /// Default settings (see [`SpectralFairSvmParams`]).
    pub fn params() -> SpectralFairSvmParams {
        SpectralFairSvmParams::default()
    }
    /// The weight vector w.
    pub fn weights(&self) -> &DVector<f64> {
        &self.weights
    }
    /// The intercept b.
    pub fn intercept(&self) -> f64 {
        self.intercept
    }
    /// The settings the model was fitted with.
    pub fn fitted_params(&self) -> &SpectralFairSvmValidParams {
        &self.params
    }
    /// The training data's group moments (mean difference, covariances, spectral split).
    pub fn moments(&self) -> &GroupMoments {
        &self.moments
    }
    /// Diagnostics of the fit.
    pub fn report(&self) -> &FitReport {
        &self.report
    }

    /// Scores `xᵀw + b` (the intercept does not change Δ or AUC).
    ///
    /// # Errors
    /// [`crate::FairSvmError::LengthMismatch`] for a different number of features,
    /// [`crate::FairSvmError::NonFinite`] for NaN/inf.
    pub fn decision_function(&self, x: &DMatrix<f64>) -> Result<DVector<f64>> {
        check_predict(x, self.weights.len())?;
        Ok(x * &self.weights).map(|s| s.add_scalar(self.intercept))
    }

    /// Labels ±1: `+1` when the score is ≥ 0.
    ///
    /// # Errors
    /// As [`SpectralFairSvm::decision_function`].
    pub fn predict(&self, x: &DMatrix<f64>) -> Result<Vec<f64>> {
        Ok(self
            .decision_function(x)?
            .iter()
            .map(|&s| if s >= 0.0 { 1.0 } else { -1.0 })
            .collect())
    }
}

impl SpectralFairSvmParams {
    /// Validates the settings, then fits (see [`SpectralFairSvmValidParams::fit`]).
    ///
    /// # Errors
    /// [`crate::FairSvmError::InvalidParam`], then the errors of
    /// [`SpectralFairSvmValidParams::fit`].
    pub fn fit(&self, x: &DMatrix<f64>, y: &[f64], z: &[f64]) -> Result<SpectralFairSvm> {
        self.check_ref()?;
        self.0.fit(x, y, z)
    }
}

impl SpectralFairSvmValidParams {
    /// Fits on features `x` (n × p), labels `y ∈ {−1, +1}ⁿ` and protected classes
    /// `z ∈ {−1, +1}ⁿ`.
    ///
    /// # Errors
    /// [`crate::FairSvmError::Empty`], [`crate::FairSvmError::LengthMismatch`],
    /// [`crate::FairSvmError::NonFinite`], [`crate::FairSvmError::InvalidLabel`],
    /// [`crate::FairSvmError::SingleClass`], [`crate::FairSvmError::EmptyGroup`] (for equal
    /// opportunity: no y = +1 row in a class), [`crate::FairSvmError::Overflow`], and
    /// [`crate::FairSvmError::Solver`] when the warm-start QP cannot be solved. Iteration limits
    /// and later subproblem failures are reported in [`FitReport::status`], not as errors.
    pub fn fit(&self, x: &DMatrix<f64>, y: &[f64], z: &[f64]) -> Result<SpectralFairSvm> {
        let data = validate(x, y, z, self.common.fairness)?;
        let moments = GroupMoments::from_rows(x, &data.pos, &data.neg)?;
        let problem = LinearProblem {
            data: &data,
            moments: &moments,
            settings: &self.common,
        };
        let m = moments.mean_difference().clone();
        let out = ccp::run(&problem, &self.common, |it| m.dot(&it.change))?;
        Ok(SpectralFairSvm {
            weights: out.last.change,
            intercept: out.last.state,
            params: self.clone(),
            moments,
            report: out.report,
        })
    }
}

struct LinearProblem<'a> {
    data: &'a TrainData<'a>,
    moments: &'a GroupMoments,
    settings: &'a Common,
}

impl LinearProblem<'_> {
    /// `F(w, b) = (1/n)Σ hinge + λ‖w‖² + μ|wᵀ(Σ₊ − Σ₋)w|`.
    fn objective(&self, w: &DVector<f64>, b: f64) -> (f64, f64) {
        let (x, y) = (self.data.x, self.data.y);
        let scores = x * w;
        let hinge: f64 = scores
            .iter()
            .zip(y)
            .map(|(&s, &yi)| (1.0 - yi * (s + b)).max(0.0))
            .sum::<f64>()
            / x.nrows() as f64;
        let gap = self.moments.covariance_gap(w);
        let f = hinge + self.settings.lambda * w.norm_squared() + self.settings.mu * gap.abs();
        (f, gap)
    }
}

impl Subproblems for LinearProblem<'_> {
    /// The intercept b.
    type State = f64;

    fn solve(
        &self,
        anchor: Option<&DVector<f64>>,
    ) -> Result<std::result::Result<Iterate<f64>, SolverFailure>> {
        let (x, y) = (self.data.x, self.data.y);
        let (n, p) = (x.nrows(), x.ncols());
        let (b_col, u0) = (p, p + 1);
        let tau = p + 1 + n;
        let n_vars = if anchor.is_some() { tau + 1 } else { tau };
        let mut prob = ConicProblem::new(n_vars);
        for j in 0..p {
            prob.p(j, j, 2.0 * self.settings.lambda);
        }
        for i in 0..n {
            prob.q(u0 + i, 1.0 / n as f64);
        }
        // Hinge: −yᵢxᵢᵀw − yᵢb − uᵢ ≤ −1, and −uᵢ ≤ 0.
        let mut rows = Vec::with_capacity(2 * n + 2);
        for i in 0..n {
            let mut e: Vec<(usize, f64)> = (0..p).map(|j| (j, -y[i] * x[(i, j)])).collect();
            e.push((b_col, -y[i]));
            e.push((u0 + i, -1.0));
            rows.push(Row::new(e, -1.0));
            rows.push(Row::new(vec![(u0 + i, -1.0)], 0.0));
        }
        let d = self.settings.d;
        let m = self.moments.mean_difference();
        if d.is_finite() {
            let e: Vec<(usize, f64)> = m.iter().enumerate().map(|(j, &v)| (j, v)).collect();
            if d > 0.0 {
                let neg = e.iter().map(|&(j, v)| (j, -v)).collect();
                rows.push(Row::new(e, d));
                rows.push(Row::new(neg, d));
            } else {
                prob.block(Cone::Zero, vec![Row::new(e, 0.0)]);
            }
        }
        prob.block(Cone::Nonnegative, rows);
        if let Some(wk) = anchor {
            prob.q(tau, self.settings.mu);
            let split = self.moments.split();
            let g1 = split.negative() * wk;
            let c1 = wk.dot(&g1);
            quadratic_constraint(&mut prob, split.factor_positive(), &g1, c1, 0, tau);
            let g2 = split.positive() * wk;
            let c2 = wk.dot(&g2);
            quadratic_constraint(&mut prob, split.factor_negative(), &g2, c2, 0, tau);
        }
        let sol = match prob.solve(self.settings.solver_max_iter)? {
            Outcome::Solved(s) => s,
            Outcome::Failed(f) => return Ok(Err(f)),
        };
        let w = DVector::from_column_slice(&sol.x[..p]);
        let b = sol.x[b_col];
        let t = if anchor.is_some() {
            sol.x[tau]
        } else {
            f64::NAN
        };
        let (objective, covariance_gap) = self.objective(&w, b);
        Ok(Ok(Iterate {
            anchor: w.clone(),
            change: w,
            tau: t,
            objective,
            covariance_gap,
            accuracy: sol.accuracy,
            solver_iterations: sol.iterations,
            state: b,
        }))
    }
}
