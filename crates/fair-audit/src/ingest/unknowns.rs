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
        let value = self.values.iter().find(|v| {
            !v.is_empty() && !types.iter().any(|(_, t)| can_hold(t, v))
        })?;
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
