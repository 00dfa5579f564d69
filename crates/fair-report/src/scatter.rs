//! A scatter plot with a text label beside each point.

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

/// A scatter plot of non-negative `points` with a label beside each (both axes start at 0);
/// points with a non-finite coordinate are left out.
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
    let x_max = points.iter().map(|p| p.x).fold(0.0_f64, f64::max) * 1.25 + 1e-3;
    let y_max = points.iter().map(|p| p.y).fold(0.0_f64, f64::max) * 1.15 + 1e-3;
    render(CHART, (900, 640), |root| {
        let mut chart = ChartBuilder::on(root)
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
                points.iter().map(|p| {
                    Text::new(p.label.clone(), (p.x, p.y), ("sans-serif", 13).into_font())
                }),
            )
            .map_err(|e| err(&e))?;
        Ok(())
    })
}
