//! A small builder for clarabel problems `min ½xᵀPx + qᵀx  s.t.  Ax + s = b, s ∈ K`, and the
//! mapping of clarabel's status into this crate's types.

use crate::error::{FairSvmError, Result, SolverFailure};
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

/// One sparse constraint row `aᵀx (+ s) = b`.
pub(crate) struct Row {
    pub entries: Vec<(usize, f64)>,
    pub rhs: f64,
}

impl Row {
    pub fn new(entries: Vec<(usize, f64)>, rhs: f64) -> Self {
        Self { entries, rhs }
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Cone {
    /// `s = 0`: the row holds with equality, `aᵀx = b`.
    Zero,
    /// `s ≥ 0`: `aᵀx ≤ b`.
    Nonnegative,
    /// `s₀ ≥ ‖s₁..‖`: the block's first row is the cone's head.
    SecondOrder,
}

pub(crate) struct ConicProblem {
    n_vars: usize,
    /// Upper-triangular entries `(row ≤ col, value)` of P.
    p_entries: Vec<(usize, usize, f64)>,
    q: Vec<f64>,
    blocks: Vec<(Cone, Vec<Row>)>,
    equilibrate: bool,
}

/// How accurately a subproblem was solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Accuracy {
    Full,
    Reduced,
}

pub(crate) struct Solution {
    pub x: Vec<f64>,
    /// Dual variables in clarabel's convention (`Px + q + Aᵀz = 0`), one per constraint row
    /// in the order the blocks were added.
    pub z: Vec<f64>,
    pub accuracy: Accuracy,
    pub iterations: u32,
}

pub(crate) enum Outcome {
    Solved(Solution),
    Failed(SolverFailure),
}

impl ConicProblem {
    pub fn new(n_vars: usize) -> Self {
        Self {
            n_vars,
            p_entries: Vec::new(),
            q: vec![0.0; n_vars],
            blocks: Vec::new(),
            equilibrate: true,
        }
    }

    /// Turns off clarabel's Ruiz equilibration. Measured need: the kernel subproblems with the
    /// exact factor of an RBF kernel (dense in n, columns of R spanning K's dynamic range) end in
    /// a numerical error with it from n = 400 and solve without it.
    pub fn without_equilibration(&mut self) {
        self.equilibrate = false;
    }

    /// Adds `value` at `(i, j)` of P (and implicitly `(j, i)`); only `i ≤ j` is stored.
    pub fn p(&mut self, i: usize, j: usize, value: f64) {
        let (r, c) = if i <= j { (i, j) } else { (j, i) };
        self.p_entries.push((r, c, value));
    }

    pub fn q(&mut self, i: usize, value: f64) {
        self.q[i] += value;
    }

    pub fn block(&mut self, cone: Cone, rows: Vec<Row>) {
        if !rows.is_empty() {
            self.blocks.push((cone, rows));
        }
    }

    pub fn solve(self, max_iter: u32) -> Result<Outcome> {
        let n = self.n_vars;
        let (pi, pj, pv) = split3(self.p_entries);
        let p = CscMatrix::new_from_triplets(n, n, pi, pj, pv);
        let mut ai = Vec::new();
        let mut aj = Vec::new();
        let mut av = Vec::new();
        let mut b = Vec::new();
        let mut cones = Vec::with_capacity(self.blocks.len());
        for (cone, rows) in &self.blocks {
            cones.push(match cone {
                Cone::Zero => SupportedConeT::ZeroConeT(rows.len()),
                Cone::Nonnegative => SupportedConeT::NonnegativeConeT(rows.len()),
                Cone::SecondOrder => SupportedConeT::SecondOrderConeT(rows.len()),
            });
            for row in rows {
                let r = b.len();
                for &(j, v) in &row.entries {
                    ai.push(r);
                    aj.push(j);
                    av.push(v);
                }
                b.push(row.rhs);
            }
        }
        let a = CscMatrix::new_from_triplets(b.len(), n, ai, aj, av);
        let settings = DefaultSettingsBuilder::default()
            .verbose(false)
            .max_iter(max_iter)
            .equilibrate_enable(self.equilibrate)
            .build()
            .map_err(|e| FairSvmError::SolverSetup {
                reason: e.to_string(),
            })?;
        let mut solver =
            DefaultSolver::new(&p, &self.q, &a, &b, &cones, settings).map_err(|e| {
                FairSvmError::SolverSetup {
                    reason: e.to_string(),
                }
            })?;
        solver.solve();
        let sol = &solver.solution;
        let accuracy = match sol.status {
            SolverStatus::Solved => Accuracy::Full,
            SolverStatus::AlmostSolved => Accuracy::Reduced,
            other => return Ok(Outcome::Failed(failure(other))),
        };
        if sol.x.iter().any(|v| !v.is_finite()) {
            return Ok(Outcome::Failed(SolverFailure::NumericalError));
        }
        Ok(Outcome::Solved(Solution {
            x: sol.x.clone(),
            z: sol.z.clone(),
            accuracy,
            iterations: sol.iterations,
        }))
    }
}

fn split3(v: Vec<(usize, usize, f64)>) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
    let mut a = Vec::with_capacity(v.len());
    let mut b = Vec::with_capacity(v.len());
    let mut c = Vec::with_capacity(v.len());
    for (i, j, x) in v {
        a.push(i);
        b.push(j);
        c.push(x);
    }
    (a, b, c)
}

fn failure(status: SolverStatus) -> SolverFailure {
    match status {
        SolverStatus::MaxIterations => SolverFailure::MaxIterations,
        SolverStatus::MaxTime => SolverFailure::MaxTime,
        SolverStatus::NumericalError => SolverFailure::NumericalError,
        SolverStatus::InsufficientProgress => SolverFailure::InsufficientProgress,
        SolverStatus::PrimalInfeasible
        | SolverStatus::DualInfeasible
        | SolverStatus::AlmostPrimalInfeasible
        | SolverStatus::AlmostDualInfeasible => SolverFailure::Infeasible,
        _ => SolverFailure::Other,
    }
}

/// The rows of the convex quadratic constraint `‖Lᵀv‖² − 2gᵀv + c ≤ τ` as a second-order cone
/// (rotated form `‖[Lᵀv; (r−1)/2]‖ ≤ (r+1)/2` with `r = τ + 2gᵀv − c`), or as the linear
/// inequality `0 ≤ r` when `L` has no columns. `v` occupies columns `v_offset..v_offset + len`,
/// τ is column `tau`.
pub(crate) fn quadratic_constraint(
    problem: &mut ConicProblem,
    factor: &nalgebra::DMatrix<f64>,
    g: &nalgebra::DVector<f64>,
    c: f64,
    v_offset: usize,
    tau: usize,
) {
    // r = τ + 2gᵀv − c. A row a with rhs b means s = b − aᵀx.
    let r_row = |shift: f64| {
        let mut e: Vec<(usize, f64)> = g
            .iter()
            .enumerate()
            .map(|(j, &gj)| (v_offset + j, -gj))
            .collect();
        e.push((tau, -0.5));
        // s = (r + shift)/2 = b − aᵀx  with a = −(g, ½), b = (shift − c)/2
        Row::new(e, (shift - c) / 2.0)
    };
    if factor.ncols() == 0 {
        // 0 ≤ r  ⇔  −(τ + 2gᵀv) ≤ −c
        let mut e: Vec<(usize, f64)> = g
            .iter()
            .enumerate()
            .map(|(j, &gj)| (v_offset + j, -2.0 * gj))
            .collect();
        e.push((tau, -1.0));
        problem.block(Cone::Nonnegative, vec![Row::new(e, -c)]);
        return;
    }
    let mut rows = vec![r_row(1.0), r_row(-1.0)];
    for k in 0..factor.ncols() {
        let e = (0..factor.nrows())
            .filter(|&j| factor[(j, k)] != 0.0)
            .map(|j| (v_offset + j, -factor[(j, k)]))
            .collect();
        rows.push(Row::new(e, 0.0));
    }
    problem.block(Cone::SecondOrder, rows);
}
