//! Same seed, same bits: every randomized routine of the foundation is a pure function of its
//! seed, and the streams are pinned so a dependency upgrade that changes them is noticed.

use fair_data::{FairSvmSynthetic, GaussianMixture, Splitter, recipes};

#[test]
fn splits_are_pure_functions_of_the_seed() {
    let german = recipes::german_credit().unwrap();
    let a = Splitter::new()
        .validation(0.1)
        .test(0.2)
        .seed(11)
        .split_stratified(german.y())
        .unwrap();
    let b = Splitter::new()
        .validation(0.1)
        .test(0.2)
        .seed(11)
        .split_stratified(german.y())
        .unwrap();
    assert_eq!(a, b);
    let c = Splitter::new()
        .validation(0.1)
        .test(0.2)
        .seed(12)
        .split_stratified(german.y())
        .unwrap();
    assert_ne!(a, c);
}

#[test]
fn generators_reproduce_bit_for_bit() {
    let g = GaussianMixture::new(10_000)
        .features(3)
        .classes(5)
        .groups(4)
        .seed(5);
    let (a, b) = (g.generate().unwrap(), g.generate().unwrap());
    let bits = |d: &fair_data::Dataset| d.x().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a.y(), b.y());
    let s1 = FairSvmSynthetic::new().seed(3).generate().unwrap();
    let s2 = FairSvmSynthetic::new().seed(3).generate().unwrap();
    assert_eq!(s1, s2);
}

/// The ChaCha8 stream behind the splitter is pinned: the first test rows of a seed-0 split of 20
/// rows were recorded once from this implementation. If rand or rand_chacha ever change the
/// stream (or the shuffle algorithm), this fails and published splits must be re-derived.
#[test]
fn seed_zero_split_is_pinned() {
    let s = Splitter::new().test(0.25).seed(0).split(20).unwrap();
    assert_eq!(s.test.len(), 5);
    let mut sorted = s.test.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, PINNED_SEED0_TEST);
}

const PINNED_SEED0_TEST: [usize; 5] = [1, 6, 8, 9, 14];
