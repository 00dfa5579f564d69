//! fair-pca `Projection::from_bytes` (the bytes `FairPCA` pickles) on arbitrary bytes, as given
//! and behind the `FKPC` magic and version. Invariants: no panic or abort (no allocation sized
//! by a decoded count); a decoded projection re-encodes to the same bytes, and transforms a
//! small matrix of its width to `rows × r` values.
#![no_main]

use fair_pca::Projection;
use libfuzzer_sys::fuzz_target;
use nalgebra::DMatrix;

fn check(bytes: &[u8]) {
    let Ok(p) = Projection::from_bytes(bytes) else {
        return;
    };
    assert_eq!(p.to_bytes(), bytes, "canonical encoding");
    let x = DMatrix::from_fn(3, p.n_features(), |i, j| i as f64 - j as f64);
    let t = p.transform(&x).expect("a matrix of the projection's width");
    assert_eq!(t.shape(), (3, p.rank()));
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut framed = b"FKPC\x01".to_vec();
    framed.extend_from_slice(data);
    check(&framed);
});
