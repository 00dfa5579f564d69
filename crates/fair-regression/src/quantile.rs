//! One group's fitted distribution: its empirical CDF and its interpolated quantile function,
//! in equipy's conventions (so that `sigma = 0` reproduces `FairWasserstein(sigma=0)`).
//!
//! * CDF: `F(x) = #{v_i <= x} / n` (right-continuous; statsmodels' `ECDF`, which equipy uses);
//!   with weights, the weight of the values `<= x` over the group's weight.
//! * Quantile: the linear interpolation of the sorted values `v_(0) <= … <= v_(n−1)` placed at
//!   the levels `p_k = k / (n − 1)` (equipy's `EQF`, scipy's `interp1d` on `linspace(0, 1, n)`);
//!   with weights `p_k = (c_k − c_0) / (c_{n−1} − c_0)` for the cumulative weights `c_k`, which is
//!   the same grid when the weights are equal. A group of one value is that value.

/// A group's sorted values and, for a weighted fit, their cumulative weights.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GroupFit {
    pub(crate) values: Vec<f64>,
    pub(crate) cumulative: Option<Vec<f64>>,
}

impl GroupFit {
    /// From `(value, weight)` pairs (weights `> 0`); `weighted = false` ignores the weights.
    pub(crate) fn new(mut pairs: Vec<(f64, f64)>, weighted: bool) -> Self {
        // By value, then weight: equal values in one order whatever the rows' order, so the
        // weighted grid (cumulative sums) does not depend on how the rows came.
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let values = pairs.iter().map(|p| p.0).collect();
        let cumulative = weighted.then(|| {
            let mut sum = 0.0;
            pairs
                .iter()
                .map(|p| {
                    sum += p.1;
                    sum
                })
                .collect()
        });
        Self { values, cumulative }
    }

    /// How many values are `<= x`, searching from `start` (a count known to be `<= x`'s):
    /// galloping, so a walk over increasing `x` reads the values in order.
    pub(crate) fn count_at_most_from(&self, x: f64, start: usize) -> usize {
        let v = &self.values;
        let (mut lo, mut step) = (start, 1);
        while lo + step <= v.len() && v[lo + step - 1] <= x {
            lo += step;
            step *= 2;
        }
        let hi = (lo + step).min(v.len());
        lo + v[lo..hi].partition_point(|&w| w <= x)
    }

    /// The empirical CDF given the count of values `<= x`.
    pub(crate) fn cdf_from_count(&self, below: usize) -> f64 {
        match &self.cumulative {
            None => below as f64 / self.values.len() as f64,
            Some(_) if below == 0 => 0.0,
            Some(c) => c[below - 1] / c[c.len() - 1],
        }
    }

    /// The empirical CDF at `x`, in `[0, 1]`.
    #[cfg(test)]
    pub(crate) fn cdf(&self, x: f64) -> f64 {
        self.cdf_from_count(self.count_at_most_from(x, 0))
    }

    /// The interpolated quantile function at `u ∈ [0, 1]` (clamped there).
    pub(crate) fn quantile(&self, u: f64) -> f64 {
        let v = &self.values;
        let n = v.len();
        if n == 1 {
            return v[0];
        }
        let u = u.clamp(0.0, 1.0);
        match &self.cumulative {
            None => {
                let t = u * (n - 1) as f64;
                let k = (t.floor() as usize).min(n - 2);
                v[k] + (v[k + 1] - v[k]) * (t - k as f64)
            }
            Some(c) => {
                let (first, span) = (c[0], c[n - 1] - c[0]);
                if span <= 0.0 {
                    // Weights too small to move the running sum: no grid; the lowest value.
                    return v[0];
                }
                let level = |k: usize| (c[k] - first) / span;
                // The last k with p_k <= u, kept inside 0..=n−2 so that k + 1 exists.
                let k = c.partition_point(|&ck| (ck - first) / span <= u);
                let k = k.saturating_sub(1).min(n - 2);
                let (lo, hi) = (level(k), level(k + 1));
                if hi <= lo {
                    return v[k + 1];
                }
                v[k] + (v[k + 1] - v[k]) * ((u - lo) / (hi - lo))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unweighted(values: &[f64]) -> GroupFit {
        GroupFit::new(values.iter().map(|&v| (v, 1.0)).collect(), false)
    }

    #[test]
    fn cdf_and_quantile_follow_equipy() {
        // equipy's EQF docstring: [1..10] at 0.2, 0.5, 0.8 is 2.8, 5.5, 8.2.
        let g = unweighted(&[10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]);
        for (u, q) in [(0.2, 2.8), (0.5, 5.5), (0.8, 8.2), (0.0, 1.0), (1.0, 10.0)] {
            assert!((g.quantile(u) - q).abs() < 1e-12, "{u}");
        }
        assert!((g.cdf(3.0) - 0.3).abs() < 1e-15);
        assert!((g.cdf(3.5) - 0.3).abs() < 1e-15);
        assert!(g.cdf(0.5).abs() < 1e-15);
        assert!((g.cdf(11.0) - 1.0).abs() < 1e-15);
        // The galloping count from any start at or below the answer is the plain count.
        for x in [-1.0, 1.0, 2.5, 7.0, 10.0, 12.0] {
            let exact = g.values.iter().filter(|&&v| v <= x).count();
            for start in 0..=exact {
                assert_eq!(
                    g.count_at_most_from(x, start),
                    exact,
                    "x = {x}, start = {start}"
                );
            }
        }
    }

    #[test]
    fn equal_weights_give_the_unweighted_grid() {
        let values = [0.3, -1.0, 2.5, 0.7, 1.1];
        let plain = unweighted(&values);
        let weighted = GroupFit::new(values.iter().map(|&v| (v, 2.5)).collect(), true);
        for i in 0..=20 {
            let u = f64::from(i) / 20.0;
            assert!((plain.quantile(u) - weighted.quantile(u)).abs() < 1e-12);
            let x = -1.5 + 0.2 * f64::from(i);
            assert!((plain.cdf(x) - weighted.cdf(x)).abs() < 1e-12);
        }
    }

    #[test]
    fn a_single_value_is_constant() {
        let g = unweighted(&[4.0]);
        assert!((g.quantile(0.3) - 4.0).abs() < 1e-15);
        assert!(g.cdf(3.9).abs() < 1e-15 && (g.cdf(4.0) - 1.0).abs() < 1e-15);
    }
}
