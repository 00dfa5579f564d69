//! Stacked line charts sharing the x axis (training trajectories).

use crate::bounds::check_points;
use crate::error::{Result, plot_err};
use crate::svg::render;
use plotters::prelude::*;

/// One named line.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub label: String,
    /// The points in drawing order; points with a non-finite coordinate are left out.
    pub points: Vec<(f64, f64)>,
}

/// Stacked line charts sharing the x axis label: one panel per `(y label, series)` entry, each
/// fitted to its own data (a panel with no finite point gets the unit square).
///
/// # Errors
/// [`ReportError::BadInput`](crate::ReportError::BadInput) for a coordinate beyond ±1e15.
///
/// ```
/// use fair_report::trajectory::{stacked_lines, Series};
/// let s = Series { label: "hinge".into(), points: vec![(0.0, 0.3), (10.0, 0.2)] };
/// let svg = stacked_lines("training", "iteration", &[("train error", vec![s])])?;
/// assert!(svg.contains("train error"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn stacked_lines(title: &str, x_desc: &str, panels: &[(&str, Vec<Series>)]) -> Result<String> {
    const CHART: &str = "stacked_lines";
    let err = plot_err(CHART);
    for s in panels.iter().flat_map(|(_, series)| series) {
        check_points(CHART, &s.label, &s.points)?;
    }
    let height = 330 * panels.len().max(1) as u32 + 40;
    render(CHART, (980, height), |root| {
        let root = root
            .titled(title, ("sans-serif", 22))
            .map_err(|e| err(&e))?;
        let areas = root.split_evenly((panels.len().max(1), 1));
        let palette = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
        for ((y_desc, series), area) in panels.iter().zip(areas) {
            let finite = |s: &Series| -> Vec<(f64, f64)> {
                s.points
                    .iter()
                    .copied()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .collect()
            };
            let data: Vec<Vec<(f64, f64)>> = series.iter().map(finite).collect();
            let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
            for &(x, y) in data.iter().flatten() {
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
            for (i, (s, points)) in series.iter().zip(data).enumerate() {
                let color = palette[i % palette.len()];
                chart
                    .draw_series(LineSeries::new(points, color))
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
        Ok(())
    })
}
