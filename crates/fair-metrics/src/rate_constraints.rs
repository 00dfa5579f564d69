//! Rates on a subset of rows, as used by rate constraints (Cotter et al., the paper behind
//! TFCO): coverage, TPR/FPR/TNR/FNR, error and accuracy on a subset, and churn / win / loss
//! against a baseline classifier's predictions.
//!
//! A subset is all rows, a boolean mask, or one group. Every rate is weighted and normalised by
//! the subset's total weight (or by the label / baseline-correct part of it where stated).

use crate::confusion::{ConfusionCounts, Rate};
use crate::error::{MetricError, Result};
use crate::validate::{
    check_classes, check_group_code, check_groups, check_len, check_nonempty, check_weights,
};
use crate::zero_division::ZeroDivision;
use fair_data::Groups;

/// Which rows a rate is computed on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Subset<'a> {
    /// Every row.
    All,
    /// The rows where the mask is `true` (one entry per row).
    Mask(&'a [bool]),
    /// The rows of one group.
    Group {
        /// Group membership of every row.
        groups: &'a Groups,
        /// Code of the group.
        code: usize,
    },
}

impl Subset<'_> {
    /// Validates the subset against `n` rows and returns its name for error messages.
    fn check(&self, n: usize) -> Result<String> {
        match self {
            Subset::All => Ok("all rows".into()),
            Subset::Mask(m) => {
                check_len("subset mask", n, m.len())?;
                Ok("mask subset".into())
            }
            Subset::Group { groups, code } => {
                check_groups(groups, n)?;
                check_group_code("subset group code", *code, groups.n_groups())?;
                Ok(groups.names()[*code].clone())
            }
        }
    }

    #[inline(always)]
    fn contains(&self, row: usize) -> bool {
        match self {
            Subset::All => true,
            Subset::Mask(m) => m[row],
            Subset::Group { groups, code } => groups.codes()[row] == *code,
        }
    }
}

/// Every confusion rate on one subset (TFCO's `rate_context(...).subset(...)` rates).
#[derive(Debug, Clone, PartialEq)]
pub struct SubsetRates {
    /// The subset's weighted confusion counts (the rates below are ratios of these).
    pub counts: ConfusionCounts,
    /// `p⁺`: fraction predicted 1 (coverage).
    pub positive_prediction_rate: f64,
    /// `p⁻`: fraction predicted 0.
    pub negative_prediction_rate: f64,
    /// `p⁺(D[y=1])`; `None` when skipped (no positives).
    pub true_positive_rate: Option<f64>,
    /// `p⁺(D[y=0])`; `None` when skipped (no negatives).
    pub false_positive_rate: Option<f64>,
    /// `p⁻(D[y=0])`; `None` when skipped (no negatives).
    pub true_negative_rate: Option<f64>,
    /// `p⁻(D[y=1])`; `None` when skipped (no positives).
    pub false_negative_rate: Option<f64>,
    /// Fraction with prediction ≠ label.
    pub error_rate: f64,
    /// Fraction with prediction = label.
    pub accuracy: f64,
}

/// Churn, wins and losses of new predictions against a baseline's, on one subset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChurnRates {
    /// Total weight of the subset.
    pub subset_weight: f64,
    /// Weight where the new prediction is correct and the baseline's is wrong.
    pub wins: f64,
    /// Weight where the baseline's prediction is correct and the new one is wrong.
    pub losses: f64,
    /// Fraction of the subset whose prediction changed (needs no labels).
    pub churn: f64,
    /// `wins / subset_weight`.
    pub win_rate: f64,
    /// `losses / subset_weight`.
    pub loss_rate: f64,
    /// `losses / weight{baseline correct}` (the paper's Table 1 loss-only churn; its eq. 13
    /// divides by the subset size instead, which is `loss_rate`). `None` when skipped.
    pub loss_only_churn: Option<f64>,
}

/// Shared checks; returns the subset's name.
fn check_inputs(
    y_true: Option<&[usize]>,
    y_pred: &[usize],
    baseline: Option<&[usize]>,
    weights: Option<&[f64]>,
    subset: &Subset<'_>,
) -> Result<String> {
    let n = y_pred.len();
    check_nonempty("predictions", n)?;
    if let Some(t) = y_true {
        check_len("labels", n, t.len())?;
        check_classes("labels", t, 2)?;
    }
    check_classes("predictions", y_pred, 2)?;
    if let Some(b) = baseline {
        check_len("baseline predictions", n, b.len())?;
        check_classes("baseline predictions", b, 2)?;
    }
    check_weights(weights, n)?;
    subset.check(n)
}

fn empty_subset(name: String) -> MetricError {
    MetricError::EmptyGroup { group: name }
}

/// Fraction of the subset predicted 1 (coverage, `p⁺`); needs no labels.
///
/// # Errors
/// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`],
/// bad weights, an invalid subset, and [`MetricError::EmptyGroup`] for a subset without weight.
pub fn positive_prediction_rate(
    y_pred: &[usize],
    weights: Option<&[f64]>,
    subset: Subset<'_>,
) -> Result<f64> {
    let name = check_inputs(None, y_pred, None, weights, &subset)?;
    let (mut pos, mut total) = (0.0, 0.0);
    for (i, &p) in y_pred.iter().enumerate() {
        if subset.contains(i) {
            let w = weights.map_or(1.0, |w| w[i]);
            total += w;
            pos += w * p as f64;
        }
    }
    if total <= 0.0 {
        return Err(empty_subset(name));
    }
    Ok((pos / total).clamp(0.0, 1.0))
}

/// All confusion rates on the subset.
///
/// # Errors
/// As [`positive_prediction_rate`], plus label errors and [`MetricError::UndefinedRate`] (group
/// named after the subset) for a TPR/FPR/TNR/FNR without denominator under
/// [`ZeroDivision::Error`].
pub fn subset_rates(
    y_true: &[usize],
    y_pred: &[usize],
    weights: Option<&[f64]>,
    subset: Subset<'_>,
    zero_division: ZeroDivision,
) -> Result<SubsetRates> {
    let name = check_inputs(Some(y_true), y_pred, None, weights, &subset)?;
    let mut cells = [0.0_f64; 4];
    for (i, (&t, &p)) in y_true.iter().zip(y_pred).enumerate() {
        if subset.contains(i) {
            cells[2 * t + p] += weights.map_or(1.0, |w| w[i]);
        }
    }
    let counts = ConfusionCounts {
        tn: cells[0],
        fp: cells[1],
        fn_: cells[2],
        tp: cells[3],
    };
    if counts.total() <= 0.0 {
        return Err(empty_subset(name));
    }
    let always = |rate: Rate| counts.rate(rate).unwrap_or(0.0);
    let policy = |rate: Rate| counts.rate_with(rate, zero_division, &name);
    Ok(SubsetRates {
        counts,
        positive_prediction_rate: always(Rate::Selection),
        negative_prediction_rate: (counts.predicted_negatives() / counts.total()).clamp(0.0, 1.0),
        true_positive_rate: policy(Rate::TruePositive)?,
        false_positive_rate: policy(Rate::FalsePositive)?,
        true_negative_rate: policy(Rate::TrueNegative)?,
        false_negative_rate: policy(Rate::FalseNegative)?,
        error_rate: always(Rate::Error),
        accuracy: always(Rate::Accuracy),
    })
}

/// Fraction of the subset whose prediction differs from the baseline's (needs no labels).
///
/// # Errors
/// As [`positive_prediction_rate`], for both prediction vectors.
pub fn churn(
    y_pred: &[usize],
    baseline: &[usize],
    weights: Option<&[f64]>,
    subset: Subset<'_>,
) -> Result<f64> {
    let name = check_inputs(None, y_pred, Some(baseline), weights, &subset)?;
    let (mut changed, mut total) = (0.0, 0.0);
    for (i, (&p, &b)) in y_pred.iter().zip(baseline).enumerate() {
        if subset.contains(i) {
            let w = weights.map_or(1.0, |w| w[i]);
            total += w;
            if p != b {
                changed += w;
            }
        }
    }
    if total <= 0.0 {
        return Err(empty_subset(name));
    }
    Ok((changed / total).clamp(0.0, 1.0))
}

/// Churn, win rate, loss rate and loss-only churn against a baseline, on the subset.
///
/// # Errors
/// As [`subset_rates`]; [`MetricError::UndefinedRate`] ("loss-only churn") when the baseline is
/// never correct on the subset, under [`ZeroDivision::Error`].
pub fn churn_rates(
    y_true: &[usize],
    y_pred: &[usize],
    baseline: &[usize],
    weights: Option<&[f64]>,
    subset: Subset<'_>,
    zero_division: ZeroDivision,
) -> Result<ChurnRates> {
    let name = check_inputs(Some(y_true), y_pred, Some(baseline), weights, &subset)?;
    let (mut total, mut changed, mut wins, mut losses, mut base_correct) =
        (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, ((&t, &p), &b)) in y_true.iter().zip(y_pred).zip(baseline).enumerate() {
        if !subset.contains(i) {
            continue;
        }
        let w = weights.map_or(1.0, |w| w[i]);
        total += w;
        let (new_ok, base_ok) = (p == t, b == t);
        if p != b {
            changed += w;
        }
        if base_ok {
            base_correct += w;
        }
        if new_ok && !base_ok {
            wins += w;
        }
        if base_ok && !new_ok {
            losses += w;
        }
    }
    if total <= 0.0 {
        return Err(empty_subset(name));
    }
    let frac = |x: f64| (x / total).clamp(0.0, 1.0);
    Ok(ChurnRates {
        subset_weight: total,
        wins,
        losses,
        churn: frac(changed),
        win_rate: frac(wins),
        loss_rate: frac(losses),
        loss_only_churn: zero_division.resolve("loss-only churn", &name, losses, base_correct)?,
    })
}
