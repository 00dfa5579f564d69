//! Ranking metrics as a mergeable state over queries: per query and aggregated over queries,
//! each group's exposure, its share of exposure against its share of items, exposure and
//! impact per unit of relevance (Singh & Joachims, "Fairness of Exposure in Rankings", KDD
//! 2018), NDCG, its share of the top `k` positions, and FA*IR's ranked group fairness test
//! (Zehlike et al., CIKM 2017) per query; intervals by resampling queries.
//!
//! **Definitions** (one query; `v(i)` the discount at 1-based position `i`: `1/log2(1 + i)` by
//! default, [`Discount::Geometric`] `γ^(i−1)` — RBP's probability that a user with persistence
//! `γ` reaches position `i`; `u_d` an item's relevance):
//! * exposure of a group: `Σ_{d∈G} v(pos d)`; aggregated over queries as the weighted sum;
//!   its *exposure ratio* is its share of all exposure over its share of all items (1: seen in
//!   proportion to its numbers);
//! * *exposure per unit of relevance* `Σ v / Σ u` — Singh & Joachims' disparate treatment
//!   compares it between groups (`Exposure(G)/U(G)`, the `1/|G|` of both averages cancel);
//!   *impact per unit of relevance* `Σ u·v / Σ u` — their disparate impact, with the
//!   click-through rate `u_d · v(pos d)` (relevance times examination) as the impact. Over
//!   queries both are ratios of weighted sums; the report's *ratios* are min / max over groups
//!   (fairlearn's convention: 1 is parity);
//! * NDCG of a group: `Σ_{d∈G} u_d v(pos d)` (linear gain `u`, scikit-learn's `ndcg_score`
//!   default, and the discount of the settings) over the ideal DCG of its items alone
//!   (relevances in decreasing order at positions `1..=|G|`); averaged over the queries where
//!   that ideal is positive, weighted;
//! * top-k share of a group: the positions `1..=k` its items hold over the positions there are
//!   (`Σ_q w_q min(k, n_q)`);
//! * FA*IR's test per query and group, the group as the protected one, over the first
//!   `min(n_q, fair_k)` positions, at target share `fair_p` (absent: the group's share of the
//!   query's items) and level `fair_alpha` (with the paper's correction when `fair_adjust`);
//!   its pass rate is the weighted share of the tested queries that pass.
//!
//! **Ties** (equal keys in a query: equal ranks, or equal scores): the tied items occupy a
//! block of positions and each is at each of them with equal probability, so each gets the
//! block's mean discount and an equal share of the block's positions inside the top `k`. This
//! is exact and independent of the order the rows come in (property-tested). FA*IR's test,
//! which needs one order, puts the tested group's tied items last in their block (the order
//! least favourable to it): a pass holds for every order of the ties.
//!
//! **Merging.** A state is each query's [`QueryStats`], keyed by query id; the states of
//! disjoint sets of queries merge by union, and the aggregation reads queries in id order, so a
//! merge equals one pass bit for bit (property-tested). A query split across two states is an
//! error: a query's numbers need all its rows.
//!
//! ```
//! use fair_metrics::ranking_state::{RankingRows, RankingSettings, RankingState};
//! // Query "a": group 0 at ranks 1 and 2, group 1 at rank 3; query "b": group 1 first.
//! let rows = RankingRows {
//!     query: &["a", "a", "a", "b", "b"],
//!     key: &[1.0, 2.0, 3.0, 1.0, 2.0],
//!     group: &[0, 0, 1, 1, 0],
//!     relevance: None,
//!     weight: None,
//! };
//! let settings = RankingSettings::default();
//! let state = RankingState::from_rows(rows, 2, &settings)?;
//! let s = state.summary();
//! // Group 1's exposure: 1/log2(4) in "a" plus 1 in "b".
//! assert!((s.groups[1].exposure - 1.5).abs() < 1e-15);
//! assert_eq!(s.queries, 2);
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

mod query;
mod summary;

pub use query::{FairOutcome, FairTables, GroupInQuery, QueryItems, QueryStats, query_stats};
pub use summary::{GroupRanking, RankingInference, RankingSummary};

use crate::error::{MetricError, Result};
use std::collections::{BTreeMap, HashMap};

/// The position discount.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Discount {
    /// `1 / log2(1 + i)` (DCG's).
    Log2,
    /// `γ^(i−1)`: rank-biased precision's user, who goes on to the next position with
    /// probability `persistence` (in (0, 1)).
    Geometric {
        /// The probability of going on to the next position.
        persistence: f64,
    },
}

/// What the per-query numbers are computed with.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingSettings {
    /// The position discount.
    pub discount: Discount,
    /// The cut-offs of the top-k shares (each ≥ 1).
    pub top_k: Vec<usize>,
    /// FA*IR's target share of the tested group; `None`: its share of each query's items.
    pub fair_p: Option<f64>,
    /// FA*IR's significance level, in (0, 1).
    pub fair_alpha: f64,
    /// Use FA*IR's corrected table (the paper's multiple-test correction).
    pub fair_adjust: bool,
    /// FA*IR's test looks at the first `min(n, fair_k)` positions of each query.
    pub fair_k: usize,
}

impl Default for RankingSettings {
    /// Log2 discount, top 10, FA*IR at each group's share of the query, `alpha` 0.1 corrected,
    /// over the top 10.
    fn default() -> Self {
        Self {
            discount: Discount::Log2,
            top_k: vec![10],
            fair_p: None,
            fair_alpha: 0.1,
            fair_adjust: true,
            fair_k: 10,
        }
    }
}

impl RankingSettings {
    /// Checks every setting.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] naming the setting.
    pub fn check(&self) -> Result<()> {
        let bad = |name, value: String, expected| {
            Err(MetricError::InvalidParameter {
                name,
                value,
                expected,
            })
        };
        if let Discount::Geometric { persistence } = self.discount
            && !(persistence > 0.0 && persistence < 1.0)
        {
            return bad(
                "persistence",
                persistence.to_string(),
                "a probability of going on strictly between 0 and 1, e.g. 0.8",
            );
        }
        if let Some(&k) = self.top_k.iter().find(|&&k| k == 0) {
            return bad("top_k", k.to_string(), "cut-offs of at least 1");
        }
        if let Some(p) = self.fair_p
            && !(p > 0.0 && p < 1.0)
        {
            return bad(
                "fair_p",
                p.to_string(),
                "the target share of the tested group, strictly between 0 and 1",
            );
        }
        if !(self.fair_alpha > 0.0 && self.fair_alpha < 1.0) {
            return bad(
                "fair_alpha",
                self.fair_alpha.to_string(),
                "a significance level strictly between 0 and 1, e.g. 0.1",
            );
        }
        if self.fair_k == 0 {
            return bad("fair_k", "0".into(), "at least one position");
        }
        Ok(())
    }
}

/// Rows of many queries, one item each, in any order.
#[derive(Debug, Clone, Copy)]
pub struct RankingRows<'a, Q> {
    /// The query of each row.
    pub query: &'a [Q],
    /// Position key (smallest first; equal keys tie).
    pub key: &'a [f64],
    /// Group code.
    pub group: &'a [usize],
    /// Relevance, finite and ≥ 0.
    pub relevance: Option<&'a [f64]>,
    /// The query's weight on each of its rows (equal within a query; finite, ≥ 0).
    pub weight: Option<&'a [f64]>,
}

/// Each query's numbers, keyed by query id: mergeable (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct RankingState {
    n_groups: usize,
    top_k: usize,
    queries: BTreeMap<String, QueryStats>,
}

impl RankingState {
    /// An empty state for `n_groups` groups and the settings' top-k cut-offs.
    pub fn new(n_groups: usize, settings: &RankingSettings) -> Self {
        Self {
            n_groups,
            top_k: settings.top_k.len(),
            queries: BTreeMap::new(),
        }
    }

    /// The state of rows in one pass: the rows grouped by query, each query's numbers.
    ///
    /// # Errors
    /// The settings' error; [`MetricError::LengthMismatch`]; [`MetricError::NonFinite`] for a
    /// NaN key, a non-finite relevance or weight (with its row);
    /// [`MetricError::NegativeWeight`]; [`MetricError::InvalidParameter`] for a group code out
    /// of range, a negative relevance, or a weight that differs within a query (with its row).
    pub fn from_rows<Q: AsRef<str>>(
        rows: RankingRows<'_, Q>,
        n_groups: usize,
        settings: &RankingSettings,
    ) -> Result<Self> {
        settings.check()?;
        let n = rows.query.len();
        crate::validate::check_len("key", n, rows.key.len())?;
        crate::validate::check_len("group", n, rows.group.len())?;
        if let Some(r) = rows.relevance {
            crate::validate::check_len("relevance", n, r.len())?;
            check_relevance(r)?;
        }
        if let Some(row) = rows.key.iter().position(|k| k.is_nan()) {
            return Err(MetricError::NonFinite {
                what: "rank",
                row,
                value: rows.key[row],
            });
        }
        if let Some(row) = rows.group.iter().position(|&g| g >= n_groups) {
            return Err(MetricError::InvalidParameter {
                name: "group",
                value: format!("{} at row {row}", rows.group[row]),
                expected: "a group code below the number of groups",
            });
        }
        let mut by_query: HashMap<&str, Vec<usize>> = HashMap::new();
        for (row, q) in rows.query.iter().enumerate() {
            by_query.entry(q.as_ref()).or_default().push(row);
        }
        let mut state = Self::new(n_groups, settings);
        let mut tables = FairTables::default();
        for (q, idx) in by_query {
            let weight = match rows.weight {
                None => 1.0,
                Some(w) => query_weight(w, &idx)?,
            };
            let key: Vec<f64> = idx.iter().map(|&i| rows.key[i]).collect();
            let group: Vec<usize> = idx.iter().map(|&i| rows.group[i]).collect();
            let relevance: Option<Vec<f64>> =
                rows.relevance.map(|r| idx.iter().map(|&i| r[i]).collect());
            let stats = query_stats(
                QueryItems {
                    key: &key,
                    group: &group,
                    relevance: relevance.as_deref(),
                },
                weight,
                n_groups,
                settings,
                &mut tables,
            )?;
            state.queries.insert(q.to_string(), stats);
        }
        Ok(state)
    }

    /// Adds one query's numbers.
    ///
    /// # Errors
    /// [`MetricError::InvalidParameter`] when the query is already in the state, or its
    /// numbers have another number of groups or cut-offs.
    pub fn insert(&mut self, query: String, stats: QueryStats) -> Result<()> {
        if stats.groups.len() != self.n_groups
            || stats.groups.iter().any(|g| g.top.len() != self.top_k)
        {
            return Err(MetricError::InvalidParameter {
                name: "query",
                value: query,
                expected: "numbers with the state's groups and top-k cut-offs",
            });
        }
        if self.queries.contains_key(&query) {
            return Err(MetricError::InvalidParameter {
                name: "query",
                value: query,
                expected: "each query's rows in one part: this query is in two parts being merged",
            });
        }
        self.queries.insert(query, stats);
        Ok(())
    }

    /// Merges the state of a disjoint set of queries.
    ///
    /// # Errors
    /// As [`RankingState::insert`] (a query in both, or other settings).
    pub fn merge(&mut self, other: RankingState) -> Result<()> {
        for (q, s) in other.queries {
            self.insert(q, s)?;
        }
        Ok(())
    }

    /// Number of queries.
    pub fn len(&self) -> usize {
        self.queries.len()
    }

    /// Whether no query was added.
    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }

    /// Number of groups.
    pub fn n_groups(&self) -> usize {
        self.n_groups
    }

    /// The queries' numbers in id order.
    pub fn queries(&self) -> impl Iterator<Item = (&str, &QueryStats)> {
        self.queries.iter().map(|(q, s)| (q.as_str(), s))
    }

    /// The numbers aggregated over every query.
    pub fn summary(&self) -> RankingSummary {
        summary::summarize(self.queries.values(), self.n_groups, self.top_k)
    }

    /// The summary of `resamples` resamples of the queries with replacement (seeded), for
    /// percentile intervals ([`RankingInference::interval`]).
    pub fn resample(&self, resamples: usize, seed: u64) -> RankingInference {
        summary::resample(self, resamples, seed)
    }

    pub(crate) fn stats(&self) -> Vec<&QueryStats> {
        self.queries.values().collect()
    }

    pub(crate) fn top_k(&self) -> usize {
        self.top_k
    }
}

fn check_relevance(r: &[f64]) -> Result<()> {
    for (row, &u) in r.iter().enumerate() {
        if !u.is_finite() {
            return Err(MetricError::NonFinite {
                what: "relevance",
                row,
                value: u,
            });
        }
        if u < 0.0 {
            return Err(MetricError::InvalidParameter {
                name: "relevance",
                value: format!("{u} at row {row}"),
                expected: "a relevance of at least 0",
            });
        }
    }
    Ok(())
}

fn query_weight(w: &[f64], idx: &[usize]) -> Result<f64> {
    let first = w[idx[0]];
    for &row in idx {
        let x = w[row];
        if !x.is_finite() {
            return Err(MetricError::NonFinite {
                what: "weight",
                row,
                value: x,
            });
        }
        if x < 0.0 {
            return Err(MetricError::NegativeWeight { row, value: x });
        }
        #[allow(clippy::float_cmp)] // the same weight repeated on each row of the query
        if x != first {
            return Err(MetricError::InvalidParameter {
                name: "weight",
                value: format!("{x} at row {row}, {first} at row {}", idx[0]),
                expected: "one weight per query: the same value on every row of a query",
            });
        }
    }
    Ok(first)
}

#[cfg(test)]
mod tests;
