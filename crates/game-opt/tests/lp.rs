//! The shrinking LP (Lemma 3) and the Eq. 18 rank rule: the exact checks of the notes §9.2.

use game_opt::{ShrinkOutcome, rank_select, shrink};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_candidates(t: usize, m: usize, shift: f64, seed: u64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let obj = (0..t).map(|_| rng.random_range(0.1..0.4)).collect();
    let cons = (0..t)
        .map(|_| {
            (0..m)
                .map(|_| rng.random_range(-0.1..0.1) + shift)
                .collect()
        })
        .collect();
    (obj, cons)
}

#[test]
fn lp_support_at_most_m_plus_one() {
    for (m, seed) in [(1, 1), (2, 2), (4, 3), (6, 4)] {
        let (obj, cons) = random_candidates(60, m, 0.0, seed);
        let r = shrink(&obj, &cons, 0.0, 1e-6).unwrap();
        assert!(r.support() <= m + 1, "m = {m}: support {}", r.support());
        assert!((r.weights.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}

#[test]
fn lp_improves_on_the_uniform_mixture() {
    for seed in 0..5 {
        let (obj, cons) = random_candidates(80, 4, -0.04, seed);
        let t = obj.len() as f64;
        let uniform_obj: f64 = obj.iter().sum::<f64>() / t;
        let uniform_feasible = (0..4).all(|i| cons.iter().map(|c| c[i]).sum::<f64>() / t <= 0.0);
        assert!(
            uniform_feasible,
            "fixture must make the uniform mixture feasible"
        );
        let r = shrink(&obj, &cons, 0.0, 1e-6).unwrap();
        assert_eq!(r.outcome, ShrinkOutcome::Feasible);
        let lp_obj: f64 = r.weights.iter().zip(&obj).map(|(w, o)| w * o).sum();
        assert!(lp_obj <= uniform_obj + 1e-12);
        for i in 0..4 {
            let v: f64 = r.weights.iter().zip(&cons).map(|(w, c)| w * c[i]).sum();
            assert!(v <= 1e-9, "violation {v}");
        }
    }
}

#[test]
fn infeasible_lp_bisects_to_the_smallest_violation() {
    // Every candidate violates constraint 0 by at least 0.05; the best mixture can reach 0.05.
    let obj = vec![0.1, 0.2, 0.3];
    let cons = vec![vec![0.2, -0.1], vec![0.05, 0.3], vec![0.1, -0.2]];
    let r = shrink(&obj, &cons, 0.0, 1e-6).unwrap();
    match r.outcome {
        ShrinkOutcome::Relaxed { max_violation } => {
            // Mixing candidates 1 and 2 at (2/3, 1/3) gives (0.0667, 0.133); best is
            // candidate 1 + 2 with constraint 0 = 0.05p + 0.1(1-p)... the bound must not exceed
            // the best single candidate's worst violation (0.1, candidate 2).
            assert!(max_violation <= 0.1 + 1e-9);
            for i in 0..2 {
                let v: f64 = r.weights.iter().zip(&cons).map(|(w, c)| w * c[i]).sum();
                assert!(v <= max_violation + 1e-9);
            }
        }
        ShrinkOutcome::Feasible => panic!("fixture is infeasible at ε = 0"),
    }
    assert!(r.support() <= 3);
}

#[test]
fn rank_rule_follows_tfco() {
    // All feasible: the smallest objective wins.
    assert_eq!(rank_select(&[0.3, 0.1, 0.2], &[-0.1, -0.2, -0.3]), Some(1));
    // Feasible candidates tie at violation rank 1 (clipped at 0).
    assert_eq!(rank_select(&[0.2, 0.25, 0.1], &[-0.5, -0.01, 0.3]), Some(0));
    // Exact tie: later index.
    assert_eq!(rank_select(&[0.2, 0.2], &[0.0, 0.0]), Some(1));
    assert_eq!(rank_select(&[], &[]), None);
    assert_eq!(rank_select(&[0.1], &[0.1, 0.2]), None);
    // NaN ranks last instead of panicking.
    assert_eq!(rank_select(&[f64::NAN, 0.5], &[0.0, 0.0]), Some(1));
}
