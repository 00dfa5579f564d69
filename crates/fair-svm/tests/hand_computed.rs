//! Small problems whose solutions are worked out by hand (derivations in the comments).

mod common;

use common::{SOLVER, groups, tiny};
use fair_svm::{Kernel, KernelFairSvm, SpectralFairSvm, SpectralFairSvmParams, Termination};
use nalgebra::DMatrix;

/// Two points x = ∓1 with y = ∓1. Averaged hinge: for w < 1 the objective is
/// `(1 − w) + λw²` (decreasing while w < 1/(2λ)); for w ≥ 1 it is `λw²`. With λ = 0.01 the
/// minimum is at w = 1, b = 0 (by symmetry), objective λ = 0.01.
#[test]
fn plain_svm_two_points() {
    let x = DMatrix::from_row_slice(2, 1, &[-1.0, 1.0]);
    let svm = SpectralFairSvmParams::plain()
        .lambda(0.01)
        .fit(&x, &[0, 1], &groups(&[0, 1]))
        .unwrap();
    assert!((svm.weights()[0] - 1.0).abs() < SOLVER);
    assert!(svm.intercept().abs() < SOLVER);
    assert!((svm.report().objective - 0.01).abs() < SOLVER);
    assert_eq!(svm.report().status, Termination::Converged);
    assert_eq!(svm.report().iterations, 0);
}

/// Same two points with z = y: m = 1 − (−1) = 2, so |2w| ≤ d caps w at d/2 (the hinge keeps
/// pushing w up, and b = 0 by symmetry).
#[test]
fn zafar_svm_caps_the_mean_gap() {
    let x = DMatrix::from_row_slice(2, 1, &[-1.0, 1.0]);
    let svm = SpectralFairSvmParams::zafar(0.5)
        .lambda(0.01)
        .fit(&x, &[0, 1], &groups(&[0, 1]))
        .unwrap();
    assert!((svm.weights()[0] - 0.25).abs() < SOLVER);
    assert!((svm.report().mean_gap - 0.5).abs() < SOLVER);
    assert!(svm.intercept().abs() < SOLVER);
}

/// 1-D, z = +1 rows at ±3 (variance 9), z = −1 rows at ±1 (variance 1): Σ₊ − Σ₋ = 8, U₋ = 0, so
/// the convex–concave subproblem is exactly `hinge + (λ + 8μ)w²` (τ = 8w² at the optimum).
/// m = 0 and b = 0 by symmetry. For an effective ridge λ' ∈ [1/4, 3/4] the minimiser of
/// `(1 − w)/2 + λ'w²` (the ±3 rows have zero hinge once w ≥ 1/3) is w = 1/(4λ').
/// λ = 0.01, μ = 0.05: λ' = 0.41, w = 1/1.64.
#[test]
fn spectral_svm_one_dimension_is_a_heavier_ridge() {
    let (x, y, z) = tiny();
    let svm = SpectralFairSvm::params()
        .lambda(0.01)
        .mu(0.05)
        .tol(1e-8)
        .fit(&x, &y, &z)
        .unwrap();
    assert_eq!(svm.report().status, Termination::Converged);
    // Interior-point accuracy on w is about the square root of the 1e-8 gap tolerance.
    assert!(
        (svm.weights()[0] - 1.0 / 1.64).abs() < 1e-4,
        "w = {}",
        svm.weights()[0]
    );
    assert!((svm.report().covariance_gap - 8.0 / (1.64 * 1.64)).abs() < 1e-3);
    assert!(svm.intercept().abs() < 1e-4);
    // The warm start (μ = 0, d = ∞) is the plain SVM: w = 1 (margin reached).
    assert!((svm.moments().covariance_positive()[(0, 0)] - 9.0).abs() < 1e-12);
    assert!((svm.moments().covariance_negative()[(0, 0)] - 1.0).abs() < 1e-12);
}

/// The kernel dual of the two-point problem with the linear kernel: C = 1/(2λn) = 25,
/// α₁ = α₂ = α, w = Xᵀ(y∘α) = 2α, dual objective ½(2α)² − 2α minimised at α = ½: w = 1 as in
/// the primal, b = 0, so the score at x = 2 is 2.
#[test]
fn kernel_linear_two_points_matches_primal() {
    let x = DMatrix::from_row_slice(2, 1, &[-1.0, 1.0]);
    let svm = KernelFairSvm::params(Kernel::Linear)
        .lambda(0.01)
        .mu(0.0)
        .fit(&x, &[0, 1], &groups(&[0, 1]))
        .unwrap();
    assert!((svm.alpha()[0] - 0.5).abs() < SOLVER);
    assert!((svm.alpha()[1] - 0.5).abs() < SOLVER);
    let s = svm
        .decision_function(&DMatrix::from_row_slice(1, 1, &[2.0]))
        .unwrap();
    assert!((s[0] - 2.0).abs() < 1e-5);
    assert_eq!(svm.free_support_vectors(), 2);
    assert_eq!(svm.rank(), 1);
}

/// The RBF kernel of two points at squared distance 4 with γ = 0.5 is e^{−2}.
#[test]
fn rbf_kernel_value() {
    let k = Kernel::Rbf { gamma: 0.5 }.eval(&[0.0, 0.0], &[2.0, 0.0]);
    assert!((k - (-2.0_f64).exp()).abs() < 1e-15);
}
