//! Multiple-comparison control: when one report asks the same question many times (every
//! window of an audit over time against its baseline, every gap, every slice), a p-value below
//! α is expected by chance in about α of the tests. Benjamini and Hochberg's step-up procedure
//! ("Controlling the false discovery rate", JRSS B 57, 1995) adjusts the p-values so that
//! calling a test distinguishable when its adjusted value is below α keeps the expected share
//! of false discoveries among the discoveries at or below α — under independence, and under the
//! positive dependence of tests that share a baseline (Benjamini & Yekutieli, 2001, PRDS).

/// Benjamini–Hochberg adjusted p-values ("q-values", R's `p.adjust(p, "BH")`): for the i-th
/// smallest of m p-values, `min over j ≥ i of min(1, m · p_(j) / j)`, returned in the input's
/// order. A NaN p-value is treated as 1 and kept NaN in the output. Empty in, empty out.
///
/// # Example
/// ```
/// use fair_metrics::ci::benjamini_hochberg;
///
/// // R: p.adjust(c(0.01, 0.04, 0.03, 0.5), "BH") = 0.04 0.0533 0.0533 0.5
/// let q = benjamini_hochberg(&[0.01, 0.04, 0.03, 0.5]);
/// assert!((q[0] - 0.04).abs() < 1e-15);
/// assert!((q[1] - 0.16 / 3.0).abs() < 1e-15);
/// assert!((q[2] - 0.16 / 3.0).abs() < 1e-15);
/// assert!((q[3] - 0.5).abs() < 1e-15);
/// ```
pub fn benjamini_hochberg(p_values: &[f64]) -> Vec<f64> {
    step_up(p_values, 1.0)
}

/// Benjamini–Yekutieli adjusted p-values (R's `p.adjust(p, "BY")`): the Benjamini–Hochberg
/// step-up with m replaced by `m · c(m)`, `c(m) = Σ_{i=1..m} 1/i`, i.e. for the i-th smallest
/// `min over j ≥ i of min(1, c(m) · m · p_(j) / j)`, in the input's order. It controls the
/// false-discovery rate under *any* dependence between the tests (Benjamini & Yekutieli,
/// "The control of the false discovery rate in multiple testing under dependency", Ann.
/// Statist. 29, 2001, Theorem 1.3), at the price of a factor `c(m)` ≈ ln m + 0.577 in power.
/// NaN is treated as 1 and kept NaN, as in [`benjamini_hochberg`].
///
/// # Example
/// ```
/// use fair_metrics::ci::benjamini_yekutieli;
///
/// // R: p.adjust(c(0.01, 0.04, 0.03, 0.5), "BY") = 0.08333 0.11111 0.11111 1
/// // (c(4) = 1 + 1/2 + 1/3 + 1/4 = 25/12; BH's values times 25/12, capped at 1).
/// let q = benjamini_yekutieli(&[0.01, 0.04, 0.03, 0.5]);
/// assert!((q[0] - 0.04 * 25.0 / 12.0).abs() < 1e-15);
/// assert!((q[1] - 0.16 / 3.0 * 25.0 / 12.0).abs() < 1e-15);
/// assert!((q[2] - q[1]).abs() < 1e-15);
/// assert_eq!(q[3], 1.0);
/// ```
pub fn benjamini_yekutieli(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let c: f64 = (1..=m).map(|i| 1.0 / i as f64).sum();
    step_up(p_values, c)
}

/// Bonferroni adjusted p-values (R's `p.adjust(p, "bonferroni")`): `min(1, m · p)`. Controls
/// the family-wise error rate (the chance of any false call) under any dependence. NaN stays
/// NaN and counts in `m`.
///
/// # Example
/// ```
/// use fair_metrics::ci::bonferroni;
/// assert_eq!(bonferroni(&[0.01, 0.3, f64::NAN])[..2], [0.03, 0.8999999999999999]);
/// ```
pub fn bonferroni(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len() as f64;
    p_values
        .iter()
        .map(|&p| {
            if p.is_nan() {
                p
            } else {
                (p.clamp(0.0, 1.0) * m).min(1.0)
            }
        })
        .collect()
}

/// Holm's step-down adjusted p-values (R's `p.adjust(p, "holm")`): for the i-th smallest,
/// `max over j ≤ i of min(1, (m − j + 1) · p_(j))`. Controls the family-wise error rate like
/// [`bonferroni`] under any dependence and is never larger. NaN counts as 1 and stays NaN.
///
/// # Example
/// ```
/// use fair_metrics::ci::holm;
/// // R: p.adjust(c(0.01, 0.04, 0.03, 0.5), "holm") = 0.04 0.09 0.09 0.5
/// let q = holm(&[0.01, 0.04, 0.03, 0.5]);
/// let want = [0.04, 0.09, 0.09, 0.5];
/// assert!(q.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15));
/// ```
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let order = sorted_order(p_values);
    let mut q = vec![0.0; m];
    let mut running = 0.0_f64;
    for (rank, &i) in order.iter().enumerate() {
        let adjusted = (key(p_values[i]) * (m - rank) as f64).min(1.0);
        running = running.max(adjusted);
        q[i] = running;
    }
    keep_nan(q, p_values)
}

/// Which multiple-comparison adjustment a report applies to its p-values before calling a test
/// distinguishable (front ends: `--multiple-testing`, Python's `multiple_testing=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MultipleTesting {
    /// No adjustment: each p-value is compared with α on its own.
    #[default]
    None,
    /// [`benjamini_hochberg`]: false-discovery rate under independence or positive dependence.
    Bh,
    /// [`benjamini_yekutieli`]: false-discovery rate under any dependence.
    By,
    /// [`bonferroni`]: family-wise error rate under any dependence.
    Bonferroni,
    /// [`holm`]: family-wise error rate, uniformly more powerful than Bonferroni.
    Holm,
}

fair_core::string_enum!(MultipleTesting, "multiple_testing", {
    None => "none",
    Bh => "bh" | "BH" | "fdr_bh",
    By => "by" | "BY" | "fdr_by",
    Bonferroni => "bonferroni",
    Holm => "holm",
});

impl MultipleTesting {
    /// The adjusted p-values of `p_values` (in their order); `None` for [`MultipleTesting::None`].
    ///
    /// ```
    /// use fair_metrics::ci::MultipleTesting;
    /// let m: MultipleTesting = "by".parse().unwrap();
    /// assert_eq!(m.adjust(&[0.5]), Some(vec![0.5]));
    /// assert_eq!(MultipleTesting::None.adjust(&[0.5]), None);
    /// assert!("fdr".parse::<MultipleTesting>().is_err());
    /// ```
    pub fn adjust(self, p_values: &[f64]) -> Option<Vec<f64>> {
        match self {
            Self::None => None,
            Self::Bh => Some(benjamini_hochberg(p_values)),
            Self::By => Some(benjamini_yekutieli(p_values)),
            Self::Bonferroni => Some(bonferroni(p_values)),
            Self::Holm => Some(holm(p_values)),
        }
    }
}

fn key(p: f64) -> f64 {
    if p.is_nan() { 1.0 } else { p.clamp(0.0, 1.0) }
}

fn sorted_order(p_values: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p_values.len()).collect();
    order.sort_by(|&a, &b| {
        key(p_values[a])
            .total_cmp(&key(p_values[b]))
            .then(a.cmp(&b))
    });
    order
}

fn keep_nan(mut q: Vec<f64>, p_values: &[f64]) -> Vec<f64> {
    for (qi, p) in q.iter_mut().zip(p_values) {
        if p.is_nan() {
            *qi = f64::NAN;
        }
    }
    q
}

/// The BH step-up with the number of tests multiplied by `factor` (1 for BH, c(m) for BY).
fn step_up(p_values: &[f64], factor: f64) -> Vec<f64> {
    let m = p_values.len();
    let order = sorted_order(p_values);
    let mut q = vec![0.0; m];
    let mut running = 1.0_f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        let adjusted = (key(p_values[i]) * (factor * m as f64) / (rank + 1) as f64).min(1.0);
        running = running.min(adjusted);
        q[i] = running;
    }
    keep_nan(q, p_values)
}

#[cfg(test)]
mod tests {

    #[test]
    fn by_bonferroni_and_holm_match_r_by_hand() {
        // Same five p-values as above; c(5) = 137/60. BY = min(1, BH-before-minimum · c):
        // 5p/i · c = 0.011417 0.045667 0.148417 0.117021 1.37 → running minima from the top.
        let p = [0.041, 0.6, 0.001, 0.039, 0.008];
        let c = 137.0 / 60.0;
        let by = benjamini_yekutieli(&p);
        let want = [0.05125 * c, 1.0, 0.005 * c, 0.05125 * c, 0.02 * c];
        for (a, b) in by.iter().zip(want) {
            assert!((a - b).abs() < 1e-14, "{by:?}");
        }
        // Holm: sorted 0.001 0.008 0.039 0.041 0.6 times 5 4 3 2 1 = 0.005 0.032 0.117 0.082
        // 0.6, running maxima: 0.005 0.032 0.117 0.117 0.6.
        let h = holm(&p);
        let want = [0.117, 0.6, 0.005, 0.117, 0.032];
        for (a, b) in h.iter().zip(want) {
            assert!((a - b).abs() < 1e-15, "{h:?}");
        }
        let b = bonferroni(&p);
        let want = [0.205, 1.0, 0.005, 0.195, 0.04];
        for (a, b) in b.iter().zip(want) {
            assert!((a - b).abs() < 1e-15, "{b:?}");
        }
        assert!(benjamini_yekutieli(&[]).is_empty() && holm(&[]).is_empty());
        assert!(holm(&[f64::NAN, 0.01])[0].is_nan());
        assert!((holm(&[f64::NAN, 0.01])[1] - 0.02).abs() < 1e-15);
    }

    /// `(P(X ≤ x), P(X ≥ x))` for `x = 0..=n`, `X ~ Hypergeometric(population, successes, n)`,
    /// by the pmf's ratio recurrence from the mode.
    fn hypergeometric_tails(population: usize, successes: usize, n: usize) -> Vec<(f64, f64)> {
        let (big, k) = (population as f64, successes as f64);
        let lo = (n + successes).saturating_sub(population);
        let hi = n.min(successes);
        let mode = (((n as f64 + 1.0) * (k + 1.0)) / (big + 2.0)).floor() as usize;
        let mode = mode.clamp(lo, hi);
        let mut pmf = vec![0.0; n + 1];
        pmf[mode] = 1.0;
        // P(x+1)/P(x) = (K − x)(n − x) / ((x + 1)(N − K − n + x + 1)).
        for x in mode..hi {
            let xf = x as f64;
            pmf[x + 1] = pmf[x] * (k - xf) * (n as f64 - xf)
                / ((xf + 1.0) * (big - k - n as f64 + xf + 1.0));
        }
        for x in (lo..mode).rev() {
            let xf = x as f64;
            pmf[x] = pmf[x + 1] * ((xf + 1.0) * (big - k - n as f64 + xf + 1.0))
                / ((k - xf) * (n as f64 - xf));
        }
        tails_of(&pmf)
    }

    /// `(P(X ≤ x), P(X ≥ x))` for `x = 0..=n`, `X ~ Binomial(n, p)`.
    fn binomial_tails(n: usize, p: f64) -> Vec<(f64, f64)> {
        let mut pmf = vec![(1.0 - p).powi(n as i32); n + 1];
        for x in 0..n {
            pmf[x + 1] = pmf[x] * (n - x) as f64 / (x + 1) as f64 * p / (1.0 - p);
        }
        tails_of(&pmf)
    }

    fn tails_of(pmf: &[f64]) -> Vec<(f64, f64)> {
        let sum: f64 = pmf.iter().sum();
        let mut out = vec![(0.0, 0.0); pmf.len()];
        let mut acc = 0.0;
        for (x, v) in pmf.iter().enumerate() {
            acc += v / sum;
            out[x].0 = acc.min(1.0);
        }
        let mut acc = 0.0;
        for (x, v) in pmf.iter().enumerate().rev() {
            acc += v / sum;
            out[x].1 = acc.min(1.0);
        }
        out
    }

    /// The "Done when" simulation: 200 groups of 200 rows, each tested against the pooled rest
    /// (exact conditional test, doubled smaller tail); 1,000 seeded repetitions of the complete null (all rates 0.3)
    /// and 1,000 of a mixed one (20 groups at 0.45, each group tested against the known 0.3). The false-discovery rate measured at
    /// q = 0.05 stays at or below 0.05 for BH and BY, and Bonferroni/Holm's family-wise rate too.
    #[test]
    fn fdr_is_controlled_under_the_null_with_200_groups() {
        use rand::SeedableRng;
        use rand_chacha::ChaCha8Rng;
        use rand_distr::{Binomial, Distribution};
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let (groups, rows, q) = (200usize, 200u64, 0.05);
        let reps = 1000;
        let base = binomial_tails(rows as usize, 0.3);
        let two_sided = |(lower, upper): (f64, f64)| (2.0 * f64::min(lower, upper)).min(1.0);
        for alternatives in [0usize, 20] {
            let methods = [
                MultipleTesting::None,
                MultipleTesting::Bh,
                MultipleTesting::By,
                MultipleTesting::Bonferroni,
                MultipleTesting::Holm,
            ];
            let mut fdp_sum = [0.0; 5];
            let mut any_false = [0usize; 5];
            let mut true_found = [0usize; 5];
            for _ in 0..reps {
                let x: Vec<f64> = (0..groups)
                    .map(|k| {
                        let rate = if k < alternatives { 0.45 } else { 0.3 };
                        Binomial::new(rows, rate).unwrap().sample(&mut rng) as f64
                    })
                    .collect();
                let p: Vec<f64> = if alternatives == 0 {
                    // Complete null: each group against the pooled rest. Given the total, a
                    // group's successes are hypergeometric: the exact permutation test of
                    // "group vs the rest", the audit's kind of test (a normal z-test's tails
                    // are too light at the α/m levels BH reaches). These 200 tests are
                    // dependent (they share the total).
                    let total = x.iter().sum::<f64>() as usize;
                    let tails = hypergeometric_tails(groups * rows as usize, total, rows as usize);
                    x.iter().map(|&xk| two_sided(tails[xk as usize])).collect()
                } else {
                    // Mixed: each group against the known base rate 0.3 (exact binomial), so
                    // the 180 null groups are exactly null (against the rest they would not
                    // be: the 20 real gaps move the rest's rate).
                    x.iter().map(|&xk| two_sided(base[xk as usize])).collect()
                };
                for (mi, m) in methods.iter().enumerate() {
                    let adj = m.adjust(&p).unwrap_or_else(|| p.clone());
                    let called: Vec<usize> = (0..groups).filter(|&k| adj[k] <= q).collect();
                    let false_calls = called.iter().filter(|&&k| k >= alternatives).count();
                    if !called.is_empty() {
                        fdp_sum[mi] += false_calls as f64 / called.len() as f64;
                    }
                    any_false[mi] += usize::from(false_calls > 0);
                    true_found[mi] += called.len() - false_calls;
                }
            }
            for (mi, m) in methods.iter().enumerate() {
                let fdr = fdp_sum[mi] / reps as f64;
                let fwer = any_false[mi] as f64 / reps as f64;
                let power = if alternatives > 0 {
                    true_found[mi] as f64 / (reps * alternatives) as f64
                } else {
                    f64::NAN
                };
                println!(
                    "{groups} groups, {alternatives} real gaps, q = {q}: {m:<10} FDR {fdr:.4}  FWER {fwer:.4}  power {power:.3}"
                );
                match m {
                    MultipleTesting::None => assert!(fdr > 2.0 * q, "unadjusted FDR {fdr}"),
                    MultipleTesting::Bh | MultipleTesting::By => {
                        assert!(fdr <= q, "{m}: FDR {fdr}")
                    }
                    MultipleTesting::Bonferroni | MultipleTesting::Holm => {
                        assert!(fwer <= q, "{m}: FWER {fwer}")
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn by_is_bh_times_the_harmonic_number_before_capping(
            p in proptest::collection::vec(0.0f64..=1.0, 1..40)
        ) {
            let m = p.len();
            let c: f64 = (1..=m).map(|i| 1.0 / i as f64).sum();
            let bh = benjamini_hochberg(&p);
            let by = benjamini_yekutieli(&p);
            let h = holm(&p);
            let bf = bonferroni(&p);
            for i in 0..m {
                // BY ≥ BH, and equal to c·BH wherever neither is capped at 1 along the way.
                prop_assert!(by[i] >= bh[i] * (1.0 - 1e-12) && by[i] <= 1.0);
                if bh[i] * c < 1.0 - 1e-9 {
                    prop_assert!((by[i] - bh[i] * c).abs() <= 1e-12 * by[i].max(1e-300), "{} vs {}", by[i], bh[i] * c);
                }
                // Holm is never above Bonferroni and never below BH.
                prop_assert!(h[i] <= bf[i] * (1.0 + 1e-15));
                prop_assert!(h[i] >= bh[i] * (1.0 - 1e-12));
            }
        }
    }
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn matches_r_p_adjust_by_hand() {
        // m = 5; sorted 0.001 0.008 0.039 0.041 0.6 → 5p/i = 0.005 0.02 0.065 0.05125 0.6,
        // then running minima from the top: 0.005 0.02 0.05125 0.05125 0.6.
        let q = benjamini_hochberg(&[0.041, 0.6, 0.001, 0.039, 0.008]);
        let want = [0.05125, 0.6, 0.005, 0.05125, 0.02];
        for (a, b) in q.iter().zip(want) {
            assert!((a - b).abs() < 1e-15, "{q:?}");
        }
        assert!(benjamini_hochberg(&[]).is_empty());
        assert_eq!(benjamini_hochberg(&[0.3]), [0.3]);
        let with_nan = benjamini_hochberg(&[f64::NAN, 0.01]);
        assert!(with_nan[0].is_nan());
        // The NaN counts as a test with p = 1: 0.01 · 2 / 1.
        assert!((with_nan[1] - 0.02).abs() < 1e-15);
    }

    proptest! {
        #[test]
        fn adjusted_values_are_at_least_p_at_most_one_and_keep_the_order(
            p in proptest::collection::vec(0.0f64..=1.0, 0..40)
        ) {
            let q = benjamini_hochberg(&p);
            prop_assert_eq!(q.len(), p.len());
            for (a, b) in p.iter().zip(&q) {
                // m·p/m may round one ulp below p.
                prop_assert!(*b >= *a * (1.0 - 1e-15) && *b <= 1.0);
            }
            for i in 0..p.len() {
                for j in 0..p.len() {
                    if p[i] <= p[j] {
                        prop_assert!(q[i] <= q[j]);
                    }
                }
            }
        }

        #[test]
        fn the_step_up_rule_rejects_exactly_the_hochberg_set(
            p in proptest::collection::vec(0.0f64..=1.0, 1..40),
            alpha in 0.01f64..0.2
        ) {
            // Reject the k smallest, k the largest i with p_(i) ≤ i·α/m: the same as q ≤ α.
            let m = p.len();
            let mut sorted = p.clone();
            sorted.sort_by(f64::total_cmp);
            let k = (1..=m).rev().find(|&i| sorted[i - 1] <= i as f64 * alpha / m as f64).unwrap_or(0);
            let q = benjamini_hochberg(&p);
            let rejected = q.iter().filter(|&&x| x <= alpha).count();
            prop_assert_eq!(rejected, k);
        }
    }
}
