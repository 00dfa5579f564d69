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

/// The font size the legends ask of plotters (the SVG's `font-size` is this / 1.24: 12.9 px,
/// drawn at 10 px or more as long as the chart is shown at 78 % of its width or more).
pub(crate) const LEGEND_FONT: i32 = 16;
/// The font size of tick labels and axis descriptions (as [`LEGEND_FONT`]).
pub(crate) const TICK_FONT: i32 = 16;
/// The font size of chart titles.
pub(crate) const TITLE_FONT: i32 = 22;
/// The smallest font a chart ever asks for (its SVG `font-size` 10.5 px): many labels shrink to
/// it, never below.
pub(crate) const MIN_FONT: i32 = 13;

/// A legend's first row starts this far below the top of its strip.
const TOP: i32 = 50;
/// The height of one line of legend text.
const LINE: i32 = 19;
/// The space between two legend entries.
const GAP: i32 = 6;
/// Most lines one legend entry wraps to (beyond, its last line ends in "…").
const MAX_LINES: usize = 3;

/// Most characters of one legend line in a strip `strip_width` px wide (at most TEXT_EM per
/// character, a sans-serif's widest common case).
pub(crate) fn legend_chars(strip_width: u32) -> usize {
    ((f64::from(strip_width) - 40.0) / (TEXT_EM * f64::from(LEGEND_FONT))).max(8.0) as usize
}

/// `label` wrapped into lines of at most `max` characters, never cut while it fits in
/// [`MAX_LINES`] lines: words are kept whole, a trailing parenthesised part — the numbers of
/// "group (AUC 0.812)" — stays on one line, and a word longer than a line breaks after a hyphen
/// ("Amer-Indian-" / "Eskimo") or, failing that, anywhere.
pub(crate) fn wrap_label(label: &str, max: usize) -> Vec<String> {
    let max = max.max(4);
    let (head, tail) = match label.rfind(" (").filter(|_| label.ends_with(')')) {
        Some(at) if label[at + 1..].chars().count() <= max => {
            (&label[..at], Some(&label[at + 1..]))
        }
        _ => (label, None),
    };
    // Tokens: words, long words split after hyphens, then hard-split.
    let mut tokens: Vec<String> = Vec::new();
    for word in head.split(' ').filter(|w| !w.is_empty()) {
        if word.chars().count() <= max {
            tokens.push(word.to_string());
            continue;
        }
        let mut piece = String::new();
        for part in word.split_inclusive('-') {
            if piece.chars().count() + part.chars().count() > max && !piece.is_empty() {
                tokens.push(std::mem::take(&mut piece));
            }
            piece.push_str(part);
            while piece.chars().count() > max {
                let first: String = piece.chars().take(max).collect();
                piece = piece.chars().skip(max).collect();
                tokens.push(first);
            }
        }
        if !piece.is_empty() {
            tokens.push(piece);
        }
    }
    tokens.extend(tail.map(str::to_string));
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for t in tokens {
        let joined = if line.is_empty() || line.ends_with('-') {
            line.chars().count() + t.chars().count()
        } else {
            line.chars().count() + 1 + t.chars().count()
        };
        if !line.is_empty() && joined > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() && !line.ends_with('-') {
            line.push(' ');
        }
        line.push_str(&t);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    if lines.len() > MAX_LINES {
        let rest = lines.split_off(MAX_LINES - 1).join(" ");
        lines.push(shorten(&rest, max));
    }
    lines
}

/// The height (px) a legend of `labels` needs in a strip `strip_width` px wide, with the room
/// above and below it: charts grow their canvas to it rather than shrink the legend's text.
pub(crate) fn legend_height<'a>(
    labels: impl IntoIterator<Item = &'a str>,
    strip_width: u32,
) -> u32 {
    let max = legend_chars(strip_width);
    let rows: i32 = labels
        .into_iter()
        .map(|l| wrap_label(l, max).len() as i32 * LINE + GAP)
        .sum();
    (TOP + rows + 30) as u32
}

/// Draws `entries` top-down in `area` (a strip right of the plot), each label wrapped to the
/// strip's width (never cut: see [`wrap_label`]) at [`LEGEND_FONT`]; the chart sizes its canvas
/// with [`legend_height`] so every entry fits.
pub(crate) fn draw_legend(chart: &'static str, area: &Root, entries: &[Entry]) -> Result<()> {
    let err = plot_err(chart);
    let (w, _) = area.dim_in_pixel();
    let max_chars = legend_chars(w);
    let style = TextStyle::from(("sans-serif", LEGEND_FONT).into_font())
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut top = TOP;
    for e in entries {
        let lines = wrap_label(&e.label, max_chars);
        let y = top + LINE / 2;
        let (x0, x1) = (6, 28);
        match e.glyph {
            Glyph::Box => area.draw(&Rectangle::new(
                [(x0 + 4, y - 6), (x1 - 4, y + 6)],
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
                    vec![(17, y - 7), (17, y + 7)],
                    e.colour.stroke_width(2),
                ))
                .and_then(|_| {
                    area.draw(&PathElement::new(vec![(13, y - 7), (21, y - 7)], e.colour))
                })
                .and_then(|_| {
                    area.draw(&PathElement::new(vec![(13, y + 7), (21, y + 7)], e.colour))
                }),
            Glyph::None => Ok(()),
        }
        .map_err(|x| err(&x))?;
        for (k, line) in lines.iter().enumerate() {
            area.draw(&Text::new(
                line.clone(),
                (34, y + k as i32 * LINE),
                style.clone(),
            ))
            .map_err(|x| err(&x))?;
        }
        top += lines.len() as i32 * LINE + GAP;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::wrap_label;

    #[test]
    fn legend_labels_wrap_and_keep_their_numbers() {
        let l = "Female & Amer-Indian-Eskimo (AUC 0.912)";
        assert_eq!(wrap_label(l, 40), vec![l.to_string()]);
        assert_eq!(
            wrap_label(l, 24),
            vec!["Female &", "Amer-Indian-Eskimo", "(AUC 0.912)"]
        );
        // Too narrow for three lines: the last one ends in "…".
        assert_eq!(
            wrap_label(l, 12),
            vec!["Female &", "Amer-Indian-", "Eskimo (AUC…"]
        );
        // Every line fits, nothing is lost while it fits in three lines.
        for max in [12, 16, 20, 24, 30] {
            let lines = wrap_label("Amer-Indian-Eskimo", max);
            assert!(lines.iter().all(|x| x.chars().count() <= max), "{lines:?}");
            assert_eq!(lines.concat(), "Amer-Indian-Eskimo", "{max}: {lines:?}");
        }
        assert_eq!(wrap_label("", 10), vec![String::new()]);
        let long = "word ".repeat(30);
        let lines = wrap_label(long.trim(), 10);
        assert_eq!(lines.len(), 3);
        assert!(lines[2].ends_with('…'));
    }
}
