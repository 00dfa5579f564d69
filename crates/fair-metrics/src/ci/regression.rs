//! Bootstrap intervals of the regression metrics ([`crate::regression`]): each group's rows are
//! redrawn with replacement, as many as it has (the stratified bootstrap the audit uses for its
//! rates, here over rows because the metrics are not counts), and every metric per group, on
//! all rows, and every gap (difference and ratio, between groups) is recomputed per resample;
//! the interval is the percentile interval of the resampled values. Seeded (ChaCha8): the same
//! seed gives the same bits.

use super::{Interval, quantile_sorted};
use crate::error::{MetricError, Result};
use crate::regression::{
    RegressionMetric, RegressionSummary, RegressionValues, SUMS, derive_values, row_terms,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How the intervals are drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegressionBootstrap {
    /// Resamples (at least 100).
    pub n_resamples: usize,
    /// Two-sided confidence level in (0, 1).
    pub confidence: f64,
    /// Seed of the resamples.
    pub seed: u64,
}

/// Percentile intervals of every metric (indexed as [`RegressionMetric::ALL`]); `None` where the
/// metric (or gap) is undefined in more than half the resamples.
#[derive(Debug, Clone, PartialEq)]
pub struct RegressionIntervals {
    /// Per group (in the order of the groups' codes), per metric.
    pub by_group: Vec<Vec<Option<Interval>>>,
    /// On all rows, per metric.
    pub overall: Vec<Option<Interval>>,
    /// `max − min` between groups, per metric.
    pub difference: Vec<Option<Interval>>,
    /// `min / max` between groups, for the metrics that have a ratio.
    pub ratio: Vec<Option<Interval>>,
}

/// Collects one value per resample and reads the percentile interval.
#[derive(Default)]
struct Draws(Vec<f64>);

impl Draws {
    fn push(&mut self, v: Option<f64>) {
        if let Some(v) = v.filter(|v| v.is_finite()) {
            self.0.push(v);
        }
    }

    fn interval(mut self, n_resamples: usize, alpha: f64) -> Option<Interval> {
        if self.0.len() * 2 < n_resamples || self.0.is_empty() {
            return None;
        }
        self.0.sort_by(f64::total_cmp);
        Some(Interval {
            lower: quantile_sorted(&self.0, alpha / 2.0),
            upper: quantile_sorted(&self.0, 1.0 - alpha / 2.0),
        })
    }
}

fn metric_of(m: RegressionMetric, v: &RegressionValues) -> Option<f64> {
    match m {
        RegressionMetric::MeanTarget => v.mean_target,
        RegressionMetric::MeanPrediction => v.mean_prediction,
        RegressionMetric::MeanResidual => v.mean_residual,
        RegressionMetric::MeanAbsoluteError => v.mean_absolute_error,
        RegressionMetric::MeanSquaredError => v.mean_squared_error,
        RegressionMetric::RootMeanSquaredError => v.root_mean_squared_error,
        RegressionMetric::R2 => v.r2,
    }
}

/// Stratified-bootstrap percentile intervals of the regression metrics of `y`/`pred` in
/// `groups` (codes `0..n_groups`), optionally weighted. The inputs are checked as
/// [`RegressionState::update`](crate::regression::RegressionState::update) checks them.
///
/// ```
/// use fair_metrics::ci::{RegressionBootstrap, regression_intervals};
/// let y = [1.0, 2.0, 3.0, 4.0, 2.0, 3.0, 4.0, 5.0];
/// let p = [1.5, 2.0, 2.5, 4.5, 3.0, 3.0, 3.0, 3.0];
/// let g = [0, 0, 0, 0, 1, 1, 1, 1];
/// let settings = RegressionBootstrap { n_resamples: 200, confidence: 0.9, seed: 7 };
/// let ci = regression_intervals(&y, &p, &g, 2, None, settings)?;
/// let mae = ci.by_group[0][3].unwrap(); // group 0, mean absolute error
/// assert!(mae.lower <= 0.375 && 0.375 <= mae.upper);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
///
/// # Errors
/// [`MetricError::InvalidParameter`] for fewer than 100 resamples, a confidence outside
/// (0, 1) or a group code out of range; the input errors of the state.
pub fn regression_intervals(
    y: &[f64],
    pred: &[f64],
    groups: &[usize],
    n_groups: usize,
    weights: Option<&[f64]>,
    settings: RegressionBootstrap,
) -> Result<RegressionIntervals> {
    if settings.n_resamples < 100 {
        return Err(MetricError::InvalidParameter {
            name: "n_resamples",
            value: settings.n_resamples.to_string(),
            expected: "at least 100 resamples",
        });
    }
    if !(settings.confidence > 0.0 && settings.confidence < 1.0) {
        return Err(MetricError::InvalidParameter {
            name: "confidence",
            value: settings.confidence.to_string(),
            expected: "a level in (0, 1), e.g. 0.95",
        });
    }
    if let Some(&g) = groups.iter().find(|&&g| g >= n_groups) {
        return Err(MetricError::InvalidParameter {
            name: "group code",
            value: g.to_string(),
            expected: "a code below the number of groups",
        });
    }
    // The state's checks (lengths, finite values, weights) in one place.
    let names: Vec<String> = (0..n_groups).map(|g| g.to_string()).collect();
    let labels: Vec<&str> = groups.iter().map(|&g| names[g].as_str()).collect();
    let mut check = crate::regression::RegressionState::new();
    check.update(y, pred, &labels, weights)?;
    check.summary()?;

    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); n_groups];
    for (i, &g) in groups.iter().enumerate() {
        rows_of[g].push(i);
    }
    let metrics = RegressionMetric::ALL;
    let k = metrics.len();
    let mut by_group: Vec<Vec<Draws>> = (0..n_groups)
        .map(|_| (0..k).map(|_| Draws::default()).collect())
        .collect();
    let mut overall: Vec<Draws> = (0..k).map(|_| Draws::default()).collect();
    let mut difference: Vec<Draws> = (0..k).map(|_| Draws::default()).collect();
    let mut ratio: Vec<Draws> = (0..k).map(|_| Draws::default()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let present: Vec<usize> = (0..n_groups).filter(|&g| !rows_of[g].is_empty()).collect();
    for _ in 0..settings.n_resamples {
        let mut all = [0.0_f64; SUMS];
        let mut all_rows = 0_u64;
        let mut values = Vec::with_capacity(present.len());
        for &g in &present {
            let rows = &rows_of[g];
            let mut s = [0.0_f64; SUMS];
            for _ in 0..rows.len() {
                let i = rows[rng.random_range(0..rows.len())];
                let w = weights.map_or(1.0, |w| w[i]);
                for (acc, t) in s.iter_mut().zip(row_terms(y[i], pred[i], w)) {
                    *acc += t;
                }
            }
            for (acc, t) in all.iter_mut().zip(s) {
                *acc += t;
            }
            all_rows += rows.len() as u64;
            values.push(derive_values(rows.len() as u64, s));
        }
        let pooled = derive_values(all_rows, all);
        for (j, &m) in metrics.iter().enumerate() {
            for (v, &g) in values.iter().zip(&present) {
                by_group[g][j].push(metric_of(m, v));
            }
            overall[j].push(metric_of(m, &pooled));
        }
        let summary = RegressionSummary {
            names: present.iter().map(|g| g.to_string()).collect(),
            by_group: values,
            overall: pooled,
        };
        for (j, &m) in metrics.iter().enumerate() {
            match summary.gap(m) {
                Ok(gap) => {
                    difference[j].push(Some(gap.difference));
                    ratio[j].push(gap.ratio);
                }
                Err(_) => {
                    difference[j].push(None);
                    ratio[j].push(None);
                }
            }
        }
    }
    let alpha = 1.0 - settings.confidence;
    let n = settings.n_resamples;
    let read = |d: Vec<Draws>| d.into_iter().map(|d| d.interval(n, alpha)).collect();
    Ok(RegressionIntervals {
        by_group: by_group.into_iter().map(read).collect(),
        overall: read(overall),
        difference: read(difference),
        ratio: read(ratio),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(seed: u64) -> RegressionBootstrap {
        RegressionBootstrap {
            n_resamples: 400,
            confidence: 0.9,
            seed,
        }
    }

    #[test]
    fn same_seed_same_bits_and_the_estimate_inside() {
        let y: Vec<f64> = (0..60).map(|i| f64::from(i % 7)).collect();
        let p: Vec<f64> = (0..60).map(|i| f64::from(i % 5) + 0.5).collect();
        let g: Vec<usize> = (0..60).map(|i| i % 3).collect();
        let a = regression_intervals(&y, &p, &g, 3, None, settings(1)).unwrap();
        let b = regression_intervals(&y, &p, &g, 3, None, settings(1)).unwrap();
        assert_eq!(a, b);
        let c = regression_intervals(&y, &p, &g, 3, None, settings(2)).unwrap();
        assert_ne!(a, c);
        let mut state = crate::regression::RegressionState::new();
        let labels: Vec<String> = g.iter().map(|g| g.to_string()).collect();
        state.update(&y, &p, &labels, None).unwrap();
        let s = state.summary().unwrap();
        let mae = s.gap(RegressionMetric::MeanAbsoluteError).unwrap();
        let ci = a.difference[3].unwrap();
        assert!(ci.lower <= mae.difference && mae.difference <= ci.upper);
        // Ratios only for the error metrics.
        assert!(a.ratio[2].is_none() && a.ratio[3].is_some());
    }

    #[test]
    fn coverage_of_a_group_mean_by_simulation() {
        // Normal targets, prediction = target + N(0.3, 1): the residual's mean is 0.3. The
        // 90 % interval of group 0's mean residual covers it in about 90 % of 200 samples.
        use rand_distr::{Distribution, Normal};
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let noise = Normal::new(0.3, 1.0).unwrap();
        let mut covered = 0;
        for run in 0..200 {
            let y: Vec<f64> = (0..80).map(|_| noise.sample(&mut rng) * 3.0).collect();
            let p: Vec<f64> = y.iter().map(|v| v + noise.sample(&mut rng)).collect();
            let g: Vec<usize> = (0..80).map(|i| i % 2).collect();
            let ci = regression_intervals(&y, &p, &g, 2, None, settings(run)).unwrap();
            let m = ci.by_group[0][2].unwrap();
            if m.lower <= 0.3 && 0.3 <= m.upper {
                covered += 1;
            }
        }
        // Binomial(200, 0.9) lies in [166, 194] with probability > 0.999; the percentile
        // bootstrap runs slightly short at 40 rows, so the floor is the nominal minus 0.05.
        eprintln!("regression bootstrap coverage: {covered} of 200");
        assert!((170..=194).contains(&covered), "covered {covered} of 200");
    }

    #[test]
    fn bad_settings_are_named() {
        let e = regression_intervals(
            &[1.0],
            &[1.0],
            &[0],
            1,
            None,
            RegressionBootstrap {
                n_resamples: 10,
                confidence: 0.9,
                seed: 0,
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("n_resamples"));
        let e = regression_intervals(
            &[1.0],
            &[1.0],
            &[0],
            1,
            None,
            RegressionBootstrap {
                n_resamples: 100,
                confidence: 1.0,
                seed: 0,
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("confidence"));
        assert!(regression_intervals(&[1.0], &[1.0], &[2], 1, None, settings(0)).is_err());
        assert!(regression_intervals(&[f64::NAN], &[1.0], &[0], 1, None, settings(0)).is_err());
    }
}
