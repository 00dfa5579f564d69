use super::*;
use proptest::prelude::*;

fn v(i: usize) -> f64 {
    1.0 / ((1 + i) as f64).log2()
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-14, "{a} != {b}");
}

/// Query "a": group 0 at ranks 1 (relevance 2) and 2 (0), group 1 at rank 3 (1); query "b":
/// group 1 at rank 1 (1), group 0 at rank 2 (1). Every number below is worked out by hand.
#[test]
fn two_queries_by_hand() {
    let settings = RankingSettings {
        top_k: vec![1, 2],
        fair_alpha: 0.5,
        fair_adjust: false,
        ..RankingSettings::default()
    };
    let rows = RankingRows {
        query: &["a", "a", "a", "b", "b"],
        key: &[1.0, 2.0, 3.0, 1.0, 2.0],
        group: &[0, 0, 1, 1, 0],
        relevance: Some(&[2.0, 0.0, 1.0, 1.0, 1.0]),
        weight: None,
    };
    let s = RankingState::from_rows(rows, 2, &settings)
        .unwrap()
        .summary();
    let (g0, g1) = (&s.groups[0], &s.groups[1]);
    let (e0, e1) = (1.0 + 2.0 * v(2), 0.5 + 1.0);
    close(g0.exposure, e0);
    close(g1.exposure, e1);
    close(g0.item_share, 0.6);
    close(g0.exposure_share, e0 / (e0 + e1));
    close(g1.exposure_ratio.unwrap(), (e1 / (e0 + e1)) / 0.4);
    close(
        s.exposure_ratio.unwrap(),
        ((e1 / (e0 + e1)) / 0.4) / ((e0 / (e0 + e1)) / 0.6),
    );
    // Treatment: exposure per unit of relevance, 3 and 2 units.
    close(g0.exposure_per_relevance.unwrap(), e0 / 3.0);
    close(g1.exposure_per_relevance.unwrap(), 0.75);
    close(s.disparate_treatment_ratio.unwrap(), 0.75 / (e0 / 3.0));
    // Impact: Σ relevance × discount.
    close(g0.impact_per_relevance.unwrap(), (2.0 + v(2)) / 3.0);
    close(g1.impact_per_relevance.unwrap(), 0.75);
    // NDCG: g0 1 in "a", v(2) in "b"; g1 0.5 in "a", 1 in "b".
    close(g0.ndcg.unwrap(), (1.0 + v(2)) / 2.0);
    close(g1.ndcg.unwrap(), 0.75);
    close(s.ndcg_ratio.unwrap(), 0.75 / ((1.0 + v(2)) / 2.0));
    assert_eq!(g0.top_k_share, vec![0.5, 0.75]);
    assert_eq!(g1.top_k_share, vec![0.5, 0.25]);
    // FA*IR at each group's share of the query, alpha 0.5: g1 in "a" (p = 1/3, table
    // [0, 1, 1]) has none in the top 2 and fails; everything else passes.
    assert_eq!(g0.fair_pass_rate, Some(1.0));
    assert_eq!(g1.fair_pass_rate, Some(0.5));
    assert_eq!(s.fair_pass_rate, Some(0.5));
    assert_eq!(s.queries, 2);
}

#[test]
fn ties_share_their_positions() {
    let settings = RankingSettings {
        top_k: vec![1],
        ..RankingSettings::default()
    };
    let rows = RankingRows {
        query: &[1, 1, 1].map(|q: i32| q.to_string()),
        key: &[5.0, 5.0, 6.0],
        group: &[0, 1, 1],
        relevance: None,
        weight: None,
    };
    let s = RankingState::from_rows(rows, 2, &settings)
        .unwrap()
        .summary();
    close(s.groups[0].exposure, (1.0 + v(2)) / 2.0);
    close(s.groups[1].exposure, (1.0 + v(2)) / 2.0 + 0.5);
    assert_eq!(s.groups[0].top_k_share, vec![0.5]);
}

#[test]
fn geometric_discount_is_rbp() {
    let settings = RankingSettings {
        discount: Discount::Geometric { persistence: 0.5 },
        ..RankingSettings::default()
    };
    let rows = RankingRows {
        query: &["q"; 3],
        key: &[1.0, 2.0, 3.0],
        group: &[0, 1, 1],
        relevance: None,
        weight: None,
    };
    let s = RankingState::from_rows(rows, 2, &settings)
        .unwrap()
        .summary();
    close(s.groups[0].exposure, 1.0);
    close(s.groups[1].exposure, 0.75);
}

#[test]
fn bad_inputs_name_the_row() {
    let settings = RankingSettings::default();
    let rows = |key: &'static [f64], weight: Option<&'static [f64]>| RankingRows {
        query: &["a", "a", "b"],
        key,
        group: &[0, 1, 0],
        relevance: None,
        weight,
    };
    let err = RankingState::from_rows(rows(&[1.0, f64::NAN, 1.0], None), 2, &settings);
    assert!(
        matches!(err, Err(MetricError::NonFinite { row: 1, .. })),
        "{err:?}"
    );
    let err = RankingState::from_rows(rows(&[1.0, 2.0, 1.0], Some(&[1.0, 2.0, 1.0])), 2, &settings)
        .unwrap_err();
    assert!(err.to_string().contains("row 1"), "{err}");
    let bad = RankingSettings {
        fair_p: Some(1.0),
        ..RankingSettings::default()
    };
    let err = RankingState::from_rows(rows(&[1.0, 2.0, 1.0], None), 2, &bad).unwrap_err();
    assert!(err.to_string().contains("fair_p"), "{err}");
    let mut a = RankingState::from_rows(rows(&[1.0, 2.0, 1.0], None), 2, &settings).unwrap();
    let b = a.clone();
    assert!(a.merge(b).unwrap_err().to_string().contains("two parts"));
}

/// Resampling identical queries changes nothing (a zero-width interval at the value); a seed
/// fixes the draws, and another seed draws others.
#[test]
fn resampling_queries() {
    let settings = RankingSettings::default();
    let same = RankingRows {
        query: &["a", "a", "b", "b", "c", "c"],
        key: &[1.0, 2.0, 1.0, 2.0, 1.0, 2.0],
        group: &[0, 1, 0, 1, 0, 1],
        relevance: None,
        weight: None,
    };
    let state = RankingState::from_rows(same, 2, &settings).unwrap();
    let value = state.summary().exposure_ratio.unwrap();
    let ci = state
        .resample(100, 1)
        .interval(0.95, |s| s.exposure_ratio)
        .unwrap();
    assert_eq!((ci.lower, ci.upper), (value, value));
    let mixed = RankingRows {
        group: &[0, 1, 1, 0, 0, 1],
        ..same
    };
    let state = RankingState::from_rows(mixed, 2, &settings).unwrap();
    let a = state.resample(50, 1);
    assert_eq!(a, state.resample(50, 1));
    assert_ne!(a, state.resample(50, 2));
    let ci = a
        .interval(0.9, |s| Some(s.groups[0].exposure_share))
        .unwrap();
    assert!(ci.lower < 0.5 && ci.upper > 0.5, "{ci:?}");
}

type Row = (u8, u8, usize, u8);

fn state_of(rows: &[Row], settings: &RankingSettings) -> RankingState {
    let query: Vec<String> = rows.iter().map(|r| r.0.to_string()).collect();
    let key: Vec<f64> = rows.iter().map(|r| f64::from(r.1)).collect();
    let group: Vec<usize> = rows.iter().map(|r| r.2).collect();
    let relevance: Vec<f64> = rows.iter().map(|r| f64::from(r.3)).collect();
    let weight: Vec<f64> = rows.iter().map(|r| 1.0 + f64::from(r.0 % 3)).collect();
    RankingState::from_rows(
        RankingRows {
            query: &query,
            key: &key,
            group: &group,
            relevance: Some(&relevance),
            weight: Some(&weight),
        },
        3,
        settings,
    )
    .unwrap()
}

fn rows() -> impl Strategy<Value = Vec<Row>> {
    // Few distinct keys per query: many ties.
    prop::collection::vec((0u8..6, 0u8..4, 0usize..3, 0u8..3), 1..40)
}

fn settings() -> RankingSettings {
    RankingSettings {
        top_k: vec![1, 3],
        fair_k: 4,
        ..RankingSettings::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Two parts with disjoint queries merge into the state of one pass, bit for bit.
    #[test]
    fn merge_equals_one_pass(rows in rows(), split in prop::collection::vec(any::<bool>(), 6)) {
        let s = settings();
        let (left, right): (Vec<Row>, Vec<Row>) =
            rows.iter().partition(|r| split[r.0 as usize]);
        let mut merged = RankingState::new(3, &s);
        for part in [left, right] {
            if !part.is_empty() {
                merged.merge(state_of(&part, &s)).unwrap();
            }
        }
        let one = state_of(&rows, &s);
        prop_assert_eq!(&merged, &one);
        prop_assert_eq!(merged.summary(), one.summary());
    }

    /// The order of the rows, ties included, changes no number.
    #[test]
    fn row_order_is_free(rows in rows(), seed in any::<u64>()) {
        let s = settings();
        let mut shuffled = rows.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        shuffled.shuffle(&mut rng);
        prop_assert_eq!(state_of(&rows, &s), state_of(&shuffled, &s));
    }

    /// Renaming the groups renames their numbers and leaves the ratios; shifting every key
    /// of a query changes nothing; exposure shares and top-k shares sum to 1.
    #[test]
    fn relabelings(rows in rows()) {
        let s = settings();
        let a = state_of(&rows, &s).summary();
        let swapped: Vec<Row> = rows.iter().map(|&(q, k, g, u)| (q, k, [1, 0, 2][g], u)).collect();
        let b = state_of(&swapped, &s).summary();
        prop_assert_eq!(&a.groups[0], &b.groups[1]);
        prop_assert_eq!(&a.groups[2], &b.groups[2]);
        prop_assert_eq!(a.exposure_ratio, b.exposure_ratio);
        let shifted: Vec<Row> = rows.iter().map(|&(q, k, g, u)| (q, k + 10 * q, g, u)).collect();
        prop_assert_eq!(&a, &state_of(&shifted, &s).summary());
        let share: f64 = a.groups.iter().map(|g| g.exposure_share).sum();
        prop_assert!((share - 1.0).abs() < 1e-12);
        for j in 0..2 {
            let top: f64 = a.groups.iter().map(|g| g.top_k_share[j]).sum();
            prop_assert!((top - 1.0).abs() < 1e-12);
        }
    }
}

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
