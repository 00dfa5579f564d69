//! Back-to-back grouped bar charts (SVG, plotters): for each category, one bar per series
//! upwards (the first quantity) and the same series mirrored downwards (the second quantity),
//! as in the paper's Figure 9 (pSP fairness above the axis, accuracy below it).

use crate::report::{Result, XtaskError};
use plotters::prelude::*;
use std::path::Path;

/// One series: a value pair `(up, down)` per category, both in `[0, 1]`.
pub struct BarSeries {
    pub name: String,
    pub values: Vec<(f64, f64)>,
}

/// Draws `series` over `categories` at `path`. `up` and `down` name the two quantities; the
/// downward bars are drawn from 0 to `−down` so both share one axis scale.
pub fn back_to_back(
    path: &Path,
    title: &str,
    categories: &[String],
    series: &[BarSeries],
    (up, down): (&str, &str),
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| XtaskError::Plot {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let root = SVGBackend::new(path, (900, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let n_cat = categories.len().max(1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(18)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..n_cat, -1.05..1.45)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        // Category names are drawn below the bars instead (plotters' own x labels would sit at
        // round numbers, not at the slot centres).
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
            categories
                .iter()
                .enumerate()
                .map(|(i, c)| Text::new(c.clone(), (i as f64 + 0.3, -0.97), ("sans-serif", 14))),
        )
        .map_err(|e| err(&e))?;
    let width = 0.8 / series.len().max(1) as f64;
    for (s_ix, s) in series.iter().enumerate() {
        let colour = crate::plot::palette(s_ix);
        let bars = s.values.iter().enumerate().flat_map(move |(c, &(u, d))| {
            let x0 = c as f64 + 0.1 + s_ix as f64 * width;
            let x1 = x0 + width * 0.9;
            [
                Rectangle::new([(x0, 0.0), (x1, u)], colour.filled()),
                Rectangle::new([(x0, -d), (x1, 0.0)], colour.mix(0.55).filled()),
            ]
        });
        chart
            .draw_series(bars)
            .map_err(|e| err(&e))?
            .label(s.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_an_svg_with_one_rectangle_pair_per_value() {
        let dir = std::env::temp_dir().join(format!("fairkit-bars-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bars.svg");
        let series = vec![
            BarSeries {
                name: "a".into(),
                values: vec![(0.9, 0.8), (0.7, 0.85)],
            },
            BarSeries {
                name: "b".into(),
                values: vec![(0.5, 0.83), (0.6, 0.84)],
            },
        ];
        back_to_back(
            &path,
            "t",
            &["[5, 10]".into(), "[5, 30]".into()],
            &series,
            ("fairness", "accuracy"),
        )
        .unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("[5, 30]"));
        // 2 series × 2 categories × 2 bars, plus the legend swatches and the legend box.
        assert!(svg.matches("<rect").count() >= 8);
        std::fs::remove_dir_all(&dir).ok();
    }
}
