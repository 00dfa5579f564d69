//! Unknown sensitive values: a null, an empty value or a value listed as unknown
//! (`--unknown-values`) in a sensitive column. The decoder never drops such a row silently nor
//! makes it a group silently: the request says what happens ([`Unknowns`]), and the decoder
//! reuses the mechanism of [`Roles::missing_groups`](super::Roles::missing_groups) (a missing
//! value becomes one named category) with the name [`UNKNOWN_GROUP`].

use super::cells::is_text;
use arrow_schema::{DataType, Schema};

/// The group name every unknown sensitive value gets (`as-group`) or is counted under
/// (`exclude`). A sensitive value spelled this way in the data is refused unless it is listed as
/// unknown, so the name always means "unknown".
pub const UNKNOWN_GROUP: &str = "(unknown)";

/// What an audit does with a row whose sensitive value is unknown (`--unknowns`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unknowns {
    /// The unknowns of a column are a group of their own, named [`UNKNOWN_GROUP`] and flagged.
    AsGroup,
    /// The row is counted (rows and weight, per column) but kept out of every rate, gap and
    /// overall figure.
    Exclude,
    /// The first unknown value stops the audit, naming its row (the behaviour before the option
    /// existed, and the default: see docs/conventions.md).
    #[default]
    Error,
}

fair_core::string_enum!(Unknowns, "unknowns handling", {
    AsGroup => "as-group" | "as_group",
    Exclude => "exclude",
    Error => "error",
});

/// How a decoder reads unknown sensitive values (set with
/// [`Decoder::set_unknowns`](super::Decoder::set_unknowns)).
///
/// ```
/// use fair_audit::ingest::{UnknownGroups, Unknowns};
/// let u = UnknownGroups::new(Unknowns::Exclude, &["NA".to_string()], 0).unwrap();
/// assert!(u.is_unknown("NA") && u.is_unknown("") && !u.is_unknown("a"));
/// assert!(UnknownGroups::new(Unknowns::Error, &[], 0).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGroups {
    /// Values read as unknown besides a null and the empty value.
    pub values: Vec<String>,
    /// `exclude`: rows with an unknown value are set aside (counted, not audited).
    pub exclude: bool,
    /// Leading sensitive columns the setting does not apply to (a `--by` window or an
    /// `--against` prediction leading the finest groups: a null there is still an error).
    pub skip: usize,
}

impl UnknownGroups {
    /// The decoder setting of a request's handling; `None` for [`Unknowns::Error`] (nothing is
    /// read as a group then).
    pub fn new(handling: Unknowns, values: &[String], skip: usize) -> Option<Self> {
        match handling {
            Unknowns::Error => None,
            Unknowns::AsGroup | Unknowns::Exclude => Some(Self {
                values: values.to_vec(),
                exclude: handling == Unknowns::Exclude,
                skip,
            }),
        }
    }

    /// Whether a sensitive value (as text) is unknown: empty, or listed.
    pub fn is_unknown(&self, value: &str) -> bool {
        value.is_empty() || self.values.iter().any(|v| v == value)
    }

    /// Whether sensitive column `attribute` (in role order) is read with this setting.
    pub fn applies_to(&self, attribute: usize) -> bool {
        attribute >= self.skip
    }

    /// The first listed value none of `columns` can hold, judged by their types (text holds any
    /// value; integers, booleans and dates only their own spellings), with the columns and
    /// their types for the message. A text input (CSV) can hold any value.
    pub(crate) fn impossible<'a>(
        &'a self,
        schema: &Schema,
        columns: &[&str],
    ) -> Option<(&'a str, String)> {
        let types: Vec<(&str, &DataType)> = columns
            .iter()
            .filter_map(|c| schema.field_with_name(c).ok().map(|f| (*c, f.data_type())))
            .collect();
        let value = self
            .values
            .iter()
            .find(|v| !v.is_empty() && !types.iter().any(|(_, t)| can_hold(t, v)))?;
        let listed = types
            .iter()
            .map(|(c, t)| format!("'{c}' ({t})"))
            .collect::<Vec<_>>()
            .join(", ");
        Some((value, listed))
    }
}

/// Whether a sensitive column of type `t` can hold a value spelled `v`.
fn can_hold(t: &DataType, v: &str) -> bool {
    match t {
        DataType::Dictionary(_, inner) => can_hold(inner, v),
        t if is_text(t) => true,
        t if t.is_signed_integer() => v.parse::<i64>().is_ok(),
        t if t.is_unsigned_integer() => v.parse::<u64>().is_ok(),
        DataType::Boolean => v == "true" || v == "false",
        DataType::Date32 | DataType::Date64 | DataType::Timestamp(_, _) => {
            chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d").is_ok()
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::Field;

    #[test]
    fn listed_values_must_fit_some_column() {
        let u = UnknownGroups::new(Unknowns::AsGroup, &["99".into(), "NA".into()], 0).unwrap();
        let ints = Schema::new(vec![Field::new("age", DataType::Int64, true)]);
        let (v, cols) = u.impossible(&ints, &["age"]).unwrap();
        assert_eq!((v, cols.as_str()), ("NA", "'age' (Int64)"));
        let both = Schema::new(vec![
            Field::new("age", DataType::Int64, true),
            Field::new("sex", DataType::Utf8, true),
        ]);
        assert!(u.impossible(&both, &["age", "sex"]).is_none());
        let flags = Schema::new(vec![Field::new("f", DataType::Boolean, true)]);
        let u = UnknownGroups::new(Unknowns::Exclude, &["true".into()], 0).unwrap();
        assert!(u.impossible(&flags, &["f"]).is_none());
        assert_eq!("as_group".parse::<Unknowns>().unwrap(), Unknowns::AsGroup);
        assert!("drop".parse::<Unknowns>().is_err());
    }
}

/// The mergeable state with unknowns: parts decoded apart and merged equal one pass, byte for
/// byte, and the encoding round-trips (as the Spark partitions rely on).
#[cfg(test)]
mod merge_tests {
    use super::super::{AuditState, Decoder, FlagStyle, LabelPair, Roles, Typing};
    use super::*;
    use arrow_array::{Float64Array, Int64Array, RecordBatch, StringArray};
    use proptest::prelude::*;
    use std::sync::Arc;

    type Row = (i64, i64, Option<&'static str>, Option<&'static str>, f64);

    fn state(rows: &[Row], handling: Unknowns, weighted: bool) -> AuditState {
        try_state(rows, handling, weighted).unwrap()
    }

    fn try_state(
        rows: &[Row],
        handling: Unknowns,
        weighted: bool,
    ) -> Result<AuditState, super::super::IngestError> {
        let w = if weighted { Some("w") } else { None };
        let roles = Roles::new("y", Some("p"), None, &["g", "h"], w);
        let mut dec = Decoder::new(
            roles,
            LabelPair::new("1", Some("0")),
            "t",
            Typing::Typed,
            FlagStyle::Command,
        )
        .unwrap();
        dec.set_unknowns(UnknownGroups::new(handling, &["NA".into()], 0));
        let mut s = AuditState::new("1", 1);
        if rows.is_empty() {
            return Ok(s);
        }
        let batch = RecordBatch::try_from_iter([
            (
                "y",
                Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.0))) as _,
            ),
            (
                "p",
                Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.1))) as _,
            ),
            (
                "g",
                Arc::new(StringArray::from_iter(rows.iter().map(|r| r.2))) as _,
            ),
            (
                "h",
                Arc::new(StringArray::from_iter(rows.iter().map(|r| r.3))) as _,
            ),
            (
                "w",
                Arc::new(Float64Array::from_iter_values(rows.iter().map(|r| r.4))) as _,
            ),
        ])
        .unwrap();
        s.add(&dec.decode(&batch, None)?, &dec, &[])?;
        Ok(s)
    }

    fn row() -> impl Strategy<Value = Row> {
        (
            0..2_i64,
            0..2_i64,
            prop::sample::select(vec![Some("a"), Some("b"), None, Some("NA"), Some("")]),
            prop::sample::select(vec![Some("x"), Some("y"), None]),
            prop::sample::select(vec![0.1, 0.25, 1.0, 3.0]),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn merged_parts_equal_one_pass(
            rows in prop::collection::vec(row(), 0..40),
            cuts in prop::collection::vec(0..40_usize, 0..4),
            exclude in any::<bool>(),
            weighted in any::<bool>(),
        ) {
            let handling = if exclude { Unknowns::Exclude } else { Unknowns::AsGroup };
            let whole = state(&rows, handling, weighted);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(rows.len())).collect();
            cuts.push(0);
            cuts.push(rows.len());
            cuts.sort_unstable();
            let mut merged = AuditState::new("1", 1);
            // Merged in reverse order: the merge is commutative too.
            for w in cuts.windows(2).rev() {
                let part = state(&rows[w[0]..w[1]], handling, weighted);
                let part = AuditState::from_bytes(&part.to_bytes()).unwrap();
                merged.merge(&part, FlagStyle::Command).unwrap();
            }
            prop_assert_eq!(merged.to_bytes(), whole.to_bytes());
            let unknown = |r: &Row| matches!(r.2, None | Some("NA") | Some("")) || r.3.is_none();
            let n_unknown = rows.iter().filter(|r| unknown(r)).count() as u64;
            if exclude {
                // The rows kept are audited as if the others were not there.
                let kept: Vec<Row> = rows.iter().copied().filter(|r| !unknown(r)).collect();
                let alone = state(&kept, Unknowns::Error, weighted);
                prop_assert_eq!(&whole.finest()[0], &alone.finest()[0]);
                prop_assert_eq!(whole.set_aside().total_rows(), n_unknown);
            } else {
                prop_assert_eq!(whole.total_rows(), rows.len() as u64);
                prop_assert!(whole.set_aside().is_empty());
            }
            let report = crate::unknowns::count(handling, &["NA".into()], &whole, &["g".into(), "h".into()]);
            prop_assert_eq!(report.slices[2].rows, n_unknown);
            let g = rows.iter().filter(|r| matches!(r.2, None | Some("NA") | Some(""))).count() as u64;
            prop_assert_eq!(report.columns[0].rows, g);
        }
    }

    #[test]
    fn a_literal_unknown_name_and_an_empty_value() {
        let rows: Vec<Row> = vec![(1, 1, Some("(unknown)"), Some("x"), 1.0)];
        let e = try_state(&rows, Unknowns::AsGroup, false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("'(unknown)'") && e.contains("--unknown-values"),
            "{e}"
        );
        // Without the option an empty value is an error naming the option, never a group "".
        let roles = Roles::new("y", Some("p"), None, &["g"], None);
        let mut dec = Decoder::new(
            roles,
            LabelPair::new("1", Some("0")),
            "t",
            Typing::Typed,
            FlagStyle::Python,
        )
        .unwrap();
        let batch = RecordBatch::try_from_iter([
            ("y", Arc::new(Int64Array::from(vec![1])) as _),
            ("p", Arc::new(Int64Array::from(vec![1])) as _),
            ("g", Arc::new(StringArray::from(vec![""])) as _),
        ])
        .unwrap();
        let e = dec.decode(&batch, None).unwrap_err().to_string();
        assert!(
            e.contains("row 1") && e.contains("unknowns= as-group"),
            "{e}"
        );
    }
}
