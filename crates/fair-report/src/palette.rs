//! The colours of every chart.

use plotters::style::RGBColor;

/// An sRGB colour (red, green, blue), the only colour type of this crate's inputs so callers need
/// not depend on the drawing library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// As the drawing library's colour.
    pub(crate) fn to_plotters(self) -> RGBColor {
        RGBColor(self.0, self.1, self.2)
    }

    /// `#rrggbb`, for HTML and CSS.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// matplotlib's tab10 colours, in its order.
const TAB10: [Rgb; 10] = [
    Rgb(31, 119, 180),
    Rgb(214, 39, 40),
    Rgb(44, 160, 44),
    Rgb(255, 127, 14),
    Rgb(148, 103, 189),
    Rgb(140, 86, 75),
    Rgb(227, 119, 194),
    Rgb(127, 127, 127),
    Rgb(188, 189, 34),
    Rgb(23, 190, 207),
];

/// tab10 blue (the first series colour).
pub const BLUE: Rgb = TAB10[0];
/// tab10 red.
pub const RED: Rgb = TAB10[1];
/// tab10 green.
pub const GREEN: Rgb = TAB10[2];
/// tab10 orange.
pub const ORANGE: Rgb = TAB10[3];
/// tab10 grey (reference lines).
pub const GREY: Rgb = TAB10[7];
/// Black.
pub const BLACK: Rgb = Rgb(0, 0, 0);

/// The series colour of index `i` (tab10 order: blue, red, green, orange, …), cycling after 10.
///
/// ```
/// use fair_report::palette::{series_colour, BLUE};
/// assert_eq!(series_colour(0), BLUE);
/// assert_eq!(series_colour(10), BLUE);
/// ```
pub fn series_colour(i: usize) -> Rgb {
    TAB10[i % TAB10.len()]
}

/// The series colour of index `i` in the drawing library's type.
pub(crate) fn plotters_colour(i: usize) -> RGBColor {
    series_colour(i).to_plotters()
}

/// Shade `i` of `n` from light to dark blue, for a family of curves of one method (e.g. one
/// curve per hyper-parameter value).
pub fn blue_shade(i: usize, n: usize) -> Rgb {
    let t = if n <= 1 {
        0.0
    } else {
        i as f64 / (n - 1) as f64
    };
    Rgb(
        (120.0 * (1.0 - t)) as u8,
        (170.0 - 120.0 * t) as u8,
        (255.0 - 80.0 * t) as u8,
    )
}

/// The colour of group `i` of `n`: tab10 while `n ≤ 10` (so small audits match every other
/// chart), otherwise `n` hues evenly spaced around the colour wheel so no two groups share one.
///
/// ```
/// use fair_report::palette::{group_colour, series_colour};
/// assert_eq!(group_colour(3, 5), series_colour(3));
/// assert_ne!(group_colour(3, 50), group_colour(13, 50));
/// ```
pub fn group_colour(i: usize, n: usize) -> Rgb {
    if n <= TAB10.len() {
        return series_colour(i);
    }
    // Alternate two lightness levels so neighbouring hues stay distinguishable.
    let light = if i.is_multiple_of(2) { 0.42 } else { 0.55 };
    hsl((i % n) as f64 / n as f64, 0.7, light)
}

/// An HSL colour (each in `[0, 1]`) in sRGB.
fn hsl(h: f64, s: f64, l: f64) -> Rgb {
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    let channel = |t: f64| {
        let t = t.rem_euclid(1.0);
        let v = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        (v * 255.0).round().clamp(0.0, 255.0) as u8
    };
    Rgb(channel(h + 1.0 / 3.0), channel(h), channel(h - 1.0 / 3.0))
}
