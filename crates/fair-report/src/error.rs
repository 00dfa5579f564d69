//! The crate's error type.

/// Why a chart or report could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// The drawing library failed while drawing `chart`.
    #[error("drawing the {chart} chart failed: {reason}")]
    Plot {
        /// Which chart (its function name).
        chart: &'static str,
        /// The drawing library's message.
        reason: String,
    },
    /// An input value is NaN or infinite, so the chart would be broken.
    #[error("{chart} chart: {what} is {value}; every plotted value must be finite")]
    NotFinite {
        /// Which chart.
        chart: &'static str,
        /// Which input (series, group and field).
        what: String,
        /// The offending value.
        value: f64,
    },
    /// An input is inconsistent (e.g. a confidence interval that does not contain its rate).
    #[error("{chart} chart: {reason}")]
    BadInput {
        /// Which chart.
        chart: &'static str,
        /// What is wrong and how to fix it.
        reason: String,
    },
}

/// Result alias of the crate.
pub type Result<T> = std::result::Result<T, ReportError>;

/// Maps a plotters error (any `Display`) to [`ReportError::Plot`] for `chart`.
pub(crate) fn plot_err(chart: &'static str) -> impl Fn(&dyn std::fmt::Display) -> ReportError {
    move |e| ReportError::Plot {
        chart,
        reason: e.to_string(),
    }
}

/// `Err(NotFinite)` unless `value` is finite.
pub(crate) fn check_finite(
    chart: &'static str,
    what: impl Fn() -> String,
    value: f64,
) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(ReportError::NotFinite {
            chart,
            what: what(),
            value,
        })
    }
}

/// The largest magnitude the bar and scatter charts draw. Their axes are fitted to the values,
/// and plotters' tick search never ends on an axis whose span overflows to infinity (found by the
/// property test of issue 18: a rate of `f64::MAX` hung `group_rate_bars`, a point at
/// `f64::MAX` hung `labelled_scatter`); 1e15 keeps every span and tick finite and exact enough.
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
