//! The fitted models for a fixed small data set, pinned to the bit.
//!
//! Recorded through the ±1 `f64` label API before fitting moved to 0/1 classes and `&Groups`
//! (issue 27): the conversion to ±1 now happens inside the crate, and these digests prove that
//! it changed no result.

mod common;

use fair_svm::{Kernel, KernelFairSvm, LambdaSearch, SpectralFairSvm};

/// FNV-1a over the bits of every value: equal digests mean bit-identical vectors.
fn digest(values: impl IntoIterator<Item = f64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for byte in v.to_bits().to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn fits() -> Vec<(&'static str, u64)> {
    let (x, y, z) = common::synthetic(3, 21);
    let mut out = Vec::new();
    let linear = |m: &SpectralFairSvm| {
        digest(
            m.weights()
                .iter()
                .copied()
                .chain([m.intercept(), m.report().objective]),
        )
    };
    let spectral = SpectralFairSvm::params()
        .d(0.05)
        .mu(1.0)
        .fit(&x, &y, &z)
        .unwrap();
    out.push(("spectral", linear(&spectral)));
    let zafar = SpectralFairSvm::params()
        .lambda(0.1)
        .d(0.01)
        .mu(0.0)
        .fit(&x, &y, &z)
        .unwrap();
    out.push(("zafar", linear(&zafar)));
    let eo = SpectralFairSvm::params()
        .d(0.05)
        .mu(0.5)
        .fairness(fair_svm::Fairness::EqualOpportunity)
        .fit(&x, &y, &z)
        .unwrap();
    out.push(("equal_opportunity", linear(&eo)));
    let kernel = KernelFairSvm::params(Kernel::Rbf { gamma: 0.5 })
        .max_rank(Some(30))
        .d(0.05)
        .mu(1.0)
        .fit(&x, &y, &z)
        .unwrap();
    out.push((
        "kernel",
        digest(kernel.beta().iter().copied().chain([kernel.intercept()])),
    ));
    let moments =
        fair_svm::GroupMoments::new(&x, &y, &z, fair_svm::Fairness::DemographicParity).unwrap();
    out.push((
        "moments",
        digest(
            moments
                .mean_difference()
                .iter()
                .chain(moments.covariance_positive().iter())
                .chain(moments.covariance_negative().iter())
                .copied(),
        ),
    ));
    let cv = LambdaSearch::new(vec![1e-3, 1e-1])
        .folds(3)
        .seed(2)
        .run(&x, &y)
        .unwrap();
    out.push(("lambda_search", digest(cv.mean_auc.iter().copied())));
    out
}

const PINNED: &[(&str, u64)] = &[
    ("spectral", 0x5719_ebb3_7e9c_bf0b),
    ("zafar", 0x313d_792e_f9de_39bb),
    ("equal_opportunity", 0xcb72_8c39_0a4d_56ec),
    ("kernel", 0x3cb0_805a_6195_f1f2),
    ("moments", 0xfc3c_6960_c442_1faf),
    ("lambda_search", 0x50a2_bc0c_1ba7_2c5e),
];

#[test]
fn fits_are_bit_identical_to_the_recorded_ones() {
    assert_eq!(fits(), PINNED);
}
