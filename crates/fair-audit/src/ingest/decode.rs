//! The one decoder of audited rows: Arrow record batches in, typed columns out (labels and
//! predictions as 0/1, finest group codes, finite scores, finite non-negative weights), or a
//! typed error naming the row, column and value.

use super::cells::{Cell, CellKey, Role, for_each_cell};
use super::coders::{FxHashMap, GroupDictionary, LabelCoder, NumberProblem, check_number};
use super::error::{IngestError, RowRef};
use super::unknowns::{UNKNOWN_GROUP, UnknownGroups};
use super::{FlagStyle, GROUP_SEPARATOR, Roles};
use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Schema};
use std::collections::HashMap;

/// Largest number of column-code tuples [`Decoder`] maps through a dense table per batch (above
/// it, every row's tuple is hashed).
const DENSE_TUPLES: usize = 1 << 16;

/// What a numeric column holds (names it in messages; only weights must be `>= 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Number {
    Weight,
    Score,
    Target,
    Prediction,
    /// A membership probability: NaN, infinite, negative and above-1 values are left to the
    /// membership check, whose message names the row's whole probability vector.
    Probability,
    Rank,
    Relevance,
}

/// Whether text columns may hold numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typing {
    /// Every column is text (a CSV file): scores and weights are parsed from text, an empty
    /// cell is missing.
    Text,
    /// Columns carry their own types (Parquet, Arrow, pandas, Spark): scores and weights must
    /// be numeric columns.
    Typed,
}

/// One decoded batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decoded {
    /// 0-based index of this batch's first row among all rows this decoder read.
    pub first_row: u64,
    /// Labels, 0/1 (empty in a regression audit).
    pub labels: Vec<usize>,
    /// A regression audit's targets, finite.
    pub targets: Option<Vec<f64>>,
    /// A regression audit's predictions, finite.
    pub predictions: Option<Vec<f64>>,
    /// Predictions, 0/1 (when a prediction column is read).
    pub preds: Option<Vec<usize>>,
    /// Scores, finite.
    pub scores: Option<Vec<f64>>,
    /// A ranking audit's positions ([`Roles::rank`]).
    pub ranks: Option<Vec<f64>>,
    /// A ranking audit's relevance ([`Roles::relevance`]).
    pub relevance: Option<Vec<f64>>,
    /// Weights, finite and `>= 0`.
    pub weights: Option<Vec<f64>>,
    /// Group code per row, one vector per sensitive column (codes index [`Decoder::groups`]).
    pub sensitive: Vec<Vec<u32>>,
    /// Finest group (the intersection of all sensitive columns) per row: codes index
    /// [`Decoder::finest_names`].
    pub finest: Vec<usize>,
    /// `--unknowns exclude`: the rows of the batch set aside because a sensitive value is
    /// unknown, as (row in the batch, code into [`Decoder::set_aside_names`]); every other
    /// vector above holds the remaining rows only, in batch order.
    pub set_aside: Vec<(usize, usize)>,
    /// The weights of the rows set aside (when weighted), in the order of `set_aside`.
    pub set_aside_weights: Option<Vec<f64>>,
    /// The membership probabilities of the inferred attributes, one vector per column of
    /// [`Roles::inferred`] in order (each row's checked to be a probability vector).
    pub proba: Vec<Vec<f64>>,
    /// Each row's proxy cell ([`Roles::proxy`]), as text.
    pub proxy: Option<Vec<String>>,
}

impl Decoded {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.finest.len()
    }

    /// Whether the batch has no rows.
    pub fn is_empty(&self) -> bool {
        self.finest.is_empty()
    }
}

/// Decodes the batches of one input (a file, a table, a partition) with coders that live across
/// batches: a group keeps its code and a label its meaning for the whole input.
///
/// # Example
/// ```
/// use arrow_array::{Int64Array, RecordBatch, StringArray};
/// use fair_audit::ingest::{Decoder, FlagStyle, LabelPair, Roles, Typing};
/// use std::sync::Arc;
///
/// let roles = Roles::new("y", Some("p"), None, &["g"], None);
/// let mut dec = Decoder::new(roles, LabelPair::new("1", None), "example", Typing::Typed, FlagStyle::Command)?;
/// let batch = RecordBatch::try_from_iter([
///     ("y", Arc::new(Int64Array::from(vec![1, 0, 1])) as _),
///     ("p", Arc::new(Int64Array::from(vec![1, 1, 0])) as _),
///     ("g", Arc::new(StringArray::from(vec!["a", "b", "a"])) as _),
/// ]).unwrap();
/// let d = dec.decode(&batch, None)?;
/// assert_eq!(d.labels, vec![1, 0, 1]);
/// assert_eq!(d.finest, vec![0, 1, 0]);
/// let bad = RecordBatch::try_from_iter([
///     ("y", Arc::new(Int64Array::from(vec![2])) as _),
///     ("p", Arc::new(Int64Array::from(vec![1])) as _),
///     ("g", Arc::new(StringArray::from(vec!["a"])) as _),
/// ]).unwrap();
/// let e = dec.decode(&bad, None).unwrap_err().to_string();
/// assert!(e.contains("row 4") && e.contains("'2'"), "{e}");
/// # Ok::<(), fair_audit::ingest::IngestError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Decoder {
    roles: Roles,
    origin: String,
    typing: Typing,
    style: FlagStyle,
    labels: LabelCoder,
    groups: Vec<GroupDictionary>,
    finest_index: FxHashMap<Vec<u32>, u32>,
    finest_parts: Vec<Vec<String>>,
    finest_names: Vec<String>,
    /// A later pass: finest groups are looked up among these names, never added.
    frozen: Option<HashMap<String, usize>>,
    /// The zone whose days a zoned timestamp group column is grouped by (`None`: UTC).
    timezone: Option<chrono_tz::Tz>,
    /// How unknown sensitive values are read (`None`: a missing one is an error, unless
    /// [`Roles::missing_groups`]).
    unknowns: Option<UnknownGroups>,
    /// `--unknowns exclude`: the groups of the rows set aside (values joined by
    /// [`GROUP_SEPARATOR`], the unknown ones named [`UNKNOWN_GROUP`]) and their codes.
    set_aside_names: Vec<String>,
    set_aside_index: FxHashMap<String, usize>,
    rows: u64,
}

/// The positive label value and, if declared, the negative one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelPair {
    /// The positive value (compared as text, then as a number, then as a boolean).
    pub positive: String,
    /// The negative value; `None`: the first other value seen.
    pub negative: Option<String>,
}

impl LabelPair {
    /// A pair with the positive value and an optional negative one.
    pub fn new(positive: &str, negative: Option<&str>) -> Self {
        Self {
            positive: positive.to_string(),
            negative: negative.map(str::to_string),
        }
    }
}

impl Decoder {
    /// A decoder for the columns of `roles`; `origin` names the input in messages.
    ///
    /// # Errors
    /// [`IngestError::DuplicateColumn`] for a column given for two roles.
    pub fn new(
        roles: Roles,
        labels: LabelPair,
        origin: &str,
        typing: Typing,
        style: FlagStyle,
    ) -> Result<Self, IngestError> {
        roles.check_distinct(style)?;
        let n = roles.sensitive.len();
        Ok(Self {
            labels: LabelCoder::new(&labels.positive, labels.negative.as_deref()),
            roles,
            origin: origin.to_string(),
            typing,
            style,
            groups: vec![GroupDictionary::default(); n],
            finest_index: FxHashMap::default(),
            finest_parts: Vec::new(),
            finest_names: Vec::new(),
            frozen: None,
            timezone: None,
            unknowns: None,
            set_aside_names: Vec::new(),
            set_aside_index: FxHashMap::default(),
            rows: 0,
        })
    }

    /// Group a timestamp column that carries a time zone (an instant) by its day in `zone` (the
    /// business's day, `--timezone`) instead of its UTC day; naive timestamps and dates are
    /// grouped as written either way.
    pub fn set_timezone(&mut self, zone: Option<chrono_tz::Tz>) {
        self.timezone = zone;
    }

    /// Read unknown sensitive values (a null, an empty value, a listed value) as `unknowns`
    /// says: each column's unknowns become the group [`UNKNOWN_GROUP`], and with
    /// [`UnknownGroups::exclude`] their rows are set aside ([`Decoded::set_aside`]). `None`:
    /// an unknown value is an error naming its row (the default).
    ///
    /// ```
    /// use arrow_array::{Int64Array, RecordBatch, StringArray};
    /// use fair_audit::ingest::{Decoder, FlagStyle, LabelPair, Roles, Typing, UnknownGroups, Unknowns};
    /// use std::sync::Arc;
    ///
    /// let roles = Roles::new("y", Some("p"), None, &["g"], None);
    /// let mut dec = Decoder::new(roles, LabelPair::new("1", None), "t", Typing::Typed, FlagStyle::Command)?;
    /// dec.set_unknowns(UnknownGroups::new(Unknowns::Exclude, &["NA".into()], 0));
    /// let batch = RecordBatch::try_from_iter([
    ///     ("y", Arc::new(Int64Array::from(vec![1, 0, 1])) as _),
    ///     ("p", Arc::new(Int64Array::from(vec![1, 1, 0])) as _),
    ///     ("g", Arc::new(StringArray::from(vec![Some("a"), Some("NA"), None])) as _),
    /// ]).unwrap();
    /// let d = dec.decode(&batch, None)?;
    /// assert_eq!(d.labels, vec![1]);
    /// assert_eq!(d.set_aside, vec![(1, 0), (2, 0)]);
    /// assert_eq!(dec.set_aside_names(), ["(unknown)"]);
    /// # Ok::<(), fair_audit::ingest::IngestError>(())
    /// ```
    pub fn set_unknowns(&mut self, unknowns: Option<UnknownGroups>) {
        self.unknowns = unknowns;
    }

    /// How unknown sensitive values are read ([`set_unknowns`](Self::set_unknowns)).
    pub fn unknowns(&self) -> Option<&UnknownGroups> {
        self.unknowns.as_ref()
    }

    /// The groups of the rows set aside so far, by the codes of [`Decoded::set_aside`].
    pub fn set_aside_names(&self) -> &[String] {
        &self.set_aside_names
    }

    /// For a later pass over the same rows: finest groups are looked up among `names` (joined by
    /// [`GROUP_SEPARATOR`], as [`finest_names`](Self::finest_names) gives them) and a group not
    /// among them is an error.
    pub fn freeze_groups(&mut self, names: &[String]) {
        self.frozen = Some(
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect(),
        );
    }

    /// The columns decoded.
    pub fn roles(&self) -> &Roles {
        &self.roles
    }

    /// Where the rows come from, as messages name it.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Renames the input in later messages: a reader of several part files names the part it is
    /// reading, while rows, labels and groups carry on across the parts.
    pub fn set_origin(&mut self, origin: &str) {
        origin.clone_into(&mut self.origin);
    }

    /// The label coder (its negative value is learned from the data when not declared).
    pub fn labels(&self) -> &LabelCoder {
        &self.labels
    }

    /// One dictionary per sensitive column.
    pub fn groups(&self) -> &[GroupDictionary] {
        &self.groups
    }

    /// Each finest group's value in every sensitive column, by finest code.
    pub fn finest_parts(&self) -> &[Vec<String>] {
        &self.finest_parts
    }

    /// Each finest group's values joined by [`GROUP_SEPARATOR`], by finest code.
    pub fn finest_names(&self) -> &[String] {
        &self.finest_names
    }

    /// Rows decoded so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Checks that every column is present and typed for its role, before any row is read.
    ///
    /// # Errors
    /// [`IngestError::MissingColumn`] or [`IngestError::WrongType`].
    pub fn check_schema(&self, schema: &Schema) -> Result<(), IngestError> {
        for (column, flag, role, what) in self.columns() {
            let field = schema.field_with_name(column).map_err(|_| {
                let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
                IngestError::MissingColumn {
                    origin: self.origin.clone(),
                    column: column.to_string(),
                    flag: self.style.flag(flag).to_string(),
                    available: if names.is_empty() {
                        "(none)".into()
                    } else {
                        names.join(", ")
                    },
                    hint: super::did_you_mean(column, &names),
                }
            })?;
            if !role.accepts(field.data_type(), self.typing == Typing::Text) {
                return Err(self.wrong_type(column, field.data_type(), role, what));
            }
        }
        if let Some(u) = &self.unknowns {
            let columns: Vec<&str> = self.roles.sensitive[u.skip.min(self.roles.sensitive.len())..]
                .iter()
                .map(String::as_str)
                .collect();
            if let Some((value, columns)) = u.impossible(schema, &columns) {
                return Err(IngestError::UnknownValueType {
                    origin: self.origin.clone(),
                    value: value.to_string(),
                    columns,
                    flag: self.style.flag("unknown_values"),
                });
            }
        }
        Ok(())
    }

    fn wrong_type(
        &self,
        column: &str,
        t: &DataType,
        role: Role,
        what: &'static str,
    ) -> IngestError {
        IngestError::WrongType {
            origin: self.origin.clone(),
            column: column.to_string(),
            found: t.to_string(),
            what,
            expected: role.expected(),
        }
    }

    /// (column, role flag, role, what the role is called) of every column, in role order.
    fn columns(&self) -> Vec<(&str, &'static str, Role, &'static str)> {
        let r = &self.roles;
        let mut out = if r.unlabeled {
            Vec::new()
        } else if r.numeric {
            vec![(r.label.as_str(), "target", Role::Number, "the target")]
        } else {
            vec![(r.label.as_str(), "label", Role::Label, "the label")]
        };
        if let Some(c) = &r.pred {
            let role = if r.numeric { Role::Number } else { Role::Label };
            out.push((c, "pred", role, "the prediction"));
        }
        if let Some(c) = &r.score {
            out.push((c, "score", Role::Number, "the score"));
        }
        if let Some(c) = &r.rank {
            out.push((c, "rank", Role::Number, "the rank"));
        }
        if let Some(c) = &r.relevance {
            out.push((c, "relevance", Role::Number, "the relevance"));
        }
        for (i, c) in r.sensitive.iter().enumerate() {
            if r.query && i == 0 {
                out.push((c, "query", Role::Group, "the query id"));
            } else {
                out.push((c, "sensitive", Role::Group, "a sensitive column"));
            }
        }
        if let Some(c) = &r.weight {
            out.push((c, "weight", Role::Number, "the weight"));
        }
        for (_, columns) in &r.inferred {
            for c in columns {
                out.push((
                    c,
                    "sensitive_proba",
                    Role::Number,
                    "a membership probability",
                ));
            }
        }
        if let Some(c) = &r.proxy {
            out.push((c, "proxy", Role::Group, "the proxy"));
        }
        out
    }

    /// Decodes one batch. `lines`, for a CSV file, gives each row's file line for messages.
    ///
    /// # Errors
    /// [`IngestError`] for a missing or mistyped column and for the first bad cell. On error
    /// the decoder has still counted no row of the batch.
    pub fn decode(
        &mut self,
        batch: &RecordBatch,
        lines: Option<&[u64]>,
    ) -> Result<Decoded, IngestError> {
        self.check_schema(&batch.schema())?;
        let n = batch.num_rows();
        let first = self.rows;
        let at = |i: usize| RowRef {
            row: first + i as u64 + 1,
            line: lines.and_then(|l| l.get(i).copied()),
        };
        let column = |name: &str| -> &dyn Array {
            batch
                .column_by_name(name)
                .map(|a| a.as_ref())
                .expect("check_schema found every column")
        };
        let roles = self.roles.clone();
        let mut out = Decoded {
            first_row: first,
            labels: Vec::with_capacity(n),
            ..Decoded::default()
        };
        if roles.unlabeled {
            if let Some(c) = &roles.pred {
                let mut preds = Vec::with_capacity(n);
                self.decode_labels(column(c), c, "prediction", &mut preds, &at)?;
                out.preds = Some(preds);
            }
        } else if roles.numeric {
            let mut v = Vec::with_capacity(n);
            let c = &roles.label;
            self.decode_numbers(column(c), c, Number::Target, &mut v, &at)?;
            out.targets = Some(v);
            if let Some(c) = &roles.pred {
                let mut v = Vec::with_capacity(n);
                self.decode_numbers(column(c), c, Number::Prediction, &mut v, &at)?;
                out.predictions = Some(v);
            }
        } else {
            self.decode_labels(
                column(&roles.label),
                &roles.label,
                "label",
                &mut out.labels,
                &at,
            )?;
            if let Some(c) = &roles.pred {
                let mut preds = Vec::with_capacity(n);
                self.decode_labels(column(c), c, "prediction", &mut preds, &at)?;
                out.preds = Some(preds);
            }
        }
        if let Some(c) = &roles.score {
            let mut v = Vec::with_capacity(n);
            self.decode_numbers(column(c), c, Number::Score, &mut v, &at)?;
            out.scores = Some(v);
        }
        if let Some(c) = &roles.rank {
            let mut v = Vec::with_capacity(n);
            self.decode_numbers(column(c), c, Number::Rank, &mut v, &at)?;
            out.ranks = Some(v);
        }
        if let Some(c) = &roles.relevance {
            let mut v = Vec::with_capacity(n);
            self.decode_numbers(column(c), c, Number::Relevance, &mut v, &at)?;
            out.relevance = Some(v);
        }
        for (a, c) in roles.sensitive.iter().enumerate() {
            let mut codes = Vec::with_capacity(n);
            self.decode_groups(a, column(c), c, &mut codes, &at)?;
            out.sensitive.push(codes);
        }
        if let Some(c) = &roles.weight {
            let mut v = Vec::with_capacity(n);
            self.decode_numbers(column(c), c, Number::Weight, &mut v, &at)?;
            out.weights = Some(v);
        }
        for (attribute, columns) in &roles.inferred {
            let first = out.proba.len();
            for c in columns {
                let mut v = Vec::with_capacity(n);
                self.decode_numbers(column(c), c, Number::Probability, &mut v, &at)?;
                out.proba.push(v);
            }
            let cols: Vec<&[f64]> = out.proba[first..].iter().map(Vec::as_slice).collect();
            fair_metrics::inferred::check_membership(
                columns,
                &cols,
                n,
                fair_metrics::inferred::DEFAULT_TOLERANCE,
            )
            .map_err(|e| self.bad_membership(attribute, e, &at))?;
        }
        if let Some(c) = &roles.proxy {
            let mut v = Vec::with_capacity(n);
            let unsupported = self.unsupported(c, Role::Group, "the proxy");
            for_each_cell(
                column(c),
                &mut |i, cell| match cell {
                    Cell::Null => Err(self.missing(c, "proxy", at(i))),
                    cell => {
                        v.push(cell.text());
                        Ok(())
                    }
                },
                &unsupported,
            )?;
            out.proxy = Some(v);
        }
        if roles.query {
            // A ranking audit groups each sensitive column itself; the finest groups would be
            // every (query, group) pair — a name per pair, as many as the rows nearly.
            self.rows += n as u64;
            return Ok(out);
        }
        match self.set_aside(&mut out, n) {
            None => out.finest = self.finest_codes(&out.sensitive, n, &at)?,
            Some(kept) => {
                let at_kept = |i: usize| at(kept[i]);
                out.finest = self.finest_codes(&out.sensitive, kept.len(), &at_kept)?;
            }
        }
        self.rows += n as u64;
        Ok(out)
    }

    /// `--unknowns exclude`: moves the rows with an unknown sensitive value out of `out` into
    /// [`Decoded::set_aside`]; returns the batch rows kept, or `None` when none was set aside.
    fn set_aside(&mut self, out: &mut Decoded, n: usize) -> Option<Vec<usize>> {
        let u = self.unknowns.as_ref().filter(|u| u.exclude)?;
        let codes: Vec<Option<u32>> = self
            .groups
            .iter()
            .enumerate()
            .map(|(a, d)| d.get(UNKNOWN_GROUP).filter(|_| u.applies_to(a)))
            .collect();
        if codes.iter().all(Option::is_none) {
            return None;
        }
        let unknown = |i: usize| {
            out.sensitive
                .iter()
                .zip(&codes)
                .any(|(col, c)| c.is_some_and(|c| col[i] == c))
        };
        let mut keep = vec![true; n];
        let mut kept = Vec::with_capacity(n);
        let sep = GROUP_SEPARATOR.to_string();
        for (i, k) in keep.iter_mut().enumerate() {
            if !unknown(i) {
                kept.push(i);
                continue;
            }
            *k = false;
            let name = out
                .sensitive
                .iter()
                .zip(&self.groups)
                .map(|(col, d)| d.names()[col[i] as usize].as_str())
                .collect::<Vec<_>>()
                .join(&sep);
            let next = self.set_aside_names.len();
            let code = *self.set_aside_index.entry(name.clone()).or_insert(next);
            if code == next {
                self.set_aside_names.push(name);
            }
            out.set_aside.push((i, code));
        }
        if kept.len() == n {
            return None;
        }
        out.set_aside_weights = out
            .weights
            .as_ref()
            .map(|w| out.set_aside.iter().map(|&(i, _)| w[i]).collect());
        fn filter<T: Copy>(v: &mut Vec<T>, keep: &[bool]) {
            let mut i = 0;
            v.retain(|_| {
                i += 1;
                keep[i - 1]
            });
        }
        filter(&mut out.labels, &keep);
        for v in [
            &mut out.targets,
            &mut out.predictions,
            &mut out.scores,
            &mut out.ranks,
            &mut out.relevance,
            &mut out.weights,
        ]
        .into_iter()
        .flatten()
        {
            filter(v, &keep);
        }
        if let Some(p) = &mut out.preds {
            filter(p, &keep);
        }
        for v in &mut out.proba {
            filter(v, &keep);
        }
        if let Some(z) = &mut out.proxy {
            let mut i = 0;
            z.retain(|_| {
                i += 1;
                keep[i - 1]
            });
        }
        for col in &mut out.sensitive {
            filter(col, &keep);
        }
        Some(kept)
    }

    fn unsupported<'s>(
        &'s self,
        column: &'s str,
        role: Role,
        what: &'static str,
    ) -> impl Fn(&DataType) -> IngestError + 's {
        move |t| self.wrong_type(column, t, role, what)
    }

    /// A row whose membership probabilities are not a probability vector, at its place in the
    /// input.
    fn bad_membership(
        &self,
        attribute: &str,
        e: fair_metrics::MetricError,
        at: &dyn Fn(usize) -> RowRef,
    ) -> IngestError {
        match e {
            fair_metrics::MetricError::BadMembership {
                row,
                values,
                problem,
                tolerance,
            } => IngestError::BadMembership {
                origin: self.origin.clone(),
                at: at(row),
                attribute: attribute.to_string(),
                values,
                problem,
                tolerance,
            },
            other => IngestError::Input {
                origin: self.origin.clone(),
                reason: other.to_string(),
            },
        }
    }

    fn missing(&self, column: &str, what: &'static str, at: RowRef) -> IngestError {
        IngestError::MissingValue {
            origin: self.origin.clone(),
            at,
            column: column.to_string(),
            what,
        }
    }

    fn label_code(
        labels: &mut LabelCoder,
        origin: &str,
        style: FlagStyle,
        value: &str,
        column: &str,
        is_pred: bool,
        at: impl Fn() -> RowRef,
    ) -> Result<usize, IngestError> {
        labels.code(value).ok_or_else(|| {
            let (positive, negative) =
                (labels.positive().to_string(), labels.negative_for_message());
            let hint = if is_pred && looks_like_score(&[value, &positive, &negative]) {
                score_hint(style, column)
            } else {
                String::new()
            };
            IngestError::LabelOutsidePair {
                origin: origin.to_string(),
                at: at(),
                column: column.to_string(),
                value: value.to_string(),
                positive,
                negative,
                pos_flag: style.flag("pos_label"),
                neg_flag: style.flag("neg_label"),
                hint,
            }
        })
    }

    fn decode_labels(
        &mut self,
        arr: &dyn Array,
        column: &str,
        what: &'static str,
        out: &mut Vec<usize>,
        at: &dyn Fn(usize) -> RowRef,
    ) -> Result<(), IngestError> {
        // At most two valid values: a tiny cache keeps non-text columns from formatting each cell.
        let mut cache: Vec<(CellKey, usize)> = Vec::with_capacity(2);
        let (origin, style) = (self.origin.clone(), self.style);
        let missing = |i: usize| self.missing(column, what, at(i));
        let is_pred = what == "prediction";
        let role_what = if what == "label" {
            "the label"
        } else {
            "the prediction"
        };
        let unsupported = self.unsupported(column, Role::Label, role_what);
        let mut labels = self.labels.clone();
        let r = for_each_cell(
            arr,
            &mut |i, cell| {
                let code = match cell {
                    Cell::Null => return Err(missing(i)),
                    Cell::Str(s) => {
                        Self::label_code(&mut labels, &origin, style, s, column, is_pred, || at(i))?
                    }
                    other => {
                        let key = other.key().expect("non-text, non-null cells have a key");
                        match cache.iter().find(|(k, _)| *k == key) {
                            Some(&(_, c)) => c,
                            None => {
                                let c = Self::label_code(
                                    &mut labels,
                                    &origin,
                                    style,
                                    &other.text(),
                                    column,
                                    is_pred,
                                    || at(i),
                                )?;
                                cache.push((key, c));
                                c
                            }
                        }
                    }
                };
                out.push(code);
                Ok(())
            },
            &unsupported,
        );
        drop(unsupported);
        // The coder learns the negative value from the first one seen: keep what it learned
        // only when the whole column decoded.
        r?;
        self.labels = labels;
        Ok(())
    }

    fn decode_groups(
        &mut self,
        attribute: usize,
        arr: &dyn Array,
        column: &str,
        out: &mut Vec<u32>,
        at: &dyn Fn(usize) -> RowRef,
    ) -> Result<(), IngestError> {
        let local = self
            .timezone
            .and_then(|zone| super::local_time::to_local(arr, zone));
        let arr: &dyn Array = local.as_deref().unwrap_or(arr);
        let joined = self.roles.sensitive.len() > 1;
        // Roles::missing_groups: a null is the unknown category "", counted by the caller. The
        // audit's --unknowns reuses it: a null, an empty or a listed value is UNKNOWN_GROUP.
        let unknown = self
            .unknowns
            .as_ref()
            .filter(|u| u.applies_to(attribute))
            .cloned();
        let missing_groups = self.roles.missing_groups;
        let allow_missing = missing_groups || unknown.is_some();
        let origin = self.origin.clone();
        let style = self.style;
        let missing = |i: usize| IngestError::MissingGroup {
            origin: origin.clone(),
            at: at(i),
            column: column.to_string(),
            flag: style.flag("unknowns"),
        };
        let reserved_unknown = |i: usize, value: &str| IngestError::ReservedUnknown {
            origin: origin.clone(),
            at: at(i),
            column: column.to_string(),
            value: value.to_string(),
            flag: style.flag("unknown_values"),
        };
        let reserved = |i: usize| IngestError::ReservedCharacter {
            origin: origin.clone(),
            at: at(i),
            column: column.to_string(),
        };
        // In a text input (CSV) a column of fractional numbers is what a typed input (Parquet,
        // Arrow) refuses as a floating-point column: refuse it the same way, at its first such
        // value, instead of making a group of every distinct number.
        let text_input = self.typing == Typing::Text;
        let fractional = |i: usize, name: &str| IngestError::FloatGroups {
            origin: origin.clone(),
            at: at(i),
            column: column.to_string(),
            value: name.to_string(),
        };
        let mut dict = self.groups[attribute].clone();
        // One hash lookup for a known name; the checks run once, when a name is new.
        let mut code_of = |name: &str, i: usize| -> Result<u32, IngestError> {
            if let Some(u) = &unknown {
                if u.is_unknown(name) {
                    return Ok(dict.code(UNKNOWN_GROUP));
                }
                if name == UNKNOWN_GROUP {
                    return Err(reserved_unknown(i, name));
                }
            } else if name.is_empty() && !missing_groups {
                // An empty value is a missing one (a CSV file cannot tell them apart), never
                // silently a group named "".
                return Err(missing(i));
            }
            if let Some(c) = dict.get(name) {
                return Ok(c);
            }
            if joined && name.contains(GROUP_SEPARATOR) {
                return Err(reserved(i));
            }
            if text_input
                && name
                    .trim()
                    .parse::<f64>()
                    .is_ok_and(|v| v.is_finite() && v.fract() != 0.0)
            {
                return Err(fractional(i, name));
            }
            Ok(dict.code(name))
        };
        let unsupported = |t: &DataType| IngestError::WrongType {
            origin: origin.clone(),
            column: column.to_string(),
            found: t.to_string(),
            what: "a sensitive column",
            expected: Role::Group.expected(),
        };
        if let Some(d) = arr.as_any_dictionary_opt() {
            // Each dictionary entry is mapped to a group on first use (an entry no row uses must
            // not become a group), then rows are mapped by key.
            let mut cells: Vec<Cell<'_>> = Vec::with_capacity(d.values().len());
            for_each_cell(
                d.values().as_ref(),
                &mut |_, c| {
                    cells.push(c);
                    Ok(())
                },
                &unsupported,
            )?;
            let mut mapped: Vec<Option<u32>> = vec![None; cells.len()];
            let key_nulls = d.keys().logical_nulls();
            for (i, k) in d.normalized_keys().into_iter().enumerate() {
                let cell = match cells.get(k) {
                    Some(c) if !key_nulls.as_ref().is_some_and(|n| n.is_null(i)) => *c,
                    _ => Cell::Null,
                };
                let code = match (mapped.get(k).copied().flatten(), cell) {
                    // A null row's key is no entry's: it must not map the entry at `k`.
                    (_, Cell::Null) if allow_missing => {
                        out.push(code_of("", i)?);
                        continue;
                    }
                    (_, Cell::Null) => return Err(missing(i)),
                    (Some(c), _) => c,
                    (None, Cell::Str(s)) => code_of(s, i)?,
                    (None, other) => code_of(&other.text(), i)?,
                };
                if let Some(m) = mapped.get_mut(k) {
                    *m = Some(code);
                }
                out.push(code);
            }
        } else {
            let mut cache: HashMap<CellKey, u32> = HashMap::new();
            let mut dense = DenseCodes::default();
            for_each_cell(
                arr,
                &mut |i, cell| {
                    let code = match cell {
                        Cell::Null if allow_missing => code_of("", i)?,
                        Cell::Null => return Err(missing(i)),
                        Cell::Str(s) => code_of(s, i)?,
                        other => {
                            if let Some(c) = dense.get(other) {
                                c
                            } else {
                                let key = other.key().expect("non-text, non-null cells have a key");
                                match cache.get(&key) {
                                    Some(&c) => c,
                                    None => {
                                        let c = code_of(&other.text(), i)?;
                                        cache.insert(key, c);
                                        dense.set(other, c);
                                        c
                                    }
                                }
                            }
                        }
                    };
                    out.push(code);
                    Ok(())
                },
                &unsupported,
            )?;
        }
        self.groups[attribute] = dict;
        Ok(())
    }

    fn decode_numbers(
        &self,
        arr: &dyn Array,
        column: &str,
        kind: Number,
        out: &mut Vec<f64>,
        at: &dyn Fn(usize) -> RowRef,
    ) -> Result<(), IngestError> {
        let (what, role, non_negative) = match kind {
            Number::Weight => ("the weight", "weight", true),
            Number::Score => ("the score", "score", false),
            Number::Target => ("the target", "target", false),
            Number::Prediction => ("the prediction", "prediction", false),
            Number::Probability => ("a membership probability", "membership probability", false),
            Number::Rank => ("the rank", "rank", false),
            // Negative relevance is refused by the ranking metrics, naming the row: here it
            // would read as a negative weight.
            Number::Relevance => ("the relevance", "relevance", false),
        };
        let problem = |p: NumberProblem, value: String, at: RowRef| {
            let origin = self.origin.clone();
            let column = column.to_string();
            match p {
                NumberProblem::NotNumeric => IngestError::NotNumeric {
                    origin,
                    at,
                    column,
                    value,
                    what,
                },
                NumberProblem::NonFinite(v) => IngestError::NonFinite {
                    origin,
                    at,
                    column,
                    value: v.to_string(),
                    what,
                },
                NumberProblem::Negative(value) => IngestError::NegativeWeight {
                    origin,
                    at,
                    column,
                    value,
                },
            }
        };
        let unsupported = self.unsupported(column, Role::Number, what);
        for_each_cell(
            arr,
            &mut |i, cell| {
                let v = match cell {
                    Cell::Null => return Err(self.missing(column, role, at(i))),
                    Cell::Str(s) if s.trim().is_empty() => {
                        return Err(self.missing(column, role, at(i)));
                    }
                    Cell::Str(s) => s
                        .trim()
                        .parse::<f64>()
                        .map_err(|_| problem(NumberProblem::NotNumeric, s.to_string(), at(i)))?,
                    other => match other.number() {
                        Some(v) => v,
                        None => return Err(self.missing(column, role, at(i))),
                    },
                };
                let v = if kind == Number::Probability {
                    v
                } else {
                    check_number(v, non_negative).map_err(|p| problem(p, cell.text(), at(i)))?
                };
                out.push(v);
                Ok(())
            },
            &unsupported,
        )
    }

    /// The finest group code of every row (the intersection of all sensitive columns).
    fn finest_codes(
        &mut self,
        sensitive: &[Vec<u32>],
        n: usize,
        at: &dyn Fn(usize) -> RowRef,
    ) -> Result<Vec<usize>, IngestError> {
        // A dense table over this batch's tuples of column codes (mixed radix by each column's
        // dictionary size, when it is small), filled from the hash map on first use: one hash
        // lookup per distinct tuple per batch instead of one per row.
        let sizes: Vec<usize> = self.groups.iter().map(|d| d.names().len()).collect();
        let cells = sizes
            .iter()
            .try_fold(1_usize, |acc, &k| acc.checked_mul(k.max(1)))
            .filter(|&c| c <= DENSE_TUPLES);
        let mut dense: Vec<u32> = vec![u32::MAX; cells.unwrap_or(0)];
        let mut key = vec![0_u32; sensitive.len()];
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let mut slot = 0_usize;
            for ((k, col), &size) in key.iter_mut().zip(sensitive).zip(&sizes) {
                *k = col[i];
                slot = slot * size.max(1) + *k as usize;
            }
            if let Some(&c) = dense.get(slot).filter(|&&c| c != u32::MAX) {
                out.push(c as usize);
                continue;
            }
            if let Some(&c) = self.finest_index.get(&key) {
                if let Some(d) = dense.get_mut(slot) {
                    *d = c;
                }
                out.push(c as usize);
                continue;
            }
            let parts: Vec<String> = key
                .iter()
                .zip(&self.groups)
                .map(|(&k, d)| d.names()[k as usize].clone())
                .collect();
            let name = parts.join(&GROUP_SEPARATOR.to_string());
            let c = match &self.frozen {
                Some(index) => *index.get(&name).ok_or_else(|| IngestError::UnknownGroup {
                    origin: self.origin.clone(),
                    at: at(i),
                    group: parts.join(" & "),
                })?,
                None => {
                    let c = self.finest_parts.len();
                    self.finest_parts.push(parts);
                    self.finest_names.push(name);
                    c
                }
            };
            self.finest_index.insert(key.clone(), c as u32);
            if let Some(d) = dense.get_mut(slot) {
                *d = c as u32;
            }
            out.push(c);
        }
        Ok(out)
    }
}

/// Whether a third value of the prediction column and the label pair read as a score: all are
/// numbers and not all integers (a score column named as the prediction).
fn looks_like_score(values: &[&str]) -> bool {
    let numbers: Vec<f64> = values
        .iter()
        .filter_map(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .collect();
    numbers.len() == values.len() && numbers.iter().any(|v| v.fract() != 0.0)
}

/// The "did you mean" of [`looks_like_score`], in the caller's flags (the Python audit has no
/// threshold: it needs the 0/1 prediction column).
fn score_hint(style: FlagStyle, column: &str) -> String {
    let (score, pred) = (style.flag("score"), style.flag("pred"));
    match style {
        FlagStyle::Command => format!(
            "; column '{column}' looks like a score (non-0/1 numbers): pass it with {score} and give --threshold, or name the 0/1 prediction column with {pred}"
        ),
        FlagStyle::Python => format!(
            "; column '{column}' looks like a score (non-0/1 numbers): pass it with {score} and name the 0/1 prediction column with {pred}"
        ),
    }
}

/// Group codes of integer, boolean and day cells by direct index (a window of
/// [`DenseCodes::SPAN`] values around the first one seen), so the common group columns — a
/// date's day, a model's 0/1 prediction, small integer codes — are coded without hashing each
/// row; values outside the window fall back to the hash map.
#[derive(Debug, Default)]
struct DenseCodes {
    /// The value at index 0 and the codes (`u32::MAX`: not seen yet).
    window: Option<(i64, Vec<u32>)>,
}

impl DenseCodes {
    const SPAN: i64 = 1 << 12;

    fn value(cell: Cell<'_>) -> Option<(u8, i64)> {
        match cell {
            Cell::Int(v) => Some((0, v)),
            Cell::Day(v) => Some((1, v)),
            Cell::Bool(b) => Some((2, i64::from(b))),
            Cell::UInt(v) => i64::try_from(v).ok().map(|v| (0, v)),
            _ => None,
        }
    }

    fn index(&self, v: i64) -> Option<usize> {
        let (base, _) = self.window.as_ref()?;
        let k = v.checked_sub(*base)?;
        (0..Self::SPAN).contains(&k).then_some(k as usize)
    }

    fn get(&self, cell: Cell<'_>) -> Option<u32> {
        // One column holds one kind of cell, so the kind need not be part of the index.
        let (_, v) = Self::value(cell)?;
        let k = self.index(v)?;
        let code = self.window.as_ref()?.1[k];
        (code != u32::MAX).then_some(code)
    }

    fn set(&mut self, cell: Cell<'_>, code: u32) {
        let Some((_, v)) = Self::value(cell) else {
            return;
        };
        if self.window.is_none() {
            let base = v.saturating_sub(Self::SPAN / 2);
            self.window = Some((base, vec![u32::MAX; Self::SPAN as usize]));
        }
        if let Some(k) = self.index(v)
            && let Some((_, codes)) = self.window.as_mut()
        {
            codes[k] = code;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::types::Int32Type;
    use arrow_array::{DictionaryArray, Int64Array};
    use std::sync::Arc;

    /// Unlabeled roles with missing groups: a null (plain or dictionary-encoded) is the group
    /// `""`, and a null row's dictionary key never renames the entry it points at.
    #[test]
    fn missing_groups_are_the_empty_group_without_a_label() {
        let roles = Roles::unlabeled(Some("s"), None, &["g"], None);
        let mut dec = Decoder::new(
            roles,
            LabelPair::new("1", Some("0")),
            "t",
            Typing::Typed,
            FlagStyle::Command,
        )
        .unwrap();
        // Keys: the null row's key slot holds 0 ("a"), as Arrow leaves it.
        let dict: DictionaryArray<Int32Type> = vec![Some("a"), None, Some("a"), Some("b")]
            .into_iter()
            .collect();
        let batch = RecordBatch::try_from_iter([
            ("s", Arc::new(Int64Array::from(vec![1, 0, 0, 1])) as _),
            ("g", Arc::new(dict) as _),
        ])
        .unwrap();
        let d = dec.decode(&batch, None).unwrap();
        assert!(d.labels.is_empty());
        assert_eq!(d.preds, Some(vec![1, 0, 0, 1]));
        let names: Vec<&str> = d
            .finest
            .iter()
            .map(|&c| dec.finest_names()[c].as_str())
            .collect();
        assert_eq!(names, ["a", "", "a", "b"]);
        let plain = RecordBatch::try_from_iter([
            ("s", Arc::new(Int64Array::from(vec![1])) as _),
            (
                "g",
                Arc::new(arrow_array::StringArray::from(vec![None::<&str>])) as _,
            ),
        ])
        .unwrap();
        let d = dec.decode(&plain, None).unwrap();
        assert_eq!(dec.finest_names()[d.finest[0]], "");
        // Without missing_groups a null is still an error naming the row.
        let mut strict = Decoder::new(
            Roles::new("s", None, None, &["g"], None),
            LabelPair::new("1", Some("0")),
            "t",
            Typing::Typed,
            FlagStyle::Command,
        )
        .unwrap();
        let e = strict.decode(&plain, None).unwrap_err().to_string();
        assert!(e.contains("row 1"), "{e}");
    }
}
