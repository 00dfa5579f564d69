//! The invariants of the spec (§7.2) as properties, checked on random grouped data:
//!
//! * `E_i(U) ≥ 0` for every orthonormal `U` (fitted, vanilla, random);
//! * vanilla PCA's total loss ≤ any fair solution's;
//! * `Σ_i E_i = L − Σ_i L_i(U_i*)`, with `L` and `L_i(U_i*)` computed directly from
//!   reconstructions (not from fair-metrics' sums);
//! * Lemma 1, `tr(D_tᵀ Ĝ_j) ≤ −‖D_t‖²`, at every iteration;
//! * every iterate is orthonormal to 1e-10;
//! * the simplex QP is optimal (KKT) and agrees with brute force over supports.

mod common;

use common::{REL_TOL, direct_loss, grouped_data};
use fair_data::Groups;
use fair_pca::min_norm::min_norm_point;
use fair_pca::{
    Centering, FairPca, Geometry, IterInfo, MwFairPca, Normalization, Objectives, Observe,
    Projection, StepRule, group_pca, orthonormality_error, vanilla_pca,
};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use std::ops::ControlFlow;

/// Records the worst Lemma-1 violation and the worst orthonormality error over all iterations.
#[derive(Default)]
struct InvariantWatch {
    iterations: usize,
    worst_lemma: f64,
    worst_orthonormality: f64,
    weights_ok: bool,
}

impl Observe<IterInfo<'_>> for InvariantWatch {
    fn observe(&mut self, info: &IterInfo<'_>) -> ControlFlow<()> {
        if self.iterations == 0 {
            self.weights_ok = true;
        }
        self.iterations += 1;
        let d2 = info.direction_norm * info.direction_norm;
        // The QP stops at a KKT gap of 1e-12 · max_j ‖Ĝ_j‖², so that is the scale the
        // violation is measured against; the slopes themselves shrink towards a Pareto
        // stationary point and would turn round-off into a spurious "violation".
        let scale = 1.0
            + info
                .gradient_sq_norms
                .iter()
                .fold(0.0_f64, |m, &s| m.max(s));
        for &s in info.descent_slopes {
            self.worst_lemma = self.worst_lemma.max((s + d2) / scale);
        }
        let sum: f64 = info.weights.iter().sum();
        if info.weights.iter().any(|&w| w < 0.0) || (sum - 1.0).abs() > 1e-12 {
            self.weights_ok = false;
        }
        self.worst_orthonormality = self
            .worst_orthonormality
            .max(orthonormality_error(info.iterate));
        ControlFlow::Continue(())
    }
}

fn centred_sq_norm(x: &DMatrix<f64>) -> f64 {
    let p = vanilla_pca(x, 1, Centering::Global).unwrap();
    p.center(x).unwrap().norm_squared()
}

/// Checks E_i ≥ 0 and the Σ E_i identity for one projection.
fn check_projection(
    x: &DMatrix<f64>,
    g: &Groups,
    p: &Projection,
    own: &[Projection],
    tol: f64,
) -> Result<(), TestCaseError> {
    let l = p.losses(x, g).unwrap();
    for (i, e) in l.raw.disparity.iter().enumerate() {
        prop_assert!(*e >= -tol, "E_{i} = {e} < 0");
    }
    let total = direct_loss(x, g, None, p);
    let best: f64 = own
        .iter()
        .enumerate()
        .map(|(i, u)| direct_loss(x, g, Some(i), u))
        .sum();
    let sum_e: f64 = l.raw.disparity.iter().sum();
    prop_assert!(
        (sum_e - (total - best)).abs() <= tol,
        "Σ E_i = {sum_e} but L − Σ L_i(U_i*) = {}",
        total - best
    );
    Ok(())
}

fn settings() -> impl Strategy<Value = (Objectives, Geometry, Normalization, bool)> {
    (
        prop_oneof![Just(Objectives::Pairwise), Just(Objectives::Single)],
        prop_oneof![Just(Geometry::Euclidean), Just(Geometry::Riemannian)],
        prop_oneof![Just(Normalization::Unit), Just(Normalization::PenaltySlope)],
        any::<bool>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn pareto_fair_pca_keeps_every_invariant(
        seed in any::<u64>(),
        k in 2usize..=4,
        d in 3usize..=6,
        r_pick in 0usize..8,
        (objectives, geometry, normalization, armijo) in settings(),
    ) {
        let r = 1 + r_pick % (d - 1);
        let (x, g) = grouped_data(seed, k, d + 3, d);
        let tol = REL_TOL * centred_sq_norm(&x);
        let mut watch = InvariantWatch::default();
        let step = if armijo { StepRule::armijo() } else { StepRule::default() };
        let fair = FairPca::params(r)
            .objectives(objectives)
            .geometry(geometry)
            .normalization(normalization)
            .step(step)
            .max_iter(40)
            .random_starts(1)
            .seed(seed)
            .fit_with_observer(&x, &g, &mut watch)
            .unwrap();
        prop_assert!(watch.worst_lemma <= 1e-9, "Lemma 1 violated by {}", watch.worst_lemma);
        prop_assert!(watch.worst_orthonormality <= 1e-10, "iterate off the frames by {}", watch.worst_orthonormality);
        prop_assert!(watch.iterations == 0 || watch.weights_ok, "λ left the simplex");

        let own = group_pca(&x, &g, r, Centering::Global).unwrap();
        let vanilla = vanilla_pca(&x, r, Centering::Global).unwrap();
        check_projection(&x, &g, fair.projection(), &own, tol)?;
        check_projection(&x, &g, &vanilla, &own, tol)?;

        let fair_total = direct_loss(&x, &g, None, fair.projection());
        let vanilla_total = direct_loss(&x, &g, None, &vanilla);
        prop_assert!(vanilla_total <= fair_total + tol, "vanilla {vanilla_total} > fair {fair_total}");
    }

    #[test]
    fn baselines_keep_the_loss_invariants(seed in any::<u64>(), k in 2usize..=3, d in 3usize..=6) {
        let r = 1 + (seed as usize) % (d - 1);
        let (x, g) = grouped_data(seed, k, d + 2, d);
        let tol = REL_TOL * centred_sq_norm(&x);
        let own = group_pca(&x, &g, r, Centering::Global).unwrap();
        let vanilla = vanilla_pca(&x, r, Centering::Global).unwrap();
        let vanilla_total = direct_loss(&x, &g, None, &vanilla);
        let mw = MwFairPca::params(r).fit(&x, &g).unwrap();
        check_projection(&x, &g, mw.projection(), &own, tol)?;
        prop_assert!(vanilla_total <= direct_loss(&x, &g, None, mw.projection()) + tol);
        // Any orthonormal frame: E_i ≥ 0 and the identity hold too.
        let q = nalgebra::linalg::QR::new(DMatrix::from_fn(d, r, |i, j| ((i * 7 + j * 3 + seed as usize) % 5) as f64 - 2.0 + if i == j { 3.0 } else { 0.0 })).q();
        let random = Projection::new(q, vanilla.mean().clone()).unwrap();
        check_projection(&x, &g, &random, &own, tol)?;
        prop_assert!(vanilla_total <= direct_loss(&x, &g, None, &random) + tol);
    }

    #[test]
    fn simplex_qp_is_optimal_and_matches_brute_force(
        m in 1usize..=6,
        p in 1usize..=5,
        entries in proptest::collection::vec(-3.0f64..3.0, 30),
    ) {
        let pts: Vec<DVector<f64>> = (0..m)
            .map(|i| DVector::from_iterator(p, (0..p).map(|j| entries[i * 5 + j])))
            .collect();
        let gram = DMatrix::from_fn(m, m, |i, j| pts[i].dot(&pts[j]));
        let scale = 1.0 + (0..m).map(|i| gram[(i, i)]).fold(0.0, f64::max);
        let sol = min_norm_point(&gram).unwrap();
        let sum: f64 = sol.weights.iter().sum();
        prop_assert!((sum - 1.0).abs() < 1e-12 && sol.weights.iter().all(|&w| w >= 0.0));
        let lam = DVector::from_vec(sol.weights.clone());
        let mv = &gram * &lam;
        for j in 0..m {
            prop_assert!(mv[j] >= sol.norm_sq - 1e-10 * scale, "KKT fails at {j}: {} < {}", mv[j], sol.norm_sq);
        }
        let brute = brute_force_min_norm(&gram);
        prop_assert!((sol.norm_sq - brute).abs() <= 1e-9 * scale, "QP {} vs brute force {brute}", sol.norm_sq);
    }
}

/// The minimum of `λᵀMλ` over the simplex by enumerating supports: on each support, the affine
/// minimizer (if its weights are non-negative) is a candidate.
fn brute_force_min_norm(gram: &DMatrix<f64>) -> f64 {
    let m = gram.nrows();
    let mut best = f64::INFINITY;
    for mask in 1u32..(1 << m) {
        let s: Vec<usize> = (0..m).filter(|i| mask & (1 << i) != 0).collect();
        let n = s.len();
        let mut k = DMatrix::<f64>::zeros(n + 1, n + 1);
        for (a, &i) in s.iter().enumerate() {
            for (b, &j) in s.iter().enumerate() {
                k[(a, b)] = gram[(i, j)];
            }
            k[(a, n)] = 1.0;
            k[(n, a)] = 1.0;
        }
        let mut rhs = DVector::<f64>::zeros(n + 1);
        rhs[n] = 1.0;
        let Some(sol) = k.full_piv_lu().solve(&rhs) else {
            continue;
        };
        if sol.iter().take(n).any(|&w| w < -1e-12 || !w.is_finite()) {
            continue;
        }
        let mut lam = DVector::<f64>::zeros(m);
        for (a, &i) in s.iter().enumerate() {
            lam[i] = sol[a];
        }
        best = best.min(lam.dot(&(gram * &lam)));
    }
    best
}
