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
