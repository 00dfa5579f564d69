//! Group membership: one code per row plus one name per group.

use std::collections::BTreeMap;
use thiserror::Error;

/// Why a [`Groups`] could not be built. `fair-data` converts each variant into the
/// `DataError` variant of the same name and message.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GroupsError {
    /// Two inputs that must describe the same rows have different lengths.
    #[error("length mismatch for {what}: expected {expected}, got {got}")]
    LengthMismatch {
        /// Which input is too short or too long.
        what: &'static str,
        /// The length implied by the other inputs.
        expected: usize,
        /// The length that was passed.
        got: usize,
    },
    /// A group code refers to a group that was not declared.
    #[error(
        "group code {code} at row {row} is out of range: only {n_groups} group names were given"
    )]
    GroupCodeOutOfRange {
        /// Row index (0-based).
        row: usize,
        /// The code found.
        code: usize,
        /// Number of declared groups.
        n_groups: usize,
    },
    /// An input that must have rows has none.
    #[error("{what} is empty: at least one row is needed")]
    Empty {
        /// Which input is empty.
        what: &'static str,
    },
    /// A parameter is outside its valid range.
    #[error("invalid parameter {name} = {value}: expected {expected}")]
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// The value passed, formatted.
        value: String,
        /// The valid range, in words.
        expected: &'static str,
    },
}

type Result<T> = std::result::Result<T, GroupsError>;

/// Group membership of every row: a code in `0..n_groups()` per row and a name per group.
///
/// Constructed valid (every code names a declared group), so metrics can index freely. A
/// declared group may have no rows in a given subset (after a split, say); metrics report that
/// as a typed error, and [`Groups::compact`] drops such groups.
///
/// # Examples
/// ```
/// use fair_core::Groups;
/// let g = Groups::from_labels(&["b", "a", "b"]);
/// assert_eq!(g.names(), &["a".to_string(), "b".to_string()]);
/// assert_eq!(g.codes(), &[1, 0, 1]);
/// assert_eq!(g.counts(), vec![1, 2]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Groups {
    codes: Vec<usize>,
    names: Vec<String>,
}

impl Groups {
    /// Builds groups from codes and names.
    ///
    /// # Errors
    /// [`GroupsError::GroupCodeOutOfRange`] when a code is `>= names.len()`, and
    /// [`GroupsError::Empty`] when no group name is given.
    pub fn new(codes: Vec<usize>, names: Vec<String>) -> Result<Self> {
        if names.is_empty() {
            return Err(GroupsError::Empty {
                what: "group names",
            });
        }
        if let Some((row, &code)) = codes.iter().enumerate().find(|(_, c)| **c >= names.len()) {
            return Err(GroupsError::GroupCodeOutOfRange {
                row,
                code,
                n_groups: names.len(),
            });
        }
        Ok(Self { codes, names })
    }

    /// Builds groups from integer ids alone: one group per **distinct** id, in increasing order,
    /// named by the id (`"0"`, `"7"`, `"1000000"`, …).
    ///
    /// Ids need not be dense: raw ids such as 1,000,000, 2^40 or `usize::MAX` are re-coded to
    /// `0..k` (k = number of distinct ids), so memory never grows with an id's value. Dense ids
    /// `0..k` that all occur keep their codes (no re-coding).
    ///
    /// # Errors
    /// [`GroupsError::Empty`] for an empty slice.
    ///
    /// # Examples
    /// ```
    /// use fair_core::Groups;
    /// let g = Groups::from_codes(&[1_000_000, 7, 1_000_000, usize::MAX])?;
    /// assert_eq!(g.names(), &["7", "1000000", &usize::MAX.to_string()]);
    /// assert_eq!(g.codes(), &[1, 0, 1, 2]);
    /// # Ok::<(), fair_core::GroupsError>(())
    /// ```
    pub fn from_codes(codes: &[usize]) -> Result<Self> {
        let max = *codes.iter().max().ok_or(GroupsError::Empty {
            what: "group codes",
        })?;
        // Dense fast path: ids below the row count, checked with a bitmap no larger than the rows.
        if max < codes.len() {
            let mut seen = vec![false; max + 1];
            codes.iter().for_each(|&c| seen[c] = true);
            if seen.iter().all(|&s| s) {
                return Ok(Self {
                    codes: codes.to_vec(),
                    names: (0..=max).map(|i| i.to_string()).collect(),
                });
            }
        }
        let mut distinct = codes.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let dense = codes
            .iter()
            .map(|c| distinct.binary_search(c).unwrap_or_default())
            .collect();
        Ok(Self {
            codes: dense,
            names: distinct.iter().map(|i| i.to_string()).collect(),
        })
    }

    /// Builds groups from one string label per row; groups are the distinct labels in sorted order.
    pub fn from_labels<S: AsRef<str>>(labels: &[S]) -> Self {
        let mut index: BTreeMap<&str, usize> = labels.iter().map(|s| (s.as_ref(), 0)).collect();
        for (i, v) in index.values_mut().enumerate() {
            *v = i;
        }
        let codes = labels.iter().map(|s| index[s.as_ref()]).collect();
        let names = index.keys().map(|s| s.to_string()).collect();
        Self { codes, names }
    }

    /// Intersectional groups: one group per combination of the given attributes that occurs in the
    /// rows, named by joining the parts with `" & "` (e.g. `"Female & Black"`).
    ///
    /// Only combinations present in the data become groups (fairlearn's `MetricFrame` lists the
    /// full Cartesian product and leaves absent cells NaN; here absent cells simply do not exist).
    /// Codes are assigned in lexicographic order of the parts' codes, so the result does not
    /// depend on row order.
    ///
    /// # Errors
    /// [`GroupsError::Empty`] for no attributes, [`GroupsError::LengthMismatch`] when the attributes
    /// cover different numbers of rows.
    pub fn intersect(parts: &[&Groups]) -> Result<Self> {
        let first = parts.first().ok_or(GroupsError::Empty {
            what: "attributes to intersect",
        })?;
        let n = first.len();
        for p in parts {
            if p.len() != n {
                return Err(GroupsError::LengthMismatch {
                    what: "intersected attribute",
                    expected: n,
                    got: p.len(),
                });
            }
        }
        let key = |row: usize| parts.iter().map(|p| p.codes[row]).collect::<Vec<_>>();
        let mut combos: BTreeMap<Vec<usize>, usize> = (0..n).map(|r| (key(r), 0)).collect();
        for (i, v) in combos.values_mut().enumerate() {
            *v = i;
        }
        let names = combos
            .keys()
            .map(|k| {
                k.iter()
                    .zip(parts)
                    .map(|(&c, p)| p.names[c].as_str())
                    .collect::<Vec<_>>()
                    .join(" & ")
            })
            .collect();
        let codes = (0..n).map(|r| combos[&key(r)]).collect();
        Ok(Self { codes, names })
    }

    /// The group code of every row.
    pub fn codes(&self) -> &[usize] {
        &self.codes
    }

    /// The group names, indexed by code.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Number of declared groups (some may have no rows).
    pub fn n_groups(&self) -> usize {
        self.names.len()
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Rows per group, indexed by code.
    pub fn counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.names.len()];
        for &c in &self.codes {
            counts[c] += 1;
        }
        counts
    }

    /// The rows at `indices`, keeping every declared group (even those left without rows).
    ///
    /// # Errors
    /// [`GroupsError::InvalidParameter`] when an index is out of bounds.
    pub fn select(&self, indices: &[usize]) -> Result<Self> {
        let codes = indices
            .iter()
            .map(|&i| {
                self.codes
                    .get(i)
                    .copied()
                    .ok_or_else(|| GroupsError::InvalidParameter {
                        name: "row index",
                        value: i.to_string(),
                        expected: "an index below the number of rows",
                    })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            codes,
            names: self.names.clone(),
        })
    }

    /// Drops groups that have no rows and renumbers the rest in their original order.
    pub fn compact(&self) -> Self {
        let counts = self.counts();
        let mut remap = vec![usize::MAX; counts.len()];
        let mut names = Vec::new();
        for (g, &c) in counts.iter().enumerate() {
            if c > 0 {
                remap[g] = names.len();
                names.push(self.names[g].clone());
            }
        }
        Self {
            codes: self.codes.iter().map(|&c| remap[c]).collect(),
            names,
        }
    }
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn intersect_names_and_codes() {
        let sex = Groups::from_labels(&["F", "M", "F", "M"]);
        let race = Groups::from_labels(&["B", "B", "W", "B"]);
        let both = Groups::intersect(&[&sex, &race]).unwrap();
        assert_eq!(both.names(), &["F & B", "F & W", "M & B"]);
        assert_eq!(both.codes(), &[0, 2, 1, 2]);
    }

    #[test]
    fn rejects_out_of_range_code() {
        let err = Groups::new(vec![0, 2], vec!["a".into(), "b".into()]).unwrap_err();
        assert!(matches!(
            err,
            GroupsError::GroupCodeOutOfRange {
                row: 1,
                code: 2,
                ..
            }
        ));
    }

    #[test]
    fn compact_drops_empty_groups() {
        let g = Groups::new(vec![2, 0, 2], vec!["a".into(), "b".into(), "c".into()]).unwrap();
        let c = g.compact();
        assert_eq!(c.names(), &["a", "c"]);
        assert_eq!(c.codes(), &[1, 0, 1]);
    }

    #[test]
    fn intersect_rejects_length_mismatch() {
        let a = Groups::from_labels(&["x", "y"]);
        let b = Groups::from_labels(&["x"]);
        assert!(matches!(
            Groups::intersect(&[&a, &b]),
            Err(GroupsError::LengthMismatch { .. })
        ));
    }
}
