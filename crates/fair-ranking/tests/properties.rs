//! FA*IR's and Geyik et al.'s re-rankers: hand-computed cases, properties, bad inputs.
//! (AIF360 agreement is tested in python/tests/test_ranking.py.)

use fair_metrics::ranking::ranked_group_fairness;
use fair_ranking::{DetMethod, DetRerank, FairTopK, ParamGuard, RankingError};
use proptest::prelude::*;

fn fair(k: usize, p: f64, alpha: f64, adjust: bool) -> fair_ranking::FairTopKValidParams {
    FairTopK::params()
        .k(k)
        .p(p)
        .alpha(alpha)
        .adjust(adjust)
        .check()
        .unwrap()
}

fn det(method: DetMethod, k: usize, target: Vec<f64>) -> fair_ranking::DetRerankValidParams {
    DetRerank::params()
        .method(method)
        .k(k)
        .target(target)
        .check()
        .unwrap()
}

#[test]
fn fair_hand_computed() {
    // m = [0, 0, 0, 1, 1, 1, 2, 2, 3, 3] (fair_metrics' documented table). Ten unprotected
    // items (0..10, scores 20 down to 11) above four protected ones (10..14, scores 5 down to 2):
    // the protected come in exactly where the table rises, at positions 4, 7 and 9.
    let scores: Vec<f64> = (0..10)
        .map(|i| 20.0 - f64::from(i))
        .chain([5.0, 4.0, 3.0, 2.0])
        .collect();
    let protected: Vec<bool> = (0..14).map(|i| i >= 10).collect();
    let params = fair(10, 0.5, 0.1, false);
    assert_eq!(params.mtable(), &[0, 0, 0, 1, 1, 1, 2, 2, 3, 3]);
    assert_eq!(
        params.rerank(&scores, &protected).unwrap(),
        vec![0, 1, 2, 10, 3, 4, 11, 5, 12, 6]
    );
}

#[test]
fn fair_ties_keep_input_order() {
    // All scores equal, nothing forced (p small): input order, across the two groups too.
    let params = fair(4, 0.1, 0.1, false);
    assert_eq!(params.mtable(), &[0, 0, 0, 0]);
    let protected = [true, false, true, false, false];
    assert_eq!(
        params.rerank(&[1.0; 5], &protected).unwrap(),
        vec![0, 1, 2, 3]
    );
}

#[test]
fn det_hand_computed() {
    // Group 0 scores 0.9, 0.8; group 1 0.5, 0.4, 0.3; target 1/4, 3/4, k = 3.
    let scores = [0.9, 0.8, 0.5, 0.4, 0.3];
    let groups = [0, 0, 1, 1, 1];
    let target = vec![0.25, 0.75];
    // Greedy: 1: both below their ceiling, best is 0.9; 2 and 3: group 1 below its floor ⌊1.5⌋, ⌊2.25⌋.
    assert_eq!(
        det(DetMethod::Greedy, 3, target.clone())
            .rerank(&scores, &groups)
            .unwrap(),
        vec![0, 2, 3]
    );
    // Cons: deadlines ⌈k·p⌉/p: group 1 (1/0.75, then 2/0.75) before group 0 (4); at position 3
    // both are 4 and the better score (0.9) wins.
    assert_eq!(
        det(DetMethod::Cons, 3, target.clone())
            .rerank(&scores, &groups)
            .unwrap(),
        vec![2, 3, 0]
    );
    // Relaxed: deadlines rounded up (2, 3 for group 1; 4 for group 0): the same here.
    assert_eq!(
        det(DetMethod::Relaxed, 3, target)
            .rerank(&scores, &groups)
            .unwrap(),
        vec![2, 3, 0]
    );
    // ConstSort, target 1/3, 2/3: group 1's 0.5 is placed at step 2, then group 0's 0.9 and
    // group 1's 0.4 at step 3; 0.9 may move above 0.5 (whose deadline is position 2).
    let scores = [0.4, 0.9, 0.5];
    let groups = [1, 0, 1];
    assert_eq!(
        det(DetMethod::ConstSort, 3, vec![1.0 / 3.0, 2.0 / 3.0])
            .rerank(&scores, &groups)
            .unwrap(),
        vec![1, 2, 0]
    );
}

#[test]
fn many_queries_equal_one_at_a_time() {
    let params = fair(3, 0.5, 0.1, false);
    let queries = [2, 0, 2, 0, 0, 2, 0, 2];
    let scores = [0.1, 0.9, 0.8, 0.3, 0.2, 0.5, 0.7, 0.05];
    let protected = [true, false, true, true, false, false, true, true];
    let out = params
        .rerank_queries(&queries, &scores, &protected)
        .unwrap();
    let mut expected = Vec::new();
    for q in [0, 2] {
        let rows: Vec<usize> = (0..8).filter(|&i| queries[i] == q).collect();
        let s: Vec<f64> = rows.iter().map(|&i| scores[i]).collect();
        let p: Vec<bool> = rows.iter().map(|&i| protected[i]).collect();
        expected.extend(params.rerank(&s, &p).unwrap().into_iter().map(|i| rows[i]));
    }
    assert_eq!(out, expected);
    // Query 1 has no rows and is skipped; an error names its query.
    let err = fair(5, 0.5, 0.1, false)
        .rerank_queries(&queries, &scores, &protected)
        .unwrap_err();
    // A NaN is reported at its row of the whole input, not of its query.
    let mut nan = scores;
    nan[5] = f64::NAN;
    assert!(matches!(
        params.rerank_queries(&queries, &nan, &protected),
        Err(RankingError::NonFinite { row: 5, .. })
    ));
    assert!(
        matches!(&err, RankingError::InQuery { query: 0, source } if matches!(**source, RankingError::NotEnoughCandidates { k: 5, got: 4 })),
        "{err}"
    );
}

#[test]
fn bad_inputs_say_what_to_fix() {
    for p in [0.0, 1.0, -0.5, f64::NAN] {
        let e = FairTopK::params().p(p).check().unwrap_err();
        assert!(
            matches!(e, RankingError::InvalidParameter { name: "p", .. }),
            "{e}"
        );
    }
    assert!(matches!(
        FairTopK::params().alpha(1.0).check(),
        Err(RankingError::InvalidParameter { name: "alpha", .. })
    ));
    assert!(FairTopK::params().k(0).check().is_err());
    let params = fair(4, 0.5, 0.1, false);
    let e = params.rerank(&[0.3, 0.2, 0.1], &[true; 3]).unwrap_err();
    assert_eq!(e, RankingError::NotEnoughCandidates { k: 4, got: 3 });
    assert!(e.to_string().contains("lower k"), "{e}");
    let e = params
        .rerank(&[0.3, f64::NAN, 0.1, 0.0], &[true; 4])
        .unwrap_err();
    assert!(matches!(e, RankingError::NonFinite { row: 1, .. }), "{e}");
    // k = 10, p = 0.9: the table asks for protected items early; one is not enough.
    let strict = fair(10, 0.9, 0.1, false);
    let mut protected = [false; 12];
    protected[11] = true;
    let e = strict.rerank(&[1.0; 12], &protected).unwrap_err();
    let RankingError::NotEnoughProtected {
        needed,
        position,
        got,
        ..
    } = e.clone()
    else {
        panic!("{e}")
    };
    assert_eq!((needed, got), (2, 1));
    assert_eq!(strict.mtable()[position - 1], 2);
    assert!(strict.mtable()[..position - 1].iter().all(|&m| m < 2));
    assert!(matches!(
        params.rerank(&[1.0; 4], &[true; 3]),
        Err(RankingError::LengthMismatch { .. })
    ));

    assert!(DetRerank::params().target(vec![0.5, 0.6]).check().is_err());
    assert!(DetRerank::params().target(vec![1.5, -0.5]).check().is_err());
    assert!(DetRerank::params().target(vec![]).check().is_err());
    let d = det(DetMethod::Greedy, 2, vec![0.5, 0.5]);
    let e = d.rerank(&[0.3, 0.2, 0.1], &[0, 2, 1]).unwrap_err();
    assert!(
        matches!(
            e,
            RankingError::GroupOutOfRange {
                row: 1,
                group: 2,
                groups: 2
            }
        ),
        "{e}"
    );
    assert!(matches!(
        d.rerank(&[0.3], &[0]),
        Err(RankingError::NotEnoughCandidates { k: 2, got: 1 })
    ));
    assert!(matches!(
        d.rerank(&[0.3, f64::INFINITY], &[0, 1]),
        Err(RankingError::NonFinite { row: 1, .. })
    ));
    // ConstSort: only group 0 has a share, and it has one candidate.
    let c = det(DetMethod::ConstSort, 2, vec![1.0, 0.0]);
    assert_eq!(
        c.rerank(&[0.3, 0.2, 0.1], &[0, 1, 1]),
        Err(RankingError::TargetUnreachable { k: 2, placed: 1 })
    );
}

/// Items of `kind` in the output are the best of their kind, in score order (ties: input order).
fn keeps_group_order(out: &[usize], scores: &[f64], kind: impl Fn(usize) -> bool) -> bool {
    let mut best: Vec<usize> = (0..scores.len()).filter(|&i| kind(i)).collect();
    best.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    let placed: Vec<usize> = out.iter().copied().filter(|&i| kind(i)).collect();
    best[..placed.len()] == placed[..]
}

fn candidates(max: usize) -> impl Strategy<Value = (Vec<f64>, Vec<usize>)> {
    // Scores on a coarse grid so ties occur.
    (1..max).prop_flat_map(|n| {
        (
            proptest::collection::vec((0_u8..8).prop_map(f64::from), n),
            proptest::collection::vec(0_usize..3, n),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn fair_output_passes_and_keeps_order(
        (scores, g) in candidates(25),
        k_frac in 0.0..1.0_f64,
        p in 0.1..0.9_f64,
        alpha in 0.05..0.3_f64,
        adjust in any::<bool>(),
    ) {
        let n = scores.len();
        let k = 1 + ((n - 1) as f64 * k_frac) as usize;
        let protected: Vec<bool> = g.iter().map(|&x| x == 0).collect();
        let params = fair(k, p, alpha, adjust);
        match params.rerank(&scores, &protected) {
            Ok(out) => {
                prop_assert_eq!(out.len(), k);
                let flags: Vec<bool> = out.iter().map(|&i| protected[i]).collect();
                prop_assert!(ranked_group_fairness(&flags, p, alpha, adjust).unwrap().passes);
                if !adjust {
                    // The uncorrected table of a prefix is the prefix of the table.
                    for j in 1..=k {
                        prop_assert!(ranked_group_fairness(&flags[..j], p, alpha, false).unwrap().passes);
                    }
                }
                prop_assert!(keeps_group_order(&out, &scores, |i| protected[i]));
                prop_assert!(keeps_group_order(&out, &scores, |i| !protected[i]));
            }
            Err(RankingError::NotEnoughProtected { got, .. }) => {
                prop_assert_eq!(got, protected.iter().filter(|&&x| x).count());
                prop_assert!(params.mtable()[k - 1] > got as u64);
            }
            Err(e) => prop_assert!(false, "{}", e),
        }
    }

    #[test]
    fn det_output_is_k_distinct_items_in_group_order(
        (scores, groups) in candidates(25),
        k_frac in 0.0..1.0_f64,
        w in proptest::collection::vec(0.05..1.0_f64, 3),
        method in prop_oneof![
            Just(DetMethod::Greedy), Just(DetMethod::Cons),
            Just(DetMethod::Relaxed), Just(DetMethod::ConstSort)
        ],
    ) {
        let n = scores.len();
        let k = 1 + ((n - 1) as f64 * k_frac) as usize;
        let sum: f64 = w.iter().sum();
        let target: Vec<f64> = w.iter().map(|x| x / sum).collect();
        let out = det(method, k, target).rerank(&scores, &groups).unwrap();
        prop_assert_eq!(out.len(), k);
        let mut seen = out.clone();
        seen.sort_unstable();
        seen.dedup();
        prop_assert_eq!(seen.len(), k);
        for g in 0..3 {
            prop_assert!(keeps_group_order(&out, &scores, |i| groups[i] == g));
        }
    }
}
