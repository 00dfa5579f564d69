//! Reading the cells of an Arrow column whatever its type (integers, floats, booleans, text of
//! any offset width, dictionaries of those), and which types each role of a column accepts.

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_schema::{DataType, TimeUnit};

/// What a column is used for, which decides the Arrow types it may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Label or prediction: any two values.
    Label,
    /// Sensitive attribute: text, integers or booleans.
    Group,
    /// Score or weight: numbers (text too when the input is text, as a CSV file is).
    Number,
}

/// Whether a type is text (any offset width or view layout).
pub(crate) fn is_text(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

impl Role {
    /// Whether a column of type `t` can play this role; `text_numbers` lets text columns hold
    /// numbers (a CSV file, where every column is text).
    pub(crate) fn accepts(self, t: &DataType, text_numbers: bool) -> bool {
        let int = t.is_integer();
        let float = matches!(t, DataType::Float32 | DataType::Float64);
        let text = is_text(t);
        let boolean = matches!(t, DataType::Boolean);
        match self {
            Role::Number => int || float || (text && text_numbers),
            Role::Label => match t {
                DataType::Dictionary(_, v) => Role::Label.accepts(v, text_numbers),
                _ => int || float || text || boolean,
            },
            Role::Group => match t {
                DataType::Dictionary(_, v) => Role::Group.accepts(v, text_numbers),
                DataType::Date32 | DataType::Date64 | DataType::Timestamp(_, _) => true,
                _ => int || text || boolean,
            },
        }
    }

    pub(crate) fn expected(self) -> &'static str {
        match self {
            Role::Label => "boolean, integer, floating-point or text (two distinct values)",
            Role::Group => {
                "text, integer, boolean, date or timestamp (floating-point values make poor group names)"
            }
            Role::Number => "integer or floating-point",
        }
    }
}

/// One cell of a supported Arrow type, borrowed from its array.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cell<'a> {
    Null,
    Str(&'a str),
    Int(i64),
    UInt(u64),
    Float(f64),
    Bool(bool),
    /// A date or timestamp, as its (UTC) day: days since 1970-01-01.
    Day(i64),
}

/// A hashable key for the non-text cells, so their text form is built once per distinct value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum CellKey {
    Int(i64),
    UInt(u64),
    Float(u64),
    Bool(bool),
    Day(i64),
}

impl Cell<'_> {
    pub(crate) fn key(self) -> Option<CellKey> {
        match self {
            Cell::Int(v) => Some(CellKey::Int(v)),
            Cell::UInt(v) => Some(CellKey::UInt(v)),
            Cell::Float(v) => Some(CellKey::Float(v.to_bits())),
            Cell::Bool(v) => Some(CellKey::Bool(v)),
            Cell::Day(v) => Some(CellKey::Day(v)),
            Cell::Null | Cell::Str(_) => None,
        }
    }

    pub(crate) fn text(self) -> String {
        match self {
            Cell::Null => String::new(),
            Cell::Str(s) => s.to_string(),
            Cell::Int(v) => v.to_string(),
            Cell::UInt(v) => v.to_string(),
            Cell::Float(v) => v.to_string(),
            Cell::Bool(v) => v.to_string(),
            // ISO 8601 ("2026-11-27"); a day outside chrono's range keeps its number.
            Cell::Day(d) => i32::try_from(d)
                .ok()
                .and_then(arrow_array::temporal_conversions::date32_to_datetime)
                .map_or_else(|| format!("day {d}"), |t| t.date().to_string()),
        }
    }

    pub(crate) fn number(self) -> Option<f64> {
        match self {
            Cell::Int(v) => Some(v as f64),
            Cell::UInt(v) => Some(v as f64),
            Cell::Float(v) => Some(v),
            _ => None,
        }
    }
}

macro_rules! primitive_cells {
    ($arr:expr, $ty:ty, $variant:ident, $cast:ty, $f:expr) => {{
        let a = $arr.as_primitive::<$ty>();
        for (i, v) in a.values().iter().enumerate() {
            let cell = if a.is_null(i) {
                Cell::Null
            } else {
                Cell::$variant(*v as $cast)
            };
            $f(i, cell)?;
        }
    }};
}

/// `f(row, cell)` for every row of a boolean or string array (any offset width or view
/// layout), each value wrapped in the `Cell` variant named.
macro_rules! value_cells {
    ($a:expr, $variant:ident, $f:ident) => {{
        let a = $a;
        for i in 0..a.len() {
            let cell = if a.is_null(i) {
                Cell::Null
            } else {
                Cell::$variant(a.value(i))
            };
            $f(i, cell)?;
        }
    }};
}

/// `f(row, Cell::Day)` for each value (`per_day` units a day; floor, so instants before 1970
/// fall on their own day), `Cell::Null` for a null.
fn day_cells<'a, E, F>(
    values: impl Iterator<Item = Option<i64>>,
    per_day: i64,
    f: &mut F,
) -> Result<(), E>
where
    F: FnMut(usize, Cell<'a>) -> Result<(), E> + ?Sized,
{
    for (i, v) in values.enumerate() {
        f(
            i,
            v.map_or(Cell::Null, |v| Cell::Day(v.div_euclid(per_day))),
        )?;
    }
    Ok(())
}

/// Calls `f(row_in_batch, cell)` for every row of `arr` (a type accepted by some [`Role`]).
pub(crate) fn for_each_cell<'a, E, F>(
    arr: &'a dyn Array,
    f: &mut F,
    unsupported: &dyn Fn(&DataType) -> E,
) -> Result<(), E>
where
    F: FnMut(usize, Cell<'a>) -> Result<(), E> + ?Sized,
{
    match arr.data_type() {
        DataType::Boolean => value_cells!(arr.as_boolean(), Bool, f),
        DataType::Int8 => primitive_cells!(arr, Int8Type, Int, i64, f),
        DataType::Int16 => primitive_cells!(arr, Int16Type, Int, i64, f),
        DataType::Int32 => primitive_cells!(arr, Int32Type, Int, i64, f),
        DataType::Int64 => primitive_cells!(arr, Int64Type, Int, i64, f),
        DataType::UInt8 => primitive_cells!(arr, UInt8Type, UInt, u64, f),
        DataType::UInt16 => primitive_cells!(arr, UInt16Type, UInt, u64, f),
        DataType::UInt32 => primitive_cells!(arr, UInt32Type, UInt, u64, f),
        DataType::UInt64 => primitive_cells!(arr, UInt64Type, UInt, u64, f),
        DataType::Float32 => primitive_cells!(arr, Float32Type, Float, f64, f),
        DataType::Float64 => primitive_cells!(arr, Float64Type, Float, f64, f),
        DataType::Date32 => primitive_cells!(arr, Date32Type, Day, i64, f),
        DataType::Date64 => day_cells(arr.as_primitive::<Date64Type>().iter(), 86_400_000, f)?,
        DataType::Timestamp(unit, _) => {
            // Timestamps group by their UTC day (the time zone only changes how they print).
            let per_day: i64 = match unit {
                TimeUnit::Second => 86_400,
                TimeUnit::Millisecond => 86_400_000,
                TimeUnit::Microsecond => 86_400_000_000,
                TimeUnit::Nanosecond => 86_400_000_000_000,
            };
            match unit {
                TimeUnit::Second => {
                    day_cells(arr.as_primitive::<TimestampSecondType>().iter(), per_day, f)?
                }
                TimeUnit::Millisecond => day_cells(
                    arr.as_primitive::<TimestampMillisecondType>().iter(),
                    per_day,
                    f,
                )?,
                TimeUnit::Microsecond => day_cells(
                    arr.as_primitive::<TimestampMicrosecondType>().iter(),
                    per_day,
                    f,
                )?,
                TimeUnit::Nanosecond => day_cells(
                    arr.as_primitive::<TimestampNanosecondType>().iter(),
                    per_day,
                    f,
                )?,
            }
        }
        DataType::Utf8 => value_cells!(arr.as_string::<i32>(), Str, f),
        DataType::LargeUtf8 => value_cells!(arr.as_string::<i64>(), Str, f),
        DataType::Utf8View => value_cells!(arr.as_string_view(), Str, f),
        DataType::Dictionary(_, _) => {
            let Some(d) = arr.as_any_dictionary_opt() else {
                return Err(unsupported(arr.data_type()));
            };
            // Decode each dictionary entry once, then index by key.
            let mut values: Vec<Cell<'a>> = Vec::with_capacity(d.values().len());
            // Through `dyn`, so the recursion instantiates one more function, not one per level.
            let push: &mut dyn FnMut(usize, Cell<'a>) -> Result<(), E> = &mut |_, c| {
                values.push(c);
                Ok(())
            };
            for_each_cell(d.values().as_ref(), push, unsupported)?;
            let keys = d.normalized_keys();
            let key_nulls = d.keys().logical_nulls();
            for (i, &k) in keys.iter().enumerate() {
                let null = key_nulls.as_ref().is_some_and(|n| n.is_null(i));
                let cell = if null {
                    Cell::Null
                } else {
                    values.get(k).copied().unwrap_or(Cell::Null)
                };
                f(i, cell)?;
            }
        }
        // Types are checked against the role before any row is decoded; this is a safety net.
        other => return Err(unsupported(other)),
    }
    Ok(())
}
