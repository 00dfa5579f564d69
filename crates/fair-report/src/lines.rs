//! Multi-series line plots with markers, axis ranges fitted to the data, optional log-10 y.

use crate::bounds::check_points;
use crate::error::{ReportError, Result, plot_err};
use crate::palette::plotters_colour;
use crate::svg::render;
use plotters::prelude::*;

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
    let pts = || data.iter().flatten();
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
    render(CHART, (960, 640), |root| {
        let mut chart = ChartBuilder::on(root)
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
            .light_line_style(WHITE)
            .draw()
            .map_err(|e| err(&e))?;
        for (s, data) in series.iter().zip(&data) {
            let c = plotters_colour(s.color);
            chart
                .draw_series(LineSeries::new(data.clone(), c.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(s.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
                });
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
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| err(&e))?;
        Ok(())
    })
}
