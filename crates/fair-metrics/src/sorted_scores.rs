//! The sorting engine behind every threshold-free metric (KS Δ, partial parity, ROC/AUC).
//!
//! Rows are split into buckets (a group, or a group × label cell) in one pass and each bucket is
//! sorted once by score. Every metric is then a descending sweep over the *distinct* score values
//! of one or two buckets, consuming all rows with an equal score together, so ties (within and
//! across buckets) are handled exactly and the whole computation is O(n log n).
//!
//! Scores are sorted as `u64` keys that order like `f64::total_cmp`. `-0.0` is mapped to `+0.0`
//! first: the two are equal as thresholds, but `total_cmp` would put them in different blocks.
//! Integer keys compare faster than `total_cmp`. (An LSD radix sort was tried and measured
//! slower than the standard pattern-defeating quicksort on the 2-core benchmark machine, so the
//! standard sort stays.)

use rayon::iter::{IntoParallelIterator, ParallelIterator};
use rayon::slice::ParallelSliceMut;

/// A monotone `u64` image of a finite `f64`: `a < b ⇔ key(a) < key(b)`, and `key(-0.0) == key(0.0)`.
#[inline(always)]
pub fn score_key(x: f64) -> u64 {
    let bits = (x + 0.0).to_bits(); // -0.0 + 0.0 == +0.0
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// Inverse of [`score_key`].
#[inline(always)]
pub fn key_score(key: u64) -> f64 {
    f64::from_bits(if key >> 63 == 1 {
        key & !(1 << 63)
    } else {
        !key
    })
}

/// The sorted scores of one bucket, ascending, with their weights.
pub(crate) enum Bucket {
    /// Unweighted rows: keys only (half the memory to sort).
    Unit(Vec<u64>),
    /// Weighted rows: (key, weight).
    Weighted(Vec<(u64, f64)>),
}

impl Bucket {
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        match self {
            Bucket::Unit(k) => k.len(),
            Bucket::Weighted(k) => k.len(),
        }
    }
    #[inline(always)]
    fn key(&self, i: usize) -> u64 {
        match self {
            Bucket::Unit(k) => k[i],
            Bucket::Weighted(k) => k[i].0,
        }
    }
    #[inline(always)]
    fn weight(&self, i: usize) -> f64 {
        match self {
            Bucket::Unit(_) => 1.0,
            Bucket::Weighted(k) => k[i].1,
        }
    }

    /// Total weight, summed block by block in the same descending order the sweeps use, so a
    /// sweep's running sum ends at exactly this value (a fully passed group has CCDF exactly 1).
    pub(crate) fn total(&self) -> f64 {
        let mut total = 0.0;
        let mut i = self.len();
        while i > 0 {
            let key = self.key(i - 1);
            total += self.take_block(&mut i, key);
        }
        total
    }

    /// Sums the weights of the rows at the end (below index `*i`) whose key equals `key`, moving
    /// `*i` past them.
    #[inline(always)]
    fn take_block(&self, i: &mut usize, key: u64) -> f64 {
        let mut w = 0.0;
        while *i > 0 && self.key(*i - 1) == key {
            w += self.weight(*i - 1);
            *i -= 1;
        }
        w
    }
}

/// Splits the rows into `n_buckets` buckets (`bucket_of(row)` = `None` leaves a row out) and
/// sorts each. The caller has validated scores (finite) and weights.
pub(crate) fn bucket_sorted(
    scores: &[f64],
    weights: Option<&[f64]>,
    n_buckets: usize,
    bucket_of: impl Fn(usize) -> Option<usize>,
) -> Vec<Bucket> {
    // Count first so every bucket is allocated once at its exact size.
    let mut sizes = vec![0_usize; n_buckets];
    for i in 0..scores.len() {
        if let Some(b) = bucket_of(i) {
            sizes[b] += 1;
        }
    }
    // Buckets sort on rayon's threads, one bucket per task; a bucket holding more than half the
    // rows (one dominant group) is itself split over the threads.
    let big = sizes.iter().sum::<usize>() / 2;
    match weights {
        None => {
            let mut keys: Vec<Vec<u64>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
            for (i, &s) in scores.iter().enumerate() {
                if let Some(b) = bucket_of(i) {
                    keys[b].push(score_key(s));
                }
            }
            // The keys are plain integers, so any correct sort gives the same array and the
            // result is the same bits on one core or many.
            keys.into_par_iter()
                .map(|mut k| {
                    if k.len() > big {
                        k.par_sort_unstable();
                    } else {
                        k.sort_unstable();
                    }
                    Bucket::Unit(k)
                })
                .collect()
        }
        Some(w) => {
            let mut keys: Vec<Vec<(u64, f64)>> =
                sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
            for (i, (&s, &wi)) in scores.iter().zip(w).enumerate() {
                if let Some(b) = bucket_of(i) {
                    keys[b].push((score_key(s), wi));
                }
            }
            // Sorted by (key, weight bits), a total order, so equal scores meet their weights in
            // one order whatever the sort's schedule: the block sums are the same bits on any
            // number of threads. Weights are >= 0 here, so their bits order like their values.
            keys.into_par_iter()
                .map(|mut k| {
                    let order = |&(key, w): &(u64, f64)| (key, w.to_bits());
                    if k.len() > big {
                        k.par_sort_unstable_by_key(order);
                    } else {
                        k.sort_unstable_by_key(order);
                    }
                    Bucket::Weighted(k)
                })
                .collect()
        }
    }
}

/// Sweeps the distinct score values of `a ∪ b` from the highest down, calling
/// `f(key, weight_a_at_key, weight_b_at_key)` once per distinct value. Before the call for `key`,
/// the caller's running sums hold exactly the weight strictly above `key`.
pub(crate) fn sweep_desc(a: &Bucket, b: &Bucket, mut f: impl FnMut(u64, f64, f64)) {
    let (mut i, mut j) = (a.len(), b.len());
    loop {
        let key = match (i > 0, j > 0) {
            (true, true) => a.key(i - 1).max(b.key(j - 1)),
            (true, false) => a.key(i - 1),
            (false, true) => b.key(j - 1),
            (false, false) => break,
        };
        let wa = a.take_block(&mut i, key);
        let wb = b.take_block(&mut j, key);
        f(key, wa, wb);
    }
}

/// `max_θ |T(F̄_a(θ)) − T(F̄_b(θ))|` over all observed scores θ, where `F̄(θ)` is the weighted
/// fraction of the bucket scoring strictly above θ and `T` a monotone transform (identity for
/// KS, the percentile clip for partial parity). Between observed scores both step functions are
/// constant, and below all scores both are 1, so this is the sup over all real θ.
pub(crate) fn max_ccdf_gap(
    a: &Bucket,
    b: &Bucket,
    total_a: f64,
    total_b: f64,
    transform: impl Fn(f64) -> f64,
) -> f64 {
    if let (Bucket::Unit(ka), Bucket::Unit(kb)) = (a, b) {
        return max_ccdf_gap_unit(ka, kb, total_a, total_b, transform);
    }
    let (mut above_a, mut above_b, mut best) = (0.0_f64, 0.0_f64, 0.0_f64);
    sweep_desc(a, b, |_, wa, wb| {
        let gap = (transform(above_a / total_a) - transform(above_b / total_b)).abs();
        best = best.max(gap);
        above_a += wa;
        above_b += wb;
    });
    best
}

/// [`max_ccdf_gap`] for two unweighted buckets: the same values, bit for bit, without the
/// weight sums. The running sums of the general sweep are counts of 1.0s, exact in `f64`, so
/// the counts here convert to the same numbers; the gap is taken after each block instead of
/// before the next, which visits the same states (the first, both 0, and the last, both 1,
/// give a gap of 0 either way).
fn max_ccdf_gap_unit(
    a: &[u64],
    b: &[u64],
    total_a: f64,
    total_b: f64,
    transform: impl Fn(f64) -> f64,
) -> f64 {
    let gap = |i: usize, j: usize| {
        let above_a = (a.len() - i) as f64;
        let above_b = (b.len() - j) as f64;
        (transform(above_a / total_a) - transform(above_b / total_b)).abs()
    };
    let (mut i, mut j) = (a.len(), b.len());
    let mut best = 0.0_f64;
    // One element per step, from the larger end; which bucket it comes from is a data-dependent
    // choice made without a branch (the two buckets interleave at random, so a branch would be
    // mispredicted half the time). The gap is taken only once every row with the current key
    // is consumed — when the next key is smaller — so ties across the buckets are exact.
    while i > 0 && j > 0 {
        let (ka, kb) = (a[i - 1], b[j - 1]);
        let take_a = ka >= kb;
        let key = ka.max(kb);
        i -= usize::from(take_a);
        j -= usize::from(!take_a);
        if i == 0 || j == 0 {
            break; // the tail below ends this block
        }
        if a[i - 1].max(b[j - 1]) < key {
            best = best.max(gap(i, j));
        }
    }
    // One bucket is exhausted. If the other still holds rows at the key just consumed, the
    // block ends with them (and the state after it is the last one that counts); after that the exhausted bucket's CCDF is 1 and the other's only
    // grows towards 1, so for a monotone transform the gap only shrinks.
    let consumed = |k: &[u64], n: usize| (n < k.len()).then(|| k[n]);
    if let Some(key) = consumed(a, i).into_iter().chain(consumed(b, j)).min() {
        while i > 0 && a[i - 1] == key {
            i -= 1;
        }
        while j > 0 && b[j - 1] == key {
            j -= 1;
        }
        best = best.max(gap(i, j));
    }
    best
}

/// `P(s_a > s_b) + ½ P(s_a = s_b)` for independent draws from the two weighted buckets
/// (Mann–Whitney with ties counted ½).
pub(crate) fn prob_greater(a: &Bucket, b: &Bucket, total_a: f64, total_b: f64) -> f64 {
    // Each factor is a fraction of its group's (finite) total, so the products stay in [0, 1]:
    // multiplying raw weights first overflows to ∞/∞ = NaN for finite weights near 1e300
    // (found by the `metrics` fuzz target, issue 18).
    let (mut above_a, mut acc) = (0.0_f64, 0.0_f64);
    sweep_desc(a, b, |_, wa, wb| {
        acc += (wb / total_b) * ((above_a + 0.5 * wa) / total_a);
        above_a += wa;
    });
    acc.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_orders_like_floats_and_merges_signed_zeros() {
        let xs = [-1e300, -2.5, -1e-300, -0.0, 0.0, 1e-300, 3.0, 1e300];
        for w in xs.windows(2) {
            assert!(score_key(w[0]) <= score_key(w[1]), "{w:?}");
        }
        assert_eq!(score_key(-0.0), score_key(0.0));
        assert!(score_key(-2.5) < score_key(-1e-300));
        for &x in &[-2.5, 0.0, 3.0, 1e300, -1e-300] {
            assert_eq!(key_score(score_key(x)).to_bits(), x.to_bits());
        }
    }

    proptest::proptest! {
        /// The unweighted fast path gives the general sweep's value bit for bit, ties included,
        /// for the identity (KS) and a clipping transform (partial parity).
        #[test]
        fn unit_merge_matches_the_weighted_sweep(
            a in proptest::collection::vec(0_u64..50, 1..400),
            b in proptest::collection::vec(0_u64..50, 1..400),
        ) {
            let (mut a, mut b) = (a, b);
            a.sort_unstable();
            b.sort_unstable();
            let weighted = |k: &[u64]| Bucket::Weighted(k.iter().map(|&x| (x, 1.0)).collect());
            let (wa, wb) = (weighted(&a), weighted(&b));
            let (ta, tb) = (wa.total(), wb.total());
            let clip = |x: f64| x.clamp(0.2, 0.7) - 0.2;
            let band = |x: f64| (x.clamp(0.2, 0.7) - 0.2) / 0.5;
            let identity = |x: f64| x;
            let transforms: [&dyn Fn(f64) -> f64; 3] = [&identity, &clip, &band];
            for transform in transforms {
                let general = {
                    let (mut above_a, mut above_b, mut best) = (0.0_f64, 0.0_f64, 0.0_f64);
                    sweep_desc(&wa, &wb, |_, x, y| {
                        let gap = (transform(above_a / ta) - transform(above_b / tb)).abs();
                        best = best.max(gap);
                        above_a += x;
                        above_b += y;
                    });
                    best
                };
                let fast = max_ccdf_gap(&Bucket::Unit(a.clone()), &Bucket::Unit(b.clone()), ta, tb, transform);
                proptest::prop_assert_eq!(fast.to_bits(), general.to_bits());
            }
        }
    }
}
