//! Assembling the whole report from the merged states: every slice's rates, gaps and score
//! metrics, the headline, the summary sentences and the score charts.

use crate::charts::ChartData;
use crate::compute::{self, SliceDef, Stats};
use crate::error::AuditError;
use crate::model::{self, AuditReport, InputInfo, ScoreSlice, Settings, ThresholdAudit, Tool};
use crate::summary;
use fair_metrics::ci::MultipleTesting;
use fair_metrics::partial::PercentileInterval;
use fair_metrics::score_sweep::SliceScores;
use fair_metrics::state::ConfusionState;

/// What a report is built from, besides the states.
#[derive(Debug, Clone)]
pub struct ReportSpec {
    /// What was read.
    pub input: InputInfo,
    /// The slices, in report order (see [`SliceDef::all`]).
    pub slices: Vec<SliceDef>,
    /// The statistics settings.
    pub stats: Stats,
    /// The thresholds on the score, one confusion source each (empty: the prediction column).
    pub thresholds: Vec<f64>,
    /// The partial-SP interval, if any.
    pub interval: Option<PercentileInterval>,
    /// Whether the rows carried weights.
    pub weighted: bool,
}

impl ReportSpec {
    /// The spec of a plain audit of one sensitive column: 0/1 labels and predictions in columns
    /// `label` and `prediction` (positive `1`, negative `0`), `rows` rows read from `file`, no
    /// thresholds, score, interval or weights — the shape of hand-made examples and tests.
    ///
    /// ```
    /// use fair_audit::{ReportSpec, Stats};
    /// let spec = ReportSpec::binary("hand", "y", "p", "group", 6, Stats::default());
    /// assert_eq!(spec.slices.len(), 1);
    /// ```
    pub fn binary(
        file: &str,
        label: &str,
        prediction: &str,
        column: &str,
        rows: u64,
        stats: Stats,
    ) -> Self {
        let sensitive = vec![column.to_string()];
        Self {
            input: InputInfo {
                file: file.into(),
                format: "csv".into(),
                rows,
                columns: crate::model::Columns {
                    label: label.into(),
                    prediction: Some(prediction.into()),
                    score: None,
                    sensitive: sensitive.clone(),
                    weight: None,
                },
                positive_label: "1".into(),
                negative_label: Some("0".into()),
            },
            slices: SliceDef::all(&sensitive),
            stats,
            thresholds: Vec::new(),
            interval: None,
            weighted: false,
        }
    }
}

/// Builds the report (with empty `fail_if`: gates are the front end's) and its score charts.
///
/// `confusion[source][slice]` holds one state per prediction source (the prediction column, or
/// each threshold in order) and slice; `scores`, with a score column, one [`SliceScores`] per
/// slice (recorded with curves for the charts).
///
/// # Errors
/// [`AuditError::Input`] when the states or scores do not match the slices and thresholds;
/// [`AuditError::Metric`] when a slice's state is empty.
pub fn build_report(
    spec: &ReportSpec,
    confusion: &[Vec<ConfusionState>],
    scores: Option<&[SliceScores]>,
) -> Result<(AuditReport, ChartData), AuditError> {
    let sources = spec.thresholds.len().max(1);
    if confusion.len() != sources || confusion.iter().any(|c| c.len() != spec.slices.len()) {
        return Err(AuditError::Input {
            name: "confusion states",
            reason: format!(
                "one state per (prediction source, slice): {sources} × {} expected",
                spec.slices.len()
            ),
        });
    }
    if scores.is_some_and(|s| s.len() != spec.slices.len()) {
        return Err(AuditError::Input {
            name: "score metrics",
            reason: format!("one per slice: {} expected", spec.slices.len()),
        });
    }
    let sensitive = &spec.input.columns.sensitive;
    let mut audits = Vec::new();
    for (source, states) in confusion.iter().enumerate() {
        let slices = spec
            .slices
            .iter()
            .zip(states)
            .map(|(slice, state)| compute::confusion_slice(slice, sensitive, state, &spec.stats))
            .collect::<Result<Vec<_>, _>>()?;
        audits.push(ThresholdAudit {
            threshold: spec.thresholds.get(source).copied(),
            slices,
        });
    }
    let mut charts = ChartData::default();
    let score_metrics = scores.map(|results| {
        let mut out: Vec<ScoreSlice> = Vec::new();
        for (i, ((slice, m), sizes)) in spec
            .slices
            .iter()
            .zip(results)
            .zip(&confusion[0])
            .enumerate()
        {
            let mut scored = compute::score_slice(slice, m, &spec.stats, spec.interval, sizes);
            let rows: Vec<u64> = m
                .names
                .iter()
                .map(|g| {
                    sizes
                        .denominator_rows(g, fair_metrics::Rate::Selection)
                        .unwrap_or(0)
                })
                .collect();
            scored.scoring_rate = crate::scoring_rate::scoring_rates(i, m, &rows, &spec.stats);
            let mut small: Vec<String> = scored
                .small_groups
                .iter()
                .map(|u| u.group.clone())
                .collect();
            small.dedup();
            charts.add_slice_with_small(&slice.name, m, &small);
            out.push(scored);
        }
        out
    });
    let mut report = AuditReport {
        schema: model::SCHEMA_NAME,
        schema_version: model::SCHEMA_VERSION,
        tool: Tool {
            name: "fairkit".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        },
        input: spec.input.clone(),
        settings: Settings {
            confidence: spec.stats.confidence,
            rate_ci_method: spec.stats.method.key().into(),
            gap_method: GAP_METHOD.into(),
            score_inference_method: compute::SCORE_INFERENCE_METHOD.into(),
            resamples: spec.stats.resamples,
            seed: spec.stats.seed,
            thresholds: spec.thresholds.clone(),
            interval: spec.interval.map(|iv| [iv.alpha(), iv.beta()]),
            weighted: spec.weighted,
            min_group_size: spec.stats.min_group_size,
            multiple_testing: MultipleTesting::None.to_string(),
            disparity: None,
        },
        headline: Default::default(),
        audits,
        score_metrics,
        summary: Vec::new(),
        fail_if: Vec::new(),
        over_time: None,
        comparison: None,
        regression: None,
        ranking: None,
        unknowns: None,
        inferred: None,
    };
    report.headline = summary::headline(&report);
    report.summary = summary::sentences(&report);
    Ok((report, charts))
}

/// How gap intervals and p-values are computed (written into the report).
pub const GAP_METHOD: &str = "stratified bootstrap percentile interval (each group's confusion cells redrawn from its multinomial) and one-sided permutation p-value (multivariate hypergeometric tables with the margins fixed), both from counts; equalized odds permutes within positives and within negatives; weighted data uses Kish effective counts (approximate)";

/// Adjusts the p-value of every gap of the report (every threshold's audit, every slice, the
/// count gaps and the score gaps alike: one family) with `method`, writes each adjusted value
/// beside the raw one, records the method in the settings and rewrites the summary, whose
/// "distinguishable" calls then use the adjusted values. [`MultipleTesting::None`] leaves the
/// report as built.
///
/// Why one family over the whole report: the report's summary and first page call gaps
/// distinguishable across all slices and thresholds together, and a reader acts on any of
/// them, so the false discoveries to control are those among all the calls made.
///
/// ```
/// use fair_audit::{apply_multiple_testing, build_report, ReportSpec, Stats};
/// use fair_data::Groups;
/// use fair_metrics::ci::MultipleTesting;
/// use fair_metrics::state::ConfusionState;
///
/// let y: Vec<usize> = (0..400).map(|i| i % 2).collect();
/// let p: Vec<usize> = (0..400).map(|i| usize::from(i % 3 == 0)).collect();
/// let g: Vec<&str> = (0..400).map(|i| if i % 4 == 0 { "a" } else { "b" }).collect();
/// let mut state = ConfusionState::new();
/// state.update(&y, &p, &Groups::from_labels(&g), None)?;
/// let spec = ReportSpec::binary("hand", "y", "p", "g", 400, Stats::default());
/// let (mut report, _) = build_report(&spec, &[vec![state]], None)?;
/// apply_multiple_testing(&mut report, MultipleTesting::By);
/// assert_eq!(report.settings.multiple_testing, "by");
/// let gap = &report.audits[0].slices[0].gaps[0];
/// assert!(gap.p_value_adjusted.unwrap() >= gap.p_value.unwrap());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn apply_multiple_testing(report: &mut AuditReport, method: MultipleTesting) {
    report.settings.multiple_testing = method.to_string();
    let mut p = Vec::new();
    visit_p_values(report, |raw, _| {
        if let Some(x) = raw {
            p.push(*x);
        }
    });
    let Some(adjusted) = method.adjust(&p) else {
        return;
    };
    let mut next = adjusted.into_iter();
    visit_p_values(report, |raw, slot| {
        if raw.is_some() {
            *slot = next.next();
        }
    });
    report.summary = summary::sentences(report);
}

/// Calls `f(p_value, p_value_adjusted)` for every gap of the report with its p-value, in one
/// fixed order (audits, slices, gaps; then score slices, their four gaps).
fn visit_p_values(report: &mut AuditReport, mut f: impl FnMut(&Option<f64>, &mut Option<f64>)) {
    for audit in &mut report.audits {
        for slice in &mut audit.slices {
            for g in &mut slice.gaps {
                f(&g.p_value, &mut g.p_value_adjusted);
            }
        }
    }
    for s in report.score_metrics.iter_mut().flatten() {
        for g in [&mut s.auc_gap, &mut s.ks_dp, &mut s.ks_eo, &mut s.psp]
            .into_iter()
            .flatten()
        {
            f(&g.p_value, &mut g.p_value_adjusted);
        }
    }
}
