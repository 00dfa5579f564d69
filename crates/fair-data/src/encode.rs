//! Turning raw columns into named numeric features: one-hot encoding, bucketing, quantiles.

use crate::error::{DataError, Result};
use nalgebra::DMatrix;
use std::collections::BTreeSet;

/// A one-hot encoder fitted on the categories seen in (training) data; column names are
/// `"{prefix}={category}"`.
///
/// Categories are kept in sorted order, so the encoding does not depend on row order. A value
/// not seen during fitting encodes as all zeros (the row simply belongs to no known category).
///
/// # Examples
/// ```
/// use fair_data::OneHotEncoder;
/// let enc = OneHotEncoder::fit("color", &["red", "blue", "red"]);
/// assert_eq!(enc.column_names(), vec!["color=blue", "color=red"]);
/// let cols = enc.transform(&["blue", "green"]);
/// assert_eq!(cols, vec![vec![1.0, 0.0], vec![0.0, 0.0]]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneHotEncoder {
    prefix: String,
    categories: Vec<String>,
}

impl OneHotEncoder {
    /// Learns the categories of `values`.
    pub fn fit<S: AsRef<str>>(prefix: &str, values: &[S]) -> Self {
        let set: BTreeSet<&str> = values.iter().map(AsRef::as_ref).collect();
        Self {
            prefix: prefix.to_string(),
            categories: set.into_iter().map(str::to_string).collect(),
        }
    }

    /// Uses the given categories, in the given order.
    pub fn with_categories(prefix: &str, categories: &[&str]) -> Self {
        Self {
            prefix: prefix.to_string(),
            categories: categories.iter().map(|c| c.to_string()).collect(),
        }
    }

    /// The learned categories.
    pub fn categories(&self) -> &[String] {
        &self.categories
    }

    /// One name per output column.
    pub fn column_names(&self) -> Vec<String> {
        self.categories
            .iter()
            .map(|c| format!("{}={}", self.prefix, c))
            .collect()
    }

    /// One indicator column per category (outer index: column).
    pub fn transform<S: AsRef<str>>(&self, values: &[S]) -> Vec<Vec<f64>> {
        self.categories
            .iter()
            .map(|c| {
                values
                    .iter()
                    .map(|v| if v.as_ref() == c { 1.0 } else { 0.0 })
                    .collect()
            })
            .collect()
    }
}

/// The `q`-quantile (0 ≤ q ≤ 1) of `values` by linear interpolation between order statistics
/// (numpy's default, so bins match pandas `qcut`).
pub fn quantile(values: &[f64], q: f64) -> Result<f64> {
    if values.is_empty() {
        return Err(DataError::Empty {
            what: "quantile input",
        });
    }
    if !(0.0..=1.0).contains(&q) {
        return Err(DataError::InvalidParameter {
            name: "q",
            value: q.to_string(),
            expected: "a probability in [0, 1]",
        });
    }
    if let Some((row, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(DataError::NonFinite {
            what: "quantile input",
            row,
            value,
        });
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Ok(sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64))
}

/// Index of the bucket `(edges[i], edges[i+1]]` holding `v` (pandas `cut` with right-closed
/// intervals); values at or below the first edge go to bucket 0, above the last to the last.
pub(crate) fn bucket(v: f64, edges: &[f64]) -> usize {
    let inner = &edges[1..edges.len() - 1];
    inner.iter().take_while(|&&e| v > e).count()
}

/// Columns assembled one by one with their names, then turned into a matrix.
#[derive(Debug, Default)]
pub(crate) struct ColumnBuilder {
    columns: Vec<Vec<f64>>,
    names: Vec<String>,
}

impl ColumnBuilder {
    pub(crate) fn push(&mut self, name: impl Into<String>, column: Vec<f64>) {
        self.names.push(name.into());
        self.columns.push(column);
    }

    pub(crate) fn push_one_hot<S: AsRef<str>>(&mut self, encoder: &OneHotEncoder, values: &[S]) {
        for (name, col) in encoder
            .column_names()
            .into_iter()
            .zip(encoder.transform(values))
        {
            self.push(name, col);
        }
    }

    /// One-hot columns of bucket indices, named `"{prefix}_{i}"` with the interval in words.
    pub(crate) fn push_buckets(&mut self, prefix: &str, values: &[f64], edges: &[f64]) {
        let k = edges.len() - 1;
        let idx: Vec<usize> = values.iter().map(|&v| bucket(v, edges)).collect();
        for b in 0..k {
            let name = format!("{prefix}=({},{}]", edges[b], edges[b + 1]);
            self.push(
                name,
                idx.iter()
                    .map(|&i| if i == b { 1.0 } else { 0.0 })
                    .collect(),
            );
        }
    }

    /// Column-major assembly: nalgebra stores columns contiguously, so this is one copy.
    pub(crate) fn build(self, n_rows: usize) -> (DMatrix<f64>, Vec<String>) {
        let ncols = self.columns.len();
        let data: Vec<f64> = self.columns.into_iter().flatten().collect();
        debug_assert_eq!(data.len(), n_rows * ncols);
        (DMatrix::from_vec(n_rows, ncols, data), self.names)
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn quantile_matches_numpy_linear() {
        // numpy.quantile([1, 2, 3, 4], 0.25) = 1.75
        assert!((quantile(&[4.0, 1.0, 3.0, 2.0], 0.25).unwrap() - 1.75).abs() < 1e-12);
        assert!(quantile(&[], 0.5).is_err());
        assert!(quantile(&[1.0], 1.5).is_err());
        assert!(quantile(&[f64::NAN], 0.5).is_err());
    }

    #[test]
    fn buckets_are_right_closed() {
        let edges = [-1.0, 1.0, 4000.0, 10000.0, 100000.0];
        assert_eq!(bucket(0.0, &edges), 0);
        assert_eq!(bucket(1.0, &edges), 0);
        assert_eq!(bucket(1.5, &edges), 1);
        assert_eq!(bucket(4000.0, &edges), 1);
        assert_eq!(bucket(99999.0, &edges), 3);
    }

    #[test]
    fn builder_is_column_major() {
        let mut b = ColumnBuilder::default();
        b.push("a", vec![1.0, 2.0]);
        b.push("b", vec![3.0, 4.0]);
        let (m, names) = b.build(2);
        assert_eq!(m[(1, 0)], 2.0);
        assert_eq!(m[(0, 1)], 3.0);
        assert_eq!(names, vec!["a", "b"]);
    }
}
