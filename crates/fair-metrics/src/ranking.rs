//! Fairness of rankings and top-k selections: the exposure each group receives, and FA*IR's
//! ranked group fairness test (Zehlike, Bonchi, Castillo, Hajian, Megahed, Baeza-Yates, "FA*IR:
//! A Fair Top-k Ranking Algorithm", CIKM 2017).
//!
//! **FA*IR's test.** A ranking of `k` items passes when every prefix of length `i` holds at
//! least `m(i)` protected items, `m(i)` the `alpha`-quantile of Binomial(`i`, `p`) — the fewest
//! protected items a ranking drawn by independent coin flips with success `p` has with
//! probability at least `alpha` (scipy's `binom.ppf(alpha, i, p)`, the smallest `m` with
//! `CDF(m) ≥ alpha`; 0 when negative). Testing all `k` prefixes at level `alpha` rejects a fair
//! ranking more often than `alpha`; the paper's correction lowers the level until the
//! probability that a fair ranking fails some prefix is as close as possible to `alpha`
//! ([`adjusted_mtable`]). The failure probability of a table is computed exactly here by one
//! pass over the positions (the distribution of the protected count, with the prefixes that
//! fall short removed), where the reference implementation (fairsearchcore) enumerates blocks.
//!
//! **Exposure** ([`group_exposure`]): an item at rank `r` (1-based) is seen with weight
//! `1 / log2(1 + r)` (DCG's discount); a group's exposure is the sum over its items, its share
//! of exposure is compared with its share of the items ([`GroupExposure::exposure_ratio`]), and
//! its share of the top `k` positions is reported for each `k` asked.
//!
//! ```
//! use fair_metrics::ranking::{mtable, ranked_group_fairness};
//! // k = 10, p = 0.5, alpha = 0.1: at least one protected item from position 4 on, …
//! assert_eq!(mtable(10, 0.5, 0.1)?, vec![0, 0, 0, 1, 1, 1, 2, 2, 3, 3]);
//! let ranking = [false, false, false, true, false, false, true, false, true, false];
//! assert!(ranked_group_fairness(&ranking, 0.5, 0.1, false)?.passes);
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

use crate::error::{MetricError, Result};
use statrs::distribution::{Binomial, Discrete};

fn check(k: usize, p: f64, alpha: f64) -> Result<()> {
    if k == 0 {
        return Err(MetricError::InvalidParameter {
            name: "k",
            value: "0".into(),
            expected: "at least one position",
        });
    }
    if !(p > 0.0 && p < 1.0) {
        return Err(MetricError::InvalidParameter {
            name: "p",
            value: p.to_string(),
            expected: "the target proportion of protected items, strictly between 0 and 1",
        });
    }
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(MetricError::InvalidParameter {
            name: "alpha",
            value: alpha.to_string(),
            expected: "a significance level strictly between 0 and 1, e.g. 0.1",
        });
    }
    Ok(())
}

/// The smallest `m` with `P(Binomial(n, p) ≤ m) ≥ q` (scipy's `binom.ppf`).
fn binomial_quantile(n: u64, p: f64, q: f64) -> u64 {
    let Ok(b) = Binomial::new(p, n) else { return 0 };
    let mut cdf = 0.0;
    for m in 0..=n {
        cdf += b.pmf(m);
        // A relative tolerance as scipy's ppf has, so a CDF equal to q up to rounding counts.
        if cdf >= q * (1.0 - 1e-12) {
            return m;
        }
    }
    n
}

/// FA*IR's table without the multiple-test correction: `m(i)` for `i = 1..=k` (see the module
/// docs).
///
/// # Errors
/// [`MetricError::InvalidParameter`] for `k = 0`, `p` or `alpha` outside (0, 1).
pub fn mtable(k: usize, p: f64, alpha: f64) -> Result<Vec<u64>> {
    check(k, p, alpha)?;
    Ok((1..=k as u64)
        .map(|i| binomial_quantile(i, p, alpha))
        .collect())
}

/// The probability that a ranking of independent coin flips (protected with probability `p`)
/// has fewer than `table[i − 1]` protected items in some prefix `i`: one pass over the positions
/// carrying the distribution of the protected count among the rankings not yet failed.
pub fn fail_probability(table: &[u64], p: f64) -> f64 {
    let mut alive = vec![1.0_f64];
    // The mass removed, summed as it is removed (a table of zeros fails with probability 0
    // exactly, not 1 minus a rounded sum).
    let mut failed = 0.0;
    for &m in table {
        let mut next = vec![0.0; alive.len() + 1];
        for (c, &mass) in alive.iter().enumerate() {
            next[c] += mass * (1.0 - p);
            next[c + 1] += mass * p;
        }
        for mass in next.iter_mut().take((m as usize).min(alive.len() + 1)) {
            failed += *mass;
            *mass = 0.0;
        }
        alive = next;
    }
    failed.clamp(0.0, 1.0)
}

/// A table whose failure probability is the closest to the level asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct AdjustedMTable {
    /// The per-prefix level the table is built at.
    pub alpha: f64,
    /// `m(i)` for `i = 1..=k`.
    pub mtable: Vec<u64>,
    /// The probability that a fair ranking fails it ([`fail_probability`]).
    pub fail_probability: f64,
}

fn boundary(k: usize, p: f64, alpha: f64, fail: &dyn Fn(&[u64]) -> f64) -> Result<AdjustedMTable> {
    let table = mtable(k, p, alpha.max(f64::MIN_POSITIVE))?;
    Ok(AdjustedMTable {
        fail_probability: fail(&table),
        alpha,
        mtable: table,
    })
}

/// FA*IR's corrected table: the per-prefix level is searched by bisection in `(0, alpha]`
/// until the table's failure probability is as close as the tables allow to `alpha`
/// (fairsearchcore's `adjust_alpha`: the same search, the same choice among the last three
/// tables), the failure probability computed exactly over all `k` prefixes.
///
/// fairsearchcore 1.0.4 leaves the last prefix out of the failure probability (its
/// `compute_aux_mtable` loops over positions `1..k−1`), so where two tables differ only there it
/// can pick the other one: at `k = 10, p = 0.5, alpha = 0.1` it picks `m(7) = 2` (failure
/// probability 0.111 over all ten prefixes) where this picks `m(7) = 1` (0.0996). With the
/// last prefix left out the same search gives its tables exactly (tested).
///
/// # Errors
/// As [`mtable`].
pub fn adjusted_mtable(k: usize, p: f64, alpha: f64) -> Result<AdjustedMTable> {
    adjusted_with(k, p, alpha, &|t| fail_probability(t, p))
}

fn adjusted_with(
    k: usize,
    p: f64,
    alpha: f64,
    fail: &dyn Fn(&[u64]) -> f64,
) -> Result<AdjustedMTable> {
    check(k, p, alpha)?;
    const EPS: f64 = 1e-16;
    let mass = |b: &AdjustedMTable| b.mtable.iter().sum::<u64>();
    let (mut a_min, mut a_max) = (0.0, alpha);
    let mut min_b = boundary(k, p, a_min, fail)?;
    let mut max_b = boundary(k, p, a_max, fail)?;
    let mut a_mid = (a_min + a_max) / 2.0;
    let mut mid_b = boundary(k, p, a_mid, fail)?;
    let closest = |bs: &[&AdjustedMTable]| -> AdjustedMTable {
        bs.iter()
            .min_by(|x, y| {
                (x.fail_probability - alpha)
                    .abs()
                    .total_cmp(&(y.fail_probability - alpha).abs())
            })
            .map(|b| (*b).clone())
            .unwrap_or_else(|| bs[0].clone())
    };
    // The search stops on an exact hit, as the reference does (a bit-exact comparison).
    #[allow(clippy::float_cmp)]
    let hit = |b: &AdjustedMTable| b.fail_probability == alpha;
    while mass(&min_b) < mass(&max_b) && !hit(&mid_b) {
        if mid_b.fail_probability < alpha {
            a_min = a_mid;
            min_b = boundary(k, p, a_min, fail)?;
        } else {
            a_max = a_mid;
            max_b = boundary(k, p, a_max, fail)?;
        }
        a_mid = (a_min + a_max) / 2.0;
        mid_b = boundary(k, p, a_mid, fail)?;
        let (lo, hi, mid) = (mass(&min_b), mass(&max_b), mass(&mid_b));
        if hi - lo == 1 || max_b.alpha - min_b.alpha <= EPS {
            // Ties go to the smaller level, as the reference does.
            return Ok(closest(&[&min_b, &max_b]));
        }
        if hi - mid == 1 && mid - lo == 1 {
            return Ok(closest(&[&mid_b, &min_b, &max_b]));
        }
    }
    Ok(mid_b)
}

/// The outcome of FA*IR's test on one ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedGroupFairness {
    /// Whether every prefix holds at least its `m(i)` protected items.
    pub passes: bool,
    /// The first (1-based) prefix length that holds too few, if any.
    pub first_violation: Option<usize>,
    /// The table used.
    pub mtable: Vec<u64>,
    /// The per-prefix level of the table (the corrected one when `adjust`).
    pub alpha: f64,
}

/// FA*IR's ranked group fairness test of `protected` (position 1 first): `adjust` uses the
/// corrected table ([`adjusted_mtable`]), else [`mtable`].
///
/// # Errors
/// As [`mtable`] (with `k` the ranking's length).
pub fn ranked_group_fairness(
    protected: &[bool],
    p: f64,
    alpha: f64,
    adjust: bool,
) -> Result<RankedGroupFairness> {
    let k = protected.len();
    let (table, level) = if adjust {
        let a = adjusted_mtable(k, p, alpha)?;
        (a.mtable, a.alpha)
    } else {
        (mtable(k, p, alpha)?, alpha)
    };
    let mut count = 0_u64;
    let mut first_violation = None;
    for (i, (&is_protected, &m)) in protected.iter().zip(&table).enumerate() {
        count += u64::from(is_protected);
        if count < m {
            first_violation = Some(i + 1);
            break;
        }
    }
    Ok(RankedGroupFairness {
        passes: first_violation.is_none(),
        first_violation,
        mtable: table,
        alpha: level,
    })
}

/// One group's exposure over a set of rankings.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupExposure {
    /// Group code.
    pub group: usize,
    /// Items of the group (over all rankings).
    pub items: u64,
    /// Σ 1 / log2(1 + rank) over its items.
    pub exposure: f64,
    /// Its share of all items.
    pub item_share: f64,
    /// Its share of all exposure.
    pub exposure_share: f64,
    /// `exposure_share / item_share`: 1 when the group is seen in proportion to its items,
    /// below 1 when it sits lower than its numbers warrant.
    pub exposure_ratio: f64,
    /// For each `k` asked, its share of the positions `1..=k` over all rankings.
    pub top_k_share: Vec<f64>,
}

/// Each group's exposure over rankings given as one row per item: its query, its 1-based rank
/// within the query, and its group code (`0..n_groups`); `top_k` lists the cut-offs of the
/// top-k shares.
///
/// # Errors
/// [`MetricError::LengthMismatch`] for columns of different lengths, [`MetricError::Empty`]
/// without rows, [`MetricError::InvalidParameter`] for a rank of 0, a group code out of range,
/// or a `k` of 0.
///
/// ```
/// use fair_metrics::ranking::group_exposure;
/// // One query: a at rank 1, b at ranks 2 and 3.
/// let e = group_exposure(&[7, 7, 7], &[1, 2, 3], &[0, 1, 1], 2, &[1])?;
/// assert!((e[0].exposure - 1.0).abs() < 1e-15);
/// assert!((e[1].exposure - (1.0 / 3f64.log2() + 0.5)).abs() < 1e-15);
/// assert_eq!(e[0].top_k_share, vec![1.0]);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn group_exposure(
    query: &[u64],
    rank: &[u64],
    group: &[usize],
    n_groups: usize,
    top_k: &[u64],
) -> Result<Vec<GroupExposure>> {
    crate::validate::check_len("rank", query.len(), rank.len())?;
    crate::validate::check_len("group", query.len(), group.len())?;
    if query.is_empty() {
        return Err(MetricError::Empty { what: "rankings" });
    }
    if let Some(&k) = top_k.iter().find(|&&k| k == 0) {
        return Err(MetricError::InvalidParameter {
            name: "top_k",
            value: k.to_string(),
            expected: "cut-offs of at least 1",
        });
    }
    let mut items = vec![0_u64; n_groups];
    let mut exposure = vec![0.0_f64; n_groups];
    let mut in_top = vec![vec![0_u64; top_k.len()]; n_groups];
    let mut top_total = vec![0_u64; top_k.len()];
    for (i, (&r, &g)) in rank.iter().zip(group).enumerate() {
        if r == 0 {
            return Err(MetricError::InvalidParameter {
                name: "rank",
                value: format!("0 at row {i}"),
                expected: "1-based ranks (1 = the top)",
            });
        }
        if g >= n_groups {
            return Err(MetricError::InvalidParameter {
                name: "group code",
                value: g.to_string(),
                expected: "a code below the number of groups",
            });
        }
        items[g] += 1;
        exposure[g] += 1.0 / ((1 + r) as f64).log2();
        for (j, &k) in top_k.iter().enumerate() {
            if r <= k {
                in_top[g][j] += 1;
                top_total[j] += 1;
            }
        }
    }
    let (n_items, total): (u64, f64) = (items.iter().sum(), exposure.iter().sum());
    Ok((0..n_groups)
        .map(|g| {
            let item_share = items[g] as f64 / n_items as f64;
            let exposure_share = exposure[g] / total;
            GroupExposure {
                group: g,
                items: items[g],
                exposure: exposure[g],
                item_share,
                exposure_share,
                exposure_ratio: if item_share > 0.0 {
                    exposure_share / item_share
                } else {
                    f64::NAN
                },
                top_k_share: top_total
                    .iter()
                    .zip(&in_top[g])
                    .map(|(&t, &c)| if t > 0 { c as f64 / t as f64 } else { f64::NAN })
                    .collect(),
            }
        })
        .collect())
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact values by hand
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn tables_by_hand() {
        // p = 0.5, alpha = 0.1: Binomial(4, 0.5) has P(0) = 1/16 < 0.1 ≤ P(≤1) = 5/16: m(4) = 1.
        assert_eq!(mtable(4, 0.5, 0.1).unwrap(), vec![0, 0, 0, 1]);
        // fairsearchcore's own test (k = 20, p = 0.25, alpha = 0.1).
        assert_eq!(
            mtable(20, 0.25, 0.1).unwrap(),
            vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3]
        );
        // A table of zeros never fails; [1] fails when the first item is not protected.
        assert_eq!(fail_probability(&[0, 0, 0], 0.3), 0.0);
        assert!((fail_probability(&[1], 0.3) - 0.7).abs() < 1e-15);
        // [0, 1]: fails when neither of two is protected: 0.7².
        assert!((fail_probability(&[0, 1], 0.3) - 0.49).abs() < 1e-15);
        assert!(mtable(0, 0.5, 0.1).is_err() && mtable(3, 1.0, 0.1).is_err());
        assert!(mtable(3, 0.5, 0.0).is_err());
    }

    /// fairsearchcore 1.0.4's `Fair(k, p, alpha)`: `create_unadjusted_mtable`,
    /// `create_adjusted_mtable` and `adjust_alpha` (run with its `LegalAssignmentKey.__hash__`
    /// wrapped in `int`, which modern Python requires), on five cases.
    #[test]
    fn equals_fairsearchcore() {
        #[allow(clippy::type_complexity)]
        let cases: Vec<(usize, f64, f64, f64, Vec<u64>, Vec<u64>)> = vec![
            (
                20,
                0.25,
                0.1,
                0.07812500000000001,
                vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2],
                vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3],
            ),
            (
                10,
                0.5,
                0.1,
                0.07500000000000001,
                vec![0, 0, 0, 1, 1, 1, 2, 2, 2, 3],
                vec![0, 0, 0, 1, 1, 1, 2, 2, 3, 3],
            ),
            (
                50,
                0.3,
                0.05,
                0.018750000000000003,
                vec![
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3,
                    3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9,
                ],
                vec![
                    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4,
                    4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10,
                ],
            ),
            (
                100,
                0.5,
                0.1,
                0.020693969726562504,
                vec![
                    0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7, 7, 7, 8,
                    8, 9, 9, 9, 10, 10, 11, 11, 12, 12, 12, 13, 13, 14, 14, 14, 15, 15, 16, 16, 17,
                    17, 17, 18, 18, 19, 19, 20, 20, 20, 21, 21, 22, 22, 23, 23, 23, 24, 24, 25, 25,
                    26, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34,
                    34, 35, 35, 36, 36, 37, 37, 38, 38, 38, 39, 39, 40,
                ],
                vec![
                    0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 6, 6, 7, 7, 8, 8, 8, 9, 9, 10,
                    10, 11, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 16, 17, 17, 18, 18, 19,
                    19, 20, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 25, 26, 26, 27, 27, 28,
                    28, 29, 29, 30, 30, 31, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37,
                    38, 38, 38, 39, 39, 40, 40, 41, 41, 42, 42, 43, 43, 44,
                ],
            ),
            (
                30,
                0.7,
                0.2,
                0.08359375000000001,
                vec![
                    0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 14,
                    14, 15, 16, 16, 17, 17,
                ],
                vec![
                    0, 1, 1, 2, 3, 3, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 13, 14, 14,
                    15, 16, 16, 17, 18, 18, 19,
                ],
            ),
        ];
        for (k, p, alpha, adjusted_alpha, adjusted, unadjusted) in cases {
            assert_eq!(
                mtable(k, p, alpha).unwrap(),
                unadjusted,
                "unadjusted {k} {p} {alpha}"
            );
            // Its failure probability leaves the last prefix out (see adjusted_mtable).
            let without_last = |t: &[u64]| fail_probability(&t[..t.len() - 1], p);
            let a = adjusted_with(k, p, alpha, &without_last).unwrap();
            assert_eq!(a.mtable, adjusted, "adjusted {k} {p} {alpha}");
            assert!(
                (a.alpha - adjusted_alpha).abs() < 1e-15,
                "{} vs {adjusted_alpha}",
                a.alpha
            );
            // Over all k prefixes, the table chosen here is at least as close to alpha.
            let exact = adjusted_mtable(k, p, alpha).unwrap();
            let theirs = fail_probability(&adjusted, p);
            assert!((exact.fail_probability - alpha).abs() <= (theirs - alpha).abs() + 1e-15);
        }
    }

    #[test]
    fn the_correction_lowers_the_level_toward_alpha() {
        let unadjusted = fail_probability(&mtable(20, 0.25, 0.1).unwrap(), 0.25);
        let adjusted = adjusted_mtable(20, 0.25, 0.1).unwrap();
        assert!(unadjusted > 0.1, "{unadjusted}");
        assert!(adjusted.alpha < 0.1);
        assert!((adjusted.fail_probability - 0.1).abs() < (unadjusted - 0.1).abs());
        let t = ranked_group_fairness(&[false; 20], 0.25, 0.1, true).unwrap();
        assert!(!t.passes && t.first_violation.is_some());
    }

    #[test]
    fn a_simulated_fair_ranking_fails_at_the_computed_probability() {
        use rand::{RngExt, SeedableRng};
        let table = mtable(15, 0.3, 0.1).unwrap();
        let want = fail_probability(&table, 0.3);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let runs = 20_000;
        let failed = (0..runs)
            .filter(|_| {
                let ranking: Vec<bool> = (0..15).map(|_| rng.random::<f64>() < 0.3).collect();
                let mut c = 0;
                ranking.iter().zip(&table).any(|(&x, &m)| {
                    c += u64::from(x);
                    c < m
                })
            })
            .count();
        let got = failed as f64 / runs as f64;
        // Binomial sd at 20,000 runs ≈ 0.003.
        assert!(
            (got - want).abs() < 0.012,
            "simulated {got}, computed {want}"
        );
    }

    proptest! {
        #[test]
        fn tables_grow_by_at_most_one_and_exposure_shares_sum_to_one(
            k in 1_usize..60, p in 0.05_f64..0.95, alpha in 0.01_f64..0.5,
            ranks in prop::collection::vec((1_u64..30, 0_usize..3), 1..80),
        ) {
            let t = mtable(k, p, alpha).unwrap();
            prop_assert!(t.windows(2).all(|w| w[1] >= w[0] && w[1] - w[0] <= 1));
            let f = fail_probability(&t, p);
            prop_assert!((0.0..=1.0).contains(&f));
            let q: Vec<u64> = ranks.iter().map(|_| 1).collect();
            let r: Vec<u64> = ranks.iter().map(|x| x.0).collect();
            let g: Vec<usize> = ranks.iter().map(|x| x.1).collect();
            let e = group_exposure(&q, &r, &g, 3, &[5]).unwrap();
            let s: f64 = e.iter().map(|x| x.exposure_share).sum();
            prop_assert!((s - 1.0).abs() < 1e-12);
        }
    }
}
