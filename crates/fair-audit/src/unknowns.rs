//! The report's account of unknown sensitive values (`--unknowns`, `--unknown-values`): how
//! many rows (and how much weight) had an unknown value in each sensitive column and in each
//! slice, what was done with them, and which groups of the report are made of them.
//!
//! The counts come from the merged [`AuditState`]: with `as-group` from its finest groups with a
//! value named [`UNKNOWN_GROUP`], with `exclude` from the rows it set aside. The state merges
//! exactly, so the counts are the same on one machine, in a stream and on a cluster.

use crate::compute::SliceDef;
use crate::ingest::{AuditState, GROUP_SEPARATOR, UNKNOWN_GROUP, Unknowns};
use fair_metrics::state::ConfusionState;
use fair_report::{HtmlReport, Table};
use serde::{Deserialize, Serialize};

/// Rows (and weight) with an unknown value in a column, or in any column of a slice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnknownCount {
    /// The sensitive column, or the slice ("race & sex").
    pub name: String,
    /// Rows with an unknown value.
    pub rows: u64,
    /// Their summed weight (null when unweighted).
    pub weight: Option<f64>,
    /// `as-group`: the slice's groups made of unknown values (named with [`UNKNOWN_GROUP`]);
    /// empty for a column count and with `exclude`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

/// The report's `unknowns` section (always written by [`run`](crate::run)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnknownsReport {
    /// "as-group", "exclude" or "error".
    pub handling: String,
    /// Values counted as unknown besides a null and an empty value.
    pub values: Vec<String>,
    /// The name of the unknown groups with `as-group` (null otherwise).
    pub group: Option<String>,
    /// Per sensitive column: rows with an unknown value there.
    pub columns: Vec<UnknownCount>,
    /// Per slice: rows with an unknown value in any of the slice's columns.
    pub slices: Vec<UnknownCount>,
    /// Rows kept out of every rate, gap and overall figure (`exclude`: unknown in any column;
    /// 0 otherwise). `input.rows` counts them; the audited rows are `input.rows` minus these.
    pub excluded_rows: u64,
    /// Their summed weight (null when unweighted).
    pub excluded_weight: Option<f64>,
    /// What was done, in a sentence.
    pub note: String,
}

/// The `unknowns` section of an audit of `state` (its finest groups the `sensitive` columns'
/// values, no `--by` value leading).
///
/// ```
/// use fair_audit::ingest::{AuditState, Unknowns};
/// use fair_audit::unknowns::count;
/// let state = AuditState::new("1", 1);
/// let u = count(Unknowns::Error, &[], &state, &["race".to_string()]);
/// assert_eq!((u.columns[0].rows, u.excluded_rows), (0, 0));
/// ```
pub fn count(
    handling: Unknowns,
    values: &[String],
    state: &AuditState,
    sensitive: &[String],
) -> UnknownsReport {
    let source: &ConfusionState = match handling {
        Unknowns::Exclude => state.set_aside(),
        _ => &state.finest()[0],
    };
    count_groups(
        handling,
        values,
        groups_of(source),
        state.total_rows(),
        sensitive,
    )
}

/// `(group, rows, weight)` of every group of a state (the weight null when unweighted).
pub fn groups_of(source: &ConfusionState) -> Vec<(String, u64, Option<f64>)> {
    let weighted = source.is_weighted();
    source
        .group_names()
        .into_iter()
        .map(|name| {
            let rows = source.rows(&name).unwrap_or(0);
            let weight = source
                .cell_sums(&name)
                .map(|s| s.0[15])
                .filter(|_| weighted);
            (name, rows, weight)
        })
        .collect()
}

/// [`count`] from `(finest group, rows, weight)` triples (a regression audit's sums) and the
/// number of rows audited.
pub fn count_groups(
    handling: Unknowns,
    values: &[String],
    groups: Vec<(String, u64, Option<f64>)>,
    audited_rows: u64,
    sensitive: &[String],
) -> UnknownsReport {
    let weighted = groups.iter().any(|g| g.2.is_some());
    // (unknown in each column, name, rows, weight) per group with an unknown value.
    let groups: Vec<(Vec<bool>, String, u64, f64)> = groups
        .into_iter()
        .filter_map(|(name, rows, weight)| {
            let unknown: Vec<bool> = name
                .split(GROUP_SEPARATOR)
                .map(|p| p == UNKNOWN_GROUP)
                .collect();
            if unknown.len() != sensitive.len() || !unknown.contains(&true) {
                return None;
            }
            Some((unknown, name, rows, weight.unwrap_or(0.0)))
        })
        .collect();
    let tally = |name: String, columns: &[usize], list_groups: bool| {
        let mut rows = 0_u64;
        let mut weight = 0.0;
        let mut names = std::collections::BTreeSet::new();
        for (unknown, group, r, w) in &groups {
            if columns.iter().any(|&c| unknown[c]) {
                rows += r;
                weight += w;
                if list_groups {
                    let parts: Vec<&str> = group.split(GROUP_SEPARATOR).collect();
                    names.insert(
                        columns
                            .iter()
                            .map(|&c| parts[c])
                            .collect::<Vec<_>>()
                            .join(" & "),
                    );
                }
            }
        }
        UnknownCount {
            name,
            rows,
            weight: weighted.then_some(weight),
            groups: names.into_iter().collect(),
        }
    };
    let as_group = handling == Unknowns::AsGroup;
    let columns = sensitive
        .iter()
        .enumerate()
        .map(|(i, c)| tally(c.clone(), &[i], false))
        .collect();
    let slices: Vec<UnknownCount> = SliceDef::all(sensitive)
        .into_iter()
        .map(|s| tally(s.name, &s.attributes, as_group))
        .collect();
    let all: Vec<usize> = (0..sensitive.len()).collect();
    let any = tally(String::new(), &all, false);
    let listed = if values.is_empty() {
        String::new()
    } else {
        format!(
            " or one of {}",
            values
                .iter()
                .map(|v| format!("'{v}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let note = match handling {
        Unknowns::AsGroup => format!(
            "A null or empty sensitive value{listed} is the group '{UNKNOWN_GROUP}' of its column (flagged below each slice); {} rows have one. Its rates are the rates of rows whose value is not known, not of any one group.",
            any.rows
        ),
        Unknowns::Exclude => format!(
            "{} rows with a null or empty sensitive value{listed} in any sensitive column are counted here and kept out of every rate, gap and overall figure of this report; the audited rows are the {} others.",
            any.rows, audited_rows
        ),
        Unknowns::Error => {
            "A null or empty sensitive value stops the audit (unknowns: error), so every row audited has known values.".to_string()
        }
    };
    let excluded = handling == Unknowns::Exclude;
    UnknownsReport {
        handling: handling.to_string(),
        values: values.to_vec(),
        group: as_group.then(|| UNKNOWN_GROUP.to_string()),
        columns,
        slices,
        excluded_rows: if excluded { any.rows } else { 0 },
        excluded_weight: any.weight.map(|w| if excluded { w } else { 0.0 }),
        note,
    }
}

/// The report section of the md and HTML views: the note and the counts per column and slice
/// (nothing when the handling is `error`, where every count is 0).
pub fn section(doc: &mut HtmlReport, u: &UnknownsReport) {
    if u.handling == Unknowns::Error.as_str() {
        return;
    }
    doc.heading("Unknown sensitive values");
    doc.paragraph(&u.note);
    let weighted = u.columns.iter().any(|c| c.weight.is_some());
    let mut head = vec!["slice", "rows with an unknown value"];
    if weighted {
        head.push("weight");
    }
    if u.group.is_some() {
        head.push("unknown groups (flagged)");
    }
    let mut t = Table::new(&head);
    // The slices: each column (its count is the column's), then their intersection.
    for c in &u.slices {
        let mut row = vec![c.name.clone(), c.rows.to_string()];
        if weighted {
            row.push(c.weight.map_or(String::new(), |w| format!("{w}")));
        }
        if u.group.is_some() {
            row.push(c.groups.join(", "));
        }
        t.text_row(row);
    }
    doc.table(&t);
}
