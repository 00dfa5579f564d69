//! One κ of model (15) on the a9a-size problem: IDCA with T × K = 150 × 100 inner iterations
//! (the smallest budget of the paper's grid), |Î| = 10, I = [5 %, 30 %], κ = 0.05, on the
//! 32,561 training rows of the a9a-like Adult encoding (123 sparse binary features, cross terms).
//!
//! Run once in release: `cargo bench -p dc-opt --bench idca`.

use dc_opt::{CrossData, Idca, PartialSp, SparseRows, Surrogate, percentile_grid};
use fair_metrics::partial::PercentileInterval;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

fn data() -> &'static CrossData {
    static DATA: OnceLock<CrossData> = OnceLock::new();
    DATA.get_or_init(|| {
        let all = fair_data::recipes::adult_a9a().expect("embedded Adult data");
        let idx: Vec<usize> = (0..fair_data::recipes::ADULT_TRAIN_ROWS).collect();
        let train = all.select(&idx).expect("training rows");
        let x = SparseRows::from_dense(train.x()).expect("finite features");
        let g = train.groups("sex").expect("sex attribute").clone();
        CrossData::new(&x, train.y(), &g).expect("valid training data")
    })
}

#[divan::bench(sample_count = 1, sample_size = 1)]
fn idca_one_kappa_a9a(bencher: divan::Bencher) {
    let data = data();
    let interval = PercentileInterval::new(0.05, 0.30).expect("valid interval");
    let kappa = 0.05;
    let grid = percentile_grid(interval, kappa, 10).expect("grid");
    let problem =
        PartialSp::new(data, interval, kappa, grid, Surrogate::HardSigmoid).expect("model (15)");
    let x0 = problem.initial_point();
    bencher.bench(|| {
        Idca::params()
            .outer_iters(100)
            .inner_iters(150)
            .eps(1e-3)
            .fit(&problem, &x0)
            .expect("IDCA runs")
    });
}
