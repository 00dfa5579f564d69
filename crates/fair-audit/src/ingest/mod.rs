//! Ingestion, the same for every front end: the columns of an audit by role, one [`Decoder`]
//! that turns Arrow record batches into typed rows (labels and predictions as 0/1 by one label
//! coder, sensitive values as group codes and finest groups, checked scores and weights), and
//! the mergeable [`AuditState`] those rows fold into.
//!
//! The `fairkit audit` command hands the decoder the batches of its CSV and Parquet readers;
//! Python and Spark hand it pyarrow batches through the Arrow C Data Interface. So a third label
//! value, a float label column, a null or a NaN weight gives the same answer — or the same
//! error naming the row, column and value — on every front end.

// The errors carry the origin, row, line, column and offending value so the message can say what
// to fix; they are returned once and end the read, so their size costs nothing that matters (the
// per-cell Ok path only writes a discriminant).
#![allow(clippy::result_large_err)]

mod cells;
pub mod coders;
mod counted;
mod decode;
mod error;
mod local_time;
mod state;
mod unknowns;

pub use counted::CellCounts;
pub use decode::{Decoded, Decoder, LabelPair, Typing};
pub use error::{IngestError, RowRef, did_you_mean};
pub use state::AuditState;
pub use unknowns::{UNKNOWN_GROUP, UnknownGroups, Unknowns};

/// Joins a finest group's values (one per sensitive column) into one name in states and bytes
/// (ASCII unit separator: never part of a printable value; a sensitive value containing it is
/// rejected when there are several sensitive columns). Reports join with `" & "` instead.
pub const GROUP_SEPARATOR: char = '\u{1f}';

/// How messages spell the settings that name columns and labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagStyle {
    /// The command's flags: `--label`, `--pos-label`.
    Command,
    /// Python keyword arguments: `label=`, `pos_label=`.
    Python,
}

impl FlagStyle {
    /// The spelling of a setting (`label`, `pred`, `score`, `sensitive`, `weight`,
    /// `pos_label`, `neg_label`).
    pub fn flag(self, setting: &'static str) -> &'static str {
        match (self, setting) {
            (FlagStyle::Command, "label") => "--label",
            (FlagStyle::Command, "target") => "--target",
            // A regression audit's numeric prediction column.
            (FlagStyle::Command, "prediction") => "--pred",
            (FlagStyle::Python, "prediction") => "pred=",
            (FlagStyle::Python, "target") => "target=",
            (FlagStyle::Command, "pred") => "--pred",
            (FlagStyle::Command, "score") => "--score",
            (FlagStyle::Command, "sensitive") => "--sensitive",
            (FlagStyle::Command, "weight") => "--weight",
            (FlagStyle::Command, "pos_label") => "--pos-label",
            (FlagStyle::Command, "query") => "--query",
            (FlagStyle::Command, "rank") => "--rank",
            (FlagStyle::Command, "relevance") => "--relevance",
            (FlagStyle::Python, "query") => "query=",
            (FlagStyle::Python, "rank") => "rank=",
            (FlagStyle::Python, "relevance") => "relevance=",
            (FlagStyle::Command, "neg_label") => "--neg-label",
            (FlagStyle::Python, "label") => "label=",
            (FlagStyle::Python, "pred") => "pred=",
            (FlagStyle::Python, "score") => "score=",
            (FlagStyle::Python, "sensitive") => "sensitive=",
            (FlagStyle::Python, "weight") => "weight=",
            (FlagStyle::Python, "pos_label") => "pos_label=",
            (FlagStyle::Python, "neg_label") => "neg_label=",
            (FlagStyle::Command, "max_groups") => "--max-groups",
            (FlagStyle::Command, "allow_single_group") => "--allow-single-group",
            (FlagStyle::Command, "min_group_size") => "--min-group-size",
            (FlagStyle::Python, "max_groups") => "max_groups=",
            (FlagStyle::Python, "allow_single_group") => "allow_single_group=True",
            (FlagStyle::Python, "min_group_size") => "min_group_size=",
            (FlagStyle::Command, "unknowns") => "--unknowns",
            (FlagStyle::Python, "unknowns") => "unknowns=",
            (FlagStyle::Command, "unknown_values") => "--unknown-values",
            (FlagStyle::Python, "unknown_values") => "unknown_values=",
            (FlagStyle::Command, "sensitive_proba") => "--sensitive-proba",
            (FlagStyle::Python, "sensitive_proba") => "sensitive_proba=",
            (FlagStyle::Command, "proxy") => "--proxy",
            (FlagStyle::Python, "proxy") => "proxy=",
            (_, other) => other,
        }
    }
}

/// The columns an audit reads, by role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roles {
    /// True labels.
    pub label: String,
    /// Predicted labels (if absent, predictions come from the score and thresholds).
    pub pred: Option<String>,
    /// Scores (probabilities or margins).
    pub score: Option<String>,
    /// Sensitive attributes (one or more).
    pub sensitive: Vec<String>,
    /// Sample weights.
    pub weight: Option<String>,
    /// A regression audit: `label` is a numeric target and `pred` a numeric prediction
    /// ([`Roles::numeric`]).
    pub numeric: bool,
    /// No label column ([`Roles::unlabeled`]): `label` is not read and [`Decoded::labels`]
    /// stays empty (the NYC Local Law 144 tables need only the selection, in `pred`, or the
    /// score).
    pub unlabeled: bool,
    /// A missing (null) sensitive value is the group named `""` (an unknown category, which
    /// the caller counts) instead of an error. A CSV file's empty field is null, so an empty
    /// field and a Parquet null are one group.
    pub missing_groups: bool,
    /// Inferred sensitive attributes: each attribute's name and its membership-probability
    /// columns (one per group; every row's are checked to be a probability vector).
    pub inferred: Vec<(String, Vec<String>)>,
    /// The column naming each row's proxy cell for the inferred attributes' bounds.
    pub proxy: Option<String>,
    /// A ranking audit's position column (a rank, smallest first, or a score, highest first:
    /// the request says which), decoded as a number into [`Decoded::ranks`].
    pub rank: Option<String>,
    /// A ranking audit's relevance column, decoded as a number into [`Decoded::relevance`].
    pub relevance: Option<String>,
    /// The first sensitive column is a ranking audit's query column (messages name it by its
    /// own setting, `query`); [`Decoded::finest`] stays empty (the ranking audit groups each
    /// sensitive column itself, and the query × group pairs would be nearly one per row).
    pub query: bool,
}

impl Roles {
    /// The same columns read as a numeric target (`label`) and prediction (`pred`): a
    /// regression audit.
    pub fn numeric(self) -> Self {
        Self {
            numeric: true,
            ..self
        }
    }

    /// The roles from borrowed names.
    pub fn new(
        label: &str,
        pred: Option<&str>,
        score: Option<&str>,
        sensitive: &[&str],
        weight: Option<&str>,
    ) -> Self {
        Self {
            label: label.into(),
            pred: pred.map(Into::into),
            score: score.map(Into::into),
            sensitive: sensitive.iter().map(|s| s.to_string()).collect(),
            weight: weight.map(Into::into),
            numeric: false,
            unlabeled: false,
            missing_groups: false,
            inferred: Vec::new(),
            proxy: None,
            rank: None,
            relevance: None,
            query: false,
        }
    }

    /// The roles of a file without a label column: the 0/1 `pred` (a selection) and/or a
    /// `score`, the sensitive columns and a weight, with missing sensitive values read as the
    /// group `""` ([`Roles::missing_groups`]) — what the NYC Local Law 144 tables read.
    ///
    /// ```
    /// use fair_audit::ingest::Roles;
    /// let r = Roles::unlabeled(Some("hired"), None, &["sex", "race"], None);
    /// assert_eq!(r.named(), vec![("hired", "pred"), ("sex", "sensitive"), ("race", "sensitive")]);
    /// ```
    pub fn unlabeled(
        pred: Option<&str>,
        score: Option<&str>,
        sensitive: &[&str],
        weight: Option<&str>,
    ) -> Self {
        Self {
            unlabeled: true,
            missing_groups: true,
            ..Self::new("", pred, score, sensitive, weight)
        }
    }

    /// Every (column, setting) pair, in role order.
    pub fn named(&self) -> Vec<(&str, &'static str)> {
        let label = if self.numeric { "target" } else { "label" };
        let mut out = Vec::new();
        if !self.unlabeled {
            out.push((self.label.as_str(), label));
        }
        if let Some(p) = &self.pred {
            out.push((p, if self.numeric { "prediction" } else { "pred" }));
        }
        if let Some(s) = &self.score {
            out.push((s, "score"));
        }
        if let Some(s) = &self.rank {
            out.push((s, "rank"));
        }
        if let Some(s) = &self.relevance {
            out.push((s, "relevance"));
        }
        for (i, s) in self.sensitive.iter().enumerate() {
            out.push((
                s,
                if self.query && i == 0 {
                    "query"
                } else {
                    "sensitive"
                },
            ));
        }
        if let Some(w) = &self.weight {
            out.push((w, "weight"));
        }
        for (_, columns) in &self.inferred {
            out.extend(columns.iter().map(|c| (c.as_str(), "sensitive_proba")));
        }
        if let Some(z) = &self.proxy {
            out.push((z, "proxy"));
        }
        out
    }

    /// Rejects a column used in two roles (a sensitive column that is also the label, …).
    ///
    /// # Errors
    /// [`IngestError::DuplicateColumn`].
    pub fn check_distinct(&self, style: FlagStyle) -> Result<(), IngestError> {
        let roles = self.named();
        for (i, (a, fa)) in roles.iter().enumerate() {
            if let Some((_, fb)) = roles[i + 1..].iter().find(|(b, _)| b == a) {
                return Err(IngestError::DuplicateColumn {
                    column: a.to_string(),
                    first: style.flag(fa).to_string(),
                    second: style.flag(fb).to_string(),
                });
            }
        }
        Ok(())
    }
}
