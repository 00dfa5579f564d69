//! The switching subgradient method applied directly to the DC problem (the paper's Algorithm 3,
//! Appendix G.7): a heuristic comparison for IDCA, with subgradients `∂f_i⁺ − ∂f_i⁻`.

use crate::error::{DcOptError, Result};
use crate::idca::{dot, max_violation, start_checks};
use crate::observer::{FitReport, IterInfo};
use crate::params::{FeasibleSet, at_least_one, positive_finite};
use crate::problem::{DcProblem, Part};
use fair_core::{NoObserver, Observe, Termination};
use std::time::Instant;

/// The tolerance schedule `ε_t` of the direct SSG.
///
/// # Examples
/// ```
/// use dc_opt::Tolerance;
/// // `Display`: `constant(eps)` or `diminishing(c)`.
/// assert_eq!(Tolerance::Constant(1e-3).to_string(), "constant(0.001)");
/// assert_eq!("diminishing( 0.5 )".parse::<Tolerance>()?, Tolerance::Diminishing(0.5));
/// assert!("constant".parse::<Tolerance>().is_err());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tolerance {
    /// `ε_t = ε`.
    Constant(f64),
    /// `ε_t = c / (t + 1)`.
    Diminishing(f64),
}

impl Tolerance {
    fn at(self, t: usize) -> f64 {
        match self {
            Tolerance::Constant(e) => e,
            Tolerance::Diminishing(c) => c / (t as f64 + 1.0),
        }
    }
}

/// Settings of the direct SSG.
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `iters` | 10 000 | ≥ 1 | `T`, iterations |
/// | `tolerance` | `Constant(1e-3)` | constant > 0 | `ε_t`, objective steps when `max f_i ≤ ε_t` |
/// | `feasible_set` | `Whole` | valid [`FeasibleSet`] | `W` |
///
/// The paper searches `ε ∈ {1e-4, 2e-4, 5e-4, 1e-3}` and `c ∈ {0.2, 0.5, 1, 2}`.
#[derive(Debug, Clone, PartialEq)]
pub struct SsgParams {
    iters: usize,
    tolerance: Tolerance,
    feasible_set: FeasibleSet,
}

/// The result of the direct SSG.
#[derive(Debug, Clone, PartialEq)]
pub struct Ssg {
    /// The nearly feasible iterate with the smallest objective (the last iterate when none was
    /// nearly feasible; then the status is [`Termination::NeverFeasible`]).
    pub x: Vec<f64>,
    /// Diagnostics.
    pub report: FitReport,
}

impl Ssg {
    /// Default settings (see [`SsgParams`]).
    pub fn params() -> SsgParams {
        SsgParams {
            iters: 10_000,
            tolerance: Tolerance::Constant(1e-3),
            feasible_set: FeasibleSet::Whole,
        }
    }
}

impl SsgParams {
    /// Sets `T`.
    pub fn iters(mut self, t: usize) -> Self {
        self.iters = t;
        self
    }
    /// Sets the tolerance schedule.
    pub fn tolerance(mut self, tol: Tolerance) -> Self {
        self.tolerance = tol;
        self
    }
    /// Sets `W`.
    pub fn feasible_set(mut self, set: FeasibleSet) -> Self {
        self.feasible_set = set;
        self
    }

    /// Runs Algorithm 3 from `x0` without an observer; see [`fit_with_observer`](Self::fit_with_observer).
    ///
    /// # Errors
    /// As [`fit_with_observer`](Self::fit_with_observer).
    pub fn fit<P: DcProblem>(&self, problem: &P, x0: &[f64]) -> Result<Ssg> {
        self.fit_with_observer(problem, x0, &mut NoObserver)
    }

    /// Runs Algorithm 3 from `x0` (any point of `W`). The observer sees every iterate; its
    /// `Break` ends the fit with `Ok` and [`Termination::Interrupted`].
    ///
    /// # Errors
    /// [`DcOptError::InvalidParameter`] for bad settings, bad `x0` as in
    /// [`crate::IdcaValidParams::fit_with_observer`] (feasibility is not required), and
    /// [`DcOptError::Numerical`] if an iterate becomes non-finite.
    pub fn fit_with_observer<P: DcProblem, O: Observe<IterInfo> + ?Sized>(
        &self,
        problem: &P,
        x0: &[f64],
        observer: &mut O,
    ) -> Result<Ssg> {
        let start = Instant::now();
        at_least_one("iters", self.iters)?;
        match self.tolerance {
            Tolerance::Constant(e) => positive_finite("tolerance ε", e)?,
            Tolerance::Diminishing(c) => positive_finite("tolerance c", c)?,
        }
        self.feasible_set.check()?;
        start_checks(problem, x0, &self.feasible_set)?;
        let n = problem.dim();
        let m1 = problem.n_constraints() + 1;
        let mut ws = problem.workspace();
        let mut v = x0.to_vec();
        let mut best = x0.to_vec();
        let (mut best_obj, mut best_viol, mut found) = (f64::INFINITY, f64::INFINITY, false);
        let mut plus = vec![0.0; m1];
        let mut minus = vec![0.0; m1];
        let mut f = vec![0.0; m1];
        let mut grad = vec![0.0; n];
        let mut gminus = vec![0.0; n];
        let mut status = Termination::MaxIterations;
        let mut t = 0;
        let (mut last_obj, mut last_viol) = (f64::NAN, f64::NAN);
        while t < self.iters {
            problem.prepare(&v, &mut ws);
            problem.values(Part::Plus, &v, &mut ws, &mut plus);
            problem.values(Part::Minus, &v, &mut ws, &mut minus);
            for i in 0..m1 {
                f[i] = plus[i] - minus[i];
            }
            let viol = max_violation(&f);
            if !f[0].is_finite() || !viol.is_finite() {
                return Err(DcOptError::Numerical {
                    stage: "direct SSG",
                    reason: format!("objective {} / violation {viol} at iteration {t}", f[0]),
                });
            }
            (last_obj, last_viol) = (f[0], viol);
            let info = IterInfo {
                iter: t,
                inner_iters: t,
                objective: f[0],
                max_violation: viol,
            };
            if observer.observe(&info).is_break() {
                status = Termination::Interrupted;
                break;
            }
            let eps_t = self.tolerance.at(t);
            let (i_step, target) = if m1 == 1 || viol <= eps_t {
                if f[0] < best_obj {
                    (best_obj, best_viol, found) = (f[0], viol, true);
                    best.copy_from_slice(&v);
                }
                (0, eps_t)
            } else {
                let imax = (1..m1).max_by(|&a, &b| f[a].total_cmp(&f[b])).unwrap_or(1);
                (imax, viol)
            };
            t += 1;
            problem.subgradient(Part::Plus, i_step, &v, &mut ws, &mut grad);
            problem.subgradient(Part::Minus, i_step, &v, &mut ws, &mut gminus);
            for (g, h) in grad.iter_mut().zip(&gminus) {
                *g -= h;
            }
            let nrm2 = dot(&grad, &grad);
            if nrm2 <= f64::MIN_POSITIVE || !nrm2.is_finite() {
                status = Termination::Stationary;
                break;
            }
            let step = target / nrm2;
            for (vj, gj) in v.iter_mut().zip(&grad) {
                *vj -= step * gj;
            }
            self.feasible_set.project(&mut v);
        }
        let (x, objective, max_violation) = if found {
            (best, best_obj, best_viol)
        } else {
            status = Termination::NeverFeasible;
            (v, last_obj, last_viol)
        };
        Ok(Ssg {
            x,
            report: FitReport {
                solver: "direct SSG",
                status,
                iterations: t,
                inner_iterations: t,
                objective,
                max_violation,
                elapsed: start.elapsed(),
            },
        })
    }
}

/// `Display`: `constant(eps)` or `diminishing(c)`, the number in Rust's shortest round-trip form,
/// so `FromStr` gives the same schedule back (it parses; [`SsgParams`] validates).
impl std::fmt::Display for Tolerance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Tolerance::Constant(e) => write!(f, "constant({e})"),
            Tolerance::Diminishing(c) => write!(f, "diminishing({c})"),
        }
    }
}

impl std::str::FromStr for Tolerance {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form (spaces allowed around the name and the number).
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error =
            || fair_core::ParseEnumError::new("tolerance", s, &["constant(eps)", "diminishing(c)"]);
        let (name, args) = fair_core::split_call(s).ok_or_else(error)?;
        let value = match args.as_slice() {
            &[v] => v.parse::<f64>().map_err(|_| error())?,
            _ => return Err(error()),
        };
        match name {
            "constant" => Ok(Tolerance::Constant(value)),
            "diminishing" => Ok(Tolerance::Diminishing(value)),
            _ => Err(error()),
        }
    }
}
