//! Every way the command can fail, each with a message that says what to fix.
//!
//! Input problems name the file, and where it makes sense the row (1-based data row, the header
//! not counted), the line of a CSV file and the column. All of them exit with code 2.

use std::path::PathBuf;
use thiserror::Error;

pub use fair_audit::ingest::RowRef;

/// A problem with the input file or the columns named on the command line.
#[derive(Debug, Error)]
pub enum InputError {
    /// A bad column or cell, found by the audit's decoder (the same message on every front end).
    #[error(transparent)]
    Ingest(#[from] fair_audit::ingest::IngestError),
    /// The file could not be opened or read.
    #[error("{file}: cannot read the file: {source}")]
    Io {
        /// The input file.
        file: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file's format could not be told from its extension.
    #[error(
        "{file}: cannot tell the format from the extension; name it .csv or .tsv (also compressed: .csv.gz, .csv.zst), or .parquet, or give a folder or a quoted pattern ('data/*.parquet') of such part files, or pass --input-format csv|parquet"
    )]
    UnknownFormat {
        /// The input file.
        file: PathBuf,
    },
    /// The files of one input are of different formats.
    #[error(
        "{file}: is {format} but {first} is {first_format}; every file of one audit must be of one format"
    )]
    MixedFormats {
        /// The first file of the other format.
        file: PathBuf,
        /// Its format.
        format: &'static str,
        /// The first file of the input.
        first: PathBuf,
        /// The first file's format.
        first_format: &'static str,
    },
    /// A folder or pattern that gives no file to read.
    #[error("{path}: no input files: {why}")]
    NoParts {
        /// The folder or pattern as given.
        path: PathBuf,
        /// Why nothing is read.
        why: String,
    },
    /// A truncated or corrupt compressed file.
    #[error(
        "{file}: cannot decompress the file as {codec} ({message}); is it truncated or corrupt?"
    )]
    Decompress {
        /// The input file.
        file: PathBuf,
        /// The codec ("gzip", "zstd").
        codec: &'static str,
        /// The decoder's message.
        message: String,
    },
    /// The file has no header or no data rows.
    #[error(
        "{file}: the file is empty ({what}); an audit needs a header and at least one data row"
    )]
    EmptyFile {
        /// The input file.
        file: PathBuf,
        /// What is missing: "no header" or "no data rows".
        what: &'static str,
    },
    /// A CSV row with a different number of fields than the header.
    #[error(
        "{file}: {at}: the row has {got} fields but the header has {expected}; check the delimiter (--delimiter) and quoting"
    )]
    RaggedRow {
        /// The input file.
        file: PathBuf,
        /// Where.
        at: RowRef,
        /// Fields in the header.
        expected: u64,
        /// Fields in this row.
        got: u64,
    },
    /// Any other CSV parse failure (invalid UTF-8, …).
    #[error("{file}: {at}: cannot parse the CSV: {message}")]
    Csv {
        /// The input file.
        file: PathBuf,
        /// Where.
        at: RowRef,
        /// The parser's message.
        message: String,
    },
    /// A malformed, truncated or unsupported Parquet file.
    #[error(
        "{file}: not a readable Parquet file ({message}); is it truncated or written with an unsupported codec?"
    )]
    Parquet {
        /// The input file.
        file: PathBuf,
        /// The reader's message.
        message: String,
    },
    /// A group declared with --groups has no rows.
    #[error(
        "{file}: group '{group}' of column '{column}' (declared with --groups) has no rows; remove it from --groups or check the data"
    )]
    EmptyGroup {
        /// The input file.
        file: PathBuf,
        /// The sensitive column.
        column: String,
        /// The group.
        group: String,
    },
}

/// Every failure of the command. All map to exit code 2 (the fairness verdict of `--fail-if`
/// is not an error: it is exit code 1).
#[derive(Debug, Error)]
pub enum CliError {
    /// Bad input data.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A flag value that parses but makes no sense (e.g. a confidence of 1.5).
    #[error("invalid {flag} '{value}': {expected}")]
    InvalidFlag {
        /// The flag.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What is expected.
        expected: String,
    },
    /// A `--fail-if` expression that does not parse or names an unknown key.
    #[error("invalid --fail-if: {0}")]
    FailIf(#[from] fair_audit::fail_if::FailIfError),
    /// A metric could not be computed (e.g. a group without positives for a TPR-based CI).
    #[error("cannot compute the {what}: {source}")]
    Metric {
        /// What was being computed.
        what: String,
        /// The metric's reason.
        source: fair_metrics::MetricError,
    },
    /// A chart could not be drawn (fair-report rejected its data).
    #[error("cannot draw the chart '{what}': {source}")]
    Chart {
        /// The chart's title.
        what: String,
        /// fair-report's reason.
        source: fair_report::ReportError,
    },
    /// An output file could not be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The path.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A sensitive column cannot be audited as groups (one value, too many, one per row).
    #[error("{0}")]
    Groups(String),
    /// The report could not be assembled or rendered (other than a metric or a chart).
    #[error("cannot build the report: {0}")]
    Audit(fair_audit::AuditError),
    /// A file given as a report is not a report.json this fairkit reads (another schema or
    /// version, or a bad field).
    #[error("{path}: not a fairkit-audit v1 report: {source}")]
    Report {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the field.
        source: fair_audit::model::ReportError,
    },
    /// The LL144 tables cannot be computed (no applicants, a bad setting).
    #[error("cannot compute the LL144 tables: {0}")]
    Ll144(#[from] fair_audit::ll144::Ll144Error),
    /// A value of the selection column that is neither the selected value nor the one other
    /// value.
    #[error(
        "{origin}: {at}, column '{column}' ({flag}): value '{value}' is neither the selected value '{selected}' nor the other value '{other}'; a selection column holds two values, 0 and 1 (name another selected value with {value_flag})"
    )]
    SelectedValue {
        /// The file.
        origin: String,
        /// The row (and CSV line).
        at: RowRef,
        /// The column.
        column: String,
        /// The value found.
        value: String,
        /// The selected value.
        selected: String,
        /// The other value (declared, or the first other value seen).
        other: String,
        /// `--selected` or `selected=`.
        flag: &'static str,
        /// `--selected-value` or `selected_value=`.
        value_flag: &'static str,
    },
    /// A Parquet/CSV output of `demo-data` could not be written.
    #[error("{path}: cannot write the demo data: {message}")]
    DemoWrite {
        /// The path.
        path: PathBuf,
        /// The writer's message.
        message: String,
    },
}

impl From<fair_audit::AuditError> for CliError {
    fn from(e: fair_audit::AuditError) -> Self {
        match e {
            fair_audit::AuditError::Metric { what, source } => CliError::Metric { what, source },
            fair_audit::AuditError::Chart { what, source } => CliError::Chart { what, source },
            fair_audit::AuditError::Groups(message) => CliError::Groups(message),
            // A gate the report cannot evaluate, as the command always said it.
            fair_audit::AuditError::FailIf(e) => CliError::FailIf(e),
            other => CliError::Audit(other),
        }
    }
}

impl CliError {
    /// The process exit code for this error (always 2: bad input or an unusable flag).
    pub fn exit_code(&self) -> u8 {
        2
    }
}
