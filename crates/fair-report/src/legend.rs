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

/// The advance of a character, in units of the font size a chart asks for, that labels are
/// fitted with. plotters writes an SVG `font-size` of 0.806 of the size asked for, so this is
/// 0.62 em of the size the browser draws: room for digits (0.636 em in DejaVu Sans) and
/// mixed-case names (checked by the render tests, which measure every text node of every
/// chart against its canvas).
pub const TEXT_EM: f64 = 0.5;

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

/// `label` fitted to `max` characters, keeping a trailing parenthesised part whole — the numbers
/// of "group (AUC 0.812)" — and shortening the name before it instead.
/// ("Female & Amer-Indian-Eskimo (AUC 0.912)" in 24 characters: "Female & Am… (AUC 0.912)").
pub(crate) fn fit_label(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        return label.to_string();
    }
    if let Some(at) = label.rfind(" (").filter(|_| label.ends_with(')')) {
        let (name, tail) = label.split_at(at);
        let tail_len = tail.chars().count();
        if tail_len + 4 <= max {
            return format!("{}{tail}", shorten(name, max - tail_len));
        }
    }
    shorten(label, max)
}

/// Draws `entries` top-down in `area` (a strip right of the plot), rows shrinking to fit.
pub(crate) fn draw_legend(chart: &'static str, area: &Root, entries: &[Entry]) -> Result<()> {
    let err = plot_err(chart);
    let (w, h) = area.dim_in_pixel();
    let top = 50_i32;
    let avail = (h as i32 - top - 30).max(40);
    let row = (avail / entries.len().max(1) as i32).clamp(9, 22);
    let font_px = (row - 3).clamp(8, 14);
    // At most TEXT_EM per character (a sans-serif's widest common case): a label stays inside
    // the strip, and fit_label keeps its numbers.
    let max_chars = (((w as i32 - 40) as f64) / (TEXT_EM * font_px as f64)).max(8.0) as usize;
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
            fit_label(&e.label, max_chars),
            (34, y),
            style.clone(),
        ))
        .map_err(|x| err(&x))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::fit_label;

    #[test]
    fn numbers_in_parentheses_are_never_cut() {
        let l = "Female & Amer-Indian-Eskimo (AUC 0.912)";
        assert_eq!(fit_label(l, 40), l);
        assert_eq!(fit_label(l, 24), "Female & Am… (AUC 0.912)");
        assert_eq!(fit_label(l, 24).chars().count(), 24);
        // Too narrow to keep the suffix and some name: plain shortening.
        assert_eq!(fit_label(l, 12), "Female & Am…");
        assert_eq!(fit_label("no parentheses here at all", 10), "no parent…");
    }
}
