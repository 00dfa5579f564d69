//! The sweep against the per-metric functions, and bit-identity however the runs are cut.

use super::*;
use crate::ZeroDivision;
use fair_data::Groups;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Data {
    y: Vec<usize>,
    s: Vec<f64>,
    w: Option<Vec<f64>>,
    finest: Vec<usize>,
    n_finest: usize,
}

fn data(n: usize, n_finest: usize, weighted: bool, seed: u64) -> Data {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = Data {
        y: Vec::new(),
        s: Vec::new(),
        w: weighted.then(Vec::new),
        finest: Vec::new(),
        n_finest,
    };
    for i in 0..n {
        // Every finest group gets both labels; scores on a coarse grid so ties are common.
        let g = if i < 2 * n_finest {
            i / 2
        } else {
            rng.random_range(0..n_finest)
        };
        let y = if i < 2 * n_finest {
            i % 2
        } else {
            usize::from(rng.random_bool(0.4))
        };
        let s = (rng.random_range(0..40) as f64) / 8.0 - 2.0 + y as f64 + 0.1 * g as f64;
        d.y.push(y);
        d.s.push(if rng.random_bool(0.05) { -0.0 } else { s });
        d.finest.push(g);
        if let Some(w) = &mut d.w {
            w.push(if rng.random_bool(0.1) {
                0.0
            } else {
                rng.random::<f64>() * 3.0
            });
        }
    }
    d
}

/// Streams as ascending sorted in-memory arrays, plus totals.
fn streams(d: &Data) -> (Vec<Vec<(u64, f64)>>, StreamTotals) {
    let mut st = vec![Vec::new(); 2 * d.n_finest];
    let mut totals = StreamTotals::new(d.w.is_some());
    for i in 0..d.y.len() {
        let w = d.w.as_ref().map_or(1.0, |w| w[i]);
        let s = stream_of(d.finest[i], d.y[i]);
        st[s].push((score_key(d.s[i]), w));
        totals.add(s, w);
    }
    st.iter_mut().for_each(|r| sort_weighted(r));
    (st, totals)
}

fn run_all(
    d: &Data,
    slices: &[SliceMap],
    cut: usize,
    interval: Option<PercentileInterval>,
) -> Vec<SliceScores> {
    let (st, totals) = streams(d);
    // Cut every stream into runs of `cut` rows (each run sorted on its own), in reverse order
    // of creation so the heap really has to interleave them.
    let mut chunks: Vec<(usize, Vec<(u64, f64)>)> = Vec::new();
    for (s, rows) in st.iter().enumerate() {
        for c in rows.chunks(cut) {
            chunks.push((s, c.to_vec()));
        }
    }
    chunks.reverse();
    let runs = chunks
        .iter()
        .map(|(s, rows)| Run::from_sorted_pairs(*s, rows))
        .collect();
    let settings = SweepSettings {
        interval,
        curve_points: 50,
    };
    sweep(slices, &totals, runs, &settings).unwrap()
}

fn slices(n_finest: usize) -> Vec<SliceMap> {
    vec![
        SliceMap {
            names: (0..n_finest).map(|g| format!("g{g}")).collect(),
            group_of: (0..n_finest).collect(),
        },
        SliceMap {
            names: vec!["even".into(), "odd".into()],
            group_of: (0..n_finest).map(|g| g % 2).collect(),
        },
    ]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + a.abs())
}

#[test]
fn matches_the_per_metric_functions() {
    let iv = PercentileInterval::new(0.05, 0.3).unwrap();
    for weighted in [false, true] {
        let d = data(3_000, 5, weighted, 7 + weighted as u64);
        let maps = slices(d.n_finest);
        let out = run_all(&d, &maps, usize::MAX, Some(iv));
        for (map, got) in maps.iter().zip(&out) {
            let codes: Vec<usize> = d.finest.iter().map(|&f| map.group_of[f]).collect();
            let groups = Groups::new(codes, map.names.clone()).unwrap();
            let w = d.w.as_deref();
            let ks = crate::ks::ks_statistic(&d.s, &groups, w).unwrap();
            let eo = crate::ks::equal_opportunity_ks(&d.y, &d.s, &groups, w).unwrap();
            let psp = crate::partial::partial_statistical_parity(&d.s, &groups, w, iv).unwrap();
            let auc = crate::roc::auc_by_group(&d.y, &d.s, &groups, w, ZeroDivision::Skip).unwrap();
            let pairs = [
                (got.ks_dp.as_ref().unwrap(), &ks),
                (got.ks_eo.as_ref().unwrap(), &eo),
                (got.psp.as_ref().unwrap().as_ref().unwrap(), &psp),
            ];
            for (mine, theirs) in pairs {
                for (x, y) in mine.summary.matrix.iter().zip(theirs.matrix.iter()) {
                    assert!(close(*x, *y), "{} {x} vs {y}", theirs.metric);
                }
                if !weighted {
                    assert_eq!(mine.summary.max.to_bits(), theirs.max.to_bits());
                }
            }
            for (x, y) in got.auc_by_group.iter().zip(&auc.by_group) {
                assert!(close(x.unwrap(), y.unwrap()), "{x:?} vs {y:?}");
            }
            assert!(close(got.auc_overall.unwrap(), auc.overall));
        }
    }
}

#[test]
fn bit_identical_however_the_runs_are_cut() {
    for weighted in [false, true] {
        let d = data(2_000, 4, weighted, 11);
        let maps = slices(d.n_finest);
        let iv = Some(PercentileInterval::new(0.0, 0.2).unwrap());
        let whole = run_all(&d, &maps, usize::MAX, iv);
        for cut in [1, 7, 100] {
            assert_eq!(run_all(&d, &maps, cut, iv), whole, "cut {cut}");
        }
    }
}

#[test]
fn ks_threshold_and_curves() {
    // a: 0.1, 0.9; b: 0.5, 0.6 → at θ = 0.5 half of a and half of b score above... the worst is
    // θ = 0.1 (a: 1/2 above, b: 1 above).
    let d = Data {
        y: vec![0, 1, 0, 1],
        s: vec![0.1, 0.9, 0.5, 0.6],
        w: None,
        finest: vec![0, 0, 1, 1],
        n_finest: 2,
    };
    let maps = vec![SliceMap {
        names: vec!["a".into(), "b".into()],
        group_of: vec![0, 1],
    }];
    let out = &run_all(&d, &maps, usize::MAX, None)[0];
    let ks = out.ks_dp.as_ref().unwrap();
    assert_eq!(ks.summary.max.to_bits(), 0.5_f64.to_bits());
    let t = ks.worst_threshold.unwrap();
    let above = |xs: &[f64]| xs.iter().filter(|&&x| x > t).count() as f64 / 2.0;
    assert_eq!(
        (above(&[0.1, 0.9]) - above(&[0.5, 0.6])).abs().to_bits(),
        0.5_f64.to_bits()
    );
    assert_eq!(out.ccdf[0], vec![(0.1, 0.5), (0.9, 0.0)]);
    assert_eq!(out.roc[0], vec![(0.0, 0.0), (0.0, 1.0), (1.0, 1.0)]);
    assert_eq!(out.auc_by_group, vec![Some(1.0), Some(1.0)]);
}

#[test]
fn bad_runs_are_errors() {
    let mut totals = StreamTotals::new(false);
    totals.add(0, 1.0);
    totals.add(0, 1.0);
    totals.add(1, 1.0);
    let maps = vec![SliceMap {
        names: vec!["a".into()],
        group_of: vec![0],
    }];
    let settings = SweepSettings {
        interval: None,
        curve_points: 0,
    };
    let up = [score_key(0.1), score_key(0.2)];
    let one = [score_key(0.3)];
    // Out of order (ascending given as descending).
    let runs = vec![
        Run::new(0, up.iter().map(|&k| Ok((k, 1.0)))),
        Run::from_sorted_keys(1, &one),
    ];
    assert!(matches!(
        sweep(&maps, &totals, runs, &settings),
        Err(MetricError::InvalidParameter { .. })
    ));
    // Fewer rows than the totals count.
    let runs = vec![
        Run::from_sorted_keys(0, &one),
        Run::from_sorted_keys(1, &one),
    ];
    assert!(sweep(&maps, &totals, runs, &settings).is_err());
    // A stream beyond the totals.
    let runs = vec![Run::from_sorted_keys(5, &one)];
    assert!(sweep(&maps, &totals, runs, &settings).is_err());
    // An error from a run's reader is passed on.
    let runs = vec![Run::new(
        0,
        std::iter::once(Err(MetricError::Empty { what: "disk" })),
    )];
    assert!(matches!(
        sweep(&maps, &totals, runs, &settings),
        Err(MetricError::Empty { what: "disk" })
    ));
    // No rows.
    assert!(sweep(&maps, &StreamTotals::new(false), Vec::new(), &settings).is_err());
    // A non-finite key.
    let runs = vec![Run::new(0, std::iter::once(Ok((score_key(f64::NAN), 1.0))))];
    assert!(sweep(&maps, &totals, runs, &settings).is_err());
}

/// Rows split by key into `bounds.len() + 1` segments at the given score keys (a segment holds
/// keys in `[bounds[j], bounds[j-1])`, from the highest down), swept one by one from the totals
/// of the segments above, merged, finished.
fn run_segments(
    d: &Data,
    slices: &[SliceMap],
    bounds: &[u64],
    settings: &SweepSettings,
) -> Vec<SliceScores> {
    let (st, totals) = streams(d);
    let mut bounds = bounds.to_vec();
    bounds.sort_unstable_by(|a, b| b.cmp(a));
    let segment_of = |k: u64| bounds.iter().take_while(|&&b| k < b).count();
    let n_seg = bounds.len() + 1;
    let mut seg_rows: Vec<Vec<Vec<(u64, f64)>>> = vec![vec![Vec::new(); st.len()]; n_seg];
    let mut seg_totals: Vec<StreamTotals> = (0..n_seg)
        .map(|_| StreamTotals::new(d.w.is_some()))
        .collect();
    for (s, rows) in st.iter().enumerate() {
        for &(k, w) in rows {
            let j = segment_of(k);
            seg_rows[j][s].push((k, w));
            seg_totals[j].add(s, w);
        }
    }
    let mut above = StreamTotals::new(d.w.is_some());
    let mut merged: Option<SegmentScores> = None;
    for j in 0..n_seg {
        let runs = seg_rows[j]
            .iter()
            .enumerate()
            .map(|(s, rows)| Run::from_sorted_pairs(s, rows))
            .collect();
        let seg = sweep_segment(slices, &totals, &above, runs, settings).unwrap();
        // Through bytes, as between processes.
        let seg = SegmentScores::from_bytes(&seg.to_bytes()).unwrap();
        match merged.as_mut() {
            None => merged = Some(seg),
            Some(m) => m.merge_lower(&seg).unwrap(),
        }
        let t = StreamTotals::from_bytes(&seg_totals[j].to_bytes()).unwrap();
        above.merge(&t).unwrap();
    }
    merged.unwrap().finish(slices, &totals, settings).unwrap()
}

fn one_pass(d: &Data, slices: &[SliceMap], settings: &SweepSettings) -> Vec<SliceScores> {
    let (st, totals) = streams(d);
    let runs = st
        .iter()
        .enumerate()
        .map(|(s, rows)| Run::from_sorted_pairs(s, rows))
        .collect();
    sweep(slices, &totals, runs, settings).unwrap()
}

/// Weighted curves: the same points (scores exact), coordinates within 1e-12.
fn curves_close(a: &[Vec<(f64, f64)>], b: &[Vec<(f64, f64)>], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (g, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.len(), y.len(), "{what} group {g}: {x:?} vs {y:?}");
        for (p, q) in x.iter().zip(y) {
            assert!(
                close(p.0, q.0) && close(p.1, q.1),
                "{what} group {g}: {p:?} vs {q:?}"
            );
        }
    }
}

/// Random segment boundaries at `n` distinct keys of the data, plus ones beyond every key
/// (empty segments at both ends).
fn random_bounds(d: &Data, n: usize, rng: &mut ChaCha8Rng) -> Vec<u64> {
    let mut keys: Vec<u64> = d.s.iter().map(|&s| score_key(s)).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut bounds: Vec<u64> = (0..n)
        .map(|_| keys[rng.random_range(0..keys.len())])
        .collect();
    bounds.push(u64::MAX);
    bounds.push(0);
    bounds.sort_unstable();
    bounds.dedup();
    bounds
}

#[test]
fn segments_equal_the_one_pass_sweep() {
    let iv = Some(PercentileInterval::new(0.1, 0.4).unwrap());
    for (seed, weighted) in [(3, false), (4, false), (5, true), (6, true)] {
        let d = data(2_500, 4, weighted, seed);
        let maps = slices(d.n_finest);
        for curve_points in [0, 3, 50, 1000] {
            let settings = SweepSettings {
                interval: iv,
                curve_points,
            };
            let whole = one_pass(&d, &maps, &settings);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for n_bounds in [1, 2, 3, 5, 8, 12] {
                // Boundaries at distinct keys (ties never straddle), plus ones beyond every key
                // (empty segments at both ends).
                let bounds = random_bounds(&d, n_bounds, &mut rng);
                let got = run_segments(&d, &maps, &bounds, &settings);
                if weighted {
                    for (a, b) in got.iter().zip(&whole) {
                        for (x, y) in [(&a.ks_dp, &b.ks_dp), (&a.ks_eo, &b.ks_eo)] {
                            let (x, y) = (x.as_ref().unwrap(), y.as_ref().unwrap());
                            for (u, v) in x.summary.matrix.iter().zip(y.summary.matrix.iter()) {
                                assert!(close(*u, *v), "{u} vs {v}");
                            }
                        }
                        for (u, v) in a.auc_by_group.iter().zip(&b.auc_by_group) {
                            assert!(close(u.unwrap(), v.unwrap()));
                        }
                        curves_close(&a.roc, &b.roc, "roc");
                        curves_close(&a.ccdf, &b.ccdf, "ccdf");
                        assert_eq!(a.median, b.median);
                        for (u, v) in a.scoring_rate.iter().zip(&b.scoring_rate) {
                            assert!(close(u.unwrap(), v.unwrap()), "{u:?} vs {v:?}");
                        }
                    }
                } else {
                    assert_eq!(
                        got, whole,
                        "seed {seed}, {n_bounds} bounds, {curve_points} points"
                    );
                }
                if curve_points > 0 {
                    assert!(whole.iter().all(|s| s.roc.iter().all(|c| c.len() >= 2)));
                }
            }
        }
    }
}

#[test]
fn segment_pieces_that_do_not_fit_are_errors() {
    let d = data(600, 3, false, 9);
    let maps = slices(d.n_finest);
    let (st, totals) = streams(&d);
    let settings = SweepSettings {
        interval: None,
        curve_points: 10,
    };
    let empty = StreamTotals::new(false);
    let all_runs = |st: &[Vec<(u64, f64)>]| -> Vec<Vec<(u64, f64)>> { st.to_vec() };
    let rows = all_runs(&st);
    let runs = rows
        .iter()
        .enumerate()
        .map(|(s, r)| Run::from_sorted_pairs(s, r))
        .collect();
    let whole = sweep_segment(&maps, &totals, &empty, runs, &settings).unwrap();
    // Segments of other curve_points neither merge nor finish.
    let without_curves = SweepSettings {
        interval: None,
        curve_points: 0,
    };
    let other = sweep_segment(&maps, &totals, &empty, Vec::new(), &without_curves).unwrap();
    assert!(other.clone().merge_lower(&whole).is_err());
    assert!(
        whole
            .clone()
            .finish(&maps, &totals, &without_curves)
            .is_err()
    );
    assert!(whole.clone().finish(&maps, &totals, &settings).is_ok());
    // Merging a segment with itself overlaps.
    let mut twice = whole.clone();
    assert!(twice.merge_lower(&whole).is_err());
    // A lost segment: the rows do not add up to the totals.
    let half = sweep_segment(&maps, &totals, &empty, Vec::new(), &settings).unwrap();
    assert!(half.finish(&maps, &totals, &settings).is_err());
    // Weighted and unweighted totals do not merge.
    let mut w = StreamTotals::new(true);
    w.add(0, 1.5);
    let mut u = StreamTotals::new(false);
    u.add(0, 1.0);
    assert!(w.merge(&u).is_err());
    // Bytes: truncations and garbage are decode errors, never panics.
    let bytes = whole.to_bytes();
    for cut in 0..bytes.len() {
        assert!(SegmentScores::from_bytes(&bytes[..cut]).is_err());
    }
    let tb = totals.to_bytes();
    for cut in 0..tb.len() {
        assert!(StreamTotals::from_bytes(&tb[..cut]).is_err());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..2_000 {
        let n = rng.random_range(0..80);
        let mut b: Vec<u8> = (0..n).map(|_| rng.random::<u8>()).collect();
        if rng.random_bool(0.5) && b.len() >= 5 {
            b[..4].copy_from_slice(b"FKSG");
            b[4] = SEGMENT_VERSION;
        }
        let _ = SegmentScores::from_bytes(&b);
        let _ = StreamTotals::from_bytes(&b);
    }
}

#[test]
fn segment_rows_validate_batches_and_sweep_like_the_one_pass_sweep() {
    let mut rows = SegmentRows::new(true, true);
    let ok = rows.add_batch(&[0, 1], &[0.2, 0.7], &[0, 1], Some(&[1.0, 2.0]));
    assert!(ok.is_ok());
    type Batch<'a> = (&'a [usize], &'a [f64], &'a [usize], Option<&'a [f64]>);
    let cases: [Batch<'_>; 5] = [
        (&[0, 2], &[0.1, 0.2], &[0, 0], Some(&[1.0, 1.0])),
        (&[0, 1], &[0.1, f64::NAN], &[0, 0], Some(&[1.0, 1.0])),
        (&[0, 1], &[0.1, 0.2], &[0, 0], Some(&[1.0, -1.0])),
        (&[0, 1], &[0.1], &[0, 0], Some(&[1.0, 1.0])),
        (&[0, 1], &[0.1, 0.2], &[0, 0], None),
    ];
    for (y, s, g, w) in cases {
        assert!(rows.add_batch(y, s, g, w).is_err(), "{y:?} {s:?} {w:?}");
    }
    // The failed batches added nothing.
    assert_eq!(rows.totals().total_rows(), 2);

    // One segment of everything, swept from nothing above, is the one-pass sweep.
    let d = data(800, 3, false, 21);
    let maps = slices(d.n_finest);
    let mut all = SegmentRows::new(false, true);
    all.add_batch(&d.y, &d.s, &d.finest, None).unwrap();
    let totals = all.totals().clone();
    let settings = SweepSettings {
        interval: Some(PercentileInterval::new(0.0, 0.5).unwrap()),
        curve_points: 40,
    };
    let seg = all
        .sweep(&maps, &totals, &StreamTotals::new(false), &settings)
        .unwrap();
    let got = seg.finish(&maps, &totals, &settings).unwrap();
    assert_eq!(got, one_pass(&d, &maps, &settings));
}

/// Weighted running sums can round a group's fraction above 1: here group a's four weights
/// (0.1, 0.7, 0.7, 0.7, summed from the top) run to 2.2 while their exact sum rounds to
/// 2.1999999999999997, and group b scores below all of a. KS must still be at most 1 (the
/// segment fuzz target found a gap of 1 + 2⁻⁵² in a decoded segment).
#[test]
fn weighted_rounding_never_reports_a_gap_above_one() {
    let mut rows = SegmentRows::new(true, true);
    rows.add_batch(
        &[0, 0, 0, 0, 0, 1],
        &[0.9, 0.8, 0.7, 0.6, 0.1, 0.05],
        &[0, 0, 0, 0, 1, 1],
        Some(&[0.1, 0.7, 0.7, 0.7, 1.0, 1.0]),
    )
    .unwrap();
    let totals = rows.totals().clone();
    let maps = vec![SliceMap {
        names: vec!["a".into(), "b".into()],
        group_of: vec![0, 1],
    }];
    let settings = SweepSettings {
        interval: Some(PercentileInterval::new(0.0, 1.0).unwrap()),
        curve_points: 0,
    };
    let seg = rows
        .sweep(&maps, &totals, &StreamTotals::new(true), &settings)
        .unwrap();
    // The segment decodes (its gaps are in [0, 1]) and finishes with KS = 1 exactly.
    let seg = SegmentScores::from_bytes(&seg.to_bytes()).unwrap();
    let out = seg.finish(&maps, &totals, &settings).unwrap();
    assert_eq!(
        out[0].ks_dp.as_ref().unwrap().summary.max.to_bits(),
        1.0_f64.to_bits()
    );
}

/// The grid rule by hand, at `curve_points = 2`: cells ⌊2·v + ½⌋, so lines at ¼ and ¾. One
/// group: positives at 0.99, 0.98, 0.97, 0.96, 0.95 (TPR steps ⅕), negatives at 0.5, 0.4, 0.3,
/// 0.2 (FPR steps ¼).
///
/// ROC in sweep order, cells (FPR, TPR): (0,0) start c(0,0); (0,.2) c(0,0) as the point before:
/// dropped; (0,.4) c(0,1): kept; (0,.6) c(0,1): dropped; (0,.8) c(0,2): kept; (0,1) c(0,2):
/// dropped; (.25,1) c(1,2): kept; (.5,1) c(1,2): dropped; (.75,1) c(2,2): kept; (1,1) c(2,2):
/// kept as the last point.
///
/// CCDF drawn ascending in score, value P(score > t) over 9 rows: (.2, 8/9) c2 first: kept;
/// (.3, 7/9) c2: dropped; (.4, 6/9) c1: kept; (.5, 5/9), (.95, 4/9), (.96, 3/9) c1: dropped;
/// (.97, 2/9) c0: kept; (.98, 1/9) c0: dropped; (.99, 0): last, kept.
#[test]
fn the_grid_rule_by_hand() {
    let scores = [0.99, 0.98, 0.97, 0.96, 0.95, 0.5, 0.4, 0.3, 0.2];
    let d = Data {
        y: vec![1, 1, 1, 1, 1, 0, 0, 0, 0],
        s: scores.to_vec(),
        w: None,
        finest: vec![0; 9],
        n_finest: 1,
    };
    let maps = vec![SliceMap {
        names: vec!["a".into()],
        group_of: vec![0],
    }];
    let settings = SweepSettings {
        interval: None,
        curve_points: 2,
    };
    let whole = one_pass(&d, &maps, &settings);
    let roc = vec![
        (0.0, 0.0),
        (0.0, 2.0 / 5.0),
        (0.0, 4.0 / 5.0),
        (0.25, 1.0),
        (0.75, 1.0),
        (1.0, 1.0),
    ];
    assert_eq!(whole[0].roc, vec![roc]);
    let ccdf = vec![
        (0.2, 8.0 / 9.0),
        (0.4, 6.0 / 9.0),
        (0.97, 2.0 / 9.0),
        (0.99, 0.0),
    ];
    assert_eq!(whole[0].ccdf, vec![ccdf]);
    // Any cut into segments (each alone cannot see the points kept above it) gives the same.
    for cut in &scores {
        for second in &scores {
            let bounds = [score_key(*cut), score_key(*second)];
            assert_eq!(
                run_segments(&d, &maps, &bounds, &settings),
                whole,
                "{bounds:?}"
            );
        }
    }
}

/// Curve sizes stay within the documented bounds (ROC ≤ 2·points + 2, CCDF ≤ points + 2; merged
/// weighted segments up to 2 / 1 more per boundary), consecutive kept points move to a later
/// cell, and the ends are kept.
#[test]
fn curve_point_counts_are_bounded() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    for weighted in [false, true] {
        let d = data(4_000, 3, weighted, 30 + weighted as u64);
        let maps = slices(d.n_finest);
        for curve_points in [1, 2, 5, 40] {
            let settings = SweepSettings {
                interval: None,
                curve_points,
            };
            let cells = curve_points as f64;
            let whole = one_pass(&d, &maps, &settings);
            let bounds = random_bounds(&d, 12, &mut rng);
            let merged = run_segments(&d, &maps, &bounds, &settings);
            let extra = if weighted { bounds.len() + 1 } else { 0 };
            for (out, extra) in [(&whole, 0), (&merged, extra)] {
                for s in out {
                    for roc in &s.roc {
                        assert!(roc.len() <= 2 * curve_points + 2 + 2 * extra, "{roc:?}");
                        assert_eq!(roc[0], (0.0, 0.0));
                        let last = roc[roc.len() - 1];
                        assert!(close(last.0, 1.0) && close(last.1, 1.0), "{last:?}");
                        // Every point but the held-back last one starts a later cell.
                        let sum = |p: (f64, f64)| slice::cell(p.0, cells) + slice::cell(p.1, cells);
                        for w in roc[..roc.len() - 1].windows(2) {
                            assert!(sum(w[1]) > sum(w[0]), "{w:?}");
                        }
                    }
                    for ccdf in &s.ccdf {
                        assert!(ccdf.len() <= curve_points + 2 + extra, "{ccdf:?}");
                        assert_eq!(ccdf[ccdf.len() - 1].1.to_bits(), 0.0_f64.to_bits());
                        for w in ccdf.windows(2) {
                            assert!(w[0].0 < w[1].0 && w[0].1 >= w[1].1, "{w:?}");
                        }
                        for w in ccdf[1..ccdf.len() - 1].windows(2) {
                            let c = |v: f64| slice::cell(v, cells);
                            assert!(c(w[1].1) < c(w[0].1), "{w:?}");
                        }
                    }
                }
            }
            // The bound is met, not vacuous: 4,000 rows in 3 groups fill the coarse grids.
            if curve_points <= 5 {
                assert!(whole[0].ccdf[0].len() >= curve_points);
                assert!(whole[0].roc[0].len() > curve_points);
            }
        }
    }
}

/// Corrupt curve bytes in a segment are typed decode errors.
#[test]
fn corrupt_segment_curves_are_decode_errors() {
    let d = data(300, 2, false, 41);
    let maps = vec![SliceMap {
        names: vec!["a".into(), "b".into()],
        group_of: vec![0, 1],
    }];
    let settings = SweepSettings {
        interval: None,
        curve_points: 8,
    };
    let (st, totals) = streams(&d);
    let runs = st
        .iter()
        .enumerate()
        .map(|(s, rows)| Run::from_sorted_pairs(s, rows))
        .collect();
    let seg = sweep_segment(&maps, &totals, &StreamTotals::new(false), runs, &settings).unwrap();
    let bytes = seg.to_bytes();
    assert_eq!(SegmentScores::from_bytes(&bytes).unwrap(), seg);
    // Header, curve_points, slice count; then the slice: g, two pair tables, psp flag, AUC sums.
    let g = 2;
    let roc0 = 5 + 8 + 8 + 8 + 2 * (8 + 16 * g * g) + 1 + 8 * g;
    let n_points = u64::from_le_bytes(bytes[roc0..roc0 + 8].try_into().unwrap());
    assert!(n_points >= 2, "the first group's ROC piece has points");
    let decode_error = |b: &[u8]| {
        matches!(
            SegmentScores::from_bytes(b),
            Err(MetricError::Decode { .. })
        )
    };
    let with = |at: usize, v: u64| {
        let mut b = bytes.clone();
        b[at..at + 8].copy_from_slice(&v.to_le_bytes());
        b
    };
    // A point count beyond the bytes left, and one within them but beyond 16 bytes a point.
    assert!(decode_error(&with(roc0, u64::MAX)));
    let left = (bytes.len() - roc0 - 8) as u64;
    assert!(decode_error(&with(roc0, left / 16 + 1)));
    // Non-finite and negative coordinates.
    assert!(decode_error(&with(roc0 + 8, f64::NAN.to_bits())));
    assert!(decode_error(&with(roc0 + 16, f64::INFINITY.to_bits())));
    assert!(decode_error(&with(roc0 + 8, (-0.5_f64).to_bits())));
    // A bad pending flag.
    let flag = roc0 + 8 + 16 * n_points as usize;
    let mut b = bytes.clone();
    b[flag] = 7;
    assert!(decode_error(&b));
    // Every truncation, and every byte flipped, never panics.
    for cut in 0..bytes.len() {
        assert!(decode_error(&bytes[..cut]));
    }
    for at in 0..bytes.len() {
        let mut b = bytes.clone();
        b[at] ^= 0xA5;
        let _ = SegmentScores::from_bytes(&b);
    }
}

/// The scoring rate by hand: a = {0.4, 0.8}, b = {0.1, 0.3, 0.5}; the median of the five
/// scores is 0.4, above it a has 0.8 (1 of 2) and b 0.5 (1 of 3). With an even count the median
/// falls between two scores and the upper one counts as above it.
#[test]
fn scoring_rate_by_hand() {
    let mut d = Data {
        y: vec![0, 1, 0, 0, 1],
        s: vec![0.4, 0.8, 0.1, 0.3, 0.5],
        w: None,
        finest: vec![0, 0, 1, 1, 1],
        n_finest: 2,
    };
    let settings = SweepSettings {
        interval: None,
        curve_points: 0,
    };
    let out = one_pass(&d, &slices(2)[..1], &settings);
    assert_eq!(out[0].median, Some(0.4));
    assert_eq!(out[0].scoring_rate, vec![Some(0.5), Some(1.0 / 3.0)]);
    // A sixth score, 0.2 in b: median (0.3 + 0.4) / 2 = 0.35; above it a 2 of 2, b 1 of 4.
    d.y.push(0);
    d.s.push(0.2);
    d.finest.push(1);
    let out = one_pass(&d, &slices(2)[..1], &settings);
    assert_eq!(out[0].median, Some(0.35));
    assert_eq!(out[0].scoring_rate, vec![Some(1.0), Some(0.25)]);
    // Weighted (inverted CDF): weights 1, 1, 1, 1, 4, 1 put half the weight at or below 0.3,
    // so the median is 0.3; above it a has all its weight, b 1 of 7 (the 0.5).
    d.w = Some(vec![1.0, 1.0, 1.0, 4.0, 1.0, 1.0]);
    let out = one_pass(&d, &slices(2)[..1], &settings);
    assert_eq!(out[0].median, Some(0.3));
    assert_eq!(out[0].scoring_rate, vec![Some(1.0), Some(1.0 / 7.0)]);
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The sweep's median and scoring rates equal the exact median cut
        /// ([`crate::distribution::median_cut_of_runs`], NYC LL144's tables) on the same runs:
        /// bit for bit without weights and with integer weights (whose float sums are exact).
        #[test]
        fn scoring_rate_equals_the_exact_median_cut(
            n in 1usize..300,
            n_finest in 1usize..5,
            weighted in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let mut d = data(n.max(2 * n_finest), n_finest, weighted, seed);
            if let Some(w) = &mut d.w {
                w.iter_mut().for_each(|x| *x = x.floor());
                w[0] = 1.0;
            }
            let maps = slices(d.n_finest);
            let settings = SweepSettings { interval: None, curve_points: 0 };
            let got = one_pass(&d, &maps, &settings);
            let (st, totals) = streams(&d);
            let groups: Vec<crate::distribution::GroupSum> = (0..d.n_finest)
                .map(|g| {
                    let mut sum = crate::distribution::GroupSum::default();
                    for &(_, w) in st[2 * g].iter().chain(&st[2 * g + 1]) {
                        sum.rows += 1;
                        sum.weight.add(w).unwrap();
                    }
                    sum
                })
                .collect();
            let runs = st.iter().enumerate().map(|(s, r)| Run::from_sorted_pairs(s, r)).collect();
            let cut = crate::distribution::median_cut_of_runs(&totals, &groups, runs).unwrap();
            prop_assert_eq!(got[0].median, Some(cut.median));
            for (g, rate) in got[0].scoring_rate.iter().enumerate() {
                let total = if weighted { groups[g].weight.value() } else { groups[g].rows as f64 };
                let want = (total > 0.0).then(|| cut.above[g].1 / total);
                prop_assert_eq!(*rate, want, "group {}", g);
            }
        }

        /// Counted cells (each score's rows cut into random cells, given in any order) sweep
        /// exactly like the rows when unweighted: the same segment and totals, curves included.
        #[test]
        fn counted_cells_equal_the_rows_unweighted(
            n in 4usize..400,
            n_finest in 1usize..5,
            seed in any::<u64>(),
            curve_points in 0usize..60,
        ) {
            let d = data(n, n_finest, false, seed);
            let maps = slices(d.n_finest);
            let settings = SweepSettings {
                interval: Some(PercentileInterval::new(0.2, 0.7).unwrap()),
                curve_points,
            };
            let mut rows = SegmentRows::new(false, true);
            rows.add_batch(&d.y, &d.s, &d.finest, None).unwrap();
            let totals = rows.totals().clone();
            let want = rows.sweep(&maps, &totals, &StreamTotals::new(false), &settings).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
            let mut cells = cells_of(&d, &mut rng);
            // Any order: a seeded shuffle.
            for i in (1..cells.len()).rev() {
                cells.swap(i, rng.random_range(0..=i));
            }
            let (got, counted) = sweep_counted(cells, false, &maps, &settings).unwrap();
            prop_assert_eq!(counted.to_bytes(), totals.to_bytes());
            prop_assert_eq!(got, want);
        }

        /// Random data, random cuts (0–12, some empty segments), random curve resolution:
        /// unweighted merged segments equal the one-pass sweep, curves included; weighted, the
        /// same curve points within 1e-12.
        #[test]
        fn segments_with_curves_equal_the_one_pass_sweep(
            n in 10usize..400,
            n_finest in 1usize..5,
            weighted in any::<bool>(),
            seed in any::<u64>(),
            n_bounds in 0usize..13,
            curve_points in 1usize..60,
        ) {
            let d = data(n.max(2 * n_finest), n_finest, weighted, seed);
            let maps = slices(d.n_finest);
            let settings = SweepSettings { interval: None, curve_points };
            let whole = one_pass(&d, &maps, &settings);
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
            let bounds = random_bounds(&d, n_bounds, &mut rng);
            let got = run_segments(&d, &maps, &bounds, &settings);
            if weighted {
                for (a, b) in got.iter().zip(&whole) {
                    curves_close(&a.roc, &b.roc, "roc");
                    curves_close(&a.ccdf, &b.ccdf, "ccdf");
                }
            } else {
                prop_assert_eq!(got, whole);
            }
        }
    }
}

/// A group of zero total weight has no curves (its fractions are 0/0), in one pass and in
/// segments alike; the other group's curves are unaffected.
#[test]
fn zero_weight_groups_have_no_curves() {
    let d = Data {
        y: vec![0, 1, 0, 1, 1, 0],
        s: vec![0.1, 0.9, 0.5, 0.6, 0.3, 0.2],
        w: Some(vec![1.0, 2.0, 0.0, 0.0, 0.0, 0.5]),
        finest: vec![0, 0, 1, 1, 1, 0],
        n_finest: 2,
    };
    let maps = vec![SliceMap {
        names: vec!["a".into(), "b".into()],
        group_of: vec![0, 1],
    }];
    let settings = SweepSettings {
        interval: None,
        curve_points: 4,
    };
    let whole = one_pass(&d, &maps, &settings);
    assert!(whole[0].ks_dp.is_err());
    assert_eq!(whole[0].roc[1], Vec::new());
    assert_eq!(whole[0].ccdf[1], Vec::new());
    // Group a (weights: 0.9 pos 2; 0.2 neg 0.5; 0.1 neg 1): ROC (0,0) → (0,1) → (⅓,1) → (1,1),
    // cells ⌊4·v + ½⌋: (0,1) c(0,4) kept, (⅓,1) c(1,4) kept, (1,1) c(4,4) kept.
    assert_eq!(
        whole[0].roc[0],
        vec![(0.0, 0.0), (0.0, 1.0), (0.5 / 1.5, 1.0), (1.0, 1.0)]
    );
    assert_eq!(whole[0].ccdf[0].len(), 3);
    let merged = run_segments(&d, &maps, &[score_key(0.4), score_key(0.25)], &settings);
    assert_eq!(merged, whole);
}

/// `w` (finite, `>= 0`) as `integer × 2^exponent`.
fn scaled(w: f64) -> ScaledSum {
    let bits = w.to_bits();
    let (exp, mant) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
    if exp == 0 {
        ScaledSum {
            integer: u128::from(mant),
            exponent: -1074,
        }
    } else {
        ScaledSum {
            integer: u128::from(mant | (1 << 52)),
            exponent: exp as i32 - 1075,
        }
    }
}

/// The rows of `d` as counted cells: unweighted, each (stream, score) cut into a random number
/// of cells; weighted, one cell per row (so equal scores arrive as many cells to merge).
fn cells_of(d: &Data, rng: &mut ChaCha8Rng) -> Vec<ScoreCell> {
    let mut out: Vec<ScoreCell> = Vec::new();
    for i in 0..d.y.len() {
        let stream = stream_of(d.finest[i], d.y[i]);
        let weights = d.w.as_ref().map(|w| {
            let sq = w[i] * w[i];
            (scaled(w[i]), sq.is_finite().then(|| scaled(sq)))
        });
        let same = out.iter_mut().find(|c| {
            c.stream == stream && score_key(c.score) == score_key(d.s[i]) && weights.is_none()
        });
        match same {
            Some(c) if rng.random_bool(0.7) => c.rows += 1,
            _ => out.push(ScoreCell {
                stream,
                score: d.s[i],
                rows: 1,
                weights,
            }),
        }
    }
    out
}

#[test]
fn counted_cells_sweep_like_the_rows() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let settings = SweepSettings {
        interval: Some(PercentileInterval::new(0.1, 0.6).unwrap()),
        curve_points: 40,
    };
    for (weighted, seed) in [(false, 1), (false, 2), (true, 3), (true, 4)] {
        let d = data(700, 3, weighted, seed);
        let maps = slices(d.n_finest);
        let mut rows = SegmentRows::new(weighted, true);
        rows.add_batch(&d.y, &d.s, &d.finest, d.w.as_deref())
            .unwrap();
        let totals = rows.totals().clone();
        let from_rows = rows
            .sweep(&maps, &totals, &StreamTotals::new(weighted), &settings)
            .unwrap();
        let mut cells = cells_of(&d, &mut rng);
        cells.reverse(); // any order
        // The totals alone, whole and per score range (as Spark counts ranges), are the same.
        let whole = counted_totals(&cells, weighted).unwrap();
        assert_eq!(whole.to_bytes(), totals.to_bytes(), "weighted {weighted}");
        let (high, low): (Vec<_>, Vec<_>) = cells.iter().cloned().partition(|c| c.score >= 0.5);
        let mut ranges = counted_totals(&high, weighted).unwrap();
        ranges
            .merge(&counted_totals(&low, weighted).unwrap())
            .unwrap();
        assert_eq!(ranges.to_bytes(), totals.to_bytes(), "weighted {weighted}");
        let (from_cells, counted) = sweep_counted(cells, weighted, &maps, &settings).unwrap();
        // The totals are exact: the same bytes however the rows were counted.
        assert_eq!(counted.to_bytes(), totals.to_bytes(), "weighted {weighted}");
        let got = from_cells
            .clone()
            .finish(&maps, &counted, &settings)
            .unwrap();
        if !weighted {
            assert_eq!(from_cells, from_rows);
            assert_eq!(got, one_pass(&d, &maps, &settings));
        } else {
            let want = one_pass(&d, &maps, &settings);
            for (g, w) in got.iter().zip(&want) {
                for (a, b) in g.auc_by_group.iter().zip(&w.auc_by_group) {
                    assert!(close(a.unwrap(), b.unwrap()), "{a:?} {b:?}");
                }
                let (a, b) = (g.ks_dp.as_ref().unwrap(), w.ks_dp.as_ref().unwrap());
                assert!(close(a.summary.max, b.summary.max));
            }
        }
    }
}

#[test]
fn bad_counted_cells_are_errors() {
    let maps = slices(1);
    let settings = SweepSettings {
        interval: None,
        curve_points: 0,
    };
    let cell = |score: f64, rows: u64, weights| ScoreCell {
        stream: 0,
        score,
        rows,
        weights,
    };
    let w = Some((scaled(1.0), Some(scaled(1.0))));
    let cases = [
        (vec![cell(0.5, 0, None)], false),
        (vec![cell(f64::NAN, 1, None)], false),
        (vec![cell(0.5, 1, w)], false),
        (vec![cell(0.5, 1, None)], true),
        (
            vec![
                cell(0.5, 2, Some((scaled(f64::MAX), Some(scaled(1.0))))),
                cell(0.5, 1, Some((scaled(f64::MAX), None))),
            ],
            true,
        ),
    ];
    for (i, (cells, weighted)) in cases.into_iter().enumerate() {
        assert!(
            sweep_counted(cells.clone(), weighted, &maps, &settings).is_err(),
            "{cells:?}"
        );
        // The last case's cells are valid alone; only the sweep's block sum is not finite.
        assert_eq!(
            counted_totals(&cells, weighted).is_err(),
            i < 4,
            "{cells:?}"
        );
    }
}

#[test]
fn renumbered_totals_move_every_stream_once() {
    let mut t = StreamTotals::new(true);
    t.add(0, 0.5);
    t.add(2, 2.0);
    t.add(3, 0.25);
    let moved = t.renumbered(&[3, 2, 1, 0]).unwrap();
    assert_eq!(
        (moved.rows(3), moved.rows(1), moved.rows(0)),
        (t.rows(0), t.rows(2), t.rows(3))
    );
    assert_eq!(moved.sums([3].into_iter()), t.sums([0].into_iter()));
    // Back again: the same bytes.
    let back = moved.renumbered(&[3, 2, 1, 0]).unwrap();
    assert_eq!(back.to_bytes(), t.to_bytes());
    assert!(
        t.renumbered(&[0, 0, 1, 2]).is_err(),
        "two streams numbered alike"
    );
    assert!(
        t.renumbered(&[0, 1]).is_err(),
        "a stream left without a number"
    );
}
