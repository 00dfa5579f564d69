//! Stacked line charts (training trajectories of the proxy-Lagrangian experiment), SVG only.

use crate::report::{Result, XtaskError};
use plotters::prelude::*;
use std::path::Path;

/// One named line.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// Stacked line charts sharing the x axis: one panel per `(y label, series)` group.
pub fn stacked_lines(
    path: &Path,
    title: &str,
    x_desc: &str,
    panels: &[(&str, Vec<Series>)],
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| XtaskError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let height = 330 * panels.len().max(1) as u32 + 40;
    let root = SVGBackend::new(path, (980, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root
        .titled(title, ("sans-serif", 22))
        .map_err(|e| err(&e))?;
    let areas = root.split_evenly((panels.len().max(1), 1));
    let palette = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    for ((y_desc, series), area) in panels.iter().zip(areas) {
        let all = series.iter().flat_map(|s| s.points.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in all {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if x0 > x1 {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        let pad = ((y1 - y0) * 0.08).max(1e-3);
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1.max(x0 + 1.0), (y0 - pad)..(y1 + pad))
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(*y_desc)
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in series.iter().enumerate() {
            let color = palette[i % palette.len()];
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), color))
                .map_err(|e| err(&e))?
                .label(s.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color));
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    println!("wrote {}", path.display());
    Ok(())
}
