//! Properties on random small instances (modest case counts).

mod common;

use common::{brute_force, instance};
use info_projection::{Constraint, Decision, Divergence, FairProjection, Solver, Termination};
use proptest::prelude::*;

fn constraint(i: usize) -> Constraint {
    [
        Constraint::StatisticalParity,
        Constraint::EqualizedOdds,
        Constraint::EqualizedOddsDiagonal,
        Constraint::OverallAccuracy,
    ][i % 4]
}

fn divergence(i: usize) -> Divergence {
    if i.is_multiple_of(2) {
        Divergence::Kl
    } else {
        Divergence::CrossEntropy
    }
}

/// (n, c, a, logits, codes)
fn problem() -> impl Strategy<Value = (usize, usize, usize, Vec<f64>, Vec<usize>)> {
    (6usize..24, 2usize..4, 2usize..4).prop_flat_map(|(n, c, a)| {
        (
            Just(n),
            Just(c),
            Just(a),
            prop::collection::vec(-3.0f64..3.0, n * c),
            prop::collection::vec(0usize..a, n),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The dual solver reaches the brute-force minimiser of (8).
    #[test]
    fn dual_matches_brute_force((n, c, a, logits, codes) in problem(), ci in 0usize..4,
                                di in 0usize..2, alpha in 0.0f64..0.2) {
        let inst = instance(n, c, a, &logits, &codes);
        let (cons, div) = (constraint(ci), divergence(di));
        let fp = FairProjection::params().constraint(cons).divergence(div).alpha(alpha)
            .tol(1e-11).fit(&inst.probs, &inst.groups).unwrap();
        prop_assert_eq!(fp.report().status, Termination::Converged);
        let reference = brute_force(&inst, &[cons], alpha, div, 1e-10);
        for (x, y) in fp.lambda().iter().zip(&reference) {
            prop_assert!((x - y).abs() < 1e-6, "{} vs {}", x, y);
        }
    }

    /// Two classes: equal opportunity and false-positive-rate parity (the equalized-odds rows of
    /// one true class) also reach the brute-force minimiser of (8).
    #[test]
    fn rate_parity_matches_brute_force(n in 6usize..24, a in 2usize..4,
                                       seed in prop::collection::vec(-3.0f64..3.0, 48),
                                       groups in prop::collection::vec(0usize..3, 24),
                                       which in 0usize..2, di in 0usize..2,
                                       alpha in 0.0f64..0.2) {
        let logits: Vec<f64> = seed[..2 * n].to_vec();
        let codes: Vec<usize> = groups[..n].iter().map(|g| g % a).collect();
        let inst = instance(n, 2, a, &logits, &codes);
        let cons = if which == 0 { Constraint::EqualOpportunity } else { Constraint::FalsePositiveParity };
        let div = divergence(di);
        let fp = FairProjection::params().constraint(cons).divergence(div).alpha(alpha)
            .tol(1e-11).fit(&inst.probs, &inst.groups).unwrap();
        prop_assert_eq!(fp.report().status, Termination::Converged);
        let reference = brute_force(&inst, &[cons], alpha, div, 1e-10);
        for (x, y) in fp.lambda().iter().zip(&reference) {
            prop_assert!((x - y).abs() < 1e-6, "{} vs {}", x, y);
        }
    }

    /// ADMM reaches the same λ as the dual solver.
    #[test]
    fn admm_matches_dual((n, c, a, logits, codes) in problem(), ci in 0usize..4,
                         di in 0usize..2, alpha in 0.0f64..0.2) {
        let inst = instance(n, c, a, &logits, &codes);
        let params = FairProjection::params().constraint(constraint(ci))
            .divergence(divergence(di)).alpha(alpha);
        let d = params.clone().fit(&inst.probs, &inst.groups).unwrap();
        let m = params.solver(Solver::Admm).fit(&inst.probs, &inst.groups).unwrap();
        prop_assert_eq!(m.report().status, Termination::Converged);
        for (x, y) in d.lambda().iter().zip(m.lambda()) {
            prop_assert!((x - y).abs() < 1e-6, "{} vs {}", x, y);
        }
    }

    /// α large enough: nothing binds, λ = 0 and the output is the base.
    #[test]
    fn large_alpha_is_identity((n, c, a, logits, codes) in problem(), ci in 0usize..4,
                               di in 0usize..2, solver in 0usize..2) {
        let inst = instance(n, c, a, &logits, &codes);
        let fp = FairProjection::params().constraint(constraint(ci)).divergence(divergence(di))
            .solver(if solver == 0 { Solver::Dual } else { Solver::Admm })
            .alpha(1e4).fit(&inst.probs, &inst.groups).unwrap();
        prop_assert!(fp.lambda().iter().all(|&l| l == 0.0));
        let h = fp.predict_proba(&inst.probs, &inst.groups).unwrap();
        prop_assert!((h - &inst.probs).abs().max() < 1e-12);
    }

    /// On the fitting rows the constraints of the relaxed problem (6) hold (KKT: value ≤ allowance,
    /// with equality where λ_k > 0), and outputs are probability rows.
    #[test]
    fn relaxed_constraints_hold_and_rows_are_probabilities(
        (n, c, a, logits, codes) in problem(), ci in 0usize..4, di in 0usize..2,
        alpha in 0.0f64..0.2) {
        let inst = instance(n, c, a, &logits, &codes);
        let fp = FairProjection::params().constraint(constraint(ci)).divergence(divergence(di))
            .alpha(alpha).fit(&inst.probs, &inst.groups).unwrap();
        for ((v, al), l) in fp.constraint_values().iter().zip(fp.allowances()).zip(fp.lambda()) {
            prop_assert!(v - al <= 1e-7, "{} > {}", v, al);
            if *l > 1e-6 {
                prop_assert!((v - al).abs() <= 1e-7);
            }
        }
        let h = fp.predict_proba(&inst.probs, &inst.groups).unwrap();
        for i in 0..n {
            prop_assert!((h.row(i).sum() - 1.0).abs() < 1e-12);
            prop_assert!(h.row(i).iter().all(|&x| x > 0.0 && x <= 1.0));
        }
        let labels = fp.predict(&inst.probs, &inst.groups, Decision::Argmax).unwrap();
        prop_assert!(labels.iter().all(|&y| y < c));
    }
}

/// With a small ζ the relaxation vanishes: the ratio constraints of Table 2 hold almost exactly
/// on the fitting rows (soft rates of the fair probabilities).
#[test]
fn small_zeta_nearly_satisfies_the_original_constraints() {
    let inst = common::lcg_instance(400, 3, 2, 1);
    let alpha = 0.02;
    let worst_ratio = |h: &nalgebra::DMatrix<f64>| {
        let codes = inst.groups.codes();
        let mut worst: f64 = 0.0;
        for col in 0..3 {
            let all = h.column(col).sum() / 400.0;
            for g in 0..2 {
                let rows: Vec<usize> = (0..400).filter(|&i| codes[i] == g).collect();
                let rate = rows.iter().map(|&i| h[(i, col)]).sum::<f64>() / rows.len() as f64;
                worst = worst.max((rate / all - 1.0).abs());
            }
        }
        worst
    };
    let fp = FairProjection::params()
        .constraint(Constraint::StatisticalParity)
        .alpha(alpha)
        .zeta(1e-6)
        .fit(&inst.probs, &inst.groups)
        .unwrap();
    assert_eq!(
        fp.report().status,
        Termination::Converged,
        "{}",
        fp.report()
    );
    let before = worst_ratio(&inst.probs);
    let after = worst_ratio(&fp.predict_proba(&inst.probs, &inst.groups).unwrap());
    assert!(
        before > alpha + 0.05,
        "the base should violate the constraints ({before})"
    );
    assert!(after < alpha + 1e-3, "{after}: {}", fp.report());
    assert!(fp.report().max_violation < 1e-3, "{}", fp.report());
}
