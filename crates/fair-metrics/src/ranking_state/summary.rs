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
    /// Queries read.
    pub queries: u64,
    /// Their total weight (times their multiplicity in a resample).
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

#[derive(Clone)]
struct Sums {
    items: f64,
    exposure: f64,
    relevance: f64,
    impact: f64,
    ndcg: f64,
    ndcg_weight: f64,
    top: Vec<f64>,
    tested: f64,
    passed: f64,
}

pub(super) fn summarize<'a>(
    queries: impl Iterator<Item = (f64, &'a QueryStats)>,
    n_groups: usize,
    top_k: usize,
) -> RankingSummary {
    let zero = Sums {
        items: 0.0,
        exposure: 0.0,
        relevance: 0.0,
        impact: 0.0,
        ndcg: 0.0,
        ndcg_weight: 0.0,
        top: vec![0.0; top_k],
        tested: 0.0,
        passed: 0.0,
    };
    let mut sums = vec![zero; n_groups];
    let mut n_queries = 0_u64;
    let mut total_weight = 0.0;
    for (times, q) in queries {
        if times == 0.0 {
            continue;
        }
        n_queries += 1;
        let w = times * q.weight;
        total_weight += w;
        for (g, (s, x)) in sums.iter_mut().zip(&q.groups).enumerate() {
            s.items += w * x.items;
            s.exposure += w * x.exposure;
            s.relevance += w * x.relevance;
            s.impact += w * x.impact;
            if let Some(n) = q.ndcg(g) {
                s.ndcg += w * n;
                s.ndcg_weight += w;
            }
            for (t, y) in s.top.iter_mut().zip(&x.top) {
                *t += w * y;
            }
            match x.fair {
                FairOutcome::NotTested => {}
                FairOutcome::Pass => {
                    s.tested += w;
                    s.passed += w;
                }
                FairOutcome::Fail => s.tested += w,
            }
        }
    }
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
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut times = vec![0.0_f64; n];
    let draws = (0..resamples)
        .map(|_| {
            times.iter_mut().for_each(|t| *t = 0.0);
            for _ in 0..n {
                times[rng.random_range(0..n)] += 1.0;
            }
            summarize(
                times.iter().copied().zip(stats.iter().copied()),
                state.n_groups(),
                state.top_k(),
            )
        })
        .collect();
    RankingInference { draws }
}
