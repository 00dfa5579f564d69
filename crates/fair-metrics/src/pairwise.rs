//! Gaps between every pair of groups, for metrics that are not a function of one per-group
//! number (KS distances, partial parity, cross-group AUC).

use nalgebra::DMatrix;

/// Two group codes, `first < second` unless stated otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GroupPair {
    /// Code of the first group.
    pub first: usize,
    /// Code of the second group.
    pub second: usize,
}

/// A symmetric matrix of non-negative gaps between groups, with its largest entry.
#[derive(Debug, Clone, PartialEq)]
pub struct PairwiseSummary {
    /// Which metric this is.
    pub metric: &'static str,
    /// Group names, indexed by group code (rows and columns of `matrix`).
    pub names: Vec<String>,
    /// `matrix[(a, b)]` is the gap between groups `a` and `b`; the diagonal is 0.
    pub matrix: DMatrix<f64>,
    /// The largest gap over all pairs (0 for a single group).
    pub max: f64,
    /// The pair attaining `max` (the first such pair in row-major order; `(0, 0)` for one group).
    pub worst_pair: GroupPair,
}

impl PairwiseSummary {
    /// The same summary over the groups whose `keep` entry is true (in their order), its
    /// maximum and worst pair recomputed among them: how the audit keeps groups below its
    /// minimum size out of a pairwise gap.
    ///
    /// # Example
    /// ```
    /// use fair_data::Groups;
    /// let g = Groups::from_labels(&["a", "a", "b", "b", "c"]);
    /// let all = fair_metrics::ks::ks_statistic(&[0.1, 0.9, 0.5, 0.6, 0.95], &g, None)?;
    /// assert_eq!(all.max, 1.0); // c scores above every row of b
    /// let without_c = all.restrict(&[true, true, false]);
    /// assert_eq!(without_c.names, vec!["a", "b"]);
    /// assert!((without_c.max - 0.5).abs() < 1e-12);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn restrict(&self, keep: &[bool]) -> Self {
        let kept: Vec<usize> = (0..self.names.len())
            .filter(|&k| keep.get(k).copied().unwrap_or(false))
            .collect();
        let names = kept.iter().map(|&k| self.names[k].clone()).collect();
        Self::build(self.metric, names, |a, b| self.matrix[(kept[a], kept[b])])
    }

    /// Builds the summary from a function of `(a, b)` evaluated once per pair `a < b`.
    pub(crate) fn build(
        metric: &'static str,
        names: Vec<String>,
        mut gap: impl FnMut(usize, usize) -> f64,
    ) -> Self {
        let g = names.len();
        let pairs: Vec<f64> = (0..g)
            .flat_map(|a| (a + 1..g).map(move |b| (a, b)))
            .map(|(a, b)| gap(a, b))
            .collect();
        Self::from_pair_values(metric, names, &pairs)
    }

    /// [`build`](Self::build) with the pairs evaluated on rayon's threads: each pair's value is
    /// computed alone, so the summary is the same bits as the sequential one.
    pub(crate) fn build_par(
        metric: &'static str,
        names: Vec<String>,
        gap: impl Fn(usize, usize) -> f64 + Sync,
    ) -> Self {
        use rayon::prelude::*;
        let g = names.len();
        let index: Vec<(usize, usize)> = (0..g)
            .flat_map(|a| (a + 1..g).map(move |b| (a, b)))
            .collect();
        let pairs: Vec<f64> = index
            .par_iter()
            .with_max_len(1)
            .map(|&(a, b)| gap(a, b))
            .collect();
        Self::from_pair_values(metric, names, &pairs)
    }

    /// The summary from the values of the pairs `a < b` in row-major order.
    fn from_pair_values(metric: &'static str, names: Vec<String>, pairs: &[f64]) -> Self {
        let g = names.len();
        let mut matrix = DMatrix::zeros(g, g);
        let mut max = 0.0;
        let mut worst_pair = GroupPair::default();
        let index = (0..g).flat_map(|a| (a + 1..g).map(move |b| (a, b)));
        for ((a, b), &v) in index.zip(pairs) {
            matrix[(a, b)] = v;
            matrix[(b, a)] = v;
            if v > max {
                max = v;
                worst_pair = GroupPair {
                    first: a,
                    second: b,
                };
            }
        }
        Self {
            metric,
            names,
            matrix,
            max,
            worst_pair,
        }
    }
}
