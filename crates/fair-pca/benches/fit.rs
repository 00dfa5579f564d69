//! Pareto fair PCA vs vanilla PCA on Adult's one-hot encoding (`adult_tfco`: 122 indicator
//! columns, the 32,561 rows of adult.data), r = 10: the default (MW min–max start, then descent
//! on `[L, E_i, Δ_ij]` with Riemannian gradients and warm-started Armijo to `‖D‖ ≤ 1e-5`) and the
//! paper reading (`FairPca::paper`: pairwise, 1/√t, 500 iterations, vanilla start). All include
//! centring and the Gram matrices, so the ratios are end-to-end. Target (issues 16 and before):
//! fair ≤ 5 × vanilla.
//!
//! `cargo bench -p fair-pca --bench fit`

use divan::Bencher;
use fair_data::{Groups, recipes};
use fair_pca::{Centering, FairPca, MwFairPca, vanilla_pca};
use nalgebra::DMatrix;
use std::sync::OnceLock;

const R: usize = 10;

struct Adult {
    x: DMatrix<f64>,
    sex: Groups,
    race: Groups,
}

fn adult() -> &'static Adult {
    static DATA: OnceLock<Adult> = OnceLock::new();
    DATA.get_or_init(|| {
        let all = recipes::adult_tfco().expect("embedded Adult loads");
        let rows: Vec<usize> = (0..recipes::ADULT_TRAIN_ROWS).collect();
        let ds = all.select(&rows).expect("valid rows");
        Adult {
            x: ds.x().clone(),
            sex: ds.groups("sex").expect("attribute").clone(),
            race: ds.groups("race").expect("attribute").clone(),
        }
    })
}

fn main() {
    divan::main();
}

#[divan::bench(sample_count = 10)]
fn vanilla_pca_r10(bencher: Bencher) {
    let a = adult();
    bencher.bench(|| vanilla_pca(divan::black_box(&a.x), R, Centering::Global).expect("fits"));
}

#[divan::bench(sample_count = 10)]
fn pareto_fair_pca_sex_r10(bencher: Bencher) {
    let a = adult();
    bencher.bench(|| {
        FairPca::params(R)
            .fit(divan::black_box(&a.x), &a.sex)
            .expect("fits")
    });
}

#[divan::bench(sample_count = 10)]
fn pareto_fair_pca_race_r10(bencher: Bencher) {
    let a = adult();
    bencher.bench(|| {
        FairPca::params(R)
            .fit(divan::black_box(&a.x), &a.race)
            .expect("fits")
    });
}

#[divan::bench(sample_count = 10)]
fn paper_reading_sex_r10(bencher: Bencher) {
    let a = adult();
    bencher.bench(|| {
        FairPca::paper(R)
            .fit(divan::black_box(&a.x), &a.sex)
            .expect("fits")
    });
}

#[divan::bench(sample_count = 10)]
fn paper_reading_race_r10(bencher: Bencher) {
    let a = adult();
    bencher.bench(|| {
        FairPca::paper(R)
            .fit(divan::black_box(&a.x), &a.race)
            .expect("fits")
    });
}

#[divan::bench(sample_count = 10)]
fn mw_rank_r_race_r10(bencher: Bencher) {
    let a = adult();
    bencher.bench(|| {
        MwFairPca::params(R)
            .fit(divan::black_box(&a.x), &a.race)
            .expect("fits")
    });
}

#[divan::bench(sample_count = 10)]
fn mw_samadi_sex_r10(bencher: Bencher) {
    let a = adult();
    bencher.bench(|| {
        MwFairPca::samadi(R)
            .fit(divan::black_box(&a.x), &a.sex)
            .expect("fits")
    });
}
