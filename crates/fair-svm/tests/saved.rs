//! `FairSvmScorer::to_bytes` / `from_bytes`: the score function of a fitted linear or kernel
//! fair SVM survives the round trip (equal value, same scores bit for bit, the linear one the
//! same bits as the model itself); bytes that are not a saved fair SVM (truncated, altered,
//! foreign, random) are a `Decode` error, never a panic.

mod common;

use common::synthetic;
use fair_svm::{FairSvmError, FairSvmScorer, Kernel, KernelFairSvm, SpectralFairSvm};
use nalgebra::DMatrix;
use proptest::prelude::*;

fn bits(v: &nalgebra::DVector<f64>) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn decode_error(r: Result<FairSvmScorer, FairSvmError>) -> String {
    match r {
        Err(FairSvmError::Decode { reason }) => reason,
        other => panic!("expected a Decode error, got {other:?}"),
    }
}

#[test]
fn fitted_models_round_trip_and_score_the_same_bits() {
    let (x, y, z) = synthetic(3, 7);
    let linear = SpectralFairSvm::params().mu(1.0).fit(&x, &y, &z).unwrap();
    let scorer = FairSvmScorer::from(&linear);
    let bytes = scorer.to_bytes();
    assert_eq!(&bytes[..4], b"FKSV");
    assert_eq!(bytes[4], fair_svm::FAIR_SVM_FORMAT_VERSION);
    // Linear: the weights and the intercept only, whatever the rows.
    assert_eq!(bytes.len(), 5 + 1 + 8 + 8 + 3 * 8);
    let back = FairSvmScorer::from_bytes(&bytes).unwrap();
    assert_eq!(back, scorer);
    assert_eq!(
        bits(&back.decision_function(&x).unwrap()),
        bits(&linear.decision_function(&x).unwrap())
    );

    let (xs, ys, zs) = (
        x.rows(0, 60).into_owned(),
        y[..60].to_vec(),
        z.select(&(0..60).collect::<Vec<_>>()).unwrap(),
    );
    for kernel in [
        Kernel::Linear,
        Kernel::Rbf { gamma: 0.5 },
        Kernel::Polynomial {
            degree: 2,
            gamma: 1.0,
            coef0: 1.0,
        },
    ] {
        let model = KernelFairSvm::params(kernel)
            .mu(0.5)
            .fit(&xs, &ys, &zs)
            .unwrap();
        let scorer = FairSvmScorer::from(&model);
        assert!(scorer.n_support_vectors() <= 60);
        let back = FairSvmScorer::from_bytes(&scorer.to_bytes()).unwrap();
        assert_eq!(back, scorer, "{kernel:?}");
        assert_eq!(back.to_bytes(), scorer.to_bytes());
        assert_eq!(
            bits(&back.decision_function(&x).unwrap()),
            bits(&scorer.decision_function(&x).unwrap())
        );
        // The support-vector expansion is the model's score (up to summation order).
        let (a, b) = (
            scorer.decision_function(&x).unwrap(),
            model.decision_function(&x).unwrap(),
        );
        assert!((a - b).amax() < 1e-9, "{kernel:?}");
    }
}

/// Hand-written bytes: linear (tag 0) or kernel (tag 1) with the given kernel tag.
fn encode(kernel: Option<u8>, intercept: f64, p: usize, values: &[f64], coef: &[f64]) -> Vec<u8> {
    let mut b = b"FKSV\x01".to_vec();
    let count = |b: &mut Vec<u8>, n: usize| b.extend_from_slice(&(n as u64).to_le_bytes());
    let float = |b: &mut Vec<u8>, x: f64| b.extend_from_slice(&x.to_bits().to_le_bytes());
    match kernel {
        None => {
            b.push(0);
            float(&mut b, intercept);
            count(&mut b, values.len());
            values.iter().for_each(|&v| float(&mut b, v));
        }
        Some(tag) => {
            b.push(1);
            float(&mut b, intercept);
            b.push(tag);
            match tag {
                1 => float(&mut b, 0.5),
                2 => {
                    count(&mut b, 2);
                    float(&mut b, 1.0);
                    float(&mut b, 1.0);
                }
                _ => {}
            }
            count(&mut b, p);
            count(&mut b, values.len());
            values.iter().for_each(|&v| float(&mut b, v));
            count(&mut b, coef.len());
            coef.iter().for_each(|&v| float(&mut b, v));
        }
    }
    b
}

#[test]
fn bytes_that_are_not_a_saved_svm_are_decode_errors() {
    let bytes = encode(Some(1), 0.5, 2, &[1.0, 2.0, 3.0, 4.0], &[0.5, -0.5]);
    assert!(FairSvmScorer::from_bytes(&bytes).is_ok());
    assert!(decode_error(FairSvmScorer::from_bytes(b"FKPC\x01")).contains("FKSV"));
    let mut v2 = bytes.clone();
    v2[4] = 2;
    assert!(decode_error(FairSvmScorer::from_bytes(&v2)).contains("version 2"));
    for cut in [0, 4, 5, 6, 14, bytes.len() - 1] {
        decode_error(FairSvmScorer::from_bytes(&bytes[..cut]));
    }
    // Inconsistent lengths, NaN values, invalid kernels.
    decode_error(FairSvmScorer::from_bytes(&encode(
        Some(0),
        0.0,
        3,
        &[1.0, 2.0],
        &[1.0],
    )));
    assert!(
        decode_error(FairSvmScorer::from_bytes(&encode(
            None,
            0.0,
            0,
            &[f64::NAN],
            &[]
        )))
        .contains("non-finite")
    );
    assert!(
        decode_error(FairSvmScorer::from_bytes(&encode(
            None,
            f64::INFINITY,
            0,
            &[1.0],
            &[]
        )))
        .contains("not finite")
    );
    let mut bad_gamma = bytes.clone();
    bad_gamma[15..23].copy_from_slice(&(-1.0f64).to_bits().to_le_bytes());
    assert!(decode_error(FairSvmScorer::from_bytes(&bad_gamma)).contains("kernel"));
    let mut huge = bytes.clone();
    huge[31..39].copy_from_slice(&u64::MAX.to_le_bytes());
    decode_error(FairSvmScorer::from_bytes(&huge));
    let mut trailing = bytes;
    trailing.push(0);
    assert!(decode_error(FairSvmScorer::from_bytes(&trailing)).contains("trailing"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Valid bytes decode to a scorer that encodes to the same bytes and scores the same bits
    /// after a second round trip.
    #[test]
    fn round_trip(
        kernel in prop::option::of(0u8..3),
        p in 1usize..4,
        m in 0usize..6,
        values in prop::collection::vec(-3.0f64..3.0, 24),
        intercept in -2.0f64..2.0,
        rows in prop::collection::vec(-3.0f64..3.0, 3..30),
    ) {
        let bytes = match kernel {
            None => encode(None, intercept, 0, &values[..p], &[]),
            Some(tag) => encode(Some(tag), intercept, p, &values[..m * p], &values[m * p..m * p + m]),
        };
        let scorer = FairSvmScorer::from_bytes(&bytes).unwrap();
        prop_assert_eq!(scorer.to_bytes(), bytes.clone());
        let back = FairSvmScorer::from_bytes(&scorer.to_bytes()).unwrap();
        prop_assert_eq!(&back, &scorer);
        let n = rows.len() / p;
        let x = DMatrix::from_row_slice(n, p, &rows[..n * p]);
        prop_assert_eq!(
            bits(&back.decision_function(&x).unwrap()),
            bits(&scorer.decision_function(&x).unwrap())
        );
    }

    /// Random bytes, framed or not, never panic.
    #[test]
    fn random_bytes_never_panic(noise in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = FairSvmScorer::from_bytes(&noise);
        let mut framed = b"FKSV\x01".to_vec();
        framed.extend_from_slice(&noise);
        let _ = FairSvmScorer::from_bytes(&framed);
    }

    /// Valid bytes with one byte changed, or truncated, never panic.
    #[test]
    fn mutated_bytes_never_panic(at in any::<prop::sample::Index>(), value in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let bytes = encode(Some(2), 0.5, 2, &[1.0, 2.0, 3.0, 4.0], &[0.5, -0.5]);
        let mut m = bytes.clone();
        let i = at.index(m.len());
        m[i] = value;
        let _ = FairSvmScorer::from_bytes(&m);
        let _ = FairSvmScorer::from_bytes(&bytes[..cut.index(bytes.len())]);
    }
}
