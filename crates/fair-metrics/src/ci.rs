//! Uncertainty for every rate and gap, computed from the mergeable [`ConfusionState`] alone, so
//! one machine, a stream and a cluster give the same intervals and p-values.
//!
//! **Rates** ([`rate_interval`], [`rate_intervals`]): the Wilson score interval (default; good
//! coverage down to small groups) or the exact Clopper–Pearson interval (Beta quantiles from
//! `statrs`). With sample weights the proportion is the weighted rate and `n` is Kish's effective
//! sample size `(Σw)² / Σw²` of the rate's denominator rows.
//!
//! **Gaps** ([`gap_inference`]): the gap of one rate across groups (fairlearn's difference or
//! ratio, between groups or to overall; or equalized odds) with
//! * a **seeded stratified bootstrap** percentile interval: each group's four confusion cells are
//!   redrawn from the multinomial with that group's row count and observed cell shares — which is
//!   exactly the distribution of the cells under resampling that group's rows with replacement,
//!   so it is the row bootstrap, computed from counts alone;
//! * a **seeded permutation p-value** for "the rate does not depend on the group": under random
//!   reassignment of group labels among the rows of the rate's denominator, the per-group success
//!   counts follow the multivariate hypergeometric distribution with the observed margins, drawn
//!   here by sequential hypergeometric draws — exactly the row-permutation test, from counts
//!   alone. For equalized odds the labels are permuted within the positives and within the
//!   negatives. `p = (1 + #{T* at least as extreme as T}) / (1 + B)`.
//!
//! With weights both use Kish effective counts per group (an approximation, stated in the
//! output); unweighted they are exact resampling procedures.
//!
//! **Score metrics** ([`auc_interval`], [`auc_difference_inference`], [`ks_inference`]):
//! Hanley–McNeil AUC intervals, DKW intervals and asymptotic Kolmogorov p-values for KS Δ and
//! partial SP, from per-group sample sizes alone (see the `scores` submodule's notes).
//!
//! # Example
//! ```
//! use fair_data::Groups;
//! use fair_metrics::ci::{gap_inference, rate_intervals, GapMetric, GapSettings, RateCiMethod};
//! use fair_metrics::state::ConfusionState;
//! use fair_metrics::Rate;
//!
//! let n = 400;
//! let y: Vec<usize> = (0..n).map(|i| i % 2).collect();
//! let p: Vec<usize> = (0..n).map(|i| usize::from(i % 5 < 2 || (i < 200 && i % 5 == 2))).collect();
//! let g = Groups::from_labels(&(0..n).map(|i| if i < 200 { "a" } else { "b" }).collect::<Vec<_>>());
//! let mut state = ConfusionState::new();
//! state.update(&y, &p, &g, None)?;
//!
//! let ci = rate_intervals(&state, Rate::Selection, 0.95, RateCiMethod::Wilson)?;
//! assert!(ci.groups[0].interval.unwrap().lower < 0.6 && 0.6 < ci.groups[0].interval.unwrap().upper);
//!
//! let gap = gap_inference(&state, GapMetric::Rate(Rate::Selection), &GapSettings::default())?;
//! assert!((gap.estimate - 0.2).abs() < 1e-12);          // 0.6 − 0.4
//! assert!(gap.interval.lower < 0.2 && 0.2 < gap.interval.upper);
//! assert!(gap.p_value < 0.01);                          // a real gap at n = 200 per group
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

mod between;
mod change;
mod multiple;
mod normal_gaps;
mod rate_change;
mod regression;
mod score_change;
mod scores;
mod shrinkage;

pub use between::{
    BetweenGroupVariance, BetweenSettings, between_group_variance, between_group_variance_of_counts,
};
pub use change::{
    CellDraws, ChangeInference, PairedDraws, change_interval, gap_change_inference,
    paired_change_inference,
};
pub use multiple::{MultipleTesting, benjamini_hochberg, benjamini_yekutieli, bonferroni, holm};
pub use normal_gaps::{
    NormalGap, NormalGapSettings, NormalGaps, normal_change, normal_gap_change,
    normal_gap_inference, two_sided_z,
};
pub use rate_change::{RateChange, paired_proportion_change, proportion_change};
pub use regression::{RegressionBootstrap, RegressionIntervals, regression_intervals};
pub use score_change::score_gap_change;
pub use scores::{
    ScoreGapInference, auc_change, auc_difference_inference, auc_interval, auc_standard_error,
    kolmogorov_sf, ks_inference, ks_inference_of_max, ks_two_sample_p_value,
};
pub use shrinkage::{BetaPrior, Shrinkage, ShrunkenRate, beta_binomial_shrinkage, shrunken_rates};

use crate::confusion::Rate;
use crate::error::{MetricError, Result};
use crate::state::{CELLS, ConfusionState, GroupCells, rate_cells};
use crate::summary::{GroupSummary, ParityMethod};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution, Hypergeometric, Poisson};
use statrs::distribution::{Beta, ContinuousCDF, Normal};
use statrs::function::beta::checked_beta_reg;

/// How a rate's confidence interval is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RateCiMethod {
    /// Wilson score interval (default): never outside `[0, 1]`, good coverage for small `n`.
    #[default]
    Wilson,
    /// Clopper–Pearson "exact" interval from Beta quantiles: conservative (coverage ≥ nominal).
    ClopperPearson,
}

impl RateCiMethod {
    /// A short name for reports' prose ("Wilson score", "Clopper-Pearson").
    pub fn name(self) -> &'static str {
        match self {
            Self::Wilson => "Wilson score",
            Self::ClopperPearson => "Clopper-Pearson",
        }
    }

    /// The method's key, the one spelling every front end accepts and report.json writes
    /// (`"wilson"`, `"clopper-pearson"`).
    ///
    /// ```
    /// use fair_metrics::ci::RateCiMethod;
    /// assert_eq!("Clopper-Pearson".parse::<RateCiMethod>(), Ok(RateCiMethod::ClopperPearson));
    /// assert_eq!(RateCiMethod::Wilson.to_string(), "wilson");
    /// assert!("normal".parse::<RateCiMethod>().is_err());
    /// ```
    pub fn key(self) -> &'static str {
        self.as_str()
    }
}

// The method's names: its `key` (what report.json writes), the one spelling every front end
// accepts (`--ci-method`, Python's `ci_method=`), and the report's prose capitalisations as
// aliases.
fair_core::string_enum!(RateCiMethod, "ci_method", {
    Wilson => "wilson" | "Wilson",
    ClopperPearson => "clopper-pearson" | "Clopper-Pearson" | "clopper_pearson",
});

/// A two-sided interval `[lower, upper]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
}

/// Per-group success counts and trials (weighted or not) as the shrinkage and the between-group
/// spread read them: the same length, finite, and `0 <= successes <= trials` (up to rounding).
pub(crate) fn check_counts(successes: &[f64], trials: &[f64]) -> Result<()> {
    if successes.len() != trials.len() {
        return Err(MetricError::LengthMismatch {
            what: "successes and trials",
            expected: trials.len(),
            got: successes.len(),
        });
    }
    for (&x, &n) in successes.iter().zip(trials) {
        if !(x.is_finite() && n.is_finite() && x >= 0.0 && n >= 0.0 && x <= n * (1.0 + 1e-12)) {
            return Err(MetricError::InvalidParameter {
                name: "counts",
                value: format!("{x} successes of {n} trials"),
                expected: "finite counts with 0 <= successes <= trials",
            });
        }
    }
    Ok(())
}

fn check_confidence(confidence: f64) -> Result<()> {
    if confidence > 0.0 && confidence < 1.0 {
        Ok(())
    } else {
        Err(MetricError::InvalidParameter {
            name: "confidence",
            value: confidence.to_string(),
            expected: "a level strictly between 0 and 1, e.g. 0.95",
        })
    }
}

/// Confidence interval of a proportion `p_hat` observed on `n` rows (`n` may be a fractional
/// effective sample size).
///
/// # Errors
/// [`MetricError::InvalidParameter`] for `p_hat` outside `[0, 1]`, `n <= 0` or non-finite, a
/// confidence outside `(0, 1)`, or (Clopper–Pearson only) `n` above 1e12.
///
/// # Example
/// ```
/// use fair_metrics::ci::{rate_interval, RateCiMethod};
/// let w = rate_interval(0.5, 100.0, 0.95, RateCiMethod::Wilson)?;
/// assert!((w.lower - 0.4038).abs() < 1e-4 && (w.upper - 0.5962).abs() < 1e-4);
/// let cp = rate_interval(0.0, 10.0, 0.95, RateCiMethod::ClopperPearson)?;
/// assert_eq!(cp.lower, 0.0);
/// assert!((cp.upper - 0.3085).abs() < 1e-4);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn rate_interval(
    p_hat: f64,
    n: f64,
    confidence: f64,
    method: RateCiMethod,
) -> Result<Interval> {
    check_confidence(confidence)?;
    if !(0.0..=1.0).contains(&p_hat) {
        return Err(MetricError::InvalidParameter {
            name: "proportion",
            value: p_hat.to_string(),
            expected: "a proportion in [0, 1]",
        });
    }
    if !(n.is_finite() && n > 0.0) {
        return Err(MetricError::InvalidParameter {
            name: "sample size",
            value: n.to_string(),
            expected: "a finite number of rows > 0",
        });
    }
    let alpha = 1.0 - confidence;
    Ok(match method {
        RateCiMethod::Wilson => {
            let z = standard_normal().inverse_cdf(1.0 - alpha / 2.0);
            let z2 = z * z;
            let denom = 1.0 + z2 / n;
            let center = (p_hat + z2 / (2.0 * n)) / denom;
            let half = z / denom * (p_hat * (1.0 - p_hat) / n + z2 / (4.0 * n * n)).sqrt();
            Interval {
                lower: (center - half).max(0.0),
                upper: (center + half).min(1.0),
            }
        }
        RateCiMethod::ClopperPearson => {
            if n > MAX_CLOPPER_PEARSON_ROWS {
                return Err(MetricError::InvalidParameter {
                    name: "sample size",
                    value: n.to_string(),
                    expected: "at most 1e12 rows for the Clopper-Pearson interval (beyond, the incomplete beta function loses precision; the Wilson interval agrees with it to about 1e-12 there)",
                });
            }
            let x = p_hat * n;
            // Beta(x, n − x + 1) and Beta(x + 1, n − x); the ends at x = 0 and x = n are 0 and 1.
            let lower = if x <= 0.0 {
                0.0
            } else {
                beta_quantile(x, n - x + 1.0, alpha / 2.0)?
            };
            let upper = if x >= n {
                1.0
            } else {
                beta_quantile(x + 1.0, n - x, 1.0 - alpha / 2.0)?
            };
            Interval { lower, upper }
        }
    })
}

/// The largest (effective) row count the Clopper–Pearson interval is computed for (small
/// shapes bisect statrs' incomplete beta, which loses precision with the other shape beyond
/// this; large ones take [`CORNISH_FISHER_SHAPE`]'s expansion).
const MAX_CLOPPER_PEARSON_ROWS: f64 = 1e12;

fn standard_normal() -> Normal {
    Normal::standard()
}

/// The `q`-quantile of Beta(a, b), by bisection on the regularized incomplete beta function.
///
/// statrs' own `Beta::inverse_cdf` (a Newton iteration, AS 109) never returns once its step
/// turns NaN, which happens for lopsided shapes such as Beta(1, 10^7): a group of ten million
/// rows with a single success hung the Clopper–Pearson interval (found by the `state_bytes`
/// fuzz target). Bisection always ends: at most ~1,100 halvings of [0, 1] (down to the
/// subnormals), each a bounded evaluation of `beta_reg` (at most 140 continued-fraction terms).
fn beta_quantile(a: f64, b: f64, q: f64) -> Result<f64> {
    let bad_shape = |e: &dyn std::fmt::Display| MetricError::InvalidParameter {
        name: "Beta shape",
        value: format!("({a}, {b}): {e}"),
        expected: "positive finite shapes",
    };
    Beta::new(a, b).map_err(|e| bad_shape(&e))?;
    if a.min(b) >= CORNISH_FISHER_SHAPE {
        return Ok(cornish_fisher_beta(a, b, q));
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    loop {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi || hi - lo <= 1e-15 * hi {
            break;
        }
        let cdf = checked_beta_reg(a, b, mid).map_err(|e| bad_shape(&e))?;
        if cdf < q {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok((lo + (hi - lo) / 2.0).clamp(0.0, 1.0))
}

/// Both shapes at least this large: [`beta_quantile`] takes the Cornish–Fisher expansion.
///
/// statrs' regularized incomplete beta (a continued fraction of at most 140 terms) is too
/// imprecise once both shapes are large: the Clopper–Pearson ends of a rate of ½ on 10^8 rows
/// came out crossed (lower 0.5000010 > upper 0.4999990; found by the `state_bytes` fuzz target,
/// and reachable by a real audit). Measured against the bisection where it is still accurate
/// (shapes 10^5–2 × 10^6 against 10^6–10^8): the two agree to 2 × 10^-7 standard deviations
/// (4 × 10^-12 absolute on 4 × 10^6 rows at ½); with the skewness below 2/√(10^5), the
/// expansion's neglected terms are O(skewness³) ≈ 3 × 10^-7 standard deviations.
const CORNISH_FISHER_SHAPE: f64 = 1e5;

/// The `q`-quantile of Beta(a, b) for large shapes, by the Cornish–Fisher expansion around the
/// normal (mean, variance, skewness and excess kurtosis of the Beta; statrs supplies the normal
/// quantile): its error is O(skewness³) standard deviations.
fn cornish_fisher_beta(a: f64, b: f64, q: f64) -> f64 {
    let s = a + b;
    let mean = a / s;
    let sd = (a * b / (s * s * (s + 1.0))).sqrt();
    let skew = 2.0 * (b - a) * (s + 1.0).sqrt() / ((s + 2.0) * (a * b).sqrt());
    let kurt =
        6.0 * ((a - b) * (a - b) * (s + 1.0) - a * b * (s + 2.0)) / (a * b * (s + 2.0) * (s + 3.0));
    let z = standard_normal().inverse_cdf(q);
    let w = z + (z * z - 1.0) * skew / 6.0 + (z * z * z - 3.0 * z) * kurt / 24.0
        - (2.0 * z * z * z - 5.0 * z) * skew * skew / 36.0;
    (mean + sd * w).clamp(0.0, 1.0)
}

/// One group's rate with its interval.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRateInterval {
    /// Group name.
    pub group: String,
    /// The (weighted) rate; `None` when the group has no rows in the rate's denominator.
    pub estimate: Option<f64>,
    /// Its interval; `None` with the estimate.
    pub interval: Option<Interval>,
    /// Rows (or Kish effective rows) in the denominator.
    pub effective_n: f64,
}

/// One rate for every group and overall, each with its interval.
#[derive(Debug, Clone, PartialEq)]
pub struct RateIntervals {
    /// Which rate.
    pub rate: Rate,
    /// How the intervals were computed.
    pub method: RateCiMethod,
    /// The confidence level.
    pub confidence: f64,
    /// Per group, in the state's sorted-name order.
    pub groups: Vec<GroupRateInterval>,
    /// All rows pooled.
    pub overall: GroupRateInterval,
}

/// Every group's `rate` with a confidence interval, straight from a state.
///
/// # Errors
/// [`MetricError::Empty`] for an empty state, [`MetricError::WeightOverflow`], and
/// [`MetricError::InvalidParameter`] for a confidence outside `(0, 1)`.
pub fn rate_intervals(
    state: &ConfusionState,
    rate: Rate,
    confidence: f64,
    method: RateCiMethod,
) -> Result<RateIntervals> {
    check_confidence(confidence)?;
    let gc = state.to_group_confusion()?;
    let weighted = state.is_weighted();
    let den_mask = rate_cells(rate).1;
    let one = |name: &str, estimate: Option<f64>, n_eff: f64| -> Result<GroupRateInterval> {
        let interval = match estimate {
            Some(p) if n_eff > 0.0 => Some(rate_interval(p, n_eff, confidence, method)?),
            _ => None,
        };
        Ok(GroupRateInterval {
            group: name.to_string(),
            estimate: interval.and(estimate),
            interval,
            effective_n: n_eff,
        })
    };
    let mut groups = Vec::new();
    let mut pooled = GroupCells::default();
    for ((name, cells), counts) in state.cells().zip(gc.by_group()) {
        groups.push(one(
            name,
            counts.rate(rate),
            cells.effective_n(den_mask, weighted),
        )?);
        pooled.merge(cells);
    }
    let overall = one(
        "overall",
        gc.overall().rate(rate),
        pooled.effective_n(den_mask, weighted),
    )?;
    Ok(RateIntervals {
        rate,
        method,
        confidence,
        groups,
        overall,
    })
}

/// Which gap [`gap_inference`] measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GapMetric {
    /// The gap of one rate across groups (selection rate = demographic parity, true positive rate
    /// = equal opportunity, accuracy, …).
    Rate(Rate),
    /// Equalized odds: the larger of the TPR and FPR differences (the smaller of the two ratios),
    /// fairlearn's `agg="worst_case"`.
    EqualizedOdds,
}

/// Difference or ratio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GapKind {
    /// fairlearn `difference()`: larger means less fair.
    #[default]
    Difference,
    /// fairlearn `ratio()`: smaller means less fair.
    Ratio,
}

/// Settings of [`gap_inference`], with defaults.
///
/// | field | default | meaning |
/// |---|---|---|
/// | `kind` | `Difference` | difference or ratio |
/// | `method` | `BetweenGroups` | fairlearn's `method` |
/// | `confidence` | 0.95 | interval level |
/// | `n_resamples` | 2,000 | bootstrap resamples and permutations each |
/// | `seed` | 0 | one seed for both; same seed, same bits |
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GapSettings {
    /// Difference or ratio.
    pub kind: GapKind,
    /// Between groups or to overall.
    pub method: ParityMethod,
    /// Confidence level of the interval, in `(0, 1)`.
    pub confidence: f64,
    /// Resamples (bootstrap) and permutations, each; at least 100.
    pub n_resamples: usize,
    /// Seed of both procedures.
    pub seed: u64,
}

impl Default for GapSettings {
    fn default() -> Self {
        Self {
            kind: GapKind::Difference,
            method: ParityMethod::BetweenGroups,
            confidence: 0.95,
            n_resamples: 2000,
            seed: 0,
        }
    }
}

/// A gap with its uncertainty.
#[derive(Debug, Clone, PartialEq)]
pub struct GapInference {
    /// The gap on the data (weighted if the state is).
    pub estimate: f64,
    /// Stratified-bootstrap percentile interval.
    pub interval: Interval,
    /// Permutation p-value of "no dependence on the group" (one-sided: a gap at least this
    /// large, or a ratio at least this small).
    pub p_value: f64,
    /// Bootstrap resamples in which the gap was defined (a resample where no group has the
    /// rate's denominator is left out).
    pub n_resamples: usize,
    /// Permutations drawn.
    pub n_permutations: usize,
    /// The seed used.
    pub seed: u64,
    /// Whether weights made both procedures approximate (Kish effective counts).
    pub approximate: bool,
}

/// The gap of `metric` across the groups of `state`, with a bootstrap interval and a permutation
/// p-value (see the module docs for the methods).
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a bad setting (confidence outside `(0, 1)`, fewer than
/// 100 resamples), [`MetricError::InvalidParameter`] for fewer than two groups,
/// [`MetricError::UndefinedMetric`] when no group has the rate's denominator,
/// [`MetricError::CountOverflow`] for a state whose row counts add up past 2^40 (about
/// 1.1 × 10^12 rows; only a corrupted or forged state in practice), and the errors of [`ConfusionState::to_group_confusion`].
pub fn gap_inference(
    state: &ConfusionState,
    metric: GapMetric,
    settings: &GapSettings,
) -> Result<GapInference> {
    let mut one = gap_inferences(state, &[(metric, settings.kind)], settings);
    one.pop().unwrap_or(Err(undefined(metric)))
}

/// Several gaps of one state, each with its bootstrap interval and permutation p-value, from
/// shared draws: one set of bootstrap draws for all of them, and one set of permutations per
/// metric (its difference and ratio read the same permuted tables). Each result is bit for bit
/// `gap_inference(state, metric, &GapSettings { kind, ..*settings })` — the draws do not depend
/// on the gap — at the cost of one gap's draws, not one per gap (`settings.kind` is not used).
///
/// # Errors
/// Per gap, those of [`gap_inference`].
///
/// # Example
/// ```
/// use fair_data::Groups;
/// use fair_metrics::ci::{GapKind, GapMetric, GapSettings, gap_inference, gap_inferences};
/// use fair_metrics::{Rate, state::ConfusionState};
///
/// let mut s = ConfusionState::new();
/// let g = Groups::from_labels(&(0..300).map(|i| ["a", "b", "c"][i % 3]).collect::<Vec<_>>());
/// let y: Vec<usize> = (0..300).map(|i| usize::from(i % 5 < 2)).collect();
/// let p: Vec<usize> = (0..300).map(|i| usize::from(i % 7 < 3 + i % 3)).collect();
/// s.update(&y, &p, &g, None)?;
/// let settings = GapSettings { n_resamples: 200, seed: 5, ..GapSettings::default() };
/// let gaps = [
///     (GapMetric::Rate(Rate::Selection), GapKind::Difference),
///     (GapMetric::Rate(Rate::Selection), GapKind::Ratio),
///     (GapMetric::EqualizedOdds, GapKind::Difference),
/// ];
/// let shared = gap_inferences(&s, &gaps, &settings);
/// for (&(metric, kind), r) in gaps.iter().zip(&shared) {
///     let alone = gap_inference(&s, metric, &GapSettings { kind, ..settings })?;
///     assert_eq!(r.as_ref().unwrap(), &alone);
/// }
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn gap_inferences(
    state: &ConfusionState,
    gaps: &[(GapMetric, GapKind)],
    settings: &GapSettings,
) -> Vec<Result<GapInference>> {
    let all = |e: MetricError| gaps.iter().map(|_| Err(e.clone())).collect();
    if let Err(e) = check_confidence(settings.confidence) {
        return all(e);
    }
    if settings.n_resamples < 100 {
        return all(MetricError::InvalidParameter {
            name: "n_resamples",
            value: settings.n_resamples.to_string(),
            expected: "at least 100 resamples",
        });
    }
    let (observed, sizes) = match bootstrap_cells(state) {
        Ok(x) => x,
        Err(e) => return all(e),
    };
    let weighted = state.is_weighted();
    let with_kind = |kind| GapSettings { kind, ..*settings };
    // Each gap's stage results; the first error of a gap is its result, as in one gap's run.
    let mut failed: Vec<Option<MetricError>> = vec![None; gaps.len()];
    let estimates: Vec<f64> = gaps
        .iter()
        .zip(&mut failed)
        .map(|(&(metric, kind), f)| {
            match gap_statistic(&observed, metric, &with_kind(kind))
                .and_then(|v| v.ok_or(undefined(metric)))
            {
                Ok(v) => v,
                Err(e) => {
                    *f = Some(e);
                    f64::NAN
                }
            }
        })
        .collect();

    // Bootstrap: each group's cells redrawn from Multinomial(n_g, observed shares), one set of
    // draws for every gap.
    let mut boots: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.n_resamples); gaps.len()];
    if failed.iter().any(Option::is_none) {
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
        for _ in 0..settings.n_resamples {
            let sample = resample(&observed, &sizes, &mut rng);
            for (k, &(metric, kind)) in gaps.iter().enumerate() {
                if failed[k].is_some() {
                    continue;
                }
                match gap_statistic(&sample, metric, &with_kind(kind)) {
                    Ok(Some(t)) => boots[k].push(t),
                    Ok(None) => {}
                    Err(e) => failed[k] = Some(e),
                }
            }
        }
    }
    let alpha = 1.0 - settings.confidence;
    let intervals: Vec<Interval> = boots
        .iter_mut()
        .zip(&mut failed)
        .map(|(boot, f)| {
            if f.is_none() && boot.len() < settings.n_resamples / 2 {
                *f = Some(MetricError::UndefinedMetric {
                    metric: "gap bootstrap",
                    reason: "the gap is undefined in most resamples (too few rows in the rate's denominator)",
                });
            }
            if f.is_some() {
                return Interval {
                    lower: f64::NAN,
                    upper: f64::NAN,
                };
            }
            boot.sort_by(f64::total_cmp);
            Interval {
                lower: quantile_sorted(boot, alpha / 2.0),
                upper: quantile_sorted(boot, 1.0 - alpha / 2.0),
            }
        })
        .collect();

    // Permutation test from the margins, per stratum: one set of permuted tables per metric.
    let mut extreme = vec![0usize; gaps.len()];
    let mut drawn = vec![0usize; gaps.len()];
    let mut metrics: Vec<GapMetric> = Vec::new();
    for &(m, _) in gaps {
        if !metrics.contains(&m) {
            metrics.push(m);
        }
    }
    for metric in metrics {
        let mine: Vec<usize> = (0..gaps.len())
            .filter(|&k| gaps[k].0 == metric && failed[k].is_none())
            .collect();
        if mine.is_empty() {
            continue;
        }
        let margins = match permutation_margins(state, &observed, metric, weighted) {
            Ok(m) => m,
            Err(e) => {
                for &k in &mine {
                    failed[k] = Some(e.clone());
                }
                continue;
            }
        };
        // The observed statistic on the same (effective, integer) scale the permutations use.
        let mut observed_t: Vec<Option<f64>> = vec![None; gaps.len()];
        for &k in &mine {
            let succ = observed_successes(&margins);
            match permuted_gap(&margins, &succ, metric, &with_kind(gaps[k].1)) {
                Ok(t) => observed_t[k] = t,
                Err(e) => failed[k] = Some(e),
            }
        }
        let testing: Vec<usize> = mine
            .iter()
            .copied()
            .filter(|&k| failed[k].is_none() && observed_t[k].is_some())
            .collect();
        if testing.is_empty() {
            continue;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed ^ 0x9E37_79B9_7F4A_7C15);
        for _ in 0..settings.n_resamples {
            let succ = permuted_successes(&margins, &mut rng);
            for &k in &testing {
                if failed[k].is_some() {
                    continue;
                }
                let kind = gaps[k].1;
                let t = match permuted_gap(&margins, &succ, metric, &with_kind(kind)) {
                    Ok(Some(t)) => t,
                    Ok(None) => continue,
                    Err(e) => {
                        failed[k] = Some(e);
                        continue;
                    }
                };
                drawn[k] += 1;
                let tol = 1e-12;
                let t_obs = observed_t[k].unwrap_or(f64::NAN);
                let as_extreme = match kind {
                    GapKind::Difference => t >= t_obs - tol,
                    GapKind::Ratio => t <= t_obs + tol,
                };
                extreme[k] += usize::from(as_extreme);
            }
        }
    }
    (0..gaps.len())
        .map(|k| match failed[k].take() {
            Some(e) => Err(e),
            None => Ok(GapInference {
                estimate: estimates[k],
                interval: intervals[k],
                p_value: (1 + extreme[k]) as f64 / (1 + drawn[k]) as f64,
                n_resamples: boots[k].len(),
                n_permutations: drawn[k],
                seed: settings.seed,
                approximate: weighted,
            }),
        })
        .collect()
}

/// Each stratum's (rows in the denominator, successes) per group, for the permutation test of
/// `metric`.
fn permutation_margins(
    state: &ConfusionState,
    observed: &[[f64; CELLS]],
    metric: GapMetric,
    weighted: bool,
) -> Result<Vec<Vec<(u64, u64)>>> {
    permutation_strata(metric)
        .iter()
        .map(|&(num, den)| {
            let stratum: Vec<(u64, u64)> = state
                .cells()
                .zip(observed)
                .map(|((name, c), obs)| stratum_margin(name, c, obs, num, den, weighted))
                .collect::<Result<_>>()?;
            // Bounds every sum `permuted_gap` takes (successes never exceed their rows).
            count_total(stratum.iter().map(|&(m, _)| m), || {
                "the permutation test's rows".into()
            })?;
            Ok(stratum)
        })
        .collect()
}

/// Each group's observed cells (tn, fp, fn, tp; weighted sums when weighted) and the row count
/// its bootstrap redraws (Kish's effective count when weighted), for a state of two or more
/// groups.
fn bootstrap_cells(state: &ConfusionState) -> Result<(Vec<[f64; CELLS]>, Vec<u64>)> {
    let gc = state.to_group_confusion()?;
    if gc.n_groups() < 2 {
        return Err(MetricError::InvalidParameter {
            name: "groups",
            value: gc.n_groups().to_string(),
            expected: "at least two groups to measure a gap",
        });
    }
    let weighted = state.is_weighted();
    let observed: Vec<[f64; CELLS]> = gc
        .by_group()
        .iter()
        .map(|c| [c.tn, c.fp, c.fn_, c.tp])
        .collect();
    let sizes: Vec<u64> = state
        .cells()
        .map(|(name, c)| {
            if weighted {
                Ok(c.effective_n([true; CELLS], true).round() as u64)
            } else {
                count_total(c.rows, || format!("group {name:?}"))
            }
        })
        .collect::<Result<_>>()?;
    count_total(sizes.iter().copied(), || "all groups".into())?;
    Ok((observed, sizes))
}

/// One stratified bootstrap draw: each group's cells from Multinomial(n_g, observed shares).
fn resample(observed: &[[f64; CELLS]], sizes: &[u64], rng: &mut ChaCha8Rng) -> Vec<[f64; CELLS]> {
    observed
        .iter()
        .zip(sizes)
        .map(|(cells, &n)| multinomial(rng, n, cells))
        .collect()
}

fn undefined(metric: GapMetric) -> MetricError {
    MetricError::UndefinedMetric {
        metric: match metric {
            GapMetric::Rate(r) => r.name(),
            GapMetric::EqualizedOdds => "equalized odds",
        },
        reason: "no group has rows in the rate's denominator",
    }
}

/// The rates whose gaps make up `metric`, as (numerator, denominator) cell masks.
fn permutation_strata(metric: GapMetric) -> Vec<([bool; CELLS], [bool; CELLS])> {
    match metric {
        GapMetric::Rate(r) => vec![rate_cells(r)],
        GapMetric::EqualizedOdds => vec![
            rate_cells(Rate::TruePositive),
            rate_cells(Rate::FalsePositive),
        ],
    }
}

/// Rows the resampling tests draw exactly (2^40, about 1.1 × 10^12): `rand_distr`'s samplers work
/// in `f64`. Its H2PE hypergeometric sets up its tails from differences of ln N! terms, which
/// near 2^51 rows (ln N! ≈ 8 × 10^16, an ulp of 16) are off by factors of e^16: acceptance then
/// almost never happens and a draw runs for minutes (a `state_bytes` fuzz hang on forged counts).
/// At 2^40 an ulp of ln N! is below 0.01, and the limits of the rare-outcome draws
/// ([`WALK_CAP`]) stay reachable (they start near 10^11 rows).
const MAX_RESAMPLED_ROWS: u64 = 1 << 40;

/// The sum of row counts decoded from a state (which may be forged), checked: beyond
/// [`MAX_RESAMPLED_ROWS`], or beyond `u64`, is [`MetricError::CountOverflow`] naming `what`.
fn count_total(counts: impl IntoIterator<Item = u64>, what: impl Fn() -> String) -> Result<u64> {
    let mut total: u64 = 0;
    for n in counts {
        total = total
            .checked_add(n)
            .ok_or_else(|| MetricError::CountOverflow {
                what: what(),
                total: format!("more than {}", u64::MAX),
            })?;
    }
    if total > MAX_RESAMPLED_ROWS {
        return Err(MetricError::CountOverflow {
            what: what(),
            total: total.to_string(),
        });
    }
    Ok(total)
}

/// (rows in the denominator, successes) of one group for the permutation test: row counts, or
/// with weights the Kish effective denominator and the weighted rate times it, rounded.
fn stratum_margin(
    name: &str,
    cells: &GroupCells,
    observed: &[f64; CELLS],
    num: [bool; CELLS],
    den: [bool; CELLS],
    weighted: bool,
) -> Result<(u64, u64)> {
    if !weighted {
        let sum = |mask: [bool; CELLS]| -> Result<u64> {
            let masked = (0..CELLS).filter(|&c| mask[c]).map(|c| cells.rows[c]);
            count_total(masked, || format!("group {name:?}"))
        };
        return Ok((sum(den)?, sum(num)?));
    }
    let m = cells.effective_n(den, true).round() as u64;
    let total =
        |mask: [bool; CELLS]| -> f64 { (0..CELLS).filter(|&c| mask[c]).map(|c| observed[c]).sum() };
    let d = total(den);
    let rate = if d > 0.0 { total(num) / d } else { 0.0 };
    Ok((m, ((rate * m as f64).round() as u64).min(m)))
}

/// The observed successes of every stratum (no permutation).
fn observed_successes(margins: &[Vec<(u64, u64)>]) -> Vec<Vec<u64>> {
    margins
        .iter()
        .map(|stratum| stratum.iter().map(|&(_, s)| s).collect())
        .collect()
}

/// One permutation of every stratum: the successes dealt to the groups without replacement
/// (sequential hypergeometric draws), keeping each stratum's total.
fn permuted_successes(margins: &[Vec<(u64, u64)>], rng: &mut ChaCha8Rng) -> Vec<Vec<u64>> {
    margins
        .iter()
        .map(|stratum| {
            let mut left_n: u64 = stratum.iter().map(|&(m, _)| m).sum();
            let mut left_k: u64 = stratum.iter().map(|&(_, s)| s).sum();
            let mut out = Vec::with_capacity(stratum.len());
            for &(m, _) in stratum {
                let x = if m == left_n {
                    left_k
                } else if m == 0 || left_k == 0 {
                    0
                } else {
                    hypergeometric(rng, left_n, left_k, m)
                };
                left_n -= m;
                left_k -= x;
                out.push(x);
            }
            out
        })
        .collect()
}

/// The gap of `metric` on the strata's rows with `successes` (observed or permuted).
fn permuted_gap(
    margins: &[Vec<(u64, u64)>],
    successes: &[Vec<u64>],
    metric: GapMetric,
    settings: &GapSettings,
) -> Result<Option<f64>> {
    let mut per_stratum = Vec::with_capacity(margins.len());
    for (stratum, successes) in margins.iter().zip(successes) {
        let rates: Vec<Option<f64>> = stratum
            .iter()
            .zip(successes)
            .map(|(&(m, _), &x)| (m > 0).then(|| x as f64 / m as f64))
            .collect();
        let n_total: u64 = stratum.iter().map(|&(m, _)| m).sum();
        let k_total: u64 = successes.iter().sum();
        if n_total == 0 {
            per_stratum.push(None);
            continue;
        }
        per_stratum.push(summary_gap(
            rates,
            k_total as f64 / n_total as f64,
            settings,
        )?);
    }
    Ok(combine(metric, settings.kind, &per_stratum))
}

/// The between-groups gap of one stratum without allocating (the resampling loops' path): the
/// same arithmetic as [`summary_gap`]'s fast path; `None` when no group has the denominator.
fn between_groups(
    cells: &[[f64; CELLS]],
    num: [bool; CELLS],
    den: [bool; CELLS],
    kind: GapKind,
) -> Option<f64> {
    let part = |c: &[f64; CELLS], mask: [bool; CELLS]| -> f64 {
        (0..CELLS).filter(|&i| mask[i]).map(|i| c[i]).sum()
    };
    let (mut lo, mut hi, mut any) = (f64::INFINITY, f64::NEG_INFINITY, false);
    for c in cells {
        let d = part(c, den);
        if d > 0.0 {
            let r = (part(c, num) / d).clamp(0.0, 1.0);
            lo = lo.min(r);
            hi = hi.max(r);
            any = true;
        }
    }
    any.then(|| match kind {
        GapKind::Difference => hi - lo,
        GapKind::Ratio if hi > 0.0 => lo / hi,
        GapKind::Ratio if lo > 0.0 => 0.0,
        GapKind::Ratio => 1.0,
    })
}

/// The gap from per-group cells (tn, fp, fn, tp); `None` when undefined.
fn gap_statistic(
    cells: &[[f64; CELLS]],
    metric: GapMetric,
    settings: &GapSettings,
) -> Result<Option<f64>> {
    if settings.method == ParityMethod::BetweenGroups {
        let one = |rate| {
            let (num, den) = rate_cells(rate);
            between_groups(cells, num, den, settings.kind)
        };
        return Ok(match metric {
            GapMetric::Rate(r) => one(r),
            GapMetric::EqualizedOdds => combine(
                metric,
                settings.kind,
                &[one(Rate::TruePositive), one(Rate::FalsePositive)],
            ),
        });
    }
    let mut per_stratum = Vec::new();
    for (num, den) in permutation_strata(metric) {
        let part = |c: &[f64; CELLS], mask: [bool; CELLS]| -> f64 {
            (0..CELLS).filter(|&i| mask[i]).map(|i| c[i]).sum()
        };
        let rates: Vec<Option<f64>> = cells
            .iter()
            .map(|c| {
                let d = part(c, den);
                (d > 0.0).then(|| (part(c, num) / d).clamp(0.0, 1.0))
            })
            .collect();
        let (pn, pd) = cells
            .iter()
            .fold((0.0, 0.0), |(n, d), c| (n + part(c, num), d + part(c, den)));
        if pd <= 0.0 {
            per_stratum.push(None);
            continue;
        }
        per_stratum.push(summary_gap(rates, (pn / pd).clamp(0.0, 1.0), settings)?);
    }
    Ok(combine(metric, settings.kind, &per_stratum))
}

/// fairlearn's difference/ratio of per-group values (undefined groups skipped).
fn summary_gap(
    by_group: Vec<Option<f64>>,
    overall: f64,
    settings: &GapSettings,
) -> Result<Option<f64>> {
    if by_group.iter().all(Option::is_none) {
        return Ok(None);
    }
    if settings.method == ParityMethod::BetweenGroups {
        // The resampling loops' path: max and min of the defined values, with GroupSummary's
        // arithmetic (difference max − min; ratio min / max, 1 when both are 0), without
        // building the summary. The values are clamped proportions, so always valid.
        let defined = by_group.iter().flatten().copied();
        let (lo, hi) = defined.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        return Ok(Some(match settings.kind {
            GapKind::Difference => hi - lo,
            GapKind::Ratio if hi > 0.0 => lo / hi,
            GapKind::Ratio if lo > 0.0 => 0.0,
            GapKind::Ratio => 1.0,
        }));
    }
    let names = vec![String::new(); by_group.len()];
    let s = GroupSummary::from_values("gap", names, overall, by_group)?;
    Ok(Some(match settings.kind {
        GapKind::Difference => s.difference_by(settings.method),
        GapKind::Ratio => s.ratio_by(settings.method),
    }))
}

/// One value from the strata: the single rate's gap, or equalized odds' worst case.
fn combine(metric: GapMetric, kind: GapKind, parts: &[Option<f64>]) -> Option<f64> {
    match metric {
        GapMetric::Rate(_) => parts[0],
        GapMetric::EqualizedOdds => {
            let defined: Vec<f64> = parts.iter().flatten().copied().collect();
            if defined.len() < parts.len() {
                return None;
            }
            Some(match kind {
                GapKind::Difference => defined.iter().copied().fold(f64::MIN, f64::max),
                GapKind::Ratio => defined.iter().copied().fold(f64::MAX, f64::min),
            })
        }
    }
}

/// Multinomial(n, cells / Σcells) by sequential binomials: cell `c` takes a Binomial share of the
/// rows left with probability `cells[c] / Σ cells[c..]`; the last cell with mass takes the rest,
/// so a cell with zero mass never receives a row.
fn multinomial(rng: &mut impl Rng, n: u64, cells: &[f64; CELLS]) -> [f64; CELLS] {
    let mut out = [0.0; CELLS];
    let mut left_n = n;
    for c in 0..CELLS {
        if left_n == 0 {
            break;
        }
        let rest: f64 = cells[c + 1..].iter().sum();
        let x = if rest <= 0.0 {
            left_n
        } else if cells[c] <= 0.0 {
            0
        } else {
            let p = (cells[c] / (cells[c] + rest)).clamp(0.0, 1.0);
            Binomial::new(left_n, p).map_or(0, |b| b.sample(rng))
        };
        out[c] = x as f64;
        left_n -= x;
    }
    out
}

/// One draw of the successes among `n` rows taken without replacement from `population` rows
/// of which `successes` are successes.
///
/// `rand_distr`'s sampler (H2PE / inverse transform) is used where it can set itself up; for
/// some margins of a few thousand rows with a small mode its inverse-transform start
/// underflows and it refuses (e.g. N = 4721, K = 4400, n = 103). Then the draw is done exactly
/// by walking the smaller of the two sets: each of its members lands in the other with the
/// probability of what is left (sequential sampling without replacement, O(min(K, n))).
///
/// `rand_distr`'s inverse-transform set-up (taken when the mode is below 10) loops over
/// `min(K, N−K) + min(n, N−n)` integers: O(rows) per draw for a rare outcome in a large audit
/// (measured: 5.3 s for 100 permutations at 2 × 10^7 rows; found by the `state_bytes` fuzz
/// target as a hang on forged counts). Where that loop would be long, the draw is the exact
/// walk over the smallest sets instead ([`walk_smallest`]): fewer than √(10·N) steps there.
///
/// Every path's draw is clamped to the support `[max(0, n + K − N), min(n, K)]`: the limits
/// (binomial, Poisson) and the floating-point samplers can otherwise land a count outside it on
/// extreme margins, and the next draw of a permutation then has more successes than rows (an
/// overflow found by the `state_bytes` fuzz target).
fn hypergeometric(rng: &mut ChaCha8Rng, population: u64, successes: u64, n: u64) -> u64 {
    let lowest = (n + successes).saturating_sub(population);
    let highest = n.min(successes);
    draw_hypergeometric(rng, population, successes, n).clamp(lowest, highest)
}

fn draw_hypergeometric(rng: &mut ChaCha8Rng, population: u64, successes: u64, n: u64) -> u64 {
    let n1 = successes.min(population - successes);
    let k = n.min(population - n);
    let mode = (k as f64 + 1.0) * (n1 as f64 + 1.0) / (population as f64 + 2.0);
    if mode < 10.0 && n1 + k > 100_000 {
        return walk_smallest(rng, population, successes, n);
    }
    if let Ok(h) = Hypergeometric::new(population, successes, n) {
        return h.sample(rng);
    }
    // The count is symmetric in (successes, n): walk the smaller.
    let (walk, hits_left) = if successes <= n {
        (successes, n)
    } else {
        (n, successes)
    };
    if walk > WALK_CAP {
        // Only forged counts get here (rand_distr refuses a few margins with a small mode; a
        // real refusal walks far fewer items). Walk the smallest of the four sets instead, which
        // is short exactly when the mode is small; it takes the Poisson limit only beyond
        // `WALK_CAP` there. (A binomial limit here — drawing with replacement — was wrong when
        // the sample is most of the population: N = 922,760,963, K = 922,746,882,
        // n = 922,746,881 drew 11 fewer than the support's minimum, found by fuzzing.)
        return walk_smallest(rng, population, successes, n);
    }
    sequential_draw(rng, population, walk, hits_left)
}

/// The exact sequential draw of [`hypergeometric`]'s fallback, after trading the successes for
/// the failures (`x = n − failures drawn`) and the sample for the rows left out
/// (`x = K − successes left out`) when those are smaller: it walks min(K, N−K, n, N−n) items.
fn walk_smallest(rng: &mut ChaCha8Rng, population: u64, successes: u64, n: u64) -> u64 {
    if population - successes < successes {
        return n - walk_smallest(rng, population, population - successes, n);
    }
    if population - n < n {
        return successes - walk_smallest(rng, population, successes, population - n);
    }
    let (walk, hits_left) = if successes <= n {
        (successes, n)
    } else {
        (n, successes)
    };
    if walk > WALK_CAP {
        return poisson_limit(rng, population, walk, hits_left);
    }
    sequential_draw(rng, population, walk, hits_left)
}

/// The exact sequential draw: `walk` items taken one at a time from `population`, of which
/// `hits_left` are marked; the count of marked items taken.
fn sequential_draw(rng: &mut ChaCha8Rng, population: u64, walk: u64, mut hits_left: u64) -> u64 {
    let mut left = population;
    let mut x = 0;
    for _ in 0..walk {
        if hits_left > 0 && rng.random::<f64>() * (left as f64) < hits_left as f64 {
            x += 1;
            hits_left -= 1;
        }
        left -= 1;
    }
    x
}

/// Longest exact walk of [`walk_smallest`]. It only walks when the expected count is below
/// about 10, where the shorter of the two sets has fewer than √(10·N) items, so a walk this long
/// needs N above 10¹¹ rows — beyond any real audit, reachable only by forged state counts (a
/// walk of ~3 × 10⁸ steps per draw hung the fuzzer there).
const WALK_CAP: u64 = 1_000_000;

/// The draw beyond [`WALK_CAP`]: the hypergeometric count of `walk` draws among `population`
/// items of which `hits` are marked, both far above 10⁶ with a mean `walk·hits/population`
/// below ~10, is Poisson with that mean to within a total variation of mean²/walk < 10⁻⁴;
/// clamped to its support.
fn poisson_limit(rng: &mut ChaCha8Rng, population: u64, walk: u64, hits: u64) -> u64 {
    let mean = (walk as f64) * (hits as f64 / population as f64);
    let x = match Poisson::new(mean) {
        Ok(p) => p.sample(rng) as u64,
        Err(_) => 0,
    };
    x.min(walk).min(hits)
}

/// Linear-interpolation quantile (type 7) of sorted values.
pub(crate) fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Margins `rand_distr` refuses (found by the audit CLI on its demo data) are drawn by the
    /// exact fallback, whose mean matches n·K/N.
    #[test]
    fn hypergeometric_falls_back_where_rand_distr_refuses() {
        assert!(Hypergeometric::new(4721, 4400, 103).is_err());
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let draws: Vec<u64> = (0..4000)
            .map(|_| hypergeometric(&mut rng, 4721, 4400, 103))
            .collect();
        assert!(draws.iter().all(|&x| x <= 103));
        let mean = draws.iter().sum::<u64>() as f64 / draws.len() as f64;
        let expected = 103.0 * 4400.0 / 4721.0;
        // sd of one draw ≈ 2.5, of the mean ≈ 0.04.
        assert!((mean - expected).abs() < 0.2, "{mean} vs {expected}");
        // Both walking directions.
        let small_k: f64 = (0..4000)
            .map(|_| hypergeometric(&mut rng, 1000, 20, 600) as f64)
            .sum::<f64>()
            / 4000.0;
        assert!((small_k - 12.0).abs() < 0.2, "{small_k}");
    }

    /// The Clopper–Pearson ends bracket the rate and never cross, from 10^3 to 10^12 rows and
    /// rates from 1/n to 1 − 1/n (they crossed at ½ from 10^8 rows before the Cornish–Fisher
    /// branch), and are close to Wilson's at large n.
    #[test]
    fn clopper_pearson_ends_are_ordered_at_any_size() {
        let mut n = 1e3;
        while n <= 1e12 {
            for p in [0.5, 0.1, 0.001, 0.999, 1.0 / n, 1.0 - 1.0 / n] {
                let cp = rate_interval(p, n, 0.9, RateCiMethod::ClopperPearson).unwrap();
                assert!(cp.lower <= p && p <= cp.upper, "n={n} p={p}: {cp:?}");
                assert!(cp.lower < cp.upper, "n={n} p={p}: {cp:?}");
                if n >= 1e6 && p * n >= 1e3 && (1.0 - p) * n >= 1e3 {
                    let w = rate_interval(p, n, 0.9, RateCiMethod::Wilson).unwrap();
                    let (a, b) = (cp.upper - cp.lower, w.upper - w.lower);
                    assert!((a - b).abs() < 0.05 * b, "n={n} p={p}: {cp:?} vs {w:?}");
                }
            }
            n *= 10.0;
        }
        // Where the bisection is accurate (10^7 rows at ½: both shapes 5 × 10^6 take the
        // expansion), the bisected quantiles (measured) agree to 1.4 × 10^-13.
        let cp = rate_interval(0.5, 1e7, 0.9, RateCiMethod::ClopperPearson).unwrap();
        assert!((cp.lower - 0.499_739_875_830_030).abs() < 1e-12, "{cp:?}");
        assert!((cp.upper - 0.500_260_124_169_970).abs() < 1e-12, "{cp:?}");
    }

    /// Every draw lies in the support [max(0, n + K − N), min(n, K)], on every path (rand_distr,
    /// the walks, the Poisson limit), up to the 2^40-row cap, even before the final clamp: a
    /// draw outside it (the old binomial limit of rand_distr's refusals) made the next draw of a
    /// permutation see more successes than rows (a fuzzer overflow).
    #[test]
    fn draws_stay_in_the_support() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut cases: Vec<(u64, u64, u64)> = vec![
            (1 << 40, (1 << 40) - 3, (1 << 40) - 5),
            (1 << 40, 300_000_000, (1 << 40) - 300_000_000),
            (1 << 40, (1 << 40) - 1, 1),
            // rand_distr refuses it; the fallback once drew below the support (fuzzer).
            (922_760_963, 922_746_882, 922_746_881),
            (184_549_458, 184_549_378, 184_549_378),
            (4721, 4400, 103),
            (10, 10, 10),
            (10, 0, 7),
            (1, 1, 1),
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 11) % m
        };
        for _ in 0..300 {
            let n_pop = 1 + next(1 << 40);
            let k = next(n_pop + 1);
            let n = next(n_pop + 1);
            cases.push((n_pop, k, n));
        }
        for (n_pop, k, n) in cases {
            for _ in 0..3 {
                // Unclamped: each path must keep to the support on its own.
                let x = draw_hypergeometric(&mut rng, n_pop, k, n);
                let lo = (n + k).saturating_sub(n_pop);
                assert!(lo <= x && x <= n.min(k), "N={n_pop} K={k} n={n}: {x}");
            }
        }
    }

    /// Forged state sizes (N = 2^53, past today's 2^40 row cap; both sets ~3 × 10⁸): the exact walk would
    /// take ~3 × 10⁸ steps per draw (a fuzzer timeout); the Poisson limit answers at once with
    /// the right mean, inside the support, in every complement direction.
    #[test]
    fn forged_sizes_draw_from_the_poisson_limit() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let n = 1u64 << 53;
        let k = 300_000_000u64;
        let mean = (k as f64) * (k as f64) / n as f64; // ≈ 9.99
        for (succ, draw) in [(k, k), (n - k, k), (k, n - k)] {
            let xs: Vec<u64> = (0..2000)
                .map(|_| hypergeometric(&mut rng, n, succ, draw))
                .collect();
            let expected = if succ == k && draw == k {
                mean
            } else if succ == n - k {
                draw as f64 - mean
            } else {
                succ as f64 - mean
            };
            let m = xs.iter().map(|&x| x as f64).sum::<f64>() / xs.len() as f64;
            // sd of the mean ≈ √10 / √2000 ≈ 0.07.
            assert!((m - expected).abs() < 0.4, "{m} vs {expected}");
            assert!(xs.iter().all(|&x| x <= succ.min(draw)));
        }
    }

    /// A rare outcome in a large population (rand_distr's set-up would loop over ~2 × 10^7
    /// integers per draw) goes to the walk over the smallest sets: right means, every
    /// complement direction, and quickly (the test would take minutes otherwise).
    #[test]
    fn rare_outcomes_in_large_populations_walk_the_smallest_set() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let big = 20_000_000u64;
        for (k, n) in [
            (3, big / 2),
            (big - 3, big / 2),
            (3, big - 5),
            (big - 3, big - 5),
        ] {
            let draws: Vec<u64> = (0..4000)
                .map(|_| hypergeometric(&mut rng, big, k, n))
                .collect();
            assert!(draws.iter().all(|&x| x <= k.min(n)));
            let mean = draws.iter().sum::<u64>() as f64 / draws.len() as f64;
            let expected = n as f64 * k as f64 / big as f64;
            let sd = (expected * (1.0 - k as f64 / big as f64) * (1.0 - n as f64 / big as f64))
                .sqrt()
                .max(1e-3);
            assert!(
                (mean - expected).abs() < 5.0 * sd / (draws.len() as f64).sqrt() + 1e-9,
                "K = {k}, n = {n}: mean {mean} vs {expected}"
            );
        }
    }
}
