//! The exact identities of the spec (§9.2): spectral split, μ = 0 ⇒ Zafar, monotone
//! convex–concave objective, slack = |covariance gap| at convergence, kernel S± = XΣ±Xᵀ.

mod common;

use common::{ROUND_OFF, SOLVER, synthetic};
use fair_svm::{
    Fairness, GroupMoments, Kernel, KernelFairSvm, SpectralFairSvm, SpectralFairSvmParams,
    Termination, kernel_group_covariances,
};
use nalgebra::DMatrix;

#[test]
fn split_of_group_covariances_reassembles_and_is_orthogonal() {
    let (x, y, z) = synthetic(6, 3);
    for fairness in [Fairness::DemographicParity, Fairness::EqualOpportunity] {
        let m = GroupMoments::new(&x, &y, &z, fairness).unwrap();
        let d = m.covariance_positive() - m.covariance_negative();
        let s = m.split();
        let scale = d.norm();
        assert!((s.positive() - s.negative() - &d).norm() <= ROUND_OFF * scale);
        assert!((s.positive() * s.negative()).norm() <= ROUND_OFF * scale * scale);
        for part in [s.positive(), s.negative()] {
            let eig = part.clone().symmetric_eigen();
            assert!(eig.eigenvalues.min() >= -ROUND_OFF * scale);
        }
        // The skewed z = +1 group makes the difference indefinite: both parts are used.
        assert!(s.factor_positive().ncols() > 0 && s.factor_negative().ncols() > 0);
    }
}

#[test]
fn mu_zero_returns_the_zafar_solution() {
    let (x, y, z) = synthetic(5, 1);
    let zafar = SpectralFairSvmParams::zafar(0.05)
        .lambda(0.01)
        .fit(&x, &y, &z)
        .unwrap();
    let spectral_zero = SpectralFairSvm::params()
        .lambda(0.01)
        .d(0.05)
        .mu(0.0)
        .fit(&x, &y, &z)
        .unwrap();
    assert_eq!(zafar.weights(), spectral_zero.weights());
    // A vanishing μ goes through the full convex–concave machinery (cones and all) and must
    // land on the same classifier.
    let tiny_mu = SpectralFairSvm::params()
        .lambda(0.01)
        .d(0.05)
        .mu(1e-9)
        .fit(&x, &y, &z)
        .unwrap();
    assert!(tiny_mu.report().iterations >= 1);
    assert!((tiny_mu.weights() - zafar.weights()).norm() < 1e-4 * zafar.weights().norm());
}

#[test]
fn zafar_with_d_zero_has_zero_mean_gap() {
    let (x, y, z) = synthetic(5, 2);
    let svm = SpectralFairSvmParams::zafar(0.0).fit(&x, &y, &z).unwrap();
    assert!(svm.moments().mean_difference().dot(svm.weights()).abs() < SOLVER);
    assert!(
        svm.weights().norm() > 0.1,
        "the constraint must not kill the classifier"
    );
}

#[test]
fn convex_concave_objective_never_increases_and_slack_matches_at_convergence() {
    for (seed, mu) in [(0, 0.1), (1, 1.0), (2, 10.0)] {
        let (x, y, z) = synthetic(5, seed);
        let svm = SpectralFairSvm::params()
            .lambda(0.01)
            .d(0.05)
            .mu(mu)
            .tol(1e-6)
            .max_iter(500)
            .fit(&x, &y, &z)
            .unwrap();
        let r = svm.report();
        assert_eq!(r.status, Termination::Converged, "{r}");
        assert!(r.iterations >= 2);
        for pair in r.history.windows(2) {
            assert!(
                pair[1].objective <= pair[0].objective + SOLVER,
                "{:?}",
                pair
            );
        }
        // τ ≥ |q(w)| is tight at the linearisation point, so at a fixed point τ = |q(w)|.
        assert!(
            (r.slack - r.covariance_gap.abs()).abs() < 1e-5,
            "τ = {}, q = {}",
            r.slack,
            r.covariance_gap
        );
        assert!(r.mean_gap.abs() <= 0.05 + SOLVER);
        // The final objective is F of the final iterate.
        assert!((r.history.last().unwrap().objective - r.objective).abs() < ROUND_OFF);
    }
}

#[test]
fn spectral_reduces_the_covariance_gap_of_zafar() {
    let (x, y, z) = synthetic(5, 4);
    let zafar = SpectralFairSvmParams::zafar(0.05).fit(&x, &y, &z).unwrap();
    let fair = SpectralFairSvm::params()
        .d(0.05)
        .mu(1.0)
        .fit(&x, &y, &z)
        .unwrap();
    assert!(fair.report().covariance_gap.abs() < 0.1 * zafar.report().covariance_gap.abs());
}

#[test]
fn linear_kernel_covariances_are_x_sigma_xt() {
    let (x, y, z) = synthetic(4, 5);
    let k = Kernel::Linear.matrix(&x, &x).unwrap();
    let (s_pos, s_neg) = kernel_group_covariances(&k, &z).unwrap();
    let m = GroupMoments::new(&x, &y, &z, Fairness::DemographicParity).unwrap();
    let expected_pos = &x * m.covariance_positive() * x.transpose();
    let expected_neg = &x * m.covariance_negative() * x.transpose();
    assert!((s_pos - &expected_pos).norm() <= ROUND_OFF * expected_pos.norm());
    assert!((s_neg - &expected_neg).norm() <= ROUND_OFF * expected_neg.norm());
}

/// With the linear kernel, the kernel model's low-rank fairness terms must equal the primal
/// ones at w = Xᵀβ: k_mᵀβ = mᵀw and βᵀ(S₊ − S₋)β = wᵀ(Σ₊ − Σ₋)w.
#[test]
fn kernel_fairness_terms_match_the_primal_ones_for_the_linear_kernel() {
    let (x, y, z) = synthetic(4, 6);
    let svm = KernelFairSvm::params(Kernel::Linear)
        .d(0.05)
        .mu(1.0)
        .fit(&x, &y, &z)
        .unwrap();
    let w = x.transpose() * svm.beta();
    let m = GroupMoments::new(&x, &y, &z, Fairness::DemographicParity).unwrap();
    let r = svm.report();
    assert!((r.mean_gap - m.mean_difference().dot(&w)).abs() < 1e-8);
    assert!((r.covariance_gap - m.covariance_gap(&w)).abs() < 1e-8 * (1.0 + w.norm_squared()));
    assert!(r.mean_gap.abs() <= 0.05 + SOLVER);
    // The same literal S± of eq. (18).
    let k = Kernel::Linear.matrix(&x, &x).unwrap();
    let (s_pos, s_neg) = kernel_group_covariances(&k, &z).unwrap();
    let literal = svm.beta().dot(&((s_pos - s_neg) * svm.beta()));
    assert!((r.covariance_gap - literal).abs() < 1e-8 * (1.0 + literal.abs()));
    assert_eq!(svm.rank(), 4);
}

#[test]
fn kernel_objective_never_increases_and_mu_zero_is_kernel_zafar() {
    let (x, y, z) = synthetic(3, 7);
    let kernel = Kernel::Rbf { gamma: 0.5 };
    let fair = KernelFairSvm::params(kernel)
        .max_rank(Some(40))
        .lambda(0.01)
        .d(0.05)
        .mu(1.0)
        .tol(1e-6)
        .max_iter(300)
        .fit(&x, &y, &z)
        .unwrap();
    let r = fair.report();
    assert_eq!(r.status, Termination::Converged, "{r}");
    for pair in r.history.windows(2) {
        assert!(
            pair[1].objective <= pair[0].objective + SOLVER,
            "{:?}",
            pair
        );
    }
    assert!((r.slack - r.covariance_gap.abs()).abs() < 1e-5);
    let zafar = KernelFairSvm::params(kernel)
        .max_rank(Some(40))
        .lambda(0.01)
        .d(0.05)
        .mu(0.0)
        .fit(&x, &y, &z)
        .unwrap();
    let tiny = KernelFairSvm::params(kernel)
        .max_rank(Some(40))
        .lambda(0.01)
        .d(0.05)
        .mu(1e-9)
        .fit(&x, &y, &z)
        .unwrap();
    let scale = zafar.beta().norm();
    assert!((tiny.beta() - zafar.beta()).norm() < 1e-3 * scale);
    assert!(r.covariance_gap.abs() < zafar.report().covariance_gap.abs());
}

#[test]
fn kernel_model_reproduces_training_labels_on_separable_data() {
    // Two well-separated clusters; polynomial kernel.
    let x = DMatrix::from_fn(
        20,
        2,
        |i, j| if i < 10 { -2.0 } else { 2.0 } + 0.1 * ((i * 7 + j * 3) % 5) as f64,
    );
    let y: Vec<usize> = (0..20).map(|i| usize::from(i >= 10)).collect();
    let z = common::groups(&(0..20).map(|i| i % 2).collect::<Vec<_>>());
    let svm = KernelFairSvm::params(Kernel::Polynomial {
        degree: 2,
        gamma: 1.0,
        coef0: 1.0,
    })
    .fit(&x, &y, &z)
    .unwrap();
    assert_eq!(svm.predict(&x).unwrap(), y);
}

/// Shrinking (subproblems on the rows near the margin) is exact: the same iterates as solving
/// every subproblem on all rows, while actually leaving rows out.
#[test]
fn working_set_subproblems_match_full_subproblems() {
    let ds = fair_data::GaussianMixture::new(300)
        .features(8)
        .seed(3)
        .generate()
        .unwrap();
    let x = fair_data::Standardizer::fit(ds.x())
        .unwrap()
        .transform(ds.x())
        .unwrap();
    let y = ds.y();
    let z = fair_svm::one_vs_rest(ds.groups("group").unwrap(), &["1"]).unwrap();
    let params = SpectralFairSvm::params().lambda(0.01).d(0.01).mu(0.1);
    let shrunk = params.clone().fit(&x, y, &z).unwrap();
    let full = params.shrinking(false).fit(&x, y, &z).unwrap();
    let (rs, rf) = (shrunk.report(), full.report());
    assert!(
        rs.history[1..].iter().any(|h| h.working_rows < x.nrows()),
        "the working set never left a row out: {:?}",
        rs.history
    );
    assert!(rf.history.iter().all(|h| h.working_rows == x.nrows()));
    assert_eq!(rs.iterations, rf.iterations);
    for (a, b) in rs.history.iter().zip(&rf.history) {
        assert!((a.objective - b.objective).abs() < SOLVER, "{a:?} vs {b:?}");
    }
    let dw = (shrunk.weights() - full.weights()).norm() / full.weights().norm();
    assert!(dw < 1e-4, "relative weight difference {dw}");
}
