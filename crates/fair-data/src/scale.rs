//! Feature scaling fitted on the training part only, then applied to any part.

use crate::error::{DataError, Result};
use nalgebra::{DMatrix, DVector};

/// How a fitted scaler maps column `j`: `x' = (x − shift[j]) / scale[j]`.
#[derive(Debug, Clone, PartialEq)]
struct Affine {
    shift: DVector<f64>,
    scale: DVector<f64>,
}

impl Affine {
    fn apply(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        if x.ncols() != self.shift.len() {
            return Err(DataError::LengthMismatch {
                what: "feature columns (scaler was fitted on another width)",
                expected: self.shift.len(),
                got: x.ncols(),
            });
        }
        let mut out = x.clone();
        for (j, mut col) in out.column_iter_mut().enumerate() {
            let (s, k) = (self.shift[j], self.scale[j]);
            col.apply(|v| *v = (*v - s) / k);
        }
        Ok(out)
    }
}

fn check_fit_input(x: &DMatrix<f64>) -> Result<()> {
    if x.nrows() == 0 {
        return Err(DataError::Empty {
            what: "training matrix",
        });
    }
    if let Some((i, &value)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(DataError::NonFinite {
            what: "training matrix",
            row: i % x.nrows(),
            value,
        });
    }
    Ok(())
}

/// Standardization: subtract the training mean, divide by the training (population) standard
/// deviation; constant columns are only centred. Matches scikit-learn's `StandardScaler`.
///
/// # Examples
/// ```
/// use fair_data::Standardizer;
/// use nalgebra::DMatrix;
/// let train = DMatrix::from_row_slice(2, 1, &[1.0, 3.0]);
/// let s = Standardizer::fit(&train)?;
/// let z = s.transform(&DMatrix::from_row_slice(1, 1, &[5.0]))?;
/// assert_eq!(z[(0, 0)], 3.0); // (5 − 2) / 1
/// # Ok::<(), fair_data::DataError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Standardizer(Affine);

impl Standardizer {
    /// Learns column means and standard deviations.
    ///
    /// # Errors
    /// [`DataError::Empty`] for no rows, [`DataError::NonFinite`] for NaN or infinite values.
    pub fn fit(x: &DMatrix<f64>) -> Result<Self> {
        check_fit_input(x)?;
        let n = x.nrows() as f64;
        let shift = DVector::from_iterator(x.ncols(), x.column_iter().map(|c| c.sum() / n));
        let scale = DVector::from_iterator(
            x.ncols(),
            x.column_iter().zip(shift.iter()).map(|(c, &m)| {
                let sd = (c.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n).sqrt();
                if sd > 0.0 { sd } else { 1.0 }
            }),
        );
        Ok(Self(Affine { shift, scale }))
    }

    /// Applies the fitted transform.
    ///
    /// # Errors
    /// [`DataError::LengthMismatch`] when `x` has another number of columns.
    pub fn transform(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        self.0.apply(x)
    }

    /// Column means learned at fit time.
    pub fn means(&self) -> &DVector<f64> {
        &self.0.shift
    }

    /// Column standard deviations learned at fit time (1 for constant columns).
    pub fn std_devs(&self) -> &DVector<f64> {
        &self.0.scale
    }
}

/// Min-max scaling to `[0, 1]` on the training range; constant columns map to 0. Values outside
/// the training range map outside `[0, 1]` (as scikit-learn's `MinMaxScaler` without clipping).
#[derive(Debug, Clone, PartialEq)]
pub struct MinMaxScaler(Affine);

impl MinMaxScaler {
    /// Learns column minima and ranges.
    ///
    /// # Errors
    /// As [`Standardizer::fit`].
    pub fn fit(x: &DMatrix<f64>) -> Result<Self> {
        check_fit_input(x)?;
        let shift = DVector::from_iterator(x.ncols(), x.column_iter().map(|c| c.min()));
        let scale = DVector::from_iterator(
            x.ncols(),
            x.column_iter().zip(shift.iter()).map(|(c, &lo)| {
                let r = c.max() - lo;
                if r > 0.0 { r } else { 1.0 }
            }),
        );
        Ok(Self(Affine { shift, scale }))
    }

    /// Applies the fitted transform.
    ///
    /// # Errors
    /// [`DataError::LengthMismatch`] when `x` has another number of columns.
    pub fn transform(&self, x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
        self.0.apply(x)
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn standardizer_hand_computed() {
        // column [1, 2, 3, 6]: mean 3, population variance (4+1+0+9)/4 = 3.5
        let x = DMatrix::from_row_slice(4, 2, &[1.0, 7.0, 2.0, 7.0, 3.0, 7.0, 6.0, 7.0]);
        let s = Standardizer::fit(&x).unwrap();
        let z = s.transform(&x).unwrap();
        assert!((z[(3, 0)] - 3.0 / 3.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(z[(0, 1)], 0.0); // constant column is only centred
        assert!(s.transform(&DMatrix::zeros(1, 3)).is_err());
    }

    #[test]
    fn minmax_hand_computed() {
        let x = DMatrix::from_row_slice(3, 1, &[2.0, 4.0, 6.0]);
        let m = MinMaxScaler::fit(&x).unwrap();
        let z = m
            .transform(&DMatrix::from_row_slice(2, 1, &[4.0, 10.0]))
            .unwrap();
        assert_eq!(z[(0, 0)], 0.5);
        assert_eq!(z[(1, 0)], 2.0);
        assert!(MinMaxScaler::fit(&DMatrix::from_row_slice(1, 1, &[f64::NAN])).is_err());
        assert!(MinMaxScaler::fit(&DMatrix::zeros(0, 1)).is_err());
    }
}
