//! The disparities' section of report.md and report.html: per slice (and prediction source), a
//! table of every group's ten disparities against the reference group, parity failures and
//! significant tests marked, and a chart of four of them per group with the parity band
//! `[τ, 1/τ]` shaded. report.json keeps every group; the views list the groups furthest from
//! parity when a slice has many.

use crate::error::AuditError;
use crate::model::disparity::{DisparitySettings, GroupDisparity, SliceDisparities};
use crate::model::{AuditReport, ConfusionSlice};
use crate::render::{MAX_BARS, MAX_TABLE_ROWS, stem};
use fair_metrics::disparity::DisparityRate;
use fair_report::lines::{Band, Marker, Series, dot_plot_with_bands_named};
use fair_report::{HtmlReport, Table, fmt4};

/// The rates the chart draws (selection, the two error rates, precision).
const CHARTED: [DisparityRate; 4] = [
    DisparityRate::Pprev,
    DisparityRate::Fpr,
    DisparityRate::Fnr,
    DisparityRate::Precision,
];

/// The palette index of the parity band (TAB10's grey), apart from the series' colours.
const BAND_COLOUR: usize = 7;

/// How far a group is from parity on its worst rate: its smallest disparity folded below 1
/// (`min(d, 1/d)`; 1 = parity on every rate, `None` when no disparity is defined).
fn worst(g: &GroupDisparity) -> Option<f64> {
    g.rates
        .values()
        .filter_map(|r| r.disparity)
        .map(|d| d.min(1.0 / d))
        .reduce(f64::min)
}

/// The groups a view lists: all of them (in the slice's order) up to `max`, else the `max`
/// furthest from parity, furthest first, and a note saying so.
fn listed(d: &SliceDisparities, max: usize) -> (Vec<&GroupDisparity>, String) {
    let mut groups: Vec<&GroupDisparity> = d.groups.iter().collect();
    if groups.len() <= max {
        return (groups, String::new());
    }
    let key = |g: &&GroupDisparity| worst(g).unwrap_or(f64::INFINITY);
    groups.sort_by(|a, b| key(a).total_cmp(&key(b)));
    groups.truncate(max);
    let note = format!(
        " — the {max} of {} groups furthest from parity (report.json lists every group)",
        d.groups.len()
    );
    (groups, note)
}

/// One cell: the disparity, "✗" when it fails parity, "*" when its test is significant.
fn cell(g: &GroupDisparity, rate: DisparityRate) -> String {
    let Some(r) = g.rates.get(rate.key()) else {
        return String::new();
    };
    let mut s = r.disparity.map_or_else(|| fmt4(None), |d| fmt4(Some(d)));
    if r.parity == Some(false) {
        s.push_str(" ✗");
    }
    if r.significant == Some(true) {
        s.push('*');
    }
    s
}

/// Writes the section (nothing for a report without disparities).
///
/// # Errors
/// [`AuditError::Chart`] when a chart cannot be drawn.
pub fn write(
    doc: &mut HtmlReport,
    r: &AuditReport,
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    // Reports written before disparities have no settings for them; a slice without them in a
    // report that has the settings says why in its place.
    let Some(settings) = &r.settings.disparity else {
        return Ok(());
    };
    // An audit of inferred attributes alone has no observed slice to divide.
    if r.audits.iter().all(|a| a.slices.is_empty()) {
        return Ok(());
    }
    doc.heading("Disparities against a reference group (Aequitas)");
    doc.paragraph(&format!(
        "Each group's rate divided by the same rate of the slice's reference group (reference: {}). A disparity inside [{}, {}] is parity (τ = {}); ✗ marks a rate outside it, * a difference from the reference that Aequitas' t-test finds significant (p < {}). ppr is the group's share of all predicted positives (Statistical Parity), pprev its selection rate (Impact Parity). n/a: the rate or the reference's is undefined (an empty denominator, or 0 ÷ 0); a positive rate over a reference of 0 reads {} (Aequitas' cap).",
        settings.reference.join(", "),
        fmt4(Some(settings.tau)),
        fmt4(Some(1.0 / settings.tau)),
        fmt4(Some(settings.tau)),
        settings.alpha,
        settings.fill_divbyzero,
    ));
    for audit in &r.audits {
        for slice in &audit.slices {
            slice_section(doc, slice, audit.threshold, settings, figures)?;
        }
    }
    Ok(())
}

fn slice_section(
    doc: &mut HtmlReport,
    slice: &ConfusionSlice,
    threshold: Option<f64>,
    settings: &DisparitySettings,
    figures: &mut Vec<(String, String)>,
) -> Result<(), AuditError> {
    let at = threshold.map_or(String::new(), |t| format!(" (threshold {t})"));
    let Some(d) = &slice.disparities else {
        doc.subheading(&format!("Disparities of {}{at}", slice.slice));
        doc.paragraph(
            "Not computed: the slice's weighted counts are not finite numbers (its weights sum \
             beyond the largest floating-point number).",
        );
        return Ok(());
    };
    doc.subheading(&format!("Disparities of {}{at}", slice.slice));
    let mut header = vec!["group", "size"];
    header.extend(DisparityRate::ALL.iter().map(|r| r.key()));
    let mut t = Table::new(&header);
    let titles = header
        .iter()
        .map(|h| match *h {
            "group" => None,
            "size" => Some("rows of the group (weighted: the sum of its weights)".to_string()),
            key => Some(format!(
                "{} disparity: the group's {key} ÷ the reference group's",
                DisparityRate::ALL
                    .iter()
                    .find(|r| r.key() == key)
                    .map_or("", |r| r.parity_name())
            )),
        })
        .collect();
    t.header_titles(titles);
    // The reference group of each rate: one group for largest / named, per rate for min_metric.
    if let Some(first) = d.groups.first() {
        let mut row = vec!["reference".to_string(), String::new()];
        row.extend(DisparityRate::ALL.iter().map(|rate| {
            first
                .rates
                .get(rate.key())
                .map_or(String::new(), |r| r.reference_group.clone())
        }));
        t.text_row(row);
    }
    let (groups, note) = listed(d, MAX_TABLE_ROWS);
    for g in &groups {
        // Unweighted sizes are whole rows; weighted ones keep their decimals.
        let size = if g.size.fract() == 0.0 {
            format!("{}", g.size)
        } else {
            fmt4(Some(g.size))
        };
        let mut row = vec![g.group.clone(), size];
        row.extend(DisparityRate::ALL.iter().map(|&rate| cell(g, rate)));
        t.text_row(row);
    }
    let failing = d
        .groups
        .iter()
        .filter(|g| g.rates.values().any(|r| r.parity == Some(false)))
        .count();
    doc.paragraph(&format!(
        "{failing} of {} groups fail parity on at least one rate{note}.",
        d.groups.len()
    ));
    doc.table(&t);
    let (drawn, subset) = listed(d, MAX_BARS);
    let names: Vec<String> = drawn.iter().map(|g| g.group.clone()).collect();
    let series: Vec<Series> = CHARTED
        .iter()
        .enumerate()
        .map(|(i, rate)| Series {
            label: format!("{} disparity", rate.key()),
            points: drawn
                .iter()
                .enumerate()
                .map(|(k, g)| {
                    let y = g
                        .rates
                        .get(rate.key())
                        .and_then(|r| r.disparity)
                        .unwrap_or(f64::NAN);
                    ((k + 1) as f64, y)
                })
                .collect(),
            marker: Marker::Circle,
            color: i,
        })
        .collect();
    if series
        .iter()
        .all(|s| s.points.iter().all(|p| !p.1.is_finite()))
    {
        doc.paragraph("No disparity of the charted rates is defined in this slice: no chart.");
        return Ok(());
    }
    let band = Band {
        color: BAND_COLOUR,
        points: (1..=drawn.len())
            .map(|k| (k as f64, settings.tau, 1.0 / settings.tau))
            .collect(),
    };
    let title = format!("Disparities by {}{at}", slice.slice);
    let svg = dot_plot_with_bands_named(
        &title,
        &slice.slice,
        "disparity (group ÷ reference)",
        &series,
        &[band],
        &names,
    )
    .map_err(|source| AuditError::Chart {
        what: title.clone(),
        source,
    })?;
    let file = format!(
        "figures/disparity-{}{}.svg",
        stem(&slice.slice),
        threshold.map_or(String::new(), |t| format!("-t{}", stem(&t.to_string())))
    );
    figures.push((svg.clone(), file.clone()));
    let caption = format!(
        "{title}: the grey band is parity, [{}, {}]{subset}",
        fmt4(Some(settings.tau)),
        fmt4(Some(1.0 / settings.tau))
    );
    doc.figure(svg, &caption, &file)
        .map_err(|source| AuditError::Chart {
            what: title.clone(),
            source,
        })?;
    Ok(())
}
