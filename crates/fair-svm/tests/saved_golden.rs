//! The `FKSV` bytes are frozen: bytes captured from the format's first implementation (a
//! fitted linear model and a fitted kernel model of each kernel) decode, score and re-save
//! unchanged (issue 27 moved the codec into `fair_core::bytes`; this proves the layout did not
//! move with it).

use fair_svm::FairSvmScorer;
use nalgebra::DMatrix;

/// (name, saved bytes, features, support vectors, bits of the intercept)
const GOLDEN: &[(&str, &str, usize, usize, u64)] = &[
    (
        "linear",
        "464b535601000000000000000000020000000000000009290c000000f03fa315fb7a43495bbd",
        2,
        0,
        0x0000000000000000,
    ),
    (
        "kernel linear",
        "464b535601010000000000000000000200000000000000080000000000000000000000000000c000000000000008c000000000000000400000000000000840000000000000f0bf9a9999999999b93f000000000000f03f9a9999999999b9bf04000000000000004baa181b56ad8ebf4baa181b56ad8e3fe62b6bb980c2dcbfe62b6bb980c2dc3f",
        2,
        4,
        0x0000000000000000,
    ),
    (
        "kernel rbf",
        "464b5356010100000000000080bc01000000000000e03f0200000000000000100000000000000000000000000000c000000000000008c0000000000000f0bf0000000000000840000000000000f03f00000000000008c00000000000000040000000000000084000000000000000c09a9999999999b9bf000000000000f0bf9a9999999999b93f000000000000f03f9a9999999999b9bf00000000000000409a9999999999b93f08000000000000007606baf1d6fbefbf6844045655eeefbf7a44045655eeef3f6606baf1d6fbef3f92642a6c09dfe0bfdb6d495a4adce8bfdd6d495a4adce83f8d642a6c09dfe03f",
        2,
        8,
        0xbc80000000000000,
    ),
    (
        "kernel polynomial",
        "464b535601010000000070e0963d020200000000000000000000000000f03f000000000000f03f0200000000000000080000000000000000000000000000c000000000000008c000000000000000400000000000000840000000000000f0bf9a9999999999b93f000000000000f03f9a9999999999b9bf0400000000000000d949ad3526587ebff132ac3526587e3fea254dd2a372ccbfa02e4dd2a372cc3f",
        2,
        4,
        0x3d96e07000000000,
    ),
];

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn saved_bytes_are_the_frozen_layout() {
    assert_eq!(GOLDEN.len(), 4);
    for &(name, golden, p, m, intercept) in GOLDEN {
        let scorer = FairSvmScorer::from_bytes(&unhex(golden)).unwrap();
        assert_eq!(hex(&scorer.to_bytes()), golden, "{name}");
        assert_eq!(scorer.n_features(), p, "{name}");
        assert_eq!(scorer.n_support_vectors(), m, "{name}");
        assert_eq!(scorer.intercept().to_bits(), intercept, "{name}");
        let x = DMatrix::from_fn(3, p, |i, j| i as f64 - 0.5 * j as f64);
        assert!(
            scorer
                .decision_function(&x)
                .unwrap()
                .iter()
                .all(|s| s.is_finite())
        );
    }
}
