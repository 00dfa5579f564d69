//! The two solvers (and the two λ-step QP solvers) reach the same λ, to 1e-6, on every kind of
//! constraint, divergence and group information; and both match the independent brute force.

mod common;

use common::{brute_force, lcg_instance, max_diff};
use info_projection::{
    Constraint, Divergence, DualMethod, FairProjection, FairProjectionParams, GroupInfo, QpSolver,
    Solver, Termination, VStep,
};
use nalgebra::DMatrix;

const AGREE: f64 = 1e-6;

fn both<'a>(
    params: FairProjectionParams,
    probs: &DMatrix<f64>,
    groups: GroupInfo<'a>,
) -> (FairProjection, FairProjection) {
    let dual = params
        .clone()
        .solver(Solver::Dual)
        .fit(probs, groups)
        .unwrap();
    let admm = params
        .clone()
        .solver(Solver::Admm)
        .fit(probs, groups)
        .unwrap();
    assert_eq!(
        dual.report().status,
        Termination::Converged,
        "{}",
        dual.report()
    );
    assert_eq!(
        admm.report().status,
        Termination::Converged,
        "{}",
        admm.report()
    );
    // Both methods of the direct solver, forced, reach the same λ as well.
    for method in [DualMethod::Newton, DualMethod::Lbfgs] {
        let other = params
            .clone()
            .solver(Solver::Dual)
            .dual_method(method)
            .fit(probs, groups)
            .unwrap();
        assert_eq!(
            other.report().status,
            Termination::Converged,
            "{}",
            other.report()
        );
        let diff = max_diff(dual.lambda(), other.lambda());
        assert!(
            diff < AGREE,
            "{method:?}: |Δλ| = {diff:e}\n{}",
            other.report()
        );
    }
    (dual, admm)
}

#[test]
fn admm_and_dual_agree_for_every_constraint_and_divergence() {
    let cases: &[&[Constraint]] = &[
        &[Constraint::StatisticalParity],
        &[Constraint::EqualizedOdds],
        &[Constraint::EqualizedOddsDiagonal],
        &[Constraint::OverallAccuracy],
        &[Constraint::StatisticalParity, Constraint::EqualizedOdds],
    ];
    let inst = lcg_instance(120, 3, 3, 7);
    let mut binding = 0;
    for &cons in cases {
        for div in [Divergence::Kl, Divergence::CrossEntropy] {
            for alpha in [0.0, 0.05] {
                let params = FairProjection::params()
                    .constraints(cons)
                    .divergence(div)
                    .alpha(alpha);
                let (d, a) = both(params, &inst.probs, (&inst.groups).into());
                let diff = max_diff(d.lambda(), a.lambda());
                assert!(
                    diff < AGREE,
                    "{cons:?} {div:?} α={alpha}: |Δλ| = {diff:e}\n{}\n{}",
                    d.report(),
                    a.report()
                );
                binding += usize::from(d.lambda().iter().any(|&l| l > 0.0));
            }
        }
    }
    assert!(
        binding >= 16,
        "only {binding} of 20 cases bind: the test problem is too easy"
    );
}

#[test]
fn admm_and_dual_agree_with_empirical_marginals_and_soft_groups() {
    let inst = lcg_instance(90, 3, 2, 11);
    let labels: Vec<usize> = (0..inst.n).map(|i| (i * 7 + 3) % 3).collect();
    let params = FairProjection::params().alpha(0.02);
    let d = params
        .clone()
        .fit_with_labels(&inst.probs, &inst.groups, &labels)
        .unwrap();
    let a = params
        .clone()
        .solver(Solver::Admm)
        .fit_with_labels(&inst.probs, &inst.groups, &labels)
        .unwrap();
    assert!(max_diff(d.lambda(), a.lambda()) < AGREE);

    // Soft memberships P(S|X) and P(S|X,Y).
    let sx = DMatrix::from_fn(inst.n, 2, |i, g| {
        let s1 = 0.2 + 0.6 * ((i * 13 % 10) as f64 / 10.0);
        if g == 0 { s1 } else { 1.0 - s1 }
    });
    let (d, a) = both(params.clone(), &inst.probs, GroupInfo::ProbaGivenX(&sx));
    assert!(max_diff(d.lambda(), a.lambda()) < AGREE);
    let sxy: Vec<DMatrix<f64>> = (0..3)
        .map(|c| {
            DMatrix::from_fn(inst.n, 2, |i, g| {
                let s1 = 0.1 + 0.8 * (((i + 3 * c) * 7 % 10) as f64 / 10.0);
                if g == 0 { s1 } else { 1.0 - s1 }
            })
        })
        .collect();
    let (d, a) = both(
        params.constraint(Constraint::EqualizedOdds),
        &inst.probs,
        GroupInfo::ProbaGivenXY(&sxy),
    );
    assert!(max_diff(d.lambda(), a.lambda()) < AGREE);
}

#[test]
fn clarabel_and_active_set_lambda_steps_agree() {
    let inst = lcg_instance(60, 2, 3, 3);
    let params = FairProjection::params()
        .constraint(Constraint::EqualizedOdds)
        .solver(Solver::Admm);
    let a = params.clone().fit(&inst.probs, &inst.groups).unwrap();
    let b = params
        .qp_solver(QpSolver::Clarabel)
        .fit(&inst.probs, &inst.groups)
        .unwrap();
    assert_eq!(b.report().status, Termination::Converged);
    assert!(max_diff(a.lambda(), b.lambda()) < AGREE);
}

#[test]
fn both_solvers_match_the_brute_force() {
    let inst = lcg_instance(40, 3, 2, 5);
    for div in [Divergence::Kl, Divergence::CrossEntropy] {
        for cons in [Constraint::EqualizedOdds, Constraint::OverallAccuracy] {
            let reference = brute_force(&inst, &[cons], 0.01, div, 1e-10);
            let (d, a) = both(
                FairProjection::params()
                    .constraint(cons)
                    .alpha(0.01)
                    .divergence(div),
                &inst.probs,
                (&inst.groups).into(),
            );
            assert!(max_diff(d.lambda(), &reference) < AGREE, "{div:?} {cons:?}");
            assert!(max_diff(a.lambda(), &reference) < AGREE, "{div:?} {cons:?}");
        }
    }
}

/// Hand-computed constraint values at λ = 0 (α large): 4 rows, groups a = {0, 1}, b = {2, 3},
/// p₁ = (0.8, 0.7, 0.2, 0.4). P(S=a) = 1/2, P(Ŷ=1) = 2.1/4 = 0.525,
/// P(Ŷ=1│a) = 0.75. Statistical-parity row (σ = +1, a, c' = 1):
/// E[1{S=a} h₁]/P(S=a) − (α + 1) E[h₁] = 0.75 − (α + 1)·0.525.
#[test]
fn hand_computed_constraint_values() {
    let probs = DMatrix::from_row_slice(4, 2, &[0.2, 0.8, 0.3, 0.7, 0.8, 0.2, 0.6, 0.4]);
    let groups = fair_data::Groups::from_labels(&["a", "a", "b", "b"]);
    let alpha = 10.0;
    let fp = FairProjection::params()
        .constraint(Constraint::StatisticalParity)
        .alpha(alpha)
        .fit(&probs, &groups)
        .unwrap();
    assert!(fp.lambda().iter().all(|&l| l == 0.0));
    // Row order: σ = +1 first, then group, then predicted class: (+, a, 1) is row 1.
    let expect = 0.75 - (alpha + 1.0) * 0.525;
    assert!((fp.constraint_values()[1] - expect).abs() < 1e-14);
    // (−, b, 0): −P(Ŷ=0│b) − (α − 1) P(Ŷ=0) = −0.7 − 9 · 0.475.
    assert!((fp.constraint_values()[4 + 2] - (-0.7 - 9.0 * 0.475)).abs() < 1e-14);
    let max = fp
        .constraint_values()
        .iter()
        .cloned()
        .fold(f64::MIN, f64::max);
    assert!((fp.report().max_violation - max).abs() <= 0.0);
}

/// The warm start (a solve on a seeded subsample first) only moves the starting point: on every
/// agreement case above, and for two seeds, the warm-started λ equals the cold-started one.
#[test]
fn warm_start_reaches_the_cold_start_lambda() {
    let cases: &[&[Constraint]] = &[
        &[Constraint::StatisticalParity],
        &[Constraint::EqualizedOdds],
        &[Constraint::EqualizedOddsDiagonal],
        &[Constraint::OverallAccuracy],
        &[Constraint::StatisticalParity, Constraint::EqualizedOdds],
    ];
    let inst = lcg_instance(120, 3, 3, 7);
    let sx = DMatrix::from_fn(inst.n, 3, |i, g| {
        let s1 = 0.2 + 0.6 * ((i * 13 % 10) as f64 / 10.0);
        [s1, 0.7 * (1.0 - s1), 0.3 * (1.0 - s1)][g]
    });
    let mut warmed = 0;
    for &cons in cases {
        for div in [Divergence::Kl, Divergence::CrossEntropy] {
            for alpha in [0.0, 0.05] {
                for method in [DualMethod::Newton, DualMethod::Lbfgs] {
                    for groups in [GroupInfo::from(&inst.groups), GroupInfo::ProbaGivenX(&sx)] {
                        let params = FairProjection::params()
                            .constraints(cons)
                            .divergence(div)
                            .alpha(alpha)
                            .dual_method(method);
                        let cold = params
                            .clone()
                            .warm_start_fraction(1.0)
                            .fit(&inst.probs, groups)
                            .unwrap();
                        assert_eq!(cold.report().subsample_passes, 0);
                        for seed in [0, 1] {
                            let warm = params
                                .clone()
                                .warm_start_fraction(0.5)
                                .seed(seed)
                                .fit(&inst.probs, groups)
                                .unwrap();
                            assert_eq!(warm.report().status, Termination::Converged);
                            warmed += usize::from(warm.report().subsample_passes > 0);
                            let diff = max_diff(cold.lambda(), warm.lambda());
                            assert!(
                                diff < AGREE,
                                "{cons:?} {div:?} α={alpha} {method:?} seed {seed}: \
                                 |Δλ| = {diff:e}\n{}\n{}",
                                cold.report(),
                                warm.report()
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(warmed >= 150, "only {warmed} of 160 fits were warm-started");
}

/// The paper's plain ADMM (ρ = 2, no relaxation, no Anderson, exact V-steps), the accelerated
/// default (inexact V-steps) and the accelerated ADMM with exact V-steps reach the dual solver's
/// λ, for both divergences, and acceleration takes fewer rounds.
#[test]
fn plain_and_accelerated_admm_reach_the_dual_lambda() {
    let inst = lcg_instance(300, 3, 3, 17);
    for div in [Divergence::Kl, Divergence::CrossEntropy] {
        let params = FairProjection::params()
            .constraint(Constraint::EqualizedOdds)
            .divergence(div)
            .alpha(0.01);
        let dual = params.clone().fit(&inst.probs, &inst.groups).unwrap();
        assert!(
            dual.lambda().iter().any(|&l| l > 0.0),
            "{div:?}: nothing binds"
        );
        let fast = params
            .clone()
            .solver(Solver::Admm)
            .fit(&inst.probs, &inst.groups)
            .unwrap();
        let exact = params
            .clone()
            .solver(Solver::Admm)
            .v_step(VStep::Exact)
            .fit(&inst.probs, &inst.groups)
            .unwrap();
        let plain = params
            .solver(Solver::Admm)
            .rho(2.0)
            .relaxation(1.0)
            .anderson_memory(0)
            .v_step(VStep::Exact)
            .fit(&inst.probs, &inst.groups)
            .unwrap();
        for fp in [&fast, &exact, &plain] {
            assert_eq!(
                fp.report().status,
                Termination::Converged,
                "{}",
                fp.report()
            );
            let diff = max_diff(dual.lambda(), fp.lambda());
            assert!(diff < AGREE, "{div:?}: |Δλ| = {diff:e}\n{}", fp.report());
        }
        assert_eq!(plain.report().anderson_steps, Some((0, 0)));
        assert!(
            fast.report().iterations < plain.report().iterations,
            "{}\n{}",
            fast.report(),
            plain.report()
        );
    }
}
