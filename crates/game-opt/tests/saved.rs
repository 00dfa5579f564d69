//! `StochasticClassifier::to_bytes` / `from_bytes` (and `SavedClassifier`): a restored mixture
//! equals the saved one and predicts the same bits; bytes that are not a saved classifier
//! (truncated, altered, foreign, random) are a `Decode` error, never a panic.

use game_opt::{GameOptError, Linear, Mlp, Model, SavedClassifier, StochasticClassifier};
use nalgebra::DMatrix;
use proptest::prelude::*;

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn linear_mixture(parts: &[(f64, Vec<f64>)], d: usize) -> StochasticClassifier<Linear> {
    let total: f64 = parts.iter().map(|(w, _)| w).sum();
    let comps = parts
        .iter()
        .map(|(w, theta)| {
            (
                w / total,
                Linear::from_parts(&theta[..d], theta[d]).unwrap(),
            )
        })
        .collect();
    StochasticClassifier::new(comps).unwrap()
}

fn sample() -> StochasticClassifier<Linear> {
    linear_mixture(
        &[(1.0, vec![1.0, -2.0, 0.5]), (3.0, vec![0.25, 1.0, -1.0])],
        2,
    )
}

fn decode_error<T: std::fmt::Debug>(r: Result<T, GameOptError>) -> String {
    match r {
        Err(GameOptError::Decode { reason }) => reason,
        other => panic!("expected a Decode error, got {other:?}"),
    }
}

#[test]
fn the_bytes_are_versioned_and_do_not_depend_on_rows() {
    let clf = sample();
    let bytes = clf.to_bytes();
    assert_eq!(&bytes[..4], b"FKGO");
    assert_eq!(bytes[4], game_opt::GAME_OPT_FORMAT_VERSION);
    // magic, version, tag, d, h, k, and per component a weight and 3 parameters.
    assert_eq!(bytes.len(), 4 + 1 + 1 + 3 * 8 + 2 * (8 + 8 + 3 * 8));
    assert_eq!(
        StochasticClassifier::<Linear>::from_bytes(&bytes).unwrap(),
        clf
    );
}

#[test]
fn bytes_that_are_not_a_saved_classifier_are_decode_errors() {
    let bytes = sample().to_bytes();
    assert!(decode_error(SavedClassifier::from_bytes(b"FKFP\x01")).contains("FKGO"));
    let mut v2 = bytes.clone();
    v2[4] = 2;
    assert!(decode_error(SavedClassifier::from_bytes(&v2)).contains("version 2"));
    for cut in [0, 3, 5, 6, 20, bytes.len() - 1] {
        decode_error(SavedClassifier::from_bytes(&bytes[..cut]));
    }
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert!(decode_error(SavedClassifier::from_bytes(&trailing)).contains("trailing"));
    // A NaN weight of the first component (offset: header 6 + d, h, k).
    let mut nan = bytes.clone();
    nan[30..38].copy_from_slice(&f64::NAN.to_bits().to_le_bytes());
    assert!(decode_error(SavedClassifier::from_bytes(&nan)).contains("not finite"));
    // An absurd component count is refused before anything is allocated.
    let mut huge = bytes.clone();
    huge[22..30].copy_from_slice(&u64::MAX.to_le_bytes());
    decode_error(SavedClassifier::from_bytes(&huge));
    // A linear mixture is not a network mixture.
    assert!(decode_error(StochasticClassifier::<Mlp>::from_bytes(&bytes)).contains("linear"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Linear mixtures: equal after the round trip, same probabilities and draws bit for bit.
    #[test]
    fn linear_round_trip(
        d in 1usize..5,
        parts in prop::collection::vec((0.01f64..1.0, prop::collection::vec(-5.0f64..5.0, 5)), 1..5),
        rows in prop::collection::vec(-3.0f64..3.0, 4..40),
        seed in any::<u64>(),
    ) {
        let clf = linear_mixture(&parts, d);
        let back = StochasticClassifier::<Linear>::from_bytes(&clf.to_bytes()).unwrap();
        prop_assert_eq!(&back, &clf);
        prop_assert_eq!(back.to_bytes(), clf.to_bytes());
        let n = rows.len() / d;
        let x = DMatrix::from_row_slice(n, d, &rows[..n * d]);
        prop_assert_eq!(
            bits(&back.positive_probability(&x).unwrap()),
            bits(&clf.positive_probability(&x).unwrap())
        );
        prop_assert_eq!(back.predict(&x, seed).unwrap(), clf.predict(&x, seed).unwrap());
    }

    /// Network mixtures round-trip through `SavedClassifier` too.
    #[test]
    fn mlp_round_trip(d in 1usize..4, h in 1usize..4, seeds in prop::collection::vec(any::<u64>(), 1..4)) {
        let k = seeds.len() as f64;
        let comps = seeds.iter().map(|&s| (1.0 / k, Mlp::new(d, h, s).unwrap())).collect();
        let clf = StochasticClassifier::new(comps).unwrap();
        let back = StochasticClassifier::<Mlp>::from_bytes(&clf.to_bytes()).unwrap();
        prop_assert_eq!(&back, &clf);
        prop_assert_eq!(back.components()[0].1.parameters(), clf.components()[0].1.parameters());
        prop_assert_eq!(SavedClassifier::from_bytes(&clf.to_bytes()).unwrap(), SavedClassifier::Mlp(clf));
    }

    /// Random bytes, and valid bytes with the magic kept but the rest random, never panic.
    #[test]
    fn random_bytes_never_panic(noise in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = SavedClassifier::from_bytes(&noise);
        let mut framed = b"FKGO\x01".to_vec();
        framed.extend_from_slice(&noise);
        let _ = SavedClassifier::from_bytes(&framed);
    }

    /// Valid bytes with one byte changed, or truncated, never panic.
    #[test]
    fn mutated_bytes_never_panic(at in any::<prop::sample::Index>(), value in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let bytes = sample().to_bytes();
        let mut m = bytes.clone();
        let i = at.index(m.len());
        m[i] = value;
        let _ = SavedClassifier::from_bytes(&m);
        let _ = SavedClassifier::from_bytes(&bytes[..cut.index(bytes.len())]);
    }
}
