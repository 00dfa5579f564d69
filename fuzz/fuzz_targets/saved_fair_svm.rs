//! fair-svm `FairSvmScorer::from_bytes` (the bytes `FairSVM` pickles) on arbitrary bytes, as
//! given and behind the `FKSV` magic and version. Invariants: no panic or abort (no allocation
//! sized by a decoded count); a decoded scorer re-encodes to the same bytes, and scores a small
//! matrix of its width (one score per row; finite values in, no NaN out for the linear model).
#![no_main]

use fair_svm::FairSvmScorer;
use libfuzzer_sys::fuzz_target;
use nalgebra::DMatrix;

fn check(bytes: &[u8]) {
    let Ok(s) = FairSvmScorer::from_bytes(bytes) else {
        return;
    };
    assert_eq!(s.to_bytes(), bytes, "canonical encoding");
    // Kernel matrices cost rows × support vectors × features: keep the check small.
    if s.n_features() > 4096 {
        return;
    }
    let x = DMatrix::from_fn(3, s.n_features(), |i, j| (i as f64 - j as f64) / 8.0);
    let scores = s
        .decision_function(&x)
        .expect("a matrix of the scorer's width");
    assert_eq!(scores.len(), 3);
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut framed = b"FKSV\x01".to_vec();
    framed.extend_from_slice(data);
    check(&framed);
});
