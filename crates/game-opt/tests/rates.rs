//! Hand-computed rate cases on the six-row fixture (see `common::toy_examples`), cross-checked
//! against `fair_metrics::rate_constraints`.
#![allow(clippy::float_cmp)]

mod common;
use common::{EXACT, TOY_SCORES, toy_examples};
use fair_metrics::ZeroDivision;
use fair_metrics::rate_constraints::{Subset as MSubset, churn_rates, subset_rates};
use game_opt::{Constraint, Direction, Expression, Problem, Rate, Ratio, Slack, Subset, goals};

/// Value of `expr` (as the constraint `expr ≤ 0`) at the fixture's scores.
fn value(expr: Expression) -> f64 {
    let p = Problem::for_evaluation(toy_examples(), vec![Constraint::new(expr)]).unwrap();
    p.evaluate_scores(&TOY_SCORES).unwrap().constraints[0]
}

// Predictions at TOY_SCORES (positive iff score ≥ 0): [1, 0, 1, 1, 0, 0].
const PRED: [usize; 6] = [1, 0, 1, 1, 0, 0];
const Y: [usize; 6] = [1, 1, 0, 1, 0, 0];
const H: [usize; 6] = [1, 0, 0, 1, 1, 0];

#[test]
fn prediction_rates_by_hand() {
    let all = Subset::all;
    // Coverage: 3 of 6 positive.
    assert!((value(Rate::PositivePrediction(all()).expr()) - 0.5).abs() < EXACT);
    assert!((value(Rate::NegativePrediction(all()).expr()) - 0.5).abs() < EXACT);
    // Recall: positives are rows 0, 1, 3 → predicted 1, 0, 1 → 2/3.
    assert!((value(Rate::TruePositive(all()).expr()) - 2.0 / 3.0).abs() < EXACT);
    assert!((value(Rate::FalseNegative(all()).expr()) - 1.0 / 3.0).abs() < EXACT);
    // Negatives are rows 2, 4, 5 → predicted 1, 0, 0 → FPR 1/3, TNR 2/3.
    assert!((value(Rate::FalsePositive(all()).expr()) - 1.0 / 3.0).abs() < EXACT);
    assert!((value(Rate::TrueNegative(all()).expr()) - 2.0 / 3.0).abs() < EXACT);
    // Errors: rows 1 and 2 → 2/6.
    assert!((value(Rate::Error(all()).expr()) - 1.0 / 3.0).abs() < EXACT);
    assert!((value(Rate::Accuracy(all()).expr()) - 2.0 / 3.0).abs() < EXACT);
    // Group a (rows 0–2): coverage 2/3; recall 1/2 (rows 0, 1).
    let a = || Subset::group("g", "a");
    assert!((value(Rate::PositivePrediction(a()).expr()) - 2.0 / 3.0).abs() < EXACT);
    assert!((value(Rate::TruePositive(a()).expr()) - 0.5).abs() < EXACT);
    // Zero score counts as positive (row 3): group b coverage 1/3.
    assert!(
        (value(Rate::PositivePrediction(Subset::group("g", "b")).expr()) - 1.0 / 3.0).abs() < EXACT
    );
    // Steering mask rows 0, 2, 4: correct on 0 and 4 → accuracy 2/3.
    assert!((value(Rate::Accuracy(Subset::mask("steer")).expr()) - 2.0 / 3.0).abs() < EXACT);
}

#[test]
fn baseline_rates_by_hand() {
    let all = Subset::all;
    // Churn: PRED vs H differ at rows 2 (1 vs 0) and 4 (0 vs 1) → 2/6.
    assert!((value(Rate::Churn(all()).expr()) - 1.0 / 3.0).abs() < EXACT);
    // Wins (model right, h wrong): row 2? model wrong (pred 1, y 0). Row 4: model right, h wrong → 1.
    // Row 1: both wrong. → wins 1/6.
    assert!((value(Rate::Win(all()).expr()) - 1.0 / 6.0).abs() < EXACT);
    // Losses (h right, model wrong): row 2 (h 0 = y 0, pred 1) → 1/6.
    assert!((value(Rate::Loss(all()).expr()) - 1.0 / 6.0).abs() < EXACT);
    // Baseline correct on rows 0, 2, 3, 5 → loss-only churn 1/4; baseline accuracy 4/6.
    assert!((value(Rate::LossOnlyChurn(all()).expr()) - 0.25).abs() < EXACT);
    assert!((value(Rate::BaselineAccuracy(all()).expr()) - 4.0 / 6.0).abs() < EXACT);
    assert!((value(Rate::LabelPositive(all()).expr()) - 0.5).abs() < EXACT);
    assert!((value(Rate::BaselinePositive(all()).expr()) - 0.5).abs() < EXACT);
}

#[test]
fn rates_agree_with_fair_metrics() {
    let groups = fair_data::Groups::from_labels(&["a", "a", "a", "b", "b", "b"]);
    for (code, name) in ["a", "b"].iter().enumerate() {
        let s = MSubset::Group {
            groups: &groups,
            code,
        };
        let r = subset_rates(&Y, &PRED, None, s, ZeroDivision::Error).unwrap();
        let g = || Subset::group("g", name);
        assert!(
            (value(Rate::PositivePrediction(g()).expr()) - r.positive_prediction_rate).abs()
                < EXACT
        );
        assert!(
            (value(Rate::TruePositive(g()).expr()) - r.true_positive_rate.unwrap()).abs() < EXACT
        );
        assert!(
            (value(Rate::FalsePositive(g()).expr()) - r.false_positive_rate.unwrap()).abs() < EXACT
        );
        assert!((value(Rate::Error(g()).expr()) - r.error_rate).abs() < EXACT);
        let c = churn_rates(&Y, &PRED, &H, None, s, ZeroDivision::Error).unwrap();
        assert!((value(Rate::Churn(g()).expr()) - c.churn).abs() < EXACT);
        assert!((value(Rate::Win(g()).expr()) - c.win_rate).abs() < EXACT);
        assert!((value(Rate::Loss(g()).expr()) - c.loss_rate).abs() < EXACT);
        assert!(
            (value(Rate::LossOnlyChurn(g()).expr()) - c.loss_only_churn.unwrap()).abs() < EXACT
        );
    }
}

#[test]
fn linear_combinations_ratios_and_slack() {
    let tpr = |s: Subset| Rate::TruePositive(s).expr();
    // Adult-style: TPR(a) ≥ 0.95·TPR(all) ⇔ 0.95·2/3 − 1/2 ≤ 0.
    let c = tpr(Subset::group("g", "a")).ge_with(tpr(Subset::all()), Slack::Multiplicative(0.95));
    assert!((value(c.expression().clone()) - (0.95 * 2.0 / 3.0 - 0.5)).abs() < EXACT);
    // COMPAS-style: TPR(a) ≤ TPR(all) + 0.05 ⇔ 1/2 − 2/3 − 0.05 ≤ 0.
    let c = tpr(Subset::group("g", "a")).le_with(tpr(Subset::all()), Slack::Additive(0.05));
    assert!((value(c.expression().clone()) - (0.5 - 2.0 / 3.0 - 0.05)).abs() < EXACT);
    // Precision = TP / PP = 2/3; "precision ≥ 0.8" linearised: 0.8·(3/6) − 2/6.
    let c = Ratio::precision(Subset::all()).at_least(0.8);
    assert!((value(c.expression().clone()) - (0.8 * 0.5 - 2.0 / 6.0)).abs() < EXACT);
    // Win/loss ratio ≥ 2: 2·(1/6) − 1/6.
    let c = goals::win_loss_ratio_at_least(Subset::all(), 2.0);
    assert!((value(c.expression().clone()) - 1.0 / 6.0).abs() < EXACT);
}

#[test]
fn every_table_goal_is_expressible() {
    let gs = ["a", "b"];
    let cases: Vec<(Vec<Constraint>, usize)> = vec![
        (vec![goals::coverage_at_least(Subset::all(), 0.3)], 1),
        (vec![goals::recall_at_least(Subset::all(), 0.5)], 1),
        (
            goals::statistical_parity("g", &gs, Direction::Both, Slack::Additive(0.5)),
            4,
        ),
        (
            goals::equal_opportunity("g", &gs, Direction::AtLeast, Slack::Multiplicative(0.5)),
            2,
        ),
        (
            goals::equal_odds("g", &gs, Direction::Both, Slack::Additive(0.9)),
            8,
        ),
        (
            goals::equal_accuracy("g", &gs, Direction::Both, Slack::Additive(0.5)),
            4,
        ),
        (goals::not_worse_off("g", &gs, Slack::Additive(0.5)), 2),
        (goals::no_lost_benefits("g", &gs, Slack::Additive(0.5)), 2),
        (
            goals::accurate_coverage("g", &gs, Direction::Both, Slack::Additive(0.5)),
            4,
        ),
        (goals::minimum_recall("g", &gs, 0.3), 2),
        (goals::minimum_coverage("g", &gs, 0.2), 2),
        (goals::minimum_accuracy("g", &gs, 0.2), 2),
        (
            vec![goals::accuracy_at_least(Subset::mask("steer"), 0.5)],
            1,
        ),
        (vec![goals::churn_at_most(Subset::all(), 0.4)], 1),
        (vec![goals::loss_only_churn_at_most(Subset::all(), 0.4)], 1),
        (vec![goals::precision_at_least(Subset::all(), 0.5)], 1),
    ];
    for (cs, n) in cases {
        assert_eq!(cs.len(), n);
        // Each compiles (and is satisfiable) on the fixture.
        let p = Problem::new(toy_examples(), cs).unwrap();
        assert_eq!(p.n_constraints(), n);
    }
}

#[test]
fn hinge_proxy_bounds_and_matches_tfco_on_fixture() {
    let c = Rate::TruePositive(Subset::group("g", "a")).expr().ge(0.9);
    let p = Problem::new(toy_examples(), vec![c]).unwrap();
    let exact = p.evaluate_scores(&TOY_SCORES).unwrap().constraints[0];
    let proxy = p.proxy_constraints(&TOY_SCORES, 1.0).unwrap()[0];
    // g = 0.9 − ½(I⁺(1.0) + I⁺(−0.5)) = 0.9 − ½·1 = 0.4. Negative coefficient −½ on I⁺ becomes
    // −½ + ½·I⁻: proxy = 0.9 − 1 + ½(max(0, 1 − 1.0) + max(0, 1 + 0.5)) = −0.1 + 0.75 = 0.65.
    assert!((exact - 0.4).abs() < EXACT);
    assert!((proxy - 0.65).abs() < EXACT);
}
