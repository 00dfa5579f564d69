//! The pairwise baselines of the paper's Appendix G.3 — group AUC (102), inter-group pairwise
//! (105), intra-group pairwise (107) — with the quadratic surrogate `σ(x) = ½(1 + x)²` (103),
//! trained by projected gradient descent (108–110) whose projection is a convex QCQP solved by
//! clarabel as a second-order cone program.
//!
//! For the linear model the pair means are closed-form moments (no O(|A||B|) double sum):
//! ```text
//! (1/(|A||B|)) Σ_{a∈A} Σ_{b∈B} ½(1 + h_a − h_b)² = ½[(1 + ⟨w, x̄_A − x̄_B⟩)² + wᵀ(C_A + C_B)w]
//! ```
//! with `x̄` the set mean of the cross features and `C` their population covariance. Each
//! constraint is thus `½wᵀPw + qᵀw + r ≤ 0`, and the projection
//! `min ½‖w − z‖²` over all of them is a small QCQP. All constraints are for ordered pairs
//! `k ≠ k'` (the notes' reading of "∀k, k'"; `k = k'` would bound the within-group variance).

use crate::data::CrossData;
use crate::error::{DcOptError, Result};
use crate::params::{at_least_one, positive_finite};
use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};
use nalgebra::{DMatrix, DVector, SymmetricEigen};
use std::ops::Range;

/// Which pairwise fairness constraint.
///
/// # Examples
/// ```
/// use dc_opt::baselines::PairwiseKind;
/// assert_eq!(PairwiseKind::GroupAuc.to_string(), "group_auc");
/// assert_eq!("intra_group".parse::<PairwiseKind>()?, PairwiseKind::IntraGroup);
/// assert_eq!(PairwiseKind::NAMES, ["group_auc", "inter_group", "intra_group"]);
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairwiseKind {
    /// (102): `mean_{i∈D_k, j∈D_k'} σ(h_i − h_j) − ½ ≤ κ` (full-range group AUC).
    GroupAuc,
    /// (105): `mean σ(h(D_{k,+}) − h(D_{k',−})) + mean σ(h(D_{k,−}) − h(D_{k',+})) − 1 ≤ κ`.
    InterGroup,
    /// (107): `mean σ(h(D_{k,+}) − h(D_{k,−})) + mean σ(h(D_{k',−}) − h(D_{k',+})) − 1 ≤ κ`.
    IntraGroup,
}

/// Settings of the projected-gradient pairwise baseline.
///
/// | Name | Default | Range | Meaning |
/// |---|---|---|---|
/// | `kappa` | 1.0 | ≥ 0 | allowed violation κ (large: the surrogate is unbounded) |
/// | `step` | `None` | > 0 | gradient step; `None` = `1/L` with `L` the logistic-loss smoothness bound |
/// | `iters` | 1000 | ≥ 1 | projected-gradient iterations (paper: 1000 a9a/bank, 500 law) |
/// | `max_qp_iter` | 100 | ≥ 1 | clarabel interior-point iterations per projection |
#[derive(Debug, Clone, PartialEq)]
pub struct PairwiseParams {
    /// κ.
    pub kappa: f64,
    /// Step size, or `None` for `1/L`.
    pub step: Option<f64>,
    /// Iterations.
    pub iters: usize,
    /// clarabel iteration cap per projection.
    pub max_qp_iter: u32,
}

impl Default for PairwiseParams {
    fn default() -> Self {
        Self {
            kappa: 1.0,
            step: None,
            iters: 1000,
            max_qp_iter: 100,
        }
    }
}

/// The result of [`fit_pairwise`].
#[derive(Debug, Clone)]
pub struct PairwiseFit {
    /// The last iterate `w` (length `2d + 2`).
    pub w: Vec<f64>,
    /// Projections that needed clarabel (the others were already feasible).
    pub projections: usize,
    /// Projections clarabel solved only to reduced accuracy (`AlmostSolved`).
    pub reduced_accuracy: usize,
    /// Largest constraint value `½wᵀPw + qᵀw + r` at the returned `w` (≤ 0 up to solver
    /// tolerance).
    pub max_violation: f64,
}

/// One convex quadratic constraint `½wᵀPw + qᵀw + r ≤ 0`. For the projection it is also kept
/// in the rotated coordinates `v = Vᵀw` of [`Constraints::basis`] as sparse factor rows `F̃` with
/// `F̃ᵀF̃ = VᵀPV`.
#[derive(Debug, Clone)]
struct Quad {
    p: DMatrix<f64>,
    q: DVector<f64>,
    r: f64,
    rows: Vec<Vec<(usize, f64)>>,
}

impl Quad {
    fn value(&self, w: &DVector<f64>) -> f64 {
        0.5 * w.dot(&(&self.p * w)) + self.q.dot(w) + self.r
    }
}

/// All constraints and the orthogonal basis `V` in which their shared covariance part is
/// diagonal: for two groups every ordered pair has the same `Σ C` term and differs only in the
/// rank-one mean terms, so in `v = Vᵀw` each cone has `dim + 2` non-zero rows instead of a dense
/// `dim × dim` block — this is what keeps one clarabel projection at milliseconds on a9a.
#[derive(Debug, Clone)]
struct Constraints {
    basis: DMatrix<f64>,
    quads: Vec<Quad>,
}

/// Mean and population covariance of the cross features of a block of rows.
fn moments(data: &CrossData, rows: Range<usize>) -> (DVector<f64>, DMatrix<f64>) {
    let n = data.dim();
    let mut mean = DVector::zeros(n);
    let mut second = DMatrix::zeros(n, n);
    let mut idx = Vec::new();
    let mut val = Vec::new();
    let count = rows.len() as f64;
    for r in rows {
        data.cross_row(r, &mut idx, &mut val);
        for (a, (&i, &vi)) in idx.iter().zip(&val).enumerate() {
            mean[i] += vi;
            for (&j, &vj) in idx[a..].iter().zip(&val[a..]) {
                second[(i, j)] += vi * vj;
            }
        }
    }
    mean /= count;
    second /= count;
    // Each unordered pair was accumulated once, in either triangle; mirror the sum.
    for i in 0..n {
        for j in 0..i {
            let v = second[(i, j)] + second[(j, i)];
            second[(i, j)] = v;
            second[(j, i)] = v;
        }
    }
    let cov = second - &mean * mean.transpose();
    (mean, cov)
}

/// The pieces of one constraint before factoring: `Σ C`, the mean differences `u`, and `r`.
struct Raw {
    cov: DMatrix<f64>,
    us: Vec<DVector<f64>>,
    r: f64,
}

fn raw(
    terms: &[(usize, usize)],
    stats: &[(DVector<f64>, DMatrix<f64>)],
    offset: f64,
    kappa: f64,
) -> Raw {
    let n = stats[0].0.len();
    let mut cov = DMatrix::zeros(n, n);
    let mut us = Vec::new();
    for &(a, b) in terms {
        us.push(&stats[a].0 - &stats[b].0);
        cov += &stats[a].1 + &stats[b].1;
    }
    Raw {
        cov,
        us,
        r: 0.5 * terms.len() as f64 - offset - kappa,
    }
}

fn factor(raws: Vec<Raw>) -> Constraints {
    let n = raws[0].cov.nrows();
    let eig = SymmetricEigen::new(raws[0].cov.clone());
    let basis = eig.eigenvectors;
    let scale = raws[0].cov.abs().max().max(1e-300);
    let tol = 1e-12
        * eig
            .eigenvalues
            .iter()
            .fold(0.0_f64, |m, &v| m.max(v))
            .max(1e-300);
    let quads = raws
        .into_iter()
        .map(|raw| {
            let mut p = raw.cov.clone();
            let mut q = DVector::zeros(n);
            for u in &raw.us {
                p += u * u.transpose();
                q += u;
            }
            let mut rows: Vec<Vec<(usize, f64)>> = Vec::new();
            let shared = (&raw.cov
                - basis.clone() * DMatrix::from_diagonal(&eig.eigenvalues) * basis.transpose())
            .abs()
            .max()
                <= 1e-9 * scale;
            if shared {
                for (j, &l) in eig.eigenvalues.iter().enumerate() {
                    if l > tol {
                        rows.push(vec![(j, l.sqrt())]);
                    }
                }
                for u in &raw.us {
                    let ut = basis.transpose() * u;
                    rows.push(ut.iter().enumerate().map(|(j, &v)| (j, v)).collect());
                }
            } else {
                // A covariance term of its own (more than two groups): dense rows of VᵀPV.
                let pv = basis.transpose() * &p * &basis;
                let e = SymmetricEigen::new(pv);
                let top = e
                    .eigenvalues
                    .iter()
                    .fold(0.0_f64, |m, &v| m.max(v))
                    .max(1e-300);
                for (i, &l) in e.eigenvalues.iter().enumerate() {
                    if l > 1e-12 * top {
                        let s = l.sqrt();
                        rows.push((0..n).map(|j| (j, s * e.eigenvectors[(j, i)])).collect());
                    }
                }
            }
            Quad {
                p,
                q,
                r: raw.r,
                rows,
            }
        })
        .collect();
    Constraints { basis, quads }
}

fn build_constraints(data: &CrossData, kind: PairwiseKind, kappa: f64) -> Result<Constraints> {
    let g = data.n_groups();
    // Blocks: groups 0..g, then cells (k, y) at g + 2k + y.
    let mut stats = Vec::with_capacity(3 * g);
    for k in 0..g {
        stats.push(moments(data, data.group(k)));
    }
    for k in 0..g {
        for y in 0..2 {
            let rows = data.cell(k, y);
            if rows.is_empty() && kind != PairwiseKind::GroupAuc {
                return Err(DcOptError::EmptyGroup {
                    group: k,
                    what: if y == 1 {
                        "positives of the group (pairwise baseline)"
                    } else {
                        "negatives of the group (pairwise baseline)"
                    },
                });
            }
            stats.push(if rows.is_empty() {
                stats[k].clone()
            } else {
                moments(data, rows)
            });
        }
    }
    let cell = |k: usize, y: usize| g + 2 * k + y;
    let mut raws = Vec::new();
    for k in 0..g {
        for k2 in 0..g {
            if k == k2 {
                continue;
            }
            raws.push(match kind {
                PairwiseKind::GroupAuc => raw(&[(k, k2)], &stats, 0.5, kappa),
                PairwiseKind::InterGroup => raw(
                    &[(cell(k, 1), cell(k2, 0)), (cell(k, 0), cell(k2, 1))],
                    &stats,
                    1.0,
                    kappa,
                ),
                PairwiseKind::IntraGroup => raw(
                    &[(cell(k, 1), cell(k, 0)), (cell(k2, 0), cell(k2, 1))],
                    &stats,
                    1.0,
                    kappa,
                ),
            });
        }
    }
    Ok(factor(raws))
}

/// `argmin ½‖w − z‖²` s.t. every constraint — as an SOCP in `v = Vᵀw`: `‖F̃v‖² ≤ t :=
/// −2(q̃ᵀv + r)` is the cone `‖(2F̃v, t − 1)‖ ≤ t + 1`. Returns `None` when clarabel fails, and
/// whether the accuracy was reduced.
fn project(
    z: &DVector<f64>,
    cons: &Constraints,
    max_iter: u32,
) -> Result<Option<(DVector<f64>, bool)>> {
    let n = z.len();
    let bt = cons.basis.transpose();
    let zt = &bt * z;
    let p = CscMatrix::new_from_triplets(n, n, (0..n).collect(), (0..n).collect(), vec![1.0; n]);
    let q: Vec<f64> = zt.iter().map(|v| -v).collect();
    let (mut ai, mut aj, mut av, mut b) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut cones = Vec::with_capacity(cons.quads.len());
    for c in &cons.quads {
        let qt = &bt * &c.q;
        let mut push_row = |coefs: &mut dyn Iterator<Item = (usize, f64)>, rhs: f64| {
            let r = b.len();
            for (j, v) in coefs {
                if v != 0.0 {
                    ai.push(r);
                    aj.push(j);
                    av.push(v);
                }
            }
            b.push(rhs);
        };
        // s = b − A v; head s₀ = t + 1, then 2F̃v, then t − 1.
        push_row(
            &mut qt.iter().enumerate().map(|(j, &v)| (j, 2.0 * v)),
            1.0 - 2.0 * c.r,
        );
        for row in &c.rows {
            push_row(&mut row.iter().map(|&(j, v)| (j, -2.0 * v)), 0.0);
        }
        push_row(
            &mut qt.iter().enumerate().map(|(j, &v)| (j, 2.0 * v)),
            -2.0 * c.r - 1.0,
        );
        cones.push(SupportedConeT::SecondOrderConeT(c.rows.len() + 2));
    }
    let a = CscMatrix::new_from_triplets(b.len(), n, ai, aj, av);
    let settings = DefaultSettingsBuilder::default()
        .verbose(false)
        .max_iter(max_iter)
        .build()
        .map_err(|e| DcOptError::Numerical {
            stage: "pairwise baseline projection (clarabel settings)",
            reason: e.to_string(),
        })?;
    let mut solver = DefaultSolver::new(&p, &q, &a, &b, &cones, settings).map_err(|e| {
        DcOptError::Numerical {
            stage: "pairwise baseline projection (clarabel setup)",
            reason: e.to_string(),
        }
    })?;
    solver.solve();
    let sol = &solver.solution;
    let reduced = match sol.status {
        SolverStatus::Solved => false,
        SolverStatus::AlmostSolved => true,
        _ => return Ok(None),
    };
    if sol.x.iter().any(|v| !v.is_finite()) {
        return Ok(None);
    }
    Ok(Some((
        &cons.basis * DVector::from_column_slice(&sol.x),
        reduced,
    )))
}

/// Trains a pairwise baseline by projected gradient descent from `w = 0` (feasible: every
/// constraint equals `−κ` there) and returns the last iterate.
///
/// # Errors
/// [`DcOptError::InvalidParameter`] for a negative or non-finite κ, a non-positive step, or zero
/// iterations; [`DcOptError::EmptyGroup`] for a group without positives or negatives ((105),
/// (107)); [`DcOptError::Numerical`] if clarabel cannot project.
pub fn fit_pairwise(
    data: &CrossData,
    kind: PairwiseKind,
    params: &PairwiseParams,
) -> Result<PairwiseFit> {
    if !(params.kappa.is_finite() && params.kappa >= 0.0) {
        return Err(DcOptError::InvalidParameter {
            name: "kappa",
            value: format!("{}", params.kappa),
            expected: "a finite value >= 0",
        });
    }
    if let Some(s) = params.step {
        positive_finite("step", s)?;
    }
    at_least_one("iters", params.iters)?;
    at_least_one("max_qp_iter", params.max_qp_iter as usize)?;
    let cons = build_constraints(data, kind, params.kappa)?;
    let n = data.n_rows();
    let dim = data.dim();
    let step = match params.step {
        Some(s) => s,
        None => {
            // The mean logistic loss is (λ_max(X̃ᵀX̃/n)/4)-smooth.
            let (mean, cov) = moments(data, 0..n);
            let second = cov + &mean * mean.transpose();
            let top = SymmetricEigen::new(second)
                .eigenvalues
                .iter()
                .fold(0.0_f64, |m, &v| m.max(v));
            4.0 / top.max(1e-12)
        }
    };
    let mut w = DVector::zeros(dim);
    let mut scores = vec![0.0; n];
    let mut coef = vec![0.0; n];
    let mut grad = vec![0.0; dim];
    let (mut projections, mut reduced_accuracy) = (0, 0);
    for it in 0..params.iters {
        data.scores_into(w.as_slice(), &mut scores);
        data.logistic_coef(&scores, &mut coef);
        grad.fill(0.0);
        data.add_xt_mul(&coef, 0..n, &mut grad);
        let z = &w - DVector::from_column_slice(&grad) * step;
        if cons.quads.iter().all(|c| c.value(&z) <= 0.0) {
            w = z;
        } else {
            projections += 1;
            match project(&z, &cons, params.max_qp_iter)? {
                Some((x, reduced)) => {
                    reduced_accuracy += usize::from(reduced);
                    w = x;
                }
                None => {
                    return Err(DcOptError::Numerical {
                        stage: "pairwise baseline projection",
                        reason: format!(
                            "clarabel could not project at iteration {it}; try a smaller step \
                             or a larger κ"
                        ),
                    });
                }
            }
        }
    }
    let max_violation = cons
        .quads
        .iter()
        .map(|c| c.value(&w))
        .fold(f64::NEG_INFINITY, f64::max);
    Ok(PairwiseFit {
        w: w.as_slice().to_vec(),
        projections,
        reduced_accuracy,
        max_violation,
    })
}

// `Display`/`FromStr` (issue 27: once, in the crate that owns the enum).
fair_core::string_enum!(PairwiseKind, "pairwise kind", {
    GroupAuc => "group_auc",
    InterGroup => "inter_group",
    IntraGroup => "intra_group",
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::SparseRows;
    use fair_data::Groups;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `max |F̃ᵀF̃ − VᵀPV|` over the constraints: the sparse factor rows must reproduce each
    /// quadratic form in the eigenbasis.
    fn max_factor_error(data: &CrossData, cons: &Constraints) -> f64 {
        let n = data.dim();
        let mut worst = 0.0_f64;
        for c in &cons.quads {
            let mut ftf = DMatrix::zeros(n, n);
            for row in &c.rows {
                for &(i, a) in row {
                    for &(j, b) in row {
                        ftf[(i, j)] += a * b;
                    }
                }
            }
            let vpv = cons.basis.transpose() * &c.p * &cons.basis;
            worst = worst.max((ftf - vpv).abs().max());
        }
        worst
    }

    fn toy(seed: u64) -> CrossData {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = 60;
        let x = DMatrix::from_fn(n, 2, |_, _| rng.random_range(-1.0..1.0));
        let g: Vec<usize> = (0..n).map(|i| i % 2).collect();
        let y: Vec<usize> = (0..n)
            .map(|i| usize::from(x[(i, 0)] + 0.5 * g[i] as f64 > 0.2))
            .collect();
        let groups = Groups::new(g, vec!["a".into(), "b".into()]).unwrap();
        CrossData::new(&SparseRows::from_dense(&x).unwrap(), &y, &groups).unwrap()
    }

    /// Brute-force double sum of the quadratic surrogate over two row blocks.
    fn brute(data: &CrossData, w: &[f64], a: Range<usize>, b: Range<usize>) -> f64 {
        let mut s = vec![0.0; data.n_rows()];
        data.scores_into(w, &mut s);
        let mut t = 0.0;
        for i in a.clone() {
            for j in b.clone() {
                t += 0.5 * (1.0 + s[i] - s[j]).powi(2);
            }
        }
        t / (a.len() * b.len()) as f64
    }

    #[test]
    fn moment_form_matches_the_double_sum() {
        let data = toy(1);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let w: Vec<f64> = (0..data.dim())
            .map(|_| rng.random_range(-1.0..1.0))
            .collect();
        let wv = DVector::from_column_slice(&w);
        for (kind, expect) in [
            (
                PairwiseKind::GroupAuc,
                brute(&data, &w, data.group(0), data.group(1)) - 0.5 - 0.3,
            ),
            (
                PairwiseKind::InterGroup,
                brute(&data, &w, data.cell(0, 1), data.cell(1, 0))
                    + brute(&data, &w, data.cell(0, 0), data.cell(1, 1))
                    - 1.0
                    - 0.3,
            ),
            (
                PairwiseKind::IntraGroup,
                brute(&data, &w, data.cell(0, 1), data.cell(0, 0))
                    + brute(&data, &w, data.cell(1, 0), data.cell(1, 1))
                    - 1.0
                    - 0.3,
            ),
        ] {
            let cons = build_constraints(&data, kind, 0.3).unwrap();
            let got = cons.quads[0].value(&wv);
            assert!((got - expect).abs() < 1e-9, "{kind:?}: {got} vs {expect}");
            // F̃ᵀF̃ = VᵀPV for every constraint.
            let err = max_factor_error(&data, &cons);
            assert!(err < 1e-8, "{kind:?}: factor error {err}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// The closed-form constraint equals the O(|A||B|) double sum at random weights, for
        /// every kind and both ordered pairs, and is convex along random segments.
        #[test]
        fn moment_form_is_the_double_sum_and_convex(
            seed in 0u64..1000,
            lam in 0.0..1.0f64,
            kappa in 0.0..3.0f64,
        ) {
            let data = toy(seed % 7);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut draw = || -> Vec<f64> {
                (0..data.dim()).map(|_| rng.random_range(-2.0..2.0)).collect()
            };
            let (w, y) = (draw(), draw());
            let (wv, yv) = (DVector::from_column_slice(&w), DVector::from_column_slice(&y));
            let b = |w: &[f64], a: Range<usize>, c: Range<usize>| brute(&data, w, a, c);
            for kind in [PairwiseKind::GroupAuc, PairwiseKind::InterGroup, PairwiseKind::IntraGroup] {
                let cons = build_constraints(&data, kind, kappa).unwrap();
                for (i, (k, k2)) in [(0usize, 1usize), (1, 0)].into_iter().enumerate() {
                    let expect = match kind {
                        PairwiseKind::GroupAuc => b(&w, data.group(k), data.group(k2)) - 0.5,
                        PairwiseKind::InterGroup => {
                            b(&w, data.cell(k, 1), data.cell(k2, 0))
                                + b(&w, data.cell(k, 0), data.cell(k2, 1)) - 1.0
                        }
                        PairwiseKind::IntraGroup => {
                            b(&w, data.cell(k, 1), data.cell(k, 0))
                                + b(&w, data.cell(k2, 0), data.cell(k2, 1)) - 1.0
                        }
                    } - kappa;
                    let got = cons.quads[i].value(&wv);
                    proptest::prop_assert!((got - expect).abs() < 1e-8 * (1.0 + expect.abs()));
                    let mid = &wv * lam + &yv * (1.0 - lam);
                    let chord = lam * got + (1.0 - lam) * cons.quads[i].value(&yv);
                    proptest::prop_assert!(cons.quads[i].value(&mid) <= chord + 1e-9 * (1.0 + chord.abs()));
                }
            }
        }
    }

    #[test]
    fn a_group_without_positives_is_a_typed_error_for_the_label_pair_kinds() {
        let x = DMatrix::from_fn(8, 1, |i, _| i as f64);
        let g = vec![0, 0, 0, 0, 1, 1, 1, 1];
        let y = vec![0, 1, 0, 1, 0, 0, 0, 0];
        let groups = Groups::new(g, vec!["a".into(), "b".into()]).unwrap();
        let data = CrossData::new(&SparseRows::from_dense(&x).unwrap(), &y, &groups).unwrap();
        for kind in [PairwiseKind::InterGroup, PairwiseKind::IntraGroup] {
            assert!(matches!(
                fit_pairwise(&data, kind, &PairwiseParams::default()),
                Err(DcOptError::EmptyGroup { group: 1, .. })
            ));
        }
        // Group AUC does not look at labels.
        let ok = PairwiseParams {
            iters: 3,
            ..PairwiseParams::default()
        };
        assert!(fit_pairwise(&data, PairwiseKind::GroupAuc, &ok).is_ok());
    }

    #[test]
    fn three_groups_use_dense_rows_and_still_factor_exactly() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let n = 90;
        let x = DMatrix::from_fn(n, 2, |_, _| rng.random_range(-1.0..1.0));
        let g: Vec<usize> = (0..n).map(|i| i % 3).collect();
        let y: Vec<usize> = (0..n).map(|i| usize::from(x[(i, 1)] > 0.0)).collect();
        let groups = Groups::new(g, vec!["a".into(), "b".into(), "c".into()]).unwrap();
        let data = CrossData::new(&SparseRows::from_dense(&x).unwrap(), &y, &groups).unwrap();
        let cons = build_constraints(&data, PairwiseKind::GroupAuc, 0.2).unwrap();
        assert_eq!(cons.quads.len(), 6);
        assert!(max_factor_error(&data, &cons) < 1e-8);
        let fit = fit_pairwise(
            &data,
            PairwiseKind::GroupAuc,
            &PairwiseParams {
                kappa: 0.02,
                iters: 20,
                ..PairwiseParams::default()
            },
        )
        .unwrap();
        assert!(fit.max_violation <= 1e-6, "{}", fit.max_violation);
    }

    #[test]
    fn projection_is_feasible_and_no_farther_than_a_feasible_point() {
        let data = toy(3);
        let cons = build_constraints(&data, PairwiseKind::GroupAuc, 0.05).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let z = DVector::from_fn(data.dim(), |_, _| rng.random_range(-3.0..3.0));
        assert!(
            cons.quads.iter().any(|c| c.value(&z) > 0.0),
            "z must be infeasible"
        );
        let (x, _) = project(&z, &cons, 200).unwrap().unwrap();
        for c in &cons.quads {
            assert!(
                c.value(&x) <= 1e-6,
                "projection infeasible: {}",
                c.value(&x)
            );
        }
        // w = 0 is feasible, so the projection is at least as close to z.
        assert!((&x - &z).norm() <= z.norm() + 1e-7);
        // Optimality: moving toward z along a segment leaves the set (x is on the boundary).
        let toward = &x + (&z - &x) * 0.05;
        assert!(cons.quads.iter().any(|c| c.value(&toward) > 0.0));
    }

    #[test]
    fn iterates_stay_feasible_and_bad_settings_are_rejected() {
        let data = toy(5);
        for kind in [
            PairwiseKind::GroupAuc,
            PairwiseKind::InterGroup,
            PairwiseKind::IntraGroup,
        ] {
            let fit = fit_pairwise(
                &data,
                kind,
                &PairwiseParams {
                    kappa: 0.05,
                    iters: 30,
                    ..PairwiseParams::default()
                },
            )
            .unwrap();
            assert!(fit.max_violation <= 1e-6, "{kind:?}: {}", fit.max_violation);
        }
        for bad in [
            PairwiseParams {
                kappa: -1.0,
                ..PairwiseParams::default()
            },
            PairwiseParams {
                step: Some(0.0),
                ..PairwiseParams::default()
            },
            PairwiseParams {
                iters: 0,
                ..PairwiseParams::default()
            },
        ] {
            assert!(matches!(
                fit_pairwise(&data, PairwiseKind::GroupAuc, &bad),
                Err(DcOptError::InvalidParameter { .. })
            ));
        }
    }
}
