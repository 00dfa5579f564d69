//! Two audits compared — a new model against the old one, this week against last — gap by gap:
//! both values, the change, its bootstrap interval and a p-value of "the gap did not change"
//! (`fair_metrics::ci::gap_change_inference`, two-sample: the audits' rows are taken as
//! independent), and a sentence for every change distinguishable from zero by the report's one
//! rule (p < 1 − confidence). Built from two saved reports (`report.json`): their per-group counts
//! are the sufficient statistics of every count gap.

use crate::compute::{GAPS, small_groups};
use crate::error::AuditError;
use crate::ingest::{AuditState, GROUP_SEPARATOR};
use crate::keys::Key;
use crate::model::{AuditReport, ConfusionSlice};
use crate::summary::{alpha, p_text, value_text};
use fair_metrics::ci::{GapKind, GapSettings, PairedDraws, gap_change_inference};
use fair_metrics::state::ConfusionState;
use fair_report::{HtmlReport, Table};

pub mod first_page;
pub mod regression;
mod scores;
pub use crate::model::compare::{
    COMPARE_SCHEMA, CompareSettings, Comparison, GapChange, ModelChange, RateChangeEntry, Side,
    SliceChange, SliceVerdict, WorseGap, WorseGate, WorseRate,
};
pub use scores::SCORE_CHANGE_METHOD;

/// How the changes of two prediction columns of the same rows are computed.
pub const PAIRED_METHOD: &str = "paired stratified bootstrap: each group's rows redrawn with replacement as their joint cells (label × first model's prediction × second model's prediction, the multinomial over eight cells), both gaps recomputed on every draw; percentile interval of after − before; two-sided bootstrap p-value min(1, 2·min(1 + #{Δ* ≤ 0}, 1 + #{Δ* ≥ 0}) / (1 + B)); identical predictions give exactly 0, p = 1; groups below the minimum group size kept out of both";

/// How the changes are computed (written into the comparison).
pub const CHANGE_METHOD: &str = "two-sample stratified bootstrap: each audit's groups redrawn from the multinomial of their rows, independently; percentile interval of after − before; two-sided bootstrap p-value min(1, 2·min(1 + #{Δ* ≤ 0}, 1 + #{Δ* ≥ 0}) / (1 + B)), so the interval leaves 0 exactly when p < 1 − confidence (up to the +1s); groups below either audit's minimum group size are kept out of both";

/// How the rates' changes of two audits are computed.
pub const RATE_CHANGE_METHOD: &str = "rates: Newcombe's hybrid score interval of the difference of two proportions (from the Wilson intervals) and the two-sided pooled z-test";

/// How the rates' changes of two prediction columns of the same rows are computed.
pub const PAIRED_RATE_METHOD: &str = "rates: the rows where the models disagree (b counted by the first only, c by the second only): change (c − b)/n with the paired Wald interval, and McNemar's exact two-sided test";

/// The rates compared, with their (numerator, denominator) cells over (tn, fp, fn, tp).
const COMPARED_RATES: [(&str, [bool; 4], [bool; 4]); 4] = [
    (
        "selection_rate",
        [false, true, false, true],
        [true, true, true, true],
    ),
    (
        "true_positive_rate",
        [false, false, false, true],
        [false, false, true, true],
    ),
    (
        "false_positive_rate",
        [false, true, false, false],
        [true, true, false, false],
    ),
    (
        "accuracy",
        [true, false, false, true],
        [true, true, true, true],
    ),
];

fn masked(cells: &[f64; 4], mask: [bool; 4]) -> u64 {
    cells
        .iter()
        .zip(mask)
        .filter(|(_, m)| *m)
        .map(|(c, _)| *c)
        .sum::<f64>() as u64
}

fn rate_entry(
    group: &str,
    rate: &'static str,
    r: Option<fair_metrics::ci::RateChange>,
) -> RateChangeEntry {
    RateChangeEntry {
        group: group.to_string(),
        rate,
        before: r.map(|r| r.before),
        after: r.map(|r| r.after),
        change: r.map(|r| r.change),
        lower: r.map(|r| r.interval.lower),
        upper: r.map(|r| r.interval.upper),
        p_value: r.map(|r| r.p_value),
    }
}

/// Every rate of every group of both two-sample states (groups in both, by name).
fn two_sample_rates(
    a: &ConfusionState,
    b: &ConfusionState,
    confidence: f64,
) -> Result<Vec<RateChangeEntry>, AuditError> {
    let cells = |s: &ConfusionState| -> Result<NamedCells, AuditError> {
        let gc = s
            .to_group_confusion()
            .map_err(|source| AuditError::Metric {
                what: "a comparison's rates".into(),
                source,
            })?;
        Ok(gc
            .names()
            .iter()
            .zip(gc.by_group())
            .map(|(n, c)| (n.clone(), [c.tn, c.fp, c.fn_, c.tp]))
            .collect())
    };
    let (ca, cb) = (cells(a)?, cells(b)?);
    let mut out = Vec::new();
    for (group, x) in &ca {
        let Some((_, y)) = cb.iter().find(|(g, _)| g == group) else {
            continue;
        };
        for (rate, num, den) in COMPARED_RATES {
            let r = fair_metrics::ci::proportion_change(
                (masked(x, num), masked(x, den)),
                (masked(y, num), masked(y, den)),
                confidence,
            )
            .map_err(|source| AuditError::Metric {
                what: "a rate's change".into(),
                source,
            })?;
            out.push(rate_entry(group, rate, r));
        }
    }
    Ok(out)
}

/// Every rate of every group of a paired comparison, from each group's joint cells (the first
/// model's cells where the second says 0, and where it says 1).
fn paired_rates(
    names: &[String],
    joint: &[[[f64; 4]; 2]],
    confidence: f64,
) -> Result<Vec<RateChangeEntry>, AuditError> {
    let mut out = Vec::new();
    for (group, j) in names.iter().zip(joint) {
        let [z, o] = j;
        let total = |m: [bool; 4]| masked(z, m) + masked(o, m);
        let u = |v: f64| v as u64;
        // (first model's successes, b: first only, c: second only, denominator rows)
        let rates = [
            (
                "selection_rate",
                total([false, true, false, true]),
                u(z[1] + z[3]),
                u(o[0] + o[2]),
                total([true; 4]),
            ),
            (
                "true_positive_rate",
                total([false, false, false, true]),
                u(z[3]),
                u(o[2]),
                total([false, false, true, true]),
            ),
            (
                "false_positive_rate",
                total([false, true, false, false]),
                u(z[1]),
                u(o[0]),
                total([true, true, false, false]),
            ),
            (
                "accuracy",
                total([true, false, false, true]),
                u(o[0] + z[3]),
                u(z[1] + o[2]),
                total([true; 4]),
            ),
        ];
        for (rate, before, b, c, n) in rates {
            let r = fair_metrics::ci::paired_proportion_change(before, (b, c), n, confidence)
                .map_err(|source| AuditError::Metric {
                    what: "a rate's paired change".into(),
                    source,
                })?;
            out.push(rate_entry(group, rate, r));
        }
    }
    Ok(out)
}

fn bad(which: &str, what: impl std::fmt::Display) -> AuditError {
    AuditError::Input {
        name: "report to compare",
        reason: format!("{which}: {what}"),
    }
}

/// The per-group row counts of one slice of a report, as a state.
fn slice_state(which: &str, slice: &ConfusionSlice) -> Result<ConfusionState, AuditError> {
    let mut out = Vec::new();
    for g in &slice.groups {
        let c = &g.counts;
        let mut cells = [0u64; 4];
        for (k, (key, v)) in [("tn", c.tn), ("fp", c.fp), ("fn_", c.fn_), ("tp", c.tp)]
            .into_iter()
            .enumerate()
        {
            if !(v >= 0.0 && v.fract() == 0.0 && v <= 9.0e15) {
                return Err(bad(
                    which,
                    format!(
                        "group {:?} of slice {:?}: count {key} = {v} is not a row count",
                        g.group, slice.slice
                    ),
                ));
            }
            cells[k] = v as u64;
        }
        out.push((g.group.clone(), cells));
    }
    Ok(ConfusionState::from_row_counts(out))
}

/// The slices of a report by (threshold, slice name), each as a state.
type Slices = Vec<(Option<f64>, String, ConfusionState)>;

fn read(which: &str, r: &AuditReport) -> Result<(Side, Slices, u64), AuditError> {
    if r.regression.is_some() {
        return Err(bad(
            which,
            "the audit of a numeric target (--target), and the other report a classifier's: compare two regression audits, or two classification audits",
        ));
    }
    if r.settings.weighted {
        return Err(bad(
            which,
            "a weighted audit: its report keeps weighted sums, not the rows a comparison redraws; compare unweighted audits",
        ));
    }
    let side = Side {
        file: r.input.file.clone(),
        rows: r.input.rows,
    };
    let mut slices = Vec::new();
    for audit in &r.audits {
        for s in &audit.slices {
            slices.push((audit.threshold, s.slice.clone(), slice_state(which, s)?));
        }
    }
    if slices.is_empty() {
        return Err(bad(which, "a report without audits"));
    }
    Ok((side, slices, r.settings.min_group_size))
}

fn same_source(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => (x - y).abs() < 1e-12,
        _ => false,
    }
}

/// Compares two audit reports (`report.json`, parsed) gap by gap: every slice and prediction
/// source both have, with `resamples` bootstrap pairs from `seed` at `confidence`.
///
/// # Errors
/// [`AuditError::Input`] for a document that is not an unweighted fairkit audit report, or two
/// reports with no slice and prediction source in common (different sensitive columns or
/// thresholds); [`AuditError::Metric`] for a bad setting.
///
/// # Example
/// ```
/// use fair_audit::{ReportSpec, Stats, Views, build_report, compare::compare_reports, render};
/// use fair_data::Groups;
/// use fair_metrics::state::ConfusionState;
///
/// let json = |selected_b: usize| {
///     let p: Vec<usize> = (0..200).map(|i| usize::from(if i < 100 { i < 60 } else { i - 100 < selected_b })).collect();
///     let g: Vec<&str> = (0..200).map(|i| if i < 100 { "a" } else { "b" }).collect();
///     let mut s = ConfusionState::new();
///     s.update(&vec![1; 200], &p, &Groups::from_labels(&g), None).unwrap();
///     let spec = ReportSpec::binary("m", "y", "p", "g", 200, Stats::default());
///     let (r, c) = build_report(&spec, &[vec![s]], None).unwrap();
///     let v = Views { json: true, markdown: false, html: false };
///     fair_audit::model::AuditReport::from_json(&render(&r, &c, v).unwrap().json.unwrap()).unwrap()
/// };
/// let c = compare_reports(&json(20), &json(58), 0.95, 500, 0)?;
/// let dp = &c.changes[0].gaps[0];
/// assert!((dp.change.unwrap() + 0.38).abs() < 1e-12); // 0.40 → 0.02
/// assert!(dp.p_value.unwrap() < 0.05 && !dp.worse);
/// # Ok::<(), fair_audit::AuditError>(())
/// ```
pub fn compare_reports(
    before: &AuditReport,
    after: &AuditReport,
    confidence: f64,
    resamples: usize,
    seed: u64,
) -> Result<Comparison, AuditError> {
    compare_reports_with(
        before,
        after,
        (confidence, resamples, seed),
        Partial::Refuse,
    )
}

/// What a comparison does with audits that do not match (slices, prediction sources or groups
/// in one only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partial {
    /// Refuse, naming every difference ([`AuditError::Input`]).
    Refuse,
    /// Compare what both have, and say in the summary what was left out.
    Allow,
}

/// [`compare_reports`] with `(confidence, resamples, seed)`, going on over slices and groups
/// that do not match only when `partial` is [`Partial::Allow`].
///
/// # Errors
/// As [`compare_reports`]; with [`Partial::Refuse`], also [`AuditError::Input`] naming every
/// slice, prediction source or group that only one audit has (groups differing only by case
/// are named as such).
pub fn compare_reports_with(
    before: &AuditReport,
    after: &AuditReport,
    (confidence, resamples, seed): (f64, usize, u64),
    partial: Partial,
) -> Result<Comparison, AuditError> {
    if let (Some(a), Some(b)) = (&before.regression, &after.regression) {
        return regression::compare_regression(
            before,
            after,
            (a, b),
            (confidence, resamples, seed),
            partial == Partial::Allow,
        );
    }
    let (side_a, slices_a, min_a) = read("the first report", before)?;
    let (side_b, slices_b, min_b) = read("the second report", after)?;
    let mismatches = mismatches(&slices_a, &slices_b);
    if missing(&slices_a, &slices_b).len() == slices_a.len() {
        return Err(AuditError::Input {
            name: "reports to compare",
            reason: format!(
                "they have no sensitive column and prediction source in common: audit both with the same --sensitive columns and the same --pred or --threshold values ({})",
                mismatches.join("; ")
            ),
        });
    }
    if partial == Partial::Refuse && !mismatches.is_empty() {
        return Err(AuditError::Input {
            name: "reports to compare",
            reason: format!(
                "they do not match, so the comparison would not be faithful: {}. Audit both with the same --sensitive columns, --pred/--threshold and groups, or pass --allow-partial (allow_partial=True in Python) to compare only what they share",
                mismatches.join("; ")
            ),
        });
    }
    let min = min_a.max(min_b);
    let mut changes = Vec::new();
    for (threshold, name, a) in &slices_a {
        let Some((_, _, b)) = slices_b
            .iter()
            .find(|(t, n, _)| n == name && same_source(*t, *threshold))
        else {
            continue;
        };
        let mut gaps = Vec::new();
        for &(key, gap_name, metric, kind) in GAPS.iter() {
            let settings = GapSettings {
                kind,
                confidence,
                n_resamples: resamples,
                seed,
                ..GapSettings::default()
            };
            // A group small in either audit is kept out of both, so both gaps compare the
            // same groups.
            let small: Vec<String> = small_groups(a, metric, min)
                .into_iter()
                .chain(small_groups(b, metric, min))
                .map(|u| u.group)
                .collect();
            let keep = |s: &ConfusionState| s.retain_groups(|g| !small.iter().any(|x| x == g));
            let r = gap_change_inference(&keep(a), &keep(b), metric, &settings);
            gaps.push(gap_change((key, gap_name, kind), r, confidence)?);
        }
        changes.push(SliceChange {
            threshold: *threshold,
            slice: name.clone(),
            gaps,
            rates: two_sample_rates(a, b, confidence)?,
        });
    }
    if changes.is_empty() {
        return Err(AuditError::Input {
            name: "reports to compare",
            reason: "they have no sensitive column and prediction source in common: audit both with the same --sensitive columns and the same --pred or --threshold values".into(),
        });
    }
    let differing = differing_groups(&slices_a, &slices_b);
    let left_out = left_out_slices(&slices_a, &slices_b);
    let score_changes = scores::score_changes(before, after, confidence)?;
    let mut c = Comparison {
        schema: COMPARE_SCHEMA,
        schema_version: 1,
        before: side_a,
        after: side_b,
        settings: CompareSettings {
            confidence,
            resamples,
            seed,
            method: CHANGE_METHOD.to_string(),
            rate_method: RATE_CHANGE_METHOD.to_string(),
            paired: false,
            score_method: (!score_changes.is_empty()).then(|| SCORE_CHANGE_METHOD.to_string()),
        },
        changes,
        score_changes,
        summary: Vec::new(),
        fail_if: Vec::new(),
        fail_if_worse: None,
        model: first_page::model_two_sample(before, after, confidence)?,
        verdicts: Vec::new(),
    };
    c.verdicts = first_page::verdicts(&c);
    c.summary = first_page::sentences(&c);
    c.summary.extend(sentences(&c));
    c.summary.extend(left_out);
    c.summary.extend(differing);
    Ok(c)
}

/// A source and slice as the messages name it: `slice race` or `slice race at threshold 0.5`.
fn where_(threshold: Option<f64>, name: &str) -> String {
    let at = threshold.map_or(String::new(), |t| format!(" at threshold {t}"));
    format!("slice {name:?}{at}")
}

/// The (source, slice) pairs of `a` that `b` lacks.
fn missing<'a>(a: &'a Slices, b: &Slices) -> Vec<&'a (Option<f64>, String, ConfusionState)> {
    a.iter()
        .filter(|(t, n, _)| !b.iter().any(|(u, m, _)| m == n && same_source(*t, *u)))
        .collect()
}

/// The names of slices (or prediction sources), as messages write them.
fn slice_names(v: Vec<&(Option<f64>, String, ConfusionState)>) -> Vec<String> {
    v.into_iter().map(|(t, n, _)| where_(*t, n)).collect()
}

/// A slice both audits have whose groups differ: (threshold, slice, groups only before, groups
/// only after).
type GroupDifference<'a> = (Option<f64>, &'a str, Vec<String>, Vec<String>);

/// The slices both audits have whose groups differ.
fn group_differences<'a>(a: &'a Slices, b: &Slices) -> Vec<GroupDifference<'a>> {
    let only = |x: &[String], y: &[String]| -> Vec<String> {
        x.iter().filter(|g| !y.contains(g)).cloned().collect()
    };
    a.iter()
        .filter_map(|(threshold, name, sa)| {
            let (_, _, sb) = b
                .iter()
                .find(|(t, n, _)| n == name && same_source(*t, *threshold))?;
            let (ga, gb) = (sa.group_names(), sb.group_names());
            let (before_only, after_only) = (only(&ga, &gb), only(&gb, &ga));
            (!(before_only.is_empty() && after_only.is_empty())).then_some((
                *threshold,
                name.as_str(),
                before_only,
                after_only,
            ))
        })
        .collect()
}

/// Every way the two audits do not match: slices (or prediction sources) in one only, and in
/// the slices both have, groups in one only — a group whose name differs only by case from one
/// in the other audit is named as such.
fn mismatches(a: &Slices, b: &Slices) -> Vec<String> {
    let mut out = Vec::new();
    let (only_a, only_b) = (slice_names(missing(a, b)), slice_names(missing(b, a)));
    if !only_a.is_empty() {
        out.push(format!("only the first audit has {}", only_a.join(", ")));
    }
    if !only_b.is_empty() {
        out.push(format!("only the second audit has {}", only_b.join(", ")));
    }
    for (threshold, name, before_only, after_only) in group_differences(a, b) {
        let mut parts = Vec::new();
        let case: Vec<String> = before_only
            .iter()
            .filter_map(|g| {
                after_only
                    .iter()
                    .find(|h| h.to_lowercase() == g.to_lowercase())
                    .map(|h| format!("{g:?} / {h:?}"))
            })
            .collect();
        if !case.is_empty() {
            parts.push(format!("differing only by case: {}", case.join(", ")));
        }
        let quoted = |v: &[String]| v.iter().map(|g| format!("{g:?}")).collect::<Vec<_>>();
        if !before_only.is_empty() {
            parts.push(format!("only before: {}", quoted(&before_only).join(", ")));
        }
        if !after_only.is_empty() {
            parts.push(format!("only after: {}", quoted(&after_only).join(", ")));
        }
        out.push(format!(
            "the groups of {} differ ({})",
            where_(threshold, name),
            parts.join("; ")
        ));
    }
    out
}

/// A sentence naming the slices (or prediction sources) only one audit has, left out of a
/// partial comparison.
fn left_out_slices(a: &Slices, b: &Slices) -> Vec<String> {
    let (only_a, only_b) = (slice_names(missing(a, b)), slice_names(missing(b, a)));
    if only_a.is_empty() && only_b.is_empty() {
        return Vec::new();
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    vec![format!(
        "Partial comparison (--allow-partial): left out, only before: {}; only after: {}.",
        list(&only_a),
        list(&only_b)
    )]
}

/// A sentence per slice whose groups differ between the two audits (each gap is then measured
/// over its own audit's groups, and only the common groups' rates are compared).
fn differing_groups(a: &Slices, b: &Slices) -> Vec<String> {
    let mut out = Vec::new();
    for (_, name, before_only, after_only) in group_differences(a, b) {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        out.push(format!(
            "The groups of {name} differ: only before: {}; only after: {}. Each gap is measured over its own audit's groups; rates are compared for the groups in both.",
            list(&before_only),
            list(&after_only)
        ));
    }
    out
}

/// One gap's entry from its inference (a bad setting is the caller's error, any other failure
/// an undefined change with its reason).
fn gap_change(
    (key, name, kind): (Key, &'static str, GapKind),
    r: Result<fair_metrics::ci::ChangeInference, fair_metrics::MetricError>,
    confidence: f64,
) -> Result<GapChange, AuditError> {
    Ok(match r {
        Ok(c) => {
            let distinguishable = c.p_value < alpha(confidence);
            let worse = distinguishable
                && match kind {
                    GapKind::Difference => c.change > 0.0,
                    GapKind::Ratio => c.change < 0.0,
                };
            GapChange {
                key,
                name: name.to_string(),
                before: Some(c.before),
                after: Some(c.after),
                change: Some(c.change),
                lower: Some(c.interval.lower),
                upper: Some(c.interval.upper),
                p_value: Some(c.p_value),
                worse,
                undefined_reason: None,
            }
        }
        Err(fair_metrics::MetricError::InvalidParameter {
            name: "confidence" | "n_resamples",
            value,
            expected,
        }) => {
            return Err(AuditError::Input {
                name: "comparison settings",
                reason: format!("{value}: expected {expected}"),
            });
        }
        Err(e) => GapChange {
            key,
            name: name.to_string(),
            before: None,
            after: None,
            change: None,
            lower: None,
            upper: None,
            p_value: None,
            worse: false,
            undefined_reason: Some(e.to_string()),
        },
    })
}

/// How [`compare_paired`] reads the second model's predictions: the label coder's rule for the
/// audit's label pair (`1`, `1.0` and `true` alike), `None` for a value that is neither label.
pub fn second_model_coder(
    positive: &str,
    negative: Option<&str>,
) -> impl Fn(&str) -> Option<bool> + use<> {
    let coder = crate::ingest::coders::LabelCoder::new(positive, negative);
    let known = negative.map(str::to_string);
    move |v: &str| {
        let mut c = coder.clone();
        match c.code(v) {
            Some(1) => Some(true),
            Some(_) if known.is_none() || c.negative() == known.as_deref() => Some(false),
            _ => None,
        }
    }
}

/// A group's cells (tn, fp, fn, tp) per slice group name.
type NamedCells = Vec<(String, [f64; 4])>;

/// Two prediction columns of the same rows compared gap by gap with a paired bootstrap
/// ([`PAIRED_METHOD`]). `state` holds the first model's cells with the finest groups led by the
/// second model's prediction value (decoded as a group column); `is_positive` codes that value
/// (the label coder's rule: `1`, `1.0` and `true` alike; `None` for a value that is neither
/// label value). Every slice of `sensitive`; groups below `stats.min_group_size` (the same for
/// both models: they share labels and rows) kept out.
///
/// # Errors
/// [`AuditError::Input`] for a second-model value that is neither label value, a weighted
/// state, or a bad setting.
pub fn compare_paired(
    state: &AuditState,
    sensitive: &[String],
    is_positive: &dyn Fn(&str) -> Option<bool>,
    sides: (Side, Side),
    stats: &crate::compute::Stats,
) -> Result<Comparison, AuditError> {
    if state.is_weighted() {
        return Err(AuditError::Input {
            name: "--against",
            reason:
                "a paired comparison redraws rows: weighted rows are not supported; drop --weight"
                    .into(),
        });
    }
    let lead = |name: &str| -> String {
        name.split_once(GROUP_SEPARATOR)
            .map_or(name, |x| x.0)
            .to_string()
    };
    let mut codes: Vec<(String, bool)> = Vec::new();
    for name in state.finest_names() {
        let b = lead(&name);
        if codes.iter().any(|(v, _)| *v == b) {
            continue;
        }
        let code = is_positive(&b).ok_or_else(|| AuditError::Input {
            name: "--against",
            reason: format!(
                "the second prediction column has the value {b:?}, which is neither label value"
            ),
        })?;
        codes.push((b, code));
    }
    let positive = |name: &str| {
        let b = lead(name);
        codes.iter().any(|(v, c)| *v == b && *c)
    };
    let parts = [
        without_first(&state.retain(|n| !positive(n))),
        without_first(&state.retain(|n| positive(n))),
    ];
    let merged = without_first(state);
    let (slices, all) = merged.slice_states(sensitive)?;
    let cells_of = |part: &AuditState, slice: usize| -> Result<NamedCells, AuditError> {
        if part.total_rows() == 0 {
            return Ok(Vec::new());
        }
        let (_, states) = part.slice_states(sensitive)?;
        let gc = states[0][slice]
            .to_group_confusion()
            .map_err(|source| AuditError::Metric {
                what: "a paired comparison's cells".into(),
                source,
            })?;
        Ok(gc
            .names()
            .iter()
            .zip(gc.by_group())
            .map(|(n, c)| (n.clone(), [c.tn, c.fp, c.fn_, c.tp]))
            .collect())
    };
    let mut changes = Vec::new();
    let mut model = Vec::new();
    for (k, slice) in slices.iter().enumerate() {
        let (c0, c1) = (cells_of(&parts[0], k)?, cells_of(&parts[1], k)?);
        let whole = &all[0][k];
        let names = whole.group_names();
        let find =
            |c: &NamedCells, g: &str| c.iter().find(|(n, _)| n == g).map_or([0.0; 4], |x| x.1);
        let joint: Vec<[[f64; 4]; 2]> =
            names.iter().map(|g| [find(&c0, g), find(&c1, g)]).collect();
        if k == 0 {
            // Every slice holds all rows: the first one's groups sum to the whole model.
            model = first_page::model_paired(&joint, stats.confidence)?;
        }
        // One set of draws per slice; every gap is computed from it.
        let draws = PairedDraws::new(&joint, stats.resamples, stats.seed);
        let mut gaps = Vec::new();
        for &(key, gap_name, metric, kind) in GAPS.iter() {
            let small: Vec<String> = small_groups(whole, metric, stats.min_group_size)
                .into_iter()
                .map(|u| u.group)
                .collect();
            let keep: Vec<bool> = names.iter().map(|g| !small.contains(g)).collect();
            let settings = GapSettings {
                kind,
                confidence: stats.confidence,
                n_resamples: stats.resamples,
                seed: stats.seed,
                ..GapSettings::default()
            };
            let r = match &draws {
                Ok(d) if keep.iter().filter(|k| **k).count() >= 2 => {
                    d.change(metric, &settings, &keep)
                }
                Ok(_) => Err(fair_metrics::MetricError::InvalidParameter {
                    name: "groups",
                    value: "fewer than 2".into(),
                    expected: "at least two groups of the minimum group size to measure a gap",
                }),
                Err(e) => Err(e.clone()),
            };
            gaps.push(gap_change((key, gap_name, kind), r, stats.confidence)?);
        }
        changes.push(SliceChange {
            threshold: None,
            slice: slice.name.clone(),
            gaps,
            rates: paired_rates(&names, &joint, stats.confidence)?,
        });
    }
    let mut c = Comparison {
        schema: COMPARE_SCHEMA,
        schema_version: 1,
        before: sides.0,
        after: sides.1,
        settings: CompareSettings {
            confidence: stats.confidence,
            resamples: stats.resamples,
            seed: stats.seed,
            method: PAIRED_METHOD.to_string(),
            rate_method: PAIRED_RATE_METHOD.to_string(),
            paired: true,
            score_method: None,
        },
        changes,
        score_changes: Vec::new(),
        summary: Vec::new(),
        fail_if: Vec::new(),
        fail_if_worse: None,
        model,
        verdicts: Vec::new(),
    };
    c.verdicts = first_page::verdicts(&c);
    c.summary = first_page::sentences(&c);
    c.summary.extend(sentences(&c));
    Ok(c)
}

/// Evaluates `--fail-if` gates on a comparison of two saved audits: `change(…)` / `p(…)` read
/// the comparison slice by slice, plain keys the second audit's headline (`after`, its
/// report.json). The verdicts go to `c.fail_if` (the rendered comparison opens with them).
///
/// # Errors
/// [`AuditError::Input`] for a gate whose value is not available (the message says why).
pub fn gate(
    c: &mut Comparison,
    after: &AuditReport,
    gates: &[crate::fail_if::FailIf],
) -> Result<(), AuditError> {
    use crate::fail_if;
    if gates.is_empty() {
        return Ok(());
    }
    let fail = |e: fail_if::FailIfError| AuditError::Input {
        name: "--fail-if",
        reason: e.to_string(),
    };
    let values = fail_if::gate_values(after);
    let rows = fail_if::change::rows(c);
    c.fail_if = fail_if::evaluate_all_with_changes(gates, &values, Some(&rows)).map_err(fail)?;
    Ok(())
}

/// The state with the leading component of every finest group name dropped (merged).
fn without_first(state: &AuditState) -> AuditState {
    state.regroup(|n| {
        n.split_once(GROUP_SEPARATOR)
            .map_or("", |x| x.1)
            .to_string()
    })
}

/// Adds a paired comparison to an audit report, with its summary sentences (each prefixed with
/// the model it compares against).
pub fn attach(report: &mut crate::model::AuditReport, c: Comparison) {
    let against = c.after.file.clone();
    report
        .summary
        .extend(c.summary.iter().map(|s| format!("Against {against}: {s}")));
    report.comparison = Some(c);
}

/// Every distinguishable change, largest first, then the rule (or that none is).
fn sentences(c: &Comparison) -> Vec<String> {
    let conf = c.settings.confidence;
    let level = format!("{:.0} %", conf * 100.0);
    let mut items: Vec<(f64, String)> = Vec::new();
    for s in c.slices() {
        let at = s
            .threshold
            .map_or(String::new(), |t| format!(" at threshold {t}"));
        for g in &s.gaps {
            let (Some(b), Some(a), Some(d), Some(lo), Some(hi), Some(p)) =
                (g.before, g.after, g.change, g.lower, g.upper, g.p_value)
            else {
                continue;
            };
            if p >= alpha(conf) {
                continue;
            }
            let direction = match (d > 0.0, g.key.is_ratio()) {
                (true, false) | (false, true) => "worse",
                _ => "better",
            };
            items.push((
                d.abs(),
                format!(
                    "The {} across {}{at} went from {} to {} ({direction}: change {}, {level} interval {} to {}, {}).",
                    g.name,
                    s.slice,
                    value_text(b),
                    value_text(a),
                    value_text(d),
                    value_text(lo),
                    value_text(hi),
                    p_text(p, None)
                ),
            ));
        }
    }
    items.sort_by(|x, y| y.0.total_cmp(&x.0));
    let n = items.len();
    let mut out: Vec<String> = items.into_iter().map(|i| i.1).collect();
    out.push(if n == 0 {
        format!(
            "No gap changed distinguishably at the {level} level: every p-value is at least {}.",
            alpha(conf)
        )
    } else {
        format!(
            "Listed above: the {n} change(s) whose p-value is below {} (1 − confidence), largest first.",
            alpha(conf)
        )
    });
    out
}

/// A rendered comparison: markdown, self-contained HTML, and the markdown's figures as
/// `(relative path, svg)`.
pub type RenderedComparison = (String, String, Vec<(String, String)>);

/// The comparison as markdown and self-contained HTML, and the markdown's figures as
/// `(relative path, svg)`: the first page ([`first_page::write`]: gates, the model before and
/// after, each slice's verdict and the groups that got worse), the table of contents, every
/// distinguishable change, then per slice a chart of every gap before and after and a table of
/// the change, its interval and p-value.
///
/// # Errors
/// [`AuditError::Chart`] if a chart cannot be drawn (a non-finite value would be a bug
/// upstream).
pub fn render_comparison(c: &Comparison) -> Result<RenderedComparison, AuditError> {
    let mut doc = HtmlReport::new("Fairness audit comparison");
    doc.interactive();
    first_page::write(&mut doc, c);
    doc.heading("Every distinguishable change of a gap");
    doc.paragraph(&format!(
        "{} bootstrap resamples, seed {}; the method is at the end.",
        c.settings.resamples, c.settings.seed
    ));
    let first = first_page::sentences(c);
    for s in c.summary.iter().filter(|s| !first.contains(s)) {
        doc.paragraph(s);
    }
    doc.heading("Gaps and rates, slice by slice");
    let mut figures = Vec::new();
    comparison_tables(&mut doc, c, &mut figures)?;
    doc.heading("Method");
    doc.paragraph(&c.settings.method);
    doc.paragraph(&c.settings.rate_method);
    if let Some(m) = &c.settings.score_method {
        doc.paragraph(m);
    }
    let figures = figures.into_iter().map(|(svg, file)| (file, svg)).collect();
    Ok((doc.to_markdown(), doc.to_html(), figures))
}

/// Per slice, a chart of every gap before (grey) and after (coloured) — the after bar's whisker
/// is the change's interval drawn from the before value, so it reaches the before bar's height
/// exactly when the change is not distinguishable from 0 — then a table of every gap before and
/// after with the change, its interval and p-value. Figures are appended to `figures` as
/// `(svg, relative path)`.
///
/// # Errors
/// [`AuditError::Chart`] if a chart cannot be drawn.
pub fn comparison_tables(
    doc: &mut HtmlReport,
    c: &Comparison,
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    let opt = |v: Option<f64>| v.map_or("n/a".to_string(), value_text);
    let level = format!("{:.0} % interval", c.settings.confidence * 100.0);
    let scores = c.score_changes.iter().map(|s| (s, " (score gaps)"));
    for (s, kind) in c.changes.iter().map(|s| (s, "")).chain(scores) {
        let at = s
            .threshold
            .map_or(kind.to_string(), |t| format!(" (threshold {t})"));
        doc.subheading(&format!("{}{at}", s.slice));
        if let Some((svg, title)) = before_after_chart(s, &at, &level)? {
            let file = format!(
                "figures/compare-{}{}{}.svg",
                crate::render::stem(&s.slice),
                if kind.is_empty() { "" } else { "-scores" },
                s.threshold.map_or(String::new(), |t| format!(
                    "-t{}",
                    crate::render::stem(&t.to_string())
                ))
            );
            doc.figure(svg.clone(), &title, &file)
                .map_err(|source| AuditError::Chart {
                    what: title.clone(),
                    source,
                })?;
            figures.push((svg, file));
        }
        let mut t = Table::new(&["gap", "before", "after", "change", &level, "p-value"]);
        for g in &s.gaps {
            t.text_row(vec![
                g.name.to_string(),
                opt(g.before),
                opt(g.after),
                opt(g.change),
                match (g.lower, g.upper) {
                    (Some(l), Some(u)) => format!("[{}, {}]", value_text(l), value_text(u)),
                    _ => g.undefined_reason.clone().unwrap_or_else(|| "n/a".into()),
                },
                g.p_value.map_or("n/a".into(), |p| p_text(p, None)),
            ]);
        }
        doc.table(&t);
        rates_table(doc, s, &level);
    }
    Ok(())
}

/// Rows of a slice's rates table at most; beyond, the smallest p-values (compare.json keeps
/// every rate).
const MAX_RATE_ROWS: usize = 48;

/// Each group's rates before and after, smallest p-value first.
fn rates_table(doc: &mut HtmlReport, s: &SliceChange, level: &str) {
    let mut rows: Vec<&RateChangeEntry> = s.rates.iter().filter(|r| r.change.is_some()).collect();
    if rows.is_empty() {
        return;
    }
    rows.sort_by(|a, b| {
        a.p_value
            .unwrap_or(1.0)
            .total_cmp(&b.p_value.unwrap_or(1.0))
    });
    let n = rows.len();
    if n > MAX_RATE_ROWS {
        doc.paragraph(&format!(
            "Rates: the {MAX_RATE_ROWS} changes with the smallest p-values of {n} (compare.json lists every rate)."
        ));
        rows.truncate(MAX_RATE_ROWS);
    }
    let opt = |v: Option<f64>| v.map_or("n/a".to_string(), value_text);
    let mut t = Table::new(&[
        "group", "rate", "before", "after", "change", level, "p-value",
    ]);
    for r in rows {
        t.text_row(vec![
            r.group.clone(),
            r.rate.to_string(),
            opt(r.before),
            opt(r.after),
            opt(r.change),
            match (r.lower, r.upper) {
                (Some(l), Some(u)) => format!("[{}, {}]", value_text(l), value_text(u)),
                _ => "n/a".into(),
            },
            r.p_value.map_or("n/a".into(), |p| p_text(p, None)),
        ]);
    }
    doc.table(&t);
}

/// A gap's family in a few plain words, for a bar label under the chart (ratios and differences
/// are in separate panels, so the family and "before"/"after" say which bar it is).
fn short_name(key: Key) -> &'static str {
    match key {
        Key::DpDifference | Key::DpRatio => "demographic parity",
        Key::EoDifference | Key::EoRatio => "equal opportunity",
        Key::EqOddsDifference | Key::EqOddsRatio => "equalized odds",
        Key::AccuracyDifference | Key::AccuracyRatio => "accuracy",
        Key::AucDifference => "AUC difference",
        Key::KsDp => "KS of scores",
        Key::KsEo => "KS of positives",
        Key::Psp => "partial SP",
        Key::MeanPredictionDifference | Key::MeanPredictionRatio => "mean prediction",
        Key::MeanResidualDifference => "mean residual",
        Key::MaeDifference | Key::MaeRatio => "MAE",
        Key::RmseDifference | Key::RmseRatio => "RMSE",
        Key::R2Difference => "R²",
        Key::WassersteinMax => "W1 of predictions",
        Key::KsPrediction => "KS of predictions",
        Key::ScoringRateDifference | Key::ScoringRateRatio => "scoring rate",
        Key::ExposureRatio => "exposure",
        Key::DisparateTreatmentRatio => "treatment",
        Key::DisparateImpactRatio => "impact",
        Key::NdcgRatio => "NDCG",
        Key::FairTestPassRate => "FA*IR pass rate",
    }
}

/// The before/after bars of one slice (`None` when no gap is defined in both audits): ratios
/// and differences in separate panels ([`fair_report::gap_panels`]).
fn before_after_chart(
    s: &SliceChange,
    at: &str,
    level: &str,
) -> Result<Option<(String, String)>, AuditError> {
    use fair_report::palette::{GREY, series_colour};
    let mut bars = Vec::new();
    let mut colours = Vec::new();
    let mut ratio = Vec::new();
    for g in &s.gaps {
        let (Some(b), Some(a)) = (g.before, g.after) else {
            continue;
        };
        let interval = match (g.lower, g.upper) {
            (Some(lo), Some(hi)) => Some((b + lo, b + hi)),
            _ => None,
        };
        bars.push(fair_report::GroupRate {
            group: format!("{}, before", short_name(g.key)),
            rate: Some(b),
            interval: None,
        });
        bars.push(fair_report::GroupRate {
            group: format!("{}, after", short_name(g.key)),
            rate: Some(a),
            interval,
        });
        colours.extend([GREY, series_colour(0)]);
        ratio.extend([g.key.is_ratio(); 2]);
    }
    if bars.is_empty() {
        return Ok(None);
    }
    let title = format!("Gaps before (grey) and after across {}{at}", s.slice);
    let svg = fair_report::gap_panels(
        &title,
        "gap value",
        &bars,
        &ratio,
        &format!("{level} of the change, from the before value"),
        &colours,
    )
    .map_err(|source| AuditError::Chart {
        what: title.clone(),
        source,
    })?;
    Ok(Some((svg, title)))
}
