//! One test per invalid input, each derived from one valid fixture (`common::tiny`).

mod common;

use common::tiny;
use fair_data::Groups;
use fair_svm::{
    FairSvmError, Fairness, Kernel, KernelFairSvm, LambdaSearch, SpectralFairSvm, SpectralSplit,
    signs_from_classes, signs_from_groups,
};
use nalgebra::DMatrix;

fn fit(x: &DMatrix<f64>, y: &[f64], z: &[f64]) -> Result<SpectralFairSvm, FairSvmError> {
    SpectralFairSvm::params().fit(x, y, z)
}

#[test]
fn fixture_is_valid() {
    let (x, y, z) = tiny();
    assert!(fit(&x, &y, &z).is_ok());
    assert!(
        KernelFairSvm::params(Kernel::Linear)
            .fit(&x, &y, &z)
            .is_ok()
    );
}

#[test]
fn label_zero_is_rejected() {
    let (x, mut y, z) = tiny();
    y[2] = 0.0;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::InvalidLabel {
            what: "y",
            row: 2,
            ..
        })
    ));
}

#[test]
fn label_two_is_rejected() {
    let (x, mut y, z) = tiny();
    y[0] = 2.0;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::InvalidLabel {
            what: "y",
            row: 0,
            ..
        })
    ));
}

#[test]
fn nan_label_is_rejected() {
    let (x, mut y, z) = tiny();
    y[1] = f64::NAN;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::InvalidLabel {
            what: "y",
            row: 1,
            ..
        })
    ));
}

#[test]
fn protected_class_outside_plus_minus_one_is_rejected() {
    let (x, y, mut z) = tiny();
    z[3] = 0.5;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::InvalidLabel {
            what: "z",
            row: 3,
            ..
        })
    ));
}

#[test]
fn empty_positive_protected_class_is_rejected() {
    let (x, y, _) = tiny();
    let z = vec![-1.0; 4];
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::EmptyGroup { class: 1, .. })
    ));
}

#[test]
fn empty_negative_protected_class_is_rejected() {
    let (x, y, _) = tiny();
    let z = vec![1.0; 4];
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::EmptyGroup { class: -1, .. })
    ));
}

#[test]
fn equal_opportunity_needs_positives_in_both_classes() {
    let (x, _, z) = tiny();
    // z = −1 rows are 0, 1; only row 0's label becomes the only... make the z = −1 positives vanish.
    let y = vec![-1.0, -1.0, -1.0, 1.0];
    let err = SpectralFairSvm::params()
        .fairness(Fairness::EqualOpportunity)
        .fit(&x, &y, &z);
    assert!(matches!(
        err,
        Err(FairSvmError::EmptyGroup {
            class: -1,
            condition: " with y = +1"
        })
    ));
}

#[test]
fn single_class_is_rejected() {
    let (x, _, z) = tiny();
    assert!(matches!(
        fit(&x, &[1.0; 4], &z),
        Err(FairSvmError::SingleClass { .. })
    ));
}

#[test]
fn nan_feature_is_rejected() {
    let (mut x, y, z) = tiny();
    x[(2, 0)] = f64::NAN;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::NonFinite { row: 2, col: 0, .. })
    ));
}

#[test]
fn infinite_feature_is_rejected() {
    let (mut x, y, z) = tiny();
    x[(0, 0)] = f64::INFINITY;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::NonFinite { row: 0, .. })
    ));
}

#[test]
fn overflowing_features_are_rejected() {
    let (mut x, y, z) = tiny();
    x[(2, 0)] = -1e300;
    x[(3, 0)] = 1e300;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::Overflow { .. })
    ));
}

#[test]
fn short_labels_are_rejected() {
    let (x, y, z) = tiny();
    assert!(matches!(
        fit(&x, &y[..3], &z),
        Err(FairSvmError::LengthMismatch {
            what: "y",
            expected: 4,
            got: 3
        })
    ));
}

#[test]
fn short_protected_classes_are_rejected() {
    let (x, y, z) = tiny();
    assert!(matches!(
        fit(&x, &y, &z[..2]),
        Err(FairSvmError::LengthMismatch { what: "z", .. })
    ));
}

#[test]
fn empty_matrix_is_rejected() {
    let x = DMatrix::<f64>::zeros(0, 1);
    assert!(matches!(fit(&x, &[], &[]), Err(FairSvmError::Empty { .. })));
}

#[test]
fn matrix_without_columns_is_rejected() {
    let (_, y, z) = tiny();
    let x = DMatrix::<f64>::zeros(4, 0);
    assert!(matches!(fit(&x, &y, &z), Err(FairSvmError::Empty { .. })));
}

#[test]
fn invalid_settings_are_rejected() {
    let (x, y, z) = tiny();
    let cases = [
        ("lambda", SpectralFairSvm::params().lambda(0.0)),
        ("lambda", SpectralFairSvm::params().lambda(f64::NAN)),
        ("d", SpectralFairSvm::params().d(-0.1)),
        ("d", SpectralFairSvm::params().d(f64::NAN)),
        ("mu", SpectralFairSvm::params().mu(-1.0)),
        ("mu", SpectralFairSvm::params().mu(f64::INFINITY)),
        ("tol", SpectralFairSvm::params().tol(0.0)),
        ("max_iter", SpectralFairSvm::params().max_iter(0)),
        (
            "solver_max_iter",
            SpectralFairSvm::params().solver_max_iter(0),
        ),
    ];
    for (name, params) in cases {
        match params.fit(&x, &y, &z) {
            Err(FairSvmError::InvalidParam { name: got, .. }) => assert_eq!(got, name),
            other => panic!("{name}: expected InvalidParam, got {other:?}"),
        }
    }
}

#[test]
fn invalid_kernel_settings_are_rejected() {
    let (x, y, z) = tiny();
    let cases = [
        (
            "kernel gamma",
            KernelFairSvm::params(Kernel::Rbf { gamma: -1.0 }),
        ),
        (
            "kernel degree",
            KernelFairSvm::params(Kernel::Polynomial {
                degree: 0,
                gamma: 1.0,
                coef0: 1.0,
            }),
        ),
        (
            "kernel coef0",
            KernelFairSvm::params(Kernel::Polynomial {
                degree: 2,
                gamma: 1.0,
                coef0: -1.0,
            }),
        ),
        (
            "max_rows",
            KernelFairSvm::params(Kernel::Linear).max_rows(1),
        ),
        (
            "rank_tol",
            KernelFairSvm::params(Kernel::Linear).rank_tol(1.0),
        ),
        (
            "support_tol",
            KernelFairSvm::params(Kernel::Linear).support_tol(0.5),
        ),
        (
            "max_rank",
            KernelFairSvm::params(Kernel::Linear).max_rank(Some(0)),
        ),
    ];
    for (name, params) in cases {
        match params.fit(&x, &y, &z) {
            Err(FairSvmError::InvalidParam { name: got, .. }) => assert_eq!(got, name),
            other => panic!("{name}: expected InvalidParam, got {other:?}"),
        }
    }
}

#[test]
fn kernel_size_guard() {
    let (x, y, z) = tiny();
    let err = KernelFairSvm::params(Kernel::Linear)
        .max_rows(3)
        .fit(&x, &y, &z);
    assert!(matches!(err, Err(FairSvmError::TooLarge { n: 4, max: 3 })));
}

#[test]
fn predict_with_wrong_width_is_rejected() {
    let (x, y, z) = tiny();
    let svm = fit(&x, &y, &z).unwrap();
    let wide = DMatrix::zeros(2, 3);
    assert!(matches!(
        svm.decision_function(&wide),
        Err(FairSvmError::LengthMismatch {
            expected: 1,
            got: 3,
            ..
        })
    ));
    let ksvm = KernelFairSvm::params(Kernel::Linear)
        .fit(&x, &y, &z)
        .unwrap();
    assert!(matches!(
        ksvm.predict(&wide),
        Err(FairSvmError::LengthMismatch { .. })
    ));
}

#[test]
fn predict_with_nan_is_rejected() {
    let (x, y, z) = tiny();
    let svm = fit(&x, &y, &z).unwrap();
    let bad = DMatrix::from_element(1, 1, f64::NAN);
    assert!(matches!(
        svm.predict(&bad),
        Err(FairSvmError::NonFinite { .. })
    ));
}

#[test]
fn class_index_two_is_rejected_by_the_mapping() {
    assert!(matches!(
        signs_from_classes(&[0, 1, 2]),
        Err(FairSvmError::InvalidLabel { row: 2, .. })
    ));
}

#[test]
fn unknown_group_name_is_rejected_by_the_mapping() {
    let g = Groups::from_labels(&["own", "rent"]);
    assert!(matches!(
        signs_from_groups(&g, &["renting"]),
        Err(FairSvmError::InvalidParam { .. })
    ));
    assert!(matches!(
        signs_from_groups(&g, &[]),
        Err(FairSvmError::InvalidParam { .. })
    ));
}

#[test]
fn non_square_matrix_cannot_be_split() {
    assert!(matches!(
        SpectralSplit::new(&DMatrix::zeros(2, 3)),
        Err(FairSvmError::LengthMismatch { .. })
    ));
    assert!(matches!(
        SpectralSplit::new(&DMatrix::zeros(0, 0)),
        Err(FairSvmError::Empty { .. })
    ));
}

#[test]
fn lambda_search_rejects_bad_grids_and_folds() {
    let (x, y, _) = tiny();
    assert!(matches!(
        LambdaSearch::new(vec![]).run(&x, &y),
        Err(FairSvmError::InvalidParam { name: "grid", .. })
    ));
    assert!(matches!(
        LambdaSearch::new(vec![-1.0]).run(&x, &y),
        Err(FairSvmError::InvalidParam { name: "grid", .. })
    ));
    // Two rows per class cannot fill 5 folds.
    assert!(matches!(
        LambdaSearch::new(vec![0.1]).run(&x, &y),
        Err(FairSvmError::InvalidParam { name: "folds", .. })
    ));
}

#[test]
fn errors_are_send_sync_and_say_what_to_fix() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<FairSvmError>();
    assert_send_sync::<SpectralFairSvm>();
    assert_send_sync::<KernelFairSvm>();
    let msg = FairSvmError::InvalidLabel {
        what: "y",
        row: 0,
        value: 0.0,
    }
    .to_string();
    assert!(msg.contains("signs_from_classes"), "{msg}");
}
