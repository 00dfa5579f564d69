//! One test per invalid input, each derived from one valid fixture (`common::tiny`).

mod common;

use common::{groups, tiny};
use fair_data::Groups;
use fair_svm::{
    FairSvmError, Fairness, Kernel, KernelFairSvm, LambdaSearch, SpectralFairSvm, SpectralSplit,
    one_vs_rest,
};
use nalgebra::DMatrix;

fn fit(x: &DMatrix<f64>, y: &[usize], z: &Groups) -> Result<SpectralFairSvm, FairSvmError> {
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
fn class_two_is_rejected() {
    let (x, mut y, z) = tiny();
    y[2] = 2;
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::InvalidLabel { row: 2, value: 2 })
    ));
    let kernel = KernelFairSvm::params(Kernel::Linear).fit(&x, &y, &z);
    assert!(matches!(
        kernel,
        Err(FairSvmError::InvalidLabel { row: 2, value: 2 })
    ));
    let msg = fit(&x, &y, &z).unwrap_err().to_string();
    assert!(msg.contains("0 and 1"), "{msg}");
}

#[test]
fn one_group_is_rejected_naming_the_count() {
    let (x, y, _) = tiny();
    let one = Groups::new(vec![0; 4], vec!["all".into()]).unwrap();
    let err = fit(&x, &y, &one).unwrap_err();
    assert!(
        matches!(&err, FairSvmError::GroupCount { got: 1, names } if names == "all"),
        "{err:?}"
    );
    assert!(err.to_string().contains("1 group(s)"), "{err}");
    assert!(matches!(
        KernelFairSvm::params(Kernel::Linear).fit(&x, &y, &one),
        Err(FairSvmError::GroupCount { got: 1, .. })
    ));
}

#[test]
fn three_groups_are_rejected_naming_the_count() {
    let (x, y, _) = tiny();
    let three = Groups::from_labels(&["own", "rent", "free", "rent"]);
    let err = fit(&x, &y, &three).unwrap_err();
    assert!(
        matches!(err, FairSvmError::GroupCount { got: 3, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("one_vs_rest"), "{err}");
    // Merged into two, the same rows fit.
    let two = one_vs_rest(&three, &["rent"]).unwrap();
    assert_eq!(two.codes(), &[0, 1, 0, 1]);
    assert!(fit(&x, &[0, 0, 1, 1], &two).is_ok());
}

#[test]
fn empty_positive_group_is_rejected() {
    let (x, y, _) = tiny();
    let z = groups(&[0; 4]);
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::EmptyGroup { code: 1, ref group, .. }) if group == "b"
    ));
}

#[test]
fn empty_negative_group_is_rejected() {
    let (x, y, _) = tiny();
    let z = groups(&[1; 4]);
    assert!(matches!(
        fit(&x, &y, &z),
        Err(FairSvmError::EmptyGroup { code: 0, ref group, .. }) if group == "a"
    ));
}

#[test]
fn equal_opportunity_needs_positives_in_both_groups() {
    let (x, _, z) = tiny();
    // Group "a" (code 0) is rows 0 and 1: make neither of them class 1.
    let y = vec![0, 0, 0, 1];
    let err = SpectralFairSvm::params()
        .fairness(Fairness::EqualOpportunity)
        .fit(&x, &y, &z);
    assert!(matches!(
        err,
        Err(FairSvmError::EmptyGroup {
            code: 0,
            condition: " with y = 1",
            ..
        })
    ));
}

#[test]
fn single_class_is_rejected() {
    let (x, _, z) = tiny();
    assert!(matches!(
        fit(&x, &[1; 4], &z),
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
fn short_groups_are_rejected() {
    let (x, y, _) = tiny();
    assert!(matches!(
        fit(&x, &y, &groups(&[0, 1])),
        Err(FairSvmError::LengthMismatch {
            what: "groups",
            expected: 4,
            got: 2
        })
    ));
}

#[test]
fn empty_matrix_is_rejected() {
    let x = DMatrix::<f64>::zeros(0, 1);
    assert!(matches!(
        fit(&x, &[], &groups(&[])),
        Err(FairSvmError::Empty { .. })
    ));
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
fn unknown_group_name_is_rejected_by_the_merge() {
    let g = Groups::from_labels(&["own", "rent"]);
    assert!(matches!(
        one_vs_rest(&g, &["renting"]),
        Err(FairSvmError::InvalidParam { .. })
    ));
    assert!(matches!(
        one_vs_rest(&g, &[]),
        Err(FairSvmError::InvalidParam { .. })
    ));
}

#[test]
fn kernel_group_covariances_need_two_groups() {
    let k = DMatrix::identity(3, 3);
    assert!(matches!(
        fair_svm::kernel_group_covariances(&k, &Groups::from_labels(&["a", "b", "c"])),
        Err(FairSvmError::GroupCount { got: 3, .. })
    ));
    assert!(matches!(
        fair_svm::kernel_group_covariances(&k, &groups(&[1, 1, 1])),
        Err(FairSvmError::EmptyGroup { code: 0, .. })
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
        LambdaSearch::new(vec![0.1]).run(&x, &[0, 1, 2, 1]),
        Err(FairSvmError::InvalidLabel { row: 2, value: 2 })
    ));
    assert!(matches!(
        LambdaSearch::new(vec![0.1]).run(&x, &y[..3]),
        Err(FairSvmError::LengthMismatch { what: "y", .. })
    ));
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
    let msg = FairSvmError::InvalidLabel { row: 0, value: 3 }.to_string();
    assert!(msg.contains("0 and 1"), "{msg}");
}
