//! Cases whose answers are computed by hand.
//!
//! Two groups in R² with r = 1: group a lies on ±2·e₁, group b on ±1·e₂ (two rows each, mean
//! zero, no centring needed). For u = (cos θ, sin θ), per sample,
//!
//! ```text
//! E_a(θ) = 4 sin²θ,   E_b(θ) = cos²θ   (each group alone fits in one dimension: L_i(U_i*) = 0)
//! ```
//!
//! Vanilla PCA (A = diag(8, 2)) picks θ = 0: E_a = 0, E_b = 1, total loss 2 (raw). The fair
//! frame has 4 sin²θ = cos²θ, i.e. tan²θ = ¼, sin²θ = ⅕: E_a = E_b = 0.8 per sample, and
//! the total loss is 2·(2·0.8) = 3.2 raw. (The vanilla frame e₁ is a degenerate start here: every
//! gradient is parallel to e₁ itself, so D = 0 at once; the fits below start from a random frame.) The min–max SDP relaxation P = diag(p, 1 − p, 0) equalizes
//! 4(1 − p) = p at p = 0.8: the same 0.8 per group. With r + 1 = 2 = d directions (Samadi's extra
//! dimension) both groups are reconstructed exactly.

use fair_data::Groups;
use fair_pca::{
    Centering, FairPca, Geometry, MwFairPca, Normalization, StepRule, Termination, vanilla_pca,
};
use nalgebra::{DMatrix, dmatrix};

fn toy() -> (DMatrix<f64>, Groups) {
    let x = dmatrix![
        2.0, 0.0;
        -2.0, 0.0;
        0.0, 1.0;
        0.0, -1.0
    ];
    (x, Groups::from_labels(&["a", "a", "b", "b"]))
}

#[test]
fn vanilla_pca_by_hand() {
    let (x, g) = toy();
    let v = vanilla_pca(&x, 1, Centering::Global).unwrap();
    let l = v.losses(&x, &g).unwrap();
    assert!(l.per_sample.disparity[0].abs() < 1e-12);
    assert!((l.per_sample.disparity[1] - 1.0).abs() < 1e-12);
    assert!((l.total_loss - 2.0).abs() < 1e-12);
}

#[test]
fn armijo_with_slope_normalization_converges_to_the_fair_frame() {
    let (x, g) = toy();
    let m = FairPca::paper(1)
        .normalization(Normalization::PenaltySlope)
        .step(StepRule::armijo())
        .vanilla_start(false)
        .random_starts(1)
        .max_iter(2000)
        .tol(1e-10)
        .fit(&x, &g)
        .unwrap();
    assert_eq!(m.report().status, Termination::Converged, "{}", m.report());
    let l = m.losses(&x, &g).unwrap();
    for e in &l.per_sample.disparity {
        assert!((e - 0.8).abs() < 1e-6, "E = {e}, expected 0.8");
    }
    assert!((l.total_loss - 3.2).abs() < 1e-5);
    // tan θ = ±½: the basis is (±2, ±1)/√5.
    let u = m.basis();
    assert!((u[(0, 0)].abs() - 2.0 / 5.0_f64.sqrt()).abs() < 1e-5);
    assert!((u[(1, 0)].abs() - 1.0 / 5.0_f64.sqrt()).abs() < 1e-5);
}

#[test]
fn the_paper_default_oscillates_close_to_the_fair_frame() {
    let (x, g) = toy();
    let m = FairPca::paper(1)
        .max_iter(1000)
        .vanilla_start(false)
        .random_starts(1)
        .fit(&x, &g)
        .unwrap();
    assert_eq!(m.report().status, Termination::MaxIterations);
    let l = m.losses(&x, &g).unwrap();
    // 1/√t steps keep oscillating around the fair frame (η_1000 ≈ 0.03).
    for e in &l.per_sample.disparity {
        assert!((e - 0.8).abs() < 0.05, "E = {e}, expected about 0.8");
    }
    assert!(l.per_sample.max_pairwise_gap < 0.1); // vanilla PCA's gap is 1
}

#[test]
fn vanilla_pca_is_a_stationary_start_in_the_riemannian_geometry() {
    // At vanilla PCA, ∇L = −2AU = −2UΛ is normal to the frames, so the Riemannian direction is
    // D = 0: vanilla PCA is a Pareto-optimal end point of the front. The paper's Euclidean
    // gradients still see ‖D‖ > 0 and move towards fairness. (Generic data, not the toy above.)
    let x = DMatrix::from_fn(40, 4, |i, j| {
        let t = ((i * 31 + j * 17) % 23) as f64 / 23.0 - 0.5;
        t * if (i % 2 == 0) == (j % 2 == 0) {
            3.0
        } else {
            1.0
        } + 0.1 * (i * j % 5) as f64
    });
    let g = Groups::from_codes(&(0..40).map(|i| i % 2).collect::<Vec<_>>()).unwrap();
    let v = vanilla_pca(&x, 1, Centering::Global).unwrap();
    let r = FairPca::paper(1)
        .geometry(Geometry::Riemannian)
        .fit(&x, &g)
        .unwrap();
    assert_eq!(r.report().status, Termination::Converged);
    assert_eq!(r.report().iterations, 0);
    assert!((r.basis() - v.basis()).abs().max() < 1e-12);
    let e = FairPca::paper(1).max_iter(20).fit(&x, &g).unwrap();
    assert!(e.report().starts[0].direction_norm > 0.1);
    let moved = (e.basis() - v.basis())
        .norm()
        .min((e.basis() + v.basis()).norm());
    assert!(moved > 1e-3);
    let (fl, vl) = (e.losses(&x, &g).unwrap(), v.losses(&x, &g).unwrap());
    assert!(fl.per_sample.max_pairwise_gap < vl.per_sample.max_pairwise_gap);
}

#[test]
fn mw_average_reaches_the_min_max_value() {
    let (x, g) = toy();
    let m = MwFairPca::params(1)
        .eta(0.5)
        .iterations(4000)
        .centering(Centering::None)
        .fit(&x, &g)
        .unwrap();
    for l in &m.report().average_losses {
        assert!((l - 0.8).abs() < 0.02, "loss(P̄) = {l}, expected 0.8");
    }
}

#[test]
fn samadi_lp_grants_the_extra_dimension_on_the_toy() {
    // With r + 1 = 2 directions both groups are served perfectly.
    let (x, g) = toy();
    let m = MwFairPca::samadi(1).iterations(50).fit(&x, &g).unwrap();
    assert_eq!(m.projection().rank(), 2);
    assert_eq!(m.report().extra_dimensions, 1);
    let l = m.projection().losses(&x, &g).unwrap();
    assert!(l.total_loss < 1e-12);
}
