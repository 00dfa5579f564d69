//! Outcomes of a fit: per-start summaries and the information the observer sees.

use crate::params::LossScale;
use fair_core::Termination;
use nalgebra::DMatrix;
use std::fmt;
use std::time::Duration;

/// Where a run of Algorithm 1 started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StartKind {
    /// The vanilla PCA basis (top-`r` eigenvectors of `XᵀX`).
    VanillaPca,
    /// The multiplicative-weights min–max solution ([`MwFairPca`](crate::MwFairPca) defaults).
    MinMax,
    /// The `index`-th random orthonormal frame drawn from the seed.
    Random {
        /// 0-based draw index.
        index: usize,
    },
}

impl fmt::Display for StartKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::VanillaPca => f.write_str("vanilla PCA"),
            Self::MinMax => f.write_str("MW min–max"),
            Self::Random { index } => write!(f, "random frame #{index}"),
        }
    }
}

/// The result of one start.
#[derive(Debug, Clone, PartialEq)]
pub struct StartReport {
    /// Where it started.
    pub kind: StartKind,
    /// How it ended.
    pub status: Termination,
    /// Steps taken.
    pub iterations: usize,
    /// `‖D‖_F` of the last direction computed.
    pub direction_norm: f64,
    /// Total reconstruction loss of the final frame, on the objectives' scale.
    pub total_loss: f64,
    /// `E_i` of the final frame, on the objectives' scale.
    pub disparities: Vec<f64>,
    /// `max_{i<j} |E_i − E_j|` of the final frame, on the objectives' scale.
    pub max_gap: f64,
    /// The objective vector `f` at the final frame.
    pub objectives: Vec<f64>,
}

/// Diagnostics of a fit (linfa-`Svm`-style: every fit says whether and how it converged).
#[derive(Debug, Clone, PartialEq)]
pub struct FitReport {
    /// Status of the kept start ([`Termination::Interrupted`] if the observer stopped any start).
    pub status: Termination,
    /// Steps taken by the kept start.
    pub iterations: usize,
    /// Total reconstruction loss of the result, on [`scale`](Self::scale).
    pub objective: f64,
    /// Fairness violation of the result: `max_{i<j} |E_i − E_j|` on [`scale`](Self::scale).
    pub max_violation: f64,
    /// The loss scale of `objective` and `max_violation`.
    pub scale: LossScale,
    /// Index into [`starts`](Self::starts) of the kept start.
    pub selected_start: usize,
    /// Every start that ran, in order.
    pub starts: Vec<StartReport>,
    /// Wall time of the whole fit (not part of any result; excluded from determinism).
    pub elapsed: Duration,
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = match self.scale {
            LossScale::PerSample => "per sample",
            LossScale::Raw => "raw",
        };
        writeln!(
            f,
            "Pareto fair PCA: {} after {} iterations (start {} of {}: {}); total loss {:.6} and \
             max disparity gap {:.3e} ({scale}); {:.3} s",
            self.status,
            self.iterations,
            self.selected_start + 1,
            self.starts.len(),
            self.starts
                .get(self.selected_start)
                .map_or_else(|| "–".to_string(), |s| s.kind.to_string()),
            self.objective,
            self.max_violation,
            self.elapsed.as_secs_f64()
        )?;
        for (i, s) in self.starts.iter().enumerate() {
            writeln!(
                f,
                "  start {}: {:<18} {:<20} {:>5} it  ‖D‖ {:.2e}  loss {:.6}  gap {:.3e}",
                i + 1,
                s.kind.to_string(),
                s.status.to_string(),
                s.iterations,
                s.direction_norm,
                s.total_loss,
                s.max_gap
            )?;
        }
        Ok(())
    }
}

/// What the observer ([`fair_core::Observe`]) sees after each iteration of the outer loop.
#[derive(Debug, Clone, Copy)]
pub struct IterInfo<'a> {
    /// Index of the start (0-based, in [`FitReport::starts`] order).
    pub start: usize,
    /// Iteration `t` (1-based).
    pub iteration: usize,
    /// Step size `η_t` taken (0 when the run stops at this iteration without a step).
    pub step: f64,
    /// Armijo halvings `p` of the accepted step `η = 2^{−p}` (`0` for warm-started steps `η ≥ 1`;
    /// `None` for `1/√t` steps or when none was taken).
    pub halvings: Option<u32>,
    /// `‖D_t‖_F`.
    pub direction_norm: f64,
    /// `λ̂^{(t)}`: the QP weights of the objectives.
    pub weights: &'a [f64],
    /// `tr(D_tᵀ Ĝ_j)` for each objective `j`, computed from the matrices (Lemma 1: each is
    /// `≤ −‖D_t‖²`), with `Ĝ_j` the (normalized) gradients that entered the QP.
    pub descent_slopes: &'a [f64],
    /// `‖Ĝ_j‖²` for each objective: the scale of the QP's optimality test, so Lemma 1 holds
    /// to about `1e-12 · max_j ‖Ĝ_j‖²` (not relative to the slopes, which shrink near a
    /// Pareto-stationary point while the gradients do not).
    pub gradient_sq_norms: &'a [f64],
    /// The objective vector `f(U_t)`.
    pub objectives: &'a [f64],
    /// Total loss at `U_t` (objectives' scale).
    pub total_loss: f64,
    /// `max_{i<j} |E_i − E_j|` at `U_t` (objectives' scale).
    pub max_gap: f64,
    /// The next iterate `U_{t+1}` (`U_t` itself when no step was taken).
    pub iterate: &'a DMatrix<f64>,
}
