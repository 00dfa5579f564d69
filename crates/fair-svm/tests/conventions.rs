//! The scale conventions the paper leaves open (issue 15), and the two-feature case where the
//! spectral term provably cannot change Δ.

mod common;

use common::{SOLVER, signs, synthetic};
use fair_data::FairSvmSynthetic;
use fair_metrics::ks::ks_statistic;
use fair_svm::{
    CovarianceNormalisation, CovariancePenalty, GroupMoments, MeanVector, SpectralFairSvm,
};
use nalgebra::DVector;

/// The defaults are the paper's printed formulation: raw m (eq. (8)), 1/#P (eq. (16)), the
/// penalty on w (eq. (23)).
#[test]
fn defaults_are_the_printed_formulation() {
    let p = SpectralFairSvm::params().check().unwrap();
    assert_eq!(p.mean_vector(), MeanVector::Raw);
    assert_eq!(
        p.covariance_normalisation(),
        CovarianceNormalisation::Population
    );
    assert_eq!(p.covariance_penalty(), CovariancePenalty::OnWeights);
}

/// Unit m (the authors' code): the constraint bounds (m/‖m‖)ᵀw, i.e. the raw gap up to d‖m‖.
#[test]
fn unit_mean_vector_bounds_the_normalised_gap() {
    let (x, y, z) = synthetic(3, 1);
    let d = 0.05;
    let m = GroupMoments::new(&x, &y, &z, fair_svm::Fairness::DemographicParity)
        .unwrap()
        .mean_difference()
        .clone();
    let fit = |mv| {
        SpectralFairSvm::params()
            .lambda(0.001)
            .d(d)
            .mu(0.0)
            .mean_vector(mv)
            .fit(&x, &y, &z)
            .unwrap()
    };
    let (raw, unit) = (fit(MeanVector::Raw), fit(MeanVector::Unit));
    // Both constraints are active here (the plain SVM's gap is far larger).
    assert!((m.dot(raw.weights()).abs() - d).abs() < SOLVER);
    assert!((m.dot(unit.weights()).abs() - d * m.norm()).abs() < SOLVER * m.norm());
    assert!((unit.report().mean_gap.abs() - d).abs() < SOLVER);
    assert!(
        m.norm() > 1.1,
        "‖m‖ = {} would not tell them apart",
        m.norm()
    );
}

/// 1/(#P − 1): the reported covariance gap uses the sample covariances.
#[test]
fn sample_covariances_scale_each_group_by_its_count() {
    let (x, y, z) = synthetic(2, 3);
    let fit = SpectralFairSvm::params()
        .lambda(0.01)
        .d(0.1)
        .mu(0.5)
        .covariance_normalisation(CovarianceNormalisation::Sample)
        .fit(&x, &y, &z)
        .unwrap();
    let pop = GroupMoments::new(&x, &y, &z, fair_svm::Fairness::DemographicParity).unwrap();
    let np = z.counts()[1] as f64;
    let nn = z.len() as f64 - np;
    let w = fit.weights();
    let sample = pop.covariance_positive() * (np / (np - 1.0))
        - pop.covariance_negative() * (nn / (nn - 1.0));
    let expected = w.dot(&(sample * w));
    assert!(
        (fit.report().covariance_gap - expected).abs() < 1e-12 * expected.abs().max(1.0),
        "{} vs {expected}",
        fit.report().covariance_gap
    );
    assert!((pop.covariance_gap(w) - expected).abs() > 1e-6);
}

/// The penalty on w/‖w‖: the reported objective is `(1/n)Σ hinge + λ‖w‖² + μ|q(w)|/‖w‖²`, and
/// the fit lowers that scale-free variance gap against the plain SVM.
#[test]
fn direction_penalty_objective_is_scale_free() {
    let (x, y, z) = synthetic(3, 2);
    let (lambda, mu) = (0.01, 10.0);
    let on_dir = SpectralFairSvm::params()
        .lambda(lambda)
        .mu(mu)
        .covariance_penalty(CovariancePenalty::OnDirection)
        .fit(&x, &y, &z)
        .unwrap();
    let plain = SpectralFairSvm::params()
        .lambda(lambda)
        .mu(0.0)
        .fit(&x, &y, &z)
        .unwrap();
    assert!(on_dir.report().status.is_converged());
    let w = on_dir.weights();
    let s = on_dir.decision_function(&x).unwrap();
    let hinge: f64 = s
        .iter()
        .zip(signs(&y))
        .map(|(&si, yi)| (1.0 - yi * si).max(0.0))
        .sum::<f64>()
        / y.len() as f64;
    let q = on_dir.report().covariance_gap;
    let expected = hinge + lambda * w.norm_squared() + mu * q.abs() / w.norm_squared();
    assert!(
        (on_dir.report().objective - expected).abs() < 1e-9 * expected,
        "{} vs {expected}",
        on_dir.report().objective
    );
    let rel = |m: &SpectralFairSvm| m.report().covariance_gap.abs() / m.weights().norm_squared();
    assert!(
        rel(&on_dir) < 0.5 * rel(&plain),
        "{} vs {}",
        rel(&on_dir),
        rel(&plain)
    );
}

/// The minimal counterexample to "Δ(SSVM) < Δ(ZSVM)": two features and d = 0. The mean
/// constraint mᵀw = 0 leaves the single direction m⊥ for w, so every fit is w = t·m⊥; Δ (the KS
/// distance of the scores) does not change under s → t·s for t ≠ 0 (nor under the intercept),
/// hence Δ(SSVM) = Δ(ZSVM) for every μ and every reading of the penalty, on any data.
#[test]
fn two_features_with_d_zero_leave_delta_unchanged_for_every_mu() {
    for half_width in [4.5, 10.0] {
        let data = FairSvmSynthetic::new()
            .half_width(half_width)
            .seed(0)
            .generate()
            .unwrap()
            .data;
        let x = fair_data::Standardizer::fit(data.x())
            .unwrap()
            .transform(data.x())
            .unwrap();
        let y = data.y();
        let z = data.groups("z").unwrap();
        let delta = |w: &DVector<f64>| {
            let s: Vec<f64> = (&x * w).iter().copied().collect();
            ks_statistic(&s, z, None).unwrap().max
        };
        let zafar = SpectralFairSvm::params()
            .lambda(0.001)
            .d(0.0)
            .mu(0.0)
            .fit(&x, y, z)
            .unwrap();
        let wz = zafar.weights().clone();
        for pen in [CovariancePenalty::OnWeights, CovariancePenalty::OnDirection] {
            for mu in [0.01, 1.0, 100.0] {
                let ssvm = SpectralFairSvm::params()
                    .lambda(0.001)
                    .d(0.0)
                    .mu(mu)
                    .covariance_penalty(pen)
                    .fit(&x, y, z)
                    .unwrap();
                let ws = ssvm.weights();
                let cos = ws.dot(&wz) / (ws.norm() * wz.norm());
                assert!(cos.abs() > 1.0 - 1e-9, "μ = {mu}: cos = {cos}");
                // Δ is a difference of two count ratios: the same ordering gives the same bits.
                assert_eq!(
                    delta(ws).to_bits(),
                    delta(&wz).to_bits(),
                    "μ = {mu}, {pen:?}"
                );
            }
        }
        // The teeth: with d > 0 the direction is free to move and Δ does change somewhere.
        let free = SpectralFairSvm::params()
            .lambda(0.001)
            .d(f64::INFINITY)
            .mu(0.0)
            .fit(&x, y, z)
            .unwrap();
        assert!(delta(free.weights()) > delta(&wz) + 0.05);
    }
}
