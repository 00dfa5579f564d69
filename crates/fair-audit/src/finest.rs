//! Slices derived from the finest groups: a front end that keys its states by the intersection
//! of all sensitive columns (the Spark audit does, so that one state and one score sweep serve
//! every slice) gets each column's state and score map from it, exactly.

use crate::compute::{SliceDef, slice_map};
use crate::error::AuditError;
use fair_metrics::score_sweep::SliceMap;
use fair_metrics::state::ConfusionState;
use std::collections::HashMap;

/// The finest groups of an audit: each one's value in every sensitive column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinestGroups {
    /// Per finest group (in the order of the names given), its value in each column.
    parts: Vec<Vec<String>>,
    /// Finest group index by its joined name.
    index: HashMap<String, usize>,
}

impl FinestGroups {
    /// Parses finest group names, each the values of the `n_columns` sensitive columns joined
    /// by `separator`.
    ///
    /// # Errors
    /// [`AuditError::Input`] for no columns, a name with another number of parts, or a repeated
    /// name.
    ///
    /// # Example
    /// ```
    /// use fair_audit::finest::FinestGroups;
    /// let f = FinestGroups::parse(&["a\u{1f}x".into(), "b\u{1f}x".into()], 2, '\u{1f}')?;
    /// assert_eq!(f.len(), 2);
    /// # Ok::<(), fair_audit::AuditError>(())
    /// ```
    pub fn parse(names: &[String], n_columns: usize, separator: char) -> Result<Self, AuditError> {
        if n_columns == 0 {
            return Err(AuditError::Input {
                name: "sensitive columns",
                reason: "at least one sensitive column is needed".into(),
            });
        }
        let mut parts = Vec::with_capacity(names.len());
        let mut index = HashMap::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            let p: Vec<String> = if n_columns == 1 {
                vec![name.clone()]
            } else {
                name.split(separator).map(str::to_string).collect()
            };
            if p.len() != n_columns {
                return Err(AuditError::Input {
                    name: "finest group names",
                    reason: format!(
                        "group {name:?} has {} parts, expected one per sensitive column ({n_columns})",
                        p.len()
                    ),
                });
            }
            if index.insert(name.clone(), i).is_some() {
                return Err(AuditError::Input {
                    name: "finest group names",
                    reason: format!("group {name:?} appears twice"),
                });
            }
            parts.push(p);
        }
        Ok(Self { parts, index })
    }

    /// Number of finest groups.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The name a finest group has in `slice`: its values in the slice's columns joined by
    /// " & " (as the `fairkit audit` command names them).
    fn label(&self, finest: usize, slice: &SliceDef) -> String {
        slice
            .attributes
            .iter()
            .map(|&a| self.parts[finest][a].as_str())
            .collect::<Vec<_>>()
            .join(" & ")
    }

    /// `slice`'s state from the finest groups' state (keyed by the joined names given to
    /// [`parse`](Self::parse)).
    ///
    /// # Errors
    /// [`AuditError::Input`] when the state holds a group not among the finest groups.
    pub fn slice_state(
        &self,
        slice: &SliceDef,
        finest: &ConfusionState,
    ) -> Result<ConfusionState, AuditError> {
        if let Some(unknown) = finest
            .group_names()
            .into_iter()
            .find(|n| !self.index.contains_key(n))
        {
            return Err(AuditError::Input {
                name: "confusion state",
                reason: format!("group {unknown:?} is not among the finest groups"),
            });
        }
        Ok(finest.regroup(|name| {
            self.index
                .get(name)
                .map_or_else(|| name.to_string(), |&i| self.label(i, slice))
        }))
    }

    /// The score sweep's map of `slice` (finest group index → slice group, names sorted).
    pub fn slice_map(&self, slice: &SliceDef) -> SliceMap {
        slice_map(slice, &self.parts)
    }
}
