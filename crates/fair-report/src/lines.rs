//! Multi-series line plots with markers, axis ranges fitted to the data, optional log-10 y.

use crate::bounds::check_points;
use crate::error::{ReportError, Result, plot_err};
use crate::legend::{LEGEND_FONT, TICK_FONT, TITLE_FONT};
use crate::palette::plotters_colour;
use crate::svg::render;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The marker drawn at each point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// Filled circle.
    Circle,
    /// Filled triangle.
    Triangle,
    /// Cross.
    Cross,
    /// Filled square.
    Square,
    /// Line only (for long traces).
    None,
}

/// One line of a plot.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub label: String,
    /// The points in drawing order; a point whose plotted coordinate is not finite is left out.
    pub points: Vec<(f64, f64)>,
    /// Marker at each point.
    pub marker: Marker,
    /// Index into the palette ([`crate::palette::series_colour`]).
    pub color: usize,
}

/// Draws the series as lines with markers. With `log_y`, the y values are plotted as
/// `log10(max(y, 1e-8))` (the axis label says so), for quantities spanning decades.
///
/// # Errors
/// [`ReportError::BadInput`] when no point is finite (nothing to draw) or a plotted coordinate
/// is beyond ±1e15.
///
/// ```
/// use fair_report::lines::{line_plot, Marker, Series};
/// let s = Series { label: "vanilla".into(), points: vec![(1.0, 0.5), (2.0, 0.3)],
///                  marker: Marker::Circle, color: 0 };
/// let svg = line_plot("loss", "r", "L / n", &[s], false)?;
/// assert!(svg.contains("vanilla"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn line_plot(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    log_y: bool,
) -> Result<String> {
    draw(title, x_desc, y_desc, series, &[], log_y, None)
}

/// An interval band around a series: `(x, lower, upper)` per point, shaded in the series'
/// colour (translucent) behind the lines. A point whose ends are not finite breaks the band.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// Index into the palette: the colour of the series it belongs to.
    pub color: usize,
    /// The band's points in drawing order.
    pub points: Vec<(f64, f64, f64)>,
}

/// [`line_plot`] with interval bands (linear y): trends with their uncertainty, e.g. a gap per
/// window with its bootstrap interval. The axes fit the bands too.
///
/// # Errors
/// [`ReportError::BadInput`] as [`line_plot`], or a band whose lower end is above its upper end
/// or beyond ±1e15.
///
/// ```
/// use fair_report::lines::{line_plot_with_bands, Band, Marker, Series};
/// let s = Series { label: "dp".into(), points: vec![(1.0, 0.1), (2.0, 0.2)],
///                  marker: Marker::Circle, color: 0 };
/// let b = Band { color: 0, points: vec![(1.0, 0.05, 0.15), (2.0, 0.1, 0.3)] };
/// let svg = line_plot_with_bands("gap", "window", "gap", &[s], &[b])?;
/// assert!(svg.contains("dp") && svg.contains("<polygon"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn line_plot_with_bands(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    bands: &[Band],
) -> Result<String> {
    draw(title, x_desc, y_desc, series, bands, false, None)
}

/// [`line_plot_with_bands`] over named positions: x = 1, 2, … is `names[0]`, `names[1]`, …,
/// and the x axis labels its ticks by those names (a window "2026-W02", a model version), not
/// by numbers. A tick between two positions is left blank.
///
/// # Errors
/// As [`line_plot_with_bands`].
///
/// ```
/// use fair_report::lines::{line_plot_with_bands_named, Band, Marker, Series};
/// let s = Series { label: "dp".into(), points: vec![(1.0, 0.1), (2.0, 0.2)],
///                  marker: Marker::Circle, color: 0 };
/// let b = Band { color: 0, points: vec![(1.0, 0.05, 0.15), (2.0, 0.12, 0.28)] };
/// let names = vec!["2026-W02".to_string(), "2026-W03".to_string()];
/// let svg = line_plot_with_bands_named("gaps", "week", "gap", &[s], &[b], &names)?;
/// assert!(svg.contains("2026-W03"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn line_plot_with_bands_named(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    bands: &[Band],
    names: &[String],
) -> Result<String> {
    draw(title, x_desc, y_desc, series, bands, false, Some(names))
}

/// Points over named categories (groups): x = 1, 2, … is `names[0]`, `names[1]`, …, every
/// category labelled under the axis (turned upright when there are many or long names), each
/// series drawn as markers only — no line joins two categories, since nothing lies between them
/// — and the bands shaded behind them (a parity band, say).
///
/// # Errors
/// As [`line_plot_with_bands`].
///
/// ```
/// use fair_report::lines::{dot_plot_with_bands_named, Band, Marker, Series};
/// let s = Series { label: "fpr disparity".into(), points: vec![(1.0, 0.7), (2.0, 1.0)],
///                  marker: Marker::Circle, color: 0 };
/// let parity = Band { color: 7, points: vec![(1.0, 0.8, 1.25), (2.0, 0.8, 1.25)] };
/// let names = vec!["black & female".to_string(), "white & male".to_string()];
/// let svg = dot_plot_with_bands_named("disparities", "race & sex", "ratio", &[s], &[parity], &names)?;
/// assert!(svg.contains("black &amp; female") && !svg.contains("stroke-width=\"2\" points"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn dot_plot_with_bands_named(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    bands: &[Band],
    names: &[String],
) -> Result<String> {
    draw_with(
        title,
        x_desc,
        y_desc,
        series,
        bands,
        false,
        Some(names),
        Layout::Categories,
    )
}

/// How the x axis and the series are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Lines through the points; at most eight x ticks.
    Lines,
    /// Markers only; every named position labelled.
    Categories,
}

/// The name of position `x` (1-based) among `names`, or blank between positions.
fn position_name(names: &[String], x: f64) -> String {
    let k = x.round();
    if (x - k).abs() > 1e-9 || k < 1.0 {
        return String::new();
    }
    names.get(k as usize - 1).cloned().unwrap_or_default()
}

/// The finite runs of a band, each as one closed polygon (upper ends forward, lower back).
fn band_polygons(band: &Band) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    for run in band
        .points
        .split(|&(x, lo, hi)| !(x.is_finite() && lo.is_finite() && hi.is_finite()))
        .filter(|r| !r.is_empty())
    {
        let mut poly: Vec<(f64, f64)> = run.iter().map(|&(x, _, hi)| (x, hi)).collect();
        poly.extend(run.iter().rev().map(|&(x, lo, _)| (x, lo)));
        out.push(poly);
    }
    out
}

fn draw(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    bands: &[Band],
    log_y: bool,
    names: Option<&[String]>,
) -> Result<String> {
    draw_with(
        title,
        x_desc,
        y_desc,
        series,
        bands,
        log_y,
        names,
        Layout::Lines,
    )
}

#[allow(clippy::too_many_arguments)]
fn draw_with(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    bands: &[Band],
    log_y: bool,
    names: Option<&[String]>,
    layout: Layout,
) -> Result<String> {
    const CHART: &str = "line_plot";
    const FLOOR: f64 = 1e-8;
    let err = plot_err(CHART);
    let tf = |y: f64| if log_y { y.max(FLOOR).log10() } else { y };
    let plotted = |s: &Series| -> Vec<(f64, f64)> {
        s.points
            .iter()
            .map(|&(x, y)| (x, tf(y)))
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .collect()
    };
    let data: Vec<Vec<(f64, f64)>> = series.iter().map(plotted).collect();
    for (s, points) in series.iter().zip(&data) {
        check_points(CHART, &s.label, points)?;
    }
    let polygons: Vec<(usize, Vec<(f64, f64)>)> = bands
        .iter()
        .flat_map(|b| band_polygons(b).into_iter().map(move |p| (b.color, p)))
        .collect();
    for b in bands {
        if let Some(&(x, lo, hi)) = b.points.iter().find(|p| p.1 > p.2) {
            return Err(ReportError::BadInput {
                chart: CHART,
                reason: format!("a band's lower end {lo} is above its upper end {hi} at x = {x}"),
            });
        }
    }
    for (_, poly) in &polygons {
        check_points(CHART, "an interval band", poly)?;
    }
    let pts = || {
        data.iter()
            .flatten()
            .chain(polygons.iter().flat_map(|p| &p.1))
    };
    let x_min = pts().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let x_max = pts().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let y_min = pts().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let y_max = pts().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    if !(x_min.is_finite() && x_max.is_finite() && y_min.is_finite() && y_max.is_finite()) {
        return Err(ReportError::BadInput {
            chart: CHART,
            reason: "no finite points to plot".into(),
        });
    }
    let x_pad = ((x_max - x_min) * 0.03).max(0.5);
    let y_pad = ((y_max - y_min) * 0.08).max(1e-3);
    let categories = match (layout, names) {
        (Layout::Categories, Some(n)) => Some(n),
        _ => None,
    };
    // Category names run upright below the axis when side by side they would collide.
    let longest = categories.map_or(0, |n| {
        n.iter().map(|s| s.chars().count()).max().unwrap_or(0)
    });
    let upright = categories.is_some_and(|n| n.len() > 6 || longest > 14);
    let x_area = if upright {
        (longest as u32 * 8 + 45).clamp(55, 240)
    } else {
        55
    };
    render(CHART, (960, 640 + x_area - 55), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", TITLE_FONT))
            .margin(18)
            .x_label_area_size(x_area)
            .y_label_area_size(80)
            .build_cartesian_2d(
                (x_min - x_pad)..(x_max + x_pad),
                (y_min - y_pad)..(y_max + y_pad),
            )
            .map_err(|e| err(&e))?;
        let y_label = if log_y {
            format!("log10 {y_desc}")
        } else {
            y_desc.to_string()
        };
        let name_of = |x: &f64| names.map_or_else(|| format!("{x}"), |n| position_name(n, *x));
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(x_desc)
            .y_desc(y_label)
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", TICK_FONT))
            .light_line_style(WHITE);
        let blank = |_: &f64| String::new();
        if categories.is_some() {
            // Every category is named below, at its own position (plotters' ticks would fall
            // on round numbers and skip some).
            mesh.x_label_formatter(&blank).disable_x_mesh();
        } else if let Some(n) = names {
            // At most eight named ticks, on whole positions.
            mesh.x_labels(n.len().clamp(2, 8))
                .x_label_formatter(&name_of);
        }
        mesh.draw().map_err(|e| err(&e))?;
        if let Some(n) = categories {
            let y_axis = y_min - y_pad;
            for (i, name) in n.iter().enumerate() {
                let at = chart.backend_coord(&((i + 1) as f64, y_axis));
                let style = TextStyle::from(("sans-serif", TICK_FONT).into_font());
                let text = if upright {
                    Text::new(
                        name.clone(),
                        (at.0, at.1 + 6),
                        style
                            .transform(FontTransform::Rotate270)
                            .pos(Pos::new(HPos::Right, VPos::Center)),
                    )
                } else {
                    Text::new(
                        name.clone(),
                        (at.0, at.1 + 6),
                        style.pos(Pos::new(HPos::Center, VPos::Top)),
                    )
                };
                root.draw(&text).map_err(|e| err(&e))?;
            }
        }
        for (color, poly) in &polygons {
            let c = plotters_colour(*color);
            chart
                .draw_series(std::iter::once(Polygon::new(
                    poly.clone(),
                    c.mix(0.13).filled(),
                )))
                .map_err(|e| err(&e))?;
        }
        for (s, data) in series.iter().zip(&data) {
            let c = plotters_colour(s.color);
            if categories.is_some() {
                // Markers only: the legend shows the series' colour as a dot.
                chart
                    .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                    .map_err(|e| err(&e))?
                    .label(s.label.clone())
                    .legend(move |(x, y)| Circle::new((x + 10, y), 4, c.filled()));
            } else {
                chart
                    .draw_series(LineSeries::new(data.clone(), c.stroke_width(2)))
                    .map_err(|e| err(&e))?
                    .label(s.label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                    });
            }
            let style = c.filled();
            match s.marker {
                Marker::Circle => chart
                    .draw_series(data.iter().map(|&p| Circle::new(p, 4, style)))
                    .map(|_| ()),
                Marker::Triangle => chart
                    .draw_series(data.iter().map(|&p| TriangleMarker::new(p, 5, style)))
                    .map(|_| ()),
                Marker::Cross => chart
                    .draw_series(data.iter().map(|&p| Cross::new(p, 4, c.stroke_width(2))))
                    .map(|_| ()),
                Marker::None => Ok(()),
                Marker::Square => {
                    chart
                        .draw_series(data.iter().map(|&p| {
                            EmptyElement::at(p) + Rectangle::new([(-3, -3), (3, 3)], style)
                        }))
                        .map(|_| ())
                }
            }
            .map_err(|e| err(&e))?;
        }
        chart
            .configure_series_labels()
            .label_font(("sans-serif", LEGEND_FONT))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| err(&e))?;
        Ok(())
    })
}
