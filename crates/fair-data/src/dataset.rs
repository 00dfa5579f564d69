//! The validated dataset type every fairkit crate trains and evaluates on.

use crate::error::{DataError, Result};
use fair_core::Groups;
use nalgebra::DMatrix;

/// A named sensitive attribute: its name (e.g. `"sex"`) and the group of every row.
#[derive(Debug, Clone, PartialEq)]
pub struct SensitiveAttribute {
    /// Attribute name.
    pub name: String,
    /// Group membership of every row.
    pub groups: Groups,
}

/// Features, labels and sensitive attributes of `n` rows, validated once at construction.
///
/// * `x` is `n × d`, every entry finite, with one name per column;
/// * labels are class indices in `0..class_names.len()` (binary tasks: class 1 is the positive
///   class, named in `class_names[1]`);
/// * each sensitive attribute covers all `n` rows; intersectional groups come from
///   [`Dataset::intersection`].
///
/// # Examples
/// ```
/// use fair_data::{Dataset, Groups, SensitiveAttribute};
/// use nalgebra::DMatrix;
/// let x = DMatrix::from_row_slice(3, 1, &[0.5, 1.0, 2.0]);
/// let sex = SensitiveAttribute { name: "sex".into(), groups: Groups::from_labels(&["F", "M", "F"]) };
/// let ds = Dataset::new("toy", x, vec!["income".into()], vec![0, 1, 1],
///                       vec!["no".into(), "yes".into()], vec![sex])?;
/// assert_eq!(ds.n_rows(), 3);
/// assert_eq!(ds.groups("sex")?.counts(), vec![2, 1]);
/// # Ok::<(), fair_data::DataError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    name: String,
    x: DMatrix<f64>,
    feature_names: Vec<String>,
    y: Vec<usize>,
    class_names: Vec<String>,
    sensitive: Vec<SensitiveAttribute>,
}

impl Dataset {
    /// Builds and validates a dataset.
    ///
    /// # Errors
    /// [`DataError::Empty`] for zero rows or fewer than two classes' names,
    /// [`DataError::LengthMismatch`] when feature names, labels or an attribute do not match `x`,
    /// [`DataError::NonFinite`] for NaN or infinite features, [`DataError::LabelOutOfRange`] for a
    /// label without a class name.
    pub fn new(
        name: impl Into<String>,
        x: DMatrix<f64>,
        feature_names: Vec<String>,
        y: Vec<usize>,
        class_names: Vec<String>,
        sensitive: Vec<SensitiveAttribute>,
    ) -> Result<Self> {
        let n = x.nrows();
        if n == 0 {
            return Err(DataError::Empty {
                what: "feature matrix",
            });
        }
        if feature_names.len() != x.ncols() {
            return Err(DataError::LengthMismatch {
                what: "feature names",
                expected: x.ncols(),
                got: feature_names.len(),
            });
        }
        if y.len() != n {
            return Err(DataError::LengthMismatch {
                what: "labels",
                expected: n,
                got: y.len(),
            });
        }
        if class_names.len() < 2 {
            return Err(DataError::InvalidParameter {
                name: "class_names",
                value: format!("{class_names:?}"),
                expected: "at least two class names",
            });
        }
        if let Some((row, &label)) = y.iter().enumerate().find(|(_, l)| **l >= class_names.len()) {
            return Err(DataError::LabelOutOfRange {
                row,
                label,
                n_classes: class_names.len(),
            });
        }
        for (col, column) in x.column_iter().enumerate() {
            if let Some((row, &value)) = column.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                let _ = col;
                return Err(DataError::NonFinite {
                    what: "feature matrix",
                    row,
                    value,
                });
            }
        }
        for attr in &sensitive {
            if attr.groups.len() != n {
                return Err(DataError::LengthMismatch {
                    what: "sensitive attribute",
                    expected: n,
                    got: attr.groups.len(),
                });
            }
        }
        Ok(Self {
            name: name.into(),
            x,
            feature_names,
            y,
            class_names,
            sensitive,
        })
    }

    /// Dataset name (recipe name for the embedded datasets).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The `n × d` feature matrix.
    pub fn x(&self) -> &DMatrix<f64> {
        &self.x
    }
    /// Column names of [`Dataset::x`].
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }
    /// Class index of every row.
    pub fn y(&self) -> &[usize] {
        &self.y
    }
    /// Class names, indexed by class.
    pub fn class_names(&self) -> &[String] {
        &self.class_names
    }
    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.class_names.len()
    }
    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.x.nrows()
    }
    /// Number of feature columns.
    pub fn n_features(&self) -> usize {
        self.x.ncols()
    }
    /// All sensitive attributes.
    pub fn sensitive(&self) -> &[SensitiveAttribute] {
        &self.sensitive
    }

    /// Rows per class.
    pub fn class_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.class_names.len()];
        for &c in &self.y {
            counts[c] += 1;
        }
        counts
    }

    /// Fraction of rows in class 1 (the positive class of a binary task).
    pub fn positive_rate(&self) -> f64 {
        self.class_counts()[1] as f64 / self.n_rows() as f64
    }

    /// The groups of the attribute called `name`.
    ///
    /// # Errors
    /// [`DataError::MissingColumn`] when there is no such attribute.
    pub fn groups(&self, name: &str) -> Result<&Groups> {
        self.sensitive
            .iter()
            .find(|a| a.name == name)
            .map(|a| &a.groups)
            .ok_or_else(|| DataError::MissingColumn {
                name: name.to_string(),
                available: self.attribute_names().join(", "),
            })
    }

    /// Intersectional groups of several attributes (see [`Groups::intersect`]).
    ///
    /// # Errors
    /// [`DataError::MissingColumn`] for an unknown attribute, [`DataError::Empty`] for none.
    pub fn intersection(&self, names: &[&str]) -> Result<Groups> {
        let parts = names
            .iter()
            .map(|n| self.groups(n))
            .collect::<Result<Vec<_>>>()?;
        Ok(Groups::intersect(&parts)?)
    }

    fn attribute_names(&self) -> Vec<&str> {
        self.sensitive.iter().map(|a| a.name.as_str()).collect()
    }

    /// The rows at `indices`, in that order; every declared group and class is kept.
    ///
    /// # Errors
    /// [`DataError::InvalidParameter`] for an out-of-bounds index, [`DataError::Empty`] for no index.
    pub fn select(&self, indices: &[usize]) -> Result<Self> {
        if indices.is_empty() {
            return Err(DataError::Empty {
                what: "row selection",
            });
        }
        if let Some(&bad) = indices.iter().find(|&&i| i >= self.n_rows()) {
            return Err(DataError::InvalidParameter {
                name: "row index",
                value: bad.to_string(),
                expected: "an index below the number of rows",
            });
        }
        let x = self.x.select_rows(indices);
        let sensitive = self
            .sensitive
            .iter()
            .map(|a| {
                Ok(SensitiveAttribute {
                    name: a.name.clone(),
                    groups: a.groups.select(indices)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            name: self.name.clone(),
            x,
            feature_names: self.feature_names.clone(),
            y: indices.iter().map(|&i| self.y[i]).collect(),
            class_names: self.class_names.clone(),
            sensitive,
        })
    }

    /// The same rows with the named feature columns removed (e.g. to keep a sensitive attribute
    /// out of the model's input).
    ///
    /// # Errors
    /// [`DataError::MissingColumn`] for a name that is not a feature.
    pub fn drop_features(&self, names: &[&str]) -> Result<Self> {
        for n in names {
            if !self.feature_names.iter().any(|f| f == n) {
                return Err(DataError::MissingColumn {
                    name: n.to_string(),
                    available: self.feature_names.join(", "),
                });
            }
        }
        let keep: Vec<usize> = (0..self.n_features())
            .filter(|&j| !names.contains(&self.feature_names[j].as_str()))
            .collect();
        Ok(Self {
            x: self.x.select_columns(&keep),
            feature_names: keep
                .iter()
                .map(|&j| self.feature_names[j].clone())
                .collect(),
            ..self.clone()
        })
    }

    /// The same rows with new labels (e.g. a continuous target binned into classes).
    ///
    /// # Errors
    /// As [`Dataset::new`] for the labels.
    pub fn with_labels(&self, y: Vec<usize>, class_names: Vec<String>) -> Result<Self> {
        Self::new(
            self.name.clone(),
            self.x.clone(),
            self.feature_names.clone(),
            y,
            class_names,
            self.sensitive.clone(),
        )
    }

    /// The same dataset with its feature matrix replaced (e.g. by a scaled copy).
    ///
    /// # Errors
    /// As [`Dataset::new`] when `x` has a different shape or non-finite values.
    pub fn with_features(&self, x: DMatrix<f64>) -> Result<Self> {
        if x.shape() != self.x.shape() {
            return Err(DataError::LengthMismatch {
                what: "replacement feature matrix (rows × columns)",
                expected: self.x.nrows() * self.x.ncols(),
                got: x.nrows() * x.ncols(),
            });
        }
        Self::new(
            self.name.clone(),
            x,
            self.feature_names.clone(),
            self.y.clone(),
            self.class_names.clone(),
            self.sensitive.clone(),
        )
    }
}

impl Dataset {
    /// The same dataset under another name.
    pub fn renamed(self, name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ..self
        }
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    fn toy() -> Dataset {
        let x = DMatrix::from_row_slice(4, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        let g = SensitiveAttribute {
            name: "g".into(),
            groups: Groups::from_labels(&["a", "b", "a", "b"]),
        };
        Dataset::new(
            "toy",
            x,
            vec!["f0".into(), "f1".into()],
            vec![0, 1, 1, 0],
            vec!["neg".into(), "pos".into()],
            vec![g],
        )
        .unwrap()
    }

    #[test]
    fn select_keeps_rows_in_order() {
        let d = toy().select(&[2, 0]).unwrap();
        assert_eq!(d.y(), &[1, 0]);
        assert_eq!(d.x()[(0, 1)], 6.0);
        assert_eq!(d.groups("g").unwrap().codes(), &[0, 0]);
    }

    #[test]
    fn rejects_nan_feature() {
        let x = DMatrix::from_row_slice(2, 1, &[1.0, f64::NAN]);
        let err = Dataset::new(
            "t",
            x,
            vec!["f".into()],
            vec![0, 1],
            vec!["a".into(), "b".into()],
            vec![],
        )
        .unwrap_err();
        assert!(matches!(err, DataError::NonFinite { row: 1, .. }));
    }

    #[test]
    fn rejects_label_out_of_range() {
        let x = DMatrix::from_row_slice(2, 1, &[1.0, 2.0]);
        let err = Dataset::new(
            "t",
            x,
            vec!["f".into()],
            vec![0, 2],
            vec!["a".into(), "b".into()],
            vec![],
        )
        .unwrap_err();
        assert!(matches!(
            err,
            DataError::LabelOutOfRange {
                row: 1,
                label: 2,
                ..
            }
        ));
    }

    #[test]
    fn rejects_attribute_length_mismatch() {
        let x = DMatrix::from_row_slice(2, 1, &[1.0, 2.0]);
        let g = SensitiveAttribute {
            name: "g".into(),
            groups: Groups::from_labels(&["a"]),
        };
        let err = Dataset::new(
            "t",
            x,
            vec!["f".into()],
            vec![0, 1],
            vec!["a".into(), "b".into()],
            vec![g],
        )
        .unwrap_err();
        assert!(matches!(err, DataError::LengthMismatch { .. }));
    }

    #[test]
    fn drop_features_and_unknown_attribute() {
        let d = toy().drop_features(&["f0"]).unwrap();
        assert_eq!(d.feature_names(), &["f1"]);
        assert_eq!(d.x()[(1, 0)], 4.0);
        assert!(matches!(
            toy().groups("race"),
            Err(DataError::MissingColumn { .. })
        ));
        assert!(toy().select(&[9]).is_err());
    }
}
