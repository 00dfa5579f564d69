//! One test per invalid input, each derived from one valid fixture: typed errors, never panics.

mod common;
use common::{toy_examples, two_group_problem};
use fair_data::Groups;
use game_opt::{
    Algorithm, Examples, GameOptError, GameOptParams, Linear, Mlp, Model, Problem, Rate,
    StochasticClassifier, Subset, goals, shrink, stationary_distribution,
};
use nalgebra::DMatrix;

fn x1() -> DMatrix<f64> {
    DMatrix::from_row_slice(4, 1, &[0.0, 1.0, 2.0, 3.0])
}

#[test]
fn valid_fixture_is_accepted() {
    let p = Problem::new(
        toy_examples(),
        vec![goals::coverage_at_least(Subset::all(), 0.3)],
    );
    assert!(p.is_ok());
}

#[test]
fn empty_examples() {
    let x = DMatrix::<f64>::zeros(0, 1);
    assert!(matches!(
        Examples::new(&x, &[]),
        Err(GameOptError::Empty { .. })
    ));
}

#[test]
fn label_length_mismatch() {
    assert!(matches!(
        Examples::new(&x1(), &[0, 1]),
        Err(GameOptError::LengthMismatch { what: "labels", .. })
    ));
}

#[test]
fn non_binary_label() {
    assert!(matches!(
        Examples::new(&x1(), &[0, 1, 2, 0]),
        Err(GameOptError::NonBinaryLabel { row: 2, label: 2 })
    ));
}

#[test]
fn nan_feature() {
    let mut x = x1();
    x[(1, 0)] = f64::NAN;
    assert!(matches!(
        Examples::new(&x, &[0, 1, 0, 1]),
        Err(GameOptError::NonFinite { .. })
    ));
}

#[test]
fn single_class_labels() {
    let ex = Examples::new(&x1(), &[1, 1, 1, 1]).unwrap();
    assert!(matches!(
        Problem::unconstrained(ex),
        Err(GameOptError::SingleClass { class: 1, count: 4 })
    ));
}

#[test]
fn empty_subset() {
    // No row is both in group "b" and ... a group that exists but is empty after filtering.
    let ex = Examples::new(&x1(), &[0, 1, 0, 1])
        .unwrap()
        .with_attribute(
            "g",
            Groups::new(vec![0, 0, 0, 0], vec!["a".into(), "b".into()]).unwrap(),
        )
        .unwrap();
    let c = goals::recall_at_least(Subset::group("g", "b"), 0.5);
    assert!(matches!(
        Problem::new(ex, vec![c]),
        Err(GameOptError::EmptySubset { constraint: 0, .. })
    ));
}

#[test]
fn unknown_attribute_group_and_mask() {
    let c = goals::recall_at_least(Subset::group("race", "x"), 0.5);
    assert!(matches!(
        Problem::new(toy_examples(), vec![c]),
        Err(GameOptError::UnknownAttribute { .. })
    ));
    let c = goals::recall_at_least(Subset::group("g", "zz"), 0.5);
    assert!(matches!(
        Problem::new(toy_examples(), vec![c]),
        Err(GameOptError::UnknownGroup { .. })
    ));
    let c = goals::recall_at_least(Subset::mask("nope"), 0.5);
    assert!(matches!(
        Problem::new(toy_examples(), vec![c]),
        Err(GameOptError::UnknownMask { .. })
    ));
}

#[test]
fn missing_baseline() {
    let ex = Examples::new(&x1(), &[0, 1, 0, 1]).unwrap();
    let c = goals::churn_at_most(Subset::all(), 0.1);
    assert!(matches!(
        Problem::new(ex, vec![c]),
        Err(GameOptError::MissingBaseline { constraint: 0 })
    ));
}

#[test]
fn contradictory_constraints() {
    let cs = vec![
        goals::coverage_at_least(Subset::all(), 0.6),
        goals::coverage_at_most(Subset::all(), 0.4),
    ];
    match Problem::new(toy_examples(), cs) {
        Err(GameOptError::Contradictory { min_violation }) => {
            assert!((min_violation - 0.1).abs() < 1e-9)
        }
        other => panic!("expected Contradictory, got {other:?}"),
    }
}

#[test]
fn non_finite_constraint_coefficient() {
    let c = (f64::NAN * Rate::PositivePrediction(Subset::all()).expr()).le(0.0);
    assert!(matches!(
        Problem::new(toy_examples(), vec![c]),
        Err(GameOptError::NonFinite { .. })
    ));
}

#[test]
fn mask_and_attribute_length() {
    assert!(matches!(
        Examples::new(&x1(), &[0, 1, 0, 1])
            .unwrap()
            .with_mask("m", vec![true]),
        Err(GameOptError::LengthMismatch { what: "mask", .. })
    ));
    assert!(matches!(
        Examples::new(&x1(), &[0, 1, 0, 1])
            .unwrap()
            .with_attribute("g", Groups::from_labels(&["a"])),
        Err(GameOptError::LengthMismatch { .. })
    ));
    assert!(matches!(
        Examples::new(&x1(), &[0, 1, 0, 1])
            .unwrap()
            .with_baseline(&[0, 1, 3, 0]),
        Err(GameOptError::NonBinaryLabel { .. })
    ));
}

#[test]
fn invalid_settings() {
    for p in [
        GameOptParams::new().iterations(0),
        GameOptParams::new().batch_size(0),
        GameOptParams::new().lr_theta(f64::NAN),
        GameOptParams::new().lr_lambda(0.0),
        GameOptParams::new().hinge_margin(-1.0),
        GameOptParams::new().l2(-0.1),
        GameOptParams::new().snapshot_every(0),
        GameOptParams::new().multiplier_radius(Some(0.0)),
        GameOptParams::new().theta_radius(Some(f64::INFINITY)),
        GameOptParams::new().lp_epsilon(-1.0),
        GameOptParams::new().lp_tolerance(0.0),
    ] {
        assert!(
            matches!(p.clone().check(), Err(GameOptError::InvalidParam { .. })),
            "{p:?}"
        );
    }
}

#[test]
fn model_feature_mismatch() {
    let p = two_group_problem(60);
    let r = GameOptParams::new().iterations(5).fit(&p, Linear::new(7));
    assert!(matches!(
        r,
        Err(GameOptError::FeatureMismatch {
            expected: 7,
            got: 3
        })
    ));
}

#[test]
fn nan_gradient_is_an_error() {
    // A huge learning rate with SGD on huge features diverges to inf/NaN: typed error, no panic.
    let x = DMatrix::from_fn(40, 1, |i, _| if i % 2 == 0 { 1e300 } else { -1e300 });
    let y: Vec<usize> = (0..40).map(|i| i % 2).collect();
    let p = Problem::unconstrained(Examples::new(&x, &y).unwrap()).unwrap();
    let r = GameOptParams::new()
        .algorithm(Algorithm::Unconstrained)
        .optimizer(game_opt::Optimizer::Sgd)
        .lr_theta(1e300)
        .iterations(20)
        .fit(&p, Linear::new(1));
    assert!(
        matches!(r, Err(GameOptError::NonFiniteGradient { .. })),
        "{r:?}"
    );
}

#[test]
fn nan_initial_parameters() {
    let p = two_group_problem(60);
    let mut m = Linear::new(3);
    m.parameters_mut()[0] = f64::NAN;
    assert!(matches!(
        GameOptParams::new().fit(&p, m),
        Err(GameOptError::NonFinite { .. })
    ));
}

#[test]
fn bad_mixtures_and_matrices() {
    let l = Linear::new(1);
    assert!(matches!(
        StochasticClassifier::<Linear>::new(vec![]),
        Err(GameOptError::NoCandidates { .. })
    ));
    assert!(matches!(
        StochasticClassifier::new(vec![(0.5, l.clone()), (0.6, l.clone())]),
        Err(GameOptError::InvalidWeights { .. })
    ));
    assert!(matches!(
        StochasticClassifier::new(vec![(-0.5, l.clone()), (1.5, l.clone())]),
        Err(GameOptError::InvalidWeights { .. })
    ));
    let clf = StochasticClassifier::deterministic(l);
    assert!(matches!(
        clf.predict(&DMatrix::zeros(3, 2), 0),
        Err(GameOptError::FeatureMismatch { .. })
    ));
    let m = DMatrix::from_row_slice(2, 2, &[0.5, 0.5, 0.6, 0.5]);
    assert!(matches!(
        stationary_distribution(&m),
        Err(GameOptError::InvalidWeights { .. })
    ));
    assert!(matches!(
        stationary_distribution(&DMatrix::zeros(2, 3)),
        Err(GameOptError::LengthMismatch { .. })
    ));
    assert!(matches!(
        Mlp::new(3, 0, 0),
        Err(GameOptError::InvalidParam { .. })
    ));
}

#[test]
fn bad_lp_inputs() {
    assert!(matches!(
        shrink(&[], &[], 0.0, 1e-4),
        Err(GameOptError::NoCandidates { .. })
    ));
    assert!(matches!(
        shrink(&[0.1], &[vec![0.0], vec![0.1]], 0.0, 1e-4),
        Err(GameOptError::LengthMismatch { .. })
    ));
    assert!(matches!(
        shrink(&[f64::NAN], &[vec![0.0]], 0.0, 1e-4),
        Err(GameOptError::NonFinite { .. })
    ));
    assert!(matches!(
        shrink(&[0.1], &[vec![0.0]], -1.0, 1e-4),
        Err(GameOptError::InvalidParam { .. })
    ));
}

#[test]
fn bad_scores_for_evaluation() {
    let p = Problem::unconstrained(toy_examples()).unwrap();
    assert!(matches!(
        p.evaluate_scores(&[0.0; 3]),
        Err(GameOptError::LengthMismatch { .. })
    ));
    assert!(matches!(
        p.evaluate_scores(&[f64::NAN; 6]),
        Err(GameOptError::NonFinite { .. })
    ));
    assert!(matches!(
        p.proxy_constraints(&[0.0; 6], 0.0),
        Err(GameOptError::InvalidParam { .. })
    ));
}
