//! Input validation and the ±1 label convention.

use crate::error::{FairSvmError, Result, invalid};
use crate::params::Fairness;
use fair_data::Groups;
use nalgebra::DMatrix;

/// Maps 0/1 class indices (fairkit's `Dataset::y()` convention, class 1 = positive) to the
/// paper's labels: 0 → −1, 1 → +1.
///
/// # Errors
/// [`FairSvmError::InvalidLabel`] for an index other than 0 or 1.
///
/// # Examples
/// ```
/// assert_eq!(fair_svm::signs_from_classes(&[0, 1, 1])?, vec![-1.0, 1.0, 1.0]);
/// assert!(fair_svm::signs_from_classes(&[2]).is_err());
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
pub fn signs_from_classes(classes: &[usize]) -> Result<Vec<f64>> {
    classes
        .iter()
        .enumerate()
        .map(|(row, &c)| match c {
            0 => Ok(-1.0),
            1 => Ok(1.0),
            _ => Err(FairSvmError::InvalidLabel {
                what: "class index",
                row,
                value: c as f64,
            }),
        })
        .collect()
}

/// Maps group membership to the protected class: rows in one of the `positive` groups get
/// z = +1, every other row z = −1 (e.g. German credit: `["rent"]` → renters +1, owners and
/// "for free" −1).
///
/// # Errors
/// [`FairSvmError::InvalidParam`] when a name in `positive` is not a group of `groups`, or when
/// `positive` is empty.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// let housing = Groups::from_labels(&["own", "rent", "for free", "rent"]);
/// let z = fair_svm::signs_from_groups(&housing, &["rent"])?;
/// assert_eq!(z, vec![-1.0, 1.0, -1.0, 1.0]);
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
pub fn signs_from_groups(groups: &Groups, positive: &[&str]) -> Result<Vec<f64>> {
    if positive.is_empty() {
        return Err(invalid("positive", "[]", "at least one group name"));
    }
    let mut is_pos = vec![false; groups.n_groups()];
    for name in positive {
        match groups.names().iter().position(|g| g == name) {
            Some(code) => is_pos[code] = true,
            None => {
                return Err(invalid(
                    "positive",
                    name,
                    "names of groups of this attribute (see Groups::names)",
                ));
            }
        }
    }
    Ok(groups
        .codes()
        .iter()
        .map(|&c| {
            if is_pos.get(c).copied().unwrap_or(false) {
                1.0
            } else {
                -1.0
            }
        })
        .collect())
}

/// Training data that passed every check, with the rows of each protected class that the
/// fairness terms use (all rows for demographic parity, rows with y = +1 for equal opportunity).
pub(crate) struct TrainData<'a> {
    pub x: &'a DMatrix<f64>,
    pub y: &'a [f64],
    /// Fairness rows with z = +1 (the paper's P).
    pub pos: Vec<usize>,
    /// Fairness rows with z = −1 (the paper's N).
    pub neg: Vec<usize>,
}

pub(crate) fn check_finite_matrix(what: &'static str, x: &DMatrix<f64>) -> Result<()> {
    for col in 0..x.ncols() {
        for row in 0..x.nrows() {
            let value = x[(row, col)];
            if !value.is_finite() {
                return Err(FairSvmError::NonFinite {
                    what,
                    row,
                    col,
                    value,
                });
            }
        }
    }
    Ok(())
}

/// `true` for exactly −1 or +1 (labels are exact codes, so exact comparison is intended).
#[allow(clippy::float_cmp)]
pub(crate) fn is_sign(v: f64) -> bool {
    v == 1.0 || v == -1.0
}

fn check_signs(what: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|&s| !is_sign(s)) {
        Some(row) => Err(FairSvmError::InvalidLabel {
            what,
            row,
            value: v[row],
        }),
        None => Ok(()),
    }
}

pub(crate) fn validate<'a>(
    x: &'a DMatrix<f64>,
    y: &'a [f64],
    z: &[f64],
    fairness: Fairness,
) -> Result<TrainData<'a>> {
    let n = x.nrows();
    if n == 0 || x.ncols() == 0 {
        return Err(FairSvmError::Empty { what: "x" });
    }
    for (what, len) in [("y", y.len()), ("z", z.len())] {
        if len != n {
            return Err(FairSvmError::LengthMismatch {
                what,
                expected: n,
                got: len,
            });
        }
    }
    check_finite_matrix("x", x)?;
    check_signs("y", y)?;
    check_signs("z", z)?;
    if y.iter().all(|&v| v > 0.0) || y.iter().all(|&v| v < 0.0) {
        return Err(FairSvmError::SingleClass { label: y[0] });
    }
    let use_row = |i: usize| match fairness {
        Fairness::DemographicParity => true,
        Fairness::EqualOpportunity => y[i] > 0.0,
    };
    let pos: Vec<usize> = (0..n).filter(|&i| use_row(i) && z[i] > 0.0).collect();
    let neg: Vec<usize> = (0..n).filter(|&i| use_row(i) && z[i] < 0.0).collect();
    let condition = match fairness {
        Fairness::DemographicParity => "",
        Fairness::EqualOpportunity => " with y = +1",
    };
    if pos.is_empty() {
        return Err(FairSvmError::EmptyGroup {
            class: 1,
            condition,
        });
    }
    if neg.is_empty() {
        return Err(FairSvmError::EmptyGroup {
            class: -1,
            condition,
        });
    }
    Ok(TrainData { x, y, pos, neg })
}

/// Checks the matrix a fitted model is applied to.
pub(crate) fn check_predict(x: &DMatrix<f64>, n_features: usize) -> Result<()> {
    if x.ncols() != n_features {
        return Err(FairSvmError::LengthMismatch {
            what: "feature columns of x (the model was fitted on another width)",
            expected: n_features,
            got: x.ncols(),
        });
    }
    check_finite_matrix("x", x)
}
