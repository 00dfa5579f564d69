//! Grids of panels in one SVG (the fair-SVM figures: trade-off curves, ROC panels, score
//! densities, data scatter plots), plus the two helpers those figures need.

use crate::bounds::{check_axis, near_point};
use crate::error::{Result, plot_err};
use crate::palette::{GREY, Rgb};
use crate::svg::render;
use plotters::prelude::*;

/// A polyline in a panel.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Legend entry; empty for no entry (e.g. a reference diagonal).
    pub label: String,
    /// The points in drawing order; points with a non-finite coordinate are left out.
    pub points: Vec<(f64, f64)>,
    /// Line colour.
    pub color: Rgb,
    /// Dashed instead of solid.
    pub dashed: bool,
    /// Draw a marker at every point.
    pub markers: bool,
}

/// A set of scatter points in a panel (circles, or crosses when `cross`).
#[derive(Debug, Clone, PartialEq)]
pub struct Dots {
    /// Legend entry; empty for no entry.
    pub label: String,
    /// The points; points with a non-finite coordinate are left out.
    pub points: Vec<(f64, f64)>,
    /// Marker colour.
    pub color: Rgb,
    /// Crosses instead of circles.
    pub cross: bool,
}

/// One panel of a grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// Caption above the panel.
    pub title: String,
    /// x axis label.
    pub x_desc: String,
    /// y axis label.
    pub y_desc: String,
    /// x range (from, to).
    pub x_range: (f64, f64),
    /// y range (from, to).
    pub y_range: (f64, f64),
    /// Polylines, drawn first.
    pub lines: Vec<Line>,
    /// Scatter sets, drawn over the lines.
    pub dots: Vec<Dots>,
}

/// The (min, max) of the finite `values` padded by 5 % (at least 1e-3), or (0, 1) when none is
/// finite.
///
/// ```
/// assert_eq!(fair_report::panels::padded_range([f64::NAN].into_iter()), (0.0, 1.0));
/// ```
pub fn padded_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(1e-3);
    (lo - pad, hi + pad)
}

/// A Gaussian kernel density estimate of `values` on `grid` (Silverman's bandwidth
/// `1.06 σ n^(−1/5)`, σ floored at 1e-9).
pub fn density(values: &[f64], grid: &[f64]) -> Vec<(f64, f64)> {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n)
        .sqrt()
        .max(1e-9);
    let h = 1.06 * sd * n.powf(-0.2);
    let norm = 1.0 / (n * h * (2.0 * std::f64::consts::PI).sqrt());
    grid.iter()
        .map(|&g| {
            (
                g,
                norm * values
                    .iter()
                    .map(|v| (-0.5 * ((g - v) / h).powi(2)).exp())
                    .sum::<f64>(),
            )
        })
        .collect()
}

/// The finite points, those far outside the panel's axes pulled in (see `bounds`).
fn finite(points: &[(f64, f64)], panel: &Panel) -> std::vec::IntoIter<(f64, f64)> {
    points
        .iter()
        .copied()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .map(|p| near_point(panel.x_range, panel.y_range, p))
        .collect::<Vec<_>>()
        .into_iter()
}

/// Draws `panels` in a `rows × cols` grid (row by row; panels beyond `rows × cols` are left
/// out) under one `title`. Points far outside a panel's ranges are drawn at the edge of a band
/// a million axis spans wide (off the panel either way).
///
/// # Errors
/// [`ReportError::NotFinite`](crate::ReportError::NotFinite) for a NaN or infinite range end,
/// [`ReportError::BadInput`](crate::ReportError::BadInput) for one beyond ±1e15.
///
/// ```
/// use fair_report::panels::{panel_grid, Line, Panel};
/// use fair_report::palette::BLUE;
/// let p = Panel { title: "ROC".into(), x_desc: "FPR".into(), y_desc: "TPR".into(),
///     x_range: (0.0, 1.0), y_range: (0.0, 1.0), dots: vec![],
///     lines: vec![Line { label: "y".into(), points: vec![(0.0, 0.0), (1.0, 1.0)],
///                        color: BLUE, dashed: false, markers: false }] };
/// let svg = panel_grid("figure", 1, 1, &[p])?;
/// assert!(svg.contains("FPR"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn panel_grid(title: &str, rows: usize, cols: usize, panels: &[Panel]) -> Result<String> {
    const CHART: &str = "panel_grid";
    let err = plot_err(CHART);
    for (i, p) in panels.iter().enumerate() {
        check_axis(CHART, &format!("panel {i} x"), p.x_range)?;
        check_axis(CHART, &format!("panel {i} y"), p.y_range)?;
    }
    let size = ((cols as u32) * 430, (rows as u32) * 360 + 40);
    render(CHART, size, |root| {
        let root = root
            .titled(title, ("sans-serif", 20))
            .map_err(|e| err(&e))?;
        let areas = root.split_evenly((rows, cols));
        for (panel, area) in panels.iter().zip(areas.iter()) {
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.title, ("sans-serif", 15))
                .margin(10)
                .x_label_area_size(35)
                .y_label_area_size(50)
                .build_cartesian_2d(
                    panel.x_range.0..panel.x_range.1,
                    panel.y_range.0..panel.y_range.1,
                )
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_desc(panel.x_desc.as_str())
                .y_desc(panel.y_desc.as_str())
                .light_line_style(WHITE)
                .draw()
                .map_err(|e| err(&e))?;
            for line in &panel.lines {
                let c = line.color.to_plotters();
                let style = ShapeStyle::from(&c).stroke_width(2);
                let anno = if line.dashed {
                    chart
                        .draw_series(DashedLineSeries::new(
                            finite(&line.points, panel),
                            6,
                            4,
                            style,
                        ))
                        .map_err(|e| err(&e))?
                } else {
                    chart
                        .draw_series(LineSeries::new(finite(&line.points, panel), style))
                        .map_err(|e| err(&e))?
                };
                if !line.label.is_empty() {
                    anno.label(line.label.as_str()).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2))
                    });
                }
                if line.markers {
                    chart
                        .draw_series(
                            finite(&line.points, panel).map(|p| Circle::new(p, 3, c.filled())),
                        )
                        .map_err(|e| err(&e))?;
                }
            }
            for dots in &panel.dots {
                let c = dots.color.to_plotters();
                let anno = if dots.cross {
                    chart
                        .draw_series(
                            finite(&dots.points, panel)
                                .map(|p| Cross::new(p, 3, c.stroke_width(1))),
                        )
                        .map_err(|e| err(&e))?
                } else {
                    chart
                        .draw_series(
                            finite(&dots.points, panel)
                                .map(|p| Circle::new(p, 3, c.stroke_width(1))),
                        )
                        .map_err(|e| err(&e))?
                };
                if !dots.label.is_empty() {
                    anno.label(dots.label.as_str())
                        .legend(move |(x, y)| Circle::new((x + 8, y), 3, c.filled()));
                }
            }
            let has_labels = panel.lines.iter().any(|l| !l.label.is_empty())
                || panel.dots.iter().any(|d| !d.label.is_empty());
            if has_labels {
                chart
                    .configure_series_labels()
                    .background_style(WHITE.mix(0.8))
                    .border_style(GREY.to_plotters())
                    .label_font(("sans-serif", 11))
                    .position(SeriesLabelPosition::LowerRight)
                    .draw()
                    .map_err(|e| err(&e))?;
            }
        }
        Ok(())
    })
}
