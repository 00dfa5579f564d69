//! One test per invalid input reachable from the public API: each returns the right error.

mod common;

use dc_opt::baselines::{Penalty, RegularizedParams, fit_regularized};
use dc_opt::{
    CrossData, DcOptError, DpVariant, FeasibleSet, Idca, PartialDp, PartialSp, SparseRows, Ssg,
    Surrogate, Tolerance, cross_scores, fit_unconstrained, percentile_grid,
};
use fair_data::Groups;
use fair_metrics::partial::PercentileInterval;

fn fixture() -> (SparseRows, Vec<usize>, Groups) {
    common::random_data(50, 3, 1)
}

fn interval() -> PercentileInterval {
    PercentileInterval::new(0.1, 0.5).unwrap()
}

#[test]
fn nan_feature_is_rejected() {
    let r = SparseRows::new(2, vec![0, 1], vec![0], vec![f64::NAN]);
    assert!(matches!(r, Err(DcOptError::NonFinite { .. })));
    let m = nalgebra::DMatrix::from_row_slice(1, 2, &[1.0, f64::INFINITY]);
    assert!(matches!(
        SparseRows::from_dense(&m),
        Err(DcOptError::NonFinite { .. })
    ));
}

#[test]
fn malformed_sparse_rows_are_rejected() {
    for (ip, idx, val) in [
        (vec![1, 1], vec![0], vec![1.0]), // indptr does not start at 0
        (vec![0, 2], vec![1, 0], vec![1.0, 1.0]), // unsorted columns
        (vec![0, 1], vec![5], vec![1.0]), // column out of range
        (vec![0, 1], vec![0], vec![]),    // values shorter than indices
    ] {
        assert!(matches!(
            SparseRows::new(2, ip, idx, val),
            Err(DcOptError::MalformedSparse { .. })
        ));
    }
}

#[test]
fn label_length_mismatch_is_rejected() {
    let (x, y, g) = fixture();
    assert!(matches!(
        CrossData::new(&x, &y[1..], &g),
        Err(DcOptError::LengthMismatch { .. })
    ));
}

#[test]
fn group_length_mismatch_is_rejected() {
    let (x, y, _) = fixture();
    let g = Groups::new(vec![0, 1], vec!["a".into(), "b".into()]).unwrap();
    assert!(matches!(
        CrossData::new(&x, &y, &g),
        Err(DcOptError::LengthMismatch { .. })
    ));
}

#[test]
fn non_binary_label_is_rejected() {
    let (x, mut y, g) = fixture();
    y[3] = 2;
    assert!(matches!(
        CrossData::new(&x, &y, &g),
        Err(DcOptError::LabelOutOfRange { label: 2, index: 3 })
    ));
}

#[test]
fn empty_group_is_rejected() {
    let (x, y, _) = fixture();
    let g = Groups::new(vec![0; 50], vec!["a".into(), "b".into()]).unwrap();
    assert!(matches!(
        CrossData::new(&x, &y, &g),
        Err(DcOptError::EmptyGroup { group: 1, .. })
    ));
}

#[test]
fn single_group_is_rejected() {
    let (x, y, _) = fixture();
    let g = Groups::new(vec![0; 50], vec!["a".into()]).unwrap();
    assert!(matches!(
        CrossData::new(&x, &y, &g),
        Err(DcOptError::TooFewGroups { got: 1 })
    ));
}

#[test]
fn no_rows_is_rejected() {
    let x = SparseRows::new(2, vec![0], vec![], vec![]).unwrap();
    let g = Groups::new(vec![], vec!["a".into(), "b".into()]).unwrap();
    assert!(matches!(
        CrossData::new(&x, &[], &g),
        Err(DcOptError::Empty { .. })
    ));
}

#[test]
fn empty_cell_for_equal_opportunity_is_rejected() {
    let (x, mut y, g) = fixture();
    for (yi, gi) in y.iter_mut().zip(g.codes()) {
        if *gi == 1 {
            *yi = 0;
        }
    }
    let data = CrossData::new(&x, &y, &g).unwrap();
    let r = PartialDp::new(
        &data,
        interval(),
        0.1,
        0.0,
        Surrogate::HardSigmoid,
        DpVariant::EqualOpportunity,
    );
    assert!(matches!(r, Err(DcOptError::EmptyGroup { group: 1, .. })));
}

#[test]
fn negative_kappa_is_rejected() {
    let data = common::cross_data(50, 3, 1);
    assert!(matches!(
        percentile_grid(interval(), -0.1, 5),
        Err(DcOptError::InvalidParameter { .. })
    ));
    let r = PartialDp::new(
        &data,
        interval(),
        -0.1,
        0.0,
        Surrogate::HardSigmoid,
        DpVariant::DemographicParity,
    );
    assert!(matches!(
        r,
        Err(DcOptError::InvalidParameter { name: "kappa", .. })
    ));
    let r = PartialSp::new(
        &data,
        interval(),
        f64::NAN,
        vec![0.2],
        Surrogate::HardSigmoid,
    );
    assert!(matches!(
        r,
        Err(DcOptError::InvalidParameter { name: "kappa", .. })
    ));
}

#[test]
fn alpha_not_below_beta_is_rejected_by_the_interval() {
    // α ≥ β never reaches the models: the interval type refuses it, and the error converts.
    let e: DcOptError = PercentileInterval::new(0.5, 0.5).unwrap_err().into();
    assert!(matches!(e, DcOptError::Metric(_)));
}

#[test]
fn grid_outside_interval_is_rejected() {
    let data = common::cross_data(50, 3, 1);
    for grid in [vec![0.6], vec![], vec![f64::NAN]] {
        assert!(PartialSp::new(&data, interval(), 0.1, grid, Surrogate::HardSigmoid).is_err());
    }
    assert!(percentile_grid(interval(), 0.1, 0).is_err());
}

#[test]
fn non_finite_threshold_is_rejected() {
    let data = common::cross_data(50, 3, 1);
    let r = PartialDp::new(
        &data,
        interval(),
        0.1,
        f64::NAN,
        Surrogate::HardSigmoid,
        DpVariant::DemographicParity,
    );
    assert!(matches!(r, Err(DcOptError::InvalidParameter { .. })));
}

#[test]
fn bad_idca_settings_are_rejected() {
    assert!(Idca::params().outer_iters(0).check().is_err());
    assert!(Idca::params().inner_iters(0).check().is_err());
    assert!(Idca::params().eps(0.0).check().is_err());
    assert!(Idca::params().eps(f64::NAN).check().is_err());
    assert!(
        Idca::params()
            .feasible_set(FeasibleSet::Ball { radius: -1.0 })
            .check()
            .is_err()
    );
    assert!(
        Idca::params()
            .feasible_set(FeasibleSet::Box {
                lower: 1.0,
                upper: 0.0
            })
            .check()
            .is_err()
    );
}

#[test]
fn bad_starting_points_are_rejected() {
    let data = common::cross_data(50, 3, 1);
    let dp = PartialDp::new(
        &data,
        interval(),
        0.1,
        0.0,
        Surrogate::HardSigmoid,
        DpVariant::DemographicParity,
    )
    .unwrap();
    let p = Idca::params();
    assert!(matches!(
        p.clone().fit(&dp, &[0.0; 3]),
        Err(DcOptError::LengthMismatch { .. })
    ));
    let mut x = dp.initial_point();
    x[0] = f64::NAN;
    assert!(matches!(
        p.clone().fit(&dp, &x),
        Err(DcOptError::NonFinite { .. })
    ));
    let x = vec![10.0; dp.initial_point().len()];
    assert!(matches!(
        p.clone()
            .feasible_set(FeasibleSet::Ball { radius: 1.0 })
            .fit(&dp, &x),
        Err(DcOptError::StartOutsideSet { .. })
    ));
    // A start violating the pSP band: θ far off makes every group mean 0 < p.
    let grid = percentile_grid(interval(), 0.1, 3).unwrap();
    let sp = PartialSp::new(&data, interval(), 0.1, grid, Surrogate::HardSigmoid).unwrap();
    let mut x = sp.initial_point();
    let n = x.len();
    x[n - 1] = 50.0;
    assert!(matches!(
        p.fit(&sp, &x),
        Err(DcOptError::InfeasibleStart { .. })
    ));
}

#[test]
fn bad_ssg_settings_are_rejected() {
    let data = common::cross_data(50, 3, 1);
    let dp = PartialDp::new(
        &data,
        interval(),
        0.1,
        0.0,
        Surrogate::HardSigmoid,
        DpVariant::DemographicParity,
    )
    .unwrap();
    let x0 = dp.initial_point();
    assert!(Ssg::params().iters(0).fit(&dp, &x0).is_err());
    assert!(
        Ssg::params()
            .tolerance(Tolerance::Constant(-1.0))
            .fit(&dp, &x0)
            .is_err()
    );
    assert!(
        Ssg::params()
            .tolerance(Tolerance::Diminishing(f64::NAN))
            .fit(&dp, &x0)
            .is_err()
    );
}

#[test]
fn bad_model_weights_are_rejected() {
    let (x, _, g) = fixture();
    assert!(matches!(
        cross_scores(&[0.0; 3], &x, &g),
        Err(DcOptError::LengthMismatch { .. })
    ));
    assert!(matches!(
        cross_scores(&[f64::NAN; 8], &x, &g),
        Err(DcOptError::NonFinite { .. })
    ));
}

#[test]
fn bad_unconstrained_settings_are_rejected() {
    let data = common::cross_data(50, 3, 1);
    assert!(fit_unconstrained(&data, -1.0, 10).is_err());
    assert!(fit_unconstrained(&data, 0.0, 0).is_err());
}

#[test]
fn bad_regularized_settings_are_rejected() {
    let data = common::cross_data(50, 3, 1);
    let dp = Penalty::PartialDp { threshold: 0.0 };
    let bad = [
        RegularizedParams {
            lambda: -1.0,
            ..Default::default()
        },
        RegularizedParams {
            step: 0.0,
            ..Default::default()
        },
        RegularizedParams {
            iters: 0,
            ..Default::default()
        },
    ];
    for p in bad {
        assert!(fit_regularized(&data, interval(), &dp, &p).is_err());
    }
    let sp = Penalty::PartialSp { grid: vec![0.9] };
    assert!(fit_regularized(&data, interval(), &sp, &RegularizedParams::default()).is_err());
}

#[test]
fn wrong_buffer_lengths_give_nan_not_a_panic() {
    use dc_opt::{DcProblem, Part};
    let data = common::cross_data(50, 3, 1);
    let other = common::cross_data(20, 3, 2);
    let dp = PartialDp::new(
        &data,
        interval(),
        0.1,
        0.0,
        Surrogate::HardSigmoid,
        DpVariant::DemographicParity,
    )
    .unwrap();
    let small = PartialDp::new(
        &other,
        interval(),
        0.1,
        0.0,
        Surrogate::HardSigmoid,
        DpVariant::DemographicParity,
    )
    .unwrap();
    let x = dp.initial_point();
    // A workspace of another problem is replaced, not indexed out of bounds.
    let mut ws = small.workspace();
    dp.prepare(&x, &mut ws);
    let mut out = vec![0.0; 2];
    dp.values(Part::Plus, &x, &mut ws, &mut out);
    assert!(out.iter().all(|v| v.is_nan()));
    let mut g = vec![0.0; 3];
    dp.subgradient(Part::Plus, 0, &x, &mut ws, &mut g);
    assert!(g.iter().all(|v| v.is_nan()));
    let mut g = vec![0.0; dp.dim()];
    dp.subgradient(Part::Minus, 99, &x, &mut ws, &mut g);
    assert!(g.iter().all(|v| v.is_nan()));
    assert!(data.group_rows(7).is_none() && data.cell_rows(0, 2).is_none());
}
