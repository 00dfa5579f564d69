//! The generic difference-of-convex (DC) constrained problem (the paper's (27)).
//!
//! ```text
//! min_{x ∈ W}  f_0(x) = f_0⁺(x) − f_0⁻(x)
//! s.t.         f_i(x) = f_i⁺(x) − f_i⁻(x) ≤ 0,   i = 1..m,
//! ```
//! every `f_i^±` convex and real-valued, possibly non-smooth. A problem is a plain struct that
//! implements [`DcProblem`]; the solvers ([`crate::Idca`], [`crate::Ssg`]) never see its data.

/// Which convex part of a DC function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The convex part `f⁺` (kept as is by IDCA).
    Plus,
    /// The subtracted convex part `f⁻` (linearised by IDCA).
    Minus,
}

/// A DC-constrained problem: values and subgradients of the convex parts of `f_0, f_1, …, f_m`.
///
/// Component `0` is the objective, components `1..=m` the constraints. Evaluation goes through a
/// caller-owned [`DcProblem::Workspace`]: [`DcProblem::prepare`] does the shared work at a point
/// (for a linear model, the scores), after which values and subgradients at that same point are
/// cheap. Implementations must not allocate in `prepare`, `values` or `subgradient`, so the
/// solvers' inner loops are allocation-free. The crate's models never panic on wrong buffer
/// lengths: they write NaN instead, which the solvers report as [`crate::DcOptError::Numerical`].
pub trait DcProblem {
    /// Scratch memory reused across evaluations.
    type Workspace;

    /// Dimension `n` of the variable `x ∈ Rⁿ`.
    fn dim(&self) -> usize;
    /// Number `m` of constraints.
    fn n_constraints(&self) -> usize;
    /// A fresh workspace.
    fn workspace(&self) -> Self::Workspace;
    /// Shared work at `x` (`x.len() == dim()`); must precede `values`/`subgradient` at `x`.
    fn prepare(&self, x: &[f64], ws: &mut Self::Workspace);
    /// Writes `f_i^part(x)` for `i = 0..=m` into `out` (`out.len() == m + 1`).
    fn values(&self, part: Part, x: &[f64], ws: &mut Self::Workspace, out: &mut [f64]);
    /// Writes `f_i^part(x)` for the constraints `i = 1..=m` into `out[1..]` (`out.len() == m + 1`);
    /// `out[0]` may be left as it was. The switching-subgradient steps need the objective only at
    /// nearly feasible points, and for the crate's models it is the costliest value (a log-loss
    /// over every row), so the solvers ask for it separately. Default: [`DcProblem::values`].
    fn constraint_values(&self, part: Part, x: &[f64], ws: &mut Self::Workspace, out: &mut [f64]) {
        self.values(part, x, ws, out);
    }
    /// `f_0^part(x)` alone, after [`DcProblem::prepare`] at `x`; `scratch.len() == m + 1` may be
    /// overwritten. Default: through [`DcProblem::values`].
    fn objective_value(
        &self,
        part: Part,
        x: &[f64],
        ws: &mut Self::Workspace,
        scratch: &mut [f64],
    ) -> f64 {
        self.values(part, x, ws, scratch);
        scratch.first().copied().unwrap_or(f64::NAN)
    }
    /// Overwrites `out` (`out.len() == dim()`) with one subgradient of `f_i^part` at `x`.
    fn subgradient(
        &self,
        part: Part,
        i: usize,
        x: &[f64],
        ws: &mut Self::Workspace,
        out: &mut [f64],
    );
}

/// Values `f_i(x) = f_i⁺(x) − f_i⁻(x)` for `i = 0..=m` (allocates; for tests and reports).
pub fn dc_values<P: DcProblem>(problem: &P, x: &[f64]) -> Vec<f64> {
    let m1 = problem.n_constraints() + 1;
    let mut ws = problem.workspace();
    problem.prepare(x, &mut ws);
    let mut plus = vec![0.0; m1];
    let mut minus = vec![0.0; m1];
    problem.values(Part::Plus, x, &mut ws, &mut plus);
    problem.values(Part::Minus, x, &mut ws, &mut minus);
    plus.iter().zip(&minus).map(|(p, q)| p - q).collect()
}

/// `max_i f_i(x)` over the constraints (0 when there are none), and `f_0(x)`.
pub fn objective_and_violation<P: DcProblem>(problem: &P, x: &[f64]) -> (f64, f64) {
    let f = dc_values(problem, x);
    let viol = f[1..].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (f[0], if f.len() > 1 { viol } else { 0.0 })
}
