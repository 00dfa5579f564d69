//! game-opt `SavedClassifier::from_bytes` (the bytes `RateConstrainedClassifier` pickles) on
//! arbitrary bytes, as given and behind the `FKGO` magic and version (so the fuzzer reaches the
//! fields). Invariants: no panic or abort (no allocation sized by a decoded count); a decoded
//! mixture encodes to bytes that decode to the same mixture; its probabilities on a small
//! matrix are finite and in [0, 1].
#![no_main]

use game_opt::{Model, SavedClassifier};
use libfuzzer_sys::fuzz_target;
use nalgebra::DMatrix;

fn check(bytes: &[u8]) {
    let Ok(saved) = SavedClassifier::from_bytes(bytes) else {
        return;
    };
    let again = SavedClassifier::from_bytes(&saved.to_bytes()).expect("own encoding decodes");
    assert_eq!(again, saved);
    let (d, p) = match &saved {
        SavedClassifier::Linear(c) => {
            let d = c.components()[0].1.n_inputs();
            (
                d,
                c.positive_probability(&DMatrix::from_fn(3, d, |i, j| i as f64 - j as f64)),
            )
        }
        SavedClassifier::Mlp(c) => {
            let d = c.components()[0].1.n_inputs();
            (
                d,
                c.positive_probability(&DMatrix::from_fn(3, d, |i, j| i as f64 - j as f64)),
            )
        }
    };
    let p = p.expect("a matrix of the model's width is accepted");
    assert_eq!(p.len(), 3, "{d} inputs");
    assert!(
        p.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)),
        "{p:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut framed = b"FKGO\x01".to_vec();
    framed.extend_from_slice(data);
    check(&framed);
});
