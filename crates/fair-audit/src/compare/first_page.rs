//! A comparison's first page, for the people who decide: the model's accuracy and AUC before and
//! after (each with its interval, and the change with its p-value), a plain verdict per slice —
//! fairer, unchanged or worse, from the gaps' changes and their tests — and every group whose
//! rates got distinguishably worse, named even when its slice's gaps got fairer (a gap can
//! narrow because the better-off group got worse).

use super::{Comparison, GapChange, ModelChange, SliceChange, SliceVerdict, WorseRate};
use crate::error::AuditError;
use crate::keys::Key;
use crate::model::{AuditReport, Estimate};
use crate::summary::{alpha, p_text, value_text};
use fair_metrics::ci::{
    RateChange, RateCiMethod, auc_change, auc_interval, benjamini_hochberg, proportion_change,
    rate_interval,
};
use fair_report::HtmlReport;

/// How the accuracy's change is computed for two audits (two sets of rows).
pub const ACCURACY_CHANGE_METHOD: &str = "accuracy on all rows: each audit's own rate interval; change: Newcombe's hybrid score interval of the difference of two proportions and the two-sided pooled z-test";

/// How the accuracy's change is computed for two prediction columns of the same rows.
pub const PAIRED_ACCURACY_METHOD: &str = "accuracy on all rows: Wilson score intervals; change: the paired Wald interval over the rows where the models disagree and McNemar's exact two-sided test";

/// How the AUC's change is computed.
pub const AUC_CHANGE_METHOD: &str = "AUC on all rows: Hanley–McNeil intervals; change: the normal interval with the two Hanley–McNeil standard errors added in quadrature (the audits' rows taken as independent) and the two-sided z-test";

/// What "a group got worse" means on the first page.
pub const WORSE_GROUP_RULE: &str = "a group got distinguishably worse when its true positive rate or accuracy fell, or its false positive rate rose (in a regression audit: its mean absolute error or root mean squared error rose), with a Benjamini–Hochberg q-value below 1 − confidence over every such change of the comparison (all groups, slices and those rates)";

/// The rates whose direction is good or bad for the group (the selection rate is neither), with
/// whether a rise is worse.
const JUDGED_RATES: [(&str, bool); 5] = [
    ("true_positive_rate", false),
    ("false_positive_rate", true),
    ("accuracy", false),
    // A regression audit's errors (compare::regression): larger is worse for the group.
    ("mean_absolute_error", true),
    ("root_mean_squared_error", true),
];

fn metric_err(what: &str) -> impl Fn(fair_metrics::MetricError) -> AuditError + '_ {
    move |source| AuditError::Metric {
        what: what.into(),
        source,
    }
}

fn change_of(
    metric: &'static str,
    r: Option<RateChange>,
    sides: [Option<Estimate>; 2],
    method: &str,
) -> ModelChange {
    ModelChange {
        metric,
        threshold: None,
        before: sides[0],
        after: sides[1],
        change: r.map(|r| r.change),
        lower: r.map(|r| r.interval.lower),
        upper: r.map(|r| r.interval.upper),
        p_value: r.map(|r| r.p_value),
        method: method.to_string(),
    }
}

/// The pooled rows of a report (its first slice's "all"): accuracy estimate, (correct, rows),
/// positives, negatives.
type Pooled = (Option<Estimate>, (u64, u64), f64, f64);

fn pooled(r: &AuditReport) -> Option<Pooled> {
    let all = &r.audits.first()?.slices.first()?.overall;
    let c = &all.counts;
    let correct = (c.tn + c.tp) as u64;
    let rows = (c.tn + c.tp + c.fp + c.fn_) as u64;
    Some((
        all.rates.get("accuracy").copied().flatten(),
        (correct, rows),
        all.positives as f64,
        all.negatives as f64,
    ))
}

/// The model's accuracy and AUC in two audits (two sets of rows), with their changes.
///
/// # Errors
/// [`AuditError::Metric`] for a confidence outside (0, 1).
pub(super) fn model_two_sample(
    before: &AuditReport,
    after: &AuditReport,
    confidence: f64,
) -> Result<Vec<ModelChange>, AuditError> {
    let (Some(a), Some(b)) = (pooled(before), pooled(after)) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    // The accuracy of the first prediction source, when both audits' is the same one.
    let source = |r: &AuditReport| r.audits.first().and_then(|x| x.threshold);
    if super::same_source(source(before), source(after)) {
        let acc =
            proportion_change(a.1, b.1, confidence).map_err(metric_err("the accuracy's change"))?;
        let mut m = change_of("accuracy", acc, [a.0, b.0], ACCURACY_CHANGE_METHOD);
        m.threshold = source(before);
        out.push(m);
    }
    let auc = |r: &AuditReport| {
        r.score_metrics
            .iter()
            .flatten()
            .next()
            .and_then(|s| s.auc_overall)
    };
    if let (Some(x), Some(y)) = (auc(before), auc(after)) {
        let est = |v: f64, p: f64, n: f64| {
            auc_interval(v, p, n, confidence).ok().map(|i| Estimate {
                value: v,
                lower: i.lower,
                upper: i.upper,
            })
        };
        let d = auc_change((x, a.2, a.3), (y, b.2, b.3), confidence).ok();
        out.push(change_of(
            "auc",
            d,
            [est(x, a.2, a.3), est(y, b.2, b.3)],
            AUC_CHANGE_METHOD,
        ));
    }
    Ok(out)
}

/// The model's accuracy for two prediction columns of the same rows, from the joint cells of
/// every group summed (`[second says 0, second says 1]` of the first's tn, fp, fn, tp).
///
/// # Errors
/// [`AuditError::Metric`] for a confidence outside (0, 1).
pub(super) fn model_paired(
    joint: &[[[f64; 4]; 2]],
    confidence: f64,
) -> Result<Vec<ModelChange>, AuditError> {
    let mut sum = [[0.0; 4]; 2];
    for j in joint {
        for (s, v) in sum.iter_mut().zip(j) {
            for (a, b) in s.iter_mut().zip(v) {
                *a += b;
            }
        }
    }
    let rates = super::paired_rates(&["all".to_string()], &[sum], confidence)?;
    let Some(acc) = rates.into_iter().find(|r| r.rate == "accuracy") else {
        return Ok(Vec::new());
    };
    let rows: f64 = sum.iter().flatten().sum();
    let est = |v: Option<f64>| {
        let v = v?;
        rate_interval(v, rows, confidence, RateCiMethod::Wilson)
            .ok()
            .map(|i| Estimate {
                value: v,
                lower: i.lower,
                upper: i.upper,
            })
    };
    Ok(vec![ModelChange {
        metric: "accuracy",
        threshold: None,
        before: est(acc.before),
        after: est(acc.after),
        change: acc.change,
        lower: acc.lower,
        upper: acc.upper,
        p_value: acc.p_value,
        method: PAIRED_ACCURACY_METHOD.to_string(),
    }])
}

/// The gaps a slice's verdict weighs: its count gaps, and the score gaps of the same slice.
fn weighed<'a>(c: &'a Comparison, s: &'a SliceChange) -> impl Iterator<Item = &'a GapChange> {
    s.gaps.iter().chain(
        c.score_changes
            .iter()
            .filter(move |x| x.slice == s.slice)
            .flat_map(|x| &x.gaps),
    )
}

/// The verdict of every slice (count gaps per prediction source, with the slice's score gaps).
pub(super) fn verdicts(c: &Comparison) -> Vec<SliceVerdict> {
    let a = alpha(c.settings.confidence);
    // Every judged rate change of the comparison, one BH family.
    let mut tested: Vec<(usize, &crate::model::compare::RateChangeEntry, bool)> = Vec::new();
    for (k, s) in c.changes.iter().enumerate() {
        for r in &s.rates {
            let Some((_, up_is_worse)) = JUDGED_RATES.iter().find(|(n, _)| *n == r.rate) else {
                continue;
            };
            if r.p_value.is_some() && r.change.is_some() {
                tested.push((k, r, *up_is_worse));
            }
        }
    }
    let p: Vec<f64> = tested.iter().map(|t| t.1.p_value.unwrap_or(1.0)).collect();
    let q = benjamini_hochberg(&p);
    c.changes
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let (mut better, mut worse, mut measured) = (Vec::new(), Vec::new(), false);
            for g in weighed(c, s) {
                let Some(p) = g.p_value else { continue };
                measured = true;
                if g.worse {
                    worse.push(g.key);
                } else if p < a {
                    better.push(g.key);
                }
            }
            let worse_groups = tested
                .iter()
                .zip(&q)
                .filter(|((i, r, up_is_worse), q)| {
                    *i == k
                        && **q < a
                        && r.change
                            .is_some_and(|d| if *up_is_worse { d > 0.0 } else { d < 0.0 })
                })
                .filter_map(|((_, r, _), q)| {
                    Some(WorseRate {
                        group: r.group.clone(),
                        rate: r.rate,
                        before: r.before?,
                        after: r.after?,
                        p_value: r.p_value?,
                        q_value: *q,
                    })
                })
                .collect();
            let verdict = if !worse.is_empty() {
                "worse"
            } else if !better.is_empty() {
                "fairer"
            } else if measured {
                "unchanged"
            } else {
                "not measured"
            };
            SliceVerdict {
                slice: s.slice.clone(),
                threshold: s.threshold,
                verdict,
                better,
                worse,
                worse_groups,
            }
        })
        .collect()
}

/// A rate's plain name in a sentence.
fn rate_words(rate: &str) -> &str {
    match rate {
        "true_positive_rate" => "true positive rate",
        "false_positive_rate" => "false positive rate",
        other => other,
    }
}

/// A gap's plain name (the comparison's own, e.g. "demographic parity difference").
fn gap_name(c: &Comparison, s: &SliceChange, key: Key) -> String {
    weighed(c, s)
        .find(|g| g.key == key)
        .map_or_else(|| key.to_string(), |g| g.name.clone())
}

/// "the demographic parity difference 0.190 → 0.150 (p < 0.001)"
fn gap_move(c: &Comparison, s: &SliceChange, key: Key) -> String {
    let g = weighed(c, s).find(|g| g.key == key);
    let num = |v: Option<f64>| v.map_or("n/a".to_string(), value_text);
    match g {
        Some(g) => format!(
            "{} {} → {} ({})",
            g.name,
            num(g.before),
            num(g.after),
            g.p_value.map_or("no p-value".into(), |p| p_text(p, None))
        ),
        None => gap_name(c, s, key),
    }
}

/// Where a slice is: "race", or "race at threshold 0.5".
fn slice_label(s: &SliceVerdict) -> String {
    match s.threshold {
        Some(t) => format!("{} at threshold {t}", s.slice),
        None => s.slice.clone(),
    }
}

/// The verdict sentence of one slice: (the verdict in a few words, the rest of the sentence).
pub fn verdict_sentence(c: &Comparison, v: &SliceVerdict) -> (String, String) {
    let Some(s) = c
        .changes
        .iter()
        .find(|s| s.slice == v.slice && s.threshold == v.threshold)
    else {
        return (String::new(), String::new());
    };
    let moves = |keys: &[Key]| {
        keys.iter()
            .map(|k| gap_move(c, s, *k))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let lead = format!("{}: {}.", slice_label(v), v.verdict);
    let a = alpha(c.settings.confidence);
    let text = match v.verdict {
        "worse" if v.better.is_empty() => format!("Got worse: {}.", moves(&v.worse)),
        "worse" => format!(
            "Got worse: {}. Got fairer: {}.",
            moves(&v.worse),
            moves(&v.better)
        ),
        "fairer" => format!("Got fairer: {}; no gap got worse.", moves(&v.better)),
        "unchanged" => format!(
            "No gap's change is distinguishable from noise (every p-value is at least {a})."
        ),
        _ => "No gap could be compared (each needs two groups of the minimum size in both audits)."
            .into(),
    };
    (lead, text)
}

/// The sentence naming the groups of a slice that got distinguishably worse, or `None`.
pub fn worse_groups_sentence(v: &SliceVerdict) -> Option<String> {
    if v.worse_groups.is_empty() {
        return None;
    }
    let mut groups: Vec<&str> = Vec::new();
    for w in &v.worse_groups {
        if !groups.contains(&w.group.as_str()) {
            groups.push(&w.group);
        }
    }
    let named: Vec<String> = groups
        .iter()
        .map(|g| {
            let rates: Vec<String> = v
                .worse_groups
                .iter()
                .filter(|w| w.group == *g)
                .map(|w| {
                    format!(
                        "{} {} → {} ({}, {})",
                        rate_words(w.rate),
                        value_text(w.before),
                        value_text(w.after),
                        p_text(w.p_value, None),
                        p_text(w.q_value, None).replacen('p', "q", 1)
                    )
                })
                .collect();
            format!("{g}: {}", rates.join(", "))
        })
        .collect();
    let context = match v.verdict {
        "fairer" => ", although its gaps got fairer",
        "unchanged" => ", although no gap changed distinguishably",
        _ => "",
    };
    Some(format!(
        "Got worse within {}{context}: {}.",
        slice_label(v),
        named.join("; ")
    ))
}

/// A model number's sentence: "Accuracy on all rows: 0.850 (95 % interval 0.844–0.855) before,
/// 0.870 (0.865–0.875) after: higher by 0.020 (interval 0.012–0.028, p < 0.001)."
pub fn model_sentence(m: &ModelChange, confidence: f64) -> String {
    let name = match (m.metric, m.threshold) {
        ("auc", _) => "AUC".to_string(),
        (_, Some(t)) => format!("Accuracy at threshold {t}"),
        _ => "Accuracy".to_string(),
    };
    let level = format!("{:.0} %", confidence * 100.0);
    let est = |e: Option<Estimate>, first: bool| match e {
        Some(e) => format!(
            "{} ({}{}–{})",
            value_text(e.value),
            if first {
                format!("{level} interval ")
            } else {
                String::new()
            },
            value_text(e.lower),
            value_text(e.upper)
        ),
        None => "n/a".into(),
    };
    let change = match (m.change, m.lower, m.upper, m.p_value) {
        (Some(d), Some(lo), Some(hi), Some(p)) => {
            let how = if p >= alpha(confidence) {
                "no distinguishable change".to_string()
            } else if d > 0.0 {
                format!("higher by {}", value_text(d))
            } else {
                format!("lower by {}", value_text(-d))
            };
            format!(
                ": {how} (change {}, interval {} to {}, {})",
                value_text(d),
                value_text(lo),
                value_text(hi),
                p_text(p, None)
            )
        }
        _ => String::new(),
    };
    format!(
        "{name} on all rows: {} before, {} after{change}.",
        est(m.before, true),
        est(m.after, false)
    )
}

/// The first page's sentences, in order: the model, then per slice its verdict and the groups
/// that got worse. They open the comparison's summary.
///
/// # Example
/// ```
/// use fair_audit::compare::{compare_reports, first_page::sentences};
/// use fair_audit::{ReportSpec, Stats, Views, build_report, render};
/// use fair_metrics::state::ConfusionState;
/// let audit = |fp: u64| {
///     let s = ConfusionState::from_row_counts([
///         ("a".to_string(), [400, 100, 100, 400]),
///         ("b".to_string(), [500 - fp, fp, 100, 400]),
///     ]);
///     let spec = ReportSpec::binary("m.csv", "y", "p", "g", 2000, Stats::default());
///     let (r, c) = build_report(&spec, &[vec![s]], None).unwrap();
///     let v = Views { json: true, markdown: false, html: false };
///     fair_audit::model::AuditReport::from_json(&render(&r, &c, v).unwrap().json.unwrap()).unwrap()
/// };
/// // Group b's false positives go from 100 to 200 of its 500 negatives.
/// let c = compare_reports(&audit(100), &audit(200), 0.95, 200, 0)?;
/// let s = sentences(&c);
/// assert!(s[0].starts_with("Accuracy on all rows: 0.800"));
/// assert!(s.iter().any(|x| x.starts_with("Got worse within g") && x.contains("b: false positive rate 0.200 → 0.400")));
/// # Ok::<(), fair_audit::AuditError>(())
/// ```
pub fn sentences(c: &Comparison) -> Vec<String> {
    let mut out: Vec<String> = c
        .model
        .iter()
        .map(|m| model_sentence(m, c.settings.confidence))
        .collect();
    for v in &c.verdicts {
        let (lead, text) = verdict_sentence(c, v);
        out.push(format!("{lead} {text}"));
        out.extend(worse_groups_sentence(v));
    }
    out
}

/// A gate's outcome in a committee's words.
fn gate_lines(c: &Comparison) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(w) = &c.fail_if_worse {
        let keys: Vec<&str> = w.keys.iter().map(|k| k.as_str()).collect();
        if w.failed {
            let worse: Vec<String> = w
                .worse
                .iter()
                .map(|g| {
                    let at = g
                        .threshold
                        .map_or(String::new(), |t| format!(" at threshold {t}"));
                    let num = |v: Option<f64>| v.map_or("n/a".to_string(), value_text);
                    format!(
                        "{} across {}{at} went from {} to {} ({})",
                        g.key,
                        g.slice,
                        num(g.before),
                        num(g.after),
                        g.p_value.map_or("n/a".into(), |p| p_text(p, None))
                    )
                })
                .collect();
            out.push((
                "Gate failed:".to_string(),
                format!(
                    "a gap you asked to watch (--fail-if-worse {}) got distinguishably worse: {}.",
                    keys.join(", "),
                    worse.join("; ")
                ),
            ));
        } else {
            out.push((
                "Gate passed:".to_string(),
                format!(
                    "none of the gaps you asked to watch (--fail-if-worse {}) got distinguishably worse in any slice.",
                    keys.join(", ")
                ),
            ));
        }
    }
    for f in &c.fail_if {
        let values: Vec<String> = f
            .comparisons
            .iter()
            .map(|x| {
                format!(
                    "{} is {}",
                    x.comparison.split_whitespace().next().unwrap_or(""),
                    value_text(x.actual)
                )
            })
            .collect();
        out.push((
            if f.failed {
                "Gate failed:"
            } else {
                "Gate passed:"
            }
            .to_string(),
            format!(
                "your limit \"{}\" {} — {}.",
                f.expression,
                if f.failed {
                    "is reached"
                } else {
                    "is not reached"
                },
                values.join(", ")
            ),
        ));
    }
    out
}

/// Writes the first page: the verdict box (gates, the model, each slice's verdict and the groups
/// that got worse), then the table of contents.
pub fn write(doc: &mut HtmlReport, c: &Comparison) {
    doc.open_section("first-page", "first-page");
    doc.heading("Verdict");
    doc.paragraph(&format!(
        "Before: {} ({} rows). After: {} ({} rows).",
        c.before.file, c.before.rows, c.after.file, c.after.rows
    ));
    for (lead, text) in gate_lines(c) {
        doc.lead_paragraph(&lead, &text);
    }
    let model: Vec<String> = c
        .model
        .iter()
        .map(|m| model_sentence(m, c.settings.confidence))
        .collect();
    doc.list(&model);
    for v in &c.verdicts {
        let (lead, text) = verdict_sentence(c, v);
        doc.lead_paragraph(&lead, &text);
        if let Some(w) = worse_groups_sentence(v) {
            doc.list(&[w]);
        }
    }
    doc.paragraph(&format!(
        "A gap's change is distinguishable from noise when its p-value is below {}; {}.",
        alpha(c.settings.confidence),
        WORSE_GROUP_RULE
    ));
    doc.close_section();
    doc.contents();
}
