//! What can be wrong with the rows an audit reads, whatever front end read them.
//!
//! Every message names where the rows came from (a file, "Arrow table", a Spark partition), and
//! where it makes sense the 1-based data row (the header not counted), the line of a CSV file,
//! the column and the offending value, and says what to do. The command, Python and Spark show
//! the same text for the same rows.

use thiserror::Error;

/// Where a problem is: the 1-based data row and, for CSV, the file line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowRef {
    /// 1-based data row (the header is not counted).
    pub row: u64,
    /// 1-based line of a CSV file (quoted fields may span lines); `None` for other inputs.
    pub line: Option<u64>,
}

impl std::fmt::Display for RowRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "row {} (line {line})", self.row),
            None => write!(f, "row {}", self.row),
        }
    }
}

/// A problem with the audited rows or with the columns named for them.
#[derive(Debug, Clone, Error, PartialEq)]
pub enum IngestError {
    /// A named column is not in the data.
    #[error(
        "{origin}: column '{column}' (given by {flag}) is not in the file; its columns are: {available}{hint}"
    )]
    MissingColumn {
        /// Where the rows come from.
        origin: String,
        /// The missing column.
        column: String,
        /// The flag or argument that named it, e.g. `--score` or `score=`.
        flag: String,
        /// The data's columns, comma-separated.
        available: String,
        /// What the mistake probably is, from `"; "` on (a CSV read with the wrong delimiter),
        /// or empty.
        hint: String,
    },
    /// The same column was given for two roles.
    #[error(
        "column '{column}' is given for both {first} and {second}; each role needs its own column"
    )]
    DuplicateColumn {
        /// The column.
        column: String,
        /// The first flag.
        first: String,
        /// The second flag.
        second: String,
    },
    /// A column whose type does not fit its role.
    #[error(
        "{origin}: column '{column}' has Parquet/Arrow type {found}, but {what} must be {expected}"
    )]
    WrongType {
        /// Where the rows come from.
        origin: String,
        /// The column.
        column: String,
        /// The type found.
        found: String,
        /// The role of the column.
        what: &'static str,
        /// The types accepted.
        expected: &'static str,
    },
    /// A numeric column holds text that is not a number.
    #[error(
        "{origin}: {at}, column '{column}': '{value}' is not a number ({what} must be numeric)"
    )]
    NotNumeric {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// The offending text.
        value: String,
        /// The role of the column ("the score", "the weight").
        what: &'static str,
    },
    /// A score or weight is NaN or infinite.
    #[error(
        "{origin}: {at}, column '{column}': {value} is not a finite number ({what} must be finite)"
    )]
    NonFinite {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// The value as read.
        value: String,
        /// The role of the column.
        what: &'static str,
    },
    /// A weight is negative.
    #[error("{origin}: {at}, column '{column}': weight {value} is negative; weights must be >= 0")]
    NegativeWeight {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// The value.
        value: f64,
    },
    /// A label or prediction outside the positive/negative pair.
    #[error(
        "{origin}: {at}, column '{column}': value '{value}' is neither the positive label '{positive}' nor the negative label '{negative}'; labels and predictions must take exactly two values (set them with {pos_flag} and {neg_flag}){hint}"
    )]
    LabelOutsidePair {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// The offending value.
        value: String,
        /// The positive label.
        positive: String,
        /// The negative label (declared, or the first non-positive value seen).
        negative: String,
        /// How the positive label is set (`--pos-label`, `pos_label=`).
        pos_flag: &'static str,
        /// How the negative label is set.
        neg_flag: &'static str,
        /// What the mistake probably is, from `"; "` on (a score named as the prediction), or
        /// empty.
        hint: String,
    },
    /// Parts of one audit (Spark partitions) saw different negative labels: three values in all.
    #[error(
        "{origin}: labels and predictions take more than two values across the parts of the data: the positive label '{positive}', and both '{first}' and '{second}' as negatives; they must take exactly two values (set them with {pos_flag} and {neg_flag})"
    )]
    LabelsDisagree {
        /// Where the rows come from.
        origin: String,
        /// The positive label.
        positive: String,
        /// One part's negative.
        first: String,
        /// Another part's negative.
        second: String,
        /// How the positive label is set.
        pos_flag: &'static str,
        /// How the negative label is set.
        neg_flag: &'static str,
    },
    /// A required cell is empty or null.
    #[error(
        "{origin}: {at}, column '{column}': the value is missing (empty or null); every row needs a {what}"
    )]
    MissingValue {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// The role of the column.
        what: &'static str,
    },
    /// A sensitive value is missing (null or empty) and the audit's handling of unknowns is
    /// `error` (the default).
    #[error(
        "{origin}: {at}, column '{column}': the value is missing (empty or null); every row needs a sensitive value, or count such rows with {flag} as-group (a group of their own) or {flag} exclude (counted, kept out of every rate)"
    )]
    MissingGroup {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// How the handling is set (`--unknowns`, `unknowns=`).
        flag: &'static str,
    },
    /// A sensitive value spelled as the name unknown values get, without being listed as
    /// unknown: it would be mistaken for them.
    #[error(
        "{origin}: {at}, column '{column}': the value '{value}' is the name fairkit gives unknown sensitive values; list it with {flag} if it means unknown, or rename it"
    )]
    ReservedUnknown {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// The value.
        value: String,
        /// How unknown values are listed (`--unknown-values`, `unknown_values=`).
        flag: &'static str,
    },
    /// A value listed as unknown that no sensitive column can hold (text `NA` listed for an
    /// integer column): it would never match, so the setting is probably a mistake.
    #[error(
        "{origin}: {value:?} is listed as an unknown value ({flag}), but no sensitive column can hold it: {columns}; list values as the column holds them (e.g. -1 or 99 for an integer code; a null is always unknown)"
    )]
    UnknownValueType {
        /// Where the rows come from.
        origin: String,
        /// The listed value.
        value: String,
        /// The sensitive columns and their types.
        columns: String,
        /// How unknown values are listed.
        flag: &'static str,
    },
    /// A sensitive column of a text input (CSV) holds fractional numbers: a continuous column,
    /// which a typed input refuses as floating-point ([`IngestError::WrongType`]).
    #[error(
        "{origin}: {at}, column '{column}': '{value}' is a fractional number; a sensitive column must be text, integer or boolean (floating-point values make poor group names: bucket the column first, e.g. into ranges)"
    )]
    FloatGroups {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
        /// The first fractional value.
        value: String,
    },
    /// A sensitive value holds the character that joins several sensitive columns.
    #[error(
        "{origin}: {at}, column '{column}': the value contains the control character \\x1f, which joins the values of several sensitive columns; remove it"
    )]
    ReservedCharacter {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The column.
        column: String,
    },
    /// A group met in a later pass over the data that the first pass did not see.
    #[error(
        "{origin}: {at}: group '{group}' appears in this pass over the data but not in the first one; the data changed between the passes (cache or checkpoint it)"
    )]
    UnknownGroup {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The group, its values joined by " & ".
        group: String,
    },
    /// A row's membership probabilities of an inferred attribute are not a probability vector.
    #[error(
        "{origin}: {at}, membership probabilities of {attribute} ({values}): {problem}; each row needs one probability per group, each in [0, 1], summing to 1 within {tolerance:e}"
    )]
    BadMembership {
        /// Where the rows come from.
        origin: String,
        /// Where.
        at: RowRef,
        /// The inferred attribute.
        attribute: String,
        /// The row's values, `column=value` joined by commas.
        values: String,
        /// What is wrong (`p_black is NaN`, `they sum to 0.9`).
        problem: String,
        /// The tolerance on the sum.
        tolerance: f64,
    },
    /// The rows could not be read for another reason.
    #[error("{origin}: {reason}")]
    Input {
        /// Where the rows come from.
        origin: String,
        /// Why.
        reason: String,
    },
    /// Encoded audit state bytes that do not decode, or states that do not fit together.
    #[error("audit state: {0}")]
    State(String),
}

/// The "did you mean" of a column name that is not in the data: the closest of `available` when
/// it differs only in case, or by at most two edits in a name of five or more characters
/// (`"; did you mean 'y_hat'?"`), else empty.
///
/// ```
/// use fair_audit::ingest::did_you_mean;
/// assert_eq!(did_you_mean("yhat", &["y", "y_hat", "race"]), "; did you mean 'y_hat'?");
/// assert_eq!(did_you_mean("Race", &["y", "race"]), "; did you mean 'race'?");
/// assert_eq!(did_you_mean("income", &["y", "race"]), "");
/// ```
pub fn did_you_mean(column: &str, available: &[&str]) -> String {
    let lower = column.to_lowercase();
    let best = available
        .iter()
        .filter(|a| **a != column)
        .map(|a| (strsim::levenshtein(&lower, &a.to_lowercase()), *a))
        .min_by_key(|&(d, _)| d);
    match best {
        Some((0, a)) => format!("; did you mean '{a}'?"),
        Some((d, a)) if d <= 2 && column.chars().count() >= 4 && d < a.chars().count() => {
            format!("; did you mean '{a}'?")
        }
        _ => String::new(),
    }
}
