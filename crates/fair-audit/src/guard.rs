//! The group guard: before any costly stage, refuse a sensitive column that cannot be a group
//! attribute — a single value (there is no gap to measure), more distinct values than a limit
//! (the cost of the gaps and the size of the report grow with the groups), or, under the default
//! limit, a value on nearly every row (an identifier, or a continuous number passed by mistake).
//! Every front end calls it with the same limits, so the same data is refused the same way.

use crate::compute::SliceDef;
use crate::error::AuditError;
use crate::ingest::FlagStyle;
use fair_metrics::state::ConfusionState;

/// The default largest number of groups of one slice (`--max-groups`).
pub const DEFAULT_MAX_GROUPS: usize = 1000;

/// With the default limit, a column of at least this many groups, most of them a single row,
/// is refused as an identifier or a continuous value.
pub const SINGLETON_MIN_GROUPS: usize = 20;

/// The limits on the groups of an audit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupLimits {
    /// The largest number of groups any slice may have.
    pub max_groups: usize,
    /// Whether the limit was chosen by the user: then a column with a value per row is audited
    /// as asked (the identifier check only guards the default).
    pub max_groups_given: bool,
    /// Whether a column with a single value is audited (its rates, no gaps) instead of refused.
    pub allow_single_group: bool,
}

impl Default for GroupLimits {
    /// [`DEFAULT_MAX_GROUPS`], not chosen by the user, a single group refused.
    fn default() -> Self {
        Self {
            max_groups: DEFAULT_MAX_GROUPS,
            max_groups_given: false,
            allow_single_group: false,
        }
    }
}

/// Checks every slice's groups against `limits`; `style` spells the settings in messages.
///
/// # Errors
/// [`AuditError::Groups`] naming the column, its number of groups and the setting that allows
/// it.
///
/// # Example
/// ```
/// use fair_audit::guard::{GroupLimits, check_groups};
/// use fair_audit::{SliceDef, ingest::FlagStyle};
/// use fair_data::Groups;
/// use fair_metrics::state::ConfusionState;
///
/// let mut one = ConfusionState::new();
/// one.update(&[1, 0], &[1, 1], &Groups::from_labels(&["F", "F"]), None)?;
/// let slices = SliceDef::all(&["sex".to_string()]);
/// let err = check_groups(&slices, &[one.clone()], &GroupLimits::default(), FlagStyle::Command);
/// assert!(err.unwrap_err().to_string().contains("--allow-single-group"));
/// let allow = GroupLimits { allow_single_group: true, ..GroupLimits::default() };
/// assert!(check_groups(&slices, &[one], &allow, FlagStyle::Command).is_ok());
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn check_groups(
    slices: &[SliceDef],
    states: &[ConfusionState],
    limits: &GroupLimits,
    style: FlagStyle,
) -> Result<(), AuditError> {
    let rows: Vec<Vec<(String, u64)>> = states
        .iter()
        .map(|state| {
            state
                .group_names()
                .into_iter()
                .map(|n| {
                    let r = state.rows(&n).unwrap_or(0);
                    (n, r)
                })
                .collect()
        })
        .collect();
    check_group_rows(slices, &rows, limits, style)
}

/// [`check_groups`] from each slice's groups and their rows (any audit's states: a regression
/// audit's sums give them too).
///
/// # Errors
/// As [`check_groups`].
pub fn check_group_rows(
    slices: &[SliceDef],
    groups_of: &[Vec<(String, u64)>],
    limits: &GroupLimits,
    style: FlagStyle,
) -> Result<(), AuditError> {
    let max_flag = style.flag("max_groups");
    for (slice, named) in slices.iter().zip(groups_of) {
        let groups = named.len();
        let rows: u64 = named.iter().map(|g| g.1).sum();
        let what = if slice.attributes.len() == 1 {
            format!("the sensitive column {:?}", slice.name)
        } else {
            format!("the intersection {:?}", slice.name)
        };
        if groups == 1 && !limits.allow_single_group {
            return Err(AuditError::Groups(format!(
                "{what} has a single value, {:?}, on all {rows} rows: a fairness audit compares groups, so there is no gap to measure; check the column (a filter upstream may have kept one group), or pass {} to report its rates without gaps",
                named[0].0,
                style.flag("allow_single_group"),
            )));
        }
        if groups > limits.max_groups {
            return Err(AuditError::Groups(format!(
                "{what} has {groups} distinct values among {rows} rows, more than the limit of {} groups: bucket it into fewer groups (e.g. age bands), check it is the column you meant, or pass {max_flag} {groups} to audit every value as a group",
                limits.max_groups,
            )));
        }
        if !limits.max_groups_given && groups >= SINGLETON_MIN_GROUPS {
            let single = named.iter().filter(|g| g.1 == 1).count();
            if 2 * single > groups {
                return Err(AuditError::Groups(format!(
                    "{what} has {groups} distinct values among {rows} rows, {single} of them on a single row: it looks like an identifier or a continuous number, not a group attribute; bucket it into groups (e.g. age bands), or pass {max_flag} {groups} to audit every value as a group",
                )));
            }
        }
    }
    Ok(())
}
