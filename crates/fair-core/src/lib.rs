//! The vocabulary every fairkit method crate shares, so that the five methods (`dc-opt`,
//! `fair-pca`, `fair-svm`, `game-opt`, `info-projection`) fit, observe, stop and report the
//! same way.
//!
//! - [`Termination`]: how a fit ended (an outcome, not an error), with `Display`/`FromStr`.
//! - [`Observe`]: the one observer trait, generic over a crate's per-iteration info type;
//!   [`NoObserver`] and closures `FnMut(&I) -> ControlFlow<()>` implement it.
//! - [`ParamGuard`]: `check_ref(&self)` / `check(self)`, the one way to validate settings.
//! - [`Groups`]: group membership of every row (re-exported by `fair-data`).
//! - [`Constraint`]: the one constraint vocabulary (fairlearn's names, the papers' as aliases);
//!   a method crate names its subset with [`constraint_subset!`], and an unsupported name is a
//!   [`ConstraintError`] listing the supported ones.
//! - [`ParseEnumError`]: the error of every `FromStr` of a fairkit enum; [`split_call`] splits
//!   the `name(a, b)` form of the data-carrying ones.
//! - [`Term`]: the nested call form `name(arg, …)` with bare words and quoted strings (the text
//!   of values that hold free-form names, e.g. `subset(group("race", "Black"))`), its
//!   [`SyntaxError`], [`quote`]/[`unquote`] for strings, and [`ParseTermError`], the `FromStr`
//!   error of the values read in that form.
//! - [`bytes`]: the codec of every fitted model's versioned bytes ([`bytes::Writer`],
//!   [`bytes::Reader`], typed [`bytes::DecodeError`]).
//!
//! # Conventions (argmin `Observe` + `TerminationReason`, linfa `ParamGuard`/`Fit`)
//!
//! Every method crate spells fitting the same way: `params.fit(data…)` and
//! `params.fit_with_observer(data…, &mut observer)`. The observer sees one info value per
//! iteration; when it returns [`ControlFlow::Break`] the fit **returns `Ok`** with the last
//! iterate as its model, and the model's report says [`Termination::Interrupted`]. Bad input,
//! bad settings and numerical breakdown stay `Err`.
//!
//! # Examples
//! ```
//! use fair_core::{NoObserver, Observe, Termination};
//! use std::ops::ControlFlow;
//!
//! // A toy "fit": halve x until it is below tol, asking the observer after every step.
//! fn fit_with_observer(mut x: f64, tol: f64, obs: &mut impl Observe<f64>) -> (f64, Termination) {
//!     for _ in 0..100 {
//!         x /= 2.0;
//!         if x < tol {
//!             return (x, Termination::Converged);
//!         }
//!         if obs.observe(&x).is_break() {
//!             return (x, Termination::Interrupted);
//!         }
//!     }
//!     (x, Termination::MaxIterations)
//! }
//! assert_eq!(fit_with_observer(1.0, 0.1, &mut NoObserver).1, Termination::Converged);
//! let mut stop_below_half = |x: &f64| if *x < 0.5 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
//! let (x, how) = fit_with_observer(1.0, 0.1, &mut stop_below_half);
//! assert_eq!((x, how), (0.25, Termination::Interrupted));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

pub mod bytes;
mod constraint;
mod groups;
mod observe;
mod param_guard;
mod parse;
pub mod term;
mod termination;

pub use constraint::{Constraint, ConstraintError, ConstraintSubset, assert_constraint_subset};
pub use groups::{Groups, GroupsError};
pub use observe::{NoObserver, Observe};
pub use param_guard::ParamGuard;
pub use parse::{ParseEnumError, split_call};
pub use std::ops::ControlFlow;
pub use term::{ParseTermError, SyntaxError, Term, quote, unquote};
pub use termination::Termination;
