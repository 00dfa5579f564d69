//! Property tests of the invariants fair-data promises: splits partition the rows, stratification
//! keeps proportions, scalers invert exactly, intersections refine their parts, generators are
//! deterministic.

use fair_data::{GaussianMixture, Groups, MinMaxScaler, Splitter, Standardizer};
use nalgebra::DMatrix;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn split_is_a_partition(n in 1usize..400, val in 0.0f64..0.45, test in 0.0f64..0.45, seed in any::<u64>()) {
        let s = Splitter::new().validation(val).test(test).seed(seed).split(n).unwrap();
        let mut all: Vec<usize> = s.train.iter().chain(&s.validation).chain(&s.test).copied().collect();
        all.sort_unstable();
        prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
        // Same seed, same bits.
        prop_assert_eq!(s, Splitter::new().validation(val).test(test).seed(seed).split(n).unwrap());
    }

    #[test]
    fn stratified_split_rounds_each_stratum(strata in prop::collection::vec(0usize..4, 1..300), seed in any::<u64>()) {
        let s = Splitter::new().test(0.3).seed(seed).split_stratified(&strata).unwrap();
        for k in 0..4 {
            let size = strata.iter().filter(|&&c| c == k).count();
            let in_test = s.test.iter().filter(|&&i| strata[i] == k).count();
            prop_assert_eq!(in_test, (0.3 * size as f64).round() as usize);
        }
    }

    #[test]
    fn standardized_training_columns_have_zero_mean_unit_variance(
        rows in 2usize..40, cols in 1usize..5, seed in any::<u64>()
    ) {
        let x = GaussianMixture::new(rows).features(cols).seed(seed).generate().unwrap().x().clone();
        let z = Standardizer::fit(&x).unwrap().transform(&x).unwrap();
        for c in z.column_iter() {
            let n = c.len() as f64;
            let mean = c.sum() / n;
            let var = c.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
            prop_assert!(mean.abs() < 1e-9);
            prop_assert!((var - 1.0).abs() < 1e-9 || var < 1e-12);
        }
    }

    #[test]
    fn minmax_training_range_is_unit(values in prop::collection::vec(-1e6f64..1e6, 2..50)) {
        let x = DMatrix::from_column_slice(values.len(), 1, &values);
        let z = MinMaxScaler::fit(&x).unwrap().transform(&x).unwrap();
        prop_assert!(z.iter().all(|&v| (-1e-12..=1.0 + 1e-12).contains(&v)));
    }

    #[test]
    fn intersection_refines_each_part(a in prop::collection::vec(0usize..3, 1..100), seed in 0usize..3) {
        let b: Vec<usize> = a.iter().enumerate().map(|(i, &v)| (v + i + seed) % 2).collect();
        let ga = Groups::from_codes(&a).unwrap();
        let gb = Groups::from_codes(&b).unwrap();
        let both = Groups::intersect(&[&ga, &gb]).unwrap();
        // Rows in the same intersectional group agree on every part.
        for i in 0..a.len() {
            for j in 0..a.len() {
                if both.codes()[i] == both.codes()[j] {
                    prop_assert_eq!(a[i], a[j]);
                    prop_assert_eq!(b[i], b[j]);
                }
            }
        }
        prop_assert!(both.counts().iter().all(|&c| c > 0));
    }

    #[test]
    fn mixture_generator_is_deterministic(n in 1usize..200, classes in 2usize..5, groups in 1usize..5, seed in any::<u64>()) {
        let g = GaussianMixture::new(n).classes(classes).groups(groups).seed(seed);
        prop_assert_eq!(g.generate().unwrap(), g.generate().unwrap());
    }
}

proptest! {
    /// Any ids — sparse, huge, up to usize::MAX — give one group per distinct id, named by the id,
    /// with codes in id order; nothing is sized by an id's value.
    #[test]
    fn from_codes_recodes_any_ids(
        ids in prop::collection::vec(
            prop_oneof![0usize..5, Just(usize::MAX), Just(1usize << 40), any::<usize>()],
            1..60,
        )
    ) {
        let g = Groups::from_codes(&ids).unwrap();
        let mut distinct = ids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        prop_assert_eq!(g.n_groups(), distinct.len());
        for (row, &id) in ids.iter().enumerate() {
            prop_assert_eq!(g.names()[g.codes()[row]].parse::<usize>().unwrap(), id);
        }
        prop_assert!(g.counts().iter().all(|&c| c > 0));
    }
}
