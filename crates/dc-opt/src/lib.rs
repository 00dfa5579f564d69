//! Difference-of-convex (DC) constrained learning by the inexact DCA (IDCA), and fairness on
//! intervals of percentiles (He, Huang, Yao & Lin, "Enforcing Fair Predicted Scores on Intervals
//! of Percentiles by Difference-of-Convex Constraints", arXiv:2505.12530).
//!
//! # The problem
//! ```text
//! min_{x ∈ W}  f_0⁺(x) − f_0⁻(x)   s.t.   f_i⁺(x) − f_i⁻(x) ≤ 0,  i = 1..m      (27)
//! ```
//! with every `f_i^±` convex ([`DcProblem`]) and `W` closed and convex ([`FeasibleSet`]).
//! [`Idca`] linearises the `f_i⁻` at each outer iterate and solves the convex subproblem with the
//! switching subgradient method (Algorithms 1–2); [`Ssg`] applies switching subgradient steps to
//! the DC problem directly (Algorithm 3).
//!
//! # The models
//! [`PartialSp`] (model (15), partial statistical parity) and [`PartialDp`] (model (21), partial
//! demographic parity, and the appendix variants (50)/(56) through [`DpVariant`]) and
//! [`PartialGauc`] (model (49), partial group AUC) on the linear
//! model with cross terms `h_w(ξ) = ⟨w, (1, ξ, γ, γξ)⟩` over sparse rows ([`CrossData`]), with the
//! hard-sigmoid or logistic [`Surrogate`]. The baselines of the paper's Appendix G.4 are in
//! [`baselines`]. Evaluate the trained scores with `fair_metrics::partial`.
//!
//! # The estimator
//! [`PartialParity`] trains the cross-term model on plain data (a dense feature matrix, 0/1
//! labels and `fair_data::Groups`) in the house style: [`PartialParity::params`] →
//! [`PartialParityParams::check`] → [`PartialParityValidParams::fit`] (or `fit_with_observer`)
//! → a fitted [`PartialParity`] with `decision_function`/`predict`, its [`FitReport`] and
//! [`Termination`], and the versioned bytes of its [`CrossModel`]. The fairness model is a
//! [`PartialConstraint`]; the problem types and [`Idca`] below stay available for custom models.
//!
//! # Example
//! A one-dimensional DC problem with a known solution: `min (x − ½)²` s.t. `1 − x² ≤ 0`
//! (i.e. `|x| ≥ 1`) from `x = 2`; the solution is `x = 1`.
//! ```
//! use dc_opt::{DcProblem, Idca, Part};
//! struct Toy;
//! impl DcProblem for Toy {
//!     type Workspace = ();
//!     fn dim(&self) -> usize { 1 }
//!     fn n_constraints(&self) -> usize { 1 }
//!     fn workspace(&self) {}
//!     fn prepare(&self, _x: &[f64], _ws: &mut ()) {}
//!     fn values(&self, part: Part, x: &[f64], _ws: &mut (), out: &mut [f64]) {
//!         match part {
//!             Part::Plus => { out[0] = (x[0] - 0.5).powi(2); out[1] = 1.0; }
//!             Part::Minus => { out[0] = 0.0; out[1] = x[0] * x[0]; }
//!         }
//!     }
//!     fn subgradient(&self, part: Part, i: usize, x: &[f64], _ws: &mut (), out: &mut [f64]) {
//!         out[0] = match (part, i) {
//!             (Part::Plus, 0) => 2.0 * (x[0] - 0.5),
//!             (Part::Minus, 1) => 2.0 * x[0],
//!             _ => 0.0,
//!         };
//!     }
//! }
//! let fit = Idca::params().outer_iters(60).inner_iters(300).eps(1e-3)
//!     .fit(&Toy, &[2.0])?;
//! assert!((fit.x[0] - 1.0).abs() < 5e-3, "{}", fit.report);
//! assert!(fit.report.max_violation <= 1e-3);
//! # Ok::<(), dc_opt::DcOptError>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

pub mod baselines;
mod data;
mod error;
mod estimator;
mod gauc;
mod idca;
mod models;
mod observer;
mod params;
mod problem;
mod saved;
mod ssg;
mod unconstrained;

pub use data::{CrossData, SparseRows, cross_dim, cross_scores};
pub use error::{DcOptError, Result};
pub use estimator::{
    PartialConstraint, PartialParity, PartialParityParams, PartialParityValidParams,
};
/// The shared vocabulary: observers see an [`IterInfo`] per iteration ([`Observe`]), and a
/// fit ends with a [`Termination`] (an observer's stop is `Ok` with [`Termination::Interrupted`]).
pub use fair_core::{NoObserver, Observe, Termination};
pub use gauc::{GaucWorkspace, PartialGauc};
pub use idca::{Idca, IdcaParams, IdcaValidParams};
pub use models::{DpVariant, ModelWorkspace, PartialDp, PartialSp, percentile_grid};
pub use observer::{FitReport, History, IterInfo};
pub use params::{FeasibleSet, LOGISTIC_CURVATURE, Surrogate};
pub use problem::{DcProblem, Part, dc_values, objective_and_violation};
pub use saved::{CrossModel, DC_OPT_FORMAT_VERSION};
pub use ssg::{Ssg, SsgParams, Tolerance};
pub use unconstrained::fit_unconstrained;
