//! Per-group bars of one rate with confidence-interval whiskers (the audit's first chart).

use crate::bounds::check_plottable;
use crate::error::{ReportError, Result, plot_err};
use crate::legend::{
    Entry, Glyph, MAX_LABEL_CHARS, MIN_FONT, TICK_FONT, TITLE_FONT, draw_legend, legend_height,
    shorten,
};
use crate::palette::{GREY, Rgb, group_colour};
use crate::svg::render;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One group's value of the rate being drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRate {
    /// The group's name (from the user's data; escaped wherever it is drawn).
    pub group: String,
    /// The rate, or `None` when it is undefined (no rows in its denominator): drawn as a gap
    /// marked "n/a" with a note.
    pub rate: Option<f64>,
    /// The confidence interval `(lower, upper)`, if one was computed; drawn as a whisker.
    pub interval: Option<(f64, f64)>,
}

const CHART: &str = "group_rate_bars";

/// The fill of a bar of a group below the minimum group size.
const SMALL_FILL: RGBColor = RGBColor(215, 215, 215);

/// Up to this many groups are listed in the legend with their colours.
const LEGEND_GROUPS: usize = 12;

fn validate(groups: &[GroupRate], overall: Option<f64>) -> Result<()> {
    if groups.is_empty() {
        return Err(ReportError::BadInput {
            chart: CHART,
            reason: "no groups to draw".into(),
        });
    }
    for g in groups {
        if let Some(r) = g.rate {
            check_plottable(CHART, || format!("the rate of group {:?}", g.group), r)?;
        }
        if let Some((lo, hi)) = g.interval {
            check_plottable(
                CHART,
                || format!("the interval lower bound of group {:?}", g.group),
                lo,
            )?;
            check_plottable(
                CHART,
                || format!("the interval upper bound of group {:?}", g.group),
                hi,
            )?;
            if lo > hi {
                return Err(ReportError::BadInput {
                    chart: CHART,
                    reason: format!(
                        "group {:?}: interval lower bound {lo} is above its upper bound {hi}",
                        g.group
                    ),
                });
            }
        }
    }
    if let Some(o) = overall {
        check_plottable(CHART, || "the overall (reference) rate".into(), o)?;
    }
    Ok(())
}

/// The y range: from `min(0, every value)` to a little above the largest value (not above 1.05
/// when every value is a proportion).
fn y_range(groups: &[GroupRate], overall: Option<f64>) -> (f64, f64) {
    let values = groups
        .iter()
        .flat_map(|g| {
            g.rate
                .into_iter()
                .chain(g.interval.into_iter().flat_map(|(a, b)| [a, b]))
        })
        .chain(overall);
    let (lo, hi) = values.fold((0.0_f64, 0.0_f64), |(a, b), v| (a.min(v), b.max(v)));
    if hi <= lo {
        return (lo, lo + 1.0);
    }
    let top = lo + (hi - lo) * 1.12;
    let top = if hi <= 1.0 { top.min(1.05) } else { top };
    (lo, top)
}

/// Bars of one rate per group, each with its confidence-interval whisker, and an optional
/// dashed reference line at the `overall` rate. The y axis is labelled `rate_name`, the x axis
/// "group"; with more than 8 groups or long names the group labels are turned vertical and
/// shrink (never below 10.5 px), names longer than 28 characters are shortened with "…" under
/// the bars (up to ~50 groups stay legible); the legend wraps long names instead of cutting
/// them. `interval_label` names the whisker in the legend (e.g. "95 % Wilson interval"). When
/// every value is a proportion (in `[0, 1]`), whiskers are clipped to `[0, 1]` and the legend
/// counts the clipped ones.
///
/// # Errors
/// [`ReportError::BadInput`] for no groups, an interval whose lower bound is above its upper
/// bound, or a value beyond ±1e15; [`ReportError::NotFinite`] for a NaN or infinite rate, bound
/// or reference.
///
/// ```
/// use fair_report::{group_rate_bars, GroupRate};
/// let groups = vec![
///     GroupRate { group: "female".into(), rate: Some(0.11), interval: Some((0.10, 0.12)) },
///     GroupRate { group: "male".into(), rate: Some(0.31), interval: Some((0.30, 0.32)) },
/// ];
/// let svg = group_rate_bars("Selection rate by sex", "selection rate", &groups, Some(0.24),
///                           "95 % Wilson interval")?;
/// assert!(svg.contains("selection rate") && svg.contains("female"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn group_rate_bars(
    title: &str,
    rate_name: &str,
    groups: &[GroupRate],
    overall: Option<f64>,
    interval_label: &str,
) -> Result<String> {
    let n = groups.len();
    let colours: Vec<Rgb> = (0..n).map(|i| group_colour(i, n)).collect();
    group_rate_bars_coloured(title, rate_name, groups, overall, interval_label, &colours)
}

/// [`group_rate_bars`] with each group's colour given (one per group, in order), so a report
/// keeps one colour per group across its charts even when a chart draws a subset of them. The
/// legend lists every group with its colour.
///
/// # Errors
/// As [`group_rate_bars`], and [`ReportError::BadInput`] when `colours` does not have one
/// colour per group.
///
/// ```
/// use fair_report::{group_rate_bars_coloured, GroupRate, palette::{RED, GREEN}};
/// let g = |name: &str, r| GroupRate { group: name.into(), rate: Some(r), interval: None };
/// let svg = group_rate_bars_coloured("TPR", "TPR", &[g("x", 0.4), g("y", 0.6)], None, "",
///                                    &[RED, GREEN])?;
/// assert!(svg.contains(&RED.hex().to_uppercase()) || svg.contains(&RED.hex()));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn group_rate_bars_coloured(
    title: &str,
    rate_name: &str,
    groups: &[GroupRate],
    overall: Option<f64>,
    interval_label: &str,
    colours: &[Rgb],
) -> Result<String> {
    let small = vec![false; groups.len()];
    group_rate_bars_small(
        title,
        rate_name,
        groups,
        overall,
        interval_label,
        colours,
        &small,
    )
}

/// The legend entry of the greyed bars of [`group_rate_bars_small`].
pub const SMALL_GROUP_NOTE: &str = "greyed: below the minimum group size, left out of the gaps";

/// The label drawn above a greyed bar of [`group_rate_bars_small`].
pub const SMALL_GROUP_MARK: &str = "small";

/// [`group_rate_bars_coloured`] where `small[i]` marks group `i` as below the minimum group
/// size: its bar is drawn light grey (outlined in its colour) with "small" above it, and the
/// legend says such groups are left out of the gaps ([`SMALL_GROUP_NOTE`]). Its rate and
/// interval are still drawn: the reader sees the value and that it does not count.
///
/// # Errors
/// As [`group_rate_bars_coloured`], and [`ReportError::BadInput`] when `small` does not have
/// one flag per group.
///
/// ```
/// use fair_report::{group_rate_bars_small, GroupRate, palette::{RED, GREEN}};
/// let g = |name: &str, r| GroupRate { group: name.into(), rate: Some(r), interval: None };
/// let svg = group_rate_bars_small("TPR", "TPR", &[g("x", 0.4), g("y", 0.6)], None, "",
///                                 &[RED, GREEN], &[false, true])?;
/// assert!(svg.contains(fair_report::SMALL_GROUP_MARK) && svg.contains("greyed"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn group_rate_bars_small(
    title: &str,
    rate_name: &str,
    groups: &[GroupRate],
    overall: Option<f64>,
    interval_label: &str,
    colours: &[Rgb],
    small: &[bool],
) -> Result<String> {
    draw_bars(
        title,
        rate_name,
        "group",
        groups,
        overall,
        interval_label,
        colours,
        small,
    )
}

/// The bar chart of [`group_rate_bars_small`] with its x axis titled `x_desc`.
#[allow(clippy::too_many_arguments)]
fn draw_bars(
    title: &str,
    rate_name: &str,
    x_desc: &str,
    groups: &[GroupRate],
    overall: Option<f64>,
    interval_label: &str,
    colours: &[Rgb],
    small: &[bool],
) -> Result<String> {
    validate(groups, overall)?;
    if colours.len() != groups.len() {
        return Err(ReportError::BadInput {
            chart: CHART,
            reason: format!("{} colours for {} groups", colours.len(), groups.len()),
        });
    }
    if small.len() != groups.len() {
        return Err(ReportError::BadInput {
            chart: CHART,
            reason: format!(
                "{} small-group flags for {} groups",
                small.len(),
                groups.len()
            ),
        });
    }
    let any_small = small.iter().any(|&b| b);
    let err = plot_err(CHART);
    let n = groups.len();
    let labels: Vec<String> = groups
        .iter()
        .map(|g| shorten(&g.group, MAX_LABEL_CHARS))
        .collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let vertical = n > 8 || longest * n > 90;
    // Never below MIN_FONT (10.5 px in the SVG): from 31 groups on, the bars are narrower.
    let label_px: i32 = if n > 30 {
        MIN_FONT
    } else if vertical {
        TICK_FONT - 1
    } else {
        TICK_FONT
    };
    let x_area = if vertical {
        (longest as f64 * crate::legend::TEXT_EM * label_px as f64) as u32 + 40
    } else {
        50
    };
    // Proportions (every rate and the reference in [0, 1]): an interval cannot leave [0, 1],
    // so a whisker past it (a ratio's interval above 1, a KS interval below 0, as a normal
    // approximation gives) is clipped there and the legend says so.
    let proportions = groups
        .iter()
        .filter_map(|g| g.rate)
        .chain(overall)
        .all(|v| (0.0..=1.0).contains(&v));
    let mut clipped = 0;
    let groups: Vec<GroupRate> = groups
        .iter()
        .map(|g| {
            let mut g = g.clone();
            if let Some((lo, hi)) = g.interval.filter(|_| proportions) {
                let (a, b) = (lo.clamp(0.0, 1.0), hi.clamp(0.0, 1.0));
                if (a, b) != (lo, hi) {
                    clipped += 1;
                }
                g.interval = Some((a, b));
            }
            g
        })
        .collect();
    let groups = &groups[..];
    let (y_lo, y_hi) = y_range(groups, overall);
    let undefined = groups.iter().filter(|g| g.rate.is_none()).count();
    let legend_labels: Vec<String> = groups
        .iter()
        .take(if n <= LEGEND_GROUPS { n } else { 0 })
        .map(|g| g.group.clone())
        .chain(
            groups
                .iter()
                .any(|g| g.interval.is_some())
                .then(|| interval_label.to_string()),
        )
        .chain(overall.map(|o| format!("overall = {o:.3}")))
        .chain(any_small.then(|| SMALL_GROUP_NOTE.to_string()))
        .chain((clipped > 0).then(|| format!("whisker clipped to [0, 1]: {clipped}")))
        .chain(
            (undefined > 0)
                .then(|| {
                    [
                        format!("n/a: undefined in {undefined} group(s)"),
                        "(no rows in denominator)".to_string(),
                    ]
                })
                .into_iter()
                .flatten(),
        )
        .collect();
    let height = (560 + x_area).max(legend_height(legend_labels.iter().map(String::as_str), 280));
    render(CHART, (1000, height), |root| {
        let (plot, side) = root.split_horizontally(720);
        let (plot, _) = plot.split_vertically(560 + x_area);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", TITLE_FONT))
            .margin(16)
            .x_label_area_size(x_area)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..n as f64, y_lo..y_hi)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", TICK_FONT))
            .disable_x_mesh()
            // Group names are drawn at the slot centres below (plotters' own x labels would sit
            // at round numbers).
            .x_label_formatter(&|_: &f64| String::new())
            .x_desc(x_desc)
            .y_desc(rate_name)
            .light_line_style(WHITE)
            .draw()
            .map_err(|e| err(&e))?;
        // One swatch per group: a bar's colour names its group in every chart of the report
        // (beyond a dozen groups the labels under the bars name them instead).
        let mut entries: Vec<Entry> = groups
            .iter()
            .zip(colours)
            .take(if n <= LEGEND_GROUPS { n } else { 0 })
            .map(|(g, c)| Entry {
                label: g.group.clone(),
                colour: c.to_plotters(),
                glyph: Glyph::Box,
            })
            .collect();
        if groups.iter().any(|g| g.interval.is_some()) {
            entries.push(Entry {
                label: interval_label.to_string(),
                colour: BLACK,
                glyph: Glyph::Whisker,
            });
        }
        let base = y_lo.max(0.0).min(y_hi);
        for (i, g) in groups.iter().enumerate() {
            let (x0, x1) = (i as f64 + 0.15, i as f64 + 0.85);
            let mid = i as f64 + 0.5;
            if let Some(r) = g.rate {
                let c = colours[i].to_plotters();
                if small[i] {
                    chart
                        .draw_series([
                            Rectangle::new([(x0, base), (x1, r)], SMALL_FILL.filled()),
                            Rectangle::new([(x0, base), (x1, r)], c.stroke_width(2)),
                        ])
                        .map_err(|e| err(&e))?;
                    let top = g.interval.map_or(r, |(_, hi)| hi.max(r));
                    let at = chart.backend_coord(&(mid, top));
                    let grey = GREY.to_plotters();
                    let style = TextStyle::from(("sans-serif", TICK_FONT - 2).into_font())
                        .color(&grey)
                        .pos(Pos::new(HPos::Center, VPos::Bottom));
                    root.draw(&Text::new(SMALL_GROUP_MARK, (at.0, at.1 - 4), style))
                        .map_err(|e| err(&e))?;
                } else {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(x0, base), (x1, r)],
                            c.filled(),
                        )))
                        .map_err(|e| err(&e))?;
                }
            } else {
                let grey = GREY.to_plotters();
                let style = TextStyle::from(("sans-serif", label_px).into_font())
                    .color(&grey)
                    .pos(Pos::new(HPos::Center, VPos::Bottom));
                let at = chart.backend_coord(&(mid, base));
                root.draw(&Text::new("n/a", (at.0, at.1 - 4), style))
                    .map_err(|e| err(&e))?;
            }
            if let Some((lo, hi)) = g.interval {
                let cap = 0.18;
                chart
                    .draw_series([
                        PathElement::new(vec![(mid, lo), (mid, hi)], BLACK.stroke_width(2)),
                        PathElement::new(
                            vec![(mid - cap, lo), (mid + cap, lo)],
                            BLACK.stroke_width(1),
                        ),
                        PathElement::new(
                            vec![(mid - cap, hi), (mid + cap, hi)],
                            BLACK.stroke_width(1),
                        ),
                    ])
                    .map_err(|e| err(&e))?;
            }
            let at = chart.backend_coord(&(mid, y_lo));
            let style = TextStyle::from(("sans-serif", label_px).into_font());
            let text = if vertical {
                Text::new(
                    labels[i].clone(),
                    (at.0, at.1 + 6),
                    style
                        .transform(FontTransform::Rotate270)
                        .pos(Pos::new(HPos::Right, VPos::Center)),
                )
            } else {
                Text::new(
                    labels[i].clone(),
                    (at.0, at.1 + 6),
                    style.pos(Pos::new(HPos::Center, VPos::Top)),
                )
            };
            root.draw(&text).map_err(|e| err(&e))?;
        }
        if let Some(o) = overall {
            let grey = GREY.to_plotters();
            chart
                .draw_series(DashedLineSeries::new(
                    [(0.0, o), (n as f64, o)],
                    8,
                    5,
                    grey.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
            entries.push(Entry {
                label: format!("overall = {o:.3}"),
                colour: grey,
                glyph: Glyph::Dashed,
            });
        }
        if any_small {
            entries.push(Entry {
                label: SMALL_GROUP_NOTE.to_string(),
                colour: SMALL_FILL,
                glyph: Glyph::Box,
            });
        }
        if clipped > 0 {
            entries.push(Entry {
                label: format!("whisker clipped to [0, 1]: {clipped}"),
                colour: BLACK,
                glyph: Glyph::None,
            });
        }
        if undefined > 0 {
            entries.push(Entry {
                label: format!("n/a: undefined in {undefined} group(s)"),
                colour: BLACK,
                glyph: Glyph::None,
            });
            entries.push(Entry {
                label: "(no rows in denominator)".into(),
                colour: BLACK,
                glyph: Glyph::None,
            });
        }
        draw_legend(CHART, &side, &entries)
    })
}

/// Bars of gaps where some are ratios (parity at 1) and others differences or distances
/// (parity at 0), drawn as two stacked panels of [`group_rate_bars_coloured`] — ratios above,
/// the rest below — so neither scale squeezes the other (issue 39: a comparison drew
/// `eo_ratio` ≈ 0.9 beside `dp_difference` ≈ 0.1 on one axis). `ratio[i]` says whether bar `i`
/// is a ratio; a panel with no bar is left out, so with only one kind this is one chart. The
/// panels are titled "`title`: ratios (1 = parity)" and "`title`: differences (0 = parity)",
/// their x axes "gap", the y axes `gap_name`; whiskers are clipped to `[0, 1]` as in [`group_rate_bars`].
///
/// # Errors
/// As [`group_rate_bars_coloured`], and [`ReportError::BadInput`] when `ratio` or `colours`
/// does not have one entry per bar.
///
/// ```
/// use fair_report::{gap_panels, GroupRate, palette::{BLUE, GREY}};
/// let g = |name: &str, r| GroupRate { group: name.into(), rate: Some(r), interval: None };
/// let bars = [g("dp_difference", 0.1), g("dp_ratio", 0.9)];
/// let svg = gap_panels("Gaps", "gap", &bars, &[false, true], "CI", &[GREY, BLUE])?;
/// assert!(svg.contains("ratios (1 = parity)") && svg.contains("differences (0 = parity)"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn gap_panels(
    title: &str,
    gap_name: &str,
    bars: &[GroupRate],
    ratio: &[bool],
    interval_label: &str,
    colours: &[Rgb],
) -> Result<String> {
    if ratio.len() != bars.len() || colours.len() != bars.len() {
        return Err(ReportError::BadInput {
            chart: CHART,
            reason: format!(
                "{} bars, {} ratio flags and {} colours: one each per bar",
                bars.len(),
                ratio.len(),
                colours.len()
            ),
        });
    }
    let mut panels = Vec::new();
    for (want, name) in [
        (true, "ratios (1 = parity)"),
        (false, "differences (0 = parity)"),
    ] {
        let (b, c): (Vec<GroupRate>, Vec<Rgb>) = bars
            .iter()
            .zip(colours)
            .zip(ratio)
            .filter(|(_, r)| **r == want)
            .map(|((b, c), _)| (b.clone(), *c))
            .unzip();
        if !b.is_empty() {
            let svg = draw_bars(
                &format!("{title}: {name}"),
                gap_name,
                "gap",
                &b,
                None,
                interval_label,
                &c,
                &vec![false; b.len()],
            )?;
            panels.push(svg);
        }
    }
    if panels.len() == 1 {
        return Ok(panels.pop().unwrap_or_default());
    }
    if panels.is_empty() {
        return Err(ReportError::BadInput {
            chart: CHART,
            reason: "no gaps to draw".into(),
        });
    }
    // Stacked: each panel keeps its full width (side by side, the page would shrink both).
    let size = |svg: &str, attr: &str| -> u32 {
        let key = format!("{attr}=\"");
        svg.split_once(&key)
            .and_then(|(_, rest)| rest.split_once('"'))
            .and_then(|(v, _)| v.parse().ok())
            .unwrap_or(0)
    };
    let width = panels.iter().map(|p| size(p, "width")).max().unwrap_or(0);
    let height: u32 = panels.iter().map(|p| size(p, "height")).sum();
    let mut out = format!(
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         xmlns=\"http://www.w3.org/2000/svg\">\n"
    );
    let mut y = 0;
    for p in &panels {
        let h = size(p, "height");
        // The panel's body, moved down: a group, not a nested <svg> (a page's CSS for `svg`
        // elements would resize a nested one).
        let body = p
            .split_once('>')
            .map_or("", |(_, rest)| rest)
            .trim_end()
            .trim_end_matches("</svg>");
        out.push_str(&format!("<g transform=\"translate(0,{y})\">{body}</g>\n"));
        y += h;
    }
    out.push_str("</svg>\n");
    Ok(out)
}
