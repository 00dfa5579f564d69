//! Input checks shared by every metric.
//!
//! The checks run before any arithmetic, so a metric either gets clean input or returns a typed
//! error; nothing downstream has to guard against NaN, out-of-range labels or mismatched lengths.
//! The hot one-pass accumulators (confusion counts) fuse these checks into their loop instead of
//! calling the slice-wide helpers here, so they read memory only once.

use crate::error::{MetricError, Result};
use fair_data::Groups;

/// Where a row's sample weight comes from. Generic so the unweighted loops compile to `+= 1.0`
/// without a per-row branch on `Option`.
pub(crate) trait RowWeight: Copy {
    /// Weight of row `i` (the caller guarantees `i` is in bounds).
    fn at(self, i: usize) -> f64;
}

/// Every row weighs 1.
#[derive(Clone, Copy)]
pub(crate) struct Unit;

impl RowWeight for Unit {
    #[inline(always)]
    fn at(self, _: usize) -> f64 {
        1.0
    }
}

impl RowWeight for &[f64] {
    #[inline(always)]
    fn at(self, i: usize) -> f64 {
        self[i]
    }
}

/// Fails with [`MetricError::LengthMismatch`] unless `got == expected`.
pub(crate) fn check_len(what: &'static str, expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(MetricError::LengthMismatch {
            what,
            expected,
            got,
        })
    }
}

/// Fails with [`MetricError::Empty`] when `n == 0`.
pub(crate) fn check_nonempty(what: &'static str, n: usize) -> Result<()> {
    if n == 0 {
        Err(MetricError::Empty { what })
    } else {
        Ok(())
    }
}

/// Every value must be a class in `0..n_classes`.
pub(crate) fn check_classes(what: &'static str, values: &[usize], n_classes: usize) -> Result<()> {
    match values.iter().position(|&v| v >= n_classes) {
        None => Ok(()),
        Some(row) => Err(MetricError::LabelOutOfRange {
            what,
            row,
            label: values[row],
            n_classes,
        }),
    }
}

/// Every value must be finite.
pub(crate) fn check_finite(what: &'static str, values: &[f64]) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(row) => Err(MetricError::NonFinite {
            what,
            row,
            value: values[row],
        }),
    }
}

/// The error for one bad weight, told apart by kind (non-finite before negative, so that a
/// negative infinity is reported as non-finite).
#[cold]
pub(crate) fn bad_weight(row: usize, value: f64) -> MetricError {
    if value.is_finite() {
        MetricError::NegativeWeight { row, value }
    } else {
        MetricError::NonFinite {
            what: "sample weights",
            row,
            value,
        }
    }
}

/// True for a usable weight: finite and `>= 0`.
#[inline(always)]
pub(crate) fn weight_ok(w: f64) -> bool {
    (0.0..f64::INFINITY).contains(&w)
}

/// Optional weights must cover `n` rows, be finite and `>= 0`, and have a positive total.
pub(crate) fn check_weights(weights: Option<&[f64]>, n: usize) -> Result<()> {
    let Some(w) = weights else {
        return Ok(());
    };
    check_len("sample weights", n, w.len())?;
    if let Some(row) = w.iter().position(|&v| !weight_ok(v)) {
        return Err(bad_weight(row, w[row]));
    }
    let total = w.iter().sum::<f64>();
    // Weights are >= 0, so a finite total bounds every group's and every bucket's total: one
    // check here keeps ∞/∞ = NaN out of every score metric (found by the `metrics` fuzz target).
    if !total.is_finite() {
        return Err(MetricError::WeightOverflow {
            group: "all rows".into(),
        });
    }
    if total > 0.0 {
        Ok(())
    } else {
        Err(MetricError::ZeroTotalWeight { what: "all rows" })
    }
}

/// The group membership must describe exactly `n` rows.
pub(crate) fn check_groups(groups: &Groups, n: usize) -> Result<()> {
    check_len("groups", n, groups.len())
}

/// A group code passed as a parameter must name a declared group.
pub(crate) fn check_group_code(name: &'static str, code: usize, groups: usize) -> Result<()> {
    if code < groups {
        Ok(())
    } else {
        Err(MetricError::InvalidParameter {
            name,
            value: code.to_string(),
            expected: "a group code below the number of declared groups",
        })
    }
}

/// Every declared group must have rows with positive total weight; the error names the first
/// that has none. (Metrics that filter rows by label call this first, so an empty group is
/// reported as empty rather than as lacking rows of that label.)
pub(crate) fn check_groups_have_weight(groups: &Groups, weights: Option<&[f64]>) -> Result<()> {
    let mut totals = vec![0.0_f64; groups.n_groups()];
    for (i, &g) in groups.codes().iter().enumerate() {
        totals[g] += weights.map_or(1.0, |w| w[i]);
    }
    match totals.iter().position(|&t| t <= 0.0) {
        None => Ok(()),
        Some(g) => Err(MetricError::EmptyGroup {
            group: groups.names()[g].clone(),
        }),
    }
}
