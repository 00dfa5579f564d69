//! Accuracy-vs-fairness trade-off curves: one polyline with markers per series, with a legend;
//! the x axis is a fairness gap (lower is fairer), the y axis accuracy.

use crate::bounds::check_points;
use crate::error::{ReportError, Result, plot_err};
use crate::palette::plotters_colour;
use crate::svg::render;
use plotters::prelude::*;

/// One trade-off curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Legend entry.
    pub label: String,
    /// (gap, accuracy) points in drawing order; points with a non-finite coordinate are left out.
    pub points: Vec<(f64, f64)>,
    /// Dashed look: drawn thinner with hollow markers (e.g. a second variant of one method).
    pub dashed: bool,
    /// Palette index.
    pub color: usize,
}

/// Draws the curves; the y axis is labelled "test accuracy".
///
/// # Errors
/// [`ReportError::BadInput`] when no point is finite or a coordinate is beyond ±1e15.
///
/// ```
/// use fair_report::tradeoff::{tradeoff, Curve};
/// let c = Curve { label: "KL".into(), points: vec![(0.1, 0.8), (0.02, 0.78)], dashed: false, color: 0 };
/// let svg = tradeoff("adult", "mean EO (test)", &[c])?;
/// assert!(svg.contains("test accuracy"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn tradeoff(title: &str, x_desc: &str, curves: &[Curve]) -> Result<String> {
    const CHART: &str = "tradeoff";
    let err = plot_err(CHART);
    let data: Vec<Vec<(f64, f64)>> = curves
        .iter()
        .map(|c| {
            c.points
                .iter()
                .copied()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .collect()
        })
        .collect();
    for (c, points) in curves.iter().zip(&data) {
        check_points(CHART, &c.label, points)?;
    }
    let all = || data.iter().flatten();
    let x_max = all().map(|p| p.0).fold(0.0_f64, f64::max) * 1.1 + 1e-3;
    let y_min = all().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let y_max = all().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    if !(y_min.is_finite() && y_max.is_finite()) {
        return Err(ReportError::BadInput {
            chart: CHART,
            reason: "no finite points to plot".into(),
        });
    }
    let pad = ((y_max - y_min) * 0.1).max(2e-3);
    render(CHART, (900, 620), |root| {
        let mut chart = ChartBuilder::on(root)
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
        for (c, points) in curves.iter().zip(&data) {
            let col = plotters_colour(c.color);
            let width = if c.dashed { 1 } else { 2 };
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    col.stroke_width(width),
                ))
                .map_err(|e| err(&e))?
                .label(c.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], col.stroke_width(width))
                });
            let filled = !c.dashed;
            chart
                .draw_series(points.iter().map(|&p| {
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
        Ok(())
    })
}
