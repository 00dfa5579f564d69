//! The one way every chart gets its SVG: drawn by plotters into a `String`.

use crate::error::{Result, plot_err};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The drawing area every chart draws on.
pub(crate) type Root<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Draws a `size` SVG with `draw` (which receives the root area, already filled white) and
/// returns the document.
pub(crate) fn render(
    chart: &'static str,
    size: (u32, u32),
    draw: impl FnOnce(&Root) -> Result<()>,
) -> Result<String> {
    let err = plot_err(chart);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        draw(&root)?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}
