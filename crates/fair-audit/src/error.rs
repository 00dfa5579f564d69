//! The audit's errors.

/// What can go wrong while building or rendering an audit report.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A metric could not be computed (an empty state, a bad setting, a state that does not
    /// decode).
    #[error("{what}: {source}")]
    Metric {
        /// What was being computed.
        what: String,
        /// The metric's reason.
        source: fair_metrics::MetricError,
    },
    /// fair-report rejected a chart.
    #[error("chart {what:?}: {source}")]
    Chart {
        /// The chart's title.
        what: String,
        /// fair-report's reason.
        source: fair_report::ReportError,
    },
    /// The report could not be serialised.
    #[error("report.json: {0}")]
    Json(String),
    /// Bad rows or columns, or audit state bytes that do not decode.
    #[error(transparent)]
    Ingest(Box<crate::ingest::IngestError>),
    /// A sensitive column or their intersection cannot be audited as groups (one value, too
    /// many values, a value per row); the message names the column and the setting to change.
    #[error("{0}")]
    Groups(String),
    /// A `--fail-if` gate could not be evaluated on the report (a value it does not have).
    #[error(transparent)]
    FailIf(#[from] crate::fail_if::FailIfError),
    /// The inputs of a report do not fit together.
    #[error("invalid audit input {name}: {reason}")]
    Input {
        /// The input.
        name: &'static str,
        /// What is wrong and what to do.
        reason: String,
    },
}

impl From<crate::ingest::IngestError> for AuditError {
    fn from(e: crate::ingest::IngestError) -> Self {
        AuditError::Ingest(Box::new(e))
    }
}
