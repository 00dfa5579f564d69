//! The linear fair SVM: plain (LSVM), mean-constrained (ZSVM) and spectral (SSVM), paper §4.1
//! and §5.1.

use crate::ccp::{self, FitReport, Iterate, Subproblems};
use crate::error::{Result, SolverFailure};
use crate::input::{TrainData, check_predict, validate};
use crate::params::{
    Common, CovarianceNormalisation, CovariancePenalty, MeanVector, SpectralFairSvmParams,
    SpectralFairSvmValidParams,
};
use crate::socp::{Cone, ConicProblem, Outcome, Row, quadratic_constraint};
use crate::spectral::GroupMoments;
use fair_data::Groups;
use nalgebra::{DMatrix, DVector};

/// A fitted linear fair SVM: score `s(x) = xᵀw + b`, prediction `sign(s(x))`.
///
/// Olfat & Aswani, "Spectral Algorithms for Computing Fair Support Vector Machines" (AISTATS
/// 2018), §4.1 and §5.1. With μ > 0 the fit is the spectral algorithm: the mean-constrained SVM
/// (eq. (5) with (8)) as warm start, then convex–concave iterations of eq. (23), each an SOCP
/// solved by clarabel, until the relative change of w falls below `tol` or `max_iter` is hit.
/// With μ = 0 one convex QP is solved (Zafar et al.'s SVM, or the plain SVM when d = ∞).
///
/// Labels are fairkit's 0/1 classes (class 1 is positive, the paper's y = +1) and the protected
/// attribute is two [`Groups`] (group code 1 is the paper's z = +1, code 0 is z = −1; merge a
/// many-group attribute with [`crate::one_vs_rest`]). Standardize the features first: λ, d and
/// μ act on the raw scale.
///
/// Speed: each convex–concave subproblem is solved on a *working set* of rows (`shrinking`,
/// on by default, as in LIBSVM): the rows whose margin `yᵢ(xᵢᵀw_k + b_k)` at the previous
/// iterate is below 1.5. Rows strictly outside the margin at the optimum carry no hinge and no
/// multiplier, and the problem on fewer rows is a relaxation, so a working-set solution that
/// leaves every dropped row outside the margin (to 1e-7) is the optimum over all rows; dropped
/// rows that end up violated are added and the subproblem is re-solved. The interior-point cost
/// per step is linear in the rows solved (each brings a dense p-vector), so on data where few
/// rows are near the margin this divides the cost several-fold; when more than 80% of the rows
/// qualify every row is used. [`crate::IterInfo::working_rows`] records the rows solved.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_svm::SpectralFairSvm;
/// use nalgebra::DMatrix;
/// // Feature 0 separates y; feature 1 is spread out only in group "wide".
/// let x = DMatrix::from_row_slice(8, 2, &[
///     -2.0, -3.0,  -1.0, 3.0,   1.0, -3.0,  2.0, 3.0,
///     -2.0, -0.1,  -1.0, 0.1,   1.0, -0.1,  2.0, 0.1,
/// ]);
/// let y = [0, 0, 1, 1, 0, 0, 1, 1];
/// let z = Groups::from_labels(&["wide", "wide", "wide", "wide", "narrow", "narrow", "narrow", "narrow"]);
/// let svm = SpectralFairSvm::params().lambda(0.1).d(0.1).mu(10.0).fit(&x, &y, &z)?;
/// assert!(svm.report().status.is_converged());
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

    /// Classes 0/1: class 1 (positive) when the score is ≥ 0.
    ///
    /// # Errors
    /// As [`SpectralFairSvm::decision_function`].
    pub fn predict(&self, x: &DMatrix<f64>) -> Result<Vec<usize>> {
        Ok(self
            .decision_function(x)?
            .iter()
            .map(|&s| usize::from(s >= 0.0))
            .collect())
    }
}

impl SpectralFairSvmParams {
    /// Validates the settings, then fits (see [`SpectralFairSvmValidParams::fit`]).
    ///
    /// # Errors
    /// [`crate::FairSvmError::InvalidParam`], then the errors of
    /// [`SpectralFairSvmValidParams::fit`].
    pub fn fit(&self, x: &DMatrix<f64>, y: &[usize], groups: &Groups) -> Result<SpectralFairSvm> {
        self.check_ref()?;
        self.0.fit(x, y, groups)
    }

    /// Validates the settings, then fits reporting every iteration to `observer` (see
    /// [`SpectralFairSvmValidParams::fit_with_observer`]).
    ///
    /// # Errors
    /// As [`SpectralFairSvmParams::fit`].
    pub fn fit_with_observer(
        &self,
        x: &DMatrix<f64>,
        y: &[usize],
        groups: &Groups,
        observer: &mut dyn fair_core::Observe<crate::IterInfo>,
    ) -> Result<SpectralFairSvm> {
        self.check_ref()?;
        self.0.fit_with_observer(x, y, groups, observer)
    }
}

impl SpectralFairSvmValidParams {
    /// Fits on features `x` (n × p), 0/1 class labels `y` (class 1 is positive, the paper's
    /// y = +1) and two sensitive `groups` (group code 1 — the second of [`Groups::names`] — is
    /// the paper's z = +1, code 0 is z = −1; the fit is symmetric in the two up to the sign of
    /// [`FitReport::mean_gap`] and [`FitReport::covariance_gap`]).
    ///
    /// # Errors
    /// [`crate::FairSvmError::Empty`], [`crate::FairSvmError::LengthMismatch`],
    /// [`crate::FairSvmError::GroupCount`] (not two groups),
    /// [`crate::FairSvmError::NonFinite`], [`crate::FairSvmError::InvalidLabel`] (a class other
    /// than 0 or 1), [`crate::FairSvmError::SingleClass`], [`crate::FairSvmError::EmptyGroup`]
    /// (a group without rows; for equal opportunity: without class-1 rows), [`crate::FairSvmError::Overflow`], and
    /// [`crate::FairSvmError::Solver`] when the warm-start QP cannot be solved. Iteration limits
    /// and later subproblem failures are reported in [`FitReport::status`], not as errors.
    pub fn fit(&self, x: &DMatrix<f64>, y: &[usize], groups: &Groups) -> Result<SpectralFairSvm> {
        self.fit_with_observer(x, y, groups, &mut fair_core::NoObserver)
    }

    /// [`SpectralFairSvmValidParams::fit`], reporting every iteration to `observer`
    /// ([`fair_core::Observe`]). When the observer returns
    /// [`ControlFlow::Break`](std::ops::ControlFlow::Break) the fit ends with `Ok`: the model is
    /// the last iterate and its report says [`fair_core::Termination::Interrupted`].
    ///
    /// # Errors
    /// As [`SpectralFairSvmValidParams::fit`].
    ///
    /// # Examples
    /// ```
    /// use fair_svm::{IterInfo, SpectralFairSvm, Termination};
    /// use fair_core::{ControlFlow, Groups};
    /// use nalgebra::DMatrix;
    ///
    /// let x = DMatrix::from_row_slice(6, 1, &[-1.0, 1.0, -3.0, 3.0, -0.5, 2.0]);
    /// let y = [0, 1, 0, 1, 0, 1];
    /// let z = Groups::from_codes(&[0, 0, 1, 1, 0, 1])?;
    /// // Record the slack τ of every iterate; stop after the first convex–concave iteration.
    /// let mut slacks = Vec::new();
    /// let mut log = |it: &IterInfo| {
    ///     slacks.push(it.slack);
    ///     if it.iteration == 1 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// };
    /// let svm = SpectralFairSvm::params().mu(1.0).tol(1e-12).check()?.fit_with_observer(&x, &y, &z, &mut log)?;
    /// assert_eq!(svm.report().status, Termination::Interrupted);
    /// assert_eq!(slacks.len(), svm.report().history.len()); // warm start + 1 iteration
    /// # Ok::<(), fair_svm::FairSvmError>(())
    /// ```
    pub fn fit_with_observer(
        &self,
        x: &DMatrix<f64>,
        y: &[usize],
        groups: &Groups,
        observer: &mut dyn fair_core::Observe<crate::IterInfo>,
    ) -> Result<SpectralFairSvm> {
        let data = validate(x, y, groups, self.common.fairness)?;
        let ddof = match self.covariance_normalisation {
            CovarianceNormalisation::Population => 0,
            CovarianceNormalisation::Sample => 1,
        };
        let moments = GroupMoments::from_rows_ddof(x, &data.pos, &data.neg, ddof)?;
        let raw = moments.mean_difference();
        // A zero mean difference leaves nothing to constrain; keep it raw rather than divide by 0.
        let m = match self.mean_vector {
            MeanVector::Unit if raw.norm() > 0.0 => raw / raw.norm(),
            _ => raw.clone(),
        };
        let problem = LinearProblem {
            data: &data,
            moments: &moments,
            settings: &self.common,
            shrinking: self.shrinking,
            mean_vector: &m,
            on_direction: self.covariance_penalty == CovariancePenalty::OnDirection,
        };
        let out = ccp::run(&problem, &self.common, |it| m.dot(&it.change), observer)?;
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
    shrinking: bool,
    /// `m` of the mean constraint (raw or unit length).
    mean_vector: &'a DVector<f64>,
    /// The penalty acts on `w/‖w‖` ([`CovariancePenalty::OnDirection`]).
    on_direction: bool,
}

/// Below this ‖w_k‖ the direction penalty's `1/‖w_k‖²` is not formed (the plain penalty is
/// used for that subproblem).
const DIRECTION_MIN_NORM: f64 = 1e-9;

impl LinearProblem<'_> {
    /// `F(w, b) = (1/n)Σ hinge + λ‖w‖² + μ|wᵀ(Σ₊ − Σ₋)w|` (divided by ‖w‖² for the direction
    /// penalty).
    fn objective(&self, w: &DVector<f64>, b: f64) -> (f64, f64) {
        let (x, y) = (self.data.x, &self.data.y);
        let scores = x * w;
        let hinge: f64 = scores
            .iter()
            .zip(y)
            .map(|(&s, &yi)| (1.0 - yi * (s + b)).max(0.0))
            .sum::<f64>()
            / x.nrows() as f64;
        let gap = self.moments.covariance_gap(w);
        let penalty = if self.on_direction {
            let norm2 = w.norm_squared();
            if norm2 > 0.0 { gap.abs() / norm2 } else { 0.0 }
        } else {
            gap.abs()
        };
        let f = hinge + self.settings.lambda * w.norm_squared() + self.settings.mu * penalty;
        (f, gap)
    }
}

/// Rows whose margin `yᵢ(xᵢᵀw + b)` at the previous iterate is below `1 + WORKING_MARGIN` form
/// the working set of the next subproblem.
const WORKING_MARGIN: f64 = 0.5;
/// A row outside the working set counts as violated when its margin at the new solution is
/// below `1 − VIOLATION_TOL`; its hinge term is then at most `VIOLATION_TOL / n` when ignored.
const VIOLATION_TOL: f64 = 1e-7;
/// Above this fraction of the rows the working set is not worth it: solve with every row.
const WORKING_SET_MAX_FRACTION: f64 = 0.8;

/// One solved conic subproblem on a subset of the rows.
struct RowSolution {
    w: DVector<f64>,
    b: f64,
    tau: f64,
    accuracy: crate::socp::Accuracy,
    iterations: u32,
}

impl LinearProblem<'_> {
    /// `yᵢ(xᵢᵀw + b)` for every row.
    fn margins(&self, w: &DVector<f64>, b: f64) -> Vec<f64> {
        let s = self.data.x * w;
        s.iter()
            .zip(&self.data.y)
            .map(|(&si, &yi)| yi * (si + b))
            .collect()
    }

    /// The working set at a point: rows with margin below `1 + WORKING_MARGIN`, or `None` (use
    /// every row) when that is most rows or misses a label class (the reduced problem would be
    /// unbounded in b).
    fn working_set(&self, margins: &[f64], keep: &[bool]) -> Option<Vec<usize>> {
        let y = &self.data.y;
        let rows: Vec<usize> = (0..margins.len())
            .filter(|&i| keep[i] || margins[i] < 1.0 + WORKING_MARGIN)
            .collect();
        let has = |positive: bool| rows.iter().any(|&i| (y[i] > 0.0) == positive);
        if rows.len() as f64 > WORKING_SET_MAX_FRACTION * margins.len() as f64
            || !has(true)
            || !has(false)
        {
            None
        } else {
            Some(rows)
        }
    }

    /// Problem (5) + (8) (+ the linearised covariance terms of (23) at `anchor`) restricted to
    /// `rows` (all rows when `None`); the averaging weight stays 1/n.
    fn solve_rows(
        &self,
        anchor: Option<&DVector<f64>>,
        rows: Option<&[usize]>,
    ) -> Result<std::result::Result<RowSolution, SolverFailure>> {
        let (x, y) = (self.data.x, &self.data.y);
        let (n, p) = (x.nrows(), x.ncols());
        let all: Vec<usize>;
        let rows = match rows {
            Some(r) => r,
            None => {
                all = (0..n).collect();
                &all
            }
        };
        let k = rows.len();
        let (b_col, u0) = (p, p + 1);
        let tau = p + 1 + k;
        let n_vars = if anchor.is_some() { tau + 1 } else { tau };
        let mut prob = ConicProblem::new(n_vars);
        for j in 0..p {
            prob.p(j, j, 2.0 * self.settings.lambda);
        }
        for r in 0..k {
            prob.q(u0 + r, 1.0 / n as f64);
        }
        // Hinge: −yᵢxᵢᵀw − yᵢb − uᵢ ≤ −1, and −uᵢ ≤ 0.
        let mut cons = Vec::with_capacity(2 * k + 2);
        for (r, &i) in rows.iter().enumerate() {
            let mut e: Vec<(usize, f64)> = (0..p).map(|j| (j, -y[i] * x[(i, j)])).collect();
            e.push((b_col, -y[i]));
            e.push((u0 + r, -1.0));
            cons.push(Row::new(e, -1.0));
            cons.push(Row::new(vec![(u0 + r, -1.0)], 0.0));
        }
        let d = self.settings.d;
        let m = self.mean_vector;
        if d.is_finite() {
            let e: Vec<(usize, f64)> = m.iter().enumerate().map(|(j, &v)| (j, v)).collect();
            if d > 0.0 {
                let neg = e.iter().map(|&(j, v)| (j, -v)).collect();
                cons.push(Row::new(e, d));
                cons.push(Row::new(neg, d));
            } else {
                prob.block(Cone::Zero, vec![Row::new(e, 0.0)]);
            }
        }
        prob.block(Cone::Nonnegative, cons);
        if let Some(wk) = anchor {
            let norm2 = wk.norm_squared();
            if self.on_direction && norm2.sqrt() > DIRECTION_MIN_NORM {
                // μ|q(w)|/‖w‖² with 1/‖w_k‖² frozen on τ, plus the linearisation of
                // |q(w_k)|·(1/‖w‖²) at w_k: −2μ|q(w_k)| w_kᵀw / ‖w_k‖⁴.
                let mu = self.settings.mu;
                prob.q(tau, mu / norm2);
                let qk = self.moments.covariance_gap(wk).abs();
                for j in 0..p {
                    prob.q(j, -2.0 * mu * qk * wk[j] / (norm2 * norm2));
                }
            } else {
                prob.q(tau, self.settings.mu);
            }
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
        Ok(Ok(RowSolution {
            w: DVector::from_column_slice(&sol.x[..p]),
            b: sol.x[b_col],
            tau: if anchor.is_some() {
                sol.x[tau]
            } else {
                f64::NAN
            },
            accuracy: sol.accuracy,
            iterations: sol.iterations,
        }))
    }
}

impl Subproblems for LinearProblem<'_> {
    /// The intercept b.
    type State = f64;

    /// Solves the subproblem exactly on a working set of rows. A row strictly outside the
    /// margin at the optimum has zero hinge and zero multiplier, so dropping it does not move
    /// the optimum; conversely, the problem on fewer rows is a relaxation, so a solution of it
    /// that keeps every dropped row outside the margin is optimal for all rows. The working set
    /// comes from the previous iterate's margins; dropped rows that end up violated are added
    /// and the subproblem re-solved, until none is (at most until every row is in).
    fn solve(
        &self,
        previous: Option<&Iterate<f64>>,
    ) -> Result<std::result::Result<Iterate<f64>, SolverFailure>> {
        let n = self.data.x.nrows();
        let anchor = previous.map(|it| &it.anchor);
        let mut in_set = vec![false; n];
        let mut rows = previous.filter(|_| self.shrinking).and_then(|it| {
            let margins = self.margins(&it.change, it.state);
            self.working_set(&margins, &in_set)
        });
        let mut iterations = 0;
        let mut solves = 0;
        let sol = loop {
            let sol = match self.solve_rows(anchor, rows.as_deref())? {
                Ok(sol) => sol,
                Err(f) => return Ok(Err(f)),
            };
            iterations += sol.iterations;
            solves += 1;
            let Some(current) = &rows else {
                break sol;
            };
            for &i in current {
                in_set[i] = true;
            }
            let margins = self.margins(&sol.w, sol.b);
            let violated = (0..n).any(|i| !in_set[i] && margins[i] < 1.0 - VIOLATION_TOL);
            if !violated {
                break sol;
            }
            rows = self.working_set(&margins, &in_set);
        };
        let working_rows = rows.as_ref().map_or(n, Vec::len);
        let (objective, covariance_gap) = self.objective(&sol.w, sol.b);
        Ok(Ok(Iterate {
            anchor: sol.w.clone(),
            change: sol.w,
            tau: sol.tau,
            objective,
            covariance_gap,
            accuracy: sol.accuracy,
            solver_iterations: iterations,
            working_rows,
            solves,
            state: sol.b,
        }))
    }
}
