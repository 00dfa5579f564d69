//! Seeded train / validation / test splits, optionally stratified.

use crate::dataset::Dataset;
use crate::error::{DataError, Result};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Row indices of a train / validation / test partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitIndices {
    /// Training rows.
    pub train: Vec<usize>,
    /// Validation rows (empty when no validation fraction was asked for).
    pub validation: Vec<usize>,
    /// Test rows.
    pub test: Vec<usize>,
}

/// How to split: fractions, seed and an optional stratification key.
///
/// | Name | Default | Range |
/// |---|---|---|
/// | `validation` | 0.0 | `[0, 1)` |
/// | `test` | 0.3 | `[0, 1)`, `validation + test < 1` |
/// | `seed` | 0 | any |
///
/// Stratified splits shuffle each stratum separately and give it `round(fraction × size)` test
/// and validation rows, so class (or class × group) proportions are kept.
///
/// # Examples
/// ```
/// use fair_data::Splitter;
/// let s = Splitter::new().test(0.25).seed(7).split(8)?;
/// assert_eq!((s.train.len(), s.test.len()), (6, 2));
/// assert_eq!(s, Splitter::new().test(0.25).seed(7).split(8)?); // same seed, same split
/// # Ok::<(), fair_data::DataError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Splitter {
    validation: f64,
    test: f64,
    seed: u64,
}

impl Default for Splitter {
    fn default() -> Self {
        Self {
            validation: 0.0,
            test: 0.3,
            seed: 0,
        }
    }
}

impl Splitter {
    /// A 70/30 train/test splitter with seed 0.
    pub fn new() -> Self {
        Self::default()
    }
    /// Fraction of rows for validation.
    pub fn validation(mut self, fraction: f64) -> Self {
        self.validation = fraction;
        self
    }
    /// Fraction of rows for test.
    pub fn test(mut self, fraction: f64) -> Self {
        self.test = fraction;
        self
    }
    /// Seed of the ChaCha8 shuffle.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    fn check(&self, n: usize) -> Result<()> {
        let ok = |f: f64| (0.0..1.0).contains(&f);
        if !ok(self.validation) || !ok(self.test) || self.validation + self.test >= 1.0 {
            return Err(DataError::InvalidParameter {
                name: "validation/test fractions",
                value: format!("{} / {}", self.validation, self.test),
                expected: "each in [0, 1) with a sum below 1",
            });
        }
        if n == 0 {
            return Err(DataError::Empty {
                what: "rows to split",
            });
        }
        Ok(())
    }

    /// A random split of rows `0..n`.
    ///
    /// # Errors
    /// [`DataError::InvalidParameter`] for bad fractions, [`DataError::Empty`] for `n = 0`.
    pub fn split(&self, n: usize) -> Result<SplitIndices> {
        self.split_stratified(&vec![0; n])
    }

    /// A split that keeps the proportions of each value of `strata` (e.g. labels, or a
    /// label × group code).
    ///
    /// # Errors
    /// As [`Splitter::split`].
    pub fn split_stratified(&self, strata: &[usize]) -> Result<SplitIndices> {
        self.check(strata.len())?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let n_strata = strata.iter().max().map_or(0, |m| m + 1);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); n_strata];
        for (i, &s) in strata.iter().enumerate() {
            members[s].push(i);
        }
        let mut out = SplitIndices {
            train: Vec::new(),
            validation: Vec::new(),
            test: Vec::new(),
        };
        for mut m in members {
            m.shuffle(&mut rng);
            let n_test = (self.test * m.len() as f64).round() as usize;
            let n_val = ((self.validation * m.len() as f64).round() as usize).min(m.len() - n_test);
            out.test.extend_from_slice(&m[..n_test]);
            out.validation.extend_from_slice(&m[n_test..n_test + n_val]);
            out.train.extend_from_slice(&m[n_test + n_val..]);
        }
        // Interleave strata so that downstream mini-batches are not sorted by class.
        out.train.shuffle(&mut rng);
        out.validation.shuffle(&mut rng);
        out.test.shuffle(&mut rng);
        Ok(out)
    }

    /// Splits a dataset into (train, validation, test); the validation part is `None` when its
    /// fraction is 0. Stratifies on the label when `stratify` is true.
    ///
    /// # Errors
    /// As [`Splitter::split`]; [`DataError::Empty`] when a part would have no rows.
    pub fn split_dataset(
        &self,
        data: &Dataset,
        stratify: bool,
    ) -> Result<(Dataset, Option<Dataset>, Dataset)> {
        let idx = if stratify {
            self.split_stratified(data.y())?
        } else {
            self.split(data.n_rows())?
        };
        let validation = if idx.validation.is_empty() {
            None
        } else {
            Some(data.select(&idx.validation)?)
        };
        Ok((
            data.select(&idx.train)?,
            validation,
            data.select(&idx.test)?,
        ))
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn partition_covers_every_row_once() {
        let s = Splitter::new()
            .validation(0.1)
            .test(0.2)
            .seed(3)
            .split(1000)
            .unwrap();
        let mut all: Vec<usize> = s
            .train
            .iter()
            .chain(&s.validation)
            .chain(&s.test)
            .copied()
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..1000).collect::<Vec<_>>());
        assert_eq!(
            (s.train.len(), s.validation.len(), s.test.len()),
            (700, 100, 200)
        );
    }

    #[test]
    fn stratified_keeps_proportions() {
        let strata: Vec<usize> = (0..1000).map(|i| usize::from(i % 10 == 0)).collect();
        let s = Splitter::new()
            .test(0.3)
            .seed(1)
            .split_stratified(&strata)
            .unwrap();
        let pos_test = s.test.iter().filter(|&&i| strata[i] == 1).count();
        assert_eq!(pos_test, 30);
    }

    #[test]
    fn different_seeds_differ_and_bad_fractions_fail() {
        let a = Splitter::new().seed(1).split(100).unwrap();
        let b = Splitter::new().seed(2).split(100).unwrap();
        assert_ne!(a, b);
        assert!(Splitter::new().test(0.7).validation(0.3).split(10).is_err());
        assert!(Splitter::new().test(-0.1).split(10).is_err());
        assert!(Splitter::new().split(0).is_err());
    }
}
