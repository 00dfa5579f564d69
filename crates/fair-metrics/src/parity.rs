//! Unsigned parity gaps over any number of groups, with fairlearn's conventions.
//!
//! | function | fairlearn | value |
//! |---|---|---|
//! | [`demographic_parity_difference`] | same name | max − min selection rate |
//! | [`demographic_parity_ratio`] | same name | min / max selection rate |
//! | [`equal_opportunity_difference`] / `_ratio` | same names (≥ 0.11) | on TPR |
//! | [`equalized_odds_difference`] | same name | max (or mean) of the TPR and FPR differences |
//! | [`equalized_odds_ratio`] | same name | min (or mean) of the TPR and FPR ratios |
//! | [`accuracy_difference`] / `_ratio` | `accuracy_score_difference` / `_ratio` | overall accuracy equality |
//!
//! With two groups, `equalized_odds_difference` equals AIF360's `equalized_odds_difference`
//! (max(|ΔFPR|, |ΔTPR|)). For AIF360's *signed* gaps see [`crate::signed_gaps`]. Ratios of
//! zeros follow [`GroupSummary`]: 0/0 = 1 (fairlearn gives NaN there).

use crate::confusion::{GroupConfusion, Rate};
use crate::error::{MetricError, Result};
use crate::summary::{GroupSummary, ParityMethod};
use crate::validate::{
    RowWeight, Unit, bad_weight, check_groups, check_len, check_nonempty, weight_ok,
};
use crate::zero_division::ZeroDivision;
use fair_data::Groups;

/// How equalized odds combines its TPR and FPR gaps (fairlearn's `agg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Aggregation {
    /// The worse of the two: max of the differences, min of the ratios (`"worst_case"`).
    #[default]
    WorstCase,
    /// The mean of the two (`"mean"`).
    Mean,
}

/// Options shared by the label-dependent parity gaps. `Default` gives fairlearn's defaults plus
/// [`ZeroDivision::Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ParityOptions {
    /// Between groups or against the pooled value.
    pub method: ParityMethod,
    /// How equalized odds combines TPR and FPR (ignored by the other gaps).
    pub aggregation: Aggregation,
    /// What to do with a group without positives (TPR) or negatives (FPR).
    pub zero_division: ZeroDivision,
}

/// All gaps of this module from one [`GroupConfusion`] (one pass over the rows for all of them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParityGaps {
    /// Selection-rate difference.
    pub demographic_parity_difference: f64,
    /// Selection-rate ratio.
    pub demographic_parity_ratio: f64,
    /// TPR difference.
    pub equal_opportunity_difference: f64,
    /// TPR ratio.
    pub equal_opportunity_ratio: f64,
    /// TPR/FPR differences aggregated.
    pub equalized_odds_difference: f64,
    /// TPR/FPR ratios aggregated.
    pub equalized_odds_ratio: f64,
    /// Accuracy difference.
    pub accuracy_difference: f64,
    /// Accuracy ratio.
    pub accuracy_ratio: f64,
}

fn aggregate(aggregation: Aggregation, a: f64, b: f64, worst: fn(f64, f64) -> f64) -> f64 {
    match aggregation {
        Aggregation::WorstCase => worst(a, b),
        Aggregation::Mean => 0.5 * (a + b),
    }
}

/// Every gap of this module, computed from counts already accumulated.
///
/// # Errors
/// [`MetricError::UndefinedRate`] / [`MetricError::UndefinedMetric`] as
/// [`GroupConfusion::summary`], for the TPR and FPR summaries.
pub fn parity_gaps(gc: &GroupConfusion, options: &ParityOptions) -> Result<ParityGaps> {
    let m = options.method;
    let sr = gc.summary(Rate::Selection, options.zero_division)?;
    let tpr = gc.summary(Rate::TruePositive, options.zero_division)?;
    let fpr = gc.summary(Rate::FalsePositive, options.zero_division)?;
    let acc = gc.summary(Rate::Accuracy, options.zero_division)?;
    Ok(ParityGaps {
        demographic_parity_difference: sr.difference_by(m),
        demographic_parity_ratio: sr.ratio_by(m),
        equal_opportunity_difference: tpr.difference_by(m),
        equal_opportunity_ratio: tpr.ratio_by(m),
        equalized_odds_difference: aggregate(
            options.aggregation,
            tpr.difference_by(m),
            fpr.difference_by(m),
            f64::max,
        ),
        equalized_odds_ratio: aggregate(
            options.aggregation,
            tpr.ratio_by(m),
            fpr.ratio_by(m),
            f64::min,
        ),
        accuracy_difference: acc.difference_by(m),
        accuracy_ratio: acc.ratio_by(m),
    })
}

/// Selection rate per group from predictions alone (no labels needed), in one pass.
///
/// # Errors
/// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`]
/// for a prediction other than 0/1, bad weights, [`MetricError::EmptyGroup`].
pub fn selection_rate_by_group(
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<GroupSummary> {
    let n = y_pred.len();
    check_nonempty("predictions", n)?;
    check_groups(groups, n)?;
    let cells = match weights {
        None => count_selected(y_pred, groups, Unit)?,
        Some(w) => {
            check_len("sample weights", n, w.len())?;
            count_selected(y_pred, groups, w)?
        }
    };
    let (mut sel, mut tot) = (0.0, 0.0);
    for c in &cells {
        sel += c[1];
        tot += c[0] + c[1];
    }
    if tot <= 0.0 {
        return Err(MetricError::ZeroTotalWeight { what: "all rows" });
    }
    let mut by_group = Vec::with_capacity(cells.len());
    for (c, name) in cells.iter().zip(groups.names()) {
        let t = c[0] + c[1];
        if t <= 0.0 {
            return Err(MetricError::EmptyGroup {
                group: name.clone(),
            });
        }
        by_group.push(Some((c[1] / t).clamp(0.0, 1.0)));
    }
    GroupSummary::from_values(
        Rate::Selection.name(),
        groups.names().to_vec(),
        (sel / tot).clamp(0.0, 1.0),
        by_group,
    )
}

/// Per group: weight predicted 0 and weight predicted 1.
fn count_selected<W: RowWeight>(
    y_pred: &[usize],
    groups: &Groups,
    weights: W,
) -> Result<Vec<[f64; 2]>> {
    let mut cells = vec![[0.0_f64; 2]; groups.n_groups()];
    for (i, (&p, &g)) in y_pred.iter().zip(groups.codes()).enumerate() {
        let w = weights.at(i);
        if p > 1 || !weight_ok(w) {
            return Err(if p > 1 {
                MetricError::LabelOutOfRange {
                    what: "predictions",
                    row: i,
                    label: p,
                    n_classes: 2,
                }
            } else {
                bad_weight(i, w)
            });
        }
        cells[g][p] += w;
    }
    Ok(cells)
}

/// max − min (or max |x_g − overall|) of the selection rate over groups.
///
/// fairlearn's version also takes `y_true` and ignores it; this one does not ask for it.
///
/// # Errors
/// As [`selection_rate_by_group`].
pub fn demographic_parity_difference(
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    method: ParityMethod,
) -> Result<f64> {
    Ok(selection_rate_by_group(y_pred, groups, weights)?.difference_by(method))
}

/// min / max (or min_g min(x_g/overall, overall/x_g)) of the selection rate over groups.
///
/// # Errors
/// As [`selection_rate_by_group`].
pub fn demographic_parity_ratio(
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    method: ParityMethod,
) -> Result<f64> {
    Ok(selection_rate_by_group(y_pred, groups, weights)?.ratio_by(method))
}

fn rate_summary(
    rate: Rate,
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    zero_division: ZeroDivision,
) -> Result<GroupSummary> {
    GroupConfusion::new(y_true, y_pred, groups, weights)?.summary(rate, zero_division)
}

/// TPR gap between groups (`options.aggregation` is ignored).
///
/// # Errors
/// Input errors as [`GroupConfusion::new`]; undefined TPRs as [`GroupConfusion::summary`].
pub fn equal_opportunity_difference(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    options: &ParityOptions,
) -> Result<f64> {
    Ok(rate_summary(
        Rate::TruePositive,
        y_true,
        y_pred,
        groups,
        weights,
        options.zero_division,
    )?
    .difference_by(options.method))
}

/// TPR ratio between groups (`options.aggregation` is ignored).
///
/// # Errors
/// As [`equal_opportunity_difference`].
pub fn equal_opportunity_ratio(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    options: &ParityOptions,
) -> Result<f64> {
    Ok(rate_summary(
        Rate::TruePositive,
        y_true,
        y_pred,
        groups,
        weights,
        options.zero_division,
    )?
    .ratio_by(options.method))
}

/// The TPR and FPR summaries both equalized-odds gaps combine, from one pass over the rows.
fn tpr_and_fpr(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    zero_division: ZeroDivision,
) -> Result<(GroupSummary, GroupSummary)> {
    let gc = GroupConfusion::new(y_true, y_pred, groups, weights)?;
    Ok((
        gc.summary(Rate::TruePositive, zero_division)?,
        gc.summary(Rate::FalsePositive, zero_division)?,
    ))
}

/// Equalized-odds gap: the TPR and FPR differences combined by `options.aggregation`.
///
/// # Errors
/// As [`equal_opportunity_difference`], also for groups without negatives.
pub fn equalized_odds_difference(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    options: &ParityOptions,
) -> Result<f64> {
    let (tpr, fpr) = tpr_and_fpr(y_true, y_pred, groups, weights, options.zero_division)?;
    Ok(aggregate(
        options.aggregation,
        tpr.difference_by(options.method),
        fpr.difference_by(options.method),
        f64::max,
    ))
}

/// Equalized-odds ratio: the TPR and FPR ratios combined by `options.aggregation` (min or mean).
///
/// # Errors
/// As [`equalized_odds_difference`].
pub fn equalized_odds_ratio(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    options: &ParityOptions,
) -> Result<f64> {
    let (tpr, fpr) = tpr_and_fpr(y_true, y_pred, groups, weights, options.zero_division)?;
    Ok(aggregate(
        options.aggregation,
        tpr.ratio_by(options.method),
        fpr.ratio_by(options.method),
        f64::min,
    ))
}

/// Overall accuracy equality: the accuracy gap between groups. Accuracy is defined for every
/// non-empty group, so no policy is needed.
///
/// # Errors
/// Input errors as [`GroupConfusion::new`].
pub fn accuracy_difference(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    method: ParityMethod,
) -> Result<f64> {
    Ok(rate_summary(
        Rate::Accuracy,
        y_true,
        y_pred,
        groups,
        weights,
        ZeroDivision::Error,
    )?
    .difference_by(method))
}

/// Accuracy ratio between groups.
///
/// # Errors
/// As [`accuracy_difference`].
pub fn accuracy_ratio(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
    method: ParityMethod,
) -> Result<f64> {
    Ok(rate_summary(
        Rate::Accuracy,
        y_true,
        y_pred,
        groups,
        weights,
        ZeroDivision::Error,
    )?
    .ratio_by(method))
}
