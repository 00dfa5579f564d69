//! One query's numbers per group: exposure, utility, impact, DCG and its ideal, top-k
//! positions and FA*IR's test, with tied items sharing their positions exactly.

use super::{Discount, RankingSettings};
use crate::error::{MetricError, Result};
use std::collections::HashMap;

/// One query's items, in any order: the position key (lower is ranked higher: a rank, or a
/// negated score), the group code and, optionally, the relevance of each item.
#[derive(Debug, Clone, Copy)]
pub struct QueryItems<'a> {
    /// Position key of each item: items are ranked by it, smallest first; equal keys tie.
    pub key: &'a [f64],
    /// Group code of each item (`0..n_groups`).
    pub group: &'a [usize],
    /// Relevance (utility) of each item, finite and ≥ 0; `None`: no relevance column.
    pub relevance: Option<&'a [f64]>,
}

/// FA*IR's test of one group in one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FairOutcome {
    /// Not tested: no target share in (0, 1) (the group is absent, or is the whole query).
    NotTested,
    /// Every tested prefix holds at least `m(i)` of the group's items.
    Pass,
    /// Some prefix holds fewer.
    Fail,
}

/// One group's numbers in one query (sums over its items; unweighted: the query's weight is
/// applied when queries are aggregated).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupInQuery {
    /// Its items.
    pub items: f64,
    /// Σ of its items' (tie-averaged) discounts.
    pub exposure: f64,
    /// Σ of its items' relevance (0 without relevance).
    pub relevance: f64,
    /// Σ relevance × discount: the expected clicks of Singh & Joachims' impact (and the DCG
    /// with linear gain).
    pub impact: f64,
    /// The ideal DCG of its items: their relevance in decreasing order at positions 1, 2, ….
    pub ideal_dcg: f64,
    /// For each `k` of the settings, the positions `1..=k` its items hold (a tied block that
    /// straddles `k` shares the positions inside it equally among its items).
    pub top: Vec<f64>,
    /// FA*IR's test of the group as the protected one.
    pub fair: FairOutcome,
}

/// One query's numbers: its weight, its items and each group's [`GroupInQuery`].
#[derive(Debug, Clone, PartialEq)]
pub struct QueryStats {
    /// The query's weight (1 unweighted).
    pub weight: f64,
    /// Its items.
    pub items: u64,
    /// Per group code (dense, `n_groups` long).
    pub groups: Vec<GroupInQuery>,
}

impl QueryStats {
    /// The group's NDCG in this query (linear gain): its items' DCG at the positions they hold
    /// over the ideal DCG of its items alone; `None` when that ideal is 0 (no relevant item).
    pub fn ndcg(&self, group: usize) -> Option<f64> {
        let g = &self.groups[group];
        (g.ideal_dcg > 0.0).then(|| g.impact / g.ideal_dcg)
    }
}

/// FA*IR's tables by `(k, p)`, computed once per distinct pair.
#[derive(Debug, Default)]
pub struct FairTables {
    tables: HashMap<(usize, u64), Vec<u64>>,
}

impl FairTables {
    fn table(&mut self, k: usize, p: f64, s: &RankingSettings) -> Result<&[u64]> {
        let key = (k, p.to_bits());
        if let std::collections::hash_map::Entry::Vacant(e) = self.tables.entry(key) {
            e.insert(if s.fair_adjust {
                crate::ranking::adjusted_mtable(k, p, s.fair_alpha)?.mtable
            } else {
                crate::ranking::mtable(k, p, s.fair_alpha)?
            });
        }
        Ok(&self.tables[&key])
    }
}

impl Discount {
    /// The discount at 1-based position `i`.
    pub fn at(self, i: usize) -> f64 {
        match self {
            Discount::Log2 => 1.0 / ((1 + i) as f64).log2(),
            Discount::Geometric { persistence } => persistence.powi(i as i32 - 1),
        }
    }
}

/// One query's numbers (see the module docs of [`super`] for the definitions and the tie rule).
///
/// # Errors
/// [`MetricError::Empty`] for a query without items, [`MetricError::LengthMismatch`],
/// [`MetricError::NonFinite`] for a NaN key or a non-finite relevance,
/// [`MetricError::InvalidParameter`] for a group code out of range or a negative relevance.
pub fn query_stats(
    items: QueryItems<'_>,
    weight: f64,
    n_groups: usize,
    settings: &RankingSettings,
    tables: &mut FairTables,
) -> Result<QueryStats> {
    let n = items.key.len();
    if n == 0 {
        return Err(MetricError::Empty { what: "a query" });
    }
    crate::validate::check_len("group", n, items.group.len())?;
    if let Some(r) = items.relevance {
        crate::validate::check_len("relevance", n, r.len())?;
    }
    for (row, &k) in items.key.iter().enumerate() {
        if k.is_nan() {
            return Err(MetricError::NonFinite {
                what: "rank",
                row,
                value: k,
            });
        }
    }
    if let Some(row) = items.group.iter().position(|&g| g >= n_groups) {
        return Err(MetricError::InvalidParameter {
            name: "group",
            value: format!("{} at row {row}", items.group[row]),
            expected: "a group code below the number of groups",
        });
    }
    let rel = |i: usize| items.relevance.map_or(0.0, |r| r[i]);
    if let Some(r) = items.relevance {
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
    }
    let mut order: Vec<usize> = (0..n).collect();
    // Within a tied block by group and relevance, so each group's sums are added in one
    // order whatever the order of the rows: the numbers are equal bit for bit.
    order.sort_by(|&a, &b| {
        norm(items.key[a])
            .total_cmp(&norm(items.key[b]))
            .then(items.group[a].cmp(&items.group[b]))
            .then(rel(a).total_cmp(&rel(b)))
    });
    let discount = settings.discount;
    let mut groups: Vec<GroupInQuery> = (0..n_groups)
        .map(|_| GroupInQuery {
            items: 0.0,
            exposure: 0.0,
            relevance: 0.0,
            impact: 0.0,
            ideal_dcg: 0.0,
            top: vec![0.0; settings.top_k.len()],
            fair: FairOutcome::NotTested,
        })
        .collect();
    // Tied blocks: [start, end) of `order`, keys equal (-0.0 and 0.0 tie too).
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in 1..=n {
        if i == n
            || norm(items.key[order[i]])
                .total_cmp(&norm(items.key[order[start]]))
                .is_ne()
        {
            blocks.push((start, i));
            start = i;
        }
    }
    for &(s, e) in &blocks {
        let t = (e - s) as f64;
        // Every item of the block sits at each of its positions with probability 1/t: the
        // mean discount, and the share of positions <= k, are exact whatever the order given.
        let mean: f64 = (s + 1..=e).map(|i| discount.at(i)).sum::<f64>() / t;
        let in_top: Vec<f64> = settings
            .top_k
            .iter()
            .map(|&k| (k.min(e).saturating_sub(s)) as f64 / t)
            .collect();
        for &i in &order[s..e] {
            let g = &mut groups[items.group[i]];
            g.items += 1.0;
            g.exposure += mean;
            g.relevance += rel(i);
            g.impact += rel(i) * mean;
            for (top, share) in g.top.iter_mut().zip(&in_top) {
                *top += share;
            }
        }
    }
    if items.relevance.is_some() {
        let mut by_group: Vec<Vec<f64>> = vec![Vec::new(); n_groups];
        for i in 0..n {
            by_group[items.group[i]].push(rel(i));
        }
        for (g, mut r) in by_group.into_iter().enumerate() {
            r.sort_by(|a, b| b.total_cmp(a));
            groups[g].ideal_dcg = r
                .iter()
                .enumerate()
                .map(|(i, &u)| u * discount.at(i + 1))
                .sum();
        }
    }
    let k = n.min(settings.fair_k);
    for (g, stats) in groups.iter_mut().enumerate() {
        let p = settings.fair_p.unwrap_or(stats.items / n as f64);
        if !(p > 0.0 && p < 1.0) {
            continue;
        }
        let table = tables.table(k, p, settings)?;
        stats.fair = if passes(&blocks, &order, items.group, g, table) {
            FairOutcome::Pass
        } else {
            FairOutcome::Fail
        };
    }
    Ok(QueryStats {
        weight,
        items: n as u64,
        groups,
    })
}

/// -0.0 and 0.0 are one position key (they tie).
fn norm(k: f64) -> f64 {
    if k == 0.0 { 0.0 } else { k }
}

/// FA*IR's test of group `g` over the first `table.len()` positions, a tied block's items of
/// `g` taking its last positions (the order least favourable to `g`: the verdict does not
/// depend on the order ties were given in, and a pass holds for every order of the ties).
fn passes(
    blocks: &[(usize, usize)],
    order: &[usize],
    group: &[usize],
    g: usize,
    table: &[u64],
) -> bool {
    let mut before = 0_u64;
    for &(s, e) in blocks {
        if s >= table.len() {
            break;
        }
        let c = order[s..e].iter().filter(|&&i| group[i] == g).count() as u64;
        let others = (e - s) as u64 - c;
        for (j, &m) in (1..=(e - s) as u64).zip(&table[s..table.len().min(e)]) {
            if before + j.saturating_sub(others) < m {
                return false;
            }
        }
        before += c;
    }
    true
}
