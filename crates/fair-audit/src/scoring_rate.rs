//! NYC Local Law 144's scoring rate of a classifier's score: the share of each group scored above
//! the median score of all rows, each group's impact ratio (its rate ÷ the largest), and the
//! difference and ratio between the groups — the table LL144 asks of a tool that outputs a score,
//! from the same sweep as the other score metrics
//! ([`SliceScores::scoring_rate`](fair_metrics::score_sweep::SliceScores::scoring_rate)).
//!
//! Intervals as the regression audit's scoring rate: Wilson per group on the effective size, and
//! the gaps' intervals and p-values from each group drawn from N(rate, rate·(1 − rate)/n_eff)
//! (`fair_metrics::ci::normal_gap_inference`). A group with fewer rows than the minimum group size
//! keeps its rate but is kept out of the gaps and of the impact ratio's denominator.
//!
//! ```
//! use fair_audit::scoring_rate::scoring_rates;
//! use fair_audit::Stats;
//! use fair_metrics::score_sweep::{Run, SliceMap, StreamTotals, SweepSettings, score_key, sort_keys, stream_of, sweep};
//! // Group a scores 0.4, 0.8; group b 0.1, 0.3, 0.5 (all negatives): the median is 0.4.
//! let mut keys = vec![vec![score_key(0.4), score_key(0.8)], vec![score_key(0.1), score_key(0.3), score_key(0.5)]];
//! let mut totals = StreamTotals::new(false);
//! for (g, k) in keys.iter_mut().enumerate() {
//!     sort_keys(k);
//!     k.iter().for_each(|_| totals.add(stream_of(g, 0), 1.0));
//! }
//! let runs = keys.iter().enumerate().map(|(g, k)| Run::from_sorted_keys(stream_of(g, 0), k)).collect();
//! let slice = SliceMap { names: vec!["a".into(), "b".into()], group_of: vec![0, 1] };
//! let m = &sweep(&[slice], &totals, runs, &SweepSettings { interval: None, curve_points: 0 })?[0];
//! let stats = Stats { min_group_size: 0, ..Stats::default() };
//! let rates = scoring_rates(0, m, &[2, 3], &stats).unwrap();
//! assert_eq!(rates.median, 0.4);
//! assert_eq!(rates.groups[1].rate, Some(1.0 / 3.0));
//! assert_eq!(rates.groups[1].impact_ratio, Some((1.0 / 3.0) / 0.5));
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

use crate::compute::Stats;
use crate::keys::Key;
use crate::model::{GroupScoringRate, ScoringRates};
use crate::regression::{gap_seed, mean_gaps, scoring_rate};
use fair_metrics::score_sweep::SliceScores;

/// The scoring rates of the slice numbered `slice` (for its seed) from its sweep `m` and each
/// group's rows (`rows`, in `m.names`' order); `None` when the median is undefined (every weight
/// is 0).
pub fn scoring_rates(
    slice: usize,
    m: &SliceScores,
    rows: &[u64],
    stats: &Stats,
) -> Option<ScoringRates> {
    let median = m.median?;
    let min = stats.min_group_size;
    let small: Vec<bool> = (0..m.names.len())
        .map(|g| {
            let n = rows.get(g).copied().unwrap_or(0);
            n > 0 && n < min
        })
        .collect();
    let measured: Vec<_> = (0..m.names.len())
        .map(|g| {
            let n_eff = m.effective_n.get(g).map_or(0.0, |e| e.all);
            scoring_rate(m.scoring_rate[g], n_eff, stats.confidence)
        })
        .collect();
    let largest = (0..m.names.len())
        .filter(|&g| !small[g])
        .filter_map(|g| m.scoring_rate[g])
        .fold(None::<f64>, |a, r| Some(a.map_or(r, |a| a.max(r))));
    let groups = m
        .names
        .iter()
        .enumerate()
        .map(|(g, name)| GroupScoringRate {
            group: name.clone(),
            rate: measured[g].0.value,
            lower: measured[g].0.lower,
            upper: measured[g].0.upper,
            impact_ratio: m.scoring_rate[g]
                .zip(largest.filter(|&l| l > 0.0))
                .map(|(r, l)| r / l),
            small: small[g],
        })
        .collect();
    let kept: Vec<(f64, Option<f64>)> = (0..m.names.len())
        .filter(|&g| !small[g])
        .filter_map(|g| m.scoring_rate[g].map(|r| (r, measured[g].1)))
        .collect();
    let gaps = mean_gaps(
        Key::ScoringRateDifference,
        Some(Key::ScoringRateRatio),
        &kept,
        stats,
        gap_seed(stats.seed, slice, Key::ScoringRateDifference),
    );
    Some(ScoringRates {
        median,
        groups,
        gaps,
    })
}
