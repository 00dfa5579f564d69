//! Partial fairness on a percentile interval `I = [α, β)` (He, Huang, Yao & Lin 2025, IDCA).
//!
//! Percentiles are measured from the top: `F̄_k(θ)` is the (weighted) fraction of group `k`
//! scoring strictly above `θ`, so `I = [0, 0.2)` is each group's top 20 %. Only the scores whose
//! within-group rank lies in `I` are compared. With `c(x) = clip(x, α, β) − α` (the paper's
//! identity (62)):
//!
//! * **pSP** (Def. 4.2): `max_θ |c(F̄_k(θ)) − c(F̄_k'(θ))| / (β − α)`, θ over all observed scores
//!   (both CCDFs are right-continuous step functions, so this is the sup over all θ). With
//!   `I = [0, 1]` it is exactly the KS statistic of [`crate::ks`].
//! * **pDP** (Def. 4.3): the same at one fixed threshold θ̂ (the paper uses θ̂ = 0).
//! * **Partial EOP** (model (50)): pDP with each group's CCDF computed over its *positives only*,
//!   i.e. percentiles are taken within the (group, y = 1) cell. Definition A.2 would instead rank
//!   against the whole group; the spec flags the two as inconsistent and the paper's trainable
//!   model (50) is what is implemented here.
//! * **Partial EOD** (model (56)): the max over y ∈ {0, 1} of the partial-EOP quantity computed on
//!   the rows with that label.
//! * **Label-conditioned pSP**: pSP on the rows with one label (percentiles within the cell).
//!
//! All are reported as pairwise matrices with their max over pairs; the paper's "fairness" score
//! is `1 − max`.

use crate::error::{MetricError, Result};
use crate::ks::{RowFilter, group_scores};
use crate::pairwise::PairwiseSummary;
use crate::validate::{
    check_classes, check_finite, check_groups, check_groups_have_weight, check_len, check_nonempty,
    check_weights,
};
use fair_data::Groups;

/// A percentile interval `[alpha, beta)` with `0 <= alpha < beta <= 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PercentileInterval {
    alpha: f64,
    beta: f64,
}

impl PercentileInterval {
    /// The whole range `[0, 1]`, where partial parity reduces to full parity.
    pub const FULL: PercentileInterval = PercentileInterval {
        alpha: 0.0,
        beta: 1.0,
    };

    /// Checks `0 <= alpha < beta <= 1`.
    ///
    /// # Errors
    /// [`MetricError::InvalidInterval`] otherwise (including NaN ends).
    pub fn new(alpha: f64, beta: f64) -> Result<Self> {
        if (0.0..beta).contains(&alpha) && beta <= 1.0 {
            Ok(Self { alpha, beta })
        } else {
            Err(MetricError::InvalidInterval { alpha, beta })
        }
    }
    /// Lower end α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// Upper end β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// `c(x) / (β − α)`: the fraction of the in-band scores above a threshold whose CCDF is `x`.
    /// For `[0, 1]` this is exactly `x`, so pSP on the full range reproduces KS bit for bit.
    #[inline(always)]
    pub fn in_band_fraction(&self, x: f64) -> f64 {
        (x.clamp(self.alpha, self.beta) - self.alpha) / (self.beta - self.alpha)
    }
}

/// Partial statistical parity (pSP) between every pair of groups.
///
/// # Errors
/// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::NonFinite`], bad
/// weights, [`MetricError::EmptyGroup`].
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_metrics::partial::{PercentileInterval, partial_statistical_parity};
/// let groups = Groups::from_labels(&["a", "a", "a", "a", "b", "b", "b", "b"]);
/// // The groups agree on their top half and differ only below it.
/// let scores = [4.0, 3.0, 0.0, -1.0, 4.0, 3.0, -5.0, -6.0];
/// let top_half = PercentileInterval::new(0.0, 0.5)?;
/// assert!(partial_statistical_parity(&scores, &groups, None, top_half)?.max.abs() < 1e-12);
/// let full = partial_statistical_parity(&scores, &groups, None, PercentileInterval::FULL)?;
/// assert!((full.max - 0.5).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn partial_statistical_parity(
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    interval: PercentileInterval,
) -> Result<PairwiseSummary> {
    let gs = group_scores(
        scores,
        groups,
        weights,
        RowFilter::All,
        "score distribution",
    )?;
    Ok(gs.pairwise_ccdf_gap(
        "partial statistical parity (pSP)",
        groups.names(),
        move |x| interval.in_band_fraction(x),
    ))
}

/// pSP on the rows with label `label` (0 or 1), percentiles taken within each (group, label) cell.
///
/// # Errors
/// As [`partial_statistical_parity`], plus [`MetricError::LabelOutOfRange`] and
/// [`MetricError::UndefinedRate`] for a group with no rows of that label.
pub fn partial_statistical_parity_given_label(
    labels: &[usize],
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    interval: PercentileInterval,
    label: usize,
) -> Result<PairwiseSummary> {
    check_label_param(label)?;
    let filter = RowFilter::Label { labels, label };
    let gs = group_scores(
        scores,
        groups,
        weights,
        filter,
        "score distribution of the label's rows",
    )?;
    Ok(gs.pairwise_ccdf_gap(
        "label-conditioned partial statistical parity",
        groups.names(),
        move |x| interval.in_band_fraction(x),
    ))
}

/// Partial demographic parity (pDP) at threshold `threshold` (the paper's θ̂, usually 0).
///
/// # Errors
/// As [`partial_statistical_parity`], plus [`MetricError::InvalidParameter`] for a non-finite
/// threshold.
pub fn partial_demographic_parity(
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    interval: PercentileInterval,
    threshold: f64,
) -> Result<PairwiseSummary> {
    let ccdf = ccdf_at(scores, groups, weights, None, threshold)?;
    Ok(pdp_matrix(
        "partial demographic parity (pDP)",
        groups,
        &ccdf,
        interval,
    ))
}

/// Partial equality of opportunity (model (50)): pDP on the rows with label 1, each group's CCDF
/// computed over its positives.
///
/// # Errors
/// As [`partial_demographic_parity`], plus [`MetricError::LabelOutOfRange`] and
/// [`MetricError::UndefinedRate`] for a group without positives.
pub fn partial_equal_opportunity(
    labels: &[usize],
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    interval: PercentileInterval,
    threshold: f64,
) -> Result<PairwiseSummary> {
    let ccdf = ccdf_at(scores, groups, weights, Some((labels, 1)), threshold)?;
    Ok(pdp_matrix(
        "partial equal opportunity (pEOP)",
        groups,
        &ccdf,
        interval,
    ))
}

/// Partial equalized odds (model (56)): the label-0 and label-1 partial-EOP-type gaps.
#[derive(Debug, Clone, PartialEq)]
pub struct PartialEqualizedOdds {
    /// The max of the two maxima.
    pub value: f64,
    /// The label (0 or 1) attaining `value` (1 on ties).
    pub worst_label: usize,
    /// The gaps on label-0 rows.
    pub negatives: PairwiseSummary,
    /// The gaps on label-1 rows (equal to [`partial_equal_opportunity`]).
    pub positives: PairwiseSummary,
}

/// Partial equalized odds: max over y ∈ {0, 1} of the partial-EOP quantity on rows with label y.
///
/// # Errors
/// As [`partial_equal_opportunity`], also for a group without negatives.
pub fn partial_equalized_odds(
    labels: &[usize],
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    interval: PercentileInterval,
    threshold: f64,
) -> Result<PartialEqualizedOdds> {
    let pos = ccdf_at(scores, groups, weights, Some((labels, 1)), threshold)?;
    let neg = ccdf_at(scores, groups, weights, Some((labels, 0)), threshold)?;
    let positives = pdp_matrix(
        "partial equal opportunity (pEOP), label 1",
        groups,
        &pos,
        interval,
    );
    let negatives = pdp_matrix(
        "partial equal opportunity (pEOP), label 0",
        groups,
        &neg,
        interval,
    );
    let (value, worst_label) = if negatives.max > positives.max {
        (negatives.max, 0)
    } else {
        (positives.max, 1)
    };
    Ok(PartialEqualizedOdds {
        value,
        worst_label,
        negatives,
        positives,
    })
}

fn check_label_param(label: usize) -> Result<()> {
    if label <= 1 {
        Ok(())
    } else {
        Err(MetricError::InvalidParameter {
            name: "label",
            value: label.to_string(),
            expected: "0 or 1",
        })
    }
}

fn pdp_matrix(
    metric: &'static str,
    groups: &Groups,
    ccdf: &[f64],
    interval: PercentileInterval,
) -> PairwiseSummary {
    PairwiseSummary::build(metric, groups.names().to_vec(), |a, b| {
        (interval.in_band_fraction(ccdf[a]) - interval.in_band_fraction(ccdf[b])).abs()
    })
}

/// Per group, the weighted fraction scoring strictly above `threshold` (one pass, no sort),
/// optionally on the rows with one label only.
fn ccdf_at(
    scores: &[f64],
    groups: &Groups,
    weights: Option<&[f64]>,
    label_filter: Option<(&[usize], usize)>,
    threshold: f64,
) -> Result<Vec<f64>> {
    let n = scores.len();
    check_nonempty("scores", n)?;
    check_groups(groups, n)?;
    check_finite("scores", scores)?;
    check_weights(weights, n)?;
    if !threshold.is_finite() {
        return Err(MetricError::InvalidParameter {
            name: "threshold",
            value: threshold.to_string(),
            expected: "a finite score threshold",
        });
    }
    if let Some((labels, _)) = label_filter {
        check_len("labels", n, labels.len())?;
        check_classes("labels", labels, 2)?;
        check_groups_have_weight(groups, weights)?;
    }
    let g = groups.n_groups();
    let (mut above, mut total) = (vec![0.0_f64; g], vec![0.0_f64; g]);
    for (i, (&s, &code)) in scores.iter().zip(groups.codes()).enumerate() {
        if let Some((labels, label)) = label_filter
            && labels[i] != label
        {
            continue;
        }
        let w = weights.map_or(1.0, |w| w[i]);
        total[code] += w;
        if s > threshold {
            above[code] += w;
        }
    }
    let mut ccdf = Vec::with_capacity(g);
    for (k, (a, t)) in above.iter().zip(&total).enumerate() {
        if *t <= 0.0 {
            let group = groups.names()[k].clone();
            return Err(match label_filter {
                None => MetricError::EmptyGroup { group },
                Some(_) => MetricError::UndefinedRate {
                    rate: "score distribution of the label's rows",
                    group,
                },
            });
        }
        ccdf.push((a / t).clamp(0.0, 1.0));
    }
    Ok(ccdf)
}

/// Partial group AUC (Definition A.1 / model (49)): for every pair of groups,
/// `|Pr(h(ξ) > h(ξ')) + ½ Pr(h(ξ) = h(ξ')) − ½|` over `ξ` drawn from group `a`'s band and `ξ'`
/// from group `b`'s band, where a group's band is its rows of within-group descending rank
/// `⌈α n_k⌉ + 1 ..= ⌈β n_k⌉` (the paper's `n_k^α`, `n_k^β`; percentiles from the top).
///
/// Unweighted (the model it evaluates is unweighted); ties count ½, which makes the gap
/// symmetric in `(a, b)`. Cost O(n log n): each band is sorted once and counted by binary search.
///
/// # Errors
/// [`MetricError::Empty`], [`MetricError::LengthMismatch`], [`MetricError::NonFinite`], and
/// [`MetricError::EmptyGroup`] when a group's band holds no row (`⌈β n_k⌉ = ⌈α n_k⌉`).
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_metrics::partial::{PercentileInterval, partial_group_auc};
/// let groups = Groups::from_labels(&["a", "a", "a", "a", "b", "b", "b", "b"]);
/// // Top halves {4, 3} and {2, 1}: every a-score beats every b-score.
/// let scores = [4.0, 3.0, 0.0, -1.0, 2.0, 1.0, 9.0, 8.0];
/// let gauc = partial_group_auc(&scores, &groups, PercentileInterval::new(0.5, 1.0)?)?;
/// assert!((gauc.max - 0.5).abs() < 1e-12); // bottom halves {0, -1} vs {2, 1}
/// let top = partial_group_auc(&scores, &groups, PercentileInterval::new(0.0, 0.5)?)?;
/// assert!((top.max - 0.5).abs() < 1e-12); // {4, 3} vs {9, 8}
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn partial_group_auc(
    scores: &[f64],
    groups: &Groups,
    interval: PercentileInterval,
) -> Result<PairwiseSummary> {
    let n = scores.len();
    check_nonempty("scores", n)?;
    check_groups(groups, n)?;
    check_finite("scores", scores)?;
    let mut per_group: Vec<Vec<f64>> = vec![Vec::new(); groups.n_groups()];
    for (&s, &g) in scores.iter().zip(groups.codes()) {
        per_group[g].push(s);
    }
    let mut bands = Vec::with_capacity(per_group.len());
    for (g, mut v) in per_group.into_iter().enumerate() {
        v.sort_unstable_by(|a, b| b.total_cmp(a));
        let (lo, hi) = band_counts(v.len(), interval);
        if hi <= lo {
            return Err(MetricError::EmptyGroup {
                group: groups.names()[g].clone(),
            });
        }
        let mut band = v[lo..hi].to_vec();
        band.sort_unstable_by(f64::total_cmp);
        bands.push(band);
    }
    Ok(PairwiseSummary::build(
        "partial group AUC gap",
        groups.names().to_vec(),
        |a, b| {
            let (xa, xb) = (&bands[a], &bands[b]);
            let wins: f64 = xa
                .iter()
                .map(|&s| {
                    let below = xb.partition_point(|&t| t < s);
                    let ties = xb.partition_point(|&t| t <= s) - below;
                    below as f64 + 0.5 * ties as f64
                })
                .sum();
            (wins / (xa.len() as f64 * xb.len() as f64) - 0.5).abs()
        },
    ))
}

/// `(⌈α n⌉, ⌈β n⌉)`, the first and one-past-last descending ranks of the band; the 1e-9 keeps
/// `0.3 · 10` from rounding up to 4.
fn band_counts(n: usize, interval: PercentileInterval) -> (usize, usize) {
    let c = |p: f64| ((p * n as f64 - 1e-9).ceil().max(0.0) as usize).min(n);
    (c(interval.alpha()), c(interval.beta()))
}

#[cfg(test)]
mod gauc_tests {
    use super::*;

    #[test]
    fn partial_group_auc_matches_the_double_loop() {
        let labels: Vec<&str> = (0..23)
            .map(|i| if i % 3 == 0 { "x" } else { "y" })
            .collect();
        let groups = Groups::from_labels(&labels);
        // Coarse scores so that ties occur.
        let scores: Vec<f64> = (0..23)
            .map(|i| ((i * 7 % 11) as f64 / 2.0).floor())
            .collect();
        let iv = PercentileInterval::new(0.2, 0.7).unwrap();
        let got = partial_group_auc(&scores, &groups, iv).unwrap();
        let band = |g: usize| {
            let mut v: Vec<f64> = scores
                .iter()
                .zip(groups.codes())
                .filter(|&(_, &c)| c == g)
                .map(|(&s, _)| s)
                .collect();
            v.sort_by(|a, b| b.total_cmp(a));
            let (lo, hi) = band_counts(v.len(), iv);
            v[lo..hi].to_vec()
        };
        let (a, b) = (band(0), band(1));
        let mut p = 0.0;
        for &s in &a {
            for &t in &b {
                p += if s > t {
                    1.0
                } else if s < t {
                    0.0
                } else {
                    0.5
                };
            }
        }
        let want = (p / (a.len() * b.len()) as f64 - 0.5).abs();
        assert!((got.max - want).abs() < 1e-12, "{} vs {want}", got.max);
        assert!(want > 0.0);
    }

    #[test]
    fn empty_band_is_an_error() {
        let groups = Groups::from_labels(&["a", "a", "b", "b"]);
        let iv = PercentileInterval::new(0.0, 0.1).unwrap();
        // ⌈0.1 · 2⌉ = 1 row: fine; an interval inside one rank step is empty.
        assert!(partial_group_auc(&[1.0, 2.0, 3.0, 4.0], &groups, iv).is_ok());
        let thin = PercentileInterval::new(0.1, 0.2).unwrap();
        assert!(matches!(
            partial_group_auc(&[1.0, 2.0, 3.0, 4.0], &groups, thin),
            Err(MetricError::EmptyGroup { .. })
        ));
    }
}
