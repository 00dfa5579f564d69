//! One test per invalid input, each derived from one valid fixture: a typed error, never a panic.

use fair_data::Groups;
use info_projection::{
    Constraint, Decision, FairProjection, GroupInfo, InfoProjectionError as E, RowPolicy,
};
use nalgebra::DMatrix;

fn probs() -> DMatrix<f64> {
    DMatrix::from_row_slice(4, 2, &[0.2, 0.8, 0.3, 0.7, 0.8, 0.2, 0.6, 0.4])
}
fn groups() -> Groups {
    Groups::from_labels(&["a", "a", "b", "b"])
}

#[test]
fn fixture_is_valid() {
    assert!(FairProjection::params().fit(&probs(), &groups()).is_ok());
}

#[test]
fn probability_above_one() {
    let mut p = probs();
    p[(1, 1)] = 1.2;
    let e = FairProjection::params().fit(&p, &groups()).unwrap_err();
    assert!(
        matches!(e, E::ProbabilityOutOfRange { row: 1, col: 1, .. }),
        "{e}"
    );
}

#[test]
fn negative_probability() {
    let mut p = probs();
    p[(2, 0)] = -0.1;
    let e = FairProjection::params().fit(&p, &groups()).unwrap_err();
    assert!(matches!(e, E::ProbabilityOutOfRange { row: 2, col: 0, .. }));
}

#[test]
fn row_not_summing_to_one() {
    let mut p = probs();
    p[(3, 0)] = 0.5;
    let e = FairProjection::params().fit(&p, &groups()).unwrap_err();
    assert!(matches!(e, E::RowSumNotOne { row: 3, .. }), "{e}");
    // The documented alternative renormalises instead.
    assert!(
        FairProjection::params()
            .row_policy(RowPolicy::Renormalize)
            .fit(&p, &groups())
            .is_ok()
    );
}

#[test]
fn all_zero_row_under_renormalize() {
    let mut p = probs();
    p[(0, 0)] = 0.0;
    p[(0, 1)] = 0.0;
    let e = FairProjection::params()
        .row_policy(RowPolicy::Renormalize)
        .fit(&p, &groups())
        .unwrap_err();
    assert!(matches!(e, E::RowSumNotOne { row: 0, .. }));
}

#[test]
fn nan_probability() {
    let mut p = probs();
    p[(0, 1)] = f64::NAN;
    let e = FairProjection::params().fit(&p, &groups()).unwrap_err();
    assert!(matches!(e, E::NonFinite { row: 0, col: 1, .. }));
}

#[test]
fn negative_alpha() {
    let e = FairProjection::params()
        .alpha(-0.1)
        .fit(&probs(), &groups())
        .unwrap_err();
    assert!(matches!(e, E::InvalidParameter { name: "alpha", .. }));
}

#[test]
fn nan_alpha() {
    let e = FairProjection::params()
        .alpha(f64::NAN)
        .fit(&probs(), &groups())
        .unwrap_err();
    assert!(matches!(e, E::InvalidParameter { name: "alpha", .. }));
}

#[test]
fn bad_settings() {
    let p = FairProjection::params;
    for (params, name) in [
        (p().zeta(0.0), "zeta"),
        (p().rho(-1.0), "rho"),
        (p().relaxation(0.0), "relaxation"),
        (p().relaxation(2.0), "relaxation"),
        (p().relaxation(f64::NAN), "relaxation"),
        (p().anderson_memory(51), "anderson_memory"),
        (p().tol(0.0), "tol"),
        (p().max_iter(0), "max_iter"),
        (p().lbfgs_memory(0), "lbfgs_memory"),
        (p().floor(0.7), "floor"),
        (p().constraints(&[]), "constraints"),
        (p().warm_start_fraction(0.0), "warm_start_fraction"),
        (p().warm_start_fraction(-0.25), "warm_start_fraction"),
        (p().warm_start_fraction(1.5), "warm_start_fraction"),
        (p().warm_start_fraction(f64::NAN), "warm_start_fraction"),
    ] {
        let e = params.fit(&probs(), &groups()).unwrap_err();
        assert!(
            matches!(e, E::InvalidParameter { name: n, .. } if n == name),
            "{e}"
        );
    }
}

#[test]
fn floor_too_large_for_the_number_of_classes() {
    let p = DMatrix::from_row_slice(2, 3, &[0.2, 0.3, 0.5, 0.6, 0.2, 0.2]);
    let g = Groups::from_labels(&["a", "b"]);
    let e = FairProjection::params().floor(0.4).fit(&p, &g).unwrap_err();
    assert!(matches!(e, E::InvalidParameter { name: "floor", .. }));
}

#[test]
fn group_absent_from_the_data() {
    let g = Groups::new(vec![0, 0, 2, 2], vec!["a".into(), "b".into(), "c".into()]).unwrap();
    let e = FairProjection::params().fit(&probs(), &g).unwrap_err();
    assert!(matches!(&e, E::EmptyGroup { group } if group == "b"), "{e}");
}

#[test]
fn empty_equalized_odds_cell() {
    // With true labels, class 1 never occurs in group "b".
    let e = FairProjection::params()
        .constraint(Constraint::EqualizedOdds)
        .fit_with_labels(&probs(), &groups(), &[1, 0, 0, 0])
        .unwrap_err();
    assert!(matches!(e, E::EmptyCell { class: 1, .. }), "{e}");
}

#[test]
fn single_class() {
    let p = DMatrix::from_element(4, 1, 1.0);
    let e = FairProjection::params().fit(&p, &groups()).unwrap_err();
    assert!(matches!(e, E::TooFewClasses { n_classes: 1 }));
}

#[test]
fn single_group() {
    let g = Groups::from_labels(&["a", "a", "a", "a"]);
    let e = FairProjection::params().fit(&probs(), &g).unwrap_err();
    assert!(matches!(e, E::TooFewGroups { n_groups: 1 }));
}

#[test]
fn no_rows() {
    let p = DMatrix::<f64>::zeros(0, 2);
    let g = Groups::new(vec![], vec!["a".into(), "b".into()]).unwrap();
    let e = FairProjection::params().fit(&p, &g).unwrap_err();
    assert!(matches!(e, E::Empty { .. }));
}

#[test]
fn mismatched_group_length() {
    let g = Groups::from_labels(&["a", "b", "a"]);
    let e = FairProjection::params().fit(&probs(), &g).unwrap_err();
    assert!(matches!(
        e,
        E::LengthMismatch {
            expected: 4,
            got: 3,
            ..
        }
    ));
}

#[test]
fn mismatched_label_length() {
    let e = FairProjection::params()
        .fit_with_labels(&probs(), &groups(), &[0, 1])
        .unwrap_err();
    assert!(matches!(e, E::LengthMismatch { what: "labels", .. }));
}

#[test]
fn label_out_of_range() {
    let e = FairProjection::params()
        .fit_with_labels(&probs(), &groups(), &[0, 1, 2, 0])
        .unwrap_err();
    assert!(matches!(
        e,
        E::LabelOutOfRange {
            row: 2,
            label: 2,
            ..
        }
    ));
}

#[test]
fn membership_probabilities_invalid() {
    let s = DMatrix::from_row_slice(4, 2, &[0.5, 0.5, 0.9, 0.3, 0.1, 0.9, 0.5, 0.5]);
    let e = FairProjection::params()
        .fit(&probs(), GroupInfo::ProbaGivenX(&s))
        .unwrap_err();
    assert!(matches!(e, E::RowSumNotOne { row: 1, .. }));
    let s = DMatrix::from_row_slice(3, 2, &[0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
    let e = FairProjection::params()
        .fit(&probs(), GroupInfo::ProbaGivenX(&s))
        .unwrap_err();
    assert!(matches!(e, E::LengthMismatch { .. }));
}

#[test]
fn wrong_number_of_per_class_membership_matrices() {
    let s = DMatrix::from_element(4, 2, 0.5);
    let e = FairProjection::params()
        .fit(&probs(), GroupInfo::ProbaGivenXY(std::slice::from_ref(&s)))
        .unwrap_err();
    assert!(matches!(
        e,
        E::LengthMismatch {
            expected: 2,
            got: 1,
            ..
        }
    ));
}

#[test]
fn prediction_with_other_classes_or_groups() {
    let fp = FairProjection::params().fit(&probs(), &groups()).unwrap();
    let p3 = DMatrix::from_row_slice(1, 3, &[0.2, 0.3, 0.5]);
    let g1 = Groups::new(vec![0], vec!["a".into(), "b".into()]).unwrap();
    assert!(matches!(
        fp.predict_proba(&p3, &g1).unwrap_err(),
        E::LengthMismatch {
            expected: 2,
            got: 3,
            ..
        }
    ));
    let other = Groups::from_labels(&["x", "x", "y", "y"]);
    assert!(matches!(
        fp.predict_proba(&probs(), &other).unwrap_err(),
        E::GroupMismatch { .. }
    ));
    let s = DMatrix::from_element(4, 2, 0.5);
    assert!(matches!(
        fp.predict_proba(&probs(), GroupInfo::ProbaGivenX(&s))
            .unwrap_err(),
        E::GroupMismatch { .. }
    ));
}

#[test]
fn bad_threshold() {
    let fp = FairProjection::params().fit(&probs(), &groups()).unwrap();
    let e = fp
        .predict(&probs(), &groups(), Decision::Threshold(1.5))
        .unwrap_err();
    assert!(matches!(
        e,
        E::InvalidParameter {
            name: "decision",
            ..
        }
    ));
    let p = DMatrix::from_row_slice(2, 3, &[0.2, 0.3, 0.5, 0.6, 0.2, 0.2]);
    let g = Groups::from_labels(&["a", "b"]);
    let fp3 = FairProjection::params()
        .constraint(Constraint::StatisticalParity)
        .fit(&p, &g)
        .unwrap();
    let e = fp3.predict(&p, &g, Decision::Threshold(0.5)).unwrap_err();
    assert!(matches!(
        e,
        E::InvalidParameter {
            name: "decision",
            ..
        }
    ));
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<FairProjection>();
    check::<E>();
    check::<info_projection::FairProjectionParams>();
    check::<info_projection::FitReport>();
}
