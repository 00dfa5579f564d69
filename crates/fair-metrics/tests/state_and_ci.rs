//! The mergeable states merge exactly (any partitioning, any order, bit for bit), encode and
//! decode safely, and the intervals and tests computed from them are right on hand-checked cases.
// Exactness is the point here: counts and exact sums are compared bit for bit.
#![allow(clippy::float_cmp)]

use fair_data::Groups;
use fair_metrics::ci::{
    GapKind, GapMetric, GapSettings, RateCiMethod, gap_inference, rate_interval, rate_intervals,
};
use fair_metrics::state::{ConfusionState, ScoreState};
use fair_metrics::{GroupConfusion, MetricError, ParityMethod, Rate};
use proptest::prelude::*;

fn names(codes: &[usize]) -> Vec<String> {
    codes.iter().map(|c| format!("g{c}")).collect()
}

/// Rows as (label, prediction, group code, weight, score).
fn rows_strategy() -> impl Strategy<Value = Vec<(usize, usize, usize, f64, f64)>> {
    prop::collection::vec(
        (
            0usize..2,
            0usize..2,
            0usize..4,
            prop_oneof![Just(0.0), 0.001f64..1e3, 1e-300f64..1e-290],
            prop_oneof![Just(0.5), -3.0f64..3.0],
        ),
        1..120,
    )
}

fn confusion_from(rows: &[(usize, usize, usize, f64, f64)], weighted: bool) -> ConfusionState {
    let y: Vec<usize> = rows.iter().map(|r| r.0).collect();
    let p: Vec<usize> = rows.iter().map(|r| r.1).collect();
    let g = Groups::from_labels(&names(&rows.iter().map(|r| r.2).collect::<Vec<_>>()));
    let w: Vec<f64> = rows.iter().map(|r| r.3).collect();
    let mut s = ConfusionState::new();
    s.update(&y, &p, &g, weighted.then_some(&w[..])).unwrap();
    s
}

fn score_from(rows: &[(usize, usize, usize, f64, f64)], weighted: bool) -> ScoreState {
    let y: Vec<usize> = rows.iter().map(|r| r.0).collect();
    let sc: Vec<f64> = rows.iter().map(|r| r.4).collect();
    let g = Groups::from_labels(&names(&rows.iter().map(|r| r.2).collect::<Vec<_>>()));
    let w: Vec<f64> = rows.iter().map(|r| r.3).collect();
    let mut s = ScoreState::new();
    s.update(&y, &sc, &g, weighted.then_some(&w[..])).unwrap();
    s
}

proptest! {
    /// Any split into chunks, merged in any order, gives the same bytes and the same counts as
    /// one pass over all rows (weighted sums included: they are exact).
    #[test]
    fn confusion_state_merges_exactly(
        rows in rows_strategy(),
        cuts in prop::collection::vec(0usize..120, 0..6),
        weighted in any::<bool>(),
        reverse in any::<bool>(),
    ) {
        let whole = confusion_from(&rows, weighted);
        let mut bounds: Vec<usize> = cuts.iter().map(|c| c % (rows.len() + 1)).collect();
        bounds.extend([0, rows.len()]);
        bounds.sort_unstable();
        let mut parts: Vec<ConfusionState> =
            bounds.windows(2).map(|b| confusion_from(&rows[b[0]..b[1]], weighted)).collect();
        if reverse {
            parts.reverse();
        }
        let mut merged = ConfusionState::new();
        for p in &parts {
            merged.merge(p).unwrap();
        }
        prop_assert_eq!(merged.to_bytes(), whole.to_bytes());
        prop_assert_eq!(&ConfusionState::from_bytes(&whole.to_bytes()).unwrap(), &whole);
        match (merged.to_group_confusion(), whole.to_group_confusion()) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
    }

    /// Batches much smaller than the dictionary of group names (the sparse path of
    /// `update_coded`: an ID column as the group) build the bytes of one dense batch.
    #[test]
    fn small_batches_of_many_groups_build_the_same_state(
        rows in rows_strategy(),
        batch in 1usize..5,
        weighted in any::<bool>(),
    ) {
        // 40 declared groups, rows in 4 of them (codes spread out so most names never occur).
        let dictionary: Vec<String> = (0..40).map(|c| format!("id{c:02}")).collect();
        let y: Vec<usize> = rows.iter().map(|r| r.0).collect();
        let p: Vec<usize> = rows.iter().map(|r| r.1).collect();
        let codes: Vec<usize> = rows.iter().map(|r| r.2 * 9 + 3).collect();
        let w: Vec<f64> = rows.iter().map(|r| r.3).collect();
        let w = weighted.then_some(&w[..]);
        let mut small = ConfusionState::new();
        for start in (0..rows.len()).step_by(batch) {
            let end = (start + batch).min(rows.len());
            small
                .update_coded(&y[start..end], &p[start..end], &codes[start..end], &dictionary, w.map(|w| &w[start..end]))
                .unwrap();
        }
        let names: Vec<String> = codes.iter().map(|&c| dictionary[c].clone()).collect();
        let g = Groups::from_labels(&names);
        let mut whole = ConfusionState::new();
        whole.update(&y, &p, &g, w).unwrap();
        prop_assert_eq!(small.to_bytes(), whole.to_bytes());
    }

    /// The unweighted state gives exactly the counts of the one-pass GroupConfusion.
    #[test]
    fn confusion_state_equals_group_confusion(rows in rows_strategy()) {
        let y: Vec<usize> = rows.iter().map(|r| r.0).collect();
        let p: Vec<usize> = rows.iter().map(|r| r.1).collect();
        let labels = names(&rows.iter().map(|r| r.2).collect::<Vec<_>>());
        let g = Groups::from_labels(&labels);
        let direct = GroupConfusion::new(&y, &p, &g, None).unwrap();
        let state = confusion_from(&rows, false);
        let via_state = state.to_group_confusion().unwrap();
        // Groups::from_labels orders groups by first appearance; the state by name.
        for (name, counts) in direct.names().iter().zip(direct.by_group()) {
            let i = via_state.names().iter().position(|n| n == name).unwrap();
            prop_assert_eq!(&via_state.by_group()[i], counts);
        }
    }

    /// Score states: same canonical columns whatever the split and merge order.
    #[test]
    fn score_state_merges_exactly(
        rows in rows_strategy(),
        cut in 0usize..120,
        weighted in any::<bool>(),
    ) {
        let whole = score_from(&rows, weighted);
        let cut = cut % (rows.len() + 1);
        let (a, b) = (score_from(&rows[..cut], weighted), score_from(&rows[cut..], weighted));
        let mut ba = b.clone();
        ba.merge(&a).unwrap();
        let mut ab = a;
        ab.merge(&b).unwrap();
        prop_assert_eq!(ab.to_columns().unwrap(), whole.to_columns().unwrap());
        prop_assert_eq!(ba.to_columns().unwrap(), whole.to_columns().unwrap());
        prop_assert_eq!(ab.to_bytes(), whole.to_bytes());
        prop_assert_eq!(ScoreState::from_bytes(&whole.to_bytes()).unwrap(), whole);
    }

    /// Decoding any prefix or corruption of a valid encoding is an error or a valid state, never
    /// a panic.
    #[test]
    fn decoding_never_panics(rows in rows_strategy(), flip in any::<(usize, u8)>()) {
        for bytes in [confusion_from(&rows, true).to_bytes(), score_from(&rows, false).to_bytes()] {
            for cut in [0, 3, 5, bytes.len() / 2, bytes.len().saturating_sub(1)] {
                let _ = ConfusionState::from_bytes(&bytes[..cut]);
                let _ = ScoreState::from_bytes(&bytes[..cut]);
            }
            let mut corrupt = bytes.clone();
            let i = flip.0 % corrupt.len();
            corrupt[i] ^= flip.1;
            let _ = ConfusionState::from_bytes(&corrupt);
            let _ = ScoreState::from_bytes(&corrupt);
        }
    }
}

#[test]
fn truncated_state_is_a_decode_error() {
    let s = confusion_from(&[(1, 1, 0, 1.0, 0.5), (0, 1, 1, 2.0, 0.1)], true);
    let bytes = s.to_bytes();
    for cut in 0..bytes.len() {
        assert!(
            matches!(
                ConfusionState::from_bytes(&bytes[..cut]),
                Err(MetricError::Decode { .. })
            ),
            "prefix of {cut} bytes"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        ConfusionState::from_bytes(&longer),
        Err(MetricError::Decode { .. })
    ));
}

#[test]
fn bad_batches_are_typed_errors_and_leave_the_state_unchanged() {
    let g = Groups::from_labels(&["a", "b"]);
    let mut s = ConfusionState::new();
    s.update(&[1, 0], &[1, 1], &g, None).unwrap();
    let before = s.clone();
    assert!(matches!(
        s.update(&[1, 2], &[1, 1], &g, None),
        Err(MetricError::LabelOutOfRange { row: 1, .. })
    ));
    assert!(matches!(
        s.update(&[1], &[1, 1], &g, None),
        Err(MetricError::LengthMismatch { .. })
    ));
    assert!(matches!(
        s.update(&[1, 0], &[1, 1], &g, Some(&[1.0, 1.0])),
        Err(MetricError::InvalidParameter {
            name: "sample weights",
            ..
        })
    ));
    assert_eq!(s, before);
    let mut w = ConfusionState::new();
    assert!(matches!(
        w.update(&[1, 0], &[1, 1], &g, Some(&[1.0, f64::NAN])),
        Err(MetricError::NonFinite { row: 1, .. })
    ));
    assert!(matches!(
        w.update(&[1, 0], &[1, 1], &g, Some(&[-1.0, 1.0])),
        Err(MetricError::NegativeWeight { row: 0, .. })
    ));
    assert!(w.is_empty());
    assert!(matches!(
        w.to_group_confusion(),
        Err(MetricError::Empty { .. })
    ));
    assert!(matches!(
        s.merge(&{
            let mut x = ConfusionState::new();
            x.update(&[1], &[1], &Groups::from_labels(&["a"]), Some(&[1.0]))
                .unwrap();
            x
        }),
        Err(MetricError::InvalidParameter { .. })
    ));

    let mut sc = ScoreState::new();
    assert!(matches!(
        sc.update(&[1, 0], &[0.5, f64::INFINITY], &g, None),
        Err(MetricError::NonFinite {
            what: "scores",
            row: 1,
            ..
        })
    ));
    assert!(matches!(sc.to_columns(), Err(MetricError::Empty { .. })));
}

#[test]
fn weights_summing_past_f64_max_are_named() {
    let g = Groups::from_labels(&["a", "a", "a"]);
    let mut s = ConfusionState::new();
    s.update(&[1, 1, 1], &[1, 1, 1], &g, Some(&[1e308, 1e308, 1e308]))
        .unwrap();
    match s.to_group_confusion() {
        Err(MetricError::WeightOverflow { group }) => assert_eq!(group, "a"),
        other => panic!("{other:?}"),
    }
    // The one-pass GroupConfusion names the same problem.
    assert!(matches!(
        GroupConfusion::new(&[1, 1, 1], &[1, 1, 1], &g, Some(&[1e308, 1e308, 1e308])),
        Err(MetricError::WeightOverflow { .. })
    ));
}

#[test]
fn exact_weighted_sums_are_order_free_where_naive_sums_are_not() {
    // 1e16 + 1 + 1 − 1e16 is 0 left to right in f64 but 2 exactly.
    let w = [1e16, 1.0, 1.0, 1e16];
    let g = Groups::from_labels(&["a", "a", "a", "b"]);
    let mut s = ConfusionState::new();
    s.update(&[1, 1, 1, 0], &[1, 1, 1, 0], &g, Some(&w))
        .unwrap();
    let gc = s.to_group_confusion().unwrap();
    assert_eq!(gc.by_group()[0].tp, 1e16 + 2.0);
}

#[test]
fn wilson_and_clopper_pearson_match_hand_computed_values() {
    // Wilson, p = 0.2, n = 50, z = 1.959964: z²/n = 0.076829, centre 0.238415 / 1.076829 =
    // 0.221404, half-width 1.820111 · √(0.0032 + 0.000384) = 0.108966.
    let w = rate_interval(0.2, 50.0, 0.95, RateCiMethod::Wilson).unwrap();
    assert!((w.lower - 0.112_4).abs() < 1e-4, "{w:?}");
    assert!((w.upper - 0.330_4).abs() < 1e-4, "{w:?}");
    // Clopper-Pearson x = 5, n = 10: (0.1871, 0.8129), the textbook value.
    let cp = rate_interval(0.5, 10.0, 0.95, RateCiMethod::ClopperPearson).unwrap();
    assert!((cp.lower - 0.187_1).abs() < 1e-4 && (cp.upper - 0.812_9).abs() < 1e-4);
    // All successes: upper end 1, lower (α/2)^(1/n).
    let cp = rate_interval(1.0, 10.0, 0.95, RateCiMethod::ClopperPearson).unwrap();
    assert!((cp.lower - 0.025f64.powf(0.1)).abs() < 1e-9 && cp.upper == 1.0);
    for bad in [
        (-0.1, 10.0, 0.95),
        (0.5, 0.0, 0.95),
        (0.5, f64::NAN, 0.95),
        (0.5, 10.0, 1.0),
    ] {
        assert!(matches!(
            rate_interval(bad.0, bad.1, bad.2, RateCiMethod::Wilson),
            Err(MetricError::InvalidParameter { .. })
        ));
    }
}

#[test]
fn rate_intervals_use_the_rate_denominator_and_kish_n() {
    // Group a: 4 positives, 3 found; weights 1,1,1,1 on positives, 2 negatives.
    let y = [1, 1, 1, 1, 0, 0, 1, 0];
    let p = [1, 1, 1, 0, 0, 1, 1, 0];
    let g = Groups::from_labels(&["a", "a", "a", "a", "a", "a", "b", "b"]);
    let mut s = ConfusionState::new();
    s.update(&y, &p, &g, None).unwrap();
    let tpr = rate_intervals(&s, Rate::TruePositive, 0.9, RateCiMethod::Wilson).unwrap();
    assert_eq!(tpr.groups[0].effective_n, 4.0);
    assert_eq!(tpr.groups[0].estimate, Some(0.75));
    let expected = rate_interval(0.75, 4.0, 0.9, RateCiMethod::Wilson).unwrap();
    assert_eq!(tpr.groups[0].interval, Some(expected));
    assert_eq!(tpr.overall.effective_n, 5.0);

    // Weighted: Kish n of weights (1, 3) is 16 / 10 = 1.6.
    let mut sw = ConfusionState::new();
    sw.update(
        &[1, 1],
        &[1, 0],
        &Groups::from_labels(&["a", "a"]),
        Some(&[1.0, 3.0]),
    )
    .unwrap();
    let tpr = rate_intervals(&sw, Rate::TruePositive, 0.95, RateCiMethod::Wilson).unwrap();
    assert!((tpr.groups[0].effective_n - 1.6).abs() < 1e-12);
    assert_eq!(tpr.groups[0].estimate, Some(0.25));
    // A group without negatives has no FPR and no interval.
    let fpr = rate_intervals(&sw, Rate::FalsePositive, 0.95, RateCiMethod::Wilson);
    assert!(fpr.unwrap().groups[0].interval.is_none());
}

/// Two groups, selection rates 0.6 and 0.4 on 200 rows each.
fn two_group_state(n_per_group: usize, rate_a: f64, rate_b: f64) -> ConfusionState {
    let mut y = Vec::new();
    let mut p = Vec::new();
    let mut labels = Vec::new();
    for (name, rate) in [("a", rate_a), ("b", rate_b)] {
        let k = (rate * n_per_group as f64).round() as usize;
        for i in 0..n_per_group {
            y.push(i % 2);
            p.push(usize::from(i < k));
            labels.push(name);
        }
    }
    let mut s = ConfusionState::new();
    s.update(&y, &p, &Groups::from_labels(&labels), None)
        .unwrap();
    s
}

#[test]
fn permutation_p_value_matches_fishers_exact_test() {
    // 2 × 2 table: a selects 12 of 30, b selects 5 of 30. The two-sided Fisher p-value (tables
    // with |x/30 − (17 − x)/30| >= 7/30, i.e. x <= 5 or x >= 12) from the hypergeometric pmf.
    use statrs::distribution::{Discrete, Hypergeometric};
    let s = two_group_state(30, 12.0 / 30.0, 5.0 / 30.0);
    let h = Hypergeometric::new(60, 17, 30).unwrap();
    let exact: f64 = (0..=17u64)
        .filter(|&x| x <= 5 || x >= 12)
        .map(|x| h.pmf(x))
        .sum();
    let settings = GapSettings {
        n_resamples: 20_000,
        seed: 7,
        ..GapSettings::default()
    };
    let gap = gap_inference(&s, GapMetric::Rate(Rate::Selection), &settings).unwrap();
    assert!((gap.estimate - 7.0 / 30.0).abs() < 1e-12);
    // Monte Carlo error at B = 20,000 is about 0.0015 here.
    assert!(
        (gap.p_value - exact).abs() < 0.006,
        "{} vs {exact}",
        gap.p_value
    );
}

#[test]
fn gap_inference_is_seeded_and_sensible() {
    let s = two_group_state(200, 0.6, 0.4);
    let settings = GapSettings::default();
    let a = gap_inference(&s, GapMetric::Rate(Rate::Selection), &settings).unwrap();
    let b = gap_inference(&s, GapMetric::Rate(Rate::Selection), &settings).unwrap();
    assert_eq!(a, b);
    assert!(a.interval.lower < 0.2 && 0.2 < a.interval.upper);
    assert!(a.p_value < 0.001);
    // No gap: large p-value, interval near 0.
    let null = two_group_state(200, 0.5, 0.5);
    let n = gap_inference(&null, GapMetric::Rate(Rate::Selection), &settings).unwrap();
    assert_eq!(n.estimate, 0.0);
    assert!(n.p_value > 0.5, "{}", n.p_value);
    // Ratio: 0.4 / 0.6, small p-value too.
    let r = gap_inference(
        &s,
        GapMetric::Rate(Rate::Selection),
        &GapSettings {
            kind: GapKind::Ratio,
            ..settings
        },
    )
    .unwrap();
    assert!((r.estimate - 2.0 / 3.0).abs() < 1e-12);
    assert!(r.interval.lower < r.estimate && r.estimate < r.interval.upper);
    assert!(r.p_value < 0.001);
    // Equalized odds and to_overall run and are at least the single-rate gap where they must be.
    let eo = gap_inference(&s, GapMetric::EqualizedOdds, &settings).unwrap();
    let tpr = gap_inference(&s, GapMetric::Rate(Rate::TruePositive), &settings).unwrap();
    assert!(eo.estimate >= tpr.estimate);
    let to = gap_inference(
        &s,
        GapMetric::Rate(Rate::Selection),
        &GapSettings {
            method: ParityMethod::ToOverall,
            ..settings
        },
    )
    .unwrap();
    assert!((to.estimate - 0.1).abs() < 1e-12);
}

#[test]
fn gap_inference_rejects_what_it_cannot_measure() {
    let one = {
        let mut s = ConfusionState::new();
        s.update(&[1, 0], &[1, 0], &Groups::from_labels(&["a", "a"]), None)
            .unwrap();
        s
    };
    let sel = GapMetric::Rate(Rate::Selection);
    assert!(matches!(
        gap_inference(&one, sel, &GapSettings::default()),
        Err(MetricError::InvalidParameter { name: "groups", .. })
    ));
    let s = two_group_state(10, 0.5, 0.2);
    for bad in [
        GapSettings {
            confidence: 0.0,
            ..GapSettings::default()
        },
        GapSettings {
            n_resamples: 10,
            ..GapSettings::default()
        },
    ] {
        assert!(matches!(
            gap_inference(&s, sel, &bad),
            Err(MetricError::InvalidParameter { .. })
        ));
    }
    assert!(matches!(
        gap_inference(&ConfusionState::new(), sel, &GapSettings::default()),
        Err(MetricError::Empty { .. })
    ));
}

#[test]
fn permutation_test_handles_margins_the_sampler_library_refuses() {
    // Positives: group a 103 (all found), group b 4,618 (4,297 found) — the TPR stratum has
    // N = 4721, K = 4400, n = 103, where rand_distr's hypergeometric set-up underflows.
    let mut y = Vec::new();
    let mut p = Vec::new();
    let mut labels = Vec::new();
    for (name, pos, found) in [("a", 103, 103), ("b", 4618, 4297)] {
        for i in 0..pos {
            y.push(1);
            p.push(usize::from(i < found));
            labels.push(name);
        }
        y.push(0);
        p.push(0);
        labels.push(name);
    }
    let mut s = ConfusionState::new();
    s.update(&y, &p, &Groups::from_labels(&labels), None)
        .unwrap();
    let settings = GapSettings {
        n_resamples: 200,
        ..GapSettings::default()
    };
    let eo = gap_inference(&s, GapMetric::Rate(Rate::TruePositive), &settings).unwrap();
    assert!((eo.estimate - (1.0 - 4297.0 / 4618.0)).abs() < 1e-12);
    assert!(eo.p_value > 0.0 && eo.p_value <= 1.0);
}

/// An unweighted two-group state ("a", "b") decoded from bytes whose row counts were replaced
/// by `a` and `b` (cells tn, fp, fn, tp): what a forged or corrupted state shipped between
/// processes looks like.
fn forged_counts(a: [u64; 4], b: [u64; 4]) -> ConfusionState {
    let mut s = ConfusionState::new();
    s.update(
        &[0, 0, 1, 1, 0, 1],
        &[0, 1, 0, 1, 0, 1],
        &Groups::from_labels(&["a", "a", "a", "a", "b", "b"]),
        None,
    )
    .unwrap();
    let mut bytes = s.to_bytes();
    // Magic (4), version (1), weighting (1), group count (8); then per group its name (8-byte
    // length + 1 byte) and four u64 cells.
    for (at, cells) in [(23, a), (64, b)] {
        for (c, v) in cells.iter().enumerate() {
            bytes[at + 8 * c..at + 8 * c + 8].copy_from_slice(&v.to_le_bytes());
        }
    }
    ConfusionState::from_bytes(&bytes).unwrap()
}

/// `gap_inference` added decoded row counts with a plain `+` (bootstrap sizes, permutation
/// margins): counts near `u64::MAX` panicked with "attempt to add with overflow" (a wrapped
/// count in release builds). Such counts, and any past 2^40 rows, are now a typed error.
#[test]
fn forged_state_counts_are_a_typed_error_in_gap_inference() {
    let settings = GapSettings {
        n_resamples: 100,
        ..GapSettings::default()
    };
    let honest = forged_counts([1, 1, 1, 1], [1, 0, 0, 1]);
    assert!(gap_inference(&honest, GapMetric::EqualizedOdds, &settings).is_ok());
    let half = u64::MAX / 2 + 1;
    for (a, b, what) in [
        // One group's cells overflow u64.
        ([half, 0, 0, half], [1, 0, 0, 1], "group \"a\""),
        // Each group is countable; together they are not.
        ([0, 1 << 39, 0, 1], [0, 1 << 39, 0, 0], "all groups"),
        // No overflow, but more rows than the resampling counts exactly.
        ([1 << 52, 1 << 52, 1, 0], [1, 1, 1, 1], "group \"a\""),
        // Below 2^53 but past the 2^40 cap.
        ([1 << 40, 0, 0, 1], [1, 0, 0, 0], "group \"a\""),
        // The margins of the `state_bytes` hang (fuzz/regressions/state_bytes/
        // state_bytes-timeout-49d31868): about 2^51 rows, 2.85 × 10^8 of them unselected, where
        // rand_distr's H2PE sampler almost never accepts a draw.
        (
            [0, 1 << 50, 1, 1],
            [285_212_673, (1 << 50) - 285_212_673 + 2, 1, 1],
            "group \"a\"",
        ),
    ] {
        let s = forged_counts(a, b);
        for metric in [GapMetric::Rate(Rate::Selection), GapMetric::EqualizedOdds] {
            let e = gap_inference(&s, metric, &settings).unwrap_err();
            assert!(
                matches!(&e, MetricError::CountOverflow { what: w, .. } if w == what),
                "{a:?} {b:?}: {e}"
            );
            assert!(e.to_string().contains("corrupted or forged"), "{e}");
        }
        // The intervals need no sums of counts: finite numbers in [0, 1], no panic.
        let ci = rate_intervals(&s, Rate::Selection, 0.95, RateCiMethod::Wilson).unwrap();
        for g in ci.groups.iter().chain([&ci.overall]) {
            if let Some(iv) = g.interval {
                assert!((0.0..=1.0).contains(&iv.lower) && (0.0..=1.0).contains(&iv.upper));
            }
        }
    }
}

/// Just under the 2^40-row cap, a rare outcome with a mode between 10 and 100 (rand_distr's
/// H2PE with its recursive f(y), the path that hung near 2^51 rows) draws its permutations
/// quickly, with a p-value in (0, 1] and finite numbers.
#[test]
fn gap_inference_runs_just_under_the_row_cap() {
    let settings = GapSettings {
        n_resamples: 200,
        ..GapSettings::default()
    };
    let big = (1u64 << 40) - 20_000_000;
    // Group "a": 2^40 − 2 × 10^7 rows, 1.1 × 10^7 selected; group "b": 3 × 10^6 rows, 30 selected.
    let s = forged_counts(
        [big - 11_000_000, 11_000_000, 0, 0],
        [3_000_000 - 30, 30, 0, 0],
    );
    let r = gap_inference(&s, GapMetric::Rate(Rate::Selection), &settings).unwrap();
    assert!(r.p_value > 0.0 && r.p_value <= 1.0, "{}", r.p_value);
    assert!(r.estimate.is_finite() && r.interval.lower.is_finite());
    assert_eq!(r.n_permutations, 200);
}
