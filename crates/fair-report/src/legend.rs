//! The side legend and label helpers of the audit charts (drawn by hand rather than by plotters'
//! series labels so that 50 groups fit: the rows shrink with their number).

use crate::error::{Result, plot_err};
use crate::svg::Root;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How an entry's swatch looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Glyph {
    /// A filled box (bars).
    Box,
    /// A solid line (curves).
    Line,
    /// A dashed line (reference lines).
    Dashed,
    /// A vertical whisker with caps (intervals).
    Whisker,
    /// No swatch: a note.
    None,
}

/// One legend row.
pub(crate) struct Entry {
    pub label: String,
    pub colour: RGBColor,
    pub glyph: Glyph,
}

/// Most characters of a label drawn in a chart (longer ones end in "…"); tables keep the full
/// name.
pub(crate) const MAX_LABEL_CHARS: usize = 28;

/// `label` cut to `max` characters with a trailing "…" when longer.
pub(crate) fn shorten(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        label.to_string()
    } else {
        let mut s: String = label.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// Draws `entries` top-down in `area` (a strip right of the plot), rows shrinking to fit.
pub(crate) fn draw_legend(chart: &'static str, area: &Root, entries: &[Entry]) -> Result<()> {
    let err = plot_err(chart);
    let (w, h) = area.dim_in_pixel();
    let top = 50_i32;
    let avail = (h as i32 - top - 30).max(40);
    let row = (avail / entries.len().max(1) as i32).clamp(9, 22);
    let font_px = (row - 3).clamp(8, 14);
    // Roughly 0.5 em per character: keep a label inside the strip.
    let max_chars = (((w as i32 - 40) as f64) / (0.5 * font_px as f64)).max(8.0) as usize;
    let style = TextStyle::from(("sans-serif", font_px).into_font())
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (k, e) in entries.iter().enumerate() {
        let y = top + k as i32 * row + row / 2;
        let (x0, x1) = (6, 28);
        match e.glyph {
            Glyph::Box => area.draw(&Rectangle::new(
                [(x0 + 4, y - 5), (x1 - 4, y + 5)],
                e.colour.filled(),
            )),
            Glyph::Line => area.draw(&PathElement::new(
                vec![(x0, y), (x1, y)],
                e.colour.stroke_width(2),
            )),
            Glyph::Dashed => {
                for s in [x0, x0 + 9, x0 + 18] {
                    area.draw(&PathElement::new(
                        vec![(s, y), (s + 5, y)],
                        e.colour.stroke_width(2),
                    ))
                    .map_err(|x| err(&x))?;
                }
                Ok(())
            }
            Glyph::Whisker => area
                .draw(&PathElement::new(
                    vec![(17, y - 6), (17, y + 6)],
                    e.colour.stroke_width(2),
                ))
                .and_then(|_| {
                    area.draw(&PathElement::new(vec![(13, y - 6), (21, y - 6)], e.colour))
                })
                .and_then(|_| {
                    area.draw(&PathElement::new(vec![(13, y + 6), (21, y + 6)], e.colour))
                }),
            Glyph::None => Ok(()),
        }
        .map_err(|x| err(&x))?;
        area.draw(&Text::new(
            shorten(&e.label, max_chars),
            (34, y),
            style.clone(),
        ))
        .map_err(|x| err(&x))?;
    }
    Ok(())
}
