//! One test per invalid input reachable from fair-data's public API: each must be a typed error,
//! never a panic.

use fair_data::{
    CsvSpec, DataError, Dataset, FairSvmSynthetic, GaussianMixture, Groups, MinMaxScaler,
    OneHotEncoder, SensitiveAttribute, Splitter, Standardizer, quantile,
};
use nalgebra::DMatrix;

/// The parts of a valid dataset: features, names, labels, class names, attributes.
type Parts = (
    DMatrix<f64>,
    Vec<String>,
    Vec<usize>,
    Vec<String>,
    Vec<SensitiveAttribute>,
);

fn valid() -> Parts {
    (
        DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
        vec!["a".into(), "b".into()],
        vec![0, 1, 0],
        vec!["neg".into(), "pos".into()],
        vec![SensitiveAttribute {
            name: "g".into(),
            groups: Groups::from_labels(&["x", "y", "x"]),
        }],
    )
}

#[test]
fn valid_fixture_builds() {
    let (x, f, y, c, s) = valid();
    assert!(Dataset::new("ok", x, f, y, c, s).is_ok());
}

#[test]
fn empty_matrix() {
    let (_, f, _, c, _) = valid();
    let err = Dataset::new("e", DMatrix::zeros(0, 2), f, vec![], c, vec![]).unwrap_err();
    assert!(matches!(err, DataError::Empty { .. }));
}

#[test]
fn infinite_feature() {
    let (mut x, f, y, c, s) = valid();
    x[(2, 1)] = f64::INFINITY;
    let err = Dataset::new("e", x, f, y, c, s).unwrap_err();
    assert!(matches!(err, DataError::NonFinite { row: 2, .. }));
}

#[test]
fn feature_name_count_mismatch() {
    let (x, _, y, c, s) = valid();
    let err = Dataset::new("e", x, vec!["a".into()], y, c, s).unwrap_err();
    assert!(matches!(
        err,
        DataError::LengthMismatch {
            what: "feature names",
            ..
        }
    ));
}

#[test]
fn label_count_mismatch() {
    let (x, f, _, c, s) = valid();
    let err = Dataset::new("e", x, f, vec![0, 1], c, s).unwrap_err();
    assert!(matches!(
        err,
        DataError::LengthMismatch { what: "labels", .. }
    ));
}

#[test]
fn single_class_name() {
    let (x, f, y, _, s) = valid();
    let err = Dataset::new("e", x, f, y, vec!["only".into()], s).unwrap_err();
    assert!(matches!(err, DataError::InvalidParameter { .. }));
}

#[test]
fn unknown_attribute_lists_available_ones() {
    let (x, f, y, c, s) = valid();
    let ds = Dataset::new("ok", x, f, y, c, s).unwrap();
    let err = ds.groups("race").unwrap_err();
    assert_eq!(
        err.to_string(),
        "column \"race\" not found; available columns: g"
    );
    assert!(ds.intersection(&[]).is_err());
    assert!(ds.drop_features(&["nope"]).is_err());
    assert!(ds.with_features(DMatrix::zeros(2, 2)).is_err());
}

#[test]
fn groups_without_names_or_codes() {
    assert!(matches!(
        Groups::new(vec![], vec![]),
        Err(fair_data::GroupsError::Empty { .. })
    ));
    assert!(matches!(
        Groups::from_codes(&[]),
        Err(fair_data::GroupsError::Empty { .. })
    ));
    assert!(Groups::intersect(&[]).is_err());
    assert!(Groups::from_labels(&["a"]).select(&[3]).is_err());
}

#[test]
fn scaler_width_mismatch_and_nan() {
    let s = Standardizer::fit(&DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0])).unwrap();
    assert!(matches!(
        s.transform(&DMatrix::zeros(1, 3)),
        Err(DataError::LengthMismatch { .. })
    ));
    assert!(matches!(
        Standardizer::fit(&DMatrix::from_row_slice(1, 1, &[f64::NAN])),
        Err(DataError::NonFinite { .. })
    ));
    assert!(MinMaxScaler::fit(&DMatrix::zeros(0, 3)).is_err());
}

#[test]
fn split_fractions_out_of_range() {
    assert!(Splitter::new().test(1.0).split(10).is_err());
    assert!(Splitter::new().validation(f64::NAN).split(10).is_err());
    assert!(Splitter::new().split_stratified(&[]).is_err());
}

#[test]
fn generators_reject_bad_parameters() {
    assert!(GaussianMixture::new(10).features(0).generate().is_err());
    assert!(GaussianMixture::new(10).groups(0).generate().is_err());
    assert!(
        GaussianMixture::new(10)
            .group_shift(-1.0)
            .generate()
            .is_err()
    );
    assert!(FairSvmSynthetic::new().n(1).generate().is_err());
    assert!(FairSvmSynthetic::new().rho(1.5).generate().is_err());
}

#[test]
fn quantile_bad_inputs() {
    assert!(quantile(&[], 0.5).is_err());
    assert!(quantile(&[1.0, 2.0], -0.1).is_err());
    assert!(quantile(&[1.0, f64::NAN], 0.5).is_err());
}

#[test]
fn one_hot_unknown_category_is_all_zero() {
    let enc = OneHotEncoder::fit("c", &["a", "b"]);
    assert_eq!(enc.transform(&["z"]), vec![vec![0.0], vec![0.0]]);
}

#[test]
fn malformed_csv_inputs() {
    let spec = CsvSpec::new("y", &["g"]);
    assert!(matches!(
        spec.read("".as_bytes()),
        Err(DataError::Empty { .. })
    ));
    assert!(matches!(
        spec.read("a,g,y\n".as_bytes()),
        Err(DataError::Empty { .. })
    ));
    assert!(matches!(
        spec.read("a,g\n1,x\n".as_bytes()),
        Err(DataError::MissingColumn { .. })
    ));
    assert!(matches!(
        spec.read("a,g,y\n1,x\n".as_bytes()),
        Err(DataError::RaggedRow { .. })
    ));
    assert!(matches!(
        spec.read("a,g,y\n1,x,0,9\n".as_bytes()),
        Err(DataError::RaggedRow { .. })
    ));
    assert!(matches!(
        spec.read("a,g,y\nfoo,x,0\n2,x,1\n".as_bytes()),
        Err(DataError::NonNumeric { line: 2, .. })
    ));
    assert!(matches!(
        spec.read("a,g,y\ninf,x,0\n2,x,1\n".as_bytes()),
        Err(DataError::NonFinite { .. })
    ));
    assert!(
        spec.clone()
            .ignore(&["missing"])
            .read("a,g,y\n1,x,0\n".as_bytes())
            .is_err()
    );
    assert!(spec.load("/definitely/not/here.csv").is_err());
    // Sensitive columns kept as features must be numeric.
    let err = spec
        .keep_sensitive_in_features(true)
        .read("a,g,y\n1,x,0\n2,y,1\n".as_bytes())
        .unwrap_err();
    assert!(matches!(err, DataError::NonNumeric { .. }));
}

#[test]
fn error_types_are_send_sync() {
    fn check<T: Send + Sync>() {}
    check::<DataError>();
    check::<Dataset>();
    check::<Groups>();
    check::<Splitter>();
    check::<Standardizer>();
    check::<GaussianMixture>();
    check::<CsvSpec>();
}
