//! Accuracy-vs-fairness trade-off curves (SVG): one polyline with markers per series, with a
//! legend; the x axis is a fairness gap (lower is fairer), the y axis accuracy.

use crate::report::{Result, XtaskError};
use plotters::prelude::*;
use std::path::Path;

/// One trade-off curve.
pub struct Curve {
    pub label: String,
    /// (gap, accuracy) points in α order.
    pub points: Vec<(f64, f64)>,
    /// Dashed look: drawn thinner with hollow markers (e.g. the second divergence).
    pub dashed: bool,
    /// Palette index.
    pub color: usize,
}

/// Draws the curves into `path`.
pub fn tradeoff(path: &Path, title: &str, x_desc: &str, curves: &[Curve]) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| XtaskError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let all = || curves.iter().flat_map(|c| c.points.iter());
    let x_max = all().map(|p| p.0).fold(0.0_f64, f64::max) * 1.1 + 1e-3;
    let y_min = all().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let y_max = all().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let pad = ((y_max - y_min) * 0.1).max(2e-3);
    let root = SVGBackend::new(path, (900, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(0.0..x_max, (y_min - pad)..(y_max + pad))
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("test accuracy")
        .draw()
        .map_err(|e| err(&e))?;
    for c in curves {
        let col = crate::plot::palette(c.color);
        let width = if c.dashed { 1 } else { 2 };
        chart
            .draw_series(LineSeries::new(
                c.points.iter().copied(),
                col.stroke_width(width),
            ))
            .map_err(|e| err(&e))?
            .label(c.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], col.stroke_width(width))
            });
        let filled = !c.dashed;
        chart
            .draw_series(c.points.iter().map(|&p| {
                if filled {
                    Circle::new(p, 4, col.filled())
                } else {
                    Circle::new(p, 5, col.stroke_width(1))
                }
            }))
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    println!("wrote {}", path.display());
    Ok(())
}
