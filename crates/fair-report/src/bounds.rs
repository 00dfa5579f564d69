//! Keeping plotters' arithmetic finite (issue 18). Charts fitted to their data hung on a value
//! such as `f64::MAX`: the axis span overflowed to infinity and plotters' tick search never
//! ended. A point far outside a caller-given axis panicked ("attempt to add with overflow"):
//! plotters maps it to an `i32` pixel that saturates and then adds the plot's offset. So values
//! and axis ends are bounded by [`MAX_PLOTTED`], and points are pulled in to a band around the
//! axes that is still far off-screen.

use crate::error::{ReportError, Result, check_finite};

/// The largest magnitude a chart draws or takes as an axis end: every span and tick computed
/// from such values stays finite.
pub(crate) const MAX_PLOTTED: f64 = 1e15;

/// `Err(NotFinite)` for NaN/±∞ and `Err(BadInput)` beyond ±[`MAX_PLOTTED`].
pub(crate) fn check_plottable(
    chart: &'static str,
    what: impl Fn() -> String,
    value: f64,
) -> Result<()> {
    check_finite(chart, &what, value)?;
    if value.abs() > MAX_PLOTTED {
        return Err(ReportError::BadInput {
            chart,
            reason: format!(
                "{} is {value:e}, beyond the ±1e15 a chart can draw: rescale it",
                what()
            ),
        });
    }
    Ok(())
}

/// [`check_plottable`] for both coordinates of every finite point of a series (points with a
/// non-finite coordinate are left out by the builders, so they pass).
pub(crate) fn check_points(chart: &'static str, series: &str, points: &[(f64, f64)]) -> Result<()> {
    for (i, &(x, y)) in points.iter().enumerate() {
        if x.is_finite() && y.is_finite() {
            check_plottable(chart, || format!("series {series:?}, point {i}: x"), x)?;
            check_plottable(chart, || format!("series {series:?}, point {i}: y"), y)?;
        }
    }
    Ok(())
}

/// [`check_plottable`] for both ends of a caller-given axis range.
pub(crate) fn check_axis(chart: &'static str, what: &str, (lo, hi): (f64, f64)) -> Result<()> {
    check_plottable(chart, || format!("{what} range start"), lo)?;
    check_plottable(chart, || format!("{what} range end"), hi)
}

/// `v` pulled in to within a million axis spans of `range`: still far outside the plot (so
/// what is drawn is unchanged to well under a pixel), but its pixel position fits an `i32`.
pub(crate) fn near(range: (f64, f64), v: f64) -> f64 {
    let (lo, hi) = (range.0.min(range.1), range.0.max(range.1));
    // Relative to the span, however small: plotters divides by it. A zero span maps every
    // value to the middle, so clamping to the single value is exact.
    let reach = (hi - lo) * 1e6;
    v.clamp(lo - reach, hi + reach)
}

/// [`near`] for a point, axis by axis.
pub(crate) fn near_point(x: (f64, f64), y: (f64, f64), p: (f64, f64)) -> (f64, f64) {
    (near(x, p.0), near(y, p.1))
}

#[cfg(test)]
mod tests {
    use super::near;

    // Clamping returns one of its inputs or an exactly computed bound: compare bit for bit.
    #[allow(clippy::float_cmp)]
    #[test]
    fn near_keeps_visible_values_and_pulls_in_far_ones() {
        assert_eq!(near((0.0, 1.0), 0.25), 0.25);
        assert_eq!(near((1.0, 0.0), -3.0), -3.0);
        assert_eq!(near((0.0, 1.0), 1e300), 1e6 + 1.0);
        assert_eq!(near((0.0, 1.0), -f64::MAX), -1e6);
        // A zero-width axis pulls everything to its one value; a subnormal one stays relative.
        assert_eq!(near((2.0, 2.0), f64::MAX), 2.0);
        assert_eq!(near((0.0, 1e-310), 0.5), 1e-310 * 1e6 + 1e-310);
    }
}
