//! The convex–concave procedure, written once for the linear and the kernel model, and the
//! report it produces.

use crate::error::{FairSvmError, Result, SolverFailure};
use crate::params::Common;
use crate::socp::Accuracy;
use fair_core::{Observe, Termination};
use nalgebra::DVector;
use std::fmt;
use std::time::{Duration, Instant};

/// Relative objective decrease below which the iterations are stationary.
pub(crate) const OBJECTIVE_STALL: f64 = 1e-10;

/// One convex–concave iteration (iteration 0 is the mean-constrained warm start): what the
/// observer ([`fair_core::Observe`]) sees, and one entry of [`FitReport::history`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IterInfo {
    /// 0 for the warm start, then 1, 2, …
    pub iteration: usize,
    /// The penalised objective `F` at this iterate (see [`FitReport::objective`]).
    pub objective: f64,
    /// The signed covariance gap `wᵀ(Σ₊ − Σ₋)w` (kernel: `βᵀ(S₊ − S₋)β`).
    pub covariance_gap: f64,
    /// The signed mean gap `mᵀw` (kernel: `k_mᵀβ`), the value of the mean constraint
    /// `|mᵀw| ≤ d`.
    pub mean_gap: f64,
    /// The epigraph variable τ of this subproblem (NaN for the warm start).
    pub slack: f64,
    /// `‖v_{k} − v_{k−1}‖ / ‖v_{k−1}‖` (NaN for the warm start).
    pub relative_change: f64,
    /// Training rows in the last subproblem solved for this iterate (linear model: the working
    /// set of rows at or inside the margin, see [`crate::SpectralFairSvm`]; kernel model: n).
    pub working_rows: usize,
    /// Conic subproblems solved for this iterate (more than 1 when rows outside the working set
    /// violated the margin and were added).
    pub solves: usize,
}

/// Diagnostics of a fit: status, iterations, objective, fairness terms, timing.
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    /// How the fit ended: [`Termination::Converged`] (the relative change of the iterate fell
    /// below `tol`, or the objective decreased by less than 1e-10 · max(1, |F|), or μ = 0 and one
    /// convex problem was solved exactly), [`Termination::MaxIterations`] (the last iterate is
    /// returned; the objective never increased), [`Termination::Stalled`] (a subproblem after
    /// the warm start failed, see [`FitReport::solver_failure`]; the last successful iterate is
    /// returned) or [`Termination::Interrupted`] (the observer stopped the fit; the last
    /// iterate is returned).
    pub status: Termination,
    /// Convex–concave iterations after the warm start (0 when μ = 0).
    pub iterations: usize,
    /// The final penalised objective. Linear: `(1/n)Σᵢ max(0, 1 − yᵢ(xᵢᵀw + b)) + λ‖w‖² +
    /// μ|wᵀ(Σ₊ − Σ₋)w|`; kernel: `½βᵀKβ − Σαᵢ + (μ/2λ)|βᵀ(S₊ − S₋)β|`.
    pub objective: f64,
    /// The signed mean gap `mᵀw` (kernel: `k_mᵀβ`), bounded by d in absolute value: the mean
    /// score of group code 1 (z = +1) minus that of group code 0.
    pub mean_gap: f64,
    /// The signed covariance gap of the final iterate.
    pub covariance_gap: f64,
    /// τ of the last subproblem (NaN when no convex–concave iteration ran); at convergence
    /// `τ ≈ |covariance_gap|`.
    pub slack: f64,
    /// One entry per iterate, the warm start first.
    pub history: Vec<IterInfo>,
    /// Interior-point iterations summed over all subproblems.
    pub solver_iterations: u64,
    /// Subproblems clarabel solved only to reduced accuracy (`AlmostSolved`).
    pub reduced_accuracy_solves: usize,
    /// Why the last subproblem failed, when [`Termination::Stalled`].
    pub solver_failure: Option<SolverFailure>,
    /// Wall-clock time of the fit.
    pub elapsed: Duration,
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} after {} convex-concave iteration(s): objective {:.6}, mean gap {:.3e}, covariance gap {:.3e}, \
             {} interior-point iterations, {:.1} ms",
            self.status,
            self.iterations,
            self.objective,
            self.mean_gap,
            self.covariance_gap,
            self.solver_iterations,
            self.elapsed.as_secs_f64() * 1e3
        )?;
        if self.reduced_accuracy_solves > 0 {
            write!(
                f,
                ", {} reduced-accuracy solve(s)",
                self.reduced_accuracy_solves
            )?;
        }
        if let Some(fail) = self.solver_failure {
            write!(f, ", last subproblem: {fail}")?;
        }
        Ok(())
    }
}

/// One solved subproblem.
pub(crate) struct Iterate<S> {
    /// The point the next subproblem linearises at (w, or u = Vᵀβ for the kernel model).
    pub anchor: DVector<f64>,
    /// The vector whose relative change is the stopping test (w, or β).
    pub change: DVector<f64>,
    pub tau: f64,
    pub objective: f64,
    pub covariance_gap: f64,
    pub accuracy: Accuracy,
    pub solver_iterations: u32,
    pub working_rows: usize,
    pub solves: usize,
    /// Model-specific solution data (intercept, α, …).
    pub state: S,
}

/// A model whose convex–concave subproblems can be solved.
pub(crate) trait Subproblems {
    type State;
    /// `None`: the warm start (no covariance term); `Some(previous)`: problem (23)/(27)
    /// linearised at `previous.anchor`.
    fn solve(
        &self,
        previous: Option<&Iterate<Self::State>>,
    ) -> Result<std::result::Result<Iterate<Self::State>, SolverFailure>>;
}

pub(crate) struct CcpOutcome<S> {
    pub last: Iterate<S>,
    pub report: FitReport,
}

pub(crate) fn run<P: Subproblems>(
    problem: &P,
    settings: &Common,
    mean_gap: impl Fn(&Iterate<P::State>) -> f64,
    observer: &mut dyn Observe<IterInfo>,
) -> Result<CcpOutcome<P::State>> {
    let start = Instant::now();
    let warm = problem
        .solve(None)?
        .map_err(|failure| FairSvmError::Solver {
            stage: "mean-constrained warm start",
            failure,
        })?;
    let mut history = vec![IterInfo {
        iteration: 0,
        objective: warm.objective,
        covariance_gap: warm.covariance_gap,
        mean_gap: mean_gap(&warm),
        slack: f64::NAN,
        relative_change: f64::NAN,
        working_rows: warm.working_rows,
        solves: warm.solves,
    }];
    let stop_at_warm_start = observer.observe(&history[0]).is_break();
    let mut solver_iterations = u64::from(warm.solver_iterations);
    let mut reduced = usize::from(warm.accuracy == Accuracy::Reduced);
    let mut current = warm;
    let mut status = Termination::Converged;
    let mut solver_failure = None;
    let mut iterations = 0;
    if stop_at_warm_start {
        status = Termination::Interrupted;
    } else if settings.mu > 0.0 {
        status = Termination::MaxIterations;
        for k in 1..=settings.max_iter {
            let next = match problem.solve(Some(&current))? {
                Ok(next) => next,
                Err(failure) => {
                    status = Termination::Stalled;
                    solver_failure = Some(failure);
                    break;
                }
            };
            iterations = k;
            solver_iterations += u64::from(next.solver_iterations);
            reduced += usize::from(next.accuracy == Accuracy::Reduced);
            let step = (&next.change - &current.change).norm();
            let base = current.change.norm();
            let relative_change = if base > 0.0 { step / base } else { step };
            history.push(IterInfo {
                iteration: k,
                objective: next.objective,
                covariance_gap: next.covariance_gap,
                mean_gap: mean_gap(&next),
                slack: next.tau,
                relative_change,
                working_rows: next.working_rows,
                solves: next.solves,
            });
            let stop = observer.observe(&history[history.len() - 1]).is_break();
            // Secondary test: a vanishing objective decrease. The surrogate is λ-strongly convex,
            // so F_k − F_{k+1} ≥ λ‖v_{k+1} − v_k‖²: no decrease means no step, even where the
            // relative test is meaningless because the iterate itself tends to 0 (large μ or λ).
            let stalled_objective = (current.objective - next.objective).abs()
                <= OBJECTIVE_STALL * current.objective.abs().max(1.0);
            current = next;
            if relative_change < settings.tol || stalled_objective {
                status = Termination::Converged;
                break;
            }
            if stop {
                status = Termination::Interrupted;
                break;
            }
        }
    }
    let report = FitReport {
        status,
        iterations,
        objective: current.objective,
        mean_gap: mean_gap(&current),
        covariance_gap: current.covariance_gap,
        slack: if iterations > 0 {
            current.tau
        } else {
            f64::NAN
        },
        history,
        solver_iterations,
        reduced_accuracy_solves: reduced,
        solver_failure,
        elapsed: start.elapsed(),
    };
    Ok(CcpOutcome {
        last: current,
        report,
    })
}
