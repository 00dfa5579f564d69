//! Line and point charts with several named series (Pareto frontiers, rank curves, convergence).

use crate::report::{Result, XtaskError};
use plotters::prelude::*;
use std::path::Path;

/// One named series of `(x, y)` points, drawn as a line with markers (or markers only).
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Draw the connecting line.
    pub line: bool,
}

/// Axis ranges and labels of a chart.
pub struct Axes<'a> {
    pub title: &'a str,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub x: (f64, f64),
    pub y: (f64, f64),
    /// Logarithmic y axis (for violations / objectives).
    pub log_y: bool,
}

/// Draws the series into an SVG at `path`; optional shaded vertical and horizontal bands (e.g. the
/// percentile interval I) are drawn first.
pub fn multi_series(
    path: &Path,
    axes: &Axes,
    series: &[Series],
    band: Option<(f64, f64)>,
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| XtaskError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let root = SVGBackend::new(path, (820, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(axes.title, ("sans-serif", 20))
        .margin(18)
        .x_label_area_size(45)
        .y_label_area_size(70);
    if axes.log_y {
        let lo = axes.y.0.max(1e-12);
        let mut chart = builder
            .build_cartesian_2d(axes.x.0..axes.x.1, (lo..axes.y.1).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(axes.x_desc)
            .y_desc(axes.y_desc)
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in series.iter().enumerate() {
            let c = crate::plot::palette(i);
            let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (x, y.max(lo))).collect();
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(s.name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    } else {
        let mut chart = builder
            .build_cartesian_2d(axes.x.0..axes.x.1, axes.y.0..axes.y.1)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(axes.x_desc)
            .y_desc(axes.y_desc)
            .draw()
            .map_err(|e| err(&e))?;
        if let Some((a, b)) = band {
            let shade = RGBColor(255, 200, 200).mix(0.4).filled();
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(a, axes.y.0), (b, axes.y.1)],
                    shade,
                )))
                .map_err(|e| err(&e))?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(axes.x.0, a), (axes.x.1, b)],
                    shade,
                )))
                .map_err(|e| err(&e))?;
        }
        for (i, s) in series.iter().enumerate() {
            let c = crate::plot::palette(i);
            if s.line {
                chart
                    .draw_series(LineSeries::new(s.points.clone(), c.stroke_width(2)))
                    .map_err(|e| err(&e))?;
            }
            chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|&(x, y)| Circle::new((x, y), 4, c.filled())),
                )
                .map_err(|e| err(&e))?
                .label(s.name.clone())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    println!("wrote {}", path.display());
    Ok(())
}
