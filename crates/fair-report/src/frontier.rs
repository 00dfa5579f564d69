//! Line and point charts with several named series and given axis ranges (Pareto frontiers,
//! rank curves, densities, convergence traces).

use crate::bounds::{check_axis, near, near_point};
use crate::error::{Result, plot_err};
use crate::palette::plotters_colour;
use crate::svg::render;
use plotters::prelude::*;

/// One named series of `(x, y)` points, drawn as a line with markers (or markers only).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// The points, in drawing order; points with a non-finite coordinate are left out.
    pub points: Vec<(f64, f64)>,
    /// Draw the connecting line.
    pub line: bool,
}

/// Axis ranges and labels of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Axes<'a> {
    /// Caption above the chart.
    pub title: &'a str,
    /// x axis label.
    pub x_desc: &'a str,
    /// y axis label.
    pub y_desc: &'a str,
    /// x range (from, to).
    pub x: (f64, f64),
    /// y range (from, to).
    pub y: (f64, f64),
    /// Logarithmic y axis (for violations / objectives); y values are floored at
    /// `max(y.0, 1e-12)`.
    pub log_y: bool,
}

fn finite(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    points
        .iter()
        .copied()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect()
}

/// Draws the series; an optional band `(a, b)` is shaded first both as a vertical strip
/// `a ≤ x ≤ b` and a horizontal strip `a ≤ y ≤ b` (e.g. a percentile interval on a rank plot).
/// Points far outside the axes are drawn at the edge of a band a million axis spans wide (off
/// the plot either way).
///
/// # Errors
/// [`ReportError::NotFinite`](crate::ReportError::NotFinite) for a NaN or infinite axis end,
/// [`ReportError::BadInput`](crate::ReportError::BadInput) for one beyond ±1e15.
///
/// ```
/// use fair_report::frontier::{multi_series, Axes, Series};
/// let axes = Axes { title: "t", x_desc: "fairness", y_desc: "accuracy",
///                   x: (0.0, 1.0), y: (0.0, 1.0), log_y: false };
/// let s = Series { name: "IDCA".into(), points: vec![(0.2, 0.8), (0.5, 0.7)], line: true };
/// let svg = multi_series(&axes, &[s], None)?;
/// assert!(svg.contains("accuracy"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn multi_series(axes: &Axes, series: &[Series], band: Option<(f64, f64)>) -> Result<String> {
    const CHART: &str = "multi_series";
    let err = plot_err(CHART);
    check_axis(CHART, "x", axes.x)?;
    check_axis(CHART, "y", axes.y)?;
    // Points and band ends far outside the axes are pulled in (see `bounds`).
    let on_axes = |points: &[(f64, f64)]| -> Vec<(f64, f64)> {
        finite(points)
            .into_iter()
            .map(|p| near_point(axes.x, axes.y, p))
            .collect()
    };
    let band = band
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(|(a, b)| {
            (
                near(axes.x, a),
                near(axes.x, b),
                near(axes.y, a),
                near(axes.y, b),
            )
        });
    render(CHART, (820, 600), |root| {
        let mut builder = ChartBuilder::on(root);
        builder
            .caption(axes.title, ("sans-serif", 20))
            .margin(18)
            .x_label_area_size(45)
            .y_label_area_size(70);
        if axes.log_y {
            // Both ends floored: plotters counts the decades between them, and a subnormal or
            // zero end made that count overflow and its tick loop run (nearly) forever.
            let lo = axes.y.0.max(1e-12);
            let hi = axes.y.1.max(1e-12);
            let mut chart = builder
                .build_cartesian_2d(axes.x.0..axes.x.1, (lo..hi).log_scale())
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_desc(axes.x_desc)
                .y_desc(axes.y_desc)
                .draw()
                .map_err(|e| err(&e))?;
            for (i, s) in series.iter().enumerate() {
                let c = plotters_colour(i);
                let pts: Vec<(f64, f64)> = on_axes(&s.points)
                    .into_iter()
                    .map(|(x, y)| (x, y.max(lo)))
                    .collect();
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
            if let Some((xa, xb, ya, yb)) = band {
                let shade = RGBColor(255, 200, 200).mix(0.4).filled();
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(xa, axes.y.0), (xb, axes.y.1)],
                        shade,
                    )))
                    .map_err(|e| err(&e))?;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(axes.x.0, ya), (axes.x.1, yb)],
                        shade,
                    )))
                    .map_err(|e| err(&e))?;
            }
            for (i, s) in series.iter().enumerate() {
                let c = plotters_colour(i);
                let pts = on_axes(&s.points);
                if s.line {
                    chart
                        .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                        .map_err(|e| err(&e))?;
                }
                chart
                    .draw_series(pts.iter().map(|&(x, y)| Circle::new((x, y), 4, c.filled())))
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
        Ok(())
    })
}
