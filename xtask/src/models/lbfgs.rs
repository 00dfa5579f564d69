//! The one L-BFGS driver every base model uses: argmin's L-BFGS (memory 10) with a Moré–Thuente
//! line search, started at zero, returning the best iterate and whether it converged.

use argmin::core::{CostFunction, Executor, Gradient, State, TerminationReason, TerminationStatus};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use nalgebra::DVector;

/// Stopping rules of one L-BFGS run.
pub struct LbfgsSettings {
    /// Gradient-norm tolerance.
    pub tol_grad: f64,
    /// Relative cost-change tolerance.
    pub tol_cost: f64,
    /// Iteration cap.
    pub max_iters: u64,
}

/// What the run produced.
pub struct LbfgsOutcome {
    /// Best parameter vector found.
    pub best: DVector<f64>,
    /// Iterations taken.
    pub iterations: u64,
    /// True when argmin reports `SolverConverged` (not the iteration cap).
    pub converged: bool,
}

/// Minimises `problem` from the zero vector of length `dim`; errors come back as text for the
/// caller's typed error.
pub fn minimize<P>(problem: P, dim: usize, settings: &LbfgsSettings) -> Result<LbfgsOutcome, String>
where
    P: CostFunction<Param = DVector<f64>, Output = f64>
        + Gradient<Param = DVector<f64>, Gradient = DVector<f64>>,
{
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 10)
        .with_tolerance_grad(settings.tol_grad)
        .map_err(|e| e.to_string())?
        .with_tolerance_cost(settings.tol_cost)
        .map_err(|e| e.to_string())?;
    let res = Executor::new(problem, solver)
        .configure(|s| s.param(DVector::zeros(dim)).max_iters(settings.max_iters))
        .run()
        .map_err(|e| e.to_string())?;
    let state = res.state();
    let best = state
        .get_best_param()
        .cloned()
        .ok_or_else(|| "L-BFGS returned no iterate".to_string())?;
    Ok(LbfgsOutcome {
        best,
        iterations: state.get_iter(),
        converged: matches!(
            state.get_termination_status(),
            TerminationStatus::Terminated(TerminationReason::SolverConverged)
        ),
    })
}
