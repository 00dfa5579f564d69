//! Minimised crashing inputs of the cargo-fuzz target `rate_constraints` (issue 18), replayed as
//! plain tests on stable so `cargo test --workspace` keeps them fixed (see docs/reliability.md).

use fair_data::Groups;
use game_opt::{
    Constraint, Examples, Expression, GameOptError, Problem, Rate, Ratio, Slack, Subset, goals,
};
use nalgebra::DMatrix;

/// Rows as the fuzz target builds them: (score·8, label, group, baseline, mask).
fn examples(rows: &[(i8, bool, &str, bool, bool)]) -> (Examples, Vec<f64>) {
    let scores: Vec<f64> = rows.iter().map(|r| f64::from(r.0) / 8.0).collect();
    let x = DMatrix::from_column_slice(rows.len(), 1, &scores);
    let y: Vec<usize> = rows.iter().map(|r| usize::from(r.1)).collect();
    let g: Vec<&str> = rows.iter().map(|r| r.2).collect();
    let baseline: Vec<usize> = rows.iter().map(|r| usize::from(r.3)).collect();
    let ex = Examples::new(&x, &y)
        .unwrap()
        .with_attribute("g", Groups::from_labels(&g))
        .unwrap()
        .with_mask("m", rows.iter().map(|r| r.4).collect())
        .unwrap()
        .with_baseline(&baseline)
        .unwrap();
    (ex, scores)
}

fn is_invalid(r: Result<impl std::fmt::Debug, GameOptError>, name: &str) {
    match r {
        Err(GameOptError::InvalidParam { name: n, .. }) => assert_eq!(n, name),
        other => panic!("expected InvalidParam {name}, got {other:?}"),
    }
}

/// Fix df82353: a subnormal hinge margin (1.23e-321) made |score| / margin overflow and the
/// proxy constraint ∞ inside `Ok`.
#[test]
fn tiny_hinge_margin_is_a_typed_error() {
    let (ex, scores) = examples(&[
        (-110, false, "b", false, false),
        (18, true, "a", false, false),
    ]);
    let p = Problem::new(
        ex,
        goals::no_lost_benefits("g", &["a", "b"], Slack::Additive(0.0)),
    )
    .unwrap();
    assert!(
        p.evaluate_scores(&scores)
            .unwrap()
            .constraints
            .iter()
            .all(|v| v.is_finite())
    );
    is_invalid(p.proxy_constraints(&scores, 1.23e-321), "hinge_margin");
    // An ordinary margin still works.
    assert!(
        p.proxy_constraints(&scores, 1.0)
            .unwrap()
            .iter()
            .all(|v| v.is_finite())
    );
}

/// Fix df82353: a finite coefficient (f64::MAX) summed over three rows evaluated to ∞.
#[test]
fn coefficients_whose_sum_overflows_are_a_typed_error() {
    let (ex, _) = examples(&[
        (-1, false, "c", true, true),
        (-1, false, "c", true, true),
        (-8, true, "a", true, false),
    ]);
    let num = f64::MAX * Rate::NegativePrediction(Subset::all()).expr();
    let den = 0.0 * Rate::PositivePrediction(Subset::all()).expr();
    let c = Ratio::new(num, den).at_most(0.0);
    is_invalid(
        Problem::for_evaluation(ex, vec![c]),
        "constraint coefficients",
    );
}

/// Fix df82353: coefficients near 1e285 reached the consistency LP, where microlp asserted
/// (`primal_edge_sq_norms[c].is_finite()`: the squared norm overflowed) — a panic.
#[test]
fn huge_coefficients_never_reach_the_lp_solver() {
    let (ex, _) = examples(&[
        (34, false, "a", true, true),
        (-102, true, "b", true, true),
        (-69, true, "b", false, false),
        (36, false, "b", true, true),
        (-1, true, "a", true, true),
        (-1, false, "a", false, true),
        (-69, true, "a", false, false),
        (-69, true, "a", false, true),
    ]);
    let num = f64::MAX * Rate::Error(Subset::all().positives()).expr();
    let den = -1e285 * Rate::BaselineAccuracy(Subset::all()).expr();
    let mut cs: Vec<Constraint> = vec![Ratio::new(num, den).at_least(-3.3167919085779153e-219)];
    cs.extend(goals::minimum_recall(
        "g",
        &["a", "b"],
        1.390671222353335e-309,
    ));
    is_invalid(Problem::new(ex, cs), "constraint coefficients");
}

/// The bound is on magnitude, not on meaning: the same constraint rescaled is accepted.
#[test]
fn a_rescaled_constraint_is_accepted() {
    let (ex, scores) = examples(&[(-8, false, "a", true, true), (8, true, "b", false, true)]);
    let e: Expression = 1e-3 * Rate::PositivePrediction(Subset::group("g", "a")).expr();
    let p = Problem::for_evaluation(ex, vec![e.le(0.5e-3)]).unwrap();
    assert!(p.evaluate_scores(&scores).unwrap().constraints[0].is_finite());
}
