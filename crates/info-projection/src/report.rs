//! How a fit ended: a [`Termination`] and the diagnostics of [`FitReport`]; what the observer sees.

use crate::params::{Divergence, Solver};
use fair_core::Termination;
use std::fmt;
use std::time::Duration;

/// What the observer ([`fair_core::Observe`]) sees before every pass over the fitting rows
/// (each dual evaluation, the warm start's included, and each ADMM round).
///
/// A pass over 1.4M rows takes tens of milliseconds, so an observer that stops the fit (Ctrl-C,
/// a time budget) is obeyed promptly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PassInfo {
    /// Passes over the rows completed so far (warm-start subsample passes included).
    pub passes: usize,
    /// ADMM only: the diagnostics of the round just completed (`None` before the first round
    /// and for the dual solver).
    pub admm: Option<AdmmRound>,
}

/// The diagnostics of one ADMM round, shown to the observer before the next pass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdmmRound {
    /// Round index (1-based).
    pub round: usize,
    /// The penalty ρ of the round.
    pub rho: f64,
    /// RMS primal residual `sqrt((1/N)Σ‖v_i + G_iᵀλ‖²)`.
    pub primal_residual: f64,
    /// Dual residual `ρ sqrt(Δλᵀ Ḡ Δλ)`.
    pub dual_residual: f64,
    /// RMS fixed-point residual at the evaluated point.
    pub fixed_point_residual: f64,
    /// `None` for a plain round, `Some(true)` for an accepted Anderson point, `Some(false)` for
    /// one the safeguard rejected.
    pub anderson_accepted: Option<bool>,
}

/// Diagnostics of one fit, all measured on the fitting rows at the returned λ.
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    /// How the solver stopped: [`Termination::Converged`], [`Termination::MaxIterations`] (λ is
    /// the last iterate), [`Termination::Stalled`] (the dual line search could make no further
    /// progress; λ is the best iterate) or [`Termination::Interrupted`] (the observer stopped the
    /// fit; λ is the last iterate).
    pub status: Termination,
    /// Which solver ran.
    pub solver: Solver,
    /// The divergence.
    pub divergence: Divergence,
    /// Number of constraint rows K.
    pub n_constraints: usize,
    /// Number of fitting rows N.
    pub n_rows: usize,
    /// The regulariser ζ used.
    pub zeta: f64,
    /// Outer iterations (L-BFGS steps or ADMM rounds).
    pub iterations: usize,
    /// Passes over the data, the final diagnostic pass included.
    pub data_passes: usize,
    /// Dual solver only: passes over the warm-start subsample (each costs about
    /// `warm_start_fraction` of a full pass); 0 when it started cold.
    pub subsample_passes: usize,
    /// The dual objective (8) at λ.
    pub objective: f64,
    /// `‖λ − P₊(λ − ∇Φ(λ))‖∞`: first-order optimality of (8), comparable across solvers.
    pub stationarity: f64,
    /// ADMM only: final RMS primal residual `sqrt((1/N)Σ‖v_i + G_iᵀλ‖²)`.
    pub primal_residual: Option<f64>,
    /// ADMM only: final dual residual `ρ sqrt(Δλᵀ Ḡ Δλ)`.
    pub dual_residual: Option<f64>,
    /// ADMM only: Anderson points (accepted, rejected by the safeguard); each rejection cost
    /// one extra pass.
    pub anderson_steps: Option<(usize, usize)>,
    /// `max_k E[G_k h]`: the largest value of the (unrelaxed) linear constraints on the fitting
    /// rows; ≤ 0 means every constraint holds exactly.
    pub max_violation: f64,
    /// `max_k (E[G_k h] − ζ((I + Ḡ)λ)_k)`: the constraints of the relaxed problem (6) hold
    /// when this is ≤ 0 (up to the solver tolerance).
    pub max_excess: f64,
    /// Wall-clock time of the fit (validation included).
    pub elapsed: Duration,
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}/{:?} {} after {} iterations ({} data passes + {} subsample passes, {:.3} s): \
             N = {}, K = {}, ζ = {:.3e}, dual objective {:.6e}, stationarity {:.1e}",
            self.solver,
            self.divergence,
            self.status,
            self.iterations,
            self.data_passes,
            self.subsample_passes,
            self.elapsed.as_secs_f64(),
            self.n_rows,
            self.n_constraints,
            self.zeta,
            self.objective,
            self.stationarity,
        )?;
        if let (Some(p), Some(d)) = (self.primal_residual, self.dual_residual) {
            write!(f, ", residuals {p:.1e}/{d:.1e}")?;
        }
        if let Some((acc, rej)) = self.anderson_steps {
            write!(f, ", Anderson steps {acc} kept / {rej} rejected")?;
        }
        write!(
            f,
            ", max constraint value {:.3e} (relaxed excess {:.1e})",
            self.max_violation, self.max_excess
        )
    }
}
