//! Properties of the barycenter map on arbitrary inputs: monotone within each group, `alpha`
//! interpolates, bytes round-trip, no input panics.
// `&[g.clone()]` reads as "one attribute" beside `&[a, b]`; from_ref would hide that.
#![allow(clippy::cloned_ref_to_slice_refs)]

use fair_regression::{FittedBarycenter, Groups, ParamGuard, WassersteinBarycenter};
use proptest::prelude::*;

/// Predictions, codes of one attribute with `m` groups (every group present) and weights.
fn data() -> impl Strategy<Value = (Vec<f64>, Vec<usize>, usize, Vec<f64>)> {
    (2usize..5).prop_flat_map(|m| {
        (m..40).prop_flat_map(move |n| {
            (
                prop::collection::vec(prop_oneof![-1e3..1e3f64, (-3i32..3).prop_map(f64::from)], n),
                prop::collection::vec(0..m, n - m),
                Just(m),
                prop::collection::vec(0.01..10.0f64, n),
            )
                .prop_map(|(y, mut codes, m, w)| {
                    codes.extend(0..m);
                    (y, codes, m, w)
                })
        })
    })
}

fn groups(codes: &[usize], m: usize) -> Groups {
    Groups::new(codes.to_vec(), (0..m).map(|g| format!("g{g}")).collect()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn monotone_within_each_group((y, codes, m, w) in data(), weighted in any::<bool>(), alpha in 0.0..=1.0f64) {
        let g = groups(&codes, m);
        let params = WassersteinBarycenter::params().alpha(alpha).check().unwrap();
        let fitted = params.fit(&y, &[g.clone()], weighted.then_some(w.as_slice())).unwrap();
        let out = fitted.transform(&y, &[g]).unwrap();
        for i in 0..y.len() {
            for j in 0..y.len() {
                if codes[i] == codes[j] && y[i] <= y[j] {
                    prop_assert!(out[i] <= out[j] + 1e-9 * (1.0 + out[j].abs()), "rows {i}, {j}");
                }
            }
        }
    }

    /// Without jitter the fit is a function of the rows as a multiset: shuffled rows (a Spark
    /// collect in another partitioning) give the same model bytes, weighted or not.
    #[test]
    fn the_fit_does_not_depend_on_row_order(
        (y, codes, m, w) in data(),
        weighted in any::<bool>(),
        seed in any::<u64>(),
    ) {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut order: Vec<usize> = (0..y.len()).collect();
        order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let pick = |v: &[f64]| order.iter().map(|&i| v[i]).collect::<Vec<f64>>();
        let (y2, w2) = (pick(&y), pick(&w));
        let codes2: Vec<usize> = order.iter().map(|&i| codes[i]).collect();
        let params = WassersteinBarycenter::params().alpha(0.2).check().unwrap();
        let a = params.fit(&y, &[groups(&codes, m)], weighted.then_some(w.as_slice())).unwrap();
        let b = params.fit(&y2, &[groups(&codes2, m)], weighted.then_some(w2.as_slice())).unwrap();
        prop_assert_eq!(a.to_bytes(), b.to_bytes());
    }

    #[test]
    fn alpha_interpolates((y, codes, m, _w) in data(), alpha in 0.0..=1.0f64) {
        let g = groups(&codes, m);
        let fitted = WassersteinBarycenter::params().fit(&y, &[g.clone()], None).unwrap();
        let fair = fitted.transform(&y, &[g.clone()]).unwrap();
        let mid = fitted.transform_with_alpha(&y, &[g.clone()], &[alpha]).unwrap();
        prop_assert_eq!(fitted.transform_with_alpha(&y, &[g], &[1.0]).unwrap(), y.clone());
        for i in 0..y.len() {
            let expected = (1.0 - alpha) * fair[i] + alpha * y[i];
            prop_assert!((mid[i] - expected).abs() <= 1e-9 * (1.0 + expected.abs()));
        }
    }

    #[test]
    fn bytes_round_trip_to_the_same_bits(
        (y, codes, m, w) in data(),
        second in prop::collection::vec(0usize..2, 40),
        weighted in any::<bool>(),
        sigma in prop_oneof![Just(0.0), 0.0..1.0f64],
    ) {
        let n = y.len();
        let a = groups(&codes, m);
        let b = Groups::from_codes(&second[..n]).unwrap();
        let attrs = if b.n_groups() == 2 && b.counts().iter().all(|&c| c > 0) { vec![a, b] } else { vec![a] };
        let params = WassersteinBarycenter::params().alpha(0.3).sigma(sigma).seed(7).check().unwrap();
        let fitted = params.fit(&y, &attrs, weighted.then_some(w.as_slice())).unwrap();
        let restored = FittedBarycenter::from_bytes(&fitted.to_bytes()).unwrap();
        prop_assert_eq!(&restored, &fitted);
        let (p, q) = (fitted.transform(&y, &attrs).unwrap(), restored.transform(&y, &attrs).unwrap());
        prop_assert!(p.iter().zip(&q).all(|(x, y)| x.to_bits() == y.to_bits()));
    }

    #[test]
    fn no_input_panics(
        y in prop::collection::vec(prop_oneof![any::<f64>(), -5.0..5.0f64], 0..20),
        codes in prop::collection::vec(0usize..3, 0..20),
        w in prop::collection::vec(prop_oneof![any::<f64>(), 0.0..2.0f64], 0..20),
        alpha in any::<f64>(),
        sigma in prop_oneof![any::<f64>(), 0.0..1.0f64],
        test_codes in prop::collection::vec(0usize..4, 0..20),
    ) {
        let g = Groups::from_codes(&codes);
        let params = WassersteinBarycenter::params().alpha(alpha).sigma(sigma);
        if let (Ok(g), Ok(p)) = (g, params.check()) {
            for weights in [None, Some(w.as_slice())] {
                if let Ok(fitted) = p.fit(&y, &[g.clone()], weights) {
                    let bytes = fitted.to_bytes();
                    prop_assert!(FittedBarycenter::from_bytes(&bytes).is_ok());
                    // Every cut and a flipped byte decode to an error or a model, never a panic.
                    for cut in [0, 5, bytes.len() / 2, bytes.len() - 1] {
                        prop_assert!(FittedBarycenter::from_bytes(&bytes[..cut]).is_err());
                    }
                    let mut flipped = bytes.clone();
                    let at = bytes.len() * 2 / 3;
                    flipped[at] ^= 0xa5;
                    if let (Ok(other), Ok(t)) = (FittedBarycenter::from_bytes(&flipped), Groups::from_codes(&test_codes)) {
                        let _ = other.transform(&y[..y.len().min(t.len())], &[t]);
                    }
                    if let Ok(t) = Groups::from_codes(&test_codes) {
                        let _ = fitted.transform(&y, &[t]);
                    }
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut framed = b"FKWB\x01".to_vec();
        framed.extend(&bytes);
        let _ = FittedBarycenter::from_bytes(&framed);
        let _ = FittedBarycenter::from_bytes(&bytes);
    }
}
