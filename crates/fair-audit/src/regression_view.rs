//! The markdown/HTML views of a regression audit (report.json's `regression`): a verdict per
//! sensitive attribute first, then per slice the groups' metrics with intervals, the gaps with
//! their tests, the distances between the groups' predictions and the charts, then the
//! statistical detail, the glossary and the method.

use crate::charts::ChartData;
use crate::error::AuditError;
use crate::first_page::{FOUR_FIFTHS, gate_sentences};
use crate::glossary;
use crate::keys::Key;
use crate::model::AuditReport;
use crate::model::regression::{Measured, RegressionAudit, RegressionGroup, RegressionSlice};
use crate::regression::{gap_extremes, gap_quantity, simulated};
use crate::summary::{alpha, p_cell, p_text, value_text};
use fair_report::{HtmlReport, Table};

/// Most pairs of groups listed per slice (the largest distances first).
const MAX_PAIRS: usize = 15;

fn measured(m: Option<&Measured>) -> String {
    match m {
        Some(Measured {
            value: Some(v),
            lower: Some(l),
            upper: Some(u),
        }) => format!(
            "{} [{}, {}]",
            value_text(*v),
            value_text(*l),
            value_text(*u)
        ),
        Some(Measured { value: Some(v), .. }) => value_text(*v),
        _ => "n/a".into(),
    }
}

fn value_of(g: &RegressionGroup, key: &str) -> Option<f64> {
    g.metrics.get(key).and_then(|m| m.value)
}

/// One finding per gap family of a slice, in a committee's words.
fn findings(s: &RegressionSlice, r: &AuditReport, median: f64) -> Vec<String> {
    let a = alpha(r.settings.confidence);
    let mut out = Vec::new();
    let mut quiet = Vec::new();
    let gap = |k: Key| s.gaps.iter().find(|g| g.key == k);
    let group = |name: &str| s.groups.iter().find(|g| g.group == name);
    let families: [(Key, &str); 6] = [
        (Key::MeanPredictionDifference, "Mean prediction"),
        (
            Key::MeanResidualDifference,
            "Over/under-prediction (mean residual, prediction − target)",
        ),
        (Key::MaeDifference, "Mean absolute error"),
        (Key::RmseDifference, "Root mean squared error"),
        (
            Key::ScoringRateDifference,
            "Scoring rate (share predicted above the median)",
        ),
        (Key::KsPrediction, "Distribution of the predictions (KS)"),
    ];
    for (key, title) in families {
        let Some(g) = gap(key) else { continue };
        let Some(value) = g.value else {
            if let Some(why) = &g.undefined_reason {
                out.push(format!("{title}: not measured — {why}."));
            }
            continue;
        };
        let tested = g.p_value.is_some_and(|p| p < a);
        let between = gap_extremes(s, key);
        let detail = match (gap_quantity(key), &between) {
            (Some(q), Some((hi, lo))) => {
                let v = |n: &str| {
                    group(n)
                        .and_then(|g| value_of(g, q))
                        .map_or("n/a".into(), value_text)
                };
                format!("{hi} {} vs {lo} {}", v(hi), v(lo))
            }
            (None, Some((x, y))) => format!("between {x} and {y}"),
            _ => String::new(),
        };
        let p = g.p_value.map_or(String::new(), |p| {
            format!(", {}", p_text(p, simulated(key, r.settings.resamples)))
        });
        let mut sentence = format!("{title}: {detail} — difference {}{p}", value_text(value));
        if key == Key::ScoringRateDifference
            && let Some(ratio) = gap(Key::ScoringRateRatio).and_then(|g| g.value)
        {
            let rule = if ratio < FOUR_FIFTHS {
                format!("below the four-fifths rule ({FOUR_FIFTHS})")
            } else {
                "within the four-fifths rule".to_string()
            };
            sentence.push_str(&format!(
                "; impact ratio {} (NYC LL144, cut at the median {}), {rule}",
                value_text(ratio),
                value_text(median)
            ));
        }
        if key == Key::KsPrediction
            && let Some(w) = gap(Key::WassersteinMax).and_then(|g| g.value)
        {
            sentence.push_str(&format!(
                "; the largest Wasserstein-1 distance is {} (in the prediction's unit)",
                value_text(w)
            ));
        }
        if tested {
            out.push(format!("{sentence}: distinguishable from noise."));
        } else if key == Key::ScoringRateDifference {
            // The law asks for the impact ratio whatever its test says.
            out.push(format!("{sentence}: not distinguishable from noise."));
        } else {
            quiet.push(title.to_string());
        }
    }
    if !quiet.is_empty() {
        out.push(format!(
            "Not distinguishable from noise: {}.",
            quiet.join("; ")
        ));
    }
    if !s.small_groups.is_empty() {
        let names: Vec<&str> = s.small_groups.iter().map(|g| g.group.as_str()).collect();
        out.push(format!(
            "Too small to judge (fewer than {} rows, kept out of the gaps): {}.",
            r.settings.min_group_size,
            names.join(", ")
        ));
    }
    out
}

/// The first page's sentence on the windows: how many changes are distinguishable after the
/// adjustment and the largest of them (the summary's first over-time sentence, largest first).
fn over_time_verdict(ot: &crate::over_time::OverTime, r: &AuditReport) -> String {
    let a = alpha(r.settings.confidence);
    let q: Vec<f64> = ot
        .windows
        .iter()
        .flat_map(|w| &w.slices)
        .flat_map(|s| &s.gaps)
        .filter_map(|g| g.change_q_value)
        .collect();
    let found = q.iter().filter(|&&x| x < a).count();
    let mut text = format!(
        "Over time, by {} ({} windows): {found} of {} window changes are distinguishable from noise (Benjamini–Hochberg adjusted q < {a}).",
        ot.column,
        ot.windows.len(),
        q.len()
    );
    if found > 0
        && let Some(largest) = r.summary.iter().find(|x| x.starts_with("Over time: in "))
    {
        text.push_str(&format!(
            " The largest: {}",
            largest.trim_start_matches("Over time: ")
        ));
    }
    text
}

fn first_page(doc: &mut HtmlReport, r: &AuditReport, reg: &RegressionAudit) {
    doc.open_section("first-page", "first-page");
    doc.heading("Verdict");
    doc.paragraph(&format!(
        "{}: {} rows; numeric target '{}', prediction '{}'; sensitive attributes: {}.",
        r.input.file,
        r.input.rows,
        reg.target,
        reg.prediction,
        r.input.columns.sensitive.join(", ")
    ));
    for (lead, text) in gate_sentences(r) {
        doc.lead_paragraph(&lead, &text);
    }
    let all = &reg.overall;
    doc.paragraph(&format!(
        "The model on all rows: mean absolute error {}, root mean squared error {}, R² {}, mean residual {} (prediction − target; above 0 it over-predicts).",
        measured(all.metrics.get("mean_absolute_error")),
        measured(all.metrics.get("root_mean_squared_error")),
        measured(all.metrics.get("r2_score")),
        measured(all.metrics.get("mean_residual")),
    ));
    for s in &reg.slices {
        doc.lead_paragraph(&format!("{}:", s.slice), "");
        doc.list(&findings(s, r, reg.pooled_median));
    }
    if let Some(ot) = &r.over_time {
        doc.paragraph(&over_time_verdict(ot, r));
    }
    doc.paragraph(&format!(
        "How to read this: a gap is distinguishable from noise when its p-value is below {} (1 − confidence); intervals are at {:.0} %; the scoring rate is the share of a group predicted above the median of all rows, and its impact ratio (smallest ÷ largest) is what NYC Local Law 144 asks of a tool that scores; a group with fewer than {} rows is too small to judge and is kept out of the gaps. The detail follows.",
        alpha(r.settings.confidence),
        r.settings.confidence * 100.0,
        r.settings.min_group_size
    ));
    doc.close_section();
    doc.contents();
}

fn groups_table(s: &RegressionSlice, quantile: f64) -> Table {
    let q = if (quantile - 0.5).abs() < 1e-12 {
        "median prediction".to_string()
    } else {
        format!("prediction quantile {quantile}")
    };
    let mut t = Table::new(&[
        "group",
        "rows",
        "mean target",
        "mean prediction",
        "mean residual",
        "MAE",
        "RMSE",
        "R²",
        q.as_str(),
        "scoring rate",
    ]);
    for g in &s.groups {
        let name = if g.small {
            format!("{} (small)", g.group)
        } else {
            g.group.clone()
        };
        t.text_row(vec![
            name,
            g.rows.to_string(),
            measured(g.metrics.get("mean_target")),
            measured(g.metrics.get("mean_prediction")),
            measured(g.metrics.get("mean_residual")),
            measured(g.metrics.get("mean_absolute_error")),
            measured(g.metrics.get("root_mean_squared_error")),
            measured(g.metrics.get("r2_score")),
            g.prediction_quantile.map_or("n/a".into(), value_text),
            measured(g.metrics.get("scoring_rate")),
        ]);
    }
    t
}

fn gaps_table(s: &RegressionSlice, level: &str, resamples: usize) -> Table {
    let ci = format!("{level} interval");
    let mut t = Table::new(&["gap", "value", ci.as_str(), "p-value", "groups"]);
    for g in &s.gaps {
        let value = g.value.map_or_else(
            || format!("n/a ({})", g.undefined_reason.clone().unwrap_or_default()),
            value_text,
        );
        let interval = match (g.lower, g.upper) {
            (Some(l), Some(u)) => format!("[{}, {}]", value_text(l), value_text(u)),
            _ => "n/a".into(),
        };
        let groups = gap_extremes(s, g.key)
            .map(|(a, b)| format!("{a} vs {b}"))
            .unwrap_or_default();
        t.text_row(vec![
            format!("{} ({})", g.name, g.key),
            value,
            interval,
            g.p_value
                .map_or("n/a".into(), |p| p_cell(p, simulated(g.key, resamples))),
            groups,
        ]);
    }
    t
}

fn pairs_table(s: &RegressionSlice) -> (Table, usize) {
    let mut pairs: Vec<_> = s.pairs.iter().collect();
    pairs.sort_by(|a, b| b.wasserstein.total_cmp(&a.wasserstein));
    let mut t = Table::new(&["groups", "Wasserstein-1", "KS"]);
    for p in pairs.iter().take(MAX_PAIRS) {
        t.text_row(vec![
            format!("{} vs {}", p.groups[0], p.groups[1]),
            value_text(p.wasserstein),
            value_text(p.ks),
        ]);
    }
    (t, pairs.len())
}

/// The gaps drawn and tabled per window: differences in the prediction's unit, then the LL144
/// impact ratio.
const OVER_TIME_KEYS: [Key; 4] = [
    Key::MeanPredictionDifference,
    Key::MeanResidualDifference,
    Key::MaeDifference,
    Key::ScoringRateRatio,
];

fn over_time_section(
    doc: &mut HtmlReport,
    ot: &crate::over_time::OverTime,
    (confidence, resamples): (f64, usize),
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    doc.heading(&format!("Over time, by {}", ot.column));
    let baseline = match ot.baseline {
        crate::over_time::Baseline::First => "the first window",
        crate::over_time::Baseline::Previous => "the previous window",
    };
    doc.paragraph(&format!(
        "{} windows ({}); each window's gaps, intervals and p-values are those of the regression audit of its rows alone. Each window's change is against {baseline}, with a {:.0} % interval from both windows' group estimates and standard errors, the p-value of \"no change\", and q, that p-value adjusted over every window change by Benjamini–Hochberg; a change is distinguishable when q < {}.",
        ot.windows.len(),
        ot.window.key(),
        confidence * 100.0,
        alpha(confidence)
    ));
    let slices: Vec<String> = ot
        .windows
        .first()
        .map(|w| w.slices.iter().map(|s| s.slice.clone()).collect())
        .unwrap_or_default();
    for slice in &slices {
        let gap_of = |w: &crate::over_time::WindowAudit, key: Key| {
            w.slices
                .iter()
                .find(|s| &s.slice == slice)
                .and_then(|s| s.gaps.iter().find(|g| g.key == key))
                .cloned()
        };
        // The differences, in the prediction's unit, are drawn; the impact ratio is tabled.
        let drawn: Vec<&str> = OVER_TIME_KEYS[..3].iter().map(|k| k.as_str()).collect();
        let title = format!(
            "Gaps of the predictions by window across {slice} (shaded: {:.0} % intervals)",
            confidence * 100.0
        );
        doc.subheading(&format!("{slice} over time"));
        crate::render::over_time_chart(
            doc,
            ot,
            slice,
            &drawn,
            ("gap (max − min, prediction's unit)", &title),
            figures,
        )?;
        let mut headers = vec!["window".to_string(), "rows".to_string()];
        headers.extend(OVER_TIME_KEYS.iter().map(|k| format!("{k} (change, p, q)")));
        let header_refs: Vec<&str> = headers.iter().map(String::as_str).collect();
        let mut t = Table::new(&header_refs);
        for w in &ot.windows {
            let mut row = vec![w.window.clone(), w.rows.to_string()];
            for &key in &OVER_TIME_KEYS {
                row.push(match gap_of(w, key) {
                    None => "n/a".into(),
                    Some(g) => {
                        let v = g.value.map_or("n/a".into(), value_text);
                        match (g.change, g.change_p_value, g.change_q_value) {
                            (Some(c), Some(p), Some(q)) => format!(
                                "{v} ({}{}, p {}, q {})",
                                if c > 0.0 { "+" } else { "" },
                                value_text(c),
                                p_cell(p, simulated(key, resamples)),
                                value_text(q)
                            ),
                            (Some(c), _, _) => {
                                format!("{v} ({}{})", if c > 0.0 { "+" } else { "" }, value_text(c))
                            }
                            _ => v,
                        }
                    }
                });
            }
            t.text_row(row);
        }
        doc.table(&t);
    }
    Ok(())
}

/// The document of a regression report (see the module docs).
///
/// # Errors
/// [`AuditError::Chart`] if a figure cannot be embedded.
pub fn document(
    r: &AuditReport,
    reg: &RegressionAudit,
    charts: &ChartData,
) -> Result<(HtmlReport, Vec<(String, String)>), AuditError> {
    let mut figures = Vec::new();
    let level = format!("{:.0} %", r.settings.confidence * 100.0);
    let mut doc = HtmlReport::new(&format!(
        "Fairness audit of a numeric prediction: {}",
        r.input.file
    ));
    doc.interactive();
    first_page(&mut doc, r, reg);
    for s in &reg.slices {
        doc.heading(&format!("Predictions by {}", s.slice));
        doc.paragraph(&format!(
            "Per group: metrics of the prediction '{}' against the target '{}', each with its {level} interval (normal approximation; R² has none). The scoring rate is the share predicted above the median of all rows, {}.",
            reg.prediction,
            reg.target,
            value_text(reg.pooled_median)
        ));
        doc.table(&groups_table(s, reg.quantile));
        doc.subheading(&format!("Gaps between the groups of {}", s.slice));
        doc.table(&gaps_table(s, &level, r.settings.resamples));
        if let (Some(mae), Some(mse)) = (&s.largest_group_mae, &s.largest_group_mse) {
            doc.paragraph(&format!(
                "Largest group loss (fairlearn's bounded group loss): mean absolute error {} ({}), mean squared error {} ({}).",
                value_text(mae.value),
                mae.group,
                value_text(mse.value),
                mse.group
            ));
        }
        if !s.pairs.is_empty() {
            let (t, n) = pairs_table(s);
            doc.subheading(&format!(
                "Distances between the groups' predictions ({})",
                s.slice
            ));
            if n > MAX_PAIRS {
                doc.paragraph(&format!(
                    "The {MAX_PAIRS} pairs with the largest Wasserstein-1 distance of {n} (all in report.json)."
                ));
            }
            doc.table(&t);
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
    if let Some(ot) = &r.over_time {
        over_time_section(
            &mut doc,
            ot,
            (r.settings.confidence, r.settings.resamples),
            &mut figures,
        )?;
    }
    doc.heading("Statistical detail: every distinguishable gap");
    doc.paragraph(&format!(
        "{} rows; target '{}', prediction '{}', sensitive columns: {}; {} resamples, seed {}{}.",
        r.input.rows,
        reg.target,
        reg.prediction,
        r.input.columns.sensitive.join(", "),
        r.settings.resamples,
        r.settings.seed,
        if r.settings.weighted {
            ", weighted"
        } else {
            ""
        }
    ));
    for s in &r.summary {
        doc.paragraph(s);
    }
    doc.heading("What the numbers mean");
    let mut gl = Table::new(&["number", "meaning"]);
    for e in glossary::REGRESSION_ENTRIES {
        gl.text_row(vec![
            format!("{} ({})", e.name, e.key),
            e.meaning.to_string(),
        ]);
    }
    doc.table(&gl);
    doc.heading("Method");
    doc.paragraph(&format!(
        "Metrics are exact sums over the rows (each group's sums merged from any partition of the file); quantiles, the scoring rate and the distances between distributions are exact, from one sweep over the sorted predictions. Intervals and p-values: {}. Schema: {} v{}.",
        reg.inference_method, r.schema, r.schema_version
    ));
    Ok((doc, figures))
}
