//! The mergeable audit states: `ConfusionState` / `ScoreState` / `RegressionState` (and a
//! prediction sweep's `DistributionSegment`) built from arbitrary batches,
//! encoded, corrupted by arbitrary edits, decoded (`from_bytes`), merged and turned into metrics.
//! Invariants: no panic or abort (no allocation sized by a decoded count), decoding what was
//! encoded gives the same bytes, and metrics of a decoded state are finite and in [0, 1] — also
//! the confidence intervals and the bootstrap/permutation gap inference (`fair_metrics::ci`),
//! which sum the decoded (possibly forged) row counts.
#![no_main]

use arbitrary::Arbitrary;
use fair_data::Groups;
use fair_metrics::ci::{GapMetric, GapSettings, RateCiMethod, gap_inference, rate_intervals};
use fair_metrics::distribution::{DistributionSegment, DistributionSettings, sweep_segment};
use fair_metrics::regression::{RegressionMetric, RegressionState};
use fair_metrics::score_sweep::{Run, SliceMap, StreamTotals, score_key, sort_weighted, stream_of};
use fair_metrics::state::{ConfusionState, ScoreState};
use fair_metrics::{Rate, ZeroDivision, ks, roc};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Row {
    label: u8,
    pred: u8,
    group: u8,
    score: i16,
    weight: u16,
}

#[derive(Arbitrary, Debug)]
enum Edit {
    /// Overwrite the byte at (offset mod len).
    Set(u16, u8),
    /// Write a little-endian u64 at (offset mod len), e.g. a huge length or count.
    U64(u16, u64),
    Truncate(u16),
    Append(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
struct Input {
    batches: Vec<Vec<Row>>,
    weighted: bool,
    edits: Vec<Edit>,
    raw: Vec<u8>,
}

fn apply(bytes: &mut Vec<u8>, edits: &[Edit]) {
    for e in edits {
        let len = bytes.len().max(1);
        match e {
            Edit::Set(o, b) => {
                if let Some(x) = bytes.get_mut(*o as usize % len) {
                    *x = *b;
                }
            }
            Edit::U64(o, v) => {
                let at = *o as usize % len;
                for (i, b) in v.to_le_bytes().iter().enumerate() {
                    if let Some(x) = bytes.get_mut(at + i) {
                        *x = *b;
                    }
                }
            }
            Edit::Truncate(n) => bytes.truncate(*n as usize % len),
            Edit::Append(extra) => bytes.extend_from_slice(extra),
        }
    }
}

fn unit(v: f64, what: &str) {
    assert!(
        v.is_finite() && (-1e-9..=1.0 + 1e-9).contains(&v),
        "{what} = {v}"
    );
}

fn check_confusion(s: &ConfusionState) {
    if let Ok(gc) = s.to_group_confusion() {
        for rate in Rate::ALL {
            if let Ok(sum) = gc.summary(rate, ZeroDivision::Skip) {
                unit(sum.overall, "overall rate");
                sum.by_group
                    .iter()
                    .flatten()
                    .for_each(|v| unit(*v, "group rate"));
            }
        }
    }
}

/// Intervals and gap inference of a (possibly decoded) state: finite, in range, or a typed error.
fn check_inference(s: &ConfusionState, seed: u64) {
    for method in [RateCiMethod::Wilson, RateCiMethod::ClopperPearson] {
        if let Ok(ci) = rate_intervals(s, Rate::Selection, 0.9, method) {
            for g in ci.groups.iter().chain([&ci.overall]) {
                if let Some(iv) = g.interval {
                    unit(iv.lower, "interval lower");
                    unit(iv.upper, "interval upper");
                    assert!(iv.lower <= iv.upper, "{iv:?}");
                }
            }
        }
    }
    let settings = GapSettings {
        n_resamples: 100,
        seed,
        ..GapSettings::default()
    };
    for metric in [GapMetric::Rate(Rate::Selection), GapMetric::EqualizedOdds] {
        if let Ok(gap) = gap_inference(s, metric, &settings) {
            unit(gap.estimate, "gap");
            unit(gap.interval.lower, "gap interval lower");
            unit(gap.interval.upper, "gap interval upper");
            assert!(
                gap.p_value > 0.0 && gap.p_value <= 1.0,
                "p = {}",
                gap.p_value
            );
        }
    }
}

fn check_scores(s: &ScoreState) {
    // Materialising columns is only sensible for small states; the decoder must not let a
    // forged count force a huge allocation (to_columns reports it as an error instead).
    if s.total_rows() > 100_000 {
        return;
    }
    if let Ok(cols) = s.to_columns() {
        let w = cols.weights.as_deref();
        if let Ok(k) = ks::ks_statistic(&cols.scores, &cols.groups, w) {
            unit(k.max, "KS");
        }
        if let Ok(a) = roc::roc_auc(&cols.y_true, &cols.scores, w) {
            unit(a, "AUC");
        }
    }
}

/// A (possibly decoded) regression state's summary and gaps: numbers or typed errors, no panic.
fn check_regression(s: &RegressionState) {
    if let Ok(summary) = s.summary() {
        for metric in RegressionMetric::ALL {
            let _ = summary.gap(metric);
        }
        let _ = summary.bounded_group_loss(true);
    }
}

/// The prediction sweep of the rows (score as the prediction) as one segment, its bytes, and
/// the slices and totals it needs; `None` without rows.
fn segment_of(batches: &[Vec<Row>], weighted: bool) -> Option<(Vec<u8>, SliceMap, StreamTotals)> {
    let mut rows: Vec<Vec<(u64, f64)>> = vec![Vec::new(); 3];
    let mut totals = StreamTotals::new(weighted);
    for r in batches.iter().take(4).flatten() {
        let g = usize::from(r.group % 3);
        let w = if weighted {
            f64::from(r.weight) / 16.0
        } else {
            1.0
        };
        rows[g].push((score_key(f64::from(r.score) / 64.0), w));
        totals.add(stream_of(g, 0), w);
    }
    rows.iter_mut().for_each(|r| sort_weighted(r));
    let map = SliceMap {
        names: vec!["a".into(), "b".into(), "c".into()],
        group_of: vec![0, 1, 2],
    };
    let runs = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.is_empty())
        .map(|(g, r)| Run::from_sorted_pairs(stream_of(g, 0), r))
        .collect();
    let settings = DistributionSettings {
        quantile: 0.5,
        curve_points: 4,
    };
    let nothing = StreamTotals::new(weighted);
    let seg = sweep_segment(
        std::slice::from_ref(&map),
        &totals,
        &nothing,
        None,
        runs,
        &settings,
    )
    .ok()?;
    Some((seg.to_bytes(), map, totals))
}

fuzz_target!(|input: Input| {
    let mut conf = ConfusionState::new();
    let mut score = ScoreState::new();
    let mut regression = RegressionState::new();
    for batch in input.batches.iter().take(4) {
        let y: Vec<usize> = batch
            .iter()
            .map(|r| {
                if r.label == 255 {
                    2
                } else {
                    (r.label & 1) as usize
                }
            })
            .collect();
        let p: Vec<usize> = batch.iter().map(|r| (r.pred & 1) as usize).collect();
        let g: Vec<String> = batch.iter().map(|r| format!("g{}", r.group % 3)).collect();
        let groups = Groups::from_labels(&g);
        let s: Vec<f64> = batch.iter().map(|r| f64::from(r.score) / 64.0).collect();
        let w: Vec<f64> = batch.iter().map(|r| f64::from(r.weight) / 16.0).collect();
        let w = input.weighted.then_some(w.as_slice());
        let mut part = ConfusionState::new();
        if part.update(&y, &p, &groups, w).is_ok() {
            conf.merge(&part).expect("same weighting");
        }
        let target: Vec<f64> = batch.iter().map(|r| f64::from(r.pred) - 8.0).collect();
        let mut rpart = RegressionState::new();
        if rpart.update(&target, &s, &g, w).is_ok() {
            let rpart = RegressionState::from_bytes(&rpart.to_bytes()).expect("own encoding");
            regression.merge(&rpart);
        }
        let mut spart = ScoreState::new();
        if spart.update(&y, &s, &groups, w).is_ok() {
            score.merge(&spart).expect("same weighting");
        }
    }
    check_confusion(&conf);
    check_inference(&conf, input.edits.len() as u64);
    check_scores(&score);

    // Round trip.
    let cb = conf.to_bytes();
    let back = ConfusionState::from_bytes(&cb).expect("own encoding decodes");
    assert_eq!(back.to_bytes(), cb);
    let sb = score.to_bytes();
    let sback = ScoreState::from_bytes(&sb).expect("own encoding decodes");
    assert_eq!(sback.to_bytes(), sb);

    check_regression(&regression);
    let rb = regression.to_bytes();
    let rback = RegressionState::from_bytes(&rb).expect("own encoding decodes");
    assert_eq!(rback.to_bytes(), rb);

    // Corrupted encodings and raw bytes: typed errors or valid states.
    let mut cb2 = cb.clone();
    apply(&mut cb2, &input.edits);
    for bytes in [&cb2, &input.raw] {
        if let Ok(mut s) = ConfusionState::from_bytes(bytes) {
            check_confusion(&s);
            check_inference(&s, bytes.len() as u64);
            let _ = s.merge(&back);
            check_confusion(&s);
        }
    }
    let mut sb2 = sb.clone();
    apply(&mut sb2, &input.edits);
    for bytes in [&sb2, &input.raw] {
        if let Ok(mut s) = ScoreState::from_bytes(bytes) {
            check_scores(&s);
            let _ = s.merge(&sback);
            check_scores(&s);
        }
    }
    let mut rb2 = rb.clone();
    apply(&mut rb2, &input.edits);
    for bytes in [&rb2, &input.raw] {
        if let Ok(mut s) = RegressionState::from_bytes(bytes) {
            check_regression(&s);
            s.merge(&rback);
            check_regression(&s);
        }
    }
    // A prediction sweep's segment: its bytes decode to the same bytes; corrupted or raw bytes
    // are typed errors or segments whose merge and finish return numbers or errors.
    if let Some((bytes, map, totals)) = segment_of(&input.batches, input.weighted) {
        let maps = [map];
        let back = DistributionSegment::from_bytes(&bytes, &maps, &totals).expect("own bytes");
        assert_eq!(back.to_bytes(), bytes);
        let _ = back
            .clone()
            .finish(&maps, &totals)
            .expect("one pass finishes");
        let mut bytes2 = bytes.clone();
        apply(&mut bytes2, &input.edits);
        for b in [&bytes2, &input.raw] {
            if let Ok(seg) = DistributionSegment::from_bytes(b, &maps, &totals) {
                let mut upper = back.clone();
                let _ = upper.merge_lower(seg.clone());
                let _ = seg.finish(&maps, &totals);
                let _ = upper.finish(&maps, &totals);
            }
        }
    }
});
