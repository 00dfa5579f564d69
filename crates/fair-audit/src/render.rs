//! The report's views: report.json (the model, serialised), report.md (+ figures/*.svg beside
//! it) and report.html (one self-contained page with inline SVG), all through fair-report. The
//! text is built here; writing it to files is the front end's job.

use crate::charts::ChartData;
use crate::compute::rate_key;
use crate::error::AuditError;
use crate::model::{AuditReport, ConfusionSlice, Estimate, PairMax};
use crate::summary::{alpha, gap_note, p_cell, sig3};
use fair_metrics::Rate;
use fair_report::{GroupRate, HtmlReport, Table, fmt4, group_rate_bars};

/// The rates drawn as bar charts, one chart per rate and slice.
const CHARTED: [Rate; 4] = [
    Rate::Selection,
    Rate::TruePositive,
    Rate::FalsePositive,
    Rate::Accuracy,
];
/// The rates in the per-group table.
const TABLED: [Rate; 5] = [
    Rate::Selection,
    Rate::TruePositive,
    Rate::FalsePositive,
    Rate::Precision,
    Rate::Accuracy,
];

fn est(e: Option<Estimate>) -> String {
    match e {
        Some(e) => format!("{} [{}, {}]", f4(e.value), f4(e.lower), f4(e.upper)),
        None => "n/a".into(),
    }
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| fmt4(None), f4)
}

/// Four decimals; exactly 0 as "0", a tiny non-zero number with three significant digits
/// (never "0.0000" for a number that is not 0).
fn f4(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() < 5e-5 {
        sig3(v)
    } else {
        fmt4(Some(v))
    }
}

/// A p-value cell: a permutation p-value (`resamples` given) at its floor reads "< 1/(R+1)".
fn p_opt(p: Option<f64>, resamples: Option<usize>) -> String {
    p.map_or_else(|| opt(None), |p| p_cell(p, resamples))
}

/// A file-name-safe form of a slice name or threshold (lower-case ASCII alphanumerics, `-`).
pub fn stem(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn slice_section(
    doc: &mut HtmlReport,
    slice: &ConfusionSlice,
    threshold: Option<f64>,
    level: &str,
    method: &str,
    resamples: usize,
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    let at = threshold.map_or(String::new(), |t| format!(" (threshold {t})"));
    doc.subheading(&format!("{}{at}", slice.slice));
    let mut header = vec!["group", "rows"];
    header.extend(TABLED.iter().map(|r| rate_key(*r)));
    let mut t = Table::new(&header);
    for g in slice.groups.iter().chain(std::iter::once(&slice.overall)) {
        let mut row = vec![g.group.clone(), g.rows.to_string()];
        row.extend(
            TABLED
                .iter()
                .map(|r| est(g.rates.get(rate_key(*r)).copied().flatten())),
        );
        t.text_row(row);
    }
    doc.paragraph(&format!(
        "Rates per group with {level} {method} intervals [lower, upper]."
    ));
    doc.table(&t);
    let notes: Vec<Option<String>> = slice
        .gaps
        .iter()
        .map(|g| gap_note(g.key, &g.undefined_groups, g.fairlearn_value))
        .collect();
    let any_note = notes.iter().any(Option::is_some);
    let mut header = vec!["gap", "value", "interval", "p-value"];
    if any_note {
        header.push("groups left out / fairlearn");
    }
    let mut gaps = Table::new(&header);
    for (g, note) in slice.gaps.iter().zip(notes) {
        let mut row = vec![
            g.name.to_string(),
            opt(g.value),
            match (g.lower, g.upper) {
                (Some(l), Some(u)) => format!("[{}, {}]", f4(l), f4(u)),
                _ => g.undefined_reason.clone().unwrap_or_else(|| "n/a".into()),
            },
            p_opt(g.p_value, Some(resamples)),
        ];
        if any_note {
            row.push(note.unwrap_or_default());
        }
        gaps.text_row(row);
    }
    doc.table(&gaps);
    for rate in CHARTED {
        let key = rate_key(rate);
        let groups: Vec<GroupRate> = slice
            .groups
            .iter()
            .map(|g| {
                let e = g.rates.get(key).copied().flatten();
                GroupRate {
                    group: g.group.clone(),
                    rate: e.map(|e| e.value),
                    interval: e.map(|e| (e.lower, e.upper)),
                }
            })
            .collect();
        let overall = slice
            .overall
            .rates
            .get(key)
            .copied()
            .flatten()
            .map(|e| e.value);
        let title = format!("{} by {}{at}", rate.name(), slice.slice);
        let svg = group_rate_bars(
            &title,
            rate.name(),
            &groups,
            overall,
            &format!("{level} {method} interval"),
        )
        .map_err(|source| AuditError::Chart {
            what: title.clone(),
            source,
        })?;
        let file = format!(
            "figures/{}-{}{}.svg",
            key,
            stem(&slice.slice),
            threshold.map_or(String::new(), |t| format!("-t{}", stem(&t.to_string())))
        );
        figures.push((svg.clone(), file.clone()));
        doc.figure(svg, &title, &file)
            .map_err(|source| AuditError::Chart {
                what: title.clone(),
                source,
            })?;
    }
    Ok(())
}

/// Builds the HTML/markdown document of a report.
///
/// # Errors
/// [`AuditError::Chart`] if fair-report rejects a chart (a NaN would be a bug upstream).
pub fn document(
    r: &AuditReport,
    charts: &ChartData,
) -> Result<(HtmlReport, Vec<(String, String)>), AuditError> {
    let mut figures = Vec::new();
    let level = format!("{:.0} %", r.settings.confidence * 100.0);
    let method = r.settings.rate_ci_method;
    let mut doc = HtmlReport::new(&format!("Fairness audit: {}", r.input.file));
    doc.paragraph(&format!(
        "{} rows; label '{}' (positive = '{}'), sensitive columns: {}; {} resamples, seed {}.",
        r.input.rows,
        r.input.columns.label,
        r.input.positive_label,
        r.input.columns.sensitive.join(", "),
        r.settings.resamples,
        r.settings.seed
    ));
    doc.heading("Summary");
    for s in &r.summary {
        doc.paragraph(s);
    }
    let notes: Vec<Option<String>> = r
        .headline
        .iter()
        .map(|(k, v)| gap_note(k, &v.undefined_groups, v.fairlearn_value))
        .collect();
    let any_note = notes.iter().any(Option::is_some);
    let mut header = vec!["headline", "worst value", "slice", "threshold", "p-value"];
    if any_note {
        header.push("groups left out / fairlearn");
    }
    let mut h = Table::new(&header);
    for ((k, v), note) in r.headline.iter().zip(notes) {
        let mut row = vec![
            k.clone(),
            f4(v.value),
            v.slice.clone(),
            v.threshold.map_or("—".into(), |t| t.to_string()),
            p_opt(
                v.p_value,
                (!crate::compute::SCORE_KEYS.contains(&k.as_str())).then_some(r.settings.resamples),
            ),
        ];
        if any_note {
            row.push(note.unwrap_or_default());
        }
        h.text_row(row);
    }
    doc.table(&h);
    for f in &r.fail_if {
        doc.paragraph(&format!(
            "--fail-if \"{}\": {}",
            f.expression,
            if f.failed { "FAILED" } else { "passed" }
        ));
    }
    for audit in &r.audits {
        doc.heading(&match audit.threshold {
            Some(t) => {
                format!("Rates and gaps at threshold {t} (predict positive when score >= {t})")
            }
            None => format!(
                "Rates and gaps of the prediction column '{}'",
                r.input.columns.prediction.clone().unwrap_or_default()
            ),
        });
        for slice in &audit.slices {
            slice_section(
                &mut doc,
                slice,
                audit.threshold,
                &level,
                method,
                r.settings.resamples,
                &mut figures,
            )?;
        }
    }
    if let Some(scores) = &r.score_metrics {
        doc.heading("Score metrics (exact: all thresholds)");
        for s in scores {
            doc.subheading(&s.slice);
            let ci_head = format!("{level} interval");
            let mut t = Table::new(&["group", "AUC", ci_head.as_str()]);
            let iv = |lo: Option<f64>, hi: Option<f64>| match (lo, hi) {
                (Some(lo), Some(hi)) => format!("{}–{}", f4(lo), f4(hi)),
                _ => "n/a".into(),
            };
            for g in &s.auc_by_group {
                t.text_row(vec![g.group.clone(), opt(g.auc), iv(g.lower, g.upper)]);
            }
            t.text_row(vec!["all".into(), opt(s.auc_overall), String::new()]);
            doc.table(&t);
            let pm = |p: &Option<PairMax>| match p {
                Some(p) => vec![
                    format!("{} ({} vs {})", f4(p.value), p.groups[0], p.groups[1]),
                    iv(p.lower, p.upper),
                    p.p_value.map_or("n/a".into(), |p| p_cell(p, None)),
                ],
                None => vec!["n/a".into(), "n/a".into(), "n/a".into()],
            };
            let row = |name: String, p: &Option<PairMax>| {
                let mut r = vec![name];
                r.extend(pm(p));
                r
            };
            let mut g = Table::new(&["metric", "value", ci_head.as_str(), "p-value"]);
            g.text_row(row("AUC difference (max − min)".into(), &s.auc_gap));
            g.text_row(row("KS distance of scores (DP-Δ)".into(), &s.ks_dp));
            g.text_row(row(
                "KS distance of positives' scores (EO-Δ)".into(),
                &s.ks_eo,
            ));
            if let Some(iv) = r.settings.interval {
                g.text_row(row(format!("partial SP on [{}, {})", iv[0], iv[1]), &s.psp));
            }
            doc.table(&g);
            for n in &s.notes {
                doc.paragraph(&format!("Note: {n}"));
            }
            for f in charts.figures.iter().filter(|f| f.slice == s.slice) {
                figures.push((f.svg.clone(), f.file.clone()));
                doc.figure(f.svg.clone(), &f.caption, &f.file)
                    .map_err(|source| AuditError::Chart {
                        what: f.caption.clone(),
                        source,
                    })?;
            }
        }
        for n in &charts.notes {
            doc.paragraph(&format!("Note: {n}"));
        }
    }
    doc.heading("Method");
    doc.paragraph(&format!(
        "Rates: {method} intervals at {level}. Gaps (fairlearn conventions: difference = max − min, ratio = min / max over groups; a group whose rate is undefined, e.g. the TPR of a group without positives, is left out and named beside the gap, where fairlearn counts that rate as 0 — see docs/conventions.md): {}. Score metrics are exact: AUC with ties counted ½, KS over every threshold; their intervals and p-values: {}. Schema: {} v{}.",
        r.settings.gap_method, r.settings.score_inference_method, r.schema, r.schema_version
    ));
    doc.paragraph(&distinguishable_note(r));
    Ok((doc, figures))
}

/// The requested views of a report, as text.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// report.json (pretty-printed), if asked for.
    pub json: Option<String>,
    /// report.md, if asked for; it links the SVG files of `figures`.
    pub markdown: Option<String>,
    /// report.html (self-contained: the charts are inline), if asked for.
    pub html: Option<String>,
    /// `(relative path, SVG document)` of every figure report.md links (empty without markdown).
    pub figures: Vec<(String, String)>,
}

/// Which views to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Views {
    /// report.json.
    pub json: bool,
    /// report.md and its figures.
    pub markdown: bool,
    /// report.html.
    pub html: bool,
}

impl Default for Views {
    fn default() -> Self {
        Self {
            json: true,
            markdown: true,
            html: true,
        }
    }
}

/// Renders the requested views of a report.
///
/// # Errors
/// [`AuditError::Json`] if serialisation fails, [`AuditError::Chart`] if fair-report rejects a
/// chart.
pub fn render(r: &AuditReport, charts: &ChartData, views: Views) -> Result<Rendered, AuditError> {
    let mut out = Rendered::default();
    if views.json {
        out.json =
            Some(serde_json::to_string_pretty(r).map_err(|e| AuditError::Json(e.to_string()))?);
    }
    if !(views.markdown || views.html) {
        return Ok(out);
    }
    let (doc, figures) = document(r, charts)?;
    if views.html {
        out.html = Some(doc.to_html());
    }
    if views.markdown {
        out.markdown = Some(doc.to_markdown());
        out.figures = figures.into_iter().map(|(svg, file)| (file, svg)).collect();
    }
    Ok(out)
}

/// The methods note on the report's one rule for "distinguishable from zero", and on which
/// hypothesis each gap's interval and p-value address.
pub fn distinguishable_note(r: &AuditReport) -> String {
    let a = alpha(r.settings.confidence);
    let n = r.settings.resamples;
    let floor = p_cell(0.0, Some(n));
    let max = crate::summary::MAX_LISTED;
    format!(
        "Distinguishable from zero: one rule for every gap, count and score gaps alike — its p-value is below {a} (1 − confidence). The summary lists exactly these gaps, largest first (a ratio beside, or in the place of, the difference of the same rates, and ordered by that difference; at most {max} sentences, the rest counted), and no other. \
What each p-value tests: a count gap's (difference or ratio) is a one-sided permutation test of \"the rate does not depend on the group\", over all groups at once, from {n} permutations; \"p {floor}\" is its floor: no permutation gave a gap as large. \
A count gap's bootstrap interval describes how large the gap is, not whether it is zero: max − min is never negative (and min / max never above 1), so that interval seldom contains 0 (1 for a ratio) even when the groups do not differ, and it does not decide. \
The AUC difference's p-value tests \"no two groups' AUCs differ\" (a normal test union-bounded over all pairs of groups), while its interval is a normal interval for the two extreme groups only: the interval can exclude 0 while the p-value is not small, and the summary then says so. \
KS DP-Δ, KS EO-Δ and partial SP: the p-value tests \"no two groups' score distributions differ\" (union-bounded over all pairs); the interval is simultaneous over all groups (DKW) and conservative, so it can contain 0 while the p-value is small."
    )
}
