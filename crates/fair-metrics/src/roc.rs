//! ROC curves and AUC, overall, per group and across groups.
//!
//! Exact and tie-aware: rows are sorted once and swept over distinct score values, so tied scores
//! form one ROC step (a diagonal segment) and count ½ in the AUC (Mann–Whitney), matching
//! `sklearn.metrics.roc_auc_score`. Weighted: each row counts with its weight.

use crate::error::{MetricError, Result};
use crate::ks::{GroupScores, RowFilter, group_scores};
use crate::pairwise::PairwiseSummary;
use crate::sorted_scores::{Bucket, bucket_sorted, key_score, prob_greater, sweep_desc};
use crate::summary::GroupSummary;
use crate::validate::{
    check_classes, check_finite, check_groups, check_groups_have_weight, check_len, check_nonempty,
    check_weights,
};
use crate::zero_division::ZeroDivision;
use fair_data::Groups;

/// A ROC curve: one point per distinct score, from (0, 0) to (1, 1).
#[derive(Debug, Clone, PartialEq)]
pub struct RocCurve {
    /// Decreasing thresholds; point `k` predicts positive when `score >= thresholds[k]`. The first
    /// is `+∞` (nothing predicted positive), as in sklearn.
    pub thresholds: Vec<f64>,
    /// False positive rate at each threshold.
    pub false_positive_rate: Vec<f64>,
    /// True positive rate at each threshold.
    pub true_positive_rate: Vec<f64>,
    /// Area under the curve (Mann–Whitney, ties ½; equals the trapezoidal area of the points).
    pub auc: f64,
}

/// Labels (0/1) and scores checked; rows split into negatives (bucket 0) and positives (1).
fn split_by_label(
    labels: &[usize],
    scores: &[f64],
    weights: Option<&[f64]>,
    groups: Option<&Groups>,
) -> Result<Vec<Bucket>> {
    let n = scores.len();
    check_nonempty("scores", n)?;
    check_len("labels", n, labels.len())?;
    check_classes("labels", labels, 2)?;
    check_finite("scores", scores)?;
    check_weights(weights, n)?;
    Ok(match groups {
        None => bucket_sorted(scores, weights, 2, |i| Some(labels[i])),
        Some(g) => {
            check_groups(g, n)?;
            check_groups_have_weight(g, weights)?;
            let codes = g.codes();
            bucket_sorted(scores, weights, 2 * g.n_groups(), |i| {
                Some(2 * codes[i] + labels[i])
            })
        }
    })
}

/// The curve of one (negatives, positives) pair of buckets, or `None` if a class is missing.
fn curve(neg: &Bucket, pos: &Bucket) -> Option<RocCurve> {
    let (total_n, total_p) = (neg.total(), pos.total());
    if total_n <= 0.0 || total_p <= 0.0 {
        return None;
    }
    let mut thresholds = vec![f64::INFINITY];
    let (mut fpr, mut tpr) = (vec![0.0], vec![0.0]);
    let (mut above_n, mut above_p) = (0.0, 0.0);
    sweep_desc(neg, pos, |key, wn, wp| {
        above_n += wn;
        above_p += wp;
        thresholds.push(key_score(key));
        fpr.push((above_n / total_n).clamp(0.0, 1.0));
        tpr.push((above_p / total_p).clamp(0.0, 1.0));
    });
    let auc = prob_greater(pos, neg, total_p, total_n);
    Some(RocCurve {
        thresholds,
        false_positive_rate: fpr,
        true_positive_rate: tpr,
        auc,
    })
}

fn missing_class(group: &str) -> MetricError {
    MetricError::UndefinedRate {
        rate: "ROC AUC (needs both positive and negative labels)",
        group: group.to_string(),
    }
}

/// The ROC curve of scores against 0/1 labels (positive = 1).
///
/// # Errors
/// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`],
/// [`MetricError::NonFinite`], bad weights, and [`MetricError::UndefinedRate`] when only one
/// class is present (group "overall").
pub fn roc_curve(labels: &[usize], scores: &[f64], weights: Option<&[f64]>) -> Result<RocCurve> {
    let b = split_by_label(labels, scores, weights, None)?;
    curve(&b[0], &b[1]).ok_or_else(|| missing_class("overall"))
}

/// ROC AUC: `P(s⁺ > s⁻) + ½ P(s⁺ = s⁻)` over weighted positive/negative pairs.
///
/// # Errors
/// As [`roc_curve`].
///
/// # Examples
/// ```
/// // Pairs (pos, neg): (0.8, 0.1) win, (0.8, 0.4) win, (0.4, 0.1) win, (0.4, 0.4) tie.
/// let auc = fair_metrics::roc::roc_auc(&[1, 0, 1, 0], &[0.8, 0.1, 0.4, 0.4], None)?;
/// assert!((auc - 3.5 / 4.0).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn roc_auc(labels: &[usize], scores: &[f64], weights: Option<&[f64]>) -> Result<f64> {
    Ok(roc_curve(labels, scores, weights)?.auc)
}

/// One ROC curve per group (indexed by group code).
///
/// # Errors
/// As [`roc_curve`], plus [`MetricError::UndefinedRate`] naming a group that lacks positives or
/// negatives.
pub fn roc_curve_by_group(
    labels: &[usize],
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<Vec<RocCurve>> {
    let b = split_by_label(labels, scores, weights, Some(groups))?;
    groups
        .names()
        .iter()
        .enumerate()
        .map(|(g, name)| curve(&b[2 * g], &b[2 * g + 1]).ok_or_else(|| missing_class(name)))
        .collect()
}

/// AUC overall and per group, with the gaps between groups.
///
/// A group lacking positives or negatives has no AUC. `ZeroDivision::Error` reports it,
/// `ZeroDivision::Skip` leaves the group out; `ZeroDivision::Zero` is rejected, because an AUC
/// of 0 means "perfectly inverted ranking", not "undefined" (sklearn raises here as well).
///
/// # Errors
/// As [`roc_curve_by_group`], plus [`MetricError::InvalidParameter`] for `ZeroDivision::Zero`.
pub fn auc_by_group(
    labels: &[usize],
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    zero_division: ZeroDivision,
) -> Result<GroupSummary> {
    if zero_division == ZeroDivision::Zero {
        return Err(MetricError::InvalidParameter {
            name: "zero_division",
            value: "Zero".into(),
            expected: "Error or Skip (an undefined AUC has no zero convention)",
        });
    }
    let b = split_by_label(labels, scores, weights, Some(groups))?;
    let mut by_group = Vec::with_capacity(groups.n_groups());
    for (g, name) in groups.names().iter().enumerate() {
        let (neg, pos) = (&b[2 * g], &b[2 * g + 1]);
        let (tn, tp) = (neg.total(), pos.total());
        if tn > 0.0 && tp > 0.0 {
            by_group.push(Some(prob_greater(pos, neg, tp, tn)));
        } else if zero_division == ZeroDivision::Skip {
            by_group.push(None);
        } else {
            return Err(missing_class(name));
        }
    }
    // The pooled AUC needs the pooled sort (it is not a mix of the group AUCs).
    let overall = roc_auc(labels, scores, weights)?;
    GroupSummary::from_values("ROC AUC", groups.names().to_vec(), overall, by_group)
}

/// Cross-group AUC gap (the IDCA paper's group AUC fairness, eq. (36)):
/// `|P(s_a > s_b) + ½ P(s_a = s_b) − ½|` for scores drawn from groups `a` and `b`.
///
/// The paper writes `P(s_a ≥ s_b)`; counting ties ½ makes the gap symmetric in the two groups
/// and agrees with the paper whenever scores do not tie across groups.
///
/// # Errors
/// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::NonFinite`], bad
/// weights, [`MetricError::EmptyGroup`].
pub fn cross_group_auc(
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<PairwiseSummary> {
    let GroupScores { buckets, totals } = group_scores(
        scores,
        groups,
        weights,
        RowFilter::All,
        "score distribution",
    )?;
    Ok(PairwiseSummary::build(
        "cross-group AUC gap",
        groups.names().to_vec(),
        |a, b| (prob_greater(&buckets[a], &buckets[b], totals[a], totals[b]) - 0.5).abs(),
    ))
}
