//! IDCA (the paper's Algorithm 1) with the switching-subgradient inner solver (Algorithm 2).
//!
//! At the outer iterate `w⁽ᵏ⁾` every subtracted part `f_i⁻` is replaced by its linearisation, which
//! gives the convex subproblem (31) `min g_0(v) s.t. g_i(v) ≤ 0`, `g_i = f_i⁺ − f̂_i⁻(·; w⁽ᵏ⁾) ≥ f_i`.
//! The subproblem is solved inexactly by `T` switching-subgradient steps from `v⁽⁰⁾ = w⁽ᵏ⁾`:
//! an objective step `v ← P_W(v − ε/‖g_0'‖² g_0')` when `max_i g_i(v) ≤ ε`, a Polyak step on the
//! most violated constraint otherwise; `w⁽ᵏ⁺¹⁾` is the iterate with the smallest `g_0` among the
//! nearly feasible ones. Since `g_i ≥ f_i`, every `w⁽ᵏ⁾` satisfies `f_i(w⁽ᵏ⁾) ≤ ε`.

use crate::error::{DcOptError, Result, check_finite, check_len};
use crate::observer::{FitReport, IterInfo};
use crate::params::{FeasibleSet, at_least_one, positive_finite};
use crate::problem::{DcProblem, Part};
use fair_core::{NoObserver, Observe, Termination};
use std::time::Instant;

/// Settings of IDCA.
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `outer_iters` | 100 | ≥ 1 | `K`, outer (linearisation) iterations |
/// | `inner_iters` | 200 | ≥ 1 | `T`, switching-subgradient steps per subproblem |
/// | `eps` | 1e-3 | > 0 | `ε`, inner tolerance: objective steps are taken when `max g_i ≤ ε` |
/// | `feasible_set` | `Whole` | valid [`FeasibleSet`] | `W` |
/// | `checkpoints` | none | outer iteration indices | keep `w⁽ᵏ⁾` at these `k` |
///
/// The paper tunes `T ∈ {150, 200}`, `ε ∈ {5e-4, 1e-3, 2e-3, 5e-3}` and
/// `K ∈ {100, 150, …, 400}` by validation accuracy (Appendix G.2.2).
///
/// # Errors
/// [`IdcaParams::check`] returns [`DcOptError::InvalidParameter`] for zero iteration counts, a
/// non-positive or non-finite `eps`, or an invalid set.
#[derive(Debug, Clone, PartialEq)]
pub struct IdcaParams(IdcaValidParams);

/// Checked IDCA settings; only these can run.
#[derive(Debug, Clone, PartialEq)]
pub struct IdcaValidParams {
    outer_iters: usize,
    inner_iters: usize,
    eps: f64,
    feasible_set: FeasibleSet,
    checkpoints: Vec<usize>,
}

/// The result of IDCA: the final iterate, the kept checkpoints and the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Idca {
    /// The last outer iterate `w⁽ᴷ⁾`.
    pub x: Vec<f64>,
    /// `(k, w⁽ᵏ⁾)` for every requested checkpoint reached (a stationary run repeats its last
    /// iterate for the later checkpoints).
    pub checkpoints: Vec<(usize, Vec<f64>)>,
    /// Diagnostics.
    pub report: FitReport,
}

impl Idca {
    /// Default settings (see [`IdcaParams`]).
    pub fn params() -> IdcaParams {
        IdcaParams(IdcaValidParams {
            outer_iters: 100,
            inner_iters: 200,
            eps: 1e-3,
            feasible_set: FeasibleSet::Whole,
            checkpoints: Vec::new(),
        })
    }
}

impl IdcaParams {
    /// Sets `K`.
    pub fn outer_iters(mut self, k: usize) -> Self {
        self.0.outer_iters = k;
        self
    }
    /// Sets `T`.
    pub fn inner_iters(mut self, t: usize) -> Self {
        self.0.inner_iters = t;
        self
    }
    /// Sets `ε`.
    pub fn eps(mut self, eps: f64) -> Self {
        self.0.eps = eps;
        self
    }
    /// Sets `W`.
    pub fn feasible_set(mut self, set: FeasibleSet) -> Self {
        self.0.feasible_set = set;
        self
    }
    /// Outer iterations at which to keep a copy of the iterate.
    pub fn checkpoints(mut self, ks: Vec<usize>) -> Self {
        self.0.checkpoints = ks;
        self
    }
    /// Validates the settings.
    ///
    /// # Errors
    /// See [`IdcaParams`].
    pub fn check(self) -> Result<IdcaValidParams> {
        at_least_one("outer_iters", self.0.outer_iters)?;
        at_least_one("inner_iters", self.0.inner_iters)?;
        positive_finite("eps", self.0.eps)?;
        self.0.feasible_set.check()?;
        Ok(self.0)
    }
    /// Validates, then runs without an observer (see [`IdcaValidParams::fit`]).
    ///
    /// # Errors
    /// As [`IdcaParams::check`] and [`IdcaValidParams::fit`].
    pub fn fit<P: DcProblem>(self, problem: &P, x0: &[f64]) -> Result<Idca> {
        self.check()?.fit(problem, x0)
    }
    /// Validates, then runs (see [`IdcaValidParams::fit_with_observer`]).
    ///
    /// # Errors
    /// As [`IdcaParams::check`] and [`IdcaValidParams::fit_with_observer`].
    pub fn fit_with_observer<P: DcProblem, O: Observe<IterInfo> + ?Sized>(
        self,
        problem: &P,
        x0: &[f64],
        observer: &mut O,
    ) -> Result<Idca> {
        self.check()?.fit_with_observer(problem, x0, observer)
    }
}

pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub(crate) fn start_checks<P: DcProblem>(problem: &P, x0: &[f64], set: &FeasibleSet) -> Result<()> {
    check_len("starting point", problem.dim(), x0.len())?;
    check_finite("starting point", x0)?;
    if !set.contains(x0) {
        return Err(DcOptError::StartOutsideSet {
            set: format!("{set:?}"),
        });
    }
    Ok(())
}

/// `max_i f_i` over the constraints of `f = (f_0, f_1, …, f_m)`; 0 when `m = 0`.
pub(crate) fn max_violation(f: &[f64]) -> f64 {
    if f.len() <= 1 {
        0.0
    } else {
        f[1..].iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }
}

impl IdcaValidParams {
    /// `K`.
    pub fn outer_iters(&self) -> usize {
        self.outer_iters
    }
    /// `T`.
    pub fn inner_iters(&self) -> usize {
        self.inner_iters
    }
    /// `ε`.
    pub fn eps(&self) -> f64 {
        self.eps
    }
    /// `W`.
    pub fn feasible_set(&self) -> FeasibleSet {
        self.feasible_set
    }

    /// Runs IDCA from `x0` without an observer; see [`fit_with_observer`](Self::fit_with_observer).
    ///
    /// # Errors
    /// As [`fit_with_observer`](Self::fit_with_observer).
    pub fn fit<P: DcProblem>(&self, problem: &P, x0: &[f64]) -> Result<Idca> {
        self.fit_with_observer(problem, x0, &mut NoObserver)
    }

    /// Runs IDCA from `x0`, which must lie in `W` and satisfy `max_i f_i(x0) ≤ ε`. The observer
    /// sees the start point and every outer iteration; when it returns
    /// [`ControlFlow::Break`](std::ops::ControlFlow::Break) the fit ends with `Ok`, the last
    /// iterate and [`Termination::Interrupted`].
    ///
    /// # Errors
    /// [`DcOptError::LengthMismatch`] / [`DcOptError::NonFinite`] for a bad `x0`,
    /// [`DcOptError::StartOutsideSet`], [`DcOptError::InfeasibleStart`], and
    /// [`DcOptError::Numerical`] if an iterate becomes non-finite.
    pub fn fit_with_observer<P: DcProblem, O: Observe<IterInfo> + ?Sized>(
        &self,
        problem: &P,
        x0: &[f64],
        observer: &mut O,
    ) -> Result<Idca> {
        let start = Instant::now();
        start_checks(problem, x0, &self.feasible_set)?;
        let n = problem.dim();
        let m1 = problem.n_constraints() + 1;
        let mut ws = problem.workspace();
        let mut w = x0.to_vec();
        let mut plus = vec![0.0; m1];
        let mut minus = vec![0.0; m1];
        let mut scratch = vec![0.0; m1];
        let mut f = vec![0.0; m1];
        let mut lin = vec![0.0; m1 * n];
        let mut lin_off = vec![0.0; m1];
        let mut v = vec![0.0; n];
        let mut best = vec![0.0; n];
        let mut grad = vec![0.0; n];
        let mut checkpoints = Vec::new();

        let eval = |w: &[f64], ws: &mut P::Workspace, plus: &mut [f64], minus: &mut [f64]| {
            problem.prepare(w, ws);
            problem.values(Part::Plus, w, ws, plus);
            problem.values(Part::Minus, w, ws, minus);
        };
        eval(&w, &mut ws, &mut plus, &mut minus);
        for i in 0..m1 {
            f[i] = plus[i] - minus[i];
        }
        let viol = max_violation(&f);
        if viol.is_nan() || viol > self.eps {
            return Err(DcOptError::InfeasibleStart {
                violation: viol,
                tolerance: self.eps,
            });
        }
        let mut info = IterInfo {
            iter: 0,
            inner_iters: 0,
            objective: f[0],
            max_violation: viol,
        };
        if self.checkpoints.contains(&0) {
            checkpoints.push((0, w.clone()));
        }
        let mut status = Termination::MaxIterations;
        let mut iterations = 0;
        if observer.observe(&info).is_break() {
            status = Termination::Interrupted;
        }
        let mut k = 0;
        while status == Termination::MaxIterations && k < self.outer_iters {
            // Linearise every f_i⁻ at w (the workspace is prepared at w).
            for i in 0..m1 {
                let d = &mut lin[i * n..(i + 1) * n];
                problem.subgradient(Part::Minus, i, &w, &mut ws, d);
                lin_off[i] = minus[i] - dot(d, &w);
            }
            // Switching subgradient on the convex subproblem.
            v.copy_from_slice(&w);
            let mut best_obj = f64::INFINITY;
            let mut best_t = None;
            let mut t = 0;
            while t < self.inner_iters {
                problem.prepare(&v, &mut ws);
                problem.constraint_values(Part::Plus, &v, &mut ws, &mut plus);
                let g = |i: usize, plus: &[f64]| {
                    plus[i] - lin_off[i] - dot(&lin[i * n..(i + 1) * n], &v)
                };
                let (mut gmax, mut imax) = (f64::NEG_INFINITY, 0);
                let mut any_nan = false;
                for i in 1..m1 {
                    let gi = g(i, &plus);
                    any_nan |= gi.is_nan();
                    if gi > gmax {
                        (gmax, imax) = (gi, i);
                    }
                }
                if any_nan {
                    return Err(DcOptError::Numerical {
                        stage: "IDCA inner step",
                        reason: format!("a constraint became NaN at outer iteration {k}"),
                    });
                }
                t += 1;
                let (i_step, target) = if m1 == 1 || gmax <= self.eps {
                    // The objective is only needed at nearly feasible points.
                    plus[0] = problem.objective_value(Part::Plus, &v, &mut ws, &mut scratch);
                    let g0 = g(0, &plus);
                    if !g0.is_finite() {
                        return Err(DcOptError::Numerical {
                            stage: "IDCA inner step",
                            reason: format!("objective became {g0} at outer iteration {k}"),
                        });
                    }
                    if g0 < best_obj {
                        best_obj = g0;
                        best.copy_from_slice(&v);
                        best_t = Some(t - 1);
                    }
                    (0, self.eps)
                } else {
                    (imax, gmax)
                };
                problem.subgradient(Part::Plus, i_step, &v, &mut ws, &mut grad);
                for (gj, dj) in grad.iter_mut().zip(&lin[i_step * n..(i_step + 1) * n]) {
                    *gj -= dj;
                }
                let nrm2 = dot(&grad, &grad);
                if nrm2 <= f64::MIN_POSITIVE || !nrm2.is_finite() {
                    break;
                }
                let step = target / nrm2;
                for (vj, gj) in v.iter_mut().zip(&grad) {
                    *vj -= step * gj;
                }
                self.feasible_set.project(&mut v);
            }
            info.inner_iters += t;
            k += 1;
            iterations = k;
            match best_t {
                Some(bt) if bt > 0 => w.copy_from_slice(&best),
                _ => status = Termination::Stationary,
            }
            eval(&w, &mut ws, &mut plus, &mut minus);
            for i in 0..m1 {
                f[i] = plus[i] - minus[i];
            }
            info.iter = k;
            info.objective = f[0];
            info.max_violation = max_violation(&f);
            if self.checkpoints.contains(&k) {
                checkpoints.push((k, w.clone()));
            }
            if observer.observe(&info).is_break() && status == Termination::MaxIterations {
                status = Termination::Interrupted;
            }
        }
        if status == Termination::Stationary {
            for &c in &self.checkpoints {
                if c > k {
                    checkpoints.push((c, w.clone()));
                }
            }
        }
        Ok(Idca {
            x: w,
            checkpoints,
            report: FitReport {
                solver: "IDCA",
                status,
                iterations,
                inner_iterations: info.inner_iters,
                objective: info.objective,
                max_violation: info.max_violation,
                elapsed: start.elapsed(),
            },
        })
    }
}

/// The shared parameter check ([`fair_core::ParamGuard`]): `check_ref(&self)` and `check(self)`
/// both validate every setting and return the checked params, as the inherent methods do.
impl fair_core::ParamGuard for IdcaParams {
    type Checked = IdcaValidParams;
    type Error = crate::DcOptError;

    fn check_ref(&self) -> std::result::Result<IdcaValidParams, crate::DcOptError> {
        IdcaParams::check(self.clone())
    }

    fn check(self) -> std::result::Result<IdcaValidParams, crate::DcOptError> {
        IdcaParams::check(self)
    }
}
