//! Property tests: spectral-split identities on random symmetric matrices; the
//! convex–concave objective is monotone on random problems.

mod common;

use fair_svm::{SpectralFairSvm, SpectralSplit};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

fn symmetric(max_dim: usize) -> impl Strategy<Value = DMatrix<f64>> {
    (1..=max_dim).prop_flat_map(|n| {
        prop::collection::vec(-10.0..10.0_f64, n * n).prop_map(move |v| {
            let a = DMatrix::from_vec(n, n, v);
            (&a + a.transpose()) * 0.5
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn split_reassembles_is_psd_and_orthogonal(d in symmetric(8)) {
        let s = SpectralSplit::new(&d).unwrap();
        let scale = d.norm().max(1.0);
        prop_assert!((s.positive() - s.negative() - &d).norm() <= 1e-10 * scale);
        prop_assert!((s.positive() * s.negative()).norm() <= 1e-10 * scale * scale);
        for part in [s.positive(), s.negative()] {
            prop_assert!(part.clone().symmetric_eigen().eigenvalues.min() >= -1e-10 * scale);
        }
        // Factors reproduce the parts; the quadratic form matches the matrix.
        prop_assert!((s.factor_positive() * s.factor_positive().transpose() - s.positive()).norm() <= 1e-10 * scale);
        let v = DVector::from_fn(d.nrows(), |i, _| (i as f64 + 1.0).sin());
        prop_assert!((s.quadratic(&v) - v.dot(&(&d * &v))).abs() <= 1e-9 * scale * v.norm_squared());
        // Trace-minimality: tr U₊ = sum of positive eigenvalues ≤ any PSD A with A − B = D has
        // tr A ≥ that; check the decomposition's traces against the eigenvalues.
        let pos: f64 = s.eigenvalues().iter().filter(|&&e| e > 0.0).sum();
        prop_assert!((s.positive().trace() - pos).abs() <= 1e-9 * scale);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn convex_concave_objective_is_monotone(
        seed in 0u64..1000,
        mu in prop::sample::select(vec![0.1, 1.0, 10.0]),
        d in prop::sample::select(vec![0.0, 0.05, f64::INFINITY]),
    ) {
        // A random 3-feature problem: labels from a noisy linear rule, groups with different
        // spreads so that Σ₊ − Σ₋ is indefinite.
        let n = 60;
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let codes: Vec<usize> = (0..n).map(|i| usize::from(i % 3 == 0)).collect();
        let z = common::groups(&codes);
        let x = DMatrix::from_fn(n, 3, |i, j| {
            let spread = if codes[i] == 1 { [2.0, 0.5, 1.0][j] } else { [0.5, 2.0, 1.0][j] };
            spread * next()
        });
        let y: Vec<usize> = (0..n).map(|i| usize::from(x[(i, 0)] + x[(i, 1)] + 0.3 * next() > 0.0)).collect();
        prop_assume!(y.contains(&1) && y.contains(&0));
        let svm = SpectralFairSvm::params().lambda(0.01).d(d).mu(mu).max_iter(50).fit(&x, &y, &z).unwrap();
        for pair in svm.report().history.windows(2) {
            prop_assert!(pair[1].objective <= pair[0].objective + 1e-6, "{:?}", pair);
        }
    }
}
