//! A report's first page, for the people who decide: the gates' outcomes in plain words, the
//! model's accuracy and AUC with their intervals, and per sensitive attribute (slice) a verdict
//! — which gaps are beyond the user's limits (`--fail-if`), which ratios fail the four-fifths
//! rule, which gaps are distinguishable from noise and which are not, which groups are too small
//! to judge. Every number comes from the report; the statistical detail follows the first page.

use crate::fail_if::{self, FailIf};
use crate::glossary;
use crate::keys::Key;
use crate::model::{AuditReport, ConfusionSlice, Estimate, Gap, PairMax, ScoreSlice};
use crate::summary::{alpha, p_text, value_text};
use fair_report::HtmlReport;

/// The four-fifths rule of US employment guidance, applied to every ratio gap: below this the
/// ratio fails.
pub const FOUR_FIFTHS: f64 = 0.8;

/// How the overall AUC's interval is computed (the report keeps the AUC itself; its interval is
/// the one the report gives each group's AUC).
pub const AUC_INTERVAL_METHOD: &str = "Hanley–McNeil";

/// A gap's plain name: the glossary's ("demographic parity difference").
pub fn plain_name(key: Key) -> &'static str {
    glossary::ENTRIES
        .iter()
        .chain(glossary::REGRESSION_ENTRIES.iter())
        .find(|e| e.key == key.as_str())
        .map_or(key.as_str(), |e| e.name)
}

/// One limit the user set with `--fail-if`: the canonical key, the comparison as written, and
/// its parsed form. Change terms (`change(…)`, `p(…)`) are not limits on one slice and are left
/// out.
fn limits(r: &AuditReport) -> Vec<(Key, fail_if::Comparison)> {
    let known = fail_if::known_keys();
    let mut out = Vec::new();
    for f in &r.fail_if {
        let Ok(parsed) = FailIf::parse(&f.expression, &known) else {
            continue;
        };
        for c in parsed.disjuncts.into_iter().flatten() {
            let key = fail_if::canonical(&c.key, &known).and_then(Key::parse);
            if let Some(key) = key {
                out.push((key, c));
            }
        }
    }
    out
}

/// One gap of a slice as the first page weighs it: key, value, p-value.
#[derive(Debug, Clone, Copy)]
struct Weighed {
    key: Key,
    value: Option<f64>,
    p_value: Option<f64>,
    /// The multiple-comparison adjusted p-value, when the report adjusts: the call uses it.
    adjusted: Option<f64>,
}

fn from_gap(g: &Gap) -> Weighed {
    Weighed {
        key: g.key,
        value: g.value,
        p_value: g.p_value,
        adjusted: g.p_value_adjusted,
    }
}

fn from_pair(key: Key, p: &PairMax) -> Weighed {
    Weighed {
        key,
        value: Some(p.value),
        p_value: p.p_value,
        adjusted: p.p_value_adjusted,
    }
}

/// The gaps of a slice: its count gaps and, when given, its score gaps.
fn weighed(slice: &ConfusionSlice, score: Option<&ScoreSlice>) -> Vec<Weighed> {
    let mut out: Vec<Weighed> = slice.gaps.iter().map(from_gap).collect();
    if let Some(s) = score {
        for (key, p) in [
            (Key::AucDifference, &s.auc_gap),
            (Key::KsDp, &s.ks_dp),
            (Key::KsEo, &s.ks_eo),
            (Key::Psp, &s.psp),
        ] {
            if let Some(p) = p {
                out.push(from_pair(key, p));
            }
        }
        // The score's LL144 scoring rate: its impact ratio is a ratio the four-fifths rule reads.
        if let Some(sr) = &s.scoring_rate {
            out.extend(sr.gaps.iter().map(from_gap));
        }
    }
    out
}

/// The verdict of one slice: the lead ("race: fails the four-fifths rule; 6 of 8 gaps
/// distinguishable from noise.") and one sentence per kind of finding.
#[derive(Debug, Clone, PartialEq)]
pub struct SliceVerdict {
    /// The verdict in a few words.
    pub lead: String,
    /// The findings, each a sentence: beyond your limits, fails the four-fifths rule,
    /// distinguishable from noise, not distinguishable, too small to judge, cannot be measured.
    pub findings: Vec<String>,
}

fn op_words(op: fail_if::Op) -> &'static str {
    match op {
        fail_if::Op::Gt => "above",
        fail_if::Op::Ge => "at or above",
        fail_if::Op::Lt => "below",
        fail_if::Op::Le => "at or below",
    }
}

/// The verdict of one slice at one prediction source (`score`: the slice's score metrics, for
/// the first source only).
pub fn slice_verdict(
    r: &AuditReport,
    slice: &ConfusionSlice,
    threshold: Option<f64>,
    score: Option<&ScoreSlice>,
) -> SliceVerdict {
    let conf = r.settings.confidence;
    let a = alpha(conf);
    let gaps = weighed(slice, score);
    let mut findings = Vec::new();
    let mut words = Vec::new();
    // Beyond the user's limits.
    let beyond: Vec<String> = limits(r)
        .into_iter()
        .filter_map(|(key, c)| {
            let v = gaps.iter().find(|g| g.key == key)?.value?;
            c.op.holds(v, c.value).then(|| {
                format!(
                    "the {} is {}, {} your limit {}",
                    plain_name(key),
                    value_text(v),
                    op_words(c.op),
                    c.value
                )
            })
        })
        .collect();
    if !beyond.is_empty() {
        words.push("beyond your limits".to_string());
        findings.push(format!("Beyond your limits: {}.", beyond.join("; ")));
    }
    // The four-fifths rule, on every ratio.
    let failing: Vec<String> = gaps
        .iter()
        .filter(|g| g.key.is_ratio())
        .filter_map(|g| {
            let v = g.value?;
            (v < FOUR_FIFTHS).then(|| format!("{} {}", plain_name(g.key), value_text(v)))
        })
        .collect();
    if !failing.is_empty() {
        words.push("fails the four-fifths rule".to_string());
        findings.push(format!(
            "Fails the four-fifths rule (a ratio below {FOUR_FIFTHS}): {}.",
            failing.join("; ")
        ));
    }
    // Distinguishable from noise, and not.
    let tested: Vec<&Weighed> = gaps.iter().filter(|g| g.p_value.is_some()).collect();
    let (yes, no): (Vec<&Weighed>, Vec<&Weighed>) = tested
        .iter()
        .partition(|g| g.adjusted.or(g.p_value).is_some_and(|p| p < a));
    let resamples = Some(r.settings.resamples);
    let p_of = |g: &Weighed| {
        let perm = if g.key.is_score() { None } else { resamples };
        let adjusted = g.adjusted.map_or(String::new(), |q| {
            format!(
                ", {}-adjusted {}",
                r.settings.multiple_testing,
                p_text(q, None)
            )
        });
        g.p_value
            .map_or(String::new(), |p| format!("{}{adjusted}", p_text(p, perm)))
    };
    if !yes.is_empty() {
        // Value and p-value: the intervals are in the detail (a first page of intervals is a
        // wall of numbers).
        let listed: Vec<String> = yes
            .iter()
            .map(|g| {
                format!(
                    "{} {} ({})",
                    plain_name(g.key),
                    g.value.map_or("n/a".into(), value_text),
                    p_of(g)
                )
            })
            .collect();
        findings.push(format!(
            "Distinguishable from noise (p below {a}): {}.",
            listed.join("; ")
        ));
    }
    if !no.is_empty() {
        // Names only: their values cannot be told from chance (the detail has them).
        let listed: Vec<&str> = no.iter().map(|g| plain_name(g.key)).collect();
        findings.push(format!(
            "Not distinguishable from noise (p at least {a}): {}.",
            listed.join("; ")
        ));
    }
    words.push(match (yes.len(), tested.len()) {
        (_, 0) => "no gap could be tested".to_string(),
        (0, n) => format!("none of its {n} gaps distinguishable from noise"),
        (k, n) if k == n => format!("all {n} gaps distinguishable from noise"),
        (k, n) => format!("{k} of {n} gaps distinguishable from noise"),
    });
    // Too small to judge.
    let mut small: Vec<(String, String)> = Vec::new();
    let score_small = score.into_iter().flat_map(|s| &s.small_groups);
    for u in slice
        .gaps
        .iter()
        .flat_map(|g| &g.small_groups)
        .chain(score_small)
    {
        // The first count that makes it small ("26 rows", "8 positive rows").
        let count = u.reason.split(", fewer").next().unwrap_or(&u.reason);
        if !small.iter().any(|(g, _)| *g == u.group) {
            small.push((u.group.clone(), count.to_string()));
        }
    }
    if !small.is_empty() {
        let n = small.len();
        words.push(if n == 1 {
            "1 group too small to judge".to_string()
        } else {
            format!("{n} groups too small to judge")
        });
        let listed: Vec<String> = small.iter().map(|(g, c)| format!("{g} ({c})")).collect();
        findings.push(format!(
            "Too small to judge (fewer than {} rows where a gap counts them; shown, but kept out of those gaps): {}.",
            r.settings.min_group_size,
            listed.join("; ")
        ));
    }
    // Cannot be measured.
    let undefined: Vec<&str> = slice
        .gaps
        .iter()
        .filter(|g| g.value.is_none())
        .map(|g| plain_name(g.key))
        .collect();
    if !undefined.is_empty() {
        findings.push(format!(
            "Cannot be measured (fewer than two groups to compare): {}.",
            undefined.join("; ")
        ));
    }
    let at = threshold.map_or(String::new(), |t| format!(" at threshold {t}"));
    SliceVerdict {
        lead: format!("{}{at}: {}.", slice.slice, words.join("; ")),
        findings,
    }
}

/// Each `--fail-if` gate's outcome for a committee: ("Gate failed:" or "Gate passed:", what
/// the limit was and the value that decided).
pub fn gate_sentences(r: &AuditReport) -> Vec<(String, String)> {
    let known = fail_if::known_keys();
    r.fail_if
        .iter()
        .map(|f| {
            let values: Vec<String> = f
                .comparisons
                .iter()
                .map(|c| {
                    let term = c.comparison.split_whitespace().next().unwrap_or("");
                    let key = fail_if::canonical(term, &known).and_then(Key::parse);
                    match key {
                        Some(k) => {
                            let worst = r.headline.get(&k).map_or(String::new(), |h| {
                                format!(" (largest across {})", h.slice)
                            });
                            let worst = if k.is_ratio() {
                                worst.replace("largest", "smallest")
                            } else {
                                worst
                            };
                            format!("the {} is {}{worst}", plain_name(k), value_text(c.actual))
                        }
                        None => format!("{term} is {}", value_text(c.actual)),
                    }
                })
                .collect();
            (
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
                    values.join("; ")
                ),
            )
        })
        .collect()
}

/// The model on all rows: accuracy with the report's rate interval, and the AUC with its
/// Hanley–McNeil interval (from the pooled positives and negatives), when there are scores.
pub fn model_sentence(r: &AuditReport) -> Option<String> {
    let first = r.audits.first()?;
    let all = &first.slices.first()?.overall;
    let level = format!("{:.0} %", r.settings.confidence * 100.0);
    let est = |e: Estimate| {
        format!(
            "{} ({level} interval {}–{})",
            value_text(e.value),
            value_text(e.lower),
            value_text(e.upper)
        )
    };
    let mut parts = Vec::new();
    if let Some(a) = all.rates.get("accuracy").copied().flatten() {
        let at = first
            .threshold
            .map_or(String::new(), |t| format!(" at threshold {t}"));
        parts.push(format!("accuracy{at} {}", est(a)));
    }
    let auc = r
        .score_metrics
        .iter()
        .flatten()
        .next()
        .and_then(|s| s.auc_overall);
    if let Some(v) = auc.filter(|_| r.settings.weighted) {
        // The pooled rows' effective sample size is not in the report: no interval rather than
        // one from the unweighted counts.
        parts.push(format!(
            "AUC {} (weighted rows: no interval on all rows; each group's is in the score table)",
            value_text(v)
        ));
    } else if let Some(v) = auc {
        let iv = fair_metrics::ci::auc_interval(
            v,
            all.positives as f64,
            all.negatives as f64,
            r.settings.confidence,
        )
        .ok();
        parts.push(match iv {
            Some(i) => format!(
                "AUC {} ({level} interval {}–{}, {AUC_INTERVAL_METHOD})",
                value_text(v),
                value_text(i.lower),
                value_text(i.upper)
            ),
            None => format!("AUC {}", value_text(v)),
        });
    }
    (!parts.is_empty())
        .then(|| format!("The model on all {} rows: {}.", all.rows, parts.join("; ")))
}

/// Every slice's verdict, per prediction source (score gaps with the first source's slices).
///
/// # Example
/// ```
/// use fair_audit::{ReportSpec, Stats, build_report, first_page::verdicts};
/// use fair_metrics::state::ConfusionState;
/// // Group a is selected half the time, b a quarter (1000 rows each): the ratio 0.5 fails the
/// // four-fifths rule.
/// let s = ConfusionState::from_row_counts([
///     ("a".to_string(), [400, 100, 100, 400]),
///     ("b".to_string(), [600, 50, 150, 200]),
/// ]);
/// let spec = ReportSpec::binary("m.csv", "y", "p", "g", 2000, Stats::default());
/// let (r, _) = build_report(&spec, &[vec![s]], None)?;
/// let v = &verdicts(&r)[0];
/// assert!(v.lead.starts_with("g: fails the four-fifths rule;"));
/// assert!(v.findings[0].contains("demographic parity ratio 0.500"));
/// # Ok::<(), fair_audit::AuditError>(())
/// ```
pub fn verdicts(r: &AuditReport) -> Vec<SliceVerdict> {
    let mut out = Vec::new();
    for (k, audit) in r.audits.iter().enumerate() {
        for slice in &audit.slices {
            let score = (k == 0)
                .then(|| {
                    r.score_metrics
                        .iter()
                        .flatten()
                        .find(|s| s.slice == slice.slice)
                })
                .flatten();
            out.push(slice_verdict(r, slice, audit.threshold, score));
        }
    }
    out
}

/// The audited attributes in words: the observed columns, then the inferred ones with their
/// probability columns.
fn sensitive_attributes(r: &AuditReport) -> String {
    let mut parts = Vec::new();
    if !r.input.columns.sensitive.is_empty() {
        parts.push(r.input.columns.sensitive.join(", "));
    }
    if let Some(inf) = &r.inferred {
        for a in &inf.attributes {
            parts.push(format!(
                "{} (inferred from {})",
                a.attribute,
                a.columns.join(", ")
            ));
        }
    }
    parts.join(", ")
}

/// Writes the first page (the verdict box), then the table of contents.
pub fn write(doc: &mut HtmlReport, r: &AuditReport) {
    doc.open_section("first-page", "first-page");
    doc.heading("Verdict");
    doc.paragraph(&format!(
        "{}: {} rows; outcome '{}' (positive = '{}'); sensitive attributes: {}.",
        r.input.file,
        r.input.rows,
        r.input.columns.label,
        r.input.positive_label,
        sensitive_attributes(r)
    ));
    for (lead, text) in gate_sentences(r) {
        doc.lead_paragraph(&lead, &text);
    }
    if let Some(m) = model_sentence(r) {
        doc.paragraph(&m);
    }
    for v in verdicts(r) {
        doc.lead_paragraph(&v.lead, "");
        doc.list(&v.findings);
    }
    if let Some(c) = &r.comparison {
        doc.lead_paragraph(
            &format!("Against {} on the same rows:", c.after.file),
            "the second model's changes (paired).",
        );
        doc.list(&crate::compare::first_page::sentences(c));
    }
    doc.paragraph(&format!(
        "How to read this: a gap is distinguishable from noise when its p-value is below {} (1 − confidence); the four-fifths rule asks that the smaller group's rate be at least {FOUR_FIFTHS} of the larger's; a group with fewer than {} rows in a rate's denominator is too small to judge and is kept out of that gap. The detail, with every interval and test, follows.",
        alpha(r.settings.confidence),
        r.settings.min_group_size
    ));
    doc.close_section();
    doc.contents();
}
