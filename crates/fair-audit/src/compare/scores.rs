//! The score gaps' changes between two audit reports: AUC difference, KS DP-Δ / EO-Δ and partial
//! SP, each from the two reports' own intervals ([`score_gap_change`]: Bonferroni over the two
//! audits), so two saved reports suffice and the rows may or may not be shared.

use super::{GapChange, SliceChange, bad};
use crate::error::AuditError;
use crate::keys::Key;
use crate::model::{AuditReport, PairMax, ScoreSlice};
use crate::summary::alpha;
use fair_metrics::ci::{
    ScoreGapInference, auc_difference_inference, ks_inference_of_max, score_gap_change,
};

/// How the score gaps' changes are computed (written into the comparison).
pub const SCORE_CHANGE_METHOD: &str = "score gaps (AUC difference, KS DP-Δ / EO-Δ, partial SP): Bonferroni over the two audits — each audit's own interval (the report's method) at level 1 − α/2, so both cover at once with probability ≥ 1 − α whatever the dependence between the audits; change interval [lower after − upper before, upper after − lower before]; p-value the smallest α at which that interval leaves 0 (bisection on log α; 1e-14 is the smallest reported). Valid for two sets of rows and for two score columns of the same rows; conservative";

/// The pairwise maximum of a score gap in one slice's score metrics.
fn field(s: &ScoreSlice, key: Key) -> Option<&PairMax> {
    match key {
        Key::AucDifference => s.auc_gap.as_ref(),
        Key::KsDp => s.ks_dp.as_ref(),
        Key::KsEo => s.ks_eo.as_ref(),
        Key::Psp => s.psp.as_ref(),
        _ => None,
    }
}

/// Each group's unweighted (rows, positives, negatives) in one slice of a report, from the
/// counts of its first audit (they do not depend on the prediction source).
fn group_sizes(
    which: &str,
    r: &AuditReport,
    slice: &str,
) -> Result<Vec<(String, [f64; 3])>, AuditError> {
    let s = r
        .audits
        .first()
        .into_iter()
        .flat_map(|a| &a.slices)
        .find(|s| s.slice == slice)
        .ok_or_else(|| {
            bad(
                which,
                format!("score metrics of slice {slice:?} without its counts"),
            )
        })?;
    Ok(s.groups
        .iter()
        .map(|g| {
            let c = &g.counts;
            let (tn, fp, fn_, tp) = (c.tn, c.fp, c.fn_, c.tp);
            (g.group.clone(), [tn + fp + fn_ + tp, fn_ + tp, tn + fp])
        })
        .collect())
}

/// One report's side of one score gap: the gap's inference at any confidence, from what the
/// report keeps (the value, each group's AUC and sizes), with the audit's rule for small groups.
struct ScoreSide {
    /// The gap's value (None when undefined in the report).
    value: Option<f64>,
    /// AUC per group with its positives and negatives (AUC difference only).
    auc: Vec<(Option<f64>, f64, f64)>,
    /// Sample size per kept group (KS and partial SP).
    n: Vec<f64>,
    /// 1/(β−α) for partial SP, 1 for KS.
    scale: f64,
}

impl ScoreSide {
    fn read(which: &str, r: &AuditReport, sm: &ScoreSlice, key: Key) -> Result<Self, AuditError> {
        let sizes = group_sizes(which, r, &sm.slice)?;
        let min = r.settings.min_group_size as f64;
        let big = |n: f64| n >= min && n > 0.0;
        let mut side = Self {
            value: field(sm, key).map(|p| p.value),
            auc: Vec::new(),
            n: Vec::new(),
            scale: 1.0,
        };
        if key == Key::AucDifference {
            for g in &sm.auc_by_group {
                let Some((_, [_, pos, neg])) = sizes.iter().find(|(n, _)| *n == g.group) else {
                    return Err(bad(
                        which,
                        format!("AUC of group {:?} without its counts", g.group),
                    ));
                };
                let auc = g.auc.filter(|_| big(*pos) && big(*neg));
                side.auc.push((auc, *pos, *neg));
            }
        } else {
            let k = usize::from(key == Key::KsEo);
            side.n = sizes
                .iter()
                .map(|(_, s)| s[k])
                .filter(|&n| big(n))
                .collect();
            if key == Key::Psp
                && let Some([a, b]) = r.settings.interval
            {
                side.scale = 1.0 / (b - a);
            }
        }
        Ok(side)
    }

    fn at(&self, key: Key, confidence: f64) -> fair_metrics::Result<Option<ScoreGapInference>> {
        let Some(d) = self.value else {
            return Ok(None);
        };
        if key == Key::AucDifference {
            let auc: Vec<Option<f64>> = self.auc.iter().map(|a| a.0).collect();
            let pos: Vec<f64> = self.auc.iter().map(|a| a.1).collect();
            let neg: Vec<f64> = self.auc.iter().map(|a| a.2).collect();
            auc_difference_inference(&auc, &pos, &neg, confidence)
        } else {
            ks_inference_of_max(d, &self.n, self.scale, confidence).map(Some)
        }
    }
}

/// Every score gap of every slice both reports have score metrics for, with its change
/// ([`SCORE_CHANGE_METHOD`]); empty when either report has none.
///
/// # Errors
/// [`AuditError::Input`] for score metrics whose slice has no counts in the report, and
/// [`AuditError::Metric`]-like setting errors as [`AuditError::Input`].
pub(super) fn score_changes(
    before: &AuditReport,
    after: &AuditReport,
    confidence: f64,
) -> Result<Vec<SliceChange>, AuditError> {
    let (a_list, b_list) = (
        before.score_metrics.as_deref().unwrap_or_default(),
        after.score_metrics.as_deref().unwrap_or_default(),
    );
    let mut out = Vec::new();
    for sa in a_list {
        let Some(sb) = b_list.iter().find(|s| s.slice == sa.slice) else {
            continue;
        };
        let mut gaps = Vec::new();
        for key in Key::SCORE {
            let b = ScoreSide::read("the first report", before, sa, key)?;
            let f = ScoreSide::read("the second report", after, sb, key)?;
            if b.value.is_none() && f.value.is_none() {
                continue; // not computed in either (e.g. psp without an interval)
            }
            let r = score_gap_change(|c| b.at(key, c), |c| f.at(key, c), confidence);
            gaps.push(entry(key, (b.value, f.value), r, confidence)?);
        }
        if !gaps.is_empty() {
            out.push(SliceChange {
                threshold: None,
                slice: sa.slice.clone(),
                gaps,
                rates: Vec::new(),
            });
        }
    }
    Ok(out)
}

fn entry(
    key: Key,
    (before, after): (Option<f64>, Option<f64>),
    r: fair_metrics::Result<Option<fair_metrics::ci::ChangeInference>>,
    confidence: f64,
) -> Result<GapChange, AuditError> {
    let undefined = |reason: String| GapChange {
        key,
        name: key.name().to_string(),
        before,
        after,
        change: None,
        lower: None,
        upper: None,
        p_value: None,
        worse: false,
        undefined_reason: Some(reason),
    };
    Ok(match r {
        Ok(Some(c)) => GapChange {
            key,
            name: key.name().to_string(),
            before: Some(c.before),
            after: Some(c.after),
            change: Some(c.change),
            lower: Some(c.interval.lower),
            upper: Some(c.interval.upper),
            p_value: Some(c.p_value),
            worse: c.p_value < alpha(confidence) && c.change > 0.0,
            undefined_reason: None,
        },
        Ok(None) => undefined(format!(
            "undefined in the {} audit",
            if before.is_none() { "first" } else { "second" }
        )),
        Err(fair_metrics::MetricError::InvalidParameter {
            name: "confidence",
            value,
            expected,
        }) => {
            return Err(AuditError::Input {
                name: "comparison settings",
                reason: format!("{value}: expected {expected}"),
            });
        }
        Err(e) => undefined(e.to_string()),
    })
}
