//! Input validation and the conventions: 0/1 classes and two [`Groups`], mapped to the
//! paper's ±1 labels and protected classes inside the crate.

use crate::error::{FairSvmError, Result, invalid};
use crate::params::Fairness;
use fair_data::Groups;
use nalgebra::DMatrix;

/// Maps 0/1 class indices (fairkit's `Dataset::y()` convention, class 1 = positive) to the
/// paper's labels: 0 → −1, 1 → +1.
///
/// # Errors
/// [`FairSvmError::InvalidLabel`] for an index other than 0 or 1.
pub(crate) fn signs_from_classes(classes: &[usize]) -> Result<Vec<f64>> {
    classes
        .iter()
        .enumerate()
        .map(|(row, &c)| match c {
            0 => Ok(-1.0),
            1 => Ok(1.0),
            _ => Err(FairSvmError::InvalidLabel { row, value: c }),
        })
        .collect()
}

/// Merges the groups of a protected attribute into the two protected classes the spectral fair
/// SVM compares: rows in one of the `positive` groups get group code 1 (the paper's z = +1),
/// every other row code 0 (z = −1). The two groups are named by the names they merge, joined
/// with `" | "` (e.g. German credit: `["rent"]` → `"for free | own"` (0) and `"rent"` (1)).
///
/// An attribute that already has exactly two groups needs no merging: its group with code 1
/// (the second of [`Groups::names`]) is z = +1.
///
/// # Errors
/// [`FairSvmError::InvalidParam`] when a name in `positive` is not a group of `groups`, or when
/// `positive` is empty.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// let housing = Groups::from_labels(&["own", "rent", "for free", "rent"]);
/// let z = fair_svm::one_vs_rest(&housing, &["rent"])?;
/// assert_eq!(z.codes(), &[0, 1, 0, 1]);
/// assert_eq!(z.names(), &["for free | own", "rent"]);
/// # Ok::<(), fair_svm::FairSvmError>(())
/// ```
pub fn one_vs_rest(groups: &Groups, positive: &[&str]) -> Result<Groups> {
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
    let joined = |want: bool| {
        let names: Vec<&str> = groups
            .names()
            .iter()
            .zip(&is_pos)
            .filter(|&(_, &p)| p == want)
            .map(|(n, _)| n.as_str())
            .collect();
        if names.is_empty() {
            "(none)".to_string()
        } else {
            names.join(" | ")
        }
    };
    let codes = groups
        .codes()
        .iter()
        .map(|&c| usize::from(is_pos.get(c).copied().unwrap_or(false)))
        .collect();
    Ok(Groups::new(codes, vec![joined(false), joined(true)])?)
}

/// The paper's protected class of every row from two groups: group code 1 → z = +1, code 0 →
/// z = −1.
///
/// # Errors
/// [`FairSvmError::GroupCount`] unless `groups` declares exactly two groups.
pub(crate) fn check_two_groups(groups: &Groups) -> Result<()> {
    if groups.n_groups() == 2 {
        Ok(())
    } else {
        Err(FairSvmError::GroupCount {
            got: groups.n_groups(),
            names: groups
                .names()
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

/// Training data that passed every check, with the rows of each protected class that the
/// fairness terms use (all rows for demographic parity, rows with y = +1 for equal opportunity).
pub(crate) struct TrainData<'a> {
    pub x: &'a DMatrix<f64>,
    /// The labels as the paper's ±1 (class 1 → +1, class 0 → −1).
    pub y: Vec<f64>,
    /// Fairness rows of group code 1, z = +1 (the paper's P).
    pub pos: Vec<usize>,
    /// Fairness rows of group code 0, z = −1 (the paper's N).
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

pub(crate) fn validate<'a>(
    x: &'a DMatrix<f64>,
    y: &[usize],
    groups: &Groups,
    fairness: Fairness,
) -> Result<TrainData<'a>> {
    let n = x.nrows();
    if n == 0 || x.ncols() == 0 {
        return Err(FairSvmError::Empty { what: "x" });
    }
    for (what, len) in [("y", y.len()), ("groups", groups.len())] {
        if len != n {
            return Err(FairSvmError::LengthMismatch {
                what,
                expected: n,
                got: len,
            });
        }
    }
    check_two_groups(groups)?;
    check_finite_matrix("x", x)?;
    let y = signs_from_classes(y)?;
    if y.iter().all(|&v| v > 0.0) || y.iter().all(|&v| v < 0.0) {
        return Err(FairSvmError::SingleClass {
            class: usize::from(y[0] > 0.0),
        });
    }
    let use_row = |i: usize| match fairness {
        Fairness::DemographicParity => true,
        Fairness::EqualOpportunity => y[i] > 0.0,
    };
    let codes = groups.codes();
    let pos: Vec<usize> = (0..n).filter(|&i| use_row(i) && codes[i] == 1).collect();
    let neg: Vec<usize> = (0..n).filter(|&i| use_row(i) && codes[i] == 0).collect();
    let condition = match fairness {
        Fairness::DemographicParity => "",
        Fairness::EqualOpportunity => " with y = 1",
    };
    for (code, rows) in [(1, &pos), (0, &neg)] {
        if rows.is_empty() {
            return Err(FairSvmError::EmptyGroup {
                group: groups.names()[code].clone(),
                code,
                condition,
            });
        }
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
