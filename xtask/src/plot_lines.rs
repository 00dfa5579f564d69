//! Multi-series line plots (SVG, plotters): one line with markers per series, and a legend.

use crate::report::{Result, XtaskError};
use plotters::prelude::*;
use std::path::Path;

/// The marker drawn at each point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Triangle,
    Cross,
    Square,
    /// Line only (for long traces).
    None,
}

/// One line of a plot.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub marker: Marker,
    /// Index into the colour palette.
    pub color: usize,
}

/// Draws the series as lines with markers. With `log_y`, the y values are plotted as
/// `log10(max(y, floor))` (the axis label says so), for quantities spanning decades.
pub fn line_plot(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    log_y: bool,
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| XtaskError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    const FLOOR: f64 = 1e-8;
    let tf = |y: f64| if log_y { y.max(FLOOR).log10() } else { y };
    let pts = || series.iter().flat_map(|s| s.points.iter());
    let x_min = pts().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let x_max = pts().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let y_min = pts().map(|p| tf(p.1)).fold(f64::INFINITY, f64::min);
    let y_max = pts().map(|p| tf(p.1)).fold(f64::NEG_INFINITY, f64::max);
    if !(x_min.is_finite() && x_max.is_finite() && y_min.is_finite() && y_max.is_finite()) {
        return Err(err(&"no finite points to plot"));
    }
    let x_pad = ((x_max - x_min) * 0.03).max(0.5);
    let y_pad = ((y_max - y_min) * 0.08).max(1e-3);
    let root = SVGBackend::new(path, (960, 640)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(18)
        .x_label_area_size(45)
        .y_label_area_size(70)
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
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(&e))?;
    for s in series {
        let c = crate::plot::palette(s.color);
        let data: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (x, tf(y))).collect();
        chart
            .draw_series(LineSeries::new(data.clone(), c.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(s.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
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
            Marker::Square => chart
                .draw_series(
                    data.iter()
                        .map(|&p| EmptyElement::at(p) + Rectangle::new([(-3, -3), (3, 3)], style)),
                )
                .map(|_| ()),
        }
        .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    println!("wrote {}", path.display());
    Ok(())
}
