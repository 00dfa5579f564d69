//! Multi-panel SVG figures for the fair-SVM reproduction: trade-off curves, ROC panels, score
//! densities and data scatter plots, all drawn by one grid-of-panels helper.

use crate::report::{Result, XtaskError};
use plotters::prelude::*;
use std::path::Path;

/// A polyline in a panel.
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub color: RGBColor,
    pub dashed: bool,
    /// Draw a marker at every point.
    pub markers: bool,
}

/// A set of scatter points in a panel (circles, or crosses when `cross`).
pub struct Dots {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub color: RGBColor,
    pub cross: bool,
}

/// One panel of a grid.
pub struct Panel {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub lines: Vec<Line>,
    pub dots: Vec<Dots>,
}

pub const BLUE_: RGBColor = RGBColor(31, 119, 180);
pub const RED_: RGBColor = RGBColor(214, 39, 40);
pub const GREEN_: RGBColor = RGBColor(44, 160, 44);
pub const ORANGE_: RGBColor = RGBColor(255, 127, 14);
pub const GREY_: RGBColor = RGBColor(127, 127, 127);
pub const BLACK_: RGBColor = RGBColor(0, 0, 0);

/// Shades of blue for several SSVM curves.
pub fn blue_shade(i: usize, n: usize) -> RGBColor {
    let t = if n <= 1 {
        0.0
    } else {
        i as f64 / (n - 1) as f64
    };
    RGBColor(
        (120.0 * (1.0 - t)) as u8,
        (170.0 - 120.0 * t) as u8,
        (255.0 - 80.0 * t) as u8,
    )
}

/// The (min, max) of values padded by 5 %, or (0, 1) when empty.
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

/// Draws `panels` in a `rows × cols` grid into one SVG.
pub fn panel_grid(
    path: &Path,
    title: &str,
    rows: usize,
    cols: usize,
    panels: &[Panel],
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| XtaskError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let size = ((cols as u32) * 430, (rows as u32) * 360 + 40);
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
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
            let style = ShapeStyle::from(&line.color).stroke_width(2);
            let anno = if line.dashed {
                chart
                    .draw_series(DashedLineSeries::new(
                        line.points.iter().copied(),
                        6,
                        4,
                        style,
                    ))
                    .map_err(|e| err(&e))?
            } else {
                chart
                    .draw_series(LineSeries::new(line.points.iter().copied(), style))
                    .map_err(|e| err(&e))?
            };
            if !line.label.is_empty() {
                let c = line.color;
                anno.label(line.label.as_str()).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2))
                });
            }
            if line.markers {
                chart
                    .draw_series(
                        line.points
                            .iter()
                            .map(|&p| Circle::new(p, 3, line.color.filled())),
                    )
                    .map_err(|e| err(&e))?;
            }
        }
        for dots in &panel.dots {
            let c = dots.color;
            let anno = if dots.cross {
                chart
                    .draw_series(
                        dots.points
                            .iter()
                            .map(|&p| Cross::new(p, 3, c.stroke_width(1))),
                    )
                    .map_err(|e| err(&e))?
            } else {
                chart
                    .draw_series(
                        dots.points
                            .iter()
                            .map(|&p| Circle::new(p, 3, c.stroke_width(1))),
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
                .border_style(GREY_)
                .label_font(("sans-serif", 11))
                .position(SeriesLabelPosition::LowerRight)
                .draw()
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))?;
    println!("wrote {}", path.display());
    Ok(())
}

/// A Gaussian kernel density estimate on `grid` (Silverman's bandwidth).
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
