//! FairProjection: multi-class, multi-group fair post-processing by information projection.
//!
//! Alghamdi, Hsu, Jeong, Wang, Michalak, Asoodeh, Calmon, "Beyond Adult and COMPAS: Fair
//! Multi-Class Prediction via Information Projection", NeurIPS 2022. Given a base classifier's
//! class probabilities `p(x) ∈ Δ_C` and group information (labels, `P(S│X)` or `P(S│X,Y)`), the
//! projector returns the classifier closest to the base in an f-divergence among those meeting
//! linear group-fairness constraints (statistical parity, equalized odds, overall accuracy
//! equality, stacked at will; [`Constraint`]):
//!
//! ```text
//! minimise_h  (1/N) Σ_i D_f(h(x_i) ‖ p(x_i))   subject to   (1/N) Σ_i G(x_i) h(x_i) ≤ 0     (1), (6)
//! h_c(x) = p_c(x) · φ(γ(x) − (G(x)ᵀλ)_c)                                                    (7)
//! λ = argmin_{λ≥0} (1/N) Σ_i [D_f^conj(−G_iᵀλ, p_i) + (ζ/2)‖G_iᵀλ‖²] + (ζ/2)‖λ‖²            (8)
//! ```
//! with the paper's slack relaxation (6) (regulariser ζ, default `1/√N`), so the constraints
//! hold on the fitting rows up to `ζ((I + Ḡ)λ)` ([`FairProjection::allowances`]).
//!
//! * Divergences ([`Divergence`]): KL (softmax tilt) and cross-entropy (reciprocal tilt whose
//!   normaliser is a 1-D root, found by safeguarded Newton).
//! * Solvers ([`Solver`]): a direct projected L-BFGS on the K-dimensional dual (8) (one pass
//!   over the data per evaluation), and the paper's ADMM with the corrected updates (errata
//!   E1–E3 of `shared/specs/fair-projection.md`), parallel over samples, stopping on primal
//!   and dual residuals, with an exact active-set (or clarabel) λ-step, over-relaxation and
//!   safeguarded Anderson acceleration. Both reach the same λ.
//! * Constraint rows are stored in factored form: `G(x)ᵀλ = M(λ)ᵀ z(x)` with
//!   `z(x) = [s_1(x,·)⊙p(x), …, s_A(x,·)⊙p(x), p(x)]`, so memory is O(N·C) (plus the group
//!   information) whatever the number of rows K = 2AC² of full equalized odds.
//! * Parallel passes (rayon) use fixed chunks reduced in chunk order: results do not depend on
//!   the number of threads.
//!
//! # Example
//! ```
//! use fair_data::Groups;
//! use info_projection::{Constraint, Decision, Divergence, DualMethod, FairProjection, Solver};
//! use nalgebra::DMatrix;
//!
//! // Three classes, two groups; the base favours class 0 in group "a" and class 2 in group "b".
//! let probs = DMatrix::from_row_slice(6, 3, &[
//!     0.7, 0.2, 0.1,   0.6, 0.3, 0.1,   0.5, 0.3, 0.2,
//!     0.1, 0.3, 0.6,   0.2, 0.2, 0.6,   0.2, 0.3, 0.5,
//! ]);
//! let groups = Groups::from_labels(&["a", "a", "a", "b", "b", "b"]);
//!
//! let params = FairProjection::params()
//!     .constraint(Constraint::StatisticalParity)
//!     .alpha(0.05)
//!     .divergence(Divergence::CrossEntropy);
//! let dual = params.clone().solver(Solver::Dual).fit(&probs, &groups)?;
//! let admm = params.solver(Solver::Admm).fit(&probs, &groups)?;
//! assert!(dual.report().status.is_converged() && admm.report().status.is_converged());
//! for (a, b) in dual.lambda().iter().zip(admm.lambda()) {
//!     assert!((a - b).abs() < 1e-6);                      // same multipliers
//! }
//! let fair = dual.predict_proba(&probs, &groups)?;
//! for i in 0..6 {
//!     assert!((fair.row(i).sum() - 1.0).abs() < 1e-12);   // probability rows
//! }
//! // The relaxed constraints (6) hold on the fitting rows.
//! assert!(dual.report().max_excess < 1e-6);
//! let labels = dual.predict(&probs, &groups, Decision::Argmax)?;
//! assert_eq!(labels.len(), 6);
//!
//! // A tolerance too loose to bind returns the base probabilities.
//! let loose = FairProjection::params().alpha(1e3).fit(&probs, &groups)?;
//! assert!(loose.lambda().iter().all(|&l| l == 0.0));
//! assert!((loose.predict_proba(&probs, &groups)? - &probs).abs().max() < 1e-12);
//! # Ok::<(), info_projection::InfoProjectionError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

mod admm;
mod constraints;
mod divergence;
mod dual;
mod engine;
mod error;
mod input;
mod params;
mod partitioned;
mod projection;
mod qp;
mod report;
mod saved;
mod thresholds;

pub use error::{InfoProjectionError, Result};
/// The shared vocabulary: the observer sees a [`PassInfo`] before every pass ([`Observe`]), and
/// a fit ends with a [`Termination`] (an observer's stop is `Ok` with [`Termination::Interrupted`]).
pub use fair_core::{NoObserver, Observe, Termination};
pub use input::GroupInfo;
pub use params::{
    Constraint, Decision, Divergence, DualMethod, FairProjectionParams, FairProjectionValidParams,
    QpSolver, RowPolicy, Solver, VStep,
};
pub use partitioned::{MarginalSums, PartitionedFit, PassRequest, PassSums};
pub use projection::{FairProjection, n_constraint_rows};
pub use report::{AdmmRound, FitReport, PassInfo};
pub use thresholds::{GroupRates, GroupThresholds, HardRate, RateBound, RateTerm};
