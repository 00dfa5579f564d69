//! What the observer sees ([`IterInfo`]), a recording observer ([`History`]), and the fit report.

use fair_core::{Observe, Termination};
use std::fmt;
use std::ops::ControlFlow;
use std::time::Duration;

/// What a solver reports after each (outer) iteration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IterInfo {
    /// Outer iteration index (IDCA) or iteration index (SSG), starting at 0 for the start point.
    pub iter: usize,
    /// Inner (SSG) iterations spent so far — the x-axis of the paper's Figures 10–11.
    pub inner_iters: usize,
    /// `f_0` at the current iterate.
    pub objective: f64,
    /// `max_i f_i` at the current iterate (0 without constraints).
    pub max_violation: f64,
}

/// An observer that records every [`IterInfo`] (e.g. for convergence plots).
#[derive(Debug, Clone, Default)]
pub struct History {
    /// The recorded iterations, in order.
    pub iters: Vec<IterInfo>,
    /// Record only every `every`-th iteration (0 or 1: all).
    pub every: usize,
}

impl History {
    /// Records every `every`-th iteration.
    pub fn every(every: usize) -> Self {
        Self {
            iters: Vec::new(),
            every,
        }
    }
}

impl Observe<IterInfo> for History {
    fn observe(&mut self, info: &IterInfo) -> ControlFlow<()> {
        if self.every <= 1 || info.iter.is_multiple_of(self.every) {
            self.iters.push(*info);
        }
        ControlFlow::Continue(())
    }
}

/// Diagnostics of one solve.
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    /// Solver name.
    pub solver: &'static str,
    /// How it ended: [`Termination::MaxIterations`] (the budget was used, the normal end as
    /// in the paper), [`Termination::Stationary`] (an inner solve returned its own start),
    /// [`Termination::NeverFeasible`] (direct SSG) or [`Termination::Interrupted`].
    pub status: Termination,
    /// Outer iterations (IDCA) or iterations (SSG) done.
    pub iterations: usize,
    /// Total inner iterations (IDCA) or iterations (SSG).
    pub inner_iterations: usize,
    /// `f_0` at the returned point.
    pub objective: f64,
    /// `max_i f_i` at the returned point.
    pub max_violation: f64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} after {} iterations ({} inner), objective {:.6}, max violation {:.3e}, {:.2?}",
            self.solver,
            self.status,
            self.iterations,
            self.inner_iterations,
            self.objective,
            self.max_violation,
            self.elapsed
        )
    }
}
