//! `Projection::to_bytes` / `from_bytes`: a restored projection equals the saved one and
//! transforms to the same bits; bytes that are not a saved projection (truncated, altered,
//! foreign, random) are a `Decode` error, never a panic.

use fair_pca::{FairPcaError, Projection};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

fn sample() -> Projection {
    let s = 0.5f64.sqrt();
    Projection::new(
        DMatrix::from_column_slice(3, 2, &[s, s, 0.0, 0.0, 0.0, 1.0]),
        DVector::from_vec(vec![0.5, -1.0, 2.0]),
    )
    .unwrap()
}

fn decode_error(r: Result<Projection, FairPcaError>) -> String {
    match r {
        Err(FairPcaError::Decode { reason }) => reason,
        other => panic!("expected a Decode error, got {other:?}"),
    }
}

#[test]
fn the_bytes_are_versioned_and_hold_no_rows() {
    let p = sample();
    let bytes = p.to_bytes();
    assert_eq!(&bytes[..4], b"FKPC");
    assert_eq!(bytes[4], fair_pca::FAIR_PCA_FORMAT_VERSION);
    assert_eq!(bytes.len(), 5 + 8 + 8 + (8 + 6 * 8) + (8 + 3 * 8));
    assert_eq!(Projection::from_bytes(&bytes).unwrap(), p);
}

#[test]
fn bytes_that_are_not_a_saved_projection_are_decode_errors() {
    let bytes = sample().to_bytes();
    assert!(decode_error(Projection::from_bytes(b"FKSV\x01")).contains("FKPC"));
    let mut v0 = bytes.clone();
    v0[4] = 0;
    assert!(decode_error(Projection::from_bytes(&v0)).contains("version 0"));
    for cut in [0, 4, 5, 13, 30, bytes.len() - 1] {
        decode_error(Projection::from_bytes(&bytes[..cut]));
    }
    let mut nan = bytes.clone();
    nan[29..37].copy_from_slice(&f64::NAN.to_bits().to_le_bytes());
    assert!(decode_error(Projection::from_bytes(&nan)).contains("non-finite"));
    // A basis that is no longer orthonormal is refused by the constructor's checks.
    let mut skew = bytes.clone();
    skew[29..37].copy_from_slice(&2.0f64.to_bits().to_le_bytes());
    assert!(decode_error(Projection::from_bytes(&skew)).contains("orthonormal"));
    // Shapes that do not match the stored values.
    let mut shape = bytes.clone();
    shape[5..13].copy_from_slice(&u64::MAX.to_le_bytes());
    decode_error(Projection::from_bytes(&shape));
    let mut huge = bytes.clone();
    huge[21..29].copy_from_slice(&(u64::MAX / 4).to_le_bytes());
    decode_error(Projection::from_bytes(&huge));
    let mut trailing = bytes;
    trailing.push(0);
    assert!(decode_error(Projection::from_bytes(&trailing)).contains("trailing"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Equal after the round trip, same transform bit for bit (orthonormal bases from QR).
    #[test]
    fn round_trip(
        d in 1usize..6,
        r_pick in any::<prop::sample::Index>(),
        entries in prop::collection::vec(-3.0f64..3.0, 36),
        mean in prop::collection::vec(-3.0f64..3.0, 6),
        rows in prop::collection::vec(-3.0f64..3.0, 6..60),
    ) {
        let r = 1 + r_pick.index(d);
        let a = DMatrix::from_column_slice(d, d, &entries[..d * d]) + DMatrix::identity(d, d) * 10.0;
        let q = a.qr().q().columns(0, r).into_owned();
        let p = Projection::new(q, DVector::from_column_slice(&mean[..d])).unwrap();
        let back = Projection::from_bytes(&p.to_bytes()).unwrap();
        prop_assert_eq!(&back, &p);
        let n = rows.len() / d;
        let x = DMatrix::from_row_slice(n, d, &rows[..n * d]);
        let a: Vec<u64> = back.transform(&x).unwrap().iter().map(|v| v.to_bits()).collect();
        let b: Vec<u64> = p.transform(&x).unwrap().iter().map(|v| v.to_bits()).collect();
        prop_assert_eq!(a, b);
    }

    /// Random bytes, framed or not, never panic.
    #[test]
    fn random_bytes_never_panic(noise in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = Projection::from_bytes(&noise);
        let mut framed = b"FKPC\x01".to_vec();
        framed.extend_from_slice(&noise);
        let _ = Projection::from_bytes(&framed);
    }

    /// Valid bytes with one byte changed, or truncated, never panic.
    #[test]
    fn mutated_bytes_never_panic(at in any::<prop::sample::Index>(), value in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let bytes = sample().to_bytes();
        let mut m = bytes.clone();
        let i = at.index(m.len());
        m[i] = value;
        let _ = Projection::from_bytes(&m);
        let _ = Projection::from_bytes(&bytes[..cut.index(bytes.len())]);
    }
}
