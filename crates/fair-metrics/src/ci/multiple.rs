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
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    let key = |i: usize| {
        let p = p_values[i];
        if p.is_nan() { 1.0 } else { p.clamp(0.0, 1.0) }
    };
    order.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
    let mut q = vec![0.0; m];
    let mut running = 1.0_f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        let adjusted = (key(i) * m as f64 / (rank + 1) as f64).min(1.0);
        running = running.min(adjusted);
        q[i] = running;
    }
    for (qi, p) in q.iter_mut().zip(p_values) {
        if p.is_nan() {
            *qi = f64::NAN;
        }
    }
    q
}

#[cfg(test)]
mod tests {
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
