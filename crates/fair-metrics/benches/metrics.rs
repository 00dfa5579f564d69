//! Throughput of the hot metrics on synthetic data.
//!
//! Data are built once per size, outside the timed closure, from a fixed ChaCha8 seed: 8 groups
//! (2 for KS), labels whose base rate depends on the group, predictions that agree with the label
//! 80 % of the time, and scores = label + group shift + uniform noise.
//!
//! Run: `CARGO_TARGET_DIR=/tmp/target-metrics cargo bench -p fair-metrics`.

use divan::{Bencher, black_box};
use fair_data::Groups;
use fair_metrics::parity::{ParityOptions, parity_gaps};
use fair_metrics::partial::{PercentileInterval, partial_statistical_parity};
use fair_metrics::{GroupConfusion, ks};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    divan::main();
}

const SIZES: [usize; 3] = [100_000, 1_000_000, 10_000_000];

struct Data {
    y_true: Vec<usize>,
    y_pred: Vec<usize>,
    scores: Vec<f64>,
    weights: Vec<f64>,
    groups: Groups,
}

fn data(n: usize, n_groups: usize) -> Data {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_fa11);
    let mut codes = Vec::with_capacity(n);
    let mut y_true = Vec::with_capacity(n);
    let mut y_pred = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(n);
    let mut weights = Vec::with_capacity(n);
    for _ in 0..n {
        let g = rng.random_range(0..n_groups);
        let base_rate = 0.2 + 0.4 * g as f64 / n_groups as f64;
        let y = usize::from(rng.random_bool(base_rate));
        let p = if rng.random_bool(0.8) { y } else { 1 - y };
        codes.push(g);
        y_true.push(y);
        y_pred.push(p);
        scores.push(y as f64 + 0.1 * g as f64 + rng.random::<f64>());
        weights.push(0.5 + rng.random::<f64>());
    }
    Data {
        y_true,
        y_pred,
        scores,
        weights,
        groups: Groups::from_codes(&codes).expect("non-empty codes"),
    }
}

/// One pass of weighted confusion counts over 8 groups, then DP/EO/EOdds/accuracy gaps.
#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn group_rates_dp_eo(bencher: Bencher, n: usize) {
    let d = data(n, 8);
    bencher.bench(|| {
        let gc = GroupConfusion::new(&d.y_true, &d.y_pred, &d.groups, None).expect("valid");
        black_box(parity_gaps(&gc, &ParityOptions::default()).expect("defined"))
    });
}

/// The same with sample weights.
#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn group_rates_dp_eo_weighted(bencher: Bencher, n: usize) {
    let d = data(n, 8);
    bencher.bench(|| {
        let gc =
            GroupConfusion::new(&d.y_true, &d.y_pred, &d.groups, Some(&d.weights)).expect("valid");
        black_box(parity_gaps(&gc, &ParityOptions::default()).expect("defined"))
    });
}

/// Exact KS Δ between 2 groups (sort + merge).
#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn ks_delta_two_groups(bencher: Bencher, n: usize) {
    let d = data(n, 2);
    bencher.bench(|| {
        black_box(
            ks::ks_statistic(&d.scores, &d.groups, None)
                .expect("valid")
                .max,
        )
    });
}

/// Exact KS Δ between 2 groups, weighted.
#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn ks_delta_two_groups_weighted(bencher: Bencher, n: usize) {
    let d = data(n, 2);
    bencher.bench(|| {
        black_box(
            ks::ks_statistic(&d.scores, &d.groups, Some(&d.weights))
                .expect("valid")
                .max,
        )
    });
}

/// Partial statistical parity on the top 30 % over 8 groups (28 pairwise merges).
#[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
fn partial_sp_eight_groups(bencher: Bencher, n: usize) {
    let d = data(n, 8);
    let interval = PercentileInterval::new(0.0, 0.3).expect("valid interval");
    bencher.bench(|| {
        black_box(
            partial_statistical_parity(&d.scores, &d.groups, None, interval)
                .expect("valid")
                .max,
        )
    });
}

const TEN_MILLION: [usize; 1] = [10_000_000];

/// Exact KS Δ over all 28 pairs of 8 groups: one sort per group (order-preserving `u64` keys),
/// then a linear merge per pair.
#[divan::bench(args = TEN_MILLION, sample_count = 10, sample_size = 1)]
fn ks_all_pairs_eight_groups(bencher: Bencher, n: usize) {
    let d = data(n, 8);
    bencher.bench(|| {
        black_box(
            ks::ks_statistic(&d.scores, &d.groups, None)
                .expect("valid")
                .max,
        )
    });
}

/// The audit's path on the same data: bucket rows into (group, label) streams of `u64` keys,
/// sort each once, and one k-way sweep that yields KS DP-Δ and EO-Δ for all 28 pairs plus every
/// group's AUC.
#[divan::bench(args = TEN_MILLION, sample_count = 10, sample_size = 1)]
fn score_sweep_eight_groups(bencher: Bencher, n: usize) {
    use fair_metrics::score_sweep::{
        Run, SliceMap, StreamTotals, SweepSettings, score_key, sort_keys, stream_of, sweep,
    };
    let d = data(n, 8);
    let map = SliceMap {
        names: d.groups.names().to_vec(),
        group_of: (0..8).collect(),
    };
    let settings = SweepSettings {
        interval: None,
        curve_points: 0,
    };
    bencher.bench(|| {
        let mut streams: Vec<Vec<u64>> = vec![Vec::new(); 16];
        let mut totals = StreamTotals::new(false);
        for ((&g, &y), &s) in d.groups.codes().iter().zip(&d.y_true).zip(&d.scores) {
            let st = stream_of(g, y);
            streams[st].push(score_key(s));
            totals.add(st, 1.0);
        }
        streams.iter_mut().for_each(|k| sort_keys(k));
        let runs = streams
            .iter()
            .enumerate()
            .map(|(s, k)| Run::from_sorted_keys(s, k))
            .collect();
        let out = sweep(std::slice::from_ref(&map), &totals, runs, &settings).expect("valid");
        black_box(out[0].ks_dp.as_ref().expect("defined").summary.max)
    });
}

/// The floor of both KS paths: bucketing the rows of 8 groups into `u64` key arrays and sorting
/// each once (no metric).
#[divan::bench(args = TEN_MILLION, sample_count = 10, sample_size = 1)]
fn sort_only_eight_groups(bencher: Bencher, n: usize) {
    use fair_metrics::score_sweep::{score_key, sort_keys};
    let d = data(n, 8);
    bencher.bench(|| {
        let mut buckets: Vec<Vec<u64>> = vec![Vec::new(); 8];
        for (&g, &s) in d.groups.codes().iter().zip(&d.scores) {
            buckets[g].push(score_key(s));
        }
        buckets.iter_mut().for_each(|k| sort_keys(k));
        black_box(buckets[0][0])
    });
}
