//! The numbers over queries, and their resampling over queries.

use super::RankingState;
use super::query::{FairOutcome, QueryStats};
use crate::ci::{Interval, quantile_sorted};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One group's numbers over queries (weighted by the queries' weights).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRanking {
    /// Its items.
    pub items: f64,
    /// Its share of all items.
    pub item_share: f64,
    /// Σ of its items' discounts.
    pub exposure: f64,
    /// Its share of all exposure.
    pub exposure_share: f64,
    /// `exposure_share / item_share` (`None` without items).
    pub exposure_ratio: Option<f64>,
    /// Exposure per unit of relevance (Singh & Joachims' treatment); `None` without relevance.
    pub exposure_per_relevance: Option<f64>,
    /// Expected clicks per unit of relevance (their impact); `None` without relevance.
    pub impact_per_relevance: Option<f64>,
    /// Mean NDCG over the queries where its ideal DCG is positive; `None` in none.
    pub ndcg: Option<f64>,
    /// For each cut-off, its share of the top-k positions.
    pub top_k_share: Vec<f64>,
    /// The weight of the queries where FA*IR's test was run for it.
    pub fair_tested: f64,
    /// The share of those that pass (`None`: not tested anywhere).
    pub fair_pass_rate: Option<f64>,
}

/// The numbers over queries: per group, and the ratios (min / max over the groups that have
/// the number).
#[derive(Debug, Clone, PartialEq)]
pub struct RankingSummary {
    /// Queries read (in a resample: drawn, with repeats).
    pub queries: u64,
    /// Their total weight (each drawn query's as often as it is drawn).
    pub weight: f64,
    /// Per group code.
    pub groups: Vec<GroupRanking>,
    /// min / max of the groups' exposure ratios (= of their mean exposure per item).
    pub exposure_ratio: Option<f64>,
    /// min / max of exposure per unit of relevance: Singh & Joachims' disparate treatment.
    pub disparate_treatment_ratio: Option<f64>,
    /// min / max of impact per unit of relevance: their disparate impact.
    pub disparate_impact_ratio: Option<f64>,
    /// min / max of the groups' NDCG.
    pub ndcg_ratio: Option<f64>,
    /// The lowest of the groups' FA*IR pass rates.
    pub fair_pass_rate: Option<f64>,
}

/// The per-group sums one query adds, already times its weight, flattened (group-major):
/// `FIELDS + top_k` numbers per group.
const FIELDS: usize = 8;

fn row_of(q: &QueryStats, top_k: usize, out: &mut Vec<f64>) {
    let w = q.weight;
    for (g, x) in q.groups.iter().enumerate() {
        let (ndcg, has_ndcg) = match q.ndcg(g) {
            Some(n) => (w * n, w),
            None => (0.0, 0.0),
        };
        let (tested, passed) = match x.fair {
            FairOutcome::NotTested => (0.0, 0.0),
            FairOutcome::Pass => (w, w),
            FairOutcome::Fail => (w, 0.0),
        };
        out.extend_from_slice(&[
            w * x.items,
            w * x.exposure,
            w * x.relevance,
            w * x.impact,
            ndcg,
            has_ndcg,
            tested,
            passed,
        ]);
        out.extend(x.top.iter().take(top_k).map(|t| w * t));
    }
}

struct Sums<'a> {
    items: f64,
    exposure: f64,
    relevance: f64,
    impact: f64,
    ndcg: f64,
    ndcg_weight: f64,
    tested: f64,
    passed: f64,
    top: &'a [f64],
}

pub(super) fn summarize<'a>(
    queries: impl Iterator<Item = &'a QueryStats>,
    n_groups: usize,
    top_k: usize,
) -> RankingSummary {
    let width = FIELDS + top_k;
    let mut acc = vec![0.0; n_groups * width];
    let mut row = Vec::with_capacity(n_groups * width);
    let (mut n_queries, mut total_weight) = (0_u64, 0.0);
    for q in queries {
        row.clear();
        row_of(q, top_k, &mut row);
        n_queries += 1;
        total_weight += q.weight;
        for (a, x) in acc.iter_mut().zip(&row) {
            *a += x;
        }
    }
    finish(&acc, n_groups, top_k, n_queries, total_weight)
}

fn finish(
    acc: &[f64],
    n_groups: usize,
    top_k: usize,
    n_queries: u64,
    total_weight: f64,
) -> RankingSummary {
    let width = FIELDS + top_k;
    let sums: Vec<Sums<'_>> = (0..n_groups)
        .map(|g| {
            let a = &acc[g * width..(g + 1) * width];
            Sums {
                items: a[0],
                exposure: a[1],
                relevance: a[2],
                impact: a[3],
                ndcg: a[4],
                ndcg_weight: a[5],
                tested: a[6],
                passed: a[7],
                top: &a[FIELDS..],
            }
        })
        .collect();
    let items: f64 = sums.iter().map(|s| s.items).sum();
    let exposure: f64 = sums.iter().map(|s| s.exposure).sum();
    // Positions in the top k over all queries: the groups' shares of them sum to 1.
    let positions: Vec<f64> = (0..top_k)
        .map(|j| sums.iter().map(|s| s.top[j]).sum())
        .collect();
    let ratio = |a: f64, b: f64| (b > 0.0).then(|| a / b);
    let groups: Vec<GroupRanking> = sums
        .iter()
        .map(|s| {
            let item_share = ratio(s.items, items).unwrap_or(0.0);
            let exposure_share = ratio(s.exposure, exposure).unwrap_or(0.0);
            GroupRanking {
                items: s.items,
                item_share,
                exposure: s.exposure,
                exposure_share,
                exposure_ratio: ratio(exposure_share, item_share),
                exposure_per_relevance: ratio(s.exposure, s.relevance),
                impact_per_relevance: ratio(s.impact, s.relevance),
                ndcg: ratio(s.ndcg, s.ndcg_weight),
                top_k_share: s
                    .top
                    .iter()
                    .zip(&positions)
                    .map(|(&t, &p)| ratio(t, p).unwrap_or(0.0))
                    .collect(),
                fair_tested: s.tested,
                fair_pass_rate: ratio(s.passed, s.tested),
            }
        })
        .collect();
    let min_max = |f: &dyn Fn(&GroupRanking) -> Option<f64>| {
        let values: Vec<f64> = groups
            .iter()
            .filter(|g| g.items > 0.0)
            .filter_map(f)
            .collect();
        if values.len() < 2 {
            return None;
        }
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(if hi > 0.0 { lo / hi } else { 1.0 })
    };
    RankingSummary {
        queries: n_queries,
        weight: total_weight,
        exposure_ratio: min_max(&|g| g.exposure_ratio),
        disparate_treatment_ratio: min_max(&|g| g.exposure_per_relevance),
        disparate_impact_ratio: min_max(&|g| g.impact_per_relevance),
        ndcg_ratio: min_max(&|g| g.ndcg),
        fair_pass_rate: groups
            .iter()
            .filter_map(|g| g.fair_pass_rate)
            .reduce(f64::min),
        groups,
    }
}

/// The summaries of resamples of the queries, for percentile intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingInference {
    /// One summary per resample.
    pub draws: Vec<RankingSummary>,
}

impl RankingInference {
    /// The percentile interval at `confidence` of a number of the summary, over the resamples
    /// where it is defined; `None` when it is undefined in half of them or more.
    ///
    /// ```
    /// use fair_metrics::ranking_state::{RankingRows, RankingSettings, RankingState};
    /// let rows = RankingRows {
    ///     query: &["a", "a", "b", "b", "c", "c"],
    ///     key: &[1.0, 2.0, 1.0, 2.0, 1.0, 2.0],
    ///     group: &[0, 1, 1, 0, 0, 1],
    ///     relevance: None,
    ///     weight: None,
    /// };
    /// let state = RankingState::from_rows(rows, 2, &RankingSettings::default())?;
    /// let draws = state.resample(200, 7);
    /// let ci = draws.interval(0.95, |s| s.exposure_ratio).unwrap();
    /// assert!(ci.lower <= ci.upper && ci.upper <= 1.0);
    /// # Ok::<(), fair_metrics::MetricError>(())
    /// ```
    pub fn interval(
        &self,
        confidence: f64,
        number: impl Fn(&RankingSummary) -> Option<f64>,
    ) -> Option<Interval> {
        let mut values: Vec<f64> = self
            .draws
            .iter()
            .filter_map(&number)
            .filter(|x| x.is_finite())
            .collect();
        if values.is_empty() || 2 * values.len() <= self.draws.len() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let tail = (1.0 - confidence) / 2.0;
        Some(Interval {
            lower: quantile_sorted(&values, tail),
            upper: quantile_sorted(&values, 1.0 - tail),
        })
    }
}

pub(super) fn resample(state: &RankingState, resamples: usize, seed: u64) -> RankingInference {
    let stats = state.stats();
    let n = stats.len();
    let (n_groups, top_k) = (state.n_groups(), state.top_k());
    let width = n_groups * (FIELDS + top_k);
    // Each query's row once; a resample adds the rows of the queries drawn, in draw order.
    let mut rows = Vec::with_capacity(n * width);
    for q in &stats {
        row_of(q, top_k, &mut rows);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acc = vec![0.0; width];
    let draws = (0..resamples)
        .map(|_| {
            acc.iter_mut().for_each(|a| *a = 0.0);
            let mut total_weight = 0.0;
            for _ in 0..n {
                let i = rng.random_range(0..n);
                total_weight += stats[i].weight;
                for (a, x) in acc.iter_mut().zip(&rows[i * width..(i + 1) * width]) {
                    *a += x;
                }
            }
            finish(&acc, n_groups, top_k, n as u64, total_weight)
        })
        .collect();
    RankingInference { draws }
}
