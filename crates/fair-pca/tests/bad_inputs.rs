//! One test per invalid input, each derived from one valid fixture (Clarabel's
//! `api_dimension_checks` style). Every case must be a typed error, never a panic.

mod common;

use fair_data::Groups;
use fair_pca::{
    Centering, FairPca, FairPcaError, MwFairPca, Projection, StepRule, group_pca, vanilla_pca,
};
use nalgebra::{DMatrix, DVector};

/// The valid fixture: 2 groups × 8 rows in 4 dimensions, r = 2.
fn fixture() -> (DMatrix<f64>, Groups) {
    common::grouped_data(1, 2, 8, 4)
}

#[test]
fn the_fixture_itself_fits() {
    let (x, g) = fixture();
    assert!(FairPca::params(2).max_iter(5).fit(&x, &g).is_ok());
    assert!(MwFairPca::samadi(2).fit(&x, &g).is_ok());
}

#[test]
fn rank_equal_to_the_dimension_is_rejected() {
    let (x, g) = fixture();
    let err = FairPca::params(4).fit(&x, &g).unwrap_err();
    assert_eq!(err, FairPcaError::InvalidRank { r: 4, d: 4 });
}

#[test]
fn rank_above_the_dimension_is_rejected() {
    let (x, g) = fixture();
    assert!(matches!(
        FairPca::params(9).fit(&x, &g),
        Err(FairPcaError::InvalidRank { r: 9, d: 4 })
    ));
    assert!(matches!(
        vanilla_pca(&x, 9, Centering::Global),
        Err(FairPcaError::InvalidRank { .. })
    ));
    assert!(matches!(
        MwFairPca::params(4).fit(&x, &g),
        Err(FairPcaError::InvalidRank { .. })
    ));
}

#[test]
fn rank_zero_is_rejected() {
    let (x, g) = fixture();
    assert!(matches!(
        FairPca::params(0).fit(&x, &g),
        Err(FairPcaError::InvalidParameter { name: "rank", .. })
    ));
    assert!(matches!(
        vanilla_pca(&x, 0, Centering::Global),
        Err(FairPcaError::InvalidRank { r: 0, .. })
    ));
}

#[test]
fn a_group_with_fewer_than_r_rows_is_rejected() {
    let (x, _) = fixture();
    // Group "b" has only row 0 (1 row < r = 2).
    let mut codes = vec![0; 16];
    codes[0] = 1;
    let g = Groups::new(codes, vec!["a".into(), "b".into()]).unwrap();
    let err = FairPca::params(2).fit(&x, &g).unwrap_err();
    assert_eq!(
        err,
        FairPcaError::GroupTooSmall {
            group: "b".into(),
            rows: 1,
            r: 2
        }
    );
    assert!(matches!(
        group_pca(&x, &g, 2, Centering::Global),
        Err(FairPcaError::GroupTooSmall { .. })
    ));
}

#[test]
fn a_declared_group_without_rows_is_rejected() {
    let (x, _) = fixture();
    let codes: Vec<usize> = (0..16).map(|i| i % 2).collect();
    let g = Groups::new(codes, vec!["a".into(), "b".into(), "c".into()]).unwrap();
    assert!(matches!(
        FairPca::params(2).fit(&x, &g),
        Err(FairPcaError::GroupTooSmall { rows: 0, .. })
    ));
    // After compact() the same data fits.
    assert!(FairPca::params(2).max_iter(3).fit(&x, &g.compact()).is_ok());
}

#[test]
fn nan_in_the_data_is_rejected_with_its_position() {
    let (mut x, g) = fixture();
    x[(5, 2)] = f64::NAN;
    match FairPca::params(2).fit(&x, &g) {
        Err(FairPcaError::NonFinite { row, col, .. }) => assert_eq!((row, col), (5, 2)),
        other => panic!("expected NonFinite, got {other:?}"),
    }
}

#[test]
fn infinity_in_the_data_is_rejected() {
    let (mut x, g) = fixture();
    x[(0, 0)] = f64::INFINITY;
    assert!(matches!(
        FairPca::params(2).fit(&x, &g),
        Err(FairPcaError::NonFinite { row: 0, col: 0, .. })
    ));
    assert!(matches!(
        vanilla_pca(&x, 2, Centering::Global),
        Err(FairPcaError::NonFinite { .. })
    ));
    assert!(matches!(
        MwFairPca::params(2).fit(&x, &g),
        Err(FairPcaError::NonFinite { .. })
    ));
}

#[test]
fn a_single_group_is_rejected() {
    let (x, _) = fixture();
    let g = Groups::from_labels(&vec!["only"; 16]);
    assert!(matches!(
        FairPca::params(2).fit(&x, &g),
        Err(FairPcaError::TooFewGroups { found: 1, .. })
    ));
    assert!(matches!(
        MwFairPca::params(2).fit(&x, &g),
        Err(FairPcaError::TooFewGroups { .. })
    ));
}

#[test]
fn group_codes_of_the_wrong_length_are_rejected() {
    let (x, _) = fixture();
    let g = Groups::from_codes(&[0, 1, 0]).unwrap();
    assert!(matches!(
        FairPca::params(2).fit(&x, &g),
        Err(FairPcaError::LengthMismatch {
            expected: 16,
            got: 3,
            ..
        })
    ));
}

#[test]
fn no_rows_at_all_is_rejected() {
    let x = DMatrix::<f64>::zeros(0, 4);
    assert!(matches!(
        vanilla_pca(&x, 2, Centering::Global),
        Err(FairPcaError::Empty { .. })
    ));
    let g = Groups::new(vec![], vec!["a".into(), "b".into()]).unwrap();
    assert!(matches!(
        FairPca::params(2).fit(&x, &g),
        Err(FairPcaError::GroupTooSmall { rows: 0, .. })
    ));
}

#[test]
fn samadi_lp_rounding_with_three_groups_is_rejected() {
    let (x, g) = common::grouped_data(2, 3, 6, 4);
    assert!(matches!(
        MwFairPca::samadi(2).fit(&x, &g),
        Err(FairPcaError::UnsupportedGroupCount { got: 3, .. })
    ));
}

#[test]
fn too_many_groups_for_pairwise_objectives_are_rejected() {
    // 24 groups → 1 + C(24, 2) = 277 objectives > 256 (23 groups would give 254).
    let (x, g) = common::grouped_data(3, 24, 3, 4);
    assert!(matches!(
        FairPca::params(2).fit(&x, &g),
        Err(FairPcaError::UnsupportedGroupCount { got: 24, .. })
    ));
    // The single objectives (1 + k) are fine with the same groups.
    assert!(
        FairPca::params(2)
            .objectives(fair_pca::Objectives::Single)
            .max_iter(2)
            .fit(&x, &g)
            .is_ok()
    );
}

#[test]
fn bad_settings_are_rejected_before_touching_the_data() {
    let (x, g) = fixture();
    for p in [
        FairPca::params(2).step(StepRule::InverseSqrt { eta0: -1.0 }),
        FairPca::params(2).alpha(f64::NAN),
        FairPca::params(2).max_iter(0),
        FairPca::params(2).min_max_start(false),
    ] {
        assert!(matches!(
            p.fit(&x, &g),
            Err(FairPcaError::InvalidParameter { .. })
        ));
    }
    assert!(matches!(
        MwFairPca::params(2).iterations(0).fit(&x, &g),
        Err(FairPcaError::InvalidParameter { .. })
    ));
}

#[test]
fn transform_with_the_wrong_number_of_columns_is_rejected() {
    let (x, g) = fixture();
    let m = FairPca::params(2).max_iter(3).fit(&x, &g).unwrap();
    assert!(matches!(
        m.transform(&DMatrix::zeros(3, 5)),
        Err(FairPcaError::LengthMismatch {
            expected: 4,
            got: 5,
            ..
        })
    ));
}

#[test]
fn transform_of_non_finite_data_is_rejected() {
    let (x, g) = fixture();
    let m = FairPca::params(2).max_iter(3).fit(&x, &g).unwrap();
    let mut y = DMatrix::zeros(2, 4);
    y[(1, 3)] = f64::NEG_INFINITY;
    assert!(matches!(
        m.transform(&y),
        Err(FairPcaError::NonFinite { row: 1, col: 3, .. })
    ));
}

#[test]
fn losses_with_groups_that_do_not_cover_the_rows_are_a_metric_error() {
    let (x, g) = fixture();
    let m = FairPca::params(2).max_iter(3).fit(&x, &g).unwrap();
    let short = Groups::from_codes(&[0, 1]).unwrap();
    assert!(matches!(m.losses(&x, &short), Err(FairPcaError::Metric(_))));
}

#[test]
fn a_non_orthonormal_basis_is_rejected() {
    let b = DMatrix::from_row_slice(2, 1, &[1.0, 1.0]);
    assert!(matches!(
        Projection::new(b, DVector::zeros(2)),
        Err(FairPcaError::InvalidParameter { name: "basis", .. })
    ));
    let b = DMatrix::from_row_slice(2, 1, &[1.0, 0.0]);
    assert!(matches!(
        Projection::new(b, DVector::zeros(3)),
        Err(FairPcaError::LengthMismatch { .. })
    ));
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<FairPca>();
    check::<fair_pca::FairPcaParams>();
    check::<fair_pca::FairPcaValidParams>();
    check::<FairPcaError>();
    check::<Projection>();
    check::<MwFairPca>();
    check::<fair_pca::MwFairPcaParams>();
    check::<fair_pca::FitReport>();
    check::<fair_pca::MwReport>();
}
