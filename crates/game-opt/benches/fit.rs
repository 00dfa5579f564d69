//! Per-variant fit times on Adult-size data (48,842 × 122, the TFCO recipe, 70 % train split),
//! equal opportunity at 95 % for Black, White, Female, Male (m = 4), and the shrinking LP.
//!
//! Run: `cargo bench -p game-opt --bench fit`. Inputs are built outside the timed region.

use divan::Bencher;
use game_opt::{
    Algorithm, Direction, Examples, GameOptParams, Linear, Mlp, Problem, Slack, goals, shrink,
};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

/// Steps per fit (one Adult fit of the reproduction uses 3,000).
const ITERATIONS: usize = 1000;

fn adult() -> &'static Problem {
    static P: OnceLock<Problem> = OnceLock::new();
    P.get_or_init(|| {
        let data = fair_data::recipes::adult_tfco().expect("embedded Adult");
        let (train, _, _) = fair_data::Splitter::new()
            .validation(0.1)
            .test(0.2)
            .seed(0)
            .split_dataset(&data, false)
            .expect("split");
        let (d, s) = (Direction::AtLeast, Slack::Multiplicative(0.95));
        let mut c = goals::equal_opportunity("race", &["Black", "White"], d, s);
        c.extend(goals::equal_opportunity("sex", &["Female", "Male"], d, s));
        Problem::new(Examples::from_dataset(&train).expect("examples"), c).expect("problem")
    })
}

fn algorithm(name: &str) -> Algorithm {
    match name {
        "unconstrained" => Algorithm::Unconstrained,
        "hinge" => Algorithm::Hinge,
        "zero_one_ext" => Algorithm::ZeroOneExt,
        _ => Algorithm::ProxyLagrangian,
    }
}

#[divan::bench(args = ["unconstrained", "hinge", "zero_one_swap", "zero_one_ext"], sample_count = 5)]
fn adult_linear_fit_1000_steps(bencher: Bencher, variant: &str) {
    let p = adult();
    let params = GameOptParams::new()
        .algorithm(algorithm(variant))
        .iterations(ITERATIONS)
        .batch_size(512)
        .snapshot_every(30)
        .lr_theta(0.01)
        .lr_lambda(if variant == "zero_one_swap" { 1.0 } else { 0.1 })
        .seed(1);
    bencher.bench(|| {
        params
            .fit(p, Linear::new(p.examples().n_features()))
            .expect("fit")
    });
}

#[divan::bench(sample_count = 5)]
fn adult_mlp10_fit_1000_steps(bencher: Bencher) {
    let p = adult();
    let params = GameOptParams::new()
        .iterations(ITERATIONS)
        .batch_size(128)
        .snapshot_every(40)
        .seed(1);
    let net = Mlp::new(p.examples().n_features(), 10, 2).expect("mlp");
    bencher.bench(|| params.fit(p, net.clone()).expect("fit"));
}

#[divan::bench(args = [100, 1000])]
fn shrinking_lp_m4(bencher: Bencher, t: usize) {
    let obj: Vec<f64> = (0..t)
        .map(|i| 0.14 + ((i * 37) % 101) as f64 * 1e-4)
        .collect();
    let cons: Vec<Vec<f64>> = (0..t)
        .map(|i| {
            (0..4)
                .map(|k| (((i * 13 + k * 7) % 97) as f64 - 50.0) * 1e-3)
                .collect()
        })
        .collect();
    bencher.bench(|| shrink(&obj, &cons, 0.0, 1e-4).expect("lp"));
}
