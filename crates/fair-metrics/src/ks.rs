//! The all-threshold parity gap of Olfat & Aswani's fair SVM: DP-Δ and EO-Δ, i.e. the exact
//! two-sample Kolmogorov–Smirnov statistic between the score distributions of two groups.
//!
//! `Δ = max_θ |P(s > θ | group a) − P(s > θ | group b)|` over all real θ. The authors' MATLAB
//! evaluates 1000 evenly spaced thresholds (which can underestimate Δ); this is the exact value:
//! each group's scores are sorted once and pairs are merged over their distinct values, with all
//! equal scores (across both groups) consumed together, so ties are exact. Whether the classifier
//! uses `s > θ` or `s ≥ θ` does not change Δ. Weighted: each group's CCDF is its weighted fraction.
//!
//! Cost: one O(n log n) sort, then one O(n_a + n_b) merge per pair of groups.

use crate::error::{MetricError, Result};
use crate::pairwise::PairwiseSummary;
use crate::sorted_scores::{Bucket, bucket_sorted, max_ccdf_gap};
use crate::validate::{
    check_classes, check_finite, check_groups, check_groups_have_weight, check_len, check_nonempty,
    check_weights,
};
use fair_data::Groups;

/// Rows used by a score-distribution metric: all rows, or only those with one label.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RowFilter<'a> {
    All,
    Label { labels: &'a [usize], label: usize },
}

/// Validated, per-group sorted scores with their totals.
pub(crate) struct GroupScores {
    pub(crate) buckets: Vec<Bucket>,
    pub(crate) totals: Vec<f64>,
}

/// Validates the inputs and sorts each group's (filtered) scores once.
///
/// `rate` names what needs the rows in the error when a group has none after filtering.
pub(crate) fn group_scores(
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    filter: RowFilter<'_>,
    rate: &'static str,
) -> Result<GroupScores> {
    let n = scores.len();
    check_nonempty("scores", n)?;
    check_groups(groups, n)?;
    check_finite("scores", scores)?;
    check_weights(weights, n)?;
    let codes = groups.codes();
    let buckets = match filter {
        RowFilter::All => bucket_sorted(scores, weights, groups.n_groups(), |i| Some(codes[i])),
        RowFilter::Label { labels, label } => {
            check_len("labels", n, labels.len())?;
            check_classes("labels", labels, 2)?;
            check_groups_have_weight(groups, weights)?;
            bucket_sorted(scores, weights, groups.n_groups(), |i| {
                (labels[i] == label).then_some(codes[i])
            })
        }
    };
    let totals: Vec<f64> = buckets.iter().map(Bucket::total).collect();
    if let Some(g) = totals.iter().position(|&t| t <= 0.0) {
        let group = groups.names()[g].clone();
        return Err(match filter {
            RowFilter::All => MetricError::EmptyGroup { group },
            RowFilter::Label { .. } => MetricError::UndefinedRate { rate, group },
        });
    }
    Ok(GroupScores { buckets, totals })
}

impl GroupScores {
    /// The pairwise matrix of `max_θ |T(F̄_a(θ)) − T(F̄_b(θ))|`.
    pub(crate) fn pairwise_ccdf_gap(
        &self,
        metric: &'static str,
        names: &[String],
        transform: impl Fn(f64) -> f64 + Copy + Sync,
    ) -> PairwiseSummary {
        PairwiseSummary::build_par(metric, names.to_vec(), |a, b| {
            max_ccdf_gap(
                &self.buckets[a],
                &self.buckets[b],
                self.totals[a],
                self.totals[b],
                transform,
            )
        })
    }
}

/// DP-Δ: the exact KS statistic between the score distributions of every pair of groups.
///
/// For two groups, `max` is the paper's Δ; for more, `matrix` holds every pair.
///
/// # Errors
/// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::NonFinite`] for a
/// NaN/inf score, bad weights, [`MetricError::EmptyGroup`].
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// let groups = Groups::from_labels(&["a", "a", "b", "b"]);
/// let ks = fair_metrics::ks::ks_statistic(&[0.1, 0.9, 0.5, 0.6], &groups, None)?;
/// // At θ = 0.55: half of a and all of b score above.
/// assert!((ks.max - 0.5).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn ks_statistic(
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<PairwiseSummary> {
    let gs = group_scores(
        scores,
        groups,
        weights,
        RowFilter::All,
        "score distribution",
    )?;
    Ok(gs.pairwise_ccdf_gap("demographic parity KS (DP-Δ)", groups.names(), |x| x))
}

/// EO-Δ: the KS statistic restricted to rows with label 1 (each group's positives).
///
/// # Errors
/// As [`ks_statistic`], plus [`MetricError::LabelOutOfRange`] for a label other than 0/1 and
/// [`MetricError::UndefinedRate`] for a group without positives (a distribution of no rows has
/// no meaningful zero convention; drop the group instead).
pub fn equal_opportunity_ks(
    labels: &[usize],
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<PairwiseSummary> {
    let filter = RowFilter::Label { labels, label: 1 };
    let gs = group_scores(
        scores,
        groups,
        weights,
        filter,
        "score distribution of positives",
    )?;
    Ok(gs.pairwise_ccdf_gap("equal opportunity KS (EO-Δ)", groups.names(), |x| x))
}
