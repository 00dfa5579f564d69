//! `FairProjection::to_bytes` / `FairProjectionValidParams::restore`: a restored projector
//! predicts the same bits and carries the same report, whatever the solver, the constraint or
//! the kind of group information; bytes that are not a saved projector (truncated, altered,
//! other settings, random) are a `Decode` error, never a panic.

mod common;

use common::lcg_instance;
use info_projection::{
    Constraint, Divergence, FairProjection, GroupInfo, InfoProjectionError, Solver,
};
use nalgebra::DMatrix;
use proptest::prelude::*;

fn bits(m: &DMatrix<f64>) -> Vec<u64> {
    m.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn restored_projectors_predict_the_same_bits() {
    let inst = lcg_instance(600, 3, 3, 5);
    for (solver, div, constraint) in [
        (Solver::Dual, Divergence::Kl, Constraint::EqualizedOdds),
        (
            Solver::Admm,
            Divergence::CrossEntropy,
            Constraint::StatisticalParity,
        ),
        (
            Solver::Dual,
            Divergence::CrossEntropy,
            Constraint::OverallAccuracy,
        ),
    ] {
        let params = FairProjection::params()
            .solver(solver)
            .divergence(div)
            .constraint(constraint)
            .alpha(0.02)
            .check()
            .unwrap();
        let fitted = params.fit(&inst.probs, &inst.groups).unwrap();
        let bytes = fitted.to_bytes();
        let restored = params.restore(&bytes).unwrap();
        assert_eq!(
            restored.to_bytes(),
            bytes,
            "canonical: saving again gives the same bytes"
        );
        assert_eq!(restored.lambda(), fitted.lambda());
        assert_eq!(restored.report(), fitted.report());
        assert_eq!(restored.constraint_values(), fitted.constraint_values());
        assert_eq!(
            bits(&restored.predict_proba(&inst.probs, &inst.groups).unwrap()),
            bits(&fitted.predict_proba(&inst.probs, &inst.groups).unwrap()),
            "{solver:?} {div:?} {constraint:?}"
        );
        // Size: C·A + 3K numbers and the report, not the 600 rows.
        assert!(
            bytes.len() < 400 + 8 * (9 + 3 * fitted.lambda().len()),
            "{}",
            bytes.len()
        );
    }
}

#[test]
fn soft_group_information_round_trips() {
    let inst = lcg_instance(300, 2, 2, 9);
    let sx = DMatrix::from_fn(inst.n, 2, |i, g| {
        let s1 = 0.2 + 0.6 * ((i * 13 % 10) as f64 / 10.0);
        if g == 0 { s1 } else { 1.0 - s1 }
    });
    let params = FairProjection::params().alpha(0.02).check().unwrap();
    let fitted = params
        .fit(&inst.probs, GroupInfo::ProbaGivenX(&sx))
        .unwrap();
    let restored = params.restore(&fitted.to_bytes()).unwrap();
    assert_eq!(
        bits(
            &restored
                .predict_proba(&inst.probs, GroupInfo::ProbaGivenX(&sx))
                .unwrap()
        ),
        bits(
            &fitted
                .predict_proba(&inst.probs, GroupInfo::ProbaGivenX(&sx))
                .unwrap()
        )
    );
    // Labels where soft memberships were fitted: the same mismatch error as the fitted one.
    assert!(matches!(
        restored.predict_proba(&inst.probs, &inst.groups),
        Err(InfoProjectionError::GroupMismatch { .. })
    ));
}

fn decode_error(r: Result<FairProjection, InfoProjectionError>) -> String {
    match r {
        Err(InfoProjectionError::Decode { reason }) => reason,
        other => panic!("expected a Decode error, got {other:?}"),
    }
}

#[test]
fn bytes_that_are_not_a_saved_projector_are_decode_errors() {
    let inst = lcg_instance(200, 2, 2, 3);
    let params = FairProjection::params().alpha(0.02).check().unwrap();
    let bytes = params.fit(&inst.probs, &inst.groups).unwrap().to_bytes();
    for cut in 0..bytes.len() {
        decode_error(params.restore(&bytes[..cut]));
    }
    let mut extra = bytes.clone();
    extra.push(0);
    assert!(decode_error(params.restore(&extra)).contains("trailing"));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(decode_error(params.restore(&magic)).contains("FKFP"));
    let mut version = bytes.clone();
    version[4] = 9;
    assert!(decode_error(params.restore(&version)).contains("version 9"));
    // Other settings (statistical parity has a different number of constraint rows).
    let other = FairProjection::params()
        .constraint(Constraint::StatisticalParity)
        .check()
        .unwrap();
    assert!(decode_error(other.restore(&bytes)).contains("settings it was fitted with"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Random bytes, and a valid save with one byte changed, never panic.
    #[test]
    fn restore_never_panics(noise in proptest::collection::vec(any::<u8>(), 0..300),
                            at in 0usize..400, value in any::<u8>()) {
        let params = FairProjection::params().alpha(0.02).check().unwrap();
        let _ = params.restore(&noise);
        let inst = lcg_instance(60, 2, 2, 1);
        let mut bytes = params.fit(&inst.probs, &inst.groups).unwrap().to_bytes();
        let i = at % bytes.len();
        bytes[i] = value;
        if let Ok(p) = params.restore(&bytes) {
            // Whatever decoded is usable: predicting is Ok or a typed error.
            let _ = p.predict_proba(&inst.probs, &inst.groups);
        }
    }
}
