//! `CrossModel::to_bytes` / `from_bytes`: a restored model equals the saved one and scores the
//! same bits; bytes that are not a saved model (truncated, altered, foreign, random) are a
//! `Decode` error, never a panic.

use dc_opt::{CrossModel, DcOptError, SparseRows};
use fair_data::Groups;
use nalgebra::DMatrix;
use proptest::prelude::*;

fn sample() -> CrossModel {
    CrossModel::new(
        vec![0.5, 1.0, -2.0, 0.25, 0.0, 3.0],
        vec!["a".into(), "bé".into()],
    )
    .unwrap()
}

fn decode_error(r: Result<CrossModel, DcOptError>) -> String {
    match r {
        Err(DcOptError::Decode { reason }) => reason,
        other => panic!("expected a Decode error, got {other:?}"),
    }
}

#[test]
fn the_bytes_are_versioned_and_hold_no_rows() {
    let m = sample();
    let bytes = m.to_bytes();
    assert_eq!(&bytes[..4], b"FKDC");
    assert_eq!(bytes[4], dc_opt::DC_OPT_FORMAT_VERSION);
    // header, w (length + 6), group count, two names (length + UTF-8).
    assert_eq!(bytes.len(), 5 + 8 + 6 * 8 + 8 + (8 + 1) + (8 + 3));
    assert_eq!(CrossModel::from_bytes(&bytes).unwrap(), m);
    assert_eq!(m.n_features(), 2);
}

#[test]
fn bytes_that_are_not_a_saved_model_are_decode_errors() {
    let bytes = sample().to_bytes();
    assert!(decode_error(CrossModel::from_bytes(b"FKGO\x01")).contains("FKDC"));
    let mut v9 = bytes.clone();
    v9[4] = 9;
    assert!(decode_error(CrossModel::from_bytes(&v9)).contains("version 9"));
    for cut in [0, 4, 5, 12, 40, bytes.len() - 1] {
        decode_error(CrossModel::from_bytes(&bytes[..cut]));
    }
    let mut nan = bytes.clone();
    nan[13..21].copy_from_slice(&f64::INFINITY.to_bits().to_le_bytes());
    assert!(decode_error(CrossModel::from_bytes(&nan)).contains("non-finite"));
    let mut huge = bytes.clone();
    huge[5..13].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    decode_error(CrossModel::from_bytes(&huge));
    let mut names = bytes.clone();
    names[61..69].copy_from_slice(&u64::MAX.to_le_bytes());
    decode_error(CrossModel::from_bytes(&names));
    let mut trailing = bytes;
    trailing.push(1);
    assert!(decode_error(CrossModel::from_bytes(&trailing)).contains("trailing"));
    // Weights of the wrong length are rejected by the constructor's checks.
    let odd = CrossModel::new(vec![1.0, 2.0, 3.0], vec!["a".into()]);
    assert!(matches!(odd, Err(DcOptError::LengthMismatch { .. })));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Equal after the round trip, same scores bit for bit.
    #[test]
    fn round_trip(
        d in 1usize..5,
        w in prop::collection::vec(-5.0f64..5.0, 10),
        k in 1usize..4,
        rows in prop::collection::vec((-3.0f64..3.0, any::<prop::sample::Index>()), 4..40),
    ) {
        let names: Vec<String> = (0..k).map(|i| format!("gé{i}")).collect();
        let model = CrossModel::new(w[..2 * d + 2].to_vec(), names.clone()).unwrap();
        let back = CrossModel::from_bytes(&model.to_bytes()).unwrap();
        prop_assert_eq!(&back, &model);
        let n = rows.len() / d;
        let flat: Vec<f64> = rows.iter().map(|r| r.0).collect();
        let x = SparseRows::from_dense(&DMatrix::from_row_slice(n, d, &flat[..n * d])).unwrap();
        let codes: Vec<usize> = rows[..n].iter().map(|r| r.1.index(names.len())).collect();
        let groups = Groups::new(codes, names).unwrap();
        let a: Vec<u64> = back.scores(&x, &groups).unwrap().iter().map(|s| s.to_bits()).collect();
        let b: Vec<u64> = model.scores(&x, &groups).unwrap().iter().map(|s| s.to_bits()).collect();
        prop_assert_eq!(a, b);
    }

    /// Random bytes, framed or not, never panic.
    #[test]
    fn random_bytes_never_panic(noise in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = CrossModel::from_bytes(&noise);
        let mut framed = b"FKDC\x01".to_vec();
        framed.extend_from_slice(&noise);
        let _ = CrossModel::from_bytes(&framed);
    }

    /// Valid bytes with one byte changed, or truncated, never panic.
    #[test]
    fn mutated_bytes_never_panic(at in any::<prop::sample::Index>(), value in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let bytes = sample().to_bytes();
        let mut m = bytes.clone();
        let i = at.index(m.len());
        m[i] = value;
        let _ = CrossModel::from_bytes(&m);
        let _ = CrossModel::from_bytes(&bytes[..cut.index(bytes.len())]);
    }
}
