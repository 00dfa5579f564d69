//! Observers of the solvers' progress, and the fit report.

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

/// Hooks called by the solvers. Every method has a no-op default.
pub trait Observer {
    /// After every iteration; return `ControlFlow::Break(())` to stop early.
    fn on_iter(&mut self, _info: &IterInfo) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// The observer that does nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

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

impl Observer for History {
    fn on_iter(&mut self, info: &IterInfo) -> ControlFlow<()> {
        if self.every <= 1 || info.iter.is_multiple_of(self.every) {
            self.iters.push(*info);
        }
        ControlFlow::Continue(())
    }
}

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The iteration budget was used up (the normal end, as in the paper).
    MaxIterations,
    /// An inner solve returned its own starting point, so every later iteration would repeat it:
    /// the iterate is a fixed point of the algorithm.
    Stationary,
    /// The observer asked to stop.
    StoppedByObserver,
    /// The direct SSG never reached a nearly feasible iterate; the returned point is the last
    /// iterate, not a solution.
    NeverFeasible,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::MaxIterations => "iteration budget used",
            Status::Stationary => "stationary (fixed point)",
            Status::StoppedByObserver => "stopped by observer",
            Status::NeverFeasible => "never nearly feasible",
        })
    }
}

/// Diagnostics of one solve.
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    /// Solver name.
    pub solver: &'static str,
    /// How it ended.
    pub status: Status,
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
