//! Minimised crashing inputs of the cargo-fuzz targets in `fuzz/` (issue 18), replayed as plain
//! tests on stable so `cargo test --workspace` keeps them fixed. Each test names its target and
//! the commit of the fix (see docs/reliability.md).

use fair_data::Groups;
use fair_metrics::state::ScoreState;
use fair_metrics::{MetricError, roc};

/// Target `metrics`, fix 3066c95: the cross-group AUC multiplied the two groups' raw weight
/// totals (1e270 · 1e292 = ∞) and returned ∞/∞ = NaN inside `Ok`.
#[test]
fn cross_group_auc_with_huge_finite_weights_is_finite() {
    let groups = Groups::from_labels(&["g1", "g0"]);
    let scores = [8448.0 / 65535.0, 1e283];
    let gap = roc::cross_group_auc(&scores, &groups, Some(&[1e270, 1e292])).unwrap();
    // Group g0's only score is above g1's: P(s_g0 > s_g1) = 1, so the gap is |1 − ½| = ½.
    assert!((gap.max - 0.5).abs() < 1e-12, "gap {}", gap.max);
    assert!(gap.matrix.iter().all(|v| v.is_finite()));
}

/// Target `metrics`, fix 3066c95: weights that are each finite but sum past f64::MAX gave
/// an AUC of NaN inside `Ok`; now a `WeightOverflow` telling the user to rescale.
#[test]
fn auc_with_weights_summing_to_infinity_is_a_typed_error() {
    let labels = [1, 0, 1, 1, 1];
    let scores = [1e275, 26112.0 / 65535.0, 1.0, 1e279, -1.0];
    let weights = [1.0, 43433.0 / 65535.0, f64::MAX, 1.0, 1e303];
    let err = roc::roc_auc(&labels, &scores, Some(&weights)).unwrap_err();
    assert!(matches!(err, MetricError::WeightOverflow { .. }), "{err}");
    assert!(err.to_string().contains("rescale the weights"));
    // The same class through the grouped score metrics.
    let groups = Groups::from_labels(&["a", "b", "a", "b", "a"]);
    for r in [
        fair_metrics::ks::ks_statistic(&scores, &groups, Some(&weights)).map(|s| s.max),
        roc::cross_group_auc(&scores, &groups, Some(&weights)).map(|s| s.max),
    ] {
        assert!(
            matches!(r, Err(MetricError::WeightOverflow { .. })),
            "{r:?}"
        );
    }
}

/// Target `state_bytes`, fix 3066c95: decoded run-length counts summed with a plain `+`
/// (overflow panic in debug, a wrapped row count in release), and `to_columns` sized its
/// allocation by that count (an abort for a forged one).
#[test]
fn forged_score_state_counts_neither_overflow_nor_abort() {
    let mut state = ScoreState::new();
    state
        .update(
            &[0, 1],
            &[0.25, 0.75],
            &Groups::from_labels(&["a", "a"]),
            None,
        )
        .unwrap();
    let mut bytes = state.to_bytes();
    // Layout: … entries of (score f64, label u8, weight f64, count u64); the two counts are the
    // last 8 bytes of each 25-byte entry.
    let len = bytes.len();
    for end in [len, len - 25] {
        bytes[end - 8..end].copy_from_slice(&u64::MAX.to_le_bytes());
    }
    let forged = ScoreState::from_bytes(&bytes).unwrap();
    assert_eq!(forged.total_rows(), u64::MAX);
    let err = forged.to_columns().unwrap_err();
    assert!(err.to_string().contains("fit in memory"), "{err}");
}

/// Target `state_bytes` (with `ci`, fe31c58): a timeout. The Clopper–Pearson interval of one
/// success in ten million rows called statrs' `Beta::inverse_cdf` for Beta(1, 10^7), whose
/// Newton iteration turns NaN and never returns (the fuzz input forged the count; a real group
/// of that size does the same). The Beta quantiles are now bisected; here against the closed
/// forms for one success (Beta(1, n)) and one failure (Beta(n, 1)).
#[test]
fn clopper_pearson_on_ten_million_rows_returns() {
    use fair_metrics::ci::{RateCiMethod, rate_interval};
    let n = 1e7;
    let q: f64 = 0.025;
    let one = rate_interval(1.0 / n, n, 0.95, RateCiMethod::ClopperPearson).unwrap();
    let lower = 1.0 - (1.0 - q).powf(1.0 / n); // Beta(1, n) quantile q
    assert!(
        (one.lower - lower).abs() < 1e-6 * lower,
        "{one:?} vs {lower}"
    );
    assert!(one.lower < 1.0 / n && 1.0 / n < one.upper, "{one:?}");
    let all_but_one = rate_interval(1.0 - 1.0 / n, n, 0.95, RateCiMethod::ClopperPearson).unwrap();
    let upper = (1.0 - q).powf(1.0 / n); // Beta(n, 1) quantile 1 − q
    assert!(
        (all_but_one.upper - upper).abs() < 1e-6 * (1.0 - upper),
        "{all_but_one:?}"
    );
    // Beyond 1e12 rows the interval is refused (the incomplete beta loses precision there).
    assert!(matches!(
        rate_interval(0.3, 1e15, 0.95, RateCiMethod::ClopperPearson),
        Err(MetricError::InvalidParameter {
            name: "sample size",
            ..
        })
    ));
}
