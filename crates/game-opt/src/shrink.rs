//! The shrinking LP of Lemma 3 (m-stochastic solutions) and the Eq. 18 rank rule.

use crate::error::{GameOptError, Result};
use good_lp::{
    Expression as LpExpr, ProblemVariables, ResolutionError, Solution, SolverModel, Variable,
    microlp, variable,
};

/// Weights below this are treated as zero in a vertex solution (then renormalised).
const WEIGHT_ZERO: f64 = 1e-12;

/// How the shrinking LP was solved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShrinkOutcome {
    /// Feasible at the requested `ε`: `Σₜ pₜ gᵢₜ ≤ ε` for every constraint.
    Feasible,
    /// Infeasible at `ε`; bisection (as TFCO's `find_best_candidate_distribution`) found the
    /// smallest bound that admits a mixture, up to the tolerance.
    Relaxed {
        /// The bound used: the returned mixture's expected violations are all `≤` it.
        max_violation: f64,
    },
}

/// Result of [`shrink`]: mixture weights over the candidates and how they were found.
#[derive(Debug, Clone, PartialEq)]
pub struct ShrinkResult {
    /// One weight per candidate; a vertex of the LP, so at most `m + 1` are non-zero.
    pub weights: Vec<f64>,
    /// Feasible at ε, or relaxed.
    pub outcome: ShrinkOutcome,
}

impl ShrinkResult {
    /// Number of non-zero weights.
    pub fn support(&self) -> usize {
        self.weights.iter().filter(|w| **w > 0.0).count()
    }
}

fn check_inputs(objectives: &[f64], constraints: &[Vec<f64>]) -> Result<usize> {
    if objectives.is_empty() {
        return Err(GameOptError::NoCandidates {
            what: "the shrinking LP",
        });
    }
    if constraints.len() != objectives.len() {
        return Err(GameOptError::LengthMismatch {
            what: "candidate constraint vectors",
            expected: objectives.len(),
            got: constraints.len(),
        });
    }
    let m = constraints[0].len();
    for c in constraints {
        if c.len() != m {
            return Err(GameOptError::LengthMismatch {
                what: "constraint values of a candidate",
                expected: m,
                got: c.len(),
            });
        }
    }
    let all = objectives.iter().chain(constraints.iter().flatten());
    if let Some((index, &value)) = all.enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(GameOptError::NonFinite {
            what: "LP inputs (objectives, then constraint values)",
            index,
            value,
        });
    }
    Ok(m)
}

/// Solves `min ⟨p, g₀⟩ s.t. Σₜ pₜ gᵢₜ ≤ bound ∀i, p ∈ Δᵀ` with microlp's simplex; `None` when
/// infeasible.
fn solve_at(objectives: &[f64], constraints: &[Vec<f64>], bound: f64) -> Result<Option<Vec<f64>>> {
    let t = objectives.len();
    let m = constraints[0].len();
    let mut vars = ProblemVariables::new();
    let p: Vec<Variable> = (0..t)
        .map(|_| vars.add(variable().min(0.0).max(1.0)))
        .collect();
    let mut obj = LpExpr::with_capacity(t);
    for (v, g) in p.iter().zip(objectives) {
        obj.add_mul(*g, *v);
    }
    let mut model = vars.minimise(obj).using(microlp);
    let mut total = LpExpr::with_capacity(t);
    for v in &p {
        total.add_mul(1.0, *v);
    }
    model = model.with(total.eq(1.0));
    for i in 0..m {
        let mut e = LpExpr::with_capacity(t);
        for (v, c) in p.iter().zip(constraints) {
            e.add_mul(c[i], *v);
        }
        model = model.with(e.leq(bound));
    }
    match model.solve() {
        Ok(sol) => {
            let mut w: Vec<f64> = p.iter().map(|v| sol.value(*v)).collect();
            for x in &mut w {
                if !x.is_finite() || *x < WEIGHT_ZERO {
                    *x = 0.0;
                }
            }
            let s: f64 = w.iter().sum();
            if s <= 0.0 {
                return Err(GameOptError::Lp {
                    reason: "solver returned all-zero weights".into(),
                });
            }
            w.iter_mut().for_each(|x| *x /= s);
            Ok(Some(w))
        }
        Err(ResolutionError::Infeasible) => Ok(None),
        Err(e) => Err(GameOptError::Lp {
            reason: e.to_string(),
        }),
    }
}

/// The shrinking procedure (Lemma 3): the best mixture of candidate iterates subject to the
/// constraints, returned as an LP vertex with at most `m + 1` non-zero weights.
///
/// ```text
/// min_{p ∈ Δᵀ} Σₜ pₜ g₀(θₜ)   s.t.   Σₜ pₜ gᵢ(θₜ) ≤ ε,  i = 1..m
/// ```
///
/// When no mixture meets `ε`, bisects the bound between `ε` and the best single candidate's
/// worst violation (TFCO's `find_best_candidate_distribution`) until the bracket is narrower than
/// `tolerance`, and returns the mixture at the smallest feasible bound found.
///
/// `objectives[t]` is candidate t's objective, `constraints[t]` its `m` constraint values
/// (use the exact 0-1 values, §5).
///
/// # Errors
/// [`GameOptError::NoCandidates`], [`GameOptError::LengthMismatch`],
/// [`GameOptError::NonFinite`], [`GameOptError::InvalidParam`] for a negative `ε` or a
/// non-positive tolerance, [`GameOptError::Lp`] when the solver fails otherwise.
///
/// # Examples
/// ```
/// use game_opt::{shrink, ShrinkOutcome};
/// // Three candidates, one constraint: only a mixture of 0 and 2 is both feasible and cheap.
/// let r = shrink(&[0.1, 0.3, 0.2], &[vec![0.2], vec![-0.1], vec![-0.2]], 0.0, 1e-6)?;
/// assert_eq!(r.outcome, ShrinkOutcome::Feasible);
/// assert!(r.support() <= 2);
/// assert!((r.weights[0] - 0.5).abs() < 1e-9 && (r.weights[2] - 0.5).abs() < 1e-9);
/// # Ok::<(), game_opt::GameOptError>(())
/// ```
pub fn shrink(
    objectives: &[f64],
    constraints: &[Vec<f64>],
    epsilon: f64,
    tolerance: f64,
) -> Result<ShrinkResult> {
    let m = check_inputs(objectives, constraints)?;
    if !(epsilon.is_finite() && epsilon >= 0.0) {
        return Err(GameOptError::InvalidParam {
            name: "lp_epsilon",
            value: epsilon.to_string(),
            expected: "finite and >= 0",
        });
    }
    if !(tolerance.is_finite() && tolerance > 0.0) {
        return Err(GameOptError::InvalidParam {
            name: "lp_tolerance",
            value: tolerance.to_string(),
            expected: "finite and > 0",
        });
    }
    if m == 0 {
        // Unconstrained: the best single candidate (a vertex with one non-zero).
        let best = argmin(objectives);
        let mut weights = vec![0.0; objectives.len()];
        weights[best] = 1.0;
        return Ok(ShrinkResult {
            weights,
            outcome: ShrinkOutcome::Feasible,
        });
    }
    if let Some(weights) = solve_at(objectives, constraints, epsilon)? {
        return Ok(ShrinkResult {
            weights,
            outcome: ShrinkOutcome::Feasible,
        });
    }
    let worst: Vec<f64> = constraints
        .iter()
        .map(|c| c.iter().copied().fold(f64::NEG_INFINITY, f64::max))
        .collect();
    let mut upper = worst[argmin(&worst)];
    let mut lower = epsilon;
    let mut best = match solve_at(objectives, constraints, upper)? {
        Some(w) => w,
        None => {
            // Round-off at the boundary: the single best candidate is feasible by construction.
            let mut w = vec![0.0; objectives.len()];
            w[argmin(&worst)] = 1.0;
            w
        }
    };
    while upper - lower > tolerance {
        let mid = 0.5 * (lower + upper);
        match solve_at(objectives, constraints, mid)? {
            Some(w) => {
                best = w;
                upper = mid;
            }
            None => lower = mid,
        }
    }
    Ok(ShrinkResult {
        weights: best,
        outcome: ShrinkOutcome::Relaxed {
            max_violation: upper,
        },
    })
}

fn argmin(v: &[f64]) -> usize {
    let mut best = 0;
    for (i, x) in v.iter().enumerate() {
        if *x < v[best] {
            best = i;
        }
    }
    best
}

/// The rank rule of Eq. 18 (TFCO's `find_best_candidate_index`): rank candidates by objective
/// and by maximum violation clipped at 0 (rank method "min", so all feasible candidates tie at
/// rank 1), pick the smallest `max(objective rank, violation rank)`, break ties by the smaller
/// objective, and an exact tie by the later index. Used for the Best iterate (training values)
/// and hyperparameter selection (validation values). Non-finite values rank last.
///
/// Returns `None` for no candidates or mismatched lengths.
///
/// # Examples
/// ```
/// use game_opt::rank_select;
/// // Candidate 1 is feasible with a middling objective; 0 is best but violates.
/// assert_eq!(rank_select(&[0.10, 0.12, 0.20], &[0.05, -0.01, -0.02]), Some(1));
/// ```
pub fn rank_select(objectives: &[f64], max_violations: &[f64]) -> Option<usize> {
    let n = objectives.len();
    if n == 0 || max_violations.len() != n {
        return None;
    }
    let clean = |x: f64| if x.is_nan() { f64::INFINITY } else { x };
    let obj: Vec<f64> = objectives.iter().map(|&x| clean(x)).collect();
    let vio: Vec<f64> = max_violations.iter().map(|&x| clean(x).max(0.0)).collect();
    let rank = |v: &[f64], i: usize| 1 + v.iter().filter(|&&x| x < v[i]).count();
    let mut best = 0;
    let mut best_key = (usize::MAX, f64::INFINITY);
    for i in 0..n {
        let r = rank(&obj, i).max(rank(&vio, i));
        let key = (r, obj[i]);
        if key.0 < best_key.0 || (key.0 == best_key.0 && key.1 <= best_key.1) {
            best = i;
            best_key = key;
        }
    }
    Some(best)
}

/// The smallest achievable maximum violation over per-cell positive fractions `q_c ∈ [0, 1]`:
/// `min s  s.t.  constᵢ + Σ_c count_c·(b_ci + (a_ci − b_ci)·q_c) ≤ s`. `cells[c].0` interleaves
/// `(a_c0, b_c0, a_c1, b_c1, …)`.
pub(crate) fn min_max_violation_cells(
    cells: &[(Vec<f64>, f64)],
    constant: &[f64],
    m: usize,
) -> Result<f64> {
    let mut vars = ProblemVariables::new();
    let s = vars.add(variable());
    let q: Vec<Variable> = cells
        .iter()
        .map(|_| vars.add(variable().min(0.0).max(1.0)))
        .collect();
    let mut model = vars.minimise(s).using(microlp);
    for (i, &c0) in constant.iter().enumerate().take(m) {
        let mut e = LpExpr::with_capacity(cells.len() + 1);
        let mut c = c0;
        for ((coef, count), v) in cells.iter().zip(&q) {
            let (a, b) = (coef[2 * i], coef[2 * i + 1]);
            c += count * b;
            e.add_mul(count * (a - b), *v);
        }
        e.add_mul(-1.0, s);
        model = model.with(e.leq(-c));
    }
    match model.solve() {
        Ok(sol) => Ok(sol.value(s)),
        Err(e) => Err(GameOptError::Lp {
            reason: e.to_string(),
        }),
    }
}
