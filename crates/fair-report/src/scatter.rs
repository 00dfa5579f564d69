//! A scatter plot with a text label beside each point.

use crate::bounds::check_plottable;
use crate::error::{Result, plot_err};
use crate::svg::render;
use plotters::prelude::*;

/// One labelled point of a scatter plot.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledPoint {
    /// Horizontal position.
    pub x: f64,
    /// Vertical position.
    pub y: f64,
    /// Text drawn beside the point.
    pub label: String,
}

/// A scatter plot of `points` with a label beside each (both axes start at 0, or below it for
/// negative coordinates); points with a non-finite coordinate are left out.
///
/// # Errors
/// [`ReportError::BadInput`](crate::ReportError::BadInput) for a coordinate beyond ±1e15.
///
/// ```
/// use fair_report::{labelled_scatter, LabelledPoint};
/// let p = LabelledPoint { x: 0.1, y: 0.2, label: "adult / sex".into() };
/// let svg = labelled_scatter("gaps", "DP difference", "EO difference", &[p])?;
/// assert!(svg.contains("adult / sex"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn labelled_scatter(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    points: &[LabelledPoint],
) -> Result<String> {
    const CHART: &str = "labelled_scatter";
    let err = plot_err(CHART);
    let points: Vec<&LabelledPoint> = points
        .iter()
        .filter(|p| p.x.is_finite() && p.y.is_finite())
        .collect();
    for p in &points {
        for (axis, v) in [("x", p.x), ("y", p.y)] {
            check_plottable(CHART, || format!("{axis} of point {:?}", p.label), v)?;
        }
    }
    let (x_min, x_max) = axis_span(points.iter().map(|p| p.x), 0.25);
    let (y_min, y_max) = axis_span(points.iter().map(|p| p.y), 0.15);
    render(CHART, (900, 640), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 22))
            .margin(20)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(x_min..x_max, y_min..y_max)
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
                points.iter().map(|p| {
                    Text::new(p.label.clone(), (p.x, p.y), ("sans-serif", 13).into_font())
                }),
            )
            .map_err(|e| err(&e))?;
        Ok(())
    })
}

/// An axis from 0 (or a little below the smallest value, when negative) to past the largest
/// value by `room` of the span (space for the labels). Every bound stays finite: the values
/// were checked to lie within ±1e15.
fn axis_span(values: impl Iterator<Item = f64>, room: f64) -> (f64, f64) {
    let (lo, hi) = values.fold((0.0_f64, 0.0_f64), |(a, b), v| (a.min(v), b.max(v)));
    let below = if lo < 0.0 { (hi - lo) * 0.05 } else { 0.0 };
    (lo - below, hi + (hi - lo) * room + 1e-3)
}
