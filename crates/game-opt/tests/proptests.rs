//! Property tests: hinge proxy ≥ 0-1 value, stationary distributions, LP support ≤ m + 1.

use fair_data::Groups;
use game_opt::{
    Constraint, Examples, Expression, Problem, Rate, Subset, shrink, stationary_distribution,
};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

fn rate_of(kind: u8, s: Subset) -> Expression {
    match kind % 8 {
        0 => Rate::PositivePrediction(s),
        1 => Rate::NegativePrediction(s),
        2 => Rate::TruePositive(s),
        3 => Rate::FalsePositive(s),
        4 => Rate::Error(s),
        5 => Rate::Accuracy(s),
        6 => Rate::Churn(s),
        _ => Rate::Loss(s),
    }
    .expr()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// g̃ᵢ ≥ gᵢ for random scores, labels, groups and coefficients of both signs.
    #[test]
    fn hinge_proxy_upper_bounds_zero_one(
        rows in prop::collection::vec((-3.0f64..3.0, 0usize..2, 0usize..2, 0usize..2), 8..40),
        terms in prop::collection::vec((-2.0f64..2.0, 0u8..8, 0u8..3), 1..5),
        kappa in -1.0f64..1.0,
        margin in 0.1f64..3.0,
    ) {
        let n = rows.len();
        let scores: Vec<f64> = rows.iter().map(|r| r.0).collect();
        let mut y: Vec<usize> = rows.iter().map(|r| r.1).collect();
        y[0] = 0; y[1] = 1; // both classes present
        let h: Vec<usize> = rows.iter().map(|r| r.2).collect();
        let mut g: Vec<&str> = rows.iter().map(|r| if r.3 == 0 { "a" } else { "b" }).collect();
        g[0] = "a"; g[1] = "b"; g[2] = "a"; g[3] = "b";
        // Make every (group, label) cell non-empty so all rates are defined.
        y[2] = 1; y[3] = 0;
        let x = DMatrix::from_column_slice(n, 1, &scores);
        let ex = Examples::new(&x, &y).unwrap()
            .with_attribute("g", Groups::from_labels(&g)).unwrap()
            .with_baseline(&h).unwrap();
        let mut e = Expression::from(kappa);
        for (c, kind, sub) in &terms {
            let s = match sub { 0 => Subset::all(), 1 => Subset::group("g", "a"), _ => Subset::group("g", "b") };
            e = e + *c * rate_of(*kind, s);
        }
        let p = Problem::for_evaluation(ex, vec![Constraint::new(e)]);
        // Baseline-dependent subsets may be empty for some draws: only defined rates count.
        if let Ok(p) = p {
            let exact = p.evaluate_scores(&scores).unwrap().constraints[0];
            let proxy = p.proxy_constraints(&scores, margin).unwrap()[0];
            prop_assert!(proxy >= exact - 1e-12, "proxy {} < exact {}", proxy, exact);
        }
    }

    /// π(M) is a distribution with ‖Mπ − π‖∞ < 1e-8 for random positive column-stochastic M.
    #[test]
    fn stationary_distribution_is_fixed_point(
        k in 1usize..9,
        entries in prop::collection::vec(1e-9f64..1.0, 81),
    ) {
        let mut m = DMatrix::from_fn(k, k, |i, j| entries[i * 9 + j]);
        for mut c in m.column_iter_mut() { let s = c.sum(); c /= s; }
        let l = stationary_distribution(&m).unwrap();
        let v = DVector::from_column_slice(&l);
        prop_assert!((&m * &v - &v).amax() < 1e-8);
        prop_assert!(l.iter().all(|x| *x >= 0.0));
        prop_assert!((l.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    /// The LP vertex never has more than m + 1 non-zeros, feasible or relaxed.
    #[test]
    fn lp_support_bounded(
        m in 1usize..5,
        t in 2usize..40,
        vals in prop::collection::vec(-0.2f64..0.2, 200),
        objs in prop::collection::vec(0.0f64..0.5, 40),
    ) {
        let cons: Vec<Vec<f64>> = (0..t).map(|i| (0..m).map(|j| vals[(i * 5 + j) % 200]).collect()).collect();
        let r = shrink(&objs[..t], &cons, 0.0, 1e-5).unwrap();
        prop_assert!(r.support() <= m + 1, "support {} > {}", r.support(), m + 1);
        prop_assert!((r.weights.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}
