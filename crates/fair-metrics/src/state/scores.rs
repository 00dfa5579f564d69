//! [`ScoreState`]: per-group score multisets in a canonical order, for the exact score metrics.

use super::codec::{Reader, Writer};
use super::weighting::Weighting;
use crate::error::{MetricError, Result};
use crate::validate::{bad_weight, check_groups, check_len, weight_ok};
use fair_data::Groups;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// One distinct (score, label, weight) and how many rows carry it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry {
    score: f64,
    label: u8,
    weight: f64,
    count: u64,
}

impl Entry {
    fn key_cmp(&self, other: &Entry) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then(self.label.cmp(&other.label))
            .then(self.weight.total_cmp(&other.weight))
    }
}

/// The rows of one group. `canonical` means sorted by (score, label, weight) with equal keys
/// merged; merges append and clear it, and [`ScoreState::canonicalize`] restores it, so many small
/// updates cost one sort at the end instead of a merge per batch.
#[derive(Debug, Clone, Default)]
struct GroupScores {
    entries: Vec<Entry>,
    canonical: bool,
}

impl GroupScores {
    fn canonicalize(&mut self) {
        if self.canonical {
            return;
        }
        self.entries.sort_unstable_by(Entry::key_cmp);
        let mut out: Vec<Entry> = Vec::with_capacity(self.entries.len());
        for e in self.entries.drain(..) {
            match out.last_mut() {
                Some(last) if last.key_cmp(&e) == Ordering::Equal => {
                    last.count = last.count.saturating_add(e.count)
                }
                _ => out.push(e),
            }
        }
        out.shrink_to_fit();
        self.entries = out;
        self.canonical = true;
    }
}

/// Exact, mergeable per-group score statistics: each group's multiset of (score, label, weight),
/// kept in a canonical order (sorted, equal rows run-length encoded).
///
/// Every exact score metric — per-group ROC/AUC, the all-threshold KS Δ / EO-Δ, partial SP/DP on a
/// percentile interval — is a function of these multisets. Because [`to_columns`](Self::to_columns)
/// lays them out in one canonical order, the metrics computed from a state are **bit-identical**
/// whatever the batching or partitioning and whatever the merge order. Memory is O(distinct rows)
/// (discrete scores compress; continuous scores cost about 32 bytes per row).
///
/// # Example
/// ```
/// use fair_data::Groups;
/// use fair_metrics::state::ScoreState;
///
/// let (y, s) = ([1, 0, 1, 0], [0.9, 0.2, 0.6, 0.4]);
/// let mut a = ScoreState::new();
/// a.update(&y[..2], &s[..2], &Groups::from_labels(&["f", "m"]), None)?;
/// let mut b = ScoreState::new();
/// b.update(&y[2..], &s[2..], &Groups::from_labels(&["m", "f"]), None)?;
/// a.merge(&b)?;
/// let cols = a.to_columns()?;
/// assert_eq!(cols.groups.names(), ["f", "m"]);
/// assert_eq!(cols.scores, vec![0.4, 0.9, 0.2, 0.6]); // by group, then by score
/// let ks = fair_metrics::ks::ks_statistic(&cols.scores, &cols.groups, cols.weights.as_deref())?;
/// assert!((ks.max - 0.5).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ScoreState {
    weighted: Weighting,
    groups: BTreeMap<String, GroupScores>,
}

/// A [`ScoreState`] laid out as the plain columns the metric functions take, in canonical order
/// (groups by sorted name, rows by score, then label, then weight).
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreColumns {
    /// Labels, 0/1.
    pub y_true: Vec<usize>,
    /// Scores.
    pub scores: Vec<f64>,
    /// Group of each row; names sorted.
    pub groups: Groups,
    /// Weights, if the state is weighted.
    pub weights: Option<Vec<f64>>,
}

impl ScoreState {
    /// An empty state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one batch: 0/1 labels, finite scores, groups local to the batch, optional finite
    /// `>= 0` weights. Row numbers in errors are positions within the batch; on error the state
    /// is unchanged.
    ///
    /// # Errors
    /// [`MetricError::LengthMismatch`], [`MetricError::LabelOutOfRange`],
    /// [`MetricError::NonFinite`] for a NaN or infinite score or weight,
    /// [`MetricError::NegativeWeight`], and [`MetricError::InvalidParameter`] when weighted and
    /// unweighted batches are mixed.
    pub fn update(
        &mut self,
        y_true: &[usize],
        scores: &[f64],
        groups: &Groups,
        weights: Option<&[f64]>,
    ) -> Result<()> {
        let n = y_true.len();
        check_len("scores", n, scores.len())?;
        check_groups(groups, n)?;
        if let Some(w) = weights {
            check_len("sample weights", n, w.len())?;
        }
        if n == 0 {
            return Ok(());
        }
        let weighted = weights.is_some();
        self.weighted.check(weighted)?;
        let mut local: Vec<Vec<Entry>> = vec![Vec::new(); groups.n_groups()];
        for (i, (&y, &s)) in y_true.iter().zip(scores).enumerate() {
            if y > 1 {
                return Err(MetricError::LabelOutOfRange {
                    what: "labels",
                    row: i,
                    label: y,
                    n_classes: 2,
                });
            }
            if !s.is_finite() {
                return Err(MetricError::NonFinite {
                    what: "scores",
                    row: i,
                    value: s,
                });
            }
            let weight = match weights {
                Some(w) if !weight_ok(w[i]) => return Err(bad_weight(i, w[i])),
                Some(w) => w[i],
                None => 1.0,
            };
            local[groups.codes()[i]].push(Entry {
                // -0.0 and 0.0 are one score; keep one bit pattern so the order is canonical.
                score: if s == 0.0 { 0.0 } else { s },
                label: y as u8,
                weight,
                count: 1,
            });
        }
        self.weighted.set(weighted);
        for (entries, name) in local.into_iter().zip(groups.names()) {
            if !entries.is_empty() {
                let g = self.groups.entry(name.clone()).or_default();
                g.entries.extend(entries);
                g.canonical = false;
            }
        }
        Ok(())
    }

    /// Adds another state's rows.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when one state is weighted and the other is not.
    pub fn merge(&mut self, other: &ScoreState) -> Result<()> {
        let Some(weighted) = other.weighted.known() else {
            return Ok(());
        };
        self.weighted.check(weighted)?;
        self.weighted.set(weighted);
        for (name, g) in &other.groups {
            let mine = self.groups.entry(name.clone()).or_default();
            mine.entries.extend_from_slice(&g.entries);
            mine.canonical = false;
        }
        Ok(())
    }

    /// Sorts and run-length encodes every group (done lazily by the readers; call it to shrink
    /// memory after many updates).
    pub fn canonicalize(&mut self) {
        self.groups.values_mut().for_each(GroupScores::canonicalize);
    }

    /// Whether the state holds weighted rows.
    pub fn is_weighted(&self) -> bool {
        self.weighted.is_weighted()
    }

    /// Group names, sorted.
    pub fn group_names(&self) -> Vec<String> {
        self.groups.keys().cloned().collect()
    }

    /// Total number of rows.
    pub fn total_rows(&self) -> u64 {
        self.groups
            .values()
            .flat_map(|g| g.entries.iter().map(|e| e.count))
            // Saturating like the counts themselves: decoded counts may sum past u64::MAX (the
            // `state_bytes` fuzz target overflowed a plain `sum`).
            .fold(0, u64::saturating_add)
    }

    fn canonical_groups(&self) -> BTreeMap<&String, std::borrow::Cow<'_, GroupScores>> {
        self.groups
            .iter()
            .map(|(name, g)| {
                let g = if g.canonical {
                    std::borrow::Cow::Borrowed(g)
                } else {
                    let mut owned = g.clone();
                    owned.canonicalize();
                    std::borrow::Cow::Owned(owned)
                };
                (name, g)
            })
            .collect()
    }

    /// The rows as plain columns in canonical order, ready for [`crate::ks`], [`crate::roc`] and
    /// [`crate::partial`].
    ///
    /// # Errors
    /// [`MetricError::Empty`] for an empty state; [`MetricError::InvalidParameter`] when the rows
    /// do not fit in memory as columns (more than `usize::MAX`).
    pub fn to_columns(&self) -> Result<ScoreColumns> {
        if self.groups.is_empty() {
            return Err(MetricError::Empty {
                what: "score state",
            });
        }
        let total =
            usize::try_from(self.total_rows()).map_err(|_| MetricError::InvalidParameter {
                name: "score state rows",
                value: self.total_rows().to_string(),
                expected: "a row count that fits in memory",
            })?;
        let weighted = self.is_weighted();
        // The row count comes from the state's (possibly decoded) counts: reserve fallibly, so
        // a count too large for memory is a typed error rather than an allocation abort.
        let too_large = |_| MetricError::InvalidParameter {
            name: "score state rows",
            value: total.to_string(),
            expected: "a row count whose columns fit in memory",
        };
        let (mut y_true, mut scores, mut codes, mut weights) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        y_true.try_reserve_exact(total).map_err(too_large)?;
        scores.try_reserve_exact(total).map_err(too_large)?;
        codes.try_reserve_exact(total).map_err(too_large)?;
        weights
            .try_reserve_exact(if weighted { total } else { 0 })
            .map_err(too_large)?;
        let mut names = Vec::with_capacity(self.groups.len());
        for (code, (name, g)) in self.canonical_groups().into_iter().enumerate() {
            names.push(name.clone());
            for e in &g.entries {
                for _ in 0..e.count {
                    y_true.push(e.label as usize);
                    scores.push(e.score);
                    codes.push(code);
                    if weighted {
                        weights.push(e.weight);
                    }
                }
            }
        }
        let groups = Groups::new(codes, names).map_err(|e| MetricError::InvalidParameter {
            name: "score state groups",
            value: e.to_string(),
            expected: "valid groups",
        })?;
        Ok(ScoreColumns {
            y_true,
            scores,
            groups,
            weights: weighted.then_some(weights),
        })
    }

    /// Canonical, versioned binary encoding (equal multisets give equal bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(b"FKSS", 1);
        self.weighted.encode(&mut w);
        let groups = self.canonical_groups();
        w.u64(groups.len() as u64);
        for (name, g) in groups {
            w.str(name);
            w.u64(g.entries.len() as u64);
            for e in &g.entries {
                w.f64(e.score);
                w.u8(e.label);
                w.f64(e.weight);
                w.u64(e.count);
            }
        }
        w.finish()
    }

    /// Decodes [`to_bytes`](Self::to_bytes), checking every entry (0/1 labels, finite scores,
    /// finite `>= 0` weights, positive counts).
    ///
    /// # Errors
    /// [`MetricError::Decode`] for bytes that are not a valid state.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, b"FKSS", 1, "score state")?;
        let weighted = Weighting::decode(&mut r)?;
        let n = r.len()?;
        let mut groups = BTreeMap::new();
        for _ in 0..n {
            let name = r.str()?;
            let m = r.len()?;
            let mut entries = Vec::with_capacity(m.min(1 << 20));
            for _ in 0..m {
                let e = Entry {
                    score: r.f64()?,
                    label: r.u8()?,
                    weight: r.f64()?,
                    count: r.u64()?,
                };
                if !e.score.is_finite() || e.label > 1 || !weight_ok(e.weight) || e.count == 0 {
                    return Err(r.error(format!("invalid entry {e:?}")));
                }
                entries.push(e);
            }
            let mut g = GroupScores {
                entries,
                canonical: false,
            };
            g.canonicalize();
            if groups.insert(name.clone(), g).is_some() {
                return Err(r.error(format!("group {name:?} appears twice")));
            }
        }
        r.finish()?;
        Ok(Self { weighted, groups })
    }
}

impl PartialEq for ScoreState {
    /// Equal when they hold the same rows (whatever the order they were added in).
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}
