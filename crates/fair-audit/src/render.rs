//! The report's views: report.json (the model, serialised), report.md (+ figures/*.svg beside
//! it) and report.html (one self-contained page with inline SVG), all through fair-report. The
//! text is built here; writing it to files is the front end's job.

use crate::charts::ChartData;
use crate::compute::rate_key;
use crate::error::AuditError;
use crate::glossary;
use crate::model::{AuditReport, ConfusionSlice, Estimate, PairMax};
use crate::model::{GroupRates, UndefinedGroup};
use crate::summary::{alpha, gap_note, p_cell, sig3};
use fair_metrics::Rate;
use fair_report::lines::{Band, Marker, Series, line_plot, line_plot_with_bands_named};
use fair_report::palette::{Rgb, group_colour};
use fair_report::{GroupRate, HtmlReport, Table, fmt4, group_rate_bars_small};

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

/// Most groups a bar chart draws: beyond, the highest and lowest half of this each.
pub const MAX_BARS: usize = 30;

/// Beyond this many groups the per-group table is sorted by selection rate.
pub const SORT_FROM: usize = 12;

/// Most groups the per-group table of the HTML and markdown lists: beyond, the highest and
/// lowest selection rates, half each (report.json keeps every group).
pub const MAX_TABLE_ROWS: usize = 50;

/// With at most `max` items, all of them (in their order) and an empty note; beyond, the
/// `max / 2` with the highest `value` then the `max / 2` with the lowest (items without a value
/// left out), and a note for the chart's title saying so. Colours travel with the items, so a
/// group keeps its colour in every chart.
pub fn extremes_of<T>(
    items: Vec<T>,
    max: usize,
    value: impl Fn(&T) -> Option<f64>,
) -> (Vec<T>, String) {
    let n = items.len();
    if n <= max {
        return (items, String::new());
    }
    let mut valued: Vec<(f64, T)> = items
        .into_iter()
        .filter_map(|t| value(&t).map(|v| (v, t)))
        .collect();
    valued.sort_by(|a, b| b.0.total_cmp(&a.0));
    let half = max / 2;
    let m = valued.len();
    let keep: Vec<T> = valued
        .into_iter()
        .enumerate()
        .filter(|(k, _)| *k < half || *k + half >= m)
        .map(|(_, (_, t))| t)
        .collect();
    let note = format!(" — the {half} highest and {half} lowest of {n} groups (all in the table)");
    (keep, note)
}

/// A column's hover text: its glossary meaning.
fn hover(key: &str) -> Option<String> {
    glossary::meaning(key).map(str::to_string)
}

/// One row per group kept out of a gap for its size: the slice (and threshold), the group, its
/// rows, positives and negatives, and the gaps it is kept out of with the deciding count.
fn small_groups_table(r: &AuditReport) -> Table {
    let mut t = Table::new(&[
        "slice",
        "group",
        "rows",
        "positives",
        "negatives",
        "kept out of",
    ]);
    t.header_titles(
        ["", "", "rows", "positives", "negatives", ""]
            .iter()
            .map(|k| hover(k))
            .collect(),
    );
    // The count gaps of the first prediction source: thresholds keep the same rows, so the
    // same groups are small at every threshold (only predicted positives change). Per group,
    // the deciding count ("3 positive rows") with the gaps it keeps the group out of.
    type Why = Vec<(String, Vec<String>)>;
    let mut rows: Vec<(String, GroupRates, Why)> = Vec::new();
    let mut add = |slice: &str, group: &GroupRates, key: &str, u: &UndefinedGroup| {
        let count = u
            .reason
            .split(", fewer")
            .next()
            .unwrap_or(&u.reason)
            .to_string();
        let i = match rows
            .iter()
            .position(|(s, g, _)| s == slice && g.group == group.group)
        {
            Some(i) => i,
            None => {
                rows.push((slice.to_string(), group.clone(), Vec::new()));
                rows.len() - 1
            }
        };
        let why = &mut rows[i].2;
        match why.iter_mut().find(|(c, _)| *c == count) {
            Some((_, keys)) if keys.iter().any(|k| k == key) => {}
            Some((_, keys)) => keys.push(key.to_string()),
            None => why.push((count, vec![key.to_string()])),
        }
    };
    if let Some(audit) = r.audits.first() {
        for slice in &audit.slices {
            for gap in &slice.gaps {
                for u in &gap.small_groups {
                    if let Some(g) = slice.groups.iter().find(|g| g.group == u.group) {
                        add(&slice.slice, g, gap.key.as_str(), u);
                    }
                }
            }
        }
        for s in r.score_metrics.iter().flatten() {
            let Some(slice) = audit.slices.iter().find(|c| c.slice == s.slice) else {
                continue;
            };
            for u in &s.small_groups {
                if let Some(g) = slice.groups.iter().find(|g| g.group == u.group) {
                    let key = if u.rate == "auc" {
                        "auc_difference"
                    } else {
                        u.rate
                    };
                    add(&slice.slice, g, key, u);
                }
            }
        }
    }
    for (slice, g, why) in rows {
        let why = why
            .into_iter()
            .map(|(count, keys)| format!("{count}: {}", keys.join(", ")))
            .collect::<Vec<_>>()
            .join("; ");
        t.text_row(vec![
            slice,
            g.group,
            g.rows.to_string(),
            g.positives.to_string(),
            g.negatives.to_string(),
            why,
        ]);
    }
    t
}

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
    let mut header = vec!["group", "rows", "positives", "negatives"];
    header.extend(TABLED.iter().map(|r| rate_key(*r)));
    let mut t = Table::new(&header);
    t.header_titles(header.iter().map(|h| hover(h)).collect());
    // Many groups: sorted by selection rate, and beyond MAX_TABLE_ROWS the highest and lowest
    // (report.json keeps every group).
    let mut listed: Vec<&GroupRates> = slice.groups.iter().collect();
    let selection = |g: &&GroupRates| {
        g.rates
            .get("selection_rate")
            .copied()
            .flatten()
            .map(|e| e.value)
    };
    let mut order = String::new();
    if listed.len() > SORT_FROM {
        let (kept, note) = extremes_of(listed, MAX_TABLE_ROWS, selection);
        listed = kept;
        if listed.len() == slice.groups.len() {
            listed.sort_by(|a, b| {
                let v = |g: &&GroupRates| selection(g).unwrap_or(f64::NEG_INFINITY);
                v(b).total_cmp(&v(a))
            });
        }
        order = format!(
            " Sorted by selection rate, highest first{}.",
            if note.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} (report.json lists every group)",
                    note.trim_start_matches(" — ")
                        .replace(" (all in the table)", "")
                )
            }
        );
    }
    // The same groups, each rate shrunk toward the slice's others (empirical Bayes).
    let mut shrunk = Table::new(&header);
    let any_shrunk = slice.groups.iter().any(|g| !g.shrunken.is_empty());
    for g in listed.into_iter().chain(std::iter::once(&slice.overall)) {
        let mut row = vec![
            g.group.clone(),
            g.rows.to_string(),
            g.positives.to_string(),
            g.negatives.to_string(),
        ];
        let mut shrunk_row = row.clone();
        row.extend(
            TABLED
                .iter()
                .map(|r| est(g.rates.get(rate_key(*r)).copied().flatten())),
        );
        t.text_row(row);
        if !g.shrunken.is_empty() {
            shrunk_row.extend(
                TABLED
                    .iter()
                    .map(|r| est(g.shrunken.get(rate_key(*r)).copied().flatten())),
            );
            shrunk.text_row(shrunk_row);
        }
    }
    doc.paragraph(&format!(
        "Rates per group with {level} {method} intervals [lower, upper].{order}"
    ));
    doc.table(&t);
    if any_shrunk {
        doc.paragraph(&format!(
            "The same rates shrunk toward the slice's other groups (empirical Bayes: a beta-binomial prior fitted across the groups by marginal maximum likelihood), with {level} posterior intervals: a small group's rate moves toward the others' as far as its few rows leave it uncertain, a large group's hardly moves. Read these beside the raw rates when groups are small."
        ));
        doc.table(&shrunk);
    }
    let spread: Vec<(Rate, crate::model::BetweenGroups)> = TABLED
        .iter()
        .filter_map(|r| {
            Some((
                *r,
                slice.between_groups.get(rate_key(*r)).copied().flatten()?,
            ))
        })
        .collect();
    if !spread.is_empty() {
        let mut b = Table::new(&[
            "rate",
            "groups",
            "naive SD",
            "bias-corrected SD",
            "interval",
        ]);
        for (rate, v) in spread {
            b.text_row(vec![
                rate_key(rate).to_string(),
                v.groups.to_string(),
                f4(v.naive_variance.max(0.0).sqrt()),
                f4(v.sd),
                format!("[{}, {}]", f4(v.sd_lower), f4(v.sd_upper)),
            ]);
        }
        doc.paragraph(&format!(
            "How much the groups' true rates differ: the standard deviation across groups, naive (inflated by each group's sampling noise) and bias-corrected (Lum, Zhang and Bower 2022: the average sampling variance subtracted), with a {level} bootstrap interval."
        ));
        doc.table(&b);
    }
    let notes: Vec<Option<String>> = slice
        .gaps
        .iter()
        .map(|g| {
            gap_note(
                g.key,
                &g.undefined_groups,
                &g.small_groups,
                g.fairlearn_value,
            )
        })
        .collect();
    let any_note = notes.iter().any(Option::is_some);
    let mut header = vec!["gap", "value", "interval", "p-value"];
    let any_adjusted = slice.gaps.iter().any(|g| g.p_value_adjusted.is_some());
    if any_adjusted {
        header.push("adjusted p-value");
    }
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
        if any_adjusted {
            row.push(p_opt(g.p_value_adjusted, None));
        }
        if any_note {
            row.push(note.unwrap_or_default());
        }
        gaps.text_row(row);
        if let Some(m) = glossary::meaning(g.key.as_str()) {
            gaps.title_last_row(m);
        }
    }
    doc.table(&gaps);
    let n = slice.groups.len();
    for rate in CHARTED {
        let key = rate_key(rate);
        // A group kept out of a gap on this rate for its size is drawn greyed.
        let small = |name: &str| {
            slice.gaps.iter().any(|g| {
                g.small_groups
                    .iter()
                    .any(|u| u.group == name && u.rate == key)
            })
        };
        let all: Vec<(GroupRate, Rgb, bool)> = slice
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let e = g.rates.get(key).copied().flatten();
                let bar = GroupRate {
                    group: g.group.clone(),
                    rate: e.map(|e| e.value),
                    interval: e.map(|e| (e.lower, e.upper)),
                };
                (bar, group_colour(i, n), small(&g.group))
            })
            .collect();
        let (drawn, subset) = extremes_of(all, MAX_BARS, |b| b.0.rate);
        let mut groups = Vec::with_capacity(drawn.len());
        let mut colours = Vec::with_capacity(drawn.len());
        let mut smalls = Vec::with_capacity(drawn.len());
        for (g, c, s) in drawn {
            groups.push(g);
            colours.push(c);
            smalls.push(s);
        }
        let overall = slice
            .overall
            .rates
            .get(key)
            .copied()
            .flatten()
            .map(|e| e.value);
        let title = format!("{} by {}{at}", rate.name(), slice.slice);
        let svg = group_rate_bars_small(
            &title,
            rate.name(),
            &groups,
            overall,
            &format!("{level} {method} interval"),
            &colours,
            &smalls,
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
        doc.figure(svg, &format!("{title}{subset}"), &file)
            .map_err(|source| AuditError::Chart {
                what: title.clone(),
                source,
            })?;
    }
    Ok(())
}

/// The difference gaps drawn against the threshold when several thresholds are audited.
const SWEPT: [&str; 4] = [
    "dp_difference",
    "eo_difference",
    "eq_odds_difference",
    "accuracy_difference",
];

/// One chart per slice: each difference gap against the threshold (a gap undefined at a
/// threshold leaves a hole in its line), so a sweep reads as one picture instead of one report
/// per threshold.
fn threshold_charts(
    doc: &mut HtmlReport,
    r: &AuditReport,
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    doc.heading("Gaps across thresholds");
    let markers = [
        Marker::Circle,
        Marker::Triangle,
        Marker::Square,
        Marker::Cross,
    ];
    let slices = r.audits.first().map_or(0, |a| a.slices.len());
    for k in 0..slices {
        let name = &r.audits[0].slices[k].slice;
        let series: Vec<Series> = SWEPT
            .iter()
            .enumerate()
            .map(|(i, key)| Series {
                label: key.to_string(),
                points: r
                    .audits
                    .iter()
                    .filter_map(|a| {
                        let t = a.threshold?;
                        let v = a.slices.get(k)?.gaps.iter().find(|g| g.key == *key)?.value;
                        Some((t, v.unwrap_or(f64::NAN)))
                    })
                    .collect(),
                marker: markers[i],
                color: i,
            })
            .collect();
        let title = format!("Gaps by threshold across {name}");
        let svg = line_plot(
            &title,
            "threshold on the score",
            "gap (max − min)",
            &series,
            false,
        )
        .map_err(|source| AuditError::Chart {
            what: title.clone(),
            source,
        })?;
        let file = format!("figures/gaps-by-threshold-{}.svg", stem(name));
        figures.push((svg.clone(), file.clone()));
        doc.figure(svg, &title, &file)
            .map_err(|source| AuditError::Chart {
                what: title.clone(),
                source,
            })?;
    }
    Ok(())
}

/// The audit over time: per slice, each difference gap against the window (a chart), and a
/// table of every window's gaps with the change since its baseline.
/// One slice's gaps by window as lines (markers per gap) with each window's interval shaded in
/// the gap's colour, the windows named on the axis; added to `doc` and `figures` as
/// `figures/over-time-<slice>.svg`. Shared by the classifier's and the regression report.
///
/// # Errors
/// [`AuditError::Chart`] if fair-report rejects the chart.
pub(crate) fn over_time_chart(
    doc: &mut HtmlReport,
    ot: &crate::over_time::OverTime,
    slice: &str,
    keys: &[&str],
    (y_label, title): (&str, &str),
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    let markers = [
        Marker::Circle,
        Marker::Triangle,
        Marker::Square,
        Marker::Cross,
    ];
    let gap_of = |w: &crate::over_time::WindowAudit, key: &str| {
        w.slices
            .iter()
            .find(|s| s.slice == slice)
            .and_then(|s| s.gaps.iter().find(|g| g.key == key))
            .cloned()
    };
    let series: Vec<Series> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| Series {
            label: key.to_string(),
            points: ot
                .windows
                .iter()
                .enumerate()
                .map(|(k, w)| {
                    let v = gap_of(w, key).and_then(|g| g.value);
                    ((k + 1) as f64, v.unwrap_or(f64::NAN))
                })
                .collect(),
            marker: markers[i % markers.len()],
            color: i,
        })
        .collect();
    // Each gap's interval in each window, shaded in the gap's colour: a trend is read against
    // its uncertainty, not as bare points.
    let bands: Vec<Band> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| Band {
            color: i,
            points: ot
                .windows
                .iter()
                .enumerate()
                .map(|(k, w)| {
                    let g = gap_of(w, key);
                    let end = |f: fn(&crate::over_time::WindowGap) -> Option<f64>| {
                        g.as_ref().and_then(f).unwrap_or(f64::NAN)
                    };
                    ((k + 1) as f64, end(|g| g.lower), end(|g| g.upper))
                })
                .collect(),
        })
        .collect();
    let names: Vec<String> = ot.windows.iter().map(|w| w.window.clone()).collect();
    let svg = line_plot_with_bands_named(
        title,
        &format!("{} ({})", ot.column, ot.window.key()),
        y_label,
        &series,
        &bands,
        &names,
    )
    .map_err(|source| AuditError::Chart {
        what: title.to_string(),
        source,
    })?;
    let file = format!("figures/over-time-{}.svg", stem(slice));
    figures.push((svg.clone(), file.clone()));
    doc.figure(svg, title, &file)
        .map_err(|source| AuditError::Chart {
            what: title.to_string(),
            source,
        })?;
    Ok(())
}

fn over_time_section(
    doc: &mut HtmlReport,
    ot: &crate::over_time::OverTime,
    confidence: f64,
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    doc.heading(&format!("Over time, by {}", ot.column));
    let baseline = match ot.baseline {
        crate::over_time::Baseline::First => "the first window",
        crate::over_time::Baseline::Previous => "the previous window",
    };
    doc.paragraph(&format!(
        "{} windows ({}); each window's gaps, intervals and p-values are those of the audit of its rows alone. Each window's change is against {baseline}, with a {:.0} % two-sample bootstrap interval, the p-value of \"no change\", and q, that p-value adjusted for the number of window changes by {}; a change is distinguishable when q < {}.",
        ot.windows.len(),
        ot.window.key(),
        confidence * 100.0,
        ot.multiple_comparisons.split(':').next().unwrap_or("Benjamini–Hochberg"),
        alpha(confidence)
    ));
    let slices: Vec<String> = ot
        .windows
        .first()
        .map(|w| w.slices.iter().map(|s| s.slice.clone()).collect())
        .unwrap_or_default();
    for slice in &slices {
        let gap_of = |w: &crate::over_time::WindowAudit, key: &str| {
            w.slices
                .iter()
                .find(|s| &s.slice == slice)
                .and_then(|s| s.gaps.iter().find(|g| g.key == key))
                .cloned()
        };
        let title = format!(
            "Gaps by window across {slice} (shaded: {:.0} % intervals)",
            confidence * 100.0
        );
        doc.subheading(&format!("{slice} over time"));
        over_time_chart(doc, ot, slice, &SWEPT, ("gap (max − min)", &title), figures)?;
        let mut t = Table::new(&[
            "#",
            "window",
            "rows",
            "dp_difference",
            "change (interval, p, q)",
            "eo_difference",
            "change (interval, p, q)",
        ]);
        let change = |g: &Option<crate::over_time::WindowGap>| match g {
            Some(crate::over_time::WindowGap {
                change: Some(d),
                change_lower: Some(lo),
                change_upper: Some(hi),
                change_p_value: Some(p),
                change_q_value: q,
                ..
            }) => format!(
                "{} [{}, {}], {}, q {}",
                f4(*d),
                f4(*lo),
                f4(*hi),
                p_cell(*p, None),
                q.map_or("—".into(), |q| p_cell(q, None))
            ),
            _ => "—".into(),
        };
        for (k, w) in ot.windows.iter().enumerate() {
            let (dp, eo) = (gap_of(w, "dp_difference"), gap_of(w, "eo_difference"));
            t.text_row(vec![
                (k + 1).to_string(),
                w.window.clone(),
                w.rows.to_string(),
                opt(dp.as_ref().and_then(|g| g.value)),
                change(&dp),
                opt(eo.as_ref().and_then(|g| g.value)),
                change(&eo),
            ]);
        }
        doc.table(&t);
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
    if let Some(reg) = &r.regression {
        return crate::regression_view::document(r, reg, charts);
    }
    if let Some(ranking) = &r.ranking {
        return crate::ranking_view::document(r, ranking);
    }
    let mut figures = Vec::new();
    let level = format!("{:.0} %", r.settings.confidence * 100.0);
    let method = &r.settings.rate_ci_method;
    let mut doc = HtmlReport::new(&format!("Fairness audit: {}", r.input.file));
    doc.interactive();
    // The committee's page first: verdicts, then what they lean on (small groups, the rates
    // and gaps with their charts); the statistical detail after.
    crate::first_page::write(&mut doc, r);
    if let Some(u) = &r.unknowns {
        crate::unknowns::section(&mut doc, u);
    }
    if let Some(inf) = &r.inferred {
        crate::inferred::section(&mut doc, inf, &level);
    }
    let small = small_groups_table(r);
    if !small.is_empty() {
        doc.heading("Small groups");
        doc.paragraph(&format!(
            "These groups have fewer than {} rows in the denominator of a rate a gap compares (the minimum group size): their rates are in the tables below, with wide intervals, but they are kept out of the gaps listed beside them and out of the headline, so that a handful of rows cannot decide the largest gap. Set the minimum group size to 0 to keep every group in.",
            r.settings.min_group_size
        ));
        doc.table(&small);
    }
    if r.audits.len() >= 2 {
        threshold_charts(&mut doc, r, &mut figures)?;
    }
    // An audit of inferred attributes alone has no observed slice: no section for it.
    for audit in r.audits.iter().filter(|a| !a.slices.is_empty()) {
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
    crate::disparity_view::write(&mut doc, r, &mut figures)?;
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
            if let Some(sr) = &s.scoring_rate {
                let explain = scores
                    .iter()
                    .position(|x| x.scoring_rate.is_some())
                    .is_some_and(|first| std::ptr::eq(&scores[first], s));
                scoring_rate_tables(&mut doc, sr, &ci_head, r, explain);
            }
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
    if let Some(c) = &r.comparison {
        doc.heading(&format!(
            "Compared with {} on the same rows (paired)",
            c.after.file
        ));
        doc.paragraph(&format!(
            "Each gap of {} (before) and {} (after), the change, its {:.0} % paired bootstrap interval and the p-value of \"no change\" ({} resamples).",
            c.before.file,
            c.after.file,
            c.settings.confidence * 100.0,
            c.settings.resamples
        ));
        crate::compare::comparison_tables(&mut doc, c, &mut figures)?;
    }
    if let Some(ot) = &r.over_time {
        over_time_section(&mut doc, ot, r.settings.confidence, &mut figures)?;
    }
    if r.audits.iter().any(|a| !a.slices.is_empty()) {
        statistical_detail(&mut doc, r);
    }
    doc.heading("What the numbers mean");
    let mut gl = Table::new(&["number", "meaning"]);
    let inferred: &[glossary::Entry] = if r.inferred.is_some() {
        &glossary::INFERRED_ENTRIES
    } else {
        &[]
    };
    for e in glossary::ENTRIES.iter().chain(inferred) {
        gl.text_row(vec![
            format!("{} ({})", e.name, e.key),
            e.meaning.to_string(),
        ]);
    }
    doc.table(&gl);
    doc.heading("Method");
    doc.paragraph(&format!(
        "Rates: {method} intervals at {level}. Gaps (fairlearn conventions: difference = max − min, ratio = min / max over groups; a group whose rate is undefined, e.g. the TPR of a group without positives, is left out and named beside the gap, where fairlearn counts that rate as 0 — see docs/conventions.md; a group with fewer than {} rows in a compared rate's denominator is kept out and named likewise): {}. Score metrics are exact: AUC with ties counted ½, KS over every threshold; their intervals and p-values: {}. Schema: {} v{}.",
        r.settings.min_group_size,
        r.settings.gap_method,
        r.settings.score_inference_method,
        r.schema,
        r.schema_version
    ));
    doc.paragraph(&distinguishable_note(r));
    Ok((doc, figures))
}

/// The summary's sentences (every distinguishable gap, with its interval and test) and the
/// headline table: the statistics behind the first page, after the sections a committee reads.
fn statistical_detail(doc: &mut HtmlReport, r: &AuditReport) {
    doc.heading("Statistical detail: every distinguishable gap");
    doc.paragraph(&format!(
        "{} rows; label '{}' (positive = '{}'), sensitive columns: {}; {} resamples, seed {}.",
        r.input.rows,
        r.input.columns.label,
        r.input.positive_label,
        r.input.columns.sensitive.join(", "),
        r.settings.resamples,
        r.settings.seed
    ));
    for s in &r.summary {
        doc.paragraph(s);
    }
    let notes: Vec<Option<String>> = r
        .headline
        .iter()
        .map(|(k, v)| gap_note(*k, &v.undefined_groups, &v.small_groups, v.fairlearn_value))
        .collect();
    let any_note = notes.iter().any(Option::is_some);
    let mut header = vec!["headline", "worst value", "slice", "threshold", "p-value"];
    if any_note {
        header.push("groups left out / fairlearn");
    }
    let mut h = Table::new(&header);
    for ((k, v), note) in r.headline.iter().zip(notes) {
        let title = glossary::meaning(k.as_str());
        let mut row = vec![
            k.to_string(),
            f4(v.value),
            v.slice.clone(),
            v.threshold.map_or("—".into(), |t| t.to_string()),
            p_opt(v.p_value, (!k.is_score()).then_some(r.settings.resamples)),
        ];
        if any_note {
            row.push(note.unwrap_or_default());
        }
        h.text_row(row);
        if let Some(m) = title {
            h.title_last_row(m);
        }
    }
    doc.paragraph("The worst value of each gap over the slices (the headline):");
    doc.table(&h);
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
The AUC difference's interval and p-value are one Bonferroni family over all pairs of groups: the p-value tests \"no two groups' AUCs differ\" and the interval for the largest difference is simultaneous over the same pairs, so the interval excludes 0 exactly when the p-value is below {a}. \
KS DP-Δ, KS EO-Δ and partial SP: the p-value tests \"no two groups' score distributions differ\" (union-bounded over all pairs); the interval is simultaneous over all groups (DKW) and conservative, so it can contain 0 while the p-value is small.{}",
        multiple_testing_note(&r.settings.multiple_testing)
    )
}

/// The sentence the method adds when the report adjusts its p-values (empty without).
fn multiple_testing_note(method: &str) -> String {
    let what = match method {
        "bh" => {
            "Benjamini–Hochberg (false-discovery rate under independence or positive dependence)"
        }
        "by" => "Benjamini–Yekutieli (false-discovery rate under any dependence)",
        "bonferroni" => "Bonferroni (family-wise error rate)",
        "holm" => "Holm (family-wise error rate)",
        _ => return String::new(),
    };
    format!(
        " Multiple comparisons: every gap's p-value was adjusted by {what} over all the gaps of the report (every threshold, slice, count and score gap), and the rule is applied to the adjusted value, written beside the raw one."
    )
}

/// NYC Local Law 144's scoring-rate table of one slice's score, and its two gaps.
/// `explain`: the first such table of the report says what the numbers are; the others name
/// the median only.
fn scoring_rate_tables(
    doc: &mut HtmlReport,
    sr: &crate::model::ScoringRates,
    ci_head: &str,
    r: &AuditReport,
    explain: bool,
) {
    doc.paragraph(&if explain {
        format!(
            "Scoring rate (NYC Local Law 144): the share of each group scored above the median score of all rows ({}), and its impact ratio — the group's rate ÷ the largest group rate; below 0.8 fails the four-fifths rule. Groups with fewer than {} rows (*) keep their rate but are left out of the largest rate and the gaps. The same numbers as fairkit ll144 --score, which also applies the law's 2 % exclusion.",
            f4(sr.median),
            r.settings.min_group_size
        )
    } else {
        format!(
            "Scoring rate (NYC Local Law 144) above the median score {}.",
            f4(sr.median)
        )
    });
    let mut t = Table::new(&["group", "scoring rate", ci_head, "impact ratio"]);
    for g in &sr.groups {
        let iv = match (g.lower, g.upper) {
            (Some(lo), Some(hi)) => format!("{}–{}", f4(lo), f4(hi)),
            _ => "n/a".into(),
        };
        let name = if g.small {
            format!("{} *", g.group)
        } else {
            g.group.clone()
        };
        t.text_row(vec![name, opt(g.rate), iv, opt(g.impact_ratio)]);
    }
    doc.table(&t);
    let mut gaps = Table::new(&["gap", "value", ci_head, "p-value"]);
    for gap in &sr.gaps {
        let iv = match (gap.lower, gap.upper) {
            (Some(lo), Some(hi)) => format!("{}–{}", f4(lo), f4(hi)),
            _ => "n/a".into(),
        };
        let value = match (gap.value, &gap.undefined_reason) {
            (Some(v), _) => f4(v),
            (None, Some(why)) => format!("n/a ({why})"),
            (None, None) => "n/a".into(),
        };
        gaps.text_row(vec![
            gap.name.clone(),
            value,
            iv,
            gap.p_value
                .map_or("n/a".into(), |p| p_cell(p, Some(r.settings.resamples))),
        ]);
    }
    doc.table(&gaps);
}
