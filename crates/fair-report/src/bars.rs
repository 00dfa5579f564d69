//! Back-to-back grouped bar charts: for each category, one bar per series upwards (the first
//! quantity) and the same series mirrored downwards (the second quantity), as in He et al.'s
//! Figure 9 (pSP fairness above the axis, accuracy below it).

use crate::error::{Result, plot_err};
use crate::palette::plotters_colour;
use crate::svg::render;
use plotters::prelude::*;

/// One series: a value pair `(up, down)` per category, both in `[0, 1]`.
#[derive(Debug, Clone, PartialEq)]
pub struct BarSeries {
    /// Legend entry.
    pub name: String,
    /// `(up, down)` per category, in the categories' order; a non-finite value draws no bar.
    pub values: Vec<(f64, f64)>,
}

/// Draws `series` over `categories`. `up` and `down` name the two quantities; the downward bars
/// are drawn from 0 to `−down` so both share one axis scale.
///
/// ```
/// use fair_report::{back_to_back, BarSeries};
/// let s = BarSeries { name: "IDCA".into(), values: vec![(0.9, 0.8)] };
/// let svg = back_to_back("t", &["[5, 10]".into()], &[s], ("fairness", "accuracy"))?;
/// assert!(svg.contains("IDCA"));
/// # Ok::<(), fair_report::ReportError>(())
/// ```
pub fn back_to_back(
    title: &str,
    categories: &[String],
    series: &[BarSeries],
    (up, down): (&str, &str),
) -> Result<String> {
    const CHART: &str = "back_to_back";
    // The axis is fixed at [-1.05, 1.45]: a finite value far outside [0, 1] (f64::MAX, found by
    // the fair-report property test of issue 18) overflowed inside plotters — a panic.
    for s in series {
        for (i, &(a, b)) in s.values.iter().enumerate() {
            if let Some(v) = [a, b]
                .into_iter()
                .find(|v| v.is_finite() && !(0.0..=1.0).contains(v))
            {
                return Err(crate::error::ReportError::BadInput {
                    chart: CHART,
                    reason: format!(
                        "series {:?}, category {i}: value {v} is outside [0, 1] (bars show rates)",
                        s.name
                    ),
                });
            }
        }
    }
    let err = plot_err(CHART);
    render(CHART, (900, 620), |root| {
        let n_cat = categories.len().max(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 20))
            .margin(18)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..n_cat, -1.05..1.45)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            // Category names are drawn below the bars instead (plotters' own x labels would sit
            // at round numbers, not at the slot centres).
            .x_label_formatter(&|_: &f64| String::new())
            .y_desc(format!("↑ {up}   ·   ↓ {down}"))
            // Above 1 is the legend's room, not a value.
            .y_label_formatter(&|y: &f64| {
                if *y > 1.001 {
                    String::new()
                } else {
                    format!("{:.1}", y.abs())
                }
            })
            .draw()
            .map_err(|e| err(&e))?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, 0.0), (n_cat, 0.0)],
                BLACK.stroke_width(1),
            )))
            .map_err(|e| err(&e))?;
        chart
            .draw_series(
                categories.iter().enumerate().map(|(i, c)| {
                    Text::new(c.clone(), (i as f64 + 0.3, -0.97), ("sans-serif", 14))
                }),
            )
            .map_err(|e| err(&e))?;
        let width = 0.8 / series.len().max(1) as f64;
        for (s_ix, s) in series.iter().enumerate() {
            let colour = plotters_colour(s_ix);
            let bars = s.values.iter().enumerate().flat_map(move |(c, &(u, d))| {
                let x0 = c as f64 + 0.1 + s_ix as f64 * width;
                let x1 = x0 + width * 0.9;
                let up = u
                    .is_finite()
                    .then(|| Rectangle::new([(x0, 0.0), (x1, u)], colour.filled()));
                let down = d
                    .is_finite()
                    .then(|| Rectangle::new([(x0, -d), (x1, 0.0)], colour.mix(0.55).filled()));
                up.into_iter().chain(down)
            });
            chart
                .draw_series(bars)
                .map_err(|e| err(&e))?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        Ok(())
    })
}
