//! SVG plots (plotters, SVG backend only: no system fonts or C libraries needed).

use crate::report::{Result, XtaskError};
use plotters::prelude::*;
use std::path::Path;

/// The series colours of every chart (matplotlib's tab10 order), by index, cycling.
pub fn palette(i: usize) -> RGBColor {
    const TAB10: [RGBColor; 10] = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ];
    TAB10[i % TAB10.len()]
}

/// One labelled point of a scatter plot.
pub struct LabelledPoint {
    pub x: f64,
    pub y: f64,
    pub label: String,
}

/// A scatter plot with a text label beside each point.
pub fn labelled_scatter(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    points: &[LabelledPoint],
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| XtaskError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let x_max = points.iter().map(|p| p.x).fold(0.0_f64, f64::max) * 1.25 + 1e-3;
    let y_max = points.iter().map(|p| p.y).fold(0.0_f64, f64::max) * 1.15 + 1e-3;
    let root = SVGBackend::new(path, (900, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(
            points
                .iter()
                .map(|p| Circle::new((p.x, p.y), 5, BLUE.filled())),
        )
        .map_err(|e| err(&e))?;
    chart
        .draw_series(
            points
                .iter()
                .map(|p| Text::new(p.label.clone(), (p.x, p.y), ("sans-serif", 13).into_font())),
        )
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    println!("wrote {}", path.display());
    Ok(())
}
